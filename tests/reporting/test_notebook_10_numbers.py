"""The numbers notebook 10 (how to report a cross-validated result) quotes, recomputed without apples.

Every split of the notebook's splitters is fitted here with scikit-learn (a clone per split, the sample weights
given to the fit as scikit-learn takes them), and each quoted number is recomputed from those out-of-fold
predictions with scikit-learn's metrics, scipy and numpy: the pooled, averaged and jackknife values, the corrected
repeated k-fold t (Nadeau & Bengio 2003; Bouckaert & Frank 2004) written out, Holm's adjustment, the Bayesian
correlated t's posterior (Benavoli et al. 2017) and Iman & Davenport's F over the data sets (Demšar 2006).

They come out of trained models, so their last digits depend on the CPU (CONTRIBUTING.md, "Checked outputs"):
each is asserted within TOL (half a percentage point) of what the notebook says. Counts and shares from the data
alone are exact.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer, load_digits, load_iris, load_wine, make_multilabel_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import (
    accuracy_score,
    balanced_accuracy_score,
    f1_score,
    matthews_corrcoef,
    precision_score,
    recall_score,
    roc_auc_score,
)
from sklearn.model_selection import KFold, RepeatedKFold, RepeatedStratifiedKFold
from sklearn.multiclass import OneVsRestClassifier
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

import apples

#: Tolerance of a trained model's value quoted by the notebook, as a fraction (half a percentage point).
TOL = 0.005

MODELS = {
    "logistic regression": make_pipeline(StandardScaler(), LogisticRegression()),
    "naive Bayes": GaussianNB(),
    "tree": DecisionTreeClassifier(max_depth=3, random_state=0),
}
CV = RepeatedStratifiedKFold(n_splits=5, n_repeats=5, random_state=0)
K, R = 5, 5


def _breast_cancer():
    X, target = load_breast_cancer(return_X_y=True)
    y = (target == 0).astype(int)  # malignant is 0 in scikit-learn
    w = np.where(y == 1, 0.10 / y.mean(), 0.90 / (1 - y.mean()))
    return X[:, :10], y, w


DATA = {
    "breast cancer": _breast_cancer(),
    "wine": (*load_wine(return_X_y=True), None),
    "iris (sepals)": (load_iris().data[:, :2], load_iris().target, None),
    "digits": (*load_digits(n_class=5, return_X_y=True), None),
}


def _fit(model, X, y, w):
    if w is None:
        return model.fit(X, y)
    if isinstance(model, Pipeline):  # a pipeline's fit takes the last step's weights by name
        return model.fit(X, y, **{f"{model.steps[-1][0]}__sample_weight": w})
    return model.fit(X, y, sample_weight=w)


def _out_of_fold(model, X, y, w, splits):
    """Per repeat: each row's prediction, score (positive label's probability, or every label's) and fold."""
    n = len(y)
    out = []
    for r in range(len(splits) // K):
        pred = np.empty(y.shape, dtype=y.dtype)
        score = None
        fold = np.empty(n, dtype=int)
        for f, (train, test) in enumerate(splits[K * r : K * r + K]):
            fitted = _fit(clone(model), X[train], y[train], None if w is None else w[train])
            pred[test] = fitted.predict(X[test])
            proba = fitted.predict_proba(X[test])
            if score is None:
                score = np.empty((n, proba.shape[1]))
            score[test] = proba
            fold[test] = f
        out.append((pred, score[:, 1] if score.shape[1] == 2 and y.ndim == 1 else score, fold))
    return out


@pytest.fixture(scope="module")
def study():
    """(data set, model) -> per repeat (pred, score, fold), on the notebook's 5 x 5 stratified splits."""
    out = {}
    for d, (X, y, w) in DATA.items():
        splits = list(CV.split(X, y))
        for m, model in MODELS.items():
            out[d, m] = _out_of_fold(model, X, y, w, splits)
    return out


def _pooled(study, key, metric, **kw):
    """The mean over the repeats of ``metric`` on each repeat's pooled predictions (weighted where the data are)."""
    _, y, w = DATA[key[0]]
    return float(np.mean([metric(y, pred, sample_weight=w, **kw) for pred, _, _ in study[key]]))


def _centred_pseudo(values_without, value):
    """One repeat's leave-one-fold-out jackknife pseudo-values k·V − (k − 1)·V₋f, shifted to mean V."""
    k = len(values_without)
    pseudo = k * value - (k - 1) * np.asarray(values_without)
    return pseudo - pseudo.mean() + value


def _jackknife_points(study, key, metric):
    """The J = r·k centred pseudo-values of a pooled metric, and its value (the mean over repeats)."""
    _, y, w = DATA[key[0]]
    points, values = [], []
    for pred, _, fold in study[key]:
        v = metric(y, pred, sample_weight=w)
        without = [metric(y[fold != f], pred[fold != f], sample_weight=None if w is None else w[fold != f])
                   for f in range(K)]  # fmt: skip
        points.append(_centred_pseudo(without, v))
        values.append(v)
    return np.concatenate(points), float(np.mean(values))


def _corrected_t(points, n, k, value=None, confidence=0.95):
    """Nadeau & Bengio's corrected t over J points: (mean or value) ± t_{J−1} √((1/J + n_test/n_train) S²)."""
    j = points.size
    n_test = n / k
    half = stats.t.ppf(0.5 + confidence / 2, j - 1) * np.sqrt((1 / j + n_test / (n - n_test)) * np.var(points, ddof=1))
    centre = points.mean() if value is None else value
    return centre - half, centre + half


def _corrected_p(d, n, k):
    j = d.size
    n_test = n / k
    t = d.mean() / np.sqrt((1 / j + n_test / (n - n_test)) * np.var(d, ddof=1))
    return 2 * stats.t.sf(abs(t), j - 1)


def _holm(p):
    """Holm's step-down adjustment (Holm 1979), written out."""
    p = np.asarray(p, dtype=float)
    order = np.argsort(p)
    m = p.size
    adjusted = np.empty(m)
    running = 0.0
    for i, idx in enumerate(order):
        running = max(running, (m - i) * p[idx])
        adjusted[idx] = min(1.0, running)
    return adjusted


# -- exact: the data ---------------------------------------------------------------------------------------------
def test_the_data_sets_and_the_weights():
    _, y, w = DATA["breast cancer"]
    assert [len(v[1]) for v in DATA.values()] == [569, 178, 150, 901]
    assert [len(np.unique(v[1])) for v in DATA.values()] == [2, 3, 3, 5]
    assert f"{y.mean():.1%}" == "37.3%"
    assert np.average(y, weights=w) == pytest.approx(0.10, abs=1e-12)
    assert np.mean(w) == pytest.approx(1.0, abs=1e-12)  # "mean weight 1" in the methods paragraph


def _rare():
    """30 malignant cases among the 357 benign ones, three features (fs.breast_cancer_one_vs_rest, written out)."""
    X_all, target = load_breast_cancer(return_X_y=True)
    malignant, benign = np.flatnonzero(target == 0), np.flatnonzero(target == 1)
    keep = np.sort(np.concatenate([benign, np.random.default_rng(0).choice(malignant, size=30, replace=False)]))
    return X_all[keep][:, [1, 4, 9]], (target[keep] == 0).astype(int)


def test_positives_per_unstratified_fold():
    X, y = _rare()
    assert (len(y), int(y.sum())) == (387, 30)
    folds = KFold(n_splits=20, shuffle=True, random_state=0).split(X)
    assert [int(y[test].sum()) for _, test in folds] == [1, 1, 2, 0, 0, 0, 1, 3, 1, 3, 1, 2, 0, 2, 2, 2, 3, 3, 1, 2]


# -- section 3: one report ---------------------------------------------------------------------------------------
@pytest.mark.trained
def test_section_3_f1_and_its_interval(study):
    key = ("breast cancer", "logistic regression")
    points, value = _jackknife_points(study, key, f1_score)
    assert value == pytest.approx(0.871, abs=TOL)
    low, high = _corrected_t(points, 569, K, value)
    assert (low, high) == (pytest.approx(0.812, abs=TOL), pytest.approx(0.930, abs=TOL))


@pytest.mark.trained
def test_section_3_wine_macro_f1_and_the_multi_label_subset_accuracy(study):
    assert _pooled(study, ("wine", "logistic regression"), f1_score, average="macro") == pytest.approx(0.982, abs=TOL)
    X, Y = make_multilabel_classification(n_samples=200, n_features=8, n_classes=3, random_state=0)
    cv = RepeatedKFold(n_splits=5, n_repeats=5, random_state=0)
    model = OneVsRestClassifier(LogisticRegression())
    per_repeat = _out_of_fold(model, X, Y, None, list(cv.split(X, Y)))
    subset = np.mean([accuracy_score(Y, pred) for pred, _, _ in per_repeat])  # every label of a case right
    assert subset == pytest.approx(0.487, abs=TOL)
    macro = np.mean([f1_score(Y, pred, average="macro") for pred, _, _ in per_repeat])
    assert macro == pytest.approx(0.816, abs=TOL)
    hamming = np.mean([np.mean(pred != Y) for pred, _, _ in per_repeat])
    assert hamming == pytest.approx(0.209, abs=TOL)


# -- section 4: the five F on rare positives -------------------------------------------------------------------
@pytest.mark.trained
def test_section_4_the_five_f_and_the_interval_of_f_tp_fp():
    X, y = _rare()
    model = make_pipeline(StandardScaler(), LogisticRegression(class_weight="balanced"))
    splits = list(KFold(n_splits=20, shuffle=True, random_state=0).split(X))
    pred = np.empty(len(y), dtype=int)
    for train, test in splits:
        pred[test] = clone(model).fit(X[train], y[train]).predict(X[test])
    masks = [np.isin(np.arange(len(y)), test) for _, test in splits]
    valid = [y[m].sum() > 0 and pred[m].sum() > 0 for m in masks]  # V^(i): precision and recall defined
    assert sum(not v for v in valid) == 5  # "five folds, not four"
    f_folds = [f1_score(y[m], pred[m], zero_division=0) for m in masks]
    p_folds = [precision_score(y[m], pred[m], zero_division=0) for m in masks]
    r_folds = [recall_score(y[m], pred[m], zero_division=0) for m in masks]

    def f_of(p, r):
        return 2 * p * r / (p + r)

    assert f1_score(y, pred) == pytest.approx(0.326, abs=TOL)  # F_tp,fp
    assert np.mean(f_folds) == pytest.approx(0.265, abs=TOL)  # F_avg: a fold with V = 0 counts 0
    assert f_of(np.mean(p_folds), np.mean(r_folds)) == pytest.approx(0.287, abs=TOL)  # F_pr,re
    kept = np.array(valid)
    assert np.mean(np.array(f_folds)[kept]) == pytest.approx(0.354, abs=TOL)  # F~_avg
    f_skip = f_of(np.mean(np.array(p_folds)[kept]), np.mean(np.array(r_folds)[kept]))
    assert f_skip == pytest.approx(0.383, abs=TOL)  # F~_pr,re
    value = f1_score(y, pred)
    fold = np.empty(len(y), dtype=int)
    for f, m in enumerate(masks):
        fold[m] = f
    without = [f1_score(y[fold != f], pred[fold != f]) for f in range(20)]
    low, high = _corrected_t(_centred_pseudo(without, value), len(y), 20, value)
    assert (low, high) == (pytest.approx(0.189, abs=TOL), pytest.approx(0.463, abs=TOL))


# -- section 5: Youden's J --------------------------------------------------------------------------------------
@pytest.mark.trained
def test_section_5_youden_j_is_twice_the_balanced_accuracy_less_one(study):
    key = ("breast cancer", "logistic regression")
    ba = _pooled(study, key, balanced_accuracy_score)
    j = _pooled(study, key, balanced_accuracy_score, adjusted=True)  # scikit-learn's adjusted form: TPR + TNR - 1
    assert ba == pytest.approx(0.9008, abs=TOL) and j == pytest.approx(0.8016, abs=TOL)
    assert j == pytest.approx(2 * ba - 1, abs=1e-12)


# -- section 6: the models compared on the same folds -----------------------------------------------------------
@pytest.mark.trained
def test_section_6_differences_holm_and_the_bayesian_correlated_t(study):
    (lr, v_lr), (nb, v_nb), (tree, v_tree) = (_jackknife_points(study, ("breast cancer", m), f1_score) for m in MODELS)
    assert v_lr - v_nb == pytest.approx(0.115, abs=TOL)
    assert v_lr - v_tree == pytest.approx(0.097, abs=TOL)
    raw = [_corrected_p(a - b, 569, K) for a, b in ((lr, nb), (lr, tree), (nb, tree))]
    holm = _holm(raw)
    assert holm[0] == pytest.approx(0.014, abs=TOL) and holm[1] == pytest.approx(0.014, abs=TOL)
    assert holm[2] == pytest.approx(0.684, abs=TOL)
    # the correlated t posterior of naive Bayes minus the tree (rho = 1/k): P(|difference| <= 0.01)
    d = nb - tree
    rho = 1 / K
    scale = np.sqrt((1 / d.size + rho / (1 - rho)) * np.var(d, ddof=1))
    posterior = stats.t(d.size - 1, loc=d.mean(), scale=scale)
    assert posterior.cdf(0.01) - posterior.cdf(-0.01) == pytest.approx(0.173, abs=TOL)
    assert posterior.cdf(-0.01) == pytest.approx(0.567, abs=TOL)


# -- section 7: across the data sets ------------------------------------------------------------------------------
def _accuracies(study, models):
    """Data sets x models: pooled accuracy, the mean over the repeats (weighted on breast cancer)."""
    return np.array([[_pooled(study, (d, m), accuracy_score) for m in models] for d in DATA])


def _robust_ranks(values):
    """Average ranks (1 = best) of data sets x models, once no two models of a data set lie within TOL of each other:
    ranks are preferences between trained models, so first show that moving one value within the tolerance cannot
    reorder them."""
    for row in values:
        gaps = np.abs(row[:, None] - row[None, :])[np.triu_indices(row.size, 1)]
        assert gaps.min() > TOL, row
    return stats.rankdata(-values, axis=1).mean(axis=0)


@pytest.mark.trained
def test_section_7_ranks_and_iman_davenport(study):
    acc = _accuracies(study, MODELS)
    ranks = _robust_ranks(acc)
    assert ranks.tolist() == [1.0, 2.25, 2.75]
    chi2 = stats.friedmanchisquare(*acc.T).statistic
    n, k = acc.shape
    f_f = (n - 1) * chi2 / (n * (k - 1) - chi2)
    p = stats.f.sf(f_f, k - 1, (k - 1) * (n - 1))
    assert p == pytest.approx(0.007, abs=TOL)
    # Nemenyi's critical difference at alpha = 0.05 (Demšar eq. 5): q_0.05 for k = 3 is 2.343
    cd = 2.343 * np.sqrt(k * (k + 1) / (6 * n))
    assert ranks[2] - ranks[0] > cd > ranks[1] - ranks[0] and cd > ranks[2] - ranks[1]


def test_section_7_what_four_data_sets_can_show():
    # Wilcoxon's smallest two-sided p on N = 4 data sets, all favouring one model: 2 / 2^4; Holm over 3 pairs x 3
    x = np.array([0.9, 0.8, 0.7, 0.6])
    p = stats.wilcoxon(x, x - np.array([0.01, 0.02, 0.03, 0.04]), alternative="two-sided").pvalue
    assert p == pytest.approx(2 / 2**4) and min(1, 3 * p) == pytest.approx(0.375)
    assert min(n for n in range(1, 20) if 3 * 2 / 2**n <= 0.05) == 7
    assert min(n for n in range(1, 20) if 6 * 2 / 2**n <= 0.05) == 8


# -- section 9: the command line's CSV has no case ids -----------------------------------------------------------
def test_section_9_a_repeated_weighted_report_reads_the_same_without_case_ids():
    X, y, w = DATA["breast cancer"]
    cv = RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=0)
    p = apples.cross_val_predictions(GaussianNB(), X, y, cv=cv, sample_weight=w)
    frame = p.to_frame().drop(columns="case")
    again = apples.CVPredictions.from_frame(
        frame, y_pred="y_pred", y_score="y_score", repeats="repeat", sample_weight="sample_weight"
    )
    measures = ["f_measure", "mcc", "roc_auc", "h_measure"]
    assert (
        apples.report(p, measures=measures, confidence=0.95).to_dict()
        == apples.report(again, measures=measures, confidence=0.95).to_dict()
    )


# -- the exercises --------------------------------------------------------------------------------------------
@pytest.mark.trained
def test_exercise_1_weighted_and_unweighted(study):
    key = ("breast cancer", "logistic regression")
    X, y, w = DATA["breast cancer"]
    assert _pooled(study, key, matthews_corrcoef) == pytest.approx(0.861, abs=TOL)
    auc = np.mean(
        [roc_auc_score(y[fold == f], score[fold == f], sample_weight=w[fold == f])
         for _, score, fold in study[key] for f in range(K)]
    )  # fmt: skip
    assert auc == pytest.approx(0.985, abs=TOL)
    plain = _out_of_fold(MODELS["logistic regression"], X, y, None, list(CV.split(X, y)))
    assert np.mean([f1_score(y, pred) for pred, _, _ in plain]) == pytest.approx(0.917, abs=TOL)
    assert np.mean([matthews_corrcoef(y, pred) for pred, _, _ in plain]) == pytest.approx(0.869, abs=TOL)
    auc_plain = np.mean([roc_auc_score(y[fold == f], score[fold == f]) for _, score, fold in plain for f in range(K)])
    assert auc_plain == pytest.approx(0.985, abs=TOL)
