"""The confusion count of one fold: :class:`Counts`.

Introduced in notebook 01. Forman & Scholz (2010) §2.1 name the four cells
TP, FP, FN, TN; a cross-validation study has one :class:`Counts` per fold
(their superscript ``(i)``), and pooling folds is addition (§2.3, method 3).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from apples._kernels.counting import codes_of, confusion_by_fold
from apples._params import (
    COUNT,
    FOLD_IDS,
    LABEL,
    LABELS,
    BinaryLabels,
    Declaration,
    Instance,
    MappingOf,
    OneLabelKind,
    ParameterValueError,
    SameLength,
    SequenceOf,
    declare,
)

__all__ = [
    "Counts",
    "fold_counts",
]


@dataclass(frozen=True, slots=True)
class Counts:
    """Immutable binary confusion count for one test fold.

    Parameters
    ----------
    tp, fp, fn : int
        True positives, false positives and false negatives.
    tn : int, default 0
        True negatives. F-measure, precision and recall never use it, so it
        may be left at 0 when only those are wanted; accuracy needs it.

    Raises
    ------
    TypeError
        If a count is not an integer (``bool`` and ``float`` are rejected,
        even ``3.0``).
    ValueError
        If a count is negative.

    Notes
    -----
    Counts add: ``sum(folds, Counts(0, 0, 0, 0))`` (or just ``sum(folds)``)
    pools the folds of a cross-validation, which is how F_tp,fp of Forman &
    Scholz (2010) §2.3 is computed.

    Examples
    --------
    >>> from apples import Counts
    >>> a = Counts(tp=3, fp=0, fn=0, tn=373)
    >>> b = Counts(tp=4, fp=1, fn=0, tn=371)
    >>> a + b
    Counts(tp=7, fp=1, fn=0, tn=744)
    >>> (a + b).positives, (a + b).negatives
    (7, 745)
    """

    tp: int
    fp: int
    fn: int
    tn: int = 0

    def __post_init__(self) -> None:  # the dataclass's __init__ calls it: each count checked by its kind
        for name in ("tp", "fp", "fn", "tn"):
            object.__setattr__(self, name, COUNT(name, getattr(self, name)))

    # -- arithmetic: pooling folds -------------------------------------------------
    def __add__(self, other: object) -> Counts:
        if isinstance(other, Counts):
            return Counts(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn, self.tn + other.tn)
        return NotImplemented

    def __radd__(self, other: object) -> Counts:
        # lets the builtin sum() start from 0
        if isinstance(other, int) and not isinstance(other, bool) and other == 0:
            return self
        return NotImplemented

    # -- margins ------------------------------------------------------------------
    @property
    def positives(self) -> int:
        """Actual positives, TP + FN."""
        return self.tp + self.fn

    @property
    def negatives(self) -> int:
        """Actual negatives, FP + TN."""
        return self.fp + self.tn

    @property
    def predicted_positives(self) -> int:
        """Predicted positives, TP + FP."""
        return self.tp + self.fp

    @property
    def n(self) -> int:
        """All cases, TP + FP + FN + TN."""
        return self.tp + self.fp + self.fn + self.tn

    # -- constructors -------------------------------------------------------------
    @classmethod
    @declare(positives=COUNT, negatives=COUNT, tp=COUNT, fp=COUNT)
    def from_fold(cls, *, positives: int, negatives: int, tp: int, fp: int) -> Counts:
        """Counts from a fold described as in Forman & Scholz Tables 1 and 2.

        Parameters
        ----------
        positives, negatives : int
            Actual positives and negatives in the fold.
        tp, fp : int
            True and false positives; ``tp <= positives``, ``fp <= negatives``.

        Examples
        --------
        >>> from apples import Counts
        >>> Counts.from_fold(positives=4, negatives=372, tp=3, fp=5)
        Counts(tp=3, fp=5, fn=1, tn=367)
        """
        if tp > positives:
            raise ParameterValueError(f"tp={tp} is larger than the number of positives ({positives})", param="tp")
        if fp > negatives:
            raise ParameterValueError(f"fp={fp} is larger than the number of negatives ({negatives})", param="fp")
        return cls(tp=tp, fp=fp, fn=positives - tp, tn=negatives - fp)

    @classmethod
    @declare(
        y_true=LABELS,
        y_pred=LABELS,
        pos_label=LABEL,
        relations=[
            SameLength("y_true", "y_pred"),
            OneLabelKind("y_true", "y_pred"),
            BinaryLabels("pos_label", "y_true", "y_pred"),
        ],
    )
    def from_labels(cls, y_true: ArrayLike, y_pred: ArrayLike, *, pos_label: Hashable = 1) -> Counts:
        """Count a binary prediction.

        Parameters
        ----------
        y_true, y_pred : array-like of shape (n,)
            True and predicted labels, of one type (numbers, or strings);
            together they hold at most two distinct values.
        pos_label : label, default 1
            The label of the positive class, of the same type as the labels.
            It may be absent when the data hold a single label (a fold
            without positives and without positive predictions: all TN, or
            with ``pos_label`` as the only label all TP).

        Raises
        ------
        ValueError
            A missing label (None, NaN, ``pd.NA``), a continuous value (0.3)
            where a label belongs, unequal lengths, no cases (as
            :func:`fold_counts`: ``Counts(0, 0, 0, 0)`` would give F = 0 for
            nothing), more than two distinct labels, or two labels of which
            none is ``pos_label``.
        TypeError
            ``y_true`` and ``y_pred`` hold labels of different types, or
            ``pos_label`` is of another type than the labels (the default 1
            with string labels ``["no", "no"]`` would count every case as a
            negative without a word).

        Examples
        --------
        >>> from apples import Counts
        >>> Counts.from_labels([1, 1, 0, 0, 0], [1, 0, 1, 0, 0])
        Counts(tp=1, fp=1, fn=1, tn=2)
        >>> Counts.from_labels([0, 0], [0, 0])        # a fold without positives
        Counts(tp=0, fp=0, fn=0, tn=2)
        """
        t, p = np.asarray(y_true), np.asarray(y_pred)  # checked arrays already: no copy
        if t.size == 0:
            raise ParameterValueError("y_true is empty: there are no cases to count", param="y_true")
        positive = t == pos_label
        predicted = p == pos_label
        return cls(
            tp=int(np.sum(positive & predicted)),
            fp=int(np.sum(~positive & predicted)),
            fn=int(np.sum(positive & ~predicted)),
            tn=int(np.sum(~positive & ~predicted)),
        )


@declare(
    y_true=LABELS,
    y_pred=LABELS,
    folds=FOLD_IDS,
    pos_label=LABEL,
    relations=[
        SameLength("y_true", "y_pred", "folds"),
        OneLabelKind("y_true", "y_pred"),
        BinaryLabels("pos_label", "y_true", "y_pred"),
    ],
)
def fold_counts(y_true: ArrayLike, y_pred: ArrayLike, *, folds: ArrayLike, pos_label: Hashable = 1) -> list[Counts]:
    """One :class:`Counts` per fold, from labels and a fold assignment.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        True and predicted labels of every case (e.g. from
        ``sklearn.model_selection.cross_val_predict``).
    folds : array-like of shape (n,)
        The fold id of each case (the fold it was tested in); the result is ordered by sorted fold id.
    pos_label : label, default 1
        The positive class.

    Raises
    ------
    ValueError, TypeError
        As :meth:`Counts.from_labels`, checked once over all folds together:
        three labels in the data are an error even if every fold holds only
        two, and a fold without positives is valid when the data have them.
        Empty data (no cases, so no folds) are a ValueError.

    Examples
    --------
    >>> from apples import fold_counts
    >>> fold_counts([1, 0, 1, 0], [1, 0, 0, 1], folds=[0, 0, 1, 1])
    [Counts(tp=1, fp=0, fn=0, tn=1), Counts(tp=0, fp=1, fn=1, tn=0)]
    """
    t, p = np.asarray(y_true), np.asarray(y_pred)
    if t.size == 0:
        raise ParameterValueError("y_true is empty: there are no cases, hence no folds to count", param="y_true")
    ids, fold = codes_of(np.asarray(folds))
    m = confusion_by_fold(fold, (t == pos_label).astype(np.intp), (p == pos_label).astype(np.intp), ids.size, 2)
    return [Counts(int(c[1, 1]), int(c[0, 1]), int(c[1, 0]), int(c[0, 0])) for c in m]


#: The kind of a parameter that takes one confusion count.
#: The constructor's contract: the dataclass's own __init__ checks each count by COUNT in __post_init__.
Counts.__init__.__apples_params__ = Declaration(dict.fromkeys(("tp", "fp", "fn", "tn"), COUNT))  # type: ignore[attr-defined]

COUNTS = Instance(Counts, hint="make one with apples.Counts.from_labels(y_true, y_pred)", what="an apples.Counts")
#: The kind of a parameter that takes one confusion count per fold (``fold_counts``).
FOLD_COUNTS = SequenceOf(COUNTS, what="a sequence of apples.Counts, one per fold (apples.fold_counts gives it)")
#: The kind of a parameter that takes one confusion count per label (``counts_by_label``).
COUNTS_BY_LABEL = MappingOf(COUNTS, what="a mapping label -> apples.Counts (apples.label_counts gives it)")
