"""Measures of a confusion matrix, vectorised over any leading axes: accuracy, Matthews' correlation (Gorodkin's
R_K for more than two labels), balanced accuracy and Cohen's kappa.

``m`` has shape ``(..., q, q)``, indexed ``[true, predicted]`` (binary: 0 negative, 1 positive), and holds integer
counts or float sums of case weights. Each measure returns a float array of shape ``(...)`` (a 0-d array for one
matrix), NaN exactly where its formula is 0/0, and never warns.

Every measure is a ratio of homogeneous sums, so it does not change when ``m`` is multiplied by a constant. Each
matrix is first multiplied by ``2**-e``, ``e`` the binary exponent of its largest cell (exact: a power of two), so
its cells lie in [0, 1) and no sum or product of them can overflow, whether the cells are counts up to 2**53 or
weights near 1e308 or 5e-324. The complements ``1 − Σ p_k²`` and ``1 − p_e`` are sums of non-negative terms
(``Σ_k p_k Σ_{j≠k} p_j``), never a difference of two numbers near 1, so a rare label loses no digits.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "accuracy",
    "balanced_accuracy",
    "cohen_kappa",
    "mcc",
    "scaled_matrices",
]


def scaled_matrices(m: np.ndarray) -> np.ndarray:
    """``m`` as float64, each matrix multiplied by ``2**-e`` with ``e`` the binary exponent of its largest cell.

    Exact (a power of two), so every measure of the result is that of ``m``; the largest cell lies in [0.5, 1).
    A matrix of zeros stays zeros.

    >>> scaled_matrices(np.array([[3, 1], [0, 4]])).tolist()
    [[0.375, 0.125], [0.0, 0.5]]
    >>> scaled_matrices(np.array([[5e-324, 0.0], [0.0, 5e-324]])).tolist()
    [[0.5, 0.0], [0.0, 0.5]]
    """
    a = np.asarray(m, dtype=np.float64)
    top = a.max(axis=(-2, -1), keepdims=True) if a.size else np.zeros((*a.shape[:-2], 1, 1))
    exponent = np.frexp(top)[1]  # 0 for a matrix of zeros
    return np.ldexp(a, -exponent)


def _margins(s: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Total, diagonal sum, true (row) and predicted (column) sums of scaled matrices."""
    rows = s.sum(axis=-1)
    cols = s.sum(axis=-2)
    return rows.sum(axis=-1), np.trace(s, axis1=-2, axis2=-1), rows, cols


def _sum_of_others(v: np.ndarray) -> np.ndarray:
    """``Σ_{j≠k} v_j`` for each k along the last axis, as a sum of the other terms (no subtraction)."""
    q = v.shape[-1]
    off = 1.0 - np.eye(q)
    return np.einsum("...j,kj->...k", v, off)


def accuracy(m: np.ndarray) -> np.ndarray:
    """The share of cases on the diagonal, ``trace / total``; NaN for an empty matrix.

    >>> accuracy(np.array([[3, 1], [2, 4]])).tolist()
    0.7
    >>> accuracy(np.zeros((2, 2, 2))).tolist()
    [nan, nan]
    """
    s = scaled_matrices(m)
    total, diagonal, _, _ = _margins(s)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(diagonal / total)


def mcc(m: np.ndarray) -> np.ndarray:
    """Matthews' correlation coefficient (q = 2) and Gorodkin's R_K (q > 2); NaN where a margin is constant.

    ``R_K = (n·c − Σ_k t_k p_k) / sqrt((n² − Σ_k p_k²)(n² − Σ_k t_k²))`` with n the total, c the diagonal sum,
    t_k the true and p_k the predicted sums of label k (Gorodkin 2004, eq. 8); for two labels it is
    ``(TP·TN − FP·FN) / sqrt((TP+FP)(TP+FN)(TN+FP)(TN+FN))`` (Matthews 1975). 0/0 where every case has one true
    label or one predicted label (scikit-learn returns 0 there; the caller applies its policy).

    The numerator is computed as ``Σ_k (TP_k·TN_k − FP_k·FN_k)`` over the one-vs-rest tables of the labels (it
    equals ``n·c − Σ_k t_k p_k`` term by term), each count a sum of cells: two products of counts are
    subtracted, as in Matthews' binary form, instead of two numbers of order n² (a 2 × 2 table of
    ``[[2**53 − 8, 2], [3, 3]]`` keeps every digit). The denominators are sums of non-negative terms.

    >>> float(mcc(np.array([[5, 1], [2, 4]])))   # (4·5 − 1·2) / sqrt(5·6·7·6)
    0.50709255283711
    >>> mcc(np.array([[3, 1], [0, 0]])).tolist()  # one true label: 0/0
    nan
    """
    s = scaled_matrices(m)
    q = s.shape[-1]
    off = 1.0 - np.eye(q)
    _, _, t, p = _margins(s)
    tp = np.diagonal(s, axis1=-2, axis2=-1)
    fn = np.einsum("...kj,kj->...k", s, off)  # row k without its diagonal cell
    fp = np.einsum("...ik,ik->...k", s, off)  # column k without its diagonal cell
    tn = np.einsum("...ij,ki,kj->...k", s, off, off)  # the cells outside row k and column k
    cov_tp = np.sum(tp * tn - fp * fn, axis=-1)
    # n² − Σ p_k² = Σ_k p_k Σ_{j≠k} p_j: non-negative terms, no cancellation for a rare label
    cov_pp = np.einsum("...k,...k->...", p, _sum_of_others(p))
    cov_tt = np.einsum("...k,...k->...", t, _sum_of_others(t))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(cov_tp / np.sqrt(cov_pp * cov_tt))


def balanced_accuracy(m: np.ndarray) -> np.ndarray:
    """The mean recall over the labels with true cases (Brodersen et al. 2010); NaN if no label has any.

    A label absent from the truth has no recall and is left out, as scikit-learn's ``balanced_accuracy_score``
    leaves it out.

    >>> balanced_accuracy(np.array([[3, 1, 0], [2, 3, 1], [0, 0, 0]])).tolist()   # (3/4 + 3/6) / 2; label 2 absent
    0.625
    """
    s = scaled_matrices(m)
    _, _, t, _ = _margins(s)
    diagonal = np.diagonal(s, axis1=-2, axis2=-1)
    has = t > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        recall = np.where(has, diagonal / np.where(has, t, 1.0), 0.0)
        return np.asarray(recall.sum(axis=-1) / has.sum(axis=-1))


def cohen_kappa(m: np.ndarray) -> np.ndarray:
    """Cohen's kappa ``(p_o − p_e) / (1 − p_e)`` (Cohen 1960, unweighted); NaN where ``p_e = 1`` or no cases.

    Computed as scikit-learn's ``cohen_kappa_score``, ``1 − (1 − p_o) / (1 − p_e)``, with ``1 − p_o`` the
    off-diagonal share and ``1 − p_e = Σ_k t_k Σ_{j≠k} p_j / n²``: both sums of non-negative terms. ``p_e = 1``
    only when every case is of one label and predicted as it.

    >>> float(cohen_kappa(np.array([[20, 5], [10, 15]])))   # p_o = 0.7, p_e = 0.5
    0.4
    >>> cohen_kappa(np.array([[4, 0], [0, 0]])).tolist()
    nan
    """
    s = scaled_matrices(m)
    total, _, t, p = _margins(s)
    q = s.shape[-1]
    disagree = np.einsum("...ij,ij->...", s, 1.0 - np.eye(q))  # the off-diagonal cells, summed (no subtraction)
    off = np.einsum("...k,...k->...", t, _sum_of_others(p))
    with np.errstate(divide="ignore", invalid="ignore"):
        observed = disagree / total  # 1 − p_o
        expected = off / (total * total)  # 1 − p_e
        return np.asarray(np.where(expected > 0, 1.0 - observed / expected, np.nan))
