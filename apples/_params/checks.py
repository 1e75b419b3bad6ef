"""The checks behind the kinds of :mod:`apples._params.kinds`: one function per rule, messages of one shape.

Each names the argument, says what was expected and what came, and raises a ValueError or a
TypeError (the kinds turn them into :class:`~apples._params.errors.ParameterValueError` and
``ParameterTypeError``, which carry the argument's name). Relations between arguments
(:mod:`apples._params.relations`) and the study modules' own kinds call them too.
"""

from __future__ import annotations

import datetime
import math
import numbers
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from apples._params.errors import ParameterValueError

if TYPE_CHECKING:  # pandas is imported where a table is checked
    import pandas as pd


__all__ = [
    "MAX_EXACT_INT",
    "MAX_TABLE_BYTES",
    "check_bool",
    "check_choice",
    "check_cost",
    "check_count",
    "check_fold_lists",
    "check_folds_cases",
    "check_frame",
    "check_int",
    "check_int_at_least",
    "check_label",
    "check_label_kind",
    "check_labels_1d",
    "check_pos_label",
    "check_positive",
    "check_real",
    "check_real_array",
    "check_same_label_kind",
    "check_same_length",
    "check_scores",
    "check_seed",
    "check_table_size",
    "default_pos_label",
    "float_or_array",
    "is_missing",
    "label_kind",
    "rng_from_seed",
    "unique_labels",
]

#: Largest integer a float64 holds exactly; counts and integer scores beyond it
#: would silently collapse when converted to float.
MAX_EXACT_INT = 2**53


_Choice = TypeVar("_Choice", bound=str)


def check_choice(name: str, value: object, choices: tuple[_Choice, ...]) -> _Choice:
    """Return ``value`` if it is one of ``choices``, else raise a ValueError naming ``name``."""
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name}={value!r} is not recognised; expected one of " + ", ".join(repr(c) for c in choices))
    return value  # narrowed by `in choices` to their (Literal) type


def check_count(name: str, value: object) -> int:
    """A non-negative integer count, returned as a Python ``int``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a non-negative integer count, got {value!r} ({type(value).__name__})")
    value = int(value)
    if value < 0:
        raise ValueError(f"{name} must be a non-negative integer count, got {_shown_int(value)}")
    if value > MAX_EXACT_INT:
        raise ValueError(
            f"{name}={_shown_int(value)} is larger than 2**53, the largest count that float arithmetic holds exactly"
        )
    return value


def _shown_int(value: int) -> str:
    """An integer for a message: itself when short, else its size (``str`` of a 5,000-digit int raises)."""
    if abs(value) < 10**20:
        return str(value)
    return f"<an integer of about {int(value.bit_length() * 0.30103) + 1} digits>"


def check_seed(name: str, value: object) -> int:
    """A seed: a non-negative integer of any size, as a Python ``int``. The one seed contract of apples.

    What :class:`numpy.random.SeedSequence` accepts as entropy: 0, 1, ...,
    2**70 and beyond (a seed is entropy, not a count, so the 2**53 limit of
    :func:`check_count` does not apply). A TypeError naming ``name`` for
    anything that is not an integer (``None``, a bool, a float, a str), a
    ValueError for a negative one. :func:`rng_from_seed` uses it for
    integer seeds.

    Examples
    --------
    >>> check_seed("seed", 2**70)
    1180591620717411303424
    >>> check_seed("seed", -1)
    Traceback (most recent call last):
    ...
    ValueError: seed must be a non-negative integer (any size), got -1
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a non-negative integer (any size), got {value!r:.80} ({type(value).__name__})")
    value = int(value)
    if value < 0:
        raise ValueError(f"{name} must be a non-negative integer (any size), got {_shown_int(value)}")
    return value


def _label_kind(value: object) -> str:
    """ "str", "number", "datetime", "timedelta" or the type name: labels of different kinds cannot be compared."""
    if isinstance(value, (str, np.str_, bytes, np.bytes_)):
        return "str"
    if isinstance(value, (numbers.Number, np.number, np.bool_)) and not isinstance(value, np.timedelta64):
        return "number"
    if isinstance(value, (np.datetime64, datetime.datetime, datetime.date)):
        return "datetime"
    if isinstance(value, (np.timedelta64, datetime.timedelta)):
        return "timedelta"
    return type(value).__name__


def is_missing(value: object) -> bool:
    """None, NaN (float or numpy), pd.NA or NaT."""
    if value is None:
        return True
    if isinstance(value, (float, np.floating)):
        return value != value
    if isinstance(value, (np.datetime64, np.timedelta64)):
        return bool(np.isnat(value))
    # pandas.NA and pandas.NaT without importing pandas
    return type(value).__name__ in ("NAType", "NaTType")


def check_labels_1d(name: str, values: Any) -> np.ndarray:
    """A one-dimensional array of class labels (or fold ids) of one kind, without missing values.

    Rejects, with an error naming ``name``: more than one dimension (ValueError),
    ``None``, NaN, ``pd.NA`` or NaT (ValueError), labels of mixed kinds such as
    ``[1, "a"]`` (TypeError; numpy would silently turn the 1 into ``"1"``),
    complex numbers (TypeError), and continuous values (ValueError): a float
    that is not a whole number, such as a probability 0.3 passed where
    predicted labels belong, or an infinite one would each become a class of
    its own (scikit-learn's ``type_of_target`` calls such input "continuous"
    and refuses it). Whole-number floats such as ``1.0`` are labels. Pandas
    input (a nullable ``Int64`` column included) is accepted; its missing
    values are rejected like any other.

    Examples
    --------
    >>> check_labels_1d("y_true", [0, 1, 1]).tolist()
    [0, 1, 1]
    >>> check_labels_1d("y_true", [1, None])
    Traceback (most recent call last):
    ...
    apples._params.errors.ParameterValueError: y_true contains a missing value (None) at position 1
    >>> check_labels_1d("y_true", [1, "a"])
    Traceback (most recent call last):
    ...
    TypeError: y_true mixes label types (number and str); use labels of one type
    >>> check_labels_1d("y_pred", [0.0, 1.0, 0.3])
    Traceback (most recent call last):
    ...
    apples._params.errors.ParameterValueError: y_pred holds 0.3 at position 2, a continuous value: labels are classes (whole numbers, strings or bools), not scores or probabilities
    """  # noqa: E501  (an exception message in a doctest cannot be wrapped)
    if isinstance(values, (str, bytes)) or (np.ndim(values) == 0 and not hasattr(values, "__len__")):
        raise TypeError(f"{name} must be a one-dimensional array-like of labels, got {type(values).__name__}")
    if hasattr(values, "to_numpy") and not isinstance(values, np.ndarray):  # pandas Series / Index / array
        values = values.to_numpy(dtype=object) if _has_missing_pandas(values) else values.to_numpy()
    try:
        arr = np.asarray(values)
    except (ValueError, TypeError) as exc:  # ragged nested lists
        raise ValueError(f"{name} must be a one-dimensional array-like of labels ({exc})") from None
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got an array of shape {arr.shape}")
    kind = arr.dtype.kind
    if kind == "c":
        raise TypeError(f"{name} holds complex numbers, which are not labels")
    if kind == "f":
        bad = np.flatnonzero(np.isnan(arr))
        if bad.size:
            raise ParameterValueError(
                f"{name} contains NaN at position {int(bad[0])}", param=name, position=int(bad[0])
            )
        with np.errstate(invalid="ignore"):
            bad = np.flatnonzero(~np.isfinite(arr) | (np.floor(arr) != arr))
        if bad.size:
            _refuse_continuous(name, arr[bad[0]].item(), int(bad[0]))
    elif kind in "mM":
        bad = np.flatnonzero(np.isnat(arr))
        if bad.size:
            raise ParameterValueError(
                f"{name} contains NaT at position {int(bad[0])}", param=name, position=int(bad[0])
            )
    elif kind == "O":
        _check_label_elements(name, arr)
    elif kind in "US" and not isinstance(values, np.ndarray):
        # numpy turns [1, "a"] into ["1", "a"] and ["a", nan] into ["a", "nan"]:
        # check the elements it was given.
        _check_label_elements(name, values)
    return arr


def _check_label_elements(name: str, values: np.ndarray) -> None:
    """No missing value and a single label kind among ``values``, checked element by element."""
    kinds = set()
    for i, v in enumerate(values):
        if is_missing(v):
            raise ParameterValueError(
                f"{name} contains a missing value ({v!r}) at position {i}", param=name, position=i
            )
        if isinstance(v, (float, np.floating)) and not (math.isfinite(v) and float(v).is_integer()):
            _refuse_continuous(name, float(v), i)
        kinds.add(_label_kind(v))
    if len(kinds) > 1:
        raise TypeError(f"{name} mixes label types ({' and '.join(sorted(kinds))}); use labels of one type")


def _refuse_continuous(name: str, value: float, position: int) -> None:
    """The ValueError for a float label that is not a whole number (a score or probability), or infinite."""
    if not math.isfinite(value):
        raise ParameterValueError(
            f"{name} holds {value} at position {position}, an infinite value: labels are classes, not numbers "
            "on a scale",
            param=name,
            position=position,
        )
    raise ParameterValueError(
        f"{name} holds {value!r} at position {position}, a continuous value: labels are classes (whole numbers, "
        "strings or bools), not scores or probabilities",
        param=name,
        position=position,
    )


def _has_missing_pandas(values: Any) -> bool:
    try:
        return bool(values.isna().any())
    except (AttributeError, TypeError):
        return False


def label_kind(arr: np.ndarray) -> str:
    """The kind of the labels in a checked array: "str", "number", "bool" or another type name."""
    kind = arr.dtype.kind
    if kind in "US":
        return "str"
    if kind in "iuf":
        return "number"
    if kind == "b":
        return "number"
    if kind == "M":
        return "datetime"
    if kind == "m":
        return "timedelta"
    if kind == "O" and arr.size:
        return _label_kind(arr[0])
    return "empty" if arr.size == 0 else arr.dtype.name


def check_same_label_kind(**arrays: np.ndarray) -> None:
    """Raise a TypeError when checked label arrays hold labels of different kinds.

    scikit-learn raises "Mix of label input types" for the same mistake: ``[1, 2]``
    against ``["1", "2"]`` would otherwise count four labels that never match.
    """
    kinds = {name: label_kind(a) for name, a in arrays.items() if a.size}
    if len(set(kinds.values())) > 1:
        detail = ", ".join(f"{name} holds {k} labels" for name, k in kinds.items())
        raise TypeError(f"mix of label types: {detail}; use labels of one type")


def check_pos_label(pos_label: object, labels: np.ndarray, *, name: str = "pos_label", where: str = "y_true") -> None:
    """Raise when ``pos_label`` cannot be one of ``labels`` (the distinct labels found in ``where``).

    A TypeError when its kind differs from the labels' (``"1"`` for integer
    labels), a ValueError when it is missing or not among them.
    """
    if is_missing(pos_label):
        raise ValueError(f"{name}={pos_label!r} is a missing value, not a label")
    if labels.size == 0:
        return
    if _label_kind(pos_label) != label_kind(labels):
        raise TypeError(
            f"{name}={pos_label!r} is a {_label_kind(pos_label)} but the labels in {where} are "
            f"{label_kind(labels)}s ({labels[:5].tolist()})"
        )
    if pos_label not in labels.tolist():
        raise ValueError(f"{name}={pos_label!r} is not one of the labels in {where} {labels[:5].tolist()}")


def default_pos_label(labels: np.ndarray, *, name: str = "pos_label") -> object:
    """The positive label when none is given: 1 for 0/1 or -1/1 labels (True for bools), else a ValueError.

    ``labels`` are the distinct labels of the data (checked, sorted). One rule for every function
    with ``pos_label=None`` (:func:`apples.report`, :func:`apples.cross_val_predictions`): any
    other label set (strings, 1/2) has no positive label that could be guessed safely, and the
    error names ``name`` and lists the labels.

    Examples
    --------
    >>> default_pos_label(np.array([-1, 1]))
    1
    >>> default_pos_label(np.array(["benign", "malignant"]))
    Traceback (most recent call last):
    ...
    ValueError: pos_label must be given: the labels are ['benign', 'malignant'], and only 0/1 or -1/1 labels have the default positive label 1
    """  # noqa: E501  (an exception message in a doctest cannot be wrapped)
    values = set(labels.tolist())
    if label_kind(labels) == "number" and values <= {0, 1} | {-1, 1}:
        return True if labels.dtype.kind == "b" else 1
    raise ValueError(
        f"{name} must be given: the labels are {labels[:10].tolist()}, and only 0/1 or -1/1 labels have the default "
        "positive label 1"
    )


def unique_labels(name: str, arr: np.ndarray) -> np.ndarray:
    """``np.unique`` of a checked label array, with a TypeError naming ``name`` for unorderable labels."""
    try:
        return np.unique(arr)
    except TypeError as exc:
        raise TypeError(f"{name} holds labels that cannot be compared with each other ({exc})") from None


def check_real(
    name: str,
    value: object,
    *,
    low: float | None = None,
    high: float | None = None,
    low_inclusive: bool = True,
    high_inclusive: bool = True,
    finite: bool = True,
) -> float:
    """A real number (Python or numpy scalar, not bool), returned as a Python ``float``.

    Raises a TypeError naming ``name`` for a non-real, a ValueError for NaN,
    an infinite value (when ``finite``), an integer too large for a float, or a
    value outside ``[low, high]`` (bounds open where ``*_inclusive=False``).

    Examples
    --------
    >>> check_real("beta", np.float32(0.5))
    0.5
    >>> check_real("beta", 0.0, low=0.0, low_inclusive=False)
    Traceback (most recent call last):
    ...
    ValueError: beta must be > 0.0, got 0.0
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r} ({type(value).__name__})")
    try:
        v = float(value)
    except OverflowError:
        raise ValueError(f"{name}={value} is too large to be represented as a float") from None
    if v != v:
        raise ValueError(f"{name} must be a number, got NaN")
    if finite and v in (float("inf"), float("-inf")):
        raise ValueError(f"{name} must be finite, got {v}")
    if low is not None and (v < low or (v == low and not low_inclusive)):
        raise ValueError(f"{name} must be {'>=' if low_inclusive else '>'} {low}, got {v!r}")
    if high is not None and (v > high or (v == high and not high_inclusive)):
        raise ValueError(f"{name} must be {'<=' if high_inclusive else '<'} {high}, got {v!r}")
    return v


def check_same_length(**arrays: Any) -> None:
    """Raise a ValueError if the named arrays differ in length."""
    lengths = {name: len(a) for name, a in arrays.items()}
    if len(set(lengths.values())) > 1:
        detail = ", ".join(f"{name} has {n}" for name, n in lengths.items())
        raise ValueError(f"inconsistent lengths: {detail}")


def check_scores(name: str, values: Any) -> np.ndarray:
    """A one-dimensional array of finite real scores, ranked exactly as given.

    Integer scores (``int64``, ``uint64``, and datetime/timedelta, taken as
    their integer ticks) keep their integer dtype: converting them to float
    would merge distinct scores above 2**53 into ties. Float scores of any
    width become float64 (exact). Raises a TypeError naming ``name`` for
    non-numeric scores and a ValueError for NaN/NaT, infinite values or a
    shape other than one dimension.

    Examples
    --------
    >>> check_scores("y_score", np.array([2**53 + 1, 2**53])).tolist()
    [9007199254740993, 9007199254740992]
    >>> check_scores("y_score", [0.5, float("nan")])
    Traceback (most recent call last):
    ...
    apples._params.errors.ParameterValueError: y_score contains NaN at position 1
    """
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{name} must be an array of numbers, got {type(values).__name__}")
    if hasattr(values, "to_numpy") and not isinstance(values, np.ndarray):  # pandas
        if _has_missing_pandas(values):
            raise ValueError(f"{name} contains a missing value")
        values = values.to_numpy()
    try:
        arr = np.asarray(values)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{name} must be a one-dimensional array of numbers ({exc})") from None
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got an array of shape {arr.shape}")
    kind = arr.dtype.kind
    if kind in "mM":
        bad = np.flatnonzero(np.isnat(arr))
        if bad.size:
            raise ParameterValueError(
                f"{name} contains NaT at position {int(bad[0])}", param=name, position=int(bad[0])
            )
        return arr.view(np.int64)
    if kind in "iu":
        return arr
    if kind != "f":
        if kind == "O" and any(v is None for v in arr):
            i = next(i for i, v in enumerate(arr) if v is None)
            raise ParameterValueError(f"{name} contains a missing value (None) at position {i}", param=name, position=i)
        raise TypeError(f"{name} must be numeric, got dtype {arr.dtype}")
    arr = arr.astype(np.float64, copy=False)
    bad = np.flatnonzero(np.isnan(arr))
    if bad.size:
        raise ParameterValueError(f"{name} contains NaN at position {int(bad[0])}", param=name, position=int(bad[0]))
    if np.isinf(arr).any():
        where = int(np.flatnonzero(np.isinf(arr))[0])
        raise ParameterValueError(f"{name} contains an infinite value at position {where}", param=name, position=where)
    return arr


def check_label(name: str, value: object) -> object:
    """One label passed as an argument before any data is seen (a scorer's ``pos_label``), returned as given.

    A label is what :func:`check_labels_1d` accepts as an element: a str, a
    number or a bool (numpy scalars included), a date or a time span. A
    TypeError naming ``name`` for anything else (a list such as ``[1]``, an
    array, a dict, a complex number); a ValueError for a missing value (None,
    NaN, ``pd.NA``, NaT) or a continuous one (0.5, inf).

    Examples
    --------
    >>> check_label("pos_label", "spam")
    'spam'
    >>> check_label("pos_label", [1])
    Traceback (most recent call last):
    ...
    TypeError: pos_label must be one label (a str, a number or a bool), got [1] (list)
    """
    if is_missing(value):
        raise ValueError(f"{name}={value!r} is a missing value, not a label")
    complex_number = isinstance(value, (complex, np.complexfloating))
    if complex_number or _label_kind(value) not in ("str", "number", "datetime", "timedelta"):
        raise TypeError(
            f"{name} must be one label (a str, a number or a bool), got {value!r:.80} ({type(value).__name__})"
        )
    if isinstance(value, (float, np.floating)) and not (math.isfinite(value) and float(value).is_integer()):
        if not math.isfinite(value):
            raise ValueError(f"{name}={value} is an infinite value, not a label")
        raise ValueError(
            f"{name}={value!r} is a continuous value, not a label (labels are whole numbers, strings or bools)"
        )
    return value


def check_label_kind(name: str, value: object, labels: np.ndarray, *, where: str) -> None:
    """Raise when the label argument ``value`` cannot be a label of the checked ``labels``.

    For a label passed as an argument (a positive class, a relabelling
    target) that may be absent from the data, unlike :func:`check_pos_label`:
    a fold without positives is valid data. A ValueError for a missing value
    (None, NaN, ``pd.NA``, NaT), a TypeError naming ``name`` when its kind
    differs from the labels' (the integer 1 against string labels can never
    match, and numpy would turn it into ``"1"``).

    Examples
    --------
    >>> check_label_kind("pos_label", 1, np.array([0, 0]), where="y_true")
    >>> check_label_kind("pos_label", 1, np.array(["no", "no"]), where="y_true")
    Traceback (most recent call last):
    ...
    TypeError: pos_label=1 is a number but the labels in y_true are strs (['no', 'no']); pass pos_label= a label of that type
    """  # noqa: E501  (an exception message in a doctest cannot be wrapped)
    if is_missing(value):
        raise ValueError(f"{name}={value!r} is a missing value, not a label")
    if labels.size and _label_kind(value) != label_kind(labels):
        raise TypeError(
            f"{name}={value!r} is a {_label_kind(value)} but the labels in {where} are "
            f"{label_kind(labels)}s ({labels[:5].tolist()}); pass {name}= a label of that type"
        )


#: Largest memory a table or result may take before it is built: 1 GiB. Sizes beyond it
#: are refused up front (with the arguments to reduce), instead of a MemoryError or
#: minutes of swapping on a shared machine.
MAX_TABLE_BYTES = 2**30


def check_table_size(what: str, nbytes: int, *, reduce: str) -> None:
    """Raise a ValueError when ``what`` would need more than :data:`MAX_TABLE_BYTES`.

    ``nbytes`` is the caller's estimate (an exact Python integer, computed
    before anything is allocated); ``reduce`` names the arguments that set it.

    Examples
    --------
    >>> check_table_size("the outcome table", 2**31, reduce="n_cases or n_folds")
    Traceback (most recent call last):
    ...
    ValueError: the outcome table would need about 2 GiB; the limit is 1 GiB (apples._params.MAX_TABLE_BYTES): reduce n_cases or n_folds
    """  # noqa: E501  (an exception message in a doctest cannot be wrapped)
    if nbytes > MAX_TABLE_BYTES:
        raise ValueError(
            f"{what} would need about {nbytes / 2**30:.3g} GiB; the limit is {MAX_TABLE_BYTES / 2**30:.3g} GiB "
            f"(apples._params.MAX_TABLE_BYTES): reduce {reduce}"
        )


def check_real_array(
    name: str,
    values: Any,
    *,
    low: float | None = None,
    high: float | None = None,
    low_inclusive: bool = True,
    high_inclusive: bool = True,
    finite: bool = False,
    what: str | None = None,
    nan_ok: bool = False,
) -> np.ndarray:
    """Real number(s) of any shape (a threshold, a cost, a rate) as a float64 array, 0-d for a scalar.

    For continuous quantities, not scores (which :func:`check_scores` keeps
    exact) nor labels. Raises a TypeError naming ``name`` for strings, bools,
    complex or other non-real values; a ValueError for ragged nesting, None or
    NaN, an integer too large for a float, an infinite value (when
    ``finite``) or a value outside ``[low, high]`` (open where
    ``*_inclusive=False``). With bounds, or ``what`` (e.g. ``"be
    probabilities"``), NaN is reported as out of range: "``name`` must ...,
    got nan". With ``nan_ok`` a float NaN is kept (a documented "undefined"
    value; the bounds apply to the other values); None stays refused.

    Examples
    --------
    >>> check_real_array("c", [0.25, 1]).tolist()
    [0.25, 1.0]
    >>> check_real_array("c", 1.5, low=0, high=1)
    Traceback (most recent call last):
    ...
    ValueError: c must lie in [0, 1], got 1.5
    >>> check_real_array("t", "a")
    Traceback (most recent call last):
    ...
    TypeError: t must be a real number or an array of real numbers, got 'a' (str)
    """
    if isinstance(values, (str, bytes, bool, np.bool_)):
        raise TypeError(
            f"{name} must be a real number or an array of real numbers, got {values!r} ({type(values).__name__})"
        )
    try:
        arr = np.asarray(values)
    except (ValueError, TypeError) as exc:  # ragged nested lists
        raise ValueError(f"{name} must be a real number or an array of real numbers ({exc})") from None
    kind = arr.dtype.kind
    if kind == "O":
        for v in arr.flat:
            if is_missing(v) and not (nan_ok and isinstance(v, (float, np.floating))):
                raise ValueError(f"{name} contains a missing value ({v!r})")
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real):
                raise TypeError(f"{name} must hold real numbers, got {v!r} ({type(v).__name__})")
        try:
            arr = arr.astype(np.float64)
        except OverflowError:
            raise ValueError(f"{name} holds an integer too large to be represented as a float") from None
    elif kind not in "iuf":
        raise TypeError(f"{name} must be a real number or an array of real numbers, got dtype {arr.dtype}")
    arr = arr.astype(np.float64, copy=False)
    if what is None and (low is not None or high is not None):
        lo = "-inf" if low is None else low
        hi = "inf" if high is None else high
        what = f"lie in {'[' if low_inclusive else '('}{lo}, {hi}{']' if high_inclusive else ')'}"
    nan = np.isnan(arr)
    if nan.any() and not nan_ok:
        raise ValueError(f"{name} must {what}, got nan" if what else f"{name} contains NaN")
    if finite and np.isinf(arr).any():
        raise ValueError(f"{name} must be finite, got {float(arr[np.isinf(arr)].flat[0])}")
    bad = np.zeros(arr.shape, dtype=bool)  # NaN (kept with nan_ok) compares False: never out of range
    if low is not None:
        bad |= (arr < low) if low_inclusive else (arr <= low)
    if high is not None:
        bad |= (arr > high) if high_inclusive else (arr >= high)
    if bad.any():
        raise ValueError(f"{name} must {what}, got {float(arr[bad].flat[0])!r}")
    return arr


def rng_from_seed(seed: Any, name: str = "seed") -> np.random.Generator:
    """``numpy.random.default_rng(seed)`` for a required seed, with errors naming ``name``.

    ``None`` (fresh, unreproducible entropy) is refused with a TypeError, and
    so is anything numpy cannot seed from (a string, a float); an integer
    seed is checked by :func:`check_seed` (any size, not negative). A
    Generator is used as it is; a ``SeedSequence`` or ``BitGenerator`` seeds
    a new one.

    >>> rng_from_seed(None)
    Traceback (most recent call last):
    ...
    TypeError: seed is required (a non-negative int or a numpy.random.Generator): draws must be reproducible
    """
    if seed is None:
        raise TypeError(
            f"{name} is required (a non-negative int or a numpy.random.Generator): draws must be reproducible"
        )
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, (str, bytes, float, np.floating, bool, np.bool_)):
        raise TypeError(
            f"{name} must be a non-negative int or a numpy.random.Generator, got {seed!r} ({type(seed).__name__})"
        )
    if isinstance(seed, numbers.Integral):
        return np.random.default_rng(check_seed(name, seed))
    try:
        return np.random.default_rng(seed)
    except (TypeError, ValueError) as exc:
        raise type(exc)(
            f"{name} must be a non-negative int or a numpy.random.Generator, got {seed!r} ({exc})"
        ) from None


def check_bool(name: str, value: object) -> bool:
    """A flag: ``True`` or ``False`` (a ``numpy.bool_`` too), returned as a Python ``bool``.

    Anything else is a TypeError naming ``name``: used as a truth value,
    ``"no"`` and ``"False"`` would be true, and ``None``, ``0`` or an empty
    list false, silently.

    Examples
    --------
    >>> check_bool("log", np.True_)
    True
    >>> check_bool("log", "yes")
    Traceback (most recent call last):
    ...
    TypeError: log must be True or False, got 'yes' (str)
    """
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r} ({type(value).__name__})")
    return bool(value)


def check_cost(c: Any, name: str = "c") -> np.ndarray:
    """Relative cost(s) in [0, 1] as a float array, 0-d for a scalar; errors name ``name``."""
    return check_real_array(name, c, low=0, high=1)


def check_positive(name: str, value: object) -> int:
    """A positive integer (``n_reps``, ``n_jobs``, ``n_trials``), returned as a Python ``int``."""
    value = check_count(name, value)
    if value < 1:
        raise ValueError(f"{name} must be at least 1, got {value}")
    return value


def check_folds_cases(n_cases: object, n_folds: object) -> tuple[int, int]:
    """``n_cases`` and ``n_folds`` as ints: at least two folds of equal size, ``n_folds`` dividing ``n_cases``."""
    n_cases = check_count("n_cases", n_cases)
    n_folds = check_count("n_folds", n_folds)
    if n_folds < 2:
        raise ValueError(f"n_folds must be at least 2, got {n_folds}")
    if n_cases < n_folds:
        raise ValueError(f"n_cases={n_cases} is smaller than n_folds={n_folds}")
    if n_cases % n_folds:
        raise ValueError(f"n_folds={n_folds} does not divide n_cases={n_cases}; the simulation needs equal-size folds")
    return n_cases, n_folds


def check_fold_lists(y_true_folds: Any, y_score_folds: Any) -> tuple[list, list]:
    """Per-fold labels and scores as two lists of one-dimensional, equal-length, non-empty folds."""
    for name, v in (("y_true_folds", y_true_folds), ("y_score_folds", y_score_folds)):
        if isinstance(v, (str, bytes)) or (not isinstance(v, Sequence) and not isinstance(v, np.ndarray)):
            raise TypeError(f"{name} must be a sequence of arrays (one per fold), got {type(v).__name__}")
    t, s = list(y_true_folds), list(y_score_folds)
    if len(t) != len(s):
        raise ValueError(f"y_true_folds has {len(t)} folds but y_score_folds has {len(s)}")
    if not t:
        raise ValueError("y_true_folds is empty; a cross-validation needs at least one fold")
    for i, (a, b) in enumerate(zip(t, s, strict=True)):
        try:
            dims = (np.ndim(a), np.ndim(b))
        except ValueError:  # a ragged nested list: numpy cannot even tell its shape
            dims = None
        if dims != (1, 1):
            raise ValueError(f"fold {i + 1} (index {i}): y_true and y_score must be one-dimensional arrays")
        if len(a) != len(b):
            raise ValueError(f"fold {i + 1} (index {i}): y_true has {len(a)} cases but y_score has {len(b)}")
        if len(a) == 0:  # merging would hide it; per fold it is "y_true is empty"
            raise ValueError(f"fold {i + 1} (index {i}): the fold is empty (no test cases)")
    return t, s


def check_int_at_least(name: str, value: object, minimum: int) -> int:
    """An integer >= minimum: TypeError for a non-number, ValueError for others (1.5 too, unlike check_positive)."""
    what = "a positive integer" if minimum == 1 else f"an integer >= {minimum}"
    if not isinstance(value, numbers.Number):
        raise TypeError(f"{name} must be {what}, got {value!r} ({type(value).__name__})")
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(f"{name} must be {what}, got {value!r}")
    return check_count(name, value)


def float_or_array(x: Any) -> float | np.ndarray:
    """A float for a scalar input, a float array otherwise: how the closed forms return their values."""
    x = np.asarray(x, dtype=float)
    return float(x) if x.ndim == 0 else x


def check_int(name: str, value: object, *, low: int | None = None, high: int | None = None) -> int:
    """An integer in [low, high] (either bound optional), as a Python ``int``.

    Not :func:`check_count`: a seed or a shift above 2**53 or below 0 can be valid, and bounds vary.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {value!r} ({type(value).__name__})")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        bound = f"<= {high}" if low is None else f">= {low}" if high is None else f"between {low} and {high}"
        raise ValueError(f"{name} must be {bound}, got {value}")
    return value


def check_frame(name: str, value: object, columns: Iterable[str], *, what: str | None = None) -> pd.DataFrame:
    """``value`` as a pandas DataFrame holding ``columns``: a TypeError or ValueError naming ``name`` otherwise.

    ``what`` says where such a table comes from (``"apples.studies.forman_scholz.simulate_grid output"``),
    for the message.
    """
    import pandas as pd

    source = f" ({what})" if what else ""
    if not isinstance(value, pd.DataFrame):
        raise TypeError(f"{name} must be a pandas DataFrame{source}, got {type(value).__name__}")
    missing = [c for c in columns if c not in value.columns]
    if missing:
        raise ValueError(f"{name} lacks the column(s) {missing}{source}; it has {list(value.columns)[:10]}")
    return value
