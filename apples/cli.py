"""The ``apples`` command: ``apples report FILE --truth COL --fold COL ...`` and ``apples compare FILE --model COL
...`` (also ``python -m apples``).

``report`` reads a CSV or TSV of cross-validated predictions (one row per case and repeat), calls
:func:`apples.report` and prints the report as text, JSON, HTML, Markdown or LaTeX. ``compare`` reads
one file holding several models' predictions (a ``--model`` column), pairs them row for row and
prints :func:`apples.compare`. FILE is a path (a regular file, a FIFO, a process substitution such as
``<(zcat runs.csv.gz)``, ``/dev/stdin``) or ``-`` for standard input; it is read exactly once
(:mod:`apples._cli_read`: compression told by content, the separator by ``--sep``, the extension or
the header line). The options name columns; :mod:`apples._cli_columns` turns them into the arguments
of :class:`apples.CVPredictions`, which checks them, and tells every error in the options' words.

Bad input gets one line on stderr and exit code 2, nothing on stdout: a missing, unreadable or empty
file, a column name used twice in the header, a row with more fields than the header (named by its
line; a trailing separator on every row is read as the empty field it is), a missing column (named,
with the columns there are), a single fold, truth and predictions of different types, missing or
non-numeric scores or weights, integer scores beyond 64 bits, one score column for labels that are
not binary, a positive label that is not in the data, an unknown measure, models that do not pair. A fold with
one class is reported under the policy
of :func:`apples.report`, not refused; the report's warnings are printed with it. Output cut short by
its reader (``apples report ... | head``) ends quietly with exit code 1.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from apples._cli_columns import explain, label_value, prediction_arguments
from apples._cli_compare import model_predictions, render
from apples._cli_read import BadInputError, Streamed, read_frame, read_input, source_name
from apples._params import ParameterError, UndefinedMetricError
from apples.comparison import compare
from apples.cv._summarise import Builder
from apples.cv.predictions import CVPredictions
from apples.cv.summary import BUCKET_ROWS, CVSummary
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

_INPUT = """\
FILE is a CSV (.csv) or TSV (.tsv, .tab) file, a FIFO or process substitution (<(zcat runs.csv.gz)), /dev/stdin,
or - for standard input; it is read once. gzip, bz2, xz and zip input is told by its content (so it works on
standard input too). The separator is --sep, else the extension, else (for -, /dev/stdin and other names without
one) the header line: a tab if it holds a tab and no comma, a comma otherwise. Bad input: one line on stderr, exit
code 2. Output cut short by its reader (`apples report ... | head`) ends quietly, exit code 1.
"""

_REPORT_EXAMPLES = """\
example:
  apples report predictions.csv --truth y --fold fold --pred y_pred --score score
  apples report runs.tsv.gz --truth y --fold fold --repeat repeat --pred y_pred --format json
  zcat runs.csv.gz | apples report - --truth y --fold fold --pred y_pred   (standard input)
  apples report iris.csv --truth y --fold fold --pred y_pred --score p_0 p_1 p_2   (one score column per label)
  apples report predictions.csv --truth y --fold fold --pred y_pred --weight w --case id   (weighted rows)
  apples report predictions.csv --truth y --fold fold --pred y_pred --confidence 0.95   (intervals too)
  apples report iris.csv --truth y --fold fold --pred y_pred --labels a b c --train-frequencies a=0.5 b=0.3 c=0.2
  apples report predictions.csv --truth y --fold fold --pred y_pred --beta 2 --stratified --cv-seed 42 --format latex
  apples report predictions.csv --truth y --fold fold --pred y_pred --score p --measures mcc log_loss --eps auto

The positive label defaults to 1 for 0/1 labels; give --pos-label otherwise. A binary --score column is the
positive label's score (higher = more likely that label); one that ranks the other way is warned about.
Multi-class scores need one column per label, in the sorted order of the labels.
"""

_COMPARE_EXAMPLES = """\
example:
  apples compare runs.csv --model model --truth y --fold fold --repeat repeat --pred y_pred --score score
  apples compare runs.csv --model model --truth y --fold fold --case id --pred y_pred --measures f_measure accuracy
  apples compare runs.csv --model model --truth y --fold fold --pred y --score s --measures roc_auc:merge --weight w

Each model's rows are sorted by repeat, fold and case (--case; without it, their order in the file within each
fold), and must then hold the same repeats, folds, cases and true labels as the first model, row for row.
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise BadInputError(message)


def _columns(sub: argparse.ArgumentParser) -> None:
    """The options that name columns, and the labels, shared by ``report`` and ``compare``."""
    sub.add_argument("file", metavar="FILE", help="CSV or TSV file (optionally compressed), a FIFO, or - for stdin")
    sub.add_argument("--truth", required=True, metavar="COL", help="column of true labels")
    sub.add_argument("--fold", required=True, metavar="COL", help="column of test-fold ids")
    sub.add_argument("--pred", metavar="COL", help="column of predicted labels")
    sub.add_argument(
        "--score",
        nargs="+",
        metavar="COL",
        help="binary: the positive label's score column (higher = more likely the positive label, e.g. its "
        "probability; not the other label's); multi-class: one column per label, in sorted label order",
    )
    sub.add_argument("--repeat", metavar="COL", help="column of repeat ids (repeated cross-validation)")
    sub.add_argument("--case", metavar="COL", help="column of case ids (a case has one row per repeat)")
    sub.add_argument("--pos-label", metavar="L", help="the positive label (binary); default 1 for 0/1 labels")
    sub.add_argument(
        "--labels",
        nargs="+",
        metavar="L",
        help="multi-class: the label set, used in every fold (default: every label of the data)",
    )
    sub.add_argument("--sep", metavar="S", help="field separator (default: by extension, else by the header line)")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="apples", description="Measure classifiers under cross-validation, apples to apples.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)
    rep = sub.add_parser(
        "report",
        help="every aggregation of a cross-validated result from a CSV/TSV file",
        description="Every aggregation of a cross-validated result (apples.report) from a CSV or TSV file.",
        epilog=_REPORT_EXAMPLES + "\n" + _INPUT,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _columns(rep)
    rep.add_argument(
        "--weight", metavar="COL", help="column of sample weights (finite, non-negative): every value is weighted"
    )
    rep.add_argument(
        "--train-frequencies",
        nargs="+",
        metavar="L=F",
        help="multi-class: training-set label frequencies for lfb_train (Van Asch eq. 10), e.g. a=0.5 b=0.3 c=0.2",
    )
    rep.add_argument("--beta", type=float, default=1.0, metavar="B", help="report F_beta (default 1: F1)")
    rep.add_argument(
        "--measures",
        nargs="+",
        metavar="M",
        help="the measures to report, keys of apples.measures.MEASURES (f_measure, precision, recall, accuracy, "
        "balanced_accuracy, mcc, cohen_kappa, roc_auc, average_precision, h_measure, log_loss, brier_score, ...; "
        "default: every one the columns allow)",
    )
    rep.add_argument(
        "--eps",
        metavar="E",
        help="log loss: clip the probabilities to [E, 1 - E], or 'auto' (scikit-learn's clipping); default: a "
        "probability 0 for the true label is reported as an infinite log loss",
    )
    rep.add_argument(
        "--severity-ratio",
        type=float,
        metavar="R",
        help="the H-measure's severity ratio (cost of a false positive over a false negative; default: pi1/pi0)",
    )
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
    rep.add_argument(
        "--confidence",
        type=float,
        metavar="C",
        help="add a confidence interval beside every value, e.g. 0.95 (default: no intervals)",
    )
    cmp = sub.add_parser(
        "compare",
        help="models cross-validated on the same folds, compared measure by measure (a --model column)",
        description="Models cross-validated on the same cases and folds, compared (apples.compare): each "
        "measure's difference, its interval and the corrected repeated k-fold t test.",
        epilog=_COMPARE_EXAMPLES + "\n" + _INPUT,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _columns(cmp)
    cmp.add_argument("--model", required=True, metavar="COL", help="column of model names (two or more models)")
    cmp.add_argument(
        "--weight", metavar="COL", help="column of sample weights (finite, non-negative): every value is weighted"
    )
    cmp.add_argument(
        "--measures",
        nargs="+",
        metavar="M",
        help="measure keys (f_measure, accuracy, mcc, roc_auc, ...), at the aggregation the papers support, or "
        "KEY:AGGREGATION (roc_auc:merge), KEY:AVERAGE:AGGREGATION (mean_f:micro:pooled); default: the task's",
    )
    cmp.add_argument(
        "--per-label",
        action="store_true",
        help="multi-class and multi-label: also each label's F1 against the rest (pooled over the folds)",
    )
    cmp.add_argument(
        "--confidence", type=float, default=0.95, metavar="C", help="coverage of the intervals (default 0.95)"
    )
    cmp.add_argument(
        "--format",
        choices=("text", "json", "html", "markdown", "latex"),
        default="text",
        help="output format (default: text)",
    )
    return parser


def _train_frequencies(args: argparse.Namespace, truth: Any) -> dict[object, object] | None:
    """``--train-frequencies a=0.5 b=0.5`` as a mapping label -> frequency (checked by :func:`apples.report`)."""
    if not args.train_frequencies:
        return None
    out: dict[object, object] = {}
    for item in args.train_frequencies:
        label, sep, value = item.rpartition("=")
        if not sep or not label:
            raise BadInputError(f"--train-frequencies takes LABEL=FREQUENCY items, got {item!r}")
        try:
            out[label_value(label, truth)] = float(value)
        except ValueError:
            raise BadInputError(f"--train-frequencies: {value!r} (for label {label!r}) is not a number") from None
    return out


def _report(args: argparse.Namespace) -> str:
    options: dict[str, Any] = {"beta": args.beta, "stratified": args.stratified, "cv_seed": args.cv_seed}
    if args.confidence is not None:
        options["confidence"] = args.confidence
    if args.measures:
        options["measures"] = args.measures
    if args.eps is not None:
        try:
            options["eps"] = "auto" if args.eps == "auto" else float(args.eps)
        except ValueError:
            raise BadInputError(f"--eps takes a number in (0, 0.5) or 'auto', got {args.eps!r}") from None
    if args.severity_ratio is not None:
        options["severity_ratio"] = args.severity_ratio
    source = source_name(args.file)
    data = read_input(args.file, args.sep)
    predictions: CVPredictions | CVSummary
    if isinstance(data, Streamed):  # too large to hold whole: summarised block by block, the same values
        predictions, truth = _summary(data, args, source)
    else:
        truth, kwargs = prediction_arguments(data, args, source)
        predictions = CVPredictions(truth, **kwargs)
    train = _train_frequencies(args, truth)
    if train is not None:
        options["train_frequencies"] = train
    result = report(predictions, **options)
    if args.format == "json":
        return str(result.to_json())
    if args.format == "html":
        return str(result._repr_html_())
    if args.format == "markdown":
        return str(result.to_markdown())
    if args.format == "latex":
        return str(result.to_latex())
    return str(result)


def _summary(data: Streamed, args: argparse.Namespace, source: str) -> tuple[CVSummary, Any]:
    """A streamed input summarised (:class:`apples.cv.CVSummary`): each block's columns as the arguments of
    :class:`apples.CVPredictions`, checked and summed in turn; the first block's true labels for their type."""
    first_truth = None
    options: dict[str, Any] = {}
    with Builder(None, None, None, None, BUCKET_ROWS, None, _stage_bar()) as builder:
        for frame in data.blocks():
            truth, kwargs = prediction_arguments(frame, args, source)
            if first_truth is None:
                first_truth = truth
                options = {key: kwargs.pop(key) for key in ("pos_label", "labels") if key in kwargs}
                builder.labels, builder.pos_label = options.get("labels"), options.get("pos_label")
            kwargs = {key: value for key, value in kwargs.items() if key not in ("pos_label", "labels")}
            builder.add({"y_true": truth, **kwargs})
        return builder.finish(), first_truth


def _stage_bar() -> Any:
    """A tqdm bar of the summary's later passes (summing the blocks, walking the rankings), on a terminal only."""
    if not sys.stderr.isatty():
        return None
    try:  # tqdm comes with the notebooks extra: a bar only where it is installed
        tqdm = importlib.import_module("tqdm").tqdm
    except ImportError:
        return None
    bars: dict[str, Any] = {}

    def step(stage: str, i: int) -> None:
        if stage not in bars:
            for bar in bars.values():
                bar.close()
            bars[stage] = tqdm(desc=stage, unit=" blocks" if stage == "summing" else " rankings", file=sys.stderr)
        bars[stage].update(1)

    return step


def _compare(args: argparse.Namespace) -> str:
    source = source_name(args.file)
    names, models = model_predictions(read_frame(args.file, args.sep), args, source)
    options: dict[str, Any] = {"names": names, "confidence": args.confidence, "per_label": args.per_label}
    if args.measures:
        options["measures"] = args.measures
    try:
        result = compare(*models, **options)
    except ParameterError as err:
        if re.fullmatch(r"a|b|more\[\d+\]", err.param or ""):
            i = 0 if err.param == "a" else 1 if err.param == "b" else 2 + int((err.param or "")[5:-1])
            raise BadInputError(f"--model: model {names[i]!r}: {explain(err, args)}") from None
        raise
    except UndefinedMetricError as err:  # 0/0: the message's advice is for the Python API
        raise BadInputError(re.split(r";\s*pass undefined=", str(err))[0]) from None
    return render(result, args.format)


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
            out = _report(args) if args.command == "report" else _compare(args)
        except ParameterError as err:
            raise BadInputError(explain(err, args)) from None
    except BadInputError as err:
        print(f"apples: error: {' '.join(str(err).split())}", file=sys.stderr)
        return EXIT_BAD_INPUT
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
