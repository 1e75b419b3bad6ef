"""The ``apples`` command: ``apples report FILE --truth COL --fold COL ...`` (also ``python -m apples report``).

Reads a CSV or TSV file of cross-validated predictions (one row per case and
repeat; gzip-compressed too), calls :func:`apples.report` and prints the report
as text, JSON, HTML or Markdown. Bad input gets one line on stderr and exit
code 2, nothing on stdout: a missing, unreadable or empty file, a missing
column (named, with the columns there are), a single fold, missing or
non-numeric scores, one score column for labels that are not binary, a
positive label that is not in the data. A fold with one class is reported
under the policy of :func:`apples.report`, not refused.
"""

from __future__ import annotations

import argparse
import re
import sys
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

import numpy as np
import pandas as pd

from apples._report import report

__all__ = [
    "EXIT_BAD_INPUT",
    "main",
]

#: Exit code for bad input (argparse's own code for usage errors).
EXIT_BAD_INPUT = 2

_EXAMPLE = """\
example:
  apples report predictions.csv --truth y --fold fold --pred y_pred --score score
  apples report runs.tsv.gz --truth y --fold fold --repeat repeat --pred y_pred --format json
  apples report iris.csv --truth y --fold fold --pred y_pred --score p_0 p_1 p_2   (one score column per label)
  apples report predictions.csv --truth y --fold fold --pred y_pred --confidence 0.95   (intervals too)

FILE is CSV (.csv) or TSV (.tsv, .tab), optionally gzip-compressed (.gz); --sep overrides the extension.
The positive label defaults to 1 for 0/1 labels; give --pos-label otherwise. Multi-class scores need one
column per label, in the sorted order of the labels. Bad input: one line on stderr, exit code 2.
"""

#: report()'s argument names -> the options that set them, for its error messages.
_OPTION_OF = {
    "y_true": "--truth",
    "y_pred": "--pred",
    "y_score": "--score",
    "folds": "--fold",
    "repeats": "--repeat",
    "pos_label": "--pos-label",
    "confidence": "--confidence",
    "n_resamples": "--n-resamples",
    "seed": "--seed",
}


class BadInputError(Exception):
    """A problem with the command line or the file: printed as one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise BadInputError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="apples", description="Measure classifiers under cross-validation, apples to apples.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)
    rep = sub.add_parser(
        "report",
        help="every aggregation of a cross-validated result from a CSV/TSV file",
        description="Every aggregation of a cross-validated result (apples.report) from a CSV or TSV file.",
        epilog=_EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    rep.add_argument("file", metavar="FILE", help="CSV or TSV file, optionally .gz")
    rep.add_argument("--truth", required=True, metavar="COL", help="column of true labels")
    rep.add_argument("--fold", required=True, metavar="COL", help="column of test-fold ids")
    rep.add_argument("--pred", metavar="COL", help="column of predicted labels")
    rep.add_argument(
        "--score", nargs="+", metavar="COL", help="score column (binary), or one column per label in sorted label order"
    )
    rep.add_argument("--repeat", metavar="COL", help="column of repeat ids (repeated cross-validation)")
    rep.add_argument("--pos-label", metavar="L", help="the positive label (binary); default 1 for 0/1 labels")
    rep.add_argument(
        "--format", choices=("text", "json", "html", "markdown"), default="text", help="output format (default: text)"
    )
    rep.add_argument("--sep", metavar="S", help="field separator (default: by extension, ',' or tab)")
    rep.add_argument(
        "--confidence",
        type=float,
        metavar="C",
        help="add a confidence interval beside every value, e.g. 0.95 (default: no intervals)",
    )
    rep.add_argument(
        "--n-resamples", type=int, default=10_000, metavar="B", help="bootstrap resamples of the intervals (10000)"
    )
    rep.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the bootstrap intervals (default 0)")
    return parser


def _separator(path: Path, sep: str | None) -> str:
    if sep is not None:
        return "\t" if sep in ("\\t", "tab") else sep
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] == ".gz":
        suffixes = suffixes[:-1]
    return "\t" if suffixes and suffixes[-1] in (".tsv", ".tab") else ","


def _read(path: Path, sep: str) -> pd.DataFrame:
    if not path.exists():
        raise BadInputError(f"{path}: no such file")
    if path.is_dir():
        raise BadInputError(f"{path} is a directory, not a CSV or TSV file")
    try:
        frame = pd.read_csv(path, sep=sep, compression="infer", low_memory=False)
    except pd.errors.EmptyDataError:
        raise BadInputError(f"{path} is empty") from None
    except (OSError, EOFError, zlib.error, UnicodeDecodeError, ValueError) as err:
        reason = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise BadInputError(f"cannot read {path}: {reason}") from None
    if frame.empty:
        raise BadInputError(f"{path} has no rows (only a header)")
    return frame


def _column(frame: pd.DataFrame, name: str, option: str, path: Path) -> pd.Series:
    if name not in frame.columns:
        shown = ", ".join(map(str, frame.columns[:20])) + (" ..." if frame.shape[1] > 20 else "")
        raise BadInputError(f"column {name!r} ({option}) is not in {path}; its columns are: {shown}")
    return frame[name]


def _line(index: int) -> int:
    """The file line of data row ``index`` (line 1 is the header)."""
    return index + 2


def _labels(col: pd.Series, option: str) -> np.ndarray:
    missing = col.isna().to_numpy()
    if missing.any():
        raise BadInputError(
            f"{option} column {col.name!r} has a missing value on line {_line(int(np.argmax(missing)))}"
        )
    if col.dtype == object:
        return col.astype(str).to_numpy(dtype=str)
    return col.to_numpy()


def _scores(col: pd.Series) -> np.ndarray:
    if not pd.api.types.is_numeric_dtype(col) or pd.api.types.is_bool_dtype(col):
        bad = pd.to_numeric(col, errors="coerce").isna() & col.notna()
        i = int(np.argmax(bad.to_numpy())) if bad.any() else 0
        raise BadInputError(f"--score column {col.name!r} is not numeric: {col.iloc[i]!r} on line {_line(i)}")
    values = col.to_numpy(dtype=float)
    nan = np.isnan(values)
    if nan.any():
        raise BadInputError(
            f"--score column {col.name!r} has a missing value (NaN) on line {_line(int(np.argmax(nan)))}"
        )
    if np.isinf(values).any():
        raise BadInputError(
            f"--score column {col.name!r} has an infinite value on line {_line(int(np.argmax(np.isinf(values))))}"
        )
    return values


def _pos_label(text: str, labels: np.ndarray, column: str):
    """``--pos-label`` as a label of the truth column's type; BadInputError if it is not one of the labels."""
    shown = ", ".join(map(str, labels[:10].tolist()))
    value: object = text
    if labels.dtype.kind in "iu":
        try:
            value = int(text)
        except ValueError:
            value = None
    elif labels.dtype.kind == "f":
        try:
            value = float(text)
        except ValueError:
            value = None
    elif labels.dtype.kind == "b":
        value = {"true": True, "false": False}.get(text.lower())
    if value is None or value not in labels.tolist():
        raise BadInputError(f"--pos-label {text!r} is not a label in the data (column {column!r} holds {shown})")
    return value


def _report_args(args: argparse.Namespace) -> dict:
    path = Path(args.file)
    frame = _read(path, _separator(path, args.sep))
    truth = _labels(_column(frame, args.truth, "--truth", path), "--truth")
    folds = _labels(_column(frame, args.fold, "--fold", path), "--fold")
    kwargs: dict = {"y_true": truth, "folds": folds}
    if args.confidence is not None:
        kwargs.update(confidence=args.confidence, n_resamples=args.n_resamples, seed=args.seed)
    if args.pred is None and not args.score:
        raise BadInputError("give --pred (predicted labels), --score (scores) or both")
    labels = np.unique(truth)
    if args.pred is not None:
        pred = _labels(_column(frame, args.pred, "--pred", path), "--pred")
        if (pred.dtype.kind in "US") != (truth.dtype.kind in "US"):
            raise BadInputError(
                f"--pred column {args.pred!r} and --truth column {args.truth!r} hold labels of different types"
            )
        kwargs["y_pred"] = pred
        labels = np.union1d(labels, np.unique(pred))
    if args.repeat is not None:
        kwargs["repeats"] = _labels(_column(frame, args.repeat, "--repeat", path), "--repeat")
    if np.unique(folds).size < 2 and args.repeat is None:
        raise BadInputError(
            f"--fold column {args.fold!r} holds a single fold ({folds[0]}); cross-validation needs two or more"
        )
    if args.score:
        columns = [_scores(_column(frame, c, "--score", path)) for c in args.score]
        if labels.size > 2 and len(columns) == 1:
            raise BadInputError(
                f"--score gives one column but the labels are not binary ({labels.size} labels: "
                f"{', '.join(map(str, labels[:10].tolist()))}); give one --score column per label, in this order"
            )
        if labels.size > 2 and len(columns) != labels.size:
            raise BadInputError(f"--score gives {len(columns)} columns for {labels.size} labels; give one per label")
        if labels.size <= 2 and len(columns) > 1:
            raise BadInputError(
                f"--score gives {len(columns)} columns for binary labels; give the positive class's score"
            )
        kwargs["y_score"] = columns[0] if len(columns) == 1 else np.column_stack(columns)
    if args.pos_label is not None:
        if labels.size > 2:
            raise BadInputError("--pos-label is for binary labels; these are multi-class")
        kwargs["pos_label"] = _pos_label(args.pos_label, labels, args.truth)
    return kwargs


def _one_line(err: Exception) -> str:
    text = " ".join(str(err).split())
    for name, option in _OPTION_OF.items():
        text = re.sub(rf"\b{name}\b", option, text)
    return text


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``apples`` command; returns the exit code (0, or 2 for bad input).

    Examples
    --------
    >>> main(["report", "no-such-file.csv", "--truth", "y", "--fold", "fold"])
    2
    """
    try:
        args = _parser().parse_args(argv)
        kwargs = _report_args(args)
        try:
            result = report(**kwargs)
        except (ValueError, TypeError) as err:
            raise BadInputError(_one_line(err)) from None
    except BadInputError as err:
        print(f"apples: error: {' '.join(str(err).split())}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.format == "json":
        out = result.to_json()
    elif args.format == "html":
        out = result._repr_html_()
    elif args.format == "markdown":
        out = result.to_markdown()
    else:
        out = str(result)
    print(out)
    return 0
