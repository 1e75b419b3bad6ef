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
