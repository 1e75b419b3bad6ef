"""Tests for apples.averaging: Van Asch (2013) §3, Tables 2–5, §3.3.1, eq. (15), §4.1.

Expected values come from the paper (rounded as printed there) and from hand
calculation with exact fractions; scikit-learn is the independent cross-check.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction as Fr

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from sklearn.metrics import accuracy_score, precision_recall_fscore_support
from sklearn.preprocessing import MultiLabelBinarizer

from apples import Counts, UndefinedMetricError
from apples.averaging import AveragedScores, average_scores, frequencies_from_counts


def paper_round(x: float, digits: int) -> float:
    """Round half up, as the paper prints (0.6125 -> 0.613)."""
    return float(Decimal(repr(x)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def close(a, b, tol=1e-12):
    return math.isclose(float(a), float(b), rel_tol=0, abs_tol=tol)


# --- the paper's tables, as given (tp, fp, fn) -----------------------------------------------------
TABLE2 = {"c1": Counts(10, 10, 10), "c2": Counts(90, 10, 10)}
TABLE3 = {"c1": Counts(3, 2, 7), "c2": Counts(1, 7, 9), "c3": Counts(6, 6, 8), "c4": Counts(6, 9, 0)}
TABLE3_TRAIN = {"c1": 0.1, "c2": 0.2, "c3": 0.3, "c4": 0.4}
TABLE4 = TABLE3  # "a different experiment" with the same counts
TABLE4_TRAIN = {"c1": 0.25, "c2": 0.25, "c3": 0.35, "c4": 0.15}
TABLE5 = {"c1": Counts(6, 4, 4), "c2": Counts(6, 4, 4), "c3": Counts(6, 6, 6), "c4": Counts(6, 2, 2)}
TABLE5_TRAIN = {"c1": 0.25, "c2": 0.25, "c3": 0.3, "c4": 0.2}


def test_table2_macro_micro():
    macro = average_scores(TABLE2, average="macro")
    micro = average_scores(TABLE2, average="micro")
    # paper: 0.7 / 0.7 and 0.83 / 0.83; by hand (1/2)(10/20 + 90/100) = 7/10, 100/120 = 5/6
    assert close(macro.precision, 0.7) and close(macro.recall, 0.7)
    assert close(micro.precision, 5 / 6) and close(micro.recall, 5 / 6)
    assert paper_round(micro.precision, 2) == 0.83 and paper_round(micro.recall, 2) == 0.83


def test_table3_every_value():
    # per-label columns of Table 3
    expected_p = {"c1": 0.6, "c2": 0.125, "c3": 0.5, "c4": 0.4}
    expected_r = {"c1": 0.3, "c2": 0.1, "c3": 0.429, "c4": 1}
    for k, c in TABLE3.items():
        assert paper_round(c.tp / (c.tp + c.fp), 3) == expected_p[k]
        assert paper_round(c.tp / (c.tp + c.fn), 3) == expected_r[k]
    assert frequencies_from_counts(TABLE3) == pytest.approx({"c1": 0.25, "c2": 0.25, "c3": 0.35, "c4": 0.15},
                                                            abs=1e-15)
    macro = average_scores(TABLE3, average="macro")
    micro = average_scores(TABLE3, average="micro")
    lfb = average_scores(TABLE3, average="lfb", frequencies=TABLE3_TRAIN)
    assert (paper_round(macro.precision, 3), paper_round(macro.recall, 3)) == (0.406, 0.457)
    assert (paper_round(micro.precision, 3), paper_round(micro.recall, 3)) == (0.4, 0.4)
    assert (paper_round(lfb.precision, 3), paper_round(lfb.recall, 3)) == (0.395, 0.579)
    # exact: macro P = (3/5 + 1/8 + 1/2 + 2/5)/4 = 13/32; macro R = (3/10 + 1/10 + 3/7 + 1)/4 = 16/35
    assert close(macro.precision, 13 / 32) and close(macro.recall, 16 / 35)
    # lfb P = .1*.6 + .2*.125 + .3*.5 + .4*.4 = .395; lfb R = .03 + .02 + .3*3/7 + .4 = 81/140
    assert close(lfb.precision, 0.395) and close(lfb.recall, 81 / 140)
    assert close(micro.precision, 16 / 40) and close(micro.recall, 16 / 40)


def test_table4_lfb_equals_test_frequencies():
    lfb = average_scores(TABLE4, average="lfb", frequencies=TABLE4_TRAIN)
    lfb_test = average_scores(TABLE4, average="lfb", frequencies="test")
    assert (paper_round(lfb.precision, 3), paper_round(lfb.recall, 3)) == (0.416, 0.4)
    # .25*.6 + .25*.125 + .35*.5 + .15*.4 = .41625 exactly; recall = micro recall = 16/40
    assert close(lfb.precision, 0.41625) and close(lfb.recall, 0.4)
    assert close(lfb_test.precision, lfb.precision) and close(lfb_test.recall, lfb.recall)
    macro = average_scores(TABLE4, average="macro")
    assert (paper_round(macro.precision, 3), paper_round(macro.recall, 3)) == (0.406, 0.457)


def test_table5_all_equal():
    macro = average_scores(TABLE5, average="macro")
    micro = average_scores(TABLE5, average="micro")
    lfb = average_scores(TABLE5, average="lfb", frequencies=TABLE5_TRAIN)
    # macro = (3/5 + 3/5 + 1/2 + 3/4)/4 = 49/80 = 0.6125, printed 0.613 (half up)
    assert close(macro.precision, 49 / 80) and close(macro.recall, 49 / 80)
    assert paper_round(macro.precision, 3) == 0.613 == paper_round(macro.recall, 3)
    assert close(micro.precision, 0.6) and close(micro.recall, 0.6)
    assert close(lfb.precision, 0.6) and close(lfb.recall, 0.6)
    assert frequencies_from_counts(TABLE5) == pytest.approx(TABLE5_TRAIN, abs=1e-15)


def test_f_of_averages_differs_from_mean_f():
    s = average_scores(TABLE3, average="macro")
    # per-label F (eq. 4): 2tp/(2tp+fp+fn) = 6/15, 2/18, 12/26, 12/21
    mean_f = (Fr(6, 15) + Fr(2, 18) + Fr(12, 26) + Fr(12, 21)) / 4
    p, r = Fr(13, 32), Fr(16, 35)
    assert close(s.mean_f, mean_f)
    assert close(s.f_of_averages, 2 * p * r / (p + r))
    assert abs(s.f_of_averages - s.mean_f) > 0.04
    assert isinstance(s, AveragedScores) and all(type(v) is float for v in s)
    m = average_scores(TABLE3, average="micro")
    assert m.f_of_averages == m.mean_f == pytest.approx(0.4)
