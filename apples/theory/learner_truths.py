"""The truth every cross-validated value of the report targets, for the binormal learner, by exact quadrature.

Introduced in notebook 10 (the coverage of the report's intervals). The learner is
:mod:`apples.theory.cv_learner`'s: a fold model of separation δ, δ ~ N(δ₀, τ²) over training sets,
with posterior logit ℓ ~ N(λ + a²/2, a²) for a positive and N(λ − a²/2, a²) for a negative,
a = |δ|, λ the training log-odds. Class weights (each positive weighing w) reweight the evaluated
population: its positives' share is π' = wπ/(wπ + 1 − π), the rates and scores are unchanged.

What each aggregation of :func:`apples.report` targets (the value its estimator converges to as the
folds grow, k and τ fixed):

==========  ====================================================================================
``avg``     E_a[m(a)]: the expected population value of one fold model (Nadeau & Bengio's
            generalisation error of the algorithm at this training size). ``avg_skip`` alike.
``pooled``  m of the expected population confusion rates E_a[TP], E_a[FP], E_a[FN], E_a[TN]
            (F_tp,fp; pooled precision, MCC, ...; label averages of the expected per-label rates).
            The log loss and Brier score are means over cases: pooled = avg.
``pr_re``   F of E_a[precision] and E_a[recall] (F_pr,re of Forman & Scholz §2.3).
``merge``   The ranking measure of the mixture of the fold models' score distributions,
            F±_mix = E_a[F±_a] (AUC_merge, Forman & Scholz §3.2): pairs of cases scored by two
            independent fold models. A study of k fold models also ranks pairs of one model
            (a share 1/k of its pairs) and its models are correlated (ρ): the merged value of a
            finite study targets E over its k models, which differs from this by less than
            10⁻³ at τ = 0.5 (AUC, computed in the tests); with τ = 0 they coincide.
==========  ====================================================================================

Each fold model is calibrated, so the mixture is too: its likelihood ratio is e^{ℓ−λ} like every
component's. Its ROC curve is therefore concave and at every cost the optimal threshold is the one
every fold model has, so the merged H-measure equals the average H exactly (the merged AUC and AP
do not: they compare cases of different models). With τ = 0 all aggregations of a measure coincide.

Quadrature. E over a: composite Gauss–Legendre on the folded normal density of a = |δ| over
δ₀ ± 10τ (clipped at 0); over a normal score: Gauss–Hermite; over the H-measure's Beta(2, 1 + 1/r)
prior on the cost: Gauss–Jacobi (r = π'/(1 − π'), the report's default severity ratio); multi-class
confusion probabilities: a log-concave integral, by Gauss–Legendre around its mode. Shares that
underflow float64 (a label a weak model almost never predicts) are carried as logarithms, so no
0/0 arises. The tests check every truth against Monte Carlo and scikit-learn on large samples.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, Literal

import numpy as np
import pandas as pd
from scipy import special

from apples._params import Real, declare
from apples.theory.cv_learner import DELTA0, POS_WEIGHT, PRIOR, PRIOR_OF_TASK, TASK, TRAINING_SD, evaluated_prior

__all__ = [
    "fold_model_values",
    "learner_truths",
]

#: Composite Gauss–Legendre over the separation: panels, nodes per panel, half-width in τ.
_PANELS, _ORDER, _SPAN = 24, 12, 10.0
#: Gauss–Hermite nodes over a normal score; Gauss–Jacobi nodes over the H-measure's cost; Gauss–Legendre nodes of
#: the multi-class integrals around their mode (half-width _MODE_SPAN).
_HERMITE, _JACOBI, _MODE_NODES, _MODE_SPAN = 96, 160, 64, 12.0
_AVERAGES = ("macro", "micro", "lfb_test")
_LABEL_MEASURES = ("precision", "recall", "f_of_averages", "mean_f")

#: The rows of the report per task: (quantity, average, aggregation key, aggregation kind).
_BINARY_ROWS: tuple[tuple[str, str, str, str], ...] = (
    ("f_measure", "", "tp_fp", "pooled"),
    ("f_measure", "", "avg", "avg"),
    ("f_measure", "", "pr_re", "pr_re"),
    ("f_measure", "", "avg_skip", "avg"),
    ("f_measure", "", "pr_re_skip", "pr_re"),
    *((q, "", agg, agg) for q in ("precision", "recall", "accuracy") for agg in ("pooled", "avg")),
    *((q, "", agg, agg) for q in ("balanced_accuracy", "mcc", "cohen_kappa") for agg in ("pooled", "avg")),
    *((q, "", agg, agg) for q in ("roc_auc", "average_precision", "h_measure") for agg in ("avg", "merge")),
    *((q, "", agg, agg) for q in ("log_loss", "brier_score") for agg in ("pooled", "avg")),
)
_LABEL_ROWS = tuple((q, a, agg, agg) for q in _LABEL_MEASURES for a in _AVERAGES for agg in ("pooled", "avg"))
_MULTICLASS_ROWS = (
    *_LABEL_ROWS,
    *((q, "", agg, agg) for q in ("accuracy", "balanced_accuracy", "mcc", "cohen_kappa") for agg in ("pooled", "avg")),
    *(("roc_auc", "macro_ovr", agg, agg) for agg in ("avg", "merge")),
)
_MULTILABEL_ROWS = (
    *_LABEL_ROWS,
    *((q, "", agg, agg) for q in ("subset_accuracy", "hamming_loss") for agg in ("pooled", "avg")),
    *(("roc_auc", "macro_ovr", agg, agg) for agg in ("avg", "merge")),
)
ROWS = {"binary": _BINARY_ROWS, "multiclass": _MULTICLASS_ROWS, "multilabel": _MULTILABEL_ROWS}


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
def _lse(x: np.ndarray, log_w: np.ndarray) -> np.ndarray:
    """log Σ_i w_i e^{x_i} over the fold models (the first axis), from logs: the pooled share of a rate."""
    return np.asarray(special.logsumexp(x + log_w.reshape((-1,) + (1,) * (x.ndim - 1)), axis=0))


def _log_difference(log_big: np.ndarray, log_small: np.ndarray) -> np.ndarray:
    """log(e^big − e^small), big >= small, without cancellation."""
    with np.errstate(divide="ignore"):
        return log_big + np.log(-np.expm1(np.minimum(log_small - log_big, 0.0)))


class _Rates:
    """The population rates of binary predictions, as logarithms: TPR, FPR, FNR, TNR and TPR − FPR, and the
    weighted positives' share π'. Every measure is written without a difference of near-equal numbers, so a model
    that almost never (or almost always) predicts positive keeps its digits (no 0/0 where a share underflows)."""

    def __init__(self, tpr: np.ndarray, fpr: np.ndarray, fnr: np.ndarray, tnr: np.ndarray, diff: np.ndarray,
                 pe: float) -> None:  # fmt: skip
        self.tpr, self.fpr, self.fnr, self.tnr, self.diff, self.pe = tpr, fpr, fnr, tnr, diff, pe

    @classmethod
    def of_model(cls, a: np.ndarray, lam: float, pe: float) -> _Rates:
        """The Bayes rule ℓ > 0 of a model of separation a: TPR = Φ(a/2 + λ/a), FPR = Φ(λ/a − a/2)."""
        up, down = a / 2.0 + lam / a, lam / a - a / 2.0
        tpr, fpr, fnr, tnr = special.log_ndtr(up), special.log_ndtr(down), special.log_ndtr(-up), special.log_ndtr(-down)
        # TPR − FPR = TNR − FNR: from the smaller pair
        diff = np.where(tpr < math.log(0.5), _log_difference(tpr, fpr), _log_difference(tnr, fnr))
        return cls(tpr, fpr, fnr, tnr, diff, pe)

    def mean(self, w: np.ndarray) -> _Rates:
        """The rates pooled over fold models (weights w over the first axis)."""
        with np.errstate(divide="ignore"):
            log_w = np.log(w)
        r = (_lse(v, log_w) for v in (self.tpr, self.fpr, self.fnr, self.tnr, self.diff))
        return _Rates(*r, pe=self.pe)

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


def _scoring(a: np.ndarray, lam: float, pe: float) -> dict[str, np.ndarray]:
    """Expected log loss and Brier score of the calibrated posterior σ(ℓ), over the weighted population."""
    x, w = _hermite(_HERMITE)
    mean = a[:, None] ** 2 / 2.0
    pos, neg = lam + mean + a[:, None] * x, lam - mean + a[:, None] * x
    return {
        "log_loss": pe * (np.logaddexp(0.0, -pos) @ w) + (1.0 - pe) * (np.logaddexp(0.0, neg) @ w),
        "brier_score": pe * (special.expit(-pos) ** 2 @ w) + (1.0 - pe) * (special.expit(neg) ** 2 @ w),
    }


def _auc(a: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, float]:
    """AUC of each fold model, Φ(a/√2), and of the mixture, E[Φ(√(a₁² + a₂²)/2)] over two independent models
    (the difference of the posterior logits of a positive and a negative is N((a₁² + a₂²)/2, a₁² + a₂²))."""
    pair = special.ndtr(np.sqrt(a[:, None] ** 2 + a[None, :] ** 2) / 2.0)
    return special.ndtr(a / math.sqrt(2.0)), float(weights @ pair @ weights)


def _tails_mix(t: np.ndarray, a: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Σ_j w_j P(ℓ_j > t) of the mixture's positives and negatives, ℓ_j ~ N(λ ± a_j²/2, a_j²), t measured from λ."""
    z = t[..., None] / a
    return special.ndtr(a / 2.0 - z) @ w, special.ndtr(-a / 2.0 - z) @ w


def _average_precision(a: np.ndarray, weights: np.ndarray, pe: float) -> tuple[np.ndarray, float]:
    """AP of each fold model, E over a positive's score of the precision there, and of the mixture."""
    x, wx = _hermite(_HERMITE)
    odds = math.log(pe) - math.log1p(-pe)
    # one model: a positive at s = a + x has TPR Q(x), FPR Q(a + x)
    single = special.expit(odds + special.log_ndtr(-x) - special.log_ndtr(-(a[:, None] + x))) @ wx
    t = a[:, None] ** 2 / 2.0 + a[:, None] * x  # a positive's logit under model i, from λ
    tpr, fpr = _tails_mix(t, a, weights)
    with np.errstate(divide="ignore", invalid="ignore"):
        prec = pe * tpr / (pe * tpr + (1.0 - pe) * fpr)
    tiny = (tpr < 1e-290) | (fpr < 1e-290)  # far tails: the same in logarithms
    if tiny.any():
        with np.errstate(divide="ignore"):
            log_w = np.log(weights)
        tt, keep = t[tiny], weights > 0
        log_tpr = special.logsumexp(log_w[keep] + special.log_ndtr(a[keep] / 2.0 - tt[:, None] / a[keep]), axis=-1)
        log_fpr = special.logsumexp(log_w[keep] + special.log_ndtr(-a[keep] / 2.0 - tt[:, None] / a[keep]), axis=-1)
        prec[tiny] = special.expit(odds + log_tpr - log_fpr)
    return single, float(weights @ (prec @ wx))


def _h_losses(a: np.ndarray, pe: float) -> tuple[np.ndarray, float]:
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


def _binary(a: np.ndarray, w: np.ndarray, prior: float, pos_weight: float) -> dict[str, dict[str, Any]]:
    """Per fold model (arrays over a) and per aggregation kind, every binary measure: {kind: {quantity: value}}."""
    lam = math.log(prior) - math.log1p(-prior)
    pe = evaluated_prior(prior, pos_weight)
    rates = _Rates.of_model(a, lam, pe)
    model = rates.measures()
    model.update(_scoring(a, lam, pe))
    auc, auc_mix = _auc(a, w)
    ap, ap_mix = _average_precision(a, w, pe)
    loss, max_loss = _h_losses(a, pe)
    model.update(roc_auc=auc, average_precision=ap, h_measure=1.0 - loss / max_loss)
    pooled = {q: float(v) for q, v in rates.mean(w).measures().items()}
    pooled.update({q: float(model[q] @ w) for q in ("log_loss", "brier_score")})
    p, r = float(model["precision"] @ w), float(model["recall"] @ w)
    merge = {"roc_auc": auc_mix, "average_precision": ap_mix, "h_measure": 1.0 - float(loss @ w) / max_loss}
    return {"model": model, "pooled": pooled, "pr_re": {"f_measure": 2.0 * p * r / (p + r)}, "merge": merge}


# -- label averages (Van Asch §3) of per-label shares given as logs, labels on the last axis ------------------------
def _label_averages(log_tp: np.ndarray, log_fp: np.ndarray, log_fn: np.ndarray) -> dict[tuple, np.ndarray]:
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


def _multiclass(a: np.ndarray, w: np.ndarray, prior: tuple[float, ...]) -> dict[str, dict[Any, Any]]:
    """Every multi-class measure per fold model and per aggregation kind (keys (quantity, average))."""
    pi = np.array(prior)
    log_pi = np.log(pi)
    eye = np.eye(pi.size)
    # pred = j given class c: z_l < a·[j=c] + x − a·[l=c] + (log π_j − log π_l)/a for every l ≠ j, x = z_j
    mu = a[:, None, None, None] * (eye[None, :, :, None] - eye[None, :, None, :])  # (a, c, j, l)
    b = np.clip(mu + (log_pi[:, None] - log_pi[None, :])[None, None] / a[:, None, None, None], -1e6, 1e6)
    log_p = _mode_integral_log(np.where(eye.astype(bool)[None, None], np.inf, b))  # l = j: no condition
    log_joint = log_pi[None, :, None] + log_p  # log of the share (true c, predicted j): (a, c, j)
    model = _joint_measures(log_joint, pi)
    auc, auc_mix = _auc(a, w)
    model[("roc_auc", "macro_ovr")] = auc
    with np.errstate(divide="ignore"):
        pooled_joint = _lse(log_joint, np.log(w))[None]
    pooled = {k: float(v[0]) for k, v in _joint_measures(pooled_joint, pi).items()}
    return {"model": model, "pooled": pooled, "merge": {("roc_auc", "macro_ovr"): auc_mix}}


def _joint_measures(log_joint: np.ndarray, pi: np.ndarray) -> dict[tuple, np.ndarray]:
    """Every count measure of joint shares (.., true c, predicted j) given as logs, labels averaged or whole.

    MCC (Gorodkin 2004) and kappa need Σ_k C_kk − Σ_k p_k π_k, a difference of near-equal numbers when one label m
    takes nearly every prediction; it equals Σ_{j≠m} (C_jj − C_mj + (π_m − π_j) p_j), a sum of the small shares,
    which is computed instead (relative to e = 1 − p_m, so that it survives e underflowing)."""
    kk = pi.size
    off = ~np.eye(kk, dtype=bool)
    diag = np.diagonal(log_joint, axis1=-2, axis2=-1)
    masked = np.where(off, log_joint, -np.inf)
    log_fp, log_fn = special.logsumexp(masked, axis=-2), special.logsumexp(masked, axis=-1)
    out = _label_averages(diag, log_fp, log_fn)
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


def _multilabel(a: np.ndarray, w: np.ndarray, prior: tuple[float, ...]) -> dict[str, dict[Any, Any]]:
    """Every multi-label measure per fold model and per aggregation kind; labels independent given the model."""
    per_label = [_Rates.of_model(a, math.log(p) - math.log1p(-p), p) for p in prior]
    logs = [np.stack(v, axis=-1) for v in zip(*(r.counts() for r in per_label), strict=True)]
    model = _label_averages(*logs)
    accuracy = np.stack([r.measures()["accuracy"] for r in per_label], axis=-1)
    model[("subset_accuracy", "")] = np.prod(accuracy, axis=-1)
    model[("hamming_loss", "")] = 1.0 - accuracy.mean(axis=-1)
    auc, auc_mix = _auc(a, w)
    model[("roc_auc", "macro_ovr")] = auc
    with np.errstate(divide="ignore"):
        log_w = np.log(w)
    pooled = {k: float(v) for k, v in _label_averages(*(_lse(v, log_w) for v in logs)).items()}
    pooled[("subset_accuracy", "")] = float(model[("subset_accuracy", "")] @ w)  # a mean over cases: linear
    pooled[("hamming_loss", "")] = float(model[("hamming_loss", "")] @ w)
    return {"model": model, "pooled": pooled, "merge": {("roc_auc", "macro_ovr"): auc_mix}}


def _values(task: str, a: np.ndarray, w: np.ndarray, prior: Any, pos_weight: float) -> dict[str, dict[Any, Any]]:
    if task == "binary":
        out = _binary(a, w, prior, pos_weight)
        return {kind: {(q, ""): v for q, v in part.items()} for kind, part in out.items()}
    return (_multiclass if task == "multiclass" else _multilabel)(a, w, prior)


def truth_table(
    task: str,
    prior: Any,
    delta0: float,
    training_sd: float,
    pos_weight: float = 1.0,
    rule: Callable[[float, float], tuple[np.ndarray, ...]] = separation_rule,
) -> pd.DataFrame:
    """The truths of every row of the task's report (:func:`learner_truths` without the checks)."""
    a, w = rule(delta0, training_sd)
    v = _values(task, a, w, prior, pos_weight)
    rows = []
    for q, average, key, kind in ROWS[task]:
        if kind == "avg":
            truth = float(v["model"][(q, average)] @ w)
        else:
            truth = v[kind][(q, average)]
        rows.append({"quantity": q, "average": average, "aggregation": key, "truth": float(truth)})
    return pd.DataFrame(rows)


@declare(
    task=TASK,
    prior=PRIOR,
    delta0=DELTA0,
    training_sd=TRAINING_SD,
    pos_weight=POS_WEIGHT,
    relations=[PRIOR_OF_TASK],
)
def learner_truths(
    *,
    task: Literal["binary", "multiclass", "multilabel"] = "binary",
    prior: float | Sequence[float] = 0.5,
    delta0: float = 1.5,
    training_sd: float = 0.0,
    pos_weight: float = 1.0,
) -> pd.DataFrame:
    """The value each row of :func:`apples.report` targets for the binormal learner (the module docstring).

    Parameters
    ----------
    task : {"binary", "multiclass", "multilabel"}, default "binary"
    prior : float or sequence of float, default 0.5
        As for :func:`apples.theory.simulate_learner_cv` (the study's realised class proportions, for a study
        whose ``prior·n_cases`` is not a whole number).
    delta0 : float, default 1.5
        δ₀ > 0, the mean separation of a fold model.
    training_sd : float, default 0.0
        τ, the spread of the separation over training sets; with τ = 0 every aggregation of a measure agrees.
    pos_weight : float, default 1.0
        Binary: the weight of each positive; the truths are those of the reweighted population.

    Returns
    -------
    pandas.DataFrame
        One row per row of the report (its measures for the task, label averages ``macro``, ``micro`` and
        ``lfb_test``): columns ``quantity``, ``average``, ``aggregation`` (the report's keys) and ``truth``.

    References
    ----------
    Forman & Scholz (2010) §2.3, §3.2; Nadeau & Bengio (2003) §4; Hand (2009) §6; Van Asch (2013) §3.

    Examples
    --------
    >>> from apples.theory import learner_truths
    >>> t = learner_truths(prior=0.5, delta0=1.5, training_sd=0.0).set_index(["quantity", "aggregation"])
    >>> round(t.loc[("roc_auc", "avg"), "truth"], 6), round(t.loc[("accuracy", "pooled"), "truth"], 6)
    (0.855891, 0.773373)
    """
    return truth_table(task, prior, delta0, training_sd, pos_weight)


@declare(
    separation=Real(),
    task=TASK,
    prior=PRIOR,
    pos_weight=POS_WEIGHT,
    relations=[PRIOR_OF_TASK],
)
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
        δ (its sign does not matter: the model's posterior knows it); 0 is an uninformative model.
    task, prior, pos_weight
        As for :func:`learner_truths`.

    Returns
    -------
    pandas.DataFrame
        Columns ``quantity``, ``average``, ``value``; the measures of the task's report, the label averages
        ``macro``, ``micro`` and ``lfb_test``.

    Examples
    --------
    >>> from apples.theory import fold_model_values
    >>> v = fold_model_values(1.5, prior=0.5).set_index("quantity")["value"]
    >>> round(v["recall"], 6), round(v["roc_auc"], 6)   # Φ(δ/2) and Φ(δ/√2)
    (0.773373, 0.855891)
    """
    a = np.array([max(abs(separation), 1e-300)])
    model = _values(task, a, np.array([1.0]), prior, pos_weight)["model"]
    seen = dict.fromkeys((q, avg) for q, avg, _, _ in ROWS[task])
    return pd.DataFrame([{"quantity": q, "average": avg, "value": float(model[(q, avg)][0])} for q, avg in seen])
