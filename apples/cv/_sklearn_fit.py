"""Fitting the splits of :func:`apples.cross_val_predictions`: fit parameters and sample weights routed to each
fit, the splits checked against the data, and every failure of scikit-learn named by the argument at fault.

Each split's work (:func:`fit_split`) returns its predictions or a :class:`Failure` holding scikit-learn's
exception, so that the caller (in the parent process, whatever ``n_jobs``) raises one
:class:`~apples.ParameterValueError` naming the argument and the split, with scikit-learn's exception
kept as ``__cause__`` (:func:`explain_failure`).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from apples._optional import require
from apples._params import ParameterTypeError, ParameterValueError

__all__: list[str] = []

#: The key of scikit-learn's sample weights among fit parameters (a Pipeline's step: ``<step>__sample_weight``).
WEIGHT = "sample_weight"


# -- the splits --------------------------------------------------------------------------------------------------
def split_data(splitter: Any, X: Any, y: np.ndarray, split_params: Mapping[str, Any]) -> list[tuple[Any, Any]]:
    """The (train, test) pairs of ``splitter.split``; scikit-learn's refusal as a ParameterValueError naming
    ``cv`` (or ``groups``, when a grouped splitter was given none)."""
    try:
        return list(splitter.split(X, y, **split_params))
    except (ValueError, TypeError) as err:
        text = _first_line(err)
        if split_params.get("groups") is None and "groups" in text:
            routing = require("sklearn").get_config().get("enable_metadata_routing", False)
            how = "params={'groups': groups}" if routing else "groups="
            raise ParameterValueError(
                f"groups: {_name(splitter)} splits by group, and no groups were given (pass {how}, one group id "
                f"per case); scikit-learn says: {text}",
                param="groups",
            ) from err
        raise ParameterValueError(f"cv={splitter!r} cannot split the {len(y)} cases of X: {text}", param="cv") from err


def checked_splits(raw: Sequence[Any], n: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each (train, test) pair as integer index arrays within the ``n`` rows of X, or a ParameterValueError
    naming ``cv`` and the split: no split, indices outside 0..n-1, an empty test or training set, a row tested
    twice in one split, or a row both trained on and tested."""
    if not raw:
        raise ParameterValueError("cv gave no (train, test) split: there is nothing to cross-validate", param="cv")
    out = []
    for i, (train, test) in enumerate(raw):
        tr, te = _indices(train, n, i, "training"), _indices(test, n, i, "test")
        if te.size == 0 or tr.size == 0:
            empty = "test" if te.size == 0 else "training"
            raise ParameterValueError(f"cv: split {i} has an empty {empty} set", param="cv")
        unique = np.unique(te)
        if unique.size < te.size:
            twice = int(np.flatnonzero(np.bincount(te, minlength=n) > 1)[0])
            raise ParameterValueError(f"cv: split {i} tests row {twice} of X twice", param="cv")
        both = np.intersect1d(tr, unique)
        if both.size:
            raise ParameterValueError(
                f"cv: split {i} trains on {both.size} of the rows it tests (row {int(both[0])} of X first): a test "
                "row must be held out of the training rows of its split",
                param="cv",
            )
        out.append((tr, te))
    return out


def _indices(value: Any, n: int, split: int, what: str) -> np.ndarray:
    try:
        arr = np.asarray(value)
    except (ValueError, TypeError) as err:
        raise ParameterTypeError(f"cv: the {what} rows of split {split} are not an index array", param="cv") from err
    if arr.dtype == bool:
        if arr.shape != (n,):
            raise ParameterValueError(
                f"cv: the {what} rows of split {split} are a boolean mask of shape {arr.shape}; X has {n} rows",
                param="cv",
            )
        return np.flatnonzero(arr)
    if arr.ndim != 1:
        raise ParameterValueError(
            f"cv: the {what} rows of split {split} must be a one-dimensional index array, got shape {arr.shape}",
            param="cv",
        )
    if arr.size == 0:
        return arr.astype(np.intp)
    if arr.dtype.kind not in "iu":
        raise ParameterTypeError(
            f"cv: the {what} rows of split {split} must be integer indices of the rows of X, got dtype {arr.dtype}",
            param="cv",
        )
    low, high = int(arr.min()), int(arr.max())
    if low < 0 or high >= n:
        bad = high if high >= n else low
        raise ParameterValueError(
            f"cv: split {split} has {what} index {bad}, but X has {n} rows (indices 0 to {n - 1})", param="cv"
        )
    return arr.astype(np.intp, copy=False)


# -- fit parameters and weights ----------------------------------------------------------------------------------
def weight_key(estimator: Any) -> str | None:
    """The fit parameter that carries sample weights to the estimator's final fit, or None if it takes none.

    An estimator's own ``fit(sample_weight=...)`` (scikit-learn's ``has_fit_parameter``); a Pipeline's last
    step, as ``<step>__sample_weight`` (nested Pipelines too); the other steps of a Pipeline are fitted
    unweighted, as scikit-learn's ``Pipeline.fit`` does with a step's parameter.
    """
    pipeline = require("sklearn.pipeline").Pipeline
    if isinstance(estimator, pipeline):
        name, last = estimator.steps[-1]
        if last is None or (isinstance(last, str) and last == "passthrough"):
            return None
        inner = weight_key(last)
        return None if inner is None else f"{name}__{inner}"
    has_fit_parameter = require("sklearn.utils.validation").has_fit_parameter
    try:
        return WEIGHT if has_fit_parameter(estimator, WEIGHT) else None
    except (TypeError, ValueError):  # a fit whose signature cannot be read
        return None


def routing_enabled() -> bool:
    return bool(require("sklearn").get_config().get("enable_metadata_routing", False))


def routed(
    estimator: Any,
    splitter: Any,
    groups: Any,
    params: Mapping[str, Any],
    sample_weight: np.ndarray | None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(split parameters, fit parameters), routed as scikit-learn's ``cross_val_predict(params=...)`` routes them,
    with ``sample_weight`` added where the estimator's fit takes it (else a warning: fitted unweighted).

    With metadata routing enabled (``sklearn.set_config(enable_metadata_routing=True)``), ``params`` go
    through a ``MetadataRouter`` to the splitter's ``split`` and the estimator's ``fit`` (the estimator
    must request them: ``set_fit_request(sample_weight=True)``; else scikit-learn raises), and ``groups``
    is passed in ``params``; ``sample_weight`` joins them when the estimator requests it. Without routing,
    ``groups`` goes to the splitter and every param to ``fit``, ``sample_weight`` under :func:`weight_key`.
    """
    if not routing_enabled() or (not params and sample_weight is None):
        fit_params = dict(params)
        if sample_weight is not None:
            key = weight_key(estimator)
            if key is None:
                _warn_unweighted_fit(estimator, "its fit takes no sample_weight")
            elif key in fit_params:
                raise ParameterValueError(
                    f"sample weights are given twice, as sample_weight= and as params[{key!r}]: give them once, as "
                    "sample_weight= (which also weights the predictions)",
                    param="params",
                )
            else:
                fit_params[key] = sample_weight
        return {"groups": groups}, fit_params
    if groups is not None:
        raise ParameterValueError(
            "with metadata routing enabled, pass groups in params= (params={'groups': groups}), as scikit-learn's "
            "cross_val_predict requires",
            param="groups",
        )
    routing = require("sklearn.utils.metadata_routing")
    params = dict(params)
    if sample_weight is not None:
        if WEIGHT in params:
            raise ParameterValueError(
                "sample weights are given twice, as sample_weight= and as params['sample_weight']: give them once, "
                "as sample_weight=",
                param="params",
            )
        if routing.get_routing_for_object(estimator).consumes("fit", [WEIGHT]):
            params[WEIGHT] = sample_weight
        else:
            why = "with metadata routing enabled it does not request them (set_fit_request(sample_weight=True))"
            _warn_unweighted_fit(estimator, why)
    router = routing.MetadataRouter(owner="cross_val_predictions").add(
        estimator=estimator, method_mapping=routing.MethodMapping().add(caller="fit", callee="fit")
    )
    if splitter is not None:
        router.add(splitter=splitter, method_mapping=routing.MethodMapping().add(caller="fit", callee="split"))
    try:
        found = routing.process_routing(router, "fit", **params)
    except (ValueError, TypeError) as err:
        raise ParameterValueError(f"params: {_first_line(err)}", param="params") from err
    split = dict(found.splitter.split) if splitter is not None else {}
    return split, dict(found.estimator.fit)


def _warn_unweighted_fit(estimator: Any, why: str) -> None:
    warnings.warn(
        f"{_name(estimator)} is fitted without sample weights ({why}); the weights are kept on the predictions, "
        "so the report weights every value with them",
        UserWarning,
        stacklevel=5,  # the caller of cross_val_predictions (through routed and the declaration's wrapper)
    )


def warn_weights_only_in_fit(params: Mapping[str, Any]) -> None:
    """Weights passed to fit through ``params`` under a step's name, not as ``sample_weight=``: the predictions
    carry none, and the report will not be weighted."""
    keys = [k for k in params if k.endswith(f"__{WEIGHT}") and params[k] is not None]
    if keys:
        warnings.warn(
            f"params[{keys[0]!r}] weights the fit, but the predictions carry no weights: the report of these "
            "predictions will be unweighted. Pass the weights as sample_weight= instead, which weights both the "
            "fit and the predictions",
            UserWarning,
            stacklevel=4,  # the caller of cross_val_predictions (through the declaration's wrapper)
        )


def train_params(params: Mapping[str, Any], n: int, train: np.ndarray) -> dict[str, Any]:
    """The fit parameters of one split, as scikit-learn's ``cross_val_predict`` passes them
    (``sklearn.utils.validation._check_method_params``): an array-like with one entry per case is cut to the
    training rows (``sklearn.utils._safe_indexing``), anything else is passed as it is."""
    safe_indexing = require("sklearn.utils")._safe_indexing
    out: dict[str, Any] = {}
    for key, value in params.items():
        arraylike = hasattr(value, "__len__") or hasattr(value, "shape") or hasattr(value, "__array__")
        if arraylike and not isinstance(value, (str, bytes, Mapping)) and _n_rows(value) == n:
            out[key] = safe_indexing(value, train)
        else:
            out[key] = value
    return out


def _n_rows(value: Any) -> int | None:
    shape = getattr(value, "shape", None)
    if shape is not None:
        return int(shape[0]) if len(shape) else None
    try:
        return len(value)
    except TypeError:
        return None


# -- one split ---------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Failure:
    """A split whose fit or prediction scikit-learn refused: its number and scikit-learn's exception."""

    split: int
    error: BaseException


def fit_split(
    split: int,
    estimator: Any,
    X: Any,
    y: np.ndarray,
    train: np.ndarray,
    test: np.ndarray,
    method: str,
    labels: np.ndarray,
    pos_label: Any,
    fit_params: Mapping[str, Any],
) -> tuple[np.ndarray, np.ndarray | None] | Failure:
    """:func:`_fit_and_predict`, or the :class:`Failure` of a ValueError or TypeError raised inside it."""
    try:
        return _fit_and_predict(estimator, X, y, train, test, method, labels, pos_label, fit_params)
    except (ValueError, TypeError) as err:
        return Failure(split, err)


def _fit_and_predict(
    estimator: Any,
    X: Any,
    y: np.ndarray,
    train: np.ndarray,
    test: np.ndarray,
    method: str,
    labels: np.ndarray,
    pos_label: Any,
    fit_params: Mapping[str, Any],
) -> tuple[np.ndarray, np.ndarray | None]:
    """Fit a clone on ``train`` (with ``fit_params``, their rows of ``train``); predicted labels and scores (None,
    1-d or one column per label) on ``test``."""
    clone = require("sklearn.base").clone
    model = clone(estimator).fit(take(X, train), y[train], **train_params(fit_params, y.shape[0], train))
    Xt = take(X, test)
    y_pred = np.asarray(model.predict(Xt))
    if method == "predict":
        return y_pred, None
    if y.ndim == 2:
        return y_pred, _label_scores(getattr(model, method)(Xt), model, len(test), y.shape[1], method)
    raw = np.asarray(getattr(model, method)(Xt), dtype=float)
    classes = list(model.classes_)
    if labels.size == 2:
        return y_pred, _positive_score(raw, classes, pos_label, method)
    out = np.zeros((len(test), labels.size))  # a label this fold's model never saw scores 0
    for j, lab in enumerate(labels.tolist()):
        if lab in classes:
            out[:, j] = raw[:, classes.index(lab)]
    return y_pred, out


def take(X: Any, rows: np.ndarray) -> Any:
    return X.iloc[rows] if hasattr(X, "iloc") else X[rows]


def _positive_score(raw: np.ndarray, classes: list, pos_label: Any, method: str) -> np.ndarray:
    """The score of ``pos_label`` from a binary model's ``predict_proba`` or ``decision_function`` output.

    A probability table has a column per class of ``classes_``: the positive label's (0 if this
    fold's model never saw it). A one-dimensional decision value is, in scikit-learn, the score of
    ``classes_[1]``; it is negated when the positive label is ``classes_[0]``, so that higher
    always means "more likely the positive label".
    """
    if raw.ndim == 2:
        return raw[:, classes.index(pos_label)] if pos_label in classes else np.zeros(raw.shape[0])
    if len(classes) != 2 or pos_label not in classes:
        raise ValueError(
            f"{method} gave one score per case, but the model's classes_ are {classes}: cannot tell the "
            f"score of pos_label={pos_label!r}"
        )
    return raw if classes.index(pos_label) == 1 else -raw


def _label_scores(raw: Any, model: Any, n: int, q: int, method: str) -> np.ndarray:
    """One score column per label of a multi-label model, ``(n, q)``: higher = more likely the label applies.

    ``OneVsRestClassifier`` gives the table itself; ``MultiOutputClassifier``, forests and k-NN give a
    list with one output per label, whose probability of class 1 (0 if that label's model never saw it)
    or decision value of ``classes_[1]`` is the label's score.
    """
    if not isinstance(raw, list):
        table = np.asarray(raw, dtype=float)
        if table.shape != (n, q):
            raise ValueError(f"{method} gave scores of shape {table.shape}, expected one column per label {(n, q)}")
        return table
    if len(raw) != q:
        raise ValueError(f"{method} gave {len(raw)} outputs for {q} labels")
    classes = getattr(model, "classes_", None)
    out = np.zeros((n, q))
    for j, r in enumerate(raw):
        r = np.asarray(r, dtype=float)
        seen = [1, 0] if classes is None else np.asarray(classes[j]).tolist()
        if r.ndim == 1:
            out[:, j] = r if seen[-1] == 1 else -r  # the decision value of classes_[-1]
        elif 1 in seen:
            out[:, j] = r[:, seen.index(1)]
    return out


# -- failures, named ---------------------------------------------------------------------------------------------
def explain_failure(
    failure: Failure,
    *,
    estimator: Any,
    X: Any,
    y: np.ndarray,
    train: np.ndarray,
    params: Mapping[str, Any] | None,
    weighted: bool,
    where: str,
) -> ParameterValueError:
    """The argument behind a split's failure, as a ParameterValueError whose ``__cause__`` the caller sets to
    scikit-learn's exception: a fit parameter the estimator does not take (``params``, the caller's), missing or
    infinite values in ``X``, weights the fit refused (``sample_weight``, when ``weighted``: e.g. a training set
    whose weights are all 0), a training set with one class (``cv``), else the estimator itself."""
    err = failure.error
    text = _first_line(err)
    name = _name(estimator)
    unknown = [k for k in (params or {}) if k in str(err)]
    if unknown:
        return ParameterValueError(
            f"params[{unknown[0]!r}]: fitting {name} on {where} failed, it does not take that parameter; "
            f"scikit-learn says: {text}",
            param="params",
        )
    lower = str(err).lower()
    cell = _nonfinite_cell(X) if ("nan" in lower or "infinity" in lower or "finite" in lower) else None
    if cell is not None:
        return ParameterValueError(
            f"X holds {cell}, and {name} cannot be fitted on missing or infinite values: impute them (a "
            "SimpleImputer first in a Pipeline), drop those rows, or use an estimator that takes NaN "
            f"(HistGradientBoostingClassifier); scikit-learn says: {text}",
            param="X",
        )
    if weighted and "weight" in lower:
        return ParameterValueError(
            f"sample_weight: fitting {name} on {where} failed on the weights of its training rows; scikit-learn "
            f"says: {text}",
            param="sample_weight",
        )
    single = _single_class(y[train])
    if single is not None:
        return ParameterValueError(
            f"cv: the training rows of {where} hold {single}, and {name} cannot be fitted on it; use a stratified "
            f"splitter (StratifiedKFold) or fewer folds; scikit-learn says: {text}",
            param="cv",
        )
    return ParameterValueError(f"estimator: fitting {name} on {where} failed: {text}", param="estimator")


def _single_class(y: np.ndarray) -> str | None:
    """What makes a training set unlearnable for most classifiers: one class only (one value of a label column)."""
    if y.ndim == 2:
        for j in range(y.shape[1]):
            values = np.unique(y[:, j])
            if values.size < 2:
                return f"only {int(values[0]) if values.size else 0}s in label column {j} ({y.shape[0]} rows)"
        return None
    values, counts = np.unique(y, return_counts=True)
    if values.size < 2:
        return f"the single class {values[0].item() if hasattr(values[0], 'item') else values[0]!r} ({counts[0]} rows)"
    return None


def _nonfinite_cell(X: Any) -> str | None:
    """Where ``X`` holds NaN (or a missing value) or an infinity: how many cells, and the first (row, column)."""
    if hasattr(X, "iloc"):
        frame = X
        missing = frame.isna().to_numpy()
        numeric = frame.select_dtypes("number")
        if numeric.shape[1]:
            inf = np.zeros(missing.shape, dtype=bool)
            positions = [frame.columns.get_loc(c) for c in numeric.columns]
            values = numeric.to_numpy(dtype=float, na_value=np.nan)
            inf[:, positions] = np.isinf(values)
            missing = missing | inf
        if not missing.any():
            return None
        r, c = np.argwhere(missing)[0]
        value = frame.iat[r, c]
        return (
            f"{_what(value)} in {int(missing.sum()):,} cell(s), the first at row {int(r)} (index {frame.index[r]!r}), "
            f"column {frame.columns[c]!r}"
        )
    try:
        arr = np.asarray(X, dtype=float)
    except (ValueError, TypeError):
        return None
    bad = ~np.isfinite(arr)
    if arr.ndim != 2 or not bad.any():
        return None
    r, c = np.argwhere(bad)[0]
    return f"{_what(arr[r, c])} in {int(bad.sum()):,} cell(s), the first at X[{int(r)}, {int(c)}]"


def _what(value: Any) -> str:
    try:
        v = float(value)
    except (TypeError, ValueError):
        return "missing values"
    return "NaN" if v != v else "infinite values"


def _name(obj: Any) -> str:
    return type(obj).__name__


def _first_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__
