"""The grid of Van Asch (2013) Figure 2: six panels of folds x instances (notebook 04).

:data:`FIGURE2_PANELS` names the panels a-f by their (K, N), :data:`FIGURE2_PROPS`
is the x-axis (0-10 % class A in steps of 0.5 %), and :func:`figure2_curves`
computes every panel with :func:`fold_f1_curve`: exact expectations on the full grid,
simulated means on every other proportion. :func:`fold_f1_readings` gives the expected
F1 of class A under each reading of §7.1 (allocation and error model).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import TypedDict

import numpy as np
import pandas as pd

from apples._params import (
    MAX_EXACT_INT,
    check_choice,
    check_int,
    check_real_array,
    check_seed,
)
from apples.studies.van_asch.fold_size import ERROR_MODELS, exact_fold_f1, simulate_fold_f1
from apples.theory.fold_size import (
    FOLD_F1_AVERAGES,
    FOLD_F1_METHODS,
    VAN_ASCH_RECALL_A,
    VAN_ASCH_RECALL_B,
    corpus_counts,
    theoretical_f1,
)

__all__ = [
    "FIGURE2_PANELS",
    "FIGURE2_PROPS",
    "READINGS",
    "figure2_curves",
    "fold_f1_curve",
    "fold_f1_readings",
]

#: The x-axis of Figure 2: proportions of class A from 0 to 10 % in steps of 0.5 % (21 points).
FIGURE2_PROPS: np.ndarray = np.arange(21) * 0.005
FIGURE2_PROPS.setflags(write=False)

#: The panels of Figure 2 (Van Asch 2013, §7.1): panel letter -> (number of folds K, number of instances N).
FIGURE2_PANELS: Mapping[str, tuple[int, int]] = MappingProxyType(
    {
        "a": (5, 1000),
        "b": (5, 10_000),
        "c": (10, 1000),
        "d": (10, 10_000),
        "e": (50, 1000),
        "f": (50, 10_000),
    }
)


def figure2_curves(
    *,
    props=FIGURE2_PROPS,
    panels: Mapping[str, tuple[int, int]] | None = None,
    allocation: str = "random",
    errors: str = "fixed",
    n_reps: int = 2000,
    seed=4,
) -> dict[str, pd.DataFrame]:
    """Every panel of Van Asch Figure 2: exact curves on ``props``, simulations on every other one.

    For each panel (K, N) this is ``fold_f1_curve(props, n_reps=0)`` (the exact
    expectations and eq. 31) followed, when ``n_reps > 0``, by
    ``fold_f1_curve(props[::2], n_reps=n_reps, seed=seed)`` (simulated means and
    standard errors), concatenated: the input :func:`plot_fold_f1` and
    :func:`plot_fold_f1_grid` expect.

    Parameters
    ----------
    props : array-like of float, default :data:`FIGURE2_PROPS`
        Proportions of class A, in [0, 1].
    panels : mapping str -> (int, int), optional
        Panel letter -> (n_folds, n_instances); :data:`FIGURE2_PANELS` when None.
    allocation : {"random", "stratified", "even"}, default "random"
        How instances are put into folds (see :func:`simulate_fold_counts`).
    errors : {"fixed", "binomial"}, default "fixed"
        Fixed corpus-level accuracies, or independent per-prediction errors.
    n_reps : int, default 2000
        Cross-validations per simulated point; 0 computes the exact curves only.
    seed : int, default 4
        Seed of the simulations (the same for every panel, as in notebook 04).

    Returns
    -------
    dict of str -> pandas.DataFrame
        Panel letter -> the :func:`fold_f1_curve` rows of that panel.

    References
    ----------
    Van Asch (2013), §7.1 and Figure 2 (a-f).

    Examples
    --------
    >>> c = figure2_curves(props=[0.05], panels={"a": (5, 1000)}, n_reps=0)
    >>> list(c), len(c["a"])
    (['a'], 4)
    """
    props = np.atleast_1d(check_real_array("props", props, low=0, high=1))
    n_reps = check_int("n_reps", n_reps, low=0, high=MAX_EXACT_INT)
    seed = check_seed("seed", seed)
    panels = FIGURE2_PANELS if panels is None else panels
    if not isinstance(panels, Mapping):
        raise TypeError(
            f"panels must be a mapping of panel name -> (n_folds, n_instances), got {type(panels).__name__}"
        )
    out = {}
    for key, design in panels.items():
        try:
            k, n = design
        except (TypeError, ValueError):
            raise ValueError(f"panels[{key!r}] must be a pair (n_folds, n_instances), got {design!r}") from None
        exact = fold_f1_curve(props, n_instances=n, n_folds=k, allocation=allocation, errors=errors, n_reps=0)
        if n_reps:
            sim = fold_f1_curve(
                props[::2], n_instances=n, n_folds=k, allocation=allocation, errors=errors, n_reps=n_reps, seed=seed
            )
            out[key] = pd.concat([exact, sim])
        else:
            out[key] = exact
    return out


# ----------------------------------------------------------------------------- Figure 2
class _Design(TypedDict):
    """The keywords of one set-up shared by simulate_fold_f1 and exact_fold_f1."""

    n_instances: int
    n_folds: int
    allocation: str
    errors: str
    recall_a: float
    recall_b: float


def fold_f1_curve(
    props,
    *,
    n_instances: int = 1000,
    n_folds: int = 10,
    allocation: str = "random",
    errors: str = "fixed",
    recall_a: float = VAN_ASCH_RECALL_A,
    recall_b: float = VAN_ASCH_RECALL_B,
    n_reps: int = 10_000,
    seed=0,
) -> pd.DataFrame:
    """One panel of Van Asch Figure 2: exact, simulated and theoretical F1 against the class-A proportion.

    Each proportion gets its own random stream, spawned from ``seed``, so a
    point does not depend on which other points are computed. ``n_reps=0``
    skips the simulation (``mean`` and ``se`` are NaN).

    Returns
    -------
    pandas.DataFrame
        One row per (prop_a, average, method), columns ``prop_a``, ``n_a``,
        ``average``, ``method``, ``exact``, ``mean``, ``se`` and ``theory``
        (eq. 31 for ``"macro"``, its class-A term doubled for ``"binary"``;
        the same for both methods).
    """
    props = np.atleast_1d(check_real_array("props", props, low=0, high=1))
    n_reps = check_int("n_reps", n_reps, low=0, high=MAX_EXACT_INT)
    children = np.random.SeedSequence(check_seed("seed", seed)).spawn(len(props))
    rows = []
    for prop, child in zip(props, children, strict=True):
        prop = float(prop)
        design = _Design(
            n_instances=n_instances,
            n_folds=n_folds,
            allocation=allocation,
            errors=errors,
            recall_a=recall_a,
            recall_b=recall_b,
        )
        sim = simulate_fold_f1(prop, n_reps=n_reps, seed=np.random.default_rng(child), **design) if n_reps else None
        n_a = corpus_counts(prop, n_instances=n_instances)["n_a"]
        for average in FOLD_F1_AVERAGES:
            theory = theoretical_f1(prop, recall_a=recall_a, recall_b=recall_b, average=average)
            for method in FOLD_F1_METHODS:
                rows.append(
                    {
                        "prop_a": prop,
                        "n_a": n_a,
                        "average": average,
                        "method": method,
                        "exact": exact_fold_f1(prop, method=method, average=average, **design),
                        "mean": sim.loc[(average, method), "mean"] if sim is not None else np.nan,
                        "se": sim.loc[(average, method), "se"] if sim is not None else np.nan,
                        "theory": theory,
                    }
                )
    return pd.DataFrame(rows)


#: The readings of Van Asch §7 compared by :func:`fold_f1_readings`: (allocation, errors) of E[F_avg].
READINGS = (
    ("random", "fixed"),
    ("stratified", "fixed"),
    ("even", "fixed"),
    ("random", "binomial"),
    ("stratified", "binomial"),
)


def fold_f1_readings(
    props,
    *,
    n_instances: int = 1000,
    n_folds: int = 10,
    average: str = "binary",
    recall_a: float = VAN_ASCH_RECALL_A,
    recall_b: float = VAN_ASCH_RECALL_B,
) -> pd.DataFrame:
    """Exact E[F_avg] under every reading of Van Asch §7 that the paper leaves open, and F_tp,fp.

    The paper does not say how instances were put into folds (random,
    stratified, or its "ideal" even split) nor whether the accuracies are
    fixed corpus totals or per-prediction probabilities (binomial errors).
    This tabulates :func:`exact_fold_f1` for each reading of
    :data:`READINGS`, plus F_tp,fp with fixed and with binomial errors
    (which depend on neither the folds nor their allocation).

    Parameters
    ----------
    props : array-like of float
        Proportions of class A, in [0, 1].
    n_instances, n_folds : int
        N and K of one panel of Figure 2.
    average : {"binary", "macro"}, default "binary"
        F1 of class A, or the mean F1 of A and B.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``prop_a``; columns ``"avg: <allocation>, <errors>"`` for
        each reading, ``"tp_fp: fixed"`` and ``"tp_fp: binomial"``.

    References
    ----------
    Van Asch (2013), §7.1 and Figure 2.

    Examples
    --------
    Stratified folds put F_avg above F_tp,fp, random folds below (Figure 2a, 1 % class A):

    >>> r = fold_f1_readings([0.01], n_folds=5)
    >>> bool(r["avg: random, fixed"].iloc[0] < r["tp_fp: fixed"].iloc[0] < r["avg: stratified, fixed"].iloc[0])
    True
    """
    props = np.atleast_1d(check_real_array("props", props, low=0, high=1))
    check_choice("average", average, FOLD_F1_AVERAGES)
    columns = {}
    for allocation, errors in READINGS:
        columns[f"avg: {allocation}, {errors}"] = [
            exact_fold_f1(
                float(p),
                method="avg",
                n_folds=n_folds,
                allocation=allocation,
                errors=errors,
                average=average,
                n_instances=n_instances,
                recall_a=recall_a,
                recall_b=recall_b,
            )
            for p in props
        ]
    for errors in ERROR_MODELS:
        columns[f"tp_fp: {errors}"] = [
            exact_fold_f1(
                float(p),
                method="tp_fp",
                errors=errors,
                average=average,
                n_instances=n_instances,
                recall_a=recall_a,
                recall_b=recall_b,
            )
            for p in props
        ]
    return pd.DataFrame(columns, index=pd.Index(props, name="prop_a"))


def check_panel_keys(name: str, keys: Iterable[object]) -> list[str]:
    """Panel letters of Figure 2 (keys of :data:`FIGURE2_PANELS`), checked."""
    keys = list(keys)
    unknown = [k for k in keys if k not in FIGURE2_PANELS]
    if unknown:
        raise ValueError(f"{name} must name panels of Figure 2 {sorted(FIGURE2_PANELS)}, got {unknown}")
    if not keys:
        raise ValueError(f"{name} must name at least one panel of Figure 2")
    return [str(k) for k in keys]
