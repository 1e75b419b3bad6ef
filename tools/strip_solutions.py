"""Make the student notebooks: every output kept (figures too), each exercise's solution replaced by answer cells.

Each exercise is a markdown cell starting ``### Exercise n · title`` followed by its cells tagged ``solution``
(tools/course_shape.py holds the template). In the student copy those solution cells become empty answer cells
tagged ``your-answer``, numbered after their exercise, one per kind of cell its solution uses
(:func:`answer_kinds`): a markdown cell for a derivation or an explanation, a code cell for code, and one of each,
in the solution's order, when the solution has both (a derivation, then a check in code). The teacher's guide
lists the answer cells of every exercise from the same function. Cells tagged
``instructor`` (a remark that would give an answer away) are left out. Every other cell keeps its outputs and
execution count, so the student copy shows all the figures without re-running the long simulations. The
instructor's copy is the repository.

The whole student edition (these notebooks and the student book) is tools/student_edition.py (``make student``).

Usage: python tools/strip_solutions.py OUTPUT_DIR NOTEBOOK [NOTEBOOK ...]
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat

_EXERCISE = re.compile(r"^### Exercise (\d+) · ", re.M)


def _tags(cell) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def answer_kinds(solution_kinds: list[str] | tuple[str, ...]) -> list[str]:
    """The kinds of an exercise's answer cells: one per kind of cell its solution uses, in the solution's order."""
    return list(dict.fromkeys(solution_kinds))


def answer_cells(number: str, solutions: list) -> list[nbformat.NotebookNode]:
    """The empty answer cells of exercise ``number``: one per kind of cell its solution uses, in that order."""
    cells = []
    for kind in answer_kinds([c.cell_type for c in solutions]):
        if kind == "code":
            cell = nbformat.v4.new_code_cell(source=f"# Exercise {number}: your answer\n")
        else:
            cell = nbformat.v4.new_markdown_cell(source=f"**Exercise {number}: your answer.** *(Write it here.)*")
        cell.metadata["tags"] = ["your-answer"]
        cell.id = next(c for c in solutions if c.cell_type == kind).get("id", cell.id)
        cells.append(cell)
    return cells


def student_cells(cells: list) -> tuple[list, int]:
    """The student edition's cells and how many exercises got an answer cell."""
    out: list = []
    exercise = None
    pending: list = []
    answered = 0

    def flush() -> None:
        nonlocal pending, answered
        if pending:
            if exercise is None:
                raise ValueError(
                    f"a solution cell comes before any '### Exercise n · ' cell: {pending[0].source[:60]!r}"
                )
            out.extend(answer_cells(exercise, pending))
            answered += 1
            pending = []

    for cell in cells:
        if "solution" in _tags(cell):
            pending.append(cell)
            continue
        flush()
        if "instructor" in _tags(cell):
            continue
        if cell.cell_type == "markdown":
            found = _EXERCISE.search(cell.source)
            if found:
                exercise = found.group(1)
            elif re.search(r"^## ", cell.source, re.M):
                exercise = None
        out.append(cell)
    flush()
    return out, answered


def strip(path: Path, out_dir: Path) -> int:
    """Write the student edition of ``path`` into ``out_dir``; return how many answer cells it holds."""
    nb = nbformat.read(path, as_version=4)
    nb.cells, answered = student_cells(nb.cells)
    nbformat.write(nb, out_dir / path.name)
    return answered


def main(out: str, *paths: str) -> None:
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    for p in paths:
        n = strip(Path(p), out_dir)
        print(f"{p}: {n} exercises, each with its answer cells")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    main(sys.argv[1], *sys.argv[2:])
