"""cross_val_predictions(params=...) against scikit-learn's cross_val_predict(params=...)."""

from __future__ import annotations

import numpy as np
import pytest
import sklearn
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold, StratifiedKFold, cross_val_predict

import apples
from apples.cv import cross_val_predictions


def _data(n: int = 120) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, 3))
    y = (X[:, 0] + 0.8 * rng.normal(size=n) > 0).astype(int)
    w = rng.random(n) * 4
    w[:10] = 0.0
    return X, y, w


def test_params_sample_weight_fits_as_sklearn_and_stays_on_the_predictions() -> None:
    X, y, w = _data()
    cv = StratifiedKFold(4, shuffle=True, random_state=0)
    p = cross_val_predictions(LogisticRegression(), X, y, cv=cv, params={"sample_weight": w})
    ref = cross_val_predict(LogisticRegression(), X, y, cv=cv, method="predict_proba", params={"sample_weight": w})
    assert p.cases is not None and p.sample_weight is not None
    np.testing.assert_allclose(p.y_score, ref[p.cases, 1], rtol=1e-12, atol=0)
    assert p.sample_weight.tolist() == w[p.cases].tolist()
    unweighted = cross_val_predictions(LogisticRegression(), X, y, cv=cv)
    assert np.abs(unweighted.y_score - p.y_score).max() > 1e-3  # the weights reached fit
    d = apples.report(p).to_dict()
    assert "sample_weight" in d


def test_params_with_metadata_routing() -> None:
    X, y, w = _data()
    groups = np.arange(y.size) % 6
    with sklearn.config_context(enable_metadata_routing=True):
        est = LogisticRegression().set_fit_request(sample_weight=True)
        p = cross_val_predictions(est, X, y, cv=GroupKFold(3), params={"sample_weight": w, "groups": groups})
        ref = cross_val_predict(
            est, X, y, cv=GroupKFold(3), method="predict_proba", params={"sample_weight": w, "groups": groups}
        )
        assert p.cases is not None
        np.testing.assert_allclose(p.y_score, ref[p.cases, 1], rtol=1e-12, atol=0)
        with pytest.raises(ValueError, match="groups"):
            cross_val_predictions(est, X, y, cv=GroupKFold(3), groups=groups, params={"sample_weight": w})


def test_bad_params_are_refused_by_name() -> None:
    X, y, w = _data()
    with pytest.raises(ValueError, match="one weight per case") as err:
        cross_val_predictions(LogisticRegression(), X, y, cv=3, params={"sample_weight": w[:-1]})
    assert err.value.param == "params"
    bad = w.copy()
    bad[4] = np.nan
    with pytest.raises(ValueError, match="position 4"):
        cross_val_predictions(LogisticRegression(), X, y, cv=3, params={"sample_weight": bad})
    with pytest.raises(TypeError, match="params"):
        cross_val_predictions(LogisticRegression(), X, y, cv=3, params=[("sample_weight", w)])
