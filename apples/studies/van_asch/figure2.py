"""The grid of Van Asch (2013) Figure 2: six panels of folds x instances (notebook 04).

:data:`FIGURE2_PANELS` names the panels a-f by their (K, N), :data:`FIGURE2_PROPS`
is the x-axis (0-10 % class A in steps of 0.5 %), and :func:`figure2_curves`
computes every panel with :func:`~apples.studies.van_asch.fold_size.fold_f1_curve`:
exact expectations on the full grid, simulated means on every other proportion.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import numpy as np
import pandas as pd

from apples._validation import MAX_EXACT_INT, check_int, check_real_array
from apples.studies.van_asch.fold_size import fold_f1_curve

__all__ = [
    "FIGURE2_PANELS",
    "FIGURE2_PROPS",
    "figure2_curves",
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
    seed = check_int("seed", seed, low=0)
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
