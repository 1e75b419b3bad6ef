"""The five cross-validated F-measures of Forman & Scholz, in one place: each one's method, 0/0 policy,
symbol, name and colour (the figures and ``cv_f_measure`` use them; the report's measures are records,
:mod:`apples.measures`).

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
    "CV_F_METHODS",
    "F_AGGREGATIONS",
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
