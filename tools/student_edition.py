"""Build the student edition (``make student``): the student notebooks and the student book, and nothing else.

Everything is built in a temporary folder: the notebooks without their solutions (tools/strip_solutions.py), a
copy of the book's sources without the teacher's guide, the quiz sources or their answers (the quiz page is
written without answers, book/_ext/apples_guide.py), and the HTML Sphinx renders from them (``-t student``; the
stored outputs, nothing executed). Only what students get is then copied into the output folder:

    OUTPUT_DIR/notebooks/   the student notebooks
    OUTPUT_DIR/html/        the student book (open html/index.html)

so a teacher can hand out the whole folder. The output folder is replaced.

Usage: python tools/student_edition.py OUTPUT_DIR NOTEBOOK [NOTEBOOK ...]
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from book._ext import apples_guide  # noqa: E402
from tools import strip_solutions  # noqa: E402

BOOK = ROOT / "book"
#: Sources of the instructor's book that never enter the student edition's build.
TEACHERS_ONLY = ("quizzes", "teachers.md")


def student_sources(notebooks: list[Path], work: Path) -> Path:
    """Write the student edition's sources under ``work``; return the book's source folder."""
    stripped = work / "notebooks"
    stripped.mkdir(parents=True)
    for path in notebooks:
        strip_solutions.strip(path, stripped)
    src = work / "book"
    shutil.copytree(BOOK, src, ignore=shutil.ignore_patterns(*TEACHERS_ONLY, "generated", "apples*.rst", "__pycache__"))
    shutil.copytree(stripped, src / "notebooks")
    parts = apples_guide.guide_parts(sorted(stripped.glob("*.ipynb")), BOOK / "quizzes", answers=False)
    quiz = src / "guide" / "quiz.md"
    quiz.write_text(apples_guide.fill(quiz.read_text(encoding="utf-8"), parts), encoding="utf-8")
    return src


def build(out: Path, notebooks: list[Path]) -> None:
    """Build the student edition in a temporary folder and copy the notebooks and the HTML into ``out``."""
    with tempfile.TemporaryDirectory(prefix="apples-student-") as tmp:
        work = Path(tmp)
        src = student_sources(notebooks, work)
        subprocess.run(
            [sys.executable, "-m", "sphinx", "-q", "-t", "student", "-b", "html", str(src), str(work / "html")],
            check=True,
        )
        if out.exists():
            shutil.rmtree(out)
        out.mkdir(parents=True)
        shutil.copytree(work / "notebooks", out / "notebooks")
        shutil.copytree(work / "html", out / "html", ignore=shutil.ignore_patterns(".doctrees", ".buildinfo"))


def main(argv: list[str]) -> None:
    if len(argv) < 2:
        raise SystemExit(__doc__)
    out, notebooks = Path(argv[0]), [Path(p) for p in argv[1:]]
    build(out, notebooks)
    print(f"Student notebooks: {out / 'notebooks'}/   Student book: {out / 'html' / 'index.html'}")


if __name__ == "__main__":
    main(sys.argv[1:])
