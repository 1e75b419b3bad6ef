"""apples.intervals against independent sources: scipy, closed forms, O(n²) implementations, hand calculations."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import apples
from apples.intervals import (
    ConfidenceInterval,
    compare_cv_scores,
    compare_roc_auc,
    cv_f_measure_ci,
    cv_score_ci,
    mcnemar_test,
    proportion_ci,
    roc_auc_ci,
)
from apples.intervals.ranking import delong_variance, placements

Z95 = 1.959963984540054  # the 0.975 quantile of N(0, 1)


# -- proportions ----------------------------------------------------------------------------------
@pytest.mark.parametrize("k, n", [(0, 1), (0, 10), (1, 10), (7, 10), (10, 10), (3, 250), (125, 250), (999, 1000)])
@pytest.mark.parametrize("confidence", [0.8, 0.95, 0.99])
def test_wilson_and_clopper_pearson_agree_with_scipy_binomtest(k, n, confidence):
    ref = stats.binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
    ci = proportion_ci(k, n, confidence=confidence, method="wilson")
    assert (ci.low, ci.high) == pytest.approx((ref.low, ref.high), abs=1e-12)
    ref = stats.binomtest(k, n).proportion_ci(confidence_level=confidence, method="exact")
    ci = proportion_ci(k, n, confidence=confidence, method="clopper_pearson")
    assert (ci.low, ci.high) == pytest.approx((ref.low, ref.high), abs=1e-12)
    assert ci.estimate == k / n and ci.confidence == confidence and ci.method == "clopper_pearson"


def test_textbook_values():
    # Clopper–Pearson at the edges has closed forms: k = 0 -> [0, 1 − (α/2)^(1/n)], k = n -> [(α/2)^(1/n), 1]
    ci = proportion_ci(0, 10, method="clopper_pearson")
    assert ci.low == 0.0 and ci.high == pytest.approx(1 - 0.025 ** (1 / 10), rel=1e-12)
    ci = proportion_ci(20, 20, method="clopper_pearson")
    assert ci.low == pytest.approx(0.025 ** (1 / 20), rel=1e-12) and ci.high == 1.0
    # Wilson at k = 0: [0, z²/(n + z²)]
    ci = proportion_ci(0, 10)
    assert ci.low == 0.0 and ci.high == pytest.approx(Z95**2 / (10 + Z95**2), rel=1e-12)
    # Agresti–Coull by hand for 7/10: p~ = (7 + z²/2)/(10 + z²), half-width z·√(p~(1 − p~)/(10 + z²))
    n_t = 10 + Z95**2
    p_t = (7 + Z95**2 / 2) / n_t
    half = Z95 * math.sqrt(p_t * (1 - p_t) / n_t)
    ci = proportion_ci(7, 10, method="agresti_coull")
    assert (ci.low, ci.high) == pytest.approx((p_t - half, p_t + half), rel=1e-12)
    # Brown, Cai & DasGupta (2001) Table: Wilson 95% for 7 of 10 rounds to [0.397, 0.892]
    ci = proportion_ci(7, 10)
    assert (round(ci.low, 3), round(ci.high, 3)) == (0.397, 0.892)


def test_proportion_errors_and_undefined():
    with pytest.raises(ValueError, match="k=11"):
        proportion_ci(11, 10)
    with pytest.raises(ValueError, match="confidence"):
        proportion_ci(1, 10, confidence=1.0)
    with pytest.raises(apples.UndefinedMetricError):
        proportion_ci(0, 0)
    assert math.isnan(proportion_ci(0, 0, undefined="nan").estimate)


# -- DeLong ---------------------------------------------------------------------------------------
def _psi(x, y):
    """Mann–Whitney kernel of every positive x_i against every negative y_j: 1, 1/2 for a tie, 0."""
    x, y = np.asarray(x, float)[:, None], np.asarray(y, float)[None, :]
    return (x > y) + 0.5 * (x == y)


def _delong_direct(y, scores_list):
    """DeLong et al. (1988) eqs. (3)–(5) by the O(m·n) definition: AUCs and their covariance matrix S."""
    y = np.asarray(y)
    v10, v01, aucs = [], [], []
    for s in scores_list:
        s = np.asarray(s, float)
        k = _psi(s[y == 1], s[y == 0])
        aucs.append(k.mean())
        v10.append(k.mean(axis=1))
        v01.append(k.mean(axis=0))
    m, n = len(v10[0]), len(v01[0])
    return np.array(aucs), np.cov(np.array(v10)) / m + np.cov(np.array(v01)) / n


@pytest.mark.parametrize("seed", range(6))
def test_delong_variance_matches_the_direct_structural_components(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(6, 60))
    y = rng.integers(0, 2, n)
    y[:2] = (1, 0)
    y[2:4] = (1, 0)
    s = np.round(rng.normal(size=n) + y, 1)  # rounding makes ties, within and across classes
    aucs, cov = _delong_direct(y, [s])
    p = placements(y == 1, s)
    assert p.auc == pytest.approx(aucs[0], abs=1e-13)
    assert p.auc == apples.roc_auc(y, s)
    assert delong_variance(p) == pytest.approx(float(cov), rel=1e-10)
    ci = roc_auc_ci(y, s, confidence=0.9)
    z = stats.norm.ppf(0.95)
    assert ci.low == pytest.approx(max(0.0, aucs[0] - z * math.sqrt(cov)), abs=1e-12)
    assert ci.high == pytest.approx(min(1.0, aucs[0] + z * math.sqrt(cov)), abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_paired_delong_matches_the_direct_covariance(seed):
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(8, 60))
    y = rng.integers(0, 2, n)
    y[:4] = (1, 0, 1, 0)
    a = np.round(rng.normal(size=n) + y, 1)
    b = np.round(0.5 * a + rng.normal(size=n), 1)  # correlated with a, and tied
    aucs, cov = _delong_direct(y, [a, b])
    var = cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]
    diff = aucs[0] - aucs[1]
    c = compare_roc_auc(y, a, b)
    assert c.estimate == pytest.approx(diff, abs=1e-13)
    assert c.statistic == pytest.approx(diff / math.sqrt(var), rel=1e-9)
    assert c.p_value == pytest.approx(2 * stats.norm.sf(abs(diff) / math.sqrt(var)), rel=1e-9)
    assert (c.low, c.high) == pytest.approx((diff - Z95 * math.sqrt(var), diff + Z95 * math.sqrt(var)), abs=1e-12)


def test_paired_delong_with_itself_is_undefined_and_scores_may_be_integers_beyond_2_53():
    y = [1, 0, 1, 0, 1, 0]
    with pytest.raises(apples.UndefinedMetricError):
        compare_roc_auc(y, [0.9, 0.1, 0.8, 0.2, 0.3, 0.4], [0.9, 0.1, 0.8, 0.2, 0.3, 0.4])
    big = np.array([3, 1, 2, 2, 5, 0], dtype=np.int64) + 2**60
    small = np.array([3, 1, 2, 2, 5, 0], dtype=float)
    assert roc_auc_ci(y, big) == roc_auc_ci(y, small)


def test_delong_needs_two_cases_per_class():
    with pytest.raises(apples.UndefinedMetricError, match="bootstrap"):
        roc_auc_ci([1, 0, 0], [0.9, 0.1, 0.2])
    assert math.isnan(roc_auc_ci([1, 0, 0], [0.9, 0.1, 0.2], undefined="nan").low)
    assert roc_auc_ci([1, 0, 0], [0.9, 0.1, 0.2], method="bootstrap", n_resamples=20).estimate == 1.0


# -- bootstraps -----------------------------------------------------------------------------------
def _auc_vectorised(x, y, axis=-1):
    x = np.moveaxis(x, axis, -1)[..., :, None]
    y = np.moveaxis(y, axis, -1)[..., None, :]
    return ((x > y) + 0.5 * (x == y)).mean(axis=(-2, -1))


def test_stratified_bootstrap_agrees_with_scipy_bootstrap():
    """scipy.stats.bootstrap resamples each of two samples independently: the stratified bootstrap.

    The interval ends are Monte Carlo estimates: with 4,000 resamples each, their standard error is
    about 0.004 here (a quantile's SE √(q(1 − q)/R)/density); they must agree within 5 of those.
    """
    rng = np.random.default_rng(7)
    pos, neg = np.round(rng.normal(1.0, 1.0, 15), 1), np.round(rng.normal(0.0, 1.0, 25), 1)
    y = np.r_[np.ones(15, int), np.zeros(25, int)]
    ref = stats.bootstrap(
        (pos, neg),
        _auc_vectorised,
        paired=False,
        vectorized=True,
        method="percentile",
        n_resamples=4000,
        confidence_level=0.9,
        rng=np.random.default_rng(1),
    )
    ci = roc_auc_ci(y, np.r_[pos, neg], method="bootstrap", n_resamples=4000, confidence=0.9, seed=2)
    assert ci.estimate == pytest.approx(float(_auc_vectorised(pos, neg)), abs=1e-12)
    assert ci.low == pytest.approx(ref.confidence_interval.low, abs=0.02)
    assert ci.high == pytest.approx(ref.confidence_interval.high, abs=0.02)


def test_bootstrap_is_reproducible_and_depends_on_the_seed():
    y, s = [1, 0, 1, 0, 1, 0, 0], [0.9, 0.5, 0.5, 0.3, 0.7, 0.8, 0.1]
    a = roc_auc_ci(y, s, method="bootstrap", n_resamples=500, seed=3)
    assert a == roc_auc_ci(y, s, method="bootstrap", n_resamples=500, seed=3)
    assert a == roc_auc_ci(y, s, method="bootstrap", n_resamples=500, seed=np.random.default_rng(3))
    with pytest.raises(TypeError, match="seed"):
        roc_auc_ci(y, s, method="bootstrap", seed=None)


def _fold_cases(c: apples.Counts) -> np.ndarray:
    """A fold's cases, each coded by its confusion cell: 0 = TP, 1 = FP, 2 = FN, 3 = TN."""
    return np.repeat(np.arange(4), [c.tp, c.fp, c.fn, c.tn])


FOLDS_T1 = [
    apples.Counts.from_fold(positives=p, negatives=n, tp=tp, fp=fp)
    for n, p, tp, fp in [(373, 3, 3, 0), (372, 4, 4, 1), (372, 4, 4, 13), (372, 4, 3, 5)]
]
FOLDS_MID = [apples.Counts(12, 5, 4, 29), apples.Counts(9, 7, 6, 28), apples.Counts(14, 3, 5, 28)]


@pytest.mark.parametrize("method", apples.CV_F_METHODS)
def test_cv_f_measure_ci_estimate_is_cv_f_measure(method):
    for folds in (FOLDS_T1, FOLDS_MID):
        ci = cv_f_measure_ci(folds, method=method, n_resamples=50, beta=2.0)
        assert ci.estimate == pytest.approx(apples.cv_f_measure(folds, method=method, beta=2.0), rel=1e-12)


@pytest.mark.parametrize("method", ["tp_fp", "avg"])
def test_count_bootstrap_equals_resampling_cases(method):
    """Drawing multinomial counts is the case bootstrap: compare with a loop that resamples each fold's cases.

    Both ends are Monte Carlo estimates from 4,000 resamples: standard error about 0.005 for these
    folds; allowed difference 0.03.
    """
    rng = np.random.default_rng(5)
    cases = [_fold_cases(c) for c in FOLDS_MID]
    counts = np.array(
        [
            [np.bincount(codes[rng.integers(0, codes.size, codes.size)], minlength=4) for codes in cases]
            for _ in range(4000)
        ]
    )  # (resample, fold, cell): each fold's cases drawn with replacement
    tp, fp, fn = counts[..., 0], counts[..., 1], counts[..., 2]
    if method == "tp_fp":  # eq. (2) of the pooled counts
        reps = 2 * tp.sum(1) / (2 * tp.sum(1) + fp.sum(1) + fn.sum(1))
    else:  # mean of the folds' eq. (2), 0 where precision or recall is undefined (never here: 9+ positives)
        reps = (2 * tp / (2 * tp + fp + fn)).mean(1)
    ref_low, ref_high = np.quantile(reps, [0.05, 0.95])
    ci = cv_f_measure_ci(FOLDS_MID, method=method, n_resamples=4000, confidence=0.9, seed=9)
    assert ci.low == pytest.approx(ref_low, abs=0.03)
    assert ci.high == pytest.approx(ref_high, abs=0.03)


def test_cv_f_measure_ci_undefined_resamples():
    folds = [apples.Counts(1, 0, 0, 99), apples.Counts(0, 0, 0, 100)]
    with pytest.raises(apples.UndefinedMetricError, match="resampled"):
        cv_f_measure_ci(folds, method="tp_fp", n_resamples=2000, undefined="raise")
    ci = cv_f_measure_ci(folds, method="tp_fp", n_resamples=2000)  # the default: a 0/0 resample counts 0
    assert ci.estimate == 1.0 and ci.low == 0.0 and ci.high == 1.0
    assert math.isnan(cv_f_measure_ci(folds, method="tp_fp", n_resamples=2000, undefined="nan").low)
    with pytest.raises(ValueError, match="no cases"):
        cv_f_measure_ci([apples.Counts(0, 0, 0, 0)], method="tp_fp")


# -- t intervals over folds -----------------------------------------------------------------------
SCORES = np.array([0.81, 0.78, 0.85, 0.80, 0.74, 0.83, 0.79, 0.82, 0.77, 0.84])


def test_naive_t_is_scipy_one_sample_t_interval():
    ref = stats.ttest_1samp(SCORES, 0.0).confidence_interval(confidence_level=0.95)
    ci = cv_score_ci(SCORES, n_train=900, n_test=100, method="t")
    assert (ci.low, ci.high) == pytest.approx((ref.low, ref.high), rel=1e-12)


def test_corrected_t_by_hand_from_nadeau_bengio():
    # J = 10 folds of 100 test cases, 900 training cases: variance factor 1/10 + 100/900
    mean = SCORES.sum() / 10
    s2 = ((SCORES - mean) ** 2).sum() / 9
    half = stats.t.ppf(0.975, 9) * math.sqrt((1 / 10 + 100 / 900) * s2)
    ci = cv_score_ci(SCORES, n_train=900, n_test=100)
    assert ci.method == "corrected_t"
    assert (ci.estimate, ci.low, ci.high) == pytest.approx((mean, mean - half, mean + half), rel=1e-12)
    # repeated CV: 3 × 10 scores, J = 30
    rep = np.stack([SCORES, SCORES[::-1] - 0.01, SCORES + 0.02])
    m3, s3 = rep.mean(), rep.var(ddof=1)
    half3 = stats.t.ppf(0.975, 29) * math.sqrt((1 / 30 + 100 / 900) * s3)
    ci = cv_score_ci(rep, n_train=900, n_test=100)
    assert (ci.low, ci.high) == pytest.approx((m3 - half3, m3 + half3), rel=1e-12)


def test_paired_scores_must_share_their_shape_to_be_paired():
    a = np.arange(10, dtype=float).reshape(2, 5) / 20
    b = a + np.array([0.01, 0.03, 0.0, 0.02, 0.01, 0.04, 0.02, 0.0, 0.01, 0.05]).reshape(2, 5)
    # before: (2, 5) and (5, 2) were flattened and paired by position, repeat 1's fold 3 with repeat 2's fold 1
    with pytest.raises(ValueError, match=r"^scores_a has shape \(2, 5\) but scores_b has shape \(5, 2\)"):
        compare_cv_scores(a, b.T, n_train=900, n_test=100)
    with pytest.raises(ValueError, match=r"^scores_b has shape \(10,\) but|^scores_a has shape \(2, 5\) but"):
        compare_cv_scores(a, b.ravel(), n_train=900, n_test=100)
    with pytest.raises(ValueError, match=r"^fold_scores must have shape \(k,\) .* got shape \(2, 1, 5\)"):
        cv_score_ci(a.reshape(2, 1, 5), n_train=900, n_test=100)
    # (r, k) against (r, k): the paired t over the r·k differences (scipy's ttest_rel for the naive t)
    naive = compare_cv_scores(a, b, n_train=900, n_test=100, method="t")
    ref = stats.ttest_rel(a.ravel(), b.ravel())
    assert (naive.statistic, naive.p_value) == pytest.approx((ref.statistic, ref.pvalue), rel=1e-10)


def test_paired_t_tests():
    other = SCORES - np.array([0.02, 0.01, 0.03, -0.01, 0.02, 0.0, 0.01, 0.02, 0.03, 0.01])
    naive = compare_cv_scores(SCORES, other, n_train=900, n_test=100, method="t")
    ref = stats.ttest_rel(SCORES, other)
    assert naive.statistic == pytest.approx(ref.statistic, rel=1e-10)
    assert naive.p_value == pytest.approx(ref.pvalue, rel=1e-10)
    d = SCORES - other
    t = d.mean() / math.sqrt((1 / 10 + 100 / 900) * d.var(ddof=1))
    corrected = compare_cv_scores(SCORES, other, n_train=900, n_test=100)
    assert corrected.statistic == pytest.approx(t, rel=1e-10)
    assert corrected.p_value == pytest.approx(2 * stats.t.sf(abs(t), 9), rel=1e-10)
    assert corrected.p_value > naive.p_value


# -- McNemar ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("n01, n10", [(0, 0), (3, 0), (1, 7), (10, 4), (6, 6), (25, 40)])
def test_mcnemar_mid_p_against_the_binomial(n01, n10):
    # cases: n01 where A is right and B wrong, n10 the reverse, 5 both right, 2 both wrong
    y = np.zeros(n01 + n10 + 7, dtype=int)
    a = np.r_[np.zeros(n01), np.ones(n10), np.zeros(5), np.ones(2)].astype(int)
    b = np.r_[np.ones(n01), np.zeros(n10), np.zeros(5), np.ones(2)].astype(int)
    c = mcnemar_test(y, a, b)
    n_d, x = n01 + n10, min(n01, n10)
    # mid-p = exact two-sided p − P(X = x) while 2·P(X <= x) < 1; 1 when the counts are equal
    expected = 1.0 if n01 == n10 else stats.binomtest(x, n_d, 0.5).pvalue - stats.binom.pmf(x, n_d, 0.5)
    assert c.p_value == pytest.approx(expected, rel=1e-12)
    assert c.estimate == pytest.approx((n01 - n10) / y.size, abs=1e-15)
    assert c.statistic == x


def test_mcnemar_hand_value():
    # 3 discordant pairs, all for A: mid-p = 2·(1/8 − 1/16) = 1/8
    y = [1, 0, 1, 1, 0, 0, 1, 0, 1, 1]
    c = mcnemar_test(y, [1, 0, 1, 1, 0, 0, 1, 0, 0, 0], [0, 1, 0, 1, 0, 0, 1, 0, 0, 0])
    assert c.p_value == 0.125 and c.estimate == pytest.approx(0.3)


def test_results_are_immutable():
    ci = proportion_ci(3, 10)
    assert isinstance(ci, ConfidenceInterval)
    with pytest.raises(AttributeError):
        ci.low = 0.0  # type: ignore[misc]
    assert ci.covers(0.3) and not ci.covers(0.99) and ci.width == ci.high - ci.low


# -- the numbers notebook 11 prints (checked outputs), from scipy and the formulas ---------------------
def test_notebook_10_proportion_intervals():
    expected = {
        ("recall", "wilson"): (0.702, 0.988),
        ("recall", "clopper_pearson"): (0.681, 0.998),
        ("recall", "agresti_coull"): (0.682, 1.000),
        ("precision", "wilson"): (0.272, 0.592),
        ("precision", "clopper_pearson"): (0.255, 0.608),
        ("precision", "agresti_coull"): (0.272, 0.592),
    }
    for (what, method), ends in expected.items():
        k, n = (14, 15) if what == "recall" else (14, 33)
        ci = proportion_ci(k, n, method=method)
        assert (round(ci.low, 3), round(ci.high, 3)) == ends
        if method != "agresti_coull":
            ref = stats.binomtest(k, n).proportion_ci(method="wilson" if method == "wilson" else "exact")
            assert (round(ref.low, 3), round(ref.high, 3)) == ends


def test_notebook_10_fold_t_intervals():
    scores = np.array([0.81, 0.78, 0.85, 0.80, 0.74, 0.83, 0.79, 0.82, 0.77, 0.84])
    ref = stats.ttest_1samp(scores, 0.0).confidence_interval()
    assert (round(ref.low, 3), round(ref.high, 3)) == (0.779, 0.827)
    half = stats.t.ppf(0.975, 9) * math.sqrt((1 / 10 + 100 / 900) * scores.var(ddof=1))
    assert (round(scores.mean() - half, 3), round(scores.mean() + half, 3)) == (0.768, 0.838)
    naive = cv_score_ci(scores, n_train=900, n_test=100, method="t")
    corrected = cv_score_ci(scores, n_train=900, n_test=100)
    assert [round(v, 3) for v in (naive.estimate, naive.low, naive.high, corrected.low, corrected.high)] == [
        0.803,
        0.779,
        0.827,
        0.768,
        0.838,
    ]
