"""The plots a researcher expects, and one place for plot style and the plotting contract.

Every plotting function of apples takes ``ax=None`` as a keyword: one Axes for a
one-panel plot (the current Axes when omitted), which it returns; a sequence of
Axes, one per panel, for a multi-panel plot (a new figure when omitted), which
returns the Figure.

Every notebook's first code cell calls ``apples.set_style()`` instead of
repeating rcParams (STYLE.md: no copy-pasted setup cells). matplotlib is
imported when a function is called (the ``notebooks`` extra), so the package
imports with the core install.

- :mod:`apples.plotting.style`: :func:`set_style`, :func:`decorate`, :func:`panel_axes`, the explorers' snapshot;
- :mod:`apples.plotting.curves`: per-fold ROC and precision-recall curves with the merged and the vertically
  averaged curve (Fawcett 2006 §7.1), labelled with the number to report (Forman & Scholz 2010 §3);
- :mod:`apples.plotting.calibration`: the reliability diagram of each fold and pooled.
"""

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
    explorer_mimebundle,
    panel_axes,
    set_style,
)

__all__ = [
    "EXPLORER_NOTE",
    "decorate",
    "explorer_mimebundle",
    "panel_axes",
    "plot_cv_precision_recall",
    "plot_cv_roc",
    "plot_reliability",
    "set_style",
]
