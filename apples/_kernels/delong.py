"""DeLong's structural components of the AUC from one sort, and the stratified bootstrap of the AUC.

DeLong, DeLong & Clarke-Pearson (1988) estimate the variance of the Mann–Whitney AUC from its
*structural components* (placement values): for positive i, V10(i) is the share of negatives it
outscores (ties count 1/2); for negative j, V01(j) the share of positives that outscore it. Sun &
Xu (2014) compute them from midranks in O(n log n); here one sort of the scores gives, per group
of tied scores, the positives and negatives in it, and the placement values follow from cumulative
counts: the same numbers as Sun & Xu's midrank differences.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = [
    "Placements",
    "bootstrap_aucs",
    "delong_variance",
    "placements",
]

#: Cells (resamples × (cases + tie groups)) drawn at once by the bootstrap: about 32 MB of int64 per block.
_BLOCK_CELLS = 2**22


class Placements(NamedTuple):
    """The tie groups of one set of scores, in increasing score order, and their placement values."""

    group: np.ndarray  #: the group (0, 1, ...) of each case, in the input order
    n_pos_g: np.ndarray  #: positives in each group
    n_neg_g: np.ndarray  #: negatives in each group
    v10: np.ndarray  #: V10 of a positive in each group: negatives below + half the negatives tied, over N
    v01: np.ndarray  #: V01 of a negative in each group: positives above + half the positives tied, over P
    auc: float  #: the Mann–Whitney AUC (ties 1/2), exact in integers; NaN with one class
    n_pos: int
    n_neg: int


def placements(is_positive: np.ndarray, scores: np.ndarray) -> Placements:
    """The placement values of every tie group, from one stable sort of the scores.

    >>> p = placements(np.array([True, False, True, False]), np.array([0.9, 0.5, 0.5, 0.1]))
    >>> p.auc, p.v10.tolist(), p.v01.tolist()
    (0.875, [0.25, 0.75, 1.0], [1.0, 0.75, 0.25])
    """
    order = np.argsort(scores, kind="stable")
    s = scores[order]
    new = np.empty(s.size, dtype=bool)
    if s.size:
        new[0] = True
        np.not_equal(s[1:], s[:-1], out=new[1:])
    group_sorted = np.cumsum(new) - 1
    n_groups = int(group_sorted[-1]) + 1 if s.size else 0
    pos_sorted = is_positive[order]
    n_pos_g = np.bincount(group_sorted[pos_sorted], minlength=n_groups)
    n_neg_g = np.bincount(group_sorted[~pos_sorted], minlength=n_groups)
    n_pos, n_neg = int(n_pos_g.sum()), int(n_neg_g.sum())
    neg_below = np.cumsum(n_neg_g) - n_neg_g
    pos_above = n_pos - np.cumsum(n_pos_g)
    two_u = int(np.dot(n_pos_g, 2 * neg_below + n_neg_g))  # 2U, exact in integers
    with np.errstate(divide="ignore", invalid="ignore"):  # a class may be absent; callers check
        v10 = (neg_below + 0.5 * n_neg_g) / n_neg
        v01 = (pos_above + 0.5 * n_pos_g) / n_pos
    group = np.empty(s.size, dtype=np.int64)
    group[order] = group_sorted
    auc = two_u / (2.0 * n_pos * n_neg) if n_pos and n_neg else float("nan")
    return Placements(group, n_pos_g, n_neg_g, v10, v01, auc, n_pos, n_neg)


def delong_variance(p: Placements) -> float:
    """DeLong et al. (1988) eq. (5) for one AUC: ``S10/P + S01/N`` (sample variances of the placements).

    Needs at least two positives and two negatives.
    """
    s10 = float(np.dot(p.n_pos_g, (p.v10 - p.auc) ** 2)) / (p.n_pos - 1)
    s01 = float(np.dot(p.n_neg_g, (p.v01 - p.auc) ** 2)) / (p.n_neg - 1)
    return s10 / p.n_pos + s01 / p.n_neg


def bootstrap_aucs(p: Placements, is_positive: np.ndarray, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """AUC of ``n_resamples`` stratified resamples (positives from positives, negatives from negatives).

    A resample only changes how many copies of each case there are, so its AUC follows from the copies
    per tie group and the same cumulative sums: O(n) per resample, no sort. Resamples are drawn in
    blocks (one ``integers`` call per class and block), in order, so the result depends only on ``rng``.
    """
    g_pos = p.group[is_positive]
    g_neg = p.group[~is_positive]
    n_groups = p.n_pos_g.size
    out = np.empty(n_resamples)
    denominator = 2.0 * p.n_pos * p.n_neg
    block = max(1, _BLOCK_CELLS // (p.n_pos + p.n_neg + n_groups))
    for start in range(0, n_resamples, block):
        r = min(block, n_resamples - start)
        offset = (np.arange(r) * n_groups)[:, None]
        w_pos = np.bincount((g_pos[rng.integers(0, p.n_pos, (r, p.n_pos))] + offset).ravel(), minlength=r * n_groups)
        w_neg = np.bincount((g_neg[rng.integers(0, p.n_neg, (r, p.n_neg))] + offset).ravel(), minlength=r * n_groups)
        w_pos = w_pos.reshape(r, n_groups)
        w_neg = w_neg.reshape(r, n_groups)
        neg_below = np.cumsum(w_neg, axis=1) - w_neg
        out[start : start + r] = np.einsum("ij,ij->i", w_pos, 2 * neg_below + w_neg) / denominator
    return out
