"""bayesian_correlated_t against baycomp's CorrelatedTTest (exact probabilities), and its 0/0."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import apples
from apples.comparison import bayesian_correlated_t


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    k=st.integers(2, 10),
    runs=st.integers(1, 4),
    rope=st.sampled_from([0.0, 0.005, 0.01, 0.05]),
    shift=st.floats(-0.05, 0.05),
)
def test_matches_baycomp_on_random_differences(seed, k, runs, rope, shift):
    import baycomp

    rng = np.random.default_rng(seed)
    d = rng.normal(shift, 0.03, size=runs * k)
    n = 100 * k  # k-fold on n cases: n_test = n/k, n_train = n − n/k; baycomp's 1/(k − 1) = n_test/n_train
    ours = bayesian_correlated_t(d.reshape(runs, k), rope=rope, n_train=n - n // k, n_test=n // k)
    # baycomp's difference is y − x: x = 0, y = d gives our A − B
    theirs = baycomp.CorrelatedTTest.probs(np.zeros(d.size), d, rope=rope, runs=runs)
    if rope == 0.0:
        np.testing.assert_allclose([ours.p_left, ours.p_right], theirs, rtol=1e-9, atol=1e-12)
        assert ours.p_rope == pytest.approx(0.0, abs=1e-12)
    else:
        np.testing.assert_allclose([ours.p_left, ours.p_rope, ours.p_right], theirs, rtol=1e-9, atol=1e-12)
    assert ours.p_left + ours.p_rope + ours.p_right == pytest.approx(1.0)
    assert ours.rho == pytest.approx(1 / k)


def test_antisymmetry_swaps_left_and_right():
    d = np.array([0.02, -0.01, 0.03, 0.015, 0.0])
    ab = bayesian_correlated_t(d, rope=0.01, n_train=80, n_test=20)
    ba = bayesian_correlated_t(-d, rope=0.01, n_train=80, n_test=20)
    assert (ab.p_left, ab.p_rope, ab.p_right) == pytest.approx((ba.p_right, ba.p_rope, ba.p_left), abs=1e-12)


def test_zero_variance_is_0_by_0():
    # baycomp puts all the mass on the mean here; the posterior's scale is 0/0, so apples applies its policy
    with pytest.raises(apples.UndefinedMetricError, match="undefined='nan'"):
        bayesian_correlated_t([0.01, 0.01, 0.01], rope=0.0, n_train=8, n_test=4)
    r = bayesian_correlated_t([0.0, 0.0, 0.0], rope=0.01, n_train=8, n_test=4, undefined="nan")
    assert math.isnan(r.p_left) and math.isnan(r.p_rope) and r.loc == 0.0


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="rope") as err:
        bayesian_correlated_t([0.1, 0.2], rope=-0.1, n_train=8, n_test=4)
    assert err.value.param == "rope"
    with pytest.raises(ValueError, match="diffs") as err:
        bayesian_correlated_t([0.1], rope=0.0, n_train=8, n_test=4)
    assert err.value.param == "diffs"


# -- ρ from the design ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("n", "k"), [(569, 10), (178, 10), (150, 3), (1797, 10), (1000, 7)])
def test_rho_is_one_over_k_exactly_and_the_probabilities_match_baycomp_whatever_n(n, k):
    import baycomp

    rng = np.random.default_rng(n + k)
    d = rng.normal(0.01, 0.02, size=3 * k)
    theirs = baycomp.CorrelatedTTest.probs(np.zeros(d.size), d, rope=0.01, runs=3)
    by_folds = bayesian_correlated_t(d, rope=0.01, n_folds=k)
    assert by_folds.rho == 1 / k
    np.testing.assert_allclose([by_folds.p_left, by_folds.p_rope, by_folds.p_right], theirs, rtol=1e-9, atol=1e-12)
    # the mean sizes of k-fold on n cases, real-valued: the same ρ up to rounding, the same probabilities
    by_sizes = bayesian_correlated_t(d, rope=0.01, n_train=n - n / k, n_test=n / k)
    assert by_sizes.rho == pytest.approx(1 / k, rel=1e-14)
    np.testing.assert_allclose([by_sizes.p_left, by_sizes.p_rope, by_sizes.p_right], theirs, rtol=1e-9, atol=1e-12)


def test_whole_case_sizes_were_the_0_1002_and_0_0984_of_the_two_scripts():
    d = np.array([0.01, 0.03, -0.01, 0.02, 0.0, 0.015, 0.02, 0.01, -0.005, 0.025])
    # 10-fold on 569 cases: folds of 57 (9 of them) and 56; a script rounding n_test up or down
    assert bayesian_correlated_t(d, rope=0.01, n_train=512, n_test=57).rho == pytest.approx(57 / 569)  # 0.1002
    assert bayesian_correlated_t(d, rope=0.01, n_train=513, n_test=56).rho == pytest.approx(56 / 569)  # 0.0984
    assert round(57 / 569, 4) == 0.1002 and round(56 / 569, 4) == 0.0984
    assert bayesian_correlated_t(d, rope=0.01, n_train=512.1, n_test=56.9).rho == pytest.approx(0.1, rel=1e-14)


def test_the_design_is_required_once():
    d = [0.1, 0.2, 0.15]
    for kwargs, param in (
        ({}, "n_folds"),
        ({"n_train": 8.0}, "n_test"),
        ({"n_test": 2.0}, "n_train"),
        ({"n_folds": 5, "n_train": 8.0, "n_test": 2.0}, "n_folds"),
    ):
        with pytest.raises(ValueError) as err:
            bayesian_correlated_t(d, rope=0.01, **kwargs)
        assert err.value.param == param
    with pytest.raises(ValueError) as err:
        bayesian_correlated_t(d, rope=0.01, n_folds=1)
    assert err.value.param == "n_folds"


def test_the_kernel_takes_fold_differences_and_the_designs_rho():
    from apples._kernels.comparison import correlated_t_probabilities, design_rho

    d = np.array([0.05, 0.0, 0.1, 0.05, 0.05])
    r = correlated_t_probabilities(d, design_rho(n_folds=5), 0.01)
    public = bayesian_correlated_t(d, rope=0.01, n_folds=5)
    assert (r.p_left, r.p_rope, r.p_right) == (public.p_left, public.p_rope, public.p_right)


def test_correlated_t_reads_aloud_and_exports():
    r = bayesian_correlated_t([0.05, 0.04, 0.06, 0.05, 0.07], rope=0.01, n_folds=5, names=["rf_x & co", "lr"])
    text = str(r)
    assert "ρ = 0.2000" in text and "rope ±0.01" in text and "rf_x & co practically better" in text
    assert r.p_right > 0.95 and "Decision: rf_x & co is practically better" in text
    latex = r.to_latex(caption="50% & more")
    assert r"rf\_x \& co" in latex and r"\caption{50\% \& more}" in latex
    assert "&amp;" in r._repr_html_() and "<b>" in r._repr_html_()
    assert r._fields[:7] == ("p_left", "p_rope", "p_right", "loc", "scale", "df", "rho")  # the fields others read


# -- the Bayesian signed-rank test ---------------------------------------------------------------------------
def _diffs(n, seed, ties=False):
    rng = np.random.default_rng(seed)
    d = rng.normal(0.005, 0.02, size=n)
    if ties:
        d = np.round(d, 2)  # ties and zeros, and sums equal to ±2·rope
    return d


@pytest.mark.parametrize("rope", [0.0, 0.01])
@pytest.mark.parametrize("n", [2, 3, 5, 7, 10])
@pytest.mark.parametrize("ties", [False, True])
def test_signed_rank_posterior_is_baycomps_sample_from_the_same_draws(n, rope, ties):
    import baycomp

    from apples._kernels.comparison import posterior_winners, signed_rank_posterior

    d = _diffs(n, seed=n, ties=ties)
    samples = 4000
    theirs = baycomp.SignedRankTest.sample(np.zeros(n), d, rope, nsamples=samples, random_state=7)
    # baycomp draws Dirichlet(0.5, 1, ..., 1) weights from RandomState(7): the same draws, our posterior
    weights = np.random.RandomState(7).dirichlet(np.r_[0.5, np.ones(n)], samples)  # baycomp's own generator
    ours = signed_rank_posterior(np.r_[0.0, d], weights, rope)
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)
    probs = baycomp.SignedRankTest.probs(np.zeros(n), d, rope, nsamples=samples, random_state=7)
    wins = posterior_winners(ours) / samples
    expected = probs if rope > 0 else (probs[0], 0.0, probs[1])
    np.testing.assert_allclose(wins, expected, rtol=0, atol=1e-12)


def test_signed_rank_by_hand():
    from apples._kernels.comparison import signed_rank_posterior

    # z = (0, 0.1, -0.3), w = (0.2, 0.3, 0.5): pairs with z_i + z_j > 0 are (0,1) twice, (1,1), and (0,0) = 0 half
    w = np.array([[0.2, 0.3, 0.5]])
    theta = signed_rank_posterior(np.array([0.0, 0.1, -0.3]), w, 0.0)[0]
    right = 2 * 0.2 * 0.3 + 0.3**2 + 0.5 * 0.2**2
    assert theta[2] == pytest.approx(right) == pytest.approx(0.23)
    # dyadic z and rope 1/8, so that the sums on the edges ±2·rope = ±1/4 are exact: each counts 1/2
    # sums: (1,1) = 1/4 edge; (1,2) = -1/4 edge, twice; (0,2) = -3/8, twice; (2,2) = -3/4
    theta = signed_rank_posterior(np.array([0.0, 0.125, -0.375]), w, 0.125)[0]
    assert theta[2] == pytest.approx(0.5 * 0.3**2)
    assert theta[0] == pytest.approx(2 * 0.2 * 0.5 + 0.5 * 2 * 0.3 * 0.5 + 0.5**2) == pytest.approx(0.6)
    assert theta.sum() == pytest.approx(1.0)


@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_signed_rank_matches_baycomps_two_on_multiple_within_monte_carlo_error(rope):
    import baycomp

    from apples.comparison import bayesian_signed_rank

    d = np.array([0.021, 0.013, 0.030, 0.008, -0.004, 0.017, 0.025])
    samples = 20_000
    ours = bayesian_signed_rank(d, rope=rope, seed=1, n_samples=samples)
    # two_on_multiple returns (p_left, p_rope, p_right) even for rope 0 (p_rope = 0 then)
    theirs = baycomp.two_on_multiple(np.zeros(d.size), d, rope, nsamples=samples, random_state=2)
    # two independent Monte Carlo estimates: the difference has SE ≤ √2·0.5/√S = 0.0035; 5 SE
    tolerance = 5 * math.sqrt(2) * 0.5 / math.sqrt(samples)
    np.testing.assert_allclose([ours.p_left, ours.p_rope, ours.p_right], theirs, rtol=0, atol=tolerance)
    assert ours.monte_carlo_se() <= 0.5 / math.sqrt(samples)


def test_signed_rank_is_reproducible_and_does_not_depend_on_the_block_size(monkeypatch):
    from apples.comparison import bayes, bayesian_signed_rank

    d = _diffs(9, seed=3)
    one = bayesian_signed_rank(d, rope=0.005, seed=11, n_samples=3001)
    monkeypatch.setattr(bayes, "_BLOCK_VALUES", 50)  # blocks of 5 draws
    again = bayesian_signed_rank(d, rope=0.005, seed=11, n_samples=3001)
    assert one == again
    assert bayesian_signed_rank(d, rope=0.005, seed=12, n_samples=3001) != one
    from_generator = bayesian_signed_rank(d, rope=0.005, seed=np.random.default_rng(11), n_samples=3001)
    assert from_generator[:3] == one[:3] and from_generator.seed is None


def test_signed_rank_antisymmetry_and_ties():
    from apples.comparison import bayesian_signed_rank

    d = _diffs(6, seed=5)
    ab = bayesian_signed_rank(d, rope=0.01, seed=4, n_samples=5000)
    ba = bayesian_signed_rank(-d, rope=0.01, seed=4, n_samples=5000)
    assert (ab.p_left, ab.p_rope, ab.p_right) == pytest.approx((ba.p_right, ba.p_rope, ba.p_left), abs=1 / 5000)
    # every difference 0, rope 0: θ_left = θ_right = 1/2 in every draw; baycomp's argmax gives all to the left
    zero = bayesian_signed_rank(np.zeros(5), rope=0.0, seed=0, n_samples=1000)
    assert (zero.p_left, zero.p_rope, zero.p_right) == (0.5, 0.0, 0.5)
    zero_rope = bayesian_signed_rank(np.zeros(5), rope=0.01, seed=0, n_samples=1000)
    assert zero_rope.p_rope == 1.0


def test_signed_rank_reads_aloud_and_refuses_bad_input():
    from apples.comparison import bayesian_signed_rank

    r = bayesian_signed_rank([0.03, 0.02, 0.04, 0.05, 0.03, 0.02, 0.04, 0.06], rope=0.01, names=("new $x$", "old"))
    text = str(r)
    assert "over 8 data sets" in text and "50,000 posterior draws (seed 0)" in text and "new $x$" in text
    assert r"new \$x\$" in r.to_latex() and "\n\n" not in r.to_latex()
    for bad, param in (
        ({"diffs": [0.1]}, "diffs"),
        ({"diffs": [[0.1, 0.2], [0.3, 0.4]]}, "diffs"),
        ({"diffs": [0.1, 0.2], "rope": -0.1}, "rope"),
        ({"diffs": [0.1, 0.2], "prior_strength": 0.0}, "prior_strength"),
        ({"diffs": [0.1, 0.2], "names": ["a", "a"]}, "names"),
    ):
        kwargs = {"rope": 0.0, **bad}
        with pytest.raises(ValueError) as err:
            bayesian_signed_rank(**kwargs)
        assert err.value.param == param


def test_the_hierarchical_test_is_not_offered_because_pystan_is_not_importable():
    import importlib.util

    from apples.comparison import bayes

    assert importlib.util.find_spec("stan") is None  # baycomp.HierarchicalTest imports `stan` (pystan >= 3)
    assert "pystan" in bayes.__doc__ and "not offered" in " ".join(bayes.bayesian_signed_rank.__doc__.split())
    assert not hasattr(bayes, "bayesian_hierarchical")


def test_a_comparison_of_predictions_gives_baycomps_correlated_t_with_rho_from_the_design():
    """compare(...).bayesian(rope): the fold differences of a 10 × 3 repeated k-fold study, ρ = 1/10 from the design
    (not from rounded sizes), against baycomp's CorrelatedTTest with runs=3."""
    import baycomp
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import RepeatedStratifiedKFold
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_breast_cancer(return_X_y=True)
    cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=3, random_state=0)
    a = apples.cross_val_predictions(make_pipeline(StandardScaler(), LogisticRegression()), X, y, cv=cv)
    b = apples.cross_val_predictions(GaussianNB(), X, y, cv=cv)
    c = apples.compare(a, b, measures=["accuracy:avg", "f_measure"], names=["lr", "nb"])
    results = c.bayesian(0.01)
    assert len(results) == 2 and all(r.rho == 0.1 and r.names == ("lr", "nb") for r in results)
    for r, d in zip(results, c.fold_differences, strict=True):
        right, rope, left = baycomp.CorrelatedTTest(d, np.zeros_like(d), rope=0.01, runs=3).probs()
        np.testing.assert_allclose([r.p_left, r.p_rope, r.p_right], [left, rope, right], rtol=1e-9, atol=1e-12)
    assert c.bayesian(0.01, measure="f_measure:tp_fp") == results[1:]
    with pytest.raises(ValueError, match="accuracy:pooled") as err:
        c.bayesian(0.01, measure="accuracy:pooled")
    assert err.value.param == "measure"
