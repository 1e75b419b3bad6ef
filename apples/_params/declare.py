"""Declaring the parameters of a public function once, and checking them once at its entry.

Every public function of apples states the contract of its parameters in one decorator,
in the manner of scikit-learn's ``validate_params``::

    @declare(y_true=LABELS, y_score=SCORES, pos_label=LABEL, undefined=Undefined("raise", "nan"))
    def roc_auc(y_true, y_score, *, pos_label=1, undefined="raise"): ...

The decorator checks each declared argument the caller passed with its kind, and calls the
function with the converted values (a list of labels arrives as a one-dimensional numpy array,
a real number as a Python float). A default value is the function's own and is passed as it is.
After the single arguments, the *relations* between them are checked (equal lengths, labels of
one kind, a positive label among the labels). The body then computes: it never checks again,
and it never calls another public function (``tests/test_layout.py`` holds both), so every
argument is checked exactly once.

Every failed check raises a :class:`ParameterValueError` or :class:`ParameterTypeError`, which
are a ValueError and a TypeError carrying the argument's name in ``.param``: the command line
maps it to its option without reading the message.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from apples._params.errors import ParameterError, ParameterTypeError, ParameterValueError

__all__ = [
    "Declaration",
    "Kind",
    "Relation",
    "count_checks",
    "declaration_of",
    "declare",
    "exempt",
    "nested_calls",
]

P = ParamSpec("P")
R = TypeVar("R")

#: Checks made since import: every kind and relation check adds one (``count_checks`` reads it).
_checks = 0
#: The declared calls running now, outermost first (their qualified names).
_running: list[str] = []
#: While ``nested_calls`` records: each declared call made inside another, as (outer, inner).
_nested: list[tuple[str, str]] | None = None


class Kind:
    """A kind of parameter: what its values may be, and how a value is checked and converted.

    Subclasses implement :meth:`check`; calling the kind counts the check and runs it. ``what`` is
    the phrase the documentation and the messages use ("a one-dimensional array of labels").
    """

    what: str = "a value"

    def __call__(self, name: str, value: object) -> Any:
        global _checks
        _checks += 1
        try:
            return self.check(name, value)
        except ParameterError:
            raise
        except TypeError as err:
            raise ParameterTypeError(str(err), param=name) from None
        except ValueError as err:
            raise ParameterValueError(str(err), param=name) from None

    def check(self, name: str, value: object) -> Any:  # pragma: no cover - every kind overrides it
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {self.what}>"


class Relation:
    """A rule between arguments of one call (equal lengths, one label kind, ...), checked after each alone.

    ``names`` are the arguments it reads; an argument that is None (not given) is left out.
    Subclasses implement :meth:`check` on the converted values.
    """

    names: tuple[str, ...] = ()

    def __call__(self, values: Mapping[str, Any]) -> None:
        global _checks
        _checks += 1
        given = {n: values[n] for n in self.names if values.get(n) is not None}
        try:
            self.check(given)
        except ParameterError:
            raise
        except TypeError as err:
            raise ParameterTypeError(str(err), param=self.names[0]) from None
        except ValueError as err:
            raise ParameterValueError(str(err), param=self.names[0]) from None

    def check(self, values: Mapping[str, Any]) -> None:  # pragma: no cover - every relation overrides it
        raise NotImplementedError


@dataclass(frozen=True)
class Declaration:
    """What :func:`declare` recorded on a function: its parameters' kinds and the relations between them."""

    kinds: Mapping[str, Kind]
    relations: tuple[Relation, ...] = ()
    exempt: str | None = None  #: why the function declares no parameter (see :func:`exempt`)


def declaration_of(func: object) -> Declaration | None:
    """The :class:`Declaration` of a public function or class, or None if it has none."""
    found = getattr(func, "__apples_params__", None)
    return found if isinstance(found, Declaration) else None


def declare(*, relations: Sequence[Relation] = (), **kinds: Kind) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorate a public function: check and convert its declared arguments once, at the call.

    Parameters
    ----------
    relations : sequence of Relation
        Rules between arguments, checked after every argument alone.
    **kinds : Kind
        The kind of each parameter, by name. A parameter may be left out only if it needs no
        check (an estimator passed through to scikit-learn, a matplotlib Axes).

    Returns
    -------
    callable
        The decorator. The decorated function keeps its name, signature and docstring, and
        carries its :class:`Declaration` in ``__apples_params__``.
    """

    def wrap(func: Callable[P, R]) -> Callable[P, R]:
        signature = inspect.signature(func)
        unknown = set(kinds) - set(signature.parameters)
        unknown |= {n for r in relations for n in r.names} - set(signature.parameters)
        if unknown:
            raise TypeError(f"{func.__qualname__} declares parameters it does not have: {sorted(unknown)}")
        positional = [
            n
            for n, p in signature.parameters.items()
            if p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        ]
        positional_only = {n for n, p in signature.parameters.items() if p.kind is inspect.Parameter.POSITIONAL_ONLY}
        # a declared ``*more`` (a SequenceOf kind) is checked as one sequence, then passed on unpacked
        star = next((n for n, p in signature.parameters.items() if p.kind is inspect.Parameter.VAR_POSITIONAL), None)
        star = star if star in kinds else None
        defaults = {n: p.default for n, p in signature.parameters.items() if p.default is not p.empty}
        checks = tuple(kinds.items())
        rules = tuple(relations)

        @functools.wraps(func)
        def checked(*args: P.args, **kwargs: P.kwargs) -> R:
            extra: tuple = ()
            if star is not None and len(args) > len(positional) and star not in kwargs:
                args, extra = args[: len(positional)], args[len(positional) :]  # type: ignore[assignment]
            if len(args) > len(positional) or positional_only & kwargs.keys():
                return func(*args, **kwargs)  # Python's own TypeError names the problem
            values: dict[str, Any] = dict(zip(positional, args, strict=False))
            for name, value in kwargs.items():
                if name in values:
                    return func(*args, **kwargs)  # "got multiple values for argument"
                values[name] = value
            for name, kind in checks:
                if name in values:
                    values[name] = kind(name, values[name])
            if rules:
                every = {**defaults, **values}
                for rule in rules:
                    rule(every)
            if extra:
                given_star = kinds[str(star)](str(star), list(extra))
            given = [values.pop(n) for n in positional[: len(args)]]
            if extra:
                given.extend(given_star)
            if _nested is not None and _running:
                _nested.append((_running[0], func.__qualname__))
            _running.append(func.__qualname__)
            try:
                return func(*given, **values)
            finally:
                _running.pop()

        checked.__apples_params__ = Declaration(dict(kinds), rules)  # type: ignore[attr-defined]
        return checked

    return wrap


def exempt(reason: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Mark a public function that takes no argument needing a check, with the reason (tested)."""

    def wrap(func: Callable[P, R]) -> Callable[P, R]:
        func.__apples_params__ = Declaration({}, (), exempt=reason)  # type: ignore[attr-defined]
        return func

    return wrap


@contextmanager
def count_checks() -> Iterator[Callable[[], int]]:
    """Count the kind and relation checks made inside the ``with`` block.

    Examples
    --------
    >>> from apples._params import LABELS
    >>> with count_checks() as made:
    ...     _ = LABELS("y_true", [0, 1])
    >>> made()
    1
    """
    start = _checks
    yield lambda: _checks - start


@contextmanager
def nested_calls() -> Iterator[list[tuple[str, str]]]:
    """Record every declared call made while another declared call runs: a public function that calls
    another public function, whose arguments are then checked twice (``tests/test_layout.py``).

    Examples
    --------
    >>> from apples._params import LABELS
    >>> @declare(y=LABELS)
    ... def outer(y): return inner(y)
    >>> @declare(y=LABELS)
    ... def inner(y): return y.size
    >>> with nested_calls() as found:
    ...     _ = outer([0, 1])
    >>> found
    [('outer', 'inner')]
    """
    global _nested
    previous, _nested = _nested, []
    try:
        yield _nested
    finally:
        _nested = previous
