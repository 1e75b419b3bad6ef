"""The command line's input, read once: a file, a FIFO, ``/dev/stdin``, a process substitution or ``-`` (standard
input), compressed or not, as one DataFrame (:func:`read_frame`).

Every source is read exactly once, as bytes (a pipe cannot be read twice); what is checked afterwards
(the header, rows with more fields than the header) is checked on those bytes. Compression is told by
the content, not the name, so it works on standard input too: gzip, bz2, xz and zip by their magic
numbers. The separator is ``--sep``, else the extension (``.tsv``/``.tab``: tab, ``.csv``: comma), else,
for a source without one (``-``, ``/dev/stdin``, ``/dev/fd/63``, a FIFO), the header line: a tab when it
holds a tab and no comma, a comma otherwise. Bad input is a :class:`BadInputError`: one line, exit code 2.
"""

from __future__ import annotations

import bz2
import csv
import gzip
import io
import lzma
import re
import sys
import warnings
import zipfile
import zlib
from pathlib import Path

import pandas as pd

__all__ = [
    "STDIN",
    "BadInputError",
    "read_frame",
    "source_name",
]

#: The FILE argument that means standard input.
STDIN = "-"

#: Magic numbers of the compressed formats read from any source, and their names.
_MAGIC = ((b"\x1f\x8b", "gzip"), (b"BZh", "bz2"), (b"\xfd7zXZ\x00", "xz"), (b"PK\x03\x04", "zip"))
_COMPRESSED_SUFFIXES = (".gz", ".bz2", ".xz", ".zip")


class BadInputError(Exception):
    """A problem with the command line or its input: printed as one line, exit code 2."""


def source_name(source: str) -> str:
    """How messages name the input: its path, or "standard input" for ``-``."""
    return "standard input" if source == STDIN else source


def read_frame(source: str, sep: str | None) -> pd.DataFrame:
    """The input as a DataFrame, read once: ``source`` is a path (a file, FIFO or device) or ``-``.

    Refused (:class:`BadInputError`): a missing path, a directory, input that cannot be read,
    decompressed or decoded as UTF-8 (a byte-order mark is dropped), empty input, a header that names a
    column twice, a row with a non-empty field beyond the header's (named by its line), a header
    without rows.
    """
    name = source_name(source)
    raw = _read_bytes(source, name)
    text = _decode(_decompress(raw, name), name)
    if not text.strip():
        raise BadInputError(f"{name} is empty")
    delimiter = separator(source, sep, text)
    _check_header(text, delimiter, name)
    frame = _parse(text, delimiter, name)
    if frame.empty:
        raise BadInputError(f"{name} has no rows (only a header)")
    return frame


def _read_bytes(source: str, name: str) -> bytes:
    if source == STDIN:
        try:
            return sys.stdin.buffer.read()
        except (OSError, AttributeError, ValueError) as err:
            raise BadInputError(f"cannot read {name}: {_first_line(err)}") from None
    path = Path(source)
    if not path.exists():
        raise BadInputError(f"{name}: no such file")
    if path.is_dir():
        raise BadInputError(f"{name} is a directory, not a CSV or TSV file")
    try:
        with open(path, "rb") as fh:  # a FIFO or /dev/stdin too: read once, to the end
            return fh.read()
    except OSError as err:
        raise BadInputError(f"cannot read {name}: {_first_line(err)}") from None


def _decompress(data: bytes, name: str) -> bytes:
    kind = next((k for magic, k in _MAGIC if data.startswith(magic)), None)
    if kind is None:
        return data
    try:
        if kind == "gzip":
            return gzip.decompress(data)
        if kind == "bz2":
            return bz2.decompress(data)
        if kind == "xz":
            return lzma.decompress(data)
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = [m for m in archive.infolist() if not m.is_dir()]
            if len(members) != 1:
                raise BadInputError(
                    f"{name} is a zip archive of {len(members)} files; give one CSV or TSV file (or unzip it)"
                )
            return archive.read(members[0])
    except (OSError, EOFError, zlib.error, lzma.LZMAError, zipfile.BadZipFile, ValueError) as err:
        raise BadInputError(f"cannot read {name}: {kind} data that does not decompress ({_first_line(err)})") from None


def _decode(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8-sig")  # a byte-order mark (Excel's "CSV UTF-8") is not part of the first name
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise BadInputError(
            f"cannot read {name}: line {line} is not UTF-8 text (byte {data[err.start]:#04x}); save it as UTF-8"
        ) from None


def separator(source: str, sep: str | None, text: str = "") -> str:
    """The field separator: ``--sep`` (``\\t`` or ``tab`` for a tab), else the extension, else the header line."""
    if sep is not None:
        if sep in ("\\t", "tab"):
            return "\t"
        if len(sep) != 1 or sep in '\r\n"':
            raise BadInputError(f"--sep must be one character (or '\\t' or 'tab' for a tab), got {sep!r}")
        return sep
    suffixes = [] if source == STDIN else [s.lower() for s in Path(source).suffixes]
    if suffixes and suffixes[-1] in _COMPRESSED_SUFFIXES:
        suffixes = suffixes[:-1]
    if suffixes and suffixes[-1] in (".tsv", ".tab"):
        return "\t"
    if suffixes and suffixes[-1] == ".csv":
        return ","
    header = text.split("\n", 1)[0]
    return "\t" if "\t" in header and "," not in header else ","


def _check_header(text: str, sep: str, name: str) -> None:
    """Refuse a header that names a column twice: pandas would rename the second ``y`` to ``y.1``, silently."""
    try:
        header = next(csv.reader(io.StringIO(text, newline=""), delimiter=sep), [])
    except csv.Error:
        return  # a header the csv module cannot parse: pandas says what is wrong
    seen: dict[str, list[int]] = {}
    for i, column in enumerate(header, start=1):
        seen.setdefault(column, []).append(i)
    twice = {column: where for column, where in seen.items() if len(where) > 1}
    if twice:
        column, where = next(iter(twice.items()))
        raise BadInputError(
            f"the header of {name} names column {column!r} {len(where)} times (columns "
            f"{', '.join(map(str, where))}): give each column its own name"
        )


def _parse(text: str, sep: str, name: str) -> pd.DataFrame:
    try:
        # index_col=False: pandas must never take the first column for an index when the rows have one field
        # more than the header (a trailing separator), which would shift every column by one, silently
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", pd.errors.ParserWarning)
            frame = pd.read_csv(io.StringIO(text, newline=""), sep=sep, low_memory=False, index_col=False)
    except pd.errors.EmptyDataError:
        raise BadInputError(f"{name} is empty") from None
    except pd.errors.ParserError as err:
        found = re.search(r"Expected (\d+) fields in line (\d+), saw (\d+)", str(err))
        if found:
            expected, line, saw = found.groups()
            raise BadInputError(
                f"{name}, line {line}: {saw} fields where the header has {expected} (an extra field or separator)"
            ) from None
        raise BadInputError(f"cannot read {name}: {_first_line(err)}") from None
    except (ValueError, MemoryError) as err:
        raise BadInputError(f"cannot read {name}: {_first_line(err)}") from None
    if any(issubclass(w.category, pd.errors.ParserWarning) for w in caught):
        _refuse_extra_fields(text, sep, name)  # pandas dropped fields beyond the header's; say where, if any held data
    return frame


def _refuse_extra_fields(text: str, sep: str, name: str) -> None:
    """The line of the first row with a non-empty field beyond the header's, as a BadInputError.

    Called when pandas warned that it dropped fields; rows whose extra fields are all empty (a trailing
    separator) lose nothing and pass.
    """
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep)
    try:
        width = len(next(reader, []))
        for row in reader:
            extra = [f for f in row[width:] if f.strip()]
            if extra:
                raise BadInputError(
                    f"{name}, line {reader.line_num}: {len(row)} fields where the header has {width}; the extra "
                    f"field {extra[0]!r} belongs to no column"
                )
    except csv.Error as err:
        raise BadInputError(
            f"{name}: a row has more fields than the header, which pandas would drop, and the csv module cannot "
            f"find its line ({_first_line(err)})"
        ) from None


def _first_line(err: BaseException) -> str:
    return str(err).splitlines()[0] if str(err).strip() else type(err).__name__
