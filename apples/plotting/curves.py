"""Per-fold ROC and precision-recall curves of cross-validated predictions, with each repeat's merged curve and
the vertical average over every fold drawn.

Each fold's curve is drawn thin; the merged curve of a repeat (its folds' scores ranked together, the curve of
AUC_merge) and the vertical average (each fold's curve sampled at a common FPR, or recall, and averaged:
Fawcett 2006 §7.1) are drawn over them, with a band of ±1 standard deviation over the folds. The legend gives the
number to report: AUC_avg, the mean of the fold AUCs (Forman & Scholz 2010 §3: AUC_merge mixes the folds'
calibrations and can be far from it), and AP averaged per fold (§3.2, "Mean Average Precision" must be computed
per fold). The predictions' repeats, weights and labels are all used: every fold of every repeat is drawn (or one
repeat's, ``repeat=``), each case counts its ``sample_weight``, and a multi-class or multi-label task gets one
panel per label, that label against the rest.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

import numpy as np

from apples._kernels.curves import curve_counts, pr_points, precision_at_recall, tpr_at_fpr, weighted_moments
from apples._kernels.ranking import fold_ranking
from apples._kernels.rounding import percent_text
from apples._optional import require
from apples._params import LABEL, Integer, Nullable, ParameterValueError, declare
from apples.cv._one_vs_rest import BinaryProblem, RepeatFolds, binary_problems, repeat_folds
from apples.cv.predictions import CV_PREDICTIONS, CVPredictions
from apples.plotting._panels import legend_below, legend_beside, panel_grid, shown
from apples.plotting.style import PANEL_AXES, escape_mathtext

if TYPE_CHECKING:  # matplotlib is optional (the notebooks extra)
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["plot_cv_precision_recall", "plot_cv_roc"]

#: Folds (or repeats) drawn one colour each.
FOLD_COLORS = ("#1f77b4", "#2ca02c", "#d62728", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22")
#: At most this many folds (or repeats) get a legend entry each; more share one entry.
MAX_ENTRIES = 10
_CURVES: dict[str, Any] = {
    "predictions": CV_PREDICTIONS,
    "label": Nullable(LABEL),
    "repeat": Nullable(LABEL),
    "n_grid": Integer(2, 100_000),
    "ax": Nullable(PANEL_AXES),
}
_Kind = Literal["roc", "pr"]


# -- what is drawn: one panel's curves, computed before anything is drawn ----------------------------------------------
class _Curve(NamedTuple):
    fold: Hashable  #: the fold id (None for a merged curve)
    x: np.ndarray  #: FPR or recall, in [0, 1]
    y: np.ndarray  #: TPR or precision, in [0, 1]
    value: float  #: its AUC or average precision


class _Repeat(NamedTuple):
    part: RepeatFolds
    folds: list[_Curve]
    sampled: np.ndarray  #: each fold's curve on the common grid, shape (k, n_grid)
    merged: _Curve | None  #: the repeat's folds merged (None for a hold-out split: one fold is its own merge)


class _Panel(NamedTuple):
    problem: BinaryProblem
    repeats: list[_Repeat]
    prevalence: float  #: the (weighted) share of positives over the rows drawn


def design_phrase(p: CVPredictions, parts: list[RepeatFolds]) -> str:
    """What was drawn, in words: "30 folds (10 folds × 3 repeats)", "5 hold-out splits", "the 10 folds of
    repeat 2 (of 3)" (user text unescaped)."""
    sizes = [len(part.fold_ids) for part in parts]
    n = sum(sizes)
    if "hold-out" in p.design:
        if p.n_repeats == 1:
            return "the hold-out test set"
        if len(parts) == 1:
            return f"hold-out split {shown(parts[0].repeat)} (of {p.n_repeats} splits)"
        return f"{n} hold-out splits (one test set each)"
    if p.n_repeats == 1:
        return f"{n} folds (leave-one-out)" if p.design == "leave-one-out" else f"{n} folds"
    if len(parts) == 1:
        return f"the {n} folds of repeat {shown(parts[0].repeat)} (of {p.n_repeats} repeats)"
    if len(set(sizes)) == 1:
        return f"{n} folds ({sizes[0]} folds × {len(parts)} repeats)"
    return f"{n} folds ({' + '.join(str(k) for k in sizes)} folds in {len(parts)} repeats)"


def _where(p: CVPredictions, part: RepeatFolds, problem: BinaryProblem) -> str:
    of_repeat = f" of repeat {part.repeat!r}" if p.repeats is not None else ""
    return of_repeat + (f" (label {problem.label!r} against the rest)" if problem.one_vs_rest else "")


def _points(kind: _Kind, positive: np.ndarray, score: np.ndarray, weights: np.ndarray | None) -> tuple | None:
    """The curve's points (x, y) and the function sampling it on a grid; None when it is 0/0."""
    c = curve_counts(positive, score, weights)
    if kind == "roc":
        if not (c.n_pos > 0 and c.n_neg > 0):
            return None
        fpr, tpr = np.r_[0.0, c.fp] / c.n_neg, np.r_[0.0, c.tp] / c.n_pos
        return fpr, tpr, lambda grid: tpr_at_fpr(fpr, tpr, grid)
    if not c.n_pos > 0:
        return None
    recall, precision = pr_points(c.tp, c.fp, c.n_pos)
    return (
        np.r_[0.0, recall],
        np.r_[precision[0], precision],
        lambda grid: precision_at_recall(recall, precision, grid),
    )


def _panel(kind: _Kind, p: CVPredictions, problem: BinaryProblem, parts: list[RepeatFolds], grid: np.ndarray) -> _Panel:
    holdout = "hold-out" in p.design
    repeats = []
    positive_weight = total_weight = 0.0
    for part in parts:
        positive, score, w = problem.positive[part.rows], problem.score[part.rows], part.weights
        k = len(part.fold_ids)
        ranking = fold_ranking(positive, score, part.fold_codes, k, weights=w)
        values = ranking.auc if kind == "roc" else ranking.ap
        folds, sampled = [], np.empty((k, grid.size))
        for f, fold in enumerate(part.fold_ids):
            rows = part.fold_codes == f
            drawn = _points(kind, positive[rows], score[rows], None if w is None else w[rows])
            if drawn is None:
                has_pos = bool(positive[rows].any())
                what = f"cases of label {problem.label!r}" if problem.one_vs_rest else "positives"
                if has_pos:
                    what = "cases of another label" if problem.one_vs_rest else "negatives"
                curve = "ROC curve" if kind == "roc" else "precision-recall curve"
                hint = "; give label= to draw another label" if problem.one_vs_rest else ""
                raise ParameterValueError(
                    f"fold {fold!r}{_where(p, part, problem)} has no {what}: its {curve} is 0/0 (every fold needs "
                    f"{'both classes' if kind == 'roc' else 'positives'}; with leave-one-out or tiny folds draw the "
                    f"merged curve alone, e.g. with apples.roc_curve){hint}",
                    param="predictions",
                )
            x, y, sample = drawn
            sampled[f] = sample(grid)
            folds.append(_Curve(fold, x, y, float(values[f])))
        merged = None
        if not holdout:
            x, y, _ = _points(kind, positive, score, w) or (None, None, None)  # folds with a class: so has the merge
            merged = _Curve(None, x, y, ranking.auc_merge if kind == "roc" else ranking.ap_merge)
        repeats.append(_Repeat(part, folds, sampled, merged))
        positive_weight += float(positive.sum() if w is None else w[positive].sum())
        total_weight += float(positive.size if w is None else w.sum())
    return _Panel(problem, repeats, positive_weight / total_weight)


def _fold_weights(panel: _Panel) -> np.ndarray:
    """Each fold's weight in the average over folds: each repeat counts alike, each fold alike within its repeat
    (the mean of the repeats' means, as :func:`apples.report` averages repeats)."""
    r = len(panel.repeats)
    return np.concatenate([np.full(len(rep.folds), 1.0 / (r * len(rep.folds))) for rep in panel.repeats])


# -- drawing ------------------------------------------------------------------------------------------------------
_NAMES = {
    "roc": {"value": "AUC", "avg": "AUC_avg", "merge": "AUC_merge", "curves": "ROC curves"},
    "pr": {"value": "AP", "avg": "AP averaged over folds", "merge": "AP_merge", "curves": "Precision-recall curves"},
}


def _pct(value: float) -> str:
    return percent_text(value, decimals=1) if np.isfinite(value) else "undefined"


def _fold_entries(p: CVPredictions, panel: _Panel, kind: _Kind, detailed: bool) -> list[list[str | None]]:
    """The legend entry of each fold of each repeat (None: no entry of its own)."""
    value = _NAMES[kind]["value"]
    reps = panel.repeats
    out: list[list[str | None]] = []
    for j, rep in enumerate(reps):
        k = len(rep.folds)
        entries: list[str | None] = [None] * k
        if "hold-out" in p.design:
            number = f": {value} {_pct(rep.folds[0].value)}" if detailed else ""
            if p.n_repeats == 1:
                entries[0] = f"the hold-out test set{number}"
            elif len(reps) <= MAX_ENTRIES:
                entries[0] = f"split {shown(rep.part.repeat)}{number}"
            elif j == 0:
                entries[0] = f"each of the {len(reps)} hold-out splits"
        elif len(reps) == 1:
            for i, fold in enumerate(rep.folds):
                if k <= MAX_ENTRIES:
                    entries[i] = f"fold {shown(fold.fold)}" + (f": {value} {_pct(fold.value)}" if detailed else "")
                elif i == 0:
                    entries[i] = f"each of the {k} folds"
        elif len(reps) <= MAX_ENTRIES:
            mean = float(np.mean([fold.value for fold in rep.folds]))
            entries[0] = f"repeat {shown(rep.part.repeat)}: its {k} folds" + (
                f" (mean {value} {_pct(mean)})" if detailed else ""
            )
        elif j == 0:
            entries[0] = f"the folds of each of the {len(reps)} repeats (a colour each)"
        out.append(entries)
    return out


def _draw(ax: Axes, kind: _Kind, p: CVPredictions, panel: _Panel, grid: np.ndarray, detailed: bool) -> dict:
    """Draw one panel; returns its numbers (the average to report, the merged value, the prevalence)."""
    names = _NAMES[kind]
    reps = panel.repeats
    by_fold = len(reps) == 1 and "hold-out" not in p.design  # a colour per fold, else a colour per repeat
    entries = _fold_entries(p, panel, kind, detailed)
    for j, rep in enumerate(reps):
        for i, fold in enumerate(rep.folds):
            color = FOLD_COLORS[(i if by_fold else j) % len(FOLD_COLORS)]
            label = entries[j][i]
            style: dict[str, Any] = {
                "color": color,
                "lw": 0.9,
                "alpha": 0.6,
                "label": None if label is None else escape_mathtext(label),
            }
            if kind == "roc":
                ax.plot(fold.x * 100, fold.y * 100, **style)
            else:
                ax.step(fold.x * 100, fold.y * 100, where="pre", **style)
    weights = _fold_weights(panel)
    values = np.array([fold.value for rep in reps for fold in rep.folds])
    average = float(np.sum(weights * values))
    n_folds = values.size
    phrase = design_phrase(p, [rep.part for rep in reps])
    if n_folds > 1:
        mean, sd = weighted_moments(np.concatenate([rep.sampled for rep in reps]), weights)
        ax.fill_between(
            grid * 100, np.clip(mean - sd, 0, 1) * 100, np.clip(mean + sd, 0, 1) * 100, color="C0", alpha=0.15,
            label=escape_mathtext(f"±1 SD over the {n_folds} {'splits' if 'hold-out' in p.design else 'folds'}"),
        )  # fmt: skip
        how = "vertical average" if kind == "roc" else "average at fixed recall"
        label = f"{how} of {phrase}: {names['avg']} {_pct(average)} (report this)" if detailed else f"{how} (report it)"
        ax.plot(grid * 100, mean * 100, color="C0", lw=2.4, label=escape_mathtext(label))
    merged = [rep.merged for rep in reps if rep.merged is not None]
    for j, rep in enumerate(reps):
        if rep.merged is None:
            continue
        if len(reps) == 1:
            color, lw = "black", 1.6
            label = f"merged: {names['merge']} {_pct(rep.merged.value)}" if detailed else "merged"
        else:
            color, lw = FOLD_COLORS[j % len(FOLD_COLORS)], 1.3
            label = None
            if len(reps) <= MAX_ENTRIES:
                number = f": {names['merge']} {_pct(rep.merged.value)}" if detailed else ""
                label = f"repeat {shown(rep.part.repeat)} merged{number}"
            elif j == 0:
                mean_merge = float(np.mean([m.value for m in merged]))
                number = f": mean {names['merge']} {_pct(mean_merge)} over the {len(reps)} repeats" if detailed else ""
                label = f"each repeat's merged curve (dashed){number}"
        style = {
            "color": color,
            "lw": lw,
            "ls": "--",
            "label": None if label is None else escape_mathtext(label),
        }
        if kind == "roc":
            ax.plot(rep.merged.x * 100, rep.merged.y * 100, **style)
        else:
            ax.step(rep.merged.x * 100, rep.merged.y * 100, where="pre", **style)
    if kind == "roc":
        ax.plot([0, 100], [0, 100], color="grey", lw=0.8, ls=":", label="chance")
    else:
        chance = f"chance: prevalence {_pct(panel.prevalence)}" if detailed else "chance: the prevalence"
        ax.axhline(panel.prevalence * 100, color="grey", lw=0.8, ls=":", label=escape_mathtext(chance))
    ax.set(
        xlabel="False positive rate (%)" if kind == "roc" else "Recall (%)",
        ylabel="True positive rate (%)" if kind == "roc" else "Precision (%)",
        xlim=(-1, 101),
        ylim=(-1, 101),
    )
    merged_value = float(np.mean([m.value for m in merged])) if merged else float("nan")
    return {"average": average, "merged": merged_value, "n_merged": len(merged), "phrase": phrase}


def _subtitle(kind: _Kind, p: CVPredictions, parts: list) -> str:
    """The second line of a title: how the folds are averaged (when there are several), whether cases are weighted."""
    notes = []
    if sum(len(part.fold_ids) for part in parts) > 1:
        notes.append("vertical average: Fawcett 2006 §7.1" if kind == "roc" else "averaged at fixed recall")
    if p.sample_weight is not None:
        notes.append("each case weighted by its sample_weight")
    return f"({'; '.join(notes)})" if notes else ""


def _plot(
    kind: _Kind, p: CVPredictions, label: Hashable | None, repeat: Hashable | None, n_grid: int, ax: Any
) -> Axes | Figure:
    require("matplotlib.pyplot")
    problems = binary_problems(p, label, probabilities=False)
    parts = repeat_folds(p, repeat, p.sample_weight)
    grid = np.linspace(0.0, 1.0, n_grid)
    panels = [_panel(kind, p, problem, parts, grid) for problem in problems]  # every refusal before any drawing
    axes, fig = panel_grid(ax, len(panels), "label")
    names = _NAMES[kind]
    detailed = fig is None
    for a, panel in zip(axes, panels, strict=True):
        numbers = _draw(a, kind, p, panel, grid, detailed)
        vs = f"{shown(panel.problem.label)} vs rest" if panel.problem.one_vs_rest else ""
        if detailed:
            head = f"{vs}: " if vs else ""
            a.set_title(
                escape_mathtext(f"{head}{names['curves']} of {numbers['phrase']}\n{_subtitle(kind, p, parts)}".strip())
            )
            legend_beside(a)
        else:
            short = names["avg"] if kind == "roc" else "AP_avg"
            numbers_line = f"{short} {_pct(numbers['average'])}"
            if numbers["n_merged"]:
                merge = names["merge"] if numbers["n_merged"] == 1 else f"mean {names['merge']}"
                numbers_line += f", {merge} {_pct(numbers['merged'])}"
            head = vs + (f" (prevalence {_pct(panel.prevalence)})" if kind == "pr" else "")
            a.set_title(escape_mathtext(f"{head}\n{numbers_line}"), fontsize="medium")
    if fig is None:
        return axes[0]
    phrase = design_phrase(p, parts)
    fig.suptitle(
        escape_mathtext(
            f"One-vs-rest {names['curves'].lower()} of {phrase}, a panel per label\n{_subtitle(kind, p, parts)}".strip()
        )
    )
    legend_below(fig, axes[0])
    return fig


@declare(**_CURVES)
def plot_cv_roc(
    predictions: CVPredictions,
    *,
    label: Hashable | None = None,
    repeat: Hashable | None = None,
    n_grid: int = 101,
    ax: Axes | Any | None = None,
) -> Axes | Figure:
    """The ROC curve of every fold of every repeat, each repeat's merged curve and the vertical average over all
    folds, labelled with AUC_avg; one panel per label (against the rest) for multi-class and multi-label tasks.

    The vertical average samples each fold's ROC curve at ``n_grid`` equally spaced false positive rates and
    averages the true positive rates (Fawcett 2006 §7.1, Algorithm 3: at an FPR where a fold's curve steps up,
    the top of the step; between its points, the straight line), with a band of ±1 standard deviation over
    the folds. With repeats, every fold of every repeat is averaged, each repeat counting alike (a fold weighs
    ``1 / (repeats × its repeat's folds)``), and the legend says so: "30 folds (10 folds × 3 repeats)". The
    number to report is AUC_avg, the mean of the folds' AUCs (the mean over repeats of each repeat's mean, as
    :func:`apples.report` gives it; Forman & Scholz 2010 §3) and, up to the grid's resolution, the area under
    the vertical average. AUC_merge, of a repeat's merged curve, is drawn beside it because the two differ when
    the folds' scores are calibrated differently (§3.2). A hold-out design (``ShuffleSplit``: one test set per
    repeat) draws each split as one curve, labelled "split ...", and no merged curve.

    With ``sample_weight`` each case counts its weight at every threshold: the points are scikit-learn's
    ``roc_curve(y, score, sample_weight=w, drop_intermediate=False)`` of each fold, and the AUCs its
    ``roc_auc_score(..., sample_weight=w)``. Multi-class and multi-label: label ``c``'s panel ranks every case
    by its score of ``c`` and counts the cases of ``c`` as positives (one-vs-rest, Fawcett 2006 §9).

    Parameters
    ----------
    predictions : CVPredictions
        Cross-validated predictions with scores (``y_score``): binary (the positive label's score), multi-class
        or multi-label (one column per label), e.g. from :func:`apples.cross_val_predictions`. Every repeat,
        every fold and ``sample_weight`` are used.
    label : label, optional
        Draw this label against the rest only (one panel). Default: binary predictions draw their positive
        label; multi-class and multi-label predictions one panel per label, each against the rest.
    repeat : repeat id, optional
        Draw this repeat's folds only (one of ``predictions.repeat_ids``). Default: every fold of every repeat.
    n_grid : int, default 101
        The number of false positive rates, from 0 to 1, at which the folds' curves are averaged.
    ax : matplotlib Axes, or a sequence of them, optional
        Where to draw: one Axes for one panel (the current Axes by default), one Axes per panel for several
        (a new figure by default, panels three a row).

    Returns
    -------
    matplotlib Axes or Figure
        The Axes of a single panel (binary predictions, or ``label=`` given); the Figure of several panels,
        whose one legend is below them.

    Raises
    ------
    ValueError
        Naming ``predictions`` if they have no scores or a fold lacks a class (its ROC curve is 0/0); ``label``
        or ``repeat`` if not among the predictions'; ``sample_weight`` if a fold's weights sum to 0; ``ax`` if
        it does not hold one Axes per panel.
    TypeError
        Naming ``ax`` if it is not a matplotlib Axes (or a sequence of them).

    References
    ----------
    Fawcett (2006) "An introduction to ROC analysis", Pattern Recognition Letters 27, §7.1 and §9; Forman &
    Scholz (2010) §3 (AUC_avg against AUC_merge).
    """
    return _plot("roc", predictions, label, repeat, n_grid, ax)


@declare(**_CURVES)
def plot_cv_precision_recall(
    predictions: CVPredictions,
    *,
    label: Hashable | None = None,
    repeat: Hashable | None = None,
    n_grid: int = 101,
    ax: Axes | Any | None = None,
) -> Axes | Figure:
    """The precision-recall curve of every fold of every repeat, each repeat's merged curve and the average at
    fixed recall over all folds, labelled with the average precision averaged over folds; one panel per label
    (against the rest) for multi-class and multi-label tasks.

    A precision-recall curve is a step function of recall: the precision of recall ``r`` is that of the first
    threshold whose recall reaches ``r`` (the steps whose area is the average precision,
    ``AP = Σ (R_t - R_{t-1}) P_t``). Each fold's curve is sampled at ``n_grid`` recalls from 0 to 1 and the
    precisions averaged (vertical averaging, Fawcett 2006 §7.1, with recall on the horizontal axis), with a
    band of ±1 standard deviation; with repeats every fold of every repeat, each repeat counting alike. The
    number to report is AP averaged per fold (Forman & Scholz 2010 §3.2: "Mean Average Precision" must be
    computed per fold; the mean over repeats of each repeat's mean); AP_merge, of a repeat's merged curve, is
    drawn beside it. The horizontal line is the (weighted) prevalence, a random ranking's precision. A hold-out
    design draws each split as one curve and no merged curve.

    With ``sample_weight`` each case counts its weight: the points are scikit-learn's
    ``precision_recall_curve(y, score, sample_weight=w)`` of each fold and the values its
    ``average_precision_score(..., sample_weight=w)``. Multi-class and multi-label: one-vs-rest, as
    :func:`plot_cv_roc`.

    Parameters
    ----------
    predictions : CVPredictions
        Cross-validated predictions with scores (``y_score``): binary (the positive label's score), multi-class
        or multi-label (one column per label), e.g. from :func:`apples.cross_val_predictions`. Every repeat,
        every fold and ``sample_weight`` are used.
    label : label, optional
        Draw this label against the rest only (one panel). Default: binary predictions draw their positive
        label; multi-class and multi-label predictions one panel per label, each against the rest.
    repeat : repeat id, optional
        Draw this repeat's folds only (one of ``predictions.repeat_ids``). Default: every fold of every repeat.
    n_grid : int, default 101
        The number of recalls, from 0 to 1, at which the folds' curves are averaged.
    ax : matplotlib Axes, or a sequence of them, optional
        Where to draw: one Axes for one panel (the current Axes by default), one Axes per panel for several
        (a new figure by default, panels three a row).

    Returns
    -------
    matplotlib Axes or Figure
        The Axes of a single panel (binary predictions, or ``label=`` given); the Figure of several panels,
        whose one legend is below them.

    Raises
    ------
    ValueError
        Naming ``predictions`` if they have no scores or a fold has no positives (its recall is 0/0); ``label``
        or ``repeat`` if not among the predictions'; ``sample_weight`` if a fold's weights sum to 0; ``ax`` if
        it does not hold one Axes per panel.
    TypeError
        Naming ``ax`` if it is not a matplotlib Axes (or a sequence of them).

    References
    ----------
    Forman & Scholz (2010) §3.2; Fawcett (2006) §7.1; Davis & Goadrich (2006) "The relationship between
    precision-recall and ROC curves", ICML (why precision is not interpolated linearly between points).
    """
    return _plot("pr", predictions, label, repeat, n_grid, ax)
