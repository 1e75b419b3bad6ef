"""The Parker (2011) figures of notebooks 07 (Figure 1), 08 and 09 (Figure 4): what they draw, checked."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from scipy import stats

import apples
from apples.studies import parker as pk
from apples.theory import Binormal

P = Binormal(mu_pos=1.5, sd_pos=1.6, pi_pos=0.3)
R = Binormal(mu_pos=1.2, sd_pos=0.6, pi_pos=0.3)
EQ = Binormal(mu_pos=1.5, sd_pos=1.0, mu_neg=0.0, sd_neg=1.0, pi_pos=0.3)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _line(ax, label):
    (line,) = [ln for ln in ax.get_lines() if ln.get_label() == label]
    return line


# -- plot_loss_surface (Parker eq. 4 and eq. 3) -----------------------------------------------------
def test_loss_surface_draws_eq4_and_the_optimal_threshold():
    _, ax = plt.subplots()
    out = pk.plot_loss_surface(EQ, ax=ax)
    assert out is ax
    # the filled contours span the loss of eq. 4 over the grid, computed here from the closed form
    tt, cc = np.linspace(-3, 4.5, 301), np.linspace(0.0, 1.0, 201)
    F0 = stats.norm.sf(tt, EQ.mu_pos, EQ.sd_pos)  # recall F_0(t): positives scoring above t
    F1 = stats.norm.sf(tt, EQ.mu_neg, EQ.sd_neg)  # false positive rate F_1(t)
    Q = cc[:, None] * EQ.pi_pos * (1 - F0[None, :]) + (1 - cc[:, None]) * (1 - EQ.pi_pos) * F1[None, :]
    np.testing.assert_allclose(Q, apples.theory.misclassification_loss(tt[None, :], cc[:, None], EQ), atol=1e-12)
    filled = ax.collections[0]
    assert filled.levels[0] <= Q.min() + 1e-12 and filled.levels[-1] >= Q.max() - 1e-12
    # the white valley floor: T(c) at 0 < c < 1, where dQ/dt = 0 (eq. 5) for equal spreads
    line = _line(ax, "T(c), eq. 3")
    t, c = line.get_xdata(), line.get_ydata()
    np.testing.assert_allclose(c, cc[1:-1])
    # equal spreads: c π0 f0(t) = (1 - c) π1 f1(t) solves to t = (μ+² - μ-²)/2/(μ+ - μ-) + log((1-c)π1/(c π0))/(μ+ - μ-)
    d = EQ.mu_pos - EQ.mu_neg
    expected = (EQ.mu_pos + EQ.mu_neg) / 2 + np.log((1 - c) * (1 - EQ.pi_pos) / (c * EQ.pi_pos)) / d
    np.testing.assert_allclose(t, expected, rtol=1e-9, atol=1e-9)
    assert line.get_color() == "white"
    assert ax.get_title() == "Loss surface of eq. 4\npositives N(1.5, 1), negatives N(0, 1), π₀ = 0.3"
    assert ax.get_xlim() == (-3.0, 4.5)
    assert ax.get_xlabel() == "threshold t (score)"
    assert len(ax.figure.axes) == 2  # the colour bar


def test_loss_surface_title_names_both_normal_laws():
    _, ax = plt.subplots()
    pk.plot_loss_surface(Binormal(mu_pos=1.5, sd_pos=1.6, mu_neg=-0.5, sd_neg=1.0, pi_pos=0.25), ax=ax)
    assert ax.get_title() == "Loss surface of eq. 4\npositives N(1.5, 1.6²), negatives N(-0.5, 1), π₀ = 0.25"


def test_loss_surface_draws_on_the_current_axes_by_default():
    _, ax = plt.subplots()
    assert pk.plot_loss_surface(EQ) is ax


@pytest.mark.parametrize(
    ("kwargs", "error", "word"),
    [({"model": (1.5, 1.0)}, TypeError, "model"), ({"model": EQ, "ax": "left"}, TypeError, "ax")],
)
def test_loss_surface_refuses_bad_arguments(kwargs, error, word):
    with pytest.raises(error, match=word):
        pk.plot_loss_surface(**kwargs)


def test_loss_surface_options_are_keyword_only():
    _, ax = plt.subplots()
    with pytest.raises(TypeError):
        pk.plot_loss_surface(EQ, ax)  # type: ignore[misc]


# -- plot_figure1 (Parker Figure 1) -----------------------------------------------------------------
def test_figure1_returns_the_figure_with_two_panels():
    fig = pk.plot_figure1({"P": P, "R": R})
    assert isinstance(fig, matplotlib.figure.Figure)
    ax_roc, ax_kappa = fig.axes
    assert ax_roc.get_title() == "Parker Fig. 1(a), our own curves: two ROC curves"
    assert ax_kappa.get_title() == "Parker Fig. 1(b), our own curves: their κ curves"
    assert tuple(fig.get_size_inches()) == (11.0, 4.0)


def test_figure1_roc_and_kappa_curves_equal_the_model_values():
    fig, axes = plt.subplots(1, 2)
    assert pk.plot_figure1({"P": P, "R": R}, ax=axes) is fig
    v = np.union1d(np.geomspace(1e-7, 0.0025, 60), np.linspace(0, 1, 401)[:-1])
    for name, m, color in (("P", P, "#1f77b4"), ("R", R, "#d62728")):
        roc = _line(axes[0], f"{name}: AUC = {m.auc:.3f} (population)")
        np.testing.assert_allclose(roc.get_xdata(), 100 * v)
        np.testing.assert_allclose(roc.get_ydata(), 100 * m.roc(v))
        assert roc.get_color() == color
        auk = apples.theory.integrated_measure(m, "kappa")
        kap = _line(axes[1], f"{name}: AUK = {auk:.3f} (population)")
        # Cohen's κ from the rates at the threshold of each FPR: (accuracy - chance)/(1 - chance)
        t = m.threshold_at_fpr(v)
        F0, F1, pi0 = m.roc(v), v, m.pi_pos
        acc = pi0 * F0 + (1 - pi0) * (1 - F1)
        F = pi0 * F0 + (1 - pi0) * F1  # share predicted positive
        chance = pi0 * F + (1 - pi0) * (1 - F)
        np.testing.assert_allclose(kap.get_ydata(), (acc - chance) / (1 - chance), rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(kap.get_ydata(), apples.theory.threshold_measure(t, m, "kappa"))
        # the sampled dots: the empirical κ curve of 300 positives and 700 negatives drawn with seed 5
        yy, ss = m.sample(300, 700, seed=5)
        kc = apples.metrics.kappa_curve(yy, ss)
        dots = [ln for ln in axes[1].get_lines() if ln.get_marker() == "o" and ln.get_color() == color]
        assert len(dots) == 1
        np.testing.assert_allclose(dots[0].get_xdata(), 100 * kc.fpr[::20])
        np.testing.assert_allclose(dots[0].get_ydata(), kc.kappa[::20])
    diagonal = [ln for ln in axes[0].get_lines() if ln.get_color() == "grey"]
    assert len(diagonal) == 1


def test_figure1_kappa_curves_start_at_zero():
    """κ = 0 at FPR = 0 (nothing predicted positive): each drawn κ curve starts within 0.01 of it."""
    fig = pk.plot_figure1({"P": P, "R": R})
    for line in fig.axes[1].get_lines():
        if line.get_marker() in ("None", None, ""):
            assert line.get_xdata()[0] < 1e-4 and abs(line.get_ydata()[0]) < 0.01


def test_figure1_auc_in_the_legend_is_r_over_p():
    fig = pk.plot_figure1({"P": P, "R": R})
    labels = fig.axes[0].get_legend_handles_labels()[1]
    assert labels == [f"P: AUC = {P.auc:.3f} (population)", f"R: AUC = {R.auc:.3f} (population)", "chance"]
    assert R.auc > P.auc


@pytest.mark.parametrize(
    ("kwargs", "error", "word"),
    [
        ({"models": [P, R]}, TypeError, "models"),
        ({"models": {}}, ValueError, "models"),
        ({"models": {"a": P, "b": R, "c": EQ}}, ValueError, "models"),
        ({"models": {"P": P, "R": "R"}}, TypeError, "models"),
        ({"models": {"P": P}, "n_pos": 0}, ValueError, "n_pos"),
        ({"models": {"P": P}, "n_neg": 1.5}, TypeError, "n_neg"),
        ({"models": {"P": P}, "seed": "five"}, (TypeError, ValueError), "seed"),
    ],
)
def test_figure1_refuses_bad_arguments(kwargs, error, word):
    with pytest.raises(error, match=word):
        pk.plot_figure1(**kwargs)


@pytest.mark.parametrize(
    ("ax", "error"), [("left", (TypeError, ValueError)), ([None, None], TypeError), (3, (TypeError, ValueError))]
)
def test_figure1_refuses_bad_axes(ax, error):
    with pytest.raises(error, match="ax"):
        pk.plot_figure1({"P": P}, ax=ax)


def test_figure1_refuses_three_axes():
    _, axes = plt.subplots(1, 3)
    with pytest.raises(ValueError, match="ax"):
        pk.plot_figure1({"P": P}, ax=axes)


def test_figure1_classifiers_integrated_measures_on_a_sample():
    """Notebook 07, §8: AUC, AUK, AP and H of 3,000 + 7,000 cases drawn from P and R (seed 0), printed to 3 decimals.

    Independent of apples: scikit-learn's AUC and AP, κ from scikit-learn's ROC points (Parker §II-F), H from the
    PyPI ``hmeasure`` package. The seeded draws are elementwise, so each value is the same on every machine up to
    round-off, and each printed value is asserted far (> 1e-6) from its rounding edge.
    """
    from hmeasure import h_score
    from sklearn.metrics import average_precision_score, roc_auc_score
    from sklearn.metrics import roc_curve as sk_roc_curve

    printed = {"P": (0.774, 0.243, 0.700, 0.315), "R": (0.840, 0.280, 0.598, 0.380)}
    for name, model in (("P", P), ("R", R)):
        y, s = model.sample(3_000, 7_000, seed=0)
        fpr, tpr, _ = sk_roc_curve(y, s, drop_intermediate=False)
        pi0 = y.mean()
        accuracy = pi0 * tpr + (1 - pi0) * (1 - fpr)
        flagged = pi0 * tpr + (1 - pi0) * fpr
        chance = pi0 * flagged + (1 - pi0) * (1 - flagged)
        auk = np.trapezoid((accuracy - chance) / (1 - chance), fpr)
        ranks = stats.rankdata(s) / len(s)  # the package wants scores in [0, 1]; H depends on the ranking only
        values = (roc_auc_score(y, s), auk, average_precision_score(y, s), h_score(y, ranks))
        ours = (apples.roc_auc(y, s), apples.auk(y, s), apples.average_precision(y, s), apples.h_measure(y, s))
        np.testing.assert_allclose(ours, values, atol=1e-12)
        for v, shown in zip(values, printed[name], strict=True):
            assert round(v, 3) == shown and abs(1000 * v - np.floor(1000 * v) - 0.5) > 1e-3
    # the text: AUC, AUK and H prefer R, AP prefers P
    assert printed["R"][0] > printed["P"][0] and printed["R"][1] > printed["P"][1] and printed["R"][3] > printed["P"][3]
    assert printed["P"][2] > printed["R"][2]


# -- plot_error_case_breakdown (Parker Figure 4, notebook 09 §6) ------------------------------------------
def test_figure4_names_pi_and_delta_and_fits_the_figure():
    """Each panel's title names its split, its legend's title defines the symbol (Δ is an absolute difference
    over the test cases), each entry gives the side of the median and its error cases, counted by hand."""
    import pandas as pd

    # max-F1 ... H; row 1 all agree, row 2 AUC alone, row 3 AUK alone, row 4 H alone
    rows = [[1] * 7, [1, 1, 1, -1, 1, 1, 1], [1, 1, 1, 1, 1, -1, 1], [-1, -1, -1, -1, -1, -1, 1]]
    c = pd.DataFrame(rows, columns=list(pk.PARKER_MEASURES))
    c["pos_prop"] = [0.05, 0.1, 0.3, 0.5]  # median 0.2: rows 1, 2 (one error case) below, rows 3, 4 (two) above
    c["threshold_diff"] = [0.0, 0.5, 0.0, 0.2]  # median 0.1: rows 1, 3 (one) below, rows 2, 4 (two) above
    fig = pk.plot_error_case_breakdown(c)
    ax_pi, ax_delta = fig.axes[:2]
    assert ax_pi.get_title() == "Parker Fig. 4(a) (re-created): by share of positives π"
    assert ax_delta.get_title() == "Parker Fig. 4(b) (re-created): by Δ in distinct scores"
    for ax, symbol, meaning, median in (
        (ax_pi, "π", "π: share of positives in the test set", "0.2"),
        (ax_delta, "Δ", "Δ: |difference in distinct scores| / test cases", "0.1"),
    ):
        legend = ax.get_legend()
        assert legend.get_title().get_text() == meaning
        assert [t.get_text() for t in legend.get_texts()] == [
            f"{symbol} ≤ median {median} (1 error cases)",
            f"{symbol} > median {median} (2 error cases)",
        ]
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for ax in (ax_pi, ax_delta):  # the titles stay inside the figure and clear of the other panel
        title = ax.title.get_window_extent(renderer)
        assert fig.bbox.x0 <= title.x0 and title.x1 <= fig.bbox.x1
    assert ax_pi.title.get_window_extent(renderer).x1 < ax_delta.title.get_window_extent(renderer).x0
