"""Per-fold and per-label tables (issue 21, item 6), cross-checked against scikit-learn computed here.

Independent sources: scikit-learn's precision_score, recall_score, f1_score, fbeta_score,
accuracy_score, roc_auc_score, average_precision_score on each fold's rows, and
classification_report(output_dict=True) / precision_recall_fscore_support on the pooled rows or
on each fold's rows; numpy's mean and std(ddof=1) for the summary.
"""

from __future__ import annotations

import numpy as np
import pytest

import apples
from apples.cv import CVPredictions, fold_summary, fold_table, label_table

sklearn = pytest.importorskip("sklearn")
from sklearn.metrics import (  # noqa: E402
    accuracy_score,
    average_precision_score,
    classification_report,
    f1_score,
    precision_recall_fscore_support,
    precision_score,
    recall_score,
    roc_auc_score,
)

RNG = np.random.default_rng(21)
N = 90
Y = RNG.integers(0, 2, N)
S = Y * 0.8 + RNG.normal(0, 0.6, N)
P = (S > 0.4).astype(int)
F = np.arange(N) % 5
YM = RNG.integers(0, 3, N)
PM = np.where(RNG.random(N) < 0.6, YM, RNG.integers(0, 3, N))
SM = RNG.random((N, 3)) + np.eye(3)[YM] * 0.5


def test_binary_fold_table_equals_scikit_learn_per_fold():
    t = fold_table(CVPredictions(Y, folds=F, y_pred=P, y_score=S))
    assert t["fold"].tolist() == [0, 1, 2, 3, 4]
    for f in range(5):
        y, p, s = Y[f == F], P[f == F], S[f == F]
        row = t.iloc[f]
        assert row["n"] == y.size and row["positives"] == y.sum()
        assert row["precision"] == pytest.approx(precision_score(y, p), rel=1e-12)
        assert row["recall"] == pytest.approx(recall_score(y, p), rel=1e-12)
        assert row["f"] == pytest.approx(f1_score(y, p), rel=1e-12)
        assert row["accuracy"] == pytest.approx(accuracy_score(y, p), rel=1e-12)
        assert row["roc_auc"] == pytest.approx(roc_auc_score(y, s), rel=1e-12)
        assert row["average_precision"] == pytest.approx(average_precision_score(y, s), rel=1e-12)
        assert (row["tp"], row["fp"]) == (((p == 1) & (y == 1)).sum(), ((p == 1) & (y == 0)).sum())


def test_a_fold_s_0_by_0_is_nan_and_the_summary_leaves_it_out():
    y = np.array([1, 0, 0, 1, 0, 0, 1, 1, 0])
    p = np.array([1, 0, 0, 0, 0, 0, 1, 0, 0])  # fold 1 predicts no positive: precision 0/0
    f = np.repeat([0, 1, 2], 3)
    t = fold_table(CVPredictions(y, folds=f, y_pred=p))
    assert np.isnan(t.loc[1, "precision"])
    s = fold_summary(CVPredictions(y, folds=f, y_pred=p))
    defined = [precision_score(y[f == k], p[f == k]) for k in (0, 2)]
    assert s.loc["precision", "mean"] == pytest.approx(np.mean(defined))
    assert s.loc["precision", "std"] == pytest.approx(np.std(defined, ddof=1))
    assert (s.loc["precision", "folds"], s.loc["precision", "undefined"]) == (2, 1)
    recall = [recall_score(y[f == k], p[f == k]) for k in range(3)]
    assert s.loc["recall", "mean"] == pytest.approx(np.mean(recall))
    assert s.loc["recall", "std"] == pytest.approx(np.std(recall, ddof=1))


def test_multiclass_fold_table_equals_scikit_learn_macro_per_fold():
    t = fold_table(CVPredictions(YM, folds=F, y_pred=PM, y_score=SM))
    for f in range(5):
        y, p, s = YM[f == F], PM[f == F], SM[f == F]
        row = t.iloc[f]
        kw = {"labels": [0, 1, 2], "average": "macro", "zero_division": 0}
        assert row["f_macro"] == pytest.approx(f1_score(y, p, **kw), rel=1e-12)
        assert row["precision_macro"] == pytest.approx(precision_score(y, p, **kw), rel=1e-12)
        assert row["recall_macro"] == pytest.approx(recall_score(y, p, **kw), rel=1e-12)
        assert row["accuracy"] == pytest.approx(accuracy_score(y, p), rel=1e-12)
        ovr = np.mean([roc_auc_score(y == j, s[:, j]) for j in range(3)])
        assert row["roc_auc_macro_ovr"] == pytest.approx(ovr, rel=1e-12)


def test_fold_table_under_repeats_feeds_compare_cv_scores():
    rep = np.repeat([0, 1], N)
    y2, p2, f2 = np.r_[Y, Y], np.r_[P, 1 - P], np.r_[F, (F + 1) % 5]
    t = fold_table(CVPredictions(y2, folds=f2, y_pred=p2, repeats=rep))
    assert t[["repeat", "fold"]].to_numpy().tolist() == [[r, f] for r in (0, 1) for f in range(5)]
    for r in (0, 1):
        for f in range(5):
            rows = (rep == r) & (f2 == f)
            assert t.query("repeat == @r and fold == @f")["f"].item() == pytest.approx(f1_score(y2[rows], p2[rows]))
    a = t.pivot(index="repeat", columns="fold", values="f").to_numpy()
    assert a.shape == (2, 5)
    result = apples.intervals.compare_cv_scores(a, a[::-1], n_train=72, n_test=18)
    assert result is not None


@pytest.mark.parametrize("labels", [[0, 1, 2], ["x", "y", "z"]])
def test_label_table_pooled_is_classification_report(labels):
    names = np.array(labels)
    y, p = names[YM], names[PM]
    t = label_table(CVPredictions(y, folds=F, y_pred=p))
    ref = classification_report(y, p, output_dict=True, zero_division=0)
    for row in [*map(str, labels), "macro avg", "weighted avg"]:
        key = row if row in ("macro avg", "weighted avg") else labels[[str(v) for v in labels].index(row)]
        for col, skl in (("precision", "precision"), ("recall", "recall"), ("f", "f1-score"), ("support", "support")):
            assert t.loc[key, col] == pytest.approx(ref[row][skl], rel=1e-12)
    prfs = precision_recall_fscore_support(y, p, beta=2.0, zero_division=0)
    t2 = label_table(CVPredictions(y, folds=F, y_pred=p), beta=2.0)
    np.testing.assert_allclose(t2["f"].to_numpy()[:3], prfs[2], rtol=1e-12)


def test_label_table_over_folds_is_the_mean_of_each_fold_s_report():
    t = label_table(CVPredictions(YM, folds=F, y_pred=PM), over="folds")
    reports = [
        classification_report(YM[f == F], PM[f == F], output_dict=True, zero_division=0, labels=[0, 1, 2])
        for f in range(5)
    ]
    for key, row in ((0, "0"), (1, "1"), (2, "2"), ("macro avg", "macro avg"), ("weighted avg", "weighted avg")):
        for col, skl in (("precision", "precision"), ("recall", "recall"), ("f", "f1-score"), ("support", "support")):
            assert t.loc[key, col] == pytest.approx(np.mean([r[row][skl] for r in reports]), rel=1e-12)


def test_label_table_binary_lists_both_labels_and_averages_repeats():
    y, p = np.where(Y == 1, "spam", "ham"), np.where(P == 1, "spam", "ham")
    rep = np.repeat([0, 1], N)
    y2, p2 = np.r_[y, y], np.r_[p, p[::-1]]
    t = label_table(CVPredictions(y2, folds=np.r_[F, F], y_pred=p2, repeats=rep, pos_label="spam"))
    refs = [classification_report(y2[rep == r], p2[rep == r], output_dict=True) for r in (0, 1)]
    for lab in ("ham", "spam", "macro avg", "weighted avg"):
        assert t.loc[lab, "f"] == pytest.approx(np.mean([r[lab]["f1-score"] for r in refs]), rel=1e-12)
    assert t.loc["spam", "support"] == (y == "spam").sum()


def test_label_table_undefined_policies():
    y = np.array([0, 1, 2, 0, 1, 2])
    p = np.array([0, 1, 1, 0, 1, 2])  # label 2 never predicted in fold 0: its precision is 0/0 there
    f = np.array([0, 0, 0, 1, 1, 1])
    cv = CVPredictions(y, folds=f, y_pred=p)
    assert label_table(cv, over="folds").loc[2, "precision"] == 0.5  # (0 + 1) / 2
    assert np.isnan(label_table(cv, over="folds", undefined="nan").loc[2, "precision"])
    assert label_table(cv, over="folds", undefined="skip").loc[2, "precision"] == 1.0
    with pytest.raises(ValueError, match=r"undefined='skip'.*over='folds'"):
        label_table(cv, undefined="skip")
    with pytest.raises(ValueError, match="needs y_pred"):
        label_table(CVPredictions([0, 1, 0, 1], folds=[0, 0, 1, 1], y_score=[0.1, 0.9, 0.2, 0.8]))


def test_tables_of_hold_out_splits():
    """Repeated hold-out: each split is a repeat of one fold, one row each; labels pooled per split, averaged."""
    rep = F  # 5 splits
    p = CVPredictions(Y, folds=np.zeros(N, int), repeats=rep, y_pred=P)
    t = fold_table(p)
    assert t["repeat"].tolist() == [0, 1, 2, 3, 4] and t["fold"].tolist() == [0] * 5
    lt = label_table(p)
    assert lt.loc[1, "f"] == pytest.approx(np.mean([f1_score(Y[k == F], P[k == F]) for k in range(5)]), rel=1e-12)
