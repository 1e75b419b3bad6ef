"""label_table on multi-label predictions against scikit-learn's classification_report; fold_table refuses them."""

from __future__ import annotations

import numpy as np
import pytest

from apples.cv import CVPredictions, fold_summary, fold_table, label_table

metrics = pytest.importorskip("sklearn.metrics")

NAMES = ["x", "y", "z", "w"]


def _data(seed: int = 0, n: int = 48, k: int = 4):
    rng = np.random.default_rng(seed)
    T = rng.random((n, 4)) < 0.4
    P = np.where(rng.random((n, 4)) < 0.7, T, ~T)
    folds = np.arange(n) % k
    T[folds == 1, 3] = P[folds == 1, 3] = False  # w absent from fold 1 and never predicted there
    return T, P, folds


def _sk(T, P):
    return metrics.classification_report(T, P, target_names=NAMES, zero_division=0, output_dict=True)


def _check(table, expected):
    for row in (*NAMES, "micro avg", "macro avg", "weighted avg"):
        e = expected[row]
        got = table.loc[row]
        assert got["precision"] == pytest.approx(e["precision"], abs=1e-12), row
        assert got["recall"] == pytest.approx(e["recall"], abs=1e-12), row
        assert got["f"] == pytest.approx(e["f1-score"], abs=1e-12), row
        assert got["support"] == pytest.approx(e["support"], abs=1e-12), row


def test_pooled_is_classification_report():
    T, P, folds = _data()
    table = label_table(CVPredictions(T, folds=folds, y_pred=P, labels=NAMES))
    assert list(table.index) == [*NAMES, "micro avg", "macro avg", "weighted avg"]
    _check(table, _sk(T, P))


def test_over_folds_is_the_mean_of_each_folds_report():
    T, P, folds = _data(seed=3)
    table = label_table(CVPredictions(T, folds=folds, y_pred=P, labels=NAMES), over="folds")
    reports = [_sk(T[folds == f], P[folds == f]) for f in range(4)]
    mean = {
        row: {
            key: float(np.mean([r[row][key] for r in reports]))
            for key in ("precision", "recall", "f1-score", "support")
        }
        for row in (*NAMES, "micro avg", "macro avg", "weighted avg")
    }
    _check(table, mean)


def test_fold_table_refuses_multilabel_by_name():
    T, P, folds = _data()
    p = CVPredictions(T, folds=folds, y_pred=P, labels=NAMES)
    for f in (fold_table, fold_summary):
        with pytest.raises(ValueError, match="multi-label") as err:
            f(p)
        assert err.value.param == "predictions"
