"""Confidence intervals for a binomial proportion: pooled precision, recall or accuracy.

Introduced in notebook 11. Pooled over the folds of a cross-validation, recall
is TP out of the P positives, precision TP out of the TP + FP positive
predictions and accuracy TP + TN out of all N cases: each is k successes out
of n trials, and these intervals treat the n trials as independent.
"""

from __future__ import annotations

from typing import Literal

from apples._kernels.intervals import proportion_interval
from apples._params import CONFIDENCE, COUNT, Options, ParameterValueError, Policy, Undefined, declare, resolve
from apples.intervals.results import ConfidenceInterval

__all__ = [
    "PROPORTION_METHODS",
    "proportion_ci",
]

PROPORTION_METHODS: tuple[str, ...] = ("wilson", "clopper_pearson", "agresti_coull")


@declare(
    k=COUNT, n=COUNT, confidence=CONFIDENCE, method=Options(*PROPORTION_METHODS), undefined=Undefined("raise", "nan")
)
def proportion_ci(
    k: int,
    n: int,
    *,
    confidence: float = 0.95,
    method: Literal["wilson", "clopper_pearson", "agresti_coull"] = "wilson",
    undefined: Policy = "raise",
) -> ConfidenceInterval:
    """Two-sided confidence interval for a proportion ``k / n``.

    Parameters
    ----------
    k : int
        Successes (e.g. the pooled TP for recall), ``0 <= k <= n``.
    n : int
        Trials (e.g. the pooled positives TP + FN for recall).
    confidence : float, default 0.95
        Nominal coverage, strictly between 0 and 1.
    method : {"wilson", "clopper_pearson", "agresti_coull"}, default "wilson"
        ``"wilson"``: the score interval, Wilson (1927), the roots in p of
        ``(k/n − p)² = z² p(1 − p)/n``, i.e. ``(k + z²/2)/(n + z²) ± z/(n + z²) · √(k(n − k)/n + z²/4)``;
        recommended by Brown, Cai & DasGupta (2001) §4.1.
        ``"clopper_pearson"``: the "exact" interval, Clopper & Pearson (1934),
        ``[B(α/2; k, n − k + 1), B(1 − α/2; k + 1, n − k)]`` with B the Beta quantile (0 for k = 0,
        1 for k = n); conservative: coverage at least the nominal.
        ``"agresti_coull"``: Agresti & Coull (1998), the Wald interval around
        ``p̃ = (k + z²/2)/ñ`` with ``ñ = n + z²``: ``p̃ ± z √(p̃(1 − p̃)/ñ)``, cut to [0, 1].
    undefined : {"raise", "nan"}, default "raise"
        With ``n = 0`` the proportion is 0/0: raise :class:`~apples.UndefinedMetricError`, or
        return NaN for the estimate and both ends.

    Returns
    -------
    ConfidenceInterval
        ``estimate = k / n``.

    References
    ----------
    Brown, L. D., Cai, T. T. & DasGupta, A. (2001). Interval estimation for a binomial proportion.
    Statistical Science 16(2), 101–133, eqs. (4) (Wilson), (5) (Agresti–Coull) and §4.2.1 (Clopper–Pearson).

    Examples
    --------
    >>> from apples import proportion_ci
    >>> ci = proportion_ci(7, 10)   # Brown et al.'s kind of small-n example
    >>> round(ci.low, 4), round(ci.high, 4)
    (0.3968, 0.8922)
    >>> ci = proportion_ci(0, 10, method="clopper_pearson")
    >>> ci.low, round(ci.high, 4)
    (0.0, 0.3085)
    """
    if k > n:
        raise ParameterValueError(f"k={k} successes is more than n={n} trials", param="k")
    if n == 0:
        nan = resolve(
            float("nan"), undefined, what="the proportion k/n (n=0 trials)", hint="pass undefined='nan' to get NaN"
        )
        return ConfidenceInterval(nan, nan, nan, confidence, method)
    low, high = proportion_interval(k, n, confidence, method)
    return ConfidenceInterval(k / n, low, high, confidence, method)
