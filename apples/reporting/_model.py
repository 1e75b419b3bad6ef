"""The result of :func:`apples.report`: :class:`CVReport`, one long table of values and its views.

The report's content is one JSON-ready dict (layout :data:`LAYOUT`): a header (task, cases, design,
labels, what is known of how the folds were made, the weights), the measures' descriptions (names,
ranges, aggregations: what the views need of each record), the long table ``values`` (one row per
quantity, label average and aggregation: its value, spread across repeats, 0/0 marks and the spread
of the points its interval is computed from), each repeat's values, the folds, per-label counts,
recommendations, notes and warnings. Text, HTML, Markdown, LaTeX, ``to_frame``, ``to_json`` and the
methods paragraph are views of it; :meth:`CVReport.confidence_interval` computes intervals at any
level from the stored spreads, so a report read back from JSON computes them too.
"""

from __future__ import annotations

import contextlib
import copy
import json
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from apples._params import CONFIDENCE, FLAG, Instance, Kind, Nullable, ParameterValueError, declare
from apples.intervals.results import ConfidenceInterval
from apples.measures._evaluate import interval
from apples.reporting._format import render_html, render_markdown, render_text, report_rows, value_range
from apples.reporting._latex import render_latex
from apples.reporting._layout import check_layout
from apples.reporting._methods import methods_paragraph

if TYPE_CHECKING:
    import pandas as pd

    from apples.measures import Measure

__all__ = [
    "LAYOUT",
    "CVReport",
    "json_value",
    "plain",
]

#: The version of the layout of :meth:`CVReport.to_dict` (1: the nested sections of apples before the records).
LAYOUT = 2


def plain(x: object) -> Any:
    """A label or fold id as a JSON value: numpy scalars as Python, anything else not JSON as its str."""
    if hasattr(x, "item") and not isinstance(x, (str, bytes)):
        with contextlib.suppress(TypeError, ValueError):
            x = x.item()
    if isinstance(x, bool) or x is None or isinstance(x, (int, str)):
        return x
    if isinstance(x, float):
        return x if math.isfinite(x) else str(x)
    return str(x)


def json_value(x: float | None) -> float | None:
    """A value as JSON holds it: a finite float, or None (undefined; an infinite value is None with its flag)."""
    if x is None or not math.isfinite(x):
        return None
    return float(x)


class _ReportData(Kind):
    what = "a mapping in the layout of CVReport.to_dict()"

    def check(self, name: str, value: object) -> dict[str, Any]:
        check_layout(value, name)
        try:
            data = json.loads(json.dumps(value, allow_nan=False))
        except (TypeError, ValueError) as err:  # a value check_layout does not look into (an option's value)
            raise type(err)(f"{name} must hold JSON values only (the layout of CVReport.to_dict()): {err}") from None
        return dict(data)


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
        check_layout(data, name)
        return dict(data)


_QUANTITY = Instance(str, hint="a measure key, as in report.to_frame(readable=False)", what="a measure key (str)")
_KEY = Instance(str, hint="an aggregation or label average key", what="a str")


class CVReport:
    """Every aggregation of every measure of a cross-validated result, from :func:`report`.

    The content is one long table of values (:meth:`to_frame`) with its header, folds, notes and
    warnings; ``str(r)`` is an aligned text table, ``r._repr_html_()`` the table a notebook shows,
    :meth:`to_markdown` a pipe table, :meth:`to_latex` a booktabs table, :meth:`to_json` the whole
    report (read back by :meth:`from_json`), :meth:`methods_text` the paragraph for a paper's methods
    section. :meth:`value` looks one value up; :meth:`confidence_interval` computes intervals at any level.

    Examples
    --------
    >>> from apples import CVReport
    >>> from apples.cv import CVPredictions
    >>> from apples.reporting import report
    >>> r = report(CVPredictions([1, 0, 1, 0, 1, 0], y_pred=[1, 0, 0, 0, 1, 1], folds=[0, 0, 0, 1, 1, 1]))
    >>> r.value("f_measure", "tp_fp")
    0.6666666666666666
    >>> CVReport.from_json(r.to_json()) == r
    True
    """

    _data: dict[str, Any]
    _measures: dict[str, Measure] | None

    @declare(data=_ReportData())
    def __init__(self, data: Mapping[str, Any]) -> None:
        """A report from the dict of :meth:`to_dict` (checked: a TypeError or ValueError names the entry)."""
        self._data = data  # type: ignore[assignment]  # the kind copied it and checked the layout
        self._measures = None

    @classmethod
    def _build(cls, data: dict[str, Any], measures: Mapping[str, Measure] | None) -> CVReport:
        """A report of data that report() computed (or from_json checked): no check again."""
        out = cls.__new__(cls)
        out._data = data
        out._measures = None if measures is None else dict(measures)
        return out

    def _with_intervals(self, confidence: float) -> CVReport:
        """The same report with the interval of every value at ``confidence`` stored in its rows (printed)."""
        d = copy.deepcopy(self._data)
        d["confidence"] = confidence
        d["notes"] = [n for n in d["notes"] if not n.startswith("Intervals (")] + [interval_note(confidence, d)]
        repeated = "repeats" in d
        for row in d["values"]:
            ci = interval(_numeric(row), row["spread"], confidence, value_range(d, row["quantity"]), repeated=repeated)
            row["interval"] = {
                "low": json_value(ci.low),
                "high": json_value(ci.high),
                "method": ci.method,
                **({"reason": ci.reason} if ci.reason else {}),
            }
        return CVReport._build(d, self._measures)

    @classmethod
    @declare(text=_ReportJSON())
    def from_json(cls, text: str) -> CVReport:
        """The report written by :meth:`to_json`; a ValueError or TypeError naming the entry for anything else.

        JSON's ``NaN`` and ``Infinity`` are refused (:meth:`to_json` writes an undefined value as ``null``),
        and every value must lie in its measure's range.
        """
        return cls._build(text, None)  # type: ignore[arg-type]  # the kind parsed the text and checked the layout

    def to_dict(self) -> dict[str, Any]:
        """A deep copy of the report as plain Python (JSON types; undefined values are None)."""
        out: dict[str, Any] = json.loads(json.dumps(self._data))
        return out

    @declare(indent=Nullable(Instance(int, hint="spaces per level", what="an int")))
    def to_json(self, *, indent: int | None = 2) -> str:
        """The report as JSON (layout :data:`LAYOUT`); undefined values are ``null``."""
        return json.dumps(self._data, indent=indent, allow_nan=False)

    @declare(quantity=_QUANTITY, aggregation=Nullable(_KEY), average=_KEY)
    def value(self, quantity: str, aggregation: str | None = None, *, average: str = "") -> float | None:
        """One value: ``quantity`` (a measure key) under ``aggregation`` (default: the recommended one) and, for
        multi-class and multi-label label averages, ``average`` (``"macro"``, ``"micro"``, ``"lfb_test"``, ...).

        Returns the value (the mean over the repeats), ``math.inf`` for an infinite log loss, None where undefined.
        """
        row = self._row(quantity, aggregation, average)
        return _numeric(row) if row.get("value") is not None or row.get("infinite") else None

    def _row(self, quantity: str, aggregation: str | None, average: str) -> dict[str, Any]:
        d = self._data
        if quantity not in d["measures"]:
            raise ParameterValueError(
                f"quantity={quantity!r} is not in this report; its measures are {list(d['measures'])}", param="quantity"
            )
        if aggregation is None:
            aggregation = d["recommended"].get(quantity)
            if aggregation is None:
                raise ParameterValueError(
                    f"{quantity} has no recommended aggregation: name one of "
                    f"{list(d['measures'][quantity]['aggregations'])}",
                    param="aggregation",
                )
        rows = [r for r in d["values"] if r["quantity"] == quantity]
        averages = list(dict.fromkeys(r["average"] for r in rows))
        if average == "" and averages != [""]:
            average = "macro" if "macro" in averages else averages[0]
        for r in rows:
            if r["aggregation"] == aggregation and r["average"] == average:
                return r
        if average not in averages:
            raise ParameterValueError(f"average={average!r}: {quantity} has the averages {averages}", param="average")
        raise ParameterValueError(
            f"aggregation={aggregation!r}: {quantity} has the aggregations "
            f"{list(d['measures'][quantity]['aggregations'])}",
            param="aggregation",
        )

    @declare(confidence_level=CONFIDENCE, quantity=Nullable(_QUANTITY), aggregation=Nullable(_KEY), average=_KEY)
    def confidence_interval(
        self,
        confidence_level: float = 0.95,
        *,
        quantity: str | None = None,
        aggregation: str | None = None,
        average: str = "",
    ) -> Any:
        """The interval of one value at ``confidence_level``, or of every value.

        Each is the corrected repeated k-fold t over the points stored with the value (the folds' values for
        an average over folds, the jackknife pseudo-values for a pooled or merged value; :func:`report`'s
        ``confidence``), clipped to the measure's range.

        Returns
        -------
        ConfidenceInterval or pandas.DataFrame
            With ``quantity``: one :class:`~apples.ConfidenceInterval` (a ValueError, with the reason, if that
            value has none). Without: a DataFrame of every value, columns ``quantity, average, aggregation,
            value, low, high, method, reason``.
        """
        d = self._data
        repeated = "repeats" in d
        if quantity is not None:
            row = self._row(quantity, aggregation, average)
            ci = interval(_numeric(row), row["spread"], confidence_level, value_range(d, quantity), repeated=repeated)
            if ci.low is None or ci.high is None:
                raise ParameterValueError(
                    f"{quantity} {row['aggregation']} has no interval: {ci.reason}", param="quantity"
                )
            return ConfidenceInterval(_numeric(row), ci.low, ci.high, confidence_level, ci.method)
        import pandas as pd

        out = []
        for row in d["values"]:
            ci = interval(
                _numeric(row), row["spread"], confidence_level, value_range(d, row["quantity"]), repeated=repeated
            )
            out.append(
                {
                    "quantity": row["quantity"],
                    "average": row["average"],
                    "aggregation": row["aggregation"],
                    "value": _numeric(row),
                    "low": math.nan if ci.low is None else ci.low,
                    "high": math.nan if ci.high is None else ci.high,
                    "method": ci.method,
                    "reason": ci.reason,
                }
            )
        return pd.DataFrame(out)

    @declare(readable=FLAG, percent=FLAG, repeats=FLAG)
    def to_frame(self, *, readable: bool = True, percent: bool = False, repeats: bool = False) -> pd.DataFrame:
        """The long table as a pandas DataFrame: one row per (quantity, average, aggregation).

        Parameters
        ----------
        readable : bool, default True
            Readable labels, as the printed report shows them (``F-measure``, ``F_tp,fp (pooled counts)``,
            ``ROC AUC``, ``merged scores``) and the columns ``recommended`` and ``zero_substituted``.
            ``readable=False`` is the tidy machine form: the keys (``f_measure``, ``tp_fp``, ``roc_auc``,
            ``merge``) and the columns ``quantity, average, aggregation, value`` (+ ``std`` with repeats,
            + ``low, high, interval`` with intervals).
        percent : bool, default False
            Rates (and their spread and interval ends) in percent; measures that are no rates (MCC, kappa,
            log loss, Brier score) stay as they are.
        repeats : bool, default False
            Each repeat's values instead: columns ``repeat, quantity, average, aggregation, value``.

        Returns
        -------
        pandas.DataFrame
            ``average`` is empty for binary tasks; an undefined value is NaN, an infinite one inf.
        """
        import pandas as pd

        d = self._data
        if repeats:
            rows = d.get("repeats", {}).get("values", [])
            frame = pd.DataFrame(rows, columns=["repeat", "quantity", "average", "aggregation", "value"])
            return frame.fillna({"value": math.nan}).infer_objects()
        rows_ = report_rows(d)
        columns = ["quantity", "average", "aggregation", "value"] + (["std"] if "repeats" in d else [])
        if "confidence" in d:
            columns += ["low", "high", "interval"]
        numeric = ("value", "std", "low", "high")

        def cell(r: dict[str, Any], k: str) -> Any:
            v = r[k]
            if k in numeric:
                if v is None:
                    return math.nan
                return 100 * v if percent and d["measures"][r["quantity"]]["percent"] else v
            if readable and k in ("quantity", "average", "aggregation"):
                return r[f"{k}_name"]
            return v

        if readable:
            columns += ["recommended", "zero_substituted"]
            rows_ = [{**r, "zero_substituted": r["substituted"]} for r in rows_]
        return pd.DataFrame([{k: cell(r, k) for k in columns} for r in rows_], columns=columns)

    @declare(
        caption=Nullable(Instance(str, hint="the table's caption")), label=Nullable(Instance(str, hint="a LaTeX label"))
    )
    def to_latex(self, *, caption: str | None = None, label: str | None = None) -> str:
        """The report as a LaTeX table for a paper (booktabs; ``\\usepackage{booktabs}``).

        The rows and marks of the printed report, every word escaped (labels, fold ids); the caption is
        the report's header (cases, folds, repeats, stratification, seed, the weights) unless ``caption``
        is given; ``label`` adds ``\\label{...}``. The legend of the marks some row carries follows the table.

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

    def methods_text(self) -> str:
        """A paragraph for a paper's methods section: the design, the measures and their aggregations, the 0/0
        rules, the intervals, with the references (plain text; edit it to your study)."""
        return methods_paragraph(self._data)

    def _repr_html_(self) -> str:
        return render_html(self._data)

    def __str__(self) -> str:
        return render_text(self._data)

    def __repr__(self) -> str:
        d = self._data
        return (
            f"<CVReport {d['task']}: n={d['n']}, {d['n_folds']} folds, {len(d['measures'])} measures, "
            f"{len(d['warnings'])} warning(s)>"
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CVReport) and other._data == self._data

    __hash__ = None  # type: ignore[assignment]


def interval_note(confidence: float, d: Mapping[str, Any]) -> str:
    """The note a report with intervals prints about them."""
    repeats = "repeated " if "repeats" in d else ""
    return (
        f"Intervals ({100 * confidence:g}%): the corrected {repeats}k-fold t (Nadeau & Bengio 2003; Bouckaert & Frank "
        "2004) over the folds' values for averages over folds, and over the leave-one-fold-out jackknife pseudo-values "
        "for pooled and merged values; they account for the overlap of the training sets, and notebook 11 measures "
        "their coverage. confidence_interval(level) gives them at any level."
    )


def _numeric(row: Mapping[str, Any]) -> float:
    """A row's value as a float: NaN where undefined, inf where infinite."""
    if row.get("infinite"):
        return math.inf
    v = row["value"]
    return math.nan if v is None else float(v)
