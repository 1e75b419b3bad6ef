"""The declaration shared by every score-based (threshold-free) measure, and the helpers of its bodies.

``y_true`` holds two classes (``pos_label`` = positive), ``y_score`` is real-valued with higher =
more positive. A threshold t predicts positive for ``y_score >= t``; the thresholds are the
distinct scores in decreasing order, so a group of tied scores is never split (one ROC step, a
diagonal segment). The computations are the kernels of :mod:`apples._kernels.ranking`.

Every public function of a binary scoring problem declares ::

    @declare(**SCORED, relations=SCORED_RELATIONS)

that is ``y_true=LABELS, y_score=SCORES, pos_label=LABEL``, with equal lengths and
:class:`~apples._params.TwoClasses` (not empty, at most two classes, ``pos_label`` one of them, or
of their kind when there is one class only). Whether a measure needs both classes is its own rule:
:func:`require_both` in the body (a ValueError), or the 0/0 policy (AUC, average precision).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from apples._kernels.ranking import CumulativeCounts, cumulative_counts
from apples._params import (
    LABEL,
    LABELS,
    SCORES,
    Kind,
    ParameterValueError,
    Relation,
    SameLength,
    TwoClasses,
    unique_labels,
)

__all__: list[str] = []

#: The kinds of a binary scoring problem's parameters.
SCORED: dict[str, Kind] = {"y_true": LABELS, "y_score": SCORES, "pos_label": LABEL}
#: The relations between them.
SCORED_RELATIONS: list[Relation] = [SameLength("y_true", "y_score"), TwoClasses("pos_label", "y_true")]


def one_class(is_positive: np.ndarray, y_true: np.ndarray, pos_label: Hashable, name: str = "y_true") -> str:
    """Why there is one class only, naming the positive label and the labels found.

    >>> one_class(np.array([False, False]), np.array(["a", "a"]), "b")
    "y_true has only one class (no positives: pos_label='b' is not among the labels found, ['a'])"
    """
    if not is_positive.any():
        return (
            f"{name} has only one class (no positives: pos_label={pos_label!r} "
            f"is not among the labels found, {unique_labels(name, y_true).tolist()})"
        )
    return f"{name} has only one class (no negatives: every label is pos_label={pos_label!r})"


def require_both(is_positive: np.ndarray, y_true: np.ndarray, pos_label: Hashable) -> None:
    """The ValueError of a measure that needs both classes, where ``y_true`` holds one."""
    if is_positive.all() or not is_positive.any():
        raise ParameterValueError(
            f"{one_class(is_positive, y_true, pos_label)}; the measure needs both", param="y_true"
        )


def counts_of(y_true: ArrayLike, y_score: ArrayLike, pos_label: Hashable, *, both: bool = True) -> CumulativeCounts:
    """The cumulative counts of declared (checked) arguments; with ``both``, the ValueError of one class."""
    t = np.asarray(y_true)
    positive = t == pos_label
    if both:
        require_both(positive, t, pos_label)
    return cumulative_counts(positive, np.asarray(y_score))


class BinaryScores(NamedTuple):
    """A validated binary scoring problem (see :func:`binary_scores`)."""

    is_positive: np.ndarray  #: bool, True where ``y_true == positive``
    scores: np.ndarray  #: float64, or int64/uint64 for integer and datetime scores (ranked exactly)
    labels: np.ndarray  #: the distinct labels found in ``y_true`` (one or two)
    pos_label: object  #: the positive label
    name_true: str  #: the name of ``y_true`` in messages

    def one_class(self) -> str:
        """Why there is one class only, naming the positive label and the labels found."""
        return one_class(self.is_positive, self.labels, self.pos_label, self.name_true)


def binary_scores(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Hashable = 1,
    require_both: bool = True,
    name_true: str = "y_true",
    name_score: str = "y_score",
) -> BinaryScores:
    """A binary scoring problem checked by the kinds and relations of :data:`SCORED` under the caller's names.

    For :mod:`apples.intervals.ranking`, whose functions do not declare their parameters yet (its
    ``compare_roc_auc`` names its scores ``y_score_a``). The checks are those of the declaration;
    ``require_both=True`` adds the ValueError of one class.

    Examples
    --------
    >>> b = binary_scores(["spam", "ham", "spam"], [0.9, 0.2, 0.4], pos_label="spam")
    >>> b.is_positive.tolist(), b.labels.tolist()
    ([True, False, True], ['ham', 'spam'])
    >>> binary_scores(["a", "b"], [0.1, 0.2])
    Traceback (most recent call last):
    ...
    apples._params.errors.ParameterTypeError: pos_label=1 is a number but the labels in y_true are strs (['a', 'b'])
    """
    values = {
        name_true: LABELS(name_true, y_true),
        name_score: SCORES(name_score, y_score),
        "pos_label": LABEL("pos_label", pos_label),
    }
    SameLength(name_true, name_score)(values)
    TwoClasses("pos_label", name_true)(values)
    t = values[name_true]
    positive = t == values["pos_label"]
    b = BinaryScores(positive, values[name_score], unique_labels(name_true, t), values["pos_label"], name_true)
    if require_both and (positive.all() or not positive.any()):
        raise ParameterValueError(f"{b.one_class()}; the measure needs both", param=name_true)
    return b
