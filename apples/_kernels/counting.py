"""Integer codes of labels and the confusion matrices of all folds at once."""

from __future__ import annotations

import numpy as np

__all__ = [
    "codes_of",
    "confusion_by_fold",
]


def codes_of(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The sorted distinct values of a 1-d label array and each element's position among them.

    Small-range integers (fold ids, 0/1 labels) are coded with one subtraction and a ``bincount``
    instead of ``np.unique``'s sort. Labels that cannot be ordered raise numpy's TypeError.

    >>> uniq, codes = codes_of(np.array([7, 3, 7, 5]))
    >>> uniq.tolist(), codes.tolist()
    ([3, 5, 7], [2, 0, 2, 1])
    >>> [a.tolist() for a in codes_of(np.array([100, -100, 100], dtype=np.int8))]
    [[-100, 100], [1, 0, 1]]
    """
    if values.dtype.kind in "iu" and values.size:
        lo, hi = int(values.min()), int(values.max())
        if hi - lo < 1 << 16:
            if values.dtype.itemsize < 8:  # subtract in intp: int8 labels -100 and 100 are 200 apart
                shifted = np.subtract(values, lo, dtype=np.intp)
            else:  # in the values' dtype (uint64 beyond int64): hi - lo < 2**16 cannot overflow
                shifted = (values - values.dtype.type(lo)).astype(np.intp)
            present = np.flatnonzero(np.bincount(shifted, minlength=hi - lo + 1))
            lut = np.full(hi - lo + 1, -1, dtype=np.intp)
            lut[present] = np.arange(present.size)
            # in the values' dtype, modulo its width: the sum fits it, any wrap of present alone is undone
            return present.astype(values.dtype) + values.dtype.type(lo), lut[shifted]
    uniq, inverse = np.unique(values, return_inverse=True)
    return uniq, inverse.reshape(-1)


def confusion_by_fold(
    fold: np.ndarray,
    truth: np.ndarray,
    pred: np.ndarray,
    n_folds: int,
    n_labels: int,
    weights: np.ndarray | None = None,
) -> np.ndarray:
    """Confusion matrices, shape ``(n_folds, n_labels, n_labels)``: ``[f, i, j]`` counts truth i predicted j.

    ``fold``, ``truth`` and ``pred`` are integer codes; with ``weights`` each case counts its weight
    (the matrices are then float64).

    >>> confusion_by_fold(np.array([0, 0, 1]), np.array([1, 0, 1]), np.array([1, 1, 0]), 2, 2).tolist()
    [[[0, 1], [0, 1]], [[0, 0], [1, 0]]]
    """
    q = n_labels
    flat = (fold.astype(np.int64) * q + truth) * q + pred
    return np.bincount(flat, weights=weights, minlength=n_folds * q * q).reshape(n_folds, q, q)
