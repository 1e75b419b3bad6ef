"""House rules every notebook follows (CONTRIBUTING.md); nbval checks their outputs separately."""

import json
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from book._ext import apples_guide
from tools import export_figures, strip_solutions, trained_outputs

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
    head = "\n".join(c.source for c in book.cells[:6] if c.cell_type == "markdown")
    assert "What you will learn" in head
    assert re.search(r"^\|.*\|.*apples", head, re.M | re.I), (
        "a notation table (paper symbol → apples name) near the top"
    )


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
    _path, book = nb
    text = json.dumps(book)
    assert not re.search(r"/(root|tmp|home|work)/", text), "a machine path is stored in the notebook"
    assert len(text) < 3_000_000
    for c in _code(book):
        for o in c.outputs:
            shown = o.get("text", "") + str(o.get("data", {}).get("text/plain", ""))
            assert "np.float64(" not in shown and "np.int64(" not in shown, c.source[:80]


# A checked output is compared with a fresh run on whatever machine runs the tests, so it must not show
# round-off: the last bits of a float computation depend on numpy's SIMD code paths (AVX2, AVX-512),
# the BLAS kernel and its thread count. Round-off sized: a number in scientific notation below 1e-10
# (1.1e-16, 2.2E-17, and 0.0e+00 too) or a plain decimal whose first ten decimals are zeros
# (0.0000000000001). A bound being compared against, as in "max |c(T(c)) - c| < 1e-12: True", is not.
_NUMBER = re.compile(r"(?<![\w.])[-+−]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+−]?\d+)?(?![\w.])")
_COMPARED_WITH = re.compile(r"(?:<=?|>=?|≤|≥)\s*$")


def roundoff_sized_numbers(text: str) -> list[str]:
    """The numbers in ``text`` that are round-off sized (see above), as printed."""
    found = []
    for m in _NUMBER.finditer(text):
        number = m.group()
        if _COMPARED_WITH.search(text[: m.start()]):
            continue
        value = abs(float(number.replace("−", "-")))
        small = value < 1e-10 if "e" in number.lower() else value < 1e-10 and len(number.partition(".")[2]) >= 10
        if small:
            found.append(number)
    return found


@pytest.mark.parametrize(
    "text, found",
    [
        ("max |c(T(c)) - c| = 1.1e-16", ["1.1e-16"]),
        ("gap 2.2E-17, then -3e-12 and 0.0e+00", ["2.2E-17", "-3e-12", "0.0e+00"]),
        ("difference 0.0000000000001 and 0.0000000000", ["0.0000000000001", "0.0000000000"]),
        ("max |c(T(c)) - c| < 1e-12: True; |difference| <= 1e-14, ≤ 2e-16", []),
        ("AUC = 0.8315419880, 1e-02, 5.0e-07 (no), 0.000, -0.0001, 1 in 1,900,000,000, v3.11.7", []),
    ],
)
def test_roundoff_detector(text, found):
    assert roundoff_sized_numbers(text) == found


def test_checked_outputs_show_no_roundoff(nb):
    _, book = nb
    for c in _code(book):
        if "NBVAL_CHECK_OUTPUT" not in c.source and "nbval-check-output" not in c.metadata.get("tags", []):
            continue
        for o in c.outputs:
            texts = [o.get("text", "")] + [str(v) for k, v in o.get("data", {}).items() if k.startswith("text/")]
            shown = roundoff_sized_numbers("\n".join(texts))
            assert not shown, (
                f"a checked output shows round-off {shown}, which differs between machines: print a "
                f"stable statement (e.g. '< 1e-12: True') and assert the tight bound in tests/ instead. "
                f"Cell: {c.source[:120]!r}"
            )


def test_stored_progress_bars_show_their_finished_state(nb):
    """A tqdm widget's stored text is what a reader without a kernel sees (the book): the finished bar, n of n."""
    _, book = nb
    for c in _code(book):
        for o in c.outputs:
            data = o.get("data", {})
            if "application/vnd.jupyter.widget-view+json" in data and re.search(r"\d+/\d+", data.get("text/plain", "")):
                done, total = re.search(r"(\d+)/(\d+)", data["text/plain"]).groups()
                assert done == total, f"a stored progress bar stopped at {done}/{total}: {c.source[:80]!r}"


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


def _images(cells) -> int:
    return sum("image/png" in o.get("data", {}) for c in cells if c.cell_type == "code" for o in c.outputs)


def test_student_answer_cells_are_numbered_and_typed_after_their_exercise():
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    sol = {"tags": ["solution"]}
    cells = [
        md("## Exercises"),
        md("### Exercise 1 · Derive"),
        md("The derivation.", metadata=sol),
        md("### Exercise 2 · Derive and check"),
        md("Why.", metadata=sol),
        code("x = 1", metadata=sol),
        code("y = 2", metadata=sol),
        md("### Exercise 3 · Compute"),
        code("z = 3", metadata=sol),
        md("A remark that gives exercise 2 away.", metadata={"tags": ["instructor"]}),
        md("## Going deeper"),
    ]
    out, answered = strip_solutions.student_cells(cells)
    assert answered == 3
    assert [(c.cell_type, c.source.split(":")[0]) for c in out if "your-answer" in c.metadata.get("tags", [])] == [
        ("markdown", "**Exercise 1"),
        ("markdown", "**Exercise 2"),
        ("code", "# Exercise 2"),
        ("code", "# Exercise 3"),
    ]
    assert not any("gives exercise 2 away" in c.source or c.source == "x = 1" for c in out)


def test_student_copy_keeps_figures_and_drops_solutions(tmp_path):
    subprocess.run(
        [sys.executable, str(ROOT / "tools" / "strip_solutions.py"), str(tmp_path / "student"), *map(str, NOTEBOOKS)],
        check=True,
        capture_output=True,
    )
    for p in NOTEBOOKS:
        teacher = nbformat.read(p, as_version=4)
        student = nbformat.read(tmp_path / "student" / p.name, as_version=4)
        solutions = [c for c in teacher.cells if "solution" in c.metadata.get("tags", [])]
        hidden = solutions + [c for c in teacher.cells if "instructor" in c.metadata.get("tags", [])]
        answers = [c for c in student.cells if "your-answer" in c.metadata.get("tags", [])]
        exercises = re.findall(r"^### Exercise (\d+) · ", "\n".join(c.source for c in teacher.cells), re.M)
        assert not any({"solution", "instructor"} & set(c.metadata.get("tags", [])) for c in student.cells)
        # answer cells numbered after their exercise, right after it, of the kinds its solution uses
        numbers = [re.search(r"Exercise (\d+)", c.source).group(1) for c in answers]
        assert list(dict.fromkeys(numbers)) == exercises, p.name
        for n in exercises:
            heading = next(i for i, c in enumerate(teacher.cells) if f"### Exercise {n} · " in c.source)
            own = []
            for c in teacher.cells[heading + 1 :]:
                if "solution" not in c.metadata.get("tags", []):
                    break
                own.append(c.cell_type)
            kinds = [c.cell_type for c, m in zip(answers, numbers, strict=True) if m == n]
            assert kinds == list(dict.fromkeys(own)), f"{p.name} exercise {n}: answer cells {kinds}, solution {own}"
        assert all(c.cell_type == "markdown" or not c.outputs for c in answers)
        for i, c in enumerate(student.cells):
            if "your-answer" in c.metadata.get("tags", []):
                n = re.search(r"Exercise (\d+)", c.source).group(1)
                above = next(
                    d.source for d in reversed(student.cells[:i]) if "your-answer" not in d.metadata.get("tags", [])
                )
                assert f"### Exercise {n} · " in above, f"{p.name}: answer cell {n} is not right after its exercise"
        # no text that points at solutions the student copy does not have
        text = "\n".join(c.source for c in student.cells)
        assert not re.search(r"collapsed cell|solutions? (follow|below)|worked solution", text, re.I), p.name
        # no solution text survives: every substantial line of every solution is gone
        elsewhere = "\n".join(c.source for c in teacher.cells if c not in hidden)  # lines the main text shares
        leaked = [
            line
            for c in hidden
            for line in c.source.splitlines()
            if len(line.strip()) > 25 and line in text and line not in elsewhere
        ]
        assert not leaked, f"{p.name}: solution lines in the student copy: {leaked[:3]}"
        # every other cell keeps its outputs, figures included
        kept = [c for c in teacher.cells if c not in hidden]
        assert _images(student.cells) == _images(kept) > 0
        assert [
            c.outputs
            for c in student.cells
            if "your-answer" not in c.metadata.get("tags", []) and c.cell_type == "code"
        ] == [c.outputs for c in kept if c.cell_type == "code"]


def test_student_copy_executes(tmp_path):
    """The student edition of the first notebook runs top to bottom (answer cells are comments or markdown)."""
    from nbclient import NotebookClient

    first = NOTEBOOKS[0]
    subprocess.run(
        [sys.executable, str(ROOT / "tools" / "strip_solutions.py"), str(tmp_path), str(first)],
        check=True,
        capture_output=True,
    )
    student = nbformat.read(tmp_path / first.name, as_version=4)
    NotebookClient(
        student, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    errors = [o for c in _code(student) for o in c.outputs if o.output_type == "error"]
    assert not errors


# -- notebooks narrate; the library holds the logic -------------------------------------------------------
#: Functions a notebook may define outside solution cells, because its text teaches that code: (notebook
#: number, function name) -> what the text teaches with it. Everything else is one call into apples.
TEACHING: dict[tuple[str, str], str] = {}


def _defined_functions(source: str) -> list[str]:
    import ast

    tree = ast.parse("\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))))
    return [n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]


def test_defines_functions_only_where_the_text_teaches_them(nb):
    path, book = nb
    number = path.name[:2]
    found = []
    for i, cell in enumerate(book.cells):
        if cell.cell_type != "code" or "solution" in cell.metadata.get("tags", []):
            continue
        found += [(i, name) for name in _defined_functions(cell.source) if (number, name) not in TEACHING]
    assert not found, (
        f"functions defined in notebook {number} (cell, name): {found}; move them into the study's module, "
        "or list them in TEACHING with what the text teaches"
    )


_IMPORT_LINE = re.compile(r"^\s*(?:from\s+(apples[\w.]*)\s+import\s+(.+)|import\s+(apples[\w.]*))", re.M)


def test_imports_only_public_names(nb):
    _, book = nb
    private = []
    for cell in _code(book):
        for m in _IMPORT_LINE.finditer(cell.source):
            module = m.group(1) or m.group(3)
            names = [n.strip().split(" as ")[0] for n in (m.group(2) or "").strip("()").split(",") if n.strip()]
            if any(part.startswith("_") for part in module.split(".")) or any(n.startswith("_") for n in names):
                private.append(m.group(0).strip())
        private += re.findall(r"\bapples(?:\.\w+)*\._\w+", cell.source)
    assert not private, f"private names used in a notebook: {private}"


def test_make_lab_allows_root_only_for_root():
    """JupyterLab exits at once as root unless given --allow-root; `make lab` passes it exactly then."""
    import os
    import shutil

    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    out = subprocess.run(["make", "-n", "lab"], cwd=ROOT, capture_output=True, text=True).stdout
    line = next(x for x in out.splitlines() if "jupyter lab" in x)
    assert ("--allow-root" in line) == (os.getuid() == 0), line


def test_solutions_are_collapsed_with_outputs_hidden(nb):
    _, book = nb
    for cell in book.cells:
        if "solution" in cell.metadata.get("tags", []):
            assert cell.metadata.get("jupyter", {}) == {"source_hidden": True, "outputs_hidden": True}, cell.source[:60]
            assert cell.metadata.get("collapsed") is True


def test_stored_figures_are_at_least_120_dpi(nb):
    """Every stored PNG says 120 dpi or more in its pHYs chunk (set_style stores them at 120 dpi)."""
    import base64
    import struct

    _, book = nb
    dpi = []
    for cell in _code(book):
        for out in cell.outputs:
            png = out.get("data", {}).get("image/png")
            if png:
                data = base64.b64decode(png)
                at = data.find(b"pHYs")
                x_per_metre, _, unit = struct.unpack(">IIB", data[at + 4 : at + 13])
                dpi.append(round(x_per_metre * 0.0254) if at > 0 and unit == 1 else 0)
    assert dpi and min(dpi) >= 120, dpi


def test_no_markdown_cell_over_1500_characters(nb):
    _, book = nb
    long = [(i, len(c.source)) for i, c in enumerate(book.cells) if c.cell_type == "markdown" and len(c.source) > 1500]
    assert not long, f"markdown cells over 1,500 characters (cell, length): {long}; split them at a paragraph"


def test_book_renders_every_notebook_offline_with_navigation_and_search(book_html):
    """The Sphinx book of `make book`, built from the stored outputs (the book_html fixture, tests/conftest.py)."""
    html_dir = book_html
    index = (html_dir / "index.html").read_text()
    with_math = 0
    for p in NOTEBOOKS:
        assert f"notebooks/{p.stem}.html" in index, f"{p.name} missing from the sidebar/table of contents"
        page = (html_dir / "notebooks" / f"{p.stem}.html").read_text()
        if 'class="math' in page:  # a page with formulas loads MathJax, from the book itself
            assert "_static/mathjax/" in page, f"{p.stem}.html: MathJax must be shipped with the book"
            with_math += 1
        assert "https://" not in page and "http://" not in page.replace("http://www.w3.org", ""), (
            f"{p.stem}.html fetches something from the network"
        )
        assert ("<img" in page) or p.stem.startswith("05"), f"{p.stem}.html shows no figure"
    middle = (html_dir / "notebooks" / f"{NOTEBOOKS[1].stem}.html").read_text()
    assert f"{NOTEBOOKS[0].stem}.html" in middle and f"{NOTEBOOKS[2].stem}.html" in middle, "previous/next links"
    assert (html_dir / "search.html").exists() and (html_dir / "searchindex.js").stat().st_size > 10_000
    assert (html_dir / "_static" / "mathjax").is_dir() and with_math >= 5


def test_explorer_cells_say_they_need_a_kernel_and_store_a_snapshot(nb):
    """An explorer shows something real without a kernel: its stored output carries a PNG snapshot."""
    _, book = nb
    for i, cell in enumerate(book.cells):
        if cell.cell_type != "code" or not re.search(r"_explorer\(", cell.source):
            continue
        before = "\n".join(c.source for c in book.cells[max(0, i - 2) : i] if c.cell_type == "markdown")
        assert "running kernel" in before, f"cell {i}: say that the explorer needs a running kernel"
        kinds = [set(o.get("data", {})) for o in cell.outputs]
        assert any({"image/png", "application/vnd.jupyter.widget-view+json"} <= k for k in kinds), (
            f"cell {i}: the stored output needs the widget and a PNG snapshot"
        )


# -- checked outputs show no trained model's values (CONTRIBUTING.md, "Checked outputs") -------------------------
def _cells(*sources, tags=()):
    return [{"cell_type": "code", "source": s, "metadata": {"tags": list(tags)}} for s in sources]


@pytest.mark.parametrize(
    ("sources", "flagged"),
    [
        # a trained value printed in a checked cell, directly or two names later
        (["m = LogisticRegression().fit(X, y)", "# NBVAL_CHECK_OUTPUT\nprint(m.coef_)"], [1]),
        (
            [
                "p = apples.cross_val_predictions(model, X, y, cv=5)",
                "r = apples.report(p.y_true)",
                "x = r",
                "# NBVAL_CHECK_OUTPUT\nx",
            ],
            [3],
        ),
        # through a container, a loop and a with block
        (
            [
                "rows = []\nfor s in seeds:\n    rows.append(fs.fold_scores(m, X, y, cv=s))",
                "# NBVAL_CHECK_OUTPUT\nprint(len(rows[0]))",
            ],
            [1],
        ),
        (["for a in model.predict(X):\n    b = a", "# NBVAL_CHECK_OUTPUT\nb"], [1]),
        # clean values: data, closed forms, a name bound again to a clean value, a module called with a trained value
        (["X, y = load_digits(return_X_y=True)", "# NBVAL_CHECK_OUTPUT\nprint(y.sum())"], []),
        (["r = m.predict(X)", "r = [1, 2]", "# NBVAL_CHECK_OUTPUT\nprint(r)"], []),
        (
            ["import apples", "p = m.predict(X)\napples.report(p)", "# NBVAL_CHECK_OUTPUT\nprint(apples.percent(0.5))"],
            [],
        ),
        # a stated reason, and an unchecked cell
        (["p = m.predict(X)", "# NBVAL_CHECK_OUTPUT\n# stable: an identity\nprint(abs(p - p).max() < 1e-12)"], []),
        (["p = m.predict(X)", "print(p)"], []),
    ],
)
def test_trained_value_tracking(sources, flagged):
    assert [i for i, _ in trained_outputs.checked_cells_with_trained_values(_cells(*sources))] == flagged


def test_solution_cells_are_not_tracked():
    cells = _cells("p = m.predict(X)", tags=("solution",)) + _cells("# NBVAL_CHECK_OUTPUT\nprint(p)")
    assert trained_outputs.checked_cells_with_trained_values(cells) == []


def test_checked_cells_show_no_trained_model_values(nb):
    _, book = nb
    found = trained_outputs.checked_cells_with_trained_values(book.cells)
    assert not found, (
        "checked cells that show a trained model's values (CONTRIBUTING.md, 'Checked outputs'): "
        + "; ".join(f"Cell {i} uses {', '.join(names)}" for i, names in found)
    )


# -- for teachers: the guide, the quiz, the slides ------------------------------------------------------------------
@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids)
def test_every_notebook_has_a_quiz_of_three_recall_questions_with_answers(path):
    """Three recall questions, then any application questions ("*Apply.*"), each with one answer line."""
    quiz = ROOT / "book" / "quizzes" / f"{path.name[:2]}.md"
    assert quiz.is_file(), f"no quiz for {path.name}: book/quizzes/{path.name[:2]}.md"
    text = quiz.read_text()
    questions = re.findall(r"^(\d+)\. (\S+)", text, re.M)
    answers = re.findall(r"^\s+- answer: \S", text, re.M)
    assert [n for n, _ in questions] == [str(i) for i in range(1, len(questions) + 1)], text
    assert len(questions) >= 3 and len(answers) == len(questions), text
    apply = [word == "*Apply.*" for _, word in questions]
    assert not any(apply[:3]) and all(apply[3:]), "three recall questions first, then the '*Apply.*' questions"
    # an answer is one line: the student edition drops exactly the "- answer:" lines (book/_ext/apples_guide.py)
    lines = text.splitlines()
    assert all(not line.strip() or re.match(r"\d+\. |\s+- answer: ", line) for line in lines), text


def test_the_student_quiz_has_no_answers():
    text = "1. Why?\n   - answer: Because F is concave.\n2. How many?\n   - answer: 5.\n"
    assert "concave" in apples_guide.quiz(text, answers=True) and "*Answer:*" in apples_guide.quiz(text, answers=True)
    student = apples_guide.quiz(text, answers=False)
    assert "concave" not in student and "Answer" not in student and "1. Why?" in student and "2. How many?" in student


def test_guide_tables_come_from_the_stored_notebooks(tmp_path):
    """Class time and slow cells of the guide are measured on the notebooks being built, for either edition."""
    (tmp_path / "notebooks").mkdir()
    book = nbformat.v4.new_notebook()
    slow = nbformat.v4.new_code_cell("run_the_grid()", execution_count=7)
    slow.metadata["execution"] = {
        "iopub.execute_input": "2026-01-01T10:00:00.000Z",
        "shell.execute_reply": "2026-01-01T10:00:42.500Z",
    }
    book.cells = [nbformat.v4.new_markdown_cell("# 01 · T\n\n## What you will learn\n- compute <x>"), slow]
    nbformat.write(book, tmp_path / "notebooks" / "01_t.ipynb")
    (tmp_path / "quizzes").mkdir()
    (tmp_path / "quizzes" / "01.md").write_text("1. Q?\n   - answer: secret\n")
    apples_guide.write_guide_parts(tmp_path, student=True)
    made = tmp_path / "guide" / "_generated"
    assert "| 01 | In [7] | `run_the_grid()` | 42 s |" in (made / "slow_cells.md").read_text()  # 42.5 s
    assert "secret" not in (made / "quiz.md").read_text()


def test_book_has_the_teachers_guide_and_the_quiz_with_answers(book_html):
    guide = (book_html / "guide" / "teachers.html").read_text()
    for heading in ("Prerequisites", "Two session plans", "Slow cells", "Learning outcomes", "Licences"):
        assert heading in guide
    for p in NOTEBOOKS:
        assert f"notebooks/{p.stem}.html" in guide, f"{p.name} missing from the guide's outcomes"
    assert "Answer:" in (book_html / "guide" / "quiz.html").read_text()


def test_make_student_builds_a_student_book_without_the_guide():
    import shutil

    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    out = subprocess.run(["make", "-n", "student"], cwd=ROOT, capture_output=True, text=True).stdout
    assert "tools/strip_solutions.py build/student/notebooks" in out
    assert "sphinx-build -q -t student -b html build/student/book build/student/html" in out


@pytest.mark.parametrize("student", [True, False])
def test_the_student_tag_leaves_the_teachers_guide_out(tmp_path, student):
    """book/conf.py's hook: `-t student` excludes guide/teachers.md; the instructor's book keeps it."""
    from types import SimpleNamespace

    from book import conf

    app = SimpleNamespace(tags=SimpleNamespace(has=lambda tag: student and tag == "student"), srcdir=str(tmp_path))
    config = SimpleNamespace(exclude_patterns=[])
    conf.write_guide(app, config)
    assert ("guide/teachers.md" in config.exclude_patterns) is student


def test_figures_are_exported_as_svg_with_their_titles(tmp_path):
    """tools/export_figures.py on a two-figure notebook: two SVG files and an index with each title and cell."""
    book = nbformat.v4.new_notebook()
    book.cells = [
        nbformat.v4.new_code_cell("import matplotlib.pyplot as plt\nimport apples\n\napples.set_style()"),
        nbformat.v4.new_code_cell(
            "fig, ax = plt.subplots()\nax.plot([0, 1])\nax.set_title('Figure 4 | a')\nplt.show()"
        ),
        nbformat.v4.new_code_cell("fig, axs = plt.subplots(1, 2)\nfig.suptitle('Two panels')\nplt.show()"),
    ]
    path = tmp_path / "07_x.ipynb"
    nbformat.write(book, path)
    export_figures.main(str(tmp_path / "figures"), str(path))
    files = sorted(p.name for p in (tmp_path / "figures").glob("*.svg"))
    assert files == ["07-1.svg", "07-2.svg"]
    assert (tmp_path / "figures" / "07-1.svg").read_text().lstrip().startswith("<?xml")
    index = (tmp_path / "figures" / "index.md").read_text()
    assert "| 07-1.svg | Figure 4 \\| a | 07_x.ipynb, In [2] |" in index
    assert "| 07-2.svg | Two panels | 07_x.ipynb, In [3] |" in index
    assert not (tmp_path / "figures" / "_run").exists()
