"""Proper scoring rules of predicted probabilities: the log loss and the Brier score, binary and multi-class.

A proper scoring rule judges a probability, not a ranking (AUC) nor a decision (F): it is smallest in
expectation when the predicted probability is the true one, so it rewards calibration and sharpness together
(Brier 1950; Gneiting & Raftery 2007, §3). Forman & Scholz (2010) §3.2 show that AUC_merge depends on the fold
classifiers being calibrated alike; these two measure the calibration itself. Both are means of a per-case loss,
so, unlike F or AUC, their value over all cross-validated predictions is the fold-size-weighted mean of the fold
values (:func:`apples.cv.cv_log_loss`, :func:`apples.cv.cv_brier_score`).

``y_prob`` is the positive label's probability, one value per case in [0, 1] (binary, with ``pos_label=``), or
a table of every label's probability, one row per case summing to 1 and one column per label (multi-class, with
``labels=`` naming the columns). A value outside [0, 1] (or NaN, inf) is refused naming its position. A
probability of 0 for the true label has an infinite log loss: with the default ``eps=None`` it is returned as
``inf``, never clipped into a number (scikit-learn's ``log_loss`` clips at machine epsilon and reports about
36.04 for that case instead; ``eps="auto"`` does the same).
"""

from __future__ import annotations

import decimal
import numbers
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from apples._kernels.ranking import scaled_weights
from apples._kernels.scoring_rules import FoldScoringSums, fold_scoring_sums
from apples._params import (
    LABEL,
    LABEL_SET,
    LABELS,
    Kind,
    Nullable,
    ParameterTypeError,
    ParameterValueError,
    Relation,
    SameLength,
    TwoClasses,
    check_label_kind,
    check_scores,
    declare,
    positive_indicator,
    unique_labels,
)

__all__ = [
    "brier_score",
    "log_loss",
]


class _Probabilities(Kind):
    what = "a one-dimensional array of probabilities in [0, 1]"

    def check(self, name: str, value: object) -> np.ndarray:
        arr = check_scores(name, value).astype(np.float64, copy=False)
        bad = np.flatnonzero((arr < 0.0) | (arr > 1.0))
        if bad.size:
            i = int(bad[0])
            raise ParameterValueError(
                f"{name} must hold probabilities in [0, 1] (the positive label's), got {float(arr[i])!r} "
                f"at position {i}",
                param=name,
                position=i,
            )
        return arr


def _weight_values(name: str, value: object) -> np.ndarray:
    """Weights as float64, cast as scikit-learn's ``_check_sample_weight`` casts them: bools become 0/1 and an
    object array of numbers (Python ints, Fractions, Decimals, numpy scalars) becomes floats; anything else
    that is not a number (a string, None, a date) is refused naming ``name`` and the position."""
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be an array of numbers, got {type(value).__name__}")
    if hasattr(value, "to_numpy") and not isinstance(value, np.ndarray):  # pandas
        try:
            missing = bool(value.isna().any())  # type: ignore[attr-defined]
        except (AttributeError, TypeError):
            missing = False
        if missing:
            raise ValueError(f"{name} contains a missing value")
        value = value.to_numpy()
    try:
        arr = np.asarray(value)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{name} must be a one-dimensional array of numbers ({exc})") from None
    if arr.dtype.kind == "b":
        return arr.astype(np.float64)
    if arr.dtype.kind in "mM":
        raise TypeError(f"{name} must be numeric, got dtype {arr.dtype} (dates are not weights)")
    if arr.dtype.kind == "O" and arr.ndim == 1:
        for i, v in enumerate(arr.tolist()):
            if v is None:
                raise ParameterValueError(
                    f"{name} contains a missing value (None) at position {i}", param=name, position=i
                )
            if not isinstance(v, (numbers.Real, decimal.Decimal)):
                raise ParameterTypeError(
                    f"{name} must hold numbers, got {v!r} ({type(v).__name__}) at position {i}", param=name
                )
        arr = arr.astype(np.float64)
    return check_scores(name, arr).astype(np.float64, copy=False)


class _SampleWeight(Kind):
    what = "a one-dimensional array of finite non-negative weights, one per case"

    def __init__(self, *, measured: bool = False) -> None:
        self.measured = measured
        if measured:
            self.what += ", not all 0"

    def check(self, name: str, value: object) -> np.ndarray:
        arr = _weight_values(name, value)
        bad = np.flatnonzero(arr < 0.0)
        if bad.size:
            i = int(bad[0])
            raise ParameterValueError(
                f"{name} must be non-negative, got {float(arr[i])!r} at position {i}", param=name, position=i
            )
        if self.measured and arr.size and not (arr > 0).any():
            raise ParameterValueError(
                f"every sample weight is 0 ({name} holds only zeros): nothing is measured", param=name
            )
        return arr


#: The kind of ``y_prob``: the positive label's predicted probability of each case, in [0, 1].
PROBABILITIES = _Probabilities()
#: The kind of ``sample_weight``: one finite non-negative weight per case (scikit-learn's ``sample_weight``);
#: bools and object arrays of numbers are cast to float, as scikit-learn's ``_check_sample_weight`` casts them.
SAMPLE_WEIGHT = _SampleWeight()
#: ``sample_weight`` of a measure (not part of the public API): as :data:`SAMPLE_WEIGHT`, and not all 0 (every
#: measure would be 0/0; the error says so, not "one class"). For the measures of apples.metrics.
MEASURED_WEIGHT = _SampleWeight(measured=True)


class _ProbabilityTable(Kind):
    """``y_prob`` of log_loss and brier_score: the positive label's probabilities (1-d) or a table of every
    label's, one row per case summing to 1 (2-d). A float dtype is kept (``eps="auto"`` reads it)."""

    what = "probabilities in [0, 1]: one per case, or one row per case and one column per label summing to 1"

    def check(self, name: str, value: object) -> np.ndarray:
        if isinstance(value, (str, bytes)) or value is None:
            raise TypeError(f"{name} must be {self.what}, got {type(value).__name__}")
        table = value.to_numpy() if hasattr(value, "to_numpy") and getattr(value, "ndim", 1) == 2 else value
        try:
            raw = np.asarray(table)
        except (ValueError, TypeError) as exc:
            raise ValueError(f"{name} must be an array of probabilities ({exc})") from None
        if raw.ndim not in (1, 2):
            raise ValueError(
                f"{name} must be one-dimensional (the positive label's probabilities) or two-dimensional (one "
                f"column per label), got an array of shape {raw.shape}"
            )
        if raw.ndim == 1:
            arr = check_scores(name, value)  # finite and numeric, or the error naming the position
            if arr.dtype.kind not in "iuf":
                raise TypeError(f"{name} must be numeric probabilities, got dtype {raw.dtype}")
            out = arr.astype(raw.dtype if raw.dtype.kind == "f" else np.float64)
            self._in_unit_interval(name, out, lambda i: f"position {i}")
            return out
        if raw.dtype.kind not in "iuf":
            raise TypeError(f"{name} must be numeric probabilities, got dtype {raw.dtype}")
        out = raw.astype(raw.dtype if raw.dtype.kind == "f" else np.float64)
        q = out.shape[1]
        if q < 2:
            raise ValueError(
                f"{name} has {q} column(s): a table needs one column per label (two or more); for the positive "
                "label's probabilities alone pass a one-dimensional array with pos_label="
            )
        self._in_unit_interval(name, out, lambda i: f"row {i // q}, column {i % q}")
        tolerance = float(np.sqrt(np.finfo(out.dtype).eps))
        sums = out.astype(np.float64).sum(axis=1)
        bad = np.flatnonzero(np.abs(sums - 1.0) > tolerance)
        if bad.size:
            i = int(bad[0])
            raise ParameterValueError(
                f"{name}'s row {i} sums to {float(sums[i])!r}, not 1: each row must hold every label's "
                f"probability (to within {tolerance:.1e}); a log loss or Brier score of rows that are not "
                "probability distributions would be a number about nothing",
                param=name,
                position=i,
            )
        return out

    @staticmethod
    def _in_unit_interval(name: str, arr: np.ndarray, where: Any) -> None:
        flat = arr.reshape(-1)
        nan = np.flatnonzero(np.isnan(flat))
        if nan.size:
            raise ParameterValueError(f"{name} contains NaN at {where(int(nan[0]))}", param=name)
        bad = np.flatnonzero((flat < 0) | (flat > 1))  # inf too
        if bad.size:
            i = int(bad[0])
            raise ParameterValueError(
                f"{name} must hold probabilities in [0, 1], got {float(flat[i])!r} at {where(i)}", param=name
            )


class _Eps(Kind):
    what = 'None, "auto" or a number in (0, 0.5)'

    def check(self, name: str, value: object) -> float | str:
        if isinstance(value, str):
            if value != "auto":
                raise ValueError(f'{name} must be None, "auto" or a number in (0, 0.5), got {value!r}')
            return value
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
            raise TypeError(f'{name} must be None, "auto" or a number in (0, 0.5), got {value!r}')
        v = float(value)
        if not 0.0 < v < 0.5:  # NaN too
            raise ValueError(f"{name} must lie in (0, 0.5): it clips probabilities to [eps, 1 - eps], got {value!r}")
        return v


class _ProbabilityLabels(Relation):
    """The labels of ``y_prob``: with one dimension, at most two classes in ``y_true`` and ``pos_label`` the
    positive one (:class:`~apples._params.TwoClasses`), no ``labels=``; with a table, no ``pos_label``, and
    ``labels`` (or the sorted labels of ``y_true``) one per column, holding every label of ``y_true``."""

    names = ("y_true", "y_prob", "pos_label", "labels")

    def check(self, values: Mapping[str, Any]) -> None:
        t, p = values.get("y_true"), values.get("y_prob")
        if t is None or p is None:
            return
        if t.size == 0:
            raise ValueError("y_true is empty: there are no cases to score")
        labels = values.get("labels")
        if p.ndim == 1:
            if labels is not None:
                raise ParameterValueError(
                    "labels= names the columns of a two-dimensional y_prob; a one-dimensional y_prob holds the "
                    "positive label's probabilities: pass pos_label= instead",
                    param="labels",
                )
            TwoClasses("pos_label", "y_true")(values)
            return
        if values.get("pos_label") is not None:
            raise ParameterValueError(
                "pos_label is for a one-dimensional y_prob; the columns of a table of probabilities are named "
                "by labels=",
                param="pos_label",
            )
        found = unique_labels("y_true", t)
        q = p.shape[1]
        if labels is None:
            if found.size != q:
                raise ParameterValueError(
                    f"y_true holds {found.size} labels {found[:10].tolist()} but y_prob has {q} columns: pass "
                    "labels= naming the columns (a classifier's classes_)",
                    param="labels",
                )
            return
        if len(labels) != q:
            raise ParameterValueError(f"labels has {len(labels)} labels but y_prob has {q} columns", param="labels")
        for lab in labels[:1]:
            check_label_kind("labels", lab, found, where="y_true")
        known = set(labels)
        unknown = [repr(v) for v in found.tolist() if v not in known]
        if unknown:
            raise ParameterValueError(
                f"y_true contains label(s) {', '.join(unknown[:5])} that are not in labels=; every true label "
                "needs its column",
                param="labels",
            )


_TABLE = _ProbabilityTable()
#: The declaration both scoring rules share: labels, probabilities, their labels, weights.
_SCORING = {
    "y_true": LABELS,
    "y_prob": _TABLE,
    "labels": Nullable(LABEL_SET),
    "pos_label": Nullable(LABEL),
    "sample_weight": Nullable(MEASURED_WEIGHT),
}
_RELATIONS = [SameLength("y_true", "y_prob", "sample_weight"), _ProbabilityLabels()]


def _sums(
    y_true: Any, y_prob: np.ndarray, labels: Sequence[Hashable] | None, pos_label: Any, sample_weight: Any, eps: Any
) -> FoldScoringSums:
    """The sums of the checked arguments over all cases (one fold), weights scaled by a power of two."""
    t = np.asarray(y_true)
    if y_prob.ndim == 1:
        truth = positive_indicator(t, pos_label).astype(np.intp)
    else:
        names = np.asarray(labels) if labels is not None else unique_labels("y_true", t)
        order = np.argsort(names, kind="stable")
        truth = order[np.searchsorted(names[order], t)]  # the column of each case's label
    clip = None if eps is None else float(np.finfo(y_prob.dtype).eps) if eps == "auto" else float(eps)
    w = None if sample_weight is None else scaled_weights(sample_weight)
    return fold_scoring_sums(truth, y_prob.astype(np.float64), np.zeros(t.size, dtype=np.intp), 1, w, clip)


@declare(**_SCORING, eps=Nullable(_Eps()), relations=_RELATIONS)
def log_loss(
    y_true: ArrayLike,
    y_prob: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    pos_label: Hashable | None = None,
    sample_weight: ArrayLike | None = None,
    eps: float | Literal["auto"] | None = None,
) -> float:
    """Log loss (cross-entropy) of predicted probabilities: the mean of ``-log`` of the probability of the truth.

    ``L = -Σ_i w_i log p_i(y_i) / Σ_i w_i`` (natural log), with ``p_i(y_i)`` the probability case i gives its
    true label (binary: ``p_i`` for a positive, ``1 - p_i`` for a negative): the logarithmic scoring rule,
    strictly proper (Good 1952; Gneiting & Raftery 2007, §3.3).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels. With a one-dimensional ``y_prob``, at most two classes (one class is valid: the loss is
        defined); with a table, any number.
    y_prob : array-like of shape (n,) or (n, q)
        The positive label's probability, in [0, 1] (``predict_proba(X)[:, 1]`` for scikit-learn's classes
        ``[negative, positive]``); or every label's, one row per case summing to 1 (to within the square root
        of the dtype's machine epsilon; a row that does not is refused, where scikit-learn only warns).
    labels : array-like of shape (q,), optional
        The label of each column of a two-dimensional ``y_prob``, in column order (pass a classifier's
        ``classes_``). Default: the sorted labels of ``y_true``, which must then number q. Unlike scikit-learn,
        which sorts ``labels=`` before matching the columns, column j is ``labels[j]`` as given.
    pos_label : label, optional
        The positive class of a one-dimensional ``y_prob``; default 1 for 0/1 or -1/1 labels (True for bools),
        required otherwise.
    sample_weight : array-like of shape (n,), optional
        Non-negative weight of each case (a case of weight 0 is left out, even with an infinite loss); bools
        and object arrays of numbers are cast to float as scikit-learn casts them; not all 0.
    eps : None, "auto" or float in (0, 0.5), default None
        Clipping. None: none, so a probability 0 for the true label (of a case of positive weight) makes the
        loss ``inf``. A float: the true label's probability is clipped to ``[eps, 1 - eps]`` first. ``"auto"``:
        scikit-learn's rule since 1.5, ``eps = np.finfo(y_prob.dtype).eps`` (float64: 2.2e-16; float32: 1.2e-7),
        each probability clipped and the rows not renormalised; the log is taken in float64 (scikit-learn
        computes a float32 ``y_prob`` in float32: the two differ by about 1e-7 relative there).

    Returns
    -------
    float in [0, inf]
        ``inf`` when ``eps=None`` and a case of positive weight has probability 0 for its true label: the log
        loss of a certain mistake is infinite and is reported so, never clipped. scikit-learn's ``log_loss``
        returns a large finite number instead (``-log(2.2e-16) ≈ 36.04`` per such case); ``eps="auto"``
        gives its value.

    References
    ----------
    Good (1952) "Rational decisions", J. R. Stat. Soc. B 14; Gneiting & Raftery (2007) "Strictly proper
    scoring rules, prediction, and estimation", JASA 102, §3.3 (the logarithmic score).

    Examples
    --------
    >>> from apples import log_loss
    >>> log_loss([1, 0, 1, 0], [0.5, 0.5, 0.5, 0.5])   # log 2
    0.6931471805599453
    >>> log_loss(["spam", "ham"], [1.0, 1.0], pos_label="spam")   # certain, and wrong on "ham"
    inf
    >>> round(log_loss(["spam", "ham"], [1.0, 1.0], pos_label="spam", eps="auto"), 4)   # scikit-learn's value
    18.0218
    >>> p = [[0.5, 0.25, 0.25], [0.125, 0.75, 0.125]]
    >>> round(log_loss(["c", "b"], p, labels=["a", "b", "c"]), 12)   # (-log 0.25 - log 0.75) / 2
    0.836988216786
    """
    r = _sums(y_true, y_prob, labels, pos_label, sample_weight, eps)  # type: ignore[arg-type]
    return float(r.log_loss[0] / r.weight[0])


@declare(**_SCORING, relations=_RELATIONS)
def brier_score(
    y_true: ArrayLike,
    y_prob: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    pos_label: Hashable | None = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Brier score: the mean squared difference between the predicted probabilities and the outcome.

    Binary (one-dimensional ``y_prob``): ``B = Σ_i w_i (p_i - y_i)² / Σ_i w_i`` with ``y_i = 1`` for the
    positive label, in [0, 1], the form scikit-learn's ``brier_score_loss`` computes. Multi-class (a table):
    ``B = Σ_i w_i Σ_j (p_ij - y_ij)² / Σ_i w_i`` with ``y_ij = 1`` for case i's label, in [0, 2], Brier's (1950)
    definition. Both strictly proper (Gneiting & Raftery 2007, §3.2).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels (at most two classes with a one-dimensional ``y_prob``).
    y_prob : array-like of shape (n,) or (n, q)
        The positive label's probability in [0, 1], or every label's, one row per case summing to 1.
    labels : array-like of shape (q,), optional
        The label of each column of a table, in column order (default: the sorted labels of ``y_true``).
    pos_label : label, optional
        The positive class of a one-dimensional ``y_prob``; default 1 for 0/1 or -1/1 labels (True for bools),
        required otherwise.
    sample_weight : array-like of shape (n,), optional
        Non-negative weight of each case, not all 0.

    Returns
    -------
    float
        In [0, 1] for one dimension, in [0, 2] for a table. A table of two columns gives Brier's sum over both
        labels, twice the one-dimensional value of the same predictions: scikit-learn's
        ``brier_score_loss(..., scale_by_half=False)``; its default ``"auto"`` halves two columns (and only
        two), as the one-dimensional form here.

    References
    ----------
    Brier (1950) "Verification of forecasts expressed in terms of probability", Monthly Weather Review 78,
    eq. (1); Gneiting & Raftery (2007) §3.2 (the quadratic score).

    Examples
    --------
    >>> from apples import brier_score
    >>> brier_score([1, 0, 1, 0], [0.75, 0.25, 0.5, 0.5])   # (1/16 + 1/16 + 1/4 + 1/4) / 4
    0.15625
    >>> brier_score(["b", "a"], [0.75, 0.25], pos_label="a")   # positive sorts first: p("a") = 0.25 for "a"
    0.5625
    >>> brier_score(["a", "c"], [[0.5, 0.25, 0.25], [0.0, 0.0, 1.0]], labels=["a", "b", "c"])   # (3/8 + 0) / 2
    0.1875
    """
    r = _sums(y_true, y_prob, labels, pos_label, sample_weight, None)  # type: ignore[arg-type]
    return float(r.brier[0] / r.weight[0])
