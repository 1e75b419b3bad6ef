"""How often do the intervals cover the truth? Coverage of simulated cross-validation studies.

Introduced in notebook 11. Each setting simulates many cross-validation studies
on a model whose true value is known, computes every interval on each study,
and reports the share of studies whose interval covers the truth (the
empirical coverage, to compare with the nominal confidence), its Monte Carlo
standard error √(c(1 − c)/n_studies), and the mean width.

Two models:

- ``"f_model"``: Forman & Scholz (2010) §4.2, a classifier with precision =
  recall = ``truth`` (:func:`apples.theory.simulation_design`), stratified
  folds, binomial TP and FP per fold. Intervals: the fold bootstrap of F_tp,fp
  (:func:`cv_f_measure_ci`), Wilson on the pooled recall TP/P
  (:func:`proportion_ci`; its truth is also ``truth``), and the naive and
  corrected t over the per-fold F (:func:`cv_score_ci`).
- ``"binormal"``: scores N(δ_j, 1) for positives and N(0, 1) for negatives
  (:class:`apples.theory.Binormal` with unit variances), stratified folds.
  ``training_sd`` τ models the training set: fold j's classifier has
  separation δ_j = δ₀ + τ(√ρ·g + √(1 − ρ)·e_j), g and e_j standard normal, with
  ρ = n_test/n_train, which is Nadeau & Bengio's (2003) ρ/(1 − ρ): a little more
  correlation than their ρ = n_test/n that the corrected t assumes; the truth
  is the expected AUC of the learning algorithm,
  E[Φ(δ/√2)] = Φ(δ₀/√(2 + τ²)), which fixes δ₀. Intervals: DeLong and the
  stratified bootstrap on the pooled scores (:func:`roc_auc_ci`), and the
  naive and corrected t over the per-fold AUC (:func:`cv_score_ci`). With
  τ = 0 the classifier is fixed and the pooled intervals are about the right
  quantity; with τ > 0 they condition on the trained classifiers and miss the
  training-set variance, as the naive t does.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np
import pandas as pd
from scipy import stats

from apples._kernels.delong import bootstrap_aucs, delong_variance, placements
from apples._kernels.f_measure import cv_f
from apples._kernels.fold_model import design_counts, stratified_positives
from apples._kernels.intervals import fold_t_interval, normal_quantile, proportion_interval
from apples._kernels.resampling import fold_count_replicates
from apples._kernels.rounding import half_up_count
from apples._optional import require
from apples._params import (
    CONFIDENCE,
    MAX_EXACT_INT,
    N_JOBS,
    SEED,
    Frame,
    Integer,
    Kind,
    Size,
    check_choice,
    check_frame,
    check_int,
    check_real,
    check_table_size,
    declare,
    exempt,
)
from apples.theory.fold_model import DESIGN

__all__ = [
    "COVERAGE_INTERVALS",
    "COVERAGE_MODELS",
    "coverage_settings",
    "coverage_study",
    "plot_coverage",
]

COVERAGE_MODELS: tuple[str, ...] = ("f_model", "binormal")
#: The intervals each model's studies are measured with, in the order of the result table.
COVERAGE_INTERVALS: dict[str, tuple[str, ...]] = {
    "f_model": ("F_tp,fp bootstrap", "recall Wilson", "fold F t", "fold F corrected t"),
    "binormal": ("AUC DeLong", "AUC bootstrap", "fold AUC t", "fold AUC corrected t"),
}
#: The t intervals over fold scores, and the method of :func:`cv_score_ci` each uses.
_T_INTERVALS: dict[str, tuple[tuple[str, Literal["t", "corrected_t"]], ...]] = {
    "f_model": (("fold F t", "t"), ("fold F corrected t", "corrected_t")),
    "binormal": (("fold AUC t", "t"), ("fold AUC corrected t", "corrected_t")),
}
_SETTING_COLUMNS = ("model", "prior", "n_cases", "n_folds", "truth", "training_sd")
#: Bytes per simulated case and study while a setting runs (scores, ranks, temporaries).
_BYTES_PER_CASE = 64


@exempt("takes no argument")
def coverage_settings() -> pd.DataFrame:
    """The default grid of the coverage study: class priors, sample sizes and fold counts per model.

    ``f_model``: priors 1%, 10%, 50% × 200 or 1000 cases × 5 or 10 folds, true F = 0.8.
    ``binormal``: the same priors at 1000 cases (and 10%, 50% at 200 cases), 5 or 10 folds, true
    AUC = 0.8, training-set spread τ = 0 (a fixed classifier) and 0.5; settings where a stratified
    fold would get no positive are left out (a fold AUC needs both classes).

    Returns
    -------
    pandas.DataFrame
        Columns ``model``, ``prior``, ``n_cases``, ``n_folds``, ``truth``, ``training_sd``.

    Examples
    --------
    >>> from apples.intervals import coverage_settings
    >>> s = coverage_settings()
    >>> s.groupby("model").size().to_dict()
    {'binormal': 20, 'f_model': 12}
    """
    rows = []
    for prior in (0.01, 0.1, 0.5):
        for n_cases in (200, 1000):
            for n_folds in (5, 10):
                rows.append(("f_model", prior, n_cases, n_folds, 0.8, 0.0))
    for training_sd in (0.0, 0.5):
        for prior in (0.01, 0.1, 0.5):
            for n_cases in (200, 1000):
                for n_folds in (5, 10):
                    if half_up_count(prior, n_cases) >= n_folds:
                        rows.append(("binormal", prior, n_cases, n_folds, 0.8, training_sd))
    return pd.DataFrame(rows, columns=list(_SETTING_COLUMNS))


def _summary(low: np.ndarray, high: np.ndarray, truth: float) -> dict:
    covered = (low <= truth) & (truth <= high)
    c = float(covered.mean())
    n = low.size
    return {
        "coverage": c,
        "mcse": math.sqrt(c * (1.0 - c) / n),
        "mean_width": float(np.mean(high - low)),
        "miss_low": float(np.mean(truth < low)),
        "miss_high": float(np.mean(truth > high)),
    }


def _f_model(row: dict, n_studies: int, confidence: float, n_resamples: int, rng: np.random.Generator) -> list[dict]:
    n_cases, k, f_true = int(row["n_cases"]), int(row["n_folds"]), float(row["truth"])
    n_pos, _, fpr = design_counts(row["prior"], f_true, n_cases)  # precision = recall = f_true (§4.2)
    m = n_cases // k
    p = stratified_positives(n_pos, k)
    tp = rng.binomial(p, f_true, size=(n_studies, k))
    fp = rng.binomial(m - p, fpr, size=(n_studies, k))
    fn = p - tp
    den = 2 * tp + fp + fn
    fold_f = np.where(den > 0, 2 * tp / np.where(den > 0, den, 1), 0.0)
    n_train, n_test = n_cases - m, m
    ends = {name: np.empty((n_studies, 2)) for name in COVERAGE_INTERVALS["f_model"]}
    alpha = 1.0 - confidence

    def f_tp_fp(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray) -> np.ndarray:
        return cv_f(tp, fp, fn, method="tp_fp", undefined="zero")

    for s in range(n_studies):
        counts = np.stack([tp[s], fp[s], fn[s], m - tp[s] - fp[s] - fn[s]], axis=1)
        reps = fold_count_replicates(counts, n_resamples, rng, f_tp_fp, chunk=n_resamples)
        ends["F_tp,fp bootstrap"][s] = np.quantile(reps, [alpha / 2.0, 1.0 - alpha / 2.0])
        ends["recall Wilson"][s] = proportion_interval(int(tp[s].sum()), n_pos, confidence, "wilson")
        for name, method in _T_INTERVALS["f_model"]:
            _, low, high = fold_t_interval(
                fold_f[s], confidence, n_train=n_train, n_test=n_test, corrected=method == "corrected_t"
            )
            ends[name][s] = low, high
    return [{"interval": name, **_summary(e[:, 0], e[:, 1], f_true)} for name, e in ends.items()]


def _binormal(row: dict, n_studies: int, confidence: float, n_resamples: int, rng: np.random.Generator) -> list[dict]:
    n_cases, k = int(row["n_cases"]), int(row["n_folds"])
    m = n_cases // k
    n_pos = half_up_count(row["prior"], n_cases)
    n_neg = n_cases - n_pos
    if min(n_pos, n_neg) < k:
        raise ValueError(
            f"settings: a binormal setting with prior={row['prior']}, n_cases={n_cases} has {n_pos} positives "
            f"and {n_neg} negatives, fewer than n_folds={k}: some fold would lack a class and its AUC"
        )
    tau = row["training_sd"]
    delta0 = float(stats.norm.ppf(row["truth"])) * math.sqrt(2.0 + tau * tau)
    rho = m / (n_cases - m)
    p = stratified_positives(n_pos, k)
    q = m - p
    fold_of_pos = np.repeat(np.arange(k), p)
    fold_of_neg = np.repeat(np.arange(k), q)
    shared = rng.standard_normal((n_studies, 1))
    delta = delta0 + tau * (math.sqrt(rho) * shared + math.sqrt(1.0 - rho) * rng.standard_normal((n_studies, k)))
    pos = rng.standard_normal((n_studies, n_pos)) + delta[:, fold_of_pos]
    neg = rng.standard_normal((n_studies, n_neg))
    fold_auc = np.empty((n_studies, k))
    for j in range(k):
        sp, sn = pos[:, fold_of_pos == j], neg[:, fold_of_neg == j]
        both = np.concatenate([sp, sn], axis=1)
        ranks = np.argsort(np.argsort(both, axis=1), axis=1) + 1  # continuous scores: no ties
        u = ranks[:, : p[j]].sum(axis=1) - p[j] * (p[j] + 1) / 2
        fold_auc[:, j] = u / (p[j] * q[j])
    y = np.r_[np.ones(n_pos, dtype=np.int64), np.zeros(n_neg, dtype=np.int64)]
    n_train, n_test = n_cases - m, m
    ends = {name: np.empty((n_studies, 2)) for name in COVERAGE_INTERVALS["binormal"]}
    is_pos = y == 1
    z = normal_quantile(confidence)
    alpha = 1.0 - confidence
    for s in range(n_studies):
        scores = np.concatenate([pos[s], neg[s]])
        pl = placements(is_pos, scores)
        half = z * math.sqrt(delong_variance(pl))
        ends["AUC DeLong"][s] = max(pl.auc - half, 0.0), min(pl.auc + half, 1.0)
        aucs = bootstrap_aucs(pl, is_pos, n_resamples, rng)
        ends["AUC bootstrap"][s] = np.quantile(aucs, [alpha / 2.0, 1.0 - alpha / 2.0])
        for name, method in _T_INTERVALS["binormal"]:
            _, low, high = fold_t_interval(
                fold_auc[s], confidence, n_train=n_train, n_test=n_test, corrected=method == "corrected_t"
            )
            ends[name][s] = low, high
    return [{"interval": name, **_summary(e[:, 0], e[:, 1], row["truth"])} for name, e in ends.items()]


def _run_setting(row: dict, n_studies: int, confidence: float, n_resamples: int, seed: Any) -> list[dict]:
    rng = np.random.default_rng(seed)
    run = _f_model if row["model"] == "f_model" else _binormal
    return [
        {**row, **r, "n_studies": n_studies, "confidence": confidence}
        for r in run(row, n_studies, confidence, n_resamples, rng)
    ]


class _Settings(Kind):
    what = "a table of coverage settings (apples.intervals.coverage_settings())"

    def check(self, name: str, value: object) -> list[dict]:
        return _check_settings(value)


def _check_settings(settings: object) -> list[dict]:
    frame = check_frame("settings", settings, _SETTING_COLUMNS, what="e.g. apples.intervals.coverage_settings()")
    if frame.empty:
        raise ValueError("settings has no rows; pass e.g. apples.intervals.coverage_settings()")
    rows = []
    for i, r in enumerate(frame[list(_SETTING_COLUMNS)].to_dict("records")):
        model = check_choice(f"settings.model (row {i})", r["model"], COVERAGE_MODELS)
        prior = check_real(
            f"settings.prior (row {i})", r["prior"], low=0.0, high=1.0, low_inclusive=False, high_inclusive=False
        )
        truth = check_real(
            f"settings.truth (row {i})",
            r["truth"],
            low=0.0,
            high=1.0,
            low_inclusive=False,
            high_inclusive=model == "f_model",
        )
        tau = check_real(f"settings.training_sd (row {i})", r["training_sd"], low=0.0)
        n_cases = check_int(f"settings.n_cases (row {i})", r["n_cases"], low=1, high=MAX_EXACT_INT)
        n_folds = check_int(f"settings.n_folds (row {i})", r["n_folds"], low=1, high=MAX_EXACT_INT)
        if model == "f_model":
            try:  # every rule of the §4.2 model
                DESIGN({"prior": prior, "f_true": truth, "n_cases": n_cases, "n_folds": n_folds})
            except ValueError as err:
                raise ValueError(f"settings row {i}: {err}") from None
        elif n_folds < 2 or n_cases % n_folds:
            raise ValueError(f"settings row {i}: n_folds={n_folds} must be at least 2 and divide n_cases={n_cases}")
        rows.append(
            {"model": model, "prior": prior, "n_cases": n_cases, "n_folds": n_folds, "truth": truth, "training_sd": tau}
        )
    return rows


@declare(
    settings=_Settings(),
    n_studies=Integer(2, MAX_EXACT_INT),
    confidence=CONFIDENCE,
    n_resamples=Size(bytes_each=16, table="each study's bootstrap replicates"),
    seed=SEED,
    n_jobs=N_JOBS,
)
def coverage_study(
    settings: pd.DataFrame,
    *,
    n_studies: int = 2000,
    confidence: float = 0.95,
    n_resamples: int = 200,
    seed: int = 0,
    n_jobs: int = 1,
) -> pd.DataFrame:
    """Empirical coverage, its Monte Carlo standard error and the mean width of every interval, per setting.

    Parameters
    ----------
    settings : pandas.DataFrame
        One row per setting, with columns ``model`` (``"f_model"`` or ``"binormal"``), ``prior``,
        ``n_cases``, ``n_folds``, ``truth`` (the true F or AUC) and ``training_sd`` (τ, binormal
        only; see the module docstring), as :func:`coverage_settings` returns.
    n_studies : int, default 2000
        Simulated cross-validation studies per setting. The Monte Carlo standard error of a coverage
        near 0.95 is then about 0.005.
    confidence : float, default 0.95
        Nominal coverage of every interval.
    n_resamples : int, default 200
        Resamples of each bootstrap interval (fewer than the functions' defaults, for speed: Monte
        Carlo noise in the ends lowers the bootstrap's coverage slightly).
    seed : int, default 0
        Setting i draws from ``SeedSequence(seed).spawn(len(settings))[i]``: results do not depend
        on ``n_jobs`` nor on the other settings in the table.
    n_jobs : int, default 1
        Settings run in parallel with joblib (which scikit-learn installs) when above 1.

    Returns
    -------
    pandas.DataFrame
        One row per setting and interval: the setting's columns, ``interval``, ``coverage``,
        ``mcse``, ``mean_width``, ``miss_low`` and ``miss_high`` (the shares of studies whose
        interval lies wholly above or wholly below the truth), ``n_studies``, ``confidence``.

    References
    ----------
    Morris, T. P., White, I. R. & Crowther, M. J. (2019). Using simulation studies to evaluate
    statistical methods. Statistics in Medicine 38, 2074–2102, Table 6 (coverage and its Monte Carlo
    SE). Forman & Scholz (2010) §4.2; Nadeau & Bengio (2003) §4.

    Examples
    --------
    >>> from apples.intervals import coverage_settings, coverage_study
    >>> s = coverage_settings().query("model == 'f_model' and prior == 0.5 and n_cases == 200 and n_folds == 5")
    >>> t = coverage_study(s, n_studies=50, n_resamples=50)
    >>> t["interval"].tolist()
    ['F_tp,fp bootstrap', 'recall Wilson', 'fold F t', 'fold F corrected t']
    """
    rows: list[dict] = settings  # type: ignore[assignment]  # converted by the declaration
    largest = max(r["n_cases"] for r in rows)
    check_table_size(
        f"{n_studies:,} studies of {largest:,} cases",
        n_studies * largest * _BYTES_PER_CASE,
        reduce="n_studies or the settings' n_cases",
    )
    children = np.random.SeedSequence(seed).spawn(len(rows))
    if n_jobs == 1:
        parts = [_run_setting(r, n_studies, confidence, n_resamples, c) for r, c in zip(rows, children, strict=True)]
    else:
        joblib = require("joblib")
        parts = joblib.Parallel(n_jobs=n_jobs)(
            joblib.delayed(_run_setting)(r, n_studies, confidence, n_resamples, c)
            for r, c in zip(rows, children, strict=True)
        )
    return pd.DataFrame([r for part in parts for r in part])


@declare(
    table=Frame(
        ("model", "prior", "training_sd", "interval", "coverage", "mcse"),
        source="apples.intervals.coverage_study output",
    ),
    nominal=CONFIDENCE,
)
def plot_coverage(table: pd.DataFrame, *, ax: Any = None, nominal: float = 0.95) -> Any:
    """Each interval's empirical coverage per setting, with ± 2 Monte Carlo standard errors; the Axes.

    One group of points per setting (model, prior, training spread τ) of
    :func:`coverage_study` output, one colour per interval, and the nominal
    coverage dashed (notebook 11).

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`coverage_study` output (columns ``model``, ``prior``, ``training_sd``,
        ``interval``, ``coverage``, ``mcse``).
    ax : matplotlib Axes, optional
        Where to draw; the current Axes when None.
    nominal : float, default 0.95
        The coverage the intervals promise, drawn as a dashed line.

    Returns
    -------
    matplotlib.axes.Axes
    """
    plt = require("matplotlib.pyplot")
    ax = plt.gca() if ax is None else ax
    keys = ["model", "prior", "training_sd"]
    settings = table[keys].drop_duplicates().reset_index(drop=True)
    position = {tuple(row): i for i, row in enumerate(settings.itertuples(index=False))}
    names = list(dict.fromkeys(table["interval"]))
    width = 0.8 / max(len(names) // 2, 1)  # an F model and an AUC model each show about half the intervals
    for j, name in enumerate(names):
        part = table[table["interval"] == name]
        x = np.array([position[tuple(r)] for r in part[keys].itertuples(index=False)], dtype=float)
        x += ((j % (len(names) // 2 or 1)) - (len(names) // 2 - 1) / 2) * width / 2
        ax.errorbar(x, part["coverage"], yerr=2 * part["mcse"], fmt="o", label=name)
    ax.axhline(nominal, color="grey", lw=1, ls="--", label=f"nominal {nominal:.0%}")
    labels = [f"{r.model} {r.prior:.0%} τ={r.training_sd:g}" for r in settings.itertuples(index=False)]
    ax.set_xticks(range(len(labels)), labels, rotation=20)
    ax.set(
        xlabel="setting (model, positives, training spread τ)",
        ylabel="coverage (share of studies, ± 2 MCSE)",
        title="Coverage of each interval at 95% nominal (simulated studies with a known truth)",
    )
    ax.legend(ncol=2, fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return ax
