"""The Bayesian correlated t test of two models' fold differences (Corani & Benavoli 2015; Benavoli et al. 2017).

Instead of a p-value, the posterior probabilities that model A is practically worse, equivalent
(within the region of practical equivalence, the rope) or better, computed exactly from Student's t.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from apples._kernels.comparison import correlated_t_posterior, posterior_probabilities
from apples._params import CASES, Policy, Real, Undefined, UndefinedMetricError, declare
from apples.intervals import FOLD_SCORES

__all__ = [
    "BayesianComparison",
    "bayesian_correlated_t",
]


class BayesianComparison(NamedTuple):
    """Posterior probabilities of the mean difference δ = A − B, and the Student t posterior they come from."""

    p_left: float  #: P(δ < −rope): B practically better
    p_rope: float  #: P(−rope ≤ δ ≤ rope): practically equivalent
    p_right: float  #: P(δ > rope): A practically better
    loc: float  #: the posterior's location, the mean difference
    scale: float  #: its scale, √((1/J + ρ/(1 − ρ))·σ̂²)
    df: int  #: J − 1
    rho: float  #: the correlation ρ = n_test/(n_train + n_test)


@declare(
    diffs=FOLD_SCORES,
    rope=Real(0.0, None),
    n_train=CASES,
    n_test=CASES,
    undefined=Undefined("raise", "nan"),
)
def bayesian_correlated_t(
    diffs: ArrayLike, *, rope: float, n_train: int, n_test: int, undefined: Policy = "raise"
) -> BayesianComparison:
    """The Bayesian correlated t test of per-fold differences A − B (Corani & Benavoli 2015).

    The J differences (one per fold and repeat) are modelled as correlated normals with correlation
    ρ between any two; with Nadeau & Bengio's ``ρ = n_test/(n_train + n_test)`` and a flat prior the
    posterior of the mean difference δ is Student's t with J − 1 degrees of freedom, location d̄ and
    scale ``√((1/J + ρ/(1 − ρ))·σ̂²)`` (Benavoli et al. 2017, §3.1, eq. (4); Corani & Benavoli 2015,
    Theorem 1). The three probabilities are exact values of that t (``scipy.stats.t``), not samples.

    Parameters
    ----------
    diffs : array-like of shape (k,) or (r, k)
        The per-fold differences of a score, model A minus model B.
    rope : float
        Half-width of the region of practical equivalence (0.01 for one accuracy point); 0 allowed.
    n_train, n_test : int
        Cases per training set and per test fold (k-fold on n cases: ``n − n/k`` and ``n/k``).
    undefined : {"raise", "nan"}, default "raise"
        Every difference the same: the sample variance is 0 and the posterior's scale 0/0 (no
        uncertainty can be estimated). Raise :class:`~apples.UndefinedMetricError`, or NaN probabilities.
        (``baycomp`` puts the whole mass on d̄ instead.)

    Returns
    -------
    BayesianComparison
        ``p_left + p_rope + p_right = 1``.

    References
    ----------
    Corani, G. & Benavoli, A. (2015). A Bayesian approach for comparing cross-validated algorithms on
    multiple data sets. Machine Learning 100, 285–304, §3. Benavoli, A., Corani, G., Demšar, J. &
    Zaffalon, M. (2017). Time for a change: a tutorial for comparing multiple classifiers through
    Bayesian analysis. JMLR 18(77), 1–36, §3.1. Nadeau & Bengio (2003) §4 for ρ.

    Examples
    --------
    >>> from apples.comparison import bayesian_correlated_t
    >>> r = bayesian_correlated_t([0.05, 0.0, 0.1, 0.05, 0.05], rope=0.01, n_train=400, n_test=100)  # as baycomp
    >>> round(r.p_left, 4), round(r.p_rope, 4), round(r.p_right, 4), r.rho
    (0.0323, 0.0511, 0.9165, 0.2)
    """
    d = np.asarray(diffs, dtype=float).ravel()
    rho = n_test / (n_train + n_test)
    post = correlated_t_posterior(d, rho)
    if post.scale == 0.0:
        if undefined == "raise":
            raise UndefinedMetricError(
                f"the correlated t posterior is undefined: every difference is {post.loc!r}, so the sample variance "
                "is 0 and no uncertainty can be estimated; pass undefined='nan' to get NaN"
            )
        nan = float("nan")
        return BayesianComparison(nan, nan, nan, post.loc, post.scale, post.df, rho)
    left, mid, right = posterior_probabilities(post, rope)
    return BayesianComparison(left, mid, right, post.loc, post.scale, post.df, rho)
