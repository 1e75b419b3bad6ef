"""One data model for a cross-validated result: :class:`CVPredictions`.

Introduced in notebook 10. A cross-validated result is a table with one row per prediction: the
true label, the predicted label and/or the score, the fold the case was tested in and, for
repeated cross-validation, the repeat. :class:`CVPredictions` holds that table, checked once when
it is built, with the task it implies (binary with a positive label, multi-class over a label
set, or multi-label: a label set per case, Van Asch §5). Everything that aggregates over folds
reads it: :func:`apples.report`, the command line, and the counts of each fold (:meth:`CVPredictions.fold_counts`).
:func:`apples.cross_val_predictions` returns one, from any scikit-learn splitter: a repeat is one
partition into folds (k-fold, leave-one-out, each repeat of repeated k-fold) or one hold-out test
set (``ShuffleSplit``; test sets that overlap), and :attr:`CVPredictions.design` says which.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from apples._kernels.counting import codes_of, confusion_by_fold
from apples._kernels.labels import fold_label_confusion, fold_label_counts
from apples._params import (
    FOLD_IDS,
    LABEL,
    LABEL_SET,
    LABELS,
    REPEAT_IDS,
    Frame,
    Instance,
    Integer,
    Kind,
    Labels,
    Nullable,
    OneLabelKind,
    ParameterTypeError,
    ParameterValueError,
    Relation,
    SameLength,
    check_scores,
    declare,
    default_pos_label,
    is_missing,
    label_kind,
    unique_labels,
)
from apples.metrics.counts import Counts
from apples.metrics.scoring_rules import SAMPLE_WEIGHT

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "CVPredictions",
]


class _ScoreArray(Kind):
    what = "scores: a one-dimensional array, or one column per label (shape (n, n_labels))"

    def check(self, name: str, value: object) -> np.ndarray:
        if hasattr(value, "to_numpy") and not isinstance(value, np.ndarray):
            value = value.to_numpy()
        if np.ndim(value) == 2:  # type: ignore[arg-type]
            arr = np.asarray(value)
            if arr.dtype == object:
                arr = np.asarray(value, dtype=float)
            return np.column_stack([check_scores(f"{name}[:, {j}]", arr[:, j]) for j in range(arr.shape[1])])
        return check_scores(name, value)


SCORE_ARRAY = _ScoreArray()

_SET_TYPES = (list, tuple, set, frozenset)


class _LabelData(Kind):
    """Labels: one per case (1-D), or multi-label: a 0/1 indicator array ``(n, n_labels)`` or a label set per case."""

    what = (
        "labels: a one-dimensional array (one label per case), or multi-label data: a 0/1 indicator array of shape "
        "(n, n_labels) or a sequence of label sets (one list, tuple or set of labels per case)"
    )

    def check(self, name: str, value: object) -> Any:
        if hasattr(value, "to_numpy") and not isinstance(value, np.ndarray) and np.ndim(value) == 2:  # type: ignore[arg-type]
            value = value.to_numpy()
        if isinstance(value, np.ndarray) and value.ndim == 2:
            return _indicator(name, value)
        dtype = getattr(value, "dtype", None)
        plain = dtype is not None and (getattr(dtype, "kind", "O") != "O" or str(dtype) in ("str", "string"))
        if plain and np.ndim(value) == 1:  # type: ignore[arg-type]
            return LABELS.check(name, value)  # an array of labels or strings holds no label sets: no scan per case
        items = value.tolist() if hasattr(value, "tolist") and np.ndim(value) == 1 else value  # type: ignore[arg-type]
        if isinstance(items, (list, tuple)) and items and all(isinstance(x, _SET_TYPES) for x in items):
            kinds = {type(lab) for x in items for lab in x}
            if kinds <= {str} or kinds <= {int}:  # plain str or int labels: valid as they are, no check per case
                return [tuple(dict.fromkeys(x)) for x in items]
            return [_label_set(name, i, x) for i, x in enumerate(items)]
        if isinstance(items, (list, tuple)) and any(isinstance(x, _SET_TYPES) for x in items):
            i = next(i for i, x in enumerate(items) if not isinstance(x, _SET_TYPES))
            raise ParameterTypeError(
                f"{name} mixes label sets and single labels: {name}[{i}] is {items[i]!r:.60}; multi-label data give "
                "one list, tuple or set of labels per case (an empty one for no label)",
                param=name,
            )
        return LABELS.check(name, value)


#: The kind of ``y_true`` and ``y_pred``: one label per case, or multi-label data.
Y_LABELS = _LabelData()


def _indicator(name: str, value: np.ndarray) -> np.ndarray:
    """A checked 0/1 indicator table (bool), one row per case and one column per label."""
    if value.dtype.kind not in "biuf":
        raise ParameterTypeError(
            f"{name} is two-dimensional {value.shape}, so a multi-label indicator array: it must hold 0/1 "
            f"(or bools), got dtype {value.dtype}",
            param=name,
        )
    bad = ~((value == 0) | (value == 1))
    if bad.any():
        i, j = (int(x) for x in np.argwhere(bad)[0])
        raise ParameterValueError(
            f"{name} is two-dimensional {value.shape}, so a multi-label indicator array of 0/1; {name}[{i}, {j}] is "
            f"{value[i, j].item()!r}",
            param=name,
        )
    if value.shape[1] == 0:
        raise ParameterValueError(
            f"{name} has shape {value.shape}: an indicator array needs a column per label", param=name
        )
    return value.astype(bool)


def _label_set(name: str, i: int, value: Any) -> tuple:
    """Case ``i``'s labels, checked (no missing or continuous label), duplicates removed, in a stable order."""
    labs = list(value)
    if not labs:
        return ()
    try:
        arr = LABELS.check(f"{name}[{i}]", labs)
    except TypeError as err:
        raise ParameterTypeError(str(err), param=name) from None
    except ValueError as err:
        raise ParameterValueError(str(err), param=name) from None
    seen: dict = {}
    for v in arr.tolist():
        seen.setdefault(v, None)
    return tuple(seen)


def _is_multilabel(value: Any) -> bool:
    return isinstance(value, list) or (isinstance(value, np.ndarray) and value.ndim == 2)


class OneLabelKindSingle(Relation):
    """OneLabelKind for single-label data; multi-label data are checked in the body (one form, one label set)."""

    def __init__(self, *names: str) -> None:
        self.names = names
        self._inner = OneLabelKind(*names)

    def check(self, values: Any) -> None:
        if not any(_is_multilabel(v) for v in values.values()):
            self._inner.check(values)


def as_python(x: object) -> Any:
    return x.item() if isinstance(x, np.generic) else x


class CVPredictions:
    """Cross-validated predictions with the fold (and repeat) of each, checked once.

    Parameters
    ----------
    y_true : array-like of shape (n,), or multi-label data
        True label of each row (a case, once per repeat). Multi-label (Van Asch §5): a 0/1 indicator
        array of shape (n, n_labels) (``labels=`` names its columns, default 0, 1, ...), or a sequence
        of label sets, one list, tuple or set of labels per row (a label twice in one set counts once).
    folds : array-like of shape (n,)
        The test fold of each row, within its repeat. Fold ids are labels: numbers or strings.
    y_pred : array-like of shape (n,), or multi-label data, optional
        Predicted labels (the F-measures, precision, recall, accuracy); for multi-label data, required,
        in either form of ``y_true``.
    y_score : array-like of shape (n,) or (n, n_labels), optional
        Binary: the score of the positive label (higher = more positive). Multi-class and multi-label:
        one column per label, in the order of ``labels``. At least one of ``y_pred`` and ``y_score`` is needed.
    repeats : array-like of shape (n,), optional
        The repeat of each row in repeated cross-validation (each case once per repeat).
    cases : array-like of shape (n,), optional
        The case each row is a prediction of (a row of ``X``, a record id): with repeats, or with
        test sets that overlap, one case has several rows.
    labels : sequence, optional
        The label set. Given, or more than two labels in the data, the task is multi-class (Van Asch
        §3) over exactly these labels, in every fold.
    pos_label : label, optional
        Binary only: the positive class. Default 1 for 0/1 (or -1/1) labels, True for bools; required
        for other labels (``"spam"``/``"ham"``: which one is positive is a choice).
    n_cases : int, optional
        The number of cases that were split (the rows of ``X``). With ``cases``, the cases never
        tested (``TimeSeriesSplit``, hold-out splits) are then known: see :meth:`design_info`.
    sample_weight : array-like of shape (n,), optional
        A finite non-negative weight per row (survey weights, re-weighting; scikit-learn's
        ``sample_weight``). :func:`apples.report` then computes every value with the weights: each row
        counts its weight in every count, as ``sklearn.metrics`` does with ``sample_weight=``.

    Attributes
    ----------
    task : {"binary", "multiclass", "multilabel"}
        Multi-label when ``y_true`` and ``y_pred`` are indicator arrays or label sets; then ``y_true``
        and ``y_pred`` (and ``truth_codes``, ``pred_codes``) are bool indicator arrays ``(n, n_labels)``.
    labels : list
        The label set, sorted unless given; for a binary task, the one or two labels found; for a
        multi-label indicator array without ``labels=``, the column numbers.
    pos_label : label or None
        The positive label of a binary task.
    y_true, y_pred, y_score, folds, repeats, cases : numpy arrays (None where not given)
    sample_weight : float64 array or None
        The weight of each row (None: every row counts 1).
    design : {"k-fold", "leave-one-out", "repeated k-fold", "hold-out", "repeated hold-out"}
        What the folds and repeats are. A repeat is either one partition of the tested cases into
        two or more folds (k-fold; leave-one-out when every fold holds one row) or one hold-out test
        set (every repeat a single fold, as ``ShuffleSplit`` makes them: give ``repeats`` with the
        split of each row). Pooled counts and merged scores are taken within a repeat, so a case is
        never counted twice in one value; a report averages the repeats' values.

    Raises
    ------
    ValueError, TypeError
        Naming the argument: bad labels, fold ids, scores or repeats; unequal lengths; no rows;
        neither ``y_pred`` nor ``y_score``; labels of two kinds; ``pos_label`` not among two labels,
        missing for labels other than 0/1, or given for a multi-class task; a label outside
        ``labels=``; multi-class scores without one column per label, or binary scores with more
        than one column; a single fold without ``repeats``; some repeats with a single fold and
        others with several; a case (``cases``) twice in one repeat; ``n_cases`` below the number
        of distinct cases. Multi-label: ``y_true`` and ``y_pred`` not both multi-label, or of two
        forms without ``labels=``; an indicator array not 0/1, or whose width differs from the other's
        or from ``labels``; a label set holding a label outside ``labels=``; no ``y_pred``;
        ``pos_label`` given.

    Examples
    --------
    >>> from apples import CVPredictions
    >>> p = CVPredictions(["spam", "ham", "spam", "ham"], folds=[0, 0, 1, 1], y_pred=["spam", "spam", "ham", "ham"],
    ...                   pos_label="spam")
    >>> p.task, p.labels, p.fold_counts()
    ('binary', ['ham', 'spam'], [Counts(tp=1, fp=1, fn=0, tn=0), Counts(tp=0, fp=0, fn=1, tn=1)])

    Multi-label, one label set per case:

    >>> m = CVPredictions([["a"], ["a", "b"], [], ["b"]], folds=[0, 0, 1, 1], y_pred=[["a"], ["b"], ["b"], ["b"]])
    >>> m.task, m.labels, m.y_pred.astype(int).tolist()
    ('multilabel', ['a', 'b'], [[1, 0], [0, 1], [0, 1], [0, 1]])
    """

    @declare(
        y_true=Y_LABELS,
        folds=FOLD_IDS,
        y_pred=Nullable(Y_LABELS),
        y_score=Nullable(SCORE_ARRAY),
        repeats=Nullable(REPEAT_IDS),
        cases=Nullable(Labels("a one-dimensional array of case ids, one per row")),
        labels=Nullable(LABEL_SET),
        pos_label=Nullable(LABEL),
        n_cases=Nullable(Integer(1, 2**53)),  # a count of cases, exact as a float
        sample_weight=Nullable(SAMPLE_WEIGHT),
        relations=[
            SameLength("y_true", "folds", "y_pred", "y_score", "repeats", "cases", "sample_weight"),
            OneLabelKindSingle("y_true", "y_pred"),
        ],
    )
    def __init__(
        self,
        y_true: Any,
        *,
        folds: Any,
        y_pred: Any = None,
        y_score: Any = None,
        repeats: Any = None,
        cases: Any = None,
        labels: Sequence[Hashable] | None = None,
        pos_label: Hashable | None = None,
        n_cases: int | None = None,
        sample_weight: Any = None,
    ) -> None:
        if _is_multilabel(y_true) or _is_multilabel(y_pred):
            self.sample_weight: np.ndarray | None = None
            self._init_multilabel(y_true, y_pred, y_score, labels, pos_label)  # names y_true, y_pred first
            if sample_weight is not None:
                raise ParameterValueError(
                    "sample_weight is not supported for multi-label predictions yet: the per-label counts of "
                    "Van Asch §5 are counts of rows; weight the rows of a single-label task instead",
                    param="sample_weight",
                )
            self.folds = np.asarray(folds)
            self.repeats = None if repeats is None else np.asarray(repeats)
            self.cases = None if cases is None else np.asarray(cases)
            self._split_repeats()
            self.n_cases = n_cases
            self._check_cases()
            return
        t = np.asarray(y_true)
        if t.size == 0:
            raise ParameterValueError(
                "y_true is empty: cross-validated predictions need at least one case in each of two folds",
                param="y_true",
            )
        if y_pred is None and y_score is None:
            raise ParameterValueError("give y_pred (predicted labels), y_score (scores) or both", param="y_pred")
        found = codes_of_named("y_true", t)[0]
        if y_pred is not None:
            found = unique_labels("y_true and y_pred", np.concatenate([found, codes_of_named("y_pred", y_pred)[0]]))
        self.y_true = t
        self.y_pred = None if y_pred is None else np.asarray(y_pred)
        self.folds = np.asarray(folds)
        self.repeats = None if repeats is None else np.asarray(repeats)
        self.cases = None if cases is None else np.asarray(cases)
        self.sample_weight = None if sample_weight is None else np.asarray(sample_weight)
        if self.sample_weight is not None and not self.sample_weight.any():
            raise ParameterValueError(
                "sample_weight is 0 for every row: no row counts, so every value would be 0/0", param="sample_weight"
            )
        task, self.labels, self.pos_label = single_label_task(found, labels, pos_label)
        self.task: Literal["binary", "multiclass", "multilabel"] = task
        if self.task == "multiclass":
            index = {lab: i for i, lab in enumerate(self.labels)}
            self.truth_codes = label_codes(t, index)
            self.pred_codes = None if y_pred is None else label_codes(np.asarray(y_pred), index)
        else:
            pos_label = self.pos_label
            self.truth_codes = np.asarray(t == pos_label).view(np.int8)  # 0/1, a byte a row
            self.pred_codes = None if y_pred is None else np.asarray(np.asarray(y_pred) == pos_label).view(np.int8)
        if y_score is not None:
            check_score_shape(self.task, self.labels, np.shape(y_score))
        self.y_score = None if y_score is None else np.asarray(y_score)
        self._split_repeats()
        self.n_cases = n_cases
        self._check_cases()

    def _init_multilabel(
        self, y_true: Any, y_pred: Any, y_score: Any, labels: Sequence[Hashable] | None, pos_label: Hashable | None
    ) -> None:
        """The multi-label task: both label arguments as indicator tables over one label set (Van Asch §5)."""
        if len(y_true) == 0:
            raise ParameterValueError(
                "y_true is empty: cross-validated predictions need at least one case in each of two folds",
                param="y_true",
            )
        if y_pred is None:
            raise ParameterValueError(
                "y_true is multi-label (a two-dimensional indicator array or label sets), and multi-label "
                "predictions need y_pred (the predicted label sets or indicator array): scores alone name no "
                "prediction to count",
                param="y_pred",
            )
        for name, v in (("y_true", y_true), ("y_pred", y_pred)):
            if not _is_multilabel(v):
                other = "y_pred" if name == "y_true" else "y_true"
                raise ParameterValueError(
                    f"{other} is multi-label but {name} holds one label per case: give both as label sets or both "
                    "as indicator arrays",
                    param=name,
                )
        if pos_label is not None:
            raise ParameterValueError(
                "pos_label is for binary tasks; multi-label data have one binary decision per label", param="pos_label"
            )
        sets = [v for v in (y_true, y_pred) if isinstance(v, list)]
        arrays = [v for v in (y_true, y_pred) if isinstance(v, np.ndarray)]
        widths = {a.shape[1] for a in arrays}
        if len(widths) > 1:
            raise ParameterValueError(
                f"y_true has {y_true.shape[1]} label columns and y_pred {y_pred.shape[1]}: one column per label "
                "in both",
                param="y_pred",
            )
        found: list = []
        if sets:
            every = [lab for v in sets for row in v for lab in row]
            if every:
                try:
                    found = codes_of_named("y_true and y_pred", np.asarray(every, dtype=object))[0].tolist()
                except TypeError as err:
                    raise ParameterTypeError(
                        f"{err}: the label sets of y_true and y_pred hold labels of one kind (strings, or numbers)",
                        param="y_pred",
                    ) from None
        if labels is not None:
            self.labels = [as_python(v) for v in labels]
            outside = [v for v in found if v not in set(self.labels)]
            if outside:
                raise ParameterValueError(
                    f"y_true or y_pred holds label(s) {outside[:5]} that are not in labels={self.labels[:10]}",
                    param="labels",
                )
            if widths and widths != {len(self.labels)}:
                raise ParameterValueError(
                    f"labels names {len(self.labels)} labels, but the indicator array has {widths.pop()} columns: "
                    "labels= names the columns, in order",
                    param="labels",
                )
        elif arrays:
            if sets:
                raise ParameterValueError(
                    "y_true and y_pred mix an indicator array and label sets: give labels= (the columns' labels) "
                    "or both in one form",
                    param="labels",
                )
            self.labels = list(range(widths.pop()))
        else:
            if not found:
                raise ParameterValueError(
                    "y_true and y_pred hold no label at all: give labels= (the label set)", param="labels"
                )
            self.labels = found
        self.task = "multilabel"
        self.pos_label = None
        index = {lab: j for j, lab in enumerate(self.labels)}
        self.y_true = self.truth_codes = as_indicator(y_true, index)
        self.y_pred = self.pred_codes = as_indicator(y_pred, index)
        if y_score is not None and (np.ndim(y_score) != 2 or np.shape(y_score)[1] != len(self.labels)):
            raise ParameterValueError(
                f"y_score has shape {np.shape(y_score)}, but the task is multi-label: its scores need one column "
                f"per label ({len(self.labels)} columns, in the order of labels {self.labels[:10]})",
                param="y_score",
            )
        self.y_score = None if y_score is None else np.asarray(y_score)

    # -- folds and repeats -------------------------------------------------------------------------------
    def _split_repeats(self) -> None:
        if self.repeats is None:
            self.repeat_ids = np.zeros(1, dtype=np.int64)
            self._repeat_rows: list[np.ndarray | slice] = [slice(None)]
        else:
            ids, codes = codes_of_named("repeats", self.repeats)
            self.repeat_ids = ids
            order = np.argsort(codes, kind="stable")
            bounds = np.searchsorted(codes[order], np.arange(ids.size + 1))
            self._repeat_rows = [order[bounds[r] : bounds[r + 1]] for r in range(ids.size)]
        self.fold_ids: list[np.ndarray] = []
        self.fold_codes: list[np.ndarray] = []
        for rows in self._repeat_rows:
            ids, codes = codes_of_named("folds", self.folds[rows])
            self.fold_ids.append(ids)
            self.fold_codes.append(codes)
        single = [r for r, ids in enumerate(self.fold_ids) if ids.size < 2]
        if single and self.repeats is None:
            raise ParameterValueError(
                f"folds holds a single fold ({as_python(self.fold_ids[0][0])!r}); cross-validation needs at least two "
                "(for hold-out test sets, one per split as ShuffleSplit makes them, give repeats= with each "
                "row's split)",
                param="folds",
            )
        if single and len(single) < self.n_repeats:
            r = single[0]
            raise ParameterValueError(
                f"folds holds a single fold ({as_python(self.fold_ids[r][0])!r}) in repeat "
                f"{as_python(self.repeat_ids[r])!r}, while other repeats hold several: each repeat is either one "
                "partition into two or more folds (k-fold) or, in every repeat, one hold-out test set",
                param="folds",
            )
        if single:
            self.design: str = "hold-out" if self.n_repeats == 1 else "repeated hold-out"
        elif self.n_repeats > 1:
            self.design = "repeated k-fold"
        elif self.fold_ids[0].size == len(self):
            self.design = "leave-one-out"
        else:
            self.design = "k-fold"

    def _check_cases(self) -> None:
        """A case at most once per repeat; ``n_cases`` at least the number of distinct cases."""
        self._case_ids: np.ndarray | None = None
        self._times_tested: np.ndarray | None = None
        if self.cases is None:
            if self.n_cases is not None and self.n_cases < len(self) // self.n_repeats:
                raise ParameterValueError(
                    f"n_cases={self.n_cases} is below the {len(self) // self.n_repeats} rows of a repeat",
                    param="n_cases",
                )
            return
        ids, codes = codes_of_named("cases", self.cases)
        repeat = np.zeros(len(self), dtype=np.intp)
        for r, rows in enumerate(self._repeat_rows):
            repeat[rows] = r
        key = np.sort(repeat.astype(np.int64) * ids.size + codes)  # (repeat, case) pairs, O(rows) memory
        twice = np.flatnonzero(key[1:] == key[:-1])
        if twice.size:
            r, c = divmod(int(key[twice[0]]), ids.size)
            n_twice = int(np.count_nonzero(key == key[twice[0]]))
            where = f" in repeat {as_python(self.repeat_ids[r])!r}" if self.repeats is not None else ""
            raise ParameterValueError(
                f"case {as_python(ids[c])!r} has {n_twice} rows{where}: a case is tested once per repeat (test "
                "sets that overlap, as ShuffleSplit's do, are one repeat each: give repeats= with each row's split)",
                param="cases",
            )
        if self.n_cases is not None and self.n_cases < ids.size:
            raise ParameterValueError(
                f"n_cases={self.n_cases} is below the {ids.size} distinct cases in cases", param="n_cases"
            )
        self._case_ids = ids
        self._times_tested = np.bincount(codes, minlength=ids.size)

    def design_info(self) -> dict[str, Any]:
        """What the splits were, as a JSON-ready dict: the report states it.

        ``design`` (see the class), ``n_repeats``, ``folds_per_repeat`` (an int, or a list when the
        repeats differ), ``n_rows``; with ``cases``: ``n_tested`` (distinct cases tested),
        ``max_times_tested``, ``n_tested_in_several_repeats`` (cases in the test sets of two or more
        repeats; for hold-out designs these are the test sets' overlap), ``overlapping`` (a hold-out
        design whose test sets share a case); with ``cases`` and ``n_cases``: ``n_cases`` and
        ``n_untested`` (cases never tested). Unknown entries are None.

        Examples
        --------
        >>> from apples import CVPredictions
        >>> p = CVPredictions([0, 1, 1, 0, 1, 0], folds=[0, 0, 0, 0, 0, 0], repeats=[0, 0, 0, 1, 1, 1],
        ...                   cases=[0, 1, 2, 2, 3, 4], y_pred=[0, 1, 0, 0, 1, 1], n_cases=6)
        >>> info = p.design_info()
        >>> info["design"], info["n_tested"], info["n_untested"], info["overlapping"]
        ('repeated hold-out', 5, 1, True)
        """
        sizes = [int(ids.size) for ids in self.fold_ids]
        info: dict[str, Any] = {
            "design": self.design,
            "n_repeats": self.n_repeats,
            "folds_per_repeat": sizes[0] if len(set(sizes)) == 1 else sizes,
            "n_rows": len(self),
            "n_cases": self.n_cases,
            "n_tested": None,
            "n_untested": None,
            "max_times_tested": None,
            "n_tested_in_several_repeats": None,
            "overlapping": None,
        }
        if self._times_tested is not None:
            several = int(np.count_nonzero(self._times_tested > 1))
            info["n_tested"] = int(self._times_tested.size)
            info["max_times_tested"] = int(self._times_tested.max())
            info["n_tested_in_several_repeats"] = several
            info["overlapping"] = "hold-out" in self.design and several > 0
            if self.n_cases is not None:
                info["n_untested"] = self.n_cases - int(self._times_tested.size)
        return info

    @property
    def n_repeats(self) -> int:
        """The number of repeats (1 without ``repeats``)."""
        return int(self.repeat_ids.size)

    def rows(self, repeat: int = 0) -> np.ndarray | slice:
        """The rows of repeat number ``repeat`` (0, 1, ... in the sorted order of the repeat ids)."""
        return self._repeat_rows[repeat]

    def confusion(self, repeat: int = 0) -> np.ndarray:
        """The confusion matrix of each fold of a repeat, shape (folds, labels, labels): ``[f, true, predicted]``.

        Binary tasks have two labels here: 0 the negatives, 1 the positives. Multi-label tasks have one 2 x 2
        matrix per label instead, shape (folds, labels, 2, 2): ``[f, label]`` is ``[[tn, fp], [fn, tp]]`` with tn
        counted on cases (scikit-learn's ``multilabel_confusion_matrix`` of each fold).
        """
        if self.pred_codes is None:
            raise ParameterValueError("these predictions have no y_pred, so no confusion counts", param="y_pred")
        rows = self.rows(repeat)
        if self.task == "multilabel":
            k = self.fold_ids[repeat].size
            return fold_label_confusion(
                fold_label_counts(self.fold_codes[repeat], self.truth_codes[rows], self.pred_codes[rows], k)
            )
        q = 2 if self.task == "binary" else len(self.labels)
        return confusion_by_fold(
            self.fold_codes[repeat], self.truth_codes[rows], self.pred_codes[rows], self.fold_ids[repeat].size, q
        )

    def fold_counts(self, repeat: int = 0) -> list[Counts]:
        """One :class:`~apples.Counts` per fold of a binary task, in the sorted order of the fold ids.

        Counts hold integers: they count rows, whatever ``sample_weight`` says (the report's weighted
        values come from the weighted confusion matrices, :func:`apples._kernels.counting.confusion_by_fold`).
        """
        if self.task != "binary":
            raise ParameterValueError(
                "fold_counts is for binary tasks; a multi-class task has one count per label and fold",
                param="predictions",
            )
        return [Counts(int(m[1, 1]), int(m[0, 1]), int(m[1, 0]), int(m[0, 0])) for m in self.confusion(repeat)]

    # -- conversions -------------------------------------------------------------------------------------
    def to_frame(self) -> pd.DataFrame:
        """The predictions as a DataFrame: ``repeat`` (if given), ``fold``, ``y_true``, ``y_pred``, and ``y_score``
        (binary) or ``y_score_<label>`` per label (multi-class), and ``sample_weight`` if given."""
        import pandas as pd

        columns: dict[str, Any] = {}
        if self.repeats is not None:
            columns["repeat"] = self.repeats
        columns["fold"] = self.folds
        if self.cases is not None:
            columns["case"] = self.cases
        if self.task == "multilabel":
            for name in ("y_true", "y_pred"):
                for j, lab in enumerate(self.labels):
                    columns[f"{name}_{lab}"] = getattr(self, name)[:, j].astype(np.int8)
        else:
            columns["y_true"] = self.y_true
        if self.sample_weight is not None:
            columns["sample_weight"] = self.sample_weight
        if self.y_pred is not None and self.task != "multilabel":
            columns["y_pred"] = self.y_pred
        if self.y_score is not None and self.y_score.ndim == 1:
            columns["y_score"] = self.y_score
        elif self.y_score is not None:
            for j, lab in enumerate(self.labels):
                columns[f"y_score_{lab}"] = self.y_score[:, j]
        return pd.DataFrame(columns)

    @classmethod
    @declare(frame=Frame(()))
    def from_frame(
        cls,
        frame: pd.DataFrame,
        *,
        y_true: str = "y_true",
        folds: str = "fold",
        y_pred: str | None = None,
        y_score: str | Sequence[str] | None = None,
        repeats: str | None = None,
        cases: str | None = None,
        labels: Sequence[Hashable] | None = None,
        pos_label: Hashable | None = None,
        n_cases: int | None = None,
        sample_weight: str | None = None,
    ) -> CVPredictions:
        """Predictions from the columns of a DataFrame, named by the arguments (``y_score`` a list for
        multi-class scores, one column per label in label order)."""

        def column(name: str, option: str) -> Any:
            if name not in frame.columns:
                raise ParameterValueError(
                    f"{option}={name!r} is not a column of frame; its columns are {list(frame.columns)[:20]}",
                    param=option,
                )
            return frame[name]

        score: Any = None
        if isinstance(y_score, str):
            score = column(y_score, "y_score")
        elif y_score is not None:
            score = np.column_stack([np.asarray(column(c, "y_score")) for c in y_score])
        return cls(
            column(y_true, "y_true"),
            folds=column(folds, "folds"),
            y_pred=None if y_pred is None else column(y_pred, "y_pred"),
            y_score=score,
            repeats=None if repeats is None else column(repeats, "repeats"),
            cases=None if cases is None else column(cases, "cases"),
            labels=labels,
            pos_label=pos_label,
            n_cases=n_cases,
            sample_weight=None if sample_weight is None else column(sample_weight, "sample_weight"),
        )

    def __len__(self) -> int:
        return int(self.y_true.shape[0])

    def __repr__(self) -> str:
        what = f"positive label {self.pos_label!r}" if self.task == "binary" else f"{len(self.labels)} labels"
        folds = "/".join(str(ids.size) for ids in self.fold_ids[:3]) + ("/..." if self.n_repeats > 3 else "")
        repeats = f", {self.n_repeats} repeats" if self.repeats is not None else ""
        repeats += ", weighted" if self.sample_weight is not None else ""
        return f"<CVPredictions {self.task}, {what}: {len(self)} rows, {folds} folds{repeats} ({self.design})>"


def single_label_task(
    found: np.ndarray, labels: Sequence[Hashable] | None, pos_label: Hashable | None
) -> tuple[Literal["binary", "multiclass"], list, Hashable | None]:
    """The task, the label set and the positive label of single-label predictions whose labels are ``found``
    (sorted, distinct), with ``labels=`` and ``pos_label=`` as given: multi-class with ``labels=`` or more than
    two labels, else binary with the positive label given or its default (1 for 0/1, True for bools)."""
    if labels is not None or found.size > 2:
        if pos_label is not None:
            raise ParameterValueError(
                "pos_label is for binary tasks; these labels are multi-class (labels= or > 2 labels)",
                param="pos_label",
            )
        if labels is not None:
            if label_kind(np.asarray(labels, dtype=object)) != label_kind(found):
                raise ParameterTypeError(
                    f"labels holds {label_kind(np.asarray(labels))} labels, y_true {label_kind(found)}s",
                    param="labels",
                )
            outside = [v for v in found.tolist() if v not in set(labels)]
            if outside:
                raise ParameterValueError(
                    f"y_true or y_pred holds label(s) {outside[:5]} that are not in labels={list(labels)[:10]}",
                    param="labels",
                )
        return "multiclass", list(labels) if labels is not None else found.tolist(), None
    if pos_label is None:
        try:
            pos_label = default_pos_label(found)
        except ValueError as err:
            raise ParameterValueError(str(err), param="pos_label") from None
    elif is_missing(pos_label) or (found.size and label_kind(np.asarray([pos_label])) != label_kind(found)):
        raise ParameterTypeError(
            f"pos_label={pos_label!r} is not a label of the kind in y_true ({found.tolist()})",
            param="pos_label",
        )
    elif found.size == 2 and pos_label not in found.tolist():
        raise ParameterValueError(
            f"pos_label={pos_label!r} is not one of the labels in y_true and y_pred {found.tolist()}",
            param="pos_label",
        )
    return "binary", found.tolist(), as_python(pos_label)


def check_score_shape(task: str, labels: list, shape: tuple[int, ...]) -> None:
    """Scores of the shape the task needs: one value per case (binary), one column per label (multi-class)."""
    if task == "multiclass" and (len(shape) != 2 or shape[1] != len(labels)):
        raise ParameterValueError(
            f"y_score has shape {shape}, but the task is multi-class: its scores need one column "
            f"per label ({len(labels)} columns, in the order of labels {labels[:10]})",
            param="y_score",
        )
    if task == "binary" and len(shape) != 1:
        raise ParameterValueError(
            f"y_score has shape {shape}, but the task is binary: give the positive label's score, one value per case",
            param="y_score",
        )


def codes_of_named(name: str, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`~apples._kernels.counting.codes_of` with a TypeError naming ``name`` for unorderable labels, the codes
    in the narrowest signed integer dtype that holds them (:func:`code_dtype`).

    Integers of a small range (labels, fold ids) are coded block by block, so the working memory is that of a
    block, not 8 bytes a row: 10^7 int8 labels take 10 MB of codes.

    >>> uniq, codes = codes_of_named("folds", np.array([7, 3, 7, 5], dtype=np.int8))
    >>> uniq.tolist(), codes.tolist(), codes.dtype.name
    ([3, 5, 7], [2, 0, 2, 1], 'int8')
    """
    lean = _small_range_codes(values)
    if lean is not None:
        return lean
    try:
        uniq, codes = codes_of(values)
    except TypeError as exc:
        raise TypeError(f"{name} holds labels that cannot be compared with each other ({exc})") from None
    return uniq, codes.astype(code_dtype(uniq.size), copy=False)


#: Rows coded at a time: the working memory of coding a column.
_BLOCK = 1 << 20


def code_dtype(n_codes: int) -> np.dtype:
    """The narrowest signed integer dtype holding the codes ``0 .. n_codes - 1`` (signed: ``1 - code`` stays right)."""
    for dtype in (np.int8, np.int16, np.int32):
        if n_codes <= np.iinfo(dtype).max + 1:
            return np.dtype(dtype)
    return np.dtype(np.intp)


def _small_range_codes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """:func:`~apples._kernels.counting.codes_of` of integers spanning fewer than 2**16 values, block by block
    (None for other values)."""
    if values.dtype.kind not in "iu" or not values.size:
        return None
    lo, hi = int(values.min()), int(values.max())
    if hi - lo >= 1 << 16:
        return None

    def shifted(block: np.ndarray) -> np.ndarray:
        if values.dtype.itemsize < 8:  # subtract in intp: int8 labels -100 and 100 are 200 apart
            return np.subtract(block, lo, dtype=np.intp)
        return (block - values.dtype.type(lo)).astype(np.intp)  # uint64 beyond int64: hi - lo < 2**16 cannot wrap

    seen = np.zeros(hi - lo + 1, dtype=bool)
    for i in range(0, values.size, _BLOCK):
        seen |= np.bincount(shifted(values[i : i + _BLOCK]), minlength=hi - lo + 1) > 0
    present = np.flatnonzero(seen)
    dtype = code_dtype(present.size)
    lut = np.full(hi - lo + 1, -1, dtype=dtype)
    lut[present] = np.arange(present.size)
    codes = np.empty(values.size, dtype=dtype)
    for i in range(0, values.size, _BLOCK):
        codes[i : i + _BLOCK] = lut[shifted(values[i : i + _BLOCK])]
    # in the values' dtype, modulo its width: the sum fits it, any wrap of present alone is undone
    return present.astype(values.dtype) + values.dtype.type(lo), codes


def as_indicator(value: Any, index: dict) -> np.ndarray:
    """A checked multi-label argument as a bool indicator table over the label set ``index`` (label -> column)."""
    if isinstance(value, np.ndarray):
        return value
    table = np.zeros((len(value), len(index)), dtype=bool)
    rows = [i for i, row in enumerate(value) for _ in row]
    cols = [index[lab] for row in value for lab in row]
    table[rows, cols] = True
    return table


def label_codes(values: np.ndarray, index: dict) -> np.ndarray:
    """Each value's position in the label set ``index``, in the narrowest dtype (:func:`code_dtype`)."""
    uniq, codes = codes_of_named("labels", values)
    dtype = code_dtype(len(index))
    lut = np.array([index[key] for key in uniq.tolist()], dtype=dtype)
    return lut[codes] if uniq.size else codes.astype(dtype)


#: The kind of a parameter that takes cross-validated predictions.
CV_PREDICTIONS = Instance(
    CVPredictions,
    hint="apples.CVPredictions(y_true, folds=..., y_pred=..., y_score=...)",
    what="an apples.CVPredictions",
)
