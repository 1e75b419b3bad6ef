"""The intervals of every value, written out: the corrected repeated k-fold t over fold values or jackknife
pseudo-values (Nadeau & Bengio 2003; Bouckaert & Frank 2004), each point computed with scikit-learn."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn import metrics as skm

import apples


def _w(p, idx):
    return None if p.sample_weight is None else p.sample_weight[idx]


def _corrected(value, points, n_train, n_test, level=0.95, bounds=(0.0, 1.0)):
    j = points.size
    half = stats.t.ppf(0.5 + level / 2, j - 1) * math.sqrt((1 / j + n_test / n_train) * points.var(ddof=1))
    return max(bounds[0], value - half), min(bounds[1], value + half)


def _sizes(p, parts):
    tests = [f.size for _, folds in parts(p) for f in folds]
    n_test = float(np.mean(tests))
    return float(np.mean([rows.size for rows, _ in parts(p)])) - n_test, n_test


def _pseudo(p, parts, metric):
    """Each repeat's jackknife pseudo-values k·V − (k − 1)·V₋f, shifted to mean V, and each repeat's V."""
    points, values = [], []
    for rows, folds in parts(p):
        v = metric(rows)
        k = len(folds)
        without = np.array([metric(np.setdiff1d(rows, f)) for f in folds])
        ps = k * v - (k - 1) * without
        points.append(ps - ps.mean() + v)
        values.append(v)
    return float(np.mean(values)), np.concatenate(points)


def test_pooled_f_interval_is_the_corrected_t_over_jackknife_pseudo_values(binary, fold_parts):
    p = binary

    def f1(idx):
        return skm.f1_score(p.y_true[idx], p.y_pred[idx], pos_label=p.pos_label, sample_weight=_w(p, idx))

    value, points = _pseudo(p, fold_parts, f1)
    n_train, n_test = _sizes(p, fold_parts)
    r = apples.report(p, measures=["f_measure"])
    ci = r.confidence_interval(0.9, quantity="f_measure", aggregation="tp_fp")
    assert ci.estimate == pytest.approx(value, abs=1e-12)
    assert (ci.low, ci.high) == pytest.approx(_corrected(value, points, n_train, n_test, 0.9), abs=1e-10)
    assert ci.method == ("jackknife_corrected_repeated_t" if p.n_repeats > 1 else "jackknife_corrected_t")


def test_averaged_interval_is_the_corrected_t_over_the_fold_values(binary, fold_parts):
    p = binary

    def acc(idx):
        return skm.accuracy_score(p.y_true[idx], p.y_pred[idx], sample_weight=_w(p, idx))

    points = np.array([acc(f) for _, folds in fold_parts(p) for f in folds])
    value = np.mean([np.mean([acc(f) for f in folds]) for _, folds in fold_parts(p)])
    n_train, n_test = _sizes(p, fold_parts)
    frame = apples.report(p, measures=["accuracy"]).confidence_interval(0.95)
    row = frame[(frame.quantity == "accuracy") & (frame.aggregation == "avg")].iloc[0]
    assert (row.low, row.high) == pytest.approx(_corrected(value, points, n_train, n_test), abs=1e-10)


def test_mcc_interval_is_clipped_to_its_range_and_multiclass_macro_f_uses_the_jackknife(multiclass, fold_parts):
    p = multiclass

    def macro_f(idx):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return skm.f1_score(
                p.y_true[idx],
                p.y_pred[idx],
                labels=p.labels,
                average="macro",
                sample_weight=_w(p, idx),
                zero_division=0,
            )

    value, points = _pseudo(p, fold_parts, macro_f)
    n_train, n_test = _sizes(p, fold_parts)
    r = apples.report(p, measures=["mean_f", "mcc"], confidence=0.95)
    ci = r.confidence_interval(quantity="mean_f", aggregation="pooled", average="macro")
    assert (ci.low, ci.high) == pytest.approx(_corrected(value, points, n_train, n_test), abs=1e-10)
    stored = next(x for x in r.to_dict()["values"] if x["quantity"] == "mcc" and x["aggregation"] == "pooled")
    assert -1.0 <= stored["interval"]["low"] <= stored["value"] <= stored["interval"]["high"] <= 1.0


def test_the_interval_at_any_level_survives_the_json_round_trip(binary):
    r = apples.report(binary, measures=["f_measure", "accuracy"])
    back = apples.CVReport.from_json(r.to_json())
    for level in (0.5, 0.95, 0.999):
        a = r.confidence_interval(level)
        b = back.confidence_interval(level)
        np.testing.assert_array_equal(a[["low", "high"]].to_numpy(), b[["low", "high"]].to_numpy())


def test_hold_out_splits_use_the_corrected_resampled_t_over_the_splits_values():
    from sklearn.datasets import load_breast_cancer
    from sklearn.model_selection import ShuffleSplit
    from sklearn.naive_bayes import GaussianNB

    X, y = load_breast_cancer(return_X_y=True)
    X, y = X[:200, :4], y[:200]
    p = apples.cross_val_predictions(GaussianNB(), X, y, cv=ShuffleSplit(6, test_size=0.25, random_state=0))
    assert p.design == "repeated hold-out"
    values = []
    rep = np.unique(p.repeats, return_inverse=True)[1]
    for r in range(6):
        idx = rep == r
        values.append(skm.accuracy_score(p.y_true[idx], p.y_pred[idx]))
    values = np.array(values)
    n_test = 50.0
    ci = apples.report(p, measures=["accuracy"]).confidence_interval(quantity="accuracy", aggregation="pooled")
    assert ci.method == "corrected_resampled_t"
    assert (ci.low, ci.high) == pytest.approx(_corrected(values.mean(), values, 200 - n_test, n_test), abs=1e-12)


def test_without_cases_or_n_cases_a_hold_out_interval_says_why_it_is_missing():
    y = np.array([0, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1, 0])
    p = apples.CVPredictions(y, folds=np.zeros(12, int), repeats=np.repeat([0, 1, 2], 4), y_pred=y[::-1])
    r = apples.report(p, measures=["accuracy"], confidence=0.95)
    row = r.to_dict()["values"][0]
    assert row["interval"]["low"] is None and "n_cases" in row["interval"]["reason"]
    with pytest.raises(ValueError, match="n_cases") as err:
        r.confidence_interval(quantity="accuracy", aggregation="pooled")
    assert err.value.param == "quantity"


def test_a_fold_holding_every_positive_prediction_leaves_no_jackknife_and_says_why():
    y = np.array([1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0])
    pred = np.array([1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])  # every positive prediction is in fold 0
    p = apples.CVPredictions(y, folds=np.repeat([0, 1, 2], 4), y_pred=pred)
    r = apples.report(p, measures=["precision"], confidence=0.95)
    row = next(x for x in r.to_dict()["values"] if x["aggregation"] == "pooled")
    assert row["value"] == 0.5 and row["interval"]["low"] is None
    assert "without fold 0" in row["interval"]["reason"]


@pytest.mark.parametrize("key", ["roc_auc", "average_precision", "h_measure"])
def test_merged_ranking_intervals_use_pseudo_values_of_the_merged_scores_without_each_fold(binary, fold_parts, key):
    from hmeasure import h_score

    p = binary
    if key == "h_measure" and p.sample_weight is not None:
        pytest.skip("the hmeasure package takes no sample weights")
    positive = p.y_true == p.pos_label
    r = apples.report(p, measures=[key])
    severity = r.to_dict()["measures"]["h_measure"]["options"]["severity_ratio"] if key == "h_measure" else None
    metric = {
        "roc_auc": lambda idx: skm.roc_auc_score(positive[idx], p.y_score[idx], sample_weight=_w(p, idx)),
        "average_precision": lambda idx: skm.average_precision_score(
            positive[idx], p.y_score[idx], sample_weight=_w(p, idx)
        ),
        "h_measure": lambda idx: h_score(positive[idx].astype(int), p.y_score[idx], severity_ratio=severity),
    }[key]
    value, points = _pseudo(p, fold_parts, metric)
    n_train, n_test = _sizes(p, fold_parts)
    ci = r.confidence_interval(0.95, quantity=key, aggregation="merge")
    assert ci.estimate == pytest.approx(value, abs=1e-9)
    assert (ci.low, ci.high) == pytest.approx(_corrected(value, points, n_train, n_test), abs=1e-8)


def test_interval_ends_are_clipped_to_the_measures_range():
    """Three positives per fold: fold recalls of 0, 1/3, 2/3 or 1, and a corrected t that reaches past 1."""
    rng = np.random.default_rng(0)
    y = np.tile([1, 1, 1] + [0] * 12, 5)
    f = np.repeat(np.arange(5), 15)
    p = np.where(y == 1, (rng.random(y.size) < 0.8).astype(int), 0)
    p[[0, 1, 2]] = [1, 1, 1]
    p[[15, 16, 17]] = [1, 0, 0]
    r = apples.report(apples.CVPredictions(y, folds=f, y_pred=p), measures=["recall"])
    recalls = np.array([p[(f == i) & (y == 1)].mean() for i in range(5)])
    _, unclipped_high = stats.t.interval(
        0.95, 4, loc=recalls.mean(), scale=math.sqrt((1 / 5 + 15 / 60) * recalls.var(ddof=1))
    )
    assert unclipped_high > 1
    assert r.confidence_interval(quantity="recall", aggregation="avg").high == 1.0


def test_undefined_values_get_no_interval_and_the_reason_never_a_number():
    y = np.array([1, 0, 0, 0, 1, 0, 0, 0])
    p = np.zeros(8, dtype=int)  # nothing predicted positive: pooled precision is 0/0
    r = apples.report(apples.CVPredictions(y, folds=[0, 0, 0, 0, 1, 1, 1, 1], y_pred=p), confidence=0.95)
    rows = {(x["quantity"], x["aggregation"]): x for x in r.to_dict()["values"]}
    assert rows["precision", "pooled"]["value"] is None
    assert rows["precision", "pooled"]["interval"]["low"] is None
    assert rows["precision", "pooled"]["interval"]["reason"] == "the value is undefined"
    assert rows["f_measure", "avg_skip"]["interval"]["low"] is None  # every fold left out


def test_every_format_shows_the_intervals_and_json_round_trips(studies):
    r = apples.report(studies["binary"], confidence=0.9)
    frame = r.to_frame(readable=False)
    assert {"low", "high", "interval"} <= set(frame.columns)
    row = frame[(frame.quantity == "precision") & (frame.aggregation == "pooled")].iloc[0]
    want = r.confidence_interval(0.9, quantity="precision", aggregation="pooled")
    assert (row.low, row.high, row.interval) == (want.low, want.high, want.method)
    shown = f"{100 * want.low:.1f} to {100 * want.high:.1f}%"
    for text in (str(r), r.to_markdown(), r._repr_html_(), r.to_latex()):
        assert "90" in text and (shown in text or shown.replace(" to ", "--").replace("%", "") in text)
    assert apples.CVReport.from_json(r.to_json()) == r
    assert any(n.startswith("Intervals (90%)") for n in r.to_dict()["notes"])


@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [
        ({"confidence": 1.0}, ValueError, "confidence"),
        ({"confidence": "0.95"}, TypeError, "confidence"),
        ({"n_resamples": 1000}, TypeError, "n_resamples"),
    ],
)
def test_bad_interval_options_are_refused_by_name(kwargs, error, name):
    p = apples.CVPredictions([1, 0, 1, 0], folds=[0, 0, 1, 1], y_pred=[1, 0, 0, 0])
    with pytest.raises(error, match=name):
        apples.report(p, **kwargs)
    r = apples.report(p)
    with pytest.raises(ValueError, match="confidence_level") as err:
        r.confidence_interval(1.5)
    assert err.value.param == "confidence_level"


def test_an_average_whose_rule_replaced_a_0_0_fold_has_no_interval_and_says_why():
    y = np.array([1, 0, 1, 0] * 3)
    folds = np.repeat([0, 1, 2], 4)
    pred = np.array([1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0])  # fold 1 predicts no positive: precision 0/0 there
    p = apples.CVPredictions(y, folds=folds, y_pred=pred)
    ci = (
        apples.report(p, measures=["precision", "f_measure"])
        .confidence_interval(0.95)
        .set_index(["quantity", "aggregation"])
    )
    for key, done in [
        (("precision", "avg"), "counted as 0"),
        (("f_measure", "avg"), "counted as 0"),
        (("f_measure", "pr_re"), "counted as 0"),
        (("f_measure", "avg_skip"), "left out"),
        (("f_measure", "pr_re_skip"), "left out"),
    ]:
        row = ci.loc[key]
        assert np.isnan(row["low"]) and f"1 of the 3 fold values were 0/0 ({done})" in row["reason"], key
    assert "see the F_tp,fp row" in ci.loc[("f_measure", "avg"), "reason"]
    assert "see the pooled over folds row" in ci.loc[("precision", "avg"), "reason"]
    for key in [("precision", "pooled"), ("f_measure", "tp_fp")]:  # of the pooled counts: an interval
        assert ci.loc[key, "low"] <= ci.loc[key, "value"] <= ci.loc[key, "high"], key
    defined = apples.CVPredictions(y, folds=folds, y_pred=np.where(folds == 1, y, pred))  # every fold defined
    ok = apples.report(defined, measures=["f_measure"]).confidence_interval(
        0.95, quantity="f_measure", aggregation="avg"
    )
    assert ok.low <= ok.high


def test_averaged_h_never_has_an_interval_and_merged_h_has_one(binary):
    ci = apples.report(binary, measures=["h_measure"]).confidence_interval(0.95).set_index("aggregation")
    assert np.isnan(ci.loc["avg", "low"]) and "biased upward" in ci.loc["avg", "reason"]
    assert ci.loc["merge", "low"] <= ci.loc["merge", "value"] <= ci.loc["merge", "high"]


def test_many_folds_past_the_jackknife_bound_withhold_the_merged_ranking_intervals(monkeypatch):
    """Leave-one-out over many cases: the merged rankings' jackknife (folds x cases steps) is left out past the
    bound, the values stay (scikit-learn's), their intervals are withheld with the limit named; a count measure's
    jackknife (one subtraction per fold) and a design of few folds are untouched."""
    import apples.measures._tables as tables

    monkeypatch.setattr(tables, "JACKKNIFE_MAX_STEPS", 1_000)
    rng = np.random.default_rng(3)
    n = 300
    y = rng.integers(0, 2, n)
    s = rng.normal(size=n) + y
    loo = apples.CVPredictions(y, folds=np.arange(n), y_score=s, y_pred=(s > 0.5).astype(int))
    ci = apples.report(loo, measures=["roc_auc", "average_precision", "precision"], confidence=0.95)
    rows = ci.confidence_interval(0.95).set_index(["quantity", "aggregation"])
    assert rows.loc[("roc_auc", "merge"), "value"] == pytest.approx(skm.roc_auc_score(y, s))
    for quantity in ("roc_auc", "average_precision"):
        row = rows.loc[(quantity, "merge")]
        assert math.isnan(row["low"]) and math.isnan(row["high"])
        assert "300 folds of 300 cases would take 90,000 steps, more than the limit of 1,000" in row["reason"]
    assert not math.isnan(rows.loc[("precision", "pooled"), "low"])
    ten = apples.CVPredictions(y, folds=np.arange(n) % 10, y_score=s, y_pred=(s > 0.5).astype(int))
    merged = apples.report(ten, measures=["roc_auc"], confidence=0.95).confidence_interval(0.95)
    assert not merged.set_index(["quantity", "aggregation"])[["low", "high"]].isna().any(axis=None)


def _many_fold_studies():
    """Predictions from cross_val_predictions with more than 100 folds per repeat: weighted binary, repeated
    binary, multi-class and multi-label (the jackknife bound counts folds per repeat)."""
    from sklearn.datasets import load_breast_cancer, load_iris, make_multilabel_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import KFold, LeaveOneOut, RepeatedKFold
    from sklearn.multiclass import OneVsRestClassifier

    X, y = load_breast_cancer(return_X_y=True)
    X, y = X[:120, :4], y[:120]
    w = np.where(y == 1, 0.5, 2.0)
    lr = LogisticRegression(max_iter=2000)
    Xi, yi = load_iris(return_X_y=True)
    Xm, Ym = make_multilabel_classification(n_samples=120, n_features=6, n_classes=3, random_state=0)
    return {
        "weighted": apples.cross_val_predictions(lr, X, y, cv=LeaveOneOut(), sample_weight=w),
        "repeated": apples.cross_val_predictions(lr, X, y, cv=RepeatedKFold(n_splits=110, n_repeats=2, random_state=0)),
        "multiclass": apples.cross_val_predictions(lr, Xi, yi, cv=KFold(n_splits=105, shuffle=True, random_state=0)),
        "multilabel": apples.cross_val_predictions(OneVsRestClassifier(lr), Xm, Ym, cv=LeaveOneOut()),
    }


def test_the_jackknife_bound_on_every_kind_of_predictions(monkeypatch):
    """Past the bound, on weighted, repeated, multi-class and multi-label predictions: every merged ranking value
    is the one computed without the bound and has no interval, with the limit named; nothing else changes."""
    import apples.measures._tables as tables

    for kind, p in _many_fold_studies().items():
        free = apples.report(p, confidence=0.95).confidence_interval(0.95)
        monkeypatch.setattr(tables, "JACKKNIFE_MAX_STEPS", 1_000)
        bound = apples.report(p, confidence=0.95).confidence_interval(0.95)
        monkeypatch.undo()
        assert free[["quantity", "average", "aggregation"]].equals(bound[["quantity", "average", "aggregation"]])
        np.testing.assert_array_equal(free["value"], bound["value"], err_msg=kind)
        ranking = {k for k, m in apples.measures.MEASURES.items() if m.family == "ranking"}
        merged = (bound["aggregation"] == "merge") & bound["quantity"].isin(ranking)
        assert merged.any(), kind
        assert bound.loc[merged, "low"].isna().all(), kind
        assert bound.loc[merged, "reason"].str.contains("more than the limit of 1,000").all(), kind
        assert free.loc[merged, "low"].notna().any(), kind  # without the bound some merged value has one
        rest = ~merged
        pd_equal = (
            free.loc[rest, ["low", "high"]].fillna(-9.0).to_numpy()
            == bound.loc[rest, ["low", "high"]].fillna(-9.0).to_numpy()
        )
        assert pd_equal.all(), kind
