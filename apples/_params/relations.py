"""Rules between the arguments of one call, checked after each argument alone."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from apples._params.checks import (
    check_same_length,
)
from apples._params.declare import Relation
from apples._params.errors import ParameterTypeError, ParameterValueError
from apples._params.label_checks import (
    check_label_kind,
    check_pos_label,
    check_same_label_kind,
    unique_labels,
)

__all__ = [
    "BinaryLabels",
    "LabelOf",
    "OneLabelKind",
    "SameLength",
    "TwoClasses",
]


class SameLength(Relation):
    """The named arrays (one value per case) have one length."""

    def __init__(self, *names: str) -> None:
        self.names = names

    def check(self, values: Mapping[str, Any]) -> None:
        check_same_length(**values)


class OneLabelKind(Relation):
    """The named label arrays hold labels of one kind (``[1, 2]`` against ``["1", "2"]`` never match)."""

    def __init__(self, *names: str) -> None:
        self.names = names

    def check(self, values: Mapping[str, Any]) -> None:
        check_same_label_kind(**values)


class LabelOf(Relation):
    """A label argument (``pos_label``) is of the kind of the labels in the named arrays.

    With ``present=True`` it must also be one of them when they hold two or more labels (a fold
    without positives is valid data, so one label alone never refutes it).
    """

    def __init__(self, label: str, *arrays: str, present: bool = True) -> None:
        self.names = (label, *arrays)
        self.present = present

    def check(self, values: Mapping[str, Any]) -> None:
        label_name = self.names[0]
        if label_name not in values:
            return
        arrays = [values[n] for n in self.names[1:] if n in values]
        if not arrays:
            return
        where = " and ".join(n for n in self.names[1:] if n in values)
        both = np.concatenate(arrays) if len(arrays) > 1 else arrays[0]
        found = unique_labels(where, both) if both.size else both
        check_label_kind(label_name, values[label_name], found, where=where)
        if self.present and found.size >= 2 and values[label_name] not in found.tolist():
            raise ValueError(
                f"{label_name}={values[label_name]!r} is not one of the labels in {where} {found[:5].tolist()}"
            )


class BinaryLabels(Relation):
    """The label arrays hold at most two distinct labels together, and the label argument is the positive one.

    With two labels the positive label must be one of them; with one, it need only be of their kind
    (a fold without positives and without positive predictions is valid data).
    """

    def __init__(self, label: str, *arrays: str) -> None:
        self.names = (label, *arrays)

    def check(self, values: Mapping[str, Any]) -> None:
        arrays = [values[n] for n in self.names[1:] if n in values]
        where = " and ".join(n for n in self.names[1:] if n in values)
        both = np.concatenate(arrays) if len(arrays) > 1 else arrays[0]
        found = unique_labels(where, both) if both.size else both
        if found.size > 2:
            raise ValueError(
                f"{where} together hold {found.size} distinct labels {found[:5].tolist()}; "
                "binary counts need at most two"
            )
        if self.names[0] not in values:
            return
        if found.size == 2:
            check_pos_label(values[self.names[0]], found, name=self.names[0], where=where)
        else:
            check_label_kind(self.names[0], values[self.names[0]], found, where=where)


class TwoClasses(Relation):
    """The labels of a scoring problem: not empty, at most two classes, and the label argument the positive one.

    With two classes the positive label must be one of them; with one, it need only be of their
    kind: a fold without positives (or without negatives) is valid data, and each measure says
    whether it is defined there (AUC is not, precision at k is). Unlike :class:`BinaryLabels`, it
    reads one array of true labels, refuses an empty one, and says "classes" as the ranking
    measures' messages do.
    """

    def __init__(self, label: str, array: str) -> None:
        self.names = (array, label)

    def check(self, values: Mapping[str, Any]) -> None:
        array_name, label_name = self.names
        if array_name not in values:
            return
        arr = values[array_name]
        if arr.size == 0:
            raise ValueError(f"{array_name} is empty")
        found = unique_labels(array_name, arr)
        if found.size > 2:
            raise ValueError(f"{array_name} must hold two classes, got {found.size}: {found[:5].tolist()}")
        if label_name not in values:
            return
        try:
            if found.size == 2:
                check_pos_label(values[label_name], found, name=label_name, where=array_name)
            else:
                check_label_kind(label_name, values[label_name], found, where=array_name)
        except TypeError as err:
            raise ParameterTypeError(str(err), param=label_name) from None
        except ValueError as err:
            raise ParameterValueError(str(err), param=label_name) from None


class SkipNeedsAverage(Relation):
    """``undefined="skip"`` leaves undefined folds out of a per-fold average; a pooled ``method`` has none.

    One rule for every cross-validated measure: F_tp,fp (``method="tp_fp"``) and AUC_merge
    (``method="merge"``) pool the folds before computing, so only the pooled value can be 0/0
    and ``"raise"``, ``"nan"`` (or ``"zero"``) say what then happens.
    """

    def __init__(self, *pooled: str, undefined: str = "undefined", method: str = "method") -> None:
        self.names = (undefined, method)
        self.pooled = pooled

    def check(self, values: Mapping[str, Any]) -> None:
        undefined, method = (values.get(n) for n in self.names)
        if undefined == "skip" and method in self.pooled:
            raise ValueError(
                f"{self.names[0]}='skip' leaves undefined folds out of a per-fold average, and "
                f"{self.names[1]}={method!r} pools the folds first: pass 'raise' or 'nan' (or 'zero' where allowed)"
            )
