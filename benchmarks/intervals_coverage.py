"""The large coverage study of apples.intervals: every interval, every setting, 2,000 studies each.

Usage: .venv/bin/python benchmarks/intervals_coverage.py [n_studies] [n_jobs]

Prints, per setting and interval, the empirical coverage at 95% nominal with its Monte Carlo
standard error, the mean width, and which side the misses fall on; then the settings where an
interval under-covers by more than 3 Monte Carlo standard errors. Identical for any n_jobs.
"""

from __future__ import annotations

import sys
import time

import pandas as pd

from apples.intervals import coverage_settings, coverage_study


def main(n_studies: int, n_jobs: int) -> None:
    t0 = time.perf_counter()
    table = coverage_study(coverage_settings(), n_studies=n_studies, n_jobs=n_jobs, seed=0)
    seconds = time.perf_counter() - t0
    pd.set_option("display.width", 200)
    cols = [
        "model",
        "prior",
        "n_cases",
        "n_folds",
        "training_sd",
        "interval",
        "coverage",
        "mcse",
        "mean_width",
        "miss_low",
        "miss_high",
    ]
    print(table[cols].to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    low = table[table["coverage"] < table["confidence"] - 3 * table["mcse"]]
    print(f"\nunder-covering (coverage < 0.95 - 3 MCSE): {len(low)} of {len(table)} rows")
    print(low[cols].to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    print(f"\n{n_studies} studies per setting, {len(table) // 4} settings, {seconds:.0f} s with n_jobs={n_jobs}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000, int(sys.argv[2]) if len(sys.argv) > 2 else 1)
