"""Parker (2011) §III on the binormal model: cost, threshold, incoherence of integrated measures.

Every identity of Parker (2011) §III is a function here, for the continuous
binormal model (:class:`apples.theory.Binormal`, integrals by
``scipy.integrate.quad``); :mod:`apples.metrics.losses` has the empirical
counterparts on scores with ties.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy import integrate, optimize, special

from apples._kernels.binormal import log_likelihood_ratio, normal_cdf, normal_pdf, normal_sf
from apples._params import (
    Kind,
    Nullable,
    Options,
    ParameterValueError,
    Real,
    RealArray,
    check_real_array,
    declare,
    float_or_array,
)
from apples.metrics.hmeasure import h_measure_prior
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

#: A weighting of thresholds, W(t), or the threshold weighting's density.
Weighting = Callable[[Any], Any]


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


# -- the model's densities and rates, unchecked (the integrands call them with Python floats) ----
def _pdf_pos(m: Binormal, t: Any) -> Any:
    return normal_pdf(t, m.mu_pos, m.sd_pos)


def _pdf_neg(m: Binormal, t: Any) -> Any:
    return normal_pdf(t, m.mu_neg, m.sd_neg)


def _pdf(m: Binormal, t: Any) -> Any:
    """f = π_0 f_0 + π_1 f_1, Hand's W_G."""
    return m.pi_pos * _pdf_pos(m, t) + m.pi_neg * _pdf_neg(m, t)


def _cdf_pos(m: Binormal, t: Any) -> Any:
    """1 - F_0(t), the false-negative rate."""
    return normal_cdf(t, m.mu_pos, m.sd_pos)


def _tpr(m: Binormal, t: Any) -> Any:
    """F_0(t), the recall."""
    return normal_sf(t, m.mu_pos, m.sd_pos)


def _fpr(m: Binormal, t: Any) -> Any:
    """F_1(t), the false-positive rate."""
    return normal_sf(t, m.mu_neg, m.sd_neg)


def _q(t: Any, c: Any, m: Binormal, one_minus_c: Any = None) -> Any:
    """Q(t; 1, c) = c·π_0·(1 - F_0(t)) + (1 - c)·π_1·F_1(t) (Parker eq. 4, b = 1), unchecked."""
    one_minus_c = 1 - c if one_minus_c is None else one_minus_c
    return c * m.pi_pos * _cdf_pos(m, t) + one_minus_c * m.pi_neg * _fpr(m, t)


def _w_i(t: Any, m: Binormal) -> Any:
    """W_I(t) of Parker eq. (9), unchecked."""
    return _pdf_neg(m, t) * _cdf_pos(m, t) + _pdf_pos(m, t) * _fpr(m, t)


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
    >>> m = Binormal(pi_pos=0.25)
    >>> round(misclassification_loss(np.inf, 0.3, m), 12), round(misclassification_loss(-np.inf, 0.3, m), 12)
    (0.075, 0.525)
    """
    return float_or_array(scale * _q(t, c, model))


def _lambda(t: Any, m: Binormal) -> Any:
    """log(π_0 f_0(t)) - log(π_1 f_1(t)): log posterior odds of a positive at score t."""
    return np.log(m.pi_pos) - np.log(m.pi_neg) + log_likelihood_ratio(t, m.mu_pos, m.sd_pos, m.mu_neg, m.sd_neg)


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
    >>> m = Binormal(mu_pos=1.0, mu_neg=0.0, pi_pos=0.5)
    >>> implied_cost(0.5, m)  # midway between equal-variance means: c = 1/2
    0.5
    """
    return float_or_array(special.expit(-_lambda(t, model)))


def _lambda_coefficients(m: Binormal) -> tuple[float, float, float]:
    """λ(t) = A t² + B t + C for the binormal model."""
    vp, vn = m.sd_pos**2, m.sd_neg**2
    A = 1 / (2 * vn) - 1 / (2 * vp)
    B = m.mu_pos / vp - m.mu_neg / vn
    C = np.log(m.pi_pos / m.pi_neg) + np.log(m.sd_neg / m.sd_pos) - m.mu_pos**2 / (2 * vp) + m.mu_neg**2 / (2 * vn)
    return A, B, C


def _stationary_points(c: np.ndarray, m: Binormal, k: np.ndarray | None = None) -> np.ndarray:
    """Real roots t of c·π_0 f_0(t) = (1 - c)·π_1 f_1(t) (eq. 5), shape c.shape + (2,), NaN if none.

    ``k = log((1 - c)/c)`` may be given when 1 - c is known more precisely than from c.
    """
    A, B, C = _lambda_coefficients(m)
    if k is None:
        with np.errstate(divide="ignore"):
            k = np.log1p(-c) - np.log(c)  # log((1 - c)/c), ±inf at c = 0, 1
    roots = np.full((*c.shape, 2), np.nan)
    finite = np.isfinite(k)
    if A == 0:
        if B != 0:
            roots[..., 0] = np.where(finite, (k - C) / B, np.nan)
        return roots
    disc = B**2 - 4 * A * (C - k)
    ok = finite & (disc >= 0)
    sq = np.sqrt(np.where(ok, disc, 0.0))
    roots[..., 0] = np.where(ok, (-B - sq) / (2 * A), np.nan)
    roots[..., 1] = np.where(ok, (-B + sq) / (2 * A), np.nan)
    return roots


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
    >>> m = Binormal(mu_pos=2.0, mu_neg=0.0)
    >>> optimal_threshold(0.5, m)
    1.0
    >>> round(implied_cost(optimal_threshold(0.2, m), m), 12)
    0.2
    """
    return float_or_array(_optimal_threshold(np.asarray(c), model))


def _optimal_threshold(c: np.ndarray, m: Binormal) -> np.ndarray:
    """T(c) of eq. (3) for checked costs (an array, 0-d for one cost)."""
    roots = _stationary_points(c, m)
    ends = np.broadcast_to(np.array([-np.inf, np.inf]), (*c.shape, 2))
    cand = np.concatenate([roots, ends], axis=-1)
    missing = np.isnan(cand)  # no stationary point: evaluate a placeholder, then rule it out
    with np.errstate(invalid="ignore"):
        q = _q(np.where(missing, 0.0, cand), c[..., None], m)
    q = np.where(missing, np.inf, q)
    best: np.ndarray = np.take_along_axis(cand, np.argmin(q, axis=-1)[..., None], axis=-1)[..., 0]
    return best


# -- weightings over thresholds (Parker §III-B, III-C, eqs. 7-10) ---------------------


@declare(t=_T, model=BINORMAL)
def weight_g(t: ArrayLike, model: Binormal) -> Any:
    """Hand's threshold weighting W_G(t) = π_0 f_0(t) + π_1 f_1(t) (Parker eq. 8).

    It is the density of the scores themselves: the weighting that the
    classifier, not the problem, chooses.
    """
    return float_or_array(_pdf(model, t))


@declare(t=_T, model=BINORMAL)
def weight_i(t: ArrayLike, model: Binormal) -> Any:
    """W_I(t) = f_1 - f_1 F_0 + f_0 F_1 (Parker eq. 9), here f_1·cdf_pos + f_0·fpr."""
    return float_or_array(_w_i(t, model))


@declare(t=_T, model=BINORMAL)
def loss_at_implied_cost(t: ArrayLike, model: Binormal) -> Any:
    """Q(t; 1, c(t)), the braces of Parker eq. (7): the loss at t under its own implied cost.

    Equals π_0 π_1 W_I(t)/W_G(t) (Parker, proof of Theorem 1).
    """
    return float_or_array(_loss_at_implied_cost(t, model))


def _loss_at_implied_cost(t: Any, m: Binormal) -> Any:
    lam = _lambda(t, m)
    # c and 1 - c each from expit: no cancellation in 1 - c
    return _q(t, special.expit(-lam), m, one_minus_c=special.expit(lam))


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
        form of Parker eq. (1) (see notebook 07).

    Examples
    --------
    >>> m = Binormal(pi_pos=0.5)
    >>> t = 0.3
    >>> bool(np.isclose(threshold_measure(t, m, "kappa"), m.tpr(t) - m.fpr(t)))  # balanced: κ = TPR - FPR
    True
    """
    return float_or_array(_threshold_measure(t, model, measure))


def _threshold_measure(t: Any, m: Binormal, measure: str) -> Any:
    """m(t) of :func:`threshold_measure`, unchecked (a float from quad, or a checked array)."""
    p0, p1 = m.pi_pos, m.pi_neg
    f0, f1 = _tpr(m, t), _fpr(m, t)
    F = p0 * f0 + p1 * f1
    if measure == "tpr":
        return f0
    if measure == "precision":
        return p0 * f0 / F
    if measure == "kappa":
        return 2 * p0 * p1 * (f0 - f1) / (p0 * (1 - F) + p1 * F)
    if measure == "f1":
        return 2 * p0 * f0 / (F + p0)
    return p0 * p1 * (f0 - f1) / np.sqrt(p0 * p1 * F * (1 - F))


def _limits(m: Binormal) -> tuple[float, float, list[float]]:
    lo = min(m.mu_pos - 12 * m.sd_pos, m.mu_neg - 12 * m.sd_neg)
    hi = max(m.mu_pos + 12 * m.sd_pos, m.mu_neg + 12 * m.sd_neg)
    return lo, hi, sorted({m.mu_pos, m.mu_neg})


def _quad(f: Weighting, m: Binormal) -> float:
    lo, hi, pts = _limits(m)
    val, _ = integrate.quad(f, lo, hi, points=pts, epsabs=1e-14, epsrel=1e-12, limit=500)
    return float(val)


def _weighting(m: Binormal, weight: Weighting | None) -> tuple[Weighting, float]:
    """The threshold weighting W (default W_G, the score density) and its mass ∫W dt > 0."""
    if weight is None:
        return lambda t: _pdf(m, t), 1.0
    total = _quad(weight, m)
    if not total > 0:
        raise ParameterValueError(
            f"the weighting integrates to {total:.3g}; it must have positive mass", param="weight"
        )
    return weight, total


def _g(m: Binormal, over: str) -> Weighting:
    """g = f_1 (averaging over the FPR) or f_0 (over the recall)."""
    if over == "fpr":
        return lambda t: _pdf_neg(m, t)
    return lambda t: _pdf_pos(m, t)


@declare(model=BINORMAL, measure=_MEASURE, over=_OVER)
def integrated_measure(model: Binormal, measure: str, *, over: str = "fpr") -> float:
    """M = ∫ m(t) g(t) dt by quadrature: m averaged over FPR (g = f_1) or recall (g = f_0).

    ``("tpr", over="fpr")`` is the AUC (§II-D), ``("kappa", over="fpr")`` the
    AUK (§II-F), ``("precision", over="recall")`` the usual average precision
    and ``("precision", over="fpr")`` the AP as Parker §II-E literally writes it.

    Examples
    --------
    >>> m = Binormal(mu_pos=1.2, sd_pos=0.8)
    >>> abs(integrated_measure(m, "tpr") - m.auc) < 1e-12
    True
    """
    g = _g(model, over)
    return _quad(lambda t: _threshold_measure(t, model, measure) * g(t), model)


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
    g = _g(model, over)
    mt = _threshold_measure(t, model, measure)
    num = (mt if form == "printed" else 1 - mt) * g(t) * _pdf(model, t)
    return float_or_array(num / _w_i(t, model))


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

    >>> m = Binormal(mu_pos=1.0, sd_pos=1.5, pi_pos=0.3)
    >>> L = expected_loss(m, lambda t: weight_g(t, m))
    >>> abs(L - 2 * 0.3 * 0.7 * (1 - m.auc)) < 1e-12
    True
    """
    return _quad(lambda t: _loss_at_implied_cost(t, model) * weight(t), model)


@declare(c=_COST, model=BINORMAL, weight=Nullable(_WEIGHT))
def implied_cost_density(c: ArrayLike, model: Binormal, weight: Weighting | None = None) -> Any:
    """Density of the implied cost c(t) when the threshold t is drawn from W.

    This is the "distribution over costs" that a threshold weighting implies
    (Parker §III-B: "this is equivalent to integrating over a distribution
    over thresholds"): w(c) = Σ W(t_r)/|c'(t_r)| over the thresholds t_r with
    c(t_r) = c, divided by ∫W so it integrates to 1. For equal spreads there
    is one t_r = T(c) and w(c) = W(T(c))·|T'(c)|; for unequal spreads c(t) is
    not monotone and two thresholds share each cost.

    Parameters
    ----------
    c : float or array in [0, 1]
    model : Binormal
    weight : callable t -> W(t), optional
        Default W_G (the AUC's weighting). Must be non-negative.

    Examples
    --------
    >>> m = Binormal(mu_pos=1.0)
    >>> from scipy.integrate import quad
    >>> round(quad(lambda c: implied_cost_density(c, m), 0, 1)[0], 8)
    1.0
    """
    m = model
    c = np.asarray(c)
    W, total = _weighting(m, weight)
    A, B, _ = _lambda_coefficients(m)
    inner = (c > 0) & (c < 1)
    cs = np.where(inner, c, 0.5)
    roots = _stationary_points(cs, m)
    out = np.zeros(c.shape)
    for r in (roots[..., 0], roots[..., 1]):
        ok = inner & ~np.isnan(r)
        rr = np.where(ok, r, 0.0)
        slope = np.abs(cs * (1 - cs) * (2 * A * rr + B))  # |c'(t)| = c(1 - c)|λ'(t)|
        with np.errstate(divide="ignore", invalid="ignore"):
            term = np.where(ok & (slope > 0), np.asarray(W(rr), dtype=float) / np.where(slope > 0, slope, 1.0), 0.0)
        out = out + term
    return float_or_array(out / total)


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
    lo, hi, _ = _limits(m)

    def cdf(x: float) -> float:
        t = min(max(float(_optimal_threshold(np.asarray(x), m)), lo), hi)
        return float(integrate.quad(W, t, hi, epsabs=1e-14, epsrel=1e-12, limit=500)[0]) / total

    return np.array([optimize.brentq(lambda x, p: cdf(x) - p, 1e-15, 1 - 1e-15, args=(p,), xtol=1e-14) for p in qs])


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
    >>> m = Binormal(mu_pos=1.0, pi_pos=0.4)
    >>> abs(uniform_threshold_loss(m) - (0.4 * 0.6 * (1 - 2 * m.auc) + 0.5)) < 1e-9
    True
    """
    m, b = model, scale
    lo, hi, _ = _limits(m)

    def f(t: float, c: float) -> float:
        return float(b * _q(t, c, m) * _pdf(m, t))

    val, _ = integrate.dblquad(f, 0.0, 1.0, lo, hi, epsabs=1e-13, epsrel=1e-11)
    return float(val)


# -- the H-measure's prior in Parker's c, and H of the binormal population -----------


# severity_ratio and prior are checked by h_measure_prior, the one public function of apples theory
# still calls (until apples.metrics has it as a kernel; then they are declared here with its kinds).
@declare(c=_COST, pi_pos=_PROPORTION)
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

    Examples
    --------
    >>> round(h_prior_density(0.5, 0.5, severity_ratio=1), 6)  # Beta(2, 2) at its mode
    1.5
    """
    a, b = h_measure_prior(pi_pos, severity_ratio=severity_ratio, prior=prior)
    return float_or_array(_beta_pdf(c, b, a))


def _beta_pdf(x: Any, a: float, b: float) -> Any:
    """Beta(a, b) density from scipy.special (the frozen scipy.stats.beta is ~1000x slower per call)."""
    with np.errstate(divide="ignore"):
        return np.exp(special.xlogy(a - 1, x) + special.xlog1py(b - 1, -x) - special.betaln(a, b))


@declare(model=BINORMAL)  # severity_ratio and prior: see h_prior_density
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
    >>> round(binormal_h_measure(Binormal(mu_pos=30.0)), 6)  # separable in practice
    1.0
    """
    m = model
    p0, p1 = m.pi_pos, m.pi_neg

    alpha, beta = h_measure_prior(p0, severity_ratio=severity_ratio, prior=prior)

    # The prior over Parker's c is Beta(beta, alpha) (h_prior_density); Hand's c, h = 1 - c, is
    # Beta(alpha, beta). Integrate over v = log h, where the prior is one smooth bump of width O(1)
    # wherever it sits: severity_ratio=1e-8 puts Beta(2, 1e8) within ~1e-7 of h = 0, which quadrature
    # over c missed (L_max came out 0). c = -expm1(v) and 1 - c = exp(v) both keep their digits.
    # Both losses are divided by scale = min(p0·E[c], p1·E[1 - c]) >= L_max (~1e-300 for
    # severity_ratio=1e-300), so that one absolute tolerance suits every prior; H = 1 - L/L_max is unchanged.
    mean_h = alpha / (alpha + beta)
    scale = min(p0 * beta / (alpha + beta), p1 * mean_h)
    log_norm = special.betaln(alpha, beta)

    def weight(
        v: float,
    ) -> float:  # the prior density of v = log h, from logs (no overflow for any representable prior)
        return math.exp(alpha * v + special.xlog1py(beta - 1.0, -math.exp(v)) - log_norm) / scale

    def min_loss(v: float) -> float:
        c, one_minus_c = np.asarray(-math.expm1(v)), np.asarray(math.exp(v))
        return float(_min_loss(c, one_minus_c, m)) * weight(v)

    def trivial_loss(v: float) -> float:
        return min(-math.expm1(v) * p0, math.exp(v) * p1) * weight(v)

    # below lo lies less than e^-50 of the prior (its lower tail is ~h^alpha, alpha >= 1), above hi less
    # than e^-38 (for Beta(alpha, beta) with beta large, beta·h is about Gamma(alpha)); else hi = 0, h = 1
    lo, hi = math.log(mean_h) - 50.0 / alpha, min(0.0, math.log(mean_h) + math.log(40.0))
    marks = (math.log(mean_h) - 3.0, math.log(mean_h), math.log(mean_h) + 1.0, math.log(p0))  # log p0: c = p1
    points = sorted({x for x in marks if lo < x < hi})

    def integral(f: Callable[[float], float]) -> float:
        return float(integrate.quad(f, lo, hi, epsabs=1e-13, epsrel=1e-10, limit=400, points=points)[0])

    loss = integral(min_loss)
    max_loss = integral(trivial_loss)
    ratio = loss / max_loss if max_loss > 0 else float("nan")
    if not np.isfinite(ratio):  # never divide by 0 nor clip a NaN
        raise ParameterValueError(
            f"H cannot be computed for this prior (Beta({alpha!r}, {beta!r}), severity_ratio="
            f"{severity_ratio!r}): L = {loss!r}, L_max = {max_loss!r}",
            param="severity_ratio",
        )
    return min(1.0, max(0.0, 1.0 - ratio))  # 0 <= L <= L_max; clip quadrature round-off only


def _min_loss(c: np.ndarray, one_minus_c: np.ndarray, m: Binormal) -> np.ndarray:
    """min over t of Q(t; 1, c) (Parker eqs. 3-4), with c and 1 - c given separately."""
    with np.errstate(divide="ignore"):
        k = np.log(one_minus_c) - np.log(c)  # ±inf at c = 0, 1: then an end t = ±inf is optimal
    roots = _stationary_points(c, m, k=k)
    cand = np.concatenate([roots, np.broadcast_to(np.array([-np.inf, np.inf]), (*c.shape, 2))], axis=-1)
    missing = np.isnan(cand)
    with np.errstate(invalid="ignore"):
        q = _q(np.where(missing, 0.0, cand), c[..., None], m, one_minus_c=one_minus_c[..., None])
    return np.where(missing, np.inf, q).min(axis=-1)
