"""Reading the bias simulation's results: lookups into the Figures 4-8 grid and the formats notebook 03 prints.

:func:`relative_bias`, :func:`relative_bias_line`, :func:`bias_ratios` and
:func:`sd_leaders` read the grid of :func:`~apples.studies.forman_scholz.simulate_grid`; :func:`format_fold_counts` and
:func:`format_chance` print fold counts and small probabilities (Figure 9) as the notebook shows them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from apples._params import (
    FLAG,
    MAX_EXACT_INT,
    Frame,
    Kind,
    Options,
    ParameterValueError,
    Real,
    declare,
)
from apples.cv.aggregations import F_AGGREGATIONS
from apples.studies.forman_scholz.simulation import FIGURE_F_TRUE, FIGURE_PANEL_PRIORS

__all__ = [
    "bias_peaks",
    "bias_ratios",
    "format_chance",
    "format_fold_counts",
    "relative_bias",
    "relative_bias_line",
    "sd_leaders",
]

_GRID = "simulate_grid output"


class _Methods(Kind):
    """A sequence of keys of :data:`apples.cv.F_AGGREGATIONS` (not a string); becomes a list."""

    what = "a sequence of keys of apples.cv.F_AGGREGATIONS"

    def __init__(self, *, empty_ok: bool) -> None:
        self.empty_ok = empty_ok

    def check(self, name: str, value: object) -> list[str]:
        if isinstance(value, str) or not isinstance(value, Iterable):
            raise TypeError(f"{name} must be a sequence of keys of apples.cv.F_AGGREGATIONS, got {value!r}")
        methods = list(value)
        unknown = [m for m in methods if not isinstance(m, str) or m not in F_AGGREGATIONS]
        if unknown:
            raise ValueError(f"{name} has {unknown!r}, not keys of apples.cv.F_AGGREGATIONS {tuple(F_AGGREGATIONS)}")
        if not (methods or self.empty_ok):
            raise ValueError(f"{name} is empty; give keys of apples.cv.F_AGGREGATIONS {tuple(F_AGGREGATIONS)}")
        return methods


class _FoldPositives(Kind):
    """One repetition's positives per fold: a non-empty 1-d array-like of integer counts in [0, 2**53]."""

    what = "a one-dimensional array of integer counts of positives, one per fold"

    def check(self, name: str, value: object) -> list[int]:
        if isinstance(value, (str, bytes)):
            raise TypeError(f"{name} must be an array of integer counts, got {value!r}")
        arr = np.asarray(value, dtype=object if isinstance(value, (list, tuple)) else None)
        if arr.ndim != 1 or arr.size == 0:
            raise ValueError(f"{name} must be 1-d and non-empty (one count per fold), got shape {arr.shape}")
        counts = arr.tolist()
        bad = [c for c in counts if isinstance(c, bool) or not isinstance(c, int)]
        if bad:
            raise TypeError(f"{name} must hold integer counts, got {bad[0]!r} ({type(bad[0]).__name__})")
        if min(counts) < 0 or max(counts) > MAX_EXACT_INT:
            raise ValueError(f"{name} must be counts of positives in [0, 2**53], got {counts}")
        return counts


def _grid(*columns: str) -> Frame:
    """The kind of a :func:`simulate_grid` table holding ``columns``."""
    return Frame(columns, source=_GRID)


# -- notebook 03: look-ups into the simulated grid, number formats (§4.3, Figure 9) ------------------
@declare(counts=_FoldPositives())
def format_fold_counts(counts: Sequence[int] | np.ndarray) -> str:
    """One repetition's positives per fold (a row of :func:`apples.theory.fold_positives`, §4.2) as text.

    Parameters
    ----------
    counts : 1-d array-like of non-negative int

    Returns
    -------
    str
        The counts separated by spaces, e.g. ``format_fold_counts([3, 3, 2]) == "3 3 2"``.
    """
    return " ".join(str(c) for c in counts)


def _relative_bias(grid: pd.DataFrame, prior: float, f_true: float, stratified: bool, method: str) -> float:
    """:func:`relative_bias` of checked arguments."""
    at = np.isclose(grid["prior"], prior) & np.isclose(grid["f_true"], f_true)
    rows = grid[at & (grid["stratified"] == stratified) & (grid["method"] == method)]
    if len(rows) != 1:
        raise ParameterValueError(
            f"grid has {len(rows) or 'no'} row(s) at prior={prior!r}, f_true={f_true!r}, "
            f"stratified={stratified}, method={method!r}; pass a point of the simulated grid",
            param="grid",
        )
    return float(rows["relative_bias"].iloc[0])


@declare(
    grid=_grid("prior", "f_true", "stratified", "method", "relative_bias"),
    prior=Real(),
    f_true=Real(),
    stratified=FLAG,
    method=Options(*F_AGGREGATIONS),
)
def relative_bias(grid: pd.DataFrame, *, prior: float, f_true: float, stratified: bool, method: str) -> float:
    """The relative bias, (mean − F) / F, of one method at one point of the grid (§4.3, Figures 4–7).

    Parameters
    ----------
    grid : DataFrame
        :func:`simulate_grid` output (columns ``prior``, ``f_true``, ``stratified``,
        ``method``, ``relative_bias``).
    prior, f_true : float
        The point, matched with :func:`numpy.isclose`.
    stratified : bool
    method : str, one of the keys of :data:`apples.cv.F_AGGREGATIONS`

    Returns
    -------
    float
        Its ``relative_bias``; a ValueError if the grid has no row (or several) there.
    """
    return _relative_bias(grid, prior, f_true, stratified, method)


@declare(
    grid=_grid("prior", "f_true", "stratified", "method", "relative_bias"),
    prior=Real(),
    f_true=Real(),
    stratified=FLAG,
    methods=_Methods(empty_ok=False),
)
def relative_bias_line(
    grid: pd.DataFrame, *, prior: float, f_true: float, stratified: bool, methods: Iterable[str] = tuple(F_AGGREGATIONS)
) -> str:
    """Several methods' :func:`relative_bias` at one grid point as text, e.g. ``"F_avg -6.34%, F_tp,fp -0.14%"``.

    The §4.3 claims in notebook 03 quote these lines. ``methods`` (default
    the keys of :data:`apples.cv.F_AGGREGATIONS`) gives the methods and their order.
    """
    return ", ".join(
        f"{F_AGGREGATIONS[m].symbol} {_relative_bias(grid, prior, f_true, stratified, m):+.2%}" for m in methods
    )


@declare(grid=_grid("stratified", "prior", "f_true", "method", "bias"))
def bias_ratios(grid: pd.DataFrame) -> pd.DataFrame:
    """How many times larger the other methods' absolute bias is than F_tp,fp's at each grid point (§4.3, claim 7).

    Forman & Scholz write that pooling "reduced the bias by two orders of magnitude".
    At each (stratified, prior, f_true) point this divides the smallest and the mean
    absolute bias of the four other methods by that of F_tp,fp. The denominator is a
    simulated bias: where F_tp,fp's exact bias is nearly 0 the ratio mostly
    measures Monte Carlo noise (notebook 03 compares with the exact bias).

    Parameters
    ----------
    grid : DataFrame
        :func:`simulate_grid` output (columns ``stratified``, ``prior``, ``f_true``,
        ``method``, ``bias``), every method at every point.

    Returns
    -------
    pandas.DataFrame
        Index (``stratified``, ``prior``, ``f_true``); columns ``best_other`` and
        ``mean_other``.
    """
    wide = grid.pivot_table(index=["stratified", "prior", "f_true"], columns="method", values="bias")
    if "tp_fp" not in wide.columns or wide.shape[1] < 2:
        raise ParameterValueError(
            "grid must hold the method 'tp_fp' and at least one other method at each point", param="grid"
        )
    others = wide.drop(columns="tp_fp").abs()
    tp_fp = wide["tp_fp"].abs()
    return pd.DataFrame({"best_other": others.min(axis=1) / tp_fp, "mean_other": others.mean(axis=1) / tp_fp})


@declare(grid=_grid("stratified", "prior", "f_true", "method", "relative_bias"))
def bias_peaks(grid: pd.DataFrame) -> pd.DataFrame:
    """Where each method's absolute relative bias peaks as the true F rises, per panel of Figures 6–7 (§4.3, claim 3).

    Forman & Scholz write that the bias "generally" grows as the true F falls. For each panel (stratified or
    not, a prior of :data:`FIGURE_PANEL_PRIORS`) and method, over the true F of :data:`FIGURE_F_TRUE`, this says
    whether ``|relative_bias|`` is larger at the lowest true F than at the highest, and at which true F it is
    largest: a peak above the lowest F is a step where it does not grow. Other rows of the grid (Figures 4–5
    vary the prior at F = 80 %) are left out.

    Parameters
    ----------
    grid : DataFrame
        :func:`simulate_grid` output (columns ``stratified``, ``prior``, ``f_true``, ``method``,
        ``relative_bias``), one row per point and method.

    Returns
    -------
    pandas.DataFrame
        Columns ``stratified``, ``prior``, ``method``, ``lowest_f_larger`` (bool) and ``peak_f``; stratified
        panels first (as Figures 4–7), priors ascending, methods in the order of :data:`apples.cv.F_AGGREGATIONS`.
    """
    keys = ["stratified", "prior", "method", "f_true"]
    if grid.duplicated(keys).any():
        raise ParameterValueError("grid must hold one row per point and method (simulate_grid output)", param="grid")
    on_panels = np.isclose(grid["prior"].to_numpy(float)[:, None], FIGURE_PANEL_PRIORS).any(axis=1) & np.isclose(
        grid["f_true"].to_numpy(float)[:, None], FIGURE_F_TRUE
    ).any(axis=1)
    size = grid[on_panels].assign(size=grid["relative_bias"].abs())
    wide = size.pivot_table(index=["stratified", "prior", "method"], columns="f_true", values="size")  # F ascending
    table = pd.DataFrame({"lowest_f_larger": wide.iloc[:, 0] > wide.iloc[:, -1], "peak_f": wide.idxmax(axis=1)})
    order = list(F_AGGREGATIONS)
    table = table.reset_index().sort_values(
        ["stratified", "prior", "method"],
        ascending=[False, True, True],
        key=lambda column: column.map(order.index) if column.name == "method" else column,
    )
    return table.reset_index(drop=True)


@declare(grid=_grid("stratified", "prior", "f_true", "method", "std"))
def sd_leaders(grid: pd.DataFrame) -> pd.DataFrame:
    """The method with the smallest standard deviation at each stratified point, and F_tp,fp's excess (claim 8).

    Parameters
    ----------
    grid : DataFrame
        :func:`simulate_grid` output (columns ``stratified``, ``prior``, ``f_true``,
        ``method``, ``std``); only the stratified rows are read, as in Figure 8.

    Returns
    -------
    pandas.DataFrame
        Index (``prior``, ``f_true``); columns ``least`` (the method with the
        smallest SD) and ``tp_fp_excess`` (SD of F_tp,fp / smallest SD − 1).
    """
    sd = grid[grid["stratified"].astype(bool)].pivot_table(index=["prior", "f_true"], columns="method", values="std")
    if "tp_fp" not in sd.columns or sd.empty:
        raise ParameterValueError("grid must hold stratified rows of the method 'tp_fp'", param="grid")
    return pd.DataFrame({"least": sd.idxmin(axis=1), "tp_fp_excess": sd["tp_fp"] / sd.min(axis=1) - 1})


@declare(p=Real(0.0, 1.0))
def format_chance(p: float) -> str:
    """A probability (Figure 9's chance of a fold without positives) as a percentage, or "1 in N" below 0.0001 %.

    Two decimals from 1 % up, two significant digits from 0.0001 % up, else
    ``"1 in N"`` with N to two significant digits: ``format_chance(5.2e-10) ==
    "1 in 1,900,000,000"``. ``p`` must lie in [0, 1].
    """
    if p >= 0.01:
        return f"{100 * p:.2f} %"
    if p >= 1e-6:
        return f"{100 * p:.2g} %"
    return "0 %" if p == 0 else f"1 in {float(f'{1 / p:.2g}'):,.0f}"
