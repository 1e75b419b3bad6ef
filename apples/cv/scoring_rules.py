"""Proper scoring rules under cross-validation: log loss and Brier score per fold and pooled, and the reliability
table (the calibration they measure) per fold and pooled.

Both scoring rules are a mean of a per-case loss, so the value over all cross-validated predictions (pooled)
equals the mean of the fold values weighted by the folds' sizes (their sums of weights): for these two,
pooling and averaging by fold size agree, unlike F (Forman & Scholz 2010 §2) or AUC (§3), where pooled and
averaged values differ. The plain mean of the fold values (each fold counting once) differs when folds differ
in size; both are returned. Forman & Scholz §3.2 show that AUC_merge judges whether the fold classifiers are
calibrated alike; :func:`reliability_table` shows each fold's calibration beside the pooled one. The two tables
built from :class:`CVPredictions` read every repeat and weigh each row by its ``sample_weight``.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, Literal, NamedTuple

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from apples._kernels.counting import codes_of
from apples._kernels.scoring_rules import FoldScoringRules, fold_scoring_rules
from apples._params import (
    FOLD_IDS,
    LABEL,
    LABELS,
    Integer,
    Nullable,
    Options,
    ParameterValueError,
    SameLength,
    TwoClasses,
    declare,
    positive_indicator,
)
from apples.cv._one_vs_rest import binary_problems, label_reliability, repeat_folds
from apples.cv.predictions import CV_PREDICTIONS, CVPredictions
from apples.metrics.scoring_rules import PROBABILITIES, SAMPLE_WEIGHT

__all__ = [
    "CVScoringRule",
    "ReliabilityTable",
    "ScoringRulesTable",
    "cv_brier_score",
    "cv_log_loss",
    "reliability_table",
    "scoring_rules_table",
]

_FLAT = {
    "y_true": LABELS,
    "y_prob": PROBABILITIES,
    "folds": FOLD_IDS,
    "pos_label": Nullable(LABEL),
    "sample_weight": Nullable(SAMPLE_WEIGHT),
}
_RELATIONS = [SameLength("y_true", "y_prob", "folds", "sample_weight"), TwoClasses("pos_label", "y_true")]
_STRATEGIES = ("uniform", "quantile")
_TASK_WORDS = {"multiclass": "multi-class", "multilabel": "multi-label", "binary": "binary"}


class CVScoringRule(NamedTuple):
    """A scoring rule of cross-validated predictions: each fold's value and the pooled one."""

    fold_values: pd.Series  #: the value of each fold, indexed by fold id (sorted)
    fold_sizes: pd.Series  #: each fold's number of cases (its sum of weights with ``sample_weight``)
    pooled: float  #: over all cases: equal to the fold-size-weighted mean of ``fold_values``
    mean: float  #: the plain mean of ``fold_values`` (each fold counts once)


class ScoringRulesTable(NamedTuple):
    """Log loss and Brier score of every fold of every repeat, and of each repeat's pooled predictions."""

    folds: pd.DataFrame  #: columns repeat, fold, size, log_loss, brier_score: one row per fold of each repeat
    pooled: pd.DataFrame  #: columns repeat, size, log_loss, brier_score: one row per repeat


class ReliabilityTable(NamedTuple):
    """Cases binned by predicted probability: per fold and pooled, the bin's mean prediction and observed rate."""

    by_fold: pd.DataFrame  #: columns repeat, fold, bin, lower, upper, count, mean_predicted, observed
    pooled: pd.DataFrame  #: columns repeat, bin, lower, upper, count, mean_predicted, observed: per repeat
    edges: np.ndarray  #: the ``n_bins + 1`` bin edges (fewer with ``strategy="quantile"`` and repeated values)


def _fold_name(ids: np.ndarray, i: int) -> str:
    value = ids[i].item() if isinstance(ids[i], np.generic) else ids[i]
    return f"fold {value!r}"


def _weighed(ids: np.ndarray, sizes: np.ndarray, weights: np.ndarray | None) -> None:
    """Every fold needs cases of positive weight: a fold weighing 0 has no mean loss."""
    empty = np.flatnonzero(~(sizes > 0))
    if weights is not None and empty.size:
        raise ParameterValueError(
            f"sample_weight sums to 0 in {_fold_name(ids, int(empty[0]))}: the fold has no mean loss",
            param="sample_weight",
        )


def _rules(
    y_true: Any, y_prob: Any, folds: Any, pos_label: Any, sample_weight: Any
) -> tuple[np.ndarray, FoldScoringRules]:
    t = np.asarray(y_true)
    if t.size == 0:
        raise ParameterValueError("y_true is empty: there are no cases, hence no folds", param="y_true")
    ids, code = codes_of(np.asarray(folds))
    w = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    r = fold_scoring_rules(positive_indicator(t, pos_label), np.asarray(y_prob), code, ids.size, w)
    _weighed(ids, r.size, w)
    return ids, r


def _result(ids: np.ndarray, values: np.ndarray, sizes: np.ndarray, pooled: float, name: str) -> CVScoringRule:
    index = pd.Index(ids.tolist(), name="fold")
    mean = 0.0
    for v in values.tolist():  # in fold order: the same bits on every CPU
        mean += v
    return CVScoringRule(
        pd.Series(values, index=index, name=name),
        pd.Series(sizes, index=index, name="size"),
        pooled,
        mean / len(values),
    )


@declare(**_FLAT, relations=_RELATIONS)
def cv_log_loss(
    y_true: ArrayLike,
    y_prob: ArrayLike,
    *,
    folds: ArrayLike,
    pos_label: Hashable | None = None,
    sample_weight: ArrayLike | None = None,
) -> CVScoringRule:
    """Log loss of cross-validated predictions: each fold's, and pooled over all cases.

    The pooled log loss is the fold-size-weighted mean of the fold values,
    ``L_pooled = Σ_f n_f L_f / Σ_f n_f`` (``n_f`` the fold's sum of weights), because the log loss is a mean
    of per-case losses; the plain mean of the fold values (``mean``) weighs every fold alike. An infinite
    fold value (a certain mistake, see :func:`apples.log_loss`) makes the pooled value infinite, never clipped.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels, at most two classes.
    y_prob : array-like of shape (n,)
        The predicted probability of the positive label, in [0, 1].
    folds : array-like of shape (n,)
        The fold id of each case.
    pos_label : label, optional
        The positive class; default 1 for 0/1 or -1/1 labels (True for bools), required otherwise.
    sample_weight : array-like of shape (n,), optional
        Non-negative weight of each case; every fold needs a positive total weight.

    Returns
    -------
    CVScoringRule
        ``fold_values`` and ``fold_sizes`` (Series indexed by fold id), ``pooled`` and ``mean``.

    References
    ----------
    Good (1952); Gneiting & Raftery (2007) §3.3. Forman & Scholz (2010) §2-§3 for why pooling and averaging
    differ for F and AUC (and here do not).

    Examples
    --------
    >>> from apples.cv import cv_log_loss
    >>> r = cv_log_loss([1, 0, 1, 0, 1, 1], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5], folds=[0, 0, 0, 0, 1, 1])
    >>> r.fold_values.round(12).tolist(), r.fold_sizes.tolist(), round(r.pooled, 12)   # log 2 everywhere
    ([0.69314718056, 0.69314718056], [4.0, 2.0], 0.69314718056)
    """
    ids, r = _rules(y_true, y_prob, folds, pos_label, sample_weight)
    return _result(ids, r.log_loss, r.size, r.pooled_log_loss, "log_loss")


@declare(**_FLAT, relations=_RELATIONS)
def cv_brier_score(
    y_true: ArrayLike,
    y_prob: ArrayLike,
    *,
    folds: ArrayLike,
    pos_label: Hashable | None = None,
    sample_weight: ArrayLike | None = None,
) -> CVScoringRule:
    """Brier score of cross-validated predictions: each fold's, and pooled over all cases.

    The pooled Brier score is the fold-size-weighted mean of the fold values,
    ``B_pooled = Σ_f n_f B_f / Σ_f n_f`` (``n_f`` the fold's sum of weights), because the Brier score is a
    mean of per-case squared errors; the plain mean of the fold values (``mean``) weighs every fold alike.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels, at most two classes.
    y_prob : array-like of shape (n,)
        The predicted probability of the positive label, in [0, 1].
    folds : array-like of shape (n,)
        The fold id of each case.
    pos_label : label, optional
        The positive class; default 1 for 0/1 or -1/1 labels (True for bools), required otherwise.
    sample_weight : array-like of shape (n,), optional
        Non-negative weight of each case; every fold needs a positive total weight.

    Returns
    -------
    CVScoringRule
        ``fold_values`` and ``fold_sizes`` (Series indexed by fold id), ``pooled`` and ``mean``.

    References
    ----------
    Brier (1950); Gneiting & Raftery (2007) §3.2.

    Examples
    --------
    >>> from apples.cv import cv_brier_score
    >>> r = cv_brier_score([1, 0, 1, 0, 1, 1], [0.75, 0.25, 0.75, 0.25, 0.5, 0.5], folds=[0, 0, 0, 0, 1, 1])
    >>> r.fold_values.tolist(), r.pooled, r.mean   # (4 · 1/16 + 2 · 1/4) / 6; (1/16 + 1/4) / 2
    ([0.0625, 0.25], 0.125, 0.15625)
    """
    ids, r = _rules(y_true, y_prob, folds, pos_label, sample_weight)
    return _result(ids, r.brier, r.size, r.pooled_brier, "brier_score")


def _table_weights(p: CVPredictions, sample_weight: Any) -> np.ndarray | None:
    """The weights of a table: the predictions' ``sample_weight`` or the argument, never both."""
    if sample_weight is None:
        return p.sample_weight
    if p.sample_weight is not None:
        raise ParameterValueError(
            "sample_weight is given twice: the predictions carry their own (predictions.sample_weight), so leave "
            "the argument out (or build the predictions without weights to use other ones)",
            param="sample_weight",
        )
    w = np.asarray(sample_weight, dtype=np.float64)
    if w.size != len(p):
        raise ParameterValueError(
            f"sample_weight has {w.size} values, predictions {len(p)} rows: one weight per row", param="sample_weight"
        )
    return w


@declare(predictions=CV_PREDICTIONS, sample_weight=Nullable(SAMPLE_WEIGHT))
def scoring_rules_table(predictions: CVPredictions, *, sample_weight: ArrayLike | None = None) -> ScoringRulesTable:
    """Log loss and Brier score of every fold of every repeat, and pooled per repeat, from :class:`CVPredictions`.

    ``predictions`` must be binary with ``y_score`` the positive label's probability (in [0, 1]). Each case
    counts its weight, ``predictions.sample_weight`` (the weighted means of scikit-learn's ``log_loss`` and
    ``brier_score_loss`` with ``sample_weight=``, fold by fold); a row of weight 0 counts nothing, even a certain
    mistake. For each repeat the pooled values are over all its cases: the fold-size-weighted means of its fold
    values (:func:`cv_log_loss`, :func:`cv_brier_score`), ``size`` a fold's sum of weights.

    Parameters
    ----------
    predictions : CVPredictions
        Binary cross-validated predictions with probabilities as ``y_score``; their ``sample_weight``, if any,
        weighs each row.
    sample_weight : array-like of shape (n,), optional
        Non-negative weight of each row of ``predictions``, for predictions that carry none. Given while
        ``predictions.sample_weight`` is set, it is refused (naming ``sample_weight``): one call, one set of
        weights.

    Returns
    -------
    ScoringRulesTable
        ``folds`` (one row per fold of each repeat) and ``pooled`` (one row per repeat).

    Raises
    ------
    ValueError
        Naming ``predictions`` if they are multi-class or multi-label (the log loss and Brier score here are
        binary), have no ``y_score``, or a score outside [0, 1]; ``sample_weight`` if given twice, of the wrong
        length, or summing to 0 in a fold.

    Examples
    --------
    >>> from apples.cv import CVPredictions, scoring_rules_table
    >>> p = CVPredictions([1, 0, 1, 0], folds=[0, 0, 1, 1], y_score=[0.75, 0.25, 0.5, 0.5])
    >>> t = scoring_rules_table(p)
    >>> t.folds["brier_score"].tolist(), t.pooled["brier_score"].tolist()
    ([0.0625, 0.25], [0.15625])
    >>> w = CVPredictions([1, 0, 1, 0], folds=[0, 0, 1, 1], y_score=[0.75, 0.25, 0.5, 0.5], sample_weight=[1, 1, 3, 1])
    >>> scoring_rules_table(w).pooled["brier_score"].tolist()   # (1/16 + 1/16 + 4 · 1/4) / 6
    [0.1875]
    """
    p = predictions
    if p.task != "binary":
        raise ParameterValueError(
            f"predictions are {_TASK_WORDS[p.task]}; the log loss and Brier score here are binary (the positive "
            "label's probability as y_score)",
            param="predictions",
        )
    w = _table_weights(p, sample_weight)
    problem = binary_problems(p, None, probabilities=True)[0]
    fold_rows, pooled_rows = [], []
    for part in repeat_folds(p, None, w):
        res = fold_scoring_rules(
            problem.positive[part.rows].astype(np.float64),
            np.asarray(problem.score[part.rows], dtype=np.float64),
            part.fold_codes,
            len(part.fold_ids),
            part.weights,
        )
        for i, fold in enumerate(part.fold_ids):
            fold_rows.append((part.repeat, fold, res.size[i], res.log_loss[i], res.brier[i]))
        pooled_rows.append((part.repeat, _ordered_total(res.size), res.pooled_log_loss, res.pooled_brier))
    columns = ["log_loss", "brier_score"]
    return ScoringRulesTable(
        pd.DataFrame(fold_rows, columns=["repeat", "fold", "size", *columns]),
        pd.DataFrame(pooled_rows, columns=["repeat", "size", *columns]),
    )


def _ordered_total(values: np.ndarray) -> float:
    total = 0.0
    for v in values.tolist():  # in fold order: the same bits on every CPU
        total += v
    return total


@declare(
    predictions=CV_PREDICTIONS,
    label=Nullable(LABEL),
    n_bins=Integer(1, 10_000),
    strategy=Options(*_STRATEGIES),
)
def reliability_table(
    predictions: CVPredictions,
    *,
    label: Hashable | None = None,
    n_bins: int = 10,
    strategy: Literal["uniform", "quantile"] = "uniform",
) -> ReliabilityTable:
    """The reliability (calibration) table of every fold of every repeat, and pooled per repeat: cases binned by
    predicted probability.

    In each bin, the mean predicted probability against the observed frequency of the positive label; a
    calibrated classifier has them equal in every bin (the diagonal of a reliability diagram, Murphy & Winkler
    1977; DeGroot & Fienberg 1983). The Brier score is the mean squared gap plus the spread of outcomes within
    bins (Murphy 1973's decomposition). Per fold it shows whether the fold classifiers are calibrated alike,
    which AUC_merge needs (Forman & Scholz 2010 §3.2). The bins are scikit-learn's ``calibration_curve``'s: a
    case is in bin ``i`` when ``edges[i] < p <= edges[i + 1]`` (the first bin also holds ``p = edges[0]``);
    with ``strategy="quantile"`` the edges are the quantiles of every row's prediction (rows, not weights),
    shared by every fold and repeat. Each row counts its ``predictions.sample_weight``: a bin's count is its
    sum of weights, its mean prediction and observed frequency weighted means (rows of weight 0 count nothing).

    Parameters
    ----------
    predictions : CVPredictions
        Cross-validated probabilities as ``y_score``: binary (the positive label's probability), or multi-class
        and multi-label (one column per label) with ``label=``.
    label : label, optional
        Multi-class and multi-label predictions: the label whose probability is binned, against the rest
        (one-vs-rest: the observed frequency is that of the label); required for them. Binary predictions: their
        positive label, the default.
    n_bins : int, default 10
        The number of bins.
    strategy : {"uniform", "quantile"}, default "uniform"
        Bins of equal width on [0, 1], or holding equal numbers of (pooled) rows.

    Returns
    -------
    ReliabilityTable
        ``by_fold`` (a row per repeat, fold and bin), ``pooled`` (a row per repeat and bin, over the repeat's
        folds) and the ``edges``. ``repeat`` is 0 without repeats. ``count`` is the number (sum of weights) of
        cases in the bin; ``mean_predicted`` and ``observed`` are NaN in an empty bin.

    Raises
    ------
    ValueError
        Naming ``predictions`` if they have no ``y_score`` or a score outside [0, 1]; ``label`` if it is
        missing for multi-class or multi-label predictions, or not one of their labels; ``sample_weight`` if a
        fold's weights sum to 0.

    References
    ----------
    Murphy & Winkler (1977) "Reliability of subjective probability forecasts", Applied Statistics 26;
    DeGroot & Fienberg (1983) "The comparison and evaluation of forecasters", The Statistician 32.

    Examples
    --------
    >>> from apples.cv import CVPredictions, reliability_table
    >>> p = CVPredictions([0, 0, 1, 1], folds=[0, 1, 0, 1], y_score=[0.25, 0.75, 0.75, 0.75])
    >>> t = reliability_table(p, n_bins=2)
    >>> t.pooled[["count", "mean_predicted", "observed"]].to_numpy().tolist()
    [[1.0, 0.25, 0.0], [3.0, 0.75, 0.6666666666666666]]
    """
    p = predictions
    if p.task != "binary" and label is None:
        raise ParameterValueError(
            f"predictions are {_TASK_WORDS[p.task]}: give label= (one of {p.labels[:10]}) for that label's "
            "reliability against the rest (apples.plotting.plot_reliability draws every label's)",
            param="label",
        )
    problem = binary_problems(p, label, probabilities=True)[0]
    table = label_reliability(problem, repeat_folds(p, None, p.sample_weight), n_bins, strategy)
    edges = table.edges
    bins = pd.DataFrame({"bin": np.arange(edges.size - 1), "lower": edges[:-1], "upper": edges[1:]})
    by_fold, pooled = [], []
    for part, r, _ in table.repeats:
        for i, fold in enumerate(part.fold_ids):
            by_fold.append(
                bins.assign(count=r.size[i], mean_predicted=r.mean_predicted[i], observed=r.observed[i]).assign(
                    repeat=part.repeat, fold=fold
                )
            )
        pooled.append(
            bins.assign(count=r.pooled_size, mean_predicted=r.pooled_mean_predicted, observed=r.pooled_observed).assign(
                repeat=part.repeat
            )
        )
    columns = ["bin", "lower", "upper", "count", "mean_predicted", "observed"]
    return ReliabilityTable(
        pd.concat(by_fold, ignore_index=True)[["repeat", "fold", *columns]],
        pd.concat(pooled, ignore_index=True)[["repeat", *columns]],
        edges,
    )
