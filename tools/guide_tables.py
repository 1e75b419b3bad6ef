"""Write the teacher's guide's generated tables into its Markdown, so it reads on the repository's web view too.

The guide's pages (book/guide/teachers.md, book/guide/quiz.md) hold their tables between
``<!-- generated: NAME -->`` and ``<!-- end generated: NAME -->``: class time (the formula's estimate and the
reader's clock), slow cells, exercises (time and answer cells), learning outcomes, and the quiz with its answers.
This tool rewrites them from the stored notebooks and book/quizzes/ (book/_ext/apples_guide.py makes each part);
tests/test_notebooks.py regenerates them and fails when the committed text differs. Run it after executing a
notebook, changing its headings, exercises, outcomes or reader minutes, or editing a quiz.

Usage: python tools/guide_tables.py [--check]   (--check: write nothing, list the pages that are out of date)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from book._ext import apples_guide  # noqa: E402

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
QUIZZES = ROOT / "book" / "quizzes"
PAGES = [ROOT / "book" / "guide" / "teachers.md", ROOT / "book" / "guide" / "quiz.md"]


def regenerate(pages: list[Path] = PAGES, notebooks: list[Path] = NOTEBOOKS) -> dict[Path, str]:
    """The text each page should hold (the instructor's: with the quiz answers)."""
    parts = apples_guide.guide_parts(notebooks, QUIZZES, answers=True)
    return {page: apples_guide.fill(page.read_text(encoding="utf-8"), parts) for page in pages}


def out_of_date(pages: list[Path] = PAGES) -> list[Path]:
    """The pages whose committed tables differ from what the notebooks and quizzes give now."""
    return [page for page, text in regenerate(pages).items() if page.read_text(encoding="utf-8") != text]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a page is out of date")
    args = parser.parse_args(argv)
    stale = []
    for page, text in regenerate().items():
        if page.read_text(encoding="utf-8") != text:
            stale.append(page)
            if not args.check:
                page.write_text(text, encoding="utf-8")
    for page in stale:
        print(f"{page.relative_to(ROOT)}: {'out of date' if args.check else 'rewritten'}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
