"""The scikit-learn adapter: cross-validated predictions as :class:`~apples.CVPredictions`.

:func:`cross_val_predictions` runs any scikit-learn splitter (``StratifiedKFold``,
``RepeatedStratifiedKFold``, ``GroupKFold``, ...) and keeps what
``cross_val_predict`` drops: the fold (and repeat) of every prediction, which is
what every aggregation of Forman & Scholz (2010) §2.3 needs, and the weight of each
(``sample_weight=``). Its splits are checked, fitted and their failures named in
:mod:`apples.cv._sklearn_fit`; the per-fold counts of ``cross_validate`` are
:mod:`apples.cv.sklearn_counts`. scikit-learn is imported when a function needs it (``require``).
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

import numpy as np

from apples._optional import require
from apples._params import (
    LABEL,
    LABELS,
    N_JOBS,
    Kind,
    Labels,
    Nullable,
    Options,
    ParameterValueError,
    Relation,
    SameLength,
    check_pos_label,
    declare,
    default_pos_label,
    unique_labels,
)
from apples.cv._sklearn_fit import (
    Failure,
    checked_splits,
    explain_failure,
    fit_split,
    routed,
    split_data,
    warn_weights_only_in_fit,
)
from apples.cv.predictions import CVPredictions
from apples.metrics.scoring_rules import SAMPLE_WEIGHT

__all__ = [
    "cross_val_predictions",
]

_METHODS = ("auto", "predict_proba", "decision_function", "predict")


class _FitParams(Kind):
    what = "a dict of fit parameters (str keys), as scikit-learn's cross_val_predict(params=...)"

    def check(self, name: str, value: object) -> dict[str, Any]:
        if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
            raise TypeError(f"{name} must be a dict of fit parameters with str keys, got {type(value).__name__}")
        out = dict(value)
        if out.get("sample_weight") is not None:
            out["sample_weight"] = SAMPLE_WEIGHT(f"{name}['sample_weight']", out["sample_weight"])
        return out


class _WeightsPerCase(Relation):
    """``params['sample_weight']`` holds one weight per case (row of ``X``)."""

    names = ("params", "y")

    def check(self, values: Mapping[str, Any]) -> None:
        params, y = values.get("params"), values.get("y")
        if params is None or y is None or params.get("sample_weight") is None:
            return
        w = params["sample_weight"]
        if w.size != np.size(y):
            raise ParameterValueError(
                f"params['sample_weight'] holds {w.size} weights, y {np.size(y)} cases: give one weight per case",
                param="params",
            )


class _Features(Kind):
    what = "a two-dimensional array-like or DataFrame (cases x features)"

    def check(self, name: str, value: object) -> Any:
        if not hasattr(value, "iloc"):
            value = np.asarray(value)
        shape = np.shape(value)  # type: ignore[call-overload]
        if len(shape) != 2:
            raise ValueError(f"{name} must be two-dimensional (cases x features), got shape {shape}")
        return value


class _Targets(Kind):
    what = "class labels: a one-dimensional array, or for multi-label y a 0/1 indicator array (n, n_labels)"

    def check(self, name: str, value: object) -> Any:
        if hasattr(value, "to_numpy") and np.ndim(value) == 2:  # type: ignore[arg-type]
            value = value.to_numpy()
        if np.ndim(value) != 2:  # type: ignore[arg-type]
            return LABELS.check(name, value)
        arr = np.asarray(value)
        if arr.dtype.kind not in "biuf" or not ((arr == 0) | (arr == 1)).all() or arr.shape[1] == 0:
            raise ParameterValueError(
                f"{name} is two-dimensional {arr.shape}: multi-label y is a 0/1 indicator array, one column per "
                f"label (MultiLabelBinarizer makes one from label sets); got dtype {arr.dtype}"
                + ("" if arr.dtype.kind not in "biuf" else f" with values {np.unique(arr)[:5].tolist()}"),
                param=name,
            )
        return arr.astype(np.int64)


#: The kind of ``y``: class labels, or a multi-label indicator array.
_Y = _Targets()


class _Estimator(Kind):
    what = "a scikit-learn estimator (with fit and predict)"

    def check(self, name: str, value: object) -> Any:
        if not (hasattr(value, "fit") and hasattr(value, "predict")):
            raise TypeError(f"{name} must be a scikit-learn estimator with fit and predict, got {type(value).__name__}")
        return value


class _MethodOf(Relation):
    """A score method other than "auto" is one the estimator has."""

    names = ("method", "estimator")

    def check(self, values: Mapping[str, Any]) -> None:
        method, estimator = values.get("method", "auto"), values.get("estimator")
        if method != "auto" and estimator is not None and not hasattr(estimator, method):
            raise ValueError(f"method={method!r}, but {type(estimator).__name__} has no {method}")


class _ClassifierLabels(Relation):
    """``y`` holds two or more labels; with two, ``pos_label`` is one of them or has its default; with more,
    it is not given."""

    names = ("pos_label", "y")

    def check(self, values: Mapping[str, Any]) -> None:
        if "y" not in values:
            return
        pos_label = values.get("pos_label")
        if np.ndim(values["y"]) == 2:
            if pos_label is not None:
                raise ValueError(
                    "pos_label is for binary y; a multi-label y has one yes/no decision per label (each label's "
                    "score is its own column)"
                )
            return
        labels = unique_labels("y", values["y"])
        if labels.size < 2:
            raise ParameterValueError(
                f"y holds a single label ({labels.tolist()}); a classifier needs two or more", param="y"
            )
        if labels.size > 2:
            if pos_label is not None:
                raise ValueError(
                    f"pos_label is for binary y; y holds {labels.size} labels {labels[:10].tolist()}, which get "
                    "one score column each (y_score_<label>)"
                )
        elif pos_label is not None:
            check_pos_label(pos_label, labels, where="y")
        else:
            default_pos_label(labels)  # raises for labels without a default ("spam"/"ham")


class _CrossValidator(Kind):
    what = "a number of folds (an int, 2 or more), a scikit-learn splitter, or an iterable of (train, test) pairs"

    def check(self, name: str, value: object) -> Any:
        if isinstance(value, (bool, str, bytes, float, Mapping)) or value is None:
            raise TypeError(f"{name} must be {self.what}, got {type(value).__name__} {value!r}")
        if isinstance(value, numbers.Integral):
            if value < 2:
                raise ValueError(
                    f"{name}={int(value)}: cross-validation needs at least 2 folds (a model is tested on the cases "
                    "it was not trained on)"
                )
            return int(value)
        if hasattr(value, "split"):
            return value
        if not isinstance(value, Iterable):
            raise TypeError(f"{name} must be {self.what}, got {type(value).__name__}")
        splits = list(value)  # a generator is read once, here
        for i, pair in enumerate(splits):
            if isinstance(pair, (str, bytes)) or not isinstance(pair, Sequence) or len(pair) != 2:
                raise TypeError(f"{name}[{i}] must be a (train, test) pair of index arrays, got {type(pair).__name__}")
        return splits


class _WeightsForTask(Relation):
    """``sample_weight`` is for single-label ``y`` (the predictions of a multi-label ``y`` cannot carry weights), and
    some weight is not 0."""

    names = ("sample_weight", "y")

    def check(self, values: Mapping[str, Any]) -> None:
        if "sample_weight" in values and not np.any(values["sample_weight"]):
            raise ParameterValueError(
                "sample_weight is 0 for every case: no prediction would count, so every value would be 0/0",
                param="sample_weight",
            )
        if "sample_weight" in values and "y" in values and np.ndim(values["y"]) == 2:
            raise ParameterValueError(
                "sample_weight is not supported for multi-label y yet: the per-label counts of Van Asch §5 are counts "
                "of rows (CVPredictions refuses weights for multi-label predictions); weight a single-label task",
                param="sample_weight",
            )


@declare(
    estimator=_Estimator(),
    X=_Features(),
    y=_Y,
    cv=_CrossValidator(),
    groups=Nullable(Labels("a one-dimensional array of group ids, one per case")),
    method=Options(*_METHODS),
    pos_label=Nullable(LABEL),
    n_jobs=Nullable(N_JOBS),
    params=Nullable(_FitParams()),
    sample_weight=Nullable(SAMPLE_WEIGHT),
    relations=[
        SameLength("X", "y", "groups", "sample_weight"),
        _MethodOf(),
        _ClassifierLabels(),
        _WeightsPerCase(),
        _WeightsForTask(),
    ],
)
def cross_val_predictions(
    estimator: Any,
    X: Any,
    y: Any,
    *,
    cv: Any,
    groups: Any = None,
    method: str = "auto",
    pos_label: Any = None,
    n_jobs: int | None = None,
    params: Mapping[str, Any] | None = None,
    sample_weight: Any = None,
) -> CVPredictions:
    """Cross-validated predictions with their fold (and repeat), ready for :func:`apples.report`.

    Parameters
    ----------
    estimator : scikit-learn estimator
        Cloned and fitted once per training split.
    X : array-like or DataFrame of shape (n, n_features)
    y : array-like of shape (n,) or (n, n_labels)
        Class labels; for multi-label classification (a ``MultiOutputClassifier``, a
        ``OneVsRestClassifier``, or an estimator that takes such ``y``), a 0/1 indicator array, one
        column per label (Van Asch §5).
    cv : int, scikit-learn splitter or iterable of (train, test) pairs
        Any splitter with ``split(X, y, groups)``, repeated and grouped ones
        included; an int (2 or more) means scikit-learn's default (``StratifiedKFold`` for a
        classifier, without shuffling); an iterable gives the (train, test) index arrays of each
        split (or boolean masks over the rows of ``X``). Each split is checked before anything is
        fitted: indices within the rows of ``X``, a non-empty training and test set, no row tested
        twice in a split nor both trained on and tested.
    groups : array-like of shape (n,), optional
        Passed to the splitter (``GroupKFold``, ``StratifiedGroupKFold``).
    method : {"auto", "predict_proba", "decision_function", "predict"}, default "auto"
        The scores: ``"auto"`` takes ``predict_proba`` if the estimator has it,
        else ``decision_function``, else none (``"predict"``).
    pos_label : label, optional
        Binary ``y`` only: the label whose score ``y_score`` is (higher = more
        likely this label), the ``pos_label`` to pass to :func:`apples.report`.
        Default, as in :func:`apples.report`: 1 for 0/1 or -1/1 labels (True for
        bools); other labels (strings such as ``"benign"``) need it, since
        scikit-learn's score of the label that sorts last is the positive
        label's only by accident. The F-measures need it too, so it is
        required also with ``method="predict"``.
    n_jobs : int, optional
        Folds fitted in parallel (joblib); the result does not depend on it.
    params : dict, optional
        Parameters of the estimator's ``fit`` (and, with metadata routing, of the splitter's
        ``split``), passed per split exactly as scikit-learn's ``cross_val_predict(params=...)``
        passes them: without metadata routing every entry goes to ``fit``, an array-like with one
        entry per case cut to the training rows; with routing enabled
        (``sklearn.set_config(enable_metadata_routing=True)``) they are routed by scikit-learn's
        ``MetadataRouter`` (the estimator requests them, e.g. ``set_fit_request(sample_weight=True)``;
        ``groups`` then goes in ``params``). ``params["sample_weight"]`` (finite, non-negative, one per
        case) is also kept on the result: each prediction carries its case's weight
        (``CVPredictions.sample_weight``), so :func:`apples.report` computes every value with it.
        Weights given to a step only (``params={"logisticregression__sample_weight": w}``) weight
        that fit but not the predictions, and a warning says that the report will be unweighted:
        pass them as ``sample_weight=``.
    sample_weight : array-like of shape (n,), optional
        A finite non-negative weight per case, used twice. Each split's fit gets the weights of its
        training rows where the estimator's fit takes ``sample_weight`` (scikit-learn's
        ``has_fit_parameter``; a ``Pipeline``: its last step's, as ``<step>__sample_weight``, the
        other steps fitted unweighted as ``Pipeline.fit`` does; with metadata routing enabled: when
        the estimator requests them, ``set_fit_request(sample_weight=True)``). The predictions keep
        the weight of each test row (``CVPredictions.sample_weight``), so that :func:`apples.report`
        weights every value. An estimator whose fit takes no weights (``KNeighborsClassifier``) is
        fitted unweighted and a ``UserWarning`` says so, rather than being refused: weights that
        describe the population a result is reported for (survey or importance weights) belong to
        the evaluation whatever the learner does with them. Multi-label ``y`` refuses weights (its
        per-label counts count rows).

    Returns
    -------
    CVPredictions
        One row per prediction, ordered by repeat and then by row of ``X``: ``repeats`` (0, 1, ...; a
        new repeat starts when a case is tested a second time; None when there is one), ``folds``
        (0, 1, ... within the repeat, the order of the splitter). Splitters whose test sets do not
        form partitions of one set of cases (``ShuffleSplit``, ``StratifiedShuffleSplit``,
        ``GroupShuffleSplit``, ``LeavePOut``, overlapping test sets) give one repeat per split, each
        with the single fold 0 (``design`` ``"repeated hold-out"``): every value of a report is then
        the split's own, averaged over splits, and no case is counted twice in one value. Cases
        never tested (``TimeSeriesSplit``'s first block) are absent; ``n_cases`` is the length of
        ``y``, so :meth:`~CVPredictions.design_info` counts them. Each row has ``cases`` (the row of
        ``X``), ``y_true``, ``y_pred`` and ``y_score``: for binary labels the probability of
        ``pos_label``, or the decision value oriented towards it (scikit-learn's decision value
        scores ``classes_[1]`` and is negated when ``pos_label`` is ``classes_[0]``); for more
        labels one column per label in sorted order (0 for a label a fold's model never saw); for a
        multi-label ``y`` the task is ``"multilabel"``, ``y_true`` and ``y_pred`` indicator arrays and
        ``y_score`` one column per label (the probability of the label, or its decision value; labels
        named 0, 1, ... after the columns). Its ``pos_label`` is the positive label of binary ``y``.
        ``.to_frame()`` gives the same as a DataFrame.

    Raises
    ------
    ParameterValueError, ParameterTypeError
        A ValueError or TypeError naming the argument in ``.param``, with scikit-learn's own
        exception, where there is one, as ``__cause__``: ``pos_label`` missing for binary labels
        other than 0/1, not one of the labels of ``y`` or of another kind, or given for multi-class
        ``y``; bad ``X``, ``y``, ``groups``, ``method``, ``params`` or ``sample_weight``; ``cv``
        below 2 folds, not a number of folds nor a splitter, empty, with indices outside the rows
        of ``X``, more folds than cases (``KFold(100)`` on 80), or a training set of one class that
        the estimator cannot be fitted on (the split and the class named); a grouped splitter
        without ``groups``; a fit parameter the estimator does not take (``params``); NaN or
        infinite values in ``X`` that the estimator cannot take (the first cell named); any other
        failure of a fit (``estimator``, the split named).

    Warns
    -----
    UserWarning
        ``sample_weight`` given to an estimator whose fit takes none (fitted unweighted); weights
        in ``params`` under a step's name only (the predictions carry none).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import RepeatedStratifiedKFold
    >>> from apples import cross_val_predictions
    >>> X = np.arange(40, dtype=float).reshape(20, 2); y = np.array([0, 1] * 10)
    >>> cv = RepeatedStratifiedKFold(n_splits=2, n_repeats=2, random_state=0)
    >>> p = cross_val_predictions(LogisticRegression(), X, y, cv=cv)
    >>> list(p.to_frame().columns), len(p), p.pos_label
    (['repeat', 'fold', 'case', 'y_true', 'y_pred', 'y_score'], 40, 1)
    >>> names = np.array(["malignant", "benign"])[y]      # "malignant" sorts last: not the positive label here
    >>> a = cross_val_predictions(LogisticRegression(), X, names, cv=cv, pos_label="benign")
    >>> b = cross_val_predictions(LogisticRegression(), X, names, cv=cv, pos_label="malignant")
    >>> bool(np.allclose(a.y_score, 1 - b.y_score)), a.pos_label
    (True, 'benign')
    """
    model_selection = require("sklearn.model_selection")
    joblib = require("joblib")
    y_arr = y
    multilabel = y_arr.ndim == 2
    labels = np.arange(y_arr.shape[1]) if multilabel else unique_labels("y", y_arr)
    if method == "auto":
        method = next((m for m in ("predict_proba", "decision_function") if hasattr(estimator, m)), "predict")
    if labels.size == 2 and pos_label is None and not multilabel:
        pos_label = default_pos_label(labels)  # _ClassifierLabels made sure there is one
    splitter = None if isinstance(cv, list) else model_selection.check_cv(cv, y_arr, classifier=True)
    if params is not None and sample_weight is None:
        warn_weights_only_in_fit(params)
    split_params, fit_params = routed(estimator, splitter, groups, params or {}, sample_weight)
    raw = cv if splitter is None else split_data(splitter, X, y_arr, split_params)
    splits = checked_splits(raw, len(y_arr))
    split_repeat, split_fold = _repeats_of_splits(splitter, [te for _, te in splits], len(y_arr))
    results = joblib.Parallel(n_jobs=n_jobs)(
        joblib.delayed(fit_split)(i, estimator, X, y_arr, tr, te, method, labels, pos_label, fit_params)
        for i, (tr, te) in enumerate(splits)
    )
    failure = next((r for r in results if isinstance(r, Failure)), None)
    if failure is not None:
        i = failure.split
        where = f"split {i} (repeat {split_repeat[i]}, fold {split_fold[i]})"
        raise explain_failure(
            failure,
            estimator=estimator,
            X=X,
            y=y_arr,
            train=splits[i][0],
            params=params,
            weighted=sample_weight is not None,
            where=where,
        ) from failure.error
    done = cast("list[tuple[np.ndarray, np.ndarray | None]]", results)
    repeat_of = [np.full(te.size, r) for (_, te), r in zip(splits, split_repeat, strict=True)]
    fold_of = [np.full(te.size, f) for (_, te), f in zip(splits, split_fold, strict=True)]
    holdout = bool(split_fold) and max(split_fold) == 0
    repeat = max(split_repeat, default=0)
    cases = np.concatenate([te for _, te in splits])
    rep = np.concatenate(repeat_of)
    order = np.lexsort((cases, rep))  # by repeat, then by row of X
    y_pred = np.concatenate([r[0] for r in done])[order]
    scores = None if done[0][1] is None else np.concatenate([r[1] for r in done])[order]
    weights = sample_weight if sample_weight is not None else (params or {}).get("sample_weight")
    return CVPredictions(
        y_arr[cases[order]],
        folds=np.concatenate(fold_of)[order],
        y_pred=y_pred,
        y_score=scores,
        repeats=rep[order] if repeat > 0 or holdout else None,
        cases=cases[order],
        labels=labels.tolist() if labels.size > 2 or multilabel else None,
        pos_label=pos_label,
        n_cases=len(y_arr),
        sample_weight=None if weights is None else weights[cases[order]],
    )


def _repeats_of_splits(splitter: Any, tests: list[np.ndarray], n: int) -> tuple[list[int], list[int]]:
    """The repeat and the fold of each split, in the splitter's order.

    Consecutive splits whose test sets are disjoint form one repeat (a partition: ``KFold``,
    ``LeaveOneOut``, each repeat of ``RepeatedStratifiedKFold``, ``TimeSeriesSplit`` with its first
    cases never tested). That reading holds only when every repeat tests the same cases; otherwise
    (``LeavePOut``, overlapping test sets) and for the shuffle splitters, whose test sets are drawn
    independently and may happen to be disjoint (``ShuffleSplit``, ``StratifiedShuffleSplit``,
    ``GroupShuffleSplit``), each split is a repeat of its own with one fold: a hold-out test set.
    """
    ms = require("sklearn.model_selection")
    one_each = ([*range(len(tests))], [0] * len(tests))
    shuffled = (ms.ShuffleSplit, ms.StratifiedShuffleSplit, ms.GroupShuffleSplit)
    if splitter is not None and isinstance(splitter, shuffled):
        return one_each
    seen = np.zeros(n, dtype=bool)
    repeat, fold = 0, 0
    repeats, folds, covered = [], [], []
    for test in tests:
        if seen[test].any():  # a case tested again: the next repeat starts
            covered.append(seen.copy())
            repeat, fold, seen[:] = repeat + 1, 0, False
        seen[test] = True
        repeats.append(repeat)
        folds.append(fold)
        fold += 1
    covered.append(seen)
    same_cases = all(np.array_equal(c, covered[0]) for c in covered[1:])
    one_fold = np.bincount(repeats).min() < 2  # a repeat of one test set is a hold-out split
    if not same_cases or one_fold:
        return one_each
    return repeats, folds
