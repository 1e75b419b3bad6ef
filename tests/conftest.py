"""Shared test settings: hypothesis is derandomised so CI runs are reproducible; the HTML book is built once."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "apples",
    derandomize=True,
    deadline=None,
    max_examples=100,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("apples")

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def book_html(tmp_path_factory):
    """The Sphinx book of `make book`, built once per session from the stored outputs (make book executes first).

    Returns the directory holding index.html; tests/test_notebooks.py checks its files and
    tests/test_browser_e2e.py opens it in a browser. A failed build fails both, once.
    """
    base = tmp_path_factory.mktemp("book")
    src = base / "src"
    shutil.copytree(
        ROOT / "book", src, ignore=shutil.ignore_patterns("generated", "apples*.rst")
    )  # as make book copies it
    (src / "notebooks").mkdir(parents=True)
    for p in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        shutil.copy(p, src / "notebooks")
    build = subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-b", "html", str(src), str(base / "html")],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert build.returncode == 0, build.stderr[-2000:]
    return base / "html"
