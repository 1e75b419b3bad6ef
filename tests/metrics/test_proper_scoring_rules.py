"""Log loss and Brier score against scikit-learn (``log_loss``, ``brier_score_loss``) and hand calculations."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import apples
from apples.metrics import brier_score, log_loss

sk = pytest.importorskip("sklearn.metrics")


def _random_case(seed: int, n: int = 200):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    p = rng.random(n)
    w = rng.random(n) * 3
    return y, p, w


@pytest.mark.parametrize("seed", range(5))
def test_log_loss_matches_scikit_learn_on_random_probabilities(seed):
    y, p, w = _random_case(seed)
    assert log_loss(y, p) == pytest.approx(sk.log_loss(y, p), rel=1e-12)
    assert log_loss(y, p, sample_weight=w) == pytest.approx(sk.log_loss(y, p, sample_weight=w), rel=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_brier_score_matches_scikit_learn_on_random_probabilities(seed):
    y, p, w = _random_case(seed)
    assert brier_score(y, p) == pytest.approx(sk.brier_score_loss(y, p), rel=1e-12)
    assert brier_score(y, p, sample_weight=w) == pytest.approx(sk.brier_score_loss(y, p, sample_weight=w), rel=1e-12)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.booleans(), st.floats(0.0, 1.0), st.floats(0.0, 5.0)),
        min_size=1,
        max_size=30,
    )
)
def test_both_match_scikit_learn_on_any_input_away_from_certainty(cases):
    y = np.array([int(c[0]) for c in cases])
    p = np.clip([c[1] for c in cases], 1e-6, 1 - 1e-6)  # away from 0 and 1, where scikit-learn clips
    w = np.array([c[2] for c in cases])
    if not w.sum() > 0:
        w = np.ones_like(w)
    labels = [0, 1]
    assert log_loss(y, p, sample_weight=w) == pytest.approx(sk.log_loss(y, p, sample_weight=w, labels=labels), rel=1e-9)
    assert brier_score(y, p, sample_weight=w) == pytest.approx(
        sk.brier_score_loss(y, p, sample_weight=w, pos_label=1), rel=1e-9, abs=1e-15
    )


def test_a_certain_mistake_has_infinite_log_loss_where_scikit_learn_clips():
    # p = 0 for a positive, p = 1 for a negative: -log 0 = inf. scikit-learn clips p at machine epsilon and
    # reports -log(eps) / n: a finite number that looks like a (bad) model, not a certain mistake.
    y, p = [1, 0], [0.0, 0.0]
    assert log_loss(y, p) == math.inf
    assert sk.log_loss(y, p, labels=[0, 1]) == pytest.approx(-math.log(np.finfo(float).eps) / 2)
    assert log_loss([0, 1], [1.0, 1.0]) == math.inf
    # the Brier score is bounded: 1 for a certain mistake, as scikit-learn
    assert brier_score(y, p) == 0.5 == sk.brier_score_loss(y, p)


def test_certain_and_right_is_zero_and_a_zero_weight_drops_an_infinite_loss():
    assert log_loss([1, 0], [1.0, 0.0]) == 0.0
    assert brier_score([1, 0], [1.0, 0.0]) == 0.0
    # the certain mistake weighs 0: the mean over the other case, log 2 (not 0 · inf = NaN)
    assert log_loss([1, 0], [0.5, 1.0], sample_weight=[1.0, 0.0]) == pytest.approx(math.log(2), rel=1e-15)


def test_string_labels_whose_positive_sorts_first():
    # "ham" < "spam": with pos_label="ham", y_prob is P(ham). scikit-learn's log_loss takes the probability of
    # the label that sorts last (spam), so it gets 1 - p; brier_score_loss takes pos_label.
    y = np.array(["ham", "spam", "ham", "ham", "spam"])
    p_ham = np.array([0.8, 0.3, 0.6, 0.9, 0.5])
    assert log_loss(y, p_ham, pos_label="ham") == pytest.approx(sk.log_loss(y, 1 - p_ham), rel=1e-12)
    hand = -(math.log(0.8) + math.log(0.7) + math.log(0.6) + math.log(0.9) + math.log(0.5)) / 5
    assert log_loss(y, p_ham, pos_label="ham") == pytest.approx(hand, rel=1e-12)
    assert brier_score(y, p_ham, pos_label="ham") == pytest.approx(
        sk.brier_score_loss(y, p_ham, pos_label="ham"), rel=1e-12
    )
    hand_b = (0.2**2 + 0.3**2 + 0.4**2 + 0.1**2 + 0.5**2) / 5
    assert brier_score(y, p_ham, pos_label="ham") == pytest.approx(hand_b, rel=1e-12)


def test_one_class_is_defined():
    assert log_loss([1, 1], [0.5, 0.25]) == pytest.approx((math.log(2) + math.log(4)) / 2, rel=1e-15)
    assert brier_score([0, 0], [0.5, 0.25]) == pytest.approx((0.25 + 0.0625) / 2, rel=1e-15)


def test_default_positive_label_and_its_refusal():
    assert log_loss([-1, 1], [0.25, 0.75]) == pytest.approx(math.log(4 / 3), rel=1e-14)
    with pytest.raises(ValueError, match="pos_label must be given") as info:
        brier_score(["a", "b"], [0.5, 0.5])
    assert info.value.param == "pos_label"


@pytest.mark.parametrize(
    "p, position, value",
    [([0.5, 1.5, 0.5], 1, "1.5"), ([0.5, 0.5, -0.25], 2, "-0.25"), ([0.5, math.nan, 0.5], 1, "NaN")],
)
def test_a_probability_outside_0_1_is_refused_naming_its_position(p, position, value):
    for f in (log_loss, brier_score):
        with pytest.raises(ValueError, match=f"y_prob.*{value}.*position {position}") as info:
            f([1, 0, 1], p)
        assert info.value.param == "y_prob"


def test_bad_weights_are_refused():
    with pytest.raises(ValueError, match=r"sample_weight must be non-negative, got -1\.0 at position 1"):
        log_loss([1, 0], [0.5, 0.5], sample_weight=[1, -1])
    with pytest.raises(ValueError, match="every sample weight is 0") as info:
        brier_score([1, 0], [0.5, 0.5], sample_weight=[0, 0])
    assert info.value.param == "sample_weight"
    with pytest.raises(ValueError, match="sample_weight"):
        brier_score([1, 0], [0.5, 0.5], sample_weight=[1, 1, 1])
    with pytest.raises(TypeError, match="sample_weight"):
        brier_score([1, 0], [0.5, 0.5], sample_weight=["a", "b"])


def test_three_classes_are_refused():
    with pytest.raises(ValueError, match="two classes"):
        log_loss([0, 1, 2], [0.5, 0.5, 0.5])


def test_import_apples_gives_both():
    assert apples.log_loss is log_loss and apples.brier_score is brier_score
