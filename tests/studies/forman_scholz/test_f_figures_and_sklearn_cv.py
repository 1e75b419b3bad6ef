"""Figure-1 helpers against eq. (2), and the scikit-learn cross-validation identities notebook 01 states."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score
from sklearn.model_selection import StratifiedKFold, cross_val_predict, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import apples
from apples import Counts


@given(st.integers(1, 50), st.integers(0, 50), st.integers(0, 500), st.integers(1, 500))
def test_f_from_rates_equals_eq2_on_integer_counts(tp, fn, fp, tn):
    pos, neg = tp + fn, fp + tn
    f = apples.theory.f_from_rates(tp / pos, fp / neg, prior=pos / (pos + neg))
    assert f == pytest.approx(apples.f_measure(Counts(tp, fp, fn, tn)), rel=1e-12)


def test_f_of_tp_equals_eq2():
    for tp in range(5):
        assert apples.theory.f_of_tp(tp, positives=4, fp=3) == pytest.approx(apples.f_measure(Counts(tp, 3, 4 - tp)))


def test_f_of_tp_is_concave():
    t = np.linspace(0, 10, 101)
    f = apples.theory.f_of_tp(t, positives=10, fp=2)
    assert np.all(np.diff(f, 2) < 0)


@pytest.mark.parametrize(
    "prior, error, match",
    [
        (0, ValueError, "prior must be > 0"),
        (1, ValueError, "prior must be < 1"),
        (-0.1, ValueError, "prior must be > 0"),
        (1.5, ValueError, "prior must be < 1"),
        ("0.1", TypeError, "prior must be a real number"),
    ],
)
def test_f_from_rates_bad_prior(prior, error, match):
    with pytest.raises(error, match=match):
        apples.theory.f_from_rates(0.5, 0.5, prior=prior)


def test_f_from_rates_bad_rates_and_f_of_tp_bad_input():
    with pytest.raises(ValueError, match=r"fpr must lie in \[0, 1\]"):
        apples.theory.f_from_rates(0.5, 1.5, prior=0.1)
    with pytest.raises(ValueError, match=r"tp must lie in \[0, positives=4\]"):
        apples.theory.f_of_tp(5, positives=4, fp=0)


@pytest.fixture(scope="module")
def cv_run():
    X, y = load_breast_cancer(return_X_y=True)
    y = 1 - y  # malignant = positive (37 %)
    cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    model = make_pipeline(StandardScaler(), LogisticRegression(C=0.05, max_iter=1000))
    y_pred = cross_val_predict(model, X, y, cv=cv)
    fold = np.empty(len(y), int)
    for i, (_, test) in enumerate(cv.split(X, y)):
        fold[test] = i
    return model, X, y, cv, y_pred, apples.fold_counts(y, y_pred, folds=fold)


def test_cross_val_score_f1_mean_is_f_avg(cv_run):
    model, X, y, cv, _, folds = cv_run
    assert cross_val_score(model, X, y, cv=cv, scoring="f1").mean() == pytest.approx(
        apples.cv_f_measure(folds, method="avg"), rel=1e-12
    )


def test_f1_of_cross_val_predict_is_f_tp_fp(cv_run):
    _, _, y, _, y_pred, folds = cv_run
    assert f1_score(y, y_pred) == pytest.approx(apples.cv_f_measure(folds, method="tp_fp"), rel=1e-12)


def test_figure_1b_log_fpr_axis_shows_where_f_is_above_one_half():
    """F >= 1/2 needs FPR <= (3 TPR - 1) p / (1 - p): at p = 1 %, TPR = 1, about 2.02 %."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from apples.studies import forman_scholz as fs

    fig, ax = plt.subplots()
    fs.plot_f_rates(ax=ax, prior=0.01, max_fpr=0.1, log_fpr=True)
    assert ax.get_xscale() == "log" and ax.get_xlim()[0] == pytest.approx(0.01)
    fig.canvas.draw()
    labels = {t.get_text() for t in ax.get_xticklabels() if t.get_text()}
    assert {"0.01", "0.1", "1", "10"} <= labels and not any("^" in t for t in labels)  # plain decimals
    f_at_bound = apples.theory.f_from_rates(1.0, 2 * 0.01 / 0.99, prior=0.01)
    assert f_at_bound == pytest.approx(0.5, abs=1e-12)
    with pytest.raises(ValueError, match="min_fpr"):
        fs.plot_f_rates(ax=ax, max_fpr=0.1, min_fpr=0.2, log_fpr=True)
    plt.close(fig)
