"""Make the student copy: the notebooks without cells tagged ``solution``.

Usage: python tools/strip_solutions.py OUTPUT_DIR NOTEBOOK [NOTEBOOK ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat


def strip(path: Path, out_dir: Path) -> int:
    nb = nbformat.read(path, as_version=4)
    kept = [c for c in nb.cells if "solution" not in c.get("metadata", {}).get("tags", [])]
    removed = len(nb.cells) - len(kept)
    nb.cells = kept
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    nbformat.write(nb, out_dir / path.name)
    return removed


def main(out: str, *paths: str) -> None:
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    for p in paths:
        n = strip(Path(p), out_dir)
        print(f"{p}: removed {n} solution cells")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    main(sys.argv[1], *sys.argv[2:])
