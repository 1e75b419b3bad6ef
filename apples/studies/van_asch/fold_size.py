"""F1 under k-fold cross-validation as folds get small: Van Asch (2013) §7.

Introduced in notebook 04. Van Asch (2013) §7.1 compares the two ways of
turning k folds into one F1 that Forman & Scholz (2010) §2.3 call F_tp,fp
(pool the counts, then compute F1; Van Asch eq. 27) and F_avg (compute F1 per
fold, then average; eq. 29), for a two-class problem (class A, the rare
"positive" one, and class B) in which the classifier has a fixed accuracy
(= recall) on each class: 80 % on A and 97.7 % on B. Figure 2 plots both as
the proportion of class A goes from 0 % to 10 %, for 5, 10 and 50 folds and
1000 and 10,000 instances, together with the closed form eq. (31).

With two classes every count of class A is a count of class B: the false
positives of A are the misclassified B instances and vice versa. One fold k
is therefore fully described by four numbers, which is the representation
used throughout this module (the paper's symbols):

==========  =============  ==================================================
apples      Van Asch       meaning
==========  =============  ==================================================
fold_size   n^k            instances in test fold k
n_a         n_A^k          class-A instances in fold k (n_B^k = n^k - n_A^k)
tp_a        tp_A^k         class-A instances predicted A (fn_A^k = n_A^k - tp_A^k)
tp_b        tp_B^k         class-B instances predicted B (fp_A^k = n_B^k - tp_B^k)
==========  =============  ==================================================

so that F1 of class A is eq. (26) ``2 tp_A / (n + tp_A - tp_B)`` and F1 of
class B is the same with A and B swapped.

Two readings the paper leaves open are options here (notebook 04 shows both):

``errors``
    ``"fixed"`` (default): the corpus has exactly round(0.8 n_A) correctly
    classified A instances and round(0.977 n_B) correctly classified B
    instances ("the accuracy for class A is fixed at 80 %", Figure 2), which
    are then distributed over the folds. F_tp,fp is then the same for every
    K, as §7.1 observes. ``"binomial"``: every prediction is right
    independently with probability r_A or r_B (Forman & Scholz's model).
``allocation``
    ``"random"`` (default): a uniformly random partition into folds of
    (nearly) equal size, "instances randomly distributed over the folds";
    ``"stratified"``: class A dealt over the folds as evenly as possible
    (sizes differ by at most 1); ``"even"``: each of the four cells (A right,
    A wrong, B right, B wrong) dealt as evenly as possible, Van Asch's ideal
    case where every δ is (nearly) 1. ``"even"`` needs ``errors="fixed"``.

References
----------
Van Asch, V. (2013). Macro- and micro-averaged evaluation measures [basic
draft], §7, §7.1, eqs. (26)-(31), Figure 2.
Forman, G. & Scholz, M. (2010). Apples-to-apples in cross-validation studies,
§2.3.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from apples._kernels.fold_model import stratified_positives
from apples._kernels.fold_size import corpus_totals, pooled_and_fold_f1
from apples._params import (
    LABEL,
    MAX_EXACT_INT,
    SEED,
    Integer,
    Options,
    ParameterValueError,
    Policy,
    Real,
    Relation,
    Undefined,
    check_table_size,
    declare,
    divide,
    exempt,
    resolve,
)
from apples.metrics.counts import Counts
from apples.theory.fold_model import N_FOLDS
from apples.theory.fold_size import (
    FOLD_F1_AVERAGES,
    FOLD_F1_METHODS,
    VAN_ASCH_RECALL_A,
    VAN_ASCH_RECALL_B,
)

__all__ = [
    "ALLOCATIONS",
    "ERROR_MODELS",
    "FoldCounts",
    "exact_fold_f1",
    "simulate_fold_counts",
    "simulate_fold_f1",
]
#: How class members are dealt to folds: at random, stratified, or evenly (round-robin).
ALLOCATIONS: tuple[str, ...] = ("random", "stratified", "even")
#: How a class's errors fall into folds: a fixed number dealt at random, or binomial per instance.
ERROR_MODELS: tuple[str, ...] = ("fixed", "binomial")
#: Tail mass left out on each side of every distribution summed by exact_fold_f1.
_TAIL = 1e-17
#: Repetitions x folds simulated at a time (bounds memory; fixed so results do not depend on it).
_CHUNK_CELLS = 1 << 20
#: Bytes per (repetition, fold) cell of simulate_fold_counts (three int64 results and the temporaries).
_BYTES_PER_SIMULATED_FOLD = 64
#: Peak bytes per term of the triple sum in exact_fold_f1 (measured: about 43).
_BYTES_PER_EXACT_TERM = 48
#: Bytes per value of a distribution's support (values, pmf, tail sums).
_BYTES_PER_SUPPORT_VALUE = 48
#: Bytes per fold of the fold sizes (as apples.theory.fold_sizes counts them).
_BYTES_PER_FOLD_SIZE = 24


# ----------------------------------------------------------------------------- the parameters of a design
class _FoldsFit(Relation):
    """``n_folds <= n_instances`` (every fold holds an instance), and the fold sizes fit in memory."""

    names = ("n_instances", "n_folds")

    def check(self, values: Mapping[str, Any]) -> None:
        n_instances, n_folds = values["n_instances"], values["n_folds"]
        if n_folds > n_instances:
            raise ParameterValueError(
                f"n_folds must be between 2 and n_instances={n_instances}, got {n_folds}", param="n_folds"
            )
        check_table_size(f"{n_folds:,} folds", _BYTES_PER_FOLD_SIZE * n_folds, reduce="n_folds")


class _EvenNeedsFixed(Relation):
    """``allocation="even"`` deals known right and wrong predictions, so it needs ``errors="fixed"``."""

    names = ("allocation", "errors")

    def check(self, values: Mapping[str, Any]) -> None:
        if values.get("allocation") == "even" and values.get("errors") != "fixed":
            raise ParameterValueError(
                "allocation='even' deals the correct and wrong predictions evenly over the folds, "
                "which needs errors='fixed' (with errors='binomial' they are not known in advance)",
                param="allocation",
            )


_PROPORTION = Real(0.0, 1.0)
_RECALL = Real(0.0, 1.0)
_N_INSTANCES = Integer(2, MAX_EXACT_INT)
_ALLOCATION = Options(*ALLOCATIONS)
_ERRORS = Options(*ERROR_MODELS)
_METHOD = Options(*FOLD_F1_METHODS)
_AVERAGE = Options(*FOLD_F1_AVERAGES)
#: The parameters of one set-up of §7.1 (without the proportion, which is one number or many).
_SETUP: dict[str, Any] = {
    "n_instances": _N_INSTANCES,
    "n_folds": N_FOLDS,
    "allocation": _ALLOCATION,
    "errors": _ERRORS,
    "recall_a": _RECALL,
    "recall_b": _RECALL,
}
_SETUP_RULES = [_FoldsFit(), _EvenNeedsFixed()]


def _rng(seed: int | np.random.Generator) -> np.random.Generator:
    """The Generator of a checked seed: a Generator is used as it is (advanced), an int seeds a new one."""
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def _setup(prop_a: float, n_instances: int, n_folds: int, recall_a: float, recall_b: float) -> tuple[np.ndarray, dict]:
    """The fold sizes (the first ``N mod K`` one larger) and the corpus of a checked set-up."""
    return stratified_positives(n_instances, n_folds), corpus_totals(prop_a, n_instances, recall_a, recall_b)


def _deal(cells: list[int], n_folds: int) -> np.ndarray:
    """Deal the items of consecutive cells round-robin over the folds: counts of shape (cells, folds).

    Item i (cells laid end to end) goes to fold i % K, so every cell is split
    as evenly as possible (±1) and the fold sizes are those of fold_sizes().
    """
    edges = np.concatenate([[0], np.cumsum(cells)])
    k = np.arange(n_folds)
    below = (edges[:, None] - k[None, :] + n_folds - 1) // n_folds  # items i < edge with i % K == k
    return np.diff(below, axis=0).astype(np.int64)


def _split_fixed(rng: np.random.Generator, good: int, bad: int, draws: np.ndarray) -> np.ndarray:
    """How many of a fold's ``draws`` items are "good", the good ones being a random subset of the class.

    Sequential hypergeometric draws over the folds (axis 1), vectorised over
    repetitions (axis 0); the totals over folds are exactly ``good``.
    """
    out = np.empty_like(draws)
    g = np.full(draws.shape[0], good, dtype=np.int64)
    b = np.full(draws.shape[0], bad, dtype=np.int64)
    for k in range(draws.shape[1]):
        x = rng.hypergeometric(g, b, draws[:, k])
        out[:, k] = x
        g -= x
        b -= draws[:, k] - x
    return out


# ----------------------------------------------------------------------------- F1 of the folds
def _pooled(pooled: np.ndarray, undefined: str) -> np.ndarray:
    """A pooled F1 of the kernel (NaN at TP = FP = FN = 0) under the 0/0 policy."""
    return np.asarray(resolve(pooled, undefined, what="pooled F1 (TP = FP = FN = 0)"), dtype=float)


def _fold_f1(
    tp_a: np.ndarray, tp_b: np.ndarray, n: np.ndarray, *, method: str, average: str, undefined: str
) -> np.ndarray:
    """F_tp,fp or F_avg (eq. 27 or 29) of class A, or the mean of A's and B's, of (..., K) fold counts.

    The policy applies to a pooled 0/0 of each class (``"tp_fp"`` only): :func:`apples.theory.fold_f1`.
    """
    classes = [(tp_a, tp_b)] if average == "binary" else [(tp_a, tp_b), (tp_b, tp_a)]
    scores = []
    for own, other in classes:
        pooled, avg = pooled_and_fold_f1(own, other, n)
        scores.append(_pooled(pooled, undefined) if method == "tp_fp" else avg)
    return np.asarray(sum(scores) / len(scores), dtype=float)


def _f1_table(
    tp_a: np.ndarray, tp_b: np.ndarray, n: np.ndarray, *, undefined: str
) -> dict[tuple[str, str], np.ndarray]:
    """All four (average, method) F1s of (..., K) fold counts from one kernel call per class."""
    (pool_a, avg_a), (pool_b, avg_b) = pooled_and_fold_f1(tp_a, tp_b, n), pooled_and_fold_f1(tp_b, tp_a, n)
    pool_a, pool_b = _pooled(pool_a, undefined), _pooled(pool_b, undefined)
    return {
        ("binary", "tp_fp"): pool_a,
        ("binary", "avg"): avg_a,
        ("macro", "tp_fp"): (pool_a + pool_b) / 2,
        ("macro", "avg"): (avg_a + avg_b) / 2,
    }


# ----------------------------------------------------------------------------- simulation
@exempt("a result type: simulate_fold_counts makes it from checked arguments (its methods declare theirs)")
@dataclass(frozen=True)
class FoldCounts:
    """Per-fold counts of many simulated cross-validations (repetitions x folds).

    Attributes
    ----------
    fold_size : ndarray of shape (K,)
    n_a, tp_a, tp_b : ndarray of shape (R, K)
        Class-A instances, correct A and correct B predictions per fold.
    """

    fold_size: np.ndarray
    n_a: np.ndarray
    tp_a: np.ndarray
    tp_b: np.ndarray

    @property
    def n_reps(self) -> int:
        return self.n_a.shape[0]

    @declare(method=_METHOD, average=_AVERAGE, undefined=Undefined("zero", "nan", "raise"))
    def f1(self, *, method: str, average: str = "binary", undefined: Policy = "raise") -> np.ndarray:
        """:func:`apples.theory.fold_f1` of every repetition, shape (R,).

        Parameters
        ----------
        method : {"tp_fp", "avg"}
        average : {"binary", "macro"}, default "binary"
        undefined : {"raise", "nan", "zero"}, default "raise"
            Policy for a pooled 0/0 under ``"tp_fp"``.
        """
        tp_a, tp_b = np.asarray(self.tp_a), np.asarray(self.tp_b)
        n = np.broadcast_to(np.asarray(self.fold_size), tp_a.shape)
        return np.atleast_1d(_fold_f1(tp_a, tp_b, n, method=method, average=average, undefined=undefined))

    @declare(rep=Integer(0, None), pos_label=LABEL)
    def counts(self, rep: int = 0, *, pos_label: str = "A") -> list[Counts]:
        """The folds of repetition ``rep`` as :class:`~apples.Counts` with class ``pos_label`` ("A" or "B")."""
        if rep > self.n_reps - 1:
            raise ParameterValueError(f"rep must be between 0 and {self.n_reps - 1}, got {rep}", param="rep")
        if pos_label not in ("A", "B"):
            raise ParameterValueError(
                f"pos_label={pos_label!r} is not one of the classes of Van Asch's set-up, 'A' and 'B'",
                param="pos_label",
            )
        out = []
        # strict=False: as before, the fields of a FoldCounts built by hand are not checked against each other
        for n, m, ta, tb in zip(self.fold_size, self.n_a[rep], self.tp_a[rep], self.tp_b[rep], strict=False):
            n, m, ta, tb = int(n), int(m), int(ta), int(tb)
            fn_a, fp_a = m - ta, n - m - tb
            if pos_label == "A":
                out.append(Counts(tp=ta, fp=fp_a, fn=fn_a, tn=tb))
            else:
                out.append(Counts(tp=tb, fp=fn_a, fn=fp_a, tn=ta))
        return out


def _even(sizes: np.ndarray, corpus: dict, n_reps: int) -> FoldCounts:
    """The "even" allocation: each of the four cells (A right, A wrong, B right, B wrong) dealt round-robin."""
    n_a, n_b, t_a, t_b = corpus["n_a"], corpus["n_b"], corpus["tp_a"], corpus["tp_b"]
    k = len(sizes)
    cells = _deal([t_a, n_a - t_a, t_b, n_b - t_b], k)
    rows = (cells[0] + cells[1], cells[0], cells[2])
    m, tpa, tpb = (np.broadcast_to(r, (n_reps, k)).copy() for r in rows)
    return FoldCounts(sizes, m, tpa, tpb)


def _simulate(
    sizes: np.ndarray,
    corpus: dict,
    *,
    allocation: str,
    errors: str,
    recall_a: float,
    recall_b: float,
    n_reps: int,
    rng: np.random.Generator,
) -> FoldCounts:
    """``n_reps`` cross-validations of a checked set-up (fold sizes and corpus), drawn from ``rng``."""
    check_table_size(
        f"{n_reps:,} simulated cross-validations of {len(sizes):,} folds",
        _BYTES_PER_SIMULATED_FOLD * n_reps * len(sizes),
        reduce="n_reps or n_folds (simulate_fold_f1 summarises any n_reps in bounded memory)",
    )
    if allocation == "even":
        return _even(sizes, corpus, n_reps)
    n_a, n_b, t_a, t_b = corpus["n_a"], corpus["n_b"], corpus["tp_a"], corpus["tp_b"]
    k = len(sizes)
    if allocation == "stratified":
        m = np.broadcast_to(stratified_positives(n_a, k), (n_reps, k)).copy()
    else:
        m = rng.multivariate_hypergeometric(sizes, n_a, size=n_reps).astype(np.int64)
    if errors == "fixed":
        tpa = _split_fixed(rng, t_a, n_a - t_a, m)
        tpb = _split_fixed(rng, t_b, n_b - t_b, sizes - m)
    else:
        tpa = rng.binomial(m, recall_a).astype(np.int64)
        tpb = rng.binomial(sizes - m, recall_b).astype(np.int64)
    return FoldCounts(sizes, m, tpa, tpb)


#: ``n_reps`` of the simulations: at least one repetition, a count exact in float64.
_N_REPS = Integer(1, MAX_EXACT_INT)


@declare(prop_a=_PROPORTION, **_SETUP, n_reps=_N_REPS, seed=SEED, relations=_SETUP_RULES)
def simulate_fold_counts(
    prop_a: float,
    *,
    n_instances: int = 1000,
    n_folds: int = 10,
    allocation: str = "random",
    errors: str = "fixed",
    recall_a: float = VAN_ASCH_RECALL_A,
    recall_b: float = VAN_ASCH_RECALL_B,
    n_reps: int = 1,
    seed: int | np.random.Generator = 0,
) -> FoldCounts:
    """Simulate ``n_reps`` k-fold cross-validations of Van Asch's two-class set-up (§7.1, Figure 2).

    N = ``n_instances`` instances, round(π N) of class A, split into K =
    ``n_folds`` folds of sizes :func:`~apples.theory.fold_sizes`. See the module docstring for
    ``allocation`` and ``errors``. Vectorised over repetitions (the only Python
    loop is over the K folds); bit-for-bit reproducible for a seed.

    Parameters
    ----------
    prop_a : float
        Proportion of class A, π, in [0, 1].
    n_instances, n_folds : int, defaults 1000 and 10
        N >= 2 and 2 <= K <= N.
    allocation : {"random", "stratified", "even"}, default "random"
    errors : {"fixed", "binomial"}, default "fixed"
    recall_a, recall_b : float, defaults 0.8 and 0.977
    n_reps : int, default 1
    seed : int or numpy.random.Generator, default 0
        Required: ``None`` (fresh entropy, draws that differ on every call) is refused.

    Returns
    -------
    FoldCounts

    Examples
    --------
    >>> from apples.studies.van_asch import simulate_fold_counts
    >>> sim = simulate_fold_counts(0.02, n_instances=1000, n_folds=10, n_reps=3, seed=1)
    >>> sim.n_a.sum(axis=1).tolist(), sim.tp_a.sum(axis=1).tolist(), sim.tp_b.sum(axis=1).tolist()
    ([20, 20, 20], [16, 16, 16], [957, 957, 957])
    """
    sizes, corpus = _setup(prop_a, n_instances, n_folds, recall_a, recall_b)
    return _simulate(
        sizes,
        corpus,
        allocation=allocation,
        errors=errors,
        recall_a=recall_a,
        recall_b=recall_b,
        n_reps=n_reps,
        rng=_rng(seed),
    )


def _simulate_f1(
    prop_a: float,
    *,
    n_instances: int,
    n_folds: int,
    allocation: str,
    errors: str,
    recall_a: float,
    recall_b: float,
    n_reps: int,
    rng: np.random.Generator,
) -> pd.DataFrame:
    """:func:`simulate_fold_f1` of checked arguments, drawing from ``rng``."""
    sizes, corpus = _setup(prop_a, n_instances, n_folds, recall_a, recall_b)
    chunk = max(1, _CHUNK_CELLS // n_folds)
    keys = [(a, m) for a in FOLD_F1_AVERAGES for m in FOLD_F1_METHODS]
    s1 = dict.fromkeys(keys, 0.0)
    s2 = dict.fromkeys(keys, 0.0)
    first: dict[tuple[str, str], float] = {}
    done = 0
    while done < n_reps:
        size = min(chunk, n_reps - done)
        sim = _simulate(
            sizes,
            corpus,
            allocation=allocation,
            errors=errors,
            recall_a=recall_a,
            recall_b=recall_b,
            n_reps=size,
            rng=rng,
        )
        scores = _f1_table(sim.tp_a, sim.tp_b, np.broadcast_to(sim.fold_size, sim.n_a.shape), undefined="zero")
        for key in keys:
            f = scores[key]
            first.setdefault(key, f[0])  # shift for a numerically stable variance
            d = f - first[key]
            s1[key] += d.sum()
            s2[key] += (d * d).sum()
        done += size
    rows = []
    for key in keys:
        mean_d = s1[key] / n_reps
        var = max(s2[key] / n_reps - mean_d * mean_d, 0.0) * n_reps / max(n_reps - 1, 1)
        std = float(np.sqrt(var))
        rows.append(
            {
                "average": key[0],
                "method": key[1],
                "mean": first[key] + mean_d,
                "std": std,
                "se": std / np.sqrt(n_reps),
                "n_reps": n_reps,
            }
        )
    return pd.DataFrame(rows).set_index(["average", "method"])


#: ``n_reps`` of simulate_fold_f1: its mean divides by ``n_reps`` in float, so at most 2**53.
@declare(prop_a=_PROPORTION, **_SETUP, n_reps=_N_REPS, seed=SEED, relations=_SETUP_RULES)
def simulate_fold_f1(
    prop_a: float,
    *,
    n_instances: int = 1000,
    n_folds: int = 10,
    allocation: str = "random",
    errors: str = "fixed",
    recall_a: float = VAN_ASCH_RECALL_A,
    recall_b: float = VAN_ASCH_RECALL_B,
    n_reps: int = 10_000,
    seed: int | np.random.Generator = 0,
) -> pd.DataFrame:
    """Monte Carlo mean and spread of F_tp,fp and F_avg, class A and macro, over ``n_reps`` cross-validations.

    Repetitions are simulated in chunks (memory stays bounded; the chunk size
    is fixed, so a seed gives the same numbers whatever the machine). A pooled
    0/0 (no class A and no false positive at all, probability 0.977^N at
    π = 0) counts as F1 = 0, the limit (and the value eq. 31 gives).

    Parameters
    ----------
    prop_a, n_instances, n_folds, allocation, errors, recall_a, recall_b
        As :func:`simulate_fold_counts`.
    n_reps : int, default 10,000
        Cross-validations, at most 2**53.
    seed : int or numpy.random.Generator, default 0
        Required, as :func:`simulate_fold_counts`.

    Returns
    -------
    pandas.DataFrame
        Indexed by (average, method), columns ``mean``, ``std``, ``se`` (=
        std / sqrt(n_reps)) and ``n_reps``.

    Examples
    --------
    >>> from apples.studies.van_asch import simulate_fold_f1
    >>> r = simulate_fold_f1(0.05, n_folds=5, n_reps=2000, seed=0)
    >>> float(r.loc[("binary", "tp_fp"), "std"])       # fixed errors: the pooled counts never change
    0.0
    """
    return _simulate_f1(
        prop_a,
        n_instances=n_instances,
        n_folds=n_folds,
        allocation=allocation,
        errors=errors,
        recall_a=recall_a,
        recall_b=recall_b,
        n_reps=n_reps,
        rng=_rng(seed),
    )


# ----------------------------------------------------------------------------- exact expectations
def _support(lo_dist: Any, hi_dist: Any, lo_bound: int, hi_bound: int) -> np.ndarray:
    """Values in [lo_bound, hi_bound] carrying all but ``_TAIL`` of the mass in each tail.

    ``lo_dist`` / ``hi_dist`` are the members of a family (ordered by the
    number of draws) with the lowest / highest quantiles. The tails are summed
    from the pmf (scipy's ``isf`` loses the far upper tail to 1 - cdf rounding).
    """
    check_table_size(
        f"the support of a count between {lo_bound:,} and {hi_bound:,}",
        _BYTES_PER_SUPPORT_VALUE * (hi_bound - lo_bound + 1),
        reduce="n_instances (the exact sums run over every count of a fold or class)",
    )
    x = np.arange(lo_bound, hi_bound + 1)
    low_tail = np.cumsum(_pmf(lo_dist, x))
    high_tail = np.cumsum(_pmf(hi_dist, x)[::-1])[::-1]
    lo = x[np.argmax(low_tail > _TAIL)] if (low_tail > _TAIL).any() else lo_bound
    hi = x[len(x) - 1 - np.argmax((high_tail > _TAIL)[::-1])] if (high_tail > _TAIL).any() else hi_bound
    return np.arange(lo, max(lo, hi) + 1)


def _count_dist(errors: str, draws: int | np.ndarray, *, n_class: int, bad_class: int, p_bad: float) -> Any:
    """Distribution of the number of "bad" items among ``draws`` instances of one class.

    Fixed errors: the class has ``bad_class`` bad items among ``n_class``, a
    random subset is drawn (hypergeometric); binomial errors: each is bad
    with probability ``p_bad``.
    """
    if errors == "binomial":
        return stats.binom(draws, p_bad)
    if n_class == 0:  # empty class: scipy's hypergeom(0, 0, 0) is NaN; the count is surely 0
        return stats.binom(draws, 0.0)
    return stats.hypergeom(n_class, bad_class, draws)


def _pmf(dist: Any, x: np.ndarray) -> np.ndarray:
    # scipy's hypergeom.pmf (Boost) costs ~0.1 ms a value; exp(logpmf) is as accurate to ~1e-11
    # relative and a hundred times faster.
    return np.nan_to_num(np.exp(dist.logpmf(x)))


def _expected_fold(
    n: int, m_vals: np.ndarray, m_w: np.ndarray, *, errors: str, corpus: dict, recall_a: float, recall_b: float
) -> np.ndarray:
    """E[F1 of A] and E[macro-F1] of one fold of n instances whose class-A count m has weights m_w.

    Eq. (26), 0 where 0/0.

    Given m: fn_A (wrong A's among the m) and fp_A (wrong B's among the n - m)
    are independent, hypergeometric (fixed errors) or binomial; each is summed
    over all but 1e-17 of its mass in each tail.
    """
    keep = m_w > 0
    m_vals, m_w = m_vals[keep].astype(np.int64), m_w[keep]
    lo_m, hi_m = int(m_vals.min()), int(m_vals.max())
    kw_a = dict(n_class=corpus["n_a"], bad_class=corpus["n_a"] - corpus["tp_a"], p_bad=1.0 - recall_a)
    kw_b = dict(n_class=corpus["n_b"], bad_class=corpus["n_b"] - corpus["tp_b"], p_bad=1.0 - recall_b)
    u = _support(_count_dist(errors, lo_m, **kw_a), _count_dist(errors, hi_m, **kw_a), 0, hi_m)  # fn_A
    w = _support(_count_dist(errors, n - hi_m, **kw_b), _count_dist(errors, n - lo_m, **kw_b), 0, n - lo_m)  # fp_A
    check_table_size(
        f"the exact sum over a fold of {n:,} instances ({m_vals.size:,} × {u.size:,} × {w.size:,} terms)",
        _BYTES_PER_EXACT_TERM * m_vals.size * u.size * w.size,
        reduce="n_instances, or raise n_folds (smaller folds)",
    )
    m_col = m_vals[:, None]
    pu = np.where(u[None, :] <= m_col, _pmf(_count_dist(errors, m_col, **kw_a), u[None, :]), 0.0)  # (M, U)
    pw = np.where(w[None, :] <= n - m_col, _pmf(_count_dist(errors, n - m_col, **kw_b), w[None, :]), 0.0)
    m3, u3, w3 = m_vals[:, None, None], u[None, :, None], w[None, None, :]
    valid = (u3 <= m3) & (w3 <= n - m3)
    tp_a = m3 - u3
    f_a = divide(2 * tp_a, 2 * tp_a + u3 + w3, undefined="zero", what="fold F1")  # 2 tp / (2 tp + fn + fp)
    tp_b = n - m3 - w3
    f_b = divide(2 * tp_b, 2 * tp_b + u3 + w3, undefined="zero", what="fold F1")
    weight = m_w[:, None, None] * pu[:, :, None] * pw[:, None, :] * valid
    e_a, e_b = float(np.sum(weight * f_a)), float(np.sum(weight * f_b))
    return np.array([e_a, (e_a + e_b) / 2])


@declare(prop_a=_PROPORTION, method=_METHOD, average=_AVERAGE, **_SETUP, relations=_SETUP_RULES)
def exact_fold_f1(
    prop_a: float,
    *,
    method: str,
    average: str = "binary",
    n_instances: int = 1000,
    n_folds: int = 10,
    allocation: str = "random",
    errors: str = "fixed",
    recall_a: float = VAN_ASCH_RECALL_A,
    recall_b: float = VAN_ASCH_RECALL_B,
) -> float:
    """The exact expectation of F_tp,fp or F_avg in Van Asch's set-up, by summation (no sampling).

    - ``"tp_fp"``: pooled counts. With fixed errors F_tp,fp is one number;
      with binomial errors tp_A ~ Bin(n_A, r_A) and tp_B ~ Bin(n_B, r_B)
      whatever the folds, so the expectation depends on neither K nor
      ``allocation``.
    - ``"avg"``: by linearity E[F_avg] = (1/K) Σ_k E[F1^k], and each fold's
      marginal is summed exactly: its class-A count m is hypergeometric
      (random) or fixed (stratified), and given m the correct predictions are
      hypergeometric (fixed errors: a random subset of the class's correct
      ones) or binomial, independently for A and B. The dependence between
      folds does not matter for the mean.

    Each sum leaves out at most 1e-17 of probability in each tail, and the
    probabilities are scipy's (hypergeometric via ``exp(logpmf)``, relative
    error about 1e-11), so the result is exact to about 1e-10 or better. A
    fold's 0/0 counts as 0 (as in :func:`~apples.theory.fold_f1`), and so does a pooled 0/0.

    Parameters
    ----------
    prop_a : float
        Proportion of class A, π, in [0, 1].
    method : {"tp_fp", "avg"}
    average : {"binary", "macro"}, default "binary"
        F1 of class A, or the mean F1 of A and B.
    n_instances, n_folds, allocation, errors, recall_a, recall_b
        As :func:`simulate_fold_counts`.

    Returns
    -------
    float

    Examples
    --------
    >>> from apples.studies.van_asch import exact_fold_f1
    >>> exact_fold_f1(0.10, method="tp_fp", n_instances=10_000) == 1600 / 2007   # 2 tp / (2 tp + fn + fp)
    True
    >>> round(exact_fold_f1(0.01, method="avg", n_folds=50), 4)
    0.1288
    """
    return _exact_value(
        prop_a,
        method=method,
        average=average,
        n_instances=n_instances,
        n_folds=n_folds,
        allocation=allocation,
        errors=errors,
        recall_a=recall_a,
        recall_b=recall_b,
    )


def _exact_value(
    prop_a: float,
    *,
    method: str,
    average: str,
    n_instances: int,
    n_folds: int,
    allocation: str,
    errors: str,
    recall_a: float,
    recall_b: float,
) -> float:
    """:func:`exact_fold_f1` of checked arguments."""
    if method == "tp_fp":  # depends on neither the folds nor their allocation
        n_folds, allocation = 2, "random"
    values = _exact(
        float(prop_a), int(n_instances), int(n_folds), allocation, errors, float(recall_a), float(recall_b), method
    )
    return float(values[FOLD_F1_AVERAGES.index(average)])


@functools.lru_cache(maxsize=4096)
def _exact(
    prop_a: float,
    n_instances: int,
    n_folds: int,
    allocation: str,
    errors: str,
    recall_a: float,
    recall_b: float,
    method: str,
) -> np.ndarray:
    """(E[F1 of A], E[macro-F1]) for validated arguments; cached (Figure 2 reuses F_tp,fp for every K)."""
    sizes, corpus = _setup(prop_a, n_instances, n_folds, recall_a, recall_b)
    kw: dict[str, Any] = dict(errors=errors, corpus=corpus, recall_a=recall_a, recall_b=recall_b)
    if method == "tp_fp":
        return _expected_fold(n_instances, np.array([corpus["n_a"]]), np.array([1.0]), **kw)
    k = len(sizes)
    if allocation == "even":
        sim = _simulate(
            sizes,
            corpus,
            allocation="even",
            errors=errors,
            recall_a=recall_a,
            recall_b=recall_b,
            n_reps=1,
            rng=np.random.default_rng(0),  # unused: the even split draws nothing
        )
        n = np.broadcast_to(sim.fold_size, sim.tp_a.shape)
        return np.array(
            [_fold_f1(sim.tp_a, sim.tp_b, n, method="avg", average=a, undefined="raise")[0] for a in FOLD_F1_AVERAGES]
        )
    total = np.zeros(2)
    if allocation == "stratified":
        types = pd.Series(list(zip(sizes, stratified_positives(corpus["n_a"], k), strict=True))).value_counts()
        # = types.items(), whose labels pandas-stubs types as Hashable (neither a pair nor an int)
        for (n, m), count in zip(types.index, types, strict=True):
            total += count * _expected_fold(int(n), np.array([int(m)]), np.array([1.0]), **kw)
        return total / k
    size_counts = pd.Series(sizes).value_counts()
    for n, count in zip(size_counts.index, size_counts, strict=True):  # = .items(), labels typed as above
        dist_m = stats.hypergeom(n_instances, corpus["n_a"], int(n))
        m_vals = _support(dist_m, dist_m, max(0, int(n) - corpus["n_b"]), min(int(n), corpus["n_a"]))
        total += count * _expected_fold(int(n), m_vals, _pmf(dist_m, m_vals), **kw)
    return total / k
