"""Shared core of every score-based (threshold-free) measure.

``y_true`` holds two classes (1 or ``positive`` = positive), ``y_score`` is
real-valued with higher = more positive. A threshold t predicts positive for
``y_score >= t``; the thresholds are the distinct scores in decreasing order,
so a group of tied scores is never split (one ROC step, a diagonal segment).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._validation import check_labels_1d, check_same_length, check_scores

__all__ = ["check_binary_scores", "cumulative_counts", "CumulativeCounts"]


def check_binary_scores(y_true, y_score, *, positive=1, require_both: bool = True,
                        name_true: str = "y_true", name_score: str = "y_score"):
    """Validate a binary scoring problem; returns ``(is_positive: bool array, scores: float array)``.

    Raises ValueError for mismatched lengths, NaN/infinite scores, more than
    two labels, an empty input, or (``require_both=True``) only one class.
    """
    t = check_labels_1d(name_true, y_true)
    s = check_scores(name_score, y_score)
    check_same_length(**{name_true: t, name_score: s})
    if t.size == 0:
        raise ValueError(f"{name_true} is empty")
    labels = np.unique(t)
    if labels.size > 2:
        raise ValueError(f"{name_true} must hold two classes, got {labels.size}: {labels[:5].tolist()}")
    pos = t == positive
    if labels.size == 2 and not pos.any():
        raise ValueError(f"positive={positive!r} is not one of the labels in {name_true} {labels.tolist()}")
    if require_both and (pos.all() or not pos.any()):
        which = "positives" if not pos.any() else "negatives"
        raise ValueError(f"{name_true} has only one class (no {which}); the measure needs both")
    return pos, s


class CumulativeCounts(NamedTuple):
    """Counts at each distinct threshold, in decreasing threshold order."""

    thresholds: np.ndarray  #: distinct scores, decreasing
    tp: np.ndarray  #: positives with score >= threshold
    fp: np.ndarray  #: negatives with score >= threshold
    n_pos: int
    n_neg: int

    def with_origin(self) -> "CumulativeCounts":
        """The same counts with the ROC origin first: threshold +inf, TP = FP = 0 (nothing predicted positive).

        >>> c = cumulative_counts(np.array([True, False]), np.array([0.9, 0.1])).with_origin()
        >>> c.thresholds.tolist(), c.tp.tolist(), c.fp.tolist()
        ([inf, 0.9, 0.1], [0, 1, 1], [0, 0, 1])
        """
        return CumulativeCounts(np.r_[np.inf, self.thresholds], np.r_[0, self.tp], np.r_[0, self.fp],
                                self.n_pos, self.n_neg)


def cumulative_counts(is_positive: np.ndarray, scores: np.ndarray) -> CumulativeCounts:
    """TP and FP at every distinct threshold (ties grouped). O(n log n).

    Examples
    --------
    >>> c = cumulative_counts(np.array([True, False, True, False]), np.array([0.9, 0.5, 0.5, 0.1]))
    >>> c.thresholds.tolist(), c.tp.tolist(), c.fp.tolist()
    ([0.9, 0.5, 0.1], [1, 2, 2], [0, 1, 2])
    """
    order = np.argsort(-scores, kind="mergesort")
    s = scores[order]
    p = is_positive[order]
    last_of_group = np.r_[np.flatnonzero(np.diff(s) != 0), s.size - 1]
    tp = np.cumsum(p)[last_of_group]
    fp = (np.arange(1, s.size + 1) - np.cumsum(p))[last_of_group]
    return CumulativeCounts(s[last_of_group], tp.astype(np.int64), fp.astype(np.int64),
                            int(p.sum()), int((~p).sum()))
