"""The shape of the package: a small researcher's API, explicit re-exports, dependencies one way.

See CONTRIBUTING.md ("Layout") for the layout these tests hold in place.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import apples

PACKAGE = Path(apples.__file__).resolve().parent
SUBPACKAGES = (
    "apples.metrics",
    "apples.cv",
    "apples.theory",
    "apples.intervals",
    "apples.comparison",
    "apples.measures",
    "apples.plotting",
    "apples.studies.forman_scholz",
    "apples.studies.van_asch",
    "apples.studies.parker",
)
#: Which subpackages a subpackage may import (apples._params, _kernels and _optional are open to all;
#: _kernels and _params import nothing above them, see below; plotting draws CVPredictions and uses metrics' kinds,
#: studies and comparison use plotting).
ALLOWED = {
    "metrics": {"metrics"},
    "cv": {"cv", "metrics"},
    "theory": {"theory", "cv", "metrics"},
    "intervals": {"intervals", "measures", "metrics", "cv", "theory"},
    "measures": {"measures", "cv", "metrics"},
    "reporting": {"reporting", "measures", "intervals", "cv", "metrics"},
    "studies": {"studies", "intervals", "theory", "cv", "metrics", "plotting"},
    "plotting": {"plotting", "cv", "metrics"},
    "comparison": {"comparison", "measures", "intervals", "cv", "metrics", "plotting"},
    "_kernels": {"_kernels"},
    "_params": {"_params"},
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


def test_no_public_module_shares_a_public_name():
    """``import apples.metrics.f_measure`` must not give the function: a public module (no underscore on its
    path) is never named like a name its package or ``apples`` exports (subpackages excepted)."""
    public: set[str] = set()
    for name in ("apples", "apples.plotting", *SUBPACKAGES):
        module = importlib.import_module(name)
        public |= {n for n in module.__all__ if type(getattr(module, n)).__name__ != "module"}
    clashes = [
        str(p.relative_to(PACKAGE))
        for p in _modules()
        if p.name != "__init__.py"
        and not any(part.startswith("_") for part in p.relative_to(PACKAGE).parts)
        and p.stem in public
    ]
    assert not clashes, f"modules named like a public name: {clashes}"


def test_dependencies_point_one_way():
    wrong = []
    for path in _modules():
        parts = path.relative_to(PACKAGE).parts
        if len(parts) < 2:
            continue
        allowed = ALLOWED[parts[0]] | ({"_kernels", "_params"} if not parts[0].startswith("_") else set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("apples."):
                target = node.module.split(".")[1]
                if target in ALLOWED and target not in allowed:
                    wrong.append(f"{'/'.join(parts)}:{node.lineno} imports {node.module}")
    assert not wrong, f"imports against the direction studies -> theory -> cv -> metrics: {wrong}"


def test_import_apples_leaves_the_studies_and_optional_packages_unloaded():
    code = (
        "import sys, apples; "
        "prefixes = ('apples.studies', 'matplotlib', 'sklearn', 'ipywidgets'); "
        "print(sorted(m for m in sys.modules if m.startswith(prefixes)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_import_apples_is_lazy_and_each_name_loads_what_it_needs():
    """``import apples`` imports neither pandas nor scipy (nor numpy): each name is imported on first use (PEP 562);
    label_counts needs neither scipy.stats nor pandas."""
    code = (
        "import sys, apples\n"
        "heavy = ('numpy', 'pandas', 'scipy', 'apples.metrics', 'apples.cv', 'apples.intervals', 'apples.reporting')\n"
        "print(sorted(m for m in sys.modules if m.startswith(heavy)))\n"
        "apples.label_counts([[1]], [[1]])\n"
        "print(sorted(m for m in sys.modules if m in ('pandas', 'scipy.stats')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split("\n")[:2] == ["[]", "[]"]


def test_the_names_of_import_apples_are_its_type_checking_imports():
    """Type checkers read the imports under ``if TYPE_CHECKING:`` in apples/__init__.py, the interpreter resolves
    ``__all__`` on first use: both list the same names, and each resolves to the object its import names."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    block = next(node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING")
    imported = {(alias.asname or alias.name): node.module for node in block.body for alias in node.names}
    assert set(imported) == set(apples.__all__) - {"__version__"}
    for name, module in imported.items():
        source = importlib.import_module(module)
        expected = getattr(source, name) if module != "apples" else importlib.import_module(f"apples.{name}")
        assert getattr(apples, name) is expected, name
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        apples.no_such_name  # noqa: B018


def test_contributing_describes_every_module():
    text = (PACKAGE.parent / "CONTRIBUTING.md").read_text(encoding="utf-8")
    missing = [str(p.relative_to(PACKAGE)) for p in _modules() if p.name != "__init__.py" and p.stem not in text]
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


# -- the parameter layer: declared once, checked once ---------------------------------------------------------
PUBLIC_PACKAGES = ("apples", "apples.plotting", "apples.reporting", *SUBPACKAGES)


def _public_objects():
    """Every public name of the package, once: (qualified name, object)."""
    seen = {}
    for name in PUBLIC_PACKAGES:
        module = importlib.import_module(name)
        for n in module.__all__:
            obj = getattr(module, n)
            if type(obj).__name__ != "module":
                seen.setdefault(id(obj), (f"{name}.{n}", obj))
    return list(seen.values())


def _is_parameter_kind(obj) -> bool:
    from apples._params import Kind, Relation

    return isinstance(obj, (Kind, Relation))


def test_every_public_function_is_declared_or_exempt():
    import inspect

    from apples._params import declaration_of

    missing = [
        name
        for name, obj in _public_objects()
        if inspect.isfunction(obj) and declaration_of(obj) is None and not _is_parameter_kind(obj)
    ]
    assert not missing, f"public functions neither @declare'd nor @exempt: {missing}"


def test_every_public_class_taking_user_input_declares_its_constructor():
    """A class users build from their data checks it at construction, through the parameter layer."""
    from apples._params import declaration_of

    for cls in (apples.CVPredictions, apples.theory.Binormal):
        assert declaration_of(cls.__init__) is not None, cls.__name__
    assert declaration_of(apples.CVPredictions.from_frame) is not None


def _calls_of(func, cache):
    """The apples objects a function's body calls by name (``f(...)``, ``module.f(...)``), resolved in its module."""
    import inspect
    import textwrap

    key = id(func)
    if key in cache:
        return cache[key]
    cache[key] = []
    try:
        source = textwrap.dedent(inspect.getsource(func))
    except (OSError, TypeError):
        return []
    tree = ast.parse(source)
    namespace = getattr(func, "__globals__", {})
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        chain, target = [], node.func
        while isinstance(target, ast.Attribute):
            chain.append(target.attr)
            target = target.value
        if not isinstance(target, ast.Name) or target.id not in namespace:
            continue
        obj = namespace[target.id]
        for attr in reversed(chain):
            obj = getattr(obj, attr, None)
        if obj is not None and (getattr(obj, "__module__", None) or "").startswith("apples"):
            found.append(obj)
    cache[key] = found
    return found


def _declared_calls(func, cache, path=()):
    """Declared (checking) apples functions reached from ``func`` through undeclared helpers, with the path."""
    import inspect

    from apples._params import declaration_of

    out = []
    for callee in _calls_of(inspect.unwrap(func), cache):
        declared = declaration_of(callee)
        if isinstance(callee, type) or _is_parameter_kind(callee):
            continue  # constructors of apples' types, and the parameter layer itself
        if declared is not None:
            if declared.exempt is None:
                out.append((*path, callee.__qualname__))
        elif inspect.isfunction(callee) and callee.__qualname__ not in path and len(path) < 8:
            out.extend(_declared_calls(callee, cache, (*path, callee.__qualname__)))
    return out


def test_no_public_function_calls_another_public_function():
    """A public function checks its arguments once and calls kernels and private helpers, never another public
    function (whose checks would run again): followed through every undeclared helper it calls."""
    import inspect

    cache: dict = {}
    wrong = []
    for name, obj in _public_objects():
        functions = [obj] if inspect.isfunction(obj) else []
        if isinstance(obj, type) and obj.__module__.startswith("apples"):
            functions = [
                f for n, f in vars(obj).items() if (not n.startswith("_") or n == "__init__") and inspect.isfunction(f)
            ] + [f.__func__ for f in vars(obj).values() if isinstance(f, classmethod)]
        for f in functions:
            for path in _declared_calls(f, cache):
                wrong.append(f"{name}: {' -> '.join(path)}")
    assert not wrong, "public functions calling public functions:\n" + "\n".join(sorted(set(wrong)))


def test_kernels_and_the_parameter_layer_import_nothing_above_them():
    wrong = []
    for layer in ("_kernels", "_params"):
        for path in sorted((PACKAGE / layer).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("apples"):
                    if node.module.split(".")[1] != layer:
                        wrong.append(f"{layer}/{path.name}:{node.lineno} imports {node.module}")
                elif isinstance(node, ast.Import) and any(a.name.startswith("apples") for a in node.names):
                    wrong.append(f"{layer}/{path.name}:{node.lineno} imports apples")
    assert not wrong, wrong


def _report_checks(k: int, **options) -> int:
    from apples._params import count_checks

    rng = np.random.default_rng(0)
    n = 200
    y = np.tile([0, 1, 0, 0], n // 4)
    score = rng.random(n) + y
    predictions = apples.CVPredictions(y, folds=np.arange(n) % k, y_pred=(score > 0.9).astype(int), y_score=score)
    with count_checks() as made:
        apples.report(predictions, **options)
    return made()


def test_report_makes_a_bounded_number_of_checks_whatever_the_number_of_folds():
    # before the parameter layer: 517 validator calls for 200 cases in 5 folds (710 with confidence=), growing with k
    for options in ({}, {"confidence": 0.95}):
        counts = {k: _report_checks(k, **options) for k in (2, 5, 20, 50)}
        assert len(set(counts.values())) == 1, counts
        assert counts[5] <= 5, counts


def test_cv_table_makes_a_bounded_number_of_checks_whatever_the_number_of_folds():
    from apples._params import count_checks

    made_by_k = {}
    for k in (2, 10, 50):
        fold_counts = [apples.Counts(3, 1, 1, 20)] * k
        with count_checks() as made:
            apples.cv_table(fold_counts)
        made_by_k[k] = made()
    assert len(set(made_by_k.values())) == 1 and made_by_k[2] <= 3, made_by_k


def test_the_package_ships_its_type_hints():
    import tomllib

    meta = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    assert (PACKAGE / "py.typed").exists()  # PEP 561
    assert "py.typed" in meta["tool"]["setuptools"]["package-data"]["apples"]
    assert meta["tool"]["mypy"]["disallow_untyped_defs"] is True


def test_tests_mirror_the_package():
    """A unit test lives beside the package it tests (tests/metrics/ for apples/metrics/, tests/params/ for
    apples/_params/, tests/studies/<study>/ for a study); tests/ itself holds only what spans the package."""
    tests = PACKAGE.parent / "tests"
    packages = {p.relative_to(PACKAGE).as_posix().lstrip("_") for p in PACKAGE.rglob("__init__.py")} - {"__init__.py"}
    packages = {p.removesuffix("/__init__.py").lstrip("_") for p in packages}
    stray = [
        p.relative_to(tests).as_posix()
        for p in tests.rglob("test_*.py")
        if p.parent != tests and p.parent.relative_to(tests).as_posix() not in packages
    ]
    assert not stray, f"test directories that mirror no package of apples: {stray}"
    spanning = {
        "test_common.py", "test_layout.py", "test_core_install.py", "test_environment.py", "test_api_reference.py",
        "test_notebooks.py", "test_notebook_layout.py", "test_browser_e2e.py", "test_roundoff_identities.py",
        "test_doctest_imports.py", "test_readme.py",
    }  # fmt: skip
    at_root = {p.name for p in tests.glob("test_*.py")}
    assert at_root <= spanning, f"tests/ holds module tests that belong in a package's folder: {at_root - spanning}"
