"""Parker (2011) §III on the binormal model: loss, implied cost, optimal threshold, weightings, H, unchecked.

Functions of thresholds ``t`` and costs ``c`` (floats or arrays, ±inf allowed) and of a binormal model
``m`` (anything with ``mu_pos``, ``sd_pos``, ``mu_neg``, ``sd_neg``, ``pi_pos`` and ``pi_neg``, such as
:class:`apples.theory.Binormal`), never checked. :mod:`apples.theory.parker` checks its arguments and
calls these; so do the comparison, figures and explorer of :mod:`apples.studies.parker`. Integrals are
by ``scipy.integrate.quad``; the integrands call the closed forms of :mod:`apples._kernels.binormal`
with Python floats. Where a quantity is 0/0 or its integral has no positive mass, the value says so
(NaN, or the mass itself) and the caller decides.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Protocol

import numpy as np
from scipy import integrate, optimize, special

from apples._kernels.binormal import log_likelihood_ratio, normal_cdf, normal_pdf, normal_sf

__all__ = [
    "Model",
    "Weighting",
    "beta_pdf",
    "binormal_h",
    "expected_loss",
    "g_weight",
    "h_losses",
    "implied_cost",
    "implied_cost_density",
    "implied_cost_quantiles",
    "integrated_measure",
    "lambda_coefficients",
    "limits",
    "loss",
    "loss_at_implied_cost",
    "min_loss",
    "optimal_threshold",
    "pdf",
    "quad",
    "stationary_points",
    "threshold_measure",
    "uniform_threshold_loss",
    "w_i",
    "weight_m",
    "weighting",
]

#: A weighting of thresholds, W(t), or the threshold weighting's density.
Weighting = Callable[[Any], Any]


class Model(Protocol):
    """The binormal model's parameters, as :class:`apples.theory.Binormal` holds them."""

    @property
    def mu_pos(self) -> float: ...
    @property
    def sd_pos(self) -> float: ...
    @property
    def mu_neg(self) -> float: ...
    @property
    def sd_neg(self) -> float: ...
    @property
    def pi_pos(self) -> float: ...
    @property
    def pi_neg(self) -> float: ...


# -- the model's densities and rates (the integrands call them with Python floats) ------------
def _pdf_pos(m: Model, t: Any) -> Any:
    return normal_pdf(t, m.mu_pos, m.sd_pos)


def _pdf_neg(m: Model, t: Any) -> Any:
    return normal_pdf(t, m.mu_neg, m.sd_neg)


def pdf(m: Model, t: Any) -> Any:
    """f = π_0 f_0 + π_1 f_1, Hand's W_G (Parker eq. 8)."""
    return m.pi_pos * _pdf_pos(m, t) + m.pi_neg * _pdf_neg(m, t)


def _cdf_pos(m: Model, t: Any) -> Any:
    """1 - F_0(t), the false-negative rate."""
    return normal_cdf(t, m.mu_pos, m.sd_pos)


def _tpr(m: Model, t: Any) -> Any:
    """F_0(t), the recall."""
    return normal_sf(t, m.mu_pos, m.sd_pos)


def _fpr(m: Model, t: Any) -> Any:
    """F_1(t), the false-positive rate."""
    return normal_sf(t, m.mu_neg, m.sd_neg)


def loss(t: Any, c: Any, m: Model, one_minus_c: Any = None) -> Any:
    """Q(t; 1, c) = c·π_0·(1 - F_0(t)) + (1 - c)·π_1·F_1(t) (Parker eq. 4, b = 1).

    ``one_minus_c`` may be given where 1 - c is known more precisely than from c.

    >>> from types import SimpleNamespace
    >>> m = SimpleNamespace(mu_pos=1.0, sd_pos=1.0, mu_neg=0.0, sd_neg=1.0, pi_pos=0.25, pi_neg=0.75)
    >>> round(float(loss(np.inf, 0.3, m)), 12), round(float(loss(-np.inf, 0.3, m)), 12)
    (0.075, 0.525)
    """
    one_minus_c = 1 - c if one_minus_c is None else one_minus_c
    return c * m.pi_pos * _cdf_pos(m, t) + one_minus_c * m.pi_neg * _fpr(m, t)


def w_i(t: Any, m: Model) -> Any:
    """W_I(t) of Parker eq. (9): f_1·(1 - F_0) + f_0·F_1."""
    return _pdf_neg(m, t) * _cdf_pos(m, t) + _pdf_pos(m, t) * _fpr(m, t)


# -- cost and threshold (Parker §III-A, eqs. 2-6) -------------------------------------
def _lambda(t: Any, m: Model) -> Any:
    """log(π_0 f_0(t)) - log(π_1 f_1(t)): log posterior odds of a positive at score t."""
    return np.log(m.pi_pos) - np.log(m.pi_neg) + log_likelihood_ratio(t, m.mu_pos, m.sd_pos, m.mu_neg, m.sd_neg)


def implied_cost(t: Any, m: Model) -> Any:
    """c(t) = π_1 f_1/(π_0 f_0 + π_1 f_1) (eq. 6), as expit(-λ(t)): finite where both densities underflow."""
    return special.expit(-_lambda(t, m))


def lambda_coefficients(m: Model) -> tuple[float, float, float]:
    """λ(t) = A t² + B t + C for the binormal model."""
    vp, vn = m.sd_pos**2, m.sd_neg**2
    A = 1 / (2 * vn) - 1 / (2 * vp)
    B = m.mu_pos / vp - m.mu_neg / vn
    C = np.log(m.pi_pos / m.pi_neg) + np.log(m.sd_neg / m.sd_pos) - m.mu_pos**2 / (2 * vp) + m.mu_neg**2 / (2 * vn)
    return A, B, C


def stationary_points(c: np.ndarray, m: Model, k: np.ndarray | None = None) -> np.ndarray:
    """Real roots t of c·π_0 f_0(t) = (1 - c)·π_1 f_1(t) (eq. 5), shape c.shape + (2,), NaN if none.

    ``k = log((1 - c)/c)`` may be given when 1 - c is known more precisely than from c.
    """
    A, B, C = lambda_coefficients(m)
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


def optimal_threshold(c: np.ndarray, m: Model) -> np.ndarray:
    """T(c) of eq. (3) for costs in [0, 1] (an array, 0-d for one cost): the candidate of least loss.

    The candidates are the stationary points of eq. (5) and the ends t = ±inf.
    """
    roots = stationary_points(c, m)
    ends = np.broadcast_to(np.array([-np.inf, np.inf]), (*c.shape, 2))
    cand = np.concatenate([roots, ends], axis=-1)
    missing = np.isnan(cand)  # no stationary point: evaluate a placeholder, then rule it out
    with np.errstate(invalid="ignore"):
        q = loss(np.where(missing, 0.0, cand), c[..., None], m)
    q = np.where(missing, np.inf, q)
    best: np.ndarray = np.take_along_axis(cand, np.argmin(q, axis=-1)[..., None], axis=-1)[..., 0]
    return best


def loss_at_implied_cost(t: Any, m: Model) -> Any:
    """Q(t; 1, c(t)), the braces of Parker eq. (7); c and 1 - c each from expit (no cancellation)."""
    lam = _lambda(t, m)
    return loss(t, special.expit(-lam), m, one_minus_c=special.expit(lam))


def threshold_measure(t: Any, m: Model, measure: str) -> Any:
    """m(t) for ``measure`` in ``("tpr", "precision", "kappa", "f1", "mcc")``, from F_0, F_1 and π (Parker §II)."""
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


# -- integrals over thresholds (Parker §III-B, III-C, eqs. 7-10) ---------------------
def limits(m: Model) -> tuple[float, float, list[float]]:
    """The integration range, 12 standard deviations beyond either class, and the means as break points."""
    lo = min(m.mu_pos - 12 * m.sd_pos, m.mu_neg - 12 * m.sd_neg)
    hi = max(m.mu_pos + 12 * m.sd_pos, m.mu_neg + 12 * m.sd_neg)
    return lo, hi, sorted({m.mu_pos, m.mu_neg})


def quad(f: Weighting, m: Model) -> float:
    """∫ f dt over :func:`limits` by ``scipy.integrate.quad`` (absolute tolerance 1e-14)."""
    lo, hi, pts = limits(m)
    val, _ = integrate.quad(f, lo, hi, points=pts, epsabs=1e-14, epsrel=1e-12, limit=500)
    return float(val)


def weighting(m: Model, weight: Weighting | None) -> tuple[Weighting, float]:
    """The threshold weighting W (default W_G, the score density) and its mass ∫W dt (the caller refuses <= 0)."""
    if weight is None:
        return lambda t: pdf(m, t), 1.0
    return weight, quad(weight, m)


def g_weight(m: Model, over: str) -> Weighting:
    """g = f_1 (averaging over the FPR, ``over="fpr"``) or f_0 (over the recall)."""
    if over == "fpr":
        return lambda t: _pdf_neg(m, t)
    return lambda t: _pdf_pos(m, t)


def integrated_measure(m: Model, measure: str, over: str) -> float:
    """M = ∫ m(t) g(t) dt by quadrature: the AUC, AUK or average precision of the model (Parker §II)."""
    g = g_weight(m, over)
    return quad(lambda t: threshold_measure(t, m, measure) * g(t), m)


def weight_m(t: Any, m: Model, measure: str, over: str, form: str) -> Any:
    """W_m = m·g·W_G/W_I (eq. 10, ``form="printed"``) or (1 - m)·g·W_G/W_I (``form="loss"``)."""
    g = g_weight(m, over)
    mt = threshold_measure(t, m, measure)
    num = (mt if form == "printed" else 1 - mt) * g(t) * pdf(m, t)
    return num / w_i(t, m)


def expected_loss(m: Model, weight: Weighting) -> float:
    """L = ∫ Q(t; 1, c(t))·W(t) dt (Parker eq. 7)."""
    return quad(lambda t: loss_at_implied_cost(t, m) * weight(t), m)


def implied_cost_density(c: np.ndarray, m: Model, W: Weighting, total: float) -> np.ndarray:
    """w(c) = Σ W(t_r)/|c'(t_r)| / total over the thresholds t_r with c(t_r) = c; 0 at c = 0 and 1."""
    A, B, _ = lambda_coefficients(m)
    inner = (c > 0) & (c < 1)
    cs = np.where(inner, c, 0.5)
    roots = stationary_points(cs, m)
    out = np.zeros(c.shape)
    for r in (roots[..., 0], roots[..., 1]):
        ok = inner & ~np.isnan(r)
        rr = np.where(ok, r, 0.0)
        slope = np.abs(cs * (1 - cs) * (2 * A * rr + B))  # |c'(t)| = c(1 - c)|λ'(t)|
        with np.errstate(divide="ignore", invalid="ignore"):
            term = np.where(ok & (slope > 0), np.asarray(W(rr), dtype=float) / np.where(slope > 0, slope, 1.0), 0.0)
        out = out + term
    result: np.ndarray = out / total
    return result


def implied_cost_quantiles(m: Model, W: Weighting, total: float, qs: np.ndarray) -> np.ndarray:
    """Quantiles of c(t), t ~ W/total, for a model with c(t) decreasing (equal spreads, mu_pos > mu_neg)."""
    lo, hi, _ = limits(m)

    def cdf(x: float) -> float:
        t = min(max(float(optimal_threshold(np.asarray(x), m)), lo), hi)
        return float(integrate.quad(W, t, hi, epsabs=1e-14, epsrel=1e-12, limit=500)[0]) / total

    return np.array([optimize.brentq(lambda x, p: cdf(x) - p, 1e-15, 1 - 1e-15, args=(p,), xtol=1e-14) for p in qs])


def uniform_threshold_loss(m: Model, scale: float) -> float:
    """L_c^t = ∫_0^1 ∫ Q(t; b, c) W_G(t) dt dc by ``scipy.integrate.dblquad`` (Flach et al. 2011)."""
    lo, hi, _ = limits(m)

    def f(t: float, c: float) -> float:
        return float(scale * loss(t, c, m) * pdf(m, t))

    val, _ = integrate.dblquad(f, 0.0, 1.0, lo, hi, epsabs=1e-13, epsrel=1e-11)
    return float(val)


# -- the H-measure's prior in Parker's c, and H of the binormal population -----------
def beta_pdf(x: Any, a: float, b: float) -> Any:
    """Beta(a, b) density from scipy.special (the frozen scipy.stats.beta is ~1000x slower per call)."""
    with np.errstate(divide="ignore"):
        return np.exp(special.xlogy(a - 1, x) + special.xlog1py(b - 1, -x) - special.betaln(a, b))


def min_loss(c: np.ndarray, one_minus_c: np.ndarray, m: Model) -> np.ndarray:
    """min over t of Q(t; 1, c) (Parker eqs. 3-4), with c and 1 - c given separately."""
    with np.errstate(divide="ignore"):
        k = np.log(one_minus_c) - np.log(c)  # ±inf at c = 0, 1: then an end t = ±inf is optimal
    roots = stationary_points(c, m, k=k)
    cand = np.concatenate([roots, np.broadcast_to(np.array([-np.inf, np.inf]), (*c.shape, 2))], axis=-1)
    missing = np.isnan(cand)
    with np.errstate(invalid="ignore"):
        q = loss(np.where(missing, 0.0, cand), c[..., None], m, one_minus_c=one_minus_c[..., None])
    result: np.ndarray = np.where(missing, np.inf, q).min(axis=-1)
    return result


def h_losses(m: Model, alpha: float, beta: float) -> tuple[float, float]:
    """L and L_max of Hand's H for the binormal population under the Beta(α, β) prior on Hand's c = 1 - c.

    ``L = ∫ min_t Q(t; 1, c) u(c) dc`` and ``L_max = ∫ min(cπ_0, (1 - c)π_1) u(c) dc``, both divided by
    the same positive scale (H = 1 - L/L_max is unchanged), by quadrature over the log of Hand's cost.
    """
    p0, p1 = m.pi_pos, m.pi_neg
    # The prior over Parker's c is Beta(beta, alpha); Hand's c, h = 1 - c, is Beta(alpha, beta).
    # Integrate over v = log h, where the prior is one smooth bump of width O(1) wherever it sits:
    # severity_ratio=1e-8 puts Beta(2, 1e8) within ~1e-7 of h = 0, which quadrature over c missed
    # (L_max came out 0). c = -expm1(v) and 1 - c = exp(v) both keep their digits.
    # Both losses are divided by scale = min(p0·E[c], p1·E[1 - c]) >= L_max (~1e-300 for
    # severity_ratio=1e-300), so that one absolute tolerance suits every prior; H = 1 - L/L_max is unchanged.
    mean_h = alpha / (alpha + beta)
    scale = min(p0 * beta / (alpha + beta), p1 * mean_h)
    log_norm = special.betaln(alpha, beta)

    def weight(
        v: float,
    ) -> float:  # the prior density of v = log h, from logs (no overflow for any representable prior)
        return math.exp(alpha * v + special.xlog1py(beta - 1.0, -math.exp(v)) - log_norm) / scale

    def min_loss_at(v: float) -> float:
        c, one_minus_c = np.asarray(-math.expm1(v)), np.asarray(math.exp(v))
        return float(min_loss(c, one_minus_c, m)) * weight(v)

    def trivial_loss(v: float) -> float:
        return min(-math.expm1(v) * p0, math.exp(v) * p1) * weight(v)

    # below lo lies less than e^-50 of the prior (its lower tail is ~h^alpha, alpha >= 1), above hi less
    # than e^-38 (for Beta(alpha, beta) with beta large, beta·h is about Gamma(alpha)); else hi = 0, h = 1
    lo, hi = math.log(mean_h) - 50.0 / alpha, min(0.0, math.log(mean_h) + math.log(40.0))
    marks = (math.log(mean_h) - 3.0, math.log(mean_h), math.log(mean_h) + 1.0, math.log(p0))  # log p0: c = p1
    points = sorted({x for x in marks if lo < x < hi})

    def integral(f: Callable[[float], float]) -> float:
        return float(integrate.quad(f, lo, hi, epsabs=1e-13, epsrel=1e-10, limit=400, points=points)[0])

    return integral(min_loss_at), integral(trivial_loss)


def binormal_h(m: Model, alpha: float, beta: float) -> tuple[float, float, float]:
    """H = 1 - L/L_max of the binormal population (NaN where the ratio is not finite), with L and L_max.

    L <= L_max holds exactly; the clip to [0, 1] removes quadrature round-off only, never a NaN.
    """
    loss_, max_loss = h_losses(m, alpha, beta)
    ratio = loss_ / max_loss if max_loss > 0 else float("nan")
    if not np.isfinite(ratio):
        return float("nan"), loss_, max_loss
    return min(1.0, max(0.0, 1.0 - ratio)), loss_, max_loss
