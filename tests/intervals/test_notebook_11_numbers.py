"""The numbers notebook 11 prints and quotes, recomputed without the code that printed them.

Exact values (the checked cells: Forman & Scholz's Tables 1 and 2, the variance factors) from fractions, scipy
and the formulas; the live coverage run's pooled precision from the simulated studies with the jackknife and the
corrected t written out here; the breast cancer study's numbers, which come out of trained models, from
scikit-learn's ``cross_val_predict`` and hand formulas, each within a stated tolerance (CONTRIBUTING.md, "Checked
outputs"; ``@pytest.mark.trained``).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import roc_auc_score

import apples
from apples.theory import learner_truths
from apples.theory.cv_learner import draw_study

#: Forman & Scholz (2010) Tables 1 and 2: negatives, positives, TP, FP per fold.
TABLE_1 = [(373, 3, 3, 0), (372, 4, 4, 1), (372, 4, 4, 13), (372, 4, 3, 5)]
TABLE_2 = [(372, 4, 2, 0), (372, 4, 0, 0), (372, 4, 4, 0), (372, 4, 4, 0)]
#: Tolerance of a trained model's rate (CONTRIBUTING.md): half a percentage point.
TOL = 0.005


def _predictions(table):
    rows = [
        (fold, truth, guess)
        for fold, (neg, pos, tp, fp) in enumerate(table, 1)
        for truth, guess, n in ((1, 1, tp), (1, 0, pos - tp), (0, 1, fp), (0, 0, neg - fp))
        for _ in range(n)
    ]
    folds, y_true, y_pred = np.array(rows).T
    return apples.CVPredictions(y_true, folds=folds, y_pred=y_pred)


def _variance(values):
    mean = sum(values) / len(values)
    return sum((v - mean) ** 2 for v in values) / (len(values) - 1)


# -- exact: the checked cells ------------------------------------------------------------------------------------
def test_variance_factors_of_section_2():
    assert f"{1 / 10:.3f} {1 / 10 + 39 / 348:.3f} {math.sqrt((1 / 10 + 39 / 348) / (1 / 10)):.2f}" == "0.100 0.212 1.46"
    for r, naive, corrected in ((1, "0.1000", "0.2111"), (5, "0.0200", "0.1311"), (100, "0.0010", "0.1121")):
        exact = Fraction(1, 10 * r) + Fraction(1, 9)  # n_test/n_train = (n/k)/(n - n/k) = 1/(k - 1)
        assert (f"{float(Fraction(1, 10 * r)):.4f}", f"{float(exact):.4f}") == (naive, corrected)


def test_table_1_pseudo_values_by_hand_and_the_reports_spread():
    tp, fp = [3, 4, 4, 3], [0, 1, 13, 5]
    v = Fraction(sum(tp), sum(tp) + sum(fp))
    assert v == Fraction(14, 33)
    without = [Fraction(sum(tp) - t, sum(tp) + sum(fp) - t - f) for t, f in zip(tp, fp, strict=True)]
    assert without == [Fraction(11, 30), Fraction(10, 28), Fraction(10, 16), Fraction(11, 25)]
    pseudo = [4 * v - 3 * w for w in without]
    assert [f"{float(p):.4f}" for p in pseudo] == ["0.5970", "0.6255", "-0.1780", "0.3770"]
    s2 = _variance(pseudo)
    assert f"{float(s2):.5f}" == "0.13878"
    spread = next(
        row["spread"]
        for row in apples.report(_predictions(TABLE_1), measures=["precision"]).to_dict()["values"]
        if row["aggregation"] == "pooled"
    )
    assert spread["n"] == 4 and spread["n_test"] == 376 and spread["n_train"] == 1128
    assert spread["variance"] == pytest.approx(float(s2), abs=1e-12)
    t3 = stats.t.ppf(0.975, 3)
    half = t3 * math.sqrt(float(Fraction(1, 4) + Fraction(376, 1128)) * float(s2))
    assert (f"{t3:.2f}", f"{half:.3f}") == ("3.18", "0.905")
    assert float(v) - half < 0 and float(v) + half > 1  # the whole scale once clipped
    wilson = stats.binomtest(14, 33).proportion_ci(method="wilson")
    assert (f"{wilson.low:.3f}", f"{wilson.high:.3f}") == ("0.272", "0.592")


def test_table_2_withholds_every_average_that_met_its_zero_by_zero_fold():
    # fold 2 predicts no positive: TP + FP = 0, so its precision, F (= 2TP/(2TP + FP + FN) with the 0/0 precision
    # counted 0 or left out) and MCC (a constant prediction) are 0/0 there; recall, accuracy and kappa are defined
    ci = apples.report(_predictions(TABLE_2), confidence=0.95).confidence_interval(0.95)
    withheld = ci[ci["low"].isna()]
    assert sorted(zip(withheld["quantity"], withheld["aggregation"], strict=True)) == sorted(
        [
            ("f_measure", "avg"),
            ("f_measure", "pr_re"),
            ("f_measure", "avg_skip"),
            ("f_measure", "pr_re_skip"),
            ("precision", "avg"),
            ("mcc", "avg"),
        ]
    )
    assert all("1 of the 4 fold values were 0/0" in r for r in withheld["reason"])
    # pooled precision is 10/10 with every fold left out in turn: four equal pseudo-values, width 0
    pooled = ci.set_index(["quantity", "aggregation"]).loc[("precision", "pooled")]
    assert (pooled["low"], pooled["high"]) == (1.0, 1.0) and "width 0" in pooled["reason"]


def test_live_coverage_of_pooled_precision_by_hand():
    """Section 4's small run, the setting of 200 cases and 10 % positives (the first of the two, so its seed is
    SeedSequence(0).spawn(2)[0]): pooled precision's jackknife and corrected t written out with numpy and scipy,
    against the exact truth, over the same 200 simulated studies."""
    truths = learner_truths(prior=0.1, delta0=1.5, training_sd=0.0)
    truth = truths.set_index(["quantity", "aggregation"]).loc[("precision", "pooled"), "truth"]
    setting = np.random.SeedSequence(0).spawn(2)[0]
    hits, f_avg_withheld = 0, 0
    t9 = stats.t.ppf(0.975, 9)
    for j in range(200):
        seed = np.random.SeedSequence(setting.entropy, spawn_key=(*setting.spawn_key, j))
        study = draw_study("binary", 0.1, 200, 10, 1, 1.5, 0.0, 1.0, np.random.default_rng(seed))
        y, pred, fold = _study_arrays(study)
        tp = np.bincount(fold, weights=(y == 1) & (pred == 1), minlength=10)
        fp = np.bincount(fold, weights=(y == 0) & (pred == 1), minlength=10)
        f_avg_withheld += bool(np.any(tp + fp == 0))
        v = tp.sum() / (tp.sum() + fp.sum())
        pseudo = 10 * v - 9 * (tp.sum() - tp) / (tp.sum() + fp.sum() - tp - fp)
        half = t9 * math.sqrt((1 / 10 + 20 / 180) * pseudo.var(ddof=1))
        hits += max(0.0, v - half) <= truth <= min(1.0, v + half)
    assert f"{hits / 200:.3f}" == "0.910"
    assert f_avg_withheld == 200  # every study has a fold without a predicted positive: no F_avg interval


def _study_arrays(study):
    """(y_true, y_pred, fold) of a simulated binary study of one repeat, read from its CVPredictions' frame."""
    from apples.theory.cv_learner import study_predictions

    frame = study_predictions(study, 1).to_frame()
    return frame["y_true"].to_numpy(), frame["y_pred"].to_numpy(), frame["fold"].to_numpy().astype(int)


# -- trained: the breast cancer study, from scikit-learn -------------------------------------------------------------
@pytest.fixture(scope="module")
def study():
    """Notebook 10's study built from scikit-learn alone: 387 cases (every benign one and 30 malignant ones drawn
    with seed 0), features 1, 4, 9, a standardised logistic regression with balanced weights, ten stratified folds;
    and Gaussian naive Bayes on the same folds."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_predict
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X_all, target = load_breast_cancer(return_X_y=True)
    malignant, benign = np.flatnonzero(target == 0), np.flatnonzero(target == 1)
    keep = np.sort(np.concatenate([benign, np.random.default_rng(0).choice(malignant, size=30, replace=False)]))
    X, y = X_all[keep][:, [1, 4, 9]], (target[keep] == 0).astype(int)
    cv = StratifiedKFold(n_splits=10, shuffle=True, random_state=0)
    model = make_pipeline(StandardScaler(), LogisticRegression(class_weight="balanced"))
    bayes = make_pipeline(StandardScaler(), GaussianNB())
    fold = np.empty(len(y), dtype=int)
    for f, (_, test) in enumerate(cv.split(X, y)):
        fold[test] = f
    return {
        "X": X,
        "y": y,
        "fold": fold,
        "pred": cross_val_predict(model, X, y, cv=cv),
        "score": cross_val_predict(model, X, y, cv=cv, method="predict_proba")[:, 1],
        "pred_nb": cross_val_predict(bayes, X, y, cv=cv),
        "score_nb": cross_val_predict(bayes, X, y, cv=cv, method="predict_proba")[:, 1],
        "model": model,
    }


def _delong_components(y, s):
    pos, neg = s[y == 1], s[y == 0]
    psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    return psi.mean(axis=1), psi.mean(axis=0)


def _jackknife_interval(value, without, k, n_test, n_train, low=0.0, high=1.0):
    pseudo = k * value - (k - 1) * np.asarray(without)
    half = stats.t.ppf(0.975, k - 1) * math.sqrt((1 / k + n_test / n_train) * pseudo.var(ddof=1))
    return max(low, value - half), min(high, value + half)


@pytest.mark.trained
def test_section_1_intervals_about_these_models(study):
    y, pred, fold = study["y"], study["pred"], study["fold"]
    tp, fp, fn = (
        int(np.sum((y == 1) & (pred == 1))),
        int(np.sum((y == 0) & (pred == 1))),
        int(np.sum((y == 1) & (pred == 0))),
    )
    assert tp == pytest.approx(23, abs=2) and fp == pytest.approx(89, abs=2) and fn == pytest.approx(7, abs=2)
    quoted = {
        ("precision", "wilson"): (0.141, 0.289),
        ("precision", "exact"): (0.135, 0.292),
        ("recall", "wilson"): (0.591, 0.882),
        ("recall", "exact"): (0.577, 0.901),
    }
    for (what, method), ends in quoted.items():
        n = tp + fp if what == "precision" else tp + fn
        ci = stats.binomtest(tp, n).proportion_ci(method=method)
        assert (ci.low, ci.high) == pytest.approx(ends, abs=TOL + 0.005), (what, method)  # a count may move by 2
    # F_tp,fp and its bootstrap within folds, resampling cases (not counts) with numpy
    f = 2 * tp / (2 * tp + fp + fn)
    assert f == pytest.approx(0.324, abs=TOL)
    rng = np.random.default_rng(1)
    sums = np.zeros((20_000, 3))
    for k in range(10):
        idx = np.flatnonzero(fold == k)
        draw = idx[rng.integers(0, idx.size, (20_000, idx.size))]
        yt, yp = y[draw], pred[draw]
        sums += np.stack(
            [((yt == 1) & (yp == 1)).sum(1), ((yt == 0) & (yp == 1)).sum(1), ((yt == 1) & (yp == 0)).sum(1)], 1
        )
    boot = 2 * sums[:, 0] / (2 * sums[:, 0] + sums[:, 1] + sums[:, 2])
    # percentile ends of another random stream: Monte Carlo error of a few thousandths besides the model's
    assert np.quantile(boot, [0.025, 0.975]) == pytest.approx([0.220, 0.422], abs=0.015)
    # DeLong, single and paired, from the structural components
    s, s_nb = study["score"], study["score_nb"]
    v10, v01 = _delong_components(y, s)
    auc, se = v10.mean(), math.sqrt(v10.var(ddof=1) / v10.size + v01.var(ddof=1) / v01.size)
    assert auc == pytest.approx(roc_auc_score(y, s)) and auc == pytest.approx(0.825, abs=TOL)
    z = stats.norm.ppf(0.975)
    assert (auc - z * se, auc + z * se) == pytest.approx((0.745, 0.906), abs=TOL)
    w10, w01 = _delong_components(y, s_nb)
    var = (np.var(v10 - w10, ddof=1) / v10.size) + (np.var(v01 - w01, ddof=1) / v01.size)
    d = auc - w10.mean()
    assert d == pytest.approx(0.034, abs=TOL)
    assert (d - z * math.sqrt(var), d + z * math.sqrt(var)) == pytest.approx((-0.008, 0.075), abs=TOL)
    assert 2 * stats.norm.sf(abs(d) / math.sqrt(var)) == pytest.approx(0.11, abs=0.03)


@pytest.mark.trained
def test_section_2_fold_auc_intervals(study):
    y, s, fold = study["y"], study["score"], study["fold"]
    auc = np.array([roc_auc_score(y[fold == k], s[fold == k]) for k in range(10)])
    quoted = [0.583, 1.0, 0.75, 0.926, 0.963, 0.824, 0.861, 0.686, 0.752, 0.952]
    assert auc == pytest.approx(quoted, abs=0.02)  # three positives a fold: one swapped pair moves a fold's AUC
    naive = stats.ttest_1samp(auc, 0.0).confidence_interval()
    assert (auc.mean(), naive.low, naive.high) == pytest.approx((0.830, 0.733, 0.927), abs=TOL)
    half = stats.t.ppf(0.975, 9) * math.sqrt((1 / 10 + 39 / 348) * auc.var(ddof=1))
    assert (auc.mean() - half, auc.mean() + half) == pytest.approx((0.688, 0.971), abs=TOL)


@pytest.mark.trained
def test_section_3_the_reports_intervals_by_hand(study):
    """The corrected t over leave-one-fold-out pseudo-values (ten folds; mean sizes 38.7 tested, 348.3 trained)."""
    y, pred, s, fold = study["y"], study["pred"], study["score"], study["fold"]
    n_test, n_train = len(y) / 10, len(y) - len(y) / 10
    assert (n_test, n_train) == pytest.approx((38.7, 348.3))
    hit = lambda m: ((y == 1) & (pred == 1) & m).sum()  # noqa: E731
    out = {}
    ratios = {
        "precision": lambda m: hit(m) / (pred[m] == 1).sum(),
        "recall": lambda m: hit(m) / (y[m] == 1).sum(),
        "f_measure": lambda m: 2 * hit(m) / ((pred[m] == 1).sum() + (y[m] == 1).sum()),
        "roc_auc": lambda m: roc_auc_score(y[m], s[m]),
    }
    everything = np.ones(len(y), dtype=bool)
    for name, value in ratios.items():
        without = [value(fold != k) for k in range(10)]
        out[name] = _jackknife_interval(value(everything), without, 10, n_test, n_train)
    assert out["precision"] == pytest.approx((0.157, 0.254), abs=TOL)
    assert out["recall"] == pytest.approx((0.481, 1.000), abs=TOL)
    assert out["f_measure"] == pytest.approx((0.248, 0.400), abs=TOL)
    assert out["roc_auc"] == pytest.approx((0.687, 0.964), abs=TOL)
    precision = [hit(fold == k) / (pred[fold == k] == 1).sum() for k in range(10)]
    assert (min(precision), max(precision)) == pytest.approx((0.13, 0.29), abs=TOL + 0.005)
    # exercise 1: the merged AUC without fold 0, fold 0's pseudo-value and S² of the ten
    without = np.array([roc_auc_score(y[fold != k], s[fold != k]) for k in range(10)])
    v = roc_auc_score(y, s)
    pseudo = 10 * v - 9 * without
    assert (without[0], pseudo[0]) == pytest.approx((0.8546, 0.5633), abs=TOL)
    assert pseudo.var(ddof=1) == pytest.approx(0.0177, abs=0.002)


@pytest.mark.trained
def test_mcnemar_counts_of_a4(study):
    y, a, b = study["y"], study["pred"], study["pred_nb"]
    n01, n10 = int(np.sum((a == y) & (b != y))), int(np.sum((a != y) & (b == y)))
    assert n01 == pytest.approx(23, abs=2) and n10 == pytest.approx(85, abs=2)
    assert (n01 - n10) / len(y) == pytest.approx(-0.160, abs=TOL)
    x, n = min(n01, n10), n01 + n10
    mid_p = 2 * (stats.binom.cdf(x, n, 0.5) - 0.5 * stats.binom.pmf(x, n, 0.5))
    assert mid_p < 1e-7


@pytest.mark.trained
def test_exercise_2_repeats_narrow_the_averaged_auc(study):
    """The corrected repeated k-fold t over the 50 fold AUCs of 5 × 10 stratified folds, against one repeat's 10."""
    from sklearn.base import clone
    from sklearn.model_selection import RepeatedStratifiedKFold

    X, y = study["X"], study["y"]
    aucs = []
    for train, test in RepeatedStratifiedKFold(n_splits=10, n_repeats=5, random_state=0).split(X, y):
        fitted = clone(study["model"]).fit(X[train], y[train])
        aucs.append(roc_auc_score(y[test], fitted.predict_proba(X[test])[:, 1]))
    n_test, n_train = len(y) / 10, len(y) - len(y) / 10
    five = 2 * stats.t.ppf(0.975, 49) * math.sqrt((1 / 50 + n_test / n_train) * np.var(aucs, ddof=1))
    one_fold = [roc_auc_score(y[study["fold"] == k], study["score"][study["fold"] == k]) for k in range(10)]
    one = 2 * stats.t.ppf(0.975, 9) * math.sqrt((1 / 10 + n_test / n_train) * np.var(one_fold, ddof=1))
    assert 100 * one == pytest.approx(28.2, abs=1.0) and 100 * five == pytest.approx(16.0, abs=1.0)
    assert five / one < 0.70  # narrower than the factor and the t quantile alone predict
