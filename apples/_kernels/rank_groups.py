"""The groups of tied scores that hold a positive: Hand's H of every fold from them, and the merged AUC, AP and
H of every fold but one.

Both start from the groups of tied scores that hold a positive (:class:`RankGroups`), in increasing score order,
segment by segment (a segment is a fold, or all the merged scores): only they matter.

* **H.** A vertex of the ROC convex hull is a corner where the curve turns from up to right: the point after
  a group with a positive, before a group with a negative. So the hull of a segment is that of its origin, its
  end (N, P) and the points after its groups with a positive (:func:`h_of_groups`).
* **Leaving fold f out.** The merged measures of the other folds (for leave-one-fold-out jackknife
  pseudo-values) need no new sort. The merged AUC without fold f is ``(2U − A_f + 2U_ff) / (2 P' N')``, with
  2U twice the merged Mann–Whitney count, A_f twice the pairs with a member in fold f (each case's placement
  among the other class, summed by fold: :func:`pairs_touching_folds`, one pass over the cases for every
  fold) and 2U_ff twice fold f's own pairs. AP and H without fold f (:func:`merged_without`): with counts,
  fold f's cumulative counts are subtracted at each group of the merged order, found by a binary search per
  group and fold (O(G log n_f) for G groups with a positive, G <= P); with weights, each group's weight
  outside fold f is summed afresh, one pass over the cases per fold (O(n) per fold, O(k·n) in all), so that
  what weighs nothing without fold f weighs exactly 0.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from apples._kernels.hmeasure import h_of_loss_arrays, segment_losses, segment_upper_hull

__all__ = [
    "RankGroups",
    "RestCarry",
    "ap_sum",
    "candidate_points",
    "h_of_groups",
    "hull_candidates",
    "layout_points",
    "losses_of_groups",
    "merged_without",
    "pairs_touching_folds",
    "rest_groups",
    "weighted_groups",
]


class RankGroups(NamedTuple):
    """The groups of tied scores holding a positive, segment by segment, each in increasing score order.

    Counts are int64 (cases) or float64 (sums of weights); positions index the layout the groups were found in.
    """

    seg: np.ndarray  #: the segment of each group (non-decreasing)
    pos: np.ndarray  #: its positives
    neg: np.ndarray  #: its negatives
    below_pos: np.ndarray  #: the positives of the lower groups of its segment
    below_neg: np.ndarray  #: the negatives of the lower groups of its segment
    start: np.ndarray  #: the position of its first case
    end: np.ndarray  #: one past the position of its last case
    n_pos: np.ndarray  #: (k,) each segment's positives
    n_neg: np.ndarray  #: (k,) each segment's negatives


def weighted_groups(
    scores: np.ndarray,
    positive: np.ndarray,
    seg: np.ndarray,
    n_seg: int,
    weights: np.ndarray,
    carry: tuple[np.ndarray, np.ndarray] | None = None,
    totals: tuple[np.ndarray, np.ndarray] | None = None,
) -> RankGroups:
    """:class:`RankGroups` of weighted cases sorted ascending within segments (``seg`` non-decreasing).

    Each group's sums, and the sums below it within its segment, add non-negative weights in increasing score
    order (no subtraction): a group of weight 0 weighs exactly 0, and the segment's lowest group has exactly 0
    below it. For one bucket of many (:mod:`apples._kernels.rank_buckets`), ``carry`` are the positives' and
    negatives' weights of the lower buckets in each segment (added to the sums below) and ``totals`` each
    segment's weights over every bucket (the segments' ``n_pos``, ``n_neg``).

    >>> g = weighted_groups(np.array([0.1, 0.3, 0.3, 0.9]), np.array([False, True, False, True]), np.zeros(4, int),
    ...                     1, np.array([1.0, 0.5, 2.0, 0.25]))
    >>> g.pos.tolist(), g.neg.tolist(), g.below_neg.tolist(), g.n_pos.tolist(), g.n_neg.tolist()
    ([0.5, 0.25], [2.0, 0.0], [1.0, 3.0], [0.75], [3.0])
    """
    n = scores.size
    start = _starts(scores)
    start[1:] |= seg[1:] != seg[:-1]
    first = np.flatnonzero(start)
    pos_g = np.add.reduceat(np.where(positive, weights, 0.0), first)
    neg_g = np.add.reduceat(np.where(positive, 0.0, weights), first)
    seg_g = seg[first]
    n_pos = np.bincount(seg_g, weights=pos_g, minlength=n_seg)
    n_neg = np.bincount(seg_g, weights=neg_g, minlength=n_seg)
    # the sums below each group within its segment, from the segment's first group on (no cross-segment offsets)
    new_seg = np.r_[True, seg_g[1:] != seg_g[:-1]]
    below_pos, below_neg = _within_segments(pos_g, new_seg), _within_segments(neg_g, new_seg)
    if carry is not None:
        below_pos, below_neg = carry[0][seg_g] + below_pos, carry[1][seg_g] + below_neg
    if totals is not None:
        n_pos, n_neg = totals
    hit = pos_g > 0
    end = np.append(first[1:], n)
    return RankGroups(
        seg_g[hit], pos_g[hit], neg_g[hit], below_pos[hit], below_neg[hit], first[hit], end[hit], n_pos, n_neg
    )


def _within_segments(v: np.ndarray, new_seg: np.ndarray) -> np.ndarray:
    """``Σ`` of the earlier values of each one's segment (segments start where ``new_seg``)."""
    out = np.zeros_like(v)
    heads = np.flatnonzero(new_seg)
    for lo, hi in zip(heads.tolist(), [*heads[1:].tolist(), v.size], strict=True):
        np.cumsum(v[lo : hi - 1], out=out[lo + 1 : hi])
    return out


def _starts(scores: np.ndarray) -> np.ndarray:
    """Whether each of sorted scores starts a group of equal scores."""
    start = np.empty(scores.size, dtype=bool)
    start[:1] = True
    np.not_equal(scores[1:], scores[:-1], out=start[1:])
    return start


def candidate_points(g: RankGroups) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ROC points (FP, TP) after each group with a positive, that may be hull vertices: the negatives and the
    positives scored at or above the group, in the groups' order (increasing score within each segment)."""
    return g.n_neg[g.seg] - g.below_neg, g.n_pos[g.seg] - g.below_pos, g.seg


def layout_points(
    x: np.ndarray, y: np.ndarray, seg: np.ndarray, n_pos: np.ndarray, n_neg: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Candidate points (in increasing score order within segments, ``seg`` non-decreasing) laid out as the hull
    needs them: each segment as [origin, its points from the highest score down, its end (N, P)]."""
    k = n_pos.size
    m = seg.size
    count = np.bincount(seg, minlength=k)
    begin = np.cumsum(count) - count
    first = begin[seg]
    dest = first + (first + count[seg] - 1 - np.arange(m)) + 2 * seg + 1
    dtype = np.result_type(n_pos, n_neg, x, y)
    px = np.zeros(m + 2 * k, dtype=dtype)
    py = np.zeros(m + 2 * k, dtype=dtype)
    pseg = np.empty(m + 2 * k, dtype=np.intp)
    px[dest] = x
    py[dest] = y
    pseg[dest] = seg
    segments = np.arange(k)
    origin, end = begin + 2 * segments, begin + count + 2 * segments + 1
    pseg[origin] = pseg[end] = segments
    px[end], py[end] = n_neg, n_pos
    return px, py, pseg


def hull_candidates(x: np.ndarray, y: np.ndarray, seg: np.ndarray) -> np.ndarray:
    """The positions of the candidate points (increasing score within segments) on their segment's upper hull,
    in the same order: only they can be vertices of the hull of these points and any others (the hull of a union is
    the hull of the union of hulls), so a bucket of scores keeps these and drops the rest."""
    if seg.size < 3:
        return np.arange(seg.size)
    # the hull wants x increasing: each segment's points reversed (highest score first), segments kept in order
    count = np.bincount(seg)
    begin = (np.cumsum(count) - count)[seg]
    rev = begin + (begin + count[seg] - 1 - np.arange(seg.size))
    v = segment_upper_hull(x[rev], y[rev], seg[rev])
    return np.sort(rev[v])


def _points(g: RankGroups) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ROC points (FP, TP) that may be hull vertices, each segment laid out as [origin, the points after its
    groups from the highest score down, its end (N, P)]."""
    return layout_points(*candidate_points(g), g.n_pos, g.n_neg)


def losses_of_groups(g: RankGroups, a: float, b: float) -> tuple[np.ndarray, np.ndarray]:
    """L and L_max of each segment under the Beta(a, b) prior (:func:`apples._kernels.hmeasure.segment_losses`)."""
    return segment_losses(*_points(g), g.n_pos, g.n_neg, a, b)


def h_of_groups(g: RankGroups, a: float, b: float) -> np.ndarray:
    """H of each segment under the Beta(a, b) prior, from its origin, its end and the points after its groups.

    Scores .1 .3 .8 .9 of labels 0 1 0 1: the groups .3 (one negative below) and .9 (one positive and two
    negatives below); h_measure([1, 0, 1, 0], [.9, .8, .3, .1], severity_ratio=1) is 0.5.

    >>> g = RankGroups(np.array([0, 0]), np.array([1, 1]), np.array([0, 0]), np.array([0, 1]), np.array([1, 2]),
    ...                np.array([1, 3]), np.array([2, 4]), np.array([2]), np.array([2]))
    >>> h_of_groups(g, 2.0, 2.0).round(12).tolist()
    [0.5]
    """
    return h_of_loss_arrays(*losses_of_groups(g, a, b))


def _exclusive_cumsum(v: np.ndarray) -> np.ndarray:
    """``Σ_{j<i} v_j`` for each i (no subtraction: exact for integers, no cancellation for floats)."""
    out = np.zeros_like(v)
    np.cumsum(v[:-1], out=out[1:])
    return out


def pairs_touching_folds(
    positive: np.ndarray,
    weights: np.ndarray | None,
    first: np.ndarray | None,
    fold: np.ndarray,
    n_folds: int,
    carry: tuple[np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """Twice the (weighted) positive–negative pairs with a member in each fold, a tie counting 1/2.

    ``positive``, ``weights`` and ``fold`` are in increasing score order (the merged sort); ``first`` are the
    positions where groups of tied scores start (None: no ties). Each positive adds its weight times twice
    its placement among the negatives (the negatives below it, and half those tied with it), each negative
    likewise among the positives above it; a pair inside one fold is counted by both its members. Integer
    counts are summed exactly up to 2**53 (about 10^8 cases). For one bucket of many, ``carry`` is (the
    negatives below the bucket, the positives above it).

    Scores increasing, labels 0 1 0 1, folds 0 0 1 1: fold 0's positive beats 1 negative, its negative is
    beaten by 2 positives (the pair inside fold 0 counted by both); fold 1's: 2 and 1.

    >>> pairs_touching_folds(np.array([False, True, False, True]), None, None, np.array([0, 0, 1, 1]), 2).tolist()
    [6.0, 6.0]
    """
    n = positive.size
    if weights is None:
        wp = positive.astype(np.int64)
        wn = 1 - wp
    else:
        wp = np.where(positive, weights, 0.0)
        wn = np.where(positive, 0.0, weights)
    if first is None:
        pos_g, neg_g = wp, wn
    else:
        pos_g, neg_g = np.add.reduceat(wp, first), np.add.reduceat(wn, first)
    below_neg = _exclusive_cumsum(neg_g)
    above_pos = _exclusive_cumsum(pos_g[::-1])[::-1]
    if carry is not None:
        below_neg, above_pos = carry[0] + below_neg, carry[1] + above_pos
    as_pos, as_neg = 2 * below_neg + neg_g, 2 * above_pos + pos_g
    if first is not None:
        group = np.repeat(np.arange(first.size), np.diff(np.append(first, n)))
        as_pos, as_neg = as_pos[group], as_neg[group]
    c = np.where(positive, as_pos, as_neg) if weights is None else np.where(positive, wp * as_pos, wn * as_neg)
    return np.bincount(fold, weights=c, minlength=n_folds)


class RestCarry(NamedTuple):
    """For one bucket of many: what the lower buckets hold of each fold (counts) or of every fold but each
    (weights), and the totals over every bucket of the merged scores without each fold."""

    below_pos: np.ndarray  #: (k,) counts: fold f's positives below the bucket; weights: the other folds' positives
    below_neg: np.ndarray  #: (k,) likewise for the negatives
    n_pos: np.ndarray  #: (k,) the positives of every fold but f, over every bucket
    n_neg: np.ndarray  #: (k,)


def rest_groups(
    m: RankGroups,
    positive: np.ndarray,
    weights: np.ndarray | None,
    fold: np.ndarray,
    first: np.ndarray | None,
    perm: np.ndarray,
    bounds: np.ndarray,
    f: int,
    carry: RestCarry | None = None,
) -> RankGroups:
    """The merged groups holding a positive outside fold f, counted without fold f's cases (one segment).

    ``m`` are the merged groups (one segment); ``positive``, ``weights`` and ``fold`` (codes) are in the merged
    order, ``first`` the starts of its groups of tied scores (None: no ties); ``perm`` the merged positions of
    fold 0's cases, then fold 1's, ... each in increasing order, fold f's starting at ``bounds[f]``.

    Counts: fold f's cumulative counts below each merged group come from a binary search of the group's ends
    among fold f's positions, and are subtracted exactly. Weights: each group's weight outside fold f is summed
    afresh (one pass over the cases per fold), so a group, or the cases below one, left empty without fold f
    weigh exactly 0, never a rounding residue (which could put a spurious corner on the hull).
    """
    if weights is None:
        end = bounds[f + 1] if f + 1 < bounds.size else perm.size
        return _counted_rest(m, positive, perm[bounds[f] : end], f, carry)
    return _weighted_rest(positive, weights, fold != f, first, f, carry)


def ap_sum(g: RankGroups, start: float = 0.0, clamp: bool = False) -> float:
    """``Σ pos · precision`` over the groups of one segment (average precision times its positives), summed one
    group after another in increasing score order, continuing from ``start`` (the same bits as one sum). ``clamp``:
    the totals and the sums below were rounded apart (weights in many buckets), so each group counts at least
    itself at or above its threshold."""
    p, n = g.n_pos[0], g.n_neg[0]
    at_or_above = (p + n) - (g.below_pos + g.below_neg)
    above_pos = p - g.below_pos
    if clamp:
        at_or_above, above_pos = np.maximum(at_or_above, g.pos + g.neg), np.maximum(above_pos, g.pos)
    terms = g.pos * (above_pos / at_or_above)
    return float(np.bincount(np.zeros(terms.size + 1, dtype=np.intp), weights=np.r_[start, terms], minlength=1)[0])


def merged_without(
    m: RankGroups,
    positive: np.ndarray,
    weights: np.ndarray | None,
    fold: np.ndarray,
    first: np.ndarray | None,
    perm: np.ndarray,
    bounds: np.ndarray,
    h_prior: tuple[float, float] | None,
) -> tuple[np.ndarray, np.ndarray | None]:
    """AP and (with ``h_prior``) H of the merged scores of every fold but f, for each fold f; NaN where undefined
    (the arguments of :func:`rest_groups`)."""
    k = bounds.size
    ap = np.full(k, np.nan)
    h = np.full(k, np.nan) if h_prior is not None else None
    for f in range(k):
        rest = rest_groups(m, positive, weights, fold, first, perm, bounds, f)
        p_rest, n_rest = rest.n_pos[0], rest.n_neg[0]
        if not p_rest > 0:
            continue
        ap[f] = ap_sum(rest) / p_rest
        if h is not None and h_prior is not None and n_rest > 0:
            h[f] = h_of_groups(rest, *h_prior)[0]
    return ap, h


def _counted_rest(
    m: RankGroups, positive: np.ndarray, where: np.ndarray, f: int, carry: RestCarry | None
) -> RankGroups:
    """The merged groups without the cases at the (increasing) positions ``where``, in integer counts."""
    here = positive[where].astype(np.int64)
    cp = np.concatenate([np.zeros(1, dtype=np.int64), np.cumsum(here)])
    cn = np.concatenate([np.zeros(1, dtype=np.int64), np.cumsum(1 - here)])
    lo, hi = np.searchsorted(where, m.start), np.searchsorted(where, m.end)
    pos = m.pos - (cp[hi] - cp[lo])
    keep = pos > 0
    below_pos, below_neg = m.below_pos - cp[lo], m.below_neg - cn[lo]
    if carry is None:
        n_pos, n_neg = m.n_pos - cp[-1], m.n_neg - cn[-1]
    else:
        below_pos, below_neg = below_pos - carry.below_pos[f], below_neg - carry.below_neg[f]
        n_pos, n_neg = carry.n_pos[f : f + 1], carry.n_neg[f : f + 1]
    return RankGroups(
        np.zeros(int(keep.sum()), dtype=np.intp),
        pos[keep],
        (m.neg - (cn[hi] - cn[lo]))[keep],
        below_pos[keep],
        below_neg[keep],
        m.start[keep],
        m.end[keep],
        n_pos,
        n_neg,
    )


def _weighted_rest(
    positive: np.ndarray,
    weights: np.ndarray,
    kept: np.ndarray,
    first: np.ndarray | None,
    f: int,
    carry: RestCarry | None,
) -> RankGroups:
    """The merged groups of the cases where ``kept``, their weights summed afresh in increasing score order."""
    n = positive.size
    w = np.where(kept, weights, 0.0)
    wp, wn = np.where(positive, w, 0.0), np.where(positive, 0.0, w)
    if first is None:
        first = np.arange(n)
    pos_g, neg_g = np.add.reduceat(wp, first), np.add.reduceat(wn, first)
    below_pos, below_neg = _exclusive_cumsum(pos_g), _exclusive_cumsum(neg_g)
    if carry is None:
        n_pos, n_neg = np.array([below_pos[-1] + pos_g[-1]]), np.array([below_neg[-1] + neg_g[-1]])
    else:
        below_pos, below_neg = carry.below_pos[f] + below_pos, carry.below_neg[f] + below_neg
        n_pos, n_neg = carry.n_pos[f : f + 1], carry.n_neg[f : f + 1]
    hit = pos_g > 0
    end = np.append(first[1:], n)
    return RankGroups(
        np.zeros(int(hit.sum()), dtype=np.intp),
        pos_g[hit],
        neg_g[hit],
        below_pos[hit],
        below_neg[hit],
        first[hit],
        end[hit],
        n_pos,
        n_neg,
    )
