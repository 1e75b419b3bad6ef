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


@pytest.mark.parametrize(("positives", "fp", "expected_tp"), [(4, 1, 3), (20, 0, 15), (3, 30, 1)])
def test_f_of_tp_figure_magnifies_the_gap_under_the_curve(positives, fp, expected_tp):
    """§4.1: F(TP) at 4 positives, FP = 1 is 6/8 = 75 % at TP = 3, the chord's midpoint (4/7 + 8/9)/2 = 73.0 %;
    the inset shows both, and sits where the curve never passes (F <= 2TP / (TP + positives))."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from apples.studies import forman_scholz as fs

    fig, ax = plt.subplots()
    fs.plot_f_of_tp(ax=ax, positives=positives, fp=fp, expected_tp=expected_tp)
    (zoom,) = ax.child_axes
    f = [200 * t / (2 * t + fp + positives - t) for t in (expected_tp - 1, expected_tp, expected_tp + 1)]
    low, high = zoom.get_ylim()
    assert low < (f[0] + f[2]) / 2 < f[1] < high
    assert zoom.get_xlim()[0] < expected_tp < zoom.get_xlim()[1]
    if (positives, fp) == (4, 1):
        assert (f[1], (f[0] + f[2]) / 2) == (pytest.approx(75.0), pytest.approx(100 * (4 / 7 + 8 / 9) / 2))
    # the inset's lower left corner, in data coordinates, lies above the curve at the inset's right edge
    fig.canvas.draw()
    box = zoom.get_window_extent()
    right_tp, bottom_f = ax.transData.inverted().transform((box.x1, box.y0))
    assert 200 * right_tp / (right_tp + fp + positives) < bottom_f
    plt.close(fig)
