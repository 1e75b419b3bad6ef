"""The notebook-04 figures of the Van Asch study and the half-up rounding of notebook 05.

Each plot is checked against values computed here independently (exact_fold_f1,
fold_f1_readings, delta_table, simulate_fold_counts), each data function against
the calls it stands for, and bad arguments must be refused with the argument named.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import apples
from apples.cv import percent, round_half_up
from apples.studies import van_asch as va

PROPS = [0.0, 0.05, 0.1]


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


# -- round_half_up ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("x", "digits", "expected"),
    [
        (0.6125, 3, 0.613),  # Van Asch Table 5: 49/80 printed 0.613 (round() gives 0.612)
        (2.5, 0, 3.0),  # round() gives 2
        (0.5, 0, 1.0),
        (1.5, 0, 2.0),
        (0.625, 2, 0.63),
        (0.4, 3, 0.4),
        (0.12345, 4, 0.1235),
        (-0.5, 0, -1.0),  # documented: halves away from zero
        (-0.0125, 3, -0.013),
        (7, 0, 7.0),
        (np.float64(0.6125), 3, 0.613),
    ],
)
def test_round_half_up_hand_values(x, digits, expected):
    assert round_half_up(x, digits=digits) == expected


def test_round_half_up_differs_from_round():
    assert round(0.125, 2) == 0.12 and round_half_up(0.125, digits=2) == 0.13  # binary half: to even
    assert round(2.675, 2) == 2.67 and round_half_up(2.675, digits=2) == 2.68  # binary 2.67499999...
    assert round(2.5) == 2 and round_half_up(2.5, digits=0) == 3.0


def test_percent_outputs_unchanged():
    # the outputs notebooks 01/02 and tests/cv/test_cross_validation.py rely on
    assert (percent(0.625), percent(0.58333), percent(0.7336, decimals=1)) == ("63%", "58%", "73.4%")
    assert percent(0.0145, decimals=1) == "1.5%"  # 1.45 in decimal, a half: up (binary 0.0145 * 100 is 1.4499...)
    assert percent(0.5, decimals=2) == "50.00%"
    assert percent(-0.005) == "-1%"


@pytest.mark.parametrize(
    ("kwargs", "error", "word"),
    [
        ({"x": "0.5", "digits": 1}, TypeError, "x"),
        ({"x": None, "digits": 1}, TypeError, "x"),
        ({"x": True, "digits": 1}, TypeError, "x"),
        ({"x": float("nan"), "digits": 1}, ValueError, "x"),
        ({"x": float("inf"), "digits": 1}, ValueError, "x"),
        ({"x": 0.5, "digits": -1}, ValueError, "digits"),
        ({"x": 0.5, "digits": 101}, ValueError, "digits"),
        ({"x": 0.5, "digits": 1.0}, TypeError, "digits"),
    ],
)
def test_round_half_up_refuses(kwargs, error, word):
    with pytest.raises(error, match=word):
        round_half_up(**kwargs)


def test_round_half_up_digits_keyword_only():
    with pytest.raises(TypeError):
        round_half_up(0.5, 1)  # type: ignore[misc]


# -- figure2_curves --------------------------------------------------------------------------------
def test_figure2_constants():
    assert list(va.FIGURE2_PANELS) == list("abcdef")
    assert va.FIGURE2_PANELS["e"] == (50, 1000) and va.FIGURE2_PANELS["b"] == (5, 10_000)
    assert len(va.FIGURE2_PROPS) == 21 and va.FIGURE2_PROPS[0] == 0 and np.isclose(va.FIGURE2_PROPS[-1], 0.1)
    with pytest.raises(TypeError):
        va.FIGURE2_PANELS["g"] = (2, 10)  # type: ignore[index]
    with pytest.raises(ValueError):
        va.FIGURE2_PROPS[0] = 1.0


def test_figure2_curves_is_fold_f1_curve_per_panel():
    panels = {"a": (5, 1000), "e": (50, 1000)}
    curves = va.figure2_curves(props=PROPS, panels=panels, n_reps=20, seed=3)
    assert list(curves) == ["a", "e"]
    for key, (k, n) in panels.items():
        exact = va.fold_f1_curve(PROPS, n_instances=n, n_folds=k, n_reps=0)
        sim = va.fold_f1_curve(PROPS[::2], n_instances=n, n_folds=k, n_reps=20, seed=3)
        pd.testing.assert_frame_equal(curves[key], pd.concat([exact, sim]))


def test_figure2_curves_exact_only_and_default_panels():
    curves = va.figure2_curves(props=[0.05], n_reps=0, allocation="stratified")
    assert list(curves) == list(va.FIGURE2_PANELS)
    for key, (k, n) in va.FIGURE2_PANELS.items():
        c = curves[key]
        assert len(c) == 4 and c["mean"].isna().all()
        row = c[(c["average"] == "binary") & (c["method"] == "avg")].iloc[0]
        assert row["exact"] == va.exact_fold_f1(0.05, method="avg", n_instances=n, n_folds=k, allocation="stratified")


@pytest.mark.parametrize(
    ("kwargs", "error", "word"),
    [
        ({"props": [1.5]}, ValueError, "props"),
        ({"n_reps": -1}, ValueError, "n_reps"),
        ({"n_reps": 2.0}, TypeError, "n_reps"),
        ({"seed": -1}, ValueError, "seed"),
        ({"panels": [(5, 1000)]}, TypeError, "panels"),
        ({"panels": {"a": 5}}, ValueError, "panels"),
        ({"allocation": "sorted"}, ValueError, "allocation"),
    ],
)
def test_figure2_curves_refuses(kwargs, error, word):
    with pytest.raises(error, match=word):
        va.figure2_curves(**{"props": [0.05], "panels": {"a": (5, 1000)}, "n_reps": 0, **kwargs})


# -- plot_fold_f1_grid -----------------------------------------------------------------------------
def test_grid_draws_each_panel_exact_values():
    curves = va.figure2_curves(props=PROPS, n_reps=0)
    fig = va.plot_fold_f1_grid(curves, average="binary")
    assert isinstance(fig, matplotlib.figure.Figure)
    axes = [a for a in fig.axes if a.get_visible()]
    assert len(axes) == 7  # six panels and the difference eq. (31) - F_tp,fp
    axes = axes[:6]
    assert fig._suptitle.get_text().startswith("Van Asch Figure 2 (re-created from the §7.1 set-up): F1 of class A")
    for a, (key, (k, n)) in zip(axes, va.FIGURE2_PANELS.items(), strict=True):
        assert a.get_title() == f"Van Asch Fig. 2{key} (re-created): {k} folds, {n:,} instances"
        avg_line = next(line for line in a.get_lines() if line.get_label() == "F_avg (exact mean)")
        expected = [100 * va.exact_fold_f1(p, method="avg", n_instances=n, n_folds=k) for p in PROPS]
        np.testing.assert_allclose(avg_line.get_ydata(), expected, rtol=1e-12)
        np.testing.assert_allclose(avg_line.get_xdata(), 100 * np.array(PROPS))
        assert a.get_ylim() == (0, 92)
    assert axes[0].get_legend() is not None and axes[1].get_legend() is None


def test_grid_on_given_axes_and_refusals():
    curves = va.figure2_curves(props=[0.05], panels={"c": (10, 1000), "d": (10, 10_000)}, n_reps=0)
    fig, axes = plt.subplots(1, 2)
    assert va.plot_fold_f1_grid(curves, residual=False, ax=axes) is fig
    assert axes[0].get_ylim() == (45, 92)  # macro
    with pytest.raises(ValueError, match="3 Axes"):
        va.plot_fold_f1_grid(curves, ax=axes)  # the difference panel needs its own Axes
    with pytest.raises(TypeError, match="residual"):
        va.plot_fold_f1_grid(curves, residual="yes")
    title = "Van Asch Figure 2 (re-created from the §7.1 set-up): macro-F1 of A and B, as in the caption"
    assert fig._suptitle.get_text() == title
    with pytest.raises(ValueError, match="ax"):
        va.plot_fold_f1_grid(curves, ax=[axes[0]])
    with pytest.raises(ValueError, match="average"):
        va.plot_fold_f1_grid(curves, average="micro")
    with pytest.raises(TypeError, match="curves"):
        va.plot_fold_f1_grid([curves["c"]])
    with pytest.raises(ValueError, match="curves"):
        va.plot_fold_f1_grid({"z": curves["c"]})
    with pytest.raises(TypeError, match="curves"):
        va.plot_fold_f1_grid({"c": "not a frame"})
    with pytest.raises(TypeError):
        va.plot_fold_f1_grid(curves, "binary")  # type: ignore[misc]


@pytest.mark.parametrize("average", ["macro", "binary"])
def test_grid_shows_eq31_on_top_of_tp_fp_and_their_difference(average):
    # eq. (31) coincides with F_tp,fp to a fraction of a point: drawn as a thin line under (or over) the
    # F_tp,fp line it disappears. It must be dashed, above F_tp,fp, thinner than the F_tp,fp band, and
    # the bottom panel must show F_tp,fp - eq. (31) itself, computed here from exact_fold_f1 and theoretical_f1.
    props = [0.0, 0.01, 0.02, 0.05, 0.1]
    curves = va.figure2_curves(props=props, n_reps=0)
    fig = va.plot_fold_f1_grid(curves, average=average)
    panels, diff_ax = fig.axes[:6], fig.axes[6]
    assert len(panels) == len(va.FIGURE2_PANELS)
    for a in panels:
        tp_fp = next(line for line in a.get_lines() if line.get_label() == "F_tp,fp (exact mean)")
        (eq31,) = [line for line in a.get_lines() if line.get_label().startswith("eq. (31)")]
        assert eq31.get_label().endswith("on F_tp,fp")
        assert eq31.get_linestyle() != "-" and eq31.get_zorder() > tp_fp.get_zorder()
        assert tp_fp.get_linewidth() >= 2 * eq31.get_linewidth()
        expected = apples.theory.theoretical_f1(np.array(props), average=average)
        np.testing.assert_allclose(eq31.get_ydata(), 100 * expected, rtol=1e-12)
    assert "eq. (31)" in diff_ax.get_title() and "not in the paper" in diff_ax.get_title()
    lines = {line.get_label(): line for line in diff_ax.get_lines() if not line.get_label().startswith("_")}
    assert sorted(lines) == ["N = 1,000: panels a, c, e", "N = 10,000: panels b, d, f"]
    largest = 0.0
    for label, n in (("N = 1,000: panels a, c, e", 1000), ("N = 10,000: panels b, d, f", 10_000)):
        exact = [va.exact_fold_f1(p, method="tp_fp", average=average, n_instances=n, n_folds=10) for p in props]
        diff = np.array(exact)
        diff = 100 * (diff - apples.theory.theoretical_f1(np.array(props), average=average))
        np.testing.assert_allclose(lines[label].get_ydata(), diff, atol=1e-12)
        largest = max(largest, np.abs(diff).max())
    assert 0 < largest < 1  # "coincides almost exactly": under a point, but not zero (integer counts)
    assert diff_ax.get_title().endswith(f"at most {largest:.2f} points apart")
    fig.canvas.draw()
    legend = diff_ax.get_legend().get_window_extent()
    assert legend.y1 < diff_ax.get_window_extent().y0  # below the panel, off its data


# -- plot_fold_f1_readings -------------------------------------------------------------------------
def test_readings_draw_fold_f1_readings():
    readings = {
        key: va.fold_f1_readings(PROPS, n_instances=va.FIGURE2_PANELS[key][1], n_folds=va.FIGURE2_PANELS[key][0])
        for key in ("c", "e")
    }
    fig = va.plot_fold_f1_readings(readings, panels=("c", "e"))
    assert isinstance(fig, matplotlib.figure.Figure) and len(fig.axes) == 2
    for a, key in zip(fig.axes, ("c", "e"), strict=True):
        labels = {line.get_label(): line for line in a.get_lines()}
        k, n = va.FIGURE2_PANELS[key]
        expected = [
            100 * va.exact_fold_f1(p, method="avg", allocation="stratified", n_instances=n, n_folds=k) for p in PROPS
        ]
        np.testing.assert_allclose(labels["E[F_avg], stratified folds"].get_ydata(), expected, rtol=1e-12)
        np.testing.assert_allclose(
            labels["F_tp,fp"].get_ydata(), [100 * va.exact_fold_f1(p, method="tp_fp", n_instances=n) for p in PROPS]
        )
        assert labels["E[F_avg], random, binomial errors"].get_linestyle() == ":"
        assert a.get_title() == f"Fig. 2{key} set-up: {k} folds, {n:,} instances"
    assert fig.axes[0].get_legend() is not None


def test_readings_refusals():
    r = {"c": va.fold_f1_readings([0.05], n_instances=1000, n_folds=10)}
    with pytest.raises(ValueError, match="readings"):
        va.plot_fold_f1_readings(r, panels=("c", "e"))
    with pytest.raises(ValueError, match="panels"):
        va.plot_fold_f1_readings(r, panels=("x",))
    with pytest.raises(TypeError, match="panels"):
        va.plot_fold_f1_readings(r, panels="c")
    with pytest.raises(TypeError, match="readings"):
        va.plot_fold_f1_readings(r["c"], panels=("c",))
    with pytest.raises(ValueError, match="readings"):
        va.plot_fold_f1_readings({"c": r["c"].rename(columns={"tp_fp: fixed": "other"})}, panels=("c",))


# -- plot_delta_factors ----------------------------------------------------------------------------
def _one_cv_table():
    one = va.simulate_fold_counts(0.02, n_instances=1000, n_folds=50, n_reps=1, seed=2013)
    return apples.theory.delta_table(one.n_a[0], one.tp_a[0], one.tp_b[0], fold_size=one.fold_size)


def test_delta_factors_draws_table():
    table = _one_cv_table()
    fig = va.plot_delta_factors(table)
    assert isinstance(fig, matplotlib.figure.Figure)
    ax_delta, ax_gap = fig.axes
    with_tp = ax_delta.collections[1].get_offsets()
    has_tp = table["tp_a"].to_numpy() > 0
    np.testing.assert_array_equal(with_tp[:, 0], table.index[has_tp])
    np.testing.assert_allclose(with_tp[:, 1], table["delta"][has_tp])
    assert fig.get_suptitle() == (
        "Van Asch §7.1 fold by fold, one cross-validation (50 folds, 1000 instances, 2 % A; not a figure of the paper)"
    )
    heights = [p.get_height() for p in ax_gap.patches]
    np.testing.assert_allclose(heights, 100 * table["gap"].to_numpy())
    total = 100 * table["gap"].sum()
    assert ax_gap.get_title() == f"Each fold's share of F_avg - F_tp,fp; they sum to {total:+.2f} points"
    # both panels span every fold, also the last ones whose δ is undefined (no dot on the left)
    assert ax_delta.get_xlim() == ax_gap.get_xlim()
    assert ax_delta.get_xlim()[0] < table.index.min() and ax_delta.get_xlim()[1] > table.index.max()


def test_delta_factors_refusals():
    table = _one_cv_table()
    with pytest.raises(TypeError, match="table"):
        va.plot_delta_factors(table.to_numpy())
    with pytest.raises(ValueError, match="table"):
        va.plot_delta_factors(table.drop(columns="delta"))
    with pytest.raises(ValueError, match="ax"):
        va.plot_delta_factors(table, ax=[plt.gca()])


# -- plot_fold_f1_single_runs ----------------------------------------------------------------------
def test_single_runs_draw_simulations_and_exact():
    ax = va.plot_fold_f1_single_runs(n_folds=10, n_instances=1000, seeds=[0, 3], props=PROPS)
    assert isinstance(ax, matplotlib.axes.Axes)
    lines = ax.get_lines()
    assert len(lines) == 4
    for line, s in zip(lines[:2], [0, 3], strict=True):
        expected = [
            100
            * va.simulate_fold_counts(p, n_instances=1000, n_folds=10, n_reps=1, seed=1000 * s + i).f1(method="avg")[0]
            for i, p in enumerate(PROPS)
        ]
        np.testing.assert_allclose(line.get_ydata(), expected)
    np.testing.assert_allclose(
        lines[2].get_ydata(), [100 * va.exact_fold_f1(p, method="avg", n_folds=10) for p in PROPS]
    )
    assert ax.get_title() == "Single cross-validations, Van Asch Fig. 2c set-up (10 folds, 1,000 instances)"


@pytest.mark.parametrize(
    ("kwargs", "error", "word"),
    [
        ({"seeds": [-1]}, ValueError, "seeds"),
        ({"seeds": 3}, TypeError, "seeds"),
        ({"n_folds": 0}, ValueError, "n_folds"),
        ({"n_instances": 1.5}, TypeError, "n_instances"),
        ({"props": [2.0]}, ValueError, "props"),
    ],
)
def test_single_runs_refusals(kwargs, error, word):
    with pytest.raises(error, match=word):
        va.plot_fold_f1_single_runs(**{"seeds": [0], "props": [0.05], **kwargs})


# -- plot_fold_f1_convergence ----------------------------------------------------------------------
def test_convergence_draws_means_and_band():
    exact = va.exact_fold_f1(0.05, method="avg", n_instances=200, n_folds=10)
    rows = []
    for i, r in enumerate((10, 100, 1000)):
        res = va.simulate_fold_f1(0.05, n_instances=200, n_folds=10, n_reps=r, seed=i).loc[("binary", "avg")]
        rows.append({"n_reps": r, "mean": res["mean"], "se": res["se"]})
    conv = pd.DataFrame(rows)
    _fig, ax = plt.subplots()
    assert va.plot_fold_f1_convergence(conv, exact, ax=ax) is ax
    hline = next(line for line in ax.get_lines() if line.get_label().startswith("exact E[F_avg]"))
    assert hline.get_ydata()[0] == pytest.approx(100 * exact)
    markers = ax.containers[0].lines[0]
    np.testing.assert_allclose(np.asarray(markers.get_ydata(), dtype=float), 100 * conv["mean"].to_numpy())
    sd = conv["se"].iloc[-1] * np.sqrt(1000)
    band = ax.collections[0].get_paths()[0].vertices[:, 1]
    assert band.max() == pytest.approx(100 * (exact + 2 * sd / np.sqrt(10)))
    assert ax.get_xscale() == "log"
    assert ax.get_title().startswith("Monte Carlo converging to the exact E[F_avg]")


def test_convergence_refusals():
    conv = pd.DataFrame({"n_reps": [10], "mean": [0.5], "se": [0.1]})
    with pytest.raises(ValueError, match="conv"):
        va.plot_fold_f1_convergence(conv.drop(columns="se"), 0.5)
    with pytest.raises(TypeError, match="conv"):
        va.plot_fold_f1_convergence({"n_reps": [10]}, 0.5)
    with pytest.raises(ValueError, match="exact"):
        va.plot_fold_f1_convergence(conv, float("nan"))
    with pytest.raises(TypeError, match="exact"):
        va.plot_fold_f1_convergence(conv, "0.5")
    with pytest.raises(TypeError, match="title"):
        va.plot_fold_f1_convergence(conv, 0.5, title=3)


# -- plot_averages: Van Asch Tables 2-5 as dots (notebook 05) ----------------------------------------------------
TABLE3 = {
    "c1": apples.Counts(3, 2, 7),
    "c2": apples.Counts(1, 7, 9),
    "c3": apples.Counts(6, 6, 8),
    "c4": apples.Counts(6, 9, 0),
}
TRAIN3 = {"c1": 0.1, "c2": 0.2, "c3": 0.3, "c4": 0.4}


def test_plot_averages_places_each_average_at_its_hand_computed_value():
    ax = plt.figure().add_subplot()
    tables = {
        "Table 2": ({"a": apples.Counts(10, 10, 10), "b": apples.Counts(90, 10, 10)}, None),
        "Table 3": (TABLE3, TRAIN3),
    }
    assert va.plot_averages(tables, measure="precision", ax=ax, xlim=(35, 92)) is ax
    points = [(float(ln.get_xdata()[0]), float(ln.get_ydata()[0]), ln.get_color()) for ln in ax.get_lines()]
    # Table 2 (row 0): macro (0.5 + 0.9)/2 = 70 %, micro 100/120 = 83.3 %, no lfb without frequencies
    # Table 3 (row 1): macro (3/5 + 1/8 + 6/12 + 6/15)/4, micro 16/40, lfb 0.1·3/5 + 0.2·1/8 + 0.3·1/2 + 0.4·6/15
    expected = [
        (70.0, -0.25, "C0"),
        (100 * (3 / 5 + 1 / 8 + 1 / 2 + 6 / 15) / 4, 0.75, "C0"),
        (100 * 100 / 120, 0.0, "C1"),
        (40.0, 1.0, "C1"),
        (100 * (0.1 * 3 / 5 + 0.2 / 8 + 0.3 / 2 + 0.4 * 6 / 15), 1.25, "C2"),
    ]
    assert len(points) == len(expected)
    for (x, y, c), (ex, ey, ec) in zip(points, expected, strict=True):
        assert x == pytest.approx(ex) and y == pytest.approx(ey) and c == ec
    assert [t.get_text() for t in ax.get_yticklabels()] == ["Table 2", "Table 3"]
    assert ax.get_ylim() == (1.5, -0.5)  # first table on top
    assert ax.get_xlim() == (35, 92) and "axis starts at 35, not 0" in ax.get_xlabel()
    assert [t.get_text() for t in ax.texts][:2] == ["70.0", f"{100 * (3 / 5 + 1 / 8 + 1 / 2 + 6 / 15) / 4:.1f}"]


def test_plot_averages_legend_sits_outside_and_can_be_left_out():
    ax = plt.figure().add_subplot()
    va.plot_averages({"Table 3": (TABLE3, TRAIN3)}, measure="recall", ax=ax)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["macro", "micro", "lfb"]
    assert ax.get_legend().get_bbox_to_anchor().x0 >= ax.get_window_extent().x1  # right of the axes
    assert ax.get_xlabel() == "averaged recall (%)"
    ax2 = plt.figure().add_subplot()
    va.plot_averages({"Table 3": (TABLE3, TRAIN3)}, ax=ax2, legend=False)
    assert ax2.get_legend() is None


@pytest.mark.parametrize(
    ("kwargs", "error", "word"),
    [
        ({"tables": {}}, TypeError, "tables"),
        ({"tables": {"t": TABLE3}}, TypeError, "tables"),
        ({"measure": "f1"}, ValueError, "measure"),
        ({"xlim": (50, 40)}, ValueError, r"xlim\[1\]"),
        ({"xlim": "35"}, TypeError, "xlim"),
        ({"legend": "yes"}, TypeError, "legend"),
    ],
)
def test_plot_averages_refuses_bad_arguments(kwargs, error, word):
    call = {"tables": {"Table 3": (TABLE3, TRAIN3)}, **kwargs}
    with pytest.raises(error, match=word):
        va.plot_averages(**call)
