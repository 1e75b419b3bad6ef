"""Hand's H-measure, computed exactly: ROC convex hull, Beta cost prior, minimum loss.

Introduced in notebook 07 (§7); notebook 08 compares its prior with the cost distributions
the integrated measures imply. Hand (2009) §§4–6 and Parker (2011) §II-G define
H from the loss of a classifier that uses, for each relative cost c, the
threshold T(c) that minimises the loss (Parker eqs. 3–4, b = 1):

    Q(t; c) = c · π0 · FPR(t) + (1 − c) · π1 · FNR(t),

where class 1 is the positive class (higher scores), π1 = P/n and π0 = N/n
are the class proportions in the test data, and c = c0/(c0 + c1) is the
relative cost of a false positive (misclassifying a class-0 case). With
empirical scores the minimum over thresholds is taken over the ROC convex
hull (Hand 2009 §5: a mix of two thresholds reaches any point on a hull
edge). Averaging over a Beta(α, β) prior u(c) gives

    L = ∫ min_t Q(t; c) u(c) dc,         L_max = ∫ min(c π0, (1 − c) π1) u(c) dc,
    H = 1 − L / L_max,

L_max being the loss of the better of the two trivial classifiers at each c.

Which c? In Hand (2009), Parker (2011) and the R package, class 0 is the
class with the *lower* scores and c is the cost share of misclassifying a
class-0 case. Here (and in the R package) class 0 is the negative class, so
c is the cost share of a false positive. Parker calls his low-scored class 0
"positive": with his labels read as ours (pos_label = positive), his c is
1 − c here and his Beta(α, β) prior is our Beta(β, α).

Exact integration
-----------------
The hull vertex j (FP_j false positives, FN_j false negatives) is optimal
for c in an interval [c_lo, c_hi] whose ends are the costs at which it ties
with its neighbours: across the hull edge from j to j + 1,
c = ΔTP / (ΔTP + ΔFP), the share of positives among the cases the edge adds.
On that interval Q is linear in c, and

    ∫ c u(c) dc       = α/(α+β) · [I_x(α+1, β)]_{c_lo}^{c_hi},
    ∫ (1 − c) u(c) dc = β/(α+β) · [I_x(α, β+1)]_{c_lo}^{c_hi},

with I the regularised incomplete beta function (``scipy.special.betainc``).
No quadrature: the tests check the result against quadrature instead.

The prior
---------
==========================  ==============================  =========================================
call                        prior on c                      source
==========================  ==============================  =========================================
default                     Beta(2, 1 + π0/π1)              R package ``hmeasure`` (severity ratio
                                                            π1/π0), also the PyPI ``hmeasure``
``severity_ratio=r``        Beta(2, 1 + 1/r)                the mode of c is r/(1 + r); r is the
                                                            cost of a false positive over that of
                                                            a false negative
``severity_ratio=1``        Beta(2, 2)                      Hand (2009) §6
``prior="hand2014"``        Beta(π1 + 1, π0 + 1)            Hand & Anagnostopoulos (2014); the R
                                                            package's negative severity ratio
==========================  ==============================  =========================================

Worse than random
-----------------
The ROC convex hull always contains the diagonal from (0, 0) to (1, 1), so
L ≤ L_max and H ≥ 0 by definition: a classifier whose ROC curve lies under
the diagonal gets H = 0 (``worse_than_random="literal"``, the default, and
what the PyPI ``hmeasure`` package does). Hand's R package instead reverses
the scores when AUC < 1/2 and warns ("ROC curve mostly lying under the
diagonal. Switching scores."), so it measures the reversed classifier:
``worse_than_random="flip"`` does the same, with a :class:`UserWarning`.
The default is the literal one because a measure should not silently score
a different classifier than the one it was given; "flip" is there to
reproduce the R package.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Hashable
from typing import Literal, NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from apples._kernels.hmeasure import beta_prior, convex_hull, h_losses, h_of_losses, reversed_ranks
from apples._kernels.hmeasure import minimum_loss as _minimum_loss
from apples._kernels.rank_groups import losses_of_groups, weighted_groups
from apples._kernels.ranking import CumulativeCounts, auc_from_counts, cumulative_counts, fold_ranking, scaled_weights
from apples._params import Instance, Kind, Nullable, Options, ParameterValueError, RealArray, SameLength, declare
from apples.metrics._ranking import SCORED, SCORED_RELATIONS, counts_of, one_class
from apples.metrics.scoring_rules import MEASURED_WEIGHT

__all__ = [
    "H_MEASURE_PRIORS",
    "HMeasureResult",
    "ROCHull",
    "h_measure",
    "h_measure_details",
    "h_measure_prior",
    "minimum_loss",
    "roc_convex_hull",
]

H_MEASURE_PRIORS: tuple[str, ...] = ("severity", "hand2014")
_WORSE_THAN_RANDOM = ("literal", "flip")


class ROCHull(NamedTuple):
    """Vertices of the upper convex hull of an empirical ROC curve, left to right.

    Vertex ``j`` minimises the loss Q(t; c) for c in ``[cost_low[j], cost_high[j]]``
    (so ``thresholds[j]`` is T(c) there, Parker eq. 3).
    """

    fpr: np.ndarray  #: FP/N at each vertex, increasing from 0 to 1
    tpr: np.ndarray  #: TP/P at each vertex, from 0 to 1
    thresholds: np.ndarray  #: the score threshold of each vertex, float (``inf`` for (0, 0); see roc_curve)
    fp: np.ndarray  #: false positives at each vertex (integers)
    tp: np.ndarray  #: true positives at each vertex (integers)
    cost_low: np.ndarray  #: lower end of the costs c at which the vertex is optimal
    cost_high: np.ndarray  #: upper end; cost_high[0] = 1, cost_low[-1] = 0
    n_pos: int
    n_neg: int


class HMeasureResult(NamedTuple):
    """H and the quantities it is made of (Hand 2009 §6)."""

    h: float  #: H = 1 − loss / max_loss
    loss: float  #: L, expected minimum loss of the ROC convex hull under the prior
    max_loss: float  #: L_max, the same for the better trivial classifier
    alpha: float  #: first shape parameter of the Beta prior on c
    beta: float  #: second shape parameter
    flipped: bool  #: scores were reversed (only with ``worse_than_random="flip"``)


def _hull(c: CumulativeCounts) -> ROCHull:
    """The :class:`ROCHull` of cumulative counts with both classes."""
    o = c.with_origin()
    h = convex_hull(c)
    fp, tp = o.fp[h.vertices], o.tp[h.vertices]
    return ROCHull(
        fp / c.n_neg, tp / c.n_pos, o.thresholds[h.vertices], fp, tp, h.cost_low, h.cost_high, c.n_pos, c.n_neg
    )


@declare(**SCORED, relations=SCORED_RELATIONS)
def roc_convex_hull(y_true: ArrayLike, y_score: ArrayLike, *, pos_label: Hashable = 1) -> ROCHull:
    """Upper convex hull of the empirical ROC curve (Hand 2009 §5).

    Tied scores are one threshold (a diagonal ROC step). Points on a hull edge
    are dropped, so consecutive edges have strictly decreasing slopes and the
    cost intervals of the vertices do not overlap.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Two classes.
    y_score : array-like of shape (n,)
        Finite scores, higher = more positive.
    pos_label : label, default 1
        The positive class.

    Returns
    -------
    ROCHull
        Vertices from (0, 0) to (1, 1) with their thresholds, counts and the
        interval of costs c at which each vertex is the loss-minimising one.

    References
    ----------
    Hand (2009) §5; Provost & Fawcett (2001) for the ROC convex hull.

    Examples
    --------
    >>> from apples.metrics import roc_convex_hull
    >>> h = roc_convex_hull([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1])
    >>> h.fpr.tolist(), h.tpr.tolist(), h.thresholds.tolist()
    ([0.0, 0.0, 0.5, 1.0], [0.0, 0.5, 1.0, 1.0], [inf, 0.9, 0.3, 0.1])
    >>> h.cost_low.tolist(), h.cost_high.tolist()
    ([1.0, 0.5, 0.0, 0.0], [1.0, 1.0, 0.5, 0.0])
    """
    return _hull(counts_of(y_true, y_score, pos_label))


#: Smallest usable severity ratio r, the smallest normal float: the prior is Beta(2, 1 + 1/r),
#: and below it 1/r overflows (r = 5e-324 gives Beta(2, inf), whose losses are NaN).
_MIN_SEVERITY_RATIO = float(np.finfo(float).tiny)


class _SeverityRatio(Kind):
    """A ratio >= the smallest normal float; not ``Real``: a tiny r overflows 1/r, and the message names the R package's
    negative ratio."""

    what = "a positive finite number"

    def check(self, name: str, value: object) -> float:
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
            raise TypeError(f"{name} must be a positive number or None, got {value!r}")
        try:
            r = float(value)
        except OverflowError:  # an int beyond the float range
            r = float("inf")
        if not (np.isfinite(r) and r > 0):
            raise ValueError(
                f"{name} must be a positive finite number, got {value!r} (the R package's "
                "negative severity ratio, which selects Beta(pi1 + 1, pi0 + 1), is prior='hand2014' here)"
            )
        if r < _MIN_SEVERITY_RATIO:
            raise ValueError(
                f"{name}={value!r} is too small: the prior is Beta(2, 1 + 1/r), and below the "
                f"smallest normal float 1/r overflows (or nearly); the usable range is "
                f"{_MIN_SEVERITY_RATIO!r} <= {name} < inf"
            )
        return r


class _Proportion(Kind):
    what = "a proportion strictly between 0 and 1"

    def check(self, name: str, value: object) -> float:
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
            raise TypeError(f"{name} must be {self.what}, got {value!r} ({type(value).__name__})")
        if not 0 < float(value) < 1:  # NaN too
            raise ValueError(f"{name} must be {self.what}, got {value!r}")
        return float(value)


#: The kind of a ``severity_ratio=`` parameter: None (the class proportions' ratio) or a ratio from the smallest
#: normal float up (the H-measure here, and the H of the binormal population in :mod:`apples.theory.parker`).
SEVERITY_RATIO = Nullable(_SeverityRatio())
_PRIOR = Options(*H_MEASURE_PRIORS)
_WORSE = Options(*_WORSE_THAN_RANDOM)


def _prior(pi1: float, severity_ratio: float | None, prior: str) -> tuple[float, float]:
    """(α, β) of checked arguments, with the rules between them."""
    if prior == "hand2014" and severity_ratio is not None:
        raise ParameterValueError(
            "severity_ratio must be None with prior='hand2014' (that prior is fixed by the class proportions)",
            param="severity_ratio",
        )
    if prior == "severity" and severity_ratio is None and pi1 / (1.0 - pi1) < _MIN_SEVERITY_RATIO:
        raise ParameterValueError(
            f"pi1={pi1!r} is too small for the default severity ratio pi1/(1 - pi1): the prior "
            f"Beta(2, 1 + (1 - pi1)/pi1) needs it to be at least {_MIN_SEVERITY_RATIO!r}",
            param="pi1",
        )
    return beta_prior(pi1, severity_ratio, prior)


@declare(pi1=_Proportion(), severity_ratio=SEVERITY_RATIO, prior=_PRIOR)
def h_measure_prior(
    pi1: float, *, severity_ratio: float | None = None, prior: Literal["severity", "hand2014"] = "severity"
) -> tuple[float, float]:
    """Shape parameters (α, β) of the Beta prior on the relative cost c.

    Parameters
    ----------
    pi1 : float
        Proportion of positives (class 1) in the test data, in (0, 1).
    severity_ratio : float or None, default None
        With ``prior="severity"``: r = (cost of a false positive)/(cost of a
        false negative), the mode of the prior being c = r/(1 + r); the prior
        is Beta(2, 1 + 1/r). None means r = π1/π0, the default of Hand's R
        package (Beta(2, 1 + π0/π1), mode at c = π1 where the two trivial
        classifiers tie). r = 1 gives Hand's (2009) Beta(2, 2). Usable from
        2.2e-308 (the smallest normal float; below it 1/r overflows) to any
        finite r: a smaller r is refused with a ValueError, never turned
        into a NaN loss.
    prior : {"severity", "hand2014"}, default "severity"
        ``"hand2014"``: Beta(π1 + 1, π0 + 1) of Hand & Anagnostopoulos (2014);
        ``severity_ratio`` must then be None.

    Returns
    -------
    (alpha, beta) : tuple of float

    References
    ----------
    Hand (2009) §6; Hand & Anagnostopoulos (2014); R package ``hmeasure``.

    Examples
    --------
    >>> from apples.metrics import h_measure_prior
    >>> h_measure_prior(0.25)                       # Beta(2, 1 + 3)
    (2.0, 4.0)
    >>> h_measure_prior(0.25, severity_ratio=1)     # Hand 2009
    (2.0, 2.0)
    >>> h_measure_prior(0.25, prior="hand2014")
    (1.25, 1.75)
    """
    return _prior(pi1, severity_ratio, prior)


@declare(
    hull=Instance(ROCHull, hint="from roc_convex_hull", what="an apples.metrics.ROCHull"),
    cost=RealArray(0, 1),
)
def minimum_loss(hull: ROCHull, cost: ArrayLike) -> np.ndarray:
    """min over thresholds of Q(t; c) = c·π0·FPR + (1 − c)·π1·FNR at each cost c.

    The lower envelope of the vertices' loss lines (Parker eqs. 3–4 with b = 1);
    used for plots and to check :func:`h_measure` by quadrature.

    Parameters
    ----------
    hull : ROCHull
        From :func:`roc_convex_hull`.
    cost : float or array-like
        Relative costs c in [0, 1].

    Returns
    -------
    ndarray of the shape of ``cost``

    References
    ----------
    Parker (2011) eqs. (3)–(4); Hand (2009) §5.

    Examples
    --------
    >>> from apples.metrics import minimum_loss, roc_convex_hull
    >>> h = roc_convex_hull([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1])
    >>> minimum_loss(h, [0.0, 0.5, 1.0]).tolist()   # at c = 1/2: half the minimum error rate
    [0.0, 0.125, 0.0]
    """
    return _minimum_loss(hull.fp, hull.tp, hull.n_pos, hull.n_neg, np.asarray(cost))


def _h_measure(
    y_true: ArrayLike,
    y_score: ArrayLike,
    severity_ratio: float | None,
    prior: str,
    worse_than_random: str,
    pos_label: Hashable,
    sample_weight: ArrayLike | None = None,
) -> HMeasureResult:
    """H and its parts for checked arguments (the body of :func:`h_measure` and :func:`h_measure_details`)."""
    if sample_weight is not None:
        return _weighted_h_measure(y_true, y_score, severity_ratio, prior, worse_than_random, pos_label, sample_weight)
    t, scores = np.asarray(y_true), np.asarray(y_score)
    c = counts_of(t, scores, pos_label)
    a, b = _prior(c.n_pos / (c.n_pos + c.n_neg), severity_ratio, prior)
    flipped = False
    if worse_than_random == "flip" and auc_from_counts(c) < 0.5:
        _warn_flip(5)
        # H depends on the order (and ties) only
        c, flipped = cumulative_counts(t == pos_label, reversed_ranks(scores)), True
    hull = _hull(c)
    loss, max_loss = h_losses(hull.fp, hull.tp, hull.cost_low, hull.cost_high, c.n_pos, c.n_neg, a, b)
    return _result(loss, max_loss, a, b, flipped, severity_ratio, prior)


def _warn_flip(stacklevel: int) -> None:
    warnings.warn(
        "ROC curve mostly lying under the diagonal (AUC < 1/2): switching scores, "
        "as Hand's R package does (worse_than_random='flip')",
        UserWarning,
        stacklevel=stacklevel,  # the caller of h_measure (through the declaration)
    )


def _result(
    loss: float, max_loss: float, a: float, b: float, flipped: bool, severity_ratio: float | None, prior: str
) -> HMeasureResult:
    h = h_of_losses(loss, max_loss)
    if h != h:  # never clip a NaN into a number
        raise ParameterValueError(
            f"the H-measure cannot be computed with the prior Beta({a!r}, {b!r}) (severity_ratio="
            f"{severity_ratio!r}, prior={prior!r}): its losses are L={loss!r}, L_max={max_loss!r}",
            param="severity_ratio",
        )
    return HMeasureResult(h, loss, max_loss, a, b, flipped)


def _weighted_h_measure(
    y_true: ArrayLike,
    y_score: ArrayLike,
    severity_ratio: float | None,
    prior: str,
    worse_than_random: str,
    pos_label: Hashable,
    sample_weight: ArrayLike,
) -> HMeasureResult:
    """H with case weights: the ROC curve of sums of weights (cases of weight 0 left out), its hull tested
    in floating point with Shewchuk's bound and exactly where the bound cannot decide."""
    t, scores = np.asarray(y_true), np.asarray(y_score)
    w = scaled_weights(np.asarray(sample_weight))  # exact: the same H, and no sum overflows or underflows
    keep = w > 0
    positive, s, w = (t == pos_label)[keep], scores[keep], w[keep]
    order = np.argsort(s, kind="stable")
    zeros = np.zeros(s.size, dtype=np.intp)
    g = weighted_groups(s[order], positive[order], zeros, 1, w[order])
    n_pos, n_neg = float(g.n_pos[0]), float(g.n_neg[0])
    if not (n_pos > 0 and n_neg > 0):
        raise ParameterValueError(
            f"{one_class(positive, t[keep], pos_label)} among the cases of positive weight; the measure needs both",
            param="y_true",
        )
    a, b = _prior(n_pos / (n_pos + n_neg), severity_ratio, prior)
    flipped = False
    if worse_than_random == "flip" and fold_ranking(positive, s, zeros, 1, weights=w).auc_merge < 0.5:
        _warn_flip(6)
        s, flipped = reversed_ranks(s), True
        order = np.argsort(s, kind="stable")
        g = weighted_groups(s[order], positive[order], zeros, 1, w[order])
    loss, max_loss = losses_of_groups(g, a, b)
    return _result(float(loss[0]), float(max_loss[0]), a, b, flipped, severity_ratio, prior)


_H_KINDS = {
    **SCORED,
    "severity_ratio": SEVERITY_RATIO,
    "prior": _PRIOR,
    "worse_than_random": _WORSE,
    "sample_weight": Nullable(MEASURED_WEIGHT),
}
_H_RELATIONS = [*SCORED_RELATIONS, SameLength("y_true", "sample_weight")]


@declare(**_H_KINDS, relations=_H_RELATIONS)
def h_measure_details(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    severity_ratio: float | None = None,
    prior: Literal["severity", "hand2014"] = "severity",
    worse_than_random: Literal["literal", "flip"] = "literal",
    pos_label: Hashable = 1,
    sample_weight: ArrayLike | None = None,
) -> HMeasureResult:
    """H-measure with its loss, maximal loss and prior; see :func:`h_measure`.

    Parameters
    ----------
    y_true, y_score, severity_ratio, prior, worse_than_random, pos_label, sample_weight
        As for :func:`h_measure`.

    Returns
    -------
    HMeasureResult
        ``h``, ``loss`` (L), ``max_loss`` (L_max), the prior's ``alpha`` and
        ``beta``, and whether the scores were ``flipped``.

    References
    ----------
    Hand (2009) §§5–6.

    Examples
    --------
    Hull vertices (FPR, TPR) = (0, 1/2) for c in [1/2, 1] and (1/2, 1) for c in
    [0, 1/2], so with u(c) = 6c(1 − c): L = 2 · ∫_0^{1/2} (c/4) u(c) dc = 5/64 and
    L_max = 2 · ∫_0^{1/2} (c/2) u(c) dc = 5/32.

    >>> from apples.metrics import h_measure_details
    >>> r = h_measure_details([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1], severity_ratio=1)
    >>> (r.alpha, r.beta), round(r.loss, 12), round(r.max_loss, 12), round(r.h, 12)
    ((2.0, 2.0), 0.078125, 0.15625, 0.5)
    """
    return _h_measure(y_true, y_score, severity_ratio, prior, worse_than_random, pos_label, sample_weight)


@declare(**_H_KINDS, relations=_H_RELATIONS)
def h_measure(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    severity_ratio: float | None = None,
    prior: Literal["severity", "hand2014"] = "severity",
    worse_than_random: Literal["literal", "flip"] = "literal",
    pos_label: Hashable = 1,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Hand's H-measure: 1 − expected minimum loss / that of the best trivial classifier.

    See the module docstring for the definition, the exact integration and
    the choice of prior.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Two classes.
    y_score : array-like of shape (n,)
        Finite scores, higher = more positive.
    severity_ratio : float or None, default None
        Cost of a false positive over that of a false negative at the mode
        of the prior; None means π1/π0 (Hand's R package default, prior
        Beta(2, 1 + π0/π1)); 1 gives Hand (2009)'s Beta(2, 2). Must be
        finite and at least 2.2e-308 (below it 1/r overflows; a ValueError
        says so).
    prior : {"severity", "hand2014"}, default "severity"
        ``"hand2014"``: Beta(π1 + 1, π0 + 1) (Hand & Anagnostopoulos 2014).
    worse_than_random : {"literal", "flip"}, default "literal"
        ``"literal"``: H of the scores as given, 0 when the ROC curve lies
        under the diagonal. ``"flip"``: reverse the scores when AUC < 1/2
        and warn, as Hand's R package does.
    pos_label : label, default 1
        The positive class (class 1 of Hand; π1 is its proportion).
    sample_weight : array-like of shape (n,), optional
        Finite non-negative case weights, not all 0: the ROC curve, π1 and the losses are sums of weights
        (cases of weight 0 are left out; integer weights give the H of repeated rows). The hull of the
        weighted ROC points is found in floating point: each orientation is decided by Shewchuk's error
        bound and, where it cannot decide, exactly in rational arithmetic on the sums as computed, so the
        hull is exact for integer weights (sums below 2**53) and exact for the rounded sums otherwise. The
        weights are scaled by a power of two first: weights near 1e308 or 5e-324 give the H of unit weights.

    Returns
    -------
    float in [0, 1]; 1 for a perfect ranking, 0 for a ranking no better than
    a constant prediction.

    References
    ----------
    Hand, D. J. (2009), "Measuring classifier performance: a coherent
    alternative to the area under the ROC curve", Machine Learning 77,
    103–123, §§4–6. Hand, D. J. & Anagnostopoulos, C. (2014), "A better Beta
    for the H measure of classification performance", Pattern Recognition
    Letters 40, 41–46. Parker (2011) §II-G. R package ``hmeasure``.

    Examples
    --------
    >>> from apples import h_measure
    >>> h_measure([1, 1, 0, 0], [0.9, 0.8, 0.3, 0.1])    # perfect ranking
    1.0
    >>> h_measure([1, 0, 1, 0], [0.5, 0.5, 0.5, 0.5])    # constant scores
    0.0
    >>> h_measure([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1], severity_ratio=1)   # 1 - 0.078125/0.15625
    0.5
    """
    return _h_measure(y_true, y_score, severity_ratio, prior, worse_than_random, pos_label, sample_weight).h
