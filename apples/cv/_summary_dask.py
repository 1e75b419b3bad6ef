""":meth:`apples.cv.CVSummary.from_dask`: a dask DataFrame's predictions summarised on its cluster.

Three computations, each a map over partitions whose results (a few numbers, or one bucket's sums and hull points)
come back to the client:

1. each partition checked (as :class:`~apples.CVPredictions` checks its arrays) and its facts (labels, repeats,
   folds, scores, weights, a sample of the scores) merged in order: the task, labels and folds are decided;
2. each partition's rows coded and summed (per-label totals, scoring sums) and counted by score range (each
   bucket's positives and negatives, fold by fold, so that what lies below a bucket is known before it is read);
3. for each score column, the rows moved to one partition per bucket of score range (``set_index`` on the bucket
   with one division per bucket: a dask shuffle), each partition sorted and summarised on its worker from what lies
   below it, the buckets merged in order on the client.

Nothing but the summaries crosses to the client; the workers hold one partition at a time (a bucket: about
``bucket_rows`` rows, or one score's rows however many).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from apples._kernels.rank_buckets import BucketRanking, rank_totals
from apples._kernels.ranking import CHUNK, tie_chunks
from apples._kernels.scoring_rules import FoldScoringSums
from apples._kernels.totals import LabelTotals
from apples._optional import require
from apples._params import ParameterError, ParameterValueError
from apples.cv._buckets import boundaries
from apples.cv._chunks import Facts, Plan, at_offset, check_block, code_block, facts_of, plan_of
from apples.cv._summarise import RepeatSums, add_block, design_info_of
from apples.cv.summary import BUCKET_ROWS, CVSummary, RepeatSummary, arrays_of

__all__: list[str] = []  # private: apples.cv.CVSummary.from_dask


def _facts(frame: Any, columns: dict[str, Any]) -> tuple[Facts | None, ParameterError | None, int]:
    """One partition's facts, or the error of its checks (its position within the partition), and its rows."""
    try:
        block = check_block(arrays_of(frame, columns), 0)
        return (facts_of(block) if len(block["y_true"]) else Facts()), None, len(frame)
    except ParameterError as err:
        return None, err, len(frame)


def _sums(frame: Any, columns: dict[str, Any], plan: Plan, eps: tuple, bounds: list[np.ndarray]) -> tuple:
    """One partition's sums per repeat, its severity counts, and each ranking's rows by bucket and fold."""
    q = 2 if plan.task == "binary" else len(plan.labels)
    weighted = columns["sample_weight"] is not None
    states = [RepeatSums(ids.size, q, weighted, eps) for ids in plan.fold_ids]
    severity: list = [0.0, 0.0] if weighted else [0, 0]
    if len(frame) == 0:
        return states, severity, None
    coded = code_block(check_block(arrays_of(frame, columns), 0), plan)
    add_block(coded, plan, states, [], severity, eps)
    per_bucket = None
    if coded.score is not None:
        per_bucket = []
        for j, bj in enumerate(bounds):
            score = coded.score if coded.score.ndim == 1 else coded.score[:, j]
            positive = _positive(coded, plan, j)
            w = coded.weight
            ones = np.ones(score.size) if w is None else w
            bucket = np.searchsorted(bj, score, side="right")
            counts = []
            for r, ids in enumerate(plan.fold_ids):
                at = coded.repeat == r
                if w is not None:
                    at &= w > 0
                cell = bucket[at].astype(np.intp) * ids.size + coded.fold[at]
                size = (bj.size + 1) * ids.size
                pos = np.bincount(cell, weights=np.where(positive[at], ones[at], 0.0), minlength=size)
                neg = np.bincount(cell, weights=np.where(positive[at], 0.0, ones[at]), minlength=size)
                other: np.ndarray = np.zeros(bj.size + 1)
                if plan.task == "binary" and coded.pred is not None:
                    o = coded.pred[at] == 1
                    other = np.bincount(bucket[at], weights=np.where(o, 0.0, ones[at]), minlength=bj.size + 1)
                counts.append((pos.reshape(-1, ids.size), neg.reshape(-1, ids.size), other))
            per_bucket.append(counts)
    return states, severity, per_bucket


def _positive(coded: Any, plan: Plan, j: int) -> np.ndarray:
    if plan.task == "binary":
        return np.asarray(coded.truth == 1)
    if plan.task == "multilabel":
        return np.asarray(coded.truth[:, j])
    return np.asarray(coded.truth == j)


def _rows(frame: Any, columns: dict[str, Any], plan: Plan, j: int, bounds: np.ndarray, offsets: list[int]) -> Any:
    """A partition's rows of ranking j: the global bucket (repeat, score range) of each, and its fields."""
    import pandas as pd

    weighted = columns["sample_weight"] is not None
    other = plan.task == "binary" and columns["y_pred"] is not None
    out: dict[str, Any] = {"bucket": np.zeros(0, np.int64), "s": np.zeros(0, plan.score_dtype)}
    out.update({"f": np.zeros(0, np.int32), "p": np.zeros(0, bool)})
    if other:
        out["o"] = np.zeros(0, bool)
    if weighted:
        out["w"] = np.zeros(0)
    if len(frame) == 0:
        return pd.DataFrame(out)
    coded = code_block(check_block(arrays_of(frame, columns), 0), plan)
    assert coded.score is not None
    keep = np.ones(len(frame), bool) if coded.weight is None else coded.weight > 0
    score = (coded.score if coded.score.ndim == 1 else coded.score[:, j])[keep]
    bucket = np.searchsorted(bounds, score, side="right") + np.asarray(offsets)[coded.repeat[keep]]
    out = {"bucket": bucket.astype(np.int64), "s": score, "f": coded.fold[keep].astype(np.int32)}
    out["p"] = _positive(coded, plan, j)[keep]
    if other:
        assert coded.pred is not None
        out["o"] = coded.pred[keep] == 1
    if weighted:
        assert coded.weight is not None
        out["w"] = coded.weight[keep]
    return pd.DataFrame(out)


def _rank(frame: Any, k: int, totals: Any, carry: tuple, weighted: bool, other: bool) -> BucketRanking | None:
    """One bucket (a partition of the shuffled rows), sorted and summarised from what lies below it."""
    if len(frame) == 0:
        return None
    acc = BucketRanking(k, totals, weighted=weighted, other=other, hull=True, jackknife=True)
    acc.start_at(*carry)
    s = frame["s"].to_numpy()
    f = frame["f"].to_numpy()
    p = frame["p"].to_numpy()
    w = frame["w"].to_numpy() if weighted else None
    o = frame["o"].to_numpy() if other else None
    if s.min() == s.max():  # one score: a tie group, counted without sorting
        dt = np.float64 if weighted else np.int64
        ones = np.ones(s.size, dt) if w is None else w
        fi = f.astype(np.intp)
        pos = np.bincount(fi, weights=np.where(p, ones, 0), minlength=k).astype(dt)
        neg = np.bincount(fi, weights=np.where(p, 0, ones), minlength=k).astype(dt)
        o_pos = o_neg = dt(0)
        if o is not None:
            o_pos, o_neg = dt(np.sum(np.where(o, ones, 0))), dt(np.sum(np.where(o, 0, ones)))
        acc.add_group(pos, neg, o_pos, o_neg)
        return acc
    order = np.argsort(s, kind="stable") if weighted else np.argsort(s)
    s, f, p = s[order], f[order], p[order]
    w = None if w is None else w[order]
    o = None if o is None else o[order]
    for a, z in tie_chunks(s, np.arange(s.size), CHUNK):
        acc.add(s[a:z], p[a:z], f[a:z], None if w is None else w[a:z], None if o is None else o[a:z])
    return acc


def _merged(a: RepeatSums, b: RepeatSums) -> RepeatSums:
    """Two partitions' sums of one repeat, added (counts exactly, weights to rounding)."""
    a.sizes += b.sizes
    a.true_counts += b.true_counts

    def add(x: LabelTotals | None, y: LabelTotals | None) -> LabelTotals | None:
        if x is None or y is None:
            return x if y is None else y
        exact = None if x.exact is None or y.exact is None else x.exact + y.exact
        return LabelTotals(x.tp + y.tp, x.fp + y.fp, x.fn + y.fn, x.n + y.n, exact)

    a.totals, a.row_totals = add(a.totals, b.totals), add(a.row_totals, b.row_totals)
    for key, sums in b.scoring.items():
        mine = a.scoring[key]
        a.scoring[key] = sums if mine is None else FoldScoringSums(*(u + v for u, v in zip(mine, sums, strict=True)))
    return a


def summarise_dask(
    frame: Any,
    columns: dict[str, Any],
    labels: Sequence[Hashable] | None,
    pos_label: Hashable | None,
    n_cases: int | None,
    eps: float | None,
    bucket_rows: int = BUCKET_ROWS,
) -> CVSummary:
    """The :class:`~apples.cv.CVSummary` of a dask DataFrame (:meth:`CVSummary.from_dask`)."""
    require("dask.dataframe", extra="scale")
    import dask

    if not hasattr(frame, "to_delayed") or not hasattr(frame, "map_partitions"):
        raise ParameterValueError(
            f"frame must be a dask DataFrame (dask.dataframe), got {type(frame).__name__}", param="frame"
        )
    parts = frame.to_delayed()
    found = dask.compute(*[dask.delayed(_facts)(part, columns) for part in parts])
    facts = Facts()
    offset = 0
    for part_facts, err, rows in found:
        if err is not None:
            raise at_offset(err, offset) from None
        assert part_facts is not None
        if part_facts.n_rows:
            facts.merge(part_facts)
        offset += rows
    plan = plan_of(facts, labels, pos_label, columns["repeats"] is not None)
    if n_cases is not None and columns["cases"] is None and n_cases < plan.n_rows // len(plan.fold_ids):
        raise ParameterValueError(
            f"n_cases={n_cases} is below the {plan.n_rows // len(plan.fold_ids)} rows of a repeat", param="n_cases"
        )
    weighted = facts.weighted
    eps_values: tuple = ((None, "auto") + (() if eps is None else (float(eps),))) if plan.probabilities else ()
    bounds: list[np.ndarray] = []
    if facts.has_score:
        n_buckets = max(1, math.ceil(plan.n_rows / len(plan.fold_ids) / bucket_rows))
        bounds = [boundaries(s.astype(plan.score_dtype), n_buckets) for s in facts.sample]
    sums = dask.compute(*[dask.delayed(_sums)(part, columns, plan, eps_values, bounds) for part in parts])
    states, severity, per_bucket = sums[0]
    for more in sums[1:]:
        states = [_merged(a, b) for a, b in zip(states, more[0], strict=True)]
        severity = [severity[0] + more[1][0], severity[1] + more[1][1]]
        if more[2] is not None:
            per_bucket = more[2] if per_bucket is None else _bucket_sums(per_bucket, more[2])
    design_info = design_info_of(plan, n_cases, None)
    if columns["cases"] is not None:
        design_info = _dask_cases(frame, columns, plan, n_cases, design_info)
    rankings: list[list[BucketRanking]] = [[] for _ in plan.fold_ids]
    if facts.has_score:
        assert per_bucket is not None
        other = plan.task == "binary" and facts.has_pred
        for j, bj in enumerate(bounds):
            n_b = bj.size + 1
            offsets = [r * n_b for r in range(len(plan.fold_ids))]
            rows = frame.map_partitions(_rows, columns, plan, j, bj, offsets, meta=_meta(plan, weighted, other))
            shuffled = rows.set_index("bucket", divisions=list(range(len(offsets) * n_b + 1)))
            buckets = shuffled.to_delayed()
            tasks = []
            all_totals: dict[int, Any] = {}
            for r, ids in enumerate(plan.fold_ids):
                pos, neg, o_neg = per_bucket[j][r]
                dt = np.float64 if weighted else np.int64
                totals = rank_totals(pos.sum(axis=0).astype(dt), neg.sum(axis=0).astype(dt))
                all_totals[r] = totals
                below_pos, below_neg, below_o = np.zeros(ids.size, dt), np.zeros(ids.size, dt), 0.0
                for b in range(n_b):
                    carry = (below_pos.copy(), below_neg.copy(), below_o)
                    part = buckets[offsets[r] + b]
                    tasks.append(dask.delayed(_rank)(part, ids.size, totals, carry, weighted, other))
                    below_pos += pos[b].astype(dt)
                    below_neg += neg[b].astype(dt)
                    below_o += float(o_neg[b])
            done = dask.compute(*tasks)
            for r, ids in enumerate(plan.fold_ids):
                acc = BucketRanking(ids.size, all_totals[r], weighted=weighted, other=other, hull=True, jackknife=True)
                for part_acc in done[r * n_b : (r + 1) * n_b]:
                    if part_acc is not None:
                        acc.merge(part_acc)
                acc.compact()
                rankings[r].append(acc)
    repeats = [
        RepeatSummary(
            plan.fold_ids[r],
            s.sizes,
            s.true_counts,
            s.totals,
            s.row_totals,
            s.scoring,
            rankings[r] if facts.has_score else None,
        )
        for r, s in enumerate(states)
    ]
    mean = (facts.weight_sum / facts.n_rows, facts.weight_zero) if weighted else None
    return CVSummary(
        plan,
        repeats,
        weights=mean,
        n_cases=n_cases,
        design_info=design_info,
        severity=(float(severity[0]), float(severity[1])),
        eps=eps_values,
    )


def _bucket_sums(a: list, b: list) -> list:
    return [
        [(x[0] + y[0], x[1] + y[1], x[2] + y[2]) for x, y in zip(ra, rb, strict=True)]
        for ra, rb in zip(a, b, strict=True)
    ]


def _meta(plan: Plan, weighted: bool, other: bool) -> Any:
    import pandas as pd

    out: dict[str, Any] = {"bucket": np.zeros(0, np.int64), "s": np.zeros(0, plan.score_dtype)}
    out.update({"f": np.zeros(0, np.int32), "p": np.zeros(0, bool)})
    if other:
        out["o"] = np.zeros(0, bool)
    if weighted:
        out["w"] = np.zeros(0)
    return pd.DataFrame(out)


def _dask_cases(frame: Any, columns: dict[str, Any], plan: Plan, n_cases: int | None, info: dict) -> dict:
    """The design's case counts from the cluster: a case twice in a repeat refused, distinct cases, times tested."""
    import dask

    case, rep = columns["cases"], columns["repeats"]
    keys = [case] if rep is None else [rep, case]
    per_repeat = frame.groupby(keys).size()
    times = frame.groupby(case).size()
    most_in_repeat, n_tested, most, several = dask.compute(
        per_repeat.max(), times.count(), times.max(), (times > 1).sum()
    )
    if most_in_repeat > 1:
        first = per_repeat[per_repeat > 1].head(1)
        key = first.index[0]
        raise ParameterValueError(
            f"case {key if rep is None else key[1]!r} has {int(first.iloc[0])} rows"
            f"{'' if rep is None else f' in repeat {key[0]!r}'}: a case is tested once per repeat",
            param="cases",
        )
    if n_cases is not None and n_cases < n_tested:
        raise ParameterValueError(f"n_cases={n_cases} is below the {n_tested} distinct cases in cases", param="n_cases")
    info = dict(info)
    info["n_tested"], info["max_times_tested"] = int(n_tested), int(most)
    info["n_tested_in_several_repeats"] = int(several)
    info["overlapping"] = "hold-out" in plan.design and int(several) > 0
    if n_cases is not None:
        info["n_untested"] = n_cases - int(n_tested)
    return info
