"""The second pass of :func:`apples.report`: a confidence interval beside each value (``confidence=``).

Introduced in notebook 11, whose coverage study measured how well each interval keeps its promise.
Each value gets the interval that fits how it was aggregated, computed from the same fold tables
as the values:

=============================================  ==========================================================
value                                          interval
=============================================  ==========================================================
an F-measure (all five aggregations)           a bootstrap that resamples the cases within each fold
                                               (:func:`apples.cv_f_measure_ci`'s, Forman & Scholz §2.3)
pooled precision, recall, accuracy; the        Wilson score interval of the pooled proportion
micro-averaged multi-class precision, recall   (:func:`apples.proportion_ci`'s)
other pooled multi-class averages (macro,      the same within-fold bootstrap, each fold's confusion matrix
lfb, both macro-F definitions)                 drawn as one multinomial (Efron & Tibshirani 1993 §8.3, §13.3)
merged ROC AUC (binary)                        DeLong's interval (:func:`apples.roc_auc_ci`'s)
a mean of fold values ("avg")                  Nadeau & Bengio's corrected resampled t over the fold values
                                               (:func:`apples.cv_score_ci`'s), over all r·k folds with repeats
merged average precision; merged macro AUC     none (``null``, method ``"none"``): no interval in apples
=============================================  ==========================================================

With repeats, the ends of the repeats' intervals are never averaged (no source supports it). A mean of
fold values gets Bouckaert & Frank's (2004) corrected repeated k-fold t over all r·k fold values
(method ``"corrected_repeated_t"``). A pooled proportion (precision, recall, accuracy, micro averages)
gets Wilson's interval of its mean over the repeats with n = one repeat's denominator of that proportion
(the positives for recall, the positive predictions for precision, the cases for accuracy; their mean over
the repeats), method ``"wilson (mean over repeats)"``: the repeats predict the same cases again, so they add
none; the mean over repeats is the mean of n per-case averages in [0, 1], whose variance is at most
p(1 − p)/n, the binomial variance Wilson's interval inverts. The bootstrap F intervals and DeLong's merged
AUC have no such argument: under repeats they are ``null`` and their ``reason`` says so.
Every interval that is ``null`` or has width 0 carries a ``reason``: the value is undefined, every fold
was undefined (an average of substituted zeros), the fold values do not vary, the bootstrap cannot vary
(e.g. no errors in any fold), too few folds, positives or negatives.
Under sample weights no value gets an interval (``null``, method ``"none"``, with the reason): each
method above assumes every case counts once (the bootstrap resamples cases, Wilson and DeLong count
them, the corrected t sizes the folds by their cases), and an interval of a weighted value needs the
sampling design the weights come from (strata, clusters, how the weights were made: Lumley 2010
*Complex Surveys* ch. 2; Kish's effective sample size is exact only for weights independent of the
outcome), which the predictions do not carry.
Resampling intervals treat the trained models as fixed, so they miss
the training-set part of the variance (notebook 11 §5 measures the under-coverage this causes).
Every reported quantity lies in [0, 1], and so do the ends of its interval: a t or normal interval that
reaches past 0 or 1 (few folds, a recall near 1) is clipped there, which can only raise its coverage.
A value that is undefined (``null``) has a ``null`` interval; so has a bootstrap in which some
resampled value is undefined (a fold that loses its positives), never a clipped number.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from functools import partial
from typing import Any, NamedTuple

import numpy as np

from apples._kernels.delong import delong_variance, placements
from apples._kernels.f_measure import cv_f, ratio
from apples._kernels.intervals import fold_t_interval, normal_quantile, proportion_interval
from apples._kernels.resampling import fold_count_replicates, label_table_replicates
from apples._params import MAX_TABLE_BYTES
from apples.cv.aggregations import F_AGGREGATIONS
from apples.reporting._tables import RepeatTable
from apples.reporting._values import average_sections, report_policy

__all__ = [
    "IntervalSettings",
    "binary_intervals",
    "combine_intervals",
    "interval_note",
    "interval_warnings",
    "multiclass_intervals",
    "weighted_intervals",
]

#: Most resampled cells held in memory at once by the multi-class bootstrap (float64: 32 MiB).
_CHUNK_CELLS = 1 << 22
#: Bytes per (resample, fold) cell while the F bootstrap runs (four counts and a few float temporaries).
_BYTES_PER_CELL = 96
NO_INTERVAL = {"low": None, "high": None, "method": "none", "reason": "apples has no interval for this value"}
#: Why a bootstrap interval has width 0.
_NO_VARIATION = (
    "every resample gives the same value (e.g. no errors, or no positives predicted, in any fold): the bootstrap "
    "cannot vary, and width 0 does not mean certainty"
)
_REPEATED_NONE = (
    "under repeats the repeats' intervals are not combined: they reuse the same cases, and averaging their ends "
    "has no published support; see one repeat's interval (report() of that repeat)"
)


class IntervalSettings(NamedTuple):
    """The checked ``confidence``, ``n_resamples`` and ``seed`` of :func:`apples.report`."""

    confidence: float
    n_resamples: int
    seed: int
    repeated: bool = False  #: more than one repeat: no bootstrap or DeLong interval (see the module docstring)
    beta: float = 1.0  #: the report's F_beta
    n_cases: int | None = None  #: the number of cases, for a hold-out split's training size (None: unknown)


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


def interval_note(settings: IntervalSettings, task: str, weighted: bool = False) -> str:
    """The note that a ``task`` ("binary" or "multiclass") report prints about its intervals."""
    head = f"Intervals ({100 * settings.confidence:g}%): "
    if weighted:
        return head + "none under sample weights: " + WEIGHTED_NONE + "."
    if settings.repeated:
        return (
            head + "fold averages by Bouckaert & Frank's (2004) corrected repeated k-fold t over all repeats' fold "
            "values; pooled proportions by Wilson's interval of their mean over the repeats, n = one repeat's "
            "denominator (the repeats predict the same cases again and add none); the F bootstrap, DeLong and the "
            "other pooled averages are not combined over repeats (averaging the repeats' interval ends has no "
            "published support). "
            "Wilson sees only the test cases and treats the trained models as fixed: it can be too narrow "
            "(notebook 11 §5)."
        )
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
        "the test cases and treat the trained models as fixed: they can be too narrow (notebook 11 §5)."
    )


#: Why a weighted report has no intervals (see the module docstring).
WEIGHTED_NONE = (
    "the values are weighted (sample_weight): the bootstrap, Wilson, DeLong and the corrected t assume every case "
    "counts once, and an interval of a weighted value needs the sampling design behind the weights (Lumley 2010, "
    "ch. 2), which the predictions do not carry"
)


def weighted_intervals(values: dict[str, Any], settings: IntervalSettings) -> dict[str, Any]:
    """The ``"intervals"`` section of a weighted report: every value of ``values`` (the report's quantity
    sections) with a ``null`` interval whose reason says why (:data:`WEIGHTED_NONE`)."""

    def none(node: Any) -> Any:
        if isinstance(node, dict):
            return {key: none(child) for key, child in node.items()}
        return {"low": None, "high": None, "method": "none", "reason": WEIGHTED_NONE}

    return {
        "confidence": settings.confidence,
        "n_resamples": settings.n_resamples,
        "seed": settings.seed,
        **{section: none(tree) for section, tree in values.items()},
    }


def _rng(settings: IntervalSettings, repeat: int, quantity: int) -> np.random.Generator:
    """One independent stream per (repeat, quantity): the result never depends on evaluation order."""
    return np.random.default_rng(np.random.SeedSequence(settings.seed, spawn_key=(repeat, quantity)))


def _ci(low: float | None, high: float | None, method: str, reason: str | None = None) -> dict[str, Any]:
    """An interval as JSON values, its ends clipped to [0, 1]; both ends None if either is undefined.

    A ``null`` interval or one of width 0 carries a ``reason`` (``reason``, or a generic one).
    """

    def num(x: float | None) -> float | None:
        return None if x is None or math.isnan(x) else min(1.0, max(0.0, float(x)))

    lo, hi = num(low), num(high)
    if lo is None or hi is None:
        lo = hi = None
    out: dict[str, Any] = {"low": lo, "high": hi, "method": method}
    if lo is None:
        out["reason"] = reason or "the value is undefined"
    elif lo == hi:
        out["reason"] = reason or "the interval has width 0, which does not mean certainty"
    return out


def _wilson(hits: float, total: float, confidence: float) -> dict[str, Any]:
    if total == 0:
        return _ci(None, None, "wilson", "the pooled value is 0/0 (undefined)")
    return _ci(*proportion_interval(hits, total, confidence, "wilson"), "wilson")  # type: ignore[arg-type]


def _percentile(values: np.ndarray, confidence: float, method: str) -> dict[str, Any]:
    if np.isnan(values).any():
        return _ci(None, None, method, "some resamples are undefined (a fold loses its positives or its predictions)")
    alpha = 1.0 - confidence
    low, high = np.quantile(values, [alpha / 2.0, 1.0 - alpha / 2.0])
    return _ci(float(low), float(high), method, _NO_VARIATION)


class _FoldValues(NamedTuple):
    """The per-fold values of one "avg" row in one repeat, with that repeat's fold split."""

    values: list[float]
    n_train: int
    n_test: int
    all_substituted: str | None = None  #: why every fold's value is a substituted 0 (None: some fold is defined)


def _fold_values(
    values: Any, n: int, k: int, undefined: np.ndarray | None = None, why: str = "", *, n_cases: int | None = None
) -> _FoldValues:
    """A repeat's fold values with its split: ``n`` cases in ``k`` folds train on ``n - n/k`` each; a hold-out
    split (``k = 1``) trains on the ``n_cases - n`` cases it does not test (0: unknown, no interval)."""
    n_test = max(1, round(n / k))
    known = n_cases is not None and n_cases > n_test
    n_train = max(1, n - n_test) if k > 1 else (n_cases - n_test if known and n_cases is not None else 0)
    every = None
    if undefined is not None and bool(np.all(undefined)):
        every = f"{why} in every fold: the average is of substituted zeros, and has no interval"
    return _FoldValues([float(v) for v in values if v is not None and not math.isnan(v)], n_train, n_test, every)


# -- binary --------------------------------------------------------------------------------------
def binary_intervals(table: RepeatTable, settings: IntervalSettings, repeat: int) -> dict[str, Any]:
    """One repeat's intervals of the binary report: ``{"repeat": tree, "avg": tree of _FoldValues}``."""
    _fold_values_n = functools.partial(_fold_values, n_cases=settings.n_cases)
    conf = settings.confidence
    n, k = int(table.sizes.sum()), table.fold_ids.size
    per: dict[str, dict[str, Any]] = {}
    avg: dict[str, dict[str, _FoldValues]] = {}
    m = table.confusion
    if m is not None:
        tp, fp, fn, tn = m[:, 1, 1], m[:, 0, 1], m[:, 1, 0], m[:, 0, 0]
        counts = np.stack([tp, fp, fn, tn], axis=1).astype(np.int64)
        chunk = max(1, MAX_TABLE_BYTES // (k * _BYTES_PER_CELL))
        per["f_measure"] = {}
        for j, (key, a) in enumerate(F_AGGREGATIONS.items()):
            if settings.repeated:
                per["f_measure"][key] = _ci(None, None, "bootstrap", _REPEATED_NONE)
                continue
            statistic = partial(
                cv_f, method=a.method, undefined=report_policy(a.method, a.undefined), beta=settings.beta
            )
            undefined_here = np.isnan(statistic(tp, fp, fn))
            reps = fold_count_replicates(
                counts, settings.n_resamples, _rng(settings, repeat, j), statistic, chunk=chunk
            )
            per["f_measure"][key] = (
                _ci(None, None, "bootstrap") if undefined_here else _percentile(reps, conf, "bootstrap")
            )
        per["precision"] = {"pooled": _Proportion(int(tp.sum()), int(tp.sum() + fp.sum()), n)}
        per["recall"] = {"pooled": _Proportion(int(tp.sum()), int(tp.sum() + fn.sum()), n)}
        per["accuracy"] = {"pooled": _Proportion(int(tp.sum() + tn.sum()), int(counts.sum()), n)}
        # Per-fold precision and recall with 0 for 0/0, as the report's "avg" values.
        avg["precision"] = {
            "avg": _fold_values_n(
                np.nan_to_num(ratio(tp, tp + fp)),
                n,
                k,
                tp + fp == 0,
                "precision is undefined (no positive predictions)",
            )
        }
        avg["recall"] = {
            "avg": _fold_values_n(
                np.nan_to_num(ratio(tp, tp + fn)), n, k, tp + fn == 0, "recall is undefined (no positives)"
            )
        }
        avg["accuracy"] = {"avg": _fold_values_n((tp + tn) / counts.sum(axis=1), n, k)}
    if table.ranking is not None and table.positive is not None and table.scores is not None:
        rank = table.ranking[0]
        p = placements(table.positive, table.scores)
        if settings.repeated:
            per["roc_auc"] = {"merge": _ci(None, None, "delong", _REPEATED_NONE)}
        elif p.n_pos >= 2 and p.n_neg >= 2:
            half = normal_quantile(conf) * math.sqrt(delong_variance(p))
            per["roc_auc"] = {"merge": _ci(p.auc - half, p.auc + half, "delong")}
        else:
            per["roc_auc"] = {
                "merge": _ci(None, None, "delong", "DeLong needs at least two positives and two negatives")
            }
        per["average_precision"] = {
            "merge": {**NO_INTERVAL, "reason": "apples has no interval for merged average precision"}
        }
        avg["roc_auc"] = {"avg": _fold_values_n(rank.auc, n, k)}
        avg["average_precision"] = {"avg": _fold_values_n(rank.ap, n, k)}
    return {"repeat": per, "avg": avg}


# -- multi-class -----------------------------------------------------------------------------------
def multiclass_intervals(
    table: RepeatTable,
    values: Mapping[str, Any],
    train: np.ndarray | None,
    settings: IntervalSettings,
    repeat: int,
) -> dict[str, Any]:
    """One repeat's intervals of the multi-class report, from its table and the per-fold values it computed."""
    _fold_values_n = functools.partial(_fold_values, n_cases=settings.n_cases)
    m = table.confusion
    assert m is not None
    conf = settings.confidence
    k, n = m.shape[0], int(m.sum())

    def statistic(tp: np.ndarray, predicted: np.ndarray, true: np.ndarray) -> dict:
        return average_sections(tp, predicted - tp, true - tp, train)

    if settings.repeated:  # no bootstrap under repeats: the same None for every pooled average
        reps = {section: dict.fromkeys(by_key) for section, by_key in values["_per_fold"].items()}
    else:
        reps = label_table_replicates(
            m, settings.n_resamples, _rng(settings, repeat, 0), statistic, chunk_cells=_CHUNK_CELLS
        )
    # Single-label data: every case is one prediction and one gold label, so micro precision and micro
    # recall are both the accuracy, correct / n, and share its Wilson interval.
    correct = _Proportion(int(np.trace(m.sum(axis=0))), n, n)
    per: dict[str, Any] = {"accuracy": {"pooled": correct}}
    avg: dict[str, Any] = {}
    per_fold = values["_per_fold"]
    for section, by_key in reps.items():
        per[section], avg[section] = {}, {}
        for key, replicates in by_key.items():
            if section in ("precision", "recall") and key == "micro":
                per[section][key] = {"pooled": correct}
            elif replicates is None:
                per[section][key] = {"pooled": _ci(None, None, "bootstrap", _REPEATED_NONE)}
            else:
                per[section][key] = {"pooled": _percentile(replicates, conf, "bootstrap")}
            avg[section][key] = {"avg": _fold_values_n(per_fold[section][key], n, k)}
    avg["accuracy"] = {"avg": _fold_values_n([np.trace(m[f]) / m[f].sum() for f in range(k)], n, k)}
    if table.ranking is not None:
        per["roc_auc"] = {
            "macro_ovr": {"merge": {**NO_INTERVAL, "reason": "apples has no interval for the merged macro AUC"}}
        }
        avg["roc_auc"] = {"macro_ovr": {"avg": _fold_values_n(values["_fold_auc"], n, k)}}
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


class _Proportion(NamedTuple):
    """A pooled proportion of one repeat: ``hits`` of ``total``, in a repeat of ``cases`` cases (for Wilson)."""

    hits: int
    total: int
    cases: int


def _leaf(x: Any) -> bool:
    return isinstance(x, _Proportion) or (isinstance(x, dict) and "method" in x)


def _over_repeats(leaves: list[Any], confidence: float, repeated: bool) -> dict[str, Any]:
    """One value's interval from its repeats' (see the module docstring: never the mean of the ends)."""
    first = leaves[0]
    if isinstance(first, _Proportion):
        if not repeated:
            return _wilson(first.hits, first.total, confidence)
        if any(p.total == 0 for p in leaves):
            return _ci(None, None, "wilson (mean over repeats)", "the pooled value is 0/0 in some repeat")
        mean = math.fsum(p.hits / p.total for p in leaves) / len(leaves)
        # n: the cases behind one repeat's proportion (its denominator), as a mean over the repeats
        n = math.fsum(p.total for p in leaves) / len(leaves)
        low, high = proportion_interval(mean * n, n, confidence, "wilson")  # type: ignore[arg-type]
        return _ci(low, high, "wilson (mean over repeats)")
    if not repeated or first["method"] == "none":
        return dict(first)
    return _ci(None, None, first["method"], _REPEATED_NONE)


def _corrected_t(parts: list[_FoldValues], confidence: float) -> dict[str, Any]:
    """Nadeau & Bengio's corrected t over one repeat's k fold values; Bouckaert & Frank's corrected repeated
    k-fold t over all r·k values with repeats (the same formula, ``1/(r·k) + n_test/n_train``, r·k − 1 df)."""
    method = "corrected_t" if len(parts) == 1 else "corrected_repeated_t"
    every = [p.all_substituted for p in parts if p.all_substituted]
    if len(every) == len(parts):
        return _ci(None, None, method, every[0])
    values = np.array([v for p in parts for v in p.values])
    if values.size < 2:
        return _ci(None, None, method, "fewer than two folds with a defined value")
    if any(p.n_train == 0 for p in parts):
        return _ci(None, None, method, "a hold-out split's training size is unknown: give CVPredictions n_cases=")
    n_train = round(sum(p.n_train for p in parts) / len(parts))
    n_test = round(sum(p.n_test for p in parts) / len(parts))
    _, low, high = fold_t_interval(values, confidence, n_train=n_train, n_test=n_test, corrected=True)
    return _ci(
        low, high, method, "every fold has the same value: the t interval has width 0, which does not mean certainty"
    )


def _combine(trees: list, leaf: Any) -> Any:
    first = trees[0]
    if isinstance(first, dict) and not _leaf(first):
        return {key: _combine([t[key] for t in trees], leaf) for key in first}
    return leaf(trees)


def combine_intervals(per_repeat: list[dict[str, Any]], settings: IntervalSettings) -> dict[str, Any]:
    """The report's ``"intervals"`` section from every repeat's :func:`binary_intervals` (or multi-class)."""
    repeated = len(per_repeat) > 1
    pooled = _combine([r["repeat"] for r in per_repeat], lambda cis: _over_repeats(cis, settings.confidence, repeated))
    avg = _combine([r["avg"] for r in per_repeat], lambda parts: _corrected_t(parts, settings.confidence))
    return {
        "confidence": settings.confidence,
        "n_resamples": settings.n_resamples,
        "seed": settings.seed,
        **_merge([pooled, avg]),
    }
