"""Speed of apples.roc_auc / average_precision against scikit-learn, measured in one run.

Usage: .venv/bin/python benchmarks/roc_auc.py [n]

Prints seconds per call (best of 5) and the ratio apples / scikit-learn for
n scores (default 10^6), once with continuous scores and once with heavy ties
(100 distinct values). The machine is shared: read the ratios, not the seconds.
"""

from __future__ import annotations

import sys
import time

import numpy as np
from sklearn.metrics import average_precision_score, roc_auc_score

import apples


def best_of(func, *args, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        func(*args)
        times.append(time.perf_counter() - t0)
    return min(times)


def main(n: int) -> None:
    rng = np.random.default_rng(0)
    y = (rng.random(n) < 0.025).astype(int)
    cases = {
        "continuous": rng.standard_normal(n) + 1.5 * y,
        "100 tied levels": np.round(rng.random(n) * 99 + 20 * y) % 100,
    }
    print(f"n = {n:,} scores, {y.sum():,} positives")
    for label, s in cases.items():
        for name, ours, theirs in [
            ("AUC", apples.roc_auc, roc_auc_score),
            ("AP", apples.average_precision, average_precision_score),
        ]:
            assert abs(ours(y, s) - theirs(y, s)) < 1e-12
            t_ours, t_theirs = best_of(ours, y, s), best_of(theirs, y, s)
            print(
                f"{label:16} {name:3}: apples {t_ours:.4f} s, scikit-learn {t_theirs:.4f} s, "
                f"ratio apples/sklearn = {t_ours / t_theirs:.2f}"
            )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000)
