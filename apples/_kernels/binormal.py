"""The binormal score model's closed forms: normal densities, tails, the likelihood ratio and the ROC curve.

Functions of thresholds ``t`` (a float or an array, ±inf allowed) and the model's parameters, never
checked: :class:`apples.theory.Binormal` checks its arguments and calls these, and the integrands of
:mod:`apples.theory.parker` call them inside ``scipy.integrate.quad`` with Python floats. They use
``scipy.special`` (``ndtr``, ``ndtri``) rather than frozen ``scipy.stats`` objects: the same
functions, about 1000 times faster per scalar call.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy import special

__all__ = [
    "log_likelihood_ratio",
    "normal_cdf",
    "normal_pdf",
    "normal_sf",
    "roc",
    "threshold_at_fpr",
]

_SQRT_2PI = math.sqrt(2 * math.pi)


def normal_pdf(t: Any, mu: float, sd: float) -> Any:
    """Density of N(mu, sd²) at ``t``.

    >>> float(normal_pdf(0.0, 0.0, 1.0)) == 1 / math.sqrt(2 * math.pi)
    True
    """
    z = (t - mu) / sd
    return np.exp(-0.5 * z * z) / (sd * _SQRT_2PI)


def normal_cdf(t: Any, mu: float, sd: float) -> Any:
    """P(X <= t) for X ~ N(mu, sd²)."""
    return special.ndtr((t - mu) / sd)


def normal_sf(t: Any, mu: float, sd: float) -> Any:
    """P(X > t) for X ~ N(mu, sd²), from the lower tail of -z (no cancellation in 1 - cdf)."""
    return special.ndtr(-((t - mu) / sd))


def log_likelihood_ratio(t: Any, mu_pos: float, sd_pos: float, mu_neg: float, sd_neg: float) -> Any:
    """log f_0(t)/f_1(t) of two normal densities, from log-densities (no 0/0 in the tails)."""
    zp = (t - mu_pos) / sd_pos
    zn = (t - mu_neg) / sd_neg
    return 0.5 * (zn * zn - zp * zp) + math.log(sd_neg / sd_pos)


def roc(fpr: Any, a: float, b: float) -> Any:
    """TPR = Φ(a + b·Φ⁻¹(FPR)), the binormal ROC curve.

    With ``b`` near 1.8e308, ``b·Φ⁻¹(v)`` may overflow to ±inf, which is the limit itself (TPR 0 or 1).
    """
    with np.errstate(over="ignore"):
        return special.ndtr(a + b * special.ndtri(fpr))


def threshold_at_fpr(fpr: Any, mu_neg: float, sd_neg: float) -> Any:
    """The threshold whose false-positive rate P(X_neg > t) is ``fpr``."""
    return mu_neg - sd_neg * special.ndtri(fpr)
