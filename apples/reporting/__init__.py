"""Every aggregation of a cross-validated result, side by side: :func:`report` and :class:`CVReport`.

Introduced in notebook 10. The values come from one fold table per repeat (:mod:`._tables`,
:mod:`._values`); the intervals are a second pass over the same tables (:mod:`._intervals`); what
the papers support and the warnings are :mod:`._guidance`; :mod:`._format` renders the result as
text, HTML and Markdown, and :mod:`._layout` checks a report dict before a :class:`CVReport` is
built from it.
"""

from apples.reporting._model import CVReport
from apples.reporting._report import report

__all__ = [
    "CVReport",
    "report",
]
