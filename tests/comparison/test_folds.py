"""apples.compare: values against scikit-learn, the corrected t written out, statsmodels' Holm, mlxtend's t."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from sklearn.metrics import accuracy_score, average_precision_score, f1_score, roc_auc_score

import apples
from apples.comparison import COMPARE_MEASURES, ModelComparison, compare


def _design(n=60, k=5, r=1, seed=0):
    rng = np.random.default_rng(seed)
    base = rng.integers(0, 2, n)
    y = np.tile(base, r)
    folds = np.empty(n * r, int)
    for i in range(r):  # stratified: every fold holds both classes
        order = np.argsort(base + rng.random(n) / 2)
        folds[i * n + order] = np.arange(n) % k
    repeats = np.repeat(np.arange(r), n) if r > 1 else None
    return rng, y, folds, repeats


def _model(rng, y, folds, repeats, signal):
    score = rng.normal(size=y.size) + signal * y
    return apples.CVPredictions(y, folds=folds, repeats=repeats, y_pred=(score > signal / 2).astype(int), y_score=score)


def _corrected_t(d, n_train, n_test):
    """Nadeau & Bengio's corrected resampled t written out: d̄ / √((1/J + n_test/n_train)·s²), J − 1 df."""
    j = d.size
    t = d.mean() / math.sqrt((1 / j + n_test / n_train) * d.var(ddof=1))
    return t, 2 * stats.t.sf(abs(t), j - 1)


@pytest.mark.parametrize("r", [1, 3])
def test_auc_avg_and_ap_avg_differences_match_sklearn_per_fold_and_the_written_out_corrected_t(r):
    rng, y, folds, repeats = _design(n=80, k=4, r=r, seed=r)
    a, b = _model(rng, y, folds, repeats, 1.0), _model(rng, y, folds, repeats, 0.6)
    result = compare(a, b, measures=["roc_auc", "average_precision"])
    rep = np.zeros(y.size, int) if repeats is None else repeats
    for metric, row in zip((roc_auc_score, average_precision_score), result.differences, strict=True):
        per_fold = {
            m: np.array(
                [
                    metric(y[(rep == i) & (folds == f)], m.y_score[(rep == i) & (folds == f)])
                    for i in range(r)
                    for f in range(4)
                ]
            )
            for m in (a, b)
        }
        d = per_fold[a] - per_fold[b]
        t, p = _corrected_t(d, n_train=60, n_test=20)
        assert row.value_a == pytest.approx(per_fold[a].mean(), abs=1e-12)
        assert row.difference == pytest.approx(d.mean(), abs=1e-12)
        assert row.statistic == pytest.approx(t, rel=1e-10)
        assert row.p_value == pytest.approx(p, rel=1e-9)
        assert row.df == 4 * r - 1
        half = stats.t.ppf(0.975, 4 * r - 1) * math.sqrt((1 / d.size + 20 / 60) * d.var(ddof=1))
        assert (row.low, row.high) == pytest.approx((d.mean() - half, d.mean() + half), abs=1e-12)


@pytest.mark.parametrize("r", [1, 2])
def test_pooled_f1_and_accuracy_are_the_pooled_values_of_each_repeat_as_sklearn_computes_them(r):
    rng, y, folds, repeats = _design(n=50, k=5, r=r, seed=10 + r)
    a, b = _model(rng, y, folds, repeats, 1.2), _model(rng, y, folds, repeats, 0.4)
    result = compare(a, b, measures=["f_measure", "accuracy"])
    rep = np.zeros(y.size, int) if repeats is None else repeats
    for metric, row in zip((f1_score, accuracy_score), result.differences, strict=True):
        pooled = {m: np.mean([metric(y[rep == i], m.y_pred[rep == i]) for i in range(r)]) for m in (a, b)}
        assert row.value_a == pytest.approx(pooled[a], abs=1e-12)
        assert row.value_b == pytest.approx(pooled[b], abs=1e-12)
        assert row.difference == pytest.approx(pooled[a] - pooled[b], abs=1e-12)


def test_accuracy_with_equal_folds_is_the_corrected_t_of_the_fold_accuracies():
    # equal folds: each fold's linearised contribution to the pooled accuracy is the fold's accuracy
    rng, y, folds, _ = _design(n=60, k=6, seed=3)
    a, b = _model(rng, y, folds, None, 1.0), _model(rng, y, folds, None, 0.3)
    row = compare(a, b, measures=["accuracy"]).differences[0]
    acc = {m: np.array([accuracy_score(y[folds == f], m.y_pred[folds == f]) for f in range(6)]) for m in (a, b)}
    t, p = _corrected_t(acc[a] - acc[b], n_train=50, n_test=10)
    assert (row.statistic, row.p_value) == pytest.approx((t, p), rel=1e-10)


def test_pooled_f1_difference_is_tested_through_the_jackknife_pseudo_values():
    # k·F − (k − 1)·F₋f, each F₋f scikit-learn's F1 of the other folds' rows, written out for one model against a
    # model whose F is 1 without any fold (its pseudo-values all equal 1)
    rng, y, folds, _ = _design(n=100, k=5, seed=4)
    a = _model(rng, y, folds, None, 1.0)
    b = apples.CVPredictions(y, folds=folds, y_pred=y.copy())  # perfect
    row = compare(a, b, measures=["f_measure"]).differences[0]
    f_all = f1_score(y, a.y_pred)
    pseudo = np.array([5 * f_all - 4 * f1_score(y[folds != f], a.y_pred[folds != f]) for f in range(5)])
    d = pseudo - pseudo.mean() + f_all - 1.0
    t, p = _corrected_t(d, n_train=80, n_test=20)
    assert row.difference == pytest.approx(f_all - 1.0, abs=1e-12)
    assert (row.statistic, row.p_value) == pytest.approx((t, p), rel=1e-10)


def test_three_models_holm_matches_statsmodels_and_every_pair_is_there():
    from statsmodels.stats.multitest import multipletests

    rng, y, folds, _ = _design(n=90, k=3, seed=5)
    models = [_model(rng, y, folds, None, s) for s in (1.5, 0.8, 0.2)]
    result = compare(*models, measures=["roc_auc", "accuracy"], names=["lr", "nb", "tree"])
    assert result.holm
    frame = result.to_frame()
    assert list(zip(frame.model_a, frame.model_b, strict=True))[:3] == [("lr", "nb"), ("lr", "tree"), ("nb", "tree")]
    for measure in ("roc_auc", "accuracy"):
        part = frame[frame.measure == measure]
        expected = multipletests(part.p_value.to_numpy(), method="holm")[1]
        np.testing.assert_allclose(part.p_holm.to_numpy(), expected, rtol=1e-12)
    assert "Holm" in str(result)


def test_two_models_p_holm_is_the_p_value_and_default_names_and_measures():
    rng, y, folds, _ = _design(seed=6)
    result = compare(_model(rng, y, folds, None, 1.0), _model(rng, y, folds, None, 0.5))
    expected = [":".join([k] + ([a] if a else []) + [g]) for k, a, g in COMPARE_MEASURES["binary"]]
    # the scores are no probabilities: no log loss nor Brier score
    assert list(result.measures) == [m for m in expected if not m.startswith(("log_loss", "brier"))]
    assert result.names == ("A", "B") and not result.holm
    assert all(d.p_holm == d.p_value for d in result.differences)
    text = str(result)
    for needed in ("Nadeau & Bengio", "Bouckaert & Frank", "Dietterich", "DeLong", "McNemar", "F_tp,fp"):
        assert needed in text


def test_refuses_predictions_that_do_not_share_cases_folds_or_repeats_naming_the_argument():
    rng, y, folds, _ = _design(n=40, k=4, seed=7)
    a = _model(rng, y, folds, None, 1.0)
    other_truth = apples.CVPredictions(1 - y, folds=folds, y_pred=y)
    other_folds = apples.CVPredictions(y, folds=(folds + 1) % 4, y_pred=y)
    with pytest.raises(ValueError, match=r"^b does not share the y_true") as err:
        compare(a, other_truth)
    assert err.value.param == "b"
    with pytest.raises(ValueError, match="fold ids") as err:
        compare(a, a, other_folds)
    assert err.value.param == "more[0]"
    with_repeats = apples.CVPredictions(y, folds=folds, repeats=np.zeros(y.size, int), y_pred=y)
    with pytest.raises(ValueError, match="repeat ids") as err:
        compare(a, with_repeats)
    assert err.value.param == "b"
    with pytest.raises(TypeError, match="more") as err:
        compare(a, a, "not predictions")
    assert err.value.param == "more"
    with pytest.raises(ValueError, match="names has 1 names for 2 models"):
        compare(a, a, names=["x"])
    no_scores = apples.CVPredictions(y, folds=folds, y_pred=y)
    with pytest.raises(ValueError, match="y_score") as err:
        compare(no_scores, no_scores, measures=["roc_auc"])
    assert err.value.param == "measures"
    with pytest.raises(ValueError, match="b has none") as err:
        compare(a, no_scores, measures=["roc_auc"])  # a allows the ranking measures, b does not
    assert err.value.param == "b"
    default = compare(a, no_scores, undefined="nan")  # by default, what every model allows, and the notes say so
    assert "roc_auc:avg" not in default.measures and "f_measure:tp_fp" in default.measures
    assert any("roc_auc" in n and n.startswith("Not compared") for n in default.notes)


def test_a_model_against_itself_is_0_by_0_raise_by_default_nan_on_request():
    rng, y, folds, _ = _design(seed=8)
    a = _model(rng, y, folds, None, 1.0)
    with pytest.raises(apples.UndefinedMetricError, match="undefined='nan'"):
        compare(a, a)
    result = compare(a, a, undefined="nan")
    for d in result.differences:
        assert d.difference == 0.0 and d.low == d.high == 0.0
        assert math.isnan(d.statistic) and math.isnan(d.p_value)


def test_a_fold_with_one_class_is_left_out_of_both_models_auc_avg():
    y = np.array([1, 1, 1, 1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 0, 0, 1])
    folds = np.repeat([0, 1, 2, 3], 4)
    rng = np.random.default_rng(0)
    sa, sb = rng.random(16), rng.random(16)
    a, b = (apples.CVPredictions(y, folds=folds, y_score=s) for s in (sa, sb))
    row = compare(a, b, measures=["roc_auc"]).differences[0]
    auc = {s.tobytes(): [roc_auc_score(y[folds == f], s[folds == f]) for f in (1, 2, 3)] for s in (sa, sb)}
    d = np.array(auc[sa.tobytes()]) - np.array(auc[sb.tobytes()])  # fold 0 holds positives only: no AUC for either
    assert row.df == 2 and row.difference == pytest.approx(d.mean(), abs=1e-12)
    assert row.statistic == pytest.approx(_corrected_t(d, n_train=12, n_test=4)[0], rel=1e-10)


def test_html_escapes_model_names_and_the_frame_is_tidy():
    rng, y, folds, _ = _design(seed=9)
    a, b = _model(rng, y, folds, None, 1.0), _model(rng, y, folds, None, 0.5)
    result = compare(a, b, names=["<script>x</script>", "a&b"], measures=["accuracy"])
    page = result._repr_html_()
    assert "<script>" not in page and "&lt;script&gt;" in page and "a&amp;b" in page
    frame = result.to_frame()
    assert list(frame.columns) == list(apples.comparison.MeasureDifference._fields) and len(frame) == 1
    with pytest.raises(AttributeError):
        result.confidence = 0.5  # type: ignore[misc]
    assert isinstance(result, ModelComparison)


@pytest.mark.trained
def test_naive_fold_t_of_mlxtend_times_the_correction_is_compares_t():
    # mlxtend's paired_ttest_kfold_cv is the naive paired t over the folds (Dietterich 1998's "k-fold cv paired
    # t"); on the same folds and predictions compare's t is it divided by √((1/k + 1/(k − 1)) / (1/k)).
    from mlxtend.evaluate import paired_ttest_kfold_cv
    from sklearn.datasets import make_classification
    from sklearn.model_selection import KFold
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    X, y = make_classification(n_samples=200, n_features=6, random_state=0)
    k = 5
    t_mlx, _ = paired_ttest_kfold_cv(GaussianNB(), DecisionTreeClassifier(random_state=0), X, y, cv=k, random_seed=1)
    folds = np.empty(y.size, int)
    pred = {0: np.empty(y.size, int), 1: np.empty(y.size, int)}
    for f, (train, test) in enumerate(KFold(n_splits=k, random_state=1, shuffle=True).split(X)):
        folds[test] = f
        for m, est in enumerate((GaussianNB(), DecisionTreeClassifier(random_state=0))):
            pred[m][test] = est.fit(X[train], y[train]).predict(X[test])
    a, b = (apples.CVPredictions(y, folds=folds, y_pred=pred[m]) for m in (0, 1))
    row = compare(a, b, measures=["accuracy"]).differences[0]
    assert row.statistic == pytest.approx(t_mlx / math.sqrt((1 / k + 1 / (k - 1)) * k), rel=1e-6)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31), k=st.integers(2, 6), r=st.integers(1, 3))
def test_compare_is_antisymmetric(seed, k, r):
    rng, y, folds, repeats = _design(n=6 * k, k=k, r=r, seed=seed)
    y[:2] = [0, 1]
    a, b = _model(rng, y, folds, repeats, 1.0), _model(rng, y, folds, repeats, 0.5)
    ab = compare(a, b, measures=["accuracy", "f_measure"], undefined="nan")
    ba = compare(b, a, measures=["accuracy", "f_measure"], undefined="nan")
    for x, z in zip(ab.differences, ba.differences, strict=True):
        assert x.difference == pytest.approx(-z.difference, abs=1e-12)
        assert (x.low, x.high) == pytest.approx((-z.high, -z.low), abs=1e-12)
        np.testing.assert_allclose([x.statistic, x.p_value], [-z.statistic, z.p_value], rtol=1e-9, atol=1e-12)


def _second_model(p, seed, flip=0.2):
    """Another model on the same cases, folds and repeats: the first one's predictions with some changed."""
    rng = np.random.default_rng(seed)
    if p.task == "multilabel":
        pred = p.y_pred ^ (rng.random(p.y_pred.shape) < flip)
        score = np.clip(p.y_score + rng.normal(0, 0.2, p.y_score.shape), 0, 1)
    elif p.task == "multiclass":
        pred = np.where(rng.random(len(p)) < flip, rng.choice(p.labels, len(p)), p.y_pred)
        score = rng.dirichlet(np.ones(len(p.labels)), len(p)) * 0.5 + p.y_score * 0.5
    else:
        pred = np.where(
            rng.random(len(p)) < flip, np.where(p.y_pred == p.pos_label, "malignant", p.pos_label), p.y_pred
        )
        score = np.clip(p.y_score + rng.normal(0, 0.1, len(p)), 0, 1)
    return apples.CVPredictions(
        p.y_true,
        folds=p.folds,
        repeats=p.repeats,
        cases=p.cases,
        y_pred=pred,
        y_score=score,
        labels=None if p.task == "binary" else p.labels,
        pos_label=p.pos_label,
        sample_weight=p.sample_weight,
        n_cases=p.n_cases,
    )


def _fold_rows(p):
    rep = np.zeros(len(p), int) if p.repeats is None else np.unique(p.repeats, return_inverse=True)[1]
    return [(rep == r) & (p.folds == f) for r in range(p.n_repeats) for f in np.unique(p.folds[rep == r])]


def test_multiclass_compare_macro_f_balanced_accuracy_and_per_label_f_against_sklearn(studies):
    from sklearn.metrics import balanced_accuracy_score

    a = studies["multiclass_weighted"]
    b = _second_model(a, 1)
    res = compare(a, b, measures=["mean_f:macro:avg", "balanced_accuracy:avg"], per_label=True)
    w = a.sample_weight
    for row, metric in zip(
        res.differences[:2],
        (
            lambda t, q, idx: f1_score(t, q, average="macro", labels=a.labels, sample_weight=w[idx], zero_division=0),
            lambda t, q, idx: balanced_accuracy_score(t, q, sample_weight=w[idx]),
        ),
        strict=True,
    ):
        d = np.array([metric(a.y_true[m], a.y_pred[m], m) - metric(b.y_true[m], b.y_pred[m], m) for m in _fold_rows(a)])
        assert row.difference == pytest.approx(d.mean(), abs=1e-12)
        n_test = np.mean([m.sum() for m in _fold_rows(a)])
        assert row.statistic == pytest.approx(_corrected_t(d, n_train=150 - n_test, n_test=n_test)[0], rel=1e-9)
    labels = [r.measure for r in res.differences[2:]]
    assert labels == [f"f_measure[{lab}]" for lab in a.labels]
    rep = np.unique(a.repeats, return_inverse=True)[1]
    first = res.differences[2]
    pooled = {
        m: np.mean(
            [f1_score(m.y_true[rep == r] == 0, m.y_pred[rep == r] == 0, sample_weight=w[rep == r]) for r in (0, 1)]
        )
        for m in (a, b)
    }
    assert (first.value_a, first.value_b) == pytest.approx((pooled[a], pooled[b]), abs=1e-12)


def test_multilabel_compare_micro_and_macro_f_against_sklearn(studies):
    a = studies["multilabel"]
    b = _second_model(a, 2)
    res = compare(a, b, measures=["mean_f:micro:avg", "mean_f:macro:avg", "hamming_loss:avg"], per_label=True)
    for row, average in zip(res.differences[:2], ("micro", "macro"), strict=True):
        d = np.array(
            [
                f1_score(a.y_true[m], a.y_pred[m], average=average, zero_division=0)
                - f1_score(b.y_true[m], b.y_pred[m], average=average, zero_division=0)
                for m in _fold_rows(a)
            ]
        )
        assert row.difference == pytest.approx(d.mean(), abs=1e-12)
    assert len(res.differences) == 3 + len(a.labels)


def test_compare_on_shuffle_split_predictions_uses_the_splits(studies):
    from sklearn.datasets import load_breast_cancer
    from sklearn.model_selection import ShuffleSplit
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    X, y = load_breast_cancer(return_X_y=True)
    X, y = X[:200, :5], y[:200]
    cv = ShuffleSplit(8, test_size=0.25, random_state=0)
    a = apples.cross_val_predictions(GaussianNB(), X, y, cv=cv)
    b = apples.cross_val_predictions(DecisionTreeClassifier(random_state=0), X, y, cv=cv)
    row = compare(a, b, measures=["accuracy"]).differences[0]  # before: ZeroDivisionError
    rep = np.unique(a.repeats, return_inverse=True)[1]
    d = np.array(
        [
            accuracy_score(y[a.cases[rep == r]], a.y_pred[rep == r])
            - accuracy_score(y[b.cases[rep == r]], b.y_pred[rep == r])
            for r in range(8)
        ]
    )
    assert row.test == "corrected_resampled_t" and row.df == 7
    assert row.statistic == pytest.approx(_corrected_t(d, n_train=150, n_test=50)[0], rel=1e-10)


def test_compare_uses_the_weights_the_predictions_carry(studies):
    a = studies["binary_weighted"]
    b = _second_model(a, 3)
    row = compare(a, b, measures=["f_measure"]).differences[0]
    rep = np.unique(a.repeats, return_inverse=True)[1]
    weighted = np.mean(
        [
            f1_score(
                a.y_true[rep == r], a.y_pred[rep == r], pos_label="benign", sample_weight=a.sample_weight[rep == r]
            )
            for r in range(3)
        ]
    )
    unweighted = np.mean([f1_score(a.y_true[rep == r], a.y_pred[rep == r], pos_label="benign") for r in range(3)])
    assert row.value_a == pytest.approx(weighted, abs=1e-12) and abs(weighted - unweighted) > 1e-3
    unweighted_b = apples.CVPredictions(b.y_true, folds=b.folds, repeats=b.repeats, y_pred=b.y_pred, pos_label="benign")
    with pytest.raises(ValueError, match="sample_weight") as err:
        compare(a, unweighted_b)
    assert err.value.param == "b"
