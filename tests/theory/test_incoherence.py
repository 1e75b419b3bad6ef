"""Tests for apples.incoherence: Parker (2011) §III and Hand (2009), each identity checked.

Independent sources: the closed-form binormal AUC, integrals taken along a
different path (ROC space instead of score space), brute-force pair counts in
exact rational arithmetic, scikit-learn, scipy.optimize, and Monte Carlo.
"""

from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, optimize
from sklearn.metrics import average_precision_score, matthews_corrcoef, roc_auc_score

import apples
from apples.metrics.losses import (
    empirical_cost_intervals,
    empirical_hand_loss,
    empirical_loss,
    empirical_optimal_threshold,
    empirical_uniform_threshold_loss,
)
from apples.studies import parker as pk
from apples.theory import Binormal
from apples.theory.parker import (
    expected_loss,
    implied_cost,
    implied_cost_density,
    integrated_measure,
    loss_at_implied_cost,
    misclassification_loss,
    optimal_threshold,
    threshold_measure,
    uniform_threshold_loss,
    weight_g,
    weight_i,
    weight_m,
)

EQUAL = [
    Binormal(mu_pos=1.0, mu_neg=0.0, pi_pos=0.5),
    Binormal(mu_pos=2.5, sd_pos=1.3, mu_neg=0.5, sd_neg=1.3, pi_pos=0.1),
    Binormal(mu_pos=0.4, sd_pos=0.7, mu_neg=0.0, sd_neg=0.7, pi_pos=0.8),
]
UNEQUAL = [
    Binormal(mu_pos=1.0, sd_pos=2.0, mu_neg=0.0, sd_neg=1.0, pi_pos=0.3),
    Binormal(mu_pos=1.5, sd_pos=0.6, mu_neg=0.0, sd_neg=1.4, pi_pos=0.2),
]
ALL = EQUAL + UNEQUAL
QUAD = 1e-10  # tolerance for identities checked by quadrature


def pairs_auc(y, s):
    """Mann-Whitney AUC in exact rationals, by counting all pairs."""
    pos = [v for v, t in zip(s, y, strict=True) if t == 1]
    neg = [v for v, t in zip(s, y, strict=True) if t == 0]
    wins = sum(Fraction(1) if p > n else Fraction(1, 2) if p == n else 0 for p, n in product(pos, neg))
    ties = sum(1 for p, n in product(pos, neg) if p == n)
    return wins / (len(pos) * len(neg)), Fraction(ties, len(pos) * len(neg))


# -- eqs. 2-6: cost and threshold --------------------------------------------------


@pytest.mark.parametrize("m", ALL)
def test_loss_eq4_matches_its_definition_and_ends(m):
    t, c = np.linspace(-3, 3, 13), 0.3
    expected = 2.0 * (c * m.pi_pos * m.pos.cdf(t) + (1 - c) * m.pi_neg * m.neg.sf(t))
    np.testing.assert_allclose(misclassification_loss(t, c, m, scale=2.0), expected, rtol=1e-13)
    assert misclassification_loss(np.inf, c, m) == pytest.approx(c * m.pi_pos, abs=1e-15)
    assert misclassification_loss(-np.inf, c, m) == pytest.approx((1 - c) * m.pi_neg, abs=1e-15)


@pytest.mark.parametrize("m", ALL)
def test_implied_cost_eq6_is_the_posterior_share_of_negatives(m):
    t = np.linspace(-4, 4, 17)
    direct = m.pi_neg * m.pdf_neg(t) / (m.pi_pos * m.pdf_pos(t) + m.pi_neg * m.pdf_neg(t))
    np.testing.assert_allclose(implied_cost(t, m), direct, rtol=1e-12)
    # and it is where dQ/dt = 0 (eq. 5): Q'(t) = c π0 f0 - (1 - c) π1 f1
    t = np.linspace(-2, 2, 9)  # away from the tails, where 1 - c loses digits to cancellation
    c = implied_cost(t, m)
    np.testing.assert_allclose(c * m.pi_pos * m.pdf_pos(t), (1 - c) * m.pi_neg * m.pdf_neg(t), rtol=1e-8)
    # stays finite far in the tails where the densities underflow
    assert np.all(np.isfinite(implied_cost(np.array([-60.0, 60.0]), m)))


@pytest.mark.parametrize("m", EQUAL)
def test_threshold_and_cost_invert_each_other_for_equal_spreads(m):
    t = np.linspace(m.mu_neg - 3, m.mu_pos + 3, 41)
    np.testing.assert_allclose(optimal_threshold(implied_cost(t, m), m), t, rtol=1e-9, atol=1e-9)
    c = np.linspace(0.01, 0.99, 99)
    np.testing.assert_allclose(implied_cost(optimal_threshold(c, m), m), c, rtol=1e-10, atol=1e-12)
    # c(t) decreases: a dearer missed positive lowers the threshold
    assert np.all(np.diff(implied_cost(t, m)) < 0)
    assert optimal_threshold(0.0, m) == np.inf and optimal_threshold(1.0, m) == -np.inf


@pytest.mark.parametrize("m", ALL)
def test_optimal_threshold_eq3_is_the_global_minimiser(m):
    grid = np.linspace(-15, 15, 30001)
    for c in (0.05, 0.2, 0.5, 0.7, 0.95):
        t_star = optimal_threshold(c, m)
        q_star = misclassification_loss(t_star, c, m)
        assert q_star <= misclassification_loss(grid, c, m).min() + 1e-15
        if np.isfinite(t_star):
            res = optimize.minimize_scalar(
                lambda t, c=c: misclassification_loss(t, c, m), bracket=(t_star - 1, t_star, t_star + 1)
            )
            assert q_star <= misclassification_loss(res.x, c, m) + 1e-15


@pytest.mark.parametrize("m", UNEQUAL)
def test_eq5_second_order_condition_is_positive_not_zero(m):
    """Parker prints d²Q/dt² = 0 after eq. 5; a minimum needs d²Q/dt² > 0.

    For unequal spreads eq. 5 has two roots: the minimum (Q'' > 0) and a
    maximum (Q'' < 0); neither has Q'' = 0.
    """
    from apples._kernels.parker import stationary_points as _stationary_points

    c = implied_cost(0.5 * (m.mu_pos + m.mu_neg), m)  # a cost with a stationary point
    roots = _stationary_points(np.array(c), m)
    assert np.all(np.isfinite(roots))
    h = 1e-4
    second = [
        (
            misclassification_loss(r + h, c, m)
            - 2 * misclassification_loss(r, c, m)
            + misclassification_loss(r - h, c, m)
        )
        / h**2
        for r in roots
    ]
    assert min(second) < -1e-3 and max(second) > 1e-3
    t_star = optimal_threshold(c, m)
    if np.isfinite(t_star):
        assert t_star == pytest.approx(roots[int(np.argmax(second))], abs=1e-12)


# -- eqs. 7-8: Hand's identity -------------------------------------------------------


@pytest.mark.parametrize("m", ALL)
def test_hand_identity_by_quadrature(m):
    L_G = expected_loss(m, lambda t: weight_g(t, m))
    assert abs(L_G - 2 * m.pi_pos * m.pi_neg * (1 - m.auc)) < QUAD
    # the intermediate line of Parker §III-B: π0π1 ∫ f1(1 - F0) + f0 F1 dt, both terms equal to 1 - AUC
    t1 = integrate.quad(lambda t: m.pdf_neg(t) * m.cdf_pos(t), -40, 40, points=[m.mu_neg, m.mu_pos], limit=200)[0]
    t2 = integrate.quad(lambda t: m.pdf_pos(t) * m.fpr(t), -40, 40, points=[m.mu_neg, m.mu_pos], limit=200)[0]
    assert abs(t1 - (1 - m.auc)) < QUAD and abs(t2 - (1 - m.auc)) < QUAD


@pytest.mark.parametrize("m", ALL)
def test_loss_at_implied_cost_is_pi0_pi1_wi_over_wg(m):
    t = np.linspace(-5, 5, 41)
    np.testing.assert_allclose(
        loss_at_implied_cost(t, m), m.pi_pos * m.pi_neg * weight_i(t, m) / weight_g(t, m), rtol=1e-10
    )
    np.testing.assert_allclose(weight_g(t, m), m.pdf(t), rtol=1e-15)


def test_hand_weight_is_a_density_and_its_implied_cost_density_integrates_to_one():
    for m in ALL:
        assert integrate.quad(lambda t, m=m: weight_g(t, m), -40, 40, limit=200)[0] == pytest.approx(1, abs=1e-12)
    # (unequal spreads: the density has an integrable 1/sqrt singularity where c(t) turns back;
    # checked by Monte Carlo below instead)
    for m in EQUAL:
        mass = integrate.quad(lambda c, m=m: implied_cost_density(c, m), 0, 1, limit=400, epsabs=1e-11)[0]
        assert mass == pytest.approx(1, abs=1e-7)


def test_implied_cost_density_matches_monte_carlo():
    m = Binormal(mu_pos=1.0, sd_pos=1.5, mu_neg=0.0, sd_neg=1.0, pi_pos=0.3)  # two thresholds per cost
    rng = np.random.default_rng(7)
    n = 200_000
    is_pos = rng.random(n) < m.pi_pos
    t = np.where(is_pos, rng.normal(m.mu_pos, m.sd_pos, n), rng.normal(m.mu_neg, m.sd_neg, n))
    c = implied_cost(t, m)
    from apples._kernels.parker import lambda_coefficients as _lambda_coefficients

    A, B, _ = _lambda_coefficients(m)
    c_turn = implied_cost(-B / (2 * A), m)  # c(t) turns back here: the density has a 1/sqrt singularity
    assert c.max() <= c_turn + 1e-12
    for x in (0.3, 0.6, 0.8, 0.95):
        upper = min(x, c_turn)
        cdf = integrate.quad(lambda u: implied_cost_density(u, m), 0, upper, limit=400)[0]
        se = max(np.sqrt(max(cdf * (1 - cdf), 0.0) / n), 1e-4)
        assert abs(np.mean(c <= x) - cdf) < 5 * se


# -- threshold measures and integrated measures (§II) --------------------------------


@pytest.mark.parametrize("m", ALL)
def test_threshold_measures_match_their_definitions(m):
    t = np.linspace(-3, 3, 25)
    p0, p1 = m.pi_pos, m.pi_neg
    tpr, fpr = m.pos.sf(t), m.neg.sf(t)
    F = p0 * tpr + p1 * fpr
    a = p0 * tpr + p1 * (1 - fpr)  # accuracy
    pc = p0 * F + p1 * (1 - F)  # chance agreement (Parker §II-F)
    prec = p0 * tpr / F
    np.testing.assert_allclose(threshold_measure(t, m, "kappa"), (a - pc) / (1 - pc), rtol=1e-10, atol=1e-15)
    np.testing.assert_allclose(threshold_measure(t, m, "precision"), prec, rtol=1e-12)
    np.testing.assert_allclose(threshold_measure(t, m, "f1"), 2 * prec * tpr / (prec + tpr), rtol=1e-12)
    np.testing.assert_allclose(threshold_measure(t, m, "tpr"), tpr, rtol=1e-13)
    # MCC from the four expected cell proportions (the textbook count formula)
    tp, fn, fp, tn = p0 * tpr, p0 * (1 - tpr), p1 * fpr, p1 * (1 - fpr)
    mcc = (tp * tn - fp * fn) / np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    np.testing.assert_allclose(threshold_measure(t, m, "mcc"), mcc, rtol=1e-10, atol=1e-15)


def test_mcc_agrees_with_sklearn_and_parker_eq1_as_printed_does_not():
    y = np.r_[np.ones(30, int), np.zeros(70, int)]
    rng = np.random.default_rng(3)
    s = np.r_[rng.normal(1, 1, 30), rng.normal(0, 1, 70)]
    pred = (s > 0.4).astype(int)
    n, p0, p1 = 100, 0.3, 0.7
    F0, F1 = pred[y == 1].mean(), pred[y == 0].mean()
    F = p0 * F0 + p1 * F1
    a = p0 * F0 + p1 * (1 - F1)
    corrected = p0 * p1 * (F0 - F1) / np.sqrt(p0 * p1 * F * (1 - F))
    printed = a * (1 - a) / np.sqrt(p0 * p1 * n**2 * F * (1 - F))  # Parker eq. (1) as printed
    assert corrected == pytest.approx(matthews_corrcoef(y, pred), abs=1e-12)
    assert abs(printed - matthews_corrcoef(y, pred)) > 0.1


@pytest.mark.parametrize("m", ALL)
def test_integrated_measures_agree_with_the_roc_space_integrals(m):
    assert abs(integrated_measure(m, "tpr") - m.auc) < 1e-12

    def kappa_at_fpr(v):  # Parker: AUK = ∫_0^1 κ(F_1^{-1}(v)) dv
        return threshold_measure(m.threshold_at_fpr(v), m, "kappa")

    auk_roc = integrate.quad(kappa_at_fpr, 0, 1, epsabs=1e-12, limit=400)[0]
    assert abs(integrated_measure(m, "kappa") - auk_roc) < 1e-8

    def precision_at_recall(r):  # AP = ∫_0^1 p(F_0^{-1}(r)) dr, precision averaged over recall
        return threshold_measure(m.pos.isf(r), m, "precision")

    ap_recall = integrate.quad(precision_at_recall, 0, 1, epsabs=1e-12, limit=400)[0]
    assert abs(integrated_measure(m, "precision", over="recall") - ap_recall) < 1e-8


def test_balanced_auk_is_auc_minus_half():
    for m in (Binormal(mu_pos=1.3), Binormal(mu_pos=0.5, sd_pos=2.0, sd_neg=0.5)):
        assert abs(integrated_measure(m, "kappa") - (m.auc - 0.5)) < 1e-12


def test_integrated_measures_match_sample_values():
    m = Binormal(mu_pos=1.5, sd_pos=1.2, mu_neg=0.0, sd_neg=1.0, pi_pos=0.25)
    y, s = m.sample(25_000, 75_000, seed=11)
    assert abs(average_precision_score(y, s) - integrated_measure(m, "precision", over="recall")) < 0.01
    # Parker's literal AP (precision averaged over FPR) is another number
    assert abs(integrated_measure(m, "precision", over="fpr") - average_precision_score(y, s)) > 0.05
    assert abs(apples.auk(y, s) - integrated_measure(m, "kappa")) < 0.01


# -- Theorem 1, eq. 10 -----------------------------------------------------------------

CASES = [("kappa", "fpr"), ("precision", "recall"), ("precision", "fpr"), ("tpr", "fpr")]


@pytest.mark.parametrize("m", ALL)
@pytest.mark.parametrize("measure, over", CASES)
def test_theorem_1_both_forms(m, measure, over):
    M = integrated_measure(m, measure, over=over)
    k = m.pi_pos * m.pi_neg
    printed = expected_loss(m, lambda t: weight_m(t, m, measure, over=over, form="printed"))
    loss = expected_loss(m, lambda t: weight_m(t, m, measure, over=over, form="loss"))
    assert abs(printed - k * M) < QUAD
    assert abs(loss - k * (1 - M)) < QUAD


def test_printed_weighting_goes_negative_where_kappa_does_and_the_loss_form_never():
    m = Binormal(mu_pos=1.0, sd_pos=2.5, mu_neg=0.0, sd_neg=0.5, pi_pos=0.3)  # ROC dips under the diagonal
    t = np.linspace(-6, 8, 561)
    kappa = threshold_measure(t, m, "kappa")
    assert kappa.min() < 0
    assert weight_m(t, m, "kappa", form="printed").min() < 0
    assert weight_m(t, m, "kappa", form="loss").min() >= 0
    assert weight_m(t, m, "precision", over="recall", form="loss").min() >= 0


def test_implied_cost_distributions_differ_between_classifiers_but_the_h_prior_does_not():
    a = Binormal(mu_pos=1.0, sd_pos=1.0, mu_neg=0.0, sd_neg=1.0, pi_pos=0.3)
    b = Binormal(mu_pos=2.5, sd_pos=1.0, mu_neg=0.0, sd_neg=1.0, pi_pos=0.3)
    c = np.linspace(0.05, 0.95, 19)
    for weight in (None, "kappa"):
        wa = implied_cost_density(c, a, None if weight is None else (lambda t, w=weight: weight_m(t, a, w)))
        wb = implied_cost_density(c, b, None if weight is None else (lambda t, w=weight: weight_m(t, b, w)))
        assert np.max(np.abs(wa - wb)) > 0.2
    # H's prior depends on the class proportion only: the same for both
    assert apples.metrics.h_measure_prior(a.pi_pos) == apples.metrics.h_measure_prior(b.pi_pos)


# -- Flach, Hernández-Orallo & Ferri (Parker §VI-B) -------------------------------------


@pytest.mark.parametrize("m", [EQUAL[0], EQUAL[1], UNEQUAL[0]])
def test_uniform_thresholds_make_auc_linear_in_expected_loss(m):
    p0, p1 = m.pi_pos, m.pi_neg
    assert abs(uniform_threshold_loss(m) - (p0 * p1 * (1 - 2 * m.auc) + 0.5)) < 1e-9
    b = 0.7
    assert abs(uniform_threshold_loss(m, scale=b) - b * ((p0**2 + p1**2) / 4 + p0 * p1 * (1 - m.auc))) < 1e-9


# -- empirical scores with ties ----------------------------------------------------------

labels_scores = st.integers(2, 30).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 1), min_size=n, max_size=n).filter(lambda y: 0 < sum(y) < n),
        st.lists(st.integers(0, 4), min_size=n, max_size=n),  # few distinct values: many ties
    )
)


@settings(max_examples=150)
@given(labels_scores)
def test_hand_identity_exact_for_empirical_scores_with_ties(data):
    y, s = (np.array(v) for v in data)
    auc_exact, tie = pairs_auc(y.tolist(), s.tolist())
    p0 = y.mean()
    h = empirical_hand_loss(y, s)
    assert abs(h.loss - 2 * p0 * (1 - p0) * float(1 - auc_exact)) < 1e-12
    assert abs(h.missed - float(1 - auc_exact)) < 1e-12  # midpoint rule: each term is 1 - AUC
    assert abs(h.false_alarm - float(1 - auc_exact)) < 1e-12
    assert abs(h.loss - 2 * p0 * (1 - p0) * (1 - roc_auc_score(y, s))) < 1e-12
    for ties, sign in (("positive", -1), ("negative", 1)):
        g = empirical_hand_loss(y, s, ties=ties)
        assert abs(g.loss - h.loss) < 1e-12  # the sum survives ...
        assert abs(g.missed - float(1 - auc_exact + sign * tie / 2)) < 1e-12  # ... each term does not
        assert abs(g.false_alarm - float(1 - auc_exact - sign * tie / 2)) < 1e-12


@settings(max_examples=100)
@given(labels_scores)
def test_uniform_threshold_loss_exact_for_empirical_scores(data):
    y, s = (np.array(v) for v in data)
    auc_exact, _ = pairs_auc(y.tolist(), s.tolist())
    p0 = Fraction(int(y.sum()), y.size)
    expected = p0 * (1 - p0) * (1 - 2 * auc_exact) + Fraction(1, 2)
    assert abs(empirical_uniform_threshold_loss(y, s) - float(expected)) < 1e-12


def test_uniform_threshold_loss_monte_carlo():
    y = np.array([1, 1, 0, 1, 0, 0, 1, 0])
    s = np.array([5, 4, 4, 3, 3, 3, 1, 0])
    rng = np.random.default_rng(0)
    n = 200_000
    k = rng.integers(0, y.size, n)  # a test case chosen uniformly: its score is the threshold
    c = rng.random(n)
    u = rng.random((n, y.size)) < 0.5  # tied cases predicted positive with probability 1/2
    pred = (s[None, :] > s[k][:, None]) | ((s[None, :] == s[k][:, None]) & u)
    fn = ((y == 1)[None, :] & ~pred).sum(1) / y.size
    fp = ((y == 0)[None, :] & pred).sum(1) / y.size
    loss = 2 * (c * fn + (1 - c) * fp)
    exact = empirical_uniform_threshold_loss(y, s)
    assert abs(loss.mean() - exact) < 5 * loss.std() / np.sqrt(n)


@settings(max_examples=100)
@given(labels_scores)
def test_empirical_cost_intervals_invert_the_optimal_threshold(data):
    y, s = (np.array(v) for v in data)
    r = empirical_cost_intervals(y, s)
    lo, hi = r.c_low[r.on_hull], r.c_high[r.on_hull]
    assert lo[0] == 0 and hi[-1] == 1
    np.testing.assert_array_equal(lo[1:], hi[:-1])  # the intervals tile [0, 1]
    assert np.all(np.diff(lo) >= 0)
    q = empirical_loss(y, s, np.linspace(0, 1, 201))
    for j in np.flatnonzero(r.on_hull & (r.c_high > r.c_low)):
        c = 0.5 * (r.c_low[j] + r.c_high[j])  # inside the interval: vertex j is the unique minimiser
        assert empirical_optimal_threshold(y, s, c) == r.thresholds[j]
        qc = empirical_loss(y, s, c)
        assert qc[j] == pytest.approx(qc.min(), abs=1e-15)
        assert np.sum(qc <= qc.min() + 1e-12) == 1
    # no threshold off the hull is ever strictly better than every hull vertex
    assert np.all(q[r.on_hull].min(0) <= q.min(0) + 1e-15)


def test_concave_roc_breakpoints_are_eq6_with_masses():
    # atoms (positives, negatives) with decreasing positive share: every ROC vertex is on the hull
    atoms = [(5, 1), (3, 2), (2, 4), (1, 6)]
    y = np.concatenate([np.r_[np.ones(p, int), np.zeros(n, int)] for p, n in atoms])
    s = np.concatenate([np.full(p + n, 10.0 - i) for i, (p, n) in enumerate(atoms)])
    r = empirical_cost_intervals(y, s)
    assert r.on_hull.all()
    np.testing.assert_allclose(r.c_high[:-1], [n / (p + n) for p, n in atoms], rtol=1e-15)


def test_empirical_loss_matches_counts():
    y = np.array([1, 0, 1, 1, 0, 0, 0])
    s = np.array([0.9, 0.8, 0.8, 0.3, 0.2, 0.2, 0.1])
    c = 0.3
    q = empirical_loss(y, s, c)
    thr = empirical_cost_intervals(y, s).thresholds
    for qi, t in zip(q, thr, strict=True):
        pred = s >= t
        expected = (c * np.sum((y == 1) & ~pred) + (1 - c) * np.sum((y == 0) & pred)) / y.size
        assert qi == pytest.approx(expected, abs=1e-15)


def test_empirical_agrees_with_the_model_on_a_large_sample():
    m = Binormal(mu_pos=1.2, sd_pos=1.0, mu_neg=0.0, sd_neg=1.0, pi_pos=0.4)
    y, s = m.sample(20_000, 30_000, seed=2)
    assert abs(empirical_hand_loss(y, s).loss - expected_loss(m, lambda t: weight_g(t, m))) < 0.005


# -- bad input ---------------------------------------------------------------------------


def test_bad_input_is_rejected():
    m = Binormal()
    with pytest.raises(TypeError, match=r"model must be an apples\.theory\.Binormal"):
        implied_cost(0.0, "model")
    with pytest.raises(ValueError, match="c must lie in"):
        optimal_threshold(1.2, m)
    with pytest.raises(ValueError, match="c must lie in"):
        misclassification_loss(0.0, float("nan"), m)
    with pytest.raises(ValueError, match="t contains NaN"):
        weight_g([0.0, float("nan")], m)
    with pytest.raises(TypeError, match="t must be a real number"):
        weight_i("x", m)
    with pytest.raises(ValueError, match="measure='auc' is not recognised"):
        threshold_measure(0.0, m, "auc")
    with pytest.raises(ValueError, match="over='precision' is not recognised"):
        integrated_measure(m, "precision", over="precision")
    with pytest.raises(ValueError, match="form='parker' is not recognised"):
        weight_m(0.0, m, "kappa", form="parker")
    with pytest.raises(ValueError, match="scale must be > 0"):
        misclassification_loss(0.0, 0.5, m, scale=0.0)
    with pytest.raises(ValueError, match="scale must be > 0"):
        uniform_threshold_loss(m, scale=-1.0)
    with pytest.raises(TypeError, match="weight must be a callable"):
        expected_loss(m, 3.0)
    with pytest.raises(ValueError, match="must have positive mass"):
        implied_cost_density(0.5, m, lambda t: 0.0 * t)
    with pytest.raises(ValueError, match="ties='all' is not recognised"):
        empirical_hand_loss([1, 0], [0.5, 0.2], ties="all")
    with pytest.raises(ValueError, match="only one class"):
        empirical_hand_loss([1, 1], [0.5, 0.2])
    with pytest.raises(ValueError, match="contains NaN"):
        empirical_cost_intervals([1, 0], [np.nan, 0.2])
    with pytest.raises(ValueError, match="infinite"):
        empirical_uniform_threshold_loss([1, 0], [np.inf, 0.2])
    with pytest.raises(ValueError, match="two classes"):
        empirical_loss([1, 0, 2], [0.1, 0.2, 0.3], 0.5)
    with pytest.raises(ValueError, match="inconsistent lengths"):
        empirical_optimal_threshold([1, 0, 1], [0.1, 0.2], 0.5)


# -- H prior, population H, explorer --------------------------------------------------------


def test_h_prior_density_is_the_mirrored_beta_of_hmeasure():
    from scipy import stats

    c = np.linspace(0.05, 0.95, 7)
    for pi in (0.2, 0.5, 0.7):
        a, b = apples.metrics.h_measure_prior(pi)
        np.testing.assert_allclose(apples.theory.h_prior_density(c, pi), stats.beta(a, b).pdf(1 - c), rtol=1e-12)
    # Hand 2009's Beta(2, 2): 6c(1 - c)
    np.testing.assert_allclose(apples.theory.h_prior_density(c, 0.3, severity_ratio=1), 6 * c * (1 - c), rtol=1e-12)


def test_h_prior_arguments_are_declared_with_the_h_measure_rules():
    m = Binormal(pi_pos=1e-320)
    for call, param in (
        (lambda: apples.theory.h_prior_density(0.5, 1e-320), "pi_pos"),
        (lambda: apples.theory.binormal_h_measure(m), "model"),
    ):
        with pytest.raises(ValueError, match=r"pi_pos=1e-320 is too small for the default severity ratio") as info:
            call()
        assert info.value.param == param
    for call in (
        lambda: apples.theory.h_prior_density(0.5, 0.3, severity_ratio=1.0, prior="hand2014"),
        lambda: apples.theory.binormal_h_measure(Binormal(), severity_ratio=1.0, prior="hand2014"),
    ):
        with pytest.raises(ValueError, match=r"^severity_ratio must be None with prior='hand2014'") as info:
            call()
        assert info.value.param == "severity_ratio"
    # the kind of apples.h_measure's severity_ratio, with its message about the R package's negative ratio
    with pytest.raises(ValueError, match=r"^severity_ratio must be a positive finite number, got -1 \(the R package"):
        apples.theory.h_prior_density(0.5, 0.3, severity_ratio=-1)
    assert apples.theory.h_prior_density(0.5, 1e-300) == 0.0  # tiny, but its ratio is a normal float


@pytest.mark.parametrize(
    "m", [Binormal(mu_pos=1.2, sd_pos=0.9, pi_pos=0.3), Binormal(mu_pos=0.8, sd_pos=1.6, pi_pos=0.6)]
)
def test_binormal_h_measure_is_the_limit_of_the_sample_h_measure(m):
    n = 100_000
    y, s = m.sample(int(n * m.pi_pos), n - int(n * m.pi_pos), seed=4)
    assert abs(apples.theory.binormal_h_measure(m) - apples.h_measure(y, s)) < 0.005
    assert abs(apples.theory.binormal_h_measure(m, severity_ratio=1) - apples.h_measure(y, s, severity_ratio=1)) < 0.005


def test_compare_classifiers_table_matches_the_single_functions():
    a, b = Binormal(mu_pos=1.0, pi_pos=0.3), Binormal(mu_pos=2.0, sd_pos=0.9, pi_pos=0.3)
    r = pk.incoherence_comparison(a, b, n_grid=9)
    assert r.table.loc["AUC", "A"] == a.auc and r.table.loc["AUC", "B"] == b.auc
    # independently: AUC = Φ(Δμ/√(σ₊² + σ₋²)) (Parker §II-D for normal scores)
    from scipy.stats import norm

    assert r.table.loc["AUC", "A"] == pytest.approx(norm.cdf(1 / np.sqrt(2)), abs=1e-15)
    assert r.table.loc["AUC", "B"] == pytest.approx(norm.cdf(2 / np.sqrt(1 + 0.81)), abs=1e-15)
    assert r.table.loc["AUK", "B"] == integrated_measure(b, "kappa")
    assert r.table.loc["AP", "A"] == integrated_measure(a, "precision", over="recall")
    assert r.table.loc["H", "B"] == apples.theory.binormal_h_measure(b)
    w = lambda t: weight_m(t, b, "precision", over="recall")  # noqa: E731
    np.testing.assert_array_equal(r.densities[("B", "AP")], implied_cost_density(r.c, b, w))
    np.testing.assert_allclose(r.densities[("A", "AUC")], implied_cost_density(r.c, a), rtol=1e-15)
    np.testing.assert_allclose(r.h_prior, apples.theory.h_prior_density(r.c, 0.3), rtol=1e-15)
    assert np.max(np.abs(r.densities[("A", "AUK")] - r.densities[("B", "AUK")])) > 0.1
    with pytest.raises(ValueError, match="must share pi_pos"):
        pk.incoherence_comparison(a, Binormal(pi_pos=0.5))
    with pytest.raises(ValueError, match="n_grid must be >= 3"):
        pk.incoherence_comparison(a, b, n_grid=2)
    with pytest.raises(ValueError, match=r"^a cost grid of 1,152,921,504,606,846,976 points would need") as info:
        pk.incoherence_comparison(a, b, n_grid=2**60)
    assert info.value.param == "n_grid"


def test_explorer_updates_its_table_when_a_slider_moves():
    parts = pk.incoherence_explorer(n_grid=9)
    a = Binormal(mu_pos=1.0, sd_pos=1.0, pi_pos=0.3)
    assert f"{a.auc:.4f}" in parts.table.value
    parts.controls["mu_a"].value = 2.0
    parts.controls["pi_pos"].value = 0.5
    a2 = Binormal(mu_pos=2.0, sd_pos=1.0, pi_pos=0.5)
    assert f"{a2.auc:.4f}" in parts.table.value
    assert f"{integrated_measure(a2, 'kappa'):.4f}" in parts.table.value
    assert f"{a2.auc - 0.5:.4f}" in parts.table.value  # balanced: AUK = AUC - 1/2


def test_mean_implied_cost_under_hands_weighting_is_pi_neg_for_every_classifier():
    # E_{W_G}[c(t)] = ∫ π1 f1 dt = π1: the AUC's implied costs differ in shape, not in mean
    for m in ALL:
        mean = integrate.quad(
            lambda t, m=m: implied_cost(t, m) * weight_g(t, m), -40, 40, points=[m.mu_neg, m.mu_pos], limit=400
        )[0]
        assert abs(mean - m.pi_neg) < 1e-10


def test_implied_cost_quantiles_match_the_closed_form_cdf_under_hands_weighting():
    # equal spreads: T(x) in closed form from eq. 5, and P(c(t) <= x) = P(t >= T(x)) under W_G,
    # the score mixture, whose tail is a sum of two normal tails
    from scipy.stats import norm

    for mu, sd, p0 in ((1.0, 1.0, 0.3), (2.0, 1.5, 0.2), (0.7, 0.8, 0.6)):
        m = Binormal(mu_pos=mu, sd_pos=sd, sd_neg=sd, pi_pos=p0)
        q = np.array([0.05, 0.1, 0.5, 0.9, 0.95])
        x = apples.theory.implied_cost_quantiles(m, q=q)
        T = mu / 2 + sd**2 / mu * (np.log((1 - x) / x) - np.log(p0 / (1 - p0)))
        cdf = p0 * norm.sf(T, mu, sd) + (1 - p0) * norm.sf(T, 0.0, sd)
        np.testing.assert_allclose(cdf, q, atol=1e-9)


def test_implied_cost_quantiles_agree_with_the_integrated_density():
    m = Binormal(mu_pos=2.0, pi_pos=0.3)
    for measure, over in (("kappa", "fpr"), ("precision", "recall")):

        def w(t, ms=measure, ov=over):
            return weight_m(t, m, ms, over=ov)

        for p, x in zip((0.1, 0.5, 0.9), apples.theory.implied_cost_quantiles(m, w), strict=True):
            # the density on a fine grid in u = logit(c) (one vectorised call), dc = c(1 - c) du
            u = np.linspace(-60.0, np.log(x / (1 - x)), 40_001)
            c = 1 / (1 + np.exp(-u))
            mass = np.trapezoid(implied_cost_density(c, m, w) * c * (1 - c), u)
            assert abs(mass - p) < 1e-6


def test_implied_cost_quantiles_reject_bad_input():
    with pytest.raises(ValueError, match="sd_pos == sd_neg"):
        apples.theory.implied_cost_quantiles(Binormal(mu_pos=1.0, sd_pos=2.0))
    with pytest.raises(ValueError, match="sd_pos == sd_neg"):
        apples.theory.implied_cost_quantiles(Binormal(mu_pos=0.0))
    for q in (0.0, 1.0, [0.5, np.nan], 1.5):
        with pytest.raises(ValueError, match="q must be probabilities"):
            apples.theory.implied_cost_quantiles(Binormal(mu_pos=1.0), q=q)
    with pytest.raises(TypeError, match="weight must be a callable"):
        apples.theory.implied_cost_quantiles(Binormal(mu_pos=1.0), weight=3.0)


def test_uniform_threshold_loss_draws_converge_to_the_exact_sum_and_are_reproducible():
    y = np.array([1, 1, 0, 1, 0, 0, 1, 0])
    s = np.array([5, 4, 4, 3, 3, 3, 1, 0])
    n = 200_000
    d = apples.metrics.uniform_threshold_loss_draws(y, s, n, seed=0)
    assert d.shape == (n,)
    assert abs(d.mean() - empirical_uniform_threshold_loss(y, s)) < 5 * d.std() / np.sqrt(n)
    np.testing.assert_array_equal(d[:1000], apples.metrics.uniform_threshold_loss_draws(y, s, n, seed=0)[:1000])
    d4 = apples.metrics.uniform_threshold_loss_draws(y, s, 50_000, seed=1, scale=4.0)  # loss is linear in b
    assert abs(d4.mean() - 2 * empirical_uniform_threshold_loss(y, s)) < 5 * d4.std() / np.sqrt(50_000)
    # more draws than one chunk (2e6 / n cases per chunk): still one draw per row, same mean
    yb = np.tile(y, 5_000)
    sb = np.tile(s, 5_000)
    db = apples.metrics.uniform_threshold_loss_draws(yb, sb, 500, seed=2)
    assert db.shape == (500,) and np.all(db >= 0)
    for bad in (0, -3):
        with pytest.raises(ValueError, match="n_draws must be >= 1"):
            apples.metrics.uniform_threshold_loss_draws(y, s, bad, seed=0)
    for bad in (2.5, True):  # a size is an integer (the kind of n_resamples, n_reps)
        with pytest.raises(TypeError, match="n_draws must be an integer"):
            apples.metrics.uniform_threshold_loss_draws(y, s, bad, seed=0)


def test_explorer_explains_a_random_classifier_and_the_plot_window():
    parts = pk.incoherence_explorer(n_grid=9)
    parts.controls["mu_a"].value = 0.0  # A: positives and negatives both N(0, 1)
    assert "A is a random classifier" in parts.table.value
    assert "B is a random classifier" not in parts.table.value
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    A, B = Binormal(mu_pos=1.0, pi_pos=0.3), Binormal(mu_pos=2.0, pi_pos=0.3)
    r = pk.incoherence_comparison(A, B, n_grid=199)
    fig, axes = plt.subplots(1, 2)
    assert pk.plot_incoherence_comparison(r, A, B, ax=axes) is fig
    labels = [t.get_text() for t in axes[1].get_legend().get_texts()]
    plt.close(fig)
    # B's AUK has its median at c = 0.999 (cost ratio 10^3) and a heavy tail beyond the window's edge
    # at 10^4: about an eighth is out of view, and the legend says so
    assert any(lab.startswith("B, AUK (") and "% in view)" in lab for lab in labels)
    assert axes[1].get_title() == "Implied cost distributions (Parker §III-B, C)"
    assert "A, AUC" in labels


def test_notebook08_sample_auc_lies_two_to_three_delong_se_below_the_population():
    """Notebook 08, A.4: on seed 2 (3,000 positives, 7,000 negatives) each sample AUC is 2-3 SE low."""
    from scipy.stats import norm
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(2)
    noise_pos, noise_neg = rng.standard_normal(3_000), rng.standard_normal(7_000)
    y = np.r_[np.ones(3_000, int), np.zeros(7_000, int)]
    for mu, printed in ((1.0, (0.746, 0.760, 2.6)), (2.0, (0.914, 0.921, 2.4))):
        score = np.r_[mu + noise_pos, noise_neg]
        ci = apples.roc_auc_ci(y, score)
        population = norm.cdf(mu / np.sqrt(2))  # binormal AUC, unit spreads: Φ(Δμ/√2)
        se = (ci.high - ci.low) / (2 * norm.ppf(0.975))
        assert ci.estimate == pytest.approx(roc_auc_score(y, score), abs=1e-12)
        assert (round(ci.estimate, 3), round(population, 3)) == printed[:2]
        assert population > ci.high and round((population - ci.estimate) / se, 1) == printed[2]


# -- notebook 08's printed values, from scipy.stats' normal densities ---------------------------------------
def _edge_distance(value: float, decimals: int) -> float:
    """How far ``value`` lies from the nearest rounding edge at ``decimals`` decimals."""
    scaled = value * 10**decimals
    return abs(scaled - np.floor(scaled) - 0.5) / 10**decimals


def test_notebook08_implied_cost_halfway_between_equal_spread_means_is_pi_neg():
    """§2: where the two densities are equal, eq. 6 gives c(t) = π₁ (0.7000 at t = 0.75)."""
    from scipy.stats import norm

    eq = Binormal(mu_pos=1.5, sd_pos=1.0, mu_neg=0.0, sd_neg=1.0, pi_pos=0.3)
    f0, f1 = norm.pdf(0.75, 1.5, 1.0), norm.pdf(0.75, 0.0, 1.0)
    assert f0 == pytest.approx(f1, rel=1e-15)
    assert implied_cost(0.75, eq) == pytest.approx(0.7 * f1 / (0.3 * f0 + 0.7 * f1), abs=1e-15)
    assert f"{implied_cost(0.75, eq):.4f}" == "0.7000"


def test_notebook08_both_terms_of_hands_identity_by_quadrature():
    """A.2: ∫f₁(1 - F₀) = ∫f₀F₁ = 1 - AUC = 0.1684580120 for the model of §1."""
    from scipy.stats import norm

    m = Binormal(mu_pos=1.5, sd_pos=1.2, mu_neg=0.0, sd_neg=1.0, pi_pos=0.3)
    one_minus_auc = norm.sf(1.5 / np.hypot(1.2, 1.0))  # 1 - Φ(Δμ/√(σ₊² + σ₋²))
    missed = integrate.quad(lambda t: norm.pdf(t) * norm.cdf(t, 1.5, 1.2), -20, 20, epsabs=1e-14, limit=200)[0]
    false_alarm = integrate.quad(lambda t: norm.pdf(t, 1.5, 1.2) * norm.sf(t), -20, 20, epsabs=1e-14, limit=200)[0]
    assert abs(missed - one_minus_auc) < 1e-13 and abs(false_alarm - one_minus_auc) < 1e-13
    assert abs(1 - m.auc - one_minus_auc) < 1e-15
    assert f"{one_minus_auc:.10f}" == "0.1684580120" and _edge_distance(one_minus_auc, 10) > 1e-13


def test_notebook08_auk_weighting_mass_differs_between_the_classifiers_of_section_5():
    """A.3, remark on normalisation: ∫ W_m dt for AUK (loss form) is 2.3124 for A and 38.4018 for B."""
    from scipy.stats import norm

    for mu, printed in ((1.0, "2.3124"), (2.0, "38.4018")):
        pi0, pi1 = 0.3, 0.7

        def w_m(t, mu=mu, pi0=pi0, pi1=pi1):
            f0, f1 = norm.pdf(t, mu, 1.0), norm.pdf(t)
            tpr, fpr = norm.sf(t, mu, 1.0), norm.sf(t)
            a, flagged = pi0 * tpr + pi1 * (1 - fpr), pi0 * tpr + pi1 * fpr
            chance = pi0 * flagged + pi1 * (1 - flagged)
            kappa = (a - chance) / (1 - chance)
            w_g, w_i = pi0 * f0 + pi1 * f1, f1 - f1 * tpr + f0 * fpr
            return (1 - kappa) * f1 * w_g / w_i  # eq. 10 applied to the loss 1 - κ (Parker's footnote 2)

        total = integrate.quad(w_m, -30, 30, limit=400)[0]
        model = Binormal(mu_pos=mu, pi_pos=0.3)
        ours = integrate.quad(lambda t, model=model: weight_m(t, model, "kappa"), -30, 30, limit=400)[0]
        assert ours == pytest.approx(total, rel=1e-9)
        assert f"{total:.4f}" == printed and _edge_distance(total, 4) > 1e-8
