"""Vectorised per-fold counting and ranking for :func:`apples.report`: one sort for every fold and the merge.

The report needs, for every fold and for all folds merged, the confusion counts,
ROC AUC and average precision. Calling :func:`apples.roc_auc` per fold and once
more on the merged scores sorts the data twice; here the merged scores are
sorted once, the per-fold orders are read off that sort with a stable counting
sort on the fold codes, and every ranking value comes from group sums (a group
is a run of tied scores within one fold, or within the merge). The values are
the definitions of :func:`apples.roc_auc` (the Mann–Whitney statistic with ties
counted one half) and :func:`apples.average_precision` (scikit-learn's step
sum over distinct thresholds); ``tests/test_report.py`` checks them against
both functions and scikit-learn.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = [
    "FoldRanking",
    "codes_of",
    "confusion_by_fold",
    "fold_ranking",
]


class FoldRanking(NamedTuple):
    """ROC AUC and average precision per fold (NaN where undefined) and on the merged scores."""

    auc: np.ndarray
    ap: np.ndarray
    auc_merge: float
    ap_merge: float


def codes_of(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The sorted distinct values of a checked 1-d label array and each element's position among them.

    Small-range integers (fold ids, 0/1 labels) are coded with one subtraction and
    a ``bincount`` instead of ``np.unique``'s sort.
    """
    if values.dtype.kind in "iu" and values.size:
        lo, hi = int(values.min()), int(values.max())
        if hi - lo < 1 << 16:
            present = np.flatnonzero(np.bincount((values - lo).astype(np.intp, copy=False), minlength=hi - lo + 1))
            lut = np.full(hi - lo + 1, -1, dtype=np.intp)
            lut[present] = np.arange(present.size)
            return (present + lo).astype(values.dtype), lut[values - lo]
    uniq, inverse = np.unique(values, return_inverse=True)
    return uniq, inverse.reshape(-1)


def confusion_by_fold(fold: np.ndarray, truth: np.ndarray, pred: np.ndarray, n_folds: int, n_labels: int) -> np.ndarray:
    """Confusion matrices, shape ``(n_folds, n_labels, n_labels)``: ``[f, i, j]`` counts truth i predicted j."""
    q = n_labels
    flat = (fold.astype(np.int64) * q + truth) * q + pred
    return np.bincount(flat, minlength=n_folds * q * q).reshape(n_folds, q, q)


def _segments(scores: np.ndarray, positive: np.ndarray, seg: np.ndarray, n_seg: int) -> tuple[np.ndarray, np.ndarray]:
    """AUC and AP of each segment of ``scores``, sorted ascending within each segment (``seg`` non-decreasing).

    A group is a run of equal scores within a segment. With ``pos_g``, ``neg_g``
    its positives and negatives, ``below`` the negatives of lower groups in the
    segment, P and N the segment's totals:

    * AUC = Σ pos_g (below + neg_g / 2) / (P N)   (Forman & Scholz §2.4; ties count 1/2);
    * AP  = Σ pos_g / P · precision at the group's threshold, the precision of
      everything scored at or above it (scikit-learn's step sum).
    """
    n = scores.size
    start = np.empty(n, dtype=bool)
    start[0] = True
    np.not_equal(scores[1:], scores[:-1], out=start[1:])
    start[1:] |= seg[1:] != seg[:-1]
    first = np.flatnonzero(start)
    size = np.diff(np.append(first, n))
    pos_g = np.add.reduceat(positive.astype(np.int64), first)
    neg_g = size - pos_g
    seg_g = seg[first]
    p_seg = np.bincount(seg_g, weights=pos_g, minlength=n_seg)
    n_seg_tot = np.bincount(seg_g, weights=neg_g, minlength=n_seg)
    offset_neg = np.concatenate([[0.0], np.cumsum(n_seg_tot)[:-1]])
    offset_pos = np.concatenate([[0.0], np.cumsum(p_seg)[:-1]])
    below_neg = np.cumsum(neg_g) - neg_g - offset_neg[seg_g]
    below_pos = np.cumsum(pos_g) - pos_g - offset_pos[seg_g]
    below_all = below_neg + below_pos
    twice = np.bincount(seg_g, weights=pos_g * (2 * below_neg + neg_g), minlength=n_seg)
    at_or_above_pos = p_seg[seg_g] - below_pos
    at_or_above = (p_seg + n_seg_tot)[seg_g] - below_all
    ap_terms = np.bincount(seg_g, weights=pos_g * (at_or_above_pos / at_or_above), minlength=n_seg)
    with np.errstate(divide="ignore", invalid="ignore"):
        auc = np.where((p_seg > 0) & (n_seg_tot > 0), twice / (2.0 * p_seg * n_seg_tot), np.nan)
        ap = np.where(p_seg > 0, ap_terms / p_seg, np.nan)
    return auc, ap


def fold_ranking(positive: np.ndarray, scores: np.ndarray, fold: np.ndarray, n_folds: int) -> FoldRanking:
    """Per-fold and merged ROC AUC and average precision of checked scores, from one sort.

    Parameters
    ----------
    positive : bool array of shape (n,)
        Whether each case is a positive.
    scores : array of shape (n,)
        Checked scores (:func:`apples._params.check_scores` output: float64 or an integer dtype, ranked exactly).
    fold : int array of shape (n,)
        Fold codes ``0 .. n_folds - 1``.
    """
    order = np.argsort(scores)
    merged_scores = scores[order]
    merged_pos = positive[order]
    auc_m, ap_m = _segments(merged_scores, merged_pos, np.zeros(scores.size, dtype=np.intp), 1)
    small = np.uint8 if n_folds <= 256 else np.uint16 if n_folds <= 1 << 16 else np.int64
    fold_sorted = fold[order].astype(small)
    perm = np.argsort(fold_sorted, kind="stable")  # a radix sort for 8- and 16-bit keys
    auc, ap = _segments(merged_scores[perm], merged_pos[perm], fold_sorted[perm].astype(np.intp), n_folds)
    return FoldRanking(auc, ap, float(auc_m[0]), float(ap_m[0]))
