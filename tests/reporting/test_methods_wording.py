"""The methods paragraph's wording where it was wrong or clumsy: a proper scoring rule pooled over the folds is the
mean of its loss over the cases (not "of the counts"), and the design's remarks stand in one parenthesis."""

import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.metrics import brier_score_loss, log_loss
from sklearn.model_selection import RepeatedStratifiedKFold
from sklearn.naive_bayes import GaussianNB

import apples

X, Y = load_breast_cancer(return_X_y=True)
X = X[:, :3]


def _predictions():
    cv = RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=0)
    return apples.cross_val_predictions(GaussianNB(), X, Y, cv=cv)


def test_a_scoring_rule_is_said_to_be_the_mean_over_the_cases():
    p = _predictions()
    r = apples.report(p, measures=["log_loss", "brier_score", "f_measure"], eps="auto")
    text = r.methods_text()
    assert "log loss as the mean over all of each repeat's cases" in text
    assert "Brier score as the mean over all of each repeat's cases" in text
    assert "log loss of the counts" not in text and "Brier score of the counts" not in text
    assert "F-measure (F_tp,fp) of the true positives, false positives and false negatives pooled" in text
    # what the sentence says is what the value is: the mean over each repeat's cases, averaged over the repeats
    rows = [p.repeats == k for k in np.unique(p.repeats)]
    brier = np.mean([brier_score_loss(p.y_true[m], p.y_score[m]) for m in rows])
    assert abs(r.value("brier_score", "pooled") - brier) < 1e-12
    loss = np.mean([log_loss(p.y_true[m], p.y_score[m], labels=[0, 1]) for m in rows])
    assert abs(r.value("log_loss", "pooled") - loss) < 1e-9


def test_the_design_remarks_stand_in_one_parenthesis():
    p = _predictions()
    text = apples.report(p, measures=["accuracy"], stratified=True, cv_seed=0).methods_text()
    assert (
        "2 repeats of 3-fold cross-validation on 569 cases (each repeat a new partition; stratified folds, "
        "split seed 0)." in text
    )
    assert ") (" not in text.split("\n\n")[0]
    plain = apples.report(p, measures=["accuracy"]).methods_text()
    assert "on 569 cases (each repeat a new partition)." in plain
