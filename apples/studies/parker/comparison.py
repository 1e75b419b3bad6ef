"""Two classifiers compared through the cost distributions their measures imply.

Parker (2011) §III, notebook 07.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from scipy import special

from apples._params import (
    check_int_at_least,
)
from apples.theory.binormal import Binormal, check_binormal
from apples.theory.parker import binormal_h_measure, h_prior_density, implied_cost_density, integrated_measure, weight_m

if TYPE_CHECKING:  # pandas is imported where a table is built
    import pandas as pd


__all__ = [
    "IMPLIED_COSTS",
    "IncoherenceComparison",
    "incoherence_comparison",
]


# -- two classifiers on the same data: the explorer ------------------------------------

#: (label, measure, over) of the integrated measures whose implied cost densities are compared.
IMPLIED_COSTS = (("AUC", None, None), ("AUK", "kappa", "fpr"), ("AP", "precision", "recall"))


class IncoherenceComparison(NamedTuple):
    """Everything the explorer shows for two binormal classifiers on the same test data."""

    table: pd.DataFrame  #: rows AUC, AUK, AP, H; columns A, B
    c: np.ndarray  #: grid of Parker's c, evenly spaced in log10(c/(1 - c)) over [-3, 3]
    densities: dict  #: (classifier "A"/"B", measure "AUC"/"AUK"/"AP") -> implied cost density on ``c``
    h_prior: np.ndarray  #: the H-measure's prior on ``c`` (the same for A and B)


def incoherence_comparison(model_a: Binormal, model_b: Binormal, *, n_grid: int = 199) -> IncoherenceComparison:
    """Population AUC, AUK, AP and H of two binormal classifiers, and their implied cost densities.

    The two models must share ``pi_pos`` (the same test data). AUC is the
    closed form, AUK and AP are quadratures (:func:`integrated_measure`), H is
    :func:`binormal_h_measure` with the R package's default prior. The
    densities are those of the implied cost when thresholds are weighted by
    W_G (AUC, Hand's identity) or by the loss form of W_m (AUK, AP; Theorem 1).

    Examples
    --------
    >>> r = incoherence_comparison(Binormal(mu_pos=1.0, pi_pos=0.3), Binormal(mu_pos=2.0, pi_pos=0.3), n_grid=5)
    >>> r.table.round(4).loc["AUC"].tolist()
    [0.7602, 0.9214]
    """
    import pandas as pd

    a, b = check_binormal(model_a, "model_a"), check_binormal(model_b, "model_b")
    if a.pi_pos != b.pi_pos:
        raise ValueError(f"the two models must share pi_pos (the same test data), got {a.pi_pos} and {b.pi_pos}")
    n_grid = check_int_at_least("n_grid", n_grid, 3)
    # costs evenly spaced in log10(c/(1 - c)) = log10(c_0/c_1) from -3 to 3: the implied densities
    # pile up near c = 0 and c = 1, where a linear grid would not resolve them
    c = special.expit(np.log(10.0) * np.linspace(-3.0, 3.0, int(n_grid)))
    rows = {}
    dens = {}
    for name, m in (("A", a), ("B", b)):
        rows[name] = {
            "AUC": m.auc,
            "AUK": integrated_measure(m, "kappa"),
            "AP": integrated_measure(m, "precision", over="recall"),
            "H": binormal_h_measure(m),
        }
        for label, measure, over in IMPLIED_COSTS:
            w = None if measure is None else (lambda t, m=m, ms=measure, ov=over: weight_m(t, m, ms, over=ov))
            dens[(name, label)] = implied_cost_density(c, m, w)
    table = pd.DataFrame(rows)
    return IncoherenceComparison(table, c, dens, np.asarray(h_prior_density(c, a.pi_pos)))
