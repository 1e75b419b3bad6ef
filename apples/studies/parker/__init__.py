"""Parker (2011), notebook 07: the two-classifier incoherence comparison, its figure and explorer."""

from apples.studies.parker.comparison import (
    IMPLIED_COSTS,
    IncoherenceComparison,
    incoherence_comparison,
)
from apples.studies.parker.explorers import (
    IncoherenceExplorer,
    incoherence_explorer,
)
from apples.studies.parker.figures import (
    plot_figure1,
    plot_incoherence_comparison,
    plot_loss_surface,
)

__all__ = [
    "IMPLIED_COSTS",
    "IncoherenceComparison",
    "IncoherenceExplorer",
    "incoherence_comparison",
    "incoherence_explorer",
    "plot_figure1",
    "plot_incoherence_comparison",
    "plot_loss_surface",
]
