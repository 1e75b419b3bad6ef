"""Interactive explorers of the Forman & Scholz (2010) study (notebooks 02 and 03).

Each ``*_explorer`` builder returns a NamedTuple whose ``.widget`` is displayed;
the pure function behind it sits in the study module. Needs a running kernel and
ipywidgets (the ``notebooks`` extra).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from apples._optional import require
from apples._params import (
    check_bool,
)
from apples.cv.aggregations import F_AGGREGATIONS
from apples.cv.confusion import percent
from apples.cv.ranking import auc_table
from apples.plotting import EXPLORER_NOTE, explorer_mimebundle
from apples.studies.forman_scholz.bias_figures import plot_cv_f_histograms
from apples.studies.forman_scholz.calibration import CalibrationStudy, section32_study
from apples.studies.forman_scholz.figures import plot_figure3
from apples.studies.forman_scholz.simulation import ExploreResult, explore_cv_f

if TYPE_CHECKING:  # ipywidgets is optional (the notebooks extra), imported by sim_explorer
    from ipywidgets import HTML, Label, Output, VBox


__all__ = [
    "CalibrationExplorer",
    "SimExplorer",
    "calibration_explorer",
    "sim_explorer",
]


# -- interactive explorer --------------------------------------------------------------------------
class CalibrationExplorer(NamedTuple):
    """Parts of :func:`calibration_explorer`; display ``.widget``, set slider values in tests."""

    widget: object  #: the VBox to display
    shifts: list  #: one FloatSlider per fold: shift in decades
    scales: list  #: one FloatLogSlider per fold: scale of log10(score)
    result: object  #: HTML with the AUC table
    plot: object  #: Output holding Figure 3 for the current settings (None without plot)
    study: CalibrationStudy

    def snapshot(self):
        """Figure 3 at the current slider values (what the widget shows), as a matplotlib Figure."""
        shifts = [s.value for s in self.shifts]
        scales = [s.value for s in self.scales]
        fig = plot_figure3(self.study.y_true_folds, self.study.scores(shifts, scales))
        fig.suptitle("Forman & Scholz Fig. 3 at the explorer's starting values (snapshot)")
        return fig

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        return explorer_mimebundle(self.widget, self.snapshot)

    def _repr_pretty_(self, p, cycle: bool) -> None:
        # IPython pretty-prints a tuple (this NamedTuple) itself; without this its text/plain would be the
        # repr of every control and array instead of EXPLORER_NOTE.
        p.text(EXPLORER_NOTE)


def _result_html(study: CalibrationStudy, shifts, scales) -> str:
    table = auc_table(study.y_true_folds, study.log_scores(shifts, scales))
    cells = "".join(f"<tr><td>{idx}</td><td>{percent(v, decimals=1)}</td></tr>" for idx, v in table["auc"].items())
    return f"<table><tr><th>fold</th><th>AUC</th></tr>{cells}</table>"


def calibration_explorer(study: CalibrationStudy | None = None, *, plot: bool = True) -> CalibrationExplorer:
    """Sliders for each fold's shift and scale; AUC_avg stays put while AUC_merge moves.

    Parameters
    ----------
    study : CalibrationStudy, optional
        Defaults to :func:`section32_study`; the sliders start at its shifts and scales.
    plot : bool, default True
        Redraw Figure 3 in an Output widget on every change.

    Returns
    -------
    CalibrationExplorer
        ``.result.value`` is an HTML table with each fold's AUC, AUC_avg and
        AUC_merge (rounded to 0.1%), computed by :func:`auc_table`.
    """
    widgets = require("ipywidgets")
    plot = check_bool("plot", plot)
    plt = require("matplotlib.pyplot") if plot else None
    study = section32_study() if study is None else study
    shift_sliders = [
        widgets.FloatSlider(
            value=v,
            min=-2.0,
            max=2.0,
            step=0.05,
            description=f"fold {i + 1} shift",
            readout_format=".2f",
            continuous_update=False,
            style={"description_width": "initial"},
        )
        for i, v in enumerate(study.shifts)
    ]
    scale_sliders = [
        widgets.FloatLogSlider(
            value=v,
            base=10,
            min=-0.6,
            max=0.6,
            step=0.05,
            description=f"fold {i + 1} scale",
            continuous_update=False,
            style={"description_width": "initial"},
        )
        for i, v in enumerate(study.scales)
    ]
    result = widgets.HTML()
    out = widgets.Output() if plot else None

    def update(_=None):
        shifts = [s.value for s in shift_sliders]
        scales = [s.value for s in scale_sliders]
        result.value = _result_html(study, shifts, scales)
        if out is not None and plt is not None:  # both are set when plot is True
            with out:
                out.clear_output(wait=True)
                fig, axes = plt.subplots(1, 2, figsize=(9.6, 3.2), sharex=True)
                plot_figure3(study.y_true_folds, study.scores(shifts, scales), ax=axes)
                plt.show()
                plt.close(fig)

    for s in shift_sliders + scale_sliders:
        s.observe(update, names="value")
    update()
    controls = widgets.HBox([widgets.VBox(shift_sliders), widgets.VBox(scale_sliders), result])
    box = widgets.VBox([controls] + ([out] if out is not None else []))
    return CalibrationExplorer(box, shift_sliders, scale_sliders, result, out, study)


def _summary_html(result: ExploreResult) -> str:
    def pct(v, fmt):
        return "" if np.isnan(v) else format(v * 100, fmt)

    s = result.summary
    cell = "<td style='padding: 2px 10px; text-align: right'>"
    rows = "".join(
        f"<tr><td style='padding: 2px 10px'>{F_AGGREGATIONS[m].symbol}</td>{cell}{pct(s.loc[m, 'mean'], '.2f')}%</td>"
        f"{cell}{pct(s.loc[m, 'bias'], '+.2f')}</td>{cell}{pct(s.loc[m, 'std'], '.2f')}</td>"
        f"{cell}{pct(s.loc[m, 'exact_mean'], '.2f')}</td>{cell}{int(s['n_undefined'].loc[m])}</td></tr>"
        for m in F_AGGREGATIONS
    )
    head = "".join(
        f"<th style='padding: 2px 10px'>{h}</th>"
        for h in ("method", "mean", "bias (points)", "std (points)", "exact mean (%)", "undefined reps")
    )
    # the design and the smallest bias are in the status line above the plot: not repeated here
    return f"<table><tr>{head}</tr>{rows}</table>"


class SimExplorer(NamedTuple):
    """Parts of :func:`sim_explorer`; display ``.widget``, set control values in tests."""

    widget: VBox  #: the layout to display
    controls: dict  #: "prior", "f_true" (FloatSlider), "n_folds", "n_cases" (Dropdown), "stratified" (Checkbox)
    summary: HTML  #: the table of each method's mean, bias and spread
    status: Label  #: the design in words, or why it cannot be simulated
    plot: Output  #: the histograms (empty with ``draw=False``)
    state: dict  #: ``{"result": ExploreResult or None}``, the latest result, updated on every change
    update: Callable[..., None]  #: re-run the simulation with the current control values

    @property
    def result(self) -> ExploreResult | None:
        """The latest :class:`ExploreResult` (None when the design could not be simulated)."""
        return self.state["result"]

    def snapshot(self):
        """A matplotlib Figure of the histograms at the current settings (what the widget shows)."""
        plt = require("matplotlib.pyplot")
        fig, ax = plt.subplots(figsize=(6.4, 3.6))
        if self.result is not None:
            plot_cv_f_histograms(self.result.estimates, self.result.f_true, ax=ax)
        ax.set_title("Distribution of each estimator over repetitions (snapshot)")
        return fig

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        return explorer_mimebundle(self.widget, self.snapshot)

    def _repr_pretty_(self, p, cycle: bool) -> None:
        # IPython pretty-prints a tuple (this NamedTuple) itself; without this its text/plain would be the
        # repr of every control and array instead of EXPLORER_NOTE.
        p.text(EXPLORER_NOTE)


def sim_explorer(*, n_reps: int = 20_000, seed: int = 0, draw: bool = True) -> SimExplorer:
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
        ``.widget`` to display; ``.controls`` (``prior``, ``f_true``, ``n_folds``, ``n_cases``,
        ``stratified``), the outputs (``summary`` HTML, ``status`` Label, ``plot`` Output),
        the latest ``result`` and the ``update`` callback. The pure function behind it is
        :func:`~apples.studies.forman_scholz.explore_cv_f`.
    """
    w = require("ipywidgets")
    draw = check_bool("draw", draw)
    plt = require("matplotlib.pyplot") if draw else None
    controls = {
        "prior": w.FloatSlider(
            value=0.01,
            min=0.005,
            max=0.5,
            step=0.005,
            description="prior",
            readout_format=".1%",
            continuous_update=False,
        ),
        "f_true": w.FloatSlider(
            value=0.8, min=0.5, max=1.0, step=0.05, description="true F", readout_format=".0%", continuous_update=False
        ),
        "n_folds": w.Dropdown(options=[2, 5, 10, 20, 50], value=10, description="folds"),
        "n_cases": w.Dropdown(options=[100, 500, 1000, 2000, 10000], value=1000, description="cases"),
        "stratified": w.Checkbox(value=True, description="stratified"),
    }
    summary, status, plot = w.HTML(), w.Label(), w.Output()
    state: dict = {"result": None}

    def update(_change=None):
        try:
            result = explore_cv_f(
                controls["prior"].value,
                controls["f_true"].value,
                n_folds=controls["n_folds"].value,
                n_cases=controls["n_cases"].value,
                stratified=controls["stratified"].value,
                n_reps=n_reps,
                seed=seed,
            )
        except ValueError as err:
            state["result"] = None
            status.value = f"Not simulated: {err}"
            summary.value = ""
            return
        state["result"] = result
        status.value = result.text
        summary.value = _summary_html(result)
        if plt is not None:  # draw
            with plot:
                plot.clear_output(wait=True)
                _fig, ax = plt.subplots(figsize=(6.4, 3.6))
                plot_cv_f_histograms(result.estimates, result.f_true, ax=ax)
                ax.set_title("Distribution of each estimator over repetitions")
                plt.show()

    for control in controls.values():
        control.observe(update, names="value")
    layout = w.HBox(
        [
            w.VBox([controls["prior"], controls["f_true"], controls["stratified"]]),
            w.VBox([controls["n_folds"], controls["n_cases"]]),
        ]
    )
    widget = w.VBox([layout, status, plot, summary])
    update()
    return SimExplorer(widget, controls, summary, status, plot, state, update)
