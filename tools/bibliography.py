"""The bibliography (book/references.md) and what the notebooks cite: every paper has a DOI or a stable link.

book/references.md lists each work once, as ``- **Key YYYY.** authors. title. venue. link``, the key being the
first author's surname (``Forman & Scholz 2010``, ``DeLong et al. 1988``; ``n.d.`` for an undated note) and the
link a DOI, a URL, or for a book without either its ISBN. Two checks read it:

- :func:`unlisted` reads a notebook's References section: each bullet that cites a paper (``Surname (YYYY)``, or an
  author's name first) must match an entry of the same year whose first author's surname it names;
- :func:`uncited` reads the notebook's text before its References: every citation in it (``Nadeau & Bengio
  2003``, ``Van Asch (2013)``) must appear in the notebook's References, with its year.

Bullets that cite software or documentation (scikit-learn, SciPy, WEKA's source, torchmetrics) or another
notebook are not papers and are not checked.

Usage: python tools/bibliography.py [NOTEBOOK ...]   (prints what each notebook cites that is not listed)
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
BIBLIOGRAPHY = ROOT / "book" / "references.md"

_ENTRY = re.compile(r"^- \*\*(?P<key>.+?) (?P<year>\d{4}|n\.d)\.\*\* (?P<text>.+)$")
_LINK = re.compile(r"\]\((https?://[^\s]+)\)(?:\s|$)|<(https?://[^>\s]+)>|(ISBN [\d-]{10,17})")
_YEAR = re.compile(r"\((\d{4})\)")
_NOT_A_PAPER = re.compile(r"^(?:scikit-learn|SciPy|WEKA|torchmetrics|torcheval|Notebooks? \d)", re.I)
_AUTHOR_FIRST = re.compile(r"^(?:[A-Z]\.\s?)+(?:[A-Z]\.\s)?[A-Z]|^[A-Z][\w\-' ]+, (?:[A-Z]\.\s?)+")
#: A citation in running text: a surname (Van Asch, DeLong), its co-authors or "et al.", and a year.
_TEXT_CITATION = re.compile(
    r"\b((?:Van\s|De|van\s)?[A-Z][\w\-šéáü']+)(?:(?:,|\sand|\s&)\s+[A-Z][\w\-šéü']+)*"
    r"(?:,?\s+(?:&|and)\s+[A-Z][\w\-šéü']+|\s+et\s+al\.)?,?\s+\(?((?:19|20)\d\d)\)?"
)


@dataclass(frozen=True)
class Entry:
    """One work of the bibliography: its key ("DeLong et al."), year ("1988" or "n.d."), text and link."""

    key: str
    year: str
    text: str
    link: str | None

    @property
    def surname(self) -> str:
        """The first author's surname, as the key writes it."""
        return re.split(r" & | et al\.", self.key)[0].strip()


def entries(path: Path = BIBLIOGRAPHY) -> list[Entry]:
    """The works of the bibliography, in its order."""
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        m = _ENTRY.match(line)
        if m:
            link = _LINK.search(m.group("text"))
            year = "n.d." if m.group("year") == "n.d" else m.group("year")
            target = next((g for g in link.groups() if g), None) if link else None
            found.append(Entry(m.group("key"), year, m.group("text"), target))
    return found


def _references_cell(book: nbformat.NotebookNode) -> str:
    cells = [c.source for c in book.cells if c.cell_type == "markdown"]
    for i, source in enumerate(cells):
        if re.search(r"^## References\s*$", source, re.M):
            return "\n".join([source.split("## References", 1)[1], *cells[i + 1 :]])
    return ""


def references(book: nbformat.NotebookNode) -> list[str]:
    """The bullets of a notebook's References section."""
    return [m.strip() for m in re.findall(r"^\s*[-*] +(.+)$", _references_cell(book), re.M)]


def is_paper(bullet: str) -> bool:
    """Whether a References bullet cites a paper (not software documentation or another notebook)."""
    if _NOT_A_PAPER.match(bullet):
        return False
    return bool(_YEAR.search(bullet) or _AUTHOR_FIRST.match(bullet))


def citations(bullet: str) -> list[tuple[str, str]]:
    """(the text naming the authors, year) of each paper a bullet cites; ("the bullet", "n.d.") when it has no year."""
    found, start = [], 0
    for m in _YEAR.finditer(bullet):
        found.append((bullet[start : m.start()], m.group(1)))
        start = m.end()
    return found or [(bullet, "n.d.")]


def find(authors: str, year: str, works: list[Entry]) -> Entry | None:
    """The entry of ``year`` whose first author's surname ``authors`` names."""
    return next((e for e in works if e.year == year and re.search(rf"\b{re.escape(e.surname)}\b", authors)), None)


def unlisted(book: nbformat.NotebookNode, works: list[Entry] | None = None) -> list[str]:
    """The papers a notebook's References cite that the bibliography lacks, or lists without a DOI or link."""
    works = works if works is not None else entries()
    problems = []
    for bullet in references(book):
        if not is_paper(bullet):
            continue
        for authors, year in citations(bullet):
            entry = find(authors, year, works)
            if entry is None:
                problems.append(f"not in book/references.md ({year}): {bullet[:100]}")
            elif entry.link is None:
                problems.append(f"{entry.key} {entry.year} has no DOI, link or ISBN in book/references.md")
    return problems


def text_citations(book: nbformat.NotebookNode) -> set[tuple[str, str]]:
    """(surname, year) of every citation in a notebook's text before its References."""
    found = set()
    for c in book.cells:
        if c.cell_type != "markdown":
            continue
        if re.search(r"^## References\s*$", c.source, re.M):
            break
        found |= {
            (re.sub(r"\s+", " ", m.group(1)).removesuffix("'s"), m.group(2)) for m in _TEXT_CITATION.finditer(c.source)
        }
    return found


def uncited(book: nbformat.NotebookNode) -> list[str]:
    """Citations of a notebook's text that its References do not list (by surname and year)."""
    bullets = references(book)
    return [
        f"{name} {year}"
        for name, year in sorted(text_citations(book))
        if not any(name in b and f"({year})" in b for b in bullets)
    ]


def references_line(entry: Entry) -> str:
    """A References bullet for a notebook, from the bibliography's entry (authors, year, title, venue, link)."""
    split = re.match(r"(.*?[^\s.]{2,})\. (.*)$", entry.text)
    authors, rest = split.groups() if split else ("", entry.text)
    link = entry.link or ""
    doi = re.search(r"\[(doi:[^\]]+)\]\(([^)]+)\)", rest)
    body = rest if doi is None else rest.replace(doi.group(0), "").strip()
    tail = f" [{doi.group(1)}]({doi.group(2)})" if doi else (f" <{link}>" if link.startswith("http") else "")
    body = re.sub(r"\s*<https?://[^>]+>", "", body).strip()
    return f"- {authors} ({entry.year}). {body}{tail}"


def main(paths: list[Path]) -> int:
    works = entries()
    bad = 0
    for path in paths:
        book = nbformat.read(path, as_version=4)
        problems = unlisted(book, works) + [f"cited in the text, not in References: {c}" for c in uncited(book)]
        bad += bool(problems)
        for p in problems:
            print(f"{path.name}: {p}")
    print(f"{len(works)} works in book/references.md; {bad} notebooks with citations to fix")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main([Path(p) for p in sys.argv[1:]] or NOTEBOOKS))
