"""Figures of the Parker (2011) study: Figure 1 (notebook 07), the loss surface and the incoherence comparison
(notebook 08), Figures 2–5 (notebook 09)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from apples._kernels import parker as _k
from apples._kernels import threshold_free as tf
from apples._kernels.ranking import cumulative_counts
from apples._optional import require
from apples._params import MAX_EXACT_INT, SEED, Instance, Integer, MappingOf, declare
from apples.plotting import decorate, panel_axes
from apples.studies.parker.agreement import (
    _PREFERENCES,
    PARKER_MEASURES,
    _agreement_levels,
    _classifier_error_rates,
    _Comparisons,
    _error_case_breakdown,
    _error_case_shares,
)
from apples.studies.parker.comparison import IMPLIED_COSTS, IncoherenceComparison
from apples.theory.binormal import BINORMAL, Binormal

if TYPE_CHECKING:  # pandas and matplotlib are imported where a figure is drawn
    import pandas as pd


__all__ = [
    "plot_agreement_levels",
    "plot_classifier_error_rates",
    "plot_error_case_breakdown",
    "plot_error_case_shares",
    "plot_figure1",
    "plot_incoherence_comparison",
    "plot_loss_surface",
]

#: Colours of the first and second classifier in :func:`plot_figure1`.
_FIGURE1_COLORS = ("#1f77b4", "#d62728")


class _Models(MappingOf):
    """One or two named binormal classifiers (the curves of :func:`plot_figure1`, blue then red)."""

    def __init__(self) -> None:
        super().__init__(BINORMAL, what="a mapping of name -> apples.theory.Binormal")

    def check(self, name: str, value: object) -> dict:
        models = super().check(name, value)
        if not 1 <= len(models) <= len(_FIGURE1_COLORS):
            raise ValueError(f"{name} must hold one or two classifiers, got {len(models)}")
        return models


#: A number of cases drawn from a model (:meth:`apples.theory.Binormal.sample`).
_N_DRAWN = Integer(1, MAX_EXACT_INT)


@declare(model=BINORMAL)
def plot_loss_surface(model: Binormal, *, ax: Any = None) -> Any:
    """The loss surface Q(t; 1, c) of Parker eq. 4 with the optimal threshold T(c) of eq. 3; returns the Axes.

    Filled contours of the loss per case over the threshold t (score axis,
    -3 to 4.5) and the normalised cost c = c_0/(c_0 + c_1) of a missed
    positive (0 to 1), from :func:`apples.theory.misclassification_loss`,
    with a colour bar; the valley floor T(c) (Parker §III-A, eq. 3, from
    :func:`apples.theory.optimal_threshold`) is drawn in white for
    0 < c < 1.

    Parameters
    ----------
    model : apples.theory.Binormal
        The score model; the title names it (positives' and negatives' normal
        laws, π₀ its ``pi_pos``).
    ax : matplotlib Axes, optional
        Where to draw; the current Axes when None.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = _axes(ax)
    tt = np.linspace(-3, 4.5, 301)
    cc = np.linspace(0.0, 1.0, 201)
    Q = _k.loss(tt[None, :], cc[:, None], model)
    im = ax.contourf(tt, cc, Q, levels=20)
    ax.contour(tt, cc, Q, levels=20, colors="k", linewidths=0.3)
    ax.plot(_k.optimal_threshold(cc[1:-1], model), cc[1:-1], color="white", lw=2, label="T(c), eq. 3")
    ax.figure.colorbar(im, ax=ax, label="loss Q(t; 1, c) per case")
    decorate(
        ax,
        xlabel="threshold t (score)",
        ylabel="c, cost share of a missed positive",
        title=(
            f"Loss surface of eq. 4\npositives {_normal(model.mu_pos, model.sd_pos)}, "
            f"negatives {_normal(model.mu_neg, model.sd_neg)}, π₀ = {model.pi_pos:g}"
        ),
        xlim=(tt[0], tt[-1]),
    )
    # below the axes, off the contours; a grey box, on which the white line shows
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), frameon=True, facecolor="0.6", framealpha=1.0)
    return ax


def _normal(mu: float, sd: float) -> str:
    """A normal law as the notebooks write it: N(1.5, 1) for a unit spread, N(1.5, 1.2²) otherwise."""
    return f"N({mu:g}, {1 if sd == 1 else f'{sd:g}²'})"


@declare(models=_Models(), n_pos=_N_DRAWN, n_neg=_N_DRAWN, seed=SEED)
def plot_figure1(
    models: Mapping[str, Binormal],
    *,
    ax: Sequence[Any] | None = None,
    n_pos: int = 300,
    n_neg: int = 700,
    seed: int | np.random.Generator = 5,
) -> Any:
    """Parker (2011) Figure 1 re-created on given curves: (a) two ROC curves, (b) their κ curves; returns the Figure.

    Panel (a): each model's ROC curve :meth:`~apples.theory.Binormal.roc` in
    percent, its population AUC in the legend, with the diagonal ("chance").
    Parker gives no data for his figure: the curves are the caller's choice. Panel (b): κ
    against the false positive rate, from :func:`apples.theory.threshold_measure` at the
    threshold of each FPR in (0, 1) (399 points), AUK
    (:func:`apples.theory.integrated_measure`, Parker §II-F) in the legend,
    marked "(population)";
    as dots, :func:`apples.metrics.kappa_curve` of a sample of ``n_pos`` positives and
    ``n_neg`` negatives drawn from each model (every 20th point, in the
    legend as "P: sample of 300 + 700").

    Parameters
    ----------
    models : mapping of str -> apples.theory.Binormal
        One or two named classifiers (blue, then red).
    ax : sequence of two matplotlib Axes, optional
        The panels (a) and (b); a new 11 x 4 inch figure when None.
    n_pos, n_neg : int, default 300 and 700
        Size of each model's sample for the dots.
    seed : int, default 5
        Seed of each model's sample (:meth:`~apples.theory.Binormal.sample`).

    Returns
    -------
    matplotlib.figure.Figure
    """
    ax_roc, ax_kappa = panel_axes(ax, 2, figsize=(11, 4))
    # From FPR 0 (κ = 0, nothing predicted positive); P's steep ROC reaches about 20% TPR by FPR 0.25%, so the
    # grid is log-spaced below that to show κ leaving 0.
    v = np.union1d(np.geomspace(1e-7, 0.0025, 60), np.linspace(0, 1, 401)[:-1])
    for (name, m), color in zip(models.items(), _FIGURE1_COLORS[: len(models)], strict=True):
        ax_roc.plot(100 * v, 100 * m.roc(v), color=color, label=f"{name}: AUC = {m.auc:.3f} (population)")
        kappa = _k.threshold_measure(m.threshold_at_fpr(v), m, "kappa")
        auk = _k.integrated_measure(m, "kappa", "fpr")
        ax_kappa.plot(100 * v, kappa, color=color, label=f"{name}: AUK = {auk:.3f} (population)")
        yy, ss = m.sample(n_pos, n_neg, seed=seed)
        fpr, kc = tf.kappa_curve(cumulative_counts(yy == 1, ss))  # apples.metrics.kappa_curve of the sample
        ax_kappa.plot(
            100 * fpr[::20], kc[::20], "o", ms=3, color=color, alpha=0.6, label=f"{name}: sample of {n_pos} + {n_neg}"
        )
    ax_roc.plot([0, 100], [0, 100], color="grey", lw=0.8, label="chance")
    low, high = ax_kappa.get_ylim()
    ax_kappa.set_ylim(low, low + 1.45 * (high - low))  # room above the κ curves for the four-line legend
    decorate(
        ax_roc,
        xlabel="false positive rate F₁ (%)",
        ylabel="true positive rate F₀ (%)",
        title="Parker Fig. 1(a), our own curves: two ROC curves",
    )
    decorate(
        ax_kappa,
        xlabel="false positive rate F₁ (%)",
        ylabel="Cohen's κ",
        title="Parker Fig. 1(b), our own curves: their κ curves",
    )
    return ax_roc.figure


@declare(
    result=Instance(
        IncoherenceComparison,
        hint="from incoherence_comparison",
        what="an apples.studies.parker.IncoherenceComparison",
    ),
    model_a=BINORMAL,
    model_b=BINORMAL,
)
def plot_incoherence_comparison(
    result: IncoherenceComparison, model_a: Binormal, model_b: Binormal, *, ax: Sequence[Any] | None = None
) -> Any:
    """ROC curves (left) and implied cost densities with the H prior (right); returns the figure.

    ``ax``: the two panels (a pair of Axes), or None for a new figure.

    The costs are drawn on the axis log10(c_0/c_1) = log10(c/(1 - c)), densities
    transformed accordingly, because the implied distributions pile up near
    c = 0 and c = 1. A distribution with less than 95% of its mass inside the
    window [-4, 4] (cost ratios 10^-4 to 10^4) says so in its legend entry;
    the H prior is the shaded area. A random classifier (identical
    score distributions) implies the single cost c = π_1, a point mass that
    has no density to draw.
    """
    return _plot_comparison(result, model_a, model_b, ax)


def _plot_comparison(result: IncoherenceComparison, model_a: Binormal, model_b: Binormal, ax: Any) -> Any:
    """:func:`plot_incoherence_comparison` of checked arguments (the explorer draws with it too)."""
    ax_roc, ax_c = panel_axes(ax, 2, figsize=(12, 4))
    v = np.linspace(0, 1, 201)
    colors = {"A": "#1f77b4", "B": "#d62728"}
    styles = {"AUC": "-", "AUK": "--", "AP": ":"}
    c = result.c
    u = np.log10(c / (1 - c))  # log10 of the cost ratio c_0/c_1
    jac = c * (1 - c) * np.log(10.0)  # density per unit of u = density per unit of c times dc/du
    for name, m in (("A", model_a), ("B", model_b)):
        ax_roc.plot(100 * v, 100 * m.roc(v), color=colors[name], label=f"{name}: AUC = {m.auc:.3f}")
        for label, _, _ in IMPLIED_COSTS:
            dens = result.densities[(name, label)] * jac
            shown = float(np.trapezoid(dens, u))  # share of the distribution inside the plotted window
            note = f" ({100 * shown:.0f}% in view)" if shown < 0.95 else ""
            ax_c.plot(u, dens, color=colors[name], ls=styles[label], label=f"{name}, {label}{note}")
    ax_roc.plot([0, 100], [0, 100], color="grey", lw=0.8)
    # the prior as a shaded area under the curves, so that A's curves stay visible where they run close to it
    ax_c.fill_between(u, result.h_prior * jac, color="0.8", zorder=0, label="H prior (A and B)")
    ax_roc.set(
        xlabel="False positive rate (%)",
        ylabel="True positive rate (%)",
        title="ROC curves of A and B (no paper figure)",
    )
    ax_c.set(
        xlabel="log₁₀(c₀/c₁), cost of a missed positive over a false positive",
        ylabel="density per unit log₁₀ ratio",
        title="Implied cost distributions (Parker §III-B, C)",
        ylim=(0, None),
    )
    ax_roc.legend()
    ax_c.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))  # outside: the curves fill the panel
    return ax_roc.figure


# -- the comparison experiment (Parker §V, notebook 09) -------------------------------------------------


def _axes(ax: Any) -> Any:
    """The one Axes of a one-panel plot: ``ax``, or the current Axes when None."""
    plt = require("matplotlib.pyplot")
    if ax is None:
        return plt.gca()
    if not isinstance(ax, require("matplotlib.axes").Axes):
        raise TypeError(f"ax must be a matplotlib Axes or None, got {type(ax).__name__}")
    return ax


def _share_bars(
    ax: Any,
    table: pd.DataFrame,
    *,
    offset: float = 0.0,
    width: float = 0.8,
    label: str | None = None,
    color: str | None = None,
) -> None:
    """Bars of ``table.share`` (percent) per measure with Wilson error bars."""
    x = np.arange(len(table)) + offset
    share = 100 * table["share"].to_numpy(dtype=float)
    err = 100 * np.vstack([share / 100 - table["low"].to_numpy(float), table["high"].to_numpy(float) - share / 100])
    ax.bar(x, share, width=width, label=label, color=color, yerr=err, capsize=3, ecolor="black")


@declare(preferences=_PREFERENCES)
def plot_agreement_levels(preferences: pd.DataFrame, *, ax: Any = None) -> Any:
    """Parker Fig. 2 re-created: the comparisons by number of measures disagreeing with the majority; the Axes.

    Bars give the percentage of comparisons in which 0 (all agree), 1 (an
    error case), 2, 3 or more measures differ from the most common opinion
    (:func:`apples.studies.parker.agreement_levels`).

    Parameters
    ----------
    preferences : pandas.DataFrame
        One row per comparison, one column per measure (+1, −1, 0, NaN).
    ax : matplotlib Axes, optional
        Where to draw; the current Axes when None.

    Returns
    -------
    matplotlib.axes.Axes
    """
    levels = _agreement_levels(preferences)
    ax = _axes(ax)
    counts = levels.value_counts().sort_index()
    pct = 100 * counts / counts.sum()
    ax.bar([str(k) for k in counts.index], pct.to_numpy(), color="#1f77b4")
    for x, (k, p) in enumerate(zip(counts.to_numpy(), pct.to_numpy(), strict=True)):
        ax.annotate(f"{p:.0f}%\n({k:,})", (x, p), ha="center", va="bottom", fontsize=8)
    decorate(
        ax,
        xlabel="measures disagreeing with the majority (0: all agree, 1: an error case)",
        ylabel="comparisons (%)",
        title=f"Parker Fig. 2 (re-created): {len(levels):,} comparisons by agreement",
        ylim=(0, max(100.0, float(pct.max()) * 1.15)),
    )
    return ax


@declare(preferences=_PREFERENCES)
def plot_error_case_shares(preferences: pd.DataFrame, *, ax: Any = None) -> Any:
    """Parker Fig. 3 re-created: each measure's share of the error cases, with Wilson 95% intervals; the Axes.

    Parameters
    ----------
    preferences : pandas.DataFrame
        One row per comparison, one column per measure (+1, −1, 0, NaN).
    ax : matplotlib Axes, optional
        Where to draw; the current Axes when None.

    Returns
    -------
    matplotlib.axes.Axes
    """
    table = _error_case_shares(preferences, None, 0.95)
    ax = _axes(ax)
    _share_bars(ax, table, color="#1f77b4")
    ax.set_xticks(np.arange(len(table)), table["measure"].tolist(), rotation=30, ha="right")
    decorate(
        ax,
        xlabel="measure",
        ylabel="share of error cases (%)",
        title=f"Parker Fig. 3 (re-created): who is the odd one out ({int(table['total'].iloc[0]):,} error cases)",
    )
    return ax


@declare(comparisons=_Comparisons("pos_prop", "threshold_diff"))
def plot_error_case_breakdown(comparisons: pd.DataFrame, *, ax: Sequence[Any] | None = None) -> Any:
    """Parker Fig. 4 re-created: error-case shares below/above the median of (a) π and (b) Δ thresholds; the Figure.

    Panel (a) splits the comparisons at the median positive proportion π of
    the test data, panel (b) at the median Δ, the absolute difference in the
    two classifiers' numbers of distinct scores (Parker's "unique
    thresholds") over the number of test cases
    (:func:`apples.studies.parker.error_case_breakdown`); Wilson 95%
    intervals. Each legend's title defines its symbol, each entry gives the
    side of the median and the number of error cases there.

    Parameters
    ----------
    comparisons : pandas.DataFrame
        With the measure columns and ``pos_prop``, ``threshold_diff``
        (:attr:`ExperimentResult.comparisons`).
    ax : sequence of two matplotlib Axes, optional
        The panels (a) and (b); a new 12 x 4 inch figure when None.

    Returns
    -------
    matplotlib.figure.Figure
    """
    table_a = _error_case_breakdown(comparisons, "pos_prop", 0.95)
    table_b = _error_case_breakdown(comparisons, "threshold_diff", 0.95)
    axes = panel_axes(ax, 2, figsize=(12, 4))
    panels = (  # panel, symbol, what it splits by, legend title (what the symbol means)
        ("a", "π", "share of positives π", "π: share of positives in the test set"),
        ("b", "Δ", "Δ in distinct scores", "Δ: |difference in distinct scores| / test cases"),
    )
    for panel, table, (letter, symbol, split, meaning) in zip(axes, (table_a, table_b), panels, strict=True):
        median = float(table["median"].iloc[0])
        for j, (group, color) in enumerate((("below median", "#1f77b4"), ("above median", "#d62728"))):
            part = table[table["group"] == group]
            if part.empty:
                continue
            total = int(part["total"].iloc[0])
            label = f"{symbol} {'≤' if j == 0 else '>'} median {median:.3g} ({total:,} error cases)"
            _share_bars(panel, part, offset=(j - 0.5) * 0.4, width=0.4, color=color, label=label)
        title = f"Parker Fig. 4({letter}) (re-created): by {split}"
        panel.set_xticks(np.arange(len(PARKER_MEASURES)), list(PARKER_MEASURES), rotation=30, ha="right")
        decorate(panel, xlabel="measure", ylabel="share of error cases (%)", title=title)
        panel.legend(title=meaning, title_fontsize="small", fontsize="small", loc="upper left")
    return axes[0].figure


@declare(comparisons=_Comparisons("clf_a", "clf_b"))
def plot_classifier_error_rates(comparisons: pd.DataFrame, *, ax: Any = None) -> Any:
    """Parker Fig. 5 re-created: per classifier, error cases over comparisons involving it, Wilson 95%; the Axes.

    Parameters
    ----------
    comparisons : pandas.DataFrame
        With ``clf_a``, ``clf_b`` and the measure columns
        (:attr:`ExperimentResult.comparisons`).
    ax : matplotlib Axes, optional
        Where to draw; the current Axes when None.

    Returns
    -------
    matplotlib.axes.Axes
    """
    table = _classifier_error_rates(comparisons, comparisons[list(PARKER_MEASURES)], 0.95)
    order = [*comparisons["clf_a"].drop_duplicates().tolist(), *comparisons["clf_b"].drop_duplicates().tolist()]
    table = table.loc[list(dict.fromkeys(order))]
    ax = _axes(ax)
    table = table.rename(columns={"rate": "share"})
    _share_bars(ax, table, color="#2ca02c")
    ax.set_xticks(np.arange(len(table)), table.index.tolist(), rotation=30, ha="right")
    decorate(
        ax,
        xlabel="classifier",
        ylabel="error cases / comparisons involving it (%)",
        title="Parker Fig. 5 (re-created): error cases per classifier",
    )
    return ax
