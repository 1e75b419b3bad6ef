"""Tests of apples.exact: exact expectations of F_tp,fp and F_avg, and Figure 9's probability."""

import itertools
import math
from fractions import Fraction

import pandas as pd
import pytest

from apples.studies.forman_scholz import figure_grid, simulate_cv_f
from apples.studies.van_asch import exact_fold_f1
from apples.theory import exact_cv_f, exact_grid, fold_positives, p_fold_without_positives, simulation_design


def _binom(n, k, q):
    return math.comb(n, k) * q**k * (1 - q) ** (n - k)


def _brute_force(n_cases, n_folds, n_pos, f_true, stratified):
    """E and SD of F_tp,fp and F_avg by enumerating partitions and every fold outcome (plain Python).

    Independent of apples: the fold allocation is enumerated over all ways to
    choose which cases are positive given folds 0..k-1 of m consecutive cases
    (a uniform random partition is equivalent to uniform random labels on a
    fixed partition); every joint (TP_i, FP_i) outcome of all folds is
    enumerated with math.comb probabilities, and F follows eq. (2).
    """
    m = n_cases // n_folds
    n_neg = n_cases - n_pos
    re, fpr = f_true, n_pos * (1 - f_true) / n_neg
    if stratified:
        q, r = divmod(n_pos, n_folds)
        allocations = [((q + 1,) * r + (q,) * (n_folds - r), 1.0)]
    else:
        counts = {}
        for chosen in itertools.combinations(range(n_cases), n_pos):
            key = tuple(sum(1 for c in chosen if c // m == i) for i in range(n_folds))
            counts[key] = counts.get(key, 0) + 1
        total = math.comb(n_cases, n_pos)
        allocations = [(key, c / total) for key, c in counts.items()]
    moments = {"tp_fp": [0.0, 0.0], "avg": [0.0, 0.0]}
    for pos, w in allocations:
        per_fold = [
            [((a, b), _binom(p, a, re) * _binom(m - p, b, fpr)) for a in range(p + 1) for b in range(m - p + 1)]
            for p in pos
        ]
        for outcome in itertools.product(*per_fold):
            prob = w * math.prod(pr for _, pr in outcome)
            tp = sum(a for (a, _), _ in outcome)
            fp = sum(b for (_, b), _ in outcome)
            f_pooled = 2 * tp / (2 * tp + fp + (n_pos - tp))
            f_folds = [
                2 * a / (2 * a + b + (p - a)) if (2 * a + b + (p - a)) else 0.0
                for ((a, b), _), p in zip(outcome, pos, strict=True)
            ]
            f_avg = sum(f_folds) / n_folds
            for name, x in (("tp_fp", f_pooled), ("avg", f_avg)):
                moments[name][0] += prob * x
                moments[name][1] += prob * x * x
    return {name: (e, math.sqrt(max(e2 - e * e, 0.0))) for name, (e, e2) in moments.items()}


@pytest.mark.parametrize(
    "n_cases,n_folds,prior,f_true", [(8, 2, 0.25, 0.5), (9, 3, 0.34, 0.7), (12, 3, 0.25, 0.8), (10, 2, 0.3, 0.9)]
)
@pytest.mark.parametrize("stratified", [True, False])
def test_exact_equals_brute_force_enumeration(n_cases, n_folds, prior, f_true, stratified):
    n_pos = math.floor(prior * n_cases + 0.5)
    ref = _brute_force(n_cases, n_folds, n_pos, f_true, stratified)
    for method in ("tp_fp", "avg"):
        kw = dict(stratified=stratified, method=method, n_cases=n_cases, n_folds=n_folds)
        assert exact_cv_f(prior, f_true, **kw) == pytest.approx(ref[method][0], rel=1e-12)
        assert exact_cv_f(prior, f_true, statistic="std", **kw) == pytest.approx(ref[method][1], rel=1e-9)


@pytest.mark.parametrize("prior,f_true", [(0.01, 0.8), (0.05, 0.6), (0.25, 0.95)])
def test_tp_fp_equals_direct_double_sum(prior, f_true):
    """Direct sum over pooled TP ~ Bin(n_pos, re) and FP ~ Bin(n_neg, fpr), in plain Python floats."""
    n_pos = round(prior * 1000)
    n_neg = 1000 - n_pos
    re, fpr = f_true, n_pos * (1 - f_true) / n_neg
    p_tp = [_binom(n_pos, a, re) for a in range(n_pos + 1)]
    fp_max = 120  # the FP pmf is below 1e-30 beyond this for these designs
    p_fp = [_binom(n_neg, b, fpr) for b in range(fp_max + 1)]
    assert p_fp[-1] < 1e-30
    e = sum(pa * pb * 2 * a / (a + b + n_pos) for a, pa in enumerate(p_tp) for b, pb in enumerate(p_fp))
    for stratified in (True, False):  # the pooled counts do not depend on the allocation
        assert exact_cv_f(prior, f_true, stratified=stratified, method="tp_fp") == pytest.approx(e, rel=1e-12)


def test_avg_stratified_equals_per_fold_direct_sum():
    """1% positives: every fold has 1 positive and 99 negatives, so E[F_avg] = E[F of one fold]."""
    re, fpr = 0.8, 10 * 0.2 / 990
    e = sum(_binom(1, a, re) * _binom(99, b, fpr) * (2 * a / (a + b + 1)) for a in (0, 1) for b in range(100))
    assert exact_cv_f(0.01, 0.8, stratified=True, method="avg") == pytest.approx(e, rel=1e-12)


@pytest.mark.parametrize(
    "prior,f_true,stratified", [(0.01, 0.8, True), (0.01, 0.8, False), (0.05, 0.6, False), (0.25, 0.7, True)]
)
def test_simulation_within_four_standard_errors_of_exact(prior, f_true, stratified):
    t = simulate_cv_f(prior, f_true, stratified=stratified, n_reps=100_000, seed=2)
    for method in ("tp_fp", "avg"):
        mean = exact_cv_f(prior, f_true, stratified=stratified, method=method)
        sd = exact_cv_f(prior, f_true, stratified=stratified, method=method, statistic="std")
        assert abs(t.loc[method, "mean"] - mean) < 4 * sd / math.sqrt(100_000)
        assert t.loc[method, "std"] == pytest.approx(sd, rel=0.02)


@pytest.mark.parametrize("prior,f_true", [(0.01, 0.8), (0.05, 0.6), (0.25, 0.95), (0.03, 0.7)])
def test_exact_equals_van_asch_binomial_model(prior, f_true):
    """Forman & Scholz §4.2 is Van Asch's set-up with binomial errors: cross-check two separate codes.

    apples.studies.van_asch.fold_size (written independently, for Van Asch §7) sums E[F_tp,fp] and E[F_avg] of class A
    with per-prediction errors: recall r_A = f_true and, on class B, r_B = 1 - fpr. Its random folds
    are the uniformly random partition, its stratified folds deal class A as evenly as possible.
    """
    fpr = simulation_design(prior, f_true).fpr
    for stratified, allocation in ((True, "stratified"), (False, "random")):
        for method in ("tp_fp", "avg"):
            other = exact_fold_f1(
                prior,
                method=method,
                n_instances=1000,
                n_folds=10,
                allocation=allocation,
                errors="binomial",
                recall_a=f_true,
                recall_b=1 - fpr,
            )
            assert exact_cv_f(prior, f_true, stratified=stratified, method=method) == pytest.approx(other, abs=1e-10)


def test_exact_grid_rows():
    """exact_grid is exact_cv_f row by row; F_tp,fp is the same stratified and not (module docstring)."""
    points = figure_grid().iloc[[0, 31, 61]]
    g = exact_grid(points)
    assert list(g.columns) == ["prior", "f_true", "stratified", "method", "exact_mean", "exact_std"]
    assert len(g) == 2 * len(points) and g["method"].tolist() == ["tp_fp", "avg"] * len(points)
    for row in g.itertuples():
        kw = dict(stratified=row.stratified, method=row.method)
        assert row.exact_mean == exact_cv_f(row.prior, row.f_true, **kw)
        assert row.exact_std == exact_cv_f(row.prior, row.f_true, statistic="std", **kw)
    # 1% positives, F = 80%, stratified: the direct sums of test_tp_fp_equals_direct_double_sum and
    # test_avg_stratified_equals_per_fold_direct_sum, independent of apples
    one = exact_grid(pd.DataFrame({"prior": [0.01], "f_true": [0.8], "stratified": [True]}))
    re, fpr = 0.8, 10 * 0.2 / 990
    e_avg = sum(_binom(1, a, re) * _binom(99, b, fpr) * (2 * a / (a + b + 1)) for a in (0, 1) for b in range(100))
    assert one["exact_mean"].iloc[1] == pytest.approx(e_avg, rel=1e-12)


def test_exact_bad_input():
    with pytest.raises(ValueError, match="non-linear"):
        exact_cv_f(0.05, 0.8, stratified=True, method="pr_re")
    with pytest.raises(ValueError, match="method"):
        exact_cv_f(0.05, 0.8, stratified=True, method="bogus")
    with pytest.raises(ValueError, match="statistic"):
        exact_cv_f(0.05, 0.8, stratified=True, method="avg", statistic="var")
    with pytest.raises(ValueError, match="prior"):
        exact_cv_f(1.0, 0.8, stratified=True, method="avg")
    with pytest.raises(ValueError, match="f_true"):
        exact_cv_f(0.05, 0.0, stratified=True, method="avg")
    with pytest.raises(ValueError, match="does not divide"):
        exact_cv_f(0.05, 0.8, stratified=True, method="avg", n_folds=3)
    with pytest.raises(TypeError, match="stratified"):
        exact_cv_f(0.05, 0.8, stratified=None, method="avg")


# ------------------------------------------------------------------ Figure 9
def _brute_p_empty(n_cases, n_folds, n_pos):
    m = n_cases // n_folds
    bad = 0
    for chosen in itertools.combinations(range(n_cases), n_pos):
        per_fold = [0] * n_folds
        for c in chosen:
            per_fold[c // m] += 1
        bad += min(per_fold) == 0
    return Fraction(bad, math.comb(n_cases, n_pos))


@pytest.mark.parametrize("n_cases,n_folds", [(6, 3), (12, 4), (10, 2), (12, 3)])
def test_p_fold_without_positives_equals_enumeration(n_cases, n_folds):
    for n_pos in range(n_cases + 1):
        ref = float(_brute_p_empty(n_cases, n_folds, n_pos))
        assert p_fold_without_positives(n_pos, n_cases=n_cases, n_folds=n_folds) == pytest.approx(ref, abs=1e-15)


@pytest.mark.parametrize("n_pos", [12, 20, 35])
def test_p_fold_without_positives_matches_simulation(n_pos):
    n = 200_000
    alloc = fold_positives(n_pos, stratified=False, n_reps=n, seed=n_pos)
    freq = (alloc.min(axis=1) == 0).mean()
    q = p_fold_without_positives(n_pos)
    assert abs(freq - q) < 4 * math.sqrt(q * (1 - q) / n)


def test_p_fold_without_positives_edge_cases():
    for n_pos in range(10):  # fewer positives than folds: some fold must be empty
        assert p_fold_without_positives(n_pos) == 1.0
        assert p_fold_without_positives(n_pos, n_trials=1000) == 1.0
    assert p_fold_without_positives(0, n_cases=50, n_folds=5) == 1.0
    assert p_fold_without_positives(901) == 0.0  # more positives than the other 9 folds can hold
    assert p_fold_without_positives(1000) == 0.0
    assert p_fold_without_positives(900) > 0.0
    # the multi-trial curve is 1 − (1 − P)^T
    p = p_fold_without_positives(40)
    assert p_fold_without_positives(40, n_trials=1) == p
    assert p_fold_without_positives(40, n_trials=1000) == pytest.approx(1 - (1 - p) ** 1000, rel=1e-12)
    # monotone decreasing in the number of positives (beyond n_folds)
    ps = [p_fold_without_positives(n) for n in range(10, 200)]
    assert all(a >= b for a, b in itertools.pairwise(ps))


def test_p_fold_without_positives_bad_input():
    with pytest.raises(ValueError, match="n_pos"):
        p_fold_without_positives(1001)
    with pytest.raises(ValueError, match="n_pos"):
        p_fold_without_positives(-1)
    with pytest.raises(TypeError, match="n_pos"):
        p_fold_without_positives(10.0)
    with pytest.raises(ValueError, match="n_trials"):
        p_fold_without_positives(10, n_trials=0)
    with pytest.raises(ValueError, match="does not divide"):
        p_fold_without_positives(10, n_folds=7)
