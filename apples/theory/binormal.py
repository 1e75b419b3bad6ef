"""The binormal score model: two normal score distributions, one per class.

Introduced in notebook 07. Parker (2011) §II and Hand (2009) §3 describe a
classifier by the score densities of its two classes; the binormal model is
the simplest continuous instance and lets every integral of Parker §III be
checked by quadrature against a closed form.

Orientation. apples uses one convention throughout: label 1 is positive and
a *higher* score means *more positive*; a threshold ``t`` predicts positive
for ``score > t``. Parker (2011) §II uses the mirror image (class 0 positive,
lower scores more positive, predict positive for ``s < t``). The two are the
same model under ``s = -score``, so in apples' orientation Parker's symbols read

=====================  ===========================================
Parker §II             apples (this module)
=====================  ===========================================
pi_0, pi_1             ``pi_pos``, ``pi_neg``
f_0(t), f_1(t)         ``pdf_pos(t)``, ``pdf_neg(t)``
F_0(t)  (recall)       ``tpr(t)`` = P(score_pos > t)
F_1(t)  (FPR)          ``fpr(t)`` = P(score_neg > t)
1 - F_0(t)             ``cdf_pos(t)`` (the false-negative rate)
f(t), F(t)             ``pdf(t)``, ``positive_rate(t)``
=====================  ===========================================
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from scipy import special, stats

from apples._params import (
    check_count,
    check_real,
    check_real_array,
    rng_from_seed,
)

if TYPE_CHECKING:  # pandas is imported where a table is built
    pass


__all__ = [
    "Binormal",
]

_SQRT_2PI = math.sqrt(2 * math.pi)
#: Largest finite float64 (about 1.8e308).
_MAX_FLOAT = float(np.finfo(np.float64).max)


def _check_parameter(name: str, value: object) -> float:
    """A finite real model parameter (:func:`check_real`; NaN reported as "must be finite")."""
    if isinstance(value, (float, np.floating)) and value != value:
        raise ValueError(f"{name} must be finite, got nan")
    return check_real(name, value)


def _check_size(name: str, value: object) -> int:
    """A number of cases, at least 1 (then :func:`check_count`, which refuses more than 2**53).

    Not :func:`check_positive`: its messages ("a non-negative integer count", "at least 1")
    would replace this one's "must be a positive integer", which the tests and the notebooks' readers see.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a positive integer, got {value!r} ({type(value).__name__})")
    if value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value}")
    return check_count(name, value)


@dataclass(frozen=True)
class Binormal:
    """Binormal scores: positives ~ N(mu_pos, sd_pos²), negatives ~ N(mu_neg, sd_neg²).

    Parameters
    ----------
    mu_pos, sd_pos : float, default 1.0, 1.0
        Mean and standard deviation of the positives' scores (Parker's f_0).
    mu_neg, sd_neg : float, default 0.0, 1.0
        Mean and standard deviation of the negatives' scores (Parker's f_1).
    pi_pos : float, default 0.5
        Proportion of positives, Parker's π_0, strictly between 0 and 1.

    Raises
    ------
    TypeError
        If a parameter is not a real number.
    ValueError
        If a parameter is not finite, a standard deviation is not positive,
        ``pi_pos`` is not strictly between 0 and 1, or the binormal ``a`` or
        ``b`` (Notes) is not a finite non-zero float: a standard deviation
        about 1.8e308 times smaller than the other one (or than
        ``|mu_pos - mu_neg|``), e.g. ``sd_pos=5e-324``, where the ROC curve
        would be NaN.

    Notes
    -----
    The ROC curve is TPR = Φ(a + b·Φ⁻¹(FPR)) with ``a = (mu_pos - mu_neg)/sd_pos``
    and ``b = sd_neg/sd_pos`` (the usual binormal parametrisation), and
    AUC = P(score_pos > score_neg) = Φ((mu_pos - mu_neg)/√(sd_pos² + sd_neg²)),
    since the difference of the two scores is normal. With ``sd_pos == sd_neg``
    the likelihood ratio is monotone and the ROC curve concave; otherwise it
    is not, and the curve has a non-concave stretch (Hand 2009 §5).

    Examples
    --------
    >>> m = Binormal(mu_pos=1.0, mu_neg=0.0)
    >>> round(m.auc, 6)
    0.76025
    >>> round(float(m.roc(0.5)), 6), round(float(m.tpr(0.0)), 6)
    (0.841345, 0.841345)
    """

    mu_pos: float = 1.0
    sd_pos: float = 1.0
    mu_neg: float = 0.0
    sd_neg: float = 1.0
    pi_pos: float = 0.5

    def __post_init__(self) -> None:
        for name in ("mu_pos", "sd_pos", "mu_neg", "sd_neg", "pi_pos"):
            object.__setattr__(self, name, _check_parameter(name, getattr(self, name)))
        for name in ("sd_pos", "sd_neg"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)}")
        if not 0 < self.pi_pos < 1:
            raise ValueError(f"pi_pos must be strictly between 0 and 1, got {self.pi_pos}")
        self._check_roc_parameters()

    def _check_roc_parameters(self) -> None:
        """Refuse parameters whose binormal a or b is not a finite, non-zero float.

        With b = inf (sd_pos tiny against sd_neg) or a = ±inf, ``roc`` meets
        inf·0 and inf - inf (NaN); with b = 0 (sd_neg tiny against sd_pos),
        0·inf at FPR 0 and 1. The error names the argument and its usable range.
        """
        big = _MAX_FLOAT
        if not math.isfinite(self.sd_neg / self.sd_pos):
            raise ValueError(
                f"sd_pos={self.sd_pos!r} is too small for sd_neg={self.sd_neg!r}: the binormal slope "
                f"b = sd_neg/sd_pos overflows float64; sd_pos must be at least sd_neg/{big:.4g} "
                f"(about {self.sd_neg / big:.3g} here)"
            )
        if self.sd_neg / self.sd_pos == 0.0:
            raise ValueError(
                f"sd_neg={self.sd_neg!r} is too small for sd_pos={self.sd_pos!r}: the binormal slope "
                f"b = sd_neg/sd_pos underflows to 0; sd_neg must be at least sd_pos·5e-324 "
                f"(about {self.sd_pos * 5e-324:.3g} here)"
            )
        gap = self.mu_pos - self.mu_neg
        if not math.isfinite(gap):
            raise ValueError(
                f"mu_pos={self.mu_pos!r} and mu_neg={self.mu_neg!r} are too far apart: mu_pos - mu_neg "
                f"overflows float64; their difference must be at most {big:.4g}"
            )
        if not math.isfinite(gap / self.sd_pos):
            raise ValueError(
                f"sd_pos={self.sd_pos!r} is too small for mu_pos - mu_neg = {gap!r}: the binormal intercept "
                f"a = (mu_pos - mu_neg)/sd_pos overflows float64; sd_pos must be at least "
                f"|mu_pos - mu_neg|/{big:.4g} (about {abs(gap) / big:.3g} here)"
            )

    # -- the two classes ----------------------------------------------------------
    @property
    def pi_neg(self) -> float:
        """Proportion of negatives, Parker's π_1 = 1 - π_0."""
        return 1.0 - self.pi_pos

    @property
    def pos(self):
        """The positives' score distribution (a frozen ``scipy.stats.norm``)."""
        return stats.norm(self.mu_pos, self.sd_pos)

    @property
    def neg(self):
        """The negatives' score distribution (a frozen ``scipy.stats.norm``)."""
        return stats.norm(self.mu_neg, self.sd_neg)

    # The methods below use scipy.special (ndtr, ndtri) rather than the frozen
    # scipy.stats objects above: the same functions, ~1000x faster per scalar
    # call, which matters inside scipy.integrate.quad. Tests check they agree.
    @staticmethod
    def _z(t, mu, sd):
        if type(t) is float and t == t:  # the scalar that quad passes: skip the array checks
            return (np.float64(t) - mu) / sd
        return (check_real_array("t", t) - mu) / sd

    def pdf_pos(self, t):
        """Density of the positives' scores, Parker's f_0."""
        z = self._z(t, self.mu_pos, self.sd_pos)
        return np.exp(-0.5 * z * z) / (self.sd_pos * _SQRT_2PI)

    def pdf_neg(self, t):
        """Density of the negatives' scores, Parker's f_1."""
        z = self._z(t, self.mu_neg, self.sd_neg)
        return np.exp(-0.5 * z * z) / (self.sd_neg * _SQRT_2PI)

    def cdf_pos(self, t):
        """P(score_pos <= t): the false-negative rate at threshold t, Parker's 1 - F_0."""
        return special.ndtr(self._z(t, self.mu_pos, self.sd_pos))

    def cdf_neg(self, t):
        """P(score_neg <= t): the true-negative rate at threshold t, Parker's 1 - F_1."""
        return special.ndtr(self._z(t, self.mu_neg, self.sd_neg))

    def tpr(self, t):
        """True-positive rate (recall) at threshold t, Parker's F_0(t)."""
        return special.ndtr(-self._z(t, self.mu_pos, self.sd_pos))

    def fpr(self, t):
        """False-positive rate at threshold t, Parker's F_1(t)."""
        return special.ndtr(-self._z(t, self.mu_neg, self.sd_neg))

    def pdf(self, t):
        """Density of all scores, f = π_0 f_0 + π_1 f_1 (Parker §II; Hand's W_G, eq. 8)."""
        return self.pi_pos * self.pdf_pos(t) + self.pi_neg * self.pdf_neg(t)

    def positive_rate(self, t):
        """Proportion predicted positive at threshold t, Parker's F(t) = π_0 F_0 + π_1 F_1."""
        return self.pi_pos * self.tpr(t) + self.pi_neg * self.fpr(t)

    def log_likelihood_ratio(self, t):
        """log f_0(t)/f_1(t), computed from log-densities (no 0/0 in the tails)."""
        zp = self._z(t, self.mu_pos, self.sd_pos)
        zn = self._z(t, self.mu_neg, self.sd_neg)
        return 0.5 * (zn * zn - zp * zp) + math.log(self.sd_neg / self.sd_pos)

    # -- ROC ----------------------------------------------------------------------
    @property
    def a(self) -> float:
        """Binormal intercept a = (mu_pos - mu_neg)/sd_pos."""
        return (self.mu_pos - self.mu_neg) / self.sd_pos

    @property
    def b(self) -> float:
        """Binormal slope b = sd_neg/sd_pos."""
        return self.sd_neg / self.sd_pos

    def roc(self, fpr):
        """TPR as a function of FPR: Φ(a + b·Φ⁻¹(FPR)) (Parker's F_0(F_1⁻¹(v)))."""
        v = check_real_array("fpr", fpr, low=0, high=1)
        # a and b are finite with b > 0 (checked at construction), so a + b·Φ⁻¹(v) is never NaN; with b
        # near 1.8e308, b·Φ⁻¹(v) may overflow to ±inf, which is the limit itself (TPR 0 or 1)
        with np.errstate(over="ignore"):
            return special.ndtr(self.a + self.b * special.ndtri(v))

    def threshold_at_fpr(self, fpr):
        """The threshold whose false-positive rate is ``fpr``, Parker's F_1⁻¹(v)."""
        v = check_real_array("fpr", fpr, low=0, high=1)
        return self.mu_neg - self.sd_neg * special.ndtri(v)

    @property
    def auc(self) -> float:
        """Closed-form AUC = Φ((mu_pos - mu_neg)/√(sd_pos² + sd_neg²))."""
        return float(special.ndtr((self.mu_pos - self.mu_neg) / math.hypot(self.sd_pos, self.sd_neg)))

    # -- sampling -----------------------------------------------------------------
    def sample(self, n_pos: int, n_neg: int, *, seed, decimals: int | None = None):
        """Draw a test set: ``(y_true, y_score)`` with ``n_pos`` positives first, then negatives.

        Parameters
        ----------
        n_pos, n_neg : int
            Numbers of positives and negatives (fixed, so the test set's
            π_0 = n_pos/(n_pos + n_neg) exactly; ``pi_pos`` is not used).
        seed : int or numpy.random.Generator
            Seed of ``numpy.random.default_rng`` (required: draws are reproducible).
        decimals : int, optional
            Round the scores to this many decimals, which creates ties.

        Returns
        -------
        y_true : ndarray of int, shape (n_pos + n_neg,)
            1 for a positive, 0 for a negative.
        y_score : ndarray of float
            The scores; positives drawn first from one stream.

        Examples
        --------
        >>> y, s = Binormal().sample(3, 2, seed=0)
        >>> y.tolist()
        [1, 1, 1, 0, 0]
        >>> bool(np.all(s == Binormal().sample(3, 2, seed=0)[1]))
        True
        """
        n_pos = _check_size("n_pos", n_pos)
        n_neg = _check_size("n_neg", n_neg)
        rng = rng_from_seed(seed)
        s_pos = rng.normal(self.mu_pos, self.sd_pos, n_pos)
        s_neg = rng.normal(self.mu_neg, self.sd_neg, n_neg)
        y_score = np.concatenate([s_pos, s_neg])
        if decimals is not None:
            if isinstance(decimals, bool) or not isinstance(decimals, numbers.Integral):
                raise TypeError(f"decimals must be an integer, got {decimals!r}")
            y_score = np.round(y_score, int(decimals))
        y_true = np.r_[np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)]
        return y_true, y_score


# -- input checks ---------------------------------------------------------------------


def check_binormal(model: object, name: str = "model") -> Binormal:
    """An apples.theory.Binormal (TypeError otherwise); a type check no shared helper makes."""
    if not isinstance(model, Binormal):
        raise TypeError(f"{name} must be an apples.theory.Binormal, got {type(model).__name__}")
    return model
