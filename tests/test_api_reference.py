"""The book's API reference documents every public name exactly once (book/conf.py's generator; no Sphinx build).

``make book`` writes one page per public package from its ``__all__`` (``api_pages`` and ``render_page``
in book/conf.py). These tests call the same functions: a public name missing from the reference, or
documented twice, fails here before anyone builds the book.
"""

import importlib
import importlib.util
import pkgutil
import re
import types
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load_conf() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("apples_book_conf", ROOT / "book" / "conf.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


conf = _load_conf()
PAGES = conf.api_pages()


def _import(package):
    try:
        return importlib.import_module(package)
    except Exception:  # a package half-way through a refactor: its own tests say why
        return None


def public_names(package: str) -> list[str]:
    """``__all__`` without submodules, as Python sees it (as the source writes it if the package does not import)."""
    module = _import(package)
    if module is None:
        return list(conf.read_source(package).names)
    return [n for n in module.__all__ if not isinstance(getattr(module, n, None), types.ModuleType)]


def table_entries(text: str) -> dict[str, list[str]]:
    """The names in the autosummary tables of a rendered page: {"toctree": [...], "links": [...]}."""
    out: dict[str, list[str]] = {"toctree": [], "links": []}
    for block in re.findall(r"^\.\. autosummary::\n((?:   .*\n|\n)+)", text + "\n", re.M):
        kind = "toctree" if ":toctree:" in block else "links"
        out[kind] += [line.strip() for line in block.splitlines() if line.strip() and not line.strip().startswith(":")]
    return out


def test_every_public_package_has_a_page():
    apples = importlib.import_module("apples")
    subpackages = {f"apples.{n}" for n in apples.__all__ if isinstance(getattr(apples, n), types.ModuleType)}
    studies = {
        f"apples.studies.{m.name}" for m in pkgutil.iter_modules(importlib.import_module("apples.studies").__path__)
    }
    public = {"apples"} | subpackages | {s for s in studies if not s.rsplit(".", 1)[1].startswith("_")}
    assert public <= set(conf.PACKAGES), f"public packages without an API page: {sorted(public - set(conf.PACKAGES))}"
    assert set(PAGES) == set(conf.PACKAGES)


@pytest.mark.parametrize("package", conf.PACKAGES)
def test_page_covers_its_packages_all(package):
    page = PAGES[package]
    on_page = list(page.documented) + list(page.linked)
    assert sorted(on_page) == sorted(public_names(package)), f"{package}: the page and __all__ differ"
    assert len(on_page) == len(set(on_page)), f"{package}: a name appears twice on its page"


def test_each_name_is_documented_on_exactly_one_page_and_linked_from_the_others():
    documented = Counter(n for page in PAGES.values() for n in page.documented)
    assert [n for n, k in documented.items() if k > 1] == [], "documented on two pages"
    for package, page in PAGES.items():
        for name, home in page.linked.items():
            assert name in PAGES[home].documented, f"{package}.{name} links to {home}, which does not document it"
            here, there = _import(package), _import(home)
            if here is not None and there is not None:
                assert getattr(here, name) is getattr(there, name), f"{package}.{name} is not {home}.{name}"


def test_the_deepest_package_that_exports_a_name_documents_it():
    assert "f_measure" in PAGES["apples.metrics"].documented
    assert PAGES["apples"].linked["f_measure"] == "apples.metrics"
    assert PAGES["apples"].linked["report"] == "apples.reporting"
    assert "UndefinedMetricError" in PAGES["apples"].documented  # no subpackage exports it


@pytest.mark.parametrize("package", conf.PACKAGES)
def test_rendered_page_puts_every_name_in_a_table_or_its_warning(package):
    page = PAGES[package]
    missing = {p: pg.package.missing for p, pg in PAGES.items()}
    text = conf.render_page(page, missing)
    tables = table_entries(text)
    # autosummary reads an entry relative to the page's module, then as written
    linked = {e.lstrip("~") for e in tables["links"]} | {f"{package}.{e.lstrip('~')}" for e in tables["links"]}
    warned = " ".join(line for line in text.splitlines() if "not importable" in line)
    for name in page.documented:
        if name in missing[package]:
            assert f"``{name}``" in warned, f"{package}.{name}: not importable, and the page does not say so"
        else:
            assert name in tables["toctree"], f"{package}.{name} is missing from its page's table"
    for name, home in page.linked.items():
        if name in missing[home]:
            assert f"``{name}``" in warned, f"{package}.{name}: not importable, and the page does not say so"
        else:
            assert f"{home}.{name}" in linked, f"{package}.{name}: no link to {home}.{name}"


@pytest.mark.parametrize("package", conf.PACKAGES)
def test_reading_all_from_the_source_agrees_with_python(package):
    """The fallback for a package that does not import reads the same names as the import does."""
    if _import(package) is None:
        pytest.skip(f"{package} does not import; its page lists __all__ as read from the source")
    assert conf.read_source(package).names == conf.read_package(package).names


# -- every notebook's notation table links its apples names to their pages ------------------------------------
_ALIASES = {"fs": "apples.studies.forman_scholz", "va": "apples.studies.van_asch", "pk": "apples.studies.parker"}
_TARGETS = {f"{p}.{n}" for p, page in PAGES.items() for n in page.documented}
_BARE = Counter(n for page in PAGES.values() for n in page.documented)
_LINK = re.compile(r"\[`([^`]+)`\]\(#([\w.]+)\)")
_SPAN = re.compile(r"`([A-Za-z_][\w.]*)((?:\([^`]*)?)`")


def _target(name: str) -> str | None:
    """The documented page a notation table's name points to, or None if it is not a public name."""
    head, _, rest = name.partition(".")
    full = f"{_ALIASES[head]}.{rest}" if head in _ALIASES and rest else name
    if "." not in full:
        return next((t for t in _TARGETS if t.rsplit(".", 1)[1] == full), None) if _BARE[full] == 1 else None
    module, _, attr = full.rpartition(".")
    if module not in PAGES:
        return None
    homes = [t for t in _TARGETS if t.rsplit(".", 1)[1] == attr]
    return next((t for t in homes if t == full), homes[0] if len(homes) == 1 else None)


@pytest.mark.parametrize("path", sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")), ids=lambda p: p.name)
def test_notation_tables_link_every_name_to_its_page(path):
    """A name in a notebook's notation table is a link to its page of the reference, and every link resolves."""
    import nbformat

    cells = [c.source for c in nbformat.read(path, as_version=4).cells[:8] if c.cell_type == "markdown"]
    rows = [line for text in cells for line in text.splitlines() if line.startswith("|") and "---" not in line]
    links = [(text, target) for row in rows for text, target in _LINK.findall(row)]
    assert links, f"{path.name}: its notation table links no name to the API reference"
    broken = [(text, target) for text, target in links if target not in _TARGETS]
    assert not broken, f"{path.name}: links to no page of the reference: {broken}"
    unlinked = [span for row in rows for span, _ in _SPAN.findall(_LINK.sub("", row)) if _target(span) is not None]
    assert not unlinked, f"{path.name}: names not linked to their page: {unlinked}"
