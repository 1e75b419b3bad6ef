"""label_counts: the vectorised paths (single-label arrays by binary search, plain multi-label lists) give the
counts of the general path and of scikit-learn's multilabel_confusion_matrix."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import multilabel_confusion_matrix
from sklearn.preprocessing import MultiLabelBinarizer

import apples


def _as_tuple(counts):
    return {k: (c.tp, c.fp, c.fn, c.tn) for k, c in counts.items()}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_single_label_strings_equal_scikit_learn(seed):
    rng = np.random.default_rng(seed)
    names = np.array([f"c{i}" for i in range(40)])
    y_true = names[rng.integers(0, 35, 2000)]
    y_pred = np.where(rng.random(2000) < 0.6, y_true, names[rng.integers(5, 40, 2000)])
    ours = apples.label_counts(y_true, y_pred)
    mcm = multilabel_confusion_matrix(y_true, y_pred, labels=list(ours))
    assert [(c.tn, c.fp, c.fn, c.tp) for c in ours.values()] == [tuple(m.ravel().tolist()) for m in mcm]
    assert _as_tuple(ours) == _as_tuple(apples.label_counts(y_true.tolist(), y_pred.tolist()))
    extra = [*ours, "zz"]
    assert apples.label_counts(y_true, y_pred, labels=extra)["zz"] == apples.Counts(0, 0, 0, 2000)


@pytest.mark.parametrize("dedup", [False, True])
def test_plain_multilabel_lists_equal_the_general_path_and_scikit_learn(dedup):
    rng = np.random.default_rng(3)
    names = [f"t{i}" for i in range(12)]
    gold = [[names[j] for j in rng.integers(0, 12, rng.integers(0, 4))] for _ in range(500)]
    pred = [[names[j] for j in rng.integers(0, 12, rng.integers(0, 4))] for _ in range(500)]
    fast = apples.label_counts(gold, pred, deduplicate=dedup)
    general = apples.label_counts(
        [np.array(g, dtype=object) for g in gold], [np.array(p, dtype=object) for p in pred], deduplicate=dedup
    )
    assert _as_tuple(fast) == _as_tuple(general)
    if dedup:
        mlb = MultiLabelBinarizer(classes=list(fast))
        mcm = multilabel_confusion_matrix(mlb.fit_transform(gold), mlb.transform(pred))
        assert [(c.fp, c.fn, c.tp) for c in fast.values()] == [(m[0][1], m[1][0], m[1][1]) for m in mcm.tolist()]
    ints = apples.label_counts(
        [[names.index(x) for x in g] for g in gold], [[names.index(x) for x in p] for p in pred], deduplicate=dedup
    )
    assert {names[k]: v for k, v in _as_tuple(ints).items()} == _as_tuple(fast)


def test_duplicates_and_label_set_follow_van_asch():
    assert apples.label_counts([["A"]], [["A", "A", "A"]]) == {"A": apples.Counts(1, 2, 0, 0)}
    out = apples.label_counts([["A"], ["B"]], [["A"], []], labels=["B", "A", "C"])
    assert list(out) == ["B", "A", "C"] and out["C"] == apples.Counts(0, 0, 0, 2)
    with pytest.raises(ValueError, match="not in labels="):
        apples.label_counts([["A"], ["B"]], [["A"], []], labels=["A"])


def test_sparse_tables_give_the_counts_and_split_matrix_of_dense_ones(monkeypatch):
    """Beyond DENSE_CELLS the instance-by-label tables are sparse: the same numbers, memory by occurrences."""
    import apples._kernels.labels as kernels

    rng = np.random.default_rng(4)
    names = [f"t{i}" for i in range(9)]
    gold = [[names[j] for j in rng.integers(0, 9, rng.integers(0, 4))] for _ in range(300)]
    pred = [[names[j] for j in rng.integers(0, 9, rng.integers(0, 4))] for _ in range(300)]
    for kw in ({}, {"deduplicate": True}, {"empty": "label"}):
        dense = apples.label_counts(gold, pred, **kw), apples.split_confusion_matrix(gold, pred, **kw)
        monkeypatch.setattr(kernels, "DENSE_CELLS", 0)
        sparse = apples.label_counts(gold, pred, **kw), apples.split_confusion_matrix(gold, pred, **kw)
        monkeypatch.undo()
        assert dense[0] == sparse[0]
        assert dense[1].labels == sparse[1].labels
        np.testing.assert_allclose(dense[1].row_values, sparse[1].row_values, rtol=0, atol=1e-12)
        np.testing.assert_allclose(dense[1].column_values, sparse[1].column_values, rtol=0, atol=1e-12)


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, "mixed"])
@pytest.mark.parametrize("dedup", [False, True])
def test_numpy_integer_labels_equal_python_ints_and_scikit_learn(dtype, dedup):
    """Label lists of numpy integers (as rng.choice makes them) take the vectorised path: the counts of the same
    labels as Python ints, of the general path (object arrays), and of MultiLabelBinarizer; keys are Python ints."""
    rng = np.random.default_rng(5)
    gold = [rng.choice(12, rng.integers(0, 4)).tolist() for _ in range(400)]
    pred = [rng.choice(12, rng.integers(0, 4)).tolist() for _ in range(400)]

    def cast(rows):
        if dtype == "mixed":  # numpy and Python integers side by side
            return [[np.int16(x) if i % 2 else x for i, x in enumerate(r)] for r in rows]
        return [list(np.array(r, dtype=dtype)) for r in rows]

    from apples.metrics._label_counting import LABEL_DATA

    rows = cast(gold)
    checked = LABEL_DATA.check("y_true", rows).items
    assert all(a is b for a, b in zip(checked, rows, strict=True))  # the vectorised path keeps the lists
    expected = apples.label_counts(gold, pred, deduplicate=dedup)
    ours = apples.label_counts(cast(gold), cast(pred), deduplicate=dedup)
    assert all(type(k) is int for k in ours)
    assert _as_tuple(ours) == _as_tuple(expected)
    general = apples.label_counts(
        [np.array(g, dtype=object) for g in cast(gold)],
        [np.array(p, dtype=object) for p in cast(pred)],
        deduplicate=dedup,
    )
    assert _as_tuple(ours) == _as_tuple(general)
    mlb = MultiLabelBinarizer(classes=list(ours))
    mcm = multilabel_confusion_matrix(mlb.fit_transform([set(g) for g in gold]), mlb.transform([set(p) for p in pred]))
    if dedup:  # scikit-learn counts sets
        assert [(c.fp, c.fn, c.tp) for c in ours.values()] == [(m[0][1], m[1][0], m[1][1]) for m in mcm.tolist()]
    with_labels = apples.label_counts(cast(gold), cast(pred), labels=[*range(15)], deduplicate=dedup)
    assert list(with_labels) == list(range(15)) and with_labels[14] == apples.Counts(0, 0, 0, with_labels[14].tn)
    assert apples.metrics.label_frequencies(cast(gold)) == apples.metrics.label_frequencies(gold)


def test_integer_labels_beyond_int64_and_mixed_types_keep_their_meaning():
    big = 2**64 + 1  # beyond int64: counted by dictionary look-up
    # Van Asch §5.1 by hand: tn = gold occurrences of the other labels - fp = 1 for both labels
    assert apples.label_counts([[big, 1]], [[big]]) == {1: apples.Counts(0, 0, 1, 1), big: apples.Counts(1, 0, 0, 1)}
    assert apples.label_counts([[np.uint64(2**64 - 1)]], [[np.uint64(2**64 - 1)]]) == {
        2**64 - 1: apples.Counts(1, 0, 0, 0)
    }
    with pytest.raises(TypeError, match="mix of label types"):
        apples.label_counts([[np.int64(1)]], [["a"]])
    with pytest.raises(TypeError):
        apples.label_counts([[np.int64(1), "a"]], [[1]])
    # bools are not integers here: the general path (one type, "number") still counts them
    assert apples.label_counts([[True]], [[True, False]])[True] == apples.Counts(1, 0, 0, 0)
