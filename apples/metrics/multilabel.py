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

from collections.abc import Hashable, Iterable, Mapping, Sequence
from itertools import chain
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, cast

import numpy as np
from numpy.typing import ArrayLike

from apples._kernels import labels as kl
from apples._params import (
    FLAG,
    Kind,
    Nullable,
    Options,
    ParameterValueError,
    Relation,
    check_count,
    check_labels_1d,
    check_table_size,
    declare,
)
from apples.metrics._label_counting import (
    LABEL_DATA,
    LABEL_LIST,
    NONE_LABEL,
    LabelData,
    LabelSet,
    Layout,
    is_multilabel,
    label_set,
    plain,
)
from apples.metrics.counts import Counts

if TYPE_CHECKING:  # pandas is imported by to_frame, not by the counting
    import pandas as pd

__all__ = [
    "NONE_LABEL",
    "UNMATCHED",
    "SplitConfusionMatrix",
    "label_counts",
    "label_frequencies",
    "labels_from_confusion_matrix",
    "split_confusion_matrix",
]

#: Row/column of :func:`split_confusion_matrix` for labels left without a partner (not a label).
UNMATCHED = "(unmatched)"

_EMPTY = Options("ignore", "label")
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
_COUNTING = {
    "y_true": LABEL_DATA,
    "y_pred": LABEL_DATA,
    "labels": Nullable(LABEL_LIST),
    "multilabel": Nullable(FLAG),
    "deduplicate": FLAG,
    "empty": _EMPTY,
}
_COUNTING_RELATIONS = [
    Layout("y_true", "y_pred", multilabel="multilabel", empty="empty"),
    LabelSet("labels", "y_true", "y_pred", empty="empty"),
]


def _codes(data: LabelData, index: dict[Hashable, int]) -> np.ndarray:
    """The code of each instance's label (single-label data)."""
    items = data.items
    if isinstance(items, np.ndarray) and index:
        keys = np.array(list(index))
        if keys.ndim == 1 and keys.dtype.kind in "biufUS" and (keys.dtype.kind in "US") == (items.dtype.kind in "US"):
            return kl.codes_in(items, keys)
        uniq, inverse = np.unique(items, return_inverse=True)
        return np.array([index[plain(u)] for u in uniq], dtype=np.intp)[inverse.reshape(-1)]
    return np.fromiter(map(index.__getitem__, items), dtype=np.intp, count=len(items))


def _occurrence_codes(data: LabelData, index: dict[Hashable, int], size: int) -> np.ndarray:
    """The code of each label occurrence of multi-label data, instance after instance (``size`` of them).

    Integer labels (Python or numpy) are read into one int64 array and coded by a binary search; other
    labels by a dictionary look-up each.
    """
    occurrences = chain.from_iterable(data.items)
    keys = list(index)
    if data.kind == "number" and keys and all(type(k) is int and _INT64_MIN <= k <= _INT64_MAX for k in keys):
        values = np.fromiter(occurrences, dtype=np.int64, count=size)
        return kl.codes_in(values, np.array(keys, dtype=np.int64))
    return np.fromiter(map(index.__getitem__, occurrences), dtype=np.intp, count=size)


def _table(data: LabelData, index: dict[Hashable, int], multilabel: bool, deduplicate: bool, empty: str) -> Any:
    """The instance-by-label occurrence table of checked data (``empty="label"``: an empty collection is NONE)."""
    n, q = len(data.items), len(index)
    if not multilabel:
        return kl.instance_table(np.arange(n), _codes(data, index), n, q, False)
    lengths = np.fromiter(map(len, data.items), dtype=np.intp, count=n)
    instance = np.repeat(np.arange(n), lengths)
    code = _occurrence_codes(data, index, instance.size)
    if empty == "label":
        none = np.flatnonzero(lengths == 0)
        instance = np.r_[instance, none]
        code = np.r_[code, np.full(none.size, index[NONE_LABEL], dtype=np.intp)]
    return kl.instance_table(instance, code, n, q, deduplicate)


@declare(**_COUNTING, relations=_COUNTING_RELATIONS)
def label_counts(
    y_true: Sequence[Any] | ArrayLike,
    y_pred: Sequence[Any] | ArrayLike,
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

    >>> from apples import label_counts
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
    t, p = cast(LabelData, y_true), cast(LabelData, y_pred)
    ml = is_multilabel(multilabel, t, p)
    out = label_set(cast("list[Hashable] | None", labels), empty, t, p)
    index = {lab: i for i, lab in enumerate(out)}
    if ml:
        tp, fp, fn, tn = kl.multilabel_counts(
            _table(t, index, True, deduplicate, empty), _table(p, index, True, deduplicate, empty)
        )
    else:
        tp, fp, fn, tn = kl.single_label_counts(_codes(t, index), _codes(p, index), len(out))
    return {lab: Counts(int(tp[i]), int(fp[i]), int(fn[i]), int(tn[i])) for i, lab in enumerate(out)}


@declare(
    y=LABEL_DATA,
    labels=Nullable(LABEL_LIST),
    multilabel=Nullable(FLAG),
    relations=[Layout("y"), LabelSet("labels", "y")],
)
def label_frequencies(
    y: Sequence[Any] | ArrayLike, *, labels: Sequence[Hashable] | None = None, multilabel: bool | None = None
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
    >>> from apples.metrics import label_frequencies
    >>> label_frequencies(["a", "b", "b", "b"], labels=["a", "b", "c"])
    {'a': 0.25, 'b': 0.75, 'c': 0.0}
    """
    d = cast(LabelData, y)
    out = label_set(cast("list[Hashable] | None", labels), "ignore", d)
    index = {lab: i for i, lab in enumerate(out)}
    table = _table(d, index, is_multilabel(multilabel, d), False, "ignore")
    totals = np.asarray(table.sum(axis=0)).ravel()
    n = int(totals.sum())
    if n == 0:
        raise ParameterValueError("y holds no label occurrence; frequencies are undefined", param="y")
    return {lab: int(totals[i]) / n for i, lab in enumerate(out)}


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
        import pandas as pd

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


@declare(**_COUNTING, relations=_COUNTING_RELATIONS)
def split_confusion_matrix(
    y_true: Sequence[Any] | ArrayLike,
    y_pred: Sequence[Any] | ArrayLike,
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
    >>> from apples import split_confusion_matrix
    >>> m = split_confusion_matrix([["A"], ["A"]], [["B", "C"], ["A"]])   # Table 7
    >>> print(m.to_frame())
       A      B      C    Σ
    A  1  1\\0.5  1\\0.5    2
    B  0      0      0    0
    C  0      0      0    0
    Σ  1      1      1  3\\2
    """
    t, p = cast(LabelData, y_true), cast(LabelData, y_pred)
    ml = is_multilabel(multilabel, t, p)
    out = label_set(cast("list[Hashable] | None", labels), empty, t, p)
    index = {lab: i for i, lab in enumerate(out)}
    rows, cols, extra = kl.split_confusion(
        _table(t, index, ml, deduplicate, empty), _table(p, index, ml, deduplicate, empty)
    )
    if not extra:
        return SplitConfusionMatrix(out, rows[:-1, :-1], cols[:-1, :-1])
    if UNMATCHED in t.distinct or UNMATCHED in p.distinct:
        raise ParameterValueError(
            f"the data use {UNMATCHED!r} as a label, which the split matrix reserves for "
            "labels without a partner; rename that label",
            param="y_true" if UNMATCHED in t.distinct else "y_pred",
        )
    return SplitConfusionMatrix([*out, UNMATCHED], rows, cols)


class _ConfusionMatrix(Kind):
    what = "a square array of non-negative integer counts"

    def check(self, name: str, value: object) -> np.ndarray:
        m = np.asarray(value)
        if m.ndim != 2 or m.shape[0] != m.shape[1]:
            raise ValueError(f"{name} must be square (q, q), got shape {m.shape}")
        if m.dtype.kind in "iu":
            bad = np.argwhere((m < 0) | (m > 2**53))
            if bad.size:  # the first such cell, in the message of a count
                check_count(f"{name}[{bad[0][0]}, {bad[0][1]}]", int(m[tuple(bad[0])]))
        else:
            for (i, j), v in np.ndenumerate(m):
                check_count(f"{name}[{i}, {j}]", plain(v))
        return m.astype(np.int64)


class _Names(Kind):
    what = "a sequence of label names"

    def check(self, name: str, value: object) -> np.ndarray:
        if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
            raise TypeError(f"{name} must be a sequence of q label names, got {type(value).__name__}")
        names = [plain(x) for x in value]
        as_objects = np.empty(len(names), dtype=object)
        as_objects[:] = names
        check_labels_1d(name, as_objects)  # missing names, names of mixed types
        arr = np.array(names)
        return arr if arr.ndim == 1 else as_objects


class _Realisable(Relation):
    """One name per row of the matrix, and labels for all its instances within the memory limit."""

    def __init__(self, matrix: str, labels: str) -> None:
        self.names = (matrix, labels)

    def check(self, values: Mapping[str, Any]) -> None:
        m_name, l_name = self.names
        if m_name not in values:
            return
        m = values[m_name]
        names = values.get(l_name)
        if names is not None and len(names) != m.shape[0]:
            raise ParameterValueError(
                f"{l_name} has {len(names)} entries but {m_name} is {m.shape[0]} × {m.shape[0]}", param=l_name
            )
        n = sum(int(v) for v in m.ravel())
        itemsize = 8 if names is None else names.dtype.itemsize
        check_table_size(f"y_true and y_pred of {n:,} instances", 2 * n * itemsize, reduce=f"the counts in {m_name}")


@declare(matrix=_ConfusionMatrix(), labels=Nullable(_Names()), relations=[_Realisable("matrix", "labels")])
def labels_from_confusion_matrix(
    matrix: ArrayLike, labels: Sequence[Hashable] | None = None
) -> tuple[np.ndarray, np.ndarray]:
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
    >>> from apples import labels_from_confusion_matrix
    >>> t, p = labels_from_confusion_matrix([[1, 2], [0, 1]], ["a", "b"])
    >>> t.tolist(), p.tolist()
    (['a', 'a', 'a', 'b'], ['a', 'b', 'b', 'b'])
    """
    m = np.asarray(matrix)
    names = np.arange(m.shape[0]) if labels is None else np.asarray(labels)
    return kl.labels_from_matrix(m, names)
