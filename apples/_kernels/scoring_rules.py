"""Proper scoring rules of probabilistic predictions: log loss and the Brier score, per fold and pooled.

For both, a fold's value is the (weighted) mean of a per-case loss, so the pooled value over all cases is the
mean of the fold values weighted by the folds' (weighted) sizes: pooling and averaging by fold size agree, unlike
F or AUC (Forman & Scholz 2010 §2-§3). Unchecked: ``y`` is 0/1, ``p`` the positive class's probability in [0, 1].
A probability of 0 for a positive case (or 1 for a negative) has an infinite log loss: it stays inf, never clipped.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["FoldScoringRules", "case_brier", "case_log_loss", "fold_scoring_rules"]


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


def _ordered_sum(values: np.ndarray) -> float:
    """The sum of a few fold totals, one after another."""
    total = 0.0
    for v in values.tolist():
        total += v
    return total
