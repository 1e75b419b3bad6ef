"""House rules every notebook follows (CONTRIBUTING.md); nbval checks their outputs separately."""

import json
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
ids = [p.name for p in NOTEBOOKS]


def test_there_are_notebooks():
    assert NOTEBOOKS, "no notebooks/NN_*.ipynb found"


def test_reading_order_numbers_are_consecutive():
    numbers = [int(p.name[:2]) for p in NOTEBOOKS]
    assert numbers == list(range(1, len(NOTEBOOKS) + 1))


@pytest.fixture(params=NOTEBOOKS, ids=ids)
def nb(request):
    return request.param, nbformat.read(request.param, as_version=4)


def _code(nb):
    return [c for c in nb.cells if c.cell_type == "code"]


def test_opens_with_title_summary_goals_and_notation(nb):
    path, book = nb
    first = next(c for c in book.cells if c.cell_type == "markdown").source
    assert re.match(rf"# {path.name[:2]} · \S", first), "first markdown cell must start with '# NN · Title'"
    head = "\n".join(c.source for c in book.cells[:4] if c.cell_type == "markdown")
    assert "What you will learn" in head
    assert re.search(r"^\|.*\|.*apples", head, re.M | re.I), "a notation table (paper symbol → apples name) near the top"


def test_first_code_cell_sets_style(nb):
    _, book = nb
    assert "apples.set_style()" in _code(book)[0].source


def test_ends_with_exercises_and_tagged_solutions(nb):
    _, book = nb
    assert any(c.cell_type == "markdown" and re.search(r"^## Exercises", c.source, re.M) for c in book.cells)
    assert any("solution" in c.metadata.get("tags", []) for c in book.cells)


def test_executed_in_order_without_errors(nb):
    _, book = nb
    counts = [c.execution_count for c in _code(book) if c.source.strip()]
    assert counts == list(range(1, len(counts) + 1)), "restart and run all before saving"
    for c in _code(book):
        meant = "NBVAL_RAISES_EXCEPTION" in c.source or "raises-exception" in c.metadata.get("tags", [])
        assert meant or not any(o.output_type == "error" for o in c.outputs), c.source[:80]


def test_no_machine_paths_raw_numpy_reprs_or_huge_outputs(nb):
    path, book = nb
    text = json.dumps(book)
    assert not re.search(r"/(root|tmp|home|work)/", text), "a machine path is stored in the notebook"
    assert len(text) < 3_000_000
    for c in _code(book):
        for o in c.outputs:
            shown = o.get("text", "") + str(o.get("data", {}).get("text/plain", ""))
            assert "np.float64(" not in shown and "np.int64(" not in shown, c.source[:80]


def test_plot_cells_end_with_show(nb):
    _, book = nb
    for c in _code(book):
        src = c.source.strip()
        if re.search(r"plt\.(subplots|figure)\(", src):
            assert src.endswith("plt.show()"), f"plot cell should end with plt.show(): {src[:80]!r}"


def test_readme_lists_every_notebook_in_order():
    readme = (ROOT / "README.md").read_text()
    positions = [readme.find(p.name) for p in NOTEBOOKS]
    assert all(pos >= 0 for pos in positions), "README's reading order must name every notebook"
    assert positions == sorted(positions)


def test_student_copy_drops_solutions_and_index_lists_notebooks(tmp_path):
    subprocess.run([sys.executable, str(ROOT / "tools" / "strip_solutions.py"), str(tmp_path / "student"),
                    *map(str, NOTEBOOKS)], check=True, capture_output=True)
    for p in NOTEBOOKS:
        student = nbformat.read(tmp_path / "student" / p.name, as_version=4)
        assert not any("solution" in c.metadata.get("tags", []) for c in student.cells)
        assert all(not c.outputs for c in _code(student))
    subprocess.run([sys.executable, str(ROOT / "tools" / "build_index.py"), str(ROOT / "notebooks"),
                    str(tmp_path / "index.html")], check=True, capture_output=True)
    page = (tmp_path / "index.html").read_text()
    assert "$" not in page and "{" not in page.split("</style>")[1], "index text should be plain, not TeX"
    for p in NOTEBOOKS:
        assert p.with_suffix(".html").name in page
