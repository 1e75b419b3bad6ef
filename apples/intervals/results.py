"""The result types of every interval and comparison, and the checks they share.

Introduced in notebook 10. An interval is a small immutable object: the
estimate, the two ends, the confidence level and the method that made it. A
paired comparison adds the test statistic and its two-sided p-value.
"""

from __future__ import annotations

from dataclasses import dataclass

from scipy import special

from apples._params import check_real

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


def check_confidence(confidence: object) -> float:
    """A confidence level strictly between 0 and 1, as a float; errors name ``confidence``."""
    return check_real("confidence", confidence, low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)


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
