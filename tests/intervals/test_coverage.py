"""The coverage study: the main intervals cover at their nominal rate where theory says they should,
within a tolerance derived from the Monte Carlo standard error, and the naive t does not."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from apples import intervals
from apples.intervals import COVERAGE_INTERVALS, coverage_study

N_STUDIES = 300
#: Monte Carlo standard error of an empirical coverage of 300 studies at the nominal 0.95.
MCSE = math.sqrt(0.95 * 0.05 / N_STUDIES)


def _setting(model, prior, n_cases, n_folds, truth=0.8, training_sd=0.0):
    return pd.DataFrame(
        [
            {
                "model": model,
                "prior": prior,
                "n_cases": n_cases,
                "n_folds": n_folds,
                "truth": truth,
                "training_sd": training_sd,
            }
        ]
    )


@pytest.fixture(scope="module")
def small():
    """Balanced classes, 100 cases, 5 folds; a fixed classifier (binormal τ = 0) and a trained one (τ = 1)."""
    settings = pd.concat(
        [
            _setting("f_model", 0.5, 100, 5),
            _setting("binormal", 0.5, 100, 5),
            _setting("binormal", 0.5, 100, 5, training_sd=1.0),
        ],
        ignore_index=True,
    )
    return coverage_study(settings, n_studies=N_STUDIES, n_resamples=100, seed=1)


def _coverage(table, interval, training_sd=0.0):
    row = table[(table["interval"] == interval) & (table["training_sd"] == training_sd)]
    assert len(row) == 1
    return float(row["coverage"].iloc[0])


@pytest.mark.parametrize("interval", ["recall Wilson", "F_tp,fp bootstrap", "AUC DeLong", "AUC bootstrap"])
def test_main_intervals_cover_at_the_nominal_rate(small, interval):
    # 4 Monte Carlo standard errors (0.05); the bootstrap's ends carry Monte Carlo noise of their own (100
    # resamples), which lowers its coverage a little: one more MCSE below for it.
    extra = MCSE if "bootstrap" in interval else 0.0
    assert 0.95 - 4 * MCSE - extra <= _coverage(small, interval) <= 0.95 + 4 * MCSE


def test_naive_t_under_covers_when_training_sets_overlap_and_the_correction_helps(small):
    # τ = 1: fold classifiers share a training effect; the naive t ignores it (Nadeau & Bengio 2003)
    naive = _coverage(small, "fold AUC t", training_sd=1.0)
    corrected = _coverage(small, "fold AUC corrected t", training_sd=1.0)
    assert naive < 0.95 - 4 * MCSE
    assert corrected > naive + 4 * MCSE
    # the pooled DeLong interval conditions on the trained classifiers: it under-covers too
    assert _coverage(small, "AUC DeLong", training_sd=1.0) < 0.95 - 4 * MCSE


def test_table_layout_and_monte_carlo_error(small):
    assert list(small["interval"]) == [*COVERAGE_INTERVALS["f_model"], *COVERAGE_INTERVALS["binormal"] * 2]
    c = small["coverage"]
    assert ((small["mcse"] - (c * (1 - c) / N_STUDIES) ** 0.5).abs() < 1e-15).all()
    assert ((small["miss_low"] + small["miss_high"] + c - 1).abs() < 1e-12).all()
    assert (small["mean_width"] > 0).all()


def test_results_do_not_depend_on_n_jobs_or_on_the_other_settings():
    settings = pd.concat(
        [
            _setting("f_model", 0.5, 20, 2, truth=0.75),
            _setting("binormal", 0.5, 20, 2),
            _setting("binormal", 0.25, 40, 2, training_sd=0.5),
        ],
        ignore_index=True,
    )
    one = coverage_study(settings, n_studies=20, n_resamples=10, seed=3)
    joblib = pytest.importorskip("joblib")
    with joblib.parallel_config(backend="threading"):  # the same Parallel call, without starting processes
        two = coverage_study(settings, n_studies=20, n_resamples=10, seed=3, n_jobs=2)
    pd.testing.assert_frame_equal(one, two)
    # setting i draws from SeedSequence(seed).spawn(n)[i], whatever runs beside it
    alone = coverage_study(settings.head(2), n_studies=20, n_resamples=10, seed=3)
    pd.testing.assert_frame_equal(alone, one.head(8))


def test_settings_are_checked():
    bad = _setting("binormal", 0.01, 200, 5)
    with pytest.raises(ValueError, match="n_folds"):
        coverage_study(bad, n_studies=10)
    with pytest.raises(ValueError, match=r"settings.model"):
        coverage_study(_setting("svm", 0.5, 200, 5), n_studies=10)
    with pytest.raises(TypeError, match="settings"):
        coverage_study([1, 2], n_studies=10)


def test_plot_coverage_draws_each_interval_at_its_setting():
    """Each point sits at its setting's tick with the table's coverage and a ±2 MCSE bar; bad tables refused."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd

    table = pd.DataFrame(
        {
            "model": ["f_model", "f_model", "binormal", "binormal"],
            "prior": [0.01, 0.01, 0.5, 0.5],
            "training_sd": [0.0, 0.0, 0.5, 0.5],
            "interval": ["F_tp,fp bootstrap", "recall Wilson", "AUC DeLong", "AUC bootstrap"],
            "coverage": [0.95, 0.9, 0.5, 0.625],
            "mcse": [0.01, 0.02, 0.03, 0.04],
        }
    )
    fig, ax = plt.subplots()
    assert intervals.plot_coverage(table, ax=ax) is ax
    points = [line.get_xydata()[0] for line in ax.lines if line.get_marker() == "o"]
    assert [round(y, 6) for _, y in points] == [0.95, 0.9, 0.5, 0.625]
    assert [round(x) for x, _ in points] == [0, 0, 1, 1]  # two settings, two ticks
    assert [t.get_text() for t in ax.get_xticklabels()] == ["f_model 1% τ=0", "binormal 50% τ=0.5"]
    bars = [c for c in ax.collections if c.get_segments()]
    assert [seg[0][1, 1] - seg[0][0, 1] for seg in (b.get_segments() for b in bars)] == pytest.approx(
        [0.04, 0.08, 0.12, 0.16]
    )
    with pytest.raises(ValueError, match="table lacks the column"):
        intervals.plot_coverage(table.drop(columns="mcse"), ax=ax)
    with pytest.raises(ValueError, match="nominal"):
        intervals.plot_coverage(table, ax=ax, nominal=1.5)
    plt.close(fig)
