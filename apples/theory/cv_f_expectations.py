"""Exact expectations behind the F-measure bias simulation (Forman & Scholz §4).

Introduced in notebook 03. Forman & Scholz (§4.1) call the bias "a hard
problem" to quantify analytically and simulate instead. For two of the five
methods no simulation is needed: their expectation (and standard deviation)
is a finite sum over binomial and hypergeometric probabilities.

* ``tp_fp``: F_tp,fp = 2·TP / (TP + FP + n_pos) depends only on the pooled
  TP and FP. Given the fold allocation, fold ``i`` has
  ``TP_i ~ Binomial(p_i, re)`` and ``FP_i ~ Binomial(m − p_i, fpr)``, all
  independent; a sum of independent binomials with the *same* success
  probability is binomial in the summed number of trials (a Binomial(n, q)
  is a sum of n independent Bernoulli(q), so the sum of such sums is a sum of
  Σn Bernoulli(q)). So pooled ``TP ~ Binomial(n_pos, re)`` and
  ``FP ~ Binomial(n_neg, fpr)``, independent, whatever the allocation: the
  distribution of F_tp,fp is the *same* stratified and unstratified (for
  unstratified, because the conditional law does not depend on the random
  allocation).
* ``avg``: F_avg is a mean of per-fold F (with F := 0 on invalid folds, which
  eq. 2 gives anyway), so its expectation is the mean of per-fold
  expectations. Stratified: folds are independent with ``⌊n_pos/k⌋`` or
  ``⌈n_pos/k⌉`` positives. Unstratified: every fold's positives are
  Hypergeometric(n_cases, n_pos, m) (the partition is exchangeable), and two
  folds' positives are jointly (bivariate) hypergeometric, which gives the
  covariance between folds and hence the exact variance.

The other three methods are non-linear in the fold counts (ratios of sums, or
conditional on the number of valid folds) and are left to
:func:`apples.studies.forman_scholz.simulate_cv_f`.

References
----------
Forman, G. & Scholz, M. (2010), §2.3, §4.1–4.3 and Figure 9.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import pandas as pd

from apples._kernels.fold_model import (
    avg_moments,
    binomial_law,
    design_counts,
    inclusion_exclusion_bits,
    tp_fp_moments,
)
from apples._kernels.fold_model import (
    p_fold_without_positives as _p_fold_without_positives,
)
from apples._params import (
    COUNT,
    FLAG,
    MAX_EXACT_INT,
    Integer,
    Kind,
    Options,
    ParameterValueError,
    check_choice,
    check_table_size,
    declare,
)
from apples.cv.aggregations import F_AGGREGATIONS
from apples.theory.fold_model import (
    DESIGN,
    EQUAL_FOLDS,
    F_TRUE,
    N_FOLDS,
    PRIOR,
    SimulationDesign,
    check_points,
    outcome_tables,
)

__all__ = [
    "EXACT_METHODS",
    "exact_cv_f",
    "exact_grid",
    "p_fold_without_positives",
]

#: Methods whose expectation :func:`exact_cv_f` sums exactly.
EXACT_METHODS: tuple[str, ...] = ("tp_fp", "avg")

#: Largest total size, in bits, of the integers :func:`p_fold_without_positives` sums exactly
#: (binomial coefficients C(k, j) and C(n_cases − j·m, n_pos) over the terms). Exact big-integer
#: binomials cost about n_bits**1.9: 10**5 bits take 0.3 s, 10**6 bits 25 s.
MAX_EXACT_BITS = 500_000


class _ExactMethod(Kind):
    """A method of :data:`EXACT_METHODS`; the other F aggregations are named as having no exact sum."""

    what = "one of 'tp_fp', 'avg'"

    def check(self, name: str, value: object) -> str:
        if isinstance(value, str) and value in F_AGGREGATIONS and value not in EXACT_METHODS:
            raise ValueError(
                f"{name}={value!r} has no exact sum here (it is non-linear in the fold counts); "
                f"exact_cv_f supports {EXACT_METHODS}; use apples.studies.forman_scholz.simulate_cv_f for {value!r}"
            )
        return check_choice(name, value, EXACT_METHODS)


class _Points(Kind):
    """A table of §4.2 design points: columns ``prior``, ``f_true``, ``stratified``, each row a valid point.

    Becomes a new DataFrame of those three columns holding the checked values (floats and bools), each
    checked by the kind of :func:`exact_cv_f`'s parameter of that name and the design rules, with the
    default ``n_cases=1000`` and ``n_folds=10``.
    """

    what = "a DataFrame with columns prior, f_true and stratified"

    def check(self, name: str, value: object) -> pd.DataFrame:
        frame = check_points(value)
        rows = []
        row: Any  # a row of the caller's table, whose values are checked here (float("0.1") would pass anything)
        for i, row in enumerate(frame[["prior", "f_true", "stratified"]].itertuples(index=False)):
            where = f" (row {i} of {name})"
            try:
                point = {
                    "prior": PRIOR.check("prior", row.prior),
                    "f_true": F_TRUE.check("f_true", row.f_true),
                    "stratified": FLAG.check("stratified", row.stratified),
                    "n_cases": 1000,
                    "n_folds": 10,
                }
                DESIGN.check(point)
            except TypeError as err:
                raise TypeError(f"{err}{where}") from None
            except ValueError as err:
                raise ValueError(f"{err}{where}") from None
            rows.append(point)
        return pd.DataFrame(rows, columns=["prior", "f_true", "stratified"])


_N_TRIALS = Integer(1, MAX_EXACT_INT)


def _tp_fp_moments(design: SimulationDesign) -> tuple[float, float]:
    # counts, pmfs and masks of every TP and FP value: about 48 bytes per case
    check_table_size(
        f"the binomial laws of TP and FP over {design.n_cases:,} cases", 48 * (design.n_cases + 2), reduce="n_cases"
    )
    tp_law, fp_law = binomial_law(design.n_pos, design.recall), binomial_law(design.n_neg, design.fpr)
    check_table_size(
        f"the sum of F_tp,fp over {tp_law[0].size:,} × {fp_law[0].size:,} (TP, FP) outcomes",
        32 * tp_law[0].size * fp_law[0].size,
        reduce="n_cases",
    )
    return tp_fp_moments(design.n_pos, tp_law, fp_law)


def _avg_moments(design: SimulationDesign, stratified: bool) -> tuple[float, float]:
    tables = outcome_tables(design, stratified)
    if not stratified:
        types = int(tables.ps.max()) + 1
        check_table_size(
            f"the joint law of two folds' positives ({types:,} × {types:,} values)",
            100 * types * types,
            reduce="the fold size n_cases / n_folds, or use stratified=True",
        )
    return avg_moments(
        tables,
        n_cases=design.n_cases,
        n_pos=design.n_pos,
        n_folds=design.n_folds,
        fold_size=design.fold_size,
        stratified=stratified,
    )


def _moments(design: SimulationDesign, stratified: bool, method: str) -> tuple[float, float]:
    """E[F] and E[F²] of F_tp,fp or F_avg in the design."""
    return _tp_fp_moments(design) if method == "tp_fp" else _avg_moments(design, stratified)


def _design(prior: float, f_true: float, n_cases: int, n_folds: int) -> SimulationDesign:
    """The §4.2 design of a checked point (the rules of DESIGN hold)."""
    n_pos, n_neg, fpr = design_counts(prior, f_true, n_cases)
    return SimulationDesign(n_cases, n_folds, n_cases // n_folds, n_pos, n_neg, f_true, f_true, fpr)


@declare(
    prior=PRIOR,
    f_true=F_TRUE,
    stratified=FLAG,
    method=_ExactMethod(),
    n_cases=COUNT,
    n_folds=N_FOLDS,
    statistic=Options("mean", "std"),
    relations=[DESIGN],
)
def exact_cv_f(
    prior: float,
    f_true: float,
    *,
    stratified: bool,
    method: str,
    n_cases: int = 1000,
    n_folds: int = 10,
    statistic: Literal["mean", "std"] = "mean",
) -> float:
    """Exact expectation (or standard deviation) of a cross-validated F in the §4.2 simulation.

    Same model as :func:`apples.studies.forman_scholz.simulate_cv_f`: ``round(prior · n_cases)``
    positives in ``n_folds`` equal folds, a classifier with ground-truth
    precision = recall = ``f_true``. The result is a finite sum over binomial
    (and, unstratified, hypergeometric) probabilities; no sampling.

    Parameters
    ----------
    prior, f_true : float
        Class prior in (0, 1) and ground-truth F in (0, 1].
    stratified : bool
        Stratified or unstratified folds (irrelevant for ``"tp_fp"``, whose
        distribution is the same either way; see the module docstring).
    method : {"tp_fp", "avg"}
        F_tp,fp or F_avg (zero substitution). The other methods of
        the keys of :data:`apples.cv.F_AGGREGATIONS` are non-linear in the folds and are rejected.
    n_cases : int, default 1000
    n_folds : int, default 10
        Must divide ``n_cases``.
    statistic : {"mean", "std"}, default "mean"
        The expectation, or the standard deviation over repetitions.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        For a bad design (see :func:`apples.theory.simulation_design`), an unknown
        method or one without an exact sum here, or an unknown statistic.

    References
    ----------
    Forman & Scholz (2010), §2.3 (F_avg, F_tp,fp), §4.2 (the simulation).

    Examples
    --------
    At 1% positives and F = 80%, F_tp,fp is almost unbiased and F_avg is not:

    >>> from apples.theory import exact_cv_f
    >>> round(exact_cv_f(0.01, 0.8, stratified=True, method="tp_fp"), 4)
    0.7988
    >>> round(exact_cv_f(0.01, 0.8, stratified=True, method="avg"), 4)
    0.7492
    """
    mean, second = _moments(_design(prior, f_true, n_cases, n_folds), stratified, method)
    if statistic == "mean":
        return mean
    return math.sqrt(max(second - mean * mean, 0.0))


@declare(points=_Points())
def exact_grid(points: pd.DataFrame) -> pd.DataFrame:
    """:func:`exact_cv_f` (mean and standard deviation) at every point of a grid, as one long table.

    The exact counterpart of :func:`apples.studies.forman_scholz.simulate_grid`, for the methods of
    ``EXACT_METHODS``: merge the two on ``prior``, ``f_true``, ``stratified``
    and ``method`` to set simulation against exact sum.

    Parameters
    ----------
    points : DataFrame
        Columns ``prior``, ``f_true``, ``stratified`` (e.g. :func:`apples.studies.forman_scholz.figure_grid`);
        the default ``n_cases=1000`` and ``n_folds=10``.

    Returns
    -------
    DataFrame
        One row per point and method of ``EXACT_METHODS``: ``prior``,
        ``f_true``, ``stratified``, ``method``, ``exact_mean`` and ``exact_std``.

    Examples
    --------
    >>> import pandas as pd
    >>> from apples.theory import exact_grid
    >>> g = exact_grid(pd.DataFrame({"prior": [0.01], "f_true": [0.8], "stratified": [True]}))
    >>> g["method"].tolist(), g["exact_mean"].round(4).tolist()
    (['tp_fp', 'avg'], [0.7988, 0.7492])
    """
    rows = []
    for prior, f_true, stratified in points.itertuples(index=False):  # checked values (_Points)
        design = _design(prior, f_true, 1000, 10)
        for method in EXACT_METHODS:
            mean, second = _moments(design, stratified, method)
            rows.append(
                {
                    "prior": prior,
                    "f_true": f_true,
                    "stratified": stratified,
                    "method": method,
                    "exact_mean": mean,
                    "exact_std": math.sqrt(max(second - mean * mean, 0.0)),
                }
            )
    return pd.DataFrame(rows, columns=["prior", "f_true", "stratified", "method", "exact_mean", "exact_std"])


@declare(n_pos=COUNT, n_cases=COUNT, n_folds=N_FOLDS, n_trials=_N_TRIALS, relations=[EQUAL_FOLDS])
def p_fold_without_positives(n_pos: int, *, n_cases: int = 1000, n_folds: int = 10, n_trials: int = 1) -> float:
    """Probability that some fold of an unstratified CV has no positives (Forman & Scholz Fig. 9).

    For one uniformly random partition of ``n_cases`` cases into ``n_folds``
    equal folds of ``m`` cases, by inclusion–exclusion over the set ``J`` of
    folds that are empty of positives (all positives then lie among the other
    ``n_cases − |J|·m`` cases)::

        P₁ = Σ_{j=1..k} (−1)^(j+1) · C(k, j) · C(n_cases − j·m, n_pos) / C(n_cases, n_pos)

    summed in exact integer arithmetic (no cancellation error). Over
    ``n_trials`` independent trials (classes, data sets, or re-splits), the
    probability of it happening at least once is ``1 − (1 − P₁)^n_trials``.

    Parameters
    ----------
    n_pos : int
        Positives, ``0 <= n_pos <= n_cases``.
    n_cases : int, default 1000
    n_folds : int, default 10
        Must divide ``n_cases``.
    n_trials : int, default 1
        Independent trials (the paper's second curve: 1000).

    Returns
    -------
    float
        1 when ``n_pos < n_folds`` (a fold must be empty) and when
        ``n_pos == 0``; 0 when ``n_pos > n_cases − m`` (every fold has one).

    Raises
    ------
    ValueError
        Besides bad arguments: when the exact integers of the sum would
        exceed :data:`MAX_EXACT_BITS` bits in all (e.g. 500,000 positives in
        1,000,000 cases); the bound is estimated before any is computed.

    Examples
    --------
    >>> from apples.theory import p_fold_without_positives
    >>> p_fold_without_positives(5), p_fold_without_positives(0)
    (1.0, 1.0)
    >>> round(p_fold_without_positives(10), 4)      # 10 positives in 10 folds of 100
    0.9996
    >>> round(p_fold_without_positives(100, n_trials=1000), 3)
    0.137
    """
    if n_pos > n_cases:
        raise ParameterValueError(f"n_pos={n_pos} is larger than n_cases={n_cases}", param="n_pos")
    if n_folds <= n_pos <= n_cases - n_cases // n_folds:  # otherwise the answer is 1 or 0, without a sum
        terms, bits = inclusion_exclusion_bits(n_pos, n_cases, n_folds)
        if terms > 10**6 or bits > MAX_EXACT_BITS:
            raise ParameterValueError(
                f"the exact inclusion-exclusion sum for n_pos={n_pos:,}, n_cases={n_cases:,}, n_folds={n_folds:,} "
                f"has {terms:,} terms of about {bits:.3g} bits in all; the limit is MAX_EXACT_BITS = "
                f"{MAX_EXACT_BITS:,} bits (about 10 s): reduce n_cases or n_pos",
                param="n_pos",
            )
    return _p_fold_without_positives(n_pos, n_cases, n_folds, n_trials)
