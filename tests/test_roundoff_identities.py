"""Identities the notebooks check to round-off, asserted here at their tight bound.

A stored, checked notebook output must read the same on every machine, and the last bits of
round-off do not: they depend on numpy's SIMD code paths (AVX2 or AVX-512 versions of exp and
log), the BLAS kernel and its thread count. So a notebook prints a stable statement ("max |c(T(c))
- c| < 1e-12: True") and this module asserts how close the identity really holds, with the same
library calls and inputs as the notebook cell. The bounds are a few units in the last place (ulp)
of the values involved, with the conditioning of the computation where it amplifies them; the
largest error measured on an AVX2 machine is given beside each bound.
"""

from fractions import Fraction
from itertools import product

import numpy as np
import pytest

import apples
from apples import Counts
from apples.studies import van_asch as va
from apples.theory import Binormal

# -- notebook 07 ---------------------------------------------------------------------------------


def test_nb07_h_measure_of_the_ten_cases_equals_the_fractions():
    """A.1: h_measure_details against L = 311/4320, L_max = 93/625, H = 41477/80352; the notebook prints < 1e-15."""
    y = np.array([1, 1, 0, 1, 0, 0, 1, 0, 0, 0])
    r = apples.metrics.h_measure_details(y, np.arange(10, 0, -1), severity_ratio=1)
    loss, max_loss = Fraction(311, 4320), Fraction(93, 625)
    # sums of incomplete Beta functions over four cost intervals: a few ulps of values below 1 (ulp of 0.5: 1.1e-16).
    # Measured: 3.3e-18 (L), 1.6e-17 (L_max), 8.5e-17 (H).
    assert abs(Fraction(r.loss) - loss) <= Fraction(2e-16)
    assert abs(Fraction(r.max_loss) - max_loss) <= Fraction(2e-16)
    assert abs(Fraction(r.h) - (1 - loss / max_loss)) <= Fraction(5e-16)


# -- notebook 08 ---------------------------------------------------------------------------------


def test_nb08_threshold_and_cost_invert_each_other_for_equal_spreads():
    """§2: T(c(t)) = t and c(T(c)) = c for the equal-spread binormal model."""
    eq = Binormal(mu_pos=1.5, sd_pos=1.0, mu_neg=0.0, sd_neg=1.0, pi_pos=0.3)
    t = np.linspace(-2, 4, 61)
    c = np.linspace(0.01, 0.99, 99)
    t_round_trip = np.max(np.abs(apples.theory.optimal_threshold(apples.theory.implied_cost(t, eq), eq) - t))
    c_round_trip = np.max(np.abs(apples.theory.implied_cost(apples.theory.optimal_threshold(c, eq), eq) - c))
    # T recovers t from log((1 - c)/c); at t = -2, c(t) = 0.993 and 1 - c keeps only the bits of c
    # below 0.007, so one ulp of c (1.1e-16) is 1.6e-14 / 1.5 (the slope of λ) in t. Measured: 8.9e-15.
    assert t_round_trip <= 5e-14
    # c is recomputed from T(c): a few ulps of c < 1. Measured: 1.1e-16 (AVX2), 2.2e-16 (AVX-512).
    assert c_round_trip <= 1e-15


def test_nb08_solution_1_closed_form_threshold():
    """Solution 1: T(c) = (μ₊ + μ₋)/2 + σ²/(μ₊ - μ₋)·(log((1 - c)/c) - log(π₀/π₁)) for equal spreads."""
    mm = Binormal(mu_pos=2.0, sd_pos=1.5, mu_neg=0.0, sd_neg=1.5, pi_pos=0.2)
    cc = np.linspace(0.05, 0.95, 10)
    closed = 1.0 + 1.5**2 / 2.0 * (np.log((1 - cc) / cc) - np.log(0.2 / 0.8))
    # T up to 5.9, whose ulp is 8.9e-16: a few ulps. Measured: 8.9e-16.
    assert np.max(np.abs(closed - apples.theory.optimal_threshold(cc, mm))) <= 5e-15


@pytest.fixture(scope="module")
def tied_scores():
    """A.2's 60 cases with six distinct scores, built as in the notebook, with AUC and π₀ as fractions."""
    rng = np.random.default_rng(7)
    y_t = rng.integers(0, 2, 60)
    s_t = np.clip(np.round(1.2 * y_t + rng.normal(0, 1.2, 60)), -2, 3)
    pos = [v for v, k in zip(s_t.tolist(), y_t.tolist(), strict=True) if k == 1]
    neg = [v for v, k in zip(s_t.tolist(), y_t.tolist(), strict=True) if k == 0]
    pairs = list(product(pos, neg))
    roc_auc = sum(Fraction(1) if p > q else Fraction(1, 2) if p == q else Fraction(0) for p, q in pairs) / len(pairs)
    return y_t, s_t, roc_auc, Fraction(len(pos), len(y_t))


def test_nb08_uniform_threshold_loss_for_tied_scores(tied_scores):
    """A.6: the exact sum L_c^t = π₀π₁(1 - 2 AUC) + ½ for tied scores (midpoint rule)."""
    y_t, s_t, roc_auc, p0 = tied_scores
    target = p0 * (1 - p0) * (1 - 2 * roc_auc) + Fraction(1, 2)
    exact = apples.metrics.empirical_uniform_threshold_loss(y_t, s_t)
    # a float sum over the six atoms: a few ulps of 0.42 (5.6e-17). Measured: 0.2 ulp (the nearest float).
    assert abs(Fraction(exact) - target) <= Fraction(5e-16)


def test_nb08_hand_identity_for_tied_scores(tied_scores):
    """A.2: L_G = 2π₀π₁(1 - AUC) for every tie rule; the notebook prints L_G to 12 decimals."""
    y_t, s_t, roc_auc, p0 = tied_scores
    target = 2 * p0 * (1 - p0) * (1 - roc_auc)
    for ties in ("half", "positive", "negative"):
        # a few ulps of 0.17 (2.8e-17). Measured: 1.9e-17.
        assert abs(Fraction(apples.metrics.empirical_hand_loss(y_t, s_t, ties=ties).loss) - target) <= Fraction(2e-16)


def test_nb08_midpoint_sums_telescope_to_one(tied_scores):
    """A.2: Σ F₁ᵐⁱᵈ ΔF₀ + Σ F₀ᵐⁱᵈ ΔF₁ = 1 for step functions; the notebook prints it to 12 decimals."""
    y_t, s_t, _, _ = tied_scores
    h = apples.metrics.empirical_hand_loss(y_t, s_t, ties="half")
    # two float sums over six atoms, each a few ulps of 0.34 (5.6e-17). Measured: 0 (both round the same way).
    assert abs(h.false_alarm + (1 - h.missed) - 1) <= 5e-16


# -- notebook 06 ---------------------------------------------------------------------------------

N = 40
TABLE3 = {
    k: Counts(tp, fp, fn, N - tp - fp - fn)
    for k, (tp, fp, fn) in {"c1": (3, 2, 7), "c2": (1, 7, 9), "c3": (6, 6, 8), "c4": (6, 9, 0)}.items()
}
F_TRAIN = {"c1": 0.1, "c2": 0.2, "c3": 0.3, "c4": 0.4}


def test_nb06_corrected_eq17_equals_brute_force_for_every_single_move():
    """§6.1.1: apples.theory.precision_change = the change of the recomputed average, all 12 moves of Table 3."""
    worst = 0.0
    for kw in (dict(average="macro"), dict(average="lfb", frequencies=F_TRAIN)):
        for b, c in product(TABLE3, TABLE3):
            if b != c:
                after = apples.theory.move_false_positives(TABLE3, b, c, 1)
                brute = apples.theory.score_change(TABLE3, after, **kw).precision
                worst = max(worst, abs(apples.theory.precision_change(TABLE3, (b, c, 1), **kw) - brute))
    # differences of averages near 0.4 (ulp 5.6e-17): a few ulps. Measured: 5.0e-17.
    assert worst <= 5e-16


def test_nb06_macro_move_c1_to_c4_is_one_32nd():
    """c1 -> c4 changes macro precision by (3/4 - 3/5)/4 + (6/16 - 6/15)/4 = 1/32 exactly.

    1/32 = 0.03125 lies on a 4-decimal rounding boundary: the notebook rounds to 10 decimals before
    printing 4, so that a last-bit difference cannot turn +0.0312 into +0.0313.
    """
    after = apples.theory.move_false_positives(TABLE3, "c1", "c4", 1)
    for value in (
        apples.theory.precision_change(TABLE3, ("c1", "c4", 1), average="macro"),
        apples.theory.score_change(TABLE3, after, average="macro").precision,
    ):
        assert abs(value - 1 / 32) <= 1e-16  # a few ulps of 0.4, far inside the 5e-11 the rounding absorbs


def test_nb06_formula_equals_brute_force_on_random_moves():
    """The quick check after eq. (18): 2000 random tables and moves, macro averaging, numpy's generator."""
    rng = np.random.default_rng(2013)
    worst = 0.0
    for _ in range(2000):
        q = int(rng.integers(2, 6))
        m = rng.integers(0, 10, size=(q, q))
        table = apples.label_counts(*apples.labels_from_confusion_matrix(m), labels=list(range(q)))
        b, c = rng.choice(q, size=2, replace=False)
        delta = int(rng.integers(0, min(table[b].fp, table[c].tn) + 1))
        after = apples.theory.move_false_positives(table, b, c, delta)
        brute = apples.theory.score_change(table, after, average="macro").precision
        worst = max(worst, abs(apples.theory.precision_change(table, (b, c, delta), average="macro") - brute))
    # precisions in [0, 1] (ulp <= 1.1e-16): a few ulps. Measured: 1.7e-16.
    assert worst <= 1e-15


# -- notebook 04 ---------------------------------------------------------------------------------


def test_nb04_vectorised_fold_f1_equals_cv_f_measure():
    """§3: apples.theory.fold_f1 over all repetitions = apples.cv_f_measure on each repetition's Counts."""
    sim = va.simulate_fold_counts(0.01, n_instances=1000, n_folds=50, n_reps=200, seed=1)
    gap = {}
    for method in ("tp_fp", "avg"):
        slow = np.array([apples.cv_f_measure(sim.counts(r), method=method) for r in range(sim.n_reps)])
        gap[method] = np.max(np.abs(sim.f1(method=method) - slow))
    # tp_fp: one division of the same integer sums on both sides, correctly rounded: identical.
    assert gap["tp_fp"] == 0
    # avg: means of 50 per-fold F1 in [0, 1]; a few ulps if the summation order ever differs. Measured: 0.
    assert gap["avg"] <= 1e-15


def test_nb04_pooled_f1_does_not_depend_on_the_number_of_folds():
    """§5.1 claim 1: E[F_tp,fp] is the same for K = 5, 10 and 50 (the pooled counts ignore the folds)."""
    grid = np.arange(1, 21) * 0.005
    for errors in ("fixed", "binomial"):
        for n in (1000, 10_000):
            tpfp = {
                k: np.array(
                    [
                        va.exact_fold_f1(p, method="tp_fp", average="macro", n_instances=n, n_folds=k, errors=errors)
                        for p in grid
                    ]
                )
                for k in (5, 10, 50)
            }
            # the same computation whatever K (exact_fold_f1 does not use the folds for tp_fp): identical
            assert np.array_equal(tpfp[10], tpfp[5]) and np.array_equal(tpfp[50], tpfp[5])
