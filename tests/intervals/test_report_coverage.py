"""The coverage study of the report's intervals: it computes what apples.report computes, covers where theory
says it must, does not depend on n_jobs, and refuses a study past its budget by name."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import apples
from apples._params import ParameterValueError
from apples.intervals import REPORT_COVERAGE_SETTINGS, report_coverage_settings, report_coverage_study
from apples.intervals.report_coverage import report_rows
from apples.measures import MEASURES
from apples.theory import simulate_learner_cv
from apples.theory.cv_learner import draw_study, study_predictions


def _setting(**kw):
    row = {
        "task": "binary",
        "prior": 0.5,
        "n_cases": 1000,
        "n_folds": 5,
        "n_repeats": 1,
        "training_sd": 0.0,
        "delta0": 1.5,
        "pos_weight": 1.0,
        **kw,
    }
    return pd.DataFrame([row], columns=list(REPORT_COVERAGE_SETTINGS))


@pytest.mark.parametrize(
    ("task", "prior", "weight"),
    [("binary", 0.1, 3.0), ("multiclass", (0.5, 0.3, 0.2), 1.0), ("multilabel", (0.3, 0.2), 1.0)],
)
def test_the_engine_gives_the_values_and_intervals_of_apples_report(task, prior, weight):
    p = simulate_learner_cv(
        task=task, prior=prior, n_cases=200, n_folds=5, n_repeats=3, training_sd=0.5, pos_weight=weight, seed=4
    )
    report = apples.report(p, confidence=0.95).to_frame(readable=False)
    mine = report_rows(p, [MEASURES[q] for q in dict.fromkeys(report["quantity"])], 0.95)
    keys = ["quantity", "average", "aggregation"]
    assert mine[keys].to_numpy().tolist() == report[keys].to_numpy().tolist()
    for column in ("value", "low", "high"):  # the same numbers, to the last bit (NaN where the report has none)
        np.testing.assert_array_equal(mine[column].to_numpy(), report[column].to_numpy(dtype=float))


N_STUDIES = 200
#: 4 Monte Carlo standard errors of a coverage of 0.95 estimated from 200 studies.
TOLERANCE = 4 * math.sqrt(0.95 * 0.05 / N_STUDIES)


@pytest.fixture(scope="module")
def fixed_classifier():
    """τ = 0 and 1,000 balanced cases in 5 folds: every fold model is the same classifier, so the fold values are
    independent (disjoint test sets) and nearly normal; the t over them covers, and the corrected t's extra
    n_test/n_train term only widens it."""
    return report_coverage_study(_setting(), n_studies=N_STUDIES, seed=2)


@pytest.mark.parametrize(
    ("quantity", "aggregation"),
    [
        ("accuracy", "avg"),
        ("accuracy", "pooled"),
        ("recall", "avg"),
        ("balanced_accuracy", "pooled"),
        ("roc_auc", "avg"),
        ("log_loss", "avg"),
        ("brier_score", "pooled"),
        ("f_measure", "tp_fp"),
    ],
)
def test_intervals_cover_where_theory_says_they_must(fixed_classifier, quantity, aggregation):
    row = fixed_classifier.set_index(["quantity", "aggregation"]).loc[(quantity, aggregation)]
    assert row["no_interval"] == 0.0
    assert row["coverage"] >= 0.95 - TOLERANCE, row


def test_table_layout_and_its_monte_carlo_errors(fixed_classifier):
    t = fixed_classifier
    assert list(t.columns[: len(REPORT_COVERAGE_SETTINGS)]) == list(REPORT_COVERAGE_SETTINGS)
    never = t["no_interval"] == 1.0  # values the report gives no interval (H_avg: the record says why)
    assert t.loc[never, "coverage"].isna().all() and set(t.loc[never, "quantity"]) == {"h_measure"}
    t = t[~never]
    c = t["coverage"]
    assert ((t["mcse"] - np.sqrt(c * (1 - c) / N_STUDIES)).abs() < 1e-15).all()
    assert ((t["miss_low"] + t["miss_high"] + c - 1).abs() < 1e-12).all()
    assert (t["truth"] == t["design_truth"]).all() and (t["coverage"] == t["design_coverage"]).all()  # τ = 0
    assert (t["n_studies"] == N_STUDIES).all() and (t["mean_width"] > 0).all()
    # the study's own count of coverage, from the report itself, for one value
    rng_children = np.random.SeedSequence(2).spawn(1)[0].spawn(N_STUDIES)
    hits = 0
    truth = t.set_index(["quantity", "aggregation"]).loc[("accuracy", "avg"), "truth"]
    for child in rng_children[:40]:
        study = draw_study("binary", 0.5, 1000, 5, 1, 1.5, 0.0, 1.0, np.random.default_rng(child))
        ci = apples.report(study_predictions(study, 1), measures=["accuracy"]).confidence_interval(
            0.95, quantity="accuracy", aggregation="avg"
        )
        hits += ci.low <= truth <= ci.high
    first = report_coverage_study(_setting(), n_studies=40, seed=2).set_index(["quantity", "aggregation"])
    assert first.loc[("accuracy", "avg"), "coverage"] == hits / 40


def test_results_do_not_depend_on_n_jobs_chunks_or_the_other_settings():
    settings = pd.concat(
        [
            _setting(n_cases=40, n_folds=2, n_repeats=2, training_sd=0.5, pos_weight=2.0),
            _setting(task="multiclass", prior=(0.5, 0.3, 0.2), n_cases=60, n_folds=3),
        ],
        ignore_index=True,
    )
    one = report_coverage_study(settings, n_studies=6, seed=3, pilot=1)
    joblib = pytest.importorskip("joblib")
    with joblib.parallel_config(backend="threading"):  # the same Parallel call, without starting processes
        two = report_coverage_study(settings, n_studies=6, seed=3, n_jobs=2, pilot=3)
    pd.testing.assert_frame_equal(one, two)
    # setting i draws from SeedSequence(seed).spawn(n)[i], whatever runs beside it
    alone = report_coverage_study(settings.head(1), n_studies=6, seed=3)
    pd.testing.assert_frame_equal(alone, one[one["task"] == "binary"].reset_index(drop=True), check_dtype=False)


def test_a_study_past_its_budget_is_refused_naming_the_limit():
    with pytest.raises(ParameterValueError, match=r"max_seconds=1e-06") as err:
        report_coverage_study(_setting(n_cases=40, n_folds=2), n_studies=100_000, max_seconds=1e-6, pilot=1)
    assert err.value.param == "max_seconds"
    assert "100,000 studies × 1 settings" in str(err.value)


def test_the_default_grid_and_bad_settings():
    grid = report_coverage_settings()
    binary = grid[grid["task"] == "binary"]
    assert len(binary) == 64 and binary["prior"].nunique() == 2 and set(binary["pos_weight"]) == {1.0, 3.0}
    assert set(grid["task"]) == {"binary", "multiclass", "multilabel"}
    with pytest.raises(ValueError, match=r"settings\.task"):
        report_coverage_study(_setting(task="ternary"), n_studies=2)
    with pytest.raises(ValueError, match="pos_weight"):
        report_coverage_study(_setting(task="multiclass", prior=(0.5, 0.3, 0.2), pos_weight=2.0), n_studies=2)
    with pytest.raises(ValueError, match="fewer than n_folds"):
        report_coverage_study(_setting(prior=0.01, n_cases=200), n_studies=2)
    with pytest.raises(TypeError, match="settings"):
        report_coverage_study([1, 2], n_studies=2)
