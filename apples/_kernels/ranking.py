"""Ranking measures from one sort: cumulative counts over thresholds, and ROC AUC and average precision
of every fold and of all folds merged.

Scores of any real dtype are ranked exactly as given: integers (int64, uint64) are never converted
to float nor negated (a uint64 would wrap around, the int64 minimum overflow), and neighbours are
compared rather than subtracted (``1e308 - (-1e308)`` overflows). A threshold t predicts positive
for ``score >= t``; a group of tied scores is one threshold, one diagonal ROC step.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

import numpy as np

from apples._kernels.rank_buckets import BucketRanking, rank_totals

__all__ = [
    "CHUNK",
    "CumulativeCounts",
    "FoldRanking",
    "ap_from_counts",
    "auc_from_counts",
    "cumulative_counts",
    "fold_ranking",
    "precision_at_k_from_counts",
    "roc_points",
    "scaled_weights",
    "tie_chunks",
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

    Notes
    -----
    Memory: without weights, one argsort of the scores (8 bytes a case) and the working memory of one chunk of
    :data:`CHUNK` sorted cases (whole tie groups: a tie group larger than a chunk is one chunk), whatever n: the
    chunks are buckets of :class:`~apples._kernels.rank_buckets.BucketRanking`, their sums continued exactly, so
    the values are those of one pass over all the cases bit for bit. With weights, one bucket of all the cases
    (the float sums as they always were).

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
    options = {"other": other is not None, "h_prior": h_prior, "jackknife": jackknife}
    if weights is not None:  # scaled by a power of two: the same bits, and no sum or product over- or underflows
        order = np.argsort(scores, kind="stable")
        acc = BucketRanking(n_folds, None, weighted=True, **options)  # type: ignore[arg-type]
        o = None if other is None else other[order]
        acc.add(scores[order], positive[order], fold[order], scaled_weights(weights)[order], o)
        return FoldRanking(**acc.result())
    order = np.argsort(scores)
    n = scores.size
    if n <= CHUNK:  # one bucket: its own sums are the totals
        acc = BucketRanking(n_folds, None, weighted=False, **options)  # type: ignore[arg-type]
        acc.add(scores[order], positive[order], fold[order], other=None if other is None else other[order])
        return FoldRanking(**acc.result())
    # the sorted cases in chunks of whole tie groups: the working memory of a chunk, the same bits as one
    codes = np.zeros(2 * n_folds, dtype=np.int64)
    for lo in range(0, n, CHUNK):
        f = fold[lo : lo + CHUNK].astype(np.intp)
        codes += np.bincount(2 * f + positive[lo : lo + CHUNK], minlength=2 * n_folds)
    totals = rank_totals(codes[1::2].copy(), codes[0::2].copy())
    acc = BucketRanking(n_folds, totals, weighted=False, **options)  # type: ignore[arg-type]
    for lo, hi in tie_chunks(scores, order, CHUNK):
        rows = order[lo:hi]
        acc.add(scores[rows], positive[rows], fold[rows], other=None if other is None else other[rows])
    return FoldRanking(**acc.result())


#: The cases of one chunk of the sorted scores (the working memory of :func:`fold_ranking` is about 150 bytes a
#: case of a chunk, beside the 8 bytes a case of the sort).
CHUNK = 1 << 16


def tie_chunks(scores: np.ndarray, order: np.ndarray, size: int) -> Iterator[tuple[int, int]]:
    """Consecutive ranges ``[lo, hi)`` of the sorted positions ``order`` of about ``size`` cases, each ending where a
    group of tied scores ends (a group longer than ``size`` is one range).

    >>> s = np.array([0.1, 0.2, 0.2, 0.2, 0.5])
    >>> list(tie_chunks(s, np.argsort(s), 2))
    [(0, 4), (4, 5)]
    """
    n = order.size
    lo = 0
    while lo < n:
        hi = min(n, lo + size)
        while hi < n:
            last = scores[order[hi - 1]]
            probe = scores[order[hi : hi + size]]
            changed = np.flatnonzero(probe != last)
            if changed.size:
                hi += int(changed[0])
                break
            hi += probe.size
        yield lo, hi
        lo = hi
