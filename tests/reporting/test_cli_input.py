"""``apples report``'s input is read exactly once: a FIFO, a process substitution, ``/dev/stdin`` and ``-`` (standard
input) work like a file, compressed or not; odd but valid CSVs (a byte-order mark, CRLF line ends, quoted fields, a
trailing empty line, text columns) give the numbers scikit-learn gives on the same data."""

from __future__ import annotations

import bz2
import csv
import gzip
import importlib
import io
import lzma
import os
import shutil
import subprocess
import sys
import threading
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import f1_score, roc_auc_score

import apples

from report_view import nested

cli = importlib.import_module("apples.cli")
if "cli" not in apples.__all__ and "cli" in vars(apples):  # keep `dir(apples)` as test_layout counts it
    delattr(apples, "cli")

COLS = ["--truth", "y", "--fold", "fold", "--pred", "pred", "--score", "score", "--format", "json"]


def _frame(seed: int = 0, n: int = 120, k: int = 4) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(int)
    s = rng.standard_normal(n) + y
    return pd.DataFrame({"y": y, "fold": np.arange(n) % k, "pred": (s > 0.5).astype(int), "score": s})


def _csv(df: pd.DataFrame, **options) -> bytes:
    return df.to_csv(index=False, **options).encode()


def _check(out: str, df: pd.DataFrame, pos=1) -> None:
    d = nested(apples.CVReport.from_json(out))
    assert d["f_measure"]["tp_fp"] == pytest.approx(f1_score(df.y, df.pred, pos_label=pos), rel=1e-12)
    assert d["roc_auc"]["merge"] == pytest.approx(roc_auc_score(df.y == pos, df.score), rel=1e-12)


class _Stdin:
    """sys.stdin with bytes behind it, as a pipe gives them (read once: a second read gets nothing)."""

    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


def _run_stdin(monkeypatch, capsys, data: bytes, *argv):
    monkeypatch.setattr(sys, "stdin", _Stdin(data))
    code = cli.main(["report", "-", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _python_m(args, stdin: bytes, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "apples", *args], input=stdin, cwd=cwd, capture_output=True, timeout=120
    )


# -- sources that can be read only once ----------------------------------------------------------------------------
def test_a_fifo_is_read_once(tmp_path, capsys):
    """Before: the header check read the FIFO, and the full read waited for a writer that had gone (a hang)."""
    df = _frame(1)
    fifo = tmp_path / "p.csv"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "wb") as fh:
            fh.write(_csv(df))

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    code = cli.main(["report", str(fifo), *COLS])
    out, err = capsys.readouterr()
    writer.join(timeout=10)
    assert code == 0 and err == "", err
    _check(out, df)


def test_dev_stdin_through_a_pipe_is_read_once(tmp_path):
    """Before: `apples report /dev/stdin ...` said the input "is empty" (the second read found the pipe drained)."""
    df = _frame(2)
    done = _python_m(["report", "/dev/stdin", *COLS], _csv(df), tmp_path)
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    _check(done.stdout.decode(), df)
    gz = _python_m(["report", "-", *COLS], gzip.compress(_csv(df)), tmp_path)  # gzip on standard input
    assert gz.returncode == 0 and gz.stdout == done.stdout


@pytest.mark.skipif(shutil.which("bash") is None, reason="process substitution needs bash")
def test_a_process_substitution(tmp_path):
    df = _frame(3)
    (tmp_path / "p.tsv").write_bytes(_csv(df, sep="\t"))
    line = f"{sys.executable} -m apples report <(cat p.tsv) " + " ".join(COLS)  # /dev/fd/63: no extension, a tab
    done = subprocess.run(["bash", "-c", line], cwd=tmp_path, capture_output=True, timeout=120)
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    _check(done.stdout.decode(), df)


def test_dash_reads_standard_input(monkeypatch, capsys):
    df = _frame(4)
    code, out, err = _run_stdin(monkeypatch, capsys, _csv(df), *COLS)
    assert code == 0 and err == ""
    _check(out, df)


@pytest.mark.parametrize("pack", [gzip.compress, bz2.compress, lzma.compress], ids=["gzip", "bz2", "xz"])
def test_compression_is_told_by_content_on_standard_input(monkeypatch, capsys, pack):
    df = _frame(5)
    code, out, err = _run_stdin(monkeypatch, capsys, pack(_csv(df)), *COLS)
    assert code == 0 and err == "", err
    _check(out, df)


def test_a_zip_archive_of_one_file_and_of_two(tmp_path, capsys):
    df = _frame(6)
    with zipfile.ZipFile(tmp_path / "one.zip", "w") as z:
        z.writestr("p.csv", _csv(df))
    with zipfile.ZipFile(tmp_path / "two.zip", "w") as z:
        z.writestr("p.csv", _csv(df))
        z.writestr("q.csv", _csv(df))
    assert cli.main(["report", str(tmp_path / "one.zip"), *COLS]) == 0
    _check(capsys.readouterr().out, df)
    assert cli.main(["report", str(tmp_path / "two.zip"), *COLS]) == 2
    assert "zip archive of 2 files" in capsys.readouterr().err


def test_a_tsv_on_standard_input_is_told_by_its_header_and_sep_overrides(monkeypatch, capsys):
    df = _frame(7)
    code, out, err = _run_stdin(monkeypatch, capsys, _csv(df, sep="\t"), *COLS)
    assert code == 0 and err == "", err
    _check(out, df)
    code, out, err = _run_stdin(monkeypatch, capsys, _csv(df, sep=";"), *COLS, "--sep", ";")
    assert code == 0, err
    _check(out, df)
    code, out, err = _run_stdin(monkeypatch, capsys, _csv(df, sep=";"), *COLS)  # a comma by default: one column
    assert code == 2 and "column 'y' (--truth) is not in standard input" in err


@pytest.mark.parametrize(
    "data, words",
    [
        (b"", "standard input is empty"),
        (b"\n\n", "standard input is empty"),
        (b"y,fold,pred,score\n", "standard input has no rows (only a header)"),
        (b"y,fold,pred,score\r\n\r\n", "standard input has no rows (only a header)"),
        (gzip.compress(b""), "standard input is empty"),
        (b"\x1f\x8b\x08\x00not gzip", "cannot read standard input: gzip data that does not decompress"),
        ("y,fold\n1,0\n0,é\n".encode("latin-1"), "line 3 is not UTF-8 text (byte 0xe9)"),
    ],
    ids=["empty", "blank lines", "header only", "header only CRLF", "empty gzip", "broken gzip", "latin-1"],
)
def test_empty_and_unreadable_standard_input_is_one_line_exit_2(monkeypatch, capsys, data, words):
    code, out, err = _run_stdin(monkeypatch, capsys, data, *COLS)
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert words in err, err


# -- odd but valid CSVs ---------------------------------------------------------------------------------------------
def test_a_byte_order_mark_is_not_part_of_the_first_column_name(tmp_path, capsys):
    df = _frame(8)
    (tmp_path / "bom.csv").write_bytes(df.to_csv(index=False).encode("utf-8-sig"))  # Excel's "CSV UTF-8"
    assert (tmp_path / "bom.csv").read_bytes().startswith(b"\xef\xbb\xbf")
    code = cli.main(["report", str(tmp_path / "bom.csv"), *COLS])
    out, err = capsys.readouterr()
    assert code == 0 and err == "", err
    _check(out, df)


def test_crlf_line_ends_quoted_fields_and_a_trailing_empty_line(tmp_path, capsys):
    df = _frame(9)
    df["y"] = np.where(df.y == 1, 'spam, "really"', "ham")  # a comma and quotes inside the label
    df["pred"] = np.where(df.pred == 1, 'spam, "really"', "ham")
    text = df.to_csv(index=False, lineterminator="\r\n", quoting=csv.QUOTE_ALL) + "\r\n"
    (tmp_path / "odd.csv").write_bytes(text.encode())
    code = cli.main(["report", str(tmp_path / "odd.csv"), *COLS, "--pos-label", 'spam, "really"'])
    out, err = capsys.readouterr()
    assert code == 0 and err == "", err
    d = nested(apples.CVReport.from_json(out))
    assert d["pos_label"] == 'spam, "really"' and d["n_folds"] == 4
    _check(out, df, pos='spam, "really"')


def test_text_columns_whose_positive_label_sorts_first(tmp_path, capsys):
    """Labels read as pandas string columns; "benign" sorts before "malignant" and is the positive label."""
    df = _frame(10)
    df["y"] = np.where(df.y == 1, "benign", "malignant")
    df["pred"] = np.where(df.pred == 1, "benign", "malignant")
    df["fold"] = np.array(["a", "b", "c", "d"])[df.fold]
    df.to_csv(tmp_path / "t.csv", index=False)
    assert pd.api.types.is_string_dtype(pd.read_csv(tmp_path / "t.csv")["y"])
    code = cli.main(["report", str(tmp_path / "t.csv"), *COLS, "--pos-label", "benign"])
    out, err = capsys.readouterr()
    assert code == 0 and err == "", err
    _check(out, df, pos="benign")


def test_a_reader_that_goes_away_from_standard_input_gets_no_traceback(tmp_path):
    """`cat a.csv | apples report - ... | head -3`: quiet, exit code 1."""
    df = pd.concat([_frame(11)] * 5, ignore_index=True)
    child = subprocess.Popen(
        [sys.executable, "-m", "apples", "report", "-", *COLS],
        cwd=tmp_path,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdout is not None and child.stdin is not None and child.stderr is not None
    child.stdout.close()
    child.stdin.write(_csv(df))
    child.stdin.close()
    err = child.stderr.read().decode()
    assert child.wait(timeout=120) == cli.EXIT_BROKEN_PIPE and err == ""
