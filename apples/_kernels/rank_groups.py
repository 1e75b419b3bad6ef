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

from apples._kernels.hmeasure import h_of_loss_arrays, segment_losses

__all__ = [
    "RankGroups",
    "h_of_groups",
    "losses_of_groups",
    "merged_without",
    "pairs_touching_folds",
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
    scores: np.ndarray, positive: np.ndarray, seg: np.ndarray, n_seg: int, weights: np.ndarray
) -> RankGroups:
    """:class:`RankGroups` of weighted cases sorted ascending within segments (``seg`` non-decreasing).

    Each group's sums, and the sums below it within its segment, add non-negative weights in increasing score
    order (no subtraction): a group of weight 0 weighs exactly 0, and the segment's lowest group has exactly 0
    below it.

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


def _points(g: RankGroups) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ROC points (FP, TP) that may be hull vertices, each segment laid out as [origin, the points after its
    groups from the highest score down, its end (N, P)]."""
    k = g.n_pos.size
    m = g.seg.size
    count = np.bincount(g.seg, minlength=k)
    begin = np.cumsum(count) - count
    first = begin[g.seg]
    dest = first + (first + count[g.seg] - 1 - np.arange(m)) + 2 * g.seg + 1
    dtype = np.result_type(g.n_pos, g.n_neg, g.below_pos, g.below_neg)
    x = np.zeros(m + 2 * k, dtype=dtype)
    y = np.zeros(m + 2 * k, dtype=dtype)
    seg = np.empty(m + 2 * k, dtype=np.intp)
    x[dest] = g.n_neg[g.seg] - g.below_neg  # the negatives scored at or above the group
    y[dest] = g.n_pos[g.seg] - g.below_pos
    seg[dest] = g.seg
    segments = np.arange(k)
    origin, end = begin + 2 * segments, begin + count + 2 * segments + 1
    seg[origin] = seg[end] = segments
    x[end], y[end] = g.n_neg, g.n_pos
    return x, y, seg


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
    positive: np.ndarray, weights: np.ndarray | None, first: np.ndarray | None, fold: np.ndarray, n_folds: int
) -> np.ndarray:
    """Twice the (weighted) positive–negative pairs with a member in each fold, a tie counting 1/2.

    ``positive``, ``weights`` and ``fold`` are in increasing score order (the merged sort); ``first`` are the
    positions where groups of tied scores start (None: no ties). Each positive adds its weight times twice
    its placement among the negatives (the negatives below it, and half those tied with it), each negative
    likewise among the positives above it; a pair inside one fold is counted by both its members. Integer
    counts are summed exactly up to 2**53 (about 10^8 cases).

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
    as_pos, as_neg = 2 * below_neg + neg_g, 2 * above_pos + pos_g
    if first is not None:
        group = np.repeat(np.arange(first.size), np.diff(np.append(first, n)))
        as_pos, as_neg = as_pos[group], as_neg[group]
    c = np.where(positive, as_pos, as_neg) if weights is None else np.where(positive, wp * as_pos, wn * as_neg)
    return np.bincount(fold, weights=c, minlength=n_folds)


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
    """AP and (with ``h_prior``) H of the merged scores of every fold but f, for each fold f; NaN where undefined.

    ``m`` are the merged groups (one segment); ``positive``, ``weights`` and ``fold`` (codes) are in the merged
    order, ``first`` the starts of its groups of tied scores (None: no ties); ``perm`` the merged positions of
    fold 0's cases, then fold 1's, ... each in increasing order, fold f's starting at ``bounds[f]``.

    Counts: fold f's cumulative counts below each merged group come from a binary search of the group's ends
    among fold f's positions, and are subtracted exactly. Weights: each group's weight outside fold f is summed
    afresh (one pass over the cases per fold), so a group, or the cases below one, left empty without fold f
    weigh exactly 0, never a rounding residue (which could put a spurious corner on the hull).
    """
    k = bounds.size
    ap = np.full(k, np.nan)
    h = np.full(k, np.nan) if h_prior is not None else None
    ends = np.append(bounds[1:], perm.size)
    for f in range(k):
        if weights is None:
            rest = _counted_rest(m, positive, perm[bounds[f] : ends[f]])
        else:
            rest = _weighted_rest(positive, weights, fold != f, first)
        p_rest, n_rest = rest.n_pos[0], rest.n_neg[0]
        if not p_rest > 0:
            continue
        at_or_above = (p_rest + n_rest) - (rest.below_pos + rest.below_neg)
        terms = rest.pos * ((p_rest - rest.below_pos) / at_or_above)
        ap[f] = np.bincount(np.zeros(terms.size, dtype=np.intp), weights=terms, minlength=1)[0] / p_rest
        if h is not None and h_prior is not None and n_rest > 0:
            h[f] = h_of_groups(rest, *h_prior)[0]
    return ap, h


def _counted_rest(m: RankGroups, positive: np.ndarray, where: np.ndarray) -> RankGroups:
    """The merged groups without the cases at the (increasing) positions ``where``, in integer counts."""
    here = positive[where].astype(np.int64)
    cp = np.concatenate([np.zeros(1, dtype=np.int64), np.cumsum(here)])
    cn = np.concatenate([np.zeros(1, dtype=np.int64), np.cumsum(1 - here)])
    lo, hi = np.searchsorted(where, m.start), np.searchsorted(where, m.end)
    pos = m.pos - (cp[hi] - cp[lo])
    keep = pos > 0
    return RankGroups(
        np.zeros(int(keep.sum()), dtype=np.intp),
        pos[keep],
        (m.neg - (cn[hi] - cn[lo]))[keep],
        (m.below_pos - cp[lo])[keep],
        (m.below_neg - cn[lo])[keep],
        m.start[keep],
        m.end[keep],
        m.n_pos - cp[-1],
        m.n_neg - cn[-1],
    )


def _weighted_rest(positive: np.ndarray, weights: np.ndarray, kept: np.ndarray, first: np.ndarray | None) -> RankGroups:
    """The merged groups of the cases where ``kept``, their weights summed afresh in increasing score order."""
    n = positive.size
    w = np.where(kept, weights, 0.0)
    wp, wn = np.where(positive, w, 0.0), np.where(positive, 0.0, w)
    if first is None:
        first = np.arange(n)
    pos_g, neg_g = np.add.reduceat(wp, first), np.add.reduceat(wn, first)
    below_pos, below_neg = _exclusive_cumsum(pos_g), _exclusive_cumsum(neg_g)
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
        np.array([below_pos[-1] + pos_g[-1]]),
        np.array([below_neg[-1] + neg_g[-1]]),
    )
