"""The paths of benchmarks/report_scale.py at a small size: the command line streaming a gzip CSV (its limits
lowered), and CVSummary.from_dask on a LocalCluster of two worker processes, each equal to the report in memory
of the same rows and under its memory limit; the benchmark exits 0 only then."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def test_the_scale_paths_at_a_small_size(tmp_path):
    pytest.importorskip("dask.distributed")
    pytest.importorskip("dask.dataframe")
    done = subprocess.run(
        [
            sys.executable,
            "report_scale.py",
            "--rows",
            "3e4",
            "--reference-rows",
            "2e4",
            "--small",
            "--dir",
            str(tmp_path),
        ],
        cwd=BENCHMARKS,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert out.count("equal to the report in memory: True") == 2, out  # the command line's and dask's
    assert "dask LocalCluster(2 workers) 20,000 rows" in out and "every check holds" in out, out
    assert not list(tmp_path.glob("*.csv.gz"))  # the files it made are gone
