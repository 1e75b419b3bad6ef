"""Tests for apples.fold_size: Van Asch (2013) §7, eq. (31), Figure 2."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats
from sklearn.metrics import f1_score

import apples
from apples import Counts, UndefinedMetricError, cv_f_measure, f_measure
from apples.studies import van_asch as va
from apples.studies.van_asch.figure2 import fold_f1_curve, fold_f1_readings
from apples.studies.van_asch.fold_size import exact_fold_f1, simulate_fold_counts, simulate_fold_f1
from apples.theory.fold_size import (
    VAN_ASCH_RECALL_A,
    VAN_ASCH_RECALL_B,
    corpus_counts,
    delta_factors,
    delta_table,
    fold_f1,
    fold_sizes,
    theoretical_f1,
)

RA, RB = 0.8, 0.977


# ----------------------------------------------------------------------------- paper values
def test_paper_settings():
    # Van Asch §7.1 and Figure 2 caption: 80 % on class A, 97.7 % on class B.
    assert VAN_ASCH_RECALL_A == 0.8 and VAN_ASCH_RECALL_B == 0.977
    assert {"theoretical_f1", "fold_f1", "delta_factors"} <= set(apples.theory.__all__)
    assert {"exact_fold_f1", "simulate_fold_f1"} <= set(va.__all__)


# ----------------------------------------------------------------------------- eq. (31)
def eq31_as_printed(prop, r_a, r_b):
    """Eq. (31) exactly as the paper prints it, with p = n_B / n_A = (1 - prop) / prop (footnote 12)."""
    p = (1 - prop) / prop
    return r_a / (1 + r_a + (1 - r_b) * p) + r_b * p / (1 - r_a + (1 + r_b) * p)


@pytest.mark.parametrize("prop", [0.001, 0.01, 0.025, 0.05, 0.1, 0.3, 0.5, 0.9, 1.0])
@pytest.mark.parametrize("r_a, r_b", [(RA, RB), (0.5, 0.9), (0.95, 0.6)])
def test_eq31_matches_printed_form(prop, r_a, r_b):
    assert theoretical_f1(prop, recall_a=r_a, recall_b=r_b) == pytest.approx(eq31_as_printed(prop, r_a, r_b), rel=1e-13)


def test_eq31_against_counts_by_hand():
    # 10 % of 10,000: n_A = 1000, n_B = 9000; 800 and 8793 (= 0.977 * 9000) correct.
    # fp_A = fn_B = 207, fn_A = fp_B = 200.
    f_a = Fraction(2 * 800, 2 * 800 + 207 + 200)
    f_b = Fraction(2 * 8793, 2 * 8793 + 200 + 207)
    assert theoretical_f1(0.1, average="binary") == pytest.approx(float(f_a), abs=1e-15)
    assert theoretical_f1(0.1) == pytest.approx(float((f_a + f_b) / 2), abs=1e-15)
    # ... and through apples.f_measure on the Counts
    assert float(f_a) == pytest.approx(f_measure(Counts(tp=800, fp=207, fn=200, tn=8793)), abs=1e-15)


def test_eq31_against_sklearn():
    y_true = np.array(["A"] * 1000 + ["B"] * 9000)
    y_pred = np.array(["A"] * 800 + ["B"] * 200 + ["B"] * 8793 + ["A"] * 207)
    assert theoretical_f1(0.1) == pytest.approx(f1_score(y_true, y_pred, average="macro"), abs=1e-14)
    assert theoretical_f1(0.1, average="binary") == pytest.approx(f1_score(y_true, y_pred, pos_label="A"), abs=1e-14)


def test_eq31_limits_and_vectorised():
    # π -> 0: class A only has false positives (F1 0); class B has F1 2 r_B / (1 + r_B); macro is half.
    assert theoretical_f1(0.0) == pytest.approx(RB / (1 + RB), abs=1e-15)
    assert theoretical_f1(0.0, average="binary") == 0.0
    assert theoretical_f1(1.0) == pytest.approx(RA / (1 + RA), abs=1e-15)
    props = np.linspace(0.001, 0.1, 7)
    np.testing.assert_allclose(theoretical_f1(props), [eq31_as_printed(p, RA, RB) for p in props], rtol=1e-13)
    assert isinstance(theoretical_f1(0.05), float)


def test_eq31_undefined_policy():
    with pytest.raises(UndefinedMetricError, match="class A"):
        theoretical_f1(0.0, recall_b=1.0, average="binary", undefined="raise")
    assert np.isnan(theoretical_f1(0.0, recall_b=1.0, average="binary", undefined="nan"))
    assert theoretical_f1(0.0, recall_b=1.0, average="binary") == 0.0


def test_r_b_makes_precision_equal_recall_near_ten_percent():
    # Our reading of 97.7 %: 1 - 0.2 / 9 = 0.9778 gives precision = recall = 80 % at π = 10 %
    # (Forman & Scholz's F = 80 %); 0.977 puts F1 of class A within 0.3 points of 80 % there.
    assert theoretical_f1(0.1, recall_b=1 - 0.2 / 9, average="binary") == pytest.approx(0.8, abs=1e-14)
    assert abs(theoretical_f1(0.1, average="binary") - 0.8) < 0.003


# ----------------------------------------------------------------------------- folds
def test_fold_sizes():
    assert fold_sizes(1000, 50).tolist() == [20] * 50
    s = fold_sizes(1003, 10)
    assert s.sum() == 1003 and s.max() - s.min() == 1


def test_corpus_counts():
    assert corpus_counts(0.005, n_instances=1000) == {"n_a": 5, "n_b": 995, "tp_a": 4, "tp_b": 972}
    assert corpus_counts(0.035, n_instances=1000)["n_a"] == 35  # 0.035 * 1000 = 35.000000000000004
    assert corpus_counts(0.0025, n_instances=1000)["n_a"] == 3  # halves round up


@pytest.mark.parametrize("n_instances, n_folds, prop", [(1000, 10, 0.013), (1003, 10, 0.05), (200, 50, 0.1)])
def test_stratified_allocation(n_instances, n_folds, prop):
    sim = simulate_fold_counts(prop, n_instances=n_instances, n_folds=n_folds, allocation="stratified", n_reps=5)
    n_a = corpus_counts(prop, n_instances=n_instances)["n_a"]
    assert (sim.n_a.sum(axis=1) == n_a).all()
    assert (sim.n_a.max(axis=1) - sim.n_a.min(axis=1) <= 1).all()
    assert (sim.n_a <= sim.fold_size).all()


def test_even_allocation_spreads_every_cell():
    sim = simulate_fold_counts(0.023, n_instances=1000, n_folds=10, allocation="even", n_reps=2)
    c = corpus_counts(0.023, n_instances=1000)
    for cell, total in [
        (sim.tp_a, c["tp_a"]),
        (sim.n_a - sim.tp_a, c["n_a"] - c["tp_a"]),
        (sim.tp_b, c["tp_b"]),
        (sim.fold_size - sim.n_a - sim.tp_b, c["n_b"] - c["tp_b"]),
    ]:
        assert (cell.sum(axis=1) == total).all()
        assert (cell.max(axis=1) - cell.min(axis=1) <= 1).all()


def test_random_allocation_is_hypergeometric():
    n, k, prop, reps = 1000, 10, 0.03, 20_000
    sim = simulate_fold_counts(prop, n_instances=n, n_folds=k, n_reps=reps, seed=3)
    assert (sim.n_a.sum(axis=1) == 30).all()
    dist = stats.hypergeom(n, 30, n // k)
    x = sim.n_a.ravel()
    # mean and variance of a fold's class-A count, over all folds and repetitions (correlated folds: loose z)
    assert abs(x.mean() - dist.mean()) < 4 * dist.std() / math.sqrt(reps)
    assert x.var() == pytest.approx(dist.var(), rel=0.03)


def test_fixed_errors_keep_the_corpus_totals():
    sim = simulate_fold_counts(0.07, n_instances=1000, n_folds=50, n_reps=100, seed=4)
    c = corpus_counts(0.07, n_instances=1000)
    assert (sim.tp_a.sum(axis=1) == c["tp_a"]).all() and (sim.tp_b.sum(axis=1) == c["tp_b"]).all()
    assert (sim.tp_a <= sim.n_a).all() and (sim.tp_b <= sim.fold_size - sim.n_a).all()
    # so F_tp,fp is one number whatever the folds (Van Asch §7.1: "remains the same")
    assert np.ptp(sim.f1(method="tp_fp")) == 0.0


def test_binomial_errors_pooled_counts_are_binomial():
    reps = 20_000
    sim = simulate_fold_counts(0.05, n_instances=1000, n_folds=10, errors="binomial", n_reps=reps, seed=5)
    tp = sim.tp_a.sum(axis=1)
    dist = stats.binom(50, RA)
    assert abs(tp.mean() - dist.mean()) < 4 * dist.std() / math.sqrt(reps)
    assert tp.var() == pytest.approx(dist.var(), rel=0.05)


def test_reproducible():
    a = simulate_fold_counts(0.02, n_instances=1000, n_folds=50, n_reps=50, seed=11)
    b = simulate_fold_counts(0.02, n_instances=1000, n_folds=50, n_reps=50, seed=11)
    c = simulate_fold_counts(0.02, n_instances=1000, n_folds=50, n_reps=50, seed=12)
    assert all((getattr(a, f) == getattr(b, f)).all() for f in ("n_a", "tp_a", "tp_b"))
    assert (a.n_a != c.n_a).any()
    r1 = simulate_fold_f1(0.02, n_reps=300, seed=2)
    r2 = simulate_fold_f1(0.02, n_reps=300, seed=2)
    assert r1.equals(r2)


# ----------------------------------------------------------------------------- fold_f1 == cv_f_measure
def cv_reference(sim, rep, method, average):
    a = cv_f_measure(sim.counts(rep, pos_label="A"), method=method)
    if average == "binary":
        return a
    return (a + cv_f_measure(sim.counts(rep, pos_label="B"), method=method)) / 2


@pytest.mark.parametrize(
    "design",
    [
        dict(prop_a=0.005, n_instances=1000, n_folds=50, allocation="random", errors="binomial"),
        dict(prop_a=0.02, n_instances=1000, n_folds=50, allocation="stratified", errors="fixed"),
        dict(prop_a=0.1, n_instances=1003, n_folds=10, allocation="random", errors="fixed"),
        dict(prop_a=0.03, n_instances=200, n_folds=5, allocation="even", errors="fixed"),
    ],
)
def test_vectorised_equals_cv_f_measure(design):
    sim = simulate_fold_counts(design.pop("prop_a"), n_reps=30, seed=7, **design)
    for method in ("tp_fp", "avg"):
        for average in ("binary", "macro"):
            fast = sim.f1(method=method, average=average)
            slow = [cv_reference(sim, r, method, average) for r in range(sim.n_reps)]
            np.testing.assert_allclose(fast, slow, rtol=0, atol=1e-15)


@st.composite
def fold_arrays(draw):
    k = draw(st.integers(1, 6))
    n = draw(st.lists(st.integers(1, 8), min_size=k, max_size=k))
    n_a = [draw(st.integers(0, x)) for x in n]
    tp_a = [draw(st.integers(0, x)) for x in n_a]
    tp_b = [draw(st.integers(0, x - m)) for x, m in zip(n, n_a, strict=True)]
    return np.array(n), np.array(n_a), np.array(tp_a), np.array(tp_b)


@given(fold_arrays())
def test_vectorised_equals_cv_f_measure_property(arrays):
    n, n_a, tp_a, tp_b = arrays
    cells = list(zip(n, n_a, tp_a, tp_b, strict=True))
    folds_a = [Counts(tp=int(t), fp=int(x - m - u), fn=int(m - t), tn=int(u)) for x, m, t, u in cells]
    folds_b = [Counts(tp=int(u), fp=int(m - t), fn=int(x - m - u), tn=int(t)) for x, m, t, u in cells]
    for method in ("tp_fp", "avg"):
        # fold_f1 raises on a pooled 0/0 (tp_fp) and counts a fold's 0/0 as 0 (avg), as Forman & Scholz §2.3
        policy = "raise" if method == "tp_fp" else "zero"
        try:
            ref_a = cv_f_measure(folds_a, method=method, undefined=policy)
        except ValueError:
            with pytest.raises(UndefinedMetricError):
                fold_f1(n_a, tp_a, tp_b, fold_size=n, method=method)
            continue
        assert fold_f1(n_a, tp_a, tp_b, fold_size=n, method=method) == pytest.approx(ref_a, abs=1e-15)
        try:
            ref = (ref_a + cv_f_measure(folds_b, method=method, undefined=policy)) / 2
        except ValueError:
            continue
        assert fold_f1(n_a, tp_a, tp_b, fold_size=n, method=method, average="macro") == pytest.approx(ref, abs=1e-15)


def test_pooled_zero_over_zero_policy():
    # no class A, every B right: TP = FP = FN = 0 pooled
    args = ([0, 0], [0, 0], [5, 5])
    with pytest.raises(UndefinedMetricError):
        fold_f1(*args, fold_size=5, method="tp_fp")
    with pytest.raises(ValueError):
        cv_f_measure([Counts(0, 0, 0, 5)] * 2, method="tp_fp", undefined="raise")
    assert np.isnan(fold_f1(*args, fold_size=5, method="tp_fp", undefined="nan"))
    assert fold_f1(*args, fold_size=5, method="avg") == 0.0 == cv_f_measure([Counts(0, 0, 0, 5)] * 2, method="avg")


def test_binary_pooled_policy_applies_to_class_a_only():
    # every instance is of class A and predicted right: F1 of A is 1, class B's pooled F1 is 0/0
    args = ([5, 5], [5, 5], [0, 0])
    assert fold_f1(*args, fold_size=5, method="tp_fp") == 1.0  # undefined="raise": A is defined
    with pytest.raises(UndefinedMetricError, match="pooled F1"):
        fold_f1(*args, fold_size=5, method="tp_fp", average="macro")
    assert fold_f1(*args, fold_size=5, method="tp_fp", average="macro", undefined="zero") == 0.5


# ----------------------------------------------------------------------------- δ factors (§7.1)
def test_delta_by_hand():
    # N + C = 20 + (2 - 8) + (0 - 9) = 5; δ = 5 / (2 (10 - 6)) and 5 / (2 (10 - 9))
    assert delta_factors([2, 0], [2, 0], [8, 9], fold_size=10).tolist() == [0.625, 2.5]
    # identical folds: every δ is 1 and F_avg = F_tp,fp (the paper's sufficient condition)
    same = ([2, 2, 2], [2, 2, 2], [7, 7, 7])
    assert delta_factors(*same, fold_size=10).tolist() == [1.0, 1.0, 1.0]
    tp_fp = fold_f1(*same, fold_size=10, method="tp_fp")
    assert fold_f1(*same, fold_size=10, method="avg") == pytest.approx(tp_fp, abs=1e-15)


def test_delta_gap_identity():
    sim = simulate_fold_counts(0.02, n_instances=1000, n_folds=50, n_reps=20, seed=8, errors="binomial")
    for r in range(sim.n_reps):
        t = delta_table(sim.n_a[r], sim.tp_a[r], sim.tp_b[r], fold_size=sim.fold_size)
        gap = cv_f_measure(sim.counts(r), method="avg") - cv_f_measure(sim.counts(r), method="tp_fp")
        assert t["gap"].sum() == pytest.approx(gap, abs=1e-14)
        assert t["f1_a"].mean() == pytest.approx(cv_f_measure(sim.counts(r), method="avg"), abs=1e-15)


# ----------------------------------------------------------------------------- exact expectations
def fold_f(tp, fp, fn):
    den = 2 * tp + fp + fn
    return Fraction(2 * tp, den) if den else Fraction(0)


def brute_force_random_fixed(n_a, t_a, n_b, t_b, k):
    """E[F_avg] and E[macro F_avg] over every partition of the labelled items into k equal folds."""
    items = ["A+"] * t_a + ["A-"] * (n_a - t_a) + ["B+"] * t_b + ["B-"] * (n_b - t_b)
    size = len(items) // k
    tot_a = tot_m = Fraction(0)
    count = 0

    def partitions(rest):
        if not rest:
            yield []
            return
        for chosen in itertools.combinations(rest, size):
            left = [i for i in rest if i not in chosen]
            for tail in partitions(left):
                yield [chosen, *tail]

    for part in partitions(list(range(len(items)))):
        fa = fb = Fraction(0)
        for fold in part:
            c = {key: sum(items[i] == key for i in fold) for key in ("A+", "A-", "B+", "B-")}
            fa += fold_f(c["A+"], c["B-"], c["A-"])
            fb += fold_f(c["B+"], c["A-"], c["B-"])
        tot_a += fa / k
        tot_m += (fa + fb) / (2 * k)
        count += 1
    return float(tot_a / count), float(tot_m / count)


def test_exact_random_fixed_against_brute_force():
    # N = 9, π = 1/3: n_A = 3, round(0.8 * 3) = 2 right; n_B = 6, round(0.8 * 6) = 5 right (r_B = 0.8 here)
    c = corpus_counts(1 / 3, n_instances=9, recall_a=0.8, recall_b=0.8)
    assert c == {"n_a": 3, "n_b": 6, "tp_a": 2, "tp_b": 5}
    want_a, want_m = brute_force_random_fixed(3, 2, 6, 5, 3)
    for average, want in (("binary", want_a), ("macro", want_m)):
        got = exact_fold_f1(1 / 3, method="avg", average=average, n_instances=9, n_folds=3, recall_a=0.8, recall_b=0.8)
        assert got == pytest.approx(want, abs=1e-10)


def test_exact_binomial_against_brute_force():
    # N = 6 in 2 folds of 3, n_A = 2; every partition x every right/wrong pattern
    r_a, r_b, n, k = 0.7, 0.9, 6, 2
    labels = ["A", "A", "B", "B", "B", "B"]
    want = {"random": [0.0, 0.0], "stratified": [0.0, 0.0]}
    weights = {"random": 0.0, "stratified": 0.0}
    for fold1 in itertools.combinations(range(n), 3):
        folds = [fold1, tuple(i for i in range(n) if i not in fold1)]
        strat = all(sum(labels[i] == "A" for i in f) == 1 for f in folds)
        for right in itertools.product([0, 1], repeat=n):
            prob = math.prod(
                (r_a if labels[i] == "A" else r_b) if right[i] else (1 - (r_a if labels[i] == "A" else r_b))
                for i in range(n)
            )
            fa = fb = 0.0
            for f in folds:
                tp_a = sum(labels[i] == "A" and right[i] for i in f)
                fn_a = sum(labels[i] == "A" and not right[i] for i in f)
                tp_b = sum(labels[i] == "B" and right[i] for i in f)
                fn_b = sum(labels[i] == "B" and not right[i] for i in f)
                fa += float(fold_f(tp_a, fn_b, fn_a)) / k
                fb += float(fold_f(tp_b, fn_a, fn_b)) / k
            for alloc in ["random", "stratified"] if strat else ["random"]:
                want[alloc][0] += prob * fa
                want[alloc][1] += prob * (fa + fb) / 2
                weights[alloc] += prob
    for alloc in ("random", "stratified"):
        for i, average in enumerate(("binary", "macro")):
            got = exact_fold_f1(
                2 / 6,
                method="avg",
                average=average,
                n_instances=6,
                n_folds=2,
                allocation=alloc,
                errors="binomial",
                recall_a=r_a,
                recall_b=r_b,
            )
            assert got == pytest.approx(want[alloc][i] / weights[alloc], abs=1e-12)


def test_exact_tp_fp_binomial_by_double_sum():
    # F_tp,fp = 2a / (N + a - b), a ~ Bin(n_A, r_A), b ~ Bin(n_B, r_B), independent of K and allocation
    n, n_a = 1000, 20
    want = 0.0
    b = np.arange(n - n_a + 1)
    pb = stats.binom.pmf(b, n - n_a, RB)
    for a in range(n_a + 1):
        pa = math.comb(n_a, a) * RA**a * (1 - RA) ** (n_a - a)
        den = n + a - b  # > 0 unless a = 0 and b = n - n_a ... where 2a = 0 too
        want += pa * float(np.sum(pb * np.where(den > 0, 2 * a / np.maximum(den, 1), 0.0)))
    for k, alloc in ((5, "random"), (50, "stratified")):
        got = exact_fold_f1(0.02, method="tp_fp", n_instances=n, n_folds=k, allocation=alloc, errors="binomial")
        assert got == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize(
    "design",
    [
        dict(prop_a=0.01, n_instances=1000, n_folds=50, allocation="random", errors="fixed"),
        dict(prop_a=0.03, n_instances=1000, n_folds=10, allocation="stratified", errors="fixed"),
        dict(prop_a=0.015, n_instances=1000, n_folds=50, allocation="random", errors="binomial"),
        dict(prop_a=0.05, n_instances=10_000, n_folds=50, allocation="stratified", errors="binomial"),
    ],
)
def test_exact_agrees_with_simulation(design):
    prop = design.pop("prop_a")
    sim = simulate_fold_f1(prop, n_reps=4000, seed=9, **design)
    for average in ("binary", "macro"):
        for method in ("tp_fp", "avg"):
            exact = exact_fold_f1(prop, method=method, average=average, **design)
            row = sim.loc[(average, method)]
            assert abs(row["mean"] - exact) <= 4 * row["se"] + 1e-12


def test_exact_even_allocation():
    # N = 1000, 10 folds, π = 5 %: 50 A (40 right), 950 B (928 right): every cell divides by 10 except
    # 928 and 22, so δ = 1 is impossible, but F_avg stays within 0.001 of F_tp,fp
    tp_fp = exact_fold_f1(0.05, method="tp_fp", allocation="even")
    avg = exact_fold_f1(0.05, method="avg", allocation="even")
    assert tp_fp == pytest.approx(2 * 40 / (2 * 40 + 22 + 10), abs=1e-15)
    assert abs(avg - tp_fp) < 1e-3


# ----------------------------------------------------------------------------- the paper's claims about Figure 2
def test_tp_fp_is_the_same_for_every_k():
    for errors in ("fixed", "binomial"):
        vals = {
            exact_fold_f1(0.02, method="tp_fp", n_folds=k, allocation=a, errors=errors)
            for k in (5, 10, 50)
            for a in ("random", "stratified")
        }
        assert len(vals) == 1


def test_eq31_coincides_almost_exactly_with_tp_fp():
    props = np.arange(1, 21) * 0.005
    for n in (1000, 10_000):
        for average in ("binary", "macro"):
            exact = [exact_fold_f1(p, method="tp_fp", average=average, n_instances=n) for p in props]
            assert np.max(np.abs(np.array(exact) - theoretical_f1(props, average=average))) < 0.01


def test_avg_diverges_more_with_more_folds_and_fewer_instances():
    gap = {
        (n, k): exact_fold_f1(0.01, method="tp_fp", n_instances=n, n_folds=k)
        - exact_fold_f1(0.01, method="avg", n_instances=n, n_folds=k)
        for n in (1000, 10_000)
        for k in (5, 10, 50)
    }
    assert gap[1000, 5] < gap[1000, 10] < gap[1000, 50]
    assert all(gap[10_000, k] < gap[1000, k] for k in (5, 10, 50))


def test_readings_columns_are_exact_fold_f1():
    r = fold_f1_readings([0.0, 0.02], n_instances=1000, n_folds=10, average="macro")
    assert list(r.index) == [0.0, 0.02] and r.index.name == "prop_a"
    assert list(r.columns) == [
        "avg: random, fixed",
        "avg: stratified, fixed",
        "avg: even, fixed",
        "avg: random, binomial",
        "avg: stratified, binomial",
        "tp_fp: fixed",
        "tp_fp: binomial",
    ]
    for col in r.columns:
        method, reading = col.split(": ")
        if method == "avg":
            kw = dict(zip(("allocation", "errors"), reading.split(", "), strict=True))
        else:
            kw = {"errors": reading}
        assert r.loc[0.02, col] == exact_fold_f1(0.02, method=method, average="macro", n_folds=10, **kw)
    # 0 % class A: class A scores 0 everywhere, class B's F1 is 2 r_B / (1 + r_B) pooled (eq. 31 at π = 0)
    assert r.loc[0.0, "tp_fp: fixed"] == pytest.approx(RB / (1 + RB), abs=2e-3)


def test_readings_claims_of_notebook_04():
    # Section 5.2 of notebook 04: the allocation changes the sign of E[F_avg] - E[F_tp,fp]. With random folds
    # F_avg is below F_tp,fp; stratified (every fold gets >= 1 A instance) it is above (1/d is convex);
    # Van Asch's "even" split leaves a gap of a few tenths of a point at most; binomial errors move
    # every curve by less than a point. Each reading's F_avg is compared with the F_tp,fp of the same errors.
    for k, n in ((5, 1000), (10, 1000), (50, 10_000)):
        r = fold_f1_readings([0.01, 0.02], n_instances=n, n_folds=k)
        gap = pd.DataFrame(
            {col: r[col] - r["tp_fp: " + col.rsplit(", ", 1)[1]] for col in r.columns if col.startswith("avg: ")}
        )
        assert (gap["avg: random, fixed"] < 0).all() and (gap["avg: random, binomial"] < 0).all()
        assert (gap["avg: stratified, fixed"] > 0).all() and (gap["avg: stratified, binomial"] > 0).all()
        assert (gap["avg: even, fixed"].abs() < 0.005).all()
        assert (r["avg: random, fixed"] - r["avg: random, binomial"]).abs().max() < 0.01
        assert (r["tp_fp: fixed"] - r["tp_fp: binomial"]).abs().max() < 0.01
    # The table's "stratified, binomial" entry at 2c, 1 % is the gap section 5.2 computes from the stratified
    # F_tp,fp: the pooled counts do not depend on how the folds are made.
    r = fold_f1_readings([0.01], n_instances=1000, n_folds=10)
    kw = dict(n_folds=10, allocation="stratified", errors="binomial")
    direct = exact_fold_f1(0.01, method="avg", **kw) - exact_fold_f1(0.01, method="tp_fp", **kw)
    assert r["avg: stratified, binomial"].iloc[0] - r["tp_fp: binomial"].iloc[0] == pytest.approx(direct, abs=1e-15)
    # Panel 2e below 5 %: fewer A instances than folds, so F_avg is far below F_tp,fp whatever the allocation.
    r = fold_f1_readings([0.01, 0.02], n_instances=1000, n_folds=50)
    assert (r.drop(columns=["tp_fp: fixed", "tp_fp: binomial"]).max(axis=1) < r["tp_fp: fixed"] - 0.15).all()


def test_leave_one_out_f_avg_is_tp_over_n():
    # Notebook 04, exercise 2: a one-instance fold scores 1 if it is a correct A, else 0 (FN only, FP only,
    # or 0/0 substituted by 0), so E[F_avg] = tp_A / N exactly, whatever the allocation.
    for prop in (0.02, 0.1):
        tp_a = corpus_counts(prop, n_instances=1000)["tp_a"]
        for allocation in ("random", "stratified"):
            assert exact_fold_f1(prop, method="avg", n_folds=1000, allocation=allocation) == pytest.approx(
                tp_a / 1000, abs=1e-12
            )


def test_delta_not_one_yet_equal_scores():
    # Notebook 04, exercise 3: F_avg = F_tp,fp <=> (d2 - d1)(a1 d2 - a2 d1) = 0 for two folds; folds with
    # equal F1 (1/2) but d = 4 and 8 have δ = 12 / (2 * 4) and 12 / (2 * 8).
    n_a, tp_a, tp_b = [1, 3], [1, 2], [7, 4]
    assert delta_factors(n_a, tp_a, tp_b, fold_size=10).tolist() == [1.5, 0.75]
    assert fold_f1(n_a, tp_a, tp_b, fold_size=10, method="avg") == pytest.approx(0.5, abs=1e-15)
    assert fold_f1(n_a, tp_a, tp_b, fold_size=10, method="tp_fp") == pytest.approx(0.5, abs=1e-15)


def test_extra_true_negatives_do_not_move_the_class_a_gap():
    # Notebook 04 §6: n^k + c^k = 2 tp_A + fp_A + fn_A has no true negatives of A. N = 1003 at 5 % adds three
    # correct B's to the corpus of N = 1000 (50 A, 40 right; 22 wrong B's in both), so with an even split the
    # class-A F1s are identical, while the macro-F1 (whose class-B term counts them) moves.
    a, b = corpus_counts(0.05, n_instances=1000), corpus_counts(0.05, n_instances=1003)
    assert (a["n_a"], a["tp_a"], a["n_b"] - a["tp_b"]) == (b["n_a"], b["tp_a"], b["n_b"] - b["tp_b"]) == (50, 40, 22)
    assert b["tp_b"] - a["tp_b"] == 3
    sims = [simulate_fold_counts(0.05, n_instances=n, n_folds=10, allocation="even") for n in (1000, 1003)]
    for method in ("tp_fp", "avg"):
        assert sims[0].f1(method=method)[0] == sims[1].f1(method=method)[0]
    macro = [s.f1(method="avg", average="macro")[0] - s.f1(method="tp_fp", average="macro")[0] for s in sims]
    assert macro[0] != macro[1]


def test_readings_rejects():
    with pytest.raises(ValueError, match="average"):
        fold_f1_readings([0.01], average="micro")
    with pytest.raises(ValueError, match="props"):
        fold_f1_readings([0.01, 1.5])


def test_curve_columns():
    curve = fold_f1_curve([0.0, 0.05], n_folds=5, n_reps=200, seed=1)
    assert len(curve) == 2 * 2 * 2
    assert set(curve.columns) >= {"prop_a", "n_a", "average", "method", "exact", "mean", "se", "theory"}
    assert curve["mean"].notna().all()
    assert fold_f1_curve([0.05], n_folds=5, n_reps=0)["mean"].isna().all()


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        (dict(prop_a=-0.1), ValueError, "prop_a"),
        (dict(prop_a=1.5), ValueError, "prop_a"),
        (dict(prop_a=float("nan")), ValueError, "prop_a"),
        (dict(prop_a="0.1"), TypeError, "prop_a"),
        (dict(recall_a=1.2), ValueError, "recall_a"),
        (dict(recall_b=-0.5), ValueError, "recall_b"),
        (dict(n_folds=1), ValueError, "n_folds"),
        (dict(n_folds=2000), ValueError, "n_folds"),
        (dict(n_folds=2.0), TypeError, "n_folds"),
        (dict(n_instances=1), ValueError, "n_instances"),
        (dict(n_reps=0), ValueError, "n_reps"),
        (dict(allocation="stratify"), ValueError, "allocation"),
        (dict(errors="gaussian"), ValueError, "errors"),
        (dict(allocation="even", errors="binomial"), ValueError, "allocation='even'"),
    ],
)
def test_simulation_rejects(kwargs, exc, match):
    args = dict(prop_a=0.05, n_instances=1000, n_folds=10, n_reps=2)
    args.update(kwargs)
    with pytest.raises(exc, match=match):
        simulate_fold_counts(args.pop("prop_a"), **args)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(method="pr_re"), "method"),
        (dict(average="micro"), "average"),
        (dict(prop_a=2.0), "prop_a"),
        (dict(n_folds=0), "n_folds"),
    ],
)
def test_exact_rejects(kwargs, match):
    args = dict(prop_a=0.05, method="avg")
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        exact_fold_f1(args.pop("prop_a"), **args)


@pytest.mark.parametrize(
    "args, kwargs, exc, match",
    [
        (([1, -1], [0, 0], [5, 5]), {}, ValueError, "n_a"),
        (([1, 1], [2, 0], [5, 5]), {}, ValueError, "tp_a"),
        (([1, 1], [1, 0], [10, 5]), {}, ValueError, "tp_b"),
        (([1, 1], [1, 0], [5]), {}, ValueError, "same shape"),
        (([1.0, 1.0], [1, 0], [5, 5]), {}, TypeError, "n_a"),
        (([11, 1], [1, 0], [0, 5]), {}, ValueError, "n_a is larger than fold_size"),
        (([1, 1], [1, 0], [5, 5]), dict(fold_size=0), ValueError, "fold_size"),
        (([1, 1], [1, 0], [5, 5]), dict(fold_size=[10, 10, 10]), ValueError, "fold_size"),
        ((1, 1, 5), {}, ValueError, "n_a"),
        (([1, 1], [1, 0], [5, 5]), dict(method="avg_skip"), ValueError, "method"),
        (([1, 1], [1, 0], [5, 5]), dict(average="weighted"), ValueError, "average"),
        (([1, 1], [1, 0], [5, 5]), dict(undefined="ignore"), ValueError, "undefined"),
    ],
)
def test_fold_f1_rejects(args, kwargs, exc, match):
    kw = dict(fold_size=10, method="tp_fp")
    kw.update(kwargs)
    with pytest.raises(exc, match=match):
        fold_f1(*args, **kw)


def test_other_rejections():
    with pytest.raises(ValueError, match="prop_a"):
        theoretical_f1([0.1, 1.2])
    with pytest.raises(ValueError, match="average"):
        theoretical_f1(0.1, average="weighted")
    with pytest.raises(ValueError, match="n_a must be 1-D"):
        delta_table([[1, 1]], [[1, 0]], [[5, 5]], fold_size=10)
    sim = simulate_fold_counts(0.05, n_reps=2)
    with pytest.raises(ValueError, match="rep"):
        sim.counts(2)
    with pytest.raises(ValueError, match="pos_label"):
        sim.counts(0, pos_label="C")
    with pytest.raises(ValueError, match="seed"):
        fold_f1_curve([0.05], seed=-1, n_reps=1)
    with pytest.raises(ValueError, match="props"):
        fold_f1_curve([0.05, -0.01], n_reps=1)
    with pytest.raises(ValueError, match="n_folds"):
        fold_sizes(10, 11)


def test_eq31_values_printed_in_notebook_04():
    # By hand: π = 1 %: term_A = 0.008 / (0.018 + 0.023 * 0.99) = 0.196223,
    # term_B = 0.977 * 0.99 / (0.2 * 0.01 + 1.977 * 0.99) = 0.493680  ->  68.99 %, F1_A = 39.24 %
    # π = 10 %: 0.08 / 0.2007 = 0.398605 and 0.8793 / 1.7993 = 0.488690  ->  88.73 %, F1_A = 79.72 %
    # π = 0: 0.977 / 1.977 = 0.494183  ->  49.42 %
    assert apples.cv.percent(theoretical_f1(0.01), decimals=2) == "68.99%"
    assert apples.cv.percent(theoretical_f1(0.01, average="binary"), decimals=2) == "39.24%"
    assert apples.cv.percent(theoretical_f1(0.10), decimals=2) == "88.73%"
    assert apples.cv.percent(theoretical_f1(0.10, average="binary"), decimals=2) == "79.72%"
    assert apples.cv.percent(theoretical_f1(0.0), decimals=2) == "49.42%"
