"""Figures of notebook 03: Forman & Scholz (2010) §4, the bias simulation (Figures 4–9).

Each function draws one figure (the plotting contract of :mod:`apples.plotting`):
``ax=None`` keyword; a one-panel plot draws on ``ax`` (the current Axes when
omitted) and returns it, a multi-panel plot takes one Axes per panel (a new
figure when omitted) and returns the Figure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pandas as pd

from apples._kernels.fold_model import allocation_bytes, draw_positives, p_fold_without_positives
from apples._optional import require
from apples._params import (
    FLAG,
    MAX_EXACT_INT,
    SEED,
    Frame,
    Integer,
    Kind,
    ParameterValueError,
    Real,
    Relation,
    check_frame,
    check_int,
    check_table_size,
    declare,
)
from apples.cv.aggregations import F_AGGREGATIONS
from apples.plotting import decorate, panel_axes
from apples.studies.forman_scholz.bias_tables import _Methods
from apples.studies.forman_scholz.simulation import (
    _FITS_1000,
    _N_JOBS,
    _PAPER_DESIGN,
    _SAMPLE_REPS,
    FIGURE_PANEL_PRIORS,
    FIGURE_PRIORS,
    _design,
    _exact,
    _sample,
    _seed_entropy,
)
from apples.theory import EXACT_METHODS
from apples.theory.fold_model import F_TRUE, PRIOR

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "plot_bias_vs_prior",
    "plot_cv_f_convergence",
    "plot_cv_f_histograms",
    "plot_figure4_5",
    "plot_figure6",
    "plot_figure7",
    "plot_figure8",
    "plot_figure9",
    "plot_method_curves",
]

_GRID = "a long table such as apples.studies.forman_scholz.simulate_grid output"


class _Column(Kind):
    what = "a column name (a string)"

    def check(self, name: str, value: object) -> str:
        if not isinstance(value, str):
            raise TypeError(f"{name} must be a column name (a string), got {value!r}")
        return value


class _FrameHolds(Relation):
    """The ``frame`` holds the columns ``method``, ``x`` and ``y`` it is plotted from."""

    names = ("frame", "x", "y")

    def check(self, values: Mapping[str, Any]) -> None:
        if len(values) == 3:
            check_frame("frame", values["frame"], ("method", values["x"], values["y"]), what=_GRID)


class _AllocationReps(Kind):
    """Random partitions per dot of Figure 9: a positive count whose draws fit in memory (70 positives at most)."""

    what = "a positive integer up to 2**53"

    def check(self, name: str, value: object) -> int:
        n_reps = check_int(name, value, low=1)
        check_table_size(
            f"unstratified fold allocation (10 folds of 100 cases, 70 cases of the smaller class, {n_reps:,} "
            "repetitions)",
            allocation_bytes(1000, 10, 70, n_reps),
            reduce=name,
        )
        return n_reps


def _grid(*columns: str) -> Frame:
    """The kind of a :func:`simulate_grid` table holding ``columns``."""
    return Frame(("prior", "f_true", "stratified", "method", *columns), source=_GRID)


def _histograms(ax: Axes, estimates: pd.DataFrame, f_true: float, bins: int) -> Axes:
    """Step histograms of each aggregation's estimates on ``ax`` (:func:`plot_cv_f_histograms`)."""
    values = estimates.to_numpy() * 100
    finite = values[np.isfinite(values)]
    edges = np.histogram_bin_edges(finite if finite.size else [0, 100], bins=bins)
    for key, a in F_AGGREGATIONS.items():
        x = estimates[key].dropna().to_numpy() * 100
        weights = np.full(x.size, 100.0 / max(len(estimates), 1))
        ax.hist(x, bins=cast(Any, edges), weights=weights, histtype="step", lw=1.5, color=a.color, label=a.symbol)
    ax.axvline(f_true * 100, color="grey", ls="--", lw=1, label="truth")
    return decorate(ax, xlabel="cross-validated F (%)", ylabel="repetitions (%)")


@declare(
    estimates=Frame(tuple(F_AGGREGATIONS), source="apples.studies.forman_scholz.sample_cv_f output"),
    f_true=Real(),
    bins=Integer(1, MAX_EXACT_INT),
)
def plot_cv_f_histograms(estimates: pd.DataFrame, f_true: float, *, bins: int = 40, ax: Axes | None = None) -> Axes:
    """Step histograms of each aggregation's estimates (in %) with the ground truth marked; returns ``ax``.

    ``estimates`` is :func:`~apples.studies.forman_scholz.sample_cv_f` output (one column per key of
    :data:`apples.cv.F_AGGREGATIONS`).
    """
    plt = require("matplotlib.pyplot")
    return _histograms(plt.gca() if ax is None else ax, estimates, f_true, bins)


def _method_curves(
    ax: Axes, frame: pd.DataFrame, x: str, y: str, methods: Sequence[str] = tuple(F_AGGREGATIONS), **line_kw: Any
) -> Axes:
    """One line per aggregation of ``frame`` on ``ax`` (:func:`plot_method_curves`)."""
    for method in methods:
        part = frame[frame["method"] == method].sort_values(x)
        a = F_AGGREGATIONS[method]
        ax.plot(part[x] * 100, part[y] * 100, marker="o", ms=3, color=a.color, label=a.symbol, **line_kw)
    return ax


@declare(
    frame=Frame((), source=_GRID), x=_Column(), y=_Column(), methods=_Methods(empty_ok=True), relations=[_FrameHolds()]
)
def plot_method_curves(
    frame: pd.DataFrame,
    *,
    x: str,
    y: str,
    methods: Iterable[str] = tuple(F_AGGREGATIONS),
    ax: Axes | None = None,
    **line_kw: Any,
) -> Axes:
    """One line per F aggregation from a long table (e.g. :func:`simulate_grid`), values in %; returns ``ax``.

    ``frame`` needs columns ``method``, ``x`` and ``y``; both axes are scaled by
    100 (priors, F and biases are fractions in the table). ``methods`` are keys of
    :data:`apples.cv.F_AGGREGATIONS`, drawn in its colours.

    Examples
    --------
    >>> from apples.studies.forman_scholz import figure_grid, plot_method_curves, simulate_grid
    >>> g = simulate_grid(figure_grid().head(2), n_reps=50)
    >>> ax = plot_method_curves(g, x="prior", y="bias")
    >>> len(ax.lines)
    5
    """
    plt = require("matplotlib.pyplot")
    return _method_curves(plt.gca() if ax is None else ax, frame, x, y, list(methods), **line_kw)


@declare(
    prior=PRIOR,
    f_true=F_TRUE,
    stratified=FLAG,
    n_reps=_SAMPLE_REPS,
    seed=SEED,
    n_jobs=_N_JOBS,
    relations=[_PAPER_DESIGN, _FITS_1000],
)
def plot_cv_f_convergence(
    prior: float,
    f_true: float,
    *,
    stratified: bool,
    n_reps: int,
    seed: int | np.random.Generator = 1,
    n_jobs: int = 1,
    ax: Axes | None = None,
) -> Axes:
    """Running mean of simulated F_tp,fp and F_avg converging to their exact expectations (Forman & Scholz §4.2).

    Simulates ``n_reps`` ten-fold cross-validations of 1000 cases (:func:`sample_cv_f`) and
    draws, for each aggregation of ``EXACT_METHODS``, the running mean of its
    estimates at 60 log-spaced repetition counts n, the exact expectation
    (:func:`apples.theory.exact_cv_f`, dashed) and a band of ±2 standard
    errors (exact SD / √n) around it; the ground truth is the grey line. The
    title names the design; the figure is not one of the paper's.

    Parameters
    ----------
    prior, f_true : float
        Class prior and ground-truth F of the simulated classifier.
    stratified : bool
    n_reps : int
        Repetitions simulated (the right end of the x-axis), at least 1.
    seed : int or numpy.random.Generator, default 1
    n_jobs : int, default 1
        Threads for the simulation; the result does not depend on it.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
    """
    plt = require("matplotlib.pyplot")
    design = _design(prior, f_true, 1000, 10)
    est = _sample(design, stratified, n_reps, _seed_entropy(seed), n_jobs)
    ax = plt.gca() if ax is None else ax
    n = np.unique(np.logspace(1, np.log10(n_reps), 60).astype(int)) if n_reps >= 10 else np.arange(1, n_reps + 1)
    for method in EXACT_METHODS:
        running = np.cumsum(est[method].to_numpy())[n - 1] / n
        exact = _exact(design, stratified, method)
        sd = _exact(design, stratified, method, "std")
        color = F_AGGREGATIONS[method].color
        ax.plot(n, running * 100, color=color, label=f"{F_AGGREGATIONS[method].symbol} (running mean)")
        ax.axhline(exact * 100, color=color, ls="--", lw=1)
        band = 2 * sd / np.sqrt(n)
        label = f"{F_AGGREGATIONS[method].symbol}: exact ± 2 SE of the running mean"
        ax.fill_between(n, (exact - band) * 100, (exact + band) * 100, color=color, alpha=0.15, label=label)
    ax.axhline(f_true * 100, color="grey", lw=0.8, label="ground truth")
    # A legend key for the dashed lines, drawn in each method's colour above.
    ax.plot([], [], color="black", ls="--", lw=1, label="exact expectation (dashed, per method)")
    ax.set_xscale("log")
    setting = f"{prior:.0%} positives, true F = {f_true:.0%}, {'' if stratified else 'un'}stratified 10-fold CV"
    decorate(
        ax,
        xlabel="repetitions (count)",
        ylabel="mean cross-validated F (%)",
        title=f"Monte Carlo converging to the exact expectation (dashed; not a paper figure)\n{setting}",
    )
    _legend_outside([ax])
    return ax


def _relative_at_80(bias: Any) -> Any:
    return bias / 0.8


def _bias_at_80(relative: Any) -> Any:
    return relative * 0.8


def _bias_vs_prior(ax: Axes, grid: pd.DataFrame, stratified: bool) -> Axes:
    """Figure 4 or 5 on ``ax`` (:func:`plot_bias_vs_prior`)."""
    part = grid[
        (grid["stratified"] == stratified) & np.isclose(grid["f_true"], 0.8) & grid["prior"].isin(FIGURE_PRIORS)
    ]
    if part.empty:
        raise ParameterValueError(
            f"grid has no row at F = 0.8 and a prior of FIGURE_PRIORS with stratified={stratified}", param="grid"
        )
    _method_curves(ax, part, "prior", "bias")
    ax.axhline(0, color="grey", lw=0.8)
    sec = ax.secondary_yaxis("right", functions=(_relative_at_80, _bias_at_80))
    sec.set_ylabel("relative bias (%)")
    fig_no = 4 if stratified else 5
    return decorate(
        ax,
        xlabel="positives (%)",
        ylabel="bias (F points, %)",
        title=f"Forman & Scholz Fig. {fig_no} (reproduced): {'stratified' if stratified else 'unstratified'}, F = 80%",
    )


@declare(grid=_grid("bias"), stratified=FLAG)
def plot_bias_vs_prior(grid: pd.DataFrame, *, stratified: bool, ax: Axes | None = None) -> Axes:
    """Forman & Scholz Figure 4 (stratified) or 5 (unstratified): bias against the class prior at F = 80%.

    One line per F aggregation (:func:`plot_method_curves`) over the priors of
    ``FIGURE_PRIORS``: the bias in F points on the left axis, the relative bias
    (bias / 0.8) on a secondary right axis.

    Parameters
    ----------
    grid : DataFrame
        :func:`simulate_grid` output (columns ``prior``, ``f_true``,
        ``stratified``, ``method``, ``bias``).
    stratified : bool
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
    """
    plt = require("matplotlib.pyplot")
    return _bias_vs_prior(plt.gca() if ax is None else ax, grid, stratified)


@declare(grid=_grid("bias"))
def plot_figure4_5(grid: pd.DataFrame, *, ax: Sequence[Axes] | None = None) -> Figure:
    """Forman & Scholz Figures 4 and 5 side by side: bias against the prior, stratified and unstratified.

    Parameters
    ----------
    grid : DataFrame
        :func:`simulate_grid` output.
    ax : pair of matplotlib Axes, optional
        Figure 4 (stratified) and Figure 5 (unstratified); a new figure when omitted.

    Returns
    -------
    matplotlib Figure
    """
    require("matplotlib.pyplot")
    axes = panel_axes(ax, 2, figsize=(12, 4.2))
    for a, stratified in zip(axes, (True, False), strict=True):
        _bias_vs_prior(a, grid, stratified)
    fig = axes[0].figure
    fig.tight_layout()
    return fig


def _legend_outside(axes: Sequence[Axes]) -> None:
    """One legend for a row of panels, to the right of the last one: inside, it hides a curve."""
    for a in axes:
        legend = a.get_legend()
        if legend is not None:
            legend.remove()
    axes[-1].legend(loc="center left", bbox_to_anchor=(1.02, 0.5))


def _draw_prior_row(
    grid: pd.DataFrame, axes: Sequence[Axes], *, stratified: bool, y: str, ylabel: str, exact_std: bool
) -> None:
    """One panel per prior of FIGURE_PANEL_PRIORS: ``y`` (a fraction) in % against the true F."""
    for a, prior in zip(axes, FIGURE_PANEL_PRIORS, strict=True):
        part = grid[(grid["stratified"] == stratified) & np.isclose(grid["prior"], prior)]
        _method_curves(a, part, "f_true", y)
        if exact_std:  # the exact SD / true F, crosses
            for method in EXACT_METHODS:
                f = np.sort(part.loc[part["method"] == method, "f_true"].to_numpy())
                sd = [_exact(_design(prior, float(v), 1000, 10), stratified, method, "std") / v for v in f]
                a.plot(
                    f * 100,
                    np.asarray(sd) * 100,
                    ls="none",
                    marker="x",
                    ms=7,
                    color=F_AGGREGATIONS[method].color,
                    label=f"{F_AGGREGATIONS[method].symbol} exact",
                )
        a.axhline(0, color="grey", lw=0.8)
        decorate(a, xlabel="ground-truth F (%)", ylabel=ylabel, title=f"{prior:.0%} positives")


def _prior_panels(
    grid: pd.DataFrame, *, stratified: bool, y: str, ylabel: str, title: str, ax: Sequence[Axes] | None
) -> Figure:
    """One panel per prior of FIGURE_PANEL_PRIORS, one legend outside on the right; returns the Figure."""
    axes = panel_axes(ax, len(FIGURE_PANEL_PRIORS), figsize=(14, 4))
    fig = axes[0].figure
    _draw_prior_row(grid, axes, stratified=stratified, y=y, ylabel=ylabel, exact_std=False)
    _legend_outside(axes)
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def _draw_std_ratio_row(grid: pd.DataFrame, axes: Sequence[Axes]) -> None:
    """Each aggregation's standard deviation divided by that of F_tp,fp (stratified), one panel per prior."""
    for a, prior in zip(axes, FIGURE_PANEL_PRIORS, strict=True):
        part = grid[grid["stratified"] & np.isclose(grid["prior"], prior)]
        sd = part.pivot_table(index="f_true", columns="method", values="std").sort_index()
        f = sd.index.to_numpy()
        for method, agg in F_AGGREGATIONS.items():
            if method in sd.columns and "tp_fp" in sd.columns:  # a panel the grid does not cover stays empty
                ratio = sd[method].to_numpy() / sd["tp_fp"].to_numpy()  # exactly 1 for tp_fp itself
                a.plot(f * 100, ratio, marker="o", ms=3, color=agg.color, label=agg.symbol)
        exact = [
            _exact(_design(prior, float(v), 1000, 10), True, "avg", "std")
            / _exact(_design(prior, float(v), 1000, 10), True, "tp_fp", "std")
            for v in f
        ]
        a.plot(f * 100, exact, ls="none", marker="x", ms=7, color=F_AGGREGATIONS["avg"].color, label="F_avg exact")
        decorate(
            a,
            xlabel="ground-truth F (%)",
            ylabel="SD / SD of F_tp,fp (ratio)",
            title=f"{prior:.0%} positives: SD ratio",
        )


@declare(grid=_grid("relative_bias"))
def plot_figure6(grid: pd.DataFrame, *, ax: Sequence[Axes] | None = None) -> Figure:
    """Forman & Scholz Figure 6: relative bias against the true F, stratified 10-fold CV.

    Three panels, 1 %, 5 % and 25 % positives (``FIGURE_PANEL_PRIORS``), one
    line per F aggregation of the grid.

    Parameters
    ----------
    grid : DataFrame
        :func:`simulate_grid` output (columns ``prior``, ``f_true``,
        ``stratified``, ``method``, ``relative_bias``).
    ax : sequence of three matplotlib Axes, optional

    Returns
    -------
    matplotlib Figure
    """
    require("matplotlib.pyplot")
    return _prior_panels(
        grid,
        stratified=True,
        y="relative_bias",
        ylabel="relative bias (%)",
        title="Forman & Scholz Fig. 6 (reproduced): relative bias, stratified 10-fold CV",
        ax=ax,
    )


@declare(grid=_grid("relative_bias"))
def plot_figure7(grid: pd.DataFrame, *, ax: Sequence[Axes] | None = None) -> Figure:
    """Forman & Scholz Figure 7: relative bias against the true F, unstratified 10-fold CV.

    As :func:`plot_figure6`, for the unstratified rows of the grid.

    Returns
    -------
    matplotlib Figure
    """
    require("matplotlib.pyplot")
    return _prior_panels(
        grid,
        stratified=False,
        y="relative_bias",
        ylabel="relative bias (%)",
        title="Forman & Scholz Fig. 7 (reproduced): relative bias, unstratified 10-fold CV",
        ax=ax,
    )


@declare(grid=_grid("relative_std", "std"))
def plot_figure8(grid: pd.DataFrame, *, ax: Sequence[Axes] | None = None) -> Figure:
    """Forman & Scholz Figure 8 (top row) and each aggregation's SD relative to F_tp,fp's (bottom row), stratified CV.

    Top row, one panel per prior of ``FIGURE_PANEL_PRIORS``: the paper's Figure 8,
    the ``relative_std`` column (SD / true F) against the true F; crosses mark
    the exact standard deviations of F_tp,fp and F_avg
    (:func:`apples.theory.exact_cv_f` with ``statistic="std"``). On the paper's
    scale the curves lie almost on top of each other, so the bottom row (not in
    the paper) divides each aggregation's SD by that of F_tp,fp at the same point:
    F_tp,fp is then the flat line at exactly 1, an aggregation below it has the
    smaller spread (crosses: the exact ratio for F_avg). The legend sits outside
    the panels, right of the top row.

    Parameters
    ----------
    grid : DataFrame
        :func:`simulate_grid` output (columns ``prior``, ``f_true``,
        ``stratified``, ``method``, ``relative_std``, ``std``).
    ax : sequence of six matplotlib Axes, optional
        The top row (three panels), then the bottom row; a new 2 x 3 figure when omitted.

    Returns
    -------
    matplotlib Figure
    """
    plt = require("matplotlib.pyplot")
    n = len(FIGURE_PANEL_PRIORS)
    if ax is None:
        _, grid_axes = plt.subplots(2, n, figsize=(14, 7.5))
        axes = list(grid_axes.ravel())
    else:
        axes = panel_axes(ax, 2 * n)
    top, bottom = axes[:n], axes[n:]
    _draw_prior_row(grid, top, stratified=True, y="relative_std", ylabel="SD / true F (%)", exact_std=True)
    _draw_std_ratio_row(grid, bottom)
    for a in bottom:
        legend = a.get_legend()
        if legend is not None:
            legend.remove()
    _legend_outside(top)
    fig = axes[0].figure
    fig.suptitle(
        "Forman & Scholz Fig. 8 (reproduced, top): relative standard deviation, stratified 10-fold CV;\n"
        "bottom (not in the paper): each method's standard deviation divided by that of F_tp,fp (F_tp,fp = 1)"
    )
    fig.tight_layout()
    return fig


#: Figure 9's x ticks: counts of positives a reader can read off a log axis.
_FIGURE9_TICKS = (10, 20, 50, 100, 200, 400)


@declare(n_reps=_AllocationReps())
def plot_figure9(*, n_reps: int = 100_000, ax: Axes | None = None) -> Axes:
    """Forman & Scholz Figure 9: probability that some fold has no positives, 10-fold unstratified CV.

    Curves: :func:`apples.theory.p_fold_without_positives` for one trial and for
    1000 trials, at 1,000 cases (solid) and 100,000 cases (dotted), against 10
    to 400 positives. Dots: the frequency of a fold without positives in
    ``n_reps`` simulated random partitions (as :func:`apples.theory.fold_positives`
    draws them, seeded by the number of positives) of 1,000 cases, at 12, 20, 30, 45 and
    70 positives.

    Parameters
    ----------
    n_reps : int, default 100_000
        Random partitions per simulated dot.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
    """
    plt = require("matplotlib.pyplot")
    ax = plt.gca() if ax is None else ax
    n_pos = np.unique(np.geomspace(10, 400, 120).astype(int))
    for n_cases, ls in ((1000, "-"), (100_000, ":")):
        for trials, color in ((1, "C0"), (1000, "C3")):
            p = [p_fold_without_positives(int(n), n_cases, 10, trials) for n in n_pos if n <= n_cases]
            ax.plot(
                n_pos[: len(p)],
                np.array(p) * 100,
                ls=ls,
                color=color,
                label=f"{trials} trial{'s' if trials > 1 else ''}, {n_cases:,} cases",
            )
    check = [12, 20, 30, 45, 70]
    freq = [(draw_positives(np.random.default_rng(n), 1000, 10, n, n_reps).min(axis=1) == 0).mean() for n in check]
    ax.plot(check, np.array(freq) * 100, "o", color="C0", label="simulated, 1 trial, 1,000 cases")
    ax.set_xscale("log")
    ticker = require("matplotlib.ticker")
    ax.xaxis.set_major_locator(ticker.FixedLocator(_FIGURE9_TICKS))  # plain counts, not 10^1 and 10^2
    ax.xaxis.set_major_formatter(ticker.FixedFormatter([str(t) for t in _FIGURE9_TICKS]))
    ax.xaxis.set_minor_locator(ticker.NullLocator())
    decorate(
        ax,
        xlabel="positives in the data set (count, log scale)",
        ylabel="P(some fold has no positives, %)",
        title="Forman & Scholz Fig. 9 (reproduced): 10-fold unstratified CV",
    )
    ax.legend(loc="center left", bbox_to_anchor=(1.02, 0.5))  # outside: inside, it hides a curve
    return ax
