"""Proper scoring rules of probabilistic predictions: log loss and the Brier score, per fold and pooled.

For both, a fold's value is the (weighted) mean of a per-case loss, so the pooled value over all cases is the
mean of the fold values weighted by the folds' (weighted) sizes: pooling and averaging by fold size agree, unlike
F or AUC (Forman & Scholz 2010 §2-§3). Unchecked: ``y`` is 0/1, ``p`` the positive class's probability in [0, 1].
A probability of 0 for a positive case (or 1 for a negative) has an infinite log loss: it stays inf, never clipped.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = [
    "FoldScoringRules",
    "FoldScoringSums",
    "Reliability",
    "bin_edges",
    "case_brier",
    "case_log_loss",
    "fold_scoring_rules",
    "fold_scoring_sums",
    "reliability",
]


def case_log_loss(y: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Each case's log loss, ``-log p`` for a positive and ``-log(1 - p)`` for a negative (natural log).

    >>> case_log_loss(np.array([1, 0, 1]), np.array([0.5, 0.5, 0.0])).tolist()
    [0.6931471805599453, 0.6931471805599453, inf]
    """
    q = np.where(y == 1, p, 1.0 - p)
    with np.errstate(divide="ignore"):
        return -np.log(q)


def case_brier(y: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Each case's squared error ``(p - y)**2`` (Brier 1950).

    >>> case_brier(np.array([1, 0]), np.array([0.75, 0.25])).tolist()
    [0.0625, 0.0625]
    """
    return (p - y) ** 2


class FoldScoringRules(NamedTuple):
    """Log loss and Brier score of each fold and pooled over the folds, with the folds' (weighted) sizes."""

    log_loss: np.ndarray  #: per fold; NaN for an empty fold
    brier: np.ndarray  #: per fold; NaN for an empty fold
    size: np.ndarray  #: each fold's number of cases, or sum of weights
    pooled_log_loss: float  #: over all cases = the size-weighted mean of the folds'
    pooled_brier: float


def fold_scoring_rules(
    y: np.ndarray, p: np.ndarray, codes: np.ndarray, n_folds: int, weights: np.ndarray | None = None
) -> FoldScoringRules:
    """Per-fold and pooled log loss and Brier score; ``codes`` are fold codes 0..n_folds-1.

    >>> r = fold_scoring_rules(np.array([1, 0, 1, 0]), np.array([0.75, 0.25, 0.5, 0.5]), np.array([0, 0, 1, 1]), 2)
    >>> r.brier.tolist(), r.pooled_brier
    ([0.0625, 0.25], 0.15625)
    """
    w = np.ones(len(y)) if weights is None else np.asarray(weights, dtype=float)
    size = np.bincount(codes, weights=w, minlength=n_folds)
    # bincount sums each fold's cases in order, and the folds' totals are summed in order: the same bits on
    # every CPU (np.dot and np.sum take SIMD- and BLAS-dependent paths); a weight of 0 drops an infinite loss
    with np.errstate(invalid="ignore"):  # 0 × inf: the zero weight wins below
        weighted_losses = np.where(w > 0, w * case_log_loss(y, p), 0.0)
    ll_total = np.bincount(codes, weights=weighted_losses, minlength=n_folds)
    br_total = np.bincount(codes, weights=w * case_brier(y, p), minlength=n_folds)
    with np.errstate(invalid="ignore", divide="ignore"):
        ll, br = ll_total / size, br_total / size
    total = _ordered_sum(size)
    pooled_ll = _ordered_sum(ll_total) / total if total > 0 else float("nan")
    pooled_br = _ordered_sum(br_total) / total if total > 0 else float("nan")
    return FoldScoringRules(ll, br, size, pooled_ll, pooled_br)


class FoldScoringSums(NamedTuple):
    """Per fold: the (weighted) sums of the log loss and the Brier score of its cases, their weight, and how many
    cases of positive weight have an infinite log loss. A fold's mean is ``log_loss[f] / weight[f]``."""

    log_loss: np.ndarray  #: (k,) Σ w·(−log p of the true label); +inf where a case of positive weight has p = 0
    brier: np.ndarray  #: (k,) Σ w·Σ_j (p_j − y_j)² (multi-class), Σ w·(p − y)² (binary)
    weight: np.ndarray  #: (k,) Σ w (the number of cases without weights)
    n_infinite: np.ndarray  #: (k,) int: the cases of positive weight whose log loss is infinite


def fold_scoring_sums(
    truth_codes: np.ndarray,
    prob: np.ndarray,
    fold_codes: np.ndarray,
    n_folds: int,
    weights: np.ndarray | None = None,
    eps: float | None = None,
    start: FoldScoringSums | None = None,
) -> FoldScoringSums:
    """Each fold's sums of the log loss and the Brier score, binary or multi-class, unclipped or clipped at ``eps``.

    Parameters
    ----------
    truth_codes : int array of shape (n,)
        0/1 (negative/positive) with a 1-d ``prob``; the column of the true label, ``0 .. q-1``, with a 2-d one.
    prob : float array of shape (n,) or (n, q)
        The positive label's probability (binary), or every label's (rows summing to 1).
    fold_codes : int array of shape (n,)
        Fold codes ``0 .. n_folds - 1``.
    weights : float array of shape (n,), optional
        Case weights; a case of weight 0 adds nothing, even an infinite loss. For weights near the ends of the
        float range pass :func:`apples._kernels.ranking.scaled_weights` of them (the means are unchanged, the
        sums then cannot overflow).
    eps : float, optional
        None: no clipping, a probability 0 for the true label has an infinite log loss (counted in
        ``n_infinite``). A float: the true label's probability is clipped to ``[eps, 1 − eps]`` before the
        log, as scikit-learn clips ``y_proba`` (it does not renormalise the rows). The Brier score is never
        clipped.
    start : FoldScoringSums, optional
        The sums of the rows before these (a block of rows after another): each sum continues case by case
        from it, the bits of one call on all the rows.

    Notes
    -----
    The multi-class Brier score of a case is ``Σ_j (p_j − y_j)²`` (Brier 1950, in [0, 2]); the binary one
    ``(p − y)²`` (in [0, 1], half the two-column form). Sums run case by case (``bincount``) and column by
    column: the same bits on every CPU.

    Examples
    --------
    >>> r = fold_scoring_sums(np.array([1, 0, 1]), np.array([0.75, 0.25, 0.0]), np.array([0, 0, 1]), 2)
    >>> r.brier.tolist(), r.log_loss.tolist(), r.n_infinite.tolist()
    ([0.125, 1.0], [0.5753641449035618, inf], [0, 1])
    >>> p = np.array([[0.5, 0.25, 0.25], [0.0, 0.0, 1.0]])
    >>> r = fold_scoring_sums(np.array([0, 2]), p, np.array([0, 0]), 1)
    >>> r.brier.tolist(), r.weight.tolist()   # (0.25 + 0.0625 + 0.0625) + 0
    ([0.375], [2.0])
    """
    n = truth_codes.size
    if prob.ndim == 1:
        y = truth_codes == 1
        p_true = np.where(y, prob, 1.0 - prob)
        brier_case = (prob - y) ** 2
    else:
        p_true = prob[np.arange(n), truth_codes]
        brier_case = np.zeros(n)
        for j in range(prob.shape[1]):  # column by column: a fixed order of the sum
            d = prob[:, j] - (truth_codes == j)
            brier_case += d * d
    if eps is not None:
        p_true = np.clip(p_true, eps, 1.0 - eps)
    with np.errstate(divide="ignore"):
        loss_case = -np.log(p_true)
    w = np.ones(n) if weights is None else np.asarray(weights, dtype=np.float64)
    counted = w > 0
    with np.errstate(invalid="ignore"):  # 0 × inf: the zero weight wins below
        weighted_loss = np.where(counted, w * loss_case, 0.0)
    infinite = counted & np.isinf(loss_case)
    if start is None:
        return FoldScoringSums(
            np.bincount(fold_codes, weights=weighted_loss, minlength=n_folds),
            np.bincount(fold_codes, weights=w * brier_case, minlength=n_folds),
            np.bincount(fold_codes, weights=w, minlength=n_folds),
            np.bincount(fold_codes[infinite], minlength=n_folds).astype(np.int64),
        )
    k = np.arange(n_folds)

    def sums(values: np.ndarray, before: np.ndarray) -> np.ndarray:
        return np.bincount(np.r_[k, fold_codes], weights=np.r_[before, values], minlength=n_folds)

    return FoldScoringSums(
        sums(weighted_loss, start.log_loss),
        sums(w * brier_case, start.brier),
        sums(w, start.weight),
        start.n_infinite + np.bincount(fold_codes[infinite], minlength=n_folds),
    )


def _ordered_sum(values: np.ndarray) -> float:
    """The sum of a few fold totals, one after another."""
    total = 0.0
    for v in values.tolist():
        total += v
    return total


def bin_edges(p: np.ndarray, n_bins: int, strategy: str) -> np.ndarray:
    """The ``n_bins + 1`` edges of the probability bins: equal widths on [0, 1] (``"uniform"``) or the quantiles
    of ``p`` (``"quantile"``, repeated edges merged), as scikit-learn's ``calibration_curve``.

    >>> bin_edges(np.array([0.1, 0.2]), 4, "uniform").tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    >>> bin_edges(np.array([0.1, 0.2, 0.2, 0.9]), 2, "quantile").tolist()
    [0.1, 0.2, 0.9]
    """
    if strategy == "quantile":
        return np.unique(np.percentile(p, np.linspace(0.0, 100.0, n_bins + 1)))
    return np.linspace(0.0, 1.0, n_bins + 1)


class Reliability(NamedTuple):
    """Per fold and bin (shape (n_folds, n_bins)) and pooled (shape (n_bins,)): the (weighted) number of cases,
    their mean predicted probability and the observed frequency of the positive class (NaN in an empty bin)."""

    size: np.ndarray
    mean_predicted: np.ndarray
    observed: np.ndarray
    pooled_size: np.ndarray
    pooled_mean_predicted: np.ndarray
    pooled_observed: np.ndarray


def reliability(
    y: np.ndarray, p: np.ndarray, codes: np.ndarray, n_folds: int, edges: np.ndarray, weights: np.ndarray | None = None
) -> Reliability:
    """The reliability table of each fold and pooled: cases binned by predicted probability.

    A case falls in bin ``i`` when ``edges[i] < p <= edges[i + 1]`` (the first bin also holds ``p = edges[0]``),
    scikit-learn's ``calibration_curve`` rule. Sums by ``bincount``, in case order: the same bits on every CPU.

    >>> r = reliability(np.array([1, 0, 1, 1]), np.array([0.2, 0.4, 0.8, 0.6]), np.array([0, 0, 1, 1]), 2,
    ...                 np.array([0.0, 0.5, 1.0]))
    >>> r.size.tolist(), r.observed.tolist(), r.pooled_mean_predicted.tolist()
    ([[2.0, 0.0], [0.0, 2.0]], [[0.5, nan], [nan, 1.0]], [0.30000000000000004, 0.7])
    """
    n_bins = edges.size - 1
    w = np.ones(len(y)) if weights is None else np.asarray(weights, dtype=float)
    b = np.clip(np.searchsorted(edges[1:-1], p, side="left"), 0, n_bins - 1)
    cell = codes.astype(np.intp) * n_bins + b  # codes of any integer dtype (int8 * 20 would wrap)

    def sums(index: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
        return np.bincount(index, weights=values, minlength=size)

    count = sums(cell, w, n_folds * n_bins).reshape(n_folds, n_bins)
    sum_p = sums(cell, w * p, n_folds * n_bins).reshape(n_folds, n_bins)
    sum_y = sums(cell, w * y, n_folds * n_bins).reshape(n_folds, n_bins)
    pooled = sums(b, w, n_bins), sums(b, w * p, n_bins), sums(b, w * y, n_bins)
    with np.errstate(invalid="ignore", divide="ignore"):
        return Reliability(count, sum_p / count, sum_y / count, pooled[0], pooled[1] / pooled[0], pooled[2] / pooled[0])
