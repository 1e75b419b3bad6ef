"""Per-label totals of every fold, and the measures that need nothing more than them.

Every count measure of a cross-validated report reads, per fold and label, three totals: the
correct predictions of the label (TP), its wrong predictions (FP: predicted, another label true)
and its misses (FN: true, another label predicted), and the fold's size. Accuracy, Van Asch's
averages of precision, recall and F (§3), balanced accuracy, Matthews' correlation and Cohen's
kappa are functions of these totals alone: the q × q confusion matrix is never formed, so the cost
is O(n + folds · q) whatever the number of labels (20,000 labels take 20,000 cells a fold, not
4·10^8).

A :class:`LabelTotals` holds arrays with any leading shape and the labels last: ``(k, q)`` for the
k folds, ``(q,)`` pooled, ``(k, q)`` again for the k leave-one-fold-out tables. Totals are integer
counts, or float sums of sample weights (each case counts its weight, as ``sklearn.metrics`` does).
Each measure returns float64 with NaN exactly where it is 0/0 and never a numpy warning; it is
scale-invariant (weights times 1e-300 or 1e300 give the same value) because it is computed from
shares of the fold's total, never from products of totals.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from apples._kernels.f_measure import ratio

__all__ = [
    "LabelTotals",
    "accuracy",
    "balanced_accuracy",
    "cohen_kappa",
    "hamming_loss",
    "label_totals",
    "leave_one_fold_out",
    "matthews_corrcoef",
    "multilabel_totals",
    "pooled",
    "scaled_totals",
    "subset_accuracy",
]


class LabelTotals(NamedTuple):
    """TP, FP, FN per label (labels last) and the size of each table; multi-label tables also count the cases.

    Single-label: ``n`` is the number (or weight) of cases, and every case adds 1 to one label's TP
    or to one label's FP and another's FN. Multi-label (Van Asch §5): ``n`` counts cases, each case
    decides every label, ``exact`` counts the cases whose predicted label set is the gold one.
    """

    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    n: np.ndarray
    exact: np.ndarray | None = None  #: multi-label: cases whose predicted set equals the gold set

    @property
    def predicted(self) -> np.ndarray:
        """Cases predicted as each label (TP + FP)."""
        return self.tp + self.fp

    @property
    def true(self) -> np.ndarray:
        """Cases of each label (TP + FN): the support."""
        return self.tp + self.fn


def label_totals(
    fold: np.ndarray,
    truth: np.ndarray,
    pred: np.ndarray,
    n_folds: int,
    n_labels: int,
    weights: np.ndarray | None = None,
    start: LabelTotals | None = None,
) -> LabelTotals:
    """The totals of each fold, ``(n_folds, n_labels)``, from integer codes; two ``bincount`` calls.

    Weighted totals are sums of weights taken case by case in the data's order (the same bits on every
    CPU); FP and FN are summed directly, never as a difference of two sums, so a 0 is exactly 0. ``start``: the
    totals of the rows before these (a block of rows after another), continued case by case: the bits of one call
    on all the rows.

    >>> t = label_totals(np.array([0, 0, 1]), np.array([1, 0, 1]), np.array([1, 1, 0]), 2, 2)
    >>> t.tp.tolist(), t.fp.tolist(), t.fn.tolist(), t.n.tolist()
    ([[0, 1], [0, 0]], [[0, 1], [1, 0]], [[1, 0], [0, 1]], [2, 1])
    """
    q = n_labels
    base = fold.astype(np.intp) * q
    wrong = truth != pred
    if start is None:
        by_truth = np.bincount((base + truth) * 2 + wrong, weights=weights, minlength=n_folds * q * 2)
        by_pred = np.bincount((base + pred) * 2 + wrong, weights=weights, minlength=n_folds * q * 2)
        n = np.bincount(fold, weights=weights, minlength=n_folds)
    else:
        size = n_folds * q * 2
        by_truth = _continued((base + truth) * 2 + wrong, weights, np.stack([start.tp, start.fn], -1).ravel(), size)
        by_pred = _continued((base + pred) * 2 + wrong, weights, np.stack([start.tp, start.fp], -1).ravel(), size)
        n = _continued(fold, weights, start.n, n_folds)
    by_truth = by_truth.reshape(n_folds, q, 2)
    tp, fn = by_truth[..., 0], by_truth[..., 1]
    fp = by_pred.reshape(n_folds, q, 2)[..., 1]
    return LabelTotals(tp, fp, fn, n)


def _continued(index: np.ndarray, weights: np.ndarray | None, start: np.ndarray, size: int) -> np.ndarray:
    """``bincount`` continuing from ``start`` (counts added exactly; weights added one after another from it)."""
    if weights is None:
        return start + np.bincount(index, minlength=size)
    both = np.concatenate([np.arange(size), index])
    return np.bincount(both, weights=np.concatenate([np.asarray(start, dtype=np.float64), weights]), minlength=size)


def multilabel_totals(fold: np.ndarray, truth: np.ndarray, pred: np.ndarray, n_folds: int) -> LabelTotals:
    """The totals of each fold from bool indicator tables ``(n, q)`` (Van Asch §5: one decision per label and case).

    >>> t = multilabel_totals(np.array([0, 0, 1]), np.array([[1, 0], [1, 1], [0, 1]], bool),
    ...                       np.array([[1, 0], [0, 1], [1, 1]], bool), 2)
    >>> t.tp.tolist(), t.fp.tolist(), t.fn.tolist(), t.n.tolist(), t.exact.tolist()
    ([[1, 1], [0, 1]], [[0, 0], [1, 0]], [[1, 0], [0, 0]], [2, 1], [1, 0])
    """
    q = truth.shape[1]
    one_hot = np.zeros((n_folds, fold.size), dtype=np.int64)
    one_hot[fold, np.arange(fold.size)] = 1

    def per_fold(x: np.ndarray) -> np.ndarray:
        return (one_hot @ x.astype(np.int64)).reshape(n_folds, q)

    tp = per_fold(truth & pred)
    fp = per_fold(~truth & pred)
    fn = per_fold(truth & ~pred)
    n = np.bincount(fold, minlength=n_folds)
    exact = np.bincount(fold, weights=(truth == pred).all(axis=1), minlength=n_folds).astype(np.int64)
    return LabelTotals(tp, fp, fn, n, exact)


def pooled(t: LabelTotals) -> LabelTotals:
    """The totals summed over the folds (the first axis), one fold after another (the same bits on every CPU)."""

    def total(a: np.ndarray) -> np.ndarray:
        out = a[0].copy()
        for j in range(1, a.shape[0]):
            out += a[j]
        return out

    exact = None if t.exact is None else total(t.exact)
    return LabelTotals(total(t.tp), total(t.fp), total(t.fn), total(t.n), exact)


def leave_one_fold_out(t: LabelTotals) -> LabelTotals:
    """Row f: the totals of every fold but f (the pooled totals minus fold f's), for the jackknife over folds.

    Integer totals are exact; weighted ones are a difference of float sums, exact to rounding.
    """
    total = pooled(t)
    exact = None if t.exact is None or total.exact is None else total.exact[None, ...] - t.exact
    return LabelTotals(total.tp[None] - t.tp, total.fp[None] - t.fp, total.fn[None] - t.fn, total.n[None] - t.n, exact)


# -- measures of the totals ------------------------------------------------------------------------------------
def scaled_totals(t: LabelTotals) -> LabelTotals:
    """The totals as float64, each table multiplied by ``2**-e`` with ``e`` the binary exponent of its size ``n``.

    Exact (a power of two), so every measure is unchanged, and no sum or product of the scaled totals can
    overflow or underflow, whether they are counts up to 2**53 or sums of weights near 1e308 or 5e-324. A table of
    size 0 stays 0.

    >>> s = scaled_totals(LabelTotals(np.array([3, 1]), np.array([1, 0]), np.array([0, 1]), np.array(6)))
    >>> s.tp.tolist(), s.n.tolist()
    ([0.375, 0.125], 0.75)
    """
    n = np.asarray(t.n, dtype=np.float64)
    exponent = np.frexp(n)[1]  # 0 for a table of size 0

    def scale(a: np.ndarray, labels: bool) -> np.ndarray:
        e = exponent[..., None] if labels else exponent
        return np.ldexp(np.asarray(a, dtype=np.float64), -e)

    exact = None if t.exact is None else scale(t.exact, False)
    return LabelTotals(scale(t.tp, True), scale(t.fp, True), scale(t.fn, True), scale(n, False), exact)


def _sum_of_others(v: np.ndarray) -> np.ndarray:
    """``Σ_{j≠k} v_j`` for each k on the last axis: a sum of the other terms (no subtraction) for up to 256
    labels, the total minus the term beyond (where a q × q sum would cost more than the data)."""
    q = v.shape[-1]
    if q <= 256:
        return np.einsum("...j,kj->...k", v, 1.0 - np.eye(q))
    return v.sum(axis=-1, keepdims=True) - v


def accuracy(t: LabelTotals) -> np.ndarray:
    """Single-label accuracy, ΣTP / n; NaN where n = 0 (a fold whose weights are all 0).

    >>> float(accuracy(LabelTotals(np.array([3, 2]), np.array([1, 0]), np.array([0, 1]), np.array(6))))
    0.8333333333333334
    """
    s = scaled_totals(t)
    return ratio(s.tp.sum(axis=-1), s.n)


def balanced_accuracy(t: LabelTotals) -> np.ndarray:
    """The mean recall over the labels present (TP + FN > 0), as scikit-learn's ``balanced_accuracy_score``
    (Brodersen et al. 2010): a label absent from the table is left out, not counted as 0; NaN if none is present.
    Binary: (TPR + TNR) / 2.

    >>> float(balanced_accuracy(LabelTotals(np.array([3, 2]), np.array([1, 0]), np.array([0, 1]), np.array(6))))
    0.8333333333333333
    """
    s = scaled_totals(t)
    recall = ratio(s.tp, s.true)
    present = ~np.isnan(recall)
    return ratio(np.where(present, recall, 0.0).sum(axis=-1), present.sum(axis=-1))


def matthews_corrcoef(t: LabelTotals) -> np.ndarray:
    """Matthews' correlation coefficient (Matthews 1975), for q > 2 labels Gorodkin's (2004, eq. 8) R_K:

    ``(n·c − Σ_k t_k p_k) / √((n² − Σ_k p_k²)(n² − Σ_k t_k²))`` with n the total, c the correct cases, t_k and
    p_k the cases of label k and those predicted as it (scikit-learn's ``matthews_corrcoef``). 0/0 (NaN) where
    every case is predicted as one label, or belongs to one (scikit-learn returns 0 there).

    The numerator is ``Σ_k (TP_k·TN_k − FP_k·FN_k)`` over the labels' one-vs-rest tables (equal to it term by
    term): two products of counts subtracted, as in Matthews' binary form, not two numbers of order n² (a table
    of 2**53 − 8 true negatives keeps every digit); ``n² − Σ p_k² = Σ_k p_k Σ_{j≠k} p_j`` is a sum of
    non-negative terms.

    >>> float(matthews_corrcoef(LabelTotals(np.array([5, 3]), np.array([1, 1]), np.array([1, 1]), np.array(10))))
    0.5833333333333334
    """
    s = scaled_totals(t)
    # TN_k, the cases neither true nor predicted k: the other labels' correct cases (a sum of the other terms) and
    # the errors between two other labels (none for two labels: an exact 0), never n minus the rest
    misses = s.fn.sum(axis=-1, keepdims=True)
    tn = _sum_of_others(s.tp) + np.maximum(misses - s.fp - s.fn, 0.0)
    cov = np.sum(s.tp * tn - s.fp * s.fn, axis=-1)
    p, r = s.predicted, s.true
    cov_pp = np.einsum("...k,...k->...", p, _sum_of_others(p))
    cov_tt = np.einsum("...k,...k->...", r, _sum_of_others(r))
    with np.errstate(divide="ignore", invalid="ignore"):
        # a constant margin is exactly 0 here (a sum of non-negative terms): 0/0 whatever the numerator's rounding
        return np.asarray(np.where((cov_pp > 0) & (cov_tt > 0), cov / np.sqrt(cov_pp * cov_tt), np.nan))


def cohen_kappa(t: LabelTotals) -> np.ndarray:
    """Cohen's (1960) kappa, ``(p_o − p_e) / (1 − p_e)`` with p_e = Σ t_k p_k / n² the agreement expected by
    chance (scikit-learn's ``cohen_kappa_score``, unweighted); NaN where p_e = 1 (one label predicted and true).

    Computed as ``1 − (1 − p_o)/(1 − p_e)`` with ``1 − p_o`` the wrong cases' share (ΣFN / n) and
    ``1 − p_e = Σ_k t_k Σ_{j≠k} p_j / n²``: both sums of non-negative terms.

    >>> float(cohen_kappa(LabelTotals(np.array([5, 3]), np.array([1, 1]), np.array([1, 1]), np.array(10))))
    0.5833333333333333
    """
    s = scaled_totals(t)
    disagree = s.fn.sum(axis=-1)
    off = np.einsum("...k,...k->...", s.true, _sum_of_others(s.predicted))
    with np.errstate(divide="ignore", invalid="ignore"):
        observed = disagree / s.n
        expected = off / (s.n * s.n)
        return np.asarray(np.where(expected > 0, 1.0 - observed / expected, np.nan))


def subset_accuracy(t: LabelTotals) -> np.ndarray:
    """Multi-label: the share of cases whose predicted label set is the gold set (scikit-learn's accuracy_score)."""
    assert t.exact is not None
    return ratio(t.exact, t.n)


def hamming_loss(t: LabelTotals) -> np.ndarray:
    """Multi-label: the share of wrong (case, label) decisions, (ΣFP + ΣFN) / (n q) (scikit-learn's hamming_loss)."""
    q = t.tp.shape[-1]
    return ratio((t.fp + t.fn).sum(axis=-1), np.asarray(t.n, dtype=float) * q)
