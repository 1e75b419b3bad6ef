"""Input checks and the undefined-value (0/0) policy shared by every metric.

Every public metric in :mod:`apples` validates its input here first, so error
messages have one shape: they name the argument, say what was expected and
what came.
"""

from __future__ import annotations

import numbers
from typing import Literal

import numpy as np

__all__ = ["UndefinedMetricError", "Undefined", "divide", "check_policy", "check_choice"]

Undefined = Literal["zero", "nan", "raise"]
_POLICIES = ("zero", "nan", "raise")


class UndefinedMetricError(ValueError):
    """A metric was asked for where it is 0/0 and the policy is ``"raise"``."""


def check_choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    """Return ``value`` if it is one of ``choices``, else raise a ValueError naming ``name``."""
    if not isinstance(value, str) or value not in choices:
        raise ValueError(
            f"{name}={value!r} is not recognised; expected one of "
            + ", ".join(repr(c) for c in choices)
        )
    return value


def check_policy(undefined: object, name: str = "undefined") -> str:
    """Validate an undefined-value policy: ``"zero"``, ``"nan"`` or ``"raise"``."""
    return check_choice(name, undefined, _POLICIES)


def divide(num, den, *, undefined: Undefined, what: str):
    """``num / den`` with an explicit policy where ``den == 0``.

    Works on scalars and arrays and never emits a RuntimeWarning. Where the
    denominator is zero the result is ``0.0`` (``undefined="zero"``), ``nan``
    (``"nan"``), or an :class:`UndefinedMetricError` naming ``what`` is raised
    (``"raise"``). A scalar input gives a Python ``float``.
    """
    check_policy(undefined)
    num_a = np.asarray(num, dtype=float)
    den_a = np.asarray(den, dtype=float)
    zero = den_a == 0
    if np.any(zero) and undefined == "raise":
        raise UndefinedMetricError(
            f"{what} is undefined (0/0); pass undefined='zero' or undefined='nan' "
            "to substitute a value instead of raising"
        )
    fill = 0.0 if undefined == "zero" else np.nan
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(zero, fill, num_a / np.where(zero, 1.0, den_a))
    if out.ndim == 0:
        return float(out)
    return out


def check_count(name: str, value: object) -> int:
    """A non-negative integer count, returned as a Python ``int``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a non-negative integer count, got {value!r} ({type(value).__name__})")
    value = int(value)
    if value < 0:
        raise ValueError(f"{name} must be a non-negative integer count, got {value}")
    return value


def check_labels_1d(name: str, values) -> np.ndarray:
    """A one-dimensional array of labels (no NaN)."""
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got an array of shape {arr.shape}")
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        raise ValueError(f"{name} contains NaN")
    return arr


def check_same_length(**arrays) -> None:
    """Raise a ValueError if the named arrays differ in length."""
    lengths = {name: len(a) for name, a in arrays.items()}
    if len(set(lengths.values())) > 1:
        detail = ", ".join(f"{name} has {n}" for name, n in lengths.items())
        raise ValueError(f"inconsistent lengths: {detail}")


def check_scores(name: str, values) -> np.ndarray:
    """A one-dimensional array of finite real scores."""
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got an array of shape {arr.shape}")
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} must be numeric, got dtype {arr.dtype}")
    arr = arr.astype(float)
    if np.isnan(arr).any():
        raise ValueError(f"{name} contains NaN")
    if np.isinf(arr).any():
        raise ValueError(f"{name} contains an infinite value")
    return arr
