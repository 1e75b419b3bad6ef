"""The result of :func:`apples.report`: :class:`CVReport`, one JSON-ready dict and its renderings."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from apples._params import Kind, declare
from apples.reporting._format import render_html, render_markdown, render_text, report_rows
from apples.reporting._layout import check_layout

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "CVReport",
]


class _ReportData(Kind):
    what = "a mapping in the layout of CVReport.to_dict()"

    def check(self, name: str, value: object) -> dict[str, Any]:
        check_layout(value, name)
        try:
            return json.loads(json.dumps(value, allow_nan=False))
        except (TypeError, ValueError) as err:  # a value check_layout does not look into (a fold's label list)
            raise type(err)(f"{name} must hold JSON values only (the layout of CVReport.to_dict()): {err}") from None


class _ReportJSON(Kind):
    what = "the JSON text of CVReport.to_json()"

    def check(self, name: str, value: object) -> dict[str, Any]:
        if not isinstance(value, (str, bytes)):
            raise TypeError(f"{name} must be a JSON string, got {type(value).__name__}")

        def no_constant(word: str) -> None:
            raise ValueError(f"{name} holds {word}, which CVReport.to_json() never writes (an undefined value is null)")

        try:
            data = json.loads(value, parse_constant=no_constant)
        except (json.JSONDecodeError, UnicodeDecodeError) as err:
            raise ValueError(f"{name} is not the JSON of CVReport.to_json(): {err}") from None
        if not isinstance(data, dict) or data.get("task") not in ("binary", "multiclass"):
            raise ValueError(f"{name} is not the JSON of CVReport.to_json() (no 'task' of 'binary' or 'multiclass')")
        check_layout(data, name)
        return data


_REPORT_DATA = _ReportData()
_REPORT_JSON = _ReportJSON()


class CVReport:
    """Every aggregation of a cross-validated result, from :func:`report`.

    The content is one JSON-ready dict (:meth:`to_dict`; layout in :func:`report`).
    ``str(r)`` is an aligned text table, ``r._repr_html_()`` the table a notebook
    shows, :meth:`to_markdown` a pipe table, :meth:`to_frame` a tidy DataFrame.

    Examples
    --------
    >>> from apples.cv import CVPredictions
    >>> from apples.reporting import report
    >>> r = report(CVPredictions([1, 0, 1, 0, 1, 0], y_pred=[1, 0, 0, 0, 1, 1], folds=[0, 0, 0, 1, 1, 1]))
    >>> r.to_dict()["f_measure"]["tp_fp"]
    0.6666666666666666
    >>> CVReport.from_json(r.to_json()) == r
    True
    """

    @declare(data=_REPORT_DATA)
    def __init__(self, data: Mapping[str, Any]) -> None:
        self._data: dict[str, Any] = cast("dict[str, Any]", data)  # checked and copied by its kind

    @classmethod
    @declare(text=_REPORT_JSON)
    def from_json(cls, text: str) -> CVReport:
        """The report written by :meth:`to_json`; a ValueError or TypeError naming the entry for anything else.

        JSON's ``NaN`` and ``Infinity`` are refused: :meth:`to_json` writes an undefined value as ``null``.
        """
        report = cls.__new__(cls)
        report._data = cast("dict[str, Any]", text)  # the kind has parsed the text and checked the layout
        return report

    def to_dict(self) -> dict[str, Any]:
        """A deep copy of the report as plain Python (JSON types; undefined values are None)."""
        out: dict[str, Any] = json.loads(json.dumps(self._data))
        return out

    def to_json(self, *, indent: int | None = 2) -> str:
        """The report as JSON (the layout of :func:`report`); undefined values are ``null``."""
        return json.dumps(self._data, indent=indent, allow_nan=False)

    def to_frame(self) -> pd.DataFrame:
        """A tidy pandas DataFrame: one row per (quantity, average, aggregation) with its value.

        Columns ``quantity, average, aggregation, value`` (``average`` is empty for
        binary tasks), with repeats ``std`` (the spread across repeats), and with
        intervals ``low, high, interval`` (the interval's method) too.
        """
        import pandas as pd

        rows = report_rows(self._data)
        columns = ["quantity", "average", "aggregation", "value"] + (["std"] if "repeats" in self._data else [])
        if "intervals" in self._data:
            columns += ["low", "high", "interval"]
        numeric = ("value", "std", "low", "high")
        return pd.DataFrame(
            [{k: (math.nan if r[k] is None and k in numeric else r[k]) for k in columns} for r in rows],
            columns=columns,
        )

    def to_markdown(self) -> str:
        """The report as a Markdown pipe table with the folds, recommendations and warnings below."""
        return render_markdown(self._data)

    def _repr_html_(self) -> str:
        return render_html(self._data)

    def __str__(self) -> str:
        return render_text(self._data)

    def __repr__(self) -> str:
        d = self._data
        return f"<CVReport {d['task']}: n={d['n']}, {d['n_folds']} folds, {len(d['warnings'])} warning(s)>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CVReport) and other._data == self._data

    __hash__ = None  # type: ignore[assignment]
