"""log_loss and brier_score on a table of every label's probabilities, and the clipping choice eps=, against
scikit-learn (``log_loss``, ``brier_score_loss(scale_by_half=...)``) and hand calculations."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm

from apples.metrics import brier_score, log_loss


def _case(seed: int, n: int = 200, q: int = 4):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, q, n)
    p = rng.dirichlet(np.ones(q) * 2, size=n)
    return y, p, rng.random(n) * 3


@pytest.mark.parametrize("q", [3, 5])
@pytest.mark.parametrize("seed", range(3))
def test_multiclass_values_are_scikit_learns(q, seed):
    y, p, w = _case(seed, q=q)
    # no true label's probability is near 0: scikit-learn's clipping at 2.2e-16 changes nothing
    assert log_loss(y, p) == pytest.approx(skm.log_loss(y, p), rel=1e-12)
    assert log_loss(y, p, sample_weight=w) == pytest.approx(skm.log_loss(y, p, sample_weight=w), rel=1e-12)
    assert log_loss(y, p, eps="auto") == pytest.approx(skm.log_loss(y, p), rel=1e-12)
    # Brier (1950): the sum over every label, in [0, 2]; scikit-learn's default for three labels or more
    assert brier_score(y, p) == pytest.approx(skm.brier_score_loss(y, p), rel=1e-12)
    assert brier_score(y, p, sample_weight=w) == pytest.approx(skm.brier_score_loss(y, p, sample_weight=w), rel=1e-12)


def test_brier_by_hand_and_its_range():
    # case 1: label b with (1/2, 1/4, 1/4): (1/2)² + (3/4)² + (1/4)² = 7/8; case 2: label c, certain and right: 0
    p = [[0.5, 0.25, 0.25], [0.0, 0.0, 1.0]]
    assert brier_score(["b", "c"], p, labels=["a", "b", "c"]) == (7 / 8 + 0) / 2
    # certain and wrong: 1 + 1 = 2, the top of the range
    assert brier_score(["a"], [[0.0, 1.0, 0.0]], labels=["a", "b", "c"]) == 2.0


def test_two_columns_are_brier_1950_twice_the_binary_form():
    """scikit-learn's scale_by_half='auto' halves two columns (and only two); the table here is Brier's sum."""
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 100)
    p1 = rng.random(100)
    table = np.column_stack([1 - p1, p1])
    assert brier_score(y, table) == pytest.approx(skm.brier_score_loss(y, table, scale_by_half=False), rel=1e-12)
    assert brier_score(y, table) == pytest.approx(2 * brier_score(y, p1), rel=1e-12)
    assert brier_score(y, p1) == pytest.approx(skm.brier_score_loss(y, p1), rel=1e-12)  # binary: scikit-learn's
    assert brier_score(y, p1) == pytest.approx(skm.brier_score_loss(y, table), rel=1e-12)  # its "auto" halves
    assert log_loss(y, table) == pytest.approx(log_loss(y, p1), rel=1e-12)  # the log loss has no such factor


def test_labels_name_the_columns_in_the_order_given():
    """Column j is labels[j]. scikit-learn sorts labels= first: with unsorted labels the two differ, and ours is
    the one that reads the columns as named."""
    y = np.array(["spam", "ham", "eggs", "spam"])
    order = ["spam", "ham", "eggs"]  # a classifier's classes_ in some order
    p = np.array([[0.75, 0.125, 0.125], [0.25, 0.5, 0.25], [0.0, 0.5, 0.5], [0.5, 0.25, 0.25]])
    hand = -(math.log(0.75) + math.log(0.5) + math.log(0.5) + math.log(0.5)) / 4
    assert log_loss(y, p, labels=order) == pytest.approx(hand, rel=1e-14)
    # the same columns sorted ("eggs", "ham", "spam") are what scikit-learn reads
    sorted_p = p[:, [2, 1, 0]]
    assert log_loss(y, sorted_p) == pytest.approx(hand, rel=1e-14)
    assert skm.log_loss(y, sorted_p) == pytest.approx(hand, rel=1e-12)
    assert brier_score(y, p, labels=order) == pytest.approx(brier_score(y, sorted_p), rel=1e-14)
    # labels may name a label no case has (a column of probabilities for it)
    assert log_loss(pd.Series(y, dtype="string"), p, labels=order) == pytest.approx(hand, rel=1e-14)


def test_eps_none_is_infinite_float_clips_auto_is_scikit_learns():
    y = [0, 2, 1]
    p = [[0.5, 0.5, 0.0], [0.5, 0.5, 0.0], [0.25, 0.5, 0.25]]  # case 2 gives its true label 0
    assert log_loss(y, p) == math.inf
    eps64 = np.finfo(np.float64).eps
    assert log_loss(y, p, eps="auto") == pytest.approx(skm.log_loss(y, p), rel=1e-12)
    assert log_loss(y, p, eps="auto") == pytest.approx((math.log(2) - math.log(eps64) + math.log(2)) / 3, rel=1e-12)
    assert log_loss(y, p, eps=0.125) == pytest.approx((math.log(2) - math.log(0.125) + math.log(2)) / 3, rel=1e-12)
    # a certain case of weight 0 is left out, infinite or not
    assert log_loss(y, p, sample_weight=[1, 0, 1]) == pytest.approx(math.log(2), rel=1e-14)


def test_auto_reads_the_dtype_of_y_prob():
    y, p, _ = _case(3, q=3)
    p32 = p.astype(np.float32)
    p32[0, y[0]] = 0.0  # one certain mistake: clipped at float32's eps, 1.2e-7
    p32[0] = p32[0] / p32[0].sum()
    eps32 = float(np.finfo(np.float32).eps)
    ours = log_loss(y, p32, eps="auto")
    # scikit-learn computes a float32 y_prob in float32; here the log is taken in float64
    assert ours == pytest.approx(skm.log_loss(y, p32), rel=1e-6)
    clipped = np.clip(p32.astype(np.float64)[np.arange(y.size), y], eps32, 1 - eps32)
    assert ours == pytest.approx(-np.mean(np.log(clipped)), rel=1e-13)


@pytest.mark.parametrize(
    "kwargs, param, words",
    [
        ({"y_prob": [[0.5, 0.25, 0.5], [0.5, 0.25, 0.25]]}, "y_prob", "row 0 sums to 1.25"),
        ({"y_prob": [[0.5, 0.5, 0.0], [1.5, -0.25, -0.25]]}, "y_prob", "row 1, column 0"),
        ({"y_prob": [[0.5, 0.5, 0.0], [np.nan, 0.5, 0.5]]}, "y_prob", "NaN at row 1, column 0"),
        ({"y_prob": [[0.25] * 4, [0.25] * 4]}, "labels", r"2 labels \['a', 'c'\] but y_prob has 4 columns"),
        ({"y_prob": [[1.0], [1.0]]}, "y_prob", "1 column"),
        ({"labels": ["a", "b"]}, "labels", "2 labels but y_prob has 3 columns"),
        ({"labels": ["a", "b", "d"]}, "labels", "'c'"),
        ({"pos_label": "a"}, "pos_label", "one-dimensional y_prob"),
        ({"eps": 0.5}, "eps", r"\(0, 0.5\)"),
        ({"eps": "clip"}, "eps", "auto"),
    ],
)
def test_bad_tables_and_options_are_refused_naming_the_argument(kwargs, param, words):
    call = {"y_true": ["a", "c"], "y_prob": [[0.5, 0.25, 0.25], [0.0, 0.0, 1.0]], **kwargs}
    for f in (log_loss, brier_score):
        if "eps" in call and f is brier_score:
            continue
        with pytest.raises(ValueError, match=words) as info:
            f(**call)
        assert info.value.param == param


def test_labels_with_one_dimension_are_refused():
    with pytest.raises(ValueError, match="pos_label= instead") as info:
        log_loss([0, 1], [0.25, 0.75], labels=[0, 1])
    assert info.value.param == "labels"
