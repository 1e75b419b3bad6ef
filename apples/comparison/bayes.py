"""Bayesian comparisons of two models (Benavoli et al. 2017): on one data set's folds, and over data sets.

Instead of a p-value, the posterior probabilities that model A is practically worse, equivalent
(within the region of practical equivalence, the rope) or better:

- :func:`bayesian_correlated_t`: the correlated t over the folds of one data set (Corani & Benavoli
  2015), exact from Student's t;
- :func:`bayesian_signed_rank`: the Bayesian signed-rank test over N data sets (Benavoli et al. 2014;
  2017, §4), a Dirichlet-process posterior over the per-data-set mean differences, by Monte Carlo.

baycomp's hierarchical test (Corani et al. 2017) needs pystan, which is not importable here: it is
not offered; the signed-rank test is the across-data-sets test.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from apples._kernels.comparison import (
    correlated_t_probabilities,
    design_rho,
    posterior_winners,
    signed_rank_posterior,
)
from apples._params import (
    MAX_EXACT_INT,
    SEED,
    Instance,
    Integer,
    Kind,
    Nullable,
    ParameterValueError,
    Policy,
    Real,
    Size,
    Undefined,
    UndefinedMetricError,
    check_real_array,
    declare,
)
from apples.comparison._bayes_text import (
    correlated_html,
    correlated_latex,
    correlated_text,
    signed_rank_html,
    signed_rank_latex,
    signed_rank_text,
)
from apples.comparison._render import LATEX_LABEL
from apples.intervals.cv_scores import FOLD_SCORES

__all__ = [
    "BayesianComparison",
    "BayesianSignedRank",
    "bayesian_correlated_t",
    "bayesian_signed_rank",
]

_CAPTION = Nullable(Instance(str, hint="the table's caption"))


class BayesianComparison(NamedTuple):
    """Posterior probabilities of the mean difference δ = A − B, and the Student t posterior they come from.

    ``str(r)`` reads them in words (and whether one passes 0.95), a notebook shows HTML, ``r.to_latex()``
    a table for a paper.
    """

    p_left: float  #: P(δ < −rope): B practically better
    p_rope: float  #: P(−rope ≤ δ ≤ rope): practically equivalent
    p_right: float  #: P(δ > rope): A practically better
    loc: float  #: the posterior's location, the mean difference
    scale: float  #: its scale, √((1/J + ρ/(1 − ρ))·σ̂²)
    df: int  #: J − 1
    rho: float  #: the correlation of two fold differences: 1/k for k-fold, n_test/(n_train + n_test)
    rope: float = math.nan  #: the half-width of the region of practical equivalence
    names: tuple[str, str] = ("A", "B")  #: the two models, A and B

    def __str__(self) -> str:
        return correlated_text(self)

    def _repr_html_(self) -> str:
        return correlated_html(self)

    @declare(caption=_CAPTION, label=Nullable(LATEX_LABEL))
    def to_latex(self, *, caption: str | None = None, label: str | None = None) -> str:
        """A booktabs table of the three posterior probabilities, the posterior in the caption."""
        return correlated_latex(self, caption, label)


class BayesianSignedRank(NamedTuple):
    """The Bayesian signed-rank test over data sets: how often each of left, rope, right is the most probable.

    ``str(r)`` reads it in words with its Monte Carlo error, a notebook shows HTML, ``r.to_latex()``
    a table for a paper.
    """

    p_left: float  #: the share of posterior samples where θ_left (B practically better) is the largest
    p_rope: float  #: ... where θ_rope (practically equivalent) is the largest
    p_right: float  #: ... where θ_right (A practically better) is the largest
    rope: float  #: the half-width of the region of practical equivalence
    prior_strength: float  #: the Dirichlet process's prior weight s, on a pseudo-observation at 0
    n_datasets: int  #: N, the per-data-set differences
    n_samples: int  #: Monte Carlo samples of the posterior
    seed: int | None  #: the seed they were drawn with (None: a Generator was passed)
    names: tuple[str, str] = ("A", "B")  #: the two models, A and B

    def monte_carlo_se(self) -> float:
        """The largest Monte Carlo standard error of the three shares, ``√(p(1 − p)/n_samples)`` (at most
        ``0.5/√n_samples``)."""
        return max(math.sqrt(p * (1 - p) / self.n_samples) for p in (self.p_left, self.p_rope, self.p_right))

    def __str__(self) -> str:
        return signed_rank_text(self)

    def _repr_html_(self) -> str:
        return signed_rank_html(self)

    @declare(caption=_CAPTION, label=Nullable(LATEX_LABEL))
    def to_latex(self, *, caption: str | None = None, label: str | None = None) -> str:
        """A booktabs table of the three probabilities, the test and its Monte Carlo error in the notes."""
        return signed_rank_latex(self, caption, label)


class _PairNames(Kind):
    what = "two distinct names (non-empty strings): model A, then model B"

    def check(self, name: str, value: object) -> tuple[str, str]:
        if isinstance(value, str) or not isinstance(value, Sequence):
            raise TypeError(f"{name} must be {self.what}, got {type(value).__name__}")
        items = list(value)
        if len(items) != 2 or not all(isinstance(v, str) and v for v in items) or items[0] == items[1]:
            raise ValueError(f"{name} must be {self.what}, got {items!r}")
        return items[0], items[1]


class _DatasetDiffs(Kind):
    what = "per-data-set differences A − B: a one-dimensional array of at least two finite reals"

    def check(self, name: str, value: object) -> np.ndarray:
        d = check_real_array(name, value, finite=True)
        if d.ndim != 1 or d.size < 2:
            raise ValueError(f"{name} must be {self.what}, got shape {d.shape}")
        return d


_NAMES = Nullable(_PairNames())
#: A mean number of training or test cases: a positive real (10-fold on 569 cases: 512.1 and 56.9).
_MEAN_CASES = Real(0.0, float(MAX_EXACT_INT), low_inclusive=False)


@declare(
    diffs=FOLD_SCORES,
    rope=Real(0.0, None),
    n_train=Nullable(_MEAN_CASES),
    n_test=Nullable(_MEAN_CASES),
    n_folds=Nullable(Integer(2, MAX_EXACT_INT)),
    names=_NAMES,
    undefined=Undefined("raise", "nan"),
)
def bayesian_correlated_t(
    diffs: ArrayLike,
    *,
    rope: float,
    n_train: float | None = None,
    n_test: float | None = None,
    n_folds: int | None = None,
    names: Sequence[str] | None = None,
    undefined: Policy = "raise",
) -> BayesianComparison:
    """The Bayesian correlated t test of per-fold differences A − B (Corani & Benavoli 2015).

    The J differences (one per fold and repeat) are modelled as correlated normals with correlation
    ρ between any two; with a flat prior the posterior of the mean difference δ is Student's t with
    J − 1 degrees of freedom, location d̄ and scale ``√((1/J + ρ/(1 − ρ))·σ̂²)`` (Benavoli et al.
    2017, §3.1, eq. (4); Corani & Benavoli 2015, Theorem 1). The three probabilities are exact values
    of that t (``scipy.stats.t``), not samples.

    ρ comes from the design, exactly: ``n_folds=k`` (k-fold cross-validation, repeated or not) gives
    ``ρ = 1/k``, as baycomp's ``CorrelatedTTest`` uses; otherwise ``ρ = n_test/(n_train + n_test)``
    from the mean training and test sizes, real numbers (10-fold on 569 cases: 512.1 and 56.9, so
    ρ = 0.1; rounding them to whole cases gives 0.1002 or 0.0984).

    Parameters
    ----------
    diffs : array-like of shape (J,) or (r, k)
        The per-fold differences of a score, model A minus model B.
    rope : float
        Half-width of the region of practical equivalence (0.01 for one accuracy point); 0 allowed.
    n_train, n_test : float, optional
        Mean cases per training set and per test fold (both, or neither and ``n_folds``).
    n_folds : int, optional
        k of k-fold cross-validation: ρ = 1/k.
    names : pair of str, optional
        Model A's and model B's names, for the printed result (default ``("A", "B")``).
    undefined : {"raise", "nan"}, default "raise"
        Every difference the same: the sample variance is 0 and the posterior's scale 0/0 (no
        uncertainty can be estimated). Raise :class:`~apples.UndefinedMetricError`, or NaN probabilities.
        (``baycomp`` puts the whole mass on d̄ instead.)

    Returns
    -------
    BayesianComparison
        ``p_left + p_rope + p_right = 1``; ``str()`` in words, HTML in a notebook, ``to_latex()``.

    See Also
    --------
    bayesian_signed_rank : the same question over several data sets.

    References
    ----------
    Corani, G. & Benavoli, A. (2015). A Bayesian approach for comparing cross-validated algorithms on
    multiple data sets. Machine Learning 100, 285–304, §3. Benavoli, A., Corani, G., Demšar, J. &
    Zaffalon, M. (2017). Time for a change: a tutorial for comparing multiple classifiers through
    Bayesian analysis. JMLR 18(77), 1–36, §3.1. Nadeau & Bengio (2003) §4 for ρ.

    Examples
    --------
    >>> from apples.comparison import bayesian_correlated_t
    >>> r = bayesian_correlated_t([0.05, 0.0, 0.1, 0.05, 0.05], rope=0.01, n_folds=5)  # as baycomp
    >>> round(r.p_left, 4), round(r.p_rope, 4), round(r.p_right, 4), r.rho
    (0.0323, 0.0511, 0.9165, 0.2)
    """
    if n_folds is not None:
        if n_train is not None or n_test is not None:
            raise ParameterValueError(
                "give the design once: n_folds (k-fold, ρ = 1/k), or n_train and n_test (ρ = n_test/(n_train + "
                "n_test)), not both",
                param="n_folds",
            )
        rho = design_rho(n_folds=n_folds)
    elif n_train is None or n_test is None:
        missing = "n_folds" if n_train is None and n_test is None else ("n_train" if n_train is None else "n_test")
        raise ParameterValueError(
            "the correlation ρ of the fold differences needs the design: n_folds=k (k-fold, ρ = 1/k), or the mean "
            f"n_train and n_test; {missing} is missing",
            param=missing,
        )
    else:
        rho = design_rho(n_train=n_train, n_test=n_test)
    pair = ("A", "B") if names is None else (names[0], names[1])
    r = correlated_t_probabilities(np.asarray(diffs, dtype=float), rho, rope)
    post = r.posterior
    if post.scale == 0.0 and undefined == "raise":
        raise UndefinedMetricError(
            f"the correlated t posterior is undefined: every difference is {post.loc!r}, so the sample variance "
            "is 0 and no uncertainty can be estimated; pass undefined='nan' to get NaN"
        )
    return BayesianComparison(r.p_left, r.p_rope, r.p_right, post.loc, post.scale, post.df, rho, rope, pair)


#: Posterior samples drawn per block: the blocks' arrays stay near 32 MB whatever N and n_samples.
_BLOCK_VALUES = 2**22


@declare(
    diffs=_DatasetDiffs(),
    rope=Real(0.0, None),
    seed=SEED,
    prior_strength=Real(0.0, None, low_inclusive=False),
    n_samples=Size(bytes_each=24, table="the posterior samples (three probabilities each)"),
    names=_NAMES,
)
def bayesian_signed_rank(
    diffs: ArrayLike,
    *,
    rope: float,
    seed: int | np.random.Generator = 0,
    prior_strength: float = 0.5,
    n_samples: int = 50_000,
    names: Sequence[str] | None = None,
) -> BayesianSignedRank:
    """The Bayesian signed-rank test of two models over N data sets (Benavoli et al. 2014; 2017, §4).

    The N per-data-set differences ``z_i`` (mean score of A minus mean score of B on data set i) are
    modelled by a Dirichlet process with prior strength s on a pseudo-observation ``z_0 = 0``; its
    posterior weights are ``w ~ Dirichlet(s, 1, ..., 1)``. Each draw gives
    ``θ_right = Σ_i Σ_j w_i w_j [z_i + z_j > 2·rope]`` (the probability that the Walsh average of
    two differences falls right of the rope), ``θ_left`` likewise below ``−2·rope``, and
    ``θ_rope = 1 − θ_left − θ_right``; an equality counts 1/2. The result is the share of draws in
    which each θ is the largest, as baycomp's ``SignedRankTest`` reports it (an exact tie splits the
    draw: baycomp gives it to the left, which makes ``P(left) = 1`` when every difference is 0 and the
    rope 0).

    The draws are Monte Carlo: two seeds differ by about ``0.5/√n_samples`` (0.0022 for 50,000);
    ``monte_carlo_se()`` gives it. Cost: O(N²) once, then O(N) per draw, in blocks of bounded memory.

    baycomp's hierarchical test (Corani et al. 2017, Machine Learning 106) models the folds of each
    data set too, but needs pystan (Stan), which is not importable in this environment; it is not
    offered. This signed-rank test is the test over data sets.

    Parameters
    ----------
    diffs : array-like of shape (N,)
        Per data set, model A's mean score minus model B's (any sampling, not only cross-validation).
        For a loss, pass B − A so that "right" still means A is better, or read the sides reversed.
    rope : float
        Half-width of the region of practical equivalence (0.01 for one accuracy point); 0 allowed:
        then ``p_rope = 0``.
    seed : int or numpy.random.Generator, default 0
        The draws' seed (one Generator, so the result does not depend on the block size).
    prior_strength : float, default 0.5
        s, baycomp's ``prior`` (Benavoli et al. 2017 use 0.5 and a pseudo-observation at 0).
    n_samples : int, default 50000
        Posterior draws (baycomp's ``nsamples``).
    names : pair of str, optional
        Model A's and model B's names for the printed result.

    Returns
    -------
    BayesianSignedRank
        ``p_left + p_rope + p_right = 1``; ``str()`` in words, HTML in a notebook, ``to_latex()``.

    References
    ----------
    Benavoli, A., Corani, G., Mangili, F., Zaffalon, M. & Ruggeri, F. (2014). A Bayesian Wilcoxon
    signed-rank test based on the Dirichlet process. ICML, PMLR 32(2), 1026–1034. Benavoli, A., Corani,
    G., Demšar, J. & Zaffalon, M. (2017). Time for a change. JMLR 18(77), 1–36, §4.

    Examples
    --------
    >>> from apples.comparison import bayesian_signed_rank
    >>> d = [0.021, 0.013, 0.030, 0.008, -0.004, 0.017, 0.025]
    >>> r = bayesian_signed_rank(d, rope=0.01, seed=0, n_samples=20_000)
    >>> r.p_right > 0.8, round(r.p_left + r.p_rope + r.p_right, 12)
    (True, 1.0)
    """
    z = np.concatenate([[0.0], np.asarray(diffs, dtype=float)])
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    alpha = np.concatenate([[prior_strength], np.ones(z.size - 1)])
    block = max(1, _BLOCK_VALUES // z.size)
    wins = np.zeros(3)
    done = 0
    while done < n_samples:
        size = min(block, n_samples - done)
        gamma = rng.standard_gamma(alpha, size=(size, z.size))  # Dirichlet draws: normalised Gamma(α_i, 1)
        weights = gamma / gamma.sum(axis=1, keepdims=True)
        wins += posterior_winners(signed_rank_posterior(z, weights, rope))
        done += size
    p = wins / n_samples
    pair = ("A", "B") if names is None else (names[0], names[1])
    return BayesianSignedRank(
        float(p[0]),
        float(p[1]),
        float(p[2]),
        rope,
        prior_strength,
        z.size - 1,
        n_samples,
        None if isinstance(seed, np.random.Generator) else int(seed),
        pair,
    )
