"""The confusion count of one fold: :class:`Counts`.

Introduced in notebook 01. Forman & Scholz (2010) §2.1 name the four cells
TP, FP, FN, TN; a cross-validation study has one :class:`Counts` per fold
(their superscript ``(i)``), and pooling folds is addition (§2.3, method 3).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from apples._validation import (
    check_count,
    check_label_kind,
    check_labels_1d,
    check_pos_label,
    check_same_label_kind,
    check_same_length,
    unique_labels,
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

    def __post_init__(self) -> None:
        for name in ("tp", "fp", "fn", "tn"):
            object.__setattr__(self, name, check_count(name, getattr(self, name)))

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
        >>> Counts.from_fold(positives=4, negatives=372, tp=3, fp=5)
        Counts(tp=3, fp=5, fn=1, tn=367)
        """
        positives = check_count("positives", positives)
        negatives = check_count("negatives", negatives)
        tp = check_count("tp", tp)
        fp = check_count("fp", fp)
        if tp > positives:
            raise ValueError(f"tp={tp} is larger than the number of positives ({positives})")
        if fp > negatives:
            raise ValueError(f"fp={fp} is larger than the number of negatives ({negatives})")
        return cls(tp=tp, fp=fp, fn=positives - tp, tn=negatives - fp)

    @classmethod
    def from_labels(cls, y_true, y_pred, *, pos_label=1) -> Counts:
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
        >>> Counts.from_labels([1, 1, 0, 0, 0], [1, 0, 1, 0, 0])
        Counts(tp=1, fp=1, fn=1, tn=2)
        >>> Counts.from_labels([0, 0], [0, 0])        # a fold without positives
        Counts(tp=0, fp=0, fn=0, tn=2)
        """
        t = check_labels_1d("y_true", y_true)
        p = check_labels_1d("y_pred", y_pred)
        check_same_length(y_true=t, y_pred=p)
        if t.size == 0:
            raise ValueError("y_true is empty: there are no cases to count")
        t, p = _positive_masks(t, p, pos_label)
        return _count(t, p)


def _positive_masks(t: np.ndarray, p: np.ndarray, pos_label) -> tuple[np.ndarray, np.ndarray]:
    """``t == positive`` and ``p == positive`` after checking the label set of checked label arrays.

    The labels of ``y_true`` and ``y_pred`` must be of one kind, at most two
    distinct, and ``pos_label`` of their kind; when there are two, ``pos_label``
    must be one of them (with one label a fold without positives is valid).
    """
    check_same_label_kind(y_true=t, y_pred=p)
    both = unique_labels("y_true and y_pred", np.concatenate([t, p])) if t.size else t
    if both.size > 2:
        raise ValueError(
            f"y_true and y_pred together hold {both.size} distinct labels {both[:5].tolist()}; "
            "binary counts need at most two"
        )
    if both.size == 2:
        check_pos_label(pos_label, both, name="pos_label", where="y_true and y_pred")
    else:
        check_label_kind("pos_label", pos_label, both, where="y_true and y_pred")
    return t == pos_label, p == pos_label


def _count(t: np.ndarray, p: np.ndarray) -> Counts:
    """The Counts of boolean masks: actual positive ``t``, predicted positive ``p``."""
    return Counts(
        tp=int(np.sum(t & p)),
        fp=int(np.sum(~t & p)),
        fn=int(np.sum(t & ~p)),
        tn=int(np.sum(~t & ~p)),
    )


def check_counts(name: str, value: object) -> Counts:
    """``value`` if it is a :class:`Counts`, else a TypeError naming ``name`` (not exported)."""
    if not isinstance(value, Counts):
        raise TypeError(f"{name} must be an apples.Counts, got {type(value).__name__}")
    return value


def fold_counts(y_true, y_pred, folds, *, pos_label=1) -> list[Counts]:
    """One :class:`Counts` per fold, from labels and a fold assignment.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        True and predicted labels of every case (e.g. from
        ``sklearn.model_selection.cross_val_predict``).
    folds : array-like of shape (n,)
        The fold each case was tested in; the result is ordered by sorted fold id.
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
    >>> fold_counts([1, 0, 1, 0], [1, 0, 0, 1], [0, 0, 1, 1])
    [Counts(tp=1, fp=0, fn=0, tn=1), Counts(tp=0, fp=1, fn=1, tn=0)]
    """
    t = check_labels_1d("y_true", y_true)
    p = check_labels_1d("y_pred", y_pred)
    f = check_labels_1d("folds", folds)
    check_same_length(y_true=t, y_pred=p, folds=f)
    if t.size == 0:
        raise ValueError("y_true is empty: there are no cases, hence no folds to count")
    t, p = _positive_masks(t, p, pos_label)
    return [_count(t[f == k], p[f == k]) for k in unique_labels("folds", f)]
