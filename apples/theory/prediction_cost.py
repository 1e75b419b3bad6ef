"""The cost of changing predictions: Van Asch (2013) §6, eqs. (16)-(25).

Closed forms for how much a macro- or micro-averaged score moves when predictions
change: the precision and recall factors of one label, the label weights, and
exact before/after scores for moves of false positives or true positives between
labels. Each formula is checked against recomputing the scores from the changed
counts (``tests/theory/test_prediction_cost.py``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from typing import Any, Literal, cast

import numpy as np

from apples._kernels.averages import label_averages
from apples._kernels.f_measure import ratio
from apples._params import (
    Integer,
    Kind,
    Nullable,
    Options,
    ParameterValueError,
    Policy,
    Real,
    Relation,
    Undefined,
    check_int,
    declare,
    is_missing,
    resolve,
)
from apples.metrics.averaging import AVERAGES, FREQUENCIES, AveragedScores, FrequenciesCover
from apples.metrics.counts import COUNTS, COUNTS_BY_LABEL, Counts

__all__ = [
    "label_weights",
    "move_false_positives",
    "precision_change",
    "precision_factor",
    "recall_change",
    "recall_factor",
    "score_change",
    "shift_true_positives",
]

#: A move of δ false positives from one label to another: ``(source, target, delta)``.
Move = tuple[Hashable, Hashable, int]
#: A per-label table ``{label: Counts}``.
Table = Mapping[Hashable, Counts]


# -- the kinds of this module's parameters ------------------------------------------------------
class _Moves(Kind):
    """``(source, target, delta)`` or a sequence of such triples; becomes a list of triples."""

    what = "a (source, target, delta) triple, or a sequence of them"

    def check(self, name: str, value: object) -> list[Move]:
        if isinstance(value, tuple) and len(value) == 3 and not isinstance(value[0], tuple):
            value = [value]  # a single (source, target, delta)
        if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
            raise TypeError(f"{name} must be a sequence of (source, target, delta) triples, got {type(value).__name__}")
        out = []
        for i, m in enumerate(value):
            if not (isinstance(m, tuple) and len(m) == 3):
                raise TypeError(f"{name}[{i}] must be a (source, target, delta) triple, got {m!r}")
            source, target, delta = m
            delta = check_int(f"delta of {name}[{i}]", delta)
            if delta < 0:
                raise ValueError(
                    f"{name}[{i}] has delta={delta}; the number of moved false positives must be >= 0 "
                    "(swap source and target to move the other way)"
                )
            if source == target:
                raise ValueError(f"{name}[{i}] moves false positives from {source!r} to itself")
            out.append((source, target, delta))
        return out


class _Shifts(Kind):
    """A mapping label -> signed integer change (it may be empty: nothing changes); becomes a dict."""

    what = "a mapping label -> int (true positives gained, or lost if negative)"

    def check(self, name: str, value: object) -> dict[Hashable, int]:
        if not isinstance(value, Mapping):
            raise TypeError(f"{name} must be a mapping label -> int, got {type(value).__name__}")
        return {label: check_int(f"{name}[{label!r}]", d) for label, d in value.items()}


class _TableLabel(Kind):
    """One label that is to be a key of a per-label table (which :class:`_InTable` checks)."""

    what = "a label of counts_by_label"

    def check(self, name: str, value: object) -> Hashable:
        if is_missing(value) or not isinstance(value, Hashable):
            raise TypeError(f"{name} must be a label of counts_by_label, got {value!r:.80} ({type(value).__name__})")
        return value


class _InTable(Relation):
    """Labels in an argument (a label, the moves, the shifts) are keys of ``counts_by_label``."""

    def __init__(self, name: str, labels: Callable[[str, Any], Iterator[tuple[Hashable, str]]]) -> None:
        self.names = (name, "counts_by_label")
        self.labels = labels

    def check(self, values: Mapping[str, Any]) -> None:
        name = self.names[0]
        if name not in values or "counts_by_label" not in values:
            return
        table = values["counts_by_label"]
        for label, where in self.labels(name, values[name]):
            if label not in table:
                raise ParameterValueError(
                    f"{where} is not a label of counts_by_label (labels: {list(table)!r})", param=name
                )


def _one_label(name: str, label: Hashable) -> Iterator[tuple[Hashable, str]]:
    yield label, f"{name}={label!r}"


def _move_labels(name: str, moves: list[Move]) -> Iterator[tuple[Hashable, str]]:
    for i, (source, target, _) in enumerate(moves):
        yield source, f"{name}[{i}] has source {source!r}, which"
        yield target, f"{name}[{i}] has target {target!r}, which"


def _shift_labels(name: str, shifts: Mapping[Hashable, int]) -> Iterator[tuple[Hashable, str]]:
    for label in shifts:
        yield label, f"label in {name}={label!r}"


#: The kind of ``moves``: δ >= 0 false positives moving from ``source`` to ``target``, one triple or several.
MOVES = _Moves()
#: The kind of ``shifts``: a mapping label -> true positives gained (> 0) or lost (< 0).
SHIFTS = _Shifts()
_FREQUENCIES = Nullable(FREQUENCIES)
_LABEL = _TableLabel()
_DELTA = Integer()
_WEIGHT = Real(0.0)
_SCALAR_POLICY = Undefined("zero", "nan", "raise")


# -- private helpers: the weights and the factors, for the public functions of this module ------
def _weights(
    table: Table, average: str, frequencies: Mapping[Hashable, float] | Literal["test"] | None
) -> dict[Hashable, float]:
    """The weight of each label in a macro (1/C) or lfb (f_λ) average, after the rules between the arguments."""
    if average != "lfb":
        if frequencies is not None:
            raise ParameterValueError("frequencies is only used with average='lfb'", param="frequencies")
        return {label: 1.0 / len(table) for label in table}
    if frequencies is None:
        raise ParameterValueError(
            "average='lfb' needs frequencies: a mapping label -> training frequency, or 'test'", param="frequencies"
        )
    labels = list(table)
    if frequencies == "test":
        support = np.array([c.tp + c.fn for c in table.values()], dtype=float)
        total = support.sum()
        if total == 0:
            raise ParameterValueError(
                "frequencies='test' needs at least one gold label occurrence (all tp + fn are 0)", param="frequencies"
            )
        return {label: float(w) for label, w in zip(labels, support / total, strict=True)}
    return {label: float(frequencies[label]) for label in labels}


def _precision_factor(c: Counts, delta: int, weight: float, tp_delta: int, undefined: str) -> float:
    """factor_λ(δ) of :func:`precision_factor`, after the rules on the counts."""
    a = tp_delta
    if c.fp + delta < 0:
        raise ParameterValueError(f"delta={delta} would make fp negative (fp={c.fp})", param="delta")
    if c.tp + a < 0 or c.fn - a < 0:
        raise ParameterValueError(
            f"tp_delta={a} needs 0 <= tp + tp_delta <= tp + fn (tp={c.tp}, fn={c.fn})", param="tp_delta"
        )
    if weight == 0:
        return 0.0  # a label without weight contributes nothing, defined or not (as in average_scores)
    before = c.tp + c.fp
    after = before + a + delta
    if before == 0 or after == 0:
        # one side is 0/0: the change is a difference of substituted values
        p0 = resolve(ratio(c.tp, before), undefined, what="precision before the change (tp + fp = 0)")
        p1 = resolve(ratio(c.tp + a, after), undefined, what="precision after the change (tp + fp = 0)")
        return float(weight * (p1 - p0))
    return weight * (a * c.fp - delta * c.tp) / (before * after)


def _check_tp_shift(c: Counts, delta: int, *, param: str, label: str = "") -> None:
    """0 <= tp + delta <= tp + fn: a label cannot gain more true positives than its false negatives."""
    if not 0 <= c.tp + delta <= c.tp + c.fn:
        raise ParameterValueError(
            f"delta={delta} needs 0 <= tp + delta <= tp + fn{label} (tp={c.tp}, fn={c.fn})", param=param
        )


def _recall_factor(c: Counts, delta: int, weight: float, undefined: str) -> float:
    """Δr_δλ of :func:`recall_factor` for a checked shift."""
    if weight == 0:
        return 0.0
    return float(weight * resolve(ratio(delta, c.tp + c.fn), undefined, what="recall (tp + fn = 0)"))


@declare(
    counts_by_label=COUNTS_BY_LABEL,
    average=Options("macro", "lfb"),
    frequencies=_FREQUENCIES,
    relations=[FrequenciesCover("frequencies", "counts_by_label")],
)
def label_weights(
    counts_by_label: Table,
    *,
    average: Literal["macro", "lfb"],
    frequencies: Mapping[Hashable, float] | Literal["test"] | None = None,
) -> dict[Hashable, float]:
    """The weight of each label's score in a macro or lfb average.

    ``1/C`` for ``average="macro"`` (eq. 8; C = number of labels in the table,
    absent ones included, §4.1) and ``f_λ`` for ``average="lfb"`` (eq. 10):
    the given training frequencies, or with ``frequencies="test"`` the test
    frequency ``(tp_λ + fn_λ) / Σ(tp + fn)`` (§3.3.2). These are the f_λ of
    eqs. (16), (19) and the 1/C of eqs. (22), (23).

    Parameters
    ----------
    counts_by_label : mapping label -> Counts
        The per-label table (the explicit label set).
    average : {"macro", "lfb"}
        Micro averaging has no per-label weights.
    frequencies : mapping label -> float or "test", optional
        Required for ``"lfb"``: one non-negative frequency per label, summing to 1.

    Examples
    --------
    >>> from apples import Counts
    >>> from apples.theory import label_weights
    >>> t = {"a": Counts(3, 2, 7), "b": Counts(1, 7, 9)}
    >>> label_weights(t, average="macro")
    {'a': 0.5, 'b': 0.5}
    >>> label_weights(t, average="lfb", frequencies="test")
    {'a': 0.5, 'b': 0.5}
    """
    return _weights(counts_by_label, average, frequencies)


# -- the formulas ------------------------------------------------------------------------
@declare(counts=COUNTS, delta=_DELTA, weight=_WEIGHT, tp_delta=_DELTA, undefined=_SCALAR_POLICY)
def precision_factor(
    counts: Counts, delta: int, *, weight: float = 1.0, tp_delta: int = 0, undefined: Policy = "zero"
) -> float:
    """factor_λ(δ): change of one label's weighted precision when its fp change by δ (eqs. 16, 22).

    ``weight · (−δ·tp) / ((tp + fp)(tp + fp + δ))`` — eq. (16) with
    ``weight = f_λ`` (lfb), eq. (22) with ``weight = 1/C`` (macro). δ > 0: the
    label receives false positives; δ < 0: it gives them away.

    With ``tp_delta = a`` the label's true positives change by ``a`` as well
    (from or to its false negatives) and the exact change is
    ``weight · (a·fp − δ·tp) / ((tp + fp)(tp + fp + a + δ))``; with δ = 0,
    weight 1 and the summed counts this is eq. (25) corrected (``fp`` in the
    numerator, where the paper prints ``tp``).

    Parameters
    ----------
    counts : Counts
        The label's counts *before* the change.
    delta : int
        Change of the label's false positives; ``fp + delta`` must be ≥ 0.
    weight : float, default 1.0
        The label's weight in the average: f_λ, 1/C, or 1 for one label alone.
    tp_delta : int, default 0
        Change of the label's true positives, taken from (> 0) or given to (< 0)
        its false negatives; ``0 ≤ tp + tp_delta ≤ tp + fn``.
    undefined : {"zero", "nan", "raise"}, default "zero"
        Policy where the precision before or after is 0/0 (tp + fp = 0). Under
        ``"zero"`` an undefined precision counts as 0 (the default of
        :func:`apples.precision`), so the change is that of the substituted values.

    Returns
    -------
    float
        The exact (not first-order) change of ``weight · precision``.

    References
    ----------
    Van Asch (2013) §6.1.1 eq. (16), §6.2 eq. (22), §6.3 eq. (25).

    Examples
    --------
    Table 3, label c1 (tp = 3, fp = 2, f_train = 0.1) receiving one false positive:

    >>> from apples import Counts
    >>> from apples.theory import precision_factor
    >>> round(precision_factor(Counts(3, 2, 7), 1, weight=0.1), 6)
    -0.01
    >>> round(3 / 6 * 0.1 - 3 / 5 * 0.1, 6)  # brute force
    -0.01
    """
    return _precision_factor(counts, delta, weight, tp_delta, undefined)


@declare(counts=COUNTS, delta=_DELTA, weight=_WEIGHT, undefined=_SCALAR_POLICY)
def recall_factor(counts: Counts, delta: int, *, weight: float = 1.0, undefined: Policy = "zero") -> float:
    """Δr_δλ: change of one label's weighted recall when it gains δ true positives (eqs. 19, 23).

    ``weight · δ / (tp + fn)``: eq. (19) with ``weight = f_λ`` (lfb), eq. (23)
    with ``weight = 1/C`` (macro). δ < 0 loses true positives to false
    negatives. ``tp + fn`` is fixed by the gold labels, so this is exact, and
    with the test frequency ``f_t,λ = (tp + fn)/N`` it is eq. (20),
    ``(δ/N)·f_λ/f_t,λ``.

    Parameters
    ----------
    counts : Counts
        The label's counts before the shift.
    delta : int
        True positives gained (> 0, from false negatives) or lost (< 0);
        ``0 ≤ tp + delta ≤ tp + fn``.
    weight : float, default 1.0
        The label's weight in the average.
    undefined : {"zero", "nan", "raise"}, default "zero"
        Policy when the label has no gold occurrences (tp + fn = 0); only
        ``delta = 0`` is possible then, and the change is 0 under ``"zero"``.

    References
    ----------
    Van Asch (2013) §6.1.2 eqs. (19)–(21), §6.2 eq. (23).

    Examples
    --------
    >>> from apples import Counts
    >>> from apples.theory import recall_factor
    >>> round(recall_factor(Counts(3, 2, 7), 1, weight=0.1), 6)  # Table 3, c1: 0.1 / 10
    0.01
    """
    _check_tp_shift(counts, delta, param="delta")
    return _recall_factor(counts, delta, weight, undefined)


@declare(
    counts_by_label=COUNTS_BY_LABEL,
    moves=MOVES,
    average=Options(*AVERAGES),
    frequencies=_FREQUENCIES,
    undefined=_SCALAR_POLICY,
    relations=[_InTable("moves", _move_labels), FrequenciesCover("frequencies", "counts_by_label")],
)
def precision_change(
    counts_by_label: Table,
    moves: Move | Iterable[Move],
    *,
    average: Literal["macro", "micro", "lfb"],
    frequencies: Mapping[Hashable, float] | Literal["test"] | None = None,
    undefined: Policy = "zero",
) -> float:
    """Δp: change of averaged precision when false positives move between labels (eqs. 17, 18, 22).

    Each move ``(source, target, δ)`` turns δ false positives of ``source``
    into false positives of ``target`` (movement 1 of §6.1). The moves are
    netted per label and the factors summed, ``Σ_λ factor_λ(net δ_λ)``: for
    one move ``factor_B(−δ) + factor_C(δ)`` (eq. 17 corrected), for a chain
    ``factor_B(−δ1) + factor_C(δ1 − δ2) + factor_D(δ2)`` (eq. 18 corrected).
    For ``average="micro"`` the change is 0: Σfp does not change (§6.3).

    Parameters
    ----------
    counts_by_label : mapping label -> Counts
        The table before the moves.
    moves : (source, target, delta) or a sequence of them
        δ ≥ 0 false positives move from ``source`` to ``target``. Each label's
        net loss may not exceed its false positives. (If the labels are
        themselves tuples, pass a list of triples.)
    average : {"macro", "micro", "lfb"}
    frequencies : mapping label -> float or "test", optional
        The f_λ of lfb (required for ``"lfb"``), see :func:`label_weights`.
    undefined : {"zero", "nan", "raise"}, default "zero"
        Policy for per-label precisions that are 0/0 before or after. It
        matches :func:`apples.average_scores` with the same policy when the
        labels not touched by the moves have a defined precision. The
        ``"skip"`` policy of ``average_scores`` has no per-label formula (the
        label set itself changes) and is not accepted.

    Returns
    -------
    float
        Exact change of the averaged precision (after − before).

    References
    ----------
    Van Asch (2013) §6.1.1 eqs. (16)–(18), §6.2 eq. (22), §6.3.

    Examples
    --------
    Table 3 (lfb with training frequencies), one false positive from c2 to c4:

    >>> from apples import Counts
    >>> from apples.theory import precision_change
    >>> t = {"c1": Counts(3, 2, 7), "c2": Counts(1, 7, 9), "c3": Counts(6, 6, 8), "c4": Counts(6, 9, 0)}
    >>> f = {"c1": 0.1, "c2": 0.2, "c3": 0.3, "c4": 0.4}
    >>> round(precision_change(t, ("c2", "c4", 1), average="lfb", frequencies=f), 6)
    -0.006429
    >>> round((1/7 - 1/8) * 0.2 + (6/16 - 6/15) * 0.4, 6)  # by hand
    -0.006429
    """
    table = counts_by_label
    net = dict.fromkeys(table, 0)
    for source, target, delta in cast(list[Move], moves):  # MOVES made it a list of checked triples
        net[source] -= delta
        net[target] += delta
    for label, d in net.items():
        if table[label].fp + d < 0:
            raise ParameterValueError(
                f"the moves take {-d} false positives from {label!r}, which has only fp={table[label].fp}",
                param="moves",
            )
    weights = _weights(table, average, frequencies)
    if average == "micro":
        return 0.0
    return math.fsum(
        _precision_factor(table[label], d, weights[label], 0, undefined) for label, d in net.items() if d != 0
    )


@declare(
    counts_by_label=COUNTS_BY_LABEL,
    shifts=SHIFTS,
    average=Options(*AVERAGES),
    frequencies=_FREQUENCIES,
    undefined=_SCALAR_POLICY,
    relations=[_InTable("shifts", _shift_labels), FrequenciesCover("frequencies", "counts_by_label")],
)
def recall_change(
    counts_by_label: Table,
    shifts: Mapping[Hashable, int],
    *,
    average: Literal["macro", "micro", "lfb"],
    frequencies: Mapping[Hashable, float] | Literal["test"] | None = None,
    undefined: Policy = "zero",
) -> float:
    """Δr: change of averaged recall when labels gain or lose true positives (eqs. 19–21, 23, 24).

    ``shifts`` maps a label to δ_λ, the true positives it gains from (> 0) or
    loses to (< 0) its false negatives (movement 2 of §6.1). Averaged recall
    changes by ``Σ_λ w_λ·δ_λ/(tp_λ + fn_λ)`` (eq. 21 of eq. 19 for lfb, eq. 23
    for macro) and micro recall by ``Σ_λ δ_λ / N`` with ``N = Σ(tp + fn)`` (eq. 24).
    Where the shifted predictions go (which label's fp change) does not matter
    for recall.

    Parameters
    ----------
    counts_by_label : mapping label -> Counts
        The table before the shifts.
    shifts : mapping label -> int
        δ_λ per label, ``0 ≤ tp_λ + δ_λ ≤ tp_λ + fn_λ``.
    average : {"macro", "micro", "lfb"}
    frequencies : mapping label -> float or "test", optional
        Required for ``"lfb"``, see :func:`label_weights`.
    undefined : {"zero", "nan", "raise"}, default "zero"
        Policy for a label without gold occurrences (only δ = 0 possible).

    References
    ----------
    Van Asch (2013) §6.1.2 eqs. (19)–(21), §6.2 eq. (23), §6.3 eq. (24).

    Examples
    --------
    >>> from apples import Counts
    >>> from apples.theory import recall_change
    >>> t = {"c1": Counts(3, 2, 7), "c2": Counts(1, 7, 9), "c3": Counts(6, 6, 8), "c4": Counts(6, 9, 0)}
    >>> recall_change(t, {"c1": 1}, average="micro")  # 1 / 40
    0.025
    >>> round(recall_change(t, {"c1": 1, "c4": -2}, average="macro"), 6)  # (1/10 - 2/6) / 4
    -0.058333
    """
    table = counts_by_label
    for label, d in shifts.items():
        _check_tp_shift(table[label], d, param="shifts", label=f" for {label!r}")
    if average == "micro":
        if frequencies is not None:
            raise ParameterValueError("frequencies is only used with average='lfb'", param="frequencies")
        n = sum(c.tp + c.fn for c in table.values())
        return float(resolve(ratio(sum(shifts.values()), n), undefined, what="micro recall (no gold labels)"))
    weights = _weights(table, average, frequencies)
    return math.fsum(_recall_factor(table[label], d, weights[label], undefined) for label, d in shifts.items())


# -- brute force: move the counts ----------------------------------------------------
@declare(
    counts_by_label=COUNTS_BY_LABEL,
    source=_LABEL,
    target=_LABEL,
    delta=_DELTA,
    relations=[_InTable("source", _one_label), _InTable("target", _one_label)],
)
def move_false_positives(
    counts_by_label: Table, source: Hashable, target: Hashable, delta: int = 1
) -> dict[Hashable, Counts]:
    """The table after δ false positives of ``source`` become false positives of ``target``.

    Movement 1 of Van Asch §6.1: δ instances whose gold label is neither
    ``source`` nor ``target``, predicted ``source``, are predicted ``target``
    instead. ``fp_source −= δ``, ``tn_source += δ``, ``fp_target += δ``,
    ``tn_target −= δ``; tp and fn do not change. The moved instances were true
    negatives of ``target``, so ``tn_target ≥ δ`` is required: a table given
    without tn (tn = 0) must be completed first (single-label data:
    ``tn = N − tp − fp − fn``).

    Parameters
    ----------
    counts_by_label : mapping label -> Counts
        The table before the move (not modified).
    source, target : label
        Two different labels of the table.
    delta : int, default 1
        Number of false positives moved, ``0 ≤ delta ≤ fp_source``.

    Returns
    -------
    dict
        A new table, same label order.

    Examples
    --------
    >>> from apples import Counts
    >>> from apples.theory import move_false_positives
    >>> t = {"A": Counts(5, 2, 1, 7), "B": Counts(3, 0, 2, 10)}
    >>> move_false_positives(t, "A", "B", 2)["B"]
    Counts(tp=3, fp=2, fn=2, tn=8)
    """
    table = counts_by_label
    if source == target:
        raise ParameterValueError(f"source and target are the same label {source!r}", param="target")
    s, t = table[source], table[target]
    if not 0 <= delta <= s.fp:
        raise ParameterValueError(f"delta={delta} must lie in [0, fp of {source!r} = {s.fp}]", param="delta")
    if t.tn < delta:
        raise ParameterValueError(
            f"moving {delta} false positives to {target!r} needs {delta} of its true negatives, but it has "
            f"tn={t.tn}; fill in tn (single-label data: tn = N - tp - fp - fn)",
            param="counts_by_label",
        )
    out = dict(table)
    out[source] = Counts(s.tp, s.fp - delta, s.fn, s.tn + delta)
    out[target] = Counts(t.tp, t.fp + delta, t.fn, t.tn - delta)
    return out


@declare(
    counts_by_label=COUNTS_BY_LABEL,
    label=_LABEL,
    delta=_DELTA,
    other=Nullable(_LABEL),
    relations=[_InTable("label", _one_label), _InTable("other", _one_label)],
)
def shift_true_positives(
    counts_by_label: Table, label: Hashable, delta: int, *, other: Hashable | None = None
) -> dict[Hashable, Counts]:
    """The table after ``label`` gains (δ > 0) or loses (δ < 0) δ true positives.

    Movement 2 of Van Asch §6.1. ``tp_label += δ``, ``fn_label −= δ``. In
    single-label data the prediction comes from (δ > 0) or goes to (δ < 0)
    another label ``other``, whose false positives change by ``−δ`` (and its
    tn by ``+δ``). With ``other=None`` no false positive changes: a predicted
    label is added to or dropped from a multi-label prediction (the case of
    eq. 25).

    Parameters
    ----------
    counts_by_label : mapping label -> Counts
    label : label
        The label whose true positives change; ``0 ≤ tp + δ ≤ tp + fn``.
    delta : int
        Signed number of true positives gained.
    other : label, optional
        The label the predictions come from or go to (≠ ``label``).

    Examples
    --------
    >>> from apples import Counts
    >>> from apples.theory import shift_true_positives
    >>> t = {"A": Counts(5, 2, 1, 7), "B": Counts(3, 0, 2, 10)}
    >>> s = shift_true_positives(t, "A", -1, other="B")
    >>> s["A"], s["B"]
    (Counts(tp=4, fp=2, fn=2, tn=7), Counts(tp=3, fp=1, fn=2, tn=9))
    """
    table = counts_by_label
    c = table[label]
    _check_tp_shift(c, delta, param="delta", label=f" for {label!r}")
    out = dict(table)
    out[label] = Counts(c.tp + delta, c.fp, c.fn - delta, c.tn)
    if other is not None:
        if other == label:
            raise ParameterValueError(f"other must differ from label, both are {label!r}", param="other")
        o = table[other]
        if o.fp - delta < 0:
            raise ParameterValueError(
                f"{label!r} cannot gain {delta} true positives from {other!r}, which has fp={o.fp}", param="delta"
            )
        if o.tn + delta < 0:
            raise ParameterValueError(
                f"{other!r} needs {-delta} true negatives to receive the predictions, it has tn={o.tn}", param="delta"
            )
        out[other] = Counts(o.tp, o.fp - delta, o.fn, o.tn + delta)
    return out


@declare(
    before=COUNTS_BY_LABEL,
    after=COUNTS_BY_LABEL,
    average=Options(*AVERAGES),
    frequencies=_FREQUENCIES,
    undefined=Undefined("zero", "skip", "nan", "raise"),
    relations=[FrequenciesCover("frequencies", "before")],
)
def score_change(
    before: Table,
    after: Table,
    *,
    average: Literal["macro", "micro", "lfb"],
    frequencies: Mapping[Hashable, float] | Literal["test"] | None = None,
    undefined: Policy = "zero",
) -> AveragedScores:
    """Brute force: ``average_scores(after) − average_scores(before)``, field by field.

    The check of every formula in this module: apply a move with
    :func:`move_false_positives` or :func:`shift_true_positives`, recompute the
    average, subtract.

    Returns
    -------
    AveragedScores
        Differences of precision, recall, f_of_averages and mean_f.

    Examples
    --------
    >>> from apples import Counts
    >>> from apples.theory import move_false_positives, precision_change, score_change
    >>> t = {"A": Counts(5, 2, 1, 7), "B": Counts(3, 0, 2, 10), "C": Counts(1, 1, 0, 13)}
    >>> d = score_change(t, move_false_positives(t, "A", "B"), average="macro")
    >>> round(d.precision, 6), d.recall
    (-0.043651, 0.0)
    >>> round(((5/6 - 5/7) + (3/4 - 3/3)) / 3, 6)  # by hand
    -0.043651
    >>> round(precision_change(t, ("A", "B", 1), average="macro"), 6)
    -0.043651
    """
    if list(after) != list(before):
        raise ParameterValueError("before and after must have the same labels in the same order", param="after")
    if average == "lfb" and frequencies is None:
        raise ParameterValueError(
            "average='lfb' needs frequencies: a mapping of training-set frequencies, or 'test'", param="frequencies"
        )
    if average != "lfb" and frequencies is not None:
        raise ParameterValueError(
            f"frequencies is only used by average='lfb', not average={average!r}; leave it None", param="frequencies"
        )
    s0 = _averages(before, "before", average, frequencies, undefined)
    s1 = _averages(after, "after", average, frequencies, undefined)
    return AveragedScores(*(x1 - x0 for x0, x1 in zip(s0, s1, strict=True)))


_FIELDS = ("precision", "recall", "F of the averaged precision and recall", "mean of the per-label F")


def _averages(
    table: Table,
    which: str,
    average: str,
    frequencies: Mapping[Hashable, float] | Literal["test"] | None,
    undefined: str,
) -> tuple[float, ...]:
    """The four averages of :func:`apples.average_scores` from the kernel, under the 0/0 policy."""
    counts = list(table.values())
    tp, fp, fn = (np.array([getattr(c, f) for c in counts], dtype=float) for f in ("tp", "fp", "fn"))
    weights: np.ndarray | None = None
    if average == "lfb" and isinstance(frequencies, Mapping):
        weights = np.array([float(frequencies[k]) for k in table])
    elif average == "lfb":  # "test": the share of the support tp + fn; none at all leaves every average 0/0
        support = tp + fn
        weights = support / support.sum() if support.sum() else support
    values = label_averages(
        tp, fp, fn, average=average, weights=weights, undefined="nan" if undefined == "raise" else undefined
    )
    hint = "pass undefined='zero', 'skip' or 'nan' to substitute, leave out, or propagate it"
    return tuple(
        float(resolve(v, undefined, what=f"the {average} {field} {which} the change", hint=hint))
        for v, field in zip(values, _FIELDS, strict=True)
    )
