"""Tests for apples.binormal: every quantity against scipy.stats, quadrature or scikit-learn."""

import numpy as np
import pytest
from scipy import integrate, stats
from sklearn.metrics import roc_auc_score

from apples.theory import Binormal

MODELS = [
    Binormal(),
    Binormal(mu_pos=2.0, sd_pos=0.5, mu_neg=-1.0, sd_neg=1.7, pi_pos=0.1),
    Binormal(mu_pos=0.3, sd_pos=2.0, mu_neg=0.0, sd_neg=1.0, pi_pos=0.8),
    Binormal(mu_pos=-1.0, sd_pos=1.0, mu_neg=0.0, sd_neg=1.0, pi_pos=0.5),  # worse than random
]
T = np.linspace(-8, 8, 161)


@pytest.mark.parametrize("m", MODELS)
def test_densities_and_rates_agree_with_scipy_stats(m):
    pos, neg = stats.norm(m.mu_pos, m.sd_pos), stats.norm(m.mu_neg, m.sd_neg)
    np.testing.assert_allclose(m.pdf_pos(T), pos.pdf(T), rtol=1e-13, atol=1e-300)
    np.testing.assert_allclose(m.pdf_neg(T), neg.pdf(T), rtol=1e-13, atol=1e-300)
    np.testing.assert_allclose(m.cdf_pos(T), pos.cdf(T), rtol=1e-13, atol=1e-300)
    np.testing.assert_allclose(m.cdf_neg(T), neg.cdf(T), rtol=1e-13, atol=1e-300)
    np.testing.assert_allclose(m.tpr(T), pos.sf(T), rtol=1e-13, atol=1e-300)
    np.testing.assert_allclose(m.fpr(T), neg.sf(T), rtol=1e-13, atol=1e-300)
    np.testing.assert_allclose(m.log_likelihood_ratio(T), pos.logpdf(T) - neg.logpdf(T), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(m.pdf(T), m.pi_pos * pos.pdf(T) + (1 - m.pi_pos) * neg.pdf(T), rtol=1e-13)
    np.testing.assert_allclose(m.positive_rate(T), m.pi_pos * pos.sf(T) + (1 - m.pi_pos) * neg.sf(T), rtol=1e-13)
    v = np.linspace(0.001, 0.999, 50)
    np.testing.assert_allclose(m.threshold_at_fpr(v), neg.isf(v), rtol=1e-12)
    assert m.pi_neg == pytest.approx(1 - m.pi_pos, abs=0)
    assert Binormal(pi_pos=0.25).pi_neg == 0.75  # by hand: the definition above alone is a tautology


@pytest.mark.parametrize("m", MODELS)
def test_roc_is_tpr_at_the_threshold_of_that_fpr(m):
    t = np.linspace(-3, 3, 31)
    np.testing.assert_allclose(m.roc(m.fpr(t)), m.tpr(t), rtol=1e-10, atol=1e-14)
    assert m.roc(0.0) == 0.0 and m.roc(1.0) == 1.0


@pytest.mark.parametrize("m", MODELS)
def test_auc_closed_form_equals_both_integrals(m):
    # Parker §II-D: AUC = ∫_0^1 F_0(F_1^{-1}(v)) dv = ∫ F_0(t) f_1(t) dt
    in_roc_space = integrate.quad(lambda v: m.roc(v), 0, 1, epsabs=1e-13, epsrel=1e-12, limit=200)[0]
    in_scores = integrate.quad(
        lambda t: m.tpr(t) * m.pdf_neg(t), -40, 40, points=[m.mu_pos, m.mu_neg], epsabs=1e-14, limit=200
    )[0]
    assert abs(in_roc_space - m.auc) < 1e-9
    assert abs(in_scores - m.auc) < 1e-12


def test_auc_agrees_with_sklearn_on_a_large_sample():
    m = MODELS[1]
    y, s = m.sample(20_000, 20_000, seed=1)
    # standard error of a Mann-Whitney AUC here is below 0.003
    assert abs(roc_auc_score(y, s) - m.auc) < 0.01


def test_sample_is_reproducible_and_has_the_asked_counts():
    m = Binormal(mu_pos=1.0)
    y1, s1 = m.sample(30, 70, seed=5)
    _y2, s2 = m.sample(30, 70, seed=np.random.default_rng(5))
    assert y1.tolist() == [1] * 30 + [0] * 70
    np.testing.assert_array_equal(s1, s2)
    assert not np.array_equal(s1, m.sample(30, 70, seed=6)[1])
    # the positives follow N(mu_pos, sd_pos): a KS test would reject a swapped model
    y, s = m.sample(4000, 4000, seed=0)
    assert stats.kstest(s[y == 1], m.pos.cdf).pvalue > 1e-3
    assert stats.kstest(s[y == 0], m.neg.cdf).pvalue > 1e-3
    _, rounded = m.sample(500, 500, seed=0, decimals=1)
    assert np.unique(rounded).size < 100  # ties
    np.testing.assert_array_equal(rounded, np.round(m.sample(500, 500, seed=0)[1], 1))


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        (dict(sd_pos=0.0), ValueError, "sd_pos must be > 0"),
        (dict(sd_neg=-1.0), ValueError, "sd_neg must be > 0"),
        (dict(pi_pos=0.0), ValueError, "pi_pos must be > 0"),
        (dict(pi_pos=1.0), ValueError, "pi_pos must be < 1"),
        (dict(mu_pos=float("nan")), ValueError, "mu_pos must be a number, got NaN"),
        (dict(mu_neg=float("inf")), ValueError, "mu_neg must be finite"),
        (dict(mu_pos="1"), TypeError, "mu_pos must be a real number"),
        (dict(sd_pos=True), TypeError, "sd_pos must be a real number"),
    ],
)
def test_bad_parameters_are_rejected(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        Binormal(**kwargs)


def test_bad_arguments_are_rejected():
    m = Binormal()
    with pytest.raises(ValueError, match="fpr must lie in"):
        m.roc(1.5)
    with pytest.raises(ValueError, match="fpr must lie in"):
        m.threshold_at_fpr(-0.1)
    with pytest.raises(TypeError, match="seed must be a non-negative integer"):
        m.sample(3, 3, seed=None)
    with pytest.raises(ValueError, match="n_pos must be between 1 and"):
        m.sample(0, 3, seed=0)
    with pytest.raises(TypeError, match="n_neg must be an integer"):
        m.sample(3, 2.0, seed=0)
    with pytest.raises(TypeError, match="decimals must be an integer"):
        m.sample(3, 3, seed=0, decimals=1.5)
