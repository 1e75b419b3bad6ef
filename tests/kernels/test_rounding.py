"""One rounding rule: halves up (away from zero), on the decimal a float is written as."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from apples._kernels.fold_model import design_counts
from apples._kernels.fold_size import corpus_totals
from apples._kernels.rounding import half_up, half_up_count
from apples.cv import round_half_up


def _by_fractions(text: str, total: int) -> int:
    """round(x · total), halves away from zero, in exact rational arithmetic on the decimal ``text``."""
    exact = Fraction(text) * total
    floor = exact.numerator // exact.denominator
    return floor + 1 if exact - floor >= Fraction(1, 2) else floor


@given(st.integers(0, 10_000), st.integers(0, 4), st.integers(1, 100_000))
def test_count_equals_rational_rounding(mantissa, decimals, total):
    text = f"{mantissa / 10**decimals:.{decimals}f}"
    assert half_up_count(float(text), total) == _by_fractions(text, total)


def test_counts_where_the_float_product_misleads():
    # 0.145 * 100 is 14.499999999999998 as floats; the paper's round(pi N) of 14.5 is 15
    assert 0.145 * 100 < 14.5
    assert half_up_count(0.145, 100) == 15
    assert design_counts(0.145, 0.8, 100)[0] == 15
    assert corpus_totals(0.145, 100, 0.8, 0.977)["n_a"] == 15


def test_every_rounding_entry_rounds_a_negative_half_away_from_zero():
    assert half_up(-0.5, digits=0) == -1
    assert round_half_up(-0.5, digits=0) == -1.0
    assert round_half_up(-0.0125, digits=3) == -0.013
