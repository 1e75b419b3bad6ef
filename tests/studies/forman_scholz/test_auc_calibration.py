"""Tests for apples.auc_calibration: the controlled §3.2 demonstration and its helpers.

Expected values come from Forman & Scholz (2010) §3.2 (per-fold AUCs
96/91/94/87%, AUC_avg 92%, AUC_merge 80%, 38 positives of 1504 cases), from
the construction's own guarantee stated as a formula (Mann–Whitney count =
round(target · P · N)), and from scikit-learn.
"""

import re
import warnings

import matplotlib.pyplot as plt  # the root conftest selects the Agg backend
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import StratifiedKFold, cross_val_predict, cross_val_score
from sklearn.svm import LinearSVC

import apples
from apples import cv_roc_auc, roc_auc
from apples.cv import percent
from apples.cv.ranking import auc_table
from apples.studies import forman_scholz as fs
from apples.studies.forman_scholz.calibration import (
    CalibrationStudy,
    scores_with_auc,
    section32_study,
    stratified_fold_sizes,
)
from apples.studies.forman_scholz.datasets import digits_one_vs_rest, fold_scores
from apples.studies.forman_scholz.explorers import calibration_explorer
from apples.studies.forman_scholz.figures import plot_figure3, plot_fold_rocs, plot_rate_vs_score

PAPER_FOLDS = ["96%", "91%", "94%", "87%"]  # Forman & Scholz §3.2


def _flat(y_folds, s_folds):
    """Per-fold lists as flat arrays and fold ids 1..k."""
    y = np.concatenate([np.asarray(t) for t in y_folds])
    s = np.concatenate([np.asarray(v, dtype=float) for v in s_folds])
    return y, s, np.concatenate([np.full(len(t), i + 1) for i, t in enumerate(y_folds)])


def _per_fold(folds, *arrays):
    """Each array split by fold id (in sorted order): one tuple of arrays per fold."""
    return [tuple(np.asarray(a)[folds == k] for a in arrays) for k in np.unique(folds)]


@pytest.fixture(scope="module")
def study():
    return section32_study()


# -- the construction reproduces §3.2 -----------------------------------------------------------------------
def test_fold_sizes_match_the_paper():
    # §3.2: 38 positives (2.5%) in the 1504-row dataset of §3.1, 4 stratified folds of 376
    sizes = stratified_fold_sizes(38, 1504, 4)
    assert sizes == [(10, 366), (10, 366), (9, 367), (9, 367)]
    assert percent(38 / 1504, decimals=1) == "2.5%"
    # scikit-learn's StratifiedKFold gives the same multiset of fold counts
    y = np.r_[np.ones(38, dtype=int), np.zeros(1466, dtype=int)]
    skf = StratifiedKFold(4, shuffle=True, random_state=0)
    sk = sorted((int(y[te].sum()), int((y[te] == 0).sum())) for _, te in skf.split(np.zeros(1504), y))
    assert sk == sorted(sizes)


def test_per_fold_aucs_hit_the_paper(study):
    folds = _per_fold(study.folds, study.y_true, study.scores())
    for (y, s), target, printed in zip(folds, (0.96, 0.91, 0.94, 0.87), PAPER_FOLDS, strict=True):
        p, n = int(y.sum()), int((y == 0).sum())
        assert round(roc_auc(y, s) * p * n) == round(target * p * n)  # the closest achievable AUC
        assert abs(roc_auc(y, s) - target) <= 0.5 / (p * n)
        assert percent(roc_auc(y, s)) == printed
        assert roc_auc(y, s) == pytest.approx(roc_auc_score(y, s), abs=1e-12)


def test_auc_avg_and_merge_hit_the_paper(study):
    y, s, f = study.y_true, study.scores(), study.folds
    assert percent(cv_roc_auc(y, s, folds=f, method="avg")) == "92%"
    merged = cv_roc_auc(y, s, folds=f, method="merge")
    assert round(merged * 38 * 1466) == round(0.80 * 38 * 1466)  # = 44566, closest to 80%
    assert abs(merged - 0.80) <= 0.5 / (38 * 1466)
    assert percent(merged) == "80%"
    assert merged == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    assert int(y.sum()) == 38 and y.size == 1504
    # the flat arrays are the per-fold arrays, fold after fold
    np.testing.assert_array_equal(y, np.concatenate(study.y_true_folds))
    assert f.tolist() == [k for k, t in enumerate(study.y_true_folds, start=1) for _ in t]


def test_two_folds_aligned_two_shifted(study):
    # Figure 3: "only two of the folds happen to align; two other curves are greatly shifted"
    assert study.shifts[:2] == (0.0, 0.0)
    assert study.shifts[2] == -study.shifts[3] > 0.3  # at least a factor 2 in score
    assert study.scales == (1.0,) * 4
    assert np.all(study.scores() > 0)  # positive, for the log axis
    # aligning the folds raises the merged AUC towards the average
    aligned = study.scores(shifts=(0, 0, 0, 0))
    assert cv_roc_auc(study.y_true, aligned, folds=study.folds, method="merge") > 0.85


@settings(max_examples=40)
@given(st.lists(st.floats(-3, 3), min_size=4, max_size=4), st.lists(st.floats(0.25, 4), min_size=4, max_size=4))
def test_auc_avg_does_not_move_with_shifts_and_scales(study, shifts, scales):
    y, f = study.y_true, study.folds
    base = cv_roc_auc(y, study.log_scores(), folds=f, method="avg")
    assert cv_roc_auc(y, study.log_scores(shifts, scales), folds=f, method="avg") == pytest.approx(base, abs=1e-12)


def test_merge_moves_with_shifts(study):
    s = study
    values = {
        round(cv_roc_auc(s.y_true, s.log_scores((0, 0, d, -d)), folds=s.folds, method="merge"), 6)
        for d in (0, 0.5, 1, 2)
    }
    assert len(values) == 4


@given(st.integers(1, 15), st.integers(1, 40), st.floats(0, 1), st.integers(0, 2**32 - 1))
def test_scores_with_auc_count_is_exact(p, n, target, seed):
    y, z = scores_with_auc(p, n, target, rng=np.random.default_rng(seed))
    assert y.sum() == p and y.size == p + n
    assert round(roc_auc(y, z) * p * n * 2) == 2 * round(target * p * n)
    assert not np.isin(z[y == 1], z[y == 0]).any()  # no positive–negative ties


def test_other_seed_and_targets():
    s = section32_study(seed=7, fold_aucs=(0.9, 0.8), merged_auc=0.7, n_positives=20, n_cases=400, moved=(0, 1))
    per_fold = _per_fold(s.folds, s.y_true, s.scores())
    # 0.9 and 0.8 of 10 x 190 pairs
    assert [round(roc_auc(t, v) * t.sum() * (t.size - t.sum())) for t, v in per_fold] == [1710, 1520]
    assert round(cv_roc_auc(s.y_true, s.scores(), folds=s.folds, method="merge") * 20 * 380) == round(0.7 * 20 * 380)


# -- bad input ---------------------------------------------------------------------------------------------
def test_bad_input(study):
    with pytest.raises(ValueError, match="n_positives=5 is larger"):
        stratified_fold_sizes(5, 4, 2)
    with pytest.raises(ValueError, match="n_cases=3 is smaller than n_folds=4"):
        stratified_fold_sizes(1, 3, 4)
    with pytest.raises(ValueError, match="n_folds must be between 2 and"):  # two folds at least (theory's N_FOLDS)
        stratified_fold_sizes(1, 3, 1)
    with pytest.raises(TypeError, match="n_positives"):
        stratified_fold_sizes(1.5, 3, 1)
    with pytest.raises(TypeError, match=r"rng must be a numpy\.random\.Generator"):
        scores_with_auc(2, 2, 0.5, rng=0)
    with pytest.raises(ValueError, match="target_auc"):
        scores_with_auc(2, 2, 1.5, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="at least 1"):
        scores_with_auc(0, 2, 0.5, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="out of reach"):
        section32_study(merged_auc=0.99)
    with pytest.raises(ValueError, match="moved must name two different folds"):
        section32_study(moved=(1, 1))
    s = study
    with pytest.raises(ValueError, match="scales must be positive"):
        s.scores(scales=(1, 1, 0, 1))
    with pytest.raises(ValueError, match="shifts has 3 values but the study has 4 folds"):
        s.scores(shifts=(0, 0, 0))
    with pytest.raises(ValueError, match=r"shifts\[2\] must be a number, got NaN"):
        s.scores(shifts=(0, 0, np.nan, 0))
    with pytest.raises(ValueError, match=r"scales\[0\] must be finite"):
        s.log_scores(scales=(np.inf, 1, 1, 1))


# -- table ---------------------------------------------------------------------------------------------------
def test_auc_table_policies():
    y, s, f = [1, 0, 0, 0, 0, 0], [3, 2, 1, 0.3, 0.2, 0.1], [1, 1, 1, 2, 2, 2]
    with pytest.raises(apples.UndefinedMetricError, match=r"^fold 2: "):
        auc_table(y, s, folds=f)
    t = auc_table(y, s, folds=f, undefined="skip")
    assert np.isnan(t.loc[2, "auc"])
    assert t.loc["AUC_avg", "auc"] == 1.0
    # merged: the positive (3) beats all five negatives
    assert t.loc["AUC_merge", "auc"] == 1.0
    assert t.loc["AUC_merge", "positives"] == 1 and t.loc["AUC_merge", "negatives"] == 5


# -- real classifier: the tools' two conventions -------------------------------------------------------------
def test_digits_task():
    X, y = digits_one_vs_rest(8, n_positives=38, seed=0)
    assert X.shape == (1797 - 174 + 38, 64)  # load_digits has 174 eights
    assert y.sum() == 38
    X2, y2 = digits_one_vs_rest(8, n_positives=38, seed=0)
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(y, y2)
    assert digits_one_vs_rest(8, n_positives=None)[1].sum() == 174
    with pytest.raises(ValueError, match="digit must be"):
        digits_one_vs_rest(10)
    with pytest.raises(ValueError, match="n_positives must lie in"):
        digits_one_vs_rest(8, n_positives=500)


def test_fold_scores_match_sklearn_conventions():
    X, y = digits_one_vs_rest(8, n_positives=38, seed=0)
    cv = StratifiedKFold(4, shuffle=True, random_state=0)
    est = LinearSVC(C=1.0, dual=False)
    yt, ys, f = fold_scores(est, X, y, cv=cv)
    # the test folds one after another, fold ids 1..4 in the splitter's order
    tests = [test for _, test in cv.split(X, y)]
    np.testing.assert_array_equal(yt, y[np.concatenate(tests)])
    assert f.tolist() == [k for k, test in enumerate(tests, start=1) for _ in test]
    # cross_val_score averages per-fold AUCs: AUC_avg
    assert cv_roc_auc(yt, ys, folds=f, method="avg") == pytest.approx(
        cross_val_score(est, X, y, cv=cv, scoring="roc_auc").mean(), abs=1e-12
    )
    # scoring the pooled out-of-fold decision values merges them: AUC_merge
    pooled = cross_val_predict(est, X, y, cv=cv, method="decision_function")
    assert cv_roc_auc(yt, ys, folds=f, method="merge") == pytest.approx(roc_auc_score(y, pooled), abs=1e-12)
    with pytest.raises(ValueError, match="response='predict'"):
        fold_scores(est, X, y, cv=cv, response="predict")


def test_sklearn_one_class_fold_is_nan():
    # what the notebook says about scikit-learn >= 1.6: a one-class fold scores NaN (with a warning)
    y = np.r_[np.ones(2, dtype=int), np.zeros(6, dtype=int)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.isnan(roc_auc_score(y[2:], np.arange(6.0)))
    assert np.isnan(
        cv_roc_auc(y, np.r_[np.arange(4.0), np.arange(4.0)], folds=[1] * 4 + [2] * 4, method="avg", undefined="nan")
    )


# -- plots and explorer ------------------------------------------------------------------------------------------
def test_plots_return_axes(study):
    fig, axes = plt.subplots(1, 2)
    assert plot_figure3(study.y_true, study.scores(), folds=study.folds, ax=axes) is fig
    assert axes[0].get_xscale() == "log" and axes[0].get_ylabel() == "False positive rate (%)"
    # the plotted FPR of fold 1 starts at 100% and ends at 0% (share of negatives >= threshold)
    ydata = axes[0].lines[0].get_ydata()
    assert ydata[0] == 100.0 and ydata[-1] == 0.0
    _, ax = plt.subplots()
    assert plot_fold_rocs(study.y_true, study.scores(), folds=study.folds, ax=ax) is ax
    assert "AUC_merge 80.0%" in ax.get_legend_handles_labels()[1][-1]
    expected = [f"fold {k}: AUC {v}.0%" for k, v in zip(range(1, 5), (96, 91, 94, 87), strict=True)]
    assert ax.get_legend_handles_labels()[1][:4] == expected
    with pytest.raises(ValueError, match="positive scores"):
        plot_rate_vs_score([1, 0], [0.5, -1.0], folds=[1, 1], ax=ax)
    with pytest.raises(ValueError, match=r"rate='ppv'"):
        plot_rate_vs_score([1, 0], [0.5, 1.0], folds=[1, 1], rate="ppv", ax=ax)
    with pytest.raises(ValueError, match=r"^fold 2: y_true has only one class there"):
        plot_fold_rocs([1, 0, 0, 0], [0.5, 0.25, 0.5, 0.25], folds=[1, 1, 2, 2], ax=ax)
    plt.close("all")


def _parse(html):
    return dict(re.findall(r"<td>([^<]+)</td><td>([^<]+)</td>", html))


def test_explorer_updates_merge_not_avg(study):
    ex = calibration_explorer(study, plot=False)
    start = _parse(ex.result.value)
    assert [start[str(i)] for i in range(1, 5)] == ["96.0%", "91.0%", "94.0%", "87.0%"]
    assert start["AUC_avg"] == "92.0%" and start["AUC_merge"] == "80.0%"
    ex.shifts[2].value = 0.0
    ex.shifts[3].value = 0.0
    ex.scales[0].value = 2.0
    after = _parse(ex.result.value)
    assert after["AUC_avg"] == "92.0%"
    expected = cv_roc_auc(study.y_true, study.scores((0, 0, 0, 0), (2, 1, 1, 1)), folds=study.folds, method="merge")
    assert after["AUC_merge"] == percent(expected, decimals=1) != "80.0%"


def test_explorer_with_plot(study):
    ex = calibration_explorer(study, plot=True)
    assert ex.plot is not None and ex.widget.children[-1] is ex.plot
    ex.shifts[0].value = 0.5
    assert _parse(ex.result.value)["AUC_avg"] == "92.0%"
    plt.close("all")


def test_study_is_frozen(study):
    assert isinstance(study, CalibrationStudy)
    with pytest.raises(AttributeError):
        study.shifts = (0, 0, 0, 0)


# -- merge decomposition ----------------------------------------------------------------------------------
def _pairs(pos, neg):
    """Brute-force Mann–Whitney count over all pairs (ties 1/2)."""
    d = np.subtract.outer(np.asarray(pos, float), np.asarray(neg, float))
    return float((d > 0).sum() + 0.5 * (d == 0).sum())


@st.composite
def fold_lists(draw):
    k = draw(st.integers(2, 4))
    ys, ss = [], []
    for _ in range(k):
        n = draw(st.integers(2, 12))
        y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
        y[0], y[1] = 1, 0
        ys.append(y)
        ss.append(np.array(draw(st.lists(st.integers(0, 6), min_size=n, max_size=n)), dtype=float))
    return ys, ss


@given(fold_lists())
def test_merge_decomposition_against_brute_force(data):
    ys, ss = data
    y_all, s_all, f_all = _flat(ys, ss)
    d = apples.merge_decomposition(y_all, s_all, folds=f_all)
    within_u = sum(_pairs(s[y == 1], s[y == 0]) for y, s in zip(ys, ss, strict=True))
    within_n = sum((y == 1).sum() * (y == 0).sum() for y in ys)
    between_u = sum(
        _pairs(ss[i][ys[i] == 1], ss[j][ys[j] == 0]) for i in range(len(ys)) for j in range(len(ys)) if i != j
    )
    between_n = sum((ys[i] == 1).sum() * (ys[j] == 0).sum() for i in range(len(ys)) for j in range(len(ys)) if i != j)
    assert d.within == pytest.approx(within_u / within_n, abs=1e-12)
    assert d.between == pytest.approx(between_u / between_n, abs=1e-12)
    assert d.within_share == pytest.approx(within_n / (within_n + between_n), abs=1e-12)
    assert d.merged == pytest.approx(d.within_share * d.within + (1 - d.within_share) * d.between, abs=1e-12)


def test_merge_decomposition_of_the_study(study):
    y, s, f = study.y_true, study.scores(), study.folds
    d = apples.merge_decomposition(y, s, folds=f)
    # hand: within pairs 2 x 10 x 366 + 2 x 9 x 367 = 13926 of 38 x 1466 = 55708
    assert d.within_share == pytest.approx(13926 / 55708, abs=1e-15)
    assert d.merged == pytest.approx(cv_roc_auc(y, s, folds=f, method="merge"), abs=1e-15)
    assert d.merged == pytest.approx(roc_auc_score(y, s), abs=1e-12)


def test_merge_decomposition_undefined():
    with pytest.raises(apples.UndefinedMetricError, match="AUC_between"):
        apples.merge_decomposition([1, 0], [0.9, 0.1], folds=[1, 1])
    d = apples.merge_decomposition([1, 0], [0.9, 0.1], folds=[1, 1], undefined="nan")
    assert d.within == 1.0 and np.isnan(d.between)
    with pytest.raises(ValueError, match="undefined='skip'"):
        apples.merge_decomposition([1, 0], [0.9, 0.1], folds=[1, 1], undefined="skip")


# -- WEKA-style calibration on the training scores (SMO -M, default -V -1) --------------------------------------
def _platt_on_training_margins(f, y):
    """Platt (1999) by hand: targets (N+ + 1)/(N+ + 2) and 1/(N- + 2), p = 1 / (1 + exp(A f + B))."""
    from scipy.optimize import minimize
    from scipy.special import expit

    n_pos, n_neg = int(y.sum()), int((1 - y).sum())
    t = np.where(y == 1, (n_pos + 1) / (n_pos + 2), 1 / (n_neg + 2))

    def loss(ab):
        z = -(ab[0] * f + ab[1])  # log-odds of the positive class
        return np.sum(np.logaddexp(0, z) - t * z)

    a, b = minimize(
        loss, x0=[-1.0, 0.0], method="Nelder-Mead", options={"xatol": 1e-10, "fatol": 1e-12, "maxiter": 20000}
    ).x
    return lambda g: expit(-(a * g + b))


def test_training_set_calibration_is_platt_fitted_on_training_margins():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(300, 3))
    y = (X[:, 0] + rng.normal(scale=1.5, size=300) > 1.0).astype(int)  # overlapping classes, ~25% positives
    model = fs.TrainingSetCalibration(LinearSVC(C=1.0, dual=False)).fit(X, y)
    svm = LinearSVC(C=1.0, dual=False).fit(X, y)
    by_hand = _platt_on_training_margins(svm.decision_function(X), y)
    X_new = rng.normal(size=(50, 3))
    assert model.predict_proba(X_new)[:, 1] == pytest.approx(by_hand(svm.decision_function(X_new)), abs=1e-4)
    assert np.allclose(model.predict_proba(X_new).sum(axis=1), 1.0)


def test_training_set_calibration_keeps_each_fold_auc_but_moves_merge():
    X, y = digits_one_vs_rest(8, n_positives=38, seed=0)
    cv = StratifiedKFold(4, shuffle=True, random_state=0)
    svm = LinearSVC(C=1.0, dual=False)
    yt, margins, f = fold_scores(svm, X, y, cv=cv)
    yt2, probs, f2 = fold_scores(fs.TrainingSetCalibration(svm), X, y, cv=cv, response="predict_proba")
    assert np.array_equal(yt, yt2) and np.array_equal(f, f2)
    # a sigmoid with a positive slope is strictly increasing: every fold's AUC is the raw margin's
    for t, m, p in _per_fold(f, yt, margins, probs):
        assert roc_auc(t, p) == pytest.approx(roc_auc(t, m), abs=1e-12)
        assert np.all((p > 0) & (p < 1))
    assert cv_roc_auc(yt2, probs, folds=f, method="avg") == pytest.approx(
        cv_roc_auc(yt, margins, folds=f, method="avg"), abs=1e-12
    )
    # the sigmoid fitted on (nearly separable) training margins is steep: probabilities span many decades
    assert probs.min() < 1e-10
    assert cv_roc_auc(yt2, probs, folds=f, method="merge") != pytest.approx(
        cv_roc_auc(yt, margins, folds=f, method="merge"), abs=1e-6
    )


def test_training_set_calibration_rejects_bad_input():
    X, y = np.arange(20.0).reshape(10, 2), np.r_[np.zeros(5, dtype=int), np.ones(5, dtype=int)]
    with pytest.raises(ValueError, match="method='platt'"):
        fs.TrainingSetCalibration(LinearSVC(), method="platt").fit(X, y)
    with pytest.raises(TypeError, match="estimator must be"):
        fs.TrainingSetCalibration().fit(X, y)
    with pytest.raises(ValueError, match="invalid parameter 'C'"):
        fs.TrainingSetCalibration(LinearSVC()).set_params(C=2)
    from sklearn.base import clone

    c = clone(fs.TrainingSetCalibration(LinearSVC(C=0.5), method="isotonic"))
    assert c.method == "isotonic" and c.estimator.C == 0.5


def test_eight_is_the_hardest_digit_for_the_linear_svm():
    # notebook 02, Section 5: with all positives, 8-vs-rest has the lowest 4-fold AUC_avg (97.7%), the others >= 98.9%
    result = {}
    for digit in range(10):
        X, y = digits_one_vs_rest(digit, n_positives=None)
        yt, ys, f = fold_scores(LinearSVC(C=1.0, dual=False), X, y, cv=StratifiedKFold(4, shuffle=True, random_state=0))
        result[digit] = cv_roc_auc(yt, ys, folds=f, method="avg")
    assert min(result, key=result.get) == 8
    # independent of apples: scikit-learn's mean of per-fold roc_auc on the same splits
    X, y = digits_one_vs_rest(8, n_positives=None)
    sk = cross_val_score(
        LinearSVC(C=1.0, dual=False), X, y, cv=StratifiedKFold(4, shuffle=True, random_state=0), scoring="roc_auc"
    ).mean()
    assert result[8] == pytest.approx(sk, abs=1e-12)
    assert percent(sk, decimals=1) == "97.7%"
    assert percent(result[8], decimals=1) == "97.7%"
    assert min(v for d, v in result.items() if d != 8) >= 0.9885


def test_leave_one_out_merge_of_a_prior_only_model_is_zero():
    # notebook 02, Exercise 5: held-out positives score (P-1)/(n-1), held-out negatives P/(n-1), so AUC_merge = 0
    from sklearn.dummy import DummyClassifier
    from sklearn.model_selection import LeaveOneOut

    X, y = digits_one_vs_rest(8, n_positives=38, seed=0)
    X, y = X[:200], y[:200]
    P, n = int(y.sum()), len(y)
    labels, scores, f = fold_scores(DummyClassifier(strategy="prior"), X, y, cv=LeaveOneOut(), response="predict_proba")
    assert f.tolist() == list(range(1, n + 1))  # one case per fold
    assert np.allclose(scores[labels == 1], (P - 1) / (n - 1)) and np.allclose(scores[labels == 0], P / (n - 1))
    assert cv_roc_auc(labels, scores, folds=f, method="merge") == 0.0


def test_merge_decomposition_pooled_one_class():
    # no positives anywhere: no pairs at all, so every part is 0/0 and follows the policy
    ys, ss, f = [0, 0, 0], [1, 2, 3], [1, 1, 2]
    with pytest.raises(apples.UndefinedMetricError, match="AUC_merge"):
        apples.merge_decomposition(ys, ss, folds=f)
    assert all(np.isnan(v) for v in apples.merge_decomposition(ys, ss, folds=f, undefined="nan"))
    with pytest.raises(ValueError, match="undefined"):  # a 0/0 AUC is not 0: merge_decomposition allows raise|nan
        apples.merge_decomposition(ys, ss, folds=f, undefined="zero")
