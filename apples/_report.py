"""One call for every aggregation of a cross-validated result: :func:`report` and :class:`CVReport`.

Introduced in notebook 09. A cross-validated F-measure, AUC or macro average
is one number only once the aggregation over folds is named: Forman & Scholz
(2010) show five F aggregations that differ by many points on the same
predictions (§2.3, §4), and AUC_avg against AUC_merge (§3); Van Asch (2013)
shows that macro, micro and label-frequency-based averages and the two macro-F
definitions differ as much (§3, §4). :func:`report` computes them all side by
side from one table of predictions, lists the folds where a quantity is
undefined, says what the papers support, and warns where two aggregations of
the same quantity differ by more than one percentage point.

The undefined-fold policy (documented once, applied everywhere)
----------------------------------------------------------------
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
* Multi-class averages use the label set in every fold (given by ``labels=``,
  else every label of the data), a label's undefined precision or recall
  counting as 0 (``average_scores(..., undefined="zero")``, Van Asch §4.1).

A fold with one class is therefore reported, never an error.
"""

from __future__ import annotations

import json
import math
from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np

from apples._params import (
    check_labels_1d,
    check_pos_label,
    check_same_label_kind,
    check_same_length,
    check_scores,
    default_pos_label,
    is_missing,
    label_kind,
    unique_labels,
)
from apples._report_format import check_layout, render_html, render_markdown, render_text, report_rows
from apples._report_guidance import (
    BINARY_SECTIONS,
    MULTICLASS_SECTIONS,
    gap_warnings,
    guidance,
    score_direction_warnings,
)
from apples._report_intervals import (
    check_interval_settings,
    combine_intervals,
    interval_note,
    interval_warnings,
)
from apples._report_kernels import codes_of, fold_ranking
from apples._report_tasks import binary_body, check_score_columns, mean_or_none, multiclass_body, plain
from apples.metrics import Counts, average_scores

__all__ = [
    "CVReport",
    "report",
]


class CVReport:
    """Every aggregation of a cross-validated result, from :func:`report`.

    The content is one JSON-ready dict (:meth:`to_dict`; layout in :func:`report`).
    ``str(r)`` is an aligned text table, ``r._repr_html_()`` the table a notebook
    shows, :meth:`to_markdown` a pipe table, :meth:`to_frame` a tidy DataFrame.

    Examples
    --------
    >>> r = report([1, 0, 1, 0, 1, 0], y_pred=[1, 0, 0, 0, 1, 1], folds=[0, 0, 0, 1, 1, 1])
    >>> r.to_dict()["f_measure"]["tp_fp"]
    0.6666666666666666
    >>> CVReport.from_json(r.to_json()) == r
    True
    """

    def __init__(self, data: Mapping[str, Any]) -> None:
        check_layout(data, "data")
        try:
            self._data = json.loads(json.dumps(data, allow_nan=False))
        except (TypeError, ValueError) as err:  # a value check_layout does not look into (a fold's label list)
            raise type(err)(f"data must hold JSON values only (the layout of CVReport.to_dict()): {err}") from None

    @classmethod
    def from_json(cls, text: str) -> CVReport:
        """The report written by :meth:`to_json`; a ValueError or TypeError naming the entry for anything else.

        JSON's ``NaN`` and ``Infinity`` are refused: :meth:`to_json` writes an undefined value as ``null``.
        """
        if not isinstance(text, (str, bytes)):
            raise TypeError(f"text must be a JSON string, got {type(text).__name__}")

        def no_constant(word: str) -> None:
            raise ValueError(f"text holds {word}, which CVReport.to_json() never writes (an undefined value is null)")

        try:
            data = json.loads(text, parse_constant=no_constant)
        except json.JSONDecodeError as err:
            raise ValueError(f"text is not the JSON of CVReport.to_json(): {err}") from None
        except UnicodeDecodeError as err:
            raise ValueError(f"text is not the JSON of CVReport.to_json(): {err}") from None
        if not isinstance(data, dict) or data.get("task") not in ("binary", "multiclass"):
            raise ValueError("text is not the JSON of CVReport.to_json() (no 'task' of 'binary' or 'multiclass')")
        check_layout(data, "text")
        return cls(data)

    def to_dict(self) -> dict[str, Any]:
        """A deep copy of the report as plain Python (JSON types; undefined values are None)."""
        out: dict[str, Any] = json.loads(json.dumps(self._data))
        return out

    def to_json(self, *, indent: int | None = 2) -> str:
        """The report as JSON (the layout of :func:`report`); undefined values are ``null``."""
        return json.dumps(self._data, indent=indent, allow_nan=False)

    def to_frame(self):
        """A tidy pandas DataFrame: one row per (quantity, average, aggregation) with its value.

        Columns ``quantity, average, aggregation, value`` (``average`` is empty for
        binary tasks), with repeats ``std`` (the spread across repeats), and with
        intervals ``low, high, interval`` (the interval's method) too.
        """
        import pandas as pd

        rows = report_rows(self._data)
        columns = ["quantity", "average", "aggregation", "value"] + (["std"] if "repeats" in self._data else [])
        if "intervals" in self._data:
            columns += ["low", "high", "interval"]
        numeric = ("value", "std", "low", "high")
        return pd.DataFrame(
            [{k: (math.nan if r[k] is None and k in numeric else r[k]) for k in columns} for r in rows],
            columns=columns,
        )

    def to_markdown(self) -> str:
        """The report as a Markdown pipe table with the folds, recommendations and warnings below."""
        return render_markdown(self._data)

    def _repr_html_(self) -> str:
        return render_html(self._data)

    def __str__(self) -> str:
        return render_text(self._data)

    def __repr__(self) -> str:
        d = self._data
        return f"<CVReport {d['task']}: n={d['n']}, {d['n_folds']} folds, {len(d['warnings'])} warning(s)>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CVReport) and other._data == self._data

    __hash__ = None  # type: ignore[assignment]


# -- repeats ---------------------------------------------------------------------------------------
def _combine(trees: list, fn) -> Any:
    if isinstance(trees[0], dict):
        return {k: _combine([t[k] for t in trees], fn) for k in trees[0]}
    return fn(trees)


def _std(values: list[float | None]) -> float | None:
    if len(values) < 2 or any(v is None for v in values):
        return None
    return float(np.std(np.asarray(values, dtype=float), ddof=1))


# -- the entry point -------------------------------------------------------------------------------
def _codes(name: str, arr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`codes_of` with a TypeError naming ``name`` for labels that cannot be ordered."""
    try:
        return codes_of(arr)
    except TypeError as exc:
        raise TypeError(f"{name} holds labels that cannot be compared with each other ({exc})") from None


def _label_codes(arr: np.ndarray, index: dict) -> np.ndarray:
    uniq, codes = codes_of(arr)
    lut = np.array([index[_key] for _key in uniq.tolist()], dtype=np.intp)
    return lut[codes] if uniq.size else codes


def _check_labels_arg(labels, data: np.ndarray) -> list:
    given = check_labels_1d("labels", labels)
    if given.size == 0:
        raise ValueError("labels is empty; give every label of the task")
    check_same_label_kind(labels=given, **{"y_true and y_pred": data})
    out = given.tolist()
    if len(set(out)) != len(out):
        raise ValueError(f"labels has duplicates: {[v for v in dict.fromkeys(out) if out.count(v) > 1][:5]}")
    missing = [v for v in data.tolist() if v not in set(out)]
    if missing:
        raise ValueError(f"y_true or y_pred holds label(s) {missing[:5]} that are not in labels={out[:10]}")
    return out


def report(
    y_true,
    *,
    folds,
    y_pred=None,
    y_score=None,
    labels=None,
    pos_label=None,
    train_frequencies: Mapping[Hashable, float] | None = None,
    repeats=None,
    confidence: float | None = None,
    n_resamples: int = 10_000,
    seed: int = 0,
) -> CVReport:
    """Every aggregation of a cross-validated result, with the undefined folds and what the papers support.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels of every case, each tested once per repeat.
    folds : array-like of shape (n,)
        The test fold of each case (within its repeat). At least two folds.
    y_pred : array-like of shape (n,), optional
        Predicted labels: the F-measures, precision, recall and accuracy.
    y_score : array-like of shape (n,) or (n, n_labels), optional
        Binary: the positive class's score, higher = more likely ``pos_label``
        (ROC AUC and average precision); the score of the other label gives
        1 − AUC, and is warned about (see ``warnings`` below).
        Multi-class: one column per label in label order (macro one-vs-rest AUC).
        At least one of ``y_pred`` and ``y_score`` is needed.
    labels : sequence, optional
        The label set. Given, or more than two labels in the data, the report is
        multi-class (Van Asch §3) over exactly these labels in every fold.
    pos_label : label, optional
        Binary only: the positive class; default 1 for 0/1 (or -1/1) labels,
        required otherwise.
    train_frequencies : mapping label -> float, optional
        Multi-class only: training-set label frequencies for lfb (Van Asch eq. 10, §3.3).
    repeats : array-like of shape (n,), optional
        The repeat of each row for repeated cross-validation (a case appears once
        per repeat). Each quantity is computed per repeat; the report holds the
        mean across repeats and, under ``"repeats"``, every repeat's value and the
        standard deviation across repeats (ddof=1).
    confidence : float, optional
        Give it (e.g. 0.95) to add a confidence interval beside every value:
        the ``"intervals"`` section of the JSON holds ``{"low", "high",
        "method"}`` at the same keys as the value, and the tables get the
        columns ``low``, ``high`` and ``interval``. Which interval each value
        gets, and how repeats combine, is in :mod:`apples._report_intervals`:
        a within-fold bootstrap for F (:func:`apples.cv_f_measure_ci`), Wilson
        for pooled proportions, DeLong for merged AUC, Nadeau & Bengio's
        corrected t for fold averages. Default None: no intervals.
    n_resamples : int, default 10000
        Bootstrap resamples of the bootstrap intervals (at least 100).
    seed : int, default 0
        Seed of the bootstrap intervals; each (repeat, quantity) gets its own
        ``SeedSequence`` stream, so the report is reproducible.

    Returns
    -------
    CVReport
        Its :meth:`~CVReport.to_dict` / :meth:`~CVReport.to_json` layout (keys are
        stable; undefined values are ``null``; ``pooled`` is the quantity of the
        summed fold counts, ``avg`` the mean of the per-fold values, ``merge`` the
        ranking measure on all folds' scores together)::

            binary:      {"task": "binary", "n", "n_folds", "pos_label",
                          "f_measure": {"tp_fp", "avg", "pr_re", "avg_skip", "pr_re_skip"},
                          "precision" | "recall" | "accuracy": {"pooled", "avg"},
                          "roc_auc" | "average_precision": {"avg", "merge"},
                          "folds": [{"fold", "n", "positives", "undefined": [{"quantity", "reason"}]}],
                          "recommended", "notes", "warnings": [str]}
            multiclass:  {"task": "multiclass", "n", "n_folds", "labels",
                          "precision" | "recall" | "f_of_averages" | "mean_f":
                              {"macro" | "micro" | "lfb_test" [| "lfb_train"]: {"pooled", "avg"}},
                          "accuracy": {"pooled", "avg"}, "roc_auc": {"macro_ovr": {"avg", "merge"}},
                          "per_label": [{"label", "tp", "fp", "fn", "tn", "support"}],
                          "folds": [{"fold", "n", "absent_labels", "undefined": [...]}],
                          "recommended", "notes", "warnings"}
            intervals:   with confidence=, "intervals": {"confidence", "n_resamples", "seed",
                          <the quantity sections, each value replaced by {"low", "high", "method"}>}
            repeated:    the same, quantities the mean over repeats, each fold with "repeat", and
                         "repeats": {"n_repeats", "ids", "per_repeat": [{"repeat", <quantities>}],
                                     "std": {<quantities>}}

        Undefined folds are handled by the policy in the module docstring.
        ``warnings`` lists, first, scores that seem to be the other label's
        (binary: the scores rank the cases predicted negative above those
        predicted positive; any task: a ROC AUC, averaged or merged, below
        50%), then every quantity whose aggregations differ by more than one
        percentage point, the folds with undefined values, and, with
        ``confidence=``, folds of one case (whose bootstrap cannot vary).

    Raises
    ------
    ValueError, TypeError
        Bad labels, fold ids, scores or repeats (named); unequal lengths; no
        cases; neither ``y_pred`` nor ``y_score``; a single fold in a repeat;
        ``pos_label`` not among two labels or missing for labels other than
        0/1; ``pos_label`` with a multi-class task; multi-class without
        ``y_pred`` or with one-dimensional scores.

    References
    ----------
    Forman & Scholz (2010) §2.3 (five F aggregations), §2.4 and §3.2 (AUC_avg,
    AUC_merge), §4.3 and §5 (F_tp,fp); Van Asch (2013) §3 eqs. (8)-(10), §4.1.

    Examples
    --------
    >>> r = report([1, 0, 1, 1, 0, 0], folds=[0, 0, 0, 1, 1, 1], y_pred=[1, 0, 0, 1, 1, 0])
    >>> d = r.to_dict()
    >>> d["f_measure"]["tp_fp"], d["precision"]
    (0.6666666666666666, {'pooled': 0.6666666666666666, 'avg': 0.75})
    """
    settings = check_interval_settings(confidence, n_resamples, seed)
    t = check_labels_1d("y_true", y_true)
    f = check_labels_1d("folds", folds)
    p = None if y_pred is None else check_labels_1d("y_pred", y_pred)
    rep = None if repeats is None else check_labels_1d("repeats", repeats)
    if p is None and y_score is None:
        raise ValueError("give y_pred (predicted labels), y_score (scores) or both")
    lengths = {"y_true": t, "folds": f}
    if p is not None:
        lengths["y_pred"] = p
    if rep is not None:
        lengths["repeats"] = rep
    if y_score is not None:
        lengths["y_score"] = y_score
    check_same_length(**lengths)
    if t.size == 0:
        raise ValueError("y_true is empty: a report needs at least one case in each of two folds")
    if p is not None:
        check_same_label_kind(y_true=t, y_pred=p)
    both = _codes("y_true", t)[0]
    if p is not None:
        both = unique_labels("y_true and y_pred", np.concatenate([both, _codes("y_pred", p)[0]]))
    if train_frequencies is not None and labels is None and both.size <= 2:
        raise ValueError("train_frequencies is for multi-class reports (lfb, Van Asch §3.3); give labels= as well")
    multiclass = labels is not None or both.size > 2
    if multiclass:
        if pos_label is not None:
            raise ValueError("pos_label is for binary reports; these labels are multi-class (labels= or > 2 labels)")
        label_list = _check_labels_arg(labels, both) if labels is not None else both.tolist()
        if p is None:
            raise ValueError(f"y_pred is needed for a multi-class report (labels {label_list[:10]})")
        if train_frequencies is not None:
            try:
                average_scores(
                    {lab: Counts(1, 0, 0) for lab in label_list}, average="lfb", frequencies=train_frequencies
                )
            except (ValueError, TypeError) as err:
                raise type(err)(f"train_frequencies: {err}") from None
        index = {lab: i for i, lab in enumerate(label_list)}
        tc: np.ndarray = _label_codes(t, index)
        pc: np.ndarray | None = _label_codes(p, index)
        s = None if y_score is None else check_score_columns(y_score, len(label_list))
    else:
        if pos_label is None:
            pos_label = default_pos_label(both)
        if both.size == 2:
            check_pos_label(pos_label, both, where="y_true and y_pred")
        elif is_missing(pos_label) or label_kind(np.asarray([pos_label])) != label_kind(both):
            raise TypeError(f"pos_label={pos_label!r} is not a label of the kind in y_true ({both.tolist()})")
        tc = t == pos_label
        pc = None if p is None else p == pos_label
        s = None if y_score is None else check_scores("y_score", y_score)
    rep_ids, rep_codes = _codes("repeats", rep) if rep is not None else (np.zeros(1), np.zeros(t.size, dtype=np.intp))
    bodies, fold_counts = [], []
    for r in range(rep_ids.size):
        rows = np.flatnonzero(rep_codes == r) if rep is not None else slice(None)
        ids, fc = _codes("folds", f[rows])
        if ids.size < 2:
            where = f" in repeat {plain(rep_ids[r])}" if rep is not None else ""
            raise ValueError(
                f"folds holds a single fold ({plain(ids[0])}){where}; a cross-validated report needs at least two"
            )
        fold_counts.append(ids.size)
        if multiclass and pc is not None:
            bodies.append(
                multiclass_body(
                    tc[rows],
                    pc[rows],
                    None if s is None else s[rows],
                    fc,
                    ids,
                    label_list,
                    train_frequencies,
                    intervals=settings,
                    repeat=r,
                )
            )
        else:
            bodies.append(
                binary_body(
                    tc[rows],
                    None if pc is None else pc[rows],
                    None if s is None else s[rows],
                    fc,
                    ids,
                    intervals=settings,
                    repeat=r,
                )
            )
    sections = BINARY_SECTIONS if not multiclass else MULTICLASS_SECTIONS
    d: dict[str, Any] = {
        "task": "multiclass" if multiclass else "binary",
        "n": int(t.size),
        "n_folds": max(fold_counts),
    }
    if multiclass:
        d["labels"] = [plain(v) for v in label_list]
    else:
        d["pos_label"] = plain(pos_label)
    for sec in sections:
        d[sec] = _combine([b[sec] for b in bodies], mean_or_none)
    if multiclass:
        d["per_label"] = [
            {
                **bodies[0]["per_label"][i],
                **{k: sum(b["per_label"][i][k] for b in bodies) for k in ("tp", "fp", "fn", "tn", "support")},
            }
            for i in range(len(label_list))
        ]
    d["folds"] = [
        ({"repeat": plain(rep_ids[r]), **fold} if rep is not None else fold)
        for r, b in enumerate(bodies)
        for fold in b["folds"]
    ]
    if rep is not None:
        d["repeats"] = {
            "n_repeats": int(rep_ids.size),
            "ids": [plain(v) for v in rep_ids],
            "per_repeat": [
                {"repeat": plain(rep_ids[r]), **{sec: b[sec] for sec in sections}} for r, b in enumerate(bodies)
            ],
            "std": {sec: _combine([b[sec] for b in bodies], _std) for sec in sections},
        }
    if settings is not None:
        d["intervals"] = combine_intervals([b.pop("_intervals") for b in bodies], settings)
    d["recommended"], d["notes"] = guidance(d)
    if settings is not None:
        d["notes"].append(interval_note(settings, d["task"]))
    prediction_auc = None
    if not multiclass and pc is not None and s is not None and 0 < int(pc.sum()) < pc.size:
        prediction_auc = fold_ranking(pc, s, np.zeros(pc.size, dtype=np.intp), 1).auc_merge
    d["warnings"] = score_direction_warnings(d, prediction_auc) + gap_warnings(d)
    if settings is not None:
        d["warnings"] += interval_warnings(d)
    return CVReport(d)
