"""Van Asch (2013), notebooks 04-06.

Fold-size simulations and exact expectations (§7), the boosting experiment
(§6.2.1) and figures.
"""

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
