"""Find the numbers a notebook's text states that none of its outputs shows.

A sentence that states a number must match an output above it (CONTRIBUTING.md, "Notebooks"). This tool lists
every number in a markdown cell that appears in no output of that notebook (nor of a notebook its sentence
cites, "notebook 03"), nor as a literal in its code (a stated design parameter: "10 folds", "1 % positives").

A number *matches* an output when the output shows it at the precision the text writes it, as a fraction or a
percentage: "58 %" matches 0.5812 and 58.1 %, "0.43" matches 0.4312, "13.67 %" matches 0.13671 but "13.7 %"
does not match 0.1361. The sign is ignored (prose says "falls by 26.1 points" for -26.14).

Not checked, because they are not claims about a result:

- headings, the References section, link targets, inline code;
- locators and their lists: Figure 4, Tables 3-5, §4.3, eq. (31), eqs. 16-18 and 22, notebook 03, Exercise 2, A.1;
- whole numbers from 0 to 12 ("10 folds", "three classes") and years (1950-2035);
- numbers quoted from a paper, marked as quotes: a blockquote line (``> ...``), text in quotation marks
  (“...” or "..."), or a table column whose header names the paper ("Paper says", "F&S print").

What cannot be printed (a number from a figure's axis, a paper's running text in a sentence of ours) goes in
tools/claims_allowed/NN.toml (NN: the notebook) with its reason; an entry that no longer matches anything
is an error too.

Usage: python tools/check_claims.py [NOTEBOOK ...]   (prints each unmatched number with its sentence)
"""

from __future__ import annotations

import math
import re
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
ALLOWED = ROOT / "tools" / "claims_allowed"  # one NN.toml per notebook

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


@dataclass(frozen=True)
class Claim:
    notebook: str
    cell: int
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


def support(book) -> list[float]:
    """Every number a notebook shows: its outputs and the literals of its code."""
    numbers = []
    for c in book.cells:
        if c.cell_type == "code":
            numbers += _shown_numbers(_output_text(c))
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
            found.append((number + (" %" if percent else ""), line.strip()))
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
                found.append(Claim(number, i, text, line[:160]))
    return found


def allowed() -> list[dict[str, str]]:
    entries = []
    for path in sorted(ALLOWED.glob("*.toml")):
        entries += [{**e, "file": path.name} for e in tomllib.loads(path.read_text()).get("allow", [])]
    return entries


def check(paths: list[Path]) -> tuple[list[Claim], list[dict[str, str]]]:
    """Unmatched claims not on the allow-list, and allow-list entries that match no claim."""
    books = {p.name[:2]: nbformat.read(p, as_version=4) for p in NOTEBOOKS}
    claims = [c for p in paths for c in unmatched(p, books)]
    entries = allowed()
    for e in entries:
        if not e.get("reason", "").strip():
            raise ValueError(f"tools/claims_allowed/{e['file']}: entry {e} has no reason")
    keys = {(e["notebook"], e["number"]) for e in entries}
    left = [c for c in claims if (c.notebook, c.number) not in keys]
    checked = {p.name[:2] for p in paths}
    used = {(c.notebook, c.number) for c in claims}
    stale = [e for e in entries if e["notebook"] in checked and (e["notebook"], e["number"]) not in used]
    return left, stale


if __name__ == "__main__":
    paths = [Path(p) for p in sys.argv[1:]] or NOTEBOOKS
    left, stale = check(paths)
    for c in left:
        print(f"{c.notebook} cell {c.cell}: {c.number!r} in: {c.sentence}")
    for e in stale:
        print(f"stale allow-list entry: {e}")
    print(f"{len(left)} unmatched numbers, {len(stale)} stale allow-list entries")
    sys.exit(1 if left or stale else 0)
