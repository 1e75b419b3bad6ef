"""The errors of the parameter layer: bad arguments, and a 0/0 under ``undefined="raise"``.

A :class:`ParameterValueError` or :class:`ParameterTypeError` is the ValueError or TypeError of a
bad argument, with the argument's name in ``.param``; callers catch them as ValueError and
TypeError. :class:`UndefinedMetricError` is a ValueError of its own: the arguments were valid, but
the measure is 0/0 on them and the caller asked to be told (``undefined="raise"``).
"""

from __future__ import annotations

__all__ = [
    "ParameterError",
    "ParameterTypeError",
    "ParameterValueError",
    "UndefinedMetricError",
]


class ParameterError(Exception):
    """A bad argument; ``param`` is its name (the command line maps it to an option), ``position`` the index of
    the element at fault in an array argument, where there is one (the command line maps it to a line).

    ``param`` is None only where the error is re-raised as ``type(err)(message)`` with more context; every
    check of the parameter layer sets it.
    """

    def __init__(self, message: str, *, param: str | None = None, position: int | None = None) -> None:
        super().__init__(message)
        self.param = param
        self.position = position


class ParameterValueError(ParameterError, ValueError):
    """An argument of the right type with a value outside its contract."""


class ParameterTypeError(ParameterError, TypeError):
    """An argument of a type its parameter does not take."""


class UndefinedMetricError(ValueError):
    """A measure was asked for where it is 0/0 and the policy is ``undefined="raise"``."""
