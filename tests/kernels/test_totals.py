"""The per-label-totals kernels (apples._kernels.totals: accuracy, MCC, balanced accuracy, kappa) against scikit-learn
against the formulas in exact rational arithmetic, their 0/0 cases worked out by hand, and their invariance to the
matrix's scale from 5e-324 to 1e308 and to counts up to 2**53."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

from apples._kernels import totals as tt


def _totals(m: np.ndarray) -> tt.LabelTotals:
    """The per-label totals of confusion matrices ``[..., true, predicted]``: the diagonal, the off-diagonal
    column and row sums (each a sum of cells), and the size."""
    m = np.asarray(m, dtype=float)
    # scaled by a power of two first (exact), as the report's weights are before they are summed
    top = m.max(axis=(-2, -1), keepdims=True) if m.size else np.zeros((*m.shape[:-2], 1, 1))
    m = np.ldexp(m, -np.frexp(top)[1])
    q = m.shape[-1]
    off = 1.0 - np.eye(q)
    tp = np.diagonal(m, axis1=-2, axis2=-1)
    fp = np.einsum("...ik,ik->...k", m, off)
    fn = np.einsum("...kj,kj->...k", m, off)
    return tt.LabelTotals(tp, fp, fn, m.sum(axis=(-2, -1)))


def _of_matrix(kernel):
    """The kernel as a function of confusion matrices."""
    return lambda m: kernel(_totals(m))


KERNELS = {
    "accuracy": _of_matrix(tt.accuracy),
    "mcc": _of_matrix(tt.matthews_corrcoef),
    "balanced_accuracy": _of_matrix(tt.balanced_accuracy),
    "kappa": _of_matrix(tt.cohen_kappa),
}


def _cases(m: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One case per cell, weighing the cell's value: scikit-learn's confusion matrix of them is ``m``."""
    q = m.shape[0]
    t, p = np.divmod(np.arange(q * q), q)
    return t, p, m.reshape(-1).astype(float)


def _sklearn(m: np.ndarray) -> dict[str, float]:
    t, p, w = _cases(m)
    if not w.sum() > 0:
        return dict.fromkeys(KERNELS, np.nan)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # 0/0 warnings, "y_pred contains classes not in y_true"
        return {
            "accuracy": skm.accuracy_score(t, p, sample_weight=w),
            "mcc": skm.matthews_corrcoef(t, p, sample_weight=w),
            "balanced_accuracy": skm.balanced_accuracy_score(t, p, sample_weight=w),
            "kappa": skm.cohen_kappa_score(t, p, sample_weight=w),
        }


def _exact(m: np.ndarray) -> dict[str, float]:
    """Each measure's formula in rational arithmetic on the cells as given (floats convert exactly)."""
    c = [[Fraction(v) for v in row] for row in m.tolist()]
    q = len(c)
    n = sum(sum(row) for row in c)
    if n == 0:
        return dict.fromkeys(KERNELS, np.nan)
    t = [sum(c[k]) for k in range(q)]
    p = [sum(c[i][k] for i in range(q)) for k in range(q)]
    diag = sum(c[k][k] for k in range(q))
    num = n * diag - sum(t[k] * p[k] for k in range(q))  # Gorodkin (2004) eq. 8
    d2 = (n * n - sum(v * v for v in p)) * (n * n - sum(v * v for v in t))
    mcc = math.copysign(math.sqrt(num * num / d2), num) if d2 else np.nan
    p_o, p_e = diag / n, sum(t[k] * p[k] for k in range(q)) / (n * n)
    recalls = [c[k][k] / t[k] for k in range(q) if t[k] > 0]
    return {
        "accuracy": float(p_o),
        "mcc": float(mcc),
        "balanced_accuracy": float(sum(recalls) / len(recalls)),
        "kappa": float((p_o - p_e) / (1 - p_e)) if p_e != 1 else np.nan,
    }


def _constant_margin(m: np.ndarray) -> bool:
    """MCC's 0/0, worked out independently: every case in one row, or in one column (or no case)."""
    return (m.sum(axis=1) > 0).sum() <= 1 or (m.sum(axis=0) > 0).sum() <= 1


def _assert_matches_sklearn(m: np.ndarray, sklearn_rel: float = 1e-9) -> None:
    """Equal to the exact formula (1e-12 relative) and to scikit-learn (whose float sums of n² terms round:
    ``sklearn_rel``); MCC NaN exactly where scikit-learn substitutes 0 for a constant margin."""
    ours = {name: float(f(m)) for name, f in KERNELS.items()}
    exact, theirs = _exact(m), _sklearn(m)
    assert ours == pytest.approx(exact, rel=1e-12, abs=1e-14, nan_ok=True), m
    for name in ("accuracy", "balanced_accuracy", "kappa"):
        assert ours[name] == pytest.approx(theirs[name], rel=sklearn_rel, abs=1e-12, nan_ok=True), (name, m)
    if _constant_margin(m):  # scikit-learn substitutes 0; the kernel marks the 0/0
        assert np.isnan(ours["mcc"]) and (theirs["mcc"] == 0.0 or not m.sum())
    else:
        assert ours["mcc"] == pytest.approx(theirs["mcc"], rel=sklearn_rel, abs=1e-12), m


matrices = st.integers(2, 5).flatmap(
    lambda q: st.lists(st.integers(0, 40), min_size=q * q, max_size=q * q).map(lambda v: np.array(v).reshape(q, q))
)
weighted = st.integers(2, 5).flatmap(
    lambda q: st.lists(st.one_of(st.just(0.0), st.floats(1e-3, 1e3)), min_size=q * q, max_size=q * q).map(
        lambda v: np.array(v).reshape(q, q)
    )
)


@settings(max_examples=150, deadline=None)
@given(matrices)
def test_integer_counts_match_scikit_learn(m):
    _assert_matches_sklearn(m)


@settings(max_examples=150, deadline=None)
@given(weighted)
def test_sums_of_weights_match_scikit_learn(m):
    _assert_matches_sklearn(m, sklearn_rel=1e-6)


@pytest.mark.parametrize(
    "m",
    [
        np.array([[7, 0], [0, 0]]),  # one class, all right: every measure but accuracy 0/0
        np.array([[0, 5], [3, 0]]),  # all wrong
        np.array([[4, 0], [6, 0]]),  # all predicted one label
        np.array([[0, 0, 0], [0, 0, 0], [2, 3, 4]]),  # one true label, three predicted
        np.array([[1, 0, 0], [0, 1, 0], [0, 0, 10**6]]),  # a rare pair of labels
        np.array([[5e-324, 0.0], [5e-324, 5e-324]]),  # subnormal weights
        np.array([[1e308, 1e308], [0.0, 1e308]]),  # weights whose sums overflow
    ],
)
def test_adversarial_matrices_match_scikit_learn_or_its_0_by_0(m):
    if m.max() >= 1e300 or m.max() <= 1e-300:  # scikit-learn's sums over- or underflow: compare with the scaled matrix
        ours = {name: float(f(m)) for name, f in KERNELS.items()}
        unit = {name: float(f((m > 0).astype(int))) for name, f in KERNELS.items()}
        assert ours == pytest.approx(unit, rel=1e-12, nan_ok=True)
        _assert_matches_sklearn((m > 0).astype(int))
        return
    _assert_matches_sklearn(m)


@pytest.mark.parametrize(
    "m",
    [
        np.array([[10**9, 1], [2, 3]]),
        np.array([[2**53 - 8, 2], [3, 3]]),
        np.array([[2**40, 5, 0], [1, 7, 2], [0, 3, 2**20]]),
    ],
)
def test_one_huge_cell_keeps_every_digit(m):
    """n·c and Σ t_k p_k are about n² (10^18 and more): their difference loses digits in floating point, where
    scikit-learn computes it so. The one-vs-rest form keeps them: equal to the rational value to 1e-12."""
    ours = {name: float(f(m)) for name, f in KERNELS.items()}
    assert ours == pytest.approx(_exact(m), rel=1e-12, nan_ok=True)
    theirs = _sklearn(m)
    assert ours["mcc"] == pytest.approx(theirs["mcc"], rel=1e-3)  # scikit-learn's rounding, not ours


def test_the_0_by_0_cases_are_nan_worked_out_by_hand():
    one_class = np.array([[7, 0], [0, 0]])
    assert float(KERNELS["accuracy"](one_class)) == 1.0
    assert np.isnan(KERNELS["mcc"](one_class))  # one true label and one predicted
    assert float(KERNELS["balanced_accuracy"](one_class)) == 1.0  # the one label with true cases has recall 1
    assert np.isnan(KERNELS["kappa"](one_class))  # p_e = 1
    empty = np.zeros((3, 3))
    assert all(np.isnan(f(empty)) for f in KERNELS.values())
    constant_prediction = np.array([[4, 0], [6, 0]])
    assert np.isnan(KERNELS["mcc"](constant_prediction))
    assert float(KERNELS["kappa"](constant_prediction)) == 0.0  # p_o = p_e = 0.4: defined, no better than chance
    assert float(KERNELS["balanced_accuracy"](constant_prediction)) == 0.5  # recalls 1 and 0


def test_no_numpy_warning_and_vectorised_over_leading_axes():
    rng = np.random.default_rng(0)
    stack = rng.integers(0, 5, size=(4, 3, 3, 3))
    stack[0, 0] = 0  # an empty matrix
    stack[1, 2] = [[5, 0, 0], [0, 0, 0], [0, 0, 0]]  # 0/0 for MCC and kappa
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for f in KERNELS.values():
            out = f(stack)
            assert out.shape == (4, 3)
            for i in range(4):
                for j in range(3):
                    single = float(f(stack[i, j]))
                    assert out[i, j] == single or (np.isnan(out[i, j]) and np.isnan(single))


@settings(max_examples=100, deadline=None)
@given(matrices, st.sampled_from([1e-300, 1e300]))
def test_scale_invariant_at_the_ends_of_the_float_range(m, c):
    for f in KERNELS.values():
        a, b = float(f(m)), float(f(m * c))
        assert b == pytest.approx(a, rel=1e-12, nan_ok=True)


def test_counts_up_to_2_53_lose_nothing():
    """A rare label among 2**53 cases: n² − Σ p_k² computed as a difference would lose every digit."""
    big = 2**53
    m = np.array([[big - 8, 2], [3, 3]], dtype=np.int64)
    # MCC by hand in exact rational arithmetic
    tp, fn, fp, tn = (Fraction(int(v)) for v in (m[1, 1], m[1, 0], m[0, 1], m[0, 0]))
    num = tp * tn - fp * fn
    den2 = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
    exact = float(num / den2.sqrt()) if hasattr(den2, "sqrt") else float(num) / float(den2) ** 0.5
    assert float(KERNELS["mcc"](m)) == pytest.approx(exact, rel=1e-12)
    for c in (1e-300, 1e290):  # 2**53 · 1e300 is beyond the float range
        for f in KERNELS.values():
            assert float(f(m * c)) == pytest.approx(float(f(m)), rel=1e-12, nan_ok=True)
    # kappa by hand: p_o and p_e from exact fractions
    n = tp + fn + fp + tn
    p_o = (tp + tn) / n
    p_e = ((tp + fn) * (tp + fp) + (tn + fp) * (tn + fn)) / n**2
    assert float(KERNELS["kappa"](m)) == pytest.approx(float((p_o - p_e) / (1 - p_e)), rel=1e-9)


def test_scaled_totals_is_a_power_of_two():
    t = _totals(np.array([[[3.0, 1e300], [0.0, 7.0]], [[0.0, 0.0], [0.0, 0.0]]]))
    s = tt.scaled_totals(t)
    ratio = (
        np.concatenate([t.tp[0], t.fp[0]])[np.concatenate([t.tp[0], t.fp[0]]) > 0]
        / np.concatenate([s.tp[0], s.fp[0]])[np.concatenate([t.tp[0], t.fp[0]]) > 0]
    )
    assert np.all(ratio == ratio[0]) and np.frexp(ratio[0])[0] == 0.5  # one power of two
    assert 0.5 <= s.n[0] < 1 and s.n[1] == 0 and (s.tp[1] == 0).all()
