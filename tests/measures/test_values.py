"""Every built-in measure under every aggregation against scikit-learn (and hmeasure) computed fold by fold.

The predictions come from apples.cross_val_predictions on bundled data sets (binary with string labels whose
positive sorts first, repeated, weighted; multi-class; multi-label). Each expected value is scikit-learn's
function on the rows of a fold (the "avg" aggregations: their mean under the record's 0/0 rule) or of a whole
repeat (pooled and merged), averaged over the repeats, as apples.report documents.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from sklearn import metrics as skm

import apples
from apples.measures import MEASURES


def _w(p, idx):
    return None if p.sample_weight is None else p.sample_weight[idx]


def _mean_over_repeats(p, pooled, per_fold, policy, parts):
    """(pooled over each repeat, averaged over each repeat's folds) averaged over the repeats."""
    pooled_values, avg_values = [], []
    for rows, folds in parts(p):
        pooled_values.append(pooled(rows))
        values = np.array([per_fold(f) for f in folds], dtype=float)
        if policy == "zero":
            values = np.nan_to_num(values)
        elif policy == "skip":
            values = values[~np.isnan(values)]
        avg_values.append(values.mean())
    return float(np.mean(pooled_values)), float(np.mean(avg_values))


def _quiet(f):
    def g(*args, **kw):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return f(*args, **kw)

    return g


def _binary_expected(p, key):
    pos = p.pos_label
    t, y = p.y_true, p.y_pred

    def sk(metric, **kw):
        return _quiet(lambda idx: metric(t[idx], y[idx], sample_weight=_w(p, idx), **kw))

    if key == "precision":
        return sk(skm.precision_score, pos_label=pos, zero_division=np.nan), "zero"
    if key == "recall":
        return sk(skm.recall_score, pos_label=pos, zero_division=np.nan), "zero"
    if key == "accuracy":
        return sk(skm.accuracy_score), "skip"
    if key == "balanced_accuracy":
        return sk(skm.balanced_accuracy_score), "skip"
    if key == "mcc":
        return sk(skm.matthews_corrcoef), "zero"  # scikit-learn gives 0 where MCC is 0/0
    if key == "cohen_kappa":
        return sk(skm.cohen_kappa_score), "skip"
    raise KeyError(key)


@pytest.mark.parametrize("key", ["precision", "recall", "accuracy", "balanced_accuracy", "mcc", "cohen_kappa"])
def test_binary_count_measures_pooled_and_averaged_are_sklearns(binary, key, fold_parts):
    metric, policy = _binary_expected(binary, key)
    r = apples.report(binary, measures=[key])
    pooled, avg = _mean_over_repeats(binary, metric, metric, policy, fold_parts)
    assert r.value(key, "pooled") == pytest.approx(pooled, abs=1e-12)
    assert r.value(key, "avg") == pytest.approx(avg, abs=1e-12)


def test_binary_f_measure_five_aggregations_are_sklearns_per_fold(binary, fold_parts):
    p = binary
    pos = p.pos_label
    r = apples.report(p, measures=["f_measure"])

    def f1(idx):
        return _quiet(skm.f1_score)(
            p.y_true[idx], p.y_pred[idx], pos_label=pos, sample_weight=_w(p, idx), zero_division=0
        )

    def prf(idx):
        prec = _quiet(skm.precision_score)(
            p.y_true[idx], p.y_pred[idx], pos_label=pos, sample_weight=_w(p, idx), zero_division=np.nan
        )
        rec = _quiet(skm.recall_score)(
            p.y_true[idx], p.y_pred[idx], pos_label=pos, sample_weight=_w(p, idx), zero_division=np.nan
        )
        return prec, rec

    tp_fp, avg, pr_re, avg_skip, pr_re_skip = [], [], [], [], []
    for rows, folds in fold_parts(p):
        tp_fp.append(f1(rows))
        pr = np.array([prf(f) for f in folds])
        valid = ~np.isnan(pr).any(axis=1)  # V = 1: precision and recall defined (F&S §2.3)
        fs = np.array([f1(f) for f in folds])
        avg.append(np.mean(np.where(valid, fs, 0.0)))
        avg_skip.append(np.mean(fs[valid]))
        harmonic = lambda a, b: 0.0 if a + b == 0 else 2 * a * b / (a + b)  # noqa: E731
        zero = np.nan_to_num(pr)
        pr_re.append(harmonic(zero[:, 0].mean(), zero[:, 1].mean()))
        pr_re_skip.append(harmonic(pr[valid, 0].mean(), pr[valid, 1].mean()))
    for key, expected in (
        ("tp_fp", tp_fp),
        ("avg", avg),
        ("pr_re", pr_re),
        ("avg_skip", avg_skip),
        ("pr_re_skip", pr_re_skip),
    ):
        assert r.value("f_measure", key) == pytest.approx(np.mean(expected), abs=1e-12), key


def _multi_expected(p, key, average):
    labels = list(range(len(p.labels))) if p.task == "multilabel" else p.labels
    t, y = p.y_true, p.y_pred
    sk_average = {"macro": "macro", "micro": "micro", "lfb_test": "weighted"}[average]

    def sk(metric):
        return _quiet(
            lambda idx: metric(
                t[idx], y[idx], labels=labels, average=sk_average, sample_weight=_w(p, idx), zero_division=0
            )
        )

    if key == "precision":
        return sk(skm.precision_score)
    if key == "recall":
        return sk(skm.recall_score)
    if key == "mean_f":
        return sk(skm.f1_score)
    if key == "f_of_averages":
        prec, rec = sk(skm.precision_score), sk(skm.recall_score)

        def f(idx):
            a, b = prec(idx), rec(idx)
            return 0.0 if a + b == 0 else 2 * a * b / (a + b)

        return f
    raise KeyError(key)


@pytest.mark.parametrize("key", ["precision", "recall", "mean_f", "f_of_averages"])
@pytest.mark.parametrize("average", ["macro", "micro", "lfb_test"])
def test_label_averages_are_sklearns_multiclass_and_multilabel(multiclass, multilabel, key, average, fold_parts):
    for p in (multiclass, multilabel):
        r = apples.report(p, measures=[key])
        metric = _multi_expected(p, key, average)
        pooled, avg = _mean_over_repeats(p, metric, metric, "nan", fold_parts)
        assert r.value(key, "pooled", average=average) == pytest.approx(pooled, abs=1e-12)
        assert r.value(key, "avg", average=average) == pytest.approx(avg, abs=1e-12)


@pytest.mark.parametrize("key", ["accuracy", "balanced_accuracy", "mcc", "cohen_kappa"])
def test_multiclass_measures_of_the_whole_table_are_sklearns(multiclass, key, fold_parts):
    p = multiclass
    metric = {
        "accuracy": skm.accuracy_score,
        "balanced_accuracy": skm.balanced_accuracy_score,
        "mcc": skm.matthews_corrcoef,
        "cohen_kappa": skm.cohen_kappa_score,
    }[key]
    policy = MEASURES[key].aggregation("avg").undefined
    f = _quiet(lambda idx: metric(p.y_true[idx], p.y_pred[idx], sample_weight=_w(p, idx)))
    r = apples.report(p, measures=[key])
    pooled, avg = _mean_over_repeats(p, f, f, policy, fold_parts)
    assert r.value(key, "pooled") == pytest.approx(pooled, abs=1e-12)
    assert r.value(key, "avg") == pytest.approx(avg, abs=1e-12)


@pytest.mark.parametrize("key", ["subset_accuracy", "hamming_loss"])
def test_multilabel_subset_accuracy_and_hamming_loss_are_sklearns(multilabel, key, fold_parts):
    p = multilabel
    metric = skm.accuracy_score if key == "subset_accuracy" else skm.hamming_loss
    f = lambda idx: metric(p.y_true[idx], p.y_pred[idx])  # noqa: E731
    r = apples.report(p, measures=[key])
    pooled, avg = _mean_over_repeats(p, f, f, "skip", fold_parts)
    assert r.value(key, "pooled") == pytest.approx(pooled, abs=1e-12)
    assert r.value(key, "avg") == pytest.approx(avg, abs=1e-12)


def test_every_builtin_measure_is_in_some_report_of_the_study(studies):
    """The studies above reach every record (a record no test reaches is untested)."""
    seen = set()
    for name in ("binary", "binary_repeated", "binary_weighted", "multiclass", "multilabel"):
        seen |= set(apples.report(studies[name]).to_dict()["measures"])
    assert seen == set(MEASURES)


def test_values_lie_in_their_measures_ranges(studies):
    for name in ("binary", "binary_weighted", "multiclass", "multilabel"):
        d = apples.report(studies[name]).to_dict()
        for row in d["values"]:
            lo, hi = (float(v) for v in d["measures"][row["quantity"]]["range"])
            assert row["value"] is None or lo <= row["value"] <= hi, row
            assert not math.isnan(row["value"] if row["value"] is not None else 0.0)


def test_binary_ranking_measures_per_fold_and_merged_are_sklearns_and_hmeasures(binary, fold_parts):
    from hmeasure import h_score

    p = binary
    positive = p.y_true == p.pos_label
    r = apples.report(p, measures=["roc_auc", "average_precision", "h_measure"])
    w_all = np.ones(len(p)) if p.sample_weight is None else p.sample_weight
    severity = np.sum(w_all[positive]) / np.sum(w_all[~positive])  # π1/π0 of all the predictions (the default)
    assert r.to_dict()["measures"]["h_measure"]["options"]["severity_ratio"] == pytest.approx(severity, rel=1e-12)

    def auc(idx):
        return skm.roc_auc_score(positive[idx], p.y_score[idx], sample_weight=_w(p, idx))

    def ap(idx):
        return skm.average_precision_score(positive[idx], p.y_score[idx], sample_weight=_w(p, idx))

    expected = {"roc_auc": auc, "average_precision": ap}
    if p.sample_weight is None:  # the hmeasure package takes no weights
        expected["h_measure"] = lambda idx: h_score(positive[idx].astype(int), p.y_score[idx], severity_ratio=severity)
    for key, metric in expected.items():
        merged, avg = _mean_over_repeats(p, metric, metric, "skip", fold_parts)
        assert r.value(key, "merge") == pytest.approx(merged, abs=1e-9), key
        assert r.value(key, "avg") == pytest.approx(avg, abs=1e-9), key


def test_multiclass_macro_one_vs_rest_auc_is_sklearns(multiclass, fold_parts):
    p = multiclass
    r = apples.report(p, measures=["roc_auc"])

    def auc(idx):
        return skm.roc_auc_score(
            p.y_true[idx],
            p.y_score[idx],
            multi_class="ovr",
            average="macro",
            labels=p.labels,
            sample_weight=_w(p, idx),
        )

    merged, avg = _mean_over_repeats(p, auc, auc, "skip", fold_parts)
    assert r.value("roc_auc", "merge", average="macro_ovr") == pytest.approx(merged, abs=1e-12)
    assert r.value("roc_auc", "avg", average="macro_ovr") == pytest.approx(avg, abs=1e-12)


def test_binary_log_loss_and_brier_score_are_sklearns_and_a_zero_probability_is_infinite(binary, fold_parts):
    p = binary
    positive = (p.y_true == p.pos_label).astype(int)
    r = apples.report(p, measures=["log_loss", "brier_score"])
    for key, metric in (("log_loss", skm.log_loss), ("brier_score", skm.brier_score_loss)):
        f = lambda idx, metric=metric: metric(positive[idx], p.y_score[idx], sample_weight=_w(p, idx), labels=[0, 1])  # noqa: E731
        pooled, avg = _mean_over_repeats(p, f, f, "skip", fold_parts)
        assert r.value(key, "pooled") == pytest.approx(pooled, rel=1e-12)
        assert r.value(key, "avg") == pytest.approx(avg, rel=1e-12)
    score = p.y_score.copy()
    score[np.flatnonzero(positive)[0]] = 0.0  # a positive case given probability 0
    zero = apples.CVPredictions(
        p.y_true,
        folds=p.folds,
        repeats=p.repeats,
        y_pred=p.y_pred,
        y_score=score,
        pos_label=p.pos_label,
        sample_weight=p.sample_weight,
    )
    r0 = apples.report(zero, measures=["log_loss"])
    assert r0.value("log_loss", "pooled") == math.inf
    row = next(x for x in r0.to_dict()["values"] if x["aggregation"] == "pooled")
    assert row["value"] is None and row["infinite"] and "probability 0" in row["reason"] and "eps=" in row["reason"]
    assert "infinite" in str(r0)
    clipped = apples.report(zero, measures=["log_loss"], eps="auto")
    f = lambda idx: skm.log_loss(positive[idx], score[idx], sample_weight=_w(p, idx), labels=[0, 1])  # noqa: E731
    pooled, _ = _mean_over_repeats(zero, f, f, "skip", fold_parts)  # scikit-learn clips at the dtype's eps
    assert clipped.value("log_loss", "pooled") == pytest.approx(pooled, rel=1e-12)


def test_multiclass_log_loss_and_brier_score_are_sklearns(multiclass, fold_parts):
    p = multiclass
    r = apples.report(p, measures=["log_loss", "brier_score"])
    prob = p.y_score / p.y_score.sum(axis=1, keepdims=True)  # rows summing to 1, as the report needs
    assert np.allclose(prob, p.y_score)

    def log_loss(idx):
        return skm.log_loss(p.y_true[idx], p.y_score[idx], sample_weight=_w(p, idx), labels=p.labels)

    def brier(idx):  # the sum over the labels, Brier (1950): scikit-learn without its halving
        return skm.brier_score_loss(
            p.y_true[idx], p.y_score[idx], sample_weight=_w(p, idx), labels=p.labels, scale_by_half=False
        )

    for key, metric in (("log_loss", log_loss), ("brier_score", brier)):
        pooled, avg = _mean_over_repeats(p, metric, metric, "skip", fold_parts)
        assert r.value(key, "pooled") == pytest.approx(pooled, rel=1e-12), key
        assert r.value(key, "avg") == pytest.approx(avg, rel=1e-12), key


def test_a_multiclass_brier_score_above_one_survives_json_and_its_interval_is_not_clipped_at_one():
    y = np.array([0, 1, 2] * 20)
    prob = np.tile([[0.0, 0.5, 0.5], [0.5, 0.0, 0.5], [0.5, 0.5, 0.0]], (20, 1))  # Brier 1.5 for every case
    prob[:6] = np.eye(3)[y[:6]]  # six perfect cases: the folds differ
    p = apples.CVPredictions(y, folds=np.arange(60) % 5, y_pred=y, y_score=prob)
    r = apples.report(p, measures=["brier_score"], confidence=0.95)
    assert r.value("brier_score", "pooled") == pytest.approx((54 * 1.5) / 60)  # by hand
    ci = r.confidence_interval(0.95, quantity="brier_score", aggregation="pooled")
    assert ci.low < r.value("brier_score", "pooled") < ci.high and ci.high > 1.0
    assert apples.CVReport.from_json(r.to_json()).value("brier_score", "pooled") == r.value("brier_score", "pooled")
