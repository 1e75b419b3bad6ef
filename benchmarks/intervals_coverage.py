"""The coverage of apples' intervals: every interval of the report (and the older study), on models with a known truth.

Usage: .venv/bin/python benchmarks/intervals_coverage.py [n_studies] [n_jobs] [--legacy] [--csv PATH] [--write PATH]

Runs apples.intervals.report_coverage_study over report_coverage_settings() (72 settings: the binary grid
prior 0.1/0.5 × n 200/1000 × k 5/10 × repeats 1/3 × τ 0/0.5 × unweighted/class-weighted, and multi-class and
multi-label settings), at 95 % nominal, with n_studies per setting (default 1,000), and prints:

1. Monte Carlo over fold models converging to the exact truths (the sum the study uses instead);
2. per value of the report (measure, label average, aggregation): the lowest, median and highest coverage over
   the settings, against the truth and against the k-fold design's own target;
3. the binary coverage by prior, n and τ (the lowest over k, repeats and weights);
4. every (value, setting) whose coverage falls below 0.90, with its MCSE, bias and miss sides;
5. the run time. The full table goes to --csv (default build/intervals_coverage.csv).

With --write PATH it also writes the table as the stored result apples ships (gzip, reproducible bytes), the one
apples.intervals.stored_report_coverage() reads and notebook 11 shows:

    .venv/bin/python benchmarks/intervals_coverage.py 1000 2 --write apples/intervals/data/report_coverage.csv.gz

(seed 0, 1,000 studies per setting; about 25 minutes on 2 cores). tests/intervals/test_stored_report_coverage.py
recomputes some of its rows with the same seeds.

With --legacy it runs the older coverage_study (notebook 11's table: F bootstrap, Wilson, DeLong, fold t) instead.
Identical results for any n_jobs.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from apples.intervals import coverage_settings, coverage_study, report_coverage_settings, report_coverage_study
from apples.theory import learner_truths
from apples.theory.learner_models import model_values

_KEYS = ["task", "quantity", "average", "aggregation"]
_SETTING = ["task", "prior", "n_cases", "n_folds", "n_repeats", "training_sd", "pos_weight"]


def monte_carlo_convergence() -> pd.DataFrame:
    """E over fold models of a fold model's value, sampled with more and more models, against the exact sum."""
    truths = learner_truths(prior=0.1, delta0=1.5, training_sd=0.5).set_index(["quantity", "aggregation"])["truth"]
    rng = np.random.default_rng(2024)
    rows = []
    for n in (10**2, 10**3, 10**4, 10**5):
        a = np.abs(1.5 + 0.5 * rng.standard_normal(n))
        values = model_values("binary", a, 0.1, 1.0)
        for q in ("f_measure", "roc_auc", "average_precision", "h_measure", "log_loss"):
            v = values[(q, "")]
            rows.append(
                {
                    "quantity": q,
                    "models": n,
                    "monte_carlo": float(v.mean()),
                    "mc_se": float(v.std(ddof=1) / np.sqrt(n)),
                    "exact": float(truths[(q, "avg")]),
                }
            )
    out = pd.DataFrame(rows)
    out["error"] = out["monte_carlo"] - out["exact"]
    out["error_in_se"] = out["error"] / out["mc_se"]
    return out


def _fmt(x: float) -> str:
    return f"{x:.3f}"


def write_stored(table: pd.DataFrame, path: Path) -> None:
    """The table as apples ships it: CSV (floats written to round-trip exactly), gzip with no time stamp."""
    path.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(path, index=False, compression={"method": "gzip", "mtime": 0}, lineterminator="\n")


def main(n_studies: int, n_jobs: int, csv: Path, write: Path | None = None) -> None:
    pd.set_option("display.width", 250)
    pd.set_option("display.max_rows", 5000)
    pd.set_option("display.max_columns", 50)
    print("1. Monte Carlo over fold models (binary, π = 0.1, δ₀ = 1.5, τ = 0.5) against the exact E_a[m(a)]:")
    print(monte_carlo_convergence().to_string(index=False, float_format=lambda x: f"{x:.5f}"))
    settings = report_coverage_settings()
    t0 = time.perf_counter()
    table = report_coverage_study(settings, n_studies=n_studies, n_jobs=n_jobs, seed=0)
    seconds = time.perf_counter() - t0
    csv.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(csv, index=False)
    if write is not None:
        write_stored(table, write)
    t = table.copy()
    t["prior"] = t["prior"].astype(str)

    print(f"\n2. Coverage of every value of apples.report at 95 % over the {len(settings)} settings "
          f"({n_studies:,} studies each): lowest, median, highest")  # fmt: skip
    summary = t.groupby(_KEYS, sort=False).agg(
        lowest=("coverage", "min"),
        median=("coverage", "median"),
        highest=("coverage", "max"),
        design_lowest=("design_coverage", "min"),
        median_width=("mean_width", "median"),
        no_interval=("no_interval", "max"),
    )
    print(summary.to_string(float_format=_fmt))

    print("\n3. Binary coverage by prior, n_cases and τ (the lowest over k, repeats and weights):")
    binary = t[t["task"] == "binary"]
    pivot = binary.pivot_table(
        index=["quantity", "aggregation"],
        columns=["prior", "n_cases", "training_sd"],
        values="coverage",
        aggfunc="min",
        sort=False,
    )
    print(pivot.to_string(float_format=_fmt))

    low = t[t["coverage"] < 0.90]
    print(f"\n4. Values under 0.90 coverage: {len(low)} of {len(t)} (value, setting) rows; by value:")
    for key, part in low.groupby(_KEYS, sort=False):
        print(f"  {' / '.join(k for k in key if k)}: {len(part)} setting(s)")
    cols = [*_SETTING, "quantity", "average", "aggregation", "truth", "coverage", "mcse", "design_coverage",
            "mean_width", "miss_low", "miss_high", "no_interval", "bias", "design_bias"]  # fmt: skip
    print(low[cols].to_string(index=False, float_format=_fmt))
    print(
        f"\n5. {n_studies:,} studies × {len(settings)} settings in {seconds:,.0f} s with n_jobs={n_jobs} "
        f"({seconds / (n_studies * len(settings)) * 1000:.1f} ms per study); full table: {csv}"
    )


def legacy(n_studies: int, n_jobs: int) -> None:
    """The older study of notebook 11's section 5 (intervals outside the report)."""
    t0 = time.perf_counter()
    table = coverage_study(coverage_settings(), n_studies=n_studies, n_jobs=n_jobs, seed=0)
    seconds = time.perf_counter() - t0
    cols = ["model", "prior", "n_cases", "n_folds", "training_sd", "interval", "coverage", "mcse", "mean_width",
            "miss_low", "miss_high"]  # fmt: skip
    print(table[cols].to_string(index=False, float_format=_fmt))
    low = table[table["coverage"] < table["confidence"] - 3 * table["mcse"]]
    print(f"\nunder-covering (coverage < 0.95 - 3 MCSE): {len(low)} of {len(table)} rows")
    print(low[cols].to_string(index=False, float_format=_fmt))
    print(f"\n{n_studies} studies per setting, {len(table) // 4} settings, {seconds:.0f} s with n_jobs={n_jobs}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n_studies", nargs="?", type=int, default=None, help="default 1000 (--legacy: 2000)")
    parser.add_argument("n_jobs", nargs="?", type=int, default=1)
    parser.add_argument("--legacy", action="store_true", help="the older coverage_study of notebook 11")
    parser.add_argument("--csv", type=Path, default=Path("build/intervals_coverage.csv"))
    parser.add_argument(
        "--write", type=Path, default=None, metavar="PATH",
        help="also write the table as the stored result (e.g. apples/intervals/data/report_coverage.csv.gz)",
    )  # fmt: skip
    args = parser.parse_args()
    if args.legacy:
        legacy(args.n_studies or 2000, args.n_jobs)
    else:
        main(args.n_studies or 1000, args.n_jobs, args.csv, args.write)
