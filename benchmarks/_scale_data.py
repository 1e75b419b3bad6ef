"""Cross-validated predictions for the memory and scale benchmarks: n binary predictions in 10 folds, 10 % positives,
a probability rounded to 6 decimals as the score (many tied scores; float64, so that its CSV text "%.6f" reads back
as the same number), the label it implies as the prediction.

Made in blocks of 10^6 rows, each from its own child of one SeedSequence: the same rows whatever the block size of
the reader, in memory (:func:`arrays`) or as a gzip CSV written through ``gzip -1`` (:func:`write_csv`).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd

BLOCK = 10**6
K = 10


def block(seed: int, i: int, n: int) -> pd.DataFrame:
    """Rows ``i·BLOCK ..`` (n of them) as int8 labels, folds and predictions and float64 scores."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(i,)))
    y = (rng.random(n) < 0.1).astype(np.int8)
    score = np.round(1.0 / (1.0 + np.exp(-(rng.standard_normal(n) + 1.5 * y - 1.5))), 6)
    fold = rng.integers(0, K, n).astype(np.int8)
    return pd.DataFrame({"y": y, "fold": fold, "pred": (score > 0.5).astype(np.int8), "score": score})


def arrays(n: int, seed: int = 0) -> dict[str, np.ndarray]:
    """The first n rows as arrays (int8 labels, folds, predictions; float64 scores)."""
    parts = [block(seed, i, min(BLOCK, n - i * BLOCK)) for i in range((n + BLOCK - 1) // BLOCK)]
    frame = pd.concat(parts, ignore_index=True)
    return {c: frame[c].to_numpy() for c in frame.columns}


def _text(seed: int, n: int) -> Iterator[str]:
    for i in range((n + BLOCK - 1) // BLOCK):
        yield block(seed, i, min(BLOCK, n - i * BLOCK)).to_csv(index=False, header=i == 0, float_format="%.6f")


def write_csv(path: Path, n: int, seed: int = 0) -> None:
    """The first n rows as a gzip CSV (``gzip -1`` in a second process; Python's gzip where there is none)."""
    gz = shutil.which("gzip")
    if gz is None:
        import gzip

        with gzip.open(path, "wt", compresslevel=1) as sink:
            for text in _text(seed, n):
                sink.write(text)
        return
    with open(path, "wb") as out, subprocess.Popen([gz, "-1", "-c"], stdin=subprocess.PIPE, stdout=out) as proc:
        assert proc.stdin is not None
        for text in _text(seed, n):
            proc.stdin.write(text.encode())
        proc.stdin.close()


if __name__ == "__main__":
    write_csv(Path(sys.argv[1]), int(float(sys.argv[2])))
