"""The shape every notebook shares: main path, paper table, Going deeper appendix, exercises, references.

A class follows the main path in one hour; derivations and side notes wait in "Going deeper". A notebook
that reproduces a paper sets the paper's findings beside ours in one table ("paper says, we get: do we
agree?"), so a reader sees at a glance what reproduces and what does not.
"""

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
#: The notebooks that reproduce a paper's tables, figures or findings (09 and 10 build on them).
REPRODUCING = [p for p in NOTEBOOKS if int(p.name[:2]) <= 8]


def _headings(path: Path) -> list[str]:
    book = nbformat.read(path, as_version=4)
    return [
        line
        for c in book.cells
        if c.cell_type == "markdown"
        for line in c.source.splitlines()
        if re.match(r"#{1,3} ", line)
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_going_deeper_comes_after_the_main_path_and_before_the_exercises(path):
    heads = [h for h in _headings(path) if h.startswith("## ")]
    names = [h[3:].strip() for h in heads]
    assert "Going deeper" in names, f"{path.name}: no '## Going deeper' appendix"
    deeper = names.index("Going deeper")
    exercises = next((i for i, n in enumerate(names) if n.startswith("Exercises")), None)
    assert exercises is not None and deeper < exercises, f"{path.name}: Going deeper must come before the exercises"
    assert any(re.match(r"\d+\.", n) for n in names[:deeper]), f"{path.name}: numbered main sections come first"


@pytest.mark.parametrize("path", REPRODUCING, ids=[p.name for p in REPRODUCING])
def test_a_reproducing_notebook_sets_the_paper_beside_ours(path):
    book = nbformat.read(path, as_version=4)
    at = [
        i
        for i, c in enumerate(book.cells)
        if c.cell_type == "markdown" and re.search(r"^## .*paper.*agree", c.source, re.M | re.I)
    ]
    assert at, f"{path.name}: no 'paper says, we get: do we agree?' section"
    section = []
    for c in book.cells[at[0] :]:
        if c is not book.cells[at[0]] and c.cell_type == "markdown" and re.match(r"## ", c.source):
            break
        section.append(c.source)
        section += [o.get("text", "") for o in c.get("outputs", [])]
    text = "\n".join(section)
    assert re.search(r"agree", text, re.I) and re.search(r"\byes\b", text), f"{path.name}: the table has no verdicts"
