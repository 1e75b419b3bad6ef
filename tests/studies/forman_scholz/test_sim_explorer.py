"""Tests of apples.sim_explorer: the pure function and the widget builder."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

from apples.cv import F_AGGREGATIONS
from apples.studies.forman_scholz import explore_cv_f, plot_cv_f_histograms, sample_cv_f, sim_explorer
from apples.theory import exact_cv_f


def test_explore_matches_sample_and_exact():
    r = explore_cv_f(0.02, 0.7, stratified=False, n_reps=3000, seed=4)
    est = sample_cv_f(0.02, 0.7, stratified=False, n_reps=3000, seed=4)
    np.testing.assert_array_equal(r.estimates.to_numpy(), est.to_numpy())
    np.testing.assert_allclose(r.summary["mean"], est.mean(), rtol=1e-12)
    np.testing.assert_allclose(r.summary["bias"], est.mean() - 0.7, rtol=1e-9)
    for method in ("tp_fp", "avg"):
        assert r.summary.loc[method, "exact_mean"] == exact_cv_f(0.02, 0.7, stratified=False, method=method)
        # and the simulated mean agrees with the exact sum within 4 standard errors
        sd = exact_cv_f(0.02, 0.7, stratified=False, method=method, statistic="std")
        assert abs(r.summary.loc[method, "mean"] - r.summary.loc[method, "exact_mean"]) < 4 * sd / np.sqrt(3000)
    assert r.summary.loc[["pr_re", "avg_skip", "pr_re_skip"], "exact_mean"].isna().all()
    assert "20 positives" in r.text and "unstratified" in r.text


def test_plot_helper_returns_ax():
    import matplotlib.pyplot as plt

    r = explore_cv_f(0.05, 0.8, n_reps=500)
    ax = plot_cv_f_histograms(r.estimates, r.f_true)
    assert ax.get_xlabel() == "cross-validated F (%)"
    assert len(ax.get_legend_handles_labels()[1]) == len(F_AGGREGATIONS) + 1
    plt.close("all")


def test_widget_updates_on_value_change():
    ex = sim_explorer(n_reps=500, draw=False)
    assert "10 positives in 1000 cases" in ex.status.value
    assert "F_tp,fp" in ex.summary.value
    first = ex.result.summary.copy()
    ex.controls["prior"].value = 0.05
    assert "50 positives in 1000 cases" in ex.status.value
    ex.controls["stratified"].value = False
    assert "unstratified" in ex.status.value
    ex.controls["n_cases"].value = 100
    ex.controls["n_folds"].value = 20
    assert ex.result is not None and ex.result.summary.shape == first.shape
    assert "5 positives in 100 cases, 20 unstratified folds" in ex.status.value


def test_widget_reports_invalid_design_instead_of_raising():
    ex = sim_explorer(n_reps=200, draw=False)
    ex.controls["prior"].value = 0.5
    ex.controls["f_true"].value = 0.5
    ex.controls["n_cases"].value = 100
    ex.controls["prior"].value = 0.005  # 0.5 positives rounds half up to 1: fine
    assert ex.result is not None
    ex.controls["n_folds"].value = 50
    ex.controls["n_cases"].value = 100
    assert ex.result is not None
    ex.controls["f_true"].value = 1.0
    assert (ex.result.summary["mean"] <= 1.0).all()
    # the sliders cannot reach an invalid design, so offer one: 3 folds do not divide 100 cases
    ex.controls["n_folds"].options = [3, 50]
    ex.controls["n_folds"].value = 3
    assert ex.result is None and ex.summary.value == ""
    assert ex.status.value.startswith("Not simulated:") and "does not divide" in ex.status.value


def test_explore_bad_input():
    with pytest.raises(ValueError, match="prior"):
        explore_cv_f(0.0, 0.8)
    with pytest.raises(ValueError, match="does not divide"):
        explore_cv_f(0.1, 0.8, n_folds=3)


def test_every_explorer_displays_the_widget_and_a_snapshot_for_viewers_without_a_kernel():
    """GitHub, the book and an untrusted notebook cannot run a widget: the display carries a PNG of its figure."""
    import base64

    import matplotlib.pyplot as plt

    from apples.plotting import EXPLORER_NOTE
    from apples.studies import forman_scholz as fs
    from apples.studies import parker as pk

    for ex in (
        fs.sim_explorer(n_reps=300, draw=False),
        fs.calibration_explorer(plot=False),
        pk.incoherence_explorer(n_grid=9),
    ):
        bundle = ex._repr_mimebundle_()
        assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == ex.widget.model_id
        assert base64.b64decode(bundle["image/png"])[:8] == b"\x89PNG\r\n\x1a\n"
        assert bundle["text/plain"] == EXPLORER_NOTE and "running kernel" in EXPLORER_NOTE
    plt.close("all")


def test_ipython_stores_the_note_as_text_not_the_repr_of_every_control():
    """IPython pretty-prints tuples itself, overriding a NamedTuple's mimebundle text/plain unless told."""
    import matplotlib.pyplot as plt
    from IPython.core.formatters import DisplayFormatter

    from apples.plotting import EXPLORER_NOTE
    from apples.studies import forman_scholz as fs
    from apples.studies import parker as pk

    for ex in (
        fs.sim_explorer(n_reps=300, draw=False),
        fs.calibration_explorer(plot=False),
        pk.incoherence_explorer(n_grid=9),
    ):
        data, _ = DisplayFormatter().format(ex)
        assert data["text/plain"] == EXPLORER_NOTE, type(ex).__name__
        assert "image/png" in data and "application/vnd.jupyter.widget-view+json" in data
    plt.close("all")


def test_sim_explorer_snapshot_draws_the_current_result():
    import matplotlib.pyplot as plt

    ex = sim_explorer(n_reps=300, draw=False)
    ex.controls["prior"].value = 0.05
    fig = ex.snapshot()
    ax = fig.axes[0]
    _, ax2 = plt.subplots()
    plot_cv_f_histograms(ex.result.estimates, ex.result.f_true, ax=ax2)
    drawn = [p.get_xy().tolist() for p in ax.patches]
    assert drawn and drawn == [p.get_xy().tolist() for p in ax2.patches]
    plt.close("all")


def test_sim_explorer_states_its_summary_once_in_a_padded_table():
    ex = sim_explorer(n_reps=300, draw=False)
    sentence = ex.result.text
    assert sentence in ex.status.value and sentence not in ex.summary.value
    assert ex.summary.value.count("padding") >= 6 * 6  # every header and data cell


def test_snapshot_names_its_design_and_labels_its_axes():
    """The stored snapshot is read without the controls: its title says the design it shows."""
    import matplotlib.pyplot as plt

    from apples.studies import forman_scholz as fs

    ex = fs.sim_explorer(n_reps=300, draw=False)
    ex.controls["n_folds"].value = 5
    ax = ex.snapshot().axes[0]
    title = ax.get_title()
    assert "1.0% positives" in title and "true F = 80%" in title and "5-fold stratified CV of 1,000 cases" in title
    assert ax.get_xlabel() == "cross-validated F (%)" and ax.get_ylabel() == "repetitions (%)"
    assert ax.get_legend() is not None
    plt.close("all")
