"""The layout of a report dict, checked: what :meth:`~apples.CVReport.from_json` (and ``CVReport(dict)``) accept.

:func:`check_layout` holds a dict to the layout :meth:`~apples.CVReport.to_json` writes (version
``layout`` 2) before a :class:`~apples.CVReport` is built from it: printing, rendering, ``to_frame()``
or ``confidence_interval()`` then never fail half-way with a ``KeyError`` and never show a number that
is not one, nor a value outside its measure's range (an F of 1.5, a negative log loss). Each error
names the path of the offending entry, as ``text['values'][3]['value']``. :func:`apples.report`
builds its reports without this check: its output is right by construction.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from apples.measures.record import TASKS

__all__ = [
    "check_layout",
]

_BASES = ("fold values", "jackknife pseudo-values", "split values")
_COMMON = (
    "layout",
    "task",
    "n",
    "n_folds",
    "design",
    "measures",
    "values",
    "folds",
    "recommended",
    "notes",
    "warnings",
)


class _Path:
    """Where in the dict an entry sits, for the message: ``data['folds'][2]['n']``."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __truediv__(self, key: object) -> _Path:
        return _Path(f"{self.text}[{key!r}]")

    def __str__(self) -> str:
        return self.text


def _mapping(path: _Path, value: object, keys: tuple[str, ...], optional: tuple[str, ...] = ()) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise TypeError(f"{path} must be a dict (the layout of CVReport.to_dict()), got {type(value).__name__}")
    missing = [k for k in keys if k not in value]
    if missing:
        raise ValueError(f"{path} lacks {missing} (the layout of CVReport.to_dict(), documented in apples.report)")
    extra = [k for k in value if k not in keys and k not in optional]
    if extra:
        raise ValueError(f"{path} has unknown key(s) {extra[:5]}; expected {list(keys + optional)}")
    return value


def _list(path: _Path, value: object) -> list:
    if not isinstance(value, list):
        raise TypeError(f"{path} must be a list, got {type(value).__name__}")
    return value


def _count(path: _Path, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{path} must be a non-negative integer, got {value!r:.80}")
    return value


def _str(path: _Path, value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{path} must be a str, got {value!r:.80}")
    return value


def _bool(path: _Path, value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{path} must be True or False, got {value!r:.80}")
    return value


def _number(path: _Path, value: object, low: float = -math.inf, high: float = math.inf) -> float:
    """A finite number in [low, high] (never NaN: to_json writes null)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{path} must be a number, got {value!r:.80} ({type(value).__name__})")
    if not math.isfinite(value):
        raise ValueError(f"{path} is {value}: values are finite (an undefined value is null)")
    if not low <= value <= high:
        raise ValueError(f"{path} is {value!r}, outside the range [{low:g}, {high:g}] of its measure")
    return float(value)


def _value(path: _Path, value: object, low: float = -math.inf, high: float = math.inf) -> float | None:
    return None if value is None else _number(path, value, low, high)


def _bound(path: _Path, value: object) -> float:
    if value in ("inf", "-inf"):
        return float(str(value))
    return _number(path, value)


def _label(path: _Path, value: object) -> None:
    """A label or id as JSON holds it: a str, a number or a bool (report() writes anything else as its str)."""
    if not isinstance(value, (str, int, float)) or (isinstance(value, float) and not math.isfinite(value)):
        raise TypeError(f"{path} must be a label (a str, a number or a bool), got {value!r:.80}")


def _measures(path: _Path, value: object) -> dict[str, tuple[float, float, set[str]]]:
    """Each measure's range and aggregation keys."""
    if not isinstance(value, Mapping) or not value:
        raise TypeError(f"{path} must be a non-empty dict of measures, got {value!r:.80}")
    out = {}
    for key, meta in value.items():
        where = path / key
        m = _mapping(
            where,
            meta,
            ("name", "range", "greater_is_better", "percent", "digits", "undefined", "aggregations", "options"),
            optional=("references",),
        )
        _str(where / "name", m["name"])
        if "references" in m:
            _str(where / "references", m["references"])
        _str(where / "undefined", m["undefined"])
        bounds = _list(where / "range", m["range"])
        if len(bounds) != 2:
            raise ValueError(f"{where / 'range'} must be [low, high], got {bounds!r:.80}")
        lo, hi = _bound(where / "range" / 0, bounds[0]), _bound(where / "range" / 1, bounds[1])
        if not lo < hi:
            raise ValueError(f"{where / 'range'} must have low < high, got {bounds!r:.80}")
        _bool(where / "greater_is_better", m["greater_is_better"])
        _bool(where / "percent", m["percent"])
        _count(where / "digits", m["digits"])
        aggs = m["aggregations"]
        if not isinstance(aggs, Mapping) or not aggs:
            raise TypeError(f"{where / 'aggregations'} must be a non-empty dict, got {aggs!r:.80}")
        for a, spec in aggs.items():
            s = _mapping(where / "aggregations" / a, spec, ("name", "symbol"))
            _str(where / "aggregations" / a / "name", s["name"])
            _str(where / "aggregations" / a / "symbol", s["symbol"])
        if not isinstance(m["options"], Mapping):
            raise TypeError(f"{where / 'options'} must be a dict, got {m['options']!r:.80}")
        out[key] = (lo, hi, set(aggs))
    return out


def _spread(path: _Path, value: object) -> None:
    if isinstance(value, Mapping) and "no_interval" in value:
        s = _mapping(path, value, ("basis", "no_interval"))
        _str(path / "no_interval", s["no_interval"])
    else:
        s = _mapping(path, value, ("basis", "n", "variance", "n_train", "n_test"))
        if _count(path / "n", s["n"]) < 2:
            raise ValueError(f"{path / 'n'} must be at least 2 (fewer points carry a no_interval reason instead)")
        _number(path / "variance", s["variance"], 0.0)
        for k in ("n_train", "n_test"):
            if _number(path / k, s[k], 0.0) == 0:
                raise ValueError(f"{path / k} must be positive")
    if s["basis"] not in _BASES:
        raise ValueError(f"{path / 'basis'} must be one of {list(_BASES)}, got {s['basis']!r:.80}")


def _row(path: _Path, value: object, measures: dict[str, tuple[float, float, set[str]]], repeated: bool) -> None:
    keys = ("quantity", "average", "aggregation", "value", "substituted", "spread") + (("std",) if repeated else ())
    r = _mapping(path, value, keys, ("infinite", "reason", "interval"))
    q = _str(path / "quantity", r["quantity"])
    if q not in measures:
        raise ValueError(f"{path / 'quantity'} is {q!r}, which is not among the report's measures {list(measures)}")
    lo, hi, aggs = measures[q]
    if _str(path / "aggregation", r["aggregation"]) not in aggs:
        raise ValueError(f"{path / 'aggregation'} is {r['aggregation']!r}; {q} has {sorted(aggs)}")
    _str(path / "average", r["average"])
    _value(path / "value", r["value"], lo, hi)
    if "infinite" in r and (not _bool(path / "infinite", r["infinite"]) or r["value"] is not None or hi != math.inf):
        raise ValueError(f"{path / 'infinite'} is only for a null value of a measure without an upper bound")
    if repeated:
        _value(path / "std", r["std"], 0.0)
    _bool(path / "substituted", r["substituted"])
    if "reason" in r:
        _str(path / "reason", r["reason"])
    _spread(path / "spread", r["spread"])
    if "interval" in r:
        ci = _mapping(path / "interval", r["interval"], ("low", "high", "method"), ("reason",))
        low, high = (
            _value(path / "interval" / "low", ci["low"], lo, hi),
            _value(path / "interval" / "high", ci["high"], lo, hi),
        )
        if (low is None) != (high is None) or (low is not None and high is not None and low > high):
            raise ValueError(f"{path / 'interval'} must have both ends null, or low <= high")
        _str(path / "interval" / "method", ci["method"])
        if "reason" in ci:
            _str(path / "interval" / "reason", ci["reason"])


def _fold(path: _Path, value: object, task: str, repeated: bool) -> None:
    keys = ("fold", "n", "undefined") + (("positives",) if task == "binary" else ("absent_labels",))
    f = _mapping(path, value, keys + (("repeat",) if repeated else ()))
    _label(path / "fold", f["fold"])
    _count(path / "n", f["n"])
    if task == "binary":
        _count(path / "positives", f["positives"])
    else:
        for i, lab in enumerate(_list(path / "absent_labels", f["absent_labels"])):
            _label(path / "absent_labels" / i, lab)
    for j, u in enumerate(_list(path / "undefined", f["undefined"])):
        u = _mapping(path / "undefined" / j, u, ("quantity", "reason"), ("label",))
        _str(path / "undefined" / j / "quantity", u["quantity"])
        _str(path / "undefined" / j / "reason", u["reason"])


def _header(root: _Path, data: Mapping[str, Any]) -> None:
    """The optional header entries: how the folds were made, the weights."""
    if "stratified" in data:
        _bool(root / "stratified", data["stratified"])
    if "cv_seed" in data:
        _count(root / "cv_seed", data["cv_seed"])
    if "sample_weight" in data:
        sw = _mapping(root / "sample_weight", data["sample_weight"], ("mean", "n_zero"))
        _number(root / "sample_weight" / "mean", sw["mean"], 0.0)
        _count(root / "sample_weight" / "n_zero", sw["n_zero"])
    if "confidence" in data:
        c = _number(root / "confidence", data["confidence"])
        if not 0 < c < 1:
            raise ValueError(f"{root / 'confidence'} must be strictly between 0 and 1, got {c!r}")


def check_layout(data: object, name: str = "data") -> None:
    """Raise a TypeError or ValueError naming the entry where ``data`` departs from a report's layout."""
    root = _Path(name)
    if not isinstance(data, Mapping):
        raise TypeError(f"{name} must be the dict of CVReport.to_dict(), got {type(data).__name__}")
    if data.get("layout") != 2:
        raise ValueError(
            f"{name} is not in layout 2 of CVReport.to_dict() (layout {data.get('layout', 1)!r}): a report written "
            "by an earlier apples has nested sections instead of the long table; run apples.report on the "
            "predictions again"
        )
    task = data.get("task")
    if task not in TASKS:
        raise ValueError(f"{root / 'task'} must be one of {list(TASKS)}, got {task!r:.80}")
    own = ("pos_label",) if task == "binary" else ("labels", "per_label")
    optional = ("stratified", "cv_seed", "sample_weight", "confidence", "repeats")
    _mapping(root, data, _COMMON + own, optional)
    _count(root / "n", data["n"])
    _count(root / "n_folds", data["n_folds"])
    if not isinstance(data["design"], Mapping):
        raise TypeError(f"{root / 'design'} must be a dict")
    _header(root, data)
    if task == "binary":
        _label(root / "pos_label", data["pos_label"])
    else:
        for i, lab in enumerate(_list(root / "labels", data["labels"])):
            _label(root / "labels" / i, lab)
        counted = ("tp", "fp", "fn", "tn", "support") + (("tn_cases",) if task == "multilabel" else ())
        for i, row in enumerate(_list(root / "per_label", data["per_label"])):
            row = _mapping(root / "per_label" / i, row, ("label", *counted))
            for key in counted:
                _count(root / "per_label" / i / key, row[key])
    measures = _measures(root / "measures", data["measures"])
    repeated = "repeats" in data
    rows = _list(root / "values", data["values"])
    if not rows:
        raise ValueError(f"{root / 'values'} is empty: a report holds at least one value")
    for i, row in enumerate(rows):
        _row(root / "values" / i, row, measures, repeated)
    if any("interval" in r for r in rows) and "confidence" not in data:
        raise ValueError(f"{root} holds intervals but no 'confidence'")
    if repeated:
        rep = _mapping(root / "repeats", data["repeats"], ("n_repeats", "ids", "values"))
        _count(root / "repeats" / "n_repeats", rep["n_repeats"])
        for i, rid in enumerate(_list(root / "repeats" / "ids", rep["ids"])):
            _label(root / "repeats" / "ids" / i, rid)
        for i, row in enumerate(_list(root / "repeats" / "values", rep["values"])):
            where = root / "repeats" / "values" / i
            r = _mapping(where, row, ("repeat", "quantity", "average", "aggregation", "value"))
            if r["quantity"] not in measures:
                raise ValueError(f"{where / 'quantity'} is not among the report's measures")
            lo, hi, _ = measures[r["quantity"]]
            _value(where / "value", r["value"], lo, hi)
    for i, fold in enumerate(_list(root / "folds", data["folds"])):
        _fold(root / "folds" / i, fold, task, repeated)
    rec = data["recommended"]
    if not isinstance(rec, Mapping):
        raise TypeError(f"{root / 'recommended'} must be a dict")
    for q, agg in rec.items():
        if q not in measures or agg not in measures[q][2]:
            raise ValueError(
                f"{root / 'recommended' / q} is {agg!r:.80}, not an aggregation of a measure of the report"
            )
    for key in ("notes", "warnings"):
        for i, s in enumerate(_list(root / key, data[key])):
            _str(root / key / i, s)
