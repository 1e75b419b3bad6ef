"""Bad input, continued: one regression test per fix of a ``tests/test_common.py`` known failure.

Each test is named after what it guards. Expected values come from numpy itself
(``numpy.random.default_rng`` for draws), from formulas worked out by hand next to
them, or from the scores given (a threshold is one of them); never from apples'
own output on the same input.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import matplotlib.pyplot as plt  # the root conftest selects the Agg backend
import numpy as np
import pytest

import apples
from apples._params import check_bool
from apples.studies import forman_scholz as fs
from apples.studies import parker as pk
from apples.studies import van_asch as va

#: Two folds of labels and positive scores (a log axis needs positive scores), flat with one fold id per case.
FOLDED = {
    "y_true": [1, 0, 1, 0, 1, 0, 0, 1],
    "y_score": [0.75, 0.5, 0.5, 0.25, 0.625, 0.375, 0.125, 0.25],
    "folds": [0, 0, 0, 0, 1, 1, 1, 1],
}

NOT_FLAGS = ["yes", "False", None, 0, 1, [], np.array([True])]
APPLES_DIR = Path(apples.__file__).resolve().parent


def _raised_in_apples(exc: BaseException) -> bool:
    """The innermost frame of the traceback is apples' own code, not numpy's, scipy's or sklearn's."""
    tb = exc.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    return Path(tb.tb_frame.f_code.co_filename).resolve().is_relative_to(APPLES_DIR)


# -- check_bool ------------------------------------------------------------------------------------
@pytest.mark.parametrize("value", [True, False, np.True_, np.False_])
def test_check_bool_accepts_python_and_numpy_bools(value):
    out = check_bool("flag", value)
    assert type(out) is bool and out == (value is True or value is np.True_)


@pytest.mark.parametrize("value", NOT_FLAGS, ids=repr)
def test_check_bool_refuses_truthy_and_falsy_non_bools(value):
    with pytest.raises(TypeError, match=r"^flag must be True or False, got "):
        check_bool("flag", value)


# -- plotting helpers: log is a flag, not a truth value --------------------------------------------
@pytest.mark.parametrize("bad", ["yes", "False", None, 0], ids=repr)
def test_plot_rate_vs_score_log_must_be_a_bool(bad):
    fig, ax = plt.subplots()
    try:
        with pytest.raises(TypeError, match=r"^log must be True or False"):
            fs.plot_rate_vs_score(**FOLDED, ax=ax, log=bad)
        assert len(ax.lines) == 0 and ax.get_xscale() == "linear"  # refused before drawing
    finally:
        plt.close(fig)


@pytest.mark.parametrize("flag, scale", [(np.True_, "log"), (np.False_, "linear")])
def test_plot_rate_vs_score_log_accepts_numpy_bools(flag, scale):
    fig, ax = plt.subplots()
    try:
        fs.plot_rate_vs_score(**FOLDED, ax=ax, log=flag)
        assert ax.get_xscale() == scale
        assert len(ax.lines) == 2  # one step curve per fold
    finally:
        plt.close(fig)


@pytest.mark.parametrize("bad", ["yes", None], ids=repr)
def test_plot_figure3_log_must_be_a_bool_and_opens_no_figure(bad):
    before = plt.get_fignums()
    with pytest.raises(TypeError, match=r"^log must be True or False"):
        fs.plot_figure3(**FOLDED, log=bad)
    assert plt.get_fignums() == before  # refused before plt.subplots


def test_calibration_explorer_plot_must_be_a_bool():
    with pytest.raises(TypeError, match=r"^plot must be True or False, got 'no'"):
        fs.calibration_explorer(plot="no")


def test_training_set_calibration_get_params_deep_must_be_a_bool():
    model = fs.TrainingSetCalibration()
    assert model.get_params(deep=np.False_) == {"estimator": None, "method": "sigmoid"}
    with pytest.raises(TypeError, match=r"^deep must be True or False"):
        model.get_params(deep="no")


# -- seeds: required, checked by apples, never None -----------------------------------------------
BAD_SEEDS = [
    (None, TypeError, "seed is required"),
    ("0", TypeError, "seed must be"),
    (0.5, TypeError, "seed must be"),
    (-1, ValueError, "seed must be"),
    (True, TypeError, "seed must be"),
]


@pytest.mark.parametrize("seed, exc, msg", BAD_SEEDS, ids=repr)
@pytest.mark.parametrize("n_positives", [5, None])
def test_digits_one_vs_rest_seed_is_checked_even_when_nothing_is_drawn(seed, exc, msg, n_positives):
    # declared seed=SEED: None too is refused with what a seed is
    with pytest.raises(exc, match=r"^seed must be a non-negative int") as info:
        fs.digits_one_vs_rest(8, n_positives=n_positives, seed=seed)
    assert _raised_in_apples(info.value)


def test_digits_one_vs_rest_draws_the_positives_with_default_rng_of_the_seed():
    from sklearn.datasets import load_digits

    X_all, y_all = load_digits(return_X_y=True)
    pos = np.flatnonzero(y_all == 8)
    chosen = np.random.default_rng(7).choice(pos, 5, replace=False)  # what the docstring promises
    expected = np.sort(np.r_[chosen, np.flatnonzero(y_all != 8)])
    for seed in (7, np.int64(7), np.random.default_rng(7)):
        X, y = fs.digits_one_vs_rest(8, n_positives=5, seed=seed)
        np.testing.assert_array_equal(X, X_all[expected])
        np.testing.assert_array_equal(y, (y_all[expected] == 8).astype(int))
    assert y.sum() == 5


# -- one seed contract: any non-negative int, as numpy's SeedSequence takes it ----------------------
BIG_SEED = 2**70


def _seeded_calls(seed):
    """A call per way a seed enters apples: check_count before, check_int(low=0), rng_from_seed."""
    return {
        "simulate_cv_f": lambda: fs.simulate_cv_f(
            0.125, 0.75, n_cases=80, n_folds=8, stratified=False, n_reps=4, seed=seed
        ),
        "report": lambda: apples.report(
            apples.CVPredictions([1, 0, 1, 0, 1, 0], y_pred=[1, 0, 0, 0, 1, 1], folds=[0, 0, 0, 1, 1, 1]),
            confidence=0.9,
            cv_seed=seed,
        ),
        "fold_positives": lambda: apples.theory.fold_positives(
            10, n_cases=80, n_folds=8, stratified=False, n_reps=3, seed=seed
        ),
        "roc_auc_ci": lambda: apples.roc_auc_ci(
            [1, 0, 1, 0], [0.75, 0.5, 0.25, 0.125], method="bootstrap", n_resamples=64, seed=seed
        ),
        "experiment_config": lambda: pk.experiment_config("tiny", seed=seed),
        "zipf_subsample": lambda: va.zipf_subsample(Y3, seed=seed),
    }


@pytest.mark.parametrize("name", list(_seeded_calls(0)))
def test_a_seed_beyond_2_53_is_accepted_everywhere_as_seedsequence_accepts_it(name):
    np.random.SeedSequence(BIG_SEED)  # numpy's own contract: entropy of any size
    _seeded_calls(BIG_SEED)[name]()  # before: simulate_cv_f called the seed "a count larger than 2**53"


def test_a_big_seed_draws_what_default_rng_of_it_draws():
    expected = np.random.default_rng(BIG_SEED).integers(0, 3, size=6)
    _, y = pk.make_waveform(6, seed=BIG_SEED)
    np.testing.assert_array_equal(y, expected)


@pytest.mark.parametrize("name", list(_seeded_calls(0)))
@pytest.mark.parametrize(
    "seed, exc",
    [(-1, ValueError), (-(2**70), ValueError), (0.5, TypeError), ("0", TypeError), (True, TypeError)],
    ids=repr,
)
def test_every_seed_refuses_the_same_values_with_the_same_words(name, seed, exc):
    with pytest.raises(exc, match=r"seed must be a non-negative int") as info:
        _seeded_calls(seed)[name]()
    assert _raised_in_apples(info.value)


# -- fold_size: simulate_fold_counts / simulate_fold_f1 seeds --------------------------------------
VA = {"n_instances": 80, "n_folds": 4}


@pytest.mark.parametrize("seed, exc, msg", BAD_SEEDS, ids=repr)
@pytest.mark.parametrize("func", [va.simulate_fold_counts, va.simulate_fold_f1], ids=lambda f: f.__name__)
def test_simulate_fold_seed_is_required_and_checked_by_apples(func, seed, exc, msg):
    if seed is None:  # refused by the declaration's SEED kind: a seed is a non-negative int or a Generator
        msg = "seed must be a non-negative integer"
    with pytest.raises(exc, match=f"^{msg}") as info:
        func(0.125, **VA, n_reps=3, seed=seed)
    assert _raised_in_apples(info.value)


def test_simulate_fold_counts_seed_int_and_generator_give_the_same_draws():
    runs = [va.simulate_fold_counts(0.125, **VA, n_reps=50, seed=s) for s in (5, np.int64(5), np.random.default_rng(5))]
    for other in runs[1:]:
        for field in ("n_a", "tp_a", "tp_b"):
            np.testing.assert_array_equal(getattr(other, field), getattr(runs[0], field))
    # class A (10 of 80) really is dealt at random over the 4 folds: the draws vary between repetitions
    assert runs[0].n_a.sum(axis=1).tolist() == [10] * 50
    assert np.unique(runs[0].n_a, axis=0).shape[0] > 1
    # a Generator is used as it is (advanced), not reseeded
    rng = np.random.default_rng(5)
    first = va.simulate_fold_counts(0.125, **VA, n_reps=50, seed=rng)
    second = va.simulate_fold_counts(0.125, **VA, n_reps=50, seed=rng)
    assert not np.array_equal(first.n_a, second.n_a)


def test_simulate_fold_f1_seed_int_and_generator_agree():
    a = va.simulate_fold_f1(0.125, **VA, n_reps=40, seed=9)
    b = va.simulate_fold_f1(0.125, **VA, n_reps=40, seed=np.random.default_rng(9))
    np.testing.assert_array_equal(a.to_numpy(), b.to_numpy())


# -- fold_size: plot_fold_f1 flags ---------------------------------------------------------------
@pytest.fixture(scope="module")
def van_asch_curve():
    return va.fold_f1_curve([0.025, 0.05], n_instances=80, n_folds=4, n_reps=0)


@pytest.mark.parametrize("flag", ["theory", "legend"])
@pytest.mark.parametrize("bad", ["no", None], ids=repr)
def test_plot_fold_f1_flags_must_be_bools(van_asch_curve, flag, bad):
    fig, ax = plt.subplots()
    try:
        with pytest.raises(TypeError, match=f"^{flag} must be True or False"):
            va.plot_fold_f1(van_asch_curve, ax=ax, **{flag: bad})
        assert len(ax.lines) == 0
    finally:
        plt.close(fig)


def test_plot_fold_f1_numpy_false_flags_leave_out_theory_and_legend(van_asch_curve):
    fig, ax = plt.subplots()
    try:
        va.plot_fold_f1(van_asch_curve, ax=ax, theory=np.False_, legend=np.False_)
        assert len(ax.lines) == 2  # the two exact-mean lines (tp_fp, avg), no eq. (31)
        assert ax.get_legend() is None
    finally:
        plt.close(fig)


# -- prediction_cost: zipf_subsample / nearest_neighbour_boosting seeds ----------------------------
Y3 = [0] * 12 + [1] * 12 + [2] * 12


@pytest.mark.parametrize(
    "seed, exc", [(None, TypeError), ("0", TypeError), (0.5, TypeError), (-1, ValueError)], ids=repr
)
def test_zipf_subsample_negative_and_non_integer_seeds_are_refused_naming_seed(seed, exc):
    with pytest.raises(exc, match=r"^seed must be") as info:
        va.zipf_subsample(Y3, seed=seed)
    assert _raised_in_apples(info.value)


def test_zipf_subsample_draws_with_default_rng_of_the_seed():
    # exponent 1: ranks 1, 2, 3 keep round(12/1), round(12/2), round(12/3) = 12, 6, 4 (docstring formula)
    rng = np.random.default_rng(2**40)  # a seed beyond 32 bits is fine for default_rng
    expected = np.sort(
        np.concatenate(
            [rng.choice(np.arange(12 * i, 12 * i + 12), size=k, replace=False) for i, k in enumerate((12, 6, 4))]
        )
    )
    np.testing.assert_array_equal(va.zipf_subsample(Y3, exponent=1.0, seed=2**40), expected)
    np.testing.assert_array_equal(va.zipf_subsample(Y3, exponent=1.0, seed=np.int64(2**40)), expected)


def _digits_like(n=60):
    rng = np.random.default_rng(0)
    return rng.normal(size=(n, 4)), np.repeat([0, 1, 2], n // 3)


@pytest.mark.parametrize(
    "seed, exc",
    [(None, TypeError), ("0", TypeError), (0.5, TypeError), (-1, ValueError), (2**32, ValueError)],
    ids=repr,
)
def test_nearest_neighbour_boosting_seed_must_be_a_32_bit_non_negative_int(seed, exc):
    X, y = _digits_like()
    with pytest.raises(exc, match=r"^seed must") as info:
        va.nearest_neighbour_boosting(X, y, seed=seed, exponent=0.0, minimum=1, train_size=0.5)
    assert _raised_in_apples(info.value)  # not scikit-learn's InvalidParameterError about random_state


def test_nearest_neighbour_boosting_largest_32_bit_seed_is_accepted_and_seeds_the_split():
    from sklearn.model_selection import train_test_split

    X, y = _digits_like()
    seed = 2**32 - 1
    table = va.nearest_neighbour_boosting(X, y, seed=seed, exponent=0.0, minimum=1, train_size=0.5)
    # exponent 0 keeps every instance; NORMAL is 1-NN on scikit-learn's split with random_state=seed
    from sklearn.neighbors import KNeighborsClassifier

    train, test = train_test_split(np.arange(y.size), train_size=0.5, random_state=seed, stratify=y)
    knn = KNeighborsClassifier(n_neighbors=1, algorithm="brute").fit(X[train], y[train])
    assert table.loc["NORMAL", "correct"] == int((knn.predict(X[test]) == y[test]).sum())
    assert table.loc["NORMAL", "accuracy"] == pytest.approx(knn.score(X[test], y[test]), abs=1e-15)


# -- every other bool flag of the package goes through check_bool ----------------------------------
@pytest.mark.parametrize("bad", ["yes", None, 1], ids=repr)
def test_stratified_flag_is_checked_by_check_bool_everywhere(bad):
    calls = [
        lambda: apples.theory.fold_positives(10, n_cases=80, n_folds=8, stratified=bad, n_reps=2),
        lambda: fs.sample_cv_f(0.05, 0.8, stratified=bad, n_reps=2, n_cases=100),
        lambda: fs.simulate_cv_f(0.05, 0.8, stratified=bad, n_reps=2, n_cases=100),
        lambda: apples.theory.exact_cv_f(0.05, 0.8, stratified=bad, method="avg", n_cases=100),
        lambda: fs.explore_cv_f(0.05, 0.8, stratified=bad, n_reps=2, n_cases=100),
    ]
    for call in calls:
        with pytest.raises(TypeError, match=r"^stratified must be True or False, got .* \(") as info:
            call()
        assert _raised_in_apples(info.value)


def test_stratified_flag_accepts_numpy_bools():
    # stratified: every fold of 8 gets 10/8 -> 1 or 2 positives; unstratified draws put 0 in some fold
    strat = apples.theory.fold_positives(10, n_cases=80, n_folds=8, stratified=np.True_, n_reps=50, seed=1)
    assert set(np.unique(strat).tolist()) == {1, 2}
    loose = apples.theory.fold_positives(10, n_cases=80, n_folds=8, stratified=np.False_, n_reps=50, seed=1)
    assert loose.min() == 0 and loose.sum(axis=1).tolist() == [10] * 50


@pytest.mark.parametrize("func", [apples.label_counts, apples.split_confusion_matrix], ids=lambda f: f.__name__)
@pytest.mark.parametrize("bad", ["True", None, 1], ids=repr)
def test_deduplicate_must_be_a_bool(func, bad):
    with pytest.raises(TypeError, match=r"^deduplicate must be True or False"):
        func([["A"]], [["A", "A"]], deduplicate=bad)


def test_deduplicate_numpy_true_counts_a_repeated_prediction_once():
    # gold {A}, predicted A three times: deduplicated, one true positive and no false positive
    c = apples.label_counts([["A"]], [["A", "A", "A"]], deduplicate=np.True_)["A"]
    assert (c.tp, c.fp, c.fn) == (1, 0, 0)


def test_widget_flags_must_be_bools():
    with pytest.raises(TypeError, match=r"^draw must be True or False, got 'no'"):
        fs.sim_explorer(draw="no")
    with pytest.raises(TypeError, match=r"^continuous_update must be True or False, got None"):
        pk.incoherence_explorer(continuous_update=None)


# -- Binormal: standard deviations whose ratio overflows are refused ---------------------------------
def _phi(x: float) -> float:
    """Standard normal CDF from math.erf (independent of scipy's ndtr)."""
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


@pytest.mark.parametrize(
    "kwargs, name, usable",
    [
        ({"sd_pos": 5e-324}, "sd_pos", r"sd_pos must be at least sd_neg/1\.798e\+308 \(about 5\.56e-309 here\)"),
        ({"sd_pos": 5e-309, "sd_neg": 1.0}, "sd_pos", r"sd_pos must be at least"),
        ({"sd_neg": 5e-324, "sd_pos": 2.0}, "sd_neg", r"sd_neg must be at least sd_pos"),
        ({"mu_pos": 1e308, "mu_neg": -1e308}, "mu_pos", r"difference must be at most 1\.798e\+308"),
        ({"mu_pos": 1e10, "sd_pos": 1e-300}, "sd_pos", r"sd_pos must be at least \|mu_pos - mu_neg\|/1\.798e\+308"),
    ],
    ids=[
        "sd_pos_subnormal",
        "sd_pos_just_too_small",
        "sd_neg_ratio_underflows",
        "means_too_far_apart",
        "intercept_overflows",
    ],
)
def test_binormal_refuses_standard_deviations_whose_ratio_overflows(kwargs, name, usable):
    with pytest.raises(ValueError, match=f"^{name}=") as info:
        apples.theory.Binormal(**kwargs)
    assert _raised_in_apples(info.value)
    assert re.search(usable, str(info.value)), str(info.value)


def test_binormal_at_the_edge_of_the_usable_range_gives_the_point_mass_limit_without_nan():
    # sd_pos = 1e-308: positives are (all but) a point mass at mu_pos = 1, negatives N(0, 1). At FPR v the
    # threshold is Phi^-1(1 - v): TPR = 1 where it is below 1 (v > 1 - Phi(1) = 0.1587), else 0.
    m = apples.theory.Binormal(mu_pos=1.0, sd_pos=1e-308, mu_neg=0.0, sd_neg=1.0)
    assert 1 - _phi(1.0) == pytest.approx(0.15865525393145707, rel=1e-12)
    np.testing.assert_array_equal(m.roc([0.0, 0.01, 0.1, 0.25, 0.5, 1.0]), [0.0, 0.0, 0.0, 1.0, 1.0, 1.0])
    assert m.auc == pytest.approx(_phi(1.0), rel=1e-12)  # AUC = P(negative < 1)


def test_binormal_subnormal_sd_neg_with_a_representable_slope_is_still_accepted():
    # b = 5e-324/0.5 = 1e-323 > 0: negatives a point mass at 0, positives N(1, 0.5^2): TPR = P(pos > 0) = Phi(2)
    m = apples.theory.Binormal(mu_pos=1.0, sd_pos=0.5, mu_neg=0.0, sd_neg=5e-324)
    np.testing.assert_allclose(m.roc([0.25, 0.5]), [_phi(2.0)] * 2, rtol=1e-12)
    np.testing.assert_array_equal(m.roc([0.0, 1.0]), [0.0, 1.0])
    assert m.auc == pytest.approx(_phi(2.0), rel=1e-12)


# -- empirical_optimal_threshold: integer scores come back exactly ----------------------------------
def _loss_by_hand(y, s, c, t):
    """Q(t; 1, c) = c * missed positives / n + (1 - c) * false positives / n, predicting s >= t."""
    y, s = np.asarray(y), np.asarray(s, dtype=object)  # object: Python ints compare exactly
    pred = np.array([v >= t for v in s])
    return (c * np.sum((y == 1) & ~pred) + (1 - c) * np.sum((y == 0) & pred)) / y.size


def test_empirical_optimal_threshold_returns_the_exact_integer_score_above_2_53():
    # scores 2**53 + 5 > 2**53 + 3 > ... : in float64 the first two are both 2**53 + 4
    big = 2**53
    y = [1, 0, 1, 0, 0]
    s = np.array([big + 5, big + 3, big + 2, big + 1, big], dtype=np.int64)
    assert float(s[0]) == float(s[1])
    # costs where the best threshold is, by the hand loss over every candidate, 2**53 + 5 and 2**53 + 2
    candidates = [math.inf, *sorted({int(v) for v in s}, reverse=True)]
    for c, want in ((0.4, big + 5), (0.7, big + 2)):
        losses = [_loss_by_hand(y, s, c, t) for t in candidates]
        assert candidates[int(np.argmin(losses))] == want  # the hand minimum (highest on ties)
        got = apples.metrics.empirical_optimal_threshold(y, s, c)
        assert type(got) is int and got == want
    out = apples.metrics.empirical_optimal_threshold(y, s, [0.4, 0.7])
    assert out.shape == (2,) and out.tolist() == [big + 5, big + 2]
    assert all(type(v) is int for v in out.tolist())


def test_empirical_optimal_threshold_keeps_inf_only_beyond_every_score():
    # c = 0: a missed positive costs nothing, so predicting nothing positive (t = inf) has loss 0
    y, s = [1, 1, 0, 1, 0, 0], [6, 5, 4, 3, 2, 1]
    assert apples.metrics.empirical_optimal_threshold(y, s, 0.0) == math.inf
    out = apples.metrics.empirical_optimal_threshold(y, s, [0.0, 0.1, 0.6])
    assert out.tolist() == [math.inf, 5, 3]  # hand: c = 0.1 -> losses inf:0.05, 6:0.0333, 5:0.0167, ...
    assert _loss_by_hand(y, s, 0.1, 5) < min(_loss_by_hand(y, s, 0.1, t) for t in (math.inf, 6, 4, 3, 2, 1))
    assert type(out[0]) is float and type(out[1]) is int


def test_empirical_optimal_threshold_uint64_scores_beyond_int64_are_exact():
    s = np.array([2**64 - 1, 2**63], dtype=np.uint64)
    assert apples.metrics.empirical_optimal_threshold([1, 0], s, 0.5) == 2**64 - 1  # the positive's score


def test_empirical_optimal_threshold_float_scores_still_give_floats():
    y, s = [1, 1, 0, 1, 0, 0], [0.6, 0.5, 0.4, 0.3, 0.2, 0.1]
    got = apples.metrics.empirical_optimal_threshold(y, s, 0.1)
    assert type(got) is float and got == 0.5
    out = apples.metrics.empirical_optimal_threshold(y, s, [0.0, 0.6])
    assert out.dtype == np.float64 and out.tolist() == [math.inf, 0.3]


# -- plot_rate_vs_score: labels is not a truth value either ----------------------------------------
def test_plot_rate_vs_score_labels_as_an_array_name_the_folds():
    fig, ax = plt.subplots()
    try:
        fs.plot_rate_vs_score(**FOLDED, ax=ax, labels=np.array(["train A", "train B"]))
        assert [t.get_text() for t in ax.get_legend().get_texts()] == ["train A", "train B"]
    finally:
        plt.close(fig)


@pytest.mark.parametrize(
    "labels, exc",
    [(["only one"], ValueError), ([], ValueError), ("ab", TypeError), (np.array(["a", "b", "c"]), ValueError)],
    ids=repr,
)
def test_plot_rate_vs_score_labels_must_give_one_per_fold(labels, exc):
    fig, ax = plt.subplots()
    try:
        with pytest.raises(exc, match=r"^labels ") as info:
            fs.plot_rate_vs_score(**FOLDED, ax=ax, labels=labels)
        assert _raised_in_apples(info.value)
        assert len(ax.lines) == 0
    finally:
        plt.close(fig)
