"""results_table and results_table_from_reports: values, bold, Holm marks, ranks and tests against scipy, autorank,
statsmodels and hand counts; realistic studies from scikit-learn; every rendering with hostile names."""

from __future__ import annotations

import html.parser
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import apples
from apples.comparison import (
    MeasureDifference,
    ModelComparison,
    ResultsTable,
    results_table,
    results_table_from_reports,
)
from apples.comparison._render import latex_text

HOSTILE_MODELS = ["log_reg 50%", "NB & {co}", "RF $\\alpha$ #1", "svc~^\\x", "<b>bold</b> | [x](y)"]
HOSTILE_DATASETS = ["breast_cancer", "wine\n\nblank line", "[iris] & 100%", "digits `10` *x*", "imbalanced $5$%"]


def tidy(values, models, datasets, *, half=None):
    """A tidy frame from a data sets × models array (and a symmetric half-width)."""
    rows = []
    for i, d in enumerate(datasets):
        for j, m in enumerate(models):
            row = {"model": m, "dataset": d, "value": float(values[i][j])}
            if half is not None:
                row |= {"low": row["value"] - half, "high": row["value"] + half}
            rows.append(row)
    return pd.DataFrame(rows)


def random_values(n, k, seed, ties=False):
    rng = np.random.default_rng(seed)
    v = 0.8 + 0.1 * rng.random((n, k)) + np.linspace(0.02, 0, k)[None, :]
    return np.round(v, 2) if ties else v


# -- the numbers: against scipy, autorank, by hand -----------------------------------------------------------
@pytest.mark.parametrize("ties", [False, True])
def test_best_ranks_and_tests_match_scipy_and_autorank(ties):
    import autorank

    n, k = 9, 4
    values = random_values(n, k, seed=2, ties=ties)
    models, datasets = [f"m{j}" for j in range(k)], [f"d{i}" for i in range(n)]
    t = results_table(tidy(values, models, datasets), quantity="accuracy")
    np.testing.assert_array_equal(t.best.to_numpy(), values == values.max(axis=1, keepdims=True))
    np.testing.assert_allclose(t.average_ranks.to_numpy(), stats.rankdata(-values, axis=1).mean(axis=0))
    result = autorank.autorank(
        pd.DataFrame(values, columns=models), alpha=0.05, verbose=False, force_mode="nonparametric"
    )
    pd.testing.assert_series_equal(
        t.average_ranks.sort_index(), result.rankdf.meanrank.sort_index(), check_names=False, check_index_type=False
    )
    assert t.nemenyi.critical_difference == pytest.approx(result.cd, rel=2e-5)
    chi = stats.friedmanchisquare(*values.T)
    assert t.friedman.statistic == pytest.approx(chi.statistic) and t.friedman.p_value == pytest.approx(chi.pvalue)
    f = (n - 1) * chi.statistic / (n * (k - 1) - chi.statistic)
    assert t.friedman.f_p_value == pytest.approx(stats.f.sf(f, k - 1, (k - 1) * (n - 1)), rel=1e-9)
    for a in range(k):
        for b in range(a + 1, k):
            if np.any(values[:, a] != values[:, b]):
                p = stats.wilcoxon(values[:, a], values[:, b]).pvalue
                assert t.wilcoxon.p_values.iloc[a, b] == pytest.approx(p, rel=1e-12)
    import scikit_posthocs as sp

    long = pd.DataFrame(values, columns=models).melt(var_name="model", value_name="score")
    holm = sp.posthoc_wilcoxon(long, val_col="score", group_col="model", p_adjust="holm", sort=False)
    np.testing.assert_allclose(t.wilcoxon.p_holm.to_numpy(), holm.loc[models, models].to_numpy(), rtol=1e-9)


def test_lower_is_better_for_a_loss_and_a_contradiction_is_refused():
    values = [[0.30, 0.25, 0.40], [0.10, 0.20, 0.15]]
    frame = tidy(values, ["a", "b", "c"], ["x", "y"])
    t = results_table(frame, quantity="log_loss")
    assert not t.greater_is_better and t.best.to_numpy().tolist() == [[False, True, False], [True, False, False]]
    assert t.average_ranks.tolist() == [1.5, 2.0, 2.5]  # x: b, a, c; y: a, c, b → a (2 + 1)/2, b (1 + 3)/2, c
    for q in ("log_loss", "Brier score", "hamming_loss"):
        with pytest.raises(ValueError) as err:
            results_table(frame, quantity=q, greater_is_better=True)
        assert err.value.param == "greater_is_better"
    assert results_table(frame, greater_is_better=False).best.iloc[0, 1]
    assert results_table(frame).best.iloc[0, 2]  # no quantity: higher is better, as the legend says
    assert "(higher is better)" in str(results_table(frame))


def test_a_model_best_on_every_data_set_reaches_exactly_the_attainable_p():
    for n in range(2, 11):
        values = random_values(n, 3, seed=n)
        values[:, 0] = values.max(axis=1) + 0.01  # model 0 best everywhere
        t = results_table(tidy(values, ["top", "b", "c"], [f"d{i}" for i in range(n)]))
        assert t.average_ranks["top"] == 1.0 and t.best["top"].all()
        assert t.wilcoxon.p_values.loc["top", "b"] == pytest.approx(2 / 2**n) == t.attainability.wilcoxon
        reachable = 3 * 2 / 2**n <= 0.05
        assert t.wilcoxon.different.loc["top", "b"] == (t.wilcoxon.p_holm.loc["top", "b"] < 0.05)
        if not reachable:
            assert "no comparison can be significant" in str(t)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 10), k=st.integers(2, 5), seed=st.integers(0, 2**16), ties=st.booleans())
def test_any_table_of_2_to_10_data_sets_renders_and_agrees_with_scipy(n, k, seed, ties):
    values = random_values(n, k, seed, ties=ties and n <= 8)  # scipy permutes 2^N signs when ties: keep it small
    models, datasets = [f"m{j}" for j in range(k)], [f"d{i}" for i in range(n)]
    t = results_table(tidy(values, models, datasets))
    assert t.average_ranks.sum() == pytest.approx(k * (k + 1) / 2)
    assert (t.best.sum(axis=1) >= 1).all()
    if k >= 3 and not np.all(values == values[:, :1]):
        assert t.friedman.statistic == pytest.approx(stats.friedmanchisquare(*values.T).statistic)
    elif k == 2:
        assert t.friedman is None and "Two models" in str(t)
    for view in (str(t), t.to_markdown(), t.to_latex(), t._repr_html_(), t.methods_text()):
        assert isinstance(view, str) and view
    frame = t.to_frame()
    assert len(frame) == n * k
    np.testing.assert_allclose(frame["rank"].to_numpy(), stats.rankdata(-values, axis=1).ravel())


def test_one_data_set_has_no_test_across_data_sets():
    t = results_table(tidy([[0.5, 0.75, 0.625]], ["a", "b", "c"], ["only"]))
    assert t.friedman is None and t.wilcoxon is None and t.nemenyi is None
    assert "One data set: no test across data sets applies." in str(t)


# -- the researcher's case ------------------------------------------------------------------------------------
#: 4 models on 7 data sets, rank sums 10, 17, 21, 22: Friedman p = 0.054, Iman–Davenport p = 0.040.
RANKS = np.array([[1, 3, 1, 1, 2, 1, 1], [3, 2, 2, 3, 1, 4, 2], [4, 1, 3, 4, 4, 2, 3], [2, 4, 4, 2, 3, 3, 4]]).T


def test_the_researchers_table_says_which_statistic_to_report_and_what_cannot_be_reached():
    values = 0.95 - 0.01 * RANKS + np.linspace(0, 0.03, 7)[:, None]
    models = ["logistic regression", "Gaussian NB", "random forest", "calibrated linear SVC"]
    datasets = ["breast cancer", "wine", "iris", "digits (2)", "digits (10)", "imbalanced", "multi-label"]
    t = results_table(tidy(values, models, datasets, half=0.01), quantity="accuracy", interval="95% corrected t")
    assert round(t.friedman.p_value, 3) == 0.054 and round(t.friedman.f_p_value, 3) == 0.040
    text = str(t)
    assert "Report Iman & Davenport's F_F (p = 0.040)" in text and "they disagree" in text
    assert "6 × 0.0156 = 0.094 > α = 0.05" in text
    assert t.attainability.holm_control == pytest.approx(3 / 64)  # 0.047: the m − 1 comparisons could reach 0.05
    methods = t.methods_text()
    for ref in (
        "Demšar, J. (2006)",
        "JMLR 7",
        "Friedman, M. (1937)",
        "Friedman, M. (1940)",
        "Iman, R. L. & Davenport, J. M. (1980)",
        "Holm, S. (1979)",
        "Nadeau, C. & Bengio, Y. (2003)",
        "Bouckaert, R. R. & Frank, E. (2004)",
        "Benavoli, A., Corani, G., Demšar, J. & Zaffalon, M. (2017)",
        "JMLR 18(77)",
    ):
        assert ref in methods
    assert "2/2^7 = 0.0156" in methods and "0.094 after Holm's adjustment over 6 pairs" in methods
    assert "less conservative" in methods
    assert "± 0.010" in text  # symmetric intervals print as ± half-width


# -- the marks: Holm over the best's k − 1 comparisons ----------------------------------------------------------
def _comparison(best, rows):
    """A ModelComparison by hand: (other, p, best − other) rows of accuracy."""
    diffs = tuple(
        MeasureDifference("accuracy", best, o, 0.9, 0.9 - d, d, d - 0.01, d + 0.01, 2.0, 9, p, p, "corrected_t")
        for o, p, d in rows
    )
    names = (best, *(o for o, _, _ in rows))
    return ModelComparison(diffs, names, ("accuracy",), 0.95, 5, 2, 80.0, 20.0, True, ())


def test_holm_over_the_best_models_comparisons_by_hand():
    models = ["A", "B", "C", "D"]
    values = [[0.9, 0.85, 0.86, 0.87], [0.8, 0.82, 0.7, 0.75]]
    frame = tidy(values, models, ["x", "y"])
    comps = {
        # A best on x: raw p 0.01, 0.04, 0.03 → Holm: 3·0.01 = 0.03, 2·0.03 = 0.06, max(0.06, 0.04) = 0.06
        "x": _comparison("A", [("B", 0.01, 0.05), ("C", 0.04, 0.04), ("D", 0.03, 0.03)]),
        # B best on y, the pairs written with B as model_b: the sign is turned
        "y": _comparison("A", [("B", 0.001, -0.02), ("C", 0.2, 0.1), ("D", 0.5, 0.05)]),
    }
    comps["y"] = ModelComparison(
        comps["y"].differences
        + tuple(
            MeasureDifference("accuracy", o, "B", v, 0.82, v - 0.82, 0, 0, -3.0, 9, p, p, "corrected_t")
            for o, v, p in (("C", 0.7, 0.002), ("D", 0.75, 0.3))
        ),
        ("A", "B", "C", "D"),
        ("accuracy",),
        0.95,
        5,
        2,
        80.0,
        20.0,
        True,
        (),
    )
    t = results_table(frame, quantity="accuracy", comparisons=comps)
    np.testing.assert_allclose(t.p_holm.loc["x", ["B", "C", "D"]].to_numpy(), [0.03, 0.06, 0.06])
    assert t.worse.loc["x"].tolist() == [False, True, False, False]
    # y: B's raw p against A 0.001, C 0.002, D 0.3 → 0.003, 0.004, 0.3
    np.testing.assert_allclose(t.p_holm.loc["y", ["A", "C", "D"]].to_numpy(), [0.003, 0.004, 0.3])
    assert t.worse.loc["y"].tolist() == [True, False, True, False]
    assert t.control == {"x": "A", "y": "B"}
    assert "Holm-adjusted over the k − 1 = 3 comparisons" in t.marks_test
    assert "corrected repeated k-fold t" in t.marks_test and "on accuracy" in t.marks_test
    assert "0.900 †" not in str(t) and "0.850 †" in str(t)
    from statsmodels.stats.multitest import multipletests

    assert multipletests([0.01, 0.04, 0.03], method="holm")[1] == pytest.approx([0.03, 0.06, 0.06])


def test_a_significant_pair_the_comparison_finds_better_is_not_marked_but_noted():
    frame = tidy([[0.9, 0.85, 0.8]], ["A", "B", "C"], ["x"])
    comps = {"x": _comparison("A", [("B", 0.001, -0.02), ("C", 0.001, 0.1)])}
    t = results_table(frame, comparisons=comps, comparison_measure="accuracy")
    assert t.worse.loc["x"].tolist() == [False, False, True]
    assert any("finds it no worse" in n for n in t.notes)


def test_comparisons_that_do_not_fit_are_refused_by_name():
    frame = tidy([[0.9, 0.85, 0.8], [0.7, 0.75, 0.6]], ["A", "B", "C"], ["x", "y"])
    with pytest.raises(ValueError, match="'z'") as err:
        results_table(frame, comparisons={"z": _comparison("A", [("B", 0.1, 0.1), ("C", 0.1, 0.1)])})
    assert err.value.param == "comparisons"
    with pytest.raises(ValueError, match=r"no accuracy comparison of 'A'.*'C'") as err:
        results_table(frame, comparisons={"x": _comparison("A", [("B", 0.1, 0.1)])})
    assert err.value.param == "comparisons"
    with pytest.raises(ValueError) as err:
        results_table(
            frame,
            comparisons={"x": _comparison("A", [("B", 0.1, 0.1), ("C", 0.1, 0.1)])},
            comparison_measure="f_measure:tp_fp",
        )
    assert err.value.param == "comparison_measure"
    with pytest.raises(TypeError) as err:
        results_table(frame, comparisons={"x": "not a comparison"})
    assert err.value.param == "comparisons"
    t = results_table(frame, comparisons={"x": _comparison("A", [("B", 0.1, 0.1), ("C", 0.01, 0.1)])})
    assert "No comparison given for y: no marks there." in t.notes


def test_tied_best_are_all_bold_and_the_marks_compare_with_the_first():
    frame = tidy([[0.9, 0.9, 0.8]], ["A", "B", "C"], ["x"])
    t = results_table(frame, comparisons={"x": _comparison("A", [("B", 0.5, 0.0), ("C", 0.01, 0.1)])})
    assert t.best.loc["x"].tolist() == [True, True, False] and t.control == {"x": "A"}
    assert any("tie for the best" in n for n in t.notes)


# -- bad tables ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda f: f.drop(index=4), "data set 'y' has no value for model 'B'"),
        (lambda f: pd.concat([f, f.iloc[[0]]]), "two values for model 'A' on data set 'x'"),
        (lambda f: f.assign(value=[0.1, np.nan, 0.3, 0.4, 0.5, 0.6]), "model 'B' on data set 'x' is nan;"),
        (lambda f: f.assign(low=f["value"] + 0.1, high=f["value"] - 0.1), "low = .* > high"),
        (lambda f: f.assign(low=[0.0, np.nan, 0, 0, 0, 0], high=[1.0] * 6), "one end of its interval"),
        (lambda f: f.assign(low=0.0), "one of the columns low and high"),
        (lambda f: f.drop(columns="dataset"), "lacks the column"),
        (lambda f: f.assign(value=["a"] * 6), "must hold numbers"),
        (lambda f: f[f["model"] == "A"], "at least two"),
        (lambda f: f.assign(model=[None, "B", "C", "A", "B", "C"]), "no model in row 0"),
        (
            lambda f: f.assign(dataset=pd.array(["x", "x", "x", "y", pd.NA, "y"], dtype="string")),
            "no data set in row 4",
        ),
    ],
)
def test_bad_frames_are_refused_naming_the_cell(change, message):
    frame = tidy([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]], ["A", "B", "C"], ["x", "y"])
    with pytest.raises((ValueError, TypeError), match=message) as err:
        results_table(change(frame))
    assert err.value.param == "frame"


# -- every rendering: hostile names --------------------------------------------------------------------------
class _Tags(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.text = [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)

    def handle_data(self, data):
        self.text.append(data)


def _hostile_table():
    values = random_values(5, 5, seed=9)
    t = results_table(tidy(values, HOSTILE_MODELS, HOSTILE_DATASETS, half=0.01), quantity="accuracy_%")
    return t, values


def test_latex_escapes_every_name_and_stays_one_table():
    t, _ = _hostile_table()
    latex = t.to_latex(caption="Accuracy & 95% intervals", label="tab:results_1")
    assert "\n\n" not in latex
    for name in HOSTILE_MODELS + HOSTILE_DATASETS:
        assert latex_text(name) in latex
    assert r"wine blank line" in latex and r"{[}iris{]} \& 100\%" in latex
    rows = [line for line in latex.splitlines() if line.endswith(r"\\") and "&" in line]
    assert len(rows) == 1 + 5 + 1  # header, data sets, average rank
    for row in rows:
        assert row.count("&") - row.count(r"\&") == 5  # k separators: no & of a name leaks
    braces = latex.count("{") - latex.count(r"\{") - (latex.count("}") - latex.count(r"\}"))
    assert braces == 0
    body = latex.replace(r"\label{tab:results_1}", "")
    stripped = re.sub(r"\\[%$#_&{}]|\\textasciitilde\{\}|\\textasciicircum\{\}|\$[^$]*\$", "", body)
    for raw in ("%", "$", "#", "_", "~", "^"):  # specials only where escaped, or in our math
        assert raw not in stripped
    assert r"\caption{Accuracy \& 95\% intervals}" in latex and r"\label{tab:results_1}" in latex
    assert r"\toprule" in latex and r"\bottomrule" in latex and r"\textbf{" in latex
    with pytest.raises(ValueError) as err:
        t.to_latex(label="tab:{x}")
    assert err.value.param == "label"


def test_markdown_escapes_every_name_and_keeps_the_columns():
    t, _ = _hostile_table()
    md = t.to_markdown()
    rows = [line for line in md.splitlines() if line.startswith("| ")]
    assert len(rows) == 1 + 5 + 1
    for row in rows:
        cells = re.split(r"(?<!\\)\|", row)
        assert len(cells) == 5 + 3  # empty, data set, 5 models, empty
    assert "<b>" not in md and "&lt;b&gt;bold&lt;/b&gt; \\| \\[x\\](y)" in md
    assert "\\$5\\$%" in md and "\\`10\\` \\*x\\*" in md and "\n\n\n" not in md


def test_html_escapes_every_name():
    t, _ = _hostile_table()
    parser = _Tags()
    parser.feed(t._repr_html_())
    assert set(parser.tags) <= {"p", "b", "table", "tr", "th", "td", "ul", "li", "i"}
    assert parser.tags.count("b") == 1 + 5 + 1  # the title, one best per data set, the best average rank
    text = "".join(parser.text)
    assert "<b>bold</b> | [x](y)" in text  # shown literally


def test_text_and_frame_keep_the_names():
    t, values = _hostile_table()
    text = str(t)
    assert "wine blank line" in text and "\n\n" not in text
    frame = t.to_frame()
    assert frame["model"].tolist()[:5] == HOSTILE_MODELS and frame["dataset"].iloc[5] == "wine\n\nblank line"
    np.testing.assert_allclose(frame["value"].to_numpy(), values.ravel())
    np.testing.assert_allclose(frame["high"] - frame["value"], 0.01)


def test_asymmetric_intervals_print_as_brackets_and_halves_round_up():
    frame = pd.DataFrame(
        {
            "model": ["a", "b"],
            "dataset": ["x", "x"],
            "value": [0.6125, 0.5],
            "low": [0.5, np.nan],
            "high": [0.7, np.nan],
        }
    )
    t = results_table(frame, digits=3)
    text = str(t)
    assert "0.613 [0.500, 0.700] *" in text  # 0.6125 printed 0.613: halves up, as the papers print
    assert "  0.500\n" in text and "a cell without one shows its value alone" in text


# -- from reports: realistic studies ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def study():
    """Three small binary data sets × three models, 5 folds × 2 repeats: reports and comparisons."""
    from sklearn.datasets import load_breast_cancer, load_wine, make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import RepeatedStratifiedKFold
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    xw, yw = load_wine(return_X_y=True)
    data = {
        "breast_cancer": load_breast_cancer(return_X_y=True),
        "wine (class 0 vs rest)": (xw, (yw == 0).astype(int)),
        "imbalanced 10%": make_classification(300, 8, weights=[0.9], random_state=0),
    }
    models = {
        "logistic regression": make_pipeline(StandardScaler(), LogisticRegression()),
        "naive Bayes": GaussianNB(),
        "tree_depth=3": DecisionTreeClassifier(max_depth=3, random_state=0),
    }
    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0)
    preds = {
        d: {m: apples.cross_val_predictions(e, X, y, cv=cv) for m, e in models.items()} for d, (X, y) in data.items()
    }
    reports = {d: {m: apples.report(p, confidence=0.95, cv_seed=0) for m, p in ps.items()} for d, ps in preds.items()}
    comparisons = {
        d: apples.compare(*ps.values(), names=list(ps), measures=["accuracy", "f_measure"]) for d, ps in preds.items()
    }
    return reports, comparisons


def test_from_reports_reads_each_reports_row_and_its_interval(study):
    reports, comparisons = study
    t = results_table_from_reports(reports, quantity="accuracy", aggregation="pooled", comparisons=comparisons)
    assert isinstance(t, ResultsTable) and t.greater_is_better
    for d, inner in reports.items():
        for m, rep in inner.items():
            f = rep.to_frame(readable=False)
            row = f[(f["quantity"] == "accuracy") & (f["aggregation"] == "pooled")].iloc[0]
            assert t.scores.loc[d, m] == row["value"]
            assert (t.low.loc[d, m], t.high.loc[d, m]) == (row["low"], row["high"])
    assert "jackknife_corrected" in t.interval
    # the marks: the best model's raw p-values from its comparison, Holm by statsmodels, the sign from compare
    from statsmodels.stats.multitest import multipletests

    for d, comp in comparisons.items():
        best = t.scores.loc[d].idxmax()
        others = [m for m in t.scores.columns if m != best]
        rows = {
            (r.model_b if r.model_a == best else r.model_a): r
            for r in comp.differences
            if r.measure == "accuracy" and r.aggregation == "pooled" and best in (r.model_a, r.model_b)
        }
        adjusted = multipletests([rows[o].p_value for o in others], method="holm")[1]
        np.testing.assert_allclose(t.p_holm.loc[d, others].to_numpy(), adjusted, rtol=1e-12)
        for o, p in zip(others, adjusted, strict=True):
            r = rows[o]
            better = r.difference > 0 if r.model_a == best else r.difference < 0
            assert t.worse.loc[d, o] == (p < 0.05 and better)
            # compare's pooled accuracy is the report's: the same number the table shows
            value = r.value_a if r.model_a == o else r.value_b
            assert value == pytest.approx(t.scores.loc[d, o], abs=1e-12)
    assert "on accuracy" in t.marks_test and t.control.keys() == reports.keys()


def test_from_reports_f_measure_maps_to_compares_f_measure_and_a_mismatch_is_said(study):
    reports, comparisons = study
    t = results_table_from_reports(reports, quantity="f_measure", aggregation="tp_fp", comparisons=comparisons)
    assert "on f_measure:tp_fp" in t.marks_test and not any("not the quantity in the table" in n for n in t.notes)
    avg = results_table_from_reports(
        reports, quantity="f_measure", aggregation="avg", comparisons=comparisons, comparison_measure="f_measure:tp_fp"
    )
    assert any("not the quantity in the table" in n for n in avg.notes)
    loss = results_table_from_reports(reports, quantity="brier_score", aggregation="pooled")
    assert not loss.greater_is_better
    np.testing.assert_array_equal(
        loss.best.to_numpy(), loss.scores.to_numpy() == loss.scores.min(axis=1).to_numpy()[:, None]
    )


def test_from_reports_refuses_what_the_reports_lack(study):
    reports, _ = study
    for kwargs, param in (
        ({"quantity": "nope", "aggregation": "pooled"}, "quantity"),
        ({"quantity": "accuracy", "aggregation": "merge"}, "aggregation"),
        ({"quantity": "accuracy", "aggregation": "pooled", "average": "macro"}, "average"),
    ):
        with pytest.raises(ValueError) as err:
            results_table_from_reports(reports, **kwargs)
        assert err.value.param == param
    partial = {d: dict(list(inner.items())[:2]) if d == "breast_cancer" else inner for d, inner in reports.items()}
    with pytest.raises(ValueError, match="'breast_cancer' has no value for model 'tree_depth=3'") as err:
        results_table_from_reports(partial, quantity="accuracy", aggregation="pooled")
    assert err.value.param == "reports"
    with pytest.raises(TypeError) as err:
        results_table_from_reports({"x": {"a": 1.0, "b": 2.0}}, quantity="accuracy", aggregation="pooled")
    assert err.value.param == "reports"


class _Undefined:
    """A report whose value is undefined (NaN), read through the same frame columns."""

    def to_frame(self, *, readable=True):
        return pd.DataFrame({"quantity": ["roc_auc"], "average": [""], "aggregation": ["avg"], "value": [np.nan]})


def test_an_undefined_value_is_refused_by_name():
    good = type("R", (), {"to_frame": lambda self, readable=True: _Undefined().to_frame().assign(value=0.5)})()
    with pytest.raises(ValueError, match=r"'b' on 'x'.*undefined") as err:
        results_table_from_reports({"x": {"a": good, "b": _Undefined()}}, quantity="roc_auc", aggregation="avg")
    assert err.value.param == "reports"


def test_multiclass_needs_an_average_and_multilabel_hamming_loss_is_lower_is_better():
    from sklearn.datasets import load_iris, make_multilabel_classification
    from sklearn.model_selection import KFold, StratifiedKFold
    from sklearn.multioutput import MultiOutputClassifier
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier

    X, y = load_iris(return_X_y=True)
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    reps = {
        "iris": {
            "nb": apples.report(apples.cross_val_predictions(GaussianNB(), X, y, cv=cv)),
            "knn": apples.report(apples.cross_val_predictions(KNeighborsClassifier(15), X, y, cv=cv)),
        }
    }
    with pytest.raises(ValueError, match="choose one with average=") as err:
        results_table_from_reports(reps, quantity="precision", aggregation="pooled")
    assert err.value.param == "average"
    t = results_table_from_reports(reps, quantity="precision", aggregation="pooled", average="macro")
    assert t.quantity == "precision (macro, pooled)"
    Xm, ym = make_multilabel_classification(120, 6, n_classes=3, random_state=0)
    kf = KFold(3, shuffle=True, random_state=0)
    ml = {
        "multi-label": {
            "nb": apples.report(apples.cross_val_predictions(MultiOutputClassifier(GaussianNB()), Xm, ym, cv=kf)),
            "knn": apples.report(
                apples.cross_val_predictions(MultiOutputClassifier(KNeighborsClassifier(5)), Xm, ym, cv=kf)
            ),
        }
    }
    f = ml["multi-label"]["nb"].to_frame(readable=False)
    aggregation = f.loc[f["quantity"] == "hamming_loss", "aggregation"].iloc[0]
    t = results_table_from_reports(ml, quantity="hamming_loss", aggregation=aggregation)
    assert not t.greater_is_better
    assert t.best.to_numpy().tolist() == [(t.scores.to_numpy() == t.scores.to_numpy().min()).ravel().tolist()]
