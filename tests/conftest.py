"""Shared test settings: hypothesis is derandomised so CI runs are reproducible; the HTML book is built once."""

import functools
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

import apples

settings.register_profile(
    "apples",
    derandomize=True,
    deadline=None,
    max_examples=100,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("apples")

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def book_html(tmp_path_factory):
    """The Sphinx book of `make book`, built once per session from the stored outputs (make book executes first).

    Returns the directory holding index.html; tests/test_notebooks.py checks its files and
    tests/test_browser_e2e.py opens it in a browser. A failed build fails both, once.
    """
    base = tmp_path_factory.mktemp("book")
    src = base / "src"
    shutil.copytree(
        ROOT / "book", src, ignore=shutil.ignore_patterns("generated", "apples*.rst")
    )  # as make book copies it
    (src / "notebooks").mkdir(parents=True)
    for p in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        shutil.copy(p, src / "notebooks")
    build = subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-b", "html", str(src), str(base / "html")],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert build.returncode == 0, build.stderr[-2000:]
    return base / "html"


# -- cross-validated predictions as a user makes them (tests/measures, tests/reporting) --------------------


@functools.cache
def _studies() -> dict[str, apples.CVPredictions]:
    from sklearn.datasets import load_breast_cancer, load_iris, make_multilabel_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import KFold, RepeatedStratifiedKFold, StratifiedKFold
    from sklearn.multiclass import OneVsRestClassifier
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    rng = np.random.default_rng(0)
    X, y = load_breast_cancer(return_X_y=True)
    keep = rng.choice(y.size, 220, replace=False)
    Xb, yb = X[keep][:, :5], np.array(["malignant", "benign"])[y[keep]]  # "benign" (the positive) sorts first
    lr = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))
    out = {}
    out["binary"] = apples.cross_val_predictions(
        lr, Xb, yb, cv=StratifiedKFold(5, shuffle=True, random_state=0), pos_label="benign"
    )
    rep = apples.cross_val_predictions(
        GaussianNB(), Xb, yb, cv=RepeatedStratifiedKFold(n_splits=4, n_repeats=3, random_state=1), pos_label="benign"
    )
    out["binary_repeated"] = rep
    w = np.where(rep.y_true == "malignant", 3.0, 0.5) * rng.uniform(0.5, 1.5, len(rep))
    out["binary_weighted"] = apples.CVPredictions(
        rep.y_true,
        folds=rep.folds,
        repeats=rep.repeats,
        cases=rep.cases,
        y_pred=rep.y_pred,
        y_score=rep.y_score,
        pos_label="benign",
        sample_weight=w,
        n_cases=rep.n_cases,
    )
    Xi, yi = load_iris(return_X_y=True)
    mc = apples.cross_val_predictions(
        GaussianNB(), Xi, yi, cv=RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=2)
    )
    out["multiclass"] = mc
    out["multiclass_weighted"] = apples.CVPredictions(
        mc.y_true,
        folds=mc.folds,
        repeats=mc.repeats,
        y_pred=mc.y_pred,
        y_score=mc.y_score,
        sample_weight=rng.integers(0, 4, len(mc)).astype(float) + (mc.y_true == 2),
    )
    Xm, ym = make_multilabel_classification(n_samples=120, n_features=6, n_classes=4, random_state=3)
    out["multilabel"] = apples.cross_val_predictions(
        OneVsRestClassifier(LogisticRegression(max_iter=2000)), Xm, ym, cv=KFold(4, shuffle=True, random_state=0)
    )
    return out


@pytest.fixture(params=["binary", "binary_repeated", "binary_weighted"])
def binary(request):
    return _studies()[request.param]


@pytest.fixture(params=["multiclass", "multiclass_weighted"])
def multiclass(request):
    return _studies()[request.param]


@pytest.fixture
def multilabel():
    return _studies()["multilabel"]


@pytest.fixture
def studies():
    return _studies()


@pytest.fixture
def fold_parts():
    return parts


def parts(p: apples.CVPredictions):
    """For each repeat, each fold: the row indices (a list per repeat of a list per fold), and each repeat's rows."""
    rows = np.arange(len(p))
    rep = np.zeros(len(p), int) if p.repeats is None else np.unique(p.repeats, return_inverse=True)[1]
    out = []
    for r in range(p.n_repeats):
        in_r = rows[rep == r]
        ids = np.unique(p.folds[in_r])
        out.append((in_r, [in_r[p.folds[in_r] == f] for f in ids]))
    return out
