"""How often does each interval of the report cover its truth? A coverage study of every value of apples.report.

Introduced in notebook 11. Each setting simulates many cross-validated studies of the binormal
learner (:func:`apples.theory.simulate_learner_cv`: stratified folds, repeats re-splitting the same
cases, class weights), computes every value of :func:`apples.report` with its interval at the
nominal confidence (the corrected repeated k-fold t over fold values for ``avg``, over the
leave-one-fold-out jackknife pseudo-values for ``pooled``, ``merge`` and ``pr_re``; Nadeau & Bengio
2003, Bouckaert & Frank 2004), and compares each with the truth that value targets
(:func:`apples.theory.cv_truths`, exact quadrature). Per setting and value it reports the
coverage, its Monte Carlo standard error √(c(1 − c)/N) (Morris, White & Crowther 2019), the mean
width, the shares of studies whose interval lies wholly above (``miss_low``: the truth is below
it) or wholly below (``miss_high``) the truth, the share of studies where the report offers no
interval, and the bias of the value; and the same against the k-fold design's own target (a pooled or merged
value of k correlated fold models: :mod:`apples.theory.cv_truths`), which tells an interval that is too
narrow from one that is centred on another quantity.

The values and intervals are those of ``apples.report(p, confidence=...)``, computed by the
report's engine (:mod:`apples.measures`: the fold tables, each estimate, its spread and interval)
without the report's text and guidance; the tests check the two agree to the last bit.

Cost. Before the run, the first studies of every setting (``pilot`` of them, kept in the result)
are timed; the rest is estimated as studies × seconds per study over the parallel jobs, and a
study that would pass ``max_seconds`` is refused, naming the limit, before it starts. Setting i
draws from ``SeedSequence(seed).spawn(n_settings)[i]``, study j of it from that child's j-th
spawned child: the result does not depend on ``n_jobs``, on the chunks, nor on the other settings.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from apples._optional import require
from apples._params import (
    CONFIDENCE,
    MAX_EXACT_INT,
    N_JOBS,
    SEED,
    Integer,
    Kind,
    ParameterValueError,
    Real,
    check_choice,
    check_frame,
    check_int,
    check_real,
    declare,
    exempt,
)
from apples.measures._evaluate import Context, estimate, interval, spread
from apples.measures._tables import fold_tables
from apples.measures.builtin import MEASURES
from apples.measures.record import Measure
from apples.theory.cv_learner import (
    LEARNER_TASKS,
    PRIOR,
    check_design,
    check_prior_of_task,
    draw_study,
    evaluated_prior,
    realised_prior,
    study_predictions,
)
from apples.theory.cv_truths import truth_table

__all__ = [
    "REPORT_COVERAGE_SETTINGS",
    "report_coverage_settings",
    "report_coverage_study",
]

#: The columns of a settings table, in order.
REPORT_COVERAGE_SETTINGS: tuple[str, ...] = (
    "task",
    "prior",
    "n_cases",
    "n_folds",
    "n_repeats",
    "training_sd",
    "delta0",
    "pos_weight",
)
_ROW_KEYS = ["quantity", "average", "aggregation"]
_EVALUATED_LIMITS = (0.001, 0.999)


@exempt("takes no argument")
def report_coverage_settings() -> pd.DataFrame:
    """The default grid: every binary setting of the brief, and multi-class and multi-label settings.

    Binary: prior 0.1 and 0.5 × 200 and 1,000 cases × 5 and 10 folds × 1 and 3 repeats × τ 0 and
    0.5 × unweighted and class-weighted (each positive weighing 3), δ₀ = 1.5 (64 settings).
    Multi-class (class priors 0.5, 0.3, 0.2) and multi-label (label priors 0.3, 0.2, 0.1): 1,000
    cases, 10 folds, 1 and 3 repeats, τ 0 and 0.5, unweighted (4 settings each).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`REPORT_COVERAGE_SETTINGS`; ``prior`` holds a number (binary) or a tuple.

    Examples
    --------
    >>> from apples.intervals import report_coverage_settings
    >>> report_coverage_settings().groupby("task").size().to_dict()
    {'binary': 64, 'multiclass': 4, 'multilabel': 4}
    """
    rows: list[tuple] = []
    for prior in (0.1, 0.5):
        for n_cases in (200, 1000):
            for n_folds in (5, 10):
                for n_repeats in (1, 3):
                    for tau in (0.0, 0.5):
                        for weight in (1.0, 3.0):
                            rows.append(("binary", prior, n_cases, n_folds, n_repeats, tau, 1.5, weight))
    for task, prior_ in (("multiclass", (0.5, 0.3, 0.2)), ("multilabel", (0.3, 0.2, 0.1))):
        for n_repeats in (1, 3):
            for tau in (0.0, 0.5):
                rows.append((task, prior_, 1000, 10, n_repeats, tau, 1.5, 1.0))
    return pd.DataFrame(rows, columns=list(REPORT_COVERAGE_SETTINGS))


class _Settings(Kind):
    what = "a table of report coverage settings (apples.intervals.report_coverage_settings())"

    def check(self, name: str, value: object) -> list[dict]:
        return _check_settings(name, value)


def _check_settings(name: str, value: object) -> list[dict]:
    frame = check_frame(name, value, REPORT_COVERAGE_SETTINGS, what="e.g. apples.intervals.report_coverage_settings()")
    if frame.empty:
        raise ValueError(f"{name} has no rows; pass e.g. apples.intervals.report_coverage_settings()")
    rows = []
    for i, r in enumerate(frame[list(REPORT_COVERAGE_SETTINGS)].to_dict("records")):
        where = f"{name} row {i}: "
        task = check_choice(f"{name}.task (row {i})", r["task"], LEARNER_TASKS)
        prior = PRIOR.check(f"{name}.prior (row {i})", r["prior"])
        n_cases = check_int(f"{name}.n_cases (row {i})", r["n_cases"], low=2, high=MAX_EXACT_INT)
        n_folds = check_int(f"{name}.n_folds (row {i})", r["n_folds"], low=2, high=MAX_EXACT_INT)
        n_repeats = check_int(f"{name}.n_repeats (row {i})", r["n_repeats"], low=1, high=MAX_EXACT_INT)
        tau = check_real(f"{name}.training_sd (row {i})", r["training_sd"], low=0.0, high=10.0)
        delta0 = check_real(f"{name}.delta0 (row {i})", r["delta0"], low=0.01, high=40.0)
        weight = check_real(f"{name}.pos_weight (row {i})", r["pos_weight"], low=0.001, high=1000.0)
        try:
            check_prior_of_task(task, prior)
            if task != "binary" and weight != 1.0:
                raise ValueError(f"pos_weight={weight!r} is for binary settings; a {task} setting is unweighted")
            check_design(task, prior, n_cases, n_folds, n_repeats)
        except ValueError as err:
            raise ValueError(where + str(err)) from None
        if task == "binary":
            pe = evaluated_prior(float(realised_prior(prior, n_cases, task)), weight)  # type: ignore[arg-type]
            if not _EVALUATED_LIMITS[0] <= pe <= _EVALUATED_LIMITS[1]:
                raise ValueError(
                    f"{where}prior={prior} with pos_weight={weight} weighs the positives as a share {pe:.3g} of the "
                    f"population, outside {_EVALUATED_LIMITS} where the H-measure's prior is integrated"
                )
        rows.append(
            {
                "task": task,
                "prior": prior,
                "n_cases": n_cases,
                "n_folds": n_folds,
                "n_repeats": n_repeats,
                "training_sd": tau,
                "delta0": delta0,
                "pos_weight": weight,
            }
        )
    return rows


class _Run(NamedTuple):
    """One study's values and interval ends, in the order of its setting's truth table (NaN: none)."""

    value: np.ndarray
    low: np.ndarray
    high: np.ndarray


def _report_values(p: Any, measures: Sequence[Measure], confidence: float) -> dict[tuple, tuple[float, float, float]]:
    """(quantity, average, aggregation) -> (value, low, high) as the report computes them (NaN: no interval)."""
    tables = fold_tables(p, measures)
    repeated = p.repeats is not None
    ctx = Context(p.task, None, p.n_cases)
    out: dict[tuple, tuple[float, float, float]] = {}
    for m in measures:
        for average in [""] if p.task == "binary" or not m.averages else [a for a in m.averages if a != "lfb_train"]:
            for agg in m.aggregations:
                e = estimate(m, tables, agg.key, average, ctx)
                ci = interval(e.value, spread(e), confidence, m.range, repeated=repeated)
                out[(m.key, average, agg.key)] = (
                    e.value, math.nan if ci.low is None else ci.low, math.nan if ci.high is None else ci.high
                )  # fmt: skip
    return out


def report_rows(p: Any, measures: Sequence[Measure], confidence: float) -> pd.DataFrame:
    """The values and intervals ``apples.report(p, measures=..., confidence=...)`` computes, from its engine:
    columns quantity, average, aggregation, value, low, high (NaN where the report has none)."""
    rows = [(*key, *v) for key, v in _report_values(p, measures, confidence).items()]
    return pd.DataFrame(rows, columns=[*_ROW_KEYS, "value", "low", "high"])


def _one_study(setting: dict, truths: pd.DataFrame, confidence: float, seed: Any) -> _Run:
    s = setting
    study = draw_study(
        s["task"], s["prior"], s["n_cases"], s["n_folds"], s["n_repeats"], s["delta0"], s["training_sd"],
        s["pos_weight"], np.random.default_rng(seed),
    )  # fmt: skip
    p = study_predictions(study, s["n_repeats"])
    measures = [MEASURES[q] for q in dict.fromkeys(truths["quantity"])]
    values = _report_values(p, measures, confidence)
    none = (math.nan, math.nan, math.nan)
    rows = np.array([values.get(key, none) for key in zip(*(truths[k] for k in _ROW_KEYS), strict=True)], dtype=float)
    return _Run(rows[:, 0].copy(), rows[:, 1].copy(), rows[:, 2].copy())


def _study_seed(setting_seed: np.random.SeedSequence, j: int) -> np.random.SeedSequence:
    """Study j of a setting: the j-th child ``setting_seed.spawn`` would give, made without spawning the others."""
    return np.random.SeedSequence(setting_seed.entropy, spawn_key=(*setting_seed.spawn_key, j))


def _chunk(setting: dict, truths: pd.DataFrame, confidence: float, seed: Any, studies: range) -> list[_Run]:
    return [_one_study(setting, truths, confidence, _study_seed(seed, j)) for j in studies]


def _summary(setting: dict, truths: pd.DataFrame, runs: list[_Run], confidence: float) -> pd.DataFrame:
    value = np.array([r.value for r in runs])
    low, high = np.array([r.low for r in runs]), np.array([r.high for r in runs])
    has = np.isfinite(low) & np.isfinite(high)
    n = has.sum(axis=0)
    finite = np.isfinite(value)
    out = pd.concat([pd.DataFrame({k: [v] * len(truths) for k, v in setting.items()}), truths], axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        for name, truth in (("", truths["truth"].to_numpy()), ("design_", truths["design_truth"].to_numpy())):
            covered = np.where(has, (low <= truth) & (truth <= high), False).sum(axis=0) / n
            out[f"{name}coverage"] = covered
            out[f"{name}mcse"] = np.sqrt(covered * (1.0 - covered) / np.maximum(n, 1))
            if not name:
                out["mean_width"] = np.where(has, high - low, 0.0).sum(axis=0) / n
                out["miss_low"] = np.where(has, truth < low, False).sum(axis=0) / n
                out["miss_high"] = np.where(has, truth > high, False).sum(axis=0) / n
                out["no_interval"] = 1.0 - n / len(runs)
            out[f"{name}bias"] = np.where(finite, value, 0.0).sum(axis=0) / finite.sum(axis=0) - truth
    out["n_studies"] = len(runs)
    out["confidence"] = confidence
    return out


def _truth_key(s: dict) -> tuple:
    """What a setting's truths depend on: its realised class proportions, δ₀, τ, the weights and k."""
    prior = realised_prior(s["prior"], s["n_cases"], s["task"])
    return (s["task"], prior, s["delta0"], s["training_sd"], s["pos_weight"], s["n_folds"])


def _workers(n_jobs: int) -> int:
    if n_jobs == 1:
        return 1
    joblib = require("joblib")
    return int(joblib.effective_n_jobs(n_jobs))


@declare(
    settings=_Settings(),
    n_studies=Integer(2, MAX_EXACT_INT),
    confidence=CONFIDENCE,
    seed=SEED,
    n_jobs=N_JOBS,
    max_seconds=Real(0.0, None, low_inclusive=False),
    pilot=Integer(1, 100),
)
def report_coverage_study(
    settings: pd.DataFrame,
    *,
    n_studies: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
    n_jobs: int = 1,
    max_seconds: float = 4 * 3600.0,
    pilot: int = 2,
) -> pd.DataFrame:
    """The coverage of every interval :func:`apples.report` offers, per setting and value (the module docstring).

    Parameters
    ----------
    settings : pandas.DataFrame
        One row per setting, with the columns of :data:`REPORT_COVERAGE_SETTINGS` (``task``, ``prior``,
        ``n_cases``, ``n_folds``, ``n_repeats``, ``training_sd`` τ, ``delta0`` δ₀, ``pos_weight``), as
        :func:`report_coverage_settings` returns; each as for :func:`apples.theory.simulate_learner_cv`.
    n_studies : int, default 1000
        Simulated studies per setting: the Monte Carlo standard error of a coverage near 0.95 is then about 0.007.
    confidence : float, default 0.95
        The nominal coverage of every interval.
    seed : int, default 0
        The study's seed (the module docstring: the result depends on nothing else).
    n_jobs : int, default 1
        Parallel jobs (joblib) over chunks of studies; the result is the same for any value.
    max_seconds : float, default 14400 (4 hours)
        The budget. The ``pilot`` first studies of every setting are timed; if the whole study would take longer
        than this, a ValueError naming ``max_seconds`` says how long it would take and why, and nothing more runs.
    pilot : int, default 2
        Studies per setting timed for the estimate (their results are kept).

    Returns
    -------
    pandas.DataFrame
        One row per setting and value of the report: the setting's columns, ``quantity``, ``average``,
        ``aggregation``; ``truth`` (:func:`apples.theory.cv_truths`), ``design_truth`` and ``design_se`` (the
        k-fold design's target and its quasi-Monte Carlo error, 0 where exact); ``coverage`` (of the truth, among
        the studies with an interval), ``mcse``, ``mean_width``, ``miss_low`` and ``miss_high`` (the shares of those
        studies whose interval lies wholly above or wholly below the truth), ``no_interval`` (the share of studies
        whose report gives the value no interval), ``bias`` (mean value − truth), ``design_coverage``,
        ``design_mcse`` and ``design_bias`` (the same against the design truth), ``n_studies``, ``confidence``.
        The coverage columns are NaN for a value no study got an interval for (``no_interval`` 1: averaged H).

    References
    ----------
    Nadeau, C. & Bengio, Y. (2003) §4; Bouckaert, R. R. & Frank, E. (2004) §3; Morris, T. P., White, I. R. &
    Crowther, M. J. (2019). Statistics in Medicine 38, Table 6.

    Examples
    --------
    >>> from apples.intervals import report_coverage_settings, report_coverage_study
    >>> s = report_coverage_settings().query("task == 'binary' and prior == 0.5 and n_cases == 200 and "
    ...                                      "n_folds == 5 and n_repeats == 1 and training_sd == 0 and pos_weight == 1")
    >>> t = report_coverage_study(s, n_studies=20)
    >>> round(float(t.set_index(["quantity", "aggregation"]).loc[("accuracy", "pooled"), "truth"]), 6)   # Φ(δ₀/2)
    0.773373
    """
    rows: list[dict] = settings  # type: ignore[assignment]  # converted by the declaration
    started = time.perf_counter()
    truths: dict[tuple, pd.DataFrame] = {}
    parts: list[list[_Run]] = []
    per_study: list[float] = []
    children = np.random.SeedSequence(seed).spawn(len(rows))
    first = min(pilot, n_studies)
    for i, s in enumerate(rows):
        key = _truth_key(s)
        if key not in truths:
            truths[key] = truth_table(*key)
        t0 = time.perf_counter()
        parts.append(_chunk(s, truths[key], confidence, children[i], range(first)))
        per_study.append((time.perf_counter() - t0) / first)
    workers = _workers(n_jobs)
    remaining = sum(t * (n_studies - first) for t in per_study) / workers
    spent = time.perf_counter() - started
    if spent + remaining > max_seconds:
        raise ParameterValueError(
            f"the study would take about {spent + remaining:,.0f} s: {n_studies:,} studies × {len(rows)} settings × "
            f"{np.mean(per_study):.3g} s per study (the mean over the settings, timed on {first} per setting) over "
            f"{workers} job(s), more than max_seconds={max_seconds:g}; reduce n_studies or the settings, raise "
            "n_jobs, or raise max_seconds",
            param="max_seconds",
        )
    tasks: list[tuple[int, tuple, range]] = []
    for i, s in enumerate(rows):
        key = _truth_key(s)
        size = max(1, math.ceil((n_studies - first) / (4 * workers)))
        tasks.extend((i, key, range(j, min(j + size, n_studies))) for j in range(first, n_studies, size))
    if workers == 1:
        done = [_chunk(rows[i], truths[key], confidence, children[i], studies) for i, key, studies in tasks]
    else:
        joblib = require("joblib")
        done = joblib.Parallel(n_jobs=n_jobs)(
            joblib.delayed(_chunk)(rows[i], truths[key], confidence, children[i], studies) for i, key, studies in tasks
        )
    for (i, _, _), runs in zip(tasks, done, strict=True):
        parts[i].extend(runs)
    out = []
    for i, s in enumerate(rows):
        key = _truth_key(s)
        out.append(_summary(s, truths[key], parts[i], confidence))
    return pd.concat(out, ignore_index=True)
