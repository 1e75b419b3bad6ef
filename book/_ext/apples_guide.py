"""The generated parts of the teacher's guide: outcomes, class time, slow cells and the quiz, from the notebooks.

``book/conf.py`` calls :func:`write_guide_parts` when a build starts; the guide pages include the files it writes
under ``guide/_generated/``, so the tables always describe the notebooks being built (the instructor's, or the
student edition's under ``make student``). The numbers come from the stored notebooks: each cell's runtime from
the timing nbclient stored when it was executed, the main path's size and class-time estimate from
``tools/course_shape.py`` (in the repository beside ``apples``).
"""

from __future__ import annotations

import html
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import nbformat

SLOW = 10.0  # seconds: a cell a teacher should start before talking


def _shape_tool() -> ModuleType | None:
    """tools/course_shape.py of the repository ``apples`` is imported from; None when apples is installed."""
    import apples

    path = Path(apples.__file__).resolve().parents[1] / "tools" / "course_shape.py"
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location("course_shape", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["course_shape"] = module
    spec.loader.exec_module(module)
    return module


def _escape(text: str) -> str:
    return html.escape(text).replace("|", "\\|")


def _title(book: nbformat.NotebookNode) -> str:
    first = book.cells[0].source.splitlines()[0] if book.cells else ""
    return first.lstrip("# ").strip()


def outcomes(book: nbformat.NotebookNode) -> list[str]:
    """The bullets of a notebook's "What you will learn" section."""
    for cell in book.cells:
        if cell.cell_type == "markdown" and re.search(r"^## What you will learn", cell.source, re.M):
            return [m.strip() for m in re.findall(r"^\s*[-*] +(.+)$", cell.source, re.M)]
    return []


def slow_cells(book: nbformat.NotebookNode, tool: ModuleType) -> list[tuple[int, str, float]]:
    """(execution count, first line, stored seconds) of every code cell over :data:`SLOW` seconds: the ``In [n]``
    a reader sees beside the cell in JupyterLab."""
    found = []
    for cell in book.cells:
        if cell.cell_type == "code":
            seconds = tool.cell_seconds(cell)
            if seconds > SLOW:
                line = next((x for x in cell.source.splitlines() if x.strip() and not x.startswith("#")), "")
                found.append((cell.execution_count, line.strip(), seconds))
    return found


def quiz(text: str, *, answers: bool) -> str:
    """A quiz file (``1. question`` / ``   - answer: ...``) as markdown, with or without its answers."""
    out = []
    for line in text.splitlines():
        answer = re.match(r"\s+- answer: (.*)$", line)
        if answer:
            if answers:
                out.append(f"   *Answer:* {answer.group(1)}")
        else:
            out.append(line)
    return "\n".join(out).strip() + "\n"


def write_guide_parts(srcdir: Path, *, student: bool) -> None:
    """Write guide/_generated/{class_time,outcomes,slow_cells,quiz}.md for the notebooks under ``srcdir``."""
    out = srcdir / "guide" / "_generated"
    out.mkdir(parents=True, exist_ok=True)
    books = {p: nbformat.read(p, as_version=4) for p in sorted((srcdir / "notebooks").glob("[0-9][0-9]_*.ipynb"))}
    tool = _shape_tool()

    rows = [
        "| Notebook | Main path: words | code cells | stored runtime | estimated class time |",
        "|---|---|---|---|---|",
    ]
    slow = ["| Notebook | Cell | Starts with | Stored runtime |", "|---|---|---|---|"]  # cell: In [n]
    if tool is None:
        rows = ["(Measured from the repository's `tools/course_shape.py`, which this installation does not have.)"]
        slow = rows
    lines = []
    for path, book in books.items():
        name = path.stem
        lines += [f"**{_escape(_title(book))}** ([{name[:2]}](../notebooks/{name}.ipynb))", ""]
        lines += [f"- {o}" for o in outcomes(book)] + [""]
        if tool is not None:
            shape = tool.measure(path)
            rows.append(
                f"| {name[:2]} | {shape.main_words:,} | {shape.main_code_cells} | {shape.main_seconds:.0f} s "
                f"| {shape.minutes:.0f} min |"
            )
            slow += [
                f"| {name[:2]} | In [{i}] | `{_escape(line[:60])}` | {s:.0f} s |"
                for i, line, s in slow_cells(book, tool)
            ]
    (out / "outcomes.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (out / "class_time.md").write_text("\n".join(rows) + "\n", encoding="utf-8")
    (out / "slow_cells.md").write_text("\n".join(slow) + "\n", encoding="utf-8")

    quizzes = []
    for path, book in books.items():
        source = srcdir / "quizzes" / f"{path.name[:2]}.md"
        if source.is_file():
            text = quiz(source.read_text(encoding="utf-8"), answers=not student)
            quizzes += [f"### {_escape(_title(book))}", "", text]
    (out / "quiz.md").write_text("\n".join(quizzes), encoding="utf-8")
