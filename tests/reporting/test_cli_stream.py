"""``apples report`` on input too large to read whole streams it (blocks of lines into an apples.cv.CVSummary): the
same report as the whole read, from a file, a gzip file or standard input, its errors on the lines of the file, its
temporary files removed. The limits are lowered here so that a few thousand rows stream."""

from __future__ import annotations

import gzip
import importlib
import io
import json
import sys
import tempfile

import numpy as np
import pandas as pd
import pytest

import apples

cli = importlib.import_module("apples.cli")
read = importlib.import_module("apples._cli_read")
if "cli" not in apples.__all__ and "cli" in vars(apples):  # keep `dir(apples)` as test_layout counts it
    delattr(apples, "cli")

COLS = ["--truth", "y", "--fold", "fold", "--pred", "pred", "--score", "score", "--format", "json"]


def _frame(n: int = 6000, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.3, "spam", "ham")
    s = np.round(rng.standard_normal(n) + (y == "spam"), 2)  # ties
    return pd.DataFrame(
        {
            "y": y,
            "fold": rng.integers(0, 5, n),
            "pred": np.where(s > 0.5, "spam", "ham"),
            "score": s,
            "w": np.round(rng.random(n), 3),
            "r": rng.integers(0, 2, n),
        }
    )


class _Stdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


def _run(monkeypatch, capsys, argv, *, stream: bool, stdin: bytes | None = None):
    monkeypatch.setattr(read, "WHOLE", 4000 if stream else 1 << 30)  # bytes of text read whole
    monkeypatch.setattr(read, "BLOCK_BYTES", 3000)  # a block: ~150 lines
    monkeypatch.setattr(cli, "BUCKET_ROWS", 700)  # a bucket of scores: ~700 rows
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", _Stdin(stdin))
    code = cli.main(["report", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _same(a: str, b: str, *, bits: bool) -> None:
    x, y = json.loads(a), json.loads(b)
    if bits:
        assert x == y
        return
    assert x.keys() == y.keys() and x["n"] == y["n"] and x["folds"] == y["folds"]
    for u, v in zip(x["values"], y["values"], strict=True):
        assert (u["quantity"], u["aggregation"]) == (v["quantity"], v["aggregation"])
        assert u["value"] == pytest.approx(v["value"], rel=1e-12, abs=1e-15)


@pytest.mark.parametrize(
    "options", [[], ["--weight", "w", "--repeat", "r", "--confidence", "0.9"]], ids=["plain", "more"]
)
def test_a_streamed_file_gives_the_report_of_the_whole_read(tmp_path, monkeypatch, capsys, options):
    path = tmp_path / "p.csv.gz"
    path.write_bytes(gzip.compress(_frame().to_csv(index=False).encode()))
    argv = [str(path), *COLS, "--pos-label", "spam", *options]
    code, whole, err = _run(monkeypatch, capsys, argv, stream=False)
    assert code == 0, err
    code, streamed, err = _run(monkeypatch, capsys, argv, stream=True)
    assert code == 0 and err == "", err
    _same(whole, streamed, bits=not options)  # without weights the sums run in the same order: the same bits


def test_standard_input_is_streamed_once_and_the_temporary_files_go(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    data = gzip.compress(_frame(seed=1).to_csv(index=False).encode())
    argv = ["-", *COLS, "--pos-label", "spam"]
    code, whole, _ = _run(monkeypatch, capsys, argv, stream=False, stdin=data)
    code, streamed, err = _run(monkeypatch, capsys, argv, stream=True, stdin=data)
    assert code == 0 and err == "", err
    _same(whole, streamed, bits=True)
    assert not list(tmp_path.glob("apples-summary-*"))


def test_errors_in_a_later_block_name_the_line_of_the_file(tmp_path, monkeypatch, capsys):
    frame = _frame(3000)
    bad = frame.astype({"score": object})
    bad.loc[2500, "score"] = "oops"  # row 2500: line 2502 (the header is line 1)
    path = tmp_path / "p.csv"
    bad.to_csv(path, index=False)
    code, out, err = _run(monkeypatch, capsys, [str(path), *COLS, "--pos-label", "spam"], stream=True)
    assert code == 2 and out == "" and "line 2502" in err and "'oops'" in err, err
    text = frame.to_csv(index=False).splitlines()
    text[2801] += ",7"  # line 2802: a field beyond the header's
    path.write_text("\n".join(text) + "\n")
    code, out, err = _run(monkeypatch, capsys, [str(path), *COLS, "--pos-label", "spam"], stream=True)
    assert code == 2 and "line 2802" in err, err
    frame.loc[2900, "y"] = np.nan  # a missing label: its position counted over every block
    frame.to_csv(path, index=False)
    code, out, err = _run(monkeypatch, capsys, [str(path), *COLS, "--pos-label", "spam"], stream=True)
    assert code == 2 and "--truth column 'y'" in err and "line 2902" in err, err
