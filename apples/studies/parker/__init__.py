"""Parker (2011): notebook 07 (Figure 1), notebook 08 (the two-classifier incoherence comparison, its figure and
explorer) and notebook 09 (the §IV–V classifier-comparison experiment: waveform data, error cases, Wilson intervals,
G-test, Figures 2–5)."""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from apples.studies.parker.agreement import (
        PARKER_MEASURES,
        GTest,
        agreement_levels,
        classifier_error_rates,
        count_error_cases,
        error_case_breakdown,
        error_case_shares,
        g_test,
        odd_one_out,
        wilson_interval,
    )
    from apples.studies.parker.comparison import (
        IMPLIED_COSTS,
        IncoherenceComparison,
        incoherence_comparison,
    )
    from apples.studies.parker.experiment import (
        CLASSIFIERS,
        DATASETS,
        PAPER_RESULTS,
        REPRESENTATIONS,
        ExperimentConfig,
        ExperimentResult,
        experiment_config,
        experiment_tasks,
        measure_preferences,
        run_experiment,
        seven_measures,
    )
    from apples.studies.parker.explorers import (
        IncoherenceExplorer,
        incoherence_explorer,
    )
    from apples.studies.parker.figures import (
        plot_agreement_levels,
        plot_classifier_error_rates,
        plot_error_case_breakdown,
        plot_error_case_shares,
        plot_figure1,
        plot_incoherence_comparison,
        plot_loss_surface,
    )
    from apples.studies.parker.reproduction import (
        paper_comparison,
    )
    from apples.studies.parker.waveform import (
        WAVEFORM_NOISE_FEATURES,
        make_waveform,
        waveform_bases,
    )

__all__ = [
    "CLASSIFIERS",
    "DATASETS",
    "IMPLIED_COSTS",
    "PAPER_RESULTS",
    "PARKER_MEASURES",
    "REPRESENTATIONS",
    "WAVEFORM_NOISE_FEATURES",
    "ExperimentConfig",
    "ExperimentResult",
    "GTest",
    "IncoherenceComparison",
    "IncoherenceExplorer",
    "agreement_levels",
    "classifier_error_rates",
    "count_error_cases",
    "error_case_breakdown",
    "error_case_shares",
    "experiment_config",
    "experiment_tasks",
    "g_test",
    "incoherence_comparison",
    "incoherence_explorer",
    "make_waveform",
    "measure_preferences",
    "odd_one_out",
    "paper_comparison",
    "plot_agreement_levels",
    "plot_classifier_error_rates",
    "plot_error_case_breakdown",
    "plot_error_case_shares",
    "plot_figure1",
    "plot_incoherence_comparison",
    "plot_loss_surface",
    "run_experiment",
    "seven_measures",
    "waveform_bases",
    "wilson_interval",
]

#: The module that defines each name: imported when the name is first used.
_SOURCES = {
    "GTest": "apples.studies.parker.agreement",
    "PARKER_MEASURES": "apples.studies.parker.agreement",
    "agreement_levels": "apples.studies.parker.agreement",
    "classifier_error_rates": "apples.studies.parker.agreement",
    "count_error_cases": "apples.studies.parker.agreement",
    "error_case_breakdown": "apples.studies.parker.agreement",
    "error_case_shares": "apples.studies.parker.agreement",
    "g_test": "apples.studies.parker.agreement",
    "odd_one_out": "apples.studies.parker.agreement",
    "wilson_interval": "apples.studies.parker.agreement",
    "IMPLIED_COSTS": "apples.studies.parker.comparison",
    "IncoherenceComparison": "apples.studies.parker.comparison",
    "incoherence_comparison": "apples.studies.parker.comparison",
    "CLASSIFIERS": "apples.studies.parker.experiment",
    "DATASETS": "apples.studies.parker.experiment",
    "ExperimentConfig": "apples.studies.parker.experiment",
    "ExperimentResult": "apples.studies.parker.experiment",
    "PAPER_RESULTS": "apples.studies.parker.experiment",
    "REPRESENTATIONS": "apples.studies.parker.experiment",
    "experiment_config": "apples.studies.parker.experiment",
    "experiment_tasks": "apples.studies.parker.experiment",
    "measure_preferences": "apples.studies.parker.experiment",
    "run_experiment": "apples.studies.parker.experiment",
    "seven_measures": "apples.studies.parker.experiment",
    "IncoherenceExplorer": "apples.studies.parker.explorers",
    "incoherence_explorer": "apples.studies.parker.explorers",
    "plot_agreement_levels": "apples.studies.parker.figures",
    "plot_classifier_error_rates": "apples.studies.parker.figures",
    "plot_error_case_breakdown": "apples.studies.parker.figures",
    "plot_error_case_shares": "apples.studies.parker.figures",
    "plot_figure1": "apples.studies.parker.figures",
    "plot_incoherence_comparison": "apples.studies.parker.figures",
    "plot_loss_surface": "apples.studies.parker.figures",
    "paper_comparison": "apples.studies.parker.reproduction",
    "WAVEFORM_NOISE_FEATURES": "apples.studies.parker.waveform",
    "make_waveform": "apples.studies.parker.waveform",
    "waveform_bases": "apples.studies.parker.waveform",
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
