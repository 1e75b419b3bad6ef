"""fold_ranking: per-fold and merged ROC AUC and average precision from one sort, against scikit-learn, and the
counting path (no weights) against the weighted path with unit weights (the float sums of :func:`_segments`)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

from apples._kernels.ranking import fold_ranking


def _data(seed: int, n: int, ties: str, n_folds: int):
    rng = np.random.default_rng(seed)
    positive = rng.random(n) < 0.2
    scores = {
        "none": rng.standard_normal(n) + positive,
        "float32": (rng.standard_normal(n) + positive).astype(np.float32).astype(np.float64),
        "few": rng.integers(0, 4, n).astype(np.float64),
        "int": rng.integers(-5, 5, n),
    }[ties]
    fold = rng.integers(0, n_folds, n)
    return positive, scores, fold


@pytest.mark.parametrize("ties", ["none", "float32", "few", "int"])
@pytest.mark.parametrize("n_folds", [1, 5, 300])
def test_fold_ranking_equals_scikit_learn_and_the_weighted_sums(ties, n_folds):
    positive, scores, fold = _data(n_folds, 3000, ties, n_folds)
    other = np.random.default_rng(1).random(scores.size) < 0.5
    r = fold_ranking(positive, scores, fold, n_folds + 2, other=other)  # two empty folds at the end
    assert r.auc_merge == pytest.approx(roc_auc_score(positive, scores), abs=1e-12)
    assert r.ap_merge == pytest.approx(average_precision_score(positive, scores), abs=1e-12)
    assert r.other_auc_merge == pytest.approx(roc_auc_score(other, scores), abs=1e-12)
    for k in range(n_folds + 2):
        m = fold == k
        if positive[m].any() and not positive[m].all():
            assert r.auc[k] == pytest.approx(roc_auc_score(positive[m], scores[m]), abs=1e-12)
            assert r.ap[k] == pytest.approx(average_precision_score(positive[m], scores[m]), abs=1e-12)
        else:
            assert np.isnan(r.auc[k])
            assert np.isnan(r.ap[k]) == (not positive[m].any())
    w = fold_ranking(positive, scores, fold, n_folds + 2, weights=np.ones(scores.size), other=other)
    # integer counts summed exactly in both: the same floats, bit for bit
    assert r.auc.tobytes() == w.auc.tobytes() and r.ap.tobytes() == w.ap.tobytes()
    assert (r.auc_merge, r.ap_merge, r.other_auc_merge) == (w.auc_merge, w.ap_merge, w.other_auc_merge)


def test_fold_ranking_of_one_class_and_one_case():
    r = fold_ranking(np.array([True, True]), np.array([0.1, 0.2]), np.array([0, 1]), 2)
    assert np.isnan(r.auc_merge) and r.ap_merge == 1.0 and np.isnan(r.auc).all() and r.ap.tolist() == [1.0, 1.0]
    r = fold_ranking(np.array([False, True]), np.array([0.3, 0.3]), np.array([0, 0]), 1)
    assert r.auc_merge == 0.5 and r.ap_merge == 0.5  # one tie: half a pair, precision 1/2 at the only threshold


def test_a_zero_weight_tie_group_at_the_top_adds_nothing_to_average_precision():
    """The top score's only case weighs 0: its precision is 0/0, and scikit-learn's AP (which drops the case) is
    the same as with the case left in (it adds no positive weight)."""
    positive = np.array([False, True, False, True, True, False])
    scores = np.array([0.9, 0.8, 0.7, 0.6, 0.4, 0.2])
    weights = np.array([0.0, 1.0, 2.0, 0.5, 1.0, 1.0])
    r = fold_ranking(positive, scores, np.zeros(6, dtype=np.intp), 1, weights=weights)
    keep = weights > 0
    expected = average_precision_score(positive[keep], scores[keep], sample_weight=weights[keep])
    assert r.ap[0] == pytest.approx(expected, rel=1e-12) and r.ap_merge == pytest.approx(expected, rel=1e-12)
    assert r.auc[0] == pytest.approx(roc_auc_score(positive, scores, sample_weight=weights), rel=1e-12)


# -- H per fold and merged (h_prior=), leave-one-fold-out values (jackknife=True), weights at the extremes -----------
_R = 0.5  # the PyPI hmeasure's severity ratio r: the prior Beta(2, 1 + 1/r)
_PRIOR = (2.0, 1.0 + 1.0 / _R)


def _unit(scores: np.ndarray) -> np.ndarray:
    """Scores mapped into [0, 1] by their dense rank (the PyPI hmeasure needs [0, 1]; H depends on the order)."""
    ranks = np.unique(scores, return_inverse=True)[1].reshape(-1)
    return ranks / max(1, ranks.max())


def _h(y: np.ndarray, s: np.ndarray) -> float:
    from hmeasure import h_score

    if y.all() or not y.any():
        return float("nan")
    return float(h_score(y.astype(int), _unit(s), severity_ratio=_R))


def _with_both(fn, y, s) -> float:
    return fn(y, s) if y.any() and not y.all() else float("nan")


def _ap(y, s) -> float:
    return average_precision_score(y, s) if y.any() else float("nan")


def _check_against_libraries(r, y, s, fold, k, *, jackknife=True) -> None:
    """Per-fold and merged H against hmeasure.h_score; every *_without against the libraries on the rest."""
    assert r.h_merge == pytest.approx(_h(y, s), abs=1e-12, nan_ok=True)
    for f in range(k):
        m = fold == f
        assert r.h[f] == pytest.approx(_h(y[m], s[m]), abs=1e-12, nan_ok=True), f
        if not jackknife:
            continue
        rest = ~m
        assert r.auc_merge_without[f] == pytest.approx(
            _with_both(roc_auc_score, y[rest], s[rest]), rel=1e-12, nan_ok=True
        )
        assert r.ap_merge_without[f] == pytest.approx(_ap(y[rest], s[rest]), rel=1e-12, nan_ok=True)
        assert r.h_merge_without[f] == pytest.approx(_h(y[rest], s[rest]), abs=1e-12, nan_ok=True)


@pytest.mark.parametrize("ties", ["none", "float32", "few", "int"])
@pytest.mark.parametrize("n_folds", [1, 3, 7])
def test_h_and_leave_one_fold_out_values_equal_the_libraries(ties, n_folds):
    positive, scores, fold = _data(10 * n_folds + len(ties), 400, ties, n_folds)
    r = fold_ranking(positive, scores, fold, n_folds, h_prior=_PRIOR, jackknife=True)
    _check_against_libraries(r, positive, scores, fold, n_folds)


@pytest.mark.parametrize(
    "case", ["one_class_fold", "empty_fold", "perfect", "reversed", "all_tied", "float16", "big_int", "one_fold_all"]
)
def test_h_and_leave_one_fold_out_on_adversarial_data(case):
    rng = np.random.default_rng(7)
    n, k = 120, 4
    y = rng.random(n) < 0.4
    s = rng.standard_normal(n) + y
    fold = rng.integers(0, k, n)
    if case == "one_class_fold":
        y[fold == 1] = True  # fold 1 has positives only: its H and AUC are NaN
    elif case == "empty_fold":
        fold[fold == 2] = 0  # fold 2 has no case: its values NaN, the merge without it the full merge
    elif case == "perfect":
        s = y + rng.random(n) * 0.5
    elif case == "reversed":
        s = -(y + rng.random(n) * 0.5)
    elif case == "all_tied":
        s = np.zeros(n)
    elif case == "float16":
        s = (rng.standard_normal(n) + y).astype(np.float16).astype(np.float64)  # few distinct values: ties
    elif case == "big_int":
        s = (2**60 + rng.integers(0, 5, n) * 2**8 + y).astype(np.int64)  # above 2**53: float64 would tie them
    elif case == "one_fold_all":
        fold[:] = 3  # every case in fold 3: without it nothing is left
    r = fold_ranking(y, s, fold, k, h_prior=_PRIOR, jackknife=True)
    _check_against_libraries(r, y, s, fold, k)
    if case == "one_class_fold":
        assert np.isnan(r.h[1]) and np.isnan(r.auc[1])
    if case == "empty_fold":
        assert np.isnan(r.h[2]) and r.auc_merge_without[2] == r.auc_merge and r.h_merge_without[2] == r.h_merge
    if case == "one_fold_all":
        assert np.isnan(r.auc_merge_without[3]) and np.isnan(r.ap_merge_without[3])


def test_options_leave_the_other_fields_bit_for_bit_unchanged():
    positive, scores, fold = _data(3, 2000, "few", 5)
    for weights in (None, np.random.default_rng(4).random(scores.size)):
        plain = fold_ranking(positive, scores, fold, 5, weights=weights, other=positive)
        full = fold_ranking(positive, scores, fold, 5, weights=weights, other=positive, h_prior=_PRIOR, jackknife=True)
        for name in ("auc", "ap", "auc_merge", "ap_merge", "other_auc_merge"):
            assert np.asarray(getattr(plain, name)).tobytes() == np.asarray(getattr(full, name)).tobytes(), name
        assert plain.h is None and plain.auc_merge_without is None and np.isnan(plain.h_merge)
        assert full.h_merge_without is not None


def test_weighted_values_equal_repeated_rows():
    rng = np.random.default_rng(11)
    n, k = 150, 4
    y = rng.random(n) < 0.35
    s = np.round(rng.standard_normal(n) + y, 1)
    fold = rng.integers(0, k, n)
    w = rng.integers(0, 4, n)
    rows = np.repeat(np.arange(n), w)
    weighted = fold_ranking(y, s, fold, k, weights=w.astype(float), h_prior=_PRIOR, jackknife=True)
    repeated = fold_ranking(y[rows], s[rows], fold[rows], k, h_prior=_PRIOR, jackknife=True)
    for name in ("auc", "ap", "h", "auc_merge_without", "ap_merge_without", "h_merge_without"):
        np.testing.assert_allclose(getattr(weighted, name), getattr(repeated, name), rtol=1e-12, err_msg=name)
    for name in ("auc_merge", "ap_merge", "h_merge"):
        assert getattr(weighted, name) == pytest.approx(getattr(repeated, name), rel=1e-12)
    _check_against_libraries(weighted, y[rows], s[rows], fold[rows], k)


def _assert_same(a, b, rel=1e-12):
    for name in ("auc", "ap", "h", "auc_merge_without", "ap_merge_without", "h_merge_without"):
        np.testing.assert_allclose(getattr(a, name), getattr(b, name), rtol=rel, atol=0, err_msg=name)
    for name in ("auc_merge", "ap_merge", "h_merge"):
        assert getattr(a, name) == pytest.approx(getattr(b, name), rel=rel, nan_ok=True), name


@pytest.mark.parametrize("scale", [1e-300, 1e300, 2.0**-1000, 2.0**1000])
def test_weights_times_any_scale_give_the_same_values(scale):
    """Before the power-of-two scaling, weights x 1e-300 made n_pos · n_neg underflow to 0 (a NaN AUC)."""
    rng = np.random.default_rng(5)
    n, k = 300, 3
    y = rng.random(n) < 0.3
    s = np.round(rng.random(n) + 0.4 * y, 2)
    fold = rng.integers(0, k, n)
    w = rng.random(n) * 5
    base = fold_ranking(y, s, fold, k, weights=w, h_prior=_PRIOR, jackknife=True)
    scaled = fold_ranking(y, s, fold, k, weights=w * scale, h_prior=_PRIOR, jackknife=True)
    _assert_same(scaled, base)
    assert base.auc_merge == pytest.approx(roc_auc_score(y, s, sample_weight=w), rel=1e-12)
    assert base.ap_merge == pytest.approx(average_precision_score(y, s, sample_weight=w), rel=1e-12)


@pytest.mark.parametrize("value", [5e-324, 1e308, 1e-310, 3.0])
def test_equal_weights_at_the_float_limits_give_the_unweighted_values(value):
    positive, scores, fold = _data(8, 500, "few", 4)
    plain = fold_ranking(positive, scores, fold, 4, h_prior=_PRIOR, jackknife=True)
    w = np.full(scores.size, value)
    weighted = fold_ranking(positive, scores, fold, 4, weights=w, h_prior=_PRIOR, jackknife=True)
    _assert_same(weighted, plain)


def test_scaled_weights_is_exact_and_keeps_zeros():
    from apples._kernels.ranking import scaled_weights

    w = np.array([3.0, 0.0, 1e-5, 6.0])
    out = scaled_weights(w)
    assert out.max() == 0.75 and out[1] == 0.0 and (out * 8 == w).all()  # 6 = 0.75 · 2**3
    assert scaled_weights(np.zeros(3)).tolist() == [0.0, 0.0, 0.0]
    assert scaled_weights(np.full(2, 5e-324)).tolist() == [0.5, 0.5]
