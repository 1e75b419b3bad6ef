"""The scoring-rules kernels against scikit-learn: per fold, pooled, weighted, binary and multi-class, clipped or not;
pooled = size-weighted mean of folds."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import brier_score_loss, log_loss

from apples._kernels.scoring_rules import fold_scoring_rules, fold_scoring_sums


@settings(max_examples=60)
@given(n=st.integers(6, 60), k=st.integers(1, 5), seed=st.integers(0, 2**32 - 1), weighted=st.booleans())
def test_per_fold_and_pooled_values_are_scikit_learns(n, k, seed, weighted):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    p = rng.uniform(0.01, 0.99, n)
    codes = np.arange(n) % k  # every fold holds a case (n >= 6 > k)
    w = rng.uniform(0.1, 3.0, n) if weighted else None
    r = fold_scoring_rules(y, p, codes, k, w)
    for j in range(k):
        sel = codes == j
        wj = None if w is None else w[sel]
        assert r.brier[j] == pytest.approx(brier_score_loss(y[sel], p[sel], sample_weight=wj, pos_label=1), rel=1e-12)
        assert r.log_loss[j] == pytest.approx(log_loss(y[sel], p[sel], sample_weight=wj, labels=[0, 1]), rel=1e-12)
    assert r.pooled_brier == pytest.approx(brier_score_loss(y, p, sample_weight=w), rel=1e-12)
    assert r.pooled_log_loss == pytest.approx(log_loss(y, p, sample_weight=w, labels=[0, 1]), rel=1e-12)
    # pooling = the mean of the folds' values weighted by their (weighted) sizes
    assert r.pooled_brier == pytest.approx(np.dot(r.size, r.brier) / r.size.sum(), rel=1e-12)


def test_a_confident_mistake_has_infinite_log_loss_never_clipped():
    r = fold_scoring_rules(np.array([1, 0]), np.array([0.0, 0.5]), np.array([0, 1]), 2)
    assert np.isinf(r.log_loss[0]) and r.pooled_log_loss == np.inf  # scikit-learn clips p at eps instead
    assert r.log_loss[1] == pytest.approx(np.log(2))


def test_an_empty_fold_is_nan_and_a_zero_weight_drops_its_case():
    r = fold_scoring_rules(np.array([1, 0]), np.array([0.0, 0.5]), np.array([0, 0]), 2, np.array([0.0, 1.0]))
    assert r.log_loss[0] == pytest.approx(np.log(2)) and np.isnan(r.log_loss[1]) and np.isnan(r.brier[1])


# -- fold_scoring_sums: binary and multi-class, weighted, clipped or not -------------------------------------------
def _table(rng, n, q, zeros=False):
    p = rng.dirichlet(np.ones(q), size=n)
    if zeros:  # some probabilities exactly 0 (a case certain it is not a label)
        p[rng.random((n, q)) < 0.2] = 0.0
        p[p.sum(axis=1) == 0, 0] = 1.0
        p /= p.sum(axis=1, keepdims=True)
    return p


@settings(max_examples=60, deadline=None)
@given(n=st.integers(6, 60), q=st.integers(2, 5), k=st.integers(1, 4), seed=st.integers(0, 2**32 - 1), w=st.booleans())
def test_multiclass_fold_sums_are_scikit_learns(n, q, k, seed, w):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, q, n)
    p = _table(rng, n, q)
    codes = np.arange(n) % k
    weights = rng.uniform(0.1, 3.0, n) if w else None
    r = fold_scoring_sums(truth, p, codes, k, weights)
    labels = list(range(q))
    for f in range(k):
        sel = codes == f
        wf = None if weights is None else weights[sel]
        size = sel.sum() if wf is None else wf.sum()
        assert r.weight[f] == pytest.approx(size, rel=1e-12)
        # no probability of a true label is near 0 here, so scikit-learn's clipping at 2.2e-16 changes nothing
        assert r.log_loss[f] / r.weight[f] == pytest.approx(
            log_loss(truth[sel], p[sel], sample_weight=wf, labels=labels), rel=1e-12
        )
        assert r.brier[f] / r.weight[f] == pytest.approx(
            brier_score_loss(truth[sel], p[sel], sample_weight=wf, labels=labels, scale_by_half=False), rel=1e-12
        )
    assert r.n_infinite.tolist() == [0] * k


def test_binary_sums_agree_with_fold_scoring_rules():
    rng = np.random.default_rng(2)
    y, p, codes, w = rng.integers(0, 2, 50), rng.random(50), rng.integers(0, 3, 50), rng.random(50)
    sums, rules = fold_scoring_sums(y, p, codes, 3, w), fold_scoring_rules(y, p, codes, 3, w)
    np.testing.assert_allclose(sums.log_loss / sums.weight, rules.log_loss, rtol=1e-15)
    np.testing.assert_allclose(sums.brier / sums.weight, rules.brier, rtol=1e-15)
    np.testing.assert_array_equal(sums.weight, rules.size)


def test_a_zero_probability_for_the_truth_is_infinite_and_counted_unless_clipped_or_weightless():
    truth = np.array([0, 2, 1, 2])
    p = np.array([[0.5, 0.5, 0.0], [0.5, 0.5, 0.0], [0.0, 1.0, 0.0], [0.25, 0.25, 0.5]])
    codes = np.array([0, 0, 1, 1])
    r = fold_scoring_sums(truth, p, codes, 2)
    assert r.log_loss[0] == np.inf and r.n_infinite.tolist() == [1, 0]
    assert r.log_loss[1] == pytest.approx(np.log(2))  # -log 1 - log 0.5
    weightless = fold_scoring_sums(truth, p, codes, 2, np.array([1.0, 0.0, 1.0, 1.0]))
    assert weightless.log_loss[0] == pytest.approx(np.log(2)) and weightless.n_infinite.tolist() == [0, 0]
    eps = np.finfo(np.float64).eps
    clipped = fold_scoring_sums(truth, p, codes, 2, eps=eps)
    assert clipped.log_loss[0] == pytest.approx(np.log(2) - np.log(eps), rel=1e-12)
    assert clipped.n_infinite.tolist() == [0, 0]
    # scikit-learn >= 1.5 clips every probability at the dtype's eps, without renormalising the rows
    assert clipped.log_loss[0] / 2 == pytest.approx(log_loss(truth[:2], p[:2], labels=[0, 1, 2]), rel=1e-12)
    # the Brier score is never clipped: (1/4 + 1/4 + 0) + (1/4 + 1/4 + 1)
    assert r.brier[0] == clipped.brier[0] == 2.0


def test_eps_clips_both_ends_of_a_binary_probability():
    y, p = np.array([1, 0, 1]), np.array([1.0, 1.0, 0.25])
    r = fold_scoring_sums(y, p, np.zeros(3, dtype=np.intp), 1, eps=0.125)
    # the true label's probability: 1 -> 7/8, 0 -> 1/8, 1/4 stays
    assert r.log_loss[0] == pytest.approx(-np.log(0.875) - np.log(0.125) - np.log(0.25), rel=1e-14)
    assert r.brier[0] == pytest.approx(0.0 + 1.0 + 0.5625, rel=1e-15)
