"""report() under sample weights, checked against scikit-learn's ``sample_weight=`` and against repeated rows."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn import metrics as skm

import apples
from apples.cv import CVPredictions

from report_view import nested

K = 5


def _binary(seed: int, n: int = 300) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = np.clip(0.35 * y + 0.65 * rng.random(n), 0.0, 1.0)
    s = np.round(s, 2)  # ties, within and across folds
    return y, (s > 0.5).astype(int), s, np.arange(n) % K


def _weights(kind: str, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed + 100)
    if kind == "random":
        return rng.random(n) * 3
    if kind == "zeros":
        w = rng.random(n)
        w[rng.random(n) < 0.4] = 0.0
        return w
    if kind == "huge":
        w = rng.random(n)
        w[7] = 1e6
        return w
    return rng.integers(0, 4, n).astype(float)  # "integer"


KINDS = ["random", "zeros", "huge", "integer"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", [0, 1])
def test_binary_values_equal_sklearn_with_sample_weight(kind: str, seed: int) -> None:
    y, yp, s, f = _binary(seed)
    w = _weights(kind, y.size, seed)
    d = nested(apples.report(CVPredictions(y, folds=f, y_pred=yp, y_score=s, sample_weight=w)))
    close = {"rel": 1e-9, "abs": 1e-12}  # a weight of 1e6 costs scikit-learn's trapezoids ~1e-11
    assert d["f_measure"]["tp_fp"] == pytest.approx(skm.f1_score(y, yp, sample_weight=w), **close)
    assert d["precision"]["pooled"] == pytest.approx(skm.precision_score(y, yp, sample_weight=w), **close)
    assert d["recall"]["pooled"] == pytest.approx(skm.recall_score(y, yp, sample_weight=w), **close)
    assert d["accuracy"]["pooled"] == pytest.approx(skm.accuracy_score(y, yp, sample_weight=w), **close)
    assert d["roc_auc"]["merge"] == pytest.approx(skm.roc_auc_score(y, s, sample_weight=w), **close)
    assert d["average_precision"]["merge"] == pytest.approx(skm.average_precision_score(y, s, sample_weight=w), **close)
    assert d["log_loss"]["pooled"] == pytest.approx(skm.log_loss(y, s, sample_weight=w), **close)
    assert d["brier_score"]["pooled"] == pytest.approx(skm.brier_score_loss(y, s, sample_weight=w), **close)
    # per-fold values weighted, then the plain mean over folds
    per = {"f": [], "p": [], "r": [], "a": [], "auc": [], "ap": [], "ll": [], "br": []}
    for k in range(K):
        i = f == k
        yi, pi, si, wi = y[i], yp[i], s[i], w[i]
        per["f"].append(skm.f1_score(yi, pi, sample_weight=wi, zero_division=0))
        per["p"].append(skm.precision_score(yi, pi, sample_weight=wi, zero_division=0))
        per["r"].append(skm.recall_score(yi, pi, sample_weight=wi, zero_division=0))
        per["a"].append(skm.accuracy_score(yi, pi, sample_weight=wi))
        per["auc"].append(skm.roc_auc_score(yi, si, sample_weight=wi))
        per["ap"].append(skm.average_precision_score(yi, si, sample_weight=wi))
        per["ll"].append(skm.log_loss(yi, si, sample_weight=wi, labels=[0, 1]))
        per["br"].append(skm.brier_score_loss(yi, si, sample_weight=wi))
    for got, key in (
        (d["f_measure"]["avg"], "f"),
        (d["precision"]["avg"], "p"),
        (d["recall"]["avg"], "r"),
        (d["accuracy"]["avg"], "a"),
        (d["roc_auc"]["avg"], "auc"),
        (d["average_precision"]["avg"], "ap"),
        (d["log_loss"]["avg"], "ll"),
        (d["brier_score"]["avg"], "br"),
    ):
        assert got == pytest.approx(np.mean(per[key]), **close), key


def _values(d: dict) -> dict:
    skip = {"n", "folds", "notes", "warnings", "recommended", "design", "sample_weight", "per_label", "task"}
    return {k: v for k, v in d.items() if k not in skip}


def _assert_close_trees(a: object, b: object, path: str = "") -> None:
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), path
        for key in a:
            _assert_close_trees(a[key], b[key], f"{path}/{key}")
    elif isinstance(a, float) and isinstance(b, float):
        assert a == pytest.approx(b, rel=1e-12, abs=1e-13), path
    else:
        assert a == b, path


def test_binary_integer_weights_equal_repeated_rows() -> None:
    y, yp, s, f = _binary(3)
    w = np.random.default_rng(5).integers(1, 4, y.size)  # no zero: every fold keeps its rows
    weighted = nested(apples.report(CVPredictions(y, folds=f, y_pred=yp, y_score=s, sample_weight=w)))
    r = np.repeat(np.arange(y.size), w)
    repeated = nested(apples.report(CVPredictions(y[r], folds=f[r], y_pred=yp[r], y_score=s[r])))
    _assert_close_trees(_values(weighted), _values(repeated))


def _multiclass(seed: int, n: int = 400) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 4, n)
    yp = np.where(rng.random(n) < 0.6, y, rng.integers(0, 4, n))
    raw = rng.random((n, 4)) + np.eye(4)[yp] * 0.5
    return y, yp, raw / raw.sum(axis=1, keepdims=True), np.arange(n) % K


def test_multiclass_integer_weights_equal_repeated_rows() -> None:
    y, yp, sc, f = _multiclass(0)
    w = np.random.default_rng(1).integers(1, 4, y.size)
    weighted = nested(apples.report(CVPredictions(y, folds=f, y_pred=yp, y_score=sc, sample_weight=w)))
    r = np.repeat(np.arange(y.size), w)
    repeated = nested(apples.report(CVPredictions(y[r], folds=f[r], y_pred=yp[r], y_score=sc[r])))
    _assert_close_trees(_values(weighted), _values(repeated))


@pytest.mark.parametrize("kind", KINDS)
def test_multiclass_pooled_values_equal_sklearn(kind: str) -> None:
    y, yp, sc, f = _multiclass(2)
    w = _weights(kind, y.size, 2)
    d = nested(apples.report(CVPredictions(y, folds=f, y_pred=yp, y_score=sc, sample_weight=w)))
    close = {"rel": 1e-9, "abs": 1e-12}  # a weight of 1e6 costs scikit-learn's trapezoids ~1e-11
    for avg in ("macro", "micro"):
        assert d["precision"][avg]["pooled"] == pytest.approx(
            skm.precision_score(y, yp, average=avg, sample_weight=w, zero_division=0), **close
        )
        assert d["recall"][avg]["pooled"] == pytest.approx(
            skm.recall_score(y, yp, average=avg, sample_weight=w, zero_division=0), **close
        )
    assert d["mean_f"]["macro"]["pooled"] == pytest.approx(
        skm.f1_score(y, yp, average="macro", sample_weight=w, zero_division=0), **close
    )
    assert d["accuracy"]["pooled"] == pytest.approx(skm.accuracy_score(y, yp, sample_weight=w), **close)
    per_label = [skm.roc_auc_score(y == j, sc[:, j], sample_weight=w) for j in range(4)]
    assert d["roc_auc"]["macro_ovr"]["merge"] == pytest.approx(np.mean(per_label), **close)


def test_fold_of_zero_weights_follows_the_zero_by_zero_vocabulary() -> None:
    y, yp, s, f = _binary(4)
    w = np.ones(y.size)
    w[f == 2] = 0.0
    d = nested(apples.report(CVPredictions(y, folds=f, y_pred=yp, y_score=s, sample_weight=w)))
    keep = f != 2
    fold2 = d["folds"][2]
    assert {u["quantity"] for u in fold2["undefined"]} >= {"accuracy", "precision", "recall", "roc_auc"}
    assert fold2["n"] == int((f == 2).sum())  # rows, not weight
    # accuracy, AUC, AP: the mean over the four defined folds; precision: the undefined fold counts 0
    acc = [skm.accuracy_score(y[f == k], yp[f == k]) for k in range(K) if k != 2]
    assert d["accuracy"]["avg"] == pytest.approx(np.mean(acc), rel=1e-12)
    auc = [skm.roc_auc_score(y[f == k], s[f == k]) for k in range(K) if k != 2]
    assert d["roc_auc"]["avg"] == pytest.approx(np.mean(auc), rel=1e-12)
    prec = [skm.precision_score(y[f == k], yp[f == k]) for k in range(K) if k != 2]
    assert d["precision"]["avg"] == pytest.approx(sum(prec) / K, rel=1e-12)
    assert d["f_measure"]["tp_fp"] == pytest.approx(skm.f1_score(y[keep], yp[keep]), rel=1e-12)
    assert d["log_loss"]["pooled"] == pytest.approx(skm.log_loss(y[keep], s[keep]), rel=1e-12)
    ll = [skm.log_loss(y[f == k], s[f == k]) for k in range(K) if k != 2]
    assert d["log_loss"]["avg"] == pytest.approx(np.mean(ll), rel=1e-12)


def test_header_intervals_and_json_say_weighted() -> None:
    y, yp, s, f = _binary(5)
    w = _weights("zeros", y.size, 5)
    r = apples.report(CVPredictions(y, folds=f, y_pred=yp, y_score=s, sample_weight=w), confidence=0.95)
    d = nested(r)
    assert d["sample_weight"]["n_zero"] == int((w == 0).sum())
    assert d["sample_weight"]["mean"] == pytest.approx(math.fsum(w.tolist()) / w.size)
    assert "weighted by sample_weight" in str(r).split("\n\n")[0]
    ci = d["intervals"]["roc_auc"]["merge"]  # weighted values get intervals: the jackknife of the weighted AUC
    assert ci["low"] <= d["roc_auc"]["merge"] <= ci["high"] and ci["method"] == "jackknife_corrected_t"
    assert apples.CVReport.from_json(r.to_json()).to_dict()["sample_weight"] == d["sample_weight"]


def test_unweighted_report_has_no_weight_entry() -> None:
    y, yp, s, f = _binary(6)
    d = nested(apples.report(CVPredictions(y, folds=f, y_pred=yp, y_score=s)))
    assert "sample_weight" not in d


@pytest.mark.parametrize(
    ("w", "message"),
    [
        ([1.0, float("nan"), 1.0, 1.0], "NaN at position 1"),
        ([1.0, 1.0, -2.0, 1.0], "non-negative, got -2.0 at position 2"),
        ([1.0, 1.0, 1.0], "sample_weight"),
        ([0.0, 0.0, 0.0, 0.0], "0 for every row"),
        ([1.0, float("inf"), 1.0, 1.0], "sample_weight"),
    ],
)
def test_bad_weights_are_refused_by_name(w: list, message: str) -> None:
    with pytest.raises(ValueError, match=message) as err:
        CVPredictions([0, 1, 0, 1], folds=[0, 0, 1, 1], y_pred=[0, 1, 1, 1], sample_weight=w)
    assert err.value.param in ("sample_weight", "y_true")  # unequal lengths: SameLength names the first array


def test_weights_round_trip_through_frame() -> None:
    p = CVPredictions([0, 1, 0, 1], folds=[0, 0, 1, 1], y_pred=[0, 1, 1, 1], sample_weight=[1.0, 2.0, 0.5, 0.0])
    frame = p.to_frame()
    q = CVPredictions.from_frame(frame, y_pred="y_pred", sample_weight="sample_weight")
    assert q.sample_weight is not None and q.sample_weight.tolist() == [1.0, 2.0, 0.5, 0.0]


def test_fold_and_label_tables_are_weighted_as_sklearn() -> None:
    from apples.cv import fold_table, label_table

    y, yp, s, f = _binary(7)
    w = _weights("zeros", y.size, 7)
    p = CVPredictions(y, folds=f, y_pred=yp, y_score=s, sample_weight=w)
    t = fold_table(p)
    for k in range(K):
        i = f == k
        row = t.iloc[k]
        assert row["n"] == i.sum() and row["weight"] == pytest.approx(w[i].sum(), rel=1e-12)
        assert row["precision"] == pytest.approx(skm.precision_score(y[i], yp[i], sample_weight=w[i]), rel=1e-12)
        assert row["accuracy"] == pytest.approx(skm.accuracy_score(y[i], yp[i], sample_weight=w[i]), rel=1e-12)
        assert row["roc_auc"] == pytest.approx(skm.roc_auc_score(y[i], s[i], sample_weight=w[i]), rel=1e-9)
        assert row["average_precision"] == pytest.approx(
            skm.average_precision_score(y[i], s[i], sample_weight=w[i]), rel=1e-9
        )
    ym, pm, _, fm = _multiclass(8)
    wm = _weights("random", ym.size, 8)
    table = label_table(CVPredictions(ym, folds=fm, y_pred=pm, sample_weight=wm))
    prec, rec, f1, support = skm.precision_recall_fscore_support(ym, pm, sample_weight=wm, zero_division=0)
    np.testing.assert_allclose(table["precision"].to_numpy()[:4], prec, rtol=1e-12)
    np.testing.assert_allclose(table["recall"].to_numpy()[:4], rec, rtol=1e-12)
    np.testing.assert_allclose(table["f"].to_numpy()[:4], f1, rtol=1e-12)
    np.testing.assert_allclose(table["support"].to_numpy()[:4], support, rtol=1e-12)


@pytest.mark.parametrize("scale", ["1e-300", "1e300", "all 5e-324", "all 1e308"])
def test_weights_at_the_ends_of_the_float_range_give_the_values_of_the_same_relative_weights(scale: str) -> None:
    # before: weights x 1e-300 gave a null ROC AUC (n_pos · n_neg underflowed); twelve weights of 1e308 raised
    # OverflowError from fsum. Each value must be that of the same weights scaled to a normal range.
    rng = np.random.default_rng(11)
    y = np.array([0, 1] * 6)
    s = rng.random(12) + 0.3 * y
    yp = (s > 0.6).astype(int)
    base = rng.uniform(0.5, 2.0, 12)
    w = {
        "1e-300": base * 1e-300,
        "1e300": base * 1e300,
        "all 5e-324": np.full(12, 5e-324),
        "all 1e308": np.full(12, 1e308),
    }[scale]
    plain = base if scale in ("1e-300", "1e300") else np.ones(12)
    folds = np.arange(12) % 3
    r = apples.report(CVPredictions(y, folds=folds, y_pred=yp, y_score=s, sample_weight=w))
    expected = apples.report(CVPredictions(y, folds=folds, y_pred=yp, y_score=s, sample_weight=plain))
    assert r.value("roc_auc", "merge") == pytest.approx(skm.roc_auc_score(y, s, sample_weight=plain), rel=1e-12)
    assert r.value("f_measure", "tp_fp") == pytest.approx(skm.f1_score(y, yp, sample_weight=plain), rel=1e-12)
    # base × 1e-300 rounds each weight (relative 1e-16); MCC's cancellation (c − Σ p_k t_k) can amplify that to
    # about 1e-9, so the comparison allows 1e-7 (the all-equal cases agree to rounding)
    tol = 1e-14 if scale.startswith("all") else 1e-7
    for row, want in zip(r.to_dict()["values"], expected.to_dict()["values"], strict=True):
        if want["value"] is None:
            assert row["value"] is None
        else:
            assert row["value"] == pytest.approx(want["value"], rel=tol, abs=tol), row
    assert math.isfinite(r.to_dict()["sample_weight"]["mean"])


@pytest.mark.parametrize("dtype", ["bool", "object"])
def test_numeric_weights_of_bool_or_object_dtype_are_cast_as_scikit_learn_casts_them(dtype: str) -> None:
    y, yp, _s, f = _binary(7)
    w = (np.arange(y.size) % 3 > 0) if dtype == "bool" else np.array([1, 2.5, 3] * (y.size // 3), dtype=object)
    r = apples.report(CVPredictions(y, folds=f, y_pred=yp, sample_weight=w), measures=["f_measure"])
    assert r.value("f_measure", "tp_fp") == pytest.approx(
        skm.f1_score(y, yp, sample_weight=np.asarray(w, dtype=float)), rel=1e-12
    )
