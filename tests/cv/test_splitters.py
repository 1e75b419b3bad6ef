"""Any scikit-learn splitter through cross_val_predictions and report (issue 21, item 3).

Expected values are computed here by hand with scikit-learn: each split's model fitted on its
training rows, f1_score / roc_auc_score on its test rows, pooled within a partition (repeat) and
averaged over repeats, or, for hold-out splits, taken per split and averaged over splits.
"""

from __future__ import annotations

import numpy as np
import pytest

import apples

from report_view import nested

sklearn = pytest.importorskip("sklearn")
from sklearn.base import clone  # noqa: E402
from sklearn.datasets import make_classification  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.metrics import f1_score, roc_auc_score  # noqa: E402
from sklearn.model_selection import (  # noqa: E402
    GroupKFold,
    KFold,
    LeaveOneOut,
    LeavePOut,
    RepeatedStratifiedKFold,
    ShuffleSplit,
    StratifiedKFold,
    StratifiedShuffleSplit,
    TimeSeriesSplit,
)

X, Y = make_classification(n_samples=60, n_features=4, random_state=3, flip_y=0.2)
GROUPS = np.arange(60) % 7
MODEL = LogisticRegression()

#: splitter, design, and whether each split is its own repeat (hold-out) or splits are pooled per repeat
CASES = [
    (KFold(5), "k-fold", None),
    (StratifiedKFold(4, shuffle=True, random_state=1), "k-fold", None),
    (RepeatedStratifiedKFold(n_splits=3, n_repeats=3, random_state=0), "repeated k-fold", 3),
    (GroupKFold(4), "k-fold", None),
    (LeaveOneOut(), "leave-one-out", None),
    (ShuffleSplit(6, test_size=0.25, random_state=0), "repeated hold-out", "each"),
    (StratifiedShuffleSplit(5, test_size=0.3, random_state=2), "repeated hold-out", "each"),
    # two disjoint test sets drawn at random: still two hold-out splits, not one partition of 12 cases
    (ShuffleSplit(2, test_size=0.1, random_state=5), "repeated hold-out", "each"),
    (TimeSeriesSplit(4), "k-fold", None),
]


def _by_hand(cv):
    """Each split's (test rows, predicted labels, positive-class probability), fitted with scikit-learn."""
    out = []
    for train, test in cv.split(X, Y, _groups(cv)):
        m = clone(MODEL).fit(X[train], Y[train])
        out.append((test, m.predict(X[test]), m.predict_proba(X[test])[:, 1]))
    return out


def _groups(cv):
    return GROUPS if isinstance(cv, GroupKFold) else None


def _repeats(splits, how):
    if how == "each":
        return [[s] for s in splits]
    if how is None:
        return [splits]
    per = len(splits) // how
    return [splits[i * per : (i + 1) * per] for i in range(how)]


@pytest.mark.parametrize("cv, design, how", CASES, ids=[f"{type(c).__name__}{i}" for i, (c, _, _) in enumerate(CASES)])
def test_every_splitter_reports_the_pooled_value_of_each_repeat_averaged(cv, design, how):
    p = apples.cross_val_predictions(MODEL, X, Y, cv=cv, groups=_groups(cv))
    assert p.design == design
    splits = _by_hand(cv)
    repeats = _repeats(splits, how)
    f1 = [f1_score(Y[np.concatenate([s[0] for s in r])], np.concatenate([s[1] for s in r])) for r in repeats]
    d = nested(apples.report(p))
    assert d["f_measure"]["tp_fp"] == pytest.approx(np.mean(f1), rel=1e-12)
    assert d["design"]["design"] == design
    assert d["design"]["n_repeats"] == len(repeats)
    tested = np.unique(np.concatenate([s[0] for s in splits]))
    info = p.design_info()
    assert info["n_tested"] == tested.size
    assert info["n_untested"] == Y.size - tested.size
    assert d["design"].get("n_untested", 0) == Y.size - tested.size  # the report says it only when some are left out
    if how == "each":  # every value is the split's own: AUC_avg = AUC_merge = mean over splits of the split's AUC
        auc = [roc_auc_score(Y[t], s) for t, _, s in splits]
        assert d["roc_auc"]["avg"] == pytest.approx(np.mean(auc), rel=1e-12)
        assert d["roc_auc"]["merge"] == pytest.approx(np.mean(auc), rel=1e-12)
        counts = np.bincount(np.concatenate([s[0] for s in splits]), minlength=Y.size)
        assert info["n_tested_in_several_repeats"] == int((counts > 1).sum())
        assert info["overlapping"] == bool((counts > 1).any())
        assert d["design"]["folds_per_repeat"] == 1
        if (counts > 1).any():
            assert d["design"]["overlap"]["n_tested_in_several_repeats"] == int((counts > 1).sum())
            assert d["design"]["overlap"]["max_times_tested"] == counts.max()
        else:
            assert "overlap" not in d["design"]
    else:  # fold ids 0..k-1 in the splitter's order, each case once per repeat
        for r, rep in enumerate(repeats):
            rows = p.rows(r)
            for f, (test, _pred, _) in enumerate(rep):
                assert sorted(p.cases[rows][p.folds[rows] == f].tolist()) == sorted(test.tolist())
        assert info["overlapping"] is False and "overlap" not in d["design"]


def test_time_series_split_leaves_the_first_block_untested():
    cv = TimeSeriesSplit(4)
    p = apples.cross_val_predictions(MODEL, X, Y, cv=cv)
    first_test = next(iter(cv.split(X)))[1]
    assert p.design_info()["n_untested"] == first_test[0] == 12
    assert len(p) == 48


def test_overlapping_test_sets_that_are_not_partitions_are_one_repeat_each():
    """LeavePOut(2) tests every pair: disjoint pairs must not be read as folds of one partition."""
    Xs, ys = X[:6], np.array([0, 1, 0, 1, 1, 0])
    p = apples.cross_val_predictions(MODEL, Xs, ys, cv=LeavePOut(2), method="predict")
    assert p.design == "repeated hold-out" and p.n_repeats == 15
    info = p.design_info()
    assert info["max_times_tested"] == 5 and info["overlapping"] is True


def test_a_single_hold_out_split():
    p = apples.cross_val_predictions(MODEL, X, Y, cv=ShuffleSplit(1, test_size=0.5, random_state=0))
    assert p.design == "hold-out"
    test, pred, _ = _by_hand(ShuffleSplit(1, test_size=0.5, random_state=0))[0]
    assert nested(apples.report(p))["f_measure"]["tp_fp"] == pytest.approx(f1_score(Y[test], pred), rel=1e-12)


def test_hold_out_predictions_built_by_hand():
    p = apples.CVPredictions([1, 0, 1, 1, 0, 1], folds=[0] * 6, repeats=[0, 0, 0, 1, 1, 1], y_pred=[1, 0, 0, 1, 1, 1])
    assert p.design == "repeated hold-out"
    d = nested(apples.report(p))
    by_hand = (f1_score([1, 0, 1], [1, 0, 0]) + f1_score([1, 0, 1], [1, 1, 1])) / 2
    assert d["f_measure"]["tp_fp"] == pytest.approx(by_hand, rel=1e-12)


def test_multiclass_hold_out_splits_average_each_split_s_macro_f():
    from sklearn.model_selection import LeavePGroupsOut

    y3 = np.digitize(X[:, 0], np.quantile(X[:, 0], [1 / 3, 2 / 3]))
    for cv, groups in ((StratifiedShuffleSplit(4, test_size=0.3, random_state=1), None), (LeavePGroupsOut(2), GROUPS)):
        p = apples.cross_val_predictions(MODEL, X, y3, cv=cv, groups=groups)
        assert p.design == "repeated hold-out"
        macro = []
        for train, test in cv.split(X, y3, groups):
            pred = clone(MODEL).fit(X[train], y3[train]).predict(X[test])
            macro.append(f1_score(y3[test], pred, average="macro", labels=[0, 1, 2], zero_division=0))
        d = nested(apples.report(p))
        assert d["mean_f"]["macro"]["pooled"] == pytest.approx(np.mean(macro), rel=1e-12)


def test_the_design_survives_json_and_is_none_where_unknown():
    p = apples.cross_val_predictions(MODEL, X, Y, cv=ShuffleSplit(3, test_size=0.3, random_state=0))
    r = apples.report(p)
    back = apples.CVReport.from_json(r.to_json()).to_dict()
    assert back["design"] == r.to_dict()["design"]
    plain = apples.CVPredictions([0, 1, 0, 1], folds=[0, 0, 1, 1], y_pred=[0, 1, 1, 1])
    assert plain.design_info()["n_tested"] is None and plain.design_info()["overlapping"] is None
    assert nested(apples.report(plain))["design"] == {"design": "k-fold", "n_repeats": 1, "folds_per_repeat": 2}


def test_a_k_fold_report_reads_the_same_with_or_without_case_ids():
    """As notebook 10 checks: the CSV the CLI reads has no case ids; every case tested once changes nothing."""
    p = apples.cross_val_predictions(MODEL, X, Y, cv=StratifiedKFold(5, shuffle=True, random_state=0))
    again = apples.CVPredictions.from_frame(p.to_frame(), y_pred="y_pred", y_score="y_score")
    assert nested(apples.report(p)) == nested(apples.report(again))
