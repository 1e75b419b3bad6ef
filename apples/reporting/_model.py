"""The result of :func:`apples.report`: :class:`CVReport`, one JSON-ready dict and its renderings."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from apples._params import FLAG, Instance, Kind, Nullable, declare
from apples.reporting._format import (
    aggregation_name,
    average_name,
    quantity_name,
    render_html,
    render_markdown,
    render_text,
    report_rows,
)
from apples.reporting._latex import render_latex
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
        if not isinstance(data, dict) or data.get("task") not in ("binary", "multiclass", "multilabel"):
            raise ValueError(
                f"{name} is not the JSON of CVReport.to_json() (no 'task' of 'binary', 'multiclass' or 'multilabel')"
            )
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
    >>> from apples import CVReport
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

    @declare(readable=FLAG, percent=FLAG)
    def to_frame(self, *, readable: bool = True, percent: bool = False) -> pd.DataFrame:
        """The report as a pandas DataFrame: one row per (quantity, average, aggregation) with its value.

        Parameters
        ----------
        readable : bool, default True
            Readable labels, as the printed report shows them (``F-measure``, ``F_tp,fp (pooled
            counts)``, ``ROC AUC``, ``merged scores``) and the columns ``recommended`` (what the
            papers support) and ``zero_substituted`` (the value counted an undefined fold or label as
            0). ``readable=False`` is the tidy machine form: the JSON keys (``f_measure``, ``tp_fp``,
            ``roc_auc``, ``merge``) and only the columns ``quantity, average, aggregation, value``.
        percent : bool, default False
            Rates (and their spread and interval ends) in percent; the log loss and the Brier score
            stay as they are, they are no rates.

        Returns
        -------
        pandas.DataFrame
            Columns ``quantity, average, aggregation, value`` (``average`` is empty for binary
            tasks), with repeats ``std`` (the spread across repeats), with intervals ``low, high,
            interval`` (the interval's method); an undefined value is NaN.
        """
        import pandas as pd

        from apples.reporting._values import SCORING_RULES

        d = self._data
        rows = report_rows(d)
        columns = ["quantity", "average", "aggregation", "value"] + (["std"] if "repeats" in d else [])
        if "intervals" in d:
            columns += ["low", "high", "interval"]
        numeric = ("value", "std", "low", "high")

        def cell(r: dict[str, Any], k: str) -> Any:
            v = r[k]
            if k in numeric:
                if v is None:
                    return math.nan
                return 100 * v if percent and r["quantity"] not in SCORING_RULES else v
            if readable and k == "quantity":
                return quantity_name(d, v)
            if readable and k == "average":
                return average_name(v) if v else ""
            if readable and k == "aggregation":
                return aggregation_name(v, r["quantity"])
            return v

        if readable:
            columns += ["recommended", "zero_substituted"]
            rows = [{**r, "zero_substituted": r["substituted"]} for r in rows]
        return pd.DataFrame([{k: cell(r, k) for k in columns} for r in rows], columns=columns)

    @declare(
        caption=Nullable(Instance(str, hint="the table's caption")), label=Nullable(Instance(str, hint="a LaTeX label"))
    )
    def to_latex(self, *, caption: str | None = None, label: str | None = None) -> str:
        """The report as a LaTeX table for a paper (booktabs; ``\\usepackage{booktabs}``).

        The rows and marks of the printed report, every word escaped (labels, fold ids); the caption is
        the report's header (cases, folds, repeats, stratification, seed, the undefined-fold policy)
        unless ``caption`` is given; ``label`` adds ``\\label{...}``. The legend of the marks some row
        carries follows the table.

        Examples
        --------
        >>> from apples.cv import CVPredictions
        >>> from apples.reporting import report
        >>> r = report(CVPredictions([1, 0, 1, 0, 1, 0], y_pred=[1, 0, 0, 0, 1, 1], folds=[0, 0, 0, 1, 1, 1]))
        >>> print(r.to_latex().splitlines()[3])
        \\begin{tabular}{llr}
        """
        return render_latex(self._data, caption=caption, label=label)

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
