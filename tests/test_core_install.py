"""The core install (``pip install .``: numpy, scipy, pandas) runs everything that does not draw, build a
widget or fit a scikit-learn model.

matplotlib, ipywidgets and scikit-learn are the ``notebooks`` extra. A subprocess (so that this process's
imports stay as they are) makes importing them fail as if they were not installed, imports apples and
calls every entry of the common registry (``tests/common_registry.py``) on its recipe, except the helpers
listed in :data:`OPTIONAL`; each of those must raise a ModuleNotFoundError naming its package and the
extra to install. A static check keeps every import of the three inside a function body (or an
``if TYPE_CHECKING:`` block), so importing apples never needs them.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import textwrap
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APPLES_DIR = ROOT / "apples"
TESTS_DIR = Path(__file__).resolve().parent

#: Import name of each optional package -> the name pip installs it under (the name an error must give).
BLOCKED = {"matplotlib": "matplotlib", "ipywidgets": "ipywidgets", "sklearn": "scikit-learn"}
#: What the error message must tell the user to run.
INSTALL_HINT = 'pip install "apples[notebooks]"'
#: Seconds the subprocess may take (it takes a few: small recipes).
CHILD_TIMEOUT = 300

_MPL, _WIDGETS, _SKLEARN = "matplotlib", "ipywidgets", "scikit-learn"


#: Public names that need an optional package -> (the package, a call that reaches its import).
class _Estimator:
    """An estimator without scikit-learn: passes the argument checks, so the call reaches the import."""

    def fit(self, X, y):
        return self

    def predict(self, X):
        return [0] * len(X)


#: A call gets the module ``apples`` and the registry module ``r`` (its shared inputs and recipes).
#: Every other public callable must work without the three (checked by calling its registry recipe).
OPTIONAL: dict[str, tuple[str, Callable]] = {
    # style
    "set_style": (_MPL, lambda a, r: a.set_style()),
    "decorate": (_MPL, lambda a, r: a.decorate(xlabel="x")),
    # plotting helpers, each with ax=None (given Axes, matplotlib is already there) on a core result
    "plot_f_of_tp": (_MPL, lambda a, r: a.plot_f_of_tp()),
    "plot_f_precision_recall": (_MPL, lambda a, r: a.plot_f_precision_recall()),
    "plot_f_rates": (_MPL, lambda a, r: a.plot_f_rates()),
    "panel_axes": (_MPL, lambda a, r: a.panel_axes(None, 2)),
    "explorer_mimebundle": (_MPL, lambda a, r: a.explorer_mimebundle(None, lambda: None)),
    "plot_critical_difference": (_MPL, lambda a, r: a.plot_critical_difference(r._SCORE_TABLE)),
    "plot_report_coverage": (_MPL, lambda a, r: a.plot_report_coverage(a.stored_report_coverage())),
    "plot_coverage": (_MPL, lambda a, r: a.plot_coverage(a.coverage_study(**r.REGISTRY["coverage_study"].recipe()))),
    "plot_rate_vs_score": (_MPL, lambda a, r: a.plot_rate_vs_score(**r._fs_cases()())),
    "plot_figure3": (_MPL, lambda a, r: a.plot_figure3(**r._fs_cases()())),
    "plot_fold_rocs": (_MPL, lambda a, r: a.plot_fold_rocs(**r._fs_cases()())),
    "plot_cv_roc": (_MPL, lambda a, r: a.plot_cv_roc(r._cv_probabilities())),
    "plot_cv_precision_recall": (_MPL, lambda a, r: a.plot_cv_precision_recall(r._cv_probabilities())),
    "plot_reliability": (_MPL, lambda a, r: a.plot_reliability(r._cv_probabilities())),
    "plot_cv_f_histograms": (
        _MPL,
        lambda a, r: a.plot_cv_f_histograms(a.sample_cv_f(**r.REGISTRY["sample_cv_f"].recipe()), r._SIM_KW["f_true"]),
    ),
    "plot_method_curves": (
        _MPL,
        lambda a, r: a.plot_method_curves(a.simulate_grid(**r.REGISTRY["simulate_grid"].recipe()), x="prior", y="bias"),
    ),
    "plot_cv_f_convergence": (_MPL, lambda a, r: a.plot_cv_f_convergence(0.05, 0.8, stratified=True, n_reps=20)),
    "plot_bias_vs_prior": (_MPL, lambda a, r: a.plot_bias_vs_prior(r._bias_grid(), stratified=True)),
    "plot_figure4_5": (_MPL, lambda a, r: a.plot_figure4_5(r._bias_grid())),
    "plot_figure6": (_MPL, lambda a, r: a.plot_figure6(r._bias_grid())),
    "plot_figure7": (_MPL, lambda a, r: a.plot_figure7(r._bias_grid())),
    "plot_figure8": (_MPL, lambda a, r: a.plot_figure8(r._bias_grid())),
    "plot_figure9": (_MPL, lambda a, r: a.plot_figure9(n_reps=10)),
    "plot_fold_f1": (_MPL, lambda a, r: a.plot_fold_f1(a.fold_f1_curve(**r.REGISTRY["fold_f1_curve"].recipe()))),
    "plot_averages": (_MPL, lambda a, r: a.plot_averages({"t": ({"a": a.Counts(1, 1, 1)}, None)})),
    "plot_accuracy_by_uncertainty": (
        _MPL,
        lambda a, r: a.plot_accuracy_by_uncertainty(
            a.accuracy_by_uncertainty(**r.REGISTRY["accuracy_by_uncertainty"].recipe())
        ),
    ),
    "plot_fold_f1_grid": (
        _MPL,
        lambda a, r: a.plot_fold_f1_grid(a.figure2_curves(**r.REGISTRY["figure2_curves"].recipe())),
    ),
    "plot_fold_f1_readings": (
        _MPL,
        lambda a, r: a.plot_fold_f1_readings(
            {"c": a.fold_f1_readings(**r.REGISTRY["fold_f1_readings"].recipe())}, panels=("c",)
        ),
    ),
    "plot_delta_factors": (
        _MPL,
        lambda a, r: a.plot_delta_factors(a.delta_table(**r.REGISTRY["delta_table"].recipe())),
    ),
    "plot_fold_f1_single_runs": (
        _MPL,
        lambda a, r: a.plot_fold_f1_single_runs(n_folds=4, n_instances=80, seeds=[0], props=[0.125]),
    ),
    "plot_fold_f1_convergence": (
        _MPL,
        lambda a, r: a.plot_fold_f1_convergence(
            __import__("pandas").DataFrame({"n_reps": [10], "mean": [0.5], "se": [0.1]}), 0.5
        ),
    ),
    "plot_incoherence_comparison": (
        _MPL,
        lambda a, r: a.plot_incoherence_comparison(
            a.incoherence_comparison(**r.REGISTRY["incoherence_comparison"].recipe()), r._model(), r._model(mu_pos=2.0)
        ),
    ),
    "plot_loss_surface": (_MPL, lambda a, r: a.plot_loss_surface(r._model())),
    "plot_figure1": (_MPL, lambda a, r: a.plot_figure1({"A": r._model(), "B": r._model(mu_pos=2.0)})),
    "plot_agreement_levels": (_MPL, lambda a, r: a.plot_agreement_levels(r._preferences())),
    "plot_error_case_shares": (_MPL, lambda a, r: a.plot_error_case_shares(r._preferences())),
    "plot_error_case_breakdown": (_MPL, lambda a, r: a.plot_error_case_breakdown(r._parker_comparisons())),
    "plot_classifier_error_rates": (_MPL, lambda a, r: a.plot_classifier_error_rates(r._parker_comparisons())),
    # explorers
    "calibration_explorer": (_WIDGETS, lambda a, r: a.calibration_explorer(plot=False)),
    "sim_explorer": (_WIDGETS, lambda a, r: a.sim_explorer(n_reps=4, draw=False)),
    "incoherence_explorer": (_WIDGETS, lambda a, r: a.incoherence_explorer(n_grid=5)),
    # scikit-learn helpers (TrainingSetCalibration is built without it; fitting needs it)
    "digits_one_vs_rest": (_SKLEARN, lambda a, r: a.digits_one_vs_rest(**r.REGISTRY["digits_one_vs_rest"].recipe())),
    "cross_val_predictions": (_SKLEARN, lambda a, r: a.cross_val_predictions(_Estimator(), *r._binary_xy(), cv=2)),
    "breast_cancer_one_vs_rest": (_SKLEARN, lambda a, r: a.breast_cancer_one_vs_rest(5)),
    "fold_scores": (_SKLEARN, lambda a, r: a.fold_scores(None, *r._binary_xy(), cv=None)),
    "auc_gaps_over_splits": (_SKLEARN, lambda a, r: a.auc_gaps_over_splits({"m": None}, *r._binary_xy())),
    "TrainingSetCalibration": (_SKLEARN, lambda a, r: a.TrainingSetCalibration(None).fit(*r._binary_xy())),
    "nearest_neighbour_boosting": (
        _SKLEARN,
        lambda a, r: a.nearest_neighbour_boosting(**r.REGISTRY["nearest_neighbour_boosting"].recipe()),
    ),
    "run_experiment": (_SKLEARN, lambda a, r: a.run_experiment(**r.REGISTRY["run_experiment"].recipe())),
}


# -- the subprocess ---------------------------------------------------------------------------------
class _BlockOptional:
    """A meta-path finder that fails ``import matplotlib`` (ipywidgets, sklearn, submodules) as if not installed."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {fullname!r} (blocked by test_core_install)", name=fullname)
        return None


def _child() -> None:
    """Runs in the subprocess: block the optional packages, then call everything; print a JSON report."""
    import warnings

    warnings.simplefilter("error", RuntimeWarning)  # as pyproject's filterwarnings
    loaded = sorted(m for m in sys.modules if m.partition(".")[0] in BLOCKED)
    sys.meta_path.insert(0, _BlockOptional())
    report = {"preloaded": loaded, "blocked": [], "called": [], "failed": {}, "optional": {}}
    for name in BLOCKED:
        try:
            __import__(name)
        except ModuleNotFoundError:
            report["blocked"].append(name)

    import types

    import common_registry as r

    for key, entry in r.REGISTRY.items():
        if r.public_name(key) in OPTIONAL:
            continue
        try:
            result = r.resolve(key)(**entry.recipe())
            repr(result)  # printing a result (pandas tables) needs no optional package either
        except BaseException as err:
            report["failed"][key] = f"{type(err).__name__}: {err}"
        else:
            report["called"].append(key)
    public = types.SimpleNamespace(**r.PUBLIC)  # every public name, whichever package holds it
    for name, (_package, call) in OPTIONAL.items():
        try:
            call(public, r)
        except BaseException as err:
            report["optional"][name] = {
                "type": type(err).__name__,
                "name": getattr(err, "name", None),
                "message": str(err),
            }
        else:
            report["optional"][name] = {"type": None, "name": None, "message": "returned without an error"}
    report["loaded_after"] = sorted(m for m in sys.modules if m.partition(".")[0] in BLOCKED)
    print(json.dumps(report))


@pytest.fixture(scope="module")
def core_report() -> dict:
    code = textwrap.dedent(f"""
        import sys
        sys.path[:0] = [{str(TESTS_DIR)!r}, {str(ROOT)!r}]
        import test_core_install
        test_core_install._child()
    """)
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=CHILD_TIMEOUT)
    assert proc.returncode == 0, f"the core-install subprocess failed:\n{proc.stderr[-4000:]}"
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_the_optional_packages_are_blocked_in_the_subprocess(core_report):
    assert core_report["preloaded"] == [], "imported before the block was in place: the test would prove nothing"
    assert core_report["blocked"] == list(BLOCKED)
    assert core_report["loaded_after"] == []


def test_core_functions_run_without_matplotlib_ipywidgets_sklearn(core_report):
    from common_registry import REGISTRY, public_name

    assert not core_report["failed"], "failed with matplotlib, ipywidgets and scikit-learn missing:\n" + "\n".join(
        f"  {k}: {v}" for k, v in core_report["failed"].items()
    )
    expected = [k for k in REGISTRY if public_name(k) not in OPTIONAL]
    assert core_report["called"] == expected
    # the functions the core install is for, by name
    for name in (
        "fold_counts",
        "f_measure",
        "cv_f_measure",
        "roc_auc",
        "average_precision",
        "h_measure",
        "label_counts",
        "average_scores",
        "simulate_cv_f",
        "exact_cv_f",
        "fold_f1_curve",
        "Binormal",
        "binormal_h_measure",
        "incoherence_comparison",
        "explore_cv_f",
    ):
        assert name in core_report["called"], name


@pytest.mark.parametrize("name", sorted(OPTIONAL))
def test_optional_helper_names_the_missing_package_and_the_extra(core_report, name):
    package, _ = OPTIONAL[name]
    got = core_report["optional"][name]
    assert got["type"] == "ModuleNotFoundError", f"{name}: {got['type']}: {got['message']}"
    import_name = next(k for k, v in BLOCKED.items() if v == package)
    assert got["name"] == import_name, got
    assert package in got["message"] and INSTALL_HINT in got["message"], got["message"]


def test_every_public_callable_is_called_by_the_core_check_or_listed_as_optional():
    """A new public function is either core (then its registry recipe runs without the three) or in OPTIONAL."""
    from common_registry import EXEMPT, PUBLIC, REGISTRY, public_name, resolve

    from apples._params import Kind, Relation

    registered = {public_name(k) for k in REGISTRY}
    not_functions = {n for n, why in EXEMPT.items() if "result type" in why or "exception" in why}
    # parameter kinds and rules are callable, but check arguments for the functions that declare them
    callables = {
        n
        for n, obj in PUBLIC.items()
        if callable(obj)
        and n not in not_functions
        and not isinstance(obj, (Kind, Relation))
        and not (isinstance(obj, type) and issubclass(obj, (Kind, Relation)))
    }
    missing = sorted(callables - registered - set(OPTIONAL))
    assert not missing, f"public callables neither in the registry nor in OPTIONAL: {missing}"
    stray = sorted(set(OPTIONAL) - set(PUBLIC))
    assert not stray, f"OPTIONAL names that are not public names of apples: {stray}"
    for name in OPTIONAL:
        assert callable(resolve(name))


# -- packaging --------------------------------------------------------------------------------------
def _requirement_names(reqs) -> set[str]:
    return {re.split(r"[<>=!~\[ ;]", r.strip(), maxsplit=1)[0].lower() for r in reqs}


def test_pyproject_core_is_numpy_scipy_pandas_and_the_rest_are_extras():
    import apples._optional

    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = meta["optional-dependencies"]
    assert _requirement_names(meta["dependencies"]) == {"numpy", "scipy", "pandas"}
    assert set(BLOCKED.values()) <= _requirement_names(extras["notebooks"])
    assert apples._optional.OPTIONAL_PACKAGES == BLOCKED
    # `make` installs ".[dev]": it must bring the notebooks extra, by self-reference or package by package
    dev = extras["dev"]
    assert f"{meta['name']}[notebooks]" in [r.replace(" ", "") for r in dev] or _requirement_names(
        extras["notebooks"]
    ) <= _requirement_names(dev)


# -- the lazy-import helper ----------------------------------------------------------------------------
def test_require_names_the_package_and_the_extra():
    from apples._optional import require

    with pytest.raises(ModuleNotFoundError, match=re.escape('pip install "apples[book]"')) as info:
        require("no_such_package_of_apples.sub", extra="book")
    assert info.value.name == "no_such_package_of_apples"
    assert "no_such_package_of_apples" in str(info.value)


def test_require_passes_on_an_error_from_inside_an_installed_package(tmp_path, monkeypatch):
    """A package whose own import fails (a broken install) is not reported as missing."""
    from apples._optional import require

    (tmp_path / "apples_broken_pkg").mkdir()
    (tmp_path / "apples_broken_pkg" / "__init__.py").write_text("import no_such_dependency_of_apples\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError) as info:
        require("apples_broken_pkg")
    assert info.value.name == "no_such_dependency_of_apples"
    assert "apples[" not in str(info.value)
    sys.modules.pop("apples_broken_pkg", None)


# -- static check: no optional import runs when apples is imported -------------------------------------
_IMPORT_CALLS = {"require", "import_module", "__import__"}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _optional_target(node: ast.AST) -> str | None:
    """The optional module an import statement or an import call names, if any."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    elif isinstance(node, ast.ImportFrom):
        names = [node.module] if node.level == 0 and node.module else []
    elif isinstance(node, ast.Call):
        func = node.func
        called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        first = node.args[0] if node.args else None
        names = (
            [first.value]
            if called in _IMPORT_CALLS and isinstance(first, ast.Constant) and isinstance(first.value, str)
            else []
        )
    else:
        return None
    return next((n for n in names if n.partition(".")[0] in BLOCKED), None)


def import_time_optional_imports(source: str) -> list[str]:
    """Imports of matplotlib/ipywidgets/sklearn that run when the module is imported, as 'line N: module'.

    Allowed: inside a function body (also a nested one, a lambda, a method) and under ``if TYPE_CHECKING:``.
    Decorators, default values and class bodies run at import time, so they are searched like module code.
    """
    found = []

    def visit(node: ast.AST, deferred: bool) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            outer = [
                *getattr(node, "decorator_list", []),
                *node.args.defaults,
                *(d for d in node.args.kw_defaults if d is not None),
            ]
            for child in outer:
                visit(child, deferred)
            for child in node.body if isinstance(node.body, list) else [node.body]:
                visit(child, True)
            return
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child, deferred)
            return  # the body never runs
        target = _optional_target(node)
        if target is not None and not deferred:
            found.append(f"line {node.lineno}: {target}")
        for child in ast.iter_child_nodes(node):
            visit(child, deferred)

    visit(ast.parse(source), False)
    return found


def _has_annotations(tree: ast.Module) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign) or (isinstance(node, ast.arg) and node.annotation is not None):
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None:
            return True
    return False


@pytest.mark.parametrize("path", sorted(APPLES_DIR.glob("*.py")), ids=lambda p: p.name)
def test_no_module_imports_an_optional_package_at_import_time(path):
    source = path.read_text()
    found = import_time_optional_imports(source)
    assert not found, (
        f"{path.name} imports an optional package at import time (move the import into the "
        f"function, via apples._optional.require, or under `if TYPE_CHECKING:`): {found}"
    )
    tree = ast.parse(source)
    if _has_annotations(tree):  # annotations naming e.g. matplotlib.axes.Axes must never be evaluated
        assert any(
            isinstance(n, ast.ImportFrom) and n.module == "__future__" and any(a.name == "annotations" for a in n.names)
            for n in tree.body
        ), f"{path.name} has annotations but no `from __future__ import annotations`"


@pytest.mark.parametrize(
    "source, expected",
    [
        ("import matplotlib.pyplot as plt", ["line 1: matplotlib.pyplot"]),
        ("from sklearn.base import clone", ["line 1: sklearn.base"]),
        ("try:\n    import ipywidgets\nexcept ImportError:\n    pass", ["line 2: ipywidgets"]),
        ("plt = require('matplotlib.pyplot')", ["line 1: matplotlib.pyplot"]),
        ("import importlib\nw = importlib.import_module('ipywidgets')", ["line 2: ipywidgets"]),
        ("class A:\n    import matplotlib", ["line 2: matplotlib"]),
        ("def f(plt=require('matplotlib.pyplot')):\n    pass", ["line 1: matplotlib.pyplot"]),
        ("@require('sklearn').deco\ndef f():\n    pass", ["line 1: sklearn"]),
        ("def f():\n    import matplotlib.pyplot as plt\n    return plt", []),
        ("def f():\n    return require('sklearn.base').clone", []),
        ("class A:\n    def fit(self):\n        from sklearn.base import clone", []),
        ("f = lambda: require('ipywidgets')", []),
        ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from matplotlib.axes import Axes", []),
        (
            "import typing\nif typing.TYPE_CHECKING:\n    import sklearn\nelse:\n    import ipywidgets",
            ["line 5: ipywidgets"],
        ),
        ("import numpy, matplotlibx, sklearn_extra\nfrom . import matplotlib", []),
    ],
)
def test_import_time_check_itself(source, expected):
    assert import_time_optional_imports(source) == expected
