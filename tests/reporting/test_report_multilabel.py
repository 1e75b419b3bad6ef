"""The multi-label report (Van Asch §5), checked against scikit-learn fold by fold and pooled, against
apples.label_counts on label sets, and against hand counts."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import apples
from apples.cv import CVPredictions

from report_view import nested

metrics = pytest.importorskip("sklearn.metrics")

LABELS = ["a", "b", "c", "d", "e"]


def _data(seed: int = 0, n: int = 120, q: int = 5, k: int = 4):
    """Random indicator data; label 'e' (the last) is absent from fold 0 and never predicted there."""
    rng = np.random.default_rng(seed)
    T = rng.random((n, q)) < 0.4
    P = np.where(rng.random((n, q)) < 0.75, T, ~T)
    folds = np.arange(n) % k
    T[folds == 0, q - 1] = False
    P[folds == 0, q - 1] = False
    S = np.where(T, 0.6, 0.4) + rng.normal(0, 0.3, (n, q))
    return T, P, S, folds


def _sk(T, P, average):
    return metrics.precision_recall_fscore_support(
        T, P, average=average, labels=list(range(T.shape[1])), zero_division=0
    )[:3]


def _f(p, r):
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


@pytest.fixture(scope="module")
def case():
    T, P, S, folds = _data()
    d = nested(apples.report(CVPredictions(T, folds=folds, y_pred=P, y_score=S, labels=LABELS)))
    return T, P, S, folds, d


def test_pooled_averages_match_sklearn(case):
    T, P, _, _, d = case
    for key, average in (("micro", "micro"), ("macro", "macro"), ("lfb_test", "weighted")):
        p, r, f = _sk(T, P, average)
        assert d["precision"][key]["pooled"] == pytest.approx(p, abs=1e-12)
        assert d["recall"][key]["pooled"] == pytest.approx(r, abs=1e-12)
        assert d["mean_f"][key]["pooled"] == pytest.approx(f, abs=1e-12)
    p, r, _ = _sk(T, P, "macro")  # the other macro-F (Van Asch eq. 3 of the macro averages)
    assert d["f_of_averages"]["macro"]["pooled"] == pytest.approx(_f(p, r), abs=1e-12)
    assert d["f_of_averages"]["micro"]["pooled"] == pytest.approx(_sk(T, P, "micro")[2], abs=1e-12)


def test_fold_averages_match_sklearn_fold_by_fold(case):
    T, P, _, folds, d = case
    ids = np.unique(folds)
    for key, average in (("micro", "micro"), ("macro", "macro"), ("lfb_test", "weighted")):
        per_fold = np.array([_sk(T[folds == f], P[folds == f], average) for f in ids])
        assert d["precision"][key]["avg"] == pytest.approx(per_fold[:, 0].mean(), abs=1e-12)
        assert d["recall"][key]["avg"] == pytest.approx(per_fold[:, 1].mean(), abs=1e-12)
        assert d["mean_f"][key]["avg"] == pytest.approx(per_fold[:, 2].mean(), abs=1e-12)
    macro = np.array([_sk(T[folds == f], P[folds == f], "macro") for f in ids])
    assert d["f_of_averages"]["macro"]["avg"] == pytest.approx(np.mean([_f(p, r) for p, r, _ in macro]), abs=1e-12)


def test_subset_accuracy_and_hamming_loss(case):
    T, P, _, folds, d = case
    ids = np.unique(folds)
    assert d["subset_accuracy"]["pooled"] == pytest.approx(metrics.accuracy_score(T, P), abs=1e-12)
    assert d["hamming_loss"]["pooled"] == pytest.approx(metrics.hamming_loss(T, P), abs=1e-12)
    acc = [metrics.accuracy_score(T[folds == f], P[folds == f]) for f in ids]
    ham = [metrics.hamming_loss(T[folds == f], P[folds == f]) for f in ids]
    assert d["subset_accuracy"]["avg"] == pytest.approx(np.mean(acc), abs=1e-12)
    assert d["hamming_loss"]["avg"] == pytest.approx(np.mean(ham), abs=1e-12)
    assert 0 < d["subset_accuracy"]["pooled"] < 1 and 0 < d["hamming_loss"]["pooled"] < 1


def test_per_label_counts_match_multilabel_confusion_matrix(case):
    T, P, _, folds, d = case
    mcm = metrics.multilabel_confusion_matrix(T, P)  # [label] = [[tn, fp], [fn, tp]]
    for j, row in enumerate(d["per_label"]):
        assert row["label"] == LABELS[j]
        assert (row["tn_cases"], row["fp"], row["fn"], row["tp"]) == tuple(mcm[j].ravel().tolist())
        assert row["support"] == int(T[:, j].sum())
    p = CVPredictions(T, folds=folds, y_pred=P, labels=LABELS)
    per_fold = p.confusion(0)
    for f in range(4):
        assert per_fold[f].tolist() == metrics.multilabel_confusion_matrix(T[folds == f], P[folds == f]).tolist()


def test_per_label_counts_match_label_counts_on_label_sets(case):
    T, P, _, folds, d = case
    gold = [[LABELS[j] for j in np.flatnonzero(row)] for row in T]
    pred = [[LABELS[j] for j in np.flatnonzero(row)] for row in P]
    expected = apples.label_counts(gold, pred, labels=LABELS, multilabel=True)
    got = {row["label"]: row for row in d["per_label"]}
    for lab, c in expected.items():
        assert (got[lab]["tp"], got[lab]["fp"], got[lab]["fn"], got[lab]["tn"]) == (c.tp, c.fp, c.fn, c.tn)
    from_sets = nested(apples.report(CVPredictions(gold, folds=folds, y_pred=pred, labels=LABELS)))
    from_table = nested(apples.report(CVPredictions(T, folds=folds, y_pred=P, labels=LABELS)))
    assert from_sets == from_table


def test_macro_roc_auc_matches_sklearn(case):
    T, _, S, folds, d = case
    assert d["roc_auc"]["macro_ovr"]["merge"] == pytest.approx(metrics.roc_auc_score(T, S, average="macro"), abs=1e-12)
    per_fold = []
    for f in np.unique(folds):
        t, s = T[folds == f], S[folds == f]
        both = [j for j in range(t.shape[1]) if 0 < t[:, j].sum() < t.shape[0]]  # 'e' has no positive in fold 0
        per_fold.append(metrics.roc_auc_score(t[:, both], s[:, both], average="macro"))
    assert d["roc_auc"]["macro_ovr"]["avg"] == pytest.approx(np.mean(per_fold), abs=1e-12)
    fold0 = d["folds"][0]
    assert fold0["absent_labels"] == ["e"]
    assert {"quantity": "roc_auc", "reason": "1 label(s) without both classes"} in fold0["undefined"]


def test_hand_counts_of_a_small_example():
    """Gold {a}, {a, b}, {}, {b}; predicted {a}, {b}, {b}, {b}; folds 0, 0, 1, 1 (counted by hand)."""
    p = CVPredictions([["a"], ["a", "b"], [], ["b"]], folds=[0, 0, 1, 1], y_pred=[["a"], ["b"], ["b"], ["b"]])
    d = nested(apples.report(p))
    # a: tp 1 (case 0), fn 1 (case 1); Van Asch tn = gold occurrences of b (2) - fp_a (0) = 2; cases without a: 2
    # b: tp 2 (cases 1, 3), fp 1 (case 2); tn = gold occurrences of a (2) - fp_b (1) = 1; cases without b: 1
    assert d["per_label"] == [
        {"label": "a", "tp": 1, "fp": 0, "fn": 1, "tn": 2, "tn_cases": 2, "support": 2},
        {"label": "b", "tp": 2, "fp": 1, "fn": 0, "tn": 1, "tn_cases": 1, "support": 2},
    ]
    assert d["subset_accuracy"] == {"pooled": 0.5, "avg": 0.5}  # cases 0 and 3 exactly right
    assert d["hamming_loss"] == {"pooled": 0.25, "avg": 0.25}  # 2 wrong decisions of 8, 1 of 4 in each fold
    # micro pooled: tp 3, fp 1, fn 1 -> P = R = 3/4
    assert d["precision"]["micro"]["pooled"] == 0.75 and d["recall"]["micro"]["pooled"] == 0.75
    # fold 0: P(a) = 1/1, P(b) = 1/1; fold 1: a absent and never predicted -> P(a) = 0 under the report's
    # policy (Van Asch §4.1), P(b) = 1/2; macro P per fold 1 and 1/4
    assert d["precision"]["macro"]["avg"] == pytest.approx((1.0 + 0.25) / 2, abs=1e-12)
    assert d["folds"][1]["absent_labels"] == ["a"]


def test_repeats_average_the_repeats_values():
    T, P, _, _ = _data(seed=1, n=60, k=3)
    rep = np.repeat([0, 1], 30)
    folds = np.tile(np.arange(30) % 3, 2)
    d = nested(apples.report(CVPredictions(T, folds=folds, y_pred=P, repeats=rep, labels=LABELS)))
    per_repeat = [metrics.hamming_loss(T[rep == r], P[rep == r]) for r in (0, 1)]
    assert d["hamming_loss"]["pooled"] == pytest.approx(np.mean(per_repeat), abs=1e-12)
    assert d["repeats"]["std"]["hamming_loss"]["pooled"] == pytest.approx(np.std(per_repeat, ddof=1), abs=1e-12)
    mcm = metrics.multilabel_confusion_matrix(T, P)
    assert [r["tp"] for r in d["per_label"]] == mcm[:, 1, 1].tolist()  # summed over repeats


def test_report_renders_and_round_trips(case):
    T, P, S, folds, _ = case
    r = apples.report(CVPredictions(T, folds=folds, y_pred=P, y_score=S, labels=["a", "b", "c", "d", "<b>e</b>"]))
    text = str(r)
    assert "multi-label" in text and "subset accuracy" in text and "Hamming loss" in text
    html = r._repr_html_()  # fold 0 names its absent label, escaped
    assert "<b>e</b>" not in html and "&lt;b&gt;e&lt;/b&gt;" in html
    assert apples.CVReport.from_json(r.to_json()).to_dict() == r.to_dict()
    frame = r.to_frame()
    assert {"subset accuracy", "Hamming loss"} <= set(frame["quantity"])


def test_train_frequencies_give_lfb_train(case):
    T, P, _, folds, _ = case
    freq = dict(zip(LABELS, [0.1, 0.2, 0.3, 0.2, 0.2], strict=True))
    d = nested(apples.report(CVPredictions(T, folds=folds, y_pred=P, labels=LABELS), train_frequencies=freq))
    mcm = metrics.multilabel_confusion_matrix(T, P)
    tp, fp = mcm[:, 1, 1], mcm[:, 0, 1]
    expected = math.fsum(w * t / (t + f) for w, t, f in zip(freq.values(), tp, fp, strict=True))
    assert d["precision"]["lfb_train"]["pooled"] == pytest.approx(expected, abs=1e-12)


def test_multilabel_values_get_intervals_that_hold_them(case):
    T, P, _, folds, _ = case
    d = nested(apples.report(CVPredictions(T, folds=folds, y_pred=P), confidence=0.95))
    for average in ("macro", "micro"):
        ci = d["intervals"]["mean_f"][average]["pooled"]
        assert ci["low"] <= d["mean_f"][average]["pooled"] <= ci["high"]
        assert ci["method"] == "jackknife_corrected_t"
    assert d["intervals"]["hamming_loss"]["avg"]["method"] == "corrected_t"


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 4))
def test_label_sets_and_indicators_agree(seed, k):
    """One data set in both forms gives one report (identity over random data)."""
    T, P, _, folds = _data(seed=seed, n=24, q=3, k=k)
    names = ["x", "y", "z"]
    sets_t = [{names[j] for j in np.flatnonzero(r)} for r in T]
    sets_p = [tuple(names[j] for j in np.flatnonzero(r)) for r in P]
    a = nested(apples.report(CVPredictions(sets_t, folds=folds, y_pred=sets_p, labels=names)))
    b = nested(apples.report(CVPredictions(T.astype(int), folds=folds, y_pred=P, labels=names)))
    assert a == b
    assert a["hamming_loss"]["pooled"] == pytest.approx(metrics.hamming_loss(T, P), abs=1e-12)
