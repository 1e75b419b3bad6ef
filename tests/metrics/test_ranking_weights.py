"""roc_auc, average_precision and roc_curve with sample_weight, against scikit-learn and repeated rows."""

from __future__ import annotations

import numpy as np
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
