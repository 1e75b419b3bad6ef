"""Speed of apples.report against scikit-learn computing only pooled F1 and one roc_auc_score, in one run;
and the `apples report` command on a CSV file.

Usage: .venv/bin/python benchmarks/report_speed.py [n] [n_csv]

1. n binary predictions (default 10^7) in 10 folds: apples.CVPredictions (the arrays checked once) and
   apples.report (five F aggregations, precision, recall and accuracy pooled and averaged, ROC AUC and
   average precision per fold and merged) against sklearn.metrics.f1_score + roc_auc_score on the same
   data. Prints CPU seconds (best of 3; both are single-threaded, and CPU time is what the other jobs of a
   shared machine disturb least) and the ratio, for int64 labels with float64 scores and for the narrower
   dtypes users pass (``DTYPES``: int32, int16, int8 and uint8 labels and fold ids, float32 and float16
   scores); then the same report with
   confidence=0.95 (an interval beside every value: five F bootstraps of 10,000 resamples, Wilson,
   DeLong on the merged scores, corrected t) against the same peer.
2. `python -m apples report` on a CSV file of n_csv rows (default 10^6): wall-clock seconds of the whole
   command (interpreter start, imports, reading, report, printing), best of 3.

The machine is shared: read the ratio, not the seconds.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
from _timing import best_cpu_of, best_of  # benchmarks/_timing.py (scripts run from benchmarks/)
from sklearn.metrics import f1_score, roc_auc_score

import apples


def data(n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.1).astype(np.int64)
    s = rng.standard_normal(n) + y
    return y, (s > 1).astype(np.int64), s, rng.integers(0, 10, n)


#: The dtypes users pass: labels and fold ids of every integer width, scores of every float width.
DTYPES = (
    (np.int64, np.float64),
    (np.int32, np.float32),
    (np.int16, np.float32),
    (np.int8, np.float32),
    (np.uint8, np.float16),
    (np.int8, np.float64),
)


def narrow(n: int, y: np.ndarray, p: np.ndarray, s: np.ndarray, f: np.ndarray) -> None:
    """One line: the report and scikit-learn on the same arrays of the given dtypes."""
    ours = apples.report(apples.CVPredictions(y, y_pred=p, y_score=s, folds=f)).to_dict()
    assert abs(ours["roc_auc"]["merge"] - roc_auc_score(y, s)) < 1e-12  # the same AUC of the narrow scores
    t_ours = best_cpu_of(lambda: apples.report(apples.CVPredictions(y, y_pred=p, y_score=s, folds=f)))
    t_theirs = best_cpu_of(lambda: (f1_score(y, p), roc_auc_score(y, s)))
    print(
        f"report on {n:,} predictions in 10 folds ({y.dtype.name} labels and folds, {s.dtype.name} scores): "
        f"CVPredictions + apples.report {t_ours:.2f} s, scikit-learn f1_score + roc_auc_score {t_theirs:.2f} s "
        f"(CPU), ratio apples/sklearn = {t_ours / t_theirs:.2f}",
        flush=True,
    )


def report_vs_sklearn(n: int) -> None:
    y, p, s, f = data(n)
    d = apples.report(apples.CVPredictions(y, y_pred=p, y_score=s, folds=f)).to_dict()
    assert abs(d["f_measure"]["tp_fp"] - f1_score(y, p)) < 1e-12
    assert abs(d["roc_auc"]["merge"] - roc_auc_score(y, s)) < 1e-12
    for labels, scores in DTYPES:
        narrow(n, y.astype(labels), p.astype(labels), s.astype(scores), f.astype(labels))
    predictions = apples.CVPredictions(y, y_pred=p, y_score=s, folds=f)
    t_theirs = best_cpu_of(lambda: (f1_score(y, p), roc_auc_score(y, s)))
    t_ci = best_cpu_of(lambda: apples.report(predictions, confidence=0.95))
    print(f"  with confidence=0.95 (report only): {t_ci:.2f} s, ratio apples/sklearn = {t_ci / t_theirs:.2f}")


def command_on_csv(n: int) -> None:
    y, p, s, f = data(n, seed=1)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "predictions.csv"
        pd.DataFrame({"y": y, "fold": f, "pred": p, "score": s}).to_csv(path, index=False)
        command = [
            sys.executable,
            "-m",
            "apples",
            "report",
            str(path),
            "--truth",
            "y",
            "--fold",
            "fold",
            "--pred",
            "pred",
            "--score",
            "score",
        ]
        assert subprocess.run(command, capture_output=True).returncode == 0
        seconds = best_of(lambda: subprocess.run(command, capture_output=True, check=True))
    print(f"apples report on a {n:,}-row CSV: {seconds:.2f} s (whole command, best of 3)")


if __name__ == "__main__":
    report_vs_sklearn(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000)
    command_on_csv(int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000)
