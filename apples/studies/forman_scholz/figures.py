"""Figures of the Forman & Scholz (2010) study (notebooks 01 and 02; notebook 03's are in :mod:`.bias_figures`).

Each function draws one figure: ``ax=None`` keyword (a new figure when omitted),
returning the axes, or the figure for a multi-panel plot.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from apples._optional import require
from apples._params import (
    check_bool,
    check_choice,
    check_fold_lists,
    check_real,
    divide,
)
from apples.cv.confusion import percent
from apples.metrics.ranking import roc_auc, roc_curve
from apples.plotting import panel_axes
from apples.theory.f_surfaces import f_from_rates, f_of_tp

if TYPE_CHECKING:  # ipywidgets is optional (the notebooks extra), imported by sim_explorer
    pass


__all__ = [
    "plot_f_of_tp",
    "plot_f_precision_recall",
    "plot_f_rates",
    "plot_figure3",
    "plot_fold_rocs",
    "plot_rate_vs_score",
]
_FOLD_COLORS = ("#1f77b4", "#2ca02c", "#d62728", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")


# -- plots -----------------------------------------------------------------------------------------
def plot_rate_vs_score(
    y_true_folds, y_score_folds, *, rate: str = "fpr", ax=None, log: bool = True, labels: Sequence[str] | None = None
):
    """False (or true) positive rate against the score threshold, one step curve per fold.

    The rate at threshold t is the share of the fold's negatives (positives)
    with score >= t; this is one panel of Forman & Scholz Figure 3. With
    ``log=True`` the score axis is logarithmic (scores must then be positive).

    Returns
    -------
    matplotlib Axes
    """
    plt = require("matplotlib.pyplot")

    check_choice("rate", rate, ("fpr", "tpr"))
    log = check_bool("log", log)
    y_true_folds, y_score_folds = check_fold_lists(y_true_folds, y_score_folds)
    n_folds = len(y_true_folds)
    if labels is None:
        labels = [f"fold {i + 1}" for i in range(n_folds)]
    else:  # not `labels or ...`: the truth value of an array is numpy's ValueError
        if isinstance(labels, (str, bytes)) or not isinstance(labels, (Sequence, np.ndarray)):
            raise TypeError(f"labels must be a sequence of legend labels, one per fold, got {labels!r}")
        if len(labels) != n_folds:
            raise ValueError(f"labels has {len(labels)} entries but there are {n_folds} folds; pass one per fold")
        labels = [str(label) for label in labels]
    ax = plt.gca() if ax is None else ax
    for i, (t, s) in enumerate(zip(y_true_folds, y_score_folds, strict=True)):
        try:
            fpr, tpr, thr = roc_curve(t, s)
        except (ValueError, TypeError) as err:
            raise type(err)(f"fold {i + 1} (index {i}): {err}") from None
        r = (fpr if rate == "fpr" else tpr)[1:][::-1] * 100
        x = thr[1:][::-1]
        if log and np.any(x <= 0):
            raise ValueError("log=True needs positive scores; shift them or pass log=False")
        # the rate is r_j on (x_{j-1}, x_j]: steps-pre; extend flat to the left edge
        ax.plot(
            np.r_[x[0], x],
            np.r_[r[0], r],
            drawstyle="steps-pre",
            color=_FOLD_COLORS[i % len(_FOLD_COLORS)],
            label=labels[i],
        )
    if log:
        ax.set_xscale("log")
    name = "False positive rate" if rate == "fpr" else "True positive rate"
    ax.set(xlabel="classifier score threshold" + (" (log scale)" if log else ""), ylabel=f"{name} (%)", ylim=(-2, 102))
    ax.legend(loc="upper right" if rate == "fpr" else "lower left")
    return ax


def plot_figure3(y_true_folds, y_score_folds, *, ax=None, log: bool = True, xlim: Sequence[float] | None = None):
    """Both panels of Forman & Scholz Figure 3: (a) FPR and (b) TPR vs score, per fold.

    Forman & Scholz (2010), §3.2 and Figure 3: the share of each fold's negatives
    (a) and positives (b) scoring at or above a threshold, against the threshold,
    on a log axis. Both panels share one score axis, so a fold's positives can
    be read against every fold's negatives.

    Parameters
    ----------
    y_true_folds, y_score_folds : sequence of array-like
        Labels and scores of each test fold.
    ax : pair of matplotlib Axes, optional
        The two panels; a new figure when omitted.
    log : bool, default True
        Logarithmic score axis (scores must then be positive).
    xlim : (low, high), optional
        The score range drawn on both panels; by default the full range of the
        scores. Scores that spread over many decades (a steep sigmoid puts
        negatives near 1e-19) crush the positives' steps against one edge: pass
        the range where the positives lie. Every positive outranks a negative
        that scores below all positives, in its fold and merged alike, so
        cutting it off the view hides no pair that merging orders differently.
        With ``log=True``, ``low`` must be positive.

    Returns
    -------
    matplotlib Figure
    """
    log = check_bool("log", log)
    if xlim is not None:
        if isinstance(xlim, (str, bytes)) or not isinstance(xlim, (Sequence, np.ndarray)) or len(xlim) != 2:
            raise TypeError(f"xlim must be a pair (low, high) of scores, got {xlim!r}")
        low = check_real("xlim[0]", xlim[0], low=0.0 if log else None, low_inclusive=False)
        high = check_real("xlim[1]", xlim[1], low=low, low_inclusive=False)
        xlim = (low, high)
    axes = panel_axes(ax, 2, figsize=(9.6, 3.6), sharex=True)
    plot_rate_vs_score(y_true_folds, y_score_folds, rate="fpr", ax=axes[0], log=log)
    plot_rate_vs_score(y_true_folds, y_score_folds, rate="tpr", ax=axes[1], log=log)
    if xlim is not None:
        for a in axes:  # both, also when the caller's axes are not shared
            a.set_xlim(xlim)
    axes[0].set_title("(a) false positive rate vs score")
    axes[1].set_title("(b) true positive rate vs score")
    return axes[0].figure


def plot_fold_rocs(y_true_folds, y_score_folds, *, ax=None):
    """Each fold's ROC curve and the merged ROC curve, AUCs in the legend.

    Returns
    -------
    matplotlib Axes
    """
    plt = require("matplotlib.pyplot")

    y_true_folds, y_score_folds = check_fold_lists(y_true_folds, y_score_folds)
    ax = plt.gca() if ax is None else ax
    for i, (t, s) in enumerate(zip(y_true_folds, y_score_folds, strict=True)):
        try:
            fpr, tpr, _ = roc_curve(t, s)
        except (ValueError, TypeError) as err:
            raise type(err)(f"fold {i + 1} (index {i}): {err}") from None
        ax.plot(
            fpr * 100,
            tpr * 100,
            color=_FOLD_COLORS[i % len(_FOLD_COLORS)],
            lw=1,
            label=f"fold {i + 1}: AUC {percent(roc_auc(t, s), decimals=1)}",
        )
    t, s = np.concatenate(y_true_folds), np.concatenate(y_score_folds)  # TODO(issue 20): study on kernels
    fpr, tpr, _ = roc_curve(t, s)
    ax.plot(
        fpr * 100, tpr * 100, color="black", lw=2.2, label=f"merged: AUC_merge {percent(roc_auc(t, s), decimals=1)}"
    )
    ax.plot([0, 100], [0, 100], color="grey", lw=0.8, ls=":")
    ax.set(xlabel="False positive rate (%)", ylabel="True positive rate (%)", xlim=(-1, 101), ylim=(-1, 101))
    ax.legend(loc="lower right")
    return ax


_F_LEVELS = np.arange(0.1, 1.0, 0.1)  # the default contour levels of plot_f_precision_recall


def plot_f_precision_recall(*, ax=None, levels=_F_LEVELS):
    """Figure 1a as a contour map: F1 over precision × recall (both in %)."""
    ax = require("matplotlib.pyplot").gca() if ax is None else ax
    p = np.linspace(0, 1, 201)
    P, R = np.meshgrid(p, p)
    F = divide(2 * P * R, P + R, undefined="zero", what="F at precision = recall = 0")  # eq. (1), limit 0
    cs = ax.contourf(100 * P, 100 * R, 100 * F, levels=np.linspace(0, 100, 11))
    lines = ax.contour(100 * P, 100 * R, 100 * F, levels=100 * levels, colors="white", linewidths=0.7)
    # labels on the diagonal Pr = Re, where F equals the level itself
    ax.clabel(lines, fmt="%d%%", fontsize=8, manual=[(100 * v, 100 * v) for v in levels])
    ax.figure.colorbar(cs, ax=ax, label="F-measure (%)", ticks=np.arange(0, 101, 10))
    ax.set(xlabel="Precision (%)", ylabel="Recall (%)", aspect="equal")
    ax.grid(False)
    return ax


def plot_f_rates(*, ax=None, prior: float = 0.01, max_fpr: float = 1.0, log_fpr: bool = False, min_fpr: float = 1e-4):
    """Figure 1b as a contour map: F1 over FPR × TPR (both in %) at ``prior`` positives.

    At a low prior almost all of the map above F = 50 % lies at tiny false positive rates;
    ``log_fpr=True`` draws the FPR axis from ``min_fpr`` to ``max_fpr`` on a log scale so that
    region can be read.
    """
    ax = require("matplotlib.pyplot").gca() if ax is None else ax
    log_fpr = check_bool("log_fpr", log_fpr)
    max_fpr = check_real("max_fpr", max_fpr, low=0.0, high=1.0, low_inclusive=False)
    min_fpr = check_real("min_fpr", min_fpr, low=0.0, high=max_fpr, low_inclusive=False, high_inclusive=False)
    tpr = np.linspace(0, 1, 201)
    fpr = np.geomspace(min_fpr, max_fpr, 401) if log_fpr else np.linspace(0, max_fpr, 401)
    FPR, TPR = np.meshgrid(fpr, tpr)
    F = f_from_rates(TPR, FPR, prior=prior)
    cs = ax.contourf(100 * FPR, 100 * TPR, 100 * F, levels=np.linspace(0, 100, 11))
    label_levels = [0.1, 0.2, 0.3, 0.5, 0.7, 0.9] if log_fpr else [0.1, 0.2, 0.3, 0.5]
    lines = ax.contour(
        100 * FPR, 100 * TPR, 100 * F, levels=[100 * v for v in label_levels], colors="white", linewidths=0.7
    )
    # place each label where its contour crosses TPR = 0.9 (or 0.45 if that is off the axis)
    low = min_fpr if log_fpr else 0.0
    spots = []
    for v in label_levels:
        for t in (0.9, 0.45):
            f = (2 * t * prior / v - t * prior - prior) / (1 - prior)
            if low < f < 0.95 * max_fpr:
                spots.append((100 * f, 100 * t))
                break
    ax.clabel(lines, fmt="%d%%", fontsize=8, manual=spots)
    ax.figure.colorbar(cs, ax=ax, label="F-measure (%)", ticks=np.arange(0, 101, 10))
    xlabel = "False positive rate (%, log scale)" if log_fpr else "False positive rate (%)"
    ax.set(xlabel=xlabel, ylabel="True positive rate (%)")
    if log_fpr:
        ax.set_xscale("log")
    ax.grid(False)
    return ax


def plot_f_of_tp(*, ax=None, positives: int = 4, fp: int = 1, expected_tp: float = 3.0):
    """F1 against TP for one fold, with the chord that shows concavity (§4.1).

    Marks F at ``expected_tp`` and at one TP fewer and one more: the loss
    from missing a true positive exceeds the gain from an extra one.
    """
    ax = require("matplotlib.pyplot").gca() if ax is None else ax
    t = np.linspace(0, positives, 400)
    ax.plot(t, 100 * f_of_tp(t, positives=positives, fp=fp), label=f"F(TP), {positives} positives, FP = {fp}")
    ks = np.arange(positives + 1)
    ax.plot(ks, 100 * f_of_tp(ks, positives=positives, fp=fp), "o", ms=4, color="C0")
    lo, hi = expected_tp - 1, expected_tp + 1
    f_lo, f_mid, f_hi = (100 * f_of_tp(x, positives=positives, fp=fp) for x in (lo, expected_tp, hi))
    ax.plot([lo, hi], [f_lo, f_hi], "--o", color="C3", ms=4, label="chord: mean of F(TP−1) and F(TP+1)")
    ax.plot(
        [expected_tp],
        [(f_lo + f_hi) / 2],
        "x",
        color="C3",
        ms=9,
        mew=2,
        label=f"chord midpoint: {(f_lo + f_hi) / 2:.1f} % < F({expected_tp:g}) = {f_mid:.1f} %",
    )
    ax.annotate(
        f"one TP fewer: −{f_mid - f_lo:.1f} points",
        (lo, f_lo),
        xytext=(10, -40),
        textcoords="offset points",
        arrowprops=dict(arrowstyle="->"),
    )
    ax.annotate(
        f"one TP more: +{f_hi - f_mid:.1f} points",
        (hi, f_hi),
        xytext=(-150, 25),
        textcoords="offset points",
        arrowprops=dict(arrowstyle="->"),
    )
    ax.set(
        xlabel="True positives in the fold (count)",
        ylabel="F-measure (%)",
        ylim=(0, 105),
        xticks=np.arange(positives + 1),
    )
    ax.legend(loc="lower right")
    return ax
