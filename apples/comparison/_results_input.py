"""The results table's inputs, checked once: a tidy frame, the reports of each data set, the comparisons.

Each kind returns the cells laid out as data sets × models (:class:`Cells`), refusing a duplicate,
a missing or a non-finite value by the data set's and the model's names.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

from apples._params import Kind, ParameterValueError, is_missing
from apples.comparison._render import plain_text
from apples.comparison.folds import ModelComparison

__all__: list[str] = []  # private: the kinds of apples.comparison.results


class Cells(NamedTuple):
    """The checked cells: model and data set names in first-seen order, values and intervals (data sets × models)."""

    models: list[str]
    datasets: list[str]
    table: np.ndarray
    low: np.ndarray | None
    high: np.ndarray | None


def _names_of(name: str, column: Any, what: str) -> list[str]:
    out = []
    for i, v in enumerate(column):
        if is_missing(v):
            raise ValueError(f"{name} has no {what} in row {i} ({v!r})")
        out.append(plain_text(v) if not isinstance(v, str) else v)
    return out


def _grid(
    name: str, models: list[str], datasets: list[str], columns: dict[str, np.ndarray]
) -> tuple[list[str], list[str], dict[str, np.ndarray]]:
    """Cells laid out as data sets × models, refusing a duplicate and naming a missing cell."""
    m_order = list(dict.fromkeys(models))
    d_order = list(dict.fromkeys(datasets))
    mi = {m: i for i, m in enumerate(m_order)}
    di = {d: i for i, d in enumerate(d_order)}
    out = {k: np.full((len(d_order), len(m_order)), np.nan) for k in columns}
    seen = np.zeros((len(d_order), len(m_order)), dtype=bool)
    for row, (m, d) in enumerate(zip(models, datasets, strict=True)):
        i, j = di[d], mi[m]
        if seen[i, j]:
            raise ValueError(f"{name} has two values for model {m!r} on data set {d!r} (row {row})")
        seen[i, j] = True
        for k, col in columns.items():
            out[k][i, j] = col[row]
    if not seen.all():
        i, j = np.argwhere(~seen)[0]
        raise ValueError(
            f"{name}: data set {d_order[i]!r} has no value for model {m_order[j]!r} (every model needs a value on "
            "every data set: the ranks and tests compare complete rows; drop the data set or the model)"
        )
    return m_order, d_order, out


def check_cells(name: str, models: list[str], datasets: list[str], cols: dict[str, np.ndarray]) -> Cells:
    m_order, d_order, grid = _grid(name, models, datasets, cols)
    if len(m_order) < 2:
        raise ValueError(f"{name} holds {len(m_order)} model(s); a comparison needs at least two")
    values = grid["value"]
    bad = np.argwhere(~np.isfinite(values))
    if bad.size:
        i, j = bad[0]
        raise ValueError(
            f"{name}: the value of model {m_order[j]!r} on data set {d_order[i]!r} is {float(values[i, j])!r}; "
            "every value must be a finite number (an undefined value cannot be ranked)"
        )
    low, high = grid.get("low"), grid.get("high")
    if low is not None and high is not None:
        one = np.isnan(low) != np.isnan(high)
        if one.any():
            i, j = np.argwhere(one)[0]
            raise ValueError(f"{name}: model {m_order[j]!r} on data set {d_order[i]!r} has one end of its interval")
        flipped = low > high
        if flipped.any():
            i, j = np.argwhere(flipped)[0]
            raise ValueError(
                f"{name}: model {m_order[j]!r} on data set {d_order[i]!r} has low = {float(low[i, j])!r} > high = "
                f"{float(high[i, j])!r} (are the columns swapped?)"
            )
        if np.isnan(low).all():
            low = high = None
    return Cells(m_order, d_order, values, low, high)


class ResultsFrame(Kind):
    what = "a tidy pandas DataFrame with the columns model, dataset, value and optionally low and high"

    def check(self, name: str, value: object) -> Cells:
        import pandas as pd

        if not isinstance(value, pd.DataFrame):
            raise TypeError(f"{name} must be {self.what}, got {type(value).__name__}")
        missing = [c for c in ("model", "dataset", "value") if c not in value.columns]
        if missing:
            raise ValueError(f"{name} lacks the column(s) {missing}; it has {list(value.columns)[:10]}")
        if ("low" in value.columns) != ("high" in value.columns):
            raise ValueError(f"{name} has one of the columns low and high; an interval needs both")
        if len(value) == 0:
            raise ValueError(f"{name} is empty")
        cols = {}
        for c in ("value", "low", "high"):
            if c in value.columns:
                try:
                    cols[c] = pd.to_numeric(value[c], errors="raise").to_numpy(dtype=float)
                except (TypeError, ValueError) as err:
                    raise TypeError(f"{name}[{c!r}] must hold numbers: {err}") from None
        models = _names_of(name, value["model"].tolist(), "model")
        datasets = _names_of(name, value["dataset"].tolist(), "data set")
        return check_cells(name, models, datasets, cols)


class Reports(Kind):
    what = "a mapping {data set: {model: apples.CVReport}} (anything with .to_frame(readable=False))"

    def check(self, name: str, value: object) -> dict[str, dict[str, Any]]:
        if not isinstance(value, Mapping):
            raise TypeError(f"{name} must be {self.what}, got {type(value).__name__}")
        if not value:
            raise ValueError(f"{name} is empty; it must be {self.what}")
        out: dict[str, dict[str, Any]] = {}
        for d, inner in value.items():
            dn = _names_of(name, [d], "data set")[0]
            if not isinstance(inner, Mapping) or not inner:
                raise TypeError(f"{name}[{d!r}] must be a non-empty mapping {{model: report}}, got {inner!r:.80}")
            if dn in out:
                raise ValueError(f"{name} names data set {dn!r} twice")
            out[dn] = {}
            for m, rep in inner.items():
                mn = _names_of(f"{name}[{d!r}]", [m], "model")[0]
                if not callable(getattr(rep, "to_frame", None)):
                    got = type(rep).__name__
                    raise TypeError(f"{name}[{d!r}][{m!r}] must be an apples.CVReport (apples.report), got {got}")
                if mn in out[dn]:
                    raise ValueError(f"{name}[{d!r}] names model {mn!r} twice")
                out[dn][mn] = rep
        return out


class Comparisons(Kind):
    what = "a mapping {data set: apples.comparison.ModelComparison} (what apples.compare returns)"

    def check(self, name: str, value: object) -> dict[str, ModelComparison]:
        if not isinstance(value, Mapping):
            raise TypeError(f"{name} must be {self.what}, got {type(value).__name__}")
        out = {}
        for d, c in value.items():
            if not isinstance(c, ModelComparison):
                raise TypeError(f"{name}[{d!r}] must be a ModelComparison (apples.compare), got {type(c).__name__}")
            out[_names_of(name, [d], "data set")[0]] = c
        return out


def report_cell(
    reports: dict[str, dict[str, Any]], d: str, m: str, quantity: str, aggregation: str, average: str | None
) -> tuple[float, float, float, str]:
    """(value, low, high, interval method) of one report, read from ``to_frame(readable=False)`` only."""
    f = reports[d][m].to_frame(readable=False)
    where = f"the report of {m!r} on {d!r}"
    q = f[f["quantity"] == quantity]
    if q.empty:
        raise ParameterValueError(
            f"{where} has no quantity {quantity!r}; it has {sorted(set(f['quantity']))}", param="quantity"
        )
    a = q[q["aggregation"] == aggregation]
    if a.empty:
        raise ParameterValueError(
            f"{where} has no aggregation {aggregation!r} of {quantity!r}; it has {sorted(set(q['aggregation']))}",
            param="aggregation",
        )
    averages = a["average"].fillna("").astype(str)
    if average is not None:
        a = a[averages == average]
        if a.empty:
            raise ParameterValueError(
                f"{where} has no average {average!r} of {quantity!r} ({aggregation}); it has {sorted(set(averages))}",
                param="average",
            )
    elif len(set(averages)) > 1:
        raise ParameterValueError(
            f"{where} has {quantity!r} ({aggregation}) with the averages {sorted(set(averages))}: choose one with "
            "average=",
            param="average",
        )
    row = a.iloc[0]
    value = float(row["value"])
    if not math.isfinite(value):
        raise ParameterValueError(
            f"{where} has no value for {quantity!r} ({aggregation}): it is undefined there (see the report's folds); "
            "an undefined value cannot be ranked",
            param="reports",
        )
    has = "low" in f.columns and "high" in f.columns
    low = float(row["low"]) if has else math.nan
    high = float(row["high"]) if has else math.nan
    method = str(row["interval"]) if has and "interval" in f.columns and isinstance(row["interval"], str) else ""
    return value, low, high, method
