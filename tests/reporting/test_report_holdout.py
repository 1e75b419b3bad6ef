"""Repeated hold-out (ShuffleSplit): the fold averages' interval is Nadeau & Bengio's corrected resampled t with
the training size n_cases - n_test, and the header counts splits, cases and the overlap of the test sets."""

import numpy as np
import pytest
from scipy import stats

import apples

from report_view import nested


def _holdout(n_cases=40, n_test=10, n_splits=4, seed=0, with_n_cases=True):
    rng = np.random.default_rng(seed)
    y_all = np.r_[np.ones(n_cases // 2, dtype=int), np.zeros(n_cases - n_cases // 2, dtype=int)]
    pred_all = np.where(rng.random(n_cases) < 0.8, y_all, 1 - y_all)
    rows = [rng.choice(n_cases, n_test, replace=False) for _ in range(n_splits)]
    cases = np.concatenate(rows)
    flip = rng.random(cases.size) < 0.1  # each split's model errs a little differently
    pred = np.where(flip, 1 - pred_all[cases], pred_all[cases])
    p = apples.CVPredictions(
        y_all[cases],
        y_pred=pred,
        folds=np.zeros(cases.size, dtype=int),
        repeats=np.repeat(np.arange(n_splits), n_test),
        cases=cases,
        n_cases=n_cases if with_n_cases else None,
    )
    return p, y_all[cases].reshape(n_splits, n_test), pred.reshape(n_splits, n_test)


def test_the_accuracy_interval_is_the_corrected_resampled_t_with_the_training_size():
    p, y, pred = _holdout()
    d = nested(apples.report(p, confidence=0.95))
    acc = (y == pred).mean(axis=1)  # one accuracy per split
    j, n_test, n_train = acc.size, 10, 30
    se = np.sqrt((1 / j + n_test / n_train) * acc.var(ddof=1))
    half = stats.t.ppf(0.975, j - 1) * se  # Nadeau & Bengio (2003) §4: the corrected resampled t
    got = d["intervals"]["accuracy"]["avg"]
    assert got["method"] == "corrected_resampled_t"
    assert got["low"] == pytest.approx(max(0.0, acc.mean() - half), abs=1e-12)
    assert got["high"] == pytest.approx(min(1.0, acc.mean() + half), abs=1e-12)


def test_without_the_number_of_cases_a_hold_out_average_has_no_interval_and_says_why():
    p, _, _ = _holdout(with_n_cases=False)
    got = nested(apples.report(p, confidence=0.95))["intervals"]["accuracy"]["avg"]
    assert got["low"] is None and "n_cases" in got["reason"]


def test_the_header_counts_splits_cases_and_the_overlap():
    p, _, _ = _holdout()
    d = nested(apples.report(p))
    first = str(apples.report(p)).splitlines()[0]
    assert "4 hold-out splits of 40 cases, 10 test cases each" in first
    assert d["design"]["design"] == "repeated hold-out"
    times = np.bincount(np.asarray(p.cases), minlength=40)  # how often each case was tested, counted here
    shared, tested, untested = int((times >= 2).sum()), int((times >= 1).sum()), int((times == 0).sum())
    assert shared > 0  # with this seed, four draws of 10 from 40 share cases
    assert f"the test sets overlap: {shared} of {tested} tested cases in two or more splits" in first
    assert f"{untested} cases never tested" in first
