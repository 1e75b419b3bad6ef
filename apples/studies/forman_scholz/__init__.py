"""Forman & Scholz (2010), notebooks 01-03.

The §3.2 calibration example, the §4.2 bias simulation, the digits data,
figures and explorers.
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING

if TYPE_CHECKING:
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
        bias_peaks,
        bias_ratios,
        format_chance,
        format_fold_counts,
        relative_bias,
        relative_bias_line,
        sd_leaders,
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
        auc_gaps_over_splits,
        breast_cancer_one_vs_rest,
        digits_one_vs_rest,
        fold_scores,
        summarize_auc_gaps,
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
    "auc_gaps_over_splits",
    "bias_peaks",
    "bias_ratios",
    "breast_cancer_one_vs_rest",
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
    "sd_leaders",
    "section32_study",
    "sim_explorer",
    "simulate_cv_f",
    "simulate_grid",
    "stratified_fold_sizes",
    "summarize_auc_gaps",
]

#: The module that defines each name: imported when the name is first used.
_SOURCES = {
    "plot_bias_vs_prior": "apples.studies.forman_scholz.bias_figures",
    "plot_cv_f_convergence": "apples.studies.forman_scholz.bias_figures",
    "plot_cv_f_histograms": "apples.studies.forman_scholz.bias_figures",
    "plot_figure4_5": "apples.studies.forman_scholz.bias_figures",
    "plot_figure6": "apples.studies.forman_scholz.bias_figures",
    "plot_figure7": "apples.studies.forman_scholz.bias_figures",
    "plot_figure8": "apples.studies.forman_scholz.bias_figures",
    "plot_figure9": "apples.studies.forman_scholz.bias_figures",
    "plot_method_curves": "apples.studies.forman_scholz.bias_figures",
    "bias_peaks": "apples.studies.forman_scholz.bias_tables",
    "bias_ratios": "apples.studies.forman_scholz.bias_tables",
    "format_chance": "apples.studies.forman_scholz.bias_tables",
    "format_fold_counts": "apples.studies.forman_scholz.bias_tables",
    "relative_bias": "apples.studies.forman_scholz.bias_tables",
    "relative_bias_line": "apples.studies.forman_scholz.bias_tables",
    "sd_leaders": "apples.studies.forman_scholz.bias_tables",
    "CalibrationStudy": "apples.studies.forman_scholz.calibration",
    "PAPER_AUC_AVG": "apples.studies.forman_scholz.calibration",
    "PAPER_AUC_MERGE": "apples.studies.forman_scholz.calibration",
    "PAPER_FOLD_AUC": "apples.studies.forman_scholz.calibration",
    "PAPER_N_CASES": "apples.studies.forman_scholz.calibration",
    "PAPER_N_POSITIVES": "apples.studies.forman_scholz.calibration",
    "scores_with_auc": "apples.studies.forman_scholz.calibration",
    "section32_study": "apples.studies.forman_scholz.calibration",
    "stratified_fold_sizes": "apples.studies.forman_scholz.calibration",
    "TrainingSetCalibration": "apples.studies.forman_scholz.datasets",
    "auc_comparison": "apples.studies.forman_scholz.datasets",
    "auc_gaps_over_splits": "apples.studies.forman_scholz.datasets",
    "breast_cancer_one_vs_rest": "apples.studies.forman_scholz.datasets",
    "digits_one_vs_rest": "apples.studies.forman_scholz.datasets",
    "fold_scores": "apples.studies.forman_scholz.datasets",
    "summarize_auc_gaps": "apples.studies.forman_scholz.datasets",
    "CalibrationExplorer": "apples.studies.forman_scholz.explorers",
    "SimExplorer": "apples.studies.forman_scholz.explorers",
    "calibration_explorer": "apples.studies.forman_scholz.explorers",
    "sim_explorer": "apples.studies.forman_scholz.explorers",
    "plot_f_of_tp": "apples.studies.forman_scholz.figures",
    "plot_f_precision_recall": "apples.studies.forman_scholz.figures",
    "plot_f_rates": "apples.studies.forman_scholz.figures",
    "plot_figure3": "apples.studies.forman_scholz.figures",
    "plot_fold_rocs": "apples.studies.forman_scholz.figures",
    "plot_rate_vs_score": "apples.studies.forman_scholz.figures",
    "ExploreResult": "apples.studies.forman_scholz.simulation",
    "FIGURE_F_TRUE": "apples.studies.forman_scholz.simulation",
    "FIGURE_PANEL_PRIORS": "apples.studies.forman_scholz.simulation",
    "FIGURE_PRIORS": "apples.studies.forman_scholz.simulation",
    "explore_cv_f": "apples.studies.forman_scholz.simulation",
    "figure_grid": "apples.studies.forman_scholz.simulation",
    "sample_cv_f": "apples.studies.forman_scholz.simulation",
    "simulate_cv_f": "apples.studies.forman_scholz.simulation",
    "simulate_grid": "apples.studies.forman_scholz.simulation",
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
