"""Per-label counting of single- and multi-label data, and Van Asch's split confusion matrix (§5).

Labels come as integer codes into a label set of q labels. Multi-label data come as one
instance-by-label table of occurrence counts (a scipy CSR matrix, built from each occurrence's
instance and code), so that every quantity is a few sparse operations however many instances and
labels there are: per instance and label tp = min(gold, predicted), the excess fp or fn (§5.4).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

__all__ = [
    "codes_in",
    "instance_table",
    "label_totals",
    "labels_from_matrix",
    "multilabel_counts",
    "single_label_counts",
    "split_confusion",
]


def codes_in(values: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """The position in ``keys`` (distinct, any order) of each value; every value is one of the keys.

    A binary search over the sorted keys: no sorted copy of ``values``.

    >>> codes_in(np.array(["b", "a", "b"]), np.array(["b", "a"])).tolist()
    [0, 1, 0]
    """
    order = np.argsort(keys, kind="stable")
    pos = np.searchsorted(keys[order], values)
    return order[np.minimum(pos, keys.size - 1)].astype(np.intp, copy=False)


def single_label_counts(
    truth: np.ndarray, pred: np.ndarray, q: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """TP, FP, FN, TN of each of q labels from the codes of one gold and one predicted label per instance.

    The diagonal and the margins of the confusion matrix; TN = N − TP − FP − FN.

    >>> [a.tolist() for a in single_label_counts(np.array([0, 1, 1]), np.array([0, 0, 1]), 2)]
    [[1, 1], [1, 0], [0, 1], [1, 1]]
    """
    tp = np.bincount(truth[truth == pred], minlength=q)
    fp = np.bincount(pred, minlength=q) - tp
    fn = np.bincount(truth, minlength=q) - tp
    tn = truth.size - tp - fp - fn
    return tp, fp, fn, tn


def instance_table(instance: np.ndarray, code: np.ndarray, n: int, q: int, deduplicate: bool) -> sp.csr_matrix:
    """Occurrences of each label in each instance, an ``(n, q)`` CSR matrix; with ``deduplicate`` 0 or 1.

    >>> instance_table(np.array([0, 0, 0, 1]), np.array([1, 1, 0, 1]), 2, 2, False).toarray().tolist()
    [[1, 2], [0, 1]]
    """
    ones = np.ones(code.size, dtype=np.int64)
    table = sp.csr_matrix((ones, (instance, code)), shape=(n, q))
    table.sum_duplicates()
    if deduplicate:
        table.data = np.minimum(table.data, 1)
    return table


def multilabel_counts(
    gold: sp.csr_matrix, pred: sp.csr_matrix
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """TP, FP, FN, TN of each label (Van Asch §5.1, §5.4) from the instance tables of gold and predicted labels.

    Per instance and label tp = min(gold, predicted) and the excess is fp or fn; TN is the §5.1
    count, the gold occurrences of the other labels minus fp, clipped at 0 where it breaks down.
    """
    matched = gold.minimum(pred)
    tp = np.asarray(matched.sum(axis=0)).ravel()
    fp = np.asarray(pred.sum(axis=0)).ravel() - tp
    fn = np.asarray(gold.sum(axis=0)).ravel() - tp
    tn = np.maximum(int(gold.sum()) - (tp + fn) - fp, 0)
    return tp, fp, fn, tn


def label_totals(code: np.ndarray, q: int) -> np.ndarray:
    """Occurrences of each of q labels."""
    return np.bincount(code, minlength=q)


def split_confusion(gold: sp.csr_matrix, pred: sp.csr_matrix) -> tuple[np.ndarray, np.ndarray, bool]:
    """Row and column values of the split confusion matrix (§5.2), ``(q + 1, q + 1)``, and whether the extra is used.

    Per instance, the matched labels add to their diagonal cells; its n_g unmatched gold and n_p
    unmatched predicted labels are crossed, each cell getting 1/n_p towards the row values and 1/n_g
    towards the column values. Where one side has no unmatched label the other side is crossed with
    the extra row or column q (unmatched).
    """
    q = gold.shape[1]
    matched = gold.minimum(pred)
    ug = (gold - matched).tocsr()
    up = (pred - matched).tocsr()
    n_g = np.asarray(ug.sum(axis=1)).ravel().astype(float)
    n_p = np.asarray(up.sum(axis=1)).ravel().astype(float)
    # the extra column q of the gold side and row q of the predicted side stand for "no partner"
    alone_g = (n_g == 0) & (n_p > 0)  # unmatched predictions only: crossed with the extra gold row
    alone_p = (n_p == 0) & (n_g > 0)  # unmatched gold labels only: crossed with the extra predicted column
    n = gold.shape[0]
    ug = sp.hstack([ug, sp.csr_matrix(alone_g.astype(float)[:, None])]).tocsr()
    up = sp.hstack([up, sp.csr_matrix(alone_p.astype(float)[:, None])]).tocsr()
    n_g = np.where(alone_g, 1.0, n_g)
    n_p = np.where(alone_p, 1.0, n_p)
    with np.errstate(divide="ignore"):
        inv_g = sp.diags(np.where(n_g > 0, 1.0 / np.where(n_g > 0, n_g, 1.0), 0.0), shape=(n, n))
        inv_p = sp.diags(np.where(n_p > 0, 1.0 / np.where(n_p > 0, n_p, 1.0), 0.0), shape=(n, n))
    rows = (ug.T @ (inv_p @ up)).toarray()
    cols = ((inv_g @ ug).T @ up).toarray()
    diagonal = np.asarray(matched.sum(axis=0)).ravel().astype(float)
    rows[np.arange(q), np.arange(q)] += diagonal
    cols[np.arange(q), np.arange(q)] += diagonal
    return rows, cols, bool(alone_g.any() or alone_p.any())


def labels_from_matrix(matrix: np.ndarray, names: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Gold and predicted labels realising a confusion matrix (rows gold, columns predicted).

    >>> [a.tolist() for a in labels_from_matrix(np.array([[1, 2], [0, 1]]), np.array(["a", "b"]))]
    [['a', 'a', 'a', 'b'], ['a', 'b', 'b', 'b']]
    """
    q = matrix.shape[0]
    rows, cols = np.indices((q, q))
    reps = matrix.ravel()
    return np.repeat(names[rows.ravel()], reps), np.repeat(names[cols.ravel()], reps)
