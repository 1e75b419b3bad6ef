"""Interval arithmetic: normal and t quantiles, the three proportion intervals, the (corrected) t over folds.

Arrays in, arrays out (a scalar in gives a float out), no checks. The public intervals of
:mod:`apples.intervals` and the report's intervals call these.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special  # scipy.special is light; scipy.stats is imported where it is used

__all__ = [
    "fold_t_interval",
    "normal_quantile",
    "normal_two_sided_p",
    "proportion_interval",
    "t_quantile",
    "t_two_sided_p",
]


def normal_quantile(confidence: float) -> float:
    """``z`` with ``P(|Z| <= z) = confidence`` for a standard normal ``Z`` (``scipy.stats.norm.ppf``'s kernel)."""
    return float(special.ndtri(0.5 + confidence / 2.0))


def t_quantile(confidence: float, df: int) -> float:
    """``t`` with ``P(|T| <= t) = confidence`` for Student's T with ``df`` degrees of freedom (``stats.t.ppf``)."""
    return float(special.stdtrit(df, 0.5 + confidence / 2.0))


def t_two_sided_p(t: float, df: int) -> float:
    """``P(|T| >= |t|)`` for Student's T with ``df`` degrees of freedom."""
    return float(2.0 * special.stdtr(df, -abs(t)))


def normal_two_sided_p(z: float) -> float:
    """``P(|Z| >= |z|)`` for a standard normal ``Z``."""
    return float(2.0 * special.ndtr(-abs(z)))


def proportion_interval(k: int, n: int, confidence: float, method: str) -> tuple[float, float]:
    """The two ends of a binomial proportion's interval, ``n > 0`` (Brown, Cai & DasGupta 2001).

    ``"wilson"``: ``(k + z²/2)/(n + z²) ± z/(n + z²)·√(k(n − k)/n + z²/4)``, exactly 0 at k = 0 and 1
    at k = n; ``"clopper_pearson"``: Beta quantiles; ``"agresti_coull"``: Wald around
    ``p̃ = (k + z²/2)/ñ``, ``ñ = n + z²``, cut to [0, 1].

    >>> [round(v, 4) for v in proportion_interval(7, 10, 0.95, "wilson")]
    [0.3968, 0.8922]
    """
    alpha = 1.0 - confidence
    z = normal_quantile(confidence)
    z2 = z * z
    if method == "wilson":
        centre = (k + z2 / 2.0) / (n + z2)
        half = z / (n + z2) * math.sqrt(k * (n - k) / n + z2 / 4.0)
        low = 0.0 if k == 0 else max(centre - half, 0.0)
        high = 1.0 if k == n else min(centre + half, 1.0)
        return low, high
    if method == "clopper_pearson":
        from scipy import stats

        low = 0.0 if k == 0 else float(stats.beta.ppf(alpha / 2.0, k, n - k + 1))
        high = 1.0 if k == n else float(stats.beta.ppf(1.0 - alpha / 2.0, k + 1, n - k))
        return low, high
    n_tilde = n + z2
    p_tilde = (k + z2 / 2.0) / n_tilde
    half = z * math.sqrt(p_tilde * (1.0 - p_tilde) / n_tilde)
    return max(p_tilde - half, 0.0), min(p_tilde + half, 1.0)


def fold_t_interval(
    values: np.ndarray, confidence: float, *, n_train: float, n_test: float, corrected: bool
) -> tuple[float, float, float]:
    """Mean, low, high of the (corrected) t interval over J fold scores, ``J >= 2``.

    ``μ̂ ± t_{J−1, 1−α/2}·√(c·σ̂²)``, ``c = 1/J`` (naive) or ``1/J + n_test/n_train`` (Nadeau &
    Bengio 2003, §4; Bouckaert & Frank 2004 for r·k folds).

    >>> [round(v, 4) for v in fold_t_interval(np.array([0.8, 0.7, 0.9, 0.75, 0.85]), 0.95, n_train=400,
    ...                                        n_test=100, corrected=True)]
    [0.8, 0.6528, 0.9472]
    """
    j = values.size
    factor = 1.0 / j + (n_test / n_train if corrected else 0.0)
    mean = float(values.mean())
    half = t_quantile(confidence, j - 1) * math.sqrt(factor * float(np.var(values, ddof=1)))
    return mean, mean - half, mean + half
