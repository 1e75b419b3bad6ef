"""Every measure is one record, and everything about it follows from the record (a fitness test).

Adding a measure is one record (apples/measures/builtin.py), one kernel (apples/_kernels/) and one test row
(tests/measures/test_values.py); these tests fail until the record has everything the report, the comparison,
the book's 0/0 table and CONTRIBUTING need.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import apples
from apples._kernels.ranking import FoldRanking
from apples.measures import MEASURES, Aggregation, Measure, from_counts, from_predictions

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("key", list(MEASURES))
def test_every_record_has_a_kernel_names_rules_guidance_and_references(key):
    m = MEASURES[key]
    assert m.key == key and m.name and m.undefined_text and m.references and m.fold_undefined
    if m.family == "counts":
        assert callable(m.kernel)
    elif m.family == "ranking":
        assert f"{m.kernel}_merge" in FoldRanking._fields or m.kernel == "h"
    elif m.family == "scoring":
        assert m.kernel in ("log_loss", "brier")
    assert m.recommended is None or m.recommended in [a.key for a in m.aggregations]
    assert m.recommended is not None or m.guidance  # a quantity without a recommendation says why
    assert set(m.no_interval) <= {a.key for a in m.aggregations}
    lo, hi = m.range
    assert lo < hi


def test_the_books_zero_by_zero_table_has_every_measure_with_its_aggregations_and_rule():
    text = (ROOT / "book" / "zero_by_zero.md").read_text(encoding="utf-8")
    section = text.split("## The report's measures", 1)[1]
    rows = {}
    for line in section.splitlines():
        m = re.match(r"\| `(\w+)` \| (.*?) \| (.*) \|$", line)
        if m:
            rows[m.group(1)] = (m.group(2), m.group(3))
    assert set(rows) == set(MEASURES)
    for key, m in MEASURES.items():
        assert rows[key][0] == ", ".join(f"{a.key} ({a.undefined})" for a in m.aggregations), key
        assert rows[key][1] == m.undefined_text, key


def test_contributing_explains_adding_a_measure_as_one_record_one_kernel_one_test_row():
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert "### Adding a measure" in text
    section = text.split("### Adding a measure", 1)[1].split("\n### ", 1)[0]
    for needed in (
        "apples/measures/builtin.py",
        "apples/_kernels/",
        "tests/measures/test_values.py",
        "zero_by_zero.md",
    ):
        assert needed in section


def test_a_record_that_breaks_the_rules_fails_when_it_is_made():
    good = MEASURES["accuracy"]
    with pytest.raises(ValueError, match="recommended"):
        Measure(**{**good.__dict__, "recommended": "merge"})
    with pytest.raises(ValueError, match="tasks"):
        Measure(**{**good.__dict__, "tasks": ("regression",)})
    with pytest.raises(ValueError, match="distinct"):
        Measure(**{**good.__dict__, "aggregations": (good.aggregations[0], good.aggregations[0])})
    with pytest.raises(ValueError, match="range"):
        Measure(**{**good.__dict__, "range": (1.0, 0.0)})
    assert isinstance(good.aggregations[0], Aggregation)


def test_from_counts_jaccard_is_sklearns_jaccard_score_every_task(studies, fold_parts):
    from sklearn.metrics import jaccard_score

    def jac(tp, fp, fn, tn):
        return np.where(tp + fp + fn > 0, tp / np.where(tp + fp + fn > 0, tp + fp + fn, 1), np.nan)

    measure = from_counts("jaccard", jac, name="Jaccard", undefined="skip")
    for name, kw in (("binary_weighted", {"pos_label": "benign"}), ("multiclass", {"average": "macro"})):
        p = studies[name]
        r = apples.report(p, measures=[measure])
        average = kw.get("average", "")
        values = []
        for rows, _ in fold_parts(p):
            w = None if p.sample_weight is None else p.sample_weight[rows]
            values.append(jaccard_score(p.y_true[rows], p.y_pred[rows], sample_weight=w, zero_division=0, **kw))
        assert r.value("jaccard", "pooled", average=average) == pytest.approx(np.mean(values), abs=1e-12)


def test_from_counts_needs_a_vectorised_function_and_says_so():
    p = apples.CVPredictions([1, 0, 1, 0], folds=[0, 0, 1, 1], y_pred=[1, 0, 0, 0])
    scalar = from_counts("scalar", lambda tp, fp, fn, tn: float(np.sum(tp)))
    with pytest.raises(ValueError, match="numpy") as err:
        apples.report(p, measures=[scalar])
    assert err.value.param == "measures"


def test_from_predictions_f2_equals_the_builtin_f_beta_and_gets_an_interval(studies):
    from sklearn.metrics import fbeta_score

    p = studies["binary_repeated"]
    f2 = from_predictions("f2", lambda t, y, w: fbeta_score(t, y, beta=2, pos_label="benign", sample_weight=w))
    r = apples.report(p, measures=["f_measure", f2], beta=2.0, confidence=0.95)
    assert r.value("f2", "pooled") == pytest.approx(r.value("f_measure", "tp_fp"), abs=1e-12)
    ours = r.confidence_interval(quantity="f2", aggregation="pooled")
    builtin = r.confidence_interval(quantity="f_measure", aggregation="tp_fp")
    assert (ours.low, ours.high) == pytest.approx((builtin.low, builtin.high), abs=1e-12)


def test_a_custom_key_must_be_new_and_the_same_key_twice_is_refused():
    with pytest.raises(ValueError, match="built-in") as err:
        from_counts("mcc", lambda tp, fp, fn, tn: tp)
    assert err.value.param == "key"
    p = apples.CVPredictions([1, 0, 1, 0], folds=[0, 0, 1, 1], y_pred=[1, 0, 0, 0])
    with pytest.raises(ValueError, match="twice") as err:
        apples.report(p, measures=["mcc", "mcc"])
    assert err.value.param == "measures"
    with pytest.raises(ValueError, match="needs scores") as err:
        apples.report(p, measures=["roc_auc"])
    assert err.value.param == "measures"
