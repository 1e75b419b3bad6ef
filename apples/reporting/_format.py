"""Rendering a :class:`apples.CVReport` dict: its rows, aligned text, HTML and Markdown.

Every format is built from :func:`report_rows`, one row per (quantity, average, aggregation) of the
report's long table with the names its measure records give, so the text, the HTML table, the
Markdown table, the LaTeX table and ``CVReport.to_frame()`` always show the same numbers. A rate
prints as a percentage with one decimal, a measure that is no rate (MCC, kappa, log loss, Brier
score) with its record's decimals; an undefined value prints as ``undefined``, an infinite one as
``infinite``. The header states the cases, folds (per repeat) and repeats, what is known of how the
folds were made (stratification, seed), the weights and the H-measure's severity ratio; a row whose
value counted an undefined fold (or label) as 0 carries a mark (:data:`ZERO_MARK`), and a legend line
appears only for a mark that some row has. With many folds or repeats the Folds section is a
summary (per repeat: the sizes' range, the folds with undefined values by id). User text (labels,
fold and repeat ids) is escaped in every format, line breaks included.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from apples.measures import LABEL_AVERAGES

__all__ = [
    "RECOMMENDED_MARK",
    "ZERO_MARK",
    "fmt_value",
    "fold_lines",
    "header_lines",
    "interval_notes",
    "interval_text",
    "legend_lines",
    "markdown_user",
    "one_line",
    "render_html",
    "render_markdown",
    "render_text",
    "report_rows",
    "rule_lines",
    "value_range",
]

#: The mark of a recommended row (what the papers support), and of a row that counted an undefined fold as 0.
RECOMMENDED_MARK, ZERO_MARK = "*", "\u2020"
#: More folds than this (or any repeats): the Folds section is a summary, not one line per fold.
_FOLD_LINES = 12
#: At most this many repeats get a line of their own in the Folds section.
_REPEAT_LINES = 20
_LINE_BREAKS = re.compile(r"\s*[\r\n\u2028\u2029\x0b\x0c\x85]+\s*")


def one_line(text: str) -> str:
    """User text on one line: every line break (and the blanks around it) becomes one space."""
    return _LINE_BREAKS.sub(" ", text)


def value_range(d: Mapping[str, Any], quantity: str) -> tuple[float, float]:
    """The range of a quantity's values, from the report's description of its measure."""
    lo, hi = d["measures"][quantity]["range"]
    return float(lo), float(hi)


def fmt_value(meta: Mapping[str, Any], v: float | None, *, infinite: bool = False, sign: str = "%") -> str:
    """A value as printed: a rate in percent with one decimal, else the record's decimals."""
    if infinite:
        return "infinite"
    if v is None:
        return "undefined"
    return f"{100 * v:.1f}{sign}" if meta["percent"] else f"{v:.{meta['digits']}f}"


def _fmt_spread(meta: Mapping[str, Any], v: float | None) -> str:
    if v is None:
        return ""
    return f"{100 * v:.1f}" if meta["percent"] else f"{v:.{meta['digits']}f}"


def quantity_name(d: Mapping[str, Any], quantity: str) -> str:
    """How a quantity prints: its record's name, with the setting that changes it (``F2-measure``)."""
    meta = d["measures"][quantity]
    name = str(meta["name"])
    beta = meta["options"].get("beta")
    if beta not in (None, 1, 1.0) and "F" in name:
        name = name.replace("F", f"F{beta:g}", 1)
    return name


def aggregation_name(d: Mapping[str, Any], quantity: str, aggregation: str) -> str:
    """How an aggregation prints: the paper's symbol with its meaning (``F_tp,fp (pooled counts)``), or its name."""
    a = d["measures"][quantity]["aggregations"][aggregation]
    return f"{a['symbol']} ({a['name']})" if a["symbol"] else str(a["name"])


def average_name(average: str) -> str:
    """How a label average prints."""
    return LABEL_AVERAGES.get(average, average)


def interval_text(r: Mapping[str, Any], sign: str = "%", to: str = " to ") -> str:
    """A row's interval as printed: ``63.8 to 84.5%``, or ``none`` where it has none."""
    if r["low"] is None or r["high"] is None:
        return "none"
    meta = r["meta"]
    if not meta["percent"]:
        return f"{r['low']:.{meta['digits']}f}{to}{r['high']:.{meta['digits']}f}"
    return f"{100 * r['low']:.1f}{to}{100 * r['high']:.1f}{sign}"


def report_rows(d: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One dict per value of the long table: its keys and names, value, std, recommended, substituted, infinite,
    the reason of an undefined value, and the interval's low, high, method and reason (None without intervals)."""
    out = []
    for r in d["values"]:
        q, avg, agg = r["quantity"], r["average"], r["aggregation"]
        ci = r.get("interval", {})
        out.append(
            {
                "quantity": q,
                "average": avg,
                "aggregation": agg,
                "quantity_name": quantity_name(d, q),
                "average_name": average_name(avg) if avg else "",
                "aggregation_name": aggregation_name(d, q, agg),
                "meta": d["measures"][q],
                "value": r["value"],
                "infinite": bool(r.get("infinite")),
                "value_reason": r.get("reason"),
                "std": r.get("std"),
                "recommended": d["recommended"].get(q) == agg,
                "substituted": bool(r["substituted"]),
                "low": ci.get("low"),
                "high": ci.get("high"),
                "interval": ci.get("method"),
                "reason": ci.get("reason"),
            }
        )
    return out


def _plain(text: str) -> str:
    return one_line(text)


#: Characters with a meaning in Markdown that a label may hold: a backslash escape makes each literal.
_MARKDOWN_SPECIAL = frozenset("\\`*_[]()!|~#{}<>")


def markdown_user(text: str) -> str:
    """User text (a label, a fold or repeat id) made inert in Markdown: on one line, HTML-escaped, Markdown
    punctuation escaped (``<script>`` or ``|`` in a label must not reach a viewer as such)."""
    escaped = html.escape(one_line(text), quote=False)
    return "".join("\\" + c if c in _MARKDOWN_SPECIAL else c for c in escaped)


def _ids(values: Iterable[object], user: Callable[[str], str], most: int = 10) -> str:
    """Fold or repeat ids as a short list of words: ``0, 3, 7`` (``...`` and the count past ``most``)."""
    values = list(values)
    shown = ", ".join(user(str(v)) for v in values[:most])
    return shown + (f", ... ({len(values):,} in all)" if len(values) > most else "")


#: A fold's line names at most this many undefined values (a report of 20,000 labels stays readable).
_UNDEFINED_WORDS = 10


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def _range(values: list[int]) -> str:
    low, high = min(values), max(values)
    return f"{low:,}" if low == high else f"{low:,}-{high:,}"


def _repeats(d: Mapping[str, Any]) -> list[tuple[object, list[dict]]]:
    """The folds of each repeat, in report order: ``[(repeat id or None, folds)]``."""
    if "repeats" not in d:
        return [(None, d["folds"])]
    groups: dict[Any, list[dict]] = {}
    for f in d["folds"]:
        groups.setdefault(f["repeat"], []).append(f)
    return [(r, groups.get(r, [])) for r in d["repeats"]["ids"]] if groups else []


def header_lines(d: Mapping[str, Any], user: Callable[[str], str] = _plain) -> list[str]:
    """The report's header: what was measured (cases, folds per repeat, repeats), and how the folds were made.

    ``user`` escapes the user text in it (the positive label). Cases are counted per repeat (a case
    predicted in every repeat is one case, not one per repeat).
    """
    groups = _repeats(d)
    cases = [sum(f["n"] for f in folds) for _, folds in groups] or [d["n"]]
    n_folds = [len(folds) for _, folds in groups] or [d["n_folds"]]
    if d["task"] == "binary":
        what = f"Cross-validated binary classification, positive label {user(str(d['pos_label']))}"
    elif d["task"] == "multilabel":
        what = f"Cross-validated multi-label classification, {len(d['labels'])} labels (Van Asch §5)"
    else:
        what = f"Cross-validated multi-class classification, {len(d['labels'])} labels"
    design = d.get("design", {})
    if "repeats" in d and design.get("design") == "repeated hold-out":
        r = d["repeats"]["n_repeats"]
        of = f" of {design['n_cases']:,} cases" if design.get("n_cases") else ""
        size = (
            f"{r} hold-out splits{of}, {_range(cases)} test cases each ({d['n']:,} predictions; "
            "values are means over the splits, std across them)"
        )
        if "overlap" in design:
            o = design["overlap"]
            size += (
                f"; the test sets overlap: {o['n_tested_in_several_repeats']:,} of {o['n_tested']:,} tested cases "
                f"in two or more splits (up to {o['max_times_tested']})"
            )
        if design.get("n_untested"):
            size += f"; {design['n_untested']:,} cases never tested"
    elif "repeats" in d:
        r = d["repeats"]["n_repeats"]
        size = (
            f"{_range(cases)} cases, {_range(n_folds)} fold{'' if max(n_folds) == 1 else 's'} per repeat, "
            f"{r} repeats ({d['n']:,} predictions; "
            "values are means over the repeats, std across them)"
        )
    else:
        size = f"{d['n']:,} cases, {d['n_folds']} folds"
    if "stratified" in d:
        strat = "stratified folds" if d["stratified"] else "folds not stratified"
    else:
        strat = "stratification not stated"
    seed = f"split seed {d['cv_seed']}" if "cv_seed" in d else "split seed not stated"
    lines = [f"{what}: {size}", f"Folds: {strat}; {seed}."]
    settings = []
    for key, meta in d["measures"].items():
        beta = meta["options"].get("beta")
        if beta not in (None, 1, 1.0) and key in ("f_measure", "f_of_averages", "mean_f"):
            settings.append(f"F-measures are F_beta with beta = {beta:g}")
            break
    h = d["measures"].get("h_measure", {}).get("options", {})
    if h.get("severity_ratio") is not None:
        settings.append(f"H-measure with severity ratio r = {h['severity_ratio']:.4g} (prior Beta(2, 1 + 1/r))")
    eps = d["measures"].get("log_loss", {}).get("options", {}).get("eps")
    if eps is not None:
        settings.append(f"log loss with probabilities clipped at eps = {eps}")
    if settings:
        lines[-1] += " " + "; ".join(settings) + "."
    if "sample_weight" in d:
        sw = d["sample_weight"]
        lines.append(
            f"Values weighted by sample_weight (mean weight {sw['mean']:.4g}, {sw['n_zero']:,} rows of weight 0)."
        )
    return lines


def rule_lines(d: Mapping[str, Any]) -> list[str]:
    """Each measure's 0/0 rule, as its record states it."""
    return [f"{quantity_name(d, k)}: {m['undefined']}" for k, m in d["measures"].items() if m["undefined"]]


def _ci_header(d: Mapping[str, Any]) -> str:
    return f"{100 * d['confidence']:g}% interval"


def _right(d: Mapping[str, Any]) -> set[str]:
    """The right-aligned (numeric) columns."""
    return {"value", "std"} | ({_ci_header(d)} if "confidence" in d else set())


def _marks(r: Mapping[str, Any]) -> str:
    return (" " + RECOMMENDED_MARK if r["recommended"] else "") + (" " + ZERO_MARK if r["substituted"] else "")


def legend_lines(rows: list[dict[str, Any]]) -> list[str]:
    """The legend of the marks some row carries (never a mark no row has)."""
    out = []
    if any(r["recommended"] for r in rows):
        out.append(f"{RECOMMENDED_MARK} what the papers support")
    if any(r["substituted"] for r in rows):
        out.append(f"{ZERO_MARK} an undefined fold (or label) counted as 0, as the measure's 0/0 rule says")
    return out


def _table(d: Mapping[str, Any], rows: list[dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    repeated = "repeats" in d
    header = ["quantity", "average", "aggregation", "value"] + (["std"] if repeated else [])
    if "confidence" in d:
        header += [_ci_header(d), "method"]
    if d["task"] == "binary":
        header.remove("average")
    body = []
    for r in rows:
        row = [r["quantity_name"]]
        if d["task"] != "binary":
            row.append(r["average_name"])
        row += [r["aggregation_name"] + _marks(r), fmt_value(r["meta"], r["value"], infinite=r["infinite"])]
        if repeated:
            row.append(_fmt_spread(r["meta"], r["std"]))
        if "confidence" in d:
            row.append(interval_text(r))
            row.append(r["interval"] or "")
        body.append(row)
    return header, body


def interval_notes(d: Mapping[str, Any], rows: list[dict[str, Any]]) -> list[str]:
    """Why an interval is missing or has width 0, one line per reason with the rows it applies to."""
    if "confidence" not in d:
        return []
    by_reason: dict[str, list[str]] = {}
    for r in rows:
        if r["reason"]:
            average = f" ({r['average_name']})" if r["average"] else ""
            by_reason.setdefault(r["reason"], []).append(f"{r['quantity_name']}{average} {r['aggregation_name']}")
    return [f"{'; '.join(names)}: {reason}" for reason, names in by_reason.items()]


def _undefined_words(d: Mapping[str, Any], u: Mapping[str, Any], user: Callable[[str], str]) -> str:
    label = f" of {user(str(u['label']))}" if "label" in u else ""
    name = quantity_name(d, u["quantity"]) if u["quantity"] in d["measures"] else u["quantity"]
    return f"{name}{label} undefined ({u['reason']})"


def fold_lines(d: Mapping[str, Any], user: Callable[[str], str] = _plain) -> list[str]:
    """The Folds section: one line per fold, or with repeats or many folds a summary per repeat.

    ``user`` escapes the user text in it (fold and repeat ids, labels).
    """
    groups = _repeats(d)
    if "repeats" not in d and len(d["folds"]) <= _FOLD_LINES:
        lines = []
        for f in d["folds"]:
            if d["task"] == "binary":
                size = f"n = {f['n']}, positives = {f['positives']}"
            else:
                absent = _ids(f["absent_labels"], user)
                size = f"n = {f['n']}" + (f", absent labels {absent}" if f["absent_labels"] else "")
            und = "; ".join(_undefined_words(d, u, user) for u in f["undefined"][:_UNDEFINED_WORDS])
            if len(f["undefined"]) > _UNDEFINED_WORDS:
                und += f"; ... ({len(f['undefined']):,} undefined values in all, every one in the JSON)"
            lines.append(f"fold {user(str(f['fold']))}: {size}" + (f"; {und}" if und else ""))
        return lines
    lines = []
    for repeat, folds in groups[:_REPEAT_LINES]:
        where = "" if repeat is None else f"repeat {user(str(repeat))}: "
        n = [f["n"] for f in folds]
        sizes = f"{_plural(len(folds), 'fold')} of {_range(n)} case{'' if max(n) == 1 else 's'}"
        if d["task"] == "binary":
            sizes += f", {_range([f['positives'] for f in folds])} positives"
        which: dict[str, list[object]] = {}
        for f in folds:
            names = (
                quantity_name(d, u["quantity"]) if u["quantity"] in d["measures"] else u["quantity"]
                for u in f["undefined"]
            )
            for name in dict.fromkeys(names):
                which.setdefault(name, []).append(f["fold"])
        und = "; ".join(
            f"{name} undefined in "
            + ("every fold" if len(ids) == len(folds) else f"fold{'s' if len(ids) > 1 else ''} {_ids(ids, user)}")
            for name, ids in which.items()
        )
        lines.append(where + sizes + (f"; {und}" if und else ""))
    if len(groups) > _REPEAT_LINES:
        lines.append(f"... and {len(groups) - _REPEAT_LINES} more repeats (every fold is in the JSON)")
    return lines


def _value_notes(rows: list[dict[str, Any]]) -> list[str]:
    """Why a value is undefined or infinite, one line per reason with the rows it applies to."""
    by_reason: dict[str, list[str]] = {}
    for r in rows:
        if r["value_reason"]:
            average = f" ({r['average_name']})" if r["average"] else ""
            by_reason.setdefault(r["value_reason"], []).append(f"{r['quantity_name']}{average} {r['aggregation_name']}")
    return [f"{'; '.join(names)}: {reason}" for reason, names in by_reason.items()]


def render_text(d: Mapping[str, Any]) -> str:
    """The report as aligned plain text, for a terminal."""
    rows = report_rows(d)
    header, body = _table(d, rows)
    widths = [max(len(r[i]) for r in [header, *body]) for i in range(len(header))]
    numeric = _right(d)

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.rjust(w) if h in numeric else c.ljust(w) for c, w, h in zip(cells, widths, header, strict=True)
        ).rstrip()

    out = [*header_lines(d), "", line(header), "  ".join("-" * w for w in widths)]
    out += [line(r) for r in body]
    legend = legend_lines(rows)
    if legend:
        out += ["", *legend]
    undefined = _value_notes(rows)
    if undefined:
        out += ["", "Undefined or infinite values:"] + [f"  {s}" for s in undefined]
    notes = interval_notes(d, rows)
    if notes:
        out += ["", "Intervals:"] + [f"  {s}" for s in notes]
    out += ["", "Folds:"] + [f"  {s}" for s in fold_lines(d)]
    out += ["", "0/0 rules:"] + [f"  - {s}" for s in rule_lines(d)]
    out += ["", "Notes:"] + [f"  - {s}" for s in d["notes"]]
    if d["warnings"]:
        out += ["", "Warnings:"] + [f"  ! {s}" for s in d["warnings"]]
    return "\n".join(out)


def render_markdown(d: Mapping[str, Any]) -> str:
    """The report as Markdown: a title, a pipe table, then folds, notes and warnings as lists.

    User text (labels, fold and repeat ids) is escaped so that it stays text in any viewer
    (:func:`markdown_user`); the rest is HTML-escaped, and ``|`` escaped inside the table.
    """
    rows = report_rows(d)
    header, body = _table(d, rows)

    def cell(s: str) -> str:
        return html.escape(one_line(s), quote=False).replace("|", "\\|").replace("*", "\\*")

    def text(s: str) -> str:
        return html.escape(one_line(s), quote=False)

    right = _right(d)
    title, *more = header_lines(d, markdown_user)
    out = [f"**{title}**", "", *[f"{m}  " for m in more], ""]
    out += [
        "| " + " | ".join(cell(h) for h in header) + " |",
        "|" + "|".join("---:" if h in right else ":---" for h in header) + "|",
    ]
    out += ["| " + " | ".join(cell(c) for c in r) + " |" for r in body]
    legend = legend_lines(rows)
    if legend:
        out += [""] + [cell(s) + "  " for s in legend]
    undefined = _value_notes(rows)
    if undefined:
        out += ["", "Undefined or infinite values:", ""] + [f"- {text(s)}" for s in undefined]
    notes = interval_notes(d, rows)
    if notes:
        out += ["", "Intervals:", ""] + [f"- {text(s)}" for s in notes]
    out += ["", "Folds:", ""] + [f"- {s}" for s in fold_lines(d, markdown_user)]
    out += ["", "0/0 rules:", ""] + [f"- {text(s)}" for s in rule_lines(d)]
    out += ["", "Notes:", ""] + [f"- {text(s)}" for s in d["notes"]]
    if d["warnings"]:
        out += ["", "Warnings:", ""] + [f"- {text(s)}" for s in d["warnings"]]
    return "\n".join(out)


def render_html(d: Mapping[str, Any]) -> str:
    """The report as an HTML fragment: a table, then folds, notes and warnings (for notebooks)."""
    rows_ = report_rows(d)
    header, body = _table(d, rows_)
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
    title, *more = header_lines(d)
    parts = [
        f'<div class="apples-report"><p><b>{esc(title)}</b>' + "".join(f"<br>{esc(m)}" for m in more) + "</p>",
        f"<table><thead><tr>{th}</tr></thead><tbody>{rows}</tbody></table>",
        *[f"<p>{esc(s)}</p>" for s in legend_lines(rows_)],
    ]
    for title_, lines in (
        ("Undefined or infinite values:", _value_notes(rows_)),
        ("Intervals:", interval_notes(d, rows_)),
    ):
        if lines:
            parts.append(f"<p>{title_}</p><ul>" + "".join(f"<li>{esc(s)}</li>" for s in lines) + "</ul>")
    parts += [
        "<details><summary>Folds</summary><ul>"
        + "".join(f"<li>{esc(s)}</li>" for s in fold_lines(d))
        + "</ul></details>",
        "<details><summary>0/0 rules</summary><ul>"
        + "".join(f"<li>{esc(s)}</li>" for s in rule_lines(d))
        + "</ul></details>",
        "<p>Notes:</p><ul>" + "".join(f"<li>{esc(s)}</li>" for s in d["notes"]) + "</ul>",
    ]
    if d["warnings"]:
        parts.append("<p>Warnings:</p><ul>" + "".join(f"<li>{esc(s)}</li>" for s in d["warnings"]) + "</ul>")
    parts.append("</div>")
    return "".join(parts)
