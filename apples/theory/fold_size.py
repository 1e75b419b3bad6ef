"""Closed forms of Van Asch (2013) §7: F1 of two classes per fold, and the gap between F_tp,fp and F_avg.

Eq. (26)-(31): the theoretical F1 of a corpus, fold sizes, the expected counts
of a design, per-fold F1 from counts and the delta factors that decide which
aggregation is larger. The simulations and exact expectations over fold
allocations are in :mod:`apples.studies.van_asch.fold_size`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from apples._params import (
    MAX_EXACT_INT,
    Policy,
    check_choice,
    check_int,
    check_policy,
    check_real,
    check_real_array,
    check_table_size,
    divide,
)

__all__ = [
    "FOLD_F1_AVERAGES",
    "FOLD_F1_METHODS",
    "VAN_ASCH_RECALL_A",
    "VAN_ASCH_RECALL_B",
    "corpus_counts",
    "delta_factors",
    "delta_table",
    "fold_f1",
    "fold_sizes",
    "theoretical_f1",
]

#: Accuracy (= recall) of class A and of class B in Van Asch (2013) §7.1 and Figure 2.
VAN_ASCH_RECALL_A = 0.8
VAN_ASCH_RECALL_B = 0.977

FOLD_F1_METHODS = ("tp_fp", "avg")
FOLD_F1_AVERAGES = ("binary", "macro")


def _check_count_array(name: str, value: object, *, scalar_ok: bool = False) -> np.ndarray:
    """Integer counts per fold as int64; check_count takes one scalar, and check_real_array would accept floats."""
    arr = np.asarray(value)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integer counts, got dtype {arr.dtype}")
    if arr.ndim == 0 and not scalar_ok:
        raise ValueError(f"{name} must have a fold axis (last axis), got a scalar")
    if (arr < 0).any():
        raise ValueError(f"{name} must be non-negative counts, got a minimum of {arr.min()}")
    if (arr > MAX_EXACT_INT).any():  # also uint64 values that int64 would wrap around
        raise ValueError(f"{name} holds a count above 2**53 ({arr.max()}), beyond what float arithmetic holds exactly")
    return arr.astype(np.int64)


def _check_fold_counts(n_a, tp_a, tp_b, fold_size):
    """Per-fold counts consistent with each other (tp_a <= n_a <= fold_size); a relation, not a shared check."""
    n_a = _check_count_array("n_a", n_a)
    tp_a = _check_count_array("tp_a", tp_a)
    tp_b = _check_count_array("tp_b", tp_b)
    n = _check_count_array("fold_size", fold_size, scalar_ok=True)
    if not (n_a.shape == tp_a.shape == tp_b.shape):
        raise ValueError(f"n_a, tp_a and tp_b must have the same shape, got {n_a.shape}, {tp_a.shape} and {tp_b.shape}")
    try:
        n = np.broadcast_to(n, n_a.shape)
    except ValueError:
        raise ValueError(f"fold_size of shape {n.shape} does not broadcast to the counts' shape {n_a.shape}") from None
    if (n == 0).any():
        raise ValueError("fold_size must be positive: a fold has no instances")
    if (n_a > n).any():
        raise ValueError("n_a is larger than fold_size in some fold")
    if (tp_a > n_a).any():
        raise ValueError("tp_a is larger than n_a (the class-A instances) in some fold")
    if (tp_b > n - n_a).any():
        raise ValueError("tp_b is larger than fold_size - n_a (the class-B instances) in some fold")
    return n_a, tp_a, tp_b, n


def _round_half_up(x: float) -> int:
    """Nearest integer, halves up, after removing float noise (0.035 * 1000 is 35.000000000000004)."""
    return int(np.floor(round(x, 9) + 0.5))


# ----------------------------------------------------------------------------- eq. 31
def theoretical_f1(
    prop_a,
    *,
    recall_a: float = VAN_ASCH_RECALL_A,
    recall_b: float = VAN_ASCH_RECALL_B,
    average: str = "macro",
    undefined: Policy = "zero",
):
    """F1 of the expected counts as a function of the class-A proportion: Van Asch eq. (31).

    With n_c instances of class c and recall (= accuracy) r_c, the expected
    counts are tp_A = r_A n_A, fn_A = fp_B = (1 - r_A) n_A, tp_B = r_B n_B and
    fn_B = fp_A = (1 - r_B) n_B. Substituting them in tp/(2tp + fp + fn) and
    dividing by n_A (Van Asch writes p = n_B / n_A) gives eq. (31)::

        macroF1 = r_A / (1 + r_A + (1 - r_B) p) + r_B p / (1 - r_A + (1 + r_B) p)

    Here both terms are multiplied through by prop_A = n_A / (n_A + n_B) =
    1 / (1 + p) (footnote 12), which keeps prop_A = 0 and 1 finite::

        term_A = r_A π / ((1 + r_A) π + (1 - r_B)(1 - π))
        term_B = r_B (1 - π) / ((1 - r_A) π + (1 + r_B)(1 - π))

    The F1 of class A is ``2 term_A`` and the macro-F1 ``term_A + term_B``.

    Parameters
    ----------
    prop_a : float or array-like
        Proportion of class A, π = n_A / (n_A + n_B), in [0, 1].
    recall_a, recall_b : float, defaults 0.8 and 0.977
        Accuracy (= recall) on class A and on class B (Van Asch §7.1).
    average : {"macro", "binary"}, default "macro"
        ``"macro"``: eq. (31), the mean of the two classes' F1 (what Figure 2
        plots, by its caption); ``"binary"``: the F1 of class A (what §7.1's
        text and eqs. 26-29 discuss).
    undefined : {"zero", "nan", "raise"}, default "zero"
        Policy where a class's F1 is 0/0 (class A at π = 0 with r_B = 1, or
        class B at π = 1 with r_A = 1). At π = 0 with r_B < 1, F1 of class A
        is 0 (it has only false positives), which is also the limit.

    Returns
    -------
    float or ndarray

    References
    ----------
    Van Asch (2013) §7.1, eq. (31) and footnote 12.

    Examples
    --------
    >>> round(theoretical_f1(0.10), 6)                    # Figure 2's right edge
    0.887295
    >>> round(theoretical_f1(0.10, average="binary"), 6)  # 2 * 0.8 / (1.8 + 0.023 * 9)
    0.79721
    >>> abs(theoretical_f1(0.0) - 0.977 / 1.977) < 1e-15  # left edge: F1 of class B, halved
    True
    """
    prop = check_real_array("prop_a", prop_a, low=0, high=1)
    r_a = check_real("recall_a", recall_a, low=0.0, high=1.0)
    r_b = check_real("recall_b", recall_b, low=0.0, high=1.0)
    check_choice("average", average, FOLD_F1_AVERAGES)
    check_policy(undefined)
    term_a = divide(
        r_a * prop,
        (1 + r_a) * prop + (1 - r_b) * (1 - prop),
        undefined=undefined,
        what="F1 of class A (no class A and no false positives)",
    )
    if average == "binary":
        out = 2 * np.asarray(term_a)
    else:
        term_b = divide(
            r_b * (1 - prop),
            (1 - r_a) * prop + (1 + r_b) * (1 - prop),
            undefined=undefined,
            what="F1 of class B (no class B and no false positives)",
        )
        out = np.asarray(term_a) + np.asarray(term_b)
    return float(out) if out.ndim == 0 else out


# ----------------------------------------------------------------------------- corpus and folds
def fold_sizes(n_instances: int, n_folds: int) -> np.ndarray:
    """Sizes of the test folds: as equal as possible, the first ``n_instances % n_folds`` one larger.

    Van Asch §7.1, first bullet: when N is not a multiple of K "the remaining
    instances are also distributed over the folds" and n^k differs.

    Examples
    --------
    >>> fold_sizes(1000, 10).tolist() == [100] * 10
    True
    >>> fold_sizes(1003, 5).tolist()
    [201, 201, 201, 200, 200]
    """
    n_instances = check_int("n_instances", n_instances, low=2, high=MAX_EXACT_INT)
    n_folds = check_int("n_folds", n_folds, low=2, high=n_instances)
    check_table_size(f"{n_folds:,} folds", 24 * n_folds, reduce="n_folds")
    q, r = divmod(n_instances, n_folds)
    return q + (np.arange(n_folds) < r).astype(np.int64)


def corpus_counts(
    prop_a: float, *, n_instances: int, recall_a: float = VAN_ASCH_RECALL_A, recall_b: float = VAN_ASCH_RECALL_B
) -> dict[str, int]:
    """The whole corpus of the fixed-accuracy model: n_A, n_B and their correct predictions.

    n_A = round(π N) and t_c = round(r_c n_c), rounding halves up.

    Examples
    --------
    >>> corpus_counts(0.10, n_instances=10_000)
    {'n_a': 1000, 'n_b': 9000, 'tp_a': 800, 'tp_b': 8793}
    """
    n_instances = check_int("n_instances", n_instances, low=2, high=MAX_EXACT_INT)
    prop = check_real("prop_a", prop_a, low=0.0, high=1.0)
    r_a = check_real("recall_a", recall_a, low=0.0, high=1.0)
    r_b = check_real("recall_b", recall_b, low=0.0, high=1.0)
    n_a = _round_half_up(prop * n_instances)
    n_b = n_instances - n_a
    return {"n_a": n_a, "n_b": n_b, "tp_a": _round_half_up(r_a * n_a), "tp_b": _round_half_up(r_b * n_b)}


# ----------------------------------------------------------------------------- F1 of folds
def fold_f1(n_a, tp_a, tp_b, *, fold_size, method: str, average: str = "binary", undefined: Policy = "raise"):
    """Cross-validated F1 of many cross-validations at once (Van Asch eqs. 27 and 29).

    The last axis indexes the folds; any leading axes (e.g. repetitions) are
    kept. The semantics are exactly those of :func:`apples.cv_f_measure` on the
    folds' :class:`~apples.Counts` (see :meth:`FoldCounts.counts`):

    - ``"tp_fp"``: F1 of the pooled counts, eq. (27):
      ``2 Σtp_A / (N + Σtp_A - Σtp_B)``; 0/0 (no class A, no false
      positives anywhere) follows ``undefined`` (``cv_f_measure`` raises).
    - ``"avg"``: mean over folds of eq. (26) per fold, eq. (29), with a fold's
      F1 := 0 where its precision or recall is undefined (Forman & Scholz §2.3).
      This equals 0 from eq. (26) itself except where it is 0/0.

    ``average="macro"`` averages the F1 of class A and of class B, each computed
    by ``method`` (Van Asch §7: the macro-F1 "computed in a micro-average way"
    for ``tp_fp``); for ``avg`` the mean over folds of per-fold macro-F1 is the
    same number.

    Parameters
    ----------
    n_a, tp_a, tp_b : array-like of int, shape (..., K)
        Class-A instances, correctly classified A and correctly classified B per fold.
    fold_size : int or array-like of int, broadcastable to (..., K)
        Instances per fold, n^k.
    method : {"tp_fp", "avg"}
    average : {"binary", "macro"}, default "binary"
        F1 of class A, or the mean F1 of A and B.
    undefined : {"raise", "nan", "zero"}, default "raise"
        Policy for a pooled 0/0 under ``"tp_fp"``.

    Returns
    -------
    float or ndarray of shape (...)

    Examples
    --------
    Two folds of 10 with 2 and 0 class-A instances (fold 2 has F1 = 0):

    >>> fold_f1([2, 0], [2, 0], [8, 9], fold_size=10, method="tp_fp")   # 4 / (20 + 2 - 17)
    0.8
    >>> fold_f1([2, 0], [2, 0], [8, 9], fold_size=10, method="avg")     # (1 + 0) / 2
    0.5
    """
    n_a, tp_a, tp_b, n = _check_fold_counts(n_a, tp_a, tp_b, fold_size)
    check_choice("method", method, FOLD_F1_METHODS)
    check_choice("average", average, FOLD_F1_AVERAGES)
    check_policy(undefined)
    out = f1_by_class(tp_a, tp_b, n, undefined=undefined if method == "tp_fp" else "zero")[(average, method)]
    return float(out) if out.ndim == 0 else out


def f1_by_class(tp_a, tp_b, n, *, undefined: Policy) -> dict:
    """All four (average, method) F1s of validated (..., K) fold counts, eq. (26) per fold and pooled."""
    out = {}
    per_class = []
    for own, other in ((tp_a, tp_b), (tp_b, tp_a)):
        pooled = divide(
            2 * own.sum(axis=-1),
            n.sum(axis=-1) + own.sum(axis=-1) - other.sum(axis=-1),
            undefined=undefined,
            what="pooled F1 (TP = FP = FN = 0)",
        )
        avg = np.mean(divide(2 * own, n + own - other, undefined="zero", what="fold F1"), axis=-1)
        per_class.append((np.asarray(pooled, dtype=float), np.asarray(avg, dtype=float)))
    (pool_a, avg_a), (pool_b, avg_b) = per_class
    out[("binary", "tp_fp")], out[("binary", "avg")] = pool_a, avg_a
    out[("macro", "tp_fp")], out[("macro", "avg")] = (pool_a + pool_b) / 2, (avg_a + avg_b) / 2
    return out


def delta_factors(n_a, tp_a, tp_b, *, fold_size) -> np.ndarray:
    """Van Asch's δ factor of every fold (§7.1): δ^k = (N + C) / (K (n^k + c^k)).

    With c^k = tp_A^k - tp_B^k and C = Σ c^k, eq. (29) can be written
    F_avg = 2 Σ_k δ^k tp_A^k / (N + C), while eq. (27) is F_tp,fp =
    2 Σ_k tp_A^k / (N + C), so that exactly::

        F_avg - F_tp,fp = 2 Σ_k (δ^k - 1) tp_A^k / (N + C)

    A δ far from 1 in a fold with true positives moves F_avg away from
    F_tp,fp. A fold with n^k + c^k = 0 (no class A and no false positive) has
    δ = NaN. For class B swap the roles: ``delta_factors(fold_size - n_a, tp_b,
    tp_a, fold_size=fold_size)``.

    Returns
    -------
    ndarray of shape (..., K)

    Examples
    --------
    >>> delta_factors([2, 0], [2, 0], [8, 9], fold_size=10).tolist()   # (20 + 2 - 17) / (2 * 4), / (2 * 1)
    [0.625, 2.5]
    """
    n_a, tp_a, tp_b, n = _check_fold_counts(n_a, tp_a, tp_b, fold_size)
    c = tp_a - tp_b
    total = (n.sum(axis=-1) + c.sum(axis=-1))[..., None]
    return divide(total, n_a.shape[-1] * (n + c), undefined="nan", what="delta")


def delta_table(n_a, tp_a, tp_b, *, fold_size) -> pd.DataFrame:
    """One cross-validation fold by fold: counts, F1, δ and each fold's share of F_avg - F_tp,fp.

    Column ``gap`` is 2 (δ^k - 1) tp_A^k / (N + C) (0 where tp_A^k = 0); the
    column sums to F_avg - F_tp,fp of class A (see :func:`delta_factors`).

    Examples
    --------
    >>> t = delta_table([2, 0], [2, 0], [8, 9], fold_size=10)
    >>> t["gap"].round(4).tolist(), round(float(t["gap"].sum()), 4)
    ([-0.3, 0.0], -0.3)
    """
    n_a, tp_a, tp_b, n = _check_fold_counts(n_a, tp_a, tp_b, fold_size)
    if n_a.ndim != 1:
        raise ValueError(f"delta_table describes one cross-validation: n_a must be 1-D, got shape {n_a.shape}")
    delta = delta_factors(n_a, tp_a, tp_b, fold_size=n)
    c = tp_a - tp_b
    total = n.sum() + c.sum()
    gap = np.where(tp_a > 0, 2 * (np.nan_to_num(delta) - 1) * tp_a, 0.0) / total if total else np.zeros(len(n))
    table = pd.DataFrame(
        {
            "n": n,
            "n_a": n_a,
            "tp_a": tp_a,
            "tp_b": tp_b,
            "fp_a": n - n_a - tp_b,
            "fn_a": n_a - tp_a,
            "c": c,
            "f1_a": divide(2 * tp_a, n + c, undefined="zero", what="fold F1"),
            "delta": delta,
            "gap": gap,
        },
        index=pd.RangeIndex(1, len(n) + 1, name="fold"),
    )
    return table
