"""Every ```python block of README.md runs as written, each in a fresh namespace (matplotlib on Agg).

A block that cannot run here (a cluster, a file of the reader's) is preceded in README.md by the line
``<!-- test_readme: skip: <reason> -->``; the test skips it with that reason. Every other block must run:
a reader copies the quick start first.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
_FENCE = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)
_SKIP = re.compile(r"<!--\s*test_readme:\s*skip:\s*(.+?)\s*-->\s*\Z", re.S)


class Block(NamedTuple):
    line: int  #: the line of README.md where the code starts
    code: str
    skip: str | None  #: the reason written before the block, or None


def python_blocks(text: str) -> list[Block]:
    """The ```python blocks of a Markdown text, with the line each starts on and its skip reason."""
    out = []
    for m in _FENCE.finditer(text):
        before = text[: m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        reason = _SKIP.search(before + "\n")
        out.append(Block(text.count("\n", 0, m.start(1)) + 1, m.group(1), reason.group(1) if reason else None))
    return out


BLOCKS = python_blocks(README.read_text(encoding="utf-8"))


def test_the_parser_finds_blocks_and_their_skip_reasons():
    text = (
        "a\n```python\nx = 1\n```\n<!-- test_readme: skip: needs a cluster -->\n```python\ny = 2\n```\n```sh\nz\n```\n"
    )
    assert python_blocks(text) == [Block(3, "x = 1\n", None), Block(7, "y = 2\n", "needs a cluster")]


def test_the_readme_has_a_quick_start_that_is_not_skipped():
    quick = [b for b in BLOCKS if "cross_val_predictions" in b.code and "report" in b.code]
    assert quick and all(b.skip is None for b in quick)


@pytest.mark.parametrize("block", BLOCKS, ids=[f"README.md:{b.line}" for b in BLOCKS])
def test_block_runs_as_written(block, capsys, monkeypatch):
    if block.skip is not None:
        pytest.skip(block.skip)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    try:
        import matplotlib

        matplotlib.use("Agg")
    except ImportError:  # the core install: a block that plots fails, naming the extra
        pass
    namespace: dict[str, object] = {"__name__": "__readme__"}
    exec(compile(block.code, f"README.md:{block.line}", "exec"), namespace)  # the README's own code
    capsys.readouterr()  # the blocks print reports; keep the test log short
