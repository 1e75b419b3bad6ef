"""Models compared over several data sets by their ranks (Demšar 2006): Friedman, Nemenyi, Wilcoxon–Holm.

One score per model and data set (a models × data sets table; higher is better unless
``greater_is_better=False``). Friedman's test asks whether the models' average ranks differ at
all; Nemenyi's critical difference says which pairs do (Demšar 2006, JMLR 7:1–30, §3.2.2);
pairwise Wilcoxon signed-rank tests with Holm's correction are the post-hoc test Benavoli,
Corani & Mangili (2016, JMLR 17(5)) recommend over Nemenyi, whose verdict on two models depends
on the other models in the study.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from scipy import stats

from apples._kernels.comparison import average_ranks, critical_difference, holm_adjust, iman_davenport, nemenyi_p_values
from apples._params import (
    FLAG,
    Instance,
    Kind,
    Nullable,
    ParameterValueError,
    Policy,
    Real,
    Undefined,
    UndefinedMetricError,
    check_real_array,
    declare,
)
from apples.comparison._rank_text import (
    friedman_html,
    friedman_latex,
    friedman_text,
    nemenyi_html,
    nemenyi_latex,
    nemenyi_text,
    wilcoxon_html,
    wilcoxon_latex,
    wilcoxon_text,
)
from apples.comparison._render import LATEX_LABEL

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "FriedmanResult",
    "NemenyiResult",
    "WilcoxonHolmResult",
    "friedman_test",
    "nemenyi",
    "wilcoxon_holm",
]


class ScoreTable(NamedTuple):
    """A checked models × data sets table: the values, the model names and the data set names."""

    scores: np.ndarray
    models: list[str]
    datasets: list[str]


class _ScoreTable(Kind):
    what = (
        "a models × data sets table of finite scores (a DataFrame with one row per model, or a 2-d array), "
        "at least two models and two data sets"
    )

    def check(self, name: str, value: object) -> ScoreTable:
        if hasattr(value, "to_numpy") and hasattr(value, "index") and hasattr(value, "columns"):
            models = [str(v) for v in value.index]
            datasets = [str(v) for v in value.columns]
            values = check_real_array(name, value.to_numpy(dtype=float), finite=True)
        else:
            values = check_real_array(name, value, finite=True)
            if values.ndim != 2:
                raise ValueError(f"{name} must be {self.what}, got shape {values.shape}")
            models = [f"model {i}" for i in range(values.shape[0])]
            datasets = [f"data set {j}" for j in range(values.shape[1])]
        if values.ndim != 2 or values.shape[0] < 2 or values.shape[1] < 2:
            raise ValueError(f"{name} must be {self.what}, got shape {values.shape}")
        if len(set(models)) != len(models):
            raise ValueError(f"{name} names a model twice: {models[:10]}")
        return ScoreTable(values, models, datasets)


#: The kind of a models × data sets score table.
SCORE_TABLE = _ScoreTable()
_CAPTION = Nullable(Instance(str, hint="the table's caption"))


class FriedmanResult(NamedTuple):
    """Friedman's test over data sets and Iman & Davenport's F (Demšar 2006 §3.2.2).

    ``str(r)`` reads it in words and says which statistic to report (F_F, as Demšar recommends) and
    what a disagreement of the two at α means; a notebook shows it as HTML; ``r.to_latex()`` for a paper.
    """

    statistic: float  #: Friedman's χ²_F (scipy.stats.friedmanchisquare, with its tie correction)
    p_value: float  #: of χ²_F with k − 1 degrees of freedom
    f_statistic: float  #: Iman & Davenport's F_F
    f_p_value: float  #: of F_F with (k − 1, (k − 1)(N − 1)) degrees of freedom: the one Demšar recommends
    df1: int
    df2: int
    average_ranks: pd.Series  #: each model's mean rank (1 = best)
    n_models: int
    n_datasets: int
    alpha: float = 0.05  #: the level the words compare with

    def __str__(self) -> str:
        return friedman_text(self)

    def _repr_html_(self) -> str:
        return friedman_html(self)

    @declare(caption=_CAPTION, label=Nullable(LATEX_LABEL))
    def to_latex(self, *, caption: str | None = None, label: str | None = None) -> str:
        """A booktabs table of χ²_F and F_F with their degrees of freedom and p, the average ranks and the advice."""
        return friedman_latex(self, caption, label)


class NemenyiResult(NamedTuple):
    """Nemenyi's post-hoc test: average ranks, the critical difference and the pairwise p-values.

    ``str(r)``, HTML in a notebook and ``r.to_latex()`` name the pairs at least one CD apart.
    """

    average_ranks: pd.Series
    critical_difference: float  #: CD = q_α √(k(k + 1)/(6N)) (Demšar 2006, eq. 5)
    q_alpha: float
    alpha: float
    p_values: pd.DataFrame  #: models × models
    n_datasets: int = 0  #: N (0 when built by hand without it)

    def __str__(self) -> str:
        return nemenyi_text(self)

    def _repr_html_(self) -> str:
        return nemenyi_html(self)

    @declare(caption=_CAPTION, label=Nullable(LATEX_LABEL))
    def to_latex(self, *, caption: str | None = None, label: str | None = None) -> str:
        """A booktabs table of the average ranks and the pairwise p-values, the CD in the caption."""
        return nemenyi_latex(self, caption, label)


class WilcoxonHolmResult(NamedTuple):
    """Pairwise Wilcoxon signed-rank tests over the data sets, with Holm's adjusted p-values.

    ``str(r)``, HTML in a notebook and ``r.to_latex()`` list each pair and say when no pair can reach
    α with the data sets at hand (the smallest attainable p, :func:`~apples.comparison.attainable_p_values`).
    """

    average_ranks: pd.Series
    p_values: pd.DataFrame  #: models × models, unadjusted (diagonal 1)
    p_holm: pd.DataFrame  #: Holm-adjusted over the k(k − 1)/2 pairs
    alpha: float
    different: pd.DataFrame  #: p_holm < alpha
    n_datasets: int = 0  #: N (0 when built by hand without it)
    n_nonzero: pd.DataFrame | None = None  #: models × models: the data sets with a non-zero difference (the test's N)

    def __str__(self) -> str:
        return wilcoxon_text(self)

    def _repr_html_(self) -> str:
        return wilcoxon_html(self)

    @declare(caption=_CAPTION, label=Nullable(LATEX_LABEL))
    def to_latex(self, *, caption: str | None = None, label: str | None = None) -> str:
        """A booktabs table of each pair's p and Holm-adjusted p, and whether α is attainable."""
        return wilcoxon_latex(self, caption, label)


_ALPHA = Real(0.0, 1.0, low_inclusive=False, high_inclusive=False)


def _series(values: np.ndarray, names: list[str], title: str) -> pd.Series:
    import pandas as pd

    return pd.Series(values, index=pd.Index(names, name="model"), name=title)


def _square(values: np.ndarray, names: list[str]) -> pd.DataFrame:
    import pandas as pd

    index = pd.Index(names, name="model")
    return pd.DataFrame(values, index=index, columns=list(names))


def run_friedman(table: ScoreTable, greater_is_better: bool, undefined: Policy, alpha: float) -> FriedmanResult:
    """:func:`friedman_test` on a checked table (k ≥ 3)."""
    values = table.scores
    k, n = values.shape
    ranks = average_ranks(values, greater_is_better)
    if bool(np.all(values == values[0])):
        if undefined == "raise":
            raise UndefinedMetricError(
                "Friedman's statistic is 0/0: every model has the same score on every data set; "
                "pass undefined='nan' to get NaN"
            )
        chi2, p = float("nan"), float("nan")
    else:
        res = stats.friedmanchisquare(*values)
        chi2, p = float(res.statistic), float(res.pvalue)
    f, df1, df2, f_p = iman_davenport(chi2, k, n)
    return FriedmanResult(chi2, p, f, f_p, df1, df2, _series(ranks, table.models, "average rank"), k, n, alpha)


def run_nemenyi(table: ScoreTable, alpha: float, greater_is_better: bool) -> NemenyiResult:
    """:func:`nemenyi` on a checked table."""
    k, n = table.scores.shape
    ranks = average_ranks(table.scores, greater_is_better)
    q, cd = critical_difference(k, n, alpha)
    p = nemenyi_p_values(ranks, n)
    return NemenyiResult(_series(ranks, table.models, "average rank"), cd, q, alpha, _square(p, table.models), n)


def run_wilcoxon_holm(
    table: ScoreTable, alpha: float, greater_is_better: bool, undefined: Policy, pairs: list[tuple[int, int]] | None
) -> WilcoxonHolmResult:
    """:func:`wilcoxon_holm` on a checked table, over ``pairs`` (default: all); unlisted pairs get NaN."""
    values = table.scores
    k, n = values.shape
    if pairs is None:
        pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    raw = np.empty(len(pairs))
    used = np.zeros(len(pairs), dtype=int)
    for m, (i, j) in enumerate(pairs):
        d = values[i] - values[j]
        used[m] = int(np.count_nonzero(d))
        if used[m] == 0:
            if undefined == "raise":
                raise UndefinedMetricError(
                    f"the Wilcoxon statistic of {table.models[i]} against {table.models[j]} is 0/0: they score the "
                    "same on every data set; pass undefined='nan' to get NaN"
                )
            raw[m] = np.nan
            continue
        raw[m] = float(stats.wilcoxon(values[i], values[j]).pvalue)
    adjusted = holm_adjust(raw)
    p = np.full((k, k), np.nan)
    ph = np.full((k, k), np.nan)
    nz = np.full((k, k), n, dtype=int)
    np.fill_diagonal(p, 1.0)
    np.fill_diagonal(ph, 1.0)
    for m, (i, j) in enumerate(pairs):
        p[i, j] = p[j, i] = raw[m]
        ph[i, j] = ph[j, i] = adjusted[m]
        nz[i, j] = nz[j, i] = used[m]
    np.fill_diagonal(nz, 0)
    ranks = average_ranks(values, greater_is_better)
    return WilcoxonHolmResult(
        _series(ranks, table.models, "average rank"),
        _square(p, table.models),
        _square(ph, table.models),
        alpha,
        _square(ph < alpha, table.models),
        n,
        _square(nz, table.models),
    )


@declare(scores=SCORE_TABLE, greater_is_better=FLAG, undefined=Undefined("raise", "nan"), alpha=_ALPHA)
def friedman_test(
    scores: Any, *, greater_is_better: bool = True, undefined: Policy = "raise", alpha: float = 0.05
) -> FriedmanResult:
    """Friedman's test of k models over N data sets, and Iman & Davenport's F (Demšar 2006 §3.2.2).

    ``χ²_F = 12N/(k(k + 1)) [Σ_j R_j² − k(k + 1)²/4]`` (Demšar eq. 1, computed by
    :func:`scipy.stats.friedmanchisquare`, which corrects for ties) and
    ``F_F = (N − 1)χ²_F / (N(k − 1) − χ²_F)`` (Demšar eq. 2), which Demšar recommends as less
    conservative.

    Parameters
    ----------
    scores : DataFrame or array-like of shape (k, N)
        One score per model (row) and data set (column), k ≥ 3 (two models: :func:`wilcoxon_holm`).
    greater_is_better : bool, default True
        Whether a higher score ranks first (accuracy, AUC); False for an error rate or a loss.
    undefined : {"raise", "nan"}, default "raise"
        Every data set ties every model: χ²_F is 0/0 after the tie correction.
    alpha : float, default 0.05
        The level the result's words compare the p-values with (the statistics do not depend on it).

    Returns
    -------
    FriedmanResult
        ``str()`` says which statistic to report: F_F, which Demšar (§3.2.2) recommends as less
        conservative; when χ²_F and F_F fall on two sides of α it says so (χ²_F's conservatism).

    References
    ----------
    Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets. JMLR 7, 1–30,
    §3.2.2, eq. (1)–(2). Iman, R. L. & Davenport, J. M. (1980). Communications in Statistics A9, 571–595.

    Examples
    --------
    >>> from apples.comparison import friedman_test
    >>> r = friedman_test([[0.9, 0.8, 0.7], [0.8, 0.7, 0.6], [0.7, 0.6, 0.5]])
    >>> r.statistic, r.average_ranks.tolist()
    (6.0, [1.0, 2.0, 3.0])
    """
    table: ScoreTable = scores
    k = table.scores.shape[0]
    if k < 3:
        raise ParameterValueError(
            f"scores holds {k} models; Friedman's test needs at least three (for two, use wilcoxon_holm)",
            param="scores",
        )
    return run_friedman(table, greater_is_better, undefined, alpha)


@declare(scores=SCORE_TABLE, alpha=_ALPHA, greater_is_better=FLAG)
def nemenyi(scores: Any, *, alpha: float = 0.05, greater_is_better: bool = True) -> NemenyiResult:
    """Nemenyi's post-hoc test over data sets: the critical difference of average ranks (Demšar 2006, eq. 5).

    Two models differ when their average ranks differ by at least ``CD = q_α √(k(k + 1)/(6N))``;
    ``q_α`` is the studentized range quantile (k means, infinite degrees of freedom) over √2, from
    :data:`scipy.stats.studentized_range`. The pairwise p-values are
    ``P(Q_{k,∞} ≥ √2·|R_i − R_j| / √(k(k + 1)/(6N)))``.

    Parameters
    ----------
    scores : DataFrame or array-like of shape (k, N)
        One score per model (row) and data set (column).
    alpha : float, default 0.05
        The family-wise significance level of the critical difference.
    greater_is_better : bool, default True
        Whether a higher score ranks first.

    Returns
    -------
    NemenyiResult

    References
    ----------
    Demšar (2006) §3.2.2, eq. (5) and Table 5(a); Nemenyi, P. (1963). Distribution-free multiple
    comparisons. PhD thesis, Princeton.

    Examples
    --------
    Demšar's example has k = 4 models and N = 14 data sets: q_0.05 = 2.569 and CD = 1.25.

    >>> import numpy as np
    >>> from apples.comparison import nemenyi
    >>> r = nemenyi(np.arange(56.0).reshape(4, 14) % 5)
    >>> round(r.q_alpha, 3), round(r.critical_difference, 2)
    (2.569, 1.25)
    """
    return run_nemenyi(scores, alpha, greater_is_better)


@declare(scores=SCORE_TABLE, alpha=_ALPHA, greater_is_better=FLAG, undefined=Undefined("raise", "nan"))
def wilcoxon_holm(
    scores: Any, *, alpha: float = 0.05, greater_is_better: bool = True, undefined: Policy = "raise"
) -> WilcoxonHolmResult:
    """Pairwise Wilcoxon signed-rank tests over data sets with Holm's correction (Benavoli et al. 2016).

    For every pair of models, :func:`scipy.stats.wilcoxon` on their N score differences (zero
    differences dropped, Wilcoxon's own treatment; exact p-values for small N without ties), then Holm's
    step-down adjustment over the k(k − 1)/2 pairs. Benavoli, Corani & Mangili (2016) recommend it
    over Nemenyi's test, whose decision on two models depends on the scores of the others.

    Parameters
    ----------
    scores : DataFrame or array-like of shape (k, N)
        One score per model (row) and data set (column).
    alpha : float, default 0.05
        The family-wise level at which ``different`` marks a pair.
    greater_is_better : bool, default True
        Only the average ranks reported beside the tests depend on it (the test is two-sided).
    undefined : {"raise", "nan"}, default "raise"
        Two models with the same score on every data set: no non-zero difference to rank, the
        statistic is 0/0.

    Returns
    -------
    WilcoxonHolmResult
        ``str()`` says when no pair can reach α with N data sets: the smallest two-sided p of the
        signed-rank test is ``2/2^N`` and Holm multiplies it by the k(k − 1)/2 pairs (4 models on 7 data
        sets: 6 × 2/2^7 = 0.094 > 0.05, whatever the scores).

    References
    ----------
    Wilcoxon, F. (1945). Biometrics Bulletin 1, 80–83. Holm, S. (1979). Scand. J. Statist. 6, 65–70.
    Demšar (2006) §3.1.3. Benavoli, A., Corani, G. & Mangili, F. (2016). Should we really use post-hoc
    tests based on mean-ranks? JMLR 17(5), 1–10.

    Examples
    --------
    >>> from apples.comparison import wilcoxon_holm
    >>> r = wilcoxon_holm([[0.9, 0.8, 0.7, 0.85, 0.95, 0.6], [0.85, 0.78, 0.64, 0.78, 0.92, 0.59]])
    >>> float(r.p_values.iloc[0, 1])
    0.03125
    """
    return run_wilcoxon_holm(scores, alpha, greater_is_better, undefined, None)
