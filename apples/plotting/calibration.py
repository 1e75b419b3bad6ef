"""The reliability diagram of cross-validated probabilities: each fold's and the pooled one.

In each bin of predicted probability, the observed frequency of the positive class against the mean
prediction (Murphy & Winkler 1977; DeGroot & Fienberg 1983); a calibrated classifier lies on the diagonal.
Folds calibrated differently are what makes AUC_merge differ from AUC_avg (Forman & Scholz 2010 §3.2), so
each fold is drawn beside the pooled curve, whose Brier score and log loss the legend gives.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Literal

import numpy as np
from numpy.typing import ArrayLike

from apples._kernels.counting import codes_of
from apples._kernels.rounding import half_up
from apples._kernels.scoring_rules import bin_edges, fold_scoring_rules, reliability
from apples._optional import require
from apples._params import (
    FOLD_IDS,
    LABEL,
    LABELS,
    Integer,
    Nullable,
    Options,
    ParameterValueError,
    SameLength,
    TwoClasses,
    declare,
    positive_indicator,
)
from apples.metrics.scoring_rules import PROBABILITIES, SAMPLE_WEIGHT
from apples.plotting.curves import FOLD_COLORS

if TYPE_CHECKING:  # matplotlib is optional (the notebooks extra)
    from matplotlib.axes import Axes

__all__ = ["plot_reliability"]


def _decimal(value: float, digits: int = 3) -> str:
    """A loss for the legend, halves rounded up (inf stays inf)."""
    return str(half_up(value, digits=digits)) if np.isfinite(value) else "inf"


@declare(
    y_true=LABELS,
    y_prob=PROBABILITIES,
    folds=FOLD_IDS,
    pos_label=Nullable(LABEL),
    sample_weight=Nullable(SAMPLE_WEIGHT),
    n_bins=Integer(1, 10_000),
    strategy=Options("uniform", "quantile"),
    relations=[SameLength("y_true", "y_prob", "folds", "sample_weight"), TwoClasses("pos_label", "y_true")],
)
def plot_reliability(
    y_true: ArrayLike,
    y_prob: ArrayLike,
    *,
    folds: ArrayLike,
    pos_label: Hashable | None = None,
    sample_weight: ArrayLike | None = None,
    n_bins: int = 10,
    strategy: Literal["uniform", "quantile"] = "uniform",
    ax: Axes | None = None,
) -> Axes:
    """Reliability diagram: observed frequency against mean predicted probability, per fold and pooled.

    The bins are those of :func:`apples.cv.reliability_table` (scikit-learn's ``calibration_curve``: a case
    is in bin ``i`` when ``edges[i] < p <= edges[i + 1]``); an empty bin is not drawn. The legend gives the
    pooled Brier score and log loss, which for these two scoring rules equal the fold-size-weighted means of
    the fold values (:func:`apples.cv.cv_brier_score`).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels, at most two classes.
    y_prob : array-like of shape (n,)
        The predicted probability of the positive label, in [0, 1].
    folds : array-like of shape (n,)
        The fold id of each case.
    pos_label : label, optional
        The positive class; default 1 for 0/1 or -1/1 labels (True for bools), required otherwise.
    sample_weight : array-like of shape (n,), optional
        Non-negative weight of each case.
    n_bins : int, default 10
        The number of bins of predicted probability.
    strategy : {"uniform", "quantile"}, default "uniform"
        Bins of equal width, or holding equal numbers of (pooled) cases.
    ax : matplotlib Axes, optional
        Where to draw; the current Axes by default.

    Returns
    -------
    matplotlib Axes

    References
    ----------
    Murphy & Winkler (1977) Applied Statistics 26; DeGroot & Fienberg (1983) The Statistician 32; Forman &
    Scholz (2010) §3.2 (calibration across folds).
    """
    plt = require("matplotlib.pyplot")
    ax = plt.gca() if ax is None else ax
    t = np.asarray(y_true)
    if t.size == 0:
        raise ParameterValueError("y_true is empty: there are no cases, hence no folds", param="y_true")
    y = positive_indicator(t, pos_label)
    p = np.asarray(y_prob)
    w = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    if w is not None and not w.sum() > 0:
        raise ParameterValueError("sample_weight sums to 0: no case counts", param="sample_weight")
    ids, code = codes_of(np.asarray(folds))
    names = [v.item() if isinstance(v, np.generic) else v for v in ids]
    edges = bin_edges(p, n_bins, strategy)
    if edges.size < 2:
        edges = np.array([edges[0], edges[0]])
    r = reliability(y, p, code, ids.size, edges, w)
    rules = fold_scoring_rules(y, p, code, ids.size, w)
    k = len(names)
    for i, fold in enumerate(names):
        filled = r.size[i] > 0
        label = f"fold {fold!r}" if k <= 10 else (f"each of the {k} folds" if i == 0 else None)
        ax.plot(
            r.mean_predicted[i][filled] * 100,
            r.observed[i][filled] * 100,
            color=FOLD_COLORS[i % len(FOLD_COLORS)],
            lw=0.9,
            alpha=0.6,
            marker=".",
            label=label,
        )
    filled = r.pooled_size > 0
    ax.plot(
        r.pooled_mean_predicted[filled] * 100,
        r.pooled_observed[filled] * 100,
        color="black",
        lw=2.0,
        marker="o",
        label=f"pooled: Brier {_decimal(rules.pooled_brier)}, log loss {_decimal(rules.pooled_log_loss)}",
    )
    ax.plot([0, 100], [0, 100], color="grey", lw=0.8, ls=":", label="perfectly calibrated")
    ax.set(
        xlabel="Mean predicted probability (%)",
        ylabel="Observed frequency of the positive class (%)",
        xlim=(-1, 101),
        ylim=(-1, 101),
        title=f"Reliability of {k} folds and pooled ({strategy} bins)",
    )
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, fontsize="small")
    return ax
