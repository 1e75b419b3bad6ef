"""The Forman & Scholz (2010) §4.2 model's counts and fold allocations: closed forms and samplers, unchecked.

:mod:`apples.theory.fold_model` checks a design and calls these; :mod:`apples.theory.cv_f_expectations`
sums over the same hypergeometric laws, and the simulation of :mod:`apples.studies.forman_scholz` draws
from the same allocation tables. Sizes are the caller's to bound (:func:`allocation_bytes` estimates
them before anything is built).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np
from scipy import special

__all__ = [
    "AliasSet",
    "allocation_bytes",
    "allocation_tables",
    "design_counts",
    "draw_positives",
    "log_comb",
    "stratified_positives",
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
    n_pos = math.floor(prior * n_cases + 0.5)
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
