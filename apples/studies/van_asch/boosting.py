"""The boosting experiment of Van Asch (2013) §6.2.1: relabel uncertain predictions, watch the scores move.

A 1-nearest-neighbour classifier (scikit-learn, the ``notebooks`` extra) on a
Zipf-subsampled label set, its accuracy by uncertainty, and the tables and
curves of scores after relabelling the k most uncertain predictions.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping

import numpy as np
import pandas as pd
from scipy.optimize import isotonic_regression

from apples._optional import require
from apples._params import (
    check_count,
    check_int,
    check_label_kind,
    check_labels_1d,
    check_real,
    check_same_label_kind,
    check_same_length,
    check_scores,
    check_seed,
    rng_from_seed,
)
from apples.metrics.averaging import average_scores
from apples.metrics.multilabel import label_counts

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

# -- validation helpers --------------------------------------------------------------
#: Largest ``random_state`` scikit-learn accepts (numpy's legacy RandomState seeds are 32-bit).
_MAX_SKLEARN_SEED = 2**32 - 1


# -- the boosting strategy of §6.2.1 ---------------------------------------------------------
def accuracy_by_uncertainty(y_true, y_pred, uncertainty, *, bins: int = 10) -> pd.DataFrame:
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
    >>> accuracy_by_uncertainty([0, 0, 1, 1], [0, 0, 1, 0], [0.1, 0.2, 0.3, 0.9], bins=2)
       low  high  n  correct  accuracy
    0  0.1   0.2  2        2       1.0
    1  0.3   0.9  2        1       0.5
    """
    t = check_labels_1d("y_true", y_true)
    p = check_labels_1d("y_pred", y_pred)
    u = check_scores("uncertainty", uncertainty)
    check_same_length(y_true=t, y_pred=p, uncertainty=u)
    check_same_label_kind(y_true=t, y_pred=p)  # ints against strings: nothing would count as correct
    bins = check_count("bins", bins)  # above 2**53 refused, like every count
    if bins < 1:
        raise ValueError(f"bins must be >= 1, got {bins}")
    if u.size == 0:
        raise ValueError("y_true is empty")
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


def expected_accuracy(y_true, y_pred, uncertainty) -> pd.DataFrame:
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
    >>> expected_accuracy([0] * 4, [0, 1, 0, 1], [1, 2, 3, 4]).expected.tolist()
    [1.0, 0.5, 0.5, 0.0]
    """
    t = check_labels_1d("y_true", y_true)
    p = check_labels_1d("y_pred", y_pred)
    u = check_scores("uncertainty", uncertainty)
    check_same_length(y_true=t, y_pred=p, uncertainty=u)
    check_same_label_kind(y_true=t, y_pred=p)  # ints against strings: nothing would count as correct
    if u.size == 0:
        raise ValueError("y_true is empty")
    uniq, inv = np.unique(u, return_inverse=True)
    n = np.bincount(inv).astype(float)
    acc = np.bincount(inv, weights=(t == p).astype(float)) / n
    fit = isotonic_regression(acc, weights=n, increasing=False).x
    return pd.DataFrame({"uncertainty": uniq, "n": n.astype(int), "accuracy": acc, "expected": fit})


def uncertainty_threshold(y_true, y_pred, uncertainty, *, max_accuracy: float = 0.35) -> float:
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
    >>> uncertainty_threshold([0, 0, 1, 1, 1], [0, 0, 1, 0, 0], [1, 2, 3, 4, 5], max_accuracy=0.35)
    4.0
    """
    max_accuracy = check_real("max_accuracy", max_accuracy, low=0.0, low_inclusive=False, high=1.0)
    curve = expected_accuracy(y_true, y_pred, uncertainty)
    below = np.flatnonzero(curve["expected"].to_numpy() < max_accuracy)
    return float(curve["uncertainty"].iloc[below[0]]) if below.size else math.inf


def zipf_subsample(y, *, exponent: float = 1.0, minimum: int = 1, seed: int) -> np.ndarray:
    """Indices of a subsample whose class sizes follow Zipf's law, like part-of-speech tags.

    The label of rank r (1-based, in sorted label order) keeps
    ``max(minimum, round(n_r / r**exponent))`` of its ``n_r`` instances (at
    most all of them), drawn without replacement with
    ``numpy.random.default_rng(seed)``.

    Returns
    -------
    numpy.ndarray
        Sorted indices into ``y``.

    Examples
    --------
    >>> y = [0] * 12 + [1] * 12 + [2] * 12
    >>> import numpy as np
    >>> np.bincount(np.asarray(y)[zipf_subsample(y, exponent=1.0, seed=0)]).tolist()
    [12, 6, 4]
    """
    t = check_labels_1d("y", y)
    exponent = check_real("exponent", exponent, low=0.0)
    minimum = check_int("minimum", minimum)
    if minimum < 0:
        raise ValueError(f"minimum must be >= 0, got {minimum}")
    rng = rng_from_seed(check_seed("seed", seed))  # an int: a Generator is not a seed here
    keep = []
    for rank, label in enumerate(np.unique(t), start=1):
        idx = np.flatnonzero(t == label)
        k = min(idx.size, max(minimum, round(idx.size / rank ** float(exponent))))
        keep.append(rng.choice(idx, size=k, replace=False))
    return np.sort(np.concatenate(keep)) if keep else np.array([], dtype=int)


def relabel_uncertain(y_pred, uncertainty, *, threshold: float, target) -> np.ndarray:
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
    >>> relabel_uncertain(["a", "b", "c"], [0.1, 0.5, 0.9], threshold=0.5, target="a").tolist()
    ['a', 'a', 'a']
    """
    p = check_labels_1d("y_pred", y_pred)
    u = check_scores("uncertainty", uncertainty)
    check_same_length(y_pred=p, uncertainty=u)
    threshold = check_real("threshold", threshold, finite=False)
    check_label_kind("target", target, p, where="y_pred")  # numpy would turn [1, 2] and "a" into strings
    out = np.asarray(p, dtype=np.result_type(p, np.asarray([target]))).copy()
    out[u >= threshold] = target
    return out


def relabel_errors(y_true, y_pred, *, target) -> np.ndarray:
    """UPPER of Table 8: every *wrong* prediction becomes ``target`` (an oracle).

    The upper bound of the boosting strategy: a perfect detector of errors.
    Errors whose gold label is ``target`` become correct; no correct prediction
    is touched.

    Examples
    --------
    >>> relabel_errors(["a", "b", "c"], ["b", "b", "b"], target="a").tolist()
    ['a', 'b', 'a']
    """
    t = check_labels_1d("y_true", y_true)
    p = check_labels_1d("y_pred", y_pred)
    check_same_length(y_true=t, y_pred=p)
    check_same_label_kind(y_true=t, y_pred=p)
    check_label_kind("target", target, p if p.size else t, where="y_pred")
    out = np.asarray(p, dtype=np.result_type(p, np.asarray([target]))).copy()
    out[t != p] = target
    return out


def boosting_table(y_true, predictions: Mapping[str, object], *, labels) -> pd.DataFrame:
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
    >>> y = ["A"] * 6 + ["B", "B", "C", "C"]
    >>> p = ["A"] * 6 + ["B", "C", "C", "B"]
    >>> table = boosting_table(y, {"NORMAL": p, "CHANGED": p[:7] + ["A", "C", "A"]}, labels=["A", "B", "C"])
    >>> table[["precision", "recall", "f1", "accuracy", "changed", "lost"]].round(4)
             precision  recall      f1  accuracy  changed  lost
    NORMAL      0.6667  0.6667  0.6667       0.8        0     0
    CHANGED     0.9167  0.6667  0.7302       0.8        2     0
    """
    t = check_labels_1d("y_true", y_true)
    if not isinstance(predictions, Mapping) or not predictions:
        raise TypeError("predictions must be a non-empty mapping name -> predicted labels")
    preds = {}
    for name, p in predictions.items():
        p = check_labels_1d(f"predictions[{name!r}]", p)
        check_same_length(y_true=t, **{f"predictions[{name!r}]": p})
        check_same_label_kind(y_true=t, **{f"predictions[{name!r}]": p})
        preds[name] = p
    labels = list(labels)
    reference = next(iter(preds.values()))
    ok0 = t == reference
    rows = {}
    for name, p in preds.items():
        s = average_scores(label_counts(t, p, labels=labels), average="macro")
        ok = t == p
        rows[name] = {
            "precision": s.precision,
            "recall": s.recall,
            "f1": s.mean_f,
            "f_of_averages": s.f_of_averages,
            "accuracy": float(ok.mean()) if ok.size else math.nan,
            "correct": int(ok.sum()),
            "changed": int((p != reference).sum()),
            "gained": int((ok & ~ok0).sum()),
            "lost": int((~ok & ok0).sum()),
        }
    return pd.DataFrame.from_dict(rows, orient="index")


def boosting_curve(y_true, y_pred, uncertainty, *, ks, target, labels) -> pd.DataFrame:
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
    t = check_labels_1d("y_true", y_true)
    p = check_labels_1d("y_pred", y_pred)
    u = check_scores("uncertainty", uncertainty)
    check_same_length(y_true=t, y_pred=p, uncertainty=u)
    check_same_label_kind(y_true=t, y_pred=p)
    check_label_kind("target", target, p if p.size else t, where="y_pred")
    ks_list = []
    for i, k in enumerate(np.atleast_1d(np.asarray(ks, dtype=object))):
        k = check_int(f"ks[{i}]", k)
        if not 0 <= k <= p.size:
            raise ValueError(f"ks[{i}]={k} must lie in [0, n = {p.size}]")
        ks_list.append(k)
    if not ks_list:
        raise ValueError("ks is empty")
    labels = list(labels)
    order = np.argsort(-u, kind="stable")  # most uncertain first; ties keep their order
    wrong = t != p
    predictions = {"reference": p}
    for k in ks_list:
        relabelled = relabel_uncertain(
            p, np.isin(np.arange(p.size), order[:k]).astype(float), threshold=1.0, target=target
        )
        predictions[f"k={k}"] = relabelled
    table = boosting_table(t, predictions, labels=labels).iloc[1:]
    table.index = pd.Index(ks_list, name="k")
    table["errors_relabelled"] = [int(wrong[order[:k]].sum()) for k in ks_list]
    table["unpredicted_labels"] = [len(set(labels) - set(predictions[f"k={k}"].tolist())) for k in ks_list]
    return table


def nearest_neighbour_boosting(
    X,
    y,
    *,
    seed: int,
    exponent: float = 1.5,
    minimum: int = 10,
    train_size: float = 0.3,
    max_accuracy: float = 0.35,
    distances=None,
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
    >>> X, y = load_digits(return_X_y=True)
    >>> table = nearest_neighbour_boosting(X, y, seed=0)
    >>> table.attrs["target"], int(table.changed["CHANGED"]), int(table.gained["CHANGED"])
    (0, 5, 0)
    """
    from scipy.spatial.distance import cdist

    train_test_split = require("sklearn.model_selection").train_test_split  # scikit-learn: the notebooks extra

    t = check_labels_1d("y", y)
    seed = check_seed("seed", seed)
    if seed > _MAX_SKLEARN_SEED:  # it is also train_test_split's random_state
        raise ValueError(f"seed must lie in [0, 2**32 - 1] (it seeds scikit-learn's train_test_split too), got {seed}")
    train_size = check_real("train_size", train_size, low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    if distances is None:
        x = np.asarray(X, dtype=float)
        if x.ndim != 2:
            raise ValueError(f"X must be two-dimensional, got an array of shape {x.shape}")
        check_same_length(X=x, y=t)
        d = cdist(x, x)
    else:
        d = np.asarray(distances, dtype=float)
        if d.shape != (t.size, t.size):
            raise ValueError(f"distances must have shape (n, n) = {(t.size, t.size)}, got {d.shape}")
        if np.isnan(d).any():
            raise ValueError("distances contains NaN")
    keep = zipf_subsample(t, exponent=exponent, minimum=minimum, seed=seed)
    train, test = train_test_split(keep, train_size=train_size, random_state=seed, stratify=t[keep])
    y_tr, y_te = t[train], t[test]

    d_te = d[np.ix_(test, train)]
    nearest = d_te.argmin(axis=1)  # first minimum: ties go to the first training instance
    y_pred, distance = y_tr[nearest], d_te[np.arange(test.size), nearest]

    d_tr = d[np.ix_(train, train)]
    np.fill_diagonal(d_tr, np.inf)  # leave one out: never the instance itself
    nearest_tr = d_tr.argmin(axis=1)
    threshold = uncertainty_threshold(
        y_tr, y_tr[nearest_tr], d_tr[np.arange(train.size), nearest_tr], max_accuracy=max_accuracy
    )
    labels, sizes = np.unique(y_tr, return_counts=True)
    target = labels[np.argmax(sizes)].item()
    table = boosting_table(
        y_te,
        {
            "NORMAL": y_pred,
            "CHANGED": relabel_uncertain(y_pred, distance, threshold=threshold, target=target),
            "UPPER": relabel_errors(y_te, y_pred, target=target),
        },
        labels=np.unique(t).tolist(),
    )
    table.attrs.update(threshold=threshold, target=target)
    return table
