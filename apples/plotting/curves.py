"""Per-fold ROC and precision-recall curves with the merged curve and the vertically averaged one.

Each fold's curve is drawn thin; the merged curve (all folds' scores ranked together, the curve of AUC_merge)
and the vertical average (each fold's curve sampled at a common FPR, or recall, and averaged: Fawcett 2006
§7.1) are drawn over them, with a band of ±1 standard deviation over the folds. The legend gives the number to
report: AUC_avg, the mean of the fold AUCs (Forman & Scholz 2010 §3: AUC_merge mixes the folds' calibrations and
can be far from it), and AP averaged per fold (§3.2, "Mean Average Precision" must be computed per fold).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from apples._kernels.counting import codes_of
from apples._kernels.curves import pr_points, precision_at_recall, tpr_at_fpr
from apples._kernels.ranking import CumulativeCounts, ap_from_counts, auc_from_counts, cumulative_counts, roc_points
from apples._kernels.rounding import percent_text
from apples._optional import require
from apples._params import (
    FOLD_IDS,
    LABEL,
    LABELS,
    SCORES,
    Integer,
    ParameterValueError,
    SameLength,
    TwoClasses,
    declare,
)

if TYPE_CHECKING:  # matplotlib is optional (the notebooks extra)
    from matplotlib.axes import Axes

__all__ = ["plot_cv_precision_recall", "plot_cv_roc"]

#: Folds drawn one colour each (up to ten legend entries; more folds share one entry).
FOLD_COLORS = ("#1f77b4", "#2ca02c", "#d62728", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22")
_MAX_FOLD_ENTRIES = 10
_CURVES = {"y_true": LABELS, "y_score": SCORES, "folds": FOLD_IDS, "pos_label": LABEL, "n_grid": Integer(2, 100_000)}
_CURVE_RULES = [SameLength("y_true", "y_score", "folds"), TwoClasses("pos_label", "y_true")]


def _fold_counts(
    y_true: Any, y_score: Any, folds: Any, pos_label: Hashable, *, need: str
) -> tuple[list, list[CumulativeCounts], CumulativeCounts]:
    """Each fold's id and cumulative counts, and the merged counts; a fold without the class ``need``s refused."""
    t = np.asarray(y_true)
    if t.size == 0:
        raise ParameterValueError("y_true is empty: there are no cases, hence no folds", param="y_true")
    positive = t == pos_label
    scores = np.asarray(y_score)
    ids, code = codes_of(np.asarray(folds))
    names = [v.item() if isinstance(v, np.generic) else v for v in ids]
    counts = []
    for i, fold in enumerate(names):
        rows = code == i
        c = cumulative_counts(positive[rows], scores[rows])
        lacking = "positives" if c.n_pos == 0 else "negatives" if c.n_neg == 0 and need == "both classes" else None
        if lacking is not None:
            raise ParameterValueError(
                f"fold {fold!r} has no {lacking}: its {'ROC' if need == 'both classes' else 'precision-recall'} "
                f"curve is 0/0 (every fold needs {need}; with leave-one-out or tiny folds draw the merged curve "
                "alone, e.g. with apples.roc_curve)",
                param="folds",
            )
        counts.append(c)
    return names, counts, cumulative_counts(positive, scores)


def _legend(ax: Axes) -> None:
    """The legend beside the plot, off the data."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, fontsize="small")


def _fold_label(i: int, fold: Any, value: float, what: str, k: int) -> str | None:
    if k <= _MAX_FOLD_ENTRIES:
        return f"fold {fold!r}: {what} {percent_text(value, decimals=1)}"
    return f"each of the {k} folds" if i == 0 else None


@declare(**_CURVES, relations=_CURVE_RULES)
def plot_cv_roc(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    folds: ArrayLike,
    pos_label: Hashable = 1,
    n_grid: int = 101,
    ax: Axes | None = None,
) -> Axes:
    """The ROC curve of each fold, the merged curve and the vertical average, labelled with AUC_avg.

    The vertical average samples each fold's ROC curve at ``n_grid`` equally spaced false positive rates and
    averages the true positive rates (Fawcett 2006 §7.1, Algorithm 3: at an FPR where a fold's curve steps up,
    the top of the step; between its points, the straight line), with a band of ±1 standard deviation over
    the folds. The number to report is AUC_avg, the mean of the folds' AUCs (Forman & Scholz 2010 §3, and the
    area under the vertical average up to the grid's resolution); AUC_merge, of the merged curve, is shown
    beside it because the two differ when the folds' scores are calibrated differently (§3.2).

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels (two classes, both in every fold) and scores (higher = more positive) of every case.
    folds : array-like of shape (n,)
        The fold id of each case.
    pos_label : label, default 1
        The positive class.
    n_grid : int, default 101
        The number of false positive rates, from 0 to 1, at which the folds' curves are averaged.
    ax : matplotlib Axes, optional
        Where to draw; the current Axes by default.

    Returns
    -------
    matplotlib Axes

    Raises
    ------
    ValueError
        If a fold holds one class only (its ROC curve is 0/0), naming the fold.

    References
    ----------
    Fawcett (2006) "An introduction to ROC analysis", Pattern Recognition Letters 27, §7.1; Forman & Scholz
    (2010) §3 (AUC_avg against AUC_merge).
    """
    plt = require("matplotlib.pyplot")
    ax = plt.gca() if ax is None else ax
    names, counts, merged = _fold_counts(y_true, y_score, folds, pos_label, need="both classes")
    grid = np.linspace(0.0, 1.0, n_grid)
    k = len(names)
    sampled = np.empty((k, n_grid))
    aucs = np.empty(k)
    for i, (fold, c) in enumerate(zip(names, counts, strict=True)):
        fpr, tpr, _ = roc_points(c)
        aucs[i] = auc_from_counts(c)
        sampled[i] = tpr_at_fpr(fpr, tpr, grid)
        label = _fold_label(i, fold, aucs[i], "AUC", k)
        ax.plot(fpr * 100, tpr * 100, color=FOLD_COLORS[i % len(FOLD_COLORS)], lw=0.9, alpha=0.6, label=label)
    mean, sd = sampled.mean(axis=0), sampled.std(axis=0)
    ax.fill_between(
        grid * 100, np.clip(mean - sd, 0, 1) * 100, np.clip(mean + sd, 0, 1) * 100, color="C0", alpha=0.15,
        label="±1 SD over folds",
    )  # fmt: skip
    ax.plot(
        grid * 100, mean * 100, color="C0", lw=2.4,
        label=f"vertical average: AUC_avg {percent_text(float(aucs.mean()), decimals=1)} (report this)",
    )  # fmt: skip
    fpr, tpr, _ = roc_points(merged)
    ax.plot(
        fpr * 100, tpr * 100, color="black", lw=1.6, ls="--",
        label=f"merged: AUC_merge {percent_text(auc_from_counts(merged), decimals=1)}",
    )  # fmt: skip
    ax.plot([0, 100], [0, 100], color="grey", lw=0.8, ls=":", label="chance")
    ax.set(
        xlabel="False positive rate (%)",
        ylabel="True positive rate (%)",
        xlim=(-1, 101),
        ylim=(-1, 101),
        title=f"ROC curves of {k} folds (vertical average: Fawcett 2006 §7.1)",
    )
    _legend(ax)
    return ax


@declare(**_CURVES, relations=_CURVE_RULES)
def plot_cv_precision_recall(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    folds: ArrayLike,
    pos_label: Hashable = 1,
    n_grid: int = 101,
    ax: Axes | None = None,
) -> Axes:
    """The precision-recall curve of each fold, the merged curve and the average at fixed recall, labelled
    with the average precision averaged over folds.

    A precision-recall curve is a step function of recall: the precision of recall ``r`` is that of the first
    threshold whose recall reaches ``r`` (the steps whose area is the average precision,
    ``AP = Σ (R_t - R_{t-1}) P_t``). Each fold's curve is sampled at ``n_grid`` recalls from 0 to 1 and the
    precisions averaged (vertical averaging, Fawcett 2006 §7.1, with recall on the horizontal axis), with a
    band of ±1 standard deviation. The number to report is AP averaged per fold (Forman & Scholz 2010 §3.2:
    "Mean Average Precision" must be computed per fold); AP_merge, of the merged curve, is shown beside it.
    The horizontal line is the pooled prevalence, a random ranking's precision.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels (positives in every fold) and scores (higher = more positive) of every case.
    folds : array-like of shape (n,)
        The fold id of each case.
    pos_label : label, default 1
        The positive class.
    n_grid : int, default 101
        The number of recalls, from 0 to 1, at which the folds' curves are averaged.
    ax : matplotlib Axes, optional
        Where to draw; the current Axes by default.

    Returns
    -------
    matplotlib Axes

    Raises
    ------
    ValueError
        If a fold holds no positives (its recall is 0/0), naming the fold.

    References
    ----------
    Forman & Scholz (2010) §3.2; Fawcett (2006) §7.1; Davis & Goadrich (2006) "The relationship between
    precision-recall and ROC curves", ICML (why precision is not interpolated linearly between points).
    """
    plt = require("matplotlib.pyplot")
    ax = plt.gca() if ax is None else ax
    names, counts, merged = _fold_counts(y_true, y_score, folds, pos_label, need="positives")
    grid = np.linspace(0.0, 1.0, n_grid)
    k = len(names)
    sampled = np.empty((k, n_grid))
    aps = np.empty(k)
    for i, (fold, c) in enumerate(zip(names, counts, strict=True)):
        recall, precision = pr_points(c.tp, c.fp, c.n_pos)
        aps[i] = ap_from_counts(c)
        sampled[i] = precision_at_recall(recall, precision, grid)
        label = _fold_label(i, fold, aps[i], "AP", k)
        ax.step(
            np.r_[0.0, recall] * 100, np.r_[precision[0], precision] * 100, where="pre",
            color=FOLD_COLORS[i % len(FOLD_COLORS)], lw=0.9, alpha=0.6, label=label,
        )  # fmt: skip
    mean, sd = sampled.mean(axis=0), sampled.std(axis=0)
    ax.fill_between(
        grid * 100, np.clip(mean - sd, 0, 1) * 100, np.clip(mean + sd, 0, 1) * 100, color="C0", alpha=0.15,
        label="±1 SD over folds",
    )  # fmt: skip
    ax.plot(
        grid * 100, mean * 100, color="C0", lw=2.4,
        label=f"average at fixed recall: AP averaged over folds {percent_text(float(aps.mean()), decimals=1)} "
        "(report this)",
    )  # fmt: skip
    recall, precision = pr_points(merged.tp, merged.fp, merged.n_pos)
    ax.step(
        np.r_[0.0, recall] * 100, np.r_[precision[0], precision] * 100, where="pre", color="black", lw=1.6,
        ls="--", label=f"merged: AP_merge {percent_text(ap_from_counts(merged), decimals=1)}",
    )  # fmt: skip
    prevalence = merged.n_pos / (merged.n_pos + merged.n_neg)
    ax.axhline(
        prevalence * 100,
        color="grey",
        lw=0.8,
        ls=":",
        label=f"chance: prevalence {percent_text(prevalence, decimals=1)}",
    )
    ax.set(
        xlabel="Recall (%)",
        ylabel="Precision (%)",
        xlim=(-1, 101),
        ylim=(-1, 101),
        title=f"Precision-recall curves of {k} folds (averaged at fixed recall)",
    )
    _legend(ax)
    return ax
