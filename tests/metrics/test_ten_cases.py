"""Notebook 07's ten cases: every number its checked cells print, from sources other than apples.

Four positives and six negatives scored 10 down to 1 (labels + + − + − − + − − −) are small enough to count by
hand: each expected value is a fraction worked out from the confusion counts below, or comes from scikit-learn
or the PyPI ``hmeasure`` package (a port of Hand's R package). Where the notebook prints a rounded value, the
test formats the independent value the same way and compares the strings.
"""

from fractions import Fraction as Fr

import numpy as np
import pytest
from hmeasure import h_score
from sklearn.metrics import average_precision_score, matthews_corrcoef, roc_auc_score

import apples

Y = np.array([1, 1, 0, 1, 0, 0, 1, 0, 0, 0])
S = np.array([10, 9, 8, 7, 6, 5, 4, 3, 2, 1])
THRESHOLDS = [np.inf, *S.tolist()]
# counted by hand down the ranking, from t = inf (nothing predicted positive) to t = 1 (everything)
TP = [0, 1, 2, 2, 3, 3, 3, 4, 4, 4, 4]
FP = [0, 0, 0, 1, 1, 2, 3, 3, 4, 5, 6]
P, N, n = 4, 6, 10


def _kappa(tp: int, fp: int) -> Fr:
    """Cohen's κ = (a - p_c)/(1 - p_c), Parker §II-F, in fractions."""
    a = Fr(tp + N - fp, n)
    f = Fr(tp + fp, n)  # share predicted positive
    p_c = Fr(P, n) * f + Fr(N, n) * (1 - f)
    return (a - p_c) / (1 - p_c)


def _hscore(labels, scores, **kwargs) -> float:
    """The PyPI package wants scores in [0, 1]; H depends on the ranking only."""
    return h_score(labels, np.asarray(scores) / 10, **kwargs)


def test_confusion_counts_at_every_threshold():  # §1
    for t, tp, fp in zip(THRESHOLDS, TP, FP, strict=True):
        c = apples.Counts.from_labels(Y, (t <= S).astype(int))
        assert (c.tp, c.fp, c.fn, c.tn) == (tp, fp, P - tp, N - fp)


def test_auc_is_the_share_of_pairs_ranked_right():  # §2
    right = sum(p > q for p in S[Y == 1] for q in S[Y == 0])
    assert right == 20
    # the area under the ROC curve: the share of positives above each negative (8, 6, 5, 3, 2, 1), averaged
    shares = [Fr(2, 4), Fr(3, 4), Fr(3, 4), Fr(1), Fr(1), Fr(1)]
    assert sum(shares) / 6 == Fr(20, 24)
    assert roc_auc_score(Y, S) == pytest.approx(20 / 24, abs=1e-15)
    assert apples.roc_auc(Y, S) == pytest.approx(20 / 24, abs=1e-15)
    assert f"{20 / 24:.4f}" == "0.8333"


def test_average_precision_is_the_mean_precision_at_the_positives():  # §3
    ap = (Fr(1) + Fr(1) + Fr(3, 4) + Fr(4, 7)) / 4
    assert ap == Fr(93, 112)
    assert average_precision_score(Y, S) == pytest.approx(float(ap), abs=1e-15)
    assert apples.average_precision(Y, S) == pytest.approx(float(ap), abs=1e-15)
    assert f"{float(ap):.4f}" == "0.8304"


def test_kappa_at_seven_and_the_auk():  # §4
    assert _kappa(3, 1) == Fr(7, 12)  # a = 0.8, F = 0.4, p_c = 0.52
    kappa = [_kappa(tp, fp) for tp, fp in zip(TP, FP, strict=True)]
    assert kappa[0] == kappa[-1] == 0  # constant predictions at both ends
    fpr = [Fr(fp, N) for fp in FP]
    auk = sum((fpr[i + 1] - fpr[i]) * (kappa[i + 1] + kappa[i]) / 2 for i in range(len(fpr) - 1))
    assert apples.auk(Y, S) == pytest.approx(float(auk), abs=1e-15)
    assert apples.metrics.kappa_curve(Y, S).kappa == pytest.approx([float(k) for k in kappa], abs=1e-15)
    assert (f"{float(auk):.4f}", f"{20 / 24 - 0.5:.4f}") == ("0.3166", "0.3333")


def test_max_f1_and_max_mcc_pick_different_thresholds():  # §5
    f1 = [Fr(2 * tp, 2 * tp + fp + (P - tp)) for tp, fp in zip(TP, FP, strict=True)]
    assert max(f1) == Fr(3, 4) and THRESHOLDS[f1.index(max(f1))] == 7
    mcc = [matthews_corrcoef(Y, t <= S) for t in THRESHOLDS]
    assert max(mcc) == pytest.approx(6**0.5 / 4, abs=1e-15) and THRESHOLDS[int(np.argmax(mcc))] == 9
    f1_best, mcc_best = apples.max_f1(Y, S), apples.max_mcc(Y, S)
    assert (f"{f1_best.value:.4f}", f1_best.threshold) == ("0.7500", 7)
    assert (f"{mcc_best.value:.4f}", mcc_best.threshold) == (f"{6**0.5 / 4:.4f}", 9) == ("0.6124", 9)


def test_loss_at_equal_costs_is_half_the_error_rate():  # §6
    half = [Fr(P - tp + fp, 2 * n) for tp, fp in zip(TP, FP, strict=True)]
    assert apples.metrics.empirical_loss(Y, S, 0.5).tolist() == pytest.approx([float(q) for q in half], abs=1e-15)


def test_the_best_threshold_and_its_cost_intervals():  # §6
    # the hull corners' loss lines Q = (c FN + (1 - c) FP)/10: t = 9 is 2c/10, t = 7 is 1/10, t = 4 is 3(1 - c)/10;
    # 2c = 1 at c = 1/2, 1 = 3(1 - c) at c = 2/3
    ci = apples.metrics.empirical_cost_intervals(Y, S)
    rows = [(t, lo, hi) for t, lo, hi, on in zip(ci.thresholds, ci.c_low, ci.c_high, ci.on_hull, strict=True) if on]
    expected = [(np.inf, 0, 0), (9, 0, 0.5), (7, 0.5, 2 / 3), (4, 2 / 3, 1), (1, 1, 1)]
    for (t, lo, hi), (t_e, lo_e, hi_e) in zip(rows, expected, strict=True):
        assert t == t_e and lo == pytest.approx(lo_e, abs=1e-15) and hi == pytest.approx(hi_e, abs=1e-15)
    assert apples.metrics.roc_convex_hull(Y, S).thresholds.tolist() == [np.inf, 9, 7, 4, 1]
    # notebook 08, A.1: the breakpoints are ΔFP/(ΔFP + ΔTP) along the hull's edges
    hull = apples.metrics.roc_convex_hull(Y, S)
    d_fp, d_tp = np.diff(hull.fp), np.diff(hull.tp)
    assert (d_fp / (d_fp + d_tp)).tolist() == pytest.approx([0, 1 / 2, 2 / 3, 1], abs=1e-15)


def _beta22_losses() -> tuple[Fr, Fr]:
    """L and L_max under u(c) = 6c(1 - c), by the antiderivatives of notebook 07's A.1, in fractions."""

    def u_int(x: Fr) -> Fr:  # ∫_0^x u
        return 3 * x**2 - 2 * x**3

    def cu_int(x: Fr) -> Fr:  # ∫_0^x c u
        return 2 * x**3 - Fr(3, 2) * x**4

    def du_int(x: Fr) -> Fr:  # ∫_0^x (1 - c) u
        return u_int(x) - cu_int(x)

    half, two_thirds, pi1 = Fr(1, 2), Fr(2, 3), Fr(3, 5)
    loss = Fr(2, 10) * cu_int(half) + Fr(1, 10) * (u_int(two_thirds) - u_int(half))
    loss += Fr(3, 10) * (du_int(Fr(1)) - du_int(two_thirds))
    max_loss = Fr(4, 10) * cu_int(pi1) + Fr(6, 10) * (du_int(Fr(1)) - du_int(pi1))
    return loss, max_loss


def test_h_measure_with_hands_beta_2_2():  # §7 and A.1
    loss, max_loss = _beta22_losses()
    assert (loss, max_loss, 1 - loss / max_loss) == (Fr(311, 4320), Fr(93, 625), Fr(41477, 80352))
    assert _hscore(Y, S, severity_ratio=1.0) == pytest.approx(float(1 - loss / max_loss), abs=1e-12)
    r = apples.metrics.h_measure_details(Y, S, severity_ratio=1)
    assert (r.alpha, r.beta) == (2.0, 2.0)
    printed = (f"{float(loss):.5f}", f"{float(max_loss):.5f}", f"{float(1 - loss / max_loss):.4f}")
    assert printed == ("0.07199", "0.14880", "0.5162")
    assert (f"{r.loss:.5f}", f"{r.max_loss:.5f}", f"{r.h:.4f}") == printed


def test_the_grid_of_costs_lands_on_the_exact_losses():  # A.1: the trapezoid rule on 100,001 costs
    c = np.linspace(0, 1, 100_001)
    u = 6 * c * (1 - c)
    minimum = np.minimum.reduce([2 * c / 10, np.full_like(c, 1 / 10), 3 * (1 - c) / 10])  # the hull's lines
    loss, max_loss = _beta22_losses()
    grid_loss = np.trapezoid(minimum * u, c)
    grid_max = np.trapezoid(np.minimum(0.4 * c, 0.6 * (1 - c)) * u, c)
    # the rule's error, about h² times the kinks' jumps, is below 1e-9: far from the printed 5th decimal's edge
    assert abs(grid_loss - float(loss)) < 1e-9 and abs(grid_max - float(max_loss)) < 1e-9
    assert f"{grid_loss:.5f}" == "0.07199" and f"{grid_max:.5f}" == "0.14880"


def test_default_prior_h_matches_hands_r_package_port():  # §7
    assert apples.h_measure(Y, S) == pytest.approx(_hscore(Y, S), abs=1e-12)
    assert f"{_hscore(Y, S):.4f}" == "0.5174"
    assert apples.metrics.h_measure_prior(0.4) == (2.0, 2.5)  # Beta(2, 1 + π₁/π₀) over Hand's c = 1 - Parker's


def test_default_prior_losses_by_quadrature():  # §7: L and L_max under Beta(2.5, 2) over Parker's c
    """The default prior (r = π₀/π₁ = 2/3) is Beta(1 + 1/r, 2) = Beta(2.5, 2) over the cost share of a miss; L and
    L_max by scipy's quadrature of the hull's lines and the trivial classifiers' loss, split at their kinks."""
    from scipy import integrate, stats

    u = stats.beta(2.5, 2).pdf
    c = np.linspace(0, 1, 11)
    assert apples.theory.h_prior_density(c, 0.4) == pytest.approx(u(c), rel=1e-12)

    def minimum(x: float) -> float:  # the ten cases' minimum loss: t = 9, 7 and 4 win in turn (§6)
        return min(2 * x, 1.0, 3 * (1 - x)) / 10

    loss = integrate.quad(lambda x: minimum(x) * u(x), 0, 1, points=[1 / 2, 2 / 3], epsabs=1e-14)[0]
    max_loss = integrate.quad(lambda x: min(0.4 * x, 0.6 * (1 - x)) * u(x), 0, 1, points=[0.6], epsabs=1e-14)[0]
    r = apples.metrics.h_measure_details(Y, S)
    assert (r.loss, r.max_loss) == pytest.approx((loss, max_loss), abs=1e-12)
    assert (f"{loss:.5f}", f"{max_loss:.5f}", f"{1 - loss / max_loss:.4f}") == ("0.07487", "0.15512", "0.5174")
    # both rise from Beta(2, 2)'s 311/4320 and 93/625 by nearly the same factor, so H barely moves (§7)
    assert abs(loss / (311 / 4320) - max_loss / (93 / 625)) < 0.005


def test_exercise_4_same_auc_and_h_prefers_by_the_stated_costs():
    y_a = np.array([0, 1, 1, 1, 1, 0, 0, 0, 0, 0])
    y_b = np.array([1, 1, 1, 0, 0, 0, 0, 1, 0, 0])
    assert roc_auc_score(y_a, S) == roc_auc_score(y_b, S) == pytest.approx(20 / 24)
    h = {r: (_hscore(y_a, S, severity_ratio=r), _hscore(y_b, S, severity_ratio=r)) for r in (1 / 3, 1.0, 3.0)}
    assert h[1 / 3][0] > h[1 / 3][1] and h[3.0][0] < h[3.0][1] and h[1.0][0] == pytest.approx(h[1.0][1])
    # the tie at r = 1 (Solution 4): A's minimum loss min(4c, 1 - c)/10 is B's min(c, 4(1 - c))/10 mirrored
    c = np.linspace(0, 1, 101)
    loss_a, loss_b = (apples.metrics.empirical_loss(lab, S, c).min(axis=0) for lab in (y_a, y_b))
    assert loss_a == pytest.approx(np.minimum(4 * c, 1 - c) / 10, abs=1e-15)
    assert loss_b == pytest.approx(np.minimum(c, 4 * (1 - c)) / 10, abs=1e-15)
    assert loss_a == pytest.approx(loss_b[::-1], abs=1e-15)
    for r, (a, b) in h.items():
        assert apples.h_measure(y_a, S, severity_ratio=r) == pytest.approx(a, abs=1e-12)
        assert apples.h_measure(y_b, S, severity_ratio=r) == pytest.approx(b, abs=1e-12)


def test_parker_eq1_as_printed_and_corrected_at_seven():  # A.2
    pi0, pi1, f0, f1, f, a = Fr(2, 5), Fr(3, 5), Fr(3, 4), Fr(1, 6), Fr(2, 5), Fr(4, 5)
    corrected_squared = (pi0 * pi1 * (f0 - f1)) ** 2 / (pi0 * pi1 * f * (1 - f))
    assert corrected_squared == Fr(7, 12) ** 2  # MCC = (15 - 1)/√(4·4·6·6) = 14/24
    printed_squared = (a * (1 - a)) ** 2 / (pi0 * pi1 * 10**2 * f * (1 - f))
    assert printed_squared == Fr(1, 15) ** 2  # 0.16/2.4
    assert matthews_corrcoef(Y, S >= 7) == pytest.approx(7 / 12, abs=1e-15)
    assert (f"{7 / 12:.4f}", f"{1 / 15:.4f}") == ("0.5833", "0.0667")


def test_precision_at_four_and_r_precision():  # A.3: the top four hold three positives
    assert apples.precision_at_k(Y, S, k=4) == apples.r_precision(Y, S) == 0.75
