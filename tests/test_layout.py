"""The shape of the package: a small researcher's API, explicit re-exports, dependencies one way.

See CONTRIBUTING.md ("Layout") for the layout these tests hold in place.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import apples

PACKAGE = Path(apples.__file__).resolve().parent
SUBPACKAGES = (
    "apples.metrics",
    "apples.cv",
    "apples.theory",
    "apples.intervals",
    "apples.studies.forman_scholz",
    "apples.studies.van_asch",
    "apples.studies.parker",
)
#: Which subpackages a subpackage may import (apples._params, _optional and plotting are open to all).
ALLOWED = {
    "metrics": {"metrics"},
    "cv": {"cv", "metrics"},
    "theory": {"theory", "cv", "metrics"},
    "intervals": {"intervals", "metrics", "cv", "theory"},
    "studies": {"studies", "intervals", "theory", "cv", "metrics"},
}


def _modules():
    return sorted(PACKAGE.rglob("*.py"))


def test_import_apples_gives_at_most_60_names_all_listed():
    # apples.studies is not imported by apples; once a study is imported, Python sets the attribute
    public = sorted(n for n in dir(apples) if not n.startswith("_") and n != "studies")
    assert len(public) <= 60, f"import apples exposes {len(public)} names: {public}"
    # every public attribute is deliberate: listed in __all__ (subpackages imported as a side effect would not be)
    assert set(public) == set(apples.__all__) - {"__version__"}


def test_no_star_import_anywhere_in_the_package():
    found = [
        f"{path.relative_to(PACKAGE)}:{node.lineno}"
        for path in _modules()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names)
    ]
    assert not found, f"star imports: {found}"


@pytest.mark.parametrize("name", SUBPACKAGES)
def test_subpackage_reexports_exactly_its_modules_all(name):
    package = importlib.import_module(name)
    directory = PACKAGE.joinpath(*name.split(".")[1:])
    expected: set[str] = set()
    for path in sorted(directory.glob("*.py")):
        if path.name == "__init__.py":
            continue
        module = importlib.import_module(f"{name}.{path.stem}")
        names = getattr(module, "__all__", [])
        expected |= set(names)
        for n in names:
            assert getattr(package, n) is getattr(module, n), f"{name}.{n} is not {module.__name__}.{n}"
    assert set(package.__all__) == expected, "run `python tools/gen_inits.py` to regenerate the __init__"


def test_a_public_name_has_one_meaning_across_packages():
    seen: dict[str, object] = {}
    for name in ("apples", "apples.plotting", *SUBPACKAGES):
        module = importlib.import_module(name)
        for n in module.__all__:
            obj = getattr(module, n)
            if type(obj).__name__ == "module":
                continue
            assert seen.setdefault(n, obj) is obj, f"{n} means two things ({name})"


def test_dependencies_point_one_way():
    wrong = []
    for path in _modules():
        parts = path.relative_to(PACKAGE).parts
        if len(parts) < 2:
            continue
        allowed = ALLOWED[parts[0]]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("apples."):
                target = node.module.split(".")[1]
                if target in ALLOWED and target not in allowed:
                    wrong.append(f"{'/'.join(parts)}:{node.lineno} imports {node.module}")
    assert not wrong, f"imports against the direction studies -> theory -> cv -> metrics: {wrong}"


def test_import_apples_leaves_the_studies_and_optional_packages_unloaded():
    code = (
        "import sys, apples; "
        "print(sorted(m for m in sys.modules if m.startswith(('apples.studies', 'matplotlib', 'sklearn', 'ipywidgets'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_contributing_describes_every_module():
    text = (PACKAGE.parent / "CONTRIBUTING.md").read_text(encoding="utf-8")
    missing = [
        str(p.relative_to(PACKAGE))
        for p in _modules()
        if p.name != "__init__.py" and p.stem not in text
    ]
    assert not missing, f"modules CONTRIBUTING.md's layout does not mention: {missing}"


def _public_callables():
    for name in ("apples", "apples.plotting", *SUBPACKAGES):
        module = importlib.import_module(name)
        for n in module.__all__:
            obj = getattr(module, n)
            if callable(obj) and not isinstance(obj, type):
                yield n, obj


def test_every_plot_function_takes_ax_as_a_keyword_defaulting_to_none():
    import inspect

    wrong = []
    for name, fn in _public_callables():
        if not name.startswith("plot_"):
            continue
        param = inspect.signature(fn).parameters.get("ax")
        if param is None or param.kind is not inspect.Parameter.KEYWORD_ONLY or param.default is not None:
            wrong.append(name)
    assert not wrong, f"plot functions without a keyword-only ax=None: {wrong}"


def test_every_explorer_builder_returns_a_namedtuple_with_a_widget():
    import inspect
    import typing

    builders = [(n, fn) for n, fn in _public_callables() if n.endswith("_explorer")]
    assert len(builders) >= 3
    for name, fn in builders:
        returned = typing.get_type_hints(fn)["return"]
        assert returned.__name__ == name.removesuffix("_explorer").title().replace("_", "") + "Explorer", name
        assert issubclass(returned, tuple) and returned._fields[0] == "widget", name
        assert all(p.kind is not inspect.Parameter.POSITIONAL_ONLY for p in inspect.signature(fn).parameters.values())


def test_pyproject_ships_every_subpackage():
    import tomllib

    meta = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    find = meta["tool"]["setuptools"]["packages"]["find"]
    # `packages = ["apples"]` would install apples/__init__.py without apples.metrics and the rest
    assert "apples.*" in find["include"] and "apples" in find["include"]
