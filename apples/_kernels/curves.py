"""Curves of several folds on one axis: ROC curves averaged vertically (Fawcett 2006 §7.1) and precision-recall
curves averaged at fixed recall.

Each fold's curve is sampled on a common grid of the horizontal rate and the folds' values are averaged: the
"vertical averaging" of Fawcett (2006), "An introduction to ROC analysis", Pattern Recognition Letters 27,
§7.1, Algorithm 3 (TPR_FOR_FPR: the highest ROC point at that FPR, or linear interpolation between the points
on either side). A precision-recall curve is a step function of recall (average precision sums
``(R_t - R_{t-1}) P_t``, so the precision of recall ``r`` is that of the first threshold reaching ``r``),
sampled so. With case weights each case counts its weight at every threshold, as scikit-learn's ``roc_curve`` and
``precision_recall_curve`` count them with ``sample_weight=``. Arrays in, arrays out; no checks.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["CurveCounts", "curve_counts", "pr_points", "precision_at_recall", "tpr_at_fpr", "weighted_moments"]


class CurveCounts(NamedTuple):
    """The (weighted) true and false positives at each distinct threshold, in decreasing threshold order."""

    thresholds: np.ndarray  #: the distinct scores, decreasing, in the scores' dtype
    tp: np.ndarray  #: float64: the weight of the positives scored at or above the threshold
    fp: np.ndarray  #: float64: the weight of the negatives scored at or above the threshold
    n_pos: float  #: the positives' total weight
    n_neg: float  #: the negatives' total weight


def curve_counts(positive: np.ndarray, scores: np.ndarray, weights: np.ndarray | None = None) -> CurveCounts:
    """True and false positives at every distinct threshold (a tie group is one threshold), each case counting
    its weight (1 without ``weights``). Scores are compared, never subtracted or negated: integers stay exact.

    >>> c = curve_counts(np.array([True, False, True]), np.array([0.9, 0.5, 0.5]), np.array([1.0, 2.0, 0.5]))
    >>> c.thresholds.tolist(), c.tp.tolist(), c.fp.tolist(), c.n_pos, c.n_neg
    ([0.9, 0.5], [1.0, 1.5], [0.0, 2.0], 1.5, 2.0)
    """
    order = np.argsort(scores, kind="stable")[::-1]
    s = scores[order]
    p = positive[order].astype(bool)
    w = np.ones(s.size) if weights is None else np.asarray(weights, dtype=np.float64)[order]
    if s.size == 0:
        empty = np.zeros(0)
        return CurveCounts(s, empty, empty, 0.0, 0.0)
    last_of_group = np.r_[np.flatnonzero(s[1:] != s[:-1]), s.size - 1]
    tp = np.cumsum(np.where(p, w, 0.0))[last_of_group]
    fp = np.cumsum(np.where(p, 0.0, w))[last_of_group]
    return CurveCounts(s[last_of_group], tp, fp, float(tp[-1]), float(fp[-1]))


def weighted_moments(values: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The weighted mean and standard deviation over the rows of ``values`` (weights summing to 1), column by column.

    >>> mean, sd = weighted_moments(np.array([[0.0, 1.0], [1.0, 1.0]]), np.array([0.5, 0.5]))
    >>> mean.tolist(), sd.tolist()
    ([0.5, 1.0], [0.5, 0.0])
    """
    mean = np.zeros(values.shape[1])
    for w, row in zip(weights.tolist(), values, strict=True):  # row by row: the same bits on every CPU
        mean += w * row
    var = np.zeros(values.shape[1])
    for w, row in zip(weights.tolist(), values, strict=True):
        var += w * (row - mean) ** 2
    return mean, np.sqrt(var)


def tpr_at_fpr(fpr: np.ndarray, tpr: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """The ROC curve's TPR at each FPR of ``grid`` (Fawcett 2006, Algorithm 3).

    ``fpr`` and ``tpr`` are the curve's points from the origin on (FPR non-decreasing). At an FPR the curve
    reaches, the highest TPR there (the top of a vertical step); between two points, the straight line
    joining them (the ROC segment of a group of tied scores, or the step's diagonal).

    >>> tpr_at_fpr(np.array([0.0, 0.0, 0.5, 1.0]), np.array([0.0, 0.5, 1.0, 1.0]), np.array([0.0, 0.25, 0.5, 1.0]))
    array([0.5 , 0.75, 1.  , 1.  ])
    """
    last = np.searchsorted(fpr, grid, side="right") - 1  # the last point with FPR <= x: the top of its step
    last = np.clip(last, 0, fpr.size - 1)
    nxt = np.minimum(last + 1, fpr.size - 1)
    x0, x1, y0, y1 = fpr[last], fpr[nxt], tpr[last], tpr[nxt]
    with np.errstate(invalid="ignore", divide="ignore"):
        slope = np.where(x1 > x0, (y1 - y0) / (x1 - x0), 0.0)
    return np.where(grid == x0, y0, y0 + slope * (grid - x0))


def pr_points(tp: np.ndarray, fp: np.ndarray, n_pos: float) -> tuple[np.ndarray, np.ndarray]:
    """Recall and precision at each threshold (cumulative counts, decreasing thresholds); NaN without positives.

    >>> pr_points(np.array([1, 1, 2]), np.array([0, 1, 2]), 2)
    (array([0.5, 0.5, 1. ]), array([1. , 0.5, 0.5]))
    """
    with np.errstate(invalid="ignore", divide="ignore"):
        return tp / n_pos, tp / (tp + fp)


def precision_at_recall(recall: np.ndarray, precision: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """Precision at each recall of ``grid``: that of the first threshold whose recall reaches it (a step curve).

    >>> precision_at_recall(np.array([0.5, 0.5, 1.0]), np.array([1.0, 0.5, 0.5]), np.array([0.0, 0.5, 0.75, 1.0]))
    array([1. , 1. , 0.5, 0.5])
    """
    first = np.clip(np.searchsorted(recall, grid, side="left"), 0, recall.size - 1)
    return precision[first]
