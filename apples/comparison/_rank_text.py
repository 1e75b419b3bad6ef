"""The tests over data sets read aloud: Friedman, Nemenyi and Wilcoxon–Holm results as text, HTML and LaTeX.

Each result's ``__str__``, ``_repr_html_`` and ``to_latex`` call one function here; names of models
are escaped for each format (:mod:`apples.comparison._render`), our words carry the references.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from apples.comparison._render import fmt, fmt_p, html_text, latex_text, latex_words, plain_text
from apples.comparison.guidance import friedman_advice, holm_sentence, latex_table

if TYPE_CHECKING:
    import pandas as pd

    from apples.comparison.ranks import FriedmanResult, NemenyiResult, WilcoxonHolmResult

__all__: list[str] = []  # private: the result types' renderings

DEMSAR = "Demšar 2006, JMLR 7, §3.2.2"


def _ranks_words(ranks: pd.Series) -> str:
    order = ranks.sort_values(kind="stable")
    return ", ".join(f"{plain_text(m)} {fmt(float(r), 2)}" for m, r in order.items())


def _html(title: str, header: list[str], rows: list[list[str]], notes: list[str]) -> str:
    """An HTML fragment: a bold title, a table (cells already HTML), the notes as paragraphs (plain text)."""
    head = "".join(f"<th>{h}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    paras = "".join(f"<p>{html_text(n)}</p>" for n in notes)
    return f"<p><b>{html_text(title)}</b></p><table><tr>{head}</tr>{body}</table>{paras}"


def _aligned(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[j]) for r in rows) for j in range(len(rows[0]))]
    return [
        "  " + "  ".join(c.ljust(w) if j == 0 else c.rjust(w) for j, (c, w) in enumerate(zip(r, widths, strict=True)))
        for r in rows
    ]


# -- Friedman -------------------------------------------------------------------------------------------------
def _friedman_title(r: FriedmanResult) -> str:
    return f"Friedman test: {r.n_models} models over {r.n_datasets} data sets ({DEMSAR})"


def _friedman_rows(r: FriedmanResult) -> list[list[str]]:
    return [
        ["Friedman χ²_F", fmt(r.statistic, 3), str(r.df1), fmt_p(r.p_value)],
        ["Iman–Davenport F_F", fmt(r.f_statistic, 3), f"{r.df1}, {r.df2}", fmt_p(r.f_p_value)],
    ]


def _friedman_notes(r: FriedmanResult) -> list[str]:
    notes = [f"Average ranks (1 = best): {_ranks_words(r.average_ranks)}."]
    if math.isnan(r.statistic):
        notes.append("Every model scores the same on every data set: χ²_F and F_F are 0/0 (NaN).")
    else:
        notes.append(friedman_advice(r.p_value, r.f_p_value, r.alpha, r.n_models, r.n_datasets))
    return notes


def friedman_text(r: FriedmanResult) -> str:
    """Friedman's result in words, with the statistic to report."""
    rows = [["statistic", "value", "df", "p"], *_friedman_rows(r)]
    return "\n".join([_friedman_title(r), *_aligned(rows), *_friedman_notes(r)])


def friedman_html(r: FriedmanResult) -> str:
    """Friedman's result as an HTML fragment."""
    rows = [[html_text(c) for c in row] for row in _friedman_rows(r)]
    return _html(_friedman_title(r), ["statistic", "value", "df", "p"], rows, _friedman_notes(r))


def friedman_latex(r: FriedmanResult, caption: str | None, label: str | None) -> str:
    """Friedman's result as a booktabs table."""
    rows = [[latex_words(c) for c in row] for row in _friedman_rows(r)]
    cap = latex_text(caption) if caption is not None else latex_words(_friedman_title(r)) + "."
    return latex_table(
        ["Statistic", "Value", "df", "$p$"], "lrrr", rows, cap, label, [latex_words(n) for n in _friedman_notes(r)]
    )


# -- Nemenyi --------------------------------------------------------------------------------------------------
def _nemenyi_title(r: NemenyiResult) -> str:
    n = f" over {r.n_datasets} data sets" if r.n_datasets else ""
    return (
        f"Nemenyi test: {r.average_ranks.size} models{n}, CD = {fmt(r.critical_difference, 3)} at α = {r.alpha:g} "
        f"(q_α = {fmt(r.q_alpha, 3)}; {DEMSAR}, eq. 5)"
    )


def _pairs(index: pd.Index) -> list[tuple[int, int]]:
    return [(i, j) for i in range(len(index)) for j in range(i + 1, len(index))]


def _nemenyi_rows(r: NemenyiResult) -> list[list[str]]:
    ranks = r.average_ranks.to_numpy()
    rows = []
    p = r.p_values.to_numpy(dtype=float)
    for i, j in _pairs(r.average_ranks.index):
        gap = abs(float(ranks[i] - ranks[j]))
        rows.append(
            [
                f"{plain_text(r.average_ranks.index[i])} vs {plain_text(r.average_ranks.index[j])}",
                fmt(gap, 2),
                fmt_p(float(p[i, j])),
                "yes" if gap >= r.critical_difference else "no",
            ]
        )
    return rows


def _nemenyi_notes(r: NemenyiResult) -> list[str]:
    ranks = r.average_ranks.to_numpy()
    apart = sum(abs(ranks[i] - ranks[j]) >= r.critical_difference for i, j in _pairs(r.average_ranks.index))
    notes = [f"Average ranks (1 = best): {_ranks_words(r.average_ranks)}."]
    notes.append(
        f"{apart} pair(s) differ by at least the critical difference."
        if apart
        else "No two average ranks differ by the critical difference."
    )
    k = ranks.size
    if k - 1 < r.critical_difference:
        notes.append(
            f"The largest possible difference of average ranks is k − 1 = {k - 1} < CD: with these data sets "
            "Nemenyi's test cannot separate any pair, whatever the scores."
        )
    notes.append(
        "Nemenyi's verdict on two models depends on the other models compared (Benavoli, Corani & Mangili 2016, "
        "JMLR 17(5)); pairwise Wilcoxon tests with Holm's correction do not."
    )
    return notes


_NEMENYI_HEAD = ["pair", "|ΔR|", "p", "≥ CD"]


def nemenyi_text(r: NemenyiResult) -> str:
    """Nemenyi's result in words: the pairs at least one CD apart."""
    rows = [_NEMENYI_HEAD, *_nemenyi_rows(r)]
    return "\n".join([_nemenyi_title(r), *_aligned(rows), *_nemenyi_notes(r)])


def nemenyi_html(r: NemenyiResult) -> str:
    """Nemenyi's result as an HTML fragment."""
    rows = [[html_text(c) for c in row] for row in _nemenyi_rows(r)]
    return _html(_nemenyi_title(r), [html_text(h) for h in _NEMENYI_HEAD], rows, _nemenyi_notes(r))


def nemenyi_latex(r: NemenyiResult, caption: str | None, label: str | None) -> str:
    """Nemenyi's result as a booktabs table (names escaped)."""
    rows = []
    for (i, j), row in zip(_pairs(r.average_ranks.index), _nemenyi_rows(r), strict=True):
        pair = f"{latex_text(r.average_ranks.index[i])} vs {latex_text(r.average_ranks.index[j])}"
        rows.append([pair, row[1], latex_text(row[2]), row[3]])
    cap = latex_text(caption) if caption is not None else latex_words(_nemenyi_title(r)) + "."
    notes = [latex_words(n) for n in _nemenyi_notes(r)[1:]]
    notes.insert(0, "Average ranks (1 = best): " + _latex_ranks(r.average_ranks) + ".")
    return latex_table(["Pair", r"$|\Delta R|$", "$p$", r"$\ge$ CD"], "lrrl", rows, cap, label, notes)


def _latex_ranks(ranks: pd.Series) -> str:
    order = ranks.sort_values(kind="stable")
    return ", ".join(f"{latex_text(m)} {fmt(float(v), 2)}" for m, v in order.items())


# -- Wilcoxon–Holm --------------------------------------------------------------------------------------------
def _wilcoxon_title(r: WilcoxonHolmResult) -> str:
    k = r.average_ranks.size
    n = f" over {r.n_datasets} data sets" if r.n_datasets else ""
    return (
        f"Wilcoxon signed-rank tests{n}: {k * (k - 1) // 2} pairs of {k} models, Holm-adjusted, α = {r.alpha:g} "
        "(Demšar 2006 §3.1.3; Holm 1979)"
    )


def _wilcoxon_rows(r: WilcoxonHolmResult) -> list[list[str]]:
    rows = []
    p, holm = r.p_values.to_numpy(dtype=float), r.p_holm.to_numpy(dtype=float)
    nz = None if r.n_nonzero is None else r.n_nonzero.to_numpy(dtype=int)
    for i, j in _pairs(r.average_ranks.index):
        n = "" if nz is None else str(int(nz[i, j]))
        ph = float(holm[i, j])
        rows.append(
            [
                f"{plain_text(r.average_ranks.index[i])} vs {plain_text(r.average_ranks.index[j])}",
                n,
                fmt_p(float(p[i, j])),
                fmt_p(ph),
                "n/a" if math.isnan(ph) else ("yes" if ph < r.alpha else "no"),
            ]
        )
    return rows


def _wilcoxon_notes(r: WilcoxonHolmResult) -> list[str]:
    k = r.average_ranks.size
    m = k * (k - 1) // 2
    notes = [f"Average ranks (1 = best): {_ranks_words(r.average_ranks)}."]
    if r.n_datasets:
        notes.append(holm_sentence(r.n_datasets, m, r.alpha, f"all {m} pairs"))
    if r.n_nonzero is not None and r.n_datasets:
        fewer = int(np.sum(np.triu(r.n_nonzero.to_numpy() < r.n_datasets, 1)))
        if fewer:
            notes.append(
                f"{fewer} pair(s) tie on some data sets: the signed-rank test drops zero differences (Wilcoxon's "
                "treatment), so its N (column n) is smaller and its smallest attainable p larger."
            )
    return notes


_WILCOXON_HEAD = ["pair", "n", "p", "p (Holm)", "different"]


def wilcoxon_text(r: WilcoxonHolmResult) -> str:
    """The pairwise tests in words, with the smallest attainable p."""
    rows = [_WILCOXON_HEAD, *_wilcoxon_rows(r)]
    return "\n".join([_wilcoxon_title(r), *_aligned(rows), *_wilcoxon_notes(r)])


def wilcoxon_html(r: WilcoxonHolmResult) -> str:
    """The pairwise tests as an HTML fragment."""
    rows = [[html_text(c) for c in row] for row in _wilcoxon_rows(r)]
    return _html(_wilcoxon_title(r), _WILCOXON_HEAD, rows, _wilcoxon_notes(r))


def wilcoxon_latex(r: WilcoxonHolmResult, caption: str | None, label: str | None) -> str:
    """The pairwise tests as a booktabs table (names escaped)."""
    rows = []
    for (i, j), row in zip(_pairs(r.average_ranks.index), _wilcoxon_rows(r), strict=True):
        pair = f"{latex_text(r.average_ranks.index[i])} vs {latex_text(r.average_ranks.index[j])}"
        rows.append([pair, row[1], latex_text(row[2]), latex_text(row[3]), row[4]])
    cap = latex_text(caption) if caption is not None else latex_words(_wilcoxon_title(r)) + "."
    notes = [latex_words(n) for n in _wilcoxon_notes(r)[1:]]
    notes.insert(0, "Average ranks (1 = best): " + _latex_ranks(r.average_ranks) + ".")
    return latex_table(["Pair", "$n$", "$p$", r"$p_{\mathrm{Holm}}$", "Different"], "lrrrl", rows, cap, label, notes)
