"""Per-fold ROC and precision-recall curves of CVPredictions: what is drawn (every fold of every repeat, weighted,
one-vs-rest per label), against scikit-learn's curves and Fawcett's vertical average by hand."""

from __future__ import annotations

import importlib.util
import io
import re
from pathlib import Path

import numpy as np
import pytest

import apples
from apples._kernels.curves import curve_counts, precision_at_recall, tpr_at_fpr
from apples.plotting import plot_cv_precision_recall, plot_cv_roc

plt = pytest.importorskip("matplotlib.pyplot")
sk = pytest.importorskip("sklearn.metrics")

ROOT = Path(__file__).resolve().parents[2]


def _ax():
    return plt.figure().add_subplot()


def _rows(p, repeat, fold):
    """The rows of one fold of one repeat, read off the predictions' own arrays."""
    m = p.folds == fold
    return m if p.repeats is None else m & (p.repeats == repeat)


def _weights(p, m):
    return None if p.sample_weight is None else p.sample_weight[m]


def _legend(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()]


def _percent(text, name):
    """The percentage after ``name`` in a legend entry or title."""
    return float(re.search(rf"{re.escape(name)} (\d+\.\d)%", text).group(1))


def _roc(y, s, w):
    fpr, tpr, _ = sk.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    return np.column_stack([fpr, tpr]) * 100


def _pr(y, s, w):
    precision, recall, _ = sk.precision_recall_curve(y, s, sample_weight=w)
    # scikit-learn: thresholds increasing, then the point (recall 0, precision 1) it appends
    return np.column_stack([recall[:-1][::-1], precision[:-1][::-1]]) * 100


def _positive_weight(w):
    return slice(None) if w is None else w > 0


# -- repeated k-fold, weighted ---------------------------------------------------------------------------------
def test_every_fold_of_every_repeat_is_scikit_learns_weighted_roc_curve(cancer_repeated):
    p = cancer_repeated
    assert p.n_repeats == 3 and p.sample_weight is not None
    ax = plot_cv_roc(p, ax=_ax())
    # 30 fold curves in repeat and fold order, the vertical average, 3 merged curves, the chance line
    assert len(ax.lines) == 30 + 1 + 3 + 1
    for i, (r, f) in enumerate((r, f) for r in range(3) for f in range(10)):
        m = _rows(p, r, f)
        w = _weights(p, m)
        keep = _positive_weight(w)  # scikit-learn leaves rows of weight 0 out of its thresholds
        expected = _roc(p.y_true[m][keep], p.y_score[m][keep], w[keep])
        np.testing.assert_allclose(ax.lines[i].get_xydata(), expected, rtol=1e-9, atol=1e-9)
    for r in range(3):  # each repeat's merged curve: all its folds' scores ranked together
        m = p.repeats == r
        w = p.sample_weight[m]
        expected = _roc(p.y_true[m][w > 0], p.y_score[m][w > 0], w[w > 0])
        np.testing.assert_allclose(ax.lines[31 + r].get_xydata(), expected, rtol=1e-9, atol=1e-9)


def test_legend_and_title_count_30_folds_as_10_folds_times_3_repeats(cancer_repeated):
    p = cancer_repeated
    ax = plot_cv_roc(p, ax=_ax())
    legend = _legend(ax)
    assert "30 folds (10 folds × 3 repeats)" in ax.get_title() and "10 folds" not in ax.get_title().split("(")[0]
    assert "sample_weight" in ax.get_title()  # the title says the cases are weighted
    average = next(t for t in legend if t.startswith("vertical average of 30 folds (10 folds × 3 repeats)"))
    # AUC_avg: the mean over repeats of each repeat's mean weighted fold AUC, by scikit-learn
    masks = [_rows(p, r, f) for r in range(3) for f in range(10)]
    aucs = [sk.roc_auc_score(p.y_true[m], p.y_score[m], sample_weight=_weights(p, m)) for m in masks]
    assert abs(_percent(average, "AUC_avg") - 100 * np.mean(aucs)) <= 0.05 + 1e-9
    for r in range(3):
        entry = next(t for t in legend if t.startswith(f"repeat {r}: its 10 folds"))
        assert abs(_percent(entry, "mean AUC") - 100 * np.mean(aucs[10 * r : 10 * r + 10])) <= 0.05 + 1e-9
        m = p.repeats == r
        merged = next(t for t in legend if t.startswith(f"repeat {r} merged"))
        expected = sk.roc_auc_score(p.y_true[m], p.y_score[m], sample_weight=p.sample_weight[m])
        assert abs(_percent(merged, "AUC_merge") - 100 * expected) <= 0.05 + 1e-9
    assert "±1 SD over the 30 folds" in legend and "chance" in legend
    assert len(legend) == 3 + 1 + 1 + 3 + 1  # a legend entry per repeat, not per fold


def test_vertical_average_is_the_mean_tpr_over_all_folds_and_its_area_auc_avg(cancer_repeated):
    p = cancer_repeated
    ax = plot_cv_roc(p, n_grid=4001, ax=_ax())
    xy = ax.lines[30].get_xydata() / 100
    assert ax.lines[30].get_label().startswith("vertical average")
    curves, aucs = [], []
    for r in range(3):
        for f in range(10):
            m = _rows(p, r, f)
            w = _weights(p, m)
            fpr, tpr, _ = sk.roc_curve(p.y_true[m][w > 0], p.y_score[m][w > 0], sample_weight=w[w > 0])
            curves.append(np.interp(xy[1:-1, 0], fpr, tpr))  # away from 0 and 1, where the vertical steps are
            aucs.append(sk.roc_auc_score(p.y_true[m], p.y_score[m], sample_weight=w))
    # np.interp picks one side of a vertical step; Fawcett takes its top: equal except exactly at a step
    assert np.mean(np.abs(np.mean(curves, axis=0) - xy[1:-1, 1])) < 2e-3
    area = np.sum(np.diff(xy[:, 0]) * (xy[1:, 1] + xy[:-1, 1]) / 2)
    assert area == pytest.approx(np.mean(aucs), abs=2e-3)  # the grid's resolution: 1/4000 per step of a fold


def test_one_chosen_repeat(cancer_repeated):
    p = cancer_repeated
    ax = plot_cv_roc(p, repeat=1, ax=_ax())
    assert len(ax.lines) == 10 + 1 + 1 + 1  # its folds, the average, its merged curve, chance
    assert "the 10 folds of repeat 1 (of 3 repeats)" in ax.get_title()
    for f in range(10):
        m = _rows(p, 1, f)
        w = _weights(p, m)
        np.testing.assert_allclose(
            ax.lines[f].get_xydata(), _roc(p.y_true[m][w > 0], p.y_score[m][w > 0], w[w > 0]), rtol=1e-9, atol=1e-9
        )
    assert _legend(ax)[0].startswith("fold 0: AUC ")
    with pytest.raises(ValueError, match=r"repeat=7 is not a repeat") as info:
        plot_cv_roc(p, repeat=7, ax=_ax())
    assert info.value.param == "repeat"


def test_precision_recall_curves_are_scikit_learns_weighted_ones(cancer_repeated):
    p = cancer_repeated
    ax = plot_cv_precision_recall(p, ax=_ax())
    assert len(ax.lines) == 30 + 1 + 3 + 1
    aps = []
    for i, (r, f) in enumerate((r, f) for r in range(3) for f in range(10)):
        m = _rows(p, r, f)
        w = _weights(p, m)
        drawn = ax.lines[i].get_xydata()[1:]  # after the start at recall 0
        np.testing.assert_allclose(drawn, _pr(p.y_true[m][w > 0], p.y_score[m][w > 0], w[w > 0]), rtol=1e-9)
        aps.append(sk.average_precision_score(p.y_true[m], p.y_score[m], sample_weight=w))
    legend = _legend(ax)
    average = next(t for t in legend if t.startswith("average at fixed recall of 30 folds (10 folds × 3 repeats)"))
    assert abs(_percent(average, "AP averaged over folds") - 100 * np.mean(aps)) <= 0.05 + 1e-9
    prevalence = np.sum(p.sample_weight * p.y_true) / np.sum(p.sample_weight)  # the weighted share of positives
    chance = next(t for t in legend if t.startswith("chance: prevalence"))
    assert abs(_percent(chance, "prevalence") - 100 * prevalence) <= 0.05 + 1e-9
    assert ax.lines[-1].get_ydata()[0] == pytest.approx(100 * prevalence, rel=1e-9)


def test_precision_recall_average_samples_the_steps_of_average_precision(cancer_repeated):
    p = cancer_repeated
    ax = plot_cv_precision_recall(p, repeat=0, n_grid=20001, ax=_ax())
    xy = ax.lines[10].get_xydata() / 100
    aps = [
        sk.average_precision_score(p.y_true[m], p.y_score[m], sample_weight=_weights(p, m))
        for m in (_rows(p, 0, f) for f in range(10))
    ]
    area = np.sum(np.diff(xy[:, 0]) * xy[1:, 1])  # right endpoints: the steps' heights on (R_{t-1}, R_t]
    assert area == pytest.approx(np.mean(aps), abs=1e-3)


def test_tied_scores_with_weights_against_scikit_learn(cancer_repeated):
    """Scores rounded to one decimal: tie groups holding both classes, with weights (a diagonal ROC step)."""
    p = cancer_repeated
    tied = apples.CVPredictions(
        p.y_true, folds=p.folds, repeats=p.repeats, y_score=np.round(p.y_score, 1), sample_weight=p.sample_weight
    )
    roc = plot_cv_roc(tied, repeat=2, ax=_ax())
    pr = plot_cv_precision_recall(tied, repeat=2, ax=_ax())
    for f in range(10):
        m = _rows(tied, 2, f)
        w = _weights(tied, m)
        y, s = tied.y_true[m][w > 0], tied.y_score[m][w > 0]
        np.testing.assert_allclose(roc.lines[f].get_xydata(), _roc(y, s, w[w > 0]), rtol=1e-9, atol=1e-9)
        np.testing.assert_allclose(pr.lines[f].get_xydata()[1:], _pr(y, s, w[w > 0]), rtol=1e-9)


# -- hold-out splits --------------------------------------------------------------------------------------------
def test_shuffle_split_draws_each_split_as_one_curve_labelled_as_a_split(cancer_holdout):
    p = cancer_holdout
    assert p.design == "repeated hold-out"
    ax = plot_cv_roc(p, ax=_ax())
    assert len(ax.lines) == 4 + 1 + 1  # the splits, the average, chance: no merged curve of a single test set
    legend = _legend(ax)
    for r in range(4):
        m = p.repeats == r
        w = p.sample_weight[m]
        np.testing.assert_allclose(
            ax.lines[r].get_xydata(), _roc(p.y_true[m][w > 0], p.y_score[m][w > 0], w[w > 0]), rtol=1e-9, atol=1e-9
        )
        expected = sk.roc_auc_score(p.y_true[m], p.y_score[m], sample_weight=w)
        assert abs(_percent(legend[r], f"split {r}: AUC") - 100 * expected) <= 0.05 + 1e-9
    assert "4 hold-out splits" in ax.get_title()
    assert not any("merged" in t or "fold" in t for t in legend)
    assert "±1 SD over the 4 splits" in legend


# -- multi-class and multi-label: one panel per label --------------------------------------------------------------
def test_iris_draws_a_panel_per_label_one_vs_rest(iris_repeated):
    p = iris_repeated
    fig = plot_cv_roc(p)
    axes = fig.axes
    assert len(axes) == 3 and p.labels == ["setosa", "versicolor", "virginica"]
    for j, (a, label) in enumerate(zip(axes, p.labels, strict=True)):
        assert a.get_title().startswith(f"'{label}' vs rest")
        assert len(a.lines) == 10 + 1 + 2 + 1
        aucs = []
        for i, (r, f) in enumerate((r, f) for r in range(2) for f in range(5)):
            m = _rows(p, r, f)
            y, s, w = p.y_true[m] == label, p.y_score[m][:, j], _weights(p, m)
            np.testing.assert_allclose(a.lines[i].get_xydata(), _roc(y, s, w), rtol=1e-9, atol=1e-9)
            aucs.append(sk.roc_auc_score(y, s, sample_weight=w))
        assert abs(_percent(a.get_title(), "AUC_avg") - 100 * np.mean(aucs)) <= 0.05 + 1e-9
        assert a.get_legend() is None  # one legend for the grid, below it
    assert "10 folds (5 folds × 2 repeats)" in fig._suptitle.get_text()
    assert len(fig.legends) == 1


def test_the_grid_legend_is_below_the_panels_and_does_not_squash_them(iris_repeated):
    fig = plot_cv_precision_recall(iris_repeated)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    legend = fig.legends[0].get_window_extent(renderer)
    boxes = [a.get_window_extent(renderer) for a in fig.axes]
    assert all(legend.y1 <= b.y0 for b in boxes)  # below every panel: over no data
    widths = [b.width for b in boxes]
    assert max(widths) - min(widths) < 1 and min(widths) > 0.2 * fig.bbox.width  # three equal, unsquashed panels
    texts = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "repeat 0: its 5 folds" in texts and "average at fixed recall (report it)" in texts


def test_label_draws_one_panel_and_refuses_a_label_not_there(iris_repeated):
    p = iris_repeated
    ax = plot_cv_roc(p, label="virginica", ax=_ax())
    assert ax.get_title().startswith("'virginica' vs rest: ROC curves of 10 folds (5 folds × 2 repeats)")
    m = _rows(p, 0, 0)
    np.testing.assert_allclose(
        ax.lines[0].get_xydata(), _roc(p.y_true[m] == "virginica", p.y_score[m][:, 2], _weights(p, m)), rtol=1e-9
    )
    with pytest.raises(ValueError, match="label='rose' is not a label") as info:
        plot_cv_roc(p, label="rose", ax=_ax())
    assert info.value.param == "label"


def test_multilabel_draws_each_label_against_the_cases_without_it(multilabel_repeated):
    p = multilabel_repeated
    assert p.task == "multilabel"
    fig = plot_cv_roc(p)
    assert len(fig.axes) == 3
    for j, a in enumerate(fig.axes):
        assert a.get_title().startswith(f"{j} vs rest")
        for i, (r, f) in enumerate((r, f) for r in range(2) for f in range(4)):
            m = _rows(p, r, f)
            np.testing.assert_allclose(
                a.lines[i].get_xydata(), _roc(p.y_true[m][:, j], p.y_score[m][:, j], None), rtol=1e-9, atol=1e-9
            )


# -- refusals, the ax contract -------------------------------------------------------------------------------------
def test_a_fold_without_a_class_is_refused_naming_it_and_its_repeat():
    y = np.array([1, 0, 1, 1, 0, 1, 1, 0, 1, 0, 0, 1])
    s = np.linspace(0.1, 0.9, 12)
    folds = ["a", "a", "b", "b", "a", "b"] * 2
    p = apples.CVPredictions(y, folds=folds, repeats=[0] * 6 + [1] * 6, y_score=s)
    with pytest.raises(ValueError, match="fold 'b' of repeat 0 has no negatives") as info:
        plot_cv_roc(p)
    assert info.value.param == "predictions"
    q = apples.CVPredictions([1, 0, 1, 0, 0, 0], folds=[1, 1, 1, 1, 2, 2], y_score=s[:6])
    with pytest.raises(ValueError, match="fold 2 has no positives"):
        plot_cv_precision_recall(q)
    # precision-recall needs positives only: a fold without negatives is drawn
    plot_cv_precision_recall(p, ax=_ax())
    with pytest.raises(ValueError, match="no y_score") as info:
        plot_cv_roc(apples.CVPredictions([1, 0, 1, 0], folds=[0, 0, 1, 1], y_pred=[1, 0, 0, 0]))
    assert info.value.param == "predictions"


def test_a_fold_of_zero_weight_is_refused_naming_sample_weight():
    p = apples.CVPredictions(
        [1, 0, 1, 0], folds=[0, 0, 1, 1], y_score=[0.9, 0.1, 0.8, 0.2], sample_weight=[1.0, 1.0, 0.0, 0.0]
    )
    with pytest.raises(ValueError, match="sample_weight sums to 0 in fold 1") as info:
        plot_cv_roc(p)
    assert info.value.param == "sample_weight"


def test_binary_label_must_be_the_positive_one():
    p = apples.CVPredictions(["b", "a", "b", "a"], folds=[0, 0, 1, 1], y_score=[0.9, 0.1, 0.8, 0.2], pos_label="b")
    assert plot_cv_roc(p, label="b", ax=_ax()).get_title().startswith("ROC curves of 2 folds")
    with pytest.raises(ValueError, match="score the positive label 'b' only") as info:
        plot_cv_roc(p, label="a")
    assert info.value.param == "label"


@pytest.mark.parametrize("plot", [plot_cv_roc, plot_cv_precision_recall])
def test_ax_is_refused_unless_axes_naming_ax(plot, iris_repeated):
    p = apples.CVPredictions([1, 0, 1, 0], folds=[0, 0, 1, 1], y_score=[0.9, 0.1, 0.8, 0.2])
    for bad in ("left", 3, [_ax(), "left"], {"a": 1}):
        with pytest.raises(TypeError, match="ax") as info:
            plot(p, ax=bad)
        assert info.value.param == "ax"
    with pytest.raises(ValueError, match=r"ax holds 1 Axes, but 3 panels are drawn .* label=") as info:
        plot(iris_repeated, ax=_ax())
    assert info.value.param == "ax"
    # three given Axes (the 2-d array of plt.subplots too): the Figure is theirs, its panels drawn
    fig, grid = plt.subplots(1, 3)
    assert plot(iris_repeated, ax=grid) is fig and all(a.lines for a in grid)


def test_contract_ax_none_draws_on_the_current_axes_and_the_legend_is_off_the_data(cancer_repeated):
    ax = plt.figure().add_subplot()
    for f in (plot_cv_roc, plot_cv_precision_recall):
        got = f(cancer_repeated, repeat=0)
        assert got is ax
        legend = got.get_legend()
        assert legend is not None and legend._bbox_to_anchor.bounds[0] > got.bbox.bounds[0]  # placed right of it
        assert "(%)" in got.get_xlabel() and "(%)" in got.get_ylabel()
        got.clear()


def test_string_labels_whose_positive_sorts_first_and_many_folds_share_one_legend_entry(cancer):
    from sklearn.model_selection import StratifiedKFold
    from sklearn.naive_bayes import GaussianNB

    X, y, _ = cancer
    names = np.where(y == 1, "benign", "malignant")  # the positive, "benign", sorts first
    p = apples.cross_val_predictions(GaussianNB(), X, names, cv=StratifiedKFold(n_splits=12), pos_label="benign")
    ax = plot_cv_roc(p, ax=_ax())
    reference = plot_cv_roc(
        apples.CVPredictions((names == "benign").astype(int), folds=p.folds, y_score=p.y_score), ax=_ax()
    )
    for a, b in zip(ax.lines, reference.lines, strict=True):
        np.testing.assert_array_equal(a.get_xydata(), b.get_xydata())
    legend = _legend(ax)
    assert legend[0] == "each of the 12 folds" and not any(t.startswith("fold ") for t in legend)


def test_hostile_labels_are_drawn_literally_and_savefig_works():
    labels = ["$\\input{x}$", "a_b^c", "ünïcødé " + "long " * 30]
    y = np.array([labels[i % 3] for i in range(18)])
    score = np.random.default_rng(0).dirichlet(np.ones(3), 18)
    p = apples.CVPredictions(y, folds=np.arange(18) % 2, y_score=score, labels=labels)
    for plot in (plot_cv_roc, plot_cv_precision_recall):
        fig = plot(p)
        fig.savefig(io.BytesIO(), format="png")  # mathtext would stop here with a ParseFatalException
        for a, label in zip(fig.axes, labels, strict=True):
            drawn, math = a.title._preprocess_math(a.title.get_text())  # what matplotlib draws, and whether as math
            assert not math and drawn.startswith(f"'{label}' vs rest")
    ax = plot_cv_roc(p, label="a_b^c", ax=_ax())
    ax.figure.savefig(io.BytesIO(), format="png")
    assert ax.get_title().startswith("'a_b^c' vs rest")


def test_fawcett_tpr_for_fpr_by_hand():
    # points (0, 0), (0, 1/2), (1/2, 1/2), (1, 1): at FPR 0 the top of the vertical step (1/2); at 1/4 the
    # horizontal segment (1/2); at 3/4 half-way up the last segment (3/4)
    fpr, tpr = np.array([0.0, 0.0, 0.5, 1.0]), np.array([0.0, 0.5, 0.5, 1.0])
    assert tpr_at_fpr(fpr, tpr, np.array([0.0, 0.25, 0.5, 0.75, 1.0])).tolist() == [0.5, 0.5, 0.5, 0.75, 1.0]


def test_precision_at_recall_by_hand():
    # ranking + - + -: thresholds give (R, P) = (1/2, 1), (1/2, 1/2), (1, 2/3), (1, 1/2); AP = 1/2 · 1 + 1/2 · 2/3
    recall, precision = np.array([0.5, 0.5, 1.0, 1.0]), np.array([1.0, 0.5, 2 / 3, 0.5])
    got = precision_at_recall(recall, precision, np.array([0.0, 0.25, 0.5, 0.75, 1.0]))
    np.testing.assert_allclose(got, [1.0, 1.0, 1.0, 2 / 3, 2 / 3])


def test_weighted_curve_counts_by_hand():
    # scores 0.9 (+, w 1), 0.5 (-, w 2), 0.5 (+, w 0.5), 0.1 (-, w 4): two thresholds share 0.5
    c = curve_counts(np.array([1, 0, 1, 0], bool), np.array([0.9, 0.5, 0.5, 0.1]), np.array([1.0, 2.0, 0.5, 4.0]))
    assert c.thresholds.tolist() == [0.9, 0.5, 0.1]
    assert c.tp.tolist() == [1.0, 1.5, 1.5] and c.fp.tolist() == [0.0, 2.0, 6.0]
    assert (c.n_pos, c.n_neg) == (1.5, 6.0)


def test_no_plotting_module_imports_an_optional_package_at_import_time():
    spec = importlib.util.spec_from_file_location("core_install_checks", ROOT / "tests" / "test_core_install.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for path in sorted((ROOT / "apples" / "plotting").glob("*.py")):
        source = path.read_text(encoding="utf-8")
        assert module.import_time_optional_imports(source) == [], path.name
        assert "from __future__ import annotations" in source or path.name == "__init__.py", path.name


def test_every_name_stays_importable_from_apples_plotting():
    for name in ("set_style", "decorate", "panel_axes", "explorer_mimebundle", "EXPLORER_NOTE", "escape_mathtext"):
        assert hasattr(apples.plotting, name)
    assert apples.set_style is apples.plotting.set_style
