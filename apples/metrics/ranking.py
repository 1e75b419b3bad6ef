"""Ranking measures on one set of scores: the ROC curve, ROC AUC, average precision, precision@k.

Forman & Scholz (2010) §3 (AUC), Parker (2011) §II (AP, precision@k). Ties are
handled exactly: tied scores form one ROC step (the trapezoid), and precision@k
can split a tie group in expectation.
"""

from __future__ import annotations

import numbers
from typing import Literal

import numpy as np

from apples._params import (
    UndefinedMetricError,
    check_choice,
)
from apples.metrics._ranking import binary_scores, check_binary_scores, cumulative_counts

__all__ = [
    "PRECISION_AT_K_TIES",
    "average_precision",
    "precision_at_k",
    "roc_auc",
    "roc_curve",
]
PRECISION_AT_K_TIES: tuple[str, ...] = ("expected", "pessimistic", "optimistic")


def _check_metric_undefined(undefined: object) -> str:
    """The shared check_choice, limited to "raise" and "nan": these metrics have no "zero" policy."""
    return check_choice("undefined", undefined, ("raise", "nan"))


def roc_curve(y_true, y_score, *, pos_label=1):
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

    Returns
    -------
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
    >>> fpr, tpr, thr = roc_curve([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1])
    >>> fpr.tolist(), tpr.tolist(), thr.tolist()
    ([0.0, 0.0, 0.5, 1.0], [0.0, 0.5, 1.0, 1.0], [inf, 0.9, 0.5, 0.1])
    """
    pos, s = check_binary_scores(y_true, y_score, pos_label=pos_label)
    c = cumulative_counts(pos, s).with_origin()
    return c.fp / c.n_neg, c.tp / c.n_pos, c.thresholds


def roc_auc(y_true, y_score, *, pos_label=1, undefined: Literal["raise", "nan"] = "raise") -> float:
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

    Returns
    -------
    float in [0, 1]

    References
    ----------
    Forman & Scholz (2010) §2.4; Hanley & McNeil (1982) for AUC = Mann–Whitney U / (P·N).

    Examples
    --------
    >>> roc_auc([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1])    # pairs: 1, 1, 1, 0.5 of 4
    0.875
    >>> roc_auc([0, 0], [0.3, 0.4], undefined="nan")
    nan
    """
    _check_metric_undefined(undefined)
    b = binary_scores(y_true, y_score, pos_label=pos_label, require_both=False)
    pos, s = b.is_positive, b.scores
    n_pos = int(pos.sum())
    n_neg = pos.size - n_pos
    if n_pos == 0 or n_neg == 0:
        if undefined == "nan":
            return float("nan")
        raise UndefinedMetricError(f"AUC is undefined: {b.one_class()}")
    c = cumulative_counts(pos, s)
    tp_before = np.r_[0, c.tp[:-1]]
    d_tp = c.tp - tp_before
    d_fp = np.diff(np.r_[0, c.fp])
    # each negative in a group is beaten by every positive above the group and ties with half of the group's positives
    u = np.sum(d_fp * (2 * tp_before + d_tp))  # = 2 U, exact in integers
    return float(u / (2.0 * n_pos * n_neg))


def average_precision(y_true, y_score, *, pos_label=1, undefined: Literal["raise", "nan"] = "raise") -> float:
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

    References
    ----------
    Forman & Scholz (2010) §3.2 ("Mean Average Precision" must be computed per
    fold); Parker (2011) §II (AP among the integrated measures).

    Examples
    --------
    >>> round(average_precision([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1]), 12)   # (1/1 + 2/3) / 2
    0.833333333333
    """
    _check_metric_undefined(undefined)
    b = binary_scores(y_true, y_score, pos_label=pos_label, require_both=False)
    pos, s = b.is_positive, b.scores
    n_pos = int(pos.sum())
    if n_pos == 0:
        if undefined == "nan":
            return float("nan")
        raise UndefinedMetricError(f"average precision is undefined (recall is 0/0): {b.one_class()}")
    c = cumulative_counts(pos, s)
    d_tp = np.diff(np.r_[0, c.tp])
    return float(np.sum(d_tp * (c.tp / (c.tp + c.fp))) / n_pos)


def precision_at_k(
    y_true, y_score, *, k: int, pos_label=1, ties: Literal["expected", "pessimistic", "optimistic"] = "expected"
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
    >>> y, s = [1, 0, 1, 0, 0], [0.9, 0.8, 0.5, 0.5, 0.1]
    >>> [precision_at_k(y, s, k=3, ties=t) for t in ("expected", "pessimistic", "optimistic")]
    [0.5, 0.3333333333333333, 0.6666666666666666]
    """
    check_choice("ties", ties, PRECISION_AT_K_TIES)
    pos, s = check_binary_scores(y_true, y_score, pos_label=pos_label, require_both=False)
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Integral):
        raise TypeError(f"k must be a positive integer, got {k!r} ({type(k).__name__})")
    k = int(k)
    if not 1 <= k <= pos.size:
        raise ValueError(f"k={k} must lie in [1, n] with n={pos.size} cases")
    c = cumulative_counts(pos, s)
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
