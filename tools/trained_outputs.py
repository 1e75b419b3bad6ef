"""Which notebook cells show values that come out of a trained model: a name-level data-flow check.

A checked output (``# NBVAL_CHECK_OUTPUT``) is compared with a fresh run on whatever CPU runs the
tests, so it may show only values that are the same on every CPU (CONTRIBUTING.md, "Checked
outputs"). A trained model's outputs are not: its last bits follow the BLAS and SIMD kernels of the
CPU, and an optimizer or a tie turns them into other printed digits. This module follows, cell by
cell in execution order, every name bound to something computed from a trained model, and reports
the checked cells that use one.

A value is *trained* when it is the result of a call in :data:`TRAINED_CALLS` (fitting, predicting,
scoring, cross-validating, or a study function that does so), or is computed from a trained name.
The analysis is by name and conservative: ``rows.append(x)`` with ``x`` trained makes ``rows``
trained; so does ``d[key] = x``, a ``for`` target over a trained iterable, and a ``with ... as``
target. It sees only the notebook's code, not inside the functions it calls: a new study function
that trains a model belongs in :data:`TRAINED_CALLS`. ``tools/perturb`` checks the same rule at run
time, by perturbing every scikit-learn estimator's inputs and outputs.

Run ``python tools/trained_outputs.py notebooks/*.ipynb`` to list every checked cell that breaks
the rule (exit status 1 if any), or use :func:`checked_cells_with_trained_values` from a test.
"""

from __future__ import annotations

import ast
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

#: Calls whose result comes out of a trained model: scikit-learn's estimator methods and model-selection
#: helpers, and the apples functions that fit estimators (the scikit-learn adapter and the studies).
TRAINED_CALLS = frozenset(
    {
        # scikit-learn estimators
        "fit",
        "fit_predict",
        "fit_transform",
        "predict",
        "predict_proba",
        "predict_log_proba",
        "decision_function",
        "score_samples",
        "transform",
        "score",
        # scikit-learn model selection
        "cross_val_predict",
        "cross_val_score",
        "cross_validate",
        "learning_curve",
        "validation_curve",
        # apples: the scikit-learn adapter and the study functions that train models
        "cross_val_predictions",
        "fold_scores",
        "auc_gaps_over_splits",
        "run_experiment",
        "run_task",
        "nearest_neighbour_boosting",
        "boosting_curve",
        "summarize_boosting_runs",
    }
)

CHECK = "NBVAL_CHECK_OUTPUT"
#: A checked cell that prints trained values only through a comparison that holds on every CPU (an
#: identity such as "micro P = micro R: True") says so on a line ``# stable: <why>``; the run-time check
#: of ``tools/perturb`` still holds it to that.
STABLE = "# stable:"


def _called_name(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


def _bound_names(target: ast.AST) -> Iterator[str]:
    """The plain names a target binds or mutates: ``a``, ``a, b``, ``a[i]`` and ``a.x`` (as ``a``)."""
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, (ast.Tuple, ast.List)):
        for elt in target.elts:
            yield from _bound_names(elt)
    elif isinstance(target, (ast.Starred, ast.Subscript, ast.Attribute)):
        yield from _bound_names(target.value)


class _Cell:
    """The trained names and trained calls that the code of one cell uses."""

    def __init__(self, trained: set[str], modules: set[str]) -> None:
        self.trained = trained
        self.modules = modules
        self.used: list[str] = []

    def _taint(self, names: Iterable[str]) -> None:
        self.trained.update(n for n in names if n not in self.modules)

    def _uses(self, node: ast.AST | None) -> list[str]:
        found = []
        for sub in ast.walk(node) if node is not None else ():
            if isinstance(sub, ast.Name) and sub.id in self.trained:
                found.append(sub.id)
            elif isinstance(sub, ast.Call) and _called_name(sub) in TRAINED_CALLS:
                found.append(f"{_called_name(sub)}()")
        return found

    def statement(self, node: ast.stmt) -> None:
        """Record the trained values ``node`` uses and mark the names it binds from them."""
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                self.modules.add(bound)
                self.trained.discard(bound)
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            uses = self._uses(node)
            if uses:
                self.trained.add(node.name)
            return
        if isinstance(node, (ast.For, ast.AsyncFor)):
            uses = self._uses(node.iter)
            self.used += uses
            if uses:
                self._taint(_bound_names(node.target))
            else:
                self.trained.difference_update(_bound_names(node.target))
            for child in node.body + node.orelse:
                self.statement(child)
            return
        if isinstance(node, (ast.While, ast.If)):
            self.used += self._uses(node.test)
            for child in node.body + node.orelse:
                self.statement(child)
            return
        if isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                uses = self._uses(item.context_expr)
                self.used += uses
                if uses and item.optional_vars is not None:
                    self._taint(_bound_names(item.optional_vars))
            for child in node.body:
                self.statement(child)
            return
        if isinstance(node, ast.Try):
            for child in node.body + node.orelse + node.finalbody:
                self.statement(child)
            for handler in node.handlers:
                for child in handler.body:
                    self.statement(child)
            return
        # what the statement reads: an assignment reads its value (and its targets' subscripts), not the names it binds
        read = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else node
        uses = self._uses(read)
        if isinstance(node, ast.Assign):
            uses += [u for t in node.targets if not isinstance(t, ast.Name) for u in self._uses(t)]
        self.used += uses
        if not uses:
            if isinstance(node, ast.Assign):  # a plain name bound again to a clean value is clean again
                self.trained.difference_update(t.id for t in node.targets if isinstance(t, ast.Name))
            return
        if isinstance(node, ast.Assign):
            for target in node.targets:
                self._taint(_bound_names(target))
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            self._taint(_bound_names(node.target))
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            func = node.value.func  # x.append(trained), x.update(...), x.loc[...] = ... : x holds it now
            if isinstance(func, ast.Attribute):
                self._taint(_bound_names(func.value))


def _source(cell: dict) -> str:
    src = cell.get("source", "")
    text = "".join(src) if isinstance(src, list) else src
    # IPython magics and shell escapes are not Python
    return "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in text.splitlines())


def checked_cells_with_trained_values(cells: Iterable[dict]) -> list[tuple[int, list[str]]]:
    """``(index among code cells, trained names or calls used)`` of every checked cell that uses one.

    A cell with a ``# stable: <why>`` line is not reported. ``cells`` are a notebook's cells (nbformat dicts)
    in order; cells tagged ``solution`` are skipped,
    since a student's copy runs without them and they are never checked.
    """
    trained: set[str] = set()
    modules: set[str] = set()  # names bound by import: calling a module's function never taints the module
    found = []
    code_index = -1
    for cell in cells:
        if cell.get("cell_type") != "code":
            continue
        code_index += 1
        if "solution" in cell.get("metadata", {}).get("tags", []):
            continue
        source = _source(cell)
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        scan = _Cell(trained, modules)
        for node in tree.body:
            scan.statement(node)
        if CHECK in source and scan.used and STABLE not in source:
            found.append((code_index, sorted(set(scan.used))))
    return found


def main(paths: list[str]) -> int:
    status = 0
    for path in paths:
        cells = json.loads(Path(path).read_text(encoding="utf-8"))["cells"]
        for index, used in checked_cells_with_trained_values(cells):
            status = 1
            print(f"{path}::Cell {index}: checked, but shows a trained model's values ({', '.join(used)})")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
