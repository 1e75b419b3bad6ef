"""The reliability diagram of cross-validated probabilities: each fold's and each repeat's pooled one.

In each bin of predicted probability, the observed frequency of the positive class against the mean
prediction (Murphy & Winkler 1977; DeGroot & Fienberg 1983); a calibrated classifier lies on the diagonal.
Folds calibrated differently are what makes AUC_merge differ from AUC_avg (Forman & Scholz 2010 §3.2), so
each fold is drawn beside the pooled curve, whose Brier score and log loss the legend gives. The bins are those
of :func:`apples.cv.reliability_table`, from the same computation.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from apples._kernels.rounding import half_up
from apples._optional import require
from apples._params import LABEL, Integer, Nullable, Options, declare
from apples.cv._one_vs_rest import LabelReliability, binary_problems, label_reliability, repeat_folds
from apples.cv.predictions import CV_PREDICTIONS, CVPredictions
from apples.plotting._panels import legend_below, legend_beside, panel_grid, shown
from apples.plotting.curves import FOLD_COLORS, MAX_ENTRIES, design_phrase
from apples.plotting.style import PANEL_AXES, escape_mathtext

if TYPE_CHECKING:  # matplotlib is optional (the notebooks extra)
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["plot_reliability"]


def _decimal(value: float, digits: int = 3) -> str:
    """A loss for the legend, halves rounded up (inf stays inf)."""
    return str(half_up(value, digits=digits)) if np.isfinite(value) else "inf"


def _losses(brier: float, log_loss: float) -> str:
    return f"Brier {_decimal(brier)}, log loss {_decimal(log_loss)}"


def _draw(ax: Axes, p: CVPredictions, table: LabelReliability, detailed: bool) -> tuple[float, float]:
    """Draw one label's diagram; returns the Brier score and log loss it reports (the mean over the repeats of
    each repeat's pooled value)."""
    reps = table.repeats
    brier = float(np.mean([rules.pooled_brier for _, _, rules in reps]))
    log_loss = float(np.mean([rules.pooled_log_loss for _, _, rules in reps]))
    holdout = "hold-out" in p.design
    by_fold = len(reps) == 1 and not holdout
    for j, (part, r, rules) in enumerate(reps):
        k = len(part.fold_ids)
        for i, fold in enumerate(part.fold_ids):
            filled = r.size[i] > 0
            if holdout:  # one test set per split: the split is its own pool
                label: str | None = None
                if p.n_repeats == 1:
                    label = "the hold-out test set"
                elif len(reps) <= MAX_ENTRIES:
                    label = f"split {shown(part.repeat)}"
                elif j == 0:
                    label = f"each of the {len(reps)} hold-out splits"
                if detailed and (p.n_repeats == 1 or len(reps) <= MAX_ENTRIES):  # an entry of its own
                    label = f"{label}: {_losses(rules.pooled_brier, rules.pooled_log_loss)}"
                style = {"lw": 1.4, "alpha": 0.8, "marker": "o", "markersize": 3}
            else:
                label = None
                if by_fold and k <= MAX_ENTRIES:
                    label = f"fold {shown(fold)}"
                elif by_fold and i == 0:
                    label = f"each of the {k} folds"
                elif not by_fold and i == 0 and len(reps) <= MAX_ENTRIES:
                    label = f"repeat {shown(part.repeat)}: its {k} folds"
                elif not by_fold and i == 0 and j == 0:
                    label = f"the folds of each of the {len(reps)} repeats (a colour each)"
                style = {"lw": 0.9, "alpha": 0.6, "marker": "."}
            ax.plot(
                r.mean_predicted[i][filled] * 100,
                r.observed[i][filled] * 100,
                color=FOLD_COLORS[(i if by_fold else j) % len(FOLD_COLORS)],
                label=None if label is None else escape_mathtext(label),
                **style,  # type: ignore[arg-type]
            )
    for j, (part, r, rules) in enumerate(reps):  # each repeat's pool over its folds, drawn on top of them
        if holdout:
            continue
        filled = r.pooled_size > 0
        numbers = f": {_losses(rules.pooled_brier, rules.pooled_log_loss)}" if detailed else ""
        if len(reps) == 1:
            color, label = "black", f"pooled{numbers}"
        else:
            color = FOLD_COLORS[j % len(FOLD_COLORS)]
            label = None
            if len(reps) <= MAX_ENTRIES:
                label = f"repeat {shown(part.repeat)} pooled{numbers}"
            elif j == 0:
                overall = f": mean {_losses(brier, log_loss)} over the {len(reps)} repeats" if detailed else ""
                label = f"each repeat's pooled curve{overall}"
        ax.plot(
            r.pooled_mean_predicted[filled] * 100,
            r.pooled_observed[filled] * 100,
            color=color,
            lw=2.0,
            marker="o",
            label=None if label is None else escape_mathtext(label),
        )
    ax.plot([0, 100], [0, 100], color="grey", lw=0.8, ls=":", label="perfectly calibrated")
    ax.set(
        xlabel="Mean predicted probability (%)",
        ylabel="Observed frequency of the label (%)"
        if table.problem.one_vs_rest
        else "Observed frequency of the positive class (%)",
        xlim=(-1, 101),
        ylim=(-1, 101),
    )
    return brier, log_loss


@declare(
    predictions=CV_PREDICTIONS,
    label=Nullable(LABEL),
    repeat=Nullable(LABEL),
    n_bins=Integer(1, 10_000),
    strategy=Options("uniform", "quantile"),
    ax=Nullable(PANEL_AXES),
)
def plot_reliability(
    predictions: CVPredictions,
    *,
    label: Hashable | None = None,
    repeat: Hashable | None = None,
    n_bins: int = 10,
    strategy: Literal["uniform", "quantile"] = "uniform",
    ax: Axes | Any | None = None,
) -> Axes | Figure:
    """Reliability diagram: observed frequency against mean predicted probability, per fold and pooled per
    repeat; one panel per label (against the rest) for multi-class and multi-label probabilities.

    The bins are those of :func:`apples.cv.reliability_table` (scikit-learn's ``calibration_curve``: a case
    is in bin ``i`` when ``edges[i] < p <= edges[i + 1]``); an empty bin is not drawn. Each row counts its
    ``predictions.sample_weight``: a bin's point is the weighted mean prediction against the weighted share of
    positives. Every fold of every repeat is drawn (a colour per fold with one repeat, per repeat with several),
    with each repeat's pooled curve, or one repeat's with ``repeat=``; a hold-out design (one test set per
    repeat) draws each split as one curve. The legend gives each pooled curve's Brier score and log loss, which
    for these two scoring rules equal the fold-size-weighted means of the fold values
    (:func:`apples.cv.scoring_rules_table`); in a grid of panels each title gives them, averaged over the
    repeats. Multi-class and multi-label: label ``c``'s panel bins each case's probability of ``c`` and counts
    the cases of ``c`` (one-vs-rest), and its Brier score and log loss are those of that binary problem, not the
    multi-class scoring rules.

    Parameters
    ----------
    predictions : CVPredictions
        Cross-validated probabilities as ``y_score`` (in [0, 1]): binary (the positive label's), multi-class or
        multi-label (one column per label), e.g. from :func:`apples.cross_val_predictions`.
    label : label, optional
        Draw this label against the rest only (one panel). Default: binary predictions draw their positive
        label; multi-class and multi-label predictions one panel per label.
    repeat : repeat id, optional
        Draw this repeat's folds only. Default: every repeat.
    n_bins : int, default 10
        The number of bins of predicted probability.
    strategy : {"uniform", "quantile"}, default "uniform"
        Bins of equal width, or holding equal numbers of (pooled) rows.
    ax : matplotlib Axes, or a sequence of them, optional
        Where to draw: one Axes for one panel (the current Axes by default), one Axes per panel for several (a
        new figure by default, panels three a row).

    Returns
    -------
    matplotlib Axes or Figure
        The Axes of a single panel; the Figure of several, whose one legend is below them.

    Raises
    ------
    ValueError
        Naming ``predictions`` if they have no ``y_score`` or a score outside [0, 1]; ``label`` or ``repeat`` if
        not among the predictions'; ``sample_weight`` if a fold's weights sum to 0; ``ax`` if it does not hold
        one Axes per panel.
    TypeError
        Naming ``ax`` if it is not a matplotlib Axes (or a sequence of them).

    References
    ----------
    Murphy & Winkler (1977) Applied Statistics 26; DeGroot & Fienberg (1983) The Statistician 32; Forman &
    Scholz (2010) §3.2 (calibration across folds).
    """
    require("matplotlib.pyplot")
    p = predictions
    problems = binary_problems(p, label, probabilities=True)
    parts = repeat_folds(p, repeat, p.sample_weight)
    tables = [label_reliability(problem, parts, n_bins, strategy) for problem in problems]
    axes, fig = panel_grid(ax, len(tables), "label")
    phrase = design_phrase(p, parts)
    weighted = "; each case weighted by its sample_weight" if p.sample_weight is not None else ""
    for a, table in zip(axes, tables, strict=True):
        brier, log_loss = _draw(a, p, table, fig is None)
        vs = f"{shown(table.problem.label)} vs rest" if table.problem.one_vs_rest else ""
        if fig is None:
            what = f"{vs}: reliability" if vs else "Reliability"
            a.set_title(escape_mathtext(f"{what} of {phrase}\n({strategy} bins{weighted})"))
            legend_beside(a)
        else:
            mean = " (mean over repeats)" if len(parts) > 1 else ""
            a.set_title(escape_mathtext(f"{vs}\n{_losses(brier, log_loss)}{mean}"), fontsize="medium")
    if fig is None:
        return axes[0]
    fig.suptitle(
        escape_mathtext(f"One-vs-rest reliability of {phrase}, a panel per label\n({strategy} bins{weighted})")
    )
    legend_below(fig, axes[0])
    return fig
