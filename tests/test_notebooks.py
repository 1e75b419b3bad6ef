"""House rules every notebook follows (CONTRIBUTING.md); nbval checks their outputs separately."""

import json
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from book._ext import apples_guide
from tools import export_figures, guide_tables, strip_solutions, trained_outputs

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


# -- for teachers: the guide, the quiz, the student edition, the slides ---------------------------------------------
#: Notebooks whose quiz has its three recall questions but not yet its two application questions ("Apply it"):
#: their quizzes are written with the notebooks' rework (07 and 08 by the helper splitting notebook 07).
QUIZ_WITHOUT_APPLICATION: dict[str, str] = {}


def _quiz_params():
    return [
        pytest.param(
            p,
            id=p.name,
            marks=[pytest.mark.xfail(strict=True, reason=QUIZ_WITHOUT_APPLICATION[p.name[:2]])]
            if p.name[:2] in QUIZ_WITHOUT_APPLICATION
            else [],
        )
        for p in NOTEBOOKS
    ]


@pytest.mark.parametrize("path", _quiz_params())
def test_every_notebook_has_a_quiz_of_three_recall_and_two_application_questions(path):
    quiz = ROOT / "book" / "quizzes" / f"{path.name[:2]}.md"
    assert quiz.is_file(), f"no quiz for {path.name}: book/quizzes/{path.name[:2]}.md"
    items = apples_guide.parse_quiz(quiz.read_text(encoding="utf-8"))
    assert [(q.number, q.kind) for q in items] == [
        (1, "recall"),
        (2, "recall"),
        (3, "recall"),
        (4, "application"),
        (5, "application"),
    ], quiz.name
    assert all(q.question.strip() and q.answer.strip() for q in items), quiz.name


def test_expected_failures_name_existing_quizzes():
    assert set(QUIZ_WITHOUT_APPLICATION) <= {p.name[:2] for p in NOTEBOOKS}


QUIZ = """1. Why?
   - answer: Because F is concave.
2. How many?
   - answer: 5.

**Apply it**

4. A fold holds 3 positives; compute F.
   - answer: First step, the pooled counts.

     Second step, the harmonic mean of 0.5 and 0.25.
5. Which one?
   - answer: The pooled one.
"""


def test_quiz_parser_reads_recall_and_application_questions_with_worked_answers():
    items = apples_guide.parse_quiz(QUIZ)
    assert [(q.number, q.kind) for q in items] == [(1, "recall"), (2, "recall"), (4, "application"), (5, "application")]
    assert items[2].question == "A fold holds 3 positives; compute F."
    assert "First step" in items[2].answer and "harmonic mean of 0.5" in items[2].answer
    assert items[3].answer == "The pooled one."


def test_the_student_quiz_has_no_answers():
    teacher = apples_guide.quiz(QUIZ, answers=True)
    assert "concave" in teacher and "*Answer:*" in teacher and "harmonic mean of 0.5" in teacher
    student = apples_guide.quiz(QUIZ, answers=False)
    for secret in ("concave", "Answer", "First step", "harmonic mean", "The pooled one"):
        assert secret not in student
    assert "1. Why?" in student and "4. A fold holds 3 positives; compute F." in student and "5. Which one?" in student
    assert apples_guide.has_answers(teacher) and apples_guide.has_answers(QUIZ)
    assert not apples_guide.has_answers(student)


def test_guide_parts_come_from_the_stored_notebooks(tmp_path):
    """Class time (formula and reader's clock), skip-if-short sections, slow cells, exercises and the quiz."""
    book = nbformat.v4.new_notebook()
    slow = nbformat.v4.new_code_cell("run_the_grid()", execution_count=7)
    slow.metadata["execution"] = {
        "iopub.execute_input": "2026-01-01T10:00:00.000Z",
        "shell.execute_reply": "2026-01-01T10:00:42.500Z",
    }
    skip = nbformat.v4.new_markdown_cell("## 2. A side road", metadata={"tags": ["skip-if-short"]})
    book.cells = [
        nbformat.v4.new_markdown_cell("# 01 · T\n\n## What you will learn\n- compute <x>"),
        nbformat.v4.new_markdown_cell("## Notation\n| a | apples |\n|---|---|"),
        nbformat.v4.new_markdown_cell("## 1. Main"),
        slow,
        skip,
        nbformat.v4.new_markdown_cell("## Summary"),
        nbformat.v4.new_markdown_cell("## Exercises\n### Exercise 1 · Derive and check (15 min)"),
        nbformat.v4.new_markdown_cell("why", metadata={"tags": ["solution"]}),
        nbformat.v4.new_code_cell("x = 1", metadata={"tags": ["solution"]}),
        nbformat.v4.new_markdown_cell("### Exercise 2 · Compute (5 min)"),
        nbformat.v4.new_code_cell("y = 1", metadata={"tags": ["solution"]}),
    ]
    book.metadata["apples"] = {
        "reader_minutes": [
            ["## What you will learn", 2],
            ["## Notation", 3],
            ["## 1. Main", 40],
            ["## 2. A side road", 12],
            ["## Summary", 2],
        ],
        "reader": "fresh student reader, 2026-01-01",
    }
    path = tmp_path / "01_t.ipynb"
    nbformat.write(book, path)
    (tmp_path / "quizzes").mkdir()
    (tmp_path / "quizzes" / "01.md").write_text(QUIZ)
    parts = apples_guide.guide_parts([path], tmp_path / "quizzes", answers=False)
    assert "| 01 | In [7] | `run_the_grid()` | 42 s |" in parts["slow-cells"]  # 42.5 s
    row = next(line for line in parts["class-time"].splitlines() if line.startswith("| 01 "))
    assert row.endswith("| 59 min | 2. A side road (12 min) |"), row  # 2 + 3 + 40 + 12 + 2
    assert "| 01 | 1 · Derive and check | 15 min | markdown + code |" in parts["exercises"]
    assert "| 01 | 2 · Compute | 5 min | code |" in parts["exercises"]
    assert "- compute <x>" in parts["outcomes"] and "(../../notebooks/01_t.ipynb)" in parts["outcomes"]
    assert "concave" not in parts["quiz"] and "4. A fold holds 3 positives" in parts["quiz"]
    del book.metadata["apples"]
    nbformat.write(book, path)
    row = next(line for line in apples_guide.guide_parts([path], tmp_path)["class-time"].splitlines()[2:])
    assert "| not measured | 2. A side road |" in row


def test_fill_replaces_only_the_generated_regions():
    page = "intro\n<!-- generated: a (tool) -->\nold\n<!-- end generated: a -->\nmiddle\n"
    assert (
        apples_guide.fill(page, {"a": "new"})
        == "intro\n<!-- generated: a (tool) -->\nnew\n<!-- end generated: a -->\nmiddle\n"
    )
    with pytest.raises(KeyError):
        apples_guide.fill(page, {"b": "x"})


def test_guide_tables_are_committed_and_in_sync():
    """The guide shows its tables on the repository's web view: they are in its Markdown, not Sphinx includes,
    and regenerating them from the notebooks and quizzes changes nothing."""
    for page in guide_tables.PAGES:
        text = page.read_text(encoding="utf-8")
        assert "{include}" not in text and "```{" not in text, f"{page.name}: a directive the web view shows raw"
        assert apples_guide.regions(text), f"{page.name} has no generated region"
    stale = guide_tables.out_of_date()
    assert not stale, f"out of date: {[p.name for p in stale]}; run `python tools/guide_tables.py` and commit"
    regions = apples_guide.regions((ROOT / "book" / "guide" / "teachers.md").read_text(encoding="utf-8"))
    assert regions == ["class-time", "slow-cells", "outcomes", "exercises"]


def test_guide_states_the_course_rules_of_the_tools():
    """The numbers the guide gives for class time and slow cells are the tools' (tools/claims_allowed/guide.toml)."""
    from tools import course_shape

    guide = " ".join((ROOT / "book" / "guide" / "teachers.md").read_text(encoding="utf-8").split())
    assert course_shape.MAIN_MINUTES == course_shape.READER_MINUTES
    assert f"holds every notebook to {course_shape.MAIN_MINUTES} minutes" in guide
    assert f"their sum to {course_shape.READER_MINUTES} minutes" in guide
    assert f"markdown words at {course_shape.WORDS_PER_MINUTE} a minute" in guide
    assert "two minutes per code cell" in guide and course_shape.MINUTES_PER_CODE_CELL == 2
    assert f"over {apples_guide.SLOW:.0f} seconds" in guide


def test_guide_prerequisites_and_order_name_every_notebook():
    guide = (ROOT / "book" / "guide" / "teachers.md").read_text(encoding="utf-8")
    prerequisites = guide[guide.index("## Prerequisites") : guide.index("## Order")]
    order = guide[guide.index("## Order") : guide.index("## Two session plans")]
    for p in NOTEBOOKS:
        assert re.search(rf"^\| {p.name[:2]} \|", prerequisites, re.M), f"no prerequisites for {p.name}"
        assert re.search(rf"\b{p.name[:2]}\b", order), f"{p.name} missing from the order"


def test_guide_and_readme_say_what_the_student_notebooks_give_for_an_exercise():
    """The student notebooks give each exercise one answer cell per kind of cell its solution uses; the guide and
    the README say exactly that, and no text promises one answer cell per exercise."""
    texts = {
        "README.md": (ROOT / "README.md").read_text(encoding="utf-8"),
        "teachers.md": (ROOT / "book" / "guide" / "teachers.md").read_text(encoding="utf-8"),
    }
    for name, text in texts.items():
        flat = re.sub(r"\s+", " ", text)
        assert not re.search(r"\bone (?:empty |numbered )*answer cell", flat), name
        assert "one per kind of cell its solution uses" in flat, name
        assert "a markdown cell for a derivation or an explanation, a code cell for code" in flat, name
    assert strip_solutions.answer_kinds(["markdown", "code", "code", "markdown"]) == ["markdown", "code"]


def test_book_has_the_teachers_guide_the_quiz_with_answers_the_project_and_the_bibliography(book_html):
    guide = (book_html / "guide" / "teachers.html").read_text()
    for heading in ("Prerequisites", "Two session plans", "Slow cells", "Learning outcomes", "Exercises", "Licences"):
        assert heading in guide
    for p in NOTEBOOKS:
        assert f"notebooks/{p.stem}.html" in guide, f"{p.name} missing from the guide's outcomes"
    assert "{include}" not in guide and "clock" in guide and "skip if short of time" in guide
    quiz = (book_html / "guide" / "quiz.html").read_text()
    assert "Answer:" in quiz and "Apply it" in quiz
    assert (book_html / "guide" / "project.html").is_file() and (book_html / "references.html").is_file()


def test_make_student_builds_through_the_student_edition_tool():
    import shutil

    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    out = subprocess.run(["make", "-n", "student"], cwd=ROOT, capture_output=True, text=True).stdout
    assert "tools/student_edition.py build/student notebooks/" in out
    assert "rm -rf" not in out and "cp " not in out  # the tool builds elsewhere and copies out only notebooks, html


@pytest.mark.parametrize("student", [True, False])
def test_the_student_tag_leaves_the_teachers_guide_out_and_refuses_answers(tmp_path, student):
    """book/conf.py's hook: `-t student` excludes guide/teachers.md and stops on a quiz page with answers."""
    from types import SimpleNamespace

    from book import conf

    app = SimpleNamespace(tags=SimpleNamespace(has=lambda tag: student and tag == "student"), srcdir=str(tmp_path))
    config = SimpleNamespace(exclude_patterns=[])
    conf.write_guide(app, config)
    assert ("guide/teachers.md" in config.exclude_patterns) is student
    (tmp_path / "guide").mkdir()
    (tmp_path / "guide" / "quiz.md").write_text(apples_guide.quiz(QUIZ, answers=True))
    if student:
        from sphinx.errors import ConfigError

        with pytest.raises(ConfigError, match="answers"):
            conf.write_guide(app, SimpleNamespace(exclude_patterns=[]))
    else:
        conf.write_guide(app, SimpleNamespace(exclude_patterns=[]))


def _plain(text: str) -> str:
    """Text as a reader sees it, for comparing Markdown with HTML: tags, markup and math delimiters dropped."""
    import html

    text = html.unescape(re.sub(r"<[^>]+>", " ", text))
    text = re.sub(r"\\[()\[\]]|[`*_$\\{}\"“”‘’]", "", text)
    return re.sub(r"\s+", " ", text)


def _fragments(text: str) -> list[str]:
    """The plain phrases of at least 20 characters and four words of a text (between punctuation): what a leak
    would show."""
    parts = (f.strip() for f in re.split(r"[();:,.!?=|]", _plain(text)))
    return [f for f in parts if len(f) >= 20 and len(f.split()) >= 4]


@pytest.fixture(scope="module")
def student_edition(tmp_path_factory):
    """`make student`'s tool run once into a fresh folder (the stored outputs; nothing is executed)."""
    out = tmp_path_factory.mktemp("student") / "student"
    subprocess.run(
        [sys.executable, str(ROOT / "tools" / "student_edition.py"), str(out), *map(str, NOTEBOOKS)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    return out


def test_student_edition_holds_only_what_students_get(student_edition):
    """No teacher's guide, no quiz answer (recall or application), no worked solution anywhere under it.

    A phrase of an answer or a solution leaks when it is in the edition's files but in none of what students are
    meant to read (the notebooks outside their solutions, the quiz questions, the book's other pages)."""
    out = student_edition
    assert sorted(p.name for p in out.iterdir()) == ["html", "notebooks"]
    assert sorted(p.name for p in (out / "notebooks").iterdir()) == [p.name for p in NOTEBOOKS]
    files = [p for p in out.rglob("*") if p.is_file()]
    assert not [p for p in files if "teachers" in p.name or p.suffix == ".doctree"], "teacher's guide in the edition"
    # every page and source of the edition but the API reference (written from apples' docstrings) and the theme
    corpus = "\n".join(
        _plain(p.read_text(encoding="utf-8", errors="ignore"))
        for p in files
        if p.suffix in {".html", ".js", ".txt", ".md", ".ipynb", ".json"}
        and not {"api", "_static"} & set(p.relative_to(out).parts)
    )
    books = [nbformat.read(p, as_version=4) for p in NOTEBOOKS]
    hidden = [c for b in books for c in b.cells if {"solution", "instructor"} & set(c.metadata.get("tags", []))]
    items = [
        q
        for quiz in sorted((ROOT / "book" / "quizzes").glob("*.md"))
        for q in apples_guide.parse_quiz(quiz.read_text(encoding="utf-8"))
    ]
    pages = [
        p
        for p in (ROOT / "book").rglob("*.md")
        if p.name not in {"teachers.md", "quiz.md"} and "quizzes" not in p.parts
    ]
    meant = "\n".join(
        [_plain(c.source) for b in books for c in b.cells if c not in hidden]
        + [_plain(q.question) for q in items]
        + [_plain(p.read_text(encoding="utf-8")) for p in pages]  # the project brief, the bibliography, ...
    )
    quiz_page = _plain((out / "html" / "guide" / "quiz.html").read_text(encoding="utf-8"))
    checked = 0
    for q in items:
        secret = [f for f in _fragments(q.answer) if f not in meant]
        checked += len(secret)
        leaked = [f for f in secret if f in corpus]
        assert not leaked, f"question {q.number} ({q.kind}): its answer is in the student edition: {leaked}"
    assert checked > 100, "too few answer phrases to look for: the test would see no leak"
    shown = sum(f in quiz_page for q in items for f in _fragments(q.question))
    assert shown > 50 and "Apply it" in quiz_page  # the questions are there: the search sees rendered text
    solutions = [f for c in hidden if c.cell_type == "markdown" for f in _fragments(c.source) if f not in meant]
    assert len(solutions) > 50
    leaked = [f for f in solutions if f in corpus]
    assert not leaked, f"worked solutions in the student edition: {leaked[:3]}"


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
