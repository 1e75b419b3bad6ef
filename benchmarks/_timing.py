"""What the benchmark scripts share: the best of a few timed runs (``timeit``), against noise on a shared machine."""

from __future__ import annotations

import time
import timeit
from collections.abc import Callable


def best_of(func: Callable[[], object], repeat: int = 3) -> float:
    """Seconds of the fastest of ``repeat`` calls of ``func()`` (one call per timing)."""
    return min(timeit.repeat(func, number=1, repeat=repeat))


def best_cpu_of(func: Callable[[], object], repeat: int = 3) -> float:
    """CPU seconds of this process in the fastest of ``repeat`` calls of ``func()``: what a single-threaded
    computation costs, less sensitive than wall time to the other jobs of a shared machine."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        func()
        best = min(best, time.process_time() - start)
    return best
