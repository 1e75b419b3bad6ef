"""Ranking measures under cross-validation: AUC_avg against AUC_merge (Forman & Scholz 2010 §3).

:func:`cv_ranking_score` averages a ranking measure over folds (``method="avg"``)
or computes it once on the merged scores (``method="merge"``); merging is only
meaningful when the folds' scores are calibrated alike (§3.2). :func:`auc_table`
shows each fold beside the merged value and :func:`merge_decomposition` splits
the merged AUC into within-fold and between-fold pairs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, NamedTuple

import numpy as np
import pandas as pd

from apples._params import (
    MAX_EXACT_INT,
    Policy,
    UndefinedMetricError,
    check_choice,
    check_fold_lists,
    check_labels_1d,
    check_policy,
    check_same_label_kind,
    check_scores,
    divide,
    label_kind,
)
from apples.metrics.ranking import average_precision, precision_at_k, roc_auc

__all__ = [
    "CV_ROC_AUC_METHODS",
    "MergeDecomposition",
    "auc_table",
    "cv_ranking_score",
    "cv_roc_auc",
    "merge_decomposition",
]

CV_ROC_AUC_METHODS: tuple[str, ...] = ("avg", "merge")
_CV_UNDEFINED = ("raise", "nan", "skip")


#: metric name -> (function, name used in error messages)
_METRICS: dict[str, tuple[Callable[..., float], str]] = {
    "roc_auc": (roc_auc, "AUC"),
    "average_precision": (average_precision, "average precision"),
    "precision_at_k": (precision_at_k, "precision at k"),
}


def in_fold(i: int, err: Exception) -> Exception:
    """The same kind of error (ValueError or TypeError), its message prefixed with the fold."""
    cls = TypeError if isinstance(err, TypeError) else ValueError
    return cls(f"fold {i + 1} (index {i}): {err}")


def merge_folds(t_folds: list, s_folds: list) -> tuple[np.ndarray, np.ndarray]:
    """All folds' labels and scores concatenated, each fold checked first (errors name the fold).

    numpy would silently turn ``[1, 0]`` and ``["a", "b"]`` into four string
    labels, and int64 with uint64 scores into float64 (merging distinct scores
    above 2**53): labels of different kinds are a TypeError, and integer
    scores are concatenated in an integer dtype.
    """
    ts, ss = [], []
    for i, (a, b) in enumerate(zip(t_folds, s_folds, strict=True)):
        try:
            ts.append(check_labels_1d("y_true", a))
            ss.append(check_scores("y_score", b))
        except (ValueError, TypeError) as err:
            raise in_fold(i, err) from None
    check_same_label_kind(**{f"fold {i + 1} (index {i}) of y_true_folds": a for i, a in enumerate(ts)})
    merged = np.concatenate(ss)
    ints = [a for a in ss if a.dtype.kind in "iu" and a.size]
    if merged.dtype.kind == "f" and ints:
        lo, hi = min(int(a.min()) for a in ints), max(int(a.max()) for a in ints)
        if all(a.dtype.kind in "iu" or not a.size for a in ss):
            for dtype in (np.int64, np.uint64):
                if np.iinfo(dtype).min <= lo and hi <= np.iinfo(dtype).max:
                    return np.concatenate(ts), np.concatenate([a.astype(dtype) for a in ss])
        if max(-lo, hi) > MAX_EXACT_INT or all(a.dtype.kind in "iu" or not a.size for a in ss):
            raise ValueError(
                "y_score_folds cannot be ranked together exactly: some folds hold integer scores "
                f"(from {lo} to {hi}) that no one dtype holds together with the other folds' scores "
                "(float64 rounds integers beyond 2**53); give every fold scores of one dtype"
            )
    return np.concatenate(ts), merged


def cv_ranking_score(
    y_true_folds,
    y_score_folds,
    *,
    metric,
    method: Literal["avg", "merge"],
    undefined: Literal["raise", "nan", "skip"] = "raise",
    **metric_options,
) -> float:
    """A ranking metric under cross-validation, averaged per fold or on the merged scores.

    Parameters
    ----------
    y_true_folds, y_score_folds : sequence of array-like
        One array of labels and one of scores per test fold.
    metric : {"roc_auc", "average_precision", "precision_at_k"} or callable
        The ranking metric; a callable ``f(y_true, y_score, **metric_options)``
        must raise :class:`~apples.UndefinedMetricError` where it is undefined.
    method : {"avg", "merge"}
        ``"avg"``: the metric on each fold, then the mean (AUC_avg of Forman &
        Scholz §2.4, and their advice for precision at 20 and MAP, §3.2).
        ``"merge"``: all folds' scores concatenated and ranked together
        (AUC_merge), meaningful only if the fold classifiers are calibrated
        with each other.
    undefined : {"raise", "nan", "skip"}, default "raise"
        What to do with a fold where the metric is undefined (e.g. a fold
        with one class for AUC): raise an error naming the fold (counted
        from 1, with its 0-based index), return
        ``nan`` for the whole cross-validation, or skip the fold and average
        the rest (an error if every fold is undefined). With ``"merge"`` only
        the pooled scores can be undefined; ``"skip"`` then has nothing left
        and raises.
    **metric_options
        Passed to the metric, e.g. ``k=20`` for ``"precision_at_k"``.

    Returns
    -------
    float

    Raises
    ------
    UndefinedMetricError
        Under ``undefined="raise"`` for an undefined fold (named), and under
        ``"skip"`` when every fold is undefined.
    ValueError, TypeError
        Unknown ``metric``/``method``/``undefined``, fold lists of different
        lengths or empty, an empty fold, a fold whose labels and scores differ
        in length, or bad labels/scores in a fold (the message names the
        fold); with ``"merge"``, folds whose labels are of different kinds.

    References
    ----------
    Forman & Scholz (2010) §2.4 (AUC_avg, AUC_merge, Exceptions) and §3.2.

    Examples
    --------
    Two folds that each rank perfectly, but on different scales:

    >>> y = [[1, 0, 0], [1, 0, 0]]
    >>> s = [[0.9, 0.8, 0.7], [0.3, 0.2, 0.1]]
    >>> cv_ranking_score(y, s, metric="roc_auc", method="avg")
    1.0
    >>> cv_ranking_score(y, s, metric="roc_auc", method="merge")   # fold 2's positive is below fold 1's negatives
    0.75
    >>> cv_ranking_score(y, s, metric="precision_at_k", k=1, method="avg"), \
cv_ranking_score(y, s, metric="precision_at_k", k=2, method="merge")
    (1.0, 0.5)
    """
    if isinstance(metric, str):
        func, name = _METRICS[check_choice("metric", metric, tuple(_METRICS))]
    elif callable(metric):
        func, name = metric, getattr(metric, "__name__", "metric")
    else:
        raise TypeError(f"metric must be a metric name or a callable, got {type(metric).__name__}")
    check_choice("method", method, CV_ROC_AUC_METHODS)
    check_choice("undefined", undefined, _CV_UNDEFINED)
    t_folds, s_folds = check_fold_lists(y_true_folds, y_score_folds)
    if method == "merge":
        t, s = merge_folds(t_folds, s_folds)
        try:
            return float(func(t, s, **metric_options))
        except UndefinedMetricError as err:
            if undefined == "nan":
                return float("nan")
            raise UndefinedMetricError(f"the merged folds: {err}") from None
    values = []
    undefined_folds = []
    for i, (t, s) in enumerate(zip(t_folds, s_folds, strict=True)):
        try:
            values.append(float(func(t, s, **metric_options)))
        except UndefinedMetricError as err:
            if undefined == "raise":
                raise UndefinedMetricError(f"fold {i + 1} (index {i}): {err}; pass undefined='nan' or 'skip'") from None
            undefined_folds.append(i)
        except (ValueError, TypeError) as err:
            raise in_fold(i, err) from None
    if undefined_folds and undefined == "nan":
        return float("nan")
    if not values:
        raise UndefinedMetricError(f"{name} is undefined in every one of the {len(t_folds)} folds; nothing to average")
    return float(np.mean(values))


def cv_roc_auc(
    y_true_folds,
    y_score_folds,
    *,
    method: Literal["avg", "merge"],
    undefined: Literal["raise", "nan", "skip"] = "raise",
    pos_label=1,
) -> float:
    """Cross-validated AUC: AUC_avg or AUC_merge of Forman & Scholz §2.4.

    Parameters
    ----------
    y_true_folds, y_score_folds : sequence of array-like
        One array of labels and one of scores per test fold.
    method : {"avg", "merge"}
        ``"avg"``: AUC_avg = (1/k) Σ AUC^(i), what Forman & Scholz recommend
        (§5). ``"merge"``: AUC_merge, one ROC curve over all folds' scores,
        which also penalises fold classifiers that are not calibrated with
        one another (§3.2). No default: the choice is the point.
    undefined : {"raise", "nan", "skip"}, default "raise"
        A fold with only one class has no AUC (§2.4, Exceptions): raise an
        :class:`~apples.UndefinedMetricError` naming the fold, return ``nan``
        (as scikit-learn's ``cross_val_score`` averages do since 1.6), or skip
        the fold. Never a silent 0.
    pos_label : label, default 1
        The positive class.

    Returns
    -------
    float

    References
    ----------
    Forman & Scholz (2010) §2.4 (definitions, WEKA, Exceptions), §3.2
    (the calibration example), §5 (recommendation: AUC_avg).

    Examples
    --------
    >>> y = [[1, 0, 0, 1], [1, 0, 0, 0]]
    >>> s = [[0.9, 0.1, 0.4, 0.3], [5.0, 4.0, 1.0, 2.0]]
    >>> cv_roc_auc(y, s, method="avg"), cv_roc_auc(y, s, method="merge")
    (0.875, 0.5333333333333333)
    >>> cv_roc_auc([[1, 0], [0, 0]], [[0.9, 0.1], [0.3, 0.2]], method="avg", undefined="skip")
    1.0
    """
    return cv_ranking_score(
        y_true_folds, y_score_folds, metric="roc_auc", method=method, undefined=undefined, pos_label=pos_label
    )


def auc_table(y_true_folds, y_score_folds, *, undefined: Literal["raise", "nan", "skip"] = "raise") -> pd.DataFrame:
    """Per-fold AUC with the fold's class counts, then AUC_avg and AUC_merge.

    Labels are 1 (positive) and anything else (negative). Rows ``1..k`` hold
    ``positives``, ``negatives`` and ``roc_auc`` of each fold
    (NaN where undefined, under ``undefined="nan"`` or ``"skip"``); row
    ``"AUC_avg"`` and row ``"AUC_merge"`` hold :func:`~apples.cv_roc_auc`
    with the given ``undefined`` policy.

    Examples
    --------
    >>> t = auc_table([[1, 0, 0], [1, 0, 0]], [[3, 2, 1], [0.3, 0.2, 0.1]])
    >>> t["auc"].tolist()
    [1.0, 1.0, 1.0, 0.75]
    """
    aggregates = {
        f"AUC_{m}": cv_roc_auc(y_true_folds, y_score_folds, method=m, undefined=undefined) for m in ("avg", "merge")
    }  # validates, and raises naming the fold under "raise"
    rows = []
    for t, s in zip(y_true_folds, y_score_folds, strict=True):
        t = np.asarray(t)
        rows.append(
            {"positives": int((t == 1).sum()), "negatives": int((t != 1).sum()), "auc": roc_auc(t, s, undefined="nan")}
        )
    table = pd.DataFrame(rows, index=pd.Index(range(1, len(rows) + 1), name="fold", dtype=object))
    for name, value in aggregates.items():
        table.loc[name, "auc"] = value
    table.loc["AUC_merge", ["positives", "negatives"]] = (
        table[["positives", "negatives"]].iloc[: len(rows)].sum().to_numpy()
    )
    for col in ("positives", "negatives"):
        table[col] = table[col].astype("Int64")
    return table


def _positive_folds(y_true_folds: list) -> list[np.ndarray]:
    """Each fold's labels checked (errors name the fold) and read as booleans: label 1 is positive."""
    out = []
    for i, t in enumerate(y_true_folds):
        try:
            t = check_labels_1d("y_true", t)
        except (ValueError, TypeError) as err:
            raise in_fold(i, err) from None
        if label_kind(t) != "number":
            raise TypeError(
                f"fold {i + 1} (index {i}): y_true must hold numeric labels, 1 = positive, got {t[:5].tolist()}"
            )
        out.append(t == 1)
    return out


class MergeDecomposition(NamedTuple):
    """AUC_merge split into its within-fold and between-fold pairs (see :func:`merge_decomposition`)."""

    merged: float  #: AUC_merge
    within: float  #: AUC over positive–negative pairs from the same fold
    between: float  #: AUC over pairs whose positive and negative come from different folds
    within_share: float  #: fraction of all pairs that are within-fold, Σ P_k N_k / (P N)


def merge_decomposition(y_true_folds, y_score_folds, *, undefined: Policy = "raise") -> MergeDecomposition:
    """Write AUC_merge as a weighted mean of a within-fold and a between-fold AUC.

    AUC_merge counts every positive–negative pair of the pooled folds. A pair
    from one fold compares two scores of the same model; a pair from two
    folds compares scores of two different models, which only makes sense if
    they are calibrated with each other (Forman & Scholz §3.2). With
    ``w = Σ_k P_k N_k / (P N)``::

        AUC_merge = w · AUC_within + (1 − w) · AUC_between
        AUC_within = Σ_k P_k N_k AUC_k / Σ_k P_k N_k

    so AUC_within is the pair-weighted AUC_avg (equal to AUC_avg when all
    folds have the same P_k N_k), and the between-fold pairs, usually the
    large majority, carry the calibration penalty.

    Parameters
    ----------
    y_true_folds, y_score_folds : sequence of array-like
        Labels (1 = positive) and scores per fold.
    undefined : {"zero", "nan", "raise"}, default "raise"
        Policy for a part with no pairs (e.g. ``between`` with one fold) or
        pooled scores with one class.

    Examples
    --------
    >>> d = merge_decomposition([[1, 0, 0], [1, 0, 0]], [[3, 2, 1], [0.3, 0.2, 0.1]])
    >>> d.within, d.between, d.within_share, d.merged   # 4 of 8 pairs are within-fold
    (1.0, 0.5, 0.5, 0.75)
    """
    check_policy(undefined)
    y_true_folds, s_folds = check_fold_lists(y_true_folds, y_score_folds)
    t_folds = _positive_folds(y_true_folds)
    merged = cv_roc_auc([t.astype(int) for t in t_folds], s_folds, method="merge", undefined="nan")
    p = np.array([t.sum() for t in t_folds], dtype=float)
    n = np.array([t.size for t in t_folds], dtype=float) - p
    pairs_all = p.sum() * n.sum()
    if merged != merged:
        merged = divide(0.0, 0.0, undefined=undefined, what="AUC_merge (the pooled folds hold one class)")
    pairs_within = float(np.sum(p * n))
    u_within = sum(
        roc_auc(t.astype(int), s) * pk * nk for t, s, pk, nk in zip(t_folds, s_folds, p, n, strict=True) if pk * nk > 0
    )
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
