"""Forman & Scholz (2010), notebooks 01-03.

The §3.2 calibration example, the §4.2 bias simulation, the digits data,
figures and explorers.
"""

from apples.studies.forman_scholz.bias_figures import (
    plot_bias_vs_prior,
    plot_cv_f_convergence,
    plot_cv_f_histograms,
    plot_figure4_5,
    plot_figure6,
    plot_figure7,
    plot_figure8,
    plot_figure9,
    plot_method_curves,
)
from apples.studies.forman_scholz.bias_tables import (
    format_chance,
    format_fold_counts,
    relative_bias,
    relative_bias_line,
)
from apples.studies.forman_scholz.calibration import (
    PAPER_AUC_AVG,
    PAPER_AUC_MERGE,
    PAPER_FOLD_AUC,
    PAPER_N_CASES,
    PAPER_N_POSITIVES,
    CalibrationStudy,
    scores_with_auc,
    section32_study,
    stratified_fold_sizes,
)
from apples.studies.forman_scholz.datasets import (
    TrainingSetCalibration,
    auc_comparison,
    digits_one_vs_rest,
    fold_scores,
)
from apples.studies.forman_scholz.explorers import (
    CalibrationExplorer,
    SimExplorer,
    calibration_explorer,
    sim_explorer,
)
from apples.studies.forman_scholz.figures import (
    plot_f_of_tp,
    plot_f_precision_recall,
    plot_f_rates,
    plot_figure3,
    plot_fold_rocs,
    plot_rate_vs_score,
)
from apples.studies.forman_scholz.simulation import (
    FIGURE_F_TRUE,
    FIGURE_PANEL_PRIORS,
    FIGURE_PRIORS,
    ExploreResult,
    explore_cv_f,
    figure_grid,
    sample_cv_f,
    simulate_cv_f,
    simulate_grid,
)

__all__ = [
    "FIGURE_F_TRUE",
    "FIGURE_PANEL_PRIORS",
    "FIGURE_PRIORS",
    "PAPER_AUC_AVG",
    "PAPER_AUC_MERGE",
    "PAPER_FOLD_AUC",
    "PAPER_N_CASES",
    "PAPER_N_POSITIVES",
    "CalibrationExplorer",
    "CalibrationStudy",
    "ExploreResult",
    "SimExplorer",
    "TrainingSetCalibration",
    "auc_comparison",
    "calibration_explorer",
    "digits_one_vs_rest",
    "explore_cv_f",
    "figure_grid",
    "fold_scores",
    "format_chance",
    "format_fold_counts",
    "plot_bias_vs_prior",
    "plot_cv_f_convergence",
    "plot_cv_f_histograms",
    "plot_f_of_tp",
    "plot_f_precision_recall",
    "plot_f_rates",
    "plot_figure3",
    "plot_figure4_5",
    "plot_figure6",
    "plot_figure7",
    "plot_figure8",
    "plot_figure9",
    "plot_fold_rocs",
    "plot_method_curves",
    "plot_rate_vs_score",
    "relative_bias",
    "relative_bias_line",
    "sample_cv_f",
    "scores_with_auc",
    "section32_study",
    "sim_explorer",
    "simulate_cv_f",
    "simulate_grid",
    "stratified_fold_sizes",
]
