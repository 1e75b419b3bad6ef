"""Per-fold ROC and precision-recall curves: what is drawn, against scikit-learn and Fawcett's algorithm by hand."""

from __future__ import annotations

import importlib.util
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import apples
from apples._kernels.curves import precision_at_recall, tpr_at_fpr
from apples.plotting import plot_cv_precision_recall, plot_cv_roc

plt = pytest.importorskip("matplotlib.pyplot")
sk = pytest.importorskip("sklearn.metrics")

ROOT = Path(__file__).resolve().parents[2]


def _data(seed: int = 0, n: int = 400, k: int = 5):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    folds = np.arange(n) % k
    # fold-dependent shifts of the negatives (folds calibrated differently) and ties (rounded scores)
    s = np.round(rng.normal(1.2 * y, 1.0) + 0.3 * folds * (y == 0), 1)
    return y, s, folds


def _lines(ax):
    return {line.get_label(): line.get_xydata() for line in ax.lines}


def _line(ax, prefix):
    found = [xy for label, xy in _lines(ax).items() if label.startswith(prefix)]
    assert len(found) == 1, (prefix, list(_lines(ax)))
    return found[0]


def test_roc_folds_and_merged_curve_are_scikit_learns():
    y, s, folds = _data()
    ax = plot_cv_roc(y, s, folds=folds, ax=plt.figure().add_subplot())
    for f in range(5):
        m = folds == f
        fpr, tpr, _ = sk.roc_curve(y[m], s[m], drop_intermediate=False)
        np.testing.assert_allclose(_line(ax, f"fold {f}:"), np.column_stack([fpr, tpr]) * 100, rtol=1e-12)
    fpr, tpr, _ = sk.roc_curve(y, s, drop_intermediate=False)
    np.testing.assert_allclose(_line(ax, "merged"), np.column_stack([fpr, tpr]) * 100, rtol=1e-12)


def test_roc_labels_give_auc_avg_and_auc_merge():
    y, s, folds = _data()
    ax = plot_cv_roc(y, s, folds=folds, ax=plt.figure().add_subplot())
    auc_avg = np.mean([sk.roc_auc_score(y[folds == f], s[folds == f]) for f in range(5)])
    labels = list(_lines(ax))
    assert f"vertical average: AUC_avg {100 * auc_avg:.1f}% (report this)" in labels
    assert f"merged: AUC_merge {100 * sk.roc_auc_score(y, s):.1f}%" in labels
    # each fold's label gives its AUC
    assert labels[0] == f"fold 0: AUC {100 * sk.roc_auc_score(y[folds == 0], s[folds == 0]):.1f}%"


def test_vertical_average_is_the_mean_tpr_and_its_area_is_auc_avg():
    y, s, folds = _data(1)
    ax = plot_cv_roc(y, s, folds=folds, n_grid=4001, ax=plt.figure().add_subplot())
    xy = _line(ax, "vertical average") / 100
    # at each FPR, the mean over folds of the fold curve's TPR (np.interp on the curve's upper envelope)
    per_fold = []
    for f in range(5):
        fpr, tpr, _ = sk.roc_curve(y[folds == f], s[folds == f], drop_intermediate=False)
        per_fold.append(np.interp(xy[1:-1, 0], fpr, tpr))  # away from 0 and 1, where the vertical steps are
    inner = xy[1:-1, 1]
    # np.interp picks one side of a vertical step; Fawcett takes its top: equal except exactly at a step
    assert np.mean(np.abs(np.mean(per_fold, axis=0) - inner)) < 1e-3
    auc_avg = np.mean([sk.roc_auc_score(y[folds == f], s[folds == f]) for f in range(5)])
    area = np.sum(np.diff(xy[:, 0]) * (xy[1:, 1] + xy[:-1, 1]) / 2)
    assert area == pytest.approx(auc_avg, abs=2e-3)  # the grid's resolution: 1/4000 per step of a fold


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


def test_precision_recall_folds_merged_and_labels_against_scikit_learn():
    y, s, folds = _data(2)
    ax = plot_cv_precision_recall(y, s, folds=folds, ax=plt.figure().add_subplot())
    for f in range(5):
        m = folds == f
        precision, recall, _ = sk.precision_recall_curve(y[m], s[m], drop_intermediate=False)
        # scikit-learn: thresholds increasing, then the point (recall 0, precision 1) it appends
        expected = np.column_stack([recall[:-1][::-1], precision[:-1][::-1]]) * 100
        drawn = _line(ax, f"fold {f}:")[1:]  # after the start at recall 0
        np.testing.assert_allclose(drawn, expected, rtol=1e-12)
    aps = [sk.average_precision_score(y[folds == f], s[folds == f]) for f in range(5)]
    labels = list(_lines(ax))
    assert any(label.endswith(f"AP averaged over folds {100 * np.mean(aps):.1f}% (report this)") for label in labels)
    assert f"merged: AP_merge {100 * sk.average_precision_score(y, s):.1f}%" in labels
    # prevalence 209/400 = 52.25 %: printed with the half rounded up, as the papers print (52.3 %)
    exact = Fraction(int(y.sum()), y.size) * 100
    shown = (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    assert f"chance: prevalence {shown}%" in labels


def test_precision_recall_average_samples_the_steps_of_average_precision():
    y, s, folds = _data(3)
    ax = plot_cv_precision_recall(y, s, folds=folds, n_grid=20001, ax=plt.figure().add_subplot())
    xy = _line(ax, "average at fixed recall") / 100
    # the area under the step curve of a fold is its AP; sampled on a fine grid, the mean curve's area is AP_avg
    aps = [sk.average_precision_score(y[folds == f], s[folds == f]) for f in range(5)]
    area = np.sum(np.diff(xy[:, 0]) * xy[1:, 1])  # right endpoints: the steps' heights on (R_{t-1}, R_t]
    assert area == pytest.approx(np.mean(aps), abs=1e-3)


def test_a_fold_with_one_class_is_refused_naming_it():
    y = np.array([1, 0, 1, 1, 0, 1])
    s = np.array([0.9, 0.1, 0.8, 0.7, 0.3, 0.6])
    with pytest.raises(ValueError, match="fold 'b' has no negatives") as info:
        plot_cv_roc(y, s, folds=["a", "a", "b", "b", "a", "b"])
    assert info.value.param == "folds"
    with pytest.raises(ValueError, match="fold 2 has no positives"):
        plot_cv_precision_recall([1, 0, 1, 0, 0, 0], s, folds=[1, 1, 1, 1, 2, 2])
    # precision-recall needs positives only: a fold without negatives is drawn
    plot_cv_precision_recall(y, s, folds=["a", "a", "b", "b", "a", "b"])


def test_contract_ax_none_draws_on_the_current_axes_and_the_legend_is_off_the_data():
    y, s, folds = _data()
    ax = plt.figure().add_subplot()
    for f in (plot_cv_roc, plot_cv_precision_recall):
        got = f(y, s, folds=folds)
        assert got is ax
        legend = got.get_legend()
        assert legend is not None and legend._bbox_to_anchor.bounds[0] > got.bbox.bounds[0]  # placed right of it
        assert "(%)" in got.get_xlabel() and "(%)" in got.get_ylabel()
        got.clear()


def test_string_labels_whose_positive_sorts_first_and_many_folds_share_one_legend_entry():
    y, s, folds = _data(4, n=240, k=12)
    names = np.where(y == 1, "a", "b")  # the positive "a" sorts first
    ax = plot_cv_roc(names, s, folds=folds, pos_label="a", ax=plt.figure().add_subplot())
    reference = plot_cv_roc(y, s, folds=folds, ax=plt.figure().add_subplot())
    for a, b in zip(ax.lines, reference.lines, strict=True):
        np.testing.assert_array_equal(a.get_xydata(), b.get_xydata())
    labels = [line.get_label() for line in ax.lines if not line.get_label().startswith("_")]
    assert labels[0] == "each of the 12 folds" and not any(label.startswith("fold ") for label in labels)


def test_no_plotting_module_imports_an_optional_package_at_import_time():
    spec = importlib.util.spec_from_file_location("core_install_checks", ROOT / "tests" / "test_core_install.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for path in sorted((ROOT / "apples" / "plotting").glob("*.py")):
        source = path.read_text(encoding="utf-8")
        assert module.import_time_optional_imports(source) == [], path.name
        assert "from __future__ import annotations" in source or path.name == "__init__.py", path.name


def test_every_name_stays_importable_from_apples_plotting():
    for name in ("set_style", "decorate", "panel_axes", "explorer_mimebundle", "EXPLORER_NOTE"):
        assert hasattr(apples.plotting, name)
    assert apples.set_style is apples.plotting.set_style
