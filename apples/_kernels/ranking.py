"""Ranking measures from one sort: cumulative counts over thresholds, and ROC AUC and average precision
of every fold and of all folds merged.

Scores of any real dtype are ranked exactly as given: integers (int64, uint64) are never converted
to float nor negated (a uint64 would wrap around, the int64 minimum overflow), and neighbours are
compared rather than subtracted (``1e308 - (-1e308)`` overflows). A threshold t predicts positive
for ``score >= t``; a group of tied scores is one threshold, one diagonal ROC step.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = [
    "CumulativeCounts",
    "FoldRanking",
    "ap_from_counts",
    "auc_from_counts",
    "cumulative_counts",
    "fold_ranking",
    "precision_at_k_from_counts",
    "roc_points",
]


class CumulativeCounts(NamedTuple):
    """Counts at each distinct threshold, in decreasing threshold order."""

    thresholds: np.ndarray  #: distinct scores, decreasing, in the scores' dtype (integers stay exact)
    tp: np.ndarray  #: positives with score >= threshold
    fp: np.ndarray  #: negatives with score >= threshold
    n_pos: int
    n_neg: int

    def with_origin(self) -> CumulativeCounts:
        """The same counts with the ROC origin first: threshold +inf, TP = FP = 0 (nothing predicted positive).

        The thresholds become float64 to hold +inf: integer scores above 2**53 may then print
        alike, but they remain distinct thresholds, one per distinct score, with their own counts.

        >>> c = cumulative_counts(np.array([True, False]), np.array([0.9, 0.1])).with_origin()
        >>> c.thresholds.tolist(), c.tp.tolist(), c.fp.tolist()
        ([inf, 0.9, 0.1], [0, 1, 1], [0, 0, 1])
        """
        return CumulativeCounts(
            np.r_[np.inf, self.thresholds], np.r_[0, self.tp], np.r_[0, self.fp], self.n_pos, self.n_neg
        )


def cumulative_counts(is_positive: np.ndarray, scores: np.ndarray) -> CumulativeCounts:
    """TP and FP at every distinct threshold (ties grouped). O(n log n).

    Examples
    --------
    >>> c = cumulative_counts(np.array([True, False, True, False]), np.array([0.9, 0.5, 0.5, 0.1]))
    >>> c.thresholds.tolist(), c.tp.tolist(), c.fp.tolist()
    ([0.9, 0.5, 0.1], [1, 2, 2], [0, 1, 2])
    >>> c = cumulative_counts(np.array([True, False]), np.array([2**53 + 1, 2**53]))
    >>> c.thresholds.tolist(), c.tp.tolist(), c.fp.tolist()
    ([9007199254740993, 9007199254740992], [1, 1], [0, 1])
    """
    # decreasing order without negating; a tie group's order does not matter (only its totals do)
    order = np.argsort(scores, kind="stable")[::-1]
    s = scores[order]
    p = is_positive[order]
    change = np.flatnonzero(s[1:] != s[:-1])
    last_of_group = np.r_[change, s.size - 1]
    # Each group's threshold is its last case in the original order, which the reversal put
    # first here (-0.0 and 0.0 tie; the one reported is the same as with a stable sort).
    first_of_group = np.r_[0, change + 1]
    tp = np.cumsum(p)[last_of_group]
    fp = (np.arange(1, s.size + 1) - np.cumsum(p))[last_of_group]
    return CumulativeCounts(s[first_of_group], tp.astype(np.int64), fp.astype(np.int64), int(p.sum()), int((~p).sum()))


def roc_points(c: CumulativeCounts) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """FPR, TPR and thresholds of the ROC curve from the origin (threshold +inf) on; NaN rates for a missing class.

    >>> fpr, tpr, thr = roc_points(cumulative_counts(np.array([True, False]), np.array([0.9, 0.1])))
    >>> fpr.tolist(), tpr.tolist(), thr.tolist()
    ([0.0, 0.0, 1.0], [0.0, 1.0, 1.0], [inf, 0.9, 0.1])
    """
    o = c.with_origin()
    with np.errstate(divide="ignore", invalid="ignore"):
        return o.fp / o.n_neg, o.tp / o.n_pos, o.thresholds


def auc_from_counts(c: CumulativeCounts) -> float:
    """ROC AUC, the Mann–Whitney probability with ties counting 1/2; NaN without positives or negatives.

    Each negative of a tie group is beaten by every positive above the group and ties with the
    group's positives: ``2U = Σ ΔFP (2 TP_before + ΔTP)``, exact in integers.

    >>> auc_from_counts(cumulative_counts(np.array([True, False, True, False]), np.array([0.9, 0.5, 0.5, 0.1])))
    0.875
    """
    if c.n_pos == 0 or c.n_neg == 0:
        return float("nan")
    tp_before = np.r_[0, c.tp[:-1]]
    d_tp = c.tp - tp_before
    d_fp = np.diff(np.r_[0, c.fp])
    u = np.sum(d_fp * (2 * tp_before + d_tp))
    return float(u / (2.0 * c.n_pos * c.n_neg))


def ap_from_counts(c: CumulativeCounts) -> float:
    """Average precision ``Σ_t (R_t − R_{t−1}) P_t`` over the distinct thresholds; NaN without positives.

    >>> ap_from_counts(cumulative_counts(np.array([True, False, True, False]), np.array([0.9, 0.8, 0.7, 0.1])))
    0.8333333333333333
    """
    if c.n_pos == 0:
        return float("nan")
    d_tp = np.diff(np.r_[0, c.tp])
    return float(np.sum(d_tp * (c.tp / (c.tp + c.fp))) / c.n_pos)


def precision_at_k_from_counts(c: CumulativeCounts, k: int, ties: str) -> float:
    """Precision among the ``k`` highest scores (``1 <= k <= n``); a tie group straddling position k by ``ties``.

    ``"expected"``: the group's ``m`` places hold ``m · p / g`` of its ``p`` positives (the mean over
    its orderings); ``"pessimistic"``: its negatives first; ``"optimistic"``: its positives first.

    >>> c = cumulative_counts(np.array([True, False, True, False, False]), np.array([0.9, 0.8, 0.5, 0.5, 0.1]))
    >>> [precision_at_k_from_counts(c, 3, t) for t in ("expected", "pessimistic", "optimistic")]
    [0.5, 0.3333333333333333, 0.6666666666666666]
    """
    size = c.tp + c.fp
    g = int(np.searchsorted(size, k))  # first group reaching k cases
    tp_before = int(c.tp[g - 1]) if g > 0 else 0
    n_before = int(size[g - 1]) if g > 0 else 0
    m = k - n_before
    g_pos = int(c.tp[g]) - tp_before
    g_size = int(size[g]) - n_before
    if ties == "expected":
        hits = tp_before + m * g_pos / g_size
    elif ties == "pessimistic":
        hits = tp_before + max(0, m - (g_size - g_pos))
    else:
        hits = tp_before + min(m, g_pos)
    return float(hits / k)


class FoldRanking(NamedTuple):
    """ROC AUC and average precision per fold (NaN where undefined) and on the merged scores."""

    auc: np.ndarray
    ap: np.ndarray
    auc_merge: float
    ap_merge: float
    other_auc_merge: float = float("nan")  #: the merged AUC of a second indicator (``other=``), from the same sort


def _merged_auc(scores: np.ndarray, positive: np.ndarray, weights: np.ndarray | None) -> float:
    """The AUC of sorted scores (ascending) against an indicator, ties counting 1/2; NaN with one class."""
    n = scores.size
    if n == 0:
        return float("nan")
    start = np.empty(n, dtype=bool)
    start[0] = True
    np.not_equal(scores[1:], scores[:-1], out=start[1:])
    first = np.flatnonzero(start)
    if weights is None:
        pos_g = np.add.reduceat(positive.astype(np.int64), first).astype(float)
        neg_g = np.diff(np.append(first, n)) - pos_g
    else:
        pos_g = np.add.reduceat(np.where(positive, weights, 0.0), first)
        neg_g = np.add.reduceat(np.where(positive, 0.0, weights), first)
    p, q = pos_g.sum(), neg_g.sum()
    if p == 0 or q == 0:
        return float("nan")
    below_neg = np.cumsum(neg_g) - neg_g
    return float(np.dot(pos_g, 2.0 * below_neg + neg_g) / (2.0 * p * q))


def _segments(
    scores: np.ndarray, positive: np.ndarray, seg: np.ndarray, n_seg: int, weights: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """AUC and AP of each segment of ``scores``, sorted ascending within each segment (``seg`` non-decreasing).

    A group is a run of equal scores within a segment. With ``pos_g``, ``neg_g`` its positives and
    negatives (their weights, with ``weights``), ``below`` the negatives of lower groups in the
    segment, P and N the segment's totals:

    * AUC = Σ pos_g (below + neg_g / 2) / (P N)   (Forman & Scholz §2.4; ties count 1/2);
    * AP  = Σ pos_g / P · precision at the group's threshold, the precision of everything scored at
      or above it (scikit-learn's step sum).
    """
    n = scores.size
    start = np.empty(n, dtype=bool)
    start[0] = True
    np.not_equal(scores[1:], scores[:-1], out=start[1:])
    start[1:] |= seg[1:] != seg[:-1]
    first = np.flatnonzero(start)
    if weights is None:
        pos_g = np.add.reduceat(positive.astype(np.int64), first)
        neg_g = np.diff(np.append(first, n)) - pos_g
    else:
        pos_g = np.add.reduceat(np.where(positive, weights, 0.0), first)
        neg_g = np.add.reduceat(np.where(positive, 0.0, weights), first)
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
    with np.errstate(divide="ignore", invalid="ignore"):
        # a group without positives adds nothing, even at a 0/0 precision (a tie group of weight 0 at the top)
        terms = np.where(pos_g > 0, pos_g * (at_or_above_pos / at_or_above), 0.0)
        ap_terms = np.bincount(seg_g, weights=terms, minlength=n_seg)
        auc = np.where((p_seg > 0) & (n_seg_tot > 0), twice / (2.0 * p_seg * n_seg_tot), np.nan)
        ap = np.where(p_seg > 0, ap_terms / p_seg, np.nan)
    return auc, ap


def fold_ranking(
    positive: np.ndarray,
    scores: np.ndarray,
    fold: np.ndarray,
    n_folds: int,
    weights: np.ndarray | None = None,
    other: np.ndarray | None = None,
) -> FoldRanking:
    """Per-fold and merged ROC AUC and average precision from one sort.

    Parameters
    ----------
    positive : bool array of shape (n,)
        Whether each case is a positive.
    scores : array of shape (n,)
        Scores, float64 or an integer dtype (ranked exactly).
    fold : int array of shape (n,)
        Fold codes ``0 .. n_folds - 1``.
    weights : float array of shape (n,), optional
        Case weights: each case counts its weight in every count (the weighted Mann–Whitney AUC).
    other : bool array of shape (n,), optional
        A second indicator (the predicted labels) whose merged AUC the same sort gives.

    Examples
    --------
    >>> r = fold_ranking(np.array([1, 0, 1, 0], bool), np.array([0.9, 0.2, 0.3, 0.4]), np.array([0, 0, 1, 1]), 2)
    >>> r.auc.tolist(), r.auc_merge
    ([1.0, 0.0], 0.75)
    """
    # Tied scores form one group whatever their order, so the order within ties matters only for the sums
    # of weights (a stable sort keeps those the same on every CPU; numpy's default sort is SIMD-dispatched).
    if weights is not None:
        return _weighted_fold_ranking(positive, scores, fold, n_folds, weights, other)
    n = scores.size
    order = np.argsort(scores)
    merged_scores = scores[order]
    start = _group_start_flags(merged_scores)
    ties = not start.all()
    first = np.flatnonzero(start) if ties else None
    one = np.zeros(1, dtype=np.intp)  # the merged scores: one segment starting at 0

    pos_sorted = positive[order]
    auc_m, ap_m = _segment_sums(_hits(pos_sorted, first, one))
    other_auc = float("nan") if other is None else float(_segment_sums(_hits(other[order], first, one), ap=False)[0][0])
    # the cases fold by fold, each fold in the merged order: a stable sort on the fold (a radix sort for 8 and
    # 16 bits); the folds start where their cumulated sizes say
    small = np.uint8 if n_folds <= 256 else np.uint16 if n_folds <= 1 << 16 else np.int64
    fold_sorted = fold.astype(small)[order]
    perm = np.argsort(fold_sorted, kind="stable")
    bounds = np.concatenate([[0], np.cumsum(np.bincount(fold_sorted, minlength=n_folds))[:-1]])
    if ties:  # the groups of equal scores within each fold
        start = _group_start_flags(merged_scores[perm])
        start[bounds[bounds < n]] = True
        first = np.flatnonzero(start)
    auc, ap = _segment_sums(_hits(pos_sorted[perm], first, bounds))
    return FoldRanking(auc, ap, float(auc_m[0]), float(ap_m[0]), other_auc)


def _group_start_flags(scores: np.ndarray) -> np.ndarray:
    """Whether each of sorted scores starts a group of equal scores (differs from its predecessor)."""
    start = np.empty(scores.size, dtype=bool)
    start[:1] = True
    np.not_equal(scores[1:], scores[:-1], out=start[1:])
    return start


class _Hits(NamedTuple):
    """The groups of sorted scores that hold a positive, in increasing score order: all a segment's sums need.

    The groups holding no positive add 0 to every sum of :func:`_segments`, so they are left out.
    """

    seg: np.ndarray  #: the segment of each such group
    pos: np.ndarray  #: its positives
    neg: np.ndarray  #: its negatives
    pos_before: np.ndarray  #: the positives of all lower groups (of every segment)
    neg_before: np.ndarray  #: the negatives of all lower groups
    pos_edges: np.ndarray  #: the positives before each segment, and the total last
    neg_edges: np.ndarray  #: the negatives before each segment, and the total last


def _hits(positive: np.ndarray, first: np.ndarray | None, bounds: np.ndarray) -> _Hits:
    """:class:`_Hits` of sorted scores: groups starting at ``first`` (None: no ties, each case its own group),
    segments at the cases ``bounds`` (each also starts a group). Only the P positives are visited."""
    n = positive.size
    hit = np.flatnonzero(positive)
    if first is None:
        lead, start, end = np.arange(hit.size), hit, hit + 1
    else:
        group = np.searchsorted(first, hit, side="right") - 1  # the group of each positive
        new = np.empty(hit.size, dtype=bool)
        new[:1] = True
        np.not_equal(group[1:], group[:-1], out=new[1:])
        lead = np.flatnonzero(new)  # the first positive of each group holding one
        after = group[lead] + 1  # the next group
        start, end = first[after - 1], first[np.minimum(after, first.size - 1)]
        end[after == first.size] = n
    pos = np.diff(lead, append=hit.size)
    edges = np.append(bounds, n)
    pos_edges = np.searchsorted(hit, edges)
    seg = np.repeat(np.arange(bounds.size), np.diff(np.searchsorted(start, edges)))
    return _Hits(seg, pos, (end - start) - pos, lead, start - lead, pos_edges, edges - pos_edges)


def _segment_sums(h: _Hits, ap: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """AUC and AP of each segment (NaN where undefined), the formulas of :func:`_segments` on counts.

    Exact integer arithmetic up to the last division, and the float sums over the same groups in the same
    order: the results of :func:`_segments` bit for bit wherever its float sums are exact (below 2**53,
    i.e. 2·P·N < 2**53: up to about 10^8 cases), and exact beyond.
    """
    k = h.pos_edges.size - 1
    p_seg, n_seg = np.diff(h.pos_edges), np.diff(h.neg_edges)
    below_neg = h.neg_before - h.neg_edges[h.seg]
    twice = np.bincount(h.seg, weights=h.pos * (2 * below_neg + h.neg), minlength=k)
    with np.errstate(divide="ignore", invalid="ignore"):
        auc = np.where((p_seg > 0) & (n_seg > 0), twice / (2.0 * p_seg * n_seg), np.nan)
        if not ap:
            return auc, auc
        below_pos = h.pos_before - h.pos_edges[h.seg]
        at_or_above_pos = p_seg[h.seg] - below_pos
        at_or_above = (p_seg + n_seg)[h.seg] - (below_neg + below_pos)
        ap_terms = np.bincount(h.seg, weights=h.pos * (at_or_above_pos / at_or_above), minlength=k)
        return auc, np.where(p_seg > 0, ap_terms / p_seg, np.nan)


def _weighted_fold_ranking(
    positive: np.ndarray,
    scores: np.ndarray,
    fold: np.ndarray,
    n_folds: int,
    weights: np.ndarray,
    other: np.ndarray | None,
) -> FoldRanking:
    """:func:`fold_ranking` with case weights: float sums of weights, in the order of a stable sort."""
    order = np.argsort(scores, kind="stable")
    merged_scores = scores[order]
    merged_pos = positive[order]
    merged_w = weights[order]
    auc_m, ap_m = _segments(merged_scores, merged_pos, np.zeros(scores.size, dtype=np.intp), 1, merged_w)
    other_auc = float("nan") if other is None else _merged_auc(merged_scores, other[order], merged_w)
    small = np.uint8 if n_folds <= 256 else np.uint16 if n_folds <= 1 << 16 else np.int64
    fold_sorted = fold[order].astype(small)
    perm = np.argsort(fold_sorted, kind="stable")  # a radix sort for 8- and 16-bit keys
    auc, ap = _segments(
        merged_scores[perm],
        merged_pos[perm],
        fold_sorted[perm].astype(np.intp),
        n_folds,
        merged_w[perm],
    )
    return FoldRanking(auc, ap, float(auc_m[0]), float(ap_m[0]), other_auc)
