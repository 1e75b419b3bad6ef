"""``apples compare FILE --model COL ...``: the models of one file, paired row for row after sorting by repeat, fold
and case, give what :func:`apples.compare` gives on the same predictions, and each model's values are scikit-learn's;
models that do not pair are refused naming the option; every format escapes the model names."""

from __future__ import annotations

import importlib
import json

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import accuracy_score, f1_score, roc_auc_score

import apples

cli = importlib.import_module("apples.cli")
if "cli" not in apples.__all__ and "cli" in vars(apples):  # keep `dir(apples)` as test_layout counts it
    delattr(apples, "cli")

N, K, R = 90, 3, 2  # cases, folds, repeats


def _runs(seed: int = 0, names=("base", "new")) -> pd.DataFrame:
    """Two models' predictions of the same cases in the same folds of two repeats, rows in the file shuffled."""
    rng = np.random.default_rng(seed)
    y = (rng.random(N) < 0.4).astype(int)
    rows = []
    for r in range(R):
        fold = rng.permutation(np.arange(N) % K)
        for m, (name, noise) in enumerate(zip(names, (1.0, 0.7), strict=True)):
            s = y + noise * rng.standard_normal(N) + 0.1 * m
            rows.append(
                pd.DataFrame(
                    {"model": name, "repeat": r, "fold": fold, "case": np.arange(N), "y": y, "pred": (s > 0.5) * 1}
                ).assign(score=s)
            )
    return pd.concat(rows, ignore_index=True).sample(frac=1, random_state=seed).reset_index(drop=True)


BASE = ["--model", "model", "--truth", "y", "--fold", "fold", "--repeat", "repeat", "--pred", "pred"]


def _run(capsys, path, *options):
    code = cli.main(["compare", str(path), *options])
    out, err = capsys.readouterr()
    return code, out, err


def test_compare_from_one_file_matches_the_python_api_and_scikit_learn(tmp_path, capsys):
    df = _runs()
    df.to_csv(tmp_path / "runs.csv", index=False)
    code, out, err = _run(
        capsys, tmp_path / "runs.csv", *BASE, "--case", "case", "--score", "score", "--format", "json"
    )
    assert code == 0 and err == "", err
    d = json.loads(out)
    assert d["names"] == ["base", "new"] or d["names"] == ["new", "base"]
    first = d["names"][0]
    models = []
    for name in d["names"]:
        part = df[df.model == name].sort_values(["repeat", "fold", "case"])
        models.append(
            apples.CVPredictions(
                part.y.to_numpy(),
                folds=part.fold.to_numpy(),
                repeats=part.repeat.to_numpy(),
                cases=part.case.to_numpy(),
                y_pred=part.pred.to_numpy(),
                y_score=part.score.to_numpy(),
            )
        )
    want = apples.compare(*models, names=d["names"]).to_frame()
    got = pd.DataFrame(d["differences"])
    pd.testing.assert_frame_equal(got[want.columns], want, check_dtype=False, rtol=1e-12)
    a = df[df.model == first]
    by_measure = {row["measure"]: row for row in d["differences"]}
    assert by_measure["f_measure"]["aggregation"] == "tp_fp" and by_measure["roc_auc"]["aggregation"] == "avg"
    f1 = np.mean([f1_score(a.y[a.repeat == r], a.pred[a.repeat == r]) for r in range(R)])
    acc = np.mean([accuracy_score(a.y[a.repeat == r], a.pred[a.repeat == r]) for r in range(R)])
    auc = np.mean([roc_auc_score(g.y, g.score) for _, g in a.groupby(["repeat", "fold"])])
    assert by_measure["f_measure"]["value_a"] == pytest.approx(f1, rel=1e-12)
    assert by_measure["accuracy"]["value_a"] == pytest.approx(acc, rel=1e-12)
    assert by_measure["roc_auc"]["value_a"] == pytest.approx(auc, rel=1e-12)
    assert d["n_folds"] == K and d["n_repeats"] == R


def test_text_html_markdown_and_latex(tmp_path, capsys):
    df = _runs(1, names=("<script>alert(1)</script>", "a_b & c | d"))
    df.to_csv(tmp_path / "runs.csv", index=False)
    options = [*BASE, "--case", "case", "--measures", "f_measure", "accuracy"]
    code, out, err = _run(capsys, tmp_path / "runs.csv", *options)
    assert code == 0 and err == "" and out.startswith("Comparison of") and "corrected repeated k-fold t" in out
    code, out, _ = _run(capsys, tmp_path / "runs.csv", *options, "--format", "html")
    assert code == 0 and "<script>" not in out and "&lt;script&gt;" in out
    from markdown_it import MarkdownIt

    code, out, _ = _run(capsys, tmp_path / "runs.csv", *options, "--format", "markdown")
    assert code == 0
    rendered = MarkdownIt("commonmark").enable("table").render(out)
    assert "<script" not in rendered and "&lt;script&gt;alert(1)&lt;/script&gt;" in rendered
    assert rendered.count("<tr>") == 3  # header and two measures: the | in a name split no cell
    code, out, _ = _run(capsys, tmp_path / "runs.csv", *options, "--format", "latex")
    assert code == 0 and r"\toprule" in out and r"a\_b \& c \textbar{} d" in out
    assert "a_b & c" not in out


def test_without_case_ids_the_rows_pair_in_file_order_within_each_fold(tmp_path, capsys):
    df = _runs(2)
    ordered = df.sort_values(["model", "repeat", "fold", "case"])  # the same case order in every model
    ordered.drop(columns="case").to_csv(tmp_path / "ordered.csv", index=False)
    df.to_csv(tmp_path / "runs.csv", index=False)
    code, out, err = _run(capsys, tmp_path / "ordered.csv", *BASE, "--format", "json")
    assert code == 0, err
    code, out_case, err = _run(capsys, tmp_path / "runs.csv", *BASE, "--case", "case", "--format", "json")
    assert code == 0, err
    key = [(r["measure"], r["value_a"], r["value_b"]) for r in json.loads(out)["differences"]]
    assert sorted(key) == sorted(
        (r["measure"], r["value_a"], r["value_b"]) for r in json.loads(out_case)["differences"]
    )
    # shuffled rows without case ids cannot be paired: refused, naming the column that differs and --case
    code, out, err = _run(capsys, tmp_path / "runs.csv", *BASE)
    assert code == 2 and out == "" and "does not pair with model" in err and "give --case" in err


@pytest.mark.parametrize(
    "edit, words",
    [
        (
            lambda d: d.drop(index=d.index[d.model == "new"][0]),
            "--model: model 'new' has 179 rows and model 'base' 180",
        ),
        (lambda d: d.assign(model="base"), "holds one model ('base'): compare needs two or more"),
        (lambda d: d.astype({"model": object}).assign(model=lambda x: x.model.where(x.index != 5)), "empty on line 7"),
        (
            lambda d: d.assign(fold=np.where((d.model == "new") & (d.case == 0) & (d.repeat == 0), 99, d.fold)),
            "--fold column 'fold': model",
        ),
        (lambda d: d.assign(y=np.where((d.model == "new") & (d.case == 3), 1 - d.y, d.y)), "--truth column 'y': model"),
    ],
    ids=["a row missing", "one model", "no model name", "another fold", "another truth"],
)
def test_models_that_do_not_pair_are_refused_by_option(tmp_path, capsys, edit, words):
    df = edit(_runs(3))
    df.to_csv(tmp_path / "bad.csv", index=False)
    code, out, err = _run(capsys, tmp_path / "bad.csv", *BASE, "--case", "case")
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert words in err, err


def test_an_error_in_one_models_rows_names_the_model_and_the_file_line(tmp_path, capsys):
    df = _runs(4)
    row = int(df.index[(df.model == "new") & (df.repeat == 1)][5])
    df = df.astype({"score": object})
    df.loc[row, "score"] = np.nan
    df.to_csv(tmp_path / "nan.csv", index=False)
    code, out, err = _run(capsys, tmp_path / "nan.csv", *BASE, "--case", "case", "--score", "score")
    assert code == 2 and out == ""
    assert f"model 'new' (--model): --score column 'score' contains NaN on line {row + 2}" in err, err


def test_bad_measures_and_multiclass(tmp_path, capsys):
    df = _runs(5)
    df.to_csv(tmp_path / "runs.csv", index=False)
    code, _, err = _run(capsys, tmp_path / "runs.csv", *BASE, "--case", "case", "--measures", "f_measure", "bogus")
    assert code == 2 and "--measures" in err and "'bogus'" in err
    df["y"] = df.y + df.fold % 2 * 2  # labels 0..3: f_measure (binary F) is for binary tasks
    df["pred"] = df.pred + df.fold % 2 * 2
    df.to_csv(tmp_path / "multi.csv", index=False)
    code, out, err = _run(capsys, tmp_path / "multi.csv", *BASE, "--case", "case", "--format", "json")
    assert code == 0, err
    d = json.loads(out)
    rows = {r["measure"]: r for r in d["differences"]}
    assert {"mean_f", "f_of_averages", "accuracy", "balanced_accuracy", "mcc"} <= set(rows)
    a = df[df.model == d["names"][0]]
    acc = np.mean([accuracy_score(a.y[a.repeat == r], a.pred[a.repeat == r]) for r in range(R)])
    assert rows["accuracy"]["value_a"] == pytest.approx(acc, rel=1e-12)
    code, _, err = _run(capsys, tmp_path / "multi.csv", *BASE, "--case", "case", "--measures", "f_measure")
    assert code == 2 and "--measures" in err and "measures=" not in err


def test_a_model_against_itself_is_one_line_not_a_traceback(tmp_path, capsys):
    df = _runs(6)
    same = df[df.model == "base"]
    pd.concat([same, same.assign(model="copy")]).to_csv(tmp_path / "same.csv", index=False)
    code, out, err = _run(capsys, tmp_path / "same.csv", *BASE, "--case", "case")
    assert code == 2 and out == "" and err.count("\n") == 1 and "0/0" in err and "undefined=" not in err
