"""apples.report, issue 21: what is not given is absent, F_beta, log loss and Brier score, leave-one-out.

Expected values come from scikit-learn (fbeta_score, log_loss, brier_score_loss, roc_auc_score) and hand
calculations; never from the report itself.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import brier_score_loss, fbeta_score, log_loss, roc_auc_score

import apples

from report_view import nested


def _binary(seed: int = 0, n: int = 300, k: int = 5):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    prob = np.clip(0.25 + 0.4 * y + 0.3 * rng.standard_normal(n), 0.01, 0.99)
    return y, (prob > 0.5).astype(int), prob, rng.integers(0, k, n)


def test_scores_only_has_no_prediction_rows_and_recommends_no_f():
    y, _p, s, f = _binary()
    r = apples.report(apples.CVPredictions(y, folds=f, y_score=s))
    d = nested(r)
    for absent in ("f_measure", "precision", "recall", "accuracy"):
        assert absent not in d
    assert not any("F_tp,fp" in note for note in d["notes"])
    rows = str(r).split("\n\n")[1].splitlines()[2:]  # the table's rows, below its header
    assert rows and all(
        row.startswith(("ROC AUC", "average precision", "H-measure", "log loss", "Brier score")) for row in rows
    )
    assert d["roc_auc"]["merge"] == pytest.approx(roc_auc_score(y, s), rel=1e-12)


def test_multiclass_without_scores_has_no_roc_auc_row():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, 90)
    p = np.where(rng.random(90) < 0.7, y, rng.integers(0, 3, 90))
    r = apples.report(apples.CVPredictions(y, folds=np.arange(90) % 3, y_pred=p))
    assert "roc_auc" not in r.to_dict()
    assert "ROC AUC" not in str(r) and "undefined" not in str(r).split("Folds")[0]
    assert apples.CVReport.from_json(r.to_json()) == r
    frame = r.to_frame(readable=False)
    assert "roc_auc" not in set(frame["quantity"])


@pytest.mark.parametrize("beta", [0.5, 2.0])
def test_f_beta_in_the_report_equals_scikit_learn(beta):
    y, p, _s, f = _binary(2)
    d = nested(apples.report(apples.CVPredictions(y, folds=f, y_pred=p), beta=beta))
    assert (
        apples.report(apples.CVPredictions(y, folds=f, y_pred=p), beta=beta).to_dict()["measures"]["f_measure"][
            "options"
        ]["beta"]
        == beta
    )
    assert d["f_measure"]["tp_fp"] == pytest.approx(fbeta_score(y, p, beta=beta), rel=1e-12)
    folds = [fbeta_score(y[f == i], p[f == i], beta=beta, zero_division=0) for i in range(5)]
    assert d["f_measure"]["avg"] == pytest.approx(np.mean(folds), rel=1e-12)
    assert f"F{beta:g}-measure" in str(apples.report(apples.CVPredictions(y, folds=f, y_pred=p), beta=beta))


@pytest.mark.parametrize("beta", [0.0, float("inf")])
def test_the_limits_of_beta_are_refused_they_are_precision_and_recall(beta):
    y, p, _s, f = _binary(2)
    with pytest.raises(ValueError, match="beta"):
        apples.report(apples.CVPredictions(y, folds=f, y_pred=p), beta=beta)


def test_beta_applies_to_the_multiclass_f_too():
    rng = np.random.default_rng(7)
    y = rng.integers(0, 3, 90)
    pred = np.where(rng.random(90) < 0.6, y, rng.integers(0, 3, 90))
    folds = np.arange(90) % 3
    r = apples.report(apples.CVPredictions(y, folds=folds, y_pred=pred), beta=2)
    assert r.value("mean_f", "pooled", average="macro") == pytest.approx(
        fbeta_score(y, pred, beta=2, average="macro"), rel=1e-12
    )
    assert "F2 of averaged P, R" in str(r) and "mean of per-label F2" in str(r)


def test_log_loss_and_brier_score_equal_scikit_learn_pooled_and_per_fold():
    y, p, s, f = _binary(3)
    d = nested(apples.report(apples.CVPredictions(y, folds=f, y_pred=p, y_score=s)))
    assert d["log_loss"]["pooled"] == pytest.approx(log_loss(y, s), rel=1e-12)
    assert d["brier_score"]["pooled"] == pytest.approx(brier_score_loss(y, s), rel=1e-12)
    per_fold_ll = [log_loss(y[f == i], s[f == i], labels=[0, 1]) for i in range(5)]
    per_fold_br = [brier_score_loss(y[f == i], s[f == i]) for i in range(5)]
    assert d["log_loss"]["avg"] == pytest.approx(np.mean(per_fold_ll), rel=1e-12)
    assert d["brier_score"]["avg"] == pytest.approx(np.mean(per_fold_br), rel=1e-12)
    # the pooled value is the fold-size-weighted mean of the folds' (hand calculation)
    sizes = np.bincount(f)
    assert d["brier_score"]["pooled"] == pytest.approx(np.dot(sizes, per_fold_br) / sizes.sum(), rel=1e-12)
    assert any("fold-size-weighted mean" in note for note in d["notes"])


@pytest.mark.parametrize("scores", ["decision", "infinite"])
def test_scoring_rules_only_for_probabilities(scores):
    y, p, s, f = _binary(4)
    if scores == "decision":
        s = 4 * s - 2  # a decision value, not a probability: no number, not even null
        d = nested(apples.report(apples.CVPredictions(y, folds=f, y_pred=p, y_score=s)))
        assert "log_loss" not in d and "brier_score" not in d
    else:
        s = s.copy()
        s[np.flatnonzero(y == 1)[0]] = 0.0  # a positive given probability 0: an infinite log loss
        r = apples.report(apples.CVPredictions(y, folds=f, y_pred=p, y_score=s))
        d = nested(r)
        assert d["log_loss"]["pooled"] == float("inf")  # infinite, said so, never clipped into a number
        assert d["brier_score"]["pooled"] == pytest.approx(brier_score_loss(y, s), rel=1e-12)
        assert "infinite: 1 case(s) got probability 0" in str(r)


def test_leave_one_out_recommends_the_merged_auc_and_says_why():
    y, p, s, _f = _binary(5, n=40)
    r = apples.report(apples.CVPredictions(y, folds=np.arange(40), y_pred=p, y_score=s))
    d = nested(r)
    assert d["roc_auc"]["avg"] is None  # a fold of one case has one class: no AUC in any fold
    assert d["roc_auc"]["merge"] == pytest.approx(roc_auc_score(y, s), rel=1e-12)
    assert d["recommended"]["roc_auc"] == "merge"
    # a fold of one case ranks nothing: its AP would be 1 for a positive whatever the model, so it is undefined
    assert d["average_precision"]["avg"] is None
    assert d["recommended"]["average_precision"] == "merge"
    note = next(n for n in d["notes"] if n.startswith("ROC AUC"))
    assert "leave-one-out" in note and "§3.2" in note and "calibration" in note
    assert "report AUC_avg" not in " ".join(d["notes"])
