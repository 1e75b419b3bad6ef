"""Confidence intervals beside the values of :func:`apples.report` (its ``confidence=`` option).

Introduced in notebook 10, whose coverage study measured how well each interval keeps its promise.
Each reported value gets the interval that fits how it was aggregated:

=============================================  ==========================================================
value                                          interval
=============================================  ==========================================================
an F-measure (all five aggregations)           :func:`apples.cv_f_measure_ci`: bootstrap that resamples the
                                               cases within each fold (Forman & Scholz §2.3 aggregations)
pooled precision, recall, accuracy; the        Wilson score interval of the pooled proportion
micro-averaged multi-class precision, recall   (:func:`apples.proportion_ci`)
other pooled multi-class averages (macro,      the same within-fold bootstrap, each fold's confusion matrix
lfb, both macro-F definitions)                 drawn as one multinomial (Efron & Tibshirani 1993 §8.3, §13.3)
merged ROC AUC (binary)                        DeLong's interval (:func:`apples.roc_auc_ci`)
a mean of fold values ("avg")                  Nadeau & Bengio's corrected resampled t over the fold values
                                               (:func:`apples.cv_score_ci`), over all r·k folds with repeats
merged average precision; merged macro AUC     none (``null``, method ``"none"``): no interval in apples
=============================================  ==========================================================

With repeats, a pooled, merged or F interval is computed in every repeat and the report gives the
mean of their ends (method suffixed ``" (mean over repeats)"``): repeating a cross-validation on the
same cases does not shrink the uncertainty that comes from sampling those cases, so the interval
keeps the width of one repeat. Resampling intervals treat the trained models as fixed, so they miss
the training-set part of the variance (notebook 10 §5 measures the under-coverage this causes).
Every reported quantity lies in [0, 1], and so do the ends of its interval: a t or normal interval that
reaches past 0 or 1 (few folds, a recall near 1) is clipped there, which can only raise its coverage.
A value that is undefined (``null``) has a ``null`` interval; so has a bootstrap in which some
resampled value is undefined (a fold that loses its positives), never a clipped number.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

from apples._params import check_int, check_seed, check_table_size
from apples.intervals import cv_f_measure_ci, cv_score_ci, proportion_ci, roc_auc_ci
from apples.intervals.results import check_confidence
from apples.metrics import Counts

__all__ = [
    "IntervalSettings",
    "binary_intervals",
    "check_interval_settings",
    "combine_intervals",
    "interval_note",
    "interval_warnings",
    "label_average_replicates",
    "multiclass_intervals",
]

F_METHODS = ("tp_fp", "avg", "pr_re", "avg_skip", "pr_re_skip")
#: Most resampled cells held in memory at once by the multi-class bootstrap (float64: 32 MiB).
_CHUNK_CELLS = 1 << 22


class IntervalSettings(NamedTuple):
    """The validated ``confidence``, ``n_resamples`` and ``seed`` of :func:`apples.report`."""

    confidence: float
    n_resamples: int
    seed: int


def check_interval_settings(confidence: object, n_resamples: object, seed: object) -> IntervalSettings | None:
    """None when ``confidence`` is None (no intervals), else the checked settings (errors name the argument)."""
    if confidence is None:
        return None
    return IntervalSettings(
        check_confidence(confidence),
        check_int("n_resamples", n_resamples, low=100),
        check_seed("seed", seed),
    )


def interval_warnings(d: Mapping[str, Any]) -> list[str]:
    """Warnings about the intervals of a report dict ``d``: folds of one case give the bootstrap nothing to vary."""
    single = sum(1 for f in d["folds"] if f["n"] == 1)
    if not single:
        return []
    which = "F" if d["task"] == "binary" else "the pooled averages"
    return [
        f"{single} of {len(d['folds'])} folds hold one case: resampling the cases within a fold cannot change "
        f"such a fold, so the bootstrap intervals of {which} understate the uncertainty (with leave-one-out they "
        "have width 0); for intervals use k-fold cross-validation with larger folds"
    ]


def interval_note(settings: IntervalSettings, task: str) -> str:
    """The note that a ``task`` ("binary" or "multiclass") report prints about its intervals."""
    head = f"Intervals ({100 * settings.confidence:g}%): "
    boot = f"a bootstrap of the cases within each fold ({settings.n_resamples:,} resamples, seed {settings.seed})"
    if task == "binary":
        which = (
            f"F by {boot}; pooled precision, recall, accuracy by Wilson; merged AUC by DeLong; merged average "
            "precision has none"
        )
    else:
        which = (
            f"pooled micro precision, recall and accuracy by Wilson; the other pooled averages by {boot}; "
            "merged macro AUC has none"
        )
    return (
        head
        + which
        + "; fold averages by Nadeau & Bengio's corrected t. The bootstrap, Wilson and DeLong intervals see only "
        "the test cases and treat the trained models as fixed: they can be too narrow (notebook 10 §5)."
    )


def _rng(settings: IntervalSettings, repeat: int, quantity: int) -> np.random.Generator:
    """One independent stream per (repeat, quantity): the result never depends on evaluation order."""
    return np.random.default_rng(np.random.SeedSequence(settings.seed, spawn_key=(repeat, quantity)))


def _ci(low: float | None, high: float | None, method: str) -> dict[str, Any]:
    """An interval as JSON values, its ends clipped to [0, 1]; both ends None if either is undefined."""

    def num(x: float | None) -> float | None:
        return None if x is None or math.isnan(x) else min(1.0, max(0.0, float(x)))

    lo, hi = num(low), num(high)
    if lo is None or hi is None:
        lo = hi = None
    return {"low": lo, "high": hi, "method": method}


NO_INTERVAL = {"low": None, "high": None, "method": "none"}


def _fold_split(n: int, k: int) -> tuple[int, int]:
    """(n_train, n_test) of a k-fold cross-validation of n cases, for the corrected t."""
    n_test = max(1, round(n / k))
    return max(1, n - n_test), n_test


class _FoldValues(NamedTuple):
    """The per-fold values of one "avg" row in one repeat, with that repeat's fold split."""

    values: list[float]
    n_train: int
    n_test: int


def _fold_values(values, n: int, k: int) -> _FoldValues:
    n_train, n_test = _fold_split(n, k)
    return _FoldValues([float(v) for v in values if v is not None and not math.isnan(v)], n_train, n_test)


# -- binary --------------------------------------------------------------------------------------
def binary_intervals(
    folds: list[Counts], t: np.ndarray, s: np.ndarray | None, rank, settings: IntervalSettings, repeat: int
) -> dict[str, Any]:
    """One repeat's intervals of the binary report: ``{"repeat": tree, "avg": tree of _FoldValues}``.

    ``folds`` are the fold counts (empty without ``y_pred``), ``t`` the positive mask, ``s`` the
    scores and ``rank`` the per-fold ranking of :func:`apples._report_kernels.fold_ranking`.
    """
    conf, n, k = settings.confidence, int(t.size), int(len(rank.auc) if rank is not None else len(folds))
    per: dict[str, dict[str, Any]] = {}
    avg: dict[str, dict[str, _FoldValues]] = {}
    if folds:
        per["f_measure"] = {}
        for j, m in enumerate(F_METHODS):
            ci = cv_f_measure_ci(
                folds,
                method=m,
                confidence=conf,
                n_resamples=settings.n_resamples,
                seed=_rng(settings, repeat, j),
                undefined="nan",
            )
            per["f_measure"][m] = _ci(ci.low, ci.high, "bootstrap")
        pooled = sum(folds, Counts(0, 0, 0, 0))
        for name, hits, total in (
            ("precision", pooled.tp, pooled.tp + pooled.fp),
            ("recall", pooled.tp, pooled.tp + pooled.fn),
            ("accuracy", pooled.tp + pooled.tn, pooled.n),
        ):
            ci = proportion_ci(hits, total, confidence=conf, undefined="nan")
            per[name] = {"pooled": _ci(ci.low, ci.high, "wilson")}
        # Per-fold precision and recall with 0 for 0/0, as the report's "avg" values (its module docstring).
        avg["precision"] = {"avg": _fold_values([c.tp / (c.tp + c.fp) if c.tp + c.fp else 0.0 for c in folds], n, k)}
        avg["recall"] = {"avg": _fold_values([c.tp / (c.tp + c.fn) if c.tp + c.fn else 0.0 for c in folds], n, k)}
        avg["accuracy"] = {"avg": _fold_values([(c.tp + c.tn) / c.n for c in folds], n, k)}
    if s is not None and rank is not None:
        ci = roc_auc_ci(t.astype(np.int8), s, pos_label=1, confidence=conf, method="delong", undefined="nan")
        per["roc_auc"] = {"merge": _ci(ci.low, ci.high, "delong")}
        per["average_precision"] = {"merge": dict(NO_INTERVAL)}
        avg["roc_auc"] = {"avg": _fold_values(rank.auc, n, k)}
        avg["average_precision"] = {"avg": _fold_values(rank.ap, n, k)}
    return {"repeat": per, "avg": avg}


# -- multi-class -----------------------------------------------------------------------------------
def _safe_div(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num / den, 0 where den == 0 (the report's ``undefined="zero"`` policy)."""
    out = np.zeros(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=den > 0)
    return out


def _f(p: np.ndarray, r: np.ndarray) -> np.ndarray:
    return _safe_div(2.0 * p * r, p + r)


def label_average_replicates(
    tp: np.ndarray, pred: np.ndarray, true: np.ndarray, train: np.ndarray | None
) -> dict[str, dict[str, np.ndarray]]:
    """Vectorised :func:`apples._report_tasks.label_averages` of many count tables at once.

    ``tp``, ``pred`` (predicted), ``true`` (gold) have shape (R, q): one row per resampled table.
    Returns ``{section: {average: values of shape (R,)}}`` with the same zero policy.
    """
    fp, fn = pred - tp, true - tp
    per_p, per_r = _safe_div(tp, pred), _safe_div(tp, true)
    per_f = _safe_div(2.0 * tp, 2.0 * tp + fp + fn)
    out: dict[str, dict[str, np.ndarray]] = {s: {} for s in ("precision", "recall", "f_of_averages", "mean_f")}
    weights: list[tuple[str, np.ndarray | None]] = [("macro", None), ("micro", None), ("lfb_test", true)]
    if train is not None:
        weights.append(("lfb_train", np.broadcast_to(train, tp.shape)))
    for key, w in weights:
        if key == "micro":
            p = _safe_div(tp.sum(axis=1), pred.sum(axis=1))
            r = _safe_div(tp.sum(axis=1), true.sum(axis=1))
            mean_f = _safe_div(2.0 * tp.sum(axis=1), (2.0 * tp + fp + fn).sum(axis=1))
        elif w is None:
            p, r, mean_f = per_p.mean(axis=1), per_r.mean(axis=1), per_f.mean(axis=1)
        else:
            total = w.sum(axis=1)
            p, r = _safe_div((w * per_p).sum(axis=1), total), _safe_div((w * per_r).sum(axis=1), total)
            mean_f = _safe_div((w * per_f).sum(axis=1), total)
        out["precision"][key], out["recall"][key] = p, r
        out["f_of_averages"][key], out["mean_f"][key] = (mean_f if key == "micro" else _f(p, r)), mean_f
    return out


def _pooled_replicates(m: np.ndarray, n_resamples: int, rng: np.random.Generator, train: np.ndarray | None):
    """Replicates of every pooled label average: each fold's cases resampled, as one multinomial draw.

    ``m`` is the (folds, truth, pred) confusion array. Only the non-empty cells of each fold are
    drawn, and labels' totals are gathered with one ``bincount``, so the cost is
    O(n_resamples × non-empty cells), whatever the number of labels.
    """
    k, q, _ = m.shape
    cells = np.flatnonzero(m.sum(axis=0))  # every (truth, pred) cell that is non-empty in some fold
    truth_of, pred_of = np.divmod(cells, q)
    diag = truth_of == pred_of
    position = {int(c): i for i, c in enumerate(cells)}
    per_fold = []
    for f in range(k):
        flat = m[f].ravel()
        own = np.flatnonzero(flat)
        per_fold.append((int(flat.sum()), flat[own] / flat.sum(), np.array([position[int(c)] for c in own])))
    chunk = max(1, min(n_resamples, _CHUNK_CELLS // max(1, cells.size)))
    parts: list[dict[str, dict[str, np.ndarray]]] = []
    for start in range(0, n_resamples, chunk):
        size = min(chunk, n_resamples - start)
        pooled = np.zeros((size, cells.size))
        for n_f, p_f, where in per_fold:
            pooled[:, where] += rng.multinomial(n_f, p_f, size=size)
        rows = np.repeat(np.arange(size) * q, cells.size).reshape(size, cells.size)

        def gather(select: np.ndarray, label: np.ndarray, pooled=pooled, rows=rows, size=size) -> np.ndarray:
            idx = (rows[:, select] + label[select]).ravel()
            return np.bincount(idx, weights=pooled[:, select].ravel(), minlength=size * q).reshape(size, q)

        every = np.ones(cells.size, dtype=bool)
        parts.append(
            label_average_replicates(gather(diag, truth_of), gather(every, pred_of), gather(every, truth_of), train)
        )
    return {s: {a: np.concatenate([p[s][a] for p in parts]) for a in parts[0][s]} for s in parts[0]}


def multiclass_intervals(
    m: np.ndarray,
    per_fold: list[dict[str, dict[str, float | None]]],
    fold_auc: list[float | None],
    labels: list,
    train: Mapping | None,
    settings: IntervalSettings,
    repeat: int,
) -> dict[str, Any]:
    """One repeat's intervals of the multi-class report: ``{"repeat": tree, "avg": tree of _FoldValues}``."""
    conf, alpha = settings.confidence, 1.0 - settings.confidence
    k = m.shape[0]
    n = int(m.sum())
    train_w = None if train is None else np.array([float(train[lab]) for lab in labels])
    # 16 replicate arrays of float64 (4 sections x up to 4 averages) are kept for the quantiles.
    check_table_size(
        f"the bootstrap of {settings.n_resamples:,} resamples", settings.n_resamples * 16 * 8, reduce="n_resamples"
    )
    reps = _pooled_replicates(m, settings.n_resamples, _rng(settings, repeat, 0), train_w)
    # Single-label data: every case is one prediction and one gold label, so micro precision and micro
    # recall are both the accuracy, correct / n, and share its Wilson interval.
    wilson = proportion_ci(int(np.trace(m.sum(axis=0))), n, confidence=conf)
    correct = _ci(wilson.low, wilson.high, "wilson")
    per: dict[str, Any] = {"accuracy": {"pooled": correct}}
    avg: dict[str, Any] = {}
    for section, by_avg in reps.items():
        per[section], avg[section] = {}, {}
        for key, values in by_avg.items():
            if section in ("precision", "recall") and key == "micro":
                per[section][key] = {"pooled": dict(correct)}
            else:
                low, high = np.quantile(values, [alpha / 2.0, 1.0 - alpha / 2.0])
                per[section][key] = {"pooled": _ci(float(low), float(high), "bootstrap")}
            avg[section][key] = {"avg": _fold_values([pf[section][key] for pf in per_fold], n, k)}
    avg["accuracy"] = {"avg": _fold_values([np.trace(m[f]) / m[f].sum() for f in range(k)], n, k)}
    per["roc_auc"] = {"macro_ovr": {"merge": dict(NO_INTERVAL)}}
    avg["roc_auc"] = {"macro_ovr": {"avg": _fold_values(fold_auc, n, k)}}
    return {"repeat": per, "avg": avg}


# -- over repeats ----------------------------------------------------------------------------------
def _merge(trees: list[dict]) -> dict:
    """Deep-merge dicts with disjoint leaves (the per-repeat and the avg intervals of one report)."""
    out: dict = {}
    for tree in trees:
        for key, value in tree.items():
            if isinstance(value, dict) and "method" not in value and key in out:
                out[key] = _merge([out[key], value])
            else:
                out[key] = value
    return out


def _mean_ends(cis: list[dict], repeated: bool) -> dict[str, Any]:
    if not repeated:
        return cis[0]
    method = cis[0]["method"]
    if method == "none":
        return dict(NO_INTERVAL)
    if any(c["low"] is None for c in cis):
        return _ci(None, None, method + " (mean over repeats)")
    return _ci(
        math.fsum(c["low"] for c in cis) / len(cis),
        math.fsum(c["high"] for c in cis) / len(cis),
        method + " (mean over repeats)",
    )


def _corrected_t(parts: list[_FoldValues], confidence: float) -> dict[str, Any]:
    values = [v for p in parts for v in p.values]
    if len(values) < 2:
        return _ci(None, None, "corrected_t")
    n_train = round(sum(p.n_train for p in parts) / len(parts))
    n_test = round(sum(p.n_test for p in parts) / len(parts))
    ci = cv_score_ci(values, n_train=n_train, n_test=n_test, confidence=confidence, method="corrected_t")
    return _ci(ci.low, ci.high, "corrected_t")


def _combine(trees: list, leaf) -> Any:
    first = trees[0]
    if isinstance(first, dict) and "method" not in first:
        return {key: _combine([t[key] for t in trees], leaf) for key in first}
    return leaf(trees)


def combine_intervals(per_repeat: list[dict[str, Any]], settings: IntervalSettings) -> dict[str, Any]:
    """The report's ``"intervals"`` section from every repeat's :func:`binary_intervals` (or multi-class)."""
    repeated = len(per_repeat) > 1
    pooled = _combine([r["repeat"] for r in per_repeat], lambda cis: _mean_ends(cis, repeated))
    avg = _combine([r["avg"] for r in per_repeat], lambda parts: _corrected_t(parts, settings.confidence))
    return {
        "confidence": settings.confidence,
        "n_resamples": settings.n_resamples,
        "seed": settings.seed,
        **_merge([pooled, avg]),
    }
