"""Metrics on one set of predictions or scores.

Counts, F and its parts, measures of the whole confusion matrix (MCC, balanced accuracy,
Cohen's kappa), ranking measures, threshold-free measures, the H-measure, proper scoring
rules, empirical losses, multi-label counting and averaging.
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from apples.metrics.agreement import (
        balanced_accuracy,
        cohen_kappa,
        matthews_corrcoef,
    )
    from apples.metrics.averaging import (
        AVERAGE_POLICIES,
        AVERAGES,
        AveragedScores,
        FrequenciesCover,
        average_scores,
        averaging_table,
        frequencies_from_counts,
    )
    from apples.metrics.counts import (
        Counts,
        fold_counts,
    )
    from apples.metrics.hmeasure import (
        H_MEASURE_PRIORS,
        HMeasureResult,
        ROCHull,
        h_measure,
        h_measure_details,
        h_measure_prior,
        minimum_loss,
        roc_convex_hull,
    )
    from apples.metrics.losses import (
        EmpiricalCosts,
        HandLoss,
        empirical_cost_intervals,
        empirical_hand_loss,
        empirical_loss,
        empirical_optimal_threshold,
        empirical_uniform_threshold_loss,
        uniform_threshold_loss_draws,
    )
    from apples.metrics.multilabel import (
        NONE_LABEL,
        UNMATCHED,
        SplitConfusionMatrix,
        label_counts,
        label_frequencies,
        labels_from_confusion_matrix,
        split_confusion_matrix,
    )
    from apples.metrics.precision_recall import (
        accuracy,
        f_beta_weights,
        f_from_precision_recall,
        f_measure,
        precision,
        recall,
    )
    from apples.metrics.ranking import (
        PRECISION_AT_K_TIES,
        ROCCurve,
        average_precision,
        precision_at_k,
        roc_auc,
        roc_curve,
    )
    from apples.metrics.scoring_rules import (
        brier_score,
        log_loss,
    )
    from apples.metrics.threshold_free import (
        KappaCurve,
        ThresholdResult,
        auk,
        gini,
        kappa_curve,
        ks_statistic,
        max_f1,
        max_mcc,
        min_error_rate,
        r_precision,
    )

__all__ = [
    "AVERAGES",
    "AVERAGE_POLICIES",
    "H_MEASURE_PRIORS",
    "NONE_LABEL",
    "PRECISION_AT_K_TIES",
    "UNMATCHED",
    "AveragedScores",
    "Counts",
    "EmpiricalCosts",
    "FrequenciesCover",
    "HMeasureResult",
    "HandLoss",
    "KappaCurve",
    "ROCCurve",
    "ROCHull",
    "SplitConfusionMatrix",
    "ThresholdResult",
    "accuracy",
    "auk",
    "average_precision",
    "average_scores",
    "averaging_table",
    "balanced_accuracy",
    "brier_score",
    "cohen_kappa",
    "empirical_cost_intervals",
    "empirical_hand_loss",
    "empirical_loss",
    "empirical_optimal_threshold",
    "empirical_uniform_threshold_loss",
    "f_beta_weights",
    "f_from_precision_recall",
    "f_measure",
    "fold_counts",
    "frequencies_from_counts",
    "gini",
    "h_measure",
    "h_measure_details",
    "h_measure_prior",
    "kappa_curve",
    "ks_statistic",
    "label_counts",
    "label_frequencies",
    "labels_from_confusion_matrix",
    "log_loss",
    "matthews_corrcoef",
    "max_f1",
    "max_mcc",
    "min_error_rate",
    "minimum_loss",
    "precision",
    "precision_at_k",
    "r_precision",
    "recall",
    "roc_auc",
    "roc_convex_hull",
    "roc_curve",
    "split_confusion_matrix",
    "uniform_threshold_loss_draws",
]

#: The module that defines each name: imported when the name is first used.
_SOURCES = {
    "balanced_accuracy": "apples.metrics.agreement",
    "cohen_kappa": "apples.metrics.agreement",
    "matthews_corrcoef": "apples.metrics.agreement",
    "AVERAGES": "apples.metrics.averaging",
    "AVERAGE_POLICIES": "apples.metrics.averaging",
    "AveragedScores": "apples.metrics.averaging",
    "FrequenciesCover": "apples.metrics.averaging",
    "average_scores": "apples.metrics.averaging",
    "averaging_table": "apples.metrics.averaging",
    "frequencies_from_counts": "apples.metrics.averaging",
    "Counts": "apples.metrics.counts",
    "fold_counts": "apples.metrics.counts",
    "HMeasureResult": "apples.metrics.hmeasure",
    "H_MEASURE_PRIORS": "apples.metrics.hmeasure",
    "ROCHull": "apples.metrics.hmeasure",
    "h_measure": "apples.metrics.hmeasure",
    "h_measure_details": "apples.metrics.hmeasure",
    "h_measure_prior": "apples.metrics.hmeasure",
    "minimum_loss": "apples.metrics.hmeasure",
    "roc_convex_hull": "apples.metrics.hmeasure",
    "EmpiricalCosts": "apples.metrics.losses",
    "HandLoss": "apples.metrics.losses",
    "empirical_cost_intervals": "apples.metrics.losses",
    "empirical_hand_loss": "apples.metrics.losses",
    "empirical_loss": "apples.metrics.losses",
    "empirical_optimal_threshold": "apples.metrics.losses",
    "empirical_uniform_threshold_loss": "apples.metrics.losses",
    "uniform_threshold_loss_draws": "apples.metrics.losses",
    "NONE_LABEL": "apples.metrics.multilabel",
    "SplitConfusionMatrix": "apples.metrics.multilabel",
    "UNMATCHED": "apples.metrics.multilabel",
    "label_counts": "apples.metrics.multilabel",
    "label_frequencies": "apples.metrics.multilabel",
    "labels_from_confusion_matrix": "apples.metrics.multilabel",
    "split_confusion_matrix": "apples.metrics.multilabel",
    "accuracy": "apples.metrics.precision_recall",
    "f_beta_weights": "apples.metrics.precision_recall",
    "f_from_precision_recall": "apples.metrics.precision_recall",
    "f_measure": "apples.metrics.precision_recall",
    "precision": "apples.metrics.precision_recall",
    "recall": "apples.metrics.precision_recall",
    "PRECISION_AT_K_TIES": "apples.metrics.ranking",
    "ROCCurve": "apples.metrics.ranking",
    "average_precision": "apples.metrics.ranking",
    "precision_at_k": "apples.metrics.ranking",
    "roc_auc": "apples.metrics.ranking",
    "roc_curve": "apples.metrics.ranking",
    "brier_score": "apples.metrics.scoring_rules",
    "log_loss": "apples.metrics.scoring_rules",
    "KappaCurve": "apples.metrics.threshold_free",
    "ThresholdResult": "apples.metrics.threshold_free",
    "auk": "apples.metrics.threshold_free",
    "gini": "apples.metrics.threshold_free",
    "kappa_curve": "apples.metrics.threshold_free",
    "ks_statistic": "apples.metrics.threshold_free",
    "max_f1": "apples.metrics.threshold_free",
    "max_mcc": "apples.metrics.threshold_free",
    "min_error_rate": "apples.metrics.threshold_free",
    "r_precision": "apples.metrics.threshold_free",
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
