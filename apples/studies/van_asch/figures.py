"""Figures of the Van Asch (2013) study (notebooks 04 and 06)."""

from __future__ import annotations

import pandas as pd

from apples._optional import require
from apples._validation import (
    check_bool,
    check_choice,
)
from apples.theory.fold_size import FOLD_F1_AVERAGES, FOLD_F1_METHODS

__all__ = [
    "plot_accuracy_by_uncertainty",
    "plot_fold_f1",
]


def plot_accuracy_by_uncertainty(table: pd.DataFrame, *, ax=None, label: str | None = None, **style):
    """Plot :func:`accuracy_by_uncertainty` output: accuracy (%) per uncertainty bin (Figure 1).

    Each bin is drawn at the mean of its uncertainty range; returns ``ax``.
    """
    ax = require("matplotlib.pyplot").gca() if ax is None else ax
    x = (table["low"] + table["high"]) / 2
    ax.plot(x, 100 * table["accuracy"], marker="o", label=label, **style)
    return ax


_LABELS = {"tp_fp": "F_tp,fp", "avg": "F_avg"}


def plot_fold_f1(
    curve: pd.DataFrame,
    *,
    average: str = "macro",
    ax=None,
    title: str | None = None,
    theory: bool = True,
    legend: bool = True,
):
    """Plot one panel of Figure 2 from :func:`fold_f1_curve`: exact lines, simulated means ± 2 SE, eq. (31).

    ``curve`` may be several :func:`fold_f1_curve` frames concatenated (e.g. a
    fine exact grid and a coarser simulated one): lines use one row per
    proportion, markers every row with a simulated mean. Returns the Axes.
    """
    from apples.plotting import METHOD_COLORS

    check_choice("average", average, FOLD_F1_AVERAGES)
    theory = check_bool("theory", theory)
    legend = check_bool("legend", legend)
    ax = require("matplotlib.pyplot").gca() if ax is None else ax
    data = curve[curve["average"] == average]
    for method in FOLD_F1_METHODS:
        d = data[data["method"] == method].drop_duplicates("prop_a").sort_values("prop_a")
        ax.plot(
            100 * d["prop_a"].to_numpy(),
            100 * d["exact"].to_numpy(),
            color=METHOD_COLORS[method],
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
                color=METHOD_COLORS[method],
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
