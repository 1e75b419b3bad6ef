"""How often the boosting pattern of Van Asch (2013) Table 8 holds over many random splits (notebook 06).

One split rests on a handful of relabelled predictions; :func:`summarize_boosting_runs`
counts, over the tables of many runs of
:func:`~apples.studies.van_asch.nearest_neighbour_boosting`, how often CHANGED
raised macro precision, lowered accuracy, or both (the Table 8 pattern), and what
the oracle UPPER did.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from apples._params import Kind, declare

__all__ = [
    "summarize_boosting_runs",
]

_ROWS = ("NORMAL", "CHANGED", "UPPER")
_COLUMNS = ("precision", "accuracy", "changed", "gained")


class _Runs(Kind):
    """Tables of :func:`~apples.studies.van_asch.nearest_neighbour_boosting`, at least one."""

    what = "a non-empty sequence of nearest_neighbour_boosting tables"

    def check(self, name: str, value: object) -> list[pd.DataFrame]:
        if isinstance(value, pd.DataFrame) or not isinstance(value, Sequence) or not value:
            raise TypeError(f"{name} must be {self.what}")
        for i, r in enumerate(value):
            if not isinstance(r, pd.DataFrame) or not set(_ROWS) <= set(r.index) or not set(_COLUMNS) <= set(r.columns):
                raise ValueError(
                    f"{name}[{i}] must be a nearest_neighbour_boosting table "
                    f"(rows {list(_ROWS)}, columns {list(_COLUMNS)})"
                )
        return list(value)


@declare(runs=_Runs())
def summarize_boosting_runs(runs: Sequence[pd.DataFrame]) -> dict[str, float]:
    """Counts and mean changes of CHANGED and UPPER against NORMAL over many boosting runs (§6.2.1, Table 8).

    Parameters
    ----------
    runs : sequence of DataFrame
        Tables of :func:`~apples.studies.van_asch.nearest_neighbour_boosting` (rows
        NORMAL, CHANGED, UPPER; columns ``precision``, ``accuracy``, ``changed``,
        ``gained``), one per split.

    Returns
    -------
    dict
        ``runs``; ``with_changes`` (runs where CHANGED relabelled at least one
        prediction) and ``median_changed`` among them (NaN if none);
        ``precision_rose`` and ``accuracy_fell`` among them; ``pattern`` (both at
        once: the Table 8 pattern); ``mean_precision_change`` and
        ``mean_accuracy_change`` among them (fractions; NaN if none);
        ``gained`` (correct predictions CHANGED gained, over all runs);
        ``upper_rose`` and ``upper_mean_change`` (UPPER's macro precision against
        NORMAL's, over all runs).

    Examples
    --------
    >>> import pandas as pd
    >>> from apples.studies.van_asch import summarize_boosting_runs
    >>> t = pd.DataFrame({"precision": [0.5, 0.6, 0.9], "accuracy": [0.8, 0.7, 0.8],
    ...                   "changed": [0, 3, 5], "gained": [0, 0, 0]}, index=["NORMAL", "CHANGED", "UPPER"])
    >>> s = summarize_boosting_runs([t, t])
    >>> s["pattern"], s["median_changed"], round(s["upper_mean_change"], 2)
    (2, 3.0, 0.4)
    """

    def change(row: str, column: str) -> np.ndarray:
        return np.array([float(r[column][row]) - float(r[column]["NORMAL"]) for r in runs])

    d_prec, d_acc, up_prec = change("CHANGED", "precision"), change("CHANGED", "accuracy"), change("UPPER", "precision")
    n_changed = np.array([int(r["changed"]["CHANGED"]) for r in runs])
    some = n_changed > 0
    nan = float("nan")
    return {
        "runs": len(runs),
        "with_changes": int(some.sum()),
        "median_changed": float(np.median(n_changed[some])) if some.any() else nan,
        "precision_rose": int(np.sum(d_prec[some] > 0)),
        "accuracy_fell": int(np.sum(d_acc[some] < 0)),
        "pattern": int(np.sum((d_prec > 0) & (d_acc < 0))),
        "mean_precision_change": float(d_prec[some].mean()) if some.any() else nan,
        "mean_accuracy_change": float(d_acc[some].mean()) if some.any() else nan,
        "gained": int(sum(int(r["gained"]["CHANGED"]) for r in runs)),
        "upper_rose": int(np.sum(up_prec > 0)),
        "upper_mean_change": float(up_prec.mean()),
    }
