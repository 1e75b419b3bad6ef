"""How sure is a cross-validated score: confidence intervals and paired comparisons, and their coverage.

Intervals for a pooled proportion (precision, recall, accuracy), for ROC AUC
(DeLong, stratified bootstrap) and for a cross-validated F (a bootstrap that
resamples cases within each fold); the naive and Nadeau & Bengio's corrected
t over fold scores; paired comparisons (DeLong, corrected t, McNemar mid-p);
and a coverage study on models whose true value is known.
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from apples.intervals.coverage import (
        COVERAGE_INTERVALS,
        COVERAGE_MODELS,
        coverage_settings,
        coverage_study,
        plot_coverage,
    )
    from apples.intervals.coverage_tables import (
        plot_report_coverage,
        stored_report_coverage,
    )
    from apples.intervals.cv_f import (
        cv_f_measure_ci,
    )
    from apples.intervals.cv_scores import (
        CV_SCORE_CI_METHODS,
        compare_cv_scores,
        cv_score_ci,
        mcnemar_test,
    )
    from apples.intervals.proportion import (
        PROPORTION_METHODS,
        proportion_ci,
    )
    from apples.intervals.ranking import (
        ROC_AUC_CI_METHODS,
        compare_roc_auc,
        roc_auc_ci,
    )
    from apples.intervals.report_coverage import (
        REPORT_COVERAGE_SETTINGS,
        report_coverage_settings,
        report_coverage_study,
    )
    from apples.intervals.results import (
        ConfidenceInterval,
        PairedComparison,
    )

__all__ = [
    "COVERAGE_INTERVALS",
    "COVERAGE_MODELS",
    "CV_SCORE_CI_METHODS",
    "PROPORTION_METHODS",
    "REPORT_COVERAGE_SETTINGS",
    "ROC_AUC_CI_METHODS",
    "ConfidenceInterval",
    "PairedComparison",
    "compare_cv_scores",
    "compare_roc_auc",
    "coverage_settings",
    "coverage_study",
    "cv_f_measure_ci",
    "cv_score_ci",
    "mcnemar_test",
    "plot_coverage",
    "plot_report_coverage",
    "proportion_ci",
    "report_coverage_settings",
    "report_coverage_study",
    "roc_auc_ci",
    "stored_report_coverage",
]

#: The module that defines each name: imported when the name is first used.
_SOURCES = {
    "COVERAGE_INTERVALS": "apples.intervals.coverage",
    "COVERAGE_MODELS": "apples.intervals.coverage",
    "coverage_settings": "apples.intervals.coverage",
    "coverage_study": "apples.intervals.coverage",
    "plot_coverage": "apples.intervals.coverage",
    "plot_report_coverage": "apples.intervals.coverage_tables",
    "stored_report_coverage": "apples.intervals.coverage_tables",
    "cv_f_measure_ci": "apples.intervals.cv_f",
    "CV_SCORE_CI_METHODS": "apples.intervals.cv_scores",
    "compare_cv_scores": "apples.intervals.cv_scores",
    "cv_score_ci": "apples.intervals.cv_scores",
    "mcnemar_test": "apples.intervals.cv_scores",
    "PROPORTION_METHODS": "apples.intervals.proportion",
    "proportion_ci": "apples.intervals.proportion",
    "ROC_AUC_CI_METHODS": "apples.intervals.ranking",
    "compare_roc_auc": "apples.intervals.ranking",
    "roc_auc_ci": "apples.intervals.ranking",
    "REPORT_COVERAGE_SETTINGS": "apples.intervals.report_coverage",
    "report_coverage_settings": "apples.intervals.report_coverage",
    "report_coverage_study": "apples.intervals.report_coverage",
    "ConfidenceInterval": "apples.intervals.results",
    "PairedComparison": "apples.intervals.results",
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
