"""Two classifiers compared through the cost distributions their measures imply.

Parker (2011) §III, notebook 08 (§5).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from scipy import special

from apples._kernels import parker as _k
from apples._kernels.hmeasure import beta_prior
from apples._params import Kind, ParameterValueError, Relation, check_int, check_table_size, declare
from apples.theory.binormal import BINORMAL, Binormal

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
    c: np.ndarray  #: grid of Parker's c, evenly spaced in log10(c/(1 - c)) over [-4, 4]
    densities: dict[tuple[str, str], np.ndarray]  #: (classifier "A"/"B", measure "AUC"/"AUK"/"AP") -> density on ``c``
    h_prior: np.ndarray  #: the H-measure's prior on ``c`` (the same for A and B)


#: Peak bytes per point of the cost grid: the grid, six densities and the prior, and the temporaries of one
#: density (two roots, their slopes and weights), with room to spare.
_BYTES_PER_GRID_POINT = 256


class _GridSize(Kind):
    """The number of costs on the grid of the implied densities: an integer >= 3 whose arrays fit in memory."""

    what = "an integer >= 3 (points of the cost grid)"

    def check(self, name: str, value: object) -> int:
        n = check_int(name, value, low=3)
        check_table_size(f"a cost grid of {n:,} points", _BYTES_PER_GRID_POINT * n, reduce=name)
        return n


#: The kind of ``n_grid`` (here and in the explorer).
_N_GRID = _GridSize()


class _SameData(Relation):
    """The two models share ``pi_pos``: two classifiers scored on the same test data."""

    names = ("model_a", "model_b")

    def check(self, values: Mapping[str, Any]) -> None:
        a, b = values["model_a"], values["model_b"]
        if a.pi_pos != b.pi_pos:
            raise ValueError(f"the two models must share pi_pos (the same test data), got {a.pi_pos} and {b.pi_pos}")


@declare(model_a=BINORMAL, model_b=BINORMAL, n_grid=_N_GRID, relations=[_SameData()])
def incoherence_comparison(model_a: Binormal, model_b: Binormal, *, n_grid: int = 199) -> IncoherenceComparison:
    """Population AUC, AUK, AP and H of two binormal classifiers, and their implied cost densities.

    The two models must share ``pi_pos`` (the same test data). AUC is the
    closed form, AUK and AP are quadratures (:func:`integrated_measure`), H is
    :func:`binormal_h_measure` with the R package's default prior. The
    densities are those of the implied cost when thresholds are weighted by
    W_G (AUC, Hand's identity) or by the loss form of W_m (AUK, AP; Theorem 1).

    Examples
    --------
    >>> from apples.studies.parker import incoherence_comparison
    >>> from apples.theory import Binormal
    >>> r = incoherence_comparison(Binormal(mu_pos=1.0, pi_pos=0.3), Binormal(mu_pos=2.0, pi_pos=0.3), n_grid=5)
    >>> r.table.round(4).loc["AUC"].tolist()
    [0.7602, 0.9214]
    """
    return _comparison(model_a, model_b, n_grid)


def _mass(W: _k.Weighting, model: Binormal, name: str, label: str) -> float:
    """The mass of a threshold weighting, which must be positive for its implied cost density to exist."""
    total = _k.quad(W, model)
    if not total > 0:
        raise ParameterValueError(
            f"the threshold weighting of {label} integrates to {total:.3g} for {name}: its implied cost density "
            "has no positive mass",
            param=name,
        )
    return total


def _loss_weighting(m: Binormal, measure: str, over: str) -> _k.Weighting:
    """The loss form of Theorem 1's W_m (Parker eq. 10), t -> (1 - m(t))·g(t)·W_G(t)/W_I(t)."""
    return lambda t: _k.weight_m(t, m, measure, over, "loss")


def _comparison(a: Binormal, b: Binormal, n_grid: int) -> IncoherenceComparison:
    """:func:`incoherence_comparison` of checked models, from the kernels of Parker §III and the H prior."""
    import pandas as pd

    # costs evenly spaced in log10(c/(1 - c)) = log10(c_0/c_1) from -4 to 4: the implied densities
    # pile up near c = 0 and c = 1, where a linear grid would not resolve them (for positives N(2, 1)
    # against N(0, 1) the AUK's density peaks near 3, so a window ending at 3 would cut it at its top)
    c = special.expit(np.log(10.0) * np.linspace(-4.0, 4.0, int(n_grid)))
    alpha, beta = beta_prior(a.pi_pos, None, "severity")  # the R package's default prior, as h_measure's
    rows = {}
    dens = {}
    for name, m, arg in (("A", a, "model_a"), ("B", b, "model_b")):
        h, _, _ = _k.binormal_h(m, alpha, beta)
        if h != h:
            raise ParameterValueError(f"H of {arg} cannot be computed for the default prior", param=arg)
        rows[name] = {
            "AUC": m.auc,
            "AUK": _k.integrated_measure(m, "kappa", "fpr"),
            "AP": _k.integrated_measure(m, "precision", "recall"),
            "H": h,
        }
        for label, measure, over in IMPLIED_COSTS:
            if measure is None or over is None:  # W_G, the AUC's weighting: the score density, of mass 1
                W, total = _k.weighting(m, None)
            else:
                W = _loss_weighting(m, measure, over)
                total = _mass(W, m, arg, label)
            dens[(name, label)] = _k.implied_cost_density(c, m, W, total)
    table = pd.DataFrame(rows)
    return IncoherenceComparison(table, c, dens, np.asarray(_k.beta_pdf(c, beta, alpha)))
