"""A :class:`apples.CVReport` as a LaTeX table for a paper: booktabs rules, user text escaped.

The table has the rows of :func:`~apples.reporting._format.report_rows` (so the same numbers as
every other rendering), the header lines as its caption (cases, folds, repeats, stratification,
seed, weights), and below it the legend of the marks some row carries. It needs
``\\usepackage{booktabs}`` in the preamble (``\\textdagger`` is in LaTeX's core). Every word is
escaped; a line break in user text becomes a space (a blank line would end the caption's paragraph).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from apples._escape import LATEX_SPECIAL
from apples.reporting._format import (
    RECOMMENDED_MARK,
    ZERO_MARK,
    fmt_value,
    header_lines,
    interval_text,
    legend_lines,
    one_line,
    report_rows,
)

__all__ = [
    "latex_escape",
    "render_latex",
]

#: LaTeX's special characters and what prints each as itself (text mode).
_LATEX = {**LATEX_SPECIAL, ZERO_MARK: r"\textdagger{}"}


#: The paper's symbols of the F aggregations (Forman & Scholz §2.3), escaped, and as LaTeX math.
_SYMBOLS = (
    (r"F\textasciitilde{}\_avg", r"$\tilde{F}_{\mathrm{avg}}$"),
    (r"F\textasciitilde{}\_pr,re", r"$\tilde{F}_{\mathrm{pr,re}}$"),
    (r"F\_tp,fp", r"$F_{\mathrm{tp,fp}}$"),
    (r"F\_avg", r"$F_{\mathrm{avg}}$"),
    (r"F\_pr,re", r"$F_{\mathrm{pr,re}}$"),
)


def _math(escaped: str) -> str:
    """The F symbols of our own words (never of user text) typeset as the paper does."""
    for plain, math in _SYMBOLS:
        escaped = escaped.replace(plain, math)
    return escaped


def latex_escape(text: str) -> str:
    """``text`` as LaTeX that prints it literally, on one line (labels, fold ids, every word of the report).

    >>> latex_escape("50% of a_b & {c}")
    '50\\\\% of a\\\\_b \\\\& \\\\{c\\\\}'
    >>> latex_escape("a\\n\\n\\\\end{table}")
    'a \\\\textbackslash{}end\\\\{table\\\\}'
    """
    return "".join(_LATEX.get(c, c) for c in one_line(text))


def _mark(recommended: bool, substituted: bool) -> str:
    marks = ([RECOMMENDED_MARK] if recommended else []) + ([r"\textdagger"] if substituted else [])
    return r"\textsuperscript{" + ",".join(marks) + "}" if marks else ""


def _own_caption(d: Mapping[str, Any], lines: list[str], text: str) -> str:
    """The header as a caption: user text (the positive label) escaped, our F symbols typeset."""
    if d["task"] == "binary":  # the positive label is the user's: escape it, never typeset it
        marker = "positive label "
        head, _, _ = text.partition(marker)
        label = one_line(str(d["pos_label"]))
        rest = text[len(head) + len(marker) + len(label) :]
        return _math(latex_escape(head)) + marker + latex_escape(label) + _math(latex_escape(rest))
    return _math(latex_escape(text))


def render_latex(d: Mapping[str, Any], *, caption: str | None = None, label: str | None = None) -> str:
    """The report as a LaTeX ``table`` with a booktabs ``tabular``; ``caption`` replaces the header lines."""
    rows = report_rows(d)
    multi = d["task"] != "binary"
    repeated = "repeats" in d
    intervals = "confidence" in d
    columns = ["Quantity"] + (["Average"] if multi else []) + ["Aggregation", "Value"]
    columns += ["SD over repeats"] if repeated else []
    columns += [f"{100 * d['confidence']:g}\\% interval", "Method"] if intervals else []
    spec = "l" + ("l" if multi else "") + "lr" + ("r" if repeated else "") + ("rl" if intervals else "")
    body = []
    for r in rows:
        cells = [latex_escape(r["quantity_name"])]
        if multi:
            cells.append(latex_escape(r["average_name"]))
        cells += [
            _math(latex_escape(r["aggregation_name"])) + _mark(r["recommended"], r["substituted"]),
            latex_escape(fmt_value(r["meta"], r["value"], infinite=r["infinite"])),
        ]
        if repeated:
            spread = r["std"]
            cells.append("" if spread is None else latex_escape(fmt_value(r["meta"], spread, sign="")))
        if intervals:
            cells.append(latex_escape(interval_text(r, "", "--")))
            cells.append(latex_escape(r["interval"] or ""))
        body.append(" & ".join(cells) + r" \\")
    lines = header_lines(d)
    own = " ".join(line if line.endswith(".") else line + "." for line in lines)
    legend = [latex_escape(line) for line in legend_lines(rows)]
    legend = [line.replace(latex_escape(RECOMMENDED_MARK), r"\textsuperscript{*}", 1) for line in legend]
    out = [
        r"\begin{table}[htbp]",
        r"\centering",
        r"\caption{" + (latex_escape(caption) if caption is not None else _own_caption(d, lines, own)) + "}",
        *([r"\label{" + latex_escape(label) + "}"] if label else []),
        r"\begin{tabular}{" + spec + "}",
        r"\toprule",
        " & ".join(columns) + r" \\",
        r"\midrule",
        *body,
        r"\bottomrule",
        r"\end{tabular}",
    ]
    if legend:
        out += [r"\par\smallskip", r"{\footnotesize " + r"\\ ".join(legend) + "}"]
    out.append(r"\end{table}")
    return "\n".join(out)
