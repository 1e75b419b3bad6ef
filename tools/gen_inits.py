"""Regenerate the ``__init__.py`` of apples' subpackages from their modules' ``__all__``.

Each subpackage (``apples.metrics``, ``apples.cv``, ``apples.theory`` and the three
study packages) re-exports, by explicit import, exactly the names its modules list in
``__all__``; this script writes those imports so that they never drift. The package
docstring is kept. ``apples/__init__.py`` (the researcher's API) is written by hand.

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
    "apples/studies/forman_scholz",
    "apples/studies/van_asch",
    "apples/studies/parker",
)


def module_all(path: Path) -> list[str]:
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return [ast.literal_eval(e) for e in getattr(node.value, "elts", [])]
    return []


def write_init(package: Path) -> None:
    init = package / "__init__.py"
    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")), clean=False) or ""
    lines = ['"""' + doc + '"""', ""]
    every: list[str] = []
    for module in sorted(p for p in package.glob("*.py") if p.name != "__init__.py"):
        names = module_all(module)
        if names:
            dotted = ".".join(module.with_suffix("").parts)
            lines.append(f"from {dotted} import (" + "".join(f"{n}, " for n in names) + ")")
            every += names
    lines += ["", "__all__ = [" + "".join(f'"{n}", ' for n in sorted(every)) + "]", ""]
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
