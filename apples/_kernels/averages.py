"""Van Asch's (2013, §3) averages of per-label precision, recall and F, for many count tables at once.

Counts come as arrays with the labels on the last axis (shape ``(..., q)``): one table, the tables
of every fold, or ten thousand bootstrap replicates. A per-label value that is 0/0 is NaN; what it
does to an average is the policy (:mod:`apples._params.undefined`):

* ``"zero"``: it counts as 0 and keeps its weight (scikit-learn's ``zero_division=0``, Van Asch §4.1);
* ``"skip"``: it leaves the average, whose other weights are renormalised (``zero_division=np.nan``);
* ``"nan"``: the average is NaN as soon as one weighted value is undefined.

A label of weight 0 contributes nothing under any policy. Micro averaging pools the counts
(eq. 9); its only 0/0 is a pooled one, which ``"zero"`` makes 0 and the others NaN.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from apples._kernels.f_measure import f_of_counts, f_of_rates, ratio

__all__ = [
    "Averages",
    "label_averages",
    "support_frequencies",
    "weighted_mean",
]


class Averages(NamedTuple):
    """Averaged precision, recall, F of the averaged precision and recall (eq. 3), mean of per-label F (eq. 4)."""

    precision: np.ndarray
    recall: np.ndarray
    f_of_averages: np.ndarray
    mean_f: np.ndarray


def support_frequencies(tp: np.ndarray, fn: np.ndarray) -> np.ndarray:
    """Van Asch's f_λ^test (§3.3.2), ``(tp_λ + fn_λ) / Σ (tp + fn)`` over the last axis; NaN without gold labels.

    >>> support_frequencies(np.array([3, 1]), np.array([1, 3])).tolist()
    [0.5, 0.5]
    """
    support = np.asarray(tp, dtype=float) + np.asarray(fn, dtype=float)
    return ratio(support, support.sum(axis=-1, keepdims=True))


def weighted_mean(values: np.ndarray, weights: np.ndarray, undefined: str) -> np.ndarray:
    """The weighted mean over the last axis of values that are NaN where undefined, under a 0/0 policy."""
    weights = np.broadcast_to(np.asarray(weights, dtype=float), values.shape)
    bad = np.isnan(values) & (weights > 0)
    filled = np.where(np.isnan(values), 0.0, values)
    if undefined == "skip":
        weights = np.where(bad, 0.0, weights)
    mean = ratio((weights * filled).sum(axis=-1), weights.sum(axis=-1))
    if undefined == "nan":
        mean = np.where(bad.any(axis=-1), np.nan, mean)
    return mean


def label_averages(
    tp: np.ndarray,
    fp: np.ndarray,
    fn: np.ndarray,
    *,
    average: str,
    weights: np.ndarray | None,
    undefined: str,
    beta: float = 1.0,
) -> Averages:
    """Macro (eq. 8), micro (eq. 9) or weighted (lfb, eq. 10) averages of count tables, labels on the last axis.

    ``weights`` are the label weights of lfb (frequencies, shape ``(q,)`` or like ``tp``); None for
    macro (all 1) and micro (unused). Where the weights sum to 0 ("test" frequencies without a gold
    label), every average is itself 0/0.

    Examples
    --------
    Van Asch Table 3, macro and micro:

    >>> tp, fp, fn = np.array([3, 1, 6, 6]), np.array([2, 7, 6, 9]), np.array([7, 9, 8, 0])
    >>> [round(float(v), 3) for v in label_averages(tp, fp, fn, average="macro", weights=None, undefined="zero")]
    [0.406, 0.457, 0.43, 0.386]
    >>> [round(float(v), 3) for v in label_averages(tp, fp, fn, average="micro", weights=None, undefined="zero")]
    [0.4, 0.4, 0.4, 0.4]
    """
    tp, fp, fn = (np.asarray(a, dtype=float) for a in (tp, fp, fn))
    if average == "micro":
        t, p, n = tp.sum(axis=-1), fp.sum(axis=-1), fn.sum(axis=-1)
        values = [ratio(t, t + p), ratio(t, t + n), f_of_counts(t, p, n, beta)]
        if undefined == "zero":
            values = [np.where(np.isnan(v), 0.0, v) for v in values]
        return Averages(values[0], values[1], values[2], values[2])
    w = np.ones(tp.shape[-1]) if weights is None else np.asarray(weights, dtype=float)
    precision = weighted_mean(ratio(tp, tp + fp), w, undefined)
    recall = weighted_mean(ratio(tp, tp + fn), w, undefined)
    mean_f = weighted_mean(f_of_counts(tp, fp, fn, beta), w, undefined)
    f_of_averages = f_of_rates(precision, recall, beta)
    if undefined == "zero":
        none_left = np.broadcast_to(w, tp.shape).sum(axis=-1) == 0
        precision, recall, mean_f = (np.where(none_left, 0.0, v) for v in (precision, recall, mean_f))
        f_of_averages = np.where(np.isnan(f_of_averages), 0.0, f_of_averages)
    return Averages(precision, recall, f_of_averages, mean_f)
