"""The binary problems of cross-validated predictions, the repeats to read, and each label's reliability bins:
what the per-fold curves (:mod:`apples.plotting.curves`), the reliability diagram and
:func:`apples.cv.reliability_table` draw from.

A binary task is one problem, its positive label against the other. A multi-class or multi-label task is one
problem per label, that label against the rest (one-vs-rest: Fawcett 2006 §9, "class reference formulation"),
scored by the label's column of ``y_score``. Each repeat is read on its own: its folds, its rows, its weights.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, NamedTuple

import numpy as np

from apples._kernels.scoring_rules import FoldScoringRules, Reliability, bin_edges, fold_scoring_rules, reliability
from apples._params import ParameterValueError
from apples.cv.predictions import CVPredictions

__all__: list[str] = []


class BinaryProblem(NamedTuple):
    """One label against the rest: which rows are positive, and each row's score of that label."""

    label: Hashable  #: the label taken as positive
    positive: np.ndarray  #: bool, one per row of the predictions
    score: np.ndarray  #: the label's score (or probability), one per row
    one_vs_rest: bool  #: whether the task has more labels than this one and its complement


class RepeatFolds(NamedTuple):
    """One repeat's rows with weight, their folds and weights (rows of weight 0 left out, as scikit-learn's
    ``roc_curve`` leaves them out: they count nothing)."""

    number: int  #: the repeat's number (0, 1, ... in the sorted order of the repeat ids)
    repeat: Any  #: the repeat's id
    rows: np.ndarray  #: the rows of the predictions (with positive weight), in the repeat's order
    fold_codes: np.ndarray  #: the fold code of each of those rows, 0 .. n_folds - 1
    fold_ids: list  #: the fold ids, in code order
    weights: np.ndarray | None  #: the weight of each of those rows (None: unweighted)


def _plain(x: Any) -> Any:
    return x.item() if isinstance(x, np.generic) else x


def same_label(a: object, b: object) -> bool:
    """Whether two labels are the same label: equal, and both strings, both bools or both numbers."""
    kinds = (isinstance(a, str), isinstance(b, str), isinstance(a, bool), isinstance(b, bool))
    return bool(a == b) and kinds[0] == kinds[1] and kinds[2] == kinds[3]


def binary_problems(p: CVPredictions, label: Hashable | None, *, probabilities: bool) -> list[BinaryProblem]:
    """The binary problems of ``p``: its positive label (binary), or every label (``label=None``) or one label
    against the rest (multi-class, multi-label). ``probabilities``: each score must be in [0, 1]."""
    if p.y_score is None:
        raise ParameterValueError(
            "predictions have no y_score: curves and calibration need each case's score (give y_score, e.g. "
            "apples.cross_val_predictions(..., method='predict_proba'))",
            param="predictions",
        )
    score = np.asarray(p.y_score)
    if p.task == "binary":
        if label is not None and not same_label(label, p.pos_label):
            raise ParameterValueError(
                f"label={label!r}: these binary predictions score the positive label {p.pos_label!r} only, so its "
                "curve is the only one (for the other label's, give both labels' scores as a multi-class task)",
                param="label",
            )
        problems = [BinaryProblem(p.pos_label, p.truth_codes == 1, score, False)]
    else:
        columns = range(len(p.labels))
        if label is not None:
            found = [j for j in columns if same_label(p.labels[j], label)]
            if not found:
                raise ParameterValueError(
                    f"label={label!r} is not a label of these predictions; their labels are {p.labels[:10]}",
                    param="label",
                )
            columns = range(found[0], found[0] + 1)
        truth = p.truth_codes
        problems = [
            BinaryProblem(
                _plain(p.labels[j]), truth[:, j].astype(bool) if truth.ndim == 2 else truth == j, score[:, j], True
            )
            for j in columns
        ]
    if probabilities:
        for problem in problems:
            s = np.asarray(problem.score, dtype=np.float64)
            bad = np.flatnonzero(~((s >= 0.0) & (s <= 1.0)))
            if bad.size:
                i = int(bad[0])
                what = f"label {problem.label!r}'s " if problem.one_vs_rest else "the positive label's "
                raise ParameterValueError(
                    f"predictions.y_score must be {what}probability, in [0, 1]; got {float(s[i])!r} at row {i}",
                    param="predictions",
                )
    return problems


def repeat_folds(p: CVPredictions, repeat: Hashable | None, weights: np.ndarray | None) -> list[RepeatFolds]:
    """The repeats to read: every repeat of ``p``, or the one whose id is ``repeat``; each repeat's rows of
    positive weight (``weights``: one per row of ``p``, its ``sample_weight`` or None) and their folds. A fold
    whose weights sum to 0 is refused, naming ``sample_weight``."""
    ids = [_plain(r) for r in p.repeat_ids.tolist()]
    if repeat is None:
        chosen = range(len(ids))
    else:
        found = [r for r, rid in enumerate(ids) if same_label(rid, repeat)]
        if not found:
            where = "" if p.repeats is not None else " (the predictions have no repeats=: their one repeat is 0)"
            raise ParameterValueError(
                f"repeat={repeat!r} is not a repeat of these predictions; their repeats are {ids[:10]}{where}",
                param="repeat",
            )
        chosen = range(found[0], found[0] + 1)
    parts = []
    for r in chosen:
        rows = p.rows(r)
        rows = np.arange(len(p))[rows] if isinstance(rows, slice) else np.asarray(rows)
        codes = p.fold_codes[r]
        fold_ids = [_plain(v) for v in p.fold_ids[r].tolist()]
        w = None if weights is None else np.asarray(weights, dtype=np.float64)[rows]
        if w is not None:
            total = np.bincount(codes, weights=w, minlength=len(fold_ids))
            empty = np.flatnonzero(~(total > 0))
            if empty.size:
                where = f" of repeat {ids[r]!r}" if p.repeats is not None else ""
                raise ParameterValueError(
                    f"sample_weight sums to 0 in fold {fold_ids[int(empty[0])]!r}{where}: no case of the fold counts",
                    param="sample_weight",
                )
            keep = w > 0
            rows, codes, w = rows[keep], codes[keep], w[keep]
        parts.append(RepeatFolds(r, ids[r], rows, codes, fold_ids, w))
    return parts


class LabelReliability(NamedTuple):
    """One label's reliability, repeat by repeat (what :func:`reliability_table` tabulates and
    :func:`apples.plotting.plot_reliability` draws)."""

    problem: BinaryProblem
    edges: np.ndarray
    repeats: list[tuple[RepeatFolds, Reliability, FoldScoringRules]]


def label_reliability(problem: BinaryProblem, parts: list[RepeatFolds], n_bins: int, strategy: str) -> LabelReliability:
    """The bins of one label's probabilities (edges over every row read) and each repeat's reliability table and
    scoring rules, each row counting its weight."""
    rows = np.concatenate([part.rows for part in parts])
    edges = bin_edges(np.asarray(problem.score[rows], dtype=np.float64), n_bins, strategy)
    if edges.size < 2:  # quantile edges of predictions that are all equal
        edges = np.array([edges[0], edges[0]])
    out = []
    for part in parts:
        y = problem.positive[part.rows].astype(np.float64)
        prob = np.asarray(problem.score[part.rows], dtype=np.float64)
        k = len(part.fold_ids)
        out.append(
            (
                part,
                reliability(y, prob, part.fold_codes, k, edges, part.weights),
                fold_scoring_rules(y, prob, part.fold_codes, k, part.weights),
            )
        )
    return LabelReliability(problem, edges, out)
