"""ROC curve, AUC, average precision, precision at k, and their cross-validated forms.

Introduced in notebook 02. Forman & Scholz (2010) §2.4 define two
incompatible ways to compute AUC under k-fold cross-validation:

=============  ==============  ====================================================
``method``     paper           computation
=============  ==============  ====================================================
``"avg"``      AUC_avg         mean of the k per-fold AUC^(i) (§2.4, the display
                               equation): each fold's scores are ranked only
                               against that fold's scores
``"merge"``    AUC_merge       the scores of all folds sorted into one ROC curve;
                               assumes the fold classifiers are calibrated with
                               one another (§2.4, §3.2)
=============  ==============  ====================================================

§3.2 adds that ranking metrics such as precision at 20 and (mean) average
precision must likewise be computed per fold and averaged unless the
classifiers are *meant* to be calibrated: :func:`cv_ranking_score` does either
for any of them.

Conventions (shared with :mod:`apples._ranking`): higher score = more
positive; a threshold t predicts positive for ``score >= t``; tied scores are
one threshold, never split, so a tie group is one (diagonal) ROC step and a
positive–negative tie counts 1/2 in the Mann–Whitney form of AUC.

Where each is undefined
-----------------------
=========================  ================================================
quantity                   undefined when
=========================  ================================================
AUC, ROC curve             the scores hold only one class (§2.4, Exceptions)
average precision          there are no positives (recall is 0/0)
precision at k             never for 1 <= k <= n; ``k > n`` is an error
=========================  ================================================
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from typing import Literal

import numpy as np

from ._ranking import binary_scores, check_binary_scores, cumulative_counts
from ._validation import (
    MAX_EXACT_INT,
    UndefinedMetricError,
    check_choice,
    check_fold_lists,
    check_labels_1d,
    check_same_label_kind,
    check_scores,
)

__all__ = [
    "CV_ROC_AUC_METHODS",
    "PRECISION_AT_K_TIES",
    "average_precision",
    "cv_ranking_score",
    "cv_roc_auc",
    "precision_at_k",
    "roc_auc",
    "roc_curve",
]

CV_ROC_AUC_METHODS: tuple[str, ...] = ("avg", "merge")
PRECISION_AT_K_TIES: tuple[str, ...] = ("expected", "pessimistic", "optimistic")
_CV_UNDEFINED = ("raise", "nan", "skip")


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


#: metric name -> (function, name used in error messages)
_METRICS: dict[str, tuple[Callable[..., float], str]] = {
    "roc_auc": (roc_auc, "AUC"),
    "average_precision": (average_precision, "average precision"),
    "precision_at_k": (precision_at_k, "precision at k"),
}


def in_fold(i: int, err: Exception) -> Exception:
    """The same kind of error (ValueError or TypeError), its message prefixed with the fold."""
    cls = TypeError if isinstance(err, TypeError) else ValueError
    return cls(f"fold {i + 1} (index {i}): {err}")


def merge_folds(t_folds: list, s_folds: list) -> tuple[np.ndarray, np.ndarray]:
    """All folds' labels and scores concatenated, each fold checked first (errors name the fold).

    numpy would silently turn ``[1, 0]`` and ``["a", "b"]`` into four string
    labels, and int64 with uint64 scores into float64 (merging distinct scores
    above 2**53): labels of different kinds are a TypeError, and integer
    scores are concatenated in an integer dtype.
    """
    ts, ss = [], []
    for i, (a, b) in enumerate(zip(t_folds, s_folds, strict=True)):
        try:
            ts.append(check_labels_1d("y_true", a))
            ss.append(check_scores("y_score", b))
        except (ValueError, TypeError) as err:
            raise in_fold(i, err) from None
    check_same_label_kind(**{f"fold {i + 1} (index {i}) of y_true_folds": a for i, a in enumerate(ts)})
    merged = np.concatenate(ss)
    ints = [a for a in ss if a.dtype.kind in "iu" and a.size]
    if merged.dtype.kind == "f" and ints:
        lo, hi = min(int(a.min()) for a in ints), max(int(a.max()) for a in ints)
        if all(a.dtype.kind in "iu" or not a.size for a in ss):
            for dtype in (np.int64, np.uint64):
                if np.iinfo(dtype).min <= lo and hi <= np.iinfo(dtype).max:
                    return np.concatenate(ts), np.concatenate([a.astype(dtype) for a in ss])
        if max(-lo, hi) > MAX_EXACT_INT or all(a.dtype.kind in "iu" or not a.size for a in ss):
            raise ValueError(
                "y_score_folds cannot be ranked together exactly: some folds hold integer scores "
                f"(from {lo} to {hi}) that no one dtype holds together with the other folds' scores "
                "(float64 rounds integers beyond 2**53); give every fold scores of one dtype"
            )
    return np.concatenate(ts), merged


def cv_ranking_score(
    y_true_folds,
    y_score_folds,
    *,
    metric,
    method: Literal["avg", "merge"],
    undefined: Literal["raise", "nan", "skip"] = "raise",
    **metric_options,
) -> float:
    """A ranking metric under cross-validation, averaged per fold or on the merged scores.

    Parameters
    ----------
    y_true_folds, y_score_folds : sequence of array-like
        One array of labels and one of scores per test fold.
    metric : {"roc_auc", "average_precision", "precision_at_k"} or callable
        The ranking metric; a callable ``f(y_true, y_score, **metric_options)``
        must raise :class:`~apples.UndefinedMetricError` where it is undefined.
    method : {"avg", "merge"}
        ``"avg"``: the metric on each fold, then the mean (AUC_avg of Forman &
        Scholz §2.4, and their advice for precision at 20 and MAP, §3.2).
        ``"merge"``: all folds' scores concatenated and ranked together
        (AUC_merge), meaningful only if the fold classifiers are calibrated
        with each other.
    undefined : {"raise", "nan", "skip"}, default "raise"
        What to do with a fold where the metric is undefined (e.g. a fold
        with one class for AUC): raise an error naming the fold (counted
        from 1, with its 0-based index), return
        ``nan`` for the whole cross-validation, or skip the fold and average
        the rest (an error if every fold is undefined). With ``"merge"`` only
        the pooled scores can be undefined; ``"skip"`` then has nothing left
        and raises.
    **metric_options
        Passed to the metric, e.g. ``k=20`` for ``"precision_at_k"``.

    Returns
    -------
    float

    Raises
    ------
    UndefinedMetricError
        Under ``undefined="raise"`` for an undefined fold (named), and under
        ``"skip"`` when every fold is undefined.
    ValueError, TypeError
        Unknown ``metric``/``method``/``undefined``, fold lists of different
        lengths or empty, an empty fold, a fold whose labels and scores differ
        in length, or bad labels/scores in a fold (the message names the
        fold); with ``"merge"``, folds whose labels are of different kinds.

    References
    ----------
    Forman & Scholz (2010) §2.4 (AUC_avg, AUC_merge, Exceptions) and §3.2.

    Examples
    --------
    Two folds that each rank perfectly, but on different scales:

    >>> y = [[1, 0, 0], [1, 0, 0]]
    >>> s = [[0.9, 0.8, 0.7], [0.3, 0.2, 0.1]]
    >>> cv_ranking_score(y, s, metric="roc_auc", method="avg")
    1.0
    >>> cv_ranking_score(y, s, metric="roc_auc", method="merge")   # fold 2's positive is below fold 1's negatives
    0.75
    >>> cv_ranking_score(y, s, metric="precision_at_k", k=1, method="avg"), \
cv_ranking_score(y, s, metric="precision_at_k", k=2, method="merge")
    (1.0, 0.5)
    """
    if isinstance(metric, str):
        func, name = _METRICS[check_choice("metric", metric, tuple(_METRICS))]
    elif callable(metric):
        func, name = metric, getattr(metric, "__name__", "metric")
    else:
        raise TypeError(f"metric must be a metric name or a callable, got {type(metric).__name__}")
    check_choice("method", method, CV_ROC_AUC_METHODS)
    check_choice("undefined", undefined, _CV_UNDEFINED)
    t_folds, s_folds = check_fold_lists(y_true_folds, y_score_folds)
    if method == "merge":
        t, s = merge_folds(t_folds, s_folds)
        try:
            return float(func(t, s, **metric_options))
        except UndefinedMetricError as err:
            if undefined == "nan":
                return float("nan")
            raise UndefinedMetricError(f"the merged folds: {err}") from None
    values = []
    undefined_folds = []
    for i, (t, s) in enumerate(zip(t_folds, s_folds, strict=True)):
        try:
            values.append(float(func(t, s, **metric_options)))
        except UndefinedMetricError as err:
            if undefined == "raise":
                raise UndefinedMetricError(f"fold {i + 1} (index {i}): {err}; pass undefined='nan' or 'skip'") from None
            undefined_folds.append(i)
        except (ValueError, TypeError) as err:
            raise in_fold(i, err) from None
    if undefined_folds and undefined == "nan":
        return float("nan")
    if not values:
        raise UndefinedMetricError(f"{name} is undefined in every one of the {len(t_folds)} folds; nothing to average")
    return float(np.mean(values))


def cv_roc_auc(
    y_true_folds,
    y_score_folds,
    *,
    method: Literal["avg", "merge"],
    undefined: Literal["raise", "nan", "skip"] = "raise",
    pos_label=1,
) -> float:
    """Cross-validated AUC: AUC_avg or AUC_merge of Forman & Scholz §2.4.

    Parameters
    ----------
    y_true_folds, y_score_folds : sequence of array-like
        One array of labels and one of scores per test fold.
    method : {"avg", "merge"}
        ``"avg"``: AUC_avg = (1/k) Σ AUC^(i), what Forman & Scholz recommend
        (§5). ``"merge"``: AUC_merge, one ROC curve over all folds' scores,
        which also penalises fold classifiers that are not calibrated with
        one another (§3.2). No default: the choice is the point.
    undefined : {"raise", "nan", "skip"}, default "raise"
        A fold with only one class has no AUC (§2.4, Exceptions): raise an
        :class:`~apples.UndefinedMetricError` naming the fold, return ``nan``
        (as scikit-learn's ``cross_val_score`` averages do since 1.6), or skip
        the fold. Never a silent 0.
    pos_label : label, default 1
        The positive class.

    Returns
    -------
    float

    References
    ----------
    Forman & Scholz (2010) §2.4 (definitions, WEKA, Exceptions), §3.2
    (the calibration example), §5 (recommendation: AUC_avg).

    Examples
    --------
    >>> y = [[1, 0, 0, 1], [1, 0, 0, 0]]
    >>> s = [[0.9, 0.1, 0.4, 0.3], [5.0, 4.0, 1.0, 2.0]]
    >>> cv_roc_auc(y, s, method="avg"), cv_roc_auc(y, s, method="merge")
    (0.875, 0.5333333333333333)
    >>> cv_roc_auc([[1, 0], [0, 0]], [[0.9, 0.1], [0.3, 0.2]], method="avg", undefined="skip")
    1.0
    """
    return cv_ranking_score(
        y_true_folds, y_score_folds, metric="roc_auc", method=method, undefined=undefined, pos_label=pos_label
    )
