"""Figures of notebook 03: Forman & Scholz (2010) §4, the bias simulation (Figures 4–9).

Each function draws one figure (the plotting contract of :mod:`apples.plotting`):
``ax=None`` keyword; a one-panel plot draws on ``ax`` (the current Axes when
omitted) and returns it, a multi-panel plot takes one Axes per panel (a new
figure when omitted) and returns the Figure.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from apples._optional import require
from apples._params import check_bool, check_count, check_frame, check_positive, check_real, check_seed
from apples.cv.aggregations import F_AGGREGATIONS
from apples.plotting import decorate, panel_axes
from apples.studies.forman_scholz.simulation import FIGURE_PANEL_PRIORS, FIGURE_PRIORS, sample_cv_f
from apples.theory.cv_f_expectations import EXACT_METHODS, exact_cv_f, p_fold_without_positives
from apples.theory.fold_model import fold_positives

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


def plot_cv_f_histograms(estimates: pd.DataFrame, f_true: float, *, bins: int = 40, ax=None):
    """Step histograms of each method's estimates (in %) with the ground truth marked; returns ``ax``.

    ``estimates`` is :func:`~apples.studies.forman_scholz.sample_cv_f` output (one column per method of
    the keys of :data:`apples.cv.F_AGGREGATIONS`).
    """
    plt = require("matplotlib.pyplot")
    check_frame("estimates", estimates, tuple(F_AGGREGATIONS), what="apples.studies.forman_scholz.sample_cv_f output")
    f_true = check_real("f_true", f_true)
    bins = check_count("bins", bins)
    if bins < 1:
        raise ValueError(f"bins must be at least 1, got {bins}")
    ax = plt.gca() if ax is None else ax
    values = estimates.to_numpy() * 100
    finite = values[np.isfinite(values)]
    edges = np.histogram_bin_edges(finite if finite.size else [0, 100], bins=bins)
    for method in F_AGGREGATIONS:
        x = estimates[method].dropna().to_numpy() * 100
        weights = np.full(x.size, 100.0 / max(len(estimates), 1))
        ax.hist(
            x,
            bins=edges,
            weights=weights,
            histtype="step",
            lw=1.5,
            color=F_AGGREGATIONS[method].color,
            label=F_AGGREGATIONS[method].symbol,
        )
    ax.axvline(f_true * 100, color="grey", ls="--", lw=1, label="truth")
    return decorate(ax, xlabel="cross-validated F (%)", ylabel="repetitions (%)")


def plot_method_curves(frame: pd.DataFrame, *, x: str, y: str, methods=tuple(F_AGGREGATIONS), ax=None, **line_kw):
    """One line per method from a long table (e.g. :func:`simulate_grid`), values in %; returns ``ax``.

    ``frame`` needs columns ``method``, ``x`` and ``y``; both axes are scaled by
    100 (priors, F and biases are fractions in the table).

    Examples
    --------
    >>> from apples.studies.forman_scholz import figure_grid, simulate_grid
    >>> g = simulate_grid(figure_grid().head(2), n_reps=50)
    >>> ax = plot_method_curves(g, x="prior", y="bias")
    >>> len(ax.lines)
    5
    """
    plt = require("matplotlib.pyplot")
    if not isinstance(x, str) or not isinstance(y, str):
        raise TypeError(f"x and y must be column names (strings), got x={x!r}, y={y!r}")
    check_frame(
        "frame", frame, ("method", x, y), what="a long table such as apples.studies.forman_scholz.simulate_grid output"
    )
    if isinstance(methods, str) or not isinstance(methods, Iterable):
        raise TypeError(f"methods must be a sequence of keys of apples.cv.F_AGGREGATIONS, got {methods!r}")
    methods = list(methods)
    unknown = [m for m in methods if not isinstance(m, str) or m not in F_AGGREGATIONS]
    if unknown:
        raise ValueError(f"methods has {unknown!r}, not methods of F_AGGREGATIONS {tuple(F_AGGREGATIONS)}")
    ax = plt.gca() if ax is None else ax
    for method in methods:
        part = frame[frame["method"] == method].sort_values(x)
        ax.plot(
            part[x] * 100,
            part[y] * 100,
            marker="o",
            ms=3,
            color=F_AGGREGATIONS[method].color,
            label=F_AGGREGATIONS[method].symbol,
            **line_kw,
        )
    return ax


def _check_grid_frame(grid: object, columns: Iterable[str]) -> pd.DataFrame:
    check_frame("grid", grid, ("prior", "f_true", "stratified", "method", *columns), what=_GRID)
    assert isinstance(grid, pd.DataFrame)
    return grid


def plot_cv_f_convergence(
    prior: float, f_true: float, *, stratified: bool, n_reps: int, seed: int = 1, n_jobs: int = 1, ax=None
):
    """Running mean of simulated F_tp,fp and F_avg converging to their exact expectations (Forman & Scholz §4.2).

    Simulates ``n_reps`` ten-fold cross-validations (:func:`sample_cv_f`) and
    draws, for each method of ``EXACT_METHODS``, the running mean of its
    estimates at 60 log-spaced repetition counts n, the exact expectation
    (:func:`apples.theory.exact_cv_f`, dashed) and a band of ±2 standard
    errors (exact SD / √n) around it; the ground truth is the grey line.

    Parameters
    ----------
    prior, f_true : float
        Class prior and ground-truth F of the simulated classifier.
    stratified : bool
    n_reps : int
        Repetitions simulated (the right end of the x-axis), at least 1.
    seed : int, default 1
    n_jobs : int, default 1
        Threads for the simulation; the result does not depend on it.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
    """
    plt = require("matplotlib.pyplot")
    prior = check_real("prior", prior)
    f_true = check_real("f_true", f_true)
    stratified = check_bool("stratified", stratified)
    n_reps = check_positive("n_reps", n_reps)
    seed = check_seed("seed", seed)
    n_jobs = check_positive("n_jobs", n_jobs)
    est = sample_cv_f(prior, f_true, stratified=stratified, n_reps=n_reps, seed=seed, n_jobs=n_jobs)
    ax = plt.gca() if ax is None else ax
    n = np.unique(np.logspace(1, np.log10(n_reps), 60).astype(int)) if n_reps >= 10 else np.arange(1, n_reps + 1)
    for method in EXACT_METHODS:
        running = np.cumsum(est[method].to_numpy())[n - 1] / n
        exact = exact_cv_f(prior, f_true, stratified=stratified, method=method)
        sd = exact_cv_f(prior, f_true, stratified=stratified, method=method, statistic="std")
        color = F_AGGREGATIONS[method].color
        ax.plot(n, running * 100, color=color, label=f"{F_AGGREGATIONS[method].symbol} (running mean)")
        ax.axhline(exact * 100, color=color, ls="--", lw=1)
        band = 2 * sd / np.sqrt(n)
        ax.fill_between(n, (exact - band) * 100, (exact + band) * 100, color=color, alpha=0.15)
    ax.axhline(f_true * 100, color="grey", lw=0.8, label="ground truth")
    # Legend keys for the dashed lines and the bands, drawn in each method's colour above.
    ax.plot([], [], color="black", ls="--", lw=1, label="exact expectation (dashed, per method)")
    ax.fill_between([], [], [], color="black", alpha=0.15, label="exact ± 2 SE of the running mean")
    ax.set_xscale("log")
    return decorate(
        ax,
        xlabel="repetitions (count)",
        ylabel="mean cross-validated F (%)",
        title="Monte Carlo converging to the exact expectation (dashed)",
    )


def plot_bias_vs_prior(grid: pd.DataFrame, *, stratified: bool, ax=None):
    """Forman & Scholz Figure 4 (stratified) or 5 (unstratified): bias against the class prior at F = 80%.

    One line per method (:func:`plot_method_curves`) over the priors of
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
    grid = _check_grid_frame(grid, ("bias",))
    stratified = check_bool("stratified", stratified)
    ax = plt.gca() if ax is None else ax
    part = grid[
        (grid["stratified"] == stratified) & np.isclose(grid["f_true"], 0.8) & grid["prior"].isin(FIGURE_PRIORS)
    ]
    if part.empty:
        raise ValueError(f"grid has no row at F = 0.8 and a prior of FIGURE_PRIORS with stratified={stratified}")
    plot_method_curves(part, x="prior", y="bias", ax=ax)
    ax.axhline(0, color="grey", lw=0.8)
    sec = ax.secondary_yaxis("right", functions=(lambda b: b / 0.8, lambda r: r * 0.8))
    sec.set_ylabel("relative bias (%)")
    fig_no = 4 if stratified else 5
    return decorate(
        ax,
        xlabel="positives (%)",
        ylabel="bias (F points, %)",
        title=f"Forman & Scholz Fig. {fig_no} (reproduced): {'stratified' if stratified else 'unstratified'}, F = 80%",
    )


def plot_figure4_5(grid: pd.DataFrame, *, ax=None):
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
    grid = _check_grid_frame(grid, ("bias",))
    axes = panel_axes(ax, 2, figsize=(12, 4.2))
    for a, stratified in zip(axes, (True, False), strict=True):
        plot_bias_vs_prior(grid, stratified=stratified, ax=a)
    fig = axes[0].figure
    fig.tight_layout()
    return fig


def _legend_outside(axes) -> None:
    """One legend for a row of panels, to the right of the last one: inside, it hides a curve."""
    for a in axes:
        if a.get_legend() is not None:
            a.get_legend().remove()
    axes[-1].legend(loc="center left", bbox_to_anchor=(1.02, 0.5))


def _draw_prior_row(grid, axes, *, stratified: bool, y: str, ylabel: str, exact_std: bool) -> None:
    """One panel per prior of FIGURE_PANEL_PRIORS: ``y`` (a fraction) in % against the true F."""
    for a, prior in zip(axes, FIGURE_PANEL_PRIORS, strict=True):
        part = grid[(grid["stratified"] == stratified) & np.isclose(grid["prior"], prior)]
        plot_method_curves(part, x="f_true", y=y, ax=a)
        if exact_std:  # the exact SD / true F, crosses
            for method in EXACT_METHODS:
                f = np.sort(part.loc[part["method"] == method, "f_true"].to_numpy())
                sd = [exact_cv_f(prior, float(v), stratified=stratified, method=method, statistic="std") / v for v in f]
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


def _prior_panels(grid, *, stratified: bool, y: str, ylabel: str, title: str, ax):
    """One panel per prior of FIGURE_PANEL_PRIORS, one legend outside on the right; returns the Figure."""
    grid = _check_grid_frame(grid, (y,))
    axes = panel_axes(ax, len(FIGURE_PANEL_PRIORS), figsize=(14, 4))
    fig = axes[0].figure
    _draw_prior_row(grid, axes, stratified=stratified, y=y, ylabel=ylabel, exact_std=False)
    _legend_outside(axes)
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def _draw_std_ratio_row(grid, axes) -> None:
    """Each method's standard deviation divided by that of F_tp,fp (stratified), one panel per prior."""
    for a, prior in zip(axes, FIGURE_PANEL_PRIORS, strict=True):
        part = grid[grid["stratified"] & np.isclose(grid["prior"], prior)]
        sd = part.pivot_table(index="f_true", columns="method", values="std").sort_index()
        f = sd.index.to_numpy()
        for method in F_AGGREGATIONS:
            if method in sd.columns and "tp_fp" in sd.columns:  # a panel the grid does not cover stays empty
                ratio = sd[method].to_numpy() / sd["tp_fp"].to_numpy()  # exactly 1 for tp_fp itself
                a.plot(
                    f * 100,
                    ratio,
                    marker="o",
                    ms=3,
                    color=F_AGGREGATIONS[method].color,
                    label=F_AGGREGATIONS[method].symbol,
                )
        exact = [
            exact_cv_f(prior, float(v), stratified=True, method="avg", statistic="std")
            / exact_cv_f(prior, float(v), stratified=True, method="tp_fp", statistic="std")
            for v in f
        ]
        a.plot(f * 100, exact, ls="none", marker="x", ms=7, color=F_AGGREGATIONS["avg"].color, label="F_avg exact")
        decorate(
            a,
            xlabel="ground-truth F (%)",
            ylabel="SD / SD of F_tp,fp (ratio)",
            title=f"{prior:.0%} positives: SD ratio",
        )


def plot_figure6(grid: pd.DataFrame, *, ax=None):
    """Forman & Scholz Figure 6: relative bias against the true F, stratified 10-fold CV.

    Three panels, 1 %, 5 % and 25 % positives (``FIGURE_PANEL_PRIORS``), one
    line per method of the grid.

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


def plot_figure7(grid: pd.DataFrame, *, ax=None):
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


def plot_figure8(grid: pd.DataFrame, *, ax=None):
    """Forman & Scholz Figure 8 (top row) and each method's SD relative to F_tp,fp's (bottom row), stratified CV.

    Top row, one panel per prior of ``FIGURE_PANEL_PRIORS``: the paper's Figure 8,
    the ``relative_std`` column (SD / true F) against the true F; crosses mark
    the exact standard deviations of F_tp,fp and F_avg
    (:func:`apples.theory.exact_cv_f` with ``statistic="std"``). On the paper's
    scale the curves lie almost on top of each other, so the bottom row (not in
    the paper) divides each method's SD by that of F_tp,fp at the same point:
    F_tp,fp is then the flat line at exactly 1, a method below it has the
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
    grid = _check_grid_frame(grid, ("relative_std", "std"))
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
        if a.get_legend() is not None:
            a.get_legend().remove()
    _legend_outside(top)
    fig = axes[0].figure
    fig.suptitle(
        "Forman & Scholz Fig. 8 (reproduced, top): relative standard deviation, stratified 10-fold CV;\n"
        "bottom (not in the paper): each method's standard deviation divided by that of F_tp,fp (F_tp,fp = 1)"
    )
    fig.tight_layout()
    return fig


def plot_figure9(*, n_reps: int = 100_000, ax=None):
    """Forman & Scholz Figure 9: probability that some fold has no positives, 10-fold unstratified CV.

    Curves: :func:`apples.theory.p_fold_without_positives` for one trial and for
    1000 trials, at 1,000 cases (solid) and 100,000 cases (dotted), against 10
    to 400 positives. Dots: the frequency of a fold without positives in
    ``n_reps`` simulated random partitions (:func:`apples.theory.fold_positives`)
    of 1,000 cases, at 12, 20, 30, 45 and 70 positives.

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
    n_reps = check_positive("n_reps", n_reps)
    ax = plt.gca() if ax is None else ax
    n_pos = np.unique(np.geomspace(10, 400, 120).astype(int))
    for n_cases, ls in ((1000, "-"), (100_000, ":")):
        for trials, color in ((1, "C0"), (1000, "C3")):
            p = [p_fold_without_positives(int(n), n_cases=n_cases, n_trials=trials) for n in n_pos if n <= n_cases]
            ax.plot(
                n_pos[: len(p)],
                np.array(p) * 100,
                ls=ls,
                color=color,
                label=f"{trials} trial{'s' if trials > 1 else ''}, {n_cases:,} cases",
            )
    check = [12, 20, 30, 45, 70]
    freq = [(fold_positives(n, stratified=False, n_reps=n_reps, seed=n).min(axis=1) == 0).mean() for n in check]
    ax.plot(check, np.array(freq) * 100, "o", color="C0", label="simulated, 1 trial, 1,000 cases")
    ax.set_xscale("log")
    decorate(
        ax,
        xlabel="positives in the data set (count)",
        ylabel="P(some fold has no positives) (%)",
        title="Forman & Scholz Fig. 9 (reproduced): 10-fold unstratified CV",
    )
    ax.legend(loc="center left", bbox_to_anchor=(1.02, 0.5))  # outside: inside, it hides a curve
    return ax
