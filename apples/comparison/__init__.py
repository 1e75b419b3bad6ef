"""Comparing models: on the same folds (:func:`compare`), over data sets (Demšar 2006), and the Bayesian way.

- :func:`compare`: two or more models' cross-validated predictions, each measure's difference with
  the corrected repeated k-fold t (Nadeau & Bengio 2003; Bouckaert & Frank 2004) and Holm's correction;
- :func:`friedman_test`, :func:`nemenyi`, :func:`wilcoxon_holm`, :func:`plot_critical_difference`:
  k models over N data sets by their ranks (Demšar 2006; Benavoli, Corani & Mangili 2016); their
  results print in words, show as HTML and export ``to_latex()``;
- :func:`attainable_p_values`: the smallest p each of those tests can reach with N data sets, and
  what a non-significant result then means;
- :func:`results_table`, :func:`results_table_from_reports`: a paper's models × data sets table, the
  best in bold, marks against each data set's best after Holm, average ranks and the tests below,
  in text, Markdown, HTML and LaTeX, with a methods-section paragraph;
- :func:`bayesian_correlated_t` (one data set's folds) and :func:`bayesian_signed_rank` (over data
  sets): posterior probabilities of worse / equivalent / better (Corani & Benavoli 2015; Benavoli et
  al. 2017).
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from apples.comparison.bayes import (
        BayesianComparison,
        BayesianSignedRank,
        bayesian_correlated_t,
        bayesian_signed_rank,
    )
    from apples.comparison.folds import (
        COMPARE_MEASURES,
        MeasureDifference,
        ModelComparison,
        compare,
    )
    from apples.comparison.guidance import (
        Attainability,
        attainable_p_values,
    )
    from apples.comparison.plots import (
        plot_critical_difference,
    )
    from apples.comparison.ranks import (
        FriedmanResult,
        NemenyiResult,
        WilcoxonHolmResult,
        friedman_test,
        nemenyi,
        wilcoxon_holm,
    )
    from apples.comparison.results import (
        LOWER_IS_BETTER,
        ResultsTable,
        results_table,
        results_table_from_reports,
    )

__all__ = [
    "COMPARE_MEASURES",
    "LOWER_IS_BETTER",
    "Attainability",
    "BayesianComparison",
    "BayesianSignedRank",
    "FriedmanResult",
    "MeasureDifference",
    "ModelComparison",
    "NemenyiResult",
    "ResultsTable",
    "WilcoxonHolmResult",
    "attainable_p_values",
    "bayesian_correlated_t",
    "bayesian_signed_rank",
    "compare",
    "friedman_test",
    "nemenyi",
    "plot_critical_difference",
    "results_table",
    "results_table_from_reports",
    "wilcoxon_holm",
]

#: The module that defines each name: imported when the name is first used.
_SOURCES = {
    "BayesianComparison": "apples.comparison.bayes",
    "BayesianSignedRank": "apples.comparison.bayes",
    "bayesian_correlated_t": "apples.comparison.bayes",
    "bayesian_signed_rank": "apples.comparison.bayes",
    "COMPARE_MEASURES": "apples.comparison.folds",
    "MeasureDifference": "apples.comparison.folds",
    "ModelComparison": "apples.comparison.folds",
    "compare": "apples.comparison.folds",
    "Attainability": "apples.comparison.guidance",
    "attainable_p_values": "apples.comparison.guidance",
    "plot_critical_difference": "apples.comparison.plots",
    "FriedmanResult": "apples.comparison.ranks",
    "NemenyiResult": "apples.comparison.ranks",
    "WilcoxonHolmResult": "apples.comparison.ranks",
    "friedman_test": "apples.comparison.ranks",
    "nemenyi": "apples.comparison.ranks",
    "wilcoxon_holm": "apples.comparison.ranks",
    "LOWER_IS_BETTER": "apples.comparison.results",
    "ResultsTable": "apples.comparison.results",
    "results_table": "apples.comparison.results",
    "results_table_from_reports": "apples.comparison.results",
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
