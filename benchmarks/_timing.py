"""What the benchmark scripts share: the best of a few timed runs (``timeit``), against noise on a shared machine."""

from __future__ import annotations

import timeit
from collections.abc import Callable


def best_of(func: Callable[[], object], repeat: int = 3) -> float:
    """Seconds of the fastest of ``repeat`` calls of ``func()`` (one call per timing)."""
    return min(timeit.repeat(func, number=1, repeat=repeat))
