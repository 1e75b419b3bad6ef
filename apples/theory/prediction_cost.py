"""The cost of changing predictions: Van Asch (2013) §6, eqs. (16)-(25).

Closed forms for how much a macro- or micro-averaged score moves when predictions
change: the precision and recall factors of one label, the label weights, and
exact before/after scores for moves of false positives or true positives between
labels. Each formula is checked against recomputing the scores from the changed
counts (``tests/test_prediction_cost.py``).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping
from typing import Literal, cast

from apples._params import (
    Policy,
    check_choice,
    check_int,
    check_policy,
    check_real,
    divide,
)
from apples.metrics.averaging import AVERAGES, AveragedScores, average_scores, check_counts_by_label, check_frequencies
from apples.metrics.counts import COUNTS, Counts

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


def _check_table(counts_by_label: object, name: str = "counts_by_label") -> dict:
    """A validated copy of a per-label table ``{label: Counts}`` (``name``: the caller's argument)."""
    return dict(zip(*check_counts_by_label(counts_by_label, name), strict=True))


def _check_label(name: str, label: object, table: Mapping) -> Hashable:
    """A label that is a key of ``table``; membership in this table, which no shared check knows."""
    if label not in table:
        raise ValueError(f"{name}={label!r} is not a label of counts_by_label (labels: {list(table)!r})")
    return label


def label_weights(
    counts_by_label: Mapping[Hashable, Counts],
    *,
    average: str,
    frequencies: Mapping[Hashable, float] | str | None = None,
) -> dict:
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
    >>> t = {"a": Counts(3, 2, 7), "b": Counts(1, 7, 9)}
    >>> label_weights(t, average="macro")
    {'a': 0.5, 'b': 0.5}
    >>> label_weights(t, average="lfb", frequencies="test")
    {'a': 0.5, 'b': 0.5}
    """
    table = _check_table(counts_by_label)
    check_choice("average", average, ("macro", "lfb"))
    if average == "macro":
        if frequencies is not None:
            raise ValueError("frequencies is only used with average='lfb'")
        return {label: 1.0 / len(table) for label in table}
    if frequencies is None:
        raise ValueError("average='lfb' needs frequencies: a mapping label -> training frequency, or 'test'")
    labels = list(table)
    weights = check_frequencies(frequencies, labels, list(table.values()))
    if weights is None:
        raise ValueError("frequencies='test' needs at least one gold label occurrence (all tp + fn are 0)")
    return {label: float(w) for label, w in zip(labels, weights, strict=True)}


# -- the formulas ------------------------------------------------------------------------
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

    >>> round(precision_factor(Counts(3, 2, 7), 1, weight=0.1), 6)
    -0.01
    >>> round(3 / 6 * 0.1 - 3 / 5 * 0.1, 6)  # brute force
    -0.01
    """
    c = COUNTS("counts", counts)
    delta = check_int("delta", delta)
    a = check_int("tp_delta", tp_delta)
    weight = check_real("weight", weight, low=0.0)
    check_policy(undefined)
    if c.fp + delta < 0:
        raise ValueError(f"delta={delta} would make fp negative (fp={c.fp})")
    if c.tp + a < 0 or c.fn - a < 0:
        raise ValueError(f"tp_delta={a} needs 0 <= tp + tp_delta <= tp + fn (tp={c.tp}, fn={c.fn})")
    if weight == 0:
        return 0.0  # a label without weight contributes nothing, defined or not (as in average_scores)
    before = c.tp + c.fp
    after = before + a + delta
    if before == 0 or after == 0:
        # one side is 0/0: the change is a difference of substituted values
        p0 = divide(c.tp, before, undefined=undefined, what="precision before the change (tp + fp = 0)")
        p1 = divide(c.tp + a, after, undefined=undefined, what="precision after the change (tp + fp = 0)")
        return weight * (p1 - p0)
    return weight * (a * c.fp - delta * c.tp) / (before * after)


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
    >>> round(recall_factor(Counts(3, 2, 7), 1, weight=0.1), 6)  # Table 3, c1: 0.1 / 10
    0.01
    """
    c = COUNTS("counts", counts)
    delta = check_int("delta", delta)
    weight = check_real("weight", weight, low=0.0)
    check_policy(undefined)
    if not 0 <= c.tp + delta <= c.tp + c.fn:
        raise ValueError(f"delta={delta} needs 0 <= tp + delta <= tp + fn (tp={c.tp}, fn={c.fn})")
    if weight == 0:
        return 0.0
    return weight * divide(delta, c.tp + c.fn, undefined=undefined, what="recall (tp + fn = 0)")


def _moves(moves: object) -> list[tuple[Hashable, Hashable, int]]:
    if isinstance(moves, tuple) and len(moves) == 3 and not isinstance(moves[0], tuple):
        moves = [moves]  # a single (source, target, delta)
    try:
        # list() is the check: it raises the TypeError for anything not iterable
        items = list(cast(Iterable[object], moves))
    except TypeError:
        raise TypeError("moves must be a sequence of (source, target, delta) triples") from None
    out = []
    for i, m in enumerate(items):
        if not (isinstance(m, tuple) and len(m) == 3):
            raise TypeError(f"moves[{i}] must be a (source, target, delta) triple, got {m!r}")
        source, target, delta = m
        delta = check_int(f"delta of moves[{i}]", delta)
        if delta < 0:
            raise ValueError(
                f"moves[{i}] has delta={delta}; the number of moved false positives must be >= 0 "
                "(swap source and target to move the other way)"
            )
        if source == target:
            raise ValueError(f"moves[{i}] moves false positives from {source!r} to itself")
        out.append((source, target, delta))
    return out


def _net_fp_changes(table: Mapping, moves: list) -> dict:
    net = dict.fromkeys(table, 0)
    for i, (source, target, delta) in enumerate(moves):
        for role, label in (("source", source), ("target", target)):
            if label not in table:
                raise ValueError(
                    f"moves[{i}] has {role} {label!r}, which is not a label of counts_by_label "
                    f"(labels: {list(table)!r})"
                )
        net[source] -= delta
        net[target] += delta
    return net


def precision_change(
    counts_by_label: Mapping[Hashable, Counts],
    moves,
    *,
    average: str,
    frequencies: Mapping[Hashable, float] | str | None = None,
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

    >>> t = {"c1": Counts(3, 2, 7), "c2": Counts(1, 7, 9), "c3": Counts(6, 6, 8), "c4": Counts(6, 9, 0)}
    >>> f = {"c1": 0.1, "c2": 0.2, "c3": 0.3, "c4": 0.4}
    >>> round(precision_change(t, ("c2", "c4", 1), average="lfb", frequencies=f), 6)
    -0.006429
    >>> round((1/7 - 1/8) * 0.2 + (6/16 - 6/15) * 0.4, 6)  # by hand
    -0.006429
    """
    table = _check_table(counts_by_label)
    check_choice("average", average, AVERAGES)
    check_policy(undefined)
    net = _net_fp_changes(table, _moves(moves))
    for label, d in net.items():
        if table[label].fp + d < 0:
            raise ValueError(f"the moves take {-d} false positives from {label!r}, which has only fp={table[label].fp}")
    if average == "micro":
        if frequencies is not None:
            raise ValueError("frequencies is only used with average='lfb'")
        return 0.0
    weights = label_weights(table, average=average, frequencies=frequencies)
    return math.fsum(
        precision_factor(table[label], d, weight=weights[label], undefined=undefined)
        for label, d in net.items()
        if d != 0
    )


def recall_change(
    counts_by_label: Mapping[Hashable, Counts],
    shifts: Mapping[Hashable, int],
    *,
    average: str,
    frequencies: Mapping[Hashable, float] | str | None = None,
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
    >>> t = {"c1": Counts(3, 2, 7), "c2": Counts(1, 7, 9), "c3": Counts(6, 6, 8), "c4": Counts(6, 9, 0)}
    >>> recall_change(t, {"c1": 1}, average="micro")  # 1 / 40
    0.025
    >>> round(recall_change(t, {"c1": 1, "c4": -2}, average="macro"), 6)  # (1/10 - 2/6) / 4
    -0.058333
    """
    table = _check_table(counts_by_label)
    check_choice("average", average, AVERAGES)
    check_policy(undefined)
    if not isinstance(shifts, Mapping):
        raise TypeError(f"shifts must be a mapping label -> int, got {type(shifts).__name__}")
    clean = {}
    for label, d in shifts.items():
        _check_label("label in shifts", label, table)
        clean[label] = check_int(f"shifts[{label!r}]", d)
    if average == "micro":
        if frequencies is not None:
            raise ValueError("frequencies is only used with average='lfb'")
        n = sum(c.tp + c.fn for c in table.values())
        for label, d in clean.items():
            recall_factor(table[label], d)  # validates the range
        return divide(sum(clean.values()), n, undefined=undefined, what="micro recall (no gold labels)")
    weights = label_weights(table, average=average, frequencies=frequencies)
    return math.fsum(
        recall_factor(table[label], d, weight=weights[label], undefined=undefined) for label, d in clean.items()
    )


# -- brute force: move the counts ----------------------------------------------------
def move_false_positives(
    counts_by_label: Mapping[Hashable, Counts], source: Hashable, target: Hashable, delta: int = 1
) -> dict:
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
    >>> t = {"A": Counts(5, 2, 1, 7), "B": Counts(3, 0, 2, 10)}
    >>> move_false_positives(t, "A", "B", 2)["B"]
    Counts(tp=3, fp=2, fn=2, tn=8)
    """
    table = _check_table(counts_by_label)
    _check_label("source", source, table)
    _check_label("target", target, table)
    if source == target:
        raise ValueError(f"source and target are the same label {source!r}")
    delta = check_int("delta", delta)
    s, t = table[source], table[target]
    if not 0 <= delta <= s.fp:
        raise ValueError(f"delta={delta} must lie in [0, fp of {source!r} = {s.fp}]")
    if t.tn < delta:
        raise ValueError(
            f"moving {delta} false positives to {target!r} needs {delta} of its true negatives, but it has "
            f"tn={t.tn}; fill in tn (single-label data: tn = N - tp - fp - fn)"
        )
    out = dict(table)
    out[source] = Counts(s.tp, s.fp - delta, s.fn, s.tn + delta)
    out[target] = Counts(t.tp, t.fp + delta, t.fn, t.tn - delta)
    return out


def shift_true_positives(
    counts_by_label: Mapping[Hashable, Counts], label: Hashable, delta: int, *, other: Hashable | None = None
) -> dict:
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
    >>> t = {"A": Counts(5, 2, 1, 7), "B": Counts(3, 0, 2, 10)}
    >>> s = shift_true_positives(t, "A", -1, other="B")
    >>> s["A"], s["B"]
    (Counts(tp=4, fp=2, fn=2, tn=7), Counts(tp=3, fp=1, fn=2, tn=9))
    """
    table = _check_table(counts_by_label)
    _check_label("label", label, table)
    delta = check_int("delta", delta)
    c = table[label]
    if not 0 <= c.tp + delta <= c.tp + c.fn:
        raise ValueError(f"delta={delta} needs 0 <= tp + delta <= tp + fn for {label!r} (tp={c.tp}, fn={c.fn})")
    out = dict(table)
    out[label] = Counts(c.tp + delta, c.fp, c.fn - delta, c.tn)
    if other is not None:
        _check_label("other", other, table)
        if other == label:
            raise ValueError(f"other must differ from label, both are {label!r}")
        o = table[other]
        if o.fp - delta < 0:
            raise ValueError(f"{label!r} cannot gain {delta} true positives from {other!r}, which has fp={o.fp}")
        if o.tn + delta < 0:
            raise ValueError(f"{other!r} needs {-delta} true negatives to receive the predictions, it has tn={o.tn}")
        out[other] = Counts(o.tp, o.fp - delta, o.fn, o.tn + delta)
    return out


def score_change(
    before: Mapping[Hashable, Counts],
    after: Mapping[Hashable, Counts],
    *,
    average: Literal["macro", "micro", "lfb"],
    frequencies: Mapping[Hashable, float] | Literal["test"] | None = None,
    undefined: Policy = "zero",
):
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
    >>> t = {"A": Counts(5, 2, 1, 7), "B": Counts(3, 0, 2, 10), "C": Counts(1, 1, 0, 13)}
    >>> d = score_change(t, move_false_positives(t, "A", "B"), average="macro")
    >>> round(d.precision, 6), d.recall
    (-0.043651, 0.0)
    >>> round(((5/6 - 5/7) + (3/4 - 3/3)) / 3, 6)  # by hand
    -0.043651
    >>> round(precision_change(t, ("A", "B", 1), average="macro"), 6)
    -0.043651
    """
    b = _check_table(before, "before")
    a = _check_table(after, "after")
    if list(a) != list(b):
        raise ValueError("before and after must have the same labels in the same order")
    s0 = average_scores(b, average=average, frequencies=frequencies, undefined=undefined)
    s1 = average_scores(a, average=average, frequencies=frequencies, undefined=undefined)
    return AveragedScores(*(float(x1 - x0) for x0, x1 in zip(s0, s1, strict=True)))
