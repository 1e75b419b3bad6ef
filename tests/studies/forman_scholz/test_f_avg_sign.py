"""The sign of F_avg - F_tp,fp (notebook 01, Exercise 2; notebook 03, §2).

Per set of folds, F_tp,fp is the mean of the fold F weighted by d = 2TP + FP + FN, so
F_avg - F_tp,fp = -cov(d, F) / mean(d) over the folds: the identity is checked on random fold tables against
that formula written out with numpy. Its expectation at 1 % positives in 10 stratified folds (one positive and
99 negatives per fold) is checked against direct sums over scipy's binomial pmf, written out here: negative at
notebook 03's false positive rate, positive at Van Asch's (97.7 % of the negatives right).
"""

import numpy as np
import pytest
from scipy import stats

import apples
from apples import Counts
from apples.studies import van_asch as va


def test_gap_is_minus_the_covariance_of_d_and_f_over_its_mean():
    rng = np.random.default_rng(20101)
    for _ in range(200):
        k = int(rng.integers(2, 12))
        tp, fp, fn = (rng.integers(0, 6, size=k) for _ in range(3))
        tp[0] = max(tp[0], 1)  # some fold has a true positive, so the pooled F is defined
        folds = [Counts(tp=int(a), fp=int(b), fn=int(c), tn=50) for a, b, c in zip(tp, fp, fn, strict=True)]
        d = 2 * tp + fp + fn
        f = np.divide(2 * tp, d, out=np.zeros(k), where=d > 0)
        cov = np.mean(d * f) - np.mean(d) * np.mean(f)
        gap = apples.cv_f_measure(folds, method="avg") - apples.cv_f_measure(folds, method="tp_fp")
        assert gap == pytest.approx(-cov / np.mean(d), abs=1e-12)


def _direct_gap(fpr: float, recall: float = 0.8) -> float:
    """E[F_avg] - E[F_tp,fp]: 10 stratified folds of one positive and 99 negatives, binomial errors."""
    fp = np.arange(100)
    e_fold = recall * np.sum(stats.binom.pmf(fp, 99, fpr) * 2 / (2 + fp))  # TP = 1: F = 2 / (2 + FP); TP = 0: F = 0
    t, f = np.arange(11)[:, None], np.arange(991)[None, :]
    weights = stats.binom.pmf(t, 10, recall) * stats.binom.pmf(f, 990, fpr)
    return e_fold - float(np.sum(weights * 2 * t / (t + f + 10)))


@pytest.mark.parametrize(
    ("fpr", "shown"),
    [
        (apples.theory.simulation_design(0.01, 0.8).fpr, "-4.96"),  # notebook 03's classifier
        (0.005, "-1.67"),
        (0.01, "+1.23"),
        (1 - apples.theory.VAN_ASCH_RECALL_B, "+2.86"),  # Van Asch's
    ],
)
def test_expected_gap_changes_sign_with_the_false_positive_rate(fpr, shown):
    design = dict(n_instances=1000, n_folds=10, allocation="stratified", errors="binomial", recall_a=0.8)
    gap = va.exact_fold_f1(0.01, method="avg", recall_b=1 - fpr, **design) - va.exact_fold_f1(
        0.01, method="tp_fp", recall_b=1 - fpr, **design
    )
    assert gap == pytest.approx(_direct_gap(fpr), abs=1e-12)
    assert f"{100 * gap:+.2f}" == shown
    hundredths = abs(1e4 * gap)  # the printed digits: hundredths of a point
    assert abs(hundredths - np.floor(hundredths) - 0.5) > 0.01  # not on a rounding edge
