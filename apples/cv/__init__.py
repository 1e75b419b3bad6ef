"""Aggregation over cross-validation folds.

F and accuracy from fold counts (Forman & Scholz 2010 §2), ranking measures from
fold scores (§3).
"""

from apples.cv.aggregations import (
    AGGREGATION_NAMES,
    CV_F_METHODS,
    F_AGGREGATIONS,
    QUANTITY_NAMES,
    REPORT_SECTIONS,
    FAggregation,
)
from apples.cv.confusion import (
    cv_accuracy,
    cv_f_measure,
    cv_table,
    fold_validity,
    format_cv_table,
    percent,
    round_half_up,
)
from apples.cv.predictions import (
    CV_PREDICTIONS,
    CVPredictions,
)
from apples.cv.ranking import (
    CV_ROC_AUC_METHODS,
    RANKING_METRICS,
    MergeDecomposition,
    auc_table,
    cv_ranking_score,
    cv_roc_auc,
    merge_decomposition,
)
from apples.cv.scoring_rules import (
    CVScoringRule,
    ReliabilityTable,
    ScoringRulesTable,
    cv_brier_score,
    cv_log_loss,
    reliability_table,
    scoring_rules_table,
)
from apples.cv.sklearn_adapter import (
    COUNT_KEYS,
    counts_scorer,
    cross_val_predictions,
    fold_counts_from_cross_validate,
)
from apples.cv.tables import (
    fold_summary,
    fold_table,
    label_table,
)

__all__ = [
    "AGGREGATION_NAMES",
    "COUNT_KEYS",
    "CV_F_METHODS",
    "CV_PREDICTIONS",
    "CV_ROC_AUC_METHODS",
    "F_AGGREGATIONS",
    "QUANTITY_NAMES",
    "RANKING_METRICS",
    "REPORT_SECTIONS",
    "CVPredictions",
    "CVScoringRule",
    "FAggregation",
    "MergeDecomposition",
    "ReliabilityTable",
    "ScoringRulesTable",
    "auc_table",
    "counts_scorer",
    "cross_val_predictions",
    "cv_accuracy",
    "cv_brier_score",
    "cv_f_measure",
    "cv_log_loss",
    "cv_ranking_score",
    "cv_roc_auc",
    "cv_table",
    "fold_counts_from_cross_validate",
    "fold_summary",
    "fold_table",
    "fold_validity",
    "format_cv_table",
    "label_table",
    "merge_decomposition",
    "percent",
    "reliability_table",
    "round_half_up",
    "scoring_rules_table",
]
