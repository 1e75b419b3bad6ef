"""When measures disagree: agreement levels, error cases and their statistics (Parker 2011 §V, Figures 2–5).

A *comparison* is two classifiers scored on the same test data; each measure
states a *preference*: +1 (the first classifier is better), −1 (the second is
better) or 0 (a tie). A table of preferences has one row per comparison and
one column per measure.

Rules used throughout (Parker does not state them; ours are these):

- **Ties** are a third opinion. A measure that ties while all others prefer
  the first classifier disagrees with all of them, and so does a measure that
  prefers a classifier while all others tie.
- **Undefined** preferences (NaN: a measure that cannot be computed on the
  task) are left out of the comparison; the remaining measures are compared
  among themselves. A measure is the *odd one out* ("error case", §V) when at
  least two other measures are defined, they all agree, and it differs.
- The **level of agreement** (Figure 2) is the number of defined measures
  that differ from the most common opinion: 0 when all agree, 1 for an
  error case, 2 or 3 for larger minorities; 4 is possible when ties make
  three opinions (3 say +1, 2 say −1, 2 tie).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

import numpy as np
from numpy.typing import ArrayLike
from scipy import special, stats

from apples._kernels.intervals import proportion_interval
from apples._params import (
    CONFIDENCE,
    LABELS,
    Frame,
    Kind,
    Nullable,
    Options,
    RealArray,
    Relation,
    SameLength,
    check_count,
    check_frame,
    declare,
)

if TYPE_CHECKING:  # pandas is imported where a table is built
    import pandas as pd


__all__ = [
    "PARKER_MEASURES",
    "GTest",
    "agreement_levels",
    "classifier_error_rates",
    "count_error_cases",
    "error_case_breakdown",
    "error_case_shares",
    "g_test",
    "odd_one_out",
    "wilson_interval",
]

#: The seven measures Parker compares (§IV–V), in the order of his figures; the columns of a preference table.
PARKER_MEASURES = ("max-F1", "max-MCC", "r-precision", "AUC", "AP", "AUK", "H")


class GTest(NamedTuple):
    """A G-test of goodness of fit (log-likelihood ratio), as :func:`scipy.stats.power_divergence` computes it."""

    statistic: float  #: G = 2 Σ O·ln(O/E)
    pvalue: float  #: upper tail of χ² with ``dof`` degrees of freedom (0.0 once it underflows)
    dof: int  #: number of cells − 1
    log10_pvalue: float  #: log10 of the p-value, finite where ``pvalue`` underflows (Parker: p < 10^-200)


def _preference_values(name: str, preferences: pd.DataFrame) -> np.ndarray:
    """The values of a preference table as floats, checked: only +1, −1, 0 or NaN, at least two distinct columns."""
    if preferences.shape[1] < 2:
        raise ValueError(f"{name} must have at least two measure columns, got {list(preferences.columns)}")
    duplicated = preferences.columns[preferences.columns.duplicated()].unique().tolist()
    if duplicated:
        raise ValueError(
            f"{name} has duplicate column names {duplicated[:5]}: each column is one measure, named once "
            "(a measure counted twice would double its vote)"
        )
    try:
        values = preferences.to_numpy(dtype=float, na_value=np.nan)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must hold numbers (+1, -1, 0 or NaN), got dtypes {set(preferences.dtypes)}") from None
    ok = np.isnan(values) | np.isin(values, (-1.0, 0.0, 1.0))
    if not ok.all():
        bad = values[~ok].flat[0]
        raise ValueError(f"{name} must hold +1, -1, 0 (tie) or NaN (undefined), got {bad!r}")
    return values


class _Preferences(Kind):
    """A preference table: a DataFrame, one row per comparison and one column per measure, of +1, −1, 0 or NaN."""

    what = "a pandas DataFrame with one row per comparison and one column per measure"

    def check(self, name: str, value: object) -> pd.DataFrame:
        import pandas as pd

        if not isinstance(value, pd.DataFrame):
            raise TypeError(f"{name} must be {self.what}, got {type(value).__name__}")
        _preference_values(name, value)
        return value


class _Comparisons(Kind):
    """A comparison table (:attr:`ExperimentResult.comparisons`): the columns of :data:`PARKER_MEASURES`, holding
    preferences, and the further ``columns`` a function reads."""

    def __init__(self, *columns: str) -> None:
        self.columns = columns
        self.what = "a pandas DataFrame with the measure columns" + "".join(f", {c!r}" for c in columns)

    def check(self, name: str, value: object) -> pd.DataFrame:
        table: pd.DataFrame = check_frame(name, value, (*PARKER_MEASURES, *self.columns))
        _preference_values(name, table[list(PARKER_MEASURES)])
        return table


class _CountsArray(Kind):
    """A count, or a one-dimensional array of counts, at least ``low``; becomes an int64 array (0-d for one)."""

    def __init__(self, low: int = 0) -> None:
        self.low = low
        self.what = "a count or a one-dimensional array of counts" + (f" (each at least {low})" if low else "")

    def check(self, name: str, value: object) -> np.ndarray:
        arr = np.asarray(value)
        if arr.ndim > 1:
            raise ValueError(f"{name} must be a count or a one-dimensional array of counts, got shape {arr.shape}")
        counts = np.array([check_count(name, v) for v in np.atleast_1d(arr).tolist()], dtype=np.int64)
        counts = counts.reshape(arr.shape)
        if np.any(counts < self.low):
            raise ValueError(f"{name} must be at least {self.low}, got {value!r}")
        return counts


class _WithinTrials(Relation):
    """``k`` and ``n`` have one length (or one is a single count), and ``0 <= k <= n``."""

    names = ("k", "n")

    def check(self, values: Mapping[str, Any]) -> None:
        k, n = values["k"], values["n"]
        if k.ndim and n.ndim and k.shape != n.shape:
            raise ValueError(
                f"k and n must have the same length (or one be a single count): k has {k.size} counts, n has {n.size}"
            )
        if np.any(k > n):
            raise ValueError(f"k must lie between 0 and n, got k={k.tolist()!r}, n={n.tolist()!r}")


class _Observed(Kind):
    """Observed counts of a G-test: at least two cells, not all 0; becomes a float array."""

    what = "a one-dimensional array of at least two counts"

    def check(self, name: str, value: object) -> np.ndarray:
        obs = np.asarray(value)
        if obs.ndim != 1 or obs.size < 2:
            raise ValueError(f"{name} must be {self.what}, got shape {obs.shape}")
        for i, v in enumerate(obs.tolist()):
            check_count(f"{name}[{i}]", v)
        cells = obs.astype(float)
        if cells.sum() <= 0:
            raise ValueError(f"{name} must hold at least one count (all cells are 0)")
        return cells


class _ExpectedMatches(Relation):
    """The expected counts have the shape of the observed ones, are positive and finite, and have their total."""

    names = ("expected", "observed")

    def check(self, values: Mapping[str, Any]) -> None:
        if "expected" not in values:
            return
        exp, obs = values["expected"], values["observed"]
        if exp.shape != obs.shape:
            raise ValueError(f"expected must have the shape of observed {obs.shape}, got {exp.shape}")
        if not np.all(np.isfinite(exp)) or np.any(exp <= 0):
            raise ValueError("expected must hold positive finite counts")
        if not np.isclose(exp.sum(), obs.sum(), rtol=1e-9):
            raise ValueError(f"expected must sum to the observed total {obs.sum():g}, got {exp.sum():g}")


class _SameRows(Relation):
    """Two tables of one comparison each per row."""

    def __init__(self, *names: str) -> None:
        self.names = names

    def check(self, values: Mapping[str, Any]) -> None:
        a, b = (values[n] for n in self.names)
        if len(a) != len(b):
            raise ValueError(f"{self.names[0]} has {len(a)} rows but {self.names[1]} has {len(b)}")


class _ColumnOf(Relation):
    """The column named by an argument (``by``) is in the table."""

    def __init__(self, table: str, column: str) -> None:
        self.names = (table, column)

    def check(self, values: Mapping[str, Any]) -> None:
        table, column = self.names
        if table in values and column in values:
            check_frame(table, values[table], (values[column],))


_PREFERENCES = _Preferences()


def _values(preferences: pd.DataFrame) -> np.ndarray:
    """The values of a checked preference table as floats (NaN for a missing value)."""
    return preferences.to_numpy(dtype=float, na_value=np.nan)


def _opinion_counts(values: np.ndarray) -> np.ndarray:
    """Per row, how many measures say −1, 0 and +1 (columns 0, 1, 2); NaN counts nowhere."""
    return np.stack([(values == v).sum(axis=1) for v in (-1.0, 0.0, 1.0)], axis=1)


@declare(preferences=_PREFERENCES)
def agreement_levels(preferences: pd.DataFrame) -> pd.Series:
    """Per comparison, the number of measures that differ from the most common opinion (Parker Figure 2).

    Parameters
    ----------
    preferences : pandas.DataFrame
        One row per comparison, one column per measure, holding +1 (first
        classifier better), −1 (second better), 0 (tie) or NaN (undefined).

    Returns
    -------
    pandas.Series of int
        0 where all defined measures agree, 1 where one measure is the odd one
        out (when at least three are defined), and so on; the index of
        ``preferences``. See the module docstring for ties and NaN.

    References
    ----------
    Parker (2011) §V, Figure 2.

    Examples
    --------
    >>> import pandas as pd
    >>> from apples.studies.parker import agreement_levels
    >>> p = pd.DataFrame({"a": [1, 1, 1], "b": [1, -1, 0], "c": [1, 1, -1], "d": [1, 1, 1]})
    >>> agreement_levels(p).tolist()
    [0, 1, 2]
    """
    return _agreement_levels(preferences)


def _agreement_levels(preferences: pd.DataFrame) -> pd.Series:
    """:func:`agreement_levels` of a checked table."""
    import pandas as pd

    counts = _opinion_counts(_values(preferences))
    level = counts.sum(axis=1) - counts.max(axis=1)
    return pd.Series(level.astype(np.int64), index=preferences.index, name="disagreeing measures")


@declare(preferences=_PREFERENCES)
def odd_one_out(preferences: pd.DataFrame) -> pd.Series:
    """Per comparison, the measure that alone disagrees with all the others, or None (Parker §V "error cases").

    A measure is the odd one out when at least two other measures are
    defined, all of them agree with each other, and it differs from them (a
    tie counts as an opinion; NaN is left out). See the module docstring.

    Parameters
    ----------
    preferences : pandas.DataFrame
        As for :func:`agreement_levels`.

    Returns
    -------
    pandas.Series of object
        The column name of the odd measure, None where there is none.

    Examples
    --------
    >>> import pandas as pd
    >>> from apples.studies.parker import odd_one_out
    >>> p = pd.DataFrame({"a": [1, 1, 1], "b": [1, -1, 0], "c": [1, 1, float("nan")], "d": [1, 1, 1]})
    >>> odd_one_out(p).tolist()
    [None, 'b', 'b']
    """
    return _odd_one_out(preferences)


def _odd_one_out(preferences: pd.DataFrame) -> pd.Series:
    """:func:`odd_one_out` of a checked table."""
    import pandas as pd

    values = _values(preferences)
    counts = _opinion_counts(values)
    defined = counts.sum(axis=1)
    # exactly one measure holds an opinion shared by no other, all the rest (at least two) share one opinion
    singles = counts == 1
    majority = counts == defined[:, None] - 1
    is_error = (defined >= 3) & singles.any(axis=1) & majority.any(axis=1)
    out: list[object] = [None] * len(values)
    opinions = np.array([-1.0, 0.0, 1.0])
    columns = list(preferences.columns)
    for i in np.flatnonzero(is_error):
        lone = opinions[singles[i]]
        # with exactly two opinions present one is held by one measure; pick the one that is not the majority's
        lone = lone[~np.isin(lone, opinions[majority[i]])] if lone.size > 1 else lone
        out[i] = columns[int(np.flatnonzero(values[i] == lone[0])[0])]
    return pd.Series(out, index=preferences.index, dtype=object, name="odd one out")


@declare(preferences=_PREFERENCES)
def count_error_cases(preferences: pd.DataFrame) -> pd.Series:
    """Per measure, the number of comparisons in which it alone disagrees with all the others (Parker Figure 3).

    Parameters
    ----------
    preferences : pandas.DataFrame
        One row per comparison and one column per measure holding +1 (first
        classifier better), −1 (second better), 0 (tie) or NaN (measure
        undefined for the task). Ties are an opinion of their own; undefined
        measures are left out of the comparison, and a measure is only the odd
        one out against at least two defined others that agree (module
        docstring).

    Returns
    -------
    pandas.Series of int
        Indexed by the columns of ``preferences`` (every measure, 0 where it is
        never the odd one out).

    References
    ----------
    Parker (2011) §V: about 2,300 of 11,188 comparisons are error cases.

    Examples
    --------
    >>> import pandas as pd
    >>> from apples.studies.parker import count_error_cases
    >>> p = pd.DataFrame({"AUC": [1, -1, 1, 0], "AP": [1, 1, 1, 1], "H": [1, 1, -1, 1]})
    >>> count_error_cases(p).to_dict()
    {'AUC': 2, 'AP': 0, 'H': 1}
    """
    return _count_error_cases(preferences)


def _count_error_cases(preferences: pd.DataFrame) -> pd.Series:
    """:func:`count_error_cases` of a checked table."""
    odd = _odd_one_out(preferences)
    counts = odd.value_counts().reindex(list(preferences.columns), fill_value=0).astype(np.int64)
    counts.name = "error cases"
    counts.index.name = None
    return counts


@declare(confidence=CONFIDENCE, k=_CountsArray(), n=_CountsArray(1), relations=[_WithinTrials()])
def wilson_interval(
    k: ArrayLike, n: ArrayLike, *, confidence: float = 0.95
) -> tuple[float, float] | tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for a binomial proportion k/n (Wilson 1927), as Parker draws it (Figures 3–5).

    ``(p̂ + z²/2n ± z·sqrt(p̂(1 − p̂)/n + z²/4n²)) / (1 + z²/n)`` with
    z the two-sided normal quantile of ``confidence``, computed for each pair as
    :func:`apples.proportion_ci` (``method="wilson"``) computes it; the same interval as
    ``scipy.stats.binomtest(k, n).proportion_ci(confidence, method="wilson")``.
    This function adds array input and Parker's argument checks.

    Parameters
    ----------
    k : int or array-like of int
        Successes, 0 <= k <= n.
    n : int or array-like of int
        Trials, at least 1.
    confidence : float, default 0.95
        In (0, 1).

    Returns
    -------
    (low, high) : floats, or arrays for array input

    References
    ----------
    Wilson, E. B. (1927), "Probable inference, the law of succession, and
    statistical inference", JASA 22, 209–212; Parker (2011) §V [24].

    Examples
    --------
    >>> from apples.studies.parker import wilson_interval
    >>> low, high = wilson_interval(7, 10)
    >>> round(low, 4), round(high, 4)
    (0.3968, 0.8922)
    """
    return _wilson(np.asarray(k), np.asarray(n), confidence)


def _wilson(k: np.ndarray, n: np.ndarray, confidence: float) -> tuple[float, float] | tuple[np.ndarray, np.ndarray]:
    """Wilson intervals of checked counts (int64 arrays, 0-d for one), by the proportion kernel."""
    k_arr, n_arr = np.broadcast_arrays(k, n)
    pairs = [
        proportion_interval(kk, nn, confidence, "wilson")
        for kk, nn in zip(k_arr.ravel().tolist(), n_arr.ravel().tolist(), strict=True)
    ]
    low = np.array([lo for lo, _ in pairs]).reshape(k_arr.shape)
    high = np.array([hi for _, hi in pairs]).reshape(k_arr.shape)
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


@declare(observed=_Observed(), expected=Nullable(RealArray()), relations=[_ExpectedMatches()])
def g_test(observed: ArrayLike, expected: ArrayLike | None = None) -> GTest:
    """G-test of observed counts against expected ones (equal shares by default), Parker §V [25].

    ``G = 2 Σ O·ln(O/E)`` (a cell with O = 0 contributes 0) with
    ``len(observed) − 1`` degrees of freedom; ``scipy.stats.power_divergence``
    with ``lambda_="log-likelihood"`` gives the same statistic and p-value.
    Where the p-value underflows (G in the thousands), ``log10_pvalue`` comes
    from the asymptotic series of the upper incomplete gamma function,
    Γ(a, x) ~ x^(a−1) e^(−x) Σ_j (a−1)···(a−j)/x^j (Abramowitz & Stegun
    6.5.32), which terminates, exactly, for an even number of degrees of
    freedom (a = dof/2 an integer).

    Parameters
    ----------
    observed : array-like of int
        Counts in at least two cells (Parker: error cases per measure).
    expected : array-like of float, optional
        Expected counts with the same total; None means equal shares.

    Returns
    -------
    GTest
        ``statistic``, ``pvalue``, ``dof`` and ``log10_pvalue``.

    References
    ----------
    Sokal & Rohlf (1995), *Biometry*, §17.1; Parker (2011) §V (G = 1095,
    p < 10^-200 for his seven measures).

    Examples
    --------
    >>> from apples.studies.parker import g_test
    >>> r = g_test([10, 20, 30])
    >>> round(r.statistic, 3), r.dof
    (10.465, 2)
    """
    return _g_test(np.asarray(observed), None if expected is None else np.asarray(expected))


def _g_test(obs: np.ndarray, expected: np.ndarray | None) -> GTest:
    """:func:`g_test` of checked counts (float arrays)."""
    total = obs.sum()
    exp = np.full(obs.size, total / obs.size) if expected is None else expected
    terms = np.where(obs > 0, obs * np.log(np.where(obs > 0, obs, 1.0) / exp), 0.0)
    g = float(2.0 * terms.sum())
    dof = obs.size - 1
    log_sf = float(stats.chi2.logsf(g, dof))
    if not np.isfinite(log_sf):  # far in the tail: log Γ(a, x)/Γ(a), a = dof/2, x = G/2, asymptotic series
        a, x = dof / 2.0, g / 2.0
        terms = np.cumprod([1.0] + [(a - j) / x for j in range(1, 8)])  # exact for integer a <= 8
        log_sf = float((a - 1.0) * np.log(x) - x - special.gammaln(a) + np.log(terms.sum()))
    return GTest(g, float(np.exp(log_sf)), dof, log_sf / float(np.log(10.0)))


@declare(
    preferences=_PREFERENCES, by=Nullable(LABELS), confidence=CONFIDENCE, relations=[SameLength("preferences", "by")]
)
def error_case_shares(
    preferences: pd.DataFrame, *, by: ArrayLike | None = None, confidence: float = 0.95
) -> pd.DataFrame:
    """Each measure's share of the error cases, with Wilson intervals (Parker Figures 3 and 4).

    Parameters
    ----------
    preferences : pandas.DataFrame
        As for :func:`count_error_cases`.
    by : array-like or pandas.Series, optional
        A group label per comparison (e.g. "below median" / "above median"
        positive proportion, Figure 4): the shares are computed within each
        group. None: one group, "all".
    confidence : float, default 0.95
        Level of the Wilson intervals.

    Returns
    -------
    pandas.DataFrame
        One row per (group, measure): ``group``, ``measure``, ``error_cases``
        (that measure's), ``total`` (the group's error cases), ``share``
        (``error_cases / total``, NaN for a group without error cases) and the
        Wilson interval ``low``, ``high``.

    Examples
    --------
    >>> import pandas as pd
    >>> from apples.studies.parker import error_case_shares
    >>> p = pd.DataFrame({"AUC": [1, -1, 1, 0], "AP": [1, 1, 1, 1], "H": [1, 1, -1, 1]})
    >>> error_case_shares(p)[["measure", "error_cases", "total"]].values.tolist()
    [['AUC', 2, 3], ['AP', 0, 3], ['H', 1, 3]]
    """
    return _error_case_shares(preferences, None if by is None else np.asarray(by), confidence)


def _error_case_shares(preferences: pd.DataFrame, by: np.ndarray | None, confidence: float) -> pd.DataFrame:
    """:func:`error_case_shares` of a checked table and group labels."""
    import pandas as pd

    if by is None:
        groups = pd.Series("all", index=preferences.index)
    else:
        groups = pd.Series(np.asarray(by, dtype=object), index=preferences.index)
    odd = _odd_one_out(preferences)
    rows = []
    for group in pd.unique(groups):
        in_group = odd[(groups == group).to_numpy()]
        counts = in_group.value_counts().reindex(list(preferences.columns), fill_value=0)
        total = int(counts.sum())
        for measure, k in counts.items():
            low, high = _wilson(np.asarray(int(k)), np.asarray(total), confidence) if total else (np.nan, np.nan)
            share = k / total if total else np.nan
            rows.append({"group": group, "measure": measure, "error_cases": int(k), "total": total, "share": share,
                         "low": low, "high": high})  # fmt: skip
    return pd.DataFrame(rows)


@declare(
    comparisons=Frame(("clf_a", "clf_b")),
    preferences=_PREFERENCES,
    confidence=CONFIDENCE,
    relations=[_SameRows("comparisons", "preferences")],
)
def classifier_error_rates(
    comparisons: pd.DataFrame, preferences: pd.DataFrame, *, confidence: float = 0.95
) -> pd.DataFrame:
    """Per classifier, the share of its comparisons that are error cases, with Wilson intervals (Parker Figure 5).

    Parameters
    ----------
    comparisons : pandas.DataFrame
        One row per comparison with columns ``clf_a`` and ``clf_b`` (the two
        classifiers), aligned with ``preferences``.
    preferences : pandas.DataFrame
        As for :func:`count_error_cases`.
    confidence : float, default 0.95
        Level of the Wilson intervals.

    Returns
    -------
    pandas.DataFrame
        Indexed by classifier: ``comparisons`` (involving it, as either
        classifier), ``error_cases`` (of those, the ones with an odd measure),
        ``rate`` and the Wilson interval ``low``, ``high``.

    Examples
    --------
    >>> import pandas as pd
    >>> from apples.studies.parker import classifier_error_rates
    >>> c = pd.DataFrame({"clf_a": ["NB", "NB", "LR"], "clf_b": ["LR", "kNN", "kNN"]})
    >>> p = pd.DataFrame({"AUC": [1, -1, 1], "AP": [1, 1, 1], "H": [1, 1, 1]})
    >>> classifier_error_rates(c, p)["error_cases"].to_dict()
    {'LR': 0, 'NB': 1, 'kNN': 1}
    """
    return _classifier_error_rates(comparisons, preferences, confidence)


def _classifier_error_rates(comparisons: pd.DataFrame, preferences: pd.DataFrame, confidence: float) -> pd.DataFrame:
    """:func:`classifier_error_rates` of checked tables."""
    import pandas as pd

    is_error = _odd_one_out(preferences).notna().to_numpy()
    a, b = comparisons["clf_a"].to_numpy(), comparisons["clf_b"].to_numpy()
    rows = {}
    for clf in sorted(set(a.tolist()) | set(b.tolist()), key=str):
        involved = (a == clf) | (b == clf)
        n, k = int(involved.sum()), int((involved & is_error).sum())
        low, high = _wilson(np.asarray(k), np.asarray(n), confidence)
        rows[clf] = {"comparisons": n, "error_cases": k, "rate": k / n, "low": low, "high": high}
    return pd.DataFrame.from_dict(rows, orient="index")


@declare(
    comparisons=_Comparisons(),
    by=Options("pos_prop", "threshold_diff"),
    confidence=CONFIDENCE,
    relations=[_ColumnOf("comparisons", "by")],
)
def error_case_breakdown(
    comparisons: pd.DataFrame, *, by: Literal["pos_prop", "threshold_diff"], confidence: float = 0.95
) -> pd.DataFrame:
    """Error-case shares per measure below and above the median of ``by`` (Parker Figure 4).

    Parameters
    ----------
    comparisons : pandas.DataFrame
        One row per comparison with the measure columns of
        :data:`PARKER_MEASURES` and the column ``by``; e.g.
        :attr:`ExperimentResult.comparisons`.
    by : {"pos_prop", "threshold_diff"}
        ``"pos_prop"``: the positive proportion of the test data (Figure 4a);
        ``"threshold_diff"``: the difference in the number of unique scores of
        the two classifiers over the number of test cases (Figure 4b).
    confidence : float, default 0.95
        Level of the Wilson intervals.

    Returns
    -------
    pandas.DataFrame
        :func:`error_case_shares` with groups ``"below median"`` (values up to
        the median, which it includes) and ``"above median"``, and a column
        ``median``.

    Examples
    --------
    >>> import pandas as pd
    >>> from apples.studies.parker import PARKER_MEASURES, error_case_breakdown
    >>> c = pd.DataFrame({m: [1, 1, 1, 1] for m in PARKER_MEASURES})
    >>> c["AUC"] = [-1, 1, 1, -1]
    >>> c["pos_prop"] = [0.1, 0.2, 0.3, 0.4]
    >>> t = error_case_breakdown(c, by="pos_prop")
    >>> t[t.measure == "AUC"][["group", "error_cases", "total"]].values.tolist()
    [['below median', 1, 1], ['above median', 1, 1]]
    """
    return _error_case_breakdown(comparisons, by, confidence)


def _error_case_breakdown(comparisons: pd.DataFrame, by: str, confidence: float) -> pd.DataFrame:
    """:func:`error_case_breakdown` of a checked table."""
    values = comparisons[by].to_numpy(dtype=float)
    median = float(np.median(values))
    groups = np.where(values <= median, "below median", "above median")
    table = _error_case_shares(comparisons[list(PARKER_MEASURES)], groups, confidence)
    order = {"below median": 0, "above median": 1}
    table = table.sort_values("group", key=lambda g: g.map(order), kind="stable").reset_index(drop=True)
    table["median"] = median
    return table
