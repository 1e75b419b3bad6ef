"""Parker (2011) §V's findings set against a run of the rebuilt experiment: the "paper / ours / agree?" table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from apples._params import ParameterValueError, Real, declare
from apples.studies.parker.agreement import (
    PARKER_MEASURES,
    _agreement_levels,
    _classifier_error_rates,
    _Comparisons,
    _count_error_cases,
    _error_case_breakdown,
    _g_test,
)
from apples.studies.parker.experiment import PAPER_RESULTS

if TYPE_CHECKING:  # pandas is imported where a table is built
    import pandas as pd


__all__ = [
    "paper_comparison",
]

#: The measures Parker §III shows to be incoherent (an implied cost distribution that depends on the scores).
_INCOHERENT = ("AUC", "AP", "AUK")
#: The measures that state their cost assumption (point measures at their own optimum, and H).
_COHERENT = ("max-F1", "max-MCC", "H")


@declare(
    comparisons=_Comparisons("pos_prop", "threshold_diff", "clf_a", "clf_b", "dataset", "label"),
    tolerance=Real(0.0, 1.0),
)
def paper_comparison(comparisons: pd.DataFrame, *, tolerance: float = 0.05) -> pd.DataFrame:
    """Parker's §V findings beside ours, with a verdict per row (``agree?``: "yes", "no" or "—").

    Rows: the number of comparisons (a design size, no verdict); the share in
    which all measures agree (58% in the paper, agreement within
    ``tolerance``); the share of error cases (about 2,300 of 11,188); the
    positive proportions (0.9%–73.5%, median 11%: our median agrees within a
    factor of 1.5); H the rarest odd one out; MCC next; every incoherent
    measure (AUC, AP, AUK) an odd one out more often than every coherent one
    (max-F1, max-MCC, H); the G-test against equal shares (G = 1095,
    p < 10^-200); Figure 4(a): AUC a larger share of the error cases below the
    median positive proportion than above it, max-F1 a smaller one; Figure
    4(b): AUK and AUC shares differ below and above the median threshold
    difference (Wilson intervals disjoint); Figure 5: the classifiers' Wilson
    intervals overlap (all pairs of neighbours in rate order).

    Parameters
    ----------
    comparisons : pandas.DataFrame
        :attr:`ExperimentResult.comparisons` (measure columns, ``pos_prop``,
        ``threshold_diff``, ``clf_a``, ``clf_b``, ``dataset``, ``label``).
    tolerance : float, default 0.05
        Largest difference of two shares called agreement.

    Returns
    -------
    pandas.DataFrame
        Columns ``finding``, ``paper``, ``ours``, ``agree?`` (text, rounded
        for printing).

    References
    ----------
    Parker (2011) §IV (data), §V and Figures 2–5.
    """
    import pandas as pd

    prefs = comparisons[list(PARKER_MEASURES)]
    n = len(prefs)
    counts = _count_error_cases(prefs)
    n_err = int(counts.sum())
    agree = float((_agreement_levels(prefs) == 0).mean())
    paper_err = PAPER_RESULTS["error_cases"] / PAPER_RESULTS["comparisons"]
    tasks = comparisons.drop_duplicates(["dataset", "label"])["pos_prop"]
    p_min, p_med, p_max = float(tasks.min()), float(tasks.median()), float(tasks.max())
    order = counts.sort_values(kind="stable")
    if n_err == 0:  # the G-test of Parker's shares needs at least one error case
        raise ParameterValueError(
            "comparisons holds no error case (one measure against all the others): Parker's shares and "
            "G-test need at least one",
            param="comparisons",
        )
    g = _g_test(counts.to_numpy().astype(float), None)
    by_pi = _error_case_breakdown(comparisons, "pos_prop", 0.95).set_index(["measure", "group"])
    by_t = _error_case_breakdown(comparisons, "threshold_diff", 0.95).set_index(["measure", "group"])
    rates = _classifier_error_rates(comparisons, prefs, 0.95).sort_values("rate")
    overlap = bool(np.all(rates["high"].to_numpy()[:-1] >= rates["low"].to_numpy()[1:]))

    def share(table: Any, m: str, g: str) -> float:
        return float(table.loc[(m, g), "share"])

    def disjoint(table: Any, m: str) -> bool:
        lo, hi = table.loc[(m, "below median")], table.loc[(m, "above median")]
        return bool(lo["high"] < hi["low"] or hi["high"] < lo["low"])

    def yes(ok: bool) -> str:
        return "yes" if ok else "no"

    auc_4a = (share(by_pi, "AUC", "below median"), share(by_pi, "AUC", "above median"))
    f1_4a = (share(by_pi, "max-F1", "below median"), share(by_pi, "max-F1", "above median"))
    rows = [
        ("comparisons", f"{PAPER_RESULTS['comparisons']:,}", f"{n:,}", "—"),
        ("all seven measures agree", "about 58%", f"{100 * agree:.0f}%",
         yes(abs(agree - PAPER_RESULTS["all_agree_share"]) <= tolerance)),
        ("error cases (one measure against six)", f"about 2,300 ({100 * paper_err:.0f}%)",
         f"{n_err:,} ({100 * n_err / n:.0f}%)", yes(abs(n_err / n - paper_err) <= tolerance)),
        ("positive proportion: range, median", "0.9%–73.5%, 11%",
         f"{100 * p_min:.1f}%–{100 * p_max:.1f}%, {100 * p_med:.0f}%",
         yes(p_med / PAPER_RESULTS["pos_prop_median"] <= 1.5 and PAPER_RESULTS["pos_prop_median"] / p_med <= 1.5)),
        ("rarest odd one out", "H", f"{order.index[0]} ({order.iloc[0]})", yes(order.index[0] == "H")),
        ("next rarest", "MCC", f"{order.index[1]} ({order.iloc[1]})", yes(order.index[1] == "max-MCC")),
        ("AUC, AP, AUK odd more often than max-F1, max-MCC, H", "yes",
         yes(bool(counts[list(_INCOHERENT)].min() > counts[list(_COHERENT)].max())),
         yes(bool(counts[list(_INCOHERENT)].min() > counts[list(_COHERENT)].max()))),
        ("G-test against equal shares", "G = 1095, p < 1e-200",
         f"G = {g.statistic:.0f}, log10 p = {g.log10_pvalue:.0f}", yes(g.log10_pvalue < -200)),
        ("Fig. 4a: AUC's share, skewed vs balanced", "larger when skewed",
         f"{100 * auc_4a[0]:.0f}% vs {100 * auc_4a[1]:.0f}%", yes(auc_4a[0] > auc_4a[1])),
        ("Fig. 4a: max-F1's share, skewed vs balanced", "smaller when skewed",
         f"{100 * f1_4a[0]:.0f}% vs {100 * f1_4a[1]:.0f}%", yes(f1_4a[0] < f1_4a[1])),
        ("Fig. 4b: AUK and AUC depend on Δ thresholds", "yes",
         f"AUK {yes(disjoint(by_t, 'AUK'))}, AUC {yes(disjoint(by_t, 'AUC'))}",
         yes(disjoint(by_t, "AUK") and disjoint(by_t, "AUC"))),
        ("Fig. 5: classifiers' intervals overlap", "largely", yes(overlap), yes(overlap)),
    ]  # fmt: skip
    return pd.DataFrame(rows, columns=["finding", "paper", "ours", "agree?"])
