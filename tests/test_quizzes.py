"""The quizzes' worked answers, recomputed: every number an answer computes on its question's own data.

tools/check_claims.py checks a quiz's numbers against its notebook's outputs. An application question ("Apply
it") works on data of its own, so its numbers have no output to match: they are on the allow-list
(tools/claims_allowed/NN.toml) with a pointer here, and each test below recomputes them, by hand (fractions,
scipy, scikit-learn) and with apples, and checks that the quiz prints them as written.
"""

from fractions import Fraction
from math import comb, sqrt
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.metrics import f1_score, precision_score

import apples
from apples import Counts
from apples.studies import parker as pk
from apples.studies import van_asch as va
from book._ext import apples_guide

QUIZZES = Path(__file__).resolve().parents[1] / "book" / "quizzes"


def answer(quiz: str, number: int) -> str:
    """The question and answer text of one quiz item, whitespace normalised."""
    items = apples_guide.parse_quiz((QUIZZES / f"{quiz}.md").read_text(encoding="utf-8"))
    item = next(q for q in items if q.number == number)
    return " ".join(f"{item.question} {item.answer}".split())


def shows(text: str, *numbers: str) -> None:
    missing = [n for n in numbers if n not in text]
    assert not missing, f"the answer does not print {missing}: {text[:200]}"


def _f(c: Counts) -> Fraction:
    return Fraction(2 * c.tp, 2 * c.tp + c.fp + c.fn)


def test_quiz_01_apply_five_folds():
    folds = [Counts(2, 1, 1), Counts(1, 0, 2), Counts(3, 2, 0), Counts(0, 1, 3), Counts(2, 0, 1)]
    per_fold = [_f(c) for c in folds]
    f_avg, f_tpfp = sum(per_fold) / 5, Fraction(16, 27)
    assert apples.cv_f_measure(folds, method="avg") == pytest.approx(float(f_avg))
    assert apples.cv_f_measure(folds, method="tp_fp") == pytest.approx(float(f_tpfp))
    text = answer("01", 4)
    shows(text, "0.667, 0.500, 0.750, 0 and 0.800", f"{float(sum(per_fold)):.3f}/5", f"{float(f_avg):.3f}")
    shows(text, f"16/27 = {float(f_tpfp):.3f}", f"{100 * float(f_avg):.1f} %", f"{100 * float(f_tpfp):.1f} %")
    skip = apples.cv_f_measure(folds, method="avg", undefined="skip")
    assert skip == pytest.approx(float(f_avg))  # no undefined fold


def test_quiz_01_apply_an_undefined_fold():
    folds = [Counts(2, 1, 1), Counts(1, 0, 2), Counts(3, 2, 0), Counts(0, 0, 3), Counts(2, 0, 1)]
    value = {
        k: apples.cv_f_measure(folds, method=a.method, undefined=a.undefined) for k, a in apples.F_AGGREGATIONS.items()
    }
    assert value["tp_fp"] == pytest.approx(16 / 26)
    defined = [_f(c) for i, c in enumerate(folds) if i != 3]
    assert value["avg_skip"] == pytest.approx(float(sum(defined) / 4))
    text = answer("01", 5)
    shows(text, f"16/26 = {value['tp_fp']:.3f}", f"F_avg ({value['avg']:.3f})", f"F_pr,re ({value['pr_re']:.3f})")
    shows(text, f"{value['avg_skip']:.3f} and {value['pr_re_skip']:.3f}")
    gaps = (100 * (value["avg_skip"] - value["avg"]), 100 * (value["pr_re_skip"] - value["pr_re"]))
    shows(text, f"{gaps[0]:.1f} and {gaps[1]:.1f} points")


def test_quiz_02_apply_pairs_within_and_between():
    y, s, f = [1, 0, 0, 1, 1, 0], [0.9, 0.6, 0.4, 0.5, 0.3, 0.2], [1, 1, 1, 2, 2, 2]
    d = apples.merge_decomposition(y, s, folds=f)
    assert apples.cv_roc_auc(y, s, folds=f, method="avg") == 1.0
    assert d.merged == pytest.approx(6 / 9) and d.within_share == pytest.approx(4 / 9)
    assert d.between == pytest.approx(2 / 5)
    shows(answer("02", 4), "6/9 = 0.667", f"{100 * d.within_share:.1f} %", "AUC_between = 0.4")


def test_quiz_03_apply_a_fold_without_positives():
    p = apples.theory.p_fold_without_positives(12, n_cases=200, n_folds=5)
    by_hand = sum((-1) ** (j + 1) * comb(5, j) * comb(200 - 40 * j, 12) for j in range(1, 6)) / comb(200, 12)
    assert p == pytest.approx(by_hand, rel=1e-12)
    ten = apples.theory.p_fold_without_positives(12, n_cases=200, n_folds=5, n_trials=10)
    assert ten == pytest.approx(1 - (1 - p) ** 10)
    one_fold = comb(160, 12) / comb(200, 12)
    shows(answer("03", 4), f"{100 * p:.1f} %", f"{p:.3f}", f"{100 * ten:.1f} %", f"{100 * one_fold:.2f} %")
    shows(answer("03", 4), f"{500 * one_fold:.1f} %")


def test_quiz_03_apply_more_folds():
    text = answer("03", 5)
    for k in (5, 10, 20):
        for stratified in (True, False):
            avg = apples.theory.exact_cv_f(0.02, 0.8, stratified=stratified, method="avg", n_folds=k)
            shows(text, f"{100 * avg:.2f} %")
        tpfp = apples.theory.exact_cv_f(0.02, 0.8, stratified=True, method="tp_fp", n_folds=k)
        shows(text, f"{100 * tpfp:.2f} %")


def test_quiz_04_apply_eq_26():
    f_a, f_b = Fraction(8, 50 + 4 - 42), Fraction(2 * 42, 50 + 42 - 4)
    assert apples.f_measure(Counts(tp=4, fp=3, fn=1)) == pytest.approx(float(f_a))
    assert apples.f_measure(Counts(tp=42, fp=1, fn=3)) == pytest.approx(float(f_b))
    shows(answer("04", 4), f"8/12 = {float(f_a):.3f}", f"84/88 = {float(f_b):.3f}")


def test_quiz_04_apply_expected_counts_and_folds():
    fp = (1 - 0.977) * 950
    expected = 80 / (80 + fp + 10)
    assert apples.theory.theoretical_f1(0.05, average="binary") == pytest.approx(expected)
    text = answer("04", 5)
    shows(text, f"0.023 · 950 = {fp:.2f}", f"{100 * expected:.1f} %")
    for k in (5, 10, 50):
        shows(text, f"{100 * va.exact_fold_f1(0.05, method='avg', n_folds=k):.2f} %")
    shows(text, f"{100 * va.exact_fold_f1(0.05, method='tp_fp', n_folds=50):.2f} %")


def _wine_table():
    matrix = np.array([[8, 2, 2], [1, 3, 1], [1, 1, 1]])
    y_true, y_pred = apples.labels_from_confusion_matrix(matrix, labels=["A", "B", "C"])
    return y_true, y_pred, apples.label_counts(y_true, y_pred)


def test_quiz_05_apply_three_averages():
    y_true, y_pred, counts = _wine_table()
    macro = apples.average_scores(counts, average="macro").precision
    micro = apples.average_scores(counts, average="micro").precision
    lfb = apples.average_scores(counts, average="lfb", frequencies="test").precision
    assert macro == pytest.approx(precision_score(y_true, y_pred, average="macro"))
    assert micro == pytest.approx(precision_score(y_true, y_pred, average="micro"))
    assert lfb == pytest.approx(precision_score(y_true, y_pred, average="weighted"))
    shows(answer("05", 4), f"= {macro:.3f}", f"= {micro:.3f}", f"= {lfb:.4f}")


def test_quiz_05_apply_two_macro_f():
    y_true, y_pred, counts = _wine_table()
    macro = apples.average_scores(counts, average="macro")
    assert macro.mean_f == pytest.approx(f1_score(y_true, y_pred, average="macro"))
    per_label = [float(_f(counts[k])) for k in "ABC"]
    text = answer("05", 5)
    shows(
        text,
        f"macro recall is {macro.recall:.3f}",
        f"= {macro.f_of_averages:.3f}",
        f"(eq. 4, `mean_f`) {macro.mean_f:.3f}",
    )
    shows(text, ", ".join(f"{v:.3f}" for v in per_label[:2]) + f" and {per_label[2]:.3f}")


def test_quiz_06_apply_one_move():
    a, c = Counts(tp=8, fp=2, fn=4), Counts(tp=1, fp=3, fn=2)
    give = apples.theory.precision_factor(a, -1, weight=1 / 3)
    take = apples.theory.precision_factor(c, 1, weight=1 / 3)
    assert give == pytest.approx((8 / 9 - 8 / 10) / 3) and take == pytest.approx((1 / 5 - 1 / 4) / 3)
    shows(answer("06", 4), f"(0.0889 − 0.05)/3 = +{give + take:.4f}", f"+{give:.4f}", f"−{-take:.4f}", "12/20 = 0.600")


def test_quiz_06_apply_piling_false_positives():
    tp = {"A": 8, "B": 3, "C": 1}
    macro = {}
    for target in tp:
        counts = {k: Counts(tp=v, fp=8 if k == target else 0, fn=0) for k, v in tp.items()}
        macro[target] = apples.average_scores(counts, average="macro").precision
        assert macro[target] == pytest.approx(np.mean([v / (v + (8 if k == target else 0)) for k, v in tp.items()]))
    assert max(macro, key=macro.get) == "A"
    shows(answer("06", 5), *(f"macro {macro[k]:.3f}" for k in "ABC"), f"from 0.517 to {macro['A']:.3f}")


def test_quiz_09_apply_a_wilson_interval():
    low, high = pk.wilson_interval(40, 250)
    by_scipy = stats.binomtest(40, 250).proportion_ci(confidence_level=0.95, method="wilson")
    assert (low, high) == pytest.approx((by_scipy.low, by_scipy.high))
    shows(answer("09", 4), "40/250 = 0.160", f"({low:.3f}, {high:.3f})", f"{100 * low:.1f} % to {100 * high:.1f} %")


def test_quiz_09_apply_levels_and_odd_ones_out():
    nan = float("nan")
    rows = pd.DataFrame(
        [[1, 1, 0, 1, -1, 1, 1], [-1, -1, -1, -1, -1, 0, -1], [1, 1, nan, 1, 1, 1, -1]], columns=pk.PARKER_MEASURES
    )
    assert pk.agreement_levels(rows).tolist() == [2, 1, 1]
    assert pk.odd_one_out(rows).tolist() == [None, "AUK", "H"]
    text = answer("09", 5)
    shows(text, "level 2, no error case", "AUK the odd one out", "H the odd one out")


def test_quiz_11_apply_three_proportion_intervals():
    ends = {m: apples.proportion_ci(45, 50, method=m) for m in ("wilson", "clopper_pearson", "agresti_coull")}
    exact = stats.binomtest(45, 50).proportion_ci(confidence_level=0.95, method="exact")
    assert (ends["clopper_pearson"].low, ends["clopper_pearson"].high) == pytest.approx((exact.low, exact.high))
    text = answer("11", 4)
    shows(text, *(f"[{ci.low:.3f}, {ci.high:.3f}]" for ci in ends.values()))
    widths = {m: ci.high - ci.low for m, ci in ends.items()}
    assert max(widths, key=widths.get) == "clopper_pearson"
    shows(text, f"({widths['clopper_pearson']:.3f} against {widths['wilson']:.3f} and {widths['agresti_coull']:.3f})")


def test_quiz_11_apply_naive_and_corrected_t():
    scores = [0.91, 0.88, 0.93, 0.90, 0.86, 0.92, 0.89, 0.94, 0.87, 0.90]
    sd, t = np.std(scores, ddof=1), stats.t.ppf(0.975, 9)
    naive = apples.cv_score_ci(scores, n_train=450, n_test=50, method="t")
    corrected = apples.cv_score_ci(scores, n_train=450, n_test=50, method="corrected_t")
    assert naive.high - naive.estimate == pytest.approx(t * sd * sqrt(1 / 10))
    assert corrected.high - corrected.estimate == pytest.approx(t * sd * sqrt(1 / 10 + 50 / 450))
    text = answer("11", 5)
    shows(
        text,
        f"deviation {sd:.4f}",
        f"= {t:.3f}",
        f"± {t * sd * sqrt(1 / 10):.3f}",
        f"{t * sd * sqrt(1 / 10 + 1 / 9):.3f}",
    )
    shows(text, f"[{naive.low:.3f}, {naive.high:.3f}]", f"[{corrected.low:.3f}, {corrected.high:.3f}]")
    shows(text, f"= {sqrt((1 / 10 + 1 / 9) / (1 / 10)):.2f}")
