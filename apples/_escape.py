"""LaTeX's special characters in text mode, one table for every rendering of user text.

A report (:mod:`apples.reporting._latex`), a comparison (:mod:`apples.comparison._render`) and the command line's
comparison table escape labels, names and fold ids with it; each adds only what its own tables need.
"""

from __future__ import annotations

__all__: list[str] = []  # private

#: Each special character and what prints it as itself; the minus sign U+2212 as an ASCII hyphen (pdfLaTeX's
#: default input encoding has no glyph for it).
LATEX_SPECIAL = {
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
    "\u2212": "-",
}
