"""A measure's value under one aggregation, and the per-fold values its interval is made of.

Introduced in notebook 10. For each repeat, :func:`estimate` computes the aggregation's value from
the repeat's fold tables (:mod:`apples.measures._tables`), with the aggregation's 0/0 rule, and a set
of per-fold *points* whose mean is that value:

* ``avg``: the folds' own values (a fold left out by ``"skip"`` has none);
* ``pooled``, ``merge``, ``pr_re``: the leave-one-fold-out jackknife pseudo-values
  ``k·V − (k − 1)·V₋f`` (Quenouille 1956; Tukey 1958; Efron & Tibshirani 1993 §11), V₋f the value
  of the repeat without fold f, shifted so that their mean is V exactly. For a ratio of sums
  (F_tp,fp, pooled precision, accuracy) they are the linearised per-fold contributions of the
  delta method (Cochran 1977 §6.3) up to the denominator of the other folds; for the merged AUC
  they are its structural components summed by fold (DeLong et al. 1988).

The value reported is the mean over the repeats. Its interval (:func:`interval`) is the corrected
repeated k-fold t over all r·k points: ``V ± t_{J−1} √((1/J + n_test/n_train) S²)`` with S² their
sample variance (Nadeau & Bengio 2003 §4 for one repeat; Bouckaert & Frank 2004 §3 for r repeats).
It respects that the training sets of k-fold cross-validation overlap, which the bootstrap of the
test cases, Wilson's interval and DeLong's do not (they condition on the trained models; notebook
11 measures their coverage with a training effect). A hold-out design (one test set per repeat,
``ShuffleSplit``) has one point per split: the corrected resampled t of Nadeau & Bengio over the
splits' values, with n_train the cases not tested.

No interval is given, with the reason, where it would claim more than it covers: where a fold's value
was 0/0 and the aggregation's rule counted it 0 or left it out (the value is then biased, Forman &
Scholz §4, and notebook 11's coverage study finds such intervals far below their level where folds
are small and positives rare), and where a record says so (averaged H: the H of a small test fold is
biased upward).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from apples._kernels.averages import label_averages
from apples._kernels.f_measure import FoldSums, cv_f_of_sums, fold_sums, fold_values
from apples._kernels.intervals import t_quantile
from apples._kernels.totals import LabelTotals, leave_one_fold_out, pooled
from apples.measures._tables import RepeatTables
from apples.measures.record import Aggregation, Measure

__all__: list[str] = []  # private: the engine of apples.reporting and apples.comparison


class Context(NamedTuple):
    """What a measure's computation needs besides the tables: the task, the training frequencies (lfb_train),
    the number of cases split (for a hold-out's training size), and the rows (for a measure of one fold's rows)."""

    task: str
    train_frequencies: np.ndarray | None = None
    n_cases: int | None = None
    y_true: np.ndarray | None = None  #: the rows' true labels as given (family "predictions")
    y: np.ndarray | None = None  #: the rows' predicted labels or scores (family "predictions")
    sample_weight: np.ndarray | None = None
    max_rows: int = 5 * 10**8  #: the rows a measure of rows may read for one jackknife (cost bound)


class _Repeat(NamedTuple):
    """One repeat's value, its points (NaN: no point for that fold), and what went undefined."""

    value: float
    points: np.ndarray
    substituted: bool = False
    reason: str | None = None  #: why the value is undefined or infinite
    no_points: str | None = None  #: why the points cannot be made (a fold whose removal makes the value undefined)
    raw: np.ndarray | None = None  #: ``avg``: each fold's own value before the 0/0 rule (NaN: undefined)
    n_undefined: int = 0  #: folds whose value (F_pr,re: precision or recall) was 0/0 and counted 0 or left out


class Estimate(NamedTuple):
    """One value of a report: a measure under one average and aggregation, over the repeats, and its interval's
    basis."""

    quantity: str
    average: str
    aggregation: str
    value: float  #: the mean over the repeats (NaN: undefined; inf: infinite)
    per_repeat: tuple[float, ...]
    std: float | None  #: the standard deviation across repeats (ddof=1; None with one repeat)
    substituted: bool  #: some fold (or label) whose value was 0/0 counted as 0
    reason: str | None  #: why the value is undefined or infinite
    points: np.ndarray  #: the J finite points the interval is computed from
    basis: str  #: "fold values", "jackknife pseudo-values" or "split values"
    n_train: float | None  #: mean training-set size (None: unknown)
    n_test: float  #: mean test-set size
    no_interval: str | None  #: why no interval can be computed, whatever the level
    fold_values: tuple[np.ndarray, ...] | None  #: ``avg``: each repeat's per-fold values (NaN: undefined there)
    raw_points: tuple[np.ndarray, ...] = ()  #: each repeat's points, NaN where a fold has none (for pairing)


class IntervalResult(NamedTuple):
    low: float | None
    high: float | None
    method: str
    reason: str | None


# -- label averages ------------------------------------------------------------------------------------------
def _label_weights(average: str, t: LabelTotals, train: np.ndarray | None) -> np.ndarray | None:
    if average == "lfb_test":
        return np.asarray(t.true, dtype=float)
    if average == "lfb_train":
        return train
    return None


_AVERAGE = {"macro": "macro", "micro": "micro", "lfb_test": "lfb", "lfb_train": "lfb"}


def label_average(
    t: LabelTotals, *, which: str, average: str, train: np.ndarray | None, undefined: str, beta: float = 1.0
) -> np.ndarray:
    """Van Asch's (§3) average of one of precision, recall, F of the averages or mean of per-label F, over labels."""
    a = label_averages(
        t.tp,
        t.fp,
        t.fn,
        average=_AVERAGE[average],
        weights=_label_weights(average, t, train),
        undefined=undefined,
        beta=beta,
    )
    return np.asarray(getattr(a, which))


# -- per family, one repeat ------------------------------------------------------------------------------------
def _centred(value: float, pseudo: np.ndarray) -> np.ndarray:
    """Pseudo-values shifted so that their mean is the value itself (the interval is centred on what is reported)."""
    return pseudo - float(np.mean(pseudo)) + value


def _jackknife(value: float, without: np.ndarray, fold_ids: np.ndarray, what: str) -> tuple[np.ndarray, str | None]:
    """Pseudo-values k·V − (k − 1)·V₋f of one repeat, or the reason they cannot be made."""
    k = without.size
    if k == 1:
        return np.array([value]), None
    if not math.isfinite(value):
        return np.full(k, np.nan), None
    bad = ~np.isfinite(without)
    if bad.any():
        f = fold_ids[int(np.flatnonzero(bad)[0])]
        f = f.item() if isinstance(f, np.generic) else f
        return np.full(k, np.nan), (
            f"without fold {f} the {what} is undefined (that fold holds every case it needs), so the "
            "leave-one-fold-out jackknife cannot be made"
        )
    return _centred(value, k * value - (k - 1) * without), None


def _average_points(values: np.ndarray, agg: Aggregation) -> tuple[float, np.ndarray, bool, str | None]:
    """The mean of per-fold values under the aggregation's 0/0 rule: (value, points, substituted, reason)."""
    undefined = np.isnan(values)
    if agg.undefined == "zero":
        if undefined.all():
            return 0.0, np.zeros_like(values), True, None
        filled = np.where(undefined, 0.0, values)
        return float(np.mean(filled)), filled, bool(undefined.any()), None
    if agg.undefined == "skip":
        if undefined.all():
            return math.nan, values, False, "undefined in every fold"
        return float(np.mean(values[~undefined])), values, False, None
    if undefined.any():
        return math.nan, values, False, f"undefined in {int(undefined.sum())} of {values.size} folds"
    return float(np.mean(values)), values, False, None


def _label(a: Aggregation) -> str:
    return a.symbol or a.name


def _n_replaced(per_fold: np.ndarray, agg: Aggregation) -> int:
    """The folds whose 0/0 value the aggregation's rule counted 0 or left out (0 under ``"nan"``)."""
    return int(np.isnan(per_fold).sum()) if agg.undefined in ("zero", "skip") else 0


def _counts(m: Measure, tab: RepeatTables, agg: Aggregation, average: str, ctx: Context) -> _Repeat:
    t = tab.totals
    assert t is not None

    def kern(x: LabelTotals, undefined: str) -> np.ndarray:
        assert callable(m.kernel)
        return np.asarray(
            m.kernel(x, average=average, train=ctx.train_frequencies, undefined=undefined, options=m.options),
            dtype=float,
        )

    if agg.kind == "pooled":
        total = pooled(t)
        value = float(kern(total, m.label_undefined))
        substituted = m.label_undefined == "zero" and not math.isnan(value) and bool(np.isnan(kern(total, "nan")))
        points, no_points = _jackknife(value, kern(leave_one_fold_out(t), m.label_undefined), tab.fold_ids, m.name)
        reason = None if not math.isnan(value) else "0/0 in the pooled totals"
        return _Repeat(value, points, substituted, reason, no_points)
    per_fold = kern(t, m.label_undefined)
    label_sub = m.label_undefined == "zero" and bool(np.any(np.isnan(kern(t, "nan")) & ~np.isnan(per_fold)))
    value, points, substituted, reason = _average_points(per_fold, agg)
    return _Repeat(
        value, points, substituted or label_sub, reason, raw=per_fold, n_undefined=_n_replaced(per_fold, agg)
    )


def _f_measure(m: Measure, tab: RepeatTables, agg: Aggregation, average: str, ctx: Context) -> _Repeat:
    """The binary F of Forman & Scholz §2.3, from the folds' sums (one definition, :mod:`apples._kernels.f_measure`)."""
    t = tab.totals
    assert t is not None
    beta = float(m.options.get("beta", 1.0))
    tp, fp, fn = t.tp[:, 1], t.fp[:, 1], t.fn[:, 1]
    method = {"pooled": "tp_fp", "avg": "avg", "pr_re": "pr_re"}[agg.kind]
    policy = "nan" if method == "tp_fp" else agg.undefined
    v = fold_values(tp, fp, fn, beta)
    substituted = policy == "zero" and bool((~v.valid).any()) and method != "tp_fp"
    if method == "avg":
        per_fold = np.where(v.valid, v.f, np.nan)
        value, points, _, reason = _average_points(per_fold, agg)
        return _Repeat(value, points, substituted, reason, raw=per_fold, n_undefined=_n_replaced(per_fold, agg))
    s = fold_sums(tp, fp, fn, beta)
    value = float(cv_f_of_sums(s, method=method, undefined=policy, beta=beta))
    fa = np.asarray
    without = FoldSums(
        s.f - v.f,
        s.precision - v.precision,
        s.recall - v.recall,
        s.valid - v.valid,
        s.precision_defined - (fa(tp) + fa(fp) > 0),
        s.recall_defined - (fa(tp) + fa(fn) > 0),
        s.tp - tp,
        s.fp - fp,
        s.fn - fn,
        s.k - 1,
    )
    jack = np.asarray(cv_f_of_sums(without, method=method, undefined=policy, beta=beta), dtype=float)
    if s.k == 1:
        jack = np.array([value])
    points, no_points = _jackknife(value, jack, tab.fold_ids, "F-measure")
    reason = None if not math.isnan(value) else "TP = FP = FN = 0 in every fold (nothing to measure)"
    n_undefined = 0
    if method == "pr_re" and policy in ("zero", "skip"):  # a fold's precision or recall 0/0: counted 0 or left out
        n_undefined = int(np.sum((fa(tp) + fa(fp) == 0) | (fa(tp) + fa(fn) == 0)))
    return _Repeat(value, points, substituted, reason, no_points, n_undefined=n_undefined)


def _ranking(m: Measure, tab: RepeatTables, agg: Aggregation, average: str, ctx: Context) -> _Repeat:
    field = str(m.kernel)
    assert tab.ranking is not None
    rankings = tab.ranking
    folds = np.array([np.asarray(getattr(r, field), dtype=float) for r in rankings])  # (labels, k)
    single = tab.sizes < 2  # a fold of one case ranks nothing (its AP would be 1 whatever the model)
    folds[:, single] = np.nan
    if agg.kind == "avg":
        defined = (~np.isnan(folds)).sum(axis=0)
        with np.errstate(invalid="ignore"):
            per_fold = np.where(defined > 0, np.nansum(folds, axis=0) / np.maximum(defined, 1), np.nan)
        value, points, _, reason = _average_points(per_fold, agg)
        if reason and single.all():
            reason = "every fold holds one case (leave-one-out), and a fold of one case ranks nothing"
        return _Repeat(value, points, False, reason, raw=per_fold, n_undefined=_n_replaced(per_fold, agg))
    merged = np.array([float(getattr(r, f"{field}_merge")) for r in rankings])
    ok = ~np.isnan(merged)
    if not ok.any():
        return _Repeat(math.nan, np.full(tab.fold_ids.size, np.nan), False, "one class only in the merged scores")
    value = float(np.mean(merged[ok]))
    without_rows = [getattr(r, f"{field}_merge_without") for r in rankings]
    if any(w is None for w in without_rows):
        why = tab.no_jackknife or "the jackknife was not computed"
        return _Repeat(value, np.full(tab.fold_ids.size, np.nan), False, None, why)
    without = np.array([np.asarray(w, dtype=float) for w in without_rows])[ok]  # (labels, k)
    points, no_points = _jackknife(value, without.mean(axis=0), tab.fold_ids, m.name)
    return _Repeat(value, points, False, None, no_points)


def _infinite_reason(n: int) -> str:
    return (
        f"infinite: {n} case(s) got probability 0 for their true label (-log 0); pass eps= to clip the "
        "probabilities as scikit-learn does, or fix the model's probabilities"
    )


def _scoring(m: Measure, tab: RepeatTables, agg: Aggregation, average: str, ctx: Context) -> _Repeat:
    s = tab.scoring
    assert s is not None
    sums = s.log_loss if m.kernel == "log_loss" else s.brier
    with np.errstate(invalid="ignore", divide="ignore"):
        per_fold = np.where(s.weight > 0, sums / np.where(s.weight > 0, s.weight, 1.0), np.nan)
    infinite = int(s.n_infinite.sum()) if m.kernel == "log_loss" else 0
    if agg.kind == "avg":
        value, points, _, reason = _average_points(per_fold, agg)
        if infinite:
            return _Repeat(math.inf, points, False, _infinite_reason(infinite), raw=per_fold)
        return _Repeat(value, points, False, reason, raw=per_fold)
    total_w = float(np.sum(s.weight))
    total = float(np.sum(sums))
    if infinite:
        return _Repeat(math.inf, np.full(sums.size, np.nan), False, _infinite_reason(infinite))
    value = total / total_w if total_w > 0 else math.nan
    with np.errstate(invalid="ignore", divide="ignore"):
        without = (total - sums) / (total_w - s.weight)
    points, no_points = _jackknife(value, without, tab.fold_ids, m.name)
    return _Repeat(value, points, False, None, no_points)


def _rows_measure(m: Measure, tab: RepeatTables, agg: Aggregation, average: str, ctx: Context) -> _Repeat:
    """A researcher's measure of one fold's rows: called per fold, on all the repeat's rows, and without each fold."""
    assert callable(m.kernel) and ctx.y_true is not None and ctx.y is not None
    rows = np.arange(len(ctx.y_true))[tab.rows]
    fn: Callable[..., Any] = m.kernel

    y_true, y, weights = ctx.y_true, ctx.y, ctx.sample_weight

    def call(idx: np.ndarray) -> float:
        w = None if weights is None else weights[idx]
        return float(fn(y_true[idx], y[idx], w))

    k = tab.fold_ids.size
    if agg.kind == "avg":
        per_fold = np.array([call(rows[tab.fold_codes == f]) for f in range(k)])
        value, points, substituted, reason = _average_points(per_fold, agg)
        return _Repeat(value, points, substituted, reason, raw=per_fold, n_undefined=_n_replaced(per_fold, agg))
    value = call(rows)
    if k == 1:
        return _Repeat(value, np.array([value]), False, None if math.isfinite(value) else "undefined")
    if (k - 1) * rows.size > ctx.max_rows:
        return _Repeat(
            value,
            np.full(k, np.nan),
            False,
            None,
            f"the jackknife would call the measure on {(k - 1) * rows.size:,} rows, more than the limit of "
            f"{ctx.max_rows:,}: use fewer folds, or the 'avg' aggregation",
        )
    without = np.array([call(rows[tab.fold_codes != f]) for f in range(k)])
    points, no_points = _jackknife(value, without, tab.fold_ids, m.name)
    return _Repeat(value, points, False, None if not math.isnan(value) else "undefined", no_points)


_FAMILY = {
    "counts": _counts,
    "f_measure": _f_measure,
    "ranking": _ranking,
    "scoring": _scoring,
    "predictions": _rows_measure,
}


# -- over the repeats ------------------------------------------------------------------------------------------
def _sizes(tables: Sequence[RepeatTables], n_cases: int | None) -> tuple[float | None, float]:
    """Mean training and test sizes (rows) for the corrected t; a hold-out's training size needs n_cases."""
    test = np.concatenate([t.sizes for t in tables]).astype(float)
    n_test = float(np.mean(test))
    if all(t.fold_ids.size > 1 for t in tables):
        return float(np.mean([t.sizes.sum() for t in tables])) - n_test, n_test
    if n_cases is None or n_cases <= n_test:
        return None, n_test
    return float(n_cases) - n_test, n_test


def estimate(m: Measure, tables: Sequence[RepeatTables], aggregation: str, average: str, ctx: Context) -> Estimate:
    """The value of measure ``m`` under ``aggregation`` (and label ``average``), over the repeats, with the points
    its interval is computed from (the module docstring)."""
    agg = m.aggregation(aggregation)
    family = _FAMILY[m.family]
    parts = [family(m, t, agg, average, ctx) for t in tables]
    values = np.array([p.value for p in parts])
    reason = next((p.reason for p in parts if p.reason and not math.isfinite(p.value)), None)
    if np.isnan(values).any():
        value = math.nan
        reason = reason or "undefined"
    elif np.isinf(values).any():
        value = math.inf
    else:
        value = float(np.mean(values))
    std = float(np.std(values, ddof=1)) if values.size > 1 and np.isfinite(values).all() else None
    hold_out = all(t.fold_ids.size == 1 for t in tables)
    basis = "split values" if hold_out else ("fold values" if agg.kind == "avg" else "jackknife pseudo-values")
    n_train, n_test = _sizes(tables, ctx.n_cases)
    no_interval = m.no_interval.get(aggregation)
    if no_interval is None and not math.isfinite(value):
        no_interval = "the value is undefined" if math.isnan(value) else "the value is infinite"
    if no_interval is None:
        no_interval = next((p.no_points for p in parts if p.no_points), None)
    if hold_out:
        points = values[np.isfinite(values)]
    else:
        points = np.concatenate([p.points for p in parts])
        points = points[np.isfinite(points)]
    if (
        no_interval is None
        and agg.kind == "avg"
        and agg.undefined == "zero"
        and all(p.substituted and np.all(p.points == 0) for p in parts)
    ):
        no_interval = "undefined in every fold: the average is of substituted zeros, and has no interval"
    n_undefined = sum(p.n_undefined for p in parts)
    if no_interval is None and n_undefined and math.isfinite(value):
        n_folds = sum(t.fold_ids.size for t in tables)
        done = "counted as 0" if agg.undefined == "zero" else "left out"
        instead = m.recommended if m.recommended not in (None, aggregation) else None
        no_interval = (
            f"{n_undefined} of the {n_folds} fold values were 0/0 ({done}): the value is biased by the rule "
            "(Forman & Scholz 2010 §4), and a t interval around it covers less often than it states "
            "(apples.intervals.stored_report_coverage)"
            + (f"; see the {_label(m.aggregation(instead))} row" if instead is not None else "")
        )
    if no_interval is None and points.size < 2:
        no_interval = "fewer than two folds with a defined value"
    if no_interval is None and n_train is None:
        no_interval = "a hold-out split's training size is unknown: give CVPredictions n_cases="
    return Estimate(
        m.key,
        average,
        aggregation,
        value,
        tuple(float(v) for v in values),
        std,
        any(p.substituted for p in parts),
        reason if not math.isfinite(value) else None,
        points,
        basis,
        n_train,
        n_test,
        no_interval,
        tuple(p.raw for p in parts) if all(p.raw is not None for p in parts) else None,  # type: ignore[misc]
        tuple(p.points for p in parts),
    )


def spread(e: Estimate) -> dict[str, Any]:
    """What an estimate's interval needs at any level, as JSON values: the basis and either the reason there is
    none, or the number of points, their sample variance and the mean training and test sizes."""
    if e.no_interval is not None or e.n_train is None:
        return {"basis": e.basis, "no_interval": e.no_interval or "the training size is unknown"}
    return {
        "basis": e.basis,
        "n": int(e.points.size),
        "variance": float(np.var(e.points, ddof=1)),
        "n_train": float(e.n_train),
        "n_test": float(e.n_test),
    }


def interval(
    value: float, s: dict[str, Any], confidence: float, value_range: tuple[float, float], *, repeated: bool
) -> IntervalResult:
    """The corrected (repeated) t interval at ``confidence`` of a value with spread ``s`` (:func:`spread`):
    ``value ± t_{J−1} √((1/J + n_test/n_train) S²)``, clipped to the measure's range; ends None with the reason
    when it cannot be made (the module docstring)."""
    method = {
        "fold values": "corrected_repeated_t" if repeated else "corrected_t",
        "jackknife pseudo-values": "jackknife_corrected_repeated_t" if repeated else "jackknife_corrected_t",
        "split values": "corrected_resampled_t",
    }[s["basis"]]
    if "no_interval" in s:
        return IntervalResult(None, None, method, s["no_interval"])
    j, var = int(s["n"]), float(s["variance"])
    half = t_quantile(confidence, j - 1) * math.sqrt((1.0 / j + s["n_test"] / s["n_train"]) * var)
    lo, hi = value_range
    low, high = max(lo, value - half), min(hi, value + half)
    reason = None
    if var == 0.0:
        reason = (
            f"every one of the {j} {s['basis']} is the same: the interval has width 0, which does not mean certainty"
        )
    return IntervalResult(low, high, method, reason)
