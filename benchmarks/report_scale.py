"""The report of 10^8 predictions: streamed from a gzip CSV by the command line, and on a dask LocalCluster of two
workers, with the peak memory of every process, the time against one in-memory argsort at 10^7, and equality with
the report in memory where both fit.

Usage: .venv/bin/python benchmarks/report_scale.py [--rows N] [--reference-rows N] [--dir DIR] [--keep] [--small]

The predictions (benchmarks/_scale_data.py): binary, 10 folds, 10 % positives, a probability rounded to 6 decimals
as the score (many ties), the label it implies as the prediction; written as gzip CSVs under DIR (default /tmp) if
missing, and deleted at the end unless --keep. Each path runs in a process of its own; its peak resident set is read
from the operating system (``os.wait4``'s rusage for a child, ``getrusage`` on each dask worker).

1. In memory at the reference size (default 10^7): the command line's own whole read and report (the reference
   JSON), and one ``np.argsort`` of the scores (the peer of every time below).
2. The command line streaming the reference CSV, then the large one (default 10^8): it must equal the reference
   (integers exactly, floats to 1e-12 relative) and peak under 512 MiB at 10^7, 2 GiB at 10^8.
3. ``CVSummary.from_dask`` on a ``LocalCluster(n_workers=2)``, partitions of 10^6 rows made on the workers
   (``dd.from_map``), at the reference size (equal to the reference) and at the large size.

--small lowers the command line's limits (text read whole, block and bucket sizes) so that a few 10^5 rows exercise
every path in seconds (tests/reporting/test_scale_paths.py). The machine is shared: read the ratios and the peaks.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from _scale_data import BLOCK, arrays, block, write_csv  # benchmarks/_scale_data.py (scripts run from benchmarks/)

COLUMNS = ["--truth", "y", "--fold", "fold", "--pred", "pred", "--score", "score", "--format", "json"]
SMALL = "import apples._cli_read as r, apples.cli as c; r.WHOLE, r.BLOCK_BYTES, c.BUCKET_ROWS = 100_000, 50_000, 5_000"


def _child(code: str, *, out: Path | None = None) -> tuple[float, float, str]:
    """Run ``python -c code``: wall seconds, peak RSS (MiB) from the kernel, stdout (or its file)."""
    start = time.perf_counter()
    sink = open(out, "w") if out is not None else subprocess.PIPE  # noqa: SIM115
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=sink, stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    stdout = "" if out is not None else proc.stdout.read()  # type: ignore[union-attr]
    err = proc.stderr.read()  # type: ignore[union-attr]
    if out is not None:
        sink.close()  # type: ignore[union-attr]
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{code[:200]} failed: {err[-2000:]}")
    return seconds, usage.ru_maxrss / 1024, stdout


def _cli(path: Path, whole: bool, small: bool, out: Path) -> tuple[float, float]:
    setup = SMALL if small else "import apples._cli_read as r, apples.cli as c"
    if whole:
        setup += "; r.WHOLE = 1 << 40"
    code = f"{setup}; import sys; sys.exit(c.main({['report', str(path), *COLUMNS, '--confidence', '0.95']!r}))"
    seconds, peak, _ = _child(code, out=out)
    return seconds, peak


def _argsort_seconds(n: int) -> float:
    code = (
        f"import sys, time; sys.path.insert(0, {str(Path(__file__).parent)!r}); from _scale_data import arrays; "
        f"import numpy as np; s = arrays({n})['score']; t = time.perf_counter(); np.argsort(s); "
        "print(time.perf_counter() - t)"
    )
    return float(_child(code)[2])


def _dask(n: int, out: Path, bucket_rows: int) -> tuple[float, float, list[float]]:
    code = f"""
import json, resource, sys, time
sys.path.insert(0, {str(Path(__file__).parent)!r})
import cloudpickle, dask.dataframe as dd
from dask.distributed import Client, LocalCluster
import _scale_data
cloudpickle.register_pickle_by_value(_scale_data)
import apples
from apples.cv import CVSummary
n, size = {n}, {BLOCK}
with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \\
        Client(cluster) as client:
    if n >= size:  # the CSV's blocks of 10^6 rows, one a partition
        parts = [(i, min(size, n - i * size), 0, size) for i in range((n + size - 1) // size)]
    else:  # the CSV's one block, in four partitions
        parts = [(0, n, a, a + -(-n // 4)) for a in range(0, n, -(-n // 4))]
    frame = dd.from_map(lambda p: _scale_data.block(0, p[0], p[1]).iloc[p[2] : p[3]], parts)
    start = time.perf_counter()
    s = CVSummary.from_dask(frame, y_true="y", folds="fold", y_pred="pred", y_score="score", bucket_rows={bucket_rows})
    seconds = time.perf_counter() - start
    workers = list(client.run(lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024).values())
report = apples.report(s, confidence=0.95)
open({str(out)!r}, "w").write(report.to_json())
print(json.dumps({{"seconds": seconds, "workers": workers}}))
"""
    _, client_peak, stdout = _child(code)
    got = json.loads(stdout.strip().splitlines()[-1])
    return got["seconds"], client_peak, got["workers"]


def _memory(n: int, out: Path) -> tuple[float, float]:
    """The report in memory of the first n rows as arrays (CVPredictions): seconds and peak RSS (MiB)."""
    code = (
        f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); import apples; "
        "from _scale_data import arrays; "
        f"a = arrays({n}); p = apples.CVPredictions(a['y'], folds=a['fold'], y_pred=a['pred'], y_score=a['score']); "
        f"open({str(out)!r}, 'w').write(apples.report(p, confidence=0.95).to_json())"
    )
    seconds, peak, _ = _child(code)
    return seconds, peak


def same(a: str, b: str) -> list[tuple[str, Any, Any]]:
    """Where two reports' JSON differ: integers and strings exactly, floats beyond 1e-12 relative (1e-15 absolute
    at 0; a spread, a difference of nearly equal values, 1e-13 absolute)."""
    wrong: list[tuple[str, Any, Any]] = []

    def walk(x: Any, y: Any, path: str) -> None:
        if isinstance(x, dict) and isinstance(y, dict) and x.keys() == y.keys():
            for key in x:
                walk(x[key], y[key], f"{path}/{key}")
        elif isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
            for i, (u, v) in enumerate(zip(x, y, strict=True)):
                walk(u, v, f"{path}[{i}]")
        elif isinstance(x, float) and isinstance(y, float):
            spread = path.endswith(("/std", "/variance"))
            if not (x == y or abs(x - y) <= max(1e-12 * max(abs(x), abs(y)), 1e-13 if spread else 1e-15)):
                wrong.append((path, x, y))
        elif x != y or type(x) is not type(y):
            wrong.append((path, x, y))

    walk(json.loads(a), json.loads(b), "")
    return wrong


def _bits(a: str, b: str) -> int:
    """How many floats differ at all (0: the same bits)."""
    count = 0

    def walk(x: Any, y: Any) -> None:
        nonlocal count
        if isinstance(x, dict):
            for key in x:
                walk(x[key], y[key])
        elif isinstance(x, list):
            for u, v in zip(x, y, strict=True):
                walk(u, v)
        elif isinstance(x, float) and x != y:
            count += 1

    walk(json.loads(a), json.loads(b))
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=float, default=1e8)
    parser.add_argument("--reference-rows", type=float, default=1e7)
    parser.add_argument("--dir", default="/tmp")
    parser.add_argument("--keep", action="store_true", help="keep the CSV files")
    parser.add_argument("--small", action="store_true", help="lower the command line's limits (a test)")
    parser.add_argument("--no-dask", action="store_true")
    parser.add_argument(
        "--compare-large", action="store_true", help="also the report in memory at --rows (from arrays), compared"
    )
    args = parser.parse_args(argv)
    n_ref, n_big = int(args.reference_rows), int(args.rows)
    folder = Path(args.dir)
    csv_ref, csv_big = folder / f"apples-scale-{n_ref}.csv.gz", folder / f"apples-scale-{n_big}.csv.gz"
    sizes = [(csv_ref, n_ref)] + ([(csv_big, n_big)] if n_big != n_ref else [])  # --rows = --reference-rows: once
    load = os.getloadavg()
    print(f"load average at the start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (2 cores, shared)", flush=True)
    made = []
    for path, n in sizes:
        if not path.exists():
            start = time.perf_counter()
            write_csv(path, n)
            made.append(path)
            print(f"wrote {path} ({path.stat().st_size / 2**20:.0f} MiB) in {time.perf_counter() - start:.0f} s")
    ok = True
    try:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            peer = _argsort_seconds(n_ref)
            print(f"peer: one np.argsort of {n_ref:,} float64 scores: {peer:.2f} s", flush=True)
            seconds, peak = _cli(csv_ref, True, args.small, out / "whole.json")
            reference = (out / "whole.json").read_text()
            print(f"in memory, {n_ref:,} rows (the command line's whole read): {seconds:.1f} s = {seconds / peer:.0f} "
                  f"argsorts, peak {peak:,.0f} MiB", flush=True)  # fmt: skip
            limits = {n_ref: 512, n_big: 2048}
            for path, n in sizes:
                seconds, peak = _cli(path, False, args.small, out / f"stream{n}.json")
                limit = limits[n] if not args.small else 1024
                ok &= peak < limit
                under = "under" if peak < limit else "OVER"
                print(f"command line streaming {n:,} rows: {seconds:.1f} s = {seconds / peer:.0f} argsorts at "
                      f"{n_ref:,}, peak {peak:,.0f} MiB ({under} {limit:,} MiB)", flush=True)  # fmt: skip
                if n == n_big and args.compare_large:
                    seconds, peak = _memory(n, out / "memory_big.json")
                    print(f"in memory, {n:,} rows (arrays, CVPredictions): {seconds:.1f} s, peak {peak:,.0f} MiB")
                    big = (out / "memory_big.json").read_text()
                    wrong = same(big, (out / f"stream{n}.json").read_text())
                    ok &= not wrong
                    print(f"  the command line's equal to it: {not wrong}{'' if not wrong else wrong[:3]}", flush=True)
                if n == n_ref:
                    streamed = (out / f"stream{n}.json").read_text()
                    wrong = same(reference, streamed)
                    ok &= not wrong
                    print(f"  equal to the report in memory: {not wrong} ({_bits(reference, streamed)} floats "
                          f"not bit for bit){'' if not wrong else wrong[:3]}", flush=True)  # fmt: skip
            if not args.no_dask:
                for _, n in sizes:
                    seconds, client, workers = _dask(n, out / f"dask{n}.json", 5_000 if args.small else 1 << 21)
                    print(f"dask LocalCluster(2 workers) {n:,} rows: {seconds:.1f} s = {seconds / peer:.0f} argsorts "
                          f"at {n_ref:,}; peak client {client:,.0f} MiB, workers "
                          f"{', '.join(f'{w:,.0f}' for w in workers)} MiB", flush=True)  # fmt: skip
                    if n == n_big and args.compare_large:
                        wrong = same((out / "memory_big.json").read_text(), (out / f"dask{n}.json").read_text())
                        ok &= not wrong
                        print(
                            f"  equal to the report in memory: {not wrong}{'' if not wrong else wrong[:3]}", flush=True
                        )
                    if n == n_ref:
                        result = (out / f"dask{n}.json").read_text()
                        wrong = same(reference, result)
                        ok &= not wrong
                        print(f"  equal to the report in memory: {not wrong} ({_bits(reference, result)} floats not "
                              f"bit for bit){'' if not wrong else wrong[:3]}", flush=True)  # fmt: skip
    finally:
        if not args.keep:
            for path in made:
                path.unlink(missing_ok=True)
    load = os.getloadavg()
    print(f"load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print("every check holds" if ok else "a check fails")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

__all__ = ["arrays", "block", "main", "np", "resource", "same"]
