"""Per-fold confusion counts from scikit-learn's ``cross_validate``: :func:`counts_scorer` and
:func:`fold_counts_from_cross_validate`, so F_tp,fp (Forman & Scholz 2010 §2.3, eq. 2) comes without storing
predictions. scikit-learn calls the scorer; nothing here imports it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

import numpy as np

from apples._params import LABEL, Kind, check_same_length, declare
from apples.metrics.counts import Counts

__all__ = [
    "COUNT_KEYS",
    "counts_scorer",
    "fold_counts_from_cross_validate",
]

#: The keys of :func:`counts_scorer`'s dict, and so the ``test_<key>`` columns of ``cross_validate``.
COUNT_KEYS = ("tp", "fp", "fn", "tn")


@declare(pos_label=LABEL)
def counts_scorer(*, pos_label: Any = 1) -> Callable[[Any, Any, Any], dict[str, int]]:
    """A scorer for ``cross_validate(..., scoring=counts_scorer())``: each test fold's TP, FP, FN, TN.

    ``cross_validate`` then returns ``test_tp``, ``test_fp``, ``test_fn`` and
    ``test_tn``, one count per fold; :func:`fold_counts_from_cross_validate` turns
    them into :class:`~apples.Counts`, and ``apples.cv_f_measure(fold_counts,
    method="tp_fp")`` is the pooled F of Forman & Scholz (2010) §2.3, eq. (2).

    Parameters
    ----------
    pos_label : label, default 1
        The positive class, as in :meth:`apples.Counts.from_labels`: one label (a
        str, a number or a bool), checked here, when the scorer is made. Whether
        it is a label of ``y`` is checked when the scorer runs; scikit-learn
        turns an error there into NaN (``error_score=nan``) and a warning, and
        :func:`fold_counts_from_cross_validate` then says that the scorer failed.

    Raises
    ------
    TypeError, ValueError
        ``pos_label`` is not one label (a list, None, NaN, a continuous value).

    Examples
    --------
    >>> from sklearn.dummy import DummyClassifier
    >>> from apples import counts_scorer
    >>> scorer = counts_scorer()
    >>> scorer(DummyClassifier(strategy="constant", constant=1).fit([[0], [1]], [0, 1]), [[0], [1]], [0, 1])
    {'tp': 1, 'fp': 1, 'fn': 0, 'tn': 0}
    """

    return _CountsScorer(pos_label)


class _CountsScorer:
    """The scorer :func:`counts_scorer` makes: scikit-learn calls it once per test fold, a new entry point that
    checks that fold's labels (through :meth:`Counts.from_labels`)."""

    def __init__(self, pos_label: Any) -> None:
        self.pos_label = pos_label

    def __call__(self, estimator: Any, X: Any, y_true: Any) -> dict[str, int]:
        c = Counts.from_labels(y_true, estimator.predict(X), pos_label=self.pos_label)
        return {"tp": c.tp, "fp": c.fp, "fn": c.fn, "tn": c.tn}

    def __repr__(self) -> str:
        return f"counts_scorer(pos_label={self.pos_label!r})"


def _failed_folds(values: Any) -> list[int] | None:
    """The folds where ``cross_validate`` stored NaN for a failed scorer, read off ``results['test_score']``.

    When :func:`counts_scorer` raises in the first fold, scikit-learn takes it for a single-metric scorer:
    ``test_score`` then holds NaN for each failed fold and the count dict for each other one. None when
    ``values`` is not such an array (another scorer's scores).
    """
    if values is None or isinstance(values, (str, bytes)):
        return None
    arr = np.asarray(values, dtype=object)
    if arr.ndim != 1 or arr.size == 0:
        return None
    failed = []
    for i, v in enumerate(arr.tolist()):
        if isinstance(v, float) and v != v:
            failed.append(i)
        elif not isinstance(v, Mapping):
            return None
    return failed


def _scorer_failed(failed: list[int], n_folds: int) -> ValueError:
    advice = (
        "which is what cross_validate stores when a scorer raises (error_score=nan; it only warns 'Scoring "
        "failed'). Check that counts_scorer(pos_label=...) is a label of y, of its type (the default 1 does not "
        "match string labels), and that the estimator predicts labels of y; run cross_validate(..., "
        "error_score='raise') to see the error"
    )
    if len(failed) == n_folds:
        return ValueError(
            f"the scorer failed in every fold: results['test_score'] is NaN in all {n_folds} folds, {advice}"
        )
    shown = ", ".join(map(str, failed[:10])) + (" ..." if len(failed) > 10 else "")
    return ValueError(
        f"the scorer failed in {len(failed)} of {n_folds} folds (fold {shown}): their scores are NaN, {advice}"
    )


class _CrossValidateResults(Kind):
    what = "the dict cross_validate returns with scoring=counts_scorer()"

    def check(self, name: str, value: object) -> list[Counts]:
        if not isinstance(value, Mapping):
            raise TypeError(f"{name} must be the dict cross_validate returns, got {type(value).__name__}")
        missing = [f"test_{k}" for k in COUNT_KEYS[:3] if f"test_{k}" not in value]
        failed = _failed_folds(value.get("test_score"))
        if missing and failed:
            raise _scorer_failed(failed, len(value["test_score"]))
        if missing:
            raise ValueError(
                f"{name} lacks {missing}; run cross_validate(..., scoring=apples.counts_scorer()) "
                f"(its keys are {sorted(value)[:10]})"
            )
        columns = {}
        for k in COUNT_KEYS:
            values = value.get(f"test_{k}")
            if values is None:
                continue
            arr = np.asarray(values)
            if arr.ndim != 1 or arr.size == 0:
                raise ValueError(f"{name}['test_{k}'] must hold one count per fold, got shape {arr.shape}")
            columns[k] = arr
        check_same_length(**{f"{name}['test_{k}']": v for k, v in columns.items()})
        nan_folds = sorted(
            {int(i) for a in columns.values() if a.dtype.kind == "f" for i in np.flatnonzero(np.isnan(a))}
        )
        if nan_folds:
            raise _scorer_failed(nan_folds, len(columns["tp"]))
        out = []
        for i in range(len(columns["tp"])):
            try:
                out.append(Counts(*(columns[k][i].item() if k in columns else 0 for k in COUNT_KEYS)))
            except (TypeError, ValueError) as err:
                raise type(err)(f"{name}, fold {i}: {err}") from None
        return out


@declare(results=_CrossValidateResults())
def fold_counts_from_cross_validate(results: Mapping[str, Any]) -> list[Counts]:
    """One :class:`~apples.Counts` per fold from ``cross_validate(..., scoring=counts_scorer())`` output.

    Parameters
    ----------
    results : mapping
        The dict ``cross_validate`` returns, holding ``test_tp``, ``test_fp`` and
        ``test_fn`` (and ``test_tn``; 0 if absent), one count per fold.

    Raises
    ------
    TypeError, ValueError
        ``results`` is not a mapping, lacks a count key, or holds counts of
        unequal lengths or that are not non-negative integers. When
        :func:`counts_scorer` failed in every fold (scikit-learn then stores
        only ``test_score``, all NaN) or in some (NaN counts), the error says
        so, in which folds, and what to check.

    Examples
    --------
    >>> from apples import fold_counts_from_cross_validate
    >>> fold_counts_from_cross_validate({"test_tp": [3, 4], "test_fp": [1, 0], "test_fn": [0, 2], "test_tn": [6, 4]})
    [Counts(tp=3, fp=1, fn=0, tn=6), Counts(tp=4, fp=0, fn=2, tn=4)]
    """
    return list(cast("list[Counts]", results))  # the declared kind has read each fold's counts off the dict
