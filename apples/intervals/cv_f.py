"""Bootstrap confidence interval for a cross-validated F-measure, resampling cases within each fold.

Introduced in notebook 11. A case of fold i is one of its four confusion cells,
so drawing the fold's n_i cases again with replacement gives confusion counts
that are Multinomial(n_i; TP_i/n_i, FP_i/n_i, FN_i/n_i, TN_i/n_i), independently
per fold. Drawing the counts directly is the same bootstrap, and it costs
O(resamples × folds) instead of O(resamples × cases)
(:mod:`apples._kernels.resampling`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any, Literal

import numpy as np

from apples._kernels.f_measure import cv_f
from apples._kernels.resampling import fold_count_replicates
from apples._params import (
    CONFIDENCE,
    MAX_TABLE_BYTES,
    SEED,
    Options,
    ParameterValueError,
    Policy,
    Relation,
    Size,
    Undefined,
    UndefinedMetricError,
    declare,
)
from apples.cv.aggregations import CV_F_METHODS
from apples.intervals._resamples import RECOMMENDED_RESAMPLES, EnoughResamples
from apples.intervals.results import ConfidenceInterval
from apples.metrics.counts import FOLD_COUNTS, Counts
from apples.metrics.precision_recall import BETA

__all__ = [
    "cv_f_measure_ci",
]

#: Bytes per (resample, fold) cell while the bootstrap runs (four counts and a few float temporaries).
_BYTES_PER_CELL = 96
#: The most (resample, fold) cells one call draws: about 50 s at the 2 million cells per second measured on one
#: core (three binomial draws and the F of each cell); more is refused before anything is drawn.
MAX_BOOTSTRAP_CELLS = 100_000_000


class _WithinBudget(Relation):
    """The bootstrap's work, ``n_resamples`` × folds (resample, fold) cells, is at most :data:`MAX_BOOTSTRAP_CELLS`,
    estimated before anything is drawn; the message names the argument that made it large."""

    names = ("n_resamples", "fold_counts")

    def check(self, values: Mapping[str, Any]) -> None:
        n, folds = values.get("n_resamples"), values.get("fold_counts")
        if n is None or folds is None:
            return
        k = len(folds)
        cells = n * k
        if cells <= MAX_BOOTSTRAP_CELLS:
            return
        most = MAX_BOOTSTRAP_CELLS // k
        work = (
            f"{n:,} resamples of {k:,} folds are {cells:,} (resample, fold) draws, about {cells / 2e6:,.0f} s; the "
            f"limit is {MAX_BOOTSTRAP_CELLS:,} (apples.intervals.cv_f.MAX_BOOTSTRAP_CELLS, about 50 s)"
        )
        if most >= RECOMMENDED_RESAMPLES:
            raise ParameterValueError(
                f"n_resamples={n:,}: {work}: give n_resamples={most:,} or fewer", param="n_resamples"
            )
        raise ParameterValueError(
            f"fold_counts holds {k:,} folds: {work}, and even {RECOMMENDED_RESAMPLES:,} resamples (fewer are too "
            f"coarse) would pass it above {MAX_BOOTSTRAP_CELLS // RECOMMENDED_RESAMPLES:,} folds. Resample fewer, "
            "larger folds, or use an interval of the pooled counts (proportion_ci for a pooled precision or recall)",
            param="fold_counts",
        )


@declare(
    fold_counts=FOLD_COUNTS,
    method=Options(*CV_F_METHODS),
    undefined=Undefined("zero", "nan", "raise", "skip"),
    beta=BETA,
    confidence=CONFIDENCE,
    interval=Options("bootstrap"),
    # the replicates, their NaN mask and np.quantile's copy are kept whole; the draws go in chunks
    n_resamples=Size(bytes_each=17, table="the bootstrap's replicates"),
    seed=SEED,
    relations=[EnoughResamples(), _WithinBudget()],
)
def cv_f_measure_ci(
    fold_counts: Sequence[Counts],
    *,
    method: Literal["tp_fp", "avg", "pr_re"],
    undefined: Policy = "zero",
    beta: float = 1.0,
    confidence: float = 0.95,
    interval: Literal["bootstrap"] = "bootstrap",
    n_resamples: int = 10_000,
    seed: int | np.random.Generator = 0,
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
    fold_counts : sequence of Counts
        One confusion count per test fold, **with** ``tn``: the fold size TP + FP + FN + TN is the
        number of cases resampled (a fold without cases is refused, and so are folds of one case each,
        as leave-one-out makes them: resampling one case draws it again, and the interval would be a
        point).
    method : {"tp_fp", "avg", "pr_re"}
        The aggregation of :func:`apples.cv_f_measure` (Forman & Scholz §2.3); no default.
    beta : float, default 1.0
        F_beta instead of F1, in [0, inf] (0 is precision, inf recall; :func:`apples.f_measure`).
    confidence : float, default 0.95
        Nominal coverage, strictly between 0 and 1.
    interval : {"bootstrap"}, default "bootstrap"
        The percentile bootstrap interval (Efron & Tibshirani 1993, §13.3).
    n_resamples : int, default 10000
        Bootstrap resamples. Refused below 1/(1 − ``confidence``) (20 at 0.95: fewer leave no resample
        outside the interval, whose ends are then the resamples' extremes), warned about below 1,000
        (percentile ends from fewer are coarse and move with the seed; Efron & Tibshirani 1993
        §13.3). The work, ``n_resamples`` × folds draws, is estimated first and refused above
        :data:`MAX_BOOTSTRAP_CELLS` (10⁸, about 50 s), naming ``n_resamples`` or, when even 1,000
        resamples would pass it (more than 100,000 folds), ``fold_counts``.
    seed : int or numpy.random.Generator, default 0
        Seed of the resampling. Fixed by default so that the interval is reproducible; ``None`` is
        refused.
    undefined : {"zero", "nan", "raise", "skip"}, default "zero"
        The policy of :func:`apples.cv_f_measure` for folds with an undefined precision or recall,
        applied to the data and to every resample alike (``"skip"`` with ``"avg"`` is F̃_avg, with
        ``"pr_re"`` F̃_pr,re). Where the F of the data or of some resample is still undefined (``"tp_fp"``
        with TP = FP = FN = 0 pooled under ``"nan"``, every fold skipped), the interval is NaN;
        ``"raise"`` raises :class:`~apples.UndefinedMetricError` instead, saying how many were.

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
    >>> from apples import Counts, cv_f_measure_ci
    >>> folds = [Counts.from_fold(positives=p, negatives=n, tp=tp, fp=fp)
    ...          for n, p, tp, fp in [(373, 3, 3, 0), (372, 4, 4, 1), (372, 4, 4, 13), (372, 4, 3, 5)]]
    >>> ci = cv_f_measure_ci(folds, method="tp_fp", seed=1)
    >>> round(ci.estimate, 4), ci.low < ci.estimate < ci.high
    (0.5833, True)
    """
    if method == "tp_fp" and undefined == "skip":
        raise ParameterValueError(
            "undefined='skip' leaves undefined folds out of an average, and method='tp_fp' averages nothing: "
            "it pools the counts; pass undefined='zero', 'nan' or 'raise'",
            param="undefined",
        )
    counts = np.array([(c.tp, c.fp, c.fn, c.tn) for c in fold_counts], dtype=np.int64)
    sizes = counts.sum(axis=1)
    empty = np.flatnonzero(sizes == 0)
    if empty.size:
        raise ParameterValueError(
            f"fold_counts[{int(empty[0])}] has no cases; a fold's cases cannot be resampled", param="fold_counts"
        )
    if (sizes == 1).all():
        raise ParameterValueError(
            f"each of the {sizes.size:,} folds of fold_counts holds one case (leave-one-out): resampling a fold's "
            "one case draws it again, so every resample is the data and the interval would be a point. Resample "
            "the cases of larger folds, or use an interval of the pooled counts (proportion_ci)",
            param="fold_counts",
        )
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    policy = "nan" if undefined == "raise" else undefined
    statistic = partial(cv_f, method=method, undefined=policy, beta=beta)
    estimate = float(statistic(counts[:, 0], counts[:, 1], counts[:, 2]))
    chunk = max(1, MAX_TABLE_BYTES // (counts.shape[0] * _BYTES_PER_CELL))
    reps = fold_count_replicates(counts, n_resamples, rng, statistic, chunk=chunk)
    bad = np.isnan(reps)
    if estimate != estimate or bad.any():
        if undefined == "raise":
            what = "the F of the folds as given is" if estimate != estimate else f"{int(bad.sum()):,} of "
            if estimate == estimate:
                what += f"{n_resamples:,} resampled F are"
            raise UndefinedMetricError(
                f"{what} undefined (0/0) under method={method!r}; pass undefined='zero' to count such folds as 0 "
                "(Forman & Scholz's substitution), 'skip' to leave them out, or 'nan' to get NaN"
            )
        nan = float("nan")
        return ConfidenceInterval(estimate, nan, nan, confidence, "bootstrap")
    alpha = 1.0 - confidence
    low, high = np.quantile(reps, [alpha / 2.0, 1.0 - alpha / 2.0])
    return ConfidenceInterval(estimate, float(low), float(high), confidence, "bootstrap")
