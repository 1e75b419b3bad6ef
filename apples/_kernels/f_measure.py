"""F_beta of confusion counts, and the F aggregations over folds of Forman & Scholz (2010) §2.3.

Every function takes counts as arrays (any shape; folds on the last axis for the aggregations),
so one definition serves a single fold, a cross-validation, and ten thousand bootstrap replicates
of one (shape ``(replicates, folds)``).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

__all__ = [
    "cv_f",
    "f_beta_weights",
    "f_of_counts",
    "f_of_rates",
    "ratio",
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


def ratio(num: np.ndarray | float, den: np.ndarray | float) -> np.ndarray:
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


def cv_f(
    tp: np.ndarray,
    fp: np.ndarray,
    fn: np.ndarray,
    *,
    method: str,
    undefined: str,
    beta: float = 1.0,
) -> np.ndarray:
    """The cross-validated F of counts with folds on the last axis, by one method and 0/0 policy.

    ``method``:

    * ``"tp_fp"``: eq. (2) of the counts summed over folds. Its only 0/0 is TP = FP = FN = 0 in
      every fold: NaN, or 0 under ``"zero"`` (``"skip"`` has no average to leave a fold out of and
      is the caller's to refuse).
    * ``"avg"``: the mean of the folds' F. A fold's F is undefined where its precision or recall is
      (V^(i) = 0, §2.3): ``"zero"`` counts it as 0 (the paper's F_avg), ``"skip"`` leaves it out (the
      paper's F̃_avg), ``"nan"`` makes the mean NaN.
    * ``"pr_re"``: eq. (1) of the mean precision and the mean recall over folds: an undefined fold
      precision or recall counts 0 (``"zero"``, F_pr,re), or the folds with V^(i) = 0 are left out of
      both means (``"skip"``, F̃_pr,re), or the result is NaN (``"nan"``). Two mean rates of 0 give 0,
      the limit of eq. (1) there.

    A skip method with every fold left out gives NaN.

    Examples
    --------
    Table 1 of Forman & Scholz: F_tp,fp, F_avg, F_pr,re

    >>> tp, fp, fn = np.array([3, 4, 4, 3]), np.array([0, 1, 13, 5]), np.array([0, 0, 0, 1])
    >>> [round(float(cv_f(tp, fp, fn, method=m, undefined="zero")), 4) for m in ("tp_fp", "avg", "pr_re")]
    [0.5833, 0.6925, 0.7336]
    """
    tp, fp, fn = (np.asarray(a, dtype=float) for a in (tp, fp, fn))
    if method == "tp_fp":
        f = f_of_counts(tp.sum(axis=-1), fp.sum(axis=-1), fn.sum(axis=-1), beta)
        return np.where(np.isnan(f), 0.0, f) if undefined == "zero" else f
    valid = (tp + fp > 0) & (tp + fn > 0)  # V^(i) of §2.3
    if method == "avg":
        per_fold = np.where(valid, f_of_counts(tp, fp, fn, beta), np.nan)
        return _mean_over_folds(per_fold, valid, undefined)
    precision = _mean_over_folds(np.where(tp + fp > 0, ratio(tp, tp + fp), np.nan), valid, undefined)
    recall = _mean_over_folds(np.where(tp + fn > 0, ratio(tp, tp + fn), np.nan), valid, undefined)
    f = f_of_rates(precision, recall, beta)
    both_zero = (precision == 0) & (recall == 0)
    return np.where(both_zero, 0.0, f)


def _mean_over_folds(per_fold: np.ndarray, valid: np.ndarray, undefined: str) -> np.ndarray:
    """Mean over the last axis of per-fold values (NaN = undefined) under a 0/0 policy."""
    if undefined == "zero":
        return np.where(np.isnan(per_fold), 0.0, per_fold).mean(axis=-1)
    if undefined == "skip":
        n = valid.sum(axis=-1)
        total = np.where(valid, np.where(np.isnan(per_fold), 0.0, per_fold), 0.0).sum(axis=-1)
        return ratio(total, n)
    return per_fold.mean(axis=-1)  # "nan": any undefined fold makes the mean NaN
