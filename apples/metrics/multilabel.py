"""Per-label counting for multi-class and multi-label data (Van Asch 2013, §5).

Introduced in notebook 05. Each instance has a gold label collection and a
predicted one (single-label data: one label each). Per label λ (§5.1):

* tp_λ: λ is in the gold and in the prediction;
* fp_λ: λ is predicted and not in the gold;
* fn_λ: λ is in the gold and not predicted;
* tn_λ: the total number of gold label occurrences that are not λ, minus fp_λ.

For single-label data tn_λ is the usual N − tp_λ − fp_λ − fn_λ.

Duplicates (§5.4). Labels are counted as occurrences, not simplified:
gold ``[A]`` and prediction ``[A, A, A]`` give 1 tp and 2 fp for A. In
general per instance tp = min(gold count, predicted count) and the excess
on either side is fp or fn (the paper only shows predicted duplicates; a
duplicated gold label is treated symmetrically). ``deduplicate=True``
reduces both sides to sets first.

Empty collections (§5.3). ``empty="ignore"`` (default) adds nothing for an
empty gold or prediction (the other labels' fn or fp still count);
``empty="label"`` replaces an empty collection by ``[NONE]``, so
``"NONE"`` (:data:`NONE_LABEL`) becomes one more label of the macro average.

The §5.1 true-negative count can come out negative: the paper's own §5.4
example (gold ``[A]``, predicted ``[A, A, A]``) has 0 gold occurrences that
are not A and 2 false positives for A, so 0 − 2 = −2; so does gold ``[]``
predicted ``[B]`` with ``empty="ignore"``. A count cannot be negative, so
:func:`label_counts` reports tn = 0 there. Precision, recall and F never use
tn (Van Asch eqs. 1–4), so only accuracy-like measures (eq. 7) are affected;
for single-label data, and for multi-label data without duplicates or empty
gold collections, the count is never negative and nothing is clipped.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Literal, NamedTuple

import numpy as np
import pandas as pd

from apples._params import (
    check_bool,
    check_choice,
    check_count,
    check_labels_1d,
    check_same_label_kind,
    check_table_size,
    is_missing,
)
from apples.metrics._label_counting import fast_label_counts
from apples.metrics.counts import Counts

__all__ = [
    "NONE_LABEL",
    "UNMATCHED",
    "SplitConfusionMatrix",
    "label_counts",
    "label_frequencies",
    "labels_from_confusion_matrix",
    "split_confusion_matrix",
]

#: The label that stands for an empty label collection (Van Asch §5.3).
NONE_LABEL = "NONE"

#: Row/column of :func:`split_confusion_matrix` for labels left without a partner (not a label).
UNMATCHED = "(unmatched)"

_COLLECTIONS = (list, tuple, set, frozenset, np.ndarray, Counter)


def _is_collection(x: object) -> bool:
    return isinstance(x, _COLLECTIONS)


def _plain(x):
    """numpy scalars become Python scalars, so dict keys print cleanly."""
    return x.item() if isinstance(x, np.generic) else x


def _check_label(name: str, where: str, x) -> Hashable:
    """One label of a label set: any hashable, not missing; check_labels_1d checks arrays, not set elements."""
    x = _plain(x)
    if is_missing(x):  # None, NaN, pd.NA, NaT
        what = "None" if x is None else "NaN" if isinstance(x, float) else f"a missing value ({x!r})"
        raise ValueError(f"{name}{where} is {what}; labels must be real values (use [] for no label)")
    try:
        hash(x)
    except TypeError:
        raise TypeError(f"{name}{where} must be a hashable label, got {type(x).__name__}") from None
    return x


def _as_instances(name: str, y) -> list:
    if isinstance(y, (str, bytes)):
        raise TypeError(f"{name} must be a sequence of labels or of label collections, got a string")
    if isinstance(y, np.ndarray):
        if y.ndim == 0:
            raise ValueError(f"{name} must be one-dimensional, got a scalar array")
        if y.ndim > 1:
            raise ValueError(
                f"{name} is a {y.ndim}-dimensional array of shape {y.shape}; pass a 1-d array of labels, "
                "or for multi-label data a sequence of label collections (e.g. "
                "MultiLabelBinarizer.inverse_transform of an indicator matrix)"
            )
        return list(y)
    if isinstance(y, (pd.Series, pd.Index)):
        return list(y)
    if isinstance(y, (Mapping, set, frozenset)) or not isinstance(y, Iterable):
        raise TypeError(f"{name} must be a sequence (one entry per instance), got {type(y).__name__}")
    return list(y)


def _detect(name: str, items: list, multilabel: bool | None) -> bool:
    """Whether ``items`` is multi-label; ValueError on a ragged mix."""
    flags = [_is_collection(x) for x in items]
    if multilabel is None:
        if not items:
            return False
        if all(flags):
            return True
        if not any(flags):
            return False
        i = flags.index(not flags[0])
        raise ValueError(
            f"{name} is ragged: {name}[0] is {'a label collection' if flags[0] else 'a single label'} "
            f"but {name}[{i}] is {'a label collection' if flags[i] else 'a single label'} ({items[i]!r}); "
            "use a collection for every instance (multi-label) or a single label for every instance"
        )
    if multilabel and not all(flags):
        i = flags.index(False)
        raise ValueError(
            f"multilabel=True but {name}[{i}] is a single label {items[i]!r}, not a collection of labels "
            "(write [label], or [] for none)"
        )
    if not multilabel and any(flags):
        i = flags.index(True)
        raise ValueError(
            f"multilabel=False but {name}[{i}] is a collection {items[i]!r}; pass multilabel=True for multi-label data"
        )
    return multilabel


def _parse(
    y_true,
    y_pred,
    *,
    multilabel: bool | None,
    deduplicate: bool,
    empty: str,
    names: tuple[str, str] = ("y_true", "y_pred"),
):
    """Per-instance gold and predicted labels (a Counter each if multi-label), and the multi-label flag.

    Every label is checked: no missing value (None, NaN, ``pd.NA``, NaT), one
    type per side and the same type on both sides (``[1, 2]`` against
    ``["1", "2"]`` would count four labels that never match). ``names`` are
    the caller's argument names, used in the messages.
    """
    name_t, name_p = names
    if multilabel is not None and not isinstance(multilabel, (bool, np.bool_)):
        raise TypeError(f"multilabel must be True, False or None (detect), got {multilabel!r}")
    deduplicate = check_bool("deduplicate", deduplicate)
    check_choice("empty", empty, ("ignore", "label"))
    fast = _fast_single_label(y_true, y_pred, multilabel, empty, names)
    if fast is not None:
        return fast[0], fast[1], False
    t = _as_instances(name_t, y_true)
    p = _as_instances(name_p, y_pred)
    if len(t) != len(p):
        raise ValueError(f"inconsistent lengths: {name_t} has {len(t)} instances, {name_p} has {len(p)}")
    ml_t = _detect(name_t, t, multilabel)
    ml_p = _detect(name_p, p, multilabel)
    if t and ml_t != ml_p:
        raise ValueError(
            f"{name_t} and {name_p} disagree: one holds label collections (multi-label), the other single labels"
        )
    ml = bool(ml_t)
    if not ml and empty == "label":
        raise ValueError("empty='label' applies to multi-label data only; single-label data has no empty instance")
    gold: list[Counter[Hashable] | Hashable] = []  # a Counter per instance if multi-label, else a label
    pred: list[Counter[Hashable] | Hashable] = []
    checked = {}
    for name, items, out in ((name_t, t, gold), (name_p, p, pred)):
        occurrences = []
        for i, x in enumerate(items):
            c: Counter[Hashable] | Hashable
            if ml:
                if isinstance(x, np.ndarray) and x.ndim != 1:
                    raise ValueError(f"{name}[{i}] must be a flat collection of labels, got shape {x.shape}")
                labs = []
                for j, lab in enumerate(x.elements() if isinstance(x, Counter) else x):
                    if _is_collection(lab):
                        raise ValueError(f"{name}[{i}][{j}] is a collection; labels cannot be nested")
                    labs.append(_check_label(name, f"[{i}][{j}]", lab))
                occurrences += labs
                if empty == "label" and NONE_LABEL in labs:
                    raise ValueError(
                        f"{name}[{i}] uses {NONE_LABEL!r} as a real label, which empty='label' reserves for "
                        "empty collections; rename that label or use empty='ignore'"
                    )
                c = Counter(set(labs)) if deduplicate else Counter(labs)
                if not c and empty == "label":
                    c = Counter([NONE_LABEL])
            else:
                c = _check_label(name, f"[{i}]", x)
                occurrences.append(c)
            out.append(c)
        checked[name] = check_labels_1d(name, occurrences)  # one type of label over all instances
    check_same_label_kind(**checked)
    return gold, pred, ml


def _fast_single_label(y_true, y_pred, multilabel, empty, names):
    """Plain numeric or string 1-d arrays: validated without a Python loop, or None if not applicable."""
    if multilabel or empty != "ignore":
        return None
    arrays = []
    for name, y in zip(names, (y_true, y_pred), strict=True):
        if not isinstance(y, np.ndarray) or y.ndim != 1 or y.dtype.kind not in "biufUS":
            return None
        if y.dtype.kind == "f" and np.isnan(y).any():
            i = int(np.flatnonzero(np.isnan(y))[0])
            raise ValueError(f"{name}[{i}] is NaN; labels must be real values (use [] for no label)")
        arrays.append(y)
    if arrays[0].size != arrays[1].size:
        raise ValueError(
            f"inconsistent lengths: {names[0]} has {arrays[0].size} instances, {names[1]} has {arrays[1].size}"
        )
    if arrays[0].dtype.kind != arrays[1].dtype.kind and {arrays[0].dtype.kind, arrays[1].dtype.kind} & set("US"):
        return None  # strings mixed with numbers: take the general path
    return arrays


def _unique_labels(items, ml: bool) -> list:
    """The distinct labels, sorted for arrays, else in order of first appearance."""
    if isinstance(items, np.ndarray):
        return [_plain(x) for x in np.unique(items)]
    return list(dict.fromkeys(_labels_of(items, ml)))


def _labels_of(items: list, ml: bool):
    """Every label occurrence in per-instance Counters (multi-label) or plain labels (single-label)."""
    return (lab for c in items for lab in c) if ml else iter(items)


def _label_set(
    gold: list, pred: list, labels, *, empty: str, ml: bool, names: tuple[str, str] = ("y_true", "y_pred")
) -> list:
    if isinstance(gold, np.ndarray):  # the unique labels of each side, merged: no copy of both arrays together
        seen = dict.fromkeys(_unique_labels(gold, ml))
        if len(pred):
            seen.update(dict.fromkeys(_unique_labels(pred, ml)))
    else:
        seen = dict.fromkeys(_labels_of(gold + pred, ml))
    real = [lab for lab in seen if not (empty == "label" and lab == NONE_LABEL)]
    if labels is None:
        try:
            out = sorted(real)
        except TypeError:
            out = real
    else:
        if isinstance(labels, (str, bytes)) or not isinstance(labels, Iterable):
            raise TypeError(f"labels must be a sequence of labels, got {type(labels).__name__}")
        out = [_check_label("labels", f"[{i}]", lab) for i, lab in enumerate(labels)]
        given = check_labels_1d("labels", [lab for lab in out if not (empty == "label" and lab == NONE_LABEL)])
        data = " and ".join(dict.fromkeys(names[:2] if len(pred) else names[:1]))
        check_same_label_kind(**{"labels": given, data: check_labels_1d(data, real)})
        dup = [lab for lab, n in Counter(out).items() if n > 1]
        if dup:
            raise ValueError(f"labels has duplicates: {dup!r}")
        known = set(out)
        for name, cs in zip(names, (gold, pred), strict=True):
            unknown = sorted(
                {
                    repr(lab)
                    for lab in _unique_labels(cs, ml)
                    if lab not in known and not (empty == "label" and lab == NONE_LABEL)
                }
            )
            if unknown:
                raise ValueError(
                    f"{name} contains label(s) {', '.join(unknown[:5])}{' ...' if len(unknown) > 5 else ''} "
                    "that are not in labels=; the label set must hold every label of the data "
                    "(dropping one would change the micro average)"
                )
        if empty == "label":
            out = [lab for lab in out if lab != NONE_LABEL]
    if empty == "label":
        out = [*out, NONE_LABEL]
    if not out:
        data = " and ".join(dict.fromkeys(names))
        raise ValueError(
            f"there are no labels: {data} {'is' if ' ' not in data else 'are'} empty and labels= was not given"
        )
    return out


def _codes(items, index: dict) -> np.ndarray:
    """Position of each label in the label set (which holds every label of ``items``)."""
    if isinstance(items, np.ndarray) and items.dtype.kind in "biufUS" and index:
        keys = np.array(list(index))
        if keys.ndim == 1 and keys.dtype.kind in "biufUS" and (keys.dtype.kind in "US") == (items.dtype.kind in "US"):
            order = np.argsort(keys, kind="stable")
            pos = np.searchsorted(keys[order], items)  # binary search: no sorted copy of items
            return order[np.minimum(pos, keys.size - 1)].astype(np.intp, copy=False)
    if isinstance(items, np.ndarray):
        uniq, inverse = np.unique(items, return_inverse=True)
        lut = np.array([index[_plain(u)] for u in uniq], dtype=np.int64)
        return lut[inverse.reshape(-1)] if uniq.size else np.zeros(0, dtype=np.int64)
    return np.array([index[x] for x in items], dtype=np.int64)


def label_counts(
    y_true,
    y_pred,
    *,
    labels: Sequence[Hashable] | None = None,
    multilabel: bool | None = None,
    deduplicate: bool = False,
    empty: Literal["ignore", "label"] = "ignore",
) -> dict[Hashable, Counts]:
    """One binary confusion count per label, counted as Van Asch §5.1.

    Parameters
    ----------
    y_true, y_pred : sequence of length n
        Single-label data: one label per instance (1-d array-like).
        Multi-label data: one collection (list, tuple, set, 1-d array) of
        labels per instance; ``[]`` is an instance without labels.
    labels : sequence, optional
        The label set, in the order of the result. Labels that do not occur
        in the data get a count of zeros (a training label absent from the
        test data still counts, §4.1); a label of the data that is missing
        here is an error. Default: every label of ``y_true`` and ``y_pred``,
        sorted when sortable.
    multilabel : bool or None, default None
        Whether instances are label collections; ``None`` detects it and
        rejects a mix of collections and single labels.
    deduplicate : bool, default False
        Reduce each collection to a set first. By default duplicates count
        (§5.4: gold ``[A]``, predicted ``[A, A, A]`` gives 1 tp and 2 fp).
    empty : {"ignore", "label"}, default "ignore"
        Multi-label only (§5.3): ignore empty collections, or count them as
        the label :data:`NONE_LABEL` (``"NONE"``), added last to the label set.

    Returns
    -------
    dict
        label -> :class:`~apples.Counts`, in label-set order.

    Raises
    ------
    ValueError
        Mismatched lengths; ragged input (collections mixed with single
        labels); a label of the data missing from ``labels``; duplicate
        ``labels``; NaN or None labels; a 2-d array. (A negative §5.1 true
        negative count is not an error: it is reported as 0, see the module
        docstring.)
    TypeError
        A string or a non-sequence for ``y_true``/``y_pred``/``labels``;
        unhashable labels.

    References
    ----------
    Van Asch (2013) §5.1 (counting), §5.3 (empty), §5.4 (double predictions), Table 6.

    Examples
    --------
    Van Asch §5.5 / Table 6:

    >>> for label, c in label_counts([["A"], ["A"]], [["B", "C"], ["A"]]).items():
    ...     print(label, c)
    A Counts(tp=1, fp=0, fn=1, tn=0)
    B Counts(tp=0, fp=1, fn=0, tn=1)
    C Counts(tp=0, fp=1, fn=0, tn=1)

    Double predictions (§5.4):

    >>> label_counts([["A"]], [["A", "A", "A"]])   # tn: 0 - 2 < 0, reported as 0
    {'A': Counts(tp=1, fp=2, fn=0, tn=0)}
    >>> label_counts([["A"]], [["A", "A", "A"]], deduplicate=True)
    {'A': Counts(tp=1, fp=0, fn=0, tn=0)}

    Single-label data, with a training label absent from the test data:

    >>> label_counts(["a", "b", "b"], ["a", "a", "b"], labels=["a", "b", "c"])["c"]
    Counts(tp=0, fp=0, fn=0, tn=3)
    """
    fast = fast_label_counts(y_true, y_pred, labels, multilabel=multilabel, deduplicate=deduplicate, empty=empty)
    if fast is not None:
        return fast
    gold, pred, ml = _parse(y_true, y_pred, multilabel=multilabel, deduplicate=deduplicate, empty=empty)
    out_labels = _label_set(gold, pred, labels, empty=empty, ml=ml)
    index = {lab: i for i, lab in enumerate(out_labels)}
    q = len(out_labels)
    if not ml:  # single-label: diagonal and margins of the confusion matrix, tn = N - tp - fp - fn
        t, p = _codes(gold, index), _codes(pred, index)
        tp = np.bincount(t[t == p], minlength=q)
        fp = np.bincount(p, minlength=q) - tp
        fn = np.bincount(t, minlength=q) - tp
        tn = len(gold) - tp - fp - fn
        return {lab: Counts(int(tp[i]), int(fp[i]), int(fn[i]), int(tn[i])) for i, lab in enumerate(out_labels)}
    tp = np.zeros(q, dtype=np.int64)
    fp = np.zeros(q, dtype=np.int64)
    fn = np.zeros(q, dtype=np.int64)
    occurrences = 0
    for g, p in zip(gold, pred, strict=True):
        occurrences += sum(g.values())
        for lab in g.keys() | p.keys():
            i = index[lab]
            a, b = g[lab], p[lab]
            tp[i] += min(a, b)
            if b > a:
                fp[i] += b - a
            else:
                fn[i] += a - b
    # §5.1 true negatives; clipped at 0 where the definition breaks down (see the module docstring)
    tn = np.maximum(occurrences - (tp + fn) - fp, 0)
    return {lab: Counts(int(tp[i]), int(fp[i]), int(fn[i]), int(tn[i])) for i, lab in enumerate(out_labels)}


def label_frequencies(
    y, *, labels: Sequence[Hashable] | None = None, multilabel: bool | None = None
) -> dict[Hashable, float]:
    """Relative label frequencies f_λ of a (training) label sequence, for lfb averaging.

    Single-label data: f_λ = c_λ / n, the share of instances with label λ
    (Van Asch §3.3). Multi-label data: the share of label *occurrences*, so
    the frequencies sum to 1 as :func:`apples.average_scores` requires (the
    paper's c_λ / n over instances would sum to more than 1).

    Parameters
    ----------
    y : sequence
        Labels, or label collections, of the training instances.
    labels : sequence, optional
        The label set (zeros for absent labels); every label of ``y`` must be in it.
    multilabel : bool or None, default None
        As in :func:`label_counts`.

    Examples
    --------
    >>> label_frequencies(["a", "b", "b", "b"], labels=["a", "b", "c"])
    {'a': 0.25, 'b': 0.75, 'c': 0.0}
    """
    gold, _, ml = _parse(y, y, multilabel=multilabel, deduplicate=False, empty="ignore", names=("y", "y"))
    out_labels = _label_set(gold, [], labels, empty="ignore", ml=ml, names=("y", "y"))
    total = Counter(_plain(x) for x in gold) if isinstance(gold, np.ndarray) else Counter(_labels_of(gold, ml))
    n = sum(total.values())
    if n == 0:
        raise ValueError("y holds no label occurrence; frequencies are undefined")
    return {lab: total[lab] / n for lab in out_labels}


class SplitConfusionMatrix(NamedTuple):
    """The multi-label confusion matrix with split counts of Van Asch §5.2.

    Rows are gold labels, columns predicted labels (cell {gold, predicted}).
    ``row_values`` sum along each row to the label's gold occurrences;
    ``column_values`` sum down each column to its predicted occurrences. The
    two differ only in split cells, which the paper prints as
    ``column\\row`` (Table 7: ``1\\0.5``).
    """

    labels: list
    row_values: np.ndarray
    column_values: np.ndarray

    def to_frame(self) -> pd.DataFrame:
        """Table 7 layout: split cells as ``"column\\row"``, Σ row and column, corner ``"Σcol\\Σrow"``."""

        def fmt(c: float, r: float) -> str:
            a, b = f"{c:.4g}", f"{r:.4g}"
            return a if a == b else f"{a}\\{b}"

        names = [str(lab) for lab in self.labels]
        q = len(names)
        body = [
            [fmt(self.column_values[i, j], self.row_values[i, j]) for j in range(q)]
            + [f"{self.row_values[i].sum():.4g}"]
            for i in range(q)
        ]
        col_tot = self.column_values.sum(axis=0)
        body.append([f"{v:.4g}" for v in col_tot] + [fmt(self.column_values.sum(), self.row_values.sum())])
        return pd.DataFrame(body, index=[*names, "Σ"], columns=[*names, "Σ"])


def split_confusion_matrix(
    y_true,
    y_pred,
    *,
    labels: Sequence[Hashable] | None = None,
    multilabel: bool | None = None,
    deduplicate: bool = False,
    empty: Literal["ignore", "label"] = "ignore",
) -> SplitConfusionMatrix:
    """Confusion matrix with split counts for multi-label data (Van Asch §5.2, Table 7).

    Per instance, labels in both the gold and the prediction add 1 to their
    diagonal cell. The n_g unmatched gold labels and the n_p unmatched
    predicted labels are crossed: each cell {g, p} gets 1/n_p towards the
    row total and 1/n_g towards the column total, so every row sums to the
    label's gold occurrences and every column to its predicted occurrences
    (§5.5: gold [A], predicted [B C] adds 0.5 to the row totals of {A,B} and
    {A,C}, and 1 to their column totals). If one side has no unmatched label
    the other side is crossed with :data:`UNMATCHED`, which then appears as
    the last row/column. It is not a label: its row collects predictions that
    have no unmatched gold label in their instance (extra or duplicated
    predictions), its column gold labels that have no unmatched prediction
    (with ``empty="ignore"``, e.g. an empty prediction). With
    ``empty="label"`` the §5.3 label ``NONE`` is an ordinary row and column.

    Parameters
    ----------
    y_true, y_pred, labels, multilabel, deduplicate, empty
        As in :func:`label_counts`.

    Returns
    -------
    SplitConfusionMatrix
        ``labels``, ``row_values``, ``column_values`` (float arrays, q × q);
        ``.to_frame()`` prints it as Table 7.

    Examples
    --------
    >>> m = split_confusion_matrix([["A"], ["A"]], [["B", "C"], ["A"]])   # Table 7
    >>> print(m.to_frame())
       A      B      C    Σ
    A  1  1\\0.5  1\\0.5    2
    B  0      0      0    0
    C  0      0      0    0
    Σ  1      1      1  3\\2
    """
    gold, pred, ml = _parse(y_true, y_pred, multilabel=multilabel, deduplicate=deduplicate, empty=empty)
    out_labels = _label_set(gold, pred, labels, empty=empty, ml=ml)
    if not ml:
        gold, pred = [Counter([_plain(g)]) for g in gold], [Counter([_plain(p)]) for p in pred]
    need_extra = any(
        sum((g - p).values()) == 0 < sum((p - g).values()) or sum((p - g).values()) == 0 < sum((g - p).values())
        for g, p in zip(gold, pred, strict=True)
    )
    if need_extra:
        if UNMATCHED in {lab for c in gold + pred for lab in c}:
            raise ValueError(
                f"the data use {UNMATCHED!r} as a label, which the split matrix reserves for "
                "labels without a partner; rename that label"
            )
        out_labels = [*out_labels, UNMATCHED]
    index = {lab: i for i, lab in enumerate(out_labels)}
    q = len(out_labels)
    rows = np.zeros((q, q))
    cols = np.zeros((q, q))
    extra = index.get(UNMATCHED)
    for g, p in zip(gold, pred, strict=True):
        for lab, k in (g & p).items():
            rows[index[lab], index[lab]] += k
            cols[index[lab], index[lab]] += k
        ug = list((g - p).elements()) or ([] if not (p - g) else [None])
        up = list((p - g).elements()) or ([] if not (g - p) else [None])
        for a in ug:
            for b in up:
                i = extra if a is None else index[a]
                j = extra if b is None else index[b]
                rows[i, j] += 1 / len(up)
                cols[i, j] += 1 / len(ug)
    return SplitConfusionMatrix(out_labels, rows, cols)


def labels_from_confusion_matrix(matrix, labels: Sequence[Hashable] | None = None):
    """Single-label ``(y_true, y_pred)`` that realise a confusion matrix.

    Useful to turn a paper's counts into data that any library can score.

    Parameters
    ----------
    matrix : array-like of shape (q, q)
        Non-negative integer counts; rows are gold labels, columns predictions.
    labels : sequence of length q, optional
        Label names (default 0 … q−1).

    Returns
    -------
    y_true, y_pred : numpy arrays of length ``matrix.sum()``

    Examples
    --------
    >>> t, p = labels_from_confusion_matrix([[1, 2], [0, 1]], ["a", "b"])
    >>> t.tolist(), p.tolist()
    (['a', 'a', 'a', 'b'], ['a', 'b', 'b', 'b'])
    """
    m = np.asarray(matrix)
    if m.ndim != 2 or m.shape[0] != m.shape[1]:
        raise ValueError(f"matrix must be square (q, q), got shape {m.shape}")
    for (i, j), v in np.ndenumerate(m):
        check_count(f"matrix[{i}, {j}]", _plain(v))
    m = m.astype(np.int64)
    q = m.shape[0]
    if labels is not None and (isinstance(labels, (str, bytes)) or not isinstance(labels, Iterable)):
        raise TypeError(f"labels must be a sequence of q label names, got {type(labels).__name__}")
    names = list(range(q)) if labels is None else [_plain(x) for x in labels]
    if len(names) != q:
        raise ValueError(f"labels has {len(names)} entries but matrix is {q} × {q}")
    as_objects = np.empty(q, dtype=object)
    as_objects[:] = names
    check_labels_1d("labels", as_objects)  # missing names, names of mixed types
    names_arr = np.array(names)
    if names_arr.ndim != 1:
        names_arr = as_objects
    n = sum(int(v) for v in m.ravel())
    check_table_size(
        f"y_true and y_pred of {n:,} instances", 2 * n * names_arr.dtype.itemsize, reduce="the counts in matrix"
    )
    rows, cols = np.indices((q, q))
    reps = m.ravel()
    return np.repeat(names_arr[rows.ravel()], reps), np.repeat(names_arr[cols.ravel()], reps)
