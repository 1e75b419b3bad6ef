"""A paper's results table across models × data sets: values, intervals, the best in bold, marks, ranks, tests.

One value (and optionally an interval) per model and data set; per data set the best in bold and,
given each data set's :class:`~apples.comparison.ModelComparison`, a mark on the models significantly
worse than that best (Holm over the k − 1 comparisons with it); below, the average ranks, Friedman's
χ² and Iman & Davenport's F, Nemenyi's critical difference and the pairwise Wilcoxon–Holm tests
(Demšar 2006), with what the tests can attain with N data sets. Views: ``str()``, ``to_markdown()``,
``to_latex()``, ``to_frame()``, HTML in a notebook, and ``methods_text()`` for the methods section.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from apples._kernels.comparison import average_ranks, holm_adjust
from apples._params import FLAG, Instance, Integer, Nullable, ParameterValueError, Real, declare
from apples.comparison._render import LATEX_LABEL, plain_text
from apples.comparison._results_input import Cells, Comparisons, Reports, ResultsFrame, check_cells, report_cell
from apples.comparison._results_render import (
    methods_paragraph,
    render_html,
    render_latex,
    render_markdown,
    render_text,
    tidy_frame,
)
from apples.comparison.folds import ModelComparison
from apples.comparison.guidance import Attainability, attainability
from apples.comparison.ranks import (
    FriedmanResult,
    NemenyiResult,
    ScoreTable,
    WilcoxonHolmResult,
    run_friedman,
    run_nemenyi,
    run_wilcoxon_holm,
)
from apples.measures import MEASURES

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "LOWER_IS_BETTER",
    "ResultsTable",
    "results_table",
    "results_table_from_reports",
]

#: Quantities where a lower value is better (the measure records' direction); others: higher is better.
LOWER_IS_BETTER: tuple[str, ...] = tuple(k for k, m in MEASURES.items() if not m.greater_is_better)
_TESTS = {
    "corrected_t": "the corrected repeated k-fold t (Nadeau & Bengio 2003; Bouckaert & Frank 2004) over the folds",
    "corrected_resampled_t": "the corrected resampled t (Nadeau & Bengio 2003) over the hold-out splits",
}


def _label(measure: str, average: str, aggregation: str) -> str:
    """A comparison as :class:`~apples.comparison.ModelComparison` names it: ``key[:average]:aggregation``."""
    return ":".join(part for part in (measure, average, aggregation) if part)


@dataclass(frozen=True, eq=False)  # its frames have no single truth value: compare their fields
class ResultsTable:
    """A models × data sets results table with its tests: what :func:`results_table` builds.

    Attributes
    ----------
    scores : DataFrame
        The values: data sets (rows) × models (columns), as the table shows them.
    low, high : DataFrame or None
        The interval of each value (NaN where a cell has none); None without intervals.
    quantity : str
        What the values are (a caption's word).
    greater_is_better : bool
        The direction: the best is the largest value, or the smallest (a loss).
    alpha : float
        The level of the marks and the across-data-set tests.
    digits : int
        Decimals printed.
    best : DataFrame
        Bool, data sets × models: the best value of its data set (ties: all of them).
    control : dict
        Per data set with a comparison, the model the marks compare with (its best; the first of tied bests).
    p_holm : DataFrame
        Holm-adjusted p against the data set's best, over its k − 1 comparisons (NaN for the best, and where no
        comparison was given).
    worse : DataFrame
        Bool: significantly worse than the data set's best at ``alpha`` (the marks).
    average_ranks : Series
        Each model's mean rank over the data sets (1 = best, ties share the mean rank).
    friedman, nemenyi, wilcoxon : result or None
        Friedman (+ Iman–Davenport), Nemenyi and pairwise Wilcoxon–Holm over the data sets (None where the
        test does not apply: Friedman and Nemenyi need k ≥ 3, all three N ≥ 2).
    attainability : Attainability
        The smallest p each test can reach with these k and N (:func:`attainable_p_values`).
    interval : str
        What the intervals are (the legend's words), empty without intervals.
    marks_test : str
        The test and adjustment behind the marks (the legend's words), empty without comparisons.
    notes : tuple of str
        The legend and the notes below the table, in words.
    """

    scores: pd.DataFrame
    low: pd.DataFrame | None
    high: pd.DataFrame | None
    quantity: str
    greater_is_better: bool
    alpha: float
    digits: int
    best: pd.DataFrame
    control: dict[str, str]
    p_holm: pd.DataFrame
    worse: pd.DataFrame
    average_ranks: pd.Series
    friedman: FriedmanResult | None
    nemenyi: NemenyiResult | None
    wilcoxon: WilcoxonHolmResult | None
    attainability: Attainability
    interval: str
    marks_test: str
    notes: tuple[str, ...]

    def __str__(self) -> str:
        return render_text(self)

    def _repr_html_(self) -> str:
        return render_html(self)

    def to_markdown(self) -> str:
        """The table as Markdown: a pipe table (the best in bold, names escaped), then the notes as a list."""
        return render_markdown(self)

    @declare(caption=Nullable(Instance(str, hint="the table's caption")), label=Nullable(LATEX_LABEL))
    def to_latex(self, *, caption: str | None = None, label: str | None = None) -> str:
        """The table for a paper (booktabs; ``\\usepackage{booktabs}``), every name escaped, the notes below it.

        ``caption`` replaces the default caption (escaped); ``label`` adds ``\\label{...}`` as it is (checked:
        letters, digits and ``: _ - . / +``).
        """
        return render_latex(self, caption, label)

    def to_frame(self) -> pd.DataFrame:
        """One tidy row per data set and model: ``dataset, model, value, low, high, rank, best, p_holm, worse``."""
        return tidy_frame(self)

    def methods_text(self) -> str:
        """A paragraph for a paper's methods section: the tests, adjustments, attainability and references."""
        return methods_paragraph(self)


_ALPHA = Real(0.0, 1.0, low_inclusive=False, high_inclusive=False)
_TEXT = Nullable(Instance(str))


# -- building -------------------------------------------------------------------------------------------------
def _direction(quantity: str | None, greater_is_better: bool | None) -> bool:
    """Whether a greater value is better: the known direction of a loss, else the one given, else True."""
    key = (quantity or "").strip().lower().replace(" ", "_").replace("-", "_")
    known = key in LOWER_IS_BETTER
    if greater_is_better is None:
        return not known
    if known and greater_is_better:
        raise ParameterValueError(
            f"greater_is_better=True, but {quantity!r} is a loss: a lower value is better (pass greater_is_better="
            "False, or leave it None)",
            param="greater_is_better",
        )
    return greater_is_better


def _choose_measure(
    comparisons: dict[str, ModelComparison], measure: str | None, implied: str | None
) -> tuple[str, str | None]:
    """The measure of the comparisons behind the marks, and a note when it is not the table's quantity."""
    sets = [set(c.measures) for c in comparisons.values()]
    common = set.intersection(*sets) if sets else set()
    if measure is not None:
        if measure not in common:
            raise ParameterValueError(
                f"comparison_measure={measure!r} is not tested by every comparison; they all test {sorted(common)}",
                param="comparison_measure",
            )
    elif implied is not None and implied in common:
        measure = implied
    elif len(common) == 1:
        measure = next(iter(common))
    else:
        raise ParameterValueError(
            f"the comparisons test {sorted(common) or 'no common measure'}: name the one behind the marks with "
            "comparison_measure=",
            param="comparison_measure",
        )
    note = None
    if implied is not None and measure != implied:
        note = (
            f"The marks test {measure} (measure:aggregation as apples.compare names it), not the quantity in the "
            "table: the two can disagree."
        )
    elif implied is None:
        note = f"The marks test {measure} (measure:aggregation as apples.compare names it)."
    return measure, note


def _marks(
    cells: Cells,
    best: np.ndarray,
    comparisons: dict[str, ModelComparison],
    measure: str,
    alpha: float,
    notes: list[str],
) -> tuple[dict[str, str], np.ndarray, np.ndarray, set[str]]:
    """Per data set: Holm over the best model's k − 1 raw p-values; the models significantly worse than it."""
    n, k = cells.table.shape
    p_holm = np.full((n, k), np.nan)
    worse = np.zeros((n, k), dtype=bool)
    control: dict[str, str] = {}
    tests: set[str] = set()
    for d in comparisons:
        if d not in cells.datasets:
            raise ParameterValueError(
                f"comparisons has data set {d!r}, which the table does not hold ({cells.datasets[:10]})",
                param="comparisons",
            )
    for i, d in enumerate(cells.datasets):
        if d not in comparisons:
            continue
        comp = comparisons[d]
        j0 = int(np.flatnonzero(best[i])[0])
        c = cells.models[j0]
        control[d] = c
        if best[i].sum() > 1:
            tied = [cells.models[j] for j in np.flatnonzero(best[i])]
            notes.append(f"On {plain_text(d)}, {', '.join(map(plain_text, tied))} tie for the best; the marks compare "
                         f"with {plain_text(c)}, the first in the table's order.")  # fmt: skip
        rows = {}
        for r in comp.differences:
            if _label(r.measure, r.average, r.aggregation) == measure and c in (r.model_a, r.model_b):
                other = r.model_b if r.model_a == c else r.model_a
                sign = 1.0 if r.model_a == c else -1.0  # control minus other
                rows[other] = (r.p_value, sign * r.difference, r.test)
        others = [j for j in range(k) if j != j0]
        for j in others:
            if cells.models[j] not in rows:
                raise ParameterValueError(
                    f"comparisons[{d!r}] has no {measure} comparison of {c!r} (the best on {d!r}) with "
                    f"{cells.models[j]!r}; it compares {list(comp.names)[:10]}",
                    param="comparisons",
                )
        raw = np.array([rows[cells.models[j]][0] for j in others], dtype=float)
        adjusted = holm_adjust(raw)
        for j, ph in zip(others, adjusted, strict=True):
            _, diff, test = rows[cells.models[j]]
            tests.add(test)
            p_holm[i, j] = ph
            if ph < alpha:
                if diff > 0:
                    worse[i, j] = True
                else:
                    notes.append(
                        f"On {plain_text(d)}, {plain_text(cells.models[j])} differs significantly from "
                        f"{plain_text(c)} (p_Holm = {ph:.3g}) but the comparison finds it no worse on {measure}: "
                        "not marked."
                    )
        if np.isnan(raw).any():
            notes.append(f"On {plain_text(d)}, a comparison with {plain_text(c)} has an undefined p: left out of Holm.")
    return control, p_holm, worse, tests


def _build(
    cells: Cells,
    *,
    quantity: str,
    greater_is_better: bool,
    comparisons: dict[str, ModelComparison] | None,
    measure: str | None,
    implied: str | None,
    alpha: float,
    digits: int,
    interval: str,
) -> ResultsTable:
    import pandas as pd

    n, k = cells.table.shape
    v = cells.table
    target = v.max(axis=1, keepdims=True) if greater_is_better else v.min(axis=1, keepdims=True)
    best = v == target
    notes: list[str] = []
    control: dict[str, str] = {}
    p_holm = np.full((n, k), np.nan)
    worse = np.zeros((n, k), dtype=bool)
    marks_test = ""
    if comparisons:
        chosen, note = _choose_measure(comparisons, measure, implied)
        control, p_holm, worse, tests = _marks(cells, best, comparisons, chosen, alpha, notes)
        words = "; ".join(_TESTS.get(t, t) for t in sorted(tests)) or "the comparisons' test"
        marks_test = (
            f"† significantly worse than the best on its data set at α = {alpha:g}: {words}, on {chosen}, "
            f"Holm-adjusted over the k − 1 = {k - 1} comparisons with that data set's best (Holm 1979)"
        )
        missing = [d for d in cells.datasets if d not in comparisons]
        if missing:
            notes.append(f"No comparison given for {', '.join(map(plain_text, missing))}: no marks there.")
        if note:
            notes.insert(0, note)
    table = ScoreTable(v.T.copy(), cells.models, cells.datasets)
    ranks = average_ranks(table.scores, greater_is_better)
    friedman = nemenyi = wilcoxon = None
    if n >= 2:
        wilcoxon = run_wilcoxon_holm(table, alpha, greater_is_better, "nan", None)
        if k >= 3:
            friedman = run_friedman(table, greater_is_better, "nan", alpha)
            nemenyi = run_nemenyi(table, alpha, greater_is_better)
    index = pd.Index(cells.datasets, name="dataset")
    columns = pd.Index(cells.models, name="model")

    def frame(a: np.ndarray | None) -> pd.DataFrame | None:
        return None if a is None else pd.DataFrame(a, index=index, columns=columns)

    return ResultsTable(
        scores=pd.DataFrame(v, index=index, columns=columns),
        low=frame(cells.low),
        high=frame(cells.high),
        quantity=quantity,
        greater_is_better=greater_is_better,
        alpha=alpha,
        digits=digits,
        best=pd.DataFrame(best, index=index, columns=columns),
        control=control,
        p_holm=pd.DataFrame(p_holm, index=index, columns=columns),
        worse=pd.DataFrame(worse, index=index, columns=columns),
        average_ranks=pd.Series(ranks, index=columns, name="average rank"),
        friedman=friedman,
        nemenyi=nemenyi,
        wilcoxon=wilcoxon,
        attainability=attainability(k, n, alpha),
        interval=interval if cells.low is not None else "",
        marks_test=marks_test,
        notes=tuple(notes),
    )


_GREATER = Nullable(FLAG)
_COMPARISONS = Nullable(Comparisons())
_MEASURE = Nullable(Instance(str, hint="as ModelComparison.measures names it, e.g. 'f_measure:tp_fp'", what="a str"))
_DIGITS = Integer(0, 10)


@declare(
    frame=ResultsFrame(),
    quantity=_TEXT,
    greater_is_better=_GREATER,
    comparisons=_COMPARISONS,
    comparison_measure=_MEASURE,
    alpha=_ALPHA,
    digits=_DIGITS,
    interval=_TEXT,
)
def results_table(
    frame: pd.DataFrame,
    *,
    quantity: str | None = None,
    greater_is_better: bool | None = None,
    comparisons: Mapping[str, ModelComparison] | None = None,
    comparison_measure: str | None = None,
    alpha: float = 0.05,
    digits: int = 3,
    interval: str | None = None,
) -> ResultsTable:
    """A paper's results table across models × data sets, with the tests of Demšar (2006) below it.

    Per data set the best value in bold; given ``comparisons``, a † on each model significantly worse
    than that best: the best model's k − 1 raw p-values (the corrected repeated k-fold t of
    :func:`~apples.compare`) Holm-adjusted together (Holm 1979). Below: each model's average rank
    (1 = best), Friedman's χ²_F and Iman & Davenport's F_F (Demšar's choice, less conservative),
    Nemenyi's critical difference, the pairwise Wilcoxon signed-rank tests with Holm's correction,
    and what they can attain with N data sets (with 7 data sets the Wilcoxon–Holm test over 6 pairs
    cannot go below 0.094: the notes say so rather than "no significant difference").

    Parameters
    ----------
    frame : DataFrame
        Tidy: one row per model and data set, columns ``model``, ``dataset``, ``value`` and optionally
        ``low`` and ``high`` (an interval; NaN where a cell has none). Every model needs a value on every
        data set: a missing one is refused, naming the data set and the model. Names are any text:
        escaped in every rendering.
    quantity : str, optional
        What the values are (the caption's word; ``"log_loss"``, ``"brier_score"`` and ``"hamming_loss"``
        set the direction).
    greater_is_better : bool, optional
        Whether a higher value is better. Default: False for a quantity in :data:`LOWER_IS_BETTER`, else True.
        True for a known loss is refused.
    comparisons : mapping {data set: ModelComparison}, optional
        Each data set's :func:`~apples.compare` of its models (names as in ``frame``); a data set without
        one gets no marks (said in the notes).
    comparison_measure : str, optional
        The measure of the comparisons behind the marks; default the one every comparison tests, or the
        table's quantity when it is one of them.
    alpha : float, default 0.05
        The level of the marks and of the tests' words.
    digits : int, default 3
        Decimals printed (halves rounded up).
    interval : str, optional
        What the intervals are, for the legend (``"95% corrected repeated k-fold t"``).

    Returns
    -------
    ResultsTable
        ``str()``, ``to_markdown()``, ``to_latex()``, ``to_frame()``, ``methods_text()``, HTML in a notebook.

    References
    ----------
    Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets. JMLR 7, 1–30.
    Friedman, M. (1937). JASA 32, 675–701; (1940). Ann. Math. Statist. 11, 86–92. Iman, R. L. &
    Davenport, J. M. (1980). Comm. Statist. A 9, 571–595. Holm, S. (1979). Scand. J. Statist. 6, 65–70.
    Nadeau, C. & Bengio, Y. (2003). Machine Learning 52, 239–281. Bouckaert, R. R. & Frank, E. (2004).
    PAKDD, LNCS 3056.

    Examples
    --------
    >>> import pandas as pd
    >>> from apples.comparison import results_table
    >>> frame = pd.DataFrame({
    ...     "model": ["lr", "nb", "rf"] * 2,
    ...     "dataset": ["wine"] * 3 + ["iris"] * 3,
    ...     "value": [0.97, 0.96, 0.98, 0.95, 0.95, 0.94],
    ... })
    >>> t = results_table(frame, quantity="accuracy")
    >>> t.best.loc["wine"].tolist(), t.average_ranks.tolist()
    ([False, False, True], [1.75, 2.25, 2.0])
    """
    cells: Cells = frame  # type: ignore[assignment]  # converted by its kind
    greater = _direction(quantity, greater_is_better)
    implied = None
    return _build(
        cells,
        quantity=quantity or "value",
        greater_is_better=greater,
        comparisons=comparisons,  # type: ignore[arg-type]
        measure=comparison_measure,
        implied=implied,
        alpha=alpha,
        digits=digits,
        interval=interval or "as given",
    )


@declare(
    reports=Reports(),
    quantity=Instance(str),
    aggregation=Instance(str),
    average=_TEXT,
    greater_is_better=_GREATER,
    comparisons=_COMPARISONS,
    comparison_measure=_MEASURE,
    alpha=_ALPHA,
    digits=_DIGITS,
    interval=_TEXT,
)
def results_table_from_reports(
    reports: Mapping[str, Mapping[str, Any]],
    *,
    quantity: str,
    aggregation: str,
    average: str | None = None,
    greater_is_better: bool | None = None,
    comparisons: Mapping[str, ModelComparison] | None = None,
    comparison_measure: str | None = None,
    alpha: float = 0.05,
    digits: int = 3,
    interval: str | None = None,
) -> ResultsTable:
    """:func:`results_table` from each data set's reports: ``{data set: {model: apples.report(...)}}``.

    Each report is read through ``report.to_frame(readable=False)`` (columns ``quantity, average,
    aggregation, value`` and, with intervals, ``low, high, interval``), one row per report: the
    ``quantity`` and ``aggregation`` as the report's JSON keys name them (``"f_measure"``/``"tp_fp"``,
    ``"accuracy"``/``"pooled"``, ``"roc_auc"``/``"avg"``, ``"log_loss"``/``"pooled"``, ...) and, for a
    multi-class or multi-label quantity, the ``average`` (``"macro"``, ``"micro"``, ``"lfb_test"``,
    ``"macro_ovr"``, ...). The interval beside each value is the report's, if it has one.

    Parameters
    ----------
    reports : mapping {data set: {model: CVReport}}
        Every data set with the same models.
    quantity, aggregation : str
        The row of each report (a missing one is refused, naming what the report has).
    average : str, optional
        Needed when the quantity has several averages (multi-class, multi-label).
    greater_is_better, comparisons, comparison_measure, alpha, digits, interval
        As :func:`results_table`; the direction defaults to the quantity's (log loss, Brier score and
        Hamming loss: lower is better), and the comparisons' measure to the same number when
        :func:`~apples.compare` names it (``"f_measure:tp_fp"``, ``"roc_auc:avg"``, ``"mean_f:macro:pooled"``).

    Returns
    -------
    ResultsTable
    """
    reps: dict[str, dict[str, Any]] = reports  # type: ignore[assignment]  # converted by its kind
    greater = _direction(quantity, greater_is_better)
    models: list[str] = []
    datasets: list[str] = []
    cols: dict[str, list[float]] = {"value": [], "low": [], "high": []}
    methods: set[str] = set()
    for d, inner in reps.items():
        for m in inner:
            value, low, high, method = report_cell(reps, d, m, quantity, aggregation, average)
            models.append(m)
            datasets.append(d)
            cols["value"].append(value)
            cols["low"].append(low)
            cols["high"].append(high)
            if method and not math.isnan(low):
                methods.add(method)
    try:
        cells = check_cells("reports", models, datasets, {k: np.asarray(c, dtype=float) for k, c in cols.items()})
    except ValueError as err:
        raise ParameterValueError(str(err), param="reports") from None
    words = interval or ("as each report computed it (" + ", ".join(sorted(methods)) + ")" if methods else "")
    label = f"{quantity} ({aggregation})" if average is None else f"{quantity} ({average}, {aggregation})"
    return _build(
        cells,
        quantity=label,
        greater_is_better=greater,
        comparisons=comparisons,  # type: ignore[arg-type]
        measure=comparison_measure,
        implied=_label(quantity, average or "", aggregation),
        alpha=alpha,
        digits=digits,
        interval=words,
    )
