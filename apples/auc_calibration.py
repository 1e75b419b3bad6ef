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
from typing import Literal, NamedTuple

import numpy as np
import pandas as pd

from ._optional import require
from ._validation import (
    Undefined,
    check_bool,
    check_choice,
    check_count,
    check_fold_lists,
    check_labels_1d,
    check_policy,
    check_real,
    check_same_length,
    divide,
    label_kind,
    rng_from_seed,
    unique_labels,
)
from .cross_validation import percent
from .roc import cv_roc_auc, in_fold, merge_folds, roc_auc, roc_curve

__all__ = [
    "PAPER_AUC_AVG",
    "PAPER_AUC_MERGE",
    "PAPER_FOLD_AUC",
    "PAPER_N_CASES",
    "PAPER_N_POSITIVES",
    "CalibrationExplorer",
    "CalibrationStudy",
    "MergeDecomposition",
    "TrainingSetCalibration",
    "auc_table",
    "calibration_explorer",
    "digits_one_vs_rest",
    "fold_scores",
    "merge_decomposition",
    "plot_figure3",
    "plot_fold_rocs",
    "plot_rate_vs_score",
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
_FOLD_COLORS = ("#1f77b4", "#2ca02c", "#d62728", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")


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


def auc_table(y_true_folds, y_score_folds, *, undefined: Literal["raise", "nan", "skip"] = "raise") -> pd.DataFrame:
    """Per-fold AUC with the fold's class counts, then AUC_avg and AUC_merge.

    Labels are 1 (positive) and anything else (negative). Rows ``1..k`` hold
    ``positives``, ``negatives`` and ``roc_auc`` of each fold
    (NaN where undefined, under ``undefined="nan"`` or ``"skip"``); row
    ``"AUC_avg"`` and row ``"AUC_merge"`` hold :func:`~apples.cv_roc_auc`
    with the given ``undefined`` policy.

    Examples
    --------
    >>> t = auc_table([[1, 0, 0], [1, 0, 0]], [[3, 2, 1], [0.3, 0.2, 0.1]])
    >>> t["auc"].tolist()
    [1.0, 1.0, 1.0, 0.75]
    """
    aggregates = {
        f"AUC_{m}": cv_roc_auc(y_true_folds, y_score_folds, method=m, undefined=undefined) for m in ("avg", "merge")
    }  # validates, and raises naming the fold under "raise"
    rows = []
    for t, s in zip(y_true_folds, y_score_folds, strict=True):
        t = np.asarray(t)
        rows.append(
            {"positives": int((t == 1).sum()), "negatives": int((t != 1).sum()), "auc": roc_auc(t, s, undefined="nan")}
        )
    table = pd.DataFrame(rows, index=pd.Index(range(1, len(rows) + 1), name="fold", dtype=object))
    for name, value in aggregates.items():
        table.loc[name, "auc"] = value
    table.loc["AUC_merge", ["positives", "negatives"]] = (
        table[["positives", "negatives"]].iloc[: len(rows)].sum().to_numpy()
    )
    for col in ("positives", "negatives"):
        table[col] = table[col].astype("Int64")
    return table


def _positive_folds(y_true_folds: list) -> list[np.ndarray]:
    """Each fold's labels checked (errors name the fold) and read as booleans: label 1 is positive."""
    out = []
    for i, t in enumerate(y_true_folds):
        try:
            t = check_labels_1d("y_true", t)
        except (ValueError, TypeError) as err:
            raise in_fold(i, err) from None
        if label_kind(t) != "number":
            raise TypeError(
                f"fold {i + 1} (index {i}): y_true must hold numeric labels, 1 = positive, got {t[:5].tolist()}"
            )
        out.append(t == 1)
    return out


class MergeDecomposition(NamedTuple):
    """AUC_merge split into its within-fold and between-fold pairs (see :func:`merge_decomposition`)."""

    merged: float  #: AUC_merge
    within: float  #: AUC over positive–negative pairs from the same fold
    between: float  #: AUC over pairs whose positive and negative come from different folds
    within_share: float  #: fraction of all pairs that are within-fold, Σ P_k N_k / (P N)


def merge_decomposition(y_true_folds, y_score_folds, *, undefined: Undefined = "raise") -> MergeDecomposition:
    """Write AUC_merge as a weighted mean of a within-fold and a between-fold AUC.

    AUC_merge counts every positive–negative pair of the pooled folds. A pair
    from one fold compares two scores of the same model; a pair from two
    folds compares scores of two different models, which only makes sense if
    they are calibrated with each other (Forman & Scholz §3.2). With
    ``w = Σ_k P_k N_k / (P N)``::

        AUC_merge = w · AUC_within + (1 − w) · AUC_between
        AUC_within = Σ_k P_k N_k AUC_k / Σ_k P_k N_k

    so AUC_within is the pair-weighted AUC_avg (equal to AUC_avg when all
    folds have the same P_k N_k), and the between-fold pairs, usually the
    large majority, carry the calibration penalty.

    Parameters
    ----------
    y_true_folds, y_score_folds : sequence of array-like
        Labels (1 = positive) and scores per fold.
    undefined : {"zero", "nan", "raise"}, default "raise"
        Policy for a part with no pairs (e.g. ``between`` with one fold) or
        pooled scores with one class.

    Examples
    --------
    >>> d = merge_decomposition([[1, 0, 0], [1, 0, 0]], [[3, 2, 1], [0.3, 0.2, 0.1]])
    >>> d.within, d.between, d.within_share, d.merged   # 4 of 8 pairs are within-fold
    (1.0, 0.5, 0.5, 0.75)
    """
    check_policy(undefined)
    y_true_folds, s_folds = check_fold_lists(y_true_folds, y_score_folds)
    t_folds = _positive_folds(y_true_folds)
    merged = cv_roc_auc([t.astype(int) for t in t_folds], s_folds, method="merge", undefined="nan")
    p = np.array([t.sum() for t in t_folds], dtype=float)
    n = np.array([t.size for t in t_folds], dtype=float) - p
    pairs_all = p.sum() * n.sum()
    if merged != merged:
        merged = divide(0.0, 0.0, undefined=undefined, what="AUC_merge (the pooled folds hold one class)")
    pairs_within = float(np.sum(p * n))
    u_within = sum(
        roc_auc(t.astype(int), s) * pk * nk for t, s, pk, nk in zip(t_folds, s_folds, p, n, strict=True) if pk * nk > 0
    )
    u_merged = merged * pairs_all  # nan stays nan
    within = divide(u_within, pairs_within, undefined=undefined, what="AUC_within (no fold has both classes)")
    between = divide(
        u_merged - u_within,
        pairs_all - pairs_within,
        undefined=undefined,
        what="AUC_between (no positive–negative pair spans two folds)",
    )
    share = divide(pairs_within, pairs_all, undefined=undefined, what="within_share (no pairs)")
    return MergeDecomposition(float(merged), float(within), float(between), float(share))


# -- real classifiers -----------------------------------------------------------------------------
def digits_one_vs_rest(digit: int = 8, *, n_positives: int | None = 38, seed: int = 0):
    """scikit-learn's bundled digits as a rare-class task: ``digit`` against the rest.

    All other digits are negatives; ``n_positives`` of the ``digit`` images
    are kept (drawn without replacement by ``numpy.random.default_rng(seed)``;
    ``seed`` is required, a non-negative int or a Generator),
    so that the task has a few percent positives like §3.2 (38 positives);
    ``None`` keeps them all (about 10%). Features are the 64 raw pixel values
    (0–16) as shipped.

    Returns
    -------
    X : ndarray of shape (n, 64), y : ndarray of int (1 = ``digit``)
    """
    load_digits = require("sklearn.datasets").load_digits  # scikit-learn: the notebooks extra

    if not isinstance(digit, (int, np.integer)) or isinstance(digit, bool) or not 0 <= digit <= 9:
        raise ValueError(f"digit must be an integer 0..9, got {digit!r}")
    rng = rng_from_seed(seed)  # checked even when n_positives=None draws nothing
    X, y = load_digits(return_X_y=True)
    pos = np.flatnonzero(y == digit)
    if n_positives is not None:
        n_positives = check_count("n_positives", n_positives)
        if not 1 <= n_positives <= pos.size:
            raise ValueError(f"n_positives must lie in [1, {pos.size}] for digit {digit}, got {n_positives}")
        pos = rng.choice(pos, n_positives, replace=False)
    keep = np.sort(np.r_[pos, np.flatnonzero(y != digit)])
    return X[keep], (y[keep] == digit).astype(int)


def fold_scores(estimator, X, y, *, cv, response: str = "decision_function"):
    """Fit a fresh clone of ``estimator`` on each training split; score its test fold.

    Parameters
    ----------
    estimator : scikit-learn estimator
        Cloned for every fold (``sklearn.base.clone``), so no fold sees another's model.
    X, y : arrays
        Data and binary labels (1 = positive).
    cv : splitter
        E.g. ``StratifiedKFold(4, shuffle=True, random_state=0)``.
    response : {"decision_function", "predict_proba"}
        The score: the decision function, or the probability of class 1.

    Returns
    -------
    y_true_folds, y_score_folds : lists of arrays, one per test fold, ready for
    :func:`~apples.cv_roc_auc` (``roc_auc_score`` of the concatenation is AUC_merge).
    """
    clone = require("sklearn.base").clone

    check_choice("response", response, ("decision_function", "predict_proba"))
    X, y = np.asarray(X), check_labels_1d("y", y)
    if X.ndim != 2:
        raise ValueError(f"X must be two-dimensional (cases x features), got an array of shape {X.shape}")
    check_same_length(X=X, y=y)
    labels = unique_labels("y", y)
    if label_kind(labels) != "number":
        raise TypeError(f"y must hold numeric labels, 1 = positive, got {labels[:5].tolist()}")
    if 1 not in labels.tolist():
        raise ValueError(f"y must hold the positive label 1, got labels {labels[:5].tolist()}")
    y_true_folds, y_score_folds = [], []
    for train, test in cv.split(X, y):
        model = clone(estimator).fit(X[train], y[train])
        if response == "predict_proba":
            s = model.predict_proba(X[test])[:, list(model.classes_).index(1)]
        else:
            s = model.decision_function(X[test])
        y_true_folds.append(y[test])
        y_score_folds.append(np.asarray(s, dtype=float))
    return y_true_folds, y_score_folds


class TrainingSetCalibration:
    """A classifier whose score is mapped to a probability fitted on its *own training* scores.

    Fits a fresh clone of ``estimator`` on (X, y), then a Platt sigmoid
    (``method="sigmoid"``) or an isotonic map from its ``decision_function``
    on the *same* training cases to the labels. This is how WEKA's SMO builds
    probability estimates with ``-M`` ("fit logistic models to SVM outputs")
    under its default ``-V -1`` (no internal cross-validation: use the
    training data), the setting behind Forman & Scholz's §3.2 example (SMO
    ``-M -N 2``). When the training cases are (nearly) separable, the fitted
    sigmoid is very steep and its probabilities span many decades: scores
    that need a log axis, as in their Figure 3. Contrast
    ``sklearn.calibration.CalibratedClassifierCV(estimator, cv=3)``, which
    fits the map on held-out inner folds.

    The map is strictly increasing for the sigmoid (non-decreasing for
    isotonic), so a fold's AUC is that of the raw ``decision_function`` (the
    sigmoid) or lower by ties (isotonic); only AUC_merge can change.

    Parameters
    ----------
    estimator : scikit-learn classifier with ``decision_function``
    method : {"sigmoid", "isotonic"}, default "sigmoid"

    Attributes
    ----------
    calibrated_ : the fitted ``CalibratedClassifierCV`` around the frozen model
    classes_ : ndarray

    References
    ----------
    Forman & Scholz (2010) §3 (WEKA SMO options) and §3.2; J. Platt (1999),
    probabilistic outputs for SVMs (the sigmoid; Platt fits it on held-out
    scores, precisely to avoid the over-steep fit on training scores).

    Examples
    --------
    >>> from sklearn.svm import LinearSVC
    >>> X, y = digits_one_vs_rest(8, n_positives=38, seed=0)
    >>> model = TrainingSetCalibration(LinearSVC(dual=False)).fit(X, y)
    >>> p = model.predict_proba(X)[:, 1]
    >>> bool(p.min() < 1e-10)  # a steep sigmoid: probabilities over many decades
    True
    >>> roc_auc(y, p) == roc_auc(y, model.calibrated_.estimator.decision_function(X))  # same order
    True
    """

    def __init__(self, estimator=None, method: str = "sigmoid"):
        self.estimator = estimator
        self.method = method

    def get_params(self, deep: bool = True) -> dict:
        check_bool("deep", deep)
        return {"estimator": self.estimator, "method": self.method}

    def set_params(self, **params):
        for key, value in params.items():
            if key not in ("estimator", "method"):
                raise ValueError(f"invalid parameter {key!r}; expected 'estimator' or 'method'")
            setattr(self, key, value)
        return self

    def __repr__(self) -> str:
        return f"TrainingSetCalibration(estimator={self.estimator!r}, method={self.method!r})"

    def fit(self, X, y):
        clone = require("sklearn.base").clone
        CalibratedClassifierCV = require("sklearn.calibration").CalibratedClassifierCV
        FrozenEstimator = require("sklearn.frozen").FrozenEstimator

        check_choice("method", self.method, ("sigmoid", "isotonic"))
        if self.estimator is None:
            raise TypeError("estimator must be a scikit-learn classifier, got None")
        model = clone(self.estimator).fit(X, y)
        self.calibrated_ = CalibratedClassifierCV(FrozenEstimator(model), method=self.method).fit(X, y)
        self.classes_ = self.calibrated_.classes_
        return self

    def predict_proba(self, X):
        return self.calibrated_.predict_proba(X)

    def predict(self, X):
        return self.calibrated_.predict(X)


# -- plots -----------------------------------------------------------------------------------------
def plot_rate_vs_score(
    y_true_folds, y_score_folds, *, rate: str = "fpr", ax=None, log: bool = True, labels: Sequence[str] | None = None
):
    """False (or true) positive rate against the score threshold, one step curve per fold.

    The rate at threshold t is the share of the fold's negatives (positives)
    with score >= t; this is one panel of Forman & Scholz Figure 3. With
    ``log=True`` the score axis is logarithmic (scores must then be positive).

    Returns
    -------
    matplotlib Axes
    """
    plt = require("matplotlib.pyplot")

    check_choice("rate", rate, ("fpr", "tpr"))
    log = check_bool("log", log)
    y_true_folds, y_score_folds = check_fold_lists(y_true_folds, y_score_folds)
    n_folds = len(y_true_folds)
    if labels is None:
        labels = [f"fold {i + 1}" for i in range(n_folds)]
    else:  # not `labels or ...`: the truth value of an array is numpy's ValueError
        if isinstance(labels, (str, bytes)) or not isinstance(labels, (Sequence, np.ndarray)):
            raise TypeError(f"labels must be a sequence of legend labels, one per fold, got {labels!r}")
        if len(labels) != n_folds:
            raise ValueError(f"labels has {len(labels)} entries but there are {n_folds} folds; pass one per fold")
        labels = [str(label) for label in labels]
    ax = plt.gca() if ax is None else ax
    for i, (t, s) in enumerate(zip(y_true_folds, y_score_folds, strict=True)):
        try:
            fpr, tpr, thr = roc_curve(t, s)
        except (ValueError, TypeError) as err:
            raise in_fold(i, err) from None
        r = (fpr if rate == "fpr" else tpr)[1:][::-1] * 100
        x = thr[1:][::-1]
        if log and np.any(x <= 0):
            raise ValueError("log=True needs positive scores; shift them or pass log=False")
        # the rate is r_j on (x_{j-1}, x_j]: steps-pre; extend flat to the left edge
        ax.plot(
            np.r_[x[0], x],
            np.r_[r[0], r],
            drawstyle="steps-pre",
            color=_FOLD_COLORS[i % len(_FOLD_COLORS)],
            label=labels[i],
        )
    if log:
        ax.set_xscale("log")
    name = "False positive rate" if rate == "fpr" else "True positive rate"
    ax.set(xlabel="classifier score threshold" + (" (log scale)" if log else ""), ylabel=f"{name} (%)", ylim=(-2, 102))
    ax.legend(loc="upper right" if rate == "fpr" else "lower left")
    return ax


def plot_figure3(y_true_folds, y_score_folds, *, axes=None, log: bool = True):
    """Both panels of Forman & Scholz Figure 3: (a) FPR and (b) TPR vs score, per fold.

    Returns
    -------
    array of two matplotlib Axes
    """
    plt = require("matplotlib.pyplot")

    log = check_bool("log", log)
    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(9.6, 3.6), sharex=True)
    plot_rate_vs_score(y_true_folds, y_score_folds, rate="fpr", ax=axes[0], log=log)
    plot_rate_vs_score(y_true_folds, y_score_folds, rate="tpr", ax=axes[1], log=log)
    axes[0].set_title("(a) false positive rate vs score")
    axes[1].set_title("(b) true positive rate vs score")
    return axes


def plot_fold_rocs(y_true_folds, y_score_folds, *, ax=None):
    """Each fold's ROC curve and the merged ROC curve, AUCs in the legend.

    Returns
    -------
    matplotlib Axes
    """
    plt = require("matplotlib.pyplot")

    y_true_folds, y_score_folds = check_fold_lists(y_true_folds, y_score_folds)
    ax = plt.gca() if ax is None else ax
    for i, (t, s) in enumerate(zip(y_true_folds, y_score_folds, strict=True)):
        try:
            fpr, tpr, _ = roc_curve(t, s)
        except (ValueError, TypeError) as err:
            raise in_fold(i, err) from None
        ax.plot(
            fpr * 100,
            tpr * 100,
            color=_FOLD_COLORS[i % len(_FOLD_COLORS)],
            lw=1,
            label=f"fold {i + 1}: AUC {percent(roc_auc(t, s), decimals=1)}",
        )
    t, s = merge_folds(y_true_folds, y_score_folds)  # checked: labels of one kind, integer scores exact
    fpr, tpr, _ = roc_curve(t, s)
    ax.plot(
        fpr * 100, tpr * 100, color="black", lw=2.2, label=f"merged: AUC_merge {percent(roc_auc(t, s), decimals=1)}"
    )
    ax.plot([0, 100], [0, 100], color="grey", lw=0.8, ls=":")
    ax.set(xlabel="False positive rate (%)", ylabel="True positive rate (%)", xlim=(-1, 101), ylim=(-1, 101))
    ax.legend(loc="lower right")
    return ax


# -- interactive explorer --------------------------------------------------------------------------
class CalibrationExplorer(NamedTuple):
    """Parts of :func:`calibration_explorer`; display ``.widget``, set slider values in tests."""

    widget: object  #: the VBox to display
    shifts: list  #: one FloatSlider per fold: shift in decades
    scales: list  #: one FloatLogSlider per fold: scale of log10(score)
    result: object  #: HTML with the AUC table
    plot: object  #: Output holding Figure 3 for the current settings (None without plot)
    study: CalibrationStudy


def _result_html(study: CalibrationStudy, shifts, scales) -> str:
    table = auc_table(study.y_true_folds, study.log_scores(shifts, scales))
    cells = "".join(f"<tr><td>{idx}</td><td>{percent(v, decimals=1)}</td></tr>" for idx, v in table["auc"].items())
    return f"<table><tr><th>fold</th><th>AUC</th></tr>{cells}</table>"


def calibration_explorer(study: CalibrationStudy | None = None, *, plot: bool = True) -> CalibrationExplorer:
    """Sliders for each fold's shift and scale; AUC_avg stays put while AUC_merge moves.

    Parameters
    ----------
    study : CalibrationStudy, optional
        Defaults to :func:`section32_study`; the sliders start at its shifts and scales.
    plot : bool, default True
        Redraw Figure 3 in an Output widget on every change.

    Returns
    -------
    CalibrationExplorer
        ``.result.value`` is an HTML table with each fold's AUC, AUC_avg and
        AUC_merge (rounded to 0.1%), computed by :func:`auc_table`.
    """
    widgets = require("ipywidgets")
    plot = check_bool("plot", plot)
    plt = require("matplotlib.pyplot") if plot else None
    study = section32_study() if study is None else study
    shift_sliders = [
        widgets.FloatSlider(
            value=v,
            min=-2.0,
            max=2.0,
            step=0.05,
            description=f"fold {i + 1} shift",
            readout_format=".2f",
            continuous_update=False,
            style={"description_width": "initial"},
        )
        for i, v in enumerate(study.shifts)
    ]
    scale_sliders = [
        widgets.FloatLogSlider(
            value=v,
            base=10,
            min=-0.6,
            max=0.6,
            step=0.05,
            description=f"fold {i + 1} scale",
            continuous_update=False,
            style={"description_width": "initial"},
        )
        for i, v in enumerate(study.scales)
    ]
    result = widgets.HTML()
    out = widgets.Output() if plot else None

    def update(_=None):
        shifts = [s.value for s in shift_sliders]
        scales = [s.value for s in scale_sliders]
        result.value = _result_html(study, shifts, scales)
        if out is not None and plt is not None:  # both are set when plot is True
            with out:
                out.clear_output(wait=True)
                fig, axes = plt.subplots(1, 2, figsize=(9.6, 3.2), sharex=True)
                plot_figure3(study.y_true_folds, study.scores(shifts, scales), axes=axes)
                plt.show()
                plt.close(fig)

    for s in shift_sliders + scale_sliders:
        s.observe(update, names="value")
    update()
    controls = widgets.HBox([widgets.VBox(shift_sliders), widgets.VBox(scale_sliders), result])
    box = widgets.VBox([controls] + ([out] if out is not None else []))
    return CalibrationExplorer(box, shift_sliders, scale_sliders, result, out, study)
