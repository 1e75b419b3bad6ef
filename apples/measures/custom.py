"""A researcher's own measure, as a record like the built-in ones: :func:`from_counts`, :func:`from_predictions`.

Introduced in notebook 10. A measure of your own goes through :func:`apples.report` and
:func:`apples.compare` as the built-in measures do: every aggregation, the 0/0 rule you choose, the
label averages of a multi-class task, sample weights, repeats and an interval beside each value.

* :func:`from_counts`: a function of the confusion counts ``f(tp, fp, fn, tn)``, written with numpy
  so that it takes arrays (one value per fold, or per leave-one-fold-out table) and returns NaN
  where it is 0/0. Multi-class and multi-label tasks get it per label, one label against the rest,
  averaged over the labels (macro, label-frequency-based) or of the summed counts (micro), as Van
  Asch (2013, §3) averages precision and recall.
* :func:`from_predictions`: a function of one fold's rows, ``f(y_true, y, sample_weight)`` with ``y``
  the predicted labels or the scores, as scikit-learn's metrics are (``lambda t, p, w:
  sklearn.metrics.fbeta_score(t, p, beta=2, sample_weight=w)``). It is called on every fold, on the
  repeat's rows together (the pooled or merged value) and on the rows without each fold (the jackknife
  of the interval): the cost is about (folds + 1) calls on all the rows per repeat, and the report
  refuses the jackknife beyond a stated number of rows.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from apples._kernels.averages import weighted_mean
from apples._kernels.totals import LabelTotals
from apples._params import FLAG, Instance, Kind, Nullable, Options, ParameterValueError, declare
from apples.measures.builtin import MEASURES
from apples.measures.record import Aggregation, Measure

__all__ = [
    "from_counts",
    "from_predictions",
]

_KEY_PATTERN = re.compile(r"[a-z][a-z0-9_]*\Z")


class _Key(Kind):
    what = "a new measure key: lower-case letters, digits and _, starting with a letter"

    def check(self, name: str, value: object) -> str:
        if not isinstance(value, str):
            raise TypeError(f"{name} must be {self.what}, got {type(value).__name__}")
        if not _KEY_PATTERN.match(value):
            raise ValueError(f"{name} must be {self.what}, got {value!r}")
        if value in MEASURES:
            raise ValueError(f"{name}={value!r} is a built-in measure; give your measure a key of its own")
        return value


class _Function(Kind):
    what = "a callable"

    def check(self, name: str, value: object) -> Callable[..., Any]:
        if not callable(value):
            raise TypeError(f"{name} must be a function, got {type(value).__name__}")
        return value


class _Range(Kind):
    what = "a pair (low, high) of numbers with low < high (inf allowed)"

    def check(self, name: str, value: object) -> tuple[float, float]:
        try:
            lo, hi = (float(v) for v in value)  # type: ignore[attr-defined]
        except (TypeError, ValueError):
            raise TypeError(f"{name} must be {self.what}, got {value!r:.80}") from None
        if math.isnan(lo) or math.isnan(hi) or not lo < hi:
            raise ValueError(f"{name} must be {self.what}, got {value!r:.80}")
        return lo, hi


_NAME = Nullable(Instance(str, hint="how reports print it", what="a str"))
_TEXT = Instance(str, hint="the source: paper, section, equation", what="a str")
_POLICY = Options("nan", "zero", "skip")


def _label_counts(t: LabelTotals) -> tuple[np.ndarray, ...]:
    """TP, FP, FN, TN per label (labels last): each label against the rest."""
    n = np.asarray(t.n, dtype=float)[..., None]
    tp, fp, fn = (np.asarray(a, dtype=float) for a in (t.tp, t.fp, t.fn))
    return tp, fp, fn, n - tp - fp - fn


def _counts_kernel(key: str, function: Callable[..., Any]) -> Callable[..., np.ndarray]:
    def call(*counts: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            out = np.asarray(function(*counts), dtype=float)
        if out.shape != counts[0].shape:
            raise ParameterValueError(
                f"measure {key!r}: its function returned shape {out.shape} for counts of shape {counts[0].shape}; "
                "write it with numpy so that it takes arrays and returns one value per element (np.where for 0/0)",
                param="measures",
            )
        return out

    def kernel(t: LabelTotals, *, average: str, train: np.ndarray | None, undefined: str, options: Mapping) -> Any:
        tp, fp, fn, tn = _label_counts(t)
        if not average:  # binary: the positive label (code 1)
            return call(tp[..., 1], fp[..., 1], fn[..., 1], tn[..., 1])
        if average == "micro":
            return call(tp.sum(axis=-1), fp.sum(axis=-1), fn.sum(axis=-1), tn.sum(axis=-1))
        weights = np.ones(tp.shape[-1]) if average == "macro" else (tp + fn if average == "lfb_test" else train)
        return weighted_mean(call(tp, fp, fn, tn), weights, undefined)  # type: ignore[arg-type]

    return kernel


@declare(
    key=_Key(),
    function=_Function(),
    name=_NAME,
    greater_is_better=FLAG,
    value_range=_Range(),
    percent=FLAG,
    undefined=_POLICY,
    label_undefined=_POLICY,
    references=_TEXT,
)
def from_counts(
    key: str,
    function: Callable[..., Any],
    *,
    name: str | None = None,
    greater_is_better: bool = True,
    value_range: tuple[float, float] = (0.0, 1.0),
    percent: bool = True,
    undefined: str = "nan",
    label_undefined: str = "zero",
    references: str = "",
) -> Measure:
    """A measure of the confusion counts, ``function(tp, fp, fn, tn)``, as a record the report can use.

    Parameters
    ----------
    key : str
        Its key in tables and JSON (lower case, not a built-in measure's).
    function : callable
        ``function(tp, fp, fn, tn) -> value``, on numpy arrays of equal shape (float counts; sums of
        weights with sample weights), returning an array of that shape with NaN where the value is 0/0.
    name : str, optional
        How reports print it (default: the key).
    greater_is_better : bool, default True
    value_range : (float, float), default (0, 1)
        The values it can take (intervals are clipped to it; a report read back is checked against it).
    percent : bool, default True
        Print in percent (a rate), else with four decimals.
    undefined : {"nan", "zero", "skip"}, default "nan"
        What a fold whose value is 0/0 does to the mean over folds: the mean is undefined, counts it 0,
        or leaves it out (the pooled value is undefined only where the pooled counts are 0/0).
    label_undefined : {"zero", "skip", "nan"}, default "zero"
        Multi-class macro and lfb averages: what a label whose value is 0/0 counts (Van Asch §4.1: 0).
    references : str
        Where the measure comes from (for the methods paragraph).

    Returns
    -------
    Measure
        With the aggregations ``pooled`` and ``avg``, for binary, multi-class and multi-label tasks.

    Examples
    --------
    The Jaccard index (critical success index) TP / (TP + FP + FN):

    >>> import numpy as np
    >>> from apples import CVPredictions, report
    >>> from apples.measures import from_counts
    >>> jaccard = from_counts("jaccard", lambda tp, fp, fn, tn: np.where(tp + fp + fn > 0, tp / (tp + fp + fn), np.nan))
    >>> p = CVPredictions([1, 0, 1, 1, 0, 0], folds=[0, 0, 0, 1, 1, 1], y_pred=[1, 0, 0, 1, 1, 0])
    >>> report(p, measures=["f_measure", jaccard]).value("jaccard", "pooled")
    0.5
    """
    return Measure(
        key=key,
        name=name or key,
        family="counts",
        kernel=_counts_kernel(key, function),
        tasks=("binary", "multiclass", "multilabel"),
        aggregations=(
            Aggregation("pooled", "pooled", "nan", "pooled over folds"),
            Aggregation("avg", "avg", undefined, "averaged over folds"),  # type: ignore[arg-type]
        ),
        averages=("macro", "micro", "lfb_test", "lfb_train"),
        label_undefined=label_undefined,  # type: ignore[arg-type]
        range=value_range,
        greater_is_better=greater_is_better,
        percent=percent,
        undefined_text=f"a fold whose value is 0/0: {_POLICY_WORDS[undefined]} in the mean over folds",
        fold_undefined="0/0",
        references=references,
    )


_POLICY_WORDS = {"nan": "undefined", "zero": "counted 0", "skip": "left out"}


@declare(
    key=_Key(),
    function=_Function(),
    needs=Options("y_pred", "y_score"),
    name=_NAME,
    greater_is_better=FLAG,
    value_range=_Range(),
    percent=FLAG,
    undefined=_POLICY,
    tasks=Options("binary", "multiclass", "multilabel", "all"),
    references=_TEXT,
)
def from_predictions(
    key: str,
    function: Callable[..., Any],
    *,
    needs: str = "y_pred",
    name: str | None = None,
    greater_is_better: bool = True,
    value_range: tuple[float, float] = (0.0, 1.0),
    percent: bool = True,
    undefined: str = "nan",
    tasks: str = "all",
    references: str = "",
) -> Measure:
    """A measure of one fold's rows, ``function(y_true, y, sample_weight)``, as a record the report can use.

    Parameters
    ----------
    key : str
        Its key in tables and JSON (lower case, not a built-in measure's).
    function : callable
        ``function(y_true, y, sample_weight) -> float``: ``y`` the predicted labels (``needs="y_pred"``)
        or the scores (``needs="y_score"``) of the rows, ``sample_weight`` None or their weights; NaN
        where it is undefined.
    needs : {"y_pred", "y_score"}, default "y_pred"
        What it reads. Its value on all of a repeat's rows is ``pooled`` for labels and ``merge`` for scores.
    name, greater_is_better, value_range, percent, undefined, references
        As :func:`from_counts`.
    tasks : {"all", "binary", "multiclass", "multilabel"}, default "all"
        The tasks it applies to (the rows are given as the predictions hold them: labels as given,
        multi-label data as indicator arrays).

    Returns
    -------
    Measure
        With the aggregations ``pooled`` (or ``merge``) and ``avg``.

    Examples
    --------
    >>> from apples import CVPredictions, report
    >>> from apples.measures import from_predictions
    >>> errors = from_predictions("errors", lambda t, p, w: float((t != p).sum()), value_range=(0, float("inf")),
    ...                           percent=False, greater_is_better=False)
    >>> p = CVPredictions([1, 0, 1, 1, 0, 0], folds=[0, 0, 0, 1, 1, 1], y_pred=[1, 0, 0, 1, 1, 0])
    >>> report(p, measures=[errors]).value("errors", "pooled")
    2.0
    """
    whole = "pooled" if needs == "y_pred" else "merge"
    return Measure(
        key=key,
        name=name or key,
        family="predictions",
        kernel=function,
        tasks=("binary", "multiclass", "multilabel") if tasks == "all" else (tasks,),
        aggregations=(
            Aggregation(whole, whole, "nan", "pooled over folds" if whole == "pooled" else "merged scores"),  # type: ignore[arg-type]
            Aggregation("avg", "avg", undefined, "averaged over folds"),  # type: ignore[arg-type]
        ),
        needs=needs,  # type: ignore[arg-type]
        range=value_range,
        greater_is_better=greater_is_better,
        percent=percent,
        undefined_text=f"a fold whose value is undefined: {_POLICY_WORDS[undefined]} in the mean over folds",
        fold_undefined="undefined",
        references=references,
    )
