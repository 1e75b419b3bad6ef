"""Find the numbers a notebook's text, its quiz or the teacher's guide states that no output shows.

A sentence that states a number must match an output above it (CONTRIBUTING.md, "Notebooks"). This tool lists
every number in a markdown cell that appears in no output of that notebook (nor of a notebook its sentence
cites, "notebook 03"), nor as a literal in its code (a stated design parameter: "10 folds", "1 % positives").
The same holds for the text a class reads beside the notebooks:

- a quiz, ``book/quizzes/NN.md`` (questions and answers, recall and application): each question with its answer
  is checked against the outputs of notebook NN and of the notebooks it cites;
- the teacher's guide, ``book/guide/*.md``: each paragraph, list item or table row against the outputs of the
  notebooks it names ("notebook 09", or a table row whose first cell is "09"); a number in a paragraph that
  names no notebook must be on the allow-list. Regions between ``<!-- generated: name -->`` and
  ``<!-- end generated: name -->`` are written by tools/guide_tables.py from the notebooks and are not read.

A quiz or the guide is checked against outputs only, not code literals: a reader of a quiz sees no code, and a
literal that stands in for a result (``n = 1570`` in a check of the Wilson formula) is not the result.

A number *matches* an output when the output shows it at the precision the text writes it, as a fraction or a
percentage: "58 %" matches 0.5812 and 58.1 %, "0.43" matches 0.4312, "13.67 %" matches 0.13671 but "13.7 %"
does not match 0.1361. The sign is ignored (prose says "falls by 26.1 points" for -26.14).

Not checked, because they are not claims about a result:

- headings, the References section, link targets, inline code, code blocks;
- locators and their lists: Figure 4, Tables 3-5, §4.3, eq. (31), eqs. 16-18 and 22, notebook 03, Exercise 2, A.1;
- whole numbers from 0 to 12 ("10 folds", "three classes") and years (1950-2035);
- numbers quoted from a paper, marked as quotes: a blockquote line (``> ...``), text in quotation marks
  (“...” or "..."), or a table column whose header names the paper ("Paper says", "F&S print").

What cannot be printed (a number from a figure's axis, a paper's running text in a sentence of ours, a design
figure of the course in the guide) goes on the allow-list with its reason: tools/claims_allowed/NN.toml for
notebook NN and its quiz, tools/claims_allowed/guide.toml for the guide. An entry that no longer matches
anything is an error too.

Usage: python tools/check_claims.py [NOTEBOOK | MARKDOWN ...]   (default: every notebook, quiz and guide page;
prints each unmatched number with its sentence and each stale allow-list entry; exits 1 if there is any)
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
QUIZZES = sorted((ROOT / "book" / "quizzes").glob("[0-9][0-9].md"))  # NN.md: the quiz of notebook NN
GUIDE = sorted((ROOT / "book" / "guide").glob("*.md"))  # the teacher's guide, the quiz page, the project brief
ALLOWED = ROOT / "tools" / "claims_allowed"  # NN.toml per notebook (its text and its quiz), guide.toml

# a number as prose writes it: 0.43, 58 %, 1,000,000, 10 000, −26.14
_NUMBER = re.compile(
    r"(?<![\w.,^_#])[-−]?\d{1,3}(?:(?:,| |\u202f|\u2009)\d{3})+(?:\.\d+)?(?![\w]|\.\d)"
    r"|(?<![\w.,^_#])[-−]?\d+(?:\.\d+)?(?![\w]|\.\d)"
)
_PERCENT = re.compile(r"^\s?%")
_LOCATOR = re.compile(
    r"(?:Figures?|Figs?\.|Tables?|§+|[Ee]qs?\.|[Ee]quations?|[Ss]ections?|Exercises?|[Nn]otebooks?|cells?|"
    r"Theorem|Def\.|Definition|Lemma|pp?\.|pages?|Appendix|[Vv]ersion|Python|[Ss]teps?|[Rr]emarks?|items?|"
    r"rows?|columns?|panels?|Solution|c|A\.|\(|v)\s*\(?$"
)
_LIST_CONTINUES = re.compile(r"^[\s(]*(?:[–\-−,]|and|or|to)\s*\(?\s*$")
_CITED = re.compile(r"[Nn]otebooks?\s+((?:\d\d)(?:(?:\s*(?:,|and|or|–|-)\s*)\d\d)*)")


_GENERATED = re.compile(r"<!-- generated: ([\w-]+)[^>]*-->.*?<!-- end generated: \1 -->", re.S)
_FENCE = re.compile(r"^```.*?^```", re.M | re.S)


@dataclass(frozen=True)
class Claim:
    """A number the text states that nothing shows.

    ``source`` is the notebook ("09") for a notebook's own text, else the text file relative to the repository
    ("book/quizzes/09.md"); ``place`` is where in it ("cell 12", "line 4").
    """

    source: str
    place: str
    number: str
    sentence: str


def _value(text: str) -> tuple[float, int]:
    """The value and the number of decimals of a number as written."""
    t = re.sub(r"[,  \u202f\u2009]", "", text).replace("−", "-")
    decimals = len(t.partition(".")[2])
    return abs(float(t)), decimals


def _output_text(cell) -> str:
    parts = []
    for o in cell.get("outputs", []):
        parts.append(o.get("text", ""))
        for kind, data in o.get("data", {}).items():
            if kind.startswith("text/"):
                parts.append(data if isinstance(data, str) else "".join(data))
    return "\n".join(parts)


def _shown_numbers(text: str) -> list[float]:
    found = []
    for m in re.finditer(r"[-−]?\d[\d,_]*(?:\.\d+)?(?:[eE][-+]?\d+)?", text):
        t = m.group().replace(",", "").replace("_", "").replace("−", "-")
        try:
            found.append(abs(float(t)))
        except ValueError:
            continue
    for base, exp in re.findall(r"(\d+)\s*\*\*\s*(\d+)", text):  # 10**6 in code
        found.append(float(int(base) ** int(exp)))
    return found


def support(book, *, code: bool = True) -> list[float]:
    """Every number a notebook shows: its outputs and (``code=True``) the literals of its code."""
    numbers = []
    for c in book.cells:
        if c.cell_type == "code":
            numbers += _shown_numbers(_output_text(c))
            if code:
                numbers += _shown_numbers(c.source)
    return numbers


def _matches(value: float, decimals: int, shown: list[float]) -> bool:
    """Whether an output, as a fraction or a percentage, rounds (half up) to the text's number at its precision."""
    scale = 10.0**decimals
    return any(
        math.isfinite(candidate) and abs(math.floor(candidate * scale + 0.5) / scale - value) < 0.5e-9 * max(1, value)
        for s in shown
        for candidate in (s, s * 100)
    )


def _quoted_spans(line: str) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(r"“[^”]*”|\"[^\"]*\"", line)]


def _paper_columns(lines: list[str]) -> dict[int, set[int]]:
    """For each table line, the column indices whose header names the paper."""
    columns: dict[int, set[int]] = {}
    header: set[int] = set()
    for i, line in enumerate(lines):
        if not line.lstrip().startswith("|"):
            header = set()
            continue
        cells = line.strip().strip("|").split("|")
        if i == 0 or not lines[i - 1].lstrip().startswith("|"):
            header = {j for j, c in enumerate(cells) if re.search(r"paper|F&S|Forman|Parker|Van Asch|print", c, re.I)}
        columns[i] = header
    return columns


def claims_in(source: str) -> list[tuple[str, str]]:
    """(number, line) for every checkable number in one markdown cell."""
    return [(number, line) for _, number, line in _claims(source)]


def _claims(source: str) -> list[tuple[int, str, str]]:
    """(line index, number, line) for every checkable number of a markdown text."""
    text = re.sub(r"`[^`]*`", lambda m: " " * len(m.group()), source)
    text = re.sub(r"\]\([^)]*\)", lambda m: " " * len(m.group()), text)
    text = re.sub(r"<[^>]+>", lambda m: " " * len(m.group()), text)
    lines = text.splitlines()
    tables = _paper_columns(lines)
    found = []
    for i, line in enumerate(lines):
        stripped = line.lstrip()
        if stripped.startswith(("#", ">")):
            continue
        quoted = _quoted_spans(line)
        paper_cells = tables.get(i, set())
        cell_bounds = [m.start() for m in re.finditer(r"\|", line)] if i in tables else []
        locator_list = False
        last_end = 0
        for m in _NUMBER.finditer(line):
            before = line[max(0, m.start() - 25) : m.start()]
            between = line[last_end : m.start()]
            if _LOCATOR.search(before) or (locator_list and _LIST_CONTINUES.match(between)):
                locator_list = True
                last_end = m.end()
                continue
            locator_list = False
            last_end = m.end()
            if any(a <= m.start() < b for a, b in quoted):
                continue
            if cell_bounds:
                column = sum(b < m.start() for b in cell_bounds) - (1 if stripped.startswith("|") else 0)
                if column in paper_cells:
                    continue
            number = m.group()
            value, decimals = _value(number)
            percent = bool(_PERCENT.match(line[m.end() :]))
            if decimals == 0 and not percent and (value <= 12 or 1950 <= value <= 2035):
                continue
            found.append((i, number + (" %" if percent else ""), line.strip()))
    return found


def _cited(line: str) -> set[str]:
    return {n for m in _CITED.finditer(line) for n in re.findall(r"\d\d", m.group(1))}


def unmatched(path: Path, books: dict[str, nbformat.NotebookNode] | None = None) -> list[Claim]:
    """The numbers of ``path``'s markdown that no output (or code literal) shows."""
    books = books or {p.name[:2]: nbformat.read(p, as_version=4) for p in NOTEBOOKS}
    number = path.name[:2]
    book = books.get(number) or nbformat.read(path, as_version=4)
    own = support(book)
    cache: dict[str, list[float]] = {number: own}
    found = []
    references = False
    for i, cell in enumerate(book.cells):
        if cell.cell_type != "markdown":
            continue
        if re.search(r"^## References", cell.source, re.M):
            references = True
        if references:
            continue
        cited = _cited(cell.source)
        shown = list(own)
        for n in sorted(cited - {number}):
            if n in books:
                shown += cache.setdefault(n, support(books[n]))
        for text, line in claims_in(cell.source):
            value, decimals = _value(text.rstrip(" %"))
            if not _matches(value, decimals, shown):
                found.append(Claim(number, f"cell {i}", text, line[:160]))
    return found


def _blank(match: re.Match[str]) -> str:
    """A region replaced by as many empty lines as it spans, so line numbers stay right."""
    return "\n" * match.group().count("\n")


def _blocks(lines: list[str], *, quiz: bool) -> list[int]:
    """The block each line belongs to, as the index of the block's first line.

    A quiz's block is one question with its answer (from ``N. `` to the next question); the guide's is a
    paragraph, a list item or a table row (a table row, a list item or a heading starts a new block).
    """
    starts = []
    start = 0
    for i, line in enumerate(lines):
        if quiz:
            if re.match(r"\d+\. ", line) or (
                line.strip() and not line.startswith(" ") and not re.match(r"\d+\. ", line)
            ):
                start = i
        elif not line.strip() or re.match(r"\s*(?:[-*] |\d+\. |\||#)", line) or not lines[i - 1].strip():
            start = i
        starts.append(start)
    return starts


def _table_row_notebook(line: str) -> set[str]:
    first = re.match(r"\s*\|\s*(\d\d)\s*\|", line)
    return {first.group(1)} if first else set()


def unmatched_text(path: Path, books: dict[str, nbformat.NotebookNode] | None = None) -> list[Claim]:
    """The numbers of a quiz or a guide page that no output of the notebooks it is about shows."""
    books = books or {p.name[:2]: nbformat.read(p, as_version=4) for p in NOTEBOOKS}
    quiz = path.parent.name == "quizzes"
    source = path.resolve().relative_to(ROOT).as_posix() if path.resolve().is_relative_to(ROOT) else str(path)
    text = _FENCE.sub(_blank, _GENERATED.sub(_blank, path.read_text(encoding="utf-8")))
    lines = text.splitlines()
    starts = _blocks(lines, quiz=quiz)
    block_text: dict[int, str] = {}
    for i, start in enumerate(starts):
        block_text[start] = block_text.get(start, "") + lines[i] + "\n"
    cache: dict[str, list[float]] = {}
    found = []
    for i, number, line in _claims(text):
        block = block_text[starts[i]]
        about = _cited(block) | _table_row_notebook(lines[i])
        if quiz:
            about.add(path.stem)
        shown = [x for n in sorted(about) if n in books for x in cache.setdefault(n, support(books[n], code=False))]
        value, decimals = _value(number.rstrip(" %"))
        if not _matches(value, decimals, shown):
            found.append(Claim(source, f"line {i + 1}", number, line[:160]))
    return found


def allowed() -> list[dict[str, str]]:
    """The allow-list, one dict per number: ``source``, the notebook ("09") or the text file ("book/quizzes/09.md")
    it is for (written ``notebook = "09"`` or ``file = "book/quizzes/09.md"``), ``number``, ``reason`` and
    ``toml``, its file. An entry may list several numbers of one sentence or question (``numbers = [...]``)."""
    entries = []
    for path in sorted(ALLOWED.glob("*.toml")):
        for e in tomllib.loads(path.read_text(encoding="utf-8")).get("allow", []):
            where = e.get("file") or e.get("notebook")
            numbers = e.get("numbers") or ([e["number"]] if "number" in e else [])
            if not where or not numbers or not e.get("reason", "").strip():
                raise ValueError(f"tools/claims_allowed/{path.name}: {e} needs notebook or file, number(s), reason")
            entries += [{**e, "number": n, "source": where, "toml": path.name} for n in numbers]
    return entries


def _source_of(path: Path) -> str:
    if path.suffix == ".ipynb":
        return path.name[:2]
    return path.resolve().relative_to(ROOT).as_posix() if path.resolve().is_relative_to(ROOT) else str(path)


def check(paths: list[Path]) -> tuple[list[Claim], list[dict[str, str]]]:
    """Unmatched claims not on the allow-list, and allow-list entries of the checked texts that match no claim."""
    books = {p.name[:2]: nbformat.read(p, as_version=4) for p in NOTEBOOKS}
    claims = [c for p in paths for c in (unmatched(p, books) if p.suffix == ".ipynb" else unmatched_text(p, books))]
    entries = allowed()
    keys = {(e["source"], e["number"]) for e in entries}
    left = [c for c in claims if (c.source, c.number) not in keys]
    checked = {_source_of(p) for p in paths}
    used = {(c.source, c.number) for c in claims}
    stale = [e for e in entries if e["source"] in checked and (e["source"], e["number"]) not in used]
    return left, stale


def everything() -> list[Path]:
    """What ``make test`` checks: every notebook, every quiz, every page of the guide."""
    return [*NOTEBOOKS, *QUIZZES, *GUIDE]


def _existing_text(name: str) -> Path:
    """A command-line path: an existing notebook (.ipynb) or Markdown file (a quiz, a guide page)."""
    path = Path(name)
    if path.suffix not in (".ipynb", ".md"):
        raise argparse.ArgumentTypeError(f"{name}: not a notebook (.ipynb) or a Markdown file (.md)")
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"{name}: no such file")
    return path


def main(argv: list[str] | None = None) -> int:
    """Check the texts named on the command line (default: :func:`everything`); 1 if anything is left."""
    parser = argparse.ArgumentParser(
        prog="python tools/check_claims.py",
        description="List the numbers a notebook's text, a quiz (book/quizzes/NN.md) or a page of the teacher's "
        "guide (book/guide/*.md) states that no output shows, and the allow-list entries "
        "(tools/claims_allowed/*.toml) that no longer match a number.",
        epilog="Exit status: 0 when every number is backed and no allow-list entry is stale, else 1.",
    )
    parser.add_argument(
        "paths",
        nargs="*",
        type=_existing_text,
        metavar="NOTEBOOK | MARKDOWN",
        help="notebooks (.ipynb), quizzes or guide pages (.md) to check (default: every notebook, quiz and guide page)",
    )
    args = parser.parse_args(argv)
    left, stale = check(args.paths or everything())
    for c in left:
        print(f"{c.source} {c.place}: {c.number!r} in: {c.sentence}")
    for e in stale:
        print(f"stale allow-list entry: {e}")
    print(f"{len(left)} unmatched numbers, {len(stale)} stale allow-list entries")
    return 1 if left or stale else 0


if __name__ == "__main__":
    sys.exit(main())
