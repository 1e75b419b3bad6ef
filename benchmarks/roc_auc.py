"""Speed of apples.roc_auc / average_precision against scikit-learn, and of the report's ranking kernel
(``fold_ranking``) against one ``np.argsort`` of the scores, measured in one run.

Usage: .venv/bin/python benchmarks/roc_auc.py [n]

Prints seconds per call (best of 5) and the ratio apples / scikit-learn for
n scores (default 10^6), once with continuous scores and once with heavy ties
(100 distinct values); then ``fold_ranking`` over 10 folds, plain, weighted,
with ``h_prior=`` (H per fold and merged) and with ``jackknife=True`` (the
merged AUC, AP and H without each fold), each as a multiple of one argsort.
The machine is shared: read the ratios, not the seconds.
"""

from __future__ import annotations

import sys
import time

import numpy as np
from sklearn.metrics import average_precision_score, roc_auc_score

import apples
from apples._kernels.ranking import fold_ranking


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


def kernel(n: int, n_folds: int = 10) -> None:
    rng = np.random.default_rng(1)
    y = rng.random(n) < 0.025
    fold = rng.integers(0, n_folds, n)
    w = rng.random(n)
    cases = {
        "continuous": rng.standard_normal(n) + 1.5 * y,
        "100 tied levels": np.round(rng.random(n) * 99 + 20 * y) % 100,
    }
    prior = (2.0, 2.0)
    print(f"\nfold_ranking, {n_folds} folds, as a multiple of one np.argsort of the scores")
    for label, s in cases.items():
        t_sort = best_of(np.argsort, s)
        runs = {
            "plain": lambda s=s: fold_ranking(y, s, fold, n_folds),
            "weighted": lambda s=s: fold_ranking(y, s, fold, n_folds, weights=w),
            "h_prior": lambda s=s: fold_ranking(y, s, fold, n_folds, h_prior=prior),
            "h_prior+jackknife": lambda s=s: fold_ranking(y, s, fold, n_folds, h_prior=prior, jackknife=True),
            "weighted h_prior": lambda s=s: fold_ranking(y, s, fold, n_folds, weights=w, h_prior=prior),
            "weighted h+jackknife": lambda s=s: fold_ranking(
                y, s, fold, n_folds, weights=w, h_prior=prior, jackknife=True
            ),
        }
        shown = ", ".join(f"{name} {best_of(run, repeat=3) / t_sort:.2f}" for name, run in runs.items())
        print(f"{label:16} argsort {t_sort:.4f} s; {shown}")


if __name__ == "__main__":
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    main(size)
    kernel(size)
