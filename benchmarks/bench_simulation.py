"""Benchmark: the Forman & Scholz Figures 4–8 grid at the paper's 10**6 repetitions per point.

Prints, for every point, the seconds fs.simulate_cv_f takes and the ratio
to the time numpy needs just to draw the same number of binomial variates
(one TP and one FP per fold per repetition, i.e. 2 · n_reps · n_folds, with
the stratified fold sizes as binomial n, in chunks of the same size), then the
totals, and the time of the exact expectations (and standard deviations) of
F_tp,fp and F_avg over the whole grid. Ratios are measured in the same run
(the machine is shared and noisy). CPU seconds (process time, all threads) are
printed too: on a loaded machine they show the work done, wall seconds the wait.

Usage: python benchmarks/bench_simulation.py [--reps 1000000] [--jobs 2] [--points N]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import apples
from apples.studies import forman_scholz as fs
from apples.studies.forman_scholz import simulation
from apples.theory import fold_model


def numpy_binomials(prior: float, f_true: float, n_reps: int, seed: int) -> float:
    """Wall and CPU seconds for numpy to draw 2 · n_reps · n_folds binomial variates of this point."""
    d = apples.theory.simulation_design(prior, f_true)
    pos = fold_model.stratified_positives(d.n_pos, d.n_folds)
    neg = d.fold_size - pos
    rng = np.random.default_rng(seed)
    per_chunk = simulation._CHUNK_CELLS // d.n_folds
    start = time.perf_counter()
    cpu = time.process_time()
    done = 0
    while done < n_reps:
        n = min(per_chunk, n_reps - done)
        rng.binomial(np.broadcast_to(pos, (n, d.n_folds)), d.recall)
        rng.binomial(np.broadcast_to(neg, (n, d.n_folds)), d.fpr)
        done += n
    return time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reps", type=int, default=10**6)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--points", type=int, default=None, help="only the first N grid points")
    args = parser.parse_args()

    grid = fs.figure_grid()
    if args.points:
        grid = grid.head(args.points)

    # exact expectations and standard deviations for the whole grid, cold caches
    fold_model.outcome_tables.cache_clear()
    start, cpu = time.perf_counter(), time.process_time()
    for row in grid.itertuples(index=False):
        for method in apples.theory.EXACT_METHODS:
            apples.theory.exact_cv_f(row.prior, row.f_true, stratified=row.stratified, method=method)
    exact_mean, exact_cpu = time.perf_counter() - start, time.process_time() - cpu
    fold_model.outcome_tables.cache_clear()
    start = time.perf_counter()
    for row in grid.itertuples(index=False):
        for method in apples.theory.EXACT_METHODS:
            for statistic in ("mean", "std"):
                apples.theory.exact_cv_f(
                    row.prior, row.f_true, stratified=row.stratified, method=method, statistic=statistic
                )
    exact_both = time.perf_counter() - start
    fold_model.outcome_tables.cache_clear()
    fold_model._allocation_tables.cache_clear()

    print(f"{len(grid)} points, {args.reps:,} repetitions each, n_jobs={args.jobs}")
    print(
        f"{'prior':>6} {'F':>5} {'strat':>6} {'apples s':>9} {'numpy binom s':>14} {'ratio':>6} "
        f"{'apples cpu s':>13} {'numpy cpu s':>12}"
    )
    total_ours = total_numpy = cpu_ours = cpu_numpy = 0.0
    wall = time.perf_counter()
    for i, row in enumerate(grid.itertuples(index=False)):
        start = time.perf_counter()
        cpu = time.process_time()
        fs.simulate_cv_f(row.prior, row.f_true, stratified=row.stratified, n_reps=args.reps, seed=i, n_jobs=args.jobs)
        ours, ours_cpu = time.perf_counter() - start, time.process_time() - cpu
        ref, ref_cpu = numpy_binomials(row.prior, row.f_true, args.reps, seed=i)
        total_ours += ours
        total_numpy += ref
        cpu_ours += ours_cpu
        cpu_numpy += ref_cpu
        print(
            f"{row.prior:6.3f} {row.f_true:5.2f} {row.stratified!s:>6} {ours:9.3f} {ref:14.3f} {ours / ref:6.2f} "
            f"{ours_cpu:13.3f} {ref_cpu:12.3f}",
            flush=True,
        )
    wall = time.perf_counter() - wall
    print(
        f"total apples: {total_ours:.1f} s ({total_ours / len(grid):.3f} s per point); "
        f"numpy binomials alone: {total_numpy:.1f} s; ratio {total_ours / total_numpy:.2f}"
    )
    print(
        f"CPU seconds: apples {cpu_ours:.1f} ({cpu_ours / len(grid):.3f} per point), numpy binomials {cpu_numpy:.1f}; "
        f"ratio {cpu_ours / cpu_numpy:.2f}"
    )
    print(
        f"exact E[F] of tp_fp and avg over the grid: {exact_mean:.3f} s (CPU {exact_cpu:.3f} s); "
        f"E and SD: {exact_both:.3f} s"
    )
    print(f"(benchmark wall time incl. the numpy reference: {wall:.1f} s)")


if __name__ == "__main__":
    main()
