"""One call to compare models cross-validated on the same folds: :func:`compare` and :class:`ModelComparison`.

Each measure's difference is tested over the folds with the corrected repeated k-fold t
(Nadeau & Bengio 2003; Bouckaert & Frank 2004), because per-fold differences of k-fold
cross-validation are not independent: two training sets share (k − 2)/(k − 1) of their cases.
"""

from __future__ import annotations

import html
import string
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from apples._kernels.comparison import corrected_t_test, holm_adjust, ratio_pseudo_values
from apples._kernels.ranking import fold_ranking
from apples._params import (
    CONFIDENCE,
    Kind,
    Nullable,
    Options,
    ParameterValueError,
    Policy,
    SequenceOf,
    Undefined,
    declare,
    resolve,
)
from apples.cv import CV_PREDICTIONS, CVPredictions

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "COMPARE_MEASURES",
    "MeasureDifference",
    "ModelComparison",
    "compare",
]

#: The measures :func:`compare` tests, and what each one is over the folds.
COMPARE_MEASURES: dict[str, str] = {
    "f1": "F1 as F_tp,fp: 2ΣTP/(2ΣTP + ΣFP + ΣFN), pooled over each repeat's folds (Forman & Scholz 2010 §2.3, §4)",
    "accuracy": "accuracy pooled over each repeat's folds: Σ correct / Σ cases",
    "roc_auc": "ROC AUC as AUC_avg, the mean of the per-fold AUCs (Forman & Scholz 2010 §3)",
    "average_precision": "average precision as AP_avg, the mean of the per-fold APs",
}
_POOLED = ("f1", "accuracy")

_TEST = "corrected_t"
_WHY = (
    "Test: the corrected repeated k-fold t (Nadeau & Bengio 2003, Machine Learning 52, §4; Bouckaert & Frank 2004, "
    "PAKDD, §3) over the J = r·k per-fold differences, paired by repeat and fold, with J − 1 degrees of freedom and "
    "variance factor 1/J + n_test/n_train instead of 1/J: the training sets overlap, so the fold differences are "
    "correlated and the naive paired t is too liberal (Dietterich 1998, Neural Computation 10(7))."
)
_POOLED_WHY = (
    "Pooled measures (f1 = F_tp,fp, accuracy): the difference of the pooled values is tested through each fold's "
    "linearised contribution u_f = R + (num_f − R·den_f)/mean(den), whose mean is the pooled R exactly (the delta "
    "method for a ratio of sums, Cochran 1977 §6.3); the corrected t is applied to u_f(A) − u_f(B)."
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
        The measures compared (keys of :data:`COMPARE_MEASURES`).
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

    def to_frame(self) -> pd.DataFrame:
        """One tidy row per measure and pair: the fields of :class:`MeasureDifference`."""
        import pandas as pd

        return pd.DataFrame([row._asdict() for row in self.differences], columns=list(MeasureDifference._fields))

    def _cells(self) -> list[list[str]]:
        pct = f"{self.confidence:.0%}"
        head = ["measure", "A", "B", "value A", "value B", "A − B", f"{pct} interval", "t", "df", "p"]
        if self.holm:
            head.append("p (Holm)")
        rows = [head]
        for d in self.differences:
            row = [
                d.measure,
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


def _default_names(m: int) -> list[str]:
    letters = string.ascii_uppercase
    return [letters[i] if i < len(letters) else f"M{i + 1}" for i in range(m)]


def _check_same_design(models: list[CVPredictions]) -> None:
    first = models[0]
    for i, p in enumerate(models[1:], start=1):
        param = "b" if i == 1 else f"more[{i - 2}]"
        for what, x, y in (
            ("y_true", first.y_true, p.y_true),
            ("fold ids", first.folds, p.folds),
        ):
            if x.shape != y.shape or not np.array_equal(x, y):
                where = "" if x.shape != y.shape else f" (first difference at row {int(np.flatnonzero(x != y)[0])})"
                raise ParameterValueError(
                    f"{param} does not share the {what} of a{where}: a paired comparison needs the same cases in "
                    "the same folds and repeats, in the same row order",
                    param=param,
                )
        same = (
            first.repeats is None
            if p.repeats is None
            else first.repeats is not None and np.array_equal(first.repeats, p.repeats)
        )
        if not same:
            raise ParameterValueError(
                f"{param} does not share the repeat ids of a: a paired comparison needs the same repeats",
                param=param,
            )
        if p.task != first.task or p.pos_label != first.pos_label or p.labels != first.labels:
            raise ParameterValueError(
                f"{param} is a {p.task} task with labels {p.labels[:10]} (positive {p.pos_label!r}), but a is "
                f"{first.task} with {first.labels[:10]} (positive {first.pos_label!r})",
                param=param,
            )


def _fold_values(p: CVPredictions, measure: str) -> np.ndarray:
    """The J = r·k per-fold values of one model: pseudo-values for a pooled measure, fold values otherwise."""
    out = []
    for r in range(p.n_repeats):
        k = p.fold_ids[r].size
        if measure in _POOLED:
            m = p.confusion(r)
            if measure == "f1":
                tp, fp, fn = m[:, 1, 1], m[:, 0, 1], m[:, 1, 0]
                num, den = 2 * tp, 2 * tp + fp + fn
            else:
                num, den = np.trace(m, axis1=1, axis2=2), m.sum(axis=(1, 2))
            out.append(ratio_pseudo_values(num[None, :], den[None, :])[0])
        else:
            rows = p.rows(r)
            assert p.y_score is not None
            ranking = fold_ranking(p.truth_codes[rows] == 1, p.y_score[rows], p.fold_codes[r], k)
            out.append(ranking.auc if measure == "roc_auc" else ranking.ap)
    return np.concatenate(out)


def _measures_of(p: CVPredictions, measures: list[str] | None, param: str = "measures") -> list[str]:
    if p.task == "multilabel":  # its fold counts are per label (Van Asch §5): no measure of compare is defined on them
        raise ParameterValueError(
            "compare takes binary or multi-class predictions; these are multi-label (compare their report's "
            "values, apples.report, instead)",
            param=param if param != "measures" else "a",
        )
    has_pred, has_score, binary = p.y_pred is not None, p.y_score is not None, p.task == "binary"
    usable = {"f1": has_pred and binary, "accuracy": has_pred, "roc_auc": has_score and binary}
    usable["average_precision"] = usable["roc_auc"]
    if measures is None:
        found = [m for m in COMPARE_MEASURES if usable[m]]
        if not found:
            raise ParameterValueError("these predictions allow no measure of compare", param="measures")
        return found
    for m in measures:
        if not usable[m]:
            need = "y_pred" if m in _POOLED else "y_score"
            where = "" if param == "measures" else f"; {param} has none"
            raise ParameterValueError(
                f"measures asks for {m!r}, which needs {need} in every model's predictions"
                + ("" if binary or m == "accuracy" else " and a binary task")
                + where,
                param=param,
            )
    return list(dict.fromkeys(measures))


@declare(
    a=CV_PREDICTIONS,
    b=CV_PREDICTIONS,
    more=SequenceOf(CV_PREDICTIONS),
    measures=Nullable(SequenceOf(Options(*COMPARE_MEASURES))),
    names=Nullable(_Names()),
    confidence=CONFIDENCE,
    undefined=Undefined("raise", "nan"),
)
def compare(
    a: CVPredictions,
    b: CVPredictions,
    *more: CVPredictions,
    measures: Sequence[str] | None = None,
    names: Sequence[str] | None = None,
    confidence: float = 0.95,
    undefined: Policy = "raise",
) -> ModelComparison:
    """Compare two or more models cross-validated on the same cases, folds and repeats, measure by measure.

    For each measure and pair of models, the difference A − B with its interval, the test that
    respects the folds (the corrected repeated k-fold t of Nadeau & Bengio 2003, §4, and Bouckaert &
    Frank 2004, §3: ``t = d̄ / √((1/J + n_test/n_train)·σ̂²)`` over the J = r·k fold differences,
    J − 1 degrees of freedom) and its p-value. With more than two models every pair is tested and
    the p-values of each measure are adjusted by Holm's method (``p_holm``).

    Parameters
    ----------
    a, b, *more : CVPredictions
        The models' cross-validated predictions: the same ``y_true``, fold ids and repeat ids, row for
        row (a model that does not share them is refused, naming it: ``b``, ``more[0]``, ...).
    measures : sequence of str, optional
        Among ``"f1"`` (F_tp,fp, pooled over each repeat's folds, as Forman & Scholz 2010 §2.3 and §4
        recommend), ``"accuracy"`` (pooled), ``"roc_auc"`` (AUC_avg, the mean over folds, F&S §3) and
        ``"average_precision"`` (AP_avg). Default: every measure the predictions allow (f1 and accuracy
        need ``y_pred``, the ranking measures binary ``y_score``).
    names : sequence of str, optional
        The models' names, default ``"A"``, ``"B"``, ``"C"``, ...
    confidence : float, default 0.95
        Nominal coverage of the intervals of the differences.
    undefined : {"raise", "nan"}, default "raise"
        0/0: every fold difference the same (the t statistic is 0/0; a model against itself), or a
        measure undefined in a fold (an AUC of a fold with one class, F1 of a repeat without positives
        nor positive predictions): raise :class:`~apples.UndefinedMetricError`, or give NaN.

    Returns
    -------
    ModelComparison
        ``differences`` (one :class:`MeasureDifference` per measure and pair), ``to_frame()``, a
        readable ``str()`` that names the test and why, and an HTML table in notebooks.

    Notes
    -----
    A pooled measure (F_tp,fp, accuracy) has one value per repeat, not per fold: its difference is
    tested through each fold's linearised contribution ``u_f = R + (num_f − R·den_f)/mean(den)``,
    whose mean is the pooled ratio R exactly (the delta method for a ratio of sums, Cochran 1977,
    §6.3). DeLong's test on the merged scores and McNemar's on the pooled predictions ignore the
    variation of the training sets (Dietterich 1998, Neural Computation 10(7), 1895–1923); they
    answer another question, valid for one held-out test set scored by fixed models.

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

    Fold differences 1/4, 1/4, 1/2: ``t = (1/3) / √((1/3 + 4/8)·(1/48)) = 2.5298``.

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
    chosen = _measures_of(models[0], None if measures is None else list(measures))
    for i, p in enumerate(models[1:], start=1):  # every model must allow the measures chosen for the first
        _measures_of(p, chosen, "b" if i == 1 else f"more[{i - 2}]")
    first = models[0]
    sizes = [np.bincount(first.fold_codes[r]) for r in range(first.n_repeats)]
    n_test = float(np.mean(np.concatenate(sizes)))
    n_train = float(np.mean([s.sum() for s in sizes])) - n_test
    pairs = list(combinations(range(len(models)), 2))
    rows: list[MeasureDifference] = []
    for measure in chosen:
        values = [_fold_values(p, measure) for p in models]
        tests = [corrected_t_test(values[i] - values[j], confidence, n_train=n_train, n_test=n_test) for i, j in pairs]
        p_holm = holm_adjust(np.array([t.p_value for t in tests])) if len(models) > 2 else [t.p_value for t in tests]
        for (i, j), t, ph in zip(pairs, tests, p_holm, strict=True):
            what = f"the {measure} difference {names[i]} − {names[j]}"
            resolve(
                t.statistic,
                undefined,
                what=f"the t statistic of {what} (a fold value is 0/0, or every fold difference is the same)",
                hint="pass undefined='nan' to get NaN",
            )
            rows.append(
                MeasureDifference(
                    measure,
                    names[i],
                    names[j],
                    float(np.mean(values[i])),
                    float(np.mean(values[j])),
                    t.mean,
                    t.low,
                    t.high,
                    t.statistic,
                    t.df,
                    t.p_value,
                    float(ph),
                    _TEST,
                )
            )
    notes = [_WHY]
    if any(m in _POOLED for m in chosen):
        notes.append(_POOLED_WHY)
    if len(models) > 2:
        notes.append(
            f"{len(models)} models: all {len(pairs)} pairs tested; p_holm adjusts the p-values of each measure by "
            "Holm's step-down method (Holm 1979), controlling the family-wise error over the pairs."
        )
    notes.append(_NOT_DELONG)
    return ModelComparison(
        tuple(rows),
        tuple(names),
        tuple(chosen),
        confidence,
        int(max(ids.size for ids in first.fold_ids)),
        first.n_repeats,
        n_train,
        n_test,
        len(models) > 2,
        tuple(notes),
    )
