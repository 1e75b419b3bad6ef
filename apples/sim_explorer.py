"""Interactive explorer of the §4 simulation: each estimator's distribution against the truth.

Used in notebook 03. The pure function :func:`explore_cv_f` does the work and
returns numbers and text; :func:`plot_cv_f_histograms` draws; the builder
:func:`build_sim_explorer` wires ipywidgets controls to both and returns the
parts, so tests can set ``.value`` and read the results.

References
----------
Forman, G. & Scholz, M. (2010), §4.2–4.3.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ._optional import require
from ._validation import check_bool, check_count, check_real
from .cross_validation import CV_F_METHODS, METHOD_LABELS, percent
from .exact import EXACT_METHODS, exact_cv_f
from .simulation import sample_cv_f, simulation_design
from .style import METHOD_COLORS, decorate

if TYPE_CHECKING:  # ipywidgets is optional (the notebooks extra), imported by build_sim_explorer
    from ipywidgets import HTML, Checkbox, Dropdown, FloatSlider, Label, Output, VBox

__all__ = [
    "ExploreResult",
    "SimExplorer",
    "build_sim_explorer",
    "explore_cv_f",
    "plot_cv_f_histograms",
    "plot_method_curves",
]


@dataclass
class ExploreResult:
    """What :func:`explore_cv_f` returns.

    Attributes
    ----------
    estimates : DataFrame
        One row per repetition, one column per method (NaN: skip method undefined).
    summary : DataFrame
        Per method: ``mean``, ``bias``, ``relative_bias``, ``std``, ``n_undefined``,
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


def explore_cv_f(
    prior: float,
    f_true: float,
    *,
    n_folds: int = 10,
    n_cases: int = 1000,
    stratified: bool = True,
    n_reps: int = 20_000,
    seed: int = 0,
) -> ExploreResult:
    """Simulate one point and summarise every method against the truth and the exact expectation.

    Parameters
    ----------
    prior, f_true, n_folds, n_cases, stratified, n_reps, seed
        As in :func:`apples.sample_cv_f`.

    Returns
    -------
    ExploreResult

    Examples
    --------
    >>> r = explore_cv_f(0.01, 0.8, n_reps=2000)
    >>> bool(r.summary.loc["tp_fp", "exact_mean"] == exact_cv_f(0.01, 0.8, stratified=True, method="tp_fp"))
    True
    """
    design = simulation_design(prior, f_true, n_cases=n_cases, n_folds=n_folds)
    est = sample_cv_f(prior, f_true, stratified=stratified, n_reps=n_reps, n_cases=n_cases, n_folds=n_folds, seed=seed)
    mean = est.mean()
    summary = pd.DataFrame(
        {
            "mean": mean,
            "bias": mean - f_true,
            "relative_bias": (mean - f_true) / f_true,
            "std": est.std(ddof=1) if n_reps > 1 else np.nan,
            "n_undefined": est.isna().sum().astype(int),
            "exact_mean": [
                exact_cv_f(prior, f_true, stratified=stratified, method=m, n_cases=n_cases, n_folds=n_folds)
                if m in EXACT_METHODS
                else np.nan
                for m in CV_F_METHODS
            ],
        },
        index=pd.Index(list(CV_F_METHODS), name="method"),
    )
    best = str(summary["bias"].abs().idxmin())  # a method name (str() for the type checker)
    text = (
        f"{design.n_pos} positives in {n_cases} cases, {n_folds} {'stratified' if stratified else 'unstratified'} "
        f"folds, true F = {percent(f_true, decimals=1)}, {n_reps:,} repetitions. "
        f"Smallest |bias|: {METHOD_LABELS[best]} ({summary['bias'].loc[best] * 100:+.2f} points)."
    )
    return ExploreResult(estimates=est, summary=summary, f_true=float(f_true), text=text)


def plot_cv_f_histograms(estimates: pd.DataFrame, f_true: float, *, bins: int = 40, ax=None):
    """Step histograms of each method's estimates (in %) with the ground truth marked; returns ``ax``.

    ``estimates`` is :func:`apples.sample_cv_f` output (one column per method of ``CV_F_METHODS``).
    """
    _check_frame("estimates", estimates, CV_F_METHODS, "apples.sample_cv_f output")
    f_true = check_real("f_true", f_true)
    bins = check_count("bins", bins)
    if bins < 1:
        raise ValueError(f"bins must be at least 1, got {bins}")
    ax = require("matplotlib.pyplot").gca() if ax is None else ax
    values = estimates.to_numpy() * 100
    finite = values[np.isfinite(values)]
    edges = np.histogram_bin_edges(finite if finite.size else [0, 100], bins=bins)
    for method in CV_F_METHODS:
        x = estimates[method].dropna().to_numpy() * 100
        weights = np.full(x.size, 100.0 / max(len(estimates), 1))
        ax.hist(
            x,
            bins=edges,
            weights=weights,
            histtype="step",
            lw=1.5,
            color=METHOD_COLORS[method],
            label=METHOD_LABELS[method],
        )
    ax.axvline(f_true * 100, color="grey", ls="--", lw=1, label="truth")
    return decorate(ax, xlabel="cross-validated F (%)", ylabel="repetitions (%)")


def _check_frame(name: str, frame: object, columns, what: str) -> None:
    """A DataFrame with the given columns; the shared checks take numbers and labels, not frames."""
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"{name} must be a DataFrame ({what}), got {type(frame).__name__}")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{name} lacks the column(s) {missing} ({what}); it has {list(frame.columns)[:10]}")


def _summary_html(result: ExploreResult) -> str:
    def pct(v, fmt):
        return "" if np.isnan(v) else format(v * 100, fmt)

    s = result.summary
    rows = "".join(
        f"<tr><td>{METHOD_LABELS[m]}</td><td>{pct(s.loc[m, 'mean'], '.2f')}%</td>"
        f"<td>{pct(s.loc[m, 'bias'], '+.2f')}</td><td>{pct(s.loc[m, 'std'], '.2f')}</td>"
        f"<td>{pct(s.loc[m, 'exact_mean'], '.2f')}</td><td>{int(s['n_undefined'].loc[m])}</td></tr>"
        for m in CV_F_METHODS
    )
    return (
        "<table><tr><th>method</th><th>mean</th><th>bias (points)</th><th>std (points)</th>"
        f"<th>exact mean (%)</th><th>undefined reps</th></tr>{rows}</table><p>{result.text}</p>"
    )


@dataclass
class SimExplorer:
    """The parts of the explorer; ``box`` is what a notebook displays."""

    prior: FloatSlider
    f_true: FloatSlider
    n_folds: Dropdown
    n_cases: Dropdown
    stratified: Checkbox
    summary: HTML
    status: Label
    plot: Output
    box: VBox | None
    result: ExploreResult | None = None
    update: Callable[..., None] | None = None


def build_sim_explorer(*, n_reps: int = 20_000, seed: int = 0, draw: bool = True) -> SimExplorer:
    """Widgets for prior, F, folds, cases and stratification → histograms and a summary table.

    Parameters
    ----------
    n_reps : int, default 20_000
        Repetitions per update (kept small so the widget responds at once).
    seed : int, default 0
    draw : bool, default True
        Draw the histogram in the ``plot`` Output widget (tests may switch it off).

    Returns
    -------
    SimExplorer
        Controls (``prior``, ``f_true``, ``n_folds``, ``n_cases``, ``stratified``),
        outputs (``summary`` HTML, ``status`` Label, ``plot`` Output), the layout
        ``box``, the latest ``result`` and the ``update`` callback.
    """
    w = require("ipywidgets")
    draw = check_bool("draw", draw)
    plt = require("matplotlib.pyplot") if draw else None
    parts = SimExplorer(
        prior=w.FloatSlider(
            value=0.01,
            min=0.005,
            max=0.5,
            step=0.005,
            description="prior",
            readout_format=".1%",
            continuous_update=False,
        ),
        f_true=w.FloatSlider(
            value=0.8, min=0.5, max=1.0, step=0.05, description="true F", readout_format=".0%", continuous_update=False
        ),
        n_folds=w.Dropdown(options=[2, 5, 10, 20, 50], value=10, description="folds"),
        n_cases=w.Dropdown(options=[100, 500, 1000, 2000, 10000], value=1000, description="cases"),
        stratified=w.Checkbox(value=True, description="stratified"),
        summary=w.HTML(),
        status=w.Label(),
        plot=w.Output(),
        box=None,
    )

    def update(_change=None):
        try:
            result = explore_cv_f(
                parts.prior.value,
                parts.f_true.value,
                n_folds=parts.n_folds.value,
                n_cases=parts.n_cases.value,
                stratified=parts.stratified.value,
                n_reps=n_reps,
                seed=seed,
            )
        except ValueError as err:
            parts.result = None
            parts.status.value = f"Not simulated: {err}"
            parts.summary.value = ""
            return
        parts.result = result
        parts.status.value = result.text
        parts.summary.value = _summary_html(result)
        if plt is not None:  # draw
            with parts.plot:
                parts.plot.clear_output(wait=True)
                _fig, ax = plt.subplots(figsize=(6.4, 3.6))
                plot_cv_f_histograms(result.estimates, result.f_true, ax=ax)
                ax.set_title("Distribution of each estimator over repetitions")
                plt.show()

    for control in (parts.prior, parts.f_true, parts.n_folds, parts.n_cases, parts.stratified):
        control.observe(update, names="value")
    parts.update = update
    controls = w.HBox([w.VBox([parts.prior, parts.f_true, parts.stratified]), w.VBox([parts.n_folds, parts.n_cases])])
    parts.box = w.VBox([controls, parts.status, parts.plot, parts.summary])
    update()
    return parts


def plot_method_curves(frame: pd.DataFrame, *, x: str, y: str, methods=CV_F_METHODS, ax=None, **line_kw):
    """One line per method from a long table (e.g. :func:`apples.simulate_grid`), values in %; returns ``ax``.

    ``frame`` needs columns ``method``, ``x`` and ``y``; both axes are scaled by
    100 (priors, F and biases are fractions in the table).

    Examples
    --------
    >>> import apples
    >>> g = apples.simulate_grid(apples.figure_grid().head(2), n_reps=50)
    >>> ax = plot_method_curves(g, x="prior", y="bias")
    >>> len(ax.lines)
    5
    """
    if not isinstance(x, str) or not isinstance(y, str):
        raise TypeError(f"x and y must be column names (strings), got x={x!r}, y={y!r}")
    _check_frame("frame", frame, ("method", x, y), "a long table such as apples.simulate_grid output")
    if isinstance(methods, str) or not isinstance(methods, Iterable):
        raise TypeError(f"methods must be a sequence of methods of CV_F_METHODS, got {methods!r}")
    methods = list(methods)
    unknown = [m for m in methods if not isinstance(m, str) or m not in METHOD_LABELS]
    if unknown:
        raise ValueError(f"methods has {unknown!r}, not methods of CV_F_METHODS {CV_F_METHODS}")
    ax = require("matplotlib.pyplot").gca() if ax is None else ax
    for method in methods:
        part = frame[frame["method"] == method].sort_values(x)
        ax.plot(
            part[x] * 100,
            part[y] * 100,
            marker="o",
            ms=3,
            color=METHOD_COLORS[method],
            label=METHOD_LABELS[method],
            **line_kw,
        )
    return ax
