"""Empirical misclassification losses on scores with ties (Parker 2011 §III; Hand 2009).

Introduced in notebook 07 (§6: the loss, T(c) and its cost intervals); notebook 08 (A.2) uses Hand's identity
with ties.

The sample counterparts of :mod:`apples.theory.parker`: the loss at a cost c,
the optimal threshold, the cost intervals over which each threshold is optimal,
Hand's loss identity with the midpoint rule at shared atoms, and the loss of
a threshold drawn uniformly from the scores. Label 1 is positive and a case
is predicted positive when ``score >= t``; c is the share of the cost that
falls on a missed positive (Parker's convention, 1 - c of :mod:`apples.metrics.hmeasure`).
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any, Literal, NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from apples._kernels import losses as kl
from apples._kernels.hmeasure import convex_hull
from apples._kernels.ranking import CumulativeCounts
from apples._params import (
    SEED,
    Integer,
    Options,
    Real,
    RealArray,
    check_table_size,
    declare,
    float_or_array,
)
from apples.metrics._ranking import SCORED, SCORED_RELATIONS, counts_of, require_both

__all__ = [
    "EmpiricalCosts",
    "HandLoss",
    "empirical_cost_intervals",
    "empirical_hand_loss",
    "empirical_loss",
    "empirical_optimal_threshold",
    "empirical_uniform_threshold_loss",
    "uniform_threshold_loss_draws",
]


class _Draws(Integer):
    """A number of draws: an integer >= 1 whose draws fit in memory (8 bytes each)."""

    def __init__(self) -> None:
        super().__init__(1, None)

    def check(self, name: str, value: object) -> int:
        n = super().check(name, value)
        check_table_size(f"{n:,} draws", 8 * n, reduce=name)  # the cases are drawn in chunks
        return n


_COST = RealArray(0, 1)
_SCALE = Real(0.0, None, low_inclusive=False)
_HAND_TIES = ("half", "positive", "negative")


class HandLoss(NamedTuple):
    """L_G for empirical scores, term by term (Parker §III-B)."""

    loss: float  #: L_G = π_0π_1·(missed + false_alarm)
    missed: float  #: ∫ f_1 (1 - F_0): mass of (negative, positive) pairs where the positive is missed
    false_alarm: float  #: ∫ f_0 F_1
    pi_pos: float
    pi_neg: float


@declare(**SCORED, ties=Options(*_HAND_TIES), relations=SCORED_RELATIONS)
def empirical_hand_loss(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    ties: Literal["half", "positive", "negative"] = "half",
    pos_label: Hashable = 1,
) -> HandLoss:
    """Hand's weighted loss L_G for empirical scores, summed exactly (Parker §III-B).

    For empirical scores W_G (eq. 8) puts mass (n_pos,t + n_neg,t)/n on each
    distinct score t, eq. (6) becomes c(t) = n_neg,t/(n_pos,t + n_neg,t), and
    eq. (7) is a finite sum over the distinct scores,
    L_G = π_0π_1 [Σ_t P_1(t)(1 - F_0(t)) + Σ_t P_0(t) F_1(t)],
    with P_k(t) the share of class k at score t.

    Parameters
    ----------
    y_true, y_score : array-like
        Labels and scores (both classes needed).
    ties : {"half", "positive", "negative"}, default "half"
        How the cases tied *at* the threshold t are predicted when the rates
        F_0(t), F_1(t) are evaluated at an atom: half each way (each CDF at
        the midpoint of its jump), all positive, or all negative.
    pos_label : label, default 1

    Returns
    -------
    HandLoss
        ``loss`` = 2π_0π_1(1 - AUC) exactly for every ``ties`` rule, AUC with
        ties counted ½ (the trapezoidal AUC). Only ``ties="half"`` makes
        ``missed == false_alarm == 1 - AUC`` individually, which is Parker's
        (and Hand's) step L_G = 2π_0π_1∫f_1(1 - F_0): integration by parts,
        ∫F_1 dF_0 + ∫F_0 dF_1 = 1, holds for step functions only with
        midpoint values at common jumps. The other rules move ½·P(tie)
        from one term to the other.

    Examples
    --------
    >>> from apples.metrics import empirical_hand_loss
    >>> h = empirical_hand_loss([1, 0, 1, 0], [0.8, 0.5, 0.5, 0.2])  # AUC = 0.875
    >>> h.missed, h.false_alarm, h.loss
    (0.125, 0.125, 0.0625)
    >>> h = empirical_hand_loss([1, 0, 1, 0], [0.8, 0.5, 0.5, 0.2], ties="positive")
    >>> h.missed, h.false_alarm, h.loss
    (0.0, 0.25, 0.0625)
    """
    share = {"half": 0.5, "positive": 0.0, "negative": 1.0}[ties]  # share of tied cases predicted negative
    return HandLoss(*kl.hand_loss(counts_of(y_true, y_score, pos_label), share))


class EmpiricalCosts(NamedTuple):
    """For each empirical threshold, the costs for which it minimises the loss.

    The ROC points first, named as in :class:`~apples.metrics.ROCCurve` (``fpr``, ``tpr``,
    ``thresholds``); ``c_low`` and ``c_high`` are in Parker's convention (c = the cost share of a
    missed positive), 1 − the ``cost_high`` and ``cost_low`` of :class:`~apples.metrics.ROCHull`.
    """

    fpr: np.ndarray
    tpr: np.ndarray
    #: +inf (predict nothing positive), then the distinct scores decreasing (float, see roc_curve)
    thresholds: np.ndarray
    c_low: np.ndarray  #: least cost at which the threshold is optimal (NaN off the hull)
    c_high: np.ndarray  #: greatest such cost (NaN off the hull)
    on_hull: np.ndarray  #: True for the vertices of the ROC convex hull


@declare(**SCORED, relations=SCORED_RELATIONS)
def empirical_cost_intervals(y_true: ArrayLike, y_score: ArrayLike, *, pos_label: Hashable = 1) -> EmpiricalCosts:
    """The empirical inverse of T(c): the interval of costs for which each threshold is optimal.

    Thresholds predict positive for ``score >= t`` (a tie group is never
    split), plus ``t = +inf``. The loss Q(t; 1, c) = c·π_0(1 - TPR) +
    (1 - c)·π_1·FPR is linear in c for each t, so T(c) is the lower envelope
    of these lines: only the vertices of the ROC convex hull are ever
    optimal, vertex j for c between the costs where the iso-loss slope
    π_1(1 - c)/(π_0 c) equals the slopes of its two hull edges. An edge with
    ΔTP positives and ΔFP negatives has slope (ΔTP/n_pos)/(ΔFP/n_neg) and
    breakpoint c = ΔFP/(ΔFP + ΔTP): eq. (6) with the densities replaced by
    the masses of the edge, the discrete counterpart of c(t).

    The hull is :func:`apples.metrics.roc_convex_hull`; its costs are in Hand's R
    package convention (c = cost share of a *false positive*), so here
    c = 1 - c_hmeasure.

    Examples
    --------
    >>> from apples.metrics import empirical_cost_intervals
    >>> r = empirical_cost_intervals([1, 1, 0, 1, 0, 0], [6, 5, 4, 3, 2, 1])
    >>> r.on_hull.tolist()
    [True, False, True, False, True, False, True]
    >>> [(float(a), float(b)) for a, b, h in zip(r.c_low, r.c_high, r.on_hull) if h]
    [(0.0, 0.0), (0.0, 0.5), (0.5, 1.0), (1.0, 1.0)]
    """
    c = counts_of(y_true, y_score, pos_label)
    o = c.with_origin()
    hull = convex_hull(c)
    on = np.zeros(o.thresholds.size, dtype=bool)
    on[hull.vertices] = True
    c_low = np.full(o.thresholds.size, np.nan)
    c_high = np.full(o.thresholds.size, np.nan)
    # the hull follows Hand's R package: its c is the cost share of a false positive
    c_low[on] = 1.0 - hull.cost_high
    c_high[on] = 1.0 - hull.cost_low
    return EmpiricalCosts(o.fp / c.n_neg, o.tp / c.n_pos, o.thresholds, c_low, c_high, on)


@declare(**SCORED, c=_COST, scale=_SCALE, relations=SCORED_RELATIONS)
def empirical_loss(
    y_true: ArrayLike, y_score: ArrayLike, c: ArrayLike, *, scale: float = 1.0, pos_label: Hashable = 1
) -> np.ndarray:
    """Q(t; b, c) (Parker eq. 4) at every empirical threshold: shape (n_thresholds,) + c.shape.

    Thresholds as in :func:`empirical_cost_intervals` (+inf first); at
    threshold t every case scoring ``>= t`` is predicted positive.

    Examples
    --------
    Two positives (3, 1) and one negative (2); at t = 2 one positive is missed
    and one negative is a false positive, each 1/3 of the cases:

    >>> from apples.metrics import empirical_loss
    >>> empirical_loss([1, 0, 1], [3, 2, 1], 0.25).round(4).tolist()
    [0.1667, 0.0833, 0.3333, 0.25]
    """
    return kl.loss_table(counts_of(y_true, y_score, pos_label), np.asarray(c), scale)


@declare(**SCORED, c=_COST, relations=SCORED_RELATIONS)
def empirical_optimal_threshold(y_true: ArrayLike, y_score: ArrayLike, c: ArrayLike, *, pos_label: Hashable = 1) -> Any:
    """T(c) for empirical scores: the threshold of least loss (the highest one if several tie).

    Thresholds as in :func:`empirical_loss`: predict positive for ``y_score >= t``,
    and ``t = inf`` (predict nothing positive) where that is best.

    Returns
    -------
    float, int or ndarray
        One threshold per cost, in the shape of ``c``. Float scores give a
        float (a float64 array for array ``c``). Integer scores (int64,
        uint64, datetime ticks) give the scores themselves, exactly, since
        float64 would merge distinct scores above 2**53: a Python ``int``, or
        for array ``c`` an object array of Python ints; either holds the float
        ``inf`` where nothing is predicted positive.

    Examples
    --------
    >>> import numpy as np
    >>> from apples.metrics import empirical_optimal_threshold
    >>> empirical_optimal_threshold([1, 1, 0, 1, 0, 0], [0.6, 0.5, 0.4, 0.3, 0.2, 0.1], [0.1, 0.6]).tolist()
    [0.5, 0.3]
    >>> empirical_optimal_threshold([1, 1, 0, 1, 0, 0], [6, 5, 4, 3, 2, 1], [0.0, 0.1, 0.6]).tolist()
    [inf, 5, 3]
    >>> empirical_optimal_threshold([1, 0], np.array([2**53 + 1, 2**53]), 0.5)
    9007199254740993
    """
    cc = counts_of(y_true, y_score, pos_label)
    best = np.argmin(kl.loss_table(cc, np.asarray(c), 1.0), axis=0)  # index into (+inf, the scores decreasing)
    return _thresholds_at(cc, best)


def _thresholds_at(cc: CumulativeCounts, index: np.ndarray) -> Any:
    """The thresholds (+inf first) at ``index``: floats for float scores, Python ints (exact) for integer ones."""
    if cc.thresholds.dtype.kind == "f":
        return float_or_array(cc.with_origin().thresholds[index])
    # integer scores: index a table of Python ints (exact at any size), +inf first
    table = np.empty(cc.thresholds.size + 1, dtype=object)
    table[0] = math.inf
    table[1:] = cc.thresholds.astype(object)
    return table[index]


@declare(**SCORED, scale=_SCALE, relations=SCORED_RELATIONS)
def empirical_uniform_threshold_loss(
    y_true: ArrayLike, y_score: ArrayLike, *, scale: float = 2.0, pos_label: Hashable = 1
) -> float:
    """Flach et al.'s L_c^t for empirical scores, exactly (Parker §VI-B).

    The threshold is the score of a test case drawn uniformly (W_G), the cases
    tied with it are predicted positive or negative with probability ½ each
    (the midpoint rule of :func:`empirical_hand_loss`), and c ~ U(0, 1)
    independently. Since Q is linear in c, E_c Q = Q(t; b, ½), and the sum
    equals b·[(π_0² + π_1²)/4 + π_0π_1(1 - AUC)] exactly.

    Examples
    --------
    >>> from apples.metrics import empirical_uniform_threshold_loss
    >>> empirical_uniform_threshold_loss([1, 0, 1, 0], [0.8, 0.5, 0.5, 0.2])  # AUC = 0.875
    0.3125
    """
    return kl.uniform_threshold_loss(counts_of(y_true, y_score, pos_label), scale)


@declare(**SCORED, n_draws=_Draws(), seed=SEED, scale=_SCALE, relations=SCORED_RELATIONS)
def uniform_threshold_loss_draws(
    y_true: ArrayLike,
    y_score: ArrayLike,
    n_draws: int,
    *,
    seed: int | np.random.Generator,
    scale: float = 2.0,
    pos_label: Hashable = 1,
) -> np.ndarray:
    """Monte Carlo draws of Flach et al.'s loss, whose mean converges to :func:`empirical_uniform_threshold_loss`.

    Each draw picks a test case uniformly (its score is the threshold), the
    cost c ~ U(0, 1) independently, predicts positive every case scoring above
    the threshold and each case tied with it by a fair coin, and returns
    b·(c·FN + (1 - c)·FP)/n.

    Parameters
    ----------
    y_true, y_score : array-like
    n_draws : int
        Number of draws (>= 1).
    seed : int or numpy.random.Generator
    scale : float, default 2.0
        b (2 gives unit costs at c = 1/2, as in :func:`uniform_threshold_loss`).

    Returns
    -------
    ndarray of shape (n_draws,)

    Examples
    --------
    >>> from apples.metrics import empirical_uniform_threshold_loss, uniform_threshold_loss_draws
    >>> y, s = [1, 0, 1, 0], [0.8, 0.5, 0.5, 0.2]
    >>> d = uniform_threshold_loss_draws(y, s, 100_000, seed=0)
    >>> bool(abs(d.mean() - empirical_uniform_threshold_loss(y, s)) < 4 * d.std() / 100_000**0.5)
    True
    """
    t = np.asarray(y_true)
    positive = t == pos_label
    require_both(positive, t, pos_label)
    return kl.uniform_threshold_draws(positive, np.asarray(y_score), n_draws, np.random.default_rng(seed), scale)
