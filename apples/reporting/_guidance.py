"""What the papers support, and where two aggregations disagree: the guidance of :func:`apples.report`.

:func:`guidance` gives the recommended aggregation of each quantity with the
paper behind it (Forman & Scholz §3.2, §4.3, §5; Van Asch §3, §4.1);
:func:`gap_warnings` lists every quantity whose aggregations differ by more
than :data:`WARN_GAP`, and the folds with undefined values.
"""

from __future__ import annotations

from typing import Any

from apples.cv.aggregations import QUANTITY_NAMES, REPORT_SECTIONS, aggregation_symbol

__all__ = [
    "WARN_GAP",
    "gap_warnings",
    "guidance",
    "score_direction_warnings",
    "undefined_policy",
]


_AVERAGE_WORDS = {"lfb_test": "lfb, test frequencies", "lfb_train": "lfb, training frequencies"}


def _word(section: str) -> str:
    """A quantity in words (``ROC AUC``, not ``roc_auc``): warnings are read, not parsed."""
    return QUANTITY_NAMES.get(section, section)


#: Two aggregations of one quantity further apart than this (a fraction: one percentage point) give a warning.
WARN_GAP = 0.01


def gap_warnings(d: dict) -> list[str]:
    """Every quantity whose aggregations differ by more than :data:`WARN_GAP`, and the folds with undefined values."""
    groups: list[tuple[str, str, dict[str, float | None]]] = []
    if d["task"] == "binary":
        for section in REPORT_SECTIONS["binary"]:
            if section in d:
                groups.append((section, _word(section), d[section]))
    else:
        for section in REPORT_SECTIONS["multiclass"]:
            if section not in d:
                continue
            if section == "roc_auc":
                groups.append((section, "ROC AUC (macro one-vs-rest)", d[section]["macro_ovr"]))
                continue
            if section == "accuracy":
                groups.append((section, _word(section), d[section]))
                continue
            for average, aggs in d[section].items():
                groups.append((section, f"{_word(section)} ({_AVERAGE_WORDS.get(average, average)})", aggs))
        groups.append(
            (
                "macro_f",
                "macro F (F of averaged P, R against the mean of per-label F, pooled)",
                {"f_of_averages": d["f_of_averages"]["macro"]["pooled"], "mean_f": d["mean_f"]["macro"]["pooled"]},
            )
        )
    out = []
    for section, name, aggs in groups:
        defined = {k: v for k, v in aggs.items() if v is not None}
        if len(defined) >= 2 and max(defined.values()) - min(defined.values()) > WARN_GAP:
            gap = 100 * (max(defined.values()) - min(defined.values()))
            values = ", ".join(f"{aggregation_symbol(section, k)} {100 * v:.1f}%" for k, v in defined.items())
            out.append(f"{name}: the aggregations differ by {gap:.1f} points ({values}); name the one you report")
    bad = [f for f in d["folds"] if f["undefined"]]
    if bad:
        quantities = sorted({_word(u["quantity"]) for f in bad for u in f["undefined"]})
        out.append(
            f"{len(bad)} of {len(d['folds'])} folds have an undefined {', '.join(quantities)}; "
            "see the Folds section and the undefined-fold policy in the header"
        )
    return out


_FIX = (
    "give the positive label's score (one minus the other label's probability, or minus its decision value; "
    "cross_val_predictions with pos_label returns it)"
)


def score_direction_warnings(d: dict, prediction_auc: float | None) -> list[str]:
    """Warnings where the scores seem to belong to the other label: a wrong AUC must not pass without a word.

    ``prediction_auc`` is the ROC AUC of the scores for telling the cases predicted positive from
    those predicted negative, over all cases (None without predictions, scores, or both predicted
    classes). A classifier's scores and its predictions come from the same model, so the scores
    rank its predicted positives first: an AUC below 0.5 there means the score column is, most
    likely, the other label's. Independently, a ROC AUC below 0.5 (averaged over folds or merged)
    ranks the negatives above the positives more often than not: worse than chance, or the scores
    of the other label.
    """
    out = []
    if prediction_auc is not None and prediction_auc < 0.5:
        out.append(
            "the scores rank the cases predicted negative above those predicted positive (their ROC AUC for the "
            f"predicted labels is {100 * prediction_auc:.1f}%): they are probably the other label's scores; {_FIX}"
        )
    if "roc_auc" not in d:
        return out
    auc = d["roc_auc"] if d["task"] == "binary" else d["roc_auc"]["macro_ovr"]
    low = {k: v for k, v in auc.items() if v is not None and v < 0.5}
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


def guidance(d: dict) -> tuple[dict[str, Any], list[str]]:
    """What the papers support for each quantity the report holds, and the notes that say why."""
    if d["task"] == "binary":
        recommended: dict[str, Any] = {}
        notes = []
        if "f_measure" in d:
            recommended.update(f_measure="tp_fp", precision="pooled", recall="pooled", accuracy="pooled")
            notes.append(
                "F: report F_tp,fp (pooled TP, FP, FN); averaging per fold is biased when positives are rare "
                "or folds lack them (Forman & Scholz §4.3, §5)."
            )
        if "roc_auc" in d:
            recommended.update(roc_auc="avg", average_precision="avg")
            notes.append(_auc_note(d, recommended))
        notes += _scoring_rule_notes(d)
    else:
        recommended = {
            "label_set": d["labels"],
            "average": "name it: macro, micro or lfb",
            "macro_f": "name it: f_of_averages or mean_f",
        }
        notes = [
            f"Label set: {len(d['labels'])} labels, used in every fold; a label absent from a fold counts "
            "with precision and recall 0 (Van Asch §4.1).",
            "Macro-F has two definitions: F of the macro precision and recall (f_of_averages) and the mean of "
            "per-label F (mean_f, scikit-learn's f1_score average='macro'); they differ (Van Asch §3).",
            "lfb_test weights labels by their test frequencies (scikit-learn's average='weighted'); lfb_train "
            "by the training frequencies (Van Asch §3.3).",
        ]
    notes.append(
        "State the number of folds, stratification, repeats and the undefined-fold policy with the numbers "
        "(the header gives them as far as they are known)."
    )
    return recommended, notes


def undefined_policy(d: dict) -> str:
    """The undefined-fold policy of a report, in words, for its header (the policy of :func:`apples.report`)."""
    if d["task"] == "binary":
        parts = []
        if "f_measure" in d:
            parts.append(
                "F_avg, F_pr,re and averaged precision/recall count an undefined fold as 0; "
                "F~_avg, F~_pr,re leave it out"
            )
        if "roc_auc" in d:
            parts.append("averaged ROC AUC and AP leave out the folds where they are undefined")
        return "; ".join(parts)
    return "a label absent from a fold, or never predicted, counts with precision and recall 0 (Van Asch §4.1)"


def _leave_one_out(d: dict) -> bool:
    return all(f["n"] == 1 for f in d["folds"])


def _auc_note(d: dict, recommended: dict[str, Any]) -> str:
    """The AUC note; where AUC_avg is undefined in every fold (leave-one-out), the merged AUC and why."""
    if d["roc_auc"]["avg"] is not None:
        return (
            "AUC: report AUC_avg (mean over folds); AUC_merge ranks the scores of different fold models "
            "together and also judges their calibration (Forman & Scholz §3.2): use it only when that is the "
            "question."
        )
    recommended["roc_auc"] = "merge"
    loo = _leave_one_out(d)
    if d["average_precision"]["avg"] is None or loo:
        recommended["average_precision"] = "merge"
    why = "under leave-one-out every fold holds one case, so one class" if loo else "no fold holds both classes"
    ap = (
        " Likewise AP_avg: a fold of one positive case ranks it first, so its AP is 1 whatever the model; report "
        "the merged AP."
        if loo
        else ""
    )
    return (
        f"AUC: AUC_avg is undefined in every fold ({why}); what can be computed is AUC_merge, the AUC of all "
        "folds' scores merged. Report it with its caveat: it ranks scores of different fold models together, so "
        "it also judges their calibration across folds, and is lower when the fold models are calibrated differently "
        f"(Forman & Scholz §3.2).{ap}"
    )


def _scoring_rule_notes(d: dict) -> list[str]:
    """Notes on the log loss and the Brier score (present only when the scores are probabilities)."""
    if "brier_score" not in d:
        return []
    notes = [
        "Log loss and Brier score (the scores read as the positive label's probability): for these two the "
        "pooled value is the fold-size-weighted mean of the folds' values (each is a mean over cases), so "
        "pooling and averaging agree up to the folds' sizes; both judge calibration as well as ranking."
    ]
    if "log_loss" not in d:
        notes.append(
            "Log loss is not shown: a probability of 0 was given to a case's true label, so its log loss is "
            "infinite; the Brier score is shown."
        )
    return notes
