"""Text in the comparison results' renderings: user text made inert in LaTeX, Markdown and HTML, numbers printed once.

Model and data set names are the user's: they may hold LaTeX's ``_ % & $ # { } \\ ~ ^``, Markdown's
``| * [ ]``, HTML's ``< > &`` and line breaks (a blank line ends a LaTeX paragraph, and with it a
``tabular``). Every rendering passes them through one function here; our own words are written for
each format where they are built.
"""

from __future__ import annotations

import html
import math
import re
import unicodedata

from apples._escape import LATEX_SPECIAL
from apples._kernels.rounding import half_up
from apples._params import Kind

__all__: list[str] = []  # private: the subpackage re-exports nothing from here

#: LaTeX's special characters in text mode and what prints each as itself.
_LATEX = {
    **LATEX_SPECIAL,
    "[": "{[}",  # a row that starts with [ after \\ or \midrule would be read as their optional argument
    "]": "{]}",
}
#: Characters with a meaning inside a Markdown line (GitHub's too: ``$`` opens math) that a name may hold.
_MARKDOWN_SPECIAL = frozenset("\\`*_[]|~$^")
_SPACES = re.compile(r"\s+")


def plain_text(text: object) -> str:
    """A name on one line: every run of whitespace (line breaks, tabs, blank lines) one space, control characters
    dropped, so that a name cannot break a row of a text table."""
    s = "".join(" " if unicodedata.category(c) == "Cc" else c for c in str(text))
    return _SPACES.sub(" ", s).strip()


def latex_text(text: object) -> str:
    r"""A name as LaTeX that prints it literally, on one line (a blank line would end the ``tabular``).

    >>> print(latex_text("50% of a_b & {c}\n\n~x^2 $#\\"))
    50\% of a\_b \& \{c\} \textasciitilde{}x\textasciicircum{}2 \$\#\textbackslash{}
    """
    return "".join(_LATEX.get(c, c) for c in plain_text(text))


def markdown_text(text: object) -> str:
    r"""A name made inert in Markdown: HTML-escaped, Markdown punctuation backslash-escaped, on one line.

    >>> print(markdown_text("a|b *c* <i>\n$x$ [l](u)"))
    a\|b \*c\* &lt;i&gt; \$x\$ \[l\](u)
    """
    escaped = html.escape(plain_text(text), quote=False)
    return "".join("\\" + c if c in _MARKDOWN_SPECIAL else c for c in escaped)


def html_text(text: object) -> str:
    """A name as HTML text (``<``, ``>``, ``&`` and quotes escaped), on one line."""
    return html.escape(plain_text(text), quote=True)


def fmt(value: float, digits: int) -> str:
    """A finite number with ``digits`` decimals, halves rounded up as the papers print; NaN as ``n/a``."""
    if not math.isfinite(value):
        return "n/a" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    text = str(half_up(value, digits=digits))
    return "0" + text[2:] if text.startswith("-0") and set(text[2:]) <= {".", "0"} else text


def fmt_p(p: float) -> str:
    """A p-value as papers print it: three decimals, ``< 0.001`` below; ``n/a`` for NaN."""
    if math.isnan(p):
        return "n/a"
    return "< 0.001" if p < 0.0005 else fmt(p, 3)


def p_eq(p: float, symbol: str = "p") -> str:
    """``p = 0.054``, ``p < 0.001`` or ``p n/a``: a p-value in a sentence."""
    text = fmt_p(p)
    return f"{symbol} {text}" if text.startswith("<") else f"{symbol} = {text}"


#: Our own words' symbols, once escaped, and the LaTeX that prints them without a Unicode font.
_LATEX_WORDS = (
    (r"χ²\_F", r"$\chi^2_F$"),
    (r"F\_F", r"$F_F$"),
    ("χ²", r"$\chi^2$"),
    ("α", r"$\alpha$"),
    ("ρ", r"$\rho$"),
    ("δ", r"$\delta$"),
    ("θ", r"$\theta$"),
    ("≤", r"$\le$"),
    ("≥", r"$\ge$"),
    ("×", r"$\times$"),
    ("±", r"$\pm$"),
    ("·", r"$\cdot$"),
    ("−", "$-$"),
    ("–", "--"),
    ("—", "---"),
    ("§", r"\S{}"),
    ("†", r"\textdagger{}"),
    ("Š", r"\v{S}"),
    ("š", r"\v{s}"),
    ("²", r"\textsuperscript{2}"),
)
_POWER = re.compile(r"(\d)\\textasciicircum\{\}(\d+)")


def latex_words(text: object) -> str:
    """Our sentences (which may quote a name) as LaTeX: escaped as :func:`latex_text`, then our symbols
    (χ², α, ≤, ×, −, 2^7, Demšar's š) written so that pdfLaTeX prints them without a Unicode font."""
    out = latex_text(text)
    for plain, tex in _LATEX_WORDS:
        out = out.replace(plain, tex)
    return _POWER.sub(lambda m: f"{m.group(1)}$^{{{m.group(2)}}}$", out)


class _LatexLabel(Kind):
    what = "a LaTeX label: letters, digits and : _ - . / + (no spaces nor LaTeX special characters)"

    def check(self, name: str, value: object) -> str:
        if not isinstance(value, str):
            raise TypeError(f"{name} must be {self.what}, got {type(value).__name__}")
        if not value or not re.fullmatch(r"[A-Za-z0-9:_\-./+]+", value):
            raise ValueError(f"{name} must be {self.what}, got {value!r}")
        return value


#: The kind of a ``label=`` of a LaTeX table (``\label{...}`` takes it as it is, so it is checked, not escaped).
LATEX_LABEL = _LatexLabel()
