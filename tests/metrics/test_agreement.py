"""matthews_corrcoef, balanced_accuracy and cohen_kappa against scikit-learn on labels as users hold them (strings
whose positive sorts first, pandas string columns, numpy ints in lists, cross-validated predictions), weighted, at
the ends of the float range, and their 0/0 policies."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm

import apples
from apples.metrics import balanced_accuracy, cohen_kappa, matthews_corrcoef

OURS_AND_THEIRS = [
    (matthews_corrcoef, skm.matthews_corrcoef),
    (balanced_accuracy, skm.balanced_accuracy_score),
    (cohen_kappa, skm.cohen_kappa_score),
]


def _theirs(f, y, p, w=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "y_pred contains classes not in y_true"
        return f(y, p, sample_weight=w)


def _data(seed: int, n: int, q: int):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, q, n)
    p = np.where(rng.random(n) < 0.6, y, rng.integers(0, q, n))
    return y, p, rng.random(n) * 4


@pytest.mark.parametrize("q", [2, 3, 6])
@pytest.mark.parametrize("seed", [0, 1])
def test_equal_scikit_learn_binary_and_multiclass_weighted_or_not(q, seed):
    y, p, w = _data(seed, 300, q)
    for ours, theirs in OURS_AND_THEIRS:
        assert ours(y, p) == pytest.approx(_theirs(theirs, y, p), rel=1e-12, abs=1e-15)
        assert ours(y, p, sample_weight=w) == pytest.approx(_theirs(theirs, y, p, w), rel=1e-10, abs=1e-14)


def test_integer_weights_are_repeated_rows():
    y, p, _ = _data(3, 120, 4)
    w = np.random.default_rng(9).integers(0, 4, y.size)
    rows = np.repeat(np.arange(y.size), w)
    for ours, _ in OURS_AND_THEIRS:
        assert ours(y, p, sample_weight=w) == pytest.approx(ours(y[rows], p[rows]), rel=1e-13)


def test_labels_as_users_hold_them():
    """Strings whose positive sorts first ("bad" < "good"), a pandas string column, numpy ints in a list: the same
    values as the 0/1 codes (none of these measures depends on which label is positive or on the names)."""
    y, p, w = _data(4, 200, 2)
    names = np.array(["good", "bad"])  # code 0 -> "good", 1 -> "bad"
    ys, ps = names[y], names[p]
    as_series = pd.Series(ys, dtype="string"), pd.Series(ps, dtype="string")
    np_ints = [np.int64(v) for v in y], [np.int64(v) for v in p]
    for ours, theirs in OURS_AND_THEIRS:
        expected = _theirs(theirs, y, p, w)
        assert ours(ys, ps, sample_weight=w) == pytest.approx(expected, rel=1e-12)
        assert ours(*as_series, sample_weight=pd.Series(w)) == pytest.approx(expected, rel=1e-12)
        assert ours(*np_ints, sample_weight=list(w)) == pytest.approx(expected, rel=1e-12)
        assert ours(ys, ps, labels=["good", "bad", "ugly"], sample_weight=w) == pytest.approx(expected, rel=1e-12)


def test_cross_validated_predictions_as_a_user_gets_them():
    from sklearn.datasets import load_iris
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold

    X, y = load_iris(return_X_y=True)
    names = np.array(["virginica?", "setosa", "versicolor"])[y]  # string labels, not in code order
    model = LogisticRegression(max_iter=200)
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    pred = apples.cross_val_predictions(model, X, names, cv=cv, method="predict")
    for ours, theirs in OURS_AND_THEIRS:
        assert ours(pred.y_true, pred.y_pred, labels=pred.labels) == pytest.approx(
            _theirs(theirs, pred.y_true, pred.y_pred), rel=1e-12
        )


def test_balanced_accuracy_leaves_out_a_label_that_is_only_predicted():
    # "c" is predicted but never true: scikit-learn drops it (with a warning), as Brodersen's mean over classes
    y, p = ["a", "a", "b", "b"], ["a", "c", "b", "b"]
    assert balanced_accuracy(y, p) == (1 / 2 + 1) / 2 == _theirs(skm.balanced_accuracy_score, y, p)


def test_matthews_zero_by_zero_policies():
    y, p = ["x", "x", "x"], ["x", "y", "x"]  # one true label: a constant row margin
    assert matthews_corrcoef(y, p) == 0.0 == _theirs(skm.matthews_corrcoef, y, p)
    assert np.isnan(matthews_corrcoef(y, p, undefined="nan"))
    with pytest.raises(apples.UndefinedMetricError, match="Matthews"):
        matthews_corrcoef(y, p, undefined="raise")
    with pytest.raises(ValueError, match="undefined"):
        matthews_corrcoef(y, p, undefined="skip")


def test_kappa_zero_by_zero_policies():
    y = p = ["x", "x"]  # p_e = 1
    assert np.isnan(_theirs(skm.cohen_kappa_score, y, p))
    assert np.isnan(cohen_kappa(y, p, undefined="nan"))
    with pytest.raises(apples.UndefinedMetricError, match="kappa"):
        cohen_kappa(y, p)
    with pytest.raises(ValueError, match="undefined"):
        cohen_kappa(y, p, undefined="zero")
    # all wrong but balanced: defined and negative, as scikit-learn
    assert cohen_kappa([0, 1], [1, 0]) == -1.0 == _theirs(skm.cohen_kappa_score, [0, 1], [1, 0])


@pytest.mark.parametrize("scale", [1e-300, 1e300])
def test_weights_times_any_scale_give_the_same_values(scale):
    y, p, w = _data(6, 200, 3)
    for ours, theirs in OURS_AND_THEIRS:
        assert ours(y, p, sample_weight=w * scale) == pytest.approx(ours(y, p, sample_weight=w), rel=1e-12)
        assert ours(y, p, sample_weight=w) == pytest.approx(_theirs(theirs, y, p, w), rel=1e-10)


@pytest.mark.parametrize("value", [5e-324, 1e308])
def test_equal_weights_at_the_float_limits_give_the_unweighted_values(value):
    """scikit-learn's sums of 1e308 overflow (its MCC and kappa are NaN there): compared with unit weights."""
    y, p, _ = _data(7, 200, 3)
    w = np.full(y.size, value)
    for ours, _ in OURS_AND_THEIRS:
        assert ours(y, p, sample_weight=w) == pytest.approx(ours(y, p), rel=1e-12)


def test_weights_cast_as_scikit_learn_casts_them_and_refused_by_name():
    y, p, _ = _data(8, 40, 3)
    mask = np.random.default_rng(1).random(y.size) < 0.5
    for ours, theirs in OURS_AND_THEIRS:
        expected = _theirs(theirs, y, p, mask.astype(float))
        assert ours(y, p, sample_weight=mask) == pytest.approx(expected, rel=1e-12)  # bools: 0/1
        objects = np.array([int(v) for v in mask], dtype=object)  # an object array of Python ints
        assert ours(y, p, sample_weight=objects) == pytest.approx(expected, rel=1e-12)
        for bad, error, words in [
            (np.zeros(y.size), ValueError, "every sample weight is 0"),
            (np.r_[-1.0, np.ones(y.size - 1)], ValueError, "non-negative"),
            (np.r_[np.nan, np.ones(y.size - 1)], ValueError, "NaN"),
            (np.r_[np.inf, np.ones(y.size - 1)], ValueError, "infinite"),
            (np.array(["1"] * y.size, dtype=object), TypeError, "numbers"),
        ]:
            with pytest.raises(error, match=words) as info:
                ours(y, p, sample_weight=bad)
            assert info.value.param == "sample_weight"


def test_labels_must_cover_the_data_and_be_of_its_kind():
    with pytest.raises(ValueError, match="not in labels") as info:
        matthews_corrcoef(["a", "b"], ["a", "c"], labels=["a", "b"])
    assert info.value.param == "labels"
    with pytest.raises(TypeError, match="labels"):
        cohen_kappa([0, 1], [1, 0], labels=["0", "1"])
    with pytest.raises(ValueError, match="empty") as info:
        balanced_accuracy([], [])
    assert info.value.param == "y_true"
    with pytest.raises(TypeError, match="mix of label types"):
        balanced_accuracy([0, 1], ["0", "1"])
