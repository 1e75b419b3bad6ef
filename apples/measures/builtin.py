"""The measures apples reports, one record each: :data:`MEASURES`.

Introduced in notebook 10. Each record below is all there is of its measure in the report, the
comparisons, the intervals, the exports and the methods paragraph (:mod:`apples.measures.record`).
Adding a measure is one record here, one kernel in ``apples/_kernels/`` and one row in the tests
(CONTRIBUTING.md, "Adding a measure").

==========================  ==================  =======================================  ================
key                         tasks               aggregations (0/0 rule)                  recommended
==========================  ==================  =======================================  ================
``f_measure``               binary              tp_fp, avg (0), pr_re (0), avg_skip,     tp_fp
                                                pr_re_skip (Forman & Scholz §2.3)
``precision``, ``recall``   all                 pooled, avg (0; multi-class: a label's   pooled
                                                0/0 counts 0, Van Asch §4.1)
``f_of_averages``,          multi-class,        pooled, avg (macro, micro, lfb)          name it
``mean_f``                  multi-label
``accuracy``                binary, multi-class pooled, avg                              pooled
``balanced_accuracy``       binary, multi-class pooled, avg                              pooled
``mcc``                     binary, multi-class pooled, avg (0, as scikit-learn)         pooled
``cohen_kappa``             binary, multi-class pooled, avg (skip)                       pooled
``subset_accuracy``,        multi-label         pooled, avg                              pooled
``hamming_loss``
``roc_auc``                 all (macro one-vs-  avg (skip), merge                        avg
                            rest beyond binary)
``average_precision``       binary              avg (skip), merge                        avg
``h_measure``               binary              avg (skip), merge                        avg
``log_loss``,               binary, multi-class pooled, avg (skip)                       pooled
``brier_score``             (probabilities)
==========================  ==================  =======================================  ================
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from apples._kernels.f_measure import ratio
from apples._kernels.totals import (
    LabelTotals,
    accuracy,
    balanced_accuracy,
    cohen_kappa,
    hamming_loss,
    matthews_corrcoef,
    subset_accuracy,
)
from apples.cv.aggregations import F_AGGREGATIONS
from apples.measures._evaluate import label_average
from apples.measures.record import (
    AVERAGED_NAN,
    AVERAGED_SKIP,
    AVERAGED_ZERO,
    MERGED,
    POOLED,
    Aggregation,
    Measure,
)

__all__ = [
    "LABEL_AVERAGES",
    "MEASURES",
]

#: The label averages of multi-class and multi-label counts (Van Asch §3): key -> how reports print it.
LABEL_AVERAGES: dict[str, str] = {
    "macro": "macro",
    "micro": "micro",
    "lfb_test": "lfb (test freq.)",
    "lfb_train": "lfb (train freq.)",
    "macro_ovr": "macro one-vs-rest",
}
_AVERAGES = ("macro", "micro", "lfb_test", "lfb_train")

_FS = "Forman, G. & Scholz, M. (2010). Apples-to-apples in cross-validation studies. SIGKDD Explorations 12(1)"
_VA = "Van Asch, V. (2013). Macro- and micro-averaged evaluation measures"


def _binary_or_average(which: str) -> Any:
    """A kernel of precision or recall (``which``): the positive label's for a binary task, a label average else."""

    def kernel(t: LabelTotals, *, average: str, train: np.ndarray | None, undefined: str, options: Mapping) -> Any:
        if not average:  # binary: label code 1 is the positive label
            tp = t.tp[..., 1]
            return ratio(tp, tp + (t.fp[..., 1] if which == "precision" else t.fn[..., 1]))
        return label_average(t, which=which, average=average, train=train, undefined=undefined)

    return kernel


def _average_only(which: str) -> Any:
    def kernel(t: LabelTotals, *, average: str, train: np.ndarray | None, undefined: str, options: Mapping) -> Any:
        beta = float(options.get("beta", 1.0))
        return label_average(t, which=which, average=average, train=train, undefined=undefined, beta=beta)

    return kernel


def _whole(function: Any) -> Any:
    """A kernel of a measure of the whole table (no label average)."""

    def kernel(t: LabelTotals, *, average: str, train: np.ndarray | None, undefined: str, options: Mapping) -> Any:
        return function(t)

    kernel.__doc__ = function.__doc__
    return kernel


#: The five F aggregations of Forman & Scholz §2.3 (apples.cv's vocabulary), as the F record's aggregations; the
#: report's F_tp,fp is undefined (not 0) where TP = FP = FN = 0 in every fold: there is nothing to measure.
_F_AGGREGATIONS = tuple(
    Aggregation(
        a.key,
        "pooled" if a.method == "tp_fp" else a.method,
        "nan" if a.method == "tp_fp" else a.undefined,
        a.name,
        a.symbol,
    )
    for a in F_AGGREGATIONS.values()
)

_RANKING_FALLBACK = (
    "the merged value ranks the scores of different fold models together, so it also judges their calibration "
    "across folds, and is lower when the fold models are calibrated differently (Forman & Scholz §3.2)"
)

_RECORDS = (
    Measure(
        key="f_measure",
        name="F-measure",
        family="f_measure",
        kernel=None,
        tasks=("binary",),
        aggregations=_F_AGGREGATIONS,
        undefined_text=(
            "F_avg and F_pr,re count a fold whose precision or recall is 0/0 as 0; F~_avg and F~_pr,re leave it "
            "out (Forman & Scholz §2.3); F_tp,fp is 0/0 only when TP = FP = FN = 0 in every fold"
        ),
        recommended="tp_fp",
        guidance=(
            "F: report F_tp,fp (pooled TP, FP, FN); averaging per fold is biased when positives are rare or folds "
            "lack them (Forman & Scholz §4.3, §5)."
        ),
        fold_undefined="precision or recall is 0/0 (V = 0, Forman & Scholz §2.3)",
        references=f"{_FS}, §2.3, eqs. (1)-(2).",
        options={"beta": 1.0},
    ),
    Measure(
        key="precision",
        name="precision",
        family="counts",
        kernel=_binary_or_average("precision"),
        tasks=("binary", "multiclass", "multilabel"),
        aggregations=(POOLED, AVERAGED_ZERO),
        averages=_AVERAGES,
        undefined_text=(
            "a fold without positive predictions (TP + FP = 0) counts precision 0 in the average over folds; "
            "multi-class: a label never predicted counts precision 0 (Van Asch §4.1)"
        ),
        recommended="pooled",
        fold_undefined="no positive predictions (TP + FP = 0)",
        references=f"{_FS}, §2.3; {_VA}, §3.",
    ),
    Measure(
        key="recall",
        name="recall",
        family="counts",
        kernel=_binary_or_average("recall"),
        tasks=("binary", "multiclass", "multilabel"),
        aggregations=(POOLED, AVERAGED_ZERO),
        averages=_AVERAGES,
        undefined_text=(
            "a fold without positives (TP + FN = 0) counts recall 0 in the average over folds; multi-class: a "
            "label absent from a fold counts recall 0 (Van Asch §4.1)"
        ),
        recommended="pooled",
        fold_undefined="no positives (TP + FN = 0)",
        references=f"{_FS}, §2.3; {_VA}, §3.",
    ),
    Measure(
        key="f_of_averages",
        name="F of averaged P, R",
        family="counts",
        kernel=_average_only("f_of_averages"),
        tasks=("multiclass", "multilabel"),
        aggregations=(POOLED, AVERAGED_NAN),
        averages=_AVERAGES,
        undefined_text="a label's undefined precision or recall counts 0 (Van Asch §4.1)",
        recommended="pooled",
        guidance=(
            "Macro-F has two definitions: F of the macro precision and recall (f_of_averages) and the mean of "
            "per-label F (mean_f, scikit-learn's f1_score average='macro'); they differ (Van Asch §3)."
        ),
        fold_undefined="no label weighted in the fold (lfb with test frequencies: no case)",
        references=f"{_VA}, §3, eq. (3).",
        options={"beta": 1.0},
    ),
    Measure(
        key="mean_f",
        name="mean of per-label F",
        family="counts",
        kernel=_average_only("mean_f"),
        tasks=("multiclass", "multilabel"),
        aggregations=(POOLED, AVERAGED_NAN),
        averages=_AVERAGES,
        undefined_text="a label whose F is 0/0 counts 0 (Van Asch §4.1)",
        recommended="pooled",
        guidance=(
            "Multi-class F: report it of the counts pooled over each repeat's folds, as F_tp,fp; averaging per fold "
            "lets a label absent from a fold count 0 there (Van Asch §4.1, §7)."
        ),
        fold_undefined="no label weighted in the fold (lfb with test frequencies: no case)",
        references=f"{_VA}, §3, eq. (4).",
        options={"beta": 1.0},
    ),
    Measure(
        key="accuracy",
        name="accuracy",
        family="counts",
        kernel=_whole(accuracy),
        tasks=("binary", "multiclass"),
        aggregations=(POOLED, AVERAGED_SKIP),
        undefined_text="accuracy is 0/0 only in a fold whose weights are all 0, which the average leaves out",
        recommended="pooled",
        fold_undefined="every sample weight in the fold is 0",
        references=f"{_FS}, §2.2 (accuracy is the same pooled or averaged over equal folds).",
    ),
    Measure(
        key="balanced_accuracy",
        name="balanced accuracy",
        family="counts",
        kernel=_whole(balanced_accuracy),
        tasks=("binary", "multiclass"),
        aggregations=(POOLED, AVERAGED_SKIP),
        undefined_text=(
            "the mean recall over the labels present: a label absent from a fold is left out of that fold's mean "
            "(scikit-learn's balanced_accuracy_score), unlike the macro recall above, which counts it 0"
        ),
        recommended="pooled",
        guidance=(
            "Balanced accuracy (the mean of the per-label recalls; binary: (TPR + TNR)/2) pooled over the folds, "
            "as F_tp,fp: per fold, a label absent from the fold drops out of that fold's mean."
        ),
        fold_undefined="no label present (every sample weight in the fold is 0)",
        references="Brodersen, K. H. et al. (2010). The balanced accuracy and its posterior distribution. ICPR.",
    ),
    Measure(
        key="mcc",
        name="MCC",
        family="counts",
        kernel=_whole(matthews_corrcoef),
        tasks=("binary", "multiclass"),
        aggregations=(POOLED, Aggregation("avg", "avg", "zero", "averaged over folds")),
        range=(-1.0, 1.0),
        percent=False,
        digits=3,
        undefined_text=(
            "MCC is 0/0 in a fold whose cases are all predicted as one label, or all of one label: the average "
            "over folds counts it 0, as scikit-learn's matthews_corrcoef does"
        ),
        recommended="pooled",
        guidance=(
            "MCC (Matthews 1975; Gorodkin 2004 beyond two labels): report it of the pooled counts; a fold "
            "predicted all one label has MCC 0/0, which the average over folds counts 0."
        ),
        fold_undefined="every case predicted as one label, or of one label",
        references=(
            "Matthews, B. W. (1975). Biochimica et Biophysica Acta 405(2); Gorodkin, J. (2004). Computational "
            "Biology and Chemistry 28(5); Chicco, D. & Jurman, G. (2020). BMC Genomics 21."
        ),
    ),
    Measure(
        key="cohen_kappa",
        name="Cohen's kappa",
        family="counts",
        kernel=_whole(cohen_kappa),
        tasks=("binary", "multiclass"),
        aggregations=(POOLED, AVERAGED_SKIP),
        range=(-1.0, 1.0),
        percent=False,
        digits=3,
        undefined_text=(
            "kappa is 0/0 in a fold whose cases are all of one label and all predicted as it (chance agreement "
            "1), which the average over folds leaves out"
        ),
        recommended="pooled",
        fold_undefined="one label only, true and predicted",
        references="Cohen, J. (1960). Educational and Psychological Measurement 20(1).",
    ),
    Measure(
        key="subset_accuracy",
        name="subset accuracy",
        family="counts",
        kernel=_whole(subset_accuracy),
        tasks=("multilabel",),
        aggregations=(POOLED, AVERAGED_SKIP),
        undefined_text="never 0/0 (every fold holds a case)",
        recommended="pooled",
        fold_undefined="no case in the fold",
        references="Van Asch (2013) §5; scikit-learn's accuracy_score on label sets.",
    ),
    Measure(
        key="hamming_loss",
        name="Hamming loss",
        family="counts",
        kernel=_whole(hamming_loss),
        tasks=("multilabel",),
        aggregations=(POOLED, AVERAGED_SKIP),
        greater_is_better=False,
        undefined_text="never 0/0 (every fold holds a case)",
        recommended="pooled",
        fold_undefined="no case in the fold",
        references="Van Asch (2013) §5; scikit-learn's hamming_loss.",
    ),
    Measure(
        key="roc_auc",
        name="ROC AUC",
        family="ranking",
        kernel="auc",
        tasks=("binary", "multiclass", "multilabel"),
        aggregations=(AVERAGED_SKIP, MERGED),
        needs="y_score",
        averages=("macro_ovr",),
        undefined_text="averaged ROC AUC leaves out the folds where it is undefined (a fold with one class)",
        recommended="avg",
        guidance=(
            "AUC: report AUC_avg (mean over folds); AUC_merge ranks the scores of different fold models together "
            "and also judges their calibration (Forman & Scholz §3.2): use it only when that is the question. "
            "AUC averages the loss over a cost distribution that depends on the classifier (Hand 2009; Parker "
            "2011 §III): where the costs of errors matter, report the H-measure beside it."
        ),
        fold_undefined="one class only",
        fallback=_RANKING_FALLBACK,
        references=f"{_FS}, §2.4, §3; Hand, D. J. (2009). Machine Learning 77(1).",
    ),
    Measure(
        key="average_precision",
        name="average precision",
        family="ranking",
        kernel="ap",
        tasks=("binary",),
        aggregations=(AVERAGED_SKIP, MERGED),
        needs="y_score",
        undefined_text="averaged AP leaves out the folds without positives",
        recommended="avg",
        guidance="AP: report AP_avg, for the reason AUC_avg is reported (Forman & Scholz §3.2).",
        fold_undefined="no positives",
        fallback=_RANKING_FALLBACK,
        references="Parker, C. (2011). An analysis of performance measures for binary classifiers. ICDM, §II.",
    ),
    Measure(
        key="h_measure",
        name="H-measure",
        family="ranking",
        kernel="h",
        tasks=("binary",),
        aggregations=(AVERAGED_SKIP, MERGED),
        needs="y_score",
        undefined_text="averaged H leaves out the folds with one class",
        recommended="avg",
        no_interval={
            "avg": (
                "the H of a test fold is biased upward (the ROC hull of few cases is optimistic; the bias column of "
                "apples.intervals.stored_report_coverage shows it in every binary setting), so an interval around "
                "the folds' mean covers the fold models' H far less often than it states"
            )
        },
        guidance=(
            "H-measure (Hand 2009): the loss under a fixed Beta(2, 1 + 1/r) prior on the cost of a false positive "
            "(the R package hmeasure's), "
            "r the severity ratio stated in the header, normalised by the better trivial classifier; unlike AUC its "
            "cost distribution does not depend on the classifier (Parker 2011 §II-G, §V). Report H_avg, and say "
            "that the H of small test folds is biased upward (the convex hull of few cases is optimistic), so "
            "H_avg has no interval; H_merge, of more cases, is less biased where the folds' scores share one scale."
        ),
        fold_undefined="one class only",
        fallback=_RANKING_FALLBACK,
        references=(
            "Hand, D. J. (2009). Machine Learning 77(1), §§4-6; Anagnostopoulos, C. & Hand, D. J. hmeasure, R package "
            "on CRAN (the prior Beta(2, 1 + 1/r), r the severity ratio); Parker (2011) §II-G."
        ),
        options={"severity_ratio": None},
    ),
    Measure(
        key="log_loss",
        name="log loss",
        family="scoring",
        kernel="log_loss",
        tasks=("binary", "multiclass"),
        aggregations=(POOLED, AVERAGED_SKIP),
        needs="probabilities",
        range=(0.0, float("inf")),
        greater_is_better=False,
        percent=False,
        undefined_text=(
            "a probability of 0 for a case's true label makes the log loss infinite: reported as such, never "
            "clipped unless eps= is given"
        ),
        recommended="pooled",
        guidance=(
            "Log loss and Brier score (the scores read as the positive label's probability): pooled is the mean "
            "over all cases, the fold-size-weighted mean of the folds' values, so pooling and averaging agree up "
            "to the folds' sizes; both judge calibration as well as ranking."
        ),
        fold_undefined="every sample weight in the fold is 0",
        references="Good, I. J. (1952). JRSS B 14(1); Gneiting, T. & Raftery, A. E. (2007). JASA 102(477).",
        options={"eps": None},
    ),
    Measure(
        key="brier_score",
        name="Brier score",
        family="scoring",
        kernel="brier",
        tasks=("binary", "multiclass"),
        aggregations=(POOLED, AVERAGED_SKIP),
        needs="probabilities",
        range=(0.0, 2.0),  # binary (p - y)^2 is in [0, 1]; the multi-class sum over the labels in [0, 2]
        greater_is_better=False,
        percent=False,
        undefined_text="the Brier score is never 0/0",
        recommended="pooled",
        fold_undefined="every sample weight in the fold is 0",
        references="Brier, G. W. (1950). Monthly Weather Review 78(1).",
    ),
)

#: Every built-in measure by key, in the order reports print them.
MEASURES: dict[str, Measure] = {m.key: m for m in _RECORDS}
