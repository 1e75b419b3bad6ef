"""The scoring-rules kernel against scikit-learn: per fold, pooled, weighted; pooled = size-weighted mean of folds."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import brier_score_loss, log_loss

from apples._kernels.scoring_rules import fold_scoring_rules


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
