"""The per-repeat computations of :func:`apples.report`: the binary and the multi-class body.

Each body is the part of the report for one set of folds (one repeat): the
quantity sections, the folds and, for multi-class data, the per-label counts,
as JSON-ready values (undefined values are None). :mod:`apples._report`
documents the layout and the undefined-fold policy these functions apply.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from apples._params import check_scores
from apples._report_intervals import IntervalSettings, binary_intervals, multiclass_intervals
from apples._report_kernels import confusion_by_fold, fold_ranking
from apples.cv import cv_accuracy, cv_f_measure
from apples.metrics import Counts, average_scores, precision, recall

__all__ = [
    "F_METHODS",
    "binary_body",
    "check_score_columns",
    "f_methods",
    "label_averages",
    "mean_or_none",
    "multiclass_body",
    "num_or_none",
    "plain",
]

F_METHODS = ("tp_fp", "avg", "pr_re", "avg_skip", "pr_re_skip")


def plain(x: object) -> Any:
    """A label or fold id as a JSON value: numpy scalars as Python, anything else not JSON as its str."""
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, bool) or x is None or isinstance(x, (int, str)):
        return x
    if isinstance(x, float):
        return x if math.isfinite(x) else str(x)
    return str(x)


def num_or_none(x: float) -> float | None:
    """A defined value as a float, an undefined one (NaN) as None."""
    x = float(x)
    return None if math.isnan(x) else x


def mean_or_none(values: list[float | None]) -> float | None:
    return None if not values or any(v is None for v in values) else math.fsum(values) / len(values)  # type: ignore[arg-type]


def f_methods(folds: list[Counts]) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    for m in F_METHODS:
        try:
            out[m] = cv_f_measure(folds, method=m)
        except ValueError:  # every fold skipped, or TP = FP = FN = 0 when pooled: undefined
            out[m] = None
    return out


def check_score_columns(y_score, n_labels: int) -> np.ndarray:
    """Per-label score columns, shape (n, q), each column checked like 1-d scores."""
    if hasattr(y_score, "to_numpy") and not isinstance(y_score, np.ndarray):
        y_score = y_score.to_numpy()
    arr = np.asarray(y_score) if isinstance(y_score, np.ndarray) else None
    if arr is None:
        try:
            arr = np.asarray(y_score, dtype=object)
        except (ValueError, TypeError):
            raise ValueError("y_score must be an array of shape (n,) or (n, n_labels)") from None
    if arr.ndim != 2 or arr.shape[1] != n_labels:
        raise ValueError(
            f"y_score has shape {arr.shape}, but the labels are not binary: multi-class scores need one column per "
            f"label ({n_labels} columns, in the order of labels=)"
        )
    return np.column_stack([check_scores(f"y_score[:, {j}]", arr[:, j]) for j in range(n_labels)])


# -- binary --------------------------------------------------------------------------------------
def binary_body(
    t: np.ndarray,
    p: np.ndarray | None,
    s: np.ndarray | None,
    fold: np.ndarray,
    ids: np.ndarray,
    *,
    intervals: IntervalSettings | None = None,
    repeat: int = 0,
) -> dict:
    """One repeat of the binary report; with ``intervals``, its intervals under the private key ``"_intervals"``."""
    k = ids.size
    t_int = t.astype(np.intp)
    if p is not None:
        m = confusion_by_fold(fold, t_int, p.astype(np.intp), k, 2)  # [f, truth, pred]
        folds = [Counts(int(c[1, 1]), int(c[0, 1]), int(c[1, 0]), int(c[0, 0])) for c in m]
        pooled = sum(folds, Counts(0, 0, 0, 0))
        out: dict[str, Any] = {"f_measure": f_methods(folds)}
        for name, fn in (("precision", precision), ("recall", recall)):
            out[name] = {
                "pooled": num_or_none(fn(pooled, undefined="nan")),
                "avg": math.fsum(fn(c, undefined="zero") for c in folds) / k,
            }
        out["accuracy"] = {"pooled": cv_accuracy(folds, method="pooled"), "avg": cv_accuracy(folds, method="avg")}
        positives = [c.positives for c in folds]
        sizes = [c.n for c in folds]
    else:
        out = {"f_measure": dict.fromkeys(F_METHODS)}
        for name in ("precision", "recall", "accuracy"):
            out[name] = {"pooled": None, "avg": None}
        sizes = np.bincount(fold, minlength=k).tolist()
        positives = np.bincount(fold[t], minlength=k).tolist()
        folds = []
    rank = fold_ranking(t, s, fold, k) if s is not None else None
    for name, per, merged in (
        ("roc_auc", None if rank is None else rank.auc, None if rank is None else rank.auc_merge),
        ("average_precision", None if rank is None else rank.ap, None if rank is None else rank.ap_merge),
    ):
        defined = [] if per is None else [float(v) for v in per if not math.isnan(v)]
        out[name] = {
            "avg": math.fsum(defined) / len(defined) if defined else None,
            "merge": None if merged is None else num_or_none(merged),
        }
    out["folds"] = []
    for i in range(k):
        undefined = []
        if folds:
            c = folds[i]
            if c.tp + c.fp == 0:
                undefined.append({"quantity": "precision", "reason": "no positive predictions (TP + FP = 0)"})
            if c.tp + c.fn == 0:
                undefined.append({"quantity": "recall", "reason": "no positives (TP + FN = 0)"})
            if c.tp + c.fp + c.fn == 0:
                undefined.append({"quantity": "f_measure", "reason": "TP = FP = FN = 0"})
        if rank is not None and math.isnan(rank.auc[i]):
            undefined.append({"quantity": "roc_auc", "reason": "one class only"})
        if rank is not None and math.isnan(rank.ap[i]):
            undefined.append({"quantity": "average_precision", "reason": "no positives"})
        out["folds"].append(
            {"fold": plain(ids[i]), "n": int(sizes[i]), "positives": int(positives[i]), "undefined": undefined}
        )
    if intervals is not None:
        out["_intervals"] = binary_intervals(folds, t, s, rank, intervals, repeat)
    return out


# -- multi-class ---------------------------------------------------------------------------------
def label_averages(cbl: dict, train: Mapping | None) -> dict[str, dict[str, float | None]]:
    """{section: {average: value}} of one counts-by-label table."""
    out: dict[str, dict[str, float | None]] = {s: {} for s in ("precision", "recall", "f_of_averages", "mean_f")}
    kinds: list[tuple[str, str, Any]] = [
        ("macro", "macro", None),
        ("micro", "micro", None),
        ("lfb_test", "lfb", "test"),
    ]
    if train is not None:
        kinds.append(("lfb_train", "lfb", train))
    for key, average, freq in kinds:
        a = average_scores(cbl, average=average, frequencies=freq, undefined="zero")  # type: ignore[arg-type]
        for section, v in zip(out, a, strict=True):
            out[section][key] = num_or_none(v)
    return out


def multiclass_body(
    t: np.ndarray,
    p: np.ndarray,
    s: np.ndarray | None,
    fold: np.ndarray,
    ids: np.ndarray,
    labels: list,
    train,
    *,
    intervals: IntervalSettings | None = None,
    repeat: int = 0,
) -> dict:
    """One repeat of the multi-class report; with ``intervals``, its intervals under ``"_intervals"``."""
    k, q = ids.size, len(labels)
    m = confusion_by_fold(fold, t, p, k, q)
    fold_cbl = []
    for f in range(k):
        tp = np.diag(m[f])
        fp, fn = m[f].sum(axis=0) - tp, m[f].sum(axis=1) - tp
        tn = m[f].sum() - tp - fp - fn
        fold_cbl.append({lab: Counts(int(tp[i]), int(fp[i]), int(fn[i]), int(tn[i])) for i, lab in enumerate(labels)})
    pooled = {lab: sum((c[lab] for c in fold_cbl), Counts(0, 0, 0, 0)) for lab in labels}
    pooled_avg = label_averages(pooled, train)
    per_fold = [label_averages(c, train) for c in fold_cbl]
    out: dict[str, Any] = {}
    for section, by_avg in pooled_avg.items():
        out[section] = {
            key: {"pooled": v, "avg": mean_or_none([pf[section][key] for pf in per_fold])} for key, v in by_avg.items()
        }
    acc = [int(np.trace(m[f])) / int(m[f].sum()) for f in range(k)]
    out["accuracy"] = {"pooled": int(np.trace(m.sum(axis=0))) / t.size, "avg": math.fsum(acc) / k}
    auc_folds: list[list[float]] = [[] for _ in range(k)]
    merged: list[float] = []
    if s is not None:
        for j in range(q):
            r = fold_ranking(t == j, s[:, j], fold, k)
            for f in range(k):
                if not math.isnan(r.auc[f]):
                    auc_folds[f].append(float(r.auc[f]))
            if not math.isnan(r.auc_merge):
                merged.append(r.auc_merge)
    fold_auc = [math.fsum(a) / len(a) if a else None for a in auc_folds]
    defined = [v for v in fold_auc if v is not None]
    out["roc_auc"] = {
        "macro_ovr": {
            "avg": math.fsum(defined) / len(defined) if defined else None,
            "merge": math.fsum(merged) / len(merged) if merged else None,
        }
    }
    out["per_label"] = [
        {"label": plain(lab), "tp": c.tp, "fp": c.fp, "fn": c.fn, "tn": c.tn, "support": c.positives}
        for lab, c in pooled.items()
    ]
    out["folds"] = []
    for f in range(k):
        support = m[f].sum(axis=1)
        absent = [plain(labels[i]) for i in range(q) if support[i] == 0]
        undefined = []
        for lab, c in fold_cbl[f].items():
            if c.tp + c.fp == 0:
                undefined.append({"quantity": "precision", "label": plain(lab), "reason": "never predicted"})
            if c.tp + c.fn == 0:
                undefined.append({"quantity": "recall", "label": plain(lab), "reason": "absent from the fold"})
        if s is not None and len(auc_folds[f]) < q:
            undefined.append(
                {"quantity": "roc_auc", "reason": f"{q - len(auc_folds[f])} label(s) without both classes"}
            )
        out["folds"].append(
            {"fold": plain(ids[f]), "n": int(m[f].sum()), "absent_labels": absent, "undefined": undefined}
        )
    if intervals is not None:
        out["_intervals"] = multiclass_intervals(m, per_fold, fold_auc, labels, train, intervals, repeat)
    return out
