"""Notebook 05: the identities it prints on Van Asch's Table 3, checked against hand computations.

Table 3 (Van Asch 2013, §3.4.1): tp, fp, fn of four labels, 40 single-label test instances. By hand:

- sum tp = 3 + 1 + 6 + 6 = 16, sum fp = 2 + 7 + 6 + 9 = 24, sum fn = 7 + 9 + 8 + 0 = 24, so micro P = micro R = 16/40
  (eq. 15);
- test frequencies (tp + fn)/40 = 10/40, 10/40, 14/40, 6/40; lfb recall with them is sum tp / 40 = 0.4 (eq. 12);
- eq. (13) minus the micro precision: (3*5/5 + 1*2/8 + 6*2/12 + 6*(-9)/15) / 40 = (3 + 1/4 + 1 - 18/5) / 40 = 13/800,
  and lfb precision with test frequencies is 10/40*3/5 + 10/40*1/8 + 14/40*6/12 + 6/40*6/15 = 333/800 = 0.41625
  (Table 4's lfb precision, printed 0.416);
- Table 5's macro precision and recall: (6/10 + 6/10 + 6/12 + 6/8) / 4 = 49/80 = 0.6125, printed 0.613 (half up).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

import apples
from apples import Counts

TABLE3 = dict(c1=Counts(3, 2, 7), c2=Counts(1, 7, 9), c3=Counts(6, 6, 8), c4=Counts(6, 9, 0))
TABLE5 = dict(c1=Counts(6, 4, 4), c2=Counts(6, 4, 4), c3=Counts(6, 6, 6), c4=Counts(6, 2, 2))


def test_table3_sums_and_micro():
    total = sum(TABLE3.values(), Counts(0, 0, 0))
    assert (total.tp, total.fp, total.fn) == (16, 24, 24)
    micro = apples.average_scores(TABLE3, average="micro")
    assert micro.precision == pytest.approx(16 / 40, abs=1e-15) and micro.recall == pytest.approx(16 / 40, abs=1e-15)


def test_table3_lfb_with_test_frequencies():
    lfb = apples.average_scores(TABLE3, average="lfb", frequencies="test")
    assert lfb.recall == pytest.approx(0.4, abs=1e-15)
    assert lfb.precision == pytest.approx(float(Fraction(333, 800)), abs=1e-15)
    micro = apples.average_scores(TABLE3, average="micro")
    assert lfb.precision - micro.precision == pytest.approx(float(Fraction(13, 800)), abs=1e-15)
    # printed to five decimals: 0.01625 and 0.41625 are exact at five decimals, not on a rounding edge
    assert f"{lfb.precision - micro.precision:.5f}" == "0.01625" and f"{lfb.precision:.5f}" == "0.41625"


def test_eq13_sum_by_fractions():
    gap = sum(Fraction(c.tp * (c.fn - c.fp), c.tp + c.fp) for c in TABLE3.values()) / 40
    assert gap == Fraction(13, 800)


def test_table5_macro_is_49_80_printed_half_up():
    macro = apples.average_scores(TABLE5, average="macro")
    assert macro.precision == pytest.approx(49 / 80, abs=1e-15) and macro.recall == pytest.approx(49 / 80, abs=1e-15)
    assert apples.cv.round_half_up(macro.precision, digits=3) == 0.613
    assert f"{macro.precision:.5f}" == "0.61250"
