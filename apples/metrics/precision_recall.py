"""Precision, recall, F-measure and accuracy of one confusion count.

Introduced in notebook 01. References: Forman & Scholz (2010) §2.2,
Definitions 1–2 and equations (1)–(2); Van Asch (2013) eqs. (1)–(4).

Where each is undefined (0/0)
-----------------------------
=====================  =====================================================
quantity               undefined when
=====================  =====================================================
precision              TP + FP = 0 (no positive predictions)
recall                 TP + FN = 0 (no actual positives)
F, eq. (1) harmonic    precision or recall undefined, or Pr = Re = 0
F, eq. (2) counts      TP = FP = FN = 0 only
accuracy               no cases at all
=====================  =====================================================

Equation (2) agrees with equation (1) wherever (1) is defined, and at every
point where only (1) is undefined but (2) is not, (2) gives 0, which is the
limit of (1) there: F is bounded by 2·min(Pr, Re), and along any sequence of
counts approaching such a point one of Pr or Re goes to 0. So (2) is the
continuous extension of (1); see notebook 01 for the numbers.
"""

from __future__ import annotations

import math
import numbers
from typing import Literal

import numpy as np

from apples._kernels.f_measure import f_beta_weights as _weights
from apples._kernels.f_measure import f_of_counts, f_of_rates, ratio
from apples._params import Kind, Options, Policy, Undefined, check_real, declare, resolve
from apples.metrics.counts import COUNTS, Counts

__all__ = [
    "accuracy",
    "f_beta_weights",
    "f_from_precision_recall",
    "f_measure",
    "precision",
    "recall",
]


def _check_beta(beta: object) -> float:
    """``beta`` as a float in [0, inf] (numpy scalars accepted); shared by every F_beta.

    ``beta = 0`` is precision and ``beta = inf`` recall, as in scikit-learn's
    ``fbeta_score``: eq. (2) with the weights of :func:`f_beta_weights` gives
    ``TP / (TP + FP)`` and ``TP / (TP + FN)`` there, and each is undefined
    where that rate is (TP + FP = 0, TP + FN = 0), not only where
    TP = FP = FN = 0. (For 0 < beta < inf, F_beta is 0 at TP = FP = 0 < FN; so
    is its limit as beta -> 0, which the default ``undefined="zero"`` returns.)
    """
    if isinstance(beta, (bool, np.bool_)) or not isinstance(beta, numbers.Real):
        raise TypeError(f"beta must be a real number in [0, inf], got {beta!r} ({type(beta).__name__})")
    try:
        return check_real("beta", beta, low=0.0, finite=False)
    except ValueError:
        raise ValueError(f"beta must be a number in [0, inf] (0 is precision, inf is recall), got {beta!r}") from None


class _Beta(Kind):
    what = "a real number in [0, inf] (0 is precision, inf is recall)"

    def check(self, name: str, value: object) -> float:
        return _check_beta(value)


#: The kind of ``beta``, the weight of recall in F_beta: a real number in [0, inf].
BETA = _Beta()


class _RateOrNan(Kind):
    what = "a real number in [0, 1], or NaN for undefined"

    def check(self, name: str, value: object) -> float:
        return _unit_or_nan(name, value)


_RATE = _RateOrNan()
_SCALAR_POLICY = Undefined("zero", "nan", "raise")


def _undefined_f(beta: float, harmonic: bool) -> str:
    """What is 0/0 when F_beta is undefined, for the error message."""
    if beta == 0.0:
        return "F_beta with beta=0, which is precision (TP + FP = 0)"
    if beta == math.inf:
        return "F_beta with beta=inf, which is recall (TP + FN = 0)"
    return "F (precision = recall = 0)" if harmonic else "F (TP = FP = FN = 0)"


@declare(beta=BETA)
def f_beta_weights(beta: float) -> tuple[float, float]:
    """The weights ``(w_fn, w_fp)`` with ``F_beta = TP / (TP + w_fn·FN + w_fp·FP)``.

    Dividing eq. (2)'s numerator and denominator by ``1 + β²`` gives
    ``w_fn = β² / (1 + β²)`` and ``w_fp = 1 / (1 + β²)``, which add to 1.
    They are computed from ``β`` or ``1/β``, whichever is at most 1, so
    ``β²`` never overflows or underflows: ``beta=1e200`` gives ``(1.0, 1e-400 → 0.0)``,
    and F_beta tends to recall, as it should. At ``β = 1`` both are exactly 0.5,
    so F1 is computed bit for bit as ``2TP / (2TP + FP + FN)``. The ends are
    exact: ``β = 0`` gives ``(0, 1)`` (F is precision), ``β = inf`` gives
    ``(1, 0)`` (F is recall).

    >>> from apples.metrics import f_beta_weights
    >>> f_beta_weights(1.0)
    (0.5, 0.5)
    >>> f_beta_weights(1e200)
    (1.0, 0.0)
    >>> f_beta_weights(0.0), f_beta_weights(float("inf"))
    ((0.0, 1.0), (1.0, 0.0))
    """
    return _weights(beta)


@declare(counts=COUNTS, undefined=_SCALAR_POLICY)
def precision(counts: Counts, *, undefined: Policy = "zero") -> float:
    """Precision TP / (TP + FP) (Forman & Scholz Definition 1; Van Asch eq. 1).

    Parameters
    ----------
    counts : Counts
        The confusion count.
    undefined : {"zero", "nan", "raise"}, default "zero"
        What to return when there are no positive predictions (TP + FP = 0):
        ``0.0`` (the substitution of Forman & Scholz §2.3 and their Table 2 †),
        ``nan`` for the caller to skip, or raise :class:`UndefinedMetricError`.

    See Also
    --------
    sklearn.metrics.precision_score : the same from labels, ``precision_score(y_true, y_pred)``
        (its ``zero_division=0`` is ``undefined="zero"``); here from
        ``Counts.from_labels(y_true, y_pred)``.

    Examples
    --------
    >>> from apples import Counts, precision
    >>> precision(Counts(tp=4, fp=13, fn=0))
    0.23529411764705882
    >>> precision(Counts(tp=0, fp=0, fn=4), undefined="nan")
    nan
    """
    return resolve(float(ratio(counts.tp, counts.tp + counts.fp)), undefined, what="precision (TP + FP = 0)")


@declare(counts=COUNTS, undefined=_SCALAR_POLICY)
def recall(counts: Counts, *, undefined: Policy = "zero") -> float:
    """Recall TP / (TP + FN), the true positive rate (Definition 1; Van Asch eq. 2).

    Parameters
    ----------
    counts : Counts
        The confusion count.
    undefined : {"zero", "nan", "raise"}, default "zero"
        What to return when the fold has no actual positives (TP + FN = 0).

    See Also
    --------
    sklearn.metrics.recall_score : the same from labels, ``recall_score(y_true, y_pred)``.

    Examples
    --------
    >>> from apples import Counts, recall
    >>> recall(Counts(tp=3, fp=5, fn=1))
    0.75
    """
    return resolve(float(ratio(counts.tp, counts.tp + counts.fn)), undefined, what="recall (TP + FN = 0)")


@declare(precision=_RATE, recall=_RATE, beta=BETA, undefined=_SCALAR_POLICY)
def f_from_precision_recall(precision: float, recall: float, *, beta: float = 1.0, undefined: Policy = "zero") -> float:
    """Weighted harmonic mean of precision and recall, equation (1).

    ``F_beta = (1 + beta²) · Pr · Re / (beta² · Pr + Re)``; ``beta = 1`` is
    Forman & Scholz eq. (1), the balanced F1.

    Parameters
    ----------
    precision, recall : float
        Values in [0, 1] (a Python or numpy scalar, or a 0-d array); ``nan``
        stands for "undefined".
    beta : float, default 1.0
        Relative weight of recall, in [0, inf]: ``beta=0`` gives precision and
        ``beta=inf`` recall, whatever the other is (scikit-learn's
        ``fbeta_score`` convention).
    undefined : {"zero", "nan", "raise"}, default "zero"
        Applied when either input is ``nan`` or both are 0 (the harmonic mean
        is then 0/0; its limit is 0); with ``beta=0`` or ``inf``, when the one
        value used is ``nan``.

    Examples
    --------
    >>> from apples import f_from_precision_recall
    >>> round(f_from_precision_recall(0.60, 0.94), 4)   # Forman & Scholz §3.1
    0.7325
    >>> f_from_precision_recall(0.6, 0.94, beta=0), f_from_precision_recall(0.6, 0.94, beta=float("inf"))
    (0.6, 0.94)
    """
    return resolve(float(f_of_rates(precision, recall, beta)), undefined, what=_undefined_f(beta, harmonic=True))


def _unit_or_nan(name: str, value: object) -> float:
    """A real number (numpy scalars and 0-d arrays included) in [0, 1], or NaN standing for "undefined"."""
    if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iuf":
        value = value[()]  # a 0-d array is a scalar (np.float64(0.5)); a bool array stays refused below
    if isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_)) and value != value:
        return float("nan")
    try:
        return check_real(name, value, low=0.0, high=1.0)
    except ValueError:
        raise ValueError(f"{name} must lie in [0, 1] (or be NaN for undefined), got {value!r}") from None


@declare(counts=COUNTS, beta=BETA, undefined=_SCALAR_POLICY, formula=Options("counts", "harmonic"))
def f_measure(
    counts: Counts,
    *,
    beta: float = 1.0,
    undefined: Policy = "zero",
    formula: Literal["counts", "harmonic"] = "counts",
) -> float:
    """F-measure of one confusion count.

    With ``formula="counts"`` (default) this is Forman & Scholz eq. (2) /
    Van Asch eq. (4), generalised to F_beta::

        F = (1 + β²)·TP / ((1 + β²)·TP + β²·FN + FP)

    which is undefined only when TP = FP = FN = 0. With
    ``formula="harmonic"`` it is eq. (1), the harmonic mean of precision and
    recall, which is also undefined when precision or recall is, or when
    both are 0.

    Parameters
    ----------
    counts : Counts
        The confusion count.
    beta : float, default 1.0
        Weight of recall relative to precision, in [0, inf]: ``beta=0`` is
        precision and ``beta=inf`` recall, undefined where they are (TP + FP
        = 0, TP + FN = 0), as scikit-learn's ``fbeta_score``.
    undefined : {"zero", "nan", "raise"}, default "zero"
        Policy where the chosen formula is 0/0. The default is the zero
        substitution that Forman & Scholz use "throughout the paper" (§2.3).
    formula : {"counts", "harmonic"}, default "counts"
        Equation (2) or equation (1).

    See Also
    --------
    sklearn.metrics.f1_score, sklearn.metrics.fbeta_score : the same from labels
        (``fbeta_score(y_true, y_pred, beta=beta)``, eq. (2)).

    Examples
    --------
    >>> from apples import Counts, f_measure
    >>> f_measure(Counts(tp=14, fp=19, fn=1))          # Table 1 totals: F_tp,fp
    0.5833333333333334
    >>> f_measure(Counts(tp=0, fp=0, fn=4))             # eq. (2) is 0 here ...
    0.0
    >>> f_measure(Counts(tp=0, fp=0, fn=4), formula="harmonic", undefined="nan")
    nan
    """
    if formula == "harmonic":
        value = f_of_rates(ratio(counts.tp, counts.tp + counts.fp), ratio(counts.tp, counts.tp + counts.fn), beta)
    else:
        value = f_of_counts(counts.tp, counts.fp, counts.fn, beta)
    return resolve(float(value), undefined, what=_undefined_f(beta, harmonic=formula == "harmonic"))


@declare(counts=COUNTS, undefined=_SCALAR_POLICY)
def accuracy(counts: Counts, *, undefined: Policy = "raise") -> float:
    """Accuracy (TP + TN) / (TP + FP + FN + TN) (Forman & Scholz §2.1).

    Parameters
    ----------
    counts : Counts
        The confusion count, with ``tn`` filled in.
    undefined : {"zero", "nan", "raise"}, default "raise"
        Policy for an empty count (no cases).

    See Also
    --------
    sklearn.metrics.accuracy_score : the same from labels, ``accuracy_score(y_true, y_pred)``.

    Examples
    --------
    >>> from apples import Counts, accuracy
    >>> accuracy(Counts(tp=20, fp=5, fn=5, tn=20))
    0.8
    """
    return resolve(float(ratio(counts.tp + counts.tn, counts.n)), undefined, what="accuracy (no cases)")
