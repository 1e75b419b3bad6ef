"""The fold tables of a cross-validated result: everything its measures are computed from, in one pass.

One pass over an :class:`apples.CVPredictions` gives, for each repeat: the per-label totals of every
fold (TP, FP, FN and the fold's size: every count measure), the ranking of every fold and of all the
repeat's scores merged (ROC AUC, average precision and the H-measure per fold and merged, and
without each fold for the jackknife, from one sort per label), and the per-fold sums of the proper
scoring rules. Each is built only when a chosen measure needs it. The values and intervals
(:mod:`apples.measures._evaluate`) read these tables and never the predictions again, except a
researcher's own measure of one fold's rows (family ``predictions``), which is called on the rows.

Sample weights are scaled by a power of two before they are summed (exact: only the exponent
changes), so weights of 1e-300 or 1e308 give the values of weights of 1 instead of underflowing to
0/0 or overflowing to infinity.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from typing import NamedTuple

import numpy as np

from apples._kernels.ranking import FoldRanking, fold_ranking, scaled_weights
from apples._kernels.scoring_rules import FoldScoringSums, fold_scoring_sums
from apples._kernels.totals import LabelTotals, label_totals, multilabel_totals
from apples._params import ParameterValueError
from apples.cv.predictions import CVPredictions
from apples.cv.summary import CVSummary
from apples.measures.record import Measure

__all__: list[str] = []  # private: the engine of apples.reporting and apples.comparison


class ResultMeta(NamedTuple):
    """What a report needs to know of a cross-validated result besides its fold tables: the task and its labels,
    the repeats and folds, the design, what the predictions hold, the weights. :func:`meta_of` reads it off a
    :class:`~apples.CVPredictions`; a result summarised from chunks (a file, a dask DataFrame) carries its own."""

    task: str
    labels: list
    pos_label: Hashable | None
    n_rows: int
    repeat_ids: np.ndarray | None  #: None: no repeats given (one partition)
    fold_ids: list[np.ndarray]  #: per repeat, the sorted fold ids
    design: dict  #: as :meth:`CVPredictions.design_info` gives it
    has_pred: bool
    has_score: bool
    probabilities: bool  #: the scores read as probabilities (:func:`are_probabilities`)
    weights: tuple[float, int] | None  #: the mean weight and the rows of weight 0 (None: unweighted)
    n_cases: int | None

    @property
    def n_repeats(self) -> int:
        return 1 if self.repeat_ids is None else int(self.repeat_ids.size)


def meta_of(p: CVPredictions | CVSummary) -> ResultMeta:
    """The :class:`ResultMeta` of predictions held in memory, or summarised from blocks."""
    if isinstance(p, CVSummary):
        return ResultMeta(
            task=p.task,
            labels=list(p.labels),
            pos_label=p.pos_label,
            n_rows=p.n_rows,
            repeat_ids=p.repeat_ids,
            fold_ids=list(p.fold_ids),
            design=p.design_info(),
            has_pred=p.has_pred,
            has_score=p.has_score,
            probabilities=p.probabilities,
            weights=p.weights,
            n_cases=p.n_cases,
        )
    weights = None
    if p.sample_weight is not None:
        w = np.asarray(p.sample_weight, dtype=float)
        # the mean, not the total: twelve weights of 1e308 sum past the float range, their mean does not
        mean = float(np.ldexp(np.mean(scaled_weights(w)), int(np.frexp(np.max(w))[1])))
        weights = (mean, int(np.count_nonzero(w == 0)))
    return ResultMeta(
        task=p.task,
        labels=list(p.labels),
        pos_label=p.pos_label,
        n_rows=len(p),
        repeat_ids=None if p.repeats is None else p.repeat_ids,
        fold_ids=list(p.fold_ids),
        design=p.design_info(),
        has_pred=p.pred_codes is not None,
        has_score=p.y_score is not None,
        probabilities=are_probabilities(p.y_score, p.task),
        weights=weights,
        n_cases=p.n_cases,
    )


class RepeatTables(NamedTuple):
    """One repeat of a cross-validation reduced to what its measures need."""

    fold_ids: np.ndarray  #: the sorted fold ids
    fold_codes: np.ndarray  #: each row's fold, 0..k-1
    rows: np.ndarray | slice  #: the repeat's rows in the predictions
    sizes: np.ndarray  #: rows per fold
    true_counts: np.ndarray  #: (k, q) rows per fold and label (binary: 0 the negatives, 1 the positives)
    weights: np.ndarray | None  #: the repeat's sample weights, scaled by a power of two (None: unweighted)
    totals: LabelTotals | None  #: per-label totals of each fold (weighted with weights), (k, q)
    row_totals: LabelTotals | None  #: the same counting rows, for folds' sizes and supports (None if unweighted)
    ranking: list[FoldRanking] | None  #: per label (binary: one): per-fold, merged and leave-one-fold-out values
    scoring: FoldScoringSums | None  #: per-fold sums of the log loss and the Brier score
    prediction_auc: float  #: binary: AUC of the scores for the predicted labels (NaN if undefined or not computed)
    severity_ratio: float | None = None  #: the H-measure's severity ratio r (None: no H computed)
    no_jackknife: str | None = None  #: why the merged rankings' leave-one-fold-out values were not computed


def train_weights(p: CVPredictions | ResultMeta, train: Mapping[Hashable, float] | None) -> np.ndarray | None:
    """The training frequencies in label order, each label covered and summing to 1 (Van Asch eq. 10, §3.3)."""
    if train is None:
        return None
    if p.task == "binary":
        raise ParameterValueError(
            "train_frequencies is for multi-class and multi-label predictions (lfb, Van Asch §3.3); a binary task "
            "has no label average",
            param="train_frequencies",
        )
    missing = [lab for lab in p.labels if lab not in train]
    extra = [lab for lab in train if lab not in set(p.labels)]
    if missing or extra:
        raise ParameterValueError(
            f"train_frequencies must give every label of the task ({p.labels[:10]}) and no other: "
            f"missing {missing[:5]}, extra {extra[:5]}",
            param="train_frequencies",
        )
    weights = np.array([float(train[lab]) for lab in p.labels])
    if abs(math.fsum(weights.tolist()) - 1.0) > 1e-9:
        raise ParameterValueError(
            f"train_frequencies must sum to 1 (relative frequencies, Van Asch eq. 10), they sum to {weights.sum()!r}",
            param="train_frequencies",
        )
    return weights


def are_probabilities(scores: np.ndarray | None, task: str) -> bool:
    """Whether the scores read as probabilities: binary, the positive label's in [0, 1]; multi-class, one column
    per label in [0, 1] with rows summing to 1 (to 1e-6, as a classifier's ``predict_proba`` gives them)."""
    if scores is None or scores.size == 0 or scores.dtype.kind not in "biuf":
        return False
    if not (np.isfinite(scores).all() and scores.min() >= 0 and scores.max() <= 1):
        return False
    if task == "binary":
        return scores.ndim == 1
    if task == "multiclass":
        return scores.ndim == 2 and bool(np.all(np.abs(scores.sum(axis=1) - 1.0) <= 1e-6))
    return False


def _eps(eps: float | str | None, prob: np.ndarray) -> float | None:
    """The log loss's clipping: None, a number, or "auto" (the machine epsilon of the probabilities' dtype, as
    scikit-learn's ``log_loss`` clips)."""
    if eps == "auto":
        return float(np.finfo(prob.dtype if prob.dtype.kind == "f" else np.float64).eps)
    return None if eps is None else float(eps)


def _severity_ratio(p: CVPredictions, w: np.ndarray | None, severity_ratio: float | None) -> float:
    """The H-measure's severity ratio r: the given one, or π1/π0 of all the predictions (weighted)."""
    if severity_ratio is None:
        positive = p.truth_codes == 1
        pos = float(positive.sum()) if w is None else float(np.sum(np.where(positive, w, 0.0)))
        total = float(len(p)) if w is None else float(np.sum(w))
        neg = total - pos
        severity_ratio = pos / neg if pos > 0 and neg > 0 else 1.0
    return severity_ratio


#: Rows counted at a time: the working memory of the totals and the scoring sums.
BLOCK = 1 << 20


def _added(a: LabelTotals, b: LabelTotals) -> LabelTotals:
    """Totals of counts of two blocks of rows, added (exact)."""
    exact = None if a.exact is None or b.exact is None else a.exact + b.exact
    return LabelTotals(a.tp + b.tp, a.fp + b.fp, a.fn + b.fn, a.n + b.n, exact)


#: The leave-one-fold-out merged rankings of a repeat with many folds cost about folds x cases steps, each fold a
#: pass in Python (a leave-one-out jackknife of 10,000 cases took 23 s, of 100,000 cases in 2,000 folds 13.5 s on
#: the 2-core machine); past this bound, with more than ``JACKKNIFE_MANY_FOLDS`` folds, the jackknife is left out
#: and the merged ranking values get no interval, with the reason.
JACKKNIFE_MAX_STEPS = 5 * 10**7
JACKKNIFE_MANY_FOLDS = 100


def jackknife_too_long(k: int, n: int) -> str | None:
    """Why a repeat of ``k`` folds over ``n`` cases gets no leave-one-fold-out merged ranking values (None: it does)."""
    if k <= JACKKNIFE_MANY_FOLDS or k * n <= JACKKNIFE_MAX_STEPS:
        return None
    return (
        f"the leave-one-fold-out jackknife of the merged ranking over {k:,} folds of {n:,} cases would take "
        f"{k * n:,} steps, more than the limit of {JACKKNIFE_MAX_STEPS:,}: use fewer folds (k-fold instead of "
        "leave-one-out), or the 'avg' aggregation"
    )


def fold_tables(
    p: CVPredictions | CVSummary,
    measures: Sequence[Measure],
    *,
    jackknife: bool = True,
    severity_ratio: float | None = None,
    eps: float | str | None = None,
) -> list[RepeatTables]:
    """The fold tables of every repeat that the ``measures`` need (in the sorted order of the repeat ids).

    ``jackknife``: compute the leave-one-fold-out merged ranking values (the intervals of merged values need
    them; O(folds × cases) for average precision and H). ``severity_ratio``: the H-measure's, None for the
    class proportions of all the predictions (stated in the report). ``eps``: the log loss's clipping.
    """
    if isinstance(p, CVSummary):
        return _summary_tables(p, measures, severity_ratio, eps)
    families = {m.family for m in measures}
    want_counts = bool(families & {"counts", "f_measure"}) and p.pred_codes is not None
    ranking_fields = {m.kernel for m in measures if m.family == "ranking"}
    want_ranking = bool(ranking_fields) and p.y_score is not None
    want_scoring = "scoring" in families and are_probabilities(p.y_score, p.task)
    w_all = None if p.sample_weight is None else scaled_weights(np.asarray(p.sample_weight, dtype=float))
    ratio = _severity_ratio(p, w_all, severity_ratio) if "h" in ranking_fields and p.task == "binary" else None
    h_prior = None if ratio is None else (2.0, 1.0 + 1.0 / ratio)
    q = 2 if p.task == "binary" else len(p.labels)
    out = []
    for r in range(p.n_repeats):
        rows = p.rows(r)
        fold = p.fold_codes[r]
        k = p.fold_ids[r].size
        truth = p.truth_codes[rows]
        w = None if w_all is None else w_all[rows]
        blocks = [slice(i, i + BLOCK) for i in range(0, fold.size, BLOCK)]
        totals = row_totals = None
        if want_counts:
            assert p.pred_codes is not None
            pred = p.pred_codes[rows]
            for b in blocks:  # block by block (the memory of a block), the sums continued: the bits of one call
                wb = None if w is None else w[b]
                if p.task == "multilabel":
                    part = multilabel_totals(fold[b], truth[b], pred[b], k)
                    totals = part if totals is None else _added(totals, part)
                else:
                    totals = label_totals(fold[b], truth[b], pred[b], k, q, weights=wb, start=totals)
                    if w is not None:
                        row_totals = label_totals(fold[b], truth[b], pred[b], k, q, start=row_totals)
        ranking = None
        prediction_auc = float("nan")
        too_long = jackknife_too_long(k, fold.size) if want_ranking and jackknife else None
        if want_ranking:
            assert p.y_score is not None
            s = p.y_score[rows]
            # rows of weight 0 are left out of the ranking, as scikit-learn's _binary_clf_curve does
            keep = slice(None) if w is None or w.all() else w > 0
            wk = None if w is None else w[keep]
            if p.task == "binary":
                positive = truth == 1
                other = None if p.pred_codes is None else p.pred_codes[rows][keep] == 1
                ranking = [
                    fold_ranking(
                        positive[keep],
                        s[keep],
                        fold[keep],
                        k,
                        weights=wk,
                        other=other,
                        h_prior=h_prior,
                        jackknife=jackknife and too_long is None,
                    )
                ]
                prediction_auc = ranking[0].other_auc_merge
            else:
                multi = p.task == "multilabel"
                ranking = [
                    fold_ranking(
                        (truth[:, j] if multi else truth == j)[keep],
                        s[keep, j],
                        fold[keep],
                        k,
                        weights=wk,
                        jackknife=jackknife and too_long is None,
                    )
                    for j in range(q)
                ]
        scoring = None
        if want_scoring:
            assert p.y_score is not None
            prob = p.y_score[rows]
            clip = _eps(eps, prob)
            for b in blocks:
                wb = None if w is None else w[b]
                scoring = fold_scoring_sums(truth[b], prob[b].astype(np.float64), fold[b], k, wb, clip, scoring)
        sizes = np.zeros(k, dtype=np.int64)
        true_counts = np.zeros((k, q), dtype=np.int64)
        for b in blocks:
            fb = fold[b].astype(np.intp)
            sizes += np.bincount(fb, minlength=k)
            if p.task == "multilabel":
                true_counts += np.stack(
                    [np.bincount(fb, weights=truth[b, j], minlength=k) for j in range(q)], 1
                ).astype(np.int64)
            else:
                true_counts += np.bincount(fb * q + truth[b], minlength=k * q).reshape(k, q)
        out.append(
            RepeatTables(
                fold_ids=p.fold_ids[r],
                fold_codes=fold,
                rows=rows,
                sizes=sizes,
                true_counts=true_counts,
                weights=w,
                totals=totals,
                row_totals=row_totals,
                ranking=ranking,
                scoring=scoring,
                prediction_auc=prediction_auc,
                severity_ratio=ratio,
                no_jackknife=too_long,
            )
        )
    return out


def _summary_tables(
    s: CVSummary, measures: Sequence[Measure], severity_ratio: float | None, eps: float | str | None
) -> list[RepeatTables]:
    """The fold tables of a summary (what :func:`fold_tables` computes from the rows, kept from the blocks)."""
    families = {m.family for m in measures}
    if "predictions" in families:
        raise ParameterValueError(
            "measures: a measure of the rows themselves (family 'predictions') needs the rows, and a CVSummary keeps "
            "none: summarise with apples.CVPredictions, or use a measure of the counts (apples.measures.from_counts)",
            param="measures",
        )
    want_counts = bool(families & {"counts", "f_measure"}) and s.has_pred
    ranking_fields = {m.kernel for m in measures if m.family == "ranking"}
    want_ranking = bool(ranking_fields) and s.has_score
    want_scoring = "scoring" in families and s.probabilities
    if want_scoring and eps not in s.eps:
        raise ParameterValueError(
            f"eps={eps!r}: this summary's log loss was summed unclipped (None), at 'auto' and at "
            f"{[e for e in s.eps if isinstance(e, float)] or 'no other eps'}; summarise with eps= to clip otherwise",
            param="eps",
        )
    ratio = None
    if "h" in ranking_fields and s.task == "binary":
        ratio = severity_ratio
        if ratio is None:
            pos, total = s.severity
            neg = total - pos
            ratio = pos / neg if pos > 0 and neg > 0 else 1.0
    h_prior = None if ratio is None else (2.0, 1.0 + 1.0 / ratio)
    out = []
    for rep in s.repeats:
        ranking = None
        prediction_auc = float("nan")
        if want_ranking:
            assert rep.rankings is not None
            ranking = [FoldRanking(**acc.result(h_prior)) for acc in rep.rankings]
            if s.task == "binary":
                prediction_auc = ranking[0].other_auc_merge
        out.append(
            RepeatTables(
                fold_ids=rep.fold_ids,
                fold_codes=np.zeros(0, dtype=np.int8),
                rows=slice(0, 0),
                sizes=rep.sizes,
                true_counts=rep.true_counts,
                weights=None,
                totals=rep.totals if want_counts else None,
                row_totals=rep.row_totals if want_counts else None,
                ranking=ranking,
                scoring=rep.scoring[eps] if want_scoring else None,
                prediction_auc=prediction_auc,
                severity_ratio=ratio,
            )
        )
    return out
