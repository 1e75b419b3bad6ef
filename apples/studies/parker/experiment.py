"""Parker's classifier-comparison experiment (§IV–V) rebuilt on data available offline (notebook 09).

Design (Parker §IV, with the substitutions each line names):

- **Data sets.** Parker's Landsat, FBIS, yeast and sound data are not
  bundled anywhere offline; we use scikit-learn's bundled digits, wine, iris
  and breast-cancer data, Breiman's waveform generator with and without its
  19 noise attributes (:func:`make_waveform`; Parker used the noise
  version), and binary tasks from ``sklearn.datasets.make_classification``
  whose positive proportions span 1% to 70% (Parker: 0.9% to 73.5%).
  Every label of a data set becomes a one-vs-rest task.
- **Representations.** The original features, PCA keeping 95% of the
  variance, RBF kernel PCA and locally linear embedding with that many
  components (as Parker), and the distances to 32 k-means centroids.
  Parker's fifth method, neighbourhood preserving embedding (NPE), has no
  scikit-learn counterpart and is dropped: five representations, not six.
  Every representation is fitted on the training cases only and
  standardised (mean 0, variance 1 on the training cases) before the
  classifiers see it.
- **Classifiers.** Nine, with scikit-learn's defaults in place of Weka's:
  Gaussian naive Bayes, logistic regression, a linear SVM (``LinearSVC``), an
  RBF SVM (``SVC``), 1- and 10-nearest neighbours, a decision tree (CART,
  unpruned, for Weka's pruned J48), AdaBoost over such trees and AdaBoost over
  stumps (scikit-learn's default AdaBoost). Scores are ``predict_proba`` of
  the positive class, or ``decision_function`` for the two SVMs (no internal
  calibration, which would add a cross-validation of its own).
- **Protocol.** One stratified hold-out split per data set (half for
  training, half for testing) shared by all its labels and representations:
  every measure of every classifier is computed on the *same* test cases, as
  a comparison requires. Scores pooled from cross-validation folds would mix
  fold-specific score scales (Forman & Scholz §3; notebook 02), and a
  per-fold comparison would multiply the comparisons without adding data.

Randomness: each data set draws from ``SeedSequence([seed, crc32(name)])``
and each (data set, representation) task from ``SeedSequence([seed,
crc32(name), crc32(representation)])``, so a task's result does not depend
on which other tasks run, in which order, on which worker. Each task runs
with one BLAS thread (``threadpoolctl``), so results are identical for any
joblib backend and any ``n_jobs``.
"""

from __future__ import annotations

import time
import warnings
import zlib
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from apples._kernels import threshold_free as tf
from apples._kernels.hmeasure import beta_prior, convex_hull, h_losses, h_of_losses
from apples._kernels.ranking import (
    CumulativeCounts,
    ap_from_counts,
    auc_from_counts,
    cumulative_counts,
    precision_at_k_from_counts,
)
from apples._optional import require
from apples._params import (
    FLAG,
    LABEL,
    LABELS,
    N_JOBS,
    SCORES,
    Kind,
    Nullable,
    Options,
    ParameterTypeError,
    ParameterValueError,
    Real,
    Relation,
    SameLength,
    TwoClasses,
    check_choice,
    check_int,
    check_real,
    check_real_array,
    check_seed,
    declare,
    unique_labels,
)
from apples.studies.parker.agreement import PARKER_MEASURES
from apples.studies.parker.waveform import _make_waveform

if TYPE_CHECKING:  # pandas is imported where a table is built
    import pandas as pd


__all__ = [
    "CLASSIFIERS",
    "DATASETS",
    "PAPER_RESULTS",
    "REPRESENTATIONS",
    "ExperimentConfig",
    "ExperimentResult",
    "experiment_config",
    "experiment_tasks",
    "measure_preferences",
    "run_experiment",
    "seven_measures",
]

#: The data sets: scikit-learn's bundled ones, the waveform generator (with and without noise), synthetic tasks.
DATASETS = ("digits", "wine", "iris", "breast_cancer", "waveform", "waveform_noise", "synthetic")
#: The representations (Parker §IV without NPE, which scikit-learn lacks).
REPRESENTATIONS = ("original", "pca", "kernel_pca", "lle", "kmeans")
#: The nine classifiers of Parker §IV, scikit-learn versions (short names used in tables and figures).
CLASSIFIERS = ("NB", "LR", "SVM-lin", "SVM-rbf", "1-NN", "10-NN", "tree", "Ada-tree", "Ada-stump")
#: Parker's numbers (§IV–V): comparisons, share all agreeing, error cases, G statistic, positive proportions.
PAPER_RESULTS = {
    "comparisons": 11188,
    "all_agree_share": 0.58,
    "error_cases": 2300,
    "g_statistic": 1095.0,
    "pos_prop_min": 0.009,
    "pos_prop_median": 0.11,
    "pos_prop_max": 0.735,
}


@dataclass(frozen=True)
class ExperimentConfig:
    """Everything that determines an experiment's result (see :func:`experiment_config`)."""

    datasets: tuple[str, ...] = DATASETS
    representations: tuple[str, ...] = REPRESENTATIONS
    classifiers: tuple[str, ...] = CLASSIFIERS
    synthetic_proportions: tuple[float, ...] = (0.01, 0.03, 0.05, 0.11, 0.2, 0.35, 0.5, 0.7)
    max_samples: int = 400  #: cases kept per data set (a stratified subsample); bundled sets stop at their size
    waveform_samples: int = 400  #: cases drawn from the waveform generator (Parker: 5000)
    synthetic_samples: int = 400  #: cases per synthetic task, raised so that the test half has >= 5 positives
    seed: int = 0


class ExperimentResult(NamedTuple):
    """What :func:`run_experiment` returns."""

    config: ExperimentConfig
    measures: pd.DataFrame  #: one row per (task, label, classifier): the seven measures and the score summary
    comparisons: pd.DataFrame  #: one row per pair of classifiers on a task and label, with the preferences
    timings: pd.DataFrame  #: seconds per task: ``data``, ``represent``, ``fit`` (and score), ``measures``, ``total``

    @property
    def preferences(self) -> pd.DataFrame:
        """The preference table (+1, −1, 0, NaN) of the comparisons, one column per measure."""
        return self.comparisons[list(PARKER_MEASURES)]


@declare(design=Options("default", "full", "tiny"))
def experiment_config(design: Literal["default", "full", "tiny"] = "default", **changes: Any) -> ExperimentConfig:
    """The experiment's configuration: ``"default"`` (notebook 09), ``"full"`` or ``"tiny"`` (tests).

    ``"default"`` keeps 400 cases per data set (45 s serially on a quiet
    two-core machine); ``"full"`` keeps every case of the bundled data
    sets and draws 5,000 waveforms (Parker's Table I) and 2,000 cases per
    synthetic task (122 s with ``n_jobs=2`` on a quiet two-core machine, 341 s
    on a busy one; the same tasks and comparisons, larger test sets); ``"tiny"``
    (tests) runs two small data
    sets, two representations and three classifiers. Keyword arguments replace
    fields of the chosen design (:class:`ExperimentConfig`).

    Examples
    --------
    >>> from apples.studies.parker import experiment_config
    >>> experiment_config("full").waveform_samples
    5000
    >>> experiment_config(seed=3).seed
    3
    """
    return _experiment_config(design, changes)


def _experiment_config(design: str, changes: dict[str, Any]) -> ExperimentConfig:
    """The design's configuration with ``changes``, checked by :data:`_CONFIG` (the fields are not declared)."""
    base = ExperimentConfig()
    if design == "full":
        base = replace(base, max_samples=10_000, waveform_samples=5000, synthetic_samples=2000)
    elif design == "tiny":
        base = replace(base, datasets=("iris", "synthetic"), representations=("original", "pca"),
                       classifiers=("NB", "LR", "1-NN"), synthetic_proportions=(0.2,), max_samples=120,
                       synthetic_samples=120)  # fmt: skip
    unknown = set(changes) - set(ExperimentConfig.__dataclass_fields__)
    if unknown:
        raise ParameterTypeError(f"experiment_config got unknown field(s) {sorted(unknown)}", param=min(unknown))
    checked: ExperimentConfig = _CONFIG("config", replace(base, **changes))
    return checked


def _sequence(name: str, values: object, what: str) -> tuple:
    """A list, tuple or other sequence of ``what`` (not a str, not a scalar) as a tuple; TypeError naming ``name``."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise TypeError(
            f"{name} must be a sequence (tuple or list) of {what}, got {values!r:.80} ({type(values).__name__})"
        )
    return tuple(values)


class _Config(Kind):
    """An :class:`ExperimentConfig` whose fields are valid; becomes the config with its sequences as tuples (a list
    of classifier names is as good as a tuple)."""

    what = "an ExperimentConfig (from experiment_config)"

    def check(self, name: str, value: object) -> ExperimentConfig:
        if not isinstance(value, ExperimentConfig):
            raise TypeError(f"{name} must be {self.what}, got {type(value).__name__}")
        fields: dict[str, Any] = {}
        for field, allowed in (("datasets", DATASETS), ("representations", REPRESENTATIONS),
                               ("classifiers", CLASSIFIERS)):  # fmt: skip
            values = _sequence(f"{name}.{field}", getattr(value, field), f"names from {allowed}")
            if not values:
                raise ValueError(f"{name}.{field} is empty; give one or more names from {allowed}")
            for v in values:
                check_choice(f"{name}.{field}", v, allowed)
            fields[field] = values
        if len(fields["classifiers"]) < 2:
            raise ValueError(f"{name}.classifiers must name at least two classifiers (a comparison needs a pair)")
        proportions = _sequence(f"{name}.synthetic_proportions", value.synthetic_proportions, "proportions in (0, 1)")
        fields["synthetic_proportions"] = tuple(
            check_real(f"{name}.synthetic_proportions[{i}]", p, low=0.0, high=1.0, low_inclusive=False,
                       high_inclusive=False)
            for i, p in enumerate(proportions)
        )  # fmt: skip
        check_int(f"{name}.max_samples", value.max_samples, low=40)
        check_int(f"{name}.waveform_samples", value.waveform_samples, low=40)
        check_int(f"{name}.synthetic_samples", value.synthetic_samples, low=40)
        check_seed(f"{name}.seed", value.seed)
        return replace(value, **fields)


_CONFIG = _Config()


@declare(config=_CONFIG)
def experiment_tasks(config: ExperimentConfig) -> list[tuple[str, str]]:
    """The (data set, representation) tasks of a configuration, in their fixed order.

    A synthetic data set is named by its positive proportion (``"synthetic-1%"``).

    Examples
    --------
    >>> from apples.studies.parker import experiment_config, experiment_tasks
    >>> experiment_tasks(experiment_config("tiny"))
    [('iris', 'original'), ('iris', 'pca'), ('synthetic-20%', 'original'), ('synthetic-20%', 'pca')]
    """
    return _tasks(config)


def _tasks(config: ExperimentConfig) -> list[tuple[str, str]]:
    """:func:`experiment_tasks` of a checked configuration."""
    names: list[str] = []
    for d in config.datasets:
        names += [f"synthetic-{100 * p:g}%" for p in config.synthetic_proportions] if d == "synthetic" else [d]
    return [(d, r) for d in names for r in config.representations]


def _seed(*keys: object) -> np.random.SeedSequence:
    return np.random.SeedSequence([int(k) if isinstance(k, int) else zlib.crc32(str(k).encode()) for k in keys])


def _int_seed(seq: np.random.SeedSequence) -> int:
    """An int for scikit-learn's ``random_state`` (which takes no numpy Generator), drawn from ``seq``."""
    return int(seq.generate_state(1)[0])


def _load(dataset: str, config: ExperimentConfig) -> tuple[np.ndarray, np.ndarray]:
    """The features and labels of one data set, subsampled (stratified) to ``config.max_samples``."""
    skd = require("sklearn.datasets")
    seq = _seed(config.seed, dataset)
    if dataset.startswith("synthetic-"):
        p = float(dataset.removeprefix("synthetic-").removesuffix("%")) / 100.0
        n = max(config.synthetic_samples, int(np.ceil(10.0 / p)))  # >= 5 positives in the test half
        X, y = skd.make_classification(n_samples=n, n_features=20, n_informative=5, n_redundant=5,
                                       weights=[1.0 - p], flip_y=0.02, random_state=_int_seed(seq))  # fmt: skip
        return X, y
    if dataset in ("waveform", "waveform_noise"):
        return _make_waveform(config.waveform_samples, dataset == "waveform_noise", np.random.default_rng(seq))
    loader = {"digits": skd.load_digits, "wine": skd.load_wine, "iris": skd.load_iris,
              "breast_cancer": skd.load_breast_cancer}[dataset]  # fmt: skip
    X, y = loader(return_X_y=True)
    if len(y) > config.max_samples:
        split = require("sklearn.model_selection").train_test_split
        X, _, y, _ = split(X, y, train_size=config.max_samples, stratify=y, random_state=_int_seed(seq))
    return X, y


def _represent(name: str, X_train: np.ndarray, X_test: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Fit representation ``name`` on the training cases, transform both halves, standardise."""
    decomposition = require("sklearn.decomposition")
    StandardScaler = require("sklearn.preprocessing").StandardScaler
    scale = StandardScaler().fit(X_train)
    X_train, X_test = scale.transform(X_train), scale.transform(X_test)
    if name != "original":
        n_comp = decomposition.PCA(n_components=0.95).fit(X_train).n_components_
        if name == "pca":
            model = decomposition.PCA(n_components=0.95)
        elif name == "kernel_pca":
            model = decomposition.KernelPCA(n_components=n_comp, kernel="rbf", random_state=seed)
        elif name == "lle":
            manifold = require("sklearn.manifold")
            model = manifold.LocallyLinearEmbedding(n_components=n_comp, n_neighbors=max(10, n_comp + 1),
                                                    eigen_solver="dense", random_state=seed)  # fmt: skip
        else:
            model = require("sklearn.cluster").KMeans(n_clusters=min(32, len(X_train)), random_state=seed)
        X_train = model.fit_transform(X_train)
        X_test = model.transform(X_test)
        scale = StandardScaler().fit(X_train)
        X_train, X_test = scale.transform(X_train), scale.transform(X_test)
    return X_train, X_test


def _classifier(name: str, seed: int) -> Any:
    sk = {m: require(f"sklearn.{m}") for m in ("naive_bayes", "linear_model", "svm", "neighbors", "tree", "ensemble")}
    tree = sk["tree"].DecisionTreeClassifier
    return {
        "NB": lambda: sk["naive_bayes"].GaussianNB(),
        "LR": lambda: sk["linear_model"].LogisticRegression(),
        "SVM-lin": lambda: sk["svm"].LinearSVC(random_state=seed),
        "SVM-rbf": lambda: sk["svm"].SVC(),
        "1-NN": lambda: sk["neighbors"].KNeighborsClassifier(n_neighbors=1),
        "10-NN": lambda: sk["neighbors"].KNeighborsClassifier(n_neighbors=10),
        "tree": lambda: tree(random_state=seed),
        "Ada-tree": lambda: sk["ensemble"].AdaBoostClassifier(estimator=tree(random_state=seed), random_state=seed),
        "Ada-stump": lambda: sk["ensemble"].AdaBoostClassifier(random_state=seed),
    }[name]()


def _scores(model: Any, X: np.ndarray) -> np.ndarray:
    if hasattr(model, "decision_function") and not hasattr(model, "predict_proba"):
        return np.asarray(model.decision_function(X), dtype=float)
    return np.asarray(model.predict_proba(X)[:, 1], dtype=float)


@declare(
    y_true=LABELS,
    y_score=SCORES,
    pos_label=LABEL,
    relations=[SameLength("y_true", "y_score"), TwoClasses("pos_label", "y_true")],
)
def seven_measures(y_true: ArrayLike, y_score: ArrayLike, *, pos_label: Hashable = 1) -> dict[str, float]:
    """Parker's seven measures of one classifier's scores (§II), NaN where one is undefined.

    max-F1 (:func:`apples.max_f1`), max-MCC (:func:`apples.max_mcc`, a
    constant prediction scoring 0), r-precision (:func:`apples.r_precision`,
    ties expected), AUC (:func:`apples.roc_auc`), AP
    (:func:`apples.average_precision`), AUK (:func:`apples.auk`) and H
    (:func:`apples.h_measure`, the R package's default prior), all seven from
    one sort of the scores (the kernels those functions compute with).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Two classes.
    y_score : array-like of shape (n,)
        Finite scores, higher = more positive.
    pos_label : label, default 1
        The positive class.

    Returns
    -------
    dict of str -> float
        Keyed by :data:`PARKER_MEASURES`, in that order.

    References
    ----------
    Parker (2011) §II (definitions), §IV (the seven measures compared).

    Examples
    --------
    >>> from apples.studies.parker import seven_measures
    >>> m = seven_measures([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1])
    >>> {k: round(v, 4) for k, v in m.items()}
    {'max-F1': 0.8, 'max-MCC': 0.5774, 'r-precision': 0.5, 'AUC': 0.75, 'AP': 0.8333, 'AUK': 0.25, 'H': 0.5}
    """
    return _seven_measures(np.asarray(y_true), np.asarray(y_score), pos_label)


def _one_class(positive: np.ndarray, y_true: np.ndarray, pos_label: Hashable) -> str:
    """Why ``y_true`` holds one class only, naming the positive label and the labels found."""
    if not positive.any():
        found = unique_labels("y_true", y_true).tolist()
        return (
            f"y_true has only one class (no positives: pos_label={pos_label!r} is not among the labels found, {found})"
        )
    return f"y_true has only one class (no negatives: every label is pos_label={pos_label!r})"


def _seven_measures(y_true: np.ndarray, y_score: np.ndarray, pos_label: Hashable) -> dict[str, float]:
    """:func:`seven_measures` of checked arrays: one :func:`~apples._kernels.ranking.cumulative_counts`, then each
    measure's kernel; a ValueError where ``y_true`` holds one class (every measure but r-precision needs both)."""
    positive = y_true == pos_label
    if positive.all() or not positive.any():
        raise ParameterValueError(f"{_one_class(positive, y_true, pos_label)}; the measure needs both", param="y_true")
    c = cumulative_counts(positive, y_score)
    f1 = tf.f_beta_curve(c, 1.0)  # defined everywhere: the data hold a positive
    mcc = tf.mcc_curve(c)
    mcc = np.where(np.isnan(mcc), 0.0, mcc)  # a constant prediction scores 0 (max_mcc's undefined="zero")
    fpr, kappa = tf.kappa_curve(c)
    values = {
        "max-F1": float(f1[tf.best_index(f1)]),
        "max-MCC": float(mcc[tf.best_index(mcc)]),
        "r-precision": precision_at_k_from_counts(c, c.n_pos, "expected"),
        "AUC": auc_from_counts(c),
        "AP": ap_from_counts(c),
        "AUK": tf.trapezoid(kappa, fpr),
        "H": _h_measure(c),
    }
    return {name: float(values[name]) for name in PARKER_MEASURES}


def _h_measure(c: CumulativeCounts) -> float:
    """Hand's H with the R package's default prior Beta(2, 1 + π0/π1) (:func:`apples.h_measure`), NaN where 0/0."""
    hull = convex_hull(c)
    o = c.with_origin()
    a, b = beta_prior(c.n_pos / (c.n_pos + c.n_neg), None, "severity")
    loss, max_loss = h_losses(o.fp[hull.vertices], o.tp[hull.vertices], hull.cost_low, hull.cost_high, c.n_pos,
                              c.n_neg, a, b)  # fmt: skip
    return h_of_losses(loss, max_loss)


class _SameShape(Relation):
    """The two arrays of measure values have one shape (one value per measure)."""

    names = ("values_a", "values_b")

    def check(self, values: Mapping[str, Any]) -> None:
        a, b = values["values_a"], values["values_b"]
        if a.shape != b.shape:
            raise ValueError(f"values_a and values_b must have the same shape, got {a.shape} and {b.shape}")


class _MeasureValues(Kind):
    """Values of the measures, one per measure: reals, NaN where a measure is undefined; becomes a float array."""

    what = "a real number or an array of real numbers (NaN where a measure is undefined)"

    def check(self, name: str, value: object) -> np.ndarray:
        return check_real_array(name, value, nan_ok=True)


_MEASURE_VALUES = _MeasureValues()


@declare(values_a=_MEASURE_VALUES, values_b=_MEASURE_VALUES, tol=Real(0.0), relations=[_SameShape()])
def measure_preferences(values_a: ArrayLike, values_b: ArrayLike, *, tol: float = 1e-10) -> np.ndarray:
    """+1 where the first value is larger, −1 where smaller, 0 within ``tol`` (a tie), NaN where either is NaN.

    ``tol`` absorbs floating-point round-off only: two classifiers that rank
    the test cases identically get identical values, and two different
    rankings differ by far more (AUC by at least 1/(P·N)).

    Examples
    --------
    >>> from apples.studies.parker import measure_preferences
    >>> measure_preferences([0.5, 0.7, 0.6, float("nan")], [0.6, 0.7 + 1e-13, 0.5, 0.1]).tolist()
    [-1.0, 0.0, 1.0, nan]
    """
    return _preferences(np.asarray(values_a), np.asarray(values_b), tol)


def _preferences(a: np.ndarray, b: np.ndarray, tol: float) -> np.ndarray:
    """:func:`measure_preferences` of checked float arrays."""
    d = a - b
    out = np.where(np.abs(d) <= tol, 0.0, np.sign(d))
    return np.where(np.isnan(d), np.nan, out)


def _run_task(
    dataset: str, representation: str, config: ExperimentConfig
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, Any]]:
    """One (data set, representation) task: every label, every classifier, every pair. Pure, seeded."""
    threadpool_limits = require("threadpoolctl").threadpool_limits
    split = require("sklearn.model_selection").train_test_split
    convergence = require("sklearn.exceptions").ConvergenceWarning
    clock = {"data": 0.0, "represent": 0.0, "fit": 0.0, "measures": 0.0}
    t0 = time.perf_counter()
    measures: list[dict[str, Any]] = []
    comparisons: list[dict[str, Any]] = []
    with threadpool_limits(limits=1), warnings.catch_warnings():
        warnings.simplefilter("ignore", convergence)  # LR and LinearSVC at their default max_iter
        X, y = _load(dataset, config)
        data_seed = _int_seed(_seed(config.seed, dataset, "split"))
        X_train, X_test, y_train, y_test = split(X, y, test_size=0.5, stratify=y, random_state=data_seed)
        t1 = time.perf_counter()
        task_seed = _int_seed(_seed(config.seed, dataset, representation))
        R_train, R_test = _represent(representation, X_train, X_test, task_seed)
        t2 = time.perf_counter()
        clock["data"], clock["represent"] = t1 - t0, t2 - t1
        labels = [1] if dataset.startswith("synthetic-") else sorted(np.unique(y).tolist())
        for label in labels:
            yt, ys = (y_train == label).astype(int), (y_test == label).astype(int)
            rows: dict[str, dict[str, Any]] = {}
            for clf in config.classifiers:
                t3 = time.perf_counter()
                model = _classifier(clf, task_seed).fit(R_train, yt)
                s = _scores(model, R_test)
                t4 = time.perf_counter()
                rows[clf] = {"dataset": dataset, "representation": representation, "label": str(label),
                             "classifier": clf, "n_test": len(ys), "pos_prop": float(ys.mean()),
                             "n_unique": int(np.unique(s).size), **_seven_measures(ys, s, 1)}  # fmt: skip
                clock["fit"] += t4 - t3
                clock["measures"] += time.perf_counter() - t4
            measures += rows.values()
            names = list(config.classifiers)
            for i, a in enumerate(names):
                for b in names[i + 1 :]:
                    ra, rb = rows[a], rows[b]
                    pref = _preferences(np.array([ra[m] for m in PARKER_MEASURES], dtype=float),
                                        np.array([rb[m] for m in PARKER_MEASURES], dtype=float), 1e-10)  # fmt: skip
                    comparisons.append({"dataset": dataset, "representation": representation, "label": str(label),
                                        "pos_prop": ra["pos_prop"], "clf_a": a, "clf_b": b,
                                        "threshold_diff": abs(ra["n_unique"] - rb["n_unique"]) / ra["n_test"],
                                        **dict(zip(PARKER_MEASURES, pref.tolist(), strict=True))})  # fmt: skip
    timing = {"dataset": dataset, "representation": representation, **clock, "total": time.perf_counter() - t0}
    return measures, comparisons, timing


def _with_progress(tqdm: Any, results: Iterator[Any], total: int) -> Iterator[Any]:
    """Yield ``results`` under tqdm's bar (``tqdm.auto``: a widget in a notebook, a line on stderr elsewhere).

    In a notebook the widget is shown with a display id and shown again once the tasks are done, so the
    notebook stores the finished bar (``70/70``) where no kernel runs the widget (the book, a viewer) instead of
    its first state. ``display=False``, ``container`` and ``display_id`` are tqdm's and IPython's documented ways.
    """
    # tasks done out of all, no clock: a stored notebook output shows no timing (it would differ on every run)
    options = {"total": total, "desc": "tasks", "bar_format": "{l_bar}{bar}| {n_fmt}/{total_fmt}"}
    if not any(base.__module__ == "tqdm.notebook" for base in tqdm.__mro__):  # tqdm.auto subclasses it there
        yield from tqdm(results, **options)
        return
    bar = tqdm(display=False, **options)
    handle = require("IPython.display").display(bar.container, display_id=True)
    try:
        for result in results:
            yield result
            bar.update()
    finally:
        bar.close()
        if handle is not None:  # None outside an IPython shell, where display() only prints
            handle.update(bar.container)


@declare(config=Nullable(_CONFIG), n_jobs=Nullable(N_JOBS), progress=FLAG)
def run_experiment(
    config: ExperimentConfig | None = None, *, n_jobs: int | None = None, progress: bool = False
) -> ExperimentResult:
    """Run Parker's comparison experiment (§IV) on ``config``'s tasks through joblib; an :class:`ExperimentResult`.

    Each (data set, representation) task is one ``joblib.delayed`` call, so
    ``n_jobs=2`` uses both cores of a laptop and, without changing this code,
    ``with joblib.parallel_config(backend="dask"):`` (a ``dask.distributed``
    ``Client`` connected to a cluster) or ``backend="ray"`` spreads the tasks
    over a cluster. The result is the same for every backend, task order and
    ``n_jobs`` (module docstring: one seed per task, one BLAS thread per
    task); only ``timings`` differs.

    Parameters
    ----------
    config : ExperimentConfig, optional
        From :func:`experiment_config`; None means ``experiment_config("default")``.
    n_jobs : int, optional
        Workers for joblib; None takes the value of an enclosing
        ``joblib.parallel_config`` (1 without one), -1 means all cores.
    progress : bool, default False
        Show tqdm's progress bar (tasks done out of all) as tasks
        finish: ``tqdm.auto``, a widget in a notebook, a line on stderr
        elsewhere. tqdm comes with the ``notebooks`` extra. The results are the
        same with or without the bar.

    Returns
    -------
    ExperimentResult
        ``measures`` (one row per task, label and classifier), ``comparisons``
        (one row per pair, with the preference of each measure: +1 when
        ``clf_a`` is better, −1 when ``clf_b`` is, 0 for a tie, NaN where the
        measure is undefined), ``timings`` and the ``config``.

    References
    ----------
    Parker (2011) §IV (design), §V (what is counted).
    """
    import pandas as pd

    require("sklearn")  # first: without scikit-learn (the notebooks extra), say so before any task runs
    joblib = require("joblib", extra="notebooks")
    config = _experiment_config("default", {}) if config is None else config
    tasks = _tasks(config)
    calls = (joblib.delayed(_run_task)(d, r, config) for d, r in tasks)
    tqdm = require("tqdm.auto").tqdm if progress else None  # before any task runs, as scikit-learn above
    finished = joblib.Parallel(n_jobs=n_jobs, return_as="generator")(calls)  # in the order of `tasks`
    outputs = list(finished if tqdm is None else _with_progress(tqdm, finished, len(tasks)))
    measures = pd.DataFrame([row for m, _, _ in outputs for row in m])
    comparisons = pd.DataFrame([row for _, c, _ in outputs for row in c])
    timings = pd.DataFrame([t for _, _, t in outputs])
    return ExperimentResult(config, measures, comparisons, timings)
