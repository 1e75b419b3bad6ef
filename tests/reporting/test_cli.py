"""The ``apples report`` command on CSV/TSV files written by the test: output, formats, and every bad input.

Bad input must give exit code 2, one line on stderr naming the problem, nothing on stdout and no traceback.
Expected numbers come from scikit-learn on the same data.
"""

from __future__ import annotations

import gzip
import importlib
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import f1_score, fbeta_score, roc_auc_score

import apples

from report_view import nested

cli = importlib.import_module("apples.cli")
# `import apples` does not import the command; keep `dir(apples)` as test_layout counts it
if "cli" not in apples.__all__ and "cli" in vars(apples):
    delattr(apples, "cli")

ROOT = Path(__file__).resolve().parents[2]


def _frame(seed: int = 0, n: int = 400, k: int = 5) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    s = rng.standard_normal(n) + y
    return pd.DataFrame({"y": y, "fold": rng.integers(0, k, n), "pred": (s > 0.5).astype(int), "score": s})


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_text_report_of_a_csv_matches_scikit_learn(tmp_path, capsys):
    df = _frame()
    df.to_csv(tmp_path / "p.csv", index=False)
    code, out, err = run(
        capsys, "report", tmp_path / "p.csv", "--truth", "y", "--fold", "fold", "--pred", "pred", "--score", "score"
    )
    assert code == 0 and err == ""
    assert f"{100 * f1_score(df.y, df.pred):.1f}%" in out  # F_tp,fp is pooled F1
    assert "F_tp,fp" in out and "ROC AUC" in out


def test_json_tsv_gzip_and_separator(tmp_path, capsys):
    df = _frame(1)
    df.to_csv(tmp_path / "p.tsv", sep="\t", index=False)
    with gzip.open(tmp_path / "p.csv.gz", "wt") as fh:
        df.to_csv(fh, index=False)
    df.to_csv(tmp_path / "p.txt", sep=";", index=False)
    outs = []
    for name, extra in (("p.tsv", []), ("p.csv.gz", []), ("p.txt", ["--sep", ";"])):
        code, out, err = run(
            capsys,
            "report",
            tmp_path / name,
            "--truth",
            "y",
            "--fold",
            "fold",
            "--pred",
            "pred",
            "--score",
            "score",
            "--format",
            "json",
            *extra,
        )
        assert code == 0 and err == "", err
        outs.append(nested(apples.CVReport.from_json(out)))
    assert outs[0] == outs[1] == outs[2]
    d = outs[0]
    assert d["f_measure"]["tp_fp"] == pytest.approx(f1_score(df.y, df.pred), rel=1e-12)
    assert d["roc_auc"]["merge"] == pytest.approx(roc_auc_score(df.y, df.score), rel=1e-12)


def test_markdown_html_repeats_and_string_labels(tmp_path, capsys):
    a, b = _frame(2), _frame(3)
    df = pd.concat([a.assign(rep=0), b.assign(rep=1)])
    df["y"] = np.where(df.y == 1, "spam", "ham")
    df["pred"] = np.where(df.pred == 1, "spam", "ham")
    df.to_csv(tmp_path / "r.csv", index=False)
    base = [
        "report",
        tmp_path / "r.csv",
        "--truth",
        "y",
        "--fold",
        "fold",
        "--pred",
        "pred",
        "--repeat",
        "rep",
        "--pos-label",
        "spam",
    ]
    code, out, err = run(capsys, *base, "--format", "json")
    assert code == 0, err
    d = nested(apples.CVReport.from_json(out))
    expected = (f1_score(a.y, a.pred) + f1_score(b.y, b.pred)) / 2
    assert d["f_measure"]["tp_fp"] == pytest.approx(expected, rel=1e-12) and d["repeats"]["n_repeats"] == 2
    code, out, _ = run(capsys, *base, "--format", "markdown")
    assert code == 0 and out.startswith("**Cross-validated binary") and "| quantity |" in out
    code, out, _ = run(capsys, *base, "--format", "html")
    assert code == 0 and out.startswith("<div") and "<table>" in out


def test_multiclass_with_one_score_column_per_label(tmp_path, capsys):
    rng = np.random.default_rng(4)
    n = 300
    y = rng.integers(0, 3, n)
    scores = rng.random((n, 3)) + np.eye(3)[y]
    scores /= scores.sum(axis=1, keepdims=True)
    df = pd.DataFrame(
        {
            "y": y,
            "fold": rng.integers(0, 3, n),
            "pred": scores.argmax(axis=1),
            "p0": scores[:, 0],
            "p1": scores[:, 1],
            "p2": scores[:, 2],
        }
    )
    df.to_csv(tmp_path / "m.csv", index=False)
    code, out, err = run(
        capsys,
        "report",
        tmp_path / "m.csv",
        "--truth",
        "y",
        "--fold",
        "fold",
        "--pred",
        "pred",
        "--score",
        "p0",
        "p1",
        "p2",
        "--format",
        "json",
    )
    assert code == 0, err
    d = nested(apples.CVReport.from_json(out))
    assert d["task"] == "multiclass"
    assert d["mean_f"]["macro"]["pooled"] == pytest.approx(f1_score(y, df.pred, average="macro"), rel=1e-12)
    assert d["roc_auc"]["macro_ovr"]["merge"] == pytest.approx(roc_auc_score(y, scores, multi_class="ovr"), rel=1e-12)


def test_confidence_adds_the_intervals_of_apples_report(tmp_path, capsys):
    df = _frame(2)
    df.to_csv(tmp_path / "p.csv", index=False)
    code, out, err = run(
        capsys,
        "report",
        tmp_path / "p.csv",
        *_COLS,
        "--confidence",
        "0.9",
        "--format",
        "json",
    )
    assert code == 0 and err == "", err
    want = apples.report(
        apples.CVPredictions(
            df.y.to_numpy(), folds=df.fold.to_numpy(), y_pred=df.pred.to_numpy(), y_score=df.score.to_numpy()
        ),
        confidence=0.9,
    )
    assert apples.CVReport.from_json(out) == want
    code, out, err = run(capsys, "report", tmp_path / "p.csv", *_COLS, "--confidence", "0.9")
    assert code == 0 and "90% interval" in out and "jackknife_corrected_t" in out


def test_a_fold_with_one_class_is_reported(tmp_path, capsys):
    df = pd.DataFrame(
        {
            "y": [1, 0, 1, 0, 0, 0],
            "fold": [0, 0, 0, 1, 1, 1],
            "pred": [1, 0, 0, 1, 0, 0],
            "score": [0.9, 0.1, 0.4, 0.6, 0.2, 0.3],
        }
    )
    df.to_csv(tmp_path / "o.csv", index=False)
    code, out, err = run(
        capsys, "report", tmp_path / "o.csv", "--truth", "y", "--fold", "fold", "--pred", "pred", "--score", "score"
    )
    assert code == 0 and err == ""
    assert "fold 1: n = 3, positives = 0; F-measure undefined" in out and "recall undefined (no positives" in out


def _bad(tmp_path):
    df = _frame(5, n=60)
    df.to_csv(tmp_path / "ok.csv", index=False)
    one_fold = df.assign(fold=0)
    one_fold.to_csv(tmp_path / "onefold.csv", index=False)
    nan_score = df.astype({"score": object})
    nan_score.loc[7, "score"] = np.nan
    nan_score.to_csv(tmp_path / "nan.csv", index=False)
    text_score = df.astype({"score": object})
    text_score.loc[3, "score"] = "high"
    text_score.to_csv(tmp_path / "text.csv", index=False)
    multi = df.assign(y=df.y + df.fold % 2 * 2)  # labels 0..3
    multi.to_csv(tmp_path / "multi.csv", index=False)
    (tmp_path / "empty.csv").write_text("")
    (tmp_path / "header.csv").write_text("y,fold,pred,score\n")
    (tmp_path / "broken.csv.gz").write_bytes(b"\x1f\x8b\x08\x00not really gzip")
    (tmp_path / "adir.csv").mkdir()
    df.rename(columns={"y": "y_true", "pred": "y_pred", "score": "y_score"}).to_csv(tmp_path / "ycols.csv", index=False)
    return tmp_path


_COLS = ["--truth", "y", "--fold", "fold", "--pred", "pred", "--score", "score"]


@pytest.mark.parametrize(
    "file, extra, words",
    [
        ("missing.csv", _COLS, ["missing.csv", "no such file"]),
        ("adir.csv", _COLS, ["adir.csv", "directory"]),
        ("broken.csv.gz", _COLS, ["cannot read", "broken.csv.gz"]),
        ("empty.csv", _COLS, ["empty.csv", "is empty"]),
        ("header.csv", _COLS, ["header.csv", "no rows"]),
        (
            "ok.csv",
            ["--truth", "label", "--fold", "fold", "--pred", "pred"],
            ["'label'", "--truth", "y, fold, pred, score"],
        ),
        ("ycols.csv", ["--truth", "label", "--fold", "fold"], ["its columns are: y_true, fold, y_pred, y_score"]),
        ("onefold.csv", _COLS, ["--fold", "single fold"]),
        ("nan.csv", _COLS, ["--score", "'score'", "NaN", "line 9"]),
        ("text.csv", _COLS, ["--score", "not numeric", "'high'", "line 5"]),
        ("multi.csv", _COLS, ["--score", "multi-class", "one column per label", "4 columns"]),
        ("ok.csv", [*_COLS, "--pos-label", "2"], ["--pos-label 2", "not one of the labels"]),
        ("ok.csv", [*_COLS, "--pos-label", "yes"], ["--pos-label", "'yes'", "not a label"]),
        ("ok.csv", ["--truth", "y", "--fold", "fold"], ["--pred", "--score"]),
        ("ok.csv", ["--fold", "fold", "--pred", "pred"], ["--truth"]),
        ("ok.csv", [*_COLS, "--confidence", "1.5"], ["--confidence", "1.5"]),
        ("ok.csv", [*_COLS, "--confidence", "high"], ["--confidence", "'high'"]),
        ("ok.csv", [*_COLS, "--measures", "bogus"], ["--measures", "bogus"]),
        ("ok.csv", [*_COLS, "--eps", "0.7"], ["--eps", "0.7"]),
    ],
)
def test_bad_input_one_line_exit_2_empty_stdout(tmp_path, capsys, file, extra, words):
    root = _bad(tmp_path)
    code, out, err = run(capsys, "report", root / file, *extra)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("apples: error: "), err
    assert "Traceback" not in err
    for w in words:
        assert w in err, (w, err)


def test_help_shows_an_example(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["report", "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "example:" in out and "apples report predictions.csv --truth y --fold fold" in out


def test_python_m_apples_and_the_console_script(tmp_path):
    _frame(6).to_csv(tmp_path / "p.csv", index=False)
    done = subprocess.run(
        [sys.executable, "-m", "apples", "report", "p.csv", "--truth", "y", "--fold", "fold", "--pred", "pred"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and done.stderr == "" and "F_tp,fp" in done.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "apples", "report", "p.csv", "--truth", "nope", "--fold", "fold", "--pred", "pred"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 2 and bad.stdout == "" and len(bad.stderr.splitlines()) == 1
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    module, _, func = scripts["apples"].partition(":")
    assert getattr(importlib.import_module(module), func) is cli.main


# -- files that used to give wrong numbers with exit 0, or a traceback ----------------------------------------
def _pairs_auc(y, s) -> float:
    """ROC AUC by counting pairs with Python ints (exact for any integer size; ties count 1/2)."""
    pos = [int(v) for v, t in zip(s, y, strict=True) if t == 1]
    neg = [int(v) for v, t in zip(s, y, strict=True) if t == 0]
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


@pytest.mark.parametrize("offset", [2**60, 2**64 - 2**10], ids=["int64 above 2**53", "uint64 near 2**64"])
def test_integer_scores_beyond_float_precision_are_ranked_exactly(tmp_path, capsys, offset):
    rng = np.random.default_rng(0)
    y = np.array([1, 0] * 20)
    # distinct scores 1 apart, positives mostly higher; as floats they collapse into a few ties
    s = [offset + int(v) for v in rng.permutation(40) + 40 * y]
    lines = ["y,fold,score"] + [f"{t},{i % 4},{v}" for i, (t, v) in enumerate(zip(y, s, strict=True))]
    (tmp_path / "big.csv").write_text("\n".join(lines) + "\n")
    code, out, err = run(
        capsys, "report", tmp_path / "big.csv", "--truth", "y", "--fold", "fold", "--score", "score", "--format", "json"
    )
    assert code == 0, err
    d = nested(apples.CVReport.from_json(out))
    assert _pairs_auc(y, s) == 1.0
    assert d["roc_auc"]["merge"] == 1.0 and d["average_precision"]["merge"] == 1.0  # before: 0.5 from float ties
    assert len(set(map(float, s))) < len(set(s))  # as float64 distinct scores would tie
    assert d == nested(
        apples.report(
            apples.CVPredictions(
                y,
                folds=np.arange(40) % 4,
                y_score=np.array(s, dtype=object).astype(np.uint64 if offset > 2**63 else np.int64),
            )
        )
    )


def test_integer_scores_beyond_64_bits_are_refused_as_too_large(tmp_path, capsys):
    lines = ["y,fold,score"] + [f"{i % 2},{i % 3},{2**70 + i}" for i in range(12)]
    (tmp_path / "huge.csv").write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "report", tmp_path / "huge.csv", "--truth", "y", "--fold", "fold", "--score", "score")
    assert code == 2 and out == ""
    assert "--score column 'score' holds an integer too large to rank exactly (22 digits, on line 2)" in err
    lines = ["y,fold,score"] + [f"{i % 2},{i % 3},{-1 if i == 5 else 2**64 - i}" for i in range(12)]
    (tmp_path / "span.csv").write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "report", tmp_path / "span.csv", "--truth", "y", "--fold", "fold", "--score", "score")
    assert code == 2 and "too large to rank exactly" in err and "64 bits" in err


def _rows(df: pd.DataFrame) -> list[str]:
    return [",".join(map(str, r)) for r in df.itertuples(index=False)]


def test_a_trailing_comma_on_every_row_is_read_as_an_empty_field_not_an_index(tmp_path, capsys):
    df = _frame(7, n=60, k=3)
    (tmp_path / "trail.csv").write_text(",".join(df.columns) + "\n" + "".join(r + ",\n" for r in _rows(df)))
    code, out, err = run(capsys, "report", tmp_path / "trail.csv", *_COLS, "--format", "json")
    assert code == 0, err
    d = nested(apples.CVReport.from_json(out))
    # before: pandas took the first column for the index, every column shifted left: 12 "labels" in 2 folds
    assert d["task"] == "binary" and d["n_folds"] == 3
    assert d["f_measure"]["tp_fp"] == pytest.approx(f1_score(df.y, df.pred), rel=1e-12)
    assert d["roc_auc"]["merge"] == pytest.approx(roc_auc_score(df.y, df.score), rel=1e-12)


@pytest.mark.parametrize("name", ["extra.csv", "extra.csv.gz"])
@pytest.mark.parametrize("bad_line", [2, 9])
def test_a_row_with_an_extra_field_is_refused_naming_its_line(tmp_path, capsys, bad_line, name):
    rows = _rows(_frame(8, n=20, k=3))
    rows[bad_line - 2] += ",7"
    text = "y,fold,pred,score\n" + "\n".join(rows) + "\n"
    if name.endswith(".gz"):
        with gzip.open(tmp_path / name, "wt") as fh:
            fh.write(text)
    else:
        (tmp_path / name).write_text(text)
    code, out, err = run(capsys, "report", tmp_path / name, *_COLS)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"{name}, line {bad_line}: 5 fields where the header has 4" in err, err


def test_a_column_name_used_twice_is_refused(tmp_path, capsys):
    df = _frame(9, n=30, k=3)
    # before: pandas renamed the second y to y.1, and --pred y took the truth: F = 1.0
    (tmp_path / "dup.csv").write_text("y,fold,y,score\n" + "\n".join(_rows(df)) + "\n")
    code, out, err = run(capsys, "report", tmp_path / "dup.csv", "--truth", "y", "--fold", "fold", "--pred", "y")
    assert code == 2 and out == ""
    assert "names column 'y' 2 times (columns 1, 3)" in err


@pytest.mark.parametrize(
    "truth, pred, words",
    [
        (lambda y: y, lambda y: np.where(y == 1, "spam", "ham"), "--truth holds number labels, --pred holds str"),
        (lambda y: np.where(y == 1, "spam", "ham"), lambda y: y, "--truth holds str labels, --pred holds number"),
    ],
)
def test_truth_and_predictions_of_different_types_are_one_clear_line(tmp_path, capsys, truth, pred, words):
    df = _frame(10, n=30, k=3)
    df = df.assign(y=truth(df.y.to_numpy()), pred=pred(df.pred.to_numpy()))
    df.to_csv(tmp_path / "mixed.csv", index=False)
    # under pandas 3 the text column has a string dtype, not object: the check must still see it
    assert pd.read_csv(tmp_path / "mixed.csv").dtypes.map(pd.api.types.is_string_dtype).any()
    code, out, err = run(capsys, "report", tmp_path / "mixed.csv", "--truth", "y", "--fold", "fold", "--pred", "pred")
    assert code == 2 and out == "" and "Traceback" not in err  # before: a traceback from np.union1d
    assert words in err


@pytest.mark.parametrize("sep", ["", ";;"])
def test_a_separator_must_be_one_character(tmp_path, capsys, sep):
    _frame(11, n=20).to_csv(tmp_path / "p.csv", index=False)
    code, out, err = run(capsys, "report", tmp_path / "p.csv", *_COLS, "--sep", sep)
    assert code == 2 and out == ""
    assert f"--sep must be one character (or '\\t' or 'tab' for a tab), got {sep!r}" in err  # before: Py_UCS4


def test_markdown_output_keeps_hostile_fold_ids_inert(tmp_path, capsys):
    from markdown_it import MarkdownIt

    df = _frame(12, n=40, k=2)
    df["fold"] = np.where(df.fold == 0, "<script>alert(1)</script>", "<img src=x onerror=alert(2)>")
    df.to_csv(tmp_path / "x.csv", index=False)
    code, out, err = run(capsys, "report", tmp_path / "x.csv", *_COLS, "--format", "markdown")
    assert code == 0, err
    rendered = MarkdownIt("commonmark").enable("table").render(out)
    assert "<script" not in rendered and "<img" not in rendered
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in rendered


def test_a_score_column_of_the_other_label_is_warned_about(tmp_path, capsys):
    df = _frame(13, n=200, k=4)
    df["y"] = np.where(df.y == 1, "benign", "malignant")
    df["pred"] = np.where(df.pred == 1, "benign", "malignant")
    df.to_csv(tmp_path / "p.csv", index=False)
    args = ["report", tmp_path / "p.csv", "--truth", "y", "--fold", "fold", "--pred", "pred", "--score", "score"]
    code, out, err = run(capsys, *args, "--pos-label", "benign")
    assert code == 0 and "other label" not in out
    # the score is benign's: with --pos-label malignant it is the other label's, as in the file
    code, out, err = run(capsys, *args, "--pos-label", "malignant")
    assert code == 0 and err == ""
    auc = roc_auc_score(df.y == "malignant", df.score)
    assert auc < 0.5 and re.search(rf"ROC AUC +merged scores +{100 * auc:.1f}%", out)
    assert "! the scores rank the cases predicted negative above those predicted positive" in out
    assert "! ROC AUC below 50%" in out


def test_score_help_says_it_is_the_positive_labels_score(capsys):
    with pytest.raises(SystemExit):
        cli.main(["report", "--help"])
    assert "the positive label's score column" in " ".join(capsys.readouterr().out.split())


# ---- issue 21 item 10: --labels, --train-frequencies, --beta, --stratified, --cv-seed, latex, | head ----------------
def _multiclass(tmp_path: Path) -> tuple[Path, pd.DataFrame]:
    rng = np.random.default_rng(11)
    y = rng.choice(["a", "b", "c"], 300)
    df = pd.DataFrame({"y": y, "fold": np.arange(300) % 5, "pred": np.where(rng.random(300) < 0.7, y, "c")})
    df.to_csv(tmp_path / "m.csv", index=False)
    return tmp_path / "m.csv", df


def test_labels_and_train_frequencies_options(tmp_path, capsys):
    path, df = _multiclass(tmp_path)
    base = ("report", path, "--truth", "y", "--fold", "fold", "--pred", "pred", "--format", "json")
    code, out, err = run(capsys, *base, "--labels", "a", "b", "c", "d", "--train-frequencies", "a=0.4", "b=0.3",
                         "c=0.2", "d=0.1")  # fmt: skip
    assert code == 0 and err == "", err
    d = nested(apples.CVReport.from_json(out))
    assert d["labels"] == ["a", "b", "c", "d"]
    # lfb_train: per-label pooled precision weighted by the given frequencies (by hand; d is never predicted: 0)
    precision = {lab: ((df.pred == lab) & (df.y == lab)).sum() / max((df.pred == lab).sum(), 1) for lab in "abcd"}
    want = 0.4 * precision["a"] + 0.3 * precision["b"] + 0.2 * precision["c"] + 0.1 * precision["d"]
    assert d["precision"]["lfb_train"]["pooled"] == pytest.approx(want, rel=1e-12)
    code, out, err = run(capsys, *base, "--train-frequencies", "a=0.5", "b=x")
    assert code == 2 and out == "" and "--train-frequencies" in err and "'x'" in err
    code, out, err = run(capsys, *base, "--train-frequencies", "a=0.5", "b=0.5")
    assert code == 2 and out == "" and err.startswith("apples: error: --train-frequencies") and "missing" in err


def test_beta_stratified_cv_seed_and_latex(tmp_path, capsys):
    df = _frame(3)
    df.to_csv(tmp_path / "p.csv", index=False)
    base = ("report", tmp_path / "p.csv", "--truth", "y", "--fold", "fold", "--pred", "pred")
    code, out, err = run(capsys, *base, "--beta", "2", "--format", "json")
    assert code == 0 and err == ""
    assert nested(apples.CVReport.from_json(out))["f_measure"]["tp_fp"] == pytest.approx(
        fbeta_score(df.y, df.pred, beta=2), rel=1e-12
    )
    code, out, err = run(capsys, *base, "--stratified", "--cv-seed", "42", "--format", "latex")
    assert code == 0 and err == "" and r"\toprule" in out and "stratified folds; split seed 42" in out
    code, out, err = run(capsys, *base, "--no-stratified")
    assert code == 0 and "folds not stratified" in out
    code, out, err = run(capsys, *base, "--beta", "-1")
    assert code == 2 and out == "" and err.startswith("apples: error: --beta")


def test_a_reader_that_goes_away_gets_no_traceback(tmp_path):
    """`apples report ... | head`: the pipe's reader closes before the report is written (Python's docs on SIGPIPE)."""
    df = pd.concat([_frame(4)] * 20, ignore_index=True)
    df["rep"] = np.repeat(np.arange(20), len(df) // 20)
    df.to_csv(tmp_path / "p.csv", index=False)
    child = subprocess.Popen(
        [sys.executable, "-m", "apples", "report", "p.csv", "--truth", "y", "--fold", "fold", "--pred", "pred",
         "--repeat", "rep", "--format", "json"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()  # the reader goes away before the child writes (importing apples takes longer)
    err = child.stderr.read().decode()
    code = child.wait(timeout=120)
    assert "Traceback" not in err and "BrokenPipeError" not in err and err == ""
    assert code == cli.EXIT_BROKEN_PIPE == 1
