"""Memory of apples.report on predictions in memory, against its input and against one argsort of the scores.

Usage: .venv/bin/python benchmarks/report_memory.py [n]

n binary predictions (default 10^7) in 10 folds as users pass them: int8 labels, predictions and folds, float32
scores (7 bytes a row). Each case runs in a subprocess of its own, after building its input, and prints two peaks
of what the case adds: tracemalloc's (every numpy and Python allocation, exact) and the peak resident set
(``resource.getrusage``: what the operating system saw, allocator slack included) over the resident set before it.

* ``argsort``: ``np.argsort`` of the scores the ranking sorts (the peer: 8 bytes a row);
* ``ranking``: the report's ranking part, ``fold_ranking`` as the fold tables call it (per-fold, merged and
  leave-one-fold-out AUC, AP and H from one sort);
* ``report``: ``apples.report(apples.CVPredictions(...))`` with its default measures, against the input's bytes.

The goals: the report at most 4 times its input, its ranking at most 1.5 times one argsort; the script says whether
they hold and exits with 1 if not. The machine is shared: tracemalloc's figures do not depend on it.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tracemalloc

import numpy as np

REPORT_LIMIT = 4.0
RANKING_LIMIT = 1.5
K = 10


def _inputs(n: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    y = (rng.random(n) < 0.1).astype(np.int8)
    score = (1.0 / (1.0 + np.exp(-(rng.standard_normal(n) + 1.5 * y - 1.5)))).astype(np.float32)
    return {
        "y": y,
        "pred": (score > 0.5).astype(np.int8),
        "fold": rng.integers(0, K, n).astype(np.int8),
        "score": score,
    }


def _rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def case(name: str, n: int) -> dict[str, float]:
    """One case in this process: the input built first, then the peaks of what the case adds."""
    import apples
    from apples._kernels.ranking import fold_ranking

    data = _inputs(n)
    input_bytes = sum(a.nbytes for a in data.values())
    if name != "report":  # the ranking sorts the scores CVPredictions keeps (float64) and reads the codes it keeps
        p = apples.CVPredictions(data["y"], y_pred=data["pred"], y_score=data["score"], folds=data["fold"])
        positive, other = p.truth_codes == 1, p.pred_codes == 1
        scores, fold = p.y_score, p.fold_codes[0]
    before = _rss_mib()
    tracemalloc.start()
    if name == "argsort":
        np.argsort(scores)
    elif name == "ranking":
        fold_ranking(positive, scores, fold, K, other=other, h_prior=(2.0, 10.0), jackknife=True)
    else:
        apples.report(apples.CVPredictions(data["y"], y_pred=data["pred"], y_score=data["score"], folds=data["fold"]))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {"input": input_bytes, "traced": peak, "rss": (_rss_mib() - before) * 2**20}


def _run(name: str, n: int) -> dict[str, float]:
    out = subprocess.run([sys.executable, __file__, "--case", name, str(n)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main(n: int) -> int:
    runs = {name: _run(name, n) for name in ("argsort", "ranking", "report")}
    mib = 2**20
    size = runs["report"]["input"]
    print(f"n = {n:,} binary predictions, {K} folds: int8 labels, predictions and folds, float32 scores")
    print(f"input: {size / mib:.0f} MiB")
    for name, r in runs.items():
        print(
            f"  {name:8s} adds at its peak {r['traced'] / mib:7.0f} MiB (tracemalloc), {r['rss'] / mib:7.0f} MiB (RSS)"
        )
    report = runs["report"]["traced"] / size
    ranking = runs["ranking"]["traced"] / runs["argsort"]["traced"]
    ok = report <= REPORT_LIMIT and ranking <= RANKING_LIMIT
    print(
        f"report / input = {report:.2f} (goal <= {REPORT_LIMIT}); "
        f"ranking / argsort = {ranking:.2f} (goal <= {RANKING_LIMIT})"
    )
    print(
        f"RSS: report / input = {runs['report']['rss'] / size:.2f}; ranking / argsort = "
        f"{runs['ranking']['rss'] / max(runs['argsort']['rss'], 1):.2f}"
    )
    print("the goals hold" if ok else "a goal fails")
    return 0 if ok else 1


if __name__ == "__main__":
    if sys.argv[1:2] == ["--case"]:
        print(json.dumps(case(sys.argv[2], int(sys.argv[3]))))
    else:
        sys.exit(main(int(float(sys.argv[1])) if len(sys.argv) > 1 else 10_000_000))
