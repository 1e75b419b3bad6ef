"""F as a function of rates and counts: the surfaces behind Forman & Scholz (2010) Figures 1 and 2."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from apples._kernels.f_measure import ratio
from apples._params import (
    COUNT,
    ParameterValueError,
    Policy,
    RealArray,
    Undefined,
    declare,
    float_or_array,
    resolve,
)
from apples.theory.fold_model import PRIOR

__all__ = [
    "f_from_rates",
    "f_of_tp",
]

_RATE = RealArray(0, 1)


@declare(tpr=_RATE, fpr=_RATE, prior=PRIOR, undefined=Undefined("zero", "nan", "raise"))
def f_from_rates(tpr: ArrayLike, fpr: ArrayLike, *, prior: float, undefined: Policy = "zero") -> Any:
    """F1 from true and false positive rates at a class prior (Figure 1b).

    With P = prior·n positives and N = (1 − prior)·n negatives, TP = tpr·P,
    FP = fpr·N, FN = (1 − tpr)·P, so eq. (2) becomes::

        F = 2·tpr·prior / (tpr·prior + prior + fpr·(1 − prior))

    Parameters
    ----------
    tpr, fpr : array-like in [0, 1]
    prior : float in (0, 1)
        Fraction of positives (Figure 1b uses 0.01).
    undefined : {"zero", "nan", "raise"}, default "zero"
        Never triggered for ``prior > 0`` (the denominator is at least
        ``prior``); kept for a uniform signature.

    Examples
    --------
    A 1% false positive rate at 1% positives: as many false alarms as positives.

    >>> from apples.theory import f_from_rates
    >>> round(f_from_rates(0.8, 0.01, prior=0.01), 4)
    0.5735
    """
    tpr_a, fpr_a = np.asarray(tpr), np.asarray(fpr)  # float arrays (0-d for a scalar), checked
    return resolve(ratio(2 * tpr_a * prior, tpr_a * prior + prior + fpr_a * (1 - prior)), undefined, what="F")


@declare(tp=RealArray(0), positives=COUNT, fp=COUNT)
def f_of_tp(tp: ArrayLike, *, positives: int, fp: int) -> Any:
    """F1 of a fold as a function of its true positives, eq. (2) with FN = positives − TP.

    ``F(TP) = 2·TP / (TP + FP + positives)``, concave and increasing in TP,
    steepest at TP = 0 (Forman & Scholz §4.1). ``tp`` may be real-valued to draw
    the curve.

    Examples
    --------
    >>> from apples.theory import f_of_tp
    >>> f_of_tp(3, positives=4, fp=1)
    0.75
    """
    if positives < 1:
        raise ParameterValueError(f"need positives >= 1, got positives={positives}", param="positives")
    tp_a = np.asarray(tp)
    if (tp_a > positives).any():
        raise ParameterValueError(f"tp must lie in [0, positives={positives}]", param="tp")
    return float_or_array(2 * tp_a / (tp_a + fp + positives))
