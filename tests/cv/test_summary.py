"""CVSummary: predictions summarised block by block (from_frames, from_dask) give the report of the same rows in
memory: every value, spread and interval, integers exactly, floats to 1e-12 relative; the checks of CVPredictions,
by name, with positions over all the blocks."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import apples
from apples.cv import CVSummary
from apples.measures import from_predictions


def _assert_same_report(a: apples.CVReport, b: apples.CVReport, *, bits: bool = False) -> None:
    """Two reports' JSON: the same keys and strings, integers equal, floats within 1e-12 relative (1e-15 absolute
    at 0; a spread 1e-13 absolute); ``bits``: every float equal too."""
    wrong: list = []

    def walk(x, y, path):
        if isinstance(x, dict):
            assert set(x) == set(y), (path, set(x) ^ set(y))
            for key in x:
                walk(x[key], y[key], f"{path}/{key}")
        elif isinstance(x, list):
            assert len(x) == len(y), path
            for i, (u, v) in enumerate(zip(x, y, strict=True)):
                walk(u, v, f"{path}[{i}]")
        elif isinstance(x, float) and isinstance(y, float) and not bits:
            # a spread (the std across repeats, the variance of the points) is a difference of nearly equal values:
            # its rounding is that of the values (1e-12 of their scale, 1), not of itself
            spread = path.endswith(("/std", "/variance"))
            if not (x == y or abs(x - y) <= max(1e-12 * max(abs(x), abs(y)), 1e-13 if spread else 1e-15)):
                wrong.append((path, x, y))
        elif x != y or type(x) is not type(y):
            wrong.append((path, x, y))

    walk(json.loads(a.to_json()), json.loads(b.to_json()), "")
    assert not wrong, wrong[:5]


def _blocks(frame: pd.DataFrame, size: int):
    for i in range(0, len(frame), size):
        yield frame.iloc[i : i + size]


def _binary(n: int = 6000, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.3, "spam", "ham")  # the positive label sorts last, given by name
    score = np.round(1 / (1 + np.exp(-(rng.standard_normal(n) + (y == "spam")))), 2)  # ties, on boundaries too
    weight = rng.random(n) * 3
    weight[rng.random(n) < 0.05] = 0.0
    return pd.DataFrame(
        {
            "y": y,
            "pred": np.where(score > 0.5, "spam", "ham"),
            "score": score,
            "fold": rng.integers(0, 5, n),
            "repeat": rng.integers(0, 2, n),
            "w": weight,
        }
    )


@pytest.mark.parametrize(
    "options",
    [{}, {"sample_weight": "w"}, {"repeats": "repeat"}, {"repeats": "repeat", "sample_weight": "w"}],
    ids=["binary", "weighted", "repeated", "repeated-weighted"],
)
def test_from_frames_gives_the_report_in_memory(options):
    frame = _binary()
    columns = {"y_true": "y", "folds": "fold", "y_pred": "pred", "y_score": "score", "pos_label": "spam", **options}
    memory = apples.CVPredictions.from_frame(frame, **columns)
    summary = CVSummary.from_frames(_blocks(frame, 1700), bucket_rows=500, **columns)  # ~6 buckets a repeat
    assert len(summary) == len(frame) and summary.task == "binary" and summary.pos_label == "spam"
    # unweighted: the sums run in the same order, so the same bits
    _assert_same_report(
        apples.report(memory, confidence=0.9),
        apples.report(summary, confidence=0.9),
        bits="sample_weight" not in options,
    )


def test_multiclass_and_multilabel_from_frames_give_the_report_in_memory():
    rng = np.random.default_rng(3)
    n = 5000
    labels = np.array(["a", "b", "c"])
    prob = np.round(rng.dirichlet([1, 1, 1], n), 2)
    prob[:, 2] = 1 - prob[:, 0] - prob[:, 1]
    frame = pd.DataFrame(
        {"y": labels[rng.integers(0, 3, n)], "pred": labels[prob.argmax(1)], "fold": rng.integers(0, 4, n)}
    )
    frame[["pa", "pb", "pc"]] = prob
    frame["w"] = rng.random(n)
    for weight in (None, "w"):
        columns = {
            "y_true": "y",
            "folds": "fold",
            "y_pred": "pred",
            "y_score": ["pa", "pb", "pc"],
            "sample_weight": weight,
        }
        memory = apples.CVPredictions.from_frame(frame, **columns)
        summary = CVSummary.from_frames(_blocks(frame, 1300), bucket_rows=400, **columns)
        _assert_same_report(apples.report(memory, confidence=0.95), apples.report(summary, confidence=0.95))
    truth, pred = rng.random((n, 3)) < 0.3, rng.random((n, 3)) < 0.3
    ml = pd.DataFrame({"fold": rng.integers(0, 4, n)})
    for j in range(3):
        ml[f"t{j}"], ml[f"p{j}"], ml[f"s{j}"] = (
            truth[:, j].astype(int),
            pred[:, j].astype(int),
            np.round(rng.random(n), 2),
        )
    memory = apples.CVPredictions(
        truth.astype(int), folds=ml["fold"], y_pred=pred.astype(int), y_score=ml[["s0", "s1", "s2"]].to_numpy()
    )
    summary = CVSummary.from_frames(
        _blocks(ml, 999), y_true=["t0", "t1", "t2"], folds="fold", y_pred=["p0", "p1", "p2"],
        y_score=["s0", "s1", "s2"], bucket_rows=300,
    )  # fmt: skip
    assert summary.task == "multilabel"
    _assert_same_report(apples.report(memory, confidence=0.95), apples.report(summary, confidence=0.95), bits=True)


def test_scores_all_tied_and_integer_scores_beyond_two_to_the_53():
    rng = np.random.default_rng(5)
    n = 3000
    y = (rng.random(n) < 0.4).astype(int)
    fold = rng.integers(0, 3, n)
    for score in (np.zeros(n), (2**60 + rng.integers(0, 4, n) * 2**8 + y).astype(np.int64), y.astype(float)):
        frame = pd.DataFrame({"y": y, "fold": fold, "s": score})
        memory = apples.CVPredictions.from_frame(frame, y_true="y", folds="fold", y_score="s")
        summary = CVSummary.from_frames(_blocks(frame, 700), y_true="y", folds="fold", y_score="s", bucket_rows=200)
        _assert_same_report(apples.report(memory, confidence=0.9), apples.report(summary, confidence=0.9), bits=True)


def test_cases_and_the_design_are_those_in_memory():
    rng = np.random.default_rng(2)
    n = 2000
    frame = pd.DataFrame({"y": rng.integers(0, 2, n), "p": rng.integers(0, 2, n), "fold": np.zeros(n, int)})
    frame["repeat"] = np.repeat(np.arange(4), n // 4)  # four hold-out splits sharing cases
    frame["case"] = np.concatenate([rng.choice(900, n // 4, replace=False) for _ in range(4)])
    columns = {"y_true": "y", "folds": "fold", "y_pred": "p", "repeats": "repeat", "cases": "case", "n_cases": 1000}
    memory = apples.CVPredictions.from_frame(frame, **columns)
    summary = CVSummary.from_frames(_blocks(frame, 333), **columns)
    assert summary.design_info() == memory.design_info()
    _assert_same_report(apples.report(memory, confidence=0.9), apples.report(summary, confidence=0.9), bits=True)
    frame.loc[1, "case"] = frame.loc[0, "case"]
    with pytest.raises(ValueError, match=r"case .* has 2 rows in repeat 0") as err:
        CVSummary.from_frames(_blocks(frame, 333), **columns)
    assert err.value.param == "cases"


def test_bad_blocks_are_refused_by_name_with_positions_over_all_blocks():
    frame = _binary(1000)
    columns = {"y_true": "y", "folds": "fold", "y_pred": "pred", "y_score": "score", "pos_label": "spam"}
    bad = frame.copy()
    bad.loc[777, "score"] = np.nan
    with pytest.raises(ValueError, match="y_score contains NaN at position 777") as err:
        CVSummary.from_frames(_blocks(bad, 300), **columns)
    assert err.value.param == "y_score" and err.value.position == 777
    with pytest.raises(ValueError, match="is not a column") as err:
        CVSummary.from_frames(_blocks(frame, 300), **{**columns, "y_score": "nope"})
    assert err.value.param == "y_score"
    with pytest.raises(ValueError, match="single fold") as err:
        CVSummary.from_frames(_blocks(frame.assign(fold=1), 300), **columns)
    assert err.value.param == "folds"
    mixed = [frame.iloc[:500], frame.iloc[500:].assign(fold=frame["fold"].iloc[500:].astype(str))]
    with pytest.raises(TypeError, match="folds holds number and str labels in different blocks") as err:
        CVSummary.from_frames(mixed, **columns)
    assert err.value.param == "folds"
    with pytest.raises(ValueError, match="pos_label") as err:
        CVSummary.from_frames(_blocks(frame, 300), **{**columns, "pos_label": "eggs"})
    assert err.value.param == "pos_label"


def test_what_a_summary_does_not_keep_is_refused_by_name():
    rng = np.random.default_rng(1)
    frame = pd.DataFrame({"y": rng.integers(0, 2, 400), "fold": rng.integers(0, 4, 400), "p": rng.random(400)})
    summary = CVSummary.from_frames(_blocks(frame, 100), y_true="y", folds="fold", y_score="p", eps=1e-3)
    assert apples.report(summary, eps=1e-3).value("log_loss", "pooled") == pytest.approx(
        apples.report(apples.CVPredictions.from_frame(frame, y_true="y", folds="fold", y_score="p"), eps=1e-3).value(
            "log_loss", "pooled"
        ),
        rel=1e-12,
    )
    with pytest.raises(ValueError, match="summarise with eps=") as err:
        apples.report(summary, eps=1e-4)
    assert err.value.param == "eps"
    rows = from_predictions("brier_rows", lambda y, s, w: float(np.mean((s - y) ** 2)), needs="y_score")
    with pytest.raises(ValueError, match="summarised without keeping them") as err:
        apples.report(summary, measures=[rows])
    assert err.value.param == "measures"
    with pytest.raises(TypeError, match=r"must be an apples\.CVPredictions") as err:
        apples.compare(summary, summary)
    assert err.value.param == "a"


def test_from_dask_gives_the_report_in_memory():
    dd = pytest.importorskip("dask.dataframe")
    frame = _binary(4000, seed=4)
    columns = {"y_true": "y", "folds": "fold", "y_pred": "pred", "y_score": "score", "pos_label": "spam"}
    for options in ({}, {"repeats": "repeat", "sample_weight": "w"}):
        memory = apples.CVPredictions.from_frame(frame, **columns, **options)
        summary = CVSummary.from_dask(dd.from_pandas(frame, npartitions=3), **columns, **options)
        _assert_same_report(apples.report(memory, confidence=0.9), apples.report(summary, confidence=0.9))
    bad = frame.copy()
    bad.loc[3100, "score"] = np.inf
    with pytest.raises(ValueError, match="y_score contains an infinite value at position 3100"):
        CVSummary.from_dask(dd.from_pandas(bad, npartitions=3), **columns)
