"""The fold table of each repeat: what every value and interval of a report is computed from.

One pass over a :class:`~apples.CVPredictions` gives, per repeat, each fold's confusion matrix
(one ``bincount``; with ``sample_weight`` the sums of the weights, as ``sklearn.metrics.confusion_matrix``'s)
and each fold's and the merged ROC AUC and average precision (one sort per label,
:func:`apples._kernels.ranking.fold_ranking`). The values (:mod:`._values`) and the intervals
(:mod:`._intervals`) read these tables and never the predictions again.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from apples._kernels.counting import confusion_by_fold
from apples._kernels.labels import FoldLabelCounts, fold_label_counts
from apples._kernels.ranking import FoldRanking, fold_ranking
from apples.cv.predictions import CVPredictions

__all__ = [
    "RepeatTable",
    "repeat_tables",
]


class RepeatTable(NamedTuple):
    """One repeat of a cross-validation, reduced to what the report needs."""

    fold_ids: np.ndarray  #: the sorted fold ids
    sizes: np.ndarray  #: cases (rows) per fold
    positives: np.ndarray | None  #: positives (rows) per fold (binary tasks)
    confusion: np.ndarray | None  #: (folds, labels, labels) confusion matrices; binary: 0 negative, 1 positive;
    #: with sample weights the sums of the weights (float64)
    ranking: list[FoldRanking] | None  #: per-fold and merged AUC/AP: one for binary, one per label (one-vs-rest)
    positive: np.ndarray | None  #: binary: whether each case of the repeat is a positive (for DeLong)
    scores: np.ndarray | None  #: binary: the scores of the repeat's cases (for DeLong)
    prediction_auc: float  #: binary: the AUC of the scores against the predicted labels (NaN if undefined)
    fold_codes: np.ndarray | None = None  #: binary with scores: each case's fold code 0..k-1 (for the scoring rules)
    weights: np.ndarray | None = None  #: the sample weights of the repeat's cases (None: unweighted)
    row_confusion: np.ndarray | None = None  #: with weights: the confusion matrices counting rows (else None)
    label_counts: FoldLabelCounts | None = None  #: multi-label: TP, FP, FN per fold and label, exact matches per fold


def repeat_tables(p: CVPredictions) -> list[RepeatTable]:
    """The fold table of every repeat, in the sorted order of the repeat ids."""
    tables = []
    q = 2 if p.task == "binary" else len(p.labels)
    for r in range(p.n_repeats):
        rows = p.rows(r)
        fold = p.fold_codes[r]
        k = p.fold_ids[r].size
        truth = p.truth_codes[rows]
        w = None if p.sample_weight is None else p.sample_weight[rows]
        confusion = row_confusion = label_counts = None
        if p.task == "multilabel" and p.pred_codes is not None:
            label_counts = fold_label_counts(fold, truth, p.pred_codes[rows], k)  # unweighted: refused with weights
        elif p.pred_codes is not None:
            confusion = confusion_by_fold(fold, truth, p.pred_codes[rows], k, q, weights=w)
            if w is not None:
                row_confusion = confusion_by_fold(fold, truth, p.pred_codes[rows], k, q)
        ranking = positive = scores = None
        prediction_auc = float("nan")
        if p.y_score is not None:
            s = p.y_score[rows]
            # rows of weight 0 are left out of the ranking, as scikit-learn's _binary_clf_curve does: a tie group of
            # weight 0 at the top of a fold would make its precision 0/0 (the ranking kernel counts it, and counting
            # nothing there is what the weights say)
            keep = slice(None) if w is None or w.all() else w > 0
            wk = None if w is None else w[keep]
            if p.task == "binary":
                positive, scores = truth == 1, s
                predicted = None if p.pred_codes is None else p.pred_codes[rows][keep] == 1
                ranking = [fold_ranking(positive[keep], scores[keep], fold[keep], k, weights=wk, other=predicted)]
                prediction_auc = ranking[0].other_auc_merge
            else:
                multi = p.task == "multilabel"
                ranking = [
                    fold_ranking((truth[:, j] if multi else truth == j)[keep], s[keep, j], fold[keep], k, weights=wk)
                    for j in range(q)
                ]
        tables.append(
            RepeatTable(
                fold_ids=p.fold_ids[r],
                sizes=np.bincount(fold, minlength=k),
                positives=np.bincount(fold, weights=truth, minlength=k).astype(np.int64)
                if p.task == "binary"
                else None,
                confusion=confusion,
                ranking=ranking,
                positive=positive,
                scores=scores,
                prediction_auc=prediction_auc,
                fold_codes=fold if scores is not None else None,
                weights=w,
                row_confusion=row_confusion,
                label_counts=label_counts,
            )
        )
    return tables
