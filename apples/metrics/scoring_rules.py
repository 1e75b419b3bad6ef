"""Proper scoring rules of predicted probabilities: the log loss and the Brier score (binary).

A proper scoring rule judges a probability, not a ranking (AUC) nor a decision (F): it is smallest in
expectation when the predicted probability is the true one, so it rewards calibration and sharpness together
(Brier 1950; Gneiting & Raftery 2007, §3). Forman & Scholz (2010) §3.2 show that AUC_merge depends on the fold
classifiers being calibrated alike; these two measure the calibration itself. Both are means of a per-case loss,
so, unlike F or AUC, their value over all cross-validated predictions is the fold-size-weighted mean of the fold
values (:func:`apples.cv.cv_log_loss`, :func:`apples.cv.cv_brier_score`).

``y_prob`` is the positive label's probability, one value per case in [0, 1]; a value outside (or NaN, inf) is
refused naming its position. A probability of 0 for a positive case (or 1 for a negative) has an infinite log
loss: it is returned as ``inf``, never clipped into a number (scikit-learn's ``log_loss`` clips at machine
epsilon and reports about 36.04 for that case instead).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from apples._kernels.scoring_rules import fold_scoring_rules
from apples._params import (
    LABEL,
    LABELS,
    Kind,
    Nullable,
    ParameterValueError,
    SameLength,
    TwoClasses,
    check_scores,
    declare,
    positive_indicator,
)

__all__ = [
    "PROBABILITIES",
    "SAMPLE_WEIGHT",
    "brier_score",
    "log_loss",
]


class _Probabilities(Kind):
    what = "a one-dimensional array of probabilities in [0, 1]"

    def check(self, name: str, value: object) -> np.ndarray:
        arr = check_scores(name, value).astype(np.float64, copy=False)
        bad = np.flatnonzero((arr < 0.0) | (arr > 1.0))
        if bad.size:
            i = int(bad[0])
            raise ParameterValueError(
                f"{name} must hold probabilities in [0, 1] (the positive label's), got {float(arr[i])!r} "
                f"at position {i}",
                param=name,
                position=i,
            )
        return arr


class _SampleWeight(Kind):
    what = "a one-dimensional array of finite non-negative weights, one per case"

    def check(self, name: str, value: object) -> np.ndarray:
        arr = check_scores(name, value).astype(np.float64, copy=False)
        bad = np.flatnonzero(arr < 0.0)
        if bad.size:
            i = int(bad[0])
            raise ParameterValueError(
                f"{name} must be non-negative, got {float(arr[i])!r} at position {i}", param=name, position=i
            )
        return arr


#: The kind of ``y_prob``: the positive label's predicted probability of each case, in [0, 1].
PROBABILITIES = _Probabilities()
#: The kind of ``sample_weight``: one finite non-negative weight per case (scikit-learn's ``sample_weight``).
SAMPLE_WEIGHT = _SampleWeight()

#: The declaration every scoring-rule function shares: labels, probabilities, the positive label, weights.
_SCORING = {
    "y_true": LABELS,
    "y_prob": PROBABILITIES,
    "pos_label": Nullable(LABEL),
    "sample_weight": Nullable(SAMPLE_WEIGHT),
}
_RELATIONS = [SameLength("y_true", "y_prob", "sample_weight"), TwoClasses("pos_label", "y_true")]


def _weights(sample_weight: Any) -> np.ndarray | None:
    if sample_weight is None:
        return None
    w = np.asarray(sample_weight, dtype=np.float64)
    if not w.sum() > 0:
        raise ParameterValueError(
            "sample_weight sums to 0: no case counts, so there is no mean loss", param="sample_weight"
        )
    return w


def _pooled(y_true: Any, y_prob: Any, pos_label: Hashable | None, sample_weight: Any) -> tuple[float, float]:
    y = positive_indicator(np.asarray(y_true), pos_label)
    r = fold_scoring_rules(y, np.asarray(y_prob), np.zeros(y.size, dtype=np.intp), 1, _weights(sample_weight))
    return r.pooled_log_loss, r.pooled_brier


@declare(**_SCORING, relations=_RELATIONS)
def log_loss(
    y_true: ArrayLike,
    y_prob: ArrayLike,
    *,
    pos_label: Hashable | None = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Log loss (cross-entropy) of predicted probabilities: the mean of ``-log`` of the probability of the truth.

    ``L = -Σ w_i [y_i log p_i + (1 - y_i) log(1 - p_i)] / Σ w_i`` (natural log), with ``y_i = 1`` for the
    positive label: the logarithmic scoring rule, strictly proper (Good 1952; Gneiting & Raftery 2007, §3.3).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels, at most two classes (one class is valid: the loss is defined).
    y_prob : array-like of shape (n,)
        The predicted probability of the positive label, in [0, 1] (``predict_proba(X)[:, 1]`` for
        scikit-learn's classes ``[negative, positive]``).
    pos_label : label, optional
        The positive class; default 1 for 0/1 or -1/1 labels (True for bools), required otherwise.
    sample_weight : array-like of shape (n,), optional
        Non-negative weight of each case (a case of weight 0 is left out, even with an infinite loss).

    Returns
    -------
    float in [0, inf]
        ``inf`` when a case of positive weight has probability 0 for its true class: the log loss of a
        certain mistake is infinite and is reported so, never clipped. scikit-learn's ``log_loss`` clips
        the probabilities at machine epsilon and returns a large finite number instead
        (``-log(2.2e-16) ≈ 36.04`` for such a case).

    References
    ----------
    Good (1952) "Rational decisions", J. R. Stat. Soc. B 14; Gneiting & Raftery (2007) "Strictly proper
    scoring rules, prediction, and estimation", JASA 102, §3.3 (the logarithmic score).

    Examples
    --------
    >>> from apples import log_loss
    >>> log_loss([1, 0, 1, 0], [0.5, 0.5, 0.5, 0.5])   # log 2
    0.6931471805599453
    >>> log_loss(["spam", "ham"], [1.0, 1.0], pos_label="spam")   # certain, and wrong on "ham"
    inf
    """
    return _pooled(y_true, y_prob, pos_label, sample_weight)[0]


@declare(**_SCORING, relations=_RELATIONS)
def brier_score(
    y_true: ArrayLike,
    y_prob: ArrayLike,
    *,
    pos_label: Hashable | None = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Brier score: the mean squared difference between the predicted probability and the outcome (0 or 1).

    ``B = Σ w_i (p_i - y_i)² / Σ w_i`` with ``y_i = 1`` for the positive label (Brier 1950, the binary form
    scikit-learn's ``brier_score_loss`` computes); strictly proper, and bounded in [0, 1].

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels, at most two classes.
    y_prob : array-like of shape (n,)
        The predicted probability of the positive label, in [0, 1].
    pos_label : label, optional
        The positive class; default 1 for 0/1 or -1/1 labels (True for bools), required otherwise.
    sample_weight : array-like of shape (n,), optional
        Non-negative weight of each case.

    Returns
    -------
    float in [0, 1]

    References
    ----------
    Brier (1950) "Verification of forecasts expressed in terms of probability", Monthly Weather Review 78;
    Gneiting & Raftery (2007) §3.2 (the quadratic score).

    Examples
    --------
    >>> from apples import brier_score
    >>> brier_score([1, 0, 1, 0], [0.75, 0.25, 0.5, 0.5])   # (1/16 + 1/16 + 1/4 + 1/4) / 4
    0.15625
    >>> brier_score(["b", "a"], [0.75, 0.25], pos_label="a")   # positive sorts first: p("a") = 0.25 for "a"
    0.5625
    """
    return _pooled(y_true, y_prob, pos_label, sample_weight)[1]
