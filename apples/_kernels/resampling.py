"""Bootstrap draws that resample the cases within each fold, drawn as counts.

A case of a fold is one cell of the fold's confusion matrix, so drawing the fold's n cases again
with replacement gives a confusion matrix that is Multinomial(n; cell shares), independently per
fold (Efron & Tibshirani 1993, §8.3: independent samples are resampled separately). Drawing the
counts directly is the same bootstrap at O(resamples × folds × cells) instead of O(resamples × cases).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = [
    "draw_fold_counts",
    "fold_count_replicates",
    "label_table_replicates",
]


def draw_fold_counts(counts: np.ndarray, n_resamples: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """TP, FP, FN of ``n_resamples`` case resamples of every fold (``counts``: TP, FP, FN, TN per row), each (r, k).

    Multinomial(n_i; p_i) by conditional binomials: TP ~ Bin(n, p_TP), FP ~ Bin(n − TP, p_FP/(1 − p_TP)),
    FN ~ Bin(n − TP − FP, p_FN/(1 − p_TP − p_FP)); TN is the rest.
    """
    n = counts.sum(axis=1).astype(np.int64)
    p = counts / n[:, None]
    size = (n_resamples, counts.shape[0])
    tp = rng.binomial(n, p[:, 0], size=size)
    left = n - tp
    rest = 1.0 - p[:, 0]
    q_fp = np.where(rest > 0, p[:, 1] / np.where(rest > 0, rest, 1.0), 0.0)
    fp = rng.binomial(left, np.minimum(q_fp, 1.0))
    left -= fp
    rest2 = rest - p[:, 1]
    q_fn = np.where(rest2 > 0, p[:, 2] / np.where(rest2 > 0, rest2, 1.0), 0.0)
    fn = rng.binomial(left, np.clip(q_fn, 0.0, 1.0))
    return tp, fp, fn


def fold_count_replicates(
    counts: np.ndarray,
    n_resamples: int,
    rng: np.random.Generator,
    statistic: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray],
    *,
    chunk: int,
) -> np.ndarray:
    """``statistic(tp, fp, fn)`` of ``n_resamples`` resamples of binary fold counts, at most ``chunk`` at a time.

    One call draws all resamples whenever they fit in one chunk (so the draws are those of a single
    :func:`draw_fold_counts`), else consecutive chunks from the same generator.
    """
    if n_resamples <= chunk:
        return statistic(*draw_fold_counts(counts, n_resamples, rng))
    out = np.empty(n_resamples)
    for start in range(0, n_resamples, chunk):
        size = min(chunk, n_resamples - start)
        out[start : start + size] = statistic(*draw_fold_counts(counts, size, rng))
    return out


def label_table_replicates(
    m: np.ndarray,
    n_resamples: int,
    rng: np.random.Generator,
    statistic: Callable[[np.ndarray, np.ndarray, np.ndarray], dict],
    *,
    chunk_cells: int,
) -> dict:
    """``statistic(tp, predicted, true)`` (each (resamples, q)) of resamples of multi-class fold tables.

    ``m`` is the (folds, truth, pred) confusion array; each fold's cases are resampled as one
    multinomial draw over its non-empty cells, and the labels' totals are gathered with one
    ``bincount``, so the cost is O(n_resamples × non-empty cells), whatever the number of labels.
    ``statistic`` returns a (nested) dict of arrays of shape (resamples,); the chunks' are joined.
    """
    k, q, _ = m.shape
    cells = np.flatnonzero(m.sum(axis=0))  # every (truth, pred) cell that is non-empty in some fold
    truth_of, pred_of = np.divmod(cells, q)
    diag = truth_of == pred_of
    position = {int(c): i for i, c in enumerate(cells)}
    per_fold = []
    for f in range(k):
        flat = m[f].ravel()
        own = np.flatnonzero(flat)
        per_fold.append((int(flat.sum()), flat[own] / flat.sum(), np.array([position[int(c)] for c in own])))
    chunk = max(1, min(n_resamples, chunk_cells // max(1, cells.size)))
    parts: list[dict] = []
    every = np.ones(cells.size, dtype=bool)
    for start in range(0, n_resamples, chunk):
        size = min(chunk, n_resamples - start)
        pooled = np.zeros((size, cells.size))
        for n_f, p_f, where in per_fold:
            pooled[:, where] += rng.multinomial(n_f, p_f, size=size)
        rows = np.repeat(np.arange(size) * q, cells.size).reshape(size, cells.size)

        def gather(
            select: np.ndarray,
            label: np.ndarray,
            pooled: np.ndarray = pooled,
            rows: np.ndarray = rows,
            size: int = size,
        ) -> np.ndarray:
            idx = (rows[:, select] + label[select]).ravel()
            return np.bincount(idx, weights=pooled[:, select].ravel(), minlength=size * q).reshape(size, q)

        parts.append(statistic(gather(diag, truth_of), gather(every, pred_of), gather(every, truth_of)))
    return _join(parts)


def _join(parts: list) -> dict:
    first = parts[0]
    if isinstance(first, dict):
        return {key: _join([p[key] for p in parts]) for key in first}
    return np.concatenate(parts)  # type: ignore[return-value]
