"""Van Asch (2013), notebooks 04-06.

Fold-size simulations and exact expectations (§7), the boosting experiment
(§6.2.1) and figures.
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from apples.studies.van_asch.boosting import (
        accuracy_by_uncertainty,
        boosting_curve,
        boosting_table,
        expected_accuracy,
        nearest_neighbour_boosting,
        relabel_errors,
        relabel_uncertain,
        uncertainty_threshold,
        zipf_subsample,
    )
    from apples.studies.van_asch.boosting_splits import (
        summarize_boosting_runs,
    )
    from apples.studies.van_asch.figure2 import (
        FIGURE2_PANELS,
        FIGURE2_PROPS,
        READINGS,
        figure2_curves,
        fold_f1_curve,
        fold_f1_readings,
    )
    from apples.studies.van_asch.figure2_plots import (
        plot_fold_f1,
        plot_fold_f1_grid,
    )
    from apples.studies.van_asch.figures import (
        plot_accuracy_by_uncertainty,
        plot_averages,
        plot_delta_factors,
        plot_fold_f1_convergence,
        plot_fold_f1_readings,
        plot_fold_f1_single_runs,
    )
    from apples.studies.van_asch.fold_size import (
        ALLOCATIONS,
        ERROR_MODELS,
        FoldCounts,
        exact_fold_f1,
        simulate_fold_counts,
        simulate_fold_f1,
    )

__all__ = [
    "ALLOCATIONS",
    "ERROR_MODELS",
    "FIGURE2_PANELS",
    "FIGURE2_PROPS",
    "READINGS",
    "FoldCounts",
    "accuracy_by_uncertainty",
    "boosting_curve",
    "boosting_table",
    "exact_fold_f1",
    "expected_accuracy",
    "figure2_curves",
    "fold_f1_curve",
    "fold_f1_readings",
    "nearest_neighbour_boosting",
    "plot_accuracy_by_uncertainty",
    "plot_averages",
    "plot_delta_factors",
    "plot_fold_f1",
    "plot_fold_f1_convergence",
    "plot_fold_f1_grid",
    "plot_fold_f1_readings",
    "plot_fold_f1_single_runs",
    "relabel_errors",
    "relabel_uncertain",
    "simulate_fold_counts",
    "simulate_fold_f1",
    "summarize_boosting_runs",
    "uncertainty_threshold",
    "zipf_subsample",
]

#: The module that defines each name: imported when the name is first used.
_SOURCES = {
    "accuracy_by_uncertainty": "apples.studies.van_asch.boosting",
    "boosting_curve": "apples.studies.van_asch.boosting",
    "boosting_table": "apples.studies.van_asch.boosting",
    "expected_accuracy": "apples.studies.van_asch.boosting",
    "nearest_neighbour_boosting": "apples.studies.van_asch.boosting",
    "relabel_errors": "apples.studies.van_asch.boosting",
    "relabel_uncertain": "apples.studies.van_asch.boosting",
    "uncertainty_threshold": "apples.studies.van_asch.boosting",
    "zipf_subsample": "apples.studies.van_asch.boosting",
    "summarize_boosting_runs": "apples.studies.van_asch.boosting_splits",
    "FIGURE2_PANELS": "apples.studies.van_asch.figure2",
    "FIGURE2_PROPS": "apples.studies.van_asch.figure2",
    "READINGS": "apples.studies.van_asch.figure2",
    "figure2_curves": "apples.studies.van_asch.figure2",
    "fold_f1_curve": "apples.studies.van_asch.figure2",
    "fold_f1_readings": "apples.studies.van_asch.figure2",
    "plot_fold_f1": "apples.studies.van_asch.figure2_plots",
    "plot_fold_f1_grid": "apples.studies.van_asch.figure2_plots",
    "plot_accuracy_by_uncertainty": "apples.studies.van_asch.figures",
    "plot_averages": "apples.studies.van_asch.figures",
    "plot_delta_factors": "apples.studies.van_asch.figures",
    "plot_fold_f1_convergence": "apples.studies.van_asch.figures",
    "plot_fold_f1_readings": "apples.studies.van_asch.figures",
    "plot_fold_f1_single_runs": "apples.studies.van_asch.figures",
    "ALLOCATIONS": "apples.studies.van_asch.fold_size",
    "ERROR_MODELS": "apples.studies.van_asch.fold_size",
    "FoldCounts": "apples.studies.van_asch.fold_size",
    "exact_fold_f1": "apples.studies.van_asch.fold_size",
    "simulate_fold_counts": "apples.studies.van_asch.fold_size",
    "simulate_fold_f1": "apples.studies.van_asch.fold_size",
}


def __getattr__(name: str) -> object:
    """Import the module that defines ``name`` on first use (PEP 562), so importing the package is cheap."""
    if name not in _SOURCES:
        if importlib.util.find_spec(f"{__name__}.{name}") is None:  # a submodule is imported on access too
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        return importlib.import_module(f"{__name__}.{name}")
    value = getattr(importlib.import_module(_SOURCES[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__} - {"annotations", "importlib", "TYPE_CHECKING"})
