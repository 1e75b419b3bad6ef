"""Time of ``import apples`` against ``import numpy``, each in a fresh interpreter, measured side by side in one run.

Usage: .venv/bin/python benchmarks/import_speed.py [repeat]

Prints, best of ``repeat`` (default 7) fresh interpreters each: ``python -c "import numpy"``, ``python -c
"import apples"`` (the goal of issue 21: at most 0.3 s), and what a first use loads beside it: ``import apples``
followed by touching ``apples.label_counts`` (numpy only), ``apples.report`` (pandas and scipy.stats) and
``apples.CVPredictions``; then the modules ``import apples`` leaves unloaded. The machine is shared: read the
ratios to ``import numpy``, not the seconds. ``python -X importtime -c "import apples"`` shows the tree.
"""

from __future__ import annotations

import subprocess
import sys
import time


def fresh(code: str, repeat: int) -> float:
    """Seconds of the fastest of ``repeat`` fresh interpreters running ``code`` (start-up included)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        best = min(best, time.perf_counter() - start)
    return best


def main(repeat: int) -> None:
    t_python = fresh("pass", repeat)
    t_numpy = fresh("import numpy", repeat)
    print(f"python -c pass: {t_python:.3f} s; python -c 'import numpy': {t_numpy:.3f} s")
    for label, code in (
        ("import apples", "import apples"),
        ("import apples; apples.label_counts", "import apples; apples.label_counts"),
        ("import apples; apples.CVPredictions", "import apples; apples.CVPredictions"),
        ("import apples; apples.report", "import apples; apples.report"),
    ):
        seconds = fresh(code, repeat)
        print(f"{label}: {seconds:.3f} s, ratio to import numpy = {seconds / t_numpy:.2f}")
    check = (
        "import sys, apples; "
        "print(sorted({m.split('.')[0] for m in sys.modules if m.startswith(('numpy', 'pandas', 'scipy'))}))"
    )
    loaded = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, check=True).stdout
    print(f"numpy, pandas, scipy loaded by import apples: {loaded.strip()}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
