"""compare() where a model's log loss is infinite: a probability 0 for some case's true label (a decision tree's pure
leaf, Gaussian naive Bayes far from a class). The default comparison leaves the log loss out and says why; asked
for, it names the model and the cause instead of a 0/0 t statistic; a clipped log-loss record is compared as
clipped (against scikit-learn's log_loss of the clipped probabilities)."""

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss
from sklearn.model_selection import RepeatedStratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

import apples
from apples.measures import MEASURES

X_ALL, TARGET = load_breast_cancer(return_X_y=True)
X = X_ALL[:, :4]
Y = np.where(TARGET == 0, "malignant", "benign")  # string labels; the positive one sorts last
CV = RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=0)


@pytest.fixture(scope="module")
def models():
    linear = make_pipeline(StandardScaler(), LogisticRegression())
    tree = DecisionTreeClassifier(max_depth=6, random_state=0)  # pure leaves: probabilities 0 and 1
    out = [apples.cross_val_predictions(m, X, Y, cv=CV, pos_label="malignant") for m in (linear, tree)]
    tree_p = out[1]
    wrong = ((tree_p.y_true == "malignant") & (tree_p.y_score == 0)) | (
        (tree_p.y_true == "benign") & (tree_p.y_score == 1)
    )
    assert wrong.any(), "the tree must give some case probability 0 for its true label"
    return out


def test_the_default_comparison_leaves_an_infinite_log_loss_out_and_says_why(models):
    c = apples.compare(*models, names=["linear", "tree"])
    assert "log_loss:pooled" not in c.measures
    assert {"f_measure:tp_fp", "roc_auc:avg", "brier_score:pooled"} <= set(c.measures)
    assert all(d.measure != "log_loss" for d in c.differences)
    assert len(c.fold_differences) == len(c.differences)
    note = next(n for n in c.notes if n.startswith("Not compared, because infinite"))
    assert "log_loss pooled is infinite for tree" in note and "eps='auto'" in note


def test_an_asked_for_infinite_log_loss_names_the_model_and_the_cause(models):
    with pytest.raises(apples.UndefinedMetricError, match=r"infinite for tree .*probability 0") as err:
        apples.compare(*models, names=["linear", "tree"], measures=["log_loss"])
    assert "0/0" not in str(err.value)
    c = apples.compare(*models, names=["linear", "tree"], measures=["log_loss", "mcc"], undefined="nan")
    row = c.differences[0]
    assert row.measure == "log_loss" and row.value_b == np.inf and np.isnan(row.p_value)
    assert c.differences[1].measure == "mcc" and np.isfinite(c.differences[1].p_value)


@pytest.mark.trained
@pytest.mark.parametrize("eps", [1e-15, "auto"])
def test_a_clipped_log_loss_record_is_compared_clipped(models, eps):
    clipped = MEASURES["log_loss"].using(eps=eps)
    c = apples.compare(*models, names=["linear", "tree"], measures=[clipped])
    clip = np.finfo(np.float64).eps if eps == "auto" else eps
    for value, p in zip((c.differences[0].value_a, c.differences[0].value_b), models, strict=True):
        both = np.clip(np.column_stack([1 - p.y_score, p.y_score]), clip, 1 - clip)  # each column, as sklearn clips
        per_repeat = [
            log_loss(p.y_true[rows] == "malignant", both[rows], labels=[False, True])
            for rows in (p.repeats == r for r in np.unique(p.repeats))
        ]
        assert value == pytest.approx(np.mean(per_repeat), rel=1e-9)
    assert np.isfinite(c.differences[0].p_value)
