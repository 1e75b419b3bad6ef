"""The ``apples`` command: ``apples report FILE --truth COL --fold COL ...`` (also ``python -m apples report``).

Reads a CSV or TSV file of cross-validated predictions (one row per case and
repeat; gzip-compressed too), calls :func:`apples.report` and prints the report
as text, JSON, HTML or Markdown. Bad input gets one line on stderr and exit
code 2, nothing on stdout: a missing, unreadable or empty file, a column name
used twice in the header, a row with more fields than the header (named by
its line; a trailing separator on every row is read as the empty field it is),
a missing column (named, with the columns there are), a single fold, truth
and predictions of different types, missing or non-numeric scores, integer
scores beyond 64 bits, one score column for labels that are not binary, a
positive label that is not in the data. Integer scores keep their integer
type (int64 or uint64), so scores above 2**53 are ranked exactly, as the
Python API ranks them. A fold with one class is reported under the policy of
:func:`apples.report`, not refused; the report's warnings (e.g. a score
column that ranks the positive label's cases low) are printed with it.
"""

from __future__ import annotations

import argparse
import bz2
import csv
import gzip
import lzma
import os
import re
import sys
import warnings
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any, NoReturn

import numpy as np
import pandas as pd

from apples._params import ParameterError
from apples.cv.predictions import CVPredictions
from apples.reporting import report

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_BROKEN_PIPE",
    "main",
]

#: Exit code for bad input (argparse's own code for usage errors).
EXIT_BAD_INPUT = 2
#: Exit code when the reader of stdout has gone (``| head``): Python's own on EPIPE.
EXIT_BROKEN_PIPE = 1

_EXAMPLE = """\
example:
  apples report predictions.csv --truth y --fold fold --pred y_pred --score score
  apples report runs.tsv.gz --truth y --fold fold --repeat repeat --pred y_pred --format json
  apples report iris.csv --truth y --fold fold --pred y_pred --score p_0 p_1 p_2   (one score column per label)
  apples report predictions.csv --truth y --fold fold --pred y_pred --confidence 0.95   (intervals too)
  apples report iris.csv --truth y --fold fold --pred y_pred --labels a b c --train-frequencies a=0.5 b=0.3 c=0.2
  apples report predictions.csv --truth y --fold fold --pred y_pred --beta 2 --stratified --cv-seed 42 --format latex

FILE is CSV (.csv) or TSV (.tsv, .tab), optionally gzip-compressed (.gz); --sep overrides the extension.
The positive label defaults to 1 for 0/1 labels; give --pos-label otherwise. A binary --score column is the
positive label's score (higher = more likely that label); one that ranks the other way is warned about.
Multi-class scores need one column per label, in the sorted order of the labels. Bad input: one line on
stderr, exit code 2. Output cut short by the reader (`apples report ... | head`) ends quietly, exit code 1.
"""


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
        "--score",
        nargs="+",
        metavar="COL",
        help="binary: the positive label's score column (higher = more likely the positive label, e.g. its "
        "probability; not the other label's); multi-class: one column per label, in sorted label order",
    )
    rep.add_argument("--repeat", metavar="COL", help="column of repeat ids (repeated cross-validation)")
    rep.add_argument("--pos-label", metavar="L", help="the positive label (binary); default 1 for 0/1 labels")
    rep.add_argument(
        "--labels",
        nargs="+",
        metavar="L",
        help="multi-class: the label set, used in every fold (default: every label of the data)",
    )
    rep.add_argument(
        "--train-frequencies",
        nargs="+",
        metavar="L=F",
        help="multi-class: training-set label frequencies for lfb_train (Van Asch eq. 10), e.g. a=0.5 b=0.3 c=0.2",
    )
    rep.add_argument("--beta", type=float, default=1.0, metavar="B", help="binary: report F_beta (default 1: F1)")
    rep.add_argument(
        "--stratified",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="say whether the folds were stratified (the header states it; default: not stated)",
    )
    rep.add_argument("--cv-seed", type=int, metavar="S", help="the seed of the splitter that made the folds (header)")
    rep.add_argument(
        "--format",
        choices=("text", "json", "html", "markdown", "latex"),
        default="text",
        help="output format (default: text; latex: a booktabs table)",
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
        if sep in ("\\t", "tab"):
            return "\t"
        if len(sep) != 1 or sep in '\r\n"':
            raise BadInputError(f"--sep must be one character (or '\\t' or 'tab' for a tab), got {sep!r}")
        return sep
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
        _check_header(path, sep)
        # index_col=False: pandas must never take the first column for an index when the rows have one field
        # more than the header (a trailing separator), which would shift every column by one, silently
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", pd.errors.ParserWarning)
            frame = pd.read_csv(path, sep=sep, compression="infer", low_memory=False, index_col=False)
    except pd.errors.EmptyDataError:
        raise BadInputError(f"{path} is empty") from None
    except pd.errors.ParserError as err:
        found = re.search(r"Expected (\d+) fields in line (\d+), saw (\d+)", str(err))
        if found:
            expected, line, saw = found.groups()
            raise BadInputError(
                f"{path}, line {line}: {saw} fields where the header has {expected} (an extra field or separator)"
            ) from None
        raise BadInputError(f"cannot read {path}: {_first_line(err)}") from None
    except (OSError, EOFError, zlib.error, UnicodeDecodeError, ValueError) as err:
        raise BadInputError(f"cannot read {path}: {_first_line(err)}") from None
    if any(issubclass(w.category, pd.errors.ParserWarning) for w in caught):
        _refuse_extra_fields(path, sep)  # pandas dropped fields beyond the header's; say where, if any held data
    if frame.empty:
        raise BadInputError(f"{path} has no rows (only a header)")
    return frame


def _first_line(err: Exception) -> str:
    return str(err).splitlines()[0] if str(err).strip() else type(err).__name__


def _check_header(path: Path, sep: str) -> None:
    """Refuse a header that names a column twice: pandas would rename the second ``y`` to ``y.1``, silently."""
    try:
        header = pd.read_csv(path, sep=sep, compression="infer", header=None, nrows=1, dtype=str,
                             keep_default_na=False, index_col=False).iloc[0].tolist()  # fmt: skip
    except (IndexError, pd.errors.ParserError):
        return  # empty, or a header pandas cannot parse: the full read says so
    seen: dict[str, list[int]] = {}
    for i, name in enumerate(header, start=1):
        seen.setdefault(name, []).append(i)
    twice = {name: where for name, where in seen.items() if len(where) > 1}
    if twice:
        name, where = next(iter(twice.items()))
        raise BadInputError(
            f"the header of {path} names column {name!r} {len(where)} times (columns "
            f"{', '.join(map(str, where))}): give each column its own name"
        )


def _open_text(path: Path) -> IO[str]:
    """The file as text, decompressed by its suffix as pandas does (gzip, bz2, xz; others as they are)."""
    suffix = path.suffix.lower()
    if suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8", newline="")
    if suffix == ".bz2":
        return bz2.open(path, "rt", encoding="utf-8", newline="")
    if suffix == ".xz":
        return lzma.open(path, "rt", encoding="utf-8", newline="")
    return open(path, encoding="utf-8", newline="")


def _refuse_extra_fields(path: Path, sep: str) -> None:
    """The line of the first row with a non-empty field beyond the header's, as a BadInputError.

    Called when pandas warned that it dropped fields; rows whose extra fields are all empty (a trailing
    separator) lose nothing and pass. A file this reader cannot open as text (a .zip or .zst archive) is
    refused without the line.
    """
    try:
        with _open_text(path) as fh:
            reader = csv.reader(fh, delimiter=sep)
            width = len(next(reader, []))
            for row in reader:
                extra = [f for f in row[width:] if f.strip()]
                if extra:
                    raise BadInputError(
                        f"{path}, line {reader.line_num}: {len(row)} fields where the header has {width}; the "
                        f"extra field {extra[0]!r} belongs to no column"
                    )
    except (OSError, EOFError, zlib.error, UnicodeDecodeError, csv.Error, lzma.LZMAError) as err:
        raise BadInputError(
            f"{path}: a row has more fields than the header, which pandas would drop; its line could not be "
            f"found in this kind of file ({type(err).__name__}): write it as .csv, .tsv or .gz to see it"
        ) from None


def _column(frame: pd.DataFrame, name: str, option: str, path: Path) -> pd.Series:
    if name not in frame.columns:
        shown = ", ".join(map(str, frame.columns[:20])) + (" ..." if frame.shape[1] > 20 else "")
        raise BadInputError(f"column {name!r} ({option}) is not in {path}; its columns are: {shown}")
    return frame[name]


def _line(index: int) -> int:
    """The file line of data row ``index`` (line 1 is the header)."""
    return index + 2


def _labels(col: pd.Series) -> np.ndarray:
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
            f"{_line(i)}): integer scores must fit in 64 bits (int64, or uint64 when none is negative); rescale "
            "them, or write them as decimals if rounding them is acceptable"
        )
    return np.array(values, dtype=np.int64 if low < 0 or high <= 2**63 - 1 else np.uint64)


def _scores(col: pd.Series) -> np.ndarray:
    """A score column as numbers: integers exactly (int64 or uint64), text of integers too; anything else
    numeric as float64 (a missing or infinite value stays, for the check of the scores to find)."""
    if pd.api.types.is_integer_dtype(col) and not pd.api.types.is_bool_dtype(col) and not col.isna().any():
        return col.to_numpy()  # int64 or uint64 as read: exact above 2**53, as the Python API ranks them
    if not pd.api.types.is_numeric_dtype(col) or pd.api.types.is_bool_dtype(col):
        if not col.isna().any() and not pd.api.types.is_bool_dtype(col):
            exact = _integer_scores(col)
            if exact is not None:
                return exact
        bad = pd.to_numeric(col, errors="coerce").isna() & col.notna()
        i = int(np.argmax(bad.to_numpy())) if bad.any() else 0
        raise BadInputError(f"--score column {col.name!r} is not numeric: {col.iloc[i]!r} on line {_line(i)}")
    return col.to_numpy(dtype=float)


def _pos_label(text: str, truth: np.ndarray) -> object:
    """``--pos-label`` read as a label of the truth column's type (a number for numbers); the text otherwise."""
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


def _predictions(args: argparse.Namespace) -> CVPredictions:
    """The file's columns as :class:`apples.CVPredictions`, which checks them (its errors name the argument)."""
    path = Path(args.file)
    frame = _read(path, _separator(path, args.sep))
    truth = _labels(_column(frame, args.truth, "--truth", path))
    kwargs: dict[str, Any] = {"folds": _labels(_column(frame, args.fold, "--fold", path))}
    if args.pred is None and not args.score:
        raise BadInputError("give --pred (the column of predicted labels), --score (scores) or both")
    if args.pred is not None:
        kwargs["y_pred"] = _labels(_column(frame, args.pred, "--pred", path))
    if args.repeat is not None:
        kwargs["repeats"] = _labels(_column(frame, args.repeat, "--repeat", path))
    if args.score:
        columns = [_scores(_column(frame, c, "--score", path)) for c in args.score]
        kwargs["y_score"] = columns[0] if len(columns) == 1 else np.column_stack(columns)
    if args.pos_label is not None:
        kwargs["pos_label"] = _pos_label(args.pos_label, truth)
    if args.labels:
        kwargs["labels"] = [_pos_label(label, truth) for label in args.labels]
    return CVPredictions(truth, **kwargs)


def _train_frequencies(args: argparse.Namespace, truth: np.ndarray) -> dict[object, object] | None:
    """``--train-frequencies a=0.5 b=0.5`` as a mapping label -> frequency (checked by :func:`apples.report`)."""
    if not args.train_frequencies:
        return None
    out: dict[object, object] = {}
    for item in args.train_frequencies:
        label, sep, value = item.rpartition("=")
        if not sep or not label:
            raise BadInputError(f"--train-frequencies takes LABEL=FREQUENCY items, got {item!r}")
        try:
            out[_pos_label(label, truth)] = float(value)
        except ValueError:
            raise BadInputError(f"--train-frequencies: {value!r} (for label {label!r}) is not a number") from None
    return out


#: The arguments of CVPredictions and report -> the options that set them, and the attribute of the column name.
_OPTION_OF = {
    "y_true": ("--truth", "truth"),
    "y_pred": ("--pred", "pred"),
    "y_score": ("--score", "score"),
    "folds": ("--fold", "fold"),
    "repeats": ("--repeat", "repeat"),
    "pos_label": ("--pos-label", None),
    "confidence": ("--confidence", None),
    "n_resamples": ("--n-resamples", None),
    "seed": ("--seed", None),
    "labels": ("--labels", None),
    "train_frequencies": ("--train-frequencies", None),
    "beta": ("--beta", None),
    "cv_seed": ("--cv-seed", None),
}


def _explain(err: ParameterError, args: argparse.Namespace) -> str:
    """The error of a bad argument, prefixed with the option (and column, and file line) that set it."""
    option, attribute = _OPTION_OF.get((err.param or "").partition("[")[0], (None, None))
    if option is None:
        return str(err)
    column = getattr(args, attribute) if attribute else None
    if isinstance(column, list):  # --score: one column, or one per label
        column = column[0] if len(column) == 1 else ", ".join(column)
    where = option + (f" column {column!r}" if isinstance(column, str) else "")
    if err.position is not None and isinstance(column, str):
        where += f", line {_line(err.position)}"
    return f"{where}: {err}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``apples`` command; returns the exit code (0, or 2 for bad input).

    Examples
    --------
    >>> main(["report", "no-such-file.csv", "--truth", "y", "--fold", "fold"])
    2
    """
    try:
        args = _parser().parse_args(argv)
        try:
            predictions = _predictions(args)
            options: dict[str, Any] = {"beta": args.beta, "stratified": args.stratified, "cv_seed": args.cv_seed}
            if args.confidence is not None:
                options.update(confidence=args.confidence, n_resamples=args.n_resamples, seed=args.seed)
            train = _train_frequencies(args, predictions.y_true)
            if train is not None:
                options["train_frequencies"] = train
            result = report(predictions, **options)
        except ParameterError as err:
            raise BadInputError(_explain(err, args)) from None
    except BadInputError as err:
        print(f"apples: error: {' '.join(str(err).split())}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.format == "json":
        out = result.to_json()
    elif args.format == "html":
        out = result._repr_html_()
    elif args.format == "markdown":
        out = result.to_markdown()
    elif args.format == "latex":
        out = result.to_latex()
    else:
        out = str(result)
    try:
        print(out)
        sys.stdout.flush()
    except BrokenPipeError:
        # `apples report ... | head`: the reader has gone. As Python's documentation recommends (signal
        # module, "Note on SIGPIPE"): point stdout at devnull, so that the flush at exit raises nothing
        # more, and exit with code 1, as Python does on EPIPE.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    return 0
