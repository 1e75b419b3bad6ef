"""Aggregating one score over the folds of a cross-validation.

Introduced in notebook 01. Forman & Scholz (2010) §2.3 define three ways to
turn k per-fold confusion counts into one cross-validated F-measure, and two
ways to treat folds where precision or recall is undefined:

================  ===============  ==================================================
``method``        paper            computation
================  ===============  ==================================================
``"avg"``         F_avg            mean of per-fold F, with F^(i) := 0 where V^(i) = 0
``"pr_re"``       F_pr,re          eq. (1) of mean precision and mean recall, with an
                                   undefined Pr^(i) or Re^(i) := 0
``"tp_fp"``       F_tp,fp          eq. (2) of the pooled TP, FP, FN
``"avg_skip"``    F̃_avg           mean of F^(i) over the folds with V^(i) = 1
``"pr_re_skip"``  F̃_pr,re         F_pr,re over the folds with V^(i) = 1
================  ===============  ==================================================

V^(i) = 1 when precision *and* recall of fold i are both defined (§2.3,
Exceptions). Accuracy has no such ambiguity for equal fold sizes (§2.4, §4.1;
Raschka's note): see :func:`cv_accuracy`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import ROUND_HALF_UP, Decimal, localcontext
from typing import Literal

import numpy as np
import pandas as pd

from apples._validation import check_choice, check_count, check_real, divide
from apples.metrics.counts import Counts, check_counts
from apples.metrics.f_measure import accuracy, check_beta, f_from_precision_recall, f_measure, precision, recall

__all__ = [
    "CV_F_METHODS",
    "METHOD_LABELS",
    "cv_accuracy",
    "cv_f_measure",
    "cv_table",
    "fold_validity",
    "format_cv_table",
    "percent",
    "round_half_up",
]

CV_F_METHODS: tuple[str, ...] = ("avg", "pr_re", "tp_fp", "avg_skip", "pr_re_skip")

#: The paper's symbol for each method, as printed in tables.
METHOD_LABELS: dict[str, str] = {
    "tp_fp": "F_tp,fp",
    "avg": "F_avg",
    "pr_re": "F_pr,re",
    "avg_skip": "F~_avg",
    "pr_re_skip": "F~_pr,re",
}


def _check_folds(folds: Iterable[Counts]) -> list[Counts]:
    """A non-empty list of checked Counts, one per fold; no shared check takes a sequence of Counts."""
    if isinstance(folds, Counts):
        raise TypeError("folds must be a sequence of apples.Counts (one per fold), got a single Counts")
    try:
        folds = list(folds)
    except TypeError:
        raise TypeError(f"folds must be a sequence of apples.Counts, got {type(folds).__name__}") from None
    if not folds:
        raise ValueError("folds is empty; a cross-validation needs at least one fold")
    for i, c in enumerate(folds):
        check_counts(f"folds[{i}]", c)
    return folds


def fold_validity(folds: Iterable[Counts]) -> np.ndarray:
    """V^(i) of Forman & Scholz §2.3: True where precision and recall are both defined.

    Examples
    --------
    >>> fold_validity([Counts(2, 0, 2), Counts(0, 0, 4)]).tolist()
    [True, False]
    """
    folds = _check_folds(folds)
    return np.array([c.tp + c.fp > 0 and c.tp + c.fn > 0 for c in folds])


def cv_f_measure(folds: Iterable[Counts], *, method: str, beta: float = 1.0) -> float:
    """Cross-validated F-measure by one of the five methods of Forman & Scholz §2.3.

    Parameters
    ----------
    folds : sequence of Counts
        One confusion count per test fold.
    method : {"avg", "pr_re", "tp_fp", "avg_skip", "pr_re_skip"}
        The aggregation (see the module docstring). There is no default: the
        point of the paper is that the choice matters. Forman & Scholz
        recommend ``"tp_fp"`` (§4.3, §5).
    beta : float, default 1.0
        F_beta instead of F1 (the paper uses F1), in [0, inf]: 0 gives precision, inf recall
        (:func:`apples.f_measure`).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``method`` is unknown, ``folds`` is empty, every fold is undefined
        under a skip method, or (``"tp_fp"``) the pooled count has
        TP = FP = FN = 0, so that even eq. (2) is 0/0.

    References
    ----------
    Forman, G. & Scholz, M. (2010). Apples-to-apples in cross-validation
    studies. SIGKDD Explorations 12(1), §2.3 and Tables 1–2.

    Examples
    --------
    Table 1 of the paper:

    >>> folds = [Counts.from_fold(positives=p, negatives=n, tp=tp, fp=fp)
    ...          for n, p, tp, fp in [(373, 3, 3, 0), (372, 4, 4, 1), (372, 4, 4, 13), (372, 4, 3, 5)]]
    >>> [round(cv_f_measure(folds, method=m), 2) for m in ("tp_fp", "avg", "pr_re")]
    [0.58, 0.69, 0.73]
    """
    folds = _check_folds(folds)
    check_choice("method", method, CV_F_METHODS)
    beta = check_beta(beta)
    if method == "tp_fp":
        pooled = sum(folds, Counts(0, 0, 0, 0))
        if pooled.tp + pooled.fp + pooled.fn == 0:  # eq. (2) is 0/0; cv_f_measure has no undefined= policy
            divide(
                0.0,
                0.0,
                undefined="raise",
                what="F_tp,fp (TP = FP = FN = 0 in every fold)",
                hint="no fold has a true positive, false positive or false negative, so every case is a "
                "true negative and F has nothing to measure. Check y_true and the positive label; "
                "if the data really have no positives and no positive predictions, report F as "
                "undefined (apples.f_measure(sum(folds), undefined='nan') returns nan)",
            )
        return f_measure(pooled, beta=beta, undefined="raise")
    valid = fold_validity(folds)
    if method.endswith("_skip"):
        if not valid.any():
            raise ValueError(
                f"method={method!r} skips folds with undefined precision or recall, "
                f"and all {len(folds)} folds are undefined"
            )
        folds = [c for c, v in zip(folds, valid, strict=True) if v]
        valid = valid[valid]
    if method in ("avg", "avg_skip"):
        # F^(i) := 0 where V^(i) = 0 (§2.3); skip methods have only valid folds left.
        per_fold = [f_measure(c, beta=beta) if v else 0.0 for c, v in zip(folds, valid, strict=True)]
        return float(np.mean(per_fold))
    pr = float(np.mean([precision(c, undefined="zero") for c in folds]))
    re = float(np.mean([recall(c, undefined="zero") for c in folds]))
    return f_from_precision_recall(pr, re, beta=beta, undefined="zero")


def cv_accuracy(folds: Iterable[Counts], *, method: Literal["pooled", "avg", "weighted_avg"]) -> float:
    """Cross-validated accuracy, pooled or averaged (Forman & Scholz §2.4, §4.1).

    ``"pooled"`` is (ΣTP + ΣTN) / ΣN; ``"avg"`` the plain mean of per-fold
    accuracies; ``"weighted_avg"`` their mean weighted by fold size. Pooled and
    weighted are always equal; the plain mean equals them only when all folds
    have the same size (Raschka: (30 + 40)/100 = (30/50 + 40/50)/2).

    Examples
    --------
    >>> folds = [Counts(tp=15, fp=10, fn=10, tn=15), Counts(tp=20, fp=5, fn=5, tn=20)]
    >>> cv_accuracy(folds, method="pooled"), cv_accuracy(folds, method="avg")
    (0.7, 0.7)
    """
    folds = _check_folds(folds)
    check_choice("method", method, ("pooled", "avg", "weighted_avg"))
    if any(c.n == 0 for c in folds):
        raise ValueError("a fold has no cases; accuracy of an empty fold is undefined")
    if method == "pooled":
        return accuracy(sum(folds, Counts(0, 0, 0, 0)))
    acc = np.array([accuracy(c) for c in folds])
    weights = np.array([c.n for c in folds], dtype=float) if method == "weighted_avg" else None
    return float(np.average(acc, weights=weights))


def cv_table(folds: Sequence[Counts], *, beta: float = 1.0) -> pd.DataFrame:
    """Per-fold table laid out like Forman & Scholz Tables 1 and 2.

    Rows ``1..k`` hold each fold's negatives, positives, TP, FP, precision,
    recall and F (zero substituted where undefined, as the paper does); the
    ``undefined`` column names what was substituted (the paper's †). A fold's
    F is eq. (2), which already is 0 wherever V^(i) = 0 except at
    TP = FP = FN = 0, where 0 is substituted and "F" is listed as undefined. Row
    ``"Totals"`` sums the counts, row ``"Averages"`` averages precision,
    recall and F, and one row per method of :func:`cv_f_measure` holds the
    aggregate in column ``f`` (NaN where a skip method has no valid fold).

    Use :func:`format_cv_table` to print it in percent with † marks.

    Examples
    --------
    >>> t = cv_table([Counts(2, 0, 2, 370), Counts(0, 0, 4, 372)])
    >>> t.loc[2, "undefined"]
    'precision'
    """
    folds = _check_folds(folds)
    beta = check_beta(beta)
    rows = []
    for c in folds:
        und = [
            name
            for name, bad in (
                ("precision", c.tp + c.fp == 0),
                ("recall", c.tp + c.fn == 0),
                ("f", c.tp + c.fp + c.fn == 0),
            )
            if bad
        ]
        rows.append(
            {
                "negatives": c.negatives,
                "positives": c.positives,
                "tp": c.tp,
                "fp": c.fp,
                "precision": precision(c),
                "recall": recall(c),
                "f": f_measure(c, beta=beta, undefined="zero"),
                "undefined": ", ".join(und),
            }
        )
    table = pd.DataFrame(rows, index=pd.Index(range(1, len(folds) + 1), name="fold", dtype=object))
    totals = table[["negatives", "positives", "tp", "fp"]].sum()
    table.loc["Totals", ["negatives", "positives", "tp", "fp"]] = totals.to_numpy()
    table.loc["Averages", ["precision", "recall", "f"]] = (
        table.loc[1 : len(folds), ["precision", "recall", "f"]].mean().to_numpy()
    )
    for method in ("tp_fp", "avg", "pr_re", "avg_skip", "pr_re_skip"):
        try:
            value = cv_f_measure(folds, method=method, beta=beta)
        except ValueError:
            value = np.nan
        table.loc[METHOD_LABELS[method], "f"] = value
    table["undefined"] = table["undefined"].fillna("")
    for col in ("negatives", "positives", "tp", "fp"):
        table[col] = table[col].astype("Int64")
    return table


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
    >>> percent(0.625), percent(0.58333), percent(0.7336, decimals=1)
    ('63%', '58%', '73.4%')
    """
    try:
        v = check_real("value", value)
    except ValueError as exc:
        raise ValueError(
            f"percent needs a finite number: {exc}; an undefined value has no percentage, "
            "print it yourself (format_cv_table leaves such cells empty)"
        ) from None
    decimals = check_count("decimals", decimals)
    if decimals > 100:
        raise ValueError(f"decimals must be at most 100, got {decimals}")
    return f"{_half_up(v, digits=decimals, scale=100)}%"


def _half_up(value: float, *, digits: int, scale: int = 1) -> Decimal:
    """``value * scale`` rounded half up (away from zero) to ``digits`` decimals, exactly, as a Decimal.

    The one rounding rule of :func:`round_half_up` and :func:`percent`: the
    float's shortest repr is read as a decimal, so 0.6125 is 0.6125, not the
    binary 0.61249999..., and multiplied by ``scale`` without rounding.
    """
    with localcontext() as ctx:
        ctx.prec = 320 + digits  # every digit of a float times 100 (up to 1.8e310) and the decimals
        return (Decimal(repr(value)) * scale).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)


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
    >>> round_half_up(0.6125, digits=3), round_half_up(2.5, digits=0), round_half_up(-0.5, digits=0)
    (0.613, 3.0, -1.0)
    """
    v = check_real("x", x)
    digits = check_count("digits", digits)
    if digits > 100:
        raise ValueError(f"digits must be at most 100, got {digits}")
    return float(_half_up(v, digits=digits))


_COUNT_COLUMNS = ("negatives", "positives", "tp", "fp")
_RATE_COLUMNS = ("precision", "recall", "f")


def _check_cv_table(table: object) -> None:
    """TypeError/ValueError naming ``table`` unless it has the layout of :func:`cv_table`."""
    expected = "the DataFrame returned by apples.cv_table(folds)"
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


def format_cv_table(table: pd.DataFrame, *, decimals: int = 0) -> pd.DataFrame:
    """Strings for printing :func:`cv_table`: percentages and a † on substituted values.

    Examples
    --------
    >>> format_cv_table(cv_table([Counts(2, 0, 2, 370), Counts(0, 0, 4, 372)])).loc[2, "Precision"]
    '0% †'
    """
    _check_cv_table(table)
    out = pd.DataFrame(index=table.index)
    for col in ("negatives", "positives", "tp", "fp"):
        out[col] = table[col].map(lambda v: "" if pd.isna(v) else f"{int(v)}")
    for col in ("precision", "recall", "f"):
        out[col] = table[col].map(lambda v: "" if pd.isna(v) else percent(v, decimals=decimals))
    # = table["undefined"].items(), whose labels pandas-stubs types as Hashable, which .loc refuses
    for idx, und in zip(table.index, table["undefined"], strict=True):
        for name in und.split(", ") if und else []:
            out.loc[idx, name] += " †"
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
