"""F-measure as a surface and as a function of TP: Forman & Scholz Figure 1 and §4.1.

Introduced in notebook 01. Pure functions compute; ``plot_*`` helpers take
``ax=None`` and return the axes (they import matplotlib when called).
"""

from __future__ import annotations

import numbers

import numpy as np

from ._optional import require
from ._validation import Undefined, check_count, check_policy, check_real_array, divide

__all__ = ["f_from_rates", "f_of_tp", "plot_f_of_tp", "plot_f_precision_recall", "plot_f_rates"]


def _check_prior(prior: float) -> float:
    """A prior in (0, 1); not check_real: a non-number is a ValueError here, as this module's tests expect."""
    # numpy scalars are numbers too; NaN fails the comparison
    if isinstance(prior, (bool, np.bool_)) or not isinstance(prior, numbers.Real) or not 0 < prior < 1:
        raise ValueError(f"prior must be a number strictly between 0 and 1, got {prior!r}")
    return float(prior)


def f_from_rates(tpr, fpr, *, prior: float, undefined: Undefined = "zero"):
    """F1 from true and false positive rates at a class prior (Figure 1b).

    With P = prior·n positives and N = (1 − prior)·n negatives, TP = tpr·P,
    FP = fpr·N, FN = (1 − tpr)·P, so eq. (2) becomes::

        F = 2·tpr·prior / (tpr·prior + prior + fpr·(1 − prior))

    Parameters
    ----------
    tpr, fpr : array-like in [0, 1]
    prior : float in (0, 1)
        Fraction of positives (Figure 1b uses 0.01).
    undefined : {"zero", "nan", "raise"}, default "zero"
        Never triggered for ``prior > 0`` (the denominator is at least
        ``prior``); kept for a uniform signature.

    Examples
    --------
    A 1% false positive rate at 1% positives: as many false alarms as positives.

    >>> round(f_from_rates(0.8, 0.01, prior=0.01), 4)
    0.5735
    """
    prior = _check_prior(prior)
    check_policy(undefined)
    tpr = check_real_array("tpr", tpr, low=0, high=1)
    fpr = check_real_array("fpr", fpr, low=0, high=1)
    return divide(2 * tpr * prior, tpr * prior + prior + fpr * (1 - prior), undefined=undefined, what="F")


def f_of_tp(tp, *, positives: int, fp: int):
    """F1 of a fold as a function of its true positives, eq. (2) with FN = positives − TP.

    ``F(TP) = 2·TP / (TP + FP + positives)``, concave and increasing in TP,
    steepest at TP = 0 (Forman & Scholz §4.1). ``tp`` may be real-valued to draw
    the curve.

    Examples
    --------
    >>> f_of_tp(3, positives=4, fp=1)
    0.75
    """
    positives = check_count("positives", positives)
    fp = check_count("fp", fp)
    if positives < 1:
        raise ValueError(f"need positives >= 1, got positives={positives}")
    tp = check_real_array("tp", tp, low=0)
    if np.any(tp > positives):
        raise ValueError(f"tp must lie in [0, positives={positives}]")
    out = 2 * tp / (tp + fp + positives)
    return float(out) if out.ndim == 0 else out


_F_LEVELS = np.arange(0.1, 1.0, 0.1)  # the default contour levels of plot_f_precision_recall


def plot_f_precision_recall(ax=None, *, levels=_F_LEVELS):
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


def plot_f_rates(ax=None, *, prior: float = 0.01, max_fpr: float = 1.0):
    """Figure 1b as a contour map: F1 over FPR × TPR (both in %) at ``prior`` positives."""
    ax = require("matplotlib.pyplot").gca() if ax is None else ax
    tpr = np.linspace(0, 1, 201)
    fpr = np.linspace(0, max_fpr, 401)
    FPR, TPR = np.meshgrid(fpr, tpr)
    F = f_from_rates(TPR, FPR, prior=prior)
    cs = ax.contourf(100 * FPR, 100 * TPR, 100 * F, levels=np.linspace(0, 100, 11))
    label_levels = [0.1, 0.2, 0.3, 0.5]
    lines = ax.contour(
        100 * FPR, 100 * TPR, 100 * F, levels=[100 * v for v in label_levels], colors="white", linewidths=0.7
    )
    # place each label where its contour crosses TPR = 0.9 (or 0.45 if that is off the axis)
    spots = []
    for v in label_levels:
        for t in (0.9, 0.45):
            f = (2 * t * prior / v - t * prior - prior) / (1 - prior)
            if 0 < f < 0.95 * max_fpr:
                spots.append((100 * f, 100 * t))
                break
    ax.clabel(lines, fmt="%d%%", fontsize=8, manual=spots)
    ax.figure.colorbar(cs, ax=ax, label="F-measure (%)", ticks=np.arange(0, 101, 10))
    ax.set(xlabel="False positive rate (%)", ylabel="True positive rate (%)")
    ax.grid(False)
    return ax


def plot_f_of_tp(ax=None, *, positives: int = 4, fp: int = 1, expected_tp: float = 3.0):
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
