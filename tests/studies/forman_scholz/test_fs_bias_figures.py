"""Notebook 03's figures and grid look-ups (apples.studies.forman_scholz.bias_figures, .simulation).

Each plot's drawn lines are compared with values computed here independently
(from the grid table, apples.theory.exact_cv_f, p_fold_without_positives).
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import apples
from apples.cv import F_AGGREGATIONS
from apples.studies import forman_scholz as fs


@pytest.fixture(scope="module")
def grid():
    return fs.simulate_grid(n_reps=200, seed=3)


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _line_by_label(ax, label):
    (line,) = [ln for ln in ax.lines if ln.get_label() == label]
    return line


# -- look-ups and formats ---------------------------------------------------------------------------
def test_relative_bias_returns_the_grid_number(grid):
    for _, row in grid.sample(20, random_state=0).iterrows():
        got = fs.relative_bias(grid, prior=row.prior, f_true=row.f_true, stratified=row.stratified, method=row.method)
        assert type(got) is float
        assert got == row.relative_bias or (np.isnan(got) and np.isnan(row.relative_bias))


def test_relative_bias_on_a_hand_table():
    table = pd.DataFrame(
        {
            "prior": [0.05, 0.05, 0.05],
            "f_true": [0.8, 0.8, 0.6],
            "stratified": [True, False, True],
            "method": ["avg", "avg", "avg"],
            "relative_bias": [-0.004, -0.0266, 0.125],
        }
    )
    assert fs.relative_bias(table, prior=0.05, f_true=0.8, stratified=False, method="avg") == -0.0266
    # priors computed in floating point (0.1 / 2) still find their row
    assert fs.relative_bias(table, prior=0.1 / 2, f_true=0.6, stratified=True, method="avg") == 0.125
    with pytest.raises(ValueError, match="no row"):
        fs.relative_bias(table, prior=0.05, f_true=0.8, stratified=True, method="tp_fp")
    with pytest.raises(ValueError, match="2 row"):
        fs.relative_bias(pd.concat([table, table]), prior=0.05, f_true=0.8, stratified=True, method="avg")


def test_relative_bias_line_text(grid):
    text = fs.relative_bias_line(grid, prior=0.05, f_true=0.8, stratified=True, methods=("pr_re", "avg"))
    sel = grid[np.isclose(grid.prior, 0.05) & np.isclose(grid.f_true, 0.8) & grid.stratified].set_index("method")
    expected = f"F_pr,re {sel.loc['pr_re', 'relative_bias']:+.2%}, F_avg {sel.loc['avg', 'relative_bias']:+.2%}"
    assert text == expected
    full = fs.relative_bias_line(grid, prior=0.01, f_true=0.8, stratified=False)
    assert [part.split(" ")[0] for part in full.split(", ")] == [a.symbol for a in F_AGGREGATIONS.values()]


@pytest.mark.parametrize(
    ("kwargs", "error", "word"),
    [
        ({"prior": "0.05"}, TypeError, "prior"),
        ({"f_true": float("nan")}, ValueError, "f_true"),
        ({"stratified": "yes"}, TypeError, "stratified"),
        ({"method": "mean"}, ValueError, "method"),
        ({"grid": [1, 2]}, TypeError, "grid"),
        ({"grid": pd.DataFrame({"prior": [0.05]})}, ValueError, "grid"),
    ],
)
def test_relative_bias_refuses_bad_arguments(grid, kwargs, error, word):
    call = {"grid": grid, "prior": 0.05, "f_true": 0.8, "stratified": True, "method": "avg", **kwargs}
    with pytest.raises(error, match=word):
        fs.relative_bias(**call)


def test_relative_bias_line_refuses_bad_methods(grid):
    with pytest.raises(TypeError, match="methods"):
        fs.relative_bias_line(grid, prior=0.05, f_true=0.8, stratified=True, methods="avg")
    with pytest.raises(ValueError, match="methods"):
        fs.relative_bias_line(grid, prior=0.05, f_true=0.8, stratified=True, methods=("avg", "median"))


def _hand_grid():
    """Two points, three methods, biases and SDs chosen so that every ratio is a round number."""
    rows = []
    for stratified, prior, bias, std in (
        (True, 0.01, {"tp_fp": -0.001, "avg": -0.05, "pr_re": 0.02}, {"tp_fp": 0.10, "avg": 0.08, "pr_re": 0.12}),
        (True, 0.05, {"tp_fp": 0.002, "avg": 0.01, "pr_re": -0.03}, {"tp_fp": 0.05, "avg": 0.06, "pr_re": 0.055}),
        (False, 0.05, {"tp_fp": -0.004, "avg": -0.04, "pr_re": 0.004}, {"tp_fp": 0.01, "avg": 0.005, "pr_re": 0.02}),
    ):
        for method in bias:
            rows.append(
                {
                    "stratified": stratified,
                    "prior": prior,
                    "f_true": 0.8,
                    "method": method,
                    "bias": bias[method],
                    "std": std[method],
                }
            )
    return pd.DataFrame(rows)


def test_bias_ratios_by_hand():
    r = fs.bias_ratios(_hand_grid())
    # 1% stratified: others |-0.05|, |0.02| over |-0.001| -> best 20, mean 35
    assert r.loc[(True, 0.01, 0.8)].tolist() == pytest.approx([20.0, 35.0])
    # 5% stratified: 0.01, 0.03 over 0.002 -> 5, 10; 5% unstratified: 0.04, 0.004 over 0.004 -> 1, 5.5
    assert r.loc[(True, 0.05, 0.8)].tolist() == pytest.approx([5.0, 10.0])
    assert r.loc[(False, 0.05, 0.8)].tolist() == pytest.approx([1.0, 5.5])


def test_bias_peaks_by_hand():
    """Relative biases chosen by hand: where |bias| is largest over F = 60 %, 80 %, 95 %, and 60 % against 95 %."""
    rb = {  # (stratified, prior) -> method -> |relative bias| at F = 0.6, 0.8, 0.95 (signs mixed on purpose)
        (False, 0.05): {"pr_re": [0.02, -0.03, 0.01], "avg": [-0.04, -0.02, -0.01]},
        (True, 0.01): {"pr_re": [0.005, 0.001, 0.009], "avg": [-0.2, -0.1, 0.0]},
    }
    rows = [
        {"stratified": st, "prior": prior, "f_true": f, "method": m, "relative_bias": v}
        for (st, prior), methods in rb.items()
        for m, values in methods.items()
        for f, v in zip((0.95, 0.6, 0.8), (values[2], values[0], values[1]), strict=True)  # rows out of order
    ]
    off_panels = [  # Figure 4's prior axis and an F outside Figures 6-7: left out
        {"stratified": True, "prior": 0.02, "f_true": 0.8, "method": "avg", "relative_bias": 0.9},
        {"stratified": True, "prior": 0.01, "f_true": 0.5, "method": "avg", "relative_bias": 0.9},
    ]
    peaks = fs.bias_peaks(pd.DataFrame(rows + off_panels))
    # stratified first, then prior; methods in F_AGGREGATIONS order (avg before pr_re)
    assert peaks[["stratified", "prior", "method"]].to_numpy().tolist() == [
        [True, 0.01, "avg"],
        [True, 0.01, "pr_re"],
        [False, 0.05, "avg"],
        [False, 0.05, "pr_re"],
    ]
    assert peaks["lowest_f_larger"].tolist() == [True, False, True, True]  # 0.005 < 0.009 for pr_re at 1 %
    assert peaks["peak_f"].tolist() == [0.6, 0.95, 0.6, 0.8]
    with pytest.raises(ValueError, match="one row per point"):
        fs.bias_peaks(pd.DataFrame(rows + rows[:1]))


def test_sd_leaders_by_hand_reads_only_stratified_rows():
    s = fs.sd_leaders(_hand_grid())
    assert list(s.index) == [(0.01, 0.8), (0.05, 0.8)]
    assert s["least"].tolist() == ["avg", "tp_fp"]  # unstratified 'avg' 0.005 is ignored
    assert s["tp_fp_excess"].tolist() == pytest.approx([0.10 / 0.08 - 1, 0.0])


def test_bias_ratios_and_sd_leaders_refuse_tables_without_their_columns():
    with pytest.raises(ValueError, match="grid"):
        fs.bias_ratios(_hand_grid().drop(columns="bias"))
    with pytest.raises(TypeError, match="grid"):
        fs.sd_leaders("grid")
    with pytest.raises(ValueError, match="tp_fp"):
        fs.bias_ratios(_hand_grid().query("method != 'tp_fp'"))


@pytest.mark.parametrize(
    ("p", "text"),
    [
        (0.9996, "99.96 %"),
        (0.01, "1.00 %"),
        (0.00015, "0.015 %"),
        (1e-6, "0.0001 %"),
        (1 / 1.9e9, "1 in 1,900,000,000"),
        (1 / 1_930_000, "1 in 1,900,000"),
        (0.0, "0 %"),
        (1.0, "100.00 %"),
    ],
)
def test_format_chance(p, text):
    assert fs.format_chance(p) == text


@pytest.mark.parametrize("bad", [1.5, -0.1, float("nan"), "0.5", None])
def test_format_chance_refuses(bad):
    with pytest.raises((TypeError, ValueError), match="p "):
        fs.format_chance(bad)


def test_format_fold_counts():
    row = apples.theory.fold_positives(25, stratified=True)[0]
    assert fs.format_fold_counts(row) == "3 3 3 3 3 2 2 2 2 2"
    assert fs.format_fold_counts([0, 12]) == "0 12"
    for bad, error in (([1.5, 2], TypeError), ([-1, 2], ValueError), ([], ValueError), ([[1, 2]], ValueError)):
        with pytest.raises(error, match="counts"):
            fs.format_fold_counts(bad)


# -- figures ----------------------------------------------------------------------------------------
def test_convergence_lines_are_the_running_means_and_exact_values():
    ax = plt.figure().add_subplot()
    out = fs.plot_cv_f_convergence(0.05, 0.7, stratified=False, n_reps=2000, seed=4, ax=ax)
    assert out is ax
    est = fs.sample_cv_f(0.05, 0.7, stratified=False, n_reps=2000, seed=4)
    for method in apples.theory.EXACT_METHODS:
        line = _line_by_label(ax, f"{F_AGGREGATIONS[method].symbol} (running mean)")
        n = np.asarray(line.get_xdata())
        assert n[0] == 10 and n[-1] == 2000
        expected = np.cumsum(est[method].to_numpy())[n - 1] / n * 100
        np.testing.assert_allclose(line.get_ydata(), expected, rtol=1e-12)
        exact = apples.theory.exact_cv_f(0.05, 0.7, stratified=False, method=method) * 100
        assert any(np.allclose(ln.get_ydata(), exact) for ln in ax.lines if ln.get_linestyle() == "--")
    assert np.allclose(_line_by_label(ax, "ground truth").get_ydata(), 70)
    assert ax.get_xscale() == "log"
    assert ax.get_title() == (
        "Monte Carlo converging to the exact expectation (dashed; not a paper figure)\n"
        "5% positives, true F = 70%, unstratified 10-fold CV"
    )
    bands = {c.get_label() for c in ax.collections}
    expected = {f"{F_AGGREGATIONS[m].symbol}: exact ± 2 SE of the running mean" for m in apples.theory.EXACT_METHODS}
    assert bands == expected
    assert ax.get_legend() is not None and ax.get_legend().get_bbox_to_anchor().x0 > ax.bbox.x1  # off the data


def test_convergence_refuses_bad_arguments():
    with pytest.raises(TypeError, match="stratified"):
        fs.plot_cv_f_convergence(0.05, 0.7, stratified=None, n_reps=100)
    with pytest.raises(ValueError, match="n_reps"):
        fs.plot_cv_f_convergence(0.05, 0.7, stratified=True, n_reps=0)
    with pytest.raises(TypeError, match="n_jobs"):
        fs.plot_cv_f_convergence(0.05, 0.7, stratified=True, n_reps=100, n_jobs=1.5)


@pytest.mark.parametrize("stratified", [True, False])
def test_bias_vs_prior_draws_the_grid_bias(grid, stratified):
    ax = plt.figure().add_subplot()
    assert fs.plot_bias_vs_prior(grid, stratified=stratified, ax=ax) is ax
    part = grid[(grid.stratified == stratified) & np.isclose(grid.f_true, 0.8) & (grid.prior <= 0.05)]  # not 25%
    for method in F_AGGREGATIONS:
        rows = part[part.method == method].sort_values("prior")
        line = _line_by_label(ax, F_AGGREGATIONS[method].symbol)
        np.testing.assert_allclose(line.get_xdata(), rows.prior * 100)
        np.testing.assert_allclose(line.get_ydata(), rows.bias * 100)
    assert len(line.get_xdata()) == len(fs.FIGURE_PRIORS)
    assert ax.get_title().startswith(f"Forman & Scholz Fig. {4 if stratified else 5} (reproduced)")


def test_figure4_5_returns_the_figure_of_the_given_axes(grid):
    fig, axes = plt.subplots(1, 2)
    assert fs.plot_figure4_5(grid, ax=axes) is fig
    assert axes[0].get_title().startswith("Forman & Scholz Fig. 4") and axes[1].get_title().startswith(
        "Forman & Scholz Fig. 5"
    )
    with pytest.raises(ValueError, match="2 Axes"):
        fs.plot_figure4_5(grid, ax=[axes[0]])
    with pytest.raises(TypeError, match="grid"):
        fs.plot_figure4_5(grid.to_numpy())


@pytest.mark.parametrize(
    ("plot", "stratified", "column", "number"),
    [
        (fs.plot_figure6, True, "relative_bias", 6),
        (fs.plot_figure7, False, "relative_bias", 7),
        (fs.plot_figure8, True, "relative_std", 8),
    ],
)
def test_panel_figures_draw_the_grid_column(grid, plot, stratified, column, number):
    fig = plot(grid)
    assert isinstance(fig, matplotlib.figure.Figure)
    assert fig._suptitle.get_text().startswith(f"Forman & Scholz Fig. {number} (reproduced")
    assert len(fig.axes) == (6 if number == 8 else 3)  # Figure 8 adds a row of SD ratios
    axes = fig.axes[:3]
    for ax, prior in zip(axes, fs.FIGURE_PANEL_PRIORS, strict=True):
        assert ax.get_title() == f"{prior:.0%} positives"
        part = grid[(grid.stratified == stratified) & np.isclose(grid.prior, prior)]
        for method in F_AGGREGATIONS:
            rows = part[part.method == method].sort_values("f_true")
            line = _line_by_label(ax, F_AGGREGATIONS[method].symbol)
            np.testing.assert_allclose(line.get_xdata(), rows.f_true * 100)
            np.testing.assert_allclose(line.get_ydata(), rows[column] * 100)


def test_figure8_crosses_are_the_exact_standard_deviations(grid):
    fig = fs.plot_figure8(grid)
    ax = fig.axes[1]  # 5% positives
    for method in apples.theory.EXACT_METHODS:
        crosses = _line_by_label(ax, f"{F_AGGREGATIONS[method].symbol} exact")
        expected = [
            apples.theory.exact_cv_f(0.05, f, stratified=True, method=method, statistic="std") / f * 100
            for f in fs.FIGURE_F_TRUE
        ]
        np.testing.assert_allclose(crosses.get_xdata(), np.array(fs.FIGURE_F_TRUE) * 100)
        np.testing.assert_allclose(crosses.get_ydata(), expected, rtol=1e-12)


@pytest.mark.parametrize("plot", [fs.plot_figure6, fs.plot_figure7, fs.plot_figure8])
def test_panel_figures_have_one_legend_right_of_every_panel(grid, plot):
    # A legend inside a panel can cover a curve (it did in Figure 7, over F_tp,fp): the one legend of
    # the figure must lie entirely outside every panel's data area, to the right of all of them.
    fig = plot(grid)
    fig.canvas.draw()
    legends = [a.get_legend() for a in fig.axes if a.get_legend() is not None]
    assert len(legends) == 1
    box = legends[0].get_window_extent()
    for a in fig.axes:
        area = a.get_window_extent()
        assert not box.overlaps(area)
        assert box.x0 > area.x1
    labels = [t.get_text() for t in legends[0].get_texts()]
    assert labels[:5] == [a.symbol for a in F_AGGREGATIONS.values()]


def test_figure8_bottom_row_is_each_sd_over_that_of_tp_fp(grid):
    fig = fs.plot_figure8(grid)
    assert "divided by that of F_tp,fp" in fig._suptitle.get_text()
    for ax, prior in zip(fig.axes[3:], fs.FIGURE_PANEL_PRIORS, strict=True):
        assert ax.get_title() == f"{prior:.0%} positives: SD ratio"
        assert "ratio" in ax.get_ylabel()
        part = grid[grid.stratified & np.isclose(grid.prior, prior)]
        tp_fp = part[part.method == "tp_fp"].sort_values("f_true")["std"].to_numpy()
        flat = _line_by_label(ax, F_AGGREGATIONS["tp_fp"].symbol).get_ydata()
        assert np.array_equal(flat, np.ones(len(fs.FIGURE_F_TRUE)))  # x / x is exactly 1
        for method in F_AGGREGATIONS:
            rows = part[part.method == method].sort_values("f_true")
            line = _line_by_label(ax, F_AGGREGATIONS[method].symbol)
            np.testing.assert_allclose(line.get_xdata(), rows.f_true * 100)
            np.testing.assert_allclose(line.get_ydata(), rows["std"].to_numpy() / tp_fp, rtol=1e-12)
        crosses = _line_by_label(ax, "F_avg exact")
        expected = [
            apples.theory.exact_cv_f(prior, f, stratified=True, method="avg", statistic="std")
            / apples.theory.exact_cv_f(prior, f, stratified=True, method="tp_fp", statistic="std")
            for f in fs.FIGURE_F_TRUE
        ]
        np.testing.assert_allclose(crosses.get_ydata(), expected, rtol=1e-12)


def test_figure8_on_given_axes(grid):
    fig, axes = plt.subplots(2, 3)
    assert fs.plot_figure8(grid, ax=axes) is fig
    with pytest.raises(ValueError, match="6 Axes"):
        fs.plot_figure8(grid, ax=axes[0])
    with pytest.raises(ValueError, match="std"):
        fs.plot_figure8(grid.drop(columns="std"))


def test_panel_figures_refuse_bad_axes_and_grids(grid):
    _, axes = plt.subplots(1, 2)
    with pytest.raises(ValueError, match="3 Axes"):
        fs.plot_figure6(grid, ax=axes)
    with pytest.raises(ValueError, match="relative_std"):
        fs.plot_figure8(grid.drop(columns="relative_std"))


def test_figure9_curves_are_the_exact_probabilities():
    ax = plt.figure().add_subplot()
    assert fs.plot_figure9(n_reps=500, ax=ax) is ax
    line = _line_by_label(ax, "1000 trials, 1,000 cases")
    x = np.asarray(line.get_xdata())
    assert x[0] == 10 and x[-1] == 400
    expected = [apples.theory.p_fold_without_positives(int(n), n_cases=1000, n_trials=1000) * 100 for n in x]
    np.testing.assert_allclose(line.get_ydata(), expected, rtol=1e-12)
    dots = _line_by_label(ax, "simulated, 1 trial, 1,000 cases")
    freq = [
        (apples.theory.fold_positives(n, stratified=False, n_reps=500, seed=n).min(axis=1) == 0).mean() * 100
        for n in (12, 20, 30, 45, 70)
    ]
    np.testing.assert_allclose(dots.get_ydata(), freq)
    assert ax.get_title() == "Forman & Scholz Fig. 9 (reproduced): 10-fold unstratified CV"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["10", "20", "50", "100", "200", "400"]
    assert "%" in ax.get_ylabel() and "count" in ax.get_xlabel()
    with pytest.raises(ValueError, match="n_reps"):
        fs.plot_figure9(n_reps=0)


def test_tp_fp_relative_bias_is_largest_at_1pct_positives_and_f_60():
    # Notebook 03 §3 prints F_tp,fp's largest |relative bias| over the grid (simulated, 10^6 repetitions):
    # -0.49% at 1% positives, F = 60%. Its exact expectation, the same stratified and unstratified,
    # must put the extreme at the same point, with the same sign and rounded value.
    exact = apples.theory.exact_grid(fs.figure_grid())
    tp = exact[exact.method == "tp_fp"]
    rb = tp.exact_mean / tp.f_true - 1
    worst = tp.loc[rb.abs().idxmax()]
    assert np.isclose(worst.prior, 0.01) and np.isclose(worst.f_true, 0.6)
    assert f"{rb.loc[worst.name]:+.2%}" == "-0.49%"
    assert (rb < 0).all()  # the "very small negative bias" of §4.3, at every grid point
