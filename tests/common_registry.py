"""Every public name of :mod:`apples`, with a small valid call and the input classes it takes.

Used by ``tests/test_common.py``, which generates its bad-input and invariance
checks from this table (in the manner of scikit-learn's
``sklearn/metrics/tests/test_common.py``): a new public function is tested by
adding one entry here.

Keys
----
An entry is keyed by the public name and reached through :data:`PUBLIC` (every
name in the ``__all__`` of ``apples``, ``apples.metrics``, ``apples.cv``,
``apples.theory``, ``apples.plotting`` and the three study packages; a name is
never public in two places with two meanings), so the table does not care which
module defines it and can move with the code. Two
extensions of a plain name:

- ``"Counts.from_labels"``: an attribute of a public name (a constructor or a
  method; a method's recipe passes the instance as ``self``);
- ``"label_counts@multilabel"``: a second recipe of the same name, for a
  second input class (the part after ``@`` is only a label).

Names that take none of the input classes (constants, result types, plotting
and widget helpers) are listed in :data:`EXEMPT` with the reason.

Input classes
-------------
Each entry's ``args`` maps a parameter name to an :class:`Arg` whose ``kind``
is one of the constants below; the checks to run follow from the kinds.
Recipe values are chosen so that the checks can compare results exactly:
scores and real parameters are dyadic fractions (exact in float32, exact
under ``2 s - 1``), labels are small integers.
"""

from __future__ import annotations

import math
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import pytest

import apples
from apples import _params
from apples.cv.predictions import SCORE_ARRAY
from apples.metrics._label_counting import LABEL_DATA, LABEL_LIST
from apples.studies import forman_scholz as fs
from apples.studies import parker as pk
from apples.studies import van_asch as va


# -- input classes ---------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Role:
    """An input class of the registry: the bad inputs tests/test_common.py feeds a parameter of it, and the
    kinds of apples' parameter layer (imported, never restated) its declaration may use: a Kind object, or a
    Kind class (a parameterised kind such as ``Real(0, 1)``, or a module's private kind of that family)."""

    name: str
    kinds: tuple = ()

    def fits(self, declared: object) -> bool:
        """Whether a parameter declared with ``declared`` belongs to this input class."""
        return any(declared is k or (isinstance(k, type) and isinstance(declared, k)) for k in self.kinds)

    def __repr__(self) -> str:
        return self.name


#: 1-d class labels (y_true, y_pred, y); CVPredictions' and cross_val_predictions' also take multi-label data
LABELS = Role("labels", (_params.LABELS, LABEL_DATA, apples.cv.predictions.Y_LABELS, apples.cv.sklearn_adapter._Y))
FOLD_IDS = Role("fold ids", (_params.FOLD_IDS, _params.REPEAT_IDS))  #: 1-d fold (or repeat) ids, checked like labels
SCORES = Role("scores", (_params.SCORES, SCORE_ARRAY))  #: 1-d finite real scores (y_score, uncertainty)
POSITIVE = Role("positive label", (_params.LABEL,))  #: one label that must be one of the labels and of their kind
TARGET = Role("target label", (_params.LABEL,))  #: one label of the labels' kind that need not occur in them
LABEL_SET = Role("label set", (_params.LABEL_SET, LABEL_LIST))  #: an explicit label set (``labels=``)
TABLE_LABEL = Role("table label", (_params.Kind,))  #: a label that must be a key of a counts_by_label table
PREDICTIONS = Role("predictions by name", (_params.Kind,))  #: a mapping name -> 1-d predicted labels
COUNTS = Role("counts", (apples.metrics.counts.COUNTS,))  #: one apples.Counts
FOLD_COUNTS = Role("fold counts", (apples.metrics.counts.FOLD_COUNTS,))  #: a sequence of apples.Counts, one per fold
MULTILABEL = Role("label sets", (LABEL_DATA,))  #: a sequence of label collections (multi-label sets)
COUNTS_BY_LABEL = Role("counts by label", (apples.metrics.counts.COUNTS_BY_LABEL,))  #: a mapping label -> apples.Counts
FREQUENCIES = Role("frequencies", (apples.metrics.averaging.FREQUENCIES,))  #: a mapping label -> relative frequency
SHIFTS = Role("shifts", (apples.theory.prediction_cost.SHIFTS,))  #: a mapping label -> signed integer change
MOVES = Role(
    "moves", (apples.theory.prediction_cost.MOVES,)
)  #: a sequence of (source label, target label, integer delta)
COUNT_ARRAY = Role("count array", (_params.Kind,))  #: an array of non-negative integer counts (per fold, a matrix)
#: a real parameter (beta, prior, severity_ratio, ...), scalar or array: Real, RealArray or a module's own
REAL = Role("real", (_params.Real, _params.RealArray, _params.Kind))
#: an integer size (n_reps, n_cases, k, ...): Size, Integer, COUNT, CASES or a module's own
SIZE = Role("size", (_params.Size, _params.Integer, type(_params.COUNT), _params.Kind))
INT = Role("int", (_params.Integer, type(_params.N_JOBS)))  #: a signed integer (a change of a count, n_jobs)
#: an apples object: a Binormal model, CVPredictions
MODEL = Role("model", (apples.theory.binormal.BINORMAL, apples.cv.predictions.CV_PREDICTIONS, _params.Instance))
SEED = Role(
    "seed", (_params.SEED, _params.STATED_SEED)
)  #: an explicit seed: a non-negative int (reproducible draws; None is not a seed)

#: Input kinds that are 1-d arrays of one value per case (lengths must agree within a call).
CASE_ARRAYS = (LABELS, FOLD_IDS, SCORES, MULTILABEL)


@dataclass(frozen=True)
class Overflow:
    """A parameter value at the edge of float range and what the call must do with it.

    ``expect(result)`` asserts the limit the result must reach (an independent
    value: a formula's limit worked out by hand). With ``may_raise`` a
    ValueError naming the parameter is an acceptable answer too; a NaN, an
    OverflowError or any other number is not.
    """

    value: float
    expect: Callable[[Any], None] | None
    may_raise: bool = False
    label: str = ""


@dataclass(frozen=True)
class Arg:
    """One parameter's input class, and what is valid for it beyond the class defaults."""

    kind: Role
    nan_ok: bool = False  #: NaN is a documented valid value (e.g. "undefined")
    none_ok: bool = False  #: None is a documented valid value (a default meaning "derive it")
    inf_ok: bool = False  #: +-inf is a documented valid value (a threshold beyond every score)
    array: bool = False  #: an array of reals is valid (and the recipe may pass one)
    int_value: int | None = None  #: a valid integer value, for the np.int64 check of a real
    overflow: tuple[Overflow, ...] = ()
    huge_ok: str | None = None  #: why a size beyond 2**53 is harmless here (then it is not expected to be refused)
    aligned: bool = True  #: a case array whose length must match the entry's other case arrays
    names: tuple[str, ...] = ()  #: further words an error message may use to name this argument


@dataclass(frozen=True)
class Entry:
    """How to call one public callable on a small valid input, and which input classes it takes."""

    recipe: Callable[[], dict]  #: keyword arguments of a valid call (fresh objects on every call)
    args: Mapping[str, Arg] = field(default_factory=dict)
    project: Callable[[Any], Any] | None = None  #: result -> the part compared by the invariance checks
    rank_based: bool = False  #: depends on the scores only through their order (ties kept)
    rank_project: Callable[[Any], Any] | None = None  #: the rank-invariant part of the result
    thresholds: Callable[[Any], Any] | None = None  #: the score thresholds in the result (transform with the scores)
    float_thresholds: str | None = None  #: why thresholds may be float64 (integer scores above 2**53 not exact)
    relabel: Mapping | None = None  #: consistent renaming of the labels that must not change the result
    nan_ok: str | None = None  #: why the valid result may hold NaN (a documented NaN)
    empty_ok: str | None = None  #: why empty input is valid here (documented)
    empty_names: tuple[str, ...] = ()  #: further arguments an error about empty input may name
    note: str = ""


#: The packages whose ``__all__`` together make the public API the registry covers.
PUBLIC_MODULES = (apples, apples.metrics, apples.cv, apples.theory, apples.intervals, apples.plotting, fs, va, pk)


def _public() -> dict[str, Any]:
    found: dict[str, Any] = {}
    for module in PUBLIC_MODULES:
        for name in module.__all__:
            obj = getattr(module, name)
            if isinstance(obj, types.ModuleType):  # apples.metrics and the other subpackages
                continue
            if name in found and found[name] is not obj:
                raise AssertionError(f"{name} is public twice with two meanings ({module.__name__})")
            found[name] = obj
    return found


#: Every public name of the package, mapped to its object.
PUBLIC: dict[str, Any] = _public()


def resolve(key: str):
    """The object an entry key names: ``PUBLIC[name]``, then attributes (``Counts.from_labels``)."""
    name, *attrs = key.split("@")[0].split(".")
    obj = PUBLIC[name]
    for part in attrs:
        obj = getattr(obj, part)
    return obj


def public_name(key: str) -> str:
    """The public name (a key of :data:`PUBLIC`) an entry key belongs to."""
    return key.split("@")[0].split(".")[0]


# -- shared valid inputs ----------------------------------------------------------------------------
#: Binary labels, predictions, scores (a tie between a positive and a negative) and fold ids.
Y = (1, 0, 1, 1, 0, 0)
P = (1, 0, 0, 1, 1, 0)
S = (0.75, 0.5, 0.5, 0.375, 0.25, 0.125)
F = (0, 0, 0, 1, 1, 1)
#: Two folds of labels and (positive) scores.
YF = ((1, 0, 1, 0), (1, 0, 0, 1))
SF = ((0.75, 0.5, 0.5, 0.25), (0.625, 0.375, 0.125, 0.25))
#: Three classes: labels, predictions, uncertainties.
YM = (0, 1, 2, 2, 1, 0, 2, 0)
PM = (0, 2, 2, 1, 1, 0, 2, 1)
UM = (0.125, 0.75, 0.5, 0.625, 0.25, 0.375, 0.875, 0.5)
#: Multi-label gold and predicted label sets.
YL = (("A",), ("A", "B"), ("C",), ("B", "C"))
PL = (("A",), ("B",), ("C", "A"), ("B", "C"))
#: Counts of one fold, of three folds, and of three labels (tn filled in).
C = apples.Counts(3, 1, 2, 4)
THREE_FOLDS = (apples.Counts(3, 1, 1, 5), apples.Counts(2, 2, 1, 5), apples.Counts(4, 0, 2, 4))
CBL = {"a": apples.Counts(3, 2, 7, 8), "b": apples.Counts(1, 7, 9, 3), "c": apples.Counts(6, 6, 8, 2)}
FREQ = {"a": 0.25, "b": 0.25, "c": 0.5}
#: Van Asch §7 fold counts: class-A instances, correct A, correct B per fold of 10.
NA, TPA, TPB = (2, 1, 0), (2, 0, 0), (7, 8, 9)

#: Consistent renamings for the relabel checks (positive first in sort order, then a permutation).
BIN_MAP = {1: "class A", 0: "class B"}
MC_MAP = {0: "z", 1: "x", 2: "y"}
ML_MAP = {"A": "q", "B": "r", "C": "p"}
CBL_MAP = {"a": "k3", "b": "k1", "c": "k2"}


def _l(values):
    return [list(v) if isinstance(v, tuple) else v for v in values]


def _model(**kw):
    return apples.theory.Binormal(**{"mu_pos": 1.0, "pi_pos": 0.25, **kw})


def _hull():
    return apples.metrics.roc_convex_hull(list(Y), list(S))


def _approx(expected, **tol):
    def check(result):
        assert result == pytest.approx(expected, **tol), f"expected the limit {expected}, got {result!r}"

    return check


def _project_value(result):
    return result.value


def _threshold(result):
    return result.threshold


def _thresholds(result):
    return result.thresholds


def _roc_thresholds(result):
    return result[2]


def _first_two(result):
    return result[0], result[1]


def _no_thresholds(result):
    return {k: v for k, v in result._asdict().items() if k not in ("thresholds",)}


def _split_cells(m):
    """A SplitConfusionMatrix as {(gold, predicted): (row value, column value)}: independent of label order."""
    return {
        (a, b): (float(m.row_values[i, j]), float(m.column_values[i, j]))
        for i, a in enumerate(m.labels)
        for j, b in enumerate(m.labels)
    }


def _pooled_recall(folds):
    c = sum(folds, apples.Counts(0, 0, 0, 0))
    return c.tp / (c.tp + c.fn)


def _f_column_is_recall(table):
    rows = [i for i in table.index if isinstance(i, int)]
    f = table.loc[rows, "f"].astype(float).to_numpy()
    r = table.loc[rows, "recall"].astype(float).to_numpy()
    np.testing.assert_allclose(f, r, rtol=1e-12, err_msg="F_beta with beta=1e200 must equal recall")


def _f_column_is_precision(table):
    rows = [i for i in table.index if isinstance(i, int)]
    f = table.loc[rows, "f"].astype(float).to_numpy()
    p = table.loc[rows, "precision"].astype(float).to_numpy()
    np.testing.assert_allclose(f, p, rtol=1e-12, err_msg="F_beta with beta=1e-200 must equal precision")


def _no_density_below_1(result):
    """severity_ratio -> 0: Parker's c (1 - Hand's c) has prior Beta(1 + 1/r, 2), all its mass at c = 1."""
    np.testing.assert_allclose(np.asarray(result, dtype=float), 0.0, atol=1e-300)


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _positives_at_1(model):
    """sd_pos -> 0: every positive scores mu_pos = 1, negatives N(0, 1): TPR = 1 wherever the threshold
    -Phi^-1(FPR) is below 1 (FPR = 1/4, 1/2), and AUC = P(negative < 1) = Phi(1)."""
    np.testing.assert_allclose(np.asarray(model.roc([0.25, 0.5]), dtype=float), [1.0, 1.0], rtol=1e-12)
    assert model.auc == pytest.approx(_phi(1.0), rel=1e-12)


def _negatives_at_0(model):
    """sd_neg -> 0: every negative scores 0, positives N(1, 0.5²): any FPR strictly inside (0, 1) needs the
    threshold 0, so TPR = P(positive > 0) = Phi(2) there, and AUC = Phi(2)."""
    np.testing.assert_allclose(np.asarray(model.roc([0.25, 0.5]), dtype=float), [_phi(2.0)] * 2, rtol=1e-12)
    assert model.auc == pytest.approx(_phi(2.0), rel=1e-12)


def _h_prior_finite(result):
    a, b = result
    assert np.isfinite(a) and np.isfinite(b) and a > 0 and b > 0, f"expected a proper Beta prior, got {result!r}"


#: beta = 1e200: F_beta -> recall; beta = 1e-200: F_beta -> precision (eq. 2 divided through by beta²).
#: beta = inf is recall itself (scikit-learn's fbeta_score convention), so inf is a valid beta.
def _beta(*, large=None, small=None, int_value=2):
    over = []
    if large is not None:
        over.append(Overflow(1e200, large, label="large"))
    if small is not None:
        over.append(Overflow(1e-200, small, label="small"))
    return Arg(REAL, int_value=int_value, overflow=tuple(over), inf_ok=True)


#: severity_ratio -> 0: the Beta(2, 1 + 1/r) prior on the cost share of a false positive piles up at
#: c = 0, where only a threshold with no false negatives is optimal. For Y, S that is the ROC point
#: (FPR, TPR) = (1/3, 1) (threshold 0.375), while L_max -> c·π0: H -> 1 - 1/3 = 2/3.
H_LIMIT_SMALL_RATIO = 2.0 / 3.0
#: The binormal ROC curve reaches TPR = 1 only at FPR = 1, so there H -> 1 - 1 = 0.


def _severity(expect):
    """severity_ratio: 5e-324 (1/r overflows) may be refused; 1e-300 must be computed, and give the limit."""
    return Arg(
        REAL,
        none_ok=True,
        int_value=1,
        overflow=(Overflow(5e-324, expect, may_raise=True, label="subnormal"), Overflow(1e-300, expect, label="tiny")),
    )


# -- the registry ---------------------------------------------------------------------------------
def _labels(**kw):
    return Arg(LABELS, **kw)


#: Curves return their thresholds as one float64 array that starts with +inf, as scikit-learn's roc_curve.
_FLOAT_THR = "a float64 array starting with +inf (scikit-learn's roc_curve layout); for plotting"
_BIN = {"y_true": _labels(), "y_score": Arg(SCORES), "pos_label": Arg(POSITIVE)}


def _bin(**kw):
    return lambda: {"y_true": list(Y), "y_score": list(S), **kw}


#: The two folds of YF and SF laid out flat, with each case's fold id.
_FLAT = {"y_true": _labels(), "y_score": Arg(SCORES), "folds": Arg(FOLD_IDS), "pos_label": Arg(POSITIVE)}


def _flat(**kw):
    return lambda: {
        "y_true": [y for fold in YF for y in fold],
        "y_score": [v for fold in SF for v in fold],
        "folds": [i for i, fold in enumerate(YF) for _ in fold],
        **kw,
    }


def _fresh_ax():
    """New Axes for a plotting helper (with ax=None it would add to whatever plt.gca() holds)."""
    import matplotlib.pyplot as plt

    return plt.figure().add_subplot()


def _ranking(recipe, *, extra=None, rank_project=None, project=None, relabel=True, **kw):
    """A score-based measure of (y_true, y_score, positive): rank-based unless it says otherwise."""
    return Entry(
        recipe,
        {**_BIN, **(extra or {})},
        rank_based=True,
        rank_project=rank_project,
        project=project,
        relabel=BIN_MAP if relabel else None,
        **kw,
    )


_CBL_ARG = {"counts_by_label": Arg(COUNTS_BY_LABEL)}
_AVG_ARGS = {**_CBL_ARG, "frequencies": Arg(FREQUENCIES)}
_SIM = {"prior": Arg(REAL), "f_true": Arg(REAL), "n_cases": Arg(SIZE), "n_folds": Arg(SIZE)}
_SIM_KW = {"prior": 0.125, "f_true": 0.75, "n_cases": 80, "n_folds": 8}
_VA = {
    "prop_a": Arg(REAL),
    "n_instances": Arg(SIZE),
    "n_folds": Arg(SIZE),
    "recall_a": Arg(REAL),
    "recall_b": Arg(REAL),
}
_VA_KW = {"prop_a": 0.125, "n_instances": 80, "n_folds": 4, "recall_a": 0.75, "recall_b": 0.875}
_FOLD_COUNTS = {
    "n_a": Arg(COUNT_ARRAY),
    "tp_a": Arg(COUNT_ARRAY),
    "tp_b": Arg(COUNT_ARRAY),
    "fold_size": Arg(COUNT_ARRAY, aligned=False),
}


def _fold_counts(**kw):
    return lambda: {"n_a": list(NA), "tp_a": list(TPA), "tp_b": list(TPB), "fold_size": 10, **kw}


_T = Arg(REAL, array=True, inf_ok=True)  # a threshold: +-inf predicts nothing / everything positive
_COST = Arg(REAL, array=True)  # a relative cost in [0, 1]
_UNCERTAIN = {"y_true": _labels(), "y_pred": _labels(), "uncertainty": Arg(SCORES)}


def _uncertain(**kw):
    return lambda: {"y_true": list(YM), "y_pred": list(PM), "uncertainty": list(UM), **kw}


#: A second classifier's scores on Y (for the paired DeLong test) and per-fold scores of two classifiers.
S2 = (0.25, 0.625, 0.75, 0.5, 0.125, 0.375)
FOLD_SCORES_A = (0.75, 0.625, 0.875, 0.5)
FOLD_SCORES_B = (0.625, 0.625, 0.75, 0.25)
#: A second classifier's multi-class predictions on YM (for McNemar's test).
PM2 = (0, 1, 2, 1, 1, 2, 2, 0)
_CONF = Arg(REAL)  # a confidence level in (0, 1); 0.875 in recipes (exact in float32)


def _ends(result):
    """An interval's estimate and ends (without its method name and level)."""
    return result.estimate, result.low, result.high


def _coverage_settings():
    """Two tiny coverage settings, one per model (20 cases, 2 folds)."""
    import pandas as pd

    return pd.DataFrame(
        {
            "model": ["f_model", "binormal"],
            "prior": [0.5, 0.5],
            "n_cases": [20, 20],
            "n_folds": [2, 2],
            "truth": [0.75, 0.75],
            "training_sd": [0.0, 0.5],
        }
    )


_PREF_NOTE = (
    "a preference table (pandas DataFrame of +1/-1/0/NaN per comparison and measure); its checks and "
    "rules are tested on hand-made tables in tests/studies/parker/test_parker_experiment.py"
)
_CONF_LEVEL = Arg(REAL)  # a confidence level in (0, 1)


def _preferences():
    """Three comparisons of Parker's seven measures: all agree, AUC alone, two disagree."""
    import pandas as pd

    rows = [[1, 1, 1, 1, 1, 1, 1], [1, 1, 1, -1, 1, 1, 1], [1, -1, 1, 1, 0, 1, 1]]
    return pd.DataFrame(rows, columns=list(pk.PARKER_MEASURES), dtype=float)


def _parker_comparisons():
    """:func:`_preferences` with the columns of an experiment's comparison table."""
    c = _preferences()
    c["pos_prop"], c["threshold_diff"] = [0.125, 0.25, 0.5], [0.0, 0.25, 0.5]
    c["clf_a"], c["clf_b"] = ["NB", "NB", "LR"], ["LR", "tree", "tree"]
    c["dataset"], c["label"] = ["iris", "iris", "wine"], ["0", "1", "0"]
    return c


def _digits_like(n=60, seed=0):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1, 2], n // 3)
    X = rng.normal(size=(n, 2))
    X[:, 0] += y
    return X, y.tolist()


def _binary_xy(n=12, seed=0):
    rng = np.random.default_rng(seed)
    y = [1, 0] * (n // 2)
    X = rng.normal(size=(n, 2))
    X[:, 0] += np.asarray(y)
    return X, y


def _logistic():
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression()


def _two_fold_cv():
    from sklearn.model_selection import StratifiedKFold

    return StratifiedKFold(2)


def _predictions_state(p):
    """What a CVPredictions holds, comparable across calls: its arrays, task, labels and positive label."""
    arrays = {
        name: None if getattr(p, name) is None else np.asarray(getattr(p, name)).tolist()
        for name in ("y_true", "y_pred", "y_score", "folds", "repeats", "cases")
    }
    return {**arrays, "task": p.task, "labels": list(p.labels), "pos_label": p.pos_label}


def _summary_state(s):
    """What a CVSummary holds, comparable across calls: its task, labels, folds and a report's values."""
    values = [(v["quantity"], v["aggregation"], v["value"]) for v in apples.report(s).to_dict()["values"]]
    return {"task": s.task, "labels": list(s.labels), "pos_label": s.pos_label, "n": len(s), "values": values}


def _predictions_codes(p):
    """What a binary CVPredictions holds, without the label names: which rows are positive (true, predicted),
    the fold and repeat codes, and the scores. Renaming the labels (and pos_label with them) keeps it."""
    return {
        "truth": p.truth_codes.tolist(),
        "pred": None if p.pred_codes is None else p.pred_codes.tolist(),
        "folds": [c.tolist() for c in p.fold_codes],
        "repeats": p.n_repeats,
        "y_score": None if p.y_score is None else p.y_score.tolist(),
    }


def _report_dict(result):
    """A CVReport as its dict, without the sentences (notes, warnings) that quote numbers and labels."""
    return {k: v for k, v in result.to_dict().items() if k not in ("notes", "warnings")}


def _fs_cases(**kw):
    """Labels, positive scores and fold ids of every case (the forman_scholz fold plots and tables);
    a value that is a callable is made afresh per call, None leaves the argument out."""
    base = {"y_true": list(Y), "y_score": list(S), "folds": list(F)}
    return lambda: {k: v() if callable(v) else v for k, v in {**base, **kw}.items() if v is not None}


def _fs_drawn(result):
    """What a forman_scholz plot drew: every line's data, panel by panel (an Axes, or a Figure's Axes)."""
    axes = result.axes if hasattr(result, "get_axes") and not hasattr(result, "lines") else [result]
    return [[line.get_xydata() for line in ax.lines] for ax in axes]


def _bias_grid():
    """A one-point simulate_grid table (1% positives, F = 60%, stratified) for the notebook-03 look-ups."""
    return fs.simulate_grid(fs.figure_grid().head(1), n_reps=3)


REGISTRY: dict[str, Entry] = {
    # ---- counts.py ----------------------------------------------------------------------------
    "Counts": Entry(
        lambda: {"tp": 3, "fp": 1, "fn": 2, "tn": 4},
        {"tp": Arg(SIZE), "fp": Arg(SIZE), "fn": Arg(SIZE), "tn": Arg(SIZE)},
    ),
    "Counts.from_fold": Entry(
        lambda: {"positives": 5, "negatives": 6, "tp": 3, "fp": 2},
        {"positives": Arg(SIZE), "negatives": Arg(SIZE), "tp": Arg(SIZE), "fp": Arg(SIZE)},
    ),
    "Counts.from_labels": Entry(
        lambda: {"y_true": list(Y), "y_pred": list(P)},
        {"y_true": _labels(), "y_pred": _labels(), "pos_label": Arg(POSITIVE)},
        relabel=BIN_MAP,
    ),
    "fold_counts": Entry(
        lambda: {"y_true": list(Y), "y_pred": list(P), "folds": list(F)},
        {"y_true": _labels(), "y_pred": _labels(), "folds": Arg(FOLD_IDS), "pos_label": Arg(POSITIVE)},
        relabel=BIN_MAP,
    ),
    # ---- f_measure.py --------------------------------------------------------------------------
    "precision": Entry(lambda: {"counts": C}, {"counts": Arg(COUNTS)}),
    "recall": Entry(lambda: {"counts": C}, {"counts": Arg(COUNTS)}),
    "accuracy": Entry(lambda: {"counts": C}, {"counts": Arg(COUNTS)}),
    "f_measure": Entry(
        lambda: {"counts": C, "beta": 2.0},
        {"counts": Arg(COUNTS), "beta": _beta(large=_approx(3 / 5, rel=1e-12), small=_approx(3 / 4, rel=1e-12))},
    ),
    "f_from_precision_recall": Entry(
        lambda: {"precision": 0.5, "recall": 0.25, "beta": 2.0},
        {
            "precision": Arg(REAL, nan_ok=True),
            "recall": Arg(REAL, nan_ok=True),
            "beta": _beta(large=_approx(0.25, rel=1e-12), small=_approx(0.5, rel=1e-12)),
        },
    ),
    # ---- cross_validation.py -------------------------------------------------------------------
    "fold_validity": Entry(lambda: {"fold_counts": list(THREE_FOLDS)}, {"fold_counts": Arg(FOLD_COUNTS)}),
    "cv_accuracy": Entry(
        lambda: {"fold_counts": list(THREE_FOLDS), "method": "pooled"}, {"fold_counts": Arg(FOLD_COUNTS)}
    ),
    "cv_f_measure": Entry(
        lambda: {"fold_counts": list(THREE_FOLDS), "method": "tp_fp", "beta": 2.0},
        {
            "fold_counts": Arg(FOLD_COUNTS),
            "beta": _beta(large=_approx(_pooled_recall(THREE_FOLDS), rel=1e-12), small=_approx(9 / 12, rel=1e-12)),
        },
    ),
    "cv_table": Entry(
        lambda: {"fold_counts": list(THREE_FOLDS), "beta": 2.0},
        {"fold_counts": Arg(FOLD_COUNTS), "beta": _beta(large=_f_column_is_recall, small=_f_column_is_precision)},
        nan_ok="the table's empty cells (precision of the Totals row, counts of the method rows) are NaN",
    ),
    "format_cv_table": Entry(
        lambda: {"table": apples.cv_table(list(THREE_FOLDS)), "decimals": 1}, {"decimals": Arg(SIZE)}
    ),
    "percent": Entry(lambda: {"value": 0.625, "decimals": 1}, {"value": Arg(REAL), "decimals": Arg(SIZE)}),
    "round_half_up": Entry(lambda: {"x": 0.625, "digits": 2}, {"x": Arg(REAL), "digits": Arg(SIZE)}),
    # ---- f_figures.py --------------------------------------------------------------------------
    "f_from_rates": Entry(
        lambda: {"tpr": 0.75, "fpr": 0.125, "prior": 0.25},
        {"tpr": Arg(REAL, array=True), "fpr": Arg(REAL, array=True), "prior": Arg(REAL)},
    ),
    "f_of_tp": Entry(
        lambda: {"tp": 3.0, "positives": 4, "fp": 1},
        {"tp": Arg(REAL, array=True, int_value=3), "positives": Arg(SIZE), "fp": Arg(SIZE)},
    ),
    # ---- roc.py --------------------------------------------------------------------------------
    "roc_curve": _ranking(_bin(), rank_project=_first_two, thresholds=_roc_thresholds, float_thresholds=_FLOAT_THR),
    "roc_auc": _ranking(_bin()),
    "average_precision": _ranking(_bin()),
    "precision_at_k": _ranking(_bin(k=3), extra={"k": Arg(SIZE)}),
    "cv_roc_auc": Entry(_flat(method="merge"), _FLAT, rank_based=True, relabel=BIN_MAP),
    "cv_roc_auc@avg": Entry(_flat(method="avg"), _FLAT, rank_based=True, relabel=BIN_MAP),
    "cv_ranking_score": Entry(_flat(metric="average_precision", method="avg"), _FLAT, rank_based=True, relabel=BIN_MAP),
    # ---- intervals/ ----------------------------------------------------------------------------
    "proportion_ci": Entry(
        lambda: {"k": 3, "n": 8, "confidence": 0.875}, {"k": Arg(SIZE), "n": Arg(SIZE), "confidence": _CONF}
    ),
    "proportion_ci@clopper_pearson": Entry(
        lambda: {"k": 3, "n": 8, "confidence": 0.875, "method": "clopper_pearson"},
        {"k": Arg(SIZE), "n": Arg(SIZE), "confidence": _CONF},
    ),
    "roc_auc_ci": _ranking(_bin(confidence=0.875), extra={"confidence": _CONF}),
    "roc_auc_ci@bootstrap": _ranking(
        _bin(confidence=0.875, method="bootstrap", n_resamples=64, seed=0),
        extra={"confidence": _CONF, "n_resamples": Arg(SIZE), "seed": Arg(SEED)},
    ),
    "compare_roc_auc": Entry(
        lambda: {"y_true": list(Y), "y_score_a": list(S), "y_score_b": list(S2), "confidence": 0.875},
        {
            "y_true": _labels(),
            "y_score_a": Arg(SCORES),
            "y_score_b": Arg(SCORES),
            "pos_label": Arg(POSITIVE),
            "confidence": _CONF,
        },
        rank_based=True,
        relabel=BIN_MAP,
    ),
    "cv_f_measure_ci": Entry(
        lambda: {
            "fold_counts": list(THREE_FOLDS),
            "method": "tp_fp",
            "beta": 2.0,
            "confidence": 0.875,
            "n_resamples": 64,
            "seed": 0,
        },
        {
            "fold_counts": Arg(FOLD_COUNTS),
            "beta": Arg(REAL, int_value=2, inf_ok=True),
            "confidence": _CONF,
            "n_resamples": Arg(SIZE),
            "seed": Arg(SEED),
        },
        project=_ends,
    ),
    "cv_f_measure_ci@avg": Entry(
        lambda: {"fold_counts": list(THREE_FOLDS), "method": "avg", "confidence": 0.875, "n_resamples": 64},
        {"fold_counts": Arg(FOLD_COUNTS), "confidence": _CONF, "n_resamples": Arg(SIZE)},
        project=_ends,
    ),
    "cv_score_ci": Entry(
        lambda: {"fold_scores": list(FOLD_SCORES_A), "n_train": 12, "n_test": 4, "confidence": 0.875},
        {"fold_scores": Arg(REAL, array=True), "n_train": Arg(SIZE), "n_test": Arg(SIZE), "confidence": _CONF},
    ),
    "compare_cv_scores": Entry(
        lambda: {
            "scores_a": list(FOLD_SCORES_A),
            "scores_b": list(FOLD_SCORES_B),
            "n_train": 12,
            "n_test": 4,
            "confidence": 0.875,
        },
        {
            "scores_a": Arg(REAL, array=True),
            "scores_b": Arg(REAL, array=True),
            "n_train": Arg(SIZE),
            "n_test": Arg(SIZE),
            "confidence": _CONF,
        },
    ),
    "mcnemar_test": Entry(
        lambda: {"y_true": list(YM), "y_pred_a": list(PM), "y_pred_b": list(PM2), "confidence": 0.875},
        {"y_true": _labels(), "y_pred_a": _labels(), "y_pred_b": _labels(), "confidence": _CONF},
        relabel=MC_MAP,
    ),
    "coverage_settings": Entry(lambda: {}),
    "coverage_study": Entry(
        lambda: {"settings": _coverage_settings(), "n_studies": 4, "confidence": 0.875, "n_resamples": 8, "n_jobs": 1},
        {"n_studies": Arg(SIZE), "confidence": _CONF, "n_resamples": Arg(SIZE), "seed": Arg(SEED), "n_jobs": Arg(INT)},
    ),
    # ---- auc_calibration.py --------------------------------------------------------------------
    "stratified_fold_sizes": Entry(
        lambda: {"n_positives": 5, "n_cases": 40, "n_folds": 4},
        {"n_positives": Arg(SIZE), "n_cases": Arg(SIZE), "n_folds": Arg(SIZE)},
    ),
    "scores_with_auc": Entry(
        lambda: {"n_positives": 4, "n_negatives": 6, "target_auc": 0.75, "rng": np.random.default_rng(0)},
        {"n_positives": Arg(SIZE), "n_negatives": Arg(SIZE), "target_auc": Arg(REAL)},
    ),
    "section32_study": Entry(
        lambda: {"n_positives": 8, "n_cases": 80, "fold_aucs": (0.75, 0.75, 0.875, 0.625), "merged_auc": 0.625},
        {"n_positives": Arg(SIZE), "n_cases": Arg(SIZE), "merged_auc": Arg(REAL), "seed": Arg(SEED)},
    ),
    "auc_table": Entry(
        _flat(),
        _FLAT,
        rank_based=True,
        relabel=BIN_MAP,
        nan_ok="the AUC_avg row has no class counts (NA cells, documented layout)",
    ),
    "merge_decomposition": Entry(_flat(), _FLAT, rank_based=True, relabel=BIN_MAP),
    "auc_comparison": Entry(
        _fs_cases(scores_by_model=lambda: {"m": list(S), "n": list(S2)}, y_score=None),
        {"y_true": _labels(), "folds": Arg(FOLD_IDS), "pos_label": Arg(POSITIVE)},
        project=lambda r: r.to_numpy(),
        relabel=BIN_MAP,
        note=(
            "scores_by_model maps names to scores, one per case; "
            "tests/studies/forman_scholz/test_auc_comparison.py covers it"
        ),
    ),
    "digits_one_vs_rest": Entry(
        lambda: {"digit": 8, "n_positives": 5, "seed": 0},
        {"digit": Arg(INT), "n_positives": Arg(SIZE, none_ok=True), "seed": Arg(SEED)},
    ),
    "breast_cancer_one_vs_rest": Entry(
        lambda: {"n_positives": 5, "features": (1, 4), "seed": 0},
        {"n_positives": Arg(SIZE, none_ok=True), "seed": Arg(SEED)},
        project=lambda r: r[1],
    ),
    "fold_scores": Entry(
        lambda: dict(zip(("X", "y"), _binary_xy(), strict=True), estimator=_logistic(), cv=_two_fold_cv()),
        {"y": _labels(aligned=False)},
        note="y goes to scikit-learn's splitter and estimator as given",
    ),
    "auc_gaps_over_splits": Entry(
        lambda: dict(zip(("X", "y"), _binary_xy(), strict=True), models={"lr": _logistic()}, seeds=[0, 1], n_splits=2),
        {"y": _labels(aligned=False), "n_splits": Arg(SIZE)},
        project=lambda r: r[["AUC_avg", "AUC_merge"]].to_numpy(),
        note="X, y and the models go to scikit-learn via fold_scores (its own entry)",
    ),
    "summarize_auc_gaps": Entry(
        lambda: {
            "gaps": pd.DataFrame(
                {
                    "model": ["a", "a"],
                    "seed": [0, 1],
                    "AUC_avg": [0.75, 0.5],
                    "AUC_merge": [0.5, 0.5],
                    "gap": [0.25, 0.0],
                }
            )
        },
        project=lambda r: r.to_numpy(float),
        note="a DataFrame of auc_gaps_over_splits; its columns are checked by check_frame",
    ),
    "TrainingSetCalibration": Entry(
        lambda: {"estimator": _logistic(), "method": "sigmoid"},
        note="a scikit-learn estimator: fit(X, y) is validated by scikit-learn",
    ),
    "plot_rate_vs_score": Entry(_fs_cases(ax=_fresh_ax), _FLAT, project=_fs_drawn),
    "plot_figure3": Entry(_fs_cases(), _FLAT, project=_fs_drawn),
    "plot_fold_rocs": Entry(_fs_cases(ax=_fresh_ax), _FLAT, project=_fs_drawn),
    # ---- simulation.py, exact.py, sim_explorer.py ----------------------------------------------
    "simulation_design": Entry(lambda: dict(_SIM_KW), _SIM),
    "fold_positives": Entry(
        lambda: {"n_pos": 10, "n_cases": 80, "n_folds": 8, "stratified": False, "n_reps": 3},
        {"n_pos": Arg(SIZE), "n_cases": Arg(SIZE), "n_folds": Arg(SIZE), "n_reps": Arg(SIZE), "seed": Arg(SEED)},
    ),
    "sample_cv_f": Entry(
        lambda: {**_SIM_KW, "stratified": True, "n_reps": 4, "n_jobs": 1},
        {**_SIM, "n_reps": Arg(SIZE), "n_jobs": Arg(SIZE), "seed": Arg(SEED)},
        nan_ok="skip methods are NaN in repetitions without a valid fold (documented)",
    ),
    "simulate_cv_f": Entry(
        lambda: {**_SIM_KW, "stratified": True, "n_reps": 4, "n_jobs": 1},
        {**_SIM, "n_reps": Arg(SIZE), "n_jobs": Arg(SIZE), "seed": Arg(SEED)},
        nan_ok="a skip method undefined in every repetition has NaN mean (documented)",
    ),
    "figure_grid": Entry(lambda: {}),
    "simulate_grid": Entry(
        lambda: {"points": fs.figure_grid().head(1), "n_reps": 3},
        {"n_reps": Arg(SIZE), "seed": Arg(SEED)},
        project=lambda t: t.drop(columns="seconds"),
        nan_ok="as simulate_cv_f",
    ),
    "exact_cv_f": Entry(lambda: {**_SIM_KW, "stratified": False, "method": "avg"}, _SIM),
    "exact_grid": Entry(lambda: {"points": fs.figure_grid().head(1)}),
    "p_fold_without_positives": Entry(
        lambda: {"n_pos": 10, "n_cases": 80, "n_folds": 8, "n_trials": 3},
        {"n_pos": Arg(SIZE), "n_cases": Arg(SIZE), "n_folds": Arg(SIZE), "n_trials": Arg(SIZE)},
    ),
    "explore_cv_f": Entry(
        lambda: {**_SIM_KW, "n_reps": 4},
        {**_SIM, "n_reps": Arg(SIZE), "seed": Arg(SEED)},
        nan_ok="exact_mean is NaN for methods without an exact sum (documented)",
    ),
    # ---- forman_scholz/simulation.py: notebook 03 grid look-ups and number formats ----------------
    "format_fold_counts": Entry(lambda: {"counts": [3, 3, 2, 0]}, {"counts": Arg(COUNT_ARRAY)}),
    "relative_bias": Entry(
        lambda: {"grid": _bias_grid(), "prior": 0.01, "f_true": 0.6, "stratified": True, "method": "tp_fp"},
        {"prior": Arg(REAL), "f_true": Arg(REAL)},
    ),
    "relative_bias_line": Entry(
        lambda: {"grid": _bias_grid(), "prior": 0.01, "f_true": 0.6, "stratified": True, "methods": ("tp_fp", "avg")},
        {"prior": Arg(REAL), "f_true": Arg(REAL)},
    ),
    "format_chance": Entry(lambda: {"p": 0.25}, {"p": Arg(REAL)}),
    "bias_peaks": Entry(
        lambda: {"grid": _bias_grid()},
        project=lambda r: r["peak_f"].to_numpy(float),
        note="a simulate_grid table; its columns are checked by check_frame",
    ),
    "bias_ratios": Entry(
        lambda: {"grid": _bias_grid()},
        project=lambda r: r.to_numpy(float),
        note="a simulate_grid table; its columns are checked by check_frame",
    ),
    "sd_leaders": Entry(
        lambda: {"grid": _bias_grid()},
        project=lambda r: r["tp_fp_excess"].to_numpy(float),
        note="a simulate_grid table; its columns are checked by check_frame",
    ),
    # ---- fold_size.py --------------------------------------------------------------------------
    "theoretical_f1": Entry(
        lambda: {"prop_a": 0.125, "recall_a": 0.75, "recall_b": 0.875},
        {"prop_a": Arg(REAL, array=True), "recall_a": Arg(REAL), "recall_b": Arg(REAL)},
    ),
    "fold_sizes": Entry(lambda: {"n_instances": 82, "n_folds": 4}, {"n_instances": Arg(SIZE), "n_folds": Arg(SIZE)}),
    "corpus_counts": Entry(
        lambda: {"prop_a": 0.125, "n_instances": 80, "recall_a": 0.75, "recall_b": 0.875},
        {"prop_a": Arg(REAL), "n_instances": Arg(SIZE), "recall_a": Arg(REAL), "recall_b": Arg(REAL)},
    ),
    "fold_f1": Entry(_fold_counts(method="avg"), _FOLD_COUNTS),
    "delta_factors": Entry(_fold_counts(), _FOLD_COUNTS),
    "delta_table": Entry(_fold_counts(), _FOLD_COUNTS),
    "simulate_fold_counts": Entry(lambda: {**_VA_KW, "n_reps": 3}, {**_VA, "n_reps": Arg(SIZE), "seed": Arg(SEED)}),
    "simulate_fold_f1": Entry(lambda: {**_VA_KW, "n_reps": 3}, {**_VA, "n_reps": Arg(SIZE), "seed": Arg(SEED)}),
    "exact_fold_f1": Entry(lambda: {**_VA_KW, "method": "avg"}, _VA),
    "fold_f1_curve": Entry(
        lambda: {"props": [0.125], "n_instances": 80, "n_folds": 4, "n_reps": 3},
        {
            "props": Arg(REAL, array=True),
            "n_instances": Arg(SIZE),
            "n_folds": Arg(SIZE),
            "n_reps": Arg(SIZE),
            "seed": Arg(SEED),
        },
    ),
    "fold_f1_readings": Entry(
        lambda: {"props": [0.125], "n_instances": 80, "n_folds": 4},
        {"props": Arg(REAL, array=True), "n_instances": Arg(SIZE), "n_folds": Arg(SIZE)},
    ),
    "figure2_curves": Entry(
        lambda: {"props": [0.125], "panels": {"a": (4, 80)}, "n_reps": 3},
        {"props": Arg(REAL, array=True), "n_reps": Arg(SIZE), "seed": Arg(SEED)},
        project=lambda r: {k: v.to_numpy() for k, v in r.items()},
        note="panels maps panel letters to (n_folds, n_instances), each pair checked as "
        "fold_f1_curve checks n_folds and n_instances (its own entry)",
    ),
    # ---- multilabel.py -------------------------------------------------------------------------
    "label_counts": Entry(
        lambda: {"y_true": list(YM), "y_pred": list(PM)}, {"y_true": _labels(), "y_pred": _labels()}, relabel=MC_MAP
    ),
    "label_counts@multilabel": Entry(
        lambda: {"y_true": _l(YL), "y_pred": _l(PL)},
        {"y_true": Arg(MULTILABEL), "y_pred": Arg(MULTILABEL)},
        relabel=ML_MAP,
    ),
    "label_counts@labels": Entry(
        lambda: {"y_true": list(YM), "y_pred": list(PM), "labels": [2, 0, 1]},
        {"y_true": _labels(), "y_pred": _labels(), "labels": Arg(LABEL_SET)},
        relabel=MC_MAP,
        empty_ok="with labels= given, no data counts zeros for every label (only "
        "empty data without labels= is refused, as documented)",
    ),
    "label_frequencies": Entry(lambda: {"y": list(YM)}, {"y": _labels()}, relabel=MC_MAP),
    "label_frequencies@multilabel": Entry(lambda: {"y": _l(YL)}, {"y": Arg(MULTILABEL)}, relabel=ML_MAP),
    "split_confusion_matrix": Entry(
        lambda: {"y_true": list(YM), "y_pred": list(PM)},
        {"y_true": _labels(), "y_pred": _labels()},
        relabel=MC_MAP,
        project=_split_cells,
    ),
    "split_confusion_matrix@multilabel": Entry(
        lambda: {"y_true": _l(YL), "y_pred": _l(PL)},
        {"y_true": Arg(MULTILABEL), "y_pred": Arg(MULTILABEL)},
        relabel=ML_MAP,
        project=_split_cells,
    ),
    "labels_from_confusion_matrix": Entry(
        lambda: {"matrix": [[2, 1], [0, 3]], "labels": ["a", "b"]}, {"matrix": Arg(COUNT_ARRAY, aligned=False)}
    ),
    # ---- averaging.py --------------------------------------------------------------------------
    "average_scores": Entry(lambda: {"counts_by_label": dict(CBL), "average": "macro"}, _CBL_ARG, relabel=CBL_MAP),
    "average_scores@micro": Entry(
        lambda: {"counts_by_label": dict(CBL), "average": "micro"}, _CBL_ARG, relabel=CBL_MAP
    ),
    "average_scores@lfb": Entry(
        lambda: {"counts_by_label": dict(CBL), "average": "lfb", "frequencies": dict(FREQ)}, _AVG_ARGS, relabel=CBL_MAP
    ),
    "averaging_table": Entry(
        lambda: {"counts_by_label": dict(CBL), "frequencies": dict(FREQ)},
        _AVG_ARGS,
        relabel=CBL_MAP,
        nan_ok="the table's empty cells (scores of the total row, counts of the averages) are NaN",
    ),
    "frequencies_from_counts": Entry(lambda: {"counts_by_label": dict(CBL)}, _CBL_ARG, relabel=CBL_MAP),
    # ---- prediction_cost.py --------------------------------------------------------------------
    "label_weights": Entry(
        lambda: {"counts_by_label": dict(CBL), "average": "lfb", "frequencies": dict(FREQ)}, _AVG_ARGS, relabel=CBL_MAP
    ),
    "precision_factor": Entry(
        lambda: {"counts": C, "delta": 1, "weight": 0.5, "tp_delta": 1},
        {"counts": Arg(COUNTS), "delta": Arg(INT), "weight": Arg(REAL, int_value=1), "tp_delta": Arg(INT)},
    ),
    "recall_factor": Entry(
        lambda: {"counts": C, "delta": 1, "weight": 0.5},
        {"counts": Arg(COUNTS), "delta": Arg(INT), "weight": Arg(REAL, int_value=1)},
    ),
    "precision_change": Entry(
        lambda: {"counts_by_label": dict(CBL), "moves": [("b", "c", 2)], "average": "macro"},
        {**_CBL_ARG, "moves": Arg(MOVES)},
        relabel=CBL_MAP,
    ),
    "recall_change": Entry(
        lambda: {"counts_by_label": dict(CBL), "shifts": {"a": 1, "c": -2}, "average": "macro"},
        {**_CBL_ARG, "shifts": Arg(SHIFTS)},
        relabel=CBL_MAP,
    ),
    "move_false_positives": Entry(
        lambda: {"counts_by_label": dict(CBL), "source": "b", "target": "c", "delta": 2},
        {**_CBL_ARG, "source": Arg(TABLE_LABEL), "target": Arg(TABLE_LABEL), "delta": Arg(INT)},
        relabel=CBL_MAP,
    ),
    "shift_true_positives": Entry(
        lambda: {"counts_by_label": dict(CBL), "label": "a", "delta": 1, "other": "b"},
        {**_CBL_ARG, "label": Arg(TABLE_LABEL), "other": Arg(TABLE_LABEL), "delta": Arg(INT)},
        relabel=CBL_MAP,
    ),
    "score_change": Entry(
        lambda: {
            "before": dict(CBL),
            "after": apples.theory.move_false_positives(CBL, "b", "c", 2),
            "average": "macro",
        },
        {"before": Arg(COUNTS_BY_LABEL), "after": Arg(COUNTS_BY_LABEL)},
        relabel=CBL_MAP,
    ),
    "accuracy_by_uncertainty": Entry(_uncertain(bins=2), {**_UNCERTAIN, "bins": Arg(SIZE)}, relabel=MC_MAP),
    "expected_accuracy": Entry(_uncertain(), _UNCERTAIN, relabel=MC_MAP),
    "uncertainty_threshold": Entry(
        _uncertain(max_accuracy=0.625), {**_UNCERTAIN, "max_accuracy": Arg(REAL, int_value=1)}, relabel=MC_MAP
    ),
    "zipf_subsample": Entry(
        lambda: {"y": list(YM), "exponent": 1.0, "minimum": 1, "seed": 0},
        {
            "y": _labels(),
            "exponent": Arg(REAL, int_value=1),
            "minimum": Arg(SIZE, huge_ok="a minimum above a class size keeps the whole class"),
            "seed": Arg(SEED),
        },
        empty_ok="a subsample of no instances is empty (indices into y)",
    ),
    "relabel_uncertain": Entry(
        lambda: {"y_pred": list(PM), "uncertainty": list(UM), "threshold": 0.5, "target": 0},
        {
            "y_pred": _labels(),
            "uncertainty": Arg(SCORES),
            "threshold": Arg(REAL, inf_ok=True, int_value=1),
            "target": Arg(TARGET),
        },
        relabel=MC_MAP,
        empty_ok="relabels element by element: no predictions, none relabelled",
    ),
    "relabel_errors": Entry(
        lambda: {"y_true": list(YM), "y_pred": list(PM), "target": 0},
        {"y_true": _labels(), "y_pred": _labels(), "target": Arg(TARGET)},
        relabel=MC_MAP,
        empty_ok="relabels element by element: no predictions, none relabelled",
    ),
    "boosting_table": Entry(
        lambda: {"y_true": list(YM), "predictions": {"NORMAL": list(PM), "ALL0": [0] * len(YM)}, "labels": [0, 1, 2]},
        {"y_true": _labels(aligned=False), "predictions": Arg(PREDICTIONS), "labels": Arg(LABEL_SET)},
        relabel=MC_MAP,
    ),
    "boosting_curve": Entry(
        _uncertain(ks=[0, 2, 3], target=0, labels=[0, 1, 2]),
        {**_UNCERTAIN, "target": Arg(TARGET), "labels": Arg(LABEL_SET)},
        relabel=MC_MAP,
        empty_names=("ks",),
    ),
    "summarize_boosting_runs": Entry(
        lambda: {
            "runs": [
                pd.DataFrame(
                    {
                        "precision": [0.5, 0.625, 0.75],
                        "accuracy": [0.75, 0.5, 0.75],
                        "changed": [0, 2, 3],
                        "gained": [0, 0, 0],
                    },
                    index=["NORMAL", "CHANGED", "UPPER"],
                )
            ]
        },
        project=lambda r: [r[k] for k in sorted(r)],
        note="a list of nearest_neighbour_boosting tables (its own entry), checked for their rows and columns",
    ),
    "nearest_neighbour_boosting": Entry(
        lambda: dict(
            zip(("X", "y"), _digits_like(), strict=True),
            seed=0,
            exponent=0.0,
            minimum=1,
            train_size=0.5,
            max_accuracy=0.375,
        ),
        {
            "y": _labels(aligned=False),
            "exponent": Arg(REAL, int_value=0),
            "train_size": Arg(REAL),
            "max_accuracy": Arg(REAL, int_value=1),
            "minimum": Arg(SIZE, huge_ok="as zipf_subsample"),
            "seed": Arg(SEED),
        },
    ),
    # ---- threshold_free.py ---------------------------------------------------------------------
    "kappa_curve": _ranking(_bin(), rank_project=_first_two, thresholds=_thresholds, float_thresholds=_FLOAT_THR),
    "auk": _ranking(_bin()),
    "max_f1": _ranking(
        _bin(beta=2.0),
        extra={"beta": _beta(large=lambda r: _approx(1.0)(r.value), small=lambda r: _approx(1.0)(r.value))},
        rank_project=_project_value,
        thresholds=_threshold,
    ),
    "max_mcc": _ranking(_bin(), rank_project=_project_value, thresholds=_threshold),
    "r_precision": _ranking(_bin()),
    "gini": _ranking(_bin()),
    "ks_statistic": _ranking(_bin(), rank_project=_project_value, thresholds=_threshold),
    "min_error_rate": _ranking(_bin(), rank_project=_project_value, thresholds=_threshold),
    # ---- hmeasure.py ---------------------------------------------------------------------------
    "roc_convex_hull": _ranking(
        _bin(), rank_project=_no_thresholds, thresholds=_thresholds, float_thresholds=_FLOAT_THR
    ),
    "h_measure": _ranking(
        _bin(severity_ratio=0.5), extra={"severity_ratio": _severity(_approx(H_LIMIT_SMALL_RATIO, abs=1e-9))}
    ),
    "h_measure_details": _ranking(
        _bin(severity_ratio=0.5),
        extra={"severity_ratio": _severity(lambda r: _approx(H_LIMIT_SMALL_RATIO, abs=1e-9)(r.h))},
    ),
    "h_measure_prior": Entry(
        lambda: {"pi1": 0.25, "severity_ratio": 0.5}, {"pi1": Arg(REAL), "severity_ratio": _severity(_h_prior_finite)}
    ),
    "f_beta_weights": Entry(lambda: {"beta": 2.0}, {"beta": Arg(REAL, inf_ok=True)}),
    "minimum_loss": Entry(lambda: {"hull": _hull(), "cost": [0.25, 0.5]}, {"cost": _COST}),
    # ---- incoherence.py ------------------------------------------------------------------------
    "misclassification_loss": Entry(
        lambda: {"t": [0.5, np.inf], "c": 0.25, "model": _model(), "scale": 2.0},
        {"t": _T, "c": _COST, "model": Arg(MODEL), "scale": Arg(REAL, int_value=2)},
    ),
    "implied_cost": Entry(lambda: {"t": [0.5, 1.5], "model": _model()}, {"t": _T, "model": Arg(MODEL)}),
    "optimal_threshold": Entry(lambda: {"c": [0.25, 0.5], "model": _model()}, {"c": _COST, "model": Arg(MODEL)}),
    "weight_g": Entry(lambda: {"t": [0.5, 1.5], "model": _model()}, {"t": _T, "model": Arg(MODEL)}),
    "weight_i": Entry(lambda: {"t": [0.5, 1.5], "model": _model()}, {"t": _T, "model": Arg(MODEL)}),
    "loss_at_implied_cost": Entry(lambda: {"t": [0.5, 1.5], "model": _model()}, {"t": _T, "model": Arg(MODEL)}),
    "threshold_measure": Entry(
        lambda: {"t": [0.5, 1.5], "model": _model(), "measure": "kappa"}, {"t": _T, "model": Arg(MODEL)}
    ),
    "integrated_measure": Entry(lambda: {"model": _model(), "measure": "kappa"}, {"model": Arg(MODEL)}),
    "weight_m": Entry(lambda: {"t": [0.5, 1.5], "model": _model(), "measure": "kappa"}, {"t": _T, "model": Arg(MODEL)}),
    "expected_loss": Entry(
        lambda: {"model": _model(), "weight": (lambda t: apples.theory.weight_g(t, _model()))}, {"model": Arg(MODEL)}
    ),
    "implied_cost_density": Entry(lambda: {"c": [0.25, 0.5], "model": _model()}, {"c": _COST, "model": Arg(MODEL)}),
    "implied_cost_quantiles": Entry(
        lambda: {"model": _model(), "q": [0.25, 0.5]}, {"model": Arg(MODEL), "q": Arg(REAL, array=True)}
    ),
    "uniform_threshold_loss": Entry(
        lambda: {"model": _model(), "scale": 2.0}, {"model": Arg(MODEL), "scale": Arg(REAL, int_value=2)}
    ),
    "empirical_hand_loss": _ranking(_bin()),
    "empirical_cost_intervals": _ranking(
        _bin(),
        rank_project=_no_thresholds,
        thresholds=_thresholds,
        float_thresholds=_FLOAT_THR,
        nan_ok="c_low and c_high are NaN off the hull (documented)",
    ),
    "empirical_loss": _ranking(_bin(c=[0.25, 0.5], scale=2.0), extra={"c": _COST, "scale": Arg(REAL, int_value=2)}),
    "empirical_optimal_threshold": Entry(
        _bin(c=[0.25, 0.5]),
        {**_BIN, "c": _COST},
        relabel=BIN_MAP,
        thresholds=lambda r: r,
        note="returns thresholds, which are scores: equivariant, not invariant",
    ),
    "empirical_uniform_threshold_loss": _ranking(_bin(scale=2.0), extra={"scale": Arg(REAL, int_value=2)}),
    "uniform_threshold_loss_draws": _ranking(
        _bin(n_draws=20, seed=0, scale=2.0),
        extra={"n_draws": Arg(SIZE), "scale": Arg(REAL, int_value=2), "seed": Arg(SEED)},
    ),
    "h_prior_density": Entry(
        lambda: {"c": [0.25, 0.5], "pi_pos": 0.25, "severity_ratio": 0.5},
        {"c": _COST, "pi_pos": Arg(REAL), "severity_ratio": _severity(_no_density_below_1)},
    ),
    "binormal_h_measure": Entry(
        lambda: {"model": _model(), "severity_ratio": 0.5},
        {"model": Arg(MODEL), "severity_ratio": _severity(_approx(0.0, abs=1e-6))},
    ),
    "incoherence_comparison": Entry(
        lambda: {"model_a": _model(), "model_b": _model(mu_pos=2.0), "n_grid": 5},
        {"model_a": Arg(MODEL), "model_b": Arg(MODEL), "n_grid": Arg(SIZE)},
    ),
    # ---- parker: waveform.py, agreement.py, experiment.py (notebook 09) -------------------------
    "make_waveform": Entry(
        lambda: {"n_samples": 5, "noise_features": True, "seed": 0}, {"n_samples": Arg(SIZE), "seed": Arg(SEED)}
    ),
    "waveform_bases": Entry(lambda: {}),
    "agreement_levels": Entry(lambda: {"preferences": _preferences()}, note=_PREF_NOTE),
    "odd_one_out": Entry(lambda: {"preferences": _preferences()}, note=_PREF_NOTE),
    "count_error_cases": Entry(lambda: {"preferences": _preferences()}, note=_PREF_NOTE),
    "error_case_shares": Entry(
        lambda: {"preferences": _preferences(), "confidence": 0.875},
        {"confidence": _CONF_LEVEL},
        nan_ok="a group without error cases has no share",
        note=_PREF_NOTE,
    ),
    "error_case_breakdown": Entry(
        lambda: {"comparisons": _parker_comparisons(), "by": "pos_prop"},
        nan_ok="a group without error cases has no share",
        note=_PREF_NOTE,
    ),
    "classifier_error_rates": Entry(
        lambda: {"comparisons": _parker_comparisons(), "preferences": _preferences()}, note=_PREF_NOTE
    ),
    "wilson_interval": Entry(
        lambda: {"k": 3, "n": 8, "confidence": 0.875}, {"k": Arg(SIZE), "n": Arg(SIZE), "confidence": _CONF_LEVEL}
    ),
    "g_test": Entry(lambda: {"observed": [3, 5, 8]}, {"observed": Arg(COUNT_ARRAY)}),
    "seven_measures": _ranking(_bin(), project=lambda d: tuple(d.values())),
    "measure_preferences": Entry(
        lambda: {"values_a": [0.5, 0.25], "values_b": [0.25, 0.25], "tol": 0.125}, {"tol": Arg(REAL)}
    ),
    "paper_comparison": Entry(
        lambda: {"comparisons": _parker_comparisons(), "tolerance": 0.125}, {"tolerance": Arg(REAL)}, note=_PREF_NOTE
    ),
    "experiment_config": Entry(lambda: {"design": "tiny"}),
    "experiment_tasks": Entry(lambda: {"config": pk.experiment_config("tiny")}),
    "run_experiment": Entry(
        lambda: {
            "config": pk.experiment_config("tiny", datasets=("iris",), representations=("original",)),
            "n_jobs": 1,
        },
        project=lambda r: r.comparisons,
        note="needs scikit-learn; tests/studies/parker/test_parker_experiment.py",
    ),
    # ---- binormal.py ---------------------------------------------------------------------------
    "Binormal": Entry(
        lambda: {"mu_pos": 1.0, "sd_pos": 0.5, "mu_neg": 0.0, "sd_neg": 1.0, "pi_pos": 0.25},
        {
            "mu_pos": Arg(REAL, int_value=1),
            "sd_pos": Arg(REAL, overflow=(Overflow(5e-324, _positives_at_1, may_raise=True, label="subnormal"),)),
            "mu_neg": Arg(REAL, int_value=0),
            "sd_neg": Arg(
                REAL, int_value=1, overflow=(Overflow(5e-324, _negatives_at_0, may_raise=True, label="subnormal"),)
            ),
            "pi_pos": Arg(REAL),
        },
    ),
    "Binormal.roc": Entry(lambda: {"self": _model(), "fpr": [0.25, 0.5]}, {"fpr": Arg(REAL, array=True)}),
    "Binormal.sample": Entry(
        lambda: {"self": _model(), "n_pos": 3, "n_neg": 4, "seed": 0},
        {"n_pos": Arg(SIZE), "n_neg": Arg(SIZE), "seed": Arg(SEED)},
    ),
    # ---- cv/predictions.py, reporting/ ---------------------------------------------------------
    "CVPredictions": Entry(
        lambda: {"y_true": list(Y), "y_pred": list(P), "y_score": list(S), "folds": list(F), "pos_label": 1},
        {
            "y_true": _labels(),
            "y_pred": _labels(),
            "y_score": Arg(SCORES),
            "folds": Arg(FOLD_IDS),
            "pos_label": Arg(POSITIVE),
        },
        project=_predictions_codes,
        relabel=BIN_MAP,
    ),
    "CVPredictions@repeats": Entry(
        lambda: {"y_true": list(Y) * 2, "y_score": list(S) * 2, "folds": list(F) * 2, "repeats": [0] * 6 + [1] * 6},
        {"y_true": _labels(), "y_score": Arg(SCORES), "folds": Arg(FOLD_IDS), "repeats": Arg(FOLD_IDS)},
        project=_predictions_state,
    ),
    "CVPredictions@multiclass": Entry(
        lambda: {"y_true": list(YM), "y_pred": list(PM), "folds": [0, 0, 0, 0, 1, 1, 1, 1], "labels": [0, 1, 2]},
        {"y_true": _labels(), "y_pred": _labels(), "folds": Arg(FOLD_IDS), "labels": Arg(LABEL_SET)},
        project=_predictions_state,
        relabel=MC_MAP,
    ),
    "report": Entry(
        lambda: {
            "predictions": apples.CVPredictions(list(Y), y_pred=list(P), y_score=list(S), folds=list(F), pos_label=1)
        },
        {"predictions": Arg(MODEL)},
        project=_report_dict,
    ),
    "report@intervals": Entry(
        lambda: {
            "predictions": apples.CVPredictions(list(Y), y_pred=list(P), y_score=list(S), folds=list(F), pos_label=1),
            "confidence": 0.75,
            "cv_seed": 0,
        },
        {"predictions": Arg(MODEL), "confidence": Arg(REAL, none_ok=True), "cv_seed": Arg(SEED, none_ok=True)},
        project=_report_dict,
    ),
    "report@intervals_multiclass": Entry(
        lambda: {
            "predictions": apples.CVPredictions(
                list(YM), y_pred=list(PM), folds=[0, 0, 0, 0, 1, 1, 1, 1], labels=[0, 1, 2]
            ),
            "confidence": 0.75,
        },
        {"predictions": Arg(MODEL), "confidence": Arg(REAL, none_ok=True)},
        project=_report_dict,
    ),
    # ---- cv/summary.py: predictions summarised block by block -------------------------------------
    "CVSummary.from_frames": Entry(
        lambda: {
            "frames": [
                pd.DataFrame({"y": list(Y)[:4], "fold": list(F)[:4], "p": list(P)[:4], "s": list(S)[:4]}),
                pd.DataFrame({"y": list(Y)[4:], "fold": list(F)[4:], "p": list(P)[4:], "s": list(S)[4:]}),
            ],
            "y_true": "y",
            "folds": "fold",
            "y_pred": "p",
            "y_score": "s",
            "pos_label": 1,
        },
        {"pos_label": Arg(POSITIVE)},
        project=_summary_state,
        note="the columns are named, not given: CVSummary checks each block with CVPredictions' kinds "
        "(tests/cv/test_summary.py)",
    ),
    "report@summary": Entry(
        lambda: {
            "predictions": apples.cv.CVSummary.from_frames(
                [pd.DataFrame({"y": list(Y), "fold": list(F), "p": list(P), "s": list(S)})],
                y_true="y",
                folds="fold",
                y_pred="p",
                y_score="s",
            ),
            "confidence": 0.75,
        },
        {"predictions": Arg(MODEL), "confidence": Arg(REAL, none_ok=True)},
        project=_report_dict,
    ),
    # ---- cv/sklearn_adapter.py ------------------------------------------------------------------
    "cross_val_predictions": Entry(
        lambda: dict(zip(("X", "y"), _binary_xy(), strict=True), estimator=_logistic(), cv=_two_fold_cv(), pos_label=1),
        {"y": _labels(aligned=False), "pos_label": Arg(POSITIVE)},
        project=_predictions_state,
        note="X and the splitter go to scikit-learn as given",
    ),
    "counts_scorer": Entry(
        lambda: {"pos_label": 1},
        note="returns a scorer; pos_label is checked to be one label when it is made "
        "(tests/cv/test_sklearn_integration.py), and against y by Counts.from_labels when it scores",
    ),
    "fold_counts_from_cross_validate": Entry(
        lambda: {"results": {"test_tp": [3, 2], "test_fp": [1, 2], "test_fn": [1, 1], "test_tn": [5, 5]}}
    ),
    "CVReport.from_json": Entry(
        lambda: {"text": apples.report(apples.CVPredictions(list(Y), y_pred=list(P), folds=list(F))).to_json()},
        project=_report_dict,
    ),
    # ---- issue 21, any splitter (cv/predictions.py): hold-out repeats, case ids and the number of cases ----
    "CVPredictions@holdout": Entry(
        lambda: {
            "y_true": list(Y) * 2,
            "y_pred": list(P) * 2,
            "folds": [0] * 12,
            "repeats": [0] * 6 + [1] * 6,
            "cases": list(range(6)) * 2,
            "n_cases": 8,
        },
        {"y_true": _labels(), "y_pred": _labels(), "repeats": Arg(FOLD_IDS), "n_cases": Arg(SIZE, none_ok=True)},
        project=_predictions_state,
    ),
    # ---- issue 21, per-fold and per-label tables (cv/tables.py) ----
    "fold_table": Entry(
        lambda: {
            "predictions": apples.CVPredictions(list(Y), y_pred=list(P), y_score=list(S), folds=list(F), pos_label=1),
            "beta": 1.0,
        },
        {"predictions": Arg(MODEL), "beta": Arg(REAL, int_value=2, inf_ok=True)},
    ),
    "fold_summary": Entry(
        lambda: {
            "predictions": apples.CVPredictions(list(Y), y_pred=list(P), y_score=list(S), folds=list(F), pos_label=1),
            "beta": 1.0,
        },
        {"predictions": Arg(MODEL), "beta": Arg(REAL, int_value=2, inf_ok=True)},
    ),
    "label_table": Entry(
        lambda: {
            "predictions": apples.CVPredictions(list(YM), y_pred=list(PM), folds=[0, 0, 0, 0, 1, 1, 1, 1]),
            "over": "folds",
            "beta": 1.0,
        },
        {"predictions": Arg(MODEL), "beta": Arg(REAL, int_value=2, inf_ok=True)},
    ),
    "report@beta": Entry(
        lambda: {
            "predictions": apples.CVPredictions(list(Y), y_pred=list(P), y_score=list(S), folds=list(F), pos_label=1),
            "beta": 2.0,
            "cv_seed": 7,
        },
        {"predictions": Arg(MODEL), "beta": Arg(REAL)},
        project=_report_dict,
        note="cv_seed is Nullable(SEED) (None: not known) and stratified a flag; tests/reporting/test_report_export.py",
    ),
    "CVReport.to_frame": Entry(
        lambda: {"self": apples.report(apples.CVPredictions(list(Y), y_pred=list(P), folds=list(F))), "percent": True},
        project=lambda frame: frame.to_dict("list"),
        note="readable and percent are flags; the report is checked when it is built",
    ),
    "CVReport.to_latex": Entry(
        lambda: {"self": apples.report(apples.CVPredictions(list(Y), y_pred=list(P), folds=list(F)))},
        note="caption and label are free text, escaped in the output (tests/reporting/test_report_export.py)",
    ),
}

#: Public names that take none of the input classes, with the reason.
_CONSTANT = "constant (a tuple of choices or a number from a paper), not callable"
_RESULT = "result type returned by a registered function; built by it, not from user data"
_PLOT = "plotting helper: draws a notebook figure from a registered function's values or result table"
_WIDGET = "widget builder for a notebook: wires sliders to registered functions"
_KIND = (
    "parameter kind or rule between parameters (an apples._params.Kind or Relation) that public functions "
    "declare; checked through the registered functions that declare it"
)
EXEMPT: dict[str, str] = {
    **dict.fromkeys(["EQUAL_FOLDS", "DESIGN"], _KIND),
    **dict.fromkeys(
        [
            "CV_F_METHODS",
            "CV_ROC_AUC_METHODS",
            "PRECISION_AT_K_TIES",
            "PAPER_FOLD_AUC",
            "PAPER_AUC_AVG",
            "PAPER_AUC_MERGE",
            "PAPER_N_POSITIVES",
            "PAPER_N_CASES",
            "FIGURE_PRIORS",
            "FIGURE_F_TRUE",
            "FIGURE_PANEL_PRIORS",
            "EXACT_METHODS",
            "VAN_ASCH_RECALL_A",
            "VAN_ASCH_RECALL_B",
            "NONE_LABEL",
            "UNMATCHED",
            "AVERAGES",
            "H_MEASURE_PRIORS",
            "THRESHOLD_MEASURES",
            "AVERAGE_POLICIES",
            "FOLD_F1_AVERAGES",
            "FOLD_F1_METHODS",
            "IMPLIED_COSTS",
            "F_AGGREGATIONS",
            "COUNT_KEYS",
            "RANKING_METRICS",
            "EXPLORER_NOTE",
            "READINGS",
            "FIGURE2_PANELS",
            "FIGURE2_PROPS",
            "ALLOCATIONS",
            "ERROR_MODELS",
        ],
        _CONSTANT,
    ),
    "UndefinedMetricError": "exception type (a ValueError subclass), raised by the registered functions",
    "FAggregation": "a result type: the entries of F_AGGREGATIONS (a frozen dataclass of names)",
    "FrequenciesCover": "a relation between parameters (an apples._params.Relation), declared by average_scores",
    **dict.fromkeys(["ConfidenceInterval", "PairedComparison"], _RESULT),
    **dict.fromkeys(
        ["PROPORTION_METHODS", "ROC_AUC_CI_METHODS", "CV_SCORE_CI_METHODS", "COVERAGE_MODELS", "COVERAGE_INTERVALS"],
        _CONSTANT,
    ),
    **dict.fromkeys(
        [
            "CalibrationStudy",
            "CalibrationExplorer",
            "MergeDecomposition",
            "SimulationDesign",
            "ExploreResult",
            "SimExplorer",
            "FoldCounts",
            "SplitConfusionMatrix",
            "AveragedScores",
            "ThresholdResult",
            "KappaCurve",
            "ROCCurve",
            "ROCHull",
            "HMeasureResult",
            "HandLoss",
            "EmpiricalCosts",
            "IncoherenceComparison",
            "IncoherenceExplorer",
        ],
        _RESULT,
    ),
    **dict.fromkeys(["GTest", "ExperimentResult", "ExperimentConfig"], _RESULT),
    **dict.fromkeys(
        ["PARKER_MEASURES", "CLASSIFIERS", "DATASETS", "PAPER_RESULTS", "REPRESENTATIONS", "WAVEFORM_NOISE_FEATURES"],
        _CONSTANT,
    ),
    "set_style": "sets matplotlib/pandas options; takes no arguments",
    "decorate": "sets Axes properties (Axes.set keywords); takes no data",
    **dict.fromkeys(
        [
            "plot_f_of_tp",
            "plot_f_precision_recall",
            "plot_f_rates",
            "plot_cv_f_histograms",
            "plot_method_curves",
            "plot_fold_f1",
            "plot_accuracy_by_uncertainty",
            "plot_averages",
            "plot_incoherence_comparison",
            "plot_loss_surface",
            "plot_figure1",
            "panel_axes",
            "explorer_mimebundle",
            "plot_coverage",
            "plot_report_coverage",
            "plot_cv_f_convergence",
            "plot_bias_vs_prior",
            "plot_figure4_5",
            "plot_figure6",
            "plot_figure7",
            "plot_figure8",
            "plot_figure9",
        ],
        _PLOT,
    ),
    **dict.fromkeys(
        [
            "plot_fold_f1_convergence",
            "plot_fold_f1_grid",
            "plot_fold_f1_readings",
            "plot_delta_factors",
            "plot_fold_f1_single_runs",
        ],
        _PLOT,
    ),
    **dict.fromkeys(
        ["plot_agreement_levels", "plot_error_case_shares", "plot_error_case_breakdown", "plot_classifier_error_rates"],
        _PLOT,
    ),
    **dict.fromkeys(["calibration_explorer", "sim_explorer", "incoherence_explorer"], _WIDGET),
}


# -- where each metric is 0/0: what each undefined= policy must give --------------------------------
@dataclass(frozen=True)
class ZeroByZero:
    """An input where the entry's measure is 0/0, and per ``undefined=`` policy the value it must give.

    ``"raise"`` must raise :class:`apples.UndefinedMetricError`, ``"nan"`` must
    give NaN (the one place a NaN is a chosen result); ``"zero"`` and ``"skip"``
    map to the value worked out by hand (compared after the entry's ``project``).
    """

    recipe: Callable[[], dict]
    expect: Mapping[str, Any]  #: policy -> hand value ("raise" and "nan" map to None)


_Z = apples.Counts
ZERO_BY_ZERO: dict[str, ZeroByZero] = {
    # TP + FP = 0, TP + FN = 0, no cases, TP = FP = FN = 0, Pr = Re = 0: the substituted value is 0
    "precision": ZeroByZero(lambda: {"counts": _Z(0, 0, 4)}, {"zero": 0.0, "nan": None, "raise": None}),
    "recall": ZeroByZero(lambda: {"counts": _Z(0, 3, 0)}, {"zero": 0.0, "nan": None, "raise": None}),
    "accuracy": ZeroByZero(lambda: {"counts": _Z(0, 0, 0, 0)}, {"zero": 0.0, "nan": None, "raise": None}),
    "f_measure": ZeroByZero(lambda: {"counts": _Z(0, 0, 0)}, {"zero": 0.0, "nan": None, "raise": None}),
    "f_measure@harmonic": ZeroByZero(
        lambda: {"counts": _Z(0, 0, 4), "formula": "harmonic"}, {"zero": 0.0, "nan": None, "raise": None}
    ),
    "f_from_precision_recall": ZeroByZero(
        lambda: {"precision": 0.0, "recall": 0.0}, {"zero": 0.0, "nan": None, "raise": None}
    ),
    # one class: no AUC; no positives: no AP
    "roc_auc": ZeroByZero(lambda: {"y_true": [1, 1], "y_score": [0.5, 0.25]}, {"nan": None, "raise": None}),
    "average_precision": ZeroByZero(lambda: {"y_true": [0, 0], "y_score": [0.5, 0.25]}, {"nan": None, "raise": None}),
    # all scores tied: every prediction is constant; "zero" gives MCC 0 at the only threshold
    "max_mcc": ZeroByZero(
        lambda: {"y_true": [1, 0], "y_score": [0.5, 0.5]}, {"zero": (0.0, 0.5), "nan": None, "raise": None}
    ),
    # fold 1 has one class; fold 2 ranks its positive first: skipping fold 1 leaves 1.0
    "cv_roc_auc": ZeroByZero(
        lambda: {"y_true": [1, 1, 1, 0], "y_score": [0.5, 0.25, 0.5, 0.25], "folds": [0, 0, 1, 1], "method": "avg"},
        {"skip": 1.0, "nan": None, "raise": None},
    ),
    "cv_ranking_score": ZeroByZero(
        lambda: {
            "y_true": [0, 0, 1, 0],
            "y_score": [0.5, 0.25, 0.5, 0.25],
            "folds": [0, 0, 1, 1],
            "metric": "average_precision",
            "method": "avg",
        },
        {"skip": 1.0, "nan": None, "raise": None},
    ),
    # one fold: no pair spans two folds, AUC_between is 0/0 (an AUC of no pairs: never 0)
    "merge_decomposition": ZeroByZero(
        lambda: {"y_true": [1, 0], "y_score": [0.5, 0.25], "folds": [0, 0]}, {"nan": None, "raise": None}
    ),
    # no class A and r_B = 1: no false positives either, F1 of A is 0/0
    "theoretical_f1": ZeroByZero(
        lambda: {"prop_a": 0.0, "recall_b": 1.0, "average": "binary"}, {"zero": 0.0, "nan": None, "raise": None}
    ),
    "fold_f1": ZeroByZero(
        lambda: {"n_a": [0, 0], "tp_a": [0, 0], "tp_b": [10, 10], "fold_size": 10, "method": "tp_fp"},
        {"zero": 0.0, "nan": None, "raise": None},
    ),
    # label b is never predicted nor in the gold: macro over a (P 3/4, R 3/5, F 2/3) and b (0/0)
    "average_scores": ZeroByZero(
        lambda: {"counts_by_label": {"a": _Z(3, 1, 2), "b": _Z(0, 0, 0)}, "average": "macro"},
        {
            "zero": (3 / 8, 3 / 10, 2 * (3 / 8) * (3 / 10) / (3 / 8 + 3 / 10), 1 / 3),
            "skip": (3 / 4, 3 / 5, 2 / 3, 2 / 3),
            "nan": None,
            "raise": None,
        },
    ),
    # precision before is 0/0 (0 under "zero"), after 0/1: the change is 0
    "precision_factor": ZeroByZero(
        lambda: {"counts": _Z(0, 0, 3), "delta": 1}, {"zero": 0.0, "nan": None, "raise": None}
    ),
    "recall_factor": ZeroByZero(lambda: {"counts": _Z(0, 2, 0), "delta": 0}, {"zero": 0.0, "nan": None, "raise": None}),
    "recall_change": ZeroByZero(
        lambda: {"counts_by_label": {"a": _Z(3, 1, 2, 4), "b": _Z(0, 2, 0, 6)}, "shifts": {"b": 0}, "average": "macro"},
        {"zero": 0.0, "nan": None, "raise": None},
    ),
    # d (0/0 before, 0/1 after) takes one false positive of b (1/3 -> 1/2): (1/2 - 1/3) / 3 labels
    "precision_change": ZeroByZero(
        lambda: {
            "counts_by_label": {"a": _Z(3, 1, 2, 4), "b": _Z(1, 2, 0, 6), "d": _Z(0, 0, 0, 9)},
            "moves": [("b", "d", 1)],
            "average": "macro",
        },
        {"zero": 1 / 18, "nan": None, "raise": None},
    ),
    # no trials; one class; identical classifiers (SE 0); every fold difference the same; all cases TN
    "proportion_ci": ZeroByZero(lambda: {"k": 0, "n": 0}, {"nan": None, "raise": None}),
    "roc_auc_ci": ZeroByZero(lambda: {"y_true": [1, 1], "y_score": [0.5, 0.25]}, {"nan": None, "raise": None}),
    "compare_roc_auc": ZeroByZero(
        lambda: {"y_true": [1, 1, 0, 0], "y_score_a": [0.5, 0.25, 0.5, 0.125], "y_score_b": [0.5, 0.25, 0.5, 0.125]},
        {"nan": None, "raise": None},
    ),
    "compare_cv_scores": ZeroByZero(
        lambda: {"scores_a": [0.5, 0.75], "scores_b": [0.25, 0.5], "n_train": 4, "n_test": 2},
        {"nan": None, "raise": None},
    ),
    "cv_f_measure_ci": ZeroByZero(
        lambda: {"fold_counts": [_Z(0, 0, 0, 3), _Z(0, 0, 0, 2)], "method": "tp_fp", "n_resamples": 20},
        {"zero": (0.0, 0.0, 0.0), "nan": None, "raise": None},
    ),
}


# -- proper scoring rules and their plots (issue 21, items 11 and 12) --------------------------------
#: Probabilities of the positive label (dyadic: exact in float32) and weights, aligned with Y and F.
_PROB = (0.75, 0.5, 0.5, 0.375, 0.25, 0.125)
_W = (1.0, 0.5, 2.0, 1.0, 0.25, 1.0)
_SCORING_ARGS = {
    "y_true": _labels(),
    "y_prob": Arg(REAL, array=True),
    "pos_label": Arg(POSITIVE),
    "sample_weight": Arg(REAL, array=True, none_ok=True),
}
_CV_SCORING_ARGS = {**_SCORING_ARGS, "folds": Arg(FOLD_IDS)}


def _scoring(**kw):
    return lambda: {"y_true": list(Y), "y_prob": list(_PROB), "pos_label": 1, "sample_weight": list(_W), **kw}


def _cv_scoring(**kw):
    return _scoring(folds=list(F), **kw)


def _cv_probabilities():
    """Binary cross-validated probabilities with weights (what the plots and tables of CVPredictions read)."""
    return apples.CVPredictions(list(Y), folds=list(F), y_score=list(_PROB), sample_weight=list(_W))


#: Three classes' probabilities (dyadic rows summing to 1), aligned with YM; every class in both folds.
_PROB_M = (
    (0.5, 0.25, 0.25),
    (0.25, 0.5, 0.25),
    (0.125, 0.125, 0.75),
    (0.25, 0.25, 0.5),
    (0.25, 0.625, 0.125),
    (0.75, 0.125, 0.125),
    (0.125, 0.375, 0.5),
    (0.375, 0.375, 0.25),
)


def _cv_multiclass_probabilities():
    return apples.CVPredictions(
        list(YM),
        folds=[0, 0, 0, 0, 1, 1, 1, 1],
        y_score=[list(r) for r in _PROB_M],
        sample_weight=[1, 2, 1, 1, 0.5, 1, 1, 2],
    )


REGISTRY.update(
    {
        "log_loss": Entry(_scoring(), _SCORING_ARGS, relabel=BIN_MAP),
        "brier_score": Entry(_scoring(), _SCORING_ARGS, relabel=BIN_MAP),
        "cv_log_loss": Entry(_cv_scoring(), _CV_SCORING_ARGS, relabel=BIN_MAP),
        "cv_brier_score": Entry(_cv_scoring(), _CV_SCORING_ARGS, relabel=BIN_MAP),
        "reliability_table": Entry(
            lambda: {"predictions": _cv_probabilities(), "n_bins": 4},
            {"predictions": Arg(MODEL), "n_bins": Arg(SIZE)},
            nan_ok="an empty bin has no mean prediction nor observed frequency (NaN, documented)",
        ),
        "reliability_table@multiclass": Entry(
            lambda: {"predictions": _cv_multiclass_probabilities(), "label": 2, "n_bins": 4},
            {"predictions": Arg(MODEL), "label": Arg(TARGET), "n_bins": Arg(SIZE)},
            nan_ok="an empty bin has no mean prediction nor observed frequency (NaN, documented)",
        ),
        "scoring_rules_table": Entry(
            lambda: {
                "predictions": apples.CVPredictions(list(Y), folds=list(F), y_score=list(_PROB)),
                "sample_weight": list(_W),
            },
            {"predictions": Arg(MODEL), "sample_weight": Arg(REAL, array=True, none_ok=True)},
        ),
        "scoring_rules_table@weighted": Entry(
            lambda: {"predictions": _cv_probabilities()},
            {"predictions": Arg(MODEL)},
            note="the weights the predictions carry; given twice they are refused (tests/cv/test_cv_scoring_rules.py)",
        ),
        "plot_cv_roc": Entry(
            lambda: {"predictions": _cv_probabilities(), "ax": _fresh_ax()},
            {"predictions": Arg(MODEL)},
            project=_fs_drawn,
        ),
        "plot_cv_roc@multiclass": Entry(
            lambda: {"predictions": _cv_multiclass_probabilities(), "label": 1, "ax": _fresh_ax()},
            {"predictions": Arg(MODEL), "label": Arg(TARGET)},
            project=_fs_drawn,
        ),
        "plot_cv_precision_recall": Entry(
            lambda: {"predictions": _cv_probabilities(), "ax": _fresh_ax()},
            {"predictions": Arg(MODEL)},
            project=_fs_drawn,
        ),
        "plot_cv_precision_recall@multiclass": Entry(
            lambda: {"predictions": _cv_multiclass_probabilities(), "label": 0, "ax": _fresh_ax()},
            {"predictions": Arg(MODEL), "label": Arg(TARGET)},
            project=_fs_drawn,
        ),
        "plot_reliability": Entry(
            lambda: {"predictions": _cv_probabilities(), "n_bins": 4, "ax": _fresh_ax()},
            {"predictions": Arg(MODEL), "n_bins": Arg(SIZE)},
            project=_fs_drawn,
        ),
        "escape_mathtext": Entry(
            lambda: {"text": 0.5},
            note="free text (any object's str), never refused: a str here would be read as an option; "
            "tests/plotting/test_escape.py draws hostile text",
        ),
        "plot_reliability@multiclass": Entry(
            lambda: {"predictions": _cv_multiclass_probabilities(), "label": 2, "n_bins": 4, "ax": _fresh_ax()},
            {"predictions": Arg(MODEL), "label": Arg(TARGET), "n_bins": Arg(SIZE)},
            project=_fs_drawn,
        ),
    }
)
EXEMPT.update(
    {
        **dict.fromkeys(["CVScoringRule", "ScoringRulesTable", "ReliabilityTable"], _RESULT),
    }
)


# -- apples.comparison (issue 21, item 7): appended here so that the table above stays as it is ------------------
PUBLIC_MODULES = (*PUBLIC_MODULES, apples.comparison)
PUBLIC.update({n: getattr(apples.comparison, n) for n in apples.comparison.__all__})

#: Two models' predictions on 8 cases in 2 folds (both classes in each fold), fold differences that vary.
_CMP_Y = (1, 0, 1, 0, 1, 0, 1, 0)
_CMP_F = (0, 0, 0, 0, 1, 1, 1, 1)
#: A 3 models × 4 data sets table of dyadic scores with a tie (model 1 and 2 on data set 3).
_SCORE_TABLE = ((0.75, 0.5, 0.625, 0.875), (0.5, 0.375, 0.5, 0.25), (0.25, 0.125, 0.5, 0.375))


def _cmp_models():
    a = apples.CVPredictions(
        list(_CMP_Y), folds=list(_CMP_F), y_pred=[1, 0, 1, 0, 1, 1, 1, 0], y_score=[0.75, 0.25, 0.5, 0.125] * 2
    )
    b = apples.CVPredictions(
        list(_CMP_Y),
        folds=list(_CMP_F),
        y_pred=[0, 0, 1, 1, 1, 0, 1, 0],
        y_score=[0.5, 0.75, 0.625, 0.25, 0.875, 0.125, 0.375, 0.25],
    )
    return {"a": a, "b": b}


REGISTRY.update(
    {
        "compare": Entry(
            lambda: {**_cmp_models(), "measures": ["accuracy", "roc_auc"], "confidence": 0.875},
            {"a": Arg(MODEL), "b": Arg(MODEL), "confidence": _CONF},
        ),
        "friedman_test": Entry(
            lambda: {"scores": [list(r) for r in _SCORE_TABLE]},
            {"scores": Arg(REAL, array=True)},
        ),
        "nemenyi": Entry(
            lambda: {"scores": [list(r) for r in _SCORE_TABLE], "alpha": 0.125},
            {"scores": Arg(REAL, array=True), "alpha": Arg(REAL)},
        ),
        "wilcoxon_holm": Entry(
            lambda: {"scores": [list(r) for r in _SCORE_TABLE], "alpha": 0.125},
            {"scores": Arg(REAL, array=True), "alpha": Arg(REAL)},
        ),
        "bayesian_correlated_t": Entry(
            lambda: {"diffs": list(FOLD_SCORES_A), "rope": 0.125, "n_train": 12, "n_test": 4},
            # mean sizes are real numbers (10-fold on 569 cases: 512.1 and 56.9), so REAL, not SIZE
            {"diffs": Arg(REAL, array=True), "rope": Arg(REAL), "n_train": Arg(REAL), "n_test": Arg(REAL)},
        ),
    }
)
EXEMPT.update(
    {
        **dict.fromkeys(
            ["ModelComparison", "MeasureDifference", "FriedmanResult", "NemenyiResult", "WilcoxonHolmResult"], _RESULT
        ),
        "BayesianComparison": _RESULT,
        "COMPARE_MEASURES": _CONSTANT,
        "plot_critical_difference": _PLOT,
    }
)
ZERO_BY_ZERO.update(
    {
        # a model against itself: every fold difference 0, the t statistic 0/0
        "compare": ZeroByZero(
            lambda: {"a": _cmp_models()["a"], "b": _cmp_models()["a"], "measures": ["accuracy"]},
            {"nan": None, "raise": None},
        ),
        # every model scores the same on every data set: no ranks to tell apart
        "friedman_test": ZeroByZero(lambda: {"scores": [[0.5] * 3] * 3}, {"nan": None, "raise": None}),
        "wilcoxon_holm": ZeroByZero(lambda: {"scores": [[0.5, 0.25], [0.5, 0.25]]}, {"nan": None, "raise": None}),
        # every difference the same: the posterior's scale is 0/0
        "bayesian_correlated_t": ZeroByZero(
            lambda: {"diffs": [0.25, 0.25], "rope": 0.0, "n_train": 4, "n_test": 2}, {"nan": None, "raise": None}
        ),
    }
)

# ---- issue 21, sample weights (cv/predictions.py, cv/sklearn_adapter.py, reporting/) -------------------------
REGISTRY.update(
    {
        "CVPredictions@weights": Entry(
            lambda: {
                "y_true": list(Y),
                "y_pred": list(P),
                "y_score": list(S),
                "folds": list(F),
                "pos_label": 1,
                "sample_weight": list(_W) * (len(Y) // len(_W)),
            },
            {
                "y_true": _labels(),
                "y_score": Arg(SCORES),
                "folds": Arg(FOLD_IDS),
                "sample_weight": Arg(REAL, array=True, none_ok=True),
            },
            project=_predictions_state,
        ),
        "cross_val_predictions@params": Entry(
            lambda: dict(
                zip(("X", "y"), _binary_xy(), strict=True),
                estimator=_logistic(),
                cv=_two_fold_cv(),
                pos_label=1,
                params={"sample_weight": [1.0, 2.0] * (len(_binary_xy()[1]) // 2)},
            ),
            {"y": _labels(aligned=False), "pos_label": Arg(POSITIVE)},
            project=_predictions_state,
            note="X and the splitter go to scikit-learn as given; params['sample_weight'] is checked by "
            "tests/cv/test_sklearn_weights.py",
        ),
    }
)

# ---- issue 21, sample weights on the ranking measures (metrics/ranking.py) ------------------------------------
REGISTRY.update(
    {
        f"{name}@weights": _ranking(
            _bin(sample_weight=list(_W)),
            extra={"sample_weight": Arg(REAL, array=True, none_ok=True)},
            **(
                {"rank_project": _first_two, "thresholds": _roc_thresholds, "float_thresholds": _FLOAT_THR}
                if name == "roc_curve"
                else {}
            ),
        )
        for name in ("roc_curve", "roc_auc", "average_precision")
    }
)

# ---- issue 21, multi-label predictions (cv/predictions.py, reporting/, cv/sklearn_adapter.py) ----
_ML_TRUE = [[1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 1], [1, 0, 0], [0, 1, 1]]
_ML_PRED = [[1, 0, 0], [0, 1, 1], [1, 0, 0], [0, 0, 1], [1, 1, 0], [0, 1, 1]]
REGISTRY.update(
    {
        "CVPredictions@multilabel": Entry(
            lambda: {
                "y_true": np.array(_ML_TRUE),
                "y_pred": np.array(_ML_PRED),
                "folds": [0, 0, 0, 1, 1, 1],
                "labels": ["x", "y", "z"],
            },
            {"folds": Arg(FOLD_IDS), "labels": Arg(LABEL_SET)},
            project=_predictions_state,
        ),
        "report@multilabel": Entry(
            lambda: {
                "predictions": apples.CVPredictions(
                    np.array(_ML_TRUE), y_pred=np.array(_ML_PRED), folds=[0, 0, 0, 1, 1, 1], labels=["x", "y", "z"]
                )
            },
            {"predictions": Arg(MODEL)},
            project=_report_dict,
        ),
    }
)

# ---- crossdata: results across models × data sets, attainable p-values, the Bayesian signed-rank test ----------
#: 3 models × 3 data sets of dyadic values with an interval each, a tie for the best on d2.
_RT_VALUES = ((0.75, 0.5, 0.625), (0.875, 0.625, 0.75), (0.5, 0.5, 0.25))


def _results_frame():
    rows = []
    for d, values in zip(("d0", "d1", "d2"), _RT_VALUES, strict=True):
        for m, v in zip(("m0", "m1", "m2"), values, strict=True):
            rows.append({"model": m, "dataset": d, "value": v, "low": v - 0.125, "high": v + 0.125})
    return pd.DataFrame(rows)


def _results_state(t):
    """The numbers and words of a ResultsTable, NaN-free (p_holm is NaN where no comparison applies: documented)."""
    return {
        "scores": t.scores,
        "best": t.best,
        "worse": t.worse,
        "ranks": t.average_ranks,
        "friedman": (t.friedman.statistic, t.friedman.f_statistic) if t.friedman else None,
        "text": str(t),
    }


_RT_NAN = (
    "p_holm is NaN where no comparison applies (the best itself, data sets without one), and an attainable p is "
    "NaN for a test that does not apply (documented)"
)


def _cmp_reports():
    """{data set: {model: CVReport}}: the two models of _cmp_models on two data sets (the same predictions)."""
    models = _cmp_models()
    return {d: {m: apples.report(p) for m, p in models.items()} for d in ("d0", "d1")}


# ---- confusion-matrix measures and multi-class scoring rules (metrics/agreement.py, metrics/scoring_rules.py) ----
#: Weights aligned with YM (dyadic: exact in float32).
_WM = (1.0, 0.5, 2.0, 1.0, 0.25, 1.0, 0.75, 1.5)
#: Every label's probability for YM, columns 0, 1, 2 (dyadic rows summing to 1).
_PM3 = (
    (0.5, 0.25, 0.25),
    (0.125, 0.75, 0.125),
    (0.25, 0.25, 0.5),
    (0.0, 0.5, 0.5),
    (0.25, 0.5, 0.25),
    (0.75, 0.125, 0.125),
    (0.125, 0.125, 0.75),
    (0.5, 0.5, 0.0),
)
_AGREEMENT_ARGS = {
    "y_true": _labels(),
    "y_pred": _labels(),
    "labels": Arg(LABEL_SET),
    "sample_weight": Arg(REAL, array=True, none_ok=True),
}


def _agreement(**kw):
    return lambda: {"y_true": list(YM), "y_pred": list(PM), "labels": [0, 1, 2], "sample_weight": list(_WM), **kw}


_MC_SCORING_ARGS = {
    "y_true": _labels(),
    "y_prob": Arg(REAL, array=True),
    "labels": Arg(LABEL_SET),
    "sample_weight": Arg(REAL, array=True, none_ok=True),
}


def _mc_scoring(**kw):
    return lambda: {
        "y_true": list(YM),
        "y_prob": [list(r) for r in _PM3],
        "labels": [0, 1, 2],
        "sample_weight": list(_WM),
        **kw,
    }


REGISTRY.update(
    {
        "bayesian_correlated_t@n_folds": Entry(
            lambda: {"diffs": list(FOLD_SCORES_A), "rope": 0.125, "n_folds": 4},
            {"diffs": Arg(REAL, array=True), "rope": Arg(REAL), "n_folds": Arg(SIZE)},
        ),
        "bayesian_signed_rank": Entry(
            lambda: {
                "diffs": [0.125, -0.0625, 0.25, 0.1875],
                "rope": 0.0625,
                "seed": 3,
                "prior_strength": 0.25,
                "n_samples": 64,
            },
            {
                "diffs": Arg(REAL, array=True),
                "rope": Arg(REAL),
                "seed": Arg(SEED),
                "prior_strength": Arg(REAL),
                "n_samples": Arg(SIZE),
            },
        ),
        "attainable_p_values": Entry(
            lambda: {"n_models": 4, "n_datasets": 7, "alpha": 0.125},
            {"n_models": Arg(SIZE), "n_datasets": Arg(SIZE), "alpha": Arg(REAL)},
        ),
        "results_table": Entry(
            lambda: {"frame": _results_frame(), "alpha": 0.125, "digits": 2},
            {"alpha": Arg(REAL), "digits": Arg(SIZE)},
            project=_results_state,
            nan_ok=_RT_NAN,
            note="frame is a tidy DataFrame (its own kind; tests/comparison/test_results.py feeds it bad frames)",
        ),
        "results_table_from_reports": Entry(
            lambda: {"reports": _cmp_reports(), "quantity": "accuracy", "aggregation": "pooled", "alpha": 0.125},
            {"alpha": Arg(REAL)},
            project=_results_state,
            nan_ok=_RT_NAN,
            note="reports is {data set: {model: CVReport}} (tests/comparison/test_results.py); quantity and "
            "aggregation name a report row, and refuse one the reports lack",
        ),
    }
)
EXEMPT.update(
    {
        **dict.fromkeys(["Attainability", "BayesianSignedRank", "ResultsTable"], _RESULT),
        "LOWER_IS_BETTER": _CONSTANT,
    }
)

# ---- cross_val_predictions(sample_weight=): weights routed to fit and kept on the predictions (cv/sklearn_adapter.py)
REGISTRY.update(
    {
        "cross_val_predictions@sample_weight": Entry(
            lambda: dict(
                zip(("X", "y"), _binary_xy(), strict=True),
                estimator=_logistic(),
                cv=_two_fold_cv(),
                pos_label=1,
                sample_weight=list(_W) * (len(_binary_xy()[1]) // len(_W)),
            ),
            {
                "y": _labels(aligned=False),
                "pos_label": Arg(POSITIVE),
                "sample_weight": Arg(REAL, array=True, none_ok=True),
            },
            project=lambda p: {**_predictions_state(p), "sample_weight": np.asarray(p.sample_weight).tolist()},
            note="X and the splitter go to scikit-learn as given; the weights' routing to fit is checked by "
            "tests/cv/test_sklearn_sample_weight.py",
        ),
        "matthews_corrcoef": Entry(_agreement(), _AGREEMENT_ARGS, relabel=MC_MAP),
        "balanced_accuracy": Entry(_agreement(), _AGREEMENT_ARGS, relabel=MC_MAP),
        "cohen_kappa": Entry(_agreement(), _AGREEMENT_ARGS, relabel=MC_MAP),
        # y_prob's row 3 gives the true label 2 probability 1/2 and row 7 the true label 0 probability 1/2: finite
        "log_loss@multiclass": Entry(
            _mc_scoring(eps=2.0**-20),
            {**_MC_SCORING_ARGS, "eps": Arg(REAL, none_ok=True)},
            relabel=MC_MAP,
        ),
        "brier_score@multiclass": Entry(_mc_scoring(), _MC_SCORING_ARGS, relabel=MC_MAP),
        "h_measure@weights": _ranking(
            _bin(sample_weight=list(_W)), extra={"sample_weight": Arg(REAL, array=True, none_ok=True)}
        ),
        "h_measure_details@weights": _ranking(
            _bin(sample_weight=list(_W)), extra={"sample_weight": Arg(REAL, array=True, none_ok=True)}
        ),
    }
)
ZERO_BY_ZERO.update(
    {
        # one true label: a constant row margin, MCC 0/0 (scikit-learn's 0 under "zero")
        "matthews_corrcoef": ZeroByZero(
            lambda: {"y_true": [0, 0], "y_pred": [0, 1]}, {"zero": 0.0, "nan": None, "raise": None}
        ),
        # every case of one label and predicted as it: p_e = 1
        "cohen_kappa": ZeroByZero(lambda: {"y_true": [1, 1], "y_pred": [1, 1]}, {"nan": None, "raise": None}),
    }
)
# ---- the report's coverage study (theory/cv_learner.py, theory/cv_truths.py, theory/learner_models.py,
# ---- intervals/report_coverage.py) -------------------------------------------------------------------------------


def _report_coverage_settings():
    """One tiny binary setting (20 cases, 2 folds, a fixed classifier), class-weighted."""
    import pandas as pd

    return pd.DataFrame(
        {
            "task": ["binary"],
            "prior": [0.5],
            "n_cases": [20],
            "n_folds": [2],
            "n_repeats": [1],
            "training_sd": [0.0],
            "delta0": [1.5],
            "pos_weight": [2.0],
        }
    )


_LEARNER = {
    "prior": Arg(REAL),
    "delta0": Arg(REAL, int_value=1),
    "training_sd": Arg(REAL, int_value=0),
    "pos_weight": Arg(REAL, int_value=2),
}
REGISTRY.update(
    {
        "simulate_learner_cv": Entry(
            lambda: {
                "prior": 0.25,
                "n_cases": 16,
                "n_folds": 2,
                "n_repeats": 2,
                "delta0": 1.0,
                "training_sd": 0.5,
                "pos_weight": 2.0,
                "seed": 3,
            },
            {**_LEARNER, "n_cases": Arg(SIZE), "n_folds": Arg(SIZE), "n_repeats": Arg(SIZE), "seed": Arg(SEED)},
            project=_predictions_state,
        ),
        "learner_truths": Entry(
            lambda: {"prior": 0.25, "delta0": 1.0, "training_sd": 0.0, "pos_weight": 2.0, "n_folds": 4},
            {**_LEARNER, "n_folds": Arg(SIZE, none_ok=True)},
        ),
        "fold_model_values": Entry(
            lambda: {"separation": 1.5, "prior": 0.25, "pos_weight": 2.0},
            {"separation": Arg(REAL), "prior": Arg(REAL), "pos_weight": Arg(REAL, int_value=2)},
        ),
        "report_coverage_settings": Entry(lambda: {}),
        "stored_report_coverage": Entry(
            lambda: {},
            nan_ok="a value no study got an interval for (averaged H, always) has NaN coverage columns",
        ),
        "report_coverage_study": Entry(
            lambda: {
                "settings": _report_coverage_settings(),
                "n_studies": 2,
                "confidence": 0.875,
                "seed": 1,
                "n_jobs": 1,
                "max_seconds": 3600.0,
                "pilot": 1,
            },
            {
                "n_studies": Arg(SIZE),
                "confidence": _CONF,
                "seed": Arg(SEED),
                "n_jobs": Arg(INT),
                "max_seconds": Arg(REAL, int_value=3600),
                "pilot": Arg(SIZE),
            },
            nan_ok="coverage, widths and misses are NaN for a value the report never gives an interval (averaged H: "
            "documented)",
        ),
    }
)
EXEMPT.update({"LEARNER_TASKS": _CONSTANT, "REPORT_COVERAGE_SETTINGS": _CONSTANT})
