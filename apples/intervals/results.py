"""The result types of every interval and comparison, and the checks they share.

Introduced in notebook 11. An interval is a small immutable object: the
estimate, the two ends, the confidence level and the method that made it. A
paired comparison adds the test statistic and its two-sided p-value.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "ConfidenceInterval",
    "PairedComparison",
]


@dataclass(frozen=True, slots=True)
class ConfidenceInterval:
    """An estimate with a two-sided confidence interval.

    Attributes
    ----------
    estimate : float
        The point estimate (the measure on the data as given).
    low, high : float
        The ends of the interval, ``low <= high``.
    confidence : float
        The nominal coverage, e.g. 0.95.
    method : str
        How the interval was made (``"wilson"``, ``"delong"``, ``"bootstrap"``, ``"corrected_t"``, ...).

    Examples
    --------
    >>> from apples import ConfidenceInterval
    >>> ci = ConfidenceInterval(0.5, 0.25, 0.75, 0.95, "wilson")
    >>> ci.width
    0.5
    >>> ci.covers(0.8)
    False
    """

    estimate: float
    low: float
    high: float
    confidence: float
    method: str

    @property
    def width(self) -> float:
        """``high - low``."""
        return self.high - self.low

    def covers(self, value: float) -> bool:
        """Whether ``low <= value <= high`` (False when an end is NaN)."""
        return bool(self.low <= value <= self.high)


@dataclass(frozen=True, slots=True)
class PairedComparison:
    """The difference of two classifiers measured on the same cases or folds, with a test of no difference.

    Attributes
    ----------
    estimate : float
        The difference, classifier A minus classifier B.
    low, high : float
        The ends of the confidence interval of the difference.
    confidence : float
        The nominal coverage of the interval.
    method : str
        The test (``"delong"``, ``"corrected_t"``, ``"t"``, ``"mcnemar_mid_p"``).
    statistic : float
        The test statistic (z, t, or the smaller discordant count for McNemar).
    p_value : float
        Two-sided p-value of "no difference".
    """

    estimate: float
    low: float
    high: float
    confidence: float
    method: str
    statistic: float
    p_value: float

    @property
    def width(self) -> float:
        """``high - low``."""
        return self.high - self.low
