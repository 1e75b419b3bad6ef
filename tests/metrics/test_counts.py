"""apples.Counts: validation, pooling, constructors."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from apples import Counts, fold_counts


def test_fields_and_margins():
    c = Counts(tp=3, fp=5, fn=1, tn=367)
    assert (c.tp, c.fp, c.fn, c.tn) == (3, 5, 1, 367)
    assert c.positives == 4 and c.negatives == 372 and c.predicted_positives == 8 and c.n == 376


def test_tn_defaults_to_zero():
    assert Counts(1, 2, 3).tn == 0


def test_immutable():
    c = Counts(1, 2, 3, 4)
    with pytest.raises(AttributeError):
        c.tp = 5


def test_numpy_integers_become_python_ints():
    c = Counts(np.int64(2), np.int32(1), np.uint8(0))
    assert type(c.tp) is int and type(c.fn) is int


@pytest.mark.parametrize("field", ["tp", "fp", "fn", "tn"])
def test_negative_count_rejected_naming_the_field(field):
    kwargs = dict(tp=1, fp=1, fn=1, tn=1)
    kwargs[field] = -1
    with pytest.raises(ValueError, match=rf"^{field} must be a non-negative integer"):
        Counts(**kwargs)


@pytest.mark.parametrize("bad", [1.5, 2.0, "3", None, True, np.float64(1.0)])
@pytest.mark.parametrize("field", ["tp", "fp", "fn", "tn"])
def test_non_integer_count_rejected_naming_the_field(field, bad):
    kwargs = dict(tp=1, fp=1, fn=1, tn=1)
    kwargs[field] = bad
    with pytest.raises(TypeError, match=rf"^{field} must be a non-negative integer"):
        Counts(**kwargs)


@given(st.lists(st.tuples(*[st.integers(0, 50)] * 4), min_size=1, max_size=12))
def test_sum_pools_fieldwise(rows):
    folds = [Counts(*r) for r in rows]
    pooled = sum(folds, Counts(0, 0, 0, 0))
    assert pooled == Counts(*np.sum(rows, axis=0).tolist())
    assert sum(folds) == pooled  # builtin sum starting at 0 works too


def test_add_rejects_other_types():
    with pytest.raises(TypeError):
        (*Counts(1, 1, 1), 1, 1, 1)
    with pytest.raises(TypeError):
        5 + Counts(1, 1, 1)


def test_from_fold_matches_paper_layout():
    # Forman & Scholz Table 1, fold 4: 372 negatives, 4 positives, TP 3, FP 5
    assert Counts.from_fold(positives=4, negatives=372, tp=3, fp=5) == Counts(tp=3, fp=5, fn=1, tn=367)


def test_from_fold_rejects_tp_larger_than_positives():
    with pytest.raises(ValueError, match=r"tp=5 is larger than the number of positives \(4\)"):
        Counts.from_fold(positives=4, negatives=10, tp=5, fp=0)


def test_from_fold_rejects_fp_larger_than_negatives():
    with pytest.raises(ValueError, match=r"fp=11 is larger than the number of negatives \(10\)"):
        Counts.from_fold(positives=4, negatives=10, tp=1, fp=11)


def test_from_labels_by_hand():
    # hand count: pairs (t, p) = (1,1) (1,0) (0,1) (0,0) (0,0)
    assert Counts.from_labels([1, 1, 0, 0, 0], [1, 0, 1, 0, 0]) == Counts(tp=1, fp=1, fn=1, tn=2)


def test_from_labels_string_labels_and_positive():
    c = Counts.from_labels(["spam", "ham", "spam"], ["spam", "spam", "ham"], pos_label="spam")
    assert c == Counts(tp=1, fp=1, fn=1, tn=0)


def test_from_labels_agrees_with_sklearn_confusion_matrix():
    from sklearn.metrics import confusion_matrix

    rng = np.random.default_rng(1)
    for _ in range(20):
        t = rng.integers(0, 2, 50)
        p = rng.integers(0, 2, 50)
        tn, fp, fn, tp = confusion_matrix(t, p, labels=[0, 1]).ravel().tolist()
        assert Counts.from_labels(t, p) == Counts(tp, fp, fn, tn)


def test_from_labels_mismatched_lengths():
    with pytest.raises(ValueError, match="inconsistent lengths: y_true has 3, y_pred has 2"):
        Counts.from_labels([1, 0, 1], [1, 0])


def test_from_labels_more_than_two_labels():
    with pytest.raises(ValueError, match="3 distinct labels"):
        Counts.from_labels([0, 1, 2], [0, 1, 1])


def test_from_labels_default_positive_against_string_labels_is_a_type_error():
    with pytest.raises(TypeError, match=r"pos_label=1 is a number but the labels .* are strs"):
        Counts.from_labels(["spam", "ham"], ["ham", "ham"])


def test_from_labels_nan():
    with pytest.raises(ValueError, match="y_pred contains NaN"):
        Counts.from_labels([0.0, 1.0], [np.nan, 1.0])


def test_from_labels_two_dimensional():
    with pytest.raises(ValueError, match="y_true must be one-dimensional"):
        Counts.from_labels([[0, 1]], [[0, 1]])


def test_fold_counts_splits_by_fold_id():
    t = [1, 0, 1, 0, 1]
    p = [1, 0, 0, 1, 1]
    f = [2, 2, 0, 0, 2]
    assert fold_counts(t, p, folds=f) == [Counts(tp=0, fp=1, fn=1, tn=0), Counts(tp=2, fp=0, fn=0, tn=1)]


def test_fold_counts_mismatched_lengths():
    with pytest.raises(ValueError, match="folds has 2"):
        fold_counts([1, 0, 1], [1, 0, 1], folds=[0, 1])
