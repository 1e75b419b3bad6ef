"""Tests of apples.threshold_free: AUK, max-F1, max-MCC, r-precision, Gini, KS, minimum error rate.

Expected values come from hand calculations, scikit-learn, scipy, or brute
force over every threshold (never from the implementation's own output).
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import ks_2samp
from sklearn.metrics import (
    accuracy_score,
    cohen_kappa_score,
    f1_score,
    fbeta_score,
    matthews_corrcoef,
    precision_recall_curve,
    roc_auc_score,
    roc_curve,
)

import apples
from apples import (
    UndefinedMetricError,
    auk,
    ks_statistic,
    max_f1,
    max_mcc,
    min_error_rate,
    r_precision,
)
from apples.metrics import ThresholdResult, gini, kappa_curve


# ---------------------------------------------------------------- strategies
@st.composite
def scored(draw, *, balanced: bool = False, max_n: int = 24):
    """(y_true, y_score) with both classes; scores often tied (small integers) or real."""
    if balanced:
        k = draw(st.integers(1, max_n // 2))
        y = draw(st.permutations([1] * k + [0] * k))
    else:
        n = draw(st.integers(2, max_n))
        rest = draw(st.lists(st.integers(0, 1), min_size=n - 2, max_size=n - 2))
        y = draw(st.permutations([1, 0, *rest]))
    n = len(y)
    tied = st.lists(st.integers(-4, 4).map(float), min_size=n, max_size=n)
    real = st.lists(st.floats(-100, 100, allow_nan=False, allow_infinity=False), min_size=n, max_size=n)
    s = draw(st.one_of(tied, real))
    return np.array(y), np.array(s)


def _thresholds(s):
    return np.unique(s)[::-1]  # distinct scores, decreasing


# ---------------------------------------------------------------- hand calculations
def test_kappa_curve_hand_example():
    # y = 1 1 0 0 by score: after 1 positive TP=1,FP=0,FN=1,TN=2: kappa = 2(2 - 0)/(1*2 + 2*3) = 1/2
    c = kappa_curve([1, 1, 0, 0], [0.9, 0.8, 0.3, 0.1])
    np.testing.assert_allclose(c.kappa, [0, 0.5, 1, 0.5, 0], atol=1e-15)
    np.testing.assert_array_equal(c.fpr, [0, 0, 0, 0.5, 1])
    assert c.thresholds[0] == np.inf


def test_auk_unbalanced_hand_example():
    # P = 1, N = 3, positive ranked second: points (FPR, kappa):
    # t=inf (0,0); t=.9: TP0 FP1 FN1 TN2 -> 2(0 - 1)/(1*3 + 1*3) = -1/3 at FPR 1/3;
    # t=.8: TP1 FP1 FN0 TN2 -> 2(2 - 0)/(2*3 + 1*2) = 1/2 at FPR 1/3;
    # t=.3: TP1 FP2 TN1 -> 2(1)/(3*3 + 1*1) = 1/5 at 2/3; t=.1: 0 at 1.
    # trapezoid: 1/3*(0 - 1/3)/2 + 0 + 1/3*(1/2 + 1/5)/2 + 1/3*(1/5)/2 = -1/18 + 7/60 + 1/30
    y, s = [0, 1, 0, 0], [0.9, 0.8, 0.3, 0.1]
    assert auk(y, s) == pytest.approx(-1 / 18 + 7 / 60 + 1 / 30, abs=1e-15)


# ---------------------------------------------------------------- Parker's §II formulas
@settings(max_examples=80)
@given(scored())
def test_parker_section_2_formulas(data):
    # Parker's class 0 is the positive class; in our labels his pi0 is P/n, F0(t) is TPR,
    # F1(t) is FPR and F(t) the share predicted positive.
    y, s = data
    pi = y.mean()
    thr = _thresholds(s)
    tpr = np.array([np.mean(s[y == 1] >= t) for t in thr])
    fpr = np.array([np.mean(s[y == 0] >= t) for t in thr])
    q = pi * tpr + (1 - pi) * fpr
    # §II-A: M_F1(t) = 2 pi0 F0(t) / (F(t) + pi0)
    assert max_f1(y, s).value == pytest.approx(np.max(2 * pi * tpr / (q + pi)), abs=1e-12)
    # §II-F: kappa = (a - p_c)/(1 - p_c), a = pi0 F0 + pi1 (1 - F1), p_c = pi0 F + pi1 (1 - F)
    a = pi * tpr + (1 - pi) * (1 - fpr)
    p_c = pi * q + (1 - pi) * (1 - q)
    np.testing.assert_allclose(kappa_curve(y, s).kappa[1:], (a - p_c) / (1 - p_c), atol=1e-12)


# ---------------------------------------------------------------- AUK
@settings(max_examples=80)
@given(scored(balanced=True))
def test_auk_is_auc_minus_half_for_balanced_classes(data):
    # Why: in counts, with TN = N - FP and FN = P - TP,
    #   kappa = 2 (TP·TN - FN·FP) / ((TP+FP)(FP+TN) + (TP+FN)(FN+TN))
    #         = 2 (N·TP - P·FP) / (P·n + (N - P)(TP + FP)).
    # With P = N = n/2 the denominator is P·n = 2P² and kappa = (TP - FP)/P = TPR - FPR,
    # a linear function of the ROC point. The trapezoid rule is exact on the
    # piecewise-linear ROC curve (tie groups are straight diagonal segments), so
    # AUK = ∫ TPR dFPR - ∫ FPR dFPR = AUC - 1/2, to rounding.
    y, s = data
    assert auk(y, s) == pytest.approx(roc_auc_score(y, s) - 0.5, abs=1e-12)


@settings(max_examples=30)
@given(scored())
def test_auk_matches_sklearn_kappa_at_every_threshold(data):
    y, s = data
    fpr, _, thr = roc_curve(y, s, drop_intermediate=False)
    kappa = [0.0] + [cohen_kappa_score(y, (s >= t).astype(int)) for t in thr[1:]]
    kappa = np.nan_to_num(kappa)  # sklearn gives nan (0/0) only where both raters are constant
    c = kappa_curve(y, s)
    np.testing.assert_allclose(c.fpr, fpr, atol=1e-15)
    np.testing.assert_allclose(c.kappa, kappa, atol=1e-12)
    assert c.kappa[0] == 0 and c.kappa[-1] == pytest.approx(0, abs=1e-15)  # zero at both ends
    assert auk(y, s) == pytest.approx(np.trapezoid(kappa, fpr), abs=1e-12)


# ---------------------------------------------------------------- max-F1
@settings(max_examples=40)
@given(scored(), st.floats(-5, 5))
def test_max_f1_at_least_f_at_any_threshold(data, t):
    y, s = data
    best = max_f1(y, s)
    assert best.value >= f1_score(y, (s >= t).astype(int), zero_division=0) - 1e-12
    assert best.value == pytest.approx(f1_score(y, (s >= best.threshold).astype(int)), abs=1e-12)


@settings(max_examples=80)
@given(scored())
def test_max_f1_matches_sklearn_precision_recall_curve(data):
    y, s = data
    p, r, thr = precision_recall_curve(y, s)
    p, r = p[:-1], r[:-1]  # the last point (precision 1, recall 0) has no threshold
    f = np.divide(2 * p * r, p + r, out=np.zeros_like(p), where=(p + r) > 0)
    best = max_f1(y, s)
    assert best.value == pytest.approx(f.max(), abs=1e-12)
    # highest threshold among the maximisers (exact ties: F is a ratio of integers)
    assert best.threshold == max(t for t, v in zip(thr, f, strict=True) if v >= f.max() - 1e-12)


@settings(max_examples=30)
@given(scored(), st.sampled_from([0.5, 2.0]))
def test_max_fbeta_brute_force(data, beta):
    y, s = data
    values = [fbeta_score(y, (s >= t).astype(int), beta=beta, zero_division=0) for t in _thresholds(s)]
    best = max_f1(y, s, beta=beta)
    assert best.value == pytest.approx(max(values), abs=1e-12)


# ---------------------------------------------------------------- max-MCC
@settings(max_examples=30)
@given(scored())
def test_max_mcc_brute_force_with_sklearn(data):
    y, s = data
    thr = _thresholds(s)
    values = np.array([matthews_corrcoef(y, (s >= t).astype(int)) for t in thr])
    best = max_mcc(y, s)
    assert best.value == pytest.approx(values.max(), abs=1e-12)
    assert matthews_corrcoef(y, (s >= best.threshold).astype(int)) == pytest.approx(best.value, abs=1e-12)
    assert best.threshold == thr[np.flatnonzero(values >= values.max() - 1e-12)[0]]


def test_max_mcc_undefined_policies_hand_example():
    # reversed ranking: MCC at .9, .8, .3 is -1/sqrt(3), -1, -1/sqrt(3); at .1 everything is
    # predicted positive and MCC is 0/0
    y, s = [0, 0, 1, 1], [0.9, 0.8, 0.3, 0.1]
    assert max_mcc(y, s) == ThresholdResult(0.0, 0.1)
    v, t = max_mcc(y, s, undefined="nan")
    assert v == pytest.approx(-1 / np.sqrt(3), abs=1e-15) and t == 0.9
    assert max_mcc(y, s, undefined="raise")[1] == 0.9


def test_max_mcc_all_scores_tied():
    y, s = [1, 0, 0], [2.0, 2.0, 2.0]
    assert max_mcc(y, s) == ThresholdResult(0.0, 2.0)
    v, t = max_mcc(y, s, undefined="nan")
    assert np.isnan(v) and np.isnan(t)
    with pytest.raises(UndefinedMetricError, match="all scores are tied"):
        max_mcc(y, s, undefined="raise")


# ---------------------------------------------------------------- r-precision
def _expected_top_k_precision(y, s, k):
    """Mean precision of the top k over every ordering consistent with the scores (brute force)."""
    y, s = np.asarray(y), np.asarray(s)
    values = [y[list(p[:k])].mean() for p in itertools.permutations(range(len(y))) if np.all(np.diff(s[list(p)]) <= 0)]
    return float(np.mean(values))


@pytest.mark.parametrize(
    "y, s",
    [
        ([1, 0, 1, 0, 0], [0.9, 0.8, 0.5, 0.5, 0.1]),
        ([0, 1, 1, 0, 1, 0], [3, 2, 2, 2, 1, 1]),
        ([1, 0, 0, 1, 0, 1], [5, 5, 5, 5, 5, 5]),
        ([1, 1, 0, 0, 0, 1], [6, 5, 4, 3, 2, 1]),
    ],
)
def test_r_precision_is_mean_over_tie_orderings(y, s):
    assert r_precision(y, s) == pytest.approx(_expected_top_k_precision(y, s, sum(y)), abs=1e-15)


@settings(max_examples=80)
@given(scored())
def test_r_precision_equals_recall_at_r(data):
    y, s = data
    k = int(y.sum())
    order = np.argsort(-s, kind="stable")
    if len(np.unique(s)) == len(s):  # no ties: one ordering
        assert r_precision(y, s) == pytest.approx(y[order[:k]].sum() / k, abs=1e-15)
    assert 0 <= r_precision(y, s) <= 1


# ---------------------------------------------------------------- Gini, KS, minimum error rate
@settings(max_examples=80)
@given(scored())
def test_gini_is_twice_auc_minus_one(data):
    y, s = data
    assert gini(y, s) == pytest.approx(2 * roc_auc_score(y, s) - 1, abs=1e-12)


def _ks_2samp_statistic(a, b, **kw):
    # only the statistic is compared; scipy's p-value for tiny samples emits RuntimeWarnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return ks_2samp(a, b, **kw).statistic


@settings(max_examples=80)
@given(scored())
def test_ks_matches_scipy(data):
    y, s = data
    pos, neg = s[y == 1], s[y == 0]
    two = ks_statistic(y, s)
    assert two.value == pytest.approx(_ks_2samp_statistic(pos, neg), abs=1e-12)
    # D+ of the negatives' CDF over the positives' = max(TPR - FPR) for "score >= t"
    one = ks_statistic(y, s, alternative="greater")
    assert one.value == pytest.approx(_ks_2samp_statistic(neg, pos, alternative="greater"), abs=1e-12)
    for res, f in ((two, abs), (one, lambda d: d)):
        tpr = np.mean(pos >= res.threshold)
        fpr = np.mean(neg >= res.threshold)
        assert f(tpr - fpr) == pytest.approx(res.value, abs=1e-12)


@settings(max_examples=40)
@given(scored())
def test_min_error_rate_brute_force(data):
    y, s = data
    candidates = np.r_[np.inf, _thresholds(s)]
    errors = np.array([1 - accuracy_score(y, (s >= t).astype(int)) for t in candidates])
    best = min_error_rate(y, s)
    assert best.value == pytest.approx(errors.min(), abs=1e-12)
    assert best.threshold == candidates[np.flatnonzero(errors <= errors.min() + 1e-12)[0]]
    assert best.value <= min(y.mean(), 1 - y.mean()) + 1e-15


def test_min_error_rate_is_twice_the_minimum_loss_at_half_cost():
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 200)
    s = y + rng.normal(0, 1.5, 200)
    hull = apples.metrics.roc_convex_hull(y, s)
    assert min_error_rate(y, s).value == pytest.approx(2 * apples.metrics.minimum_loss(hull, 0.5), abs=1e-15)


# ---------------------------------------------------------------- invariance
_TRANSFORMS = {
    "affine": lambda s: 3.0 * s + 7.0,
    "cube": lambda s: s**3 + 5.0 * s,
    "exp": lambda s: np.exp(s / 4.0),
    "arctan": lambda s: np.arctan(s / 3.0),
}

_RANK_MEASURES = {
    "auk": auk,
    "max_f1": lambda y, s: max_f1(y, s).value,
    "max_mcc": lambda y, s: max_mcc(y, s).value,
    "r_precision": r_precision,
    "gini": gini,
    "ks": lambda y, s: ks_statistic(y, s).value,
    "min_error_rate": lambda y, s: min_error_rate(y, s).value,
    "h_measure": apples.h_measure,
    "h_measure_hand2014": lambda y, s: apples.h_measure(y, s, prior="hand2014"),
}


@settings(max_examples=100)
@given(
    st.integers(2, 20).flatmap(
        lambda n: st.tuples(
            st.permutations([1, 0] + [i % 2 for i in range(n - 2)]),
            st.lists(st.integers(-12, 12), min_size=n, max_size=n),
        )
    ),
    st.sampled_from(sorted(_TRANSFORMS)),
)
def test_rank_measures_invariant_to_increasing_transforms(data, name):
    y, s = np.array(data[0]), np.array(data[1], dtype=float)
    g = _TRANSFORMS[name]
    assert np.all(np.diff(g(np.arange(-12.0, 13.0))) > 0)  # strictly increasing on the score range
    for measure_name, measure in _RANK_MEASURES.items():
        assert measure(y, s) == measure(y, g(s)), measure_name
    # the optimising thresholds move with the scores
    for f in (max_f1, max_mcc, ks_statistic, min_error_rate):
        t, t_g = f(y, s).threshold, f(y, g(s)).threshold
        assert t_g == (g(t) if np.isfinite(t) else t)


# ---------------------------------------------------------------- bad input
_ALL = {
    "kappa_curve": kappa_curve,
    "auk": auk,
    "max_f1": max_f1,
    "max_mcc": max_mcc,
    "r_precision": r_precision,
    "gini": gini,
    "ks_statistic": ks_statistic,
    "min_error_rate": min_error_rate,
}


@pytest.mark.parametrize("name", sorted(_ALL))
@pytest.mark.parametrize(
    "y, s, error, match",
    [
        ([1, 1, 1], [0.1, 0.2, 0.3], ValueError, "only one class"),
        ([0, 0, 0], [0.1, 0.2, 0.3], ValueError, "only one class"),
        ([1, 0, 1], [0.1, np.nan, 0.3], ValueError, "y_score contains NaN"),
        ([1, 0, 1], [0.1, np.inf, 0.3], ValueError, "y_score contains an infinite"),
        ([1, 0, 1], [0.1, -np.inf, 0.3], ValueError, "y_score contains an infinite"),
        ([1, 0, 2], [0.1, 0.2, 0.3], ValueError, "y_true must hold two classes"),
        ([3, 2, 3], [0.1, 0.2, 0.3], ValueError, "pos_label=1 is not one of the labels"),
        ([1, 0, 1], [0.1, 0.2], ValueError, "inconsistent lengths"),
        ([], [], ValueError, "y_true is empty"),
        ([[1, 0]], [[0.1, 0.2]], ValueError, "one-dimensional"),
        ([1, 0], ["a", "b"], TypeError, "y_score must be numeric"),
        ([1, np.nan], [0.1, 0.2], ValueError, "y_true contains NaN"),
    ],
)
def test_bad_input(name, y, s, error, match):
    with pytest.raises(error, match=match):
        _ALL[name](y, s)


def test_bad_options():
    y, s = [1, 0, 1, 0], [0.4, 0.3, 0.2, 0.1]
    with pytest.raises(ValueError, match="alternative='less' is not recognised"):
        ks_statistic(y, s, alternative="less")
    with pytest.raises(ValueError, match="undefined='skip' is not recognised"):
        max_mcc(y, s, undefined="skip")
    with pytest.raises(ValueError, match=r"beta must be a number in \[0, inf\]"):
        max_f1(y, s, beta=-1)
    with pytest.raises(TypeError, match="beta must be a real number"):
        max_f1(y, s, beta="2")
    with pytest.raises(ValueError, match="ties='random' is not recognised"):
        r_precision(y, s, ties="random")


def test_positive_label_keyword():
    y = np.array(["spam", "ham", "spam", "ham"])
    s = [0.9, 0.8, 0.3, 0.1]
    assert max_f1(y, s, pos_label="spam") == max_f1([1, 0, 1, 0], s)
    assert auk(y, s, pos_label="spam") == auk([1, 0, 1, 0], s)
    assert gini(y, s, pos_label="ham") == gini([0, 1, 0, 1], s)
