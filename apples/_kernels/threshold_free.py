"""Measures at every threshold of one set of scores, and their optimum (Parker 2011 §II).

Every function takes the :class:`~apples._kernels.ranking.CumulativeCounts` of the scores
(thresholds decreasing; with both classes present) and returns one value per threshold, or the
optimum over them. Where several thresholds reach the optimum the *highest* one wins (fewest
positive predictions): ``argmax`` returns the first in decreasing threshold order.
"""

from __future__ import annotations

import numpy as np

from apples._kernels.f_measure import f_of_counts, ratio
from apples._kernels.ranking import CumulativeCounts

__all__ = [
    "best_defined_index",
    "best_index",
    "error_counts",
    "f_beta_curve",
    "kappa_curve",
    "ks_curve",
    "mcc_curve",
    "threshold_value",
    "trapezoid",
]


def kappa_curve(c: CumulativeCounts) -> tuple[np.ndarray, np.ndarray]:
    """FPR and Cohen's kappa at every threshold, from the origin on (Parker §II-F); NaN where kappa is 0/0.

    ``kappa = 2 (TP·TN − FN·FP) / ((TP + FP)(FP + TN) + (TP + FN)(FN + TN))``, defined at every
    threshold once both classes are present.

    >>> from apples._kernels.ranking import cumulative_counts
    >>> fpr, kappa = kappa_curve(cumulative_counts(np.array([1, 1, 0, 0], bool), np.array([4, 3, 2, 1])))
    >>> fpr.tolist(), kappa.tolist()
    ([0.0, 0.0, 0.0, 0.5, 1.0], [0.0, 0.5, 1.0, 0.5, 0.0])
    """
    o = c.with_origin()
    p, n = o.n_pos, o.n_neg
    tp, fp = o.tp.astype(float), o.fp.astype(float)
    fn, tn = p - tp, n - fp
    kappa = ratio(2.0 * (tp * tn - fn * fp), (tp + fp) * (fp + tn) + (tp + fn) * (fn + tn))
    return ratio(fp, n), kappa


def trapezoid(y: np.ndarray, x: np.ndarray) -> float:
    """The trapezoid rule ``∫ y dx`` over the points (AUK: kappa over FPR)."""
    return float(np.trapezoid(y, x))


def f_beta_curve(c: CumulativeCounts, beta: float) -> np.ndarray:
    """F_beta (eq. 2 of Forman & Scholz) at every threshold; defined wherever the data hold a positive."""
    return f_of_counts(c.tp, c.fp, c.n_pos - c.tp, beta)


def mcc_curve(c: CumulativeCounts) -> np.ndarray:
    """The Matthews correlation at every threshold; NaN where it is 0/0 (a constant prediction)."""
    tp, fp = c.tp.astype(float), c.fp.astype(float)
    fn, tn = c.n_pos - tp, c.n_neg - fp
    return ratio(tp * tn - fp * fn, np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)))


def ks_curve(c: CumulativeCounts, two_sided: bool) -> np.ndarray:
    """TPR − FPR at every threshold (the Youden index), or its absolute value (Kolmogorov–Smirnov)."""
    d = c.tp / c.n_pos - c.fp / c.n_neg
    return np.abs(d) if two_sided else d


def error_counts(c: CumulativeCounts) -> np.ndarray:
    """FP + FN of predicting nothing positive (first), then of each threshold."""
    return np.r_[c.n_pos, c.fp + (c.n_pos - c.tp)]


def best_index(values: np.ndarray) -> int:
    """The first index of the largest value: the highest threshold that reaches it.

    >>> best_index(np.array([0.5, 1.0, 1.0]))
    1
    """
    return int(np.argmax(values))


def best_defined_index(values: np.ndarray) -> int | None:
    """The first index of the largest value that is not NaN; None when every value is NaN.

    >>> best_defined_index(np.array([np.nan, 0.5])), best_defined_index(np.array([np.nan]))
    (1, None)
    """
    defined = ~np.isnan(values)
    if not defined.any():
        return None
    return int(np.flatnonzero(defined)[np.argmax(values[defined])])


def threshold_value(thresholds: np.ndarray, i: int) -> float:
    """The threshold at ``i`` as a Python number: an ``int`` for integer scores (exact beyond 2**53)."""
    value: float = thresholds[i].item()
    return value
