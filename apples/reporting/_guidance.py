"""What the papers support, and where two aggregations disagree: the guidance of :func:`apples.report`.

Everything here is read off the measure records (:mod:`apples.measures`): the recommended
aggregation and its note (``recommended``, ``guidance``), the caveat of the aggregation reported
instead when the recommended one is undefined in every fold (``fallback``), and the 0/0 rules
(``undefined_text``). :func:`gap_warnings` lists every rate whose aggregations differ by more than
:data:`WARN_GAP`, and the folds with undefined values.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from apples.measures import LABEL_AVERAGES, Measure

__all__ = [
    "WARN_GAP",
    "gap_warnings",
    "guidance",
    "score_direction_warnings",
]

#: Two aggregations of one quantity further apart than this (a fraction: one percentage point) give a warning.
WARN_GAP = 0.01


def _defined(v: Any) -> bool:
    return v is not None and math.isfinite(v)


def _by_quantity(rows: Sequence[Mapping[str, Any]]) -> dict[tuple[str, str], dict[str, float]]:
    """The defined values of every (quantity, average), by aggregation."""
    out: dict[tuple[str, str], dict[str, float]] = {}
    for r in rows:
        out.setdefault((r["quantity"], r["average"]), {})
        if _defined(r["value"]):
            out[(r["quantity"], r["average"])][r["aggregation"]] = r["value"]
    return out


def gap_warnings(d: Mapping[str, Any], measures: Mapping[str, Measure]) -> list[str]:
    """Every rate whose aggregations differ by more than :data:`WARN_GAP`, and the folds with undefined values."""
    out = []
    groups = _by_quantity(d["values"])
    for (quantity, average), values in groups.items():
        m = measures[quantity]
        if len(values) < 2 or not m.percent:
            continue
        gap = max(values.values()) - min(values.values())
        if gap > WARN_GAP:
            what = m.name + (f" ({LABEL_AVERAGES.get(average, average)})" if average else "")
            shown = ", ".join(f"{_symbol(m, k)} {100 * v:.1f}%" for k, v in values.items())
            out.append(f"{what}: the aggregations differ by {100 * gap:.1f} points ({shown}); name the one you report")
    if d["task"] != "binary" and "f_of_averages" in measures and "mean_f" in measures:
        a = groups.get(("f_of_averages", "macro"), {}).get("pooled")
        b = groups.get(("mean_f", "macro"), {}).get("pooled")
        if a is not None and b is not None and abs(a - b) > WARN_GAP:
            out.append(
                f"macro F: F of averaged P, R ({100 * a:.1f}%) and the mean of per-label F ({100 * b:.1f}%) differ "
                f"by {100 * abs(a - b):.1f} points, pooled (Van Asch §3); name the definition you report"
            )
    bad = [f for f in d["folds"] if f["undefined"]]
    if bad:
        names = sorted({measures[u["quantity"]].name for f in bad for u in f["undefined"] if u["quantity"] in measures})
        out.append(
            f"{len(bad)} of {len(d['folds'])} folds have an undefined {', '.join(names)}; see the Folds section and "
            "the 0/0 rules"
        )
    return out


def _symbol(m: Measure, key: str) -> str:
    a = m.aggregation(key)
    return a.symbol or key


_FIX = (
    "give the positive label's score (one minus the other label's probability, or minus its decision value; "
    "cross_val_predictions with pos_label returns it)"
)


def score_direction_warnings(d: Mapping[str, Any], prediction_auc: float | None) -> list[str]:
    """Warnings where the scores seem to belong to the other label: a wrong AUC must not pass without a word.

    ``prediction_auc`` is the ROC AUC of the scores for telling the cases predicted positive from those
    predicted negative (None without predictions, scores, or both predicted classes). A classifier's scores
    and predictions come from one model, so its scores rank its predicted positives first: below 0.5 the score
    column is most likely the other label's. Independently, a ROC AUC below 0.5 ranks the negatives above the
    positives more often than not: worse than chance, or the other label's scores.
    """
    out = []
    if prediction_auc is not None and prediction_auc < 0.5:
        out.append(
            "the scores rank the cases predicted negative above those predicted positive (their ROC AUC for the "
            f"predicted labels is {100 * prediction_auc:.1f}%): they are probably the other label's scores; {_FIX}"
        )
    low = {
        r["aggregation"]: r["value"]
        for r in d["values"]
        if r["quantity"] == "roc_auc" and _defined(r["value"]) and r["value"] < 0.5
    }
    if low:
        values = ", ".join(f"{k} {100 * v:.1f}%" for k, v in low.items())
        which = (
            f"the other label's scores (if so, {_FIX})"
            if d["task"] == "binary"
            else "score columns in another order than the labels (give one column per label, in label order)"
        )
        out.append(
            f"ROC AUC below 50% ({values}): the scores rank the negatives above the positives, worse than chance; "
            f"they may be {which}"
        )
    return out


def guidance(d: Mapping[str, Any], measures: Mapping[str, Measure]) -> tuple[dict[str, str], list[str]]:
    """The recommended aggregation of each quantity that has one (the record's, or where it is undefined in every
    fold the defined one, with the record's caveat), and the notes that say why."""
    recommended: dict[str, str] = {}
    notes: list[str] = []
    groups = _by_quantity(d["values"])
    for key, m in measures.items():
        if m.recommended is None:
            if m.guidance:
                notes.append(m.guidance)
            continue
        defined = {agg for (q, _), values in groups.items() if q == key for agg in values}
        if m.recommended in defined or not defined:
            recommended[key] = m.recommended
            if m.guidance:
                notes.append(m.guidance)
            continue
        instead = next(a.key for a in m.aggregations if a.key in defined)
        recommended[key] = instead
        why = next(
            (
                r.get("reason")
                for r in d["values"]
                if r["quantity"] == key and r["aggregation"] == m.recommended and r.get("reason")
            ),
            "undefined",
        )
        notes.append(
            f"{m.name}: the {m.aggregation(m.recommended).name} value is undefined here ({why}); what can be "
            f"computed is the {m.aggregation(instead).name} value. Report it with its caveat: {m.fallback or 'none'}."
        )
    if d["task"] != "binary":
        notes = [
            f"Label set: {len(d['labels'])} labels, used in every fold; a label absent from a fold counts with "
            "precision and recall 0 (Van Asch §4.1). Name the average you report: macro, micro or lfb.",
            "lfb_test weights labels by their test frequencies (scikit-learn's average='weighted'); lfb_train by "
            "the training frequencies (Van Asch §3.3).",
            *notes,
        ]
    notes.append(
        "State the number of folds, stratification, repeats and the undefined-fold policy with the numbers "
        "(the header gives them as far as they are known)."
    )
    return recommended, notes
