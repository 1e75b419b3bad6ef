"""The Forman & Scholz (2010) §4.2 model's counts, fold allocations, fold outcomes and exact sums, unchecked.

:mod:`apples.theory.fold_model` checks a design and calls these; :mod:`apples.theory.cv_f_expectations`
sums the exact moments of F_tp,fp and F_avg with :func:`tp_fp_moments` and :func:`avg_moments`, and the
probability of a fold without positives with :func:`p_fold_without_positives`; the simulation of
:mod:`apples.studies.forman_scholz` draws from the same allocation and outcome tables. Sizes are the
caller's to bound (:func:`allocation_bytes` and :func:`outcome_count` estimate them before anything is
built).
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
from scipy import special, stats

from apples._kernels.f_measure import FoldValues, f_of_counts, fold_values
from apples._kernels.rounding import half_up_count

__all__ = [
    "AliasSet",
    "OutcomeTables",
    "allocation_bytes",
    "allocation_tables",
    "avg_moments",
    "binomial_law",
    "design_counts",
    "draw_positives",
    "fold_types",
    "inclusion_exclusion_bits",
    "log_comb",
    "outcome_count",
    "p_fold_without_positives",
    "stratified_positives",
    "tp_fp_moments",
]

#: Peak bytes per cell of the fold-allocation alias tables, and per table (a numpy view and its lists).
_BYTES_PER_ALLOCATION_CELL = 200
_BYTES_PER_ALLOCATION_TABLE = 400
#: Bytes per (repetition, fold) cell while fold allocations are drawn (uniforms, counts, indices).
_BYTES_PER_DRAWN_FOLD = 40


def design_counts(prior: float, f_true: float, n_cases: int) -> tuple[int, int, float]:
    """Positives ``round(prior · n_cases)`` (halves up), negatives, and the false positive rate.

    The classifier has precision = recall = ``f_true``: it finds ``f_true · n_pos`` positives and as
    many false positives, ``n_pos · (1 − f_true)``, a rate of ``n_pos · (1 − f_true) / n_neg``
    (``inf`` without negatives).

    >>> design_counts(0.01, 0.8, 1000)
    (10, 990, 0.0020202020202020198)
    """
    n_pos = half_up_count(prior, n_cases)
    n_neg = n_cases - n_pos
    fpr = n_pos * (1.0 - f_true) / n_neg if n_neg else math.inf
    return n_pos, n_neg, fpr


def stratified_positives(n_pos: int, n_folds: int) -> np.ndarray:
    """Positives per stratified fold: as even as possible, the first ``n_pos mod k`` folds one more.

    >>> stratified_positives(25, 10).tolist()
    [3, 3, 3, 3, 3, 2, 2, 2, 2, 2]
    """
    q, r = divmod(n_pos, n_folds)
    return np.array([q + 1] * r + [q] * (n_folds - r), dtype=np.int64)


def log_comb(n: Any, k: Any) -> np.ndarray:
    """log C(n, k) by scipy.special.gammaln; -inf outside 0 <= k <= n (no warnings)."""
    n, k = np.broadcast_arrays(np.asarray(n, dtype=float), np.asarray(k, dtype=float))
    ok = (k >= 0) & (k <= n)
    n_ok, k_ok = np.where(ok, n, 0.0), np.where(ok, k, 0.0)
    out = special.gammaln(n_ok + 1) - special.gammaln(k_ok + 1) - special.gammaln(n_ok - k_ok + 1)
    return np.where(ok, out, -np.inf)


# ------------------------------------------------------------------- alias tables
def _alias(pmf: np.ndarray) -> tuple[list[float], list[int]]:
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


class AliasSet:
    """Many alias tables in flat arrays, sampled per element (table ``t`` starts at ``offset[t]``)."""

    def __init__(self, pmfs: list[np.ndarray]) -> None:
        self.offset = np.zeros(len(pmfs), dtype=np.int64)
        self.size = np.zeros(len(pmfs))
        prob: list[float] = []
        alias: list[int] = []
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

    def draw(self, table: Any, u: np.ndarray) -> np.ndarray:
        """Flat index of one outcome per element of ``u`` (uniform on [0, 1)) from table ``table``.

        ``u < 1`` is a multiple of 2**-53, so ``fl(u · size) < size`` for every integer
        size and the column ``⌊u · size⌋`` is in range; the fractional part decides
        between the column and its alias (Walker's method).
        """
        x = u * self.size[table]
        col = x.astype(np.int64)
        frac = x - col
        col += self.offset[table]
        out: np.ndarray = np.where(frac < self.prob.take(col), col, self.alias.take(col))
        return out


# ------------------------------------------------------------------ fold allocation
@lru_cache(maxsize=16)
def allocation_tables(n_cases: int, n_folds: int, n_small: int) -> AliasSet:
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
    return AliasSet(pmfs)


def allocation_bytes(n_cases: int, n_folds: int, n_small: int, n_reps: int) -> int:
    """Peak bytes of :func:`allocation_tables` and of drawing ``n_reps`` allocations (an exact int).

    The tables are ``n_folds − 1`` times ``n_small + 1`` tables, table ``r`` with ``min(m, r) + 1``
    cells; the draws take ``n_reps × n_folds`` cells.
    """
    m = n_cases // n_folds
    top = min(m, n_small)
    cells_per_fold = (top + 1) * (top + 2) // 2 + (n_small - top) * (m + 1)
    return (n_folds - 1) * (
        cells_per_fold * _BYTES_PER_ALLOCATION_CELL + (n_small + 1) * _BYTES_PER_ALLOCATION_TABLE
    ) + n_reps * n_folds * _BYTES_PER_DRAWN_FOLD


def draw_positives(rng: np.random.Generator, n_cases: int, n_folds: int, n_pos: int, size: int) -> np.ndarray:
    """Positives per fold of ``size`` uniformly random equal-size partitions, shape (size, k).

    The fold counts of a uniformly random partition into folds of ``m`` cases
    are multivariate hypergeometric. They are drawn by sequential conditional
    hypergeometric draws (fold ``j`` takes a uniform sample of ``m`` of the
    cases left, so its count given the ``r`` left of the class is
    Hypergeometric(cases left, r, m)); the last fold takes the rest. Each draw
    is one alias-table look-up. The smaller class is placed and the other
    derived, which keeps the tables small.
    """
    k, m = n_folds, n_cases // n_folds
    n_neg = n_cases - n_pos
    small, flip = (n_pos, False) if n_pos <= n_neg else (n_neg, True)
    tables = allocation_tables(n_cases, k, small)
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


# ------------------------------------------------------------------- fold outcomes
def fold_types(fold_size: int, n_pos: int, n_neg: int, n_folds: int, stratified: bool) -> np.ndarray:
    """The numbers of positives a fold can hold: stratified, one or two values; unstratified, every feasible one.

    >>> fold_types(100, 25, 975, 10, True).tolist(), fold_types(4, 3, 5, 2, False).tolist()
    ([3, 3, 3, 3, 3, 2, 2, 2, 2, 2], [0, 1, 2, 3])
    """
    if stratified:
        return stratified_positives(n_pos, n_folds)
    return np.arange(max(0, fold_size - n_neg), min(fold_size, n_pos) + 1)


def outcome_count(fold_size: int, n_pos: int, n_neg: int, n_folds: int, stratified: bool) -> int:
    """Number of (TP, FP) outcomes of the fold types: Σ (p + 1)(m − p + 1) over the types p (an exact int).

    >>> outcome_count(100, 10, 990, 10, True), outcome_count(4, 3, 5, 2, False)   # 2 · 100; 5 + 8 + 9 + 8
    (200, 30)
    """
    m = fold_size
    if stratified:
        ps = set(stratified_positives(n_pos, n_folds).tolist())
        return sum((p + 1) * (m - p + 1) for p in ps)
    a, b = max(0, m - n_neg), min(m, n_pos)

    def s1(n: int) -> int:  # Σ_{p=0..n} p
        return n * (n + 1) // 2 if n >= 0 else 0

    def s2(n: int) -> int:  # Σ_{p=0..n} p²
        return n * (n + 1) * (2 * n + 1) // 6 if n >= 0 else 0

    # (p + 1)(m + 1 − p) = −p² + m·p + (m + 1)
    return -(s2(b) - s2(a - 1)) + m * (s1(b) - s1(a - 1)) + (m + 1) * (b - a + 1)


class OutcomeTables:
    """All (TP, FP) outcomes of folds of ``fold_size`` cases with ``p`` positives, for each ``p`` in ``ps``.

    A fold with p positives has TP ~ Binomial(p, recall) and FP ~ Binomial(m − p, fpr), independent.
    Outcome ``j`` of fold type ``p`` lives at flat index ``offset[p] + j`` with ``j = tp · (m − p + 1) + fp``.
    Arrays: ``pmf`` (each outcome's probability given its type), ``tp``, ``fp``, ``p`` and ``f`` (eq. 2 of
    the fold, 0 where TP = FP = FN = 0, as Forman & Scholz substitute it). The alias tables that draw an
    outcome from a uniform number are built on first use.

    >>> t = OutcomeTables(2, [1], recall=0.5, fpr=0.5)
    >>> t.tp.tolist(), t.fp.tolist(), np.round(t.pmf, 12).tolist(), t.f.tolist()
    ([0, 0, 1, 1], [0, 1, 0, 1], [0.25, 0.25, 0.25, 0.25], [0.0, 0.0, 1.0, 0.6666666666666666])
    """

    def __init__(self, fold_size: int, ps: Any, *, recall: float, fpr: float) -> None:
        m = fold_size
        self.ps = np.unique(np.asarray(ps, dtype=np.int64))
        self.pmfs = [np.zeros(0)] * (int(self.ps.max()) + 1)
        pieces: dict[str, list[np.ndarray]] = {name: [] for name in ("tp", "fp", "p")}
        ps_col = self.ps[:, None]
        tp_pmfs = np.asarray(stats.binom.pmf(np.arange(m + 1)[None, :], ps_col, recall))  # 2-d already
        fp_pmfs = np.asarray(stats.binom.pmf(np.arange(m + 1)[None, :], m - ps_col, fpr))
        for i, p in enumerate(self.ps.tolist()):
            n = m - p
            tp, fp = np.meshgrid(np.arange(p + 1), np.arange(n + 1), indexing="ij")
            self.pmfs[p] = np.outer(tp_pmfs[i, : p + 1], fp_pmfs[i, : n + 1]).ravel()
            pieces["tp"].append(tp.ravel())
            pieces["fp"].append(fp.ravel())
            pieces["p"].append(np.full(tp.size, p, dtype=np.int64))
        self.pmf = np.concatenate([self.pmfs[p] for p in self.ps.tolist()])
        self.tp = np.concatenate(pieces["tp"])
        self.fp = np.concatenate(pieces["fp"])
        self.p = np.concatenate(pieces["p"])
        self.f = np.nan_to_num(f_of_counts(self.tp, self.fp, self.p - self.tp))
        self._alias: AliasSet | None = None
        self._per_fold: FoldValues | None = None

    @property
    def per_fold(self) -> FoldValues:
        """Each outcome's F, precision, recall and V^(i) (:func:`~apples._kernels.f_measure.fold_values`),
        computed on first use (the simulation needs them, the exact sums do not)."""
        if self._per_fold is None:
            self._per_fold = fold_values(self.tp, self.fp, self.p - self.tp)
        return self._per_fold

    @property
    def alias(self) -> AliasSet:
        if self._alias is None:
            self._alias = AliasSet(self.pmfs)
        return self._alias

    def sample(self, p: np.ndarray, u: np.ndarray) -> np.ndarray:
        """Flat outcome indices for folds with ``p`` positives, from uniforms ``u`` in [0, 1)."""
        return self.alias.draw(p, u)


# ------------------------------------------------------------------- exact sums
def binomial_law(n: int, q: float) -> tuple[np.ndarray, np.ndarray]:
    """The values 0..n of Binomial(n, q) whose probability does not underflow to 0, and those probabilities.

    >>> values, pmf = binomial_law(2, 0.5)
    >>> values.tolist(), np.round(pmf, 12).tolist()
    ([0, 1, 2], [0.25, 0.5, 0.25])
    """
    values = np.arange(n + 1)
    pmf = stats.binom.pmf(values, n, q)
    keep = pmf > 0  # terms whose probability underflows to 0 contribute nothing; dropping them bounds the work
    return values[keep], pmf[keep]


def tp_fp_moments(
    n_pos: int, tp_law: tuple[np.ndarray, np.ndarray], fp_law: tuple[np.ndarray, np.ndarray]
) -> tuple[float, float]:
    """E[F_tp,fp] and E[F_tp,fp²] over the pooled TP ~ ``tp_law`` and FP ~ ``fp_law`` (:func:`binomial_law`).

    >>> tp_fp_moments(1, binomial_law(1, 1.0), binomial_law(9, 0.0))   # always TP = 1, FP = 0: F = 1
    (1.0, 1.0)
    """
    (tp, p_tp), (fp, p_fp) = tp_law, fp_law
    f = f_of_counts(tp[:, None], fp[None, :], n_pos - tp[:, None])  # n_pos >= 1: never 0/0
    return float(p_tp @ f @ p_fp), float(p_tp @ (f * f) @ p_fp)


def avg_moments(
    tables: OutcomeTables, *, n_cases: int, n_pos: int, n_folds: int, fold_size: int, stratified: bool
) -> tuple[float, float]:
    """E[F_avg] and E[F_avg²]: the folds' F from ``tables``, stratified or over the hypergeometric allocation.

    Stratified folds are independent with ⌊n_pos/k⌋ or ⌈n_pos/k⌉ positives; unstratified, every fold's
    positives are Hypergeometric(n_cases, n_pos, m) and two folds' positives jointly (bivariate)
    hypergeometric, which gives the covariance between folds. The joint law is a (types × types) table.
    """
    k, m = n_folds, fold_size
    span = int(tables.ps.max()) + 1
    w = tables.pmf * tables.f
    mu = np.bincount(tables.p, weights=w, minlength=span)  # E[F | p]
    mu2 = np.bincount(tables.p, weights=w * tables.f, minlength=span)  # E[F² | p]
    if stratified:
        q, r = divmod(n_pos, k)
        counts = {q + 1: r, q: k - r}
        mean = sum(c * mu[p] for p, c in counts.items() if c) / k
        var = sum(c * (mu2[p] - mu[p] ** 2) for p, c in counts.items() if c) / k**2
        return float(mean), float(var + mean**2)
    p = np.arange(len(mu))
    h = stats.hypergeom.pmf(p, n_cases, n_pos, m)
    mean = float(h @ mu)
    var1 = float(h @ mu2) - mean**2
    # two folds: P(p1, p2) = C(m, p1) C(m, p2) C(n - 2m, n_pos - p1 - p2) / C(n, n_pos)
    p1, p2 = p[:, None], p[None, :]
    log_h2 = log_comb(m, p1) + log_comb(m, p2) + log_comb(n_cases - 2 * m, n_pos - p1 - p2) - log_comb(n_cases, n_pos)
    h2 = np.exp(log_h2)
    cov = float(mu @ h2 @ mu) - mean**2
    var = (k * var1 + k * (k - 1) * cov) / k**2
    return mean, var + mean**2


def inclusion_exclusion_bits(n_pos: int, n_cases: int, n_folds: int) -> tuple[int, float]:
    """The terms of :func:`p_fold_without_positives`'s sum and about how many bits its exact integers take.

    Only meaningful where that function sums (``n_folds <= n_pos <= n_cases − m``).
    """
    m = n_cases // n_folds
    terms = min(n_folds, (n_cases - n_pos) // m)  # C(n_cases − j·m, n_pos) = 0 for larger j
    j = np.arange(1, min(terms, 10**6) + 1, dtype=float)
    bits = float(np.sum(log_comb(n_folds, j) + log_comb(n_cases - j * m, n_pos))) / math.log(2)
    return terms, bits + float(log_comb(n_cases, n_pos)) / math.log(2)


def p_fold_without_positives(n_pos: int, n_cases: int, n_folds: int, n_trials: int) -> float:
    """Probability that some fold of a random equal-size partition has no positives, over ``n_trials`` trials.

    Inclusion–exclusion over the set of folds left empty, summed in exact integers:
    ``P₁ = Σ_j (−1)^(j+1) C(k, j) C(n_cases − j·m, n_pos) / C(n_cases, n_pos)``, then ``1 − (1 − P₁)^T``.
    1 when ``n_pos < n_folds``, 0 when ``n_pos > n_cases − m``.

    >>> p_fold_without_positives(3, 10, 2, 1)   # 2 · C(5, 3) / C(10, 3)
    0.16666666666666666
    """
    m = n_cases // n_folds
    if n_pos < n_folds:  # some fold surely has no positive (n_pos = 0 included)
        return 1.0
    if n_pos > n_cases - m:  # every fold surely has one
        return 0.0
    terms = min(n_folds, (n_cases - n_pos) // m)
    total = sum(
        (-1) ** (j + 1) * math.comb(n_folds, j) * math.comb(n_cases - j * m, n_pos) for j in range(1, terms + 1)
    )
    p_one = Fraction(total, math.comb(n_cases, n_pos))
    if p_one == 1:
        return 1.0
    return float(-math.expm1(n_trials * math.log1p(-float(p_one))))
