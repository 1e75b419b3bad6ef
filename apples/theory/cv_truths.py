"""The truth every cross-validated value of the report targets, for the binormal learner.

Introduced in notebook 11 (the coverage of the report's intervals). The learner is
:mod:`apples.theory.cv_learner`'s: fold models of separation δ ~ N(δ₀, τ²) over training sets, each
calibrated (posterior logit N(λ ± a²/2, a²), a = |δ|); :mod:`apples.theory.learner_models` gives a
fold model's population values. Class weights (each positive weighing w) reweight the evaluated
population: its positives' share is π' = wπ/(wπ + 1 − π); rates and scores are unchanged.

**Truths** (``truth``): what each aggregation of :func:`apples.report` measures of the learning
algorithm, by exact quadrature over a = |δ|:

==========  ====================================================================================
``avg``     E_a[m(a)]: the expected population value of one fold model (the generalisation error
            of the algorithm at this training size, Nadeau & Bengio 2003). ``avg_skip`` alike.
``pooled``  m of the expected population confusion rates E_a[TP], E_a[FP], E_a[FN], E_a[TN]
            (F_tp,fp, pooled precision, MCC, ...; label averages of the expected per-label rates).
            Log loss, Brier score, accuracy, subset accuracy: means over cases, pooled = avg.
``pr_re``   F of E_a[precision] and E_a[recall] (F_pr,re, Forman & Scholz 2010 §2.3).
``merge``   The ranking measure of the mixture of the fold models' score distributions,
            F±_mix = E_a[F±_a] (AUC_merge, Forman & Scholz §3.2): a positive and a negative scored by
            independent fold models.
==========  ====================================================================================

Every fold model is calibrated, so their mixture is too (its likelihood ratio is e^{ℓ−λ}, like each
component's): its ROC curve is concave and at every cost every fold model has the same optimal
threshold, so the merged H-measure equals the average H exactly. With τ = 0 all aggregations of a
measure coincide.

**Design truths** (``design_truth``, with ``n_folds``): a finite study does not pool or merge the
whole population of fold models, but the k models of each repeat, whose separations share the
training effect g (correlation ρ = 1/(k − 1)). As the folds grow, a pooled, ``pr_re`` or merged value
tends to m of the *k models'* average rates (or mixture), and its expectation over training sets is
E[m(avg over k)], not m(E): a Jensen gap of order τ²(ρ + (1 − ρ)/k), 0.014 for F_tp,fp at π = 0.1,
τ = 0.5, k = 5. The merged AUC's is exact: a pair of cases falls in one fold with probability 1/k,
so it is (1/k)·E[Φ(a/√2)] + (1 − 1/k)·E[Φ(√(a₁² + a₂²)/2)] over two correlated models (Gauss–Hermite
over g); the merged H equals the average H. The others are expectations over k + 1 normals, summed by
randomized quasi-Monte Carlo (scrambled Sobol points, Owen 1997) with the standard error over
independent scrambles (``design_se``); ``avg`` values are linear in the models, so their design
truth is the truth. The coverage study measures each interval against both.

The tests check every truth against Monte Carlo and scikit-learn on large samples, and the
quadratures against rules of twice the size.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, Literal

import numpy as np
import pandas as pd
from scipy import interpolate, special
from scipy.stats import qmc

from apples._params import MAX_EXACT_INT, Integer, Nullable, declare
from apples.theory.cv_learner import DELTA0, POS_WEIGHT, PRIOR, PRIOR_OF_TASK, TASK, TRAINING_SD, evaluated_prior
from apples.theory.learner_models import (
    AVERAGES,
    LABEL_MEASURES,
    Rates,
    binary_lambda,
    joint_measures,
    label_averages,
    label_rates,
    lse,
    mixture_ap,
    model_auc,
    model_values,
    multiclass_log_joint,
    pair_auc,
    separation_rule,
)

__all__ = [
    "learner_truths",
]

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
_LABEL_ROWS = tuple((q, a, agg, agg) for q in LABEL_MEASURES for a in AVERAGES for agg in ("pooled", "avg"))
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
#: Values that are means over cases (or linear in the rates): pooled and averaged agree, in every study.
_LINEAR = {"log_loss", "brier_score", "accuracy", "subset_accuracy", "hamming_loss", "balanced_accuracy", "recall"}
#: Randomized quasi-Monte Carlo of the design truths: Sobol points per scramble, scrambles, Gauss–Hermite nodes
#: over the shared training effect g.
_DESIGN_POINTS, _DESIGN_SCRAMBLES, _G_NODES = 512, 8, 48
_INTERPOLATION_NODES = 801

Values = dict[str, dict[tuple, Any]]


def _f(p: Any, r: Any) -> Any:
    return 2.0 * p * r / (p + r)


# -- the population of fold models --------------------------------------------------------------------------------
def _pooled(task: str, a: np.ndarray, w: np.ndarray, prior: Any, pos_weight: float, axis: int = 0) -> dict:
    """Count measures of the rates pooled over fold models (weights w along ``axis`` of a)."""
    with np.errstate(divide="ignore"):
        log_w = np.log(w)
    if task == "binary":
        rates = Rates.of_model(a, binary_lambda(prior), evaluated_prior(prior, pos_weight)).mean(w, axis)
        return {(q, ""): v for q, v in rates.measures().items()}
    if task == "multiclass":
        pi = np.array(prior)
        joint = multiclass_log_joint(a.ravel(), pi).reshape(*a.shape, pi.size, pi.size)
        return joint_measures(lse(joint, log_w, axis), pi)
    counts = [np.stack(v, axis=-1) for v in zip(*(r.counts() for r in label_rates(a, prior)), strict=True)]
    return label_averages(*(lse(c, log_w, axis if axis >= 0 else axis - 1) for c in counts))  # labels last


def _population(task: str, a: np.ndarray, w: np.ndarray, prior: Any, pos_weight: float) -> Values:
    model = model_values(task, a, prior, pos_weight)
    avg = {k: float(v @ w) for k, v in model.items()}
    pooled = {k: float(v) for k, v in _pooled(task, a, w, prior, pos_weight).items()}
    pooled.update({k: avg[k] for k in avg if k[0] in _LINEAR and k[0] not in ("balanced_accuracy", "recall")})
    auc_key = ("roc_auc", "" if task == "binary" else "macro_ovr")
    merge = {auc_key: float(w @ pair_auc(a[:, None], a[None, :]) @ w)}
    out: Values = {"avg": avg, "pooled": pooled, "merge": merge}
    if task == "binary":
        pe = evaluated_prior(prior, pos_weight)
        merge[("average_precision", "")] = float(mixture_ap(a, w, pe))
        merge[("h_measure", "")] = avg[("h_measure", "")]
        out["pr_re"] = {("f_measure", ""): _f(avg[("precision", "")], avg[("recall", "")])}
    return out


# -- the k fold models of a repeat ----------------------------------------------------------------------------------
def _merged_auc(delta0: float, tau: float, k: int, rule: Callable[..., tuple[np.ndarray, ...]]) -> float:
    """E of the merged AUC of k fold models: (1/k)·E[Φ(a/√2)] + (1 − 1/k)·E[Φ(√(a₁² + a₂²)/2)], the two models of
    a cross-fold pair sharing g (given g, their δ are independent N(δ₀ + τ√ρ g, τ²(1 − ρ)))."""
    rho = 1.0 / (k - 1)
    a, w = rule(delta0, tau)
    same = float(model_auc(a) @ w)
    g, wg = np.polynomial.hermite_e.hermegauss(_G_NODES)
    cross = 0.0
    for gi, wi in zip(g, wg / wg.sum(), strict=True):
        ag, ww = rule(abs(delta0 + tau * math.sqrt(rho) * gi), tau * math.sqrt(1.0 - rho))
        cross += wi * float(ww @ pair_auc(ag[:, None], ag[None, :]) @ ww)
    return same / k + (1.0 - 1.0 / k) * cross


def _interpolated_joint(a: np.ndarray, pi: np.ndarray) -> np.ndarray:
    """Multi-class log joint shares at many separations: a cubic spline in log a through a fine geometric grid."""
    lo, hi = max(float(a.min()), 1e-3), max(float(a.max()), 2e-3)
    grid = np.geomspace(lo, hi, _INTERPOLATION_NODES)
    spline = interpolate.CubicSpline(np.log(grid), multiclass_log_joint(grid, pi), axis=0)
    return np.asarray(spline(np.log(np.clip(a, lo, hi))))


def _design_draw(task: str, a: np.ndarray, prior: Any, pos_weight: float) -> dict[tuple, float]:
    """Mean over the draws (rows of a, the k models on its last axis) of the pooled, pr_re and merged values."""
    k = a.shape[-1]
    w = np.full(k, 1.0 / k)
    out: dict[tuple, float] = {}
    if task == "multiclass":
        pi = np.array(prior)
        joint = _interpolated_joint(a, pi)
        pooled = joint_measures(special.logsumexp(joint, axis=-3) - math.log(k), pi)
    else:
        pooled = _pooled(task, a, w, prior, pos_weight, axis=-1)
    out.update({(*key, "pooled"): float(np.mean(v)) for key, v in pooled.items()})
    if task == "binary":
        pe = evaluated_prior(prior, pos_weight)
        model = Rates.of_model(a, binary_lambda(prior), pe).measures()
        out[("f_measure", "", "pr_re")] = float(np.mean(_f(model["precision"].mean(-1), model["recall"].mean(-1))))
        chunk = max(1, 2**20 // (k * k * 96))
        ap = np.concatenate([mixture_ap(a[i : i + chunk], np.broadcast_to(w, a[i : i + chunk].shape), pe)
                             for i in range(0, a.shape[0], chunk)])  # fmt: skip
        out[("average_precision", "", "merge")] = float(np.mean(ap))
    return out


def _design(
    task: str, prior: Any, delta0: float, tau: float, pos_weight: float, k: int, points: int, scrambles: int, seed: int
) -> dict[tuple, tuple[float, float]]:
    """Design truths (value, standard error) of the pooled, pr_re and merged rows (the module docstring)."""
    rho = 1.0 / (k - 1)
    draws = []
    for child in np.random.SeedSequence(seed).spawn(scrambles):
        u = qmc.Sobol(k + 1, scramble=True, seed=np.random.default_rng(child)).random(points)
        z = special.ndtri(u)
        delta = delta0 + tau * (math.sqrt(rho) * z[:, :1] + math.sqrt(1.0 - rho) * z[:, 1:])
        draws.append(_design_draw(task, np.maximum(np.abs(delta), 1e-3), prior, pos_weight))
    out = {key: (float(np.mean([d[key] for d in draws])), float(np.std([d[key] for d in draws], ddof=1) /
                 math.sqrt(scrambles))) for key in draws[0]}  # fmt: skip
    return out


def truth_table(*args: Any, **kwargs: Any) -> pd.DataFrame:
    """The truths of every row of the task's report (:func:`learner_truths` without the checks), remembered: a
    coverage study asks for the same truths in every run (a copy is returned, the remembered table stays)."""
    return _truth_table(*args, **kwargs).copy()


@lru_cache(maxsize=128)
def _truth_table(
    task: str,
    prior: Any,
    delta0: float,
    training_sd: float,
    pos_weight: float = 1.0,
    n_folds: int | None = None,
    *,
    rule: Callable[..., tuple[np.ndarray, ...]] = separation_rule,
    points: int = _DESIGN_POINTS,
    scrambles: int = _DESIGN_SCRAMBLES,
    seed: int = 0,
) -> pd.DataFrame:
    a, w = rule(delta0, training_sd)
    v = _population(task, a, w, prior, pos_weight)
    design: dict[tuple, tuple[float, float]] = {}
    if n_folds is not None and training_sd > 0.0:
        design = _design(task, prior, delta0, training_sd, pos_weight, n_folds, points, scrambles, seed)
        auc_key = ("roc_auc", "" if task == "binary" else "macro_ovr", "merge")
        design[auc_key] = (_merged_auc(delta0, training_sd, n_folds, rule), 0.0)
    rows = []
    for q, average, key, kind in ROWS[task]:
        truth = v[kind][(q, average)]
        row = {"quantity": q, "average": average, "aggregation": key, "truth": float(truth)}
        if n_folds is not None:
            micro = task == "multiclass" and average == "micro"  # single-label micro averages are the accuracy
            exact = kind == "avg" or q in _LINEAR or q == "h_measure" or micro or training_sd == 0.0
            row["design_truth"], row["design_se"] = (truth, 0.0) if exact else design[(q, average, kind)]
        rows.append(row)
    return pd.DataFrame(rows)


@declare(
    task=TASK,
    prior=PRIOR,
    delta0=DELTA0,
    training_sd=TRAINING_SD,
    pos_weight=POS_WEIGHT,
    n_folds=Nullable(Integer(2, MAX_EXACT_INT)),
    relations=[PRIOR_OF_TASK],
)
def learner_truths(
    *,
    task: Literal["binary", "multiclass", "multilabel"] = "binary",
    prior: float | Sequence[float] = 0.5,
    delta0: float = 1.5,
    training_sd: float = 0.0,
    pos_weight: float = 1.0,
    n_folds: int | None = None,
) -> pd.DataFrame:
    """The value each row of :func:`apples.report` targets for the binormal learner (the module docstring).

    Parameters
    ----------
    task : {"binary", "multiclass", "multilabel"}, default "binary"
    prior : float or sequence of float, default 0.5
        As for :func:`apples.theory.simulate_learner_cv` (for a study, its realised class proportions).
    delta0 : float, default 1.5
        δ₀, the mean separation of a fold model, in [0.01, 40].
    training_sd : float, default 0.0
        τ in [0, 10], the spread of the separation over training sets; with τ = 0 every aggregation agrees.
    pos_weight : float, default 1.0
        Binary: the weight of each positive; the truths are those of the reweighted population.
    n_folds : int, optional
        k: add the design truths of a k-fold study (``design_truth``, ``design_se``; the module docstring).

    Returns
    -------
    pandas.DataFrame
        One row per row of the report (its measures for the task; label averages ``macro``, ``micro``,
        ``lfb_test``): ``quantity``, ``average``, ``aggregation`` (the report's keys), ``truth`` and, with
        ``n_folds``, ``design_truth`` and ``design_se`` (0 where it is exact).

    References
    ----------
    Forman & Scholz (2010) §2.3, §3.2; Nadeau & Bengio (2003) §4; Hand (2009) §6; Van Asch (2013) §3;
    Owen, A. B. (1997). Scrambled net variance for integrals of smooth functions. Annals of Statistics 25(4).

    Examples
    --------
    >>> from apples.theory import learner_truths
    >>> t = learner_truths(prior=0.5, delta0=1.5, training_sd=0.0).set_index(["quantity", "aggregation"])
    >>> round(float(t.loc[("roc_auc", "avg"), "truth"]), 6), round(float(t.loc[("accuracy", "pooled"), "truth"]), 6)
    (0.855578, 0.773373)
    """
    pi: float | tuple[float, ...] = prior if isinstance(prior, float) else tuple(prior)
    return truth_table(task, pi, delta0, training_sd, pos_weight, n_folds)
