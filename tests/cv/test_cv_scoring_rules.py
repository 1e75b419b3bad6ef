"""Cross-validated log loss, Brier score and reliability table, against scikit-learn fold by fold."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apples.cv import (
    CVPredictions,
    cv_brier_score,
    cv_log_loss,
    reliability_table,
    scoring_rules_table,
)

sk = pytest.importorskip("sklearn.metrics")
calibration = pytest.importorskip("sklearn.calibration")


def _data(seed: int = 0, n: int = 300, k: int = 5):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    p = np.clip(0.3 * y + 0.7 * rng.random(n), 0.0, 1.0)
    folds = rng.integers(0, k, n)  # unequal fold sizes
    w = rng.random(n) * 2
    return y, p, folds, w


@pytest.mark.parametrize("weighted", [False, True])
def test_fold_values_and_pooled_value_match_scikit_learn(weighted):
    y, p, folds, w = _data()
    sw = w if weighted else None
    ll = cv_log_loss(y, p, folds=folds, sample_weight=sw)
    br = cv_brier_score(y, p, folds=folds, sample_weight=sw)
    for f in np.unique(folds):
        m = folds == f
        fw = None if sw is None else sw[m]
        assert ll.fold_values[f] == pytest.approx(sk.log_loss(y[m], p[m], sample_weight=fw, labels=[0, 1]), rel=1e-12)
        assert br.fold_values[f] == pytest.approx(sk.brier_score_loss(y[m], p[m], sample_weight=fw), rel=1e-12)
        assert ll.fold_sizes[f] == pytest.approx(m.sum() if sw is None else sw[m].sum(), rel=1e-12)
    assert ll.pooled == pytest.approx(sk.log_loss(y, p, sample_weight=sw), rel=1e-12)
    assert br.pooled == pytest.approx(sk.brier_score_loss(y, p, sample_weight=sw), rel=1e-12)
    assert ll.mean == pytest.approx(ll.fold_values.mean(), rel=1e-12)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(st.booleans(), st.floats(0.0, 1.0), st.integers(0, 3), st.floats(0.01, 4.0)),
        min_size=1,
        max_size=40,
    ),
    st.booleans(),
)
def test_pooled_is_the_fold_size_weighted_mean_of_the_fold_values(cases, weighted):
    """For a mean of per-case losses, Σ_f n_f (Σ_{i in f} l_i / n_f) / Σ_f n_f = Σ_i l_i / n: pooling and
    averaging weighted by fold size agree (for F or AUC they do not, Forman & Scholz §2-§3)."""
    y = np.array([int(c[0]) for c in cases])
    p = np.array([c[1] for c in cases])
    folds = np.array([c[2] for c in cases])
    w = np.array([c[3] for c in cases]) if weighted else None
    for f in (cv_log_loss, cv_brier_score):
        r = f(y, p, folds=folds, sample_weight=w)
        v, n = r.fold_values.to_numpy(), r.fold_sizes.to_numpy()
        if np.isinf(v).any():
            assert r.pooled == math.inf
            continue
        assert r.pooled == pytest.approx(np.sum(n * v) / np.sum(n), rel=1e-9, abs=1e-15)
        # and the plain mean is the unweighted one
        assert r.mean == pytest.approx(np.mean(v), rel=1e-9, abs=1e-15)


def test_a_certain_mistake_makes_its_fold_and_the_pooled_log_loss_infinite():
    r = cv_log_loss([1, 0, 1, 0], [0.5, 0.5, 0.0, 0.5], folds=[0, 0, 1, 1])
    assert r.fold_values.tolist() == [pytest.approx(math.log(2)), math.inf]
    assert r.pooled == math.inf and r.mean == math.inf


def test_equal_folds_make_pooled_and_mean_equal_unequal_ones_do_not():
    # fold 0: four cases, Brier 1/16 each; fold 1: two cases, 1/4 each (hand calculation)
    r = cv_brier_score([1, 0, 1, 0, 1, 1], [0.75, 0.25, 0.75, 0.25, 0.5, 0.5], folds=[0, 0, 0, 0, 1, 1])
    assert r.pooled == (4 / 16 + 2 / 4) / 6
    assert r.mean == (1 / 16 + 1 / 4) / 2


def test_string_labels_and_fold_ids():
    y = np.array(["ham", "spam", "ham", "spam"])
    p_ham = np.array([0.75, 0.5, 0.25, 0.125])
    r = cv_brier_score(y, p_ham, folds=["b", "a", "b", "a"], pos_label="ham")
    assert r.fold_values.index.tolist() == ["a", "b"]
    assert r.fold_values["a"] == (0.5**2 + 0.125**2) / 2
    assert r.fold_values["b"] == (0.25**2 + 0.75**2) / 2


def test_a_fold_of_zero_weight_is_refused_naming_it():
    with pytest.raises(ValueError, match="sample_weight sums to 0 in fold 1") as info:
        cv_log_loss([1, 0, 1, 0], [0.5] * 4, folds=[0, 0, 1, 1], sample_weight=[1, 1, 0, 0])
    assert info.value.param == "sample_weight"


def test_scoring_rules_table_from_predictions_with_repeats():
    y, p, _, w = _data(1, n=120)
    folds = np.tile(np.arange(4), 30)
    repeats = np.repeat([0, 1], 60)
    table = scoring_rules_table(CVPredictions(y, folds=folds, y_score=p, repeats=repeats), sample_weight=w)
    assert table.folds.shape == (8, 5) and table.pooled["repeat"].tolist() == [0, 1]
    for r in (0, 1):
        m = repeats == r
        row = table.pooled.set_index("repeat").loc[r]
        assert row["log_loss"] == pytest.approx(sk.log_loss(y[m], p[m], sample_weight=w[m]), rel=1e-12)
        assert row["brier_score"] == pytest.approx(sk.brier_score_loss(y[m], p[m], sample_weight=w[m]), rel=1e-12)
        for f in range(4):
            c = m & (folds == f)
            got = table.folds[(table.folds["repeat"] == r) & (table.folds["fold"] == f)].iloc[0]
            assert got["brier_score"] == pytest.approx(sk.brier_score_loss(y[c], p[c], sample_weight=w[c]), rel=1e-12)
            assert got["size"] == pytest.approx(w[c].sum(), rel=1e-12)


def test_scoring_rules_table_refuses_what_is_not_a_probability():
    with pytest.raises(ValueError, match=r"y_score .* got 2\.0 at row 1") as info:
        scoring_rules_table(CVPredictions([1, 0, 1, 0], folds=[0, 0, 1, 1], y_score=[0.5, 2.0, 0.5, 0.5]))
    assert info.value.param == "predictions"
    with pytest.raises(ValueError, match="no y_score"):
        scoring_rules_table(CVPredictions([1, 0, 1, 0], folds=[0, 0, 1, 1], y_pred=[1, 0, 1, 0]))
    with pytest.raises(ValueError, match="multi-class"):
        scoring_rules_table(CVPredictions([0, 1, 2, 0], folds=[0, 0, 1, 1], y_pred=[0, 1, 2, 0]))


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_reliability_table_matches_scikit_learn_calibration_curve(strategy):
    y, p, folds, _ = _data(2)
    t = reliability_table(CVPredictions(y, folds=folds, y_score=p), n_bins=8, strategy=strategy)
    prob_true, prob_pred = calibration.calibration_curve(y, p, n_bins=8, strategy=strategy)
    filled = t.pooled[t.pooled["count"] > 0]
    np.testing.assert_allclose(filled["observed"], prob_true, rtol=1e-12)
    np.testing.assert_allclose(filled["mean_predicted"], prob_pred, rtol=1e-12)
    assert t.pooled["count"].sum() == y.size and set(t.pooled["repeat"]) == {0}
    # each fold against scikit-learn on the fold's cases (uniform bins are the same for every subset)
    if strategy == "uniform":
        for f in np.unique(folds):
            m = folds == f
            pt, pp = calibration.calibration_curve(y[m], p[m], n_bins=8)
            rows = t.by_fold[(t.by_fold["fold"] == f) & (t.by_fold["count"] > 0)]
            np.testing.assert_allclose(rows["observed"], pt, rtol=1e-12)
            np.testing.assert_allclose(rows["mean_predicted"], pp, rtol=1e-12)
    # the folds' counts add up to the pooled counts, bin by bin
    np.testing.assert_allclose(t.by_fold.groupby("bin")["count"].sum().to_numpy(), t.pooled["count"].to_numpy())


def test_reliability_bins_by_hand_with_weights_and_edges():
    # edges 0, 1/2, 1: p = 0.5 lies in the first bin (edges[i] < p <= edges[i + 1]); weights 1, 3, 1, 1
    predictions = CVPredictions(
        [1, 0, 1, 0], folds=[0, 0, 1, 1], y_score=[0.5, 0.25, 1.0, 0.75], sample_weight=[1, 3, 1, 1]
    )
    t = reliability_table(predictions, n_bins=2)
    first = t.pooled.iloc[0]
    assert first["count"] == 4 and first["observed"] == 0.25 and first["mean_predicted"] == (0.5 + 3 * 0.25) / 4
    second = t.pooled.iloc[1]
    assert second["count"] == 2 and second["observed"] == 0.5 and second["mean_predicted"] == 0.875
    assert math.isnan(t.by_fold.iloc[1]["observed"])  # fold 0 has nothing above 1/2
    assert list(t.by_fold.columns[:2]) == ["repeat", "fold"]


# -- from apples.cross_val_predictions on real data: weights and repeats honoured ------------------------------------
@pytest.fixture(scope="module")
def cancer_weighted():
    """Breast cancer, RepeatedStratifiedKFold(5 × 2), a logistic regression fitted with weights: the predictions
    carry the weights (every 40th case weighs 0)."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import RepeatedStratifiedKFold
    from sklearn.preprocessing import StandardScaler

    import apples

    X, y = load_breast_cancer(return_X_y=True)
    w = np.random.default_rng(5).uniform(0.1, 4.0, y.size)
    w[::40] = 0.0
    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0)
    X = StandardScaler().fit_transform(X)
    return apples.cross_val_predictions(LogisticRegression(max_iter=2000), X, y, cv=cv, params={"sample_weight": w})


def test_scoring_rules_table_uses_the_predictions_weights_fold_by_fold(cancer_weighted):
    p = cancer_weighted
    assert p.sample_weight is not None and p.n_repeats == 2
    table = scoring_rules_table(p)
    assert len(table.folds) == 10 and table.pooled["repeat"].tolist() == [0, 1]
    for r in (0, 1):
        m = p.repeats == r
        w = p.sample_weight[m]
        row = table.pooled.set_index("repeat").loc[r]
        assert row["log_loss"] == pytest.approx(sk.log_loss(p.y_true[m], p.y_score[m], sample_weight=w), rel=1e-9)
        assert row["brier_score"] == pytest.approx(
            sk.brier_score_loss(p.y_true[m], p.y_score[m], sample_weight=w), rel=1e-9
        )
        for f in range(5):
            c = m & (p.folds == f)
            got = table.folds[(table.folds["repeat"] == r) & (table.folds["fold"] == f)].iloc[0]
            fw = p.sample_weight[c]
            assert got["log_loss"] == pytest.approx(sk.log_loss(p.y_true[c], p.y_score[c], sample_weight=fw), rel=1e-9)
            assert got["brier_score"] == pytest.approx(
                sk.brier_score_loss(p.y_true[c], p.y_score[c], sample_weight=fw), rel=1e-9
            )
            assert got["size"] == pytest.approx(fw.sum(), rel=1e-12)
    # the unweighted values differ: the weights changed what is reported
    plain = scoring_rules_table(CVPredictions(p.y_true, folds=p.folds, repeats=p.repeats, y_score=p.y_score))
    assert not np.allclose(plain.folds["log_loss"], table.folds["log_loss"], rtol=1e-3)


def test_weights_given_twice_are_refused_naming_sample_weight(cancer_weighted):
    p = cancer_weighted
    with pytest.raises(ValueError, match="sample_weight is given twice") as info:
        scoring_rules_table(p, sample_weight=p.sample_weight)
    assert info.value.param == "sample_weight"
    # predictions without weights take them from the argument: the same table
    bare = CVPredictions(p.y_true, folds=p.folds, repeats=p.repeats, y_score=p.y_score)
    a, b = scoring_rules_table(bare, sample_weight=p.sample_weight), scoring_rules_table(p)
    np.testing.assert_array_equal(a.folds.to_numpy(), b.folds.to_numpy())
    with pytest.raises(ValueError, match="sample_weight has 3 values") as info:
        scoring_rules_table(bare, sample_weight=[1.0, 2.0, 3.0])
    assert info.value.param == "sample_weight"


def test_reliability_table_uses_the_predictions_weights_and_repeats(cancer_weighted):
    p = cancer_weighted
    t = reliability_table(p, n_bins=4)
    assert sorted(set(t.pooled["repeat"])) == [0, 1] and len(t.by_fold) == 2 * 5 * 4
    b = np.clip(np.searchsorted(t.edges[1:-1], p.y_score, side="left"), 0, 3)
    for r in (0, 1):
        for i in range(4):
            c = (p.repeats == r) & (b == i)
            w = p.sample_weight[c]
            row = t.pooled[(t.pooled["repeat"] == r) & (t.pooled["bin"] == i)].iloc[0]
            assert row["count"] == pytest.approx(w.sum(), rel=1e-12)
            assert row["observed"] == pytest.approx(np.average(p.y_true[c], weights=w), rel=1e-12)
            assert row["mean_predicted"] == pytest.approx(np.average(p.y_score[c], weights=w), rel=1e-12)


@pytest.fixture(scope="module")
def iris_probabilities():
    from sklearn.datasets import load_iris
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold
    from sklearn.preprocessing import StandardScaler

    import apples

    data = load_iris()
    X, y = StandardScaler().fit_transform(data.data), data.target_names[data.target]
    model = LogisticRegression(C=0.1, max_iter=2000)
    return apples.cross_val_predictions(model, X, y, cv=StratifiedKFold(n_splits=5))


def test_multi_class_probabilities_are_refused_by_the_scoring_rules_and_binned_per_label(iris_probabilities):
    p = iris_probabilities
    with pytest.raises(ValueError, match="predictions are multi-class") as info:
        scoring_rules_table(p)
    assert info.value.param == "predictions"
    with pytest.raises(ValueError, match="give label=") as info:
        reliability_table(p)
    assert info.value.param == "label"
    t = reliability_table(p, label="virginica", n_bins=5)
    prob_true, prob_pred = calibration.calibration_curve(p.y_true == "virginica", p.y_score[:, 2], n_bins=5)
    filled = t.pooled[t.pooled["count"] > 0]
    np.testing.assert_allclose(filled["observed"], prob_true, rtol=1e-12)
    np.testing.assert_allclose(filled["mean_predicted"], prob_pred, rtol=1e-12)
    with pytest.raises(ValueError, match="label='rose' is not a label") as info:
        reliability_table(p, label="rose")
    assert info.value.param == "label"
