"""cross_val_predictions on a multi-label y (a 0/1 indicator array), end to end into the report, checked
against scikit-learn's own cross_val_predict and metrics on the same folds."""

from __future__ import annotations

import numpy as np
import pytest

import apples

from report_view import nested

pytest.importorskip("sklearn")
from sklearn import metrics
from sklearn.datasets import make_multilabel_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold, cross_val_predict
from sklearn.multiclass import OneVsRestClassifier
from sklearn.multioutput import MultiOutputClassifier

X, Y = make_multilabel_classification(n_samples=200, n_classes=4, random_state=0)
CV = KFold(5, shuffle=True, random_state=0)


def _folds() -> np.ndarray:
    folds = np.empty(len(Y), dtype=int)
    for f, (_, test) in enumerate(CV.split(X)):
        folds[test] = f
    return folds


@pytest.mark.trained
@pytest.mark.parametrize("wrapper", [OneVsRestClassifier, MultiOutputClassifier])
def test_predictions_and_scores_are_scikit_learns(wrapper):
    est = wrapper(LogisticRegression(max_iter=1000))
    p = apples.cross_val_predictions(est, X, Y, cv=CV)
    assert p.task == "multilabel" and p.labels == [0, 1, 2, 3] and p.y_score.shape == (200, 4)
    pred = cross_val_predict(est, X, Y, cv=CV)
    proba = cross_val_predict(est, X, Y, cv=CV, method="predict_proba")
    if isinstance(proba, list):  # MultiOutputClassifier: one (n, 2) table per label, class 1 second
        proba = np.column_stack([t[:, 1] for t in proba])
    assert np.array_equal(p.y_pred, pred.astype(bool))
    assert np.allclose(p.y_score, proba, rtol=0, atol=1e-9)
    assert p.folds.tolist() == _folds().tolist()


@pytest.mark.trained
def test_report_of_a_multilabel_model_matches_scikit_learn():
    """Tolerances: ±0.5 points for a rate (CONTRIBUTING, trained values), computed by scikit-learn on the same folds."""
    est = OneVsRestClassifier(LogisticRegression(max_iter=1000))
    d = nested(apples.report(apples.cross_val_predictions(est, X, Y, cv=CV)))
    pred = cross_val_predict(est, X, Y, cv=CV)
    proba = cross_val_predict(est, X, Y, cv=CV, method="predict_proba")
    folds = _folds()
    tol = 0.005
    assert d["subset_accuracy"]["pooled"] == pytest.approx(metrics.accuracy_score(Y, pred), abs=tol)
    assert d["hamming_loss"]["pooled"] == pytest.approx(metrics.hamming_loss(Y, pred), abs=tol)
    assert d["mean_f"]["macro"]["pooled"] == pytest.approx(metrics.f1_score(Y, pred, average="macro"), abs=tol)
    assert d["mean_f"]["micro"]["pooled"] == pytest.approx(metrics.f1_score(Y, pred, average="micro"), abs=tol)
    assert d["roc_auc"]["macro_ovr"]["merge"] == pytest.approx(metrics.roc_auc_score(Y, proba), abs=tol)
    per_fold = [metrics.roc_auc_score(Y[folds == f], proba[folds == f]) for f in range(5)]
    assert d["roc_auc"]["macro_ovr"]["avg"] == pytest.approx(np.mean(per_fold), abs=tol)
    f1 = [metrics.f1_score(Y[folds == f], pred[folds == f], average="macro") for f in range(5)]
    assert d["mean_f"]["macro"]["avg"] == pytest.approx(np.mean(f1), abs=tol)
    mcm = metrics.multilabel_confusion_matrix(Y, pred)
    assert [r["tp"] for r in d["per_label"]] == pytest.approx(mcm[:, 1, 1].tolist(), abs=2)
    assert 0.7 < d["roc_auc"]["macro_ovr"]["avg"] < 1  # a model that learns something: the scores are oriented


@pytest.mark.trained
def test_decision_function_scores_per_label():
    est = OneVsRestClassifier(LogisticRegression(max_iter=1000))
    p = apples.cross_val_predictions(est, X, Y, cv=CV, method="decision_function")
    expected = cross_val_predict(est, X, Y, cv=CV, method="decision_function")
    assert np.allclose(p.y_score, expected, rtol=0, atol=1e-9)


def test_multilabel_y_refusals_name_y_or_pos_label():
    est = MultiOutputClassifier(LogisticRegression())
    with pytest.raises(ValueError, match="0/1 indicator") as err:
        apples.cross_val_predictions(est, X, Y * 2, cv=CV)
    assert err.value.param == "y"
    with pytest.raises(ValueError, match="pos_label is for binary y"):
        apples.cross_val_predictions(est, X, Y, cv=CV, pos_label=1)
