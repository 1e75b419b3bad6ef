"""Friedman, Nemenyi, Wilcoxon–Holm and the CD diagram against scikit-posthocs, autorank, scipy and Demšar (2006)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import apples
from apples.comparison import friedman_test, nemenyi, plot_critical_difference, wilcoxon_holm


def _table(k=4, n=12, seed=0, ties=False):
    rng = np.random.default_rng(seed)
    values = rng.random((k, n)) + np.linspace(0.3, 0, k)[:, None]
    if ties:
        values = np.round(values * 4) / 4  # many ties within data sets
    return pd.DataFrame(values, index=[f"m{i}" for i in range(k)], columns=[f"d{j}" for j in range(n)])


def test_demsar_critical_difference_and_iman_davenport_of_his_worked_example():
    # Demšar (2006) §3.2.4: k = 4, N = 14, χ²_F = 9.28, F_F = 3.69, q_0.05 = 2.569, CD = 1.25
    from apples._kernels.comparison import critical_difference, iman_davenport

    f, df1, df2, _ = iman_davenport(9.28, 4, 14)
    assert round(f, 2) == 3.69 and (df1, df2) == (3, 39)
    q, cd = critical_difference(4, 14, 0.05)
    assert round(q, 3) == 2.569 and round(cd, 2) == 1.25
    # Table 5(a), α = 0.10, k = 4: q = 2.291
    assert round(critical_difference(4, 14, 0.10)[0], 3) == 2.291


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_friedman_matches_scipy_and_the_iman_davenport_formula(seed, ties):
    table = _table(k=5, n=10, seed=seed, ties=ties)
    r = friedman_test(table)
    expected = stats.friedmanchisquare(*table.to_numpy())
    assert r.statistic == pytest.approx(expected.statistic, rel=1e-12)
    assert r.p_value == pytest.approx(expected.pvalue, rel=1e-12)
    k, n = 5, 10
    f = (n - 1) * expected.statistic / (n * (k - 1) - expected.statistic)
    assert r.f_statistic == pytest.approx(f, rel=1e-12)
    assert r.f_p_value == pytest.approx(stats.f.sf(f, k - 1, (k - 1) * (n - 1)), rel=1e-9)


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("seed", [0, 3])
def test_average_ranks_and_cd_match_autorank(seed, ties):
    import autorank

    table = _table(k=4, n=20, seed=seed, ties=ties)
    result = autorank.autorank(table.T, alpha=0.05, verbose=False, force_mode="nonparametric")
    ours = nemenyi(table)
    # autorank ranks descending values with rank 1 = best and reports mean ranks
    pd.testing.assert_series_equal(
        ours.average_ranks.sort_index(), result.rankdf.meanrank.sort_index(), check_names=False, check_index_type=False
    )
    # autorank takes q from statsmodels' qsturng, Gleason's (1999) approximation of the studentized range
    # (accurate to about 1e-5); scipy's studentized_range integrates it
    assert ours.critical_difference == pytest.approx(result.cd, rel=2e-5)


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("seed", [0, 4, 5])
def test_nemenyi_p_values_match_scikit_posthocs(seed, ties):
    import scikit_posthocs as sp

    table = _table(k=5, n=15, seed=seed, ties=ties)
    expected = sp.posthoc_nemenyi_friedman(table.T.to_numpy())
    got = nemenyi(table).p_values.to_numpy()
    np.testing.assert_allclose(got, expected.to_numpy(), rtol=1e-6, atol=1e-12)


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("seed", [0, 6])
def test_wilcoxon_holm_matches_scikit_posthocs(seed, ties):
    import scikit_posthocs as sp

    table = _table(k=4, n=12, seed=seed, ties=ties)
    long = table.T.melt(var_name="model", value_name="score")
    for p_adjust, column in ((None, "p_values"), ("holm", "p_holm")):
        expected = sp.posthoc_wilcoxon(long, val_col="score", group_col="model", p_adjust=p_adjust, sort=False)
        expected = expected.loc[table.index, table.index].to_numpy()
        got = getattr(wilcoxon_holm(table), column).to_numpy()
        np.testing.assert_allclose(got, expected, rtol=1e-9)


def test_lower_is_better_reverses_the_ranks():
    table = _table(k=3, n=6, seed=7)
    up = friedman_test(table).average_ranks
    down = friedman_test(table, greater_is_better=False).average_ranks
    np.testing.assert_allclose(up + down, 4.0)  # k + 1


def test_zero_by_zero_every_model_ties_on_every_data_set():
    same = np.ones((3, 5))
    with pytest.raises(apples.UndefinedMetricError, match="undefined='nan'"):
        friedman_test(same)
    assert math.isnan(friedman_test(same, undefined="nan").statistic)
    twin = np.array([[0.5, 0.6, 0.7, 0.8], [0.5, 0.6, 0.7, 0.8], [0.4, 0.7, 0.1, 0.2]])
    with pytest.raises(apples.UndefinedMetricError):
        wilcoxon_holm(twin)
    r = wilcoxon_holm(twin, undefined="nan")
    assert math.isnan(r.p_values.iloc[0, 1]) and math.isnan(r.p_holm.iloc[0, 1])
    assert not math.isnan(r.p_holm.iloc[0, 2])


def test_bad_tables_are_refused_naming_scores():
    for bad in ([[1.0, 2.0]], [1.0, 2.0, 3.0], [[1.0, np.nan], [2.0, 3.0]]):
        with pytest.raises(ValueError, match="scores") as err:
            nemenyi(bad)
        assert err.value.param == "scores"
    with pytest.raises(ValueError, match="at least three"):
        friedman_test([[0.1, 0.2], [0.3, 0.4]])


def test_plot_critical_difference_draws_on_the_given_axes():
    plt = pytest.importorskip("matplotlib.pyplot")
    fig, ax = plt.subplots()
    table = _table(k=5, n=14, seed=8)
    returned = plot_critical_difference(table, ax=ax)
    assert returned is ax
    texts = [t.get_text() for t in ax.texts]
    cd = nemenyi(table).critical_difference
    assert f"CD = {cd:.2f}" in texts
    assert sum(any(t.startswith(name + " (") for t in texts) for name in table.index) == 5
    plt.close(fig)


def test_cliques_join_exactly_the_runs_within_the_critical_difference():
    from apples.comparison.plots import _cliques

    ranks = np.array([1.0, 1.5, 3.0, 3.2, 4.9])
    assert _cliques(ranks, 1.0) == [(0, 1), (2, 3)]
    assert _cliques(ranks, 2.1) == [(0, 2), (1, 3), (2, 4)]


# -- the results read aloud -----------------------------------------------------------------------------------
#: The researcher's ranks: 4 models on 7 data sets, rank sums 10, 17, 21, 22 (no ties).
RESEARCHER_RANKS = np.array(
    [[1, 3, 1, 1, 2, 1, 1], [3, 2, 2, 3, 1, 4, 2], [4, 1, 3, 4, 4, 2, 3], [2, 4, 4, 2, 3, 3, 4]], dtype=float
)
MODELS = ["logistic_regression", "gaussian NB & co", "random forest {100}", "calibrated SVC $\\ell_2$"]


def researcher_table():
    values = 0.95 - 0.01 * RESEARCHER_RANKS + np.linspace(0, 0.03, 7)[None, :]
    return pd.DataFrame(values, index=MODELS, columns=[f"data_{j}" for j in range(7)])


def test_the_researchers_friedman_and_iman_davenport_disagree_at_0_05_and_the_text_says_which_to_report():
    r = friedman_test(researcher_table())
    # by hand: χ²_F = 12N/(k(k+1)) Σ R_j² − 3N(k+1) with R = (10, 17, 21, 22)/7
    chi2 = 12 * 7 / 20 * np.sum((np.array([10, 17, 21, 22]) / 7) ** 2) - 3 * 7 * 5
    f = 6 * chi2 / (7 * 3 - chi2)
    assert r.statistic == pytest.approx(chi2, rel=1e-12) and r.f_statistic == pytest.approx(f, rel=1e-12)
    assert round(r.p_value, 3) == 0.054 and round(r.f_p_value, 3) == 0.040
    assert r.f_p_value == pytest.approx(stats.f.sf(f, 3, 18), rel=1e-9)
    text = str(r)
    assert "p = 0.054" in text and "p = 0.040" in text and "Report Iman & Davenport's F_F" in text
    assert "they disagree" in text and "§3.2.2" in text
    assert r._fields[:9] == (
        "statistic", "p_value", "f_statistic", "f_p_value", "df1", "df2", "average_ranks", "n_models", "n_datasets"
    )  # fmt: skip


def test_wilcoxon_holm_says_no_pair_can_reach_alpha_with_7_data_sets():
    table = researcher_table()
    r = wilcoxon_holm(table)
    # logistic_regression beats SVC on every data set: the smallest p of 7 differences, exactly
    assert r.p_values.iloc[0, 3] == pytest.approx(2 / 2**7)
    assert r.p_holm.iloc[0, 3] == pytest.approx(min(1.0, 6 * 2 / 2**7))
    assert not r.different.to_numpy().any()
    assert (np.triu(r.n_nonzero.to_numpy(), 1)[np.triu_indices(4, 1)] == 7).all() and r.n_datasets == 7
    text = str(r)
    assert "6 × 0.0156 = 0.094 > α = 0.05" in text and "no comparison can be significant" in text
    assert r._fields[:5] == ("average_ranks", "p_values", "p_holm", "alpha", "different")


def test_zero_differences_lower_a_pairs_n_and_the_text_says_so():
    table = np.array([[0.9, 0.8, 0.7, 0.6, 0.5], [0.9, 0.7, 0.6, 0.5, 0.4], [0.1, 0.2, 0.3, 0.2, 0.1]])
    r = wilcoxon_holm(table)
    assert r.n_nonzero.iloc[0, 1] == 4 and r.n_nonzero.iloc[0, 2] == 5
    assert r.p_values.iloc[0, 1] == pytest.approx(stats.wilcoxon(table[0], table[1]).pvalue)
    assert "tie on some data sets" in str(r)


def test_nemenyi_reads_the_pairs_at_least_one_cd_apart():
    r = nemenyi(researcher_table())
    cd = r.critical_difference
    assert cd == pytest.approx(2.569 * math.sqrt(4 * 5 / (6 * 7)), rel=2e-4)  # Demšar Table 5(a), q_0.05 = 2.569
    text = str(r)
    assert f"CD = {cd:.3f}" in text and "over 7 data sets" in text
    gap = (22 - 10) / 7  # logistic_regression and SVC
    assert gap < cd and "No two average ranks differ by the critical difference" in text
    assert r._fields[:5] == ("average_ranks", "critical_difference", "q_alpha", "alpha", "p_values")


@pytest.mark.parametrize("result", ["friedman", "nemenyi", "wilcoxon"])
def test_hostile_model_names_are_escaped_in_html_and_latex(result):
    names = ["<script>x</script>", "a_b & 50%", "x\n\ny", "#{~^}\\"]
    rng = np.random.default_rng(1)
    table = pd.DataFrame(rng.random((4, 8)), index=names)
    r = {"friedman": friedman_test, "nemenyi": nemenyi, "wilcoxon": wilcoxon_holm}[result](table)
    html = r._repr_html_()
    assert "<script>" not in html and "&lt;script&gt;" in html
    latex = r.to_latex(label="tab:r")
    assert "\n\n" not in latex and "<script>" not in latex
    if result != "friedman":  # its table has no names; the ranks note has them
        assert r"a\_b \& 50\%" in latex
    assert r"\#\{\textasciitilde{}\textasciicircum{}\}\textbackslash{}" in latex
    opened = latex.count("{") - latex.count(r"\{")
    closed = latex.count("}") - latex.count(r"\}")
    assert opened == closed  # every brace of a name escaped, ours balanced
    assert "x y" in str(r)  # a blank line in a name is one space in the text
