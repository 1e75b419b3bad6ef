"""The checks behind the kinds of :mod:`apples._params.kinds`: one function per rule, messages of one shape.

Each names the argument, says what was expected and what came, and raises a ValueError or a
TypeError (the kinds turn them into :class:`~apples._params.errors.ParameterValueError` and
``ParameterTypeError``, which carry the argument's name). Relations between arguments
(:mod:`apples._params.relations`) and the study modules' own kinds call them too.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from apples._params.errors import ParameterValueError
from apples._params.label_checks import has_missing_pandas, is_missing

if TYPE_CHECKING:  # pandas is imported where a table is checked
    import pandas as pd


__all__ = [
    "MAX_EXACT_INT",
    "MAX_TABLE_BYTES",
    "check_bool",
    "check_choice",
    "check_count",
    "check_frame",
    "check_int",
    "check_real",
    "check_real_array",
    "check_same_length",
    "check_scores",
    "check_seed",
    "check_table_size",
    "float_or_array",
    "rng_from_seed",
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
        if has_missing_pandas(values):
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
