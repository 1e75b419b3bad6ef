"""The rows of one ranking (a repeat, a label) cut into buckets of score ranges on disk, and walked in increasing
score order into a :class:`~apples._kernels.rank_buckets.BucketRanking`: an exact sort in bounded memory.

Rows are appended to their bucket's file (numpy records, in the order they come) as blocks are read; the buckets'
boundaries are quantiles of a sample of the scores, a score frequent enough to fill a bucket alone getting a bucket
of its own. Each bucket is then read back alone: one score only (a tie group, however large) is counted fold by fold
without sorting (:meth:`BucketRanking.add_group`); a bucket that fits is sorted in memory (stably: tied rows keep
their order, so sums of weights are summed as in memory) and added in chunks of whole tie groups; a bucket larger
than that (a sample that missed) is cut again by its own quantiles.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np

from apples._kernels.rank_buckets import BucketRanking
from apples._kernels.ranking import CHUNK, tie_chunks

__all__: list[str] = []  # private: apples.cv.summary's ranking on disk

#: Scores read at a time from a bucket's file.
_READ = 1 << 20


def boundaries(sample: np.ndarray, n_buckets: int) -> np.ndarray:
    """Sorted distinct boundaries cutting scores like ``sample`` into about ``n_buckets`` buckets: bucket i holds
    the scores s with ``b[i-1] <= s < b[i]``. A score holding at least half a bucket of the sample gets a bucket
    of its own (``[v, next(v))``).

    Ten scores in three buckets: cuts at positions 3 and 6 (0.2 and 0.3); 0.2, half the scores, alone in a bucket.

    >>> boundaries(np.array([0.1, 0.2, 0.2, 0.2, 0.2, 0.2, 0.3, 0.4, 0.5, 0.9]), 3).tolist()
    [0.2, 0.20000000000000004, 0.3]
    """
    s = np.sort(sample)
    if s.size == 0 or n_buckets < 2:
        return s[:0]
    cuts = s[(np.arange(1, n_buckets) * s.size) // n_buckets]
    values, counts = np.unique(s, return_counts=True)
    heavy = values[counts * 2 * n_buckets >= s.size]
    return np.unique(np.concatenate([cuts, heavy, _next(heavy)]))


def _next(v: np.ndarray) -> np.ndarray:
    """The next representable score after each of ``v`` (integers: v + 1, the largest kept as it is)."""
    if v.dtype.kind == "f":
        return np.nextafter(v, np.inf)
    top = np.iinfo(v.dtype).max
    return np.where(v < top, v + (v < top), v)


class RankingSpill:
    """One ranking's rows in bucket files under ``directory``: :meth:`add` blocks of rows, then :meth:`walk`."""

    def __init__(
        self, directory: Path, bounds: np.ndarray, score_dtype: np.dtype, *, weighted: bool, other: bool
    ) -> None:
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)
        self.bounds = bounds
        fields: list[tuple[str, type | np.dtype]] = [("s", score_dtype), ("f", np.int32), ("p", np.bool_)]
        if other:
            fields.append(("o", np.bool_))
        if weighted:
            fields.append(("w", np.float64))
        self.dtype = np.dtype(fields)
        self.weighted, self.other = weighted, other
        self.rows = np.zeros(bounds.size + 1, dtype=np.int64)

    def _path(self, b: int) -> Path:
        return self.directory / f"{b}.bin"

    def add(
        self,
        score: np.ndarray,
        positive: np.ndarray,
        fold: np.ndarray,
        weight: np.ndarray | None = None,
        other: np.ndarray | None = None,
    ) -> None:
        """Append rows (in their order) to the files of their buckets."""
        rec = np.empty(score.size, dtype=self.dtype)
        rec["s"], rec["f"], rec["p"] = score, fold, positive
        if self.other:
            rec["o"] = other
        if self.weighted:
            rec["w"] = weight
        self._scatter(rec)

    def _scatter(self, rec: np.ndarray) -> None:
        bucket = np.searchsorted(self.bounds, rec["s"], side="right")
        order = np.argsort(bucket, kind="stable")  # grouped by bucket, each in the rows' order
        counts = np.bincount(bucket, minlength=self.bounds.size + 1)
        self.rows += counts
        ends = np.cumsum(counts)
        rec = rec[order]
        for b in np.flatnonzero(counts).tolist():
            with open(self._path(b), "ab") as fh:
                rec[ends[b] - counts[b] : ends[b]].tofile(fh)

    def walk(self, acc: BucketRanking, limit: int) -> None:
        """Add every bucket to ``acc`` in increasing score order, sorting at most ``limit`` rows at a time; the files
        are deleted as they are read."""
        for b in np.flatnonzero(self.rows).tolist():
            self._bucket(self._path(b), acc, limit)
        shutil.rmtree(self.directory, ignore_errors=True)

    def _bucket(self, path: Path, acc: BucketRanking, limit: int) -> None:
        data = np.memmap(path, dtype=self.dtype, mode="r")
        n = data.size
        lo = hi = data["s"][0]
        for i in range(0, n, _READ):
            part = data["s"][i : i + _READ]
            lo, hi = min(lo, part.min()), max(hi, part.max())
        if lo == hi:
            self._tie_group(data, acc)
        elif n <= limit:
            rec = np.array(data)
            order = np.argsort(rec["s"], kind="stable") if self.weighted else np.argsort(rec["s"])
            rec = rec[order]
            s = rec["s"]
            for a, z in tie_chunks(s, np.arange(n), CHUNK):
                part = rec[a:z]
                acc.add(
                    part["s"],
                    part["p"],
                    part["f"],
                    part["w"] if self.weighted else None,
                    part["o"] if self.other else None,
                )
        else:  # a bucket the sample missed: cut it again by its own quantiles
            sample = np.array(data["s"][:: max(1, n // (1 << 16))])
            bounds = boundaries(sample, -(-n // limit) * 2)
            if bounds.size == 0 or bounds[-1] < hi:
                bounds = np.unique(np.append(bounds, hi))
            sub = RankingSpill(
                path.with_suffix(".d"), bounds, self.dtype["s"], weighted=self.weighted, other=self.other
            )
            for i in range(0, n, _READ):
                sub._scatter(np.array(data[i : i + _READ]))
            del data
            sub.walk(acc, limit)
        path.unlink(missing_ok=True)

    def _tie_group(self, data: np.ndarray, acc: BucketRanking) -> None:
        """A bucket of one score: its positives and negatives fold by fold (and the second indicator's)."""
        k = acc.k
        dt = np.float64 if self.weighted else np.int64
        pos, neg = np.zeros(k, dt), np.zeros(k, dt)
        o_pos = o_neg = dt(0)
        for i in range(0, data.size, _READ):
            part = np.array(data[i : i + _READ])
            w = part["w"] if self.weighted else None
            p = part["p"]
            f = part["f"].astype(np.intp)
            if w is None:
                pos += np.bincount(f[p], minlength=k)
                neg += np.bincount(f[~p], minlength=k)
            else:
                pos += np.bincount(f, weights=np.where(p, w, 0.0), minlength=k)
                neg += np.bincount(f, weights=np.where(p, 0.0, w), minlength=k)
            if self.other:
                o = part["o"]
                if w is None:
                    o_pos, o_neg = o_pos + int(o.sum()), o_neg + int((~o).sum())
                else:
                    o_pos, o_neg = o_pos + float(np.sum(w[o])), o_neg + float(np.sum(w[~o]))
        acc.add_group(pos, neg, o_pos, o_neg)
