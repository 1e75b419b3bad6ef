"""Make the student edition: every output kept (figures too), each worked solution replaced by an empty cell.

A cell tagged ``solution`` becomes an empty code cell tagged ``your-answer`` that
starts with a comment asking for the answer; its source and outputs are gone.
Every other cell keeps its outputs and execution count, so the student copy shows
all the figures without re-running the long simulations. The instructor's copy is
the repository.

Usage: python tools/strip_solutions.py OUTPUT_DIR NOTEBOOK [NOTEBOOK ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

ANSWER_PROMPT = "# Your answer here (the worked solution is in the instructor's copy).\n"


def strip(path: Path, out_dir: Path) -> int:
    """Write the student edition of ``path`` into ``out_dir``; return how many solutions it replaced."""
    nb = nbformat.read(path, as_version=4)
    replaced = 0
    for i, cell in enumerate(nb.cells):
        if "solution" not in cell.get("metadata", {}).get("tags", []):
            continue
        answer = nbformat.v4.new_code_cell(source=ANSWER_PROMPT, metadata={"tags": ["your-answer"]})
        answer.id = cell.get("id", answer.id)
        nb.cells[i] = answer
        replaced += 1
    nbformat.write(nb, out_dir / path.name)
    return replaced


def main(out: str, *paths: str) -> None:
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    for p in paths:
        n = strip(Path(p), out_dir)
        print(f"{p}: replaced {n} solution cells by empty answer cells")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    main(sys.argv[1], *sys.argv[2:])
