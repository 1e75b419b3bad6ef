"""Cost, threshold and the incoherence of integrated measures (Parker 2011 §III; Hand 2009).

Introduced in notebook 07. Every identity of Parker (2011) §III is a function
here, for the continuous binormal model (:class:`apples.Binormal`, integrals
by ``scipy.integrate.quad``) and, where the issue asks for it, for empirical
scores with ties (exact sums).

Orientation: label 1 positive, higher score more positive (apples' convention;
see :mod:`apples.binormal` for the mirror map to Parker's symbols). For the
continuous model ``score > t`` and ``score >= t`` coincide; the empirical
functions predict positive for ``score >= t``, a tie group never split
(except by the midpoint rule of :func:`empirical_hand_loss`, which splits it
half and half in expectation). The normalised cost ``c = c_0/(c_0 + c_1)``
is the share of the cost that falls on a *missed positive*; ``1 - c`` falls on
a false positive; ``b = c_0 + c_1`` is the scale (Parker §III). Note that
:mod:`apples.hmeasure` follows Hand's R package instead, whose c is the cost
share of a *false positive*: c_hmeasure = 1 - c here (converted where the two
meet: :func:`empirical_cost_intervals`, :func:`h_prior_density`).

Where Parker (2011) needs a correction (each checked numerically in
``tests/test_incoherence.py`` and notebook 07):

* eq. (5): a minimum needs d²Q/dt² > 0, not "= 0" as printed.
* Theorem 1 / eq. (10) with m itself gives L_m = π_0π_1·M, a loss that
  *grows* with the measure, and W_m < 0 wherever m < 0 (κ can be negative).
  Applying eq. (10) to the loss 1 - m (Parker's own footnote 2) gives a
  non-negative weighting with L = π_0π_1(1 - M). ``form="printed"`` and
  ``form="loss"`` (default) offer both.
* §II-E defines AP as ∫ p(t) f_1(t) dt (precision averaged over the *false
  positive rate*) while calling it precision averaged over recall; the
  usual AP (scikit-learn's) is ∫ p(t) f_0(t) dt. Theorem 1 generalises to
  any M = ∫ m(t) g(t) dt by putting g in place of f_1 in eq. (10):
  ``over="recall"`` (g = f_0) or ``over="fpr"`` (g = f_1).
* Hand's identity for empirical scores: the "deft calculus" step
  ∫ f_0 F_1 = ∫ f_1 (1 - F_0) is integration by parts, which fails at atoms
  shared by both classes unless each CDF is taken at the midpoint of its
  jump; see :func:`empirical_hand_loss`.
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, NamedTuple

import numpy as np
from scipy import integrate, optimize, special

from ._optional import require
from ._ranking import check_binary_scores, cumulative_counts
from ._validation import check_bool, check_choice, check_cost, check_count, check_real, check_real_array, rng_from_seed
from .binormal import Binormal
from .hmeasure import h_measure_prior, roc_convex_hull

if TYPE_CHECKING:  # pandas is imported where a table is built
    import pandas as pd

__all__ = [
    "THRESHOLD_MEASURES",
    "EmpiricalCosts",
    "HandLoss",
    "IncoherenceComparison",
    "IncoherenceExplorerParts",
    "binormal_h_measure",
    "empirical_cost_intervals",
    "empirical_hand_loss",
    "empirical_loss",
    "empirical_optimal_threshold",
    "empirical_uniform_threshold_loss",
    "expected_loss",
    "h_prior_density",
    "implied_cost",
    "implied_cost_density",
    "implied_cost_quantiles",
    "incoherence_comparison",
    "incoherence_explorer",
    "integrated_measure",
    "loss_at_implied_cost",
    "misclassification_loss",
    "optimal_threshold",
    "plot_incoherence_comparison",
    "threshold_measure",
    "uniform_threshold_loss",
    "uniform_threshold_loss_draws",
    "weight_g",
    "weight_i",
    "weight_m",
]

#: The m(t) that :func:`threshold_measure` knows, with the integrated measure each gives.
THRESHOLD_MEASURES = ("tpr", "precision", "kappa", "f1", "mcc")


# -- input checks ---------------------------------------------------------------------


def _check_model(model: object, name: str = "model") -> Binormal:
    """An apples.Binormal (TypeError otherwise); a type check no shared helper makes."""
    if not isinstance(model, Binormal):
        raise TypeError(f"{name} must be an apples.Binormal, got {type(model).__name__}")
    return model


def _check_int_at_least(name: str, value: object, minimum: int) -> int:
    """An integer >= minimum: TypeError for a non-number, ValueError for others (1.5 too, unlike check_positive)."""
    what = "a positive integer" if minimum == 1 else f"an integer >= {minimum}"
    if not isinstance(value, numbers.Number):
        raise TypeError(f"{name} must be {what}, got {value!r} ({type(value).__name__})")
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(f"{name} must be {what}, got {value!r}")
    return check_count(name, value)


def _out(x):
    x = np.asarray(x, dtype=float)
    return float(x) if x.ndim == 0 else x


def _q(t, c, m: Binormal, one_minus_c=None):
    """Q(t; 1, c) = c·π_0·(1 - F_0(t)) + (1 - c)·π_1·F_1(t) (Parker eq. 4, b = 1), unchecked."""
    one_minus_c = 1 - c if one_minus_c is None else one_minus_c
    return c * m.pi_pos * m.cdf_pos(t) + one_minus_c * m.pi_neg * m.fpr(t)


def _w_i(t, m: Binormal):
    """W_I(t) of Parker eq. (9), unchecked."""
    return m.pdf_neg(t) * m.cdf_pos(t) + m.pdf_pos(t) * m.fpr(t)


# -- cost and threshold (Parker §III-A, eqs. 2-6) -------------------------------------


def misclassification_loss(t, c, model: Binormal, *, scale: float = 1.0):
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
    m = _check_model(model)
    t = check_real_array("t", t)
    c = check_cost(c)
    b = check_real("scale", scale, low=0.0, low_inclusive=False)
    return _out(b * _q(t, c, m))


def _lambda(t, m: Binormal):
    """log(π_0 f_0(t)) - log(π_1 f_1(t)): log posterior odds of a positive at score t."""
    return np.log(m.pi_pos) - np.log(m.pi_neg) + m.log_likelihood_ratio(t)


def implied_cost(t, model: Binormal):
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
    m = _check_model(model)
    return _out(special.expit(-_lambda(check_real_array("t", t), m)))


def _lambda_coefficients(m: Binormal):
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


def optimal_threshold(c, model: Binormal):
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
    m = _check_model(model)
    c = check_cost(c)
    roots = _stationary_points(c, m)
    ends = np.broadcast_to(np.array([-np.inf, np.inf]), (*c.shape, 2))
    cand = np.concatenate([roots, ends], axis=-1)
    missing = np.isnan(cand)  # no stationary point: evaluate a placeholder, then rule it out
    with np.errstate(invalid="ignore"):
        q = _q(np.where(missing, 0.0, cand), c[..., None], m)
    q = np.where(missing, np.inf, q)
    best = np.take_along_axis(cand, np.argmin(q, axis=-1)[..., None], axis=-1)[..., 0]
    return _out(best)


# -- weightings over thresholds (Parker §III-B, III-C, eqs. 7-10) ---------------------


def weight_g(t, model: Binormal):
    """Hand's threshold weighting W_G(t) = π_0 f_0(t) + π_1 f_1(t) (Parker eq. 8).

    It is the density of the scores themselves: the weighting that the
    classifier, not the problem, chooses.
    """
    m = _check_model(model)
    return _out(m.pdf(check_real_array("t", t)))


def weight_i(t, model: Binormal):
    """W_I(t) = f_1 - f_1 F_0 + f_0 F_1 (Parker eq. 9), here f_1·cdf_pos + f_0·fpr."""
    m = _check_model(model)
    return _out(_w_i(check_real_array("t", t), m))


def loss_at_implied_cost(t, model: Binormal):
    """Q(t; 1, c(t)), the braces of Parker eq. (7): the loss at t under its own implied cost.

    Equals π_0 π_1 W_I(t)/W_G(t) (Parker, proof of Theorem 1).
    """
    m = _check_model(model)
    t = check_real_array("t", t)
    lam = _lambda(t, m)
    # c and 1 - c each from expit: no cancellation in 1 - c
    return _out(_q(t, special.expit(-lam), m, one_minus_c=special.expit(lam)))


def threshold_measure(t, model: Binormal, measure: str):
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
    m = _check_model(model)
    check_choice("measure", measure, THRESHOLD_MEASURES)
    t = check_real_array("t", t)
    p0, p1 = m.pi_pos, m.pi_neg
    f0, f1 = m.tpr(t), m.fpr(t)
    F = p0 * f0 + p1 * f1
    if measure == "tpr":
        return _out(f0)
    if measure == "precision":
        return _out(p0 * f0 / F)
    if measure == "kappa":
        return _out(2 * p0 * p1 * (f0 - f1) / (p0 * (1 - F) + p1 * F))
    if measure == "f1":
        return _out(2 * p0 * f0 / (F + p0))
    return _out(p0 * p1 * (f0 - f1) / np.sqrt(p0 * p1 * F * (1 - F)))


def _limits(m: Binormal) -> tuple[float, float, list[float]]:
    lo = min(m.mu_pos - 12 * m.sd_pos, m.mu_neg - 12 * m.sd_neg)
    hi = max(m.mu_pos + 12 * m.sd_pos, m.mu_neg + 12 * m.sd_neg)
    return lo, hi, sorted({m.mu_pos, m.mu_neg})


def _quad(f: Callable[[float], float], m: Binormal) -> float:
    lo, hi, pts = _limits(m)
    val, _ = integrate.quad(f, lo, hi, points=pts, epsabs=1e-14, epsrel=1e-12, limit=500)
    return float(val)


def _weighting(m: Binormal, weight) -> tuple[Callable, float]:
    """The threshold weighting W (default W_G, the score density) and its mass ∫W dt > 0."""
    if weight is None:
        return m.pdf, 1.0
    if not callable(weight):
        raise TypeError(f"weight must be a callable t -> W(t), got {type(weight).__name__}")
    total = _quad(weight, m)
    if not total > 0:
        raise ValueError(f"the weighting integrates to {total:.3g}; it must have positive mass")
    return weight, total


def _g(m: Binormal, over: str):
    check_choice("over", over, ("fpr", "recall"))
    return m.pdf_neg if over == "fpr" else m.pdf_pos


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
    m = _check_model(model)
    check_choice("measure", measure, THRESHOLD_MEASURES)
    g = _g(m, over)
    return _quad(lambda t: threshold_measure(t, m, measure) * g(t), m)


def weight_m(t, model: Binormal, measure: str, *, over: str = "fpr", form: Literal["loss", "printed"] = "loss"):
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
    m = _check_model(model)
    check_choice("form", form, ("loss", "printed"))
    g = _g(m, over)
    t = check_real_array("t", t)
    mt = threshold_measure(t, m, measure)
    num = (mt if form == "printed" else 1 - mt) * g(t) * m.pdf(t)
    return _out(num / _w_i(t, m))


def expected_loss(model: Binormal, weight: Callable) -> float:
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
    m = _check_model(model)
    if not callable(weight):
        raise TypeError(f"weight must be a callable t -> W(t), got {type(weight).__name__}")
    return _quad(lambda t: loss_at_implied_cost(t, m) * weight(t), m)


def implied_cost_density(c, model: Binormal, weight: Callable | None = None):
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
    m = _check_model(model)
    c = check_cost(c)
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
    return _out(out / total)


def implied_cost_quantiles(model: Binormal, weight: Callable | None = None, q=(0.1, 0.5, 0.9)) -> np.ndarray:
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
    m = _check_model(model)
    if not (m.sd_pos == m.sd_neg and m.mu_pos > m.mu_neg):
        raise ValueError(
            "implied_cost_quantiles needs sd_pos == sd_neg and mu_pos > mu_neg (otherwise c(t) is not monotone)"
        )
    qs = np.atleast_1d(
        check_real_array(
            "q",
            q,
            low=0,
            high=1,
            low_inclusive=False,
            high_inclusive=False,
            what="be probabilities strictly between 0 and 1",
        )
    )
    if qs.ndim != 1:
        raise ValueError(f"q must be a probability or a one-dimensional sequence of them, got shape {qs.shape}")
    W, total = _weighting(m, weight)
    lo, hi, _ = _limits(m)

    def cdf(x):
        t = min(max(optimal_threshold(x, m), lo), hi)
        return integrate.quad(W, t, hi, epsabs=1e-14, epsrel=1e-12, limit=500)[0] / total

    return np.array([optimize.brentq(lambda x, p: cdf(x) - p, 1e-15, 1 - 1e-15, args=(p,), xtol=1e-14) for p in qs])


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
    m = _check_model(model)
    b = check_real("scale", scale, low=0.0, low_inclusive=False)
    lo, hi, _ = _limits(m)

    def f(t, c):
        return b * _q(t, c, m) * m.pdf(t)

    val, _ = integrate.dblquad(f, 0.0, 1.0, lo, hi, epsabs=1e-13, epsrel=1e-11)
    return float(val)


# -- empirical scores with ties -------------------------------------------------------


class _Atoms(NamedTuple):
    thresholds: np.ndarray  # distinct scores, decreasing
    dp: np.ndarray  # positives at each score
    dn: np.ndarray  # negatives at each score
    above_p: np.ndarray  # positives strictly above
    above_n: np.ndarray  # negatives strictly above
    n_pos: int
    n_neg: int


def _roc_points(y_true, y_score, pos_label):
    """Validated ROC points in counts: thresholds (+inf first), TP and FP (0 first), P, N."""
    is_pos, s = check_binary_scores(y_true, y_score, pos_label=pos_label)
    cc = cumulative_counts(is_pos, s).with_origin()
    return cc.thresholds, cc.tp, cc.fp, cc.n_pos, cc.n_neg


def _atoms(y_true, y_score, pos_label) -> _Atoms:
    thr, tp, fp, n_pos, n_neg = _roc_points(y_true, y_score, pos_label)
    return _Atoms(thr[1:], np.diff(tp), np.diff(fp), tp[:-1], fp[:-1], n_pos, n_neg)


def _rates_at_atoms(a: _Atoms, share: float):
    """FNR and FPR at each atom when a ``share`` of the cases tied at it is predicted negative."""
    # missed positives at t: those below t plus the tied ones predicted negative
    below_p = a.n_pos - a.above_p - a.dp
    fnr = (below_p + share * a.dp) / a.n_pos
    fpr = (a.above_n + (1 - share) * a.dn) / a.n_neg
    return fnr, fpr


class HandLoss(NamedTuple):
    """L_G for empirical scores, term by term (Parker §III-B)."""

    loss: float  #: L_G = π_0π_1·(missed + false_alarm)
    missed: float  #: ∫ f_1 (1 - F_0): mass of (negative, positive) pairs where the positive is missed
    false_alarm: float  #: ∫ f_0 F_1
    pi_pos: float
    pi_neg: float


def empirical_hand_loss(
    y_true, y_score, *, ties: Literal["half", "positive", "negative"] = "half", pos_label=1
) -> HandLoss:
    """Hand's weighted loss L_G for empirical scores, summed exactly (Parker §III-B).

    For empirical scores W_G (eq. 8) puts mass (n_pos,t + n_neg,t)/n on each
    distinct score t, eq. (6) becomes c(t) = n_neg,t/(n_pos,t + n_neg,t), and
    eq. (7) is a finite sum over the distinct scores,
    L_G = π_0π_1 [Σ_t P_1(t)(1 - F_0(t)) + Σ_t P_0(t) F_1(t)],
    with P_k(t) the share of class k at score t.

    Parameters
    ----------
    y_true, y_score : array-like
        Labels and scores (both classes needed).
    ties : {"half", "positive", "negative"}, default "half"
        How the cases tied *at* the threshold t are predicted when the rates
        F_0(t), F_1(t) are evaluated at an atom: half each way (each CDF at
        the midpoint of its jump), all positive, or all negative.
    pos_label : label, default 1

    Returns
    -------
    HandLoss
        ``loss`` = 2π_0π_1(1 - AUC) exactly for every ``ties`` rule, AUC with
        ties counted ½ (the trapezoidal AUC). Only ``ties="half"`` makes
        ``missed == false_alarm == 1 - AUC`` individually, which is Parker's
        (and Hand's) step L_G = 2π_0π_1∫f_1(1 - F_0): integration by parts,
        ∫F_1 dF_0 + ∫F_0 dF_1 = 1, holds for step functions only with
        midpoint values at common jumps. The other rules move ½·P(tie)
        from one term to the other.

    Examples
    --------
    >>> h = empirical_hand_loss([1, 0, 1, 0], [0.8, 0.5, 0.5, 0.2])  # AUC = 0.875
    >>> h.missed, h.false_alarm, h.loss
    (0.125, 0.125, 0.0625)
    >>> h = empirical_hand_loss([1, 0, 1, 0], [0.8, 0.5, 0.5, 0.2], ties="positive")
    >>> h.missed, h.false_alarm, h.loss
    (0.0, 0.25, 0.0625)
    """
    check_choice("ties", ties, ("half", "positive", "negative"))
    a = _atoms(y_true, y_score, pos_label)
    share = {"half": 0.5, "positive": 0.0, "negative": 1.0}[ties]  # share of tied cases predicted negative
    fnr, fpr = _rates_at_atoms(a, share)
    missed = float(np.sum(a.dn * fnr) / a.n_neg)
    false_alarm = float(np.sum(a.dp * fpr) / a.n_pos)
    n = a.n_pos + a.n_neg
    p0, p1 = a.n_pos / n, a.n_neg / n
    return HandLoss(p0 * p1 * (missed + false_alarm), missed, false_alarm, p0, p1)


class EmpiricalCosts(NamedTuple):
    """For each empirical threshold, the costs for which it minimises the loss."""

    #: +inf (predict nothing positive), then the distinct scores decreasing (float, see roc_curve)
    thresholds: np.ndarray
    tpr: np.ndarray
    fpr: np.ndarray
    c_low: np.ndarray  #: least cost at which the threshold is optimal (NaN off the hull)
    c_high: np.ndarray  #: greatest such cost (NaN off the hull)
    on_hull: np.ndarray  #: True for the vertices of the ROC convex hull


def empirical_cost_intervals(y_true, y_score, *, pos_label=1) -> EmpiricalCosts:
    """The empirical inverse of T(c): the interval of costs for which each threshold is optimal.

    Thresholds predict positive for ``score >= t`` (a tie group is never
    split), plus ``t = +inf``. The loss Q(t; 1, c) = c·π_0(1 - TPR) +
    (1 - c)·π_1·FPR is linear in c for each t, so T(c) is the lower envelope
    of these lines: only the vertices of the ROC convex hull are ever
    optimal, vertex j for c between the costs where the iso-loss slope
    π_1(1 - c)/(π_0 c) equals the slopes of its two hull edges. An edge with
    ΔTP positives and ΔFP negatives has slope (ΔTP/n_pos)/(ΔFP/n_neg) and
    breakpoint c = ΔFP/(ΔFP + ΔTP): eq. (6) with the densities replaced by
    the masses of the edge, the discrete counterpart of c(t).

    The hull is :func:`apples.roc_convex_hull`; its costs are in Hand's R
    package convention (c = cost share of a *false positive*), so here
    c = 1 - c_hmeasure.

    Examples
    --------
    >>> r = empirical_cost_intervals([1, 1, 0, 1, 0, 0], [6, 5, 4, 3, 2, 1])
    >>> r.on_hull.tolist()
    [True, False, True, False, True, False, True]
    >>> [(float(a), float(b)) for a, b, h in zip(r.c_low, r.c_high, r.on_hull) if h]
    [(0.0, 0.0), (0.0, 0.5), (0.5, 1.0), (1.0, 1.0)]
    """
    thr, tp, fp, n_pos, n_neg = _roc_points(y_true, y_score, pos_label)
    hull = roc_convex_hull(y_true, y_score, pos_label=pos_label)
    # Match the hull's vertices by their counts, not their thresholds: float thresholds of integer
    # scores above 2**53 may coincide. TP + FP grows by at least 1 from one point to the next.
    on = np.isin(tp + fp, hull.tp + hull.fp)
    c_low = np.full(thr.size, np.nan)
    c_high = np.full(thr.size, np.nan)
    # apples.hmeasure follows Hand's R package: its c is the cost share of a false positive
    c_low[on] = 1.0 - hull.cost_high
    c_high[on] = 1.0 - hull.cost_low
    return EmpiricalCosts(thr, tp / n_pos, fp / n_neg, c_low, c_high, on)


def empirical_loss(y_true, y_score, c, *, scale: float = 1.0, pos_label=1):
    """Q(t; b, c) (Parker eq. 4) at every empirical threshold: shape (n_thresholds,) + c.shape.

    Thresholds as in :func:`empirical_cost_intervals` (+inf first); at
    threshold t every case scoring ``>= t`` is predicted positive.

    Examples
    --------
    Two positives (3, 1) and one negative (2); at t = 2 one positive is missed
    and one negative is a false positive, each 1/3 of the cases:

    >>> empirical_loss([1, 0, 1], [3, 2, 1], 0.25).round(4).tolist()
    [0.1667, 0.0833, 0.3333, 0.25]
    """
    _thr, tp, fp, n_pos, n_neg = _roc_points(y_true, y_score, pos_label)
    c = check_cost(c)
    b = check_real("scale", scale, low=0.0, low_inclusive=False)
    n = n_pos + n_neg
    fnr = ((n_pos - tp) / n).reshape((-1,) + (1,) * c.ndim)  # π_0 (1 - TPR)
    fpr = (fp / n).reshape((-1,) + (1,) * c.ndim)  # π_1 FPR
    return b * (c * fnr + (1 - c) * fpr)


def empirical_optimal_threshold(y_true, y_score, c, *, pos_label=1):
    """T(c) for empirical scores: the threshold of least loss (the highest one if several tie).

    Thresholds as in :func:`empirical_loss`: predict positive for ``y_score >= t``,
    and ``t = inf`` (predict nothing positive) where that is best.

    Returns
    -------
    float, int or ndarray
        One threshold per cost, in the shape of ``c``. Float scores give a
        float (a float64 array for array ``c``). Integer scores (int64,
        uint64, datetime ticks) give the scores themselves, exactly, since
        float64 would merge distinct scores above 2**53: a Python ``int``, or
        for array ``c`` an object array of Python ints; either holds the float
        ``inf`` where nothing is predicted positive.

    Examples
    --------
    >>> empirical_optimal_threshold([1, 1, 0, 1, 0, 0], [0.6, 0.5, 0.4, 0.3, 0.2, 0.1], [0.1, 0.6]).tolist()
    [0.5, 0.3]
    >>> empirical_optimal_threshold([1, 1, 0, 1, 0, 0], [6, 5, 4, 3, 2, 1], [0.0, 0.1, 0.6]).tolist()
    [inf, 5, 3]
    >>> empirical_optimal_threshold([1, 0], np.array([2**53 + 1, 2**53]), 0.5)
    9007199254740993
    """
    is_pos, s = check_binary_scores(y_true, y_score, pos_label=pos_label)
    q = empirical_loss(y_true, y_score, c, pos_label=pos_label)
    best = np.argmin(q, axis=0)  # index into (+inf, the distinct scores decreasing)
    cc = cumulative_counts(is_pos, s)
    if s.dtype.kind == "f":
        return _out(cc.with_origin().thresholds[best])
    # integer scores: index a table of Python ints (exact at any size), +inf first
    table = np.empty(cc.thresholds.size + 1, dtype=object)
    table[0] = math.inf
    table[1:] = cc.thresholds.astype(object)
    return table[best]


def empirical_uniform_threshold_loss(y_true, y_score, *, scale: float = 2.0, pos_label=1) -> float:
    """Flach et al.'s L_c^t for empirical scores, exactly (Parker §VI-B).

    The threshold is the score of a test case drawn uniformly (W_G), the cases
    tied with it are predicted positive or negative with probability ½ each
    (the midpoint rule of :func:`empirical_hand_loss`), and c ~ U(0, 1)
    independently. Since Q is linear in c, E_c Q = Q(t; b, ½), and the sum
    equals b·[(π_0² + π_1²)/4 + π_0π_1(1 - AUC)] exactly.

    Examples
    --------
    >>> empirical_uniform_threshold_loss([1, 0, 1, 0], [0.8, 0.5, 0.5, 0.2])  # AUC = 0.875
    0.3125
    """
    b = check_real("scale", scale, low=0.0, low_inclusive=False)
    a = _atoms(y_true, y_score, pos_label)
    n = a.n_pos + a.n_neg
    p0, p1 = a.n_pos / n, a.n_neg / n
    fnr, fpr = _rates_at_atoms(a, 0.5)  # the midpoint rule
    w = (a.dp + a.dn) / n
    return float(b * 0.5 * np.sum(w * (p0 * fnr + p1 * fpr)))


def uniform_threshold_loss_draws(y_true, y_score, n_draws: int, *, seed, scale: float = 2.0, pos_label=1) -> np.ndarray:
    """Monte Carlo draws of Flach et al.'s loss, whose mean converges to :func:`empirical_uniform_threshold_loss`.

    Each draw picks a test case uniformly (its score is the threshold), the
    cost c ~ U(0, 1) independently, predicts positive every case scoring above
    the threshold and each case tied with it by a fair coin, and returns
    b·(c·FN + (1 - c)·FP)/n.

    Parameters
    ----------
    y_true, y_score : array-like
    n_draws : int
        Number of draws (>= 1).
    seed : int or numpy.random.Generator
    scale : float, default 2.0
        b (2 gives unit costs at c = 1/2, as in :func:`uniform_threshold_loss`).

    Returns
    -------
    ndarray of shape (n_draws,)

    Examples
    --------
    >>> y, s = [1, 0, 1, 0], [0.8, 0.5, 0.5, 0.2]
    >>> d = uniform_threshold_loss_draws(y, s, 100_000, seed=0)
    >>> bool(abs(d.mean() - empirical_uniform_threshold_loss(y, s)) < 4 * d.std() / 100_000**0.5)
    True
    """
    b = check_real("scale", scale, low=0.0, low_inclusive=False)
    n_draws = _check_int_at_least("n_draws", n_draws, 1)
    is_pos, s = check_binary_scores(y_true, y_score, pos_label=pos_label)
    rng = rng_from_seed(seed)
    n = s.size
    out = np.empty(int(n_draws))
    chunk = max(1, 2_000_000 // n)  # bound the (draws x cases) matrices
    for start in range(0, int(n_draws), chunk):
        k = min(chunk, int(n_draws) - start)
        thr = s[rng.integers(0, n, k)][:, None]
        c = rng.random(k)
        pred = (s[None, :] > thr) | ((s[None, :] == thr) & (rng.random((k, n)) < 0.5))
        fn = (is_pos[None, :] & ~pred).sum(1) / n
        fp = (~is_pos[None, :] & pred).sum(1) / n
        out[start : start + k] = b * (c * fn + (1 - c) * fp)
    return out


# -- the H-measure's prior in Parker's c, and H of the binormal population -----------


def h_prior_density(c, pi_pos: float, *, severity_ratio: float | None = None, prior: str = "severity"):
    """The H-measure's Beta prior as a density over *Parker's* c (cost share of a missed positive).

    :func:`apples.h_measure_prior` gives (α, β) for Hand's R-package c, the
    cost share of a false positive, which is 1 - c here; so the density over
    Parker's c is Beta(β, α). It depends on the class proportion only, never
    on the classifier.

    Examples
    --------
    >>> round(h_prior_density(0.5, 0.5, severity_ratio=1), 6)  # Beta(2, 2) at its mode
    1.5
    """
    c = check_cost(c)
    if isinstance(pi_pos, (bool, np.bool_)) or not isinstance(pi_pos, numbers.Real):
        raise TypeError(
            f"pi_pos must be a proportion strictly between 0 and 1, got {pi_pos!r} ({type(pi_pos).__name__})"
        )
    if not 0 < pi_pos < 1:
        raise ValueError(f"pi_pos must be a proportion strictly between 0 and 1, got {pi_pos!r}")
    a, b = h_measure_prior(pi_pos, severity_ratio=severity_ratio, prior=prior)
    return _out(_beta_pdf(c, b, a))


def _beta_pdf(x, a: float, b: float):
    """Beta(a, b) density from scipy.special (the frozen scipy.stats.beta is ~1000x slower per call)."""
    with np.errstate(divide="ignore"):
        return np.exp(special.xlogy(a - 1, x) + special.xlog1py(b - 1, -x) - special.betaln(a, b))


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
    m = _check_model(model)
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

    def weight(v):  # the prior density of v = log h, from logs (no overflow for any representable prior)
        return math.exp(alpha * v + special.xlog1py(beta - 1.0, -math.exp(v)) - log_norm) / scale

    def min_loss(v):
        c, one_minus_c = np.asarray(-math.expm1(v)), np.asarray(math.exp(v))
        return float(_min_loss(c, one_minus_c, m)) * weight(v)

    def trivial_loss(v):
        return min(-math.expm1(v) * p0, math.exp(v) * p1) * weight(v)

    # below lo lies less than e^-50 of the prior (its lower tail is ~h^alpha, alpha >= 1), above hi less
    # than e^-38 (for Beta(alpha, beta) with beta large, beta·h is about Gamma(alpha)); else hi = 0, h = 1
    lo, hi = math.log(mean_h) - 50.0 / alpha, min(0.0, math.log(mean_h) + math.log(40.0))
    marks = (math.log(mean_h) - 3.0, math.log(mean_h), math.log(mean_h) + 1.0, math.log(p0))  # log p0: c = p1
    points = sorted({x for x in marks if lo < x < hi})

    def integral(f):
        return integrate.quad(f, lo, hi, epsabs=1e-13, epsrel=1e-10, limit=400, points=points)[0]

    loss = integral(min_loss)
    max_loss = integral(trivial_loss)
    ratio = loss / max_loss if max_loss > 0 else float("nan")
    if not np.isfinite(ratio):  # never divide by 0 nor clip a NaN
        raise ValueError(
            f"H cannot be computed for this prior (Beta({alpha!r}, {beta!r}), severity_ratio="
            f"{severity_ratio!r}): L = {loss!r}, L_max = {max_loss!r}"
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


# -- two classifiers on the same data: the explorer ------------------------------------

#: (label, measure, over) of the integrated measures whose implied cost densities are compared.
_IMPLIED = (("AUC", None, None), ("AUK", "kappa", "fpr"), ("AP", "precision", "recall"))


class IncoherenceComparison(NamedTuple):
    """Everything the explorer shows for two binormal classifiers on the same test data."""

    table: pd.DataFrame  #: rows AUC, AUK, AP, H; columns A, B
    c: np.ndarray  #: grid of Parker's c, evenly spaced in log10(c/(1 - c)) over [-3, 3]
    densities: dict  #: (classifier "A"/"B", measure "AUC"/"AUK"/"AP") -> implied cost density on ``c``
    h_prior: np.ndarray  #: the H-measure's prior on ``c`` (the same for A and B)


def incoherence_comparison(model_a: Binormal, model_b: Binormal, *, n_grid: int = 199) -> IncoherenceComparison:
    """Population AUC, AUK, AP and H of two binormal classifiers, and their implied cost densities.

    The two models must share ``pi_pos`` (the same test data). AUC is the
    closed form, AUK and AP are quadratures (:func:`integrated_measure`), H is
    :func:`binormal_h_measure` with the R package's default prior. The
    densities are those of the implied cost when thresholds are weighted by
    W_G (AUC, Hand's identity) or by the loss form of W_m (AUK, AP; Theorem 1).

    Examples
    --------
    >>> r = incoherence_comparison(Binormal(mu_pos=1.0, pi_pos=0.3), Binormal(mu_pos=2.0, pi_pos=0.3), n_grid=5)
    >>> r.table.round(4).loc["AUC"].tolist()
    [0.7602, 0.9214]
    """
    import pandas as pd

    a, b = _check_model(model_a, "model_a"), _check_model(model_b, "model_b")
    if a.pi_pos != b.pi_pos:
        raise ValueError(f"the two models must share pi_pos (the same test data), got {a.pi_pos} and {b.pi_pos}")
    n_grid = _check_int_at_least("n_grid", n_grid, 3)
    # costs evenly spaced in log10(c/(1 - c)) = log10(c_0/c_1) from -3 to 3: the implied densities
    # pile up near c = 0 and c = 1, where a linear grid would not resolve them
    c = special.expit(np.log(10.0) * np.linspace(-3.0, 3.0, int(n_grid)))
    rows = {}
    dens = {}
    for name, m in (("A", a), ("B", b)):
        rows[name] = {
            "AUC": m.auc,
            "AUK": integrated_measure(m, "kappa"),
            "AP": integrated_measure(m, "precision", over="recall"),
            "H": binormal_h_measure(m),
        }
        for label, measure, over in _IMPLIED:
            w = None if measure is None else (lambda t, m=m, ms=measure, ov=over: weight_m(t, m, ms, over=ov))
            dens[(name, label)] = implied_cost_density(c, m, w)
    table = pd.DataFrame(rows)
    return IncoherenceComparison(table, c, dens, np.asarray(h_prior_density(c, a.pi_pos)))


def plot_incoherence_comparison(result: IncoherenceComparison, model_a: Binormal, model_b: Binormal, axes=None):
    """ROC curves (left) and implied cost densities with the H prior (right); returns the two axes.

    The costs are drawn on the axis log10(c_0/c_1) = log10(c/(1 - c)), densities
    transformed accordingly, because the implied distributions pile up near
    c = 0 and c = 1. A distribution with less than 95% of its mass inside the
    window [-3, 3] says so in its legend entry. A random classifier (identical
    score distributions) implies the single cost c = π_1, a point mass that
    has no density to draw.
    """
    plt = require("matplotlib.pyplot")

    if not isinstance(result, IncoherenceComparison):
        raise TypeError(
            f"result must be an apples.IncoherenceComparison (from incoherence_comparison), got {type(result).__name__}"
        )
    _check_model(model_a, "model_a")
    _check_model(model_b, "model_b")
    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(12, 4))
    ax_roc, ax_c = axes
    v = np.linspace(0, 1, 201)
    colors = {"A": "#1f77b4", "B": "#d62728"}
    styles = {"AUC": "-", "AUK": "--", "AP": ":"}
    c = result.c
    u = np.log10(c / (1 - c))  # log10 of the cost ratio c_0/c_1
    jac = c * (1 - c) * np.log(10.0)  # density per unit of u = density per unit of c times dc/du
    for name, m in (("A", model_a), ("B", model_b)):
        ax_roc.plot(100 * v, 100 * m.roc(v), color=colors[name], label=f"{name}: AUC = {m.auc:.3f}")
        for label, _, _ in _IMPLIED:
            dens = result.densities[(name, label)] * jac
            shown = float(np.trapezoid(dens, u))  # share of the distribution inside the plotted window
            note = f" ({100 * shown:.0f}% in view)" if shown < 0.95 else ""
            ax_c.plot(u, dens, color=colors[name], ls=styles[label], label=f"{name}, {label}{note}")
    ax_roc.plot([0, 100], [0, 100], color="grey", lw=0.8)
    ax_c.plot(u, result.h_prior * jac, color="black", lw=2, label="H prior (A and B)")
    ax_roc.set(xlabel="False positive rate (%)", ylabel="True positive rate (%)", title="ROC curves of A and B")
    ax_c.set(
        xlabel="log₁₀(c₀/c₁), cost of a missed positive over a false positive",
        ylabel="density per unit log₁₀ ratio",
        title="Implied distributions over the cost",
        ylim=(0, None),
    )
    ax_roc.legend()
    ax_c.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))  # outside: the curves fill the panel
    return axes


class IncoherenceExplorerParts(NamedTuple):
    """The explorer widget and its parts (so tests can set values and read results)."""

    widget: object  #: the ipywidgets.VBox to display
    controls: dict  #: slider name -> ipywidgets slider
    table: object  #: ipywidgets.HTML holding the measures table
    plot: object  #: ipywidgets.Output holding the figure


def incoherence_explorer(
    *,
    mu_a: float = 1.0,
    sd_a: float = 1.0,
    mu_b: float = 1.6,
    sd_b: float = 0.8,
    pi_pos: float = 0.3,
    n_grid: int = 99,
    continuous_update: bool = False,
) -> IncoherenceExplorerParts:
    """Two binormal classifiers (negatives N(0, 1), positives N(mu, sd²)) on the same data.

    Sliders: the positives' mean and spread of A and B and the shared class
    proportion. Shows the measures table (:func:`incoherence_comparison`) in an
    HTML widget and :func:`plot_incoherence_comparison` in an Output widget. The spreads
    are kept in [0.8, 1.2] so that every implied weighting has finite mass
    (for sd_neg² > 2·sd_pos² the AUK's W_m is not integrable in the tail).
    A starting value outside its slider's range is refused (a slider would
    silently clamp it).
    """
    w = require("ipywidgets")
    plt = require("matplotlib.pyplot")

    for name, value, lo, hi in (
        ("mu_a", mu_a, 0.0, 3.0),
        ("sd_a", sd_a, 0.8, 1.2),
        ("mu_b", mu_b, 0.0, 3.0),
        ("sd_b", sd_b, 0.8, 1.2),
        ("pi_pos", pi_pos, 0.05, 0.95),
    ):
        check_real(name, value, low=lo, high=hi)
    n_grid = _check_int_at_least("n_grid", n_grid, 3)
    continuous_update = check_bool("continuous_update", continuous_update)

    def slider(value, lo, hi, step, desc):
        return w.FloatSlider(
            value=value,
            min=lo,
            max=hi,
            step=step,
            description=desc,
            continuous_update=continuous_update,
            readout_format=".2f",
        )

    controls = {
        "mu_a": slider(mu_a, 0.0, 3.0, 0.05, "A: mean"),
        "sd_a": slider(sd_a, 0.8, 1.2, 0.05, "A: spread"),
        "mu_b": slider(mu_b, 0.0, 3.0, 0.05, "B: mean"),
        "sd_b": slider(sd_b, 0.8, 1.2, 0.05, "B: spread"),
        "pi_pos": slider(pi_pos, 0.05, 0.95, 0.05, "π₀ (pos.)"),
    }
    table = w.HTML()
    plot = w.Output()

    def models():
        v = {k: s.value for k, s in controls.items()}
        return (
            Binormal(mu_pos=v["mu_a"], sd_pos=v["sd_a"], pi_pos=v["pi_pos"]),
            Binormal(mu_pos=v["mu_b"], sd_pos=v["sd_b"], pi_pos=v["pi_pos"]),
        )

    def update(_=None):
        a, b = models()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", integrate.IntegrationWarning)
            r = incoherence_comparison(a, b, n_grid=n_grid)
        notes = []
        for name, m in (("A", a), ("B", b)):
            if m.mu_pos == m.mu_neg and m.sd_pos == m.sd_neg:
                notes.append(
                    f"{name} is a random classifier: every threshold implies the same cost "
                    f"c = π₁ = {m.pi_neg:.2f}, a point mass with no density to draw."
                )
        if any(issubclass(x.category, integrate.IntegrationWarning) for x in caught):
            notes.append(
                "scipy's quadrature could not reach its very tight tolerance (1e-14) here, "
                "usually while normalising an implied cost density; the result is typically "
                "still good to ~1e-9, far below what the plot can show."
            )
        table.value = r.table.to_html(float_format=lambda x: f"{x:.4f}") + "".join(f"<p><i>{n}</i></p>" for n in notes)
        plot.clear_output(wait=True)
        with plot:
            _fig, axes = plt.subplots(1, 2, figsize=(12, 4))
            plot_incoherence_comparison(r, a, b, axes)
            plt.show()

    for s in controls.values():
        s.observe(update, names="value")
    update()
    box = w.VBox(
        [
            w.HBox(
                [
                    w.VBox([controls["mu_a"], controls["sd_a"]]),
                    w.VBox([controls["mu_b"], controls["sd_b"]]),
                    controls["pi_pos"],
                ]
            ),
            table,
            plot,
        ]
    )
    return IncoherenceExplorerParts(box, controls, table, plot)
