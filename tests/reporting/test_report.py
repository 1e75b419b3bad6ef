"""apples.report: every number equals the individual functions' and scikit-learn's where definitions coincide.

Random binary, multi-class and repeated data; expected values come from scikit-learn (precision_score,
recall_score, f1_score, accuracy_score, roc_auc_score, average_precision_score, multilabel_confusion_matrix),
from apples' own single-purpose functions (cv_f_measure, average_scores) and from hand calculations.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import (
    accuracy_score,
    average_precision_score,
    f1_score,
    multilabel_confusion_matrix,
    precision_score,
    recall_score,
    roc_auc_score,
)

import apples

from report_view import nested


def _binary_data(seed: int, n: int = 600, k: int = 5, prior: float = 0.2):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < prior).astype(int)
    s = np.round(rng.standard_normal(n) + 1.2 * y, 1)  # rounded: ties within and across folds
    p = (s > 0.9).astype(int)
    f = rng.integers(0, k, n)
    return y, p, s, f


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_binary_numbers_equal_scikit_learn_and_cv_functions(seed):
    y, p, s, f = _binary_data(seed)
    d = nested(apples.report(apples.CVPredictions(y, y_pred=p, y_score=s, folds=f)))
    folds = apples.fold_counts(y, p, folds=f)
    assert d["task"] == "binary" and d["n"] == y.size and d["n_folds"] == 5 and d["pos_label"] == 1
    for key, a in apples.F_AGGREGATIONS.items():
        expected = apples.cv_f_measure(folds, method=a.method, undefined=a.undefined)
        assert d["f_measure"][key] == pytest.approx(expected, rel=1e-12)
    assert d["f_measure"]["tp_fp"] == pytest.approx(f1_score(y, p), rel=1e-12)
    masks = [f == k for k in range(5)]
    for name, fn in (("precision", precision_score), ("recall", recall_score), ("accuracy", accuracy_score)):
        assert d[name]["pooled"] == pytest.approx(fn(y, p), rel=1e-12)
        per_fold = [fn(y[m], p[m], **({} if name == "accuracy" else {"zero_division": 0})) for m in masks]
        assert d[name]["avg"] == pytest.approx(np.mean(per_fold), rel=1e-12)
    assert d["roc_auc"]["merge"] == pytest.approx(roc_auc_score(y, s), rel=1e-12)
    assert d["roc_auc"]["avg"] == pytest.approx(np.mean([roc_auc_score(y[m], s[m]) for m in masks]), rel=1e-12)
    assert d["roc_auc"]["avg"] == pytest.approx(apples.cv_roc_auc(y, s, folds=f, method="avg"), rel=1e-12)
    assert d["average_precision"]["merge"] == pytest.approx(average_precision_score(y, s), rel=1e-12)
    assert d["average_precision"]["avg"] == pytest.approx(
        np.mean([average_precision_score(y[m], s[m]) for m in masks]), rel=1e-12
    )
    assert [fo["n"] for fo in d["folds"]] == np.bincount(f).tolist()
    assert [fo["positives"] for fo in d["folds"]] == np.bincount(f[y == 1], minlength=5).tolist()
    assert [fo["fold"] for fo in d["folds"]] == [0, 1, 2, 3, 4]


def test_pr_re_is_f_of_the_averaged_precision_and_recall():
    y, p, _s, f = _binary_data(3)
    d = nested(apples.report(apples.CVPredictions(y, y_pred=p, folds=f)))
    pr, re = d["precision"]["avg"], d["recall"]["avg"]
    assert d["f_measure"]["pr_re"] == pytest.approx(2 * pr * re / (pr + re), rel=1e-12)


def test_forman_scholz_table1_values_and_warning():
    """Table 1 of Forman & Scholz: F_tp,fp 58%, F_avg 69%, F_pr,re 73% (rounded in the paper)."""
    rows = [(373, 3, 3, 0), (372, 4, 4, 1), (372, 4, 4, 13), (372, 4, 3, 5)]
    y, p, f = [], [], []
    for i, (neg, pos, tp, fp) in enumerate(rows):
        y += [1] * pos + [0] * neg
        p += [1] * tp + [0] * (pos - tp) + [1] * fp + [0] * (neg - fp)
        f += [i] * (pos + neg)
    d = nested(apples.report(apples.CVPredictions(y, y_pred=p, folds=f)))
    assert [round(100 * d["f_measure"][m]) for m in ("tp_fp", "avg", "pr_re")] == [58, 69, 73]
    assert "roc_auc" not in d  # no scores given: not computed, so absent (null would mean 0/0)
    assert any(w.startswith("F-measure: the aggregations differ by") for w in d["warnings"])
    assert d["recommended"] == {
        "f_measure": "tp_fp",
        **dict.fromkeys(("precision", "recall", "accuracy", "balanced_accuracy", "mcc", "cohen_kappa"), "pooled"),
    }
    assert not any("AUC" in note for note in d["notes"])


def test_a_fold_with_one_class_is_reported_not_fatal():
    y = [1, 0, 1, 0, 0, 0, 0, 1, 0, 1]
    p = [1, 0, 0, 1, 0, 0, 0, 1, 1, 1]
    s = [0.9, 0.2, 0.4, 0.6, 0.1, 0.3, 0.5, 0.8, 0.7, 0.6]
    f = [0, 0, 0, 0, 1, 1, 1, 2, 2, 2]
    d = nested(apples.report(apples.CVPredictions(y, y_pred=p, y_score=s, folds=f)))
    fold1 = d["folds"][1]
    assert fold1["positives"] == 0
    assert {u["quantity"] for u in fold1["undefined"]} == {
        "precision",
        "recall",
        "f_measure",
        "mcc",  # every case of the fold is a negative predicted negative: MCC and kappa are 0/0
        "cohen_kappa",
        "roc_auc",
        "average_precision",
        "h_measure",
    }
    # AUC_avg is the mean over the two folds where it is defined (skip policy), by hand:
    # fold 0: positives 0.9, 0.4 vs negatives 0.2, 0.6 -> pairs won 1 + 1 + 1 + 0 = 3/4;
    # fold 2: 1.0 (0.8, 0.6 vs 0.7: 1/2)
    assert d["roc_auc"]["avg"] == pytest.approx((3 / 4 + 1 / 2) / 2, rel=1e-12)
    yf = [np.array(y)[np.array(f) == k] for k in (0, 2)]
    sf = [np.array(s)[np.array(f) == k] for k in (0, 2)]
    assert d["roc_auc"]["avg"] == pytest.approx(
        np.mean([roc_auc_score(a, b) for a, b in zip(yf, sf, strict=True)]), rel=1e-12
    )
    assert d["f_measure"]["avg_skip"] == pytest.approx(
        apples.cv_f_measure(apples.fold_counts(y, p, folds=f), method="avg", undefined="skip"), rel=1e-12
    )
    # fold 2 predicts every case positive: its MCC is 0/0 too (Matthews: a constant prediction)
    assert [u["quantity"] for u in d["folds"][2]["undefined"]] == ["mcc"]
    assert any("2 of 3 folds have an undefined" in w for w in d["warnings"]), d["warnings"]


def _multiclass_data(seed: int, n: int = 900, q: int = 4, k: int = 5):
    rng = np.random.default_rng(seed)
    y = rng.choice(q, size=n, p=[0.5, 0.3, 0.15, 0.05][:q])
    p = np.where(rng.random(n) < 0.6, y, rng.integers(0, q, n))
    scores = rng.random((n, q)) + np.eye(q)[y] * 0.5
    scores /= scores.sum(axis=1, keepdims=True)  # probabilities: scikit-learn's multi-class AUC wants them
    f = rng.integers(0, k, n)
    return y, p, scores, f


@pytest.mark.parametrize("seed", [0, 1])
def test_multiclass_numbers_equal_scikit_learn(seed):
    y, p, sc, f = _multiclass_data(seed)
    labels = [0, 1, 2, 3]
    d = nested(apples.report(apples.CVPredictions(y, y_pred=p, y_score=sc, folds=f)))
    assert d["task"] == "multiclass" and d["labels"] == labels
    sk = {"macro": "macro", "micro": "micro", "lfb_test": "weighted"}
    masks = [f == k for k in range(5)]
    for ours, theirs in sk.items():
        kw = {"labels": labels, "average": theirs, "zero_division": 0}
        for section, fn in (("precision", precision_score), ("recall", recall_score), ("mean_f", f1_score)):
            assert d[section][ours]["pooled"] == pytest.approx(fn(y, p, **kw), rel=1e-12), (section, ours)
            per_fold = [fn(y[m], p[m], **kw) for m in masks]
            assert d[section][ours]["avg"] == pytest.approx(np.mean(per_fold), rel=1e-12), (section, ours)
    pr, re = d["precision"]["macro"]["pooled"], d["recall"]["macro"]["pooled"]
    assert d["f_of_averages"]["macro"]["pooled"] == pytest.approx(2 * pr * re / (pr + re), rel=1e-12)
    assert d["accuracy"]["pooled"] == pytest.approx(accuracy_score(y, p), rel=1e-12)
    mcm = multilabel_confusion_matrix(y, p, labels=labels)
    for row, m in zip(d["per_label"], mcm, strict=True):
        assert [row["tn"], row["fp"], row["fn"], row["tp"]] == m.ravel().tolist()
    per_fold_auc = [roc_auc_score(y[m], sc[m], multi_class="ovr", average="macro", labels=labels) for m in masks]
    assert d["roc_auc"]["macro_ovr"]["avg"] == pytest.approx(np.mean(per_fold_auc), rel=1e-12)
    merged = np.mean([roc_auc_score(y == j, sc[:, j]) for j in labels])
    assert d["roc_auc"]["macro_ovr"]["merge"] == pytest.approx(merged, rel=1e-12)


def test_multiclass_lfb_train_and_label_set():
    y, p, _, f = _multiclass_data(2)
    train = {0: 0.4, 1: 0.3, 2: 0.2, 3: 0.05, 4: 0.05}
    labels = [0, 1, 2, 3, 4]  # label 4 never occurs: it belongs to the label set, with zeros
    d = nested(apples.report(apples.CVPredictions(y, y_pred=p, folds=f, labels=labels), train_frequencies=train))
    pooled = apples.label_counts(y, p, labels=labels)
    for section, i in (("precision", 0), ("recall", 1), ("f_of_averages", 2), ("mean_f", 3)):
        for key, avg, freq in (("macro", "macro", None), ("lfb_train", "lfb", train)):
            expected = apples.average_scores(pooled, average=avg, frequencies=freq)[i]
            assert d[section][key]["pooled"] == pytest.approx(expected, rel=1e-12)
    assert d["per_label"][4]["support"] == 0
    assert all(4 in fo["absent_labels"] for fo in d["folds"])


def test_repeated_cv_mean_and_spread_across_repeats():
    y, p, s, f = _binary_data(4, n=400)
    y2, p2, s2, f2 = _binary_data(5, n=400)
    Y, P, S, F = (np.concatenate(pair) for pair in ((y, y2), (p, p2), (s, s2), (f, f2)))
    rep = np.repeat(["r1", "r2"], 400)
    d = nested(apples.report(apples.CVPredictions(Y, y_pred=P, y_score=S, folds=F, repeats=rep)))
    one, two = (
        nested(apples.report(apples.CVPredictions(a, y_pred=b, y_score=c, folds=e)))
        for a, b, c, e in ((y, p, s, f), (y2, p2, s2, f2))
    )
    assert d["repeats"]["n_repeats"] == 2 and d["repeats"]["ids"] == ["r1", "r2"]
    for sec, agg in (
        ("f_measure", "tp_fp"),
        ("f_measure", "avg"),
        ("roc_auc", "avg"),
        ("roc_auc", "merge"),
        ("precision", "pooled"),
        ("average_precision", "avg"),
    ):
        a, b = one[sec][agg], two[sec][agg]
        assert d["repeats"]["per_repeat"][0][sec][agg] == pytest.approx(a, rel=1e-12)
        assert d[sec][agg] == pytest.approx((a + b) / 2, rel=1e-12)
        assert d["repeats"]["std"][sec][agg] == pytest.approx(abs(a - b) / math.sqrt(2), rel=1e-9)
    assert len(d["folds"]) == 10 and d["folds"][5]["repeat"] == "r2"
    frame = apples.report(apples.CVPredictions(Y, y_pred=P, folds=F, repeats=rep)).to_frame()
    assert "std" in frame.columns


def test_json_round_trip_and_null_for_undefined():
    y = [1, 0, 0, 0, 0, 0]
    p = [0, 0, 0, 0, 0, 0]
    f = [0, 0, 0, 1, 1, 1]
    r = apples.report(apples.CVPredictions(y, y_pred=p, folds=f))
    d = json.loads(r.to_json())
    assert d == r.to_dict() and d["layout"] == 2
    assert r.value("precision", "pooled") is None  # no positive predictions at all: 0/0
    assert r.value("f_measure", "avg_skip") is None  # every fold undefined
    assert "NaN" not in r.to_json()
    assert apples.CVReport.from_json(r.to_json()) == r
    keys = {"layout", "task", "n", "n_folds", "pos_label", "measures", "values", "folds", "warnings"}
    assert keys <= set(d)
    assert not {"roc_auc", "average_precision"} & set(d["measures"])  # no scores: not computed, so absent
    assert [row["aggregation"] for row in d["values"] if row["quantity"] == "f_measure"] == [
        "tp_fp", "avg", "pr_re", "avg_skip", "pr_re_skip"
    ]  # fmt: skip
    assert set(d["folds"][0]) == {"fold", "n", "positives", "undefined"}
    y, p, _, f = _multiclass_data(0, n=200)
    m = nested(apples.report(apples.CVPredictions(y, y_pred=p, folds=f)))
    assert set(m["precision"]) == {"macro", "micro", "lfb_test"}
    assert set(m["mean_f"]["macro"]) == {"pooled", "avg"}
    assert json.loads(json.dumps(m)) == m


def _full_reports():
    """A report of each layout: binary with repeats and intervals, multi-class with lfb_train and intervals."""
    y, p, s, f = _binary_data(6)
    rep = np.arange(len(y)) % 2
    binary = apples.report(
        apples.CVPredictions(
            np.r_[y, y],
            y_pred=np.r_[p, p],
            y_score=np.r_[s, s[::-1]],
            folds=np.r_[f, f],
            repeats=np.r_[rep * 0, rep * 0 + 1],
        ),
        confidence=0.9,
    )
    ym, pm, _, fm = _multiclass_data(0, n=60)
    labels = sorted(set(ym))
    multi = apples.report(
        apples.CVPredictions(ym, y_pred=pm, folds=fm, labels=labels),
        confidence=0.9,
        train_frequencies={lab: 1 / len(labels) for lab in labels},
    )
    return binary, multi


def _paths(node, path=()):
    """Every key path of a nested dict (lists included by index)."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in items:
        yield (*path, key)
        yield from _paths(child, (*path, key))


def test_what_to_json_writes_from_json_reads_back_in_every_layout():
    for r in _full_reports():
        assert apples.CVReport.from_json(r.to_json()) == r
        assert apples.CVReport.from_json(r.to_json(indent=None).encode()) == r
        assert apples.CVReport(r.to_dict()) == r


def test_a_report_dict_missing_anything_is_refused_naming_it_or_still_renders():
    # before: str(CVReport({"task": "binary"})) raised KeyError: 'f_measure' inside the renderer
    with pytest.raises(ValueError, match=r"^data is not in layout 2"):
        str(apples.CVReport({"task": "binary"}))
    with pytest.raises(ValueError, match=r"^text lacks \['n', 'n_folds'"):
        apples.CVReport.from_json('{"layout": 2, "task": "binary"}').to_frame()
    # every entry taken out, one at a time: a clear error, or (an interval, a note) a report that renders
    for r in _full_reports():
        full = r.to_dict()
        for path in _paths(full):
            d = json.loads(json.dumps(full))
            node = d
            for key in path[:-1]:
                node = node[key]
            del node[path[-1]]
            try:
                out = apples.CVReport(d)
            except (ValueError, TypeError) as err:
                assert str(err).startswith("data"), err
                continue
            str(out), out._repr_html_(), out.to_markdown(), out.to_frame(), repr(out)


def _f_row(d):
    return next(r for r in d["values"] if r["quantity"] == "f_measure" and r["aggregation"] == "tp_fp")


@pytest.mark.parametrize(
    "change, exc, match",
    [
        (lambda d: _f_row(d).update(value=float("nan")), ValueError, r"^data\['values'\]\[0\]\['value'\] is nan"),
        (lambda d: _f_row(d).update(value="0.5"), TypeError, r"^data\['values'\]\[0\]\['value'\] must be a number"),
        (lambda d: _f_row(d).update(value=True), TypeError, r"^data\['values'\]\[0\]\['value'\] must be a number"),
        (lambda d: _f_row(d).update(value=1.5), ValueError, r"^data\['values'\]\[0\]\['value'\] is 1.5, outside"),
        (lambda d: _f_row(d).update(quantity="f2"), ValueError, r"not among the report's measures"),
        (lambda d: _f_row(d).update(aggregation="median"), ValueError, r"aggregation'\] is 'median'"),
        (lambda d: d.update(n=-1), ValueError, r"^data\['n'\] must be a non-negative integer"),
        (lambda d: d["folds"][0].update(n="3"), ValueError, r"^data\['folds'\]\[0\]\['n'\]"),
        (lambda d: d.update(warnings="none"), TypeError, r"^data\['warnings'\] must be a list"),
        (lambda d: d.update(pos_label=[1]), TypeError, r"^data\['pos_label'\] must be a label"),
        (lambda d: d["measures"]["mcc"].update(range=[1, -1]), ValueError, r"range'\] must have low < high"),
        (lambda d: d.update(layout=1), ValueError, r"^data is not in layout 2"),
    ],
)
def test_a_report_dict_with_a_wrong_value_is_refused_naming_the_entry(change, exc, match):
    d = apples.report(
        apples.CVPredictions([1, 0, 1, 0, 1, 0], y_pred=[1, 0, 0, 0, 1, 1], folds=[0, 0, 0, 1, 1, 1])
    ).to_dict()
    change(d)
    with pytest.raises(exc, match=match):
        apples.CVReport(d)


def test_from_json_refuses_nan_which_to_json_never_writes():
    r = apples.report(apples.CVPredictions([1, 0, 1, 0, 1, 0], y_pred=[0] * 6, folds=[0, 0, 0, 1, 1, 1]))
    text = r.to_json()
    assert "NaN" not in text and '"value": null' in text  # no positive prediction: precision is 0/0, written null
    # before: from_json accepted NaN and the CVReport constructor then failed inside the json module
    for word in ("NaN", "Infinity", "-Infinity"):
        with pytest.raises(ValueError, match=f"^text holds {word}, which CVReport.to_json\\(\\) never writes"):
            apples.CVReport.from_json(text.replace('"value": null', f'"value": {word}', 1))
    with pytest.raises(ValueError, match=r"^text is not the JSON"):
        apples.CVReport.from_json(b"\xff\xfe")


HOSTILE = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(2)>",
    "[x](javascript:alert(3))",
    "a | b",
    "`code`",
    "**bold**",
]


def _hostile_reports():
    """Reports whose labels, fold ids, repeat ids and positive label are HTML, Markdown links and pipes."""
    y = np.array([HOSTILE[0], HOSTILE[1]] * 6)
    p = np.where(np.arange(12) % 5 == 0, y[::-1], y)
    folds = np.array([HOSTILE[2], HOSTILE[3]] * 6)
    repeats = np.repeat([HOSTILE[4], HOSTILE[5]], 6)
    binary = apples.report(apples.CVPredictions(y, y_pred=p, folds=folds, repeats=repeats, pos_label=HOSTILE[0]))
    ym = np.array(HOSTILE[:3] * 4)
    pm = np.array(HOSTILE[:4] * 3)  # a fourth label, predicted only: it is absent from every fold
    multi = apples.report(apples.CVPredictions(ym, y_pred=pm, folds=np.repeat(HOSTILE[3:5], 6)))
    return binary, multi


def test_markdown_and_html_keep_user_text_inert():
    from markdown_it import MarkdownIt  # CommonMark with raw HTML on, as most Markdown viewers render it

    for r, shown in zip(
        _hostile_reports(), ("&lt;script&gt;alert(1)&lt;/script&gt;", "absent labels a | b"), strict=True
    ):
        md = r.to_markdown()
        rendered = MarkdownIt("commonmark").enable("table").render(md)
        # before: the labels went into the Markdown as raw HTML and became a <script> and an <img onerror>
        for active in ("<script", "<img", 'href="javascript', "<code>", "<strong>bold"):
            assert active not in rendered, (active, md)
            assert active not in r._repr_html_()
        assert shown in rendered  # shown as text, not dropped
        # the table keeps its columns: no cell split by a user's "|"
        table = [line for line in md.splitlines() if line.startswith("|")]
        assert len({line.replace("\\|", "").count("|") for line in table}) == 1


def test_scores_that_rank_the_predicted_positives_last_are_warned_about():
    y = [1, 1, 0, 0, 1, 0, 1, 0]
    pred = [1, 1, 0, 0, 1, 0, 0, 1]
    f = [0, 0, 0, 0, 1, 1, 1, 1]
    good = [0.9, 0.8, 0.2, 0.1, 0.7, 0.3, 0.4, 0.6]  # ranks the predicted positives first (by hand: AUC 1)
    assert roc_auc_score(pred, good) == 1.0
    d = nested(apples.report(apples.CVPredictions(y, y_pred=pred, y_score=good, folds=f)))
    assert not any("scores rank" in w for w in d["warnings"])
    flipped = [1 - v for v in good]
    d = nested(apples.report(apples.CVPredictions(y, y_pred=pred, y_score=flipped, folds=f)))
    assert d["roc_auc"]["merge"] == pytest.approx(roc_auc_score(y, flipped), rel=1e-12)
    assert roc_auc_score(y, flipped) < 0.5
    assert d["warnings"][0].startswith(
        "the scores rank the cases predicted negative above those predicted "
        "positive (their ROC AUC for the predicted labels is 0.0%)"
    )
    assert d["warnings"][1].startswith("ROC AUC below 50% (avg ")
    # the same in every rendering, the CLI's included (it prints str(report))
    r = apples.report(apples.CVPredictions(y, y_pred=pred, y_score=flipped, folds=f))
    for out in (str(r), r._repr_html_(), r.to_markdown(), r.to_json()):
        assert "predicted negative above those predicted positive" in out
    # one predicted class only: no direction to read; an AUC of exactly 50% is not below it
    d = nested(apples.report(apples.CVPredictions(y, y_pred=[1] * 8, y_score=[0.5] * 8, folds=f)))
    assert d["roc_auc"]["merge"] == 0.5 and not any("scores rank" in w or "below 50%" in w for w in d["warnings"])


def test_a_multiclass_auc_below_half_suggests_score_columns_out_of_label_order():
    y, p, s, f = _multiclass_data(3, n=300)
    d = nested(apples.report(apples.CVPredictions(y, y_pred=p, y_score=s, folds=f)))
    assert not any("below 50%" in w for w in d["warnings"])
    flipped = s[:, ::-1]  # columns in reverse label order
    d = nested(apples.report(apples.CVPredictions(y, y_pred=p, y_score=flipped, folds=f)))
    merged = roc_auc_score(y, flipped / flipped.sum(axis=1, keepdims=True), multi_class="ovr")
    assert merged < 0.5 and d["roc_auc"]["macro_ovr"]["merge"] == pytest.approx(merged, rel=1e-9)
    assert any(w.startswith("ROC AUC below 50%") and "label order" in w for w in d["warnings"])


def test_renderings_show_the_same_numbers():
    y, p, s, f = _binary_data(6)
    r = apples.report(apples.CVPredictions(y, y_pred=p, y_score=s, folds=f))
    tp_fp = f"{100 * r.value('f_measure', 'tp_fp'):.1f}%"
    text, html, md = str(r), r._repr_html_(), r.to_markdown()
    for out in (text, html, md):
        assert tp_fp in out and "F_tp,fp" in out
    assert html.startswith("<div") and "<table>" in html
    assert any(line.startswith("| quantity") for line in md.splitlines())
    frame = r.to_frame(readable=False)
    assert list(frame.columns) == ["quantity", "average", "aggregation", "value"]
    row = frame[(frame.quantity == "roc_auc") & (frame.aggregation == "merge")]
    assert row["value"].iloc[0] == pytest.approx(roc_auc_score(y, s), rel=1e-12)
    # F (5), precision, recall, accuracy, balanced accuracy, MCC, kappa (2 each), AUC, AP, H (2 each)
    assert isinstance(frame, pd.DataFrame) and len(frame) == 5 + 6 * 2 + 3 * 2


def test_string_labels_need_pos_label_and_follow_it():
    y = np.array(["spam", "ham", "spam", "ham", "ham", "spam"])
    p = np.array(["spam", "ham", "ham", "ham", "spam", "spam"])
    f = [0, 0, 0, 1, 1, 1]
    with pytest.raises(ValueError, match="pos_label must be given"):
        apples.report(apples.CVPredictions(y, y_pred=p, folds=f))
    d = nested(apples.report(apples.CVPredictions(y, y_pred=p, folds=f, pos_label="spam")))
    assert d["f_measure"]["tp_fp"] == pytest.approx(f1_score(y, p, pos_label="spam"), rel=1e-12)
    d = nested(apples.report(apples.CVPredictions(y, y_pred=p, folds=f, pos_label="ham")))
    assert d["f_measure"]["tp_fp"] == pytest.approx(f1_score(y, p, pos_label="ham"), rel=1e-12)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"folds": [0, 0, 0, 0]}, "single fold"),
        ({"y_pred": None}, "y_pred.*y_score"),
        ({"pos_label": 7}, "pos_label"),
        ({"y_score": [[0.1, 0.2]] * 4, "labels": [0, 1, 2], "y_pred": [0, 1, 2, 0]}, "y_score"),
        ({"labels": [0, 1, 2], "pos_label": 1}, "pos_label is for binary"),
        ({"y_true": [0, 1, 2, 0], "y_pred": None, "y_score": [0.1, 0.2, 0.3, 0.4]}, "multi-class"),
        ({"train_frequencies": {0: 0.5, 1: 0.5}}, "train_frequencies"),
        ({"labels": [0, 1], "train_frequencies": {0: 0.5}}, "train_frequencies"),
        ({"labels": [0]}, "not in labels"),
        ({"y_pred": None, "y_score": [[0.5, 0.5]] * 4, "labels": [0, 1]}, "a multi-class report needs y_pred"),
        ({"repeats": [0, 0, 0, 1]}, "single fold.*repeat.*other repeats hold several"),
        ({"cases": [0, 1, 0, 2]}, "case 0 has 2 rows"),
        ({"cases": [0, 1, 2, 3], "n_cases": 3}, "n_cases=3 is below"),
    ],
)
def test_bad_input_names_the_problem(kwargs, match):
    base = {"y_true": [1, 0, 1, 0], "y_pred": [1, 0, 0, 0], "folds": [0, 0, 1, 1]}
    given = {**base, **kwargs}
    options = {k: given.pop(k) for k in ("train_frequencies",) if k in given}
    with pytest.raises(ValueError, match=match):
        apples.report(apples.CVPredictions(**given), **options)


# The numbers notebook 10 quotes are recomputed in tests/reporting/test_notebook_10_numbers.py.


def test_a_report_of_thousands_of_labels_prints_a_readable_folds_section_and_keeps_all_in_json():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3000, 6000)
    pred = np.where(rng.random(6000) < 0.7, y, rng.integers(0, 3000, 6000))
    p = apples.CVPredictions(y, folds=np.arange(6000) % 3, y_pred=pred)
    r = apples.report(p, measures=["precision"])
    for text in (str(r), r.to_markdown()):
        (fold0_line,) = [line for line in text.splitlines() if "fold 0:" in line]
        assert len(fold0_line) < 2000 and "in all)" in fold0_line and "every one in the JSON" in fold0_line
    fold0 = r.to_dict()["folds"][0]
    absent = set(np.union1d(y, pred).tolist()) - set(y[np.arange(6000) % 3 == 0].tolist())
    assert set(fold0["absent_labels"]) == absent  # every one, by hand
