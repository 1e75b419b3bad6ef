"""Sphinx configuration of the apples book (``make book``).

The book renders the notebooks that ``make book`` has just executed under
``build/notebooks``: myst-nb reads their stored outputs and never executes them a
second time. The theme gives a sidebar in reading order, previous/next links and
full-text search; sphinx-mathjax-offline ships MathJax with the build, so the
formulas render without a network connection.

The API reference (``api/``) is generated from the docstrings. ``api/index.md`` is
written by hand; when the build starts (``config-inited``, before Sphinx looks for
source files) :func:`write_api_pages` writes one page per public package from that
package's ``__all__``, so a new public name cannot be missing from the reference,
and autosummary then writes one page per name under ``api/generated/``. The rule
for a name public in two packages is :func:`api_pages`'s. No intersphinx: its
inventories come from the network, and the book is built offline.
"""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.util
import re
import sys
import types
from pathlib import Path
from typing import Any, NamedTuple

project = "apples"
author = "the apples authors"
copyright = "the apples authors"  # Sphinx's name for it

extensions = [
    "myst_nb",
    "sphinx-mathjax-offline",  # the package's own (hyphenated) module name
    "sphinx.ext.autodoc",  # the API reference: signatures and docstrings of apples' public names
    "sphinx.ext.autosummary",  # one table per package and one page per name (api/generated/)
    "numpydoc",  # apples' docstrings are numpydoc (Parameters, Returns, References, Examples)
]
# quizzes: the quiz sources (with answers) that tools/guide_tables.py writes into guide/quiz.md
exclude_patterns = ["_build", "**.ipynb_checkpoints", "quizzes", "_ext"]
templates_path = ["api/_templates"]  # autosummary's page of a class (Sphinx excludes it from the sources)

nb_execution_mode = "off"  # render the outputs make book stored; never execute again
nb_merge_streams = True
# no widget JavaScript from a CDN: the book is read offline, and an explorer needs a running kernel anyway
nb_ipywidgets_js: dict = {}
# an explorer's stored output carries a PNG snapshot beside the widget: the book shows the snapshot
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]
myst_enable_extensions = ["dollarmath", "amsmath"]
myst_heading_anchors = 3
suppress_warnings = ["myst.header", "mystnb.unknown_mime_type"]

autosummary_generate = True  # write api/generated/<name>.rst for every name in a table with :toctree:
autodoc_preserve_defaults = True  # show a default as the source writes it (``undefined="zero"``, not a repr)
autodoc_typehints = "none"  # the numpydoc Parameters and Returns sections give each type in words
numpydoc_show_class_members = False  # a class's page documents its members once (api/_templates), no second table
numpydoc_class_members_toctree = False

html_theme = "sphinx_book_theme"
html_title = "apples: measuring classifiers under cross-validation"
html_theme_options = {
    "show_navbar_depth": 1,
    # the sidebar of a page expands only the branch it is on: the API reference's ~200 pages, expanded on every
    # page, would make each page carry them all and the build three times slower
    "collapse_navbar": True,
    "home_page_in_toc": True,
    "use_download_button": True,
}
html_last_updated_fmt = None


# -- API reference: one page per public package, generated from __all__ -------------------------------------------

#: The public packages; ``apples`` lists its re-exports in this order (the sidebar sorts the pages by name).
PACKAGES = (
    "apples",
    "apples.metrics",
    "apples.cv",
    "apples.theory",
    "apples.intervals",
    "apples.comparison",
    "apples.measures",
    "apples.reporting",
    "apples.plotting",
    "apples.studies.forman_scholz",
    "apples.studies.van_asch",
    "apples.studies.parker",
)
API_DIR = "api"  # under the book's source directory: index.md (committed), <package>.rst and generated/ (written)


class PackageAPI(NamedTuple):
    """What a public package exports: its docstring and the names of its ``__all__`` that are not submodules."""

    name: str
    doc: str
    names: tuple[str, ...]
    import_error: str | None = None  # why the package did not import (its __all__ was then read from its source)
    missing: tuple[str, ...] = ()  # names of __all__ that cannot be imported (all of them after an import error)


def _source(module: str) -> Path | None:
    """The file of an apples module from its dotted name, found without importing it (None outside apples)."""
    if module.split(".")[0] != "apples":
        return None
    spec = importlib.util.find_spec("apples")
    path = Path(spec.origin).parent.joinpath(*module.split(".")[1:])
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


@functools.cache
def _imports(module: str) -> dict[str, str]:
    """``{name: module}`` for each ``from module import name`` at the top of an apples module, relative ones resolved.

    Empty for a module outside apples or without a source file.
    """
    path = _source(module)
    if path is None or not path.is_file():
        return {}
    here = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found = {}
    top = ast.parse(path.read_text(encoding="utf-8")).body
    # a lazy package (PEP 562) imports its names under `if TYPE_CHECKING:`, for type checkers and readers
    lazy = [n for i in top if isinstance(i, ast.If) and ast.unparse(i.test) == "TYPE_CHECKING" for n in i.body]
    for node in top + lazy:
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(here[: len(here) - node.level + 1] + ([base] if base else []))
            found.update({alias.asname or alias.name: base for alias in node.names})
    return found


def _literal_all(path: Path, tree: ast.Module) -> list[str]:
    for node in tree.body:
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            try:
                return list(ast.literal_eval(node.value))
            except ValueError as error:
                raise ValueError(f"{path}: __all__ is not a literal list of names, so it cannot be read") from error
    raise ValueError(f"{path} has no __all__: a public package says what it exports")


def read_source(package: str) -> PackageAPI:
    """The public names of ``package`` read from its source, without importing it.

    ``__all__`` must be a literal. A name it lists is a submodule when the package binds it by
    ``from <parent> import <name>``, ``<parent>/<name>.py`` or ``<parent>/<name>/`` exists, and
    ``<parent>/__init__.py`` does not import ``name`` from another module (``from apples.metrics import
    f_measure`` is the function, which ``apples/metrics/__init__.py`` imports over its module ``f_measure``).
    """
    path = _source(package)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = _imports(package)

    def submodule(name: str) -> bool:
        parent = _source(imported[name]) if name in imported else None
        if parent is None or parent.name != "__init__.py" or not _source(f"{imported[name]}.{name}").exists():
            return False
        bound = _imports(imported[name]).get(name)
        return bound in (None, imported[name])  # `from apples import cv` in apples/__init__.py: the module

    names = tuple(n for n in _literal_all(path, tree) if not submodule(n))
    return PackageAPI(package, ast.get_docstring(tree) or "", names)


def read_package(package: str) -> PackageAPI:
    """The public names of ``package``: its ``__all__`` without the submodules it lists.

    The package is imported, so ``__all__`` is what Python sees. If the import fails (a package
    half-way through a refactor), they are read from its source (:func:`read_source`) and the error
    is kept: its page then warns and names what it cannot document.
    """
    try:
        module = importlib.import_module(package)
    except Exception as error:  # any error on import: the reference still lists what __all__ says
        api = read_source(package)
        return api._replace(import_error=f"{type(error).__name__}: {error}", missing=api.names)
    names = tuple(n for n in module.__all__ if not isinstance(getattr(module, n, None), types.ModuleType))
    missing = tuple(n for n in names if not hasattr(module, n))
    return PackageAPI(package, module.__doc__ or "", names, missing=missing)


class ApiPage(NamedTuple):
    """One package's page: the names documented on it, and the re-exports it links to (name -> home package)."""

    package: PackageAPI
    documented: tuple[str, ...]
    linked: dict[str, str]


def api_pages(packages: tuple[str, ...] = PACKAGES) -> dict[str, ApiPage]:
    """The pages of the API reference, one per package: each public name is documented on exactly one.

    The rule: a name is documented on the page of the deepest package whose ``__all__`` lists it
    (``apples.f_measure`` is documented as ``apples.metrics.f_measure``); every other package that lists
    it links there. Between two packages of the same depth, the one earlier in ``packages`` wins.
    """
    read = {p: read_package(p) for p in packages}
    listed_in: dict[str, list[str]] = {}
    for p, api in read.items():
        for n in api.names:
            listed_in.setdefault(n, []).append(p)
    home = {n: max(ps, key=lambda p: (p.count("."), -packages.index(p))) for n, ps in listed_in.items()}
    return {
        p: ApiPage(
            api,
            documented=tuple(n for n in api.names if home[n] == p),
            linked={n: home[n] for n in api.names if home[n] != p},
        )
        for p, api in read.items()
    }


def _table(names: list[str], *, toctree: bool) -> list[str]:
    options = ["   :toctree: generated"] if toctree else []  # the page of each name, under api/generated/
    return [".. autosummary::", *options, "   :nosignatures:", "", *(f"   {n}" for n in names), ""]


def _heading(title: str, underline: str) -> list[str]:
    return [title, underline * len(title), ""]


def _warning(text: str) -> list[str]:
    return [".. warning::", "", f"   {text}", ""]


def render_page(page: ApiPage, missing: dict[str, tuple[str, ...]]) -> str:
    """The reStructuredText of one package's page (reST, so the docstring's roles render as they are written).

    ``missing`` maps each package to the names of its ``__all__`` that cannot be imported: a warning names
    them instead of a table (autosummary cannot document them, and Sphinx 9.0 stops with an exception on
    a ``:toctree:`` entry whose package does not import). Names in a table are relative to the page's module.
    """
    name = page.package.name
    lines = [*_heading(name, "="), f".. module:: {name}", ""]
    if page.package.import_error:
        lines += _warning(f"``{name}`` did not import when this book was built: {page.package.import_error}")
    lines += [page.package.doc.strip(), ""]
    here = [n for n in page.documented if n not in missing[name]]
    lost = [n for n in page.documented if n in missing[name]] + [n for n, h in page.linked.items() if n in missing[h]]
    if here:
        lines += [*(_heading("Documented here", "-") if page.linked else []), *_table(here, toctree=True)]
    if lost:
        listed = ", ".join(f"``{n}``" for n in lost)
        lines += _warning(f"In ``__all__`` but not importable when this book was built, so not documented: {listed}.")
    homes = sorted({h for n, h in page.linked.items() if n not in missing[h]}, key=PACKAGES.index)
    for h in homes:
        entries = [
            f"~{h.removeprefix(name + '.')}.{n}" for n, at in page.linked.items() if at == h and n not in missing[h]
        ]
        lines += [*_heading(f"Re-exported from {h}", "-"), *_table(entries, toctree=False)]
    return "\n".join(lines)


def write_api_pages(app: Any, config: Any) -> None:
    """``config-inited``: write ``api/<package>.rst`` for every public package, if the book has ``api/index.md``.

    Runs before Sphinx looks for source files, so the pages are read and autosummary writes the page of
    each name in their tables. A file is rewritten only when its text changes.
    """
    from sphinx.util import logging

    logger = logging.getLogger(__name__)
    api = Path(app.srcdir) / API_DIR
    if not (api / "index.md").is_file():  # a book built without the API reference
        return
    pages = api_pages()
    missing = {p: page.package.missing for p, page in pages.items()}
    for package, page in pages.items():
        if page.package.import_error:
            logger.warning("API reference: %s did not import (%s)", package, page.package.import_error, type="apples")
        elif page.package.missing:
            logger.warning("API reference: %s.__all__ lists names it does not have: %s", package, page.package.missing)
        path = api / f"{package}.rst"
        text = render_page(page, missing)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


def _defining_module(module: str, name: str) -> str:
    """The apples module that assigns ``name``, following ``from x import name`` from ``module`` (read, not run)."""
    seen = set()
    while module not in seen and name in _imports(module):
        seen.add(module)
        module = _imports(module)[name]
    return module


def document_constant(app: Any, what: str, name: str, obj: object, options: Any, lines: list[str]) -> None:
    """``autodoc-process-docstring``: a re-exported constant gets the ``#:`` comment of the module that assigns it.

    autodoc reads ``#:`` comments in the module it documents (the package's ``__init__.py``), where a
    re-exported constant has none, and falls back to the docstring of the value's type ("Built-in
    immutable sequence" for a tuple). A constant without a ``#:`` comment shows its value only.
    """
    if what != "data":
        return
    from sphinx.pycode import ModuleAnalyzer

    module, _, attr = name.rpartition(".")
    try:
        comment = ModuleAnalyzer.for_module(_defining_module(module, attr)).find_attr_docs().get(("", attr))
    except Exception:  # no source to read, or it does not parse: keep what autodoc found
        return
    if comment:
        lines[:] = list(comment)
    elif getattr(obj, "__doc__", None) == getattr(type(obj), "__doc__", None):
        lines[:] = []


def skip_field_alias(app: Any, what: str, name: str, obj: object, skip: bool, options: Any) -> bool | None:
    """``autodoc-skip-member``: leave out a named tuple's field that has only Python's "Alias for field number N".

    A field with a ``#:`` comment in its class is documented with it; a field without one is described
    by the class docstring's Attributes section (numpydoc), so a second entry would say nothing.
    """
    if what != "class" or not re.fullmatch(r"Alias for field number \d+", getattr(obj, "__doc__", None) or ""):
        return None
    from sphinx.pycode import ModuleAnalyzer

    for module in list(sys.modules.values()):
        if not getattr(module, "__name__", "").startswith("apples"):
            continue
        for cls in vars(module).values():
            if isinstance(cls, type) and issubclass(cls, tuple) and vars(cls).get(name) is obj:
                docs = ModuleAnalyzer.for_module(cls.__module__).find_attr_docs()
                return (cls.__qualname__, name) not in docs
    return None


# -- the teacher's guide and the student edition ------------------------------------------------------------------


def _guide() -> Any:
    ext = str(Path(__file__).resolve().parent / "_ext")
    if ext not in sys.path:
        sys.path.insert(0, ext)
    import apples_guide

    return apples_guide


def write_guide(app: Any, config: Any) -> None:
    """``config-inited``: the student edition (``-t student``, tools/student_edition.py) leaves out the teacher's
    guide, and refuses a quiz page that still shows answers.

    The guide's tables are committed in its Markdown (``python tools/guide_tables.py`` writes them), so the
    instructor's book renders them as they are. The student edition builds from a temporary copy of the book
    whose quiz page tools/student_edition.py has written without answers; building the student edition from
    the instructor's sources would hand out the answers, so it stops instead.
    """
    if not app.tags.has("student"):
        return
    config.exclude_patterns.append("guide/teachers.md")
    quiz = Path(app.srcdir) / "guide" / "quiz.md"
    if quiz.is_file() and _guide().has_answers(quiz.read_text(encoding="utf-8")):
        from sphinx.errors import ConfigError

        raise ConfigError(f"{quiz} shows the quiz answers: build the student edition with `make student`")


def guide_links(app: Any, docname: str, source: list[str]) -> None:
    """``source-read``: the guide links to the notebooks as the repository lays them out (``../../notebooks/``,
    for its web view); in the book they are copied under the book's ``notebooks/``."""
    if docname.startswith("guide/"):
        source[0] = source[0].replace("](" + _guide().NOTEBOOK_LINK, "](../notebooks/")


def setup(app: Any) -> None:
    from sphinx.ext import autosummary

    # A table's summary is the docstring's first sentence, which autosummary ends at the first ". " that is
    # not a known abbreviation; apples' summaries cite "Parker eq. (7)" and "Fig. 2" (read at each call).
    autosummary.WELL_KNOWN_ABBREVIATIONS = (*autosummary.WELL_KNOWN_ABBREVIATIONS, "eq.", "Fig.")
    app.connect("config-inited", write_api_pages)
    app.connect("config-inited", write_guide)
    app.connect("source-read", guide_links)
    app.connect("autodoc-process-docstring", document_constant)
    app.connect("autodoc-skip-member", skip_field_alias)
