"""The shape of a notebook a class can take: one template, one idea per cell, a main path of 75 minutes.

Every notebook follows one template (CONTRIBUTING.md, "Notebooks"):

    # NN · Title                    (a short opening paragraph)
    ## What you will learn          outcomes a student can be checked against, each starting with a verb
    ## Notation                     paper symbol -> apples name
    ## 1. ...  ## 2. ...            numbered sections; a reproducing notebook (01-08) ends them with
                                    "## N. Paper says, we get: do we agree?"
    ## Summary                      the takeaways, after the results they summarise
    ## Exercises                    "### Exercise n · title", each followed by its cells tagged `solution`
    ## Going deeper                 "### A.1 ...", "### A.2 ...": derivations, side notes, paper-versus-ours detail
    ## References

The *main path* is everything before "## Exercises". Its size is held to what a class finishes in one
75-minute session, estimated as

    minutes = markdown words / 100  +  2 per code cell  +  the cells' stored runtime

(reading technical prose aloud and discussing it runs at about 100 words a minute; each code cell is read,
run and its output looked at). Cell sizes follow the model collections of STYLE.md (TeachOpenCADD,
ThinkBayes2): median markdown cell at most 400 characters and at most 15 % of them over 800; median code
cell at most 250 characters and at most 10 % over 800.

Prose runs measure what a reader meets between two code cells: consecutive markdown cells merged into one run
(its characters of markdown source; a run also before the first code cell and after the last one; the References
section left out). Goal, per notebook: median run at most 250 characters and at most 12 % of runs over 800.

The formula is not a reader's clock. A notebook's measured reading time is stored in its metadata,
``metadata["apples"]["reader_minutes"] = [["## 1. Heading", minutes], ...]`` covering every main-path section
(What you will learn, Notation, each numbered section, Summary) as timed by a fresh student reader, with
``metadata["apples"]["reader"]`` saying who and when; their sum is held to 75 minutes. A main-path section a
teacher may drop is tagged ``skip-if-short`` on its heading cell. Each exercise heading may state its time,
``### Exercise 2 · Coverage at 10 % positives (15 min)``; once one exercise of a notebook states it, all must.

Usage: python tools/course_shape.py [NOTEBOOK ...]   (prints each notebook's figures and what breaks a goal)
"""

from __future__ import annotations

import ast
import re
import statistics
import sys
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))

#: Goals (the issue "A course a class can take", measured by tests/test_notebook_layout.py).
MEDIAN_MARKDOWN = 400
MEDIAN_CODE = 250
LONG = 800
SHARE_LONG_MARKDOWN = 0.15
SHARE_LONG_CODE = 0.10
MAIN_WORDS = 2000
MAIN_MINUTES = 75
WORDS_PER_MINUTE = 100
MINUTES_PER_CODE_CELL = 2.0
MEDIAN_RUN = 250  # characters of a prose run (consecutive markdown cells between two code cells)
SHARE_LONG_RUNS = 0.12  # at most this share of runs over LONG characters
READER_MINUTES = 75  # the main path by a fresh student reader's clock
SKIP_TAG = "skip-if-short"  # the heading cell of a main-path section a teacher short of time may drop

#: How a learning outcome may start: a verb a student's answer can be checked against.
OUTCOME_VERBS = frozenset(
    [
        "apply",
        "build",
        "calculate",
        "check",
        "choose",
        "compare",
        "count",
        "compute",
        "construct",
        "convert",
        "decide",
        "derive",
        "describe",
        "detect",
        "estimate",
        "evaluate",
        "explain",
        "export",
        "find",
        "fix",
        "identify",
        "interpret",
        "list",
        "map",
        "measure",
        "name",
        "pick",
        "predict",
        "prove",
        "quantify",
        "read",
        "recognise",
        "reproduce",
        "report",
        "rerun",
        "run",
        "say",
        "show",
        "simulate",
        "sketch",
        "spot",
        "state",
        "tell",
        "test",
        "use",
        "write",
    ]
)

_H2 = re.compile(r"^## (.+?)\s*$", re.M)
_H3 = re.compile(r"^### (.+?)\s*$", re.M)
_FIXED = ("What you will learn", "Notation", "Summary", "Exercises", "Going deeper", "References")
#: An exercise heading: "Exercise n · title", optionally ending with its time estimate "(NN min)".
EXERCISE = re.compile(r"^Exercise (\d+) · (\S.*?)(?: \((\d+) min\))?$")


def is_solution(cell) -> bool:
    return "solution" in cell.get("metadata", {}).get("tags", [])


def cell_seconds(cell) -> float:
    """The stored runtime of a code cell (nbclient's timing metadata), 0 when none is stored."""
    timing = cell.get("metadata", {}).get("execution", {})
    start, end = timing.get("iopub.execute_input"), timing.get("shell.execute_reply")
    if not (start and end):
        return 0.0
    seconds = datetime.fromisoformat(end) - datetime.fromisoformat(start)  # ISO 8601, "Z" read as UTC
    return max(seconds.total_seconds(), 0.0)


def words(markdown: str) -> int:
    """Words a reader reads: markdown text without link targets, HTML tags and table rules."""
    text = re.sub(r"\]\([^)]*\)", "]", markdown)
    text = re.sub(r"<[^>]+>", " ", text)
    text = re.sub(r"^\s*\|?[-:| ]+\|?\s*$", " ", text, flags=re.M)
    return len(re.findall(r"[\w$\\][^\s|]*", text))


@dataclass(frozen=True)
class Exercise:
    """One exercise: its number, title (without the time), stated minutes (None if not stated) and the kinds of
    its solution cells in order ("markdown", "code")."""

    number: int
    title: str
    minutes: int | None
    solution_kinds: tuple[str, ...]


@dataclass
class Shape:
    """What tools/course_shape.py measures on one notebook."""

    name: str
    sections: list[tuple[int, str]] = field(default_factory=list)  # (cell index, "## " heading text)
    main_end: int = 0  # index of the "## Exercises" cell (the main path is cells[:main_end])
    markdown_sizes: list[int] = field(default_factory=list)
    code_sizes: list[int] = field(default_factory=list)
    main_words: int = 0
    main_code_cells: int = 0
    main_seconds: float = 0.0
    problems: list[str] = field(default_factory=list)
    prose_runs: list[int] = field(default_factory=list)  # characters of each prose run, References left out
    main_headings: list[str] = field(default_factory=list)  # "## ..." of every main-path section, in order
    reader_minutes: list[tuple[str, int]] | None = None  # metadata["apples"]["reader_minutes"], if measured
    reader: str | None = None  # metadata["apples"]["reader"]: who timed it, and when
    skip_if_short: list[str] = field(default_factory=list)  # headings of the sections tagged skip-if-short
    exercises: list[Exercise] = field(default_factory=list)

    @property
    def minutes(self) -> float:
        return (
            self.main_words / WORDS_PER_MINUTE + MINUTES_PER_CODE_CELL * self.main_code_cells + self.main_seconds / 60
        )

    def share_long(self, sizes: list[int]) -> float:
        return sum(s > LONG for s in sizes) / max(len(sizes), 1)

    @property
    def prose_median(self) -> float:
        return statistics.median(self.prose_runs) if self.prose_runs else 0.0

    @property
    def reader_total(self) -> int | None:
        """The main path's minutes by the reader's clock, None when not measured."""
        return None if self.reader_minutes is None else sum(m for _, m in self.reader_minutes)

    def skippable_minutes(self) -> int | None:
        """The reader minutes of the sections tagged skip-if-short (None when not measured)."""
        if self.reader_minutes is None:
            return None
        minutes = dict(self.reader_minutes)
        return sum(minutes.get(h, 0) for h in self.skip_if_short)

    def prose_problems(self) -> list[str]:
        """What breaks the prose-run goals (median run, share of long runs)."""
        found = []
        if self.prose_median > MEDIAN_RUN:
            found.append(f"median prose run {self.prose_median:.0f} characters > {MEDIAN_RUN}")
        if self.share_long(self.prose_runs) > SHARE_LONG_RUNS:
            found.append(f"{self.share_long(self.prose_runs):.0%} of prose runs over {LONG} characters")
        return found

    def reader_problems(self) -> list[str]:
        """What is wrong with the stored reader minutes: sections missed or unknown, a total over the goal."""
        if self.reader_minutes is None:
            return []
        found = []
        timed = [h for h, _ in self.reader_minutes]
        if timed != self.main_headings:
            found.append(f"reader_minutes must time each main-path section in order: {self.main_headings}, not {timed}")
        if not (self.reader or "").strip():
            found.append('metadata["apples"]["reader"] must say who timed the notebook, and when')
        total = self.reader_total or 0
        if total > READER_MINUTES:
            found.append(f"main path takes {total} min by the reader's clock > {READER_MINUTES}")
        return found

    def exercise_time_problems(self) -> list[str]:
        """Exercises whose heading does not state its time as "(NN min)"."""
        return [
            f"'Exercise {e.number} · {e.title}' states no time '(NN min)'" for e in self.exercises if e.minutes is None
        ]


def measure(path: Path) -> Shape:
    """Measure one notebook against the template and the goals; ``Shape.problems`` lists what breaks them."""
    book = nbformat.read(path, as_version=4)
    cells = book.cells
    shape = Shape(path.name)
    problems = shape.problems
    number = path.name[:2]

    first = cells[0].source if cells and cells[0].cell_type == "markdown" else ""
    if not re.match(rf"# {number} · \S", first):
        problems.append("the first cell must start with '# NN · Title'")

    for i, c in enumerate(cells):
        if c.cell_type == "markdown":
            shape.sections += [(i, m) for m in _H2.findall(c.source)]
    names = [s for _, s in shape.sections]
    numbered = [s for s in names if re.match(r"\d+\. ", s)]
    expected = ["What you will learn", "Notation", *numbered, "Summary", "Exercises", "Going deeper", "References"]
    if names != expected:
        problems.append(f"sections {names} are not in the template's order {expected}")
    numbers = [int(s.split(".")[0]) for s in numbered]
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append(f"numbered sections {numbers} must run 1, 2, 3, ...")
    if int(number) <= 8 and not (numbered and re.search(r"Paper says, we get", numbered[-1])):
        problems.append("a reproducing notebook's last numbered section is 'N. Paper says, we get: do we agree?'")

    at = {s: i for i, s in shape.sections}
    shape.main_end = at.get("Exercises", len(cells))
    learn = at.get("What you will learn")
    if learn is not None:
        bullets = re.findall(r"^\s*[-*] +(\S+)", cells[learn].source, re.M)
        vague = [b for b in bullets if b.lower().strip("*,:") not in OUTCOME_VERBS]
        if len(bullets) < 3 or vague:
            problems.append(f"'What you will learn' needs at least 3 outcomes starting with a verb; not: {vague}")

    # exercises: "### Exercise n · title", numbered from 1, each followed by its solution cells
    end_exercises = at.get("Going deeper", len(cells))
    exercise_heads = [(i, m) for i in range(shape.main_end, end_exercises) for m in _H3.findall(cells[i].source)]
    ex_numbers = [EXERCISE.match(h) for _, h in exercise_heads]
    if not exercise_heads or not all(ex_numbers):
        problems.append("each exercise starts with '### Exercise n · title'")
    elif [int(m.group(1)) for m in ex_numbers if m] != list(range(1, len(ex_numbers) + 1)):
        problems.append("exercises must be numbered 1, 2, 3, ...")
    starts = [i for i, _ in exercise_heads] + [end_exercises]
    for (i, head), nxt, found in zip(exercise_heads, starts[1:], ex_numbers, strict=True):
        solutions = [c for c in cells[i + 1 : nxt] if is_solution(c)]
        if not solutions:
            problems.append(f"{head!r} has no solution cell")
        if found:
            minutes = int(found.group(3)) if found.group(3) else None
            kinds = tuple(c.cell_type for c in solutions)
            shape.exercises.append(Exercise(int(found.group(1)), found.group(2), minutes, kinds))
    timed = [e for e in shape.exercises if e.minutes is not None]
    if timed and len(timed) < len(shape.exercises):
        problems += shape.exercise_time_problems()
    stray = [i for i, c in enumerate(cells) if is_solution(c) and not (shape.main_end < i < end_exercises)]
    if stray:
        problems.append(f"solution cells outside the exercises: {stray}")

    # Going deeper: "### A.n title", numbered from 1
    if "Going deeper" in at:
        deeper = [
            m for i in range(at["Going deeper"], at.get("References", len(cells))) for m in _H3.findall(cells[i].source)
        ]
        found = [re.match(r"A\.(\d+) \S", h) for h in deeper]
        if not all(found) or [int(m.group(1)) for m in found if m] != list(range(1, len(found) + 1)):
            problems.append(f"'Going deeper' subsections must read '### A.1 ...', '### A.2 ...': {deeper}")

    # the main path's sections, the reader's clock and the sections a teacher may skip
    shape.main_headings = [f"## {s}" for i, s in shape.sections if i < shape.main_end]
    apples_meta = book.metadata.get("apples", {})
    if "reader_minutes" in apples_meta:
        stored = apples_meta["reader_minutes"]
        try:
            shape.reader_minutes = [(str(h).strip(), int(m)) for h, m in stored]
        except (TypeError, ValueError):
            problems.append(f'metadata["apples"]["reader_minutes"] is not a list of [heading, minutes]: {stored!r}')
        else:
            if any(not isinstance(m, int) or m < 0 for _, m in stored):
                problems.append(f"reader minutes must be whole non-negative numbers: {stored!r}")
        shape.reader = apples_meta.get("reader")
    for i, c in enumerate(cells):
        if SKIP_TAG in c.get("metadata", {}).get("tags", []):
            heading = re.match(r"(#{2,3}) (.+?)\s*$", c.source.lstrip().splitlines()[0] if c.source.strip() else "")
            if c.cell_type != "markdown" or heading is None or i >= shape.main_end:
                problems.append(f"cell {i} is tagged {SKIP_TAG!r} but is not the heading cell of a main-path section")
            else:
                shape.skip_if_short.append(f"{heading.group(1)} {heading.group(2)}")
    shape.prose_runs = prose_runs(cells)

    shape.markdown_sizes = [len(c.source) for c in cells if c.cell_type == "markdown" and c.source.strip()]
    shape.code_sizes = [len(c.source) for c in cells if c.cell_type == "code" and c.source.strip()]
    main = cells[: shape.main_end]
    shape.main_words = sum(words(c.source) for c in main if c.cell_type == "markdown")
    shape.main_code_cells = sum(c.cell_type == "code" and bool(c.source.strip()) for c in main)
    shape.main_seconds = sum(cell_seconds(c) for c in main if c.cell_type == "code")

    if statistics.median(shape.markdown_sizes) > MEDIAN_MARKDOWN:
        problems.append(f"median markdown cell {statistics.median(shape.markdown_sizes):.0f} > {MEDIAN_MARKDOWN}")
    if shape.share_long(shape.markdown_sizes) > SHARE_LONG_MARKDOWN:
        problems.append(f"{shape.share_long(shape.markdown_sizes):.0%} of markdown cells over {LONG} characters")
    if statistics.median(shape.code_sizes) > MEDIAN_CODE:
        problems.append(f"median code cell {statistics.median(shape.code_sizes):.0f} > {MEDIAN_CODE}")
    if shape.share_long(shape.code_sizes) > SHARE_LONG_CODE:
        problems.append(f"{shape.share_long(shape.code_sizes):.0%} of code cells over {LONG} characters")
    if shape.main_words > MAIN_WORDS:
        problems.append(f"main path has {shape.main_words} words > {MAIN_WORDS}")
    if shape.minutes > MAIN_MINUTES:
        problems.append(f"main path estimated at {shape.minutes:.0f} min > {MAIN_MINUTES}")
    return shape


def prose_runs(cells) -> list[int]:
    """Characters of each prose run: consecutive markdown cells between two code cells, merged (also before the
    first code cell and after the last one); the References section is left out."""
    runs: list[int] = []
    run: int | None = None
    for c in cells:
        if c.cell_type == "markdown" and re.search(r"^## References\s*$", c.source, re.M):
            break
        if c.cell_type == "markdown":
            run = (run or 0) + len(c.source)
        elif c.cell_type == "code":
            if run is not None:
                runs.append(run)
            run = None
    if run is not None:
        runs.append(run)
    return runs


def module_aliases(cells) -> set[str]:
    """Names that a notebook's imports bind to modules (``np``, ``fs``, ``apples``...)."""
    names: set[str] = set()
    for c in cells:
        if c.cell_type != "code":
            continue
        for node in ast.walk(_parse(c.source)):
            if isinstance(node, ast.Import):
                names |= {a.asname or a.name.split(".")[0] for a in node.names}
            elif (
                isinstance(node, ast.ImportFrom)
                and node.module
                and node.module.split(".")[-1]
                in {
                    "studies",
                    "theory",
                    "cv",
                    "metrics",
                    "intervals",
                    "comparison",
                    "plotting",
                }
            ):
                names |= {a.asname or a.name for a in node.names}
    return names


def rebound_aliases(cells) -> list[tuple[int, str]]:
    """(cell, name) where a code cell assigns to a name the notebook's imports bind to a module."""
    aliases = module_aliases(cells)
    found = []
    for i, c in enumerate(cells):
        if c.cell_type != "code":
            continue
        for node in ast.walk(_parse(c.source)):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id in aliases:
                found.append((i, node.id))
    return found


def _parse(source: str) -> ast.AST:
    return ast.parse("\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines()))


def report(shape: Shape) -> str:
    md, code = shape.markdown_sizes, shape.code_sizes
    lines = [
        f"{shape.name}: markdown median {statistics.median(md):.0f} ({shape.share_long(md):.0%} > {LONG}), "
        f"code median {statistics.median(code):.0f} ({shape.share_long(code):.0%} > {LONG}); main path "
        f"{shape.main_words} words, {shape.main_code_cells} code cells, {shape.main_seconds:.0f} s -> "
        f"{shape.minutes:.0f} min; prose runs median {shape.prose_median:.0f} "
        f"({shape.share_long(shape.prose_runs):.0%} > {LONG}); reader's clock "
        + (f"{shape.reader_total} min" if shape.reader_minutes is not None else "not measured")
    ]
    lines += [f"    - {p}" for p in shape.problems]
    lines += [f"    - (goal) {p}" for p in shape.prose_problems() + shape.reader_problems()]
    lines += [f"    - (goal) {p}" for p in shape.exercise_time_problems()]
    return "\n".join(lines)


if __name__ == "__main__":
    paths = [Path(p) for p in sys.argv[1:]] or NOTEBOOKS
    bad = 0
    for p in paths:
        s = measure(p)
        book = nbformat.read(p, as_version=4)
        s.problems += [f"cell {i} rebinds the module alias {n!r}" for i, n in rebound_aliases(book.cells)]
        bad += bool(s.problems)
        print(report(s))
    sys.exit(1 if bad else 0)
