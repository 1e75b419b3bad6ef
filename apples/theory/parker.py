"""Parker (2011) §III on the binormal model: cost, threshold, incoherence of integrated measures.

Introduced in notebook 08. Every identity of Parker (2011) §III is a function here, for the continuous
binormal model (:class:`apples.theory.Binormal`, integrals by
``scipy.integrate.quad``); :mod:`apples.metrics.losses` has the empirical
counterparts on scores with ties. Each function checks its arguments and
computes with :mod:`apples._kernels.parker`, which the Parker study's
comparison, figures and explorer call too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from apples._kernels import parker as _k
from apples._kernels.hmeasure import beta_prior
from apples._kernels.parker import Weighting
from apples._params import (
    Kind,
    Nullable,
    Options,
    ParameterValueError,
    Real,
    RealArray,
    Relation,
    check_real_array,
    declare,
    float_or_array,
)
from apples.metrics.hmeasure import H_MEASURE_PRIORS, SEVERITY_RATIO
from apples.theory.binormal import BINORMAL, Binormal

__all__ = [
    "THRESHOLD_MEASURES",
    "binormal_h_measure",
    "expected_loss",
    "h_prior_density",
    "implied_cost",
    "implied_cost_density",
    "implied_cost_quantiles",
    "integrated_measure",
    "loss_at_implied_cost",
    "misclassification_loss",
    "optimal_threshold",
    "threshold_measure",
    "uniform_threshold_loss",
    "weight_g",
    "weight_i",
    "weight_m",
]

#: The m(t) that :func:`threshold_measure` knows, with the integrated measure each gives.
THRESHOLD_MEASURES = ("tpr", "precision", "kappa", "f1", "mcc")


class _Weighting(Kind):
    what = "a callable t -> W(t)"

    def check(self, name: str, value: object) -> Weighting:
        if not callable(value):
            raise TypeError(f"{name} must be a callable t -> W(t), got {type(value).__name__}")
        return value


class _Probabilities(Kind):
    what = "a probability strictly between 0 and 1, or a one-dimensional sequence of them"

    def check(self, name: str, value: object) -> np.ndarray:
        qs = np.atleast_1d(
            check_real_array(
                name,
                value,
                low=0,
                high=1,
                low_inclusive=False,
                high_inclusive=False,
                what="be probabilities strictly between 0 and 1",
            )
        )
        if qs.ndim != 1:
            raise ValueError(
                f"{name} must be a probability or a one-dimensional sequence of them, got shape {qs.shape}"
            )
        return qs


_T = RealArray()  # a threshold: ±inf predicts nothing / everything positive
_COST = RealArray(0, 1)  # Parker's normalised cost c in [0, 1]
_SCALE = Real(0.0, None, low_inclusive=False)
_PROPORTION = Real(0.0, 1.0, low_inclusive=False, high_inclusive=False)
_MEASURE = Options(*THRESHOLD_MEASURES)
_OVER = Options("fpr", "recall")
_WEIGHT = _Weighting()


# -- cost and threshold (Parker §III-A, eqs. 2-6) -------------------------------------


@declare(t=_T, c=_COST, model=BINORMAL, scale=_SCALE)
def misclassification_loss(t: ArrayLike, c: ArrayLike, model: Binormal, *, scale: float = 1.0) -> Any:
    """Loss at threshold t for normalised cost c, Q(t; b, c) (Parker eq. 4).

    Q = b·[c·π_0·(1 - F_0(t)) + (1 - c)·π_1·F_1(t)]: the missed positives
    cost c each, the false positives 1 - c each, all times the scale b.

    Parameters
    ----------
    t : float or array
        Threshold(s); ±inf allowed (predict nothing / everything positive).
    c : float or array in [0, 1]
        Normalised cost of a missed positive, c_0/(c_0 + c_1); broadcast with t.
    model : Binormal
        The score model.
    scale : float, default 1.0
        b = c_0 + c_1.

    Examples
    --------
    >>> import numpy as np
    >>> from apples.theory import Binormal, misclassification_loss
    >>> m = Binormal(pi_pos=0.25)
    >>> round(misclassification_loss(np.inf, 0.3, m), 12), round(misclassification_loss(-np.inf, 0.3, m), 12)
    (0.075, 0.525)
    """
    return float_or_array(scale * _k.loss(t, c, model))


@declare(t=_T, model=BINORMAL)
def implied_cost(t: ArrayLike, model: Binormal) -> Any:
    """The cost c(t) for which threshold t is a stationary point of the loss (Parker eq. 6).

    c(t) = π_1 f_1(t) / (π_0 f_0(t) + π_1 f_1(t)), computed as
    expit(-λ(t)) with λ = log(π_0 f_0/(π_1 f_1)), so it stays finite in the
    tails where both densities underflow. It is the posterior probability of
    a *negative* at score t: the threshold is the point where the expected
    cost of either decision is equal, c·P(pos | t) = (1 - c)·P(neg | t).

    Examples
    --------
    >>> from apples.theory import Binormal, implied_cost
    >>> m = Binormal(mu_pos=1.0, mu_neg=0.0, pi_pos=0.5)
    >>> implied_cost(0.5, m)  # midway between equal-variance means: c = 1/2
    0.5
    """
    return float_or_array(_k.implied_cost(t, model))


@declare(c=_COST, model=BINORMAL)
def optimal_threshold(c: ArrayLike, model: Binormal) -> Any:
    """The loss-minimising threshold T(c) (Parker eq. 3), ±inf allowed.

    The candidates are the stationary points of eq. (5) (at most two for a
    binormal model: λ(t) is quadratic) and the two ends t = ±inf (predict
    everything / nothing positive); T(c) is the one of least loss. With
    ``sd_pos == sd_neg`` and ``mu_pos > mu_neg`` the stationary point is unique,
    is the minimum (d²Q/dt² > 0 there), and T is the inverse of
    :func:`implied_cost`.

    Examples
    --------
    >>> from apples.theory import Binormal, implied_cost, optimal_threshold
    >>> m = Binormal(mu_pos=2.0, mu_neg=0.0)
    >>> optimal_threshold(0.5, m)
    1.0
    >>> round(implied_cost(optimal_threshold(0.2, m), m), 12)
    0.2
    """
    return float_or_array(_k.optimal_threshold(np.asarray(c), model))


# -- weightings over thresholds (Parker §III-B, III-C, eqs. 7-10) ---------------------


@declare(t=_T, model=BINORMAL)
def weight_g(t: ArrayLike, model: Binormal) -> Any:
    """Hand's threshold weighting W_G(t) = π_0 f_0(t) + π_1 f_1(t) (Parker eq. 8).

    It is the density of the scores themselves: the weighting that the
    classifier, not the problem, chooses.
    """
    return float_or_array(_k.pdf(model, t))


@declare(t=_T, model=BINORMAL)
def weight_i(t: ArrayLike, model: Binormal) -> Any:
    """W_I(t) = f_1 - f_1 F_0 + f_0 F_1 (Parker eq. 9), here f_1·cdf_pos + f_0·fpr."""
    return float_or_array(_k.w_i(t, model))


@declare(t=_T, model=BINORMAL)
def loss_at_implied_cost(t: ArrayLike, model: Binormal) -> Any:
    """Q(t; 1, c(t)), the braces of Parker eq. (7): the loss at t under its own implied cost.

    Equals π_0 π_1 W_I(t)/W_G(t) (Parker, proof of Theorem 1).
    """
    return float_or_array(_k.loss_at_implied_cost(t, model))


@declare(t=_T, model=BINORMAL, measure=_MEASURE)
def threshold_measure(t: ArrayLike, model: Binormal, measure: str) -> Any:
    """A measure at one threshold, m(t), as a function of F_0, F_1, π (Parker §II).

    Parameters
    ----------
    t : float or array
    model : Binormal
    measure : {"tpr", "precision", "kappa", "f1", "mcc"}
        ``"tpr"``: recall F_0(t) (integrates over FPR to the AUC, §II-D);
        ``"precision"``: p = π_0 F_0/F (§II-E); ``"kappa"``: Cohen's κ
        = 2π_0π_1(F_0 - F_1)/(π_0(1 - F) + π_1 F), the closed form of
        (a - p_c)/(1 - p_c) (§II-F); ``"f1"``: 2π_0F_0/(F + π_0) (§II-A);
        ``"mcc"``: π_0π_1(F_0 - F_1)/√(π_0π_1 F(1 - F)), the corrected
        form of Parker eq. (1) (see notebook 07, A.2).

    Examples
    --------
    >>> import numpy as np
    >>> from apples.theory import Binormal, threshold_measure
    >>> m = Binormal(pi_pos=0.5)
    >>> t = 0.3
    >>> bool(np.isclose(threshold_measure(t, m, "kappa"), m.tpr(t) - m.fpr(t)))  # balanced: κ = TPR - FPR
    True
    """
    return float_or_array(_k.threshold_measure(t, model, measure))


def _weighting(m: Binormal, weight: Weighting | None) -> tuple[Weighting, float]:
    """The threshold weighting W (default W_G, the score density) and its mass ∫W dt, which must be positive."""
    W, total = _k.weighting(m, weight)
    if not total > 0:
        raise ParameterValueError(
            f"the weighting integrates to {total:.3g}; it must have positive mass", param="weight"
        )
    return W, total


@declare(model=BINORMAL, measure=_MEASURE, over=_OVER)
def integrated_measure(model: Binormal, measure: str, *, over: str = "fpr") -> float:
    """M = ∫ m(t) g(t) dt by quadrature: m averaged over FPR (g = f_1) or recall (g = f_0).

    ``("tpr", over="fpr")`` is the AUC (§II-D), ``("kappa", over="fpr")`` the
    AUK (§II-F), ``("precision", over="recall")`` the usual average precision
    and ``("precision", over="fpr")`` the AP as Parker §II-E literally writes it.

    Examples
    --------
    >>> from apples.theory import Binormal, integrated_measure
    >>> m = Binormal(mu_pos=1.2, sd_pos=0.8)
    >>> abs(integrated_measure(m, "tpr") - m.auc) < 1e-12
    True
    """
    return _k.integrated_measure(model, measure, over)


@declare(t=_T, model=BINORMAL, measure=_MEASURE, over=_OVER, form=Options("loss", "printed"))
def weight_m(
    t: ArrayLike, model: Binormal, measure: str, *, over: str = "fpr", form: Literal["loss", "printed"] = "loss"
) -> Any:
    """The threshold weighting of Theorem 1, W_m = m·g·W_G/W_I (Parker eq. 10).

    Parameters
    ----------
    t : float or array
    model : Binormal
    measure : str
        One of :data:`THRESHOLD_MEASURES`.
    over : {"fpr", "recall"}, default "fpr"
        g = f_1 (Parker's theorem, M = ∫ m dF_1) or g = f_0 (M = ∫ m dF_0,
        needed for the usual average precision).
    form : {"loss", "printed"}, default "loss"
        ``"printed"``: eq. (10) as printed, m·g·W_G/W_I, so that the expected
        loss (eq. 7) is L_m = π_0π_1·M. ``"loss"``: the same construction
        applied to the loss 1 - m, (1 - m)·g·W_G/W_I, so that
        L = π_0π_1(1 - M): non-negative wherever m <= 1, and the loss falls
        as the measure rises, as a loss should.

    Notes
    -----
    W_I > 0 everywhere for a binormal model, so W_m is always defined here.
    Neither form integrates to 1 in general, and the total ∫W_m differs
    between classifiers; :func:`implied_cost_density` normalises it.
    """
    return float_or_array(_k.weight_m(t, model, measure, over, form))


@declare(model=BINORMAL, weight=_WEIGHT)
def expected_loss(model: Binormal, weight: Weighting) -> float:
    """Expected loss under a threshold weighting, L = ∫ Q(t; 1, c(t))·W(t) dt (Parker eq. 7).

    Parameters
    ----------
    model : Binormal
    weight : callable t -> W(t)
        E.g. ``lambda t: weight_g(t, model)`` (Hand's identity) or
        ``lambda t: weight_m(t, model, "kappa")`` (Theorem 1).

    Examples
    --------
    Hand's identity, L_G = 2π_0π_1(1 - AUC):

    >>> from apples.theory import Binormal, expected_loss, weight_g
    >>> m = Binormal(mu_pos=1.0, sd_pos=1.5, pi_pos=0.3)
    >>> L = expected_loss(m, lambda t: weight_g(t, m))
    >>> abs(L - 2 * 0.3 * 0.7 * (1 - m.auc)) < 1e-12
    True
    """
    return _k.expected_loss(model, weight)


@declare(c=_COST, model=BINORMAL, weight=Nullable(_WEIGHT))
def implied_cost_density(c: ArrayLike, model: Binormal, weight: Weighting | None = None) -> Any:
    """Density of the implied cost c(t) when the threshold t is drawn from W.

    This is the "distribution over costs" that a threshold weighting implies
    (Parker §III-B: "this is equivalent to integrating over a distribution
    over thresholds"): w(c) = Σ W(t_r) / abs(c'(t_r)) over the thresholds t_r with
    c(t_r) = c, divided by ∫W so it integrates to 1. For equal spreads there
    is one t_r = T(c) and w(c) = W(T(c)) · abs(T'(c)); for unequal spreads c(t) is
    not monotone and two thresholds share each cost.

    Parameters
    ----------
    c : float or array in [0, 1]
    model : Binormal
    weight : callable t -> W(t), optional
        Default W_G (the AUC's weighting). Must be non-negative.

    Examples
    --------
    >>> from apples.theory import Binormal, implied_cost_density
    >>> m = Binormal(mu_pos=1.0)
    >>> from scipy.integrate import quad
    >>> round(quad(lambda c: implied_cost_density(c, m), 0, 1)[0], 8)
    1.0
    """
    W, total = _weighting(model, weight)
    return float_or_array(_k.implied_cost_density(np.asarray(c), model, W, total))


@declare(model=BINORMAL, weight=Nullable(_WEIGHT), q=_Probabilities())
def implied_cost_quantiles(
    model: Binormal, weight: Weighting | None = None, q: ArrayLike = (0.1, 0.5, 0.9)
) -> np.ndarray:
    """Quantiles of the implied cost c(t) when the threshold t is drawn from W (normalised).

    For equal spreads c(t) (eq. 6) decreases in t, so
    P(c(t) <= x) = ∫_{T(x)}^∞ W dt / ∫ W dt, with T of eq. (3); each quantile
    is the root of this CDF minus q (``scipy.optimize.brentq``).

    Parameters
    ----------
    model : Binormal
        Must have ``sd_pos == sd_neg`` and ``mu_pos > mu_neg`` (c(t) monotone).
    weight : callable t -> W(t), optional
        Default W_G (the AUC's weighting). Must be non-negative.
    q : float or sequence of float in (0, 1)

    Returns
    -------
    ndarray of Parker's c (cost share of a missed positive), one per q.

    Examples
    --------
    With W_G and π_0 = π_1 the model is symmetric about c = 1/2:

    >>> from apples.theory import Binormal, implied_cost_quantiles
    >>> m = Binormal(mu_pos=1.0, pi_pos=0.5)
    >>> round(float(implied_cost_quantiles(m, q=0.5)[0]), 10)
    0.5
    """
    m = model
    if not (m.sd_pos == m.sd_neg and m.mu_pos > m.mu_neg):
        raise ParameterValueError(
            "implied_cost_quantiles needs sd_pos == sd_neg and mu_pos > mu_neg (otherwise c(t) is not monotone)",
            param="model",
        )
    qs = np.atleast_1d(np.asarray(q, dtype=float))  # checked, or the default
    W, total = _weighting(m, weight)
    return _k.implied_cost_quantiles(m, W, total, qs)


@declare(model=BINORMAL, scale=_SCALE)
def uniform_threshold_loss(model: Binormal, *, scale: float = 2.0) -> float:
    """Expected loss with c ~ U(0, 1) and t ~ W_G drawn independently (Flach et al. 2011; Parker §VI-B).

    L_c^t = ∫_0^1 ∫ Q(t; b, c) W(t) dt dc, with W the density of the scores
    (a threshold set at the score of a uniformly chosen test case), computed
    by ``scipy.integrate.dblquad``. It equals
    b·[(π_0² + π_1²)/4 + π_0π_1(1 - AUC)], i.e. π_0π_1(1 - 2·AUC) + 1/2 for
    scale b = 2 (unit costs at c = 1/2): linear in AUC with a weighting that is the
    same for every classifier (uniform in c and in the predicted-positive rate).

    Examples
    --------
    >>> from apples.theory import Binormal, uniform_threshold_loss
    >>> m = Binormal(mu_pos=1.0, pi_pos=0.4)
    >>> abs(uniform_threshold_loss(m) - (0.4 * 0.6 * (1 - 2 * m.auc) + 0.5)) < 1e-9
    True
    """
    return _k.uniform_threshold_loss(model, scale)


# -- the H-measure's prior in Parker's c, and H of the binormal population -----------


#: The smallest usable severity ratio, the smallest normal float (below it 1/r of Beta(2, 1 + 1/r) overflows).
_MIN_SEVERITY_RATIO = float(np.finfo(float).tiny)


class _HPrior(Relation):
    """The rules between the H prior's arguments: ``prior="hand2014"`` takes no ``severity_ratio``, and the default
    ratio π_0/π_1 of a class proportion (``pi_pos``, or the ``model``'s) must be at least the smallest normal float.
    """

    def __init__(self, proportion: str) -> None:
        self.names = ("severity_ratio", "prior", proportion)

    def check(self, values: Mapping[str, Any]) -> None:
        ratio, prior = values.get("severity_ratio"), values.get("prior", "severity")
        if prior == "hand2014" and ratio is not None:
            raise ParameterValueError(
                "severity_ratio must be None with prior='hand2014' (that prior is fixed by the class proportions)",
                param="severity_ratio",
            )
        name = self.names[2]
        if prior != "severity" or ratio is not None or name not in values:
            return
        given = values[name]
        pi_pos, where = (given.pi_pos, f"{name}.pi_pos") if isinstance(given, Binormal) else (given, name)
        if pi_pos / (1.0 - pi_pos) < _MIN_SEVERITY_RATIO:
            raise ParameterValueError(
                f"{where}={pi_pos!r} is too small for the default severity ratio pi_pos/(1 - pi_pos): the prior "
                f"Beta(2, 1 + (1 - pi_pos)/pi_pos) needs it to be at least {_MIN_SEVERITY_RATIO!r}",
                param=name,
            )


_H_PRIOR = Options(*H_MEASURE_PRIORS)


@declare(c=_COST, pi_pos=_PROPORTION, severity_ratio=SEVERITY_RATIO, prior=_H_PRIOR, relations=[_HPrior("pi_pos")])
def h_prior_density(
    c: ArrayLike,
    pi_pos: float,
    *,
    severity_ratio: float | None = None,
    prior: Literal["severity", "hand2014"] = "severity",
) -> Any:
    """The H-measure's Beta prior as a density over *Parker's* c (cost share of a missed positive).

    :func:`apples.metrics.h_measure_prior` gives (α, β) for Hand's R-package c, the
    cost share of a false positive, which is 1 - c here; so the density over
    Parker's c is Beta(β, α). It depends on the class proportion only, never
    on the classifier.

    Parameters
    ----------
    c : float or array in [0, 1]
    pi_pos : float
        Proportion of positives, Parker's π_0 (the H-measure's π1), strictly between 0 and 1.
    severity_ratio : float or None, default None
        As for :func:`apples.h_measure`: None means π_0/π_1.
    prior : {"severity", "hand2014"}, default "severity"
        As for :func:`apples.h_measure`.

    Examples
    --------
    >>> from apples.theory import h_prior_density
    >>> round(h_prior_density(0.5, 0.5, severity_ratio=1), 6)  # Beta(2, 2) at its mode
    1.5
    """
    a, b = beta_prior(pi_pos, severity_ratio, prior)
    return float_or_array(_k.beta_pdf(c, b, a))


@declare(model=BINORMAL, severity_ratio=SEVERITY_RATIO, prior=_H_PRIOR, relations=[_HPrior("model")])
def binormal_h_measure(
    model: Binormal, *, severity_ratio: float | None = None, prior: Literal["severity", "hand2014"] = "severity"
) -> float:
    """Hand's H for the binormal *population*: 1 - ∫ Q(T(c); c) u(c) dc / ∫ min(cπ_0, (1 - c)π_1) u(c) dc.

    The minimum loss at each cost uses :func:`optimal_threshold` (a linear
    loss is minimised over the ROC curve where it is minimised over its
    convex hull, so this is Hand's hull-based definition); u is the prior of
    :func:`h_prior_density`; the integrals are by quadrature over the log of
    Hand's cost 1 - c, so that a prior piled up near c = 1 (a tiny
    ``severity_ratio``, down to the 2.2e-308 that :func:`apples.h_measure`
    accepts) is resolved. A large sample scored by :func:`apples.h_measure`
    converges to it (tested).

    Examples
    --------
    >>> from apples.theory import Binormal, binormal_h_measure
    >>> round(binormal_h_measure(Binormal(mu_pos=30.0)), 6)  # separable in practice
    1.0
    """
    alpha, beta = beta_prior(model.pi_pos, severity_ratio, prior)
    h, loss, max_loss = _k.binormal_h(model, alpha, beta)
    if h != h:  # never divide by 0 nor clip a NaN
        raise ParameterValueError(
            f"H cannot be computed for this prior (Beta({alpha!r}, {beta!r}), severity_ratio="
            f"{severity_ratio!r}): L = {loss!r}, L_max = {max_loss!r}",
            param="severity_ratio",
        )
    return h
