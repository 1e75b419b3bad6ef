"""Real-data helpers for the Forman & Scholz (2010) study.

The digits and breast cancer data sets as rare-class tasks, scores per fold, the training-set calibration of §3.2 and
the AUC gap over repeated splits (scikit-learn, the ``notebooks`` extra); the
tables comparing AUC_avg with AUC_merge (core install).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd

from apples._optional import require
from apples._params import (
    check_bool,
    check_choice,
    check_count,
    check_frame,
    check_int,
    check_int_at_least,
    check_labels_1d,
    check_same_length,
    check_seed,
    label_kind,
    rng_from_seed,
    unique_labels,
)
from apples.cv.ranking import auc_table

__all__ = [
    "TrainingSetCalibration",
    "auc_comparison",
    "auc_gaps_over_splits",
    "breast_cancer_one_vs_rest",
    "digits_one_vs_rest",
    "fold_scores",
    "summarize_auc_gaps",
]


# -- real classifiers -----------------------------------------------------------------------------
def digits_one_vs_rest(digit: int = 8, *, n_positives: int | None = 38, seed: int = 0):
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

    if not isinstance(digit, (int, np.integer)) or isinstance(digit, bool) or not 0 <= digit <= 9:
        raise ValueError(f"digit must be an integer 0..9, got {digit!r}")
    rng = rng_from_seed(seed)  # checked even when n_positives=None draws nothing
    X, y = load_digits(return_X_y=True)
    pos = np.flatnonzero(y == digit)
    if n_positives is not None:
        n_positives = check_count("n_positives", n_positives)
        if not 1 <= n_positives <= pos.size:
            raise ValueError(f"n_positives must lie in [1, {pos.size}] for digit {digit}, got {n_positives}")
        pos = rng.choice(pos, n_positives, replace=False)
    keep = np.sort(np.r_[pos, np.flatnonzero(y != digit)])
    return X[keep], (y[keep] == digit).astype(int)


def breast_cancer_one_vs_rest(
    n_positives: int | None = 30, *, features: tuple[int, ...] | None = (1, 4, 9), seed: int = 0
):
    """scikit-learn's bundled breast cancer data as a rare-class task: malignant (1) against benign.

    Notebooks 09 and 10's study. All 357 benign cases are negatives; ``n_positives``
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
    >>> X, y = breast_cancer_one_vs_rest(30, seed=0)
    >>> X.shape, int(y.sum())
    ((387, 3), 30)
    """
    load_breast_cancer = require("sklearn.datasets").load_breast_cancer  # scikit-learn: the notebooks extra

    rng = rng_from_seed(seed)
    X, target = load_breast_cancer(return_X_y=True)
    pos = np.flatnonzero(target == 0)  # scikit-learn codes malignant as 0
    if n_positives is not None:
        n_positives = check_count("n_positives", n_positives)
        if not 1 <= n_positives <= pos.size:
            raise ValueError(f"n_positives must lie in [1, {pos.size}], got {n_positives}")
        pos = rng.choice(pos, n_positives, replace=False)
    if features is not None:
        if isinstance(features, (str, bytes)) or not isinstance(features, (tuple, list)) or not features:
            raise TypeError(f"features must be a non-empty tuple of column indices 0..29, got {features!r}")
        features = tuple(check_int("features", f, low=0, high=X.shape[1] - 1) for f in features)
        X = X[:, list(features)]
    keep = np.sort(np.r_[np.flatnonzero(target == 1), pos])
    return X[keep], (target[keep] == 0).astype(int)


def fold_scores(estimator, X, y, *, cv, response: str = "decision_function"):
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
    y_true_folds, y_score_folds : lists of arrays, one per test fold, ready for
    :func:`~apples.cv_roc_auc` (``roc_auc_score`` of the concatenation is AUC_merge).
    """
    clone = require("sklearn.base").clone

    check_choice("response", response, ("decision_function", "predict_proba"))
    X, y = np.asarray(X), check_labels_1d("y", y)
    if X.ndim != 2:
        raise ValueError(f"X must be two-dimensional (cases x features), got an array of shape {X.shape}")
    check_same_length(X=X, y=y)
    labels = unique_labels("y", y)
    if label_kind(labels) != "number":
        raise TypeError(f"y must hold numeric labels, 1 = positive, got {labels[:5].tolist()}")
    if 1 not in labels.tolist():
        raise ValueError(f"y must hold the positive label 1, got labels {labels[:5].tolist()}")
    y_true_folds, y_score_folds = [], []
    for train, test in cv.split(X, y):
        model = clone(estimator).fit(X[train], y[train])
        if response == "predict_proba":
            s = model.predict_proba(X[test])[:, list(model.classes_).index(1)]
        else:
            s = model.decision_function(X[test])
        y_true_folds.append(y[test])
        y_score_folds.append(np.asarray(s, dtype=float))
    return y_true_folds, y_score_folds


def auc_comparison(folds_by_model: Mapping) -> pd.DataFrame:
    """Per-fold AUCs, AUC_avg, AUC_merge and their gap, one row per model (Forman & Scholz §3.2).

    Each row is :func:`apples.auc_table` of one model's folds laid out flat:
    the AUC of each test fold, AUC_avg (the mean of the fold AUCs) and
    AUC_merge (the AUC of all folds' scores sorted together), then
    ``avg - merge (points)`` = 100·(AUC_avg - AUC_merge). A large positive gap
    is the §3.2 warning sign: folds that rank well but whose scores are not
    calibrated with each other (their Figure 3).

    Parameters
    ----------
    folds_by_model : mapping
        Model name -> ``(y_true_folds, y_score_folds)``, e.g. the output of
        :func:`fold_scores`; labels 1 (positive) and anything else (negative).
        Every model must have the same number of folds.

    Returns
    -------
    pandas.DataFrame
        Index: the model names, in the mapping's order. Columns ``"fold 1"`` ..
        ``"fold k"``, ``"AUC_avg"``, ``"AUC_merge"`` (fractions in [0, 1]) and
        ``"avg - merge (points)"``.

    Raises
    ------
    TypeError
        When ``folds_by_model`` is not a mapping or a value is not a pair.
    ValueError
        When it is empty, the models' fold counts differ, or a model's folds are
        refused by :func:`apples.auc_table` (the message names the model).

    Examples
    --------
    >>> t = auc_comparison({"m": ([[1, 0, 0], [1, 0, 0]], [[3, 2, 1], [0.3, 0.2, 0.1]])})
    >>> t.loc["m"].round(2).tolist()
    [1.0, 1.0, 1.0, 0.75, 25.0]
    """
    if not isinstance(folds_by_model, Mapping):
        raise TypeError(
            "folds_by_model must be a mapping of model name -> (y_true_folds, y_score_folds), "
            f"got {type(folds_by_model).__name__}"
        )
    if not folds_by_model:
        raise ValueError("folds_by_model must hold at least one model, got an empty mapping")
    rows = {}
    n_folds = None
    for name, pair in folds_by_model.items():
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise TypeError(
                f"folds_by_model[{name!r}] must be a pair (y_true_folds, y_score_folds), got {type(pair).__name__}"
                + (f" of length {len(pair)}" if isinstance(pair, (tuple, list)) else "")
            )
        try:
            aucs = auc_table(*pair)["auc"]  # folds 1..k, then AUC_avg and AUC_merge
        except (TypeError, ValueError) as err:
            raise type(err)(f"folds_by_model[{name!r}]: {err}") from None
        k = len(aucs) - 2
        if n_folds is None:
            n_folds = k
        elif k != n_folds:
            raise ValueError(
                f"folds_by_model: every model must have the same number of folds, got {n_folds} and {k} ({name!r})"
            )
        row = {f"fold {i}" if isinstance(i, int) else i: float(v) for i, v in aucs.items()}
        rows[name] = {**row, "avg - merge (points)": 100 * (row["AUC_avg"] - row["AUC_merge"])}
    return pd.DataFrame.from_dict(rows, orient="index")


def auc_gaps_over_splits(models: Mapping, X, y, *, seeds: Iterable[int] = range(10), n_splits: int = 4) -> pd.DataFrame:
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
    if not isinstance(models, Mapping) or not models:
        raise TypeError(f"models must be a non-empty mapping of name -> estimator, got {models!r:.80}")
    seeds = [check_seed("seeds", seed) for seed in seeds]
    too_big = [seed for seed in seeds if seed > 2**32 - 1]
    if too_big:  # each is StratifiedKFold's random_state, which numpy's legacy RandomState takes
        raise ValueError(
            f"seeds must lie in [0, 2**32 - 1] (each seeds scikit-learn's StratifiedKFold), got {too_big[0]}"
        )
    if not seeds:
        raise ValueError("seeds must hold at least one seed")
    n_splits = check_int_at_least("n_splits", n_splits, 2)
    rows = []
    for seed in seeds:
        cv = model_selection.StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=seed)
        folds = {}
        for name, model in models.items():
            estimator, response = model if isinstance(model, tuple) else (model, "decision_function")
            folds[name] = fold_scores(estimator, X, y, cv=cv, response=response)
        table = auc_comparison(folds)
        for name in models:
            avg, merge = float(table.loc[name, "AUC_avg"]), float(table.loc[name, "AUC_merge"])
            rows.append({"model": name, "seed": seed, "AUC_avg": avg, "AUC_merge": merge, "gap": avg - merge})
    return pd.DataFrame(rows)


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
    >>> g = pd.DataFrame({"model": ["a", "a"], "seed": [0, 1], "AUC_avg": [0.9, 0.8],
    ...                   "AUC_merge": [0.85, 0.81], "gap": [0.05, -0.01]})
    >>> s = summarize_auc_gaps(g)
    >>> float(s.loc["a", "gap_max"]), int(s.loc["a", "merge_lower"]), int(s.loc["a", "splits"])
    (0.05, 1, 2)
    """
    gaps = check_frame("gaps", gaps, ("model", "AUC_avg", "AUC_merge", "gap"), what="auc_gaps_over_splits output")
    return gaps.groupby("model", sort=False).agg(
        AUC_avg=("AUC_avg", "mean"),
        AUC_merge=("AUC_merge", "mean"),
        gap_mean=("gap", "mean"),
        gap_min=("gap", "min"),
        gap_max=("gap", "max"),
        merge_lower=("gap", lambda g: int((g > 0).sum())),
        splits=("gap", "size"),
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
    >>> X, y = digits_one_vs_rest(8, n_positives=38, seed=0)
    >>> model = TrainingSetCalibration(LinearSVC(dual=False)).fit(X, y)
    >>> p = model.predict_proba(X)[:, 1]
    >>> bool(p.min() < 1e-10)  # a steep sigmoid: probabilities over many decades
    True
    >>> roc_auc(y, p) == roc_auc(y, model.calibrated_.estimator.decision_function(X))  # same order
    True
    """

    def __init__(self, estimator=None, method: str = "sigmoid"):
        self.estimator = estimator
        self.method = method

    def get_params(self, deep: bool = True) -> dict:
        check_bool("deep", deep)
        return {"estimator": self.estimator, "method": self.method}

    def set_params(self, **params):
        for key, value in params.items():
            if key not in ("estimator", "method"):
                raise ValueError(f"invalid parameter {key!r}; expected 'estimator' or 'method'")
            setattr(self, key, value)
        return self

    def __repr__(self) -> str:
        return f"TrainingSetCalibration(estimator={self.estimator!r}, method={self.method!r})"

    def fit(self, X, y):
        clone = require("sklearn.base").clone
        CalibratedClassifierCV = require("sklearn.calibration").CalibratedClassifierCV
        FrozenEstimator = require("sklearn.frozen").FrozenEstimator

        check_choice("method", self.method, ("sigmoid", "isotonic"))
        if self.estimator is None:
            raise TypeError("estimator must be a scikit-learn classifier, got None")
        model = clone(self.estimator).fit(X, y)
        self.calibrated_ = CalibratedClassifierCV(FrozenEstimator(model), method=self.method).fit(X, y)
        self.classes_ = self.calibrated_.classes_
        return self

    def predict_proba(self, X):
        return self.calibrated_.predict_proba(X)

    def predict(self, X):
        return self.calibrated_.predict(X)
