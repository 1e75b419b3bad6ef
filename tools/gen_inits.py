"""Regenerate the ``__init__.py`` of apples' subpackages from their modules' ``__all__``.

Each subpackage (``apples.metrics``, ``apples.cv``, ``apples.theory`` and the three
study packages) re-exports exactly the names its modules list in ``__all__``; this script
writes them so that they never drift. The re-exports are lazy (PEP 562): type checkers see
explicit imports under ``TYPE_CHECKING``, and at run time a name's module is imported when
the name is first used, so ``import apples.metrics`` does not import scipy.stats or pandas
for a function that needs neither. The package docstring is kept. ``apples/__init__.py``
(the researcher's API) is written by hand.

Usage: ``python tools/gen_inits.py [apples/<package> ...]`` (default: all of them).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGES = (
    "apples/metrics",
    "apples/cv",
    "apples/theory",
    "apples/intervals",
    "apples/plotting",
    "apples/comparison",
    "apples/measures",
    "apples/studies/forman_scholz",
    "apples/studies/van_asch",
    "apples/studies/parker",
)


def module_all(path: Path) -> list[str]:
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return [ast.literal_eval(e) for e in getattr(node.value, "elts", [])]
    return []


_LAZY = '''
def __getattr__(name: str) -> object:
    """Import the module that defines ``name`` on first use (PEP 562), so importing the package is cheap."""
    if name not in _SOURCES:
        if importlib.util.find_spec(f"{__name__}.{name}") is None:  # a submodule is imported on access too
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        return importlib.import_module(f"{__name__}.{name}")
    value = getattr(importlib.import_module(_SOURCES[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__} - {"annotations", "importlib", "TYPE_CHECKING"})
'''


def write_init(package: Path) -> None:
    """The package's ``__init__.py``: its names imported for type checkers, and from their module on first use."""
    init = package / "__init__.py"
    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")), clean=False) or ""
    imports: list[str] = []
    sources: list[str] = []
    every: list[str] = []
    for module in sorted(p for p in package.glob("*.py") if p.name != "__init__.py"):
        names = module_all(module)
        if names:
            dotted = ".".join(module.with_suffix("").parts)
            imports.append(f"    from {dotted} import (" + "".join(f"{n}, " for n in names) + ")")
            sources += [f'    "{n}": "{dotted}",' for n in sorted(names)]
            every += names
    lines = [
        '"""' + doc + '"""',
        "",
        "from __future__ import annotations",
        "",
        "import importlib.util",
        "from typing import TYPE_CHECKING",
        "",
        "if TYPE_CHECKING:",
        *imports,
        "",
        "__all__ = [" + "".join(f'"{n}", ' for n in sorted(every)) + "]",
        "",
        "#: The module that defines each name: imported when the name is first used.",
        "_SOURCES = {",
        *sources,
        "}",
        _LAZY,
    ]
    init.write_text("\n".join(lines), encoding="utf-8")


def main(argv: list[str]) -> None:
    packages = [Path(p) for p in (argv or PACKAGES)]
    for package in packages:
        write_init(package)
    inits = [str(p / "__init__.py") for p in packages]
    ruff = [sys.executable, "-m", "ruff"]
    subprocess.run([*ruff, "check", "--fix", "--quiet", "--select", "I,RUF022", *inits], check=False)
    subprocess.run([*ruff, "format", "--quiet", *inits], check=True)


if __name__ == "__main__":
    main(sys.argv[1:])
