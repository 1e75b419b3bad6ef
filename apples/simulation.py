"""The bias and variance simulation of Forman & Scholz (2010) §4.2, vectorised.

Introduced in notebook 03. A data set of ``n_cases`` cases, ``n_pos`` of them
positive, is split into ``n_folds`` equal folds; a classifier whose
ground-truth precision and recall both equal ``f_true`` is "tested" on each
fold by drawing ``TP ~ Binomial(positives in fold, recall)`` and
``FP ~ Binomial(negatives in fold, fpr)``; the five cross-validated F-measures
of :func:`apples.cv_f_measure` are computed from the fold counts, and this is
repeated ``n_reps`` times (the paper: a million).

The classifier
--------------
Recall is ``f_true``. The false positive rate is chosen so that the
*ground-truth contingency table* has precision ``f_true``: with
``π = n_pos / n_cases``, precision ``= re·π / (re·π + fpr·(1 − π)) = f_true``
gives ``fpr = π·(1 − f_true) / (1 − π) = n_pos·(1 − f_true) / n_neg``, i.e. the
expected number of false positives over the whole data set, ``fpr·n_neg``,
equals the expected number of false negatives, ``n_pos·(1 − f_true)``. (This
is the precision of the expected counts, not the expectation of the sampled
precision TP/(TP + FP), which is not even defined when TP + FP = 0.)

How it is fast
--------------
A fold with ``p`` positives and ``m − p`` negatives has only
``(p + 1)·(m − p + 1)`` possible outcomes (TP, FP), and TP and FP are
independent. For every ``p`` that can occur we tabulate once the joint
probability of each outcome and the statistics the five methods need (F by
eq. 2, precision, recall, validity V, TP, FP, with zero substituted where
undefined), and build a Walker/Vose alias table for it. A repetition then
costs one uniform draw per fold (the alias method turns it into an outcome
index in O(1)), a few table look-ups and a row sum. Stratified folds come in
at most two types (``⌊n_pos/k⌋`` and ``⌈n_pos/k⌉`` positives); unstratified
folds first get their positives by sequential conditional hypergeometric draws
(fold ``j`` takes a uniform sample of the cases not yet assigned), each again
one alias-table look-up; this gives exactly the multivariate hypergeometric fold
counts of a uniformly random equal-size partition. Repetitions are processed in
chunks of a fixed size (bounded memory), chunk ``i`` with its own generator
spawned from ``SeedSequence(seed)``, so results are bit-for-bit reproducible
whatever ``n_jobs`` is. The tables hold probabilities in double precision, so
the sampled law equals the binomial/hypergeometric one up to rounding (~1e-16).

An invalid fold (V = 0: no positive predictions, or no positives) has
TP = 0, so its F (eq. 2), its zero-substituted precision and its recall are
all 0. Hence the sum of a statistic over all folds equals its sum over the
valid folds, and each method needs only per-repetition sums: with
``S_F, S_Pr, S_Re`` the sums of per-fold F, precision and recall, ``V`` the
number of valid folds and ``k`` the number of folds,

* ``avg = S_F / k``, ``avg_skip = S_F / V``,
* ``pr_re = H(S_Pr / k, S_Re / k)``, ``pr_re_skip = H(S_Pr / V, S_Re / V)``
  (``H`` the harmonic mean, eq. 1, 0 where both are 0),
* ``tp_fp = 2·TP / (TP + FP + n_pos)`` (eq. 2 on the pooled counts;
  ``2TP + FP + FN = TP + FP + n_pos``).

Skip methods are undefined (NaN) in a repetition without any valid fold;
:func:`simulate_cv_f` reports how often that happened and averages the rest.

Size limit
----------
The tables grow with the square of the fold size ``m``: a fold type with
``p`` positives has ``(p + 1)(m − p + 1)`` outcomes, each taking about 200
bytes while the tables are built. Before anything is allocated the size is
estimated, and designs beyond ``apples._validation.MAX_TABLE_BYTES`` (1 GiB,
about 5 million outcomes) are refused with a ValueError naming the arguments
to reduce: 2 stratified folds of 100,000 cases (2.5 billion outcomes) would
need hundreds of GiB. The
same holds for the fold-allocation tables of unstratified folds (about
``(k − 1)·n_small²/2`` cells) and for the arrays :func:`fold_positives` and
:func:`sample_cv_f` return. The paper's design (folds of 100 cases) needs at
most 180,000 outcomes, about 35 MiB.

References
----------
Forman, G. & Scholz, M. (2010). Apples-to-apples in cross-validation studies:
pitfalls in classifier performance measurement. SIGKDD Explorations 12(1),
§2.3, §4.2, §4.3, Figures 4–8.

Walker, A. J. (1977). An efficient method for generating discrete random
variables with general distributions. ACM TOMS 3(3); Vose, M. D. (1991). A
linear algorithm for generating random numbers with a given distribution.
IEEE TSE 17(9).
"""

from __future__ import annotations

import math
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import pandas as pd
from scipy import special, stats

from ._validation import (
    check_bool,
    check_count,
    check_folds_cases,
    check_positive,
    check_real,
    check_table_size,
    divide,
)
from .cross_validation import CV_F_METHODS

__all__ = [
    "FIGURE_F_TRUE",
    "FIGURE_PANEL_PRIORS",
    "FIGURE_PRIORS",
    "SimulationDesign",
    "figure_grid",
    "fold_positives",
    "sample_cv_f",
    "simulate_cv_f",
    "simulate_grid",
    "simulation_design",
]

#: x-axis of Forman & Scholz Figures 4 and 5 (class prior, at F = 80%).
FIGURE_PRIORS: tuple[float, ...] = (0.01, 0.015, 0.02, 0.025, 0.03, 0.035, 0.04, 0.045, 0.05)
#: x-axis of Figures 6, 7 and 8 (ground-truth F).
FIGURE_F_TRUE: tuple[float, ...] = (0.60, 0.65, 0.70, 0.75, 0.80, 0.85, 0.90, 0.95)
#: The three panels of Figures 6, 7 and 8 (class prior).
FIGURE_PANEL_PRIORS: tuple[float, ...] = (0.01, 0.05, 0.25)

#: Number of fold cells (repetitions × folds) per chunk; fixes memory and the random streams.
_CHUNK_CELLS = 1 << 15
#: Skip methods in CV_F_METHODS (undefined when no fold is valid).
_SKIP = ("avg_skip", "pr_re_skip")
#: Peak bytes per (TP, FP) outcome while the outcome and alias tables are built (measured: about
#: 200, most of it the alias method's Python lists). With MAX_TABLE_BYTES (1 GiB) this allows about
#: 5 million outcomes, e.g. stratified folds of 4,000 cases at a prior of 0.5; the paper's folds of 100
#: cases need at most 180,000.
_BYTES_PER_OUTCOME = 200
#: Peak bytes per cell of the fold-allocation alias tables, and per table (a numpy view and its lists).
_BYTES_PER_ALLOCATION_CELL = 200
_BYTES_PER_ALLOCATION_TABLE = 400
#: Bytes per (repetition, fold) cell while fold allocations are drawn (uniforms, counts, indices).
_BYTES_PER_DRAWN_FOLD = 40


# ----------------------------------------------------------------------------- design
@dataclass(frozen=True)
class SimulationDesign:
    """The data set and classifier of one simulation point (Forman & Scholz §4.2).

    Attributes
    ----------
    n_cases, n_folds, fold_size : int
        Cases, folds (``k``) and cases per fold (``m = n_cases / k``).
    n_pos, n_neg : int
        Positives ``round(prior · n_cases)`` (halves rounded up) and negatives.
    f_true : float
        Ground-truth F-measure = precision = recall of the classifier.
    recall, fpr : float
        True positive rate (``= f_true``) and false positive rate
        ``n_pos · (1 − f_true) / n_neg`` (ground-truth precision = f_true).
    """

    n_cases: int
    n_folds: int
    fold_size: int
    n_pos: int
    n_neg: int
    f_true: float
    recall: float
    fpr: float

    @property
    def prior(self) -> float:
        """Realised class prior ``n_pos / n_cases``."""
        return self.n_pos / self.n_cases


def simulation_design(prior: float, f_true: float, *, n_cases: int = 1000, n_folds: int = 10) -> SimulationDesign:
    """Validate one simulation point and derive its counts and rates.

    Parameters
    ----------
    prior : float
        Fraction of positives, strictly between 0 and 1.
    f_true : float
        Ground-truth F-measure (= precision = recall), in (0, 1].
    n_cases : int, default 1000
        Cases in the data set (the paper: 1000).
    n_folds : int, default 10
        Folds; must divide ``n_cases`` (the paper: 10).

    Returns
    -------
    SimulationDesign

    Raises
    ------
    TypeError
        If a number has the wrong type.
    ValueError
        If ``prior`` is outside (0, 1), ``f_true`` outside (0, 1], ``n_folds``
        does not divide ``n_cases``, the prior rounds to no positives or no
        negatives, or no classifier with precision = recall = ``f_true``
        exists (it would need a false positive rate above 1).

    Examples
    --------
    >>> d = simulation_design(0.01, 0.8)
    >>> d.n_pos, d.n_neg, d.fold_size, round(d.fpr, 6)
    (10, 990, 100, 0.00202)
    """
    prior = check_real("prior", prior)
    f_true = check_real("f_true", f_true)
    if not 0.0 < prior < 1.0:
        raise ValueError(f"prior must lie strictly between 0 and 1, got {prior!r}")
    if not 0.0 < f_true <= 1.0:
        raise ValueError(f"f_true must lie in (0, 1], got {f_true!r}")
    n_cases, n_folds = check_folds_cases(n_cases, n_folds)
    n_pos = math.floor(prior * n_cases + 0.5)
    n_neg = n_cases - n_pos
    if n_pos == 0 or n_neg == 0:
        raise ValueError(
            f"prior={prior!r} × n_cases={n_cases} rounds to {n_pos} positives; "
            "the simulation needs at least one positive and one negative"
        )
    fpr = n_pos * (1.0 - f_true) / n_neg
    if fpr > 1.0:
        raise ValueError(
            f"no classifier has precision = recall = f_true={f_true!r} at prior={prior!r}: "
            f"it would need a false positive rate of {fpr:.3g} > 1"
        )
    return SimulationDesign(
        n_cases=n_cases,
        n_folds=n_folds,
        fold_size=n_cases // n_folds,
        n_pos=n_pos,
        n_neg=n_neg,
        f_true=f_true,
        recall=f_true,
        fpr=fpr,
    )


# ------------------------------------------------------------------- alias tables
def _alias(pmf: np.ndarray) -> tuple[list, list]:
    """Vose's alias table for one distribution: (probability of keeping a column, alias column)."""
    k = len(pmf)
    scaled = (pmf * (k / pmf.sum())).tolist()
    prob = [1.0] * k
    alias = list(range(k))
    small = [i for i, v in enumerate(scaled) if v < 1.0]
    large = [i for i, v in enumerate(scaled) if v >= 1.0]
    while small and large:
        s = small.pop()
        g = large[-1]
        prob[s] = scaled[s]
        alias[s] = g
        scaled[g] = (scaled[g] + scaled[s]) - 1.0
        if scaled[g] < 1.0:
            small.append(large.pop())
    # columns left over (rounding) keep themselves with probability 1
    return prob, alias


class _AliasSet:
    """Many alias tables in flat arrays, sampled per element (table ``t`` starts at ``offset[t]``)."""

    def __init__(self, pmfs: list) -> None:
        self.offset = np.zeros(len(pmfs), dtype=np.int64)
        self.size = np.zeros(len(pmfs))
        prob, alias = [], []
        start = 0
        for t, pmf in enumerate(pmfs):
            self.offset[t] = start
            self.size[t] = len(pmf)
            if len(pmf):
                q, a = _alias(np.asarray(pmf, dtype=float))
                prob += q
                alias += [start + j for j in a]
            start += len(pmf)
        self.prob = np.array(prob)
        self.alias = np.array(alias, dtype=np.int64)

    def draw(self, table, u: np.ndarray) -> np.ndarray:
        """Flat index of one outcome per element of ``u`` (uniform on [0, 1)) from table ``table``.

        ``u < 1`` is a multiple of 2**-53, so ``fl(u · size) < size`` for every integer
        size and the column ``⌊u · size⌋`` is in range; the fractional part decides
        between the column and its alias (Walker's method).
        """
        x = u * self.size[table]
        col = x.astype(np.int64)
        frac = x - col
        col += self.offset[table]
        return np.where(frac < self.prob.take(col), col, self.alias.take(col))


# ------------------------------------------------------------------ fold allocation
def _stratified_positives(n_pos: int, n_folds: int) -> np.ndarray:
    q, r = divmod(n_pos, n_folds)
    return np.array([q + 1] * r + [q] * (n_folds - r), dtype=np.int64)


def log_comb(n, k):
    """log C(n, k) by scipy.special.gammaln; -inf outside 0 <= k <= n (no warnings)."""
    n, k = np.broadcast_arrays(np.asarray(n, dtype=float), np.asarray(k, dtype=float))
    ok = (k >= 0) & (k <= n)
    n_ok, k_ok = np.where(ok, n, 0.0), np.where(ok, k, 0.0)
    out = special.gammaln(n_ok + 1) - special.gammaln(k_ok + 1) - special.gammaln(n_ok - k_ok + 1)
    return np.where(ok, out, -np.inf)


@lru_cache(maxsize=16)
def _allocation_tables(n_cases: int, n_folds: int, n_small: int) -> _AliasSet:
    """Alias tables of fold ``j``'s count given ``r`` still to place (``j < k − 1``).

    Table ``j·(n_small + 1) + r`` is Hypergeometric(n_cases − j·m, r, m): the
    cases of fold ``j`` are a uniform sample of the ``n_cases − j·m`` cases not
    yet assigned, ``r`` of which belong to the class being placed.
    """
    m = n_cases // n_folds
    pmfs = []
    r = np.arange(n_small + 1)[:, None]
    x = np.arange(min(m, n_small) + 1)[None, :]
    for j in range(n_folds - 1):
        remaining = n_cases - j * m
        # one scipy call per fold: rows r (still to place), columns x (placed in fold j)
        ok = (x <= r) & (m - x <= remaining - r) & (r <= remaining)
        table = np.where(ok, np.exp(log_comb(r, x) + log_comb(remaining - r, m - x) - log_comb(remaining, m)), 0.0)
        for row in range(n_small + 1):
            # r > remaining cannot happen; give it a harmless one-point table
            pmfs.append(table[row, : min(m, row) + 1] if row <= remaining else np.ones(1))
    return _AliasSet(pmfs)


def _check_allocation_size(n_cases: int, n_folds: int, n_small: int, n_reps: int) -> None:
    """Refuse fold allocations whose alias tables or draws would exceed MAX_TABLE_BYTES (estimated first).

    ``_allocation_tables`` holds ``n_folds − 1`` times ``n_small + 1`` tables, table ``r`` with
    ``min(m, r) + 1`` cells; the draws take ``n_reps × n_folds`` cells.
    """
    m = n_cases // n_folds
    top = min(m, n_small)
    cells_per_fold = (top + 1) * (top + 2) // 2 + (n_small - top) * (m + 1)
    nbytes = (n_folds - 1) * (
        cells_per_fold * _BYTES_PER_ALLOCATION_CELL + (n_small + 1) * _BYTES_PER_ALLOCATION_TABLE
    ) + n_reps * n_folds * _BYTES_PER_DRAWN_FOLD
    check_table_size(
        f"unstratified fold allocation ({n_folds:,} folds of {m:,} cases, {n_small:,} cases "
        f"of the smaller class, {n_reps:,} repetitions)",
        nbytes,
        reduce="n_folds, n_cases, n_reps, or the smaller class (n_pos or n_cases − n_pos)",
    )


def _draw_positives(rng: np.random.Generator, design: SimulationDesign, size: int) -> np.ndarray:
    """Positives per fold of ``size`` uniformly random equal-size partitions, shape (size, k).

    The fold counts of a uniformly random partition into folds of ``m`` cases
    are multivariate hypergeometric. They are drawn by sequential conditional
    hypergeometric draws (fold ``j`` takes a uniform sample of ``m`` of the
    cases left, so its count given the ``r`` left of the class is
    Hypergeometric(cases left, r, m)); the last fold takes the rest. Each draw
    is one alias-table look-up. The smaller class is placed and the other
    derived, which keeps the tables small.
    """
    k, m = design.n_folds, design.fold_size
    small, flip = (design.n_pos, False) if design.n_pos <= design.n_neg else (design.n_neg, True)
    _check_allocation_size(design.n_cases, k, small, size)
    tables = _allocation_tables(design.n_cases, k, small)
    u = rng.random((k - 1, size))
    out = np.empty((size, k), dtype=np.int64)
    left = np.full(size, small, dtype=np.int64)
    for j in range(k - 1):
        table = j * (small + 1) + left
        x = tables.draw(table, u[j]) - tables.offset[table]
        out[:, j] = x
        left -= x
    out[:, k - 1] = left
    return (m - out) if flip else out


def fold_positives(
    n_pos: int, *, n_cases: int = 1000, n_folds: int = 10, stratified: bool, n_reps: int = 1, seed: int = 0
) -> np.ndarray:
    """Positives in each fold, as the simulation allocates them (§2.1, §4.2).

    Parameters
    ----------
    n_pos : int
        Positives in the data set, ``0 <= n_pos <= n_cases``.
    n_cases, n_folds : int
        Cases and (equal-size) folds.
    stratified : bool
        ``True``: as evenly as possible, the first ``n_pos mod k`` folds get
        one more (the same for every repetition). ``False``: the fold counts of
        a uniformly random partition into equal folds (multivariate
        hypergeometric: each fold's count is Hypergeometric(n_cases, n_pos, m)
        and the folds are negatively correlated).
    n_reps : int, default 1
        Number of allocations (rows).
    seed : int, default 0
        Seed of the generator (unstratified only).

    Returns
    -------
    ndarray of int, shape (n_reps, n_folds)

    Raises
    ------
    ValueError
        Besides bad arguments: an allocation whose tables or result would
        need more than 1 GiB (see "Size limit" in the module docstring).

    Examples
    --------
    >>> fold_positives(25, n_cases=1000, n_folds=10, stratified=True)
    array([[3, 3, 3, 3, 3, 2, 2, 2, 2, 2]])
    >>> fold_positives(25, n_folds=10, stratified=False, n_reps=4, seed=1).sum(axis=1)
    array([25, 25, 25, 25])
    """
    n_cases, n_folds = check_folds_cases(n_cases, n_folds)
    n_pos = check_count("n_pos", n_pos)
    if n_pos > n_cases:
        raise ValueError(f"n_pos={n_pos} is larger than n_cases={n_cases}")
    stratified = check_bool("stratified", stratified)
    n_reps = check_positive("n_reps", n_reps)
    seed = check_count("seed", seed)
    if stratified:
        check_table_size(
            f"a table of {n_reps:,} × {n_folds:,} fold counts", 8 * n_reps * n_folds, reduce="n_reps or n_folds"
        )
        return np.tile(_stratified_positives(n_pos, n_folds), (n_reps, 1))
    design = SimulationDesign(n_cases, n_folds, n_cases // n_folds, n_pos, n_cases - n_pos, 1.0, 1.0, 0.0)
    return _draw_positives(np.random.default_rng(seed), design, n_reps)


# ------------------------------------------------------------------- outcome tables
class _OutcomeTables:
    """All (TP, FP) outcomes of folds with ``p`` positives, for each ``p`` in ``ps``.

    Outcome ``j`` of fold type ``p`` lives at flat index ``offset[p] + j`` with
    ``j = tp · (m − p + 1) + fp``. Arrays: ``pmf``, ``f`` (eq. 2, 0 if TP = FP =
    FN = 0), ``pr`` and ``re`` (0 where undefined), ``valid`` (V), ``tp``,
    ``fp``, and ``code`` (V, TP, FP packed in one integer so that one look-up
    and one row sum give all three). The alias tables are built on demand.
    """

    def __init__(self, design: SimulationDesign, ps) -> None:
        m = design.fold_size
        self.ps = np.unique(np.asarray(ps, dtype=np.int64))
        self.n_folds = design.n_folds
        span = int(self.ps.max()) + 1
        self.pmfs = [np.zeros(0)] * span
        pieces: dict[str, list[np.ndarray]] = {name: [] for name in ("tp", "fp", "p")}
        ps_col = self.ps[:, None]
        tp_pmfs = np.asarray(stats.binom.pmf(np.arange(m + 1)[None, :], ps_col, design.recall))  # 2-d already
        fp_pmfs = np.asarray(stats.binom.pmf(np.arange(m + 1)[None, :], m - ps_col, design.fpr))
        for i, p in enumerate(self.ps.tolist()):
            n = m - p
            tp_pmf, fp_pmf = tp_pmfs[i, : p + 1], fp_pmfs[i, : n + 1]
            tp, fp = np.meshgrid(np.arange(p + 1), np.arange(n + 1), indexing="ij")
            self.pmfs[p] = np.outer(tp_pmf, fp_pmf).ravel()
            pieces["tp"].append(tp.ravel())
            pieces["fp"].append(fp.ravel())
            pieces["p"].append(np.full(tp.size, p, dtype=np.int64))
        self.pmf = np.concatenate([self.pmfs[p] for p in self.ps.tolist()])
        self.tp = np.concatenate(pieces["tp"])
        self.fp = np.concatenate(pieces["fp"])
        self.p = np.concatenate(pieces["p"])
        self.f = divide(2 * self.tp, self.tp + self.fp + self.p, undefined="zero", what="fold F")
        self.pr = divide(self.tp, self.tp + self.fp, undefined="zero", what="fold precision")
        self.re = divide(self.tp, self.p, undefined="zero", what="fold recall")
        self.valid = (self.tp + self.fp > 0) & (self.p > 0)
        self._base_v = design.n_folds + 1
        self._base_tp = design.n_pos + 1
        self.code = self.valid + self._base_v * (self.tp + self._base_tp * self.fp)
        if self.code.max() * design.n_folds >= 2**53:
            raise ValueError("design too large for the packed fold statistics")  # pragma: no cover
        self.code_f = self.code.astype(float)
        self._alias: _AliasSet | None = None

    @property
    def alias(self) -> _AliasSet:
        if self._alias is None:
            self._alias = _AliasSet(self.pmfs)
        return self._alias

    def sample(self, p: np.ndarray, u: np.ndarray) -> np.ndarray:
        """Flat outcome indices for folds with ``p`` positives, from uniforms ``u`` in [0, 1)."""
        return self.alias.draw(p, u)

    def decode(self, code_sum: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        v = code_sum % self._base_v
        rest = code_sum // self._base_v
        return v, rest % self._base_tp, rest // self._base_tp


def _outcome_count(design: SimulationDesign, stratified: bool) -> int:
    """Number of (TP, FP) outcomes the tables hold: Σ (p + 1)(m − p + 1) over the fold types p (exact)."""
    m = design.fold_size
    if stratified:
        ps = set(_stratified_positives(design.n_pos, design.n_folds).tolist())
        return sum((p + 1) * (m - p + 1) for p in ps)
    a, b = max(0, m - design.n_neg), min(m, design.n_pos)

    def s1(n):  # Σ_{p=0..n} p
        return n * (n + 1) // 2 if n >= 0 else 0

    def s2(n):  # Σ_{p=0..n} p²
        return n * (n + 1) * (2 * n + 1) // 6 if n >= 0 else 0

    # (p + 1)(m + 1 − p) = −p² + m·p + (m + 1)
    return -(s2(b) - s2(a - 1)) + m * (s1(b) - s1(a - 1)) + (m + 1) * (b - a + 1)


def _check_outcome_size(design: SimulationDesign, stratified: bool) -> None:
    """The shared check_table_size applied to this design's outcome count, with what to reduce."""
    n = _outcome_count(design, stratified)
    check_table_size(
        f"the (TP, FP) outcome tables of {'stratified' if stratified else 'unstratified'} folds of "
        f"{design.fold_size:,} cases with {design.n_pos:,} positives in all ({n:,} outcomes)",
        n * _BYTES_PER_OUTCOME,
        reduce="the fold size n_cases / n_folds (more folds or fewer cases)"
        + ("" if stratified else ", or use stratified=True"),
    )


@lru_cache(maxsize=8)
def outcome_tables(design: SimulationDesign, stratified: bool) -> _OutcomeTables:
    """The (cached) table of every fold outcome of ``design`` and its probability, after a size check."""
    _check_outcome_size(design, stratified)
    return _OutcomeTables(design, _support(design, stratified))


def _support(design: SimulationDesign, stratified: bool) -> np.ndarray:
    if stratified:
        return _stratified_positives(design.n_pos, design.n_folds)
    m = design.fold_size
    return np.arange(max(0, m - design.n_neg), min(m, design.n_pos) + 1)


def _estimates(s_f, s_pr, s_re, v, tp, fp, *, n_folds: int, n_pos: int) -> np.ndarray:
    """The five methods from per-repetition sums; columns in CV_F_METHODS order."""
    k = float(n_folds)
    out = np.empty((len(s_f), len(CV_F_METHODS)))
    pr, re = s_pr / k, s_re / k
    harmonic = "F of mean precision and recall"
    out[:, 0] = s_f / k
    out[:, 1] = divide(2.0 * pr * re, pr + re, undefined="zero", what=harmonic)
    out[:, 2] = 2.0 * tp / (tp + fp + n_pos)
    out[:, 3] = divide(s_f, v, undefined="nan", what="F~_avg")
    pr_s = divide(s_pr, v, undefined="nan", what="F~_pr,re precision")
    re_s = divide(s_re, v, undefined="nan", what="F~_pr,re recall")
    has = v > 0
    pr_s, re_s = np.where(has, pr_s, 0.0), np.where(has, re_s, 0.0)
    out[:, 4] = np.where(has, divide(2.0 * pr_s * re_s, pr_s + re_s, undefined="zero", what=harmonic), np.nan)
    return out


def _chunk(design, tables, stratified, seed_seq, n, *, return_folds=False):
    rng = np.random.default_rng(seed_seq)
    k = design.n_folds
    p = _stratified_positives(design.n_pos, k)[None, :] if stratified else _draw_positives(rng, design, n)
    u = rng.random((n, k))
    idx = tables.sample(p, u)
    ones = np.ones(k)  # row sums as matrix-vector products: much faster than .sum(axis=1) over k columns
    s_f = tables.f.take(idx) @ ones
    s_pr = tables.pr.take(idx) @ ones
    s_re = tables.re.take(idx) @ ones
    # the packed integer code is stored as float64: exact below 2**53, and its sums too
    v, tp, fp = tables.decode(np.rint(tables.code_f.take(idx) @ ones).astype(np.int64))
    est = _estimates(s_f, s_pr, s_re, v, tp, fp, n_folds=k, n_pos=design.n_pos)
    if return_folds:
        pos = np.broadcast_to(p, idx.shape)
        return est, (pos, tables.tp.take(idx), tables.fp.take(idx))
    return est


def _run(design, stratified, n_reps, seed, n_jobs, reduce):
    tables = outcome_tables(design, stratified)
    per_chunk = max(1, _CHUNK_CELLS // design.n_folds)
    sizes = [per_chunk] * (n_reps // per_chunk)
    if n_reps % per_chunk:
        sizes.append(n_reps % per_chunk)
    seeds = np.random.SeedSequence(seed).spawn(len(sizes))

    def work(i):
        return reduce(_chunk(design, tables, stratified, seeds[i], sizes[i]))

    if n_jobs == 1 or len(sizes) == 1:
        return [work(i) for i in range(len(sizes))]
    with ThreadPoolExecutor(max_workers=n_jobs) as pool:
        return list(pool.map(work, range(len(sizes))))


def sample_cv_f(
    prior: float,
    f_true: float,
    *,
    stratified: bool,
    n_reps: int,
    n_cases: int = 1000,
    n_folds: int = 10,
    seed: int = 0,
    n_jobs: int = 1,
) -> pd.DataFrame:
    """Every repetition's five cross-validated F-measures (Forman & Scholz §4.2).

    Parameters
    ----------
    prior, f_true, n_cases, n_folds
        The simulation point; see :func:`simulation_design`.
    stratified : bool
        Stratified or unstratified folds.
    n_reps : int
        Repetitions (rows). Memory is ``40 · n_reps`` bytes for the result
        (about three times that while it is built); more than 1 GiB in all
        (``n_reps`` above about 8.9 million) is refused: :func:`simulate_cv_f`
        summarises any number of repetitions in bounded memory.
    seed : int, default 0
        Seed; results are identical for every ``n_jobs``.
    n_jobs : int, default 1
        Threads.

    Returns
    -------
    DataFrame of shape (n_reps, 5)
        Columns ``CV_F_METHODS``; skip methods are NaN in repetitions without a
        valid fold.

    Examples
    --------
    >>> est = sample_cv_f(0.05, 0.8, stratified=True, n_reps=1000, seed=1)
    >>> list(est.columns), est.shape
    (['avg', 'pr_re', 'tp_fp', 'avg_skip', 'pr_re_skip'], (1000, 5))
    """
    design = simulation_design(prior, f_true, n_cases=n_cases, n_folds=n_folds)
    n_reps = check_positive("n_reps", n_reps)
    # the chunks, their concatenation and the DataFrame: three copies of n_reps × 5 floats
    check_table_size(
        f"{n_reps:,} repetitions × 5 estimates",
        3 * 40 * n_reps,
        reduce="n_reps (simulate_cv_f summarises any number of repetitions in bounded memory)",
    )
    chunks = _run(
        design,
        check_bool("stratified", stratified),
        n_reps,
        check_count("seed", seed),
        check_positive("n_jobs", n_jobs),
        reduce=lambda est: est,
    )
    return pd.DataFrame(np.concatenate(chunks), columns=list(CV_F_METHODS))


def _moments(est: np.ndarray):
    ok = ~np.isnan(est)
    n = ok.sum(axis=0)
    x = np.where(ok, est, 0.0)
    mean = divide(x.sum(axis=0), n, undefined="nan", what="chunk mean")
    dev = np.where(ok, est - mean, 0.0)
    return n, mean, (dev * dev).sum(axis=0)


def _combine(parts):
    """Chan et al.'s pairwise update of (count, mean, sum of squared deviations), in chunk order."""
    n, mean, m2 = parts[0]
    n, mean, m2 = n.astype(float), np.nan_to_num(mean), m2
    for nb, mb, m2b in parts[1:]:
        tot = n + nb
        delta = np.nan_to_num(mb) - mean
        w = divide(nb, tot, undefined="zero", what="chunk weight")
        mean = mean + delta * w
        m2 = m2 + m2b + delta * delta * n * w
        n = tot
    return n, mean, m2


def simulate_cv_f(
    prior: float,
    f_true: float,
    *,
    stratified: bool,
    n_reps: int,
    n_cases: int = 1000,
    n_folds: int = 10,
    seed: int = 0,
    n_jobs: int = 1,
) -> pd.DataFrame:
    """Bias and variance of the five cross-validated F-measures (Forman & Scholz §4.2–4.3).

    Repeats a simulated ``n_folds``-fold cross-validation ``n_reps`` times
    (see the module docstring for the model and the algorithm) and summarises
    each method over the repetitions, streaming chunk by chunk so memory does
    not grow with ``n_reps``.

    Parameters
    ----------
    prior : float
        Fraction of positives in (0, 1); the data set has ``round(prior · n_cases)``.
    f_true : float
        Ground-truth F = precision = recall of the classifier, in (0, 1].
    stratified : bool
        Stratified folds (positives spread ±1) or a uniformly random equal-size partition.
    n_reps : int
        Repetitions (the paper: 10**6).
    n_cases : int, default 1000
    n_folds : int, default 10
        Must divide ``n_cases``.
    seed : int, default 0
        Seed; the result is bit-for-bit the same for every ``n_jobs``.
    n_jobs : int, default 1
        Threads (numpy releases the GIL in the heavy steps).

    Returns
    -------
    DataFrame
        Index ``CV_F_METHODS`` (name ``method``); columns ``mean``, ``std``
        (sample standard deviation over repetitions), ``bias`` (mean −
        f_true), ``relative_bias`` (bias / f_true), ``relative_std`` (std /
        f_true), ``sem`` (standard error of the mean, std / √n) and
        ``n_undefined`` (repetitions without any valid fold, where a skip
        method is undefined and left out of the mean; 0 for the others).
        ``attrs`` holds the :class:`SimulationDesign` and the arguments.

    Raises
    ------
    ValueError, TypeError
        For a bad design (see :func:`simulation_design`), ``n_reps < 1`` or a
        bad ``seed``/``n_jobs``/``stratified``. A ValueError too for folds so
        large that the outcome tables would need more than 1 GiB (see
        "Size limit" in the module docstring).

    References
    ----------
    Forman & Scholz (2010), §4.2 (the simulation), §4.3 and Figures 4–8.

    Examples
    --------
    >>> t = simulate_cv_f(0.05, 0.8, stratified=True, n_reps=20000, seed=0)
    >>> bool(abs(t.loc["tp_fp", "relative_bias"]) < abs(t.loc["avg", "relative_bias"]))
    True
    """
    design = simulation_design(prior, f_true, n_cases=n_cases, n_folds=n_folds)
    stratified = check_bool("stratified", stratified)
    n_reps = check_positive("n_reps", n_reps)
    parts = _run(
        design, stratified, n_reps, check_count("seed", seed), check_positive("n_jobs", n_jobs), reduce=_moments
    )
    n, mean, m2 = _combine(parts)
    defined = n > 0
    mean = np.where(defined, mean, np.nan)
    std = np.where(n > 1, np.sqrt(m2 / np.maximum(n - 1, 1)), np.nan)
    table = pd.DataFrame(
        {
            "mean": mean,
            "std": std,
            "bias": mean - design.f_true,
            "relative_bias": (mean - design.f_true) / design.f_true,
            "relative_std": std / design.f_true,
            "sem": std / np.sqrt(np.where(defined, n, np.nan)),
            "n_undefined": (n_reps - n).astype(np.int64),
        },
        index=pd.Index(list(CV_F_METHODS), name="method"),
    )
    table.attrs.update(design=design, stratified=stratified, n_reps=n_reps, seed=seed)
    return table


def figure_grid() -> pd.DataFrame:
    """Every point Forman & Scholz Figures 4–8 plot, both stratifications, without duplicates.

    Figures 4/5: ``FIGURE_PRIORS`` at F = 80%; Figures 6/7 (and 8, the
    standard deviation of the stratified runs): ``FIGURE_F_TRUE`` at each of
    ``FIGURE_PANEL_PRIORS``. The paper does not list its x-axis points; these
    are ours (0.5% and 5% steps).

    Returns
    -------
    DataFrame
        Columns ``prior``, ``f_true``, ``stratified``; 62 rows.

    Examples
    --------
    >>> len(figure_grid())
    62
    """
    rows = {(p, 0.80, s) for p in FIGURE_PRIORS for s in (True, False)}
    rows |= {(p, f, s) for p in FIGURE_PANEL_PRIORS for f in FIGURE_F_TRUE for s in (True, False)}
    ordered = sorted(rows, key=lambda r: (not r[2], r[0], r[1]))
    return pd.DataFrame(ordered, columns=["prior", "f_true", "stratified"])


def check_points(points: object) -> pd.DataFrame:
    """``points`` if it is a DataFrame with columns ``prior``, ``f_true``, ``stratified`` (not exported).

    Shared with :func:`apples.exact_grid`; the values are checked where they are used.
    """
    if not isinstance(points, pd.DataFrame):
        raise TypeError(
            "points must be a DataFrame with columns prior, f_true and stratified "
            f"(e.g. apples.figure_grid()), got {type(points).__name__}"
        )
    missing = [c for c in ("prior", "f_true", "stratified") if c not in points.columns]
    if missing:
        raise ValueError(
            f"points lacks the column(s) {missing}; it needs prior, f_true and stratified "
            f"(e.g. apples.figure_grid()), got columns {list(points.columns)[:10]}"
        )
    return points


def simulate_grid(
    points: pd.DataFrame | None = None, *, n_reps: int, seed: int = 0, n_jobs: int = 1, progress=None
) -> pd.DataFrame:
    """:func:`simulate_cv_f` at every point of a grid, as one long table.

    Parameters
    ----------
    points : DataFrame, optional
        Columns ``prior``, ``f_true``, ``stratified``; default :func:`figure_grid`.
    n_reps : int
        Repetitions per point (the paper: 10**6).
    seed : int, default 0
        Point ``i`` uses seed ``SeedSequence([seed, i]).generate_state(1)[0]``.
    n_jobs : int, default 1
        Threads per point.
    progress : callable, optional
        Called as ``progress(i, n_points, seconds)`` after each point.

    Returns
    -------
    DataFrame
        One row per point and method: ``prior``, ``f_true``, ``stratified``,
        ``method`` and the columns of :func:`simulate_cv_f`, plus ``seconds``
        (wall time of the point).

    Examples
    --------
    >>> g = simulate_grid(figure_grid().head(2), n_reps=100)
    >>> g.shape
    (10, 12)
    """
    points = figure_grid() if points is None else check_points(points)
    seed = check_count("seed", seed)
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be a callable progress(i, n_points, seconds) or None, got {progress!r}")
    frames = []
    row: Any  # a row of the caller's table: its values are passed on raw, for simulate_cv_f to check
    for i, row in enumerate(points.itertuples(index=False)):
        point_seed = int(np.random.SeedSequence([seed, i]).generate_state(1)[0])
        start = time.perf_counter()
        # the raw values: simulate_cv_f checks them (float("0.1") or bool("no") would accept anything)
        t = simulate_cv_f(
            row.prior, row.f_true, stratified=row.stratified, n_reps=n_reps, seed=point_seed, n_jobs=n_jobs
        )
        seconds = time.perf_counter() - start
        t = t.reset_index()
        t.insert(0, "stratified", bool(row.stratified))
        t.insert(0, "f_true", float(row.f_true))
        t.insert(0, "prior", float(row.prior))
        t["seconds"] = seconds
        frames.append(t)
        if progress is not None:
            progress(i, len(points), seconds)
    return pd.concat(frames, ignore_index=True)
