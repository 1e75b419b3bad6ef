"""Ranking measures from one sort: cumulative counts over thresholds, and ROC AUC and average precision
of every fold and of all folds merged.

Scores of any real dtype are ranked exactly as given: integers (int64, uint64) are never converted
to float nor negated (a uint64 would wrap around, the int64 minimum overflow), and neighbours are
compared rather than subtracted (``1e308 - (-1e308)`` overflows). A threshold t predicts positive
for ``score >= t``; a group of tied scores is one threshold, one diagonal ROC step.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from apples._kernels.rank_groups import RankGroups, h_of_groups, merged_without, pairs_touching_folds, weighted_groups

__all__ = [
    "CumulativeCounts",
    "FoldRanking",
    "ap_from_counts",
    "auc_from_counts",
    "cumulative_counts",
    "fold_ranking",
    "precision_at_k_from_counts",
    "roc_points",
    "scaled_weights",
]


def scaled_weights(w: np.ndarray) -> np.ndarray:
    """Weights times ``2**-e``, ``e`` the binary exponent of the largest: exact, the largest then in [0.5, 1).

    Every ranking measure, mean loss and rate is a ratio of sums of weights of one degree, so it is unchanged,
    bit for bit, by this scaling, while its sums and their products can no longer overflow (weights near 1e308)
    nor underflow (every weight 5e-324: ``n_pos · n_neg`` would be 0). Only a weight below ``2**-1022`` times the
    largest loses bits (it becomes subnormal), and it is then immaterial to every sum. All zeros stay zeros.

    >>> scaled_weights(np.array([1e308, 5e307])).tolist()   # 1e308 = 0.5562... · 2**1023
    [0.5562684646268004, 0.2781342323134002]
    >>> scaled_weights(np.array([5e-324, 5e-324, 0.0])).tolist()
    [0.5, 0.5, 0.0]
    """
    w = np.asarray(w, dtype=np.float64)
    top = w.max() if w.size else 0.0
    if not top > 0:
        return w
    return np.ldexp(w, -int(np.frexp(top)[1]))


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
    """ROC AUC and average precision per fold (NaN where undefined) and on the merged scores.

    The fields after ``other_auc_merge`` are computed only when :func:`fold_ranking` is asked for them
    (``h_prior=``, ``jackknife=True``); otherwise they keep their defaults (None, NaN).
    """

    auc: np.ndarray
    ap: np.ndarray
    auc_merge: float
    ap_merge: float
    other_auc_merge: float = float("nan")  #: the merged AUC of a second indicator (``other=``), from the same sort
    h: np.ndarray | None = None  #: (k,) Hand's H of each fold under ``h_prior`` (NaN with one class)
    h_merge: float = float("nan")  #: H of the merged scores under ``h_prior``
    auc_merge_without: np.ndarray | None = None  #: (k,) the merged AUC of every fold but f (``jackknife=True``)
    ap_merge_without: np.ndarray | None = None  #: (k,) the merged AP of every fold but f
    h_merge_without: np.ndarray | None = None  #: (k,) the merged H of every fold but f (with ``h_prior``)


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
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """AUC, AP and twice the Mann–Whitney count of each segment of ``scores``, sorted ascending within each
    segment (``seg`` non-decreasing).

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
    return auc, ap, twice


def fold_ranking(
    positive: np.ndarray,
    scores: np.ndarray,
    fold: np.ndarray,
    n_folds: int,
    weights: np.ndarray | None = None,
    other: np.ndarray | None = None,
    *,
    h_prior: tuple[float, float] | None = None,
    jackknife: bool = False,
) -> FoldRanking:
    """Per-fold and merged ROC AUC and average precision from one sort; with options, H and leave-one-fold-out values.

    Parameters
    ----------
    positive : bool array of shape (n,)
        Whether each case is a positive.
    scores : array of shape (n,)
        Scores, float64 or an integer dtype (ranked exactly).
    fold : int array of shape (n,)
        Fold codes ``0 .. n_folds - 1``.
    weights : float array of shape (n,), optional
        Case weights: each case counts its weight in every count (the weighted Mann–Whitney AUC). They are
        first scaled by a power of two (:func:`scaled_weights`, exact), so weights near 1e308 or 5e-324 give
        the values of unit weights.
    other : bool array of shape (n,), optional
        A second indicator (the predicted labels) whose merged AUC the same sort gives.
    h_prior : (alpha, beta), optional
        Also Hand's H-measure of each fold (``h``) and of the merged scores (``h_merge``) under this fixed
        Beta(alpha, beta) prior on the cost c, each with its own class proportions in L and L_max, as the PyPI
        ``hmeasure.h_score(y, s, severity_ratio=r)`` does for ``(alpha, beta) = (2, 1 + 1/r)``. Only the
        groups of tied scores that hold a positive are visited (the hull's corners), after the one sort.
        Integer counts give an exact hull; with weights, the hull of the sums of weights is tested in floating
        point with Shewchuk's error bound and exact rational arithmetic where the bound cannot decide
        (:func:`apples._kernels.hmeasure.segment_upper_hull`).
    jackknife : bool, default False
        Also the merged AUC, AP and (with ``h_prior``) H of every fold but f (``auc_merge_without``,
        ``ap_merge_without``, ``h_merge_without``), for leave-one-fold-out pseudo-values. The AUC costs one
        more pass over the cases for every fold together; AP and H one binary search per group holding a
        positive and fold (O(G log n) per fold, G <= the number of positives; O(k·n) at worst).

    Examples
    --------
    >>> r = fold_ranking(np.array([1, 0, 1, 0], bool), np.array([0.9, 0.2, 0.3, 0.4]), np.array([0, 0, 1, 1]), 2)
    >>> r.auc.tolist(), r.auc_merge
    ([1.0, 0.0], 0.75)
    >>> r = fold_ranking(np.array([1, 0, 1, 0], bool), np.array([0.9, 0.2, 0.3, 0.4]), np.array([0, 0, 1, 1]), 2,
    ...                  h_prior=(2.0, 2.0), jackknife=True)
    >>> r.h.tolist(), r.auc_merge_without.tolist()
    ([1.0, 0.0], [0.0, 1.0])
    """
    # Tied scores form one group whatever their order, so the order within ties matters only for the sums
    # of weights (a stable sort keeps those the same on every CPU; numpy's default sort is SIMD-dispatched).
    if weights is not None:  # scaled by a power of two: the same bits, and no sum or product over- or underflows
        return _weighted_fold_ranking(
            positive, scores, fold, n_folds, scaled_weights(weights), other, h_prior, jackknife
        )
    n = scores.size
    order = np.argsort(scores)
    merged_scores = scores[order]
    start = _group_start_flags(merged_scores)
    ties = not start.all()
    first = np.flatnonzero(start) if ties else None
    first_merged = first
    one = np.zeros(1, dtype=np.intp)  # the merged scores: one segment starting at 0

    pos_sorted = positive[order]
    hits_merged = _hits(pos_sorted, first, one)
    auc_m, ap_m, twice_m = _segment_sums(hits_merged)
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
    hits_folds = _hits(pos_sorted[perm], first, bounds)
    auc, ap, twice_f = _segment_sums(hits_folds)
    result = FoldRanking(auc, ap, float(auc_m[0]), float(ap_m[0]), other_auc)
    if h_prior is None and not jackknife:
        return result
    merged, folds = _groups_of_hits(hits_merged), _groups_of_hits(hits_folds)
    extra = _Layout(pos_sorted, None, first_merged, fold_sorted, perm, bounds, float(twice_m[0]), twice_f)
    return _with_options(result, merged, folds, extra, h_prior, jackknife)


class _Layout(NamedTuple):
    """What the leave-one-fold-out values read of the merged sort."""

    positive: np.ndarray  #: in increasing score order
    weights: np.ndarray | None  #: in increasing score order (scaled), or None
    first: np.ndarray | None  #: where the merged groups of tied scores start (None: no ties)
    fold: np.ndarray  #: fold codes in increasing score order
    perm: np.ndarray  #: the merged positions of fold 0's cases, then fold 1's, ...
    bounds: np.ndarray  #: where each fold starts in ``perm``
    twice_merged: float  #: twice the merged Mann–Whitney count
    twice_folds: np.ndarray  #: twice each fold's


def _with_options(
    result: FoldRanking,
    merged: RankGroups,
    folds: RankGroups,
    layout: _Layout,
    h_prior: tuple[float, float] | None,
    jackknife: bool,
) -> FoldRanking:
    """``result`` with H (``h_prior``) and the leave-one-fold-out values (``jackknife``) filled in."""
    out: dict[str, Any] = {}
    if h_prior is not None:
        out["h"] = h_of_groups(folds, *h_prior)
        out["h_merge"] = float(h_of_groups(merged, *h_prior)[0])
    if jackknife:
        k = folds.n_pos.size
        touching = pairs_touching_folds(layout.positive, layout.weights, layout.first, layout.fold, k)
        p_rest = merged.n_pos[0] - folds.n_pos
        n_rest = merged.n_neg[0] - folds.n_neg
        with np.errstate(divide="ignore", invalid="ignore"):
            twice = layout.twice_merged - touching + layout.twice_folds
            out["auc_merge_without"] = np.where((p_rest > 0) & (n_rest > 0), twice / (2.0 * p_rest * n_rest), np.nan)
        ap, h = merged_without(
            merged, layout.positive, layout.weights, layout.fold, layout.first, layout.perm, layout.bounds, h_prior
        )
        out["ap_merge_without"] = ap
        if h is not None:
            out["h_merge_without"] = h
    return result._replace(**out)


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


def _groups_of_hits(h: _Hits) -> RankGroups:
    """The :class:`RankGroups` of counted hits (below counts relative to each segment; positions of the layout)."""
    start = h.pos_before + h.neg_before  # the cases below a group are those before it in increasing order
    return RankGroups(
        h.seg,
        h.pos,
        h.neg,
        h.pos_before - h.pos_edges[h.seg],
        h.neg_before - h.neg_edges[h.seg],
        start,
        start + h.pos + h.neg,
        np.diff(h.pos_edges),
        np.diff(h.neg_edges),
    )


def _segment_sums(h: _Hits, ap: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """AUC, AP and twice the Mann–Whitney count of each segment (NaN where undefined), the formulas of
    :func:`_segments` on counts.

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
            return auc, auc, twice
        below_pos = h.pos_before - h.pos_edges[h.seg]
        at_or_above_pos = p_seg[h.seg] - below_pos
        at_or_above = (p_seg + n_seg)[h.seg] - (below_neg + below_pos)
        ap_terms = np.bincount(h.seg, weights=h.pos * (at_or_above_pos / at_or_above), minlength=k)
        return auc, np.where(p_seg > 0, ap_terms / p_seg, np.nan), twice


def _weighted_fold_ranking(
    positive: np.ndarray,
    scores: np.ndarray,
    fold: np.ndarray,
    n_folds: int,
    weights: np.ndarray,
    other: np.ndarray | None,
    h_prior: tuple[float, float] | None,
    jackknife: bool,
) -> FoldRanking:
    """:func:`fold_ranking` with case weights: float sums of weights, in the order of a stable sort."""
    order = np.argsort(scores, kind="stable")
    merged_scores = scores[order]
    merged_pos = positive[order]
    merged_w = weights[order]
    zeros = np.zeros(scores.size, dtype=np.intp)
    auc_m, ap_m, twice_m = _segments(merged_scores, merged_pos, zeros, 1, merged_w)
    other_auc = float("nan") if other is None else _merged_auc(merged_scores, other[order], merged_w)
    small = np.uint8 if n_folds <= 256 else np.uint16 if n_folds <= 1 << 16 else np.int64
    fold_sorted = fold[order].astype(small)
    perm = np.argsort(fold_sorted, kind="stable")  # a radix sort for 8- and 16-bit keys
    seg = fold_sorted[perm].astype(np.intp)
    auc, ap, twice_f = _segments(merged_scores[perm], merged_pos[perm], seg, n_folds, merged_w[perm])
    result = FoldRanking(auc, ap, float(auc_m[0]), float(ap_m[0]), other_auc)
    if h_prior is None and not jackknife:
        return result
    merged = weighted_groups(merged_scores, merged_pos, zeros, 1, merged_w)
    folds = weighted_groups(merged_scores[perm], merged_pos[perm], seg, n_folds, merged_w[perm])
    first = np.flatnonzero(_group_start_flags(merged_scores))
    bounds = np.concatenate([[0], np.cumsum(np.bincount(seg, minlength=n_folds))[:-1]])
    layout = _Layout(merged_pos, merged_w, first, fold_sorted, perm, bounds, float(twice_m[0]), twice_f)
    return _with_options(result, merged, folds, layout, h_prior, jackknife)
