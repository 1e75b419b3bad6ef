"""Benchmark apples.studies.parker.run_experiment (Parker §IV–V, notebook 09): time, where it goes, n_jobs=2.

Prints, measured in one run (machines are shared: compare the ratios, not the seconds):
- wall-clock seconds of the default design (the run ``make book`` executes) serially and with n_jobs=2,
  the speed-up of n_jobs=2 over serial, and whether the two results are identical;
- where the time goes: task-seconds per phase (loading or drawing the data, fitting the representation,
  fitting and scoring the nine classifiers, the seven measures), per representation and per data set;
- with ``--full``, the same for ``experiment_config("full")`` with n_jobs=2 only (several minutes).

Run: .venv/bin/python benchmarks/parker_experiment.py [--full]
"""

import sys
import time

import pandas as pd

from apples.studies import parker as pk

PHASES = ["data", "represent", "fit", "measures"]


def timed(config, n_jobs):
    t = time.perf_counter()
    result = pk.run_experiment(config, n_jobs=n_jobs)
    return time.perf_counter() - t, result


def breakdown(result, wall):
    t = result.timings
    total = t["total"].sum()
    print(f"  {wall:.1f} s wall clock, {total:.1f} task-seconds over {len(t)} tasks")
    phases = t[PHASES].sum()
    print("  per phase (% of task-seconds): " + ", ".join(f"{k} {100 * v / total:.0f}%" for k, v in phases.items()))
    by_rep = t.groupby("representation")["total"].sum().sort_values(ascending=False)
    print("  per representation (s): " + ", ".join(f"{k} {v:.1f}" for k, v in by_rep.items()))
    by_data = t.groupby("dataset")["total"].sum().sort_values(ascending=False)
    print("  per data set (s): " + ", ".join(f"{k} {v:.1f}" for k, v in by_data.items()))


def main(full: bool) -> None:
    config = pk.experiment_config()
    print(f"default design: {len(pk.experiment_tasks(config))} tasks")
    serial_wall, serial = timed(config, 1)
    print("n_jobs=1:")
    breakdown(serial, serial_wall)
    par_wall, par = timed(config, 2)
    print("n_jobs=2:")
    breakdown(par, par_wall)
    try:
        pd.testing.assert_frame_equal(serial.comparisons, par.comparisons)
        same = True
    except AssertionError:
        same = False
    print(f"speed-up of n_jobs=2 over serial: {serial_wall / par_wall:.2f}x; identical results: {same}")
    if full:
        config = pk.experiment_config("full")
        print(f"\nfull design: {len(pk.experiment_tasks(config))} tasks, n_jobs=2")
        wall, result = timed(config, 2)
        breakdown(result, wall)


if __name__ == "__main__":
    main("--full" in sys.argv[1:])
