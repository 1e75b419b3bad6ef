"""Ranking measures on one set of scores: the ROC curve, ROC AUC, average precision, precision@k.

Forman & Scholz (2010) §3 (AUC), Parker (2011) §II (AP, precision@k). Ties are
handled exactly: tied scores form one ROC step (the trapezoid), and precision@k
can split a tie group in expectation.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Literal, NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from apples._kernels.ranking import (
    CumulativeCounts,
    ap_from_counts,
    auc_from_counts,
    cumulative_counts,
    fold_ranking,
    precision_at_k_from_counts,
    roc_points,
    scaled_weights,
)
from apples._params import (
    Kind,
    Nullable,
    Options,
    ParameterValueError,
    Policy,
    SameLength,
    Undefined,
    check_int,
    declare,
    resolve,
)
from apples.metrics._ranking import SCORED, SCORED_RELATIONS, counts_of, one_class
from apples.metrics.scoring_rules import MEASURED_WEIGHT

__all__ = [
    "PRECISION_AT_K_TIES",
    "ROCCurve",
    "average_precision",
    "precision_at_k",
    "roc_auc",
    "roc_curve",
]
PRECISION_AT_K_TIES: tuple[str, ...] = ("expected", "pessimistic", "optimistic")
_HINT = "pass undefined='nan' to return NaN instead"

#: AUC and average precision have no "zero" policy: a substituted 0 would read as "perfectly wrong ranking".
_RANKING_POLICY = Undefined("raise", "nan")


class _TopK(Kind):
    what = "a positive integer (how many top-ranked cases)"

    def check(self, name: str, value: object) -> int:
        try:
            k = check_int(name, value)
        except TypeError:
            raise TypeError(f"{name} must be a positive integer, got {value!r} ({type(value).__name__})") from None
        if k < 1:
            raise ValueError(f"{name}={k} must lie in [1, n]: it counts the top-ranked cases")
        return k


#: The declaration of a ranking measure that takes ``sample_weight`` (scikit-learn's; not all 0).
_WEIGHTED = {**SCORED, "sample_weight": Nullable(MEASURED_WEIGHT)}
_WEIGHTED_RELATIONS = [*SCORED_RELATIONS, SameLength("y_true", "sample_weight")]


def _kept(positive: np.ndarray, scores: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The cases of positive weight (scikit-learn's ``_binary_clf_curve`` drops the others)."""
    keep = w > 0
    return positive[keep], scores[keep], w[keep]


def _weighted_counts(positive: np.ndarray, scores: np.ndarray, w: np.ndarray) -> CumulativeCounts:
    """Sums of the weights of the positives and negatives scored at or above each distinct threshold.

    The weights are scaled by a power of two first (exact): the rates are the same, and weights near 1e308
    or 5e-324 neither overflow nor underflow in the sums.
    """
    positive, scores, w = _kept(positive, scores, scaled_weights(w))
    order = np.argsort(scores, kind="stable")[::-1]
    s, p, ws = scores[order], positive[order], w[order]
    change = np.flatnonzero(s[1:] != s[:-1])
    last, first = np.r_[change, s.size - 1], np.r_[0, change + 1]
    tp = np.cumsum(np.where(p, ws, 0.0))[last]
    fp = np.cumsum(np.where(p, 0.0, ws))[last]
    n_pos, n_neg = float(tp[-1]) if tp.size else 0.0, float(fp[-1]) if fp.size else 0.0
    return CumulativeCounts(s[first], tp, fp, n_pos, n_neg)  # type: ignore[arg-type]


def _weighted_ranking(positive: np.ndarray, scores: np.ndarray, w: np.ndarray) -> tuple[float, float]:
    """(AUC, AP) with case weights, from the ranking kernel (one fold)."""
    positive, scores, w = _kept(positive, scores, w)
    if scores.size == 0:
        return float("nan"), float("nan")
    r = fold_ranking(positive, scores, np.zeros(scores.size, dtype=np.intp), 1, weights=w)
    return r.auc_merge, r.ap_merge


class ROCCurve(NamedTuple):
    """The ROC curve: false and true positive rates at every threshold, from the origin on.

    Unpacks as scikit-learn's ``fpr, tpr, thresholds = roc_curve(...)``; the other curves
    (:class:`~apples.metrics.KappaCurve`, :class:`~apples.metrics.ROCHull`,
    :class:`~apples.metrics.EmpiricalCosts`) name their fields alike.
    """

    fpr: np.ndarray  #: FP / N at each threshold, from 0
    tpr: np.ndarray  #: TP / P at each threshold, from 0
    thresholds: np.ndarray  #: ``inf``, then the distinct scores decreasing (float64)


@declare(**_WEIGHTED, relations=_WEIGHTED_RELATIONS)
def roc_curve(
    y_true: ArrayLike, y_score: ArrayLike, *, pos_label: Hashable = 1, sample_weight: ArrayLike | None = None
) -> ROCCurve:
    """ROC curve: false and true positive rate at every distinct score threshold.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels, two classes.
    y_score : array-like of shape (n,)
        Real-valued scores, higher = more positive (probabilities, SVM
        margins, anything ranked).
    pos_label : label, default 1
        The positive class.
    sample_weight : array-like of shape (n,), optional
        Finite non-negative case weights, not all 0: the rates are sums of weights (scikit-learn's
        ``sample_weight=``; cases of weight 0 are left out, as scikit-learn leaves them out). Bools and
        object arrays of numbers are cast to float; weights near 1e308 or 5e-324 give the rates of unit
        weights (they are scaled by a power of two, exactly).

    Returns
    -------
    ROCCurve
        ``(fpr, tpr, thresholds)``, which unpacks as scikit-learn's tuple.
    fpr, tpr : ndarray of shape (m + 1,)
        FP / N and TP / P at each threshold, starting at (0, 0).
    thresholds : ndarray of float of shape (m + 1,)
        ``inf`` then the m distinct scores in decreasing order, as
        scikit-learn's ``roc_curve(..., drop_intermediate=False)`` returns them.
        Float, to hold ``inf``: integer scores above 2**53 (e.g. nanosecond
        timestamps; datetime scores are ranked by their integer ticks) are
        ranked exactly and each is its own threshold with its own rates, but
        neighbouring ones may print alike here.

    Raises
    ------
    ValueError
        If ``y_true`` holds only one class (the curve is 0/0 on one axis; note
        scikit-learn warns and returns NaN instead), on mismatched lengths,
        missing labels or non-finite scores, or if ``pos_label`` is absent.
    TypeError
        For non-numeric scores, labels of mixed kinds, or a ``pos_label`` label
        of another kind than the labels (e.g. ``1`` for ``["a", "b"]``).

    Notes
    -----
    A group of tied scores is one threshold, so it moves the curve along a
    diagonal segment; nothing is dropped (no ``drop_intermediate``).

    References
    ----------
    Forman & Scholz (2010) §2.4 and Figure 3 (the rates against the threshold).

    Examples
    --------
    >>> from apples import roc_curve
    >>> fpr, tpr, thr = roc_curve([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1])
    >>> fpr.tolist(), tpr.tolist(), thr.tolist()
    ([0.0, 0.0, 0.5, 1.0], [0.0, 0.5, 1.0, 1.0], [inf, 0.9, 0.5, 0.1])
    """
    if sample_weight is not None:
        t = np.asarray(y_true)
        positive = t == pos_label
        c = _weighted_counts(positive, np.asarray(y_score), np.asarray(sample_weight))
        if c.n_pos == 0 or c.n_neg == 0:
            raise ParameterValueError(
                f"{one_class(positive & (np.asarray(sample_weight) > 0), t, pos_label)} among the cases of "
                "positive weight: the ROC curve is 0/0 on one axis",
                param="y_true",
            )
        return ROCCurve(*roc_points(c))
    return ROCCurve(*roc_points(counts_of(y_true, y_score, pos_label)))


@declare(**_WEIGHTED, undefined=_RANKING_POLICY, relations=_WEIGHTED_RELATIONS)
def roc_auc(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Hashable = 1,
    undefined: Policy = "raise",
    sample_weight: ArrayLike | None = None,
) -> float:
    """Area under the ROC curve, the Mann–Whitney probability with ties counting 1/2.

    ``AUC = (#{pos > neg} + 0.5 · #{pos = neg}) / (P · N)`` over all
    positive–negative pairs, which equals the trapezoidal area under
    :func:`roc_curve` (Forman & Scholz §2.4; Parker 2011 §2).

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels (two classes) and scores (higher = more positive).
    pos_label : label, default 1
        The positive class.
    undefined : {"raise", "nan"}, default "raise"
        When ``y_true`` holds one class only, AUC is undefined: raise
        :class:`~apples.UndefinedMetricError` (a ``ValueError``), or return
        ``nan`` for the caller to skip. There is no zero option: a substituted
        0 would read as "perfectly wrong ranking".
    sample_weight : array-like of shape (n,), optional
        Finite non-negative case weights, not all 0: each pair counts the product of its weights (the
        weighted Mann–Whitney AUC, scikit-learn's ``roc_auc_score(sample_weight=)``); with weight only in
        one class the AUC is undefined as above. Scaled by a power of two before summing (exact), so
        weights near 1e308 or 5e-324 give the AUC of unit weights.

    Returns
    -------
    float in [0, 1]

    References
    ----------
    Forman & Scholz (2010) §2.4; Hanley & McNeil (1982) for AUC = Mann–Whitney U / (P·N).

    Examples
    --------
    >>> from apples import roc_auc
    >>> roc_auc([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1])    # pairs: 1, 1, 1, 0.5 of 4
    0.875
    >>> roc_auc([0, 0], [0.3, 0.4], undefined="nan")
    nan
    """
    t = np.asarray(y_true)
    positive = t == pos_label
    if sample_weight is None:
        value = auc_from_counts(cumulative_counts(positive, np.asarray(y_score)))
    else:
        value = _weighted_ranking(positive, np.asarray(y_score), np.asarray(sample_weight))[0]
    if value != value:  # one class only (of positive weight)
        return resolve(value, undefined, what="AUC", hint=f"{one_class(positive, t, pos_label)}; {_HINT}")
    return value


@declare(**_WEIGHTED, undefined=_RANKING_POLICY, relations=_WEIGHTED_RELATIONS)
def average_precision(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Hashable = 1,
    undefined: Policy = "raise",
    sample_weight: ArrayLike | None = None,
) -> float:
    """Average precision: precision at each threshold weighted by the recall it adds.

    ``AP = Σ_t (R_t − R_{t−1}) · P_t`` over the distinct score thresholds t
    in decreasing order (tied scores are one threshold), the definition of
    scikit-learn's ``average_precision_score``. It is the "Mean Average
    Precision" of Forman & Scholz §3.2 for one query, and the AP of Parker
    (2011).

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels (two classes) and scores (higher = more positive).
    pos_label : label, default 1
        The positive class.
    undefined : {"raise", "nan"}, default "raise"
        With no positives recall is 0/0 and AP is undefined: raise
        :class:`~apples.UndefinedMetricError` or return ``nan``.
        (scikit-learn returns 0 with a warning.) With no negatives AP is 1.
    sample_weight : array-like of shape (n,), optional
        Finite non-negative case weights, not all 0: recall and precision are sums of weights
        (scikit-learn's ``average_precision_score(sample_weight=)``; cases of weight 0 are left out, as
        there). Scaled by a power of two before summing (exact).

    References
    ----------
    Forman & Scholz (2010) §3.2 ("Mean Average Precision" must be computed per
    fold); Parker (2011) §II (AP among the integrated measures).

    Examples
    --------
    >>> from apples import average_precision
    >>> round(average_precision([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1]), 12)   # (1/1 + 2/3) / 2
    0.833333333333
    """
    t = np.asarray(y_true)
    positive = t == pos_label
    if sample_weight is None:
        value = ap_from_counts(cumulative_counts(positive, np.asarray(y_score)))
    else:
        value = _weighted_ranking(positive, np.asarray(y_score), np.asarray(sample_weight))[1]
    if value != value:  # no positives (of positive weight): recall is 0/0
        hint = f"{one_class(positive, t, pos_label)}; {_HINT}"
        return resolve(value, undefined, what="average precision (recall is 0/0)", hint=hint)
    return value


@declare(**SCORED, k=_TopK(), ties=Options(*PRECISION_AT_K_TIES), relations=SCORED_RELATIONS)
def precision_at_k(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    k: int,
    pos_label: Hashable = 1,
    ties: Literal["expected", "pessimistic", "optimistic"] = "expected",
) -> float:
    """Precision among the k highest-scored cases ("precision at k", Forman & Scholz §3.2).

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels (two classes, or one) and scores (higher = more positive).
    k : int
        How many top-ranked cases to inspect, ``1 <= k <= n``.
    pos_label : label, default 1
        The positive class.
    ties : {"expected", "pessimistic", "optimistic"}, default "expected"
        The rule when a group of tied scores straddles position k, i.e. only
        ``m`` of the group's ``g`` cases (holding ``p`` positives) fit in the
        top k:

        - ``"expected"``: the group contributes ``m · p / g`` positives, the
          mean over every ordering of the tied cases (hypergeometric mean).
          This is the same convention as a tie counting 1/2 in AUC.
        - ``"pessimistic"``: its negatives come first: ``max(0, m − (g − p))``.
        - ``"optimistic"``: its positives come first: ``min(m, p)``.

        Without a straddling tie group all three agree.

    Returns
    -------
    float in [0, 1]. Defined for every fold with at least k cases (a fold
    without positives scores 0, which is its true precision).

    Raises
    ------
    ValueError
        If ``k`` is outside ``[1, n]``, or on bad labels/scores.
    TypeError
        If ``k`` is not an integer (``bool`` and ``float`` are rejected), or
        ``pos_label`` is of another kind than the labels: ``["pos", "pos"]``
        with the default ``pos_label=1`` is an error, not a precision of 0.

    References
    ----------
    Forman & Scholz (2010) §3.2 ("Precision at 20" must be computed per fold
    and averaged).

    Examples
    --------
    >>> from apples import precision_at_k
    >>> y, s = [1, 0, 1, 0, 0], [0.9, 0.8, 0.5, 0.5, 0.1]
    >>> [precision_at_k(y, s, k=3, ties=t) for t in ("expected", "pessimistic", "optimistic")]
    [0.5, 0.3333333333333333, 0.6666666666666666]
    """
    n = np.asarray(y_true).size
    if k > n:
        raise ParameterValueError(f"k={k} must lie in [1, n] with n={n} cases", param="k")
    return precision_at_k_from_counts(counts_of(y_true, y_score, pos_label, both=False), k, ties)
