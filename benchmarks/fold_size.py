"""Benchmark apples.studies.van_asch (Van Asch §7, notebook 04): exact Figure 2 grid and the simulation.

Prints, measured in one run (machines are shared: compare the ratios, not the seconds):
- seconds for the exact expectations of the whole Figure 2 grid (21 proportions x 6 panels x
  2 allocations x 2 methods x 2 averages), cold cache;
- per panel, seconds per proportion for 10^5 simulated cross-validations (fixed errors, random folds),
  and the ratio to the time numpy needs just to draw the same number of hypergeometric variates
  (2 per fold and repetition, in one vectorised call).

Run: .venv/bin/python benchmarks/fold_size.py
"""

import time

import numpy as np

from apples.studies.van_asch import fold_size

PROPS = np.arange(21) * 0.005
PANELS = [(5, 1000), (5, 10_000), (10, 1000), (10, 10_000), (50, 1000), (50, 10_000)]
REPS = 100_000


def main():
    fold_size._exact.cache_clear()
    t = time.perf_counter()
    for k, n in PANELS:
        for alloc in ("random", "stratified"):
            for p in PROPS:
                for method in ("tp_fp", "avg"):
                    for average in ("binary", "macro"):
                        fold_size.exact_fold_f1(
                            p, method=method, average=average, n_instances=n, n_folds=k, allocation=alloc
                        )
    print(
        f"exact Figure 2 grid ({len(PANELS) * 2 * len(PROPS)} designs x 2 methods x 2 averages): "
        f"{time.perf_counter() - t:.2f} s"
    )
    rng = np.random.default_rng(0)
    print(f"simulation, {REPS:,} repetitions per proportion (fixed errors, random folds):")
    for k, n in PANELS:
        t = time.perf_counter()
        fold_size.simulate_fold_f1(0.05, n_instances=n, n_folds=k, n_reps=REPS, seed=1)
        sim = time.perf_counter() - t
        size = 2 * REPS * k
        t = time.perf_counter()
        rng.hypergeometric(np.full(size, 50), np.full(size, 950), np.full(size, n // k // 10 + 1))
        base = time.perf_counter() - t
        print(
            f"  K={k:>2}, N={n:>6,}: {sim:6.2f} s per proportion; numpy alone for {size:,} hypergeometric "
            f"variates {base:5.2f} s; ratio {sim / base:4.1f}"
        )


if __name__ == "__main__":
    main()
