"""The layout of a report dict, checked: what :class:`~apples.CVReport` accepts and ``from_json`` reads back.

:func:`check_layout` holds a dict to the layout :func:`apples.report` documents and
:meth:`~apples.CVReport.to_json` writes, before a :class:`~apples.CVReport` is built from it, by
hand or by :meth:`~apples.CVReport.from_json`: printing, rendering or ``to_frame()`` then never
fails half-way with a ``KeyError`` and never shows a number that is not one. Each error names the
path of the offending entry, as ``data['f_measure']['tp_fp']``. A quantity that was not computed
(no ``y_pred``, or no ``y_score``) is absent; ``None`` means 0/0 only.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from apples.cv.aggregations import F_AGGREGATIONS, REPORT_SECTIONS
from apples.reporting._values import SECTIONS

__all__ = [
    "check_layout",
    "present_sections",
]

_F = tuple(F_AGGREGATIONS)
_POOLED = ("pooled", "avg")
_RANKING = ("avg", "merge")
#: Binary sections -> their aggregations.
_BINARY_LAYOUT = {
    "f_measure": _F,
    "precision": _POOLED,
    "recall": _POOLED,
    "accuracy": _POOLED,
    "roc_auc": _RANKING,
    "average_precision": _RANKING,
    "log_loss": _POOLED,
    "brier_score": _POOLED,
}
_AVERAGES = ("macro", "micro", "lfb_test")
_COMMON = ("task", "n", "n_folds", "folds", "recommended", "notes", "warnings")


class _Path:
    """Where in the dict an entry sits, for the message: ``data['folds'][2]['n']``."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __truediv__(self, key: object) -> _Path:
        return _Path(f"{self.text}[{key!r}]")

    def __str__(self) -> str:
        return self.text


def _mapping(path: _Path, value: object, keys: tuple[str, ...], *, exact: bool = True) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise TypeError(f"{path} must be a dict (the layout of CVReport.to_dict()), got {type(value).__name__}")
    missing = [k for k in keys if k not in value]
    if missing:
        raise ValueError(f"{path} lacks {missing} (the layout of CVReport.to_dict(), documented in apples.report)")
    extra = [k for k in value if k not in keys] if exact else []
    if extra:
        raise ValueError(f"{path} has unknown key(s) {extra[:5]}; expected {list(keys)}")
    return value


def _list(path: _Path, value: object) -> list:
    if not isinstance(value, list):
        raise TypeError(f"{path} must be a list, got {type(value).__name__}")
    return value


def _count(path: _Path, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{path} must be a non-negative integer, got {value!r:.80}")


def _value(path: _Path, value: object) -> None:
    """A reported value: a finite number, or None for undefined (never NaN: to_json writes null)."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{path} must be a number or None (undefined), got {value!r:.80} ({type(value).__name__})")
    if not math.isfinite(value):
        raise ValueError(f"{path} is {value}: an undefined value is None (null in JSON), and values are finite")


def _strings(path: _Path, value: object) -> None:
    for i, s in enumerate(_list(path, value)):
        if not isinstance(s, str):
            raise TypeError(f"{path / i} must be a str, got {type(s).__name__}")


def _label(path: _Path, value: object) -> None:
    """A label or id as JSON holds it: a str, a number or a bool (report() writes anything else as its str)."""
    if not isinstance(value, (str, int, float)) or (isinstance(value, float) and not math.isfinite(value)):
        raise TypeError(f"{path} must be a label (a str, a number or a bool), got {value!r:.80}")


#: The binary sections that come with y_pred, and those that come with y_score.
_FROM_PREDICTIONS = ("f_measure", "precision", "recall", "accuracy")
_FROM_SCORES = ("roc_auc", "average_precision")


def present_sections(d: Mapping[str, Any]) -> tuple[str, ...]:
    """The quantity sections a report dict holds, in print order (absent: not computed)."""
    return tuple(s for s in SECTIONS[d["task"]] if s in d)


def _sections(path: _Path, d: Mapping[str, Any], task: str, leaf: Callable[[_Path, object], None]) -> None:
    """Every quantity section of ``d`` (a report, or its ``std`` or ``intervals`` tree) with ``leaf`` at the values."""
    if task == "binary":
        for section, aggs in _BINARY_LAYOUT.items():
            if section not in d:
                continue
            node = _mapping(path / section, d[section], aggs)
            for agg in aggs:
                leaf(path / section / agg, node[agg])
        return
    averages = _mapping(path / "precision", d["precision"], _AVERAGES, exact=False)
    keys = _AVERAGES + (("lfb_train",) if "lfb_train" in averages else ())
    for section in SECTIONS[task] if task == "multilabel" else REPORT_SECTIONS["multiclass"]:
        if section in ("accuracy", "subset_accuracy", "hamming_loss"):
            node = _mapping(path / section, d[section], _POOLED)
            for agg in _POOLED:
                leaf(path / section / agg, node[agg])
            continue
        if section == "roc_auc":
            if section not in d:
                continue
            ovr = _mapping(path / section, d[section], ("macro_ovr",))["macro_ovr"]
            node = _mapping(path / section / "macro_ovr", ovr, _RANKING)
            for agg in _RANKING:
                leaf(path / section / "macro_ovr" / agg, node[agg])
            continue
        by_average = _mapping(path / section, d[section], keys)
        for average in keys:
            node = _mapping(path / section / average, by_average[average], _POOLED)
            for agg in _POOLED:
                leaf(path / section / average / agg, node[agg])


def _check_interval(path: _Path, value: object) -> None:
    keys = ("low", "high", "method") + (("reason",) if isinstance(value, Mapping) and "reason" in value else ())
    node = _mapping(path, value, keys)
    _value(path / "low", node["low"])
    _value(path / "high", node["high"])
    for key in keys[2:]:
        if not isinstance(node[key], str):
            raise TypeError(f"{path / key} must be a str, got {node[key]!r:.80}")


def _optional_settings(root: _Path, data: Mapping[str, Any]) -> None:
    """The optional header entries: ``beta`` (F_beta), ``stratified`` and ``cv_seed`` (how the folds were made)."""
    if "beta" in data:
        beta = data["beta"]
        if isinstance(beta, bool) or not isinstance(beta, (int, float)) or not (0 < beta < math.inf):
            raise ValueError(f"{root / 'beta'} must be a positive finite number (F_beta), got {beta!r:.80}")
    if "stratified" in data and not isinstance(data["stratified"], bool):
        raise TypeError(
            f"{root / 'stratified'} must be True or False (absent: not known), got {data['stratified']!r:.80}"
        )
    if "cv_seed" in data:
        _count(root / "cv_seed", data["cv_seed"])


def check_layout(data: object, name: str = "data") -> None:
    """Raise a TypeError or ValueError naming the entry where ``data`` departs from a report's layout.

    The layout is :func:`apples.report`'s: the keys of the task (binary or
    multi-class), each reported value a finite number or None, the folds,
    notes and warnings, and the optional ``repeats`` and ``intervals``
    sections. ``name`` starts the path in the message (``"data"``, or
    ``"text"`` for :meth:`~apples.CVReport.from_json`).
    """
    root = _Path(name)
    if not isinstance(data, Mapping) or data.get("task") not in ("binary", "multiclass", "multilabel"):
        raise TypeError(
            f"{name} must be the dict of CVReport.to_dict() (with 'task' 'binary', 'multiclass' or 'multilabel')"
        )
    task = data["task"]
    _mapping(root, data, _COMMON, exact=False)
    if task == "binary":
        groups = [g for g in (_FROM_PREDICTIONS, _FROM_SCORES) if any(s in data for s in g)]
        if not groups:
            raise ValueError(f"{name} holds no quantity: a binary report has {list(_FROM_PREDICTIONS + _FROM_SCORES)}")
        required = tuple(s for g in groups for s in g)
    else:
        required = tuple(s for s in SECTIONS[task] if s != "roc_auc")
    sections = present_sections(data)
    extra = ("pos_label",) if task == "binary" else ("labels", "per_label")
    _mapping(root, data, _COMMON + required + extra, exact=False)
    _count(root / "n", data["n"])
    _count(root / "n_folds", data["n_folds"])
    _optional_settings(root, data)
    if task == "binary":
        _label(root / "pos_label", data["pos_label"])
    else:
        for i, lab in enumerate(_list(root / "labels", data["labels"])):
            _label(root / "labels" / i, lab)
        for i, row in enumerate(_list(root / "per_label", data["per_label"])):
            counted = ("tp", "fp", "fn", "tn", "support") + (("tn_cases",) if task == "multilabel" else ())
            row = _mapping(root / "per_label" / i, row, ("label", *counted))
            for key in counted:
                _count(root / "per_label" / i / key, row[key])
    _sections(root, data, task, _value)
    repeated = "repeats" in data
    fold_keys = ("fold", "n", "undefined") + (("positives",) if task == "binary" else ("absent_labels",))
    for i, fold in enumerate(_list(root / "folds", data["folds"])):
        where = root / "folds" / i
        fold = _mapping(where, fold, fold_keys + (("repeat",) if repeated else ()))
        _label(where / "fold", fold["fold"])
        _count(where / "n", fold["n"])
        if task == "binary":
            _count(where / "positives", fold["positives"])
        else:
            _list(where / "absent_labels", fold["absent_labels"])
        for j, u in enumerate(_list(where / "undefined", fold["undefined"])):
            u = _mapping(where / "undefined" / j, u, ("quantity", "reason"), exact=False)
            if not isinstance(u["quantity"], str) or not isinstance(u["reason"], str):
                raise TypeError(f"{where / 'undefined' / j} must hold a str 'quantity' and a str 'reason'")
    _mapping(root / "recommended", data["recommended"], (), exact=False)
    _strings(root / "notes", data["notes"])
    _strings(root / "warnings", data["warnings"])
    if repeated:
        rep = _mapping(root / "repeats", data["repeats"], ("n_repeats", "ids", "per_repeat", "std"))
        _count(root / "repeats" / "n_repeats", rep["n_repeats"])
        _list(root / "repeats" / "ids", rep["ids"])
        _list(root / "repeats" / "per_repeat", rep["per_repeat"])
        std = _mapping(root / "repeats" / "std", rep["std"], sections)
        _sections(root / "repeats" / "std", {"task": task, **std}, task, _value)
    if "intervals" in data:
        where = root / "intervals"
        settings = ("confidence", "n_resamples", "seed")
        intervals = _mapping(where, data["intervals"], settings, exact=False)
        _value(where / "confidence", intervals["confidence"])
        _count(where / "n_resamples", intervals["n_resamples"])
        _count(where / "seed", intervals["seed"])
        for section, tree in intervals.items():
            if section in settings:
                continue
            if section not in sections:
                raise ValueError(f"{where} has unknown key {section!r}; its sections are among {list(sections)}")
            _intervals(where / section, tree)


def _intervals(path: _Path, node: object) -> None:
    """An intervals subtree (only the values that have one): dicts down to ``{"low", "high", "method"}``."""
    if isinstance(node, Mapping) and "method" in node:
        _check_interval(path, node)
        return
    if not isinstance(node, Mapping) or not node:
        raise TypeError(f"{path} must be a dict of intervals {{'low', 'high', 'method'}}, got {node!r:.80}")
    for key, child in node.items():
        _intervals(path / key, child)
