"""Real-data helpers for the Forman & Scholz (2010) study.

The digits and breast cancer data sets as rare-class tasks, scores per fold, the training-set calibration of §3.2 and
the AUC gap over repeated splits (scikit-learn, the ``notebooks`` extra); the
tables comparing AUC_avg with AUC_merge (core install).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from apples._kernels.counting import codes_of
from apples._kernels.ranking import fold_ranking
from apples._optional import require
from apples._params import (
    COUNT,
    FLAG,
    FOLD_IDS,
    LABEL,
    LABELS,
    MAX_EXACT_INT,
    SCORES,
    SEED,
    Frame,
    Integer,
    Kind,
    MappingOf,
    Nullable,
    Options,
    ParameterTypeError,
    ParameterValueError,
    Relation,
    SameLength,
    TwoClasses,
    UndefinedMetricError,
    check_int,
    check_seed,
    declare,
    exempt,
    label_kind,
    unique_labels,
)

__all__ = [
    "TrainingSetCalibration",
    "auc_comparison",
    "auc_gaps_over_splits",
    "breast_cancer_one_vs_rest",
    "digits_one_vs_rest",
    "fold_scores",
    "summarize_auc_gaps",
]

#: Columns of scikit-learn's breast cancer data.
_N_FEATURES = 30
_RESPONSE = Options("decision_function", "predict_proba")
_CALIBRATION = Options("sigmoid", "isotonic")


# -- kinds ------------------------------------------------------------------------------------------
class _Features(Kind):
    what = "a non-empty tuple of column indices 0..29"

    def check(self, name: str, value: object) -> tuple[int, ...]:
        if isinstance(value, (str, bytes)) or not isinstance(value, (tuple, list)) or not value:
            raise TypeError(f"{name} must be a non-empty tuple of column indices 0..29, got {value!r}")
        return tuple(check_int(name, f, low=0, high=_N_FEATURES - 1) for f in value)


class _Matrix(Kind):
    what = "a two-dimensional array (cases x features)"

    def check(self, name: str, value: object) -> np.ndarray:
        arr = np.asarray(value)
        if arr.ndim != 2:
            raise ValueError(f"{name} must be two-dimensional (cases x features), got an array of shape {arr.shape}")
        return arr


class _OneIsPositive(Relation):
    """Binary labels for scikit-learn: numbers, 1 the positive class."""

    names = ("y",)

    def check(self, values: Mapping[str, Any]) -> None:
        if "y" not in values:
            return
        labels = unique_labels("y", values["y"])
        if label_kind(labels) != "number":
            raise TypeError(f"y must hold numeric labels, 1 = positive, got {labels[:5].tolist()}")
        if 1 not in labels.tolist():
            raise ValueError(f"y must hold the positive label 1, got labels {labels[:5].tolist()}")


class _Models(Kind):
    what = "a non-empty mapping of name -> estimator, or -> (estimator, response)"

    def check(self, name: str, value: object) -> dict[Any, tuple[Any, str]]:
        if not isinstance(value, Mapping) or not value:
            raise TypeError(f"{name} must be a non-empty mapping of name -> estimator, got {value!r:.80}")
        out = {}
        for key, model in value.items():
            estimator, response = model if isinstance(model, tuple) else (model, "decision_function")
            out[key] = (estimator, _RESPONSE.check(f"the response of {name}[{key!r}]", response))
        return out


class _Seeds(Kind):
    what = "a non-empty iterable of seeds in [0, 2**32 - 1]"

    def check(self, name: str, value: object) -> list[int]:
        if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
            raise TypeError(f"{name} must be an iterable of seeds (non-negative ints), got {value!r:.80}")
        seeds = [check_seed(name, seed) for seed in value]
        too_big = [seed for seed in seeds if seed > 2**32 - 1]
        if too_big:  # each is StratifiedKFold's random_state, which numpy's legacy RandomState takes
            raise ValueError(
                f"{name} must lie in [0, 2**32 - 1] (each seeds scikit-learn's StratifiedKFold), got {too_big[0]}"
            )
        if not seeds:
            raise ValueError(f"{name} must hold at least one seed")
        return seeds


class _ScoresPerCase(Relation):
    """Every model's scores give one score per case of ``y_true``."""

    names = ("scores_by_model", "y_true")

    def check(self, values: Mapping[str, Any]) -> None:
        if len(values) < 2:
            return
        n = len(values["y_true"])
        for key, scores in values["scores_by_model"].items():
            if len(scores) != n:
                raise ValueError(f"scores_by_model[{key!r}] has {len(scores)} scores, but y_true has {n} cases")


# -- real classifiers -----------------------------------------------------------------------------
@declare(digit=Integer(0, 9), n_positives=Nullable(COUNT), seed=SEED)
def digits_one_vs_rest(
    digit: int = 8, *, n_positives: int | None = 38, seed: int | np.random.Generator = 0
) -> tuple[np.ndarray, np.ndarray]:
    """scikit-learn's bundled digits as a rare-class task: ``digit`` against the rest.

    All other digits are negatives; ``n_positives`` of the ``digit`` images
    are kept (drawn without replacement by ``numpy.random.default_rng(seed)``;
    ``seed`` is required, a non-negative int or a Generator),
    so that the task has a few percent positives like §3.2 (38 positives);
    ``None`` keeps them all (about 10%). Features are the 64 raw pixel values
    (0–16) as shipped.

    Returns
    -------
    X : ndarray of shape (n, 64), y : ndarray of int (1 = ``digit``)
    """
    load_digits = require("sklearn.datasets").load_digits  # scikit-learn: the notebooks extra

    rng = np.random.default_rng(seed)
    X, y = load_digits(return_X_y=True)
    pos = np.flatnonzero(y == digit)
    if n_positives is not None:
        if not 1 <= n_positives <= pos.size:
            raise ParameterValueError(
                f"n_positives must lie in [1, {pos.size}] for digit {digit}, got {n_positives}", param="n_positives"
            )
        pos = rng.choice(pos, n_positives, replace=False)
    keep = np.sort(np.r_[pos, np.flatnonzero(y != digit)])
    return X[keep], (y[keep] == digit).astype(int)


@declare(n_positives=Nullable(COUNT), features=Nullable(_Features()), seed=SEED)
def breast_cancer_one_vs_rest(
    n_positives: int | None = 30,
    *,
    features: tuple[int, ...] | None = (1, 4, 9),
    seed: int | np.random.Generator = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """scikit-learn's bundled breast cancer data as a rare-class task: malignant (1) against benign.

    Notebooks 10 and 11's study. All 357 benign cases are negatives; ``n_positives``
    of the 212 malignant ones are kept (drawn without replacement by
    ``numpy.random.default_rng(seed)``), so that positives are rare and a fold
    holds only a few of them, the setting of Forman & Scholz §4; ``None`` keeps
    them all. ``features`` selects columns of the 30 (default: texture, smoothness
    and fractal dimension, means 1, 4 and 9), ``None`` keeps every column.

    Returns
    -------
    X : ndarray of shape (n, len(features)), y : ndarray of int (1 = malignant)

    Examples
    --------
    >>> from apples.studies.forman_scholz import breast_cancer_one_vs_rest
    >>> X, y = breast_cancer_one_vs_rest(30, seed=0)
    >>> X.shape, int(y.sum())
    ((387, 3), 30)
    """
    load_breast_cancer = require("sklearn.datasets").load_breast_cancer  # scikit-learn: the notebooks extra

    rng = np.random.default_rng(seed)
    X, target = load_breast_cancer(return_X_y=True)
    pos = np.flatnonzero(target == 0)  # scikit-learn codes malignant as 0
    if n_positives is not None:
        if not 1 <= n_positives <= pos.size:
            raise ParameterValueError(
                f"n_positives must lie in [1, {pos.size}], got {n_positives}", param="n_positives"
            )
        pos = rng.choice(pos, n_positives, replace=False)
    if features is not None:
        X = X[:, list(features)]
    keep = np.sort(np.r_[np.flatnonzero(target == 1), pos])
    return X[keep], (target[keep] == 0).astype(int)


def _fold_scores(
    estimator: Any, X: np.ndarray, y: np.ndarray, cv: Any, response: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`fold_scores` of checked arguments."""
    clone = require("sklearn.base").clone

    y_true, y_score, fold = [], [], []
    for i, (train, test) in enumerate(cv.split(X, y)):
        model = clone(estimator).fit(X[train], y[train])
        if response == "predict_proba":
            s = model.predict_proba(X[test])[:, list(model.classes_).index(1)]
        else:
            s = model.decision_function(X[test])
        y_true.append(y[test])
        y_score.append(np.asarray(s, dtype=float))
        fold.append(np.full(len(test), i + 1))
    return np.concatenate(y_true), np.concatenate(y_score), np.concatenate(fold)


@declare(X=_Matrix(), y=LABELS, response=_RESPONSE, relations=[SameLength("X", "y"), _OneIsPositive()])
def fold_scores(
    estimator: Any, X: ArrayLike, y: ArrayLike, *, cv: Any, response: str = "decision_function"
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Fit a fresh clone of ``estimator`` on each training split; score its test fold.

    Parameters
    ----------
    estimator : scikit-learn estimator
        Cloned for every fold (``sklearn.base.clone``), so no fold sees another's model.
    X, y : arrays
        Data and binary labels (1 = positive).
    cv : splitter
        E.g. ``StratifiedKFold(4, shuffle=True, random_state=0)``.
    response : {"decision_function", "predict_proba"}
        The score: the decision function, or the probability of class 1.

    Returns
    -------
    y_true, y_score, folds : ndarrays of shape (n_tested,)
        Every tested case's label, score and fold id (1 .. k, in the splitter's order), the test
        folds one after another: ready for :func:`~apples.cv_roc_auc` and the other functions that
        take ``(y_true, y_score, folds=folds)`` (``roc_auc_score`` of all of them is AUC_merge).
    """
    return _fold_scores(estimator, np.asarray(X), np.asarray(y), cv, response)


def _auc_rows(
    y_true: np.ndarray, scores_by_model: Mapping[Any, np.ndarray], folds: np.ndarray, pos_label: Hashable
) -> pd.DataFrame:
    """:func:`auc_comparison` of checked arguments."""
    ids, code = codes_of(np.asarray(folds))
    positive = np.asarray(y_true) == pos_label
    names = [f"fold {v.item() if isinstance(v, np.generic) else v}" for v in ids]
    rows = {}
    for name, scores in scores_by_model.items():
        r = fold_ranking(positive, np.asarray(scores), code, ids.size)
        bad = np.flatnonzero(np.isnan(r.auc))
        if bad.size:
            raise UndefinedMetricError(f"{names[bad[0]]}: AUC is undefined: the fold holds one class only")
        row = {
            **dict(zip(names, r.auc.tolist(), strict=True)),
            "AUC_avg": float(r.auc.mean()),
            "AUC_merge": r.auc_merge,
        }
        rows[name] = {**row, "avg - merge (points)": 100 * (row["AUC_avg"] - row["AUC_merge"])}
    return pd.DataFrame.from_dict(rows, orient="index")


@declare(
    y_true=LABELS,
    scores_by_model=MappingOf(SCORES, what="a mapping of model name -> scores (one per case)"),
    folds=FOLD_IDS,
    pos_label=LABEL,
    relations=[SameLength("y_true", "folds"), _ScoresPerCase(), TwoClasses("pos_label", "y_true")],
)
def auc_comparison(
    y_true: ArrayLike,
    scores_by_model: Mapping[Any, ArrayLike],
    *,
    folds: ArrayLike,
    pos_label: Hashable = 1,
) -> pd.DataFrame:
    """Per-fold AUCs, AUC_avg, AUC_merge and their gap, one row per model (Forman & Scholz §3.2).

    Each row is :func:`apples.auc_table` of one model's scores laid out flat:
    the AUC of each test fold, AUC_avg (the mean of the fold AUCs) and
    AUC_merge (the AUC of all folds' scores sorted together), then
    ``avg - merge (points)`` = 100·(AUC_avg - AUC_merge). A large positive gap
    is the §3.2 warning sign: folds that rank well but whose scores are not
    calibrated with each other (their Figure 3).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Every case's label (two classes, both in every fold).
    scores_by_model : mapping
        Model name -> scores of the same cases (one per case), e.g. the scores of
        :func:`fold_scores` of each model on one splitter.
    folds : array-like of shape (n,)
        Every case's fold id.
    pos_label : label, default 1
        The positive class.

    Returns
    -------
    pandas.DataFrame
        Index: the model names, in the mapping's order. Columns ``"fold <id>"`` for
        each fold id in sorted order, ``"AUC_avg"``, ``"AUC_merge"`` (fractions in
        [0, 1]) and ``"avg - merge (points)"``.

    Raises
    ------
    TypeError, ValueError
        For bad arguments (the message names the argument, or the model).
    UndefinedMetricError
        When a fold holds one class only (its AUC is 0/0).

    Examples
    --------
    >>> from apples.studies.forman_scholz import auc_comparison
    >>> t = auc_comparison([1, 0, 0, 1, 0, 0], {"m": [3, 2, 1, 0.3, 0.2, 0.1]}, folds=[1, 1, 1, 2, 2, 2])
    >>> t.loc["m"].round(2).tolist()
    [1.0, 1.0, 1.0, 0.75, 25.0]
    """
    return _auc_rows(
        np.asarray(y_true), {k: np.asarray(v) for k, v in scores_by_model.items()}, np.asarray(folds), pos_label
    )


@declare(
    models=_Models(),
    X=_Matrix(),
    y=LABELS,
    seeds=_Seeds(),
    n_splits=Integer(2, MAX_EXACT_INT),
    relations=[SameLength("X", "y"), _OneIsPositive()],
)
def auc_gaps_over_splits(
    models: Mapping[Any, Any],
    X: ArrayLike,
    y: ArrayLike,
    *,
    seeds: Iterable[int] = range(10),
    n_splits: int = 4,
) -> pd.DataFrame:
    """AUC_avg, AUC_merge and their gap for each model on repeated stratified k-fold splits (Forman & Scholz §3.2).

    One split is one draw: whether merging costs a model AUC systematically shows
    only over several. For every seed, ``StratifiedKFold(n_splits, shuffle=True,
    random_state=seed)`` splits the data once, every model is fitted on it
    (:func:`fold_scores`) and compared by :func:`auc_comparison`.

    Parameters
    ----------
    models : mapping
        Model name -> scikit-learn estimator, or ``(estimator, response)`` with
        ``response`` as in :func:`fold_scores` (default ``"decision_function"``).
    X, y : arrays
        Data and binary labels (1 = positive).
    seeds : iterable of int, default range(10)
        The splitter's ``random_state`` values, one split each.
    n_splits : int, default 4
        Folds per split.

    Returns
    -------
    pandas.DataFrame
        One row per (model, seed): ``model``, ``seed``, ``AUC_avg``, ``AUC_merge``
        and ``gap`` = AUC_avg − AUC_merge (fractions), models in the mapping's order
        within each seed. :func:`summarize_auc_gaps` condenses it.
    """
    model_selection = require("sklearn.model_selection")
    rows = []
    for seed in seeds:  # checked: a list of ints
        cv = model_selection.StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=seed)
        scores = {}
        for name, (estimator, response) in models.items():  # checked: (estimator, response) pairs
            y_cv, scores[name], folds = _fold_scores(estimator, np.asarray(X), np.asarray(y), cv, response)
        table = _auc_rows(y_cv, scores, folds, 1)
        for name in models:
            avg, merge = float(table.loc[name, "AUC_avg"]), float(table.loc[name, "AUC_merge"])
            rows.append({"model": name, "seed": seed, "AUC_avg": avg, "AUC_merge": merge, "gap": avg - merge})
    return pd.DataFrame(rows)


@declare(gaps=Frame(("model", "AUC_avg", "AUC_merge", "gap"), source="auc_gaps_over_splits output"))
def summarize_auc_gaps(gaps: pd.DataFrame) -> pd.DataFrame:
    """Per model, the mean AUC_avg and AUC_merge and the gap's mean, min and max over the splits.

    Parameters
    ----------
    gaps : DataFrame
        :func:`auc_gaps_over_splits` output.

    Returns
    -------
    pandas.DataFrame
        Index ``model`` (first-seen order); columns ``AUC_avg``, ``AUC_merge``,
        ``gap_mean``, ``gap_min``, ``gap_max`` (fractions), ``merge_lower`` (how many
        splits have AUC_merge < AUC_avg) and ``splits``.

    Examples
    --------
    >>> import pandas as pd
    >>> from apples.studies.forman_scholz import summarize_auc_gaps
    >>> g = pd.DataFrame({"model": ["a", "a"], "seed": [0, 1], "AUC_avg": [0.9, 0.8],
    ...                   "AUC_merge": [0.85, 0.81], "gap": [0.05, -0.01]})
    >>> s = summarize_auc_gaps(g)
    >>> float(s.loc["a", "gap_max"]), int(s.loc["a", "merge_lower"]), int(s.loc["a", "splits"])
    (0.05, 1, 2)
    """
    return gaps.groupby("model", sort=False).agg(
        AUC_avg=("AUC_avg", "mean"),
        AUC_merge=("AUC_merge", "mean"),
        gap_mean=("gap", "mean"),
        gap_min=("gap", "min"),
        gap_max=("gap", "max"),
        merge_lower=("gap", lambda g: int((g > 0).sum())),
        splits=("gap", "size"),
    )


@exempt(
    "a scikit-learn estimator: its parameters are checked in fit (by their declared kind), and fit(X, y) "
    "by scikit-learn"
)
class TrainingSetCalibration:
    """A classifier whose score is mapped to a probability fitted on its *own training* scores.

    Fits a fresh clone of ``estimator`` on (X, y), then a Platt sigmoid
    (``method="sigmoid"``) or an isotonic map from its ``decision_function``
    on the *same* training cases to the labels. This is how WEKA's SMO builds
    probability estimates with ``-M`` ("fit logistic models to SVM outputs")
    under its default ``-V -1`` (no internal cross-validation: use the
    training data), the setting behind Forman & Scholz's §3.2 example (SMO
    ``-M -N 2``). When the training cases are (nearly) separable, the fitted
    sigmoid is very steep and its probabilities span many decades: scores
    that need a log axis, as in their Figure 3. Contrast
    ``sklearn.calibration.CalibratedClassifierCV(estimator, cv=3)``, which
    fits the map on held-out inner folds.

    The map is strictly increasing for the sigmoid (non-decreasing for
    isotonic), so a fold's AUC is that of the raw ``decision_function`` (the
    sigmoid) or lower by ties (isotonic); only AUC_merge can change.

    Parameters
    ----------
    estimator : scikit-learn classifier with ``decision_function``
    method : {"sigmoid", "isotonic"}, default "sigmoid"

    Attributes
    ----------
    calibrated_ : the fitted ``CalibratedClassifierCV`` around the frozen model
    classes_ : ndarray

    References
    ----------
    Forman & Scholz (2010) §3 (WEKA SMO options) and §3.2; J. Platt (1999),
    probabilistic outputs for SVMs (the sigmoid; Platt fits it on held-out
    scores, precisely to avoid the over-steep fit on training scores).

    Examples
    --------
    >>> from sklearn.svm import LinearSVC
    >>> from apples import roc_auc
    >>> from apples.studies.forman_scholz import TrainingSetCalibration, digits_one_vs_rest
    >>> X, y = digits_one_vs_rest(8, n_positives=38, seed=0)
    >>> model = TrainingSetCalibration(LinearSVC(dual=False)).fit(X, y)
    >>> p = model.predict_proba(X)[:, 1]
    >>> bool(p.min() < 1e-10)  # a steep sigmoid: probabilities over many decades
    True
    >>> roc_auc(y, p) == roc_auc(y, model.calibrated_.estimator.decision_function(X))  # same order
    True
    """

    def __init__(self, estimator: Any = None, method: str = "sigmoid") -> None:
        self.estimator = estimator
        self.method = method

    @declare(deep=FLAG)
    def get_params(self, deep: bool = True) -> dict:
        return {"estimator": self.estimator, "method": self.method}

    def set_params(self, **params: Any) -> TrainingSetCalibration:
        for key, value in params.items():
            if key not in ("estimator", "method"):
                raise ParameterValueError(f"invalid parameter {key!r}; expected 'estimator' or 'method'", param=key)
            setattr(self, key, value)
        return self

    def __repr__(self) -> str:
        return f"TrainingSetCalibration(estimator={self.estimator!r}, method={self.method!r})"

    def fit(self, X: ArrayLike, y: ArrayLike) -> TrainingSetCalibration:
        clone = require("sklearn.base").clone
        CalibratedClassifierCV = require("sklearn.calibration").CalibratedClassifierCV
        FrozenEstimator = require("sklearn.frozen").FrozenEstimator

        _CALIBRATION("method", self.method)  # a parameter of the estimator: checked when it is used
        if self.estimator is None:
            raise ParameterTypeError("estimator must be a scikit-learn classifier, got None", param="estimator")
        model = clone(self.estimator).fit(X, y)
        self.calibrated_ = CalibratedClassifierCV(FrozenEstimator(model), method=self.method).fit(X, y)
        self.classes_ = self.calibrated_.classes_
        return self

    def predict_proba(self, X: ArrayLike) -> np.ndarray:
        return self.calibrated_.predict_proba(X)

    def predict(self, X: ArrayLike) -> np.ndarray:
        return self.calibrated_.predict(X)
