"""The 0/0 table of the book (book/zero_by_zero.md) is the functions' own declarations: every function that
declares ``undefined=`` is in it once, with the policies it allows and its default."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

from apples._params import declaration_of
from apples._params.undefined import POLICIES

TABLE = Path(__file__).resolve().parents[2] / "book" / "zero_by_zero.md"
PACKAGES = ("apples", "apples.metrics", "apples.cv", "apples.intervals", "apples.theory", "apples.comparison")


def _declared() -> dict[str, tuple[set[str], str]]:
    """Public name (as the table writes it) -> (allowed policies, default), from the declarations."""
    top = set(importlib.import_module("apples").__all__)
    out: dict[str, tuple[set[str], str]] = {}
    for package in PACKAGES:
        module = importlib.import_module(package)
        for name in module.__all__:
            obj = getattr(module, name)
            d = declaration_of(obj)
            if d is None or "undefined" not in d.kinds:
                continue
            # the table writes a name of `import apples` (and of apples.metrics, apples.cv) short, others qualified
            short = name in top or package in ("apples.metrics", "apples.cv")
            allowed = set(d.kinds["undefined"].allowed)
            default = inspect.signature(obj).parameters["undefined"].default
            out.setdefault(name if short else f"{package.split('.')[1]}.{name}", (allowed, default))
    return out


def _table() -> dict[str, tuple[set[str], str]]:
    out: dict[str, tuple[set[str], str]] = {}
    rows = [line for line in TABLE.read_text(encoding="utf-8").splitlines() if line.startswith("| `")]
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        if len(cells) != 5:
            continue  # the vocabulary table above it
        names = re.findall(r"`([\w.]+)`", cells[0])
        allowed = {w.strip() for w in cells[2].split(",")}
        for name in names:
            assert name not in out, f"{name} is in the 0/0 table twice"
            out[name] = (allowed, cells[3])
    return out


def test_the_table_lists_every_function_with_undefined_and_its_declaration():
    declared, table = _declared(), _table()
    assert set(table) == set(declared), (
        f"missing from the table: {sorted(set(declared) - set(table))}; "
        f"in the table but not declared: {sorted(set(table) - set(declared))}"
    )
    for name, (allowed, default) in declared.items():
        assert table[name] == (allowed, default), f"{name}: table {table[name]}, declared {(allowed, default)}"


def test_every_policy_word_is_one_of_the_four():
    for allowed, default in _declared().values():
        assert allowed <= set(POLICIES) and default in allowed
