"""The bias simulation of Forman & Scholz (2010) §4.2, vectorised, its grid, and look-ups into it (§4.3)."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from apples._params import (
    check_bool,
    check_positive,
    check_seed,
    check_table_size,
    divide,
)
from apples.cv.aggregations import F_AGGREGATIONS
from apples.cv.confusion import percent
from apples.theory.cv_f_expectations import EXACT_METHODS, exact_cv_f
from apples.theory.fold_model import (
    check_points,
    draw_positives,
    outcome_tables,
    simulation_design,
    stratified_positives,
)

if TYPE_CHECKING:  # ipywidgets is optional (the notebooks extra), imported by sim_explorer
    pass


__all__ = [
    "FIGURE_F_TRUE",
    "FIGURE_PANEL_PRIORS",
    "FIGURE_PRIORS",
    "ExploreResult",
    "explore_cv_f",
    "figure_grid",
    "sample_cv_f",
    "simulate_cv_f",
    "simulate_grid",
]

#: x-axis of Forman & Scholz Figures 4 and 5 (class prior, at F = 80%).
FIGURE_PRIORS: tuple[float, ...] = (0.01, 0.015, 0.02, 0.025, 0.03, 0.035, 0.04, 0.045, 0.05)
#: x-axis of Figures 6, 7 and 8 (ground-truth F).
FIGURE_F_TRUE: tuple[float, ...] = (0.60, 0.65, 0.70, 0.75, 0.80, 0.85, 0.90, 0.95)
#: The three panels of Figures 6, 7 and 8 (class prior).
FIGURE_PANEL_PRIORS: tuple[float, ...] = (0.01, 0.05, 0.25)

#: Number of fold cells (repetitions × folds) per chunk; fixes memory and the random streams.
_CHUNK_CELLS = 1 << 15
#: Skip aggregations of F_AGGREGATIONS (undefined when no fold is valid).
_SKIP = ("avg_skip", "pr_re_skip")


def _estimates(s_f, s_pr, s_re, v, tp, fp, *, n_folds: int, n_pos: int) -> np.ndarray:
    """The five methods from per-repetition sums; columns in the order of F_AGGREGATIONS."""
    k = float(n_folds)
    out = np.empty((len(s_f), len(F_AGGREGATIONS)))
    pr, re = s_pr / k, s_re / k
    harmonic = "F of mean precision and recall"
    out[:, 0] = s_f / k
    out[:, 1] = divide(2.0 * pr * re, pr + re, undefined="zero", what=harmonic)
    out[:, 2] = 2.0 * tp / (tp + fp + n_pos)
    out[:, 3] = divide(s_f, v, undefined="nan", what="F~_avg")
    pr_s = divide(s_pr, v, undefined="nan", what="F~_pr,re precision")
    re_s = divide(s_re, v, undefined="nan", what="F~_pr,re recall")
    has = v > 0
    pr_s, re_s = np.where(has, pr_s, 0.0), np.where(has, re_s, 0.0)
    out[:, 4] = np.where(has, divide(2.0 * pr_s * re_s, pr_s + re_s, undefined="zero", what=harmonic), np.nan)
    return out


def _chunk(design, tables, stratified, seed_seq, n, *, return_folds=False):
    rng = np.random.default_rng(seed_seq)
    k = design.n_folds
    p = stratified_positives(design.n_pos, k)[None, :] if stratified else draw_positives(rng, design, n)
    u = rng.random((n, k))
    idx = tables.sample(p, u)
    ones = np.ones(k)  # row sums as matrix-vector products: much faster than .sum(axis=1) over k columns
    s_f = tables.f.take(idx) @ ones
    s_pr = tables.pr.take(idx) @ ones
    s_re = tables.re.take(idx) @ ones
    # the packed integer code is stored as float64: exact below 2**53, and its sums too
    v, tp, fp = tables.decode(np.rint(tables.code_f.take(idx) @ ones).astype(np.int64))
    est = _estimates(s_f, s_pr, s_re, v, tp, fp, n_folds=k, n_pos=design.n_pos)
    if return_folds:
        pos = np.broadcast_to(p, idx.shape)
        return est, (pos, tables.tp.take(idx), tables.fp.take(idx))
    return est


def _run(design, stratified, n_reps, seed, n_jobs, reduce):
    tables = outcome_tables(design, stratified)
    per_chunk = max(1, _CHUNK_CELLS // design.n_folds)
    sizes = [per_chunk] * (n_reps // per_chunk)
    if n_reps % per_chunk:
        sizes.append(n_reps % per_chunk)
    seeds = np.random.SeedSequence(seed).spawn(len(sizes))

    def work(i):
        return reduce(_chunk(design, tables, stratified, seeds[i], sizes[i]))

    if n_jobs == 1 or len(sizes) == 1:
        return [work(i) for i in range(len(sizes))]
    with ThreadPoolExecutor(max_workers=n_jobs) as pool:
        return list(pool.map(work, range(len(sizes))))


def sample_cv_f(
    prior: float,
    f_true: float,
    *,
    stratified: bool,
    n_reps: int,
    n_cases: int = 1000,
    n_folds: int = 10,
    seed: int = 0,
    n_jobs: int = 1,
) -> pd.DataFrame:
    """Every repetition's five cross-validated F-measures (Forman & Scholz §4.2).

    Parameters
    ----------
    prior, f_true, n_cases, n_folds
        The simulation point; see :func:`simulation_design`.
    stratified : bool
        Stratified or unstratified folds.
    n_reps : int
        Repetitions (rows). Memory is ``40 · n_reps`` bytes for the result
        (about three times that while it is built); more than 1 GiB in all
        (``n_reps`` above about 8.9 million) is refused: :func:`simulate_cv_f`
        summarises any number of repetitions in bounded memory.
    seed : int, default 0
        Seed; results are identical for every ``n_jobs``.
    n_jobs : int, default 1
        Threads.

    Returns
    -------
    DataFrame of shape (n_reps, 5)
        Columns the keys of :data:`apples.cv.F_AGGREGATIONS`; skip methods are NaN in repetitions without a
        valid fold.

    Examples
    --------
    >>> est = sample_cv_f(0.05, 0.8, stratified=True, n_reps=1000, seed=1)
    >>> list(est.columns), est.shape
    (['avg', 'pr_re', 'tp_fp', 'avg_skip', 'pr_re_skip'], (1000, 5))
    """
    design = simulation_design(prior, f_true, n_cases=n_cases, n_folds=n_folds)
    n_reps = check_positive("n_reps", n_reps)
    # the chunks, their concatenation and the DataFrame: three copies of n_reps × 5 floats
    check_table_size(
        f"{n_reps:,} repetitions × 5 estimates",
        3 * 40 * n_reps,
        reduce="n_reps (simulate_cv_f summarises any number of repetitions in bounded memory)",
    )
    chunks = _run(
        design,
        check_bool("stratified", stratified),
        n_reps,
        check_seed("seed", seed),
        check_positive("n_jobs", n_jobs),
        reduce=lambda est: est,
    )
    return pd.DataFrame(np.concatenate(chunks), columns=list(F_AGGREGATIONS))


def _moments(est: np.ndarray):
    ok = ~np.isnan(est)
    n = ok.sum(axis=0)
    x = np.where(ok, est, 0.0)
    mean = divide(x.sum(axis=0), n, undefined="nan", what="chunk mean")
    dev = np.where(ok, est - mean, 0.0)
    return n, mean, (dev * dev).sum(axis=0)


def _combine(parts):
    """Chan et al.'s pairwise update of (count, mean, sum of squared deviations), in chunk order."""
    n, mean, m2 = parts[0]
    n, mean, m2 = n.astype(float), np.nan_to_num(mean), m2
    for nb, mb, m2b in parts[1:]:
        tot = n + nb
        delta = np.nan_to_num(mb) - mean
        w = divide(nb, tot, undefined="zero", what="chunk weight")
        mean = mean + delta * w
        m2 = m2 + m2b + delta * delta * n * w
        n = tot
    return n, mean, m2


def simulate_cv_f(
    prior: float,
    f_true: float,
    *,
    stratified: bool,
    n_reps: int,
    n_cases: int = 1000,
    n_folds: int = 10,
    seed: int = 0,
    n_jobs: int = 1,
) -> pd.DataFrame:
    """Bias and variance of the five cross-validated F-measures (Forman & Scholz §4.2–4.3).

    Repeats a simulated ``n_folds``-fold cross-validation ``n_reps`` times
    (see the module docstring for the model and the algorithm) and summarises
    each method over the repetitions, streaming chunk by chunk so memory does
    not grow with ``n_reps``.

    Parameters
    ----------
    prior : float
        Fraction of positives in (0, 1); the data set has ``round(prior · n_cases)``.
    f_true : float
        Ground-truth F = precision = recall of the classifier, in (0, 1].
    stratified : bool
        Stratified folds (positives spread ±1) or a uniformly random equal-size partition.
    n_reps : int
        Repetitions (the paper: 10**6).
    n_cases : int, default 1000
    n_folds : int, default 10
        Must divide ``n_cases``.
    seed : int, default 0
        Seed; the result is bit-for-bit the same for every ``n_jobs``.
    n_jobs : int, default 1
        Threads (numpy releases the GIL in the heavy steps).

    Returns
    -------
    DataFrame
        Index the keys of :data:`apples.cv.F_AGGREGATIONS` (name ``method``); columns ``mean``, ``std``
        (sample standard deviation over repetitions), ``bias`` (mean −
        f_true), ``relative_bias`` (bias / f_true), ``relative_std`` (std /
        f_true), ``sem`` (standard error of the mean, std / √n) and
        ``n_undefined`` (repetitions without any valid fold, where a skip
        method is undefined and left out of the mean; 0 for the others).
        ``attrs`` holds the :class:`SimulationDesign` and the arguments.

    Raises
    ------
    ValueError, TypeError
        For a bad design (see :func:`simulation_design`), ``n_reps < 1`` or a
        bad ``seed``/``n_jobs``/``stratified``. A ValueError too for folds so
        large that the outcome tables would need more than 1 GiB (see
        "Size limit" in the module docstring).

    References
    ----------
    Forman & Scholz (2010), §4.2 (the simulation), §4.3 and Figures 4–8.

    Examples
    --------
    >>> t = simulate_cv_f(0.05, 0.8, stratified=True, n_reps=20000, seed=0)
    >>> bool(abs(t.loc["tp_fp", "relative_bias"]) < abs(t.loc["avg", "relative_bias"]))
    True
    """
    design = simulation_design(prior, f_true, n_cases=n_cases, n_folds=n_folds)
    stratified = check_bool("stratified", stratified)
    n_reps = check_positive("n_reps", n_reps)
    parts = _run(
        design, stratified, n_reps, check_seed("seed", seed), check_positive("n_jobs", n_jobs), reduce=_moments
    )
    n, mean, m2 = _combine(parts)
    defined = n > 0
    mean = np.where(defined, mean, np.nan)
    std = np.where(n > 1, np.sqrt(m2 / np.maximum(n - 1, 1)), np.nan)
    table = pd.DataFrame(
        {
            "mean": mean,
            "std": std,
            "bias": mean - design.f_true,
            "relative_bias": (mean - design.f_true) / design.f_true,
            "relative_std": std / design.f_true,
            "sem": std / np.sqrt(np.where(defined, n, np.nan)),
            "n_undefined": (n_reps - n).astype(np.int64),
        },
        index=pd.Index(list(F_AGGREGATIONS), name="method"),
    )
    table.attrs.update(design=design, stratified=stratified, n_reps=n_reps, seed=seed)
    return table


def figure_grid() -> pd.DataFrame:
    """Every point Forman & Scholz Figures 4–8 plot, both stratifications, without duplicates.

    Figures 4/5: ``FIGURE_PRIORS`` at F = 80%; Figures 6/7 (and 8, the
    standard deviation of the stratified runs): ``FIGURE_F_TRUE`` at each of
    ``FIGURE_PANEL_PRIORS``. The paper does not list its x-axis points; these
    are ours (0.5% and 5% steps).

    Returns
    -------
    DataFrame
        Columns ``prior``, ``f_true``, ``stratified``; 62 rows.

    Examples
    --------
    >>> len(figure_grid())
    62
    """
    rows = {(p, 0.80, s) for p in FIGURE_PRIORS for s in (True, False)}
    rows |= {(p, f, s) for p in FIGURE_PANEL_PRIORS for f in FIGURE_F_TRUE for s in (True, False)}
    ordered = sorted(rows, key=lambda r: (not r[2], r[0], r[1]))
    return pd.DataFrame(ordered, columns=["prior", "f_true", "stratified"])


def simulate_grid(
    points: pd.DataFrame | None = None, *, n_reps: int, seed: int = 0, n_jobs: int = 1, progress=None
) -> pd.DataFrame:
    """:func:`simulate_cv_f` at every point of a grid, as one long table.

    Parameters
    ----------
    points : DataFrame, optional
        Columns ``prior``, ``f_true``, ``stratified``; default :func:`figure_grid`.
    n_reps : int
        Repetitions per point (the paper: 10**6).
    seed : int, default 0
        Point ``i`` uses seed ``SeedSequence([seed, i]).generate_state(1)[0]``.
    n_jobs : int, default 1
        Threads per point.
    progress : callable, optional
        Called as ``progress(i, n_points, seconds)`` after each point.

    Returns
    -------
    DataFrame
        One row per point and method: ``prior``, ``f_true``, ``stratified``,
        ``method`` and the columns of :func:`simulate_cv_f`, plus ``seconds``
        (wall time of the point).

    Examples
    --------
    >>> g = simulate_grid(figure_grid().head(2), n_reps=100)
    >>> g.shape
    (10, 12)
    """
    points = figure_grid() if points is None else check_points(points)
    seed = check_seed("seed", seed)
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be a callable progress(i, n_points, seconds) or None, got {progress!r}")
    frames = []
    row: Any  # a row of the caller's table: its values are passed on raw, for simulate_cv_f to check
    for i, row in enumerate(points.itertuples(index=False)):
        point_seed = int(np.random.SeedSequence([seed, i]).generate_state(1)[0])
        start = time.perf_counter()
        # the raw values: simulate_cv_f checks them (float("0.1") or bool("no") would accept anything)
        t = simulate_cv_f(
            row.prior, row.f_true, stratified=row.stratified, n_reps=n_reps, seed=point_seed, n_jobs=n_jobs
        )
        seconds = time.perf_counter() - start
        t = t.reset_index()
        t.insert(0, "stratified", bool(row.stratified))
        t.insert(0, "f_true", float(row.f_true))
        t.insert(0, "prior", float(row.prior))
        t["seconds"] = seconds
        frames.append(t)
        if progress is not None:
            progress(i, len(points), seconds)
    return pd.concat(frames, ignore_index=True)


@dataclass
class ExploreResult:
    """What :func:`explore_cv_f` returns.

    Attributes
    ----------
    estimates : DataFrame
        One row per repetition, one column per method (NaN: skip method undefined).
    summary : DataFrame
        Per method: ``mean``, ``bias``, ``relative_bias``, ``std``, ``n_undefined``,
        and ``exact_mean`` (NaN where no exact sum exists).
    f_true : float
        The ground truth.
    text : str
        A one-paragraph plain-text summary.
    """

    estimates: pd.DataFrame
    summary: pd.DataFrame
    f_true: float
    text: str = field(default="")


def explore_cv_f(
    prior: float,
    f_true: float,
    *,
    n_folds: int = 10,
    n_cases: int = 1000,
    stratified: bool = True,
    n_reps: int = 20_000,
    seed: int = 0,
) -> ExploreResult:
    """Simulate one point and summarise every method against the truth and the exact expectation.

    Parameters
    ----------
    prior, f_true, n_folds, n_cases, stratified, n_reps, seed
        As in :func:`apples.studies.forman_scholz.sample_cv_f`.

    Returns
    -------
    ExploreResult

    Examples
    --------
    >>> r = explore_cv_f(0.01, 0.8, n_reps=2000)
    >>> bool(r.summary.loc["tp_fp", "exact_mean"] == exact_cv_f(0.01, 0.8, stratified=True, method="tp_fp"))
    True
    """
    design = simulation_design(prior, f_true, n_cases=n_cases, n_folds=n_folds)
    est = sample_cv_f(prior, f_true, stratified=stratified, n_reps=n_reps, n_cases=n_cases, n_folds=n_folds, seed=seed)
    mean = est.mean()
    summary = pd.DataFrame(
        {
            "mean": mean,
            "bias": mean - f_true,
            "relative_bias": (mean - f_true) / f_true,
            "std": est.std(ddof=1) if n_reps > 1 else np.nan,
            "n_undefined": est.isna().sum().astype(int),
            "exact_mean": [
                exact_cv_f(prior, f_true, stratified=stratified, method=m, n_cases=n_cases, n_folds=n_folds)
                if m in EXACT_METHODS
                else np.nan
                for m in F_AGGREGATIONS
            ],
        },
        index=pd.Index(list(F_AGGREGATIONS), name="method"),
    )
    best = str(summary["bias"].abs().idxmin())  # a method name (str() for the type checker)
    text = (
        f"{design.n_pos} positives in {n_cases} cases, {n_folds} {'stratified' if stratified else 'unstratified'} "
        f"folds, true F = {percent(f_true, decimals=1)}, {n_reps:,} repetitions. "
        f"Smallest |bias|: {F_AGGREGATIONS[best].symbol} ({summary['bias'].loc[best] * 100:+.2f} points)."
    )
    return ExploreResult(estimates=est, summary=summary, f_true=float(f_true), text=text)
