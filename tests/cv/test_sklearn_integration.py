"""scikit-learn integration: cross_val_predictions against cross_val_predict, repeated and grouped splitters,
and pooled F from cross_validate with counts_scorer, checked against scikit-learn on the same folds."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score, roc_auc_score
from sklearn.model_selection import (
    GroupKFold,
    KFold,
    RepeatedStratifiedKFold,
    StratifiedKFold,
    cross_val_predict,
    cross_validate,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

import apples

from report_view import nested


def _model():
    return make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return X[::2], y[::2]


def test_predictions_equal_cross_val_predict_and_keep_the_folds(cancer):
    X, y = cancer
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    cvp = apples.cross_val_predictions(_model(), X, y, cv=cv)
    assert cvp.task == "binary" and cvp.pos_label == 1 and cvp.repeats is None
    p = cvp.to_frame()
    assert list(p.columns) == ["fold", "case", "y_true", "y_pred", "y_score"]
    np.testing.assert_array_equal(p["case"], np.arange(len(y)))
    np.testing.assert_array_equal(p["y_pred"], cross_val_predict(_model(), X, y, cv=cv))
    proba = cross_val_predict(_model(), X, y, cv=cv, method="predict_proba")[:, 1]
    np.testing.assert_allclose(p["y_score"], proba, rtol=1e-12)
    for k, (_, test) in enumerate(cv.split(X, y)):
        assert set(p.loc[p.fold == k, "case"]) == set(test)
    r = nested(apples.report(cvp))
    assert r["f_measure"]["tp_fp"] == pytest.approx(f1_score(y, p.y_pred), rel=1e-12)
    assert r["roc_auc"]["merge"] == pytest.approx(roc_auc_score(y, proba), rel=1e-12)


def test_repeated_splitter_gives_repeats(cancer):
    X, y = cancer
    cv = RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=1)
    cvp = apples.cross_val_predictions(_model(), X, y, cv=cv, n_jobs=2)
    p = cvp.to_frame()
    assert len(p) == 2 * len(y) and cvp.n_repeats == 2
    assert sorted(p.repeat.unique()) == [0, 1] and sorted(p.fold.unique()) == [0, 1, 2]
    splits = list(cv.split(X, y))
    for r in (0, 1):
        sub = p[p.repeat == r]
        np.testing.assert_array_equal(sub["case"], np.arange(len(y)))
        for k in range(3):
            assert set(sub.loc[sub.fold == k, "case"]) == set(splits[3 * r + k][1])
    d = nested(apples.report(cvp))
    per_repeat = [f1_score(p.y_true[p.repeat == r], p.y_pred[p.repeat == r]) for r in (0, 1)]
    assert d["f_measure"]["tp_fp"] == pytest.approx(np.mean(per_repeat), rel=1e-12)


def test_grouped_splitter_and_decision_function(cancer):
    X, y = cancer
    groups = np.arange(len(y)) % 7
    p = apples.cross_val_predictions(LinearSVC(), X, y, cv=GroupKFold(3), groups=groups).to_frame()
    for k in range(3):
        assert len(set(groups[p.loc[p.fold == k, "case"]]) & set(groups[p.loc[p.fold != k, "case"]])) == 0
    expected = cross_val_predict(LinearSVC(), X, y, cv=GroupKFold(3), groups=groups, method="decision_function")
    np.testing.assert_allclose(p["y_score"], expected, rtol=1e-9)


def test_multiclass_scores_one_column_per_label():
    X, y = load_iris(return_X_y=True)
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    cvp = apples.cross_val_predictions(_model(), X, y, cv=cv)
    p = cvp.to_frame()
    cols = ["y_score_0", "y_score_1", "y_score_2"]
    assert cvp.task == "multiclass" and cvp.labels == [0, 1, 2]
    assert list(p.columns) == ["fold", "case", "y_true", "y_pred", *cols]
    np.testing.assert_allclose(p[cols], cross_val_predict(_model(), X, y, cv=cv, method="predict_proba"), rtol=1e-12)
    d = nested(apples.report(cvp))
    assert d["mean_f"]["macro"]["pooled"] == pytest.approx(f1_score(y, p.y_pred, average="macro"), rel=1e-12)


def test_method_predict_gives_no_scores_and_bad_method_is_named(cancer):
    X, y = cancer
    p = apples.cross_val_predictions(_model(), X, y, cv=KFold(2), method="predict")
    assert p.y_score is None and "y_score" not in p.to_frame().columns
    with pytest.raises(ValueError, match="method"):
        apples.cross_val_predictions(LinearSVC(), X, y, cv=2, method="predict_proba")
    with pytest.raises(ValueError, match="single label"):
        apples.cross_val_predictions(_model(), X, np.zeros(len(y), dtype=int), cv=2)


def test_pooled_f_from_cross_validate_equals_f1_of_the_predictions(cancer):
    X, y = cancer
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    results = cross_validate(_model(), X, y, cv=cv, scoring=apples.counts_scorer())
    folds = apples.fold_counts_from_cross_validate(results)
    assert len(folds) == 5 and sum(c.n for c in folds) == len(y)
    pred = cross_val_predict(_model(), X, y, cv=cv)
    assert apples.cv_f_measure(folds, method="tp_fp") == pytest.approx(f1_score(y, pred), rel=1e-12)
    fold_ids = np.empty(len(y), dtype=int)
    for k, (_, test) in enumerate(cv.split(X, y)):
        fold_ids[test] = k
    assert folds == apples.fold_counts(y, pred, folds=fold_ids)


def test_fold_counts_from_cross_validate_refuses_other_dicts():
    with pytest.raises(ValueError, match="results lacks"):
        apples.fold_counts_from_cross_validate({"test_score": [0.5, 0.6]})
    with pytest.raises(TypeError, match="results"):
        apples.fold_counts_from_cross_validate([1, 2])
    with pytest.raises(ValueError, match="results"):
        apples.fold_counts_from_cross_validate({"test_tp": [1, 2], "test_fp": [0], "test_fn": [0, 0]})
    with pytest.raises(ValueError, match="results, fold 1"):
        apples.fold_counts_from_cross_validate({"test_tp": [1, -2], "test_fp": [0, 0], "test_fn": [0, 0]})


@pytest.mark.parametrize(
    "bad, exc",
    [
        ([1], TypeError),
        (None, ValueError),
        (float("nan"), ValueError),
        (0.5, ValueError),
        ({"a": 1}, TypeError),
        (np.array([1]), TypeError),
    ],
    ids=repr,
)
def test_counts_scorer_checks_pos_label_when_it_is_made(bad, exc):
    # before: accepted; the error came only inside cross_validate, which turns it into NaN and a warning
    with pytest.raises(exc, match=r"^pos_label"):
        apples.counts_scorer(pos_label=bad)
    for good in (1, np.int64(0), "spam", True, 1.0):
        apples.counts_scorer(pos_label=good)


def test_fold_counts_from_cross_validate_says_the_scorer_failed_in_every_fold(cancer):
    X, y = cancer
    names = np.array(["malignant", "benign"])[y]
    with pytest.warns(UserWarning, match="Scoring failed"):  # scikit-learn's only word about it
        results = cross_validate(_model(), X, names, cv=3, scoring=apples.counts_scorer())  # pos_label=1: no match
    assert set(results) == {"fit_time", "score_time", "test_score"} and np.isnan(results["test_score"]).all()
    # before: "run cross_validate(..., scoring=apples.counts_scorer())", which the user had done
    with pytest.raises(ValueError, match=r"^the scorer failed in every fold: results\['test_score'\] is NaN in all 3"):
        apples.fold_counts_from_cross_validate(results)


class _FailsOnElevenCases(LogisticRegression):
    """predict raises on a test fold of 11 cases (fold 0 of KFold(3) over 31 cases), as a broken scorer would."""

    def predict(self, X):
        if len(X) == 11:
            raise RuntimeError("broken on purpose")
        return super().predict(X)


def test_fold_counts_from_cross_validate_names_the_folds_where_the_scorer_failed(cancer):
    X, y = cancer
    with pytest.warns(UserWarning, match="Scoring failed"):
        results = cross_validate(
            _FailsOnElevenCases(max_iter=5000), X[:31], y[:31], cv=KFold(3), scoring=apples.counts_scorer()
        )
    # a failure in the first fold makes scikit-learn store NaN and the other folds' count dicts in test_score
    assert "test_tp" not in results and isinstance(results["test_score"][1], dict)
    with pytest.raises(ValueError, match=r"^the scorer failed in 1 of 3 folds \(fold 0\)"):
        apples.fold_counts_from_cross_validate(results)
    # NaN counts (error_score=nan filled in per key) say the same
    nan_counts = {"test_tp": [3.0, np.nan], "test_fp": [1.0, np.nan], "test_fn": [0.0, np.nan]}
    with pytest.raises(ValueError, match=r"^the scorer failed in 1 of 2 folds \(fold 1\)"):
        apples.fold_counts_from_cross_validate(nan_counts)


# -- the positive label's score: the breast-cancer study with string labels --------------------------
@pytest.fixture(scope="module")
def named_cancer():
    """All of breast cancer, labels as names (scikit-learn's 0 is malignant): "malignant" sorts last."""
    X, y = load_breast_cancer(return_X_y=True)
    return X, np.array(["malignant", "benign"])[y]


def test_string_labels_need_pos_label_and_get_its_score(named_cancer):
    X, names = named_cancer
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    with pytest.raises(ValueError, match=r"^pos_label must be given: the labels are \['benign', 'malignant'\]"):
        apples.cross_val_predictions(_model(), X, names, cv=cv)
    cvp = apples.cross_val_predictions(_model(), X, names, cv=cv, pos_label="benign")
    assert cvp.pos_label == "benign"
    p = cvp.to_frame()
    proba = cross_val_predict(_model(), X, names, cv=cv, method="predict_proba")  # columns: benign, malignant
    np.testing.assert_allclose(p["y_score"], proba[:, 0], rtol=1e-12)
    assert roc_auc_score(names == "benign", p["y_score"]) > 0.95
    # before: the score of "malignant" (the label that sorts last) with pos_label="benign": ROC AUC 0.5%
    r = apples.report(cvp)
    d = nested(r)
    assert d["roc_auc"]["merge"] == pytest.approx(roc_auc_score(names == "benign", proba[:, 0]), rel=1e-12)
    assert d["roc_auc"]["avg"] > 0.95 and d["roc_auc"]["merge"] > 0.95
    assert d["f_measure"]["tp_fp"] == pytest.approx(f1_score(names, p.y_pred, pos_label="benign"), rel=1e-12)
    assert not any("other label" in w for w in d["warnings"])


def test_a_flipped_score_column_is_warned_about(named_cancer):
    X, names = named_cancer
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    p = apples.cross_val_predictions(
        _model(), X, names, cv=cv, pos_label="malignant"
    ).to_frame()  # the wrong label's score
    d = nested(
        apples.report(
            apples.CVPredictions(p.y_true, folds=p.fold, y_pred=p.y_pred, y_score=p.y_score, pos_label="benign")
        )
    )
    auc = roc_auc_score(names == "benign", p.y_score)
    assert auc < 0.05 and d["roc_auc"]["merge"] == pytest.approx(auc, rel=1e-12)  # the wrong number, with ...
    direction, below = d["warnings"][:2]  # ... the two warnings first
    assert direction.startswith("the scores rank the cases predicted negative above those predicted positive")
    assert "other label's scores" in direction and "pos_label" in direction
    assert below.startswith("ROC AUC below 50% (avg ") and "other label's scores" in below
    # without predictions only the second can be said
    d = nested(apples.report(apples.CVPredictions(p.y_true, folds=p.fold, y_score=p.y_score, pos_label="benign")))
    assert [w[:18] for w in d["warnings"]] == ["ROC AUC below 50% "]


@pytest.mark.parametrize("pos_label, sign", [(1, 1.0), (0, -1.0)])
def test_a_decision_value_is_oriented_towards_pos_label(cancer, pos_label, sign):
    X, y = cancer
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    p = apples.cross_val_predictions(LinearSVC(), X, y, cv=cv, pos_label=pos_label).to_frame()
    # scikit-learn's decision value scores classes_[1] = 1; for pos_label=0 apples negates it
    expected = cross_val_predict(LinearSVC(), X, y, cv=cv, method="decision_function")
    np.testing.assert_allclose(p["y_score"], sign * expected, rtol=1e-9)
    assert roc_auc_score(y == pos_label, p["y_score"]) > 0.9


def test_pos_label_is_checked_like_report_does(cancer):
    X, y = cancer
    with pytest.raises(ValueError, match=r"^pos_label=2 is not one of the labels in y \[0, 1\]"):
        apples.cross_val_predictions(_model(), X, y, cv=2, pos_label=2)
    with pytest.raises(TypeError, match=r"^pos_label='1' is a str but the labels in y are numbers"):
        apples.cross_val_predictions(_model(), X, y, cv=2, pos_label="1")
    X3, y3 = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match=r"^pos_label is for binary y; y holds 3 labels \[0, 1, 2\]"):
        apples.cross_val_predictions(_model(), X3, y3, cv=2, pos_label=1)
    assert apples.cross_val_predictions(_model(), X3, y3, cv=2).pos_label is None
    # booleans default to True, -1/1 to 1; without scores, other labels need no pos_label
    p = apples.cross_val_predictions(_model(), X, y == 1, cv=2)
    assert p.pos_label is True
    np.testing.assert_allclose(p.y_score, cross_val_predict(_model(), X, y == 1, cv=2, method="predict_proba")[:, 1])
    # other labels need it even without scores: the F-measures count one of them as positive
    names = np.array(["no", "yes"])[y]
    with pytest.raises(ValueError, match=r"^pos_label must be given"):
        apples.cross_val_predictions(_model(), X, names, cv=2, method="predict")
