"""One place for plot style: :func:`set_style` and :func:`decorate`.

Every notebook's first code cell calls ``apples.set_style()`` instead of
repeating rcParams (STYLE.md: no copy-pasted setup cells). matplotlib is
imported when either function is called (the ``notebooks`` extra), so the
colours in :data:`METHOD_COLORS` need only the core install.
"""

from __future__ import annotations

import pandas as pd

from apples._optional import require

__all__ = [
    "METHOD_COLORS",
    "decorate",
    "set_style",
]

#: One colour per cross-validated F method, the same in every figure.
METHOD_COLORS = {
    "tp_fp": "#000000",
    "avg": "#1f77b4",
    "pr_re": "#d62728",
    "avg_skip": "#2ca02c",
    "pr_re_skip": "#ff7f0e",
}


def set_style() -> None:
    """Matplotlib and pandas settings shared by all notebooks.

    Fixed figure size and resolution (so stored outputs stay small and stable),
    light grid, readable fonts, and pandas printing 4 significant decimals.
    """
    mpl = require("matplotlib")
    require("matplotlib.pyplot")  # its backend first, then our settings (as when importing apples imported it)
    mpl.rcParams.update(
        {
            "figure.figsize": (6.4, 4.0),
            "figure.dpi": 80,
            "savefig.dpi": 80,
            "axes.grid": True,
            "grid.alpha": 0.3,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "font.size": 10,
            "axes.titlesize": 11,
            "legend.fontsize": 9,
            "legend.frameon": False,
            "image.cmap": "viridis",
            "svg.hashsalt": "apples",
        }
    )
    pd.set_option("display.precision", 4)
    pd.set_option("display.width", 120)


def decorate(ax=None, **options):
    """Set axis properties in one call, ThinkStats style; returns ``ax``.

    ``decorate(ax, xlabel="Precision (%)", ylabel="F (%)", title=...)``; any
    ``Axes.set`` keyword is accepted. A legend is drawn if any artist has a label.
    """
    if ax is None:
        ax = require("matplotlib.pyplot").gca()
    ax.set(**options)
    _handles, labels = ax.get_legend_handles_labels()
    if labels:
        ax.legend()
    return ax
