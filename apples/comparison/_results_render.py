"""The results table's views: aligned text, Markdown, HTML, LaTeX, a tidy frame and the methods paragraph.

Every view shows the same cells and the same notes (:func:`notes`); names are escaped for each
format by :mod:`apples.comparison._render`, the notes as a whole (they quote names).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from apples.comparison._render import (
    fmt,
    html_text,
    latex_text,
    latex_words,
    markdown_text,
    p_eq,
    plain_text,
)
from apples.comparison.guidance import friedman_advice, holm_sentence

if TYPE_CHECKING:
    import pandas as pd

    from apples.comparison.results import ResultsTable

__all__: list[str] = []  # private: ResultsTable's renderings

WORSE = "†"


class Cell:
    """One cell's printed parts: the value, its interval, whether it is the best, whether it is marked."""

    __slots__ = ("best", "interval", "value", "worse")

    def __init__(self, value: str, interval: str, best: bool, worse: bool) -> None:
        self.value, self.interval, self.best, self.worse = value, interval, best, worse


def _symmetric(t: ResultsTable) -> bool:
    """Whether every interval is symmetric at the printed digits (then ``± half-width``, else ``[low, high]``)."""
    if t.low is None or t.high is None:
        return False
    v, lo, hi = t.scores.to_numpy(), t.low.to_numpy(), t.high.to_numpy()
    has = ~np.isnan(lo)
    return all(
        fmt(float(h - x), t.digits) == fmt(float(x - low), t.digits)
        for x, low, h in zip(v[has], lo[has], hi[has], strict=True)
    )


def cells(t: ResultsTable) -> list[list[Cell]]:
    """The table's cells, data sets × models."""
    pm = _symmetric(t)
    out = []
    v = t.scores.to_numpy()
    lo = None if t.low is None else t.low.to_numpy()
    hi = None if t.high is None else t.high.to_numpy()
    best, worse = t.best.to_numpy(), t.worse.to_numpy()
    for i in range(v.shape[0]):
        row = []
        for j in range(v.shape[1]):
            interval = ""
            if lo is not None and hi is not None and not math.isnan(lo[i, j]):
                interval = (
                    f"± {fmt(float(hi[i, j] - v[i, j]), t.digits)}"
                    if pm
                    else f"[{fmt(float(lo[i, j]), t.digits)}, {fmt(float(hi[i, j]), t.digits)}]"
                )
            row.append(Cell(fmt(float(v[i, j]), t.digits), interval, bool(best[i, j]), bool(worse[i, j])))
        out.append(row)
    return out


def _title(t: ResultsTable) -> str:
    k, n = t.scores.shape[1], t.scores.shape[0]
    direction = "higher" if t.greater_is_better else "lower"
    return f"{plain_text(t.quantity)} of {k} models on {n} data set{'s' if n != 1 else ''} ({direction} is better)"


def _rank_cells(t: ResultsTable) -> list[tuple[str, bool]]:
    r = t.average_ranks.to_numpy()
    return [(fmt(float(x), 2), bool(x == r.min())) for x in r]


def notes(t: ResultsTable, best_word: str) -> list[str]:
    """The legend and the notes, plain text (each view escapes them whole)."""
    k, n = t.scores.shape[1], t.scores.shape[0]
    direction = "highest" if t.greater_is_better else "lowest"
    out = [f"{best_word}: the best value on its data set (the {direction}; ties: each of them)."]
    if t.interval:
        style = "value ± half-width" if _symmetric(t) else "value [low, high]"
        out.append(f"Intervals ({style}): {t.interval}; a cell without one shows its value alone.")
    out.append(t.marks_test + "." if t.marks_test else "No marks within data sets: no comparisons were given.")
    out += list(t.notes)
    out.append(
        f"Average rank: each model's mean rank over the {n} data set{'s' if n != 1 else ''} (1 = best, ties share "
        "the mean rank; "
        "Demšar 2006, §3.2.2)."
    )
    f = t.friedman
    if f is not None:
        if math.isnan(f.statistic):
            out.append("Every model scores the same on every data set: Friedman's χ²_F and F_F are 0/0.")
        else:
            out.append(
                f"Friedman χ²_F = {fmt(f.statistic, 3)} ({f.df1} df), {p_eq(f.p_value)}; Iman–Davenport F_F = "
                f"{fmt(f.f_statistic, 3)} ({f.df1} and {f.df2} df), {p_eq(f.f_p_value)}."
            )
            out.append(friedman_advice(f.p_value, f.f_p_value, t.alpha, f.n_models, f.n_datasets))
    elif n >= 2:
        out.append("Two models: Friedman's test needs three or more; the Wilcoxon signed-rank test compares the two.")
    else:
        out.append("One data set: no test across data sets applies.")
    if t.nemenyi is not None:
        r = t.nemenyi
        ranks = r.average_ranks.to_numpy()
        names = list(r.average_ranks.index)
        apart = [
            f"{plain_text(names[i])} vs {plain_text(names[j])}"
            for i in range(k)
            for j in range(i + 1, k)
            if abs(ranks[i] - ranks[j]) >= r.critical_difference
        ]
        out.append(
            f"Nemenyi: critical difference CD = {fmt(r.critical_difference, 3)} at α = {t.alpha:g} "
            f"(q_α = {fmt(r.q_alpha, 3)}); average ranks at least CD apart: {', '.join(apart) if apart else 'none'}."
        )
    if t.wilcoxon is not None:
        w = t.wilcoxon
        m = k * (k - 1) // 2
        names = list(w.average_ranks.index)
        holm, different = w.p_holm.to_numpy(dtype=float), w.different.to_numpy(dtype=bool)
        diff = [
            f"{plain_text(names[i])} vs {plain_text(names[j])} (p_Holm = {fmt(float(holm[i, j]), 3)})"
            for i in range(k)
            for j in range(i + 1, k)
            if different[i, j]
        ]
        what = f"all {m} pairs" if m > 1 else "the two models"
        out.append(
            f"Wilcoxon signed-rank tests over the data sets, Holm-adjusted over {what}: "
            + (f"different at α = {t.alpha:g}: {', '.join(diff)}." if diff else f"no pair differs at α = {t.alpha:g}.")
        )
        out.append(holm_sentence(n, m, t.alpha, what))
    return out


def _cell_text(c: Cell) -> str:
    marks = ("*" if c.best else "") + (WORSE if c.worse else "")
    return " ".join(x for x in (c.value, c.interval, marks) if x)


def render_text(t: ResultsTable) -> str:
    """Aligned text: ``*`` marks the best, ``†`` a model significantly worse than it."""
    header = ["data set", *(plain_text(m) for m in t.scores.columns)]
    rows = [header]
    for d, row in zip(t.scores.index, cells(t), strict=True):
        rows.append([plain_text(d), *(_cell_text(c) for c in row)])
    rows.append(["average rank", *(r for r, _ in _rank_cells(t))])
    widths = [max(len(r[j]) for r in rows) for j in range(len(header))]
    lines = [_title(t)]
    for r in rows:
        lines.append(
            "  ".join(c.ljust(w) if j == 0 else c.rjust(w) for j, (c, w) in enumerate(zip(r, widths, strict=True)))
        )
    return "\n".join([*lines, *(f"- {s}" for s in notes(t, "*"))])


def render_markdown(t: ResultsTable) -> str:
    """A pipe table (the best in bold), the notes as a list; names and notes escaped."""

    def cell(c: Cell) -> str:
        value = f"**{c.value}**" if c.best else c.value
        return " ".join(
            x for x in (value, c.interval.replace("[", "\\[").replace("]", "\\]"), WORSE if c.worse else "") if x
        )

    k = t.scores.shape[1]
    out = [f"**{markdown_text(_title(t))}**", ""]
    out.append("| data set | " + " | ".join(markdown_text(m) for m in t.scores.columns) + " |")
    out.append("|:---|" + "---:|" * k)
    for d, row in zip(t.scores.index, cells(t), strict=True):
        out.append(f"| {markdown_text(d)} | " + " | ".join(cell(c) for c in row) + " |")
    ranks = [f"**{r}**" if b else r for r, b in _rank_cells(t)]
    out.append("| average rank | " + " | ".join(ranks) + " |")
    out += ["", *(f"- {markdown_text(s)}" for s in notes(t, "Bold"))]
    return "\n".join(out)


def render_html(t: ResultsTable) -> str:
    """An HTML fragment for a notebook: the table (the best in bold), the notes as a list; everything escaped."""

    def cell(c: Cell) -> str:
        value = f"<b>{c.value}</b>" if c.best else c.value
        more = " ".join(x for x in (html_text(c.interval), WORSE if c.worse else "") if x)
        return f"<td style='text-align:right'>{value}{' ' + more if more else ''}</td>"

    head = "".join(f"<th>{html_text(m)}</th>" for m in t.scores.columns)
    body = "".join(
        f"<tr><td>{html_text(d)}</td>" + "".join(cell(c) for c in row) + "</tr>"
        for d, row in zip(t.scores.index, cells(t), strict=True)
    )
    ranks = "".join(f"<td style='text-align:right'>{'<b>' + r + '</b>' if b else r}</td>" for r, b in _rank_cells(t))
    body += f"<tr><td><i>average rank</i></td>{ranks}</tr>"
    items = "".join(f"<li>{html_text(s)}</li>" for s in notes(t, "Bold"))
    return f"<p><b>{html_text(_title(t))}</b></p><table><tr><th>data set</th>{head}</tr>{body}</table><ul>{items}</ul>"


def render_latex(t: ResultsTable, caption: str | None, label: str | None) -> str:
    """The table for a paper: booktabs, names escaped, one blank-free line per row, the notes below."""

    def cell(c: Cell) -> str:
        value = rf"\textbf{{{c.value}}}" if c.best else c.value
        interval = ""
        if c.interval:
            interval = " {\\scriptsize " + latex_words(c.interval) + "}"
        return value + interval + (r"$^{\dagger}$" if c.worse else "")

    k = t.scores.shape[1]
    head = "Data set & " + " & ".join(latex_text(m) for m in t.scores.columns) + r" \\"
    body = [
        latex_text(d) + " & " + " & ".join(cell(c) for c in row) + r" \\"
        for d, row in zip(t.scores.index, cells(t), strict=True)
    ]
    ranks = " & ".join(rf"\textbf{{{r}}}" if b else r for r, b in _rank_cells(t))
    cap = latex_text(caption) if caption is not None else latex_words(_title(t)) + "."
    out = [
        r"\begin{table}[htbp]",
        r"\centering",
        r"\caption{" + cap + "}",
        *([r"\label{" + label + "}"] if label else []),
        r"\begin{tabular}{l" + "r" * k + "}",
        r"\toprule",
        head,
        r"\midrule",
        *body,
        r"\midrule",
        "Average rank & " + ranks + r" \\",
        r"\bottomrule",
        r"\end{tabular}",
        r"\par\smallskip",
        r"{\footnotesize " + r" \\ ".join(latex_words(s) for s in notes(t, "Bold")) + "}",
        r"\end{table}",
    ]
    return "\n".join(out)


def tidy_frame(t: ResultsTable) -> pd.DataFrame:
    """One row per data set and model: value, interval, rank on the data set, best, Holm p against it, marked."""
    import pandas as pd
    from scipy.stats import rankdata

    v = t.scores.to_numpy()
    ranks = rankdata(-v if t.greater_is_better else v, axis=1)
    low = None if t.low is None else t.low.to_numpy(dtype=float)
    high = None if t.high is None else t.high.to_numpy(dtype=float)
    best, p_holm, worse = t.best.to_numpy(dtype=bool), t.p_holm.to_numpy(dtype=float), t.worse.to_numpy(dtype=bool)
    rows = []
    for i, d in enumerate(t.scores.index):
        for j, m in enumerate(t.scores.columns):
            rows.append(
                {
                    "dataset": d,
                    "model": m,
                    "value": float(v[i, j]),
                    "low": math.nan if low is None else float(low[i, j]),
                    "high": math.nan if high is None else float(high[i, j]),
                    "rank": float(ranks[i, j]),
                    "best": bool(best[i, j]),
                    "p_holm": float(p_holm[i, j]),
                    "worse": bool(worse[i, j]),
                }
            )
    return pd.DataFrame(rows, columns=["dataset", "model", "value", "low", "high", "rank", "best", "p_holm", "worse"])


REFERENCES = (
    "Benavoli, A., Corani, G., Demšar, J. & Zaffalon, M. (2017). Time for a change: a tutorial for comparing "
    "multiple classifiers through Bayesian analysis. JMLR 18(77), 1–36.",
    "Bouckaert, R. R. & Frank, E. (2004). Evaluating the replicability of significance tests for comparing "
    "learning algorithms. PAKDD, LNCS 3056, 3–12.",
    "Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets. JMLR 7, 1–30.",
    "Friedman, M. (1937). The use of ranks to avoid the assumption of normality implicit in the analysis of "
    "variance. JASA 32, 675–701.",
    "Friedman, M. (1940). A comparison of alternative tests of significance for the problem of m rankings. "
    "Annals of Mathematical Statistics 11, 86–92.",
    "Holm, S. (1979). A simple sequentially rejective multiple test procedure. Scandinavian Journal of "
    "Statistics 6, 65–70.",
    "Iman, R. L. & Davenport, J. M. (1980). Approximations of the critical region of the Friedman statistic. "
    "Communications in Statistics A 9, 571–595.",
    "Nadeau, C. & Bengio, Y. (2003). Inference for the generalization error. Machine Learning 52, 239–281.",
    "Nemenyi, P. B. (1963). Distribution-free multiple comparisons. PhD thesis, Princeton University.",
    "Wilcoxon, F. (1945). Individual comparisons by ranking methods. Biometrics Bulletin 1, 80–83.",
)


def methods_paragraph(t: ResultsTable) -> str:
    """A methods-section paragraph: which tests, which adjustment, what they can attain, and the references."""
    k, n = t.scores.shape[1], t.scores.shape[0]
    a = f"{t.alpha:g}"
    direction = "higher" if t.greater_is_better else "lower"
    s = [f"We compare k = {k} models on N = {n} data sets by their {plain_text(t.quantity)} ({direction} is better)."]
    if t.marks_test:
        s.append(
            "Within each data set, every model is compared with the data set's best by the corrected repeated k-fold "
            "t test (Nadeau & Bengio 2003; Bouckaert & Frank 2004) over the cross-validation folds, and the k − 1 "
            f"p-values of each data set are adjusted by Holm's step-down method (Holm 1979) at α = {a}; the best "
            "is chosen from the same results, so these are comparisons with a data-chosen control."
        )
    s.append(
        "Across data sets we follow Demšar (2006): the models are ranked on each data set (1 = best, ties sharing "
        "the mean rank) and compared by their average ranks."
    )
    if t.friedman is not None:
        f = t.friedman
        s.append(
            "Friedman's test (Friedman 1937, 1940) of equal average ranks is reported with Iman and Davenport's "
            "(1980) F statistic, which Demšar (2006, §3.2.2) recommends as less conservative than Friedman's χ² "
            f"(here χ²_F = {fmt(f.statistic, 2)}, {p_eq(f.p_value)}; F_F({f.df1}, {f.df2}) = {fmt(f.f_statistic, 2)}, "
            f"{p_eq(f.f_p_value)})."
        )
        s.append(
            "Pairs of models are compared by Nemenyi's critical difference (Nemenyi 1963) and by Wilcoxon "
            "signed-rank tests (Wilcoxon 1945) over the data sets with Holm's adjustment over all "
            f"{k * (k - 1) // 2} pairs, at α = {a}."
        )
    elif n >= 2:
        s.append(f"The two models are compared by a Wilcoxon signed-rank test (Wilcoxon 1945) at α = {a}.")
    if n >= 2:
        at = t.attainability
        m = k * (k - 1) // 2
        low = at.holm_all_pairs if k > 2 else at.wilcoxon
        s.append(
            f"With N = {n} data sets the smallest two-sided p-value a signed-rank test can attain is 2/2^{n} = "
            f"{fmt(at.wilcoxon, 4)}"
            + (f", and {fmt(low, 3)} after Holm's adjustment over {m} pairs" if k > 2 else "")
            + (
                f"; this is above α = {a}, so no pair can be declared different by this test with these data sets, "
                "whatever the scores."
                if low > t.alpha
                else "."
            )
        )
    s.append(
        "Where a test cannot decide, the Bayesian signed-rank test (Benavoli et al. 2017, §4) gives, for a pair of "
        "models, the posterior probabilities that one is practically better or that they are practically "
        "equivalent within a region of practical equivalence."
    )
    return " ".join(s) + "\n\nReferences:\n" + "\n".join(f"- {r}" for r in REFERENCES)
