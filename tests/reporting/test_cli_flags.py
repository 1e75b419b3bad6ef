"""Every error of ``apples report`` speaks in options: the argument an error names (``.param``) becomes the option that
set it, with its column and file line, and every other argument named in the message becomes its option too
(before: a multi-class file without --pred was told it "needs y_pred"). One test per option. Also --weight and
--case against scikit-learn's weighted metrics, and the --n-resamples floor."""

from __future__ import annotations

import argparse
import importlib
import re

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import f1_score, roc_auc_score

import apples
from apples._cli_columns import OPTION_OF, explain
from apples._params import ParameterValueError

from report_view import nested

cli = importlib.import_module("apples.cli")
if "cli" not in apples.__all__ and "cli" in vars(apples):  # keep `dir(apples)` as test_layout counts it
    delattr(apples, "cli")

#: The names of the Python API that must never reach a command-line user.
PYTHON_NAMES = re.compile(
    r"(?<![\w'-])(y_true|y_pred|y_score|sample_weight|pos_label|train_frequencies|n_resamples|cv_seed)(?![\w'])"
    r"|(?<![\w'-])(folds|repeats|cases|labels|beta|confidence|seed|measures)="
)
B = ["--truth", "y", "--fold", "fold", "--pred", "pred", "--score", "score"]


def _frame(seed: int = 0, n: int = 60) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(int)
    s = rng.standard_normal(n) + y
    return pd.DataFrame(
        {
            "y": y,
            "fold": np.arange(n) % 3,
            "pred": (s > 0.5).astype(int),
            "score": s,
            "rep": np.repeat([0, 1], n // 2),
            "case": np.arange(n) % (n // 2),
            "w": rng.random(n) * 2,
        }
    )


def _files(tmp_path):
    df = _frame()
    df.to_csv(tmp_path / "ok.csv", index=False)

    def edit(name, column, row, value):
        d = df.astype({column: object})
        d.loc[row, column] = value
        d.to_csv(tmp_path / name, index=False)

    edit("truth_nan.csv", "y", 4, np.nan)
    edit("fold_nan.csv", "fold", 5, np.nan)
    edit("pred_nan.csv", "pred", 6, np.nan)
    edit("rep_nan.csv", "rep", 7, np.nan)
    edit("case_twice.csv", "case", 8, 9)
    edit("w_nan.csv", "w", 10, np.nan)
    edit("w_neg.csv", "w", 11, -2.0)
    edit("w_text.csv", "w", 12, "heavy")
    multi = df.assign(y=df.y + df.fold % 2 * 2)
    for j in range(4):  # one score column per label
        multi[f"p{j}"] = (multi.y == j) + 0.5 * np.arange(len(df)) / len(df)
    multi.to_csv(tmp_path / "multi.csv", index=False)
    return tmp_path


MULTI = ["--truth", "y", "--fold", "fold", "--pred", "pred"]

# file, options, the option the message must start with, and words it must hold
CASES = {
    "--truth": ("truth_nan.csv", B, "--truth column 'y' contains NaN on line 6"),
    "--fold": ("fold_nan.csv", B, "--fold column 'fold' contains NaN on line 7"),
    "--pred": ("multi.csv", ["--truth", "y", "--fold", "fold", "--score", "p0", "p1", "p2", "p3"], "needs --pred"),
    "--pred NaN": ("pred_nan.csv", B, "--pred column 'pred' contains NaN on line 8"),
    "--score": ("multi.csv", [*MULTI, "--score", "score"], "--score column 'score' has shape (60,)"),
    "--repeat": ("rep_nan.csv", [*B, "--repeat", "rep"], "--repeat column 'rep' contains NaN on line 9"),
    "--case": ("case_twice.csv", [*B, "--repeat", "rep", "--case", "case"], "--case column 'case': case 9 has 2 rows"),
    "--weight NaN": ("w_nan.csv", [*B, "--weight", "w"], "--weight column 'w' contains NaN on line 12"),
    "--weight": ("w_neg.csv", [*B, "--weight", "w"], "--weight column 'w' must be non-negative, got -2.0 on line 13"),
    "--weight text": ("w_text.csv", [*B, "--weight", "w"], "--weight column 'w' is not numeric: 'heavy' on line 14"),
    "--pos-label": ("ok.csv", [*B, "--pos-label", "7"], "--pos-label 7 is not one of the labels in --truth and --pred"),
    "--pos-label multi": ("multi.csv", [*MULTI, "--pos-label", "1"], "--pos-label is for binary tasks"),
    "--labels": ("multi.csv", [*MULTI, "--labels", "0", "1", "2"], "that are not in --labels [0, 1, 2]"),
    "--train-frequencies": (
        "multi.csv",
        [*MULTI, "--train-frequencies", "0=0.5", "1=0.5"],
        "--train-frequencies must give every label",
    ),
    "--beta": ("ok.csv", [*B, "--beta", "-1"], "--beta must be > 0.0, got -1.0"),
    "--confidence": ("ok.csv", [*B, "--confidence", "1.5"], "--confidence"),
    "--measures": ("ok.csv", [*B, "--measures", "f_measure", "bogus"], "--measures: measures[1] is 'bogus'"),
    "--eps": ("ok.csv", [*B, "--score", "score", "--eps", "0.7"], "--eps must be"),
    "--severity-ratio": ("ok.csv", [*B, "--score", "score", "--severity-ratio", "-2"], "--severity-ratio"),
    "--cv-seed": ("ok.csv", [*B, "--cv-seed", "-4"], "--cv-seed must be a non-negative integer"),
    "--sep": ("ok.csv", [*B, "--sep", ";;"], "--sep must be one character"),
}


@pytest.mark.parametrize("option", sorted(CASES))
def test_each_option_is_named_in_its_errors_never_the_python_argument(tmp_path, capsys, option):
    name, options, words = CASES[option]
    code = cli.main(["report", str(_files(tmp_path) / name), *options])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("apples: error: ") and option.split()[0] in err
    assert words in err, err
    assert not PYTHON_NAMES.search(err), err


@pytest.mark.parametrize("param", sorted(OPTION_OF))
def test_explain_puts_the_option_of_every_argument_in_place_of_its_name(param):
    """Whatever the message, the argument it is about and every argument it mentions read as options."""
    option, attribute = OPTION_OF[param]
    args = argparse.Namespace(**{**{a: f"col_{a}" for _, a in OPTION_OF.values() if a}, "score": ["s1", "s2"]})
    message = f"{param} is bad here; compare y_true, y_pred and sample_weight, or pos_label=1 and labels=[1, 2]"
    text = explain(ParameterValueError(message, param=param), args)
    assert text.startswith(option), text
    assert not PYTHON_NAMES.search(text), text
    assert "--truth, --pred and --weight" in text and "--pos-label 1 and --labels [1, 2]" in text
    if attribute and attribute != "score":
        assert text.startswith(f"{option} column 'col_{attribute}'"), text


def test_explain_names_the_score_column_of_a_label_and_leaves_quoted_user_text_alone():
    args = argparse.Namespace(score=["p_a", "p_b", "p_c"], truth="y")
    err = ParameterValueError("y_score[:, 2] contains NaN at position 4", param="y_score[:, 2]", position=4)
    assert explain(err, args) == "--score column 'p_c' contains NaN on line 6"
    err = ParameterValueError("label 'y_pred' is not in y_true", param="y_true")
    assert explain(err, args) == "--truth column 'y': label 'y_pred' is not in --truth"


@pytest.mark.trained
def test_weights_and_case_ids_reach_the_report(tmp_path, capsys):
    df = _frame(3, n=120)
    df.to_csv(tmp_path / "w.csv", index=False)
    code = cli.main(
        [
            "report",
            str(tmp_path / "w.csv"),
            *B,
            "--weight",
            "w",
            "--repeat",
            "rep",
            "--case",
            "case",
            "--format",
            "json",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0 and err == "", err
    d = nested(apples.CVReport.from_json(out))
    halves = [df[df.rep == r] for r in (0, 1)]
    want_f = np.mean([f1_score(h.y, h.pred, sample_weight=h.w) for h in halves])
    want_auc = np.mean([roc_auc_score(h.y, h.score, sample_weight=h.w) for h in halves])
    assert d["f_measure"]["tp_fp"] == pytest.approx(want_f, rel=1e-12)
    assert d["roc_auc"]["merge"] == pytest.approx(want_auc, rel=1e-12)
    code = cli.main(["report", str(tmp_path / "w.csv"), *B, "--repeat", "rep", "--format", "json"])
    unweighted = nested(apples.CVReport.from_json(capsys.readouterr().out))
    assert unweighted["f_measure"]["tp_fp"] != pytest.approx(want_f, rel=1e-6)  # the weights changed the value


def test_measures_and_eps_reach_the_report(tmp_path, capsys):
    df = _frame()
    df["score"] = np.clip(df["score"], 0, 1)
    df.loc[df.index[df.y == 1][0], "score"] = 0.0  # a positive given probability 0
    df.to_csv(tmp_path / "p.csv", index=False)
    base = ["report", str(tmp_path / "p.csv"), *B, "--score", "score", "--measures", "mcc", "log_loss"]
    assert cli.main([*base, "--format", "json"]) == 0
    r = apples.CVReport.from_json(capsys.readouterr().out)
    assert set(r.to_dict()["measures"]) == {"mcc", "log_loss"} and r.value("log_loss", "pooled") == float("inf")
    assert cli.main([*base, "--eps", "auto", "--format", "json"]) == 0
    r = apples.CVReport.from_json(capsys.readouterr().out)
    assert r.value("log_loss", "pooled") < 50
