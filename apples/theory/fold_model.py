"""The model behind the bias simulation of Forman & Scholz (2010) §4.2: design, fold allocations, outcome tables.

A classifier with fixed true- and false-positive rates on n cases in k folds;
the positives are dealt to folds at random or stratified, and each fold's TP
and FP are binomial. This module holds the design and the exact distributions;
:mod:`apples.theory.cv_f_expectations` sums expectations exactly and
:mod:`apples.studies.forman_scholz.simulation` samples them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd
from scipy import special, stats

from apples._params import (
    check_bool,
    check_count,
    check_folds_cases,
    check_positive,
    check_real,
    check_seed,
    check_table_size,
    divide,
)

__all__ = [
    "SimulationDesign",
    "fold_positives",
    "simulation_design",
]
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
def stratified_positives(n_pos: int, n_folds: int) -> np.ndarray:
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


def draw_positives(rng: np.random.Generator, design: SimulationDesign, size: int) -> np.ndarray:
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
    seed = check_seed("seed", seed)
    if stratified:
        check_table_size(
            f"a table of {n_reps:,} × {n_folds:,} fold counts", 8 * n_reps * n_folds, reduce="n_reps or n_folds"
        )
        return np.tile(stratified_positives(n_pos, n_folds), (n_reps, 1))
    design = SimulationDesign(n_cases, n_folds, n_cases // n_folds, n_pos, n_cases - n_pos, 1.0, 1.0, 0.0)
    return draw_positives(np.random.default_rng(seed), design, n_reps)


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
        ps = set(stratified_positives(design.n_pos, design.n_folds).tolist())
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
        return stratified_positives(design.n_pos, design.n_folds)
    m = design.fold_size
    return np.arange(max(0, m - design.n_neg), min(m, design.n_pos) + 1)


def check_points(points: object) -> pd.DataFrame:
    """``points`` if it is a DataFrame with columns ``prior``, ``f_true``, ``stratified`` (not exported).

    Shared with :func:`apples.theory.exact_grid`; the values are checked where they are used.
    """
    if not isinstance(points, pd.DataFrame):
        raise TypeError(
            "points must be a DataFrame with columns prior, f_true and stratified "
            f"(e.g. apples.studies.forman_scholz.figure_grid()), got {type(points).__name__}"
        )
    missing = [c for c in ("prior", "f_true", "stratified") if c not in points.columns]
    if missing:
        raise ValueError(
            f"points lacks the column(s) {missing}; it needs prior, f_true and stratified "
            f"(e.g. apples.studies.forman_scholz.figure_grid()), got columns {list(points.columns)[:10]}"
        )
    return points
