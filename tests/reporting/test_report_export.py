"""apples.report for a paper (issue 21 items 5, 8, 10): the header, the Folds summary, the marks and their
legend, interval caveats, to_frame and to_latex.

Expected values: scikit-learn (precision_score, f1_score, roc_auc_score) and hand counts of the data.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from sklearn.metrics import f1_score, precision_score, roc_auc_score

import apples

from report_view import nested


def _data(seed: int = 0, n: int = 200, k: int = 10):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    s = rng.random(n) * 0.7 + 0.3 * y
    return y, (s > 0.5).astype(int), s, np.arange(n) % k


def test_repeats_header_counts_cases_folds_per_repeat_and_repeats_and_folds_are_summarised():
    y, p, s, f = _data(n=569)
    r = 5
    rng = np.random.default_rng(1)
    folds = np.concatenate([rng.permutation(f) for _ in range(r)])
    rep = apples.report(
        apples.CVPredictions(
            np.tile(y, r),
            folds=folds,
            repeats=np.repeat(np.arange(r), y.size),
            y_pred=np.tile(p, r),
            y_score=np.tile(s, r),
        )
    )
    text = str(rep)
    first = text.splitlines()[0]
    assert "569 cases, 10 folds per repeat, 5 repeats" in first and "2,845 predictions" in first
    assert "n = 2845" not in text
    folds_section = text.split("Folds:\n")[1].split("\n\n")[0].splitlines()
    assert len(folds_section) == r  # one line per repeat, not 50
    sizes = np.bincount(folds[:569])
    assert folds_section[0].startswith(f"  repeat 0: 10 folds of {sizes.min()}-{sizes.max()} cases")


def test_undefined_folds_are_listed_by_id_in_the_summary():
    y, p, _s, f = _data(n=40, k=20)
    p = p.copy()
    p[f == 3] = 0  # fold 3 predicts no positive: its precision is 0/0
    text = str(apples.report(apples.CVPredictions(y, folds=f, y_pred=p)))
    line = text.split("Folds:\n")[1].splitlines()[0]
    undefined = [i for i in range(20) if p[f == i].sum() == 0]
    assert "precision undefined in fold" in line
    assert all(re.search(rf"\b{i}\b", line.split("precision undefined in")[1]) for i in undefined[:10])


def test_header_states_stratification_seed_and_policy():
    y, p, _s, f = _data()
    text = str(apples.report(apples.CVPredictions(y, folds=f, y_pred=p), stratified=True, cv_seed=42))
    assert "stratified folds; split seed 42" in text
    rules = text.split("0/0 rules:\n")[1].split("\n\n")[0]
    assert "F-measure: F_avg and F_pr,re count a fold whose precision or recall is 0/0 as 0" in rules
    assert "MCC: MCC is 0/0 in a fold" in rules  # every measure of the report states its rule
    plain = str(apples.report(apples.CVPredictions(y, folds=f, y_pred=p)))
    assert "stratification not stated; split seed not stated" in plain


def test_rows_that_substituted_a_zero_are_marked_and_the_legend_only_promises_marks_rows_have():
    y, p, _s, f = _data()
    clean = apples.report(apples.CVPredictions(y, folds=f, y_pred=p))
    assert "\u2020" not in str(clean)  # every fold defined: no mark, no legend line for it
    p = p.copy()
    p[f == 2] = 0
    r = apples.report(apples.CVPredictions(y, folds=f, y_pred=p))
    marked = [line for line in str(r).splitlines() if "\u2020" in line]
    assert any(line.startswith("precision") and "averaged" in line for line in marked)
    assert any("F_avg" in line for line in marked) and not any("F_tp,fp" in line for line in marked)
    assert marked[-1].startswith("\u2020 an undefined fold")
    # a report without recommended rows has no star in its legend
    few = str(apples.report(apples.CVPredictions(y, folds=f, y_pred=p), measures=["f_measure"]).to_markdown())
    assert "what the papers support" in few
    rng = np.random.default_rng(2)
    ym = rng.integers(0, 3, 60)
    from apples.measures import from_counts

    plain = from_counts("tp_share", lambda tp, fp, fn, tn: tp / (tp + fp + fn + tn))
    multi = str(apples.report(apples.CVPredictions(ym, folds=np.arange(60) % 3, y_pred=ym), measures=[plain]))
    assert "what the papers support" not in multi and " *" not in multi


def test_markdown_warnings_are_words_not_python():
    y, p, s, f = _data()
    p = p.copy()
    p[f == 2] = 0
    md = apples.report(apples.CVPredictions(y, folds=f, y_pred=p, y_score=s)).to_markdown()
    warnings = md.split("Warnings:")[1]
    for syntax in ("roc_auc", "f_measure", "average_precision", "[", "]", "pos_label=", "(...)"):
        assert syntax not in warnings, syntax


def test_an_average_of_folds_that_are_all_undefined_has_no_interval_and_says_why():
    y, _p, _s, f = _data()
    r = apples.report(apples.CVPredictions(y, folds=f, y_pred=np.zeros_like(y)), confidence=0.95)
    d = nested(r)
    assert d["precision"]["avg"] == 0.0  # the substituted zeros, marked
    ci = d["intervals"]["precision"]["avg"]
    assert ci["low"] is None and "every fold" in ci["reason"]
    assert "0.0 to 0.0%" not in [line for line in str(r).splitlines() if line.startswith("precision")][1]
    # every null interval gives its reason
    for section in ("f_measure", "precision", "recall", "accuracy"):
        for ci in d["intervals"][section].values():
            assert ci["low"] is not None or ci["reason"]


def test_leave_one_out_intervals_are_the_jackknife_and_the_averages_of_one_case_folds_say_why():
    """Leave-one-out: pooled values get the delta-method-like jackknife interval (the corrected t over the n
    pseudo-values, factor 1/n + 1/(n − 1)); a fold of one case ranks nothing, so AUC_avg is undefined."""
    y, p, s, _f = _data(n=30)
    r = apples.report(apples.CVPredictions(y, folds=np.arange(30), y_pred=p, y_score=s), confidence=0.95)
    d = nested(r)
    ci = d["intervals"]["f_measure"]["tp_fp"]
    assert d["f_measure"]["tp_fp"] == pytest.approx(f1_score(y, p), rel=1e-12)
    assert ci["low"] < d["f_measure"]["tp_fp"] < ci["high"]
    assert d["roc_auc"]["avg"] is None and d["recommended"]["roc_auc"] == "merge"
    assert any("leave-one-out" in n and "merged" in n for n in d["notes"])


def test_to_frame_readable_percent_and_the_machine_form():
    y, p, s, f = _data()
    r = apples.report(apples.CVPredictions(y, folds=f, y_pred=p, y_score=s))
    machine = r.to_frame(readable=False)
    assert list(machine.columns) == ["quantity", "average", "aggregation", "value"]
    assert machine[(machine.quantity == "precision") & (machine.aggregation == "pooled")].value.iloc[0] == (
        pytest.approx(precision_score(y, p), rel=1e-12)
    )
    readable = r.to_frame(percent=True)
    row = readable[(readable.quantity == "ROC AUC") & (readable.aggregation == "merged scores")].iloc[0]
    assert row.value == pytest.approx(100 * roc_auc_score(y, s), rel=1e-12)
    tp_fp = readable[readable.aggregation == "F_tp,fp (pooled counts)"].iloc[0]
    assert bool(tp_fp.recommended) and tp_fp.value == pytest.approx(100 * f1_score(y, p), rel=1e-12)
    brier = readable[readable.quantity == "Brier score"].iloc[0]
    assert brier.value < 1  # a scoring rule is no rate: not in percent
    assert {"recommended", "zero_substituted"} <= set(readable.columns)


def test_to_latex_is_a_booktabs_table_with_user_text_escaped():
    y, p, _s, f = _data()
    labels = np.where(y == 1, "50%_a&b", "{other}")
    r = apples.report(
        apples.CVPredictions(labels, folds=f, y_pred=np.where(p == 1, "50%_a&b", "{other}"), pos_label="50%_a&b")
    )
    tex = r.to_latex(label="tab:cv")
    for rule in (r"\toprule", r"\midrule", r"\bottomrule", r"\begin{tabular}{llr}", r"\label{tab:cv}"):
        assert rule in tex
    assert r"50\%\_a\&b" in tex and "50%_a&b" not in tex
    assert f"{100 * f1_score(y, p):.1f}\\%" in tex
    # every row ends with \\ and has as many cells as the header
    body = tex.split(r"\midrule")[1].split(r"\bottomrule")[0].strip().splitlines()
    assert all(line.endswith(r"\\") and line.count(" & ") == 2 for line in body)
    assert "caption{mine}" in r.to_latex(caption="mine")
    with pytest.raises(TypeError, match="caption"):
        r.to_latex(caption=3)


def test_a_t_interval_of_identical_fold_values_says_why_it_has_width_0():
    y, _p, _s, f = _data()
    d = nested(apples.report(apples.CVPredictions(y, folds=f, y_pred=y), confidence=0.95))
    ci = d["intervals"]["accuracy"]["avg"]  # accuracy 1 in every fold: sample variance 0 (by hand)
    assert (
        ci["low"] == ci["high"] == 1.0 and "is the same" in ci["reason"] and "does not mean certainty" in ci["reason"]
    )


def test_every_new_entry_round_trips_through_json_and_bad_ones_are_refused():
    y, p, s, f = _data()
    reps = np.repeat([0, 1], y.size)
    r = apples.report(
        apples.CVPredictions(np.tile(y, 2), folds=np.tile(f, 2), repeats=reps, y_pred=np.tile(p, 2),
                             y_score=np.tile(s, 2)),
        beta=0.5, stratified=False, cv_seed=3, confidence=0.9,
    )  # fmt: skip
    d = r.to_dict()
    assert {"stratified", "cv_seed", "confidence"} <= set(d) and {"log_loss", "brier_score"} <= set(d["measures"])
    assert d["measures"]["f_measure"]["options"]["beta"] == 0.5 and "F0.5-measure" in str(r)
    assert apples.CVReport.from_json(r.to_json()) == r
    for key, bad in (("confidence", 1.5), ("stratified", "yes"), ("cv_seed", -2)):
        with pytest.raises((TypeError, ValueError), match=key):
            apples.CVReport({**d, key: bad})
    d["values"][0]["interval"]["reason"] = 5
    with pytest.raises(TypeError, match="reason"):
        apples.CVReport(d)


def test_to_latex_typesets_our_f_symbols_but_never_the_users_label():
    y, p, _s, f = _data()
    lab, pred = np.where(y == 1, "F_avg x", "b"), np.where(p == 1, "F_avg x", "b")
    tex = apples.report(apples.CVPredictions(lab, folds=f, y_pred=pred, pos_label="F_avg x")).to_latex()
    assert r"$F_{\mathrm{tp,fp}}$ (pooled counts)" in tex and r"$\tilde{F}_{\mathrm{avg}}$" in tex
    assert r"positive label F\_avg x:" in tex
    caption = tex.split(r"\caption{")[1].split("\n")[0].removesuffix("}")
    assert caption.count("{") == caption.count("}")  # every group the caption opens it closes
