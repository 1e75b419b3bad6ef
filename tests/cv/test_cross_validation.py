"""Cross-validated F and accuracy: the five methods of Forman & Scholz §2.3, and the paper's Tables 1–2."""

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sklearn.metrics import f1_score

from apples import (
    F_AGGREGATIONS,
    Counts,
    UndefinedMetricError,
    cv_accuracy,
    cv_f_measure,
    cv_table,
    fold_validity,
    format_cv_table,
)
from apples.cv import percent


def aggregate(fold_counts, key):
    """One of the paper's five F aggregations (apples.F_AGGREGATIONS): cv_f_measure's method and 0/0 policy."""
    a = F_AGGREGATIONS[key]
    return cv_f_measure(fold_counts, method=a.method, undefined=a.undefined)


# Forman & Scholz (2010) Table 1 and Table 2: (negatives, positives, TP, FP) per fold
TABLE1 = [(373, 3, 3, 0), (372, 4, 4, 1), (372, 4, 4, 13), (372, 4, 3, 5)]
TABLE2 = [(372, 4, 2, 0), (372, 4, 0, 0), (372, 4, 4, 0), (372, 4, 4, 0)]


def folds_of(table):
    return [Counts.from_fold(negatives=n, positives=p, tp=tp, fp=fp) for n, p, tp, fp in table]


# -- the paper's printed numbers, to the paper's rounding -------------------------------------------
@pytest.mark.parametrize(
    "table, method, printed",
    [
        (TABLE1, "tp_fp", "58%"),
        (TABLE1, "avg", "69%"),
        (TABLE1, "pr_re", "73%"),
        (TABLE2, "tp_fp", "77%"),
        (TABLE2, "avg", "67%"),
        (TABLE2, "pr_re", "68%"),
        (TABLE2, "avg_skip", "89%"),
        (TABLE2, "pr_re_skip", "91%"),
    ],
)
def test_paper_tables_aggregates(table, method, printed):
    assert percent(aggregate(folds_of(table), method)) == printed


def test_table1_text_formulas():
    """§3.1: 73% = 2·0.60·0.94/(0.60+0.94) and 58% = 2·14/(2·14+19+1)."""
    folds = folds_of(TABLE1)
    assert cv_f_measure(folds, method="tp_fp") == 2 * 14 / (2 * 14 + 19 + 1)
    assert percent(2 * 0.60 * 0.94 / (0.60 + 0.94)) == "73%"


def test_table1_columns_as_printed():
    t = format_cv_table(cv_table(folds_of(TABLE1)))
    assert t.loc[0:3, "Precision"].tolist() == ["100%", "80%", "24%", "38%"]
    assert t.loc[0:3, "Recall"].tolist() == ["100%", "100%", "100%", "75%"]
    assert t.loc[0:3, "F-measure"].tolist() == ["100%", "89%", "38%", "50%"]
    assert t.loc["Totals", ["Negatives", "Positives", "TP", "FP"]].tolist() == ["1489", "15", "14", "19"]
    assert t.loc["Averages", ["Precision", "Recall"]].tolist() == ["60%", "94%"]


def test_cv_table_numbers_folds_from_zero_as_scikit_learn_does():
    """One numbering: fold i of cv_table is fold_counts[i], the i-th split of scikit-learn (0-based)."""
    t = cv_table(folds_of(TABLE1))
    assert t.index[:4].tolist() == [0, 1, 2, 3]
    assert t.loc[3, "tp"] == folds_of(TABLE1)[3].tp


def test_table2_columns_as_printed_with_dagger():
    t = format_cv_table(cv_table(folds_of(TABLE2)))
    assert t.loc[1, "Precision"] == "0% †"
    assert t.loc[0:3, "F-measure"].tolist() == ["67%", "0%", "100%", "100%"]
    assert t.loc["Totals", ["Negatives", "Positives", "TP", "FP"]].tolist() == ["1488", "16", "10", "0"]
    assert t.loc["Averages", ["Precision", "Recall"]].str.strip().tolist() == ["75%", "63%"]


def test_table2_printed_percent_signs_line_up_beside_the_dagger():
    """Table 2 prints "0% †": the % signs of the Precision column still sit one under the other."""
    lines = format_cv_table(cv_table(folds_of(TABLE2))).to_string().splitlines()
    header = lines[0]
    end = header.index("Precision") + len("Precision")  # to_string right-aligns the values under the header
    rows = [line for line in lines if line.split()[0] in ("0", "1", "2", "3", "Averages")]
    assert len(rows) == 5
    assert {line[:end].rstrip(" †").rfind("%") for line in rows} == {end - 3}


def test_ratios_quoted_in_text():
    f1 = {m: aggregate(folds_of(TABLE1), m) for m in F_AGGREGATIONS}
    f2 = {m: aggregate(folds_of(TABLE2), m) for m in F_AGGREGATIONS}
    # §3.1: "F_pr,re = 1.26 x F_tp,fp"
    assert round(f1["pr_re"] / f1["tp_fp"], 2) == 1.26
    # §3.1: "F~_pr,re = 1.34 x F_pr,re": the exact ratio is (10/11)/(15/22) = 4/3; 1.34 is 91%/68% of the rounded values
    assert f2["pr_re_skip"] / f2["pr_re"] == pytest.approx(4 / 3, rel=1e-12)
    assert round(0.91 / 0.68, 2) == 1.34


def test_table2_exact_values_by_hand():
    f = folds_of(TABLE2)
    assert cv_f_measure(f, method="tp_fp") == 20 / 26
    assert cv_f_measure(f, method="avg") == pytest.approx((2 / 3 + 0 + 1 + 1) / 4)
    assert cv_f_measure(f, method="pr_re") == pytest.approx(2 * 0.75 * 0.625 / 1.375)
    assert cv_f_measure(f, method="avg", undefined="skip") == pytest.approx((2 / 3 + 1 + 1) / 3)
    assert cv_f_measure(f, method="pr_re", undefined="skip") == pytest.approx(2 * 1 * (2.5 / 3) / (1 + 2.5 / 3))


# -- reference implementation written straight from the paper's definitions --------------------------
def reference(folds, method):
    pr = [c.tp / (c.tp + c.fp) if c.tp + c.fp else None for c in folds]
    re = [c.tp / (c.tp + c.fn) if c.tp + c.fn else None for c in folds]
    v = [p is not None and r is not None for p, r in zip(pr, re, strict=True)]
    f = [2 * p * r / (p + r) if ok and p + r > 0 else 0.0 for p, r, ok in zip(pr, re, v, strict=True)]
    if method == "tp_fp":
        tp, fp, fn = (sum(getattr(c, a) for c in folds) for a in ("tp", "fp", "fn"))
        return 2 * tp / (2 * tp + fp + fn)
    if method == "avg":
        return sum(f) / len(f)
    if method == "avg_skip":
        return sum(x for x, ok in zip(f, v, strict=True) if ok) / sum(v)
    if method == "pr_re":
        P = sum(p or 0.0 for p in pr) / len(folds)
        R = sum(r or 0.0 for r in re) / len(folds)
    else:
        P = sum(p for p, ok in zip(pr, v, strict=True) if ok) / sum(v)
        R = sum(r for r, ok in zip(re, v, strict=True) if ok) / sum(v)
    return 2 * P * R / (P + R) if P + R else 0.0


fold_st = st.builds(Counts, st.integers(0, 8), st.integers(0, 8), st.integers(0, 8), st.integers(0, 50))


@given(st.lists(fold_st, min_size=1, max_size=10), st.sampled_from(list(F_AGGREGATIONS)))
def test_matches_reference_definition(folds, method):
    if method == "tp_fp":
        assume(sum(c.tp + c.fp + c.fn for c in folds) > 0)
    if method.endswith("skip"):
        assume(fold_validity(folds).any())
    assert aggregate(folds, method) == pytest.approx(reference(folds, method), rel=1e-12, abs=1e-15)


@settings(max_examples=100)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1), st.integers(0, 9)), min_size=2, max_size=80))
def test_tp_fp_equals_f_of_concatenated_labels(rows):
    """Pooling counts over any fold split is the same as scoring the concatenated predictions."""
    y_true, y_pred, fold = (np.array(x) for x in zip(*rows, strict=True))
    assume(((y_true == 1) | (y_pred == 1)).any())
    folds = [Counts.from_labels(y_true[fold == k], y_pred[fold == k]) for k in np.unique(fold)]
    assert cv_f_measure(folds, method="tp_fp") == pytest.approx(f1_score(y_true, y_pred), rel=1e-12)


@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1)), min_size=1, max_size=30), st.integers(1, 8))
def test_accuracy_pooled_equals_averaged_for_equal_folds(cells, k):
    """Each of k folds holds the same number of cases: pooled accuracy = mean of fold accuracies (§2.4)."""
    rng = np.random.default_rng(len(cells) * 31 + k)
    folds = []
    for _ in range(k):
        idx = rng.permutation(len(cells))  # same size, different contents per fold
        t = [cells[i][0] for i in idx[: len(cells) // 2 + 1]]
        p = [cells[(i + 1) % len(cells)][1] for i in idx[: len(cells) // 2 + 1]]
        folds.append(Counts.from_labels(t, p))
    assert cv_accuracy(folds, method="avg") == pytest.approx(cv_accuracy(folds, method="pooled"), rel=1e-12)


@given(st.lists(st.builds(Counts, *[st.integers(0, 30)] * 4).filter(lambda c: c.n > 0), min_size=1, max_size=10))
def test_accuracy_weighted_average_always_equals_pooled(folds):
    assert cv_accuracy(folds, method="weighted_avg") == pytest.approx(cv_accuracy(folds, method="pooled"), rel=1e-12)


def test_raschka_accuracy_example():
    """Raschka: (30 + 40)/100 = (30/50 + 40/50)/2 = 0.7."""
    folds = [Counts(tp=15, fp=10, fn=10, tn=15), Counts(tp=20, fp=5, fn=5, tn=20)]
    assert cv_accuracy(folds, method="pooled") == pytest.approx(0.7)
    assert cv_accuracy(folds, method="avg") == pytest.approx(0.7)


def test_accuracy_unequal_folds_differ():
    # 9/10 correct and 10/90 correct: pooled 19/100, averaged (0.9 + 1/9)/2
    folds = [Counts(tp=9, fp=1, fn=0, tn=0), Counts(tp=10, fp=80, fn=0, tn=0)]
    assert cv_accuracy(folds, method="pooled") == pytest.approx(19 / 100)
    assert cv_accuracy(folds, method="avg") == pytest.approx((0.9 + 1 / 9) / 2)


# -- bad input -------------------------------------------------------------------------------------
def test_unknown_method():
    with pytest.raises(ValueError, match=r"method='micro' is not recognised; expected one of 'tp_fp'"):
        cv_f_measure(folds_of(TABLE1), method="micro")
    with pytest.raises(ValueError, match=r"method='avg_skip' is not recognised"):  # an aggregation, not a method
        cv_f_measure(folds_of(TABLE1), method="avg_skip")


def test_method_is_required():
    with pytest.raises(TypeError):
        cv_f_measure(folds_of(TABLE1))


def test_empty_folds():
    with pytest.raises(ValueError, match="fold_counts is empty"):
        cv_f_measure([], method="avg")
    with pytest.raises(ValueError, match="fold_counts is empty"):
        cv_accuracy([], method="pooled")


@pytest.mark.parametrize("method", ["avg", "pr_re"])
def test_every_fold_undefined_under_skip(method):
    """Nothing is left to average: NaN, never a number; "raise" says which fold."""
    folds = [Counts(0, 0, 3), Counts(0, 2, 0)]
    assert math.isnan(cv_f_measure(folds, method=method, undefined="skip"))
    assert math.isnan(cv_f_measure(folds, method=method, undefined="nan"))
    with pytest.raises(UndefinedMetricError, match="fold 0"):
        cv_f_measure(folds, method=method, undefined="raise")


def test_skip_is_refused_for_pooled_counts():
    with pytest.raises(ValueError, match="method='tp_fp' pools the folds first"):
        cv_f_measure(folds_of(TABLE1), method="tp_fp", undefined="skip")


def test_zero_substitution_methods_give_zero_when_every_fold_undefined():
    folds = [Counts(0, 0, 3), Counts(0, 2, 0)]
    assert cv_f_measure(folds, method="avg") == 0.0
    assert cv_f_measure(folds, method="pr_re") == 0.0


def test_tp_fp_undefined_when_nothing_positive_anywhere():
    folds = [Counts(0, 0, 0, 5), Counts(0, 0, 0, 7)]
    with pytest.raises(UndefinedMetricError, match=r"TP = FP = FN = 0"):
        cv_f_measure(folds, method="tp_fp", undefined="raise")
    assert cv_f_measure(folds, method="tp_fp") == 0.0  # the paper's substitution, the default
    assert math.isnan(cv_f_measure(folds, method="tp_fp", undefined="nan"))


def test_folds_type_errors():
    with pytest.raises(TypeError, match="got a single Counts"):
        cv_f_measure(Counts(1, 1, 1), method="avg")
    with pytest.raises(TypeError, match=r"fold_counts\[1\] must be an apples.Counts \(make one with apples.Counts"):
        cv_f_measure([Counts(1, 1, 1), (1, 1, 1)], method="avg")


def test_accuracy_empty_fold_and_unknown_method():
    with pytest.raises(ValueError, match=r"fold_counts\[1\] has no cases"):
        cv_accuracy([Counts(1, 0, 0, 0), Counts(0, 0, 0, 0)], method="avg")
    with pytest.raises(ValueError, match="method='mean' is not recognised"):
        cv_accuracy([Counts(1, 0, 0, 0)], method="mean")


def test_cv_table_marks_f_undefined_only_at_origin():
    t = cv_table([Counts(0, 0, 0, 10), Counts(1, 0, 0, 9)])
    assert t.loc[0, "undefined"] == "precision, recall, f"
    assert t.loc[1, "undefined"] == ""
    # fold 2 (TP = 1, nothing else) is the only valid fold: F = 1 by hand, so F~_avg = 1;
    # F_avg substitutes 0 for fold 1: (0 + 1)/2
    assert t.loc["F~_avg", "f"] == 1.0
    assert t.loc["F_avg", "f"] == 0.5
    assert not math.isnan(t.loc["F~_pr,re", "f"])
