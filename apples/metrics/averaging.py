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
from typing import Literal, NamedTuple

import numpy as np

from apples._params import UndefinedMetricError, check_choice, divide
from apples.metrics.counts import COUNTS, Counts
from apples.metrics.f_measure import f_from_precision_recall, f_measure, precision, recall

__all__ = [
    "AVERAGES",
    "AVERAGE_POLICIES",
    "AveragedScores",
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


# -- internal helpers, shared with apples.prediction_cost (not exported) ----------------------
def check_counts_by_label(
    counts_by_label: object, name: str = "counts_by_label"
) -> tuple[list[Hashable], list[Counts]]:
    """Validate a per-label table ``{label: Counts}``; returns its labels and counts, in order.

    ``name`` is the caller's argument name, used in the messages. Internal helper
    shared with :mod:`apples.prediction_cost` (not in ``__all__``).
    """
    if not isinstance(counts_by_label, Mapping):
        raise TypeError(
            f"{name} must be a mapping label -> apples.Counts (e.g. from apples.label_counts), "
            f"got {type(counts_by_label).__name__}"
        )
    if len(counts_by_label) == 0:
        raise ValueError(f"{name} is empty; it needs at least one label")
    labels = list(counts_by_label)
    counts = [counts_by_label[k] for k in labels]
    for label, c in zip(labels, counts, strict=True):
        COUNTS(f"{name}[{label!r}]", c)
    return labels, counts


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
    >>> table3 = {"c1": Counts(3, 2, 7), "c2": Counts(1, 7, 9), "c3": Counts(6, 6, 8), "c4": Counts(6, 9, 0)}
    >>> frequencies_from_counts(table3)   # Van Asch Table 3, column f_test
    {'c1': 0.25, 'c2': 0.25, 'c3': 0.35, 'c4': 0.15}
    """
    labels, counts = check_counts_by_label(counts_by_label)
    weights = _test_frequencies(counts)
    if weights is None:
        raise UndefinedMetricError("test frequencies are undefined: no label occurs in the gold data")
    return {label: float(w) for label, w in zip(labels, weights, strict=True)}


def _test_frequencies(counts: list[Counts]) -> np.ndarray | None:
    """(tp_λ + fn_λ) / Σ (tp + fn) for each count; None where that is 0/0 (no gold label)."""
    support = np.array([c.tp + c.fn for c in counts], dtype=float)
    total = support.sum()
    return None if total == 0 else support / total


def check_frequencies(frequencies: object, labels: list[Hashable], counts: list[Counts]) -> np.ndarray | None:
    """The lfb weights f_λ (eq. 10), aligned with ``labels``; None if ``"test"`` frequencies are 0/0.

    ``frequencies`` is a mapping label -> training frequency (every label, no
    other, each finite and >= 0, summing to 1 within :data:`FREQUENCY_TOLERANCE`,
    or within ``2 · q · eps`` for numpy floats narrower than float64)
    or ``"test"`` (:func:`frequencies_from_counts`). Internal helper shared
    with :func:`apples.theory.label_weights` (not in ``__all__``).
    """
    if isinstance(frequencies, str):
        check_choice("frequencies", frequencies, ("test",))
        return _test_frequencies(counts)
    if not isinstance(frequencies, Mapping):
        raise TypeError(
            "frequencies must be a mapping label -> training-set relative frequency, or 'test'; "
            f"got {type(frequencies).__name__}"
        )
    missing = [k for k in labels if k not in frequencies]
    if missing:
        raise ValueError(f"frequencies has no entry for label(s) {missing!r}; every label needs a frequency")
    known = set(labels)
    extra = [k for k in frequencies if k not in known]
    if extra:
        raise ValueError(
            f"frequencies has label(s) {extra!r} that are not in counts_by_label; a training label absent "
            "from the test data still counts (Van Asch §4.1): add it to counts_by_label as Counts(0, 0, 0)"
        )
    values = []
    eps = np.finfo(np.float64).eps
    for k in labels:
        v = frequencies[k]
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real):
            raise TypeError(f"frequencies[{k!r}] must be a real number, got {v!r} ({type(v).__name__})")
        if isinstance(v, np.floating):
            eps = max(eps, float(np.finfo(v.dtype).eps))
        try:
            v = float(v)
        except OverflowError:  # an integer beyond float range
            raise ValueError(f"frequencies[{k!r}] must be a finite number >= 0, got {v!r}") from None
        if not math.isfinite(v) or v < 0:
            raise ValueError(f"frequencies[{k!r}] must be a finite number >= 0, got {v!r}")
        values.append(v)
    total = math.fsum(values)
    tolerance = max(FREQUENCY_TOLERANCE, 2 * len(values) * eps)
    if abs(total - 1.0) > tolerance:
        raise ValueError(
            f"frequencies must sum to 1 (relative frequencies f_λ = c_λ / n, Van Asch eq. 10), "
            f"they sum to {total!r} (tolerance {tolerance:.3g})"
        )
    return np.array(values)


def _average(values: np.ndarray, weights: np.ndarray, labels: list[Hashable], undefined: str, what: str) -> float:
    """Weighted mean of per-label values (nan = undefined) under an averaging policy."""
    keep = weights > 0
    v, w = values[keep], weights[keep]
    kept_labels = [label for label, k in zip(labels, keep, strict=True) if k]
    bad = np.isnan(v)
    if bad.any():
        if undefined == "raise":
            names = [label for label, b in zip(kept_labels, bad, strict=True) if b]
            raise UndefinedMetricError(
                f"{what} is undefined (0/0) for label(s) {names!r}; pass undefined='zero', 'skip' or 'nan' "
                "to substitute, leave out, or propagate it"
            )
        if undefined == "nan":
            return math.nan
        if undefined == "zero":
            v = np.where(bad, 0.0, v)
        else:  # skip
            v, w = v[~bad], w[~bad]
            if v.size == 0:
                return math.nan
    return float(np.average(v, weights=w))


def average_scores(
    counts_by_label: Mapping[Hashable, Counts],
    *,
    average: Literal["macro", "micro", "lfb"],
    frequencies: Mapping[Hashable, float] | Literal["test"] | None = None,
    undefined: Literal["zero", "skip", "nan", "raise"] = "zero",
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

    References
    ----------
    Van Asch (2013), §3.1 eq. (8), §3.2 eq. (9), §3.3 eq. (10), §3.3.2, §4.1.

    Examples
    --------
    Van Asch Table 3 (training frequencies differ from the test frequencies):

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
    labels, counts = check_counts_by_label(counts_by_label)
    check_choice("average", average, AVERAGES)
    check_choice("undefined", undefined, AVERAGE_POLICIES)
    if average == "lfb" and frequencies is None:
        raise ValueError("average='lfb' needs frequencies: a mapping of training-set frequencies, or 'test'")
    if average != "lfb" and frequencies is not None:
        raise ValueError(f"frequencies is only used by average='lfb', not average={average!r}; leave it None")
    scalar_policy = "nan" if undefined == "skip" else undefined

    if average == "micro":
        pooled = sum(counts, Counts(0, 0, 0))
        p = precision(pooled, undefined=scalar_policy)
        r = recall(pooled, undefined=scalar_policy)
        f = f_measure(pooled, undefined=scalar_policy)
        return AveragedScores(p, r, f, f)

    weights: np.ndarray | None
    if average == "macro":
        weights = np.ones(len(labels))
    else:
        weights = check_frequencies(frequencies, labels, counts)
        if weights is None:  # "test" frequencies with no gold labels: the average itself is 0/0
            v = divide(0.0, 0.0, undefined=scalar_policy, what="lfb with test frequencies (no gold labels)")
            return AveragedScores(v, v, v, v)

    per_p = np.array([precision(c, undefined="nan") for c in counts])
    per_r = np.array([recall(c, undefined="nan") for c in counts])
    per_f = np.array([f_measure(c, undefined="nan") for c in counts])
    p = _average(per_p, weights, labels, undefined, f"{average} precision: precision (TP + FP = 0)")
    r = _average(per_r, weights, labels, undefined, f"{average} recall: recall (TP + FN = 0)")
    mean_f = _average(per_f, weights, labels, undefined, f"{average} mean F: F (TP = FP = FN = 0)")
    f_avg = math.nan if math.isnan(p) or math.isnan(r) else f_from_precision_recall(p, r, undefined=scalar_policy)
    return AveragedScores(p, r, f_avg, mean_f)


def averaging_table(
    counts_by_label: Mapping[Hashable, Counts],
    *,
    frequencies: Mapping[Hashable, float] | Literal["test"] | None = None,
    undefined: Literal["zero", "skip", "nan", "raise"] = "zero",
):
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
    >>> t = averaging_table({"c1": Counts(10, 10, 10), "c2": Counts(90, 10, 10)})   # Table 2
    >>> print(t[["precision", "recall"]].round(2).to_string())
                    precision  recall
    c1                   0.50    0.50
    c2                   0.90    0.90
    total                 NaN     NaN
    macro-averaged       0.70    0.70
    micro-averaged       0.83    0.83
    """
    import pandas as pd

    labels, counts = check_counts_by_label(counts_by_label)
    check_choice("undefined", undefined, AVERAGE_POLICIES)
    if frequencies is not None:  # validated before its values are used for the f_train column
        check_frequencies(frequencies, labels, counts)
    per_label = "nan" if undefined == "skip" else undefined
    rows = {}
    f_test = _test_frequencies(counts)
    for i, (label, c) in enumerate(zip(labels, counts, strict=True)):
        rows[label] = {
            "tp": c.tp,
            "fp": c.fp,
            "fn": c.fn,
            "precision": precision(c, undefined=per_label),
            "recall": recall(c, undefined=per_label),
            "F": f_measure(c, undefined=per_label),
            "f_test": math.nan if f_test is None else float(f_test[i]),
        }
    total = sum(counts, Counts(0, 0, 0))
    rows["total"] = {"tp": total.tp, "fp": total.fp, "fn": total.fn, "f_test": math.nan if f_test is None else 1.0}
    if isinstance(frequencies, Mapping):
        for label in labels:
            rows[label]["f_train"] = float(frequencies.get(label, math.nan))
        rows["total"]["f_train"] = math.fsum(float(v) for v in frequencies.values())
    averages: list[tuple[str, Literal["macro", "micro", "lfb"], Mapping[Hashable, float] | Literal["test"] | None]]
    averages = [("macro-averaged", "macro", None), ("micro-averaged", "micro", None)]
    if frequencies is not None:
        averages.append(("lfb-micro-averaged", "lfb", frequencies))
    for name, how, freq in averages:
        s = average_scores(counts_by_label, average=how, frequencies=freq, undefined=undefined)
        rows[name] = {"precision": s.precision, "recall": s.recall, "F": s.mean_f, "F(P,R)": s.f_of_averages}
    columns = ["tp", "fp", "fn", "precision", "recall", "F", "F(P,R)", "f_test"]
    if isinstance(frequencies, Mapping):
        columns.append("f_train")
    table = pd.DataFrame.from_dict(rows, orient="index").reindex(columns=columns)
    for col in ("tp", "fp", "fn"):  # integers where counted, NaN (empty) in the average rows
        table[col] = pd.Series([math.nan if v != v else int(v) for v in table[col]], index=table.index, dtype=object)
    return table
