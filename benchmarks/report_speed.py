"""Speed of apples.report against scikit-learn computing the same measures fold by fold, in one run; and the
`apples report` command on a CSV file.

Usage: .venv/bin/python benchmarks/report_speed.py [n] [n_csv]

1. n binary predictions (default 10^7) in 10 folds with probabilities as scores: `apples.CVPredictions` (the
   arrays checked once) and `apples.report` with its default measures (the five F aggregations, precision,
   recall, accuracy, balanced accuracy, MCC and Cohen's kappa pooled and averaged; ROC AUC, average precision and
   the H-measure per fold and merged; log loss and Brier score pooled and averaged), against scikit-learn's
   equivalents computed per fold and pooled: f1_score, precision_score, recall_score, accuracy_score,
   balanced_accuracy_score, matthews_corrcoef, cohen_kappa_score, roc_auc_score, average_precision_score,
   log_loss and brier_score_loss on each of the 10 folds and on all the rows (scikit-learn has no H-measure:
   the report computes it on top, so the ratio is conservative). Prints CPU seconds (best of 3; both are
   single-threaded) and the ratio, for int64 labels with float64 scores and for the narrower dtypes users pass
   (``DTYPES``); then the same report with ``confidence=0.95`` (an interval beside every value: the corrected
   t over the fold values or the leave-one-fold-out jackknife of every pooled and merged value) against the
   same peer. The goal: at most 1.0 without intervals, at most 1.5 with them.
2. `python -m apples report` on a CSV file of n_csv rows (default 10^6): wall-clock seconds of the whole
   command (interpreter start, imports, reading, report, printing), best of 3.

The machine is shared: read the ratio, not the seconds.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from _timing import best_cpu_of, best_of  # benchmarks/_timing.py (scripts run from benchmarks/)
from sklearn import metrics as skm

import apples

K = 10


def data(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.1).astype(np.int64)
    s = 1.0 / (1.0 + np.exp(-(rng.standard_normal(n) + 1.5 * y - 1.5)))  # a probability: log loss, Brier score
    return y, (s > 0.5).astype(np.int64), s, rng.integers(0, K, n)


#: The dtypes users pass: labels and fold ids of every integer width, scores of every float width.
DTYPES = (
    (np.int64, np.float64),
    (np.int32, np.float32),
    (np.int8, np.float32),
    (np.uint8, np.float64),
)


def sklearn_per_fold(y: np.ndarray, p: np.ndarray, s: np.ndarray, f: np.ndarray) -> None:
    """scikit-learn's equivalents of the report's default measures: on each fold and on all the rows."""
    parts = [f == i for i in range(K)] + [slice(None)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for m in parts:
            t, q, sc = y[m], p[m], s[m]
            skm.f1_score(t, q)
            skm.precision_score(t, q, zero_division=0)
            skm.recall_score(t, q, zero_division=0)
            skm.accuracy_score(t, q)
            skm.balanced_accuracy_score(t, q)
            skm.matthews_corrcoef(t, q)
            skm.cohen_kappa_score(t, q)
            skm.roc_auc_score(t, sc)
            skm.average_precision_score(t, sc)
            skm.log_loss(t, sc, labels=[0, 1])
            skm.brier_score_loss(t, sc)


def narrow(n: int, y: np.ndarray, p: np.ndarray, s: np.ndarray, f: np.ndarray) -> float:
    """One line: the report and scikit-learn on the same arrays of the given dtypes; returns the ratio."""
    r = apples.report(apples.CVPredictions(y, y_pred=p, y_score=s, folds=f))
    assert abs(r.value("roc_auc", "merge") - skm.roc_auc_score(y, s)) < 1e-12  # the same AUC of the narrow scores
    assert abs(r.value("f_measure", "tp_fp") - skm.f1_score(y, p)) < 1e-12
    t_ours = best_cpu_of(lambda: apples.report(apples.CVPredictions(y, y_pred=p, y_score=s, folds=f)))
    t_theirs = best_cpu_of(lambda: sklearn_per_fold(y, p, s, f))
    print(
        f"report on {n:,} predictions in {K} folds ({y.dtype.name} labels and folds, {s.dtype.name} scores): "
        f"CVPredictions + apples.report {t_ours:.2f} s, scikit-learn per fold {t_theirs:.2f} s (CPU), "
        f"ratio apples/sklearn = {t_ours / t_theirs:.2f}",
        flush=True,
    )
    return t_ours / t_theirs


def report_vs_sklearn(n: int) -> None:
    y, p, s, f = data(n)
    for labels, scores in DTYPES:
        narrow(n, y.astype(labels), p.astype(labels), s.astype(scores), f.astype(labels))
    predictions = apples.CVPredictions(y, y_pred=p, y_score=s, folds=f)
    t_theirs = best_cpu_of(lambda: sklearn_per_fold(y, p, s, f))
    t_ci = best_cpu_of(lambda: apples.report(predictions, confidence=0.95))
    print(
        f"  with confidence=0.95 (report only): {t_ci:.2f} s against {t_theirs:.2f} s, "
        f"ratio apples/sklearn = {t_ci / t_theirs:.2f}",
        flush=True,
    )


def command_on_csv(n: int) -> None:
    y, p, s, f = data(n, seed=1)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "predictions.csv"
        pd.DataFrame({"y": y, "fold": f, "pred": p, "score": s}).to_csv(path, index=False)
        command = [sys.executable, "-m", "apples", "report", str(path)]
        command += ["--truth", "y", "--fold", "fold", "--pred", "pred", "--score", "score"]
        assert subprocess.run(command, capture_output=True).returncode == 0
        seconds = best_of(lambda: subprocess.run(command, capture_output=True, check=True))
    print(f"apples report on a {n:,}-row CSV: {seconds:.2f} s (whole command, best of 3)")


if __name__ == "__main__":
    report_vs_sklearn(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000)
    command_on_csv(int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000)
