"""apples.report(..., confidence=): an interval beside every value, checked against independent computations.

Wilson against scipy's binomtest, the corrected t against Nadeau & Bengio's formula written out here with
per-fold scores from scikit-learn, the bootstraps against a brute-force bootstrap that resamples cases
within each fold and scores them with scikit-learn (equal within Monte Carlo error), DeLong through
roc_auc_ci (itself checked against an O(n²) DeLong in test_intervals.py).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import (
    average_precision_score,
    f1_score,
    precision_recall_fscore_support,
    precision_score,
    recall_score,
    roc_auc_score,
)

import apples
from apples.reporting._values import average_sections


def _binary_data(seed=1, n=1200, k=5, prevalence=0.15):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < prevalence).astype(int)
    s = rng.normal(size=n) + 1.4 * y
    return y, (s > 1.0).astype(int), s, rng.integers(0, k, n)


def _corrected_t_by_hand(values, n, k, confidence):
    """Nadeau & Bengio (2003) §4: mean ± t_{J-1} sqrt((1/J + n_test/n_train) s²), written out."""
    v = np.asarray(values, dtype=float)
    j = v.size
    n_test = round(n / k)
    n_train = n - n_test
    half = stats.t.ppf(0.5 + confidence / 2, j - 1) * math.sqrt((1 / j + n_test / n_train) * v.var(ddof=1))
    return max(0.0, v.mean() - half), min(1.0, v.mean() + half)  # the report clips to [0, 1]


def test_without_confidence_the_report_is_unchanged():
    y, p, s, f = _binary_data()
    plain = apples.report(apples.CVPredictions(y, folds=f, y_pred=p, y_score=s))
    d = plain.to_dict()
    assert "intervals" not in d and list(plain.to_frame(readable=False).columns) == [
        "quantity",
        "average",
        "aggregation",
        "value",
    ]
    assert "interval" not in str(plain)


def test_binary_pooled_proportions_are_wilson_intervals_as_scipy_computes_them():
    y, p, s, f = _binary_data()
    d = apples.report(apples.CVPredictions(y, folds=f, y_pred=p, y_score=s), confidence=0.9).to_dict()
    tp = int(((y == 1) & (p == 1)).sum())
    for name, k, n in (
        ("precision", tp, int(p.sum())),
        ("recall", tp, int(y.sum())),
        ("accuracy", int((y == p).sum()), y.size),
    ):
        want = stats.binomtest(k, n).proportion_ci(confidence_level=0.9, method="wilson")
        got = d["intervals"][name]["pooled"]
        assert got["method"] == "wilson"
        assert got["low"] == pytest.approx(want.low, abs=1e-12) and got["high"] == pytest.approx(want.high, abs=1e-12)


def test_binary_fold_averages_use_the_corrected_t_over_fold_scores():
    y, p, s, f = _binary_data(k=4)
    d = apples.report(apples.CVPredictions(y, folds=f, y_pred=p, y_score=s), confidence=0.95).to_dict()
    folds = [f == i for i in range(4)]
    per_fold = {
        "precision": [precision_score(y[m], p[m], zero_division=0) for m in folds],
        "recall": [recall_score(y[m], p[m], zero_division=0) for m in folds],
        "accuracy": [(y[m] == p[m]).mean() for m in folds],
        "roc_auc": [roc_auc_score(y[m], s[m]) for m in folds],
        "average_precision": [average_precision_score(y[m], s[m]) for m in folds],
    }
    for name, values in per_fold.items():
        got = d["intervals"][name]["avg"]
        low, high = _corrected_t_by_hand(values, y.size, 4, 0.95)
        assert got["method"] == "corrected_t"
        assert got["low"] == pytest.approx(low, abs=1e-9) and got["high"] == pytest.approx(high, abs=1e-9), name
        assert got["low"] < d[name]["avg"] < got["high"]


def test_merged_auc_interval_is_delong_and_merged_ap_has_none():
    y, p, s, f = _binary_data()
    d = apples.report(apples.CVPredictions(y, folds=f, y_pred=p, y_score=s), confidence=0.95).to_dict()
    want = apples.roc_auc_ci(y, s, method="delong")
    assert d["intervals"]["roc_auc"]["merge"] == {"low": want.low, "high": want.high, "method": "delong"}
    assert d["intervals"]["average_precision"]["merge"] == {
        "low": None,
        "high": None,
        "method": "none",
        "reason": "apples has no interval for merged average precision",
    }


def _brute_force_quantiles(y, p, f, score, n_resamples, confidence, seed):
    """Resample the cases of each fold with replacement, pool the predictions, score with scikit-learn."""
    rng = np.random.default_rng(seed)
    groups = [np.flatnonzero(f == i) for i in np.unique(f)]
    reps = np.empty(n_resamples)
    for b in range(n_resamples):
        idx = np.concatenate([rng.choice(g, size=g.size, replace=True) for g in groups])
        reps[b] = score(y[idx], p[idx])
    alpha = 1 - confidence
    return np.quantile(reps, [alpha / 2, 1 - alpha / 2])


def _macro_f1(y, p, q):
    """Macro F1 (mean of per-label F, 0 for 0/0) from a bincount confusion matrix: the case-level scorer."""
    m = np.bincount(y * q + p, minlength=q * q).reshape(q, q)
    tp = np.diag(m)
    den = m.sum(axis=0) + m.sum(axis=1)
    return np.mean(np.divide(2 * tp, den, out=np.zeros(q), where=den > 0))


def _f1_positive(y, p):
    """F1 of label 1: 2 TP / (2 TP + FP + FN)."""
    tp = int(((y == 1) & (p == 1)).sum())
    return 2 * tp / (2 * tp + int(((y == 0) & (p == 1)).sum()) + int(((y == 1) & (p == 0)).sum()))


def test_the_case_level_scorers_agree_with_sklearn():
    y, p, _, _ = _binary_data(n=300)
    assert _f1_positive(y, p) == pytest.approx(f1_score(y, p), abs=1e-12)
    rng = np.random.default_rng(0)
    a, b = rng.integers(0, 3, 50), rng.integers(0, 2, 50)  # label 2 never predicted
    assert _macro_f1(a, b, 3) == pytest.approx(f1_score(a, b, average="macro", labels=[0, 1, 2], zero_division=0))


def test_pooled_f_bootstrap_matches_resampling_cases_with_sklearn():
    y, p, _s, f = _binary_data(n=600, prevalence=0.2)
    got = apples.report(apples.CVPredictions(y, folds=f, y_pred=p), confidence=0.9, n_resamples=20_000).to_dict()[
        "intervals"
    ]["f_measure"]
    low, high = _brute_force_quantiles(y, p, f, _f1_positive, 5000, 0.9, seed=7)
    # Two Monte Carlo estimates of the same 5% and 95% quantiles: each has a standard error near 0.001 here.
    assert got["tp_fp"]["method"] == "bootstrap"
    assert got["tp_fp"]["low"] == pytest.approx(low, abs=0.005) and got["tp_fp"]["high"] == pytest.approx(
        high, abs=0.005
    )


def test_multiclass_pooled_macro_bootstrap_matches_resampling_cases_with_sklearn():
    rng = np.random.default_rng(3)
    n = 600
    y = rng.integers(0, 3, n)
    p = np.where(rng.random(n) < 0.6, y, rng.integers(0, 3, n))
    f = rng.integers(0, 4, n)
    d = apples.report(apples.CVPredictions(y, folds=f, y_pred=p), confidence=0.9, n_resamples=20_000).to_dict()
    got = d["intervals"]["mean_f"]["macro"]["pooled"]
    low, high = _brute_force_quantiles(y, p, f, lambda a, b: _macro_f1(a, b, 3), 5000, 0.9, seed=8)
    assert got["method"] == "bootstrap"
    assert got["low"] == pytest.approx(low, abs=0.005) and got["high"] == pytest.approx(high, abs=0.005)
    assert got["low"] < d["mean_f"]["macro"]["pooled"] < got["high"]
    micro = d["intervals"]["precision"]["micro"]["pooled"]
    want = stats.binomtest(int((y == p).sum()), n).proportion_ci(confidence_level=0.9, method="wilson")
    assert micro["method"] == "wilson" and micro["low"] == pytest.approx(want.low, abs=1e-12)
    assert "roc_auc" not in d["intervals"]  # no scores: no AUC, and no interval for it


@pytest.mark.parametrize("seed", range(20))
def test_the_label_averages_of_the_bootstrap_equal_scikit_learn(seed):
    """The one kernel behind the report's values and its multi-class bootstrap, on one table, against scikit-learn.

    Macro, micro and test-frequency (``average="weighted"``) precision, recall and mean F of scikit-learn with
    zero_division=0 (the report's zero policy), and lfb with training frequencies written out.
    """
    rng = np.random.default_rng(seed)
    q = int(rng.integers(2, 6))
    m = rng.integers(0, 4, (q, q)) * (rng.random((q, q)) < 0.6)  # empty rows and columns happen
    m[0, 0] += 1
    y_true = np.repeat(np.arange(q), m.sum(axis=1))
    y_pred = np.concatenate([np.repeat(np.arange(q), m[i]) for i in range(q)])
    train = rng.dirichlet(np.ones(q))
    tp = np.diag(m).astype(float)
    got = average_sections(tp, m.sum(axis=0) - tp, m.sum(axis=1) - tp, train)
    labels = list(range(q))
    for key, average in (("macro", "macro"), ("micro", "micro"), ("lfb_test", "weighted")):
        p, r, f, _ = precision_recall_fscore_support(y_true, y_pred, labels=labels, average=average, zero_division=0)
        assert got["precision"][key] == pytest.approx(p, abs=1e-12), key
        assert got["recall"][key] == pytest.approx(r, abs=1e-12), key
        assert got["mean_f"][key] == pytest.approx(f, abs=1e-12), key
    p, r, f, _ = precision_recall_fscore_support(y_true, y_pred, labels=labels, average=None, zero_division=0)
    assert got["precision"]["lfb_train"] == pytest.approx(float(np.dot(train, p)), abs=1e-12)
    assert got["recall"]["lfb_train"] == pytest.approx(float(np.dot(train, r)), abs=1e-12)
    assert got["mean_f"]["lfb_train"] == pytest.approx(float(np.dot(train, f)), abs=1e-12)


def _wilson_by_hand(p_hat: float, n: float, confidence: float) -> tuple[float, float]:
    """Wilson (1927): (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)."""
    z = stats.norm.ppf(0.5 + confidence / 2)
    centre = p_hat + z * z / (2 * n)
    half = z * math.sqrt(p_hat * (1 - p_hat) / n + z * z / (4 * n * n))
    return (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)


def test_repeats_never_average_interval_ends_wilson_of_the_mean_and_corrected_repeated_t():
    """Issue 21 item 8: no mean of the repeats' ends. Pooled proportions: Wilson of the repeats' mean
    proportion with n cases; F bootstrap and merged DeLong: none, with the reason; fold means: Bouckaert &
    Frank's corrected repeated k-fold t over the r·k fold values."""
    y, p, s, f = _binary_data(n=800, k=4)
    rng = np.random.default_rng(5)
    f2 = rng.integers(0, 4, y.size)
    p2 = np.where(rng.random(y.size) < 0.1, 1 - p, p)  # the second repeat predicts differently
    both = apples.report(
        apples.CVPredictions(
            np.r_[y, y],
            folds=np.r_[f, f2],
            y_pred=np.r_[p, p2],
            y_score=np.r_[s, s],
            repeats=np.r_[np.zeros(y.size), np.ones(y.size)],
        ),
        confidence=0.95,
    ).to_dict()["intervals"]
    mean_accuracy = ((y == p).mean() + (y == p2).mean()) / 2
    low, high = _wilson_by_hand(mean_accuracy, y.size, 0.95)
    got = both["accuracy"]["pooled"]
    assert got["method"] == "wilson (mean over repeats)"
    assert (got["low"], got["high"]) == (pytest.approx(low, abs=1e-12), pytest.approx(high, abs=1e-12))
    # recall's n is its own denominator, the positives (the same in both repeats), not the cases
    positives = y == 1
    mean_recall = ((p[positives] == 1).mean() + (p2[positives] == 1).mean()) / 2
    low, high = _wilson_by_hand(mean_recall, int(positives.sum()), 0.95)
    got = both["recall"]["pooled"]
    assert (got["low"], got["high"]) == (pytest.approx(low, abs=1e-12), pytest.approx(high, abs=1e-12))
    for name, agg in (("f_measure", "tp_fp"), ("roc_auc", "merge")):
        assert both[name][agg]["low"] is None and "not combined" in both[name][agg]["reason"]
    assert both["accuracy"]["avg"]["method"] == "corrected_repeated_t"
    values = [(y[g == i] == q[g == i]).mean() for g, q in ((f, p), (f2, p2)) for i in range(4)]
    low, high = _corrected_t_by_hand(values, y.size, 4, 0.95)  # J = r·k = 8 (Bouckaert & Frank 2004)
    assert both["accuracy"]["avg"]["low"] == pytest.approx(low, abs=1e-9)
    assert both["accuracy"]["avg"]["high"] == pytest.approx(high, abs=1e-9)


def test_interval_ends_are_clipped_to_the_unit_interval():
    """Three positives per fold: fold recalls of 0, 1/3, 2/3 or 1, and a corrected t that reaches past 1."""
    rng = np.random.default_rng(0)
    y = np.tile([1, 1, 1] + [0] * 12, 5)
    f = np.repeat(np.arange(5), 15)
    p = np.where(y == 1, (rng.random(y.size) < 0.8).astype(int), 0)
    p[[0, 1, 2]] = [1, 1, 1]
    p[[15, 16, 17]] = [1, 0, 0]
    d = apples.report(apples.CVPredictions(y, folds=f, y_pred=p), confidence=0.95, n_resamples=200).to_dict()
    recalls = [p[(f == i) & (y == 1)].mean() for i in range(5)]
    _, unclipped_high = stats.t.interval(
        0.95, 4, loc=np.mean(recalls), scale=math.sqrt((1 / 5 + 15 / 60) * np.var(recalls, ddof=1))
    )
    assert unclipped_high > 1 and d["intervals"]["recall"]["avg"]["high"] == 1.0


def test_undefined_values_get_null_intervals_never_numbers():
    y = np.array([1, 0, 0, 0, 1, 0, 0, 0])
    p = np.zeros(8, dtype=int)  # nothing predicted positive: pooled precision is 0/0
    d = apples.report(
        apples.CVPredictions(y, folds=[0, 0, 0, 0, 1, 1, 1, 1], y_pred=p), confidence=0.95, n_resamples=200
    ).to_dict()
    assert d["precision"]["pooled"] is None
    assert d["intervals"]["precision"]["pooled"] == {
        "low": None,
        "high": None,
        "method": "wilson",
        "reason": "the pooled value is 0/0 (undefined)",
    }
    assert d["intervals"]["f_measure"]["avg_skip"]["low"] is None  # every fold skipped


def test_the_same_seed_gives_the_same_report_and_another_seed_another_bootstrap():
    y, p, _s, f = _binary_data()
    a = apples.report(apples.CVPredictions(y, folds=f, y_pred=p), confidence=0.95, seed=3)
    assert a == apples.report(apples.CVPredictions(y, folds=f, y_pred=p), confidence=0.95, seed=3)
    b = apples.report(apples.CVPredictions(y, folds=f, y_pred=p), confidence=0.95, seed=4).to_dict()["intervals"]
    assert b["f_measure"]["tp_fp"] != a.to_dict()["intervals"]["f_measure"]["tp_fp"]
    assert b["precision"] == a.to_dict()["intervals"]["precision"]  # Wilson and the t use no seed


def test_leave_one_out_over_2000_folds_is_answered_in_chunks():
    # before: refused for memory (10,000 resamples × 2,000 folds, 1.79 GiB at once); the draws now go in chunks.
    # A fold of one case resampled with replacement is that case again, so every resampled F is the F of the
    # data: the within-fold bootstrap interval is exactly [F, F] (by hand), F from scikit-learn
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 2000)
    p = np.where(rng.random(2000) < 0.8, y, 1 - y)
    r = apples.report(apples.CVPredictions(y, folds=np.arange(2000), y_pred=p), confidence=0.95).to_dict()
    f = f1_score(y, p)
    assert r["f_measure"]["tp_fp"] == pytest.approx(f, rel=1e-12)
    ci = r["intervals"]["f_measure"]["tp_fp"]
    assert ci["method"] == "bootstrap" and ci["low"] == pytest.approx(f, rel=1e-12) == ci["high"]
    assert any("one case" in w for w in r["warnings"])  # and the report says why that interval has no width


def test_every_format_shows_the_intervals_and_json_round_trips():
    y, p, s, f = _binary_data()
    r = apples.report(apples.CVPredictions(y, folds=f, y_pred=p, y_score=s), confidence=0.9)
    frame = r.to_frame(readable=False)
    assert {"low", "high", "interval"} <= set(frame.columns)
    row = frame[(frame.quantity == "precision") & (frame.aggregation == "pooled")].iloc[0]
    want = r.to_dict()["intervals"]["precision"]["pooled"]
    assert (row.low, row.high, row.interval) == (want["low"], want["high"], "wilson")
    shown = f"{100 * want['low']:.1f} to {100 * want['high']:.1f}%"
    for text in (str(r), r.to_markdown(), r._repr_html_()):
        assert "90% interval" in text and shown in text
    assert apples.CVReport.from_json(r.to_json()) == r
    assert json.loads(r.to_json())["intervals"]["confidence"] == 0.9
    assert any("Intervals (90%)" in note for note in r.to_dict()["notes"])


@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [
        ({"confidence": 1.0}, ValueError, "confidence"),
        ({"confidence": "0.95"}, TypeError, "confidence"),
        ({"confidence": 0.95, "n_resamples": 0}, ValueError, "n_resamples"),
        ({"confidence": 0.95, "seed": None}, TypeError, "seed"),
        ({"confidence": 0.95, "seed": -1}, ValueError, "seed"),
    ],
)
def test_bad_interval_options_are_refused_by_name(kwargs, error, name):
    y, p, _s, f = _binary_data(n=100)
    with pytest.raises(error, match=name):
        apples.report(apples.CVPredictions(y, folds=f, y_pred=p), **kwargs)


@pytest.mark.trained
def test_notebook_10_report_intervals_within_tolerance():
    """The intervals notebook 11 quotes for notebook 10's study (§6), from scikit-learn and scipy.

    The predictions come from a trained model, so the values are asserted within 0.5 percentage points
    (CONTRIBUTING.md, "Checked outputs"): Wilson's intervals of the pooled precision and recall, and
    Nadeau & Bengio's corrected t over the ten per-fold recalls, written out.
    """
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import confusion_matrix
    from sklearn.model_selection import StratifiedKFold, cross_val_predict
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X_all, target = load_breast_cancer(return_X_y=True)
    malignant, benign = np.flatnonzero(target == 0), np.flatnonzero(target == 1)
    keep = np.sort(np.concatenate([benign, np.random.default_rng(0).choice(malignant, size=30, replace=False)]))
    X, y = X_all[keep][:, [1, 4, 9]], (target[keep] == 0).astype(int)
    model = make_pipeline(StandardScaler(), LogisticRegression(class_weight="balanced"))
    cv = StratifiedKFold(n_splits=10, shuffle=True, random_state=0)
    pred = cross_val_predict(model, X, y, cv=cv)
    _, fp, fn, tp = confusion_matrix(y, pred).ravel()

    def wilson(k, n):
        ci = stats.binomtest(int(k), int(n)).proportion_ci(0.95, method="wilson")
        return 100 * ci.low, 100 * ci.high

    assert wilson(tp, tp + fp) == pytest.approx((14.1, 28.9), abs=0.5)  # "Wilson's ≈ 14.1 to 28.9 % pooled"
    assert wilson(tp, tp + fn) == pytest.approx((59.1, 88.2), abs=0.5)  # "≈ 59.1 to 88.2 % for the pooled recall"
    recalls = np.array([pred[test][y[test] == 1].mean() for _, test in cv.split(X, y)])
    n_test = round(len(y) / 10)
    half = stats.t.ppf(0.975, 9) * np.sqrt((1 / 10 + n_test / (len(y) - n_test)) * recalls.var(ddof=1))
    assert 100 * (recalls.mean() - half) == pytest.approx(48, abs=0.5)  # "runs from ≈ 48 % to the top of the scale"
    assert recalls.mean() + half > 1.0
