"""cross_val_predictions(sample_weight=w): the weights reach each split's fit (restricted to its training rows) where
the estimator takes them, and stay on the predictions (each test row's weight), so the report is weighted. Checked
against scikit-learn's cross_val_predict with the same weights in params=, and its metrics with sample_weight=, on
binary, repeated, multi-class and routed (metadata routing) data; multi-label refuses weights by name."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import sklearn
from sklearn.datasets import load_breast_cancer, load_iris, make_multilabel_classification
from sklearn.decomposition import PCA
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score
from sklearn.model_selection import RepeatedStratifiedKFold, StratifiedKFold, cross_val_predict
from sklearn.multioutput import MultiOutputClassifier
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import apples
from apples import cross_val_predictions
from apples._params import ParameterValueError

from report_view import nested

X_ALL, Y_ALL = load_breast_cancer(return_X_y=True)
X, Y = X_ALL[::3], Y_ALL[::3]  # 190 cases
XS = StandardScaler().fit_transform(X)  # for the estimators without a scaler in front (lbfgs converges fast)
W = np.random.default_rng(0).gamma(2.0, 1.0, Y.size)
W[:7] = 0.0
CV = StratifiedKFold(4, shuffle=True, random_state=0)


def _pipe():
    return make_pipeline(StandardScaler(), LogisticRegression(max_iter=5000))


def _quiet(call):
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)  # none of apples' weight warnings is expected here
        return call()


@pytest.mark.trained
def test_a_plain_estimator_is_fitted_with_the_weights_and_the_report_is_weighted():
    est = LogisticRegression(max_iter=5000)
    p = _quiet(lambda: cross_val_predictions(est, XS, Y, cv=CV, sample_weight=W))
    proba = cross_val_predict(est, XS, Y, cv=CV, method="predict_proba", params={"sample_weight": W})[:, 1]
    pred = cross_val_predict(est, XS, Y, cv=CV, params={"sample_weight": W})
    assert p.cases is not None and p.sample_weight is not None
    np.testing.assert_allclose(p.y_score, proba[p.cases], rtol=1e-9, atol=1e-12)
    assert p.sample_weight.tolist() == W[p.cases].tolist()
    d = nested(apples.report(p))
    assert d["f_measure"]["tp_fp"] == pytest.approx(f1_score(Y, pred, sample_weight=W), abs=0.005)
    unweighted = cross_val_predictions(est, XS, Y, cv=CV)
    assert np.abs(unweighted.y_score - p.y_score).max() > 1e-3  # the weights reached fit


@pytest.mark.trained
def test_a_pipeline_gets_the_weights_in_its_last_step_only():
    p = _quiet(lambda: cross_val_predictions(_pipe(), X, Y, cv=CV, sample_weight=W))
    ref = cross_val_predict(
        _pipe(), X, Y, cv=CV, method="predict_proba", params={"logisticregression__sample_weight": W}
    )[:, 1]
    assert p.cases is not None
    np.testing.assert_allclose(p.y_score, ref[p.cases], rtol=1e-9, atol=1e-12)
    nested = make_pipeline(StandardScaler(), make_pipeline(PCA(5), LogisticRegression(max_iter=5000)))
    q = _quiet(lambda: cross_val_predictions(nested, X, Y, cv=CV, sample_weight=W))
    ref = cross_val_predict(
        nested, X, Y, cv=CV, method="predict_proba", params={"pipeline__logisticregression__sample_weight": W}
    )[:, 1]
    np.testing.assert_allclose(q.y_score, ref[q.cases], rtol=1e-9, atol=1e-12)


@pytest.mark.trained
def test_an_estimator_without_weights_is_fitted_unweighted_with_a_warning():
    knn = make_pipeline(StandardScaler(), KNeighborsClassifier(7))
    with pytest.warns(UserWarning, match="Pipeline is fitted without sample weights") as caught:
        p = cross_val_predictions(knn, X, Y, cv=CV, sample_weight=W)
    assert caught[0].filename == __file__  # the warning points at the caller's line
    ref = cross_val_predict(knn, X, Y, cv=CV, method="predict_proba")[:, 1]
    np.testing.assert_allclose(p.y_score, ref[p.cases], rtol=1e-12)
    assert p.sample_weight is not None and p.sample_weight.tolist() == W[p.cases].tolist()
    pred = cross_val_predict(knn, X, Y, cv=CV)
    d = nested(apples.report(p))
    assert d["f_measure"]["tp_fp"] == pytest.approx(f1_score(Y, pred, sample_weight=W), rel=1e-12)


def test_weights_given_to_a_step_in_params_only_warn_that_the_report_is_unweighted():
    with pytest.warns(UserWarning, match=r"params\['logisticregression__sample_weight'\].*sample_weight= instead"):
        p = cross_val_predictions(_pipe(), X, Y, cv=CV, params={"logisticregression__sample_weight": W})
    assert p.sample_weight is None


def test_weights_given_twice_are_refused():
    with pytest.raises(ParameterValueError, match="given twice") as info:
        cross_val_predictions(_pipe(), X, Y, cv=CV, sample_weight=W, params={"logisticregression__sample_weight": W})
    assert info.value.param == "params"
    with pytest.raises(ParameterValueError, match="given twice"):
        cross_val_predictions(LogisticRegression(), XS, Y, cv=CV, sample_weight=W, params={"sample_weight": W})


@pytest.mark.parametrize(
    "weights, words",
    [(W[:-1], "sample_weight"), (np.where(W > 0, -1.0, 0.0), "non-negative"), (np.zeros(Y.size), "0 for every case")],
    ids=["short", "negative", "all zero"],
)
def test_bad_weights_are_refused_by_name_before_any_fit(weights, words):
    with pytest.raises(ParameterValueError, match=words) as info:
        cross_val_predictions(_pipe(), X, Y, cv=CV, sample_weight=weights)
    assert info.value.param == "sample_weight" or info.value.param == "X"  # unequal lengths name the first array


def test_multilabel_refuses_weights_by_name_before_fitting():
    Xm, Ym = make_multilabel_classification(n_samples=60, n_classes=3, random_state=0)
    with pytest.raises(ParameterValueError, match="multi-label") as info:
        cross_val_predictions(MultiOutputClassifier(LogisticRegression()), Xm, Ym, cv=3, sample_weight=np.ones(60))
    assert info.value.param == "sample_weight"


@pytest.mark.trained
def test_repeated_weighted_predictions_report_the_mean_of_each_repeats_weighted_f():
    cv = RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=1)
    p = _quiet(lambda: cross_val_predictions(_pipe(), X, Y, cv=cv, sample_weight=W))
    assert p.n_repeats == 2 and p.sample_weight is not None
    splits = list(cv.split(X, Y))
    per_repeat = []
    for r in range(2):
        pred = np.empty(Y.size, dtype=Y.dtype)
        for train, test in splits[3 * r : 3 * r + 3]:
            model = _pipe().fit(X[train], Y[train], logisticregression__sample_weight=W[train])
            pred[test] = model.predict(X[test])
        per_repeat.append(f1_score(Y, pred, sample_weight=W))
    d = nested(apples.report(p))
    assert d["f_measure"]["tp_fp"] == pytest.approx(np.mean(per_repeat), abs=0.005)


@pytest.mark.trained
def test_multiclass_weighted_predictions_give_scikit_learns_weighted_macro_f():
    Xi, yi = load_iris(return_X_y=True)
    names = np.array(["setosa", "versicolor", "virginica"])[yi]
    w = np.tile([1.0, 2.0, 0.5], 50)
    cv = StratifiedKFold(5, shuffle=True, random_state=3)
    p = _quiet(lambda: cross_val_predictions(_pipe(), Xi, names, cv=cv, sample_weight=w))
    pred = cross_val_predict(_pipe(), Xi, names, cv=cv, params={"logisticregression__sample_weight": w})
    assert p.y_pred[np.argsort(p.cases)].tolist() == pred.tolist()
    d = nested(apples.report(p))
    want = f1_score(names, pred, average="macro", sample_weight=w)
    assert d["mean_f"]["macro"]["pooled"] == pytest.approx(want, abs=0.005)


@pytest.mark.trained
def test_with_metadata_routing_the_weights_go_where_the_estimator_requests_them():
    with sklearn.config_context(enable_metadata_routing=True):
        est = LogisticRegression(max_iter=5000).set_fit_request(sample_weight=True)
        p = _quiet(lambda: cross_val_predictions(est, XS, Y, cv=CV, sample_weight=W))
        ref = cross_val_predict(est, XS, Y, cv=CV, method="predict_proba", params={"sample_weight": W})[:, 1]
        np.testing.assert_allclose(p.y_score, ref[p.cases], rtol=1e-9, atol=1e-12)
        plain = LogisticRegression(max_iter=5000)  # no request: fitted unweighted, as the warning says
        with pytest.warns(UserWarning, match="does not request them"):
            q = cross_val_predictions(plain, XS, Y, cv=CV, sample_weight=W)
        ref = cross_val_predict(plain, XS, Y, cv=CV, method="predict_proba")[:, 1]
        np.testing.assert_allclose(q.y_score, ref[q.cases], rtol=1e-9, atol=1e-12)
        assert q.sample_weight is not None
        with pytest.raises(ParameterValueError, match="given twice"):
            cross_val_predictions(est, XS, Y, cv=CV, sample_weight=W, params={"sample_weight": W})


def test_a_training_fold_whose_weights_are_all_zero_names_sample_weight_and_the_split():
    w = np.ones(Y.size)
    w[:95] = 0.0
    splits = [(np.arange(95), np.arange(95, Y.size)), (np.arange(95, Y.size), np.arange(95))]
    with pytest.raises(ParameterValueError, match=r"split 0 \(repeat 0, fold 0\) failed on the weights") as info:
        cross_val_predictions(LogisticRegression(), XS, Y, cv=splits, sample_weight=w)
    assert info.value.param == "sample_weight" and isinstance(info.value.__cause__, ValueError)
