"""The command line's input, read once: a file, a FIFO, ``/dev/stdin``, a process substitution or ``-`` (standard
input), compressed or not, as one DataFrame (:func:`read_frame`).

Every source is read exactly once (a pipe cannot be read twice). Up to :data:`WHOLE` bytes of text it is read
whole, as bytes, and what is checked afterwards (the header, rows with more fields than the header) is checked on
those bytes; a larger source is streamed (:func:`read_input`): blocks of whole lines, each parsed with the header
and checked alike, its lines and rows numbered in the whole file, with a progress bar on a terminal (tqdm, if it
is installed). Compression is told by
the content, not the name, so it works on standard input too: gzip, bz2, xz and zip by their magic
numbers. The separator is ``--sep``, else the extension (``.tsv``/``.tab``: tab, ``.csv``: comma), else,
for a source without one (``-``, ``/dev/stdin``, ``/dev/fd/63``, a FIFO), the header line: a tab when it
holds a tab and no comma, a comma otherwise. Bad input is a :class:`BadInputError`: one line, exit code 2.
"""

from __future__ import annotations

import bz2
import codecs
import csv
import gzip
import importlib
import io
import lzma
import re
import sys
import warnings
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd

__all__ = [
    "STDIN",
    "WHOLE",
    "BadInputError",
    "read_frame",
    "read_input",
    "source_name",
]

#: The FILE argument that means standard input.
STDIN = "-"

#: Text read whole (a DataFrame in memory) up to this size; a larger input is streamed in blocks of lines.
WHOLE = 16 << 20
#: The text of one streamed block (whole lines).
BLOCK_BYTES = 4 << 20

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


def _parse(text: str, sep: str, name: str, lines_before: int = 0) -> pd.DataFrame:
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
                f"{name}, line {int(line) + lines_before}: {saw} fields where the header has {expected} (an extra "
                "field or separator)"
            ) from None
        raise BadInputError(f"cannot read {name}: {_first_line(err)}") from None
    except (ValueError, MemoryError) as err:
        raise BadInputError(f"cannot read {name}: {_first_line(err)}") from None
    if any(issubclass(w.category, pd.errors.ParserWarning) for w in caught):
        _refuse_extra_fields(text, sep, name, lines_before)  # pandas dropped fields beyond the header's: where?
    return frame


def _refuse_extra_fields(text: str, sep: str, name: str, lines_before: int = 0) -> None:
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
                    f"{name}, line {reader.line_num + lines_before}: {len(row)} fields where the header has {width}; "
                    f"the extra field {extra[0]!r} belongs to no column"
                )
    except csv.Error as err:
        raise BadInputError(
            f"{name}: a row has more fields than the header, which pandas would drop, and the csv module cannot "
            f"find its line ({_first_line(err)})"
        ) from None


def _first_line(err: BaseException) -> str:
    return str(err).splitlines()[0] if str(err).strip() else type(err).__name__


class Streamed:
    """A large input: its blocks of rows (DataFrames whose index counts the rows of the whole file), read once."""

    def __init__(self, stream: io.BufferedIOBase, first: bytes, source: str, sep: str | None, raw: Any) -> None:
        self.stream, self.first, self.source, self.sep, self.raw = stream, first, source, sep, raw
        self.name = source_name(source)

    def blocks(self) -> Iterator[pd.DataFrame]:
        """The rows, a block of whole lines at a time, each parsed with the header and checked as a whole file is."""
        decoder = codecs.getincrementaldecoder("utf-8-sig")()
        name = self.name
        pending, header, delimiter = "", None, ","
        lines_before, rows_before = 0, 0
        data = self.first
        bar = _progress(self.raw, self.source)
        try:
            while True:
                final = not data
                try:
                    pending += decoder.decode(data, final=final)
                except UnicodeDecodeError:
                    raise BadInputError(f"cannot read {name}: it is not UTF-8 text; save it as UTF-8") from None
                if header is None and ("\n" in pending or final):
                    line, _, rest = pending.partition("\n")
                    header, pending = line + "\n", rest
                    delimiter = separator(self.source, self.sep, header)
                    _check_header(header, delimiter, name)
                while header is not None and pending and (final or len(pending) >= BLOCK_BYTES):
                    # a block of at most BLOCK_BYTES of whole lines (pandas' parser holds a block's fields as text)
                    cut = _last_line_end(pending[:BLOCK_BYTES]) or (len(pending) if final else 0)
                    if not cut:  # a line longer than a block: wait for its end
                        break
                    text, pending = pending[:cut], pending[cut:]
                    if text.strip():
                        frame = _parse(header + text, delimiter, name, lines_before)
                        frame.index = pd.RangeIndex(rows_before, rows_before + len(frame))
                        lines_before += text.count("\n")
                        rows_before += len(frame)
                        yield frame
                if final:
                    break
                data = self._read()
                if bar is not None:
                    bar.update(self._position() - bar.n)
        finally:
            if bar is not None:
                bar.close()
            if self.source != STDIN:
                self.raw.close()
        if header is None or not header.strip():
            raise BadInputError(f"{name} is empty")
        if rows_before == 0:
            raise BadInputError(f"{name} has no rows (only a header)")

    def _read(self) -> bytes:
        try:
            return self.stream.read(BLOCK_BYTES)
        except (OSError, EOFError, zlib.error, lzma.LZMAError, ValueError) as err:
            raise BadInputError(f"cannot read {self.name}: {_first_line(err)}") from None

    def _position(self) -> int:
        try:
            return int(self.raw.tell())
        except (OSError, ValueError, AttributeError):
            return 0


def _last_line_end(text: str) -> int:
    """Where the last whole line of ``text`` ends: after a newline outside quotes (a quoted field may hold one)."""
    cut = text.rfind("\n") + 1
    while cut and text.count('"', 0, cut) % 2:
        cut = text.rfind("\n", 0, cut - 1) + 1
    return cut


def _progress(raw: Any, source: str) -> Any:
    """A tqdm bar of the bytes read from a regular file, on a terminal only (None without tqdm or a terminal)."""
    if not sys.stderr.isatty() or source == STDIN:
        return None
    try:  # tqdm comes with the notebooks extra: a bar only where it is installed
        tqdm = importlib.import_module("tqdm").tqdm
    except ImportError:
        return None
    try:
        size = Path(source).stat().st_size if Path(source).is_file() else None
    except OSError:
        size = None
    return tqdm(total=size, unit="B", unit_scale=True, desc=source_name(source), file=sys.stderr, leave=False)


def read_input(source: str, sep: str | None, whole: int | None = None) -> pd.DataFrame | Streamed:
    """The input read once: a DataFrame when its text is at most ``whole`` bytes (default :data:`WHOLE`;
    :func:`read_frame`'s checks), else a :class:`Streamed` source whose blocks are read as they are asked for (the
    bytes read so far kept)."""
    whole = WHOLE if whole is None else whole
    name = source_name(source)
    raw = _open(source, name)
    if hasattr(raw, "peek"):
        head = raw.peek(8)[:8]
    else:  # a stream without peek (a BytesIO): its first bytes read, then given back first
        head = _read_exactly(raw, 8, name)
        raw = io.BufferedReader(_Prefixed(head, raw))  # read(n): n bytes, or to the end
    kind = next((k for magic, k in _MAGIC if head.startswith(magic)), None)
    if kind == "zip":  # an archive is read whole (zipfile needs to seek)
        return _whole(source, sep, _read_all(raw, name))
    stream: Any = raw
    try:
        if kind == "gzip":
            stream = gzip.GzipFile(fileobj=raw)
        elif kind == "bz2":
            stream = bz2.BZ2File(raw)
        elif kind == "xz":
            stream = lzma.LZMAFile(raw)  # noqa: SIM115  (read to the end by the caller, then closed)
        pieces, size = [], 0
        while size <= whole:  # in pieces: read(whole + 1) would allocate all of it up front
            piece = stream.read(min(BLOCK_BYTES, whole + 1 - size))
            if not piece:
                break
            pieces.append(piece)
            size += len(piece)
        first = b"".join(pieces)
    except (OSError, EOFError, zlib.error, lzma.LZMAError, ValueError) as err:
        raise BadInputError(f"cannot read {name}: {kind} data that does not decompress ({_first_line(err)})") from None
    if len(first) <= whole:
        if source != STDIN:
            raw.close()
        return _frame_of(_decode(first, name), source, sep, name)
    return Streamed(stream, first, source, sep, raw)


def _read_exactly(raw: Any, n: int, name: str) -> bytes:
    out = b""
    try:
        while len(out) < n:
            more = raw.read(n - len(out))
            if not more:
                break
            out += more
    except (OSError, ValueError) as err:
        raise BadInputError(f"cannot read {name}: {_first_line(err)}") from None
    return out


class _Prefixed(io.RawIOBase):
    """A stream's first bytes, already read, then the rest of it."""

    def __init__(self, head: bytes, rest: Any) -> None:
        self.head, self.rest = head, rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.head:
            n = min(len(buffer), len(self.head))
            buffer[:n], self.head = self.head[:n], self.head[n:]
            return n
        data = self.rest.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def tell(self) -> int:
        return int(self.rest.tell())


def _open(source: str, name: str) -> Any:
    if source == STDIN:
        try:
            return sys.stdin.buffer
        except AttributeError as err:
            raise BadInputError(f"cannot read {name}: {_first_line(err)}") from None
    path = Path(source)
    if not path.exists():
        raise BadInputError(f"{name}: no such file")
    if path.is_dir():
        raise BadInputError(f"{name} is a directory, not a CSV or TSV file")
    try:
        return open(path, "rb")
    except OSError as err:
        raise BadInputError(f"cannot read {name}: {_first_line(err)}") from None


def _read_all(raw: Any, name: str) -> bytes:
    try:
        return bytes(raw.read())
    except (OSError, ValueError) as err:
        raise BadInputError(f"cannot read {name}: {_first_line(err)}") from None


def _whole(source: str, sep: str | None, raw: bytes) -> pd.DataFrame:
    name = source_name(source)
    return _frame_of(_decode(_decompress(raw, name), name), source, sep, name)


def _frame_of(text: str, source: str, sep: str | None, name: str) -> pd.DataFrame:
    """The checks and the parse of :func:`read_frame` on the whole text."""
    if not text.strip():
        raise BadInputError(f"{name} is empty")
    delimiter = separator(source, sep, text)
    _check_header(text, delimiter, name)
    frame = _parse(text, delimiter, name)
    if frame.empty:
        raise BadInputError(f"{name} has no rows (only a header)")
    return frame
