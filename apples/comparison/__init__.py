"""Comparing models: on the same folds (:func:`compare`), over data sets (Demšar 2006), and the Bayesian way.

- :func:`compare`: two or more models' cross-validated predictions, each measure's difference with
  the corrected repeated k-fold t (Nadeau & Bengio 2003; Bouckaert & Frank 2004) and Holm's correction;
- :func:`friedman_test`, :func:`nemenyi`, :func:`wilcoxon_holm`, :func:`plot_critical_difference`:
  k models over N data sets by their ranks (Demšar 2006; Benavoli, Corani & Mangili 2016);
- :func:`bayesian_correlated_t`: posterior probabilities of worse / equivalent / better (Corani &
  Benavoli 2015; Benavoli et al. 2017).
"""

from apples.comparison.bayes import (
    BayesianComparison,
    bayesian_correlated_t,
)
from apples.comparison.folds import (
    COMPARE_MEASURES,
    MeasureDifference,
    ModelComparison,
    compare,
)
from apples.comparison.plots import (
    plot_critical_difference,
)
from apples.comparison.ranks import (
    SCORE_TABLE,
    FriedmanResult,
    NemenyiResult,
    WilcoxonHolmResult,
    friedman_test,
    nemenyi,
    wilcoxon_holm,
)

__all__ = [
    "COMPARE_MEASURES",
    "SCORE_TABLE",
    "BayesianComparison",
    "FriedmanResult",
    "MeasureDifference",
    "ModelComparison",
    "NemenyiResult",
    "WilcoxonHolmResult",
    "bayesian_correlated_t",
    "compare",
    "friedman_test",
    "nemenyi",
    "plot_critical_difference",
    "wilcoxon_holm",
]
