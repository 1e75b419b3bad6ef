"""Where the tests over data sets cannot answer: the smallest p-value each test can reach with N data sets.

Wilcoxon's signed-rank test on N data sets cannot give a two-sided p below ``2/2^N`` (every data set
favouring the same model); Holm's correction over m comparisons multiplies the smallest p by m. With
few data sets no pair can then be declared different at α, whatever the scores: a non-significant
result says nothing about the models. Friedman's χ² and Iman & Davenport's F can also disagree near
α; Demšar (2006, §3.2.2) recommends F. This module says both in words.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from apples._kernels.comparison import friedman_min_p, nemenyi_min_p, wilcoxon_min_p
from apples._params import Instance, Integer, Nullable, Real, declare
from apples.comparison._render import LATEX_LABEL, fmt, fmt_p, html_text, latex_text, latex_words, p_eq

__all__ = [
    "Attainability",
    "attainable_p_values",
]

_ALPHA = Real(0.0, 1.0, low_inclusive=False, high_inclusive=False)

#: The references of the guidance, as a methods section cites them.
DEMSAR = "Demšar (2006), JMLR 7, 1–30"


def data_sets_needed(n_comparisons: int, alpha: float, most: int = 10_000) -> int:
    """The smallest N whose smallest Holm-adjusted Wilcoxon p, ``m·2/2^N``, is at most α."""
    for n in range(1, most + 1):
        if n_comparisons * wilcoxon_min_p(n) <= alpha:
            return n
    return most  # pragma: no cover - α below 10_000 data sets' reach is refused by its kind


def holm_sentence(n: int, m: int, alpha: float, what: str) -> str:
    """One sentence on whether Holm over ``m`` Wilcoxon tests on ``n`` data sets (``what``) can reach α."""
    p = wilcoxon_min_p(n)
    adjusted = min(1.0, m * p)
    head = (
        f"Holm over {what}: the smallest adjusted p is {m} × {fmt(p, 4)} = {fmt(adjusted, 3)}"
        if m > 1
        else f"One Wilcoxon test ({what}): the smallest p is {fmt(p, 4)}"
    )
    if adjusted <= alpha:
        return f"{head} ≤ α = {alpha:g}: reachable, but only if nearly every data set favours the same model."
    need = data_sets_needed(m, alpha)
    return (
        f"{head} > α = {alpha:g}: with {n} data sets no comparison can be significant at α = {alpha:g}, "
        f"whatever the scores (at least {need} data sets are needed). A non-significant result here is no "
        "evidence that the models perform alike: report the average ranks and the differences, or a Bayesian "
        "signed-rank test (bayesian_signed_rank; Benavoli et al. 2017, JMLR 18(77), §4)."
    )


def friedman_advice(p_chi2: float, p_f: float, alpha: float, k: int = 0, n: int = 0) -> str:
    """Which of Friedman's χ²_F and Iman & Davenport's F_F to report, and what their disagreement means.

    With k models and n data sets given, and few of them (n ≤ 10 or k ≤ 5), it adds Demšar's caveat that
    both p-values come from approximate distributions (§3.2.2: "N > 10 and k > 5" as a rule of thumb).
    """
    lead = (
        f"Report Iman & Davenport's F_F ({p_eq(p_f)}): {DEMSAR}, §3.2.2, recommends it over Friedman's "
        f"χ²_F ({p_eq(p_chi2)}), which is undesirably conservative."
    )
    small = (
        f" With {n} data sets and {k} models both p-values are approximations (Demšar's rule of thumb for "
        "χ²_F: N > 10 and k > 5); exact critical values are tabulated (Zar 1998; Sheskin 2000)."
        if k and n and (n <= 10 or k <= 5)
        else ""
    )
    if math.isnan(p_chi2) or math.isnan(p_f):
        return lead + small
    if (p_chi2 <= alpha) == (p_f <= alpha):
        verdict = "both reject" if p_f <= alpha else "neither rejects"
        return f"{lead} At α = {alpha:g} {verdict} the hypothesis that all models rank alike.{small}"
    return (
        f"{lead} At α = {alpha:g} they disagree: F_F rejects the hypothesis that all models rank alike and χ²_F "
        "does not. The disagreement is χ²_F's conservatism (its χ² approximation), not evidence either way: "
        f"report F_F and say that χ²_F does not reach α.{small}"
    )


class Attainability(NamedTuple):
    """The smallest p-value each test over data sets can reach with k models and N data sets, and what it means.

    Attributes
    ----------
    n_models, n_datasets : int
        k and N.
    alpha : float
        The level the sentences compare with.
    friedman : float
        Friedman's χ²_F at its maximum N(k − 1) (every data set ranks the models alike); NaN for k = 2.
    iman_davenport : float
        0: F_F is infinite when every data set ranks the models alike; NaN for k = 2 or N = 1 (no df).
    nemenyi : float
        The pair ranked first and last on every data set (average ranks k − 1 apart).
    wilcoxon : float
        One signed-rank test on N non-zero differences: ``2/2^N`` (exact, two-sided, no ties).
    holm_control : float
        Holm over the k − 1 comparisons of one model (a control, or the best) with the others.
    holm_all_pairs : float
        Holm over all k(k − 1)/2 pairs, as :func:`wilcoxon_holm` adjusts.
    """

    n_models: int
    n_datasets: int
    alpha: float
    friedman: float
    iman_davenport: float
    nemenyi: float
    wilcoxon: float
    holm_control: float
    holm_all_pairs: float

    def sentences(self) -> list[str]:
        """The guidance in words, one sentence per test."""
        k, n, a = self.n_models, self.n_datasets, self.alpha
        out = [
            f"With N = {n} data sets the smallest two-sided p of Wilcoxon's signed-rank test is 2/2^{n} = "
            f"{fmt(self.wilcoxon, 4)} (every data set favouring the same model; exact null distribution, "
            "zero differences dropped, which lowers N)."
        ]
        if k > 2:
            out.append(holm_sentence(n, k - 1, a, f"the {k - 1} comparisons of one model with the others"))
            out.append(holm_sentence(n, k * (k - 1) // 2, a, f"all {k * (k - 1) // 2} pairs"))
            out.append(
                f"Friedman's χ²_F can reach {p_eq(self.friedman)} and Iman & Davenport's F_F p = 0 (every data "
                f"set ranking the models alike); Nemenyi's test {p_eq(self.nemenyi)} for a pair ranked first "
                "and last everywhere."
            )
        else:
            out.append(holm_sentence(n, 1, a, "two models"))
        return out

    def __str__(self) -> str:
        title = f"Attainable p-values with {self.n_models} models and {self.n_datasets} data sets (α = {self.alpha:g})"
        return "\n".join([title, *(f"- {s}" for s in self.sentences())])

    def _rows(self) -> list[tuple[str, float]]:
        k = self.n_models
        rows = [("Wilcoxon signed-rank, one pair", self.wilcoxon)]
        rows.append((f"Wilcoxon, Holm over {k - 1} comparisons with one model", self.holm_control))
        if k > 2:
            rows.append((f"Wilcoxon, Holm over all {k * (k - 1) // 2} pairs", self.holm_all_pairs))
            rows += [
                ("Friedman χ²_F", self.friedman),
                ("Iman–Davenport F_F", self.iman_davenport),
                ("Nemenyi, one pair", self.nemenyi),
            ]
        return rows

    def _repr_html_(self) -> str:
        head = f"Attainable p-values with {self.n_models} models and {self.n_datasets} data sets"
        body = "".join(
            f"<tr><td>{html_text(name)}</td><td style='text-align:right'>{fmt_p(p)}</td>"
            f"<td>{'yes' if p <= self.alpha else 'no'}</td></tr>"
            for name, p in self._rows()
        )
        notes = "".join(f"<li>{html_text(s)}</li>" for s in self.sentences())
        return (
            f"<p><b>{html_text(head)}</b></p><table><tr><th>test</th><th>smallest p</th>"
            f"<th>≤ α = {self.alpha:g}</th></tr>{body}</table><ul>{notes}</ul>"
        )

    @declare(caption=Nullable(Instance(str, hint="the table's caption")), label=Nullable(LATEX_LABEL))
    def to_latex(self, *, caption: str | None = None, label: str | None = None) -> str:
        """A booktabs table of the smallest attainable p of each test; ``caption`` replaces the default."""
        return latex_table(
            ["Test", "Smallest attainable $p$", rf"$\le \alpha = {self.alpha:g}$"],
            "lrl",
            [[latex_words(n), latex_text(fmt_p(p)), "yes" if p <= self.alpha else "no"] for n, p in self._rows()],
            latex_text(caption)
            if caption is not None
            else f"Smallest attainable $p$-values with {self.n_models} models and {self.n_datasets} data sets.",
            label,
            [latex_words(s) for s in self.sentences()],
        )


def latex_table(
    header: list[str], spec: str, rows: list[list[str]], caption: str, label: str | None, notes: list[str]
) -> str:
    """A booktabs ``table``: ``header``, ``rows``, ``caption`` and ``notes`` already LaTeX; the notes below it."""
    out = [
        r"\begin{table}[htbp]",
        r"\centering",
        r"\caption{" + caption + "}",
        *([r"\label{" + label + "}"] if label else []),
        r"\begin{tabular}{" + spec + "}",
        r"\toprule",
        " & ".join(header) + r" \\",
        r"\midrule",
        *(" & ".join(r) + r" \\" for r in rows),
        r"\bottomrule",
        r"\end{tabular}",
    ]
    if notes:
        out += [r"\par\smallskip", r"{\footnotesize " + r" \\ ".join(notes) + "}"]
    out.append(r"\end{table}")
    return "\n".join(out)


@declare(n_models=Integer(2, 10_000), n_datasets=Integer(1, 10_000), alpha=_ALPHA)
def attainable_p_values(n_models: int, n_datasets: int, *, alpha: float = 0.05) -> Attainability:
    """The smallest p-value each test over data sets can reach with k models and N data sets (Demšar 2006).

    A test that cannot reach α with the data sets at hand cannot find a difference, whatever the
    scores: say so instead of "no significant difference". Wilcoxon's signed-rank test on N data sets
    reaches at best ``2/2^N`` (two-sided, exact; every data set favouring one model); Holm over m
    comparisons then at best ``m·2/2^N``. With 4 models and 7 data sets: 2/2^7 = 0.0156; Holm over the
    3 comparisons with one model 0.047 (≤ 0.05), over all 6 pairs 0.094 (> 0.05: no pair can be
    declared different at 0.05 by :func:`wilcoxon_holm`).

    Parameters
    ----------
    n_models : int
        k ≥ 2.
    n_datasets : int
        N ≥ 1 (zero differences are dropped by the signed-rank test: a pair's N can be smaller).
    alpha : float, default 0.05
        The level the sentences compare with.

    Returns
    -------
    Attainability
        The smallest p of each test, ``sentences()`` in words, ``str()``, HTML and ``to_latex()``.

    References
    ----------
    Demšar, J. (2006). JMLR 7, 1–30, §3.1.3 (Wilcoxon), §3.2.2 (Friedman, Iman–Davenport, Nemenyi,
    Holm). Wilcoxon, F. (1945). Biometrics Bulletin 1, 80–83. Holm, S. (1979). Scand. J. Statist. 6,
    65–70.

    Examples
    --------
    >>> from apples.comparison import attainable_p_values
    >>> a = attainable_p_values(4, 7)
    >>> a.wilcoxon, a.holm_control, round(a.holm_all_pairs, 4)
    (0.015625, 0.046875, 0.0938)
    """
    return attainability(n_models, n_datasets, alpha)


def attainability(k: int, n: int, alpha: float) -> Attainability:
    """:func:`attainable_p_values` on checked arguments (the results table calls it)."""
    w = wilcoxon_min_p(n)
    nan = float("nan")
    return Attainability(
        k,
        n,
        alpha,
        friedman_min_p(k, n) if k > 2 else nan,
        0.0 if k > 2 and n > 1 else nan,
        nemenyi_min_p(k, n),
        w,
        min(1.0, (k - 1) * w),
        min(1.0, k * (k - 1) // 2 * w),
    )
