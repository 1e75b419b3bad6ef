"""Every public docstring's Examples run when pasted into a fresh Python session (issue 21, item 13).

pytest runs doctests with the globals of the module that defines them, so an example may use ``np`` or
``precision`` without importing them and still pass there, yet fail for a reader who copies it from
``help(apples.precision)``. This test runs the examples of every public function, class and public method
in a fresh namespace (``{"__name__": "__main__"}``), with the option flags pytest uses (pyproject.toml sets
no ``doctest_optionflags``, so pytest's default: ELLIPSIS), and lists every docstring that fails there.

Public means: a name in the ``__all__`` of a public package (apples.metrics, apples.cv, apples.intervals,
apples.comparison, apples.reporting, apples.plotting, apples.theory, apples.studies.*) or of one of their
modules whose name does not start with ``_``, plus the methods of such a class whose names do not start
with ``_``. The private kernels (apples._kernels, apples._params) are not public and are not checked.
"""

import doctest
import importlib
import inspect
import io
import pkgutil
import types

import matplotlib.pyplot as plt

PACKAGES = (
    "apples.metrics",
    "apples.cv",
    "apples.intervals",
    "apples.comparison",
    "apples.reporting",
    "apples.plotting",
    "apples.theory",
    "apples.studies.forman_scholz",
    "apples.studies.parker",
    "apples.studies.van_asch",
)

#: pytest's default ``doctest_optionflags`` (pyproject.toml's [tool.pytest.ini_options] sets none).
OPTIONFLAGS = doctest.ELLIPSIS

#: Docstrings whose examples do not yet run in a fresh namespace: qualified name -> the reason.
KNOWN_MISSING: dict[str, str] = {}


def _public_modules() -> list[types.ModuleType]:
    """The public packages and their submodules whose own names do not start with ``_``."""
    modules = []
    for name in PACKAGES:
        package = importlib.import_module(name)
        modules.append(package)
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{name}."):
            if not any(part.startswith("_") for part in info.name.split(".")[1:]):
                modules.append(importlib.import_module(info.name))
    return modules


def _public_objects() -> dict[int, tuple[str, object]]:
    """id -> (qualified name, object) of every function and class in a public ``__all__``, once each."""
    found: dict[int, tuple[str, object]] = {}
    for module in _public_modules():
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if not (inspect.isfunction(obj) or inspect.isclass(obj)):
                continue  # constants and submodules: their docstrings are not checked here
            if not getattr(obj, "__module__", "").startswith("apples."):
                continue  # a name re-exported from numpy, scipy, ...
            found.setdefault(id(obj), (f"{obj.__module__}.{obj.__qualname__}", obj))
    return found


def public_doctests() -> list[doctest.DocTest]:
    """The doctests of every public docstring with examples, each with fresh globals."""
    finder = doctest.DocTestFinder(recurse=True, exclude_empty=True)
    tests: dict[str, doctest.DocTest] = {}
    for qualname, obj in _public_objects().values():
        module = inspect.getmodule(obj)
        for test in finder.find(obj, qualname, module=module, globs={"__name__": "__main__"}):
            inner = test.name[len(qualname) :].split(".")[1:]  # the attribute path below a class
            if not test.examples or any(part.startswith("_") for part in inner):
                continue  # a docstring without examples, a private method or a dunder
            tests.setdefault(test.name, test)
    return [tests[name] for name in sorted(tests)]


def _first_failure(report: str) -> str:
    """The failing example and the error it raised (or what it printed), on two lines."""
    lines = [line.strip() for line in report.splitlines() if line.strip() and not line.startswith("*****")]
    source = lines[lines.index("Failed example:") + 1] if "Failed example:" in lines else "?"
    return f">>> {source}\n      -> {lines[-1]}"


def run_fresh(test: doctest.DocTest) -> str | None:
    """None when the examples pass in a fresh namespace, else the runner's report of the first failure."""
    out = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=OPTIONFLAGS | doctest.REPORT_ONLY_FIRST_FAILURE, verbose=False)
    try:
        result = runner.run(test, out=out.write)
    finally:
        plt.close("all")
    return _first_failure(out.getvalue()) if result.failed else None


def test_public_doctests_are_found():
    """The finder sees the examples of the package's main entry points (a broken finder fails here)."""
    names = {t.name for t in public_doctests()}
    assert "apples.metrics.precision_recall.precision" in names
    assert "apples.metrics.counts.Counts" in names
    assert len(names) > 100


def test_examples_run_in_a_fresh_namespace():
    failures = {}
    for test in public_doctests():
        report = run_fresh(test)
        if report is not None:
            failures[test.name] = report
    new = {name: report for name, report in failures.items() if name not in KNOWN_MISSING}
    fixed = sorted(set(KNOWN_MISSING) - set(failures))
    message = [f"{len(new)} public docstring(s) whose examples fail in a fresh namespace (import what they use):"]
    message += [f"  {name}\n      {report}" for name, report in sorted(new.items())]
    if fixed:
        message.append(f"now passing, remove from KNOWN_MISSING: {fixed}")
    assert not new and not fixed, "\n".join(message)
