"""Van Asch (2013) §7, unchecked: the corpus of the fixed-accuracy model, eq. (31), and F1 of two classes in folds.

Counts per fold come as integer arrays with the folds on the last axis (any leading axes: repetitions):
``own`` the correct predictions of the class, ``other`` those of the other class, ``n`` the fold sizes.
With ``tp_own`` and ``tp_other`` the correct predictions, eq. (26) is ``F1 = 2 tp_own / (n + tp_own −
tp_other)``, which is the F of the fold's counts: ``fp_own + fn_own = n − tp_own − tp_other``. A 0/0
(no instance of the class and no false positive) is NaN pooled, and 0 in a fold, as Forman & Scholz
§2.3 substitute it.

:mod:`apples.theory.fold_size` checks its arguments and calls these; so does
:mod:`apples.studies.van_asch`, whose simulations and exact sums are built on them.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from apples._kernels.f_measure import ratio
from apples._kernels.rounding import half_up_count

__all__ = [
    "corpus_totals",
    "eq31_terms",
    "pooled_and_fold_f1",
]


def corpus_totals(prop_a: float, n_instances: int, recall_a: float, recall_b: float) -> dict[str, int]:
    """The whole corpus of the fixed-accuracy model: n_A = round(π N), n_B, and t_c = round(r_c n_c), halves up.

    >>> corpus_totals(0.10, 10_000, 0.8, 0.977)
    {'n_a': 1000, 'n_b': 9000, 'tp_a': 800, 'tp_b': 8793}
    """
    n_a = half_up_count(prop_a, n_instances)
    n_b = n_instances - n_a
    return {"n_a": n_a, "n_b": n_b, "tp_a": half_up_count(recall_a, n_a), "tp_b": half_up_count(recall_b, n_b)}


def eq31_terms(prop_a: ArrayLike, recall_a: float, recall_b: float) -> tuple[np.ndarray, np.ndarray]:
    """The two terms of eq. (31) multiplied through by π (footnote 12): half the F1 of class A and of class B.

    ``term_A = r_A π / ((1 + r_A) π + (1 − r_B)(1 − π))`` and ``term_B = r_B (1 − π) / ((1 − r_A) π +
    (1 + r_B)(1 − π))``, NaN where 0/0 (class A at π = 0 with r_B = 1, class B at π = 1 with r_A = 1).

    >>> [round(float(t), 6) for t in eq31_terms(0.10, 0.8, 0.977)]   # 0.08 / 0.2007, 0.8793 / 1.7993
    [0.398605, 0.48869]
    """
    prop, r_a, r_b = np.asarray(prop_a), recall_a, recall_b
    term_a = ratio(r_a * prop, (1 + r_a) * prop + (1 - r_b) * (1 - prop))
    term_b = ratio(r_b * (1 - prop), (1 - r_a) * prop + (1 + r_b) * (1 - prop))
    return term_a, term_b


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
