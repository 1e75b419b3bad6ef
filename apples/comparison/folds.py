"""One call to compare models cross-validated on the same folds: :func:`compare` and :class:`ModelComparison`.

Each measure's difference is tested over the folds with the corrected repeated k-fold t (Nadeau &
Bengio 2003; Bouckaert & Frank 2004), because per-fold differences of k-fold cross-validation are
not independent: two training sets share (k − 2)/(k − 1) of their cases. A measure is any record of
:mod:`apples.measures` (your own too) under any of its aggregations and label averages: the points
paired fold by fold are the folds' values for an average over folds and the leave-one-fold-out
jackknife pseudo-values for a pooled or merged value (:mod:`apples.measures._evaluate`), the same
points the report's intervals are made of. Binary, multi-class and multi-label predictions from any
splitter (k-fold, repeated, leave-one-out, hold-out splits) and their sample weights are used as the
report uses them.
"""

from __future__ import annotations

import html
import math
import string
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from apples._kernels.comparison import corrected_t_test, correlated_t_probabilities, design_rho, holm_adjust
from apples._params import (
    CONFIDENCE,
    FLAG,
    Instance,
    Kind,
    MappingOf,
    Nullable,
    ParameterValueError,
    Policy,
    Real,
    SequenceOf,
    Undefined,
    UndefinedMetricError,
    declare,
    resolve,
)
from apples.comparison.bayes import BayesianComparison
from apples.cv import CVPredictions
from apples.cv.predictions import CV_PREDICTIONS
from apples.measures import MEASURES, Measure
from apples.measures._evaluate import Context, estimate
from apples.measures._tables import are_probabilities, fold_tables, train_weights

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "COMPARE_MEASURES",
    "MeasureDifference",
    "ModelComparison",
    "compare",
]

#: The default comparisons by task: (measure, label average, aggregation), each the aggregation the papers support.
COMPARE_MEASURES: dict[str, tuple[tuple[str, str, str], ...]] = {
    "binary": (
        ("f_measure", "", "tp_fp"),
        ("accuracy", "", "pooled"),
        ("balanced_accuracy", "", "pooled"),
        ("mcc", "", "pooled"),
        ("roc_auc", "", "avg"),
        ("average_precision", "", "avg"),
        ("h_measure", "", "avg"),
        ("log_loss", "", "pooled"),
        ("brier_score", "", "pooled"),
    ),
    "multiclass": (
        ("mean_f", "macro", "pooled"),
        ("f_of_averages", "macro", "pooled"),
        ("accuracy", "", "pooled"),
        ("balanced_accuracy", "", "pooled"),
        ("mcc", "", "pooled"),
        ("roc_auc", "macro_ovr", "avg"),
    ),
    "multilabel": (
        ("mean_f", "macro", "pooled"),
        ("mean_f", "micro", "pooled"),
        ("subset_accuracy", "", "pooled"),
        ("hamming_loss", "", "pooled"),
        ("roc_auc", "macro_ovr", "avg"),
    ),
}

_WHY = (
    "Test: the corrected repeated k-fold t (Nadeau & Bengio 2003, Machine Learning 52, §4; Bouckaert & Frank 2004, "
    "PAKDD, §3) over the J = r·k per-fold differences, paired by repeat and fold, with J − 1 degrees of freedom and "
    "variance factor 1/J + n_test/n_train instead of 1/J: the training sets overlap, so the fold differences are "
    "correlated and the naive paired t is too liberal (Dietterich 1998, Neural Computation 10(7))."
)
_POOLED_WHY = (
    "Pooled and merged values (F_tp,fp, pooled accuracy, merged AUC, ...) have one value per repeat, not per fold: "
    "the difference is tested through each fold's leave-one-fold-out jackknife pseudo-value k·V − (k − 1)·V₋f "
    "(Quenouille 1956; Tukey 1958), whose mean is the value; for a ratio of sums it is the fold's linearised "
    "contribution of the delta method (Cochran 1977 §6.3) up to the denominator of the other folds."
)
_HOLD_OUT = (
    "Hold-out splits (one test set per repeat): the corrected resampled t of Nadeau & Bengio over the splits' "
    "differences, n_train the cases each split did not test."
)
_NOT_DELONG = (
    "Not DeLong on the merged scores nor McNemar on the pooled predictions: both treat the cases as the only source "
    "of variation and ignore the variation of the training sets (Dietterich 1998); they are valid for one held-out "
    "test set scored by fixed, already trained models."
)


class MeasureDifference(NamedTuple):
    """One measure's difference between two models (``model_a`` minus ``model_b``) and its test."""

    measure: str
    model_a: str
    model_b: str
    value_a: float
    value_b: float
    difference: float
    low: float
    high: float
    statistic: float
    df: int
    p_value: float
    p_holm: float
    test: str
    average: str = ""  #: the label average (multi-class and multi-label; "" for a measure of the whole table)
    aggregation: str = ""  #: the aggregation over the folds


@dataclass(frozen=True, slots=True)
class ModelComparison:
    """What :func:`compare` found: each measure's paired differences, tests and intervals.

    Attributes
    ----------
    differences : tuple of MeasureDifference
        One row per measure and pair of models (``model_a`` minus ``model_b``).
    names : tuple of str
        The models, in the order given.
    measures : tuple of str
        The comparisons made, as ``measure``, ``measure:aggregation`` or ``measure:average:aggregation``.
    confidence : float
        Nominal coverage of the intervals.
    n_folds, n_repeats : int
        Folds per repeat (the largest) and repeats.
    n_train, n_test : float
        The mean training and test set sizes of the Nadeau–Bengio correction.
    holm : bool
        Whether the p-values were adjusted by Holm's method (more than two models: all pairs per measure).
    notes : tuple of str
        Which test, why, and for which question DeLong or McNemar would be the right test instead.
    fold_differences : tuple of numpy arrays
        For each row of ``differences``, the J paired per-fold differences its test is computed from (for the
        Bayesian correlated t, :func:`apples.comparison.bayesian_correlated_t`).
    """

    differences: tuple[MeasureDifference, ...]
    names: tuple[str, ...]
    measures: tuple[str, ...]
    confidence: float
    n_folds: int
    n_repeats: int
    n_train: float
    n_test: float
    holm: bool
    notes: tuple[str, ...]
    fold_differences: tuple[np.ndarray, ...] = ()

    @declare(rope=Real(0.0, None), measure=Nullable(Instance(str, hint="as .measures names it", what="a str")))
    def bayesian(self, rope: float, *, measure: str | None = None) -> tuple[BayesianComparison, ...]:
        """The Bayesian correlated t test (Corani & Benavoli 2015; Benavoli et al. 2017 §3.1) of every row's paired
        per-fold differences, ρ derived from the design: 1/k for k-fold cross-validation (repeated or not), and
        n_test/(n_train + n_test) for hold-out splits.

        Parameters
        ----------
        rope : float
            The half-width of the region of practical equivalence, in the measure's units (0.01: one point).
        measure : str, optional
            Only the rows of this comparison (as :attr:`measures` names it, e.g. ``"f_measure:tp_fp"``).

        Returns
        -------
        tuple of BayesianComparison
            One per row of :attr:`differences` (or of that measure), in their order: P(A practically worse),
            P(practically equivalent), P(A practically better), with the posterior; NaN probabilities where every
            fold difference is the same (the posterior's scale is 0/0).
        """
        rows = list(zip(self.differences, self.fold_differences, strict=True))
        if measure is not None:
            if measure not in self.measures:
                raise ParameterValueError(
                    f"measure={measure!r}: this comparison has {list(self.measures)}", param="measure"
                )
            rows = [(d, f) for d, f in rows if self._label(d) == measure]
        rho = (
            design_rho(n_train=self.n_train, n_test=self.n_test)
            if self.n_folds == 1
            else design_rho(n_folds=self.n_folds)
        )
        out = []
        for d, diffs in rows:
            r = correlated_t_probabilities(diffs, rho, rope)
            post = r.posterior
            out.append(
                BayesianComparison(
                    r.p_left, r.p_rope, r.p_right, post.loc, post.scale, post.df, rho, rope, (d.model_a, d.model_b)
                )
            )
        return tuple(out)

    def to_frame(self) -> pd.DataFrame:
        """One tidy row per measure and pair: the fields of :class:`MeasureDifference`."""
        import pandas as pd

        return pd.DataFrame([row._asdict() for row in self.differences], columns=list(MeasureDifference._fields))

    def _label(self, d: MeasureDifference) -> str:
        parts = [d.measure] + ([d.average] if d.average else []) + ([d.aggregation] if d.aggregation else [])
        return ":".join(parts)

    def _cells(self) -> list[list[str]]:
        pct = f"{self.confidence:.0%}"
        head = ["measure", "A", "B", "value A", "value B", "A − B", f"{pct} interval", "t", "df", "p"]
        if self.holm:
            head.append("p (Holm)")
        rows = [head]
        for d in self.differences:
            row = [
                self._label(d),
                d.model_a,
                d.model_b,
                f"{d.value_a:.4f}",
                f"{d.value_b:.4f}",
                f"{d.difference:+.4f}",
                f"[{d.low:+.4f}, {d.high:+.4f}]",
                f"{d.statistic:.3f}",
                str(d.df),
                f"{d.p_value:.4f}",
            ]
            if self.holm:
                row.append(f"{d.p_holm:.4f}")
            rows.append(row)
        return rows

    def _title(self) -> str:
        repeats = f" × {self.n_repeats} repeats" if self.n_repeats > 1 else ""
        return (
            f"Comparison of {', '.join(self.names)} over {self.n_folds} folds{repeats} "
            f"(n_train ≈ {self.n_train:g}, n_test ≈ {self.n_test:g})"
        )

    def methods_text(self) -> str:
        """A paragraph for a paper's methods section: what was compared, the test, its correction, with references.

        Examples
        --------
        >>> import numpy as np, apples
        >>> y = np.array([0, 1] * 10); folds = np.arange(20) % 5
        >>> a = apples.CVPredictions(y, folds=folds, y_pred=y)
        >>> b = apples.CVPredictions(y, folds=folds, y_pred=np.where(np.arange(20) % 3 == 0, 1 - y, y))
        >>> print(apples.compare(a, b, measures=["accuracy"], names=["A", "B"]).methods_text().split(", with")[0])
        We compared A and B on the same 5 folds of cross-validation by accuracy (pooled over folds)
        """
        seen: dict[str, None] = {}
        for d in self.differences:
            seen.setdefault(_readable(d), None)
        what = _and(list(seen))
        models = _and(list(self.names))
        level = f"{100 * self.confidence:g}%"
        unit = "split" if self.n_folds == 1 else "fold"
        if self.n_folds == 1:
            design = f"{self.n_repeats} random hold-out splits" if self.n_repeats > 1 else "one hold-out split"
            test = "the corrected resampled t test (Nadeau & Bengio 2003) over the paired per-split differences"
        else:
            design = f"{self.n_folds} folds" + (f" of {self.n_repeats} repeats" if self.n_repeats > 1 else "")
            design += " of cross-validation"
            test = (
                "the corrected repeated k-fold t test (Nadeau & Bengio 2003; Bouckaert & Frank 2004) over the "
                "paired per-fold differences"
            )
        holm = (
            f" With {len(self.names)} models every pair was tested and the p-values of each measure adjusted by "
            "Holm's step-down method (Holm 1979)."
            if self.holm
            else ""
        )
        return (
            f"We compared {models} on the same {design} by {what}, with {test} (for pooled and merged values, "
            f"their leave-one-{unit}-out jackknife pseudo-values), which accounts for the overlap of the training sets "
            f"(Dietterich 1998); the intervals of the differences are {level} intervals of the same t."
            + holm
            + "\n\nReferences\n- Nadeau, C. & Bengio, Y. (2003). Machine Learning 52(3), 239-281.\n"
            "- Bouckaert, R. R. & Frank, E. (2004). PAKDD, LNCS 3056, 3-12.\n"
            "- Dietterich, T. G. (1998). Neural Computation 10(7), 1895-1923."
            + ("\n- Holm, S. (1979). Scandinavian Journal of Statistics 6(2), 65-70." if self.holm else "")
        )

    def __str__(self) -> str:
        rows = self._cells()
        widths = [max(len(r[j]) for r in rows) for j in range(len(rows[0]))]
        lines = [self._title()]
        lines += [
            "  ".join(c.ljust(w) if j < 3 else c.rjust(w) for j, (c, w) in enumerate(zip(r, widths, strict=True)))
            for r in rows
        ]
        return "\n".join([*lines, *self.notes])

    def _repr_html_(self) -> str:
        esc = html.escape
        rows = self._cells()
        head = "".join(f"<th>{esc(c)}</th>" for c in rows[0])
        body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in r) + "</tr>" for r in rows[1:])
        notes = "".join(f"<p>{esc(n)}</p>" for n in self.notes)
        return f"<p><b>{esc(self._title())}</b></p><table><tr>{head}</tr>{body}</table>{notes}"


class _Names(Kind):
    what = "a sequence of model names (non-empty strings)"

    def check(self, name: str, value: object) -> list[str]:
        if isinstance(value, str) or not isinstance(value, Sequence):
            raise TypeError(f"{name} must be {self.what}, got {type(value).__name__}")
        for i, v in enumerate(value):
            if not isinstance(v, str) or not v:
                raise TypeError(f"{name}[{i}] must be a non-empty string, got {v!r}")
        return list(value)


class _Choice(NamedTuple):
    measure: Measure
    average: str
    aggregation: str


class _Selection(Kind):
    what = (
        "a sequence of comparisons: a measure key ('mcc'), 'key:aggregation' ('roc_auc:merge'), "
        "'key:average:aggregation' ('mean_f:macro:avg'), or an apples.measures.Measure"
    )

    def check(self, name: str, value: object) -> list[tuple[Measure, str | None, str | None]]:
        if isinstance(value, (str, Measure)):
            value = [value]
        if not isinstance(value, Sequence) or not value:
            raise TypeError(f"{name} must be {self.what}, got {value!r:.80}")
        out: list[tuple[Measure, str | None, str | None]] = []
        for i, v in enumerate(value):
            if isinstance(v, Measure):
                out.append((v, None, None))
                continue
            if not isinstance(v, str):
                raise TypeError(f"{name}[{i}] must be a str or a Measure, got {type(v).__name__}")
            parts = v.split(":")
            if parts[0] not in MEASURES or len(parts) > 3:
                raise ValueError(f"{name}[{i}] is {v!r}: the measures are {list(MEASURES)} ({self.what})")
            m = MEASURES[parts[0]]
            average, aggregation = (None, parts[1]) if len(parts) == 2 else [*parts[1:], None, None][:2]
            if aggregation is not None and aggregation not in [a.key for a in m.aggregations]:
                raise ValueError(
                    f"{name}[{i}] asks for aggregation {aggregation!r} of {m.key}, which has "
                    f"{[a.key for a in m.aggregations]}"
                )
            out.append((m, average, aggregation))
        return out


def _default_names(m: int) -> list[str]:
    letters = string.ascii_uppercase
    return [letters[i] if i < len(letters) else f"M{i + 1}" for i in range(m)]


def _param(i: int) -> str:
    return "a" if i == 0 else "b" if i == 1 else f"more[{i - 2}]"


def _same(x: np.ndarray | None, y: np.ndarray | None) -> bool:
    if x is None or y is None:
        return x is None and y is None
    return x.shape == y.shape and bool(np.array_equal(x, y))


def _check_same_design(models: list[CVPredictions]) -> None:
    first = models[0]
    for i, p in enumerate(models[1:], start=1):
        param = _param(i)
        for what, x, y in (("y_true", first.y_true, p.y_true), ("fold ids", first.folds, p.folds)):
            if not _same(x, y):
                where = ""
                if x.shape == y.shape:
                    diff = np.flatnonzero(np.any((x != y).reshape(x.shape[0], -1), axis=1))
                    where = f" (first difference at row {int(diff[0])})"
                raise ParameterValueError(
                    f"{param} does not share the {what} of a{where}: a paired comparison needs the same cases in "
                    "the same folds and repeats, in the same row order",
                    param=param,
                )
        if not _same(first.repeats, p.repeats):
            raise ParameterValueError(
                f"{param} does not share the repeat ids of a: a paired comparison needs the same repeats", param=param
            )
        if not _same(first.sample_weight, p.sample_weight):
            raise ParameterValueError(
                f"{param} does not carry the sample_weight of a: each model's values must be weighted alike "
                "(the same sample_weight, or none)",
                param=param,
            )
        if p.task != first.task or p.pos_label != first.pos_label or p.labels != first.labels:
            raise ParameterValueError(
                f"{param} is a {p.task} task with labels {p.labels[:10]} (positive {p.pos_label!r}), but a is "
                f"{first.task} with {first.labels[:10]} (positive {first.pos_label!r})",
                param=param,
            )


def _usable(m: Measure, p: CVPredictions) -> str | None:
    if p.task not in m.tasks:
        return f"{m.key} is for {', '.join(m.tasks)} tasks, not {p.task}"
    if m.needs == "y_pred" and p.pred_codes is None:
        return f"{m.key} needs y_pred"
    if m.needs == "y_score" and p.y_score is None:
        return f"{m.key} needs y_score"
    if m.needs == "probabilities" and not are_probabilities(p.y_score, p.task):
        return f"{m.key} needs probabilities in y_score"
    return None


def _choices(
    models: list[CVPredictions], selection: list[tuple[Measure, str | None, str | None]] | None, train: bool
) -> tuple[list[_Choice], list[str]]:
    """The comparisons to make, and (by default) the measures some model allows but not every one."""
    first = models[0]
    if selection is None:
        out, left = [], []
        for key, average, aggregation in COMPARE_MEASURES[first.task]:
            m = MEASURES[key]
            reasons = [f"{_param(i)}: {w}" for i, p in enumerate(models) if (w := _usable(m, p))]
            why = reasons[0] if reasons else None
            if why is None:
                out.append(_Choice(m, average, aggregation))
            elif any(_usable(m, p) is None for p in models):
                left.append(f"{key} ({why})")
        if not out:
            raise ParameterValueError("these predictions allow no measure of compare", param="measures")
        return out, left

    chosen: list[_Choice] = []
    for m, asked_average, asked_aggregation in selection:
        for i, p in enumerate(models):
            problem = _usable(m, p)
            if problem:
                where = "" if i == 0 else f"; {_param(i)} has none"
                raise ParameterValueError(f"measures: {problem}{where}", param="measures" if i == 0 else _param(i))
        if first.task == "binary" or not m.averages:
            if asked_average:
                raise ParameterValueError(
                    f"measures: {m.key} has no label average here (got {asked_average!r})", param="measures"
                )
            chosen_average = ""
        else:
            allowed = [a for a in m.averages if a != "lfb_train" or train]
            chosen_average = asked_average or ("macro" if "macro" in allowed else allowed[0])
            if chosen_average not in allowed:
                raise ParameterValueError(
                    f"measures: {m.key} has the averages {allowed}, not {chosen_average!r}", param="measures"
                )
        chosen.append(_Choice(m, chosen_average, asked_aggregation or m.recommended or m.aggregations[0].key))
    return chosen, []


_FREQUENCIES = MappingOf(Real(0.0, 1.0), what="a mapping label -> training-set relative frequency")


def _label_f(p: CVPredictions, j: int) -> Measure:
    """The F1 of label j against the rest (a multi-class or multi-label task), as a record of the counts family."""
    import dataclasses

    from apples._kernels.f_measure import f_of_counts

    def kernel(t: Any, *, average: str, train: Any, undefined: str, options: Mapping) -> Any:
        return f_of_counts(t.tp[..., j], t.fp[..., j], t.fn[..., j])

    base = MEASURES["f_measure"]
    return dataclasses.replace(
        MEASURES["mean_f"],
        key=f"f_measure[{p.labels[j]}]",
        name=f"F1 of label {p.labels[j]}",
        kernel=kernel,
        averages=(),
        aggregations=(base.aggregation("tp_fp"), base.aggregation("avg")),
        recommended="tp_fp",
    )


@declare(
    a=CV_PREDICTIONS,
    b=CV_PREDICTIONS,
    more=SequenceOf(CV_PREDICTIONS),
    measures=Nullable(_Selection()),
    names=Nullable(_Names()),
    confidence=CONFIDENCE,
    undefined=Undefined("raise", "nan"),
    train_frequencies=Nullable(_FREQUENCIES),
    per_label=FLAG,
)
def compare(
    a: CVPredictions,
    b: CVPredictions,
    *more: CVPredictions,
    measures: Sequence[str | Measure] | None = None,
    names: Sequence[str] | None = None,
    confidence: float = 0.95,
    undefined: Policy = "raise",
    train_frequencies: Mapping[Hashable, float] | None = None,
    per_label: bool = False,
) -> ModelComparison:
    """Compare two or more models cross-validated on the same cases, folds and repeats, measure by measure.

    For each measure and pair of models, the difference A − B with its interval, the test that
    respects the folds (the corrected repeated k-fold t of Nadeau & Bengio 2003, §4, and Bouckaert &
    Frank 2004, §3: ``t = d̄ / √((1/J + n_test/n_train)·σ̂²)`` over the J paired per-fold points,
    J − 1 degrees of freedom) and its p-value. With more than two models every pair is tested and the
    p-values of each measure are adjusted by Holm's method (``p_holm``).

    Parameters
    ----------
    a, b, *more : CVPredictions
        The models' cross-validated predictions: the same ``y_true``, fold ids, repeat ids and
        ``sample_weight``, row for row (a model that does not share them is refused, naming it: ``b``,
        ``more[0]``, ...). Binary, multi-class or multi-label; any splitter (hold-out splits need
        ``n_cases``, which :func:`apples.cross_val_predictions` sets).
    measures : sequence, optional
        What to compare: measure keys of :data:`apples.measures.MEASURES` (at the aggregation the papers
        support: F_tp,fp, pooled accuracy, AUC_avg, ...), ``"key:aggregation"`` (``"roc_auc:merge"``),
        ``"key:average:aggregation"`` (``"mean_f:micro:pooled"``), or Measure records (your own: see
        :mod:`apples.measures.custom`). Default, by task: binary F_tp,fp, accuracy, balanced accuracy, MCC,
        AUC_avg, AP_avg, H_avg, log loss and Brier score; multi-class macro F (both definitions),
        accuracy, balanced accuracy, MCC, macro one-vs-rest AUC; multi-label macro and micro F, subset
        accuracy, Hamming loss, macro AUC — each that every model's predictions allow.
    names : sequence of str, optional
        The models' names, default ``"A"``, ``"B"``, ``"C"``, ...
    confidence : float, default 0.95
        Nominal coverage of the intervals of the differences.
    undefined : {"raise", "nan"}, default "raise"
        0/0: every fold difference the same (the t statistic is 0/0; a model against itself), or a point
        defined for one model and not the other: raise :class:`~apples.UndefinedMetricError`, or give NaN.
    train_frequencies : mapping label -> float, optional
        Multi-class and multi-label: training-set label frequencies, for the ``lfb_train`` average.
    per_label : bool, default False
        Multi-class and multi-label: also each label's F1 against the rest, pooled over the folds (F_tp,fp of
        the label), one row per label (measure ``f_measure[<label>]``).

    Returns
    -------
    ModelComparison
        ``differences`` (one :class:`MeasureDifference` per measure and pair), ``to_frame()``, a readable
        ``str()`` that names the test and why, an HTML table in notebooks, ``methods_text()``, and each
        row's paired per-fold differences (``fold_differences``).

    Notes
    -----
    A pooled or merged value (F_tp,fp, pooled accuracy, AUC_merge) has one value per repeat, not per fold:
    its difference is tested through each fold's leave-one-fold-out jackknife pseudo-value
    ``k·V − (k − 1)·V₋f`` (for a ratio of sums, the delta method's linearised contribution up to the
    denominator of the other folds: Cochran 1977, §6.3). An average over folds that leaves out a fold where
    the measure is undefined (AUC of a fold with one class) leaves it out of both models. DeLong's test on
    the merged scores and McNemar's on the pooled predictions ignore the variation of the training sets
    (Dietterich 1998, Neural Computation 10(7), 1895–1923); they answer another question, valid for one
    held-out test set scored by fixed models.

    References
    ----------
    Nadeau, C. & Bengio, Y. (2003). Machine Learning 52, 239–281, §4. Bouckaert, R. R. & Frank, E.
    (2004). PAKDD, LNCS 3056, §3. Forman, G. & Scholz, M. (2010). SIGKDD Explorations 12(1), §2.3, §3,
    §4. Holm, S. (1979). Scandinavian Journal of Statistics 6, 65–70.

    Examples
    --------
    >>> import apples
    >>> from apples import compare
    >>> y = [1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0]
    >>> folds = [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]
    >>> a = apples.CVPredictions(y, folds=folds, y_pred=[1, 0, 1, 0, 1, 0, 1, 1, 1, 0, 1, 0])
    >>> b = apples.CVPredictions(y, folds=folds, y_pred=[1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1])
    >>> c = compare(a, b, measures=["accuracy"])
    >>> d = c.differences[0]
    >>> round(d.value_a, 4), round(d.value_b, 4), round(d.difference, 4), d.df
    (0.9167, 0.5833, 0.3333, 2)

    Equal folds: the jackknife pseudo-values of the pooled accuracy are the folds' accuracies, whose
    differences are 1/4, 1/4, 1/2: ``t = (1/3) / √((1/3 + 4/8)·(1/48)) = 2.5298``.

    >>> round(d.statistic, 4)
    2.5298
    """
    models = [a, b, *more]
    _check_same_design(models)
    if names is None:
        names = _default_names(len(models))
    elif len(names) != len(models):
        raise ParameterValueError(f"names has {len(names)} names for {len(models)} models", param="names")
    elif len(set(names)) != len(names):
        raise ParameterValueError(f"names holds a name twice: {list(names)}", param="names")
    first = models[0]
    train = train_weights(first, train_frequencies)
    chosen, left_out = _choices(models, None if measures is None else list(measures), train is not None)  # type: ignore[arg-type]
    if per_label:
        if first.task == "binary" or first.pred_codes is None:
            raise ParameterValueError(
                "per_label is for multi-class and multi-label predictions with y_pred (a binary task's F is the "
                "positive label's)",
                param="per_label",
            )
        chosen += [_Choice(_label_f(first, j), "", "tp_fp") for j in range(len(first.labels))]
    records = list({c.measure.key: c.measure for c in chosen}.values())
    eps = next((m.options["eps"] for m in records if m.options.get("eps") is not None), None)  # log loss clipping
    tables = [fold_tables(p, records, eps=eps) for p in models]
    infinite_left_out: list[str] = []
    compared: list[_Choice] = []
    pairs = list(combinations(range(len(models)), 2))
    rows: list[MeasureDifference] = []
    folds_of_rows: list[np.ndarray] = []
    sizes: tuple[float, float] | None = None
    for c in chosen:
        estimates = []
        for p, tab in zip(models, tables, strict=True):
            ctx = Context(p.task, train, p.n_cases)
            if c.measure.family == "predictions":
                y = p.y_pred if c.measure.needs == "y_pred" else p.y_score
                ctx = ctx._replace(y_true=p.y_true, y=y, sample_weight=p.sample_weight)
            estimates.append(estimate(c.measure, tab, c.aggregation, c.average, ctx))
        infinite = [names[i] for i, e in enumerate(estimates) if math.isinf(e.value)]
        if infinite:
            why = _infinite_words(c, infinite)
            if measures is None:  # a default comparison: left out, and said in the notes
                infinite_left_out.append(why)
                continue
            if undefined == "raise":
                raise UndefinedMetricError(f"{why}; pass undefined='nan' to get NaN")
        compared.append(c)
        n_train, n_test = estimates[0].n_train, estimates[0].n_test
        if n_train is None:
            raise ParameterValueError(
                "a's hold-out splits have no known training size: build the predictions with n_cases= (the cases "
                "split), as apples.cross_val_predictions does",
                param="a",
            )
        sizes = (n_train, n_test)
        label = c.measure.key + (f" ({c.average})" if c.average else "") + f" {c.aggregation}"
        tests = []
        for i, j in pairs:
            d = _paired(estimates[i], estimates[j])
            folds_of_rows.append(d)
            tests.append(corrected_t_test(d, confidence, n_train=n_train, n_test=n_test))
        raw = np.array([test.p_value for test in tests])
        p_holm = holm_adjust(raw) if len(models) > 2 else raw
        for (i, j), t, ph in zip(pairs, tests, p_holm, strict=True):
            what = f"the {label} difference {names[i]} − {names[j]}"
            resolve(
                t.statistic,
                undefined,
                what=f"the t statistic of {what} (a fold value is 0/0 for one model only, or every fold difference "
                "is the same)",
                hint="pass undefined='nan' to get NaN",
            )
            rows.append(
                MeasureDifference(
                    c.measure.key,
                    names[i],
                    names[j],
                    estimates[i].value,
                    estimates[j].value,
                    t.mean,
                    t.low,
                    t.high,
                    t.statistic,
                    t.df,
                    t.p_value,
                    float(ph),
                    "corrected_resampled_t" if estimates[0].basis == "split values" else "corrected_t",
                    c.average,
                    c.aggregation,
                )
            )
    if sizes is None:
        raise UndefinedMetricError(f"no measure left to compare: {'; '.join(infinite_left_out)}")
    notes = [_WHY]
    if any(c.measure.aggregation(c.aggregation).kind != "avg" for c in compared):
        notes.append(_POOLED_WHY)
    if first.design in ("hold-out", "repeated hold-out"):
        notes.append(_HOLD_OUT)
    if len(models) > 2:
        notes.append(
            f"{len(models)} models: all {len(pairs)} pairs tested; p_holm adjusts the p-values of each measure by "
            "Holm's step-down method (Holm 1979), controlling the family-wise error over the pairs."
        )
    if left_out:
        notes.append(f"Not compared, because not every model allows them: {'; '.join(left_out)}.")
    if infinite_left_out:
        notes.append(f"Not compared, because infinite for some model: {'; '.join(infinite_left_out)}.")
    notes.append(_NOT_DELONG)
    return ModelComparison(
        tuple(rows),
        tuple(names),
        tuple(":".join([c.measure.key] + ([c.average] if c.average else []) + [c.aggregation]) for c in compared),
        confidence,
        int(max(ids.size for ids in first.fold_ids)),
        first.n_repeats,
        sizes[0],
        sizes[1],
        len(models) > 2,
        tuple(notes),
        tuple(folds_of_rows),
    )


def _infinite_words(c: _Choice, models: list[str]) -> str:
    """Why a measure cannot be compared: it is infinite for these models (a log loss with a probability 0)."""
    what = c.measure.key + (f" ({c.average})" if c.average else "") + f" {c.aggregation}"
    how = (
        " (a probability 0 for some case's true label: -log 0); compare the clipped log loss with "
        "measures=[apples.measures.MEASURES['log_loss'].using(eps='auto')]"
        if c.measure.family == "scoring"
        else ""
    )
    return f"{what} is infinite for {', '.join(models)}{how}"


def _paired(x: Any, y: Any) -> np.ndarray:
    """The paired per-fold differences of two models' points: a fold left out of both (a skip average of a fold
    where the measure is undefined for the data) is left out; one undefined for one model only is NaN."""
    if x.basis == "split values":
        return np.asarray(x.per_repeat) - np.asarray(y.per_repeat)
    px, py = np.concatenate(x.raw_points), np.concatenate(y.raw_points)
    both = np.isnan(px) & np.isnan(py)
    return (px - py)[~both]


def _readable(d: MeasureDifference) -> str:
    """A compared measure as a methods section names it: "F1 (F_tp,fp)", "precision (macro, avg)"."""
    m = MEASURES.get(d.measure)
    if m is None:
        return d.measure + (f" ({', '.join(x for x in (d.average, d.aggregation) if x)})" if d.aggregation else "")
    agg = next((a for a in m.aggregations if a.key == d.aggregation), None)
    agg_text = (agg.symbol or agg.name) if agg is not None else d.aggregation
    inner = ", ".join(x for x in (d.average, agg_text) if x)
    return m.name + (f" ({inner})" if inner else "")


def _and(items: list[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
