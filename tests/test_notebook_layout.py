"""The shape every notebook shares (tools/course_shape.py): one template, one idea per cell, a 75-minute main path.

What you will learn -> Notation -> numbered sections -> Paper says, we get -> Summary -> Exercises -> Going
deeper -> References. A class follows the main path in one session; derivations and side notes wait in "Going
deeper". A notebook that reproduces a paper sets the paper's findings beside ours in one table ("paper says,
we get: do we agree?"), so a reader sees at a glance what reproduces and what does not. No number in the
text goes unbacked by an output (tools/check_claims.py).
"""

import re
from pathlib import Path

import nbformat
import pytest

from tools import check_claims as claims_tool
from tools import course_shape as shape_tool

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
#: The notebooks that reproduce a paper's tables, figures or findings (09 and 10 build on them).
REPRODUCING = [p for p in NOTEBOOKS if int(p.name[:2]) <= 8]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_follows_the_template_and_the_density_goals(path):
    """Template order, numbered exercises with solutions, A.n appendix, cell sizes, a 75-minute main path."""
    shape = shape_tool.measure(path)
    assert not shape.problems, shape_tool.report(shape)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_solutions_do_not_rebind_module_aliases(path):
    """A solution that writes `fs = [...]` hides `forman_scholz as fs` from every later cell."""
    book = nbformat.read(path, as_version=4)
    assert not shape_tool.rebound_aliases(book.cells)


def test_every_number_in_the_text_is_shown_by_an_output():
    """tools/check_claims.py: numbers no output shows, unless quoted from a paper or allowed with a reason."""
    left, stale = claims_tool.check(NOTEBOOKS)
    assert not left and not stale, "\n".join(
        [f"{c.notebook} cell {c.cell}: {c.number!r} in: {c.sentence}" for c in left]
        + [f"stale allow-list entry: {e}" for e in stale]
    )


def _md(source):
    return nbformat.v4.new_markdown_cell(source)


def test_shape_tool_counts_words_and_minutes():
    assert shape_tool.words("Two words") == 2
    assert shape_tool.words("[`apples.report`](#apples.report) is one") == 3  # link target not read
    assert shape_tool.words("| a | b |\n|---|---|\n| c | d |") == 4  # table rule not read
    shape = shape_tool.Shape("x", main_words=1000, main_code_cells=10, main_seconds=120)
    assert shape.minutes == pytest.approx(1000 / 100 + 10 * 2.0 + 2)


def test_shape_tool_flags_a_notebook_out_of_order(tmp_path):
    book = nbformat.v4.new_notebook()
    book.cells = [
        _md("# 09 · T"),
        _md("## Notation"),
        _md("## What you will learn\n- compute x\n- say y\n- choose z"),
        _md("## 1. A"),
        _md("## Summary"),
        _md("## Exercises"),
        _md("### Exercise 1 · a"),
        nbformat.v4.new_code_cell("x = 1", metadata={"tags": ["solution"]}),
        _md("### Exercise 3 · b"),
        _md("## Going deeper\n### A.2 x"),
        _md("## References"),
    ]
    path = tmp_path / "10_x.ipynb"
    nbformat.write(book, path)
    problems = "\n".join(shape_tool.measure(path).problems)
    assert "not in the template's order" in problems
    assert "exercises must be numbered 1, 2, 3" in problems and "'Exercise 3 · b' has no solution cell" in problems
    assert "A.1" in problems


def test_alias_check_finds_a_rebound_module_name():
    cells = [
        nbformat.v4.new_code_cell("import numpy as np\nfrom apples.studies import forman_scholz as fs"),
        nbformat.v4.new_code_cell("for fs in [1]:\n    pass\nnp_like = 1"),
    ]
    assert shape_tool.rebound_aliases(cells) == [(1, "fs")]


@pytest.mark.parametrize(
    ("markdown", "claims"),
    [
        ("F lands at 58 % and 0.431.", ["58 %", "0.431"]),
        ("Figure 4, Tables 3–5, §4.3, eqs. 16–18 and 22, notebook 03: 10 folds in 2010.", []),
        ('The paper says "F falls by 0.43"; a ">" inside a line is no quote: 0.77', ["0.77"]),
        ("> F&S: 0.43\n\nours 0.44", ["0.44"]),
        ("| | Paper says | we get |\n|---|---|---|\n| F | 0.43 | 0.44 |", ["0.44"]),
        ("WEKA 3.6.1, pull request #27412, `x = 0.37`, [a](#b.0.3)", []),
        ("## 3. Heading 0.55\nbody 1,000,000 cases", ["1,000,000"]),
    ],
)
def test_claim_extraction(markdown, claims):
    assert [n for n, _ in claims_tool.claims_in(markdown)] == claims


@pytest.mark.parametrize(
    ("number", "shown", "ok"),
    [
        ("58 %", [0.5812], True),
        ("58 %", [58.1], True),
        ("13.67 %", [0.13671], True),
        ("13.7 %", [0.1361], False),
        ("0.43", [0.4312], True),
        ("0.43", [0.4361], False),
        ("26.14", [-26.14], True),
        ("1,000,000", [1e6], True),
        ("0.4312", [0.43], False),  # more digits than the output shows is not backed by it
    ],
)
def test_claim_matching(number, shown, ok):
    value, decimals = claims_tool._value(number.rstrip(" %"))
    assert claims_tool._matches(value, decimals, [abs(s) for s in shown]) is ok


def _headings(path: Path) -> list[str]:
    book = nbformat.read(path, as_version=4)
    return [
        line
        for c in book.cells
        if c.cell_type == "markdown"
        for line in c.source.splitlines()
        if re.match(r"#{1,3} ", line)
    ]


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
