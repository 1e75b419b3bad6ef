"""Bad and edge input on the counting / labels / F / simulation side: one regression test per fix.

Expected values come from hand calculations (written next to them), the papers, or scikit-learn;
never from apples' own output.
"""

import math

import numpy as np
import pandas as pd
import pytest

from apples import (
    Counts,
    UndefinedMetricError,
    cv_f_measure,
    cv_table,
    f_from_precision_recall,
    f_measure,
    fold_counts,
    format_cv_table,
    percent,
    precision,
)


# --- counts.py: the label set and the positive label -----------------------------------------------
def test_fold_counts_checks_the_label_set_over_all_folds():
    # three labels overall, two per fold: 0 and 2 must not both become "negative" in silence
    with pytest.raises(ValueError, match=r"3 distinct labels \[0, 1, 2\]"):
        fold_counts([0, 1, 1, 2], [0, 1, 1, 2], [0, 0, 1, 1])


def test_fold_counts_checks_the_positive_label_over_all_folds():
    # labels {0, 2} over the data: positive=1 is absent, although each fold alone holds one label
    with pytest.raises(ValueError, match=r"positive=1 is not one of the labels"):
        fold_counts([0, 0, 2, 2], [0, 0, 2, 2], [0, 0, 1, 1])


def test_fold_counts_keeps_a_fold_without_positives():
    # fold 0 has no positives (the case Forman & Scholz study); by hand: fold 0 = 2 TN, fold 1 = 1 TP + 1 FN
    assert fold_counts([0, 0, 1, 1], [0, 0, 1, 0], [0, 0, 1, 1]) == [Counts(0, 0, 0, 2), Counts(1, 0, 1, 0)]


def test_from_labels_fold_without_positives_still_counts():
    assert Counts.from_labels([0, 0], [0, 0]) == Counts(tp=0, fp=0, fn=0, tn=2)
    assert Counts.from_labels(["no", "no"], ["no", "no"], positive="yes") == Counts(0, 0, 0, 2)
    assert Counts.from_labels([], []) == Counts(0, 0, 0, 0)


@pytest.mark.parametrize("y, positive", [
    (["no", "no"], 1),          # the default positive=1 against string labels
    ([1, 1], "1"),              # a string positive against integer labels
    ([0, 1], "1"),              # ... also with two labels
    (np.array([0.0, 0.0]), "0"),
])
def test_from_labels_positive_of_another_type_is_a_type_error(y, positive):
    with pytest.raises(TypeError, match=rf"^positive={positive!r} is a "):
        Counts.from_labels(y, y, positive=positive)


def test_fold_counts_positive_of_another_type_is_a_type_error():
    with pytest.raises(TypeError, match=r"^positive=1 is a number but the labels .* are strs"):
        fold_counts(["no", "no"], ["no", "no"], [0, 1])


@pytest.mark.parametrize("positive", [None, float("nan"), pd.NA])
def test_from_labels_missing_positive_is_rejected(positive):
    with pytest.raises(ValueError, match="positive=.* is a missing value"):
        Counts.from_labels([0, 0], [0, 0], positive=positive)


def test_from_labels_y_true_and_y_pred_of_different_types():
    # scikit-learn: "Mix of label input types (string and number)"
    with pytest.raises(TypeError, match="y_true holds number labels, y_pred holds str labels"):
        Counts.from_labels([1, 0], ["1", "0"])


def test_from_labels_rejects_missing_labels_naming_the_argument():
    # the NaN used to become the string label 'nan'; pd.NA used to be a label of its own
    with pytest.raises((ValueError, TypeError), match="^y_true "):
        Counts.from_labels(["a", float("nan")], ["a", "a"], positive="a")
    with pytest.raises(ValueError, match=r"^y_true contains a missing value \(<NA>\) at position 1"):
        Counts.from_labels(pd.Series([1, pd.NA], dtype="Int64"), [1, 1])
    with pytest.raises(ValueError, match="^y_pred contains NaN at position 0"):
        Counts.from_labels([1.0, 0.0], [float("nan"), 0.0])


def test_from_labels_none_names_the_argument_and_position():
    with pytest.raises(ValueError, match=r"^y_true contains a missing value \(None\) at position 1"):
        Counts.from_labels([1, None], [1, 0])
    with pytest.raises(ValueError, match=r"^y_pred contains a missing value \(None\) at position 0"):
        Counts.from_labels([1, 0], [None, 0])


def test_fold_counts_none_in_folds_names_folds():
    with pytest.raises(ValueError, match=r"^folds contains a missing value \(None\) at position 2"):
        fold_counts([1, 0, 1, 0], [1, 0, 1, 0], [0, 0, None, 1])


def test_fold_counts_unorderable_fold_ids_name_folds():
    with pytest.raises(TypeError, match="^folds mixes label types"):
        fold_counts([1, 0], [1, 0], [0, "a"])


def test_fold_counts_nullable_integer_columns_are_accepted():
    # pandas nullable Int64 without missing values is ordinary integer data
    t = pd.Series([1, 0, 1, 0], dtype="Int64")
    p = pd.Series([1, 0, 0, 1], dtype="Int64")
    assert fold_counts(t, p, pd.Series([0, 0, 1, 1])) == [Counts(1, 0, 0, 1), Counts(0, 1, 1, 0)]


# --- counts beyond 2**53 -----------------------------------------------------------------------------
def test_counts_refuse_a_count_float_arithmetic_cannot_hold():
    # precision(Counts(10**400, 1, 0)) was an OverflowError from float(); now Counts refuses it
    with pytest.raises(ValueError, match=r"^tp=1000.* is larger than 2\*\*53"):
        precision(Counts(10**400, 1, 0))


def test_counts_addition_of_two_large_folds_is_our_value_error():
    half = 2**52 + 1
    with pytest.raises(ValueError, match=r"^tp=9007199254740994 is larger than 2\*\*53"):
        Counts(half, 0, 0) + Counts(half, 0, 0)
    with pytest.raises(ValueError, match=r"larger than 2\*\*53"):
        sum([Counts(0, half, 0), Counts(0, half, 0)])
    assert Counts(2**52, 0, 0) + Counts(2**52, 0, 0) == Counts(2**53, 0, 0)  # the limit itself is fine


# --- F_beta: overflow-free weights and numpy scalars ------------------------------------------------
def test_f_measure_huge_beta_is_recall():
    # F_beta -> recall as beta -> inf; by hand recall = 3 / (3 + 1)
    assert f_measure(Counts(tp=3, fp=1, fn=1), beta=1e200) == 0.75
    assert f_measure(Counts(tp=3, fp=7, fn=1), beta=1e200, formula="harmonic") == 0.75


def test_f_from_precision_recall_huge_beta_is_recall():
    assert f_from_precision_recall(0.5, 0.25, beta=1e200) == 0.25


def test_f_measure_tiny_beta_is_precision():
    # F_beta -> precision as beta -> 0; by hand precision = 3 / (3 + 1)
    assert f_measure(Counts(tp=3, fp=1, fn=9), beta=1e-200) == 0.75


@pytest.mark.parametrize("method", ["tp_fp", "avg", "pr_re"])
def test_cv_f_measure_huge_beta_is_recall(method):
    # folds with recall 3/4 and 1/4: pooled recall 4/8, mean recall (3/4 + 1/4)/2; both 0.5
    folds = [Counts(3, 1, 1), Counts(1, 0, 3)]
    assert cv_f_measure(folds, method=method, beta=1e200) == pytest.approx(0.5, rel=1e-15)


@pytest.mark.parametrize("beta, py_beta, expected", [
    (np.int64(2), 2, 15 / 21),            # F2 = 5·3 / (5·3 + 4·1 + 2)
    (np.float32(0.5), 0.5, 3.75 / 6),     # F0.5 = 1.25·3 / (1.25·3 + 0.25·1 + 2)
    (np.float64(1.0), 1.0, 6 / 9),        # F1 = 2·3 / (2·3 + 1 + 2)
])
def test_numpy_scalar_beta_equals_python_number(beta, py_beta, expected):
    c = Counts(tp=3, fp=2, fn=1)
    assert f_measure(c, beta=beta) == f_measure(c, beta=py_beta) == pytest.approx(expected, rel=1e-15)
    assert cv_f_measure([c], method="avg", beta=beta) == cv_f_measure([c], method="avg", beta=py_beta)
    assert cv_table([c], beta=beta).equals(cv_table([c], beta=py_beta))


def test_f_from_precision_recall_accepts_numpy_scalars():
    # eq. (1) by hand: 2·0.5·0.25 / (0.5 + 0.25) = 1/3
    assert f_from_precision_recall(np.float32(0.5), np.float64(0.25)) == f_from_precision_recall(0.5, 0.25)
    assert f_from_precision_recall(np.float32(0.5), 0.25) == pytest.approx(1 / 3, rel=1e-15)
    assert f_from_precision_recall(np.int64(1), np.int64(1)) == 1.0
    assert math.isnan(f_from_precision_recall(np.float32("nan"), 0.5, undefined="nan"))


def test_f_from_precision_recall_bad_values_name_the_argument():
    with pytest.raises(TypeError, match="^precision must be a real number"):
        f_from_precision_recall("0.5", 0.5)
    with pytest.raises(ValueError, match=r"^recall must lie in \[0, 1\]"):
        f_from_precision_recall(0.5, np.float32(1.5))
    with pytest.raises(ValueError, match=r"^recall must lie in \[0, 1\]"):
        f_from_precision_recall(0.5, float("inf"))


# --- cross_validation.py --------------------------------------------------------------------------
def test_cv_f_measure_tp_fp_undefined_gives_advice_that_applies():
    with pytest.raises(UndefinedMetricError) as info:
        cv_f_measure([Counts(0, 0, 0, 5)] * 2, method="tp_fp")
    message = str(info.value)
    assert message.startswith("F_tp,fp (TP = FP = FN = 0 in every fold) is undefined (0/0)")
    assert "no fold has a true positive, false positive or false negative" in message
    assert "pass undefined=" not in message  # cv_f_measure has no such parameter


def test_format_cv_table_rejects_what_is_not_a_cv_table():
    with pytest.raises(ValueError, match=r"^table lacks the column\(s\) \['negatives'.*apples.cv_table"):
        format_cv_table(pd.DataFrame())
    with pytest.raises(TypeError, match=r"^table must be the DataFrame returned by apples.cv_table.*got list"):
        format_cv_table([Counts(1, 1, 1)])
    t = cv_table([Counts(2, 0, 2, 370)])
    t.loc[1, "undefined"] = "accuracy"
    with pytest.raises(ValueError, match=r"^table.loc\[1, 'undefined'\] must list"):
        format_cv_table(t)
    t = cv_table([Counts(2, 0, 2, 370)])
    t["precision"] = t["precision"].astype(object)
    t.loc[1, "precision"] = "high"
    with pytest.raises(ValueError, match=r"^table.loc\[1, 'precision'\] must be a finite number"):
        format_cv_table(t)


def test_percent_rejects_non_finite_and_non_numbers_naming_value():
    with pytest.raises(ValueError, match="^percent needs a finite number: value must be finite, got inf"):
        percent(float("inf"))
    with pytest.raises(ValueError, match="value must be a number, got NaN; an undefined value has no percentage"):
        percent(float("nan"))
    with pytest.raises(TypeError, match="^value must be a real number, got 'a'"):
        percent("a")
    with pytest.raises(TypeError, match="^decimals must be a non-negative integer"):
        percent(0.5, decimals=1.5)
    with pytest.raises(ValueError, match="^decimals must be at most 100"):
        percent(0.5, decimals=101)


def test_percent_of_large_and_numpy_values():
    # Decimal's default 28-digit context could not quantize 1e30 · 100; by hand 10**32 %
    assert percent(1e30) == "1" + "0" * 32 + "%"
    assert percent(np.float32(0.625)) == "63%"      # 0.625 is exact in float32; halves round up
    assert percent(np.int64(1)) == "100%"
