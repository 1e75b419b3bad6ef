"""Empirical misclassification losses of one set of scores with ties (Parker 2011 §III; Hand 2009).

Counts come as :class:`~apples._kernels.ranking.CumulativeCounts` (thresholds decreasing, both
classes present). c is the share of the cost that falls on a missed positive (Parker's convention).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from apples._kernels.ranking import CumulativeCounts

__all__ = [
    "Atoms",
    "HandTerms",
    "atoms",
    "hand_loss",
    "loss_table",
    "rates_at_atoms",
    "uniform_threshold_draws",
    "uniform_threshold_loss",
]


class Atoms(NamedTuple):
    """The distinct scores (decreasing) with their positives and negatives, and those strictly above."""

    dp: np.ndarray  #: positives at each score
    dn: np.ndarray  #: negatives at each score
    above_p: np.ndarray  #: positives strictly above
    above_n: np.ndarray  #: negatives strictly above
    n_pos: int
    n_neg: int


def atoms(c: CumulativeCounts) -> Atoms:
    """The atoms of the empirical score distributions."""
    o = c.with_origin()
    return Atoms(np.diff(o.tp), np.diff(o.fp), o.tp[:-1], o.fp[:-1], c.n_pos, c.n_neg)


def rates_at_atoms(a: Atoms, share: float) -> tuple[np.ndarray, np.ndarray]:
    """FNR and FPR at each atom when a ``share`` of the cases tied at it is predicted negative."""
    # missed positives at t: those below t plus the tied ones predicted negative
    below_p = a.n_pos - a.above_p - a.dp
    fnr = (below_p + share * a.dp) / a.n_pos
    fpr = (a.above_n + (1 - share) * a.dn) / a.n_neg
    return fnr, fpr


class HandTerms(NamedTuple):
    """L_G and its two terms (Parker §III-B)."""

    loss: float
    missed: float
    false_alarm: float
    pi_pos: float
    pi_neg: float


def hand_loss(c: CumulativeCounts, share: float) -> HandTerms:
    """Hand's L_G for empirical scores, ``share`` of the tied cases at an atom predicted negative.

    ``L_G = π_0π_1 [Σ_t P_1(t)(1 − F_0(t)) + Σ_t P_0(t) F_1(t)]``, a finite sum over the distinct scores.
    """
    a = atoms(c)
    fnr, fpr = rates_at_atoms(a, share)
    missed = float(np.sum(a.dn * fnr) / a.n_neg)
    false_alarm = float(np.sum(a.dp * fpr) / a.n_pos)
    n = a.n_pos + a.n_neg
    p0, p1 = a.n_pos / n, a.n_neg / n
    return HandTerms(p0 * p1 * (missed + false_alarm), missed, false_alarm, p0, p1)


def loss_table(c: CumulativeCounts, cost: np.ndarray, scale: float) -> np.ndarray:
    """Q(t; b, c) (Parker eq. 4) at +inf and every threshold: shape ``(n_thresholds + 1,) + cost.shape``."""
    o = c.with_origin()
    n = c.n_pos + c.n_neg
    fnr = ((c.n_pos - o.tp) / n).reshape((-1,) + (1,) * cost.ndim)  # π_0 (1 - TPR)
    fpr = (o.fp / n).reshape((-1,) + (1,) * cost.ndim)  # π_1 FPR
    result: np.ndarray = scale * (cost * fnr + (1 - cost) * fpr)
    return result


def uniform_threshold_loss(c: CumulativeCounts, scale: float) -> float:
    """Flach et al.'s L_c^t: the threshold a case's score drawn uniformly, ties split by the midpoint rule."""
    a = atoms(c)
    n = a.n_pos + a.n_neg
    p0, p1 = a.n_pos / n, a.n_neg / n
    fnr, fpr = rates_at_atoms(a, 0.5)
    w = (a.dp + a.dn) / n
    return float(scale * 0.5 * np.sum(w * (p0 * fnr + p1 * fpr)))


def uniform_threshold_draws(
    positive: np.ndarray, scores: np.ndarray, n_draws: int, rng: np.random.Generator, scale: float
) -> np.ndarray:
    """Monte Carlo draws of Flach et al.'s loss: a case's score as threshold, c ~ U(0, 1), ties by a fair coin."""
    n = scores.size
    out = np.empty(n_draws)
    chunk = max(1, 2_000_000 // n)  # bound the (draws x cases) matrices
    for start in range(0, n_draws, chunk):
        k = min(chunk, n_draws - start)
        thr = scores[rng.integers(0, n, k)][:, None]
        c = rng.random(k)
        pred = (scores[None, :] > thr) | ((scores[None, :] == thr) & (rng.random((k, n)) < 0.5))
        fn = (positive[None, :] & ~pred).sum(1) / n
        fp = (~positive[None, :] & pred).sum(1) / n
        out[start : start + k] = scale * (c * fn + (1 - c) * fp)
    return out
