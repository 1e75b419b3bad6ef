"""CVPredictions of multi-label data: the forms it takes, checked once, and what it refuses."""

from __future__ import annotations

import numpy as np
import pytest

from apples.cv import CVPredictions

FOLDS = [0, 0, 1, 1]
T = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 1]])
P = np.array([[1, 0, 0], [0, 1, 1], [1, 0, 0], [0, 0, 1]])


def test_indicator_with_and_without_labels():
    p = CVPredictions(T, folds=FOLDS, y_pred=P)
    assert p.task == "multilabel" and p.labels == [0, 1, 2] and p.pos_label is None
    q = CVPredictions(T, folds=FOLDS, y_pred=P, labels=["x", "y", "z"])
    assert q.labels == ["x", "y", "z"]
    assert q.y_true.dtype == bool and q.y_true.astype(int).tolist() == T.tolist()
    columns = ["fold", "y_true_x", "y_true_y", "y_true_z", "y_pred_x", "y_pred_y", "y_pred_z"]
    assert list(q.to_frame().columns) == columns


def test_label_sets_sorted_union_duplicates_counted_once():
    p = CVPredictions([("b", "a"), {"c"}, [], ["a", "a"]], folds=FOLDS, y_pred=[["a"], ["c"], ["b"], []])
    assert p.labels == ["a", "b", "c"]
    assert p.y_true.astype(int).tolist() == [[1, 1, 0], [0, 0, 1], [0, 0, 0], [1, 0, 0]]
    assert repr(p) == "<CVPredictions multilabel, 3 labels: 4 rows, 2 folds (k-fold)>"


def test_a_pandas_frame_is_an_indicator():
    pd = pytest.importorskip("pandas")
    p = CVPredictions(pd.DataFrame(T), folds=FOLDS, y_pred=pd.DataFrame(P), labels=["x", "y", "z"])
    assert p.y_pred.astype(int).tolist() == P.tolist()


@pytest.mark.parametrize(
    ("kwargs", "param", "match"),
    [
        ({"y_true": T, "y_pred": [0, 1, 0, 1]}, "y_pred", "holds one label per case"),
        ({"y_true": T, "y_pred": P[:, :2]}, "y_pred", "3 label columns and y_pred 2"),
        ({"y_true": T, "y_pred": P, "labels": ["x", "y"]}, "labels", "2 labels, but the indicator array has 3"),
        ({"y_true": [["a"], ["b"], [], ["a"]], "y_pred": [["a"], ["q"], [], []], "labels": ["a", "b"]}, "labels", "q"),
        ({"y_true": T, "y_pred": [["a"], ["b"], [], ["a"]]}, "labels", "mix an indicator array and label sets"),
        ({"y_true": T, "y_pred": P, "pos_label": 1}, "pos_label", "binary"),
        ({"y_true": T, "y_pred": P, "y_score": np.zeros(4)}, "y_score", "one column per label"),
        ({"y_true": T * 2, "y_pred": P}, "y_true", r"y_true\[0, 0\] is 2"),
        ({"y_true": T, "y_score": np.zeros((4, 3))}, "y_pred", "need y_pred"),
        ({"y_true": [["a"], "b", [], ["a"]], "y_pred": [["a"], ["b"], [], []]}, "y_true", "mixes label sets"),
        ({"y_true": [[], [], [], []], "y_pred": [[], [], [], []]}, "labels", "no label at all"),
        ({"y_true": [["a"], [None], [], ["a"]], "y_pred": [["a"], ["b"], [], []]}, "y_true", r"y_true\[1\]"),
        ({"y_true": [["a"], [1.5], [], ["a"]], "y_pred": [["a"], ["b"], [], []]}, "y_true", "continuous"),
        ({"y_true": [["a"], ["b"], [], ["a"]], "y_pred": [[1], [2], [], []]}, "y_pred", "one kind"),
    ],
)
def test_refused_naming_the_argument(kwargs, param, match):
    with pytest.raises((ValueError, TypeError), match=match) as err:
        CVPredictions(folds=FOLDS, **kwargs)
    assert getattr(err.value, "param", None) == param


def test_unequal_lengths_refused():
    with pytest.raises(ValueError, match="inconsistent lengths"):
        CVPredictions(T, folds=FOLDS, y_pred=P[:3])


def test_fold_counts_is_binary_only():
    with pytest.raises(ValueError, match="binary"):
        CVPredictions(T, folds=FOLDS, y_pred=P).fold_counts()


def test_compare_takes_multilabel_predictions_with_multilabel_measures():
    """Multi-label predictions are compared on the multi-label measures (never a binary 'accuracy' of label counts)."""
    import apples

    a = CVPredictions(T, folds=FOLDS, y_pred=P)
    b = CVPredictions(T, folds=FOLDS, y_pred=1 - P)
    result = apples.compare(a, b, undefined="nan")
    assert set(result.measures) == {"mean_f:macro:pooled", "mean_f:micro:pooled", "subset_accuracy:pooled",
                                    "hamming_loss:pooled"}  # fmt: skip
    with pytest.raises(ValueError, match="multilabel") as err:
        apples.compare(a, b, measures=["accuracy"])
    assert err.value.param == "measures"
