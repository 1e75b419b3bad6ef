"""Multi-label counting of plain input in a few vectorised passes (used by :func:`apples.label_counts`).

:func:`fast_label_counts` counts lists of ``str`` (or ``int``) label lists as Van Asch §5.1 and §5.4 do,
with one ``bincount`` per side instead of a Python loop per label; any other input, and every error
message, is left to the general path of :mod:`apples.metrics.multilabel`.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np

from apples.metrics.counts import Counts

__all__: list[str] = []

_FAST_COLLECTIONS = (list, tuple, set, frozenset)


def fast_label_counts(y_true, y_pred, labels, *, multilabel, deduplicate, empty) -> dict[Hashable, Counts] | None:
    """Multi-label counts of lists of str (or of int) labels without a Python loop per label, or None.

    Taken only for plain input: two equal-length lists or tuples of lists, tuples or sets, every label a
    ``str`` (or every label an ``int``), ``empty="ignore"``, and ``labels`` None or holding every label of
    the data without duplicates; anything else (and every error message) is left to the general path.
    Counts as the general path: per instance and label tp = min(gold, predicted), the excess fp or fn.
    """
    if multilabel is False or empty != "ignore" or not isinstance(deduplicate, bool):
        return None
    if not (isinstance(y_true, (list, tuple)) and isinstance(y_pred, (list, tuple))) or len(y_true) != len(y_pred):
        return None
    n = len(y_true)
    if n == 0 or not all(type(x) in _FAST_COLLECTIONS for x in y_true):
        return None
    if not all(type(x) in _FAST_COLLECTIONS for x in y_pred):
        return None
    flat_t = [lab for x in y_true for lab in x]
    flat_p = [lab for x in y_pred for lab in x]
    try:
        seen = set(flat_t)
        seen.update(flat_p)
    except TypeError:  # an unhashable label (a nested collection): the general path names it
        return None
    kinds = {type(lab) for lab in seen}
    if kinds not in ({str}, {int}):
        return None
    if labels is None:
        out = sorted(seen)
    else:
        if isinstance(labels, (str, bytes)) or not isinstance(labels, Sequence):
            return None
        out = list(labels)
        if len(set(out)) != len(out) or {type(lab) for lab in out} != kinds or not seen <= set(out):
            return None
    q = len(out)
    if n * q > 1 << 26:  # the per-instance table below would be large
        return None
    index = {lab: i for i, lab in enumerate(out)}
    tables = []
    for items, flat in ((y_true, flat_t), (y_pred, flat_p)):
        lengths = np.fromiter(map(len, items), dtype=np.intp, count=n)
        inst = np.repeat(np.arange(n, dtype=np.intp), lengths)
        codes = np.fromiter(map(index.__getitem__, flat), dtype=np.intp, count=len(flat))
        table = np.bincount(inst * q + codes, minlength=n * q).reshape(n, q)
        tables.append(np.minimum(table, 1) if deduplicate else table)
    g, p = tables
    tp = np.minimum(g, p).sum(axis=0)
    fp = np.maximum(p - g, 0).sum(axis=0)
    fn = np.maximum(g - p, 0).sum(axis=0)
    # §5.1 true negatives; clipped at 0 where the definition breaks down (see the module docstring)
    tn = np.maximum(int(g.sum()) - (tp + fn) - fp, 0)
    return {lab: Counts(int(tp[i]), int(fp[i]), int(fn[i]), int(tn[i])) for i, lab in enumerate(out)}
