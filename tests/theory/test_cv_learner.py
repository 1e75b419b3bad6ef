"""The simulated learner: its studies are built as a researcher builds CVPredictions, from the model's formulas.

Every count and score is recomputed here from the latent draws with numpy and scipy (the module's formulas
written out), and the fold models' separations are checked for the law they must follow.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import special, stats

import apples
from apples._params import ParameterValueError
from apples.theory import simulate_learner_cv
from apples.theory.cv_learner import draw_study


def _draw(task="binary", prior=0.1, n=200, k=5, r=3, delta0=1.5, tau=0.5, w=1.0, seed=0):
    return draw_study(task, prior, n, k, r, delta0, tau, w, np.random.default_rng(seed))


def test_binary_study_is_stratified_repeated_and_scored_by_the_calibrated_posterior():
    n, k, r, prior = 200, 5, 3, 0.1
    st = _draw(n=n, k=k, r=r, prior=prior, w=3.0)
    p = simulate_learner_cv(prior=prior, n_cases=n, n_folds=k, n_repeats=r, training_sd=0.5, pos_weight=3.0, seed=0)
    y = np.tile(st.y, r)
    assert int(st.y.sum()) == 20 and len(p) == r * n and p.n_repeats == r
    folds = st.folds.reshape(r, n)
    for rep in range(r):  # stratified: every fold holds 40 cases, 4 of them positive; each repeat re-splits
        assert np.bincount(folds[rep], minlength=k).tolist() == [40] * k
        assert np.bincount(folds[rep], weights=st.y, minlength=k).tolist() == [4.0] * k
    assert not np.array_equal(folds[0], folds[1])
    # the report's view: the same rows, repeats and cases as given
    assert np.array_equal(p.y_true, y) and np.array_equal(p.folds, st.folds)
    assert np.array_equal(p.cases, np.tile(np.arange(n), r)) and np.array_equal(p.repeats, np.repeat(np.arange(r), n))
    # scores s = δ·y + z with the case's z fixed across repeats; posterior σ(δ s − δ²/2 + λ); y_pred = p > 1/2
    d = st.separation[np.repeat(np.arange(r), n), st.folds]
    s = d * y + np.tile(st.noise, r)
    lam = math.log(prior / (1 - prior))
    posterior = 1.0 / (1.0 + np.exp(-(d * s - d**2 / 2 + lam)))
    assert np.allclose(p.y_score, posterior, rtol=1e-12, atol=0)
    assert np.array_equal(p.y_pred, (posterior > 0.5).astype(int))
    # ... and it is the posterior: Bayes' rule on N(δ, 1) against N(0, 1) at prior π
    bayes = prior * stats.norm.pdf(s, d, 1) / (prior * stats.norm.pdf(s, d, 1) + (1 - prior) * stats.norm.pdf(s, 0, 1))
    assert np.allclose(p.y_score, bayes, rtol=1e-9)
    assert np.array_equal(p.sample_weight, np.where(y == 1, 3.0, 1.0))


def test_the_fold_models_separations_have_the_nadeau_bengio_law():
    """δ_rf = δ0 + τ(√ρ g + √(1−ρ) e_rf): mean δ0, variance τ², correlation ρ = 1/(k−1) between any two models of
    one study (also across repeats), independent across studies."""
    k, tau = 5, 0.5
    deltas = np.array([_draw(n=20, k=k, r=2, tau=tau, seed=s).separation.ravel() for s in range(4000)])
    assert deltas.mean() == pytest.approx(1.5, abs=4 * tau / math.sqrt(deltas.size / 2))
    assert deltas.var(ddof=1) == pytest.approx(tau**2, rel=0.06)
    corr = np.corrcoef(deltas.T)
    off = corr[~np.eye(2 * k, dtype=bool)]
    # 4000 studies: the sample correlation's SE is about (1 − ρ²)/√4000 = 0.015
    assert off.mean() == pytest.approx(1 / (k - 1), abs=0.02)
    assert np.abs(off - 1 / (k - 1)).max() < 0.07


def test_a_fixed_classifier_recalls_at_its_bayes_rate():
    """τ = 0: one model everywhere; its pooled recall is the binomial share Φ(δ/2 + λ/δ) (Bayes rule ℓ > 0)."""
    prior, delta = 0.3, 1.2
    p = simulate_learner_cv(prior=prior, n_cases=100_000, n_folds=4, delta0=delta, seed=5)
    positives = p.y_true == 1
    recall = p.y_pred[positives].mean()
    lam = math.log(prior / (1 - prior))
    expected = special.ndtr(delta / 2 + lam / delta)
    assert abs(recall - expected) < 4 * math.sqrt(expected * (1 - expected) / positives.sum())
    fpr = p.y_pred[~positives].mean()
    expected_fpr = special.ndtr(lam / delta - delta / 2)
    assert abs(fpr - expected_fpr) < 4 * math.sqrt(expected_fpr * (1 - expected_fpr) / (~positives).sum())


def test_multiclass_and_multilabel_studies():
    st = _draw(task="multiclass", prior=(0.5, 0.3, 0.2), n=300, k=10, r=2, tau=0.0, seed=1)
    assert np.bincount(st.y).tolist() == [150, 90, 60]
    d = 1.5
    s = np.tile(st.noise, (2, 1))
    s[np.arange(600), np.tile(st.y, 2)] += d
    ell = d * s - d * d / 2 + np.log([0.5, 0.3, 0.2])
    assert np.allclose(st.y_score, ell) and np.array_equal(st.y_pred, ell.argmax(axis=1))
    for rep in range(2):  # stratified by class
        f = st.folds[rep * 300 : (rep + 1) * 300]
        assert np.bincount(f, weights=st.y == 2, minlength=10).tolist() == [6.0] * 10
    p = simulate_learner_cv(task="multiclass", prior=(0.5, 0.3, 0.2), n_cases=300, n_folds=10, n_repeats=2, seed=1)
    assert p.task == "multiclass" and p.labels == [0, 1, 2]

    ml = _draw(task="multilabel", prior=(0.3, 0.2, 0.1), n=20_000, k=5, r=1, tau=0.0, seed=2)
    assert ml.y.shape == (20_000, 3)
    assert np.abs(ml.y.mean(axis=0) - [0.3, 0.2, 0.1]).max() < 4 * math.sqrt(0.25 / 20_000)
    lam = np.log([0.3 / 0.7, 0.2 / 0.8, 0.1 / 0.9])
    ell = d * (d * ml.y + ml.noise) - d * d / 2 + lam
    assert np.allclose(ml.y_score, special.expit(ell)) and np.array_equal(ml.y_pred, (ell > 0).astype(int))
    assert np.bincount(ml.folds).tolist() == [4000] * 5
    p = simulate_learner_cv(task="multilabel", prior=(0.3, 0.2, 0.1), n_cases=100, n_folds=5, seed=2)
    assert p.task == "multilabel"


def test_a_study_is_a_function_of_its_seed():
    a = simulate_learner_cv(prior=0.25, n_cases=40, n_folds=4, n_repeats=2, training_sd=0.5, seed=11)
    b = simulate_learner_cv(prior=0.25, n_cases=40, n_folds=4, n_repeats=2, training_sd=0.5, seed=11)
    c = simulate_learner_cv(prior=0.25, n_cases=40, n_folds=4, n_repeats=2, training_sd=0.5, seed=12)
    assert np.array_equal(a.y_score, b.y_score) and not np.array_equal(a.y_score, c.y_score)
    assert apples.report(a).to_dict()["values"] == apples.report(b).to_dict()["values"]


@pytest.mark.parametrize(
    ("kwargs", "param", "match"),
    [
        ({"prior": (0.5, 0.5)}, "prior", "one number"),
        ({"task": "multiclass", "prior": 0.5}, "prior", "sequence of class priors"),
        ({"task": "multiclass", "prior": (0.5, 0.5)}, "prior", "three or more"),
        ({"task": "multiclass", "prior": (0.5, 0.3, 0.3)}, "prior", "sum to 1"),
        ({"task": "multilabel", "prior": (0.5,)}, "prior", "two or more"),
        ({"task": "multiclass", "prior": (0.5, 0.3, 0.2), "pos_weight": 2.0}, "pos_weight", "binary task"),
        ({"prior": 0.01, "n_cases": 200, "n_folds": 5}, "n_folds", "fewer than n_folds=5"),
        ({"prior": 0.0}, "prior", "prior"),
        ({"delta0": 0.0}, "delta0", "delta0"),
        ({"task": "ternary"}, "task", "task"),
    ],
)
def test_bad_designs_are_refused_by_name(kwargs, param, match):
    with pytest.raises(ParameterValueError, match=match) as err:
        simulate_learner_cv(**kwargs)
    assert err.value.param == param
