"""Folds that rank well but are not calibrated with each other: Forman & Scholz §3.2.

Introduced in notebook 02. The paper reports a 4-fold stratified
cross-validation of a text task with 38 positives in 1504 cases (2.5%), whose
per-fold AUCs are 96%, 91%, 94% and 87% (AUC_avg = 92%), while sorting the
scores of all four folds into one ROC curve gives AUC_merge = 80%, because
two of the four fold classifiers output scores shifted far from the others
(their Figure 3). We do not have their data or their classifiers; this module
*constructs* scores with the same fold sizes whose per-fold AUCs are the
closest achievable to the paper's, and solves for one shift that brings the
merged AUC to the value closest to 80%.

The score model
---------------
Within fold k, a case's latent score z is standard normal for negatives and
normal with mean d_k for positives (a binormal ROC), drawn once from a seeded
generator; d_k is then set so the fold's Mann–Whitney count is exactly
``round(AUC_target · P_k · N_k)``. The classifier's output score is::

    log10(score) = center + shift_k + scale_k · spread · z

a strictly increasing transform of z within each fold (scale_k > 0), so
each fold's AUC, and hence AUC_avg, does not depend on the shifts and
scales, whereas AUC_merge does. Folds 1 and 2 are aligned (shift 0); fold 3
is shifted up and fold 4 down by the same number of decades (Figure 3: "only
two of the folds happen to align; two other curves are greatly shifted
horizontally").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from apples._params import (
    check_count,
    check_real,
    check_table_size,
    rng_from_seed,
)
from apples.cv.ranking import cv_roc_auc

__all__ = [
    "PAPER_AUC_AVG",
    "PAPER_AUC_MERGE",
    "PAPER_FOLD_AUC",
    "PAPER_N_CASES",
    "PAPER_N_POSITIVES",
    "CalibrationStudy",
    "scores_with_auc",
    "section32_study",
    "stratified_fold_sizes",
]

#: Forman & Scholz §3.2: per-fold AUCs, their average and the merged AUC.
PAPER_FOLD_AUC: tuple[float, ...] = (0.96, 0.91, 0.94, 0.87)
PAPER_AUC_AVG = 0.92
PAPER_AUC_MERGE = 0.80
#: §3.2: "38 positives (2.5%)" in "the same dataset" as Table 1 (1504 rows, §3.1).
PAPER_N_POSITIVES = 38
PAPER_N_CASES = 1504

_SEED = 2010  # the paper's year; any seed works, this one is fixed for reproducibility


def stratified_fold_sizes(n_positives: int, n_cases: int, n_folds: int) -> list[tuple[int, int]]:
    """(positives, negatives) of each fold of a stratified split with equal fold sizes.

    Fold sizes differ by at most one, and so do the positives per fold, with
    the larger counts first (the folds of ``StratifiedKFold`` have the same
    multiset of counts, in some order).

    Examples
    --------
    >>> stratified_fold_sizes(38, 1504, 4)      # Forman & Scholz §3.2
    [(10, 366), (10, 366), (9, 367), (9, 367)]
    """
    n_positives = check_count("n_positives", n_positives)
    n_cases = check_count("n_cases", n_cases)
    n_folds = check_count("n_folds", n_folds)
    if n_folds < 1:
        raise ValueError("n_folds must be at least 1")
    if n_positives > n_cases:
        raise ValueError(f"n_positives={n_positives} is larger than n_cases={n_cases}")
    if n_cases < n_folds:
        raise ValueError(f"n_cases={n_cases} is smaller than n_folds={n_folds}; some fold would be empty")
    sizes = [n_cases // n_folds + (i < n_cases % n_folds) for i in range(n_folds)]
    pos = [n_positives // n_folds + (i < n_positives % n_folds) for i in range(n_folds)]
    return [(p, s - p) for p, s in zip(pos, sizes, strict=True)]


def scores_with_auc(
    n_positives: int, n_negatives: int, target_auc: float, *, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Binormal latent scores whose AUC is the closest achievable to ``target_auc``.

    Negatives' scores are standard normal, positives' standard normal plus a
    shift d, drawn from ``rng``. d is then placed midway between the two
    pairwise differences (negative − positive) that bracket the wanted count,
    so the Mann–Whitney count is exactly ``round(target_auc · P · N)`` and
    no positive ties a negative.

    Returns
    -------
    y_true : ndarray of int, positives first
    z : ndarray of float, the latent scores

    Examples
    --------
    >>> from apples import roc_auc
    >>> y, z = scores_with_auc(10, 366, 0.96, rng=np.random.default_rng(0))
    >>> roc_auc(y, z) * 10 * 366                     # round(0.96 * 3660) = 3514
    3514.0
    """
    p = check_count("n_positives", n_positives)
    n = check_count("n_negatives", n_negatives)
    if p == 0 or n == 0:
        raise ValueError("n_positives and n_negatives must both be at least 1 for an AUC")
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    target_auc = check_real("target_auc", target_auc, low=0.0, high=1.0)
    # the P × N pairwise differences and their sorted copy, float64
    check_table_size(f"the {p:,} × {n:,} pairwise score differences", 16 * p * n, reduce="n_positives or n_negatives")
    pos = rng.standard_normal(p)
    neg = rng.standard_normal(n)
    u = round(target_auc * p * n)
    # a positive with score pos + d beats a negative iff d > neg - pos; count = #(diffs < d)
    diffs = np.sort((neg[None, :] - pos[:, None]).ravel())
    lo = diffs[u - 1] if u > 0 else diffs[0] - 1.0
    hi = diffs[u] if u < diffs.size else diffs[-1] + 1.0
    if not lo < hi:  # a measure-zero coincidence of two differences
        raise ValueError("two pairwise differences coincide; draw again with another generator state")
    d = (lo + hi) / 2.0
    return np.r_[np.ones(p, dtype=int), np.zeros(n, dtype=int)], np.r_[pos + d, neg]


@dataclass(frozen=True)
class CalibrationStudy:
    """Latent fold scores plus per-fold shifts and scales of the output score.

    ``log10(score) = center + shift_k + scale_k · spread · z`` in fold k; see
    the module docstring. Build the paper's study with :func:`section32_study`.
    """

    y_true_folds: tuple[np.ndarray, ...]
    latent_folds: tuple[np.ndarray, ...]
    shifts: tuple[float, ...]
    scales: tuple[float, ...]
    center: float = -2.0
    spread: float = 0.5

    @property
    def n_folds(self) -> int:
        return len(self.y_true_folds)

    def _check(self, values, name: str, default) -> tuple[float, ...]:
        values = default if values is None else tuple(float(v) for v in values)
        if len(values) != self.n_folds:
            raise ValueError(f"{name} has {len(values)} values but the study has {self.n_folds} folds")
        if not all(np.isfinite(values)):
            raise ValueError(f"{name} must be finite, got {values}")
        if name == "scales" and not all(v > 0 for v in values):
            raise ValueError(
                f"scales must be positive (a non-positive scale reverses or erases the ranking), got {values}"
            )
        return values

    def log_scores(
        self, shifts: Sequence[float] | None = None, scales: Sequence[float] | None = None
    ) -> list[np.ndarray]:
        """log10 of each fold's output scores (the shifts and scales default to the study's)."""
        sh = self._check(shifts, "shifts", self.shifts)
        sc = self._check(scales, "scales", self.scales)
        # strict=False: as before, a study built with fewer latent folds than labels is not refused here
        return [self.center + a + b * self.spread * z for z, a, b in zip(self.latent_folds, sh, sc, strict=False)]

    def scores(self, shifts: Sequence[float] | None = None, scales: Sequence[float] | None = None) -> list[np.ndarray]:
        """Each fold's output scores, ``10 ** log_scores``: positive, as on the paper's log axis."""
        return [10.0**s for s in self.log_scores(shifts, scales)]


def _opposite_shifts(n_folds: int, moved: tuple[int, int], delta: float) -> tuple[float, ...]:
    """Shift fold ``moved[0]`` up and fold ``moved[1]`` down by ``delta`` decades, the others 0."""
    shifts = [0.0] * n_folds
    shifts[moved[0]], shifts[moved[1]] = delta, -delta
    return tuple(shifts)


def _merged_count(study: CalibrationStudy, delta: float, moved: tuple[int, int]) -> int:
    y = list(study.y_true_folds)
    s = study.log_scores(_opposite_shifts(study.n_folds, moved, delta))
    n_pos = sum(int(t.sum()) for t in y)
    n_neg = sum(t.size for t in y) - n_pos
    return round(2 * cv_roc_auc(y, s, method="merge") * n_pos * n_neg)  # 2U, an integer


def section32_study(
    *,
    seed: int = _SEED,
    fold_aucs: Sequence[float] = PAPER_FOLD_AUC,
    merged_auc: float = PAPER_AUC_MERGE,
    n_positives: int = PAPER_N_POSITIVES,
    n_cases: int = PAPER_N_CASES,
    moved: tuple[int, int] = (2, 3),
) -> CalibrationStudy:
    """The controlled §3.2 demonstration: per-fold AUCs and merged AUC as close to the paper's as possible.

    Parameters
    ----------
    seed : int
        Seed of the ``numpy.random.default_rng`` that draws the latent scores.
    fold_aucs : sequence of float, default (0.96, 0.91, 0.94, 0.87)
        Target AUC of each fold (Forman & Scholz §3.2); one fold per value.
    merged_auc : float, default 0.80
        Target AUC_merge. Fold ``moved[0]`` is shifted up and fold
        ``moved[1]`` down by the same δ decades, the others stay at 0; δ is
        found by bisection so that the merged Mann–Whitney count is
        ``round(merged_auc · P · N)``, the closest achievable value.
    n_positives, n_cases : int, default 38, 1504
        Class sizes, split by :func:`stratified_fold_sizes`.
    moved : pair of fold indices, default (2, 3)
        The two misaligned folds (0-based).

    Returns
    -------
    CalibrationStudy
        With ``shifts = (0, 0, δ, -δ)`` (for the defaults) and all scales 1.

    Raises
    ------
    ValueError
        If the targets cannot be met (e.g. ``merged_auc`` outside what the
        shifts can reach).

    References
    ----------
    Forman & Scholz (2010) §3.2 and Figure 3.

    Examples
    --------
    >>> from apples import roc_auc
    >>> from apples.cv import percent
    >>> study = section32_study()
    >>> [percent(roc_auc(y, s)) for y, s in zip(study.y_true_folds, study.scores())]
    ['96%', '91%', '94%', '87%']
    >>> percent(cv_roc_auc(study.y_true_folds, study.scores(), method="merge"))
    '80%'
    """
    if isinstance(fold_aucs, (str, bytes)) or not isinstance(fold_aucs, (Sequence, np.ndarray)):
        raise TypeError(f"fold_aucs must be a sequence of AUCs (one per fold), got {type(fold_aucs).__name__}")
    fold_aucs = tuple(check_real(f"fold_aucs[{i}]", a, low=0.0, high=1.0) for i, a in enumerate(fold_aucs))
    merged_auc = check_real("merged_auc", merged_auc, low=0.0, high=1.0)
    sizes = stratified_fold_sizes(n_positives, n_cases, len(fold_aucs))
    if (
        isinstance(moved, (str, bytes))
        or not isinstance(moved, Sequence)
        or len(moved) != 2
        or not all(isinstance(m, (int, np.integer)) and not isinstance(m, bool) for m in moved)
    ):
        raise TypeError(f"moved must be a pair of fold indices (ints), got {moved!r}")
    if len(set(moved)) != 2 or not all(0 <= m < len(fold_aucs) for m in moved):
        raise ValueError(f"moved must name two different folds in 0..{len(fold_aucs) - 1}, got {moved}")
    rng = rng_from_seed(seed)
    folds = [scores_with_auc(p, n, a, rng=rng) for (p, n), a in zip(sizes, fold_aucs, strict=True)]
    study = CalibrationStudy(
        tuple(y for y, _ in folds), tuple(z for _, z in folds), shifts=(0.0,) * len(folds), scales=(1.0,) * len(folds)
    )
    n_neg = n_cases - n_positives
    target = 2 * round(merged_auc * n_positives * n_neg)
    lo, hi = 0.0, 20.0  # decades; at lo the folds are aligned, at hi they are far apart
    c_lo, c_hi = _merged_count(study, lo, moved), _merged_count(study, hi, moved)
    if not c_hi < target < c_lo:
        raise ValueError(
            f"merged_auc={merged_auc} is out of reach: shifting folds {moved} gives AUC_merge between "
            f"{c_hi / (2 * n_positives * n_neg):.4f} and {c_lo / (2 * n_positives * n_neg):.4f}"
        )
    for _ in range(200):  # bisection on the step function count(delta)
        mid = (lo + hi) / 2.0
        c = _merged_count(study, mid, moved)
        if c == target:
            break
        lo, hi = (mid, hi) if c > target else (lo, mid)
    else:
        raise ValueError(f"could not reach merged_auc={merged_auc} exactly; try another seed")
    # widen to the whole interval where the count equals the target, and take its middle
    a, b = lo, mid
    for _ in range(60):
        m = (a + b) / 2.0
        a, b = (a, m) if _merged_count(study, m, moved) == target else (m, b)
    left = b
    a, b = mid, hi
    for _ in range(60):
        m = (a + b) / 2.0
        a, b = (m, b) if _merged_count(study, m, moved) == target else (a, m)
    delta = (left + a) / 2.0
    return CalibrationStudy(
        study.y_true_folds, study.latent_folds, _opposite_shifts(len(folds), moved, delta), study.scales
    )
