"""One vocabulary for 0/0: ``undefined="zero" | "nan" | "raise" | "skip"``.

A measure is undefined (0/0) where its denominator is zero: precision without a positive
prediction, recall without a positive, AUC of a fold with one class. Every function that can
meet 0/0 takes ``undefined=``, declares which of the four policies it allows, and documents its
default:

==========  ==================================================================================
policy      meaning
==========  ==================================================================================
``"zero"``  substitute 0, as Forman & Scholz do "throughout the paper" (§2.3) and scikit-learn's
            ``zero_division=0``; only where 0 is the measure's limit or the papers' convention
``"nan"``   return NaN, for the caller to see and handle
``"raise"`` raise :class:`~apples._params.errors.UndefinedMetricError`, naming what is undefined
``"skip"``  leave the undefined folds (or labels) out of an average: Forman & Scholz's F̃
            (§2.3, "Exceptions"), ``np.nanmean``; only where an average is taken
==========  ==================================================================================

A result that is itself undefined under ``"skip"`` (every fold left out) is NaN: there is
nothing left to average, and no number to substitute.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from apples._params.checks import check_choice
from apples._params.declare import Kind
from apples._params.errors import UndefinedMetricError

__all__ = [
    "POLICIES",
    "Policy",
    "Undefined",
    "check_policy",
    "divide",
    "raise_if_undefined",
    "resolve",
]

Policy = Literal["zero", "nan", "raise", "skip"]
#: The four policies, in the order the documentation lists them.
POLICIES: tuple[Policy, ...] = ("zero", "nan", "raise", "skip")


class Undefined(Kind):
    """The ``undefined=`` parameter of a function that allows the listed policies."""

    def __init__(self, *allowed: Policy) -> None:
        unknown = set(allowed) - set(POLICIES)
        if unknown or not allowed:
            raise ValueError(f"unknown 0/0 policies {sorted(unknown)}; the vocabulary is {POLICIES}")
        self.allowed = allowed
        self.what = "one of " + ", ".join(repr(p) for p in allowed)

    def check(self, name: str, value: object) -> str:
        return check_choice(name, value, self.allowed)


def raise_if_undefined(values: object, undefined: str, *, what: str, hint: str | None = None) -> None:
    """Raise :class:`UndefinedMetricError` if ``undefined == "raise"`` and ``values`` holds a NaN.

    ``what`` names the measure ("precision (TP + FP = 0)"); ``hint`` replaces the default advice
    (pass ``undefined='nan'`` or ``'zero'``) where the caller knows better.
    """
    if undefined == "raise" and np.isnan(np.asarray(values, dtype=float)).any():
        advice = hint if hint is not None else "pass undefined='zero' or 'nan' to substitute a value instead"
        raise UndefinedMetricError(f"{what} is undefined (0/0); {advice}")


def check_policy(
    undefined: object, name: str = "undefined", allowed: tuple[Policy, ...] = ("zero", "nan", "raise")
) -> Policy:
    """A 0/0 policy among ``allowed`` (by default the three that apply to a single value)."""
    return check_choice(name, undefined, allowed)


def divide(num: object, den: object, *, undefined: str, what: str, hint: str | None = None) -> Any:
    """``num / den`` with the policy ``undefined`` where ``den == 0``; a scalar input gives a Python float.

    Works on scalars and arrays and never emits a RuntimeWarning. Where the denominator is zero the
    result is ``0.0`` (``"zero"``), NaN (``"nan"`` and ``"skip"``, whose caller leaves it out of its
    average), or :class:`UndefinedMetricError` naming ``what`` (``"raise"``); ``hint`` replaces the
    default advice of that error where the caller has no ``undefined`` parameter of its own.
    """
    num_a = np.asarray(num, dtype=float)
    den_a = np.asarray(den, dtype=float)
    zero = den_a == 0
    if undefined == "raise" and np.any(zero):
        advice = (
            hint
            if hint is not None
            else "pass undefined='zero' or undefined='nan' to substitute a value instead of raising"
        )
        raise UndefinedMetricError(f"{what} is undefined (0/0); {advice}")
    fill = 0.0 if undefined == "zero" else np.nan
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(zero, fill, num_a / np.where(zero, 1.0, den_a))
    return float(out) if out.ndim == 0 else out


def resolve(values: Any, undefined: str, *, what: str, hint: str | None = None) -> Any:
    """A kernel's result (NaN where 0/0) under the policy: 0 (``"zero"``), NaN, or the error (``"raise"``).

    A scalar comes back as a Python float, an array as an array.
    """
    raise_if_undefined(values, undefined, what=what, hint=hint)
    arr = np.asarray(values, dtype=float)
    if undefined == "zero":
        arr = np.where(np.isnan(arr), 0.0, arr)
    return float(arr) if arr.ndim == 0 else arr
