"""The ROC convex hull and Hand's H-measure, integrated exactly (Hand 2009 §§4–6; Parker 2011 §II-G).

Costs follow Hand's R package: c is the cost share of a false positive. Vertex j of the hull is
optimal for c in ``[cost_low[j], cost_high[j]]``; on that interval the loss is linear in c, and its
integral against the Beta(α, β) prior is a difference of regularised incomplete beta functions.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from scipy.special import betainc

if TYPE_CHECKING:  # at run time only its attributes are read: apples._kernels.ranking imports this module
    from apples._kernels.ranking import CumulativeCounts

__all__ = [
    "Hull",
    "beta_prior",
    "convex_hull",
    "h_losses",
    "h_of_loss_arrays",
    "minimum_loss",
    "reversed_ranks",
    "segment_h",
    "segment_losses",
    "segment_upper_hull",
    "upper_hull",
]


def upper_hull(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Indices of the upper convex hull of points sorted by x (then y), collinear points dropped.

    Andrew's monotone chain on integer coordinates, so every orientation test is exact
    (scipy.spatial.ConvexHull works in floating point and rejects the degenerate, all-collinear
    ROC curves that are common here).

    >>> upper_hull(np.array([0, 0, 1, 2]), np.array([0, 1, 2, 2])).tolist()
    [0, 1, 2, 3]
    """
    # Vectorised pre-pass: a point on or below the chord between its two current neighbours is not
    # an extreme point of the set, and all such points can be dropped at once without changing the
    # hull. A few passes leave a handful of candidates (int64 products are exact for n < 3·10^9).
    idx = np.arange(len(x))
    for _ in range(64):
        if idx.size < 3:
            break
        xo, yo, xa, ya, xb, yb = x[idx[:-2]], y[idx[:-2]], x[idx[1:-1]], y[idx[1:-1]], x[idx[2:]], y[idx[2:]]
        keep = np.r_[True, (xa - xo) * (yb - yo) - (ya - yo) * (xb - xo) < 0, True]
        if keep.all():
            break
        idx = idx[keep]
    hull: list[int] = []
    xs, ys = x[idx].tolist(), y[idx].tolist()  # Python ints: exact products
    for k in range(len(xs)):
        while len(hull) >= 2:
            o, a = hull[-2], hull[-1]
            cross = (xs[a] - xs[o]) * (ys[k] - ys[o]) - (ys[a] - ys[o]) * (xs[k] - xs[o])
            if cross >= 0:  # a lies on or below the chord o -> k: not a vertex of the upper hull
                hull.pop()
            else:
                break
        hull.append(k)
    return idx[np.array(hull, dtype=np.intp)]


class Hull(NamedTuple):
    """The hull's vertices as indices into the ROC points (origin first), and their cost intervals."""

    vertices: np.ndarray  #: positions in ``c.with_origin()``
    cost_low: np.ndarray
    cost_high: np.ndarray


def convex_hull(c: CumulativeCounts) -> Hull:
    """The upper convex hull of the ROC points of ``c`` (origin first), with each vertex's cost interval.

    Across the hull edge from vertex j to j + 1 the loss-minimising vertex changes at
    ``c = ΔTP / (ΔTP + ΔFP)``; each edge adds at least one case, so there is no 0/0.
    """
    o = c.with_origin()
    idx = upper_hull(o.fp, o.tp)
    d_tp, d_fp = np.diff(o.tp[idx]), np.diff(o.fp[idx])
    edge_cost = d_tp / (d_tp + d_fp)
    return Hull(idx, np.r_[edge_cost, 0.0], np.r_[1.0, edge_cost])


def beta_prior(pi1: float, severity_ratio: float | None, prior: str) -> tuple[float, float]:
    """(α, β) of the prior on c: Beta(2, 1 + 1/r), r = π1/π0 by default, or Beta(π1 + 1, π0 + 1) ("hand2014")."""
    if prior == "hand2014":
        return pi1 + 1.0, (1.0 - pi1) + 1.0
    r = pi1 / (1.0 - pi1) if severity_ratio is None else severity_ratio
    return 2.0, 1.0 + 1.0 / r


def h_of_losses(loss: float, max_loss: float) -> float:
    """H = 1 − L / L_max (Hand 2009 eq. 8), NaN where the ratio is not finite (L_max = 0).

    0 <= L <= L_max holds exactly (the hull contains the diagonal): the clip to [0, 1] removes rounding
    only, and a NaN is never clipped into a number (Python's ``max(0.0, nan)`` is 0.0).
    """
    ratio = loss / max_loss if max_loss > 0 else float("nan")
    if not np.isfinite(ratio):
        return float("nan")
    return min(1.0, max(0.0, 1.0 - ratio))


def h_losses(
    fp: np.ndarray,
    tp: np.ndarray,
    cost_low: np.ndarray,
    cost_high: np.ndarray,
    n_pos: int,
    n_neg: int,
    a: float,
    b: float,
) -> tuple[float, float]:
    """L and L_max under the Beta(a, b) prior, from the hull's counts and cost intervals (Hand 2009 §6).

    ``∫ c u(c) dc = a/(a+b) · [I_x(a+1, b)]`` and ``∫ (1 − c) u(c) dc = b/(a+b) · [I_x(a, b+1)]``
    over each vertex's interval.
    """
    n = n_pos + n_neg
    pi1 = n_pos / n
    pi0 = 1.0 - pi1
    w_fp = a / (a + b) * (betainc(a + 1, b, cost_high) - betainc(a + 1, b, cost_low))
    w_fn = b / (a + b) * (betainc(a, b + 1, cost_high) - betainc(a, b + 1, cost_low))
    loss = float(np.sum(fp / n * w_fp + (n_pos - tp) / n * w_fn))
    max_loss = float(pi0 * a / (a + b) * betainc(a + 1, b, pi1) + pi1 * b / (a + b) * (1.0 - betainc(a, b + 1, pi1)))
    return loss, max_loss


def minimum_loss(fp: np.ndarray, tp: np.ndarray, n_pos: int, n_neg: int, cost: np.ndarray) -> np.ndarray:
    """min over the vertices of ``c·FP/n + (1 − c)·FN/n`` at each cost (any shape)."""
    n = n_pos + n_neg
    q = cost[..., None] * (fp / n) + (1.0 - cost[..., None]) * ((n_pos - tp) / n)
    result: np.ndarray = q.min(axis=-1)
    return result


def reversed_ranks(scores: np.ndarray) -> np.ndarray:
    """Scores in reverse order, ties kept: minus their dense ranks (negating would wrap a uint64 around)."""
    return -np.unique(scores, return_inverse=True)[1].reshape(-1)


# -- many hulls at once: every fold and the merged scores, counts or sums of weights ---------------------------------
#: Shewchuk's bound on the error of a float orientation determinant (``ccwerrboundA``, Shewchuk 1997 §4.3):
#: when ``|l − r| > (3 + 16ε)ε (|l| + |r|)`` the computed sign of ``l − r`` is the true one.
_ORIENT_BOUND = (3.0 + 16.0 * 2.0**-53) * 2.0**-53


def _turn(xo: float, yo: float, xa: float, ya: float, xb: float, yb: float) -> int:
    """The sign of ``(xa − xo)(yb − yo) − (ya − yo)(xb − xo)`` for Python ints (exact) or floats (Shewchuk's
    filter, then rational arithmetic on the floats as given when the filter cannot decide)."""
    left = (xa - xo) * (yb - yo)
    right = (ya - yo) * (xb - xo)
    det = left - right
    if isinstance(det, int) or abs(det) > _ORIENT_BOUND * (abs(left) + abs(right)):
        return (det > 0) - (det < 0)
    fo, go, fa, ga, fb, gb = (Fraction(v) for v in (xo, yo, xa, ya, xb, yb))
    exact = (fa - fo) * (gb - go) - (ga - go) * (fb - fo)
    return (exact > 0) - (exact < 0)


def segment_upper_hull(x: np.ndarray, y: np.ndarray, seg: np.ndarray) -> np.ndarray:
    """Indices of the upper convex hull of each segment's points, collinear and repeated points dropped.

    ``seg`` is non-decreasing; within a segment the points are sorted by x, then y (ROC points from the
    origin on), and its first and last points are always vertices. Integer coordinates are tested exactly
    (int64 products, exact for coordinates below 3·10^9). Float coordinates (sums of weights) are tested
    with Shewchuk's error bound and, when it cannot decide, in rational arithmetic: the orientation of the
    floats as given is exact unless a product underflows (coordinates 2**-500 apart, immaterial to H).

    >>> segment_upper_hull(np.array([0, 0, 1, 2, 0, 1, 2]), np.array([0, 1, 2, 2, 0, 0, 2]),
    ...                    np.array([0, 0, 0, 0, 1, 1, 1])).tolist()
    [0, 1, 2, 3, 4, 6]
    >>> segment_upper_hull(np.array([0.0, 0.1, 0.3]), np.array([0.0, 0.2, 0.6]), np.zeros(3, int)).tolist()
    [0, 2]
    """
    exact = x.dtype.kind in "iu"
    idx = np.arange(x.size)
    # the vectorised pre-pass of upper_hull, within segments: a point certainly on or below the chord of its two
    # neighbours (of its own segment) is not a vertex; a float test the bound cannot decide keeps the point
    for _ in range(64):
        if idx.size < 3:
            break
        o, a, b = idx[:-2], idx[1:-1], idx[2:]
        left = (x[a] - x[o]) * (y[b] - y[o])
        right = (y[a] - y[o]) * (x[b] - x[o])
        below = left - right >= (0 if exact else _ORIENT_BOUND * (np.abs(left) + np.abs(right)))
        drop = below & (seg[o] == seg[a]) & (seg[a] == seg[b])
        if not drop.any():
            break
        idx = idx[np.r_[True, ~drop, True]]
    xs, ys, ss = x[idx].tolist(), y[idx].tolist(), seg[idx].tolist()
    hull: list[int] = []
    base, current = 0, None
    for k in range(len(xs)):
        if ss[k] != current:
            base, current = len(hull), ss[k]
        while len(hull) - base >= 2:
            o_, a_ = hull[-2], hull[-1]
            if _turn(xs[o_], ys[o_], xs[a_], ys[a_], xs[k], ys[k]) >= 0:
                hull.pop()
            else:
                break
        hull.append(k)
    return idx[np.array(hull, dtype=np.intp)]


def segment_losses(
    x: np.ndarray,
    y: np.ndarray,
    seg: np.ndarray,
    n_pos: np.ndarray,
    n_neg: np.ndarray,
    a: float,
    b: float,
) -> tuple[np.ndarray, np.ndarray]:
    """L and L_max of every segment under one Beta(a, b) prior; NaN for a segment without positives or negatives.

    Each segment's points are ROC points (FP, TP) from its origin (0, 0) to its end (``n_neg``, ``n_pos``),
    sorted as :func:`segment_upper_hull` needs; points inside the hull may be left out (only the hull
    matters). L and L_max are those of :func:`h_losses` with the segment's own class proportions (Hand 2009
    §6), integrated exactly.
    """
    k = n_pos.size
    v = segment_upper_hull(x, y, seg)
    sv, fp, tp = seg[v], x[v], y[v]
    first = np.r_[True, sv[1:] != sv[:-1]]
    last = np.r_[sv[1:] != sv[:-1], True]
    d_tp, d_fp = np.diff(tp), np.diff(fp)
    with np.errstate(divide="ignore", invalid="ignore"):  # an empty segment's two points coincide: left out below
        edge_cost = d_tp / (d_tp + d_fp)
    cost_high = np.where(first, 1.0, np.r_[1.0, edge_cost])
    cost_low = np.where(last, 0.0, np.r_[edge_cost, 0.0])
    n_pos_f = n_pos.astype(np.float64)
    n = n_pos_f + n_neg
    nv = n[sv]
    w_fp = a / (a + b) * (betainc(a + 1, b, cost_high) - betainc(a + 1, b, cost_low))
    w_fn = b / (a + b) * (betainc(a, b + 1, cost_high) - betainc(a, b + 1, cost_low))
    both = (n_pos > 0) & (n_neg > 0)  # a segment with one class (or none) has no H: its terms are left out
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = fp / nv * w_fp + (n_pos[sv] - tp) / nv * w_fn
        loss = np.bincount(sv, weights=np.where(both[sv], terms, 0.0), minlength=k)
        pi1 = n_pos_f / n
        pi0 = 1.0 - pi1
        max_loss = pi0 * a / (a + b) * betainc(a + 1, b, pi1) + pi1 * b / (a + b) * (1.0 - betainc(a, b + 1, pi1))
    return np.where(both, loss, np.nan), np.where(both, max_loss, np.nan)


def h_of_loss_arrays(loss: np.ndarray, max_loss: np.ndarray) -> np.ndarray:
    """:func:`h_of_losses` elementwise: ``1 − L / L_max``, NaN where the ratio is not finite (never clipped)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(max_loss > 0, loss / max_loss, np.nan)
    defined = np.isfinite(ratio)
    return np.where(defined, np.clip(1.0 - np.where(defined, ratio, 0.0), 0.0, 1.0), np.nan)


def segment_h(
    x: np.ndarray,
    y: np.ndarray,
    seg: np.ndarray,
    n_pos: np.ndarray,
    n_neg: np.ndarray,
    a: float,
    b: float,
) -> np.ndarray:
    """Hand's H of every segment under one Beta(a, b) prior (:func:`segment_losses`, then :func:`h_of_losses`);
    NaN for a segment without positives or negatives.

    >>> segment_h(np.array([0, 0, 1, 2]), np.array([0, 1, 2, 2]), np.zeros(4, int), np.array([2]),
    ...           np.array([2]), 2.0, 2.0).round(12).tolist()   # h_measure([1, 0, 1, 0], [.9, .8, .3, .1], ratio 1)
    [0.5]
    """
    return h_of_loss_arrays(*segment_losses(x, y, seg, n_pos, n_neg, a, b))
