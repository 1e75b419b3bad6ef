"""A learner on the binormal model, cross-validated: its fold models and a simulated study.

Introduced in notebook 11 (the coverage of the report's intervals). A study of ``n_cases`` cases
is cross-validated with ``n_folds`` folds, ``n_repeats`` times (each repeat re-splits the same
cases). Every fold model (repeat r, fold f) is the learning algorithm trained on that fold's
training set; the training set changes the model through its *separation*

    δ_rf = δ₀ + τ (√ρ·g + √(1 − ρ)·e_rf),   g, e_rf independent N(0, 1),

with g shared by the whole study (the cases every training set has in common) and
ρ = 1/(k − 1) = n_test/n_train. That is Nadeau & Bengio's (2003, §4) ρ/(1 − ρ), not their ρ = n_test/n
= 1/k: the fold models are a little more correlated than the corrected t's factor 1/J + n_test/n_train
assumes (1/J + 1/(k − 2) would be exact for the part of the variance that comes from training), so with
τ > 0 its interval is built to cover a little less than it states, most with five folds (notebook 11,
A.2). The stored coverage table rests on this ρ. Marginally δ ~ N(δ₀, τ²); τ = 0 is a fixed classifier.

Each case i has a label and a latent noise z_i drawn once, so a case keeps its noise across the
repeats while its fold model changes:

* ``"binary"`` (prior π): scores s = δ·y + z, the binormal model with unit variances; the fold
  model's calibrated posterior is p = σ(ℓ), ℓ = δ·s − δ²/2 + λ, λ = log(π/(1 − π)) (the posterior
  of N(δ, 1) against N(0, 1), a logistic in s); it predicts positive where p > 1/2 (the Bayes
  rule for equal costs, so the threshold moves with the model) and reports p as ``y_score``.
  Optional class weights: each positive weighs ``pos_weight``, each negative 1.
* ``"multiclass"`` (priors π_c): z is a vector of K standard normals, s = δ·e_y + z; the model's
  class scores are ℓ_c = δ·s_c − δ²/2 + log π_c (the log posterior up to a constant, as a linear
  discriminant's ``decision_function``), ``y_score``; it predicts the largest.
* ``"multilabel"`` (label priors π_l): each label l is present with probability π_l, independently,
  and scored as a binary task of its own with the fold model's δ; ``y_score`` the posteriors.

Class-conditionally ℓ is normal: N(λ + δ²/2, δ²) for a positive, N(λ − δ²/2, δ²) for a negative, so
every value of :func:`apples.report` depends on a fold model through a = |δ| only (a model whose δ
is negative is calibrated too: its posterior knows the sign). The truths each cross-validated
value targets are in :mod:`apples.theory.cv_truths`.

Binary and multi-class folds are stratified (each class's cases dealt round the folds in a random
order, as scikit-learn's ``StratifiedKFold`` does), with ``round(π·n)`` cases of each class (the
rounding of a multi-class split by largest remainder), and the posterior uses those proportions;
multi-label folds are plain ``KFold`` splits of a random order, the posterior the priors given.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Literal, NamedTuple

import numpy as np
from scipy import special

from apples._params import (
    MAX_EXACT_INT,
    SEED,
    Integer,
    Kind,
    Options,
    ParameterValueError,
    Real,
    Relation,
    check_real,
    check_table_size,
    declare,
)
from apples.cv.predictions import CVPredictions

__all__ = [
    "LEARNER_TASKS",
    "simulate_learner_cv",
]

#: The tasks of the learner: binary, multi-class (single label), multi-label.
LEARNER_TASKS: tuple[str, ...] = ("binary", "multiclass", "multilabel")
#: Bytes per row and label of a simulated study while it is built (scores, codes, ids, temporaries).
_BYTES_PER_CELL = 96
#: The smallest prior (and weighted share of positives) the learner takes: the H-measure's Beta(2, 1 + 1/r) prior
#: is integrated by Gauss–Jacobi up to 1/r = 999.
_LOW = 0.001


class _Prior(Kind):
    """A class prior in [0.001, 0.999], or a sequence of them (multi-class: summing to 1)."""

    what = "a real number in [0.001, 0.999], or a sequence of them"

    def check(self, name: str, value: object) -> float | tuple[float, ...]:
        if isinstance(value, (str, bytes, Mapping)):
            raise TypeError(f"{name} must be {self.what}, got {type(value).__name__}")
        if isinstance(value, (Sequence, np.ndarray)):
            values = list(value) if not isinstance(value, np.ndarray) else value.tolist()
            if not values:
                raise ValueError(f"{name} is empty; it must be {self.what}")
            return tuple(check_real(f"{name}[{i}]", v, low=_LOW, high=1.0 - _LOW) for i, v in enumerate(values))
        return check_real(name, value, low=_LOW, high=1.0 - _LOW)


class _PriorOfTask(Relation):
    """Binary: one prior; multi-class: three or more class priors summing to 1; multi-label: two or more label
    priors. Class weights (``pos_weight`` other than 1) are for the binary task."""

    names = ("task", "prior", "pos_weight")

    def check(self, values: Mapping[str, Any]) -> None:
        task, prior = values.get("task", "binary"), values.get("prior")
        if prior is not None:
            check_prior_of_task(task, prior)
        weight = values.get("pos_weight", 1.0)
        if task != "binary" and weight != 1.0:
            raise ParameterValueError(
                f"pos_weight={weight!r} is for the binary task (a weight on each positive); a {task} study is "
                "unweighted: pass pos_weight=1.0",
                param="pos_weight",
            )
        if task == "binary" and isinstance(prior, float):
            share = evaluated_prior(prior, weight)
            if not _LOW <= share <= 1.0 - _LOW:
                raise ParameterValueError(
                    f"pos_weight={weight!r} with prior={prior!r} makes the positives {share:.3g} of the weighted "
                    f"population, outside [{_LOW}, {1 - _LOW}]",
                    param="pos_weight",
                )


def check_prior_of_task(task: str, prior: float | tuple[float, ...]) -> None:
    """The rule of :class:`_PriorOfTask` on one (task, prior) pair (also a row of a settings table)."""
    if task == "binary":
        if isinstance(prior, tuple):
            raise ParameterValueError(
                f"prior must be one number (the positives' share) for a binary task, got {len(prior)} values",
                param="prior",
            )
        return
    if not isinstance(prior, tuple):
        raise ParameterValueError(
            f"prior must be a sequence of {'class' if task == 'multiclass' else 'label'} priors for a {task} task, "
            f"got one number {prior!r}",
            param="prior",
        )
    if task == "multiclass":
        if len(prior) < 3:
            raise ParameterValueError(
                f"prior must give three or more class priors for a multi-class task (two is the binary task), got "
                f"{len(prior)}",
                param="prior",
            )
        if abs(math.fsum(prior) - 1.0) > 1e-9:
            raise ParameterValueError(
                f"prior must sum to 1 for a multi-class task (class priors), it sums to {math.fsum(prior)!r}",
                param="prior",
            )
    elif len(prior) < 2:
        raise ParameterValueError(
            f"prior must give two or more label priors for a multi-label task, got {len(prior)}", param="prior"
        )


TASK = Options(*LEARNER_TASKS)
PRIOR = _Prior()
#: δ₀: the mean separation of a fold model (AUC Φ(δ₀/√2): 0.504 to 1 − 10⁻¹⁸⁰).
DELTA0 = Real(0.01, 40.0)
#: τ: the spread of the fold models' separation over training sets.
TRAINING_SD = Real(0.0, 10.0)
#: The weight of each positive (each negative weighs 1); 1 is unweighted.
POS_WEIGHT = Real(0.001, 1000.0)
PRIOR_OF_TASK = _PriorOfTask()


def class_counts(prior: float | tuple[float, ...], n_cases: int, task: str) -> np.ndarray:
    """Cases per class of a binary or multi-class study: ``round(π·n)`` positives, or the class priors times n
    rounded by largest remainder (summing to n). Binary: (negatives, positives)."""
    if task == "binary":
        assert isinstance(prior, float)
        n_pos = math.floor(prior * n_cases + 0.5)
        return np.array([n_cases - n_pos, n_pos], dtype=np.int64)
    assert isinstance(prior, tuple)
    exact = np.array(prior) * n_cases
    counts = np.floor(exact).astype(np.int64)
    short = n_cases - int(counts.sum())
    counts[np.argsort(-(exact - counts), kind="stable")[:short]] += 1
    return counts


def realised_prior(prior: float | tuple[float, ...], n_cases: int, task: str) -> float | tuple[float, ...]:
    """The class proportions of a simulated study (what its fold models' posteriors use, and what the truths use)."""
    if task == "multilabel":
        return prior
    counts = class_counts(prior, n_cases, task)
    if task == "binary":
        return float(counts[1]) / n_cases
    return tuple(float(c) / n_cases for c in counts)


def evaluated_prior(prior: float, pos_weight: float) -> float:
    """The positives' share of the weighted population: π' = wπ / (wπ + 1 − π)."""
    return pos_weight * prior / (pos_weight * prior + (1.0 - prior))


class Study(NamedTuple):
    """One simulated study: the rows (repeat-major) and the latent draws (for tests)."""

    y: np.ndarray  #: (n,) class codes, or (n, L) 0/1 label indicators
    folds: np.ndarray  #: (r·n,) fold of each row within its repeat
    separation: np.ndarray  #: (r, k) δ of each fold model
    noise: np.ndarray  #: (n,) or (n, K) latent z of each case
    y_pred: np.ndarray  #: (r·n,) or (r·n, L)
    y_score: np.ndarray  #: (r·n,) or (r·n, K or L)
    sample_weight: np.ndarray | None


def _stratified_folds(y: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """Each class's cases, in a random order, dealt round the folds one after the other (class by class)."""
    order = np.concatenate([rng.permutation(np.flatnonzero(y == c)) for c in np.unique(y)])
    folds = np.empty(y.size, dtype=np.int64)
    folds[order] = np.arange(y.size) % k
    return folds


def draw_study(
    task: str,
    prior: float | tuple[float, ...],
    n_cases: int,
    n_folds: int,
    n_repeats: int,
    delta0: float,
    training_sd: float,
    pos_weight: float,
    rng: np.random.Generator,
) -> Study:
    """The arrays of one simulated study (the module docstring), drawn from ``rng`` in a fixed order."""
    n, k, r = n_cases, n_folds, n_repeats
    pi = realised_prior(prior, n, task)
    if task == "multilabel":
        assert isinstance(pi, tuple)
        y = (rng.random((n, len(pi))) < np.array(pi)).astype(np.int64)
        noise = rng.standard_normal(y.shape)
    elif task == "multiclass":
        assert isinstance(pi, tuple)
        y = np.repeat(np.arange(len(pi)), class_counts(prior, n, task))
        noise = rng.standard_normal((n, len(pi)))
    else:
        y = np.repeat(np.array([0, 1]), class_counts(prior, n, task))
        noise = rng.standard_normal(n)
    rho = 1.0 / (k - 1)  # n_test/n_train: Nadeau & Bengio's ρ/(1 − ρ), not their ρ = 1/k (module docstring)
    shared = rng.standard_normal()
    delta = delta0 + training_sd * (math.sqrt(rho) * shared + math.sqrt(1.0 - rho) * rng.standard_normal((r, k)))
    if task == "multilabel":
        folds = np.concatenate([rng.permutation(n) % k for _ in range(r)])
    else:
        folds = np.concatenate([_stratified_folds(y, k, rng) for _ in range(r)])
    d = delta[np.repeat(np.arange(r), n), folds]  # each row's fold model
    if task == "multiclass":
        assert isinstance(pi, tuple)
        s = np.tile(noise, (r, 1))
        s[np.arange(r * n), np.tile(y, r)] += d
        ell = d[:, None] * s - (d * d / 2.0)[:, None] + np.log(np.array(pi))
        return Study(y, folds, delta, noise, ell.argmax(axis=1), ell, None)
    if task == "multilabel":
        assert isinstance(pi, tuple)
        lam = np.log(np.array(pi)) - np.log1p(-np.array(pi))
        s = np.tile(noise, (r, 1)) + d[:, None] * np.tile(y, (r, 1))
        ell = d[:, None] * s - (d * d / 2.0)[:, None] + lam
        return Study(y, folds, delta, noise, (ell > 0).astype(np.int64), special.expit(ell), None)
    assert isinstance(pi, float)
    yy = np.tile(y, r)
    s = d * yy + np.tile(noise, r)
    ell = d * s - d * d / 2.0 + (math.log(pi) - math.log1p(-pi))
    weight = None if pos_weight == 1.0 else np.where(yy == 1, pos_weight, 1.0)
    return Study(y, folds, delta, noise, (ell > 0).astype(np.int64), special.expit(ell), weight)


def study_predictions(study: Study, n_repeats: int) -> CVPredictions:
    """The study's rows as a researcher builds them: ``CVPredictions(y_true, folds=..., repeats=..., cases=...)``."""
    n = study.y.shape[0]
    repeated = n_repeats > 1
    y_true = np.tile(study.y, (n_repeats, 1)) if study.y.ndim == 2 else np.tile(study.y, n_repeats)
    return CVPredictions(
        y_true,
        folds=study.folds,
        y_pred=study.y_pred,
        y_score=study.y_score,
        repeats=np.repeat(np.arange(n_repeats), n) if repeated else None,
        cases=np.tile(np.arange(n), n_repeats) if repeated else None,
        sample_weight=study.sample_weight,
    )


def check_design(
    task: str, prior: float | tuple[float, ...], n_cases: int, n_folds: int, n_repeats: int, *, where: str = ""
) -> None:
    """Enough cases of each class for stratified folds, and a study small enough to build."""
    if task != "multilabel":
        counts = class_counts(prior, n_cases, task)
        if counts.min() < n_folds:
            raise ParameterValueError(
                f"{where}n_cases={n_cases} with prior={prior} gives {counts.tolist()} cases per class, fewer than "
                f"n_folds={n_folds} for some class: a stratified fold would lack it",
                param="n_folds",
            )
    elif n_cases < n_folds:
        raise ParameterValueError(f"{where}n_cases={n_cases} is fewer than n_folds={n_folds}", param="n_folds")
    width = 1 if task == "binary" else len(prior)  # type: ignore[arg-type]
    check_table_size(
        f"{where}a study of {n_cases:,} cases, {n_repeats} repeats and {width} label(s)",
        n_cases * n_repeats * width * _BYTES_PER_CELL,
        reduce="n_cases or n_repeats",
    )


class _Design(Relation):
    names = ("task", "prior", "n_cases", "n_folds", "n_repeats")

    def check(self, values: Mapping[str, Any]) -> None:
        if "prior" in values:
            check_design(
                values.get("task", "binary"),
                values["prior"],
                values["n_cases"],
                values["n_folds"],
                values.get("n_repeats", 1),
            )


@declare(
    task=TASK,
    prior=PRIOR,
    n_cases=Integer(2, MAX_EXACT_INT),
    n_folds=Integer(2, MAX_EXACT_INT),
    n_repeats=Integer(1, MAX_EXACT_INT),
    delta0=DELTA0,
    training_sd=TRAINING_SD,
    pos_weight=POS_WEIGHT,
    seed=SEED,
    relations=[PRIOR_OF_TASK, _Design()],
)
def simulate_learner_cv(
    *,
    task: Literal["binary", "multiclass", "multilabel"] = "binary",
    prior: float | Sequence[float] = 0.5,
    n_cases: int = 200,
    n_folds: int = 5,
    n_repeats: int = 1,
    delta0: float = 1.5,
    training_sd: float = 0.0,
    pos_weight: float = 1.0,
    seed: int | np.random.Generator = 0,
) -> CVPredictions:
    """One simulated cross-validated study of the binormal learner (the module docstring), as CVPredictions.

    Parameters
    ----------
    task : {"binary", "multiclass", "multilabel"}, default "binary"
    prior : float or sequence of float, default 0.5
        Binary: the positives' share π. Multi-class: three or more class priors summing to 1.
        Multi-label: each label's prior (two or more). Each in [0.001, 0.999].
    n_cases : int, default 200
        Cases split; each repeat re-splits the same cases.
    n_folds : int, default 5
        k. Binary and multi-class folds are stratified: each class needs at least k cases.
    n_repeats : int, default 1
        Repeats (r); with more than one, the predictions carry ``repeats`` and ``cases``.
    delta0 : float, default 1.5
        δ₀ in [0.01, 40], the mean separation of a fold model (binary AUC Φ(δ₀/√2) ≈ 0.86 at τ = 0).
    training_sd : float, default 0.0
        τ in [0, 10], the spread of the separation over training sets.
    pos_weight : float, default 1.0
        Binary: the sample weight of every positive (every negative weighs 1), class weights as a
        researcher passes them; 1 gives no ``sample_weight``. In [0.001, 1000], and the positives' weighted
        share π' = wπ/(wπ + 1 − π) in [0.001, 0.999].
    seed : int or numpy.random.Generator, default 0
        The study is a function of the seed alone.

    Returns
    -------
    CVPredictions
        ``y_true``, ``folds`` (and ``repeats``, ``cases`` when repeated), ``y_pred``, ``y_score`` (binary and
        multi-label: the posterior probabilities; multi-class: the class scores ℓ_c) and ``sample_weight``.

    References
    ----------
    Nadeau, C. & Bengio, Y. (2003). Inference for the generalization error. Machine Learning 52, §4 (ρ).

    Examples
    --------
    >>> from apples.theory import simulate_learner_cv
    >>> p = simulate_learner_cv(prior=0.1, n_cases=200, n_folds=5, n_repeats=3, training_sd=0.5, seed=1)
    >>> p.task, p.n_repeats, len(p), int((p.y_true == 1).sum())
    ('binary', 3, 600, 60)
    """
    rng = np.random.default_rng(seed)
    pi: Any = prior
    study = draw_study(task, pi, n_cases, n_folds, n_repeats, delta0, training_sd, pos_weight, rng)
    return study_predictions(study, n_repeats)
