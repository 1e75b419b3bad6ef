"""The passes of :meth:`apples.cv.CVSummary.from_frames`: each block checked and kept on disk; then the result
decided, the blocks read back, coded and summed (totals and scoring sums continued row after row), their rankings'
rows scattered to files of score ranges, and the rankings walked in score order; the case ids counted by hash.
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Callable, Hashable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from apples._kernels.rank_buckets import BucketRanking, rank_totals
from apples._kernels.scoring_rules import fold_scoring_sums
from apples._kernels.totals import LabelTotals, label_totals, multilabel_totals
from apples._params import ParameterValueError
from apples.cv._buckets import RankingSpill, boundaries
from apples.cv._chunks import Coded, Facts, Plan, check_block, code_block, facts_of, plan_of
from apples.cv.summary import CVSummary, RepeatSummary

__all__: list[str] = []  # private: apples.cv.CVSummary.from_frames, the command line, apples.cv._summary_dask


class RepeatSums:
    """One repeat's sums while the blocks are read."""

    def __init__(self, k: int, q: int, weighted: bool, eps: tuple) -> None:
        self.k, self.q = k, q
        self.sizes = np.zeros(k, dtype=np.int64)
        self.true_counts = np.zeros((k, q), dtype=np.int64)
        self.totals: LabelTotals | None = None
        self.row_totals: LabelTotals | None = None
        self.scoring: dict = dict.fromkeys(eps)
        dt = np.float64 if weighted else np.int64
        self.rank_pos = [np.zeros(k, dt) for _ in range(q)]
        self.rank_neg = [np.zeros(k, dt) for _ in range(q)]


class Builder:
    """The passes of :meth:`CVSummary.from_frames`: :meth:`add` each block (checked, its facts merged, its checked
    arrays written to a temporary directory), then :meth:`finish` (the result decided; the blocks read back, coded
    and summed, their rankings scattered to score ranges; the rankings walked)."""

    def __init__(
        self,
        labels: Sequence[Hashable] | None,
        pos_label: Hashable | None,
        n_cases: int | None,
        eps: float | None,
        bucket_rows: int,
        tmp_dir: str | Path | None,
        progress: Callable[[str, int], None] | None = None,
    ) -> None:
        self.labels, self.pos_label, self.n_cases = labels, pos_label, n_cases
        self.eps_values: tuple = (None, "auto") + (() if eps is None else (float(eps),))
        self.bucket_rows = int(bucket_rows)
        self.tmp = tempfile.TemporaryDirectory(prefix="apples-summary-", dir=tmp_dir)
        self.dir = Path(self.tmp.name)
        self.facts = Facts()
        self.blocks: list[Path] = []
        self.has_repeats: bool | None = None
        self.progress = progress

    def __enter__(self) -> Builder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.tmp.cleanup()

    def add(self, arrays: dict[str, Any]) -> None:
        """Check one block (its positions counted after the rows before it) and keep it on disk."""
        block = check_block(arrays, self.facts.n_rows)
        if self.has_repeats is None:
            self.has_repeats = block["repeats"] is not None
        if len(block["y_true"]) == 0:
            return
        self.facts.merge(facts_of(block))
        path = self.dir / f"block{len(self.blocks)}.npz"
        stored: dict[str, Any] = {}
        for key, value in block.items():
            if value is not None:
                stored[key], dtype = _storable(value)
                if dtype is not None:
                    stored[f"{key}.dtype"] = np.array(dtype)
        np.savez(path, **stored)
        self.blocks.append(path)

    def _blocks(self) -> Iterable[dict[str, Any]]:
        names = ("y_true", "folds", "y_pred", "y_score", "repeats", "cases", "sample_weight")
        for i, path in enumerate(self.blocks):
            with np.load(path, allow_pickle=True) as stored:
                block = {
                    name: _restored(stored[name], stored[f"{name}.dtype"] if f"{name}.dtype" in stored.files else None)
                    if name in stored.files
                    else None
                    for name in names
                }
            path.unlink()
            if self.progress is not None:
                self.progress("summing", i)
            yield block

    def finish(self) -> CVSummary:
        """The summary of every block added."""
        plan = plan_of(self.facts, self.labels, self.pos_label, bool(self.has_repeats))
        facts = self.facts
        if self.n_cases is not None and not facts.cases and self.n_cases < plan.n_rows // len(plan.fold_ids):
            raise ParameterValueError(
                f"n_cases={self.n_cases} is below the {plan.n_rows // len(plan.fold_ids)} rows of a repeat",
                param="n_cases",
            )
        q = 2 if plan.task == "binary" else len(plan.labels)
        weighted = facts.weighted
        eps = self.eps_values if plan.probabilities else ()
        states = [RepeatSums(ids.size, q, weighted, eps) for ids in plan.fold_ids]
        n_rank = 1 if plan.task == "binary" else q
        spills: list[list[RankingSpill]] = []
        if facts.has_score:
            assert plan.score_dtype is not None
            per_repeat = plan.n_rows / len(plan.fold_ids)
            n_buckets = max(1, math.ceil(per_repeat / self.bucket_rows))
            bounds = [boundaries(s.astype(plan.score_dtype), n_buckets) for s in facts.sample]
            other = plan.task == "binary" and facts.has_pred
            spills = [
                [
                    RankingSpill(self.dir / f"r{r}_j{j}", bounds[j], plan.score_dtype, weighted=weighted, other=other)
                    for j in range(n_rank)
                ]
                for r in range(len(plan.fold_ids))
            ]
        severity = [0.0, 0.0] if weighted else [0, 0]
        cases = _Cases(self.dir / "cases", plan) if facts.cases else None
        for block in self._blocks():
            coded = code_block(block, plan)
            add_block(coded, plan, states, spills, severity, self.eps_values if plan.probabilities else ())
            if cases is not None:
                cases.add(coded)
        design_info = design_info_of(plan, self.n_cases, cases)
        repeats = []
        for r, state in enumerate(states):
            rankings = None
            if facts.has_score:
                rankings = []
                for j, spill in enumerate(spills[r]):
                    totals = rank_totals(state.rank_pos[j], state.rank_neg[j])
                    acc = BucketRanking(
                        state.k, totals, weighted=weighted, other=spill.other, hull=True, jackknife=True
                    )
                    spill.walk(acc, 2 * self.bucket_rows)
                    acc.compact()
                    rankings.append(acc)
                    if self.progress is not None:
                        self.progress("ranking", r * n_rank + j)
            repeats.append(
                RepeatSummary(
                    plan.fold_ids[r],
                    state.sizes,
                    state.true_counts,
                    state.totals,
                    state.row_totals,
                    state.scoring,
                    rankings,
                )
            )
        mean = None
        if weighted:
            mean = (facts.weight_sum / facts.n_rows, facts.weight_zero)
        return CVSummary(
            plan,
            repeats,
            weights=mean,
            n_cases=self.n_cases,
            design_info=design_info,
            severity=(float(severity[0]), float(severity[1])),
            eps=eps,
        )


def _storable(value: Any) -> tuple[np.ndarray, str | None]:
    """A block's array as np.savez stores it: label sets as an object array of tuples; integers in the narrowest
    dtype that holds them (labels and fold ids read as int64 take a byte), with the dtype to restore."""
    if isinstance(value, list):
        out = np.empty(len(value), dtype=object)
        out[:] = value
        return out, None
    if value.dtype.kind in "iu" and value.size:
        lo, hi = int(value.min()), int(value.max())
        for narrow in (np.int8, np.int16, np.int32):
            info = np.iinfo(narrow)
            if value.dtype.itemsize > info.bits // 8 and info.min <= lo and hi <= info.max:
                return value.astype(narrow), value.dtype.str
    return value, None


def _restored(value: np.ndarray, dtype: np.ndarray | None) -> Any:
    """A stored array as it was given (:func:`_storable`)."""
    if dtype is not None:
        return value.astype(np.dtype(str(dtype)))
    if value.dtype == object and value.size and isinstance(value[0], tuple):
        return value.tolist()
    return value


def add_block(
    coded: Coded,
    plan: Plan,
    states: list[RepeatSums],
    spills: list[list[RankingSpill]],
    severity: list,
    eps: tuple,
) -> None:
    """Add one coded block to every repeat's sums, and its rows to the rankings' buckets."""
    multi = plan.task == "multilabel"
    w_all = coded.weight
    if plan.task == "binary" and w_all is not None:
        severity[0] += float(np.sum(np.where(coded.truth == 1, w_all, 0.0)))
        severity[1] += float(np.sum(w_all))
    elif plan.task == "binary":
        severity[0] += int(np.count_nonzero(coded.truth == 1))
        severity[1] += coded.truth.size
    one = plan.repeat_ids is None
    for r, state in enumerate(states):
        rows: Any = slice(None) if one else np.flatnonzero(coded.repeat == r)
        if not one and rows.size == 0:
            continue
        k, q = state.k, state.q
        fold = coded.fold[rows]
        truth = coded.truth[rows]
        w = None if w_all is None else w_all[rows]
        fb = fold.astype(np.intp)
        state.sizes += np.bincount(fb, minlength=k)
        if multi:
            state.true_counts += np.stack(
                [np.bincount(fb, weights=truth[:, j], minlength=k) for j in range(q)], 1
            ).astype(np.int64)
        else:
            state.true_counts += np.bincount(fb * q + truth, minlength=k * q).reshape(k, q)
        if coded.pred is not None:
            pred = coded.pred[rows]
            if multi:
                part = multilabel_totals(fold, truth, pred, k)
                t = state.totals
                state.totals = part if t is None else _added(t, part)
            else:
                state.totals = label_totals(fold, truth, pred, k, q, weights=w, start=state.totals)
                if w is not None:
                    state.row_totals = label_totals(fold, truth, pred, k, q, start=state.row_totals)
        if eps:
            assert coded.score is not None
            prob = coded.score[rows].astype(np.float64)
            for key in eps:
                clip = None if key is None else float(np.finfo(np.float64).eps) if key == "auto" else float(key)
                state.scoring[key] = fold_scoring_sums(truth, prob, fold, k, w, clip, state.scoring[key])
        if spills:
            assert coded.score is not None
            score = coded.score[rows]
            keep = slice(None) if w is None or w.all() else w > 0  # weight 0: out of the ranking, as in memory
            wk = None if w is None else w[keep]
            fk = fold[keep]
            if plan.task == "binary":
                positive = truth[keep] == 1
                other = None if coded.pred is None else coded.pred[rows][keep] == 1
                columns = [(positive, score[keep], other)]
            else:
                columns = [((truth[:, j] if multi else truth == j)[keep], score[keep, j], None) for j in range(q)]
            for j, (positive, s, other) in enumerate(columns):
                ones = np.ones(fk.size, dtype=np.int64) if wk is None else wk
                fi = fk.astype(np.intp)
                pos = np.bincount(fi, weights=np.where(positive, ones, 0), minlength=k)
                neg = np.bincount(fi, weights=np.where(positive, 0, ones), minlength=k)
                if wk is None:
                    pos, neg = pos.astype(np.int64), neg.astype(np.int64)
                state.rank_pos[j] += pos
                state.rank_neg[j] += neg
                spills[r][j].add(s, positive, fk, wk, other)


def _added(a: LabelTotals, b: LabelTotals) -> LabelTotals:
    exact = None if a.exact is None or b.exact is None else a.exact + b.exact
    return LabelTotals(a.tp + b.tp, a.fp + b.fp, a.fn + b.fn, a.n + b.n, exact)


class _Cases:
    """The case ids of every row by hash on disk: distinct cases, times tested, a case twice in a repeat."""

    def __init__(self, directory: Path, plan: Plan) -> None:
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)
        self.parts = max(1, plan.n_rows >> 22)
        self.plan = plan

    def add(self, coded: Coded) -> None:
        import pickle

        import pandas as pd

        ids = np.asarray(coded.cases)
        part = pd.util.hash_array(ids) % np.uint64(self.parts) if self.parts > 1 else np.zeros(ids.size, np.int64)
        for p in np.unique(part).tolist():
            at = part == p
            with open(self.directory / f"{p}.pkl", "ab") as fh:
                pickle.dump((coded.repeat[at], ids[at]), fh)

    def counts(self) -> tuple[int, int, int]:
        """Distinct cases tested, the most times one was tested, and the cases tested in several repeats."""
        import pickle

        import pandas as pd

        n_tested = most = several = 0
        for p in range(self.parts):
            path = self.directory / f"{p}.pkl"
            if not path.exists():
                continue
            reps, ids = [], []
            with open(path, "rb") as fh:
                while True:
                    try:
                        r, c = pickle.load(fh)
                    except EOFError:
                        break
                    reps.append(r)
                    ids.append(c)
            frame = pd.DataFrame({"r": np.concatenate(reps), "c": np.concatenate(ids)})
            twice = frame.duplicated(keep=False)
            if twice.any():
                first = frame[twice].iloc[0]
                n_twice = int(((frame["r"] == first["r"]) & (frame["c"] == first["c"])).sum())
                where = ""
                if self.plan.repeat_ids is not None:
                    where = f" in repeat {_py(self.plan.repeat_ids[int(first['r'])])!r}"
                raise ParameterValueError(
                    f"case {_py(first['c'])!r} has {n_twice} rows{where}: a case is tested once per repeat (test "
                    "sets that overlap, as ShuffleSplit's do, are one repeat each: give repeats= with each row's "
                    "split)",
                    param="cases",
                )
            times = frame["c"].value_counts()
            n_tested += int(times.size)
            most = max(most, int(times.max()))
            several += int((times > 1).sum())
            path.unlink()
        return n_tested, most, several


def _py(v: Any) -> Any:
    return v.item() if isinstance(v, np.generic) else v


def design_info_of(plan: Plan, n_cases: int | None, cases: _Cases | None) -> dict[str, Any]:
    """:meth:`apples.CVPredictions.design_info` from the plan and the cases."""
    sizes = [int(ids.size) for ids in plan.fold_ids]
    info: dict[str, Any] = {
        "design": plan.design,
        "n_repeats": len(plan.fold_ids),
        "folds_per_repeat": sizes[0] if len(set(sizes)) == 1 else sizes,
        "n_rows": plan.n_rows,
        "n_cases": n_cases,
        "n_tested": None,
        "n_untested": None,
        "max_times_tested": None,
        "n_tested_in_several_repeats": None,
        "overlapping": None,
    }
    if cases is not None:
        n_tested, most, several = cases.counts()
        if n_cases is not None and n_cases < n_tested:
            raise ParameterValueError(
                f"n_cases={n_cases} is below the {n_tested} distinct cases in cases", param="n_cases"
            )
        info["n_tested"] = n_tested
        info["max_times_tested"] = most
        info["n_tested_in_several_repeats"] = several
        info["overlapping"] = "hold-out" in plan.design and several > 0
        if n_cases is not None:
            info["n_untested"] = n_cases - n_tested
    return info
