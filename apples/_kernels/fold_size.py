"""F1 of two classes in folds of a cross-validation, Van Asch (2013) §7 eqs. (26), (27) and (29), unchecked.

Counts per fold come as integer arrays with the folds on the last axis (any leading axes: repetitions):
``own`` the correct predictions of the class, ``other`` those of the other class, ``n`` the fold sizes.
With ``tp_own`` and ``tp_other`` the correct predictions, eq. (26) is ``F1 = 2 tp_own / (n + tp_own −
tp_other)``, which is the F of the fold's counts: ``fp_own + fn_own = n − tp_own − tp_other``. A 0/0
(no instance of the class and no false positive) is NaN pooled, and 0 in a fold, as Forman & Scholz
§2.3 substitute it.
"""

from __future__ import annotations

import numpy as np

from apples._kernels.f_measure import ratio

__all__ = [
    "pooled_and_fold_f1",
]


def pooled_and_fold_f1(own: np.ndarray, other: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """F1 of one class, ``(pooled, mean over folds)``: eq. (27) of the summed counts, eq. (29).

    The pooled F1 is NaN where it is 0/0; a fold's F1 that is 0/0 counts as 0 in the mean.

    >>> pooled, avg = pooled_and_fold_f1(np.array([2, 0]), np.array([8, 9]), np.array([10, 10]))
    >>> float(pooled), float(avg)   # 4 / (20 + 2 - 17), (4/4 + 0/1) / 2
    (0.8, 0.5)
    """
    pooled = ratio(2 * own.sum(axis=-1), n.sum(axis=-1) + own.sum(axis=-1) - other.sum(axis=-1))
    per_fold = ratio(2 * own, n + own - other)
    return pooled, np.mean(np.where(np.isnan(per_fold), 0.0, per_fold), axis=-1)
