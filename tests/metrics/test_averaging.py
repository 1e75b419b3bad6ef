"""Tests for apples.averaging: Van Asch (2013) §3, Tables 2–5, §3.3.1, eq. (15), §4.1.

Expected values come from the paper (rounded as printed there) and from hand
calculation with exact fractions; scikit-learn is the independent cross-check.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction as Fr

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import accuracy_score, precision_recall_fscore_support
from sklearn.preprocessing import MultiLabelBinarizer

from apples import Counts, UndefinedMetricError
from apples.metrics.averaging import AveragedScores, average_scores, frequencies_from_counts


def paper_round(x: float, digits: int) -> float:
    """Round half up, as the paper prints (0.6125 -> 0.613)."""
    return float(Decimal(repr(x)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def close(a, b, tol=1e-12):
    return math.isclose(float(a), float(b), rel_tol=0, abs_tol=tol)


# --- the paper's tables, as given (tp, fp, fn) -----------------------------------------------------
TABLE2 = {"c1": Counts(10, 10, 10), "c2": Counts(90, 10, 10)}
TABLE3 = {"c1": Counts(3, 2, 7), "c2": Counts(1, 7, 9), "c3": Counts(6, 6, 8), "c4": Counts(6, 9, 0)}
TABLE3_TRAIN = {"c1": 0.1, "c2": 0.2, "c3": 0.3, "c4": 0.4}
TABLE4 = TABLE3  # "a different experiment" with the same counts
TABLE4_TRAIN = {"c1": 0.25, "c2": 0.25, "c3": 0.35, "c4": 0.15}
TABLE5 = {"c1": Counts(6, 4, 4), "c2": Counts(6, 4, 4), "c3": Counts(6, 6, 6), "c4": Counts(6, 2, 2)}
TABLE5_TRAIN = {"c1": 0.25, "c2": 0.25, "c3": 0.3, "c4": 0.2}


def test_table2_macro_micro():
    macro = average_scores(TABLE2, average="macro")
    micro = average_scores(TABLE2, average="micro")
    # paper: 0.7 / 0.7 and 0.83 / 0.83; by hand (1/2)(10/20 + 90/100) = 7/10, 100/120 = 5/6
    assert close(macro.precision, 0.7) and close(macro.recall, 0.7)
    assert close(micro.precision, 5 / 6) and close(micro.recall, 5 / 6)
    assert paper_round(micro.precision, 2) == 0.83 and paper_round(micro.recall, 2) == 0.83


def test_table3_every_value():
    # per-label columns of Table 3
    expected_p = {"c1": 0.6, "c2": 0.125, "c3": 0.5, "c4": 0.4}
    expected_r = {"c1": 0.3, "c2": 0.1, "c3": 0.429, "c4": 1}
    for k, c in TABLE3.items():
        assert paper_round(c.tp / (c.tp + c.fp), 3) == expected_p[k]
        assert paper_round(c.tp / (c.tp + c.fn), 3) == expected_r[k]
    assert frequencies_from_counts(TABLE3) == pytest.approx({"c1": 0.25, "c2": 0.25, "c3": 0.35, "c4": 0.15}, abs=1e-15)
    macro = average_scores(TABLE3, average="macro")
    micro = average_scores(TABLE3, average="micro")
    lfb = average_scores(TABLE3, average="lfb", frequencies=TABLE3_TRAIN)
    assert (paper_round(macro.precision, 3), paper_round(macro.recall, 3)) == (0.406, 0.457)
    assert (paper_round(micro.precision, 3), paper_round(micro.recall, 3)) == (0.4, 0.4)
    assert (paper_round(lfb.precision, 3), paper_round(lfb.recall, 3)) == (0.395, 0.579)
    # exact: macro P = (3/5 + 1/8 + 1/2 + 2/5)/4 = 13/32; macro R = (3/10 + 1/10 + 3/7 + 1)/4 = 16/35
    assert close(macro.precision, 13 / 32) and close(macro.recall, 16 / 35)
    # lfb P = .1*.6 + .2*.125 + .3*.5 + .4*.4 = .395; lfb R = .03 + .02 + .3*3/7 + .4 = 81/140
    assert close(lfb.precision, 0.395) and close(lfb.recall, 81 / 140)
    assert close(micro.precision, 16 / 40) and close(micro.recall, 16 / 40)


def test_table4_lfb_equals_test_frequencies():
    lfb = average_scores(TABLE4, average="lfb", frequencies=TABLE4_TRAIN)
    lfb_test = average_scores(TABLE4, average="lfb", frequencies="test")
    assert (paper_round(lfb.precision, 3), paper_round(lfb.recall, 3)) == (0.416, 0.4)
    # .25*.6 + .25*.125 + .35*.5 + .15*.4 = .41625 exactly; recall = micro recall = 16/40
    assert close(lfb.precision, 0.41625) and close(lfb.recall, 0.4)
    assert close(lfb_test.precision, lfb.precision) and close(lfb_test.recall, lfb.recall)
    macro = average_scores(TABLE4, average="macro")
    assert (paper_round(macro.precision, 3), paper_round(macro.recall, 3)) == (0.406, 0.457)


def test_table5_all_equal():
    macro = average_scores(TABLE5, average="macro")
    micro = average_scores(TABLE5, average="micro")
    lfb = average_scores(TABLE5, average="lfb", frequencies=TABLE5_TRAIN)
    # macro = (3/5 + 3/5 + 1/2 + 3/4)/4 = 49/80 = 0.6125, printed 0.613 (half up)
    assert close(macro.precision, 49 / 80) and close(macro.recall, 49 / 80)
    assert paper_round(macro.precision, 3) == 0.613 == paper_round(macro.recall, 3)
    assert close(micro.precision, 0.6) and close(micro.recall, 0.6)
    assert close(lfb.precision, 0.6) and close(lfb.recall, 0.6)
    assert frequencies_from_counts(TABLE5) == pytest.approx(TABLE5_TRAIN, abs=1e-15)


def test_f_of_averages_differs_from_mean_f():
    s = average_scores(TABLE3, average="macro")
    # per-label F (eq. 4): 2tp/(2tp+fp+fn) = 6/15, 2/18, 12/26, 12/21
    mean_f = (Fr(6, 15) + Fr(2, 18) + Fr(12, 26) + Fr(12, 21)) / 4
    p, r = Fr(13, 32), Fr(16, 35)
    assert close(s.mean_f, mean_f)
    assert close(s.f_of_averages, 2 * p * r / (p + r))
    assert abs(s.f_of_averages - s.mean_f) > 0.04
    assert isinstance(s, AveragedScores) and all(type(v) is float for v in s)
    m = average_scores(TABLE3, average="micro")
    assert m.f_of_averages == m.mean_f == pytest.approx(0.4)


# --- hand-made helpers, independent of apples.label_counts ------------------------------------------
def counts_from_matrix(m) -> dict:
    """Per-label Counts of a single-label confusion matrix (rows gold, columns predicted)."""
    m = np.asarray(m)
    n = int(m.sum())
    out = {}
    for k in range(m.shape[0]):
        tp = int(m[k, k])
        fp = int(m[:, k].sum()) - tp
        fn = int(m[k, :].sum()) - tp
        out[f"c{k + 1}"] = Counts(tp, fp, fn, n - tp - fp - fn)
    return out


def expand(m):
    """y_true, y_pred realising a confusion matrix."""
    m = np.asarray(m)
    q = m.shape[0]
    rows, cols = np.indices((q, q))
    return np.repeat(rows.ravel(), m.ravel()), np.repeat(cols.ravel(), m.ravel())


# A single-label confusion matrix realising Table 3's counts (rows gold c1..c4, columns predicted).
TABLE3_MATRIX = [[3, 4, 1, 2], [1, 1, 5, 3], [1, 3, 6, 4], [0, 0, 0, 6]]


def test_table3_matrix_realises_table3():
    assert {k: (c.tp, c.fp, c.fn) for k, c in counts_from_matrix(TABLE3_MATRIX).items()} == {
        k: (c.tp, c.fp, c.fn) for k, c in TABLE3.items()
    }


def test_sklearn_weighted_is_lfb_with_test_frequencies_on_table3():
    t, p = expand(TABLE3_MATRIX)
    sk_p, sk_r, sk_f, _ = precision_recall_fscore_support(t, p, average="weighted", zero_division=0)
    ours = average_scores(TABLE3, average="lfb", frequencies="test")
    assert close(sk_p, ours.precision) and close(sk_r, ours.recall) and close(sk_f, ours.mean_f)
    assert close(sk_p, 0.41625)  # Table 4's lfb precision
    train = average_scores(TABLE3, average="lfb", frequencies=TABLE3_TRAIN)
    assert not close(sk_p, train.precision, 1e-3)  # no training-frequency option in sklearn


# --- §3.3.1 equivalence conditions (eqs. 11-14, footnotes 1-2) and eq. 15 --------------------------
SQUARE = (
    st.integers(2, 5)
    .flatmap(lambda q: st.lists(st.lists(st.integers(0, 6), min_size=q, max_size=q), min_size=q, max_size=q))
    .filter(lambda m: np.trace(np.asarray(m)) > 0)
)


@given(SQUARE)
def test_recall_lfb_equals_micro_with_test_frequencies(m):
    counts = counts_from_matrix(m)
    micro = average_scores(counts, average="micro")
    lfb = average_scores(counts, average="lfb", frequencies="test")
    # same frequencies passed explicitly as "training" frequencies (f_train = f_test, eq. 12)
    lfb_train = average_scores(counts, average="lfb", frequencies=frequencies_from_counts(counts))
    assert close(lfb.recall, micro.recall) and close(lfb_train.recall, micro.recall)
    assert close(lfb_train.precision, lfb.precision)


@given(SQUARE)
def test_precision_lfb_equals_micro_when_fp_equals_fn(m):
    m = np.asarray(m)
    sym = np.triu(m, 1) + np.triu(m, 1).T + np.diag(np.diag(m))  # symmetric: fp_λ = fn_λ for every label
    counts = counts_from_matrix(sym)
    assert all(c.fp == c.fn for c in counts.values())
    micro = average_scores(counts, average="micro")
    lfb = average_scores(counts, average="lfb", frequencies="test")
    assert close(lfb.precision, micro.precision) and close(lfb.recall, micro.recall)
    assert close(lfb.f_of_averages, micro.f_of_averages)


@given(SQUARE)
def test_footnote2_general_condition(m):
    # precision_lfb - precision_micro = (1/N) Σ tp_λ (fn_λ - fp_λ) / (tp_λ + fp_λ), from eq. (13)
    counts = counts_from_matrix(m)
    n = sum(c.tp + c.fp for c in counts.values())
    gap = sum((Fr(c.tp * (c.fn - c.fp), c.tp + c.fp) for c in counts.values() if c.tp + c.fp), Fr(0)) / n
    micro = average_scores(counts, average="micro")
    lfb = average_scores(counts, average="lfb", frequencies="test")
    assert close(lfb.precision - micro.precision, gap)


@given(SQUARE)
def test_eq15_micro_precision_equals_recall_equals_accuracy(m):
    counts = counts_from_matrix(m)
    micro = average_scores(counts, average="micro")
    t, p = expand(m)
    assert close(micro.precision, micro.recall) and close(micro.precision, accuracy_score(t, p))


def test_counterexamples():
    # recall: frequencies differ (Table 3) -> recall_lfb 0.579 != recall_micro 0.4
    assert not close(average_scores(TABLE3, average="lfb", frequencies=TABLE3_TRAIN).recall, 0.4, 1e-3)
    # precision: same frequencies but fp != fn (Table 4) -> 0.416 != 0.4
    assert not close(average_scores(TABLE4, average="lfb", frequencies=TABLE4_TRAIN).precision, 0.4, 1e-3)
    # footnote 2: fp != fn, yet Σ tp (fn - fp)/(tp + fp) = 0 (both precisions 2/3) -> equal precisions
    fn2 = counts_from_matrix([[2, 2], [1, 4]])
    assert any(c.fp != c.fn for c in fn2.values())
    assert close(average_scores(fn2, average="lfb", frequencies="test").precision, 2 / 3)
    assert close(average_scores(fn2, average="micro").precision, 2 / 3)
    # footnote 1: frequencies differ, yet equal per-label recalls make recall_lfb = recall_micro
    fn1 = {"c1": Counts(1, 1, 1), "c2": Counts(3, 1, 3)}
    lfb = average_scores(fn1, average="lfb", frequencies={"c1": 0.9, "c2": 0.1})
    assert close(lfb.recall, 0.5) and close(average_scores(fn1, average="micro").recall, 0.5)
    # eq. 15 is single-label only: Table 6 (multi-label) has micro precision 1/3, recall 1/2
    table6 = {"A": Counts(1, 0, 1), "B": Counts(0, 1, 0), "C": Counts(0, 1, 0)}
    micro = average_scores(table6, average="micro")
    assert close(micro.precision, 1 / 3) and close(micro.recall, 1 / 2)


def test_footnote3_eq15_needs_the_whole_label_set():
    # Van Asch footnote 3: with the test gold label set only, a predicted training label C is an error
    # counted by no label's fp: over {A, B}: tp 3, fp 0, fn 1 -> P = 1, R = 3/4; over {A, B, C}: P = R = 3/4.
    gold, pred = ["A", "A", "B", "B"], ["A", "C", "B", "B"]
    test_set = {"A": Counts(1, 0, 1), "B": Counts(2, 0, 0)}
    micro = average_scores(test_set, average="micro")
    assert close(micro.precision, 1.0) and close(micro.recall, 0.75)
    sk = precision_recall_fscore_support(gold, pred, labels=["A", "B"], average="micro")
    assert close(sk[0], micro.precision) and close(sk[1], micro.recall)
    full = {**test_set, "C": Counts(0, 1, 0)}
    micro = average_scores(full, average="micro")
    assert close(micro.precision, 0.75) and close(micro.recall, 0.75)
    assert close(micro.precision, accuracy_score(gold, pred))
    # apples refuses the truncated label set instead of silently breaking eq. 15
    from apples import label_counts

    with pytest.raises(ValueError, match="not in labels="):
        label_counts(gold, pred, labels=["A", "B"])
    assert label_counts(gold, pred, labels=["A", "B", "C"]) == {
        k: Counts(c.tp, c.fp, c.fn, 4 - c.tp - c.fp - c.fn) for k, c in full.items()
    }


# --- §4.1 the label set, and the undefined policy ------------------------------------------------
FILE1 = counts_from_matrix([[3, 1, 1], [1, 3, 1], [1, 1, 3]])  # three labels, F = 0.6 each
FILE2 = {"c1": Counts(9, 1, 1), "c2": Counts(9, 1, 1)}  # two labels, F = 0.9 each


def test_label_set_pitfall_41():
    assert all(close(2 * c.tp / (2 * c.tp + c.fp + c.fn), 0.6) for c in FILE1.values())
    assert close(average_scores(FILE1, average="macro").mean_f, 0.6)
    # test label set: 1.8 / 2 = 0.9
    assert close(average_scores(FILE2, average="macro").mean_f, 0.9)
    # training label set {c1, c2, c3}: c3 absent from the test file -> 1.8 / 3 = 0.6
    with_c3 = {**FILE2, "c3": Counts(0, 0, 0)}
    assert close(average_scores(with_c3, average="macro").mean_f, 0.6)
    assert close(average_scores(with_c3, average="macro", undefined="skip").mean_f, 0.9)  # the pitfall again
    assert math.isnan(average_scores(with_c3, average="macro", undefined="nan").mean_f)
    with pytest.raises(UndefinedMetricError, match=r"macro precision.*\['c3'\]"):
        average_scores(with_c3, average="macro", undefined="raise")
    # micro pools counts: an absent label changes nothing under any policy
    for policy in ("zero", "skip", "nan", "raise"):
        assert average_scores(with_c3, average="micro", undefined=policy) == average_scores(FILE2, average="micro")


def test_undefined_policies_per_situation():
    counts = {
        "gold_and_pred": Counts(2, 2, 0),  # P 1/2, R 1, F 2/3
        "never_predicted": Counts(0, 0, 2),  # P undefined, R 0, F 0
        "only_predicted": Counts(0, 2, 0),  # P 0, R undefined, F 0
    }
    z = average_scores(counts, average="macro", undefined="zero")
    assert close(z.precision, 0.5 / 3) and close(z.recall, 1 / 3) and close(z.mean_f, (2 / 3) / 3)
    s = average_scores(counts, average="macro", undefined="skip")
    assert close(s.precision, 0.5 / 2) and close(s.recall, 1 / 2) and close(s.mean_f, (2 / 3) / 3)
    n = average_scores(counts, average="macro", undefined="nan")
    assert math.isnan(n.precision) and math.isnan(n.recall) and math.isnan(n.f_of_averages)
    assert close(n.mean_f, (2 / 3) / 3)  # F is defined for every label here
    with pytest.raises(UndefinedMetricError, match=r"precision.*\['never_predicted'\]"):
        average_scores(counts, average="macro", undefined="raise")
    # lfb with test frequencies: "only_predicted" has weight 0 and is ignored under every policy
    w = {"gold_and_pred": 0.5, "never_predicted": 0.5, "only_predicted": 0.0}
    for policy in ("zero", "skip"):
        a = average_scores(counts, average="lfb", frequencies="test", undefined=policy)
        b = average_scores(counts, average="lfb", frequencies=w, undefined=policy)
        assert a == b
    assert close(average_scores(counts, average="lfb", frequencies="test").recall, 0.5)
    # training frequencies give a label absent from the test gold a weight: its 0/0 recall counts
    w2 = {"gold_and_pred": 0.5, "never_predicted": 0.25, "only_predicted": 0.25}
    assert close(average_scores(counts, average="lfb", frequencies=w2).recall, 0.5)
    assert close(average_scores(counts, average="lfb", frequencies=w2, undefined="skip").recall, 0.5 / 0.75)


def test_whole_average_undefined():
    nothing = {"a": Counts(0, 0, 0), "b": Counts(0, 0, 0)}
    assert average_scores(nothing, average="micro") == (0.0, 0.0, 0.0, 0.0)
    assert all(math.isnan(v) for v in average_scores(nothing, average="micro", undefined="skip"))
    assert all(math.isnan(v) for v in average_scores(nothing, average="lfb", frequencies="test", undefined="nan"))
    assert all(math.isnan(v) for v in average_scores(nothing, average="macro", undefined="skip"))
    with pytest.raises(UndefinedMetricError):
        average_scores(nothing, average="lfb", frequencies="test", undefined="raise")
    with pytest.raises(UndefinedMetricError, match="test frequencies"):
        frequencies_from_counts(nothing)


# --- scikit-learn cross-checks ----------------------------------------------------------------------
def _ours(counts, average, undefined):
    if average == "weighted":
        return average_scores(counts, average="lfb", frequencies="test", undefined=undefined)
    return average_scores(counts, average=average, undefined=undefined)


def _check_against_sklearn(counts, y_true, y_pred, labels):
    for average in ("macro", "micro", "weighted"):
        for zd, policy in ((0.0, "zero"), (np.nan, "skip")):
            sk = precision_recall_fscore_support(y_true, y_pred, labels=labels, average=average, zero_division=zd)
            ours = _ours(counts, average, policy)
            for name, a, b in (
                ("precision", sk[0], ours.precision),
                ("recall", sk[1], ours.recall),
                ("F", sk[2], ours.mean_f),
            ):
                assert (math.isnan(a) and math.isnan(b)) or close(a, b), (average, zd, name, a, b)


@pytest.mark.parametrize("seed", range(8))
def test_sklearn_single_label(seed):
    from apples.metrics.multilabel import label_counts

    rng = np.random.default_rng(seed)
    q = int(rng.integers(2, 8))
    labels = list(range(q + 2))  # two labels that never occur (§4.1)
    t = rng.integers(0, q, size=int(rng.integers(5, 80)))
    p = rng.integers(0, q + 1, size=t.size)  # label q is predicted but never gold
    counts = label_counts(t, p, labels=labels)
    _check_against_sklearn(counts, t, p, labels)


@pytest.mark.parametrize("seed", range(8))
def test_sklearn_multilabel(seed):
    from apples.metrics.multilabel import label_counts

    rng = np.random.default_rng(1000 + seed)
    labels = ["a", "b", "c", "d", "e", "f"]
    n = int(rng.integers(5, 60))
    gold = [sorted(set(rng.choice(labels[:4], size=rng.integers(0, 4)).tolist())) for _ in range(n)]
    pred = [sorted(set(rng.choice(labels[:5], size=rng.integers(0, 4)).tolist())) for _ in range(n)]
    counts = label_counts(gold, pred, labels=labels)
    mlb = MultiLabelBinarizer(classes=labels)
    _check_against_sklearn(counts, mlb.fit_transform(gold), mlb.transform(pred), None)


# --- bad input ------------------------------------------------------------------------------------------
def test_rejects_bad_frequencies():
    with pytest.raises(ValueError, match=r"must sum to 1.*0.9"):
        average_scores(TABLE3, average="lfb", frequencies={"c1": 0.1, "c2": 0.2, "c3": 0.3, "c4": 0.3})
    with pytest.raises(ValueError, match=r"no entry for label\(s\) \['c4'\]"):
        average_scores(TABLE3, average="lfb", frequencies={"c1": 0.2, "c2": 0.2, "c3": 0.6})
    with pytest.raises(ValueError, match=r"label\(s\) \['c5'\] that are not in counts_by_label.*Counts\(0, 0, 0\)"):
        average_scores(TABLE3, average="lfb", frequencies={**TABLE3_TRAIN, "c5": 0.0})
    with pytest.raises(ValueError, match=r"frequencies\['c1'\] must be a finite number >= 0"):
        average_scores(TABLE3, average="lfb", frequencies={"c1": -0.1, "c2": 0.4, "c3": 0.3, "c4": 0.4})
    with pytest.raises(ValueError, match=r"frequencies\['c1'\] must be a finite"):
        average_scores(TABLE3, average="lfb", frequencies={"c1": float("nan"), "c2": 0.2, "c3": 0.3, "c4": 0.4})
    with pytest.raises(TypeError, match=r"frequencies\['c1'\] must be a real number"):
        average_scores(TABLE3, average="lfb", frequencies={"c1": "0.1", "c2": 0.2, "c3": 0.3, "c4": 0.4})
    with pytest.raises(ValueError, match="frequencies='train' is not recognised"):
        average_scores(TABLE3, average="lfb", frequencies="train")
    with pytest.raises(TypeError, match="frequencies must be a mapping"):
        average_scores(TABLE3, average="lfb", frequencies=[0.1, 0.2, 0.3, 0.4])
    with pytest.raises(ValueError, match="needs frequencies"):
        average_scores(TABLE3, average="lfb")
    with pytest.raises(ValueError, match="only used by average='lfb'"):
        average_scores(TABLE3, average="macro", frequencies="test")
    # exact fractions that sum to 1 are fine
    fr = {"c1": Fr(1, 10), "c2": Fr(1, 5), "c3": Fr(3, 10), "c4": Fr(2, 5)}
    assert close(average_scores(TABLE3, average="lfb", frequencies=fr).precision, 0.395)


def test_rejects_bad_arguments():
    with pytest.raises(ValueError, match="average='weighted' is not recognised"):
        average_scores(TABLE3, average="weighted")
    with pytest.raises(ValueError, match="undefined='ignore' is not recognised"):
        average_scores(TABLE3, average="macro", undefined="ignore")
    with pytest.raises(TypeError, match="counts_by_label must be a mapping"):
        average_scores(list(TABLE3.values()), average="macro")
    with pytest.raises(ValueError, match="counts_by_label is empty"):
        average_scores({}, average="macro")
    with pytest.raises(TypeError, match=r"counts_by_label\['a'\] must be an apples.Counts"):
        average_scores({"a": (1, 2, 3)}, average="macro")


def test_averaging_table_layout_table3():
    from apples.metrics.averaging import averaging_table

    t = averaging_table(TABLE3, frequencies=TABLE3_TRAIN)
    assert list(t.index) == ["c1", "c2", "c3", "c4", "total", "macro-averaged", "micro-averaged", "lfb-micro-averaged"]
    assert list(t.loc["total", ["tp", "fp", "fn"]]) == [16, 24, 24]  # Table 3 totals
    assert [paper_round(v, 3) for v in t.loc[["c1", "c2", "c3", "c4"], "recall"]] == [0.3, 0.1, 0.429, 1.0]
    assert [
        paper_round(v, 3) for v in t.loc[["macro-averaged", "micro-averaged", "lfb-micro-averaged"], "precision"]
    ] == [0.406, 0.4, 0.395]
    assert [paper_round(v, 3) for v in t.loc[["macro-averaged", "micro-averaged", "lfb-micro-averaged"], "recall"]] == [
        0.457,
        0.4,
        0.579,
    ]
    assert list(t["f_test"].iloc[:4]) == pytest.approx([0.25, 0.25, 0.35, 0.15])
    assert list(t["f_train"].iloc[:4]) == [0.1, 0.2, 0.3, 0.4]
    assert "lfb-micro-averaged" not in averaging_table(TABLE2).index
    # per-label 0/0 under "skip" is shown as NaN, under "zero" as 0 (Table 6 prints 0)
    table6 = {"A": Counts(1, 0, 1), "B": Counts(0, 1, 0), "C": Counts(0, 1, 0)}
    assert averaging_table(table6).loc["B", "recall"] == 0.0
    assert math.isnan(averaging_table(table6, undefined="skip").loc["B", "recall"])


def test_training_frequencies_keep_an_absent_label():
    # notebook 05 §4: file 2 with the training label set {A, B, C} and f_train = (0.4, 0.4, 0.2):
    # C's F is 0/0; "zero" -> 0.4*0.9 + 0.4*0.9 + 0.2*0 = 0.72, "skip" -> renormalised 0.9, "nan" -> NaN
    file2 = {"A": Counts(9, 1, 1), "B": Counts(9, 1, 1), "C": Counts(0, 0, 0)}
    f = {"A": 0.4, "B": 0.4, "C": 0.2}
    assert close(average_scores(file2, average="lfb", frequencies=f).mean_f, 0.72)
    assert close(average_scores(file2, average="lfb", frequencies=f, undefined="skip").mean_f, 0.9)
    assert math.isnan(average_scores(file2, average="lfb", frequencies=f, undefined="nan").mean_f)
    assert close(average_scores(file2, average="lfb", frequencies="test", undefined="raise").mean_f, 0.9)
