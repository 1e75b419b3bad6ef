"""roc_auc, average_precision and roc_curve with sample_weight, against scikit-learn and repeated rows; and the
weights of every weighted measure of apples.metrics at the edges (tiny, huge, all zero, bool, object, bad)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm

from apples import UndefinedMetricError
from apples.metrics import average_precision, roc_auc, roc_curve


def _case(kind: str, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    n = 150
    y = rng.integers(0, 2, n)
    s = np.round(0.3 * y + rng.random(n), 1)  # many ties
    if kind == "random":
        w = rng.random(n) * 5
    elif kind == "zeros":
        w = np.where(rng.random(n) < 0.5, 0.0, rng.random(n))
    elif kind == "huge":
        w = rng.random(n)
        w[np.argmax(s)] = 1e6
    else:
        w = rng.integers(0, 4, n).astype(float)
    return y, s, w


@pytest.mark.parametrize("kind", ["random", "zeros", "huge", "integer"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_weighted_ranking_equals_sklearn(kind: str, seed: int) -> None:
    y, s, w = _case(kind, seed)
    assert roc_auc(y, s, sample_weight=w) == pytest.approx(skm.roc_auc_score(y, s, sample_weight=w), rel=1e-9)
    assert average_precision(y, s, sample_weight=w) == pytest.approx(
        skm.average_precision_score(y, s, sample_weight=w), rel=1e-9
    )
    ours = roc_curve(y, s, sample_weight=w)
    theirs = skm.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12)


def test_integer_weights_equal_repeated_rows() -> None:
    y, s, _ = _case("random", 3)
    w = np.random.default_rng(4).integers(0, 4, y.size)
    r = np.repeat(np.arange(y.size), w)
    assert roc_auc(y, s, sample_weight=w) == pytest.approx(roc_auc(y[r], s[r]), rel=1e-13)
    assert average_precision(y, s, sample_weight=w) == pytest.approx(average_precision(y[r], s[r]), rel=1e-13)
    for a, b in zip(roc_curve(y, s, sample_weight=w), roc_curve(y[r], s[r]), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-13)


def test_weight_only_in_one_class_is_zero_by_zero() -> None:
    y = np.array([0, 1, 0, 1])
    s = np.array([0.1, 0.9, 0.4, 0.6])
    w = np.array([0.0, 1.0, 0.0, 2.0])  # no negative of positive weight
    assert np.isnan(roc_auc(y, s, sample_weight=w, undefined="nan"))
    with pytest.raises(UndefinedMetricError):
        roc_auc(y, s, sample_weight=w)
    assert np.isnan(average_precision(y, s, sample_weight=1.0 - y, undefined="nan"))
    with pytest.raises(ValueError, match="positive weight"):
        roc_curve(y, s, sample_weight=w)


def test_unweighted_unchanged_and_bad_weights_named() -> None:
    y, s, _ = _case("random", 5)
    assert roc_auc(y, s, sample_weight=np.ones(y.size)) == pytest.approx(roc_auc(y, s), rel=1e-15)
    with pytest.raises(ValueError, match="NaN at position 2") as err:
        roc_auc([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], sample_weight=[1.0, 1.0, float("nan"), 1.0])
    assert err.value.param == "sample_weight"
    with pytest.raises(ValueError, match="sample_weight"):
        average_precision([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], sample_weight=[1.0, 1.0])


# -- weights at the public edges (issue: "weights dropped or broken") ----------------------------------------------
def _edge_case() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    n = 150
    y = rng.integers(0, 2, n)
    s = np.round(0.3 * y + rng.random(n), 2)  # ties
    return y, s, np.clip(s / 1.3, 0.01, 0.99), rng.random(n) * 3


def _values(y, s, p, w) -> dict[str, object]:
    from apples.metrics import brier_score, h_measure, log_loss

    return {
        "roc_auc": roc_auc(y, s, sample_weight=w),
        "average_precision": average_precision(y, s, sample_weight=w),
        "roc_curve": np.concatenate(roc_curve(y, s, sample_weight=w)[:2]),
        "log_loss": log_loss(y, p, sample_weight=w),
        "brier_score": brier_score(y, p, sample_weight=w),
        "h_measure": h_measure(y, s, sample_weight=w),
    }


def _sklearn(y, s, p, w) -> dict[str, object]:
    fpr, tpr, _ = skm.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    return {
        "roc_auc": skm.roc_auc_score(y, s, sample_weight=w),
        "average_precision": skm.average_precision_score(y, s, sample_weight=w),
        "roc_curve": np.concatenate([fpr, tpr]),
        "log_loss": skm.log_loss(y, p, sample_weight=w),
        "brier_score": skm.brier_score_loss(y, p, sample_weight=w),
    }


def _assert_close(ours: dict, expected: dict) -> None:
    for name, value in expected.items():
        np.testing.assert_allclose(ours[name], value, rtol=1e-12, atol=1e-15, err_msg=name)


@pytest.mark.parametrize("scale", [1e-300, 1e300])
def test_weights_times_a_tiny_or_huge_scale_give_scikit_learns_values(scale):
    """Before, n_pos · n_neg underflowed for weights x 1e-300 (a NaN AUC: "y_true has only one class")."""
    y, s, p, w = _edge_case()
    ours = _values(y, s, p, w * scale)
    _assert_close(ours, _sklearn(y, s, p, w * scale))  # scikit-learn normalises before multiplying: right here
    _assert_close(ours, _values(y, s, p, w))  # h_measure has no scikit-learn peer: the unscaled value


@pytest.mark.parametrize("value", [5e-324, 1e308])
def test_equal_weights_at_the_float_limits_give_the_unweighted_values(value):
    """All 5e-324: scikit-learn's log loss and Brier score underflow (np.average of subnormal products gives
    0.5 and 0.19 on this case instead of 0.587 and 0.211). All 1e308: its sums overflow (NaN). Compared with
    unit weights, i.e. with scikit-learn unweighted."""
    y, s, p, _ = _edge_case()
    ours = _values(y, s, p, np.full(y.size, value))
    _assert_close(ours, _values(y, s, p, None))
    _assert_close(ours, _sklearn(y, s, p, None))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scikit-learn's overflow
        theirs = _sklearn(y, s, p, np.full(y.size, value))
    if value == 1e308:
        assert np.isnan(theirs["roc_auc"]) and np.isnan(theirs["log_loss"])  # what is fixed here
    else:
        assert theirs["log_loss"] != pytest.approx(ours["log_loss"], rel=1e-3)


@pytest.mark.parametrize("name", ["roc_auc", "average_precision", "roc_curve", "log_loss", "brier_score", "h_measure"])
def test_all_zero_weights_are_refused_naming_sample_weight_not_one_class(name):
    import apples.metrics as am

    y, s, p, _ = _edge_case()
    x = p if name in ("log_loss", "brier_score") else s
    with pytest.raises(ValueError, match="every sample weight is 0") as info:
        getattr(am, name)(y, x, sample_weight=np.zeros(y.size))
    assert info.value.param == "sample_weight"
    assert "one class" not in str(info.value)


@pytest.mark.parametrize("name", ["roc_auc", "average_precision", "roc_curve", "log_loss", "brier_score", "h_measure"])
def test_bool_and_numeric_object_weights_are_cast_as_scikit_learn_casts_them(name):
    import apples.metrics as am

    y, s, p, _ = _edge_case()
    x = p if name in ("log_loss", "brier_score") else s
    f = getattr(am, name)
    mask = np.random.default_rng(2).random(y.size) < 0.7
    expected = f(y, x, sample_weight=mask.astype(float))
    numbers = np.array([1 if m else 0.0 for m in mask], dtype=object)  # Python ints and floats
    for w in (mask, numbers, list(mask), pd.Series(mask)):
        got = f(y, x, sample_weight=w)
        np.testing.assert_allclose(
            np.concatenate(got[:2]) if name == "roc_curve" else got,
            np.concatenate(expected[:2]) if name == "roc_curve" else expected,
            rtol=0,
        )
    if name == "roc_auc":  # and as scikit-learn reads them
        assert f(y, x, sample_weight=mask) == pytest.approx(skm.roc_auc_score(y, x, sample_weight=mask), rel=1e-12)


@pytest.mark.parametrize("name", ["roc_auc", "average_precision", "roc_curve", "log_loss", "brier_score", "h_measure"])
@pytest.mark.parametrize(
    "bad, error, words",
    [
        ("negative", ValueError, "non-negative, got -1.0 at position 3"),
        ("nan", ValueError, "NaN at position 3"),
        ("inf", ValueError, "infinite value at position 3"),
        ("str", TypeError, "must hold numbers, got 'heavy'"),
        ("none", ValueError, "missing value"),
        ("date", TypeError, "dates are not weights"),
    ],
)
def test_bad_weights_are_refused_naming_sample_weight(name, bad, error, words):
    import apples.metrics as am

    y, s, p, w = _edge_case()
    x = p if name in ("log_loss", "brier_score") else s
    w = w.astype(object)
    if bad == "date":
        w = np.array(["2024-01-01"] * y.size, dtype="datetime64[D]")
    else:
        w[3] = {"negative": -1.0, "nan": float("nan"), "inf": float("inf"), "str": "heavy", "none": None}[bad]
    with pytest.raises(error, match=words) as info:
        getattr(am, name)(y, x, sample_weight=w)
    assert info.value.param == "sample_weight"
