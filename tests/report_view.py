"""The long table of a report as nested sections (quantity -> [average ->] aggregation -> value), for tests that
read many values at once; the report itself is read through CVReport.value and to_frame."""

from __future__ import annotations

import math
from typing import Any


def _put(tree: dict, row: dict, value: Any) -> None:
    node = tree.setdefault(row["quantity"], {})
    if row["average"]:
        node = node.setdefault(row["average"], {})
    node[row["aggregation"]] = value


def nested(report) -> dict[str, Any]:
    d = report.to_dict()
    out = {k: v for k, v in d.items() if k not in ("values", "repeats", "measures")}
    for row in d["values"]:
        _put(out, row, math.inf if row.get("infinite") else row["value"])
    if "repeats" in d:
        std: dict = {}
        per: dict = {}
        for row in d["values"]:
            _put(std, row, row["std"])
        for row in d["repeats"]["values"]:
            _put(per.setdefault(row["repeat"], {"repeat": row["repeat"]}), row, row["value"])
        out["repeats"] = {
            "n_repeats": d["repeats"]["n_repeats"],
            "ids": d["repeats"]["ids"],
            "std": std,
            "per_repeat": [per[i] for i in d["repeats"]["ids"]],
        }
    if "confidence" in d:
        intervals: dict = {"confidence": d["confidence"]}
        for row in d["values"]:
            _put(intervals, row, row["interval"])
        out["intervals"] = intervals
    return out
