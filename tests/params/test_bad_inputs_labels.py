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
    average_scores,
    averaging_table,
    cv_f_measure,
    cv_table,
    f_from_precision_recall,
    f_measure,
    fold_counts,
    format_cv_table,
    label_counts,
    labels_from_confusion_matrix,
    precision,
    split_confusion_matrix,
)
from apples.cv import percent
from apples.metrics import label_frequencies
from apples.studies.van_asch import boosting_table, relabel_errors, relabel_uncertain
from apples.theory import precision_factor


# --- counts.py: the label set and the positive label -----------------------------------------------
def test_fold_counts_checks_the_label_set_over_all_folds():
    # three labels overall, two per fold: 0 and 2 must not both become "negative" in silence
    with pytest.raises(ValueError, match=r"3 distinct labels \[0, 1, 2\]"):
        fold_counts([0, 1, 1, 2], [0, 1, 1, 2], folds=[0, 0, 1, 1])


def test_fold_counts_checks_the_positive_label_over_all_folds():
    # labels {0, 2} over the data: pos_label=1 is absent, although each fold alone holds one label
    with pytest.raises(ValueError, match=r"pos_label=1 is not one of the labels"):
        fold_counts([0, 0, 2, 2], [0, 0, 2, 2], folds=[0, 0, 1, 1])


def test_fold_counts_keeps_a_fold_without_positives():
    # fold 0 has no positives (the case Forman & Scholz study); by hand: fold 0 = 2 TN, fold 1 = 1 TP + 1 FN
    assert fold_counts([0, 0, 1, 1], [0, 0, 1, 0], folds=[0, 0, 1, 1]) == [Counts(0, 0, 0, 2), Counts(1, 0, 1, 0)]


def test_from_labels_fold_without_positives_still_counts():
    assert Counts.from_labels([0, 0], [0, 0]) == Counts(tp=0, fp=0, fn=0, tn=2)
    assert Counts.from_labels(["no", "no"], ["no", "no"], pos_label="yes") == Counts(0, 0, 0, 2)


def test_from_labels_refuses_empty_data_like_fold_counts():
    # Counts(0, 0, 0, 0) would give F = 0.0 for no cases at all; fold_counts refuses the same input
    with pytest.raises(ValueError, match=r"^y_true is empty"):
        fold_counts([], [], folds=[])
    with pytest.raises(ValueError, match=r"^y_true is empty"):
        Counts.from_labels([], [])
    with pytest.raises(ValueError, match=r"^y_true is empty"):
        Counts.from_labels(np.array([], dtype=int), np.array([], dtype=int), pos_label=0)


@pytest.mark.parametrize(
    "y, pos_label",
    [
        (["no", "no"], 1),  # the default pos_label=1 against string labels
        ([1, 1], "1"),  # a string positive against integer labels
        ([0, 1], "1"),  # ... also with two labels
        (np.array([0.0, 0.0]), "0"),
    ],
)
def test_from_labels_positive_of_another_type_is_a_type_error(y, pos_label):
    with pytest.raises(TypeError, match=rf"^pos_label={pos_label!r} is a "):
        Counts.from_labels(y, y, pos_label=pos_label)


def test_fold_counts_positive_of_another_type_is_a_type_error():
    with pytest.raises(TypeError, match=r"^pos_label=1 is a number but the labels .* are strs"):
        fold_counts(["no", "no"], ["no", "no"], folds=[0, 1])


@pytest.mark.parametrize("pos_label", [None, float("nan"), pd.NA])
def test_from_labels_missing_positive_is_rejected(pos_label):
    with pytest.raises(ValueError, match=r"pos_label=.* is a missing value"):
        Counts.from_labels([0, 0], [0, 0], pos_label=pos_label)


def test_from_labels_y_true_and_y_pred_of_different_types():
    # scikit-learn: "Mix of label input types (string and number)"
    with pytest.raises(TypeError, match="y_true holds number labels, y_pred holds str labels"):
        Counts.from_labels([1, 0], ["1", "0"])


def test_from_labels_rejects_missing_labels_naming_the_argument():
    # the NaN used to become the string label 'nan'; pd.NA used to be a label of its own
    with pytest.raises((ValueError, TypeError), match=r"^y_true "):
        Counts.from_labels(["a", float("nan")], ["a", "a"], pos_label="a")
    with pytest.raises(ValueError, match=r"^y_true contains a missing value \(<NA>\) at position 1"):
        Counts.from_labels(pd.Series([1, pd.NA], dtype="Int64"), [1, 1])
    with pytest.raises(ValueError, match=r"^y_pred contains NaN at position 0"):
        Counts.from_labels([1.0, 0.0], [float("nan"), 0.0])


def test_from_labels_none_names_the_argument_and_position():
    with pytest.raises(ValueError, match=r"^y_true contains a missing value \(None\) at position 1"):
        Counts.from_labels([1, None], [1, 0])
    with pytest.raises(ValueError, match=r"^y_pred contains a missing value \(None\) at position 0"):
        Counts.from_labels([1, 0], [None, 0])


def test_fold_counts_none_in_folds_names_folds():
    with pytest.raises(ValueError, match=r"^folds contains a missing value \(None\) at position 2"):
        fold_counts([1, 0, 1, 0], [1, 0, 1, 0], folds=[0, 0, None, 1])


def test_fold_counts_unorderable_fold_ids_name_folds():
    with pytest.raises(TypeError, match=r"^folds mixes label types"):
        fold_counts([1, 0], [1, 0], folds=[0, "a"])


def test_fold_counts_nullable_integer_columns_are_accepted():
    # pandas nullable Int64 without missing values is ordinary integer data
    t = pd.Series([1, 0, 1, 0], dtype="Int64")
    p = pd.Series([1, 0, 0, 1], dtype="Int64")
    assert fold_counts(t, p, folds=pd.Series([0, 0, 1, 1])) == [Counts(1, 0, 0, 1), Counts(0, 1, 1, 0)]


# --- counts beyond 2**53 -----------------------------------------------------------------------------
def test_counts_refuse_a_count_float_arithmetic_cannot_hold():
    # precision(Counts(10**400, 1, 0)) was an OverflowError from float(); now Counts refuses it
    with pytest.raises(ValueError, match=r"^tp=<an integer of about 401 digits> is larger than 2\*\*53"):
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


def _all_counts(n):
    """Every confusion count (tp, fp, fn, tn) with tp + fp + fn + tn = n."""
    return [
        Counts(tp, fp, fn, n - tp - fp - fn)
        for tp in range(n + 1)
        for fp in range(n + 1 - tp)
        for fn in range(n + 1 - tp - fp)
    ]


def _labels_of(c):
    return [1] * (c.tp + c.fn) + [0] * (c.fp + c.tn), [1] * c.tp + [0] * c.fn + [1] * c.fp + [0] * c.tn


@pytest.mark.parametrize("beta", [0.0, float("inf")])
def test_f_measure_beta_0_and_inf_are_precision_and_recall_as_scikit_learn(beta):
    import warnings

    from sklearn.metrics import fbeta_score

    for c in _all_counts(4):
        y_true, y_pred = _labels_of(c)
        for zero_division, undefined in ((0.0, "zero"), (np.nan, "nan")):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # scikit-learn's UndefinedMetricWarning at its 0/0
                expected = fbeta_score(y_true, y_pred, beta=beta, zero_division=zero_division)
            for formula in ("counts", "harmonic"):
                got = f_measure(c, beta=beta, undefined=undefined, formula=formula)
                assert got == expected or (math.isnan(got) and math.isnan(expected)), (c, formula, got, expected)


def test_f_measure_beta_0_and_inf_are_undefined_where_precision_and_recall_are():
    # no positive predictions: precision is 0/0, so F_0 is; F_beta for 0 < beta < inf is 0 there
    c = Counts(tp=0, fp=0, fn=3, tn=2)
    with pytest.raises(UndefinedMetricError, match=r"beta=0, which is precision \(TP \+ FP = 0\)"):
        f_measure(c, beta=0, undefined="raise")
    assert f_measure(c, beta=1e-200, undefined="raise") == 0.0
    # no positives: recall is 0/0, so F_inf is
    with pytest.raises(UndefinedMetricError, match=r"beta=inf, which is recall \(TP \+ FN = 0\)"):
        f_measure(Counts(tp=0, fp=2, fn=0, tn=3), beta=math.inf, undefined="raise")
    assert math.isnan(f_from_precision_recall(float("nan"), 0.5, beta=0, undefined="nan"))
    # the other value does not enter: F_0 is precision even where recall is undefined
    assert f_from_precision_recall(0.25, float("nan"), beta=0, undefined="raise") == 0.25
    assert f_from_precision_recall(float("nan"), 0.75, beta=np.float64("inf"), undefined="raise") == 0.75


@pytest.mark.parametrize("method", ["tp_fp", "pr_re"])
def test_cv_f_measure_beta_0_is_pooled_or_mean_precision(method):
    # by hand: folds with precision 3/4 and 1/3; pooled 4/7, mean (3/4 + 1/3)/2
    folds = [Counts(3, 1, 1), Counts(1, 2, 3)]
    expected = {"tp_fp": 4 / 7, "pr_re": (3 / 4 + 1 / 3) / 2}[method]
    assert cv_f_measure(folds, method=method, beta=0) == pytest.approx(expected, rel=1e-15)


def test_a_tiny_beta_whose_weight_underflows_still_gives_0_not_0_over_0():
    from apples.intervals import cv_f_measure_ci

    # by hand: TP = 0 with FN > 0 gives F_beta = 0 / (beta²/(1 + beta²) · FN) = 0 for every beta > 0,
    # although beta²/(1 + beta²) is 1e-400, which float64 rounds to 0
    assert f_measure(Counts(0, 0, 3, 2), beta=1e-200, undefined="raise") == 0.0
    assert f_from_precision_recall(0.5, 0.0, beta=1e-200, undefined="raise") == 0.0
    folds = [Counts(0, 0, 3, 2), Counts(0, 0, 1, 4)]
    ci = cv_f_measure_ci(folds, method="tp_fp", beta=1e-200, n_resamples=50, undefined="raise")
    assert (ci.estimate, ci.low, ci.high) == (0.0, 0.0, 0.0)
    with pytest.raises(UndefinedMetricError, match="undefined"):  # beta = 0: precision, 0/0 here
        cv_f_measure_ci(folds, method="tp_fp", beta=0, n_resamples=50, undefined="raise")


def test_max_f1_beta_inf_is_the_largest_recall_and_beta_0_the_largest_precision():
    from apples import max_f1

    y, s = [1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1]
    # by hand: thresholds 0.9, 0.8, 0.3, 0.1 predict the top 1..4: precision 1, 1/2, 2/3, 1/2; recall 1/2, 1/2, 1, 1
    assert max_f1(y, s, beta=0) == (1.0, 0.9)
    assert max_f1(y, s, beta=math.inf) == (1.0, 0.3)


def test_f_from_precision_recall_accepts_0_d_arrays():
    # by hand: F1 of 0.5 and 0.5 is 0.5; a 0-d array is what np.mean or an array reduction returns
    assert f_from_precision_recall(np.array(0.5), 0.5) == 0.5
    assert f_from_precision_recall(np.array(0.5), np.array(0.25, dtype=np.float32)) == pytest.approx(1 / 3)
    assert math.isnan(f_from_precision_recall(np.array(np.nan), 0.5, undefined="nan"))
    with pytest.raises(TypeError, match=r"^precision must be a real number"):
        f_from_precision_recall(np.array(True), 0.5)
    with pytest.raises(TypeError, match=r"^precision must be a real number"):
        f_from_precision_recall(np.array([0.5]), 0.5)


@pytest.mark.parametrize("method", ["tp_fp", "avg", "pr_re"])
def test_cv_f_measure_huge_beta_is_recall(method):
    # folds with recall 3/4 and 1/4: pooled recall 4/8, mean recall (3/4 + 1/4)/2; both 0.5
    folds = [Counts(3, 1, 1), Counts(1, 0, 3)]
    assert cv_f_measure(folds, method=method, beta=1e200) == pytest.approx(0.5, rel=1e-15)


@pytest.mark.parametrize(
    "beta, py_beta, expected",
    [
        (np.int64(2), 2, 15 / 21),  # F2 = 5·3 / (5·3 + 4·1 + 2)
        (np.float32(0.5), 0.5, 3.75 / 6),  # F0.5 = 1.25·3 / (1.25·3 + 0.25·1 + 2)
        (np.float64(1.0), 1.0, 6 / 9),  # F1 = 2·3 / (2·3 + 1 + 2)
    ],
)
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
    with pytest.raises(TypeError, match=r"^precision must be a real number"):
        f_from_precision_recall("0.5", 0.5)
    with pytest.raises(ValueError, match=r"^recall must lie in \[0, 1\]"):
        f_from_precision_recall(0.5, np.float32(1.5))
    with pytest.raises(ValueError, match=r"^recall must lie in \[0, 1\]"):
        f_from_precision_recall(0.5, float("inf"))


# --- cross_validation.py --------------------------------------------------------------------------
def test_cv_f_measure_tp_fp_undefined_gives_advice_that_applies():
    assert cv_f_measure([Counts(0, 0, 0, 5)] * 2, method="tp_fp") == 0.0  # the default, as F_avg's "zero"
    with pytest.raises(UndefinedMetricError) as info:
        cv_f_measure([Counts(0, 0, 0, 5)] * 2, method="tp_fp", undefined="raise")
    message = str(info.value)
    assert message.startswith("F_tp,fp (TP = FP = FN = 0 in every fold) is undefined (0/0)")
    assert "no fold has a true positive, false positive or false negative" in message
    assert "pass undefined='zero' or 'nan'" in message and "skip" not in message  # what applies to tp_fp


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
    with pytest.raises(ValueError, match=r"^percent needs a finite number: value must be finite, got inf"):
        percent(float("inf"))
    with pytest.raises(ValueError, match="value must be a number, got NaN; an undefined value has no percentage"):
        percent(float("nan"))
    with pytest.raises(TypeError, match=r"^value must be a real number, got 'a'"):
        percent("a")
    with pytest.raises(TypeError, match=r"^decimals must be an integer, got 1.5 \(float\)"):
        percent(0.5, decimals=1.5)
    with pytest.raises(ValueError, match=r"^decimals must be between 0 and 100, got 101"):
        percent(0.5, decimals=101)


def test_percent_of_large_and_numpy_values():
    # Decimal's default 28-digit context could not quantize 1e30 · 100; by hand 10**32 %
    assert percent(1e30) == "1" + "0" * 32 + "%"
    assert percent(np.float32(0.625)) == "63%"  # 0.625 is exact in float32; halves round up
    assert percent(np.int64(1)) == "100%"


# --- multilabel.py: every label checked, arguments named as the caller calls them -----------------------
def test_label_counts_rejects_a_missing_value_in_a_nullable_column():
    with pytest.raises(ValueError, match=r"^y_true\[1\] is a missing value \(<NA>\)"):
        label_counts(pd.Series([1, pd.NA, 0], dtype="Int64"), [1, 1, 0])


def test_label_counts_accepts_a_nullable_column_without_missing_values():
    # by hand: pairs (1,1) (0,1) (0,0): label 0 tp 1 fn 1, label 1 tp 1 fp 1; tn = 3 - tp - fp - fn
    out = label_counts(pd.Series([1, 0, 0], dtype="Int64"), [1, 1, 0])
    assert out == {0: Counts(1, 0, 1, 1), 1: Counts(1, 1, 0, 1)}


def test_label_counts_rejects_int_against_str_labels():
    from sklearn.metrics import confusion_matrix  # scikit-learn refuses the same mix

    with pytest.raises(ValueError, match="Mix of label input types"):
        confusion_matrix([1, 2], ["1", "2"])
    with pytest.raises(TypeError, match=r"^mix of label types: y_true holds number labels, y_pred holds str labels"):
        label_counts([1, 2], ["1", "2"])
    with pytest.raises(TypeError, match=r"^mix of label types"):
        label_counts(np.array([1, 2]), np.array(["1", "2"]))
    with pytest.raises(TypeError, match=r"^mix of label types"):
        split_confusion_matrix([1, 2], ["1", "2"])


def test_label_counts_rejects_mixed_types_within_one_side():
    with pytest.raises(TypeError, match=r"^y_true mixes label types \(number and str\)"):
        label_counts([1, "a"], [1, 1])


def test_probabilities_where_labels_belong_are_refused_as_scikit_learn_does():
    from sklearn.metrics import precision_recall_fscore_support

    # scikit-learn: "Classification metrics can't handle a mix of binary and continuous targets"
    with pytest.raises(ValueError, match="continuous"):
        precision_recall_fscore_support([0, 1, 0], [0.1, 0.2, 0.3], average="macro")
    # before: each probability became a class, and the macro scores were 0 without a word
    with pytest.raises(ValueError, match=r"^y_pred holds 0.1 at position 0, a continuous value"):
        label_counts([0, 1, 0], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match=r"^y_pred holds inf at position 0, an infinite value"):
        label_counts([0, 1], [np.inf, 1])
    with pytest.raises(ValueError, match=r"^y_true holds -inf at position 1"):
        label_counts(np.array([1.0, -np.inf]), [1, 1])
    with pytest.raises(ValueError, match=r"^y_true\b.*continuous value"):
        label_counts([[0.5], [1]], [[1], [1]])  # multi-label sets are checked label by label


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda bad: Counts.from_labels([1, 0, 1], bad), "y_pred"),
        (lambda bad: fold_counts([1, 0, 1], [1, 0, 1], folds=bad), "folds"),
        (lambda bad: split_confusion_matrix(bad, [1, 0, 1]), "y_true"),
        (lambda bad: pd.Series(bad, dtype=object).pipe(lambda s: label_counts([1, 0, 1], s)), "y_pred"),
    ],
)
def test_every_label_argument_refuses_continuous_values(call, name):
    with pytest.raises(ValueError, match=rf"^{name} holds 0.5 at position 1, a continuous value"):
        call([1.0, 0.5, 1.0])


def test_whole_number_floats_are_labels_and_count_as_scikit_learn_counts_them():
    from sklearn.metrics import multilabel_confusion_matrix

    t, p = [0.0, 1.0, 2.0, 2.0, 1.0], [0.0, 2.0, 2.0, 1.0, 1.0]
    out = label_counts(t, p)
    m = multilabel_confusion_matrix(t, p, labels=[0.0, 1.0, 2.0])  # [[tn, fp], [fn, tp]] per label
    assert out == {
        lab: Counts(int(c[1, 1]), int(c[0, 1]), int(c[1, 0]), int(c[0, 0]))
        for lab, c in zip([0.0, 1.0, 2.0], m, strict=True)
    }
    assert Counts.from_labels([1.0, 0.0, 1.0], [1.0, 1.0, 0.0], pos_label=1.0) == Counts(1, 1, 1, 0)


@pytest.mark.parametrize(
    "y_true, y_pred, error, match",
    [
        ([[1, pd.NA]], [[1]], ValueError, r"^y_true\[0\]\[1\] is a missing value \(<NA>\)"),
        ([[1]], [[pd.NaT]], ValueError, r"^y_pred\[0\]\[0\] is a missing value \(NaT\)"),
        ([[1, "a"]], [[1]], TypeError, r"^y_true mixes label types"),
        ([[1], ["a"]], [[1], [1]], TypeError, r"^y_true mixes label types"),
        ([[1], [2]], [["1"], ["2"]], TypeError, "^mix of label types: y_true holds number labels, y_pred holds str"),
    ],
)
def test_multilabel_instances_are_checked_label_by_label(y_true, y_pred, error, match):
    with pytest.raises(error, match=match):
        label_counts(y_true, y_pred)


def test_label_counts_labels_argument_of_another_type():
    with pytest.raises(
        TypeError, match=r"^mix of label types: labels holds str labels, y_true and y_pred holds number"
    ):
        label_counts([1, 2], [1, 2], labels=["1", "2"])
    with pytest.raises(ValueError, match=r"^labels\[1\] is a missing value \(<NA>\)"):
        label_counts([1, 2], [1, 2], labels=[1, pd.NA, 2])
    # the NONE label of empty='label' is not a label of the data's type, and is allowed in labels=
    out = label_counts([[1], []], [[1], [2]], labels=[1, 2, "NONE"], empty="label")
    # by hand: instance 1 tp for 1; instance 2 gold [] -> [NONE], predicted 2: fn NONE, fp 2
    assert (out[1].tp, out[2].fp, out["NONE"].fn) == (1, 1, 1)


def test_label_frequencies_names_its_argument_y():
    with pytest.raises(ValueError, match=r"^there are no labels: y is empty and labels= was not given"):
        label_frequencies([])
    with pytest.raises(ValueError, match=r"^y contains label\(s\) 'z' that are not in labels="):
        label_frequencies(["a", "z"], labels=["a"])
    with pytest.raises(ValueError, match=r"^y\[0\] is a missing value \(<NA>\)"):
        label_frequencies(pd.Series([pd.NA, 1], dtype="Int64"))
    with pytest.raises(ValueError, match=r"^y is ragged"):
        label_frequencies([["a"], "b"])
    with pytest.raises(TypeError, match=r"^y mixes label types"):
        label_frequencies([1, "a"])
    with pytest.raises(TypeError, match="labels holds str labels, y holds number labels"):
        label_frequencies([1, 2], labels=["1", "2"])


def test_labels_from_confusion_matrix_checks_the_label_names():
    with pytest.raises(TypeError, match=r"^labels mixes label types"):
        labels_from_confusion_matrix([[1, 0], [0, 1]], [1, "a"])
    with pytest.raises(ValueError, match=r"^labels contains a missing value \(None\) at position 0"):
        labels_from_confusion_matrix([[1, 0], [0, 1]], [None, "a"])
    with pytest.raises(TypeError, match=r"^labels must be a sequence"):
        labels_from_confusion_matrix([[1, 0], [0, 1]], "ab")


def test_labels_from_confusion_matrix_refuses_more_instances_than_memory():
    # 2**40 instances need 2 arrays of 2**40 int64 labels = 16 TiB; refused before np.repeat
    with pytest.raises(
        ValueError,
        match=r"y_true and y_pred of 1,099,511,627,776 instances would need about "
        r"1.64e\+04 GiB; the limit is 1 GiB .*reduce the counts in matrix",
    ):
        labels_from_confusion_matrix([[2**40]])


# --- averaging.py ------------------------------------------------------------------------------------
THREE = {"a": Counts(1, 1, 0), "b": Counts(1, 3, 0), "c": Counts(3, 1, 0)}  # precision 1/2, 1/4, 3/4


def test_float32_frequencies_that_sum_to_one_in_float32_are_accepted():
    f32 = {"a": np.float32(0.1), "b": np.float32(0.2), "c": np.float32(0.7)}
    assert math.fsum(float(v) for v in f32.values()) == pytest.approx(1 - 7.45e-9, abs=1e-11)  # > 1e-9 off
    s = average_scores(THREE, average="lfb", frequencies=f32)
    # by hand: 0.1·1/2 + 0.2·1/4 + 0.7·3/4 = 0.625 (float32 weights: within 1e-7)
    assert s.precision == pytest.approx(0.625, rel=1e-7)


def test_frequency_tolerance_stays_tight_for_float64_and_for_wrong_float32_sums():
    with pytest.raises(ValueError, match="must sum to 1"):
        average_scores(THREE, average="lfb", frequencies={"a": 0.1, "b": 0.2, "c": 0.7 - 1e-8})
    with pytest.raises(ValueError, match="must sum to 1"):
        average_scores(
            THREE, average="lfb", frequencies={"a": np.float32(0.1), "b": np.float32(0.2), "c": np.float32(0.6999)}
        )


def test_averaging_table_checks_frequencies_before_using_them():
    with pytest.raises(TypeError, match=r"^frequencies\['a'\] must be a real number"):
        averaging_table(THREE, frequencies={"a": "high", "b": 0.2, "c": 0.7})  # was float()'s ValueError
    with pytest.raises(ValueError, match=r"frequencies has no entry for label\(s\) \['c'\]"):
        averaging_table(THREE, frequencies={"a": 0.5, "b": 0.5})


def test_skip_with_test_frequencies_agrees_with_sklearn_weighted_nan_where_defined_alike():
    from sklearn.metrics import precision_recall_fscore_support

    y_true, y_pred = [1, 1, 2, 3], [1, 2, 2, 4]
    sk = precision_recall_fscore_support(y_true, y_pred, average="weighted", zero_division=np.nan)
    ours = average_scores(label_counts(y_true, y_pred), average="lfb", frequencies="test", undefined="skip")
    # by hand: precision (2·1 + 1·1/2) / 3 (label 3 undefined, label 4 weight 0), recall (2·1/2 + 1 + 0) / 4
    assert ours.precision == pytest.approx(2.5 / 3) == sk[0]
    assert ours.recall == pytest.approx(0.5) == sk[1]
    assert ours.mean_f == pytest.approx(sk[2])


def test_skip_with_test_frequencies_differs_from_sklearn_where_only_weight_zero_labels_are_defined():
    from sklearn.metrics import precision_recall_fscore_support

    # precision: label 1 (weight 1) 0/0, label 2 (weight 0) 0. Nothing with weight is defined: nan;
    # scikit-learn falls back to the unweighted mean of the defined values: 0.0 (documented difference)
    sk = precision_recall_fscore_support([1], [2], average="weighted", zero_division=np.nan)
    ours = average_scores(label_counts([1], [2]), average="lfb", frequencies="test", undefined="skip")
    assert sk[0] == 0.0
    assert math.isnan(ours.precision)
    assert ours.recall == sk[1] == 0.0  # recall of label 1 is 0, defined, weight 1: both agree


# --- prediction_cost.py --------------------------------------------------------------------------------
def test_relabel_target_of_another_type_is_a_type_error():
    # numpy would turn [1, 2, 3] and "a" into the strings ['1', '2', 'a']
    with pytest.raises(TypeError, match=r"^target='a' is a str but the labels in y_pred are numbers"):
        relabel_uncertain([1, 2, 3], [0.1, 0.5, 0.9], threshold=0.5, target="a")
    with pytest.raises(TypeError, match=r"^target='a' is a str"):
        relabel_errors([1, 2], [2, 2], target="a")
    with pytest.raises(TypeError, match=r"^mix of label types: y_true holds number labels, y_pred holds str"):
        relabel_errors([1, 2], ["1", "2"], target="1")
    with pytest.raises(ValueError, match=r"^target=None is a missing value"):
        relabel_uncertain([1, 2], [0.1, 0.5], threshold=0.5, target=None)


def test_boosting_table_names_the_prediction_of_another_type():
    with pytest.raises(TypeError, match=r"predictions\['NORMAL'\] holds number labels"):
        boosting_table(["A", "B"], {"NORMAL": [1, 2]}, labels=["A", "B"])


def test_prediction_cost_accepts_numpy_scalars():
    # eq. (16) by hand: 0.5 · (−1·3) / ((3 + 2)(3 + 2 + 1)) = −0.05
    assert precision_factor(Counts(3, 2, 7), 1, weight=np.float32(0.5)) == pytest.approx(-0.05, rel=1e-15)
    assert relabel_uncertain([1, 2], [0.1, 0.9], threshold=np.float32(0.5), target=np.int64(7)).tolist() == [1, 7]
    with pytest.raises(ValueError, match=r"^threshold must be a number, got NaN"):
        relabel_uncertain([1, 2], [0.1, 0.9], threshold=np.float64("nan"), target=7)


# --- simulation.py, exact.py, fold_size.py: sizes refused before anything is allocated ---------------
def _quick(call, seconds=5.0):
    """Run ``call`` and return its exception, failing if it took longer than ``seconds``."""
    import time

    start = time.perf_counter()
    with pytest.raises(ValueError) as info:
        call()
    assert time.perf_counter() - start < seconds
    return str(info.value)


def test_simulate_cv_f_refuses_outcome_tables_beyond_the_memory_limit():
    from apples.studies.forman_scholz import sample_cv_f, simulate_cv_f
    from apples.theory import exact_cv_f

    # 2 stratified folds of 100,000 cases with 50,000 positives each: (50,001)² = 2.5e9 outcomes
    big = dict(stratified=True, n_cases=200_000, n_folds=2)
    message = _quick(lambda: simulate_cv_f(0.5, 0.8, n_reps=1, **big))
    assert "2,500,100,001 outcomes" in message and "the limit is 1 GiB" in message
    assert "reduce the fold size n_cases / n_folds" in message
    _quick(lambda: sample_cv_f(0.5, 0.8, n_reps=1, **big))
    _quick(lambda: exact_cv_f(0.5, 0.8, method="avg", **big))


def test_outcome_count_matches_the_sum_over_fold_types():
    from apples.theory.fold_model import _outcome_count, simulation_design

    # by hand: 10 positives in 10 stratified folds of 100: one type p = 1, 2 · 100 outcomes
    assert _outcome_count(simulation_design(0.01, 0.8), True) == 2 * 100
    # unstratified folds of 4 cases, 3 positives and 5 negatives in all: p from 0 to 3,
    # Σ (p + 1)(5 − p) = 5 + 8 + 9 + 8
    assert _outcome_count(simulation_design(3 / 8, 0.8, n_cases=8, n_folds=2), False) == 30


def test_fold_positives_refuses_allocations_beyond_the_memory_limit():
    from apples.theory import fold_positives

    message = _quick(lambda: fold_positives(5, n_cases=10**9, n_folds=10**8, stratified=False))
    assert "100,000,000 folds of 10 cases" in message and "reduce n_folds" in message
    _quick(lambda: fold_positives(5, n_cases=1000, n_folds=10, stratified=True, n_reps=10**9))
    _quick(lambda: fold_positives(5, n_cases=1000, n_folds=10, stratified=False, n_reps=10**9))


def test_sample_cv_f_refuses_a_result_beyond_the_memory_limit():
    from apples.studies.forman_scholz import sample_cv_f

    message = _quick(lambda: sample_cv_f(0.05, 0.8, stratified=True, n_reps=10**8))
    assert "100,000,000 repetitions" in message and "simulate_cv_f" in message


def test_exact_tp_fp_refuses_sums_beyond_the_memory_limit():
    from apples.theory import exact_cv_f

    message = _quick(lambda: exact_cv_f(0.5, 0.8, stratified=True, method="tp_fp", n_cases=2**40, n_folds=2))
    assert "binomial laws of TP and FP" in message and "reduce n_cases" in message


def test_p_fold_without_positives_refuses_integers_beyond_the_work_limit():
    from apples.theory import p_fold_without_positives

    message = _quick(lambda: p_fold_without_positives(5 * 10**8, n_cases=10**9, n_folds=10))
    assert "MAX_EXACT_BITS" in message
    # the shortcuts are the exact values: pigeonhole (5 positives, 10 folds) and every fold full
    assert p_fold_without_positives(5, n_cases=10**9, n_folds=10) == 1.0
    assert p_fold_without_positives(10**9 - 10**8 + 1, n_cases=10**9, n_folds=10) == 0.0
    # by hand: 2 positives in 2 folds of 2 cases (C(4, 2) = 6 placements), both in one fold: 2 of 6
    assert p_fold_without_positives(2, n_cases=4, n_folds=2) == pytest.approx(1 / 3, rel=1e-15)


def test_fold_size_simulation_and_exact_sums_refuse_sizes_beyond_the_memory_limit():
    from apples.studies.van_asch import exact_fold_f1, simulate_fold_counts
    from apples.theory import fold_sizes

    message = _quick(lambda: simulate_fold_counts(0.05, n_instances=1000, n_folds=10, n_reps=10**9))
    assert "1,000,000,000 simulated cross-validations of 10 folds" in message
    _quick(lambda: fold_sizes(2**52, 2**50))
    message = _quick(lambda: exact_fold_f1(0.05, method="avg", n_instances=2**40, n_folds=2))
    assert "reduce n_instances" in message
    with pytest.raises(ValueError, match=r"^n_instances must be between 2 and 9007199254740992"):
        fold_sizes(10**30, 10)


def test_simulate_grid_and_exact_grid_name_points():
    from apples.studies.forman_scholz import simulate_grid
    from apples.theory import exact_grid

    for grid in (simulate_grid, exact_grid):
        kw = {"n_reps": 10} if grid is simulate_grid else {}
        with pytest.raises(TypeError, match=r"^points must be a DataFrame with columns prior, f_true and stratified"):
            grid([(0.01, 0.8, True)], **kw)
        with pytest.raises(ValueError, match=r"^points lacks the column\(s\) \['stratified'\]"):
            grid(pd.DataFrame({"prior": [0.01], "f_true": [0.8]}), **kw)
        # a string or an int in a column is refused by the function that uses it, not converted
        with pytest.raises(TypeError, match=r"^stratified must be True or False"):
            grid(pd.DataFrame({"prior": [0.01], "f_true": [0.8], "stratified": ["no"]}), **kw)
        with pytest.raises(TypeError, match=r"^prior must be a real number"):
            grid(pd.DataFrame({"prior": ["0.01"], "f_true": [0.8], "stratified": [True]}), **kw)


# --- f_figures.py, sim_explorer.py ------------------------------------------------------------------------
def test_f_figures_accept_numpy_scalars_and_name_bad_arguments():
    from apples.theory import f_from_rates, f_of_tp

    # F = 2·tpr·π / (tpr·π + π + fpr·(1 − π)); by hand at tpr 0.8, fpr 0, π 0.5: 0.8 / 0.9
    assert f_from_rates(0.8, 0.0, prior=np.float32(0.5)) == pytest.approx(0.8 / 0.9, rel=1e-15)
    assert f_of_tp(np.int64(3), positives=np.int64(4), fp=np.int64(1)) == 0.75  # 6 / 8
    with pytest.raises(TypeError, match=r"^tpr must be a real number or an array of real numbers"):
        f_from_rates("0.8", 0.1, prior=0.5)
    with pytest.raises(ValueError, match=r"^tp must lie in \[0, inf\], got nan"):
        f_of_tp(float("nan"), positives=4, fp=1)
    with pytest.raises(TypeError, match=r"^positives must be a non-negative integer count"):
        f_of_tp(1, positives="4", fp=1)


def test_sim_explorer_plots_name_bad_tables():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from apples.studies.forman_scholz import plot_cv_f_histograms, plot_method_curves

    fig, ax = plt.subplots()
    try:
        with pytest.raises(TypeError, match=r"^estimates must be a pandas DataFrame"):
            plot_cv_f_histograms([0.5], 0.8, ax=ax)
        with pytest.raises(ValueError, match=r"^estimates lacks the column\(s\) \['tp_fp'"):
            plot_cv_f_histograms(pd.DataFrame({"x": [0.5]}), 0.8, ax=ax)
        with pytest.raises(ValueError, match=r"^frame lacks the column\(s\) \['method'"):
            plot_method_curves(pd.DataFrame({"prior": [0.01], "bias": [0.0]}), x="prior", y="bias", ax=ax)
        with pytest.raises(ValueError, match=r"^methods has"):
            plot_method_curves(
                pd.DataFrame({"method": ["avg"], "prior": [0.01], "bias": [0.0]}),
                x="prior",
                y="bias",
                methods=["mean"],
                ax=ax,
            )
    finally:
        plt.close(fig)


# --- cases test_common.py listed as known failures in these modules --------------------------------------
def test_fold_counts_rejects_empty_data_naming_y_true():
    with pytest.raises(ValueError, match=r"^y_true is empty: there are no cases, hence no folds"):
        fold_counts([], [], folds=[])


def test_score_change_names_before_and_after():
    from apples.theory import score_change

    table = {"a": Counts(1, 1, 1)}
    with pytest.raises(TypeError, match=r"^before must be a mapping"):
        score_change([Counts(1, 1, 1)], table, average="macro")
    with pytest.raises(ValueError, match=r"^after is empty"):
        score_change(table, {}, average="macro")
    with pytest.raises(TypeError, match=r"^after\['a'\] must be an apples.Counts"):
        score_change(table, {"a": (1, 1, 1)}, average="macro")


def test_uncertainty_functions_reject_int_against_str_labels():
    from apples.studies.van_asch import accuracy_by_uncertainty, expected_accuracy, uncertainty_threshold

    for f in (accuracy_by_uncertainty, expected_accuracy, uncertainty_threshold):
        with pytest.raises(TypeError, match=r"^mix of label types: y_true holds number labels, y_pred holds str"):
            f([0, 1], ["0", "1"], [0.1, 0.2])


def test_accuracy_by_uncertainty_with_more_bins_than_predictions():
    from apples.studies.van_asch import accuracy_by_uncertainty

    # every prediction its own bin; by hand: correct, correct, correct, wrong
    table = accuracy_by_uncertainty([0, 0, 1, 1], [0, 0, 1, 0], [0.1, 0.2, 0.3, 0.9], bins=10**15)
    assert table["accuracy"].tolist() == [1.0, 1.0, 1.0, 0.0]
    assert table["n"].tolist() == [1, 1, 1, 1]
    with pytest.raises(ValueError, match=r"^bins must be between 1 and 9007199254740992, got 1152921504606846976"):
        accuracy_by_uncertainty([0, 1], [0, 1], [0.1, 0.2], bins=2**60)


def test_fold_size_counts_above_2_53_are_refused():
    from apples.theory import fold_f1

    big = np.array([2**60], dtype=np.uint64)  # int64 would keep it, float would not hold it exactly
    with pytest.raises(ValueError, match=r"^n_a holds a count above 2\*\*53"):
        fold_f1(big, big, big, fold_size=big, method="tp_fp")


def test_simulate_fold_f1_refuses_n_reps_above_2_53():
    from apples.studies.van_asch import fold_f1_curve, simulate_fold_f1

    _quick(lambda: simulate_fold_f1(0.05, n_reps=2**60))
    _quick(lambda: fold_f1_curve([0.05], n_reps=2**60))


def test_precision_change_names_the_move_with_an_unknown_label():
    from apples.theory import precision_change

    table = {"a": Counts(1, 2, 0), "b": Counts(1, 0, 0)}
    with pytest.raises(ValueError, match=r"^moves\[1\] has target 'zz', which is not a label of counts_by_label"):
        precision_change(table, [("a", "b", 1), ("a", "zz", 1)], average="macro")


def test_resampling_and_generators_refuse_arrays_beyond_the_memory_limit_up_front():
    from apples.intervals import roc_auc_ci
    from apples.metrics import uniform_threshold_loss_draws
    from apples.studies.forman_scholz import scores_with_auc
    from apples.studies.parker import make_waveform

    y, s = [1, 0, 1, 0, 1, 0, 1, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2]
    # before: numpy's MemoryError (7.45 GiB, 74.5 GiB, 74.5 GiB), or minutes of swapping
    message = _quick(lambda: roc_auc_ci(y, s, method="bootstrap", n_resamples=10**9))
    assert message.startswith("n_resamples=1,000,000,000: the bootstrap's resampled AUCs would need about 14.9 GiB")
    assert "limit is 1 GiB" in message and "reduce n_resamples" in message
    message = _quick(lambda: make_waveform(10**10, seed=0))
    assert "10,000,000,000 waveform cases" in message and "reduce n_samples" in message
    message = _quick(lambda: scores_with_auc(100_000, 100_000, 0.8, rng=np.random.default_rng(0)))
    assert "100,000 × 100,000 pairwise" in message and "reduce n_positives or n_negatives" in message
    message = _quick(lambda: uniform_threshold_loss_draws(y, s, 10**9, seed=0))
    assert "1,000,000,000 draws" in message and "reduce n_draws" in message
    # one contract per parameter: n_resamples is checked at the entry whichever method then uses it
    # (before: accepted with DeLong's interval, which draws nothing)
    with pytest.raises(ValueError, match=r"^n_resamples=1,000,000,000"):
        roc_auc_ci(y, s, n_resamples=10**9)
