"""The binormal score model: two normal score distributions, one per class.

Introduced in notebook 08 (notebook 07 draws Parker's Figure 1 from it). Parker (2011) §II and
Hand (2009) §3 describe a classifier by the score densities of its two classes; the binormal model is
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
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from scipy import special, stats

from apples._kernels import binormal as _k
from apples._params import (
    MAX_EXACT_INT,
    SEED,
    Instance,
    Integer,
    Nullable,
    ParameterValueError,
    Real,
    RealArray,
    Relation,
    declare,
)

__all__ = [
    "Binormal",
]

#: Largest finite float64 (about 1.8e308).
_MAX_FLOAT = float(np.finfo(np.float64).max)


class _Thresholds(RealArray):
    """Thresholds: reals or arrays of them, ±inf allowed, NaN refused; a Python float passes as it is.

    The float that ``scipy.integrate.quad`` hands to an integrand skips the array checks (it is a
    real number already): a user's quadrature over ``Binormal.pdf`` pays only the call.
    """

    def check(self, name: str, value: object) -> Any:
        if type(value) is float and value == value:
            return np.float64(value)
        return super().check(name, value)


class _RocParameters(Relation):
    """The binormal ``a = (mu_pos - mu_neg)/sd_pos`` and ``b = sd_neg/sd_pos`` are finite, non-zero floats.

    With b = inf (sd_pos tiny against sd_neg) or a = ±inf, the ROC curve meets inf·0 and inf - inf
    (NaN); with b = 0 (sd_neg tiny against sd_pos), 0·inf at FPR 0 and 1. The error names the argument
    and its usable range.
    """

    names = ("mu_pos", "sd_pos", "mu_neg", "sd_neg")

    def check(self, values: Any) -> None:
        mu_pos, sd_pos, mu_neg, sd_neg = (float(values[n]) for n in self.names)
        big = _MAX_FLOAT
        if not math.isfinite(sd_neg / sd_pos):
            raise ParameterValueError(
                f"sd_pos={sd_pos!r} is too small for sd_neg={sd_neg!r}: the binormal slope "
                f"b = sd_neg/sd_pos overflows float64; sd_pos must be at least sd_neg/{big:.4g} "
                f"(about {sd_neg / big:.3g} here)",
                param="sd_pos",
            )
        if sd_neg / sd_pos == 0.0:
            raise ParameterValueError(
                f"sd_neg={sd_neg!r} is too small for sd_pos={sd_pos!r}: the binormal slope "
                f"b = sd_neg/sd_pos underflows to 0; sd_neg must be at least sd_pos·5e-324 "
                f"(about {sd_pos * 5e-324:.3g} here)",
                param="sd_neg",
            )
        gap = mu_pos - mu_neg
        if not math.isfinite(gap):
            raise ParameterValueError(
                f"mu_pos={mu_pos!r} and mu_neg={mu_neg!r} are too far apart: mu_pos - mu_neg "
                f"overflows float64; their difference must be at most {big:.4g}",
                param="mu_pos",
            )
        if not math.isfinite(gap / sd_pos):
            raise ParameterValueError(
                f"sd_pos={sd_pos!r} is too small for mu_pos - mu_neg = {gap!r}: the binormal intercept "
                f"a = (mu_pos - mu_neg)/sd_pos overflows float64; sd_pos must be at least "
                f"|mu_pos - mu_neg|/{big:.4g} (about {abs(gap) / big:.3g} here)",
                param="sd_pos",
            )


_MEAN = Real()
_SD = Real(0.0, None, low_inclusive=False)
_PROPORTION = Real(0.0, 1.0, low_inclusive=False, high_inclusive=False)
_T = _Thresholds()
_RATE = RealArray(0, 1)
#: Numbers of cases to draw: at least 1, and at most 2**53 (beyond it the sizes are not exact).
_N_DRAWN = Integer(1, MAX_EXACT_INT)


@dataclass(frozen=True, init=False)
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
    >>> from apples.theory import Binormal
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

    @declare(
        mu_pos=_MEAN,
        sd_pos=_SD,
        mu_neg=_MEAN,
        sd_neg=_SD,
        pi_pos=_PROPORTION,
        relations=[_RocParameters()],
    )
    def __init__(
        self,
        mu_pos: float = 1.0,
        sd_pos: float = 1.0,
        mu_neg: float = 0.0,
        sd_neg: float = 1.0,
        pi_pos: float = 0.5,
    ) -> None:
        for name, value in (
            ("mu_pos", mu_pos),
            ("sd_pos", sd_pos),
            ("mu_neg", mu_neg),
            ("sd_neg", sd_neg),
            ("pi_pos", pi_pos),
        ):
            object.__setattr__(self, name, float(value))

    # -- the two classes ----------------------------------------------------------
    @property
    def pi_neg(self) -> float:
        """Proportion of negatives, Parker's π_1 = 1 - π_0."""
        return 1.0 - self.pi_pos

    @property
    def pos(self) -> Any:
        """The positives' score distribution (a frozen ``scipy.stats.norm``)."""
        return stats.norm(self.mu_pos, self.sd_pos)

    @property
    def neg(self) -> Any:
        """The negatives' score distribution (a frozen ``scipy.stats.norm``)."""
        return stats.norm(self.mu_neg, self.sd_neg)

    # The methods below compute with apples._kernels.binormal (scipy.special's ndtr and ndtri)
    # rather than the frozen scipy.stats objects above: the same functions, ~1000x faster per
    # scalar call. Tests check they agree.
    @declare(t=_T)
    def pdf_pos(self, t: ArrayLike) -> Any:
        """Density of the positives' scores, Parker's f_0."""
        return _k.normal_pdf(t, self.mu_pos, self.sd_pos)

    @declare(t=_T)
    def pdf_neg(self, t: ArrayLike) -> Any:
        """Density of the negatives' scores, Parker's f_1."""
        return _k.normal_pdf(t, self.mu_neg, self.sd_neg)

    @declare(t=_T)
    def cdf_pos(self, t: ArrayLike) -> Any:
        """P(score_pos <= t): the false-negative rate at threshold t, Parker's 1 - F_0."""
        return _k.normal_cdf(t, self.mu_pos, self.sd_pos)

    @declare(t=_T)
    def cdf_neg(self, t: ArrayLike) -> Any:
        """P(score_neg <= t): the true-negative rate at threshold t, Parker's 1 - F_1."""
        return _k.normal_cdf(t, self.mu_neg, self.sd_neg)

    @declare(t=_T)
    def tpr(self, t: ArrayLike) -> Any:
        """True-positive rate (recall) at threshold t, Parker's F_0(t)."""
        return _k.normal_sf(t, self.mu_pos, self.sd_pos)

    @declare(t=_T)
    def fpr(self, t: ArrayLike) -> Any:
        """False-positive rate at threshold t, Parker's F_1(t)."""
        return _k.normal_sf(t, self.mu_neg, self.sd_neg)

    @declare(t=_T)
    def pdf(self, t: ArrayLike) -> Any:
        """Density of all scores, f = π_0 f_0 + π_1 f_1 (Parker §II; Hand's W_G, eq. 8)."""
        return self.pi_pos * _k.normal_pdf(t, self.mu_pos, self.sd_pos) + self.pi_neg * _k.normal_pdf(
            t, self.mu_neg, self.sd_neg
        )

    @declare(t=_T)
    def positive_rate(self, t: ArrayLike) -> Any:
        """Proportion predicted positive at threshold t, Parker's F(t) = π_0 F_0 + π_1 F_1."""
        return self.pi_pos * _k.normal_sf(t, self.mu_pos, self.sd_pos) + self.pi_neg * _k.normal_sf(
            t, self.mu_neg, self.sd_neg
        )

    @declare(t=_T)
    def log_likelihood_ratio(self, t: ArrayLike) -> Any:
        """log f_0(t)/f_1(t), computed from log-densities (no 0/0 in the tails)."""
        return _k.log_likelihood_ratio(t, self.mu_pos, self.sd_pos, self.mu_neg, self.sd_neg)

    # -- ROC ----------------------------------------------------------------------
    @property
    def a(self) -> float:
        """Binormal intercept a = (mu_pos - mu_neg)/sd_pos."""
        return (self.mu_pos - self.mu_neg) / self.sd_pos

    @property
    def b(self) -> float:
        """Binormal slope b = sd_neg/sd_pos."""
        return self.sd_neg / self.sd_pos

    @declare(fpr=_RATE)
    def roc(self, fpr: ArrayLike) -> Any:
        """TPR as a function of FPR: Φ(a + b·Φ⁻¹(FPR)) (Parker's F_0(F_1⁻¹(v)))."""
        # a and b are finite with b > 0 (checked at construction), so a + b·Φ⁻¹(v) is never NaN
        return _k.roc(fpr, self.a, self.b)

    @declare(fpr=_RATE)
    def threshold_at_fpr(self, fpr: ArrayLike) -> Any:
        """The threshold whose false-positive rate is ``fpr``, Parker's F_1⁻¹(v)."""
        return _k.threshold_at_fpr(fpr, self.mu_neg, self.sd_neg)

    @property
    def auc(self) -> float:
        """Closed-form AUC = Φ((mu_pos - mu_neg)/√(sd_pos² + sd_neg²))."""
        return float(special.ndtr((self.mu_pos - self.mu_neg) / math.hypot(self.sd_pos, self.sd_neg)))

    # -- sampling -----------------------------------------------------------------
    @declare(n_pos=_N_DRAWN, n_neg=_N_DRAWN, seed=SEED, decimals=Nullable(Integer()))
    def sample(
        self, n_pos: int, n_neg: int, *, seed: int | np.random.Generator, decimals: int | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Draw a test set: ``(y_true, y_score)`` with ``n_pos`` positives first, then negatives.

        Parameters
        ----------
        n_pos, n_neg : int
            Numbers of positives and negatives, from 1 to 2**53 (fixed, so the test set's
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
        >>> import numpy as np
        >>> from apples.theory import Binormal
        >>> y, s = Binormal().sample(3, 2, seed=0)
        >>> y.tolist()
        [1, 1, 1, 0, 0]
        >>> bool(np.all(s == Binormal().sample(3, 2, seed=0)[1]))
        True
        """
        rng = np.random.default_rng(seed)
        s_pos = rng.normal(self.mu_pos, self.sd_pos, n_pos)
        s_neg = rng.normal(self.mu_neg, self.sd_neg, n_neg)
        y_score = np.concatenate([s_pos, s_neg])
        if decimals is not None:
            y_score = np.round(y_score, decimals)
        y_true = np.r_[np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)]
        return y_true, y_score


#: The kind of a parameter that takes a binormal score model (``model``, ``model_a``, ...).
BINORMAL = Instance(
    Binormal,
    hint="make one with apples.theory.Binormal(mu_pos=..., sd_pos=..., mu_neg=..., sd_neg=..., pi_pos=...)",
    what="an apples.theory.Binormal",
)
