"""Tests of apples.hmeasure: the H-measure, its ROC convex hull and its Beta prior.

Independent sources: the PyPI ``hmeasure`` package (a port of Hand's R
package; it needs scores in [0, 1]), quadrature of the definition with
scipy.integrate.quad, brute force over every ROC point, and hand calculations.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hmeasure import h_score
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate
from scipy.stats import beta as beta_dist

import apples
from apples import h_measure
from apples.metrics import HMeasureResult, ROCHull, h_measure_details, h_measure_prior, minimum_loss, roc_convex_hull


@st.composite
def scored(draw, max_n: int = 30):
    """(y_true, y_score in [0, 1]) with both classes, often with ties."""
    n = draw(st.integers(2, max_n))
    rest = draw(st.lists(st.integers(0, 1), min_size=n - 2, max_size=n - 2))
    y = np.array(draw(st.permutations([1, 0, *rest])))
    tied = st.lists(st.integers(0, 4).map(lambda k: k / 4), min_size=n, max_size=n)
    real = st.lists(st.floats(0, 1, allow_nan=False), min_size=n, max_size=n)
    return y, np.array(draw(st.one_of(tied, real)))


def _loss_by_quadrature(y, s, a, b):
    """L and L_max of the definition, by adaptive quadrature (independent of betainc)."""
    hull = roc_convex_hull(y, s)
    pi1 = np.mean(y == 1)
    breaks = sorted(set(hull.cost_low.tolist()) | {pi1})
    u = beta_dist(a, b).pdf
    loss = integrate.quad(
        lambda c: minimum_loss(hull, c) * u(c), 0, 1, points=breaks, epsabs=1e-13, epsrel=1e-12, limit=500
    )[0]
    max_loss = integrate.quad(
        lambda c: min(c * (1 - pi1), (1 - c) * pi1) * u(c), 0, 1, points=[pi1], epsabs=1e-13, epsrel=1e-12
    )[0]
    return loss, max_loss


# ---------------------------------------------------------------- cross-check: PyPI hmeasure
_PACKAGE_PRIORS = [  # (our keywords, the package's severity_ratio)
    ({}, None),
    ({"severity_ratio": 1.0}, 1.0),
    ({"severity_ratio": 0.3}, 0.3),
    ({"severity_ratio": 4.0}, 4.0),
    ({"prior": "hand2014"}, -1.0),  # the package's (and R's) negative ratio selects Beta(pi1 + 1, pi0 + 1)
]


@settings(max_examples=60)
@given(scored())
def test_matches_pypi_hmeasure(data):
    y, s = data
    for ours, theirs in _PACKAGE_PRIORS:
        assert h_measure(y, s, **ours) == pytest.approx(h_score(y, s, severity_ratio=theirs), abs=1e-12)


@pytest.mark.parametrize("case", ["random", "tied", "skewed", "reversed", "half_reversed", "perfect", "constant"])
def test_matches_pypi_hmeasure_adversarial(case):
    rng = np.random.default_rng(2011)
    n = 500
    y = rng.integers(0, 2, n)
    s = {
        "random": rng.random(n),
        "tied": rng.integers(0, 6, n) / 5,
        "skewed": rng.random(n),
        "reversed": 1 - (y + rng.random(n)) / 2,
        "half_reversed": np.where(rng.random(n) < 0.5, y, 1 - y) * 0.5 + rng.random(n) * 0.5,
        "perfect": (y + rng.random(n)) / 2,
        "constant": np.full(n, 0.5),
    }[case]
    if case == "skewed":
        y = (rng.random(n) < 0.03).astype(int)
        y[:2] = [1, 0]
    for ours, theirs in _PACKAGE_PRIORS:
        assert h_measure(y, s, **ours) == pytest.approx(h_score(y, s, severity_ratio=theirs), abs=1e-12)


@pytest.mark.parametrize(
    "keywords, documented",
    [
        ({}, 0.18889596344769588),
        ({"severity_ratio": 0.7}, 0.13502616807120948),
        ({"prior": "hand2014"}, 0.18310946512079307),  # the package's severity_ratio=-0.7
        ({"severity_ratio": 0.1}, 0.001212529211507385),
        ({"severity_ratio": 0.5}, 0.10750123502531805),
    ],
)
def test_values_documented_in_pypi_hmeasure_docstring(keywords, documented):
    # the example of hmeasure.h_score's docstring (version 0.1.6), same data generation
    rng = np.random.default_rng(66)
    y = rng.integers(low=0, high=2, size=10)
    assert y.tolist() == [1, 1, 0, 1, 1, 0, 1, 1, 1, 0]
    y_pred = rng.random(10)
    assert h_measure(y, y_pred, **keywords) == pytest.approx(documented, abs=1e-12)


def test_flip_matches_pypi_hmeasure_on_reversed_scores():
    # R flips (s -> 1 - s) and warns; the PyPI port does not flip, so compare with its value on 1 - s
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 300)
    s = np.clip(0.5 - 0.2 * (y - 0.5) + rng.normal(0, 0.25, 300), 0, 1)
    assert apples.roc_auc(y, s) < 0.5
    with pytest.warns(UserWarning, match="switching scores"):
        flipped = h_measure_details(y, s, worse_than_random="flip")
    assert flipped.flipped
    assert flipped.h == pytest.approx(h_score(y, 1 - s), abs=1e-12)
    assert flipped.h > 0.1 and h_measure(y, s) < flipped.h


# ---------------------------------------------------------------- exact integration vs quadrature
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("keywords", [{}, {"severity_ratio": 1}, {"severity_ratio": 0.2}, {"prior": "hand2014"}])
def test_exact_integral_matches_quadrature(seed, keywords):
    rng = np.random.default_rng(seed)
    n = 60
    y = (rng.random(n) < [0.5, 0.2, 0.7, 0.1][seed]).astype(int)
    y[:2] = [1, 0]
    s = np.round(y * 0.8 + rng.normal(0, 1, n), 1)  # rounding makes ties
    r = h_measure_details(y, s, **keywords)
    loss, max_loss = _loss_by_quadrature(y, s, r.alpha, r.beta)
    assert r.loss == pytest.approx(loss, abs=1e-10)
    assert r.max_loss == pytest.approx(max_loss, abs=1e-10)
    assert r.h == pytest.approx(1 - loss / max_loss, abs=1e-9)


# ---------------------------------------------------------------- the hull
@settings(max_examples=80)
@given(scored())
def test_hull_is_the_upper_convex_hull(data):
    y, s = data
    hull = roc_convex_hull(y, s)
    fpr, tpr, thr = apples.roc_curve(y, s)
    assert (hull.fpr[0], hull.tpr[0], hull.fpr[-1], hull.tpr[-1]) == (0, 0, 1, 1)
    # vertices are ROC points with their own thresholds
    for x, yv, t in zip(hull.fpr, hull.tpr, hull.thresholds, strict=True):
        i = np.flatnonzero(thr == t)[0]
        assert (fpr[i], tpr[i]) == (x, yv)
    # strictly concave: edge slopes (as exact costs) strictly decrease
    assert np.all(np.diff(hull.cost_high[1:]) < 0)
    # every ROC point lies on or below the hull (exact in counts)
    P, N = hull.n_pos, hull.n_neg
    for fp_i, tp_i in zip(np.round(fpr * N), np.round(tpr * P), strict=True):
        j = np.searchsorted(hull.fp, fp_i, side="right") - 1
        j = min(j, len(hull.fp) - 2)
        x0, y0, x1, y1 = hull.fp[j], hull.tp[j], hull.fp[j + 1], hull.tp[j + 1]
        assert (x1 - x0) * (tp_i - y0) - (y1 - y0) * (fp_i - x0) <= 0  # on or below the edge j -> j+1


@settings(max_examples=80)
@given(scored(), st.lists(st.floats(0, 1), min_size=1, max_size=5))
def test_minimum_loss_is_minimum_over_all_roc_points(data, costs):
    y, s = data
    fpr, tpr, _ = apples.roc_curve(y, s)
    pi1 = np.mean(y)
    c = np.array(costs)[:, None]
    brute = (c * (1 - pi1) * fpr + (1 - c) * pi1 * (1 - tpr)).min(axis=1)
    np.testing.assert_allclose(minimum_loss(roc_convex_hull(y, s), costs), brute, atol=1e-15)


def test_hull_hand_example_with_tie():
    # ranked: + (0.9), {+, -} tied at 0.5, - (0.1): ROC (0,0) (0,.5) (.5,1) (1,1); all are vertices
    h = roc_convex_hull([1, 1, 0, 0], [0.9, 0.5, 0.5, 0.1])
    assert h.fpr.tolist() == [0, 0, 0.5, 1] and h.tpr.tolist() == [0, 0.5, 1, 1]
    assert h.thresholds.tolist() == [np.inf, 0.9, 0.5, 0.1]
    # the tie edge adds 1 positive and 1 negative: the vertices tie at c = 1/2
    assert h.cost_low.tolist() == [1, 0.5, 0, 0] and h.cost_high.tolist() == [1, 1, 0.5, 0]


def test_hull_drops_points_under_the_diagonal():
    # reversed ranking: only the diagonal remains
    h = roc_convex_hull([0, 0, 1, 1], [0.9, 0.8, 0.3, 0.1])
    assert h.fpr.tolist() == [0, 1] and h.tpr.tolist() == [0, 1]
    assert h.cost_low.tolist() == [0.5, 0] and h.cost_high.tolist() == [1, 0.5]


# ---------------------------------------------------------------- the prior
def test_prior_shapes():
    # R default: severity ratio pi1/pi0 -> Beta(2, 1 + pi0/pi1)
    assert h_measure_prior(0.2) == (2.0, 5.0)
    assert h_measure_prior(0.2, severity_ratio=1) == (2.0, 2.0)  # Hand 2009
    assert h_measure_prior(0.2, severity_ratio=0.5) == (2.0, 3.0)
    assert h_measure_prior(0.2, prior="hand2014") == pytest.approx((1.2, 1.8), abs=1e-15)
    assert h_measure_prior(0.5) == (2.0, 2.0)  # balanced classes: the default is Hand's Beta(2, 2)
    # the mode of Beta(2, 1 + 1/r) is r/(1 + r)
    a, b = h_measure_prior(0.3, severity_ratio=3.0)
    assert (a - 1) / (a + b - 2) == pytest.approx(0.75, abs=1e-15)


def test_default_prior_is_severity_ratio_pi1_over_pi0():
    rng = np.random.default_rng(3)
    y = (rng.random(80) < 0.25).astype(int)
    s = y + rng.normal(0, 1, 80)
    p = y.mean()
    assert h_measure(y, s) == h_measure(y, s, severity_ratio=p / (1 - p))
    r = h_measure_details(y, s)
    assert (r.alpha, r.beta) == pytest.approx((2.0, 1 + (1 - p) / p), abs=1e-14)


# ---------------------------------------------------------------- values and properties
def test_hand_calculation_hand2014_prior_perfect_and_diagonal():
    y, s = [1, 1, 0, 0], [0.9, 0.8, 0.3, 0.1]
    for kw in ({}, {"severity_ratio": 1}, {"prior": "hand2014"}):
        r = h_measure_details(y, s, **kw)
        assert r.loss == 0.0 and r.h == 1.0  # the perfect vertex (0, 1) loses nothing at any c
        r = h_measure_details(y, [0.5] * 4, **kw)
        assert r.h == 0.0 and r.loss == r.max_loss


def test_hand_calculation_uniform_like_prior():
    # Beta(2, 2) (severity_ratio=1) on y = 1 0 1 0 ranked 0.9 0.8 0.3 0.1: see the doctest of
    # h_measure_details: L = 2 · ∫_0^{1/2} (c/4) 6c(1 - c) dc = 5/64, L_max = 5/32, H = 1/2
    r = h_measure_details([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1], severity_ratio=1)
    assert r.loss == pytest.approx(5 / 64, abs=1e-15)
    assert r.max_loss == pytest.approx(5 / 32, abs=1e-15)
    assert r.h == pytest.approx(0.5, abs=1e-14)


@settings(max_examples=100)
@given(
    scored(),
    st.sampled_from(
        [{}, {"severity_ratio": 1}, {"severity_ratio": 7.0}, {"prior": "hand2014"}, {"worse_than_random": "flip"}]
    ),
)
def test_h_in_unit_interval(data, keywords):
    y, s = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the flip warning
        r = h_measure_details(y, s, **keywords)
    assert 0.0 <= r.h <= 1.0
    assert 0.0 <= r.loss <= r.max_loss + 1e-15


@settings(max_examples=60)
@given(st.integers(1, 30), st.integers(1, 30), st.floats(0.01, 100))
def test_perfect_ranking_scores_one(n_pos, n_neg, sr):
    y = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
    s = np.r_[np.linspace(2, 3, n_pos), np.linspace(0, 1, n_neg)]
    assert h_measure(y, s) == 1.0
    assert h_measure(y, s, severity_ratio=sr) == 1.0
    assert h_measure(y, s, prior="hand2014") == 1.0


def test_worse_than_random_literal_and_flip():
    y, s = [0, 0, 1, 1], [0.9, 0.8, 0.3, 0.1]  # perfectly reversed
    assert h_measure(y, s) == 0.0  # literal: the hull is the diagonal
    with pytest.warns(UserWarning, match="mostly lying under the diagonal"):
        assert h_measure(y, s, worse_than_random="flip") == 1.0
    # no flip (and no warning) at AUC >= 1/2
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = h_measure_details([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1], worse_than_random="flip")
    assert not r.flipped and r.h == h_measure([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1])


def test_positive_label_keyword():
    y = np.array(["a", "b", "a", "b", "b"])
    s = [0.9, 0.7, 0.6, 0.2, 0.1]
    assert h_measure(y, s, pos_label="a") == h_measure([1, 0, 1, 0, 0], s)


def test_result_types():
    r = h_measure_details([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1])
    assert isinstance(r, HMeasureResult) and type(r.h) is float and type(r.flipped) is bool
    assert isinstance(roc_convex_hull([1, 0], [1, 0]), ROCHull)
    assert type(h_measure([1, 0], [1, 0])) is float


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "y, s, error, match",
    [
        ([1, 1, 1], [0.1, 0.2, 0.3], ValueError, "only one class"),
        ([0, 0], [0.1, 0.2], ValueError, "only one class"),
        ([1, 0, 1], [0.1, np.nan, 0.3], ValueError, "y_score contains NaN"),
        ([1, 0, 1], [0.1, np.inf, 0.3], ValueError, "y_score contains an infinite"),
        ([1, 0, 2], [0.1, 0.2, 0.3], ValueError, "y_true must hold two classes"),
        ([1, 0, 1], [0.1, 0.2], ValueError, "inconsistent lengths"),
        ([1, 0], ["a", "b"], TypeError, "y_score must be numeric"),
    ],
)
@pytest.mark.parametrize("func", [h_measure, h_measure_details, roc_convex_hull])
def test_bad_scores_and_labels(func, y, s, error, match):
    with pytest.raises(error, match=match):
        func(y, s)


@pytest.mark.parametrize(
    "sr, error, match",
    [
        (0, ValueError, "severity_ratio must be a positive finite number, got 0"),
        (-1.0, ValueError, "prior='hand2014' here"),
        (np.nan, ValueError, "severity_ratio must be a positive finite"),
        (np.inf, ValueError, "severity_ratio must be a positive finite"),
        (True, TypeError, "severity_ratio must be a positive number or None"),
        ("2", TypeError, "severity_ratio must be a positive number or None"),
    ],
)
def test_bad_severity_ratio(sr, error, match):
    with pytest.raises(error, match=match):
        h_measure([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1], severity_ratio=sr)
    with pytest.raises(error, match=match):
        h_measure_prior(0.5, severity_ratio=sr)


def test_bad_options():
    y, s = [1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1]
    with pytest.raises(ValueError, match="prior='beta22' is not recognised"):
        h_measure(y, s, prior="beta22")
    with pytest.raises(ValueError, match="severity_ratio must be None with prior='hand2014'"):
        h_measure(y, s, prior="hand2014", severity_ratio=1)
    with pytest.raises(ValueError, match="worse_than_random='warn' is not recognised"):
        h_measure(y, s, worse_than_random="warn")
    for pi1 in (0, 1, -0.1, 1.5, np.nan):
        with pytest.raises(ValueError, match="pi1 must be a proportion"):
            h_measure_prior(pi1)
    with pytest.raises(TypeError, match=r"hull must be an apples.metrics.ROCHull"):
        minimum_loss((np.array([0, 1]), np.array([0, 1])), 0.5)
    hull = roc_convex_hull(y, s)
    for c in (-0.1, 1.1, np.nan):
        with pytest.raises(ValueError, match=r"cost must lie in \[0, 1\]"):
            minimum_loss(hull, c)


# ---------------------------------------------------------------- sample weights
@settings(max_examples=40, deadline=None)
@given(scored(), st.lists(st.integers(0, 3), min_size=30, max_size=30))
def test_integer_weights_are_repeated_rows_and_pypi_hmeasure_agrees(data, counts):
    y, s = data
    w = np.array(counts[: y.size])
    rows = np.repeat(np.arange(y.size), w)
    if len(set(y[rows].tolist())) < 2:
        return
    for ours, theirs in _PACKAGE_PRIORS:
        weighted = h_measure(y, s, sample_weight=w, **ours)
        assert weighted == pytest.approx(h_measure(y[rows], s[rows], **ours), abs=1e-12)
        assert weighted == pytest.approx(h_score(y[rows], s[rows], severity_ratio=theirs), abs=1e-12)


def test_weighted_details_scale_free_and_the_float_hull():
    rng = np.random.default_rng(21)
    y = rng.integers(0, 2, 400)
    s = np.round(rng.random(400) + 0.4 * y, 2)
    w = rng.random(400) * 2
    base = h_measure_details(y, s, sample_weight=w, severity_ratio=0.7)
    for scale in (1e-300, 1e300):
        r = h_measure_details(y, s, sample_weight=w * scale, severity_ratio=0.7)
        assert r.h == pytest.approx(base.h, rel=1e-12) and r.loss == pytest.approx(base.loss, rel=1e-12)
    # the hull of float sums, against quadrature of the definition on the weighted ROC points (brute force:
    # the minimum loss over every ROC point at each cost, not the hull)
    keep = w > 0
    order = np.argsort(-s)
    ys, ss, ws = y[order], s[order], w[order]
    last = np.r_[ss[1:] != ss[:-1], True]
    tp = np.r_[0.0, np.cumsum(np.where(ys == 1, ws, 0.0))[last]]
    fp = np.r_[0.0, np.cumsum(np.where(ys == 1, 0.0, ws))[last]]
    n_pos, n_neg = tp[-1], fp[-1]
    n = n_pos + n_neg
    a, b = base.alpha, base.beta
    u = beta_dist(a, b).pdf
    loss = integrate.quad(
        lambda c: np.min(c * fp / n + (1 - c) * (n_pos - tp) / n) * u(c), 0, 1, limit=2000, epsabs=1e-13
    )[0]
    assert keep.all() and base.loss == pytest.approx(loss, abs=1e-9)


def test_weighted_flip_and_one_class_among_positive_weights():
    y = np.array([1, 0, 1, 0, 1, 0])
    s = np.array([0.1, 0.9, 0.2, 0.8, 0.3, 0.4])  # worse than random
    w = np.array([1.0, 2.0, 1.0, 0.5, 3.0, 1.0])
    with pytest.warns(UserWarning, match="switching scores"):
        flipped = h_measure_details(y, s, sample_weight=w, worse_than_random="flip")
    assert flipped.flipped and flipped.h == pytest.approx(h_measure(y, 1 - s, sample_weight=w), abs=1e-12)
    assert h_measure(y, s, sample_weight=w) == 0.0
    with pytest.raises(ValueError, match="positive weight") as info:
        h_measure(y, s, sample_weight=[1.0, 0.0, 1.0, 0.0, 1.0, 0.0])  # no negative weighs anything
    assert info.value.param == "y_true"
    # a case of weight 0 is left out
    assert h_measure(y, s, sample_weight=np.r_[w[:5], 0.0]) == pytest.approx(
        h_measure(y[:5], s[:5], sample_weight=w[:5])
    )
