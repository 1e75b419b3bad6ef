"""Figures of the Van Asch (2013) study (notebooks 04 and 06).

One call per reproduced figure (Figure 2 itself is drawn by
:mod:`apples.studies.van_asch.figure2_plots`): :func:`plot_fold_f1_readings`,
:func:`plot_delta_factors`, :func:`plot_fold_f1_single_runs` and
:func:`plot_fold_f1_convergence` (§7.1, notebook 04), and
:func:`plot_accuracy_by_uncertainty` (Figure 1, notebook 06).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from apples._kernels.averages import label_averages, support_frequencies
from apples._optional import require
from apples._params import (
    FLAG,
    Frame,
    Instance,
    Kind,
    Nullable,
    Options,
    ParameterValueError,
    Real,
    RealArray,
    Relation,
    check_seed,
    declare,
)
from apples.metrics.averaging import FREQUENCIES, FrequenciesCover
from apples.metrics.counts import COUNTS_BY_LABEL, Counts
from apples.plotting import decorate, panel_axes
from apples.studies.van_asch.figure2 import _PANEL_LETTERS, FIGURE2_PANELS, FIGURE2_PROPS
from apples.studies.van_asch.fold_size import (
    _N_INSTANCES,
    _exact_value,
    _fold_f1,
    _FoldsFit,
    _setup,
    _simulate,
)
from apples.theory.fold_model import N_FOLDS
from apples.theory.fold_size import VAN_ASCH_RECALL_A, VAN_ASCH_RECALL_B

__all__ = [
    "plot_accuracy_by_uncertainty",
    "plot_averages",
    "plot_delta_factors",
    "plot_fold_f1_convergence",
    "plot_fold_f1_readings",
    "plot_fold_f1_single_runs",
]


#: Marker of each average in :func:`plot_averages` (its colour is C0, C1, C2 in this order).
_AVERAGE_MARKERS = (("macro", "o"), ("micro", "s"), ("lfb", "^"))


class _Tables(Kind):
    """Row label -> ``(counts_by_label, frequencies or None)``: each table and its lfb frequencies checked."""

    what = "a non-empty mapping of row label -> (counts_by_label, frequencies or None)"

    def check(self, name: str, value: object) -> dict[Any, tuple[dict, Any]]:
        if not isinstance(value, Mapping) or not value:
            raise TypeError(f"{name} must be a non-empty mapping of label -> (counts_by_label, frequencies or None)")
        out = {}
        for key, pair in value.items():
            if not isinstance(pair, tuple) or len(pair) != 2:
                raise TypeError(f"{name}[{key!r}] must be a pair (counts_by_label, frequencies or None)")
            counts_name, frequencies_name = f"{name}[{key!r}][0]", f"{name}[{key!r}][1]"
            counts = COUNTS_BY_LABEL.check(counts_name, pair[0])
            frequencies = None if pair[1] is None else FREQUENCIES.check(frequencies_name, pair[1])
            FrequenciesCover(frequencies_name, counts_name).check({frequencies_name: frequencies, counts_name: counts})
            out[key] = (counts, frequencies)
        return out


class _Range(Kind):
    """An axis range in percent: a pair (low, high) of real numbers with low < high."""

    what = "a pair (low, high) in percent"

    def check(self, name: str, value: object) -> tuple[float, float]:
        if isinstance(value, (str, bytes)) or not isinstance(value, (tuple, list)) or len(value) != 2:
            raise TypeError(f"{name} must be a pair (low, high) in percent, got {value!r}")
        low = Real().check(f"{name}[0]", value[0])
        return low, Real(low, low_inclusive=False).check(f"{name}[1]", value[1])


def _averaged(
    table: Mapping[Hashable, Counts], how: str, frequencies: Mapping[Hashable, float] | str | None
) -> tuple[float, float]:
    """Averaged precision and recall of a checked table (:func:`apples.average_scores`, 0/0 as 0)."""
    counts = np.array([(c.tp, c.fp, c.fn) for c in table.values()], dtype=np.int64).reshape(-1, 3)
    tp, fp, fn = counts[:, 0], counts[:, 1], counts[:, 2]
    if frequencies is None:
        weights = None
    elif isinstance(frequencies, str):  # "test"
        weights = support_frequencies(tp, fn)
        if np.isnan(weights).any():  # no gold label: the average is 0/0, which counts as 0
            return 0.0, 0.0
    else:
        weights = np.array([frequencies[k] for k in table], dtype=float)
    a = label_averages(tp, fp, fn, average=how, weights=weights, undefined="zero")
    return float(a.precision), float(a.recall)


@declare(tables=_Tables(), measure=Options("precision", "recall"), xlim=Nullable(_Range()), legend=FLAG)
def plot_averages(
    tables: Mapping[Any, tuple[Mapping[Hashable, Counts], Mapping[Hashable, float] | str | None]],
    *,
    measure: str = "precision",
    ax: Any = None,
    xlim: tuple[float, float] | None = None,
    title: str | None = None,
    legend: bool = True,
) -> Any:
    """Van Asch's Tables 2–5 as dots: the macro, micro and lfb average of one measure, one row per table (§3).

    Differences of a few points (0.395 against 0.416) vanish on a 0–100 % bar
    axis; dots on an axis zoomed to the values (``xlim``) show them, each
    labelled with its value. Notebook 05.

    Parameters
    ----------
    tables : mapping
        Row label -> ``(counts_by_label, training_frequencies)``; the frequencies
        (a mapping label -> f, for lfb, Van Asch eq. 10) may be None, and the lfb
        dot of that row is then left out.
    measure : {"precision", "recall"}, default "precision"
    ax : matplotlib Axes, optional
    xlim : (low, high), optional
        The value axis in percent; the axis label says where it starts when
        that is not 0.
    title : str, optional
    legend : bool, default True
        A legend of the three averages, outside the axes on the right.

    Returns
    -------
    matplotlib Axes
    """
    ax = require("matplotlib.pyplot").gca() if ax is None else ax
    for k, (how, marker) in enumerate(_AVERAGE_MARKERS):
        labelled = False
        for row, (counts, train) in enumerate(tables.values()):
            if how == "lfb" and train is None:
                continue  # no training frequencies for this table
            precision, recall = _averaged(counts, how, train if how == "lfb" else None)
            value, y = 100 * (precision if measure == "precision" else recall), row + (k - 1) * 0.25
            ax.plot(value, y, marker, color=f"C{k}", label=None if labelled else how)
            labelled = True
            ax.annotate(f"{value:.1f}", (value, y), xytext=(5, -3), textcoords="offset points", fontsize=7)
    starts = "" if xlim is None or xlim[0] == 0 else f"; axis starts at {xlim[0]:g}, not 0"
    ax.set_yticks(range(len(tables)), [str(name) for name in tables])
    ax.set_ylim(len(tables) - 0.5, -0.5)  # first table on top
    decorate(ax, xlabel=f"averaged {measure} (%{starts})", title=title if title is not None else f"averaged {measure}")
    if xlim is not None:
        ax.set_xlim(xlim)
    legend_box = ax.get_legend()
    if legend_box is not None:
        legend_box.remove()
    if legend:
        ax.legend(title="average", loc="upper left", bbox_to_anchor=(1.02, 1.0))  # outside the data
    return ax


@declare(table=Frame(("low", "high", "accuracy"), source="apples.studies.van_asch.accuracy_by_uncertainty output"))
def plot_accuracy_by_uncertainty(table: pd.DataFrame, *, ax: Any = None, label: str | None = None, **style: Any) -> Any:
    """Plot :func:`accuracy_by_uncertainty` output: accuracy (%) per uncertainty bin (Figure 1).

    Each bin is drawn at the mean of its uncertainty range; ``label`` and ``style`` (matplotlib
    line properties) go to ``Axes.plot``. Returns ``ax``.
    """
    ax = require("matplotlib.pyplot").gca() if ax is None else ax
    x = (table["low"] + table["high"]) / 2
    ax.plot(x, 100 * table["accuracy"], marker="o", label=label, **style)
    return ax


#: Line style of each column of :func:`fold_f1_readings`: (colour, line style, legend label).
_READING_STYLES = {
    "avg: random, fixed": ("C0", "-", "E[F_avg], random folds"),
    "avg: stratified, fixed": ("C2", "-", "E[F_avg], stratified folds"),
    "avg: even, fixed": ("C4", "-", "E[F_avg], even folds"),
    "avg: random, binomial": ("C0", ":", "E[F_avg], random, binomial errors"),
    "avg: stratified, binomial": ("C2", ":", "E[F_avg], stratified, binomial errors"),
    "tp_fp: fixed": ("k", "-", "F_tp,fp"),
    "tp_fp: binomial": ("k", ":", "E[F_tp,fp], binomial errors"),
}


class _ReadingsFor(Relation):
    """``readings`` holds a :func:`fold_f1_readings` frame for every panel named in ``panels``."""

    names = ("readings", "panels")

    def check(self, values: Mapping[str, Any]) -> None:
        readings, keys = values["readings"], values["panels"]
        missing = [k for k in keys if k not in readings]
        if missing:
            raise ParameterValueError(
                f"readings has no frame for the panels {missing} named in panels", param="readings"
            )
        for key in keys:
            df = _READINGS_FRAME.check(f"readings[{key!r}]", readings[key])
            unknown = [c for c in df.columns if c not in _READING_STYLES]
            if unknown:
                raise ParameterValueError(
                    f"readings[{key!r}] has columns {unknown} that fold_f1_readings does not return", param="readings"
                )


_READINGS_FRAME = Frame((), source="apples.studies.van_asch.fold_f1_readings output")
_READINGS = Instance(Mapping, what="a mapping of panel letter -> fold_f1_readings frame")


@declare(readings=_READINGS, panels=_PANEL_LETTERS, relations=[_ReadingsFor()])
def plot_fold_f1_readings(
    readings: Mapping[str, pd.DataFrame],
    *,
    panels: Iterable[str] = ("c", "e", "f"),
    ax: Any = None,
) -> Any:
    """E[F_avg] of class A under each reading of Van Asch §7 against F_tp,fp, one panel per Figure 2 set-up.

    Fixed errors are drawn solid, binomial errors dotted; random folds blue,
    stratified green, "even" purple, F_tp,fp black.

    Parameters
    ----------
    readings : mapping str -> pandas.DataFrame
        Panel letter -> :func:`fold_f1_readings` of that panel's (K, N).
    panels : sequence of str, default ("c", "e", "f")
        Which panels of Figure 2 to draw, in order (keys of ``readings``).
    ax : sequence of matplotlib Axes, optional
        One Axes per panel; a new row of panels (shared y axis) when omitted.

    Returns
    -------
    matplotlib Figure

    References
    ----------
    Van Asch (2013), §7 (how folds are made and errors drawn) and Figure 2.
    """
    require("matplotlib.pyplot")
    keys = list(panels)  # checked: panel letters, each with a frame in readings
    axes = panel_axes(ax, len(keys), figsize=(13, 4.2), sharey=True)
    for a, key in zip(axes, keys, strict=True):
        df = readings[key]
        k, n = FIGURE2_PANELS[key]
        for col in df.columns:
            color, ls, label = _READING_STYLES[col]
            a.plot(100 * np.asarray(df.index, dtype=float), 100 * df[col].to_numpy(), color=color, ls=ls, label=label)
        a.set(
            xlabel="proportion of class A (%)",
            ylabel="E[F1 of class A] (%)",
            xlim=(0, 10),
            ylim=(0, 85),
            title=f"Fig. 2{key} set-up: {k} folds, {n:,} instances",
        )
    axes[0].legend(loc="lower right", fontsize=8)
    fig = axes[0].figure
    fig.suptitle(
        "Van Asch Fig. 2 set-ups under each reading of §7.1 (fixed errors solid; binomial dotted, almost on the solid)"
    )
    fig.tight_layout()
    return fig


@declare(table=Frame(("n", "n_a", "tp_a", "delta", "gap"), source="apples.theory.delta_table output"))
def plot_delta_factors(table: pd.DataFrame, *, ax: Any = None) -> Any:
    """One cross-validation fold by fold: (left) Van Asch's δ factor of each fold, (right) its share of the gap.

    Left, δ^k = (N + C) / (K (n^k + c^k)) per fold, blue where the fold has a
    true positive of class A (only those weigh in the gap), grey otherwise, and
    the line δ = 1. Right, each fold's share 2 (δ^k - 1) tp_A^k / (N + C) of
    F_avg - F_tp,fp in percentage points (red negative, green positive). Both
    panels span every fold (a fold whose δ is undefined, d^k = 0, has no dot);
    the figure's title says it is built on §7.1, not drawn in the paper.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`apples.theory.delta_table` of one cross-validation (columns
        ``n``, ``n_a``, ``tp_a``, ``delta``, ``gap``); the figure's title gives
        its K, N and proportion of class A.
    ax : pair of matplotlib Axes, optional
        The two panels; a new figure when omitted.

    Returns
    -------
    matplotlib Figure

    References
    ----------
    Van Asch (2013), §7.1, eqs. (27)-(30).
    """
    require("matplotlib.pyplot")
    if len(table) == 0:
        raise ParameterValueError("table must hold at least one fold", param="table")
    ax_delta, ax_gap = panel_axes(ax, 2, figsize=(12, 4))
    has_tp = (table["tp_a"] > 0).to_numpy()
    n_total = int(table["n"].sum())
    prop = 100 * float(table["n_a"].sum()) / n_total if n_total else float("nan")
    ax_delta.scatter(
        table.index[~has_tp],
        table["delta"][~has_tp],
        color="0.6",
        s=14,
        label="no true positive (weight 0 in the gap)",
    )
    ax_delta.scatter(table.index[has_tp], table["delta"][has_tp], color="C0", s=22, label="folds with tp_A > 0")
    ax_delta.axhline(1, color="k", lw=1, label="δ = 1 (fold matches the average)")
    decorate(
        ax_delta,
        xlabel="fold k",
        ylabel=r"$\delta^k$ (ratio)",
        ylim=(0, 1.4),
        title="δ factor of each fold",
    )
    gap = table["gap"].to_numpy(dtype=float)
    ax_gap.bar(table.index, 100 * gap, color=np.where(gap < 0, "C3", "C2"))
    decorate(
        ax_gap,
        xlabel="fold k",
        ylabel="share of F_avg - F_tp,fp (percentage points)",
        title=f"Each fold's share of F_avg - F_tp,fp; they sum to {100 * gap.sum():+.2f} points",
    )
    ax_delta.set_xlim(ax_gap.get_xlim())  # the bars span every fold; a fold with δ undefined has no dot
    fig = ax_delta.figure
    fig.suptitle(
        f"Van Asch §7.1 fold by fold, one cross-validation ({len(table)} folds, {n_total} instances, {prop:g} % A;"
        " not a figure of the paper)"
    )
    fig.tight_layout()
    return fig


class _Seeds(Kind):
    """Seeds of single runs: an iterable (possibly empty) of non-negative ints; becomes a list of int."""

    what = "an iterable of non-negative ints"

    def check(self, name: str, value: object) -> list[int]:
        if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
            raise TypeError(f"{name} must be an iterable of non-negative ints, got {type(value).__name__}")
        return [check_seed(f"{name}[{i}]", s) for i, s in enumerate(value)]


def _single_run_f_avg(prop: float, *, n_instances: int, n_folds: int, seed: int) -> float:
    """F_avg of class A of one cross-validation (random folds, fixed errors) drawn from ``default_rng(seed)``."""
    recall_a, recall_b = VAN_ASCH_RECALL_A, VAN_ASCH_RECALL_B
    sizes, corpus = _setup(prop, n_instances, n_folds, recall_a, recall_b)
    sim = _simulate(
        sizes,
        corpus,
        allocation="random",
        errors="fixed",
        recall_a=recall_a,
        recall_b=recall_b,
        n_reps=1,
        rng=np.random.default_rng(seed),
    )
    n = np.broadcast_to(sim.fold_size, sim.tp_a.shape)
    return float(_fold_f1(sim.tp_a, sim.tp_b, n, method="avg", average="binary", undefined="raise")[0])


@declare(
    n_folds=N_FOLDS,
    n_instances=_N_INSTANCES,
    seeds=_Seeds(),
    props=RealArray(0, 1),
    relations=[_FoldsFit()],
)
def plot_fold_f1_single_runs(
    *,
    n_folds: int = 50,
    n_instances: int = 1000,
    seeds: Iterable[int] = range(8),
    props: ArrayLike = FIGURE2_PROPS,
    ax: Any = None,
) -> Any:
    """F_avg of class A of single cross-validations (grey, one line per seed) against E[F_avg] and F_tp,fp.

    What Figure 2 would look like if each of its points were one
    cross-validation (random folds, fixed errors): for seed ``s`` the point at
    the ``i``-th proportion is ``simulate_fold_counts(p, n_reps=1, seed=1000 s + i)``.
    The exact E[F_avg] (blue) and F_tp,fp (black) are :func:`exact_fold_f1`.

    Parameters
    ----------
    n_folds, n_instances : int, default 50 and 1000
        K and N (the defaults are panel 2e).
    seeds : iterable of int, default range(8)
        One grey line per seed, each a non-negative int.
    props : array-like of float, default :data:`FIGURE2_PROPS`
        Proportions of class A, in [0, 1].
    ax : matplotlib Axes, optional
        Drawn on the current Axes when omitted.

    Returns
    -------
    matplotlib Axes

    References
    ----------
    Van Asch (2013), §7.1 and Figure 2.
    """
    plt = require("matplotlib.pyplot")
    props = np.atleast_1d(np.asarray(props))
    ax = plt.gca() if ax is None else ax
    x = 100 * props
    for j, s in enumerate(seeds):
        runs = [
            _single_run_f_avg(float(p), n_instances=n_instances, n_folds=n_folds, seed=1000 * s + i)
            for i, p in enumerate(props)
        ]
        ax.plot(x, 100 * np.array(runs), color="0.6", lw=0.8, label="F_avg, one run" if j == 0 else None)
    design: dict[str, Any] = {
        "n_instances": n_instances,
        "errors": "fixed",
        "recall_a": VAN_ASCH_RECALL_A,
        "recall_b": VAN_ASCH_RECALL_B,
    }
    exact_avg = [
        _exact_value(float(p), method="avg", average="binary", n_folds=n_folds, allocation="random", **design)
        for p in props
    ]
    exact_tpfp = [
        _exact_value(float(p), method="tp_fp", average="binary", n_folds=n_folds, allocation="random", **design)
        for p in props
    ]
    ax.plot(x, 100 * np.array(exact_avg), color="C0", lw=2, label="E[F_avg] (exact)")
    ax.plot(x, 100 * np.array(exact_tpfp), color="k", lw=2, label="F_tp,fp")
    panel = next((key for key, design in FIGURE2_PANELS.items() if design == (n_folds, n_instances)), "")
    decorate(
        ax,
        xlabel="proportion of class A (%)",
        ylabel="F1 of class A (%)",
        xlim=(0, 10),
        title=f"Single cross-validations, Van Asch Fig. 2{panel} set-up ({n_folds} folds, {n_instances:,} instances)",
    )
    return ax


@declare(
    conv=Frame(("n_reps", "mean", "se"), source="simulate_fold_f1 results, one row per simulation"),
    exact=Real(),
    title=Nullable(Instance(str, what="a str")),
)
def plot_fold_f1_convergence(conv: pd.DataFrame, exact: float, *, ax: Any = None, title: str | None = None) -> Any:
    """Monte Carlo means of F_avg ± 2 SE converging to the exact E[F_avg] as the repetitions grow.

    The band is exact ± 2 SD/√R for R from 10 to 10^5, with the standard
    deviation SD of one cross-validation estimated from the largest run
    (its SE times √R); the markers are the simulated means ± 2 SE.

    Parameters
    ----------
    conv : pandas.DataFrame
        One row per independent simulation, columns ``n_reps``, ``mean`` and
        ``se`` (from :func:`simulate_fold_f1`), sorted by ``n_reps``.
    exact : float
        The exact expectation (:func:`exact_fold_f1`), a fraction.
    ax : matplotlib Axes, optional
        Drawn on the current Axes when omitted.
    title : str, optional
        Default: the set-up of notebook 04 (Figure 2e, 2 % class A).

    Returns
    -------
    matplotlib Axes

    References
    ----------
    Van Asch (2013), §7.1 (the simulated F_avg of Figure 2).
    """
    plt = require("matplotlib.pyplot")
    if len(conv) == 0:
        raise ParameterValueError("conv must hold at least one simulation", param="conv")
    ax = plt.gca() if ax is None else ax
    sd = conv["se"].iloc[-1] * np.sqrt(conv["n_reps"].iloc[-1])
    r = np.logspace(1, 5, 100)
    ax.fill_between(
        r,
        100 * (exact - 2 * sd / np.sqrt(r)),
        100 * (exact + 2 * sd / np.sqrt(r)),
        color="C0",
        alpha=0.2,
        label="exact ± 2 SE of a simulation of R repetitions",
    )
    ax.axhline(100 * exact, color="k", lw=1, label=f"exact E[F_avg] = {exact:.2%}")
    ax.errorbar(
        conv["n_reps"],
        100 * conv["mean"],
        yerr=200 * conv["se"],
        fmt="o",
        color="C0",
        ms=4,
        label="simulated mean ± 2 SE",
    )
    if title is None:
        title = "Monte Carlo converging to the exact E[F_avg] (50 folds, 1000 instances, 2 % A)"
    decorate(
        ax,
        xscale="log",
        xlabel="repetitions (count, log scale)",
        ylabel="F_avg of class A (%)",
        title=title,
    )
    return ax
