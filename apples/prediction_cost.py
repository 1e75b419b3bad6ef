"""The cost of changing predictions: Van Asch (2013) §6, derived and checked.

Introduced in notebook 06. A classifier's errors can be moved around without
making a single extra correct prediction, and the averaged scores of §3 react
to *where* the errors land. Van Asch (2013) §6 gives the marginal effect of two
movements of the counts of a per-label table (``{label: Counts}``):

1. **false positive → false positive** (a wrong prediction becomes another
   wrong prediction): ``fp`` of a *source* label falls by δ, ``fp`` of a
   *target* label rises by δ; ``tp`` and ``fn`` do not change, so recall does
   not change. :func:`move_false_positives` applies it to a table.
2. **true positive ↔ false negative** (a correct prediction becomes wrong, or
   the reverse): ``tp`` of one label changes by δ and its ``fn`` by −δ; in
   single-label data the prediction goes to (or comes from) another label,
   whose ``fp`` changes by −δ. :func:`shift_true_positives` applies it.

Each formula below was derived again from the definitions of eqs. (8)–(10)
and is tested against brute force (apply the move, recompute
:func:`apples.average_scores`, subtract) on random tables with hypothesis.

==========  ================================================  =====================================
paper       what                                              here
==========  ================================================  =====================================
eq. (16)    factor_λ(δ), lfb precision, δ fp received         :func:`precision_factor` (weight f_λ)
eq. (17)    Δp_{B→C}(δ), one move                             :func:`precision_change`  **typo**
eq. (18)    Δp for a chain B →δ1 C →δ2 D                      :func:`precision_change`  **typos**
eq. (19)    Δr_{δλ}, lfb recall, δ tp received                :func:`recall_factor` (weight f_λ)
eq. (20)    eq. (19) written with the test frequency          same value, f_λ / (N f_t,λ)
eq. (21)    Δr of shifts on several labels: a sum             :func:`recall_change`
eq. (22)    macro precision factor (weight 1/C)               :func:`precision_factor` (weight 1/C)
eq. (23)    macro recall (weight 1/C)                         :func:`recall_factor`, :func:`recall_change`
eq. (24)    micro recall, δ/N                                 :func:`recall_change`, ``average="micro"``
eq. (25)    micro precision of a tp ↔ fn shift                :func:`precision_factor` with
                                                              ``tp_delta``  **typo**
==========  ================================================  =====================================

Derivations and the typos found
-------------------------------
Precision of one label is ``tp/(tp + fp)``. If ``tp`` changes by ``a`` and
``fp`` by ``b``, the change is, over a common denominator,

    (tp + a)/(tp + fp + a + b) − tp/(tp + fp) = (a·fp − b·tp) / ((tp + fp)(tp + fp + a + b)).

* ``a = 0, b = δ`` gives eq. (16) exactly, ``−δ·tp/((tp + fp)(tp + fp + δ))``,
  times the label's weight in the average (f_λ for lfb, 1/C for macro:
  eq. 22). Correct as printed.
* Eq. (17) prints ``Δp_{B→C}(δ) = factor_B(δ) + factor_C(δ)``. By the
  paper's own sign convention ("if the label will be giving false positives,
  δ is negative"; "factor_B(−1) is the marginal precision cost when a false
  positive of class B becomes a false positive of another label") it must be
  ``factor_B(−δ) + factor_C(δ)``; as printed it would raise B's ``fp`` too.
* Eq. (18) prints ``factor_B(δ1) + factor_C(δ1 + δ2) + factor_D(δ2)``. C
  receives δ1 and gives δ2, so its net change is ``δ1 − δ2``:
  ``factor_B(−δ1) + factor_C(δ1 − δ2) + factor_D(δ2)``. Since factor_λ is
  not linear in δ, the net change per label must go into one factor
  (``factor_C(δ1) + factor_C(−δ2)`` is not the same); :func:`precision_change`
  nets the moves per label first.
* ``a = δ, b = 0`` (a tp ↔ fn shift with ``fp`` fixed, as eq. 25 says:
  "shifting δ true positives and false negatives") gives
  ``δ·fp/((tp + fp)(tp + fp + δ))``. Eq. (25) prints ``δ·tp`` in the
  numerator: a typo (the printed formula is not the change of any single
  move; e.g. tp = 3, fp = 1, δ = 1: printed 0.15, true change 0.05).
  That shift keeps ``fp`` fixed, which happens in multi-label data (a predicted
  label is added or dropped); in single-label data the prediction moves to
  another label, ``Σfp`` changes by ``−δ`` and micro precision changes by
  ``δ/N``, exactly as micro recall (eq. 15: both are accuracy).
* Recall ``tp/(tp + fn)``: ``tp + fn`` is fixed by the gold labels, so a shift
  of δ true positives changes it by ``δ/(tp + fn)``; times f_λ that is eq. (19),
  times 1/C eq. (23), and micro recall changes by ``δ/N`` (eq. 24),
  ``N = Σ(tp + fn)``. Eq. (20) is eq. (19) with ``tp + fn = N·f_t,λ``, and
  eq. (21) holds because each label's recall only sees its own counts. All
  correct as printed.

The §6.2.1 "boosting" experiment (Table 8) is :func:`relabel_uncertain`
(CHANGED), :func:`relabel_errors` (UPPER) and :func:`boosting_table`, with the
confidence curve of Figure 1 from :func:`accuracy_by_uncertainty` and the
"expected accuracy drops below 35 %" rule in :func:`uncertainty_threshold`;
:func:`nearest_neighbour_boosting` runs the whole experiment for one random
split with a 1-nearest-neighbour classifier (notebook 06's robustness loop).

References
----------
Van Asch, V. (2013). Macro- and micro-averaged evaluation measures. §6,
eqs. (16)–(25), Figure 1, Table 8.
"""

from __future__ import annotations

import itertools
import math
import numbers
from collections.abc import Hashable, Iterable, Mapping
from typing import Literal, cast

import numpy as np
import pandas as pd
from scipy.optimize import isotonic_regression

from ._optional import require
from ._validation import (
    Undefined,
    check_choice,
    check_count,
    check_label_kind,
    check_labels_1d,
    check_policy,
    check_real,
    check_same_label_kind,
    check_same_length,
    check_scores,
    divide,
    rng_from_seed,
)
from .averaging import AVERAGES, AveragedScores, average_scores, check_counts_by_label, check_frequencies
from .counts import Counts, check_counts
from .multilabel import label_counts

__all__ = [
    "accuracy_by_uncertainty",
    "boosting_curve",
    "boosting_table",
    "expected_accuracy",
    "label_weights",
    "move_false_positives",
    "nearest_neighbour_boosting",
    "plot_accuracy_by_uncertainty",
    "precision_change",
    "precision_factor",
    "recall_change",
    "recall_factor",
    "relabel_errors",
    "relabel_uncertain",
    "score_change",
    "shift_true_positives",
    "uncertainty_threshold",
    "zipf_subsample",
]

# -- validation helpers --------------------------------------------------------------
#: Largest ``random_state`` scikit-learn accepts (numpy's legacy RandomState seeds are 32-bit).
_MAX_SKLEARN_SEED = 2**32 - 1


def _check_int(name: str, value: object) -> int:
    """Any integer, negative too (a shift, a seed checked later); not check_count, which refuses negatives."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {value!r} ({type(value).__name__})")
    return int(value)


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
    counts: Counts, delta: int, *, weight: float = 1.0, tp_delta: int = 0, undefined: Undefined = "zero"
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
    c = check_counts("counts", counts)
    delta = _check_int("delta", delta)
    a = _check_int("tp_delta", tp_delta)
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


def recall_factor(counts: Counts, delta: int, *, weight: float = 1.0, undefined: Undefined = "zero") -> float:
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
    c = check_counts("counts", counts)
    delta = _check_int("delta", delta)
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
        delta = _check_int(f"delta of moves[{i}]", delta)
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
    undefined: Undefined = "zero",
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
    undefined: Undefined = "zero",
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
        clean[label] = _check_int(f"shifts[{label!r}]", d)
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
    delta = _check_int("delta", delta)
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
    delta = _check_int("delta", delta)
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
    undefined: Undefined = "zero",
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


# -- the boosting strategy of §6.2.1 ---------------------------------------------------------
def accuracy_by_uncertainty(y_true, y_pred, uncertainty, *, bins: int = 10) -> pd.DataFrame:
    """Accuracy of the predictions grouped by uncertainty: the data of Van Asch Figure 1.

    The predictions are sorted by uncertainty (e.g. the distance to the
    nearest neighbour: higher = less confident) and cut into ``bins`` groups of
    (nearly) equal size; tied uncertainties never straddle two bins.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        Gold and predicted labels (single-label).
    uncertainty : array-like of shape (n,)
        Finite numbers; larger means less confident.
    bins : int, default 10
        Number of groups (fewer if ties force it).

    Returns
    -------
    pandas.DataFrame
        One row per group: ``low``, ``high`` (uncertainty range), ``n``,
        ``correct`` and ``accuracy``.

    Examples
    --------
    >>> accuracy_by_uncertainty([0, 0, 1, 1], [0, 0, 1, 0], [0.1, 0.2, 0.3, 0.9], bins=2)
       low  high  n  correct  accuracy
    0  0.1   0.2  2        2       1.0
    1  0.3   0.9  2        1       0.5
    """
    t = check_labels_1d("y_true", y_true)
    p = check_labels_1d("y_pred", y_pred)
    u = check_scores("uncertainty", uncertainty)
    check_same_length(y_true=t, y_pred=p, uncertainty=u)
    check_same_label_kind(y_true=t, y_pred=p)  # ints against strings: nothing would count as correct
    bins = check_count("bins", bins)  # above 2**53 refused, like every count
    if bins < 1:
        raise ValueError(f"bins must be >= 1, got {bins}")
    if u.size == 0:
        raise ValueError("y_true is empty")
    bins = min(bins, u.size)  # more bins than predictions cut at every rank, exactly as bins = n does
    order = np.argsort(u, kind="stable")
    us, ok = u[order], (t == p)[order]
    # cut points at equal ranks, moved to the end of a run of ties
    ranks = (np.arange(1, bins) * u.size) // bins
    ranks = ranks[ranks > 0]
    cuts = np.unique(np.searchsorted(us, us[ranks - 1], side="right"))
    cuts = cuts[(cuts > 0) & (cuts < u.size)]
    edges = np.concatenate([[0], cuts, [u.size]])
    rows = []
    for lo, hi in itertools.pairwise(edges):
        n = int(hi - lo)
        correct = int(ok[lo:hi].sum())
        rows.append(
            {"low": float(us[lo]), "high": float(us[hi - 1]), "n": n, "correct": correct, "accuracy": correct / n}
        )
    return pd.DataFrame(rows)


def expected_accuracy(y_true, y_pred, uncertainty) -> pd.DataFrame:
    """Accuracy as a non-increasing function of uncertainty, by isotonic regression.

    A smooth-free estimate of the curve behind Van Asch Figure 1: the
    least-squares fit of correctness (1/0) on uncertainty under the constraint
    that accuracy never rises with uncertainty (pool adjacent violators,
    :func:`scipy.optimize.isotonic_regression`). Tied uncertainties are one
    point weighted by their count.

    Returns
    -------
    pandas.DataFrame
        One row per distinct uncertainty (ascending): ``uncertainty``, ``n``,
        ``accuracy`` (observed) and ``expected`` (the isotonic fit).

    Examples
    --------
    >>> expected_accuracy([0] * 4, [0, 1, 0, 1], [1, 2, 3, 4]).expected.tolist()
    [1.0, 0.5, 0.5, 0.0]
    """
    t = check_labels_1d("y_true", y_true)
    p = check_labels_1d("y_pred", y_pred)
    u = check_scores("uncertainty", uncertainty)
    check_same_length(y_true=t, y_pred=p, uncertainty=u)
    check_same_label_kind(y_true=t, y_pred=p)  # ints against strings: nothing would count as correct
    if u.size == 0:
        raise ValueError("y_true is empty")
    uniq, inv = np.unique(u, return_inverse=True)
    n = np.bincount(inv).astype(float)
    acc = np.bincount(inv, weights=(t == p).astype(float)) / n
    fit = isotonic_regression(acc, weights=n, increasing=False).x
    return pd.DataFrame({"uncertainty": uniq, "n": n.astype(int), "accuracy": acc, "expected": fit})


def uncertainty_threshold(y_true, y_pred, uncertainty, *, max_accuracy: float = 0.35) -> float:
    """The uncertainty from which the expected accuracy is below ``max_accuracy`` (§6.2.1).

    Van Asch changes "all predictions ... at such a distance that the
    expected accuracy drops below 35 %". The expected accuracy is the
    isotonic fit of :func:`expected_accuracy`; the threshold is the smallest
    observed uncertainty where it is below ``max_accuracy``, or ``inf`` if it
    never is. Estimate it on data other than the test set (e.g.
    leave-one-out on the training set) so the test labels are not used.

    Parameters
    ----------
    y_true, y_pred, uncertainty : array-like of shape (n,)
    max_accuracy : float in (0, 1], default 0.35

    Examples
    --------
    >>> uncertainty_threshold([0, 0, 1, 1, 1], [0, 0, 1, 0, 0], [1, 2, 3, 4, 5], max_accuracy=0.35)
    4.0
    """
    max_accuracy = check_real("max_accuracy", max_accuracy, low=0.0, low_inclusive=False, high=1.0)
    curve = expected_accuracy(y_true, y_pred, uncertainty)
    below = np.flatnonzero(curve["expected"].to_numpy() < max_accuracy)
    return float(curve["uncertainty"].iloc[below[0]]) if below.size else math.inf


def plot_accuracy_by_uncertainty(table: pd.DataFrame, *, ax=None, label: str | None = None, **style):
    """Plot :func:`accuracy_by_uncertainty` output: accuracy (%) per uncertainty bin (Figure 1).

    Each bin is drawn at the mean of its uncertainty range; returns ``ax``.
    """
    ax = require("matplotlib.pyplot").gca() if ax is None else ax
    x = (table["low"] + table["high"]) / 2
    ax.plot(x, 100 * table["accuracy"], marker="o", label=label, **style)
    return ax


def zipf_subsample(y, *, exponent: float = 1.0, minimum: int = 1, seed: int) -> np.ndarray:
    """Indices of a subsample whose class sizes follow Zipf's law, like part-of-speech tags.

    The label of rank r (1-based, in sorted label order) keeps
    ``max(minimum, round(n_r / r**exponent))`` of its ``n_r`` instances (at
    most all of them), drawn without replacement with
    ``numpy.random.default_rng(seed)``.

    Returns
    -------
    numpy.ndarray
        Sorted indices into ``y``.

    Examples
    --------
    >>> y = [0] * 12 + [1] * 12 + [2] * 12
    >>> import numpy as np
    >>> np.bincount(np.asarray(y)[zipf_subsample(y, exponent=1.0, seed=0)]).tolist()
    [12, 6, 4]
    """
    t = check_labels_1d("y", y)
    exponent = check_real("exponent", exponent, low=0.0)
    minimum = _check_int("minimum", minimum)
    if minimum < 0:
        raise ValueError(f"minimum must be >= 0, got {minimum}")
    rng = rng_from_seed(_check_int("seed", seed))  # a negative seed is refused naming seed
    keep = []
    for rank, label in enumerate(np.unique(t), start=1):
        idx = np.flatnonzero(t == label)
        k = min(idx.size, max(minimum, round(idx.size / rank ** float(exponent))))
        keep.append(rng.choice(idx, size=k, replace=False))
    return np.sort(np.concatenate(keep)) if keep else np.array([], dtype=int)


def relabel_uncertain(y_pred, uncertainty, *, threshold: float, target) -> np.ndarray:
    """CHANGED of Table 8: every prediction with uncertainty ≥ ``threshold`` becomes ``target``.

    The "boosting" of Van Asch §6.2.1: no new information is used, the
    doubtful predictions are only piled onto one label.

    Parameters
    ----------
    y_pred : array-like of shape (n,)
    uncertainty : array-like of shape (n,)
        Larger = less confident (e.g. nearest-neighbour distance).
    threshold : float
        E.g. from :func:`uncertainty_threshold`; ``inf`` changes nothing.
    target : label
        The label the doubtful predictions get (Van Asch: the most frequent tag).

    Returns
    -------
    numpy.ndarray
        A new array of predictions.

    Examples
    --------
    >>> relabel_uncertain(["a", "b", "c"], [0.1, 0.5, 0.9], threshold=0.5, target="a").tolist()
    ['a', 'a', 'a']
    """
    p = check_labels_1d("y_pred", y_pred)
    u = check_scores("uncertainty", uncertainty)
    check_same_length(y_pred=p, uncertainty=u)
    threshold = check_real("threshold", threshold, finite=False)
    check_label_kind("target", target, p, where="y_pred")  # numpy would turn [1, 2] and "a" into strings
    out = np.asarray(p, dtype=np.result_type(p, np.asarray([target]))).copy()
    out[u >= threshold] = target
    return out


def relabel_errors(y_true, y_pred, *, target) -> np.ndarray:
    """UPPER of Table 8: every *wrong* prediction becomes ``target`` (an oracle).

    The upper bound of the boosting strategy: a perfect detector of errors.
    Errors whose gold label is ``target`` become correct; no correct prediction
    is touched.

    Examples
    --------
    >>> relabel_errors(["a", "b", "c"], ["b", "b", "b"], target="a").tolist()
    ['a', 'b', 'a']
    """
    t = check_labels_1d("y_true", y_true)
    p = check_labels_1d("y_pred", y_pred)
    check_same_length(y_true=t, y_pred=p)
    check_same_label_kind(y_true=t, y_pred=p)
    check_label_kind("target", target, p if p.size else t, where="y_pred")
    out = np.asarray(p, dtype=np.result_type(p, np.asarray([target]))).copy()
    out[t != p] = target
    return out


def boosting_table(y_true, predictions: Mapping[str, object], *, labels) -> pd.DataFrame:
    """Table 8: macro-averaged precision, recall, F1 and accuracy of several predictions.

    Parameters
    ----------
    y_true : array-like of shape (n,)
    predictions : mapping name -> array-like of shape (n,)
        E.g. ``{"NORMAL": y_pred, "CHANGED": ..., "UPPER": ...}``. The first
        entry is the reference for ``gained`` and ``lost``.
    labels : sequence
        The explicit label set (§4.1), e.g. the training labels.

    Returns
    -------
    pandas.DataFrame
        Index: the names. Columns: ``precision``, ``recall`` (macro, eq. 8),
        ``f1`` (mean of the per-label F1, as in Table 8), ``f_of_averages``
        (F1 of the two macro averages), ``accuracy`` (eq. 6), ``correct`` (number
        of correct predictions), ``changed``, ``gained`` and ``lost`` (predictions
        that differ from the first entry, became correct, became wrong).

    Examples
    --------
    >>> y = ["A"] * 6 + ["B", "B", "C", "C"]
    >>> p = ["A"] * 6 + ["B", "C", "C", "B"]
    >>> table = boosting_table(y, {"NORMAL": p, "CHANGED": p[:7] + ["A", "C", "A"]}, labels=["A", "B", "C"])
    >>> table[["precision", "recall", "f1", "accuracy", "changed", "lost"]].round(4)
             precision  recall      f1  accuracy  changed  lost
    NORMAL      0.6667  0.6667  0.6667       0.8        0     0
    CHANGED     0.9167  0.6667  0.7302       0.8        2     0
    """
    t = check_labels_1d("y_true", y_true)
    if not isinstance(predictions, Mapping) or not predictions:
        raise TypeError("predictions must be a non-empty mapping name -> predicted labels")
    preds = {}
    for name, p in predictions.items():
        p = check_labels_1d(f"predictions[{name!r}]", p)
        check_same_length(y_true=t, **{f"predictions[{name!r}]": p})
        check_same_label_kind(y_true=t, **{f"predictions[{name!r}]": p})
        preds[name] = p
    labels = list(labels)
    reference = next(iter(preds.values()))
    ok0 = t == reference
    rows = {}
    for name, p in preds.items():
        s = average_scores(label_counts(t, p, labels=labels), average="macro")
        ok = t == p
        rows[name] = {
            "precision": s.precision,
            "recall": s.recall,
            "f1": s.mean_f,
            "f_of_averages": s.f_of_averages,
            "accuracy": float(ok.mean()) if ok.size else math.nan,
            "correct": int(ok.sum()),
            "changed": int((p != reference).sum()),
            "gained": int((ok & ~ok0).sum()),
            "lost": int((~ok & ok0).sum()),
        }
    return pd.DataFrame.from_dict(rows, orient="index")


def boosting_curve(y_true, y_pred, uncertainty, *, ks, target, labels) -> pd.DataFrame:
    """Relabel the ``k`` most uncertain predictions to ``target``, for each ``k``: the scores as a curve.

    The threshold of §6.2.1 picks one point of this curve (CHANGED of Table 8);
    the curve shows how far the boosting goes when more and more doubtful
    predictions are piled onto ``target``. The predictions are ranked by
    uncertainty, largest first (equal uncertainties: the earlier prediction
    first); for each ``k`` the first ``k`` become ``target``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        Gold and predicted labels (single-label).
    uncertainty : array-like of shape (n,)
        Larger = less confident (e.g. nearest-neighbour distance).
    ks : sequence of int
        Numbers of relabelled predictions, each in ``[0, n]``.
    target : label
        The label the doubtful predictions get.
    labels : sequence
        The explicit label set (§4.1).

    Returns
    -------
    pandas.DataFrame
        Index ``k``. The columns of :func:`boosting_table` (``changed``,
        ``gained``, ``lost`` relative to ``y_pred``), plus ``errors_relabelled``
        (wrong predictions among the ``k``) and ``unpredicted_labels``
        (labels of ``labels`` that are never predicted: their precision is
        0/0, counted as 0).

    Examples
    --------
    >>> y = ["A"] * 6 + ["B", "B", "C", "C"]
    >>> p = ["A"] * 6 + ["B", "C", "C", "B"]
    >>> u = [0, 0, 0, 0, 0, 0, 1, 5, 2, 4]
    >>> curve = boosting_curve(y, p, u, ks=[0, 2, 3], target="A", labels=["A", "B", "C"])
    >>> cols = ["precision", "accuracy", "errors_relabelled", "unpredicted_labels"]
    >>> curve[cols].round(4)  # doctest: +NORMALIZE_WHITESPACE
       precision  accuracy  errors_relabelled  unpredicted_labels
    k
    0     0.6667       0.8                  0                   0
    2     0.9167       0.8                  2                   0
    3     0.5556       0.7                  2                   1

    By hand: k = 2 relabels the two wrong predictions (u = 5, 4): A 6/8, B 1/1,
    C 1/1, mean 0.9167; k = 3 also the correct C (u = 2): A 6/9, B 1, C never
    predicted (0), mean 0.5556.
    """
    t = check_labels_1d("y_true", y_true)
    p = check_labels_1d("y_pred", y_pred)
    u = check_scores("uncertainty", uncertainty)
    check_same_length(y_true=t, y_pred=p, uncertainty=u)
    check_same_label_kind(y_true=t, y_pred=p)
    check_label_kind("target", target, p if p.size else t, where="y_pred")
    ks_list = []
    for i, k in enumerate(np.atleast_1d(np.asarray(ks, dtype=object))):
        k = _check_int(f"ks[{i}]", k)
        if not 0 <= k <= p.size:
            raise ValueError(f"ks[{i}]={k} must lie in [0, n = {p.size}]")
        ks_list.append(k)
    if not ks_list:
        raise ValueError("ks is empty")
    labels = list(labels)
    order = np.argsort(-u, kind="stable")  # most uncertain first; ties keep their order
    wrong = t != p
    predictions = {"reference": p}
    for k in ks_list:
        relabelled = relabel_uncertain(
            p, np.isin(np.arange(p.size), order[:k]).astype(float), threshold=1.0, target=target
        )
        predictions[f"k={k}"] = relabelled
    table = boosting_table(t, predictions, labels=labels).iloc[1:]
    table.index = pd.Index(ks_list, name="k")
    table["errors_relabelled"] = [int(wrong[order[:k]].sum()) for k in ks_list]
    table["unpredicted_labels"] = [len(set(labels) - set(predictions[f"k={k}"].tolist())) for k in ks_list]
    return table


def nearest_neighbour_boosting(
    X,
    y,
    *,
    seed: int,
    exponent: float = 1.5,
    minimum: int = 10,
    train_size: float = 0.3,
    max_accuracy: float = 0.35,
    distances=None,
) -> pd.DataFrame:
    """One run of the §6.2.1 boosting experiment with a 1-nearest-neighbour classifier: Table 8.

    1. Subsample ``y`` with Zipf-skewed class sizes (:func:`zipf_subsample`,
       ``exponent``, ``minimum``, ``seed``), as part-of-speech tags are skewed.
    2. Split the subsample with scikit-learn's ``train_test_split``
       (``train_size``, ``random_state=seed``, stratified).
    3. Predict each test instance by its nearest training instance; the
       distance is the uncertainty (Van Asch's confidence score, Figure 1).
       Among equally near training instances the first in training order wins,
       as in scikit-learn's brute-force ``KNeighborsClassifier(n_neighbors=1)``,
       so the predictions are the same as that classifier's.
    4. Estimate the threshold of "expected accuracy below ``max_accuracy``"
       without the test labels: leave-one-out 1-NN on the training set (each
       training instance predicted by its nearest *other* training instance),
       :func:`uncertainty_threshold`.
    5. NORMAL = the 1-NN predictions, CHANGED = :func:`relabel_uncertain` to
       the most frequent training label (smallest label on ties), UPPER =
       :func:`relabel_errors` to that label; :func:`boosting_table` with the
       label set of ``y`` (§4.1).

    The neighbour search only needs the distances between the instances, so
    a matrix computed once for all of ``X`` (``distances``) can be reused by
    many runs: that is what makes 100 random splits cheap.

    Parameters
    ----------
    X : array-like of shape (n, d)
        Features (used only when ``distances`` is None).
    y : array-like of shape (n,)
        Labels.
    seed : int
        Seeds the subsample and the split: an integer in [0, 2**32 - 1], the
        range scikit-learn accepts as ``random_state``.
    exponent, minimum : see :func:`zipf_subsample`
        ``exponent=0`` keeps all instances (no skew).
    train_size : float in (0, 1), default 0.3
    max_accuracy : float in (0, 1], default 0.35
        Van Asch's 35 %.
    distances : array-like of shape (n, n), optional
        Distances between the rows of ``X``. Default: Euclidean,
        ``scipy.spatial.distance.cdist(X, X)``.

    Returns
    -------
    pandas.DataFrame
        :func:`boosting_table` of NORMAL, CHANGED, UPPER; ``attrs`` holds
        ``threshold`` (distance) and ``target`` (label).

    References
    ----------
    Van Asch (2013) §6.2.1, Figure 1, Table 8.

    Examples
    --------
    >>> from sklearn.datasets import load_digits
    >>> X, y = load_digits(return_X_y=True)
    >>> table = nearest_neighbour_boosting(X, y, seed=0)
    >>> table.attrs["target"], int(table.changed["CHANGED"]), int(table.gained["CHANGED"])
    (0, 5, 0)
    """
    from scipy.spatial.distance import cdist

    train_test_split = require("sklearn.model_selection").train_test_split  # scikit-learn: the notebooks extra

    t = check_labels_1d("y", y)
    seed = _check_int("seed", seed)
    if not 0 <= seed <= _MAX_SKLEARN_SEED:  # it is also train_test_split's random_state
        raise ValueError(f"seed must lie in [0, 2**32 - 1] (it seeds scikit-learn's train_test_split too), got {seed}")
    train_size = check_real("train_size", train_size, low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    if distances is None:
        x = np.asarray(X, dtype=float)
        if x.ndim != 2:
            raise ValueError(f"X must be two-dimensional, got an array of shape {x.shape}")
        check_same_length(X=x, y=t)
        d = cdist(x, x)
    else:
        d = np.asarray(distances, dtype=float)
        if d.shape != (t.size, t.size):
            raise ValueError(f"distances must have shape (n, n) = {(t.size, t.size)}, got {d.shape}")
        if np.isnan(d).any():
            raise ValueError("distances contains NaN")
    keep = zipf_subsample(t, exponent=exponent, minimum=minimum, seed=seed)
    train, test = train_test_split(keep, train_size=train_size, random_state=seed, stratify=t[keep])
    y_tr, y_te = t[train], t[test]

    d_te = d[np.ix_(test, train)]
    nearest = d_te.argmin(axis=1)  # first minimum: ties go to the first training instance
    y_pred, distance = y_tr[nearest], d_te[np.arange(test.size), nearest]

    d_tr = d[np.ix_(train, train)]
    np.fill_diagonal(d_tr, np.inf)  # leave one out: never the instance itself
    nearest_tr = d_tr.argmin(axis=1)
    threshold = uncertainty_threshold(
        y_tr, y_tr[nearest_tr], d_tr[np.arange(train.size), nearest_tr], max_accuracy=max_accuracy
    )
    labels, sizes = np.unique(y_tr, return_counts=True)
    target = labels[np.argmax(sizes)].item()
    table = boosting_table(
        y_te,
        {
            "NORMAL": y_pred,
            "CHANGED": relabel_uncertain(y_pred, distance, threshold=threshold, target=target),
            "UPPER": relabel_errors(y_te, y_pred, target=target),
        },
        labels=np.unique(t).tolist(),
    )
    table.attrs.update(threshold=threshold, target=target)
    return table
