"""Aggregation over cross-validation folds.

F and accuracy from fold counts (Forman & Scholz 2010 §2), ranking measures from
fold scores (§3).
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from apples.cv.aggregations import (
        CV_F_METHODS,
        F_AGGREGATIONS,
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
        cross_val_predictions,
    )
    from apples.cv.sklearn_counts import (
        COUNT_KEYS,
        counts_scorer,
        fold_counts_from_cross_validate,
    )
    from apples.cv.summary import (
        CVSummary,
    )
    from apples.cv.tables import (
        fold_summary,
        fold_table,
        label_table,
    )

__all__ = [
    "COUNT_KEYS",
    "CV_F_METHODS",
    "CV_ROC_AUC_METHODS",
    "F_AGGREGATIONS",
    "RANKING_METRICS",
    "CVPredictions",
    "CVScoringRule",
    "CVSummary",
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

#: The module that defines each name: imported when the name is first used.
_SOURCES = {
    "CV_F_METHODS": "apples.cv.aggregations",
    "FAggregation": "apples.cv.aggregations",
    "F_AGGREGATIONS": "apples.cv.aggregations",
    "cv_accuracy": "apples.cv.confusion",
    "cv_f_measure": "apples.cv.confusion",
    "cv_table": "apples.cv.confusion",
    "fold_validity": "apples.cv.confusion",
    "format_cv_table": "apples.cv.confusion",
    "percent": "apples.cv.confusion",
    "round_half_up": "apples.cv.confusion",
    "CVPredictions": "apples.cv.predictions",
    "CV_ROC_AUC_METHODS": "apples.cv.ranking",
    "MergeDecomposition": "apples.cv.ranking",
    "RANKING_METRICS": "apples.cv.ranking",
    "auc_table": "apples.cv.ranking",
    "cv_ranking_score": "apples.cv.ranking",
    "cv_roc_auc": "apples.cv.ranking",
    "merge_decomposition": "apples.cv.ranking",
    "CVScoringRule": "apples.cv.scoring_rules",
    "ReliabilityTable": "apples.cv.scoring_rules",
    "ScoringRulesTable": "apples.cv.scoring_rules",
    "cv_brier_score": "apples.cv.scoring_rules",
    "cv_log_loss": "apples.cv.scoring_rules",
    "reliability_table": "apples.cv.scoring_rules",
    "scoring_rules_table": "apples.cv.scoring_rules",
    "cross_val_predictions": "apples.cv.sklearn_adapter",
    "COUNT_KEYS": "apples.cv.sklearn_counts",
    "counts_scorer": "apples.cv.sklearn_counts",
    "fold_counts_from_cross_validate": "apples.cv.sklearn_counts",
    "CVSummary": "apples.cv.summary",
    "fold_summary": "apples.cv.tables",
    "fold_table": "apples.cv.tables",
    "label_table": "apples.cv.tables",
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
