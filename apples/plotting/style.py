"""Plot style and the plotting contract's helpers: :func:`set_style`, :func:`decorate`, :func:`panel_axes`, the kinds
of a plot's ``ax`` (:data:`AXES`, :data:`PANEL_AXES`), :func:`escape_mathtext` for every piece of user text drawn,
and the explorers' static snapshot (:func:`explorer_mimebundle`, :data:`EXPLORER_NOTE`).

matplotlib is imported when a function is called (the ``notebooks`` extra), so the module imports with the core
install (each figure's colour for an F aggregation is in :data:`apples.cv.F_AGGREGATIONS`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from apples._optional import require
from apples._params import Kind, exempt

if TYPE_CHECKING:  # matplotlib is optional (the notebooks extra)
    from matplotlib.axes import Axes

__all__ = [
    "EXPLORER_NOTE",
    "decorate",
    "escape_mathtext",
    "explorer_mimebundle",
    "panel_axes",
    "set_style",
]

#: What LaTeX makes of each of its special characters when ``text.usetex`` is on (every other one is itself).
_LATEX = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "#": r"\#",
    "%": r"\%",
    "_": r"\_",
    "^": r"\textasciicircum{}",
    "~": r"\textasciitilde{}",
}


@exempt("takes any object and draws its str(): there is nothing to refuse")
def escape_mathtext(text: object) -> str:
    r"""``str(text)`` escaped so that matplotlib draws it literally: every label, title and legend entry that
    holds user text (a label, a fold or repeat id, a model name) goes through it.

    matplotlib reads a string holding an even number of unescaped ``$`` as mathtext, where ``\``, ``^``, ``_``
    and ``{}`` are commands and a name such as ``$\input{x}$`` stops ``savefig`` with a ParseFatalException.
    Each ``$`` becomes ``\$``: the string is then plain text, drawn as given, ``\``, ``^`` and ``_`` included
    (matplotlib turns each ``\$`` back into ``$``). With ``rcParams["text.usetex"]`` on, LaTeX reads
    every string, so each of its special characters is escaped instead (``\``, ``{``, ``}``, ``$``, ``&``,
    ``#``, ``%``, ``_``, ``^``, ``~``). A legend entry that starts with ``_`` is hidden by matplotlib: the
    plots of apples start their entries with their own words.

    Examples
    --------
    >>> from apples.plotting import escape_mathtext
    >>> print(escape_mathtext(r"$\input{x}$ & x_1^2"))
    \$\input{x}\$ & x_1^2
    """
    plain = str(text)
    mpl = sys.modules.get("matplotlib")
    if mpl is not None and mpl.rcParams.get("text.usetex", False):
        return "".join(_LATEX.get(c, c) for c in plain)
    return plain.replace("$", "\\$")


def _axes_class() -> type | None:
    """matplotlib's Axes class if matplotlib is imported (no Axes can exist otherwise), else None."""
    module = sys.modules.get("matplotlib.axes")
    return None if module is None else module.Axes


class _AxesKind(Kind):
    """The ``ax`` of a plot: one matplotlib Axes, or (``panels``) one Axes per panel in a sequence or array."""

    def __init__(self, *, panels: bool) -> None:
        self.panels = panels
        self.what = (
            "a matplotlib Axes, or a sequence (list, array) of Axes, one per panel" if panels else "a matplotlib Axes"
        )

    def check(self, name: str, value: object) -> Any:
        axes = _axes_class()
        if axes is not None and isinstance(value, axes):
            return value
        if self.panels and isinstance(value, Iterable) and not isinstance(value, (str, bytes, Mapping)):
            # a list, a tuple, the (2-d) array of plt.subplots, nested lists: flattened, row by row
            items = list(np.asarray(value if isinstance(value, np.ndarray) else list(value), dtype=object).ravel())
            if not items:
                raise ValueError(f"{name} is empty; it must be {self.what}")
            for i, item in enumerate(items):
                if axes is None or not isinstance(item, axes):
                    raise TypeError(f"{name}[{i}] must be a matplotlib Axes, got {type(item).__name__}")
            return items
        raise TypeError(f"{name} must be {self.what} (or None), got {type(value).__name__}")


#: The kind of a one-panel plot's ``ax``: a matplotlib Axes (declare it ``Nullable(AXES)``: None draws on the current
#: Axes). Anything else is refused naming ``ax``, before anything is drawn.
AXES = _AxesKind(panels=False)
#: The kind of a plot's ``ax`` that draws one or several panels: one Axes, or a sequence (list, tuple, the array of
#: ``plt.subplots``) of Axes, converted to a list; the plot checks that the count matches its panels.
PANEL_AXES = _AxesKind(panels=True)


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
