"""The truths of the report's values for the binormal learner, against independent computations.

* One fold model: scikit-learn (and the ``hmeasure`` package) on a huge sample of it, and
  ``apples.theory.binormal_h_measure`` (another quadrature) for the H-measure.
* The aggregations: Monte Carlo over many fold models, each a large sample scored by scikit-learn
  (the average of their values, the measure of their pooled predictions, the ranking of their
  merged scores), converging to the exact sums; and the k-fold design's targets against Monte Carlo
  over studies of k correlated models.
* The quadratures against rules of twice the size, and the closed forms where there are some.

Tolerances are 4.5 Monte Carlo standard errors (batch means over independent models or studies), so each
check fails when a truth is off by a few of them.
"""

from __future__ import annotations

import math
import warnings
from functools import partial

import hmeasure
import numpy as np
import pandas as pd
import pytest
from scipy import special, stats
from sklearn import metrics as skm

import apples
from apples.theory import (
    Binormal,
    binormal_h_measure,
    cv_truths,
    fold_model_values,
    learner_models,
    learner_truths,
    simulate_learner_cv,
)

_Z = 4.5


def _within(value: float, draws: np.ndarray, truth: float, label: str) -> None:
    """|value − truth| < 4.5 standard errors, the SE from the spread of independent batch values ``draws``."""
    se = float(np.std(draws, ddof=1) / math.sqrt(draws.size))
    assert abs(value - truth) < _Z * se + 1e-12, f"{label}: Monte Carlo {value:.5f} ± {se:.5f}, truth {truth:.5f}"


def _binary_sample(delta, prior, n, rng):
    y = (rng.random(n) < prior).astype(int)
    s = delta * y + rng.standard_normal(n)
    ell = delta * s - delta**2 / 2 + math.log(prior / (1 - prior))
    return y, special.expit(ell), (ell > 0).astype(int)


def _binary_metrics(y, p, yp, w):
    return {
        "f_measure": skm.f1_score(y, yp, sample_weight=w),
        "precision": skm.precision_score(y, yp, sample_weight=w, zero_division=0),
        "recall": skm.recall_score(y, yp, sample_weight=w),
        "accuracy": skm.accuracy_score(y, yp, sample_weight=w),
        "balanced_accuracy": skm.balanced_accuracy_score(y, yp, sample_weight=w),
        "mcc": skm.matthews_corrcoef(y, yp, sample_weight=w),
        "cohen_kappa": skm.cohen_kappa_score(y, yp, sample_weight=w),
        "roc_auc": skm.roc_auc_score(y, p, sample_weight=w),
        "average_precision": skm.average_precision_score(y, p, sample_weight=w),
        "log_loss": skm.log_loss(y, p, sample_weight=w),
        "brier_score": skm.brier_score_loss(y, p, sample_weight=w),
    }


# -- one fold model --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("delta", "prior", "weight"), [(1.3, 0.1, 3.0), (-2.0, 0.7, 0.5)])
def test_one_fold_model_against_scikit_learn_on_a_huge_sample(delta, prior, weight):
    """Ten samples of 60,000 cases of one fold model (δ < 0: its posterior knows the sign), class-weighted."""
    rng = np.random.default_rng(7)
    values = fold_model_values(delta, prior=prior, pos_weight=weight).set_index("quantity")["value"]
    per_batch = pd.DataFrame(
        [_binary_metrics(y, p, yp, np.where(y == 1, weight, 1.0))
         for y, p, yp in (_binary_sample(delta, prior, 60_000, rng) for _ in range(10))]
    )  # fmt: skip
    for q in per_batch.columns:
        _within(per_batch[q].mean(), per_batch[q].to_numpy(), values[q], q)


def test_the_h_measure_of_a_fold_model_is_hands_and_parkers():
    # another quadrature of the same population H (over log-cost, Parker's threshold), to 1e-8
    for delta, pe in ((0.3, 0.1), (1.3, 0.25), (2.5, 0.5), (1.0, 0.9)):
        v = fold_model_values(delta, prior=pe).set_index("quantity")["value"]
        expected = binormal_h_measure(Binormal(mu_pos=abs(delta), pi_pos=pe), severity_ratio=pe / (1 - pe))
        assert v["h_measure"] == pytest.approx(expected, abs=1e-8)
    # the hmeasure package on a large sample; class weights act as the prior π' (H depends on the ranking only)
    prior, weight = 0.1, 3.0
    pe = weight * prior / (weight * prior + 1 - prior)
    truth = fold_model_values(1.3, prior=prior, pos_weight=weight).set_index("quantity")["value"]["h_measure"]
    rng = np.random.default_rng(3)
    draws = []
    for _ in range(10):
        y, p, _ = _binary_sample(1.3, pe, 40_000, rng)
        draws.append(hmeasure.h_score(y, p, severity_ratio=pe / (1 - pe)))
    _within(float(np.mean(draws)), np.array(draws), truth, "H")


def test_multiclass_fold_model_against_scikit_learn():
    rng = np.random.default_rng(11)
    pi, d = np.array([0.5, 0.3, 0.2]), 0.9
    rows = []
    for _ in range(8):
        n = 60_000
        y = rng.choice(3, size=n, p=pi)
        s = rng.standard_normal((n, 3))
        s[np.arange(n), y] += d
        ell = d * s - d * d / 2 + np.log(pi)
        yp = ell.argmax(axis=1)
        macro_p, macro_r = skm.precision_score(y, yp, average="macro"), skm.recall_score(y, yp, average="macro")
        rows.append(
            {
                ("accuracy", ""): skm.accuracy_score(y, yp),
                ("balanced_accuracy", ""): skm.balanced_accuracy_score(y, yp),
                ("mcc", ""): skm.matthews_corrcoef(y, yp),
                ("cohen_kappa", ""): skm.cohen_kappa_score(y, yp),
                ("precision", "macro"): macro_p,
                ("recall", "macro"): macro_r,
                ("f_of_averages", "macro"): 2 * macro_p * macro_r / (macro_p + macro_r),
                ("mean_f", "macro"): skm.f1_score(y, yp, average="macro"),
                ("precision", "lfb_test"): skm.precision_score(y, yp, average="weighted"),
                ("mean_f", "lfb_test"): skm.f1_score(y, yp, average="weighted"),
                ("precision", "micro"): skm.precision_score(y, yp, average="micro"),
                ("roc_auc", "macro_ovr"): np.mean([skm.roc_auc_score(y == j, ell[:, j]) for j in range(3)]),
            }
        )
    values = fold_model_values(d, task="multiclass", prior=tuple(pi)).set_index(["quantity", "average"])["value"]
    frame = pd.DataFrame(rows)
    for key in frame.columns:
        _within(frame[key].mean(), frame[key].to_numpy(), values[key], str(key))


def test_multilabel_fold_model_against_scikit_learn():
    rng = np.random.default_rng(12)
    pl, d = np.array([0.3, 0.2, 0.1]), 0.9
    rows = []
    for _ in range(8):
        y = (rng.random((60_000, 3)) < pl).astype(int)
        ell = d * (d * y + rng.standard_normal(y.shape)) - d * d / 2 + np.log(pl / (1 - pl))
        yp = (ell > 0).astype(int)
        rows.append(
            {
                ("precision", "macro"): skm.precision_score(y, yp, average="macro"),
                ("recall", "micro"): skm.recall_score(y, yp, average="micro"),
                ("precision", "micro"): skm.precision_score(y, yp, average="micro"),
                ("mean_f", "macro"): skm.f1_score(y, yp, average="macro"),
                ("mean_f", "micro"): skm.f1_score(y, yp, average="micro"),
                ("mean_f", "lfb_test"): skm.f1_score(y, yp, average="weighted"),
                ("subset_accuracy", ""): skm.accuracy_score(y, yp),
                ("hamming_loss", ""): skm.hamming_loss(y, yp),
                ("roc_auc", "macro_ovr"): skm.roc_auc_score(y, special.expit(ell), average="macro"),
            }
        )
    values = fold_model_values(d, task="multilabel", prior=tuple(pl)).set_index(["quantity", "average"])["value"]
    frame = pd.DataFrame(rows)
    for key in frame.columns:
        _within(frame[key].mean(), frame[key].to_numpy(), values[key], str(key))


# -- the aggregations over fold models ------------------------------------------------------------------------------
def _counts_measures(y, yp, w):
    """F, precision, MCC, kappa, accuracy of weighted counts, written out (Forman & Scholz eqs. 1-2; Matthews;
    Cohen)."""
    tp, fp = np.sum(w * (y == 1) * (yp == 1)), np.sum(w * (y == 0) * (yp == 1))
    fn, tn = np.sum(w * (y == 1) * (yp == 0)), np.sum(w * (y == 0) * (yp == 0))
    n = tp + fp + fn + tn
    chance = ((tp + fp) * (tp + fn) + (fn + tn) * (fp + tn)) / n**2
    return {
        "f_measure": 2 * tp / (2 * tp + fp + fn),
        "precision": tp / (tp + fp),
        "recall": tp / (tp + fn),
        "mcc": (tp * tn - fp * fn) / math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)),
        "cohen_kappa": ((tp + tn) / n - chance) / (1 - chance),
        "accuracy": (tp + tn) / n,
    }


def test_binary_aggregations_against_many_fold_models_scored_by_scikit_learn():
    """120 fold models δ ~ N(1.2, 0.5²), 5,000 cases each, class-weighted: the mean of their values (avg), their
    pooled predictions (pooled), their merged scores (merge, of the population of models) converge to the truths.
    (At π = 0.5 every model predicts both labels: no fold's precision is 0/0; π = 0.1 is the coverage study's.)"""
    prior, weight, n_models, n = 0.5, 2.0, 120, 5000
    rng = np.random.default_rng(21)
    truth = learner_truths(prior=prior, delta0=1.2, training_sd=0.5, pos_weight=weight)
    truth = truth.set_index(["quantity", "aggregation"])["truth"]
    samples = [_binary_sample(d, prior, n, rng) for d in 1.2 + 0.5 * rng.standard_normal(n_models)]
    weights = [np.where(y == 1, weight, 1.0) for y, _, _ in samples]
    per_model = pd.DataFrame(
        [
            {
                **_counts_measures(y, yp, w),
                "roc_auc": skm.roc_auc_score(y, p, sample_weight=w),
                "average_precision": skm.average_precision_score(y, p, sample_weight=w),
                "log_loss": skm.log_loss(y, p, sample_weight=w),
            }
            for (y, p, yp), w in zip(samples, weights, strict=True)
        ]
    )
    batches = np.array_split(np.arange(n_models), 12)
    for q in per_model.columns:
        means = np.array([per_model[q].to_numpy()[b].mean() for b in batches])
        _within(per_model[q].mean(), means, truth[(q, "avg")], f"{q} avg")

    def pooled(idx):
        y, p, yp = (np.concatenate(v) for v in zip(*(samples[i] for i in idx), strict=True))
        w = np.concatenate([weights[i] for i in idx])
        return {
            **_counts_measures(y, yp, w),
            "roc_auc": skm.roc_auc_score(y, p, sample_weight=w),
            "average_precision": skm.average_precision_score(y, p, sample_weight=w),
        }

    whole, parts = pooled(range(n_models)), pd.DataFrame([pooled(b) for b in batches])
    for q in ("f_measure", "precision", "mcc", "cohen_kappa", "accuracy"):
        _within(whole[q], parts[q].to_numpy(), truth[(q, "tp_fp" if q == "f_measure" else "pooled")], f"{q} pooled")
    for q in ("roc_auc", "average_precision"):
        _within(whole[q], parts[q].to_numpy(), truth[(q, "merge")], f"{q} merge")
    p_avg, r_avg = per_model["precision"].mean(), per_model["recall"].mean()
    f_parts = [2 * a * b / (a + b) for a, b in ((per_model["precision"][b].mean(), per_model["recall"][b].mean())
               for b in batches)]  # fmt: skip
    _within(2 * p_avg * r_avg / (p_avg + r_avg), np.array(f_parts), truth[("f_measure", "pr_re")], "F pr_re")


def test_multiclass_and_multilabel_pooled_values_against_many_fold_models():
    rng = np.random.default_rng(5)
    pi = np.array([0.5, 0.3, 0.2])
    truth = learner_truths(task="multiclass", prior=tuple(pi), delta0=1.0, training_sd=0.5)
    truth = truth.set_index(["quantity", "average", "aggregation"])["truth"]
    ys, ps = [], []
    for d in 1.0 + 0.5 * rng.standard_normal(120):
        y = rng.choice(3, size=4000, p=pi)
        s = rng.standard_normal((4000, 3))
        s[np.arange(4000), y] += d
        ys.append(y)
        ps.append((d * s - d * d / 2 + np.log(pi)).argmax(axis=1))
    batches = np.array_split(np.arange(120), 12)

    def macro_precision(idx):
        return skm.precision_score(np.concatenate([ys[i] for i in idx]), np.concatenate([ps[i] for i in idx]),
                                   average="macro", zero_division=0)  # fmt: skip

    _within(macro_precision(range(120)), np.array([macro_precision(b) for b in batches]),
            truth[("precision", "macro", "pooled")], "multi-class macro precision pooled")  # fmt: skip
    mcc = np.array([skm.matthews_corrcoef(y, p) for y, p in zip(ys, ps, strict=True)])
    _within(mcc.mean(), np.array([mcc[b].mean() for b in batches]), truth[("mcc", "", "avg")], "multi-class MCC avg")

    pl = np.array([0.3, 0.2, 0.1])
    truth = learner_truths(task="multilabel", prior=tuple(pl), delta0=1.0, training_sd=0.5)
    truth = truth.set_index(["quantity", "average", "aggregation"])["truth"]
    ys, ps = [], []
    for d in 1.0 + 0.5 * rng.standard_normal(120):
        y = (rng.random((4000, 3)) < pl).astype(int)
        ell = d * (d * y + rng.standard_normal(y.shape)) - d * d / 2 + np.log(pl / (1 - pl))
        ys.append(y)
        ps.append((ell > 0).astype(int))

    def micro_f(idx):
        return skm.f1_score(np.concatenate([ys[i] for i in idx]), np.concatenate([ps[i] for i in idx]), average="micro")

    _within(micro_f(range(120)), np.array([micro_f(b) for b in batches]), truth[("mean_f", "micro", "pooled")],
            "multi-label micro F pooled")  # fmt: skip
    subset = np.array([skm.accuracy_score(y, p) for y, p in zip(ys, ps, strict=True)])
    _within(subset.mean(), np.array([subset[b].mean() for b in batches]), truth[("subset_accuracy", "", "avg")],
            "multi-label subset accuracy")  # fmt: skip


def test_design_truths_against_monte_carlo_over_k_fold_studies():
    """A study's k fold models share g: pooled values of their average rates, and the merged AUC and AP of their
    scores, averaged over many studies (each with independent formulas or scikit-learn on a large sample)."""
    prior, delta0, tau, k = 0.1, 1.5, 0.5, 5
    t = learner_truths(prior=prior, delta0=delta0, training_sd=tau, n_folds=k)
    design = t.set_index(["quantity", "aggregation"])
    assert (design["design_se"] < 1e-3).all()
    rng = np.random.default_rng(8)
    rho = 1 / (k - 1)
    m = 20_000
    delta = delta0 + tau * (
        math.sqrt(rho) * rng.standard_normal((m, 1)) + math.sqrt(1 - rho) * rng.standard_normal((m, k))
    )
    a, lam = np.abs(delta), math.log(prior / (1 - prior))
    tpr, fpr = stats.norm.cdf(a / 2 + lam / a).mean(axis=1), stats.norm.cdf(lam / a - a / 2).mean(axis=1)
    tp, fp, fn = prior * tpr, (1 - prior) * fpr, prior * (1 - tpr)
    batches = np.array_split(np.arange(m), 40)
    for q, values in (("precision", tp / (tp + fp)), ("f_measure", 2 * tp / (2 * tp + fp + fn))):
        agg = "tp_fp" if q == "f_measure" else "pooled"
        _within(values.mean(), np.array([values[b].mean() for b in batches]), design.loc[(q, agg), "design_truth"], q)
    pair = stats.norm.cdf(np.sqrt(a[:, :, None] ** 2 + a[:, None, :] ** 2) / 2).mean(axis=(1, 2))
    _within(pair.mean(), np.array([pair[b].mean() for b in batches]), design.loc[("roc_auc", "merge"), "design_truth"],
            "merged AUC")  # fmt: skip
    # the merged AP of whole studies, scored by scikit-learn on 2,000 cases per fold model
    aps = []
    for row in delta[:150]:
        y, p = [], []
        for d in row:
            yy, pp, _ = _binary_sample(d, prior, 2000, rng)
            y.append(yy)
            p.append(pp)
        aps.append(skm.average_precision_score(np.concatenate(y), np.concatenate(p)))
    aps = np.array(aps)
    _within(aps.mean(), aps, design.loc[("average_precision", "merge"), "design_truth"], "merged AP")
    # a merged pair of two models: the pair formula against scikit-learn
    y1, p1, _ = _binary_sample(0.7, prior, 200_000, rng)
    y2, p2, _ = _binary_sample(2.1, prior, 200_000, rng)
    cross = skm.roc_auc_score(np.r_[y1[y1 == 1], y2[y2 == 0]], np.r_[p1[y1 == 1], p2[y2 == 0]])
    assert cross == pytest.approx(float(learner_models.pair_auc(np.array(0.7), np.array(2.1))), abs=3e-3)


# -- the quadratures and the closed forms -------------------------------------------------------------------------
def test_rules_of_twice_the_size_agree():
    """Every truth's quadrature against a rule of twice the nodes (the merged AP, whose cost is quadratic in them,
    against a rule of two thirds the nodes)."""
    base = cv_truths.truth_table("binary", 0.1, 1.5, 0.5, 3.0).set_index(["quantity", "aggregation"])["truth"]
    a, w = learner_models.separation_rule(1.5, 0.5, panels=48, order=16)
    learner_models_hermite = learner_models._HERMITE
    try:
        learner_models._HERMITE = 2 * learner_models_hermite
        finer = learner_models.model_values("binary", a, 0.1, 3.0)
    finally:
        learner_models._HERMITE = learner_models_hermite
    for (q, _), v in finer.items():
        assert float(v @ w) == pytest.approx(base[(q, "avg")], abs=1e-8), q
    pooled = cv_truths._pooled("binary", a, w, 0.1, 3.0)
    for (q, _), v in pooled.items():
        assert float(v) == pytest.approx(base[(q, "tp_fp" if q == "f_measure" else "pooled")], abs=1e-8), q
    merged = float(w @ learner_models.pair_auc(a[:, None], a[None, :]) @ w)
    assert merged == pytest.approx(base[("roc_auc", "merge")], abs=1e-9)
    a, w = learner_models.separation_rule(1.5, 0.5, panels=16, order=12)
    assert float(learner_models.mixture_ap(a, w, 0.25)) == pytest.approx(base[("average_precision", "merge")], abs=1e-7)
    for task, prior in (("multiclass", (0.5, 0.3, 0.2)), ("multilabel", (0.3, 0.2, 0.1))):
        base_ = cv_truths.truth_table(task, prior, 1.5, 0.5)
        rule = partial(learner_models.separation_rule, panels=48, order=16)
        finer_ = cv_truths.truth_table(task, prior, 1.5, 0.5, rule=rule)
        assert np.abs(finer_["truth"] - base_["truth"]).max() < 1e-8


def test_with_a_fixed_classifier_every_aggregation_agrees_and_closed_forms_hold():
    prior, d = 0.2, 1.2
    t = learner_truths(prior=prior, delta0=d, training_sd=0.0, n_folds=5)
    spread = t.groupby("quantity")["truth"].agg(lambda v: v.max() - v.min())
    assert (spread < 1e-12).all(), spread[spread >= 1e-12]
    assert (t["truth"] == t["design_truth"]).all()
    v = t.set_index(["quantity", "aggregation"])["truth"]
    lam = math.log(prior / (1 - prior))
    assert v[("recall", "avg")] == pytest.approx(stats.norm.cdf(d / 2 + lam / d), abs=1e-15)
    assert v[("roc_auc", "avg")] == pytest.approx(stats.norm.cdf(d / math.sqrt(2)), abs=1e-15)
    # with a training effect: E[Φ(δ/√2)] = Φ(δ0/√(2 + τ²)) where δ < 0 is negligible (δ0/τ = 10)
    t = learner_truths(prior=prior, delta0=3.0, training_sd=0.3).set_index(["quantity", "aggregation"])["truth"]
    assert t[("roc_auc", "avg")] == pytest.approx(stats.norm.cdf(3.0 / math.sqrt(2.09)), abs=1e-10)
    assert t[("h_measure", "merge")] == t[("h_measure", "avg")]  # calibrated mixtures: the same optimal thresholds
    assert t[("accuracy", "pooled")] == pytest.approx(t[("accuracy", "avg")], abs=1e-12)


@pytest.mark.parametrize(
    ("task", "prior"), [("binary", 0.25), ("multiclass", (0.5, 0.3, 0.2)), ("multilabel", (0.3, 0.2, 0.1))]
)
def test_the_truths_name_every_value_of_the_report(task, prior):
    p = simulate_learner_cv(task=task, prior=prior, n_cases=100, n_folds=5, seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = apples.report(p).to_frame(readable=False)
    keys = ["quantity", "average", "aggregation"]
    truths = learner_truths(task=task, prior=prior)
    assert truths[keys].to_numpy().tolist() == report[keys].to_numpy().tolist()
    assert truths["truth"].between(-1, 10).all()
