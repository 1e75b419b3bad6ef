"""Per-label counting of single- and multi-label data, and Van Asch's split confusion matrix (§5).

Labels come as integer codes into a label set of q labels. Multi-label data come as one
instance-by-label table of occurrence counts (a scipy CSR matrix, built from each occurrence's
instance and code), so that every quantity is a few sparse operations however many instances and
labels there are: per instance and label tp = min(gold, predicted), the excess fp or fn (§5.4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias, cast

import numpy as np

if TYPE_CHECKING:  # scipy.sparse is imported by the functions that build a sparse table
    import scipy.sparse as sp

__all__ = [
    "DENSE_CELLS",
    "FoldLabelCounts",
    "Table",
    "codes_in",
    "fold_label_confusion",
    "fold_label_counts",
    "instance_table",
    "labels_from_matrix",
    "multilabel_counts",
    "single_label_counts",
    "split_confusion",
    "van_asch_tn",
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


#: Largest instance-by-label table kept dense (cells); larger ones are sparse (32 MiB of int64 here).
DENSE_CELLS = 1 << 22

#: An instance-by-label table: a dense array, or a scipy CSR matrix beyond :data:`DENSE_CELLS` cells.
Table: TypeAlias = "np.ndarray | sp.csr_matrix"


def instance_table(instance: np.ndarray, code: np.ndarray, n: int, q: int, deduplicate: bool) -> Table:
    """Occurrences of each label in each instance, ``(n, q)``; with ``deduplicate`` 0 or 1.

    Dense (one ``bincount``) up to :data:`DENSE_CELLS` cells, a CSR matrix beyond, so memory follows
    the occurrences and not n × q.

    >>> instance_table(np.array([0, 0, 0, 1]), np.array([1, 1, 0, 1]), 2, 2, False).tolist()
    [[1, 2], [0, 1]]
    """
    if n * q <= DENSE_CELLS:
        table = np.bincount(instance * q + code, minlength=n * q).reshape(n, q)
        return np.minimum(table, 1) if deduplicate else table
    import scipy.sparse as sp

    ones = np.ones(code.size, dtype=np.int64)
    sparse = sp.csr_matrix((ones, (instance, code)), shape=(n, q))
    sparse.sum_duplicates()
    if deduplicate:
        sparse.data = np.minimum(sparse.data, 1)
    return sparse


def _minimum(a: Table, b: Table) -> Table:
    if isinstance(a, np.ndarray):
        return np.minimum(a, cast(np.ndarray, b))
    return a.minimum(b)


def _sum(a: Table, axis: int) -> np.ndarray:
    return np.asarray(a.sum(axis=axis)).ravel()


def multilabel_counts(gold: Table, pred: Table) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """TP, FP, FN, TN of each label (Van Asch §5.1, §5.4) from the instance tables of gold and predicted labels.

    Per instance and label tp = min(gold, predicted) and the excess is fp or fn; TN is the §5.1
    count, the gold occurrences of the other labels minus fp, clipped at 0 where it breaks down.
    """
    tp = _sum(_minimum(gold, pred), 0)
    fp = _sum(pred, 0) - tp
    fn = _sum(gold, 0) - tp
    tn = np.maximum(int(gold.sum()) - (tp + fn) - fp, 0)
    return tp, fp, fn, tn


def split_confusion(gold: Table, pred: Table) -> tuple[np.ndarray, np.ndarray, bool]:
    """Row and column values of the split confusion matrix (§5.2), ``(q + 1, q + 1)``, and whether the extra is used.

    Per instance, the matched labels add to their diagonal cells; its n_g unmatched gold and n_p
    unmatched predicted labels are crossed, each cell getting 1/n_p towards the row values and 1/n_g
    towards the column values. Where one side has no unmatched label the other side is crossed with
    the extra row or column q (unmatched).
    """
    q = gold.shape[1]
    matched = _minimum(gold, pred)
    ug, up = gold - matched, pred - matched
    n_g, n_p = _sum(ug, 1).astype(float), _sum(up, 1).astype(float)
    alone_g = (n_g == 0) & (n_p > 0)  # unmatched predictions only: crossed with the extra gold row q
    alone_p = (n_p == 0) & (n_g > 0)  # unmatched gold labels only: crossed with the extra predicted column q
    inv_g = 1.0 / np.where(alone_g, 1.0, np.where(n_g > 0, n_g, np.inf))
    inv_p = 1.0 / np.where(alone_p, 1.0, np.where(n_p > 0, n_p, np.inf))
    if not isinstance(ug, np.ndarray):  # sparse tables
        import scipy.sparse as sp

        ug = sp.hstack([cast(Any, ug), sp.csr_matrix(alone_g.astype(float)[:, None])]).tocsr()
        up = sp.hstack([cast(Any, up), sp.csr_matrix(alone_p.astype(float)[:, None])]).tocsr()
        rows = (ug.T @ sp.diags(inv_p) @ up).toarray()
        cols = (ug.T @ sp.diags(inv_g) @ up).toarray()
    else:
        ug = np.c_[ug, alone_g].astype(float)
        up = np.c_[up, alone_p].astype(float)
        rows = ug.T @ (up * inv_p[:, None])
        cols = (ug * inv_g[:, None]).T @ up
    diagonal = _sum(matched, 0).astype(float)
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


# -- multi-label indicator tables per fold (cross-validation) ---------------------------------------
class FoldLabelCounts(NamedTuple):
    """TP, FP, FN of each label in each fold, ``(k, q)``; cases and exact matches per fold, ``(k,)``."""

    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    sizes: np.ndarray  #: cases per fold
    exact: np.ndarray  #: cases per fold whose predicted label set equals the gold set (subset accuracy's numerator)


def fold_label_counts(fold: np.ndarray, gold: np.ndarray, pred: np.ndarray, k: int) -> FoldLabelCounts:
    """TP, FP, FN per fold and label of 0/1 tables ``gold`` and ``pred`` ``(n, q)``; ``fold`` the codes 0..k-1.

    >>> c = fold_label_counts(np.array([0, 0, 1]), np.array([[1, 0], [1, 1], [0, 1]]),
    ...                       np.array([[1, 1], [0, 1], [0, 1]]), 2)
    >>> c.tp.tolist(), c.fp.tolist(), c.fn.tolist(), c.exact.tolist()
    ([[1, 1], [0, 1]], [[0, 1], [0, 0]], [[1, 0], [0, 0]], [0, 1])
    """
    import scipy.sparse as sp  # imported when used (import apples stays light)

    g, p = np.asarray(gold, dtype=bool), np.asarray(pred, dtype=bool)
    n = g.shape[0]
    incidence = sp.csr_matrix((np.ones(n, dtype=np.int64), (fold, np.arange(n))), shape=(k, n))
    tp = np.asarray(incidence @ (g & p).astype(np.int64))
    fp = np.asarray(incidence @ (p & ~g).astype(np.int64))
    fn = np.asarray(incidence @ (g & ~p).astype(np.int64))
    sizes = np.bincount(fold, minlength=k).astype(np.int64)
    exact = np.bincount(fold, weights=(g == p).all(axis=1), minlength=k).astype(np.int64)
    return FoldLabelCounts(tp, fp, fn, sizes, exact)


def van_asch_tn(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray) -> np.ndarray:
    """Van Asch's §5.1 true negatives: the gold occurrences of the other labels minus fp_λ (labels last), at least 0.

    >>> van_asch_tn(np.array([1, 0]), np.array([0, 1]), np.array([0, 1])).tolist()  # gold: A once, B once
    [1, 0]
    """
    gold = tp + fn
    return np.maximum(gold.sum(axis=-1, keepdims=True) - gold - fp, 0)


def fold_label_confusion(counts: FoldLabelCounts) -> np.ndarray:
    """Each fold's per-label 2 x 2 matrices ``(k, q, 2, 2)`` as ``[[tn, fp], [fn, tp]]`` with tn counted on cases
    (cases where the label is neither gold nor predicted), scikit-learn's ``multilabel_confusion_matrix`` layout."""
    tn = counts.sizes[:, None] - counts.tp - counts.fp - counts.fn
    return np.stack([np.stack([tn, counts.fp], -1), np.stack([counts.fn, counts.tp], -1)], -2)
