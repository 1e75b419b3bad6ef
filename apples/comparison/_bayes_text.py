"""The Bayesian comparisons read aloud: the correlated t and the signed-rank test as text, HTML and LaTeX.

Benavoli et al. (2017, §3) decide when one of the three probabilities passes 0.95; the words here
say which, or that none does. Model names are escaped for each format.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from apples.comparison._render import fmt, html_text, latex_text, latex_words, plain_text
from apples.comparison.guidance import latex_table

if TYPE_CHECKING:
    from apples.comparison.bayes import BayesianComparison, BayesianSignedRank

__all__: list[str] = []  # private: the Bayesian results' renderings

#: The posterior probability above which Benavoli et al. (2017, §3) call a decision.
DECISION = 0.95
BENAVOLI = "Benavoli et al. 2017, JMLR 18(77)"


def _pair(names: tuple[str, str]) -> tuple[str, str, str]:
    """Model A's and B's names on one line, and the words naming the difference."""
    a, b = (plain_text(n) for n in names)
    return a, b, ("A − B" if (a, b) == ("A", "B") else f"A − B, A = {a} and B = {b},")


def _rows(p: tuple[float, float, float], rope: float, a: str, b: str) -> list[list[str]]:
    r = f"{rope:g}"
    return [
        [f"{b} practically better (A − B < −{r})", fmt(p[0], 3)],
        [f"practically equivalent (|A − B| ≤ {r})", fmt(p[1], 3)],
        [f"{a} practically better (A − B > {r})", fmt(p[2], 3)],
    ]


def _decision(p: tuple[float, float, float], a: str, b: str) -> str:
    words = (f"{b} is practically better", "the two are practically equivalent", f"{a} is practically better")
    for prob, what in zip(p, words, strict=True):
        if prob > DECISION:
            return f"Decision: {what} (probability {fmt(prob, 3)} > {DECISION:g}; {BENAVOLI}, §3)."
    return (
        f"No decision: no probability passes {DECISION:g} ({BENAVOLI}, §3); report the three probabilities, "
        "or add data (folds, data sets)."
    )


def _text(title: str, lines: list[str], rows: list[list[str]], decision: str) -> str:
    width = max(len(r[0]) for r in rows)
    body = [f"  P({r[0]})".ljust(width + 5) + f" = {r[1]}" for r in rows]
    return "\n".join([title, *(f"  {line}" for line in lines), *body, decision])


def _html(title: str, lines: list[str], rows: list[list[str]], decision: str) -> str:
    body = "".join(f"<tr><td>P({html_text(r[0])})</td><td style='text-align:right'>{r[1]}</td></tr>" for r in rows)
    more = "".join(f"<p>{html_text(line)}</p>" for line in [*lines, decision])
    return f"<p><b>{html_text(title)}</b></p><table>{body}</table>{more}"


def _latex(
    title: str, lines: list[str], rows: list[list[str]], decision: str, caption: str | None, label: str | None
) -> str:
    cap = latex_text(caption) if caption is not None else latex_words(title) + "."
    cells = [[latex_words(r[0]), r[1]] for r in rows]
    notes = [latex_words(line) for line in [*lines, decision]]
    return latex_table(["Posterior event", "Probability"], "lr", cells, cap, label, notes)


# -- correlated t ---------------------------------------------------------------------------------------------
def _correlated(r: BayesianComparison) -> tuple[str, list[str], list[list[str]], str]:
    a, b, diff = _pair(r.names)
    title = (
        f"Bayesian correlated t test of {diff} over {r.df + 1} fold differences "
        f"(Corani & Benavoli 2015; {BENAVOLI}, §3.1)"
    )
    lines = [
        f"ρ = {fmt(r.rho, 4)} (the correlation of two fold differences; k-fold: 1/k), rope ±{r.rope:g}.",
        f"Posterior of the mean difference: Student t with {r.df} df, location {fmt(r.loc, 4)}, "
        f"scale {fmt(r.scale, 4)}.",
    ]
    p = (r.p_left, r.p_rope, r.p_right)
    return title, lines, _rows(p, r.rope, a, b), _decision(p, a, b)


def correlated_text(r: BayesianComparison) -> str:
    """The correlated t in words."""
    return _text(*_correlated(r))


def correlated_html(r: BayesianComparison) -> str:
    """The correlated t as an HTML fragment."""
    return _html(*_correlated(r))


def correlated_latex(r: BayesianComparison, caption: str | None, label: str | None) -> str:
    """The correlated t as a booktabs table."""
    return _latex(*_correlated(r), caption, label)


# -- signed-rank ----------------------------------------------------------------------------------------------
def _signed_rank(r: BayesianSignedRank) -> tuple[str, list[str], list[list[str]], str]:
    a, b, diff = _pair(r.names)
    title = f"Bayesian signed-rank test of {diff} over {r.n_datasets} data sets (Benavoli et al. 2014; {BENAVOLI}, §4)"
    seed = "a Generator passed" if r.seed is None else f"seed {r.seed}"
    lines = [
        f"Dirichlet process, prior strength {r.prior_strength:g} on a pseudo-observation at 0; rope ±{r.rope:g}.",
        f"Shares of {r.n_samples:,} posterior draws ({seed}) in which each θ is the largest; Monte Carlo standard "
        f"error at most {fmt(r.monte_carlo_se(), 4)}.",
    ]
    p = (r.p_left, r.p_rope, r.p_right)
    return title, lines, _rows(p, r.rope, a, b), _decision(p, a, b)


def signed_rank_text(r: BayesianSignedRank) -> str:
    """The signed-rank test in words."""
    return _text(*_signed_rank(r))


def signed_rank_html(r: BayesianSignedRank) -> str:
    """The signed-rank test as an HTML fragment."""
    return _html(*_signed_rank(r))


def signed_rank_latex(r: BayesianSignedRank, caption: str | None, label: str | None) -> str:
    """The signed-rank test as a booktabs table."""
    return _latex(*_signed_rank(r), caption, label)
