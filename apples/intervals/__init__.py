"""How sure is a cross-validated score: confidence intervals and paired comparisons, and their coverage.

Intervals for a pooled proportion (precision, recall, accuracy), for ROC AUC
(DeLong, stratified bootstrap) and for a cross-validated F (a bootstrap that
resamples cases within each fold); the naive and Nadeau & Bengio's corrected
t over fold scores; paired comparisons (DeLong, corrected t, McNemar mid-p);
and a coverage study on models whose true value is known.
"""

from apples.intervals.coverage import (
    COVERAGE_INTERVALS,
    COVERAGE_MODELS,
    coverage_settings,
    coverage_study,
    plot_coverage,
)
from apples.intervals.cv_f import (
    cv_f_measure_ci,
)
from apples.intervals.cv_scores import (
    CV_SCORE_CI_METHODS,
    FOLD_SCORES,
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
from apples.intervals.results import (
    ConfidenceInterval,
    PairedComparison,
)

__all__ = [
    "COVERAGE_INTERVALS",
    "COVERAGE_MODELS",
    "CV_SCORE_CI_METHODS",
    "FOLD_SCORES",
    "PROPORTION_METHODS",
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
    "proportion_ci",
    "roc_auc_ci",
]
