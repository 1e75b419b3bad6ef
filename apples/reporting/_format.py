"""Rendering a :class:`apples.CVReport` dict: tidy rows, aligned text, HTML and Markdown.

Every format is built from :func:`report_rows`, one row per (quantity, average,
aggregation), so the text, the HTML table, the Markdown table and
``CVReport.to_frame()`` always show the same numbers. Values print as percentages
with one decimal; an undefined value prints as ``undefined``.

"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

from apples.cv.aggregations import AGGREGATION_NAMES, QUANTITY_NAMES

__all__ = [
    "render_html",
    "render_markdown",
    "render_text",
    "report_rows",
]

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

    def add(quantity: str, average: str, aggregation: str, value: Any, spread: Any) -> None:
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
            if q not in d:  # not computed: no y_pred, or no y_score
                continue
            for agg, v in d[q].items():
                add(q, "", agg, v, None if std is None else std[q][agg])
    else:
        for q in _MULTI:
            for avg, aggs in d[q].items():
                for agg, v in aggs.items():
                    add(q, avg, agg, v, None if std is None else std[q][avg][agg])
        for agg, v in d["accuracy"].items():
            add("accuracy", "", agg, v, None if std is None else std["accuracy"][agg])
        for agg, v in d.get("roc_auc", {}).get("macro_ovr", {}).items():
            add("roc_auc", "macro_ovr", agg, v, None if std is None else std["roc_auc"]["macro_ovr"][agg])
    return rows


def _pct(v: float | None) -> str:
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


def _title(d: dict, user: Callable[[str], str] = _plain) -> str:
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


def _fold_lines(d: dict, user: Callable[[str], str] = _plain) -> list[str]:
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
