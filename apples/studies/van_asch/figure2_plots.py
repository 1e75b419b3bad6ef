"""Van Asch (2013) Figure 2 drawn: one panel (:func:`plot_fold_f1`) and the grid (:func:`plot_fold_f1_grid`).

Notebook 04. The curves come from :func:`apples.studies.van_asch.figure2_curves`;
the grid re-creates the six panels of §7.1 (the paper's own curves could not be
compared) with a panel of F_tp,fp minus eq. (31) below.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from apples._optional import require
from apples._params import FLAG, Frame, Kind, Options, declare
from apples.cv.aggregations import F_AGGREGATIONS
from apples.plotting import panel_axes
from apples.studies.van_asch.figure2 import _PANEL_LETTERS, FIGURE2_PANELS
from apples.theory.fold_size import FOLD_F1_AVERAGES, FOLD_F1_METHODS

__all__ = [
    "plot_fold_f1",
    "plot_fold_f1_grid",
]


_LABELS = {"tp_fp": "F_tp,fp", "avg": "F_avg"}
#: The columns of a :func:`~apples.studies.van_asch.fold_f1_curve` frame that the plots read.
_CURVE_COLUMNS = ("prop_a", "average", "method", "exact", "mean", "se", "theory")
_CURVE = Frame(_CURVE_COLUMNS, source="apples.studies.van_asch.fold_f1_curve output")
_AVERAGE = Options(*FOLD_F1_AVERAGES)


class _Curves(Kind):
    """Panel letter of Figure 2 -> :func:`~apples.studies.van_asch.fold_f1_curve` frame (a figure2_curves result)."""

    what = "a mapping of panel letter -> fold_f1_curve frame"

    def check(self, name: str, value: object) -> dict[str, pd.DataFrame]:
        if not isinstance(value, Mapping):
            raise TypeError(f"{name} must be {self.what}, got {type(value).__name__}")
        keys = _PANEL_LETTERS.check(name, list(value))
        return {key: _CURVE.check(f"{name}[{key!r}]", value[key]) for key in keys}


@declare(curve=_CURVE, average=_AVERAGE, theory=FLAG, legend=FLAG)
def plot_fold_f1(
    curve: pd.DataFrame,
    *,
    average: str = "macro",
    ax: Any = None,
    title: str | None = None,
    theory: bool = True,
    legend: bool = True,
) -> Any:
    """Plot one panel of Figure 2 from :func:`fold_f1_curve`: exact lines, simulated means ± 2 SE, eq. (31).

    ``curve`` may be several :func:`fold_f1_curve` frames concatenated (e.g. a
    fine exact grid and a coarser simulated one): lines use one row per
    proportion, markers every row with a simulated mean. Returns the Axes.

    Parameters
    ----------
    curve : pandas.DataFrame
        :func:`fold_f1_curve` rows (columns ``prop_a``, ``average``, ``method``, ``exact``,
        ``mean``, ``se``, ``theory``).
    average : {"macro", "binary"}, default "macro"
        The macro-F1 of A and B, or the F1 of class A.
    ax : matplotlib Axes, optional
        Drawn on the current Axes when omitted.
    title : str, optional
    theory : bool, default True
        Draw eq. (31) (dashed).
    legend : bool, default True

    Returns
    -------
    matplotlib Axes
    """
    ax = require("matplotlib.pyplot").gca() if ax is None else ax
    return _draw_fold_f1(curve, average=average, ax=ax, title=title, theory=theory, legend=legend)


def _draw_fold_f1(curve: pd.DataFrame, *, average: str, ax: Any, title: str | None, theory: bool, legend: bool) -> Any:
    """:func:`plot_fold_f1` of checked arguments on ``ax``."""
    data = curve[curve["average"] == average]
    for method in FOLD_F1_METHODS:
        d = data[data["method"] == method].drop_duplicates("prop_a").sort_values("prop_a")
        ax.plot(
            100 * d["prop_a"].to_numpy(),
            100 * d["exact"].to_numpy(),
            color=F_AGGREGATIONS[method].color,
            lw=1.5,
            label=f"{_LABELS[method]} (exact mean)",
        )
        s = data[(data["method"] == method) & data["mean"].notna()]
        if len(s):
            ax.errorbar(
                100 * s["prop_a"].to_numpy(),
                100 * s["mean"].to_numpy(),
                yerr=200 * s["se"].to_numpy(),
                fmt="o",
                ms=3,
                color=F_AGGREGATIONS[method].color,
                label=f"{_LABELS[method]} (simulated, ±2 SE)",
            )
    if theory:
        d = data[data["method"] == "tp_fp"].drop_duplicates("prop_a").sort_values("prop_a")
        ax.plot(
            100 * d["prop_a"].to_numpy(),
            100 * d["theory"].to_numpy(),
            ls="--",
            color="#d62728",
            lw=1.2,
            label="eq. (31)" if average == "macro" else "eq. (31), class-A term x 2",
        )
    what = "macro-F1 of A and B" if average == "macro" else "F1 of class A"
    ax.set(xlabel="proportion of class A (%)", ylabel=f"{what} (%)", xlim=(0, 10))
    if title is not None:
        ax.set_title(title)
    if legend:
        ax.legend(loc="lower right")
    return ax


#: Suptitle of :func:`plot_fold_f1_grid` per ``average``: which reading of Figure 2 is drawn.
_GRID_TITLES = {
    "macro": "Van Asch Figure 2 (re-created from the §7.1 set-up): macro-F1 of A and B, as in the caption",
    "binary": (
        "Van Asch Figure 2 (re-created from the §7.1 set-up): F1 of class A, as in the text and the caption's TODO"
    ),
}


@declare(curves=_Curves(), average=_AVERAGE, residual=FLAG)
def plot_fold_f1_grid(
    curves: Mapping[str, pd.DataFrame], *, average: str = "macro", residual: bool = True, ax: Any = None
) -> Any:
    """All panels of Van Asch Figure 2 (a-f), one :func:`plot_fold_f1` per panel, and eq. (31) minus F_tp,fp.

    Each panel draws the exact F_tp,fp as a broad translucent black band and
    eq. (31) (:func:`apples.theory.theoretical_f1`) as a red dashed line on top
    of it: the two coincide to a fraction of a point, as §7.1 says ("It
    coincides almost exactly with the curve of F_tp,fp"), so a thin line would
    hide one under the other. With ``residual`` a bottom panel spanning the grid
    shows their difference, E[F_tp,fp] - eq. (31), in points: one line per
    group of panels whose differences are identical (with fixed errors F_tp,fp
    depends on N only, not on K).

    Parameters
    ----------
    curves : mapping str -> pandas.DataFrame
        Panel letter (a key of :data:`FIGURE2_PANELS`) -> its :func:`fold_f1_curve`
        rows, as returned by :func:`figure2_curves`; drawn in the mapping's order.
    average : {"macro", "binary"}, default "macro"
        The macro-F1 of A and B (what the caption says the figure shows) or the
        F1 of class A (what the text of §7.1 discusses).
    residual : bool, default True
        Add the panel of E[F_tp,fp] - eq. (31) below the grid.
    ax : sequence of matplotlib Axes, optional
        One Axes per panel, then (with ``residual``) one for the difference; a
        new figure (two columns, shared y axis, the difference panel spanning
        both columns) when omitted.

    Returns
    -------
    matplotlib Figure

    References
    ----------
    Van Asch (2013), §7.1, eq. (31) and Figure 2.
    """
    plt = require("matplotlib.pyplot")
    frames = curves  # checked: panel letter -> fold_f1_curve frame, in the mapping's order
    keys = list(frames)
    if ax is None:
        n_rows = math.ceil(len(keys) / 2)
        fig = plt.figure(figsize=(10, 11 * n_rows / 3 + (2.6 if residual else 0)))
        spec = fig.add_gridspec(n_rows + int(residual), 2, height_ratios=[1.0] * n_rows + ([0.75] if residual else []))
        axes = [fig.add_subplot(spec[i // 2, i % 2]) for i in range(2 * n_rows)]
        for a in axes[1:]:
            a.sharey(axes[0])
        for extra in axes[len(keys) :]:
            extra.set_visible(False)
        diff_ax = fig.add_subplot(spec[n_rows, :]) if residual else None
    else:
        given = panel_axes(ax, len(keys) + int(residual))
        axes, diff_ax = given[: len(keys)], (given[-1] if residual else None)
    tp_fp_rows = {  # one row per proportion: the exact F_tp,fp and eq. (31)
        key: f[(f["average"] == average) & (f["method"] == "tp_fp")].drop_duplicates("prop_a").sort_values("prop_a")
        for key, f in frames.items()
    }
    eq31_label = "eq. (31), on F_tp,fp" if average == "macro" else "eq. (31) class-A term x 2, on F_tp,fp"
    for i, (a, key) in enumerate(zip(axes, keys, strict=False)):
        k, n = FIGURE2_PANELS[key]
        _draw_fold_f1(
            frames[key],
            average=average,
            ax=a,
            theory=False,
            legend=False,
            title=f"Van Asch Fig. 2{key} (re-created): {k} folds, {n:,} instances",
        )
        tp_fp_line = next(line for line in a.get_lines() if line.get_label() == f"{_LABELS['tp_fp']} (exact mean)")
        tp_fp_line.set(lw=5, alpha=0.35, solid_capstyle="butt")  # a band the dashed eq. (31) runs inside
        d = tp_fp_rows[key]
        a.plot(
            100 * d["prop_a"].to_numpy(),
            100 * d["theory"].to_numpy(),
            ls=(0, (4, 2)),
            color="#d62728",
            lw=1.6,
            zorder=3,
            label=eq31_label,
        )
        a.set_ylim(0 if average == "binary" else 45, 92)
        if i == 0:
            a.legend(loc="lower right")
    if diff_ax is not None:  # E[F_tp,fp] - eq. (31) in points, panels with equal curves merged into one line
        groups: list[tuple[np.ndarray, np.ndarray, list[str]]] = []
        for key, d in tp_fp_rows.items():
            x, y = 100 * d["prop_a"].to_numpy(), 100 * (d["exact"].to_numpy() - d["theory"].to_numpy())
            for gx, gy, members in groups:
                if np.array_equal(gx, x) and np.array_equal(gy, y):
                    members.append(key)
                    break
            else:
                groups.append((x, y, [key]))
        for j, (x, y, members) in enumerate(groups):
            sizes = ", ".join(f"N = {v:,}" for v in sorted({FIGURE2_PANELS[m][1] for m in members}))
            plural = "s" if len(members) > 1 else ""
            diff_ax.plot(x, y, marker="o", ms=3, color=f"C{j}", label=f"{sizes}: panel{plural} {', '.join(members)}")
        largest = max(float(np.nanmax(np.abs(y))) for _, y, _ in groups)
        diff_ax.axhline(0, color="grey", lw=0.8)
        diff_ax.set(
            xlabel="proportion of class A (%)",
            ylabel="difference (points)",
            xlim=(0, 10),
            title=f"E[F_tp,fp] - eq. (31), {'macro-F1' if average == 'macro' else 'F1 of class A'} "
            f"(not in the paper): at most {largest:.2f} points apart",
        )
        diff_ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.3), ncol=len(groups))  # below the axes
    fig = axes[0].figure
    fig.suptitle(_GRID_TITLES[average])
    fig.tight_layout(rect=(0, 0, 1, 0.98))  # a margin between the suptitle and the top panels' titles
    return fig
