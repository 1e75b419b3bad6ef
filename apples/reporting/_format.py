"""Rendering a :class:`apples.CVReport` dict: tidy rows, aligned text, HTML and Markdown.

Every format is built from :func:`report_rows`, one row per (quantity, average,
aggregation), so the text, the HTML table, the Markdown table, the LaTeX table and
``CVReport.to_frame()`` always show the same numbers. Rates print as percentages
with one decimal, the log loss and the Brier score as decimals; an undefined value
prints as ``undefined``. The header states the cases, folds (per repeat) and repeats,
what is known of how the folds were made (stratification, seed) and the undefined-fold
policy; a row whose value counted an undefined fold (or label) as 0 carries a mark
(:data:`ZERO_MARK`) and the legend says so, and a legend line appears only for a mark
that some row has. With many folds or repeats the Folds section is a summary (per
repeat: the sizes' range, the folds with undefined values by id).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable
from typing import Any

from apples.cv.aggregations import AGGREGATION_NAMES, F_AGGREGATIONS, QUANTITY_NAMES
from apples.reporting._guidance import undefined_policy
from apples.reporting._values import SCORING_RULES, SECTIONS

__all__ = [
    "RECOMMENDED_MARK",
    "ZERO_MARK",
    "aggregation_name",
    "average_name",
    "fmt_value",
    "fold_lines",
    "header_lines",
    "interval_notes",
    "interval_text",
    "legend_lines",
    "quantity_name",
    "render_html",
    "render_markdown",
    "render_text",
    "report_rows",
]

_MULTI = ("precision", "recall", "f_of_averages", "mean_f")
#: The mark of a recommended row (what the papers support), and of a row that counted an undefined fold as 0.
RECOMMENDED_MARK, ZERO_MARK = "*", "\u2020"
#: More folds than this (or any repeats): the Folds section is a summary, not one line per fold.
_FOLD_LINES = 12
#: At most this many repeats get a line of their own in the Folds section.
_REPEAT_LINES = 20
_NAMES = {
    **QUANTITY_NAMES,
    "log_loss": "log loss",
    "brier_score": "Brier score",
    "subset_accuracy": "subset accuracy",
    "hamming_loss": "Hamming loss",
}
_AVERAGE_NAMES = {"macro": "macro", "micro": "micro", "lfb_test": "lfb (test freq.)", "lfb_train": "lfb (train freq.)"}


def quantity_name(d: dict, quantity: str) -> str:
    """How a quantity prints: ``F-measure`` (``F2-measure`` with beta 2), ``ROC AUC``, ``log loss``, ..."""
    if quantity == "f_measure" and d.get("beta", 1.0) != 1.0:
        return f"F{d['beta']:g}-measure"
    return _NAMES.get(quantity, quantity)


def aggregation_name(aggregation: str, quantity: str = "") -> str:
    """How an aggregation of ``quantity`` prints: the F symbols with their meaning, pooled, averaged, merged."""
    if quantity == "f_measure" and aggregation in F_AGGREGATIONS:
        a = F_AGGREGATIONS[aggregation]
        return f"{a.symbol} ({a.name})"
    return AGGREGATION_NAMES.get(aggregation, aggregation)


def average_name(average: str) -> str:
    """How a multi-class average prints."""
    return _AVERAGE_NAMES.get(average, average)


def fmt_value(quantity: str, v: float | None, percent_sign: str = "%") -> str:
    """A value as printed: a rate in percent with one decimal, a scoring rule with four decimals."""
    if v is None:
        return "undefined"
    return f"{v:.4f}" if quantity in SCORING_RULES else f"{100 * v:.1f}{percent_sign}"


def _fmt_spread(quantity: str, v: float | None) -> str:
    if v is None:
        return ""
    return f"{v:.4f}" if quantity in SCORING_RULES else f"{100 * v:.1f}"


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


def _undefined_quantities(d: dict) -> set[str]:
    return {u["quantity"] for f in d["folds"] for u in f["undefined"]}


def _substituted(d: dict, undefined: set[str], quantity: str, average: str, aggregation: str) -> bool:
    """Whether the value counted an undefined fold (or label) as 0, under the report's policy (``undefined``:
    the quantities undefined in some fold)."""
    if d["task"] == "binary":
        if quantity == "f_measure":
            return aggregation in ("avg", "pr_re") and bool({"precision", "recall"} & undefined)
        if quantity in ("precision", "recall"):
            return aggregation == "avg" and quantity in undefined
        return False
    if quantity not in _MULTI or average == "micro":
        return False
    if aggregation == "avg":
        return bool({"precision", "recall"} & undefined)
    rows = d["per_label"]
    if average == "lfb_test":  # a label with no test cases weighs 0
        rows = [r for r in rows if r["support"] > 0]
    return any(r["tp"] + r["fp"] == 0 or r["support"] == 0 for r in rows)


def report_rows(d: dict) -> list[dict[str, Any]]:
    """One dict per reported value: quantity, average ('' for binary), aggregation, value, std, recommended,
    substituted (an undefined fold or label counted as 0), and the interval's low, high, method and the
    reason of a ``null`` or zero-width interval (None without intervals)."""
    std = d.get("repeats", {}).get("std")
    undefined = _undefined_quantities(d)
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
                "substituted": _substituted(d, undefined, quantity, average, aggregation),
                "low": ci["low"],
                "high": ci["high"],
                "interval": ci["method"],
                "reason": ci.get("reason"),
            }
        )

    if d["task"] == "binary":
        for q in SECTIONS["binary"]:
            if q not in d:  # not computed: no y_pred, or no y_score
                continue
            for agg, v in d[q].items():
                add(q, "", agg, v, None if std is None else std[q][agg])
    else:
        for q in _MULTI:
            for avg, aggs in d[q].items():
                for agg, v in aggs.items():
                    add(q, avg, agg, v, None if std is None else std[q][avg][agg])
        for q in ("subset_accuracy", "hamming_loss") if d["task"] == "multilabel" else ("accuracy",):
            for agg, v in d[q].items():
                add(q, "", agg, v, None if std is None else std[q][agg])
        for agg, v in d.get("roc_auc", {}).get("macro_ovr", {}).items():
            add("roc_auc", "macro_ovr", agg, v, None if std is None else std["roc_auc"]["macro_ovr"][agg])
    return rows


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


def _ids(values: Iterable[object], user: Callable[[str], str], most: int = 10) -> str:
    """Fold or repeat ids as a short list of words: ``0, 3, 7`` (``...`` and the count past ``most``)."""
    values = list(values)
    shown = ", ".join(user(str(v)) for v in values[:most])
    return shown + (f", ... ({len(values)} in all)" if len(values) > most else "")


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def _range(values: list[int]) -> str:
    low, high = min(values), max(values)
    return f"{low:,}" if low == high else f"{low:,}-{high:,}"


def _repeats(d: dict) -> list[tuple[object, list[dict]]]:
    """The folds of each repeat, in report order: ``[(repeat id or None, folds)]``."""
    if "repeats" not in d:
        return [(None, d["folds"])]
    groups: dict[Any, list[dict]] = {}
    for f in d["folds"]:
        groups.setdefault(f["repeat"], []).append(f)
    return [(r, groups.get(r, [])) for r in d["repeats"]["ids"]] if groups else []


def header_lines(d: dict, user: Callable[[str], str] = _plain) -> list[str]:
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
    if d.get("beta", 1.0) != 1.0:
        lines[-1] += f" F-measures are F_beta with beta = {d['beta']:g}."
    if "sample_weight" in d:  # weighted values (apples.report's Notes)
        sw = d["sample_weight"]
        lines.append(
            f"Values weighted by sample_weight (total weight {sw['total']:g}, {sw['n_zero']:,} rows of weight 0)."
        )
    policy = undefined_policy(d)
    if policy:
        lines.append(f"Undefined folds: {policy}.")
    return lines


def _ci_header(d: dict) -> str:
    return f"{100 * d['intervals']['confidence']:g}% interval"


def _right(d: dict) -> set[str]:
    """The right-aligned (numeric) columns."""
    return {"value", "std"} | ({_ci_header(d)} if "intervals" in d else set())


def interval_text(r: dict[str, Any], percent_sign: str = "%", to: str = " to ") -> str:
    """A row's interval as printed: ``63.8 to 84.5%``, ``none`` (no interval in apples) or ``undefined``."""
    if r["low"] is None:
        return "none" if r["interval"] in ("none", None) else "undefined"
    if r["quantity"] in SCORING_RULES:
        return f"{r['low']:.4f}{to}{r['high']:.4f}"
    return f"{100 * r['low']:.1f}{to}{100 * r['high']:.1f}{percent_sign}"


def _marks(r: dict[str, Any]) -> str:
    return (" " + RECOMMENDED_MARK if r["recommended"] else "") + (" " + ZERO_MARK if r["substituted"] else "")


def legend_lines(rows: list[dict[str, Any]]) -> list[str]:
    """The legend of the marks some row carries (never a mark no row has)."""
    out = []
    if any(r["recommended"] for r in rows):
        out.append(f"{RECOMMENDED_MARK} what the papers support")
    if any(r["substituted"] for r in rows):
        out.append(f"{ZERO_MARK} an undefined fold (or label) counted as 0, as the undefined-fold policy says")
    return out


def _table(d: dict, rows: list[dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    repeated = "repeats" in d
    header = ["quantity", "average", "aggregation", "value"] + (["std"] if repeated else [])
    if "intervals" in d:
        header += [_ci_header(d), "method"]
    if d["task"] == "binary":
        header.remove("average")
    body = []
    for r in rows:
        row = [quantity_name(d, r["quantity"])]
        if d["task"] != "binary":
            row.append(average_name(r["average"]))
        row += [aggregation_name(r["aggregation"], r["quantity"]) + _marks(r), fmt_value(r["quantity"], r["value"])]
        if repeated:
            row.append(_fmt_spread(r["quantity"], r["std"]))
        if "intervals" in d:
            row.append(interval_text(r))
            row.append(r["interval"] or "")
        body.append(row)
    return header, body


def interval_notes(d: dict, rows: list[dict[str, Any]]) -> list[str]:
    """Why an interval is ``null`` or has width 0, one line per row that needs it."""
    if "intervals" not in d:
        return []
    by_reason: dict[str, list[str]] = {}
    for r in rows:
        if r["reason"] and r["interval"] not in (None, "none"):
            average = f" ({average_name(r['average'])})" if r["average"] else ""
            name = f"{quantity_name(d, r['quantity'])}{average} {aggregation_name(r['aggregation'], r['quantity'])}"
            by_reason.setdefault(r["reason"], []).append(name)
    return [f"{'; '.join(names)}: {reason}" for reason, names in by_reason.items()]


def _undefined_words(u: dict, user: Callable[[str], str]) -> str:
    label = f" of {user(str(u['label']))}" if "label" in u else ""
    return f"{quantity_name({}, u['quantity'])}{label} undefined ({u['reason']})"


def fold_lines(d: dict, user: Callable[[str], str] = _plain) -> list[str]:
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
                absent = ", ".join(user(str(lab)) for lab in f["absent_labels"])
                size = f"n = {f['n']}" + (f", absent labels {absent}" if f["absent_labels"] else "")
            und = "; ".join(_undefined_words(u, user) for u in f["undefined"])
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
            for name in dict.fromkeys(quantity_name({}, u["quantity"]) for u in f["undefined"]):
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


def render_text(d: dict) -> str:
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
    notes = interval_notes(d, rows)
    if notes:
        out += ["", "Intervals:"] + [f"  {s}" for s in notes]
    out += ["", "Folds:"] + [f"  {s}" for s in fold_lines(d)]
    out += ["", "Notes:"] + [f"  - {s}" for s in d["notes"]]
    if d["warnings"]:
        out += ["", "Warnings:"] + [f"  ! {s}" for s in d["warnings"]]
    return "\n".join(out)


def render_markdown(d: dict) -> str:
    """The report as Markdown: a title, a pipe table, then folds, notes and warnings as lists.

    User text (labels, fold and repeat ids) is escaped so that it stays text in any viewer
    (:func:`_markdown_user`); the rest is HTML-escaped, and ``|`` escaped inside the table.
    """
    rows = report_rows(d)
    header, body = _table(d, rows)

    def cell(s: str) -> str:
        return html.escape(s, quote=False).replace("|", "\\|").replace("*", "\\*")

    def text(s: str) -> str:
        return html.escape(s, quote=False)

    right = _right(d)
    title, *more = header_lines(d, _markdown_user)
    out = [f"**{title}**", "", *[f"{text(m)}  " for m in more], ""]
    out += [
        "| " + " | ".join(cell(h) for h in header) + " |",
        "|" + "|".join("---:" if h in right else ":---" for h in header) + "|",
    ]
    out += ["| " + " | ".join(cell(c) for c in r) + " |" for r in body]
    legend = legend_lines(rows)
    if legend:
        out += [""] + [cell(s) + "  " for s in legend]
    notes = interval_notes(d, rows)
    if notes:
        out += ["", "Intervals:", ""] + [f"- {text(s)}" for s in notes]
    out += ["", "Folds:", ""] + [f"- {s}" for s in fold_lines(d, _markdown_user)]
    out += ["", "Notes:", ""] + [f"- {text(s)}" for s in d["notes"]]
    if d["warnings"]:
        out += ["", "Warnings:", ""] + [f"- {text(s)}" for s in d["warnings"]]
    return "\n".join(out)


def render_html(d: dict) -> str:
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
    notes = interval_notes(d, rows_)
    if notes:
        parts.append("<p>Intervals:</p><ul>" + "".join(f"<li>{esc(s)}</li>" for s in notes) + "</ul>")
    parts += [
        "<details><summary>Folds</summary><ul>"
        + "".join(f"<li>{esc(s)}</li>" for s in fold_lines(d))
        + "</ul></details>",
        "<p>Notes:</p><ul>" + "".join(f"<li>{esc(s)}</li>" for s in d["notes"]) + "</ul>",
    ]
    if d["warnings"]:
        parts.append("<p>Warnings:</p><ul>" + "".join(f"<li>{esc(s)}</li>" for s in d["warnings"]) + "</ul>")
    parts.append("</div>")
    return "".join(parts)
