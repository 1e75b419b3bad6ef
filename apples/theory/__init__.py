"""Closed forms on models.

The binormal model, Parker's costs and thresholds, Van Asch's §6 and §7 formulas,
the Forman & Scholz bias model and its exact expectations, and F surfaces.
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from apples.theory.binormal import (
        Binormal,
    )
    from apples.theory.cv_f_expectations import (
        EXACT_METHODS,
        exact_cv_f,
        exact_grid,
        p_fold_without_positives,
    )
    from apples.theory.cv_learner import (
        LEARNER_TASKS,
        simulate_learner_cv,
    )
    from apples.theory.cv_truths import (
        learner_truths,
    )
    from apples.theory.f_surfaces import (
        f_from_rates,
        f_of_tp,
    )
    from apples.theory.fold_model import (
        DESIGN,
        EQUAL_FOLDS,
        SimulationDesign,
        fold_positives,
        simulation_design,
    )
    from apples.theory.fold_size import (
        FOLD_F1_AVERAGES,
        FOLD_F1_METHODS,
        VAN_ASCH_RECALL_A,
        VAN_ASCH_RECALL_B,
        corpus_counts,
        delta_factors,
        delta_table,
        fold_f1,
        fold_sizes,
        theoretical_f1,
    )
    from apples.theory.learner_models import (
        fold_model_values,
    )
    from apples.theory.parker import (
        THRESHOLD_MEASURES,
        binormal_h_measure,
        expected_loss,
        h_prior_density,
        implied_cost,
        implied_cost_density,
        implied_cost_quantiles,
        integrated_measure,
        loss_at_implied_cost,
        misclassification_loss,
        optimal_threshold,
        threshold_measure,
        uniform_threshold_loss,
        weight_g,
        weight_i,
        weight_m,
    )
    from apples.theory.prediction_cost import (
        label_weights,
        move_false_positives,
        precision_change,
        precision_factor,
        recall_change,
        recall_factor,
        score_change,
        shift_true_positives,
    )

__all__ = [
    "DESIGN",
    "EQUAL_FOLDS",
    "EXACT_METHODS",
    "FOLD_F1_AVERAGES",
    "FOLD_F1_METHODS",
    "LEARNER_TASKS",
    "THRESHOLD_MEASURES",
    "VAN_ASCH_RECALL_A",
    "VAN_ASCH_RECALL_B",
    "Binormal",
    "SimulationDesign",
    "binormal_h_measure",
    "corpus_counts",
    "delta_factors",
    "delta_table",
    "exact_cv_f",
    "exact_grid",
    "expected_loss",
    "f_from_rates",
    "f_of_tp",
    "fold_f1",
    "fold_model_values",
    "fold_positives",
    "fold_sizes",
    "h_prior_density",
    "implied_cost",
    "implied_cost_density",
    "implied_cost_quantiles",
    "integrated_measure",
    "label_weights",
    "learner_truths",
    "loss_at_implied_cost",
    "misclassification_loss",
    "move_false_positives",
    "optimal_threshold",
    "p_fold_without_positives",
    "precision_change",
    "precision_factor",
    "recall_change",
    "recall_factor",
    "score_change",
    "shift_true_positives",
    "simulate_learner_cv",
    "simulation_design",
    "theoretical_f1",
    "threshold_measure",
    "uniform_threshold_loss",
    "weight_g",
    "weight_i",
    "weight_m",
]

#: The module that defines each name: imported when the name is first used.
_SOURCES = {
    "Binormal": "apples.theory.binormal",
    "EXACT_METHODS": "apples.theory.cv_f_expectations",
    "exact_cv_f": "apples.theory.cv_f_expectations",
    "exact_grid": "apples.theory.cv_f_expectations",
    "p_fold_without_positives": "apples.theory.cv_f_expectations",
    "LEARNER_TASKS": "apples.theory.cv_learner",
    "simulate_learner_cv": "apples.theory.cv_learner",
    "learner_truths": "apples.theory.cv_truths",
    "f_from_rates": "apples.theory.f_surfaces",
    "f_of_tp": "apples.theory.f_surfaces",
    "DESIGN": "apples.theory.fold_model",
    "EQUAL_FOLDS": "apples.theory.fold_model",
    "SimulationDesign": "apples.theory.fold_model",
    "fold_positives": "apples.theory.fold_model",
    "simulation_design": "apples.theory.fold_model",
    "FOLD_F1_AVERAGES": "apples.theory.fold_size",
    "FOLD_F1_METHODS": "apples.theory.fold_size",
    "VAN_ASCH_RECALL_A": "apples.theory.fold_size",
    "VAN_ASCH_RECALL_B": "apples.theory.fold_size",
    "corpus_counts": "apples.theory.fold_size",
    "delta_factors": "apples.theory.fold_size",
    "delta_table": "apples.theory.fold_size",
    "fold_f1": "apples.theory.fold_size",
    "fold_sizes": "apples.theory.fold_size",
    "theoretical_f1": "apples.theory.fold_size",
    "fold_model_values": "apples.theory.learner_models",
    "THRESHOLD_MEASURES": "apples.theory.parker",
    "binormal_h_measure": "apples.theory.parker",
    "expected_loss": "apples.theory.parker",
    "h_prior_density": "apples.theory.parker",
    "implied_cost": "apples.theory.parker",
    "implied_cost_density": "apples.theory.parker",
    "implied_cost_quantiles": "apples.theory.parker",
    "integrated_measure": "apples.theory.parker",
    "loss_at_implied_cost": "apples.theory.parker",
    "misclassification_loss": "apples.theory.parker",
    "optimal_threshold": "apples.theory.parker",
    "threshold_measure": "apples.theory.parker",
    "uniform_threshold_loss": "apples.theory.parker",
    "weight_g": "apples.theory.parker",
    "weight_i": "apples.theory.parker",
    "weight_m": "apples.theory.parker",
    "label_weights": "apples.theory.prediction_cost",
    "move_false_positives": "apples.theory.prediction_cost",
    "precision_change": "apples.theory.prediction_cost",
    "precision_factor": "apples.theory.prediction_cost",
    "recall_change": "apples.theory.prediction_cost",
    "recall_factor": "apples.theory.prediction_cost",
    "score_change": "apples.theory.prediction_cost",
    "shift_true_positives": "apples.theory.prediction_cost",
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
