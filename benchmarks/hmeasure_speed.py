"""Speed of apples.h_measure against the PyPI ``hmeasure`` package (issue 6).

Prints, for each sample size, the best-of-3 wall time of both and their ratio
(measured in the same run, since the machine is shared and noisy), and the
largest difference between the two values. Run: ``.venv/bin/python benchmarks/hmeasure_speed.py``.
"""

from __future__ import annotations

import numpy as np
from _timing import best_of  # benchmarks/_timing.py (scripts run from benchmarks/)
from hmeasure import h_score

import apples


def main() -> None:
    rng = np.random.default_rng(2011)
    print(f"{'n':>9}  {'apples (s)':>10}  {'hmeasure (s)':>12}  {'ratio':>6}  {'|difference|':>12}")
    for n in (10**3, 10**4, 10**5, 10**6):
        y = rng.integers(0, 2, n)
        s = 1 / (1 + np.exp(-(y + rng.normal(0, 1, n))))  # scores in [0, 1], as the package requires
        ours = best_of(lambda y=y, s=s: apples.h_measure(y, s))
        theirs = best_of(lambda y=y, s=s: h_score(y, s))
        diff = abs(apples.h_measure(y, s) - h_score(y, s))
        print(f"{n:>9}  {ours:>10.4f}  {theirs:>12.4f}  {theirs / ours:>6.2f}  {diff:>12.1e}")


if __name__ == "__main__":
    main()
