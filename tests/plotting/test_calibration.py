"""The reliability diagram of CVPredictions per fold and pooled per repeat: against scikit-learn's calibration_curve
(unweighted), weighted bin means by hand (calibration_curve takes no weights), and the legend's Brier score and log
loss against scikit-learn's with sample_weight."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest

import apples
from apples.plotting import plot_reliability

plt = pytest.importorskip("matplotlib.pyplot")
sk = pytest.importorskip("sklearn.metrics")
calibration = pytest.importorskip("sklearn.calibration")


def _ax():
    return plt.figure().add_subplot()


def _legend(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()]


def _weighted_bins(y, p, w, edges):
    """Each filled bin's weighted mean prediction and weighted share of positives, written out (scikit-learn's
    rule: bin i holds edges[i] < p <= edges[i + 1], the first bin also p = edges[0])."""
    b = np.clip(np.searchsorted(edges[1:-1], p, side="left"), 0, edges.size - 2)
    rows = []
    for i in range(edges.size - 1):
        m = b == i
        if w[m].sum() > 0:
            rows.append((np.average(p[m], weights=w[m]), np.average(y[m], weights=w[m])))
    return np.array(rows) * 100


def _numbers(text):
    return [float(v) for v in re.findall(r"(?:Brier|log loss) (\d+\.\d+)", text)]


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_unweighted_folds_and_pooled_curve_are_scikit_learns_calibration_curve(cancer_repeated, strategy):
    p = cancer_repeated
    plain = apples.CVPredictions(p.y_true, folds=p.folds, repeats=p.repeats, y_score=p.y_score)
    ax = plot_reliability(plain, repeat=2, n_bins=6, strategy=strategy, ax=_ax())
    assert len(ax.lines) == 10 + 1 + 1  # its folds, its pooled curve, the diagonal
    m = plain.repeats == 2
    prob_true, prob_pred = calibration.calibration_curve(p.y_true[m], p.y_score[m], n_bins=6, strategy=strategy)
    np.testing.assert_allclose(ax.lines[10].get_xydata(), np.column_stack([prob_pred, prob_true]) * 100, rtol=1e-12)
    assert ax.lines[10].get_label().startswith("pooled: Brier")
    if strategy == "uniform":  # uniform bins are the same for every subset
        for f in range(10):
            c = m & (p.folds == f)
            pt, pp = calibration.calibration_curve(p.y_true[c], p.y_score[c], n_bins=6)
            np.testing.assert_allclose(ax.lines[f].get_xydata(), np.column_stack([pp, pt]) * 100, rtol=1e-12)


def test_weighted_repeated_diagram_draws_every_fold_and_each_repeats_pool(cancer_repeated):
    p = cancer_repeated
    ax = plot_reliability(p, n_bins=5, ax=_ax())
    assert len(ax.lines) == 30 + 3 + 1  # 30 folds, the pooled curve of each of 3 repeats, the diagonal
    edges = np.linspace(0, 1, 6)
    for r in range(3):
        for f in range(10):
            c = (p.repeats == r) & (p.folds == f)
            expected = _weighted_bins(p.y_true[c], p.y_score[c], p.sample_weight[c], edges)
            np.testing.assert_allclose(ax.lines[10 * r + f].get_xydata(), expected, rtol=1e-9)
        m = p.repeats == r
        pooled = ax.lines[30 + r]
        np.testing.assert_allclose(
            pooled.get_xydata(), _weighted_bins(p.y_true[m], p.y_score[m], p.sample_weight[m], edges), rtol=1e-9
        )
        # the legend: the repeat's pooled Brier score and log loss, scikit-learn's with its weights
        brier, loss = _numbers(pooled.get_label())
        assert abs(brier - sk.brier_score_loss(p.y_true[m], p.y_score[m], sample_weight=p.sample_weight[m])) <= 5e-4
        assert abs(loss - sk.log_loss(p.y_true[m], p.y_score[m], sample_weight=p.sample_weight[m])) <= 5e-4
        assert pooled.get_label().startswith(f"repeat {r} pooled: ")
    assert "30 folds (10 folds × 3 repeats)" in ax.get_title() and "sample_weight" in ax.get_title()
    assert sum(t.endswith("its 10 folds") for t in _legend(ax)) == 3


def test_shuffle_split_draws_each_split_as_its_own_pool(cancer_holdout):
    p = cancer_holdout
    ax = plot_reliability(p, n_bins=4, ax=_ax())
    assert len(ax.lines) == 4 + 1
    for r in range(4):
        m = p.repeats == r
        label = ax.lines[r].get_label()
        assert label.startswith(f"split {r}: Brier")
        brier, loss = _numbers(label)
        assert abs(brier - sk.brier_score_loss(p.y_true[m], p.y_score[m], sample_weight=p.sample_weight[m])) <= 5e-4
        assert abs(loss - sk.log_loss(p.y_true[m], p.y_score[m], sample_weight=p.sample_weight[m])) <= 5e-4
    assert "4 hold-out splits" in ax.get_title()


def test_iris_one_panel_per_label_each_against_the_rest(iris_repeated):
    p = iris_repeated
    fig = plot_reliability(p, n_bins=4)
    assert len(fig.axes) == 3 and len(fig.legends) == 1
    edges = np.linspace(0, 1, 5)
    for j, (a, label) in enumerate(zip(fig.axes, p.labels, strict=True)):
        assert a.get_title().startswith(f"'{label}' vs rest")
        assert "Observed frequency of the label" in a.get_ylabel()
        c = (p.repeats == 1) & (p.folds == 3)
        expected = _weighted_bins(p.y_true[c] == label, p.y_score[c][:, j], p.sample_weight[c], edges)
        np.testing.assert_allclose(a.lines[5 + 3].get_xydata(), expected, rtol=1e-9)
        # the title: the one-vs-rest Brier score, the mean over the two repeats of each pooled value
        briers = [
            sk.brier_score_loss(p.y_true[m] == label, p.y_score[m][:, j], sample_weight=p.sample_weight[m])
            for m in (p.repeats == 0, p.repeats == 1)
        ]
        assert abs(_numbers(a.get_title())[0] - np.mean(briers)) <= 5e-4
    fig.savefig(io.BytesIO(), format="png")


def test_multilabel_panels(multilabel_repeated):
    fig = plot_reliability(multilabel_repeated, n_bins=5)
    assert [a.get_title().split("\n")[0] for a in fig.axes] == ["0 vs rest", "1 vs rest", "2 vs rest"]


def test_a_certain_mistake_shows_an_infinite_log_loss():
    p = apples.CVPredictions([1, 0, 1, 0], folds=[0, 0, 1, 1], y_score=[0.0, 0.5, 0.5, 0.5])
    ax = plot_reliability(p, ax=_ax())
    label = next(line.get_label() for line in ax.lines if line.get_label().startswith("pooled"))
    assert label.endswith("log loss inf")


def test_contract_and_refusals():
    ax = plt.figure().add_subplot()
    p = apples.CVPredictions(["b", "a", "a", "b"], folds=[0, 0, 1, 1], y_score=[0.25, 0.75, 0.5, 0.5], pos_label="a")
    got = plot_reliability(p)
    assert got is ax and "(%)" in got.get_xlabel() and "(%)" in got.get_ylabel()
    with pytest.raises(ValueError, match=r"y_score must be the positive label's probability.* 1\.5 at row 0") as info:
        plot_reliability(apples.CVPredictions([1, 0], folds=[0, 1], y_score=[1.5, 0.5]))
    assert info.value.param == "predictions"
    with pytest.raises(TypeError, match="ax must be") as info:
        plot_reliability(p, ax="left")
    assert info.value.param == "ax"
