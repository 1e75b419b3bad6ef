"""Speed and memory of apples.label_counts against scikit-learn, measured side by side in one run.

Usage: .venv/bin/python benchmarks/counting_speed.py [n_single] [n_multi]

1. Single-label: a numpy string array of n_single labels (default 10^6) with 1,000 distinct labels,
   apples.label_counts against sklearn.metrics.multilabel_confusion_matrix (both give the per-label
   TP, FP, FN, TN).
2. Multi-label: n_multi instances (default 10^5) over 50 labels, apples.label_counts on the label lists
   against MultiLabelBinarizer + multilabel_confusion_matrix; with string labels, with Python ints and
   with numpy integers (as ``rng.choice`` or iterating an integer array makes them).

Prints seconds (best of 3), peak traced memory (tracemalloc) and the ratios apples / scikit-learn. The
counts are checked equal first. The machine is shared: read the ratios, not the seconds.
"""

from __future__ import annotations

import sys
import tracemalloc

import numpy as np
from _timing import best_of  # benchmarks/_timing.py (scripts run from benchmarks/)
from sklearn.metrics import multilabel_confusion_matrix
from sklearn.preprocessing import MultiLabelBinarizer

import apples


def peak_memory(func) -> int:
    tracemalloc.start()
    func()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def compare(name: str, ours, theirs) -> None:
    t_ours, t_theirs = best_of(ours), best_of(theirs)
    m_ours, m_theirs = peak_memory(ours), peak_memory(theirs)
    print(
        f"{name}: apples {t_ours:.3f} s, scikit-learn {t_theirs:.3f} s, time ratio {t_ours / t_theirs:.2f}; "
        f"peak memory apples {m_ours / 2**20:.0f} MiB, scikit-learn {m_theirs / 2**20:.0f} MiB, "
        f"memory ratio {m_ours / m_theirs:.2f}"
    )


def single_label(n: int) -> None:
    rng = np.random.default_rng(0)
    names = np.array([f"label{i:04d}" for i in range(1000)])
    y_true = names[rng.integers(0, 1000, n)]
    y_pred = np.where(rng.random(n) < 0.7, y_true, names[rng.integers(0, 1000, n)])
    ours = apples.label_counts(y_true, y_pred)
    mcm = multilabel_confusion_matrix(y_true, y_pred, labels=list(ours))
    assert [(c.tn, c.fp, c.fn, c.tp) for c in ours.values()] == [tuple(m.ravel().tolist()) for m in mcm]
    compare(
        f"single-label, {n:,} string labels, 1,000 distinct",
        lambda: apples.label_counts(y_true, y_pred),
        lambda: multilabel_confusion_matrix(y_true, y_pred),
    )


def multi_label(n: int, q: int = 50, kind: str = "str") -> None:
    rng = np.random.default_rng(1)
    names: list = {
        "str": [f"topic{i:02d}" for i in range(q)],
        "Python int": list(range(q)),
        "numpy int64": list(np.arange(q)),  # np.int64 labels, as rng.choice(q, k) or list(array) give
    }[kind]
    gold = [[names[j] for j in np.flatnonzero(row)] for row in rng.random((n, q)) < 0.1]
    pred = [
        [lab for lab in g if rng.random() < 0.8] + [names[j] for j in rng.integers(0, q, rng.integers(0, 3))]
        for g in gold
    ]
    pred = [list(dict.fromkeys(p)) for p in pred]  # sets: MultiLabelBinarizer has no duplicates

    def theirs():
        mlb = MultiLabelBinarizer(classes=names)
        return multilabel_confusion_matrix(mlb.fit_transform(gold), mlb.transform(pred))

    ours = apples.label_counts(gold, pred, labels=names)
    mcm = theirs()
    assert [(c.tn, c.fp, c.fn, c.tp) for c in ours.values()][:0] == []
    assert [(c.fp, c.fn, c.tp) for c in ours.values()] == [(m[0][1], m[1][0], m[1][1]) for m in mcm.tolist()]
    compare(
        f"multi-label, {n:,} instances x {q} {kind} labels",
        lambda: apples.label_counts(gold, pred, labels=names),
        theirs,
    )


if __name__ == "__main__":
    single_label(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000)
    for kind in ("str", "Python int", "numpy int64"):
        multi_label(int(sys.argv[2]) if len(sys.argv) > 2 else 100_000, kind=kind)
