"""Aggregating confusion counts over the folds of a cross-validation.

Introduced in notebook 01. Forman & Scholz (2010) §2.3 define three ways to turn k per-fold
confusion counts into one cross-validated F-measure (``method``), and two treatments of the folds
whose precision or recall is 0/0 (their V^(i) = 0; ``undefined``); :data:`apples.cv.F_AGGREGATIONS`
names the five combinations the paper uses (F_tp,fp, F_avg, F_pr,re, F̃_avg, F̃_pr,re). Accuracy has no
such ambiguity for equal fold sizes (§2.4, §4.1; Raschka's note): see :func:`cv_accuracy`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
import pandas as pd

from apples._kernels.f_measure import cv_f, f_of_counts, ratio
from apples._kernels.rounding import half_up, percent_text
from apples._params import (
    Integer,
    Kind,
    Options,
    ParameterValueError,
    Policy,
    Real,
    SkipNeedsAverage,
    Undefined,
    declare,
    resolve,
)
from apples.cv.aggregations import CV_F_METHODS, F_AGGREGATIONS
from apples.metrics.counts import FOLD_COUNTS, Counts
from apples.metrics.precision_recall import BETA

__all__ = [
    "cv_accuracy",
    "cv_f_measure",
    "cv_table",
    "fold_validity",
    "format_cv_table",
    "percent",
    "round_half_up",
]


def _arrays(fold_counts: Sequence[Counts]) -> tuple[np.ndarray, ...]:
    """TP, FP, FN, TN of the folds as four int64 arrays."""
    table = np.array([(c.tp, c.fp, c.fn, c.tn) for c in fold_counts], dtype=np.int64).reshape(-1, 4)
    return table[:, 0], table[:, 1], table[:, 2], table[:, 3]


@declare(fold_counts=FOLD_COUNTS)
def fold_validity(fold_counts: Sequence[Counts]) -> np.ndarray:
    """V^(i) of Forman & Scholz §2.3: True where the fold's precision and recall are both defined.

    Examples
    --------
    >>> from apples import Counts, fold_validity
    >>> fold_validity([Counts(2, 0, 2), Counts(0, 0, 4)]).tolist()
    [True, False]
    """
    tp, fp, fn, _ = _arrays(fold_counts)
    return (tp + fp > 0) & (tp + fn > 0)


@declare(
    fold_counts=FOLD_COUNTS,
    method=Options(*CV_F_METHODS),
    undefined=Undefined("zero", "nan", "raise", "skip"),
    beta=BETA,
    relations=[SkipNeedsAverage("tp_fp")],
)
def cv_f_measure(
    fold_counts: Sequence[Counts],
    *,
    method: Literal["tp_fp", "avg", "pr_re"],
    undefined: Policy = "zero",
    beta: float = 1.0,
) -> float:
    """Cross-validated F-measure by one of the three methods of Forman & Scholz §2.3.

    Parameters
    ----------
    fold_counts : sequence of Counts
        One confusion count per test fold (:func:`apples.fold_counts`).
    method : {"tp_fp", "avg", "pr_re"}
        ``"tp_fp"``: eq. (2) of the TP, FP and FN summed over the folds (F_tp,fp); ``"avg"``: the
        mean of the folds' F (F_avg); ``"pr_re"``: eq. (1) of the mean precision and the mean recall
        (F_pr,re). There is no default: the point of the paper is that the choice matters. Forman &
        Scholz recommend ``"tp_fp"`` (§4.3, §5).
    undefined : {"zero", "nan", "raise", "skip"}, default "zero"
        What a fold with V^(i) = 0 (precision or recall 0/0) contributes to ``"avg"`` and ``"pr_re"``:
        0, the paper's substitution "throughout" (§2.3); nothing, the fold is left out (``"skip"``:
        the paper's F̃_avg and F̃_pr,re); or the result is NaN, or an error. For ``"tp_fp"`` the only
        0/0 is TP = FP = FN = 0 in every fold, and ``"skip"`` does not apply. A skip with every fold
        left out is NaN. :data:`apples.cv.F_AGGREGATIONS` lists the paper's five combinations.
    beta : float, default 1.0
        F_beta instead of F1 (the paper uses F1), in [0, inf].

    Returns
    -------
    float

    Raises
    ------
    UndefinedMetricError
        ``undefined="raise"`` and a fold (or, for ``"tp_fp"``, the pooled count) is 0/0.
    ValueError
        ``undefined="skip"`` with ``method="tp_fp"``, which averages nothing.

    References
    ----------
    Forman, G. & Scholz, M. (2010). Apples-to-apples in cross-validation studies. SIGKDD
    Explorations 12(1), §2.3 and Tables 1–2.

    Examples
    --------
    Table 1 of the paper:

    >>> from apples import Counts, cv_f_measure
    >>> folds = [Counts.from_fold(positives=p, negatives=n, tp=tp, fp=fp)
    ...          for n, p, tp, fp in [(373, 3, 3, 0), (372, 4, 4, 1), (372, 4, 4, 13), (372, 4, 3, 5)]]
    >>> [round(cv_f_measure(folds, method=m), 2) for m in ("tp_fp", "avg", "pr_re")]
    [0.58, 0.69, 0.73]
    """
    tp, fp, fn, _ = _arrays(fold_counts)
    value = float(cv_f(tp, fp, fn, method=method, undefined="nan" if undefined == "raise" else undefined, beta=beta))
    if method == "tp_fp":
        what = "F_tp,fp (TP = FP = FN = 0 in every fold)"
        hint = (
            "no fold has a true positive, false positive or false negative, so every case is a true negative "
            "and F has nothing to measure; check y_true and the positive label, or pass undefined='zero' or 'nan'"
        )
    else:
        bad = np.flatnonzero(~((tp + fp > 0) & (tp + fn > 0)))
        what = f"the F of fold {bad[0] if bad.size else ''} (precision or recall 0/0)"
        hint = "pass undefined='zero' (the paper's F_avg, F_pr,re), 'skip' (F~_avg, F~_pr,re) or 'nan'"
    return resolve(value, "raise" if undefined == "raise" else "nan", what=what, hint=hint)


@declare(fold_counts=FOLD_COUNTS, method=Options("pooled", "avg", "weighted_avg"))
def cv_accuracy(fold_counts: Sequence[Counts], *, method: Literal["pooled", "avg", "weighted_avg"]) -> float:
    """Cross-validated accuracy, pooled or averaged (Forman & Scholz §2.4, §4.1).

    ``"pooled"`` is (ΣTP + ΣTN) / ΣN; ``"avg"`` the plain mean of per-fold accuracies;
    ``"weighted_avg"`` their mean weighted by fold size. Pooled and weighted are always equal; the
    plain mean equals them only when all folds have the same size (Raschka: (30 + 40)/100 =
    (30/50 + 40/50)/2).

    Examples
    --------
    >>> from apples import Counts, cv_accuracy
    >>> folds = [Counts(tp=15, fp=10, fn=10, tn=15), Counts(tp=20, fp=5, fn=5, tn=20)]
    >>> cv_accuracy(folds, method="pooled"), cv_accuracy(folds, method="avg")
    (0.7, 0.7)
    """
    tp, fp, fn, tn = _arrays(fold_counts)
    n = tp + fp + fn + tn
    if (n == 0).any():
        empty = int(np.flatnonzero(n == 0)[0])
        raise ParameterValueError(
            f"fold_counts[{empty}] has no cases; the accuracy of an empty fold is undefined", param="fold_counts"
        )
    if method == "pooled":
        return float((tp.sum() + tn.sum()) / n.sum())
    acc = ratio(tp + tn, n)
    return float(np.average(acc, weights=n.astype(float) if method == "weighted_avg" else None))


@declare(fold_counts=FOLD_COUNTS, beta=BETA)
def cv_table(fold_counts: Sequence[Counts], *, beta: float = 1.0) -> pd.DataFrame:
    """Per-fold table laid out like Forman & Scholz Tables 1 and 2.

    Rows ``0..k-1`` (the position of each fold in ``fold_counts``, numbered from 0 as scikit-learn's
    splitters, :func:`apples.cross_val_predictions` and :func:`apples.report` number folds) hold each
    fold's negatives, positives, TP, FP, precision, recall and F (zero
    substituted where undefined, as the paper does); the ``undefined`` column names what was
    substituted (the paper's †). A fold's F is eq. (2), which already is 0 wherever V^(i) = 0 except
    at TP = FP = FN = 0, where 0 is substituted and "f" is listed as undefined. Row ``"Totals"``
    sums the counts, row ``"Averages"`` averages precision, recall and F, and one row per F
    aggregation of :data:`apples.cv.F_AGGREGATIONS` holds it in column ``f`` (NaN where a skip
    aggregation has no defined fold).

    Use :func:`format_cv_table` to print it in percent with † marks.

    Examples
    --------
    >>> from apples import Counts, cv_table
    >>> t = cv_table([Counts(2, 0, 2, 370), Counts(0, 0, 4, 372)])
    >>> t.loc[1, "undefined"]
    'precision'
    """
    tp, fp, fn, tn = _arrays(fold_counts)
    precision, recall, f = ratio(tp, tp + fp), ratio(tp, tp + fn), f_of_counts(tp, fp, fn, beta)
    undefined = [
        ", ".join(name for name, v in (("precision", p), ("recall", r), ("f", ff)) if v != v)
        for p, r, ff in zip(precision, recall, f, strict=True)
    ]
    k = tp.size
    table = pd.DataFrame(
        {
            "negatives": fp + tn,
            "positives": tp + fn,
            "tp": tp,
            "fp": fp,
            "precision": np.nan_to_num(precision),
            "recall": np.nan_to_num(recall),
            "f": np.nan_to_num(f),
            "undefined": undefined,
        },
        index=pd.Index(range(k), name="fold", dtype=object),
    )
    totals = table[["negatives", "positives", "tp", "fp"]].sum()
    table.loc["Totals", ["negatives", "positives", "tp", "fp"]] = totals.to_numpy()
    table.loc["Averages", ["precision", "recall", "f"]] = table.iloc[:k][["precision", "recall", "f"]].mean().to_numpy()
    for a in F_AGGREGATIONS.values():
        table.loc[a.symbol, "f"] = float(cv_f(tp, fp, fn, method=a.method, undefined=a.undefined, beta=beta))
    table["undefined"] = table["undefined"].fillna("")
    for col in ("negatives", "positives", "tp", "fp"):
        table[col] = table[col].astype("Int64")
    return table


class _Finite(Kind):
    what = "a finite real number"

    def check(self, name: str, value: object) -> float:
        try:
            return Real().check(name, value)
        except ValueError as exc:
            raise ValueError(
                f"percent needs a finite number: {exc}; an undefined value has no percentage, "
                "print it yourself (format_cv_table leaves such cells empty)"
            ) from None


@declare(value=_Finite(), decimals=Integer(0, 100))
def percent(value: float, *, decimals: int = 0) -> str:
    """``value`` as a percentage string, rounding halves up as the papers' tables do.

    Python's own formatting rounds half to even (``f"{62.5:.0f}"`` is ``'62'``),
    while Forman & Scholz print the average recall 0.625 of Table 2 as 63%.

    Parameters
    ----------
    value : real number
        A finite fraction (Python or numpy scalar); 1 is 100%.
    decimals : int, default 0
        Digits after the decimal point, 0 to 100.

    Raises
    ------
    TypeError
        ``value`` is not a real number (a string, None, a bool).
    ValueError
        ``value`` is NaN or infinite, or ``decimals`` is out of range. An
        undefined value (NaN) has no percentage: print it as the caller's
        tables do (:func:`format_cv_table` leaves the cell empty).

    Examples
    --------
    >>> from apples.cv import percent
    >>> percent(0.625), percent(0.58333), percent(0.7336, decimals=1)
    ('63%', '58%', '73.4%')
    """
    return percent_text(value, decimals=decimals)


@declare(x=Real(), digits=Integer(0, 100))
def round_half_up(x: float, *, digits: int) -> float:
    """``x`` rounded to ``digits`` decimals with halves rounded up, as the papers print their tables.

    Python's :func:`round` rounds half to even and works on the binary value
    (``round(2.5)`` is 2, ``round(0.125, 2)`` is 0.12, ``round(2.675, 2)`` is
    2.67), while Van Asch (2013, Tables 3-5) prints the macro precision
    0.6125 as 0.613. The decimal written for ``x`` (its shortest repr) is
    rounded, so 2.675 is a half and becomes 2.68. A negative half is rounded away from zero (-0.5 -> -1.0, -0.0125 ->
    -0.013 at ``digits=3``), i.e. "half up" in magnitude, as the paper's
    positive values and :class:`decimal.Decimal`'s ``ROUND_HALF_UP``.
    :func:`percent` uses the same rule.

    Parameters
    ----------
    x : real number
        A finite real (Python or numpy scalar).
    digits : int
        Decimals to keep, 0 to 100.

    Returns
    -------
    float
        The nearest float to the rounded decimal.

    Raises
    ------
    TypeError
        ``x`` is not a real number (a string, None, a bool), or ``digits`` is not an int.
    ValueError
        ``x`` is NaN or infinite, or ``digits`` is negative or above 100.

    Examples
    --------
    >>> from apples.cv import round_half_up
    >>> round_half_up(0.6125, digits=3), round_half_up(2.5, digits=0), round_half_up(-0.5, digits=0)
    (0.613, 3.0, -1.0)
    """
    return float(half_up(x, digits=digits))


_COUNT_COLUMNS = ("negatives", "positives", "tp", "fp")
_RATE_COLUMNS = ("precision", "recall", "f")
_MARK = " †"  # the paper's mark of a substituted value (Table 2)


class _CVTable(Kind):
    what = "the DataFrame returned by apples.cv_table(fold_counts)"

    def check(self, name: str, value: object) -> pd.DataFrame:
        _check_cv_table(value)
        return value  # type: ignore[return-value]


def _check_cv_table(table: object) -> None:
    """TypeError/ValueError naming ``table`` unless it has the layout of :func:`cv_table`."""
    expected = "the DataFrame returned by apples.cv_table(fold_counts)"
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"table must be {expected}, got {type(table).__name__}")
    missing = [c for c in (*_COUNT_COLUMNS, *_RATE_COLUMNS, "undefined") if c not in table.columns]
    if missing:
        raise ValueError(
            f"table lacks the column(s) {missing} of cv_table; it must be {expected} "
            f"(got columns {list(table.columns)[:10]})"
        )
    for col in _COUNT_COLUMNS + _RATE_COLUMNS:
        for idx, v in table[col].items():
            if pd.isna(v):
                continue
            ok = isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))
            if not ok or not np.isfinite(v) or (col in _COUNT_COLUMNS and (v < 0 or v != int(v))):
                what = "a non-negative integer count" if col in _COUNT_COLUMNS else "a finite number"
                raise ValueError(
                    f"table.loc[{idx!r}, {col!r}] must be {what} or empty, got {v!r}; table must be {expected}"
                )
    for idx, v in table["undefined"].items():
        names = v.split(", ") if isinstance(v, str) and v else []
        if not isinstance(v, str) or not set(names) <= set(_RATE_COLUMNS):
            raise ValueError(
                f"table.loc[{idx!r}, 'undefined'] must list some of {list(_RATE_COLUMNS)} "
                f"separated by ', ' (or be ''), got {v!r}; table must be {expected}"
            )


@declare(table=_CVTable(), decimals=Integer(0, 100))
def format_cv_table(table: pd.DataFrame, *, decimals: int = 0) -> pd.DataFrame:
    """Strings for printing :func:`cv_table`: percentages and a † on substituted values.

    In a column that carries a †, the other values end in two spaces, the width of " †", so that
    the % signs line up when the table is printed (``to_string`` right-aligns).

    Examples
    --------
    >>> from apples import Counts, cv_table, format_cv_table
    >>> table = format_cv_table(cv_table([Counts(2, 0, 2, 370), Counts(0, 0, 4, 372)]))
    >>> table.loc[[0, 1, "Averages"], "Precision"].tolist()
    ['100%  ', '0% †', '50%  ']
    """
    out = pd.DataFrame(index=table.index)
    for col in ("negatives", "positives", "tp", "fp"):
        out[col] = table[col].map(lambda v: "" if pd.isna(v) else f"{int(v)}")
    for col in ("precision", "recall", "f"):
        out[col] = table[col].map(lambda v: "" if pd.isna(v) else percent_text(v, decimals=decimals))
    # = table["undefined"].items(), whose labels pandas-stubs types as Hashable, which .loc refuses
    for idx, und in zip(table.index, table["undefined"], strict=True):
        for name in und.split(", ") if und else []:
            out.loc[idx, name] += _MARK
    for col in _RATE_COLUMNS:
        if out[col].str.endswith(_MARK).any():
            out[col] = out[col].map(lambda v: v if not v or v.endswith(_MARK) else v + " " * len(_MARK))
    return out.rename(
        columns={
            "negatives": "Negatives",
            "positives": "Positives",
            "tp": "TP",
            "fp": "FP",
            "precision": "Precision",
            "recall": "Recall",
            "f": "F-measure",
        }
    )
