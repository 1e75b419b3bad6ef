"""Rendering a :class:`apples.CVReport` dict: tidy rows, aligned text, HTML and Markdown; and its layout, checked.

Every format is built from :func:`report_rows`, one row per (quantity, average,
aggregation), so the text, the HTML table, the Markdown table and
``CVReport.to_frame()`` always show the same numbers. Values print as percentages
with one decimal; an undefined value prints as ``undefined``.

:func:`check_layout` holds a dict to the layout these renderers read (the one
:func:`apples.report` documents and :meth:`~apples.CVReport.to_json` writes)
before a :class:`~apples.CVReport` is built from it, by hand or by
:meth:`~apples.CVReport.from_json`: printing, rendering or ``to_frame()`` then
never fails half-way with a ``KeyError`` and never shows a number that is not
one. Each error names the path of the offending entry, as
``data['f_measure']['tp_fp']``.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping
from typing import Any

from apples._report_guidance import BINARY_SECTIONS, MULTICLASS_SECTIONS

__all__ = [
    "check_layout",
    "render_html",
    "render_markdown",
    "render_text",
    "report_rows",
]

#: How a quantity and an aggregation are printed.
QUANTITY_NAMES = {
    "f_measure": "F-measure",
    "precision": "precision",
    "recall": "recall",
    "accuracy": "accuracy",
    "roc_auc": "ROC AUC",
    "average_precision": "average precision",
    "f_of_averages": "F of averaged P, R",
    "mean_f": "mean of per-label F",
}
AGGREGATION_NAMES = {
    "tp_fp": "F_tp,fp (pooled counts)",
    "avg": "averaged over folds",
    "pr_re": "F_pr,re (of averaged P, R)",
    "avg_skip": "F~_avg (defined folds)",
    "pr_re_skip": "F~_pr,re (defined folds)",
    "pooled": "pooled over folds",
    "merge": "merged scores",
}
_BINARY = ("f_measure", "precision", "recall", "accuracy", "roc_auc", "average_precision")
_MULTI = ("precision", "recall", "f_of_averages", "mean_f")


def _recommended(d: dict, quantity: str, aggregation: str) -> bool:
    if d["task"] == "binary":
        return d["recommended"].get(quantity) == aggregation
    return False


def _interval(d: dict, quantity: str, average: str, aggregation: str) -> dict[str, Any]:
    """The ``{"low", "high", "method"}`` of one value (all None without ``confidence=``)."""
    node: Any = d.get("intervals")
    for key in (quantity, average, aggregation):
        if node is None:
            break
        if key:
            node = node.get(key)
    return node if node is not None else {"low": None, "high": None, "method": None}


def report_rows(d: dict) -> list[dict[str, Any]]:
    """One dict per reported value: quantity, average ('' for binary), aggregation, value, std, recommended,
    and the interval's low, high and method (None without intervals)."""
    std = d.get("repeats", {}).get("std")
    rows = []

    def add(quantity: str, average: str, aggregation: str, value, spread) -> None:
        ci = _interval(d, quantity, average, aggregation)
        rows.append(
            {
                "quantity": quantity,
                "average": average,
                "aggregation": aggregation,
                "value": value,
                "std": spread,
                "recommended": _recommended(d, quantity, aggregation),
                "low": ci["low"],
                "high": ci["high"],
                "interval": ci["method"],
            }
        )

    if d["task"] == "binary":
        for q in _BINARY:
            for agg, v in d[q].items():
                add(q, "", agg, v, None if std is None else std[q][agg])
    else:
        for q in _MULTI:
            for avg, aggs in d[q].items():
                for agg, v in aggs.items():
                    add(q, avg, agg, v, None if std is None else std[q][avg][agg])
        for agg, v in d["accuracy"].items():
            add("accuracy", "", agg, v, None if std is None else std["accuracy"][agg])
        for agg, v in d["roc_auc"]["macro_ovr"].items():
            add("roc_auc", "macro_ovr", agg, v, None if std is None else std["roc_auc"]["macro_ovr"][agg])
    return rows


def _pct(v) -> str:
    return "undefined" if v is None else f"{100 * v:.1f}%"


def _plain(text: str) -> str:
    return text


#: Characters with a meaning in Markdown that a label may hold: a backslash escape makes each literal.
_MARKDOWN_SPECIAL = frozenset("\\`*_[]()!|~#{}")


def _markdown_user(text: str) -> str:
    """User text (a label, a fold or repeat id) made inert in Markdown: HTML-escaped, Markdown punctuation escaped.

    Most Markdown viewers render raw HTML, so ``<script>`` or ``<img onerror=...>`` in a label must
    not reach them as such; ``|`` would split a table cell, ``[...](...)`` make a link, a backtick
    open a code span.
    """
    escaped = html.escape(text, quote=False)
    return "".join("\\" + c if c in _MARKDOWN_SPECIAL else c for c in escaped)


def _title(d: dict, user=_plain) -> str:
    """The report's title line; ``user`` escapes the user text in it (the positive label)."""
    if d["task"] == "binary":
        head = (
            f"Cross-validated binary classification: n = {d['n']}, {d['n_folds']} folds, "
            f"positive label {user(repr(d['pos_label']))}"
        )
    else:
        head = (
            f"Cross-validated multi-class classification: n = {d['n']}, {d['n_folds']} folds, {len(d['labels'])} labels"
        )
    if "repeats" in d:
        head += f", {d['repeats']['n_repeats']} repeats (mean over repeats, std across them)"
    return head


def _ci_header(d: dict) -> str:
    return f"{100 * d['intervals']['confidence']:g}% interval"


def _right(d: dict) -> set[str]:
    """The right-aligned (numeric) columns."""
    return {"value", "std"} | ({_ci_header(d)} if "intervals" in d else set())


def _table(d: dict) -> tuple[list[str], list[list[str]]]:
    repeated = "repeats" in d
    header = ["quantity", "average", "aggregation", "value"] + (["std"] if repeated else [])
    if "intervals" in d:
        header += [_ci_header(d), "method"]
    if d["task"] == "binary":
        header.remove("average")
    body = []
    for r in report_rows(d):
        row = [QUANTITY_NAMES.get(r["quantity"], r["quantity"])]
        if d["task"] != "binary":
            row.append(r["average"])
        row += [
            AGGREGATION_NAMES.get(r["aggregation"], r["aggregation"]) + (" *" if r["recommended"] else ""),
            _pct(r["value"]),
        ]
        if repeated:
            row.append("" if r["std"] is None else f"{100 * r['std']:.1f}")
        if "intervals" in d:
            if r["low"] is not None:
                row.append(f"{100 * r['low']:.1f} to {100 * r['high']:.1f}%")
            else:
                row.append("none" if r["interval"] == "none" else "undefined")
            row.append(r["interval"] or "")
        body.append(row)
    return header, body


def _fold_lines(d: dict, user=_plain) -> list[str]:
    """One line per fold; ``user`` escapes the user text in it (fold and repeat ids, labels)."""
    lines = []
    for f in d["folds"]:
        where = f"fold {user(repr(f['fold']))}" + (f" of repeat {user(repr(f['repeat']))}" if "repeat" in f else "")
        if d["task"] == "binary":
            size = f"n = {f['n']}, positives = {f['positives']}"
        else:
            absent = user(repr(f["absent_labels"]))
            size = f"n = {f['n']}" + (f", absent labels {absent}" if f["absent_labels"] else "")
        und = "; ".join(
            u["quantity"] + (f" of {user(repr(u['label']))}" if "label" in u else "") + f" undefined ({u['reason']})"
            for u in f["undefined"]
        )
        lines.append(f"{where}: {size}" + (f"; {und}" if und else ""))
    return lines


def render_text(d: dict) -> str:
    """The report as aligned plain text, for a terminal."""
    header, body = _table(d)
    widths = [max(len(r[i]) for r in [header, *body]) for i in range(len(header))]
    numeric = _right(d)

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.rjust(w) if h in numeric else c.ljust(w) for c, w, h in zip(cells, widths, header, strict=True)
        ).rstrip()

    out = [_title(d), "", line(header), "  ".join("-" * w for w in widths)]
    out += [line(r) for r in body]
    out += ["", "* what the papers support"]
    out += ["", "Folds:"] + [f"  {s}" for s in _fold_lines(d)]
    out += ["", "Notes:"] + [f"  - {s}" for s in d["notes"]]
    if d["warnings"]:
        out += ["", "Warnings:"] + [f"  ! {s}" for s in d["warnings"]]
    return "\n".join(out)


def render_markdown(d: dict) -> str:
    """The report as Markdown: a title, a pipe table, then folds, notes and warnings as lists.

    User text (labels, fold and repeat ids) is escaped so that it stays text in any viewer
    (:func:`_markdown_user`); the rest is HTML-escaped, and ``|`` escaped inside the table.
    """
    header, body = _table(d)

    def cell(s: str) -> str:
        return html.escape(s, quote=False).replace("|", "\\|")

    def text(s: str) -> str:
        return html.escape(s, quote=False)

    right = _right(d)
    out = [
        f"**{_title(d, _markdown_user)}**",
        "",
        "| " + " | ".join(cell(h) for h in header) + " |",
        "|" + "|".join("---:" if h in right else ":---" for h in header) + "|",
    ]
    out += ["| " + " | ".join(cell(c) for c in r) + " |" for r in body]
    out += ["", "\\* what the papers support", "", "Folds:", ""] + [f"- {s}" for s in _fold_lines(d, _markdown_user)]
    out += ["", "Notes:", ""] + [f"- {text(s)}" for s in d["notes"]]
    if d["warnings"]:
        out += ["", "Warnings:", ""] + [f"- {text(s)}" for s in d["warnings"]]
    return "\n".join(out)


def render_html(d: dict) -> str:
    """The report as an HTML fragment: a table, then folds, notes and warnings (for notebooks)."""
    header, body = _table(d)
    esc = html.escape
    right = _right(d)
    th = "".join(f'<th style="text-align:{"right" if h in right else "left"}">{esc(h)}</th>' for h in header)
    rows = "".join(
        "<tr>"
        + "".join(
            f'<td style="text-align:{"right" if h in right else "left"}">{esc(c)}</td>'
            for c, h in zip(r, header, strict=True)
        )
        + "</tr>"
        for r in body
    )
    parts = [
        f'<div class="apples-report"><p><b>{esc(_title(d))}</b></p>',
        f"<table><thead><tr>{th}</tr></thead><tbody>{rows}</tbody></table>",
        "<p>* what the papers support</p>",
        "<details><summary>Folds</summary><ul>"
        + "".join(f"<li>{esc(s)}</li>" for s in _fold_lines(d))
        + "</ul></details>",
        "<p>Notes:</p><ul>" + "".join(f"<li>{esc(s)}</li>" for s in d["notes"]) + "</ul>",
    ]
    if d["warnings"]:
        parts.append("<p>Warnings:</p><ul>" + "".join(f"<li>{esc(s)}</li>" for s in d["warnings"]) + "</ul>")
    parts.append("</div>")
    return "".join(parts)


# -- the layout, checked ----------------------------------------------------------------------------
_F = ("tp_fp", "avg", "pr_re", "avg_skip", "pr_re_skip")
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


def _sections(path: _Path, d: Mapping[str, Any], task: str, leaf) -> None:
    """Every quantity section of ``d`` (a report, or its ``std`` or ``intervals`` tree) with ``leaf`` at the values."""
    if task == "binary":
        for section, aggs in _BINARY_LAYOUT.items():
            node = _mapping(path / section, d[section], aggs)
            for agg in aggs:
                leaf(path / section / agg, node[agg])
        return
    averages = _mapping(path / "precision", d["precision"], _AVERAGES, exact=False)
    keys = _AVERAGES + (("lfb_train",) if "lfb_train" in averages else ())
    for section in MULTICLASS_SECTIONS:
        if section == "accuracy":
            node = _mapping(path / section, d[section], _POOLED)
            for agg in _POOLED:
                leaf(path / section / agg, node[agg])
            continue
        if section == "roc_auc":
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
    node = _mapping(path, value, ("low", "high", "method"))
    _value(path / "low", node["low"])
    _value(path / "high", node["high"])
    if not isinstance(node["method"], str):
        raise TypeError(f"{path / 'method'} must be a str, got {node['method']!r:.80}")


def check_layout(data: object, name: str = "data") -> None:
    """Raise a TypeError or ValueError naming the entry where ``data`` departs from a report's layout.

    The layout is :func:`apples.report`'s: the keys of the task (binary or
    multi-class), each reported value a finite number or None, the folds,
    notes and warnings, and the optional ``repeats`` and ``intervals``
    sections. ``name`` starts the path in the message (``"data"``, or
    ``"text"`` for :meth:`~apples.CVReport.from_json`).
    """
    root = _Path(name)
    if not isinstance(data, Mapping) or data.get("task") not in ("binary", "multiclass"):
        raise TypeError(f"{name} must be the dict of CVReport.to_dict() (with 'task' 'binary' or 'multiclass')")
    task = data["task"]
    sections = BINARY_SECTIONS if task == "binary" else MULTICLASS_SECTIONS
    extra = ("pos_label",) if task == "binary" else ("labels", "per_label")
    _mapping(root, data, _COMMON + sections + extra, exact=False)
    _count(root / "n", data["n"])
    _count(root / "n_folds", data["n_folds"])
    if task == "binary":
        _label(root / "pos_label", data["pos_label"])
    else:
        for i, lab in enumerate(_list(root / "labels", data["labels"])):
            _label(root / "labels" / i, lab)
        for i, row in enumerate(_list(root / "per_label", data["per_label"])):
            row = _mapping(root / "per_label" / i, row, ("label", "tp", "fp", "fn", "tn", "support"))
            for key in ("tp", "fp", "fn", "tn", "support"):
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
        _sections(root / "repeats" / "std", _mapping(root / "repeats" / "std", rep["std"], sections), task, _value)
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
