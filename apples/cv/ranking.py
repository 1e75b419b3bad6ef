"""Ranking measures under cross-validation: AUC_avg against AUC_merge (Forman & Scholz 2010 §3).

Introduced in notebook 02. :func:`cv_ranking_score` averages a ranking measure over folds
(``method="avg"``) or computes it once on the merged scores (``method="merge"``); merging is only
meaningful when the folds' scores are calibrated alike (§3.2). :func:`auc_table` shows each fold
beside the merged value and :func:`merge_decomposition` splits the merged AUC into within-fold and
between-fold pairs. Every function takes the cases' labels, scores and fold ids (``folds``), as
:func:`apples.report` does; one sort gives every fold's and the merged AUC and average precision.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Literal, NamedTuple

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from apples._kernels.counting import codes_of
from apples._kernels.ranking import cumulative_counts, fold_ranking, precision_at_k_from_counts
from apples._params import (
    FOLD_IDS,
    LABEL,
    LABELS,
    SCORES,
    BinaryLabels,
    Integer,
    Nullable,
    Options,
    ParameterValueError,
    Policy,
    SameLength,
    SkipNeedsAverage,
    Undefined,
    UndefinedMetricError,
    declare,
    divide,
)

__all__ = [
    "CV_ROC_AUC_METHODS",
    "RANKING_METRICS",
    "MergeDecomposition",
    "auc_table",
    "cv_ranking_score",
    "cv_roc_auc",
    "merge_decomposition",
]

CV_ROC_AUC_METHODS: tuple[str, ...] = ("avg", "merge")
#: The ranking measures :func:`cv_ranking_score` computes, and their names in messages.
RANKING_METRICS: dict[str, str] = {
    "roc_auc": "AUC",
    "average_precision": "average precision",
    "precision_at_k": "precision at k",
}
_TIES = ("expected", "pessimistic", "optimistic")
_CASES = [SameLength("y_true", "y_score", "folds"), BinaryLabels("pos_label", "y_true")]


class _Folds(NamedTuple):
    ids: np.ndarray  #: the sorted fold ids
    code: np.ndarray  #: each case's fold, 0 .. k - 1
    positive: np.ndarray  #: whether each case is a positive


def _folds(y_true: ArrayLike, folds: ArrayLike, pos_label: Hashable) -> _Folds:
    t = np.asarray(y_true)
    if t.size == 0:
        raise ParameterValueError("y_true is empty: there are no cases, hence no folds", param="y_true")
    ids, code = codes_of(np.asarray(folds))
    return _Folds(ids, code, t == pos_label)


def _per_fold(f: _Folds, scores: np.ndarray, metric: str, k: int | None, ties: str) -> tuple[np.ndarray, float]:
    """The measure of every fold (NaN where undefined) and of the merged scores."""
    if metric in ("roc_auc", "average_precision"):
        r = fold_ranking(f.positive, scores, f.code, f.ids.size)
        return (r.auc, r.auc_merge) if metric == "roc_auc" else (r.ap, r.ap_merge)
    assert k is not None

    def at_k(rows: np.ndarray | slice) -> float:
        c = cumulative_counts(f.positive[rows], scores[rows])
        return precision_at_k_from_counts(c, k, ties) if k <= f.positive[rows].size else float("nan")

    per = np.array([at_k(np.flatnonzero(f.code == i)) for i in range(f.ids.size)])
    return per, at_k(slice(None))


def _fold_name(ids: np.ndarray, i: int) -> str:
    value = ids[i].item() if isinstance(ids[i], np.generic) else ids[i]
    return f"fold {value!r}"


@declare(
    y_true=LABELS,
    y_score=SCORES,
    folds=FOLD_IDS,
    metric=Options(*RANKING_METRICS),
    method=Options(*CV_ROC_AUC_METHODS),
    undefined=Undefined("raise", "nan", "skip"),
    pos_label=LABEL,
    k=Nullable(Integer(1, None)),
    ties=Options(*_TIES),
    relations=[*_CASES, SkipNeedsAverage("merge")],
)
def cv_ranking_score(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    folds: ArrayLike,
    metric: Literal["roc_auc", "average_precision", "precision_at_k"],
    method: Literal["avg", "merge"],
    undefined: Policy = "raise",
    pos_label: Hashable = 1,
    k: int | None = None,
    ties: Literal["expected", "pessimistic", "optimistic"] = "expected",
) -> float:
    """A ranking measure under cross-validation, averaged per fold or on the merged scores.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels (two classes) and scores (higher = more positive) of every case.
    folds : array-like of shape (n,)
        The fold id of each case.
    metric : {"roc_auc", "average_precision", "precision_at_k"}
        The ranking measure (:func:`apples.roc_auc`, :func:`apples.average_precision`,
        :func:`apples.precision_at_k` with ``k`` and ``ties``).
    method : {"avg", "merge"}
        ``"avg"``: the measure on each fold, then the mean (AUC_avg of Forman & Scholz §2.4, and their
        advice for precision at 20 and MAP, §3.2). ``"merge"``: all folds' scores ranked together
        (AUC_merge), meaningful only if the fold classifiers are calibrated with each other.
    undefined : {"raise", "nan", "skip"}, default "raise"
        A fold where the measure is 0/0 (one class for AUC, no positives for average precision, fewer
        than k cases for precision at k): raise an error naming the fold, return NaN, or leave the fold
        out of the average (NaN if every fold is left out; ``"skip"`` is for ``"avg"`` only). With
        ``"merge"`` only the merged scores can be undefined.
    pos_label : label, default 1
        The positive class.
    k : int, optional
        The cut-off of ``"precision_at_k"`` (required there, refused otherwise).
    ties : {"expected", "pessimistic", "optimistic"}, default "expected"
        How ``"precision_at_k"`` counts a tie group that straddles position k.

    Returns
    -------
    float

    References
    ----------
    Forman & Scholz (2010) §2.4 (AUC_avg, AUC_merge, Exceptions) and §3.2.

    Examples
    --------
    Two folds that each rank perfectly, but on different scales:

    >>> from apples import cv_ranking_score
    >>> y, s, f = [1, 0, 0, 1, 0, 0], [0.9, 0.8, 0.7, 0.3, 0.2, 0.1], [0, 0, 0, 1, 1, 1]
    >>> cv_ranking_score(y, s, folds=f, metric="roc_auc", method="avg")
    1.0
    >>> cv_ranking_score(y, s, folds=f, metric="roc_auc", method="merge")  # fold 1 ranks below fold 0
    0.75
    >>> cv_ranking_score(y, s, folds=f, metric="precision_at_k", k=1, method="avg")
    1.0
    """
    if (metric == "precision_at_k") != (k is not None):
        raise ParameterValueError(
            "k is the cut-off of metric='precision_at_k': give it there, and only there", param="k"
        )
    f = _folds(y_true, folds, pos_label)
    per, merged = _per_fold(f, np.asarray(y_score), metric, k, ties)
    return _combine(per, merged, f.ids, method, undefined, RANKING_METRICS[metric])


def _combine(
    per: np.ndarray, merged: float, ids: np.ndarray, method: str, undefined: Policy, name: str, why: str = ""
) -> float:
    """AUC_avg-style mean of the per-fold values, or the merged value, under the ``undefined`` policy."""
    if method == "merge":
        if merged != merged and undefined == "raise":
            raise UndefinedMetricError(f"{name} of the merged folds is undefined (0/0){why}; pass undefined='nan'")
        return float(merged)
    bad = np.flatnonzero(np.isnan(per))
    if bad.size and undefined == "raise":
        raise UndefinedMetricError(
            f"{_fold_name(ids, int(bad[0]))}: {name} is undefined (0/0){why}; pass undefined='nan' or 'skip'"
        )
    if bad.size and undefined == "nan":
        return float("nan")
    defined = per[~np.isnan(per)]
    return float(defined.mean()) if defined.size else float("nan")  # "skip" with every fold left out


@declare(
    y_true=LABELS,
    y_score=SCORES,
    folds=FOLD_IDS,
    method=Options(*CV_ROC_AUC_METHODS),
    undefined=Undefined("raise", "nan", "skip"),
    pos_label=LABEL,
    relations=[*_CASES, SkipNeedsAverage("merge")],
)
def cv_roc_auc(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    folds: ArrayLike,
    method: Literal["avg", "merge"],
    undefined: Policy = "raise",
    pos_label: Hashable = 1,
) -> float:
    """Cross-validated AUC: AUC_avg or AUC_merge of Forman & Scholz §2.4.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels (two classes) and scores of every case.
    folds : array-like of shape (n,)
        The fold id of each case.
    method : {"avg", "merge"}
        ``"avg"``: AUC_avg = (1/k) Σ AUC^(i), what Forman & Scholz recommend (§5). ``"merge"``:
        AUC_merge, one ROC curve over all folds' scores, which also penalises fold classifiers that
        are not calibrated with one another (§3.2). No default: the choice is the point.
    undefined : {"raise", "nan", "skip"}, default "raise"
        A fold with only one class has no AUC (§2.4, Exceptions): raise an
        :class:`~apples.UndefinedMetricError` naming the fold, return ``nan`` (as scikit-learn's
        ``cross_val_score`` averages do since 1.6), or skip the fold. Never a silent 0.
    pos_label : label, default 1
        The positive class.

    Returns
    -------
    float

    References
    ----------
    Forman & Scholz (2010) §2.4 (definitions, WEKA, Exceptions), §3.2 (the calibration example), §5
    (recommendation: AUC_avg).

    Examples
    --------
    >>> from apples import cv_roc_auc
    >>> y, s = [1, 0, 0, 1, 1, 0, 0, 0], [0.9, 0.1, 0.4, 0.3, 5.0, 4.0, 1.0, 2.0]
    >>> f = [0, 0, 0, 0, 1, 1, 1, 1]
    >>> cv_roc_auc(y, s, folds=f, method="avg"), cv_roc_auc(y, s, folds=f, method="merge")
    (0.875, 0.5333333333333333)
    """
    f = _folds(y_true, folds, pos_label)
    r = fold_ranking(f.positive, np.asarray(y_score), f.code, f.ids.size)
    return _combine(r.auc, r.auc_merge, f.ids, method, undefined, "AUC", ": the fold holds one class only")


@declare(
    y_true=LABELS,
    y_score=SCORES,
    folds=FOLD_IDS,
    undefined=Undefined("raise", "nan", "skip"),
    pos_label=LABEL,
    relations=_CASES,
)
def auc_table(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    folds: ArrayLike,
    undefined: Policy = "raise",
    pos_label: Hashable = 1,
) -> pd.DataFrame:
    """Per-fold AUC with the fold's class counts, then AUC_avg and AUC_merge.

    One row per fold id (in sorted order) with ``positives``, ``negatives`` and ``auc`` (NaN where
    undefined); row ``"AUC_avg"`` holds the mean over folds and row ``"AUC_merge"`` the merged AUC
    with the class totals, both under the ``undefined`` policy of :func:`cv_roc_auc`.

    Examples
    --------
    >>> from apples import auc_table
    >>> t = auc_table([1, 0, 0, 1, 0, 0], [3, 2, 1, 0.3, 0.2, 0.1], folds=[0, 0, 0, 1, 1, 1])
    >>> t["auc"].tolist()
    [1.0, 1.0, 1.0, 0.75]
    """
    f = _folds(y_true, folds, pos_label)
    r = fold_ranking(f.positive, np.asarray(y_score), f.code, f.ids.size)
    bad = np.flatnonzero(np.isnan(r.auc))
    if bad.size and undefined == "raise":
        raise UndefinedMetricError(
            f"{_fold_name(f.ids, int(bad[0]))}: AUC is undefined: the fold holds one class only; "
            "pass undefined='nan' or 'skip'"
        )
    positives = np.bincount(f.code, weights=f.positive, minlength=f.ids.size).astype(np.int64)
    negatives = np.bincount(f.code, minlength=f.ids.size) - positives
    table = pd.DataFrame(
        {"positives": positives, "negatives": negatives, "auc": r.auc},
        index=pd.Index([v.item() if isinstance(v, np.generic) else v for v in f.ids], name="fold", dtype=object),
    )
    defined = r.auc[~np.isnan(r.auc)]
    avg = float("nan") if (bad.size and undefined == "nan") or not defined.size else float(defined.mean())
    table.loc["AUC_avg", "auc"] = avg
    table.loc["AUC_merge", ["positives", "negatives", "auc"]] = [positives.sum(), negatives.sum(), r.auc_merge]
    for col in ("positives", "negatives"):
        table[col] = table[col].astype("Int64")
    return table


class MergeDecomposition(NamedTuple):
    """AUC_merge split into its within-fold and between-fold pairs (see :func:`merge_decomposition`)."""

    merged: float  #: AUC_merge
    within: float  #: AUC over positive–negative pairs from the same fold
    between: float  #: AUC over pairs whose positive and negative come from different folds
    within_share: float  #: fraction of all pairs that are within-fold, Σ P_k N_k / (P N)


@declare(
    y_true=LABELS,
    y_score=SCORES,
    folds=FOLD_IDS,
    undefined=Undefined("raise", "nan"),
    pos_label=LABEL,
    relations=_CASES,
)
def merge_decomposition(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    folds: ArrayLike,
    undefined: Policy = "raise",
    pos_label: Hashable = 1,
) -> MergeDecomposition:
    """Write AUC_merge as a weighted mean of a within-fold and a between-fold AUC.

    AUC_merge counts every positive–negative pair of the pooled folds. A pair from one fold compares
    two scores of the same model; a pair from two folds compares scores of two different models,
    which only makes sense if they are calibrated with each other (Forman & Scholz §3.2). With
    ``w = Σ_k P_k N_k / (P N)``::

        AUC_merge = w · AUC_within + (1 − w) · AUC_between
        AUC_within = Σ_k P_k N_k AUC_k / Σ_k P_k N_k

    so AUC_within is the pair-weighted AUC_avg (equal to AUC_avg when all folds have the same
    P_k N_k), and the between-fold pairs, usually the large majority, carry the calibration penalty.

    Parameters
    ----------
    y_true, y_score, folds : array-like of shape (n,)
        Labels, scores and fold ids of every case.
    undefined : {"raise", "nan"}, default "raise"
        A part with no pairs (``between`` with one fold, ``within`` when no fold has both classes) or merged
        scores with one class: an AUC of no pairs is undefined, never 0, as for :func:`apples.roc_auc`.
    pos_label : label, default 1
        The positive class.

    Examples
    --------
    >>> from apples import merge_decomposition
    >>> d = merge_decomposition([1, 0, 0, 1, 0, 0], [3, 2, 1, 0.3, 0.2, 0.1], folds=[0, 0, 0, 1, 1, 1])
    >>> d.within, d.between, d.within_share, d.merged   # 4 of 8 pairs are within-fold
    (1.0, 0.5, 0.5, 0.75)
    """
    f = _folds(y_true, folds, pos_label)
    r = fold_ranking(f.positive, np.asarray(y_score), f.code, f.ids.size)
    p = np.bincount(f.code, weights=f.positive, minlength=f.ids.size)
    n = np.bincount(f.code, minlength=f.ids.size) - p
    pairs_all = p.sum() * n.sum()
    merged = r.auc_merge
    if merged != merged:
        merged = divide(0.0, 0.0, undefined=undefined, what="AUC_merge (the pooled folds hold one class)")
    pairs_within = float(np.sum(p * n))
    defined = p * n > 0
    u_within = float(np.sum(r.auc[defined] * (p * n)[defined]))
    u_merged = merged * pairs_all  # nan stays nan
    within = divide(u_within, pairs_within, undefined=undefined, what="AUC_within (no fold has both classes)")
    between = divide(
        u_merged - u_within,
        pairs_all - pairs_within,
        undefined=undefined,
        what="AUC_between (no positive–negative pair spans two folds)",
    )
    share = divide(pairs_within, pairs_all, undefined=undefined, what="within_share (no pairs)")
    return MergeDecomposition(float(merged), float(within), float(between), float(share))
