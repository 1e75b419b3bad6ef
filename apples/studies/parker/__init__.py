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
    plot_incoherence_comparison,
)

__all__ = [
    "IMPLIED_COSTS",
    "IncoherenceComparison",
    "IncoherenceExplorer",
    "incoherence_comparison",
    "incoherence_explorer",
    "plot_incoherence_comparison",
]
