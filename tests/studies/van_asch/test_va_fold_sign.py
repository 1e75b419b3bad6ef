"""Notebook 04, section 5.2: the false-positive rate decides the sign of E[F_avg] - E[F_tp,fp].

At the geometry notebooks 03 and 04 share (1000 cases, 10 stratified folds, 1 % positives, recall 80 %,
binomial errors) every fold holds one positive and 99 negatives. Then, by hand:

- a fold's F1 is 2 / (2 + FP_k) when it finds its positive (probability r) and 0 otherwise, FP_k ~ Bin(99, fpr),
  so E[F_avg] = r * E[2 / (2 + FP_k)];
- the pooled F1 is 2 TP / (TP + FP + 10), TP ~ Bin(10, r), FP ~ Bin(990, fpr), independent (0/0 counts as 0).

These sums are written out here with scipy's binomial law, independently of `va.exact_fold_f1` and of
`apples.theory.exact_cv_f`, and compared with what the notebook prints: -4.96 points at notebook 03's rate
(0.20 %), +2.86 at Van Asch's 2.3 %, and a change of sign at 0.74 %.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats
from scipy.optimize import brentq

import apples
from apples.studies import van_asch as va

RECALL = 0.8


def _gap_by_hand(fpr: float) -> float:
    """E[F_avg] - E[F_tp,fp] in points, by the two sums of the module docstring."""
    fp_fold = np.arange(100)
    e_fold = RECALL * np.sum(stats.binom.pmf(fp_fold, 99, fpr) * 2 / (2 + fp_fold))
    tp, fp = np.arange(11)[:, None], np.arange(991)[None, :]
    weights = stats.binom.pmf(tp, 10, RECALL) * stats.binom.pmf(fp, 990, fpr)
    denominator = tp + fp + 10
    f1 = np.where(denominator > 0, 2 * tp / np.maximum(denominator, 1), 0.0)
    return 100 * (e_fold - np.sum(weights * f1))


def _gap_by_library(fpr: float) -> float:
    kw = dict(n_instances=1000, n_folds=10, allocation="stratified", errors="binomial", recall_b=1 - fpr)
    return 100 * (va.exact_fold_f1(0.01, method="avg", **kw) - va.exact_fold_f1(0.01, method="tp_fp", **kw))


def test_notebook_03_rate_gives_f_avg_below():
    fpr = apples.theory.simulation_design(0.01, 0.8).fpr
    assert fpr == pytest.approx(0.01 * 0.2 / 0.99)  # precision 80 % of the expected table (notebook 03)
    by_hand = _gap_by_hand(fpr)
    assert _gap_by_library(fpr) == pytest.approx(by_hand, abs=1e-8)
    # notebook 03's own function, the Forman & Scholz model, gives the same number
    f03 = apples.theory.exact_cv_f
    nb03 = 100 * (f03(0.01, 0.8, stratified=True, method="avg") - f03(0.01, 0.8, stratified=True, method="tp_fp"))
    assert nb03 == pytest.approx(by_hand, abs=1e-8)
    assert round(by_hand, 2) == -4.96 and abs(abs(by_hand) * 100 % 1 - 0.5) > 0.05  # far from a rounding edge


def test_van_asch_rate_gives_f_avg_above():
    fpr = 1 - apples.theory.VAN_ASCH_RECALL_B
    by_hand = _gap_by_hand(fpr)
    assert _gap_by_library(fpr) == pytest.approx(by_hand, abs=1e-8)
    assert round(by_hand, 2) == 2.86 and abs(by_hand * 100 % 1 - 0.5) > 0.05


def test_the_sign_changes_once_near_074_percent():
    low, high = apples.theory.simulation_design(0.01, 0.8).fpr, 1 - apples.theory.VAN_ASCH_RECALL_B
    root = brentq(_gap_by_hand, low, high, xtol=1e-12)
    assert round(100 * root, 2) == 0.74 and abs(100 * root - 0.745) > 0.002 and abs(100 * root - 0.735) > 0.0005
    grid = np.linspace(low, high, 60)
    signs = np.sign([_gap_by_hand(f) for f in grid])
    assert np.count_nonzero(np.diff(signs)) == 1  # one change of sign between the two rates
    assert brentq(_gap_by_library, low, high) == pytest.approx(root, abs=1e-9)


def test_without_false_positives_f_avg_is_the_recall():
    """Going deeper A.6: no false positives, one positive per fold: F_avg = r_A; F_tp,fp = E[2 TP / (TP + 10)]."""
    kw = dict(n_instances=1000, n_folds=10, allocation="stratified", errors="binomial", recall_b=1.0)
    assert va.exact_fold_f1(0.01, method="avg", **kw) == pytest.approx(RECALL, abs=1e-12)
    tp = np.arange(11)
    pooled = np.sum(stats.binom.pmf(tp, 10, RECALL) * 2 * tp / (tp + 10))
    assert va.exact_fold_f1(0.01, method="tp_fp", **kw) == pytest.approx(pooled, abs=1e-10)
    assert pooled < 2 * RECALL / (1 + RECALL)  # near it, below it (Jensen: 2t/(t + 10) is concave)
