"""The panels of a plot and their legends: one Axes, or a grid of them with one legend below (what
:mod:`apples.plotting.curves` and :mod:`apples.plotting.calibration` draw on)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from apples._optional import require
from apples._params import ParameterValueError

if TYPE_CHECKING:  # matplotlib is optional (the notebooks extra)
    from matplotlib.axes import Axes


def panel_grid(ax: Any, n_panels: int, what: str) -> tuple[list, Any]:
    """The Axes of a plot of ``n_panels`` panels (one per ``what``) and the figure to return (None: one panel).

    ``ax`` is checked by :data:`apples.plotting.style.PANEL_AXES`: None (the current Axes for one panel; a new grid, at
    most three panels a row, in constrained layout, for several), one Axes, or a list of exactly ``n_panels`` Axes.
    """
    plt = require("matplotlib.pyplot")
    if ax is None:
        if n_panels == 1:
            return [plt.gca()], None
        ncols = min(n_panels, 3)
        nrows = -(-n_panels // ncols)
        fig = plt.figure(figsize=(4.4 * ncols, 3.9 * nrows + 1.2), layout="constrained")
        grid = list(fig.subplots(nrows, ncols, squeeze=False).ravel())
        for extra in grid[n_panels:]:
            extra.remove()
        return grid[:n_panels], fig
    axes = ax if isinstance(ax, list) else [ax]
    if len(axes) != n_panels:
        hint = f"; or give label= to draw one {what}'s panel" if n_panels > 1 else ""
        raise ParameterValueError(
            f"ax holds {len(axes)} Axes, but {n_panels} panel{'s are' if n_panels > 1 else ' is'} drawn (one per "
            f"{what}): give {n_panels} Axes{hint}",
            param="ax",
        )
    return axes, (axes[0].get_figure() if n_panels > 1 else None)


def legend_beside(ax: Axes) -> None:
    """A one-panel plot's legend beside the Axes, off the data."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, fontsize="small")


def legend_below(fig: Any, ax: Axes) -> None:
    """A grid's one legend (its panels draw the same kinds of lines), below the panels: in a figure laid out by
    constrained layout, the panels make room for it; in any other, it hangs below the figure's bottom edge (the
    inline backend and ``savefig(bbox_inches="tight")`` show it), never over the data."""
    handles, labels = ax.get_legend_handles_labels()
    ncols = min(3, max(1, len(labels)))
    engine = fig.get_layout_engine() if hasattr(fig, "get_layout_engine") else None
    if engine is not None and type(engine).__name__ == "ConstrainedLayoutEngine":
        fig.legend(handles, labels, loc="outside lower center", ncols=ncols, fontsize="small")
    else:
        fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncols=ncols, fontsize="small")


def shown(value: object) -> str:
    r"""A label, fold id or repeat id as a plot shows it: a string in quotes as written (``repr`` would double its
    backslashes and escape its quotes), anything else as ``str``. Escape the whole text with ``escape_mathtext``.

    >>> print(shown(r"$\input{x}$"), shown(3))
    '$\input{x}$' 3
    """
    return f"'{value}'" if isinstance(value, str) else str(value)
