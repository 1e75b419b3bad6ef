"""Speed of apples.h_measure against the PyPI ``hmeasure`` package (issue 6), weighted against unweighted, and the
per-fold H of the report's kernel (``fold_ranking(..., h_prior=)``) against one h_measure call per fold.

Prints, for each sample size, the best-of-3 wall time of both and their ratio
(measured in the same run, since the machine is shared and noisy), and the
largest difference between the two values; then the cost of sample weights
(``sample_weight=`` of unit weights: a float hull, its orientation tests filtered
and exact where the filter cannot decide) and of H for 10 folds from one sort.
Run: ``.venv/bin/python benchmarks/hmeasure_speed.py``.
"""

from __future__ import annotations

import numpy as np
from _timing import best_of  # benchmarks/_timing.py (scripts run from benchmarks/)
from hmeasure import h_score

import apples
from apples._kernels.ranking import fold_ranking


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
    n, k = 10**6, 10
    y = rng.integers(0, 2, n)
    s = 1 / (1 + np.exp(-(y + rng.normal(0, 1, n))))
    w = np.ones(n)
    plain = best_of(lambda: apples.h_measure(y, s))
    weighted = best_of(lambda: apples.h_measure(y, s, sample_weight=w))
    print(f"\nn = {n:,}: h_measure with unit sample weights / without = {weighted / plain:.2f}")
    fold = rng.integers(0, k, n)
    one_call_per_fold = best_of(lambda: [apples.h_measure(y[fold == f], s[fold == f]) for f in range(k)])
    kernel = best_of(lambda: fold_ranking(y == 1, s, fold, k, h_prior=(2.0, 2.0)))
    print(
        f"{k} folds: fold_ranking(h_prior=) (AUC, AP and H of every fold and merged, one sort) / "
        f"{k} h_measure calls = {kernel / one_call_per_fold:.2f}"
    )


if __name__ == "__main__":
    main()
