"""attainable_p_values against hand calculations, scipy's signed-rank and Friedman tests, scikit-posthocs' Nemenyi."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from apples.comparison import attainable_p_values, friedman_test
from apples.comparison.guidance import data_sets_needed, friedman_advice


def test_the_researchers_case_by_hand_4_models_7_data_sets():
    a = attainable_p_values(4, 7)
    # one signed-rank test on 7 differences, all of one sign: 2 of the 2^7 equally likely sign patterns
    assert a.wilcoxon == 2 / 2**7 == 0.015625
    # Holm multiplies the smallest of m p-values by m: 3 comparisons with one model, or all 6 pairs
    assert a.holm_control == 3 / 64 == 0.046875  # below 0.05: reachable
    assert a.holm_all_pairs == 6 / 64 == 0.09375  # the brief's "0.094": Holm over the 6 pairs, not over m - 1 = 3
    words = " ".join(a.sentences())
    assert "6 × 0.0156 = 0.094 > α = 0.05" in words and "no comparison can be significant" in words
    assert "3 × 0.0156 = 0.047 ≤ α = 0.05: reachable" in words
    assert "at least 8 data sets" in words  # 6 × 2/2^8 = 0.047 ≤ 0.05


@pytest.mark.parametrize("n", [*range(1, 14), 20, 30, 50])
def test_the_smallest_wilcoxon_p_is_scipys_p_when_every_data_set_favours_one_model(n):
    rng = np.random.default_rng(n)
    d = rng.permutation(np.arange(1, n + 1)) / 100.0  # distinct, all positive
    assert attainable_p_values(2, n).wilcoxon == pytest.approx(stats.wilcoxon(d).pvalue, rel=1e-12)
    if n <= 13:  # with ties scipy permutes signs exhaustively: the same bound
        tied = np.round(d * 3, 1) + 0.1
        assert attainable_p_values(2, n).wilcoxon == pytest.approx(stats.wilcoxon(tied).pvalue, rel=1e-12)


def test_beyond_50_data_sets_the_bound_is_scipys_normal_approximation():
    n = 64
    d = np.arange(1, n + 1) / 100.0
    assert attainable_p_values(2, n).wilcoxon == pytest.approx(stats.wilcoxon(d).pvalue, rel=1e-9)


@pytest.mark.parametrize("n", [4, 6, 7])
def test_no_sign_pattern_goes_below_the_bound(n):
    mags = np.arange(1, n + 1, dtype=float)
    smallest = min(stats.wilcoxon(mags * np.array(signs)).pvalue for signs in itertools.product([-1.0, 1.0], repeat=n))
    assert smallest == pytest.approx(attainable_p_values(2, n).wilcoxon, rel=1e-12)


@pytest.mark.parametrize(("k", "n"), [(3, 2), (4, 7), (5, 10)])
def test_friedman_and_nemenyi_bounds_are_reached_when_every_data_set_ranks_alike(k, n):
    import scikit_posthocs as sp

    table = np.tile(np.arange(k, 0, -1, dtype=float)[:, None], (1, n)) + np.arange(n) / 100.0
    a = attainable_p_values(k, n)
    assert a.friedman == pytest.approx(stats.friedmanchisquare(*table).pvalue, rel=1e-12)
    r = friedman_test(table)
    assert math.isinf(r.f_statistic) and r.f_p_value == 0.0 == a.iman_davenport
    nem = sp.posthoc_nemenyi_friedman(table.T).to_numpy()
    assert a.nemenyi == pytest.approx(nem[0, k - 1], rel=1e-6)


def test_two_models_have_no_friedman_and_one_test():
    a = attainable_p_values(2, 5)
    assert math.isnan(a.friedman) and math.isnan(a.iman_davenport)
    assert a.holm_control == a.holm_all_pairs == a.wilcoxon == 1 / 16
    assert "no comparison can be significant" in str(a) and "at least 6 data sets" in str(a)


@pytest.mark.parametrize(("m", "alpha", "needed"), [(1, 0.05, 6), (3, 0.05, 7), (6, 0.05, 8), (6, 0.01, 11)])
def test_data_sets_needed_by_hand(m, alpha, needed):
    assert m * 2.0 ** (1 - needed) <= alpha < m * 2.0 ** (1 - (needed - 1))
    assert data_sets_needed(m, alpha) == needed


def test_friedman_advice_names_iman_davenport_and_the_disagreement():
    text = friedman_advice(0.054, 0.040, 0.05)
    assert text.startswith("Report Iman & Davenport's F_F (p = 0.040)") and "§3.2.2" in text
    assert "they disagree" in text and "conservatism" in text
    assert "neither rejects" in friedman_advice(0.3, 0.2, 0.05)
    assert "both reject" in friedman_advice(0.01, 0.004, 0.05)
    # Demšar §3.2.2's rule of thumb for the χ² approximation: N > 10 and k > 5
    assert "approximations" in friedman_advice(0.054, 0.040, 0.05, 4, 7)
    assert "approximations" not in friedman_advice(0.054, 0.040, 0.05, 6, 11)


def test_renderings_and_bad_arguments():
    a = attainable_p_values(4, 7, alpha=0.1)
    assert "0.094 ≤ α = 0.1" in str(a)
    latex = a.to_latex(label="tab:attain")
    assert r"\label{tab:attain}" in latex and "\n\n" not in latex and "α" not in latex
    assert "<table>" in a._repr_html_()
    for bad, param in (
        ({"n_models": 1, "n_datasets": 5}, "n_models"),
        ({"n_models": 3, "n_datasets": 0}, "n_datasets"),
    ):
        with pytest.raises(ValueError) as err:
            attainable_p_values(**bad)
        assert err.value.param == param
    with pytest.raises(ValueError, match="label"):
        a.to_latex(label="has space")
