"""The population values of one fold model of the binormal learner, and of mixtures of fold models.

Introduced in notebook 11. A fold model of :mod:`apples.theory.cv_learner` with separation δ scores a
positive's posterior logit ℓ ~ N(λ + a²/2, a²) and a negative's N(λ − a²/2, a²), a = |δ|, λ the
training log-odds; it predicts the label of largest posterior. Each function here gives, for an
array of separations, what a fold's measure tends to on an infinitely large test set: the
confusion rates (as logarithms, so that a model that almost never predicts a label keeps its
digits), ROC AUC, average precision, the H-measure, log loss and Brier score, label averages
(Van Asch 2013 §3) and the whole-table measures of a multi-class confusion matrix; and the ranking
measures of a mixture of fold models (the merged scores of Forman & Scholz 2010 §3.2).

Quadrature: over a normal score Gauss–Hermite; over the H-measure's Beta(2, 1 + 1/r) prior on the
cost Gauss–Jacobi; a multi-class confusion probability is a log-concave integral, by Gauss–Legendre
around its mode; over the law of a (:func:`separation_rule`) composite Gauss–Legendre on the folded
normal density, geometric near a = 0 where the rates vary like exp(−λ²/2a²).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from typing import Literal

import numpy as np
import pandas as pd
from scipy import special

from apples._params import Real, declare
from apples.theory.cv_learner import POS_WEIGHT, PRIOR, PRIOR_OF_TASK, TASK, evaluated_prior

__all__ = [
    "fold_model_values",
]

#: Composite Gauss–Legendre over the separation: panels, nodes per panel, half-width in τ.
_PANELS, _ORDER, _SPAN = 24, 12, 10.0
#: Gauss–Hermite nodes over a normal score; Gauss–Jacobi nodes over the H-measure's cost; Gauss–Legendre nodes of
#: the multi-class integrals around their mode (half-width _MODE_SPAN).
_HERMITE, _JACOBI, _MODE_NODES, _MODE_SPAN = 96, 160, 64, 12.0
AVERAGES = ("macro", "micro", "lfb_test")
LABEL_MEASURES = ("precision", "recall", "f_of_averages", "mean_f")


# -- quadrature rules ------------------------------------------------------------------------------------------
def separation_rule(delta0: float, tau: float, panels: int = _PANELS, order: int = _ORDER) -> tuple[np.ndarray, ...]:
    """Nodes a and weights of E over a = |δ|, δ ~ N(δ₀, τ²): composite Gauss–Legendre on the folded density."""
    if tau == 0.0:
        return np.array([abs(delta0)]), np.array([1.0])
    lo, hi = max(0.0, delta0 - _SPAN * tau), delta0 + _SPAN * tau
    x, w = np.polynomial.legendre.leggauss(order)
    edges = np.linspace(lo, hi, panels + 1)
    if lo == 0.0:  # near a = 0 the rates vary like exp(−λ²/2a²): geometric panels resolve it
        edges = np.unique(np.r_[0.0, edges[1] * np.geomspace(1e-3, 1.0, 8)[:-1], edges[1:]])
    mid, half = (edges[:-1] + edges[1:]) / 2.0, (edges[1:] - edges[:-1]) / 2.0
    a = (mid[:, None] + half[:, None] * x).ravel()
    density = (np.exp(-0.5 * ((a - delta0) / tau) ** 2) + np.exp(-0.5 * ((a + delta0) / tau) ** 2)) / (
        tau * math.sqrt(2.0 * math.pi)
    )
    return a, (half[:, None] * w).ravel() * density


@cache
def _hermite(n: int) -> tuple[np.ndarray, np.ndarray]:
    x, w = np.polynomial.hermite_e.hermegauss(n)
    return x, w / w.sum()


@cache
def _jacobi(n: int, alpha: float, beta: float) -> tuple[np.ndarray, np.ndarray]:
    """Nodes c in (0, 1) and weights of E over c ~ Beta(alpha, beta)."""
    x, w = special.roots_jacobi(n, beta - 1.0, alpha - 1.0)
    return (1.0 + x) / 2.0, w / w.sum()


# -- one fold model (a: array of separations) -----------------------------------------------------------------
def lse(x: np.ndarray, log_w: np.ndarray, axis: int = 0) -> np.ndarray:
    """log Σ_i w_i e^{x_i} over the fold models (along ``axis``), from logs: the pooled share of a rate."""
    shape = [1] * x.ndim
    shape[axis] = -1
    return np.asarray(special.logsumexp(x + log_w.reshape(shape), axis=axis))


def _log_difference(log_big: np.ndarray, log_small: np.ndarray) -> np.ndarray:
    """log(e^big − e^small), big >= small, without cancellation."""
    with np.errstate(divide="ignore"):
        return log_big + np.log(-np.expm1(np.minimum(log_small - log_big, 0.0)))


class Rates:
    """The population rates of binary predictions, as logarithms: TPR, FPR, FNR, TNR and TPR − FPR, and the
    weighted positives' share π'. Every measure is written without a difference of near-equal numbers, so a model
    that almost never (or almost always) predicts positive keeps its digits (no 0/0 where a share underflows)."""

    def __init__(self, tpr: np.ndarray, fpr: np.ndarray, fnr: np.ndarray, tnr: np.ndarray, diff: np.ndarray,
                 pe: float) -> None:  # fmt: skip
        self.tpr, self.fpr, self.fnr, self.tnr, self.diff, self.pe = tpr, fpr, fnr, tnr, diff, pe

    @classmethod
    def of_model(cls, a: np.ndarray, lam: float, pe: float) -> Rates:
        """The Bayes rule ℓ > 0 of a model of separation a: TPR = Φ(a/2 + λ/a), FPR = Φ(λ/a − a/2)."""
        up, down = a / 2.0 + lam / a, lam / a - a / 2.0
        tpr, fpr, fnr, tnr = (
            special.log_ndtr(up),
            special.log_ndtr(down),
            special.log_ndtr(-up),
            special.log_ndtr(-down),
        )
        # TPR − FPR = TNR − FNR: from the smaller pair
        diff = np.where(tpr < math.log(0.5), _log_difference(tpr, fpr), _log_difference(tnr, fnr))
        return cls(tpr, fpr, fnr, tnr, diff, pe)

    def mean(self, w: np.ndarray, axis: int = 0) -> Rates:
        """The rates pooled over fold models (weights w along ``axis``)."""
        with np.errstate(divide="ignore"):
            log_w = np.log(w)
        tpr, fpr, fnr, tnr, diff = (lse(v, log_w, axis) for v in (self.tpr, self.fpr, self.fnr, self.tnr, self.diff))
        return Rates(tpr, fpr, fnr, tnr, diff, self.pe)

    def counts(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """log TP, log FP, log FN: shares of the weighted population."""
        pe = self.pe
        return math.log(pe) + self.tpr, math.log1p(-pe) + self.fpr, math.log(pe) + self.fnr

    def measures(self) -> dict[str, np.ndarray]:
        pe, e = self.pe, np.exp
        log_q = np.logaddexp(math.log(pe) + self.tpr, math.log1p(-pe) + self.fpr)  # predicted positive
        log_qbar = np.logaddexp(math.log(pe) + self.fnr, math.log1p(-pe) + self.tnr)
        return {
            "f_measure": 2.0 * pe * e(self.tpr) / (pe + e(log_q)),
            "precision": special.expit(math.log(pe) - math.log1p(-pe) + self.tpr - self.fpr),
            "recall": e(self.tpr),
            "accuracy": pe * e(self.tpr) + (1.0 - pe) * e(self.tnr),
            "balanced_accuracy": (1.0 + e(self.diff)) / 2.0,
            # tp·tn − fp·fn = π'(1 − π')(TPR − FPR)
            "mcc": math.sqrt(pe * (1.0 - pe)) * e(self.diff - (log_q + log_qbar) / 2.0),
            "cohen_kappa": 2.0 * pe * (1.0 - pe) * e(self.diff) / (e(log_q) * (1.0 - pe) + pe * e(log_qbar)),
        }


def scoring(a: np.ndarray, lam: float, pe: float) -> dict[str, np.ndarray]:
    """Expected log loss and Brier score of the calibrated posterior σ(ℓ), over the weighted population."""
    x, w = _hermite(_HERMITE)
    mean = a[:, None] ** 2 / 2.0
    pos, neg = lam + mean + a[:, None] * x, lam - mean + a[:, None] * x
    return {
        "log_loss": pe * (np.logaddexp(0.0, -pos) @ w) + (1.0 - pe) * (np.logaddexp(0.0, neg) @ w),
        "brier_score": pe * (special.expit(-pos) ** 2 @ w) + (1.0 - pe) * (special.expit(neg) ** 2 @ w),
    }


def model_auc(a: np.ndarray) -> np.ndarray:
    """ROC AUC of a fold model: Φ(a/√2)."""
    return np.asarray(special.ndtr(a / math.sqrt(2.0)))


def pair_auc(a1: np.ndarray, a2: np.ndarray) -> np.ndarray:
    """P(a positive scored by one model outranks a negative scored by another): Φ(√(a₁² + a₂²)/2), since the
    difference of their posterior logits is N((a₁² + a₂²)/2, a₁² + a₂²) (λ cancels)."""
    return np.asarray(special.ndtr(np.sqrt(a1**2 + a2**2) / 2.0))


def model_ap(a: np.ndarray, pe: float) -> np.ndarray:
    """Average precision of a fold model: E over a positive's score s = a + x of the precision there,
    π'Q(x) / (π'Q(x) + (1 − π')Q(a + x)) (TPR and FPR at s), by Gauss–Hermite over x."""
    x, wx = _hermite(_HERMITE)
    odds = math.log(pe) - math.log1p(-pe)
    return np.asarray(special.expit(odds + special.log_ndtr(-x) - special.log_ndtr(-(a[..., None] + x))) @ wx)


def mixture_ap(a: np.ndarray, w: np.ndarray, pe: float) -> np.ndarray:
    """Average precision of mixtures of fold models (components on the last axis of ``a``, weights ``w`` summing to
    1): E over a positive (from component i, logit λ + a_i²/2 + a_i·x) of the mixture's precision at its logit."""
    x, wx = _hermite(_HERMITE)
    odds = math.log(pe) - math.log1p(-pe)
    t = (a**2 / 2.0)[..., None] + a[..., None] * x  # (.., i, x): a positive's logit, from λ
    z = t[..., None] / a[..., None, None, :]  # (.., i, x, j)
    aj, wj = a[..., None, None, :], w[..., None, None, :]
    tpr, fpr = (special.ndtr(aj / 2.0 - z) * wj).sum(-1), (special.ndtr(-aj / 2.0 - z) * wj).sum(-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        prec = pe * tpr / (pe * tpr + (1.0 - pe) * fpr)
    tiny = (tpr < 1e-290) | (fpr < 1e-290)  # far tails: the same in logarithms
    if tiny.any():
        with np.errstate(divide="ignore"):
            log_w = np.broadcast_to(np.log(wj), z.shape)[tiny]
        zz, aa = z[tiny], np.broadcast_to(aj, z.shape)[tiny]
        log_tpr = special.logsumexp(log_w + special.log_ndtr(aa / 2.0 - zz), axis=-1)
        log_fpr = special.logsumexp(log_w + special.log_ndtr(-aa / 2.0 - zz), axis=-1)
        prec[tiny] = special.expit(odds + log_tpr - log_fpr)
    return np.asarray(((prec @ wx) * w).sum(-1))


def h_losses(a: np.ndarray, pe: float) -> tuple[np.ndarray, float]:
    """L of each fold model under the Beta(2, 1 + 1/r) prior on the cost c of a false positive (Hand 2009 §6; Hand's
    R package's c, as :func:`apples.h_measure`), r = π'/(1 − π'), and L_max.

    At cost c the optimal threshold of a calibrated model is ℓ* = λ + u, u = log(c(1 − π')/((1 − c)π')), the same for
    every fold model and for their mixture.
    """
    alpha, beta = 2.0, 1.0 + (1.0 - pe) / pe
    c, wc = _jacobi(_JACOBI, alpha, beta)
    u = np.log(c) - np.log1p(-c) + math.log1p(-pe) - math.log(pe)
    fpr = special.ndtr(-(u / a[:, None] + a[:, None] / 2.0))
    fnr = special.ndtr(u / a[:, None] - a[:, None] / 2.0)
    loss = (c * (1.0 - pe) * fpr + (1.0 - c) * pe * fnr) @ wc
    max_loss = (1.0 - pe) * alpha / (alpha + beta) * special.betainc(alpha + 1.0, beta, pe) + pe * beta / (
        alpha + beta
    ) * (1.0 - special.betainc(alpha, beta + 1.0, pe))
    return loss, float(max_loss)


# -- label averages (Van Asch §3) of per-label shares given as logs, labels on the last axis ------------------------
def label_averages(log_tp: np.ndarray, log_fp: np.ndarray, log_fn: np.ndarray) -> dict[tuple, np.ndarray]:
    """Macro, micro and lfb (test frequencies) precision, recall, F of the averages and mean of per-label F."""
    out: dict[tuple, np.ndarray] = {}
    tp, fp, fn = np.exp(log_tp), np.exp(log_fp), np.exp(log_fn)
    precision, recall = special.expit(log_tp - log_fp), special.expit(log_tp - log_fn)
    f = 2.0 * tp / (2.0 * tp + fp + fn)
    support = (tp + fn) / (tp + fn).sum(axis=-1, keepdims=True)
    for average, weights in (("macro", np.full(tp.shape[-1], 1.0 / tp.shape[-1])), ("lfb_test", support)):
        p, r = (precision * weights).sum(axis=-1), (recall * weights).sum(axis=-1)
        out.update(
            {
                ("precision", average): p,
                ("recall", average): r,
                ("f_of_averages", average): 2.0 * p * r / (p + r),
                ("mean_f", average): (f * weights).sum(axis=-1),
            }
        )
    t, pp, n = (special.logsumexp(v, axis=-1) for v in (log_tp, log_fp, log_fn))
    micro_f = 2.0 * np.exp(t) / (2.0 * np.exp(t) + np.exp(pp) + np.exp(n))
    out.update(
        {
            ("precision", "micro"): special.expit(t - pp),
            ("recall", "micro"): special.expit(t - n),
            ("f_of_averages", "micro"): micro_f,
            ("mean_f", "micro"): micro_f,
        }
    )
    return out


def _mode_integral_log(b: np.ndarray) -> np.ndarray:
    """log ∫ φ(x) Π_l Φ(x + b_l) dx over the last axis of b (−inf terms: a factor 1), exactly in logs.

    The integrand is log-concave with curvature at most −1, so Gauss–Legendre over ±12 around its mode (found by
    bisection on the decreasing derivative) holds all of it."""

    def slope(x: np.ndarray) -> np.ndarray:
        y = x[..., None] + b
        mills = np.exp(-0.5 * y**2 - 0.5 * math.log(2.0 * math.pi) - special.log_ndtr(y))
        return -x + np.where(np.isfinite(b), mills, 0.0).sum(axis=-1)

    lo, hi = np.full(b.shape[:-1], -2e6), np.full(b.shape[:-1], 2e6)  # |b| <= 1e6: the mode lies within
    for _ in range(96):
        mid = (lo + hi) / 2.0
        up = slope(mid) > 0
        lo, hi = np.where(up, mid, lo), np.where(up, hi, mid)
    t, wt = np.polynomial.legendre.leggauss(_MODE_NODES)
    x = (lo + hi)[..., None] / 2.0 + _MODE_SPAN * t
    terms = -0.5 * x**2 - 0.5 * math.log(2.0 * math.pi) + special.log_ndtr(x[..., None] + b[..., None, :]).sum(-1)
    return special.logsumexp(terms + np.log(_MODE_SPAN * wt), axis=-1)


def joint_measures(log_joint: np.ndarray, pi: np.ndarray) -> dict[tuple, np.ndarray]:
    """Every count measure of joint shares (.., true c, predicted j) given as logs, labels averaged or whole.

    MCC (Gorodkin 2004) and kappa need Σ_k C_kk − Σ_k p_k π_k, a difference of near-equal numbers when one label m
    takes nearly every prediction; it equals Σ_{j≠m} (C_jj − C_mj + (π_m − π_j) p_j), a sum of the small shares,
    which is computed instead (relative to e = 1 − p_m, so that it survives e underflowing)."""
    kk = pi.size
    off = ~np.eye(kk, dtype=bool)
    diag = np.diagonal(log_joint, axis1=-2, axis2=-1)
    masked = np.where(off, log_joint, -np.inf)
    log_fp, log_fn = special.logsumexp(masked, axis=-2), special.logsumexp(masked, axis=-1)
    out = label_averages(diag, log_fp, log_fn)
    log_pred = special.logsumexp(log_joint, axis=-2)  # (.., j)
    m = np.argmax(log_pred, axis=-1)
    others = np.arange(kk) != m[..., None]
    log_e = special.logsumexp(np.where(others, log_pred, -np.inf), axis=-1)
    joint_m = np.take_along_axis(log_joint, m[..., None, None], axis=-2)[..., 0, :]  # C_mj
    pi_m = pi[m]

    def over_e(x: np.ndarray) -> np.ndarray:  # the shares of the labels other than m, divided by e
        return np.exp(np.where(others, x - log_e[..., None], -np.inf))

    n_over_e = (over_e(diag) - over_e(joint_m) + (pi_m[..., None] - pi) * over_e(log_pred)).sum(axis=-1)
    pred = np.exp(log_pred)
    p_m = np.take_along_axis(pred, m[..., None], axis=-1)[..., 0]
    spread_over_e = p_m + (over_e(log_pred) * (1.0 - pred)).sum(axis=-1)
    e = np.exp(log_e)
    tp = np.exp(diag)
    out[("accuracy", "")] = tp.sum(axis=-1)
    out[("balanced_accuracy", "")] = (tp / pi).mean(axis=-1)
    out[("mcc", "")] = n_over_e * np.exp(log_e / 2.0) / np.sqrt(spread_over_e * (1.0 - pi @ pi))
    out[("cohen_kappa", "")] = n_over_e * e / (1.0 - pred @ pi)
    return out


def multiclass_log_joint(a: np.ndarray, pi: np.ndarray) -> np.ndarray:
    """log of the share of cases of true class c predicted j, for fold models of separations a: (len(a), K, K).

    The model predicts j where a·s_j + log π_j is largest; given z_j = x that is z_l < a·[j=c] + x − a·[l=c] +
    (log π_j − log π_l)/a for every l ≠ j, so P(j | c) = ∫ φ(x) Π_{l≠j} Φ(x + b_l) dx."""
    log_pi = np.log(pi)
    eye = np.eye(pi.size)
    mu = a[:, None, None, None] * (eye[None, :, :, None] - eye[None, :, None, :])  # (a, c, j, l)
    b = np.clip(mu + (log_pi[:, None] - log_pi[None, :])[None, None] / a[:, None, None, None], -1e6, 1e6)
    log_p = _mode_integral_log(np.where(eye.astype(bool)[None, None], np.inf, b))  # l = j: no condition
    return np.asarray(log_pi[None, :, None] + log_p)


def binary_lambda(prior: float) -> float:
    """λ, the training log-odds of the positives."""
    return math.log(prior) - math.log1p(-prior)


def label_rates(a: np.ndarray, prior: Sequence[float]) -> list[Rates]:
    """Multi-label: each label a binary task of its own prior, scored by the fold model (unweighted)."""
    return [Rates.of_model(a, binary_lambda(p), p) for p in prior]


def model_values(
    task: str, a: np.ndarray, prior: float | tuple[float, ...], pos_weight: float
) -> dict[tuple, np.ndarray]:
    """Every measure of the task's report for fold models of separations a (arrays over a), keyed (quantity, average).

    The H-measure uses the report's default severity ratio, r = π'/(1 − π')."""
    if task == "binary":
        assert isinstance(prior, float)
        lam, pe = binary_lambda(prior), evaluated_prior(prior, pos_weight)
        values = Rates.of_model(a, lam, pe).measures()
        values.update(scoring(a, lam, pe))
        loss, max_loss = h_losses(a, pe)
        values.update(roc_auc=model_auc(a), average_precision=model_ap(a, pe), h_measure=1.0 - loss / max_loss)
        return {(q, ""): v for q, v in values.items()}
    assert isinstance(prior, tuple)
    if task == "multiclass":
        out = joint_measures(multiclass_log_joint(a, np.array(prior)), np.array(prior))
    else:
        rates = label_rates(a, prior)
        out = label_averages(*(np.stack(v, axis=-1) for v in zip(*(r.counts() for r in rates), strict=True)))
        accuracy = np.stack([r.measures()["accuracy"] for r in rates], axis=-1)
        out[("subset_accuracy", "")] = np.prod(accuracy, axis=-1)
        out[("hamming_loss", "")] = 1.0 - accuracy.mean(axis=-1)
    out[("roc_auc", "macro_ovr")] = model_auc(a)
    return out


@declare(separation=Real(-40.0, 40.0), task=TASK, prior=PRIOR, pos_weight=POS_WEIGHT, relations=[PRIOR_OF_TASK])
def fold_model_values(
    separation: float,
    *,
    task: Literal["binary", "multiclass", "multilabel"] = "binary",
    prior: float | Sequence[float] = 0.5,
    pos_weight: float = 1.0,
) -> pd.DataFrame:
    """Every measure of one fold model of separation δ on its population: the value a fold's measure tends to.

    Parameters
    ----------
    separation : float
        δ, between −40 and 40 (its sign does not matter: the model's posterior knows it). A model whose
        separation is below 10⁻³ in absolute value is taken at 10⁻³ (at δ = 0 it predicts one class and its
        precision is 0/0).
    task : {"binary", "multiclass", "multilabel"}, default "binary"
    prior : float or sequence of float, default 0.5
        As for :func:`apples.theory.simulate_learner_cv`.
    pos_weight : float, default 1.0
        Binary: the weight of each positive (the values of the reweighted population).

    Returns
    -------
    pandas.DataFrame
        Columns ``quantity``, ``average``, ``value``: the measures of the task's report (multi-class and
        multi-label: label averages ``macro``, ``micro`` and ``lfb_test``).

    Examples
    --------
    >>> from apples.theory import fold_model_values
    >>> v = fold_model_values(1.5, prior=0.5).set_index("quantity")["value"]
    >>> round(float(v["recall"]), 6), round(float(v["roc_auc"]), 6)   # Φ(δ/2) and Φ(δ/√2)
    (0.773373, 0.855578)
    """
    a = np.array([max(abs(separation), 1e-3)])
    pi: float | tuple[float, ...] = prior if isinstance(prior, float) else tuple(prior)
    return pd.DataFrame(
        [
            {"quantity": q, "average": avg, "value": float(v[0])}
            for (q, avg), v in model_values(task, a, pi, pos_weight).items()
        ]
    )
