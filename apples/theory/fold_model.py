"""The model behind the bias simulation of Forman & Scholz (2010) §4.2: design, fold allocations, outcome tables.

A classifier with fixed true- and false-positive rates on n cases in k folds;
the positives are dealt to folds at random or stratified, and each fold's TP
and FP are binomial. This module holds the design and the exact distributions;
:mod:`apples.theory.cv_f_expectations` sums expectations exactly and
:mod:`apples.studies.forman_scholz.simulation` samples them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import pandas as pd

from apples._kernels.fold_model import (
    OutcomeTables,
    allocation_bytes,
    design_counts,
    fold_types,
    outcome_count,
    stratified_positives,
)
from apples._kernels.fold_model import allocation_tables as _allocation_tables  # noqa: F401 (the benchmarks clear it)
from apples._kernels.fold_model import draw_positives as _draw_positives
from apples._params import (
    COUNT,
    FLAG,
    MAX_EXACT_INT,
    SEED,
    Integer,
    ParameterValueError,
    Real,
    Relation,
    check_table_size,
    declare,
    exempt,
)

__all__ = [
    "DESIGN",
    "EQUAL_FOLDS",
    "SimulationDesign",
    "fold_positives",
    "simulation_design",
]
#: Peak bytes per (TP, FP) outcome while the outcome and alias tables are built (measured: about
#: 200, most of it the alias method's Python lists). With MAX_TABLE_BYTES (1 GiB) this allows about
#: 5 million outcomes, e.g. stratified folds of 4,000 cases at a prior of 0.5; the paper's folds of 100
#: cases need at most 180,000.
_BYTES_PER_OUTCOME = 200


# ----------------------------------------------------------------------------- design
@exempt("a result type: simulation_design makes it from checked arguments")
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


class _FoldDesign(Relation):
    """``n_folds`` divides ``n_cases`` into equal folds; with ``prior`` and ``f_true``, a §4.2 design exists.

    The design needs at least one positive and one negative after rounding ``prior · n_cases``, and a
    classifier with precision = recall = ``f_true``, whose false positive rate is at most 1.
    """

    def __init__(self, *names: str) -> None:
        self.names = names

    def check(self, values: Mapping[str, Any]) -> None:
        n_cases, n_folds = values["n_cases"], values["n_folds"]
        if n_cases < n_folds:
            raise ParameterValueError(f"n_cases={n_cases} is smaller than n_folds={n_folds}", param="n_cases")
        if n_cases % n_folds:
            raise ParameterValueError(
                f"n_folds={n_folds} does not divide n_cases={n_cases}; the simulation needs equal-size folds",
                param="n_folds",
            )
        if "prior" not in self.names:
            return
        prior, f_true = values["prior"], values["f_true"]
        n_pos, n_neg, fpr = design_counts(prior, f_true, n_cases)
        if n_pos == 0 or n_neg == 0:
            raise ParameterValueError(
                f"prior={prior!r} × n_cases={n_cases} rounds to {n_pos} positives; "
                "the simulation needs at least one positive and one negative",
                param="prior",
            )
        if fpr > 1.0:
            raise ParameterValueError(
                f"no classifier has precision = recall = f_true={f_true!r} at prior={prior!r}: "
                f"it would need a false positive rate of {fpr:.3g} > 1",
                param="f_true",
            )


#: The kind of ``prior``, the fraction of positives: a real number strictly between 0 and 1.
PRIOR = Real(0.0, 1.0, low_inclusive=False, high_inclusive=False)
#: The kind of ``f_true``, the ground-truth F-measure (= precision = recall): a real number in (0, 1].
F_TRUE = Real(0.0, 1.0, low_inclusive=False)
#: The kind of ``n_folds``: at least two folds (``n_cases`` is a ``COUNT``).
N_FOLDS = Integer(2, MAX_EXACT_INT)
#: The rule between ``n_cases`` and ``n_folds``: folds of equal size.
EQUAL_FOLDS = _FoldDesign("n_cases", "n_folds")
#: The rules of a §4.2 design between ``prior``, ``f_true``, ``n_cases`` and ``n_folds`` (:func:`simulation_design`).
DESIGN = _FoldDesign("n_cases", "n_folds", "prior", "f_true")
_N_REPS = Integer(1, MAX_EXACT_INT)


def _design(prior: float, f_true: float, n_cases: int, n_folds: int) -> SimulationDesign:
    """The design of a checked point (the rules of :data:`DESIGN` hold)."""
    n_pos, n_neg, fpr = design_counts(prior, f_true, n_cases)
    return SimulationDesign(n_cases, n_folds, n_cases // n_folds, n_pos, n_neg, f_true, f_true, fpr)


@declare(prior=PRIOR, f_true=F_TRUE, n_cases=COUNT, n_folds=N_FOLDS, relations=[DESIGN])
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
    >>> from apples.theory import simulation_design
    >>> d = simulation_design(0.01, 0.8)
    >>> d.n_pos, d.n_neg, d.fold_size, round(d.fpr, 6)
    (10, 990, 100, 0.00202)
    """
    return _design(prior, f_true, n_cases, n_folds)


# ------------------------------------------------------------------ fold allocation
def _check_allocation_size(n_cases: int, n_folds: int, n_small: int, n_reps: int) -> None:
    """Refuse fold allocations whose alias tables or draws would exceed MAX_TABLE_BYTES (estimated first)."""
    check_table_size(
        f"unstratified fold allocation ({n_folds:,} folds of {n_cases // n_folds:,} cases, {n_small:,} cases "
        f"of the smaller class, {n_reps:,} repetitions)",
        allocation_bytes(n_cases, n_folds, n_small, n_reps),
        reduce="n_folds, n_cases, n_reps, or the smaller class (n_pos or n_cases − n_pos)",
    )


def draw_positives(rng: np.random.Generator, design: SimulationDesign, size: int) -> np.ndarray:
    """Positives per fold of ``size`` uniformly random equal-size partitions of ``design``, shape (size, k).

    The kernel :func:`apples._kernels.fold_model.draw_positives` after the size limit (not exported:
    for apples.studies.forman_scholz).
    """
    _check_allocation_size(design.n_cases, design.n_folds, min(design.n_pos, design.n_neg), size)
    return _draw_positives(rng, design.n_cases, design.n_folds, design.n_pos, size)


@declare(
    n_pos=COUNT,
    n_cases=COUNT,
    n_folds=N_FOLDS,
    stratified=FLAG,
    n_reps=_N_REPS,
    seed=SEED,
    relations=[EQUAL_FOLDS],
)
def fold_positives(
    n_pos: int,
    *,
    n_cases: int = 1000,
    n_folds: int = 10,
    stratified: bool,
    n_reps: int = 1,
    seed: int | np.random.Generator = 0,
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
    seed : int or numpy.random.Generator, default 0
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
    >>> from apples.theory import fold_positives
    >>> fold_positives(25, n_cases=1000, n_folds=10, stratified=True)
    array([[3, 3, 3, 3, 3, 2, 2, 2, 2, 2]])
    >>> fold_positives(25, n_folds=10, stratified=False, n_reps=4, seed=1).sum(axis=1)
    array([25, 25, 25, 25])
    """
    if n_pos > n_cases:
        raise ParameterValueError(f"n_pos={n_pos} is larger than n_cases={n_cases}", param="n_pos")
    if stratified:
        check_table_size(
            f"a table of {n_reps:,} × {n_folds:,} fold counts", 8 * n_reps * n_folds, reduce="n_reps or n_folds"
        )
        return np.tile(stratified_positives(n_pos, n_folds), (n_reps, 1))
    _check_allocation_size(n_cases, n_folds, min(n_pos, n_cases - n_pos), n_reps)
    return _draw_positives(np.random.default_rng(seed), n_cases, n_folds, n_pos, n_reps)


# ------------------------------------------------------------------- outcome tables
def _outcome_count(design: SimulationDesign, stratified: bool) -> int:
    """Number of (TP, FP) outcomes the tables hold: Σ (p + 1)(m − p + 1) over the fold types p (exact)."""
    return outcome_count(design.fold_size, design.n_pos, design.n_neg, design.n_folds, stratified)


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
def outcome_tables(design: SimulationDesign, stratified: bool) -> OutcomeTables:
    """The (cached) table of every fold outcome of ``design`` and its probability, after a size check."""
    _check_outcome_size(design, stratified)
    ps = fold_types(design.fold_size, design.n_pos, design.n_neg, design.n_folds, stratified)
    return OutcomeTables(design.fold_size, ps, recall=design.recall, fpr=design.fpr)


def check_points(points: object) -> pd.DataFrame:
    """``points`` if it is a DataFrame with columns ``prior``, ``f_true``, ``stratified`` (not exported).

    The table check of the kind of :func:`apples.theory.exact_grid`'s ``points`` (which checks each row's
    values too) and of :func:`apples.studies.forman_scholz.simulate_grid`.
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
