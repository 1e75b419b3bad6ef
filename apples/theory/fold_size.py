"""Closed forms of Van Asch (2013) §7: F1 of two classes per fold, and the gap between F_tp,fp and F_avg.

Eq. (26)-(31): the theoretical F1 of a corpus, fold sizes, the expected counts
of a design, per-fold F1 from counts and the delta factors that decide which
aggregation is larger. The simulations and exact expectations over fold
allocations are in :mod:`apples.studies.van_asch.fold_size`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from apples._kernels.f_measure import ratio
from apples._kernels.fold_model import stratified_positives
from apples._kernels.fold_size import corpus_totals, eq31_terms, pooled_and_fold_f1
from apples._params import (
    MAX_EXACT_INT,
    Integer,
    Kind,
    Options,
    ParameterValueError,
    Policy,
    Real,
    RealArray,
    Relation,
    Undefined,
    check_table_size,
    declare,
    resolve,
)
from apples.theory.fold_model import N_FOLDS

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


class _FoldCountArray(Kind):
    """Integer counts per fold (the folds on the last axis) as int64: non-negative, at most 2**53.

    Not :data:`~apples._params.COUNT`, which takes one scalar, nor a real array, which would take floats.
    """

    def __init__(self, *, scalar_ok: bool = False) -> None:
        self.scalar_ok = scalar_ok
        self.what = "an array of integer counts, one per fold" + (" (or one count for every fold)" if scalar_ok else "")

    def check(self, name: str, value: object) -> np.ndarray:
        try:
            arr = np.asarray(value)
        except (ValueError, TypeError) as exc:  # ragged nested lists
            raise ValueError(f"{name} must be {self.what} ({exc})") from None
        if arr.dtype.kind not in "iu":
            raise TypeError(f"{name} must hold integer counts, got dtype {arr.dtype}")
        if arr.ndim == 0 and not self.scalar_ok:
            raise ValueError(f"{name} must have a fold axis (last axis), got a scalar")
        if (arr < 0).any():
            raise ValueError(f"{name} must be non-negative counts, got a minimum of {arr.min()}")
        if (arr > MAX_EXACT_INT).any():  # also uint64 values that int64 would wrap around
            raise ValueError(
                f"{name} holds a count above 2**53 ({arr.max()}), beyond what float arithmetic holds exactly"
            )
        return arr.astype(np.int64)


class _ConsistentFolds(Relation):
    """Per-fold counts consistent with each other: one shape, fold sizes that broadcast, tp_a <= n_a <= n."""

    names = ("n_a", "tp_a", "tp_b", "fold_size")

    def check(self, values: Mapping[str, Any]) -> None:
        n_a, tp_a, tp_b, n = (values[name] for name in self.names)
        if not (n_a.shape == tp_a.shape == tp_b.shape):
            raise ParameterValueError(
                f"n_a, tp_a and tp_b must have the same shape, got {n_a.shape}, {tp_a.shape} and {tp_b.shape}",
                param="n_a",
            )
        try:
            n = np.broadcast_to(n, n_a.shape)
        except ValueError:
            raise ParameterValueError(
                f"fold_size of shape {n.shape} does not broadcast to the counts' shape {n_a.shape}", param="fold_size"
            ) from None
        if (n == 0).any():
            raise ParameterValueError("fold_size must be positive: a fold has no instances", param="fold_size")
        if (n_a > n).any():
            raise ParameterValueError("n_a is larger than fold_size in some fold", param="n_a")
        if (tp_a > n_a).any():
            raise ParameterValueError("tp_a is larger than n_a (the class-A instances) in some fold", param="tp_a")
        if (tp_b > n - n_a).any():
            raise ParameterValueError(
                "tp_b is larger than fold_size - n_a (the class-B instances) in some fold", param="tp_b"
            )


class _FoldsAtMost(Relation):
    """``n_folds <= n_instances``: every fold holds at least one instance."""

    names = ("n_instances", "n_folds")

    def check(self, values: Mapping[str, Any]) -> None:
        n_instances, n_folds = values["n_instances"], values["n_folds"]
        if n_folds > n_instances:
            raise ParameterValueError(
                f"n_folds must be between 2 and n_instances={n_instances}, got {n_folds}", param="n_folds"
            )


_COUNTS = _FoldCountArray()
_FOLD_SIZE = _FoldCountArray(scalar_ok=True)
_FOLD_COUNTS = {"n_a": _COUNTS, "tp_a": _COUNTS, "tp_b": _COUNTS, "fold_size": _FOLD_SIZE}
_UNIT = Real(0.0, 1.0)
_N_INSTANCES = Integer(2, MAX_EXACT_INT)
_AVERAGE = Options(*FOLD_F1_AVERAGES)
_POLICY = Undefined("zero", "nan", "raise")


# ----------------------------------------------------------------------------- eq. 31
@declare(prop_a=RealArray(0, 1), recall_a=_UNIT, recall_b=_UNIT, average=_AVERAGE, undefined=_POLICY)
def theoretical_f1(
    prop_a: ArrayLike,
    *,
    recall_a: float = VAN_ASCH_RECALL_A,
    recall_b: float = VAN_ASCH_RECALL_B,
    average: str = "macro",
    undefined: Policy = "zero",
) -> Any:
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
    >>> from apples.theory import theoretical_f1
    >>> round(theoretical_f1(0.10), 6)                    # Figure 2's right edge
    0.887295
    >>> round(theoretical_f1(0.10, average="binary"), 6)  # 2 * 0.8 / (1.8 + 0.023 * 9)
    0.79721
    >>> abs(theoretical_f1(0.0) - 0.977 / 1.977) < 1e-15  # left edge: F1 of class B, halved
    True
    """
    raw_a, raw_b = eq31_terms(prop_a, recall_a, recall_b)
    term_a = resolve(raw_a, undefined, what="F1 of class A (no class A and no false positives)")
    if average == "binary":
        out = 2 * np.asarray(term_a)
    else:
        term_b = resolve(raw_b, undefined, what="F1 of class B (no class B and no false positives)")
        out = np.asarray(term_a) + np.asarray(term_b)
    return float(out) if out.ndim == 0 else out


# ----------------------------------------------------------------------------- corpus and folds
@declare(n_instances=_N_INSTANCES, n_folds=N_FOLDS, relations=[_FoldsAtMost()])
def fold_sizes(n_instances: int, n_folds: int) -> np.ndarray:
    """Sizes of the test folds: as equal as possible, the first ``n_instances % n_folds`` one larger.

    Van Asch §7.1, first bullet: when N is not a multiple of K "the remaining
    instances are also distributed over the folds" and n^k differs.

    Examples
    --------
    >>> from apples.theory import fold_sizes
    >>> fold_sizes(1000, 10).tolist() == [100] * 10
    True
    >>> fold_sizes(1003, 5).tolist()
    [201, 201, 201, 200, 200]
    """
    check_table_size(f"{n_folds:,} folds", 24 * n_folds, reduce="n_folds")
    return stratified_positives(n_instances, n_folds)  # the instances dealt as evenly as the positives


@declare(prop_a=_UNIT, n_instances=_N_INSTANCES, recall_a=_UNIT, recall_b=_UNIT)
def corpus_counts(
    prop_a: float, *, n_instances: int, recall_a: float = VAN_ASCH_RECALL_A, recall_b: float = VAN_ASCH_RECALL_B
) -> dict[str, int]:
    """The whole corpus of the fixed-accuracy model: n_A, n_B and their correct predictions.

    n_A = round(π N) and t_c = round(r_c n_c), rounding halves up.

    Examples
    --------
    >>> from apples.theory import corpus_counts
    >>> corpus_counts(0.10, n_instances=10_000)
    {'n_a': 1000, 'n_b': 9000, 'tp_a': 800, 'tp_b': 8793}
    """
    return corpus_totals(prop_a, n_instances, recall_a, recall_b)


# ----------------------------------------------------------------------------- F1 of folds
@declare(
    **_FOLD_COUNTS,
    method=Options(*FOLD_F1_METHODS),
    average=_AVERAGE,
    undefined=_POLICY,
    relations=[_ConsistentFolds()],
)
def fold_f1(
    n_a: ArrayLike,
    tp_a: ArrayLike,
    tp_b: ArrayLike,
    *,
    fold_size: ArrayLike,
    method: str,
    average: str = "binary",
    undefined: Policy = "raise",
) -> Any:
    """Cross-validated F1 of many cross-validations at once (Van Asch eqs. 27 and 29).

    The last axis indexes the folds; any leading axes (e.g. repetitions) are
    kept. The semantics are exactly those of :func:`apples.cv_f_measure` on the
    folds' :class:`~apples.Counts` (see :meth:`FoldCounts.counts`):

    - ``"tp_fp"``: F1 of the pooled counts, eq. (27):
      ``2 Σtp_A / (N + Σtp_A - Σtp_B)``; 0/0 (no class A, no false
      positives anywhere) follows ``undefined`` (``cv_f_measure(..., undefined="raise")`` raises).
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
        Policy for a pooled 0/0 under ``"tp_fp"``: of class A, and with ``average="macro"`` of
        class B too.

    Returns
    -------
    float or ndarray of shape (...)

    Examples
    --------
    Two folds of 10 with 2 and 0 class-A instances (fold 2 has F1 = 0):

    >>> from apples.theory import fold_f1
    >>> fold_f1([2, 0], [2, 0], [8, 9], fold_size=10, method="tp_fp")   # 4 / (20 + 2 - 17)
    0.8
    >>> fold_f1([2, 0], [2, 0], [8, 9], fold_size=10, method="avg")     # (1 + 0) / 2
    0.5
    """
    tp_a_, tp_b_ = np.asarray(tp_a), np.asarray(tp_b)  # int64 arrays (checked)
    n = np.broadcast_to(np.asarray(fold_size), tp_a_.shape)
    classes = [(tp_a_, tp_b_)] if average == "binary" else [(tp_a_, tp_b_), (tp_b_, tp_a_)]
    scores = []
    for own, other in classes:
        pooled, avg = pooled_and_fold_f1(own, other, n)
        scores.append(_pooled(pooled, undefined) if method == "tp_fp" else avg)
    out = np.asarray(sum(scores) / len(scores), dtype=float)
    return float(out) if out.ndim == 0 else out


def _pooled(pooled: np.ndarray, undefined: str) -> np.ndarray:
    """A pooled F1 of the kernel (NaN at TP = FP = FN = 0) under the 0/0 policy."""
    return np.asarray(resolve(pooled, undefined, what="pooled F1 (TP = FP = FN = 0)"), dtype=float)


@declare(**_FOLD_COUNTS, relations=[_ConsistentFolds()])
def delta_factors(n_a: ArrayLike, tp_a: ArrayLike, tp_b: ArrayLike, *, fold_size: ArrayLike) -> np.ndarray:
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
    >>> from apples.theory import delta_factors
    >>> delta_factors([2, 0], [2, 0], [8, 9], fold_size=10).tolist()   # (20 + 2 - 17) / (2 * 4), / (2 * 1)
    [0.625, 2.5]
    """
    tp_a_ = np.asarray(tp_a)
    return _delta(tp_a_, np.asarray(tp_b), np.broadcast_to(np.asarray(fold_size), tp_a_.shape))


def _delta(tp_a: np.ndarray, tp_b: np.ndarray, n: np.ndarray) -> np.ndarray:
    """δ^k of checked fold counts, NaN where n^k + c^k = 0."""
    c = tp_a - tp_b
    total = (n.sum(axis=-1) + c.sum(axis=-1))[..., None]
    return ratio(total, tp_a.shape[-1] * (n + c))


@declare(**_FOLD_COUNTS, relations=[_ConsistentFolds()])
def delta_table(n_a: ArrayLike, tp_a: ArrayLike, tp_b: ArrayLike, *, fold_size: ArrayLike) -> pd.DataFrame:
    """One cross-validation fold by fold: counts, F1, δ and each fold's share of F_avg - F_tp,fp.

    Column ``gap`` is 2 (δ^k - 1) tp_A^k / (N + C) (0 where tp_A^k = 0); the
    column sums to F_avg - F_tp,fp of class A (see :func:`delta_factors`).

    Examples
    --------
    >>> from apples.theory import delta_table
    >>> t = delta_table([2, 0], [2, 0], [8, 9], fold_size=10)
    >>> t["gap"].round(4).tolist(), round(float(t["gap"].sum()), 4)
    ([-0.3, 0.0], -0.3)
    """
    n_a, tp_a, tp_b = np.asarray(n_a), np.asarray(tp_a), np.asarray(tp_b)  # int64 arrays (checked)
    if n_a.ndim != 1:
        raise ParameterValueError(
            f"delta_table describes one cross-validation: n_a must be 1-D, got shape {n_a.shape}", param="n_a"
        )
    n = np.broadcast_to(np.asarray(fold_size), n_a.shape)
    delta = _delta(tp_a, tp_b, n)
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
            "f1_a": np.nan_to_num(ratio(2 * tp_a, n + c)),  # a fold's 0/0 F1 is 0 (F&S §2.3)
            "delta": delta,
            "gap": gap,
        },
        index=pd.RangeIndex(1, len(n) + 1, name="fold"),
    )
    return table
