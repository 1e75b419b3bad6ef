"""The plots a researcher expects, and one place for plot style and the plotting contract.

Every plotting function of apples takes ``ax=None`` as a keyword: one Axes for a
one-panel plot (the current Axes when omitted), which it returns; a sequence of
Axes, one per panel, for a multi-panel plot (a new figure when omitted), which
returns the Figure. ``ax`` is declared with :data:`AXES` or :data:`PANEL_AXES`, so
anything else is refused naming it, and every piece of user text drawn (labels,
fold and repeat ids, model names) goes through :func:`escape_mathtext`.

Every notebook's first code cell calls ``apples.set_style()`` instead of
repeating rcParams (STYLE.md: no copy-pasted setup cells). matplotlib is
imported when a function is called (the ``notebooks`` extra), so the package
imports with the core install.

- :mod:`apples.plotting.style`: :func:`set_style`, :func:`decorate`, :func:`panel_axes`, the kinds of ``ax``,
  :func:`escape_mathtext`, the explorers' snapshot;
- :mod:`apples.plotting.curves`: per-fold ROC and precision-recall curves of :class:`apples.CVPredictions` (every
  fold of every repeat, weighted, one-vs-rest per label) with each repeat's merged and the vertically averaged
  curve (Fawcett 2006 §7.1), labelled with the number to report (Forman & Scholz 2010 §3);
- :mod:`apples.plotting.calibration`: the reliability diagram of each fold and pooled per repeat.
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from apples.plotting.calibration import (
        plot_reliability,
    )
    from apples.plotting.curves import (
        plot_cv_precision_recall,
        plot_cv_roc,
    )
    from apples.plotting.style import (
        EXPLORER_NOTE,
        decorate,
        escape_mathtext,
        explorer_mimebundle,
        panel_axes,
        set_style,
    )

__all__ = [
    "EXPLORER_NOTE",
    "decorate",
    "escape_mathtext",
    "explorer_mimebundle",
    "panel_axes",
    "plot_cv_precision_recall",
    "plot_cv_roc",
    "plot_reliability",
    "set_style",
]

#: The module that defines each name: imported when the name is first used.
_SOURCES = {
    "plot_reliability": "apples.plotting.calibration",
    "plot_cv_precision_recall": "apples.plotting.curves",
    "plot_cv_roc": "apples.plotting.curves",
    "EXPLORER_NOTE": "apples.plotting.style",
    "decorate": "apples.plotting.style",
    "escape_mathtext": "apples.plotting.style",
    "explorer_mimebundle": "apples.plotting.style",
    "panel_axes": "apples.plotting.style",
    "set_style": "apples.plotting.style",
}


def __getattr__(name: str) -> object:
    """Import the module that defines ``name`` on first use (PEP 562), so importing the package is cheap."""
    if name not in _SOURCES:
        if importlib.util.find_spec(f"{__name__}.{name}") is None:  # a submodule is imported on access too
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        return importlib.import_module(f"{__name__}.{name}")
    value = getattr(importlib.import_module(_SOURCES[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__} - {"annotations", "importlib", "TYPE_CHECKING"})
