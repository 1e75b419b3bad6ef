"""Figures of the Forman & Scholz (2010) study (notebooks 01 and 02; notebook 03's are in :mod:`.bias_figures`).

Each function draws one figure: ``ax=None`` keyword (a new figure when omitted),
returning the axes, or the figure for a multi-panel plot.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import numpy as np
from numpy.typing import ArrayLike

from apples._kernels.counting import codes_of
from apples._kernels.f_measure import f_of_counts, f_of_rates
from apples._kernels.ranking import CumulativeCounts, auc_from_counts, cumulative_counts, roc_points
from apples._kernels.rounding import percent_text
from apples._optional import require
from apples._params import (
    COUNT,
    FLAG,
    FOLD_IDS,
    LABEL,
    LABELS,
    SCORES,
    Kind,
    Nullable,
    Options,
    Real,
    RealArray,
    Relation,
    SameLength,
    TwoClasses,
    check_real,
    declare,
    resolve,
)
from apples.plotting import panel_axes
from apples.theory.fold_model import PRIOR

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


__all__ = [
    "plot_f_of_tp",
    "plot_f_precision_recall",
    "plot_f_rates",
    "plot_figure3",
    "plot_fold_rocs",
    "plot_rate_vs_score",
]
_FOLD_COLORS = ("#1f77b4", "#2ca02c", "#d62728", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")


# -- the cases of a cross-validation, fold by fold ----------------------------------------------------
class _Folds(NamedTuple):
    ids: list  #: the fold ids, sorted, as Python values
    code: np.ndarray  #: each case's fold, 0 .. k - 1
    positive: np.ndarray  #: whether each case is a positive
    scores: np.ndarray


def _folds(y_true: ArrayLike, y_score: ArrayLike, folds: ArrayLike, pos_label: Hashable) -> _Folds:
    ids, code = codes_of(np.asarray(folds))
    return _Folds(
        [v.item() if isinstance(v, np.generic) else v for v in ids],
        code,
        np.asarray(y_true) == pos_label,
        np.asarray(y_score),
    )


def _fold_counts(f: _Folds) -> Iterator[tuple[Any, CumulativeCounts]]:
    """Each fold's id and the cumulative counts of its scores (kernel: one sort per fold)."""
    for i, fold_id in enumerate(f.ids):
        rows = f.code == i
        yield fold_id, cumulative_counts(f.positive[rows], f.scores[rows])


class _BothClassesPerFold(Relation):
    """Every fold holds positives and negatives: a fold's ROC curve is 0/0 on one axis otherwise."""

    names = ("y_true", "folds", "pos_label")

    def check(self, values: Mapping[str, Any]) -> None:
        if len(values) < 2:
            return
        ids, code = codes_of(values["folds"])
        positive = values["y_true"] == values.get("pos_label", 1)
        pos = np.bincount(code, weights=positive, minlength=ids.size)
        neg = np.bincount(code, minlength=ids.size) - pos
        for i in np.flatnonzero((pos == 0) | (neg == 0)).tolist():
            fold_id = ids[i].item() if isinstance(ids[i], np.generic) else ids[i]
            missing = "positives" if pos[i] == 0 else "negatives"
            raise ValueError(
                f"fold {fold_id!r}: y_true has only one class there (no {missing}); a fold's ROC curve needs both"
            )


_CASES = {"y_true": LABELS, "y_score": SCORES, "folds": FOLD_IDS, "pos_label": LABEL}
_CASE_RULES = [SameLength("y_true", "y_score", "folds"), TwoClasses("pos_label", "y_true"), _BothClassesPerFold()]


class _PositiveIfLog(Relation):
    """A logarithmic score axis needs positive scores."""

    names = ("y_score", "log")

    def check(self, values: Mapping[str, Any]) -> None:
        if values.get("log", True) and "y_score" in values and np.any(values["y_score"] <= 0):
            raise ValueError("log=True needs positive scores; shift them or pass log=False")


class _LegendLabels(Kind):
    what = "a sequence of legend labels, one per fold"

    def check(self, name: str, value: object) -> list[str]:
        if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray)):
            raise TypeError(f"{name} must be a sequence of legend labels, one per fold, got {value!r}")
        return [str(label) for label in value]


class _OnePerFold(Relation):
    names = ("labels", "folds")

    def check(self, values: Mapping[str, Any]) -> None:
        if len(values) == 2:
            n, k = len(values["labels"]), np.unique(values["folds"]).size
            if n != k:
                raise ValueError(f"labels has {n} entries but there are {k} folds; pass one per fold")


class _Range(Kind):
    """A pair ``(low, high)`` of finite scores; becomes a tuple of floats."""

    what = "a pair (low, high) of scores"

    def check(self, name: str, value: object) -> tuple[float, float]:
        if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray)) or len(value) != 2:
            raise TypeError(f"{name} must be a pair (low, high) of scores, got {value!r}")
        return check_real(f"{name}[0]", value[0]), check_real(f"{name}[1]", value[1])


class _RangeOnAxis(Relation):
    """``xlim`` is increasing, and positive on a logarithmic axis."""

    names = ("xlim", "log")

    def check(self, values: Mapping[str, Any]) -> None:
        if "xlim" not in values:
            return
        low, high = values["xlim"]
        check_real("xlim[0]", low, low=0.0 if values.get("log", True) else None, low_inclusive=False)
        check_real("xlim[1]", high, low=low, low_inclusive=False)


# -- plots -----------------------------------------------------------------------------------------
def _rate_vs_score(ax: Axes, f: _Folds, rate: str, log: bool, labels: Sequence[str] | None) -> Axes:
    """One panel of Figure 3 on ``ax`` (:func:`plot_rate_vs_score`)."""
    for i, (fold_id, counts) in enumerate(_fold_counts(f)):
        fpr, tpr, thr = roc_points(counts)
        r = (fpr if rate == "fpr" else tpr)[1:][::-1] * 100
        x = thr[1:][::-1]
        # the rate is r_j on (x_{j-1}, x_j]: steps-pre; extend flat to the left edge
        ax.plot(
            np.r_[x[0], x],
            np.r_[r[0], r],
            drawstyle="steps-pre",
            color=_FOLD_COLORS[i % len(_FOLD_COLORS)],
            label=f"fold {fold_id}" if labels is None else labels[i],
        )
    if log:
        ax.set_xscale("log")
    name = "False positive rate" if rate == "fpr" else "True positive rate"
    ax.set(xlabel="classifier score threshold" + (" (log scale)" if log else ""), ylabel=f"{name} (%)", ylim=(-2, 102))
    ax.legend(loc="upper right" if rate == "fpr" else "lower left")
    return ax


@declare(
    **_CASES,
    rate=Options("fpr", "tpr"),
    log=FLAG,
    labels=Nullable(_LegendLabels()),
    relations=[*_CASE_RULES, _PositiveIfLog(), _OnePerFold()],
)
def plot_rate_vs_score(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    folds: ArrayLike,
    rate: str = "fpr",
    ax: Axes | None = None,
    log: bool = True,
    labels: Sequence[str] | None = None,
    pos_label: Hashable = 1,
) -> Axes:
    """False (or true) positive rate against the score threshold, one step curve per fold.

    The rate at threshold t is the share of the fold's negatives (positives)
    with score >= t; this is one panel of Forman & Scholz Figure 3. With
    ``log=True`` the score axis is logarithmic (scores must then be positive).

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels (two classes, both in every fold) and scores of every case.
    folds : array-like of shape (n,)
        The fold id of each case; one curve per fold, in sorted order, labelled ``fold <id>``.
    rate : {"fpr", "tpr"}, default "fpr"
    ax : matplotlib Axes, optional
    log : bool, default True
    labels : sequence of str, optional
        The legend labels, one per fold.
    pos_label : label, default 1
        The positive class.

    Returns
    -------
    matplotlib Axes
    """
    plt = require("matplotlib.pyplot")
    return _rate_vs_score(plt.gca() if ax is None else ax, _folds(y_true, y_score, folds, pos_label), rate, log, labels)


def _figure3(axes: Sequence[Axes], f: _Folds, log: bool, xlim: tuple[float, float] | None) -> Figure:
    """Both panels of Figure 3 on ``axes`` (:func:`plot_figure3`)."""
    _rate_vs_score(axes[0], f, "fpr", log, None)
    _rate_vs_score(axes[1], f, "tpr", log, None)
    if xlim is not None:
        for a in axes:  # both, also when the caller's axes are not shared
            a.set_xlim(xlim)
    axes[0].set_title("(a) false positive rate vs score")
    axes[1].set_title("(b) true positive rate vs score")
    return cast("Figure", axes[0].figure)


@declare(**_CASES, log=FLAG, xlim=Nullable(_Range()), relations=[*_CASE_RULES, _PositiveIfLog(), _RangeOnAxis()])
def plot_figure3(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    folds: ArrayLike,
    ax: Sequence[Axes] | None = None,
    log: bool = True,
    xlim: Sequence[float] | None = None,
    pos_label: Hashable = 1,
) -> Figure:
    """Both panels of Forman & Scholz Figure 3: (a) FPR and (b) TPR vs score, per fold.

    Forman & Scholz (2010), §3.2 and Figure 3: the share of each fold's negatives
    (a) and positives (b) scoring at or above a threshold, against the threshold,
    on a log axis. Both panels share one score axis, so a fold's positives can
    be read against every fold's negatives.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels (two classes, both in every fold) and scores of every case.
    folds : array-like of shape (n,)
        The fold id of each case.
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
    pos_label : label, default 1
        The positive class.

    Returns
    -------
    matplotlib Figure
    """
    axes = panel_axes(ax, 2, figsize=(9.6, 3.6), sharex=True)
    return _figure3(axes, _folds(y_true, y_score, folds, pos_label), log, cast("tuple[float, float] | None", xlim))


@declare(**_CASES, relations=_CASE_RULES)
def plot_fold_rocs(
    y_true: ArrayLike, y_score: ArrayLike, *, folds: ArrayLike, ax: Axes | None = None, pos_label: Hashable = 1
) -> Axes:
    """Each fold's ROC curve and the merged ROC curve, AUCs in the legend.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels (two classes, both in every fold) and scores of every case.
    folds : array-like of shape (n,)
        The fold id of each case.
    ax : matplotlib Axes, optional
    pos_label : label, default 1
        The positive class.

    Returns
    -------
    matplotlib Axes
    """
    plt = require("matplotlib.pyplot")
    ax = plt.gca() if ax is None else ax
    f = _folds(y_true, y_score, folds, pos_label)
    for i, (fold_id, counts) in enumerate(_fold_counts(f)):
        fpr, tpr, _ = roc_points(counts)
        ax.plot(
            fpr * 100,
            tpr * 100,
            color=_FOLD_COLORS[i % len(_FOLD_COLORS)],
            lw=1,
            label=f"fold {fold_id}: AUC {percent_text(auc_from_counts(counts), decimals=1)}",
        )
    merged = cumulative_counts(f.positive, f.scores)
    fpr, tpr, _ = roc_points(merged)
    ax.plot(
        fpr * 100,
        tpr * 100,
        color="black",
        lw=2.2,
        label=f"merged: AUC_merge {percent_text(auc_from_counts(merged), decimals=1)}",
    )
    ax.plot([0, 100], [0, 100], color="grey", lw=0.8, ls=":")
    ax.set(xlabel="False positive rate (%)", ylabel="True positive rate (%)", xlim=(-1, 101), ylim=(-1, 101))
    ax.legend(loc="lower right")
    return ax


_F_LEVELS = np.arange(0.1, 1.0, 0.1)  # the default contour levels of plot_f_precision_recall


@declare(levels=RealArray(0.0, 1.0, finite=True))
def plot_f_precision_recall(*, ax: Axes | None = None, levels: ArrayLike = _F_LEVELS) -> Axes:
    """Figure 1a as a contour map: F1 over precision × recall (both in %).

    ``levels`` are the F values (fractions) whose contours are drawn and labelled.
    """
    ax = require("matplotlib.pyplot").gca() if ax is None else ax
    levels = np.atleast_1d(levels)
    p = np.linspace(0, 1, 201)
    P, R = np.meshgrid(p, p)
    F = resolve(f_of_rates(P, R), "zero", what="F at precision = recall = 0")  # eq. (1), limit 0
    cs = ax.contourf(100 * P, 100 * R, 100 * F, levels=np.linspace(0, 100, 11))
    lines = ax.contour(100 * P, 100 * R, 100 * F, levels=100 * levels, colors="white", linewidths=0.7)
    # labels on the diagonal Pr = Re, where F equals the level itself
    ax.clabel(lines, fmt="%d%%", fontsize=8, manual=[(100 * v, 100 * v) for v in levels])
    ax.figure.colorbar(cs, ax=ax, label="F-measure (%)", ticks=np.arange(0, 101, 10))
    ax.set(xlabel="Precision (%)", ylabel="Recall (%)", aspect="equal")
    ax.grid(False)
    return ax


class _Below(Relation):
    """``min_fpr`` lies below ``max_fpr``."""

    names = ("min_fpr", "max_fpr")

    def check(self, values: Mapping[str, Any]) -> None:
        if len(values) == 2:
            check_real(
                "min_fpr", values["min_fpr"], low=0.0, high=values["max_fpr"], low_inclusive=False, high_inclusive=False
            )


@declare(
    prior=PRIOR,
    max_fpr=Real(0.0, 1.0, low_inclusive=False),
    log_fpr=FLAG,
    min_fpr=Real(0.0, 1.0, low_inclusive=False, high_inclusive=False),
    relations=[_Below()],
)
def plot_f_rates(
    *,
    ax: Axes | None = None,
    prior: float = 0.01,
    max_fpr: float = 1.0,
    log_fpr: bool = False,
    min_fpr: float = 1e-4,
) -> Axes:
    """Figure 1b as a contour map: F1 over FPR × TPR (both in %) at ``prior`` positives.

    At a low prior almost all of the map above F = 50 % lies at tiny false positive rates;
    ``log_fpr=True`` draws the FPR axis from ``min_fpr`` to ``max_fpr`` on a log scale so that
    region can be read.
    """
    ax = require("matplotlib.pyplot").gca() if ax is None else ax
    tpr = np.linspace(0, 1, 201)
    fpr = np.geomspace(min_fpr, max_fpr, 401) if log_fpr else np.linspace(0, max_fpr, 401)
    FPR, TPR = np.meshgrid(fpr, tpr)
    # F of the expected counts per case: TP = tpr·prior, FP = fpr·(1 − prior), FN = (1 − tpr)·prior (eq. 2)
    F = f_of_counts(TPR * prior, FPR * (1 - prior), (1 - TPR) * prior)
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
        # plain decimals (0.01, 0.1, 1, 10) instead of powers of ten, which a reader of percentages cannot read
        ticker = require("matplotlib.ticker")
        ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
        ax.xaxis.set_minor_formatter(ticker.NullFormatter())
    ax.grid(False)
    return ax


class _OnTheCurve(Relation):
    """``expected_tp`` and one TP fewer and one more lie in [0, positives]."""

    names = ("expected_tp", "positives")

    def check(self, values: Mapping[str, Any]) -> None:
        if len(values) == 2 and not 1 <= values["expected_tp"] <= values["positives"] - 1:
            raise ValueError(
                f"expected_tp={values['expected_tp']!r} must lie in [1, positives - 1 = {values['positives'] - 1}]: "
                "the chord joins F at one TP fewer and one more"
            )


def _f_of_tp(tp: ArrayLike, positives: int, fp: int) -> np.ndarray:
    """F1 of a fold with ``positives`` positives and ``fp`` false positives, as a function of its TP (eq. 2)."""
    tp_a = np.asarray(tp, dtype=float)
    return f_of_counts(tp_a, fp, positives - tp_a)


def _draw_f_of_tp(ax: Axes, positives: int, fp: int, expected_tp: float) -> tuple[float, float, float]:
    """The curve F(TP), its integer points, the chord and its midpoint; returns F (%) at TP − 1, TP, TP + 1."""
    t = np.linspace(0, positives, 400)
    ax.plot(t, 100 * _f_of_tp(t, positives, fp), label=f"F(TP), {positives} positives, FP = {fp}")
    ks = np.arange(positives + 1)
    ax.plot(ks, 100 * _f_of_tp(ks, positives, fp), "o", ms=4, color="C0")
    lo, hi = expected_tp - 1, expected_tp + 1
    f_lo, f_mid, f_hi = (100 * float(_f_of_tp(x, positives, fp)) for x in (lo, expected_tp, hi))
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
    return f_lo, f_mid, f_hi


@declare(positives=COUNT, fp=COUNT, expected_tp=Real(), relations=[_OnTheCurve()])
def plot_f_of_tp(*, ax: Axes | None = None, positives: int = 4, fp: int = 1, expected_tp: float = 3.0) -> Axes:
    """F1 against TP for one fold, with the chord that shows concavity (§4.1).

    Marks F at ``expected_tp`` and at one TP fewer and one more: the loss
    from missing a true positive exceeds the gain from an extra one. An inset
    magnifies the chord's midpoint, which lies only a little below the curve.
    """
    ax = require("matplotlib.pyplot").gca() if ax is None else ax
    f_lo, f_mid, f_hi = _draw_f_of_tp(ax, positives, fp, expected_tp)
    lo, hi = expected_tp - 1, expected_tp + 1
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
    # upper left (F above 60 %, TP below 0.4 positives), which the curve never reaches: F ≤ 2TP / (TP + positives)
    zoom = ax.inset_axes((0.14, 0.58, 0.26, 0.3))
    _draw_f_of_tp(zoom, positives, fp, expected_tp)
    gap = f_mid - (f_lo + f_hi) / 2
    zoom.set(
        xlim=(expected_tp - 0.1, expected_tp + 0.1),
        ylim=(f_mid - 2 * gap, f_mid + gap),
        xticks=[expected_tp],
    )
    zoom.set_title(f"zoom: × {gap:.1f} points below F({expected_tp:g})", fontsize=9)
    zoom.tick_params(labelsize=8)
    ax.indicate_inset_zoom(zoom, edgecolor="0.4")
    return ax
