"""apples: measuring classifiers under cross-validation, apples to apples.

``import apples`` gives what a researcher uses on their own predictions: the
metrics, their aggregation over cross-validation folds, and the plotting style.
Everything else is one import away:

- :mod:`apples.metrics`: every metric, with its result types and constants (``apples.metrics.gini``, ...);
- :mod:`apples.measures`: the measures a report computes, one record each, and your own
  (:func:`~apples.measures.from_counts`, :func:`~apples.measures.from_predictions`);
- :mod:`apples.cv`: aggregation over folds;
- :mod:`apples.theory`: closed forms on models (binormal, Parker, Van Asch, Forman & Scholz);
- :mod:`apples.intervals`: confidence intervals, paired comparisons and their coverage;
- :mod:`apples.comparison`: models compared on the same folds (:func:`compare`) and over data sets;
- :mod:`apples.studies`: one package per paper's reproduction, e.g.
  ``from apples.studies import forman_scholz as fs``;
- :mod:`apples.reporting`: :func:`report` and :class:`CVReport`, every aggregation side by side;
- :mod:`apples.plotting`: the style the notebooks use.

Each function cites the paper, section and equation it implements; README.md
maps the papers' symbols to these names.

``import apples`` itself imports nothing heavy: a name below is imported from its
subpackage on first use (PEP 562), so scipy.stats and pandas load only for the
functions that need them. Adding a name is one line in ``__all__`` (and its import
under ``TYPE_CHECKING`` for type checkers; ``tests/test_layout.py`` keeps both in step).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what type checkers and readers see; at run time each name is imported on first use
    from apples import comparison, cv, intervals, measures, metrics, plotting, reporting, theory
    from apples._params import UndefinedMetricError
    from apples.comparison import compare
    from apples.cv import (
        CV_F_METHODS,
        F_AGGREGATIONS,
        CVPredictions,
        auc_table,
        counts_scorer,
        cross_val_predictions,
        cv_accuracy,
        cv_f_measure,
        cv_ranking_score,
        cv_roc_auc,
        cv_table,
        fold_counts_from_cross_validate,
        fold_validity,
        format_cv_table,
        merge_decomposition,
    )
    from apples.intervals import (
        ConfidenceInterval,
        compare_cv_scores,
        compare_roc_auc,
        cv_f_measure_ci,
        cv_score_ci,
        proportion_ci,
        roc_auc_ci,
    )
    from apples.metrics import (
        Counts,
        accuracy,
        auk,
        average_precision,
        average_scores,
        averaging_table,
        brier_score,
        f_from_precision_recall,
        f_measure,
        fold_counts,
        h_measure,
        ks_statistic,
        label_counts,
        labels_from_confusion_matrix,
        log_loss,
        max_f1,
        max_mcc,
        min_error_rate,
        precision,
        precision_at_k,
        r_precision,
        recall,
        roc_auc,
        roc_curve,
        split_confusion_matrix,
    )
    from apples.plotting import set_style
    from apples.reporting import CVReport, report

__version__ = "0.1.0"

__all__ = [
    "CV_F_METHODS",
    "F_AGGREGATIONS",
    "CVPredictions",
    "CVReport",
    "ConfidenceInterval",
    "Counts",
    "UndefinedMetricError",
    "accuracy",
    "auc_table",
    "auk",
    "average_precision",
    "average_scores",
    "averaging_table",
    "brier_score",
    "compare",
    "compare_cv_scores",
    "compare_roc_auc",
    "comparison",
    "counts_scorer",
    "cross_val_predictions",
    "cv",
    "cv_accuracy",
    "cv_f_measure",
    "cv_f_measure_ci",
    "cv_ranking_score",
    "cv_roc_auc",
    "cv_score_ci",
    "cv_table",
    "f_from_precision_recall",
    "f_measure",
    "fold_counts",
    "fold_counts_from_cross_validate",
    "fold_validity",
    "format_cv_table",
    "h_measure",
    "intervals",
    "ks_statistic",
    "label_counts",
    "labels_from_confusion_matrix",
    "log_loss",
    "max_f1",
    "max_mcc",
    "measures",
    "merge_decomposition",
    "metrics",
    "min_error_rate",
    "plotting",
    "precision",
    "precision_at_k",
    "proportion_ci",
    "r_precision",
    "recall",
    "report",
    "reporting",
    "roc_auc",
    "roc_auc_ci",
    "roc_curve",
    "set_style",
    "split_confusion_matrix",
    "theory",
]

#: Where the names of ``__all__`` are looked up, in this order: the subpackages that export them.
_PACKAGES = (
    "apples.metrics",
    "apples.cv",
    "apples.intervals",
    "apples.comparison",
    "apples._params",
    "apples.plotting",
    "apples.reporting",
)


def __getattr__(name: str) -> object:
    """A name of ``__all__``, imported on first use from the subpackage that exports it (PEP 562)."""
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:  # a subpackage (apples.cv, ...) or a name one of them exports
        value = importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as err:
        if err.name != f"{__name__}.{name}":
            raise  # a dependency of the subpackage is missing
        package = next(p for p in map(importlib.import_module, _PACKAGES) if name in p.__all__)
        value = getattr(package, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*__all__, *(n for n in globals() if n.startswith("_"))})
