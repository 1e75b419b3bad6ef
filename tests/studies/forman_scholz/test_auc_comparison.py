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

# two folds of four cases: labels, scores and fold ids, fold after fold
Y = [1, 0, 1, 0, 1, 0, 0, 1]
S = [0.75, 0.5, 0.5, 0.25, 0.625, 0.375, 0.125, 0.25]
F = [1, 1, 1, 1, 2, 2, 2, 2]


def _shifted(shift):
    """The scores with fold 2 moved by ``shift``: every fold's AUC stays, the merged one moves."""
    return np.where(np.asarray(F) == 2, np.asarray(S) + shift, S)


def test_table_equals_auc_table_for_each_model():
    scores = {"aligned": _shifted(0.0), "shifted": _shifted(-1.0), "third": S[4:][::-1] + S[:4]}
    table = fs.auc_comparison(Y, scores, folds=F)
    assert list(table.index) == list(scores)
    assert list(table.columns) == ["fold 1", "fold 2", "AUC_avg", "AUC_merge", "avg - merge (points)"]
    for name, s in scores.items():
        aucs = apples.auc_table(Y, s, folds=F)["auc"]
        np.testing.assert_array_equal(
            table.loc[name, ["fold 1", "fold 2", "AUC_avg", "AUC_merge"]].to_numpy(float), aucs.to_numpy(float)
        )
        assert table.loc[name, "avg - merge (points)"] == 100 * (aucs["AUC_avg"] - aucs["AUC_merge"])


def test_table_values_by_hand():
    # fold 1: positives 0.75, 0.5 against negatives 0.5, 0.25 -> (1 + 1 + 0.5 + 1)/4 = 0.875
    # fold 2: positives 0.625, 0.25 against 0.375, 0.125 -> (1 + 1 + 0 + 1)/4 = 0.75
    table = fs.auc_comparison(Y, {"m": S, "shifted": _shifted(-1.0)}, folds=F)
    assert table.loc["m", "fold 1"] == 0.875 and table.loc["m", "fold 2"] == 0.75
    assert table.loc["m", "AUC_avg"] == pytest.approx(0.8125)
    merged = roc_auc_score(Y, S)
    assert table.loc["m", "AUC_merge"] == pytest.approx(merged)
    # shifting fold 2 down changes no fold's AUC, only the merged one
    assert table.loc["shifted", "AUC_avg"] == table.loc["m", "AUC_avg"]
    merged_shift = roc_auc_score(Y, _shifted(-1.0))
    assert table.loc["shifted", "AUC_merge"] == pytest.approx(merged_shift)
    assert table.loc["shifted", "avg - merge (points)"] == pytest.approx(100 * (0.8125 - merged_shift))
    assert merged_shift != pytest.approx(merged)


def test_columns_name_the_fold_ids_and_the_positive_label_is_chosen():
    table = fs.auc_comparison(
        ["p", "n", "p", "n", "p", "n", "n", "p"], {"m": S}, folds=[0, 0, 0, 0, 7, 7, 7, 7], pos_label="p"
    )
    assert list(table.columns[:2]) == ["fold 0", "fold 7"]
    assert table.loc["m", ["fold 0", "fold 7"]].tolist() == [0.875, 0.75]


def test_real_fold_scores():
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold

    X, y = fs.digits_one_vs_rest(8, n_positives=20, seed=0)
    cv = StratifiedKFold(n_splits=3, shuffle=True, random_state=0)
    yt, ys, folds = fs.fold_scores(LogisticRegression(max_iter=200), X, y, cv=cv)
    table = fs.auc_comparison(yt, {"lr": ys}, folds=folds)
    assert isinstance(table, pd.DataFrame) and table.shape == (1, 6)
    assert table.loc["lr", "AUC_merge"] == pytest.approx(roc_auc_score(yt, ys))


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"scores_by_model": [S]}, TypeError, "^scores_by_model must be a mapping"),
        ({"scores_by_model": {}}, ValueError, "^scores_by_model is empty"),
        ({"scores_by_model": {"m": S[:6]}}, ValueError, r"^scores_by_model\['m'\] has 6 scores, but y_true has 8"),
        ({"scores_by_model": {"m": ["a"] * 8}}, TypeError, r"^scores_by_model\['m'\]"),
        ({"folds": F[:6]}, ValueError, "folds"),
        ({"y_true": [1, 1, 1, 1, 1, 0, 0, 1]}, apples.UndefinedMetricError, "^fold 1: AUC is undefined"),
        ({"y_true": [1, 0, 1, 0, 1, 0, 2, 1]}, ValueError, "y_true"),
        ({"pos_label": 2}, ValueError, "pos_label"),
    ],
)
def test_bad_arguments_are_refused(kwargs, error, match):
    with pytest.raises(error, match=match):
        fs.auc_comparison(**{"y_true": Y, "scores_by_model": {"m": S}, "folds": F, **kwargs})


# -- the gap over repeated splits (notebook 02, §5 and Going deeper A.4) ----------------------------
def _xy(n=80, seed=3):
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(n // 4, int), np.zeros(n - n // 4, int)]
    X = rng.normal(size=(n, 3)) + 0.8 * y[:, None]
    return X, y


def test_gaps_over_splits_equal_scikit_learn_fold_by_fold():
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold
    from sklearn.svm import LinearSVC

    X, y = _xy()
    models = {"lr": (LogisticRegression(), "predict_proba"), "svm": LinearSVC(C=0.1)}
    gaps = fs.auc_gaps_over_splits(models, X, y, seeds=[0, 5], n_splits=4)
    assert list(gaps.columns) == ["model", "seed", "AUC_avg", "AUC_merge", "gap"]
    assert gaps[["model", "seed"]].to_numpy().tolist() == [["lr", 0], ["svm", 0], ["lr", 5], ["svm", 5]]
    for row in gaps.itertuples():
        est = LogisticRegression() if row.model == "lr" else LinearSVC(C=0.1)
        per_fold, truth, scores = [], [], []
        for train, test in StratifiedKFold(4, shuffle=True, random_state=row.seed).split(X, y):
            fitted = est.fit(X[train], y[train])
            s = fitted.predict_proba(X[test])[:, 1] if row.model == "lr" else fitted.decision_function(X[test])
            per_fold.append(roc_auc_score(y[test], s))
            truth.append(y[test])
            scores.append(s)
        assert row.AUC_avg == pytest.approx(np.mean(per_fold), abs=1e-12)
        assert row.AUC_merge == pytest.approx(roc_auc_score(np.concatenate(truth), np.concatenate(scores)), abs=1e-12)
        assert row.gap == pytest.approx(row.AUC_avg - row.AUC_merge, abs=1e-15)


def test_gap_summary_by_hand():
    gaps = pd.DataFrame(
        {
            "model": ["b", "a", "b", "a", "b"],
            "seed": [0, 0, 1, 1, 2],
            "AUC_avg": [0.9, 0.8, 0.7, 0.6, 0.8],
            "AUC_merge": [0.8, 0.85, 0.7, 0.5, 0.9],
        }
    )
    gaps["gap"] = gaps.AUC_avg - gaps.AUC_merge
    s = fs.summarize_auc_gaps(gaps)
    assert list(s.index) == ["b", "a"]  # first-seen order
    # b: gaps 0.1, 0.0, -0.1 -> mean 0, one split with merge lower; a: gaps -0.05, 0.1
    assert s.loc["b", "gap_mean"] == pytest.approx(0.0, abs=1e-15)
    assert (s.loc["b", "gap_min"], s.loc["b", "gap_max"]) == pytest.approx((-0.1, 0.1))
    assert (int(s.loc["b", "merge_lower"]), int(s.loc["b", "splits"])) == (1, 3)
    assert s.loc["a", "AUC_avg"] == pytest.approx(0.7) and s.loc["a", "AUC_merge"] == pytest.approx(0.675)
    assert (int(s.loc["a", "merge_lower"]), int(s.loc["a", "splits"])) == (1, 2)


@pytest.mark.parametrize(
    ("kwargs", "error", "word"),
    [
        ({"models": {}}, TypeError, "models"),
        ({"models": ["m"]}, TypeError, "models"),
        ({"seeds": []}, ValueError, "seeds"),
        ({"seeds": [-1]}, ValueError, "seeds"),
        ({"seeds": [0.5]}, TypeError, "seeds"),
        ({"n_splits": 1}, ValueError, "n_splits"),
    ],
)
def test_gaps_over_splits_refuse_bad_arguments_by_name(kwargs, error, word):
    from sklearn.linear_model import LogisticRegression

    X, y = _xy()
    call = {"models": {"lr": LogisticRegression()}, "X": X, "y": y, **kwargs}
    with pytest.raises(error, match=word):
        fs.auc_gaps_over_splits(**call)
    with pytest.raises(TypeError, match="gaps"):
        fs.summarize_auc_gaps([1, 2])


# -- the breast cancer task of notebooks 10 and 11 -------------------------------------------------------------
def test_breast_cancer_task_is_the_written_out_subsample():
    from sklearn.datasets import load_breast_cancer

    data = load_breast_cancer()
    assert [data.feature_names[i] for i in (1, 4, 9)] == ["mean texture", "mean smoothness", "mean fractal dimension"]
    malignant = np.flatnonzero(data.target == 0)  # scikit-learn's target names: ['malignant', 'benign']
    assert list(data.target_names) == ["malignant", "benign"]
    chosen = np.random.default_rng(4).choice(malignant, size=12, replace=False)
    keep = np.sort(np.concatenate([np.flatnonzero(data.target == 1), chosen]))
    X, y = fs.breast_cancer_one_vs_rest(12, features=(1, 4, 9), seed=4)
    np.testing.assert_array_equal(X, data.data[keep][:, [1, 4, 9]])
    np.testing.assert_array_equal(y, (data.target[keep] == 0).astype(int))
    X_all, y_all = fs.breast_cancer_one_vs_rest(None, features=None)
    assert X_all.shape == (569, 30) and int(y_all.sum()) == 212


@pytest.mark.parametrize(
    ("kwargs", "error", "word"),
    [
        ({"n_positives": 0}, ValueError, "n_positives"),
        ({"n_positives": 213}, ValueError, "n_positives"),
        ({"features": (30,)}, ValueError, "features"),
        ({"features": "1"}, TypeError, "features"),
        ({"features": ()}, TypeError, "features"),
        ({"seed": None}, TypeError, "seed"),
    ],
)
def test_breast_cancer_task_refuses_bad_arguments(kwargs, error, word):
    with pytest.raises(error, match=word):
        fs.breast_cancer_one_vs_rest(**kwargs)
