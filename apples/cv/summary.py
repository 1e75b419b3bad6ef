"""Cross-validated predictions too large for memory, summarised exactly: :class:`CVSummary`.

Predictions of a large model evaluated by cross-validation (click logs, screening) run to 10^8 rows and beyond.
:class:`CVSummary` reads them once, block by block (pandas DataFrames from a chunked reader, the partitions of a
dask DataFrame), with the checks :class:`~apples.CVPredictions` makes, and keeps what :func:`apples.report`
computes every value and interval from: per repeat, each fold's per-label totals (TP, FP, FN, size) and the sums of
the proper scoring rules, which add across blocks; and the rankings (ROC AUC, average precision, H per fold, merged,
and merged without each fold), for which one global score order is needed: the rows go to files of score ranges on
disk, each sorted alone in memory and walked in increasing score order, what lies below carried from bucket to
bucket (:mod:`apples._kernels.rank_buckets`). The values are those of the same rows in memory: integers exactly,
floats to rounding (1e-12 relative); the counts, totals and scoring sums of :meth:`CVSummary.from_frames` are the
in-memory ones bit for bit (summed row after row in the same order).

Costs (n rows, q score columns): one pass over the input; the rows' checked columns written once to a temporary
directory (a byte a row for labels and fold ids, 8 for a score) and read back once, each ranking's rows written to
its buckets (14 bytes a row) and read back once, the files removed as they are read; memory of one block and one
bucket (``bucket_rows``, about 150 bytes a row while it is sorted), whatever n. What is not kept is refused by
name: a measure of the rows themselves (:func:`apples.measures.from_predictions`), the log loss at a clipping not
summed (``eps=``). The passes are :mod:`apples.cv._summarise`'s (and :mod:`apples.cv._summary_dask`'s).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

import numpy as np

from apples._kernels.rank_buckets import BucketRanking
from apples._kernels.totals import LabelTotals
from apples._params import LABEL, LABEL_SET, Instance, Integer, Nullable, ParameterValueError, declare
from apples.cv._chunks import Plan
from apples.cv.predictions import CVPredictions

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "CVSummary",
]

#: Rows of one bucket of scores (sorted in memory at a time): about 150 bytes a row while it is sorted.
BUCKET_ROWS = 1 << 21


class RepeatSummary(NamedTuple):
    """One repeat reduced to what a report reads: the fold tables' inputs, without the rows."""

    fold_ids: np.ndarray
    sizes: np.ndarray  #: rows per fold
    true_counts: np.ndarray  #: (k, q) rows per fold and label
    totals: LabelTotals | None  #: per-label totals of each fold (weighted with weights)
    row_totals: LabelTotals | None  #: the same counting rows (weighted predictions only)
    scoring: dict  #: eps key (None, "auto", a float) -> FoldScoringSums
    rankings: list[BucketRanking] | None  #: per label (binary: one), H computable under any prior


class CVSummary:
    """Cross-validated predictions summarised block by block: everything :func:`apples.report` reads, without the rows.

    Build one with :meth:`from_frames` (an iterable of pandas DataFrames: ``pd.read_csv(..., chunksize=)``, the
    files of a directory) or :meth:`from_dask` (a dask DataFrame, on a cluster); pass it to :func:`apples.report`
    as you would a :class:`~apples.CVPredictions`. Its values equal those of the same rows in a
    :class:`~apples.CVPredictions` (integers exactly, floats to 1e-12 relative), and so does every interval (each
    is the corrected t over per-fold points, fold values or jackknife pseudo-values, which need the tables only).

    Attributes
    ----------
    task : {"binary", "multiclass", "multilabel"}
    labels : list
    pos_label : label or None
    n_rows : int
    repeat_ids : array or None
        The sorted repeat ids (None: no repeats given).
    fold_ids : list of arrays
        Each repeat's sorted fold ids.
    design : str
        As :attr:`apples.CVPredictions.design`.
    has_pred, has_score, probabilities : bool
        Predicted labels given; scores given; the scores are probabilities (their log loss and Brier score are kept).
    weights : (float, int) or None
        The mean weight and the rows of weight 0 (None: unweighted).
    n_cases : int or None
    eps : tuple
        The log loss clippings summed: None (unclipped), "auto", and the ``eps=`` given.

    Examples
    --------
    >>> import pandas as pd
    >>> from apples import report
    >>> from apples.cv import CVSummary
    >>> frame = pd.DataFrame({"y": [1, 0, 1, 1, 0, 0], "fold": [0, 0, 0, 1, 1, 1], "p": [1, 0, 0, 1, 1, 0]})
    >>> s = CVSummary.from_frames([frame[:4], frame[4:]], y_true="y", folds="fold", y_pred="p")
    >>> s
    <CVSummary binary, positive label 1: 6 rows, 2 folds (k-fold)>
    >>> report(s).value("f_measure", "tp_fp")
    0.6666666666666666
    """

    def __init__(
        self,
        plan: Plan,
        repeats: list[RepeatSummary],
        *,
        weights: tuple[float, int] | None,
        n_cases: int | None,
        design_info: dict[str, Any],
        severity: tuple[float, float],
        eps: tuple,
    ) -> None:
        self.task: Literal["binary", "multiclass", "multilabel"] = plan.task
        self.labels = list(plan.labels)
        self.pos_label = plan.pos_label
        self.n_rows = plan.n_rows
        self.repeat_ids = plan.repeat_ids
        self.fold_ids = list(plan.fold_ids)
        self.design = plan.design
        self.has_pred = repeats[0].totals is not None
        self.has_score = repeats[0].rankings is not None
        self.probabilities = plan.probabilities
        self.weights = weights
        self.n_cases = n_cases
        self.eps = eps
        self.repeats = repeats
        self.severity = severity  #: (positives, all) rows or weights, for the H-measure's default severity ratio
        self._design_info = design_info

    @property
    def n_repeats(self) -> int:
        """The number of repeats (1 without repeats)."""
        return 1 if self.repeat_ids is None else int(self.repeat_ids.size)

    def design_info(self) -> dict[str, Any]:
        """What the splits were, as :meth:`apples.CVPredictions.design_info` gives it."""
        return dict(self._design_info)

    def __len__(self) -> int:
        return self.n_rows

    def __repr__(self) -> str:
        what = f"positive label {self.pos_label!r}" if self.task == "binary" else f"{len(self.labels)} labels"
        folds = "/".join(str(ids.size) for ids in self.fold_ids[:3]) + ("/..." if self.n_repeats > 3 else "")
        repeats = f", {self.n_repeats} repeats" if self.repeat_ids is not None else ""
        repeats += ", weighted" if self.weights is not None else ""
        return f"<CVSummary {self.task}, {what}: {self.n_rows} rows, {folds} folds{repeats} ({self.design})>"

    @classmethod
    @declare(labels=Nullable(LABEL_SET), pos_label=Nullable(LABEL), n_cases=Nullable(Integer(1, 2**53)))
    def from_frames(
        cls,
        frames: Iterable[pd.DataFrame],
        *,
        y_true: str | Sequence[str] = "y_true",
        folds: str = "fold",
        y_pred: str | Sequence[str] | None = None,
        y_score: str | Sequence[str] | None = None,
        repeats: str | None = None,
        cases: str | None = None,
        sample_weight: str | None = None,
        labels: Sequence[Hashable] | None = None,
        pos_label: Hashable | None = None,
        n_cases: int | None = None,
        eps: float | None = None,
        bucket_rows: int = BUCKET_ROWS,
        tmp_dir: str | Path | None = None,
    ) -> CVSummary:
        """Summarise predictions read as DataFrames, one block after another, in one pass.

        Parameters
        ----------
        frames : iterable of pandas.DataFrame
            Blocks of rows, each with the columns named below (``pd.read_csv(path, chunksize=10**6)``, a generator
            over files). Read once.
        y_true, folds, y_pred, y_score, repeats, cases, sample_weight : column names
            As the arguments of :class:`~apples.CVPredictions` (:meth:`~apples.CVPredictions.from_frame`):
            ``y_score`` a list of columns for one score per label; ``y_true`` and ``y_pred`` lists of 0/1 columns
            for multi-label indicator data.
        labels, pos_label, n_cases : as :class:`~apples.CVPredictions`
        eps : float, optional
            A log loss clipping to sum besides None and "auto" (a report may then ask for ``eps=`` any of them).
        bucket_rows : int
            Rows of one bucket of scores sorted in memory (the working memory: about 150 bytes a row).
        tmp_dir : path, optional
            Where the temporary directory goes (default: the system's); it is removed at the end.

        Returns
        -------
        CVSummary

        Raises
        ------
        ValueError, TypeError
            As :class:`~apples.CVPredictions` does, naming the argument (the column's), with positions counted
            over all the blocks; a column missing from a block; labels of two kinds in different blocks.
        """
        columns = {
            "y_true": y_true,
            "folds": folds,
            "y_pred": y_pred,
            "y_score": y_score,
            "repeats": repeats,
            "cases": cases,
            "sample_weight": sample_weight,
        }
        from apples.cv._summarise import Builder

        with Builder(labels, pos_label, n_cases, eps, bucket_rows, tmp_dir) as builder:
            for frame in frames:
                builder.add(arrays_of(frame, columns))
            return builder.finish()

    @classmethod
    @declare(labels=Nullable(LABEL_SET), pos_label=Nullable(LABEL), n_cases=Nullable(Integer(1, 2**53)))
    def from_dask(
        cls,
        frame: Any,
        *,
        y_true: str | Sequence[str] = "y_true",
        folds: str = "fold",
        y_pred: str | Sequence[str] | None = None,
        y_score: str | Sequence[str] | None = None,
        repeats: str | None = None,
        cases: str | None = None,
        sample_weight: str | None = None,
        labels: Sequence[Hashable] | None = None,
        pos_label: Hashable | None = None,
        n_cases: int | None = None,
        eps: float | None = None,
        bucket_rows: int = BUCKET_ROWS,
    ) -> CVSummary:
        """Summarise the predictions of a dask DataFrame on its cluster (the dask extra: ``pip install
        "apples[scale]"``).

        The partitions are checked and summed where they are (counts and scoring sums come back to the client,
        a few numbers each); each ranking's rows are moved to partitions of score ranges (a dask shuffle), each
        partition sorted on its worker and summarised with what lies below it (a first pass over the shuffled
        partitions gives each one's totals, a second its sums and hull points). The arguments are those of
        :meth:`from_frames` (``bucket_rows``: the rows of one partition of the shuffled ranking rows). The values
        equal those in memory: integers exactly, floats to rounding.
        """
        from apples.cv._summary_dask import summarise_dask

        columns = {
            "y_true": y_true,
            "folds": folds,
            "y_pred": y_pred,
            "y_score": y_score,
            "repeats": repeats,
            "cases": cases,
            "sample_weight": sample_weight,
        }
        return summarise_dask(frame, columns, labels, pos_label, n_cases, eps, bucket_rows)


def arrays_of(frame: pd.DataFrame, columns: dict[str, Any]) -> dict[str, Any]:
    """The arguments of :class:`~apples.CVPredictions` from a block's columns (a missing one named)."""

    def column(name: str, option: str) -> Any:
        if name not in frame.columns:
            raise ParameterValueError(
                f"{option}={name!r} is not a column of the block; its columns are {list(frame.columns)[:20]}",
                param=option,
            )
        return frame[name]

    out: dict[str, Any] = {}
    for option, name in columns.items():
        if name is None:
            out[option] = None
        elif isinstance(name, str):
            out[option] = column(name, option)
        else:
            out[option] = np.column_stack([np.asarray(column(c, option)) for c in name])
    return out


#: The kind of a parameter that takes a cross-validated result: in memory, or summarised from blocks.
CV_RESULT = Instance(
    (CVPredictions, CVSummary),  # type: ignore[arg-type]
    hint="apples.CVPredictions(y_true, folds=..., y_pred=..., y_score=...), or apples.cv.CVSummary.from_frames(...)",
    what="an apples.CVPredictions or an apples.cv.CVSummary",
)
