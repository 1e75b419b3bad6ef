"""One block of cross-validated predictions among many: checked as :class:`~apples.CVPredictions` checks its
arrays, the facts the whole result is decided from (labels, repeats, folds, scores, weights), and its rows coded
once those are known.

A block is checked alone, with the kinds :class:`~apples.CVPredictions` declares, its positions told as rows of the
whole result; what needs every block (the label set and the task, the positive label, a repeat with a single fold,
the scores' dtype, whether they are probabilities) is decided from the merged :class:`Facts` of every block
(:func:`plan_of`), with :class:`~apples.CVPredictions`' own rules and messages.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

import numpy as np

from apples._kernels.counting import codes_of
from apples._params import (
    FOLD_IDS,
    REPEAT_IDS,
    Labels,
    Nullable,
    ParameterError,
    ParameterTypeError,
    ParameterValueError,
    SameLength,
    label_kind,
    unique_labels,
)
from apples.cv.predictions import (
    SCORE_ARRAY,
    Y_LABELS,
    OneLabelKindSingle,
    as_indicator,
    as_python,
    check_score_shape,
    code_dtype,
    codes_of_named,
    label_codes,
    single_label_task,
)
from apples.metrics.scoring_rules import SAMPLE_WEIGHT

__all__: list[str] = []  # private: the summary of a result too large for memory (apples.cv.summary)

_KINDS = {
    "y_true": Y_LABELS,
    "folds": FOLD_IDS,
    "y_pred": Nullable(Y_LABELS),
    "y_score": Nullable(SCORE_ARRAY),
    "repeats": Nullable(REPEAT_IDS),
    "cases": Nullable(Labels("a one-dimensional array of case ids, one per row")),
    "sample_weight": Nullable(SAMPLE_WEIGHT),
}
_RELATIONS = (
    SameLength("y_true", "folds", "y_pred", "y_score", "repeats", "cases", "sample_weight"),
    OneLabelKindSingle("y_true", "y_pred"),
)
#: Scores kept per score column to place the buckets' boundaries (a systematic sample, its step doubling).
SAMPLE = 1 << 16


def at_offset(err: ParameterError, offset: int) -> ParameterError:
    """``err`` with its position (and the position its message names) moved by ``offset`` rows."""
    if err.position is None or not offset:
        return err
    where = err.position + offset
    text = str(err).replace(f"position {err.position}", f"position {where}")
    text = text.replace(f"[{err.position}]", f"[{where}]")
    return type(err)(text, param=err.param, position=where)


def check_block(arrays: dict[str, Any], offset: int) -> dict[str, Any]:
    """The block's arrays checked and converted by the kinds of :class:`~apples.CVPredictions`; an error names the
    argument, and a position in it counts the rows of the blocks before (``offset``)."""
    out: dict[str, Any] = {}
    try:
        for name, kind in _KINDS.items():
            out[name] = kind(name, arrays.get(name))
        for rule in _RELATIONS:
            rule(out)
    except ParameterError as err:
        raise at_offset(err, offset) from None
    return out


def _multilabel(value: Any) -> bool:
    return isinstance(value, list) or (isinstance(value, np.ndarray) and value.ndim == 2)


@dataclass
class Facts:
    """What blocks tell of the whole result, merged block by block (:meth:`merge`): enough to decide the task, the
    labels, the repeats and folds, the scores' dtype and whether they are probabilities."""

    n_rows: int = 0
    multilabel: bool | None = None
    width: int | None = None  #: multi-label indicator arrays: their columns
    found: list = field(default_factory=list)  #: arrays of the distinct labels of each block
    repeats: list = field(default_factory=list)  #: arrays of the distinct repeat ids of each block
    folds: dict = field(default_factory=dict)  #: repeat id -> arrays of the distinct fold ids of each block
    has_pred: bool = False
    has_score: bool = False
    score_kind: str = ""  #: "" (none yet), "i" (int64), "u" (uint64), "f" (float64): the widest so far
    score_shape: tuple[int, ...] = ()  #: the shape of a block's scores past the rows
    probabilities: bool = True  #: every block's scores in [0, 1] (rows summing to 1 with columns)
    weighted: bool = False
    weight_max: float = 0.0
    weight_sum: float = 0.0
    weight_zero: int = 0
    sample: list = field(default_factory=list)  #: per score column, the sampled scores
    step: int = 1  #: the sample takes every step-th row
    cases: bool = False

    def merge(self, other: Facts) -> None:
        """Add the facts of the next block(s)."""
        if other.n_rows == 0:
            return
        first = self.n_rows == 0
        if not first and self.multilabel != other.multilabel:
            raise ParameterValueError(
                "y_true is multi-label in some blocks and holds one label per row in others: one form in every block",
                param="y_true",
            )
        if not first and self.width is not None and other.width is not None and self.width != other.width:
            raise ParameterValueError(
                f"y_true has {self.width} label columns in one block and {other.width} in another", param="y_true"
            )
        if not first and (self.has_pred, self.has_score, self.weighted, self.cases) != (
            other.has_pred,
            other.has_score,
            other.weighted,
            other.cases,
        ):
            raise ParameterValueError("every block must give the same arguments (y_pred, y_score, ...)", param="y_pred")
        if not first and self.score_shape != other.score_shape:
            raise ParameterValueError(
                f"y_score has {self.score_shape or 'one'} column(s) in one block and {other.score_shape or 'one'} in "
                "another",
                param="y_score",
            )
        self.multilabel, self.width = other.multilabel, other.width if other.width is not None else self.width
        self.has_pred, self.has_score, self.weighted, self.cases = (
            other.has_pred,
            other.has_score,
            other.weighted,
            other.cases,
        )
        self.score_shape = other.score_shape
        for name, mine, theirs in (
            ("y_true", self.found, other.found),
            ("repeats", self.repeats, other.repeats),
            ("folds", [p for v in self.folds.values() for p in v], [p for v in other.folds.values() for p in v]),
        ):
            kinds = {label_kind(a) for a in mine + theirs if a.size}
            if len(kinds) > 1:
                raise ParameterTypeError(
                    f"{name} holds {' and '.join(sorted(kinds))} labels in different blocks: labels of one kind in "
                    "every block (a column read as numbers in one block and as text in another?)",
                    param=name,
                )
        self.found += other.found
        self.repeats += other.repeats
        for r, parts in other.folds.items():
            self.folds.setdefault(r, []).extend(parts)
        if other.score_kind:
            kinds = {self.score_kind, other.score_kind} - {""}
            self.score_kind = "f" if "f" in kinds or kinds == {"i", "u"} else kinds.pop()
        self.probabilities &= other.probabilities
        self.weight_max = max(self.weight_max, other.weight_max)
        self.weight_sum += other.weight_sum
        self.weight_zero += other.weight_zero
        self._sample(other)
        self.n_rows += other.n_rows
        if len(self.found) > 64:  # keep the lists of distinct values short
            self.found = [_distinct("y_true", self.found)]
            self.repeats = [_distinct("repeats", self.repeats)] if self.repeats else []
            self.folds = {r: [_distinct("folds", parts)] for r, parts in self.folds.items()}

    def _sample(self, other: Facts) -> None:
        """About every step-th row of every block, the step (a power of two) doubled past SAMPLE: a sample of the
        scores spread over the blocks, for the buckets' boundaries (any sample gives exact values; a poor one only
        buckets of uneven sizes, cut again when too large)."""
        if not other.sample:
            return
        if not self.sample:
            self.sample, self.step = [np.zeros(0, dtype=s.dtype) for s in other.sample], other.step
        if other.step > self.step:  # thin what is kept to the coarser step
            self.sample = [s[:: other.step // self.step] for s in self.sample]
            self.step = other.step
        thin = self.step // other.step
        for j, s in enumerate(other.sample):
            self.sample[j] = np.concatenate([self.sample[j], s[::thin]])
        while self.sample[0].size > SAMPLE:
            self.step *= 2
            self.sample = [s[::2] for s in self.sample]


def _distinct(name: str, parts: list) -> np.ndarray:
    """The sorted distinct values of arrays of distinct values."""
    if not parts:
        return np.zeros(0)
    return unique_labels(name, np.concatenate(parts)) if len(parts) > 1 else parts[0]


def facts_of(block: dict[str, Any]) -> Facts:
    """The facts of one checked block (:func:`check_block`)."""
    t, pred, score, w = block["y_true"], block["y_pred"], block["y_score"], block["sample_weight"]
    n = len(t)
    f = Facts(n_rows=n, has_pred=pred is not None, has_score=score is not None, cases=block["cases"] is not None)
    f.multilabel = _multilabel(t) or _multilabel(pred)
    if f.multilabel:
        if isinstance(t, np.ndarray):
            f.width = int(t.shape[1])
        for v in (t, pred):
            if isinstance(v, list):
                every = [lab for row in v for lab in row]
                if every:
                    f.found.append(codes_of_named("y_true and y_pred", np.asarray(every, dtype=object))[0])
    else:
        f.found.append(codes_of_named("y_true", t)[0])
        if pred is not None:
            f.found.append(codes_of_named("y_pred", pred)[0])
    folds = block["folds"]
    if block["repeats"] is None:
        f.folds[None] = [codes_of_named("folds", folds)[0]]
    else:
        ids, codes = codes_of_named("repeats", block["repeats"])
        f.repeats.append(ids)
        for r in range(ids.size):
            f.folds[as_python(ids[r])] = [codes_of_named("folds", folds[codes == r])[0]]
    if score is not None:
        f.score_kind = score.dtype.kind if score.dtype.kind in "iu" else "f"
        f.score_shape = score.shape[1:]
        f.probabilities = bool(score.dtype.kind in "biuf" and score.min() >= 0 and score.max() <= 1)
        if score.ndim == 2:
            f.probabilities &= bool(np.all(np.abs(score.sum(axis=1) - 1.0) <= 1e-6))
        cols = [score] if score.ndim == 1 else [score[:, j] for j in range(score.shape[1])]
        f.sample = [np.asarray(c) for c in cols]
        f.step = 1
        while f.sample[0].size > SAMPLE:
            f.step *= 2
            f.sample = [s[::2] for s in f.sample]
    if w is not None:
        f.weighted = True
        f.weight_max = float(w.max()) if w.size else 0.0
        f.weight_sum = math.fsum(w.tolist()) if w.size < 4096 else float(np.sum(w))
        f.weight_zero = int(np.count_nonzero(w == 0))
    return f


class Plan(NamedTuple):
    """The whole result decided from its facts: how every block's rows are coded and summed."""

    task: Literal["binary", "multiclass", "multilabel"]
    labels: list
    pos_label: Hashable | None
    repeat_ids: np.ndarray | None  #: sorted (None: no repeats given)
    fold_ids: list[np.ndarray]  #: per repeat, sorted
    design: str
    score_dtype: np.dtype | None
    probabilities: bool
    weight_exponent: int  #: weights are scaled by 2**-weight_exponent (exact), as the report scales them
    n_rows: int


def plan_of(facts: Facts, labels: Sequence[Hashable] | None, pos_label: Hashable | None, has_repeats: bool) -> Plan:
    """The task, labels, repeats, folds and design of the result, with :class:`~apples.CVPredictions`' rules."""
    if facts.n_rows == 0:
        raise ParameterValueError(
            "y_true is empty: cross-validated predictions need at least one case in each of two folds", param="y_true"
        )
    if not facts.has_pred and not facts.has_score:
        raise ParameterValueError("give y_pred (predicted labels), y_score (scores) or both", param="y_pred")
    if facts.weighted and not facts.weight_max > 0:
        raise ParameterValueError(
            "sample_weight is 0 for every row: no row counts, so every value would be 0/0", param="sample_weight"
        )
    found = _distinct("y_true and y_pred", facts.found)
    if facts.multilabel:
        if not facts.has_pred:
            raise ParameterValueError(
                "y_true is multi-label (a two-dimensional indicator array or label sets), and multi-label "
                "predictions need y_pred (the predicted label sets or indicator array)",
                param="y_pred",
            )
        if pos_label is not None:
            raise ParameterValueError(
                "pos_label is for binary tasks; multi-label data have one binary decision per label", param="pos_label"
            )
        if facts.weighted:
            raise ParameterValueError(
                "sample_weight is not supported for multi-label predictions yet", param="sample_weight"
            )
        if labels is not None:
            task_labels = [as_python(v) for v in labels]
            outside = [v for v in found.tolist() if v not in set(task_labels)]
            if outside:
                raise ParameterValueError(
                    f"y_true or y_pred holds label(s) {outside[:5]} that are not in labels={task_labels[:10]}",
                    param="labels",
                )
            if facts.width is not None and facts.width != len(task_labels):
                raise ParameterValueError(
                    f"labels names {len(task_labels)} labels, but the indicator array has {facts.width} columns: "
                    "labels= names the columns, in order",
                    param="labels",
                )
        elif facts.width is not None:
            task_labels = list(range(facts.width))
        else:
            task_labels = found.tolist()
        task: Literal["binary", "multiclass", "multilabel"] = "multilabel"
        positive = None
        if facts.has_score and facts.score_shape != (len(task_labels),):
            raise ParameterValueError(
                f"y_score has {facts.score_shape} columns, but the task is multi-label: its scores need one column "
                f"per label ({len(task_labels)} columns, in the order of labels {task_labels[:10]})",
                param="y_score",
            )
    else:
        task, task_labels, positive = single_label_task(found, labels, pos_label)
        if facts.has_score:
            check_score_shape(task, task_labels, (facts.n_rows, *facts.score_shape))
    repeat_ids = _distinct("repeats", facts.repeats) if has_repeats else None
    keys = [None] if repeat_ids is None else [as_python(v) for v in repeat_ids]
    fold_ids = [_distinct("folds", facts.folds[key]) for key in keys]
    single = [r for r, ids in enumerate(fold_ids) if ids.size < 2]
    if single and repeat_ids is None:
        raise ParameterValueError(
            f"folds holds a single fold ({as_python(fold_ids[0][0])!r}); cross-validation needs at least two "
            "(for hold-out test sets, one per split as ShuffleSplit makes them, give repeats= with each "
            "row's split)",
            param="folds",
        )
    if single and len(single) < len(fold_ids):
        assert repeat_ids is not None
        r = single[0]
        raise ParameterValueError(
            f"folds holds a single fold ({as_python(fold_ids[r][0])!r}) in repeat {as_python(repeat_ids[r])!r}, while "
            "other repeats hold several: each repeat is either one partition into two or more folds (k-fold) or, "
            "in every repeat, one hold-out test set",
            param="folds",
        )
    if single:
        design = "hold-out" if len(fold_ids) == 1 else "repeated hold-out"
    elif len(fold_ids) > 1:
        design = "repeated k-fold"
    elif fold_ids[0].size == facts.n_rows:
        design = "leave-one-out"
    else:
        design = "k-fold"
    score_dtype = None
    if facts.has_score:
        score_dtype = np.dtype({"i": np.int64, "u": np.uint64, "f": np.float64}[facts.score_kind])
    probabilities = facts.has_score and facts.probabilities and task != "multilabel"
    exponent = int(np.frexp(facts.weight_max)[1]) if facts.weighted else 0
    return Plan(
        task, task_labels, positive, repeat_ids, fold_ids, design, score_dtype, probabilities, exponent, facts.n_rows
    )


class Coded(NamedTuple):
    """A block's rows coded by a :class:`Plan`."""

    truth: np.ndarray  #: 0/1 (binary), the label's position (multi-class), bool (n, q) (multi-label)
    pred: np.ndarray | None
    repeat: np.ndarray  #: each row's repeat, 0 .. r-1 (zeros without repeats)
    fold: np.ndarray  #: each row's fold within its repeat, 0 .. k_r - 1
    score: np.ndarray | None  #: in the plan's dtype, (n,) or (n, q)
    weight: np.ndarray | None  #: scaled by 2**-exponent
    cases: Any  #: the case ids as given (None without)


def code_block(block: dict[str, Any], plan: Plan) -> Coded:
    """The rows of a checked block as codes of the whole result's labels, repeats and folds."""
    t, pred = block["y_true"], block["y_pred"]
    pred_codes: np.ndarray | None
    if plan.task == "multilabel":
        index = {lab: j for j, lab in enumerate(plan.labels)}
        truth, pred_codes = as_indicator(t, index), as_indicator(pred, index)
    elif plan.task == "multiclass":
        index = {lab: j for j, lab in enumerate(plan.labels)}
        truth = label_codes(np.asarray(t), index)
        pred_codes = None if pred is None else label_codes(np.asarray(pred), index)
    else:
        truth = np.asarray(np.asarray(t) == plan.pos_label).view(np.int8)
        pred_codes = None if pred is None else np.asarray(np.asarray(pred) == plan.pos_label).view(np.int8)
    n = len(t)
    if plan.repeat_ids is None:
        repeat = np.zeros(n, dtype=np.int8)
        fold = _positions(plan.fold_ids[0], block["folds"])
    else:
        repeat = _positions(plan.repeat_ids, block["repeats"])
        fold = np.zeros(n, dtype=code_dtype(max(ids.size for ids in plan.fold_ids)))
        for r in np.unique(repeat).tolist():
            at = repeat == r
            fold[at] = _positions(plan.fold_ids[r], block["folds"][at])
    score = block["y_score"]
    if score is not None:
        score = score.astype(plan.score_dtype, copy=False)
    w = block["sample_weight"]
    if w is not None:
        w = np.ldexp(w, -plan.weight_exponent)
    return Coded(truth, pred_codes, repeat, fold, score, w, block["cases"])


def _positions(ids: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Each value's position among the sorted distinct ``ids`` (every value is one of them)."""
    uniq, codes = codes_of(np.asarray(values))
    lut = np.searchsorted(ids, uniq).astype(code_dtype(ids.size))
    return lut[codes] if uniq.size else codes.astype(lut.dtype)


def refuse_types(name: str, error: Exception) -> ParameterError:
    """A TypeError from comparing labels of two kinds across blocks, as an error naming the argument."""
    return ParameterTypeError(f"{name} holds labels of two kinds across blocks ({error})", param=name)
