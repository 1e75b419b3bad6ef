"""The kinds of parameter apples takes, each declared once with its check.

A kind is called with the argument's name and value and returns the value converted to what
the function computes with; a bad value raises a ValueError or TypeError naming the argument
(as :class:`~apples._params.errors.ParameterValueError` / ``ParameterTypeError``). The kinds of
apples' own types live beside those types (``COUNTS`` in :mod:`apples.metrics.counts`, the
binormal model in :mod:`apples.theory.binormal`), built from the generic kinds here.

==================  ========================================================  ========================
kind                accepts                                                   becomes
==================  ========================================================  ========================
``LABELS``          1-d array-like of class labels of one type, no missing    numpy array
``FOLD_IDS``        1-d array-like of fold ids (checked as labels)            numpy array
``REPEAT_IDS``      1-d array-like of repeat ids (checked as labels)          numpy array
``SCORES``          1-d array-like of finite reals (integers kept exact)      float64 / integer array
``LABEL``           one label: a string, number or bool, not missing          the value
``LABEL_SET``       1-d array-like of distinct labels, not empty              list
``Real(...)``       a real number in a range                                  float
``RealArray(...)``  a real number or array of them in a range                 float64 array (0-d for
                                                                              a scalar)
``Integer(...)``    an integer in a range (not bool, not 3.0)                 int
``COUNT``           a non-negative integer up to 2**53                        int
``SEED``            a non-negative integer or a numpy Generator               the value
``STATED_SEED``     a non-negative integer (a seed a report states)           int
``CONFIDENCE``      a real strictly between 0 and 1                           float
``FLAG``            True or False                                             bool
``Options(...)``    one of the listed strings                                 the string
``Undefined(...)``  one of the listed 0/0 policies                            the string
``Instance(cls)``   an instance of ``cls``                                    the value
``SequenceOf(k)``   a non-empty sequence of values of kind ``k``              list
``MappingOf(k, v)`` a mapping with keys of kind ``k`` and values of kind ``v``  dict
``Frame(...)``      a pandas DataFrame holding the named columns              the value
``Nullable(k)``     None, or a value of kind ``k``                            None or as ``k``
==================  ========================================================  ========================
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from apples._params.checks import (
    MAX_EXACT_INT,
    check_bool,
    check_choice,
    check_count,
    check_frame,
    check_int,
    check_real,
    check_real_array,
    check_scores,
    check_seed,
    check_table_size,
)
from apples._params.declare import Kind
from apples._params.label_checks import (
    check_label,
    check_labels_1d,
    check_same_label_kind,
    is_missing,
)

__all__ = [
    "CONFIDENCE",
    "COUNT",
    "FLAG",
    "FOLD_IDS",
    "LABEL",
    "LABELS",
    "LABEL_SET",
    "REPEAT_IDS",
    "SCORES",
    "SEED",
    "STATED_SEED",
    "Frame",
    "Instance",
    "Integer",
    "Labels",
    "MappingOf",
    "Nullable",
    "Options",
    "Real",
    "RealArray",
    "SequenceOf",
    "Size",
]


class Labels(Kind):
    """A one-dimensional array of labels (or of ids: folds, repeats) of one type, without missing values."""

    def __init__(self, what: str = "a one-dimensional array of labels") -> None:
        self.what = what

    def check(self, name: str, value: object) -> np.ndarray:
        return check_labels_1d(name, value)


class _Scores(Kind):
    what = "a one-dimensional array of finite real scores"

    def check(self, name: str, value: object) -> np.ndarray:
        return check_scores(name, value)


class _Label(Kind):
    what = "one label: a string, a number or a bool"

    def check(self, name: str, value: object) -> object:
        return check_label(name, value)


class _LabelSet(Kind):
    what = "a one-dimensional array-like of distinct labels"

    def check(self, name: str, value: object) -> list:
        arr = check_labels_1d(name, value)
        if arr.size == 0:
            raise ValueError(f"{name} is empty; give every label of the task")
        out = arr.tolist()
        if len(set(out)) != len(out):
            raise ValueError(f"{name} has duplicates: {[v for v in dict.fromkeys(out) if out.count(v) > 1][:5]}")
        return out


class Real(Kind):
    """A real number (not bool), optionally in a range; becomes a Python float."""

    def __init__(
        self,
        low: float | None = None,
        high: float | None = None,
        *,
        low_inclusive: bool = True,
        high_inclusive: bool = True,
        finite: bool = True,
    ) -> None:
        self.bounds = dict(low=low, high=high, low_inclusive=low_inclusive, high_inclusive=high_inclusive)
        self.finite = finite
        lo = "-inf" if low is None else f"{low:g}"
        hi = "inf" if high is None else f"{high:g}"
        self.what = f"a real number in {'[' if low_inclusive else '('}{lo}, {hi}{']' if high_inclusive else ')'}"

    def check(self, name: str, value: object) -> float:
        return check_real(name, value, finite=self.finite, **self.bounds)  # type: ignore[arg-type]


class RealArray(Kind):
    """A real number or an array of them (a threshold, a cost, a rate), optionally in a range."""

    def __init__(
        self,
        low: float | None = None,
        high: float | None = None,
        *,
        low_inclusive: bool = True,
        high_inclusive: bool = True,
        finite: bool = False,
    ) -> None:
        self.bounds = dict(low=low, high=high, low_inclusive=low_inclusive, high_inclusive=high_inclusive)
        self.finite = finite
        self.what = "a real number or an array of real numbers"

    def check(self, name: str, value: object) -> np.ndarray:
        return check_real_array(name, value, finite=self.finite, **self.bounds)  # type: ignore[arg-type]


class Integer(Kind):
    """An integer (not bool, not 3.0) in ``[low, high]``; becomes a Python int."""

    def __init__(self, low: int | None = None, high: int | None = None) -> None:
        self.low, self.high = low, high
        self.what = (
            "an integer" + (f" >= {low}" if low is not None else "") + (f" <= {high}" if high is not None else "")
        )

    def check(self, name: str, value: object) -> int:
        return check_int(name, value, low=self.low, high=self.high)


class Size(Kind):
    """A positive integer that sets how much is computed or stored (resamples, repetitions, cases).

    With ``bytes_each``, a value whose ``bytes_each · value`` bytes would pass the memory limit of
    :func:`~apples._params.checks.check_table_size` is refused up front, saying what it is for.
    """

    def __init__(self, *, bytes_each: int | None = None, table: str = "the result") -> None:
        self.bytes_each = bytes_each
        self.table = table
        self.what = "a positive integer"

    def check(self, name: str, value: object) -> int:
        n = check_int(name, value, low=1, high=MAX_EXACT_INT)
        if self.bytes_each is not None:
            check_table_size(f"{name}={n:,}: {self.table}", n * self.bytes_each, reduce=name)
        return n


class _Jobs(Kind):
    what = "a number of parallel jobs: a positive integer, or -1 for every core, -2 for all but one, ..."

    def check(self, name: str, value: object) -> int:
        n = check_int(name, value, low=-(2**31), high=2**31 - 1)
        if n == 0:
            raise ValueError(f"{name}=0 runs nothing; pass 1 (no parallelism), a larger number, or -1 for every core")
        return n


class _Count(Kind):
    what = "a non-negative integer count up to 2**53"

    def check(self, name: str, value: object) -> int:
        return check_count(name, value)


class _Seed(Kind):
    what = "a non-negative integer (any size) or a numpy.random.Generator"

    def check(self, name: str, value: object) -> int | np.random.Generator:
        if isinstance(value, np.random.Generator):
            return value
        return check_seed(name, value)


class _StatedSeed(Kind):
    what = "the non-negative integer seed a splitter was given (random_state=)"

    def check(self, name: str, value: object) -> int:
        if isinstance(value, np.random.Generator):
            raise TypeError(
                f"{name} must be {self.what}: a numpy Generator has no number a methods section can state; give the "
                "integer the Generator was made from"
            )
        return check_seed(name, value)


class _Flag(Kind):
    what = "True or False"

    def check(self, name: str, value: object) -> bool:
        return check_bool(name, value)


class Options(Kind):
    """One of a fixed set of strings (a method, an average, a format)."""

    def __init__(self, *choices: str) -> None:
        self.choices = choices
        self.what = "one of " + ", ".join(repr(c) for c in choices)

    def check(self, name: str, value: object) -> str:
        return check_choice(name, value, self.choices)


class Instance(Kind):
    """An instance of one class; ``hint`` tells how to make one from what a user has."""

    def __init__(self, cls: type, *, hint: str = "", what: str | None = None) -> None:
        self.cls = cls
        self.hint = hint
        self.what = what or f"an {cls.__module__.split('.')[0]}.{cls.__name__}"

    def check(self, name: str, value: object) -> Any:
        if not isinstance(value, self.cls):
            hint = f" ({self.hint})" if self.hint else ""
            raise TypeError(f"{name} must be {self.what}{hint}, got {type(value).__name__}")
        return value


class SequenceOf(Kind):
    """A non-empty sequence (not a string) of values of one kind; becomes a list of the converted values."""

    def __init__(self, item: Kind, *, what: str | None = None) -> None:
        self.item = item
        self.what = what or f"a sequence of {item.what}"

    def check(self, name: str, value: object) -> list:
        if isinstance(value, self.item.cls if isinstance(self.item, Instance) else ()):
            raise TypeError(f"{name} must be {self.what}, got a single {type(value).__name__}")
        if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
            raise TypeError(f"{name} must be {self.what}, got {type(value).__name__}")
        items = list(value)
        if not items:
            raise ValueError(f"{name} is empty; it must be {self.what}")
        return [self.item.check(f"{name}[{i}]", v) for i, v in enumerate(items)]


class MappingOf(Kind):
    """A non-empty mapping; keys and values checked by their kinds (keys as labels by default)."""

    def __init__(self, value: Kind, *, key: Kind | None = None, what: str | None = None) -> None:
        self.key = key
        self.value = value
        self.what = what or f"a mapping of labels to {value.what}"

    def check(self, name: str, value: object) -> dict:
        if not isinstance(value, Mapping):
            raise TypeError(f"{name} must be {self.what}, got {type(value).__name__}")
        if not value:
            raise ValueError(f"{name} is empty; it must be {self.what}")
        keys = list(value)
        for i, k in enumerate(keys):
            if is_missing(k):
                raise ValueError(f"{name} has a missing value ({k!r}) as a key")
            if self.key is not None:
                self.key.check(f"key {i} of {name}", k)
        check_same_label_kind(**{f"the keys of {name}": np.array(keys, dtype=object)})
        return {k: self.value.check(f"{name}[{k!r}]", v) for k, v in value.items()}


class Frame(Kind):
    """A pandas DataFrame holding the given columns; ``source`` says where such a table comes from."""

    def __init__(self, columns: Sequence[str], *, source: str | None = None) -> None:
        self.columns = tuple(columns)
        self.source = source
        self.what = "a pandas DataFrame" + (f" ({source})" if source else "")

    def check(self, name: str, value: object) -> Any:
        return check_frame(name, value, self.columns, what=self.source)


class Nullable(Kind):
    """None (a parameter's "not given"), or a value of another kind."""

    def __init__(self, kind: Kind) -> None:
        self.kind = kind
        self.what = f"None or {kind.what}"

    def check(self, name: str, value: object) -> Any:
        return None if value is None else self.kind.check(name, value)


LABELS = Labels()
FOLD_IDS = Labels("a one-dimensional array of fold ids, one per case")
REPEAT_IDS = Labels("a one-dimensional array of repeat ids, one per case")
SCORES = _Scores()
LABEL = _Label()
LABEL_SET = _LabelSet()
COUNT = _Count()
SEED = _Seed()
#: A seed to be stated (the report's header, a methods section): an integer, never a Generator.
STATED_SEED = _StatedSeed()
FLAG = _Flag()
#: The number of cases of a training or test set: a positive integer up to 2**53.
CASES = Integer(1, MAX_EXACT_INT)
#: Parallel jobs for joblib (``n_jobs``).
N_JOBS = _Jobs()
CONFIDENCE = Real(0.0, 1.0, low_inclusive=False, high_inclusive=False)
