"""Every measure apples reports, one record each, and your own: :mod:`apples.measures`.

Introduced in notebook 10. A :class:`Measure` record holds everything about one measure (its key and
names, tasks, kernel, aggregations with their 0/0 rules, label averages, range, direction, guidance
and references); :data:`MEASURES` holds the built-in ones; :func:`from_counts` and
:func:`from_predictions` make a record of a measure of your own. :func:`apples.report` and
:func:`apples.compare` derive every value, interval, name, output format and note from the records.
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from apples.measures.builtin import (
        LABEL_AVERAGES,
        MEASURES,
    )
    from apples.measures.custom import (
        from_counts,
        from_predictions,
    )
    from apples.measures.record import (
        AGGREGATION_KINDS,
        FAMILIES,
        TASKS,
        Aggregation,
        Measure,
    )

__all__ = [
    "AGGREGATION_KINDS",
    "FAMILIES",
    "LABEL_AVERAGES",
    "MEASURES",
    "TASKS",
    "Aggregation",
    "Measure",
    "from_counts",
    "from_predictions",
]

#: The module that defines each name: imported when the name is first used.
_SOURCES = {
    "LABEL_AVERAGES": "apples.measures.builtin",
    "MEASURES": "apples.measures.builtin",
    "from_counts": "apples.measures.custom",
    "from_predictions": "apples.measures.custom",
    "AGGREGATION_KINDS": "apples.measures.record",
    "Aggregation": "apples.measures.record",
    "FAMILIES": "apples.measures.record",
    "Measure": "apples.measures.record",
    "TASKS": "apples.measures.record",
}


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
