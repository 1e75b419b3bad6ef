"""The command line's columns: a DataFrame's columns, named by the options, as the arguments of
:class:`apples.CVPredictions`, and every error of those arguments told in the options' words.

Labels and ids keep their type (text as ``str``, numbers as read); scores keep integers exact (int64 or
uint64, so scores above 2**53 are ranked as the Python API ranks them); weights are numbers. Nothing is
checked twice: :class:`apples.CVPredictions` checks the arrays, and :func:`explain` turns its
:class:`~apples.ParameterValueError` (whose ``.param`` names the argument) into the option, column and
file line that set it, with every argument named in the message replaced by its option.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from apples._cli_read import BadInputError
from apples._params import ParameterError

__all__ = [
    "OPTION_OF",
    "column",
    "explain",
    "file_line",
    "label_value",
    "prediction_arguments",
]

#: The arguments of CVPredictions, report and compare -> the option that sets them, and the attribute of ``args``
#: that holds the column name (None for an option that is not a column).
OPTION_OF: dict[str, tuple[str, str | None]] = {
    "y_true": ("--truth", "truth"),
    "y_pred": ("--pred", "pred"),
    "y_score": ("--score", "score"),
    "folds": ("--fold", "fold"),
    "repeats": ("--repeat", "repeat"),
    "cases": ("--case", "case"),
    "sample_weight": ("--weight", "weight"),
    "pos_label": ("--pos-label", None),
    "labels": ("--labels", None),
    "train_frequencies": ("--train-frequencies", None),
    "beta": ("--beta", None),
    "confidence": ("--confidence", None),
    "eps": ("--eps", None),
    "severity_ratio": ("--severity-ratio", None),
    "per_label": ("--per-label", None),
    "cv_seed": ("--cv-seed", None),
    "measures": ("--measures", None),
}
#: Arguments whose name is also an English word: replaced in a message only as ``name=`` or at its start.
_WORDS = frozenset({"folds", "repeats", "cases", "labels", "beta", "confidence", "seed", "measures"})
_NOT_QUOTED = r"(?<![\w'\"-])"


def file_line(index: int) -> int:
    """The file line of data row ``index`` (line 1 is the header; the frame's index counts the data rows from 0)."""
    return index + 2


def column(frame: pd.DataFrame, name: str, option: str, source: str) -> pd.Series:
    """The column ``name`` given to ``option``, or a BadInputError listing the columns there are."""
    if name not in frame.columns:
        shown = ", ".join(map(str, frame.columns[:20])) + (" ..." if frame.shape[1] > 20 else "")
        raise BadInputError(f"column {name!r} ({option}) is not in {source}; its columns are: {shown}")
    return frame[name]


def labels_of(col: pd.Series) -> np.ndarray:
    """A column of labels (or ids) as an array: text as Python str (a missing value stays missing, for the check
    of :class:`apples.CVPredictions` to find), numbers as they were read."""
    # text columns are object dtype under pandas 2 and a string dtype under pandas 3: both become str labels
    if col.dtype == object or pd.api.types.is_string_dtype(col):
        return np.array([v if not isinstance(v, str) else str(v) for v in col.to_numpy(dtype=object)], dtype=object)
    return col.to_numpy()


#: The integers a score column can hold exactly: int64 and uint64 together.
_INT_LOW, _INT_HIGH = -(2**63), 2**64 - 1


def _integer_scores(col: pd.Series) -> np.ndarray | None:
    """A text or object column of integers as int64 or uint64; None if it holds anything else.

    pandas reads integers beyond uint64 (or a mix of negatives and integers beyond int64) as Python
    ints or text; converting them to float would merge distinct scores into ties.
    """
    values: list[int] = []
    for v in col.to_numpy(dtype=object).tolist():
        if isinstance(v, int) and not isinstance(v, bool):
            values.append(v)
        elif isinstance(v, str) and re.fullmatch(r"\s*[+-]?\d+\s*", v):
            values.append(int(v))
        else:
            return None
    low, high = min(values), max(values)
    if low < _INT_LOW or high > _INT_HIGH or (low < 0 and high > 2**63 - 1):
        i = next(i for i, v in enumerate(values) if v < _INT_LOW or v > _INT_HIGH or (low < 0 and v > 2**63 - 1))
        digits = len(str(abs(values[i])))
        raise BadInputError(
            f"--score column {col.name!r} holds an integer too large to rank exactly ({digits} digits, on line "
            f"{file_line(int(col.index[i]))}): integer scores must fit in 64 bits (int64, or uint64 when none is "
            "negative); rescale them, or write them as decimals if rounding them is acceptable"
        )
    return np.array(values, dtype=np.int64 if low < 0 or high <= 2**63 - 1 else np.uint64)


def scores_of(col: pd.Series) -> np.ndarray:
    """A score column as numbers: integers exactly (int64 or uint64), text of integers too; anything else
    numeric as float64 (a missing or infinite value stays, for the check of the scores to find)."""
    if pd.api.types.is_integer_dtype(col) and not pd.api.types.is_bool_dtype(col) and not col.isna().any():
        return col.to_numpy()  # int64 or uint64 as read: exact above 2**53, as the Python API ranks them
    if not pd.api.types.is_numeric_dtype(col) or pd.api.types.is_bool_dtype(col):
        if not col.isna().any() and not pd.api.types.is_bool_dtype(col):
            exact = _integer_scores(col)
            if exact is not None:
                return exact
        _refuse_text(col, "--score")
    return col.to_numpy(dtype=float, na_value=np.nan)


def weights_of(col: pd.Series) -> np.ndarray:
    """A weight column as float64 (a missing, negative or infinite weight stays, for the check of the weights)."""
    if not pd.api.types.is_numeric_dtype(col) or pd.api.types.is_bool_dtype(col):
        _refuse_text(col, "--weight")
    return col.to_numpy(dtype=float, na_value=np.nan)


def _refuse_text(col: pd.Series, option: str) -> None:
    bad = pd.to_numeric(col, errors="coerce").isna() & col.notna()
    if pd.api.types.is_bool_dtype(col):
        bad = col.notna()
    i = int(np.argmax(bad.to_numpy())) if bad.any() else 0
    line = file_line(int(col.index[i]))
    raise BadInputError(f"{option} column {col.name!r} is not numeric: {col.iloc[i]!r} on line {line}")


def label_value(text: str, truth: np.ndarray) -> object:
    """A label typed on the command line (``--pos-label``, ``--labels``) read as a label of the truth column's type
    (a number for numbers); the text otherwise."""
    kind = truth.dtype.kind
    try:
        if kind in "iu":
            return int(text)
        if kind == "f":
            return float(text)
    except ValueError:
        return text  # not a number: apples.CVPredictions says it is not a label of the truth column's kind
    if kind == "b":
        return {"true": True, "false": False}.get(text.lower(), text)
    return text


def prediction_arguments(frame: pd.DataFrame, args: argparse.Namespace, source: str) -> tuple[np.ndarray, dict]:
    """``y_true`` and the keyword arguments of :class:`apples.CVPredictions` from the columns the options name."""
    truth = labels_of(column(frame, args.truth, "--truth", source))
    kwargs: dict[str, Any] = {"folds": labels_of(column(frame, args.fold, "--fold", source))}
    if args.pred is None and not args.score:
        raise BadInputError("give --pred (the column of predicted labels), --score (scores) or both")
    if args.pred is not None:
        kwargs["y_pred"] = labels_of(column(frame, args.pred, "--pred", source))
    if args.repeat is not None:
        kwargs["repeats"] = labels_of(column(frame, args.repeat, "--repeat", source))
    if args.case is not None:
        kwargs["cases"] = labels_of(column(frame, args.case, "--case", source))
    if getattr(args, "weight", None) is not None:
        kwargs["sample_weight"] = weights_of(column(frame, args.weight, "--weight", source))
    if args.score:
        columns = [scores_of(column(frame, c, "--score", source)) for c in args.score]
        kwargs["y_score"] = columns[0] if len(columns) == 1 else np.column_stack(columns)
    if args.pos_label is not None:
        kwargs["pos_label"] = label_value(args.pos_label, truth)
    if args.labels:
        kwargs["labels"] = [label_value(label, truth) for label in args.labels]
    return truth, kwargs


def _where(param: str, args: argparse.Namespace) -> tuple[str | None, bool]:
    """The option (with its column) that set argument ``param``, e.g. ``--score column 'p1'``, and whether it names
    one column (so that an element's position is a line of that column)."""
    base, _, index = param.partition("[")
    option, attribute = OPTION_OF.get(base, (None, None))
    if option is None:
        return None, False
    name = getattr(args, attribute, None) if attribute else None
    if isinstance(name, list):  # --score: one column, or one per label (y_score[:, j] is the j-th)
        found = re.fullmatch(r":, (\d+)\]", index)
        if found and int(found.group(1)) < len(name):
            name = name[int(found.group(1))]
        else:
            name = name[0] if len(name) == 1 else ", ".join(name)
    one = isinstance(name, str) and "," not in name
    return option + (f" column {name!r}" if isinstance(name, str) else ""), one


def _in_options(text: str, args: argparse.Namespace) -> str:
    """``text`` with every argument it names replaced by the option that sets it (quoted user text left alone)."""
    scores = getattr(args, "score", None) or []

    def score_column(found: re.Match) -> str:
        j = int(found.group(1))
        return f"--score column {scores[j]!r}" if j < len(scores) else found.group(0)

    text = re.sub(_NOT_QUOTED + r"y_score\[:, (\d+)\]", score_column, text)
    for name, (option, _) in OPTION_OF.items():
        text = re.sub(_NOT_QUOTED + re.escape(name) + r"(\[\d+\])?=", option + " ", text)
        if name not in _WORDS:
            text = re.sub(_NOT_QUOTED + re.escape(name) + r"(?![\w'\"])", option, text)
    return text


def explain(err: ParameterError, args: argparse.Namespace, *, line_of: Callable[[int], int] = file_line) -> str:
    """The error of a bad argument in the words of the command line: the option (and column, and file line) that set
    it in place of the argument's name, and every other argument the message names replaced by its option.

    ``line_of`` turns the position of an element (``err.position``) into its line in the file (the rows of one
    model of ``apples compare`` are a subset of the file's).
    """
    text = str(err)
    param = err.param or ""
    base = param.partition("[")[0]
    where, one_column = _where(param, args) if param else (None, False)
    if where is None or re.match(re.escape(base) + r"(\[\d+\])?=", text):
        return _in_options(text, args)  # "pos_label=2 is not ..." reads "--pos-label 2 is not ..."
    if err.position is not None and one_column:
        line = f"line {line_of(err.position)}"
        said = f"at position {err.position}"
        text, n = re.subn(re.escape(said) + r"(?!\d)", "on " + line, text)
        if not n:
            where += f", {line}"
    own = re.match(re.escape(param) + r"(?![\w=\[])", text) or re.match(re.escape(base) + r"(?![\w=\[])", text)
    if own:
        return where + _in_options(text[own.end() :], args)
    return f"{where}: {_in_options(text, args)}"
