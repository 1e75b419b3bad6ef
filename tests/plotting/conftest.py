"""Cross-validated predictions on real data, made once per session by apples.cross_val_predictions: breast cancer
(binary, weighted) under RepeatedStratifiedKFold 10 × 3 and ShuffleSplit, iris (three string labels, weighted)
under RepeatedStratifiedKFold 5 × 2, and a make_multilabel_classification task under RepeatedKFold 4 × 2."""

from __future__ import annotations

import numpy as np
import pytest

import apples


def _models():
    pytest.importorskip("sklearn")
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(max_iter=2000)


@pytest.fixture(scope="session")
def cancer():
    """Standardised breast-cancer features, 0/1 labels and weights (every 50th case weighs 0)."""
    pytest.importorskip("sklearn")
    from sklearn.datasets import load_breast_cancer
    from sklearn.preprocessing import StandardScaler

    X, y = load_breast_cancer(return_X_y=True)
    w = np.random.default_rng(0).uniform(0.2, 3.0, y.size)
    w[::50] = 0.0
    return StandardScaler().fit_transform(X), y, w


@pytest.fixture(scope="session")
def cancer_repeated(cancer):
    """Weighted binary predictions, RepeatedStratifiedKFold(10 folds × 3 repeats): 30 folds."""
    from sklearn.model_selection import RepeatedStratifiedKFold

    X, y, w = cancer
    cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=3, random_state=0)
    return apples.cross_val_predictions(_models(), X, y, cv=cv, params={"sample_weight": w})


@pytest.fixture(scope="session")
def cancer_holdout(cancer):
    """Weighted binary predictions on 4 ShuffleSplit test sets (one repeat each)."""
    from sklearn.model_selection import ShuffleSplit

    X, y, w = cancer
    cv = ShuffleSplit(n_splits=4, test_size=0.3, random_state=0)
    return apples.cross_val_predictions(_models(), X, y, cv=cv, params={"sample_weight": w})


@pytest.fixture(scope="session")
def iris_repeated():
    """Weighted three-class predictions with string labels, RepeatedStratifiedKFold(5 × 2)."""
    pytest.importorskip("sklearn")
    from sklearn.datasets import load_iris
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import RepeatedStratifiedKFold
    from sklearn.preprocessing import StandardScaler

    data = load_iris()
    X, y = StandardScaler().fit_transform(data.data), data.target_names[data.target]
    w = np.random.default_rng(1).uniform(0.5, 2.0, y.size)
    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0)
    model = LogisticRegression(C=0.1, max_iter=2000)  # regularised: curves short of perfect, fitted fast
    return apples.cross_val_predictions(model, X, y, cv=cv, params={"sample_weight": w})


@pytest.fixture(scope="session")
def multilabel_repeated():
    """Multi-label predictions (three labels, one probability column each), RepeatedKFold(4 × 2)."""
    pytest.importorskip("sklearn")
    from sklearn.datasets import make_multilabel_classification
    from sklearn.model_selection import RepeatedKFold
    from sklearn.multioutput import MultiOutputClassifier
    from sklearn.naive_bayes import GaussianNB

    X, Y = make_multilabel_classification(n_samples=300, n_features=8, n_classes=3, random_state=1)
    cv = RepeatedKFold(n_splits=4, n_repeats=2, random_state=0)
    return apples.cross_val_predictions(MultiOutputClassifier(GaussianNB()), X, Y, cv=cv)
