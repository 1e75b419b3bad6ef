"""Measures computed from scores rather than from one confusion count.

Introduced in notebook 07 (§§4–5, A.3); notebook 08 shows which are coherent.
Parker (2011) §II defines the measures this module
implements: the point measures chosen at their best threshold (max-F1 §II-A,
the phi coefficient / MCC §II-B), r-precision (§II-C), and the area under the
Cohen's kappa curve, AUK (§II-F; Kaymak, Ben-David & Potharst 2010). Gini,
the Kolmogorov–Smirnov statistic and the minimum error rate complete the set
that Hand's R package ``hmeasure`` reports beside H. AUC, the ROC curve,
average precision and precision at k live in :mod:`apples.metrics.ranking`; the
H-measure in :mod:`apples.metrics.hmeasure`. The computations are the kernels of
:mod:`apples._kernels.threshold_free`.

Conventions (the same in every function here)
----------------------------------------------
- ``y_true`` holds two classes; ``pos_label`` (default 1) is the positive class.
  Parker's paper uses the opposite labelling (0 positive, low score = positive);
  only the names differ.
- ``y_score``: real, finite, higher = more positive. A threshold ``t`` predicts
  positive for ``y_score >= t``.
- The candidate thresholds are the distinct scores. A group of tied scores is
  never split: all of it is predicted positive or none of it (one ROC step, a
  diagonal segment). Functions that optimise over thresholds return a
  :class:`ThresholdResult` ``(value, threshold)``; where several thresholds
  reach the optimum, the *highest* one is returned (fewest positive
  predictions). :func:`min_error_rate` also considers predicting nothing
  positive, reported as ``threshold = inf``.
- Counts at a threshold: TP, FP (scores ``>= t``), FN = P − TP, TN = N − FP,
  with P positives and N negatives; FPR = FP/N, TPR = TP/P.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Literal, NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from apples._kernels import threshold_free as tf
from apples._kernels.ranking import auc_from_counts, precision_at_k_from_counts
from apples._params import Options, Policy, Undefined, declare, resolve
from apples.metrics._ranking import SCORED, SCORED_RELATIONS, counts_of
from apples.metrics.precision_recall import BETA
from apples.metrics.ranking import PRECISION_AT_K_TIES

__all__ = [
    "KappaCurve",
    "ThresholdResult",
    "auk",
    "gini",
    "kappa_curve",
    "ks_statistic",
    "max_f1",
    "max_mcc",
    "min_error_rate",
    "r_precision",
]

_TIES = Options(*PRECISION_AT_K_TIES)


class ThresholdResult(NamedTuple):
    """The optimum of a measure over thresholds, and the threshold that reaches it.

    ``threshold`` is a score: predict positive for ``y_score >= threshold``
    (``inf``: predict nothing positive). It is the score itself, exact: a
    Python ``int`` for integer scores (datetime scores: their integer ticks),
    a ``float`` otherwise.
    """

    value: float
    threshold: float


class KappaCurve(NamedTuple):
    """Cohen's kappa against the false positive rate (Parker Fig. 1b).

    A curve like :class:`~apples.metrics.ROCCurve`: ``fpr`` first, ``thresholds`` last.
    """

    fpr: np.ndarray  #: false positive rate, starting at 0 (nothing predicted positive)
    kappa: np.ndarray  #: Cohen's kappa at each point; 0 at both ends
    thresholds: np.ndarray  #: score threshold of each point, float; ``inf`` for the first (as in roc_curve)


def _result(values: np.ndarray, thresholds: np.ndarray, i: int) -> ThresholdResult:
    """The value at ``i`` and its threshold, exact (an ``int`` for integer scores, never rounded to float)."""
    return ThresholdResult(float(values[i]), tf.threshold_value(thresholds, i))


@declare(**SCORED, relations=SCORED_RELATIONS)
def kappa_curve(y_true: ArrayLike, y_score: ArrayLike, *, pos_label: Hashable = 1) -> KappaCurve:
    """Cohen's kappa at every threshold, against the false positive rate.

    Kappa compares the accuracy ``a`` with the accuracy ``p_c`` of a random
    classifier that predicts the same proportion of positives (Parker §II-F):
    ``kappa = (a - p_c) / (1 - p_c)``. In counts this is

        kappa = 2 (TP·TN − FN·FP) / ((TP + FP)(FP + TN) + (TP + FN)(FN + TN)),

    which is defined at every threshold once both classes are present: the
    denominator equals P·n + (N − P)(TP + FP), between min(P, N)·n and
    max(P, N)·n.

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
    KappaCurve
        ``fpr``, ``kappa`` and ``thresholds``, starting with the point
        (FPR, kappa) = (0, 0) of the threshold ``inf`` and ending at (1, 0).

    References
    ----------
    Parker (2011) §II-F and Fig. 1b; Cohen (1960); Kaymak, Ben-David &
    Potharst (2010).

    Examples
    --------
    >>> from apples.metrics import kappa_curve
    >>> c = kappa_curve([1, 1, 0, 0], [0.9, 0.8, 0.3, 0.1])
    >>> c.fpr.tolist(), c.kappa.tolist()
    ([0.0, 0.0, 0.0, 0.5, 1.0], [0.0, 0.5, 1.0, 0.5, 0.0])
    """
    c = counts_of(y_true, y_score, pos_label)
    fpr, kappa = tf.kappa_curve(c)  # defined everywhere with both classes
    return KappaCurve(fpr, kappa, c.with_origin().thresholds)


@declare(**SCORED, relations=SCORED_RELATIONS)
def auk(y_true: ArrayLike, y_score: ArrayLike, *, pos_label: Hashable = 1) -> float:
    """Area under the Cohen's kappa curve, AUK (Kaymak, Ben-David & Potharst 2010).

    ``AUK = ∫ kappa d(FPR)`` (Parker §II-F), by the trapezoid rule over the
    points of :func:`kappa_curve` (one point per distinct score, plus the
    start (0, 0)). Kappa is 0 at both ends.

    For balanced classes (P = N) kappa equals TPR − FPR at every threshold,
    so AUK = AUC − 1/2 exactly (tested); otherwise kappa is a ratio of
    functions linear in the counts and the trapezoid rule across a tie group
    is the convention, not the exact area under kappa along the ROC diagonal.

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
    float
        Larger is better; 0 for scores that carry no information (kappa = 0
        along the diagonal). With balanced classes it lies in [-1/2, 1/2].

    References
    ----------
    Parker (2011) §II-F; Kaymak, U., Ben-David, A. & Potharst, R. (2010),
    "AUK: a simple alternative to the AUC", ERIM report ERS-2010-024-LIS.

    Examples
    --------
    >>> from apples import auk
    >>> auk([1, 1, 0, 0], [0.9, 0.8, 0.3, 0.1])     # perfect ranking, balanced: AUC - 1/2
    0.5
    >>> auk([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1])     # AUC = 0.75
    0.25
    """
    fpr, kappa = tf.kappa_curve(counts_of(y_true, y_score, pos_label))
    return tf.trapezoid(kappa, fpr)


@declare(**SCORED, beta=BETA, relations=SCORED_RELATIONS)
def max_f1(y_true: ArrayLike, y_score: ArrayLike, *, beta: float = 1.0, pos_label: Hashable = 1) -> ThresholdResult:
    """The largest F-measure over thresholds, and its threshold (Parker §II-A).

    ``F_beta(t) = (1 + beta²) TP / ((1 + beta²) TP + beta² FN + FP)`` (Forman
    & Scholz eq. 2, Van Asch eq. 3) at every distinct score ``t``; the result is
    ``M_F1(t_F1)`` with ``t_F1 = argmax_t M_F1(t)`` (Parker §II-A). F is always
    defined here: the data hold at least one positive, so the denominator is
    positive.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Two classes.
    y_score : array-like of shape (n,)
        Finite scores, higher = more positive.
    beta : float, default 1.0
        Weight of recall (1 gives F1), in [0, inf]: 0 maximises precision, inf
        recall (:func:`apples.f_measure`).
    pos_label : label, default 1
        The positive class.

    Returns
    -------
    ThresholdResult
        ``value`` (the maximal F) and ``threshold`` (the highest score at which
        it is reached; predict positive for ``y_score >= threshold``).

    References
    ----------
    Parker (2011) §II-A; Forman & Scholz (2010) eq. (2).

    Examples
    --------
    >>> from apples import max_f1
    >>> max_f1([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1])   # best: top 3, F = 2·2/(2·2 + 1)
    ThresholdResult(value=0.8, threshold=0.3)
    """
    c = counts_of(y_true, y_score, pos_label)
    f = tf.f_beta_curve(c, beta)  # defined everywhere: the data hold a positive
    return _result(f, c.thresholds, tf.best_index(f))


@declare(**SCORED, undefined=Undefined("zero", "nan", "raise"), relations=SCORED_RELATIONS)
def max_mcc(
    y_true: ArrayLike, y_score: ArrayLike, *, undefined: Policy = "zero", pos_label: Hashable = 1
) -> ThresholdResult:
    """The largest Matthews correlation (phi) over thresholds, and its threshold (Parker §II-B).

    ``MCC(t) = (TP·TN − FP·FN) / sqrt((TP + FP)(TP + FN)(TN + FP)(TN + FN))``
    at every distinct score; ``phi(t_phi)`` with ``t_phi = argmax_t phi(t)``.

    MCC is 0/0 exactly where the prediction is constant. Among the candidate
    thresholds that happens only at the lowest score (everything predicted
    positive), and at every threshold when all scores are tied.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Two classes.
    y_score : array-like of shape (n,)
        Finite scores, higher = more positive.
    undefined : {"zero", "nan", "raise"}, default "zero"
        ``"zero"``: a constant prediction has MCC 0 (scikit-learn's
        ``matthews_corrcoef`` convention) and competes in the maximisation.
        ``"nan"`` and ``"raise"``: constant predictions are left out; if
        nothing is left (all scores tied), ``"nan"`` returns
        ``ThresholdResult(nan, nan)`` and ``"raise"`` raises
        :class:`~apples.UndefinedMetricError`.
    pos_label : label, default 1
        The positive class.

    Returns
    -------
    ThresholdResult
        ``value`` in [-1, 1] and its ``threshold``.

    References
    ----------
    Parker (2011) §II-B, eq. (1) (printed garbled; the counts form above is
    Matthews' and scikit-learn's); Cramér (1946).

    Examples
    --------
    >>> from apples import max_mcc
    >>> max_mcc([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1])    # 2/sqrt(12) at 0.9 and at 0.3: highest wins
    ThresholdResult(value=0.5773502691896258, threshold=0.9)
    >>> max_mcc([1, 0], [0.5, 0.5])                       # one threshold, constant prediction
    ThresholdResult(value=0.0, threshold=0.5)
    >>> max_mcc([1, 0], [0.5, 0.5], undefined="nan")
    ThresholdResult(value=nan, threshold=nan)
    """
    c = counts_of(y_true, y_score, pos_label)
    mcc = tf.mcc_curve(c)
    if undefined == "zero":
        mcc = resolve(mcc, "zero", what="MCC")
        return _result(mcc, c.thresholds, tf.best_index(mcc))
    i = tf.best_defined_index(mcc)  # constant predictions are left out
    if i is None:
        value = resolve(
            float("nan"),
            undefined,
            what="MCC at every threshold",
            hint="all scores are tied, so the prediction is constant; pass undefined='zero' or undefined='nan'",
        )
        return ThresholdResult(value, float("nan"))
    return _result(mcc, c.thresholds, i)


@declare(**SCORED, alternative=Options("two-sided", "greater"), relations=SCORED_RELATIONS)
def ks_statistic(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    alternative: Literal["two-sided", "greater"] = "two-sided",
    pos_label: Hashable = 1,
) -> ThresholdResult:
    """Kolmogorov–Smirnov statistic between the score distributions of the two classes.

    The largest vertical distance between the ROC curve and the diagonal, i.e.
    between the empirical CDFs of the positive and negative scores:
    ``max_t |TPR(t) − FPR(t)|`` (``"two-sided"``, as reported by Hand's R
    package ``hmeasure`` and ``scipy.stats.ks_2samp``) or
    ``max_t (TPR(t) − FPR(t))`` (``"greater"``: the direction in which a
    higher score means positive; the maximal Youden index).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Two classes.
    y_score : array-like of shape (n,)
        Finite scores, higher = more positive.
    alternative : {"two-sided", "greater"}, default "two-sided"
        Absolute or signed distance.
    pos_label : label, default 1
        The positive class.

    Returns
    -------
    ThresholdResult
        ``value`` in [0, 1] and the threshold reaching it.

    References
    ----------
    Hand's R package ``hmeasure`` (its ``KS``, two-sided);
    ``scipy.stats.ks_2samp`` (the same statistic, tested).

    Examples
    --------
    >>> from apples import ks_statistic
    >>> ks_statistic([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1])
    ThresholdResult(value=0.5, threshold=0.9)
    >>> ks_statistic([0, 0, 1, 1], [0.9, 0.8, 0.3, 0.1]).value                   # reversed
    1.0
    >>> ks_statistic([0, 0, 1, 1], [0.9, 0.8, 0.3, 0.1], alternative="greater").value
    0.0
    """
    c = counts_of(y_true, y_score, pos_label)
    d = tf.ks_curve(c, two_sided=alternative == "two-sided")
    return _result(d, c.thresholds, tf.best_index(d))


@declare(**SCORED, relations=SCORED_RELATIONS)
def min_error_rate(y_true: ArrayLike, y_score: ArrayLike, *, pos_label: Hashable = 1) -> ThresholdResult:
    """The smallest error rate (FP + FN)/n over thresholds, and its threshold.

    The candidates are every distinct score *and* predicting nothing positive
    (``threshold = inf``), so the result never exceeds the error of the better
    constant classifier, ``min(P, N)/n``. This is ``MER`` of Hand's R package
    ``hmeasure``; it equals twice the minimum loss at cost c = 1/2 of Parker
    eq. (4) (with b = 1).

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
    ThresholdResult
        ``value`` in [0, 1/2] and the threshold reaching it (the highest one if
        several do; ``inf`` when predicting nothing positive is optimal).

    References
    ----------
    Parker (2011) §III-A, eq. (4) at c = 1/2; Hand's R package ``hmeasure``
    (``MER``).

    Examples
    --------
    >>> from apples import min_error_rate
    >>> min_error_rate([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1])
    ThresholdResult(value=0.25, threshold=0.9)
    >>> min_error_rate([1, 0, 0, 0], [0.1, 0.8, 0.3, 0.9])      # best: predict all negative
    ThresholdResult(value=0.25, threshold=inf)
    """
    c = counts_of(y_true, y_score, pos_label)
    errors = tf.error_counts(c)  # first: nothing predicted positive
    i = tf.best_index(-errors)
    threshold = float("inf") if i == 0 else tf.threshold_value(c.thresholds, i - 1)
    return ThresholdResult(float(errors[i] / (c.n_pos + c.n_neg)), threshold)


@declare(**SCORED, ties=_TIES, relations=SCORED_RELATIONS)
def r_precision(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Hashable = 1,
    ties: Literal["expected", "pessimistic", "optimistic"] = "expected",
) -> float:
    """Precision at r, where r = P is the number of positives (Parker §II-C).

    ``precision_at_k(y_true, y_score, k=P)``: the precision among the P
    highest-scored cases, which equals the recall there (both are TP/P).
    Parker §III-D notes that r is set by the test data rather than by the
    domain, so the loss it implies is chosen by the evaluator.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Two classes.
    y_score : array-like of shape (n,)
        Finite scores, higher = more positive.
    pos_label : label, default 1
        The positive class.
    ties : {"expected", "pessimistic", "optimistic"}, default "expected"
        A tie group that straddles position r is not split: by default it
        contributes its expected number of positives over all orderings; see
        :func:`apples.precision_at_k`.

    Returns
    -------
    float in [0, 1]

    References
    ----------
    Parker (2011) §II-C and §III-D; Aslam & Yilmaz (2005).

    Examples
    --------
    >>> from apples import r_precision
    >>> r_precision([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1])    # top 2 hold 1 of the 2 positives
    0.5
    >>> r_precision([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1])    # 1 + (1 of 2 tied places) x 1/2
    0.75
    """
    c = counts_of(y_true, y_score, pos_label)
    return precision_at_k_from_counts(c, c.n_pos, ties)


@declare(**SCORED, relations=SCORED_RELATIONS)
def gini(y_true: ArrayLike, y_score: ArrayLike, *, pos_label: Hashable = 1) -> float:
    """Gini coefficient, 2·AUC − 1 (Parker §II-D; Hand & Till 2001).

    The linear transformation of :func:`apples.roc_auc` that puts a random
    ranking at 0 and a perfect one at 1 (the "Gini" of Hand's R package
    ``hmeasure``). It inherits AUC's treatment of ties (a positive–negative
    tie counts 1/2).

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
    float in [-1, 1]

    References
    ----------
    Parker (2011) §II-D; Hand & Till (2001); Hand's R package ``hmeasure``.

    Examples
    --------
    >>> from apples.metrics import gini
    >>> gini([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1])    # AUC = 0.875
    0.75
    """
    return 2.0 * auc_from_counts(counts_of(y_true, y_score, pos_label)) - 1.0
