"""Plot style and the plotting contract's helpers: :func:`set_style`, :func:`decorate`, :func:`panel_axes`, and the
explorers' static snapshot (:func:`explorer_mimebundle`, :data:`EXPLORER_NOTE`).

matplotlib is imported when a function is called (the ``notebooks`` extra), so the module imports with the core
install (each figure's colour for an F aggregation is in :data:`apples.cv.F_AGGREGATIONS`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from apples._optional import require
from apples._params import exempt

if TYPE_CHECKING:  # matplotlib is optional (the notebooks extra)
    from matplotlib.axes import Axes

__all__ = [
    "EXPLORER_NOTE",
    "decorate",
    "explorer_mimebundle",
    "panel_axes",
    "set_style",
]


@exempt("takes no argument")
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
            "figure.dpi": 120,
            "savefig.dpi": 120,
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


@exempt("its options go to matplotlib's Axes.set, which checks them")
def decorate(ax: Axes | None = None, **options: Any) -> Axes:
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


@exempt("a helper of the plot functions: checks their ax against the panel count they pass")
def panel_axes(ax: Any, n_panels: int, **subplots_kw: Any) -> list:
    """The ``n_panels`` Axes a multi-panel plot draws on: ``ax`` checked, or a new figure's.

    ``ax`` is None (a new row of ``n_panels`` subplots, ``subplots_kw`` passed on) or a
    sequence of exactly ``n_panels`` Axes; anything else is a TypeError or ValueError.
    """
    plt = require("matplotlib.pyplot")
    if ax is None:
        _, axes = plt.subplots(1, n_panels, **subplots_kw)
        return list(np.atleast_1d(axes))
    try:
        axes = list(np.asarray(ax, dtype=object).ravel())
    except TypeError:
        raise TypeError(f"ax must be a sequence of {n_panels} matplotlib Axes, got {type(ax).__name__}") from None
    if len(axes) != n_panels:
        raise ValueError(f"ax must hold {n_panels} Axes (one per panel), got {len(axes)}")
    Axes = require("matplotlib.axes").Axes
    for i, a in enumerate(axes):
        if not isinstance(a, Axes):
            raise TypeError(f"ax[{i}] must be a matplotlib Axes, got {type(a).__name__}")
    return axes


#: What a viewer without a live kernel (GitHub, the book, an untrusted notebook) says under an explorer.
EXPLORER_NOTE = (
    "Interactive explorer: it needs a running kernel. Run the notebook in JupyterLab (make lab) to move "
    "its controls; below, a static snapshot at its starting values."
)


@exempt("the display of an explorer: called with its own widget and drawing")
def explorer_mimebundle(widget: Any, draw: Callable[[], Any]) -> dict:
    """The display of an explorer: the live widget, and a PNG snapshot for every viewer without a kernel.

    A running JupyterLab shows the widget (its MIME type ranks first); GitHub, the
    book and an untrusted notebook show the ``image/png`` snapshot, drawn by
    ``draw()`` (which returns a matplotlib Figure), and :data:`EXPLORER_NOTE` as text.
    Each explorer NamedTuple's ``_repr_mimebundle_`` calls this, so a notebook cell
    ending in ``explorer`` stores both.
    """
    import base64
    import io

    plt = require("matplotlib.pyplot")
    bundle = dict(widget._repr_mimebundle_() or {})
    fig = draw()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=120, bbox_inches="tight")
    plt.close(fig)
    bundle["image/png"] = base64.b64encode(buffer.getvalue()).decode("ascii")
    bundle["text/plain"] = EXPLORER_NOTE
    return bundle
