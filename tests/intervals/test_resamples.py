"""Bootstrap intervals refuse too few resamples (fewer than 1/(1 − confidence): none left outside the interval) and
warn below 1,000 (Efron & Tibshirani 1993 §13.3); cv_f_measure_ci estimates its work (resamples × folds) before
drawing and refuses beyond MAX_BOOTSTRAP_CELLS, naming the argument that made it large; leave-one-out folds, whose
resamples are all the data, are refused."""

from __future__ import annotations

import math
import warnings

import pytest

from apples import Counts, cv_f_measure_ci, roc_auc_ci
from apples._params import ParameterValueError
from apples.intervals import cv_f
from apples.intervals._resamples import RECOMMENDED_RESAMPLES, fewest_resamples

FOLDS = [
    Counts.from_fold(positives=p, negatives=n, tp=tp, fp=fp)
    for n, p, tp, fp in [(373, 3, 3, 0), (372, 4, 4, 1), (372, 4, 4, 13), (372, 4, 3, 5)]
]  # fmt: skip  (F&S Table 1)
Y = [1, 1, 0, 1, 0, 0, 1, 0, 1, 0]
S = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.35, 0.3, 0.2, 0.1]


@pytest.mark.parametrize(
    "confidence, floor", [(0.95, 20), (0.9, 10), (0.99, 100), (0.875, 8), (0.5, 2)], ids=lambda v: f"{v}"
)
def test_the_floor_is_one_resample_expected_outside_the_interval(confidence, floor):
    assert fewest_resamples(confidence) == floor
    assert floor * (1 - confidence) >= 1 - 1e-9 and (floor - 1) * (1 - confidence) < 1 - 1e-9  # by hand: B·α ≥ 1


@pytest.mark.parametrize("n", [1, 2, 19])
def test_too_few_resamples_are_refused_naming_n_resamples(n):
    for call in (
        lambda: cv_f_measure_ci(FOLDS, method="tp_fp", n_resamples=n),
        lambda: roc_auc_ci(Y, S, method="bootstrap", n_resamples=n),
    ):
        with pytest.raises(ParameterValueError, match=rf"^n_resamples={n} is too few for a 0.95 percentile") as info:
            call()
        assert info.value.param == "n_resamples" and "at least 20" in str(info.value) and "§13.3" in str(info.value)


def test_delong_draws_nothing_so_n_resamples_has_no_floor_there():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ci = roc_auc_ci(Y, S, method="delong", n_resamples=1)
    assert ci.method == "delong"


def test_fewer_than_a_thousand_resamples_warn_at_the_callers_line():
    with pytest.warns(UserWarning, match=r"n_resamples=20: the ends of a percentile bootstrap interval") as caught:
        ci = cv_f_measure_ci(FOLDS, method="tp_fp", n_resamples=20)
    assert caught[0].filename == __file__
    assert ci.low <= ci.estimate <= ci.high
    with pytest.warns(UserWarning, match="1,000 or more"):
        roc_auc_ci(Y, S, method="bootstrap", n_resamples=999)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cv_f_measure_ci(FOLDS, method="tp_fp", n_resamples=RECOMMENDED_RESAMPLES)
        roc_auc_ci(Y, S, method="bootstrap", n_resamples=RECOMMENDED_RESAMPLES)


def _many_folds(k: int) -> list[Counts]:
    return [Counts(3, 1, 1, 20)] * k


def test_a_large_bootstrap_is_refused_up_front_naming_n_resamples():
    """100,000 folds at the default 10,000 resamples ran for minutes; 1,000 resamples fit the budget."""
    folds = _many_folds(100_000)
    with pytest.raises(ParameterValueError) as info:
        cv_f_measure_ci(folds, method="tp_fp")
    err = info.value
    assert err.param == "n_resamples"
    assert "10,000 resamples of 100,000 folds are 1,000,000,000 (resample, fold) draws" in str(err)
    assert f"the limit is {cv_f.MAX_BOOTSTRAP_CELLS:,}" in str(err)
    assert f"give n_resamples={cv_f.MAX_BOOTSTRAP_CELLS // 100_000:,} or fewer" in str(err)


def test_too_many_folds_for_even_a_thousand_resamples_names_fold_counts():
    k = cv_f.MAX_BOOTSTRAP_CELLS // RECOMMENDED_RESAMPLES + 1
    with pytest.raises(ParameterValueError, match=f"^fold_counts holds {k:,} folds") as info:
        cv_f_measure_ci(_many_folds(k), method="avg", n_resamples=RECOMMENDED_RESAMPLES)
    assert info.value.param == "fold_counts" and "proportion_ci" in str(info.value)


def test_the_budget_is_the_product_resamples_times_folds(monkeypatch):
    monkeypatch.setattr(cv_f, "MAX_BOOTSTRAP_CELLS", 4 * 2_000)
    cv_f_measure_ci(FOLDS, method="tp_fp", n_resamples=2_000)  # exactly at the limit: drawn
    with pytest.raises(ParameterValueError, match="n_resamples=2,001"):
        cv_f_measure_ci(FOLDS, method="tp_fp", n_resamples=2_001)


def test_leave_one_out_folds_are_refused_their_resamples_are_the_data():
    loo = [Counts(1, 0, 0, 0), Counts(0, 1, 0, 0), Counts(0, 0, 1, 0), Counts(0, 0, 0, 1)] * 10
    with pytest.raises(ParameterValueError, match="holds one case") as info:
        cv_f_measure_ci(loo, method="tp_fp")
    assert info.value.param == "fold_counts"
    # why: a fold of one case resampled is that case again, so every replicate equals the estimate (by hand)
    tp, fp, fn = (sum(getattr(c, a) for c in loo) for a in ("tp", "fp", "fn"))
    assert math.isclose(2 * tp / (2 * tp + fp + fn), 0.5)
    mixed = [*loo, Counts(3, 1, 1, 20)]  # one larger fold: its cases vary, the interval is not a point
    ci = cv_f_measure_ci(mixed, method="tp_fp", n_resamples=2_000)
    assert ci.high > ci.low
