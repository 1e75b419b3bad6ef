"""The methods paragraph of a report: what a paper's methods section must say about its numbers.

Built from what the report stores: the design (folds, repeats, stratification, seed, hold-out
splits), the weights, each measure with the aggregation the report recommends and its 0/0 rule, and
the interval method (or, for one hold-out split, that there is none), with the references of the
interval method and of each measure's record. Plain text for the
researcher to edit: it states what was done, never what was found.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = [
    "methods_paragraph",
]

_INTERVAL_REFS = (
    "Nadeau, C. & Bengio, Y. (2003). Inference for the generalization error. Machine Learning 52(3), 239-281.",
    "Bouckaert, R. R. & Frank, E. (2004). Evaluating the replicability of significance tests for comparing "
    "learning algorithms. PAKDD, LNCS 3056, 3-12.",
    "Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap, ch. 11 (the jackknife). Chapman & Hall.",
)
_FS = "Forman, G. & Scholz, M. (2010). Apples-to-apples in cross-validation studies. SIGKDD Explorations 12(1), 49-57."
_VA = "Van Asch, V. (2013). Macro- and micro-averaged evaluation measures. CLiPS, University of Antwerp."


def _design(d: Mapping[str, Any]) -> str:
    design = d.get("design", {})
    kind = design.get("design", "k-fold")
    r = design.get("n_repeats", 1)
    k = design.get("folds_per_repeat", d["n_folds"])
    cases = d["n"] // max(r, 1)
    if kind == "repeated hold-out":
        what = f"{r} random hold-out splits of the {cases:,} cases"
    elif kind == "hold-out":
        what = f"one hold-out split ({d['n']:,} test cases)"
    elif kind == "leave-one-out":
        what = f"leave-one-out cross-validation on {d['n']:,} cases"
    elif r > 1:
        what = f"{r} repeats of {k}-fold cross-validation on {cases:,} cases"
    else:
        what = f"{k}-fold cross-validation on {d['n']:,} cases"
    partition = "each repeat a new partition" if r > 1 and kind not in ("repeated hold-out", "hold-out") else ""
    strat = {True: "stratified folds", False: "folds not stratified"}.get(d.get("stratified"), "")  # type: ignore[arg-type]
    seed = f"split seed {d['cv_seed']}" if "cv_seed" in d else ""
    extra = "; ".join(s for s in (partition, ", ".join(s for s in (strat, seed) if s)) if s)  # one parenthesis
    return f"We estimated the performance of the classifier by {what}" + (f" ({extra})" if extra else "") + "."


#: The measures whose aggregations over the folds Forman & Scholz (2010) compare, and where: the five F (§2.3) and
#: AUC averaged over folds or of the merged scores (§3.2). Other measures' aggregations are not theirs to cite.
_FS_SECTIONS = {"f_measure": "§2.3", "roc_auc": "§3.2"}

#: Measures whose pooled value is the mean of a loss over the cases (proper scoring rules), not a measure of counts.
_CASE_MEANS = ("log_loss", "brier_score")


def _measure_sentence(d: Mapping[str, Any], key: str, meta: Mapping[str, Any]) -> str:
    agg = d["recommended"].get(key)
    if agg is None:
        aggs = ", ".join(f"{a['symbol'] or a['name']}" for a in meta["aggregations"].values())
        return f"{meta['name']} ({aggs})"
    a = meta["aggregations"][agg]
    if agg == "pooled" and key in _CASE_MEANS:
        return f"{meta['name']} as the mean over all of each repeat's cases"
    how = {
        "tp_fp": "of the true positives, false positives and false negatives pooled over each repeat's folds",
        "pooled": "of the counts pooled over each repeat's folds",
        "avg": "as the mean of the per-fold values",
        "merge": "of every fold's scores merged",
    }.get(agg, a["name"])
    name = meta["name"] + (f" ({a['symbol']})" if a["symbol"] else "")
    source = f" (Forman & Scholz 2010, {_FS_SECTIONS[key]})" if key in _FS_SECTIONS else ""
    return f"{name} {how}{source}"


def methods_paragraph(d: Mapping[str, Any]) -> str:
    """The paragraph (see the module docstring)."""
    parts = [_design(d)]
    if "sample_weight" in d:
        parts.append(
            f"Every value was computed with the sample weights (mean weight {d['sample_weight']['mean']:.4g}), "
            "each case counting its weight."
        )
    task = {
        "binary": "",
        "multiclass": " (multi-class, label averages after Van Asch 2013, §3)",
        "multilabel": " (multi-label, Van Asch 2013, §5)",
    }[d["task"]]
    measures = "; ".join(_measure_sentence(d, k, m) for k, m in d["measures"].items())
    parts.append(f"We report{task}: {measures}.")
    h = d["measures"].get("h_measure", {}).get("options", {}).get("severity_ratio")
    if h is not None:
        parts.append(
            "The H-measure (Hand 2009) uses the prior Beta(2, 1 + 1/r) on the cost share of the R package hmeasure "
            f"(Anagnostopoulos & Hand), with severity ratio r = {h:.4g}, the same for every fold."
        )
    if "repeats" in d:
        parts.append(
            "Each value is the mean over the repeats of that repeat's value; we give the standard deviation across "
            "repeats."
        )
    rules = "; ".join(f"{m['name']}: {m['undefined']}" for m in d["measures"].values() if m["undefined"])
    if rules:
        parts.append(f"Undefined values (0/0) were handled as follows. {rules}.")
    parts.append(_interval_sentence(d))
    refs = [_FS] + ([_VA] if d["task"] != "binary" else []) + list(_INTERVAL_REFS)
    measure_refs = [f"{m['name']}: {m['references']}" for m in d["measures"].values() if m.get("references")]
    return (
        " ".join(parts)
        + "\n\nReferences\n"
        + "\n".join(f"- {r}" for r in refs)
        + ("\n\nSources of the measures\n" + "\n".join(f"- {r}" for r in measure_refs) if measure_refs else "")
    )


def _interval_sentence(d: Mapping[str, Any]) -> str:
    """How the intervals were made, at the report's level (or "where we give them", if it has none)."""
    level = d.get("confidence")
    design = d.get("design", {}).get("design", "k-fold")
    if design == "hold-out":
        return "One hold-out split gives one value per measure and no interval from the folds."
    start = (
        f"The {100 * level:g}% confidence intervals are"
        if level is not None
        else "Confidence intervals, where given, are"
    )
    points = (
        "the per-split values for averages over the splits and the leave-one-split-out jackknife pseudo-values for "
        "pooled and merged values"
        if design == "repeated hold-out"
        else "the per-fold values for averages over folds and the leave-one-fold-out jackknife pseudo-values for "
        "pooled and merged values"
    )
    name = "corrected resampled t" if design == "repeated hold-out" else "corrected repeated k-fold t"
    return (
        f"{start} the {name} (Nadeau & Bengio 2003; Bouckaert & Frank 2004) over {points}, with J − 1 degrees of "
        "freedom for J values and the variance factor 1/J + n_test/n_train, which accounts for the overlap of the "
        "training sets."
    )
