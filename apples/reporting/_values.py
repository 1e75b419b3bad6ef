"""The values of one repeat of a report, from its fold table: the binary and the multi-class part.

Each part is a dict of quantity sections (JSON values; ``None`` where 0/0), the folds with their
undefined values, and for multi-class tasks the per-label counts. With sample weights (the table's
``weights``) every value is computed from the weighted counts (sums of the weights, as
``sklearn.metrics`` does with ``sample_weight=``); the folds' ``n`` and ``positives`` and the per-label
counts stay counts of rows (integers), and a fold whose weights are all 0 has no accuracy (0/0).
The undefined-fold policy is the one :func:`apples.report` documents; every number comes from a kernel:
:func:`~apples._kernels.f_measure.cv_f` for the five F aggregations (Forman & Scholz §2.3),
:func:`~apples._kernels.averages.label_averages` for Van Asch's averages (§3), and the fold
ranking of the table for ROC AUC and average precision.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from apples._kernels.averages import label_averages
from apples._kernels.f_measure import cv_f, ratio
from apples._kernels.labels import van_asch_tn
from apples._kernels.scoring_rules import fold_scoring_rules
from apples.cv.aggregations import F_AGGREGATIONS, REPORT_SECTIONS
from apples.reporting._tables import RepeatTable

__all__ = [
    "AVERAGE_KEYS",
    "SCORING_RULES",
    "SECTIONS",
    "are_probabilities",
    "binary_values",
    "multiclass_values",
    "multilabel_values",
    "num_or_none",
    "plain",
    "report_policy",
]

#: The multi-class averages: key -> (average of label_averages, weights: None, "test" or "train").
AVERAGE_KEYS: dict[str, tuple[str, str | None]] = {
    "macro": ("macro", None),
    "micro": ("micro", None),
    "lfb_test": ("lfb", "test"),
    "lfb_train": ("lfb", "train"),
}


#: The proper scoring rules of a binary report with probabilities (pooled = fold-size-weighted mean of the folds').
SCORING_RULES: tuple[str, ...] = ("log_loss", "brier_score")

#: The quantity sections of a report, by task, in the order they are printed (the scoring rules last).
SECTIONS: dict[str, tuple[str, ...]] = {
    "binary": (*REPORT_SECTIONS["binary"], *SCORING_RULES),
    "multiclass": REPORT_SECTIONS["multiclass"],
    "multilabel": ("precision", "recall", "f_of_averages", "mean_f", "subset_accuracy", "hamming_loss", "roc_auc"),
}


def are_probabilities(scores: np.ndarray | None) -> bool:
    """Whether binary scores can be read as the positive label's probability: real numbers in [0, 1]."""
    if scores is None or scores.ndim != 1 or scores.dtype.kind not in "biuf" or scores.size == 0:
        return False
    return bool(np.isfinite(scores).all() and scores.min() >= 0 and scores.max() <= 1)


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


def report_policy(method: str, undefined: str) -> str:
    """The 0/0 policy the report applies to an F aggregation: the paper's, except that a pooled 0/0
    (TP = FP = FN = 0 in every fold: nothing to measure) is reported as undefined, not as 0."""
    return "nan" if method == "tp_fp" else undefined


def _mean_defined(values: np.ndarray) -> float | None:
    """The mean of the defined (not NaN) values, None if there is none."""
    defined = values[~np.isnan(values)]
    return math.fsum(defined.tolist()) / defined.size if defined.size else None


# -- binary --------------------------------------------------------------------------------------
def binary_values(table: RepeatTable, beta: float = 1.0) -> dict[str, Any]:
    """One repeat of a binary report: its quantity sections and folds (F_beta with the given ``beta``).

    With scores that are probabilities (:func:`are_probabilities`), the log loss and the Brier score:
    ``pooled`` over all cases, which is the fold-size-weighted mean of the folds' values, and ``avg`` the
    plain mean of the folds' values (:func:`apples._kernels.scoring_rules.fold_scoring_rules`).
    """
    k = table.fold_ids.size
    out: dict[str, Any] = {}
    m = table.confusion
    if m is not None:
        tp, fp, fn, tn = m[:, 1, 1], m[:, 0, 1], m[:, 1, 0], m[:, 0, 0]
        out["f_measure"] = {
            key: num_or_none(
                float(cv_f(tp, fp, fn, method=a.method, undefined=report_policy(a.method, a.undefined), beta=beta))
            )
            for key, a in F_AGGREGATIONS.items()
        }
        for name, den in (("precision", tp + fp), ("recall", tp + fn)):
            per_fold = np.nan_to_num(ratio(tp, den))  # an undefined fold counts 0 (the report's policy)
            out[name] = {
                "pooled": num_or_none(float(ratio(tp.sum(), den.sum()))),
                "avg": math.fsum(per_fold.tolist()) / k,
            }
        n = tp + fp + fn + tn
        if table.weights is None:
            out["accuracy"] = {
                "pooled": float((tp.sum() + tn.sum()) / n.sum()),
                "avg": math.fsum(((tp + tn) / n).tolist()) / k,
            }
        else:  # a fold whose weights are all 0 has no accuracy (0/0): left out of the mean, listed in its fold
            out["accuracy"] = {
                "pooled": num_or_none(float(ratio(tp.sum() + tn.sum(), n.sum()))),
                "avg": _mean_defined(ratio(tp + tn, n)),
            }
    if table.ranking is not None:
        rank = table.ranking[0]
        out["roc_auc"] = {"avg": _mean_defined(rank.auc), "merge": num_or_none(rank.auc_merge)}
        out["average_precision"] = {"avg": _mean_defined(rank.ap), "merge": num_or_none(rank.ap_merge)}
    if table.fold_codes is not None and table.positive is not None and are_probabilities(table.scores):
        y = table.positive.astype(np.int64)
        rules = fold_scoring_rules(y, np.asarray(table.scores, dtype=float), table.fold_codes, k, table.weights)
        for name, per_fold, pooled in (
            ("log_loss", rules.log_loss, rules.pooled_log_loss),
            ("brier_score", rules.brier, rules.pooled_brier),
        ):
            if not math.isfinite(pooled):
                continue  # an infinite log loss (probability 0 for what happened) is no number: the row is absent
            avg = math.fsum(per_fold.tolist()) / k if table.weights is None else _mean_defined(per_fold)
            out[name] = {"pooled": float(pooled), "avg": avg}
    out["folds"] = []
    for i in range(k):
        undefined = []
        if m is not None:
            c = m[i]
            if table.weights is not None and c.sum() == 0:
                undefined.append({"quantity": "accuracy", "reason": "every sample weight in the fold is 0"})
            if c[1, 1] + c[0, 1] == 0:
                undefined.append({"quantity": "precision", "reason": "no positive predictions (TP + FP = 0)"})
            if c[1, 1] + c[1, 0] == 0:
                undefined.append({"quantity": "recall", "reason": "no positives (TP + FN = 0)"})
            if c[1, 1] + c[0, 1] + c[1, 0] == 0:
                undefined.append({"quantity": "f_measure", "reason": "TP = FP = FN = 0"})
        if table.ranking is not None and math.isnan(table.ranking[0].auc[i]):
            undefined.append({"quantity": "roc_auc", "reason": "one class only"})
        if table.ranking is not None and math.isnan(table.ranking[0].ap[i]):
            undefined.append({"quantity": "average_precision", "reason": "no positives"})
        positives = 0 if table.positives is None else int(table.positives[i])
        out["folds"].append(
            {
                "fold": plain(table.fold_ids[i]),
                "n": int(table.sizes[i]),
                "positives": positives,
                "undefined": undefined,
            }
        )
    return out


# -- multi-class ---------------------------------------------------------------------------------
def label_weights(average_key: str, true: np.ndarray, train: np.ndarray | None) -> np.ndarray | None:
    """The label weights of one average key for tables whose gold totals are ``true`` (labels last)."""
    weights = AVERAGE_KEYS[average_key][1]
    if weights == "test":
        return true
    if weights == "train":
        return train
    return None


def average_sections(
    tp: np.ndarray, fp: np.ndarray, fn: np.ndarray, train: np.ndarray | None
) -> dict[str, dict[str, np.ndarray]]:
    """{section: {average key: values}} of count tables (labels on the last axis), the report's zero policy."""
    out: dict[str, dict[str, np.ndarray]] = {s: {} for s in ("precision", "recall", "f_of_averages", "mean_f")}
    for key, (average, _) in AVERAGE_KEYS.items():
        if key == "lfb_train" and train is None:
            continue
        a = label_averages(tp, fp, fn, average=average, weights=label_weights(key, tp + fn, train), undefined="zero")
        for section, values in zip(out, a, strict=True):
            out[section][key] = values
    return out


def multiclass_values(table: RepeatTable, labels: list, train: np.ndarray | None) -> dict[str, Any]:
    """One repeat of a multi-class report: its sections, per-label counts and folds."""
    m = table.confusion
    assert m is not None  # a multi-class report needs y_pred (CVPredictions says so)
    k, q = table.fold_ids.size, len(labels)
    tp = np.einsum("fii->fi", m).astype(float)  # (folds, labels)
    predicted, true = m.sum(axis=1).astype(float), m.sum(axis=2).astype(float)
    fp, fn = predicted - tp, true - tp
    pooled = average_sections(tp.sum(axis=0), fp.sum(axis=0), fn.sum(axis=0), train)
    per_fold = average_sections(tp, fp, fn, train)
    out: dict[str, Any] = {}
    for section, by_key in pooled.items():
        out[section] = {
            key: {
                "pooled": num_or_none(float(value)),
                "avg": None if np.isnan(per_fold[section][key]).any() else math.fsum(per_fold[section][key]) / k,
            }
            for key, value in by_key.items()
        }
    n_fold = m.sum(axis=(1, 2))
    correct = np.einsum("fii->f", m)
    if table.weights is None:
        out["accuracy"] = {
            "pooled": int(correct.sum()) / int(n_fold.sum()),
            "avg": math.fsum((correct / n_fold).tolist()) / k,
        }
    else:  # weighted sums; a fold whose weights are all 0 has no accuracy (0/0) and is left out of the mean
        out["accuracy"] = {
            "pooled": num_or_none(float(ratio(correct.sum(), n_fold.sum()))),
            "avg": _mean_defined(ratio(correct, n_fold)),
        }
    fold_auc, defined_in_fold = _macro_auc(table, out)
    rows = m if table.row_confusion is None else table.row_confusion  # per_label and folds count rows
    row_tp = np.einsum("fii->fi", rows)
    total_tp = row_tp.sum(axis=0)
    total_fp, total_fn = rows.sum(axis=1).sum(axis=0) - total_tp, rows.sum(axis=2).sum(axis=0) - total_tp
    n_rows = rows.sum(axis=(1, 2))
    n_all = float(n_rows.sum())
    out["per_label"] = [
        {
            "label": plain(lab),
            "tp": int(total_tp[i]),
            "fp": int(total_fp[i]),
            "fn": int(total_fn[i]),
            "tn": int(n_all - total_tp[i] - total_fp[i] - total_fn[i]),
            "support": int(total_tp[i] + total_fn[i]),
        }
        for i, lab in enumerate(labels)
    ]
    out["folds"] = []
    for f in range(k):
        absent = [plain(labels[i]) for i in range(q) if true[f, i] == 0]
        undefined: list[dict[str, Any]] = []
        if table.weights is not None and n_fold[f] == 0:
            undefined.append({"quantity": "accuracy", "reason": "every sample weight in the fold is 0"})
        for i, lab in enumerate(labels):
            if tp[f, i] + fp[f, i] == 0:
                undefined.append({"quantity": "precision", "label": plain(lab), "reason": "never predicted"})
            if tp[f, i] + fn[f, i] == 0:
                undefined.append({"quantity": "recall", "label": plain(lab), "reason": "absent from the fold"})
        if table.ranking is not None and defined_in_fold[f] < q:
            undefined.append(
                {"quantity": "roc_auc", "reason": f"{q - int(defined_in_fold[f])} label(s) without both classes"}
            )
        out["folds"].append(
            {"fold": plain(table.fold_ids[f]), "n": int(n_rows[f]), "absent_labels": absent, "undefined": undefined}
        )
    out["_per_fold"] = per_fold  # for the intervals' second pass; removed before the report is built
    out["_fold_auc"] = fold_auc
    return out


def _macro_auc(table: RepeatTable, out: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """The macro one-vs-rest ROC AUC section (into ``out``): per fold the mean over the labels where it is defined,
    averaged over the folds where one is; merged, the mean over labels of each label's merged AUC. Returns each
    fold's macro AUC and its number of labels with a defined AUC."""
    k = table.fold_ids.size
    fold_auc = np.full(k, np.nan)
    defined_in_fold = np.zeros(k, dtype=int)
    if table.ranking is not None:  # without scores there is no ROC AUC: the section is absent, never null
        aucs = np.array([r.auc for r in table.ranking])  # (labels, folds)
        defined_in_fold = (~np.isnan(aucs)).sum(axis=0)
        with np.errstate(invalid="ignore"):
            fold_auc = np.where(defined_in_fold > 0, np.nansum(aucs, axis=0) / np.maximum(defined_in_fold, 1), np.nan)
        merged = [r.auc_merge for r in table.ranking if not math.isnan(r.auc_merge)]
        out["roc_auc"] = {
            "macro_ovr": {
                "avg": _mean_defined(fold_auc),
                "merge": math.fsum(merged) / len(merged) if merged else None,
            }
        }
    return fold_auc, defined_in_fold


# -- multi-label ---------------------------------------------------------------------------------
def multilabel_values(table: RepeatTable, labels: list, train: np.ndarray | None) -> dict[str, Any]:
    """One repeat of a multi-label report (Van Asch §5): its sections, per-label counts and folds.

    Each label is one binary decision per case. Precision, recall and the two macro-F definitions are
    Van Asch's averages (§3, eqs. 8-10) of the per-label TP, FP, FN, pooled over the folds and averaged
    over them, as the multi-class report has them; a label absent from a fold counts with precision and
    recall 0 (§4.1). Subset accuracy is the share of cases whose predicted label set equals the gold
    set; the Hamming loss the share of wrong (case, label) decisions, (FP + FN) / (n q).
    """
    c = table.label_counts
    assert c is not None  # a multi-label report needs y_pred (CVPredictions says so)
    k, q = table.fold_ids.size, len(labels)
    tp, fp, fn = (a.astype(float) for a in (c.tp, c.fp, c.fn))
    pooled = average_sections(tp.sum(axis=0), fp.sum(axis=0), fn.sum(axis=0), train)
    per_fold = average_sections(tp, fp, fn, train)
    out: dict[str, Any] = {}
    for section, by_key in pooled.items():
        out[section] = {
            key: {
                "pooled": num_or_none(float(value)),
                "avg": None if np.isnan(per_fold[section][key]).any() else math.fsum(per_fold[section][key]) / k,
            }
            for key, value in by_key.items()
        }
    n = int(c.sizes.sum())
    out["subset_accuracy"] = {
        "pooled": int(c.exact.sum()) / n,
        "avg": math.fsum((c.exact / c.sizes).tolist()) / k,
    }
    wrong = c.fp.sum(axis=1) + c.fn.sum(axis=1)  # wrong decisions per fold
    out["hamming_loss"] = {
        "pooled": int(wrong.sum()) / (n * q),
        "avg": math.fsum((wrong / (c.sizes * q)).tolist()) / k,
    }
    _, defined_in_fold = _macro_auc(table, out)
    total_tp, total_fp, total_fn = c.tp.sum(axis=0), c.fp.sum(axis=0), c.fn.sum(axis=0)
    tn = van_asch_tn(total_tp, total_fp, total_fn)
    out["per_label"] = [
        {
            "label": plain(lab),
            "tp": int(total_tp[i]),
            "fp": int(total_fp[i]),
            "fn": int(total_fn[i]),
            "tn": int(tn[i]),
            "tn_cases": int(n - total_tp[i] - total_fp[i] - total_fn[i]),
            "support": int(total_tp[i] + total_fn[i]),
        }
        for i, lab in enumerate(labels)
    ]
    true = c.tp + c.fn
    out["folds"] = []
    for f in range(k):
        absent = [plain(labels[i]) for i in range(q) if true[f, i] == 0]
        undefined: list[dict[str, Any]] = []
        for i, lab in enumerate(labels):
            if c.tp[f, i] + c.fp[f, i] == 0:
                undefined.append({"quantity": "precision", "label": plain(lab), "reason": "never predicted"})
            if true[f, i] == 0:
                undefined.append({"quantity": "recall", "label": plain(lab), "reason": "absent from the fold"})
        if table.ranking is not None and defined_in_fold[f] < q:
            undefined.append(
                {"quantity": "roc_auc", "reason": f"{q - int(defined_in_fold[f])} label(s) without both classes"}
            )
        out["folds"].append(
            {"fold": plain(table.fold_ids[f]), "n": int(c.sizes[f]), "absent_labels": absent, "undefined": undefined}
        )
    return out
