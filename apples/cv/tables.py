"""Per-fold and per-label tables of a cross-validated result: :func:`fold_table`, :func:`fold_summary`,
:func:`label_table`.

A report gives one number per aggregation; a paper often needs the numbers behind it. :func:`fold_table`
has one row per repeat and fold with every measure of that fold alone (the per-fold values that
F_avg, AUC_avg and "mean ± SD over folds" average, Forman & Scholz 2010 §2.3, §2.4; the paired
per-fold scores :func:`apples.intervals.compare_cv_scores` takes); :func:`fold_summary` gives the
mean and standard deviation of each column; :func:`label_table` is scikit-learn's
``classification_report`` of a cross-validated result: per-label precision, recall, F and support,
pooled over the folds (the counts summed, as F_tp,fp does) or averaged over the folds (each fold's
report, then the mean), with the macro and support-weighted averages (Van Asch 2013 §3, eqs. 8, 10).
Folds are numbered as given (scikit-learn's 0, 1, ...), as in :func:`apples.report`.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np
import pandas as pd

from apples._kernels.averages import weighted_mean
from apples._kernels.counting import confusion_by_fold
from apples._kernels.f_measure import f_of_counts, ratio
from apples._kernels.ranking import fold_ranking
from apples._params import Options, ParameterValueError, Policy, Undefined, declare
from apples.cv.predictions import CV_PREDICTIONS, CVPredictions
from apples.metrics.precision_recall import BETA

__all__ = [
    "fold_summary",
    "fold_table",
    "label_table",
]


def _plain(x: object) -> Any:
    return x.item() if isinstance(x, np.generic) else x


def _label_counts(m: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """TP, FP, FN of each fold and label, shape (folds, labels), from confusion matrices ``[f, true, predicted]``
    (multi-label: from each fold's per-label ``[[tn, fp], [fn, tp]]``, shape (folds, labels, 2, 2))."""
    if m.ndim == 4:
        return m[..., 1, 1], m[..., 0, 1], m[..., 1, 0]
    tp = np.einsum("fii->fi", m)
    return tp, m.sum(axis=1) - tp, m.sum(axis=2) - tp


def _confusion(p: CVPredictions, r: int) -> np.ndarray:
    """The confusion matrices of repeat ``r``'s folds: counts of rows, or sums of ``sample_weight`` if given."""
    if p.sample_weight is None:
        return p.confusion(r)
    assert p.pred_codes is not None
    rows = p.rows(r)
    q = 2 if p.task == "binary" else len(p.labels)
    return confusion_by_fold(
        p.fold_codes[r], p.truth_codes[rows], p.pred_codes[rows], p.fold_ids[r].size, q, p.sample_weight[rows]
    )


def _rows(p: CVPredictions) -> tuple[list[str], list[dict[str, Any]]]:
    """The id columns and one dict of id values per repeat and fold."""
    ids = (["repeat"] if p.repeats is not None else []) + ["fold"]
    rows = []
    for r in range(p.n_repeats):
        for f in p.fold_ids[r].tolist():
            row = {"repeat": _plain(p.repeat_ids[r])} if p.repeats is not None else {}
            rows.append({**row, "fold": f})
    return ids, rows


def _fold_frame(p: CVPredictions, beta: float) -> pd.DataFrame:
    """Every measure of every fold, NaN where 0/0 (binary) or the report's policy (multi-class)."""
    if p.task == "multilabel":
        raise ParameterValueError(
            "fold_table and fold_summary take binary or multi-class predictions; for multi-label predictions "
            "use apples.report (pooled and averaged over folds) and label_table (per label)",
            param="predictions",
        )
    ids, rows = _rows(p)
    columns: dict[str, list[np.ndarray]] = {}

    def add(name: str, values: np.ndarray) -> None:
        columns.setdefault(name, []).append(np.asarray(values))

    for r in range(p.n_repeats):
        rows_r, fold, k = p.rows(r), p.fold_codes[r], p.fold_ids[r].size
        truth = p.truth_codes[rows_r]
        add("n", np.bincount(fold, minlength=k))
        w = None if p.sample_weight is None else p.sample_weight[rows_r]
        if w is not None:
            add("weight", np.bincount(fold, weights=w, minlength=k))
        if p.task == "binary":
            add("positives", np.bincount(fold, weights=truth, minlength=k).astype(np.int64))
        if p.pred_codes is not None:
            m = _confusion(p, r)
            correct = np.einsum("fii->f", m)
            if p.task == "binary":
                tp, fp, fn, tn = m[:, 1, 1], m[:, 0, 1], m[:, 1, 0], m[:, 0, 0]
                for name, v in (("tp", tp), ("fp", fp), ("fn", fn), ("tn", tn)):
                    add(name, v)
                add("precision", ratio(tp, tp + fp))
                add("recall", ratio(tp, tp + fn))
                add("f", f_of_counts(tp, fp, fn, beta))
            else:
                tp, fp, fn = _label_counts(m)
                precision = np.nan_to_num(ratio(tp, tp + fp))  # a label's 0/0 counts as 0 (Van Asch §4.1)
                recall = np.nan_to_num(ratio(tp, tp + fn))
                add("precision_macro", precision.mean(axis=1))
                add("recall_macro", recall.mean(axis=1))
                add("f_macro", np.nan_to_num(f_of_counts(tp, fp, fn, beta)).mean(axis=1))
            add("accuracy", ratio(correct, m.sum(axis=(1, 2))))
        if p.y_score is not None:
            keep = slice(None) if w is None else w > 0  # weight 0: left out, as scikit-learn's ranking does
            s, t, fk, wk = p.y_score[rows_r][keep], truth[keep], fold[keep], None if w is None else w[keep]
            if p.task == "binary":
                rank = fold_ranking(t == 1, s, fk, k, weights=wk)
                add("roc_auc", rank.auc)
                add("average_precision", rank.ap)
            else:
                aucs = np.array([fold_ranking(t == j, s[:, j], fk, k, weights=wk).auc for j in range(len(p.labels))])
                defined = (~np.isnan(aucs)).sum(axis=0)
                with np.errstate(invalid="ignore"):
                    add(
                        "roc_auc_macro_ovr",
                        np.where(defined > 0, np.nansum(aucs, axis=0) / np.maximum(defined, 1), np.nan),
                    )
    frame = pd.DataFrame(rows, columns=ids)
    for name, parts in columns.items():
        frame[name] = np.concatenate(parts)
    return frame


@declare(predictions=CV_PREDICTIONS, beta=BETA)
def fold_table(predictions: CVPredictions, *, beta: float = 1.0) -> pd.DataFrame:
    """Every measure of every fold: one row per repeat and fold.

    Parameters
    ----------
    predictions : CVPredictions
        The cross-validated predictions (:func:`apples.cross_val_predictions`).
    beta : float, default 1.0
        The F-measure's beta.

    Returns
    -------
    pandas.DataFrame
        Columns ``repeat`` (with repeats), ``fold`` (the fold id as given), ``n`` (rows of the fold),
        ``weight`` (with ``sample_weight``: the fold's sum of weights; every measure and count after it is
        then weighted, as ``sklearn.metrics`` with ``sample_weight=``), then, binary: ``positives``; with
        ``y_pred`` ``tp``, ``fp``, ``fn``, ``tn``, ``precision``,
        ``recall``, ``f`` (F_beta of the fold, eq. 2 of Forman & Scholz 2010) and ``accuracy``;
        with ``y_score`` ``roc_auc`` and ``average_precision``. A fold's 0/0 is NaN (precision
        without predicted positives, AUC of one class): the fold table shows it, the aggregations
        of :func:`apples.report` say what they do with it. Multi-class: ``accuracy``,
        ``precision_macro``, ``recall_macro``, ``f_macro`` (the mean of the labels' F, a label's 0/0
        counting as 0 as in scikit-learn's ``zero_division=0``, Van Asch 2013 §4.1) and, with
        scores, ``roc_auc_macro_ovr`` (the mean one-vs-rest AUC of the labels with both classes in
        the fold). Rows are ordered by repeat and fold id. A column is the paired per-fold scores
        that :func:`apples.intervals.compare_cv_scores` takes (reshaped to (repeats, folds) with
        ``pivot(index="repeat", columns="fold")`` under repeats).

    Examples
    --------
    >>> from apples.cv import CVPredictions, fold_table
    >>> p = CVPredictions([1, 0, 1, 1, 0, 0], folds=[0, 0, 0, 1, 1, 1], y_pred=[1, 0, 0, 1, 1, 0])
    >>> fold_table(p)[["fold", "n", "tp", "fp", "fn", "precision", "recall", "f"]]
       fold  n  tp  fp  fn  precision  recall         f
    0     0  3   1   0   1        1.0     0.5  0.666667
    1     1  3   1   1   0        0.5     1.0  0.666667
    """
    return _fold_frame(predictions, beta)


@declare(predictions=CV_PREDICTIONS, beta=BETA)
def fold_summary(predictions: CVPredictions, *, beta: float = 1.0) -> pd.DataFrame:
    """Mean ± standard deviation over folds of every measure of :func:`fold_table`.

    Returns
    -------
    pandas.DataFrame
        One row per measure column of :func:`fold_table` (not the counts), with ``mean`` (over the
        folds where the measure is defined), ``std`` (their sample standard deviation, ddof=1; NaN
        with fewer than two), ``folds`` (how many folds are defined) and ``undefined`` (how many are
        0/0 and left out). Under repeats, every fold of every repeat is one value. This is the
        "mean ± SD over folds" a paper quotes; it is not F_tp,fp or AUC_merge (see
        :func:`apples.report`).

    Examples
    --------
    >>> from apples.cv import CVPredictions, fold_summary
    >>> p = CVPredictions([1, 0, 1, 1, 0, 0], folds=[0, 0, 0, 1, 1, 1], y_pred=[1, 0, 0, 1, 1, 0])
    >>> s = fold_summary(p)
    >>> row = s.loc["precision"]   # folds 0 and 1: precision 1/1 and 1/2
    >>> float(row["mean"]), round(float(row["std"]), 4), int(row["folds"]), int(row["undefined"])
    (0.75, 0.3536, 2, 0)
    """
    frame = _fold_frame(predictions, beta)
    skip = {"repeat", "fold", "n", "positives", "tp", "fp", "fn", "tn"}
    out = []
    for name in (c for c in frame.columns if c not in skip):
        values = frame[name].to_numpy(dtype=float)
        defined = values[~np.isnan(values)]
        out.append(
            {
                "measure": name,
                "mean": float(math.fsum(defined.tolist()) / defined.size) if defined.size else float("nan"),
                "std": float(np.std(defined, ddof=1)) if defined.size > 1 else float("nan"),
                "folds": int(defined.size),
                "undefined": int(values.size - defined.size),
            }
        )
    return pd.DataFrame(out, columns=["measure", "mean", "std", "folds", "undefined"]).set_index("measure")


def _report_rows(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray, beta: float) -> dict[str, np.ndarray]:
    """Per-label P, R, F (NaN where 0/0) and support, for count arrays whose last axis is the labels."""
    return {
        "precision": ratio(tp, tp + fp),
        "recall": ratio(tp, tp + fn),
        "f": f_of_counts(tp, fp, fn, beta),
        "support": (tp + fn).astype(float),
    }


def _with_micro(
    values: dict[str, np.ndarray], tp: np.ndarray, fp: np.ndarray, fn: np.ndarray, beta: float
) -> dict[str, np.ndarray]:
    """``values`` (labels, then macro and weighted avg on the last axis) with the micro average (Van Asch eq. 9:
    the labels' counts pooled) inserted after the labels, as ``classification_report`` has it for multi-label data."""
    t, f_p, f_n = tp.sum(axis=-1), fp.sum(axis=-1), fn.sum(axis=-1)
    micro = {
        "precision": np.nan_to_num(ratio(t, t + f_p)),
        "recall": np.nan_to_num(ratio(t, t + f_n)),
        "f": np.nan_to_num(f_of_counts(t, f_p, f_n, beta)),
        "support": (t + f_n).astype(float),
    }
    q = tp.shape[-1]
    return {key: np.insert(v, q, micro[key], axis=-1) for key, v in values.items()}


def _averaged(values: dict[str, np.ndarray], undefined: str) -> dict[str, np.ndarray]:
    """The labels' values with macro and support-weighted averages appended on the last axis (each average of
    the values with 0/0 counted as 0, as scikit-learn's ``zero_division=0``; the labels' own cells under
    ``undefined``)."""
    support = values["support"]
    out = {}
    for key in ("precision", "recall", "f"):
        v = values[key]
        zero = np.nan_to_num(v)
        macro = zero.mean(axis=-1)
        weighted = ratio((zero * support).sum(axis=-1), support.sum(axis=-1))
        shown = zero if undefined == "zero" else v
        out[key] = np.concatenate([shown, macro[..., None], weighted[..., None]], axis=-1)
    total = support.sum(axis=-1, keepdims=True)
    out["support"] = np.concatenate([support, total, total], axis=-1)
    return out


@declare(
    predictions=CV_PREDICTIONS,
    over=Options("pooled", "folds"),
    beta=BETA,
    undefined=Undefined("zero", "nan", "skip"),
)
def label_table(
    predictions: CVPredictions,
    *,
    over: Literal["pooled", "folds"] = "pooled",
    beta: float = 1.0,
    undefined: Policy = "zero",
) -> pd.DataFrame:
    """Per-label precision, recall, F and support, as scikit-learn's ``classification_report``, under CV.

    Parameters
    ----------
    predictions : CVPredictions
        With ``y_pred``; binary, multi-class (a binary task lists both labels, as
        ``classification_report`` does) or multi-label (each label one yes/no decision per case,
        Van Asch §5; the table then has a ``"micro avg"`` row, as ``classification_report`` has).
    over : {"pooled", "folds"}, default "pooled"
        ``"pooled"``: each label's counts summed over the folds of a repeat, then precision,
        recall and F (the per-label F_tp,fp of Forman & Scholz §2.3; for one repeat exactly
        ``classification_report(y_true, y_pred)``). ``"folds"``: the report of each fold, then
        the mean over folds (the per-label F_avg, P_avg, R_avg).
    beta : float, default 1.0
        The F-measure's beta.
    undefined : {"zero", "nan", "skip"}, default "zero"
        A label's 0/0 precision, recall or F (never predicted, or absent): 0 (scikit-learn's
        ``zero_division=0``), NaN, or, with ``over="folds"``, left out of that label's mean over
        folds (NaN if undefined in every fold). The macro and weighted averages always count a
        0/0 as 0, as ``classification_report(..., zero_division=0)`` does.

    Returns
    -------
    pandas.DataFrame
        Index: the labels, then (multi-label) ``"micro avg"`` (eq. 9: the labels' counts pooled),
        ``"macro avg"`` (Van Asch eq. 8: mean over labels) and ``"weighted
        avg"`` (eq. 10 with test frequencies: weighted by support); columns ``precision``,
        ``recall``, ``f``, ``support``. Under repeats every value is the mean over repeats of the
        repeat's value (``"folds"``: over every fold of every repeat) and ``support`` the mean per
        repeat (``"folds"``: per fold). With ``sample_weight`` on the predictions every count is a sum of
        weights (``support`` too), as ``classification_report(..., sample_weight=)`` counts them.

    Raises
    ------
    ValueError
        ``predictions`` without ``y_pred``; ``undefined="skip"`` with ``over="pooled"``.

    Examples
    --------
    >>> from apples.cv import CVPredictions, label_table
    >>> p = CVPredictions(["a", "b", "c", "a", "b", "c"], folds=[0, 0, 0, 1, 1, 1],
    ...                   y_pred=["a", "b", "b", "a", "c", "c"])
    >>> label_table(p).round(3)
                  precision  recall      f  support
    a                 1.000   1.000  1.000        2
    b                 0.500   0.500  0.500        2
    c                 0.500   0.500  0.500        2
    macro avg         0.667   0.667  0.667        6
    weighted avg      0.667   0.667  0.667        6
    """
    p = predictions
    if p.pred_codes is None:
        raise ParameterValueError("a label table needs y_pred (the predicted labels)", param="predictions")
    if undefined == "skip" and over == "pooled":
        raise ParameterValueError(
            "undefined='skip' leaves folds out of a mean over folds: it needs over='folds'", param="undefined"
        )
    if p.task == "binary":  # code 1 is the positive label, code 0 the other one (if any)
        names = list(p.labels)
        codes = [1 if lab == p.pos_label else 0 for lab in names]
    else:
        names, codes = list(p.labels), list(range(len(p.labels)))
    per_repeat: list[dict[str, np.ndarray]] = []
    for r in range(p.n_repeats):
        m = _confusion(p, r)
        tp, fp, fn = (a[:, codes] for a in _label_counts(m))
        if over == "pooled":
            tp, fp, fn = tp.sum(axis=0), fp.sum(axis=0), fn.sum(axis=0)
        values = _averaged(_report_rows(tp, fp, fn, beta), undefined)
        per_repeat.append(_with_micro(values, tp, fp, fn, beta) if p.task == "multilabel" else values)
    out: dict[str, np.ndarray] = {}
    for key in ("precision", "recall", "f", "support"):
        parts = [d[key] for d in per_repeat]
        # pooled: one row per repeat; folds: one row per fold of every repeat
        stacked = np.stack(parts) if over == "pooled" else np.concatenate(parts, axis=0)
        policy = "skip" if undefined == "skip" else "nan"
        out[key] = weighted_mean(np.moveaxis(stacked, 0, -1), np.ones(stacked.shape[0]), policy)
    micro = ["micro avg"] if p.task == "multilabel" else []
    index = pd.Index([_plain(v) for v in names] + micro + ["macro avg", "weighted avg"], dtype=object)
    table = pd.DataFrame(out, index=index)
    support = table["support"].to_numpy()
    if np.all(support == np.round(support)):  # one repeat, or repeats testing the same cases
        table["support"] = support.astype(np.int64)
    return table
