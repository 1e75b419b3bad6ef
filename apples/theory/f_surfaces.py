"""F as a function of rates and counts: the surfaces behind Forman & Scholz (2010) Figures 1 and 2."""

from __future__ import annotations

import numbers

import numpy as np

from apples._params import Policy, check_count, check_policy, check_real_array, divide

__all__ = [
    "f_from_rates",
    "f_of_tp",
]


def _check_prior(prior: float) -> float:
    """A prior in (0, 1); not check_real: a non-number is a ValueError here, as this module's tests expect."""
    # numpy scalars are numbers too; NaN fails the comparison
    if isinstance(prior, (bool, np.bool_)) or not isinstance(prior, numbers.Real) or not 0 < prior < 1:
        raise ValueError(f"prior must be a number strictly between 0 and 1, got {prior!r}")
    return float(prior)


def f_from_rates(tpr, fpr, *, prior: float, undefined: Policy = "zero"):
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

    >>> round(f_from_rates(0.8, 0.01, prior=0.01), 4)
    0.5735
    """
    prior = _check_prior(prior)
    check_policy(undefined)
    tpr = check_real_array("tpr", tpr, low=0, high=1)
    fpr = check_real_array("fpr", fpr, low=0, high=1)
    return divide(2 * tpr * prior, tpr * prior + prior + fpr * (1 - prior), undefined=undefined, what="F")


def f_of_tp(tp, *, positives: int, fp: int):
    """F1 of a fold as a function of its true positives, eq. (2) with FN = positives − TP.

    ``F(TP) = 2·TP / (TP + FP + positives)``, concave and increasing in TP,
    steepest at TP = 0 (Forman & Scholz §4.1). ``tp`` may be real-valued to draw
    the curve.

    Examples
    --------
    >>> f_of_tp(3, positives=4, fp=1)
    0.75
    """
    positives = check_count("positives", positives)
    fp = check_count("fp", fp)
    if positives < 1:
        raise ValueError(f"need positives >= 1, got positives={positives}")
    tp = check_real_array("tp", tp, low=0)
    if np.any(tp > positives):
        raise ValueError(f"tp must lie in [0, positives={positives}]")
    out = 2 * tp / (tp + fp + positives)
    return float(out) if out.ndim == 0 else out
