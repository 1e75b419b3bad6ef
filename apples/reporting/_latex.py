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
    """``text`` as LaTeX that prints it literally (labels, fold ids, every word of the report).

    >>> latex_escape("50% of a_b & {c}")
    '50\\\\% of a\\\\_b \\\\& \\\\{c\\\\}'
    """
    return "".join(_LATEX.get(c, c) for c in text)


def _mark(recommended: bool, substituted: bool) -> str:
    marks = ([RECOMMENDED_MARK] if recommended else []) + ([r"\textdagger"] if substituted else [])
    return r"\textsuperscript{" + ",".join(marks) + "}" if marks else ""


def _own_caption(d: dict, lines: list[str], text: str) -> str:
    """The header as a caption: user text (the positive label) escaped, our F symbols typeset."""
    first = lines[0]
    if d["task"] == "binary":  # the positive label is the user's: escape it, never typeset it
        head, label = first.split("positive label ", 1)[0], str(d["pos_label"])
        rest = text[len(head) + len("positive label ") + len(label) :]
        return _math(latex_escape(head)) + "positive label " + latex_escape(label) + _math(latex_escape(rest))
    return _math(latex_escape(text))


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
            _math(latex_escape(aggregation_name(r["aggregation"], r["quantity"])))
            + _mark(r["recommended"], r["substituted"]),
            latex_escape(fmt_value(r["quantity"], r["value"])),
        ]
        if repeated:
            spread = r["std"]
            cells.append("" if spread is None else latex_escape(fmt_value(r["quantity"], spread, "")))
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
