"""One call for every aggregation of a cross-validated result: :func:`report` and :class:`CVReport`.

Introduced in notebook 10. A cross-validated F-measure, AUC or macro average
is one number only once the aggregation over folds is named: Forman & Scholz
(2010) show five F aggregations that differ by many points on the same
predictions (§2.3, §4), and AUC_avg against AUC_merge (§3); Van Asch (2013)
shows that macro, micro and label-frequency-based averages and the two macro-F
definitions differ as much (§3, §4). :func:`report` computes them all side by
side from one table of predictions (:class:`apples.CVPredictions`), lists the folds where a quantity is
undefined, says what the papers support, and warns where two aggregations of
the same quantity differ by more than one percentage point.

The undefined-fold policy is in the Notes of :func:`report` (``help(apples.report)``).

A fold with one class is therefore reported, never an error.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np

from apples._params import CONFIDENCE, FLAG, SEED, MappingOf, Nullable, ParameterValueError, Real, Size, declare
from apples.cv.predictions import CV_PREDICTIONS, CVPredictions
from apples.metrics.precision_recall import BETA
from apples.reporting._guidance import gap_warnings, guidance, score_direction_warnings
from apples.reporting._intervals import (
    IntervalSettings,
    binary_intervals,
    combine_intervals,
    interval_note,
    interval_warnings,
    multiclass_intervals,
    weighted_intervals,
)
from apples.reporting._model import CVReport
from apples.reporting._tables import repeat_tables
from apples.reporting._values import SECTIONS, binary_values, multiclass_values, multilabel_values, plain

__all__ = [
    "report",
]

#: Training-set label frequencies: a mapping label -> a real number in [0, 1].
_FREQUENCIES = MappingOf(Real(0.0, 1.0), what="a mapping label -> training-set relative frequency")


#: The note of a multi-label report: how its labels are counted.
_MULTILABEL_NOTE = (
    "Multi-label (Van Asch §5): each label is one yes/no decision per case; per-label tn is Van Asch's §5.1 count "
    "(the gold occurrences of the other labels minus fp), tn_cases the cases with the label neither gold nor "
    "predicted (scikit-learn's multilabel_confusion_matrix). Subset accuracy counts a case right only when its "
    "whole predicted label set is right; the Hamming loss is the share of wrong (case, label) decisions."
)


def _mean_or_none(values: list[float | None]) -> float | None:
    return None if not values or any(v is None for v in values) else math.fsum(values) / len(values)  # type: ignore[arg-type]


def _std(values: list[float | None]) -> float | None:
    if len(values) < 2 or any(v is None for v in values):
        return None
    return float(np.std(np.asarray(values, dtype=float), ddof=1))


def _design_section(info: dict[str, Any]) -> dict[str, Any]:
    """What the splits were, and only what changes the reading: cases never tested, hold-out test sets that share
    cases (known from the case ids). A k-fold result whose every case was tested once reads the same from a
    file without case ids."""
    out = {k: info[k] for k in ("design", "n_repeats", "folds_per_repeat")}
    if info["n_untested"]:
        out["n_cases"], out["n_untested"] = info["n_cases"], info["n_untested"]
    if info["overlapping"]:
        out["overlap"] = {k: info[k] for k in ("n_tested", "n_tested_in_several_repeats", "max_times_tested")}
    return out


def _combine(trees: list, fn: Any) -> Any:
    if isinstance(trees[0], dict):
        return {k: _combine([t[k] for t in trees], fn) for k in trees[0]}
    return fn(trees)


def _train_weights(predictions: CVPredictions, train: Mapping[Hashable, float] | None) -> np.ndarray | None:
    """The training frequencies in label order, each label covered and summing to 1 (Van Asch eq. 10)."""
    if train is None:
        return None
    if predictions.task == "binary":
        raise ParameterValueError(
            "train_frequencies is for multi-class and multi-label reports (lfb, Van Asch §3.3); a binary task has "
            "no label average",
            param="train_frequencies",
        )
    missing = [lab for lab in predictions.labels if lab not in train]
    extra = [lab for lab in train if lab not in set(predictions.labels)]
    if missing or extra:
        raise ParameterValueError(
            f"train_frequencies must give every label of the task ({predictions.labels[:10]}) and no other: "
            f"missing {missing[:5]}, extra {extra[:5]}",
            param="train_frequencies",
        )
    weights = np.array([float(train[lab]) for lab in predictions.labels])
    if abs(math.fsum(weights.tolist()) - 1.0) > 1e-9:
        raise ParameterValueError(
            f"train_frequencies must sum to 1 (relative frequencies, Van Asch eq. 10), they sum to {weights.sum()!r}",
            param="train_frequencies",
        )
    return weights


@declare(
    predictions=CV_PREDICTIONS,
    train_frequencies=Nullable(_FREQUENCIES),
    confidence=Nullable(CONFIDENCE),
    n_resamples=Size(bytes_each=64, table="the report's bootstrap replicates"),
    seed=SEED,
    beta=BETA,
    stratified=Nullable(FLAG),
    cv_seed=Nullable(SEED),
)
def report(
    predictions: CVPredictions,
    *,
    train_frequencies: Mapping[Hashable, float] | None = None,
    confidence: float | None = None,
    n_resamples: int = 10_000,
    seed: int = 0,
    beta: float = 1.0,
    stratified: bool | None = None,
    cv_seed: int | None = None,
) -> CVReport:
    """Every aggregation of a cross-validated result, with the undefined folds and what the papers support.

    Parameters
    ----------
    predictions : CVPredictions
        The cross-validated predictions, with their folds (and repeats), task, labels and positive
        label: :func:`apples.cross_val_predictions` returns them, ``apples.CVPredictions(y_true,
        folds=..., y_pred=..., y_score=...)`` builds them from arrays. With ``y_pred`` the report has
        the F-measures, precision, recall and accuracy; with ``y_score`` ROC AUC and average
        precision (binary: the positive label's score; multi-class: one column per label, the macro
        one-vs-rest AUC). A quantity that cannot be computed is absent, never ``null``. With repeats,
        each quantity is computed per repeat; the report holds the mean across repeats and, under
        ``"repeats"``, every repeat's value and the standard deviation across repeats (ddof=1).
        Hold-out splits (``ShuffleSplit``, ``StratifiedShuffleSplit``, test sets that overlap) are
        one repeat of one fold each: every value is then the split's own (pooled = averaged, merged
        = the split's scores, so no case counts twice in one value), averaged over the splits.
    train_frequencies : mapping label -> float, optional
        Multi-class and multi-label: training-set label frequencies for lfb (Van Asch eq. 10, §3.3).
    confidence : float, optional
        Give it (e.g. 0.95) to add a confidence interval beside every value:
        the ``"intervals"`` section of the JSON holds ``{"low", "high",
        "method"}`` at the same keys as the value, and the tables get the
        columns ``low``, ``high`` and ``interval``. Which interval each value
        gets, and how repeats combine, is in :mod:`apples.reporting._intervals`:
        a within-fold bootstrap for F (:func:`apples.cv_f_measure_ci`), Wilson
        for pooled proportions, DeLong for merged AUC, Nadeau & Bengio's
        corrected t for fold averages. Default None: no intervals.
    n_resamples : int, default 10000
        Bootstrap resamples of the bootstrap intervals.
    seed : int, default 0
        Seed of the bootstrap intervals; each (repeat, quantity) gets its own
        ``SeedSequence`` stream, so the report is reproducible.
    beta : float, default 1.0
        Binary reports, 0 < beta < inf: the F-measures are F_beta (Forman & Scholz eq. 1-2; Van Asch eq. 4); the JSON
        holds ``"beta"`` when it is not 1. Multi-class averages are F1 (``beta`` other than 1 is refused).
    stratified : bool, optional
        Whether the folds were stratified, if you know it: the header states it (the notes ask you to).
    cv_seed : int, optional
        The seed of the splitter that made the folds, if you know it: the header states it.

    Returns
    -------
    CVReport
        Its :meth:`~CVReport.to_dict` / :meth:`~CVReport.to_json` layout (keys are
        stable; undefined values are ``null``; ``pooled`` is the quantity of the
        summed fold counts, ``avg`` the mean of the per-fold values, ``merge`` the
        ranking measure on all folds' scores together)::

            binary:      {"task": "binary", "n", "n_folds", "design", "pos_label",   (each quantity if computed)
                          ["beta"], ["stratified"], ["cv_seed"],            (each if given: beta if not 1)
                          ["sample_weight": {"total", "n_zero"}],          (weighted predictions only)
                          "f_measure": {"tp_fp", "avg", "pr_re", "avg_skip", "pr_re_skip"},
                          "precision" | "recall" | "accuracy": {"pooled", "avg"},
                          "roc_auc" | "average_precision": {"avg", "merge"},
                          ["log_loss" | "brier_score": {"pooled", "avg"}],  (scores in [0, 1] only)
                          "folds": [{"fold", "n", "positives", "undefined": [{"quantity", "reason"}]}],
                          "recommended", "notes", "warnings": [str]}
            multiclass:  {"task": "multiclass", "n", "n_folds", "design", "labels", ["stratified"], ["cv_seed"],
                          "precision" | "recall" | "f_of_averages" | "mean_f":
                              {"macro" | "micro" | "lfb_test" [| "lfb_train"]: {"pooled", "avg"}},
                          "accuracy": {"pooled", "avg"}, ["roc_auc": {"macro_ovr": {"avg", "merge"}}],
                          "per_label": [{"label", "tp", "fp", "fn", "tn", "support"}],
                          "folds": [{"fold", "n", "absent_labels", "undefined": [...]}],
                          "recommended", "notes", "warnings"}
            multilabel:  as multiclass (Van Asch §5: each label one yes/no decision per case), with
                          "subset_accuracy" | "hamming_loss": {"pooled", "avg"} instead of "accuracy",
                          ["roc_auc": {"macro_ovr": {"avg", "merge"}}] from per-label scores, and
                          "per_label": [{"label", "tp", "fp", "fn", "tn", "tn_cases", "support"}]
                          (tn: Van Asch §5.1; tn_cases: cases with the label neither gold nor predicted);
                          no intervals yet (confidence= is refused)
            intervals:   with confidence=, "intervals": {"confidence", "n_resamples", "seed",
                          <the quantity sections, each value replaced by {"low", "high", "method"},
                          with a "reason" where the interval is null or has width 0>}
            repeated:    the same ("n" counts predictions: cases x repeats), quantities the mean over
                         repeats, each fold with "repeat", and
                         "repeats": {"n_repeats", "ids", "per_repeat": [{"repeat", <quantities>}],
                                     "std": {<quantities>}}

        ``design`` says what the splits were (from :meth:`CVPredictions.design_info`): ``"design"``
        (``"k-fold"``, ``"leave-one-out"``, ``"repeated k-fold"``, ``"hold-out"`` or ``"repeated
        hold-out"``), ``"n_repeats"``, ``"folds_per_repeat"``, and only where it changes the
        reading and the case ids tell it: ``"n_cases"`` and ``"n_untested"`` (cases never tested,
        as ``TimeSeriesSplit`` leaves its first block), ``"overlap"`` (hold-out test sets sharing
        cases: ``"n_tested"``, ``"n_tested_in_several_repeats"``, ``"max_times_tested"``).
        Undefined folds are handled by the policy in the Notes below.
        ``warnings`` lists, first, scores that seem to be the other label's
        (binary: the scores rank the cases predicted negative above those
        predicted positive; any task: a ROC AUC, averaged or merged, below
        50%), then every quantity whose aggregations differ by more than one
        percentage point, the folds with undefined values, and, with
        ``confidence=``, folds of one case (whose bootstrap cannot vary).

    Raises
    ------
    ValueError, TypeError
        ``predictions`` is not a CVPredictions; a multi-class task without ``y_pred``;
        ``train_frequencies`` for a binary task, or not covering the labels. Everything about the
        predictions themselves was checked when they were built (:class:`apples.CVPredictions`).

    Notes
    -----
    The undefined-fold policy, applied everywhere in the report (the header states it):

    * F-measure: the five methods of :func:`apples.cv_f_measure`, each with the
      paper's own treatment (§2.3): F_avg and F_pr,re substitute 0, the skip
      methods leave the fold out; a method with nothing left is ``null``.
    * Precision and recall averaged over folds substitute 0 for an undefined fold,
      as F_pr,re does, so ``f_measure.pr_re`` is F1 of ``precision.avg`` and
      ``recall.avg``; pooled precision or recall is ``null`` when its own 0/0 occurs.
    * ROC AUC and average precision averaged over folds are the mean over the folds
      where they are defined (a fold with one class has no AUC; a fold without
      positives has no AP), as ``cv_roc_auc(..., undefined="skip")``; ``null`` if no
      fold has one. The folds left out are listed.
    * Sample weights (``CVPredictions(..., sample_weight=)``): every value is computed with the
      weights, as ``sklearn.metrics`` does with ``sample_weight=`` (pooled counts are sums of weights,
      each fold's value is weighted, ROC AUC and average precision are the weighted ones, the log loss
      and Brier score weighted means); "avg" is still the plain mean over folds. A fold whose weights
      are all 0 is a 0/0 for every value: precision and recall count 0 as above, accuracy, the scoring
      rules, ROC AUC and AP leave it out of the mean; the fold lists it. Folds' ``n`` and
      ``positives`` and the per-label counts count rows. No value gets an interval (the reason is
      given: :mod:`apples.reporting._intervals`). ``"sample_weight"`` in the header holds the total
      weight and the number of rows of weight 0.
    * Multi-class and multi-label averages use the label set in every fold (given by ``labels=``,
      else every label of the data), a label's undefined precision or recall
      counting as 0 (``average_scores(..., undefined="zero")``, Van Asch §4.1).


    A fold with one class is therefore reported, never an error.

    References
    ----------
    Forman & Scholz (2010) §2.3 (five F aggregations), §2.4 and §3.2 (AUC_avg,
    AUC_merge), §4.3 and §5 (F_tp,fp); Van Asch (2013) §3 eqs. (8)-(10), §4.1.

    Examples
    --------
    >>> from apples import report
    >>> from apples.cv import CVPredictions
    >>> r = report(CVPredictions([1, 0, 1, 1, 0, 0], folds=[0, 0, 0, 1, 1, 1], y_pred=[1, 0, 0, 1, 1, 0]))
    >>> d = r.to_dict()
    >>> d["f_measure"]["tp_fp"], d["precision"]
    (0.6666666666666666, {'pooled': 0.6666666666666666, 'avg': 0.75})
    """
    p = predictions
    if p.task != "binary" and p.pred_codes is None:
        raise ParameterValueError(
            f"a multi-class report needs y_pred (the predicted labels; labels {p.labels[:10]})", param="predictions"
        )
    train = _train_weights(p, train_frequencies)
    if not 0.0 < beta < math.inf:
        raise ParameterValueError(
            f"beta={beta!r}: the report takes a positive finite beta; F_0 is the precision and F_inf the recall, "
            "which the report shows as rows of their own",
            param="beta",
        )
    if beta != 1.0 and p.task != "binary":
        raise ParameterValueError(
            f"beta={beta!r} is for binary reports: the multi-class averages of Van Asch §3 are reported as F1",
            param="beta",
        )
    if confidence is not None and p.task == "multilabel":
        raise ParameterValueError(
            f"confidence={confidence!r}: the report has no intervals for multi-label predictions yet; leave "
            "confidence out (the values, pooled and averaged over folds, are computed)",
            param="confidence",
        )
    settings = (
        None
        if confidence is None
        else IntervalSettings(confidence, n_resamples, int(seed), p.n_repeats > 1, float(beta), p.n_cases)
    )
    tables = repeat_tables(p)
    if p.task == "binary":
        bodies = [binary_values(t, float(beta)) for t in tables]
    elif p.task == "multilabel":
        bodies = [multilabel_values(t, p.labels, train) for t in tables]
    else:
        bodies = [multiclass_values(t, p.labels, train) for t in tables]
    sections = tuple(s for s in SECTIONS[p.task] if all(s in b for b in bodies))
    d: dict[str, Any] = {"task": p.task, "n": len(p), "n_folds": max(ids.size for ids in p.fold_ids)}
    d["design"] = _design_section(p.design_info())
    if beta != 1.0:
        d["beta"] = float(beta)
    if stratified is not None:  # what is not known is absent: null means 0/0 only
        d["stratified"] = bool(stratified)
    if cv_seed is not None:
        d["cv_seed"] = int(cv_seed)
    if p.task != "binary":
        d["labels"] = [plain(v) for v in p.labels]
    else:
        d["pos_label"] = plain(p.pos_label)
    for sec in sections:
        d[sec] = _combine([b[sec] for b in bodies], _mean_or_none)
    if p.task != "binary":
        counted = ("tp", "fp", "fn", "tn", "support") + (("tn_cases",) if p.task == "multilabel" else ())
        d["per_label"] = [
            {
                **bodies[0]["per_label"][i],
                **{k: sum(b["per_label"][i][k] for b in bodies) for k in counted},
            }
            for i in range(len(p.labels))
        ]
    repeated = p.repeats is not None
    d["folds"] = [
        ({"repeat": plain(p.repeat_ids[r]), **fold} if repeated else fold)
        for r, b in enumerate(bodies)
        for fold in b["folds"]
    ]
    if repeated:
        d["repeats"] = {
            "n_repeats": p.n_repeats,
            "ids": [plain(v) for v in p.repeat_ids],
            "per_repeat": [
                {"repeat": plain(p.repeat_ids[r]), **{sec: b[sec] for sec in sections}} for r, b in enumerate(bodies)
            ],
            "std": {sec: _combine([b[sec] for b in bodies], _std) for sec in sections},
        }
    weighted = p.sample_weight is not None
    if weighted:
        w = p.sample_weight
        assert w is not None
        d["sample_weight"] = {"total": math.fsum(w.tolist()), "n_zero": int(np.count_nonzero(w == 0))}
    if settings is not None and weighted:
        d["intervals"] = weighted_intervals({sec: d[sec] for sec in sections}, settings)
    elif settings is not None:
        if p.task == "binary":
            parts = [binary_intervals(t, settings, r) for r, t in enumerate(tables)]
        else:
            parts = [
                multiclass_intervals(t, b, train, settings, r)
                for r, (t, b) in enumerate(zip(tables, bodies, strict=True))
            ]
        d["intervals"] = combine_intervals(parts, settings)
    d["recommended"], d["notes"] = guidance(d)
    if p.task == "multilabel":
        d["notes"].append(_MULTILABEL_NOTE)
    if settings is not None:
        d["notes"].append(interval_note(settings, d["task"], weighted))
    # the scores against the predicted labels, from each repeat's sort (the mean over repeats where defined)
    defined = [t.prediction_auc for t in tables if t.prediction_auc == t.prediction_auc]
    prediction_auc = float(np.mean(defined)) if defined else None
    d["warnings"] = score_direction_warnings(d, prediction_auc) + gap_warnings(d)
    if settings is not None:
        d["warnings"] += interval_warnings(d)
    return CVReport(d)
