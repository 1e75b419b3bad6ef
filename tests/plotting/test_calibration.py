"""The reliability diagram per fold and pooled, against scikit-learn's calibration_curve and Brier score."""

from __future__ import annotations

import numpy as np
import pytest

from apples.plotting import plot_reliability

plt = pytest.importorskip("matplotlib.pyplot")
sk = pytest.importorskip("sklearn.metrics")
calibration = pytest.importorskip("sklearn.calibration")


def _data(seed: int = 0, n: int = 500, k: int = 4):
    rng = np.random.default_rng(seed)
    folds = np.arange(n) % k
    p = rng.random(n)
    # fold f over-predicts by a factor (1 + f/4): folds calibrated differently
    y = (rng.random(n) < p / (1 + folds / 4)).astype(int)
    return y, p, folds


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_pooled_and_fold_curves_are_scikit_learns_calibration_curve(strategy):
    y, p, folds = _data()
    ax = plot_reliability(y, p, folds=folds, n_bins=6, strategy=strategy, ax=plt.figure().add_subplot())
    lines = {line.get_label(): line.get_xydata() for line in ax.lines}
    pooled = next(xy for label, xy in lines.items() if label.startswith("pooled"))
    prob_true, prob_pred = calibration.calibration_curve(y, p, n_bins=6, strategy=strategy)
    np.testing.assert_allclose(pooled, np.column_stack([prob_pred, prob_true]) * 100, rtol=1e-12)
    if strategy == "uniform":
        for f in range(4):
            m = folds == f
            pt, pp = calibration.calibration_curve(y[m], p[m], n_bins=6)
            np.testing.assert_allclose(lines[f"fold {f}"], np.column_stack([pp, pt]) * 100, rtol=1e-12)


def test_the_legend_gives_the_pooled_brier_score_and_log_loss():
    y, p, folds = _data(1)
    w = np.random.default_rng(3).random(y.size)
    ax = plot_reliability(y, p, folds=folds, sample_weight=w, ax=plt.figure().add_subplot())
    label = next(line.get_label() for line in ax.lines if line.get_label().startswith("pooled"))
    brier = sk.brier_score_loss(y, p, sample_weight=w)
    loss = sk.log_loss(y, p, sample_weight=w)
    assert label == f"pooled: Brier {brier:.3f}, log loss {loss:.3f}"


def test_a_certain_mistake_shows_an_infinite_log_loss():
    ax = plot_reliability([1, 0, 1, 0], [0.0, 0.5, 0.5, 0.5], folds=[0, 0, 1, 1], ax=plt.figure().add_subplot())
    label = next(line.get_label() for line in ax.lines if line.get_label().startswith("pooled"))
    assert label.endswith("log loss inf")


def test_contract_and_refusals():
    ax = plt.figure().add_subplot()
    got = plot_reliability(["b", "a", "a", "b"], [0.25, 0.75, 0.5, 0.5], folds=[0, 0, 1, 1], pos_label="a")
    assert got is ax and "(%)" in got.get_xlabel() and "(%)" in got.get_ylabel()
    with pytest.raises(ValueError, match=r"y_prob .* 1\.5 at position 0"):
        plot_reliability([1, 0], [1.5, 0.5], folds=[0, 1])
    with pytest.raises(ValueError, match="pos_label must be given"):
        plot_reliability(["a", "b"], [0.5, 0.5], folds=[0, 1])
