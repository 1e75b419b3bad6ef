"""Tests for apples.roc: ROC/AUC/AP/precision@k and their cross-validated forms.

Independent sources: scikit-learn (roc_curve, roc_auc_score,
average_precision_score), scipy's Mann–Whitney U, brute force over every
ordering of tied scores, and hand calculations.
"""

from itertools import permutations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import mannwhitneyu
from sklearn import metrics as skm

import apples
from apples import UndefinedMetricError
from apples.cv.ranking import cv_ranking_score, cv_roc_auc
from apples.metrics.ranking import average_precision, precision_at_k, roc_auc, roc_curve


# -- strategies ------------------------------------------------------------------------------------
@st.composite
def binary_scores(draw, min_size=2, max_size=60, n_levels=None):
    """Labels with both classes and scores; few score levels force heavy ties."""
    n = draw(st.integers(min_size, max_size))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    y[0], y[1] = 1, 0  # both classes present
    levels = n_levels if n_levels is not None else draw(st.sampled_from([2, 3, 5, 1000]))
    s = np.array(draw(st.lists(st.integers(0, levels - 1), min_size=n, max_size=n)), dtype=float)
    s = s / 137.0 - 0.3  # non-integer values, still exactly tied where equal
    return y, s


# -- cross-checks against scikit-learn and scipy --------------------------------------------------
@settings(max_examples=100)
@given(binary_scores())
def test_auc_matches_sklearn_with_ties(data):
    y, s = data
    assert roc_auc(y, s) == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)


@given(binary_scores())
def test_auc_is_mann_whitney_u(data):
    y, s = data
    u = mannwhitneyu(s[y == 1], s[y == 0]).statistic  # ties count 1/2
    assert roc_auc(y, s) == pytest.approx(u / ((y == 1).sum() * (y == 0).sum()), abs=1e-12)


@given(binary_scores())
def test_roc_curve_matches_sklearn(data):
    y, s = data
    fpr, tpr, thr = roc_curve(y, s)
    fpr_sk, tpr_sk, thr_sk = skm.roc_curve(y, s, drop_intermediate=False)
    np.testing.assert_allclose(fpr, fpr_sk, atol=1e-15)
    np.testing.assert_allclose(tpr, tpr_sk, atol=1e-15)
    np.testing.assert_array_equal(thr, thr_sk)
    assert np.trapezoid(tpr, fpr) == pytest.approx(roc_auc(y, s), abs=1e-12)


@given(binary_scores())
def test_average_precision_matches_sklearn(data):
    y, s = data
    assert average_precision(y, s) == pytest.approx(skm.average_precision_score(y, s), abs=1e-12)


def test_adversarial_large_ties_and_tiny_differences():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 5000)
    s = np.where(rng.random(5000) < 0.5, 0.5, 0.5 + rng.integers(-2, 3, 5000) * 1e-12)
    assert roc_auc(y, s) == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
    assert average_precision(y, s) == pytest.approx(skm.average_precision_score(y, s), abs=1e-12)
    all_tied = np.full(5000, 2.0)
    assert roc_auc(y, all_tied) == 0.5  # one diagonal step


def test_hand_calculations():
    # positives 3, 2, 2; negatives 2, 1: pairs 3>2, 3>1, 2=2 (1/2), 2>1, 2=2 (1/2), 2>1 -> 5/6
    assert roc_auc([1, 1, 1, 0, 0], [3, 2, 2, 2, 1]) == pytest.approx(5 / 6, abs=1e-15)
    # AP: thresholds 3 (R 1/3, P 1), 2 (R 1, P 3/4), 1 -> 1/3 + 2/3 * 3/4 = 5/6
    assert average_precision([1, 1, 1, 0, 0], [3, 2, 2, 2, 1]) == pytest.approx(5 / 6, abs=1e-15)
    assert roc_auc(["b", "a", "b"], [1, 2, 3], pos_label="b") == 0.5
    assert average_precision([0, 0, 1], [1, 1, 1]) == pytest.approx(1 / 3)


# -- properties --------------------------------------------------------------------------------------
TRANSFORMS = [np.exp, lambda x: x**3, lambda x: 100.0 * x - 7.0, np.arctan, lambda x: np.exp(5 * x) + x]


@given(binary_scores(n_levels=1000), st.sampled_from(range(len(TRANSFORMS))))
def test_auc_invariant_to_increasing_transform(data, i):
    y, s = data
    assert roc_auc(y, TRANSFORMS[i](s)) == roc_auc(y, s)


@given(binary_scores())
def test_auc_of_negated_scores(data):
    y, s = data
    assert roc_auc(y, -s) == pytest.approx(1.0 - roc_auc(y, s), abs=1e-12)
    # swapping the classes is the same reflection
    assert roc_auc(1 - y, s) == pytest.approx(1.0 - roc_auc(y, s), abs=1e-12)


def flat(ys, ss):
    """Per-fold lists laid out flat: labels, scores and the fold id (0, 1, ...) of each case."""
    folds = np.concatenate([np.full(len(y), i) for i, y in enumerate(ys)])
    return np.concatenate([np.asarray(y) for y in ys]), np.concatenate([np.asarray(v, dtype=float) for v in ss]), folds


def cv_auc(ys, ss, **kw):
    y, s, f = flat(ys, ss)
    return cv_roc_auc(y, s, folds=f, **kw)


def cv_rank(ys, ss, **kw):
    y, s, f = flat(ys, ss)
    return cv_ranking_score(y, s, folds=f, **kw)


@given(st.lists(binary_scores(min_size=4, max_size=25, n_levels=1000), min_size=2, max_size=5))
def test_auc_avg_invariant_to_per_fold_transforms(folds):
    ys = [y for y, _ in folds]
    ss = [s for _, s in folds]
    moved = [TRANSFORMS[i % len(TRANSFORMS)](s) for i, s in enumerate(ss)]
    assert cv_auc(ys, moved, method="avg") == pytest.approx(cv_auc(ys, ss, method="avg"), abs=1e-12)
    # the same transform in every fold leaves the merged AUC alone too
    same = [np.exp(s) for s in ss]
    assert cv_auc(ys, same, method="merge") == cv_auc(ys, ss, method="merge")


def test_auc_merge_not_invariant_to_per_fold_transforms():
    # each fold ranks perfectly; fold 2 is shifted below fold 1 by a per-fold transform
    ys = [[1, 0, 0], [1, 0, 0]]
    ss = [np.array([0.9, 0.5, 0.1]), np.array([0.8, 0.4, 0.2])]
    assert cv_auc(ys, ss, method="merge") == 1.0
    moved = [ss[0], ss[1] - 1.0]  # fold-2 positive now below both fold-1 negatives: 6 of 8 pairs
    assert cv_auc(ys, moved, method="avg") == 1.0
    assert cv_auc(ys, moved, method="merge") == 0.75


@settings(max_examples=60)
@given(st.lists(binary_scores(min_size=4, max_size=20), min_size=1, max_size=4))
def test_cv_merge_is_metric_of_concatenation(folds):
    ys = [y for y, _ in folds]
    ss = [s for _, s in folds]
    y, s = np.concatenate(ys), np.concatenate(ss)
    assert cv_auc(ys, ss, method="merge") == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
    assert cv_rank(ys, ss, metric="average_precision", method="merge") == pytest.approx(
        skm.average_precision_score(y, s), abs=1e-12
    )
    per_fold = [skm.average_precision_score(a, b) for a, b in folds]
    assert cv_rank(ys, ss, metric="average_precision", method="avg") == pytest.approx(np.mean(per_fold), abs=1e-12)


def test_single_fold_avg_equals_merge():
    y, s = [1, 0, 1, 0, 0], [0.2, 0.1, 0.9, 0.3, 0.3]
    # by hand: positive 0.9 beats the three negatives, 0.2 beats 0.1 only -> 4 of 6 pairs
    assert cv_auc([y], [s], method="avg") == cv_auc([y], [s], method="merge") == roc_auc(y, s) == pytest.approx(4 / 6)


# -- precision at k ------------------------------------------------------------------------------------
def _orderings_top_k(y, s, k):
    """Precision at k for every ordering of the cases that sorts the scores decreasingly."""
    out = []
    for perm in permutations(range(len(y))):
        ss = s[list(perm)]
        if np.all(np.diff(ss) <= 0):
            out.append(y[list(perm)][:k].mean())
    return np.array(out)


@settings(max_examples=100)
@given(
    st.integers(1, 6).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(0, 1), min_size=n, max_size=n),
            st.lists(st.integers(0, 2), min_size=n, max_size=n),
            st.integers(1, n),
        )
    )
)
def test_precision_at_k_tie_rules_against_all_orderings(data):
    y, s, k = np.array(data[0]), np.array(data[1], dtype=float), data[2]
    values = _orderings_top_k(y, s, k)
    assert precision_at_k(y, s, k=k) == pytest.approx(values.mean(), abs=1e-12)
    assert precision_at_k(y, s, k=k, ties="pessimistic") == pytest.approx(values.min(), abs=1e-12)
    assert precision_at_k(y, s, k=k, ties="optimistic") == pytest.approx(values.max(), abs=1e-12)


@given(binary_scores(n_levels=1000), st.integers(1, 60))
def test_precision_at_k_without_straddling_tie(data, k):
    y, s = data
    k = min(k, len(y))
    order = np.argsort(-s, kind="stable")
    if k < len(y) and s[order[k - 1]] == s[order[k]]:
        return  # a tie straddles k: covered by the all-orderings test
    expected = y[order[:k]].mean()
    for ties in apples.metrics.PRECISION_AT_K_TIES:
        assert precision_at_k(y, s, k=k, ties=ties) == pytest.approx(expected, abs=1e-15)


def test_precision_at_k_hand_and_defined_without_positives():
    # top 20 of 25 with 15 positives among the first 20
    y = np.r_[np.ones(15), np.zeros(10)]
    s = np.r_[np.linspace(10, 5, 15), np.r_[np.linspace(4.9, 4.5, 5), np.linspace(1, 0, 5)]]
    assert precision_at_k(y, s, k=20) == 0.75
    assert precision_at_k([0, 0, 0], [1, 2, 3], k=2) == 0.0
    assert precision_at_k([1, 1], [1, 2], k=2) == 1.0


# -- undefined values: each policy ---------------------------------------------------------------------
def test_auc_undefined_policies():
    with pytest.raises(UndefinedMetricError, match="only one class"):
        roc_auc([1, 1, 1], [0.1, 0.2, 0.3])
    assert np.isnan(roc_auc([0, 0], [0.1, 0.2], undefined="nan"))
    with pytest.raises(ValueError, match="undefined='zero'"):
        roc_auc([0, 0], [0.1, 0.2], undefined="zero")
    with pytest.raises(ValueError, match="only one class"):
        roc_curve([0, 0], [0.1, 0.2])


def test_average_precision_undefined_policies():
    with pytest.raises(UndefinedMetricError, match="no positives"):
        average_precision([0, 0], [0.1, 0.2])
    assert np.isnan(average_precision([0, 0], [0.1, 0.2], undefined="nan"))
    assert average_precision([1, 1], [0.1, 0.2]) == 1.0  # no negatives: defined


FOLDS_Y = [[1, 0, 0], [0, 0, 0], [1, 1, 0]]
FOLDS_S = [[0.9, 0.5, 0.1], [0.4, 0.3, 0.2], [0.8, 0.1, 0.3]]


def test_cv_auc_undefined_raise_names_the_fold():
    with pytest.raises(UndefinedMetricError, match=r"^fold 1: AUC is undefined"):  # fold ids 0, 1, 2
        cv_auc(FOLDS_Y, FOLDS_S, method="avg")


def test_cv_auc_undefined_nan_and_skip():
    assert np.isnan(cv_auc(FOLDS_Y, FOLDS_S, method="avg", undefined="nan"))
    # folds 0 and 2 have AUC 1 and 1/2 by hand
    assert cv_auc(FOLDS_Y, FOLDS_S, method="avg", undefined="skip") == 0.75
    # every fold left out: nothing to average, NaN (as cv_f_measure's skip)
    assert np.isnan(cv_auc([[0, 0], [1, 1]], [[1, 2], [3, 4]], method="avg", undefined="skip"))


def test_cv_auc_merge_undefined_only_when_pooled_has_one_class():
    # fold 1 has one class, but the pooled scores have both: merge is defined
    pooled_y = np.concatenate(FOLDS_Y)
    pooled_s = np.concatenate(FOLDS_S)
    assert cv_auc(FOLDS_Y, FOLDS_S, method="merge") == pytest.approx(skm.roc_auc_score(pooled_y, pooled_s))
    with pytest.raises(UndefinedMetricError, match="merged"):
        cv_auc([[0, 0], [0]], [[1, 2], [3]], method="merge", undefined="raise")
    # "skip" leaves folds out of a per-fold average; merge pools first (one rule with F_tp,fp)
    with pytest.raises(ValueError, match=r"^undefined='skip' leaves undefined folds out") as err:
        cv_auc([[0, 1], [0]], [[1, 2], [3]], method="merge", undefined="skip")
    assert err.value.param == "undefined"
    assert np.isnan(cv_auc([[0, 0], [0]], [[1, 2], [3]], method="merge", undefined="nan"))


def test_cv_average_precision_undefined_fold():
    ys, ss = [[1, 0], [0, 0]], [[0.9, 0.1], [0.3, 0.2]]
    with pytest.raises(UndefinedMetricError, match=r"^fold 1: average precision is undefined"):
        cv_rank(ys, ss, metric="average_precision", method="avg")
    assert cv_rank(ys, ss, metric="average_precision", method="avg", undefined="skip") == 1.0


def test_cv_ranking_score_precision_at_k_and_auc():
    ys = [[1, 0, 0, 1], [0, 1, 0, 0]]
    ss = [[4, 3, 2, 1], [0.4, 0.3, 0.2, 0.1]]
    # per fold P@1: 1 and 0 -> 0.5; merged P@2: top two are 4 (pos), 3 (neg)
    assert cv_rank(ys, ss, metric="precision_at_k", k=1, method="avg") == 0.5
    assert cv_rank(ys, ss, metric="precision_at_k", k=2, method="merge") == 0.5
    # per fold AUC by hand: fold 1 positives 4, 1 vs negatives 3, 2 -> 2/4; fold 2 positive 0.3 beats 0.2, 0.1 -> 2/3
    assert cv_rank(ys, ss, metric="roc_auc", method="avg") == cv_auc(ys, ss, method="avg") == pytest.approx(7 / 12)


# -- bad input -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("func", [roc_curve, roc_auc, average_precision])
def test_bad_input_rejected(func):
    with pytest.raises(ValueError, match="inconsistent lengths"):
        func([1, 0], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="y_score contains NaN"):
        func([1, 0], [0.1, np.nan])
    with pytest.raises(ValueError, match="infinite"):
        func([1, 0], [0.1, np.inf])
    with pytest.raises(ValueError, match="two classes"):
        func([1, 0, 2], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="empty"):
        func([], [])
    with pytest.raises(ValueError, match="pos_label=2"):
        func([1, 0], [0.1, 0.2], pos_label=2)
    with pytest.raises(TypeError, match="y_score must be numeric"):
        func([1, 0], ["a", "b"])


def test_precision_at_k_bad_k_and_ties():
    for k in (0, 4, -1):
        with pytest.raises(ValueError, match=f"k={k} must lie in"):
            precision_at_k([1, 0, 1], [3, 2, 1], k=k)
    for k in (1.0, True, "2"):
        with pytest.raises(TypeError, match="k must be a positive integer"):
            precision_at_k([1, 0, 1], [3, 2, 1], k=k)
    with pytest.raises(ValueError, match="ties='random'"):
        precision_at_k([1, 0, 1], [3, 2, 1], k=1, ties="random")


def test_cv_bad_arguments():
    y, s, f = [1, 0, 1, 0], [0.9, 0.1, 0.8, 0.2], [0, 0, 1, 1]
    with pytest.raises(ValueError, match="method='mean'"):
        cv_roc_auc(y, s, folds=f, method="mean")
    with pytest.raises(ValueError, match="undefined='zero'"):
        cv_roc_auc(y, s, folds=f, method="avg", undefined="zero")
    with pytest.raises(ValueError, match="metric='f1'"):
        cv_ranking_score(y, s, folds=f, metric="f1", method="avg")
    with pytest.raises(ValueError, match="metric=3"):  # a callable metric is not taken: the measures are named
        cv_ranking_score(y, s, folds=f, metric=3, method="avg")
    with pytest.raises(ValueError, match=r"^k is the cut-off"):
        cv_ranking_score(y, s, folds=f, metric="roc_auc", method="avg", k=2)
    with pytest.raises(ValueError, match="inconsistent lengths: y_true has 4, y_score has 4, folds has 3"):
        cv_roc_auc(y, s, folds=f[:3], method="avg")
    with pytest.raises(ValueError, match="empty"):
        cv_roc_auc([], [], folds=[], method="avg")
    with pytest.raises(ValueError, match=r"^y_score contains NaN at position 0"):
        cv_roc_auc(y, [np.nan, 0.1, 0.8, 0.2], folds=f, method="avg")
    with pytest.raises(ValueError, match=r"^folds contains a missing value"):
        cv_roc_auc(y, s, folds=[0, None, 1, 1], method="avg")
    with pytest.raises(ValueError, match=r"^folds must be one-dimensional"):  # the old per-fold lists
        cv_roc_auc(y, s, folds=[[0, 0], [1, 1]], method="avg")
    with pytest.raises(TypeError, match="folds"):  # a required keyword
        cv_roc_auc(y, s, method="avg")


def test_exported():
    for name in ("roc_curve", "roc_auc", "average_precision", "precision_at_k"):
        assert getattr(apples, name) is getattr(apples.metrics.ranking, name)
    for name in ("cv_roc_auc", "cv_ranking_score"):
        assert getattr(apples, name) is getattr(apples.cv.ranking, name)


def test_roc_curve_is_a_named_tuple_that_unpacks_like_scikit_learns():
    from apples.metrics import ROCCurve

    curve = roc_curve([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1])
    assert isinstance(curve, ROCCurve) and curve._fields == ("fpr", "tpr", "thresholds")
    fpr, tpr, thr = curve
    assert fpr is curve.fpr and tpr is curve.tpr and thr is curve.thresholds


@pytest.mark.parametrize("seed", range(5))
def test_fold_ranking_kernel_equals_the_per_fold_and_merged_measures(seed):
    from apples._kernels.ranking import ap_from_counts, auc_from_counts, cumulative_counts, fold_ranking

    rng = np.random.default_rng(seed)
    n, k = 300, 7
    y = rng.random(n) < 0.3
    s = np.round(rng.normal(size=n) + y, 1)  # ties within and across folds
    fold = rng.integers(0, k, n)
    fold[0] = k - 1  # every fold present
    r = fold_ranking(y, s, fold, k)
    for f in range(k):
        c = cumulative_counts(y[fold == f], s[fold == f])
        np.testing.assert_allclose(r.auc[f], auc_from_counts(c), rtol=1e-12)
        np.testing.assert_allclose(r.ap[f], ap_from_counts(c), rtol=1e-12)
    assert r.auc_merge == pytest.approx(roc_auc(y, s, pos_label=True), rel=1e-12)
    assert r.ap_merge == pytest.approx(average_precision(y, s, pos_label=True), rel=1e-12)
