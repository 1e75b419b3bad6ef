"""Precision, recall, F and accuracy of one count: policies, equations (1) and (2), scikit-learn."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sklearn.metrics import accuracy_score, f1_score, fbeta_score, precision_score, recall_score

from apples import Counts, UndefinedMetricError, accuracy, f_from_precision_recall, f_measure, precision, recall

counts_st = st.builds(Counts, st.integers(0, 60), st.integers(0, 60), st.integers(0, 60), st.integers(0, 60))


def test_hand_values():
    c = Counts(tp=3, fp=5, fn=1, tn=367)  # Forman & Scholz Table 1 fold 4
    assert precision(c) == 3 / 8
    assert recall(c) == 3 / 4
    assert f_measure(c) == 6 / (6 + 5 + 1)  # eq. (2) by hand
    assert accuracy(c) == 370 / 376


@pytest.mark.parametrize(
    "func, counts",
    [
        (precision, Counts(0, 0, 4)),  # no positive predictions
        (recall, Counts(0, 3, 0)),  # no positives
        (f_measure, Counts(0, 0, 0, 9)),  # eq. (2) is 0/0
        (accuracy, Counts(0, 0, 0, 0)),
    ],
)
def test_undefined_policies(func, counts):
    assert func(counts, undefined="zero") == 0.0
    assert math.isnan(func(counts, undefined="nan"))
    with pytest.raises(UndefinedMetricError, match="undefined"):
        func(counts, undefined="raise")


def test_documented_defaults():
    assert precision(Counts(0, 0, 4)) == 0.0  # zero substitution (§2.3)
    assert recall(Counts(0, 3, 0)) == 0.0
    assert f_measure(Counts(0, 0, 0)) == 0.0
    with pytest.raises(UndefinedMetricError):
        accuracy(Counts(0, 0, 0, 0))  # accuracy raises by default


@pytest.mark.parametrize("func", [precision, recall, f_measure, accuracy])
def test_unknown_policy(func):
    with pytest.raises(ValueError, match=r"undefined='skip' is not recognised"):
        func(Counts(1, 1, 1, 1), undefined="skip")


@pytest.mark.parametrize("func", [precision, recall, f_measure, accuracy])
def test_counts_type_checked(func):
    with pytest.raises(TypeError, match=r"counts must be an apples.Counts"):
        func((1, 2, 3))


def test_bad_beta_and_formula():
    for bad in (-1.0, float("nan"), -float("inf")):
        with pytest.raises(ValueError, match=r"beta must be a number in \[0, inf\]"):
            f_measure(Counts(1, 1, 1), beta=bad)
    with pytest.raises(TypeError, match=r"beta must be a real number in \[0, inf\]"):
        f_measure(Counts(1, 1, 1), beta="2")
    with pytest.raises(ValueError, match=r"formula='mean' is not recognised"):
        f_measure(Counts(1, 1, 1), formula="mean")


def test_f_from_precision_recall_bad_input():
    with pytest.raises(ValueError, match=r"precision must lie in \[0, 1\]"):
        f_from_precision_recall(1.2, 0.5)
    with pytest.raises(TypeError, match="recall must be a real number"):
        f_from_precision_recall(0.5, None)


def test_no_runtime_warning_anywhere_in_undefined_region():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for c in [Counts(0, 0, 0), Counts(0, 0, 3), Counts(0, 3, 0), Counts(0, 0, 0, 0)]:
            for func in (precision, recall, f_measure):
                func(c, undefined="nan")
            f_measure(c, formula="harmonic", undefined="nan")
        accuracy(Counts(0, 0, 0, 0), undefined="nan")


@given(counts_st)
def test_eq2_equals_eq1_wherever_eq1_is_defined(c):
    harmonic = f_measure(c, formula="harmonic", undefined="nan")
    assume(not math.isnan(harmonic))
    assert f_measure(c) == pytest.approx(harmonic, rel=1e-12)


@given(counts_st)
def test_eq1_undefined_region_is_where_precision_or_recall_undefined_or_tp_zero(c):
    undefined_eq1 = math.isnan(f_measure(c, formula="harmonic", undefined="nan"))
    assert undefined_eq1 == (c.tp + c.fp == 0 or c.tp + c.fn == 0 or c.tp == 0)
    undefined_eq2 = math.isnan(f_measure(c, undefined="nan"))
    assert undefined_eq2 == (c.tp + c.fp + c.fn == 0)


@given(st.integers(0, 60), st.integers(0, 60), st.integers(0, 60))
def test_eq2_is_zero_where_only_eq1_is_undefined(fp, fn, tn):
    """Eq. (2) extends eq. (1) by its limit: 0 wherever TP = 0 and FP + FN > 0."""
    assume(fp + fn > 0)
    assert f_measure(Counts(0, fp, fn, tn), undefined="raise") == 0.0


@pytest.mark.parametrize("fp, fn", [(0, 4), (5, 0), (3, 2)])
def test_eq1_tends_to_eq2_value_near_its_undefined_points(fp, fn):
    """Continuity: at (TP, FP, FN) = (t, fp, fn) with t -> 0 (real-valued), eq. (1) -> 0 = eq. (2) at t = 0."""
    for t in (1e-3, 1e-6, 1e-9):
        pr = t / (t + fp) if t + fp else 1.0
        re = t / (t + fn) if t + fn else 1.0
        assert f_from_precision_recall(pr, re) <= 2 * min(pr, re) <= 2 * t / min(x for x in (fp, fn) if x)


@given(st.integers(0, 40), st.integers(0, 40), st.integers(0, 40), st.floats(0.1, 5.0, allow_nan=False))
def test_fbeta_counts_equals_harmonic_form(tp, fp, fn, beta):
    c = Counts(tp, fp, fn)
    h = f_measure(c, beta=beta, formula="harmonic", undefined="nan")
    assume(not math.isnan(h))
    assert f_measure(c, beta=beta) == pytest.approx(h, rel=1e-12)


def _labels(c: Counts):
    y_true = np.r_[np.ones(c.tp + c.fn, int), np.zeros(c.fp + c.tn, int)]
    y_pred = np.r_[np.ones(c.tp, int), np.zeros(c.fn, int), np.ones(c.fp, int), np.zeros(c.tn, int)]
    return y_true, y_pred


@settings(max_examples=60)
@given(counts_st, st.sampled_from([0.5, 1.0, 2.0]))
def test_agrees_with_sklearn_including_undefined_folds(c, beta):
    assume(c.n > 0)
    y_true, y_pred = _labels(c)
    assert Counts.from_labels(y_true, y_pred) == c
    for zd, policy in ((0.0, "zero"), (np.nan, "nan")):
        kw = dict(labels=[0, 1], pos_label=1, zero_division=zd)
        assert np.allclose(precision(c, undefined=policy), precision_score(y_true, y_pred, **kw), equal_nan=True)
        assert np.allclose(recall(c, undefined=policy), recall_score(y_true, y_pred, **kw), equal_nan=True)
        ours = f_measure(c, beta=beta, undefined=policy)
        theirs = fbeta_score(y_true, y_pred, beta=beta, **kw)
        assert np.allclose(ours, theirs, equal_nan=True, rtol=1e-12)
    assert accuracy(c) == pytest.approx(accuracy_score(y_true, y_pred), rel=1e-12)


def test_sklearn_adversarial_folds():
    # a fold with no predicted positives, and a fold with no positives at all
    for y_true, y_pred in (([1, 1, 0, 0], [0, 0, 0, 0]), ([0, 0, 0, 0], [1, 0, 0, 0]), ([0, 0], [0, 0])):
        c = Counts.from_labels(y_true, y_pred)
        assert f_measure(c) == f1_score(y_true, y_pred, labels=[0, 1], zero_division=0.0)
        assert precision(c) == precision_score(y_true, y_pred, labels=[0, 1], zero_division=0.0)
        assert recall(c) == recall_score(y_true, y_pred, labels=[0, 1], zero_division=0.0)
