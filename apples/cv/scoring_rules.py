"""Proper scoring rules under cross-validation: log loss and Brier score per fold and pooled, and the reliability
table (the calibration they measure) per fold and pooled.

Both scoring rules are a mean of a per-case loss, so the value over all cross-validated predictions (pooled)
equals the mean of the fold values weighted by the folds' sizes (their sums of weights): for these two,
pooling and averaging by fold size agree, unlike F (Forman & Scholz 2010 §2) or AUC (§3), where pooled and
averaged values differ. The plain mean of the fold values (each fold counting once) differs when folds differ
in size; both are returned. Forman & Scholz §3.2 show that AUC_merge judges whether the fold classifiers are
calibrated alike; :func:`reliability_table` shows each fold's calibration beside the pooled one.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, Literal, NamedTuple

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from apples._kernels.counting import codes_of
from apples._kernels.scoring_rules import FoldScoringRules, bin_edges, fold_scoring_rules, reliability
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

    by_fold: pd.DataFrame  #: columns fold, bin, lower, upper, count, mean_predicted, observed
    pooled: pd.DataFrame  #: columns bin, lower, upper, count, mean_predicted, observed
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


@declare(predictions=CV_PREDICTIONS, sample_weight=Nullable(SAMPLE_WEIGHT))
def scoring_rules_table(predictions: CVPredictions, *, sample_weight: ArrayLike | None = None) -> ScoringRulesTable:
    """Log loss and Brier score of every fold of every repeat, and pooled per repeat, from :class:`CVPredictions`.

    ``predictions`` must be binary with ``y_score`` the positive label's probability (in [0, 1]). For each
    repeat the pooled values are over all its cases: the fold-size-weighted means of its fold values
    (:func:`cv_log_loss`, :func:`cv_brier_score`).

    Parameters
    ----------
    predictions : CVPredictions
        Binary cross-validated predictions with probabilities as ``y_score``.
    sample_weight : array-like of shape (n,), optional
        Non-negative weight of each row of ``predictions``.

    Returns
    -------
    ScoringRulesTable
        ``folds`` (one row per fold of each repeat) and ``pooled`` (one row per repeat).

    Examples
    --------
    >>> from apples.cv import CVPredictions, scoring_rules_table
    >>> p = CVPredictions([1, 0, 1, 0], folds=[0, 0, 1, 1], y_score=[0.75, 0.25, 0.5, 0.5])
    >>> t = scoring_rules_table(p)
    >>> t.folds["brier_score"].tolist(), t.pooled["brier_score"].tolist()
    ([0.0625, 0.25], [0.15625])
    """
    p = predictions
    if p.task != "binary":
        raise ParameterValueError(
            "predictions are multi-class; the log loss and Brier score here are binary (the positive label's "
            "probability)",
            param="predictions",
        )
    if p.y_score is None:
        raise ParameterValueError(
            "predictions have no y_score: give the positive label's probability as y_score", param="predictions"
        )
    score = np.asarray(p.y_score, dtype=np.float64)
    bad = np.flatnonzero((score < 0.0) | (score > 1.0))
    if bad.size:
        i = int(bad[0])
        raise ParameterValueError(
            f"predictions.y_score must be the positive label's probability, in [0, 1]; got {float(score[i])!r} "
            f"at row {i}",
            param="predictions",
        )
    w = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    if w is not None and w.size != len(p):
        raise ParameterValueError(
            f"sample_weight has {w.size} values, predictions {len(p)} rows: one weight per row", param="sample_weight"
        )
    fold_rows, pooled_rows = [], []
    for r in range(p.n_repeats):
        rows = p.rows(r)
        ids = p.fold_ids[r]
        res = fold_scoring_rules(
            p.truth_codes[rows].astype(np.float64),
            score[rows],
            p.fold_codes[r],
            ids.size,
            None if w is None else w[rows],
        )
        _weighed(ids, res.size, w)
        repeat = p.repeat_ids[r].item() if isinstance(p.repeat_ids[r], np.generic) else p.repeat_ids[r]
        for i, fold in enumerate(ids.tolist()):
            fold_rows.append((repeat, fold, res.size[i], res.log_loss[i], res.brier[i]))
        pooled_rows.append((repeat, float(res.size.sum()), res.pooled_log_loss, res.pooled_brier))
    columns = ["log_loss", "brier_score"]
    return ScoringRulesTable(
        pd.DataFrame(fold_rows, columns=["repeat", "fold", "size", *columns]),
        pd.DataFrame(pooled_rows, columns=["repeat", "size", *columns]),
    )


@declare(
    **_FLAT,
    n_bins=Integer(1, 10_000),
    strategy=Options(*_STRATEGIES),
    relations=_RELATIONS,
)
def reliability_table(
    y_true: ArrayLike,
    y_prob: ArrayLike,
    *,
    folds: ArrayLike,
    pos_label: Hashable | None = None,
    sample_weight: ArrayLike | None = None,
    n_bins: int = 10,
    strategy: Literal["uniform", "quantile"] = "uniform",
) -> ReliabilityTable:
    """The reliability (calibration) table per fold and pooled: cases binned by predicted probability.

    In each bin, the mean predicted probability against the observed frequency of the positive label; a
    calibrated classifier has them equal in every bin (the diagonal of a reliability diagram, Murphy & Winkler
    1977; DeGroot & Fienberg 1983). The Brier score is the mean squared gap plus the spread of outcomes within
    bins (Murphy 1973's decomposition). Per fold it shows whether the fold classifiers are calibrated alike,
    which AUC_merge needs (Forman & Scholz 2010 §3.2). The bins are scikit-learn's ``calibration_curve``'s: a
    case is in bin ``i`` when ``edges[i] < p <= edges[i + 1]`` (the first bin also holds ``p = edges[0]``);
    with ``strategy="quantile"`` the edges are the quantiles of all predictions, shared by every fold.

    Parameters
    ----------
    y_true, y_prob, folds, pos_label, sample_weight
        As :func:`cv_log_loss`.
    n_bins : int, default 10
        The number of bins.
    strategy : {"uniform", "quantile"}, default "uniform"
        Bins of equal width on [0, 1], or holding equal numbers of (pooled) cases.

    Returns
    -------
    ReliabilityTable
        ``by_fold`` (a row per fold and bin), ``pooled`` (a row per bin) and the ``edges``. ``count`` is the
        number (sum of weights) of cases in the bin; ``mean_predicted`` and ``observed`` are NaN in an empty bin.

    References
    ----------
    Murphy & Winkler (1977) "Reliability of subjective probability forecasts", Applied Statistics 26;
    DeGroot & Fienberg (1983) "The comparison and evaluation of forecasters", The Statistician 32.

    Examples
    --------
    >>> from apples.cv import reliability_table
    >>> t = reliability_table([0, 0, 1, 1], [0.25, 0.75, 0.75, 0.75], folds=[0, 1, 0, 1], n_bins=2)
    >>> t.pooled[["count", "mean_predicted", "observed"]].to_numpy().tolist()
    [[1.0, 0.25, 0.0], [3.0, 0.75, 0.6666666666666666]]
    """
    t = np.asarray(y_true)
    if t.size == 0:
        raise ParameterValueError("y_true is empty: there are no cases, hence no folds", param="y_true")
    ids, code = codes_of(np.asarray(folds))
    p = np.asarray(y_prob)
    w = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    if w is not None and not w.sum() > 0:
        raise ParameterValueError("sample_weight sums to 0: no case counts", param="sample_weight")
    edges = bin_edges(p, n_bins, strategy)
    if edges.size < 2:  # quantile edges of predictions that are all equal
        edges = np.array([edges[0], edges[0]])
    r = reliability(positive_indicator(t, pos_label), p, code, ids.size, edges, w)
    k = edges.size - 1
    bins = pd.DataFrame({"bin": np.arange(k), "lower": edges[:-1], "upper": edges[1:]})
    by_fold = pd.concat(
        [
            bins.assign(count=r.size[i], mean_predicted=r.mean_predicted[i], observed=r.observed[i]).assign(fold=fold)
            for i, fold in enumerate(ids.tolist())
        ],
        ignore_index=True,
    )
    by_fold = by_fold[["fold", "bin", "lower", "upper", "count", "mean_predicted", "observed"]]
    pooled = bins.assign(count=r.pooled_size, mean_predicted=r.pooled_mean_predicted, observed=r.pooled_observed)
    return ReliabilityTable(by_fold, pooled, edges)
