"""cross_val_predictions on hostile input: every refusal is a ParameterValueError or ParameterTypeError naming the
argument (``.param``), raised from apples with scikit-learn's own exception, where there is one, as ``__cause__``;
never a bare traceback from inside scikit-learn or numpy. On realistic data (breast cancer, iris), weighted, repeated,
multi-class and multi-label."""

from __future__ import annotations

import traceback

import numpy as np
import pytest

pytest.importorskip("sklearn")
from sklearn.datasets import load_breast_cancer, load_iris, make_multilabel_classification
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    GroupKFold,
    KFold,
    RepeatedStratifiedKFold,
    StratifiedKFold,
    cross_val_predict,
)
from sklearn.multioutput import MultiOutputClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from apples import cross_val_predictions
from apples._params import ParameterTypeError, ParameterValueError

CANCER_X, CANCER_Y = load_breast_cancer(return_X_y=True)
X80, Y80 = CANCER_X[::7][:80], CANCER_Y[::7][:80]  # 80 cases of both classes
IRIS_X, IRIS_Y = load_iris(return_X_y=True)  # sorted by class: 50 setosa, 50 versicolor, 50 virginica
ML_X, ML_Y = make_multilabel_classification(n_samples=90, n_classes=3, random_state=0)
W80 = np.linspace(0.5, 2.0, 80)


def _model():
    return make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))


def _refused(kind, param, call):
    """The call raises ``kind`` naming ``param``, raised by apples (the innermost frame is ours, not sklearn's)."""
    with pytest.raises(kind) as info:
        call()
    err = info.value
    assert err.param == param, (err.param, str(err))
    innermost = traceback.extract_tb(err.__traceback__)[-1].filename
    assert "/apples/" in innermost.replace("\\", "/") and "site-packages" not in innermost, innermost
    return err


@pytest.mark.parametrize("cv", [1, 0, -3], ids=["1", "0", "-3"])
def test_fewer_than_two_folds(cv):
    err = _refused(ParameterValueError, "cv", lambda: cross_val_predictions(_model(), X80, Y80, cv=cv))
    assert f"cv={cv}" in str(err) and "at least 2 folds" in str(err)


@pytest.mark.parametrize("cv", ["five", 2.5, True, None, {"n_splits": 5}], ids=["str", "float", "bool", "None", "dict"])
def test_a_cv_that_is_no_splitter(cv):
    err = _refused(ParameterTypeError, "cv", lambda: cross_val_predictions(_model(), X80, Y80, cv=cv))
    assert "a number of folds" in str(err)


def test_an_empty_cv():
    err = _refused(ParameterValueError, "cv", lambda: cross_val_predictions(_model(), X80, Y80, cv=[]))
    assert "no (train, test) split" in str(err)
    gen = (s for s in [])  # a generator that yields nothing
    _refused(ParameterValueError, "cv", lambda: cross_val_predictions(_model(), X80, Y80, cv=gen))


def test_custom_splits_with_indices_beyond_the_data():
    # before: an IndexError from inside the adapter
    splits = [(np.arange(40), np.arange(40, 95)), (np.arange(40, 80), np.arange(40))]
    err = _refused(ParameterValueError, "cv", lambda: cross_val_predictions(_model(), X80, Y80, cv=splits))
    assert "split 0 has test index 94, but X has 80 rows (indices 0 to 79)" in str(err)
    negative = [(np.arange(40, 80), np.arange(-5, 40))]
    err = _refused(ParameterValueError, "cv", lambda: cross_val_predictions(_model(), X80, Y80, cv=negative))
    assert "test index -5" in str(err)
    floats = [(np.arange(40, 80).astype(float), np.arange(40))]
    _refused(ParameterTypeError, "cv", lambda: cross_val_predictions(_model(), X80, Y80, cv=floats))


def test_custom_splits_that_leak_or_repeat_rows():
    leak = [(np.arange(50), np.arange(40, 80)), (np.arange(40, 80), np.arange(40))]
    err = _refused(ParameterValueError, "cv", lambda: cross_val_predictions(_model(), X80, Y80, cv=leak))
    assert "split 0 trains on 10 of the rows it tests (row 40 of X first)" in str(err)
    twice = [(np.arange(40, 80), np.r_[np.arange(40), 3])]
    err = _refused(ParameterValueError, "cv", lambda: cross_val_predictions(_model(), X80, Y80, cv=twice))
    assert "split 0 tests row 3 of X twice" in str(err)
    empty = [(np.arange(80), np.array([], dtype=int))]
    err = _refused(ParameterValueError, "cv", lambda: cross_val_predictions(_model(), X80, Y80, cv=empty))
    assert "empty test set" in str(err)


def test_custom_splits_as_boolean_masks_and_a_generator_match_the_splitter():
    cv = StratifiedKFold(4, shuffle=True, random_state=0)
    want = cross_val_predictions(_model(), X80, Y80, cv=cv)
    masks = [(np.isin(np.arange(80), tr), np.isin(np.arange(80), te)) for tr, te in cv.split(X80, Y80)]
    got = cross_val_predictions(_model(), X80, Y80, cv=masks)
    generator = cross_val_predictions(_model(), X80, Y80, cv=cv.split(X80, Y80))
    for p in (got, generator):
        assert p.y_pred.tolist() == want.y_pred.tolist() and p.folds.tolist() == want.folds.tolist()


def test_a_grouped_splitter_without_groups():
    err = _refused(ParameterValueError, "groups", lambda: cross_val_predictions(_model(), X80, Y80, cv=GroupKFold(3)))
    assert "GroupKFold splits by group, and no groups were given" in str(err)
    assert isinstance(err.__cause__, ValueError) and "groups" in str(err.__cause__)


def test_more_folds_than_cases():
    err = _refused(ParameterValueError, "cv", lambda: cross_val_predictions(_model(), X80, Y80, cv=KFold(100)))
    assert "cannot split the 80 cases of X" in str(err) and "n_splits=100" in str(err)
    assert isinstance(err.__cause__, ValueError)


def test_a_training_fold_with_a_single_class_names_the_fold_and_the_class():
    order = np.argsort(Y80, kind="stable")  # 27 of class 0, then 53 of class 1
    Xs, ys = X80[order], Y80[order]
    assert (ys[40:] == 1).all()  # unshuffled 2-fold: split 0 trains on rows 40..79, all of class 1
    err = _refused(ParameterValueError, "cv", lambda: cross_val_predictions(_model(), Xs, ys, cv=KFold(2)))
    assert "the training rows of split 0 (repeat 0, fold 0) hold the single class 1 (40 rows)" in str(err)
    assert "StratifiedKFold" in str(err) and isinstance(err.__cause__, ValueError)
    names = np.array(["malignant", "benign"])[ys]  # string labels: the class is named as the user wrote it
    err = _refused(
        ParameterValueError,
        "cv",
        lambda: cross_val_predictions(_model(), Xs, names, cv=KFold(2), pos_label="malignant"),
    )
    assert "the single class 'benign' (40 rows)" in str(err)


def test_a_multiclass_training_fold_with_one_class():
    # iris is sorted by class: train on the setosa rows only, test on the rest
    splits = [(np.arange(50), np.arange(50, 150)), (np.arange(50, 150), np.arange(50))]
    err = _refused(ParameterValueError, "cv", lambda: cross_val_predictions(_model(), IRIS_X, IRIS_Y, cv=splits))
    assert "split 0 (repeat 0, fold 0)" in str(err) and "the single class 0 (50 rows)" in str(err)


def test_a_multilabel_training_fold_with_a_constant_label_column():
    y = ML_Y.copy()
    y[:45, 1] = 0  # label 1 never applies in the first half
    splits = [(np.arange(45), np.arange(45, 90)), (np.arange(45, 90), np.arange(45))]
    est = MultiOutputClassifier(LogisticRegression(max_iter=2000))
    err = _refused(ParameterValueError, "cv", lambda: cross_val_predictions(est, ML_X, y, cv=splits))
    assert "only 0s in label column 1" in str(err)


@pytest.mark.parametrize("estimator", [_model(), LogisticRegression(max_iter=2000)], ids=["pipeline", "plain"])
def test_a_fit_parameter_the_estimator_does_not_take(estimator):
    err = _refused(
        ParameterValueError, "params", lambda: cross_val_predictions(estimator, X80, Y80, cv=3, params={"bogus": 1})
    )
    assert "params['bogus']" in str(err) and "does not take that parameter" in str(err)
    assert isinstance(err.__cause__, (TypeError, ValueError)) and "bogus" in str(err.__cause__)


def test_nan_in_x_names_x_and_where():
    X = X80.copy()
    X[12, 3] = np.nan
    X[30, 0] = np.nan
    err = _refused(ParameterValueError, "X", lambda: cross_val_predictions(_model(), X, Y80, cv=3))
    assert "X holds NaN in 2 cell(s), the first at X[12, 3]" in str(err) and "SimpleImputer" in str(err)
    assert isinstance(err.__cause__, ValueError) and "NaN" in str(err.__cause__)
    X[12, 3] = np.inf
    X[30, 0] = 1.0
    joblib = pytest.importorskip("joblib")
    with joblib.parallel_config(backend="threading"):  # the folds in parallel: failures come back as values
        err = _refused(ParameterValueError, "X", lambda: cross_val_predictions(_model(), X, Y80, cv=3, n_jobs=2))
    assert "X holds infinite values in 1 cell(s), the first at X[12, 3]" in str(err)


def test_a_failure_crosses_process_boundaries():
    """With n_jobs > 1 joblib's processes return each split's failure by pickling it: scikit-learn's exception
    must survive the round trip, to become the __cause__ in the parent."""
    import pickle

    from apples.cv._sklearn_fit import Failure

    try:
        LogisticRegression().fit(np.array([[0.0], [np.nan]]), [0, 1])
    except ValueError as err:
        back = pickle.loads(pickle.dumps(Failure(3, err)))
    assert back.split == 3 and type(back.error) is ValueError and "NaN" in str(back.error)


def test_nan_in_a_dataframe_names_its_row_and_column():
    frame = load_breast_cancer(as_frame=True).frame.iloc[::7].iloc[:80]
    X = frame.drop(columns="target")
    X.iloc[5, 2] = np.nan
    err = _refused(ParameterValueError, "X", lambda: cross_val_predictions(_model(), X, frame.target, cv=3))
    assert f"row 5 (index {X.index[5]!r}), column 'mean perimeter'" in str(err)


def test_nan_in_x_is_fine_for_a_pipeline_that_imputes_it():
    X = X80.copy()
    X[12, 3] = np.nan
    est = make_pipeline(SimpleImputer(), StandardScaler(), LogisticRegression(max_iter=2000))
    p = cross_val_predictions(est, X, Y80, cv=StratifiedKFold(3))
    assert p.y_pred.shape == (80,)


def test_any_other_fit_failure_names_the_estimator_and_the_split():
    est = LogisticRegression(C=-1.0)  # scikit-learn's own parameter validation refuses it in fit
    err = _refused(ParameterValueError, "estimator", lambda: cross_val_predictions(est, X80, Y80, cv=3))
    assert "fitting LogisticRegression on split 0 (repeat 0, fold 0) failed" in str(err)
    assert isinstance(err.__cause__, ValueError)


def test_repeated_weighted_refusals_name_the_argument_too():
    cv = RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=0)
    X = X80.copy()
    X[7, 1] = np.nan
    err = _refused(ParameterValueError, "X", lambda: cross_val_predictions(_model(), X, Y80, cv=cv, sample_weight=W80))
    assert "X[7, 1]" in str(err)
    _refused(
        ParameterValueError,
        "params",
        lambda: cross_val_predictions(_model(), X80, Y80, cv=cv, sample_weight=W80, params={"bogus": 1}),
    )


@pytest.mark.trained
def test_custom_iris_splits_give_the_predictions_of_cross_val_predict():
    """A valid custom split list is accepted as scikit-learn accepts it (checked, not changed)."""
    cv = StratifiedKFold(5, shuffle=True, random_state=2)
    splits = list(cv.split(IRIS_X, IRIS_Y))
    p = cross_val_predictions(_model(), IRIS_X, IRIS_Y, cv=splits)
    want = cross_val_predict(_model(), IRIS_X, IRIS_Y, cv=splits, method="predict_proba")
    assert p.cases is not None
    np.testing.assert_allclose(p.y_score, want[p.cases], rtol=1e-9, atol=1e-12)
