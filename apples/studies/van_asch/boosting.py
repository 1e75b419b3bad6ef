"""The boosting experiment of Van Asch (2013) §6.2.1: relabel uncertain predictions, watch the scores move.

A 1-nearest-neighbour classifier (scikit-learn, the ``notebooks`` extra) on a
Zipf-subsampled label set, its accuracy by uncertainty, and the tables and
curves of scores after relabelling the k most uncertain predictions.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy.optimize import isotonic_regression

from apples._kernels.averages import label_averages
from apples._kernels.counting import codes_of
from apples._kernels.labels import single_label_counts
from apples._optional import require
from apples._params import (
    LABEL,
    LABEL_SET,
    LABELS,
    MAX_EXACT_INT,
    SCORES,
    SEED,
    Integer,
    Kind,
    LabelOf,
    OneLabelKind,
    ParameterTypeError,
    ParameterValueError,
    Real,
    Relation,
    SameLength,
    check_int,
    check_labels_1d,
    check_same_label_kind,
    check_same_length,
    declare,
    label_kind,
    unique_labels,
)

__all__ = [
    "accuracy_by_uncertainty",
    "boosting_curve",
    "boosting_table",
    "expected_accuracy",
    "nearest_neighbour_boosting",
    "relabel_errors",
    "relabel_uncertain",
    "uncertainty_threshold",
    "zipf_subsample",
]

#: Largest ``random_state`` scikit-learn accepts (numpy's legacy RandomState seeds are 32-bit).
_MAX_SKLEARN_SEED = 2**32 - 1


# -- the kinds and rules of the boosting parameters ---------------------------------------------------
class _Predictions(Kind):
    """A non-empty mapping name -> predicted labels (each a one-dimensional array of labels)."""

    what = "a non-empty mapping name -> predicted labels"

    def check(self, name: str, value: object) -> dict[Any, np.ndarray]:
        if not isinstance(value, Mapping) or not value:
            raise TypeError(f"{name} must be {self.what}")
        return {key: check_labels_1d(f"{name}[{key!r}]", p) for key, p in value.items()}


class _PredictionsOf(Relation):
    """Every prediction of ``predictions`` has the length and the label kind of ``y_true``."""

    names = ("predictions", "y_true")

    def check(self, values: Mapping[str, Any]) -> None:
        t = values["y_true"]
        for key, p in values["predictions"].items():
            check_same_length(y_true=t, **{f"predictions[{key!r}]": p})
            check_same_label_kind(y_true=t, **{f"predictions[{key!r}]": p})


def _named_arrays(values: Mapping[str, Any], names: Sequence[str]) -> dict[str, np.ndarray]:
    """The label arrays of the named arguments; a mapping of predictions gives one per entry."""
    out = {}
    for n in names:
        value = values.get(n)
        if isinstance(value, Mapping):
            out.update({f"{n}[{key!r}]": p for key, p in value.items()})
        elif value is not None:
            out[n] = value
    return out


class _LabelsCover(Relation):
    """The label set ``labels`` holds every label of the data, and labels of their kind (Van Asch §4.1)."""

    def __init__(self, labels: str, *arrays: str) -> None:
        self.names = (labels, *arrays)

    def check(self, values: Mapping[str, Any]) -> None:
        given = np.asarray(values[self.names[0]])
        data = {n: a for n, a in _named_arrays(values, self.names[1:]).items() if a.size}
        kinds = {label_kind(a) for a in data.values()}
        if kinds and label_kind(given) not in kinds:
            where = " and ".join(data)
            raise TypeError(
                f"mix of label types: labels holds {label_kind(given)} labels, {where} holds "
                f"{', '.join(sorted(kinds))} labels; use labels of one type"
            )
        known = set(given.tolist())
        for n, a in data.items():
            unknown = sorted({repr(lab) for lab in unique_labels(n, a).tolist() if lab not in known})
            if unknown:
                raise ParameterValueError(
                    f"{n} contains label(s) {', '.join(unknown[:5])}{' ...' if len(unknown) > 5 else ''} "
                    "that are not in labels=; the label set must hold every label of the data "
                    "(dropping one would change the macro average)",
                    param="labels",
                )


class _Ks(Kind):
    """Numbers of relabelled predictions: one integer or a non-empty sequence of them; becomes a list of int."""

    what = "an integer or a sequence of integers"

    def check(self, name: str, value: object) -> list[int]:
        ks = [check_int(f"{name}[{i}]", k) for i, k in enumerate(np.atleast_1d(np.asarray(value, dtype=object)))]
        if not ks:
            raise ValueError(f"{name} is empty")
        return ks


class _KsWithin(Relation):
    """Every ``k`` of ``ks`` lies in [0, n], n the number of predictions."""

    names = ("ks", "y_pred")

    def check(self, values: Mapping[str, Any]) -> None:
        n = values["y_pred"].size
        for i, k in enumerate(values["ks"]):
            if not 0 <= k <= n:
                raise ValueError(f"ks[{i}]={k} must lie in [0, n = {n}]")


class _Features(Relation):
    """``X`` (n, d) with a row per label of ``y`` when ``distances`` is None; else ``distances`` (n, n), no NaN."""

    names = ("y", "X", "distances")

    def check(self, values: Mapping[str, Any]) -> None:
        t = values["y"]
        distances = values.get("distances")
        if distances is None:
            x = np.asarray(values.get("X"), dtype=float)
            if x.ndim != 2:
                raise ParameterValueError(f"X must be two-dimensional, got an array of shape {x.shape}", param="X")
            if len(x) != t.size:
                raise ParameterValueError(f"inconsistent lengths: X has {len(x)}, y has {t.size}", param="X")
            return
        d = np.asarray(distances, dtype=float)
        if d.shape != (t.size, t.size):
            raise ParameterValueError(
                f"distances must have shape (n, n) = {(t.size, t.size)}, got {d.shape}", param="distances"
            )
        if np.isnan(d).any():
            raise ParameterValueError("distances contains NaN", param="distances")


_UNCERTAIN = {"y_true": LABELS, "y_pred": LABELS, "uncertainty": SCORES}
_UNCERTAIN_RULES = [SameLength("y_true", "y_pred", "uncertainty"), OneLabelKind("y_true", "y_pred")]
_MAX_ACCURACY = Real(0.0, 1.0, low_inclusive=False)
_EXPONENT = Real(0.0, None)
_MINIMUM = Integer(0, None)


def _not_empty(t: np.ndarray) -> None:
    if t.size == 0:
        raise ParameterValueError("y_true is empty", param="y_true")


# -- the boosting strategy of §6.2.1 ---------------------------------------------------------
@declare(**_UNCERTAIN, bins=Integer(1, MAX_EXACT_INT), relations=_UNCERTAIN_RULES)
def accuracy_by_uncertainty(
    y_true: ArrayLike, y_pred: ArrayLike, uncertainty: ArrayLike, *, bins: int = 10
) -> pd.DataFrame:
    """Accuracy of the predictions grouped by uncertainty: the data of Van Asch Figure 1.

    The predictions are sorted by uncertainty (e.g. the distance to the
    nearest neighbour: higher = less confident) and cut into ``bins`` groups of
    (nearly) equal size; tied uncertainties never straddle two bins.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        Gold and predicted labels (single-label).
    uncertainty : array-like of shape (n,)
        Finite numbers; larger means less confident.
    bins : int, default 10
        Number of groups (fewer if ties force it).

    Returns
    -------
    pandas.DataFrame
        One row per group: ``low``, ``high`` (uncertainty range), ``n``,
        ``correct`` and ``accuracy``.

    Examples
    --------
    >>> from apples.studies.van_asch import accuracy_by_uncertainty
    >>> accuracy_by_uncertainty([0, 0, 1, 1], [0, 0, 1, 0], [0.1, 0.2, 0.3, 0.9], bins=2)
       low  high  n  correct  accuracy
    0  0.1   0.2  2        2       1.0
    1  0.3   0.9  2        1       0.5
    """
    t, p, u = np.asarray(y_true), np.asarray(y_pred), np.asarray(uncertainty)
    _not_empty(u)
    bins = min(bins, u.size)  # more bins than predictions cut at every rank, exactly as bins = n does
    order = np.argsort(u, kind="stable")
    us, ok = u[order], (t == p)[order]
    # cut points at equal ranks, moved to the end of a run of ties
    ranks = (np.arange(1, bins) * u.size) // bins
    ranks = ranks[ranks > 0]
    cuts = np.unique(np.searchsorted(us, us[ranks - 1], side="right"))
    cuts = cuts[(cuts > 0) & (cuts < u.size)]
    edges = np.concatenate([[0], cuts, [u.size]])
    rows = []
    for lo, hi in itertools.pairwise(edges):
        n = int(hi - lo)
        correct = int(ok[lo:hi].sum())
        rows.append(
            {"low": float(us[lo]), "high": float(us[hi - 1]), "n": n, "correct": correct, "accuracy": correct / n}
        )
    return pd.DataFrame(rows)


def _expected_accuracy(t: np.ndarray, p: np.ndarray, u: np.ndarray) -> pd.DataFrame:
    """:func:`expected_accuracy` of checked arrays."""
    uniq, inv = np.unique(u, return_inverse=True)
    n = np.bincount(inv).astype(float)
    acc = np.bincount(inv, weights=(t == p).astype(float)) / n
    fit = isotonic_regression(acc, weights=n, increasing=False).x
    return pd.DataFrame({"uncertainty": uniq, "n": n.astype(int), "accuracy": acc, "expected": fit})


@declare(**_UNCERTAIN, relations=_UNCERTAIN_RULES)
def expected_accuracy(y_true: ArrayLike, y_pred: ArrayLike, uncertainty: ArrayLike) -> pd.DataFrame:
    """Accuracy as a non-increasing function of uncertainty, by isotonic regression.

    A smooth-free estimate of the curve behind Van Asch Figure 1: the
    least-squares fit of correctness (1/0) on uncertainty under the constraint
    that accuracy never rises with uncertainty (pool adjacent violators,
    :func:`scipy.optimize.isotonic_regression`). Tied uncertainties are one
    point weighted by their count.

    Returns
    -------
    pandas.DataFrame
        One row per distinct uncertainty (ascending): ``uncertainty``, ``n``,
        ``accuracy`` (observed) and ``expected`` (the isotonic fit).

    Examples
    --------
    >>> from apples.studies.van_asch import expected_accuracy
    >>> expected_accuracy([0] * 4, [0, 1, 0, 1], [1, 2, 3, 4]).expected.tolist()
    [1.0, 0.5, 0.5, 0.0]
    """
    _not_empty(np.asarray(y_true))
    return _expected_accuracy(np.asarray(y_true), np.asarray(y_pred), np.asarray(uncertainty))


def _threshold(t: np.ndarray, p: np.ndarray, u: np.ndarray, max_accuracy: float) -> float:
    """:func:`uncertainty_threshold` of checked arguments."""
    curve = _expected_accuracy(t, p, u)
    below = np.flatnonzero(curve["expected"].to_numpy() < max_accuracy)
    return float(curve["uncertainty"].iloc[below[0]]) if below.size else math.inf


@declare(**_UNCERTAIN, max_accuracy=_MAX_ACCURACY, relations=_UNCERTAIN_RULES)
def uncertainty_threshold(
    y_true: ArrayLike, y_pred: ArrayLike, uncertainty: ArrayLike, *, max_accuracy: float = 0.35
) -> float:
    """The uncertainty from which the expected accuracy is below ``max_accuracy`` (§6.2.1).

    Van Asch changes "all predictions ... at such a distance that the
    expected accuracy drops below 35 %". The expected accuracy is the
    isotonic fit of :func:`expected_accuracy`; the threshold is the smallest
    observed uncertainty where it is below ``max_accuracy``, or ``inf`` if it
    never is. Estimate it on data other than the test set (e.g.
    leave-one-out on the training set) so the test labels are not used.

    Parameters
    ----------
    y_true, y_pred, uncertainty : array-like of shape (n,)
    max_accuracy : float in (0, 1], default 0.35

    Examples
    --------
    >>> from apples.studies.van_asch import uncertainty_threshold
    >>> uncertainty_threshold([0, 0, 1, 1, 1], [0, 0, 1, 0, 0], [1, 2, 3, 4, 5], max_accuracy=0.35)
    4.0
    """
    _not_empty(np.asarray(y_true))
    return _threshold(np.asarray(y_true), np.asarray(y_pred), np.asarray(uncertainty), max_accuracy)


def _zipf(t: np.ndarray, exponent: float, minimum: int, seed: int | np.random.Generator) -> np.ndarray:
    """:func:`zipf_subsample` of checked arguments."""
    rng = np.random.default_rng(seed)  # a Generator is used as it is
    keep = []
    for rank, label in enumerate(np.unique(t), start=1):
        idx = np.flatnonzero(t == label)
        k = min(idx.size, max(minimum, round(idx.size / rank ** float(exponent))))
        keep.append(rng.choice(idx, size=k, replace=False))
    return np.sort(np.concatenate(keep)) if keep else np.array([], dtype=int)


@declare(y=LABELS, exponent=_EXPONENT, minimum=_MINIMUM, seed=SEED)
def zipf_subsample(
    y: ArrayLike, *, exponent: float = 1.0, minimum: int = 1, seed: int | np.random.Generator
) -> np.ndarray:
    """Indices of a subsample whose class sizes follow Zipf's law, like part-of-speech tags.

    The label of rank r (1-based, in sorted label order) keeps
    ``max(minimum, round(n_r / r**exponent))`` of its ``n_r`` instances (at
    most all of them), drawn without replacement with
    ``numpy.random.default_rng(seed)``.

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels.
    exponent : float >= 0, default 1.0
        0 keeps every instance (no skew).
    minimum : int >= 0, default 1
        Instances every label keeps (all of them if it has fewer).
    seed : int or numpy.random.Generator
        Required; a Generator is used as it is (and advanced).

    Returns
    -------
    numpy.ndarray
        Sorted indices into ``y``.

    Examples
    --------
    >>> from apples.studies.van_asch import zipf_subsample
    >>> y = [0] * 12 + [1] * 12 + [2] * 12
    >>> import numpy as np
    >>> np.bincount(np.asarray(y)[zipf_subsample(y, exponent=1.0, seed=0)]).tolist()
    [12, 6, 4]
    """
    return _zipf(np.asarray(y), exponent, minimum, seed)


def _relabel_uncertain(p: np.ndarray, u: np.ndarray, threshold: float, target: Hashable) -> np.ndarray:
    """:func:`relabel_uncertain` of checked arguments."""
    out = np.asarray(p, dtype=np.result_type(p, np.asarray([target]))).copy()
    out[u >= threshold] = target
    return out


@declare(
    y_pred=LABELS,
    uncertainty=SCORES,
    threshold=Real(finite=False),
    target=LABEL,
    relations=[SameLength("y_pred", "uncertainty"), LabelOf("target", "y_pred", present=False)],
)
def relabel_uncertain(y_pred: ArrayLike, uncertainty: ArrayLike, *, threshold: float, target: Hashable) -> np.ndarray:
    """CHANGED of Table 8: every prediction with uncertainty ≥ ``threshold`` becomes ``target``.

    The "boosting" of Van Asch §6.2.1: no new information is used, the
    doubtful predictions are only piled onto one label.

    Parameters
    ----------
    y_pred : array-like of shape (n,)
    uncertainty : array-like of shape (n,)
        Larger = less confident (e.g. nearest-neighbour distance).
    threshold : float
        E.g. from :func:`uncertainty_threshold`; ``inf`` changes nothing.
    target : label
        The label the doubtful predictions get (Van Asch: the most frequent tag).

    Returns
    -------
    numpy.ndarray
        A new array of predictions.

    Examples
    --------
    >>> from apples.studies.van_asch import relabel_uncertain
    >>> relabel_uncertain(["a", "b", "c"], [0.1, 0.5, 0.9], threshold=0.5, target="a").tolist()
    ['a', 'a', 'a']
    """
    # the target's kind is that of y_pred: numpy would turn [1, 2] and "a" into strings
    return _relabel_uncertain(np.asarray(y_pred), np.asarray(uncertainty), threshold, target)


def _relabel_errors(t: np.ndarray, p: np.ndarray, target: Hashable) -> np.ndarray:
    """:func:`relabel_errors` of checked arguments."""
    out = np.asarray(p, dtype=np.result_type(p, np.asarray([target]))).copy()
    out[t != p] = target
    return out


@declare(
    y_true=LABELS,
    y_pred=LABELS,
    target=LABEL,
    relations=[
        SameLength("y_true", "y_pred"),
        OneLabelKind("y_true", "y_pred"),
        LabelOf("target", "y_pred", present=False),
    ],
)
def relabel_errors(y_true: ArrayLike, y_pred: ArrayLike, *, target: Hashable) -> np.ndarray:
    """UPPER of Table 8: every *wrong* prediction becomes ``target`` (an oracle).

    The upper bound of the boosting strategy: a perfect detector of errors.
    Errors whose gold label is ``target`` become correct; no correct prediction
    is touched.

    Examples
    --------
    >>> from apples.studies.van_asch import relabel_errors
    >>> relabel_errors(["a", "b", "c"], ["b", "b", "b"], target="a").tolist()
    ['a', 'b', 'a']
    """
    return _relabel_errors(np.asarray(y_true), np.asarray(y_pred), target)


def _label_counts(t: np.ndarray, p: np.ndarray, labels: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """TP, FP and FN of each label of ``labels`` (which holds every label of ``t`` and ``p``), in its order."""
    q = len(labels)
    _, codes = codes_of(np.concatenate([np.asarray(labels), t, p]))
    position = np.empty(codes.max() + 1, dtype=np.intp)
    position[codes[:q]] = np.arange(q)
    tp, fp, fn, _ = single_label_counts(position[codes[q : q + t.size]], position[codes[q + t.size :]], q)
    return tp, fp, fn


def _boosting_table(t: np.ndarray, predictions: Mapping[Any, np.ndarray], labels: list) -> pd.DataFrame:
    """:func:`boosting_table` of checked arguments."""
    reference = next(iter(predictions.values()))
    ok0 = t == reference
    rows = {}
    for name, p in predictions.items():
        s = label_averages(*_label_counts(t, p, labels), average="macro", weights=None, undefined="zero")
        ok = t == p
        rows[name] = {
            "precision": float(s.precision),
            "recall": float(s.recall),
            "f1": float(s.mean_f),
            "f_of_averages": float(s.f_of_averages),
            "accuracy": float(ok.mean()) if ok.size else math.nan,
            "correct": int(ok.sum()),
            "changed": int((p != reference).sum()),
            "gained": int((ok & ~ok0).sum()),
            "lost": int((~ok & ok0).sum()),
        }
    return pd.DataFrame.from_dict(rows, orient="index")


@declare(
    y_true=LABELS,
    predictions=_Predictions(),
    labels=LABEL_SET,
    relations=[_PredictionsOf(), _LabelsCover("labels", "y_true", "predictions")],
)
def boosting_table(y_true: ArrayLike, predictions: Mapping[Any, ArrayLike], *, labels: ArrayLike) -> pd.DataFrame:
    """Table 8: macro-averaged precision, recall, F1 and accuracy of several predictions.

    Parameters
    ----------
    y_true : array-like of shape (n,)
    predictions : mapping name -> array-like of shape (n,)
        E.g. ``{"NORMAL": y_pred, "CHANGED": ..., "UPPER": ...}``. The first
        entry is the reference for ``gained`` and ``lost``.
    labels : sequence
        The explicit label set (§4.1), e.g. the training labels.

    Returns
    -------
    pandas.DataFrame
        Index: the names. Columns: ``precision``, ``recall`` (macro, eq. 8),
        ``f1`` (mean of the per-label F1, as in Table 8), ``f_of_averages``
        (F1 of the two macro averages), ``accuracy`` (eq. 6), ``correct`` (number
        of correct predictions), ``changed``, ``gained`` and ``lost`` (predictions
        that differ from the first entry, became correct, became wrong).

    Examples
    --------
    >>> from apples.studies.van_asch import boosting_table
    >>> y = ["A"] * 6 + ["B", "B", "C", "C"]
    >>> p = ["A"] * 6 + ["B", "C", "C", "B"]
    >>> table = boosting_table(y, {"NORMAL": p, "CHANGED": p[:7] + ["A", "C", "A"]}, labels=["A", "B", "C"])
    >>> table[["precision", "recall", "f1", "accuracy", "changed", "lost"]].round(4)
             precision  recall      f1  accuracy  changed  lost
    NORMAL      0.6667  0.6667  0.6667       0.8        0     0
    CHANGED     0.9167  0.6667  0.7302       0.8        2     0
    """
    return _boosting_table(np.asarray(y_true), predictions, list(labels))  # type: ignore[arg-type]


@declare(
    **_UNCERTAIN,
    ks=_Ks(),
    target=LABEL,
    labels=LABEL_SET,
    relations=[
        *_UNCERTAIN_RULES,
        LabelOf("target", "y_pred", present=False),
        _LabelsCover("labels", "y_true", "y_pred"),
        _KsWithin(),
    ],
)
def boosting_curve(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    uncertainty: ArrayLike,
    *,
    ks: int | Sequence[int],
    target: Hashable,
    labels: ArrayLike,
) -> pd.DataFrame:
    """Relabel the ``k`` most uncertain predictions to ``target``, for each ``k``: the scores as a curve.

    The threshold of §6.2.1 picks one point of this curve (CHANGED of Table 8);
    the curve shows how far the boosting goes when more and more doubtful
    predictions are piled onto ``target``. The predictions are ranked by
    uncertainty, largest first (equal uncertainties: the earlier prediction
    first); for each ``k`` the first ``k`` become ``target``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        Gold and predicted labels (single-label).
    uncertainty : array-like of shape (n,)
        Larger = less confident (e.g. nearest-neighbour distance).
    ks : sequence of int
        Numbers of relabelled predictions, each in ``[0, n]``.
    target : label
        The label the doubtful predictions get.
    labels : sequence
        The explicit label set (§4.1).

    Returns
    -------
    pandas.DataFrame
        Index ``k``. The columns of :func:`boosting_table` (``changed``,
        ``gained``, ``lost`` relative to ``y_pred``), plus ``errors_relabelled``
        (wrong predictions among the ``k``) and ``unpredicted_labels``
        (labels of ``labels`` that are never predicted: their precision is
        0/0, counted as 0).

    Examples
    --------
    >>> from apples.studies.van_asch import boosting_curve
    >>> y = ["A"] * 6 + ["B", "B", "C", "C"]
    >>> p = ["A"] * 6 + ["B", "C", "C", "B"]
    >>> u = [0, 0, 0, 0, 0, 0, 1, 5, 2, 4]
    >>> curve = boosting_curve(y, p, u, ks=[0, 2, 3], target="A", labels=["A", "B", "C"])
    >>> cols = ["precision", "accuracy", "errors_relabelled", "unpredicted_labels"]
    >>> curve[cols].round(4)  # doctest: +NORMALIZE_WHITESPACE
       precision  accuracy  errors_relabelled  unpredicted_labels
    k
    0     0.6667       0.8                  0                   0
    2     0.9167       0.8                  2                   0
    3     0.5556       0.7                  2                   1

    By hand: k = 2 relabels the two wrong predictions (u = 5, 4): A 6/8, B 1/1,
    C 1/1, mean 0.9167; k = 3 also the correct C (u = 2): A 6/9, B 1, C never
    predicted (0), mean 0.5556.
    """
    t, p, u = np.asarray(y_true), np.asarray(y_pred), np.asarray(uncertainty)
    ks_list, label_list = list(ks), list(labels)  # type: ignore[arg-type]
    if any(k > 0 for k in ks_list) and target not in label_list:
        raise ParameterValueError(
            f"target={target!r} is not in labels=; the relabelled predictions would hold a label outside the label set",
            param="target",
        )
    order = np.argsort(-u, kind="stable")  # most uncertain first; ties keep their order
    wrong = t != p
    predictions = {"reference": p}
    for k in ks_list:
        relabelled = _relabel_uncertain(p, np.isin(np.arange(p.size), order[:k]).astype(float), 1.0, target)
        predictions[f"k={k}"] = relabelled
    table = _boosting_table(t, predictions, label_list).iloc[1:]
    table.index = pd.Index(ks_list, name="k")
    table["errors_relabelled"] = [int(wrong[order[:k]].sum()) for k in ks_list]
    table["unpredicted_labels"] = [len(set(label_list) - set(predictions[f"k={k}"].tolist())) for k in ks_list]
    return table


@declare(
    y=LABELS,
    seed=SEED,
    exponent=_EXPONENT,
    minimum=_MINIMUM,
    train_size=Real(0.0, 1.0, low_inclusive=False, high_inclusive=False),
    max_accuracy=_MAX_ACCURACY,
    relations=[_Features()],
)
def nearest_neighbour_boosting(
    X: ArrayLike | None,
    y: ArrayLike,
    *,
    seed: int,
    exponent: float = 1.5,
    minimum: int = 10,
    train_size: float = 0.3,
    max_accuracy: float = 0.35,
    distances: ArrayLike | None = None,
) -> pd.DataFrame:
    """One run of the §6.2.1 boosting experiment with a 1-nearest-neighbour classifier: Table 8.

    1. Subsample ``y`` with Zipf-skewed class sizes (:func:`zipf_subsample`,
       ``exponent``, ``minimum``, ``seed``), as part-of-speech tags are skewed.
    2. Split the subsample with scikit-learn's ``train_test_split``
       (``train_size``, ``random_state=seed``, stratified).
    3. Predict each test instance by its nearest training instance; the
       distance is the uncertainty (Van Asch's confidence score, Figure 1).
       Among equally near training instances the first in training order wins,
       as in scikit-learn's brute-force ``KNeighborsClassifier(n_neighbors=1)``,
       so the predictions are the same as that classifier's.
    4. Estimate the threshold of "expected accuracy below ``max_accuracy``"
       without the test labels: leave-one-out 1-NN on the training set (each
       training instance predicted by its nearest *other* training instance),
       :func:`uncertainty_threshold`.
    5. NORMAL = the 1-NN predictions, CHANGED = :func:`relabel_uncertain` to
       the most frequent training label (smallest label on ties), UPPER =
       :func:`relabel_errors` to that label; :func:`boosting_table` with the
       label set of ``y`` (§4.1).

    The neighbour search only needs the distances between the instances, so
    a matrix computed once for all of ``X`` (``distances``) can be reused by
    many runs: that is what makes 100 random splits cheap.

    Parameters
    ----------
    X : array-like of shape (n, d)
        Features (used only when ``distances`` is None).
    y : array-like of shape (n,)
        Labels.
    seed : int
        Seeds the subsample and the split: an integer in [0, 2**32 - 1], the
        range scikit-learn accepts as ``random_state``.
    exponent, minimum : see :func:`zipf_subsample`
        ``exponent=0`` keeps all instances (no skew).
    train_size : float in (0, 1), default 0.3
    max_accuracy : float in (0, 1], default 0.35
        Van Asch's 35 %.
    distances : array-like of shape (n, n), optional
        Distances between the rows of ``X``. Default: Euclidean,
        ``scipy.spatial.distance.cdist(X, X)``.

    Returns
    -------
    pandas.DataFrame
        :func:`boosting_table` of NORMAL, CHANGED, UPPER; ``attrs`` holds
        ``threshold`` (distance) and ``target`` (label).

    References
    ----------
    Van Asch (2013) §6.2.1, Figure 1, Table 8.

    Examples
    --------
    >>> from sklearn.datasets import load_digits
    >>> from apples.studies.van_asch import nearest_neighbour_boosting
    >>> X, y = load_digits(return_X_y=True)
    >>> table = nearest_neighbour_boosting(X, y, seed=0)
    >>> table.attrs["target"], int(table.changed["CHANGED"]), int(table.gained["CHANGED"])
    (0, 5, 0)
    """
    from scipy.spatial.distance import cdist

    train_test_split = require("sklearn.model_selection").train_test_split  # scikit-learn: the notebooks extra

    if isinstance(seed, np.random.Generator):
        raise ParameterTypeError(
            "seed must be an int here: it also seeds scikit-learn's train_test_split, which takes no "
            "numpy.random.Generator",
            param="seed",
        )
    if seed > _MAX_SKLEARN_SEED:
        raise ParameterValueError(
            f"seed must lie in [0, 2**32 - 1] (it seeds scikit-learn's train_test_split too), got {seed}", param="seed"
        )
    t = np.asarray(y)
    if distances is None:
        x = np.asarray(X, dtype=float)
        d = cdist(x, x)
    else:
        d = np.asarray(distances, dtype=float)
    keep = _zipf(t, exponent, minimum, seed)
    train, test = train_test_split(keep, train_size=train_size, random_state=seed, stratify=t[keep])
    y_tr, y_te = t[train], t[test]

    d_te = d[np.ix_(test, train)]
    nearest = d_te.argmin(axis=1)  # first minimum: ties go to the first training instance
    y_pred, distance = y_tr[nearest], d_te[np.arange(test.size), nearest]

    d_tr = d[np.ix_(train, train)]
    np.fill_diagonal(d_tr, np.inf)  # leave one out: never the instance itself
    nearest_tr = d_tr.argmin(axis=1)
    threshold = _threshold(y_tr, y_tr[nearest_tr], d_tr[np.arange(train.size), nearest_tr], max_accuracy)
    labels, sizes = np.unique(y_tr, return_counts=True)
    target = labels[np.argmax(sizes)].item()
    table = _boosting_table(
        y_te,
        {
            "NORMAL": y_pred,
            "CHANGED": _relabel_uncertain(y_pred, distance, threshold, target),
            "UPPER": _relabel_errors(y_te, y_pred, target),
        },
        np.unique(t).tolist(),
    )
    table.attrs.update(threshold=threshold, target=target)
    return table
