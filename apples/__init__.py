"""apples: measuring classifiers under cross-validation, apples to apples.

A small library behind a notebook collection. Each function cites the paper,
section and equation it implements; see README.md for the notation map.
"""

from ._validation import UndefinedMetricError
from .counts import Counts, fold_counts
from .cross_validation import (
    CV_F_METHODS,
    cv_accuracy,
    cv_f_measure,
    cv_table,
    fold_validity,
    format_cv_table,
    percent,
)
from .f_figures import f_from_rates, f_of_tp, plot_f_of_tp, plot_f_precision_recall, plot_f_rates
from .f_measure import accuracy, f_from_precision_recall, f_measure, precision, recall
from .style import decorate, set_style

# isort: split
# Modules added by later issues; each lists its public names in __all__.
from .auc_calibration import *  # noqa: F403  (issue 3)
from .averaging import *  # noqa: F403  (issue 5: macro/micro/lfb)
from .binormal import *  # noqa: F403  (issue 6)
from .exact import *  # noqa: F403  (issue 4)
from .fold_size import *  # noqa: F403  (issue 4: Van Asch §7)
from .hmeasure import *  # noqa: F403  (issue 6)
from .incoherence import *  # noqa: F403  (issue 6)
from .multilabel import *  # noqa: F403  (issue 5: counting)
from .prediction_cost import *  # noqa: F403  (issue 5: Van Asch §6)
from .roc import *  # noqa: F403  (issue 3: AUC under CV)
from .sim_explorer import *  # noqa: F403  (issue 4)
from .simulation import *  # noqa: F403  (issue 4: bias simulation)
from .threshold_free import *  # noqa: F403  (issue 6)

__version__ = "0.1.0"

__all__ = [
    "CV_F_METHODS",
    "Counts",
    "UndefinedMetricError",
    "accuracy",
    "cv_accuracy",
    "cv_f_measure",
    "cv_table",
    "decorate",
    "f_from_precision_recall",
    "f_from_rates",
    "f_measure",
    "f_of_tp",
    "fold_counts",
    "fold_validity",
    "format_cv_table",
    "percent",
    "plot_f_of_tp",
    "plot_f_precision_recall",
    "plot_f_rates",
    "precision",
    "recall",
    "set_style",
]

from . import (
    auc_calibration,
    averaging,
    binormal,
    exact,
    fold_size,
    hmeasure,
    incoherence,
    multilabel,
    prediction_cost,
    roc,
    sim_explorer,
    simulation,
    threshold_free,
)

for _module in (
    roc,
    auc_calibration,
    simulation,
    exact,
    sim_explorer,
    fold_size,
    multilabel,
    averaging,
    prediction_cost,
    threshold_free,
    hmeasure,
    incoherence,
    binormal,
):
    __all__ += list(_module.__all__)
del _module
