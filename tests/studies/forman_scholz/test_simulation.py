"""Tests of apples.simulation: the Forman & Scholz §4.2 simulation, vectorised."""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import apples
from apples import Counts, cv_f_measure
from apples._kernels.f_measure import fold_sums
from apples._kernels.fold_model import OutcomeTables
from apples.cv import F_AGGREGATIONS
from apples.studies import forman_scholz as fs
from apples.studies.forman_scholz import sample_cv_f, simulate_cv_f
from apples.studies.forman_scholz.simulation import _draw, _draw_outcomes, _estimates, _outcomes
from apples.theory import fold_positives, simulation_design


def _reference(pos, neg, tp, fp):
    """cv_f_measure of every F aggregation on one fold table (NaN where a skip aggregation leaves out every fold)."""
    folds = [
        Counts.from_fold(positives=int(p), negatives=int(n), tp=int(a), fp=int(b))
        for p, n, a, b in zip(pos, neg, tp, fp, strict=True)
    ]
    return np.array([cv_f_measure(folds, method=a.method, undefined=a.undefined) for a in F_AGGREGATIONS.values()])


# --------------------------------------------------------------------------- semantics
@settings(max_examples=40)
@given(
    n_folds=st.integers(2, 5),
    fold_size=st.integers(2, 8),
    n_pos_frac=st.floats(0.05, 0.6),
    f_true=st.floats(0.3, 1.0),
    stratified=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_sampled_estimates_equal_cv_f_measure(n_folds, fold_size, n_pos_frac, f_true, stratified, seed):
    """Vectorised per-repetition estimates = apples.cv_f_measure on the same sampled Counts, bit for bit."""
    n_cases = n_folds * fold_size
    n_pos = min(max(1, round(n_pos_frac * n_cases)), n_cases - 1)
    prior = n_pos / n_cases
    try:
        design = simulation_design(prior, f_true, n_cases=n_cases, n_folds=n_folds)
    except ValueError:  # no classifier with precision = recall = f_true (fpr > 1)
        return
    est = _estimates(_draw(design, stratified, np.random.SeedSequence(seed), 30))
    positives, idx = _draw_outcomes(design, stratified, np.random.SeedSequence(seed), 30)
    tables = _outcomes(design, stratified)
    tp, fp, pos = (np.asarray(a)[idx.T] for a in (tables.tp, tables.fp, tables.p))
    assert (pos == positives).all()
    assert (pos.sum(axis=1) == design.n_pos).all()
    for r in range(est.shape[0]):
        ref = _reference(pos[r], fold_size - pos[r], tp[r], fp[r])
        np.testing.assert_array_equal(est[r], ref)  # one kernel (cv_f) for both: the same bits


@settings(max_examples=150)
@given(data=st.data(), n_folds=st.integers(1, 6), fold_size=st.integers(1, 6))
def test_lookup_tables_and_estimates_on_arbitrary_fold_tables(data, n_folds, fold_size):
    """Any fold table, including all-invalid ones: the outcome at its flat index + _estimates = cv_f_measure."""
    n_cases = n_folds * fold_size
    pos = np.array(data.draw(st.lists(st.integers(0, fold_size), min_size=n_folds, max_size=n_folds)))
    if pos.sum() == 0:
        pos[0] = 1
    tp = np.array([data.draw(st.integers(0, p)) for p in pos])
    fp = np.array([data.draw(st.integers(0, fold_size - p)) for p in pos])
    n_pos = int(pos.sum())
    design = apples.theory.SimulationDesign(n_cases, max(n_folds, 2), fold_size, n_pos, n_cases - n_pos, 0.5, 0.5, 0.1)
    tables = OutcomeTables(fold_size, np.arange(fold_size + 1), recall=design.recall, fpr=design.fpr)
    offset = np.concatenate([[0], np.cumsum([(p + 1) * (fold_size - p + 1) for p in range(fold_size + 1)])])
    assert (tables.alias.offset == offset[:-1]).all()  # the alias tables index the outcomes the same way
    idx = offset[pos] + tp * (fold_size - pos + 1) + fp
    assert (tables.tp[idx] == tp).all() and (tables.fp[idx] == fp).all() and (tables.p[idx] == pos).all()
    est = _estimates(fold_sums(tables.tp[idx][None, :], tables.fp[idx][None, :], (pos - tables.tp[idx])[None, :]))
    np.testing.assert_array_equal(est[0], _reference(pos, fold_size - pos, tp, fp))


def test_outcome_table_probabilities_are_binomial_products():
    d = simulation_design(0.05, 0.7, n_cases=200, n_folds=10)
    t = OutcomeTables(d.fold_size, [0, 1, 3], recall=d.recall, fpr=d.fpr)
    for p in (0, 1, 3):
        sel = t.p == p
        expected = [
            math.comb(p, a)
            * d.recall**a
            * (1 - d.recall) ** (p - a)
            * math.comb(20 - p, b)
            * d.fpr**b
            * (1 - d.fpr) ** (20 - p - b)
            for a, b in zip(t.tp[sel].tolist(), t.fp[sel].tolist(), strict=True)
        ]
        np.testing.assert_allclose(t.pmf[sel], expected, rtol=1e-12, atol=1e-300)
        assert math.isclose(t.pmf[sel].sum(), 1.0, rel_tol=1e-12)


# --------------------------------------------------------------------------- the design
def test_fpr_gives_ground_truth_precision_equal_to_f():
    for prior, f in [(0.01, 0.8), (0.05, 0.6), (0.25, 0.95), (0.5, 0.5)]:
        d = simulation_design(prior, f)
        expected_tp, expected_fp = d.recall * d.n_pos, d.fpr * d.n_neg
        assert math.isclose(expected_tp / (expected_tp + expected_fp), f, rel_tol=1e-12)
        assert d.recall == f
        assert math.isclose(d.fpr, prior * (1 - f) / (1 - prior), rel_tol=1e-12)


def test_prior_rounds_half_up():
    assert simulation_design(0.0125, 0.8).n_pos == 13
    assert simulation_design(0.0124, 0.8).n_pos == 12


# --------------------------------------------------------------------------- fold allocation
@pytest.mark.parametrize(
    "n_pos,n_folds,n_cases", [(10, 10, 1000), (25, 10, 1000), (3, 10, 1000), (0, 5, 50), (47, 4, 100), (1000, 10, 1000)]
)
def test_stratified_allocation_counts(n_pos, n_folds, n_cases):
    alloc = fold_positives(n_pos, n_cases=n_cases, n_folds=n_folds, stratified=True, n_reps=3)
    assert alloc.shape == (3, n_folds)
    row = alloc[0]
    q, r = divmod(n_pos, n_folds)
    assert row.sum() == n_pos
    assert row.max() - row.min() <= 1
    assert sorted(row.tolist()) == [q] * (n_folds - r) + [q + 1] * r
    assert (row <= n_cases // n_folds).all()
    assert (alloc == row).all()


@pytest.mark.parametrize(
    "n_pos,n_cases,n_folds", [(10, 1000, 10), (50, 1000, 10), (250, 1000, 10), (700, 1000, 10), (7, 60, 3)]
)
def test_unstratified_fold_positives_are_hypergeometric(n_pos, n_cases, n_folds):
    n = 100_000
    alloc = fold_positives(n_pos, n_cases=n_cases, n_folds=n_folds, stratified=False, n_reps=n, seed=7)
    m = n_cases // n_folds
    assert (alloc.sum(axis=1) == n_pos).all() and (alloc >= 0).all() and (alloc <= m).all()
    mean, var = stats.hypergeom(n_cases, n_pos, m).stats(moments="mv")
    for j in range(n_folds):
        x = alloc[:, j]
        assert abs(x.mean() - mean) < 4 * math.sqrt(var / n)
        # variance of the sample variance ≈ (μ4 − σ⁴)/n; bound it by 4 SE with the sample's own 4th moment
        mu4 = ((x - x.mean()) ** 4).mean()
        assert abs(x.var(ddof=1) - var) < 4 * math.sqrt((mu4 - var**2) / n)
    # folds are negatively correlated: the counts sum to n_pos, so Cov = −Var/(k − 1)
    c = np.cov(alloc[:, 0], alloc[:, 1])[0, 1]
    assert abs(c + var / (n_folds - 1)) < 0.05 * var
    # and the whole distribution of one fold's count matches (chi-square on bins with enough mass)
    support = np.arange(m + 1)
    expected = stats.hypergeom.pmf(support, n_cases, n_pos, m) * n
    observed = np.bincount(alloc[:, 0], minlength=m + 1)
    big = expected >= 20
    obs = np.append(observed[big], observed[~big].sum())
    exp = np.append(expected[big], expected[~big].sum())
    if exp[-1] < 5:
        obs, exp = obs[:-1], exp[:-1] * obs[:-1].sum() / exp[:-1].sum()
    assert stats.chisquare(obs, exp).pvalue > 1e-4


# --------------------------------------------------------------------------- results
def test_deterministic_for_a_seed_and_independent_of_n_jobs():
    a = simulate_cv_f(0.03, 0.7, stratified=False, n_reps=60_000, seed=5)
    b = simulate_cv_f(0.03, 0.7, stratified=False, n_reps=60_000, seed=5, n_jobs=2)
    c = simulate_cv_f(0.03, 0.7, stratified=False, n_reps=60_000, seed=6)
    pd.testing.assert_frame_equal(a, b, check_exact=True)
    assert not a["mean"].equals(c["mean"])
    s1 = sample_cv_f(0.03, 0.7, stratified=True, n_reps=1000, seed=5)
    s2 = sample_cv_f(0.03, 0.7, stratified=True, n_reps=1000, seed=5)
    pd.testing.assert_frame_equal(s1, s2, check_exact=True)


def test_summary_agrees_with_the_samples():
    """simulate_cv_f's streamed moments equal those of sample_cv_f's rows (same seed, same draws)."""
    kw = dict(stratified=False, n_reps=70_000, seed=11, n_cases=200, n_folds=10)
    table = simulate_cv_f(0.02, 0.6, **kw)
    est = sample_cv_f(0.02, 0.6, **kw)
    assert table["n_undefined"].tolist() == est.isna().sum().tolist()
    assert table.loc[["avg", "pr_re", "tp_fp"], "n_undefined"].eq(0).all()
    assert table.loc["avg_skip", "n_undefined"] > 0
    np.testing.assert_allclose(table["mean"], est.mean(), rtol=1e-12)
    np.testing.assert_allclose(table["std"], est.std(ddof=1), rtol=1e-9)
    np.testing.assert_allclose(table["bias"], est.mean() - 0.6, rtol=1e-9)
    np.testing.assert_allclose(table["relative_bias"], (est.mean() - 0.6) / 0.6, rtol=1e-9)
    np.testing.assert_allclose(table["relative_std"], est.std(ddof=1) / 0.6, rtol=1e-9)
    np.testing.assert_allclose(table["sem"], est.std(ddof=1) / np.sqrt(est.notna().sum()), rtol=1e-9)


def test_skip_methods_undefined_at_the_hand_computed_rate():
    """20 cases, 10 folds of 2, 2 positives, F = 0.5: stratified, two folds hold one positive each.

    Hand calculation: fpr = 2·0.5/18 = 1/18. A fold with 1 positive and 1
    negative is invalid iff TP = FP = 0: probability 0.5 · 17/18. Folds without
    positives are always invalid, so no fold is valid with probability (0.5·17/18)².
    """
    n = 100_000
    t = simulate_cv_f(0.1, 0.5, stratified=True, n_reps=n, n_cases=20, n_folds=10, seed=3)
    q = (0.5 * 17 / 18) ** 2
    for method in ("avg_skip", "pr_re_skip"):
        assert abs(t.loc[method, "n_undefined"] / n - q) < 4 * math.sqrt(q * (1 - q) / n)


def test_perfect_classifier():
    """f_true = 1: TP = positives and FP = 0 in every fold (hand calculation)."""
    t = simulate_cv_f(0.02, 1.0, stratified=True, n_reps=2000)
    assert (t["mean"] == 1.0).all() and (t["std"] == 0.0).all()
    # unstratified: a fold without positives is invalid (F, Pr, Re := 0), every other fold scores 1,
    # so F_avg = F_pr,re = fraction of folds with positives, and it is < 1 exactly when a fold is empty
    n = 20_000
    est = sample_cv_f(0.02, 1.0, stratified=False, n_reps=n, seed=1)
    assert (est[["tp_fp", "avg_skip", "pr_re_skip"]] == 1.0).all().all()
    np.testing.assert_allclose(est["avg"], est["pr_re"], rtol=1e-15)
    tenths = est["avg"] * 10
    assert np.allclose(tenths, np.round(tenths)) and tenths.min() >= 2
    q = apples.theory.p_fold_without_positives(20)
    assert abs((est["avg"] < 1).mean() - q) < 4 * math.sqrt(q * (1 - q) / n)


def test_columns_and_attrs():
    t = simulate_cv_f(0.05, 0.8, stratified=True, n_reps=100)
    assert list(t.index) == list(F_AGGREGATIONS)
    assert list(t.columns) == ["mean", "std", "bias", "relative_bias", "relative_std", "sem", "n_undefined"]
    assert t.attrs["design"].n_pos == 50 and t.attrs["n_reps"] == 100


def test_single_repetition_has_undefined_std():
    t = simulate_cv_f(0.05, 0.8, stratified=True, n_reps=1)
    assert t["std"].isna().all() and t["mean"].notna().all()


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "kwargs,exc,match",
    [
        (dict(prior=0.0), ValueError, "prior"),
        (dict(prior=1.0), ValueError, "prior"),
        (dict(prior=-0.1), ValueError, "prior"),
        (dict(prior=1.5), ValueError, "prior"),
        (dict(prior=float("nan")), ValueError, "prior"),
        (dict(prior="0.1"), TypeError, "prior"),
        (dict(prior=True), TypeError, "prior"),
        (dict(f_true=0.0), ValueError, "f_true"),
        (dict(f_true=-0.5), ValueError, "f_true"),
        (dict(f_true=1.01), ValueError, "f_true"),
        (dict(f_true=None), TypeError, "f_true"),
        (dict(n_folds=7), ValueError, "does not divide"),
        (dict(n_folds=1), ValueError, "n_folds"),
        (dict(n_folds=2.0), TypeError, "n_folds"),
        (dict(n_cases=-10), ValueError, "n_cases"),
        (dict(n_cases=5, n_folds=10), ValueError, "n_cases"),
        (dict(n_reps=0), ValueError, "n_reps"),
        (dict(n_reps=-3), ValueError, "n_reps"),
        (dict(n_reps=10.0), TypeError, "n_reps"),
        (dict(stratified="yes"), TypeError, "stratified"),
        (dict(seed=-1), ValueError, "seed"),
        (dict(n_jobs=0), ValueError, "n_jobs"),
        (dict(n_jobs=1.5), TypeError, "n_jobs"),
        (dict(prior=0.0001), ValueError, "rounds to 0 positives"),
        (dict(prior=0.9, f_true=0.5), ValueError, "false positive rate"),
    ],
)
@pytest.mark.parametrize("func", [simulate_cv_f, sample_cv_f])
def test_bad_input(func, kwargs, exc, match):
    args = dict(prior=0.05, f_true=0.8, stratified=True, n_reps=10)
    args.update(kwargs)
    prior, f_true = args.pop("prior"), args.pop("f_true")
    with pytest.raises(exc, match=match):
        func(prior, f_true, **args)


def test_simulate_grid_checks_each_point_naming_its_row():
    points = pd.DataFrame({"prior": [0.01, 0.0001], "f_true": [0.8, 0.8], "stratified": [True, False]})
    with pytest.raises(ValueError, match=r"^prior=0.0001 × n_cases=1000 rounds to 0 positives.*\(row 1 of points\)$"):
        fs.simulate_grid(points, n_reps=10)
    with pytest.raises(TypeError, match=r"^progress must be a callable"):
        fs.simulate_grid(points.head(1), n_reps=10, progress=3)


def test_a_generator_seeds_the_simulation_with_one_integer_it_draws():
    rng, twin = np.random.default_rng(5), np.random.default_rng(5)
    a = sample_cv_f(0.05, 0.8, stratified=False, n_reps=300, seed=rng)
    b = sample_cv_f(0.05, 0.8, stratified=False, n_reps=300, seed=int(twin.integers(2**63)))
    pd.testing.assert_frame_equal(a, b, check_exact=True)


@pytest.mark.parametrize(
    "kwargs,exc,match",
    [
        (dict(n_pos=-1), ValueError, "n_pos"),
        (dict(n_pos=2000), ValueError, "n_pos"),
        (dict(n_pos=1.5), TypeError, "n_pos"),
        (dict(n_folds=3), ValueError, "does not divide"),
        (dict(n_reps=0), ValueError, "n_reps"),
        (dict(stratified=None), TypeError, "stratified"),
    ],
)
def test_fold_positives_bad_input(kwargs, exc, match):
    args = dict(n_pos=10, stratified=False)
    args.update(kwargs)
    with pytest.raises(exc, match=match):
        fold_positives(args.pop("n_pos"), **args)


# --------------------------------------------------------------------------- §4.3 claims
# Each test states a claim of Forman & Scholz §4.3 (or §5 for Figure 9) and checks it on our numbers;
# notebook 03 prints the same comparisons.
def test_claim_tp_fp_almost_unbiased_and_slightly_negative():
    """§4.3: F_tp,fp is "almost perfectly unbiased", with "a (very small) negative bias" (concavity)."""
    for row in fs.figure_grid().itertuples():
        bias = apples.theory.exact_cv_f(row.prior, row.f_true, stratified=row.stratified, method="tp_fp") - row.f_true
        assert -0.01 * row.f_true < bias < 0  # relative bias within -1%; the other methods reach -20% and worse


def test_claim_low_prior_zero_substitution_down_skipping_up():
    """§4.3, Fig. 4 left: at 1% positives F_avg and F_pr,re are biased down, the tilde variants up."""
    t = simulate_cv_f(0.01, 0.8, stratified=True, n_reps=50_000, seed=1)
    assert (t.loc[["avg", "pr_re"], "bias"] + 4 * t.loc[["avg", "pr_re"], "sem"] < -0.02).all()
    assert (t.loc[["avg_skip", "pr_re_skip"], "bias"] - 4 * t.loc[["avg_skip", "pr_re_skip"], "sem"] > 0.05).all()


def test_claim_pr_re_above_one_percent_at_five_percent():
    """§4.3, Fig. 4 right: at 5% (stratified, F = 80%) F_pr,re has relative bias > +1%, F_avg a smaller negative one."""
    t = simulate_cv_f(0.05, 0.8, stratified=True, n_reps=100_000, seed=2)
    assert t.loc["pr_re", "relative_bias"] - 4 * t.loc["pr_re", "sem"] / 0.8 > 0.01
    avg = apples.theory.exact_cv_f(0.05, 0.8, stratified=True, method="avg") - 0.8
    assert avg < 0 and abs(avg) / 0.8 < t.loc["pr_re", "relative_bias"]


def test_claim_pr_re_overlaid_on_tp_fp_at_25_percent_unstratified():
    """§4.3, Fig. 7 right: at 25% unstratified F_pr,re and F~_pr,re are not visible, overlaid on F_tp,fp."""
    est = sample_cv_f(0.25, 0.7, stratified=False, n_reps=50_000, seed=3)
    for method in ("pr_re", "pr_re_skip"):
        d = est[method] - est["tp_fp"]
        assert abs(d.mean()) < 0.0005  # well under a tenth of a point: indistinguishable on the figure
    assert (est["tp_fp"] - est["avg"]).mean() > 0.002  # while F_avg is visibly lower


def test_claim_tp_fp_bias_an_order_of_magnitude_below_f_avg():
    """§4.3: pooling "reduced the bias by two orders of magnitude"; at F = 80% we find at least one (exact sums)."""
    for prior in fs.FIGURE_PANEL_PRIORS:
        for stratified in (True, False):
            tp_fp = apples.theory.exact_cv_f(prior, 0.8, stratified=stratified, method="tp_fp") - 0.8
            avg = apples.theory.exact_cv_f(prior, 0.8, stratified=stratified, method="avg") - 0.8
            assert abs(avg) > 10 * abs(tp_fp)


def test_claim_tp_fp_least_variance_from_five_percent():
    """§4.3, Fig. 8: from 5% positives F_tp,fp has the least variance, "not always at 1%".

    Only nearly true in our simulation: across F = 60-95%, at half the F values an F_pr,re variant is
    less variable than F_tp,fp, by up to ~6% of the SD at 5% positives and ~1% at 25% (notebook 03,
    claim 8); at F = 80%, checked here, within 2%. F_tp,fp always beats F_avg there.
    """
    for prior in (0.05, 0.25):
        t = simulate_cv_f(prior, 0.8, stratified=True, n_reps=50_000, seed=4)
        assert t.loc["tp_fp", "std"] < 1.02 * t["std"].min()
        assert t.loc["tp_fp", "std"] < t.loc["avg", "std"]
    t = simulate_cv_f(0.01, 0.8, stratified=True, n_reps=50_000, seed=4)
    assert t.loc["pr_re_skip", "std"] < t.loc["tp_fp", "std"]


def test_claim_figure9_fairly_probable_below_100_positives():
    """§5: with fewer than ~100 positives, a fold without positives in some of 1000 trials is "fairly probable"."""
    assert 0.1 < apples.theory.p_fold_without_positives(100, n_trials=1000) < 0.2
    assert apples.theory.p_fold_without_positives(50, n_trials=1000) > 0.999
    assert apples.theory.p_fold_without_positives(200, n_trials=1000) < 1e-4
