"""Parker (2011): notebook 07 (the two-classifier incoherence comparison, its figure and explorer) and notebook 08
(the §IV–V classifier-comparison experiment: waveform data, error cases, Wilson intervals, G-test, Figures 2–5)."""

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
