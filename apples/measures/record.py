"""A measure is data: one record says everything about it, and the report derives the rest.

Introduced in notebook 10. A cross-validated value is a measure (F, MCC, ROC AUC, log loss, ...)
and an aggregation over the folds (pooled, averaged, merged): Forman & Scholz (2010) §2.3 and §3
show that the aggregation changes the number as much as the measure does. A :class:`Measure`
holds one measure's key and names, the tasks it applies to, what it reads (the predicted labels,
the scores, or probabilities), its kernel, the aggregations it supports with each one's 0/0 rule,
its label averages (Van Asch 2013 §3), its range and direction, its guidance and references.
:func:`apples.report`, :func:`apples.compare`, their intervals, every output format and the
methods paragraph are computed from these records: a new measure is one record.

How each aggregation is computed from the folds of one repeat (the report averages the repeats):

=============  =================================================================================
kind           value
=============  =================================================================================
``pooled``     the measure of the totals summed over the folds (F_tp,fp is F of the pooled counts)
``avg``        the mean of the folds' values, each fold's 0/0 handled by the aggregation's policy
``merge``      a ranking measure of every fold's scores together (AUC_merge, F&S §3.2)
``pr_re``      F of the averaged precision and recall (F_pr,re, F&S §2.3)
=============  =================================================================================

Every aggregation's interval is the corrected repeated k-fold t (Nadeau & Bengio 2003;
Bouckaert & Frank 2004) over per-fold values whose mean is the reported value: the folds' own
values for ``avg``, the leave-one-fold-out jackknife pseudo-values for the others
(:mod:`apples.measures._evaluate`). A record may refuse an interval for an aggregation, with the
reason (``no_interval``).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = [
    "AGGREGATION_KINDS",
    "FAMILIES",
    "TASKS",
    "Aggregation",
    "Measure",
]

#: The tasks a measure can apply to.
TASKS: tuple[str, ...] = ("binary", "multiclass", "multilabel")
#: How an aggregation is computed from a repeat's folds (the table of the module docstring).
AGGREGATION_KINDS: tuple[str, ...] = ("pooled", "avg", "merge", "pr_re")
#: What a measure reads: ``counts`` (the per-label totals of each fold: predicted labels), ``f_measure`` (the
#: binary F of Forman & Scholz, whose five aggregations have their own 0/0 rules), ``ranking`` (the scores, one
#: sort), ``scoring`` (probabilities: per-fold sums of a proper scoring rule), ``predictions`` (a function of one
#: fold's labels or scores, called on the rows themselves).
FAMILIES: tuple[str, ...] = ("counts", "f_measure", "ranking", "scoring", "predictions")


@dataclass(frozen=True)
class Aggregation:
    """One way to aggregate a measure over the folds, with its 0/0 rule.

    Attributes
    ----------
    key : str
        Its name in tables and JSON (``"pooled"``, ``"avg"``, ``"merge"``, ``"tp_fp"``, ...).
    kind : {"pooled", "avg", "merge", "pr_re"}
        How it is computed (the module docstring's table).
    undefined : {"nan", "zero", "skip"}
        What a fold whose value is 0/0 does to it: ``"zero"`` counts it as 0, ``"skip"`` leaves it
        out of the mean, ``"nan"`` makes the value undefined (for ``pooled`` and ``merge``: the
        value is undefined only where its own pooled or merged 0/0 occurs).
    name : str
        How reports print it ("pooled over folds").
    symbol : str
        The paper's symbol, if it has one (``"F_tp,fp"``).
    """

    key: str
    kind: Literal["pooled", "avg", "merge", "pr_re"]
    undefined: Literal["nan", "zero", "skip"]
    name: str
    symbol: str = ""


POOLED = Aggregation("pooled", "pooled", "nan", "pooled over folds")
AVERAGED_ZERO = Aggregation("avg", "avg", "zero", "averaged over folds")
AVERAGED_SKIP = Aggregation("avg", "avg", "skip", "averaged over folds")
AVERAGED_NAN = Aggregation("avg", "avg", "nan", "averaged over folds")
MERGED = Aggregation("merge", "merge", "nan", "merged scores")


def _check_record(m: Measure) -> None:
    """The rules every record keeps (a wrong record fails at import, not in a report)."""
    bad = [t for t in m.tasks if t not in TASKS]
    if not m.tasks or bad:
        raise ValueError(f"measure {m.key!r}: tasks must be among {TASKS}, got {m.tasks}")
    if m.family not in FAMILIES:
        raise ValueError(f"measure {m.key!r}: family must be one of {FAMILIES}, got {m.family!r}")
    keys = [a.key for a in m.aggregations]
    if not keys or len(set(keys)) != len(keys):
        raise ValueError(f"measure {m.key!r}: aggregations must be distinct and at least one, got {keys}")
    if m.recommended is not None and m.recommended not in keys:
        raise ValueError(f"measure {m.key!r}: recommended {m.recommended!r} is not one of its aggregations {keys}")
    unknown = set(m.no_interval) - set(keys)
    if unknown:
        raise ValueError(f"measure {m.key!r}: no_interval names unknown aggregations {sorted(unknown)}")
    lo, hi = m.range
    if not lo < hi or math.isnan(lo) or math.isnan(hi):
        raise ValueError(f"measure {m.key!r}: range must be (low, high) with low < high, got {m.range}")
    if m.needs not in ("y_pred", "y_score", "probabilities"):
        raise ValueError(f"measure {m.key!r}: needs must be y_pred, y_score or probabilities, got {m.needs!r}")


@dataclass(frozen=True)
class Measure:
    """One measure, declared once: everything a report, a comparison and their views need to know of it.

    Attributes
    ----------
    key : str
        Its name in tables, JSON and ``measures=`` (``"mcc"``).
    name : str
        How reports print it (``"MCC"``).
    family : {"counts", "f_measure", "ranking", "scoring", "predictions"}
        What it reads and how its kernel is called (:data:`FAMILIES`).
    kernel : callable
        The computation, by family: ``counts``: ``kernel(totals, average, weights, undefined, options)``
        on :class:`~apples._kernels.totals.LabelTotals` with any leading shape; ``ranking``: the name of
        the :class:`~apples._kernels.ranking.FoldRanking` field (``"auc"``, ``"ap"``, ``"h"``); ``scoring``:
        ``"log_loss"`` or ``"brier"``; ``predictions``: ``kernel(y_true, y, sample_weight)`` on one fold's
        rows; ``f_measure``: unused (the F kernels of :mod:`apples._kernels.f_measure`).
    tasks : tuple of str
        Among ``"binary"``, ``"multiclass"``, ``"multilabel"``.
    aggregations : tuple of Aggregation
        The aggregations it supports, in the order reports print them.
    needs : {"y_pred", "y_score", "probabilities"}
        What the predictions must hold for it: predicted labels, scores, or scores that are probabilities.
    averages : tuple of str
        Multi-class and multi-label label averages (Van Asch §3: ``"macro"``, ``"micro"``, ``"lfb_test"``,
        ``"lfb_train"``; ranking: ``"macro_ovr"``); empty for a measure of the whole table.
    label_undefined : {"zero", "skip", "nan"}
        Inside a label average: what a label whose value is 0/0 counts (Van Asch §4.1: ``"zero"``).
    range : (float, float)
        The values it can take (checked when a report is read back); ``inf`` for unbounded.
    greater_is_better : bool
        Its direction.
    percent : bool
        Printed in percent (rates), else as a decimal with ``digits`` decimals.
    digits : int
        Decimals when not in percent.
    weights : bool
        Whether it uses sample weights (every built-in one does).
    undefined_text : str
        Its 0/0 rule in words, for the report's header, the book's 0/0 table and the methods paragraph.
    recommended : str or None
        The aggregation the papers support, if any.
    guidance : str
        Why, with the paper and section.
    fallback : str
        The caveat of the aggregation reported instead where the recommended one is undefined in every fold.
    fold_undefined : str
        Why one fold's value is 0/0, for the report's Folds section.
    references : str
        The sources of the measure itself.
    options : mapping
        Settings of the measure (``beta`` for F_beta, ``severity_ratio`` for H, ``eps`` for the log
        loss); a different setting is a different record (:meth:`using`).
    no_interval : mapping
        Aggregation key -> why it has no interval.
    """

    key: str
    name: str
    family: Literal["counts", "f_measure", "ranking", "scoring", "predictions"]
    kernel: Callable[..., Any] | str | None
    tasks: tuple[str, ...]
    aggregations: tuple[Aggregation, ...]
    needs: Literal["y_pred", "y_score", "probabilities"] = "y_pred"
    averages: tuple[str, ...] = ()
    label_undefined: Literal["zero", "skip", "nan"] = "zero"
    range: tuple[float, float] = (0.0, 1.0)
    greater_is_better: bool = True
    percent: bool = True
    digits: int = 4
    weights: bool = True
    undefined_text: str = ""
    recommended: str | None = None
    guidance: str = ""
    fallback: str = ""
    fold_undefined: str = ""
    references: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)
    no_interval: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _check_record(self)

    def aggregation(self, key: str) -> Aggregation:
        """The aggregation of that key (a KeyError naming the ones there are)."""
        for a in self.aggregations:
            if a.key == key:
                return a
        raise KeyError(f"{self.key} has no aggregation {key!r}; it has {[a.key for a in self.aggregations]}")

    def using(self, **options: Any) -> Measure:
        """The same measure with other settings (``f.using(beta=2)``); the name says the setting."""
        return dataclasses.replace(self, options={**self.options, **options})

    def format(self, value: float | None, *, sign: str = "%") -> str:
        """A value as reports print it: a rate in percent with one decimal, else ``digits`` decimals."""
        if value is None or math.isnan(value):
            return "undefined"
        if math.isinf(value):
            return "infinite"
        return f"{100 * value:.1f}{sign}" if self.percent else f"{value:.{self.digits}f}"

    def describe(self) -> dict[str, Any]:
        """What a report stores of the record (JSON values): enough to print and range-check it without the kernel."""
        return {
            "name": self.name,
            "range": [_json_number(v) for v in self.range],
            "greater_is_better": self.greater_is_better,
            "percent": self.percent,
            "digits": self.digits,
            "undefined": self.undefined_text,
            "aggregations": {a.key: {"name": a.name, "symbol": a.symbol} for a in self.aggregations},
            "options": {k: _json_number(v) if isinstance(v, float) else v for k, v in self.options.items()},
            "references": self.references,
        }


def _json_number(x: float) -> float | str:
    return x if math.isfinite(x) else ("inf" if x > 0 else "-inf")
