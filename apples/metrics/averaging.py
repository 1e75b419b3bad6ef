"""Averaging per-label scores: macro, micro and label-frequency-based (lfb).

Introduced in notebook 05. Van Asch (2013) §3: with several labels there is
one binary confusion count per label (his Table 1 per label) and three ways
to turn them into one score:

=========  ==============  ===========================================================
average    Van Asch        computation
=========  ==============  ===========================================================
"macro"    eq. (8)         unweighted mean of the per-label scores, 1/q · Σ B_λ
"micro"    eq. (9)         the score of the pooled counts B(Σ tp_λ, Σ fp_λ, Σ fn_λ)
"lfb"      eq. (10)        Σ f_λ · B_λ, f_λ the relative label frequency in the
                           *training* data (§3.3), or in the test data (§3.3.2)
=========  ==============  ===========================================================

Eq. (10) as printed reads ``B(tp_λ, fp_λ, tp_λ, fn_λ)``; the third argument
is a typo for ``tn_λ`` (compare eqs. 8 and 9). scikit-learn's
``average="weighted"`` is lfb with test-set frequencies (``frequencies="test"``);
scikit-learn has no training-frequency option.

Two F-measures of an average
----------------------------
:func:`average_scores` reports both, because they differ:

* ``f_of_averages``: eq. (3) applied to the averaged precision and recall;
* ``mean_f``: the same average (eq. 8, 9 or 10) applied to the per-label F
  of eq. (4), which is what scikit-learn's ``f1_score(average=...)`` returns.

For ``"micro"`` they coincide (both are the F of the pooled counts).

The label set and undefined per-label values (§4.1)
---------------------------------------------------
The label set is exactly the keys of ``counts_by_label``. A label of the
training data that does not occur in the test data belongs there, with
``Counts(0, 0, 0)`` if it is not predicted either; its precision, recall and
F are then 0/0. Per label:

=========================================  =========  =========  =====
situation of label λ in the test data      precision  recall     F
=========================================  =========  =========  =====
absent from gold and predictions           undefined  undefined  undefined
absent from gold, predicted (fp > 0)       0          undefined  0
in gold, never predicted                   undefined  0          0
=========================================  =========  =========  =====

What an undefined per-label value does to the average is the ``undefined``
policy:

* ``"zero"`` (default): it counts as 0 and keeps its weight (1/q for macro).
  This is scikit-learn's ``zero_division=0`` and Van Asch's recommendation of
  §4.1: the training label set, so a missing label pulls the macro average down.
* ``"skip"``: it is left out and the remaining weights are renormalised, so
  the label set silently shrinks to the labels where the value is defined;
  scikit-learn's ``zero_division=np.nan``, with one difference (below). For
  macro F this is the §4.1 pitfall (sum of F 1.8 over 2 labels gives 0.9
  instead of 0.6 over 3).
* ``"nan"``: the average is ``nan`` as soon as one weighted value is undefined.
* ``"raise"``: :class:`~apples.UndefinedMetricError` naming the labels.

A label with weight 0 (lfb frequency 0, e.g. a label absent from the test
gold with ``frequencies="test"``) contributes nothing under every policy, and
micro averaging pools counts, so a label with ``Counts(0, 0, 0)`` never
changes it. Where the average itself is 0/0 (micro with no predictions at
all, or ``frequencies="test"`` with no gold labels) the policy applies to the
averaged value; ``"skip"`` then gives ``nan``.

``"skip"`` and scikit-learn's ``zero_division=np.nan`` differ in one case,
with weights (``average="lfb", frequencies="test"``, scikit-learn's
``average="weighted"``): when every weighted label's value is undefined and
the only defined values belong to labels of weight 0. Here nothing with
weight is left, and the average is ``nan``; scikit-learn's weighted mean of
the defined values is 0/0 in weight, and it falls back to their *unweighted*
mean, so labels absent from the test gold, which its own weighting excludes,
decide the result. Example: ``y_true=[1], y_pred=[2]``: precision of label 1
(weight 1) is undefined, precision of label 2 (weight 0) is 0; here ``nan``,
scikit-learn 0.0. Macro and micro averages, and every other weighted case,
agree.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Hashable, Mapping
from typing import Any, Literal, NamedTuple

import numpy as np
import pandas as pd

from apples._kernels.averages import label_averages, support_frequencies
from apples._kernels.f_measure import f_of_counts, ratio
from apples._params import (
    Kind,
    Nullable,
    Options,
    ParameterValueError,
    Policy,
    Relation,
    Undefined,
    check_choice,
    declare,
    resolve,
)
from apples.metrics.counts import COUNTS_BY_LABEL, Counts

__all__ = [
    "AVERAGES",
    "AVERAGE_POLICIES",
    "AveragedScores",
    "FrequenciesCover",
    "average_scores",
    "averaging_table",
    "frequencies_from_counts",
]

#: The averaging methods of Van Asch §3: eq. (8), eq. (9), eq. (10).
AVERAGES: tuple[str, ...] = ("macro", "micro", "lfb")

#: Policies for undefined per-label values inside an average.
AVERAGE_POLICIES: tuple[str, ...] = ("zero", "skip", "nan", "raise")

#: Absolute tolerance on ``sum(frequencies) == 1`` for float64 (and Python) numbers. Narrower
#: floats get ``2 · q · eps`` of their type instead when that is larger (q labels; float32:
#: eps = 1.2e-7), the rounding a sum of q such numbers can carry.
FREQUENCY_TOLERANCE = 1e-9


class AveragedScores(NamedTuple):
    """Averaged precision, recall and the two F-measures of an average.

    Attributes
    ----------
    precision, recall : float
        The averaged precision and recall.
    f_of_averages : float
        F1 of the averaged precision and recall (Van Asch eq. 3).
    mean_f : float
        The same average taken over the per-label F1 (eq. 4).
    """

    precision: float
    recall: float
    f_of_averages: float
    mean_f: float


# -- the kinds of the label-average parameters --------------------------------------------------
class _Frequencies(Kind):
    """lfb weights: a mapping label -> relative frequency (finite, >= 0, summing to 1), or ``"test"``."""

    what = "a mapping label -> training-set relative frequency, or 'test'"

    def check(self, name: str, value: object) -> dict[Hashable, float] | str:
        if isinstance(value, str):
            return check_choice(name, value, ("test",))
        if not isinstance(value, Mapping):
            raise TypeError(f"{name} must be {self.what}; got {type(value).__name__}")
        out: dict[Hashable, float] = {}
        eps = np.finfo(np.float64).eps
        for k, v in value.items():
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real):
                raise TypeError(f"{name}[{k!r}] must be a real number, got {v!r} ({type(v).__name__})")
            if isinstance(v, np.floating):
                eps = max(eps, float(np.finfo(v.dtype).eps))
            try:
                f = float(v)
            except OverflowError:  # an integer beyond float range
                raise ValueError(f"{name}[{k!r}] must be a finite number >= 0, got {v!r}") from None
            if not math.isfinite(f) or f < 0:
                raise ValueError(f"{name}[{k!r}] must be a finite number >= 0, got {v!r}")
            out[k] = f
        total = math.fsum(out.values())
        tolerance = max(FREQUENCY_TOLERANCE, 2 * len(out) * eps)
        if abs(total - 1.0) > tolerance:
            raise ValueError(
                f"{name} must sum to 1 (relative frequencies f_λ = c_λ / n, Van Asch eq. 10), "
                f"they sum to {total!r} (tolerance {tolerance:.3g})"
            )
        return out


#: The kind of ``frequencies=``: a mapping label -> training-set relative frequency f_λ (every value
#: finite and >= 0, summing to 1 within :data:`FREQUENCY_TOLERANCE`, or ``2 · q · eps`` for numpy
#: floats narrower than float64), or ``"test"`` for the test-set frequencies (§3.3.2).
FREQUENCIES = _Frequencies()


class FrequenciesCover(Relation):
    """Training frequencies (a mapping) have an entry for exactly the labels of a per-label table.

    ``FrequenciesCover("frequencies", "counts_by_label")``: a label of the table without a frequency
    is an error, and so is a frequency of a label the table lacks (a training label absent from the
    test data still counts, Van Asch §4.1: it belongs in the table as ``Counts(0, 0, 0)``).
    ``"test"`` frequencies cover every label.
    """

    def __init__(self, frequencies: str, counts_by_label: str) -> None:
        self.names = (frequencies, counts_by_label)

    def check(self, values: Mapping[str, Any]) -> None:
        name, table_name = self.names
        if name not in values or table_name not in values or not isinstance(values[name], Mapping):
            return
        frequencies, table = values[name], values[table_name]
        missing = [k for k in table if k not in frequencies]
        if missing:
            raise ValueError(f"{name} has no entry for label(s) {missing!r}; every label needs a frequency")
        extra = [k for k in frequencies if k not in table]
        if extra:
            raise ValueError(
                f"{name} has label(s) {extra!r} that are not in {table_name}; a training label absent "
                f"from the test data still counts (Van Asch §4.1): add it to {table_name} as Counts(0, 0, 0)"
            )


_COVER = FrequenciesCover("frequencies", "counts_by_label")
_AVERAGE_POLICY = Undefined("zero", "skip", "nan", "raise")


# -- the bodies' helpers ----------------------------------------------------------------------------
def _arrays(table: Mapping[Hashable, Counts]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """TP, FP and FN of each label, in the table's order."""
    counts = np.array([(c.tp, c.fp, c.fn) for c in table.values()], dtype=np.int64).reshape(-1, 3)
    return counts[:, 0], counts[:, 1], counts[:, 2]


def _weights(frequencies: Mapping[Hashable, float] | str, table: Mapping[Hashable, Counts]) -> np.ndarray:
    """The lfb weight of each label of the table: its training frequency, or its test frequency (NaN if 0/0)."""
    if isinstance(frequencies, str):  # "test"
        tp, _, fn = _arrays(table)
        return support_frequencies(tp, fn)
    return np.array([frequencies[k] for k in table], dtype=float)


def _undefined_labels(values: np.ndarray, weights: np.ndarray | None, labels: list[Hashable]) -> list[Hashable]:
    """The labels of weight > 0 whose per-label value is 0/0."""
    bad = np.isnan(values) & (True if weights is None else weights > 0)
    return [label for label, b in zip(labels, bad, strict=True) if b]


def _averages(
    table: Mapping[Hashable, Counts],
    average: str,
    frequencies: Mapping[Hashable, float] | str | None,
    undefined: str,
) -> AveragedScores:
    """One average of a checked table by the kernel, and the ``"raise"`` policy's error naming the labels."""
    labels = list(table)
    tp, fp, fn = _arrays(table)
    policy = "nan" if undefined == "raise" else undefined
    weights = None if frequencies is None else _weights(frequencies, table)
    if weights is not None and np.isnan(weights).any():  # "test" frequencies without a gold label: 0/0
        v = resolve(math.nan, undefined, what="lfb with test frequencies (no gold labels)")
        return AveragedScores(v, v, v, v)
    a = label_averages(tp, fp, fn, average=average, weights=weights, undefined=policy)
    if undefined == "raise" and average == "micro":
        whats = ("precision (TP + FP = 0)", "recall (TP + FN = 0)", "F (TP = FP = FN = 0)")
        for value, what in zip(a[:3], whats, strict=True):
            resolve(value, "raise", what=f"micro {what}", hint=_RAISE_HINT)
    elif undefined == "raise":
        per_label = (ratio(tp, tp + fp), ratio(tp, tp + fn), f_of_counts(tp, fp, fn))
        whats = ("precision: precision (TP + FP = 0)", "recall: recall (TP + FN = 0)", "mean F: F (TP = FP = FN = 0)")
        for values, what in zip(per_label, whats, strict=True):
            bad = _undefined_labels(values, weights, labels)
            if bad:
                resolve(math.nan, "raise", what=f"{average} {what} for label(s) {bad!r}", hint=_RAISE_HINT)
        resolve(a.f_of_averages, "raise", what=f"{average} F of the averaged precision and recall (both 0)")
    return AveragedScores(*(float(v) for v in a))


_RAISE_HINT = "pass undefined='zero', 'skip' or 'nan' to substitute, leave out, or propagate it"


@declare(counts_by_label=COUNTS_BY_LABEL)
def frequencies_from_counts(counts_by_label: Mapping[Hashable, Counts]) -> dict[Hashable, float]:
    """Relative label frequencies in the test data, (tp_λ + fn_λ) / Σ (tp + fn).

    These are Van Asch's f_λ^test (Tables 3–5, §3.3.2) and scikit-learn's
    ``average="weighted"`` weights (the support). For multi-label data this is
    each label's share of the gold label *occurrences*, so the frequencies sum
    to 1.

    Raises
    ------
    UndefinedMetricError
        If no label occurs in the gold data (Σ (tp + fn) = 0).

    Examples
    --------
    >>> from apples import Counts
    >>> from apples.metrics import frequencies_from_counts
    >>> table3 = {"c1": Counts(3, 2, 7), "c2": Counts(1, 7, 9), "c3": Counts(6, 6, 8), "c4": Counts(6, 9, 0)}
    >>> frequencies_from_counts(table3)   # Van Asch Table 3, column f_test
    {'c1': 0.25, 'c2': 0.25, 'c3': 0.35, 'c4': 0.15}
    """
    tp, _, fn = _arrays(counts_by_label)
    weights = resolve(
        support_frequencies(tp, fn), "raise", what="the test frequencies", hint="no label occurs in the gold data"
    )
    return {label: float(w) for label, w in zip(counts_by_label, weights, strict=True)}


@declare(
    counts_by_label=COUNTS_BY_LABEL,
    average=Options(*AVERAGES),
    frequencies=Nullable(FREQUENCIES),
    undefined=_AVERAGE_POLICY,
    relations=[_COVER],
)
def average_scores(
    counts_by_label: Mapping[Hashable, Counts],
    *,
    average: Literal["macro", "micro", "lfb"],
    frequencies: Mapping[Hashable, float] | Literal["test"] | None = None,
    undefined: Policy = "zero",
) -> AveragedScores:
    """Macro-, micro- or lfb-averaged precision, recall and F1 (Van Asch §3).

    Parameters
    ----------
    counts_by_label : mapping label -> Counts
        One binary confusion count per label (e.g. from
        :func:`apples.label_counts`). Its keys *are* the label set q of
        eq. (8): include training labels absent from the test data (§4.1).
    average : {"macro", "micro", "lfb"}
        Eq. (8), eq. (9) or eq. (10).
    frequencies : mapping label -> float, or "test", optional
        Only for ``average="lfb"`` (required there, rejected otherwise): the
        relative frequency f_λ = c_λ / n of each label in the training data,
        for every label and summing to 1 (within 1e-9; float32 values within
        ``2 · q · 1.2e-7`` for q labels), or ``"test"`` for
        the test-set frequencies (tp_λ + fn_λ) / Σ (tp + fn) of §3.3.2,
        which is scikit-learn's ``average="weighted"``.
    undefined : {"zero", "skip", "nan", "raise"}, default "zero"
        What an undefined (0/0) per-label value does to the average; see the
        module docstring. ``"zero"`` equals scikit-learn's
        ``zero_division=0``, ``"skip"`` its ``zero_division=np.nan``, except
        with test frequencies where only labels of weight 0 have a defined
        value: ``nan`` here, scikit-learn's unweighted mean of those values
        (see the module docstring).

    Returns
    -------
    AveragedScores
        ``(precision, recall, f_of_averages, mean_f)``: ``f_of_averages`` is
        F1 (eq. 3) of the averaged precision and recall, ``mean_f`` the
        average of the per-label F1 (eq. 4). They coincide for ``"micro"``.

    Raises
    ------
    TypeError
        ``counts_by_label`` not a mapping of Counts, a non-real frequency.
    ValueError
        Unknown ``average`` or ``undefined``; ``frequencies`` missing for lfb
        or given for macro/micro; a frequency missing, negative, for a label
        not in ``counts_by_label``, or frequencies not summing to 1.
    UndefinedMetricError
        With ``undefined="raise"``, where a weighted value is 0/0.

    See Also
    --------
    sklearn.metrics.precision_recall_fscore_support : the macro and micro averages, and lfb with
        test frequencies (``average="weighted"``), from labels; here from
        ``apples.label_counts(y_true, y_pred)``.

    References
    ----------
    Van Asch (2013), §3.1 eq. (8), §3.2 eq. (9), §3.3 eq. (10), §3.3.2, §4.1.

    Examples
    --------
    Van Asch Table 3 (training frequencies differ from the test frequencies):

    >>> from apples import Counts, average_scores
    >>> table3 = {"c1": Counts(3, 2, 7), "c2": Counts(1, 7, 9), "c3": Counts(6, 6, 8), "c4": Counts(6, 9, 0)}
    >>> train = {"c1": 0.1, "c2": 0.2, "c3": 0.3, "c4": 0.4}
    >>> s = average_scores(table3, average="macro")
    >>> round(s.precision, 3), round(s.recall, 3)
    (0.406, 0.457)
    >>> s = average_scores(table3, average="micro")
    >>> round(s.precision, 3), round(s.recall, 3)
    (0.4, 0.4)
    >>> s = average_scores(table3, average="lfb", frequencies=train)
    >>> round(s.precision, 3), round(s.recall, 3)
    (0.395, 0.579)
    >>> s = average_scores(table3, average="lfb", frequencies="test")   # Table 4
    >>> round(s.precision, 3), round(s.recall, 3)
    (0.416, 0.4)
    """
    if average == "lfb" and frequencies is None:
        raise ParameterValueError(
            "average='lfb' needs frequencies: a mapping of training-set frequencies, or 'test'", param="frequencies"
        )
    if average != "lfb" and frequencies is not None:
        raise ParameterValueError(
            f"frequencies is only used by average='lfb', not average={average!r}; leave it None", param="frequencies"
        )
    return _averages(counts_by_label, average, frequencies, undefined)


@declare(
    counts_by_label=COUNTS_BY_LABEL,
    frequencies=Nullable(FREQUENCIES),
    undefined=_AVERAGE_POLICY,
    relations=[_COVER],
)
def averaging_table(
    counts_by_label: Mapping[Hashable, Counts],
    *,
    frequencies: Mapping[Hashable, float] | Literal["test"] | None = None,
    undefined: Policy = "zero",
) -> pd.DataFrame:
    """A table laid out like Van Asch Tables 2–5: per-label rows, a total, and the averages.

    Parameters
    ----------
    counts_by_label : mapping label -> Counts
        As in :func:`average_scores`.
    frequencies : mapping, "test" or None
        If given, an ``f_train`` column (a mapping) and an
        ``lfb-micro-averaged`` row (eq. 10) are added.
    undefined : {"zero", "skip", "nan", "raise"}, default "zero"
        Policy for per-label 0/0 (``"skip"`` shows them as NaN) and for the averages.

    Returns
    -------
    pandas.DataFrame
        Columns ``tp, fp, fn, precision, recall, F, f_test`` (+ ``f_train``) and
        ``F(P,R)``; rows: the labels, ``total``, ``macro-averaged``,
        ``micro-averaged`` (+ ``lfb-micro-averaged``). ``F`` of an average row
        is the average of the per-label F (``mean_f``), ``F(P,R)`` the F of its
        averaged precision and recall (``f_of_averages``). Empty cells are NaN.

    Examples
    --------
    >>> from apples import Counts, averaging_table
    >>> t = averaging_table({"c1": Counts(10, 10, 10), "c2": Counts(90, 10, 10)})   # Table 2
    >>> print(t[["precision", "recall"]].round(2).to_string())
                    precision  recall
    c1                   0.50    0.50
    c2                   0.90    0.90
    total                 NaN     NaN
    macro-averaged       0.70    0.70
    micro-averaged       0.83    0.83
    """
    table = counts_by_label
    labels = list(table)
    tp, fp, fn = _arrays(table)
    policy = "nan" if undefined == "skip" else undefined
    per_label = {
        "precision": resolve(ratio(tp, tp + fp), policy, what="precision (TP + FP = 0)"),
        "recall": resolve(ratio(tp, tp + fn), policy, what="recall (TP + FN = 0)"),
        "F": resolve(f_of_counts(tp, fp, fn), policy, what="F (TP = FP = FN = 0)"),
    }
    f_test = support_frequencies(tp, fn)  # NaN without a gold label
    rows: dict[Hashable, dict[str, Any]] = {}
    for i, label in enumerate(labels):
        rows[label] = {"tp": int(tp[i]), "fp": int(fp[i]), "fn": int(fn[i])}
        rows[label].update({k: float(v[i]) for k, v in per_label.items()})
        rows[label]["f_test"] = float(f_test[i])
    rows["total"] = {
        "tp": int(tp.sum()),
        "fp": int(fp.sum()),
        "fn": int(fn.sum()),
        "f_test": math.nan if np.isnan(f_test).any() else 1.0,
    }
    if isinstance(frequencies, Mapping):
        for label in labels:
            rows[label]["f_train"] = float(frequencies.get(label, math.nan))
        rows["total"]["f_train"] = math.fsum(float(v) for v in frequencies.values())
    averages: list[tuple[str, str, Mapping[Hashable, float] | str | None]]
    averages = [("macro-averaged", "macro", None), ("micro-averaged", "micro", None)]
    if frequencies is not None:
        averages.append(("lfb-micro-averaged", "lfb", frequencies))
    for name, how, freq in averages:
        s = _averages(table, how, freq, undefined)
        rows[name] = {"precision": s.precision, "recall": s.recall, "F": s.mean_f, "F(P,R)": s.f_of_averages}
    columns = ["tp", "fp", "fn", "precision", "recall", "F", "F(P,R)", "f_test"]
    if isinstance(frequencies, Mapping):
        columns.append("f_train")
    frame = pd.DataFrame.from_dict(rows, orient="index").reindex(columns=columns)
    for col in ("tp", "fp", "fn"):  # integers where counted, NaN (empty) in the average rows
        frame[col] = pd.Series([math.nan if v != v else int(v) for v in frame[col]], index=frame.index, dtype=object)
    return frame
