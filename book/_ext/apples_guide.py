"""The generated parts of the teacher's guide and the quiz page, from the stored notebooks and the quizzes.

The guide's pages hold these parts in their Markdown, between ``<!-- generated: NAME -->`` and
``<!-- end generated: NAME -->``, so that they read on the repository's web view (which renders Markdown, not
Sphinx directives) as in the book. ``python tools/guide_tables.py`` rewrites them; a test regenerates them and
fails when the committed text differs. The parts:

- ``class-time``: each notebook's main path, the formula's estimate (tools/course_shape.py), the reader's clock
  stored in its metadata (``metadata["apples"]["reader_minutes"]``) and the sections tagged ``skip-if-short``;
- ``slow-cells``: every code cell whose stored runtime is over :data:`SLOW` seconds, named by its ``In [n]``;
- ``exercises``: each exercise, its stated time and the answer cells the student notebooks give it
  (tools/strip_solutions.py);
- ``outcomes``: each notebook's "What you will learn";
- ``quiz``: every quiz (``book/quizzes/NN.md``), with its answers in the instructor's book and without them in
  the student edition (tools/student_edition.py writes that page into its temporary copy of the book).

A quiz file holds three recall questions and, after a line ``**Apply it**``, two application questions, each
question followed by its answer (:func:`parse_quiz`)::

    1. Question?
       - answer: The answer, on one line.
    ...
    **Apply it**

    4. A question that asks to use the notebook on new numbers.
       - answer: A worked answer; it may go on in paragraphs

         indented by five spaces.

The numbers of questions and answers are checked against the notebook's outputs (tools/check_claims.py).
"""

from __future__ import annotations

import html
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import nbformat

SLOW = 10.0  # seconds: a cell a teacher should start before talking
APPLY = "**Apply it**"  # the line that separates a quiz's recall questions from its application questions
#: Links from the guide to the notebooks are written for the repository's web view (book/guide -> notebooks/);
#: book/conf.py rewrites them for the book, where the notebooks are copied under the book's own notebooks/.
NOTEBOOK_LINK = "../../notebooks/"
_MARKER = re.compile(r"(<!-- generated: ([\w-]+)[^>]*-->\n)(.*?)(<!-- end generated: \2 -->)", re.S)
_ANSWER = re.compile(r"^\s+- answer: ?(.*)$")


def _tools() -> tuple[ModuleType, ModuleType]:
    """tools/course_shape.py and tools/strip_solutions.py of the repository this file belongs to."""
    root = str(Path(__file__).resolve().parents[2])
    if root not in sys.path:
        sys.path.insert(0, root)
    from tools import course_shape, strip_solutions

    return course_shape, strip_solutions


def _escape(text: str) -> str:
    return html.escape(text, quote=False).replace("|", "\\|")


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


# -- quizzes -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class QuizItem:
    """One question of a quiz: its number, kind ("recall" or "application"), question text and answer text."""

    number: int
    kind: str
    question: str
    answer: str


def parse_quiz(text: str) -> list[QuizItem]:
    """The questions of a quiz file, each with its answer (an answer's continuation lines are indented 5 spaces)."""
    items: list[QuizItem] = []
    kind = "recall"
    number, question, answer = 0, [], []  # the item being read
    in_answer = False

    def close() -> None:
        if number:
            items.append(QuizItem(number, kind, "\n".join(question).strip(), "\n".join(answer).strip()))

    for line in text.splitlines():
        head = re.match(r"(\d+)\. (.*)$", line)
        found = _ANSWER.match(line)
        if line.strip() == APPLY:
            close()
            number, question, answer, in_answer, kind = 0, [], [], False, "application"
        elif head:
            close()
            number, question, answer, in_answer = int(head.group(1)), [head.group(2)], [], False
        elif found and number:
            in_answer = True
            answer.append(found.group(1))
        elif number and (not line.strip() or line.startswith("   ")):
            (answer if in_answer else question).append(line.strip())
        elif line.strip():
            close()
            number, question, answer, in_answer = 0, [], [], False
    close()
    return items


def quiz(text: str, *, answers: bool) -> str:
    """A quiz file as Markdown, with its answers (``*Answer:*``) or without them (the student edition)."""
    out: list[str] = []
    in_answer = False
    for line in text.splitlines():
        found = _ANSWER.match(line)
        if found:
            in_answer = True
            if answers:
                out += ["", f"   *Answer:* {found.group(1)}"]  # a paragraph of its own, inside the list item
            continue
        if in_answer and (not line.strip() or line.startswith("     ")):
            if answers:
                out.append(line)
            continue
        in_answer = False
        out.append(line)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip() + "\n"


def has_answers(markdown: str) -> bool:
    """Whether a page shows quiz answers (as :func:`quiz` writes them, or as a quiz file holds them)."""
    return bool(re.search(r"\*Answer:\*|^\s+- answer:", markdown, re.M))


# -- the generated parts ------------------------------------------------------------------------------------------


def _minutes(value: int | None) -> str:
    return "not measured" if value is None else f"{value} min"


def class_time(shapes: dict[str, Any]) -> str:
    """The class-time table: the formula's estimate beside the reader's clock, and what a short class may skip."""
    rows = [
        "| Notebook | Main path: words | code cells | stored runtime | estimate by formula | reader's clock "
        "| skip if short of time |",
        "|---|---|---|---|---|---|---|",
    ]
    for number, shape in shapes.items():
        minutes = dict(shape.reader_minutes or [])
        skip = "; ".join(
            _escape(h.lstrip("# ")) + (f" ({minutes[h]} min)" if h in minutes else "") for h in shape.skip_if_short
        )
        rows.append(
            f"| {number} | {shape.main_words:,} | {shape.main_code_cells} | {shape.main_seconds:.0f} s "
            f"| {shape.minutes:.0f} min | {_minutes(shape.reader_total)} | {skip or '—'} |"
        )
    return "\n".join(rows)


def exercises(shapes: dict[str, Any], answer_kinds: Any) -> str:
    """Each exercise, its stated time and the answer cells the student notebooks give it."""
    rows = ["| Notebook | Exercise | Time | Answer cells in the student notebooks |", "|---|---|---|---|"]
    for number, shape in shapes.items():
        for e in shape.exercises:
            kinds = " + ".join(answer_kinds(e.solution_kinds))
            time = f"{e.minutes} min" if e.minutes is not None else "not stated"
            rows.append(f"| {number} | {e.number} · {_escape(e.title)} | {time} | {kinds} |")
    return "\n".join(rows)


def guide_parts(notebooks: list[Path], quizzes: Path, *, answers: bool = True) -> dict[str, str]:
    """The text of every generated part, from the stored notebooks and the quiz files under ``quizzes``."""
    course_shape, strip_solutions = _tools()
    books = {p: nbformat.read(p, as_version=4) for p in notebooks}
    shapes = {p.name[:2]: course_shape.measure(p) for p in notebooks}
    slow = ["| Notebook | Cell | Starts with | Stored runtime |", "|---|---|---|---|"]
    lines: list[str] = []
    quiz_pages: list[str] = []
    for path, book in books.items():
        number = path.name[:2]
        slow += [
            f"| {number} | In [{i}] | `{_escape(x[:60])}` | {s:.0f} s |" for i, x, s in slow_cells(book, course_shape)
        ]
        lines += [f"**{_escape(_title(book))}** ([{number}]({NOTEBOOK_LINK}{path.name}))", ""]
        lines += [f"- {o}" for o in outcomes(book)] + [""]
        source = quizzes / f"{number}.md"
        if source.is_file():
            quiz_pages += [
                f"### {_escape(_title(book))}",
                "",
                quiz(source.read_text(encoding="utf-8"), answers=answers),
            ]
    return {
        "class-time": class_time(shapes),
        "slow-cells": "\n".join(slow),
        "exercises": exercises(shapes, strip_solutions.answer_kinds),
        "outcomes": "\n".join(lines).strip(),
        "quiz": "\n".join(quiz_pages).strip(),
    }


def fill(text: str, parts: dict[str, str]) -> str:
    """``text`` with each generated region replaced by its part; a region whose part is unknown is an error."""

    def replace(match: re.Match[str]) -> str:
        name = match.group(2)
        if name not in parts:
            raise KeyError(f"no generated part named {name!r} (known: {sorted(parts)})")
        return f"{match.group(1)}{parts[name]}\n{match.group(4)}"

    return _MARKER.sub(replace, text)


def regions(text: str) -> list[str]:
    """The names of the generated regions of a page, in order."""
    return [m.group(2) for m in _MARKER.finditer(text)]
