"""A :class:`apples.CVReport` as a LaTeX table for a paper: booktabs rules, user text escaped.

The table has the rows of :func:`~apples.reporting._format.report_rows` (so the same numbers as
every other rendering), the header lines as its caption (cases, folds, repeats, stratification,
seed, the undefined-fold policy), and below it the legend of the marks some row carries. It needs
``\\usepackage{booktabs}`` in the preamble (``\\textdagger`` is in LaTeX's core).
"""

from __future__ import annotations

from apples.reporting._format import (
    RECOMMENDED_MARK,
    ZERO_MARK,
    aggregation_name,
    average_name,
    fmt_value,
    header_lines,
    interval_text,
    legend_lines,
    quantity_name,
    report_rows,
)

__all__ = [
    "latex_escape",
    "render_latex",
]

#: LaTeX's special characters and what prints each as itself (text mode).
_LATEX = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    ZERO_MARK: r"\textdagger{}",
}


def latex_escape(text: str) -> str:
    """``text`` as LaTeX that prints it literally (labels, fold ids, every word of the report).

    >>> latex_escape("50% of a_b & {c}")
    '50\\\\% of a\\\\_b \\\\& \\\\{c\\\\}'
    """
    return "".join(_LATEX.get(c, c) for c in text)


def _mark(recommended: bool, substituted: bool) -> str:
    marks = ([RECOMMENDED_MARK] if recommended else []) + ([r"\textdagger"] if substituted else [])
    return r"\textsuperscript{" + ",".join(marks) + "}" if marks else ""


def render_latex(d: dict, *, caption: str | None = None, label: str | None = None) -> str:
    """The report as a LaTeX ``table`` with a booktabs ``tabular``; ``caption`` replaces the header lines."""
    rows = report_rows(d)
    multi = d["task"] != "binary"
    repeated = "repeats" in d
    intervals = "intervals" in d
    columns = ["Quantity"] + (["Average"] if multi else []) + ["Aggregation", "Value"]
    columns += ["SD over repeats"] if repeated else []
    columns += [f"{100 * d['intervals']['confidence']:g}\\% interval", "Method"] if intervals else []
    spec = "l" + ("l" if multi else "") + "lr" + ("r" if repeated else "") + ("rl" if intervals else "")
    body = []
    for r in rows:
        cells = [latex_escape(quantity_name(d, r["quantity"]))]
        if multi:
            cells.append(latex_escape(average_name(r["average"])))
        cells += [
            latex_escape(aggregation_name(r["aggregation"], r["quantity"])) + _mark(r["recommended"], r["substituted"]),
            latex_escape(fmt_value(r["quantity"], r["value"])),
        ]
        if repeated:
            spread = r["std"]
            cells.append("" if spread is None else latex_escape(fmt_value(r["quantity"], spread, "")))
        if intervals:
            cells.append(latex_escape(interval_text(r, "", "--")))
            cells.append(latex_escape(r["interval"] or ""))
        body.append(" & ".join(cells) + r" \\")
    text = caption if caption is not None else " ".join(header_lines(d))
    legend = [latex_escape(line) for line in legend_lines(rows)]
    legend = [line.replace(latex_escape(RECOMMENDED_MARK), r"\textsuperscript{*}", 1) for line in legend]
    out = [
        r"\begin{table}[htbp]",
        r"\centering",
        r"\caption{" + latex_escape(text) + "}",
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
