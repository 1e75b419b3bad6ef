"""Measures of the whole confusion matrix of predicted labels: Matthews' correlation, balanced accuracy, Cohen's kappa.

Each compares the predicted labels with the true ones over every label at once, binary or multi-class, from the
(weighted) per-label totals (:mod:`apples._kernels.totals`, the report's kernels), and, unlike accuracy, each
corrects for the class proportions: Matthews' correlation (Matthews 1975) and its K-label form R_K (Gorodkin 2004)
correlate the two labelings; balanced accuracy averages the recall of each true label (Brodersen et al. 2010);
Cohen's kappa (Cohen 1960) is the agreement beyond the agreement of two independent labelings with the same proportions.

None of them depends on which label is positive, nor on the labels' names or order, nor on the scale of the
weights (a matrix multiplied by any constant gives the same values, computed without overflow: weights near
1e308 or 5e-324 are those of unit weights).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from apples._kernels.counting import codes_of
from apples._kernels.ranking import scaled_weights
from apples._kernels.totals import LabelTotals, label_totals
from apples._kernels.totals import balanced_accuracy as balanced
from apples._kernels.totals import cohen_kappa as kappa
from apples._kernels.totals import matthews_corrcoef as matthews
from apples._params import (
    LABEL_SET,
    LABELS,
    Nullable,
    OneLabelKind,
    ParameterValueError,
    Policy,
    Relation,
    SameLength,
    Undefined,
    check_label_kind,
    declare,
    resolve,
    unique_labels,
)
from apples.metrics.scoring_rules import MEASURED_WEIGHT

__all__ = [
    "balanced_accuracy",
    "cohen_kappa",
    "matthews_corrcoef",
]


class _LabelsCover(Relation):
    """Cases to compare, and an explicit label set ``labels`` holding every label of ``y_true`` and ``y_pred``."""

    names = ("y_true", "y_pred", "labels")

    def check(self, values: Mapping[str, Any]) -> None:
        t = values.get("y_true")
        if t is not None and t.size == 0:
            raise ValueError("y_true is empty: there are no cases to compare")
        labels = values.get("labels")
        if labels is None:
            return
        for name in ("y_true", "y_pred"):
            data = values.get(name)
            if data is None or data.size == 0:
                continue
            found = unique_labels(name, data)
            check_label_kind("labels", labels[0], found, where=name)
            known = set(labels)
            unknown = [repr(v) for v in found.tolist() if v not in known]
            if unknown:
                raise ParameterValueError(
                    f"{name} contains label(s) {', '.join(unknown[:5])}{' ...' if len(unknown) > 5 else ''} that "
                    "are not in labels=; the label set must hold every label of the data",
                    param="labels",
                )


_KINDS = {"y_true": LABELS, "y_pred": LABELS, "labels": Nullable(LABEL_SET), "sample_weight": Nullable(MEASURED_WEIGHT)}
_RELATIONS = [SameLength("y_true", "y_pred", "sample_weight"), OneLabelKind("y_true", "y_pred"), _LabelsCover()]


def _totals(y_true: ArrayLike, y_pred: ArrayLike, sample_weight: ArrayLike | None) -> LabelTotals:
    """The per-label totals (TP, FP, FN and the size) over the labels found in either array (counts or weights),
    the table every measure here reads (:mod:`apples._kernels.totals`, the report's kernels too).

    A label of ``labels=`` absent from both adds zeros, which change none of the measures here, so the totals are
    over the labels found.
    """
    t, p = np.asarray(y_true), np.asarray(y_pred)
    _, codes = codes_of(np.concatenate([t, p]))
    q = int(codes.max()) + 1
    w = None if sample_weight is None else scaled_weights(np.asarray(sample_weight))
    fold = np.zeros(t.size, dtype=np.intp)
    totals = label_totals(fold, codes[: t.size], codes[t.size :], 1, q, weights=w)
    return LabelTotals(*(a[0] for a in totals[:4]))


@declare(**_KINDS, undefined=Undefined("zero", "nan", "raise"), relations=_RELATIONS)
def matthews_corrcoef(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    undefined: Policy = "zero",
) -> float:
    """Matthews' correlation coefficient of predicted labels; Gorodkin's R_K for more than two labels.

    Binary (Matthews 1975): ``MCC = (TP·TN − FP·FN) / sqrt((TP+FP)(TP+FN)(TN+FP)(TN+FN))``, the Pearson
    correlation of the true and the predicted indicator. K labels (Gorodkin 2004, eq. 8), with n cases, c on the
    diagonal, t_k true and p_k predicted cases of label k: ``R_K = (n·c − Σ t_k p_k) / sqrt((n² − Σ p_k²)(n² −
    Σ t_k²))``, which is the binary MCC for K = 2 and scikit-learn's ``matthews_corrcoef`` for every K.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        True and predicted labels, of one kind (any number of labels; which one is positive does not matter:
        swapping the two classes leaves MCC unchanged).
    labels : array-like, optional
        The label set; it must hold every label of ``y_true`` and ``y_pred``. A label absent from both adds a row
        and a column of zeros to the confusion matrix and changes nothing.
    sample_weight : array-like of shape (n,), optional
        Finite non-negative case weights, not all 0 (bools and object arrays of numbers are cast to float).
    undefined : {"zero", "nan", "raise"}, default "zero"
        MCC is 0/0 when every case has one true label or one predicted label (a margin is constant).
        ``"zero"`` returns 0, scikit-learn's value there (and the limit of MCC as one off-diagonal count goes to
        0 in the binary case); ``"nan"`` returns NaN; ``"raise"`` raises :class:`~apples.UndefinedMetricError`.

    Returns
    -------
    float in [-1, 1]

    References
    ----------
    Matthews, B. W. (1975), "Comparison of the predicted and observed secondary structure of T4 phage
    lysozyme", Biochimica et Biophysica Acta 405, 442–451. Gorodkin, J. (2004), "Comparing two K-category
    assignments by a K-category correlation coefficient", Computational Biology and Chemistry 28, 367–374, eq. (8).

    Examples
    --------
    >>> from apples.metrics import matthews_corrcoef
    >>> matthews_corrcoef([1, 1, 0, 0], [1, 0, 0, 0])   # (1·2 − 0·1) / sqrt(1·2·3·2)
    0.5773502691896258
    >>> matthews_corrcoef(["b", "a", "c", "c"], ["b", "a", "c", "a"])   # R_K = (4·3 − 5) / sqrt(10 · 10)
    0.7
    >>> matthews_corrcoef(["a", "a"], ["a", "b"])   # one true label: 0/0, scikit-learn's 0
    0.0
    """
    value = float(matthews(_totals(y_true, y_pred, sample_weight)))
    return float(
        resolve(
            value,
            undefined,
            what="Matthews' correlation (every case has one true or one predicted label)",
            hint="pass undefined='zero' (scikit-learn's 0) or 'nan' to return a value instead",
        )
    )


@declare(**_KINDS, relations=_RELATIONS)
def balanced_accuracy(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Balanced accuracy: the mean over the true labels of their recall (Brodersen et al. 2010, eq. 2).

    ``BA = (1/K) Σ_k TP_k / (TP_k + FN_k)`` over the K labels that occur in ``y_true`` (with positive weight);
    binary, the mean of sensitivity and specificity. A label that only occurs among the predictions has no
    recall and is left out, as scikit-learn's ``balanced_accuracy_score`` leaves it out; so the value is always
    defined (there is at least one case of positive weight).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        True and predicted labels, of one kind.
    labels : array-like, optional
        The label set; it must hold every label of ``y_true`` and ``y_pred``. A label absent from ``y_true``
        has no recall and changes nothing.
    sample_weight : array-like of shape (n,), optional
        Finite non-negative case weights, not all 0.

    Returns
    -------
    float in [0, 1]

    References
    ----------
    Brodersen, K. H., Ong, C. S., Stephan, K. E. & Buhmann, J. M. (2010), "The balanced accuracy and its
    posterior distribution", Proc. 20th International Conference on Pattern Recognition (ICPR), 3121–3124, eq. (2).

    Examples
    --------
    >>> from apples.metrics import balanced_accuracy
    >>> balanced_accuracy([1, 1, 1, 0], [1, 1, 0, 0])   # (2/3 + 1/1) / 2
    0.8333333333333333
    >>> balanced_accuracy(["a", "a", "b"], ["a", "c", "b"])   # "c" is never true: (1/2 + 1) / 2
    0.75
    """
    return float(balanced(_totals(y_true, y_pred, sample_weight)))


@declare(**_KINDS, undefined=Undefined("raise", "nan"), relations=_RELATIONS)
def cohen_kappa(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    undefined: Policy = "raise",
) -> float:
    """Cohen's kappa: the agreement of the predicted labels with the true ones beyond chance (Cohen 1960).

    ``κ = (p_o − p_e) / (1 − p_e)`` with ``p_o`` the share of cases on the diagonal and ``p_e = Σ_k t_k p_k / n²``
    the agreement expected of two independent labelings with the observed proportions (Cohen 1960, eqs. 1–2;
    unweighted, symmetric in ``y_true`` and ``y_pred``), as scikit-learn's ``cohen_kappa_score``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        True and predicted labels, of one kind.
    labels : array-like, optional
        The label set; it must hold every label of ``y_true`` and ``y_pred`` (scikit-learn's ``labels=``
        selects a subset instead; here a label left out is an error, not a silently smaller table).
    sample_weight : array-like of shape (n,), optional
        Finite non-negative case weights, not all 0.
    undefined : {"raise", "nan"}, default "raise"
        κ is 0/0 when ``p_e = 1``: every case is of one label and predicted as it. There is no chance agreement
        to go beyond, so no value (scikit-learn returns NaN with a warning there; "nan" does the same, silently).
        There is no "zero": 0 would read "no better than chance".

    Returns
    -------
    float in [-1, 1]

    References
    ----------
    Cohen, J. (1960), "A coefficient of agreement for nominal scales", Educational and Psychological Measurement
    20, 37–46.

    Examples
    --------
    >>> from apples.metrics import cohen_kappa
    >>> round(cohen_kappa([1, 1, 0, 0], [1, 0, 0, 0]), 12)   # p_o = 3/4, p_e = (2·1 + 2·3)/16 = 1/2
    0.5
    >>> cohen_kappa(["x", "x"], ["x", "x"], undefined="nan")
    nan
    """
    value = float(kappa(_totals(y_true, y_pred, sample_weight)))
    return float(
        resolve(
            value,
            undefined,
            what="Cohen's kappa (p_e = 1: every case is of one label and predicted as it)",
            hint="pass undefined='nan' to return NaN instead",
        )
    )
