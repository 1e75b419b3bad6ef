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
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from apples._kernels.fold_size import corpus_totals, eq31_terms
from apples._params import (
    MAX_EXACT_INT,
    SEED,
    Integer,
    Kind,
    Nullable,
    Options,
    RealArray,
    declare,
    resolve,
)
from apples.studies.van_asch.fold_size import (
    _N_INSTANCES,
    _SETUP,
    _SETUP_RULES,
    ERROR_MODELS,
    _exact_value,
    _FoldsFit,
    _simulate_f1,
)
from apples.theory.fold_model import N_FOLDS
from apples.theory.fold_size import (
    FOLD_F1_AVERAGES,
    FOLD_F1_METHODS,
    VAN_ASCH_RECALL_A,
    VAN_ASCH_RECALL_B,
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


# ----------------------------------------------------------------------------- the kinds of the Figure 2 parameters
class _PanelLetters(Kind):
    """Panel letters of Figure 2 (keys of :data:`FIGURE2_PANELS`), at least one; becomes a list of str."""

    what = "a sequence of panel letters of Figure 2"

    def check(self, name: str, value: object) -> list[str]:
        if isinstance(value, (str, bytes)):
            raise TypeError(f"{name} must be a sequence of panel letters, got the string {value!r}")
        if isinstance(value, Mapping):
            value = list(value)
        if not isinstance(value, Iterable):
            raise TypeError(f"{name} must be a sequence of panel letters, got {type(value).__name__}")
        keys = list(value)
        unknown = [k for k in keys if k not in FIGURE2_PANELS]
        if unknown:
            raise ValueError(f"{name} must name panels of Figure 2 {sorted(FIGURE2_PANELS)}, got {unknown}")
        if not keys:
            raise ValueError(f"{name} must name at least one panel of Figure 2")
        return [str(k) for k in keys]


#: The kind of ``panels=`` of the plots: letters of the panels of Figure 2 to draw.
_PANEL_LETTERS = _PanelLetters()


class _Panels(Kind):
    """A mapping panel name -> (n_folds, n_instances), each set-up checked as the fold-size functions check it."""

    what = "a mapping of panel name -> (n_folds, n_instances)"

    def check(self, name: str, value: object) -> dict[Any, tuple[int, int]]:
        if not isinstance(value, Mapping):
            raise TypeError(f"{name} must be {self.what}, got {type(value).__name__}")
        out = {}
        for key, design in value.items():
            try:
                k, n = design
            except (TypeError, ValueError):
                raise ValueError(f"{name}[{key!r}] must be a pair (n_folds, n_instances), got {design!r}") from None
            k = N_FOLDS.check(f"{name}[{key!r}] n_folds", k)
            n = _N_INSTANCES.check(f"{name}[{key!r}] n_instances", n)
            try:
                _FoldsFit().check({"n_instances": n, "n_folds": k})
            except ValueError as err:
                raise ValueError(f"{name}[{key!r}]: {err}") from None
            out[key] = (k, n)
        return out


_PROPS = RealArray(0, 1)


# ----------------------------------------------------------------------------- Figure 2
@declare(
    props=_PROPS,
    panels=Nullable(_Panels()),
    allocation=_SETUP["allocation"],
    errors=_SETUP["errors"],
    n_reps=Integer(0, MAX_EXACT_INT),
    seed=SEED,
    relations=[_SETUP_RULES[1]],
)
def figure2_curves(
    *,
    props: ArrayLike = FIGURE2_PROPS,
    panels: Mapping[str, tuple[int, int]] | None = None,
    allocation: str = "random",
    errors: str = "fixed",
    n_reps: int = 2000,
    seed: int | np.random.Generator = 4,
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
    seed : int or numpy.random.Generator, default 4
        Seed of the simulations, the same for every panel (as in notebook 04): see
        :func:`fold_f1_curve`; a Generator gives one new child of its seed sequence for all panels.

    Returns
    -------
    dict of str -> pandas.DataFrame
        Panel letter -> the :func:`fold_f1_curve` rows of that panel.

    References
    ----------
    Van Asch (2013), §7.1 and Figure 2 (a-f).

    Examples
    --------
    >>> from apples.studies.van_asch import figure2_curves
    >>> c = figure2_curves(props=[0.05], panels={"a": (5, 1000)}, n_reps=0)
    >>> list(c), len(c["a"])
    (['a'], 4)
    """
    props = np.atleast_1d(np.asarray(props))
    chosen = FIGURE2_PANELS if panels is None else panels
    root = _seed_sequence(seed)  # one for every panel
    out = {}
    for key, (k, n) in chosen.items():
        design = _design(n_instances=n, n_folds=k, allocation=allocation, errors=errors)
        exact = _curve(props, n_reps=0, root=root, **design)
        if n_reps:
            sim = _curve(props[::2], n_reps=n_reps, root=root, **design)
            out[key] = pd.concat([exact, sim])
        else:
            out[key] = exact
    return out


def _design(
    *,
    n_instances: int,
    n_folds: int,
    allocation: str,
    errors: str,
    recall_a: float = VAN_ASCH_RECALL_A,
    recall_b: float = VAN_ASCH_RECALL_B,
) -> dict[str, Any]:
    """The keywords of one set-up shared by the simulation and the exact sums."""
    return {
        "n_instances": n_instances,
        "n_folds": n_folds,
        "allocation": allocation,
        "errors": errors,
        "recall_a": recall_a,
        "recall_b": recall_b,
    }


def _eq31(prop_a: float, *, recall_a: float, recall_b: float, average: str) -> float:
    """Eq. (31) (``"macro"``) or its class-A term doubled (``"binary"``), 0 where 0/0 (``theoretical_f1``)."""
    raw_a, raw_b = eq31_terms(prop_a, recall_a, recall_b)
    term_a = np.asarray(resolve(raw_a, "zero", what="F1 of class A"))
    out = 2 * term_a if average == "binary" else term_a + np.asarray(resolve(raw_b, "zero", what="F1 of class B"))
    return float(out)


def _seed_sequence(seed: int | np.random.Generator) -> np.random.SeedSequence:
    """The root of the proportions' streams: an int seed's SeedSequence, or a new child of a Generator's."""
    if isinstance(seed, np.random.Generator):
        return seed.bit_generator.seed_seq.spawn(1)[0]  # type: ignore[attr-defined]
    return np.random.SeedSequence(seed)


def _curve(
    props: np.ndarray,
    *,
    n_instances: int,
    n_folds: int,
    allocation: str,
    errors: str,
    recall_a: float,
    recall_b: float,
    n_reps: int,
    root: np.random.SeedSequence,
) -> pd.DataFrame:
    """:func:`fold_f1_curve` of checked arguments; proportion i draws from child i of ``root`` (never advanced)."""
    fresh = np.random.SeedSequence(root.entropy, spawn_key=root.spawn_key, pool_size=root.pool_size)
    streams = [np.random.default_rng(child) for child in fresh.spawn(len(props))]
    design = _design(
        n_instances=n_instances,
        n_folds=n_folds,
        allocation=allocation,
        errors=errors,
        recall_a=recall_a,
        recall_b=recall_b,
    )
    rows = []
    for prop, rng in zip(props, streams, strict=True):
        prop = float(prop)
        sim = _simulate_f1(prop, n_reps=n_reps, rng=rng, **design) if n_reps else None
        n_a = corpus_totals(prop, n_instances, VAN_ASCH_RECALL_A, VAN_ASCH_RECALL_B)["n_a"]
        for average in FOLD_F1_AVERAGES:
            theory = _eq31(prop, recall_a=recall_a, recall_b=recall_b, average=average)
            for method in FOLD_F1_METHODS:
                rows.append(
                    {
                        "prop_a": prop,
                        "n_a": n_a,
                        "average": average,
                        "method": method,
                        "exact": _exact_value(prop, method=method, average=average, **design),
                        "mean": sim.loc[(average, method), "mean"] if sim is not None else np.nan,
                        "se": sim.loc[(average, method), "se"] if sim is not None else np.nan,
                        "theory": theory,
                    }
                )
    return pd.DataFrame(rows)


@declare(props=_PROPS, **_SETUP, n_reps=Integer(0, MAX_EXACT_INT), seed=SEED, relations=_SETUP_RULES)
def fold_f1_curve(
    props: ArrayLike,
    *,
    n_instances: int = 1000,
    n_folds: int = 10,
    allocation: str = "random",
    errors: str = "fixed",
    recall_a: float = VAN_ASCH_RECALL_A,
    recall_b: float = VAN_ASCH_RECALL_B,
    n_reps: int = 10_000,
    seed: int | np.random.Generator = 0,
) -> pd.DataFrame:
    """One panel of Van Asch Figure 2: exact, simulated and theoretical F1 against the class-A proportion.

    Each proportion gets its own random stream, spawned from ``seed``, so a
    point does not depend on which other points are computed. ``n_reps=0``
    skips the simulation (``mean`` and ``se`` are NaN).

    Parameters
    ----------
    props : array-like of float
        Proportions of class A, in [0, 1].
    n_instances, n_folds, allocation, errors, recall_a, recall_b
        As :func:`simulate_fold_counts`.
    n_reps : int, default 10,000
        Cross-validations per proportion (at most 2**53); 0 for the exact values only.
    seed : int or numpy.random.Generator, default 0
        Proportion i draws from child i of ``numpy.random.SeedSequence(seed)``; a Generator gives
        a new child of its own seed sequence (its draws are not advanced), whose children do.

    Returns
    -------
    pandas.DataFrame
        One row per (prop_a, average, method), columns ``prop_a``, ``n_a``,
        ``average``, ``method``, ``exact``, ``mean``, ``se`` and ``theory``
        (eq. 31 for ``"macro"``, its class-A term doubled for ``"binary"``;
        the same for both methods).
    """
    return _curve(
        np.atleast_1d(np.asarray(props)),
        n_instances=n_instances,
        n_folds=n_folds,
        allocation=allocation,
        errors=errors,
        recall_a=recall_a,
        recall_b=recall_b,
        n_reps=n_reps,
        root=_seed_sequence(seed),
    )


#: The readings of Van Asch §7 compared by :func:`fold_f1_readings`: (allocation, errors) of E[F_avg].
READINGS = (
    ("random", "fixed"),
    ("stratified", "fixed"),
    ("even", "fixed"),
    ("random", "binomial"),
    ("stratified", "binomial"),
)


def _readings(
    props: np.ndarray, *, n_instances: int, n_folds: int, average: str, recall_a: float, recall_b: float
) -> pd.DataFrame:
    """:func:`fold_f1_readings` of checked arguments."""
    columns = {}
    setup: dict[str, Any] = {"average": average, "n_instances": n_instances, "recall_a": recall_a, "recall_b": recall_b}
    for allocation, errors in READINGS:
        columns[f"avg: {allocation}, {errors}"] = [
            _exact_value(float(p), method="avg", n_folds=n_folds, allocation=allocation, errors=errors, **setup)
            for p in props
        ]
    for errors in ERROR_MODELS:
        columns[f"tp_fp: {errors}"] = [
            _exact_value(float(p), method="tp_fp", n_folds=n_folds, allocation="random", errors=errors, **setup)
            for p in props
        ]
    return pd.DataFrame(columns, index=pd.Index(props, name="prop_a"))


@declare(
    props=_PROPS,
    n_instances=_SETUP["n_instances"],
    n_folds=_SETUP["n_folds"],
    average=Options(*FOLD_F1_AVERAGES),
    recall_a=_SETUP["recall_a"],
    recall_b=_SETUP["recall_b"],
    relations=[_SETUP_RULES[0]],
)
def fold_f1_readings(
    props: ArrayLike,
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
    recall_a, recall_b : float, defaults 0.8 and 0.977
        Accuracy (= recall) on class A and on class B.

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

    >>> from apples.studies.van_asch import fold_f1_readings
    >>> r = fold_f1_readings([0.01], n_folds=5)
    >>> bool(r["avg: random, fixed"].iloc[0] < r["tp_fp: fixed"].iloc[0] < r["avg: stratified, fixed"].iloc[0])
    True
    """
    return _readings(
        np.atleast_1d(np.asarray(props)),
        n_instances=n_instances,
        n_folds=n_folds,
        average=average,
        recall_a=recall_a,
        recall_b=recall_b,
    )
