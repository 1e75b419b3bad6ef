"""Comparing models: the corrected t over folds, pooled ratios per fold, Holm, ranks over data sets, Bayes.

Arrays in, arrays out, no checks. :mod:`apples.comparison` calls these. A 0/0 (a t statistic of
zero-variance differences, a Friedman statistic of data sets where every model ties) comes back as NaN.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from scipy import special, stats

from apples._kernels.intervals import fold_t_interval, t_two_sided_p

__all__ = [
    "CorrelatedT",
    "PairedT",
    "TPosterior",
    "average_ranks",
    "corrected_t_test",
    "correlated_t_posterior",
    "correlated_t_probabilities",
    "critical_difference",
    "design_rho",
    "friedman_min_p",
    "holm_adjust",
    "iman_davenport",
    "nemenyi_min_p",
    "nemenyi_p_values",
    "posterior_probabilities",
    "posterior_winners",
    "ratio_pseudo_values",
    "signed_rank_masses",
    "signed_rank_posterior",
    "wilcoxon_min_p",
]


class PairedT(NamedTuple):
    """Mean difference, interval, t, degrees of freedom and two-sided p of the (corrected) paired t."""

    mean: float
    low: float
    high: float
    statistic: float
    df: int
    p_value: float


def corrected_t_test(d: np.ndarray, confidence: float, *, n_train: float, n_test: float) -> PairedT:
    """The corrected resampled t of J paired differences (Nadeau & Bengio 2003 §4; Bouckaert & Frank 2004 §3).

    ``t = d̄ / √((1/J + n_test/n_train)·σ̂²)``, J − 1 degrees of freedom; the same interval as
    :func:`~apples._kernels.intervals.fold_t_interval`. Zero variance: t and p are NaN (0/0) and the
    interval is the point d̄. A NaN difference gives NaN everywhere.

    >>> r = corrected_t_test(np.array([0.05, 0.0, 0.1, 0.05, 0.05]), 0.95, n_train=400, n_test=100)
    >>> round(r.statistic, 4), round(r.p_value, 4), r.df
    (2.1082, 0.1027, 4)
    """
    j = int(d.size)
    nan = float("nan")
    if np.isnan(d).any():
        return PairedT(nan, nan, nan, nan, j - 1, nan)
    mean, low, high = fold_t_interval(d, confidence, n_train=n_train, n_test=n_test, corrected=True)
    var = float(np.var(d, ddof=1))
    if var == 0.0:
        return PairedT(mean, mean, mean, nan, j - 1, nan)
    t = mean / math.sqrt((1.0 / j + n_test / n_train) * var)
    return PairedT(mean, low, high, t, j - 1, t_two_sided_p(t, j - 1))


def ratio_pseudo_values(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """Each fold's linearised contribution to a pooled ratio ``R = Σ num / Σ den`` (folds on the last axis).

    ``u_f = R + (num_f − R·den_f) / mean(den)``: the mean of the u_f is R exactly, and their sample
    variance over k is the delta-method variance of the ratio of sums (Cochran 1977, *Sampling
    Techniques*, §6.3). NaN where ``Σ den = 0`` (R is 0/0).

    >>> ratio_pseudo_values(np.array([[3.0, 1.0]]), np.array([[4.0, 4.0]])).tolist()
    [[0.75, 0.25]]
    """
    num = np.asarray(num, dtype=float)
    den = np.asarray(den, dtype=float)
    total = den.sum(axis=-1, keepdims=True)
    safe = np.where(total == 0.0, 1.0, total)
    r = np.where(total == 0.0, np.nan, num.sum(axis=-1, keepdims=True) / safe)
    mean_den = safe / den.shape[-1]
    return r + (num - r * den) / mean_den


def holm_adjust(p: np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values (Holm 1979), NaN kept out of the family and left NaN.

    ``p̃_(i) = max_{j ≤ i} min(1, (m − j + 1)·p_(j))`` over the m finite p-values in increasing order.

    >>> holm_adjust(np.array([0.01, 0.04, 0.03])).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(p, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    m = ok.size
    if m == 0:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    scaled = np.minimum(1.0, (m - np.arange(m)) * p[order])
    out[order] = np.maximum.accumulate(scaled)
    return out


def average_ranks(table: np.ndarray, greater_is_better: bool = True) -> np.ndarray:
    """Each model's mean rank over the data sets, models on axis 0 (rank 1 = best, ties share the mean rank).

    Demšar (2006) §3.2.2: ``R_j = (1/N) Σ_i r_i^j``.

    >>> average_ranks(np.array([[0.9, 0.8], [0.7, 0.8], [0.5, 0.6]])).tolist()
    [1.25, 1.75, 3.0]
    """
    values = np.asarray(table, dtype=float)
    ranks = stats.rankdata(-values if greater_is_better else values, axis=0)
    return np.asarray(ranks.mean(axis=1), dtype=float)


def iman_davenport(chi2: float, k: int, n: int) -> tuple[float, int, int, float]:
    """Iman & Davenport's F from Friedman's χ², its degrees of freedom and p-value (Demšar 2006, eq. after (2)).

    ``F_F = (N − 1)·χ²_F / (N(k − 1) − χ²_F)`` with ``k − 1`` and ``(k − 1)(N − 1)`` degrees of freedom;
    ``χ²_F = N(k − 1)`` (every data set ranks the models alike) gives ``F = inf``, p = 0.

    >>> round(iman_davenport(9.28, 4, 14)[0], 2)  # Demšar §3.2.2: F_F = 3.69
    3.69
    """
    df1, df2 = k - 1, (k - 1) * (n - 1)
    den = n * (k - 1) - chi2
    if np.isnan(chi2):
        return float("nan"), df1, df2, float("nan")
    if den <= 0.0:
        return float("inf"), df1, df2, 0.0
    f = (n - 1) * chi2 / den
    return float(f), df1, df2, float(special.fdtrc(df1, df2, f))


def critical_difference(k: int, n: int, alpha: float) -> tuple[float, float]:
    """Nemenyi's ``q_α`` and critical difference ``CD = q_α √(k(k + 1)/(6N))`` (Demšar 2006, eq. 5).

    ``q_α`` is the studentized range quantile of k means with infinite degrees of freedom, divided by √2
    (Demšar's Table 5(a) lists these).

    >>> [round(v, 3) for v in critical_difference(4, 14, 0.05)]
    [2.569, 1.254]
    """
    q = float(stats.studentized_range.ppf(1.0 - alpha, k, np.inf)) / math.sqrt(2.0)
    return q, q * math.sqrt(k * (k + 1) / (6.0 * n))


def nemenyi_p_values(ranks: np.ndarray, n: int) -> np.ndarray:
    """Pairwise p-values of the Nemenyi test from average ranks over n data sets (Demšar 2006 §3.2.2).

    ``z = |R_i − R_j| / √(k(k + 1)/(6N))``; ``p = P(Q_{k,∞} ≥ √2·z)`` (studentized range). Diagonal 1.
    """
    k = ranks.size
    z = np.abs(ranks[:, None] - ranks[None, :]) / math.sqrt(k * (k + 1) / (6.0 * n))
    p = np.asarray(stats.studentized_range.sf(z * math.sqrt(2.0), k, np.inf), dtype=float)
    np.fill_diagonal(p, 1.0)
    return np.minimum(p, 1.0)


class TPosterior(NamedTuple):
    """A Student t posterior: location, scale, degrees of freedom."""

    loc: float
    scale: float
    df: int


def correlated_t_posterior(d: np.ndarray, rho: float) -> TPosterior:
    """The posterior of the mean difference under the correlated model (Corani & Benavoli 2015, eq. 8).

    With J differences of mean d̄ and sample variance σ̂² and correlation ρ between two of them, the
    posterior (flat prior) is Student's t with J − 1 degrees of freedom, location d̄ and scale
    ``√((1/J + ρ/(1 − ρ))·σ̂²)``; Nadeau & Bengio's ``ρ = n_test/(n_train + n_test)`` makes
    ``ρ/(1 − ρ) = n_test/n_train``. Scale 0 when every difference is the same.

    >>> p = correlated_t_posterior(np.array([0.05, 0.0, 0.1, 0.05, 0.05]), 0.2)
    >>> round(p.loc, 4), round(p.scale, 4), p.df
    (0.05, 0.0237, 4)
    """
    j = int(d.size)
    var = float(np.var(d, ddof=1))
    return TPosterior(float(d.mean()), math.sqrt((1.0 / j + rho / (1.0 - rho)) * var), j - 1)


def posterior_probabilities(post: TPosterior, rope: float) -> tuple[float, float, float]:
    """``P(δ < −rope)``, ``P(−rope ≤ δ ≤ rope)``, ``P(δ > rope)`` of a t posterior (exact, scipy's t).

    Scale 0 (NaN): NaN, NaN, NaN (the caller's 0/0).
    """
    if not post.scale > 0.0:
        nan = float("nan")
        return nan, nan, nan
    left = float(stats.t.cdf(-rope, post.df, loc=post.loc, scale=post.scale))
    right = float(stats.t.sf(rope, post.df, loc=post.loc, scale=post.scale))
    return left, max(0.0, 1.0 - left - right), right


# -- appended: the correlated t from the design's ρ, attainable p-values, the Bayesian signed-rank test ----------


def design_rho(*, n_folds: int | None = None, n_train: float | None = None, n_test: float | None = None) -> float:
    """The correlation ρ of two fold differences under the design (Nadeau & Bengio 2003 §4; Benavoli et al. 2017).

    k-fold cross-validation (repeated or not): ``ρ = 1/k`` exactly, as baycomp's ``CorrelatedTTest`` uses
    (its variance factor ``1/J + 1/(k − 1)`` is ``1/J + ρ/(1 − ρ)`` with ρ = 1/k). Otherwise from the mean
    sizes ``ρ = n_test/(n_train + n_test)``, real-valued (k-fold on n cases: n/k and n − n/k, so 1/k again).

    >>> design_rho(n_folds=10), design_rho(n_train=450.0, n_test=50.0)  # 10 folds on 500 cases
    (0.1, 0.1)
    """
    if n_folds is not None:
        return 1.0 / n_folds
    assert n_train is not None and n_test is not None
    return n_test / (n_train + n_test)


class CorrelatedT(NamedTuple):
    """The correlated t posterior and its three probabilities (NaN when the scale is 0/0)."""

    posterior: TPosterior
    p_left: float
    p_rope: float
    p_right: float


def correlated_t_probabilities(d: np.ndarray, rho: float, rope: float) -> CorrelatedT:
    """The Bayesian correlated t of per-fold differences ``d`` (folds and repeats flattened) at correlation ρ.

    One call for an entry that has the fold differences and the design's ρ (:func:`design_rho`):
    :func:`correlated_t_posterior` then :func:`posterior_probabilities`.

    >>> r = correlated_t_probabilities(np.array([0.05, 0.0, 0.1, 0.05, 0.05]), 0.2, 0.01)
    >>> round(r.p_left, 4), round(r.p_rope, 4), round(r.p_right, 4)
    (0.0323, 0.0511, 0.9165)
    """
    post = correlated_t_posterior(np.asarray(d, dtype=float).ravel(), rho)
    return CorrelatedT(post, *posterior_probabilities(post, rope))


def wilcoxon_min_p(n: int) -> float:
    """The smallest two-sided p-value of Wilcoxon's signed-rank test on ``n`` non-zero differences.

    Every difference of one sign: exactly ``2/2**n`` (the exact null distribution, which
    :func:`scipy.stats.wilcoxon` uses up to n = 50, and its sign-flip permutations with ties up to
    n = 13); beyond 50, the normal approximation scipy uses, ``2·Φ(−√(3n(n + 1)/(2(2n + 1))))``.
    ``n = 0``: 1 (nothing to test).

    >>> wilcoxon_min_p(7), wilcoxon_min_p(0)
    (0.015625, 1.0)
    """
    if n <= 0:
        return 1.0
    if n <= 50:
        return 2.0 ** (1 - n)
    z = math.sqrt(3.0 * n * (n + 1) / (2.0 * (2 * n + 1)))  # (n(n + 1)/4) / √(n(n + 1)(2n + 1)/24)
    return float(2.0 * stats.norm.sf(z))


def friedman_min_p(k: int, n: int) -> float:
    """The smallest p of Friedman's χ² over k models and n data sets: every data set ranks the models alike.

    Then ``χ²_F = n(k − 1)`` (Demšar 2006 eq. 1 with ``R_j = 1, ..., k``), on k − 1 degrees of freedom.

    >>> round(friedman_min_p(4, 7), 6)
    0.000105
    """
    return float(stats.chi2.sf(n * (k - 1), k - 1))


def nemenyi_min_p(k: int, n: int) -> float:
    """The smallest pairwise p of Nemenyi's test: one model first and another last on all n data sets.

    Their average ranks differ by k − 1: ``p = P(Q_{k,∞} ≥ √2·(k − 1)/√(k(k + 1)/(6n)))``.
    """
    z = (k - 1) / math.sqrt(k * (k + 1) / (6.0 * n))
    return float(min(1.0, stats.studentized_range.sf(z * math.sqrt(2.0), k, np.inf)))


def signed_rank_masses(z: np.ndarray, rope: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Where each pair sum ``z_i + z_j`` falls against ``±2·rope``, as index ranges of ``z`` sorted (Benavoli 2017 §4).

    ``z`` holds the pseudo-observation 0 first, then the N differences. Returns ``order`` (the sort of
    ``z``) and, for each i in that order, ``below`` (how many j have ``z_i + z_j < −2r``), ``below_eq``
    (``≤ −2r``), ``above`` (the first j with ``z_i + z_j > 2r``) and ``above_eq`` (``≥ 2r``): the pair sums
    are computed in floating point as baycomp does, and are monotone in j, so each set is a run.
    """
    order = np.argsort(z, kind="stable")
    zs = z[order]
    lo, hi = -2.0 * rope, 2.0 * rope
    out = np.empty((4, zs.size), dtype=np.intp)
    for i in range(zs.size):  # one row of sums at a time: O(N) memory
        row = zs[i] + zs
        out[:, i] = np.searchsorted(row, [lo, lo, hi, hi], side="left")
        out[1, i] = np.searchsorted(row, lo, side="right")
        out[2, i] = np.searchsorted(row, hi, side="right")
    return order, out[0], out[1], out[2], out[3]


def signed_rank_posterior(z: np.ndarray, weights: np.ndarray, rope: float) -> np.ndarray:
    """Samples of ``(θ_left, θ_rope, θ_right)`` of the Bayesian signed-rank test (Benavoli et al. 2017, §4).

    ``z``: the pseudo-observation 0 first, then the N per-data-set differences; ``weights``: Dirichlet
    draws of shape (S, N + 1) (weight ``s`` for the pseudo-observation, 1 for each difference). Each
    sample is ``θ_right = Σ_i Σ_j w_i w_j [z_i + z_j > 2r]``, ``θ_left = Σ_i Σ_j w_i w_j [z_i + z_j < −2r]``
    with an equality counted 1/2 (baycomp's Heaviside), and ``θ_rope = 1 − θ_left − θ_right`` (0 when
    r = 0, where ``θ_left + θ_right = 1`` up to rounding; baycomp takes ``1 − θ_right``). O(S·N) per sample
    block, after an O(N²) pass over the sums.

    >>> w = np.array([[0.2, 0.3, 0.5]])
    >>> signed_rank_posterior(np.array([0.0, 0.1, -0.3]), w, 0.0).round(4).tolist()
    [[0.77, 0.0, 0.23]]
    """
    order, below, below_eq, above, above_eq = signed_rank_masses(z, rope)
    w = weights[:, order]
    cum = np.concatenate([np.zeros((w.shape[0], 1)), np.cumsum(w, axis=1)], axis=1)
    total = cum[:, -1:]
    right = total - cum[:, above] + 0.5 * (cum[:, above] - cum[:, above_eq])
    left = cum[:, below] + 0.5 * (cum[:, below_eq] - cum[:, below])
    theta_right = np.einsum("ij,ij->i", w, right)
    theta_left = np.einsum("ij,ij->i", w, left)  # the same sums as θ_right: an exact tie stays exact
    theta_rope = np.zeros_like(theta_right) if rope == 0.0 else 1.0 - theta_left - theta_right
    return np.stack([theta_left, theta_rope, theta_right], axis=1)


def posterior_winners(theta: np.ndarray) -> np.ndarray:
    """How often each of left, rope, right has the largest θ (Benavoli et al. 2017 §4), summed over samples.

    An exact tie between the largest splits that sample equally (baycomp's ``argmax`` gives it to the
    first, which makes ``P(left) = 1`` when every difference is 0 and the rope 0).

    >>> posterior_winners(np.array([[0.5, 0.0, 0.5], [0.2, 0.1, 0.7]])).tolist()
    [0.5, 0.0, 1.5]
    """
    top = theta.max(axis=1, keepdims=True)
    best = theta == top
    return np.asarray((best / best.sum(axis=1, keepdims=True)).sum(axis=0), dtype=float)
