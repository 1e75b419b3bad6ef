"""The checks of labels: one-dimensional label arrays, the positive label, missing and continuous values.

Labels are compared by value, whatever their type (int, str, bool, a numpy scalar); a continuous value
(0.3, inf) is refused wherever a label is expected, and a missing one (None, NaN, pd.NA) named by position.
The kinds of :mod:`apples._params.kinds` and the relations call these.
"""

from __future__ import annotations

import datetime
import math
import numbers
from typing import Any

import numpy as np

from apples._params.errors import ParameterValueError

__all__ = [
    "check_label",
    "check_label_kind",
    "check_labels_1d",
    "check_pos_label",
    "check_same_label_kind",
    "default_pos_label",
    "has_missing_pandas",
    "is_missing",
    "label_kind",
    "positive_indicator",
    "unique_labels",
]


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
        values = values.to_numpy(dtype=object) if has_missing_pandas(values) else values.to_numpy()
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


def has_missing_pandas(values: Any) -> bool:
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


def positive_indicator(y_true: np.ndarray, pos_label: object | None) -> np.ndarray:
    """1.0 where ``y_true`` is the positive label, else 0.0: ``pos_label``, or when it is None the default of
    :func:`default_pos_label` (1 for 0/1 or -1/1 labels), whose refusal names ``pos_label``.

    Examples
    --------
    >>> positive_indicator(np.array([-1, 1, 1]), None).tolist(), positive_indicator(np.array(["a", "b"]), "a").tolist()
    ([0.0, 1.0, 1.0], [1.0, 0.0])
    """
    if pos_label is None:
        try:
            pos_label = default_pos_label(unique_labels("y_true", y_true))
        except ValueError as err:
            raise ParameterValueError(str(err), param="pos_label") from None
    return (y_true == pos_label).astype(np.float64)
