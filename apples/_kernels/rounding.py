"""Rounding halves up, as the papers print their tables: one rule for every percentage and decimal.

Python rounds half to even and works on the binary value (``round(0.125, 2)`` is 0.12); Forman & Scholz
print 0.625 as 63% and Van Asch 0.6125 as 0.613. The float's shortest repr is read as a decimal, so
0.6125 is a half, and multiplied by the scale without rounding.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, localcontext

__all__ = ["half_up", "half_up_count", "percent_text"]


def half_up(value: float, *, digits: int, scale: int = 1) -> Decimal:
    """``value * scale`` rounded half up (away from zero) to ``digits`` decimals, exactly, as a Decimal.

    Examples
    --------
    >>> half_up(0.6125, digits=3), half_up(0.625, digits=0, scale=100), half_up(-0.5, digits=0)
    (Decimal('0.613'), Decimal('63'), Decimal('-1'))
    """
    with localcontext() as ctx:
        ctx.prec = 320 + digits  # every digit of a float times 100 (up to 1.8e310) and the decimals
        return (Decimal(repr(float(value))) * scale).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)


def half_up_count(fraction: float, total: int) -> int:
    """``fraction · total`` rounded to the nearest integer, halves up, on the decimal of ``fraction``.

    The count a paper means by "round(π N)": ``0.0125 · 1000`` is 12.5 and becomes 13, ``0.145 · 100``
    is 14.5 (the float product is 14.499999999999998) and becomes 15, ``0.035 · 1000`` is 35.

    >>> half_up_count(0.0125, 1000), half_up_count(0.145, 100), half_up_count(0.035, 1000)
    (13, 15, 35)
    """
    return int(half_up(fraction, digits=0, scale=total))


def percent_text(value: float, *, decimals: int) -> str:
    """A finite ``value`` as a percentage with halves rounded up: ``percent_text(0.625, decimals=0)`` is '63%'."""
    return f"{half_up(value, digits=decimals, scale=100)}%"
