"""Demšar's critical-difference diagram: average ranks on an axis, the CD, and the groups it cannot separate."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from apples._kernels.comparison import average_ranks, critical_difference
from apples._optional import require
from apples._params import FLAG, Nullable, Real, declare
from apples.comparison.ranks import SCORE_TABLE, ScoreTable
from apples.plotting.style import AXES, escape_mathtext

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = [
    "plot_critical_difference",
]


#: Vertical distance, in data units (about 0.11 inch at the default size), between two cliques' bars.
_BAR_GAP = 0.15
_LABEL_GAP = 0.05  # between a connector line's end and its model's label, in rank units


def _cliques(ranks: np.ndarray, cd: float) -> list[tuple[int, int]]:
    """Maximal runs (in rank order) whose range is below the CD: the groups no Nemenyi test separates."""
    order = np.argsort(ranks, kind="stable")
    r = ranks[order]
    runs: list[tuple[int, int]] = []
    for i in range(r.size):
        j = int(np.searchsorted(r, r[i] + cd, side="left")) - 1  # last model within CD of model i
        if j > i and not any(a <= i and j <= b for a, b in runs):
            runs.append((i, j))
    return runs


@declare(
    scores=SCORE_TABLE,
    alpha=Real(0.0, 1.0, low_inclusive=False, high_inclusive=False),
    greater_is_better=FLAG,
    ax=Nullable(AXES),
)
def plot_critical_difference(
    scores: Any, *, alpha: float = 0.05, greater_is_better: bool = True, ax: Axes | None = None
) -> Axes:
    """Draw the critical-difference diagram of k models over N data sets (Demšar 2006, Figure 1).

    Each model sits at its average rank (1 = best, on the left); a bar of length
    ``CD = q_α √(k(k + 1)/(6N))`` (Demšar eq. 5) is drawn above the axis, and thick lines join the
    models whose average ranks differ by less than the CD (Nemenyi's test cannot tell them apart): each such
    group's bar runs from its first to its last model's average rank, on a row of its own.

    Parameters
    ----------
    scores : DataFrame or array-like of shape (k, N)
        One score per model (row) and data set (column); a DataFrame's index names the models.
    alpha : float, default 0.05
        Family-wise significance level of the critical difference.
    greater_is_better : bool, default True
        Whether a higher score ranks first.
    ax : matplotlib Axes, optional
        Where to draw; a new figure if None. Anything else than an Axes is refused, naming ``ax``.

    Returns
    -------
    matplotlib Axes

    References
    ----------
    Demšar, J. (2006). JMLR 7, 1–30, §3.2.2, eq. (5) and Figure 1.
    """
    plt = require("matplotlib.pyplot")
    table: ScoreTable = scores
    k, n = table.scores.shape
    ranks = average_ranks(table.scores, greater_is_better)
    _, cd = critical_difference(k, n, alpha)
    cliques = _cliques(ranks, cd)
    order = np.argsort(ranks, kind="stable")
    half = (k + 1) // 2
    # Each clique's bar on a row of its own, _BAR_GAP apart, so that two bars sharing a model never read as one;
    # the models' label lines start below the last bar.
    bars = 0.1 + _BAR_GAP * max(len(cliques) - 1, 0)
    depth = bars + 0.35 * (half + 1)
    if ax is None:
        _, ax = plt.subplots(figsize=(7.0, 0.3 + 0.75 * (depth + 1.4)))
    ax.set_xlim(0.5, k + 0.5)
    ax.set_ylim(-depth - 0.3, 1.1)
    ax.hlines(0.0, 1, k, color="black", linewidth=1)
    for t in range(1, k + 1):
        ax.vlines(t, 0.0, 0.08, color="black", linewidth=1)
        ax.text(t, 0.14, str(t), ha="center", va="bottom", fontsize=9)
    ax.text(0.9, 0.14, "average rank (1 = best)", ha="right", va="bottom", fontsize=9)  # the axis's label
    ax.hlines(0.75, 1, 1 + cd, color="black", linewidth=1.5)
    ax.text(1 + cd / 2, 0.8, escape_mathtext(f"CD = {cd:.2f}"), ha="center", va="bottom", fontsize=9)
    for pos, m in enumerate(order):
        left = pos < half
        y = -bars - 0.35 * ((pos + 1) if left else (k - pos))
        x_end = 0.6 if left else k + 0.4
        ax.plot([ranks[m], ranks[m], x_end], [0.0, y, y], color="black", linewidth=0.8)
        ax.text(  # a gap between the connector's end and the label, so the two never touch
            x_end - _LABEL_GAP if left else x_end + _LABEL_GAP,
            y,
            escape_mathtext(f"{table.models[m]} ({ranks[m]:.2f})"),  # a model's name is drawn as written
            ha="right" if left else "left",
            va="center",
            fontsize=9,
        )
    sorted_ranks = ranks[order]
    for i, (a, b) in enumerate(cliques):  # a bar ends at its first and last model's average rank, butt-capped
        ax.hlines(-0.1 - _BAR_GAP * i, sorted_ranks[a], sorted_ranks[b], color="black", linewidth=3, capstyle="butt")
    ax.set_axis_off()
    ax.set_title(
        escape_mathtext(f"Critical difference diagram (Demšar 2006, Fig. 1): Nemenyi, α = {alpha:g}, N = {n}"),
        fontsize=10,
    )
    return ax
