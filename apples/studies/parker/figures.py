"""Figures of the Parker (2011) study (notebook 07)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from apples._optional import require
from apples.plotting import panel_axes
from apples.studies.parker.comparison import IMPLIED_COSTS, IncoherenceComparison
from apples.theory.binormal import Binormal, check_binormal

if TYPE_CHECKING:  # pandas is imported where a table is built
    pass


__all__ = [
    "plot_incoherence_comparison",
]


def plot_incoherence_comparison(result: IncoherenceComparison, model_a: Binormal, model_b: Binormal, *, ax=None):
    """ROC curves (left) and implied cost densities with the H prior (right); returns the figure.

    ``ax``: the two panels (a pair of Axes), or None for a new figure.

    The costs are drawn on the axis log10(c_0/c_1) = log10(c/(1 - c)), densities
    transformed accordingly, because the implied distributions pile up near
    c = 0 and c = 1. A distribution with less than 95% of its mass inside the
    window [-3, 3] says so in its legend entry. A random classifier (identical
    score distributions) implies the single cost c = π_1, a point mass that
    has no density to draw.
    """
    require("matplotlib.pyplot")  # first: without matplotlib, say how to install it before checking the rest
    if not isinstance(result, IncoherenceComparison):
        raise TypeError(
            "result must be an apples.studies.parker.IncoherenceComparison (from incoherence_comparison), "
            f"got {type(result).__name__}"
        )
    check_binormal(model_a, "model_a")
    check_binormal(model_b, "model_b")
    ax_roc, ax_c = panel_axes(ax, 2, figsize=(12, 4))
    v = np.linspace(0, 1, 201)
    colors = {"A": "#1f77b4", "B": "#d62728"}
    styles = {"AUC": "-", "AUK": "--", "AP": ":"}
    c = result.c
    u = np.log10(c / (1 - c))  # log10 of the cost ratio c_0/c_1
    jac = c * (1 - c) * np.log(10.0)  # density per unit of u = density per unit of c times dc/du
    for name, m in (("A", model_a), ("B", model_b)):
        ax_roc.plot(100 * v, 100 * m.roc(v), color=colors[name], label=f"{name}: AUC = {m.auc:.3f}")
        for label, _, _ in IMPLIED_COSTS:
            dens = result.densities[(name, label)] * jac
            shown = float(np.trapezoid(dens, u))  # share of the distribution inside the plotted window
            note = f" ({100 * shown:.0f}% in view)" if shown < 0.95 else ""
            ax_c.plot(u, dens, color=colors[name], ls=styles[label], label=f"{name}, {label}{note}")
    ax_roc.plot([0, 100], [0, 100], color="grey", lw=0.8)
    ax_c.plot(u, result.h_prior * jac, color="black", lw=2, label="H prior (A and B)")
    ax_roc.set(xlabel="False positive rate (%)", ylabel="True positive rate (%)", title="ROC curves of A and B")
    ax_c.set(
        xlabel="log₁₀(c₀/c₁), cost of a missed positive over a false positive",
        ylabel="density per unit log₁₀ ratio",
        title="Implied distributions over the cost",
        ylim=(0, None),
    )
    ax_roc.legend()
    ax_c.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))  # outside: the curves fill the panel
    return ax_roc.figure
