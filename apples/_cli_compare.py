"""``apples compare``: the models of one file (a ``--model`` column) as paired predictions, and
:func:`apples.compare`'s result as text, JSON, HTML, Markdown or LaTeX.

Each model's rows are sorted by repeat, fold and case (``--case``; without it, the rows keep their
order in the file within each fold), and every model must then hold the same repeats, folds, cases
and true labels, row for row: a model that does not is refused, naming the option (``--fold``,
``--repeat``, ``--case``, ``--truth``) and the file lines that differ. Formats the comparison object
renders itself (``str``, ``_repr_html_``, and ``to_json``, ``to_markdown``, ``to_latex`` where it has
them) are its own; otherwise JSON, Markdown and LaTeX are written from its fields and ``to_frame()``,
with every model name and measure escaped.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from apples._cli_columns import column, explain, file_line, labels_of, prediction_arguments
from apples._cli_read import BadInputError
from apples._params import ParameterError
from apples.comparison._render import latex_text, markdown_text
from apples.cv.predictions import CVPredictions

__all__ = [
    "model_predictions",
    "render",
]


def model_predictions(
    frame: pd.DataFrame, args: argparse.Namespace, source: str
) -> tuple[list[str], list[CVPredictions]]:
    """The names of the models in the ``--model`` column (in the order they first appear) and each model's
    predictions, sorted by repeat, fold and case and checked to pair row for row."""
    models = labels_of(column(frame, args.model, "--model", source))
    missing = pd.isna(pd.Series(models, dtype=object)).to_numpy()
    if missing.any():
        raise BadInputError(f"--model column {args.model!r} is empty on line {file_line(int(np.argmax(missing)))}")
    names = [str(m) for m in pd.unique(pd.Series(models, dtype=object))]
    if len(names) < 2:
        raise BadInputError(
            f"--model column {args.model!r} holds one model ({names[0]!r}): compare needs two or more, each with a "
            "prediction of every case"
        )
    text = np.array([str(m) for m in models], dtype=object)
    keys = [c for c in (args.repeat, args.fold, args.case) if c is not None]
    for c, option in ((args.repeat, "--repeat"), (args.fold, "--fold"), (args.case, "--case")):
        if c is not None:
            column(frame, c, option, source)
    parts = [frame[text == name].sort_values(keys, kind="stable") for name in names]
    _check_pairs(parts, names, args)
    out = []
    for name, part in zip(names, parts, strict=True):
        try:
            truth, kwargs = prediction_arguments(part, args, source)
            out.append(CVPredictions(truth, **kwargs))
        except ParameterError as err:
            line_of = _lines_of(part)
            raise BadInputError(f"model {name!r} (--model): {explain(err, args, line_of=line_of)}") from None
    return names, out


def _lines_of(part: pd.DataFrame) -> Callable[[int], int]:
    index = part.index.to_numpy()
    return lambda i: file_line(int(index[i]))


def _check_pairs(parts: list[pd.DataFrame], names: list[str], args: argparse.Namespace) -> None:
    """Every model has the rows of the first, row for row: the same repeat, fold and case ids, and true labels."""
    first = parts[0]
    for name, part in zip(names[1:], parts[1:], strict=True):
        if len(part) != len(first):
            raise BadInputError(
                f"--model: model {name!r} has {len(part):,} rows and model {names[0]!r} {len(first):,}: each model "
                "needs one prediction of every case, in the same folds and repeats"
            )
        for attribute, option in (("repeat", "--repeat"), ("fold", "--fold"), ("case", "--case"), ("truth", "--truth")):
            col = getattr(args, attribute)
            if col is None:
                continue
            a, b = labels_of(first[col]), labels_of(part[col])
            same = np.array([_same(x, y) for x, y in zip(a.tolist(), b.tolist(), strict=True)], dtype=bool)
            if not same.all():
                i = int(np.argmin(same))
                what = "true label" if attribute == "truth" else attribute
                hint = "" if args.case is not None else "; give --case (a column of case ids) to pair rows by case"
                raise BadInputError(
                    f"{option} column {col!r}: model {name!r} does not pair with model {names[0]!r}: sorted by repeat, "
                    f"fold and case, its row on line {file_line(int(part.index[i]))} has {what} {_shown(b[i])} where "
                    f"model {names[0]!r} has {_shown(a[i])} (line {file_line(int(first.index[i]))}); each model needs "
                    f"a prediction of the same cases in the same folds and repeats{hint}"
                )


def _shown(value: object) -> str:
    return repr(value.item() if isinstance(value, np.generic) else value)


def _same(x: object, y: object) -> bool:
    if isinstance(x, float) and isinstance(y, float) and math.isnan(x) and math.isnan(y):
        return True
    return bool(x == y)


# -- output -------------------------------------------------------------------------------------------------------
def render(result: Any, fmt: str) -> str:
    """``result`` (an :class:`apples.comparison.ModelComparison`) in ``fmt``: its own rendering where it has one."""
    if fmt == "text":
        return str(result)
    if fmt == "html":
        return str(result._repr_html_())
    own = getattr(result, f"to_{fmt}", None)
    if callable(own):
        return str(own())
    meta = _meta(result)
    rows = result.to_frame()
    if fmt == "json":
        return json.dumps({**meta, "differences": _records(rows)}, indent=2, allow_nan=False)
    if fmt == "markdown":
        return _markdown(meta, rows)
    return _latex(meta, rows)


def _plain(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None  # JSON has no NaN; null is the undefined value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _meta(result: Any) -> dict[str, Any]:
    if dataclasses.is_dataclass(result):
        fields = [f.name for f in dataclasses.fields(result)]
    else:
        fields = [n for n in ("names", "measures", "confidence", "n_folds", "n_repeats", "notes") if hasattr(result, n)]
    return {name: _plain(getattr(result, name)) for name in fields if name != "differences"}


def _records(rows: pd.DataFrame) -> list[dict[str, Any]]:
    return [{str(k): _plain(v) for k, v in record.items()} for record in rows.to_dict(orient="records")]


def _cell(value: Any) -> str:
    value = _plain(value)
    if value is None:
        return "NaN"
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


def _markdown(meta: dict[str, Any], rows: pd.DataFrame) -> str:
    names = ", ".join(markdown_text(str(n)) for n in meta.get("names", []))
    lines = [f"**Comparison of {names}**", ""]
    head = [markdown_text(str(c)) for c in rows.columns]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "|".join("---" for _ in head) + "|")
    for record in rows.itertuples(index=False):
        lines.append("| " + " | ".join(markdown_text(_cell(v)) for v in record) + " |")
    lines += ["", *(f"- {markdown_text(str(note))}" for note in meta.get("notes", []) or [])]
    return "\n".join(lines)


def _latex(meta: dict[str, Any], rows: pd.DataFrame) -> str:
    names = ", ".join(latex_text(str(n)) for n in meta.get("names", []))
    columns = [c for c in rows.columns if c != "test"]
    lines = [
        r"\begin{table}",
        r"\centering",
        rf"\caption{{Comparison of {names}}}",
        r"\begin{tabular}{" + "l" * 3 + "r" * (len(columns) - 3) + "}",
        r"\toprule",
        " & ".join(latex_text(str(c)) for c in columns) + r" \\",
        r"\midrule",
    ]
    for record in rows[columns].itertuples(index=False):
        lines.append(" & ".join(latex_text(_cell(v)) for v in record) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}"]
    return "\n".join(lines)
