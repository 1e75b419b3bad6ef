"""Ranking measures accumulated bucket by bucket in increasing score order: ROC AUC, average precision and Hand's
H of every fold, of the merged scores, and of the merged scores without each fold.

The scores of one ranking (a repeat, a label) are cut into buckets of consecutive scores, a group of tied scores
never split: in memory, the sorted scores cut into chunks (one sort, the working memory of a chunk); on disk or on
a cluster, the buckets of a range partition, each sorted in memory. What the lower buckets hold is carried from
bucket to bucket, per segment (a fold, all the merged scores, or all but one fold):

* **AUC**: twice the Mann–Whitney count ``Σ pos_g (2 below_neg + neg_g)`` (ties count 1/2), ``below_neg``
  counting the negatives of the lower buckets too: the pairs within a bucket, and its positives times the
  negatives below it.
* **AP**: ``Σ pos_g · precision`` at each group's threshold, the precision of everything scored at or above it:
  the segment's totals (known before the first bucket: :class:`RankTotals`) less what lies below.
* **H**: the ROC points after the groups holding a positive, in the coordinates of the whole segment. A bucket
  keeps those on its own upper hull (the hull of a union is the hull of the union of hulls: the monotone chain
  across buckets), and the last step builds the hull of the kept points with the origin and the end (N, P), and
  integrates it (:func:`apples._kernels.hmeasure.segment_losses`).
* **Without fold f** (the jackknife): the pairs touching fold f with the negatives below the bucket and the
  positives above it carried; the merged groups without fold f's cases, with fold f's counts below carried
  (counts) or the other folds' weights below (weights), the totals without fold f known beforehand.

Every float sum runs one term after another in increasing score order and continues from the lower buckets' sum,
and integer counts are exact, so the counted result of many chunks is that of one sort bit for bit (up to 2**53,
about 10^8 cases). Buckets summarised in parallel start from zero sums and are added in order afterwards
(:meth:`BucketRanking.merge`): the same values to rounding. With weights, one bucket in memory gives the float
sums of :func:`apples._kernels.ranking.fold_ranking` as they were; many buckets, the same to rounding.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from apples._kernels.hmeasure import h_of_loss_arrays, segment_losses
from apples._kernels.rank_groups import (
    RankGroups,
    RestCarry,
    ap_sum,
    candidate_points,
    hull_candidates,
    layout_points,
    pairs_touching_folds,
    rest_groups,
    weighted_groups,
)

__all__ = [
    "BucketRanking",
    "RankTotals",
    "group_start_flags",
    "rank_totals",
]


class RankTotals(NamedTuple):
    """The positives and negatives of every segment over all the buckets: int64 counts or float64 sums of weights."""

    pos: np.ndarray  #: (k,) each fold's
    neg: np.ndarray  #: (k,)
    pos_merged: np.ndarray  #: (1,) all the folds'
    neg_merged: np.ndarray  #: (1,)
    pos_rest: np.ndarray  #: (k,) every fold's but f
    neg_rest: np.ndarray  #: (k,)


def rank_totals(pos: np.ndarray, neg: np.ndarray) -> RankTotals:
    """The totals from each fold's positives and negatives: counts are added and subtracted exactly; weights of
    every fold but f are summed afresh (no subtraction: what weighs nothing without fold f weighs exactly 0).

    >>> rank_totals(np.array([3, 1]), np.array([2, 0])).pos_rest.tolist()
    [1, 3]
    """

    def others(v: np.ndarray) -> np.ndarray:
        if v.dtype.kind in "iu":
            return v.sum() - v
        out = np.zeros(v.size)
        for f in range(v.size):
            for g in range(v.size):
                if g != f:
                    out[f] += v[g]
        return out

    def total(v: np.ndarray) -> np.ndarray:
        return np.array([v.sum()]) if v.dtype.kind in "iu" else np.bincount(np.zeros(v.size, np.intp), v, 1)

    return RankTotals(pos, neg, total(pos), total(neg), others(pos), others(neg))


def group_start_flags(scores: np.ndarray) -> np.ndarray:
    """Whether each of sorted scores starts a group of equal scores (differs from its predecessor)."""
    start = np.empty(scores.size, dtype=bool)
    start[:1] = True
    np.not_equal(scores[1:], scores[:-1], out=start[1:])
    return start


def _continued(seg: np.ndarray, terms: np.ndarray, start: np.ndarray) -> np.ndarray:
    """Per-segment sums of ``terms`` one after another, each continuing from ``start[seg]`` (``bincount`` adds in
    order: the bits of one sum over every bucket's terms)."""
    k = start.size
    return np.bincount(np.concatenate([np.arange(k), seg]), weights=np.concatenate([start, terms]), minlength=k)


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


Carry = tuple[np.ndarray, np.ndarray]
Points = tuple[np.ndarray, np.ndarray, np.ndarray]


def _groups_of_hits(h: _Hits, carry: Carry | None, totals: Carry | None) -> RankGroups:
    """The :class:`RankGroups` of counted hits (below counts within each segment, plus ``carry``: what the lower
    buckets hold; ``totals``: each segment's over all buckets, else the bucket's; positions of the layout)."""
    start = h.pos_before + h.neg_before  # the cases below a group are those before it in increasing order
    below_pos, below_neg = h.pos_before - h.pos_edges[h.seg], h.neg_before - h.neg_edges[h.seg]
    if carry is not None:
        below_pos, below_neg = below_pos + carry[0][h.seg], below_neg + carry[1][h.seg]
    n_pos, n_neg = totals if totals is not None else (np.diff(h.pos_edges), np.diff(h.neg_edges))
    return RankGroups(h.seg, h.pos, h.neg, below_pos, below_neg, start, start + h.pos + h.neg, n_pos, n_neg)


def _segment_sums(
    h: _Hits, carry: Carry | None, totals: Carry, twice_start: np.ndarray, ap_start: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray | None]:
    """Twice the Mann–Whitney count and ``Σ pos · precision`` of each segment, continued from the starts: the
    formulas of :func:`_segments` on counts, exact in integers up to the sums (the same floats bit for bit
    wherever the float sums are exact, 2·P·N < 2**53: up to about 10^8 cases; exact beyond)."""
    below_neg = h.neg_before - h.neg_edges[h.seg]
    if carry is not None:
        below_neg = below_neg + carry[1][h.seg]
    twice = _continued(h.seg, h.pos * (2 * below_neg + h.neg), twice_start)
    if ap_start is None:
        return twice, None
    p_seg, n_seg = totals
    below_pos = h.pos_before - h.pos_edges[h.seg]
    if carry is not None:
        below_pos = below_pos + carry[0][h.seg]
    at_or_above_pos = p_seg[h.seg] - below_pos
    at_or_above = (p_seg + n_seg)[h.seg] - (below_neg + below_pos)
    return twice, _continued(h.seg, h.pos * (at_or_above_pos / at_or_above), ap_start)


def _segments(
    scores: np.ndarray,
    positive: np.ndarray,
    seg: np.ndarray,
    n_seg: int,
    weights: np.ndarray,
    carry: Carry | None,
    totals: Carry | None,
    starts: tuple[np.ndarray, np.ndarray],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Twice the Mann–Whitney count and ``Σ pos · precision`` of each segment of weighted ``scores``, sorted
    ascending within each segment (``seg`` non-decreasing), continued from ``starts``; and the bucket's sums of
    weights of the positives and negatives of each segment.

    A group is a run of equal scores within a segment. With ``pos_g``, ``neg_g`` its positives' and negatives'
    weights, ``below`` the negatives of lower groups in the segment (and in lower buckets: ``carry``), P and N the
    segment's totals (``totals``, else the bucket's):

    * AUC = Σ pos_g (below + neg_g / 2) / (P N)   (Forman & Scholz §2.4; ties count 1/2);
    * AP  = Σ pos_g / P · precision at the group's threshold, the precision of everything scored at or above it
      (scikit-learn's step sum).
    """
    start = group_start_flags(scores)
    start[1:] |= seg[1:] != seg[:-1]
    first = np.flatnonzero(start)
    pos_g = np.add.reduceat(np.where(positive, weights, 0.0), first)
    neg_g = np.add.reduceat(np.where(positive, 0.0, weights), first)
    seg_g = seg[first]
    p_here = np.bincount(seg_g, weights=pos_g, minlength=n_seg)
    n_here = np.bincount(seg_g, weights=neg_g, minlength=n_seg)
    offset_neg = np.concatenate([[0.0], np.cumsum(n_here)[:-1]])
    offset_pos = np.concatenate([[0.0], np.cumsum(p_here)[:-1]])
    below_neg = np.cumsum(neg_g) - neg_g - offset_neg[seg_g]
    below_pos = np.cumsum(pos_g) - pos_g - offset_pos[seg_g]
    if carry is not None:
        below_pos, below_neg = below_pos + carry[0][seg_g], below_neg + carry[1][seg_g]
    p_seg, n_seg_tot = totals if totals is not None else (p_here, n_here)
    below_all = below_neg + below_pos
    twice = _continued(seg_g, pos_g * (2 * below_neg + neg_g), starts[0])
    at_or_above_pos = p_seg[seg_g] - below_pos
    at_or_above = (p_seg + n_seg_tot)[seg_g] - below_all
    if carry is not None:  # totals and the sums below rounded apart: at least the group itself is at or above it
        at_or_above_pos, at_or_above = np.maximum(at_or_above_pos, pos_g), np.maximum(at_or_above, pos_g + neg_g)
    with np.errstate(divide="ignore", invalid="ignore"):
        # a group without positives adds nothing, even at a 0/0 precision (a tie group of weight 0 at the top)
        terms = np.where(pos_g > 0, pos_g * (at_or_above_pos / at_or_above), 0.0)
    return twice, _continued(seg_g, terms, starts[1]), p_here, n_here


def _merged_twice(
    scores: np.ndarray, positive: np.ndarray, weights: np.ndarray, below: np.ndarray | None
) -> tuple[float, float, float]:
    """Twice the weighted Mann–Whitney count of sorted scores (ascending) against an indicator, ties counting 1/2,
    and the indicator's positive and negative weights; ``below``: the negatives of the lower buckets."""
    n = scores.size
    if n == 0:
        return 0.0, 0.0, 0.0
    first = np.flatnonzero(group_start_flags(scores))
    pos_g = np.add.reduceat(np.where(positive, weights, 0.0), first)
    neg_g = np.add.reduceat(np.where(positive, 0.0, weights), first)
    below_neg = np.cumsum(neg_g) - neg_g
    if below is not None:
        below_neg = below_neg + below[0]
    return float(np.dot(pos_g, 2.0 * below_neg + neg_g)), float(pos_g.sum()), float(neg_g.sum())


def _small_codes(fold: np.ndarray, n_folds: int) -> np.ndarray:
    """Fold codes in the narrowest unsigned dtype (a radix sort for 8 and 16 bits)."""
    small = np.uint8 if n_folds <= 256 else np.uint16 if n_folds <= 1 << 16 else np.int64
    return fold.astype(small, copy=False)


def _compacted(points: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Many buckets' kept points as one, each segment's reduced to those on its hull (in increasing score order)."""
    x, y, seg = (np.concatenate([p[i] for p in points]) for i in range(3))
    order = np.argsort(seg, kind="stable")  # by segment, each in increasing score order across buckets
    x, y, seg = x[order], y[order], seg[order]
    v = hull_candidates(x, y, seg)
    return x[v], y[v], seg[v]


class BucketRanking:
    """The ranking measures of one ranking (a repeat, a label), accumulated over buckets of its scores.

    Parameters
    ----------
    n_folds : int
        The folds k; fold codes are ``0 .. k - 1``.
    totals : RankTotals or None
        Each segment's positives and negatives over all the buckets (:func:`rank_totals`). None: the scores come
        in one bucket (:meth:`add` once), whose own sums are the totals.
    weighted : bool
        Sums of weights (float64) instead of counts (int64).
    other : bool
        Also the merged AUC of a second indicator (the predicted labels: ``FoldRanking.other_auc_merge``).
    h_prior : (alpha, beta), optional
        Also H under this Beta prior (:func:`apples._kernels.ranking.fold_ranking`).
    jackknife : bool
        Also the merged values without each fold.
    hull : bool
        Keep the hull points without ``h_prior``, for H under a prior given to :meth:`result`.
    """

    def __init__(
        self,
        n_folds: int,
        totals: RankTotals | None,
        *,
        weighted: bool,
        other: bool = False,
        h_prior: tuple[float, float] | None = None,
        jackknife: bool = False,
        hull: bool = False,
    ) -> None:
        k = n_folds
        self.k, self.totals, self.weighted, self.other = k, totals, weighted, other
        self.h_prior, self.jackknife = h_prior, jackknife
        self.keep_hull = hull or h_prior is not None  # the hull points, for H under any prior afterwards
        self.single = totals is None
        dt = np.float64 if weighted else np.int64
        # carried: what the lower buckets hold (counts or weights)
        self.below_pos, self.below_neg = np.zeros(k, dt), np.zeros(k, dt)
        self.below_pos_m, self.below_neg_m = np.zeros(1, dt), np.zeros(1, dt)
        self.rest_below_pos, self.rest_below_neg = np.zeros(k, dt), np.zeros(k, dt)  # weights: every fold but f
        self.other_below_neg: np.ndarray = np.zeros(1, dt)
        self.other_pos: np.ndarray = np.zeros(1, dt)
        self.other_neg: np.ndarray = np.zeros(1, dt)
        # the sums, one term after another in increasing score order
        self.twice, self.ap = np.zeros(k), np.zeros(k)
        self.twice_m, self.ap_m, self.other_twice = np.zeros(1), np.zeros(1), np.zeros(1)
        self.touching, self.ap_rest = np.zeros(k), np.zeros(k)
        # the ROC points that may be hull vertices, per bucket: (x, y, seg) in increasing score order
        self.points_folds: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self.points_merged: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self.points_rest: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self.n_buckets = 0

    # -- one bucket -----------------------------------------------------------------------------------------------
    def add(
        self,
        scores: np.ndarray,
        positive: np.ndarray,
        fold: np.ndarray,
        weights: np.ndarray | None = None,
        other: np.ndarray | None = None,
    ) -> None:
        """Add the next bucket: its scores sorted ascending (stably, with weights), every tie group whole, every
        score above the previous buckets'; ``positive``, ``fold`` (codes), ``weights`` (scaled, float64) and
        ``other`` in the same order."""
        assert not (self.single and self.n_buckets), "a ranking without totals takes one bucket"
        if self.weighted:
            assert weights is not None
            self._add_weighted(scores, positive, _small_codes(fold, self.k), weights, other)
        else:
            self._add_counted(scores, positive, _small_codes(fold, self.k), other)
        self.n_buckets += 1

    def _keep(self, into: list, points: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
        """Keep a bucket's candidate hull points: those on its own hull when more buckets follow."""
        if not self.single:
            if self.weighted:  # the totals and the sums below rounded apart: no point left of the origin
                points = (np.maximum(points[0], 0.0), np.maximum(points[1], 0.0), points[2])
            v = hull_candidates(*points)
            points = (points[0][v], points[1][v], points[2][v])
        into.append(points)
        if not self.single and len(into) > 64:
            into[:] = [_compacted(into)]

    def _add_counted(self, s: np.ndarray, positive: np.ndarray, fold: np.ndarray, other: np.ndarray | None) -> None:
        k, n = self.k, s.size
        start = group_start_flags(s)
        ties = not start.all()
        first = np.flatnonzero(start) if ties else None
        one = np.zeros(1, dtype=np.intp)  # the merged scores: one segment starting at 0
        hm = _hits(positive, first, one)
        # the cases fold by fold, each fold in increasing score order: a stable sort on the fold (a radix sort for
        # 8 and 16 bits); the folds start where their cumulated sizes say
        perm = np.argsort(fold, kind="stable")
        bounds = np.concatenate([[0], np.cumsum(np.bincount(fold, minlength=k))[:-1]])
        first_f = None
        if ties:  # the groups of equal scores within each fold
            start_f = group_start_flags(s[perm])
            start_f[bounds[bounds < n]] = True
            first_f = np.flatnonzero(start_f)
        hf = _hits(positive[perm], first_f, bounds)
        here_m = (np.diff(hm.pos_edges), np.diff(hm.neg_edges))
        here_f = (np.diff(hf.pos_edges), np.diff(hf.neg_edges))
        if self.single:
            self.totals = rank_totals(*here_f)._replace(pos_merged=here_m[0], neg_merged=here_m[1])
        t = self.totals
        assert t is not None
        carry_m = None if self.single else (self.below_pos_m, self.below_neg_m)
        carry_f = None if self.single else (self.below_pos, self.below_neg)
        tot_m, tot_f = (t.pos_merged, t.neg_merged), (t.pos, t.neg)
        self.twice_m, ap_m = _segment_sums(hm, carry_m, tot_m, self.twice_m, self.ap_m)
        self.twice, ap_f = _segment_sums(hf, carry_f, tot_f, self.twice, self.ap)
        assert ap_m is not None and ap_f is not None
        self.ap_m, self.ap = ap_m, ap_f
        if other is not None:
            ho = _hits(other, first, one)
            carry_o = None if self.single else (self.other_below_neg, self.other_below_neg)
            self.other_twice = _segment_sums(ho, carry_o, tot_m, self.other_twice, None)[0]
            o_pos, o_neg = np.diff(ho.pos_edges), np.diff(ho.neg_edges)
            self.other_pos, self.other_neg = self.other_pos + o_pos, self.other_neg + o_neg
            self.other_below_neg = self.other_below_neg + o_neg
        if self.keep_hull or self.jackknife:
            merged, folds = _groups_of_hits(hm, carry_m, tot_m), _groups_of_hits(hf, carry_f, tot_f)
            if self.keep_hull:
                self._keep(self.points_folds, candidate_points(folds))
                self._keep(self.points_merged, candidate_points(merged))
            if self.jackknife:
                above = None if self.single else (self.below_neg_m, t.pos_merged - self.below_pos_m - here_m[0])
                self.touching = self.touching + pairs_touching_folds(positive, None, first, fold, k, above)
                rc = None if self.single else RestCarry(self.below_pos, self.below_neg, t.pos_rest, t.neg_rest)
                for f in range(k):
                    self._rest(rest_groups(merged, positive, None, fold, first, perm, bounds, f, rc), f)
        self.below_pos_m, self.below_neg_m = self.below_pos_m + here_m[0], self.below_neg_m + here_m[1]
        self.below_pos, self.below_neg = self.below_pos + here_f[0], self.below_neg + here_f[1]

    def _rest(self, rest: RankGroups, f: int) -> None:
        """Fold f's share of a bucket: the AP sum and hull points of the merged groups without fold f."""
        if self.single:
            assert self.totals is not None
            self.totals.pos_rest[f], self.totals.neg_rest[f] = rest.n_pos[0], rest.n_neg[0]
        if not rest.n_pos[0] > 0:
            return
        self.ap_rest[f] = ap_sum(rest, float(self.ap_rest[f]), clamp=self.weighted and not self.single)
        if self.keep_hull and rest.n_neg[0] > 0:
            x, y, _ = candidate_points(rest)
            self._keep(self.points_rest, (x, y, np.full(x.size, f, dtype=np.intp)))

    def _add_weighted(
        self, s: np.ndarray, positive: np.ndarray, fold: np.ndarray, w: np.ndarray, other: np.ndarray | None
    ) -> None:
        k, n = self.k, s.size
        zeros = np.zeros(n, dtype=np.intp)
        carry_m = None if self.single else (self.below_pos_m, self.below_neg_m)
        carry_f = None if self.single else (self.below_pos, self.below_neg)
        t = self.totals
        tot_m = None if t is None else (t.pos_merged, t.neg_merged)
        tot_f = None if t is None else (t.pos, t.neg)
        self.twice_m, self.ap_m, p_m, n_m = _segments(
            s, positive, zeros, 1, w, carry_m, tot_m, (self.twice_m, self.ap_m)
        )
        if other is not None:
            twice_o, o_pos, o_neg = _merged_twice(s, other, w, None if self.single else self.other_below_neg)
            self.other_twice = self.other_twice + twice_o
            self.other_pos, self.other_neg = self.other_pos + o_pos, self.other_neg + o_neg
            self.other_below_neg = self.other_below_neg + o_neg
        perm = np.argsort(fold, kind="stable")  # a radix sort for 8- and 16-bit keys
        seg = fold[perm].astype(np.intp)
        s_f, pos_f, w_f = s[perm], positive[perm], w[perm]
        self.twice, self.ap, p_f, n_f = _segments(s_f, pos_f, seg, k, w_f, carry_f, tot_f, (self.twice, self.ap))
        if self.single:
            self.totals = t = RankTotals(p_f, n_f, p_m, n_m, np.zeros(k), np.zeros(k))
            tot_m, tot_f = (p_m, n_m), (p_f, n_f)
        assert t is not None
        if self.keep_hull or self.jackknife:
            merged = weighted_groups(s, positive, zeros, 1, w, carry_m, tot_m)
            folds = weighted_groups(s_f, pos_f, seg, k, w_f, carry_f, tot_f)
            if self.keep_hull:
                self._keep(self.points_folds, candidate_points(folds))
                self._keep(self.points_merged, candidate_points(merged))
            if self.jackknife:
                first = np.flatnonzero(group_start_flags(s))
                above = (
                    None if self.single else (self.below_neg_m, np.maximum(t.pos_merged - self.below_pos_m - p_m, 0.0))
                )
                self.touching = self.touching + pairs_touching_folds(positive, w, first, fold, k, above)
                bounds = np.concatenate([[0], np.cumsum(np.bincount(seg, minlength=k))[:-1]])
                rc = None
                if not self.single:
                    rc = RestCarry(self.rest_below_pos, self.rest_below_neg, t.pos_rest, t.neg_rest)
                for f in range(k):
                    self._rest(rest_groups(merged, positive, w, fold, first, perm, bounds, f, rc), f)
                here = rank_totals(p_f, n_f)
                self.rest_below_pos = self.rest_below_pos + here.pos_rest
                self.rest_below_neg = self.rest_below_neg + here.neg_rest
        self.below_pos_m, self.below_neg_m = self.below_pos_m + p_m, self.below_neg_m + n_m
        self.below_pos, self.below_neg = self.below_pos + p_f, self.below_neg + n_f

    def add_group(self, pos: np.ndarray, neg: np.ndarray, other_pos: Any = 0, other_neg: Any = 0) -> None:
        """Add the next bucket when it holds one score: a tie group given by each fold's positives and negatives (and
        the second indicator's), counts or sums of weights, however many cases it holds. The same sums as
        :meth:`add` of its cases."""
        assert not self.single, "a tie group alone is one bucket of many"
        t = self.totals
        assert t is not None
        k = self.k
        merged = rank_totals(pos, neg)
        pos_m, neg_m = merged.pos_merged, merged.neg_merged
        folds, segs = np.flatnonzero(pos > 0), np.arange(k)

        def terms(p: Any, n: Any, below_p: Any, below_n: Any, tp: Any, tn: Any) -> tuple[np.ndarray, np.ndarray]:
            above_p, above = tp - below_p, (tp + tn) - (below_p + below_n)
            if self.weighted:  # rounded apart: at least the group itself is at or above its threshold
                above_p, above = np.maximum(above_p, p), np.maximum(above, p + n)
            with np.errstate(divide="ignore", invalid="ignore"):
                return p * (2 * below_n + n), np.where(p > 0, p * (above_p / above), 0.0)

        def point(tp: Any, tn: Any, below_p: Any, below_n: Any, seg: np.ndarray) -> Points:
            x, y = tn - below_n, tp - below_p
            if self.weighted:
                x, y = np.maximum(x, 0.0), np.maximum(y, 0.0)
            return x[seg], y[seg], seg

        twice, ap = terms(pos, neg, self.below_pos, self.below_neg, t.pos, t.neg)
        self.twice, self.ap = _continued(segs, twice, self.twice), _continued(segs, ap, self.ap)
        twice, ap = terms(pos_m, neg_m, self.below_pos_m, self.below_neg_m, t.pos_merged, t.neg_merged)
        self.twice_m, self.ap_m = self.twice_m + twice, _continued(np.zeros(1, np.intp), ap, self.ap_m)
        if self.other:
            self.other_twice = self.other_twice + other_pos * (2 * self.other_below_neg + other_neg)
            self.other_pos, self.other_neg = self.other_pos + other_pos, self.other_neg + other_neg
            self.other_below_neg = self.other_below_neg + other_neg
        if self.keep_hull:
            self.points_folds.append(point(t.pos, t.neg, self.below_pos, self.below_neg, folds))
            if pos_m[0] > 0:
                self.points_merged.append(
                    point(t.pos_merged, t.neg_merged, self.below_pos_m, self.below_neg_m, np.zeros(1, np.intp))
                )
        if self.jackknife:
            above_pos = t.pos_merged - self.below_pos_m - pos_m
            if self.weighted:
                above_pos = np.maximum(above_pos, 0.0)
            touching = pos * (2 * self.below_neg_m + neg_m) + neg * (2 * above_pos + pos_m)
            self.touching = _continued(segs, touching, self.touching)
            below_p: np.ndarray
            below_n: np.ndarray
            if self.weighted:
                below_p, below_n = self.rest_below_pos, self.rest_below_neg
            else:
                below_p, below_n = self.below_pos_m - self.below_pos, self.below_neg_m - self.below_neg
            pos_r, neg_r = merged.pos_rest, merged.neg_rest
            _, ap = terms(pos_r, neg_r, below_p, below_n, t.pos_rest, t.neg_rest)
            self.ap_rest = _continued(segs, ap, self.ap_rest)
            if self.keep_hull:
                kept = np.flatnonzero((pos_r > 0) & (t.neg_rest > 0))
                self.points_rest.append(point(t.pos_rest, t.neg_rest, below_p, below_n, kept))
            self.rest_below_pos, self.rest_below_neg = self.rest_below_pos + pos_r, self.rest_below_neg + neg_r
        self.below_pos_m, self.below_neg_m = self.below_pos_m + pos_m, self.below_neg_m + neg_m
        self.below_pos, self.below_neg = self.below_pos + pos, self.below_neg + neg
        self.n_buckets += 1

    # -- buckets summarised apart (a cluster), then merged in order ----------------------------------------------
    def start_at(self, below_pos: np.ndarray, below_neg: np.ndarray, other_below_neg: float = 0) -> None:
        """Start from what the lower buckets hold of each fold (their positives and negatives, and the second
        indicator's negatives), the sums left at 0: a bucket summarised apart, to be :meth:`merge`-d in order."""
        self.below_pos, self.below_neg = below_pos.copy(), below_neg.copy()
        merged = rank_totals(below_pos, below_neg)
        self.below_pos_m, self.below_neg_m = merged.pos_merged, merged.neg_merged
        self.rest_below_pos, self.rest_below_neg = merged.pos_rest, merged.neg_rest
        self.other_below_neg = np.full(1, other_below_neg, dtype=self.below_pos.dtype)

    def merge(self, part: BucketRanking) -> None:
        """Add ``part``, the next bucket summarised apart (started with :meth:`start_at` where this one ends): its sums
        and hull points, and what it carries to the buckets above."""
        for name in ("twice", "ap", "twice_m", "ap_m", "other_twice", "touching", "ap_rest", "other_pos", "other_neg"):
            setattr(self, name, getattr(self, name) + getattr(part, name))
        for name in ("points_folds", "points_merged", "points_rest"):
            getattr(self, name).extend(getattr(part, name))
        for name in ("below_pos", "below_neg", "below_pos_m", "below_neg_m", "rest_below_pos", "rest_below_neg"):
            setattr(self, name, getattr(part, name))
        self.other_below_neg = part.other_below_neg
        self.n_buckets += part.n_buckets

    def compact(self) -> None:
        """Keep, of every bucket's hull points, only those on the hull of them all (once the last bucket is in)."""
        if not self.single:
            for points in (self.points_folds, self.points_merged, self.points_rest):
                if points:
                    points[:] = [_compacted(points)]

    # -- the values ------------------------------------------------------------------------------------------------
    def _h(self, points: list, n_pos: np.ndarray, n_neg: np.ndarray, prior: tuple[float, float]) -> np.ndarray:
        """H of each segment from its kept points (each bucket's in increasing score order, buckets ascending)."""
        if points:
            x, y, seg = (np.concatenate([p[i] for p in points]) for i in range(3))
            order = np.argsort(seg, kind="stable")  # by segment, each in increasing score order across buckets
            x, y, seg = x[order], y[order], seg[order]
        else:
            dtype = np.result_type(n_pos, n_neg)
            x, y, seg = np.zeros(0, dtype), np.zeros(0, dtype), np.zeros(0, np.intp)
        px, py, pseg = layout_points(x, y, seg, n_pos, n_neg)
        return h_of_loss_arrays(*segment_losses(px, py, pseg, n_pos, n_neg, *prior))

    def result(self, h_prior: tuple[float, float] | None = None) -> dict[str, Any]:
        """The per-fold, merged and (as asked) leave-one-fold-out values: the fields of
        :class:`apples._kernels.ranking.FoldRanking`; H under ``h_prior`` (default: the one given at the start)."""
        prior = h_prior if h_prior is not None else self.h_prior
        assert prior is None or self.keep_hull
        t = self.totals
        assert t is not None
        out: dict[str, Any] = {}
        with np.errstate(divide="ignore", invalid="ignore"):
            p, q = t.pos, t.neg
            out["auc"] = np.where((p > 0) & (q > 0), self.twice / (2.0 * p * q), np.nan)
            out["ap"] = np.where(p > 0, self.ap / p, np.nan)
            p, q = t.pos_merged, t.neg_merged
            out["auc_merge"] = float(np.where((p > 0) & (q > 0), self.twice_m / (2.0 * p * q), np.nan)[0])
            out["ap_merge"] = float(np.where(p > 0, self.ap_m / p, np.nan)[0])
            p, q = self.other_pos, self.other_neg
            if self.other and self.weighted:
                out["other_auc_merge"] = (
                    float(self.other_twice[0] / (2.0 * p[0] * q[0])) if p[0] > 0 and q[0] > 0 else np.nan
                )
            elif self.other:
                out["other_auc_merge"] = float(np.where((p > 0) & (q > 0), self.other_twice / (2.0 * p * q), np.nan)[0])
        if prior is not None:
            out["h"] = self._h(self.points_folds, t.pos, t.neg, prior)
            out["h_merge"] = float(self._h(self.points_merged, t.pos_merged, t.neg_merged, prior)[0])
        if self.jackknife:
            k = self.k
            p_rest = t.pos_merged[0] - t.pos
            n_rest = t.neg_merged[0] - t.neg
            with np.errstate(divide="ignore", invalid="ignore"):
                twice = self.twice_m[0] - self.touching + self.twice
                out["auc_merge_without"] = np.where(
                    (p_rest > 0) & (n_rest > 0), twice / (2.0 * p_rest * n_rest), np.nan
                )
            ap = np.full(k, np.nan)
            for f in range(k):
                if t.pos_rest[f] > 0:
                    ap[f] = self.ap_rest[f] / t.pos_rest[f]
            out["ap_merge_without"] = ap
            if prior is not None:  # every fold's rest a segment of its own: one pass, not one per fold
                h = self._h(self.points_rest, t.pos_rest, t.neg_rest, prior)
                out["h_merge_without"] = np.where((t.pos_rest > 0) & (t.neg_rest > 0), h, np.nan)
        return out
