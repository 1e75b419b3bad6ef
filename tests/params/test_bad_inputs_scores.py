"""Bad and edge input on the score-based (ranking) side: one regression test per fix.

Expected values come from scikit-learn (roc_auc_score, roc_curve, average_precision_score,
fbeta_score), hand calculations written next to them, or invariances that a wrong answer breaks
(a ranking measure depends only on the order of the scores: integer scores above 2**53 must give
what their ranks give, which the float collapse into ties did not). Never from apples' own output
on the same input.
"""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest
from sklearn import metrics as skm

import apples
from apples import (
    UndefinedMetricError,
    auk,
    average_precision,
    cv_ranking_score,
    cv_roc_auc,
    h_measure,
    ks_statistic,
    max_f1,
    max_mcc,
    min_error_rate,
    precision_at_k,
    r_precision,
    roc_auc,
    roc_curve,
)
from apples._params import check_real_array, rng_from_seed
from apples.metrics import (
    empirical_cost_intervals,
    empirical_hand_loss,
    empirical_loss,
    empirical_optimal_threshold,
    empirical_uniform_threshold_loss,
    gini,
    h_measure_details,
    h_measure_prior,
    kappa_curve,
    roc_convex_hull,
    uniform_threshold_loss_draws,
)
from apples.studies import forman_scholz as fs
from apples.studies import parker as pk
from apples.theory import Binormal

APPLES_DIR = os.path.dirname(apples.__file__)

#: every public function that ranks (y_true, y_score) with a positive label, with extra arguments
RANKING = {
    "roc_curve": (roc_curve, {}),
    "roc_auc": (roc_auc, {}),
    "average_precision": (average_precision, {}),
    "precision_at_k": (precision_at_k, {"k": 2}),
    "kappa_curve": (kappa_curve, {}),
    "auk": (auk, {}),
    "max_f1": (max_f1, {}),
    "max_mcc": (max_mcc, {}),
    "min_error_rate": (min_error_rate, {}),
    "r_precision": (r_precision, {}),
    "gini": (gini, {}),
    "ks_statistic": (ks_statistic, {}),
    "h_measure": (h_measure, {}),
    "h_measure_details": (h_measure_details, {}),
    "roc_convex_hull": (roc_convex_hull, {}),
    "empirical_hand_loss": (empirical_hand_loss, {}),
    "empirical_cost_intervals": (empirical_cost_intervals, {}),
    "empirical_loss": (lambda y, s, **kw: empirical_loss(y, s, 0.3, **kw), {}),
    "empirical_optimal_threshold": (lambda y, s, **kw: empirical_optimal_threshold(y, s, 0.3, **kw), {}),
    "empirical_uniform_threshold_loss": (empirical_uniform_threshold_loss, {}),
    "uniform_threshold_loss_draws": (lambda y, s, **kw: uniform_threshold_loss_draws(y, s, 5, seed=0, **kw), {}),
}

#: the ones that accept a single class (no positives) and say so themselves
ONE_CLASS_OK = ("roc_auc", "average_precision", "precision_at_k")


def _raised_by_apples(excinfo) -> bool:
    """The exception was raised in apples' own code, not deep inside numpy or the standard library."""
    return os.path.dirname(str(excinfo.traceback[-1].path)).startswith(APPLES_DIR)


def _values(result):
    """A flat list of floats of any result (float, NamedTuple of arrays, tuple of arrays)."""
    if isinstance(result, tuple):
        return [v for part in result for v in _values(part)]
    if isinstance(result, np.ndarray):
        return result.astype(float).ravel().tolist()
    if isinstance(result, (bool, np.bool_)):
        return [float(result)]
    return [float(result)]


def _same(a, b) -> bool:
    a, b = np.asarray(_values(a)), np.asarray(_values(b))
    return a.shape == b.shape and bool(np.all((a == b) | (np.isnan(a) & np.isnan(b))))


# ----------------------------------------------------------------------------------------------------
# Integer scores above 2**53: ranked exactly, never converted to float
# ----------------------------------------------------------------------------------------------------
def test_integer_scores_above_2_53_are_not_merged_into_ties():
    # float64 rounds 2**53 + 1 to 2**53: the old code saw a tie and answered 0.5
    s = np.array([2**53 + 1, 2**53])
    assert roc_auc([1, 0], s) == skm.roc_auc_score([1, 0], s) == 1.0
    fpr, tpr, thr = roc_curve([1, 0], s)
    fpr_sk, tpr_sk, thr_sk = skm.roc_curve([1, 0], s, drop_intermediate=False)
    assert len(thr) == len(thr_sk) == 3  # inf and two distinct scores (the collapse gave 2)
    assert fpr.tolist() == fpr_sk.tolist() == [0.0, 0.0, 1.0]
    assert tpr.tolist() == tpr_sk.tolist() == [0.0, 1.0, 1.0]
    assert average_precision([1, 0], s) == skm.average_precision_score([1, 0], s) == 1.0


@pytest.mark.parametrize("dtype, base", [(np.int64, 2**60), (np.int64, -(2**62)), (np.uint64, 2**63 + 2**62)])
def test_integer_scores_match_scikit_learn_where_floats_would_tie(dtype, base):
    # steps of 1 at 2**60 (float spacing 256): float64 would merge every group of ~256 scores
    rng = np.random.default_rng(53)
    y = rng.integers(0, 2, 400)
    y[:2] = [0, 1]
    offsets = rng.integers(0, 300, 400)
    s = (np.array(base, dtype=dtype) + offsets.astype(dtype)).astype(dtype)
    assert np.unique(s.astype(float)).size < np.unique(s).size  # the collapse is real here
    assert roc_auc(y, s) == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
    assert roc_auc(y, s) == pytest.approx(skm.roc_auc_score(y, offsets), abs=1e-12)
    assert average_precision(y, s) == pytest.approx(skm.average_precision_score(y, s), abs=1e-12)
    fpr, tpr, thr = roc_curve(y, s)
    fpr_sk, tpr_sk, thr_sk = skm.roc_curve(y, s, drop_intermediate=False)
    assert len(thr) == len(thr_sk) == np.unique(offsets).size + 1
    np.testing.assert_allclose(fpr, fpr_sk, atol=1e-15)
    np.testing.assert_allclose(tpr, tpr_sk, atol=1e-15)


@pytest.mark.parametrize("name", sorted(RANKING))
def test_every_ranking_function_ranks_integer_scores_above_2_53_exactly(name):
    # a ranking measure depends on the order only: scores 2**60 + k must give what k gives
    func, kw = RANKING[name]
    y = np.array([1, 0, 1, 0, 0, 1, 0, 1])
    k = np.array([7, 6, 5, 5, 3, 2, 1, 0])  # one tie, and 2**60 + k collapse in float64 (spacing 256)
    big = np.int64(2**60) + k
    assert np.unique(big.astype(float)).size == 1
    got, expected = func(y, big, **kw), func(y, k.astype(float), **kw)
    if name in (
        "roc_curve",
        "kappa_curve",
        "roc_convex_hull",
        "empirical_cost_intervals",
        "empirical_loss",
        "empirical_optimal_threshold",
    ):
        # returned thresholds are float (they hold +inf): compare everything but them
        got, expected = _without_thresholds(name, got), _without_thresholds(name, expected)
    elif name in ("max_f1", "max_mcc", "min_error_rate", "ks_statistic"):
        if expected.threshold == np.inf:  # min_error_rate: predict nothing positive
            assert got.threshold == np.inf
        else:  # the score itself, exact (a Python int)
            assert got.threshold == 2**60 + int(expected.threshold) and isinstance(got.threshold, int)
        got, expected = got.value, expected.value
    elif name == "uniform_threshold_loss_draws":
        pass  # the same draws: the seed picks cases, not scores
    assert _same(got, expected)


def _without_thresholds(name, r):
    if name == "roc_curve":
        return r[0], r[1], len(r[2])
    if name == "kappa_curve":
        return r.fpr, r.kappa, len(r.thresholds)
    if name == "roc_convex_hull":
        return tuple(v for f, v in zip(r._fields, r, strict=True) if f != "thresholds")
    if name == "empirical_cost_intervals":
        return tuple(v for f, v in zip(r._fields, r, strict=True) if f != "thresholds")
    if name == "empirical_loss":
        return r
    return np.isfinite(np.asarray(r, dtype=float))  # empirical_optimal_threshold: only whether it is inf


def test_nanosecond_timestamps_are_ranked_exactly():
    # nanoseconds since 1970 are ~1.7e18 > 2**53: one nanosecond apart must still rank
    t = np.array(["2024-05-01T12:00:00.000000001", "2024-05-01T12:00:00.000000000"], dtype="datetime64[ns]")
    assert roc_auc([1, 0], t) == 1.0  # by hand: the positive is later
    assert roc_auc([0, 1], t) == 0.0
    ticks = t.view(np.int64)
    assert roc_auc([1, 0], ticks) == skm.roc_auc_score([1, 0], ticks) == 1.0
    assert max_f1([1, 0], t) == (1.0, int(ticks[0]))  # threshold: the positive's tick, exactly
    assert len(roc_curve([1, 0], t)[2]) == 3


def test_uint64_scores_sort_without_wrapping_around():
    # -uint64(1) wraps to 2**64 - 1: sorting by negation ranked 0 above 1
    s = np.array([1, 0], dtype=np.uint64)
    assert roc_auc([1, 0], s) == skm.roc_auc_score([1, 0], s) == 1.0
    s = np.array([2**64 - 1, 0, 2**64 - 2], dtype=np.uint64)
    assert roc_auc([1, 0, 1], s) == 1.0
    assert max_f1([1, 0, 1], s) == (1.0, 2**64 - 2)  # F1 = 1 once both positives are in: by hand


def test_int64_minimum_score_is_ranked_lowest():
    # -(-2**63) overflows back to -2**63: the old sort put the minimum first
    s = np.array([0, np.iinfo(np.int64).min])
    assert roc_auc([1, 0], s) == skm.roc_auc_score([1, 0], s) == 1.0
    assert min_error_rate([1, 0], s) == (0.0, 0)  # predict positive from 0 up: no error (by hand)


def test_max_f1_threshold_is_the_exact_integer_score():
    r = max_f1([1, 0], np.array([2**53 + 1, 2**53]))
    assert r.value == 1.0 and r.threshold == 2**53 + 1 and isinstance(r.threshold, int)


def test_h_measure_flip_does_not_negate_integer_scores():
    # worse than random on purpose; flipping by negation wraps uint64 and overflows int64's minimum
    y = [1, 0, 1, 0]
    for s in (np.array([0, 1, 2, 3], dtype=np.uint64), np.array([np.iinfo(np.int64).min, 1, 2, 3])):
        with pytest.warns(UserWarning, match="switching scores"):
            r = h_measure_details(y, s, severity_ratio=1, worse_than_random="flip")
        # AUC = 1/4 < 1/2, so the scores are reversed: positive, negative, positive, negative from the top,
        # the doctest case of h_measure_details (Beta(2, 2): L = 5/64, L_max = 5/32), H = 1/2
        assert r.flipped and r.h == pytest.approx(0.5, abs=1e-12)


def test_cv_auc_merge_ranks_integer_scores_beyond_2_53_exactly():
    # float64 would merge 2**53 + 1 with 2**53
    y, folds = [1, 0, 1, 0], [0, 0, 1, 1]
    s = np.array([2**53 + 1, 2**53, 2**53 + 3, 2**53 + 2], dtype=np.uint64)
    # merged ranking, by hand: 2**53+3 (pos) > 2**53+2 (neg) > 2**53+1 (pos) > 2**53 (neg): 3 of 4 pairs
    assert cv_roc_auc(y, s, folds=folds, method="merge") == 0.75
    # Python ints spanning int64 and uint64: every positive below every negative, by hand 0
    assert cv_roc_auc(y, [-1, 2**64 - 1, 3, 4], folds=folds, method="merge") == 0.0


# ----------------------------------------------------------------------------------------------------
# Huge finite floats: no overflow warning
# ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(RANKING))
def test_huge_finite_scores_emit_no_overflow_warning(name):
    func, kw = RANKING[name]
    y, s = [1, 0, 1, 0], [1e308, -1e308, 1.7e308, -1.7e308]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # np.diff(1e308, -1e308) overflowed in the tie detection
        func(y, s, **kw)
    assert roc_auc([1, 0], [1e308, -1e308]) == 1.0


# ----------------------------------------------------------------------------------------------------
# H-measure: a severity ratio whose prior overflows is refused, a NaN is never clipped to 0
# ----------------------------------------------------------------------------------------------------
def test_h_measure_tiny_severity_ratio_is_refused_not_scored_zero():
    y, s = [1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1]
    for r in (5e-324, 1e-310, 2e-308):  # 1/r overflows (or nearly): Beta(2, inf) gave NaN -> clipped to 0
        with pytest.raises(
            ValueError, match=r"severity_ratio=.* is too small.*usable range is 2\.2250738585072014e-308"
        ):
            h_measure(y, s, severity_ratio=r)
        with pytest.raises(ValueError, match="severity_ratio"):
            h_measure_prior(0.5, severity_ratio=r)
    # by hand: as r -> 0 the prior piles up at c -> 0, where the hull vertex (FPR, TPR) = (1/2, 1) loses
    # c·π0·1/2 = c/4 and the best trivial classifier c·π0 = c/2, so H -> 1 - 1/2 = 1/2
    for r in (2.2250738585072014e-308, 1e-300, 1e-100):
        assert h_measure(y, s, severity_ratio=r) == pytest.approx(0.5, abs=1e-12)


def test_h_measure_nan_loss_is_an_error_not_zero(monkeypatch):
    import apples._kernels.hmeasure as hm  # the kernel integrates the prior

    monkeypatch.setattr(hm, "betainc", lambda a, b, x: np.full(np.shape(x), np.nan))
    with pytest.raises(ValueError, match="cannot be computed"):
        h_measure([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1])


def test_h_measure_prior_names_bad_pi1():
    with pytest.raises(TypeError, match="pi1 must be a proportion"):
        h_measure_prior("0.5")
    with pytest.raises(ValueError, match=r"pi1=1e-320 is too small"):
        h_measure_prior(1e-320)  # default ratio pi1/(1 - pi1) = 1e-320: 1/r overflows
    with pytest.raises(ValueError, match="severity_ratio must be a positive finite number"):
        h_measure_prior(0.5, severity_ratio=10**400)  # float() of it overflowed with an OverflowError


# ----------------------------------------------------------------------------------------------------
# Missing values, and the positive label
# ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(RANKING))
def test_none_in_labels_or_scores_is_named_by_our_code(name):
    func, kw = RANKING[name]
    with pytest.raises(ValueError, match=r"y_true contains a missing value \(None\) at position 1") as exc:
        func([1, None, 0, 1], [0.4, 0.3, 0.2, 0.1], **kw)
    assert _raised_by_apples(exc)
    with pytest.raises(ValueError, match=r"y_score contains a missing value \(None\) at position 1") as exc:
        func([1, 0, 0, 1], [0.4, None, 0.2, 0.1], **kw)
    assert _raised_by_apples(exc)


@pytest.mark.parametrize("name", sorted(RANKING))
def test_positive_label_of_another_kind_is_a_type_error(name):
    func, kw = RANKING[name]
    s = [0.4, 0.3, 0.2, 0.1]
    with pytest.raises(TypeError, match=r"pos_label=1 is a number but the labels in y_true are strs"):
        func(["a", "b", "a", "b"], s, **kw)
    with pytest.raises(TypeError, match=r"pos_label='1' is a str but the labels in y_true are numbers"):
        func([1, 0, 1, 0], s, pos_label="1", **kw)
    # one class only, and the positive label cannot be it by type: a TypeError, never "no positives"
    with pytest.raises(TypeError, match=r"pos_label=1 is a number"):
        func(["pos", "pos", "pos", "pos"], s, **kw)


def test_precision_at_k_absent_positive_of_another_type_is_not_zero():
    # was 0.0: the default positive label 1 can never be one of the string labels
    with pytest.raises(TypeError, match=r"pos_label=1 is a number but the labels in y_true are strs \(\['pos'\]\)"):
        precision_at_k(["pos", "pos", "pos"], [0.3, 0.2, 0.1], k=2)
    # a fold without positives of the right kind still has precision 0: its true value (by hand)
    assert precision_at_k(["neg", "neg", "neg"], [0.3, 0.2, 0.1], k=2, pos_label="pos") == 0.0


def test_average_precision_without_positives_names_the_positive_label_and_the_labels():
    with pytest.raises(TypeError, match=r"pos_label=1 .*\['pos'\]"):
        average_precision(["pos", "pos"], [0.1, 0.2])
    with pytest.raises(
        UndefinedMetricError, match=r"no positives: pos_label='pos' is not among the labels found, \['neg'\]"
    ):
        average_precision(["neg", "neg"], [0.1, 0.2], pos_label="pos")
    with pytest.raises(UndefinedMetricError, match=r"no positives: pos_label=1 is not among the labels found, \[0\]"):
        roc_auc([0, 0], [0.1, 0.2])
    with pytest.raises(UndefinedMetricError, match=r"no negatives: every label is pos_label=1"):
        roc_auc([1, 1], [0.1, 0.2])


@pytest.mark.parametrize("name", sorted(set(RANKING) - set(ONE_CLASS_OK)))
def test_one_class_error_names_the_positive_label(name):
    func, kw = RANKING[name]
    with pytest.raises(
        ValueError,
        match=r"only one class \(no positives: pos_label='yes' is not among the labels found, "
        r"\['no'\]\)",
    ):
        func(["no", "no", "no", "no"], [0.4, 0.3, 0.2, 0.1], pos_label="yes", **kw)


@pytest.mark.parametrize("name", sorted(RANKING))
def test_absent_positive_label_with_two_classes_is_a_value_error(name):
    func, kw = RANKING[name]
    with pytest.raises(ValueError, match=r"pos_label=1 is not one of the labels in y_true \[0, 2\]"):
        func([0, 2, 0, 2], [0.4, 0.3, 0.2, 0.1], **kw)


def test_missing_positive_label_is_refused():
    with pytest.raises(ValueError, match="pos_label=None is a missing value"):
        roc_auc([0, 0], [0.1, 0.2], pos_label=None, undefined="nan")


# ----------------------------------------------------------------------------------------------------
# Cross-validation: every per-fold error names the fold
# ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("method", ["avg", "merge"])
def test_cv_auc_errors_name_the_argument_and_the_position(method):
    folds = [0, 0, 1, 1]
    with pytest.raises(TypeError, match=r"^y_score must be numeric") as err:
        cv_roc_auc([1, 0, 1, 0], [0.9, 0.1, "a", "b"], folds=folds, method=method)
    assert err.value.param == "y_score"
    with pytest.raises(ValueError, match=r"^y_true contains a missing value \(None\) at position 3") as err:
        cv_roc_auc([1, 0, 1, None], [0.9, 0.1, 0.8, 0.2], folds=folds, method=method)
    assert (err.value.param, err.value.position) == ("y_true", 3)
    with pytest.raises(TypeError, match=r"^pos_label=1 is a number"):
        cv_roc_auc(["a", "b", "a", "b"], [0.9, 0.1, 0.8, 0.2], folds=folds, method=method)
    with pytest.raises(ValueError, match=r"^folds contains a missing value \(None\) at position 2"):
        cv_roc_auc([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.2], folds=[0, 0, None, 1], method=method)


def test_cv_ranking_score_checks_k_before_any_fold():
    with pytest.raises(TypeError, match=r"^k must be an integer, got '2'"):
        cv_ranking_score(
            [1, 0, 1, 0], [0.9, 0.1, 0.8, 0.2], folds=[0, 0, 1, 1], metric="precision_at_k", k="2", method="avg"
        )


def test_cv_refuses_labels_of_different_kinds():
    # numpy would merge [1, 0] and ["a", "b"] into four string labels
    with pytest.raises(TypeError, match=r"^y_true mixes label types \(number and str\)"):
        cv_roc_auc([1, 0, "a", "b"], [0.9, 0.1, 0.8, 0.2], folds=[0, 0, 1, 1], method="merge")


# ----------------------------------------------------------------------------------------------------
# max_f1's beta
# ----------------------------------------------------------------------------------------------------
def test_max_f1_huge_beta_is_recall():
    # beta -> inf: F_beta -> recall. y = 0 1 0 1 ranked .9 .8 .3 .1: recall reaches 1 only at the lowest
    # threshold 0.1 (where F_1e200 = 2/(2 + 0·FN + 1e-400·2) = 1.0); at 0.3 it is 1/2. By hand: (1.0, 0.1)
    assert max_f1([0, 1, 0, 1], [0.9, 0.8, 0.3, 0.1], beta=1e200) == (1.0, 0.1)


@pytest.mark.parametrize("beta, plain", [(np.int64(2), 2.0), (np.float32(0.5), 0.5)])
def test_max_f1_accepts_numpy_scalar_beta(beta, plain):
    y = np.array([1, 0, 1, 1, 0, 0, 1, 0])
    s = np.array([0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2])
    # brute force with scikit-learn over every threshold (distinct scores)
    best = max(skm.fbeta_score(y, (s >= t).astype(int), beta=plain) for t in s)
    got = max_f1(y, s, beta=beta)
    assert got.value == pytest.approx(best, abs=1e-12)
    assert got == max_f1(y, s, beta=plain)


# ----------------------------------------------------------------------------------------------------
# binormal.py and incoherence.py: every argument named
# ----------------------------------------------------------------------------------------------------
_T_METHODS = ("pdf_pos", "pdf_neg", "cdf_pos", "cdf_neg", "tpr", "fpr", "pdf", "positive_rate", "log_likelihood_ratio")


@pytest.mark.parametrize("method", _T_METHODS)
def test_binormal_methods_name_a_bad_threshold(method):
    f = getattr(Binormal(), method)
    with pytest.raises(TypeError, match="t must be a real number") as exc:
        f("a")  # was numpy's "could not convert string to float: 'a'"
    assert _raised_by_apples(exc)
    with pytest.raises(ValueError, match="t contains NaN"):
        f([0.0, float("nan")])
    with pytest.raises(ValueError, match=r"t contains a missing value \(None\)"):
        f([0.0, None])
    with pytest.raises(ValueError, match="t must be a real number or an array") as exc:
        f([[0.0], [1.0, 2.0]])
    assert _raised_by_apples(exc)


@pytest.mark.parametrize("method", ["roc", "threshold_at_fpr"])
def test_binormal_fpr_methods_name_a_bad_rate(method):
    f = getattr(Binormal(), method)
    with pytest.raises(TypeError, match="fpr must be a real number"):
        f("0.5")
    with pytest.raises(ValueError, match=r"fpr must lie in \[0, 1\], got nan"):
        f(float("nan"))


def test_binormal_parameters_and_sample_arguments():
    assert Binormal(mu_pos=np.float32(0.5), pi_pos=np.float64(0.25)).mu_pos == 0.5
    with pytest.raises(ValueError, match=r"mu_pos=.* is too large to be represented as a float"):
        Binormal(mu_pos=10**400)  # float() raised OverflowError
    m = Binormal()
    y, _ = m.sample(np.int64(2), np.int64(1), seed=0)
    assert y.tolist() == [1, 1, 0]
    with pytest.raises(TypeError, match="seed must be a non-negative integer") as exc:
        m.sample(2, 1, seed="a")  # was numpy's SeedSequence message
    assert _raised_by_apples(exc)
    with pytest.raises(ValueError, match="seed must be a non-negative int"):
        m.sample(2, 1, seed=-1)
    with pytest.raises(ValueError, match="n_pos must be between 1 and 9007199254740992, got 1152921504606846976"):
        m.sample(2**60, 1, seed=0)
    with pytest.raises(ValueError, match="n_neg must be between 1 and 9007199254740992, got -1"):
        m.sample(2, -1, seed=0)


def test_incoherence_functions_name_bad_numbers():
    m = Binormal(mu_pos=1.0)
    with pytest.raises(TypeError, match="t must be a real number"):
        apples.theory.misclassification_loss("a", 0.5, m)
    with pytest.raises(TypeError, match="c must be a real number"):
        apples.theory.misclassification_loss(0.0, "a", m)
    with pytest.raises(ValueError, match=r"c must lie in \[0, 1\], got nan"):
        apples.theory.optimal_threshold([0.5, float("nan")], m)
    with pytest.raises(TypeError, match="scale must be a real number"):
        apples.theory.misclassification_loss(0.0, 0.5, m, scale="2")
    with pytest.raises(ValueError, match="scale must be a number, got NaN"):
        apples.theory.uniform_threshold_loss(m, scale=float("nan"))
    with pytest.raises(ValueError, match=r"scale=.* is too large"):
        apples.theory.misclassification_loss(0.0, 0.5, m, scale=10**400)  # float() raised OverflowError
    with pytest.raises(TypeError, match="q must be a real number"):
        apples.theory.implied_cost_quantiles(m, q="a")  # was numpy's "could not convert string to float"
    with pytest.raises(TypeError, match="c must be a real number"):
        apples.theory.implied_cost_density("a", m)
    with pytest.raises(TypeError, match="pi_pos must be a real number"):
        apples.theory.h_prior_density(0.5, "0.3")
    with pytest.raises(ValueError, match="pi_pos must be a number, got NaN"):
        apples.theory.h_prior_density(0.5, float("nan"))
    with pytest.raises(TypeError, match="n_grid must be an integer"):
        pk.incoherence_comparison(m, m, n_grid="5")
    with pytest.raises(TypeError, match=r"result must be an apples.studies.parker.IncoherenceComparison"):
        pk.plot_incoherence_comparison("table", m, m)


def test_empirical_draws_name_bad_count_and_seed():
    y, s = [1, 0, 1, 0], [0.8, 0.5, 0.5, 0.2]
    with pytest.raises(TypeError, match="n_draws must be an integer"):
        uniform_threshold_loss_draws(y, s, "10", seed=0)
    with pytest.raises(TypeError, match="seed must be a non-negative integer"):
        uniform_threshold_loss_draws(y, s, 10, seed=None)  # was silently unreproducible
    with pytest.raises(TypeError, match="seed must be a non-negative int"):
        uniform_threshold_loss_draws(y, s, 10, seed=1.5)


def test_incoherence_explorer_refuses_values_its_sliders_would_clamp():
    pytest.importorskip("ipywidgets")
    with pytest.raises(ValueError, match=r"mu_a must be <= 3.0, got 5.0"):
        pk.incoherence_explorer(mu_a=5.0)
    with pytest.raises(TypeError, match="sd_b must be a real number"):
        pk.incoherence_explorer(sd_b="1")
    with pytest.raises(TypeError, match="continuous_update must be True or False"):
        pk.incoherence_explorer(continuous_update="yes")


def test_empirical_cost_intervals_hull_of_integer_scores_above_2_53():
    # hull vertices were matched by float threshold, and 2**60 + k are all one float
    y = [1, 1, 0, 1, 0, 0]
    r = empirical_cost_intervals(y, np.int64(2**60) + np.array([6, 5, 4, 3, 2, 1]))
    # by hand (the doctest case on scores 6..1): vertices at +inf, 5, 3 and 1
    assert r.on_hull.tolist() == [True, False, True, False, True, False, True]


# ----------------------------------------------------------------------------------------------------
# the shared helpers added for these fixes
# ----------------------------------------------------------------------------------------------------
def test_check_real_array_contract():
    assert check_real_array("t", np.array([1, 2], dtype=np.uint64)).dtype == np.float64
    assert check_real_array("t", [-np.inf, np.inf]).tolist() == [-np.inf, np.inf]
    with pytest.raises(ValueError, match="t must be finite"):
        check_real_array("t", [np.inf], finite=True)
    with pytest.raises(TypeError, match="t must be a real number"):
        check_real_array("t", True)
    with pytest.raises(TypeError, match="t must be a real number"):
        check_real_array("t", [1 + 2j])
    with pytest.raises(TypeError, match="t must hold real numbers, got 'a'"):
        check_real_array("t", np.array([1.0, "a"], dtype=object))
    with pytest.raises(ValueError, match="t holds an integer too large"):
        check_real_array("t", [10**400, 1])
    with pytest.raises(ValueError, match=r"q must lie in \(0, 1\), got 1.0"):
        check_real_array("q", [0.5, 1.0], low=0, high=1, low_inclusive=False, high_inclusive=False)


def test_rng_from_seed_contract():
    g = np.random.default_rng(0)
    assert rng_from_seed(g) is g
    assert rng_from_seed(np.int64(3)).random() == np.random.default_rng(3).random()
    for bad in (None, "1", 1.0, True):
        with pytest.raises(TypeError, match="seed"):
            rng_from_seed(bad)


# ----------------------------------------------------------------------------------------------------
# auc_calibration.py, and the fold lists it shares with roc.py
# ----------------------------------------------------------------------------------------------------
def test_incoherence_comparison_names_which_model_is_wrong():
    m = Binormal()
    with pytest.raises(TypeError, match=r"model_a must be an apples.theory.Binormal"):
        pk.incoherence_comparison("A", m, n_grid=3)
    with pytest.raises(TypeError, match=r"model_b must be an apples.theory.Binormal"):
        pk.incoherence_comparison(m, None, n_grid=3)


@pytest.mark.parametrize(
    "bad, error, match",
    [
        ([1, None, 0], ValueError, r"^y_true contains a missing value \(None\) at position 4"),
        ([1, float("nan"), 0], ValueError, r"^y_true contains NaN at position 4"),
        ([1, "a", 0], TypeError, r"^y_true mixes label types"),
        (["p", "n", "n"], TypeError, r"^pos_label=1 is a number but the labels in y_true are strs"),
    ],
)
def test_merge_decomposition_checks_labels_before_reading_them(bad, error, match):
    # np.asarray(t) == 1 read None and NaN as negatives and accepted [1, "a", 0]
    y = ([1, 0, 0] if bad[0] != "p" else ["p", "n", "n"]) + bad
    with pytest.raises(error, match=match):
        apples.merge_decomposition(y, [0.9, 0.5, 0.1, 0.8, 0.4, 0.2], folds=[0, 0, 0, 1, 1, 1])


def test_scores_with_auc_and_section32_study_check_their_targets():
    y, _ = fs.scores_with_auc(2, 3, np.float32(0.5), rng=np.random.default_rng(0))  # was refused
    assert y.tolist() == [1, 1, 0, 0, 0]
    for bad, error in ((float("nan"), ValueError), (float("inf"), ValueError), (None, TypeError), ("0.8", TypeError)):
        with pytest.raises(error, match="merged_auc"):
            fs.section32_study(merged_auc=bad)
    with pytest.raises(TypeError, match=r"fold_aucs\[1\] must be a real number"):
        fs.section32_study(fold_aucs=(0.9, "0.8"))
    with pytest.raises(TypeError, match="moved must be a pair of fold indices"):
        fs.section32_study(moved=("a", 1))
    with pytest.raises(TypeError, match="seed must be a non-negative int"):
        fs.section32_study(seed="0")


@pytest.mark.parametrize(
    "y_bad, error, match",
    [
        ([1, None, 0, 0, 1, 0], ValueError, r"y contains a missing value \(None\) at position 1"),
        ([1, "a", 0, 0, 1, 0], TypeError, "y mixes label types"),
        ([[1, 0, 0, 0, 1, 0]], ValueError, "y must be one-dimensional"),
        ([0, 2, 0, 0, 2, 0], ValueError, "y must hold the positive label 1"),
    ],
)
def test_fold_scores_checks_y_before_scikit_learn_sees_it(y_bad, error, match):
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import KFold

    X = np.arange(12.0).reshape(6, 2)
    with pytest.raises(error, match=match) as exc:
        fs.fold_scores(LogisticRegression(), X, y_bad, cv=KFold(2))
    assert _raised_by_apples(exc)


def test_fold_plots_check_the_fold_lists():
    import matplotlib.pyplot as plt

    _, ax = plt.subplots()
    try:
        with pytest.raises(ValueError, match="inconsistent lengths: y_true has 4, y_score has 2, folds has 4"):
            fs.plot_rate_vs_score([1, 0, 1, 0], [0.5, 0.2], folds=[1, 1, 2, 2], ax=ax)  # zip would drop fold 2
        with pytest.raises(ValueError, match="y_true is empty"):
            fs.plot_rate_vs_score([], [], folds=[], ax=ax)
        with pytest.raises(ValueError, match="y_true is empty"):
            fs.plot_fold_rocs([], [], folds=[], ax=ax)
        with pytest.raises(TypeError, match=r"pos_label=1 is a number but the labels in y_true are strs"):
            fs.plot_fold_rocs(["a", "b", "a", "b"], [0.5, 0.2, 0.4, 0.3], folds=[1, 1, 2, 2], ax=ax)
    finally:
        plt.close("all")


def _gamma_limit_h(mu: float, p0: float, r: float) -> float:
    """H of N(mu, 1) positives vs N(0, 1) negatives as severity_ratio r -> 0, independently of apples.

    Hand's cost h is Beta(2, beta), beta = 1 + 1/r, so beta·h -> x ~ Gamma(2) (error O(1/beta)).
    At cost h the optimal threshold is T = mu/2 + log(h·p1/((1 - h)·p0))/mu (equal variances), the
    loss (1 - h)·p0·Φ(T - mu) + h·p1·Φ(-T), and the best trivial loss h·p1 (h < p0 throughout).
    """
    import math

    from scipy import integrate, special

    beta, p1 = 1.0 + 1.0 / r, 1.0 - p0

    def loss_times_beta(x):
        h = x / beta
        t = mu / 2 + (math.log(x * p1 / p0) - math.log(beta) - math.log1p(-h)) / mu
        missed = math.exp(math.log(beta) + math.log1p(-h) + math.log(p0) + special.log_ndtr(t - mu))
        return (missed + x * p1 * special.ndtr(-t)) * x * math.exp(-x)

    trivial = integrate.quad(lambda x: x * p1 * x * math.exp(-x), 0, 200)[0]
    return 1 - integrate.quad(loss_times_beta, 0, 200, epsabs=1e-14, limit=400)[0] / trivial


@pytest.mark.parametrize("mu, r", [(12.0, 1e-30), (37.0, 1e-300)])
def test_binormal_h_measure_tiny_severity_ratio_is_computed(mu, r):
    # quadrature over c missed a prior piled up within ~r of c = 1: L_max = 0, ZeroDivisionError
    # (already at severity_ratio=3e-7); mu is chosen so that H is far from 0 and 1 at that r
    got = apples.theory.binormal_h_measure(Binormal(mu_pos=mu, pi_pos=0.3), severity_ratio=r)
    assert got == pytest.approx(_gamma_limit_h(mu, 0.3, r), abs=1e-9)
    assert 0.3 < got < 0.7


def test_binormal_h_measure_small_severity_ratio_matches_a_large_sample():
    m = Binormal(mu_pos=1.5, sd_pos=0.6, sd_neg=1.4, pi_pos=0.2)
    y, s = m.sample(40_000, 160_000, seed=4)
    assert apples.theory.binormal_h_measure(m, severity_ratio=1e-3) == pytest.approx(
        h_measure(y, s, severity_ratio=1e-3), abs=0.005
    )
