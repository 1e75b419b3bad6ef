"""The methods paragraph's wording where it was wrong or clumsy: a proper scoring rule pooled over the folds is the
mean of its loss over the cases (not "of the counts"), the design's remarks stand in one parenthesis, and each
source is cited for what it says (Forman & Scholz for the F and AUC aggregations only; H's severity-ratio prior as the
R package hmeasure's, not Hand 2009's Beta(2, 2))."""

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


def test_each_source_is_cited_for_what_it_says():
    """Forman & Scholz (2010) compare the aggregations of F (§2.3) and of AUC (§3.2), never H or MCC; Hand (2009, §6)
    proposed Beta(2, 2), while Beta(2, 1 + 1/r) with the severity ratio r is the prior of Anagnostopoulos & Hand's R
    package hmeasure (its PyPI port's ``_generate_beta_params``: a = 2, b = 1 + 1/r)."""
    p = _predictions()
    text = apples.report(p, measures=["f_measure", "mcc", "roc_auc", "h_measure"]).methods_text()
    paragraph = text.split("\n\nReferences\n")[0]
    assert "pooled over each repeat's folds (Forman & Scholz 2010, §2.3);" in paragraph
    assert "ROC AUC as the mean of the per-fold values (Forman & Scholz 2010, §3.2);" in paragraph
    assert "H-measure as the mean of the per-fold values." in paragraph  # no Forman & Scholz beside H
    assert paragraph.count("Forman & Scholz 2010") == 2
    assert "Beta(2, 1 + 1/r) on the cost share of the R package hmeasure (Anagnostopoulos & Hand)" in paragraph
    assert "(Hand 2009) uses a Beta(2, 1 + 1/r)" not in paragraph
    accuracy = apples.report(p, measures=["accuracy"]).methods_text().split("\n\nReferences\n")[0]
    assert "Forman & Scholz 2010, §" not in accuracy.split("Undefined values")[0]
