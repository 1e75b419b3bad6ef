"""F_beta of confusion counts, and the F aggregations over folds of Forman & Scholz (2010) §2.3.

Every function takes counts as arrays (any shape; folds on the last axis for the aggregations),
so one definition serves a single fold, a cross-validation, and ten thousand bootstrap replicates
of one (shape ``(replicates, folds)``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

__all__ = [
    "FoldSums",
    "FoldValues",
    "cv_f",
    "cv_f_of_sums",
    "f_beta_weights",
    "f_of_counts",
    "f_of_rates",
    "fold_sums",
    "fold_values",
    "ratio",
    "sum_folds",
]


def f_beta_weights(beta: float) -> tuple[float, float]:
    """The weights ``(w_fn, w_fp)`` with ``F_beta = TP / (TP + w_fn·FN + w_fp·FP)``.

    Dividing eq. (2)'s numerator and denominator by ``1 + β²`` gives ``w_fn = β²/(1 + β²)`` and
    ``w_fp = 1/(1 + β²)``, which add to 1. They are computed from ``β`` or ``1/β``, whichever is at
    most 1, so ``β²`` never overflows: ``β = inf`` gives ``(1, 0)`` (recall), ``β = 0`` gives
    ``(0, 1)`` (precision), and at ``β = 1`` both are exactly 0.5, so F1 is ``2TP/(2TP + FP + FN)``
    bit for bit.

    >>> f_beta_weights(1.0), f_beta_weights(0.0), f_beta_weights(float("inf"))
    ((0.5, 0.5), (0.0, 1.0), (1.0, 0.0))
    """
    if beta <= 1.0:
        b2 = beta * beta
        w_fp = 1.0 / (1.0 + b2)
        return b2 * w_fp, w_fp
    inv2 = (1.0 / beta) ** 2
    w_fn = 1.0 / (1.0 + inv2)
    return w_fn, inv2 * w_fn


def ratio(num: ArrayLike, den: ArrayLike) -> np.ndarray:
    """``num / den`` as float64, NaN where ``den == 0``, without a RuntimeWarning."""
    num_a = np.asarray(num, dtype=float)
    den_a = np.asarray(den, dtype=float)
    zero = den_a == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(zero, np.nan, num_a / np.where(zero, 1.0, den_a))


def f_of_counts(tp: ArrayLike, fp: ArrayLike, fn: ArrayLike, beta: float = 1.0) -> np.ndarray:
    """F_beta by eq. (2) of Forman & Scholz (Van Asch eq. 4), NaN where it is 0/0.

    Eq. (2) divided through by ``1 + β²`` (:func:`f_beta_weights`): no overflow for any β. It is 0/0
    only at TP = FP = FN = 0 for ``0 < β < inf``; ``β = 0`` is precision, 0/0 at TP + FP = 0, and
    ``β = inf`` recall, 0/0 at TP + FN = 0. Where TP = 0 and FP + FN > 0 it is exactly 0 for
    ``0 < β < inf``, even when ``β²/(1 + β²)`` underflows (β < 1e-162).
    """
    w_fn, w_fp = f_beta_weights(beta)
    tp_a = np.asarray(tp, dtype=float)
    fp_a, fn_a = np.asarray(fp, dtype=float), np.asarray(fn, dtype=float)
    f = ratio(tp_a, tp_a + w_fn * fn_a + w_fp * fp_a)
    if 0.0 < beta < np.inf:
        f = np.where((tp_a == 0) & (fp_a + fn_a > 0), 0.0, f)
    return f


def f_of_rates(precision: ArrayLike, recall: ArrayLike, beta: float = 1.0) -> np.ndarray:
    """F_beta by eq. (1), the weighted harmonic mean, NaN where it is 0/0.

    It is 0/0 where either rate is NaN (undefined) or both are 0. ``β = 0`` is the precision and
    ``β = inf`` the recall, whatever the other is (scikit-learn's ``fbeta_score``); where one rate
    is 0 and the other positive it is exactly 0 for ``0 < β < inf``.
    """
    p, r = np.asarray(precision, dtype=float), np.asarray(recall, dtype=float)
    if beta == 0.0:
        return p + 0.0 * np.zeros_like(r)
    if beta == np.inf:
        return r + 0.0 * np.zeros_like(p)
    w_fn, w_fp = f_beta_weights(beta)
    f = ratio(p * r, w_fn * p + w_fp * r)
    return np.where((p * r == 0) & (p + r > 0), 0.0, f)


class FoldValues(NamedTuple):
    """Each fold's F_beta, precision and recall (0 where undefined) and whether its V^(i) = 1 (§2.3)."""

    f: np.ndarray
    precision: np.ndarray
    recall: np.ndarray
    valid: np.ndarray


def fold_values(tp: ArrayLike, fp: ArrayLike, fn: ArrayLike, beta: float = 1.0) -> FoldValues:
    """The per-fold quantities every F aggregation is made of, for counts of any shape.

    V^(i) = 1 where precision and recall are both defined (TP + FP > 0 and TP + FN > 0). A fold with
    V^(i) = 0 has TP = 0, so its precision and recall are 0 or 0/0, and its F is 0/0 or 0: counting
    each undefined value as 0 makes a sum over all folds equal the sum over the valid ones.
    """
    tp_a, fp_a, fn_a = (np.asarray(a, dtype=float) for a in (tp, fp, fn))
    valid = (tp_a + fp_a > 0) & (tp_a + fn_a > 0)
    f = np.where(valid, np.nan_to_num(f_of_counts(tp_a, fp_a, fn_a, beta)), 0.0)
    precision = np.nan_to_num(ratio(tp_a, tp_a + fp_a))
    recall = np.nan_to_num(ratio(tp_a, tp_a + fn_a))
    return FoldValues(f, precision, recall, valid)


class FoldSums(NamedTuple):
    """Sums over the folds (the last axis) that determine every F aggregation of a cross-validation."""

    f: np.ndarray  #: Σ F^(i), an undefined F counting 0
    precision: np.ndarray  #: Σ precision^(i), 0 where undefined
    recall: np.ndarray  #: Σ recall^(i), 0 where undefined
    valid: np.ndarray  #: the number of folds with V^(i) = 1
    precision_defined: np.ndarray  #: the number of folds with TP + FP > 0
    recall_defined: np.ndarray  #: the number of folds with TP + FN > 0
    tp: np.ndarray  #: pooled TP
    fp: np.ndarray  #: pooled FP
    fn: np.ndarray  #: pooled FN
    k: int  #: the number of folds


def sum_folds(values: ArrayLike, axis: int = -1) -> np.ndarray:
    """The sum over the folds' axis, one fold after another: the same bits on every CPU, and faster than
    ``sum(axis=...)`` for the few folds of a cross-validation (contiguous with ``axis=0``)."""
    a = np.moveaxis(np.asarray(values, dtype=float), axis, 0)
    total = a[0].copy()
    for j in range(1, a.shape[0]):
        total += a[j]
    return total


def fold_sums(tp: ArrayLike, fp: ArrayLike, fn: ArrayLike, beta: float = 1.0) -> FoldSums:
    """:class:`FoldSums` of per-fold counts (folds on the last axis)."""
    tp_a, fp_a, fn_a = (np.asarray(a, dtype=float) for a in (tp, fp, fn))
    v = fold_values(tp_a, fp_a, fn_a, beta)
    return FoldSums(
        sum_folds(v.f),
        sum_folds(v.precision),
        sum_folds(v.recall),
        sum_folds(v.valid),
        sum_folds(tp_a + fp_a > 0),
        sum_folds(tp_a + fn_a > 0),
        sum_folds(tp_a),
        sum_folds(fp_a),
        sum_folds(fn_a),
        tp_a.shape[-1],
    )


def cv_f_of_sums(s: FoldSums, *, method: str, undefined: str, beta: float = 1.0) -> np.ndarray:
    """The cross-validated F by one method and 0/0 policy, from the folds' sums (the one definition).

    ``method``:

    * ``"tp_fp"``: eq. (2) of the pooled counts. Its only 0/0 is TP = FP = FN = 0 in every fold: NaN,
      or 0 under ``"zero"`` (``"skip"`` has no average to leave a fold out of and is the caller's to
      refuse).
    * ``"avg"``: the mean of the folds' F. A fold's F is undefined where its precision or recall is
      (V^(i) = 0, §2.3): ``"zero"`` counts it as 0 (the paper's F_avg), ``"skip"`` leaves it out (the
      paper's F̃_avg), ``"nan"`` makes the mean NaN.
    * ``"pr_re"``: eq. (1) of the mean precision and the mean recall over folds: an undefined fold
      precision or recall counts 0 (``"zero"``, F_pr,re), or the folds with V^(i) = 0 are left out of
      both means (``"skip"``, F̃_pr,re; their precision and recall are 0 or undefined, so the sums are
      those of the valid folds), or the result is NaN (``"nan"``). Two mean rates of 0 give 0, the
      limit of eq. (1) there.

    A skip method with every fold left out gives NaN.
    """
    if method == "tp_fp":
        f = f_of_counts(s.tp, s.fp, s.fn, beta)
        return np.where(np.isnan(f), 0.0, f) if undefined == "zero" else f
    n = s.valid if undefined == "skip" else np.full(np.shape(s.valid), float(s.k))
    if method == "avg":
        value = ratio(s.f, n)
        return np.where(s.valid < s.k, np.nan, value) if undefined == "nan" else value
    precision, recall = ratio(s.precision, n), ratio(s.recall, n)
    if undefined == "nan":  # a mean over folds with an undefined rate is NaN (β = 0 or inf reads one rate only)
        precision = np.where(s.precision_defined < s.k, np.nan, precision)
        recall = np.where(s.recall_defined < s.k, np.nan, recall)
    return np.where((precision == 0) & (recall == 0), 0.0, f_of_rates(precision, recall, beta))


def cv_f(
    tp: ArrayLike,
    fp: ArrayLike,
    fn: ArrayLike,
    *,
    method: str,
    undefined: str,
    beta: float = 1.0,
) -> np.ndarray:
    """The cross-validated F of counts with folds on the last axis (:func:`cv_f_of_sums` of their sums).

    Examples
    --------
    Table 1 of Forman & Scholz: F_tp,fp, F_avg, F_pr,re

    >>> tp, fp, fn = np.array([3, 4, 4, 3]), np.array([0, 1, 13, 5]), np.array([0, 0, 0, 1])
    >>> [round(float(cv_f(tp, fp, fn, method=m, undefined="zero")), 4) for m in ("tp_fp", "avg", "pr_re")]
    [0.5833, 0.6925, 0.7336]
    """
    return cv_f_of_sums(fold_sums(tp, fp, fn, beta), method=method, undefined=undefined, beta=beta)
