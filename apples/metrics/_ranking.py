"""Shared core of every score-based (threshold-free) measure.

``y_true`` holds two classes (1 or ``pos_label`` = positive), ``y_score`` is
real-valued with higher = more positive. A threshold t predicts positive for
``y_score >= t``; the thresholds are the distinct scores in decreasing order,
so a group of tied scores is never split (one ROC step, a diagonal segment).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from apples._params import (
    check_labels_1d,
    check_pos_label,
    check_same_length,
    check_scores,
    is_missing,
    unique_labels,
)

__all__ = []


class BinaryScores(NamedTuple):
    """A validated binary scoring problem (see :func:`binary_scores`)."""

    is_positive: np.ndarray  #: bool, True where ``y_true == positive``
    scores: np.ndarray  #: float64, or int64/uint64 for integer and datetime scores (ranked exactly)
    labels: np.ndarray  #: the distinct labels found in ``y_true`` (one or two)
    pos_label: object  #: the positive label
    name_true: str  #: the name of ``y_true`` in messages

    def one_class(self) -> str:
        """Why there is one class only, naming the positive label and the labels found.

        >>> binary_scores(["a", "a"], [0.1, 0.2], pos_label="b", require_both=False).one_class()
        "y_true has only one class (no positives: pos_label='b' is not among the labels found, ['a'])"
        """
        if not self.is_positive.any():
            return (
                f"{self.name_true} has only one class (no positives: pos_label={self.pos_label!r} "
                f"is not among the labels found, {self.labels.tolist()})"
            )
        return f"{self.name_true} has only one class (no negatives: every label is pos_label={self.pos_label!r})"


def binary_scores(
    y_true, y_score, *, pos_label=1, require_both: bool = True, name_true: str = "y_true", name_score: str = "y_score"
) -> BinaryScores:
    """Validate a binary scoring problem, keeping the labels found for messages.

    Raises, naming the argument, a ValueError for mismatched lengths, missing
    labels (None, NaN), NaN/infinite scores, more than two labels, an empty
    input, a ``pos_label`` label absent while two labels are present, or
    (``require_both=True``) only one class; a TypeError for labels of mixed
    kinds, non-numeric scores, and a ``pos_label`` label of another kind than
    the labels (``1`` for ``["a", "b"]``, ``"1"`` for ``[0, 1]``), which can
    never match, whatever ``require_both`` says.

    Integer scores stay integers (:func:`apples._params.check_scores`):
    converting them to float would merge distinct scores above 2**53.

    Examples
    --------
    >>> b = binary_scores(["spam", "ham", "spam"], [0.9, 0.2, 0.4], pos_label="spam")
    >>> b.is_positive.tolist(), b.labels.tolist()
    ([True, False, True], ['ham', 'spam'])
    >>> binary_scores(["a", "b"], [0.1, 0.2])
    Traceback (most recent call last):
    ...
    TypeError: pos_label=1 is a number but the labels in y_true are strs (['a', 'b'])
    """
    t = check_labels_1d(name_true, y_true)
    s = check_scores(name_score, y_score)
    check_same_length(**{name_true: t, name_score: s})
    if t.size == 0:
        raise ValueError(f"{name_true} is empty")
    labels = unique_labels(name_true, t)
    if labels.size > 2:
        raise ValueError(f"{name_true} must hold two classes, got {labels.size}: {labels[:5].tolist()}")
    try:
        check_pos_label(pos_label, labels, name="pos_label", where=name_true)
    except ValueError:
        # With one class, a positive label of the right kind may be absent: no positives
        # (each measure says whether it is then defined). A TypeError always propagates.
        if labels.size == 2 or is_missing(pos_label):
            raise
    pos = t == pos_label
    b = BinaryScores(pos, s, labels, pos_label, name_true)
    if require_both and (pos.all() or not pos.any()):
        raise ValueError(f"{b.one_class()}; the measure needs both")
    return b


def check_binary_scores(
    y_true, y_score, *, pos_label=1, require_both: bool = True, name_true: str = "y_true", name_score: str = "y_score"
):
    """Validate a binary scoring problem; returns ``(is_positive, scores)``.

    ``is_positive`` is a bool array; ``scores`` is float64, or int64/uint64 for
    integer and datetime scores (never converted to float, which would merge
    distinct scores above 2**53). The checks are those of :func:`binary_scores`.
    """
    b = binary_scores(
        y_true, y_score, pos_label=pos_label, require_both=require_both, name_true=name_true, name_score=name_score
    )
    return b.is_positive, b.scores


class CumulativeCounts(NamedTuple):
    """Counts at each distinct threshold, in decreasing threshold order."""

    thresholds: np.ndarray  #: distinct scores, decreasing, in the scores' dtype (integers stay exact)
    tp: np.ndarray  #: positives with score >= threshold
    fp: np.ndarray  #: negatives with score >= threshold
    n_pos: int
    n_neg: int

    def with_origin(self) -> CumulativeCounts:
        """The same counts with the ROC origin first: threshold +inf, TP = FP = 0 (nothing predicted positive).

        The thresholds become float64 to hold +inf: integer scores above 2**53
        may then print alike, but they remain distinct thresholds, one per
        distinct score, with their own counts.

        >>> c = cumulative_counts(np.array([True, False]), np.array([0.9, 0.1])).with_origin()
        >>> c.thresholds.tolist(), c.tp.tolist(), c.fp.tolist()
        ([inf, 0.9, 0.1], [0, 1, 1], [0, 0, 1])
        """
        return CumulativeCounts(
            np.r_[np.inf, self.thresholds], np.r_[0, self.tp], np.r_[0, self.fp], self.n_pos, self.n_neg
        )


def cumulative_counts(is_positive: np.ndarray, scores: np.ndarray) -> CumulativeCounts:
    """TP and FP at every distinct threshold (ties grouped). O(n log n).

    Scores of any real dtype are ranked exactly as given: integers (int64,
    uint64) are never converted to float nor negated (a uint64 would wrap
    around, the int64 minimum overflow), and neighbours are compared rather
    than subtracted (``1e308 - (-1e308)`` overflows).

    Examples
    --------
    >>> c = cumulative_counts(np.array([True, False, True, False]), np.array([0.9, 0.5, 0.5, 0.1]))
    >>> c.thresholds.tolist(), c.tp.tolist(), c.fp.tolist()
    ([0.9, 0.5, 0.1], [1, 2, 2], [0, 1, 2])
    >>> c = cumulative_counts(np.array([True, False]), np.array([2**53 + 1, 2**53]))
    >>> c.thresholds.tolist(), c.tp.tolist(), c.fp.tolist()
    ([9007199254740993, 9007199254740992], [1, 1], [0, 1])
    """
    # decreasing order without negating; a tie group's order does not matter (only its totals do)
    order = np.argsort(scores, kind="stable")[::-1]
    s = scores[order]
    p = is_positive[order]
    change = np.flatnonzero(s[1:] != s[:-1])
    last_of_group = np.r_[change, s.size - 1]
    # Each group's threshold is its last case in the original order, which the reversal put
    # first here (-0.0 and 0.0 tie; the one reported is the same as with a stable sort).
    first_of_group = np.r_[0, change + 1]
    tp = np.cumsum(p)[last_of_group]
    fp = (np.arange(1, s.size + 1) - np.cumsum(p))[last_of_group]
    return CumulativeCounts(s[first_of_group], tp.astype(np.int64), fp.astype(np.int64), int(p.sum()), int((~p).sum()))
