"""The report coverage study's results: the full grid's table as shipped with apples, and its plot.

Introduced in notebook 11. :func:`apples.intervals.report_coverage_study` over the full grid
(:func:`apples.intervals.report_coverage_settings`, 1,000 studies per setting) takes about 25 minutes on two
cores, too long for a notebook; ``benchmarks/intervals_coverage.py --write`` stores its table as package data
(``apples/intervals/data/report_coverage.csv.gz``), :func:`stored_report_coverage` reads it back with the types
the study returns, and :func:`plot_report_coverage` draws a table of either.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from apples._optional import require
from apples._params import CONFIDENCE, Frame, declare, exempt

__all__ = [
    "plot_report_coverage",
    "stored_report_coverage",
]

#: The stored result of the full grid (package data), written by benchmarks/intervals_coverage.py --write.
STORED = ("apples.intervals", "data/report_coverage.csv.gz")


@exempt("takes no argument")
def stored_report_coverage() -> pd.DataFrame:
    """The coverage of every interval of the report over the full grid, computed once and shipped with apples.

    The table ``report_coverage_study(report_coverage_settings(), n_studies=1000, seed=0)`` returns
    (:func:`apples.intervals.report_coverage_study`): 72 settings × every value of the report, 1,000 simulated
    studies per setting, at 95 % nominal, under the report's rules of when to give no interval. It takes about
    25 minutes on two cores, too long for a notebook, so notebook 11 reads it from here.
    ``benchmarks/intervals_coverage.py 1000 2 --write apples/intervals/data/report_coverage.csv.gz`` writes it;
    ``tests/intervals/test_stored_report_coverage.py`` recomputes some of its rows with the same seeds (the
    result does not depend on ``n_jobs``).

    Returns
    -------
    pandas.DataFrame
        The columns :func:`apples.intervals.report_coverage_study` returns, with the same types: ``prior`` a
        number (binary) or a tuple of numbers, ``average`` empty for a binary value, the coverage columns NaN for
        a value no study got an interval for; every float as computed (the file stores each to the last bit).

    References
    ----------
    Nadeau, C. & Bengio, Y. (2003) §4; Bouckaert, R. R. & Frank, E. (2004) §3; Morris, T. P., White, I. R. &
    Crowther, M. J. (2019). Statistics in Medicine 38, Table 6.

    Examples
    --------
    >>> from apples.intervals import stored_report_coverage
    >>> t = stored_report_coverage()
    >>> len(t), int(t["n_studies"].min()), t.groupby("task").size().to_dict()
    (1984, 1000, {'binary': 1728, 'multiclass': 136, 'multilabel': 120})
    """
    from importlib import resources

    package, name = STORED
    with resources.files(package).joinpath(name).open("rb") as f:
        table = pd.read_csv(
            f, compression="gzip", dtype={"prior": str, "average": str}, keep_default_na=False,
            na_values={c: [""] for c in _STORED_FLOATS},
        )  # fmt: skip
    table["prior"] = pd.Series([_prior(v) for v in table["prior"]], index=table.index, dtype=object)
    return table


#: The stored table's float columns that may be empty (NaN): every coverage column of a value without intervals.
_STORED_FLOATS = (
    "design_se", "coverage", "mcse", "mean_width", "miss_low", "miss_high", "no_interval", "bias",
    "design_coverage", "design_mcse", "design_bias",
)  # fmt: skip


def _prior(text: str) -> float | tuple[float, ...]:
    """A stored prior: "0.1" -> 0.1, "(0.5, 0.3, 0.2)" -> (0.5, 0.3, 0.2)."""
    text = text.strip()
    if text.startswith("("):
        return tuple(float(v) for v in text.strip("()").split(",") if v.strip())
    return float(text)


@declare(
    table=Frame(
        ("quantity", "average", "aggregation", "training_sd", "coverage"),
        source="apples.intervals.report_coverage_study or stored_report_coverage output",
    ),
    nominal=CONFIDENCE,
)
def plot_report_coverage(table: pd.DataFrame, *, ax: Any = None, nominal: float = 0.95) -> Any:
    """The coverage of each value of the report, one point per setting, coloured by the training spread τ; the Axes.

    One row per value (measure, label average, aggregation) in the table's order, one point per setting at its
    coverage, each τ on a line of its own within the row; a value no study of any setting got an interval for is
    labelled "no interval" and has no point. The nominal coverage is dashed, and 0.90 dotted (notebook 11).

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`apples.intervals.report_coverage_study` or :func:`stored_report_coverage` output, or a part of it
        (e.g. the binary settings): columns ``quantity``, ``average``, ``aggregation``, ``training_sd``, ``coverage``.
    ax : matplotlib Axes, optional
        Where to draw; the current Axes when None.
    nominal : float, default 0.95
        The coverage the intervals promise.

    Returns
    -------
    matplotlib.axes.Axes
    """
    plt = require("matplotlib.pyplot")
    ax = plt.gca() if ax is None else ax
    keys = list(zip(table["quantity"], table["average"].fillna(""), table["aggregation"], strict=True))
    rows = list(dict.fromkeys(keys))
    position = {key: i for i, key in enumerate(rows)}
    y = np.array([position[key] for key in keys], dtype=float)
    coverage = table["coverage"].to_numpy(dtype=float)
    taus = sorted(set(table["training_sd"]))
    for j, tau in enumerate(taus):
        at = (table["training_sd"] == tau).to_numpy() & np.isfinite(coverage)
        offset = (j - (len(taus) - 1) / 2) * 0.4  # one τ above the other, apart on the row
        ax.plot(coverage[at], y[at] + offset, "o", ms=3, alpha=0.6, label=f"τ = {tau:g}")
    has = {key for key, c in zip(keys, coverage, strict=True) if np.isfinite(c)}
    labels = [" ".join(k for k in key if k) + ("" if key in has else " (no interval)") for key in rows]
    ax.set_yticks(range(len(rows)), labels, parse_math=False)
    ax.invert_yaxis()
    ax.axvline(nominal, color="grey", lw=1, ls="--", label=f"nominal {nominal:.0%}")
    ax.axvline(0.90, color="grey", lw=1, ls=":", label="0.90 (low coverage)")
    ax.set(
        xlabel="coverage (share of a setting's studies whose interval covers the truth)",
        ylabel="value of the report (measure, aggregation)",
        title=f"Coverage of the report's intervals at {nominal:.0%} nominal, one point per setting",
    )
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return ax
