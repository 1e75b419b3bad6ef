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
from apples.studies.van_asch.figures import (
    plot_accuracy_by_uncertainty,
    plot_fold_f1,
)
from apples.studies.van_asch.fold_size import (
    READINGS,
    FoldCounts,
    exact_fold_f1,
    fold_f1_curve,
    fold_f1_readings,
    simulate_fold_counts,
    simulate_fold_f1,
)

__all__ = [
    "READINGS",
    "FoldCounts",
    "accuracy_by_uncertainty",
    "boosting_curve",
    "boosting_table",
    "exact_fold_f1",
    "expected_accuracy",
    "fold_f1_curve",
    "fold_f1_readings",
    "nearest_neighbour_boosting",
    "plot_accuracy_by_uncertainty",
    "plot_fold_f1",
    "relabel_errors",
    "relabel_uncertain",
    "simulate_fold_counts",
    "simulate_fold_f1",
    "uncertainty_threshold",
    "zipf_subsample",
]
