"""Tests for apples.studies.forman_scholz.auc_comparison: the notebook 02 table of AUC_avg against AUC_merge.

Expected values: apples.auc_table's numbers for each model, and a hand count of the
Mann–Whitney pairs for a small case (Forman & Scholz 2010, §3.2).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

import apples
from apples.studies import forman_scholz as fs

YF = [[1, 0, 1, 0], [1, 0, 0, 1]]
SF = [[0.75, 0.5, 0.5, 0.25], [0.625, 0.375, 0.125, 0.25]]


def _shifted(shift):
    return [np.asarray(SF[0]), np.asarray(SF[1]) + shift]


def test_table_equals_auc_table_for_each_model():
    folds = {"aligned": (YF, _shifted(0.0)), "shifted": (YF, _shifted(-1.0)), "third": (YF, [SF[1][::-1], SF[0]])}
    table = fs.auc_comparison(folds)
    assert list(table.index) == list(folds)
    assert list(table.columns) == ["fold 1", "fold 2", "AUC_avg", "AUC_merge", "avg - merge (points)"]
    for name, (yt, ys) in folds.items():
        aucs = apples.auc_table(yt, ys)["auc"]
        np.testing.assert_allclose(table.loc[name, ["fold 1", "fold 2", "AUC_avg", "AUC_merge"]].to_numpy(float),
                                   aucs.to_numpy(float))
        assert table.loc[name, "avg - merge (points)"] == pytest.approx(100 * (aucs["AUC_avg"] - aucs["AUC_merge"]))


def test_table_values_by_hand():
    # fold 1: positives 0.75, 0.5 against negatives 0.5, 0.25 -> (1 + 1 + 0.5 + 1)/4 = 0.875
    # fold 2: positives 0.625, 0.25 against 0.375, 0.125 -> (1 + 1 + 0 + 1)/4 = 0.75
    table = fs.auc_comparison({"m": (YF, SF), "shifted": (YF, _shifted(-1.0))})
    assert table.loc["m", "fold 1"] == 0.875 and table.loc["m", "fold 2"] == 0.75
    assert table.loc["m", "AUC_avg"] == pytest.approx(0.8125)
    merged = roc_auc_score(np.concatenate(YF), np.concatenate(SF))
    assert table.loc["m", "AUC_merge"] == pytest.approx(merged)
    # shifting fold 2 down changes no fold's AUC, only the merged one
    assert table.loc["shifted", "AUC_avg"] == table.loc["m", "AUC_avg"]
    merged_shift = roc_auc_score(np.concatenate(YF), np.concatenate(_shifted(-1.0)))
    assert table.loc["shifted", "AUC_merge"] == pytest.approx(merged_shift)
    assert table.loc["shifted", "avg - merge (points)"] == pytest.approx(100 * (0.8125 - merged_shift))
    assert merged_shift != pytest.approx(merged)


def test_real_fold_scores():
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold

    X, y = fs.digits_one_vs_rest(8, n_positives=20, seed=0)
    cv = StratifiedKFold(n_splits=3, shuffle=True, random_state=0)
    folds = {"lr": fs.fold_scores(LogisticRegression(max_iter=200), X, y, cv=cv)}
    table = fs.auc_comparison(folds)
    assert isinstance(table, pd.DataFrame) and table.shape == (1, 6)
    assert table.loc["lr", "AUC_merge"] == pytest.approx(
        roc_auc_score(np.concatenate(folds["lr"][0]), np.concatenate(folds["lr"][1])))


@pytest.mark.parametrize(
    ("folds", "error", "match"),
    [
        ([(YF, SF)], TypeError, "folds_by_model"),
        ({}, ValueError, "folds_by_model"),
        ({"m": YF[0]}, TypeError, r"folds_by_model\['m'\]"),
        ({"m": (YF, SF, SF)}, TypeError, r"folds_by_model\['m'\]"),
        ({"m": (YF, SF), "n": ([*YF, [1, 0]], [*SF, [0.5, 0.25]])}, ValueError, "same number of folds"),
        ({"m": (YF, [SF[0], SF[1][:2]])}, ValueError, r"folds_by_model\['m'\]"),
        ({"m": ([[1, 1], [1, 0]], [[0.5, 0.25], [0.5, 0.25]])}, ValueError, r"folds_by_model\['m'\]"),
        ({"m": (YF, [SF[0], ["a", "b", "c", "d"]])}, (TypeError, ValueError), r"folds_by_model\['m'\]"),
    ],
)
def test_bad_arguments_are_refused(folds, error, match):
    with pytest.raises(error, match=match):
        fs.auc_comparison(folds)
