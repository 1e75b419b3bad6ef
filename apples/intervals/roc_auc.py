"""Confidence intervals for ROC AUC and the paired comparison of two AUCs on the same cases.

Introduced in notebook 10. DeLong, DeLong & Clarke-Pearson (1988) estimate the
variance of the Mann–Whitney AUC from its *structural components* (placement
values): for positive i, V10(i) is the share of negatives it outscores (ties
count 1/2), for negative j, V01(j) the share of positives that outscore it.
Sun & Xu (2014) compute them from midranks in O(n log n); here one sort of the
scores gives, per group of tied scores, the positives and negatives in it, and
the placement values follow from cumulative counts: the same numbers as Sun &
Xu's midrank differences ``(T_Z − T_X)/n`` and ``1 − (T_Z − T_Y)/m``.
"""

from __future__ import annotations

import math
from typing import Literal, NamedTuple

import numpy as np

from apples._params import (
    UndefinedMetricError,
    check_choice,
    check_positive,
    check_same_length,
    check_scores,
    check_table_size,
    rng_from_seed,
)
from apples.intervals.results import (
    ConfidenceInterval,
    PairedComparison,
    check_confidence,
    normal_quantile,
    normal_two_sided_p,
)
from apples.metrics._ranking import binary_scores

__all__ = [
    "ROC_AUC_CI_METHODS",
    "compare_roc_auc",
    "roc_auc_ci",
]

ROC_AUC_CI_METHODS: tuple[str, ...] = ("delong", "bootstrap")
#: Cells (resamples × (cases + tie groups)) drawn at once by the bootstrap: about 32 MB of int64 per block.
_BLOCK_CELLS = 2**22


class Placements(NamedTuple):
    """The tie groups of one set of scores, in increasing score order, and their placement values."""

    group: np.ndarray  #: the group (0, 1, ...) of each case, in the input order
    n_pos_g: np.ndarray  #: positives in each group
    n_neg_g: np.ndarray  #: negatives in each group
    v10: np.ndarray  #: V10 of a positive in each group: negatives below + half the negatives tied, over N
    v01: np.ndarray  #: V01 of a negative in each group: positives above + half the positives tied, over P
    auc: float  #: the Mann–Whitney AUC (ties 1/2), computed exactly in integers as apples.roc_auc does
    n_pos: int
    n_neg: int


def placements(is_positive: np.ndarray, scores: np.ndarray) -> Placements:
    """Structural components of DeLong et al. (1988) per tie group, after one sort: O(n log n).

    Scores of any real dtype are compared, never subtracted or converted (integers above 2**53 stay
    distinct). DeLong et al. (1988) eqs. (3)–(4) define V10 and V01; Sun & Xu (2014) eq. (8) obtain them
    from midranks, which is what the cumulative counts here amount to.

    Examples
    --------
    >>> p = placements(np.array([True, False, True, False]), np.array([0.9, 0.5, 0.5, 0.1]))
    >>> p.v10.tolist(), p.v01.tolist(), p.auc
    ([0.25, 0.75, 1.0], [1.0, 0.75, 0.25], 0.875)
    """
    order = np.argsort(scores, kind="stable")
    s = scores[order]
    new = np.empty(s.size, dtype=bool)
    new[:1] = True
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


def _undefined(undefined: str, message: str, confidence: float, method: str) -> ConfidenceInterval:
    if undefined == "raise":
        raise UndefinedMetricError(f"{message}; pass undefined='nan' to get NaN instead")
    nan = float("nan")
    return ConfidenceInterval(nan, nan, nan, confidence, method)


def _bootstrap_aucs(p: Placements, is_positive: np.ndarray, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
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


def roc_auc_ci(
    y_true,
    y_score,
    *,
    pos_label=1,
    confidence: float = 0.95,
    method: Literal["delong", "bootstrap"] = "delong",
    n_resamples: int = 2000,
    seed: int | np.random.Generator = 0,
    undefined: Literal["raise", "nan"] = "raise",
) -> ConfidenceInterval:
    """Confidence interval for ROC AUC: DeLong's asymptotic interval or a stratified bootstrap.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels (two classes) and scores (higher = more positive); ties count 1/2.
    pos_label : label, default 1
        The positive class.
    confidence : float, default 0.95
        Nominal coverage, strictly between 0 and 1.
    method : {"delong", "bootstrap"}, default "delong"
        ``"delong"``: AUC ± z·√V with V of DeLong et al. (1988) eq. (5), from the placement values
        computed as in Sun & Xu (2014) §2 (O(n log n)); the ends are cut to [0, 1].
        ``"bootstrap"``: the percentile interval of the AUC over ``n_resamples`` resamples drawn
        with replacement from the positives and, separately, from the negatives (stratified:
        every resample has the original class counts); Efron & Tibshirani (1993) §13.3.
    n_resamples : int, default 2000
        Bootstrap resamples (``"bootstrap"`` only).
    seed : int or numpy.random.Generator, default 0
        Seed of the resampling (``"bootstrap"`` only). Fixed by default so that the interval is
        reproducible; ``None`` is refused. Change it to see the Monte Carlo spread of the ends.
    undefined : {"raise", "nan"}, default "raise"
        With one class only the AUC is undefined, and DeLong's variance needs at least two
        positives and two negatives (sample variances): raise
        :class:`~apples.UndefinedMetricError`, or return NaN for the estimate and the ends.

    Returns
    -------
    ConfidenceInterval
        ``estimate`` is :func:`apples.roc_auc` of the data.

    References
    ----------
    DeLong, E. R., DeLong, D. M. & Clarke-Pearson, D. L. (1988). Comparing the areas under two or more
    correlated receiver operating characteristic curves: a nonparametric approach. Biometrics 44,
    837–845, eqs. (3)–(5). Sun, X. & Xu, W. (2014). Fast implementation of DeLong's algorithm for
    comparing the areas under correlated receiver operating characteristic curves. IEEE Signal
    Processing Letters 21(11), 1389–1393.

    Examples
    --------
    >>> ci = roc_auc_ci([1, 1, 0, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4])
    >>> round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4)
    (0.8889, 0.5809, 1.0)
    """
    b = binary_scores(y_true, y_score, pos_label=pos_label, require_both=False)
    confidence = check_confidence(confidence)
    check_choice("method", method, ROC_AUC_CI_METHODS)
    n_resamples = check_positive("n_resamples", n_resamples)
    if method == "bootstrap":  # the resampled AUCs and np.quantile's copy; the resamples are drawn in blocks
        check_table_size(f"the bootstrap's {n_resamples:,} resampled AUCs", 16 * n_resamples, reduce="n_resamples")
    rng = rng_from_seed(seed)
    check_choice("undefined", undefined, ("raise", "nan"))
    pos = b.is_positive
    n_pos = int(pos.sum())
    if n_pos == 0 or n_pos == pos.size:
        return _undefined(undefined, f"AUC is undefined: {b.one_class()}", confidence, method)
    p = placements(pos, b.scores)
    if method == "delong":
        if p.n_pos < 2 or p.n_neg < 2:
            return _undefined(
                undefined,
                f"DeLong's variance is undefined with {p.n_pos} positive(s) and {p.n_neg} negative(s) "
                "(each class needs two for a sample variance); method='bootstrap' is defined",
                confidence,
                method,
            )
        half = normal_quantile(confidence) * math.sqrt(delong_variance(p))
        return ConfidenceInterval(p.auc, max(p.auc - half, 0.0), min(p.auc + half, 1.0), confidence, method)
    aucs = _bootstrap_aucs(p, pos, n_resamples, rng)
    alpha = 1.0 - confidence
    low, high = np.quantile(aucs, [alpha / 2.0, 1.0 - alpha / 2.0])
    return ConfidenceInterval(p.auc, float(low), float(high), confidence, method)


def compare_roc_auc(
    y_true,
    y_score_a,
    y_score_b,
    *,
    pos_label=1,
    confidence: float = 0.95,
    undefined: Literal["raise", "nan"] = "raise",
) -> PairedComparison:
    """DeLong's paired test of two AUCs measured on the same cases: difference, interval, p-value.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels (two classes).
    y_score_a, y_score_b : array-like of shape (n,)
        The scores of classifiers A and B on the same cases, in the same order.
    pos_label : label, default 1
        The positive class.
    confidence : float, default 0.95
        Nominal coverage of the interval of the difference.
    undefined : {"raise", "nan"}, default "raise"
        The test needs two positives and two negatives, and a difference whose standard error is
        not 0 (it is 0 when, e.g., both classifiers rank every case alike): raise
        :class:`~apples.UndefinedMetricError` or return NaN for the statistic and p-value (and for
        everything when a class has fewer than two cases).

    Returns
    -------
    PairedComparison
        ``estimate = AUC_A − AUC_B``; ``statistic`` is ``z = estimate / SE``; ``p_value`` is
        two-sided, ``2(1 − Φ(|z|))``; the interval is ``estimate ± z_{1−α/2}·SE``.

    References
    ----------
    DeLong, DeLong & Clarke-Pearson (1988), eq. (5) for the covariance matrix S = S10/m + S01/n of the
    AUCs and the contrast L = (1, −1) of their §3; Sun & Xu (2014) eq. (9) for its computation.

    Examples
    --------
    >>> y = [1, 1, 0, 1, 0, 0, 1, 0]
    >>> c = compare_roc_auc(y, [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2], [0.1, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.9])
    >>> round(c.estimate, 4), round(c.p_value, 4)
    (0.4375, 0.099)
    """
    a = binary_scores(y_true, y_score_a, pos_label=pos_label, require_both=False, name_score="y_score_a")
    s_b = check_scores("y_score_b", y_score_b)
    check_same_length(y_score_a=a.scores, y_score_b=s_b)
    confidence = check_confidence(confidence)
    check_choice("undefined", undefined, ("raise", "nan"))
    pos = a.is_positive
    n_pos = int(pos.sum())
    n_neg = pos.size - n_pos
    nan = float("nan")
    if n_pos < 2 or n_neg < 2:
        if undefined == "raise":
            what = a.one_class() if n_pos in (0, pos.size) else f"{n_pos} positive(s) and {n_neg} negative(s)"
            raise UndefinedMetricError(
                f"DeLong's test is undefined: {what} (each class needs two cases); "
                "pass undefined='nan' to get NaN instead"
            )
        return PairedComparison(nan, nan, nan, confidence, "delong", nan, nan)
    pa, pb = placements(pos, a.scores), placements(pos, s_b)
    # structural components per case, both classifiers: the covariance of eq. (5) needs them paired
    d10 = pa.v10[pa.group[pos]] - pb.v10[pb.group[pos]]
    d01 = pa.v01[pa.group[~pos]] - pb.v01[pb.group[~pos]]
    diff = pa.auc - pb.auc
    # Var(AUC_A − AUC_B) = L S L' = var(V10_A − V10_B)/m + var(V01_A − V01_B)/n
    var = float(np.var(d10, ddof=1)) / n_pos + float(np.var(d01, ddof=1)) / n_neg
    if not var > 0.0:
        if undefined == "raise":
            raise UndefinedMetricError(
                "DeLong's test is undefined: the standard error of AUC_A − AUC_B is 0 (the two "
                "classifiers' placement values differ by a constant); pass undefined='nan' to get NaN"
            )
        return PairedComparison(diff, nan, nan, confidence, "delong", nan, nan)
    se = math.sqrt(var)
    z = diff / se
    half = normal_quantile(confidence) * se
    p_value = normal_two_sided_p(z)
    return PairedComparison(diff, diff - half, diff + half, confidence, "delong", float(z), p_value)
