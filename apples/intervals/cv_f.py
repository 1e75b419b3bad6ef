"""Bootstrap confidence interval for a cross-validated F-measure, resampling cases within each fold.

Introduced in notebook 10. A case of fold i is one of its four confusion cells,
so drawing the fold's n_i cases again with replacement gives confusion counts
that are Multinomial(n_i; TP_i/n_i, FP_i/n_i, FN_i/n_i, TN_i/n_i), independently
per fold. Drawing the counts directly is the same bootstrap, and it costs
O(resamples × folds) instead of O(resamples × cases).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

import numpy as np

from apples._params import (
    MAX_TABLE_BYTES,
    UndefinedMetricError,
    check_choice,
    check_positive,
    check_table_size,
    rng_from_seed,
)
from apples.cv.aggregations import F_AGGREGATIONS
from apples.intervals.results import ConfidenceInterval, check_confidence
from apples.metrics.counts import COUNTS, Counts
from apples.metrics.f_measure import BETA, f_beta_weights

__all__ = [
    "cv_f_measure_ci",
]

#: Bytes per (resample, fold) cell while the bootstrap runs (four counts and a few float temporaries).
_BYTES_PER_CELL = 96


def check_fold_counts(folds: object) -> np.ndarray:
    """A non-empty sequence of Counts as an int64 array of shape (k, 4): TP, FP, FN, TN per fold."""
    if isinstance(folds, Counts):
        raise TypeError("folds must be a sequence of apples.Counts (one per fold), got a single Counts")
    if isinstance(folds, (str, bytes)) or not isinstance(folds, Iterable):
        raise TypeError(f"folds must be a sequence of apples.Counts, got {type(folds).__name__}")
    items = list(folds)
    if not items:
        raise ValueError("folds is empty; a cross-validation needs at least one fold")
    rows = []
    for i, c in enumerate(items):
        c = COUNTS(f"folds[{i}]", c)
        if c.n == 0:
            raise ValueError(f"folds[{i}] has no cases; a fold's cases cannot be resampled")
        rows.append((c.tp, c.fp, c.fn, c.tn))
    return np.array(rows, dtype=np.int64)


def cv_f_replicates(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray, *, method: str, beta: float = 1.0) -> np.ndarray:
    """The cross-validated F of each row of per-fold counts (shape (r, k)), NaN where it is undefined.

    The five methods of :func:`apples.cv_f_measure` (Forman & Scholz §2.3), vectorised over rows; a
    fold's F is eq. (2) and is 0 where V^(i) = 0 (``"avg"``), an undefined fold precision or recall
    is 0 (``"pr_re"``), and the skip methods use the folds with V^(i) = 1 only. NaN marks a 0/0:
    ``"tp_fp"`` with TP = FP = FN = 0 pooled (TP = FP = 0 with ``beta=0``, precision; TP = FN = 0 with
    ``beta=inf``, recall), a skip method without a valid fold.

    Examples
    --------
    >>> cv_f_replicates(np.array([[3, 4]]), np.array([[0, 1]]), np.array([[0, 0]]), method="tp_fp").round(4)
    array([0.9333])
    """
    method = check_choice("method", method, tuple(F_AGGREGATIONS))
    beta = BETA("beta", beta)
    w_fn, w_fp = f_beta_weights(beta)
    tp, fp, fn = (np.asarray(a, dtype=float) for a in (tp, fp, fn))
    with np.errstate(divide="ignore", invalid="ignore"):
        if method == "tp_fp":
            t, p, n = tp.sum(axis=1), fp.sum(axis=1), fn.sum(axis=1)
            den = t + w_fn * n + w_fp * p
            # 0/0 where the counts that weigh are all 0 (FN weighs unless beta = 0, FP unless beta = inf);
            # 0 where TP = 0 otherwise, also when a tiny weight underflowed to 0
            undefined = (t == 0) & ((n == 0) | (beta == 0.0)) & ((p == 0) | (beta == np.inf))
            return np.where(undefined, np.nan, np.where(den > 0, t / np.where(den > 0, den, 1.0), 0.0))
        valid = (tp + fp > 0) & (tp + fn > 0)
        skip = method.endswith("_skip")
        n_valid = valid.sum(axis=1)
        folds = n_valid if skip else np.full(tp.shape[0], tp.shape[1])
        weight = valid if skip else np.ones_like(valid)
        if method in ("avg", "avg_skip"):
            den = tp + w_fn * fn + w_fp * fp
            f = np.where(valid, tp / np.where(valid, den, 1.0), 0.0)
            out = (f * weight).sum(axis=1) / np.where(folds > 0, folds, 1)
        else:
            pr = np.where(tp + fp > 0, tp / np.where(tp + fp > 0, tp + fp, 1.0), 0.0)
            re = np.where(tp + fn > 0, tp / np.where(tp + fn > 0, tp + fn, 1.0), 0.0)
            mpr = (pr * weight).sum(axis=1) / np.where(folds > 0, folds, 1)
            mre = (re * weight).sum(axis=1) / np.where(folds > 0, folds, 1)
            den = w_fn * mpr + w_fp * mre
            out = np.where(den > 0, mpr * mre / np.where(den > 0, den, 1.0), 0.0)
        return np.where(folds > 0, out, np.nan)


def draw_fold_counts(counts: np.ndarray, n_resamples: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """TP, FP, FN of ``n_resamples`` case resamples of every fold, each of shape (n_resamples, k).

    Multinomial(n_i; p_i) by conditional binomials: TP ~ Bin(n, p_TP), FP ~ Bin(n − TP, p_FP/(1 − p_TP)),
    FN ~ Bin(n − TP − FP, p_FN/(1 − p_TP − p_FP)); TN is the rest.
    """
    n = counts.sum(axis=1).astype(np.int64)
    p = counts / n[:, None]
    size = (n_resamples, counts.shape[0])
    tp = rng.binomial(n, p[:, 0], size=size)
    left = n - tp
    rest = 1.0 - p[:, 0]
    q_fp = np.where(rest > 0, p[:, 1] / np.where(rest > 0, rest, 1.0), 0.0)
    fp = rng.binomial(left, np.minimum(q_fp, 1.0))
    left -= fp
    rest2 = rest - p[:, 1]
    q_fn = np.where(rest2 > 0, p[:, 2] / np.where(rest2 > 0, rest2, 1.0), 0.0)
    fn = rng.binomial(left, np.clip(q_fn, 0.0, 1.0))
    return tp, fp, fn


def _replicates(counts: np.ndarray, n_resamples: int, rng: np.random.Generator, *, method: str, beta: float):
    """The resampled F of ``n_resamples`` resamples, drawn in chunks of at most MAX_TABLE_BYTES of work.

    A chunk holds as many resamples as fit in :data:`apples._params.MAX_TABLE_BYTES` at
    ``_BYTES_PER_CELL`` per (resample, fold): one chunk, one call, whenever they all fit (so
    the draws are those of a single :func:`draw_fold_counts` call), else consecutive chunks
    from the same generator (leave-one-out over thousands of folds).
    """
    chunk = max(1, MAX_TABLE_BYTES // (counts.shape[0] * _BYTES_PER_CELL))
    if n_resamples <= chunk:
        return cv_f_replicates(*draw_fold_counts(counts, n_resamples, rng), method=method, beta=beta)
    out = np.empty(n_resamples)
    for start in range(0, n_resamples, chunk):
        size = min(chunk, n_resamples - start)
        out[start : start + size] = cv_f_replicates(*draw_fold_counts(counts, size, rng), method=method, beta=beta)
    return out


def cv_f_measure_ci(
    folds: Iterable[Counts],
    *,
    method: str,
    beta: float = 1.0,
    confidence: float = 0.95,
    interval: Literal["bootstrap"] = "bootstrap",
    n_resamples: int = 10_000,
    seed: int | np.random.Generator = 0,
    undefined: Literal["raise", "nan", "zero"] = "raise",
) -> ConfidenceInterval:
    """Bootstrap confidence interval of a cross-validated F-measure that resamples cases within each fold.

    Each resample draws every fold's cases again with replacement (the fold sizes stay fixed, the
    folds stay independent) and recomputes the cross-validated F by ``method``; the interval is the
    percentile interval of the replicates. The resample of fold i is drawn as its confusion counts,
    Multinomial(n_i; TP_i/n_i, FP_i/n_i, FN_i/n_i, TN_i/n_i), which is the same distribution as
    resampling its cases and costs O(n_resamples × folds) time, whatever the number of cases; the
    resamples are drawn in chunks, so memory stays bounded (leave-one-out over thousands of folds
    works).

    Parameters
    ----------
    folds : sequence of Counts
        One confusion count per test fold, **with** ``tn``: the fold size TP + FP + FN + TN is the
        number of cases resampled.
    method : {"avg", "pr_re", "tp_fp", "avg_skip", "pr_re_skip"}
        The aggregation of :func:`apples.cv_f_measure` (Forman & Scholz §2.3); no default.
    beta : float, default 1.0
        F_beta instead of F1, in [0, inf] (0 is precision, inf recall; :func:`apples.f_measure`).
    confidence : float, default 0.95
        Nominal coverage, strictly between 0 and 1.
    interval : {"bootstrap"}, default "bootstrap"
        The percentile bootstrap interval (Efron & Tibshirani 1993, §13.3).
    n_resamples : int, default 10000
        Bootstrap resamples.
    seed : int or numpy.random.Generator, default 0
        Seed of the resampling. Fixed by default so that the interval is reproducible; ``None`` is
        refused.
    undefined : {"raise", "nan", "zero"}, default "raise"
        Where the F of the data or of a resample is 0/0 (``"tp_fp"`` with TP = FP = FN = 0 pooled, a
        skip method with no valid fold): raise :class:`~apples.UndefinedMetricError` saying how many
        replicates were undefined, return NaN for the interval (and the estimate, if it is the one
        undefined), or count such an F as 0 (Forman & Scholz's substitution, §2.3).

    Returns
    -------
    ConfidenceInterval
        ``estimate`` is :func:`apples.cv_f_measure` of the folds, ``method`` is ``"bootstrap"``.

    References
    ----------
    Forman, G. & Scholz, M. (2010) §2.3 for the five aggregations; Efron, B. & Tibshirani, R. J.
    (1993). An Introduction to the Bootstrap, §13.3 (percentile interval) and §8.3 (resampling
    independent samples separately, here the folds).

    Examples
    --------
    >>> folds = [Counts.from_fold(positives=p, negatives=n, tp=tp, fp=fp)
    ...          for n, p, tp, fp in [(373, 3, 3, 0), (372, 4, 4, 1), (372, 4, 4, 13), (372, 4, 3, 5)]]
    >>> ci = cv_f_measure_ci(folds, method="tp_fp", seed=1)
    >>> round(ci.estimate, 4), ci.low < ci.estimate < ci.high
    (0.5833, True)
    """
    counts = check_fold_counts(folds)
    method = check_choice("method", method, tuple(F_AGGREGATIONS))
    beta = BETA("beta", beta)
    confidence = check_confidence(confidence)
    check_choice("interval", interval, ("bootstrap",))
    n_resamples = check_positive("n_resamples", n_resamples)
    rng = rng_from_seed(seed)
    check_choice("undefined", undefined, ("raise", "nan", "zero"))
    # the replicates, their NaN mask and np.quantile's copy are kept whole; the draws go in chunks
    check_table_size(f"the bootstrap's {n_resamples:,} replicates", 17 * n_resamples, reduce="n_resamples")
    estimate = float(
        cv_f_replicates(counts[None, :, 0], counts[None, :, 1], counts[None, :, 2], method=method, beta=beta)[0]
    )
    reps = _replicates(counts, n_resamples, rng, method=method, beta=beta)
    bad = np.isnan(reps)
    if estimate != estimate or bad.any():
        if undefined == "raise":
            what = "the F of the folds as given is" if estimate != estimate else f"{int(bad.sum()):,} of "
            if estimate == estimate:
                what += f"{n_resamples:,} resampled F are"
            raise UndefinedMetricError(
                f"{what} undefined (0/0) under method={method!r}; pass undefined='zero' to count them as 0 "
                "(Forman & Scholz's substitution) or undefined='nan' to get NaN"
            )
        if undefined == "nan":
            nan = float("nan")
            return ConfidenceInterval(estimate, nan, nan, confidence, "bootstrap")
        estimate = 0.0 if estimate != estimate else estimate
        reps = np.where(bad, 0.0, reps)
    alpha = 1.0 - confidence
    low, high = np.quantile(reps, [alpha / 2.0, 1.0 - alpha / 2.0])
    return ConfidenceInterval(estimate, float(low), float(high), confidence, "bootstrap")
