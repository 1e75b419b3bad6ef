"""The vocabulary of aggregation over folds, in one place: each F aggregation's method, 0/0 policy,
symbol, name and colour, and the names of every quantity and aggregation the report prints.

Introduced in notebook 01. Forman & Scholz (2010) §2.3 name five cross-validated F-measures. In
apples each is a ``method`` of :func:`apples.cv_f_measure` with an ``undefined`` policy for the
folds whose precision or recall is 0/0 (their V^(i) = 0):

==============  ==========  ==========  =========  =====================================================
key             method      undefined   symbol     computation
==============  ==========  ==========  =========  =====================================================
``tp_fp``       ``tp_fp``   ``zero``    F_tp,fp    eq. (2) of the TP, FP, FN summed over the folds
``avg``         ``avg``     ``zero``    F_avg      the mean of the folds' F, an undefined fold's F = 0
``pr_re``       ``pr_re``   ``zero``    F_pr,re    eq. (1) of mean precision and mean recall, 0/0 = 0
``avg_skip``    ``avg``     ``skip``    F̃_avg      the mean of F over the folds with V^(i) = 1
``pr_re_skip``  ``pr_re``   ``skip``    F̃_pr,re    F_pr,re over the folds with V^(i) = 1
==============  ==========  ==========  =========  =====================================================

Forman & Scholz recommend F_tp,fp (§4.3, §5).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = [
    "AGGREGATION_NAMES",
    "CV_F_METHODS",
    "F_AGGREGATIONS",
    "QUANTITY_NAMES",
    "REPORT_SECTIONS",
    "FAggregation",
]

#: The methods of :func:`apples.cv_f_measure`.
CV_F_METHODS: tuple[str, ...] = ("tp_fp", "avg", "pr_re")


@dataclass(frozen=True)
class FAggregation:
    """One of the five cross-validated F-measures of Forman & Scholz §2.3."""

    key: str  #: the name in tables, reports and JSON
    method: Literal["tp_fp", "avg", "pr_re"]  #: the ``method`` of :func:`apples.cv_f_measure`
    undefined: Literal["zero", "skip"]  #: its ``undefined`` policy for folds with V^(i) = 0
    symbol: str  #: the paper's symbol, in plain text
    name: str  #: what it computes, in a few words
    color: str  #: its colour in every figure


#: The five F aggregations by key, in the order tables list them (the recommended one first).
F_AGGREGATIONS: dict[str, FAggregation] = {
    a.key: a
    for a in (
        FAggregation("tp_fp", "tp_fp", "zero", "F_tp,fp", "pooled counts", "#000000"),
        FAggregation("avg", "avg", "zero", "F_avg", "averaged over folds", "#1f77b4"),
        FAggregation("pr_re", "pr_re", "zero", "F_pr,re", "of averaged P, R", "#d62728"),
        FAggregation("avg_skip", "avg", "skip", "F~_avg", "defined folds", "#2ca02c"),
        FAggregation("pr_re_skip", "pr_re", "skip", "F~_pr,re", "defined folds", "#ff7f0e"),
    )
}

#: The quantity sections of a report, by task, in the order they are printed.
REPORT_SECTIONS: dict[str, tuple[str, ...]] = {
    "binary": ("f_measure", "precision", "recall", "accuracy", "roc_auc", "average_precision"),
    "multiclass": ("precision", "recall", "f_of_averages", "mean_f", "accuracy", "roc_auc"),
}

#: How the report prints each quantity.
QUANTITY_NAMES: dict[str, str] = {
    "f_measure": "F-measure",
    "precision": "precision",
    "recall": "recall",
    "accuracy": "accuracy",
    "roc_auc": "ROC AUC",
    "average_precision": "average precision",
    "f_of_averages": "F of averaged P, R",
    "mean_f": "mean of per-label F",
}

#: How the report prints each aggregation: the F keys, and pooled, averaged, merged.
AGGREGATION_NAMES: dict[str, str] = {
    **{a.key: f"{a.symbol} ({a.name})" for a in F_AGGREGATIONS.values()},
    "avg": "averaged over folds",
    "pooled": "pooled over folds",
    "merge": "merged scores",
}


def aggregation_symbol(section: str, key: str) -> str:
    """The short name of one aggregation of a report section: F's paper symbol, else the key (pooled, avg, merge)."""
    return F_AGGREGATIONS[key].symbol if section == "f_measure" else key
