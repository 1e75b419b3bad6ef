"""The bias simulation of Forman & Scholz (2010) §4.2, vectorised, its grid, and look-ups into it (§4.3).

The model (:mod:`apples.theory.fold_model`): ``round(prior · n_cases)`` positives in ``n_folds``
equal folds, dealt stratified (as evenly as possible) or by a uniformly random partition; a
classifier with precision = recall = ``f_true``, so each fold's TP is Binomial(positives, f_true)
and its FP Binomial(negatives, fpr), independently. One repetition is one cross-validation.

The algorithm: every (TP, FP) outcome of a fold with p positives and its probability are tabulated
once per design, and each fold of each repetition draws one outcome by Walker's alias method
(:class:`apples._kernels.fold_model.AliasSet`, one uniform per fold). The five cross-validated
F-measures of every repetition then come from the drawn counts by the F kernel
(:func:`apples._kernels.f_measure.cv_f`, folds on the last axis), one column per key of
:data:`apples.cv.F_AGGREGATIONS`. Repetitions run in chunks of ``_CHUNK_CELLS`` fold cells, chunk
``i`` drawing from ``SeedSequence(seed).spawn(n_chunks)[i]``: the draws do not depend on ``n_jobs``.

Size limit: the outcome tables of folds of m cases hold Σ (p + 1)(m − p + 1) outcomes over the
possible p; a design whose tables (or, unstratified, whose fold-allocation tables) would need more
than 1 GiB is refused when the function is called.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, TypeVar

import numpy as np
import pandas as pd

from apples._kernels.f_measure import FoldSums, cv_f_of_sums, ratio, sum_folds
from apples._kernels.fold_model import (
    OutcomeTables,
    allocation_bytes,
    avg_moments,
    binomial_law,
    design_counts,
    draw_positives,
    fold_types,
    outcome_count,
    stratified_positives,
    tp_fp_moments,
)
from apples._kernels.rounding import percent_text
from apples._params import (
    COUNT,
    FLAG,
    MAX_EXACT_INT,
    SEED,
    Integer,
    Kind,
    Nullable,
    Relation,
    check_int,
    check_table_size,
    declare,
    exempt,
)
from apples.cv.aggregations import F_AGGREGATIONS
from apples.theory import DESIGN, EXACT_METHODS, SimulationDesign
from apples.theory.fold_model import F_TRUE, N_FOLDS, PRIOR

__all__ = [
    "FIGURE_F_TRUE",
    "FIGURE_PANEL_PRIORS",
    "FIGURE_PRIORS",
    "ExploreResult",
    "explore_cv_f",
    "figure_grid",
    "sample_cv_f",
    "simulate_cv_f",
    "simulate_grid",
]

#: x-axis of Forman & Scholz Figures 4 and 5 (class prior, at F = 80%).
FIGURE_PRIORS: tuple[float, ...] = (0.01, 0.015, 0.02, 0.025, 0.03, 0.035, 0.04, 0.045, 0.05)
#: x-axis of Figures 6, 7 and 8 (ground-truth F).
FIGURE_F_TRUE: tuple[float, ...] = (0.60, 0.65, 0.70, 0.75, 0.80, 0.85, 0.90, 0.95)
#: The three panels of Figures 6, 7 and 8 (class prior).
FIGURE_PANEL_PRIORS: tuple[float, ...] = (0.01, 0.05, 0.25)

#: Number of fold cells (repetitions × folds) per chunk; fixes memory and the random streams.
_CHUNK_CELLS = 1 << 15
#: Peak bytes per (TP, FP) outcome while the outcome and alias tables are built (the alias method's
#: Python lists, mostly); with the 1 GiB limit, about 5 million outcomes.
_BYTES_PER_OUTCOME = 200
#: Peak bytes per simulated (repetition, fold) cell: the uniform, the outcome index, the counts and the
#: temporaries of the F aggregations.
_BYTES_PER_FOLD_CELL = 400
#: The columns of every table of estimates: the F aggregations of Forman & Scholz §2.3.
_KEYS = list(F_AGGREGATIONS)

T = TypeVar("T")


# ------------------------------------------------------------------------------------ kinds
class _Reps(Kind):
    """``n_reps`` of :func:`sample_cv_f`: a positive count whose table of estimates fits in memory."""

    what = "a positive integer up to 2**53 whose table of estimates fits in memory"

    def check(self, name: str, value: object) -> int:
        n_reps = check_int(name, value, low=1)
        # the chunks, their concatenation and the DataFrame: three copies of n_reps × 5 floats
        check_table_size(
            f"{n_reps:,} repetitions × 5 estimates",
            3 * 40 * n_reps,
            reduce=f"{name} (simulate_cv_f summarises any number of repetitions in bounded memory)",
        )
        return n_reps


#: Repetitions of :func:`simulate_cv_f` (streamed: any number up to 2**53) and threads.
_N_REPS = Integer(1, MAX_EXACT_INT)
_N_JOBS = Integer(1, MAX_EXACT_INT)
#: Repetitions kept whole, one row each (:func:`sample_cv_f`, :func:`explore_cv_f`).
_SAMPLE_REPS = _Reps()


def _design(prior: float, f_true: float, n_cases: int, n_folds: int) -> SimulationDesign:
    """The §4.2 design of a checked point (the rules of :data:`apples.theory.DESIGN` hold)."""
    n_pos, n_neg, fpr = design_counts(prior, f_true, n_cases)
    return SimulationDesign(n_cases, n_folds, n_cases // n_folds, n_pos, n_neg, f_true, f_true, fpr)


def _per_chunk(design: SimulationDesign) -> int:
    """Repetitions per chunk."""
    return max(1, _CHUNK_CELLS // design.n_folds)


def _check_fits(design: SimulationDesign, stratified: bool) -> None:
    """Refuse a design whose outcome tables, or (unstratified) fold-allocation tables, pass the memory limit."""
    n = outcome_count(design.fold_size, design.n_pos, design.n_neg, design.n_folds, stratified)
    check_table_size(
        f"the (TP, FP) outcome tables of {'stratified' if stratified else 'unstratified'} folds of "
        f"{design.fold_size:,} cases with {design.n_pos:,} positives in all ({n:,} outcomes)",
        n * _BYTES_PER_OUTCOME,
        reduce="the fold size n_cases / n_folds (more folds or fewer cases)"
        + ("" if stratified else ", or use stratified=True"),
    )
    if not stratified:
        n_small, chunk = min(design.n_pos, design.n_neg), _per_chunk(design)
        check_table_size(
            f"unstratified fold allocation ({design.n_folds:,} folds of {design.fold_size:,} cases, {n_small:,} "
            f"cases of the smaller class, {chunk:,} repetitions)",
            allocation_bytes(design.n_cases, design.n_folds, n_small, chunk),
            reduce="n_folds, n_cases, n_reps, or the smaller class (n_pos or n_cases − n_pos)",
        )
    cells = _per_chunk(design) * design.n_folds
    check_table_size(
        f"a chunk of {cells:,} simulated folds (the counts and the F aggregations' temporaries)",
        cells * _BYTES_PER_FOLD_CELL,
        reduce="n_folds",
    )


def _check_exact(design: SimulationDesign, stratified: bool) -> None:
    """Refuse a design whose exact sums of F_tp,fp and F_avg would pass the memory limit (as exact_cv_f does)."""
    check_table_size(
        f"the binomial laws of TP and FP over {design.n_cases:,} cases", 48 * (design.n_cases + 2), reduce="n_cases"
    )
    tp, fp = binomial_law(design.n_pos, design.recall)[0], binomial_law(design.n_neg, design.fpr)[0]
    check_table_size(
        f"the sum of F_tp,fp over {tp.size:,} × {fp.size:,} (TP, FP) outcomes", 32 * tp.size * fp.size, reduce="n_cases"
    )
    if not stratified:
        types = int(fold_types(design.fold_size, design.n_pos, design.n_neg, design.n_folds, False).max()) + 1
        check_table_size(
            f"the joint law of two folds' positives ({types:,} × {types:,} values)",
            100 * types * types,
            reduce="the fold size n_cases / n_folds, or use stratified=True",
        )


class _Fits(Relation):
    """The tables of the design of ``prior``, ``f_true``, ``n_cases``, ``n_folds`` and ``stratified`` fit in memory.

    Checked after :data:`apples.theory.DESIGN` (the design exists); without ``n_cases`` and ``n_folds``
    in the signature, the paper's 1000 cases in 10 folds. With ``exact``, the exact sums too.
    """

    def __init__(self, *names: str, exact: bool = False) -> None:
        self.names = names
        self.exact = exact

    def check(self, values: Mapping[str, Any]) -> None:
        if not {"prior", "f_true", "stratified"} <= values.keys():
            return  # a required argument is missing: Python's TypeError says so
        design = _design(values["prior"], values["f_true"], values.get("n_cases", 1000), values.get("n_folds", 10))
        _check_fits(design, values["stratified"])
        if self.exact:
            _check_exact(design, values["stratified"])


class _Design(Relation):
    """:data:`apples.theory.DESIGN` once ``prior`` and ``f_true`` are given (a missing one is Python's TypeError)."""

    names = DESIGN.names

    def check(self, values: Mapping[str, Any]) -> None:
        if {"prior", "f_true"} <= values.keys():
            DESIGN.check(values)


class _PaperDesign(Relation):
    """``prior`` and ``f_true`` make a §4.2 design of the paper's 1000 cases in 10 folds (:data:`DESIGN`)."""

    names = ("prior", "f_true")

    def check(self, values: Mapping[str, Any]) -> None:
        if {"prior", "f_true"} <= values.keys():
            DESIGN.check({"prior": values["prior"], "f_true": values["f_true"], "n_cases": 1000, "n_folds": 10})


_DESIGN = _Design()
_FITS = _Fits("prior", "f_true", "n_cases", "n_folds", "stratified")
_FITS_EXACT = _Fits("prior", "f_true", "n_cases", "n_folds", "stratified", exact=True)
_FITS_1000 = _Fits("prior", "f_true", "stratified")
_PAPER_DESIGN = _PaperDesign()


class _Points(Kind):
    """A table of §4.2 design points: columns ``prior``, ``f_true``, ``stratified``, each row a valid point.

    Becomes a DataFrame of those three columns holding the checked values (floats and bools): each value
    checked by the kind of the parameter of that name, each row by the design rules at 1000 cases in
    10 folds, errors naming the row.
    """

    what = "a DataFrame with columns prior, f_true and stratified"

    def check(self, name: str, value: object) -> pd.DataFrame:
        example = "(e.g. apples.studies.forman_scholz.figure_grid())"
        if not isinstance(value, pd.DataFrame):
            raise TypeError(
                f"{name} must be a DataFrame with columns prior, f_true and stratified {example}, "
                f"got {type(value).__name__}"
            )
        missing = [c for c in ("prior", "f_true", "stratified") if c not in value.columns]
        if missing:
            raise ValueError(
                f"{name} lacks the column(s) {missing}; it needs prior, f_true and stratified {example}, "
                f"got columns {list(value.columns)[:10]}"
            )
        rows = []
        row: Any  # a row of the caller's table, whose values are checked here (float("0.1") would pass anything)
        for i, row in enumerate(value[["prior", "f_true", "stratified"]].itertuples(index=False)):
            try:
                point = {
                    "prior": PRIOR.check("prior", row.prior),
                    "f_true": F_TRUE.check("f_true", row.f_true),
                    "stratified": FLAG.check("stratified", row.stratified),
                }
                _PAPER_DESIGN.check(point)
                _FITS_1000.check(point)
            except TypeError as err:
                raise TypeError(f"{err} (row {i} of {name})") from None
            except ValueError as err:
                raise ValueError(f"{err} (row {i} of {name})") from None
            rows.append(point)
        return pd.DataFrame(rows, columns=["prior", "f_true", "stratified"])


class _Progress(Kind):
    what = "a callable progress(i, n_points, seconds)"

    def check(self, name: str, value: object) -> Callable[..., object]:
        if not callable(value):
            raise TypeError(f"{name} must be a callable progress(i, n_points, seconds) or None, got {value!r}")
        return value


# ------------------------------------------------------------------------------------ sampling
@lru_cache(maxsize=8)
def _outcomes(design: SimulationDesign, stratified: bool) -> OutcomeTables:
    """The (cached) outcome tables of a design whose size :func:`_check_fits` has let through."""
    ps = fold_types(design.fold_size, design.n_pos, design.n_neg, design.n_folds, stratified)
    return OutcomeTables(design.fold_size, ps, recall=design.recall, fpr=design.fpr)


@lru_cache(maxsize=8)
def _packed(design: SimulationDesign, stratified: bool) -> tuple[np.ndarray, tuple[int, int, int]]:
    """Each outcome's V^(i), [TP + FP > 0], TP and FP packed into one float64 code, and the code's bases.

    A sum of codes over the folds is the code of the four sums: exact, as every sum stays below 2**53
    (V and [TP + FP > 0] are at most k, TP at most the positives, FP at most the negatives), so one
    lookup and one sum give four numbers.
    """
    t = _outcomes(design, stratified)
    b1 = design.n_folds + 1
    b2 = b1 * b1
    b3 = b2 * (design.n_pos + 1)
    code = t.per_fold.valid + b1 * (t.tp + t.fp > 0) + b2 * t.tp + b3 * t.fp.astype(float)
    return np.asarray(code, dtype=float), (b1, b2, b3)


def _draw_outcomes(
    design: SimulationDesign, stratified: bool, seed_seq: np.random.SeedSequence, n: int
) -> tuple[np.ndarray, np.ndarray]:
    """Each fold's positives, shape (1 or ``n``, folds), and the index of its drawn outcome in the outcome
    tables, shape (folds, ``n``): one row per fold."""
    rng = np.random.default_rng(seed_seq)
    k = design.n_folds
    if stratified:
        positives = stratified_positives(design.n_pos, k)[None, :]
    else:
        positives = draw_positives(rng, design.n_cases, k, design.n_pos, n)
    u = rng.random((n, k))
    return positives, np.ascontiguousarray(_outcomes(design, stratified).sample(positives, u).T)


def _draw(design: SimulationDesign, stratified: bool, seed_seq: np.random.SeedSequence, n: int) -> FoldSums:
    """The fold sums of ``n`` simulated cross-validations: each fold's outcome drawn, its F, precision and
    recall looked up in the outcome tables (computed once per outcome by the F kernel) and summed."""
    k = design.n_folds
    positives, idx = _draw_outcomes(design, stratified, seed_seq, n)
    tables = _outcomes(design, stratified)
    v = tables.per_fold
    code, (b1, b2, b3) = _packed(design, stratified)
    packed = np.rint(sum_folds(code.take(idx), axis=0)).astype(np.int64)
    fp, rest = np.divmod(packed, b3)
    tp, rest = np.divmod(rest, b2)
    precision_defined, valid = np.divmod(rest, b1)
    with_positives = (positives > 0).sum(axis=1)  # one value (stratified) or one per repetition
    return FoldSums(
        f=sum_folds(v.f.take(idx), axis=0),
        precision=sum_folds(v.precision.take(idx), axis=0),
        recall=sum_folds(v.recall.take(idx), axis=0),
        valid=valid.astype(float),
        precision_defined=precision_defined.astype(float),
        recall_defined=np.broadcast_to(with_positives, (n,)).astype(float),
        tp=tp.astype(float),
        fp=fp.astype(float),
        fn=(design.n_pos - tp).astype(float),
        k=k,
    )


def _estimates(sums: FoldSums) -> np.ndarray:
    """The five F aggregations of each repetition's fold sums, columns as ``_KEYS``.

    Skip aggregations are NaN in rows without a valid fold.
    """
    out = np.empty((sums.tp.shape[0], len(_KEYS)))
    for j, a in enumerate(F_AGGREGATIONS.values()):
        out[:, j] = cv_f_of_sums(sums, method=a.method, undefined=a.undefined)
    return out


def _seed_entropy(seed: int | np.random.Generator) -> int:
    """An integer seed: the seed itself, or one integer drawn from a Generator."""
    return int(seed.integers(2**63)) if isinstance(seed, np.random.Generator) else seed


def _run(
    design: SimulationDesign,
    stratified: bool,
    n_reps: int,
    seed: int,
    n_jobs: int,
    reduce: Callable[[np.ndarray], T],
) -> list[T]:
    """``reduce`` of every chunk's estimates, in chunk order (chunk ``i`` from the ``i``-th spawned seed)."""
    per_chunk = _per_chunk(design)
    sizes = [per_chunk] * (n_reps // per_chunk)
    if n_reps % per_chunk:
        sizes.append(n_reps % per_chunk)
    seeds = np.random.SeedSequence(seed).spawn(len(sizes))

    def work(i: int) -> T:
        return reduce(_estimates(_draw(design, stratified, seeds[i], sizes[i])))

    if n_jobs == 1 or len(sizes) == 1:
        return [work(i) for i in range(len(sizes))]
    with ThreadPoolExecutor(max_workers=n_jobs) as pool:
        return list(pool.map(work, range(len(sizes))))


def _sample(design: SimulationDesign, stratified: bool, n_reps: int, seed: int, n_jobs: int) -> pd.DataFrame:
    """Every repetition's five estimates (:func:`sample_cv_f` of checked arguments)."""
    chunks = _run(design, stratified, n_reps, seed, n_jobs, reduce=lambda est: est)
    return pd.DataFrame(np.concatenate(chunks), columns=_KEYS)


@declare(
    prior=PRIOR,
    f_true=F_TRUE,
    stratified=FLAG,
    n_reps=_SAMPLE_REPS,
    n_cases=COUNT,
    n_folds=N_FOLDS,
    seed=SEED,
    n_jobs=_N_JOBS,
    relations=[_DESIGN, _FITS],
)
def sample_cv_f(
    prior: float,
    f_true: float,
    *,
    stratified: bool,
    n_reps: int,
    n_cases: int = 1000,
    n_folds: int = 10,
    seed: int | np.random.Generator = 0,
    n_jobs: int = 1,
) -> pd.DataFrame:
    """Every repetition's five cross-validated F-measures (Forman & Scholz §4.2).

    Parameters
    ----------
    prior, f_true, n_cases, n_folds
        The simulation point; see :func:`apples.theory.simulation_design`.
    stratified : bool
        Stratified or unstratified folds.
    n_reps : int
        Repetitions (rows). Memory is ``40 · n_reps`` bytes for the result
        (about three times that while it is built); more than 1 GiB in all
        (``n_reps`` above about 8.9 million) is refused: :func:`simulate_cv_f`
        summarises any number of repetitions in bounded memory.
    seed : int or numpy.random.Generator, default 0
        Seed (a Generator gives one integer seed); results are identical for every ``n_jobs``.
    n_jobs : int, default 1
        Threads.

    Returns
    -------
    DataFrame of shape (n_reps, 5)
        Columns the keys of :data:`apples.cv.F_AGGREGATIONS`, in its order; each value is
        :func:`apples.cv_f_measure` of the repetition's fold counts by that aggregation. The skip
        aggregations are NaN in repetitions without a valid fold.

    Examples
    --------
    >>> from apples.studies.forman_scholz import sample_cv_f
    >>> est = sample_cv_f(0.05, 0.8, stratified=True, n_reps=1000, seed=1)
    >>> list(est.columns), est.shape
    (['tp_fp', 'avg', 'pr_re', 'avg_skip', 'pr_re_skip'], (1000, 5))
    """
    return _sample(_design(prior, f_true, n_cases, n_folds), stratified, n_reps, _seed_entropy(seed), n_jobs)


def _moments(est: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Count, mean and sum of squared deviations of each column's defined values."""
    ok = ~np.isnan(est)
    n = ok.sum(axis=0)
    x = np.where(ok, est, 0.0)
    mean = ratio(x.sum(axis=0), n)
    dev = np.where(ok, est - mean, 0.0)
    return n, mean, (dev * dev).sum(axis=0)


def _combine(parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Chan et al.'s pairwise update of (count, mean, sum of squared deviations), in chunk order."""
    n, mean, m2 = parts[0]
    n, mean, m2 = n.astype(float), np.nan_to_num(mean), m2
    for nb, mb, m2b in parts[1:]:
        tot = n + nb
        delta = np.nan_to_num(mb) - mean
        w = np.nan_to_num(ratio(nb, tot))  # 0 where no chunk so far had a defined value
        mean = mean + delta * w
        m2 = m2 + m2b + delta * delta * n * w
        n = tot
    return n, mean, m2


def _simulate(design: SimulationDesign, stratified: bool, n_reps: int, seed: int, n_jobs: int) -> pd.DataFrame:
    """:func:`simulate_cv_f` of checked arguments."""
    n, mean, m2 = _combine(_run(design, stratified, n_reps, seed, n_jobs, reduce=_moments))
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
        index=pd.Index(_KEYS, name="method"),
    )
    table.attrs.update(design=design, stratified=stratified, n_reps=n_reps, seed=seed)
    return table


@declare(
    prior=PRIOR,
    f_true=F_TRUE,
    stratified=FLAG,
    n_reps=_N_REPS,
    n_cases=COUNT,
    n_folds=N_FOLDS,
    seed=SEED,
    n_jobs=_N_JOBS,
    relations=[_DESIGN, _FITS],
)
def simulate_cv_f(
    prior: float,
    f_true: float,
    *,
    stratified: bool,
    n_reps: int,
    n_cases: int = 1000,
    n_folds: int = 10,
    seed: int | np.random.Generator = 0,
    n_jobs: int = 1,
) -> pd.DataFrame:
    """Bias and variance of the five cross-validated F-measures (Forman & Scholz §4.2–4.3).

    Repeats a simulated ``n_folds``-fold cross-validation ``n_reps`` times
    (see the module docstring for the model and the algorithm) and summarises
    each aggregation over the repetitions, streaming chunk by chunk so memory does
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
    seed : int or numpy.random.Generator, default 0
        Seed (a Generator gives one integer seed); the result is bit-for-bit the same for every
        ``n_jobs``.
    n_jobs : int, default 1
        Threads (numpy releases the GIL in the heavy steps).

    Returns
    -------
    DataFrame
        Index the keys of :data:`apples.cv.F_AGGREGATIONS` (name ``method``); columns ``mean``, ``std``
        (sample standard deviation over repetitions), ``bias`` (mean −
        f_true), ``relative_bias`` (bias / f_true), ``relative_std`` (std /
        f_true), ``sem`` (standard error of the mean, std / √n) and
        ``n_undefined`` (repetitions without any valid fold, where a skip
        aggregation is undefined and left out of the mean; 0 for the others).
        ``attrs`` holds the :class:`~apples.theory.SimulationDesign` and the arguments.

    Raises
    ------
    ValueError, TypeError
        For a bad design (see :func:`apples.theory.simulation_design`), ``n_reps < 1`` or a
        bad ``seed``/``n_jobs``/``stratified``. A ValueError too for folds so
        large that the outcome tables would need more than 1 GiB (see
        "Size limit" in the module docstring).

    References
    ----------
    Forman & Scholz (2010), §4.2 (the simulation), §4.3 and Figures 4–8.

    Examples
    --------
    >>> from apples.studies.forman_scholz import simulate_cv_f
    >>> t = simulate_cv_f(0.05, 0.8, stratified=True, n_reps=20000, seed=0)
    >>> bool(abs(t.loc["tp_fp", "relative_bias"]) < abs(t.loc["avg", "relative_bias"]))
    True
    """
    return _simulate(_design(prior, f_true, n_cases, n_folds), stratified, n_reps, _seed_entropy(seed), n_jobs)


@exempt("takes no arguments")
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
    >>> from apples.studies.forman_scholz import figure_grid
    >>> len(figure_grid())
    62
    """
    return _figure_grid()


def _figure_grid() -> pd.DataFrame:
    """The points of Figures 4–8 (:func:`figure_grid`)."""
    rows = {(p, 0.80, s) for p in FIGURE_PRIORS for s in (True, False)}
    rows |= {(p, f, s) for p in FIGURE_PANEL_PRIORS for f in FIGURE_F_TRUE for s in (True, False)}
    ordered = sorted(rows, key=lambda r: (not r[2], r[0], r[1]))
    return pd.DataFrame(ordered, columns=["prior", "f_true", "stratified"])


@declare(points=Nullable(_Points()), n_reps=_N_REPS, seed=SEED, n_jobs=_N_JOBS, progress=Nullable(_Progress()))
def simulate_grid(
    points: pd.DataFrame | None = None,
    *,
    n_reps: int,
    seed: int | np.random.Generator = 0,
    n_jobs: int = 1,
    progress: Callable[[int, int, float], object] | None = None,
) -> pd.DataFrame:
    """:func:`simulate_cv_f` at every point of a grid, as one long table.

    Parameters
    ----------
    points : DataFrame, optional
        Columns ``prior``, ``f_true``, ``stratified``, each row a valid point at 1000 cases in
        10 folds; default :func:`figure_grid`.
    n_reps : int
        Repetitions per point (the paper: 10**6).
    seed : int or numpy.random.Generator, default 0
        Point ``i`` uses seed ``SeedSequence([seed, i]).generate_state(1)[0]`` (a Generator gives
        one integer seed first).
    n_jobs : int, default 1
        Threads per point.
    progress : callable, optional
        Called as ``progress(i, n_points, seconds)`` after each point.

    Returns
    -------
    DataFrame
        One row per point and aggregation: ``prior``, ``f_true``, ``stratified``,
        ``method`` and the columns of :func:`simulate_cv_f`, plus ``seconds``
        (wall time of the point).

    Examples
    --------
    >>> from apples.studies.forman_scholz import figure_grid, simulate_grid
    >>> g = simulate_grid(figure_grid().head(2), n_reps=100)
    >>> g.shape
    (10, 12)
    """
    points = _figure_grid() if points is None else points  # the default is valid; a given table is checked
    seed = _seed_entropy(seed)
    frames = []
    for i, (prior, f_true, stratified) in enumerate(points[["prior", "f_true", "stratified"]].itertuples(index=False)):
        point_seed = int(np.random.SeedSequence([seed, i]).generate_state(1)[0])
        start = time.perf_counter()
        t = _simulate(_design(float(prior), float(f_true), 1000, 10), bool(stratified), n_reps, point_seed, n_jobs)
        seconds = time.perf_counter() - start
        t = t.reset_index()
        t.insert(0, "stratified", bool(stratified))
        t.insert(0, "f_true", float(f_true))
        t.insert(0, "prior", float(prior))
        t["seconds"] = seconds
        frames.append(t)
        if progress is not None:
            progress(i, len(points), seconds)
    return pd.concat(frames, ignore_index=True)


@exempt("a result type: explore_cv_f makes it from checked arguments")
@dataclass
class ExploreResult:
    """What :func:`explore_cv_f` returns.

    Attributes
    ----------
    estimates : DataFrame
        One row per repetition, one column per F aggregation (NaN: skip aggregation undefined).
    summary : DataFrame
        Per aggregation: ``mean``, ``bias``, ``relative_bias``, ``std``, ``n_undefined``,
        and ``exact_mean`` (NaN where no exact sum exists).
    f_true : float
        The ground truth.
    text : str
        A one-paragraph plain-text summary.
    """

    estimates: pd.DataFrame
    summary: pd.DataFrame
    f_true: float
    text: str = field(default="")


def _exact(design: SimulationDesign, stratified: bool, method: str, statistic: str = "mean") -> float:
    """The exact mean (or standard deviation) of F_tp,fp or F_avg, the sums of :func:`apples.theory.exact_cv_f`."""
    if method == "tp_fp":
        tp_law, fp_law = binomial_law(design.n_pos, design.recall), binomial_law(design.n_neg, design.fpr)
        mean, second = tp_fp_moments(design.n_pos, tp_law, fp_law)
    else:
        mean, second = avg_moments(
            _outcomes(design, stratified),
            n_cases=design.n_cases,
            n_pos=design.n_pos,
            n_folds=design.n_folds,
            fold_size=design.fold_size,
            stratified=stratified,
        )
    return mean if statistic == "mean" else math.sqrt(max(second - mean * mean, 0.0))


def _explore(
    prior: float, f_true: float, n_folds: int, n_cases: int, stratified: bool, n_reps: int, seed: int
) -> ExploreResult:
    """:func:`explore_cv_f` of checked arguments."""
    design = _design(prior, f_true, n_cases, n_folds)
    est = _sample(design, stratified, n_reps, seed, 1)
    mean = est.mean()
    summary = pd.DataFrame(
        {
            "mean": mean,
            "bias": mean - f_true,
            "relative_bias": (mean - f_true) / f_true,
            "std": est.std(ddof=1) if n_reps > 1 else np.nan,
            "n_undefined": est.isna().sum().astype(int),
            "exact_mean": [_exact(design, stratified, m) if m in EXACT_METHODS else np.nan for m in _KEYS],
        },
        index=pd.Index(_KEYS, name="method"),
    )
    best = str(summary["bias"].abs().idxmin())  # a key of F_AGGREGATIONS (str() for the type checker)
    text = (
        f"{design.n_pos} positives in {n_cases} cases, {n_folds} {'stratified' if stratified else 'unstratified'} "
        f"folds, true F = {percent_text(f_true, decimals=1)}, {n_reps:,} repetitions. "
        f"Smallest |bias|: {F_AGGREGATIONS[best].symbol} ({summary['bias'].loc[best] * 100:+.2f} points)."
    )
    return ExploreResult(estimates=est, summary=summary, f_true=float(f_true), text=text)


@declare(
    prior=PRIOR,
    f_true=F_TRUE,
    n_folds=N_FOLDS,
    n_cases=COUNT,
    stratified=FLAG,
    n_reps=_SAMPLE_REPS,
    seed=SEED,
    relations=[_DESIGN, _FITS_EXACT],
)
def explore_cv_f(
    prior: float,
    f_true: float,
    *,
    n_folds: int = 10,
    n_cases: int = 1000,
    stratified: bool = True,
    n_reps: int = 20_000,
    seed: int | np.random.Generator = 0,
) -> ExploreResult:
    """Simulate one point and summarise every F aggregation against the truth and the exact expectation.

    Parameters
    ----------
    prior, f_true, n_folds, n_cases, stratified, n_reps, seed
        As in :func:`apples.studies.forman_scholz.sample_cv_f`.

    Returns
    -------
    ExploreResult

    Examples
    --------
    >>> from apples.studies.forman_scholz import explore_cv_f
    >>> from apples.theory import exact_cv_f
    >>> r = explore_cv_f(0.01, 0.8, n_reps=2000)
    >>> bool(r.summary.loc["tp_fp", "exact_mean"] == exact_cv_f(0.01, 0.8, stratified=True, method="tp_fp"))
    True
    """
    return _explore(prior, f_true, n_folds, n_cases, stratified, n_reps, _seed_entropy(seed))
