"""The methods paragraphs say what was done: the design, weights, measures, 0/0 rules, the interval method."""

from __future__ import annotations

import numpy as np
import pytest

import apples
from apples.measures import from_counts


def _holdout(p: apples.CVPredictions, n_splits: int) -> apples.CVPredictions:
    """The same cases as hold-out splits: every split one test set (fold 0) of its own repeat."""
    rep = np.arange(len(p)) % n_splits
    return apples.CVPredictions(
        p.y_true,
        folds=np.zeros(len(p), int),
        repeats=rep,
        y_pred=p.y_pred,
        y_score=p.y_score,
        pos_label=p.pos_label,
    )


def test_the_report_paragraph_states_the_design_weights_measures_and_interval(studies):
    p = studies["binary_weighted"]
    text = apples.report(p, measures=["f_measure", "roc_auc"], confidence=0.9).methods_text()
    paragraph, refs = text.split("\n\nReferences\n")
    assert f"{p.n_repeats} repeats of " in paragraph and "-fold cross-validation" in paragraph
    mean_weight = float(np.mean(p.sample_weight))
    assert f"mean weight {mean_weight:.4g}" in paragraph
    assert "F_tp,fp" in paragraph and "ROC AUC" in paragraph
    assert "The 90% confidence intervals are the corrected repeated k-fold t" in paragraph
    assert "Nadeau, C. & Bengio, Y. (2003)" in refs and "Bouckaert" in refs
    assert "Sources of the measures" in refs and "Hand, D. J. (2009)" in refs  # the ROC AUC record's source


def test_the_report_paragraph_without_a_level_does_not_claim_intervals_were_given(binary):
    text = apples.report(binary, measures=["accuracy"]).methods_text()
    assert "Confidence intervals, where given, are" in text
    assert "% confidence intervals" not in text


@pytest.mark.parametrize("n_splits", [1, 4])
def test_the_report_paragraph_of_hold_out_splits(studies, n_splits):
    p = _holdout(studies["binary"], n_splits)
    text = apples.report(p, measures=["accuracy"]).methods_text()
    if n_splits == 1:
        assert "one hold-out split" in text and "no interval" in text and "k-fold t" not in text
    else:
        assert f"{n_splits} random hold-out splits" in text and "corrected resampled t" in text
        assert "leave-one-split-out" in text


def test_a_users_measure_brings_its_own_source_and_0_0_rule(binary):
    youden = from_counts(
        "youden",
        lambda tp, fp, fn, tn: tp / (tp + fn) + tn / (tn + fp) - 1,
        name="Youden's J",
        value_range=(-1.0, 1.0),
        references="Youden, W. J. (1950). Cancer 3(1).",
        undefined="skip",
    )
    text = apples.report(binary, measures=[youden]).methods_text()
    assert "Youden's J: Youden, W. J. (1950). Cancer 3(1)." in text
    assert "Youden's J: a fold whose value is 0/0: left out in the mean over folds" in text


def test_a_multiclass_paragraph_cites_van_asch(multiclass):
    text = apples.report(multiclass, measures=["precision"]).methods_text()
    assert "label averages after Van Asch 2013" in text and "- Van Asch, V. (2013)" in text


def test_the_comparison_paragraph_names_the_models_design_measures_and_level(studies):
    a = studies["binary_repeated"]
    b = apples.CVPredictions(
        a.y_true,
        folds=a.folds,
        repeats=a.repeats,
        y_pred=np.where(np.arange(len(a)) % 7 == 0, a.y_pred[::-1], a.y_pred),
        y_score=a.y_score[::-1],
        pos_label=a.pos_label,
    )
    tree = apples.CVPredictions(
        a.y_true,
        folds=a.folds,
        repeats=a.repeats,
        y_pred=np.where(np.arange(len(a)) % 5 == 0, b.y_pred, a.y_pred),
        y_score=np.clip(a.y_score + np.random.default_rng(0).normal(0, 0.2, len(a)), 0, 1),
        pos_label=a.pos_label,
    )
    c = apples.compare(a, b, tree, measures=["f_measure:tp_fp", "roc_auc"], names=["lr", "svm", "tree"], confidence=0.9)
    text = c.methods_text()
    assert text.startswith(f"We compared lr, svm and tree on the same {c.n_folds} folds of {c.n_repeats} repeats")
    assert "F-measure (F_tp,fp)" in text and "ROC AUC" in text and "90% intervals" in text
    assert "Holm's step-down method" in text and "- Holm, S. (1979)" in text
    two = apples.compare(a, b, measures=["accuracy"], names=["lr", "svm"]).methods_text()
    assert "Holm" not in two and "We compared lr and svm" in two
