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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from apples._kernels.ranking import auc_from_counts, cumulative_counts
from apples._params import (
    COUNT,
    SEED,
    Instance,
    Kind,
    Nullable,
    ParameterValueError,
    Real,
    Relation,
    SequenceOf,
    check_table_size,
    declare,
    exempt,
)
from apples.theory.fold_model import N_FOLDS

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


def _check_fold_sizes(n_positives: int, n_cases: int, n_folds: int) -> None:
    """The class sizes fill ``n_folds`` folds: no more positives than cases, no empty fold."""
    if n_positives > n_cases:
        raise ParameterValueError(f"n_positives={n_positives} is larger than n_cases={n_cases}", param="n_positives")
    if n_cases < n_folds:
        raise ParameterValueError(
            f"n_cases={n_cases} is smaller than n_folds={n_folds}; some fold would be empty", param="n_cases"
        )


class _FoldSizes(Relation):
    """``n_positives`` and ``n_cases`` fill ``n_folds`` folds (:func:`stratified_fold_sizes`)."""

    names = ("n_positives", "n_cases", "n_folds")

    def check(self, values: Mapping[str, Any]) -> None:
        if len(values) == 3:
            _check_fold_sizes(values["n_positives"], values["n_cases"], values["n_folds"])


def _fold_sizes(n_positives: int, n_cases: int, n_folds: int) -> list[tuple[int, int]]:
    """(positives, negatives) of each stratified fold, the larger counts first."""
    sizes = [n_cases // n_folds + (i < n_cases % n_folds) for i in range(n_folds)]
    pos = [n_positives // n_folds + (i < n_positives % n_folds) for i in range(n_folds)]
    return [(p, s - p) for p, s in zip(pos, sizes, strict=True)]


@declare(n_positives=COUNT, n_cases=COUNT, n_folds=N_FOLDS, relations=[_FoldSizes()])
def stratified_fold_sizes(n_positives: int, n_cases: int, n_folds: int) -> list[tuple[int, int]]:
    """(positives, negatives) of each fold of a stratified split with equal fold sizes.

    Fold sizes differ by at most one, and so do the positives per fold, with
    the larger counts first (the folds of ``StratifiedKFold`` have the same
    multiset of counts, in some order).

    Examples
    --------
    >>> from apples.studies.forman_scholz import stratified_fold_sizes
    >>> stratified_fold_sizes(38, 1504, 4)      # Forman & Scholz §3.2
    [(10, 366), (10, 366), (9, 367), (9, 367)]
    """
    return _fold_sizes(n_positives, n_cases, n_folds)


def _check_pairs(p: int, n: int) -> None:
    """A fold of ``p`` positives and ``n`` negatives has an AUC, and its pairwise differences fit in memory."""
    if p == 0 or n == 0:
        raise ValueError("n_positives and n_negatives must both be at least 1 for an AUC")
    # the P × N pairwise differences and their sorted copy, float64
    check_table_size(f"the {p:,} × {n:,} pairwise score differences", 16 * p * n, reduce="n_positives or n_negatives")


class _Pairs(Relation):
    """``n_positives`` and ``n_negatives`` make an AUC whose pairwise differences fit in memory."""

    names = ("n_positives", "n_negatives")

    def check(self, values: Mapping[str, Any]) -> None:
        if len(values) == 2:
            _check_pairs(values["n_positives"], values["n_negatives"])


def _scores_with_auc(p: int, n: int, target_auc: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """:func:`scores_with_auc` of checked arguments."""
    pos = rng.standard_normal(p)
    neg = rng.standard_normal(n)
    u = round(target_auc * p * n)
    # a positive with score pos + d beats a negative iff d > neg - pos; count = #(diffs < d)
    diffs = np.sort((neg[None, :] - pos[:, None]).ravel())
    lo = diffs[u - 1] if u > 0 else diffs[0] - 1.0
    hi = diffs[u] if u < diffs.size else diffs[-1] + 1.0
    if not lo < hi:  # a measure-zero coincidence of two differences
        raise ParameterValueError(
            "two pairwise differences coincide; draw again with another generator state", param="rng"
        )
    d = (lo + hi) / 2.0
    return np.r_[np.ones(p, dtype=int), np.zeros(n, dtype=int)], np.r_[pos + d, neg]


@declare(
    n_positives=COUNT,
    n_negatives=COUNT,
    target_auc=Real(0.0, 1.0),
    rng=Instance(np.random.Generator, what="a numpy.random.Generator"),
    relations=[_Pairs()],
)
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
    >>> import numpy as np
    >>> from apples import roc_auc
    >>> from apples.studies.forman_scholz import scores_with_auc
    >>> y, z = scores_with_auc(10, 366, 0.96, rng=np.random.default_rng(0))
    >>> roc_auc(y, z) * 10 * 366                     # round(0.96 * 3660) = 3514
    3514.0
    """
    return _scores_with_auc(n_positives, n_negatives, target_auc, rng)


class _Scales(Kind):
    """Positive finite scales of log10(score), one per fold; becomes a list of floats."""

    what = "a sequence of positive scales, one per fold"

    def check(self, name: str, value: object) -> list[float]:
        scales = SequenceOf(Real(), what=self.what).check(name, value)
        if not all(v > 0 for v in scales):
            raise ValueError(
                f"{name} must be positive (a non-positive scale reverses or erases the ranking), got {tuple(scales)}"
            )
        return scales


_SHIFTS = Nullable(SequenceOf(Real(), what="a sequence of shifts in decades, one per fold"))
_SCALES = Nullable(_Scales())


@exempt("a result type: section32_study makes it; its methods declare their parameters")
@dataclass(frozen=True)
class CalibrationStudy:
    """Latent fold scores plus per-fold shifts and scales of the output score.

    ``log10(score) = center + shift_k + scale_k · spread · z`` in fold k; see
    the module docstring. Build the paper's study with :func:`section32_study`.
    The cases are read fold after fold: :attr:`y_true`, :attr:`folds` (ids 1 .. k,
    as the paper numbers the folds) and :meth:`scores` are aligned, ready for the
    functions that take labels, scores and ``folds=`` (:func:`apples.auc_table`,
    :func:`plot_figure3`).
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

    @property
    def y_true(self) -> np.ndarray:
        """Every case's label (1 = positive), fold after fold."""
        return np.concatenate(self.y_true_folds)

    @property
    def folds(self) -> np.ndarray:
        """Every case's fold id, 1 .. :attr:`n_folds`, aligned with :attr:`y_true`."""
        return np.concatenate([np.full(len(t), i + 1) for i, t in enumerate(self.y_true_folds)])

    def _one_per_fold(self, values: Sequence[float] | None, name: str, default: tuple[float, ...]) -> tuple[float, ...]:
        out = default if values is None else tuple(values)
        if len(out) != self.n_folds:
            raise ParameterValueError(
                f"{name} has {len(out)} values but the study has {self.n_folds} folds", param=name
            )
        return out

    def _log_scores(self, shifts: Sequence[float], scales: Sequence[float]) -> np.ndarray:
        # strict=False: as before, a study built with fewer latent folds than labels is not refused here
        return np.concatenate(
            [self.center + a + b * self.spread * z for z, a, b in zip(self.latent_folds, shifts, scales, strict=False)]
        )

    @declare(shifts=_SHIFTS, scales=_SCALES)
    def log_scores(self, shifts: Sequence[float] | None = None, scales: Sequence[float] | None = None) -> np.ndarray:
        """log10 of every case's output score, aligned with :attr:`y_true` (shifts and scales default to the study's).

        ``shifts`` (decades) and ``scales`` (positive) give one value per fold.
        """
        sh = self._one_per_fold(shifts, "shifts", self.shifts)
        return self._log_scores(sh, self._one_per_fold(scales, "scales", self.scales))

    @declare(shifts=_SHIFTS, scales=_SCALES)
    def scores(self, shifts: Sequence[float] | None = None, scales: Sequence[float] | None = None) -> np.ndarray:
        """Every case's output score, ``10 ** log_scores``: positive, as on the paper's log axis."""
        sh = self._one_per_fold(shifts, "shifts", self.shifts)
        return 10.0 ** self._log_scores(sh, self._one_per_fold(scales, "scales", self.scales))


def _opposite_shifts(n_folds: int, moved: tuple[int, int], delta: float) -> tuple[float, ...]:
    """Shift fold ``moved[0]`` up and fold ``moved[1]`` down by ``delta`` decades, the others 0."""
    shifts = [0.0] * n_folds
    shifts[moved[0]], shifts[moved[1]] = delta, -delta
    return tuple(shifts)


def _merged_count(study: CalibrationStudy, positive: np.ndarray, delta: float, moved: tuple[int, int]) -> int:
    """2U of the merged scores (Mann–Whitney, ties 1/2) with folds ``moved`` shifted by ±``delta`` decades."""
    s = study._log_scores(_opposite_shifts(study.n_folds, moved, delta), study.scales)
    n_pos = int(positive.sum())
    n_neg = positive.size - n_pos
    return round(2 * auc_from_counts(cumulative_counts(positive, s)) * n_pos * n_neg)  # 2U, an integer


class _FoldPair(Kind):
    """Two fold indices (ints), e.g. ``(2, 3)``; becomes a tuple."""

    what = "a pair of fold indices (ints)"

    def check(self, name: str, value: object) -> tuple[int, int]:
        if (
            isinstance(value, (str, bytes))
            or not isinstance(value, Sequence)
            or len(value) != 2
            or not all(isinstance(m, (int, np.integer)) and not isinstance(m, bool) for m in value)
        ):
            raise TypeError(f"{name} must be a pair of fold indices (ints), got {value!r}")
        return int(value[0]), int(value[1])


class _StudyDesign(Relation):
    """The §3.2 design is buildable: the classes fill the folds, every fold has an AUC, ``moved`` names two folds."""

    names = ("n_positives", "n_cases", "fold_aucs", "moved")

    def check(self, values: Mapping[str, Any]) -> None:
        if len(values) < 4:
            return
        k = len(values["fold_aucs"])
        _check_fold_sizes(values["n_positives"], values["n_cases"], k)
        moved = values["moved"]
        if len(set(moved)) != 2 or not all(0 <= m < k for m in moved):
            raise ParameterValueError(f"moved must name two different folds in 0..{k - 1}, got {moved}", param="moved")
        for p, n in _fold_sizes(values["n_positives"], values["n_cases"], k):
            _check_pairs(p, n)


@declare(
    seed=SEED,
    fold_aucs=SequenceOf(Real(0.0, 1.0), what="a sequence of AUCs (one per fold)"),
    merged_auc=Real(0.0, 1.0),
    n_positives=COUNT,
    n_cases=COUNT,
    moved=_FoldPair(),
    relations=[_StudyDesign()],
)
def section32_study(
    *,
    seed: int | np.random.Generator = _SEED,
    fold_aucs: Sequence[float] = PAPER_FOLD_AUC,
    merged_auc: float = PAPER_AUC_MERGE,
    n_positives: int = PAPER_N_POSITIVES,
    n_cases: int = PAPER_N_CASES,
    moved: tuple[int, int] = (2, 3),
) -> CalibrationStudy:
    """The controlled §3.2 demonstration: per-fold AUCs and merged AUC as close to the paper's as possible.

    Parameters
    ----------
    seed : int or numpy.random.Generator
        Seed of the ``numpy.random.default_rng`` that draws the latent scores (or the Generator).
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
    >>> from apples import auc_table
    >>> from apples.cv import percent
    >>> from apples.studies.forman_scholz import section32_study
    >>> study = section32_study()
    >>> table = auc_table(study.y_true, study.scores(), folds=study.folds)   # folds 1-4, AUC_avg, AUC_merge
    >>> [percent(v) for v in table["auc"]]
    ['96%', '91%', '94%', '87%', '92%', '80%']
    """
    return _section32(seed, fold_aucs, merged_auc, n_positives, n_cases, moved)


def _section32(
    seed: int | np.random.Generator,
    fold_aucs: Sequence[float],
    merged_auc: float,
    n_positives: int,
    n_cases: int,
    moved: tuple[int, int],
) -> CalibrationStudy:
    """:func:`section32_study` of checked arguments."""
    rng = np.random.default_rng(seed)
    sizes = _fold_sizes(n_positives, n_cases, len(fold_aucs))
    folds = [_scores_with_auc(p, n, a, rng) for (p, n), a in zip(sizes, fold_aucs, strict=True)]
    study = CalibrationStudy(
        tuple(y for y, _ in folds), tuple(z for _, z in folds), shifts=(0.0,) * len(folds), scales=(1.0,) * len(folds)
    )
    n_neg = n_cases - n_positives
    target = 2 * round(merged_auc * n_positives * n_neg)
    lo, hi = 0.0, 20.0  # decades; at lo the folds are aligned, at hi they are far apart
    positive = study.y_true == 1
    c_lo, c_hi = _merged_count(study, positive, lo, moved), _merged_count(study, positive, hi, moved)
    if not c_hi < target < c_lo:
        raise ParameterValueError(
            f"merged_auc={merged_auc} is out of reach: shifting folds {moved} gives AUC_merge between "
            f"{c_hi / (2 * n_positives * n_neg):.4f} and {c_lo / (2 * n_positives * n_neg):.4f}",
            param="merged_auc",
        )
    for _ in range(200):  # bisection on the step function count(delta)
        mid = (lo + hi) / 2.0
        c = _merged_count(study, positive, mid, moved)
        if c == target:
            break
        lo, hi = (mid, hi) if c > target else (lo, mid)
    else:
        raise ParameterValueError(f"could not reach merged_auc={merged_auc} exactly; try another seed", param="seed")
    # widen to the whole interval where the count equals the target, and take its middle
    a, b = lo, mid
    for _ in range(60):
        m = (a + b) / 2.0
        a, b = (a, m) if _merged_count(study, positive, m, moved) == target else (m, b)
    left = b
    a, b = mid, hi
    for _ in range(60):
        m = (a + b) / 2.0
        a, b = (m, b) if _merged_count(study, positive, m, moved) == target else (a, m)
    delta = (left + a) / 2.0
    return CalibrationStudy(
        study.y_true_folds, study.latent_folds, _opposite_shifts(len(folds), moved, delta), study.scales
    )


def _paper_study() -> CalibrationStudy:
    """:func:`section32_study` with its defaults: the paper's §3.2 numbers."""
    return _section32(_SEED, PAPER_FOLD_AUC, PAPER_AUC_MERGE, PAPER_N_POSITIVES, PAPER_N_CASES, (2, 3))
