"""Confidence intervals for ROC AUC and the paired comparison of two AUCs on the same cases.

Introduced in notebook 11. DeLong, DeLong & Clarke-Pearson (1988) estimate the
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
from collections.abc import Hashable
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from apples._kernels.delong import bootstrap_aucs, delong_variance, placements
from apples._kernels.intervals import normal_quantile, normal_two_sided_p
from apples._params import (
    CONFIDENCE,
    LABEL,
    LABELS,
    SCORES,
    SEED,
    BinaryLabels,
    Options,
    ParameterValueError,
    Policy,
    SameLength,
    Size,
    Undefined,
    UndefinedMetricError,
    declare,
)
from apples.intervals._resamples import EnoughResamples
from apples.intervals.results import ConfidenceInterval, PairedComparison

__all__ = [
    "ROC_AUC_CI_METHODS",
    "compare_roc_auc",
    "roc_auc_ci",
]

ROC_AUC_CI_METHODS: tuple[str, ...] = ("delong", "bootstrap")


def _one_class(y_true: np.ndarray, pos_label: object, positive: np.ndarray) -> str:
    """Why y_true has one class only, naming the positive label and the labels found."""
    found = np.unique(y_true).tolist()
    if not positive.any():
        return (
            f"y_true has only one class (no positives: pos_label={pos_label!r} is not among the labels found, {found})"
        )
    return f"y_true has only one class (no negatives: every label is pos_label={pos_label!r})"


def _undefined(undefined: str, message: str, confidence: float, method: str) -> ConfidenceInterval:
    if undefined == "raise":
        raise UndefinedMetricError(f"{message}; pass undefined='nan' to get NaN instead")
    nan = float("nan")
    return ConfidenceInterval(nan, nan, nan, confidence, method)


@declare(
    y_true=LABELS,
    y_score=SCORES,
    pos_label=LABEL,
    confidence=CONFIDENCE,
    method=Options(*ROC_AUC_CI_METHODS),
    n_resamples=Size(bytes_each=16, table="the bootstrap's resampled AUCs"),  # AUCs and their quantile copy
    seed=SEED,
    undefined=Undefined("raise", "nan"),
    relations=[
        SameLength("y_true", "y_score"),
        BinaryLabels("pos_label", "y_true"),
        EnoughResamples(method=True),
    ],
)
def roc_auc_ci(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Hashable = 1,
    confidence: float = 0.95,
    method: Literal["delong", "bootstrap"] = "delong",
    n_resamples: int = 2000,
    seed: int | np.random.Generator = 0,
    undefined: Policy = "raise",
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
        Bootstrap resamples (``"bootstrap"`` only). Refused below 1/(1 − ``confidence``) (20 at 0.95:
        fewer leave no resample outside the interval, whose ends are then the resamples' extremes),
        warned about below 1,000 (percentile ends from fewer are coarse and move with the seed;
        Efron & Tibshirani 1993 §13.3).
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
    >>> from apples import roc_auc_ci
    >>> ci = roc_auc_ci([1, 1, 0, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4])
    >>> round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4)
    (0.8889, 0.5809, 1.0)
    """
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    if y_true.size == 0:
        raise ParameterValueError("y_true is empty", param="y_true")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    pos = y_true == pos_label
    n_pos = int(pos.sum())
    if n_pos == 0 or n_pos == pos.size:
        return _undefined(undefined, f"AUC is undefined: {_one_class(y_true, pos_label, pos)}", confidence, method)
    p = placements(pos, np.asarray(y_score))
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
    aucs = bootstrap_aucs(p, pos, n_resamples, rng)
    alpha = 1.0 - confidence
    low, high = np.quantile(aucs, [alpha / 2.0, 1.0 - alpha / 2.0])
    return ConfidenceInterval(p.auc, float(low), float(high), confidence, method)


@declare(
    y_true=LABELS,
    y_score_a=SCORES,
    y_score_b=SCORES,
    pos_label=LABEL,
    confidence=CONFIDENCE,
    undefined=Undefined("raise", "nan"),
    relations=[SameLength("y_true", "y_score_a", "y_score_b"), BinaryLabels("pos_label", "y_true")],
)
def compare_roc_auc(
    y_true: ArrayLike,
    y_score_a: ArrayLike,
    y_score_b: ArrayLike,
    *,
    pos_label: Hashable = 1,
    confidence: float = 0.95,
    undefined: Policy = "raise",
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
    >>> from apples import compare_roc_auc
    >>> y = [1, 1, 0, 1, 0, 0, 1, 0]
    >>> c = compare_roc_auc(y, [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2], [0.1, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.9])
    >>> round(c.estimate, 4), round(c.p_value, 4)
    (0.4375, 0.099)
    """
    y_true = np.asarray(y_true)
    if y_true.size == 0:
        raise ParameterValueError("y_true is empty", param="y_true")
    pos = y_true == pos_label
    n_pos = int(pos.sum())
    n_neg = pos.size - n_pos
    nan = float("nan")
    if n_pos < 2 or n_neg < 2:
        if undefined == "raise":
            what = (
                _one_class(y_true, pos_label, pos)
                if n_pos in (0, pos.size)
                else f"{n_pos} positive(s) and {n_neg} negative(s)"
            )
            raise UndefinedMetricError(
                f"DeLong's test is undefined: {what} (each class needs two cases); "
                "pass undefined='nan' to get NaN instead"
            )
        return PairedComparison(nan, nan, nan, confidence, "delong", nan, nan)
    pa, pb = placements(pos, np.asarray(y_score_a)), placements(pos, np.asarray(y_score_b))
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
