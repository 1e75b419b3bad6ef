"""One call for every aggregation of a cross-validated result: :func:`report`.

Introduced in notebook 10. A cross-validated F-measure, AUC or macro average is one number only
once the aggregation over folds is named: Forman & Scholz (2010) show five F aggregations that
differ by many points on the same predictions (§2.3, §4), and AUC_avg against AUC_merge (§3); Van
Asch (2013) shows that macro, micro and label-frequency-based averages and the two macro-F
definitions differ as much (§3, §4). :func:`report` computes every measure (one record each,
:mod:`apples.measures`) under each of its aggregations from one set of fold tables, lists the folds
where a value is undefined, says what the papers support, warns where two aggregations of the same
quantity differ by more than one percentage point, and, on request, puts an interval beside every
value.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np

from apples._kernels.labels import van_asch_tn
from apples._params import (
    CONFIDENCE,
    FLAG,
    STATED_SEED,
    Kind,
    MappingOf,
    Nullable,
    ParameterValueError,
    Real,
    declare,
)
from apples.cv.predictions import CVPredictions
from apples.cv.summary import CV_RESULT, CVSummary
from apples.measures import MEASURES, Measure
from apples.measures._evaluate import Context, Estimate, estimate, spread
from apples.measures._tables import RepeatTables, ResultMeta, fold_tables, meta_of, train_weights
from apples.metrics.hmeasure import SEVERITY_RATIO
from apples.reporting._guidance import gap_warnings, guidance, score_direction_warnings
from apples.reporting._model import LAYOUT, CVReport, json_value, plain

__all__ = [
    "report",
]

#: Training-set label frequencies: a mapping label -> a real number in [0, 1].
_FREQUENCIES = MappingOf(Real(0.0, 1.0), what="a mapping label -> training-set relative frequency")
#: F_beta's beta: positive and finite (F_0 is the precision and F_inf the recall, rows of their own).
_BETA = Real(0.0, None, low_inclusive=False)


class _Eps(Kind):
    what = "None, 'auto', or a real number in (0, 0.5): how the log loss clips probabilities"

    def check(self, name: str, value: object) -> float | str | None:
        if value is None or value == "auto":
            return value
        if isinstance(value, str):
            raise ValueError(f"{name} must be None, 'auto' or a number in (0, 0.5), got {value!r}")
        return float(Real(0.0, 0.5, low_inclusive=False, high_inclusive=False)(name, value))


class _Measures(Kind):
    what = "a sequence of measure keys (apples.measures.MEASURES) or apples.measures.Measure records"

    def check(self, name: str, value: object) -> list[Measure]:
        if isinstance(value, (str, Measure)):
            value = [value]
        if not isinstance(value, Sequence) or isinstance(value, (bytes, bytearray)):
            raise TypeError(f"{name} must be {self.what}, got {type(value).__name__}")
        if not value:
            raise ValueError(f"{name} is empty: name at least one measure, or leave it out for every measure")
        out: list[Measure] = []
        for i, v in enumerate(value):
            if isinstance(v, Measure):
                out.append(v)
            elif isinstance(v, str):
                if v not in MEASURES:
                    raise ValueError(f"{name}[{i}] is {v!r}, which is not a measure; the measures are {list(MEASURES)}")
                out.append(MEASURES[v])
            else:
                raise TypeError(f"{name}[{i}] must be a measure key (str) or a Measure, got {type(v).__name__}")
        keys = [m.key for m in out]
        twice = sorted({k for k in keys if keys.count(k) > 1})
        if twice:
            raise ValueError(f"{name} names {twice} twice; each measure once (a Measure's key must be new)")
        return out


_MEASURES = _Measures()

#: The note of a multi-label report: how its labels are counted.
_MULTILABEL_NOTE = (
    "Multi-label (Van Asch §5): each label is one yes/no decision per case; per-label tn is Van Asch's §5.1 count "
    "(the gold occurrences of the other labels minus fp), tn_cases the cases with the label neither gold nor "
    "predicted (scikit-learn's multilabel_confusion_matrix). Subset accuracy counts a case right only when its "
    "whole predicted label set is right; the Hamming loss is the share of wrong (case, label) decisions."
)


def _usable(m: Measure, p: ResultMeta, rows: bool) -> str | None:
    """Why measure ``m`` cannot be computed on ``p`` (None: it can); ``rows``: the predictions' rows are at hand."""
    if p.task not in m.tasks:
        return f"{m.key} is for {', '.join(m.tasks)} tasks; these predictions are {p.task}"
    if m.needs == "y_pred" and not p.has_pred:
        return f"{m.key} needs predicted labels (y_pred)"
    if m.needs == "y_score" and not p.has_score:
        return f"{m.key} needs scores (y_score)"
    if m.needs == "probabilities" and not p.probabilities:
        return (
            f"{m.key} needs probabilities in y_score (in [0, 1]; multi-class: one column per label, rows summing to 1)"
        )
    if p.weights is not None and not m.weights:
        return f"{m.key} does not take sample weights, and these predictions are weighted (sample_weight)"
    if m.family == "predictions" and not rows:
        return f"{m.key} is a function of the rows, and these predictions were summarised without keeping them"
    return None


def _choose(p: ResultMeta, measures: list[Measure] | None, options: dict[str, Any], rows: bool) -> list[Measure]:
    if measures is None:
        chosen = [m for m in MEASURES.values() if _usable(m, p, rows) is None]
    else:
        for m in measures:
            why = _usable(m, p, rows)
            if why:
                raise ParameterValueError(f"measures: {why}", param="measures")
        chosen = list(measures)
    if not chosen:
        raise ParameterValueError("these predictions allow no measure", param="predictions")
    out = []
    for m in chosen:
        own = {k: v for k, v in options.items() if k in m.options or (k == "beta" and m.family == "f_measure")}
        own = {k: v for k, v in own.items() if v is not None and m.options.get(k) != v}
        if "beta" in own and own["beta"] == 1.0:
            own.pop("beta")
        out.append(m.using(**own) if own else m)
    return out


def _averages(m: Measure, task: str, train: np.ndarray | None) -> list[str]:
    if task == "binary" or not m.averages:
        return [""]
    return [a for a in m.averages if a != "lfb_train" or train is not None]


def _design_section(info: dict[str, Any]) -> dict[str, Any]:
    """What the splits were, and only what changes the reading: cases never tested, hold-out test sets that share
    cases (known from the case ids)."""
    out = {k: info[k] for k in ("design", "n_repeats", "folds_per_repeat")}
    if info["n_untested"]:
        out["n_cases"], out["n_untested"] = info["n_cases"], info["n_untested"]
    if info["overlapping"]:
        out["overlap"] = {k: info[k] for k in ("n_tested", "n_tested_in_several_repeats", "max_times_tested")}
    return out


def _row(e: Estimate, m: Measure, repeated: bool) -> dict[str, Any]:
    row: dict[str, Any] = {
        "quantity": e.quantity,
        "average": e.average,
        "aggregation": e.aggregation,
        "value": json_value(e.value),
    }
    if math.isinf(e.value):
        row["infinite"] = True
    if repeated:
        row["std"] = json_value(e.std)
    row["substituted"] = e.substituted
    if e.reason:
        row["reason"] = e.reason
    row["spread"] = spread(e)
    return row


def _folds(
    p: ResultMeta, tables: list[RepeatTables], estimates: list[Estimate], measures: Mapping[str, Measure]
) -> list[dict[str, Any]]:
    """Each fold: its id, size (rows), positives or absent labels, and the values undefined in it, by measure."""
    repeated = p.repeat_ids is not None
    first_avg: dict[str, Estimate] = {}
    for e in estimates:
        if e.fold_values is not None and e.quantity not in first_avg and not e.average:
            first_avg[e.quantity] = e
    out = []
    for r, tab in enumerate(tables):
        totals = tab.row_totals if tab.row_totals is not None else tab.totals
        positives = tab.true_counts[:, 1] if p.task == "binary" else None
        for f, fold_id in enumerate(tab.fold_ids):
            undefined: list[dict[str, Any]] = []
            if p.task != "binary" and totals is not None:
                for i, lab in enumerate(p.labels):
                    if totals.tp[f, i] + totals.fp[f, i] == 0:
                        undefined.append({"quantity": "precision", "label": plain(lab), "reason": "never predicted"})
                    if totals.tp[f, i] + totals.fn[f, i] == 0:
                        undefined.append({"quantity": "recall", "label": plain(lab), "reason": "absent from the fold"})
            for key, e in first_avg.items():
                assert e.fold_values is not None
                if math.isnan(e.fold_values[r][f]):
                    m = measures[key]
                    why = "a fold of one case ranks nothing" if m.family == "ranking" and tab.sizes[f] < 2 else None
                    undefined.append({"quantity": key, "reason": why or m.fold_undefined or "0/0"})
            if p.task != "binary" and tab.ranking is not None:
                both = sum(1 for rk in tab.ranking if not math.isnan(rk.auc[f]))
                q = len(tab.ranking)
                if both < q:
                    undefined.append({"quantity": "roc_auc", "reason": f"{q - both} label(s) without both classes"})
            fold: dict[str, Any] = {"fold": plain(fold_id), "n": int(tab.sizes[f])}
            if repeated:
                assert p.repeat_ids is not None
                fold = {"repeat": plain(p.repeat_ids[r]), **fold}
            if positives is not None:
                fold["positives"] = int(positives[f])
            else:
                fold["absent_labels"] = [plain(lab) for i, lab in enumerate(p.labels) if tab.true_counts[f, i] == 0]
            fold["undefined"] = undefined
            out.append(fold)
    return out


def _per_label(p: ResultMeta, tables: list[RepeatTables]) -> list[dict[str, Any]]:
    """Per-label counts of rows summed over the repeats (multi-class and multi-label)."""
    if not tables or tables[0].totals is None:
        return []
    counted = [t.row_totals if t.row_totals is not None else t.totals for t in tables]
    tp, fp, fn = (
        np.sum([getattr(c, name).sum(axis=0) for c in counted if c is not None], axis=0).astype(np.int64)
        for name in ("tp", "fp", "fn")
    )
    n = int(sum(np.sum(c.n) for c in counted if c is not None))
    out = []
    van_asch = van_asch_tn(tp, fp, fn) if p.task == "multilabel" else None
    for i, lab in enumerate(p.labels):
        row = {"label": plain(lab), "tp": int(tp[i]), "fp": int(fp[i]), "fn": int(fn[i])}
        if van_asch is not None:
            row["tn"] = int(van_asch[i])
            row["tn_cases"] = int(n - tp[i] - fp[i] - fn[i])
        else:
            row["tn"] = int(n - tp[i] - fp[i] - fn[i])
        row["support"] = int(tp[i] + fn[i])
        out.append(row)
    return out


@declare(
    predictions=CV_RESULT,
    measures=Nullable(_MEASURES),
    beta=_BETA,
    eps=_Eps(),
    severity_ratio=SEVERITY_RATIO,
    train_frequencies=Nullable(_FREQUENCIES),
    confidence=Nullable(CONFIDENCE),
    stratified=Nullable(FLAG),
    cv_seed=Nullable(STATED_SEED),
)
def report(
    predictions: CVPredictions | CVSummary,
    *,
    measures: Sequence[str | Measure] | None = None,
    beta: float = 1.0,
    eps: float | str | None = None,
    severity_ratio: float | None = None,
    train_frequencies: Mapping[Hashable, float] | None = None,
    confidence: float | None = None,
    stratified: bool | None = None,
    cv_seed: int | None = None,
) -> CVReport:
    """Every aggregation of every measure of a cross-validated result, with the undefined folds and the guidance.

    Parameters
    ----------
    predictions : CVPredictions or CVSummary
        The cross-validated predictions, with their folds (and repeats), task, labels and positive
        label: :func:`apples.cross_val_predictions` returns them, ``apples.CVPredictions(y_true,
        folds=..., y_pred=..., y_score=...)`` builds them from arrays. Their ``sample_weight``, repeats
        and case ids are used throughout (each value weighted; each quantity computed per repeat and
        averaged over the repeats, with the standard deviation across them; the intervals over all
        the repeats' folds). Predictions too large for memory: :class:`apples.cv.CVSummary`, read block by
        block (the same values; a measure of the rows themselves is refused).
    measures : sequence of str or Measure, optional
        The measures to report: keys of :data:`apples.measures.MEASURES` (``"f_measure"``, ``"mcc"``,
        ``"roc_auc"``, ...) or records, your own among them (:func:`apples.measures.from_counts`,
        :func:`apples.measures.from_predictions`). Default: every built-in measure these predictions
        allow (counts with ``y_pred``; ranking measures with ``y_score``; log loss and Brier score when
        the scores are probabilities). A measure named here that the predictions do not allow is refused.
    beta : float, default 1.0
        0 < beta < inf: the F-measures are F_beta (Forman & Scholz eqs. 1-2; Van Asch eq. 4).
    eps : None, "auto" or float, default None
        How the log loss treats a probability of 0 for a case's true label: None reports the log loss as
        infinite and says why; a number clips the probabilities to [eps, 1 − eps]; "auto" clips at the
        machine epsilon of the scores' dtype, as scikit-learn's ``log_loss`` does.
    severity_ratio : float, optional
        The H-measure's severity ratio r (the cost of a false positive over that of a false negative; its
        prior on the cost share is Beta(2, 1 + 1/r), Hand 2009 §6). Default: π1/π0 of all the predictions,
        the R package's default, stated in the report and fixed for every fold, so the folds' H and the
        merged H measure the same thing.
    train_frequencies : mapping label -> float, optional
        Multi-class and multi-label: training-set label frequencies for lfb (Van Asch eq. 10, §3.3).
    confidence : float, optional
        Give it (e.g. 0.95) to print an interval beside every value; :meth:`CVReport.confidence_interval`
        computes them at any level afterwards, from what the report stores. Every interval is the
        corrected repeated k-fold t over per-fold points whose mean is the value: the folds' values for
        an average over folds, the leave-one-fold-out jackknife pseudo-values for a pooled or merged value
        (:mod:`apples.measures._evaluate`; Nadeau & Bengio 2003; Bouckaert & Frank 2004).
    stratified : bool, optional
        Whether the folds were stratified, if you know it: the header states it.
    cv_seed : int, optional
        The integer seed the splitter was given (``random_state=``), if you know it: the header states it.

    Returns
    -------
    CVReport
        One long table (quantity, average, aggregation, repeat, value, interval) with the folds, the
        per-label counts, the recommendations, notes and warnings: :meth:`~CVReport.value`,
        :meth:`~CVReport.confidence_interval`, :meth:`~CVReport.to_frame`, text, HTML, Markdown, LaTeX,
        JSON and :meth:`~CVReport.methods_text`. A quantity that cannot be computed is absent; an undefined
        value is None with the reason.

    Raises
    ------
    ValueError, TypeError
        ``predictions`` is not a CVPredictions; a measure unknown, named twice, or not allowed by the
        predictions (its task, y_pred, y_score, probabilities); ``train_frequencies`` for a binary task,
        or not covering the labels. Everything about the predictions themselves was checked when they
        were built (:class:`apples.CVPredictions`).

    Notes
    -----
    The undefined-fold (0/0) policy of each measure is its record's, stated in the notes: F_avg and
    F_pr,re count a fold with an undefined precision or recall as 0 and F~_avg, F~_pr,re leave it out
    (Forman & Scholz §2.3); precision and recall averaged over folds count it 0; ranking measures
    averaged over folds leave out the folds where they are undefined (a fold with one class), as
    ``cv_roc_auc(..., undefined="skip")``; MCC counts 0, as scikit-learn does; multi-class averages use
    the label set in every fold, a label's undefined precision or recall counting 0 (Van Asch §4.1).
    A value whose own pooled or merged 0/0 occurs is None. A row that counted an undefined fold (or
    label) as 0 carries a mark.

    References
    ----------
    Forman & Scholz (2010) §2.3, §2.4, §3.2, §4.3, §5; Van Asch (2013) §3 eqs. (8)-(10), §4.1, §5;
    Nadeau & Bengio (2003) §4; Bouckaert & Frank (2004) §3; Hand (2009) §§4-6.

    Examples
    --------
    >>> from apples import report
    >>> from apples.cv import CVPredictions
    >>> r = report(CVPredictions([1, 0, 1, 1, 0, 0], folds=[0, 0, 0, 1, 1, 1], y_pred=[1, 0, 0, 1, 1, 0]))
    >>> r.value("f_measure", "tp_fp"), r.value("precision", "pooled"), r.value("precision", "avg")
    (0.6666666666666666, 0.6666666666666666, 0.75)
    """
    rows = isinstance(predictions, CVPredictions)
    p = meta_of(predictions)
    if p.task != "binary" and not p.has_pred:
        raise ParameterValueError(
            f"a {'multi-class' if p.task == 'multiclass' else 'multi-label'} report needs y_pred (the predicted "
            f"labels; labels {p.labels[:10]})",
            param="predictions",
        )
    train = train_weights(p, train_frequencies)
    chosen = _choose(p, measures, {"beta": beta, "eps": eps, "severity_ratio": severity_ratio}, rows)  # type: ignore[arg-type]
    by_key = {m.key: m for m in chosen}
    tables = fold_tables(predictions, chosen, severity_ratio=severity_ratio, eps=eps)
    repeated = p.repeat_ids is not None
    estimates: list[Estimate] = []
    for m in chosen:
        ctx = Context(p.task, train, p.n_cases)
        if m.family == "predictions":
            assert isinstance(predictions, CVPredictions)  # a summary's are refused in _choose
            y = predictions.y_pred if m.needs == "y_pred" else predictions.y_score
            ctx = ctx._replace(y_true=predictions.y_true, y=y, sample_weight=predictions.sample_weight)
        for average in _averages(m, p.task, train):
            estimates.extend(estimate(m, tables, a.key, average, ctx) for a in m.aggregations)
    d: dict[str, Any] = {"layout": LAYOUT, "task": p.task, "n": p.n_rows}
    d["n_folds"] = max(ids.size for ids in p.fold_ids)
    d["design"] = _design_section(p.design)
    if p.task == "binary":
        d["pos_label"] = plain(p.pos_label)
    else:
        d["labels"] = [plain(v) for v in p.labels]
    if stratified is not None:  # what is not known is absent: null means 0/0 only
        d["stratified"] = bool(stratified)
    if cv_seed is not None:
        d["cv_seed"] = int(cv_seed)
    if p.weights is not None:
        d["sample_weight"] = {"mean": p.weights[0], "n_zero": p.weights[1]}
    d["measures"] = {m.key: m.describe() for m in chosen}
    if "h_measure" in by_key and tables:
        d["measures"]["h_measure"]["options"]["severity_ratio"] = tables[0].severity_ratio
    d["values"] = [_row(e, by_key[e.quantity], repeated) for e in estimates]
    if repeated:
        assert p.repeat_ids is not None
        d["repeats"] = {
            "n_repeats": p.n_repeats,
            "ids": [plain(v) for v in p.repeat_ids],
            "values": [
                {
                    "repeat": plain(p.repeat_ids[r]),
                    "quantity": e.quantity,
                    "average": e.average,
                    "aggregation": e.aggregation,
                    "value": json_value(e.per_repeat[r]),
                }
                for e in estimates
                for r in range(p.n_repeats)
            ],
        }
    d["folds"] = _folds(p, tables, estimates, by_key)
    if p.task != "binary":
        d["per_label"] = _per_label(p, tables)
    d["recommended"], d["notes"] = guidance(d, by_key)
    if p.task == "multilabel":
        d["notes"].append(_MULTILABEL_NOTE)
    defined = [t.prediction_auc for t in tables if t.prediction_auc == t.prediction_auc]
    prediction_auc = float(np.mean(defined)) if defined else None
    d["warnings"] = score_direction_warnings(d, prediction_auc) + gap_warnings(d, by_key)
    result = CVReport._build(d, by_key)
    if confidence is not None:
        result = result._with_intervals(confidence)
    return result
