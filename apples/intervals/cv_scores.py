"""Intervals and paired tests over the per-fold scores of a (repeated) cross-validation, and McNemar's test.

Introduced in notebook 11. The k scores of k-fold cross-validation are not
independent: every two training sets share (k − 2)/(k − 1) of their cases, so
the naive t interval, which divides the spread of the fold scores by √k,
is too narrow. Nadeau & Bengio (2003) correct the variance of the mean by
the factor ``1/J + n_test/n_train`` instead of ``1/J`` (J scores in all, one per
fold and repetition); Bouckaert & Frank (2004) apply it to repeated
cross-validation. McNemar's test compares two classifiers' predictions on the
same cases, pooled over the folds.
"""

from __future__ import annotations

import math
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from apples._kernels.intervals import fold_t_interval, normal_quantile, t_two_sided_p
from apples._params import (
    CASES,
    CONFIDENCE,
    LABELS,
    Kind,
    OneLabelKind,
    Options,
    ParameterValueError,
    Policy,
    SameLength,
    Undefined,
    UndefinedMetricError,
    check_real_array,
    declare,
)
from apples.intervals.results import ConfidenceInterval, PairedComparison

__all__ = [
    "CV_SCORE_CI_METHODS",
    "compare_cv_scores",
    "cv_score_ci",
    "mcnemar_test",
]

CV_SCORE_CI_METHODS: tuple[str, ...] = ("corrected_t", "t")


class _FoldScores(Kind):
    what = "per-fold scores of shape (k,) or (r, k), at least two, all finite"

    def check(self, name: str, value: object) -> np.ndarray:
        scores = check_real_array(name, value, finite=True)
        if scores.ndim not in (1, 2):
            raise ValueError(
                f"{name} must have shape (k,) (one score per fold) or (r, k) (per repetition and fold), "
                f"got shape {scores.shape}"
            )
        if scores.size < 2:
            raise ValueError(
                f"{name} must hold at least two fold scores (a t interval needs a sample variance), got {scores.size}"
            )
        return scores


#: The kind of per-fold scores (one per fold, or per repetition and fold).
FOLD_SCORES = _FoldScores()


@declare(
    fold_scores=FOLD_SCORES,
    n_train=CASES,
    n_test=CASES,
    confidence=CONFIDENCE,
    method=Options(*CV_SCORE_CI_METHODS),
)
def cv_score_ci(
    fold_scores: ArrayLike,
    *,
    n_train: int,
    n_test: int,
    confidence: float = 0.95,
    method: Literal["corrected_t", "t"] = "corrected_t",
) -> ConfidenceInterval:
    """Confidence interval of the mean of per-fold scores: the naive t or Nadeau & Bengio's corrected t.

    With J fold scores (k for one k-fold cross-validation, r·k for r repetitions), mean μ̂ and sample
    variance σ̂², the interval is ``μ̂ ± t_{J−1, 1−α/2} · √(c · σ̂²)`` with ``c = 1/J`` for the naive
    t and ``c = 1/J + n_test/n_train`` for the corrected resampled t.

    Parameters
    ----------
    fold_scores : array-like of shape (k,) or (r, k)
        One score per test fold (and repetition): accuracy, F, AUC, ...
    n_train, n_test : int
        Cases in each training set and each test fold (for k-fold CV on n cases,
        ``n − n/k`` and ``n/k``). Only ``"corrected_t"`` uses them, but they are required so
        that switching the method never changes what the call needs.
    confidence : float, default 0.95
        Nominal coverage, strictly between 0 and 1.
    method : {"corrected_t", "t"}, default "corrected_t"
        ``"t"`` treats the fold scores as independent, which they are not (the training sets
        overlap): its interval is too narrow. ``"corrected_t"`` is Nadeau & Bengio's correction.

    Returns
    -------
    ConfidenceInterval
        ``estimate`` is the mean fold score.

    References
    ----------
    Nadeau, C. & Bengio, Y. (2003). Inference for the generalization error. Machine Learning 52,
    239–281, §4 (the corrected resampled t-test: variance ``(1/J + n₂/n₁) σ̂²``, J − 1 degrees of
    freedom). Bouckaert, R. R. & Frank, E. (2004). Evaluating the replicability of significance tests
    for comparing learning algorithms. PAKDD, LNCS 3056, §3 (repeated k-fold, J = r·k).

    Examples
    --------
    >>> from apples import cv_score_ci
    >>> ci = cv_score_ci([0.8, 0.7, 0.9, 0.75, 0.85], n_train=400, n_test=100)
    >>> round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4)
    (0.8, 0.6528, 0.9472)
    """
    scores = np.asarray(fold_scores).ravel()
    mean, low, high = fold_t_interval(
        scores, confidence, n_train=n_train, n_test=n_test, corrected=method == "corrected_t"
    )
    return ConfidenceInterval(mean, low, high, confidence, method)


@declare(
    scores_a=FOLD_SCORES,
    scores_b=FOLD_SCORES,
    n_train=CASES,
    n_test=CASES,
    confidence=CONFIDENCE,
    method=Options(*CV_SCORE_CI_METHODS),
    undefined=Undefined("raise", "nan"),
)
def compare_cv_scores(
    scores_a: ArrayLike,
    scores_b: ArrayLike,
    *,
    n_train: int,
    n_test: int,
    confidence: float = 0.95,
    method: Literal["corrected_t", "t"] = "corrected_t",
    undefined: Policy = "raise",
) -> PairedComparison:
    """Paired t test of two classifiers' per-fold scores on the same folds, naive or corrected.

    The differences ``d_j = a_j − b_j`` of fold j (and repetition) give
    ``t = d̄ / √(c · σ̂_d²)`` with J − 1 degrees of freedom, ``c`` as in :func:`cv_score_ci`.

    Parameters
    ----------
    scores_a, scores_b : array-like of shape (k,) or (r, k)
        The two classifiers' scores on the same folds, in the same order; both of one shape (a
        difference is taken per fold and repetition).
    n_train, n_test : int
        Cases per training set and per test fold.
    confidence : float, default 0.95
        Nominal coverage of the interval of the mean difference.
    method : {"corrected_t", "t"}, default "corrected_t"
        Nadeau & Bengio's corrected resampled t, or the naive paired t (too many false "significant").
    undefined : {"raise", "nan"}, default "raise"
        When every difference is the same, σ̂_d = 0 and t is undefined: raise
        :class:`~apples.UndefinedMetricError`, or return NaN for the statistic and the p-value (the
        interval is then the single point d̄).

    Returns
    -------
    PairedComparison
        ``estimate = mean(a − b)``, the interval, ``statistic = t`` and the two-sided p-value.

    References
    ----------
    Nadeau & Bengio (2003) §4, the corrected resampled t statistic; Bouckaert & Frank (2004) §3.

    Examples
    --------
    >>> from apples import compare_cv_scores
    >>> c = compare_cv_scores([0.8, 0.7, 0.9, 0.75, 0.85], [0.75, 0.7, 0.8, 0.7, 0.8], n_train=400, n_test=100)
    >>> round(c.estimate, 4), round(c.statistic, 4), round(c.p_value, 4)
    (0.05, 2.1082, 0.1027)
    """
    a, b = np.asarray(scores_a), np.asarray(scores_b)
    if a.shape != b.shape:  # (2, 5) against (5, 2) would pair fold 2 of repeat 1 with fold 1 of repeat 2
        raise ParameterValueError(
            f"scores_a has shape {a.shape} but scores_b has shape {b.shape}: the scores are paired by (repetition, "
            "fold), so both need the same shape, (k,) or (r, k)",
            param="scores_b",
        )
    d = a.ravel() - b.ravel()
    mean, low, high = fold_t_interval(d, confidence, n_train=n_train, n_test=n_test, corrected=method == "corrected_t")
    factor = 1.0 / d.size + (n_test / n_train if method == "corrected_t" else 0.0)
    se = math.sqrt(factor * float(np.var(d, ddof=1)))
    if se == 0.0:
        if undefined == "raise":
            raise UndefinedMetricError(
                "the paired t statistic is undefined: every fold difference scores_a − scores_b is the same "
                f"({mean!r}), so its standard error is 0; pass undefined='nan' to get NaN"
            )
        nan = float("nan")
        return PairedComparison(mean, mean, mean, confidence, method, nan, nan)
    t = mean / se
    p_value = t_two_sided_p(t, d.size - 1)
    return PairedComparison(mean, low, high, confidence, method, t, p_value)


@declare(
    y_true=LABELS,
    y_pred_a=LABELS,
    y_pred_b=LABELS,
    confidence=CONFIDENCE,
    relations=[SameLength("y_true", "y_pred_a", "y_pred_b"), OneLabelKind("y_true", "y_pred_a", "y_pred_b")],
)
def mcnemar_test(
    y_true: ArrayLike, y_pred_a: ArrayLike, y_pred_b: ArrayLike, *, confidence: float = 0.95
) -> PairedComparison:
    """McNemar's test (mid-p) of two classifiers' pooled predictions on the same cases.

    Only the discordant cases count: ``n01`` where A is right and B wrong, ``n10`` the reverse.
    Under "equal accuracy" ``n01 ~ Bin(n01 + n10, 1/2)``; the mid-p value is
    ``2·[P(X ≤ x) − P(X = x)/2]`` with ``x = min(n01, n10)`` (at most 1), which keeps the exact
    test's validity without most of its conservatism (Fagerland, Lydersen & Laake 2013).

    Parameters
    ----------
    y_true, y_pred_a, y_pred_b : array-like of shape (n,)
        True labels and the two classifiers' predictions (any number of classes), pooled over the
        test folds of one cross-validation: every case once.
    confidence : float, default 0.95
        Nominal coverage of the interval of the accuracy difference.

    Returns
    -------
    PairedComparison
        ``estimate = accuracy_A − accuracy_B = (n01 − n10)/n``; the interval is the Wald interval
        for paired proportions, ``estimate ± z·√(n01 + n10 − (n01 − n10)²/n)/n`` (Agresti 2013,
        §11.1.2; too narrow with few discordant cases); ``statistic = min(n01, n10)``;
        ``p_value`` the mid-p value; ``method = "mcnemar_mid_p"``.

    References
    ----------
    McNemar, Q. (1947). Psychometrika 12, 153–157. Fagerland, M. W., Lydersen, S. & Laake, P. (2013).
    The McNemar test for binary matched-pairs data: mid-p and asymptotic are better than exact
    conditional. BMC Medical Research Methodology 13:91, eq. (3) (mid-p). Agresti, A. (2013).
    Categorical Data Analysis, 3rd ed., §11.1.2. Dietterich (1998) for its use on classifiers.

    Examples
    --------
    >>> from apples.intervals import mcnemar_test
    >>> y = [1, 0, 1, 1, 0, 0, 1, 0, 1, 1]
    >>> c = mcnemar_test(y, [1, 0, 1, 1, 0, 0, 1, 0, 0, 0], [0, 1, 0, 1, 0, 0, 1, 0, 0, 0])
    >>> c.estimate, c.statistic, c.p_value
    (0.3, 0.0, 0.125)
    """
    t, a, b = np.asarray(y_true), np.asarray(y_pred_a), np.asarray(y_pred_b)
    if t.size == 0:
        raise ParameterValueError("y_true is empty; McNemar's test needs cases", param="y_true")
    right_a, right_b = a == t, b == t
    n01 = int(np.count_nonzero(right_a & ~right_b))
    n10 = int(np.count_nonzero(~right_a & right_b))
    n = t.size
    x, n_d = min(n01, n10), n01 + n10
    mid_p = min(1.0, 2.0 * (float(stats.binom.cdf(x, n_d, 0.5)) - 0.5 * float(stats.binom.pmf(x, n_d, 0.5))))
    estimate = (n01 - n10) / n
    half = normal_quantile(confidence) * math.sqrt(max(n_d - (n01 - n10) ** 2 / n, 0.0)) / n
    return PairedComparison(estimate, estimate - half, estimate + half, confidence, "mcnemar_mid_p", float(x), mid_p)
