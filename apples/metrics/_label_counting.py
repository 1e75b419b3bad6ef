"""The kinds and relations of label data, single- or multi-label (used by :mod:`apples.metrics.multilabel`).

``y_true``, ``y_pred`` (and ``y``) hold one label per instance, or one collection of labels per
instance (a list, tuple, set, 1-d array or Counter; ``[]`` for none). The kind :data:`LABEL_DATA`
checks every label (not missing, hashable, not nested, one type) and returns a :class:`LabelData`;
plain input is checked without a Python loop per label: a numpy array of numbers or strings, and
lists of lists (tuples, sets) whose labels are all ``str`` or all ``int``. The relations check what
needs several arguments: equal lengths, single- against multi-label (the ``multilabel=`` flag,
ragged input), one label type on both sides, the reserved label of ``empty="label"``, and an
explicit label set that holds every label of the data.
"""

from __future__ import annotations

import contextlib
import sys
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from itertools import chain
from typing import Any, NamedTuple, cast

import numpy as np

from apples._params import Kind, Relation, check_labels_1d, is_missing, label_kind

__all__: list[str] = []

#: The label that stands for an empty label collection (Van Asch §5.3).
NONE_LABEL = "NONE"

_COLLECTIONS = (list, tuple, set, frozenset, np.ndarray, Counter)
_PLAIN_COLLECTIONS = (list, tuple, set, frozenset)


def plain(x: Any) -> Any:
    """numpy scalars become Python scalars, so dict keys print cleanly."""
    return x.item() if isinstance(x, np.generic) else x


class LabelData(NamedTuple):
    """Checked label data: per instance a label, or a collection of labels."""

    items: Sequence[Any] | np.ndarray  #: one label, or one collection of labels (iterable, flat), per instance
    layout: str  #: "single" (labels), "multi" (collections), "mixed" (both), or "none" (no instance)
    distinct: list[Any]  #: the distinct labels (sorted for an array, else in order of appearance)
    kind: str  #: the labels' kind ("str", "number", ...; "empty" without any label)
    given: Sequence[Any] | np.ndarray  #: the instances as given (for messages)

    def multilabel(self) -> bool | None:
        """True when every instance is a collection, False when none is, None when mixed or without instances."""
        return {"single": False, "multi": True}.get(self.layout)

    def collections(self) -> np.ndarray:
        """Whether each instance (as given) is a label collection."""
        if self.layout in ("single", "multi", "none"):
            return np.full(len(self.given), self.layout == "multi")
        return np.array([isinstance(x, _COLLECTIONS) for x in self.given], dtype=bool)


def _check_label(name: str, where: str, x: object) -> Hashable:
    """One label of a label set: any hashable, not missing."""
    x = plain(x)
    if is_missing(x):  # None, NaN, pd.NA, NaT
        what = "None" if x is None else "NaN" if isinstance(x, float) else f"a missing value ({x!r})"
        raise ValueError(f"{name}{where} is {what}; labels must be real values (use [] for no label)")
    try:
        hash(x)
    except TypeError:
        raise TypeError(f"{name}{where} must be a hashable label, got {type(x).__name__}") from None
    return x


def _is_pandas(value: object) -> bool:
    """A pandas Series or Index (without importing pandas: if it is not imported, value is neither)."""
    pd = sys.modules.get("pandas")
    return pd is not None and isinstance(value, (pd.Series, pd.Index))


class _LabelData(Kind):
    what = "a sequence of labels, or of label collections (one per instance)"

    def check(self, name: str, value: object) -> LabelData:
        if isinstance(value, (str, bytes)):
            raise TypeError(f"{name} must be a sequence of labels or of label collections, got a string")
        if isinstance(value, np.ndarray):
            if value.ndim == 0:
                raise ValueError(f"{name} must be one-dimensional, got a scalar array")
            if value.ndim > 1:
                raise ValueError(
                    f"{name} is a {value.ndim}-dimensional array of shape {value.shape}; pass a 1-d array of "
                    "labels, or for multi-label data a sequence of label collections (e.g. "
                    "MultiLabelBinarizer.inverse_transform of an indicator matrix)"
                )
            if value.dtype.kind in "biufUS":
                return _label_array(name, value)
            items = list(value)
        elif _is_pandas(value):
            items = list(cast(Iterable, value))
        elif isinstance(value, (Mapping, set, frozenset)) or not isinstance(value, Iterable):
            raise TypeError(f"{name} must be a sequence (one entry per instance), got {type(value).__name__}")
        else:
            items = list(value)
        return _plain_lists(items) or _checked_items(name, items)


def _label_array(name: str, arr: np.ndarray) -> LabelData:
    """A numpy array of numbers, bools or strings: one label per instance, checked without a loop."""
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        i = int(np.flatnonzero(np.isnan(arr))[0])
        raise ValueError(f"{name}[{i}] is NaN; labels must be real values (use [] for no label)")
    arr = check_labels_1d(name, arr)
    layout = "single" if arr.size else "none"
    return LabelData(arr, layout, [plain(x) for x in np.unique(arr)], label_kind(arr) if arr.size else "empty", arr)


def _integer_type(t: type) -> bool:
    """``int`` or a numpy integer type (``rng.choice`` and iterating an integer array give those); not bool."""
    return t is int or issubclass(t, np.integer)


def _plain_lists(items: list) -> LabelData | None:
    """Lists (tuples, sets) of labels that are all ``str`` or all integers (Python or numpy): valid as they are.

    None for any other input, which the general path checks label by label. The distinct labels are
    Python scalars (numpy integers become ``int``), as the general path gives them.
    """
    if not items or not all(type(x) in _PLAIN_COLLECTIONS for x in items):
        return None
    try:
        seen = set(chain.from_iterable(items))
    except TypeError:  # an unhashable label (a nested list): the general path names it
        return None
    kinds = {type(lab) for lab in seen}
    if kinds == {str}:
        return LabelData(items, "multi", list(seen), "str", items)
    if not kinds or not all(_integer_type(t) for t in kinds):
        return None
    distinct = list(seen) if kinds == {int} else list({plain(lab) for lab in seen})
    return LabelData(items, "multi", distinct, "number", items)


def _checked_items(name: str, items: list) -> LabelData:
    """Any other input: every label checked, collections read as flat lists of labels."""
    flags = [isinstance(x, _COLLECTIONS) for x in items]
    out: list[Any] = []
    occurrences: list[Any] = []
    for i, (x, is_collection) in enumerate(zip(items, flags, strict=True)):
        if not is_collection:
            label = _check_label(name, f"[{i}]", x)
            occurrences.append(label)
            out.append(label)
            continue
        if isinstance(x, np.ndarray) and x.ndim != 1:
            raise ValueError(f"{name}[{i}] must be a flat collection of labels, got shape {x.shape}")
        labels = []
        for j, lab in enumerate(x.elements() if isinstance(x, Counter) else x):
            if isinstance(lab, _COLLECTIONS):
                raise ValueError(f"{name}[{i}][{j}] is a collection; labels cannot be nested")
            labels.append(_check_label(name, f"[{i}][{j}]", lab))
        occurrences += labels
        out.append(labels)
    checked = check_labels_1d(name, occurrences)  # one type of label over all instances
    kind = label_kind(checked) if checked.size else "empty"
    layout = "none" if not items else "multi" if all(flags) else "mixed" if any(flags) else "single"
    return LabelData(out, layout, list(dict.fromkeys(occurrences)), kind, items)


#: The kind of ``y_true``, ``y_pred`` and ``y`` of the label-counting functions.
LABEL_DATA = _LabelData()


class _LabelList(Kind):
    what = "a sequence of distinct labels"

    def check(self, name: str, value: object) -> list[Hashable]:
        if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
            raise TypeError(f"{name} must be a sequence of labels, got {type(value).__name__}")
        out = [_check_label(name, f"[{i}]", lab) for i, lab in enumerate(value)]
        dup = [lab for lab, n in Counter(out).items() if n > 1]
        if dup:
            raise ValueError(f"{name} has duplicates: {dup!r}")
        return out


#: The kind of an explicit label set ``labels=`` (its label type is checked against the data by :class:`LabelSet`).
LABEL_LIST = _LabelList()


def is_multilabel(multilabel: bool | None, *data: LabelData) -> bool:
    """Whether checked data are multi-label: as given, else as detected (no instance: single-label)."""
    if multilabel is not None:
        return multilabel
    return any(d.multilabel() for d in data)


def _kind_of(item: object) -> str:
    return "a label collection" if isinstance(item, _COLLECTIONS) else "a single label"


class Layout(Relation):
    """Label data of one length, all single-label or all multi-label (as ``multilabel=`` says), of one label type.

    With ``empty="label"`` the data must be multi-label, and must not use the reserved label ``"NONE"``.
    """

    def __init__(self, *arrays: str, multilabel: str = "multilabel", empty: str | None = None) -> None:
        self.arrays = arrays
        self.flag = multilabel
        self.empty = empty
        self.names = (*arrays, multilabel) + ((empty,) if empty else ())

    def check(self, values: Mapping[str, Any]) -> None:
        data = {n: values[n] for n in self.arrays if n in values}
        if len(data) < len(self.arrays):
            return
        lengths = {n: len(d.items) for n, d in data.items()}
        if len(set(lengths.values())) > 1:
            detail = ", ".join(f"{n} has {k} instances" for n, k in lengths.items())
            raise ValueError(f"inconsistent lengths: {detail}")
        flag = values.get(self.flag)
        detected = {n: self._detect(n, d, flag) for n, d in data.items()}
        if len(set(detected.values())) > 1 and all(lengths.values()):
            a, b = list(detected)[:2]
            raise ValueError(
                f"{a} and {b} disagree: one holds label collections (multi-label), the other single labels"
            )
        multilabel = is_multilabel(flag, *data.values())
        empty = values.get(self.empty) if self.empty else None
        if empty == "label" and not multilabel:
            raise ValueError("empty='label' applies to multi-label data only; single-label data has no empty instance")
        if empty == "label":
            for n, d in data.items():
                if NONE_LABEL in d.distinct:
                    i = next(i for i, x in enumerate(d.items) if NONE_LABEL in x)
                    raise ValueError(
                        f"{n}[{i}] uses {NONE_LABEL!r} as a real label, which empty='label' reserves for "
                        "empty collections; rename that label or use empty='ignore'"
                    )
        kinds = {n: d.kind for n, d in data.items() if d.kind != "empty"}
        if len(set(kinds.values())) > 1:
            detail = ", ".join(f"{n} holds {k} labels" for n, k in kinds.items())
            raise TypeError(f"mix of label types: {detail}; use labels of one type")

    @staticmethod
    def _detect(name: str, d: LabelData, flag: bool | None) -> bool | None:
        """Whether ``d`` is multi-label; the ValueError of ragged input or of a contradicted ``multilabel=``."""
        items = d.given
        if flag is None:
            if d.layout == "mixed":
                flags = d.collections()
                i = int(np.flatnonzero(flags != flags[0])[0])
                raise ValueError(
                    f"{name} is ragged: {name}[0] is {_kind_of(items[0])} but {name}[{i}] is "
                    f"{_kind_of(items[i])} ({items[i]!r}); use a collection for every instance (multi-label) "
                    "or a single label for every instance"
                )
            return d.multilabel()
        if flag and d.layout in ("single", "mixed"):
            i = int(np.flatnonzero(~d.collections())[0])
            raise ValueError(
                f"multilabel=True but {name}[{i}] is a single label {items[i]!r}, not a collection of labels "
                "(write [label], or [] for none)"
            )
        if not flag and d.layout in ("multi", "mixed"):
            i = int(np.flatnonzero(d.collections())[0])
            raise ValueError(
                f"multilabel=False but {name}[{i}] is a collection {items[i]!r}; pass multilabel=True for "
                "multi-label data"
            )
        return flag


class LabelSet(Relation):
    """An explicit label set holds every label of the data, of their type; without one, the data hold a label.

    With ``empty="label"`` the reserved label ``"NONE"`` may be in the label set (it is moved last).
    """

    def __init__(self, labels: str, *arrays: str, empty: str | None = None) -> None:
        self.labels = labels
        self.arrays = arrays
        self.empty = empty
        self.names = (labels, *arrays) + ((empty,) if empty else ())

    def check(self, values: Mapping[str, Any]) -> None:
        data = {n: values[n] for n in self.arrays if n in values}
        if len(data) < len(self.arrays):
            return
        reserved = self.empty is not None and values.get(self.empty) == "label"
        where = " and ".join(data)
        labels = values.get(self.labels)
        if labels is None:
            if not reserved and not any(d.distinct for d in data.values()):
                raise ValueError(
                    f"there are no labels: {where} {'is' if len(data) == 1 else 'are'} empty and labels= was not given"
                )
            return
        given = check_labels_1d(self.labels, [lab for lab in labels if not (reserved and lab == NONE_LABEL)])
        kinds = {d.kind for d in data.values() if d.kind != "empty"}
        if given.size and kinds and label_kind(given) not in kinds:
            raise TypeError(
                f"mix of label types: labels holds {label_kind(given)} labels, {where} holds "
                f"{', '.join(sorted(kinds))} labels; use labels of one type"
            )
        known = set(labels)
        for n, d in data.items():
            unknown = sorted(
                {repr(lab) for lab in d.distinct if lab not in known and not (reserved and lab == NONE_LABEL)}
            )
            if unknown:
                raise ValueError(
                    f"{n} contains label(s) {', '.join(unknown[:5])}{' ...' if len(unknown) > 5 else ''} "
                    "that are not in labels=; the label set must hold every label of the data "
                    "(dropping one would change the micro average)"
                )
        if not given.size and not reserved:
            raise ValueError(f"there are no labels: labels= is empty and {where} hold none")


def label_set(labels: list[Hashable] | None, empty: str, *data: LabelData) -> list[Hashable]:
    """The label set of checked data: ``labels`` as given, or the data's labels sorted (in order if unsortable).

    With ``empty="label"`` the reserved label ``"NONE"`` comes last.
    """
    reserved = empty == "label"
    if labels is None:
        seen: dict[Any, None] = {}
        for d in data:
            seen.update(dict.fromkeys(d.distinct))
        out = [lab for lab in seen if not (reserved and lab == NONE_LABEL)]
        with contextlib.suppress(TypeError):  # unsortable labels stay in order of appearance
            out = sorted(out)
    else:
        out = [lab for lab in labels if not (reserved and lab == NONE_LABEL)]
    return [*out, NONE_LABEL] if reserved else out
