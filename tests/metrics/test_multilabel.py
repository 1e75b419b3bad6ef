"""Tests for apples.multilabel: Van Asch (2013) §5, Tables 6 and 7.

Expected values: the paper's tables and examples, hand counts, and
scikit-learn's multilabel_confusion_matrix as an independent counter.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix, multilabel_confusion_matrix
from sklearn.preprocessing import MultiLabelBinarizer

from apples import Counts
from apples.metrics.averaging import frequencies_from_counts
from apples.metrics.multilabel import (
    NONE_LABEL,
    UNMATCHED,
    label_counts,
    label_frequencies,
    labels_from_confusion_matrix,
    split_confusion_matrix,
)

GOLD_55 = [["A"], ["A"]]  # Van Asch §5.5
PRED_55 = [["B", "C"], ["A"]]


# --- Table 6 and 7 ---------------------------------------------------------------------------------
def test_table6_counts():
    counts = label_counts(GOLD_55, PRED_55)
    # Table 6: label tp fp fn tn
    assert counts == {
        "A": Counts(1, 0, 1, 0),
        "B": Counts(0, 1, 0, 1),
        "C": Counts(0, 1, 0, 1),
    }
    total = sum(counts.values())
    assert total == Counts(1, 2, 1, 2)  # Table 6, row "total"
    # precision / recall columns: A 1 / 0.5, B 0 / 0, C 0 / 0 (B and C recall are 0/0, printed 0)
    a = counts["A"]
    assert a.tp / (a.tp + a.fp) == 1 and a.tp / (a.tp + a.fn) == 0.5
    assert counts["B"].tp == 0 and counts["B"].tp + counts["B"].fn == 0


def test_table7_split_matrix():
    m = split_confusion_matrix(GOLD_55, PRED_55)
    assert m.labels == ["A", "B", "C"]
    # Table 7: cell {A,B} and {A,C} are "1\0.5" = column value 1, row value 0.5
    np.testing.assert_array_equal(m.column_values, [[1, 1, 1], [0, 0, 0], [0, 0, 0]])
    np.testing.assert_array_equal(m.row_values, [[1, 0.5, 0.5], [0, 0, 0], [0, 0, 0]])
    # row totals = gold occurrences (A 2, B 0, C 0), column totals = predicted occurrences (1, 1, 1)
    np.testing.assert_array_equal(m.row_values.sum(axis=1), [2, 0, 0])
    np.testing.assert_array_equal(m.column_values.sum(axis=0), [1, 1, 1])
    # corner "3\2": 3 predicted, 2 gold occurrences
    assert m.column_values.sum() == 3 and m.row_values.sum() == 2
    frame = m.to_frame()
    assert frame.loc["A", "B"] == "1\\0.5" and frame.loc["A", "C"] == "1\\0.5"
    assert frame.loc["Σ", "Σ"] == "3\\2" and frame.loc["A", "Σ"] == "2"
    assert list(frame.loc["Σ"]) == ["1", "1", "1", "3\\2"]


def test_double_predictions_54():
    # §5.4: gold [A], predicted [A A A] -> 1 tp, 2 fp; deduplicated -> a single tp
    c = label_counts([["A"]], [["A", "A", "A"]])["A"]
    assert (c.tp, c.fp, c.fn) == (1, 2, 0)
    # §5.1 tn = (occurrences not A = 0) - fp (2) = -2 < 0: reported as 0 (documented clipping)
    assert c.tn == 0
    d = label_counts([["A"]], [["A", "A", "A"]], deduplicate=True)["A"]
    assert (d.tp, d.fp, d.fn, d.tn) == (1, 0, 0, 0)
    # duplicated gold, symmetric: gold [A A] predicted [A] -> tp 1, fn 1
    e = label_counts([["A", "A"]], [["A"]])["A"]
    assert (e.tp, e.fp, e.fn) == (1, 0, 1)


def test_double_predictions_split_matrix():
    m = split_confusion_matrix([["A"]], [["A", "A", "A"]])
    assert m.labels == ["A", UNMATCHED]
    # column A = predicted occurrences 3; row A = gold occurrences 1
    assert m.column_values[:, 0].sum() == 3 and m.row_values[0].sum() == 1
    # by hand: one matched A on the diagonal; the 2 extra predicted A have no unmatched gold label, so they
    # are crossed with the UNMATCHED row: 2 cells' worth of 1/n_p = 1/2 each towards the row (1 in all),
    # 1/n_g = 1 each towards the column (2 in all)
    np.testing.assert_array_equal(m.row_values, [[1, 0], [1, 0]])
    np.testing.assert_array_equal(m.column_values, [[1, 0], [2, 0]])


def test_unmatched_row_and_column_by_hand():
    # notebook 05 §5: gold [A B] predicted [A] leaves gold B without a partner (column UNMATCHED);
    # gold [C] predicted [A C] leaves predicted A without one (row UNMATCHED). Hand-filled matrix.
    m = split_confusion_matrix([["A", "B"], ["C"]], [["A"], ["A", "C"]])
    assert m.labels == ["A", "B", "C", UNMATCHED]
    expected = [[1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0], [1, 0, 0, 0]]
    np.testing.assert_array_equal(m.row_values, expected)
    np.testing.assert_array_equal(m.column_values, expected)
    # rows: gold occurrences A 1, B 1, C 1; columns: predicted occurrences A 2, B 0, C 1
    np.testing.assert_array_equal(m.row_values.sum(axis=1)[:3], [1, 1, 1])
    np.testing.assert_array_equal(m.column_values.sum(axis=0)[:3], [2, 0, 1])
    assert m.row_values[:, 3].sum() + m.row_values[3].sum() == 2  # B's fn + A's fp, never a tp


def test_empty_predictions_macro_values_by_hand():
    # notebook 05 §5.3 example. empty="ignore": A (tp 2) P = R = F = 1; B (fp 1, fn 1) 0; C (fn 2) P 0/0 -> 0,
    # R 0, F 0 -> macro P = R = F = 1/3. empty="label": NONE tp 1 (instance 3), fp 1 (instance 2), fn 0:
    # P 1/2, R 1, F 2/3 -> macro P = 1.5/4, R = 2/4, F = (5/3)/4.
    from apples import average_scores

    gold = [["A"], ["B"], [], ["C"], ["A", "C"]]
    pred = [["A"], [], [], ["B"], ["A"]]
    ignore = average_scores(label_counts(gold, pred), average="macro")
    assert ignore.precision == pytest.approx(1 / 3) and ignore.recall == pytest.approx(1 / 3)
    assert ignore.mean_f == pytest.approx(1 / 3)
    as_label = label_counts(gold, pred, empty="label")
    none = as_label[NONE_LABEL]
    # §5.1 tn: 6 gold occurrences (A, B, NONE, C, A, C), 5 are not NONE, minus fp 1
    assert (none.tp, none.fp, none.fn, none.tn) == (1, 1, 0, 4)
    s = average_scores(as_label, average="macro")
    assert s.precision == pytest.approx(1.5 / 4) and s.recall == pytest.approx(0.5)
    assert s.mean_f == pytest.approx((1 + 2 / 3) / 4)


def test_empty_predictions_53():
    gold = [["A"], ["B"], [], ["A", "C"]]
    pred = [[], ["B"], [], ["A"]]
    ignore = label_counts(gold, pred)
    assert list(ignore) == ["A", "B", "C"]
    assert (ignore["A"].tp, ignore["A"].fp, ignore["A"].fn) == (1, 0, 1)
    assert (ignore["C"].tp, ignore["C"].fp, ignore["C"].fn) == (0, 0, 1)
    as_label = label_counts(gold, pred, empty="label")
    assert list(as_label) == ["A", "B", "C", NONE_LABEL]
    # NONE: gold empty & predicted empty (instance 3) = tp; predicted empty, gold [A] = fp
    none = as_label[NONE_LABEL]
    assert (none.tp, none.fp, none.fn) == (1, 1, 0)
    # the other labels are unchanged
    for k in "ABC":
        assert (as_label[k].tp, as_label[k].fp, as_label[k].fn) == (ignore[k].tp, ignore[k].fp, ignore[k].fn)
    # §5.3: macro over [A B C] divides by 3, over [A B C NONE] by 4
    assert len(ignore) == 3 and len(as_label) == 4


def test_tn_single_label_is_standard():
    t = ["a", "b", "c", "a", "b", "a"]
    p = ["a", "c", "c", "b", "b", "a"]
    counts = label_counts(t, p)
    for lab, c in counts.items():
        tb = np.array(t) == lab
        pb = np.array(p) == lab
        assert c == Counts(int(np.sum(tb & pb)), int(np.sum(~tb & pb)), int(np.sum(tb & ~pb)), int(np.sum(~tb & ~pb)))


def test_labels_argument_adds_absent_labels_in_order():
    counts = label_counts([1, 2, 2], [1, 1, 2], labels=[3, 2, 1])
    assert list(counts) == [3, 2, 1]
    assert counts[3] == Counts(0, 0, 0, 3)
    assert all(type(k) is int for k in label_counts(np.array([1, 2]), np.array([2, 1])))


def test_label_frequencies():
    assert label_frequencies(["a", "b", "b", "b"], labels=["a", "b", "c"]) == {"a": 0.25, "b": 0.75, "c": 0.0}
    # multi-label: share of occurrences (3 A, 1 B)
    assert label_frequencies([["A", "B"], ["A"], ["A"]]) == {"A": 0.75, "B": 0.25}
    # a duplicated label is two occurrences (§5.4), as in label_counts and frequencies_from_counts
    dup = [["A", "A"], ["B"]]
    assert label_frequencies(dup) == {"A": 2 / 3, "B": 1 / 3}
    assert label_frequencies(dup) == frequencies_from_counts(label_counts(dup, dup))
    with pytest.raises(ValueError, match="no label occurrence"):
        label_frequencies([[], []], labels=["a"])


def test_labels_from_confusion_matrix_roundtrip():
    m = np.array([[3, 4, 1, 2], [1, 1, 5, 3], [1, 3, 6, 4], [0, 0, 0, 6]])
    t, p = labels_from_confusion_matrix(m, ["c1", "c2", "c3", "c4"])
    np.testing.assert_array_equal(confusion_matrix(t, p, labels=["c1", "c2", "c3", "c4"]), m)
    with pytest.raises(ValueError, match="square"):
        labels_from_confusion_matrix([[1, 2, 3]])
    with pytest.raises(ValueError, match=r"matrix\[0, 1\]"):
        labels_from_confusion_matrix([[1, -2], [0, 1]])
    with pytest.raises(TypeError, match=r"matrix\[0, 0\]"):
        labels_from_confusion_matrix([[1.5, 2], [0, 1]])
    with pytest.raises(ValueError, match="labels has 3 entries"):
        labels_from_confusion_matrix([[1, 2], [0, 1]], ["a", "b", "c"])


# --- cross-checks against scikit-learn ---------------------------------------------------------------
@pytest.mark.parametrize("seed", range(5))
def test_single_label_counts_match_sklearn(seed):
    rng = np.random.default_rng(seed)
    q = int(rng.integers(2, 7))
    labels = list(range(q + 1))  # the last label never occurs
    t = rng.integers(0, q, size=200)
    p = rng.integers(0, q, size=200)
    counts = label_counts(t, p, labels=labels)
    mcm = multilabel_confusion_matrix(t, p, labels=labels)  # [[tn, fp], [fn, tp]] per label
    for k, lab in enumerate(labels):
        (tn, fp), (fn, tp) = mcm[k]
        assert counts[lab] == Counts(int(tp), int(fp), int(fn), int(tn))


@pytest.mark.parametrize("seed", range(5))
def test_multilabel_counts_match_sklearn(seed):
    rng = np.random.default_rng(100 + seed)
    labels = ["a", "b", "c", "d", "e"]
    n = 150
    gold = [sorted(set(rng.choice(labels, size=rng.integers(0, 4)).tolist())) for _ in range(n)]
    pred = [sorted(set(rng.choice(labels, size=rng.integers(0, 4)).tolist())) for _ in range(n)]
    counts = label_counts(gold, pred, labels=labels, multilabel=True)
    mlb = MultiLabelBinarizer(classes=labels)
    mcm = multilabel_confusion_matrix(mlb.fit_transform(gold), mlb.transform(pred))
    for k, lab in enumerate(labels):
        (_, fp), (fn, tp) = mcm[k]
        assert (counts[lab].tp, counts[lab].fp, counts[lab].fn) == (tp, fp, fn)


# --- properties ------------------------------------------------------------------------------------
LAB = st.sampled_from(["A", "B", "C", "D"])
INSTANCE = st.lists(LAB, max_size=4)


@given(
    st.lists(st.tuples(INSTANCE, INSTANCE), min_size=1, max_size=12).filter(lambda ps: any(g or p for g, p in ps)),
    st.booleans(),
    st.sampled_from(["ignore", "label"]),
)
def test_split_matrix_margins(pairs, dedup, empty):
    gold = [g for g, _ in pairs]
    pred = [p for _, p in pairs]
    counts = label_counts(gold, pred, deduplicate=dedup, empty=empty)
    m = split_confusion_matrix(gold, pred, deduplicate=dedup, empty=empty)
    for lab, c in counts.items():
        i = m.labels.index(lab)
        # §5.2: row totals = gold occurrences, column totals = predicted occurrences, diagonal = tp
        assert m.row_values[i].sum() == pytest.approx(c.tp + c.fn)
        assert m.column_values[:, i].sum() == pytest.approx(c.tp + c.fp)
        assert m.row_values[i, i] == m.column_values[i, i] == c.tp


@given(st.lists(st.tuples(INSTANCE.filter(bool), INSTANCE), min_size=1, max_size=12))
def test_tn_formula_without_duplicates(pairs):
    # non-empty gold and no duplicates: the §5.1 tn is never negative, and equals its definition
    gold = [sorted(set(g)) for g, _ in pairs]
    pred = [sorted(set(p)) for _, p in pairs]
    counts = label_counts(gold, pred)
    occurrences = sum(len(g) for g in gold)
    for lab, c in counts.items():
        not_lab = sum(len(g) - (lab in g) for g in gold)
        assert not_lab == occurrences - c.tp - c.fn
        assert c.tn == not_lab - c.fp >= 0


@given(st.lists(st.tuples(LAB, LAB), min_size=1, max_size=30))
def test_single_label_equals_singleton_multilabel(pairs):
    t = [a for a, _ in pairs]
    p = [b for _, b in pairs]
    assert label_counts(t, p) == label_counts([[a] for a in t], [[b] for b in p])


# --- bad input -------------------------------------------------------------------------------------
def test_rejects_mismatched_lengths():
    with pytest.raises(ValueError, match="y_true has 2 instances, y_pred has 1"):
        label_counts(["a", "b"], ["a"])


def test_rejects_ragged_multilabel():
    with pytest.raises(ValueError, match=r"y_true is ragged.*y_true\[1\]"):
        label_counts([["a"], "b"], [["a"], ["b"]])
    with pytest.raises(ValueError, match="y_true and y_pred disagree"):
        label_counts([["a"], ["b"]], ["a", "b"])
    with pytest.raises(ValueError, match=r"multilabel=True but y_pred\[0\]"):
        label_counts([["a"]], ["a"], multilabel=True)
    with pytest.raises(ValueError, match=r"multilabel=False but y_true\[0\]"):
        label_counts([["a"]], [["a"]], multilabel=False)
    with pytest.raises(ValueError, match="nested"):
        label_counts([[["a"]]], [["a"]])
    with pytest.raises(ValueError, match="2-dimensional"):
        label_counts(np.array([[1, 0], [0, 1]]), np.array([[1, 0], [0, 1]]))
    with pytest.raises(ValueError, match="ragged"):
        split_confusion_matrix([["a"], "b"], [["a"], ["b"]])


def test_rejects_labels_missing_from_labels_argument():
    with pytest.raises(ValueError, match=r"y_pred contains label\(s\) 'c' that are not in labels="):
        label_counts(["a", "b"], ["a", "c"], labels=["a", "b"])
    with pytest.raises(ValueError, match=r"y_true contains label\(s\) 'z'"):
        label_counts([["z"]], [["a"]], labels=["a"])
    with pytest.raises(ValueError, match="duplicates"):
        label_counts(["a"], ["a"], labels=["a", "a"])
    with pytest.raises(TypeError, match="labels must be a sequence"):
        label_counts(["a"], ["a"], labels="a")


def test_rejects_bad_labels_and_options():
    with pytest.raises(ValueError, match=r"y_true\[1\] is NaN"):
        label_counts([1.0, float("nan")], [1.0, 1.0])
    with pytest.raises(ValueError, match=r"y_pred\[0\]\[0\] is None"):
        label_counts([["a"]], [[None]])
    with pytest.raises(TypeError, match="got a string"):
        label_counts("ab", "ab")
    with pytest.raises(ValueError, match="empty='bogus' is not recognised"):
        label_counts([["a"]], [["a"]], empty="bogus")
    with pytest.raises(ValueError, match="multi-label data only"):
        label_counts(["a"], ["a"], empty="label")
    with pytest.raises(ValueError, match="reserves"):
        label_counts([["NONE"]], [[]], empty="label")
    with pytest.raises(TypeError, match="deduplicate"):
        label_counts(["a"], ["a"], deduplicate="yes")
    with pytest.raises(TypeError, match="multilabel"):
        label_counts(["a"], ["a"], multilabel="auto")
    with pytest.raises(ValueError, match="no labels"):
        label_counts([], [])


@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=40))
def test_array_fast_path_equals_general_path(pairs):
    t = [a for a, _ in pairs]
    p = [b for _, b in pairs]
    fast = label_counts(np.array(t), np.array(p), labels=[0, 1, 2, 3, 4, 5])
    general = label_counts(t, p, labels=[0, 1, 2, 3, 4, 5])
    assert fast == general and list(fast) == list(general)
    assert all(type(k) is int for k in label_counts(np.array(t), np.array(p)))


def test_array_fast_path_rejections():
    with pytest.raises(ValueError, match=r"y_pred\[1\] is NaN"):
        label_counts(np.array([1.0, 2.0]), np.array([1.0, np.nan]))
    with pytest.raises(ValueError, match="y_true has 2 instances, y_pred has 3"):
        label_counts(np.array([1, 2]), np.array([1, 2, 2]))
    with pytest.raises(ValueError, match=r"y_pred contains label\(s\) 7"):
        label_counts(np.array([1, 2]), np.array([1, 7]), labels=[1, 2])
