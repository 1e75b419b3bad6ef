"""Closed forms on models.

The binormal model, Parker's costs and thresholds, Van Asch's §6 and §7 formulas,
the Forman & Scholz bias model and its exact expectations, and F surfaces.
"""

from apples.theory.binormal import (
    BINORMAL,
    Binormal,
)
from apples.theory.cv_f_expectations import (
    EXACT_METHODS,
    exact_cv_f,
    exact_grid,
    p_fold_without_positives,
)
from apples.theory.f_surfaces import (
    f_from_rates,
    f_of_tp,
)
from apples.theory.fold_model import (
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
    "BINORMAL",
    "EXACT_METHODS",
    "FOLD_F1_AVERAGES",
    "FOLD_F1_METHODS",
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
    "fold_positives",
    "fold_sizes",
    "h_prior_density",
    "implied_cost",
    "implied_cost_density",
    "implied_cost_quantiles",
    "integrated_measure",
    "label_weights",
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
    "simulation_design",
    "theoretical_f1",
    "threshold_measure",
    "uniform_threshold_loss",
    "weight_g",
    "weight_i",
    "weight_m",
]
