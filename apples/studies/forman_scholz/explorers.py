"""Interactive explorers of the Forman & Scholz (2010) study (notebooks 02 and 03).

Each ``*_explorer`` builder returns a NamedTuple whose ``.widget`` is displayed;
the pure function behind it sits in the study module. Needs a running kernel and
ipywidgets (the ``notebooks`` extra).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from apples._kernels.counting import codes_of
from apples._kernels.ranking import fold_ranking
from apples._kernels.rounding import percent_text
from apples._optional import require
from apples._params import FLAG, SEED, Instance, Nullable, declare, exempt
from apples.cv.aggregations import F_AGGREGATIONS
from apples.plotting import EXPLORER_NOTE, explorer_mimebundle
from apples.studies.forman_scholz.bias_figures import _histograms
from apples.studies.forman_scholz.calibration import CalibrationStudy, _paper_study
from apples.studies.forman_scholz.figures import _figure3, _folds
from apples.studies.forman_scholz.simulation import (
    _DESIGN,
    _FITS_EXACT,
    _SAMPLE_REPS,
    ExploreResult,
    _explore,
    _seed_entropy,
)

if TYPE_CHECKING:  # ipywidgets and matplotlib are optional (the notebooks extra), imported by the builders
    from ipywidgets import HTML, Label, Output, VBox
    from matplotlib.figure import Figure


__all__ = [
    "CalibrationExplorer",
    "SimExplorer",
    "calibration_explorer",
    "sim_explorer",
]


def _figure3_of(study: CalibrationStudy, shifts: Sequence[float], scales: Sequence[float], axes: Any) -> Figure:
    """Figure 3 of the study at the given shifts and scales, on two Axes."""
    return _figure3(axes, _folds(study.y_true, study.scores(shifts, scales), study.folds, 1), True, None)


# -- interactive explorer --------------------------------------------------------------------------
@exempt("a result type: calibration_explorer builds it")
class CalibrationExplorer(NamedTuple):
    """Parts of :func:`calibration_explorer`; display ``.widget``, set slider values in tests."""

    widget: object  #: the VBox to display
    shifts: list  #: one FloatSlider per fold: shift in decades
    scales: list  #: one FloatLogSlider per fold: scale of log10(score)
    result: object  #: HTML with the AUC table
    plot: object  #: Output holding Figure 3 for the current settings (None without plot)
    study: CalibrationStudy

    def snapshot(self) -> Figure:
        """Figure 3 at the current slider values (what the widget shows), as a matplotlib Figure."""
        plt = require("matplotlib.pyplot")
        shifts = [s.value for s in self.shifts]
        scales = [s.value for s in self.scales]
        _, axes = plt.subplots(1, 2, figsize=(9.6, 3.6), sharex=True)
        fig = _figure3_of(self.study, shifts, scales, axes)
        fig.suptitle("Forman & Scholz Fig. 3 layout, re-created with constructed scores (explorer snapshot)")
        fig.tight_layout()  # keeps the suptitle clear of the panel titles
        return fig

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict:
        return explorer_mimebundle(self.widget, self.snapshot)

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        # IPython pretty-prints a tuple (this NamedTuple) itself; without this its text/plain would be the
        # repr of every control and array instead of EXPLORER_NOTE.
        p.text(EXPLORER_NOTE)


def _result_html(study: CalibrationStudy, shifts: Sequence[float], scales: Sequence[float]) -> str:
    """Each fold's AUC, AUC_avg and AUC_merge (as :func:`apples.auc_table` lists them) as an HTML table."""
    ids, code = codes_of(study.folds)
    r = fold_ranking(study.y_true == 1, study.log_scores(shifts, scales), code, ids.size)
    rows = [
        *zip(ids.tolist(), r.auc.tolist(), strict=True),
        ("AUC_avg", float(r.auc.mean())),
        ("AUC_merge", r.auc_merge),
    ]
    cells = "".join(f"<tr><td>{idx}</td><td>{percent_text(v, decimals=1)}</td></tr>" for idx, v in rows)
    return f"<table><tr><th>fold</th><th>AUC</th></tr>{cells}</table>"


@declare(study=Nullable(Instance(CalibrationStudy, what="a CalibrationStudy (fs.section32_study())")), plot=FLAG)
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
        AUC_merge (rounded to 0.1%), as :func:`apples.auc_table` computes them.
    """
    widgets = require("ipywidgets")
    plt = require("matplotlib.pyplot") if plot else None
    study = _paper_study() if study is None else study
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

    def update(_: object = None) -> None:
        shifts = [s.value for s in shift_sliders]
        scales = [s.value for s in scale_sliders]
        result.value = _result_html(study, shifts, scales)
        if out is not None and plt is not None:  # both are set when plot is True
            with out:
                out.clear_output(wait=True)
                fig, axes = plt.subplots(1, 2, figsize=(9.6, 3.2), sharex=True)
                _figure3_of(study, shifts, scales, axes)
                plt.show()
                plt.close(fig)

    for s in shift_sliders + scale_sliders:
        s.observe(update, names="value")
    update()
    controls = widgets.HBox([widgets.VBox(shift_sliders), widgets.VBox(scale_sliders), result])
    box = widgets.VBox([controls] + ([out] if out is not None else []))
    return CalibrationExplorer(box, shift_sliders, scale_sliders, result, out, study)


def _summary_html(result: ExploreResult) -> str:
    def pct(v: Any, fmt: str) -> str:
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


def _design_title(point: dict) -> str:
    """The explorer's design in a figure title: prior, true F, folds, cases and stratification."""
    kind = "stratified" if point["stratified"] else "unstratified"
    return (
        f"{point['prior']:.1%} positives, true F = {point['f_true']:.0%},\n"
        f"{point['n_folds']}-fold {kind} CV of {point['n_cases']:,} cases"
    )


@exempt("a result type: sim_explorer builds it")
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

    def snapshot(self) -> Figure:
        """A matplotlib Figure of the histograms at the current settings (what the widget shows)."""
        plt = require("matplotlib.pyplot")
        fig, ax = plt.subplots(figsize=(7.6, 3.6))
        if self.result is not None:
            _histograms(ax, self.result.estimates, self.result.f_true, 40)
            ax.legend(loc="center left", bbox_to_anchor=(1.02, 0.5))  # outside: inside, it hides bars
        point = {name: control.value for name, control in self.controls.items()}
        ax.set_title(f"Explorer snapshot (not a paper figure): {_design_title(point)}", fontsize="medium")
        return fig

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict:
        return explorer_mimebundle(self.widget, self.snapshot)

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        # IPython pretty-prints a tuple (this NamedTuple) itself; without this its text/plain would be the
        # repr of every control and array instead of EXPLORER_NOTE.
        p.text(EXPLORER_NOTE)


@declare(n_reps=_SAMPLE_REPS, seed=SEED, draw=FLAG)
def sim_explorer(*, n_reps: int = 20_000, seed: int | np.random.Generator = 0, draw: bool = True) -> SimExplorer:
    """Widgets for prior, F, folds, cases and stratification → histograms and a summary table.

    Parameters
    ----------
    n_reps : int, default 20_000
        Repetitions per update (kept small so the widget responds at once).
    seed : int or numpy.random.Generator, default 0
        The seed of every update (a Generator gives one integer seed, once).
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
    plt = require("matplotlib.pyplot") if draw else None
    seed = _seed_entropy(seed)
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

    def update(_change: object = None) -> None:
        point = {name: controls[name].value for name in ("prior", "f_true", "n_folds", "n_cases", "stratified")}
        try:  # the controls' values are valid each alone; the design they make together may not be
            _DESIGN(point)
            _FITS_EXACT(point)
            result = _explore(**point, n_reps=n_reps, seed=seed)
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
                _fig, ax = plt.subplots(figsize=(7.6, 3.6))
                _histograms(ax, result.estimates, result.f_true, 40)
                ax.legend(loc="center left", bbox_to_anchor=(1.02, 0.5))
                ax.set_title(_design_title(point), fontsize="medium")
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
