"""fold_ranking: per-fold and merged ROC AUC and average precision from one sort, against scikit-learn, and the
counting path (no weights) against the weighted path with unit weights (the float sums of :func:`_segments`)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

from apples._kernels.ranking import fold_ranking


def _data(seed: int, n: int, ties: str, n_folds: int):
    rng = np.random.default_rng(seed)
    positive = rng.random(n) < 0.2
    scores = {
        "none": rng.standard_normal(n) + positive,
        "float32": (rng.standard_normal(n) + positive).astype(np.float32).astype(np.float64),
        "few": rng.integers(0, 4, n).astype(np.float64),
        "int": rng.integers(-5, 5, n),
    }[ties]
    fold = rng.integers(0, n_folds, n)
    return positive, scores, fold


@pytest.mark.parametrize("ties", ["none", "float32", "few", "int"])
@pytest.mark.parametrize("n_folds", [1, 5, 300])
def test_fold_ranking_equals_scikit_learn_and_the_weighted_sums(ties, n_folds):
    positive, scores, fold = _data(n_folds, 3000, ties, n_folds)
    other = np.random.default_rng(1).random(scores.size) < 0.5
    r = fold_ranking(positive, scores, fold, n_folds + 2, other=other)  # two empty folds at the end
    assert r.auc_merge == pytest.approx(roc_auc_score(positive, scores), abs=1e-12)
    assert r.ap_merge == pytest.approx(average_precision_score(positive, scores), abs=1e-12)
    assert r.other_auc_merge == pytest.approx(roc_auc_score(other, scores), abs=1e-12)
    for k in range(n_folds + 2):
        m = fold == k
        if positive[m].any() and not positive[m].all():
            assert r.auc[k] == pytest.approx(roc_auc_score(positive[m], scores[m]), abs=1e-12)
            assert r.ap[k] == pytest.approx(average_precision_score(positive[m], scores[m]), abs=1e-12)
        else:
            assert np.isnan(r.auc[k])
            assert np.isnan(r.ap[k]) == (not positive[m].any())
    w = fold_ranking(positive, scores, fold, n_folds + 2, weights=np.ones(scores.size), other=other)
    # integer counts summed exactly in both: the same floats, bit for bit
    assert r.auc.tobytes() == w.auc.tobytes() and r.ap.tobytes() == w.ap.tobytes()
    assert (r.auc_merge, r.ap_merge, r.other_auc_merge) == (w.auc_merge, w.ap_merge, w.other_auc_merge)


def test_fold_ranking_of_one_class_and_one_case():
    r = fold_ranking(np.array([True, True]), np.array([0.1, 0.2]), np.array([0, 1]), 2)
    assert np.isnan(r.auc_merge) and r.ap_merge == 1.0 and np.isnan(r.auc).all() and r.ap.tolist() == [1.0, 1.0]
    r = fold_ranking(np.array([False, True]), np.array([0.3, 0.3]), np.array([0, 0]), 1)
    assert r.auc_merge == 0.5 and r.ap_merge == 0.5  # one tie: half a pair, precision 1/2 at the only threshold


def test_a_zero_weight_tie_group_at_the_top_adds_nothing_to_average_precision():
    """The top score's only case weighs 0: its precision is 0/0, and scikit-learn's AP (which drops the case) is
    the same as with the case left in (it adds no positive weight)."""
    positive = np.array([False, True, False, True, True, False])
    scores = np.array([0.9, 0.8, 0.7, 0.6, 0.4, 0.2])
    weights = np.array([0.0, 1.0, 2.0, 0.5, 1.0, 1.0])
    r = fold_ranking(positive, scores, np.zeros(6, dtype=np.intp), 1, weights=weights)
    keep = weights > 0
    expected = average_precision_score(positive[keep], scores[keep], sample_weight=weights[keep])
    assert r.ap[0] == pytest.approx(expected, rel=1e-12) and r.ap_merge == pytest.approx(expected, rel=1e-12)
    assert r.auc[0] == pytest.approx(roc_auc_score(positive, scores, sample_weight=weights), rel=1e-12)
