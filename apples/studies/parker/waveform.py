"""Breiman's waveform data (CART book §2.6.2), one of the data sets of Parker (2011) §IV, Table I.

Three base waveforms on 21 points are triangles of height 6, centred at
points 11, 15 and 7:

    h1(i) = max(6 − |i − 11|, 0),   h2(i) = h1(i − 4),   h3(i) = h1(i + 4),   i = 1, ..., 21.

A case of class 1, 2 or 3 (drawn with probability 1/3 each) is a random
convex combination of two of them plus N(0, 1) noise on every attribute,
with u ~ U(0, 1) drawn once per case:

    class 1: x = u·h1 + (1 − u)·h2 + ε,   class 2: x = u·h1 + (1 − u)·h3 + ε,   class 3: x = u·h2 + (1 − u)·h3 + ε.

The UCI "waveform-5000 with noise" variant appends 19 attributes of pure
N(0, 1) noise (40 attributes), the version in Parker's Table I. Labels are
returned as 0, 1, 2 (classes 1, 2, 3).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from apples._params import (
    FLAG,
    SEED,
    Integer,
    ParameterTypeError,
    Relation,
    check_table_size,
    declare,
    exempt,
)

__all__ = [
    "WAVEFORM_NOISE_FEATURES",
    "make_waveform",
    "waveform_bases",
]

#: Number of pure-noise attributes of the noise variant (UCI waveform-5000 with noise: 21 + 19 = 40).
WAVEFORM_NOISE_FEATURES = 19

#: Which two base waveforms (indices into :func:`waveform_bases`) each class mixes, as (weight u, weight 1 − u).
_CLASS_BASES = ((0, 1), (0, 2), (1, 2))

_SEED_REQUIRED = "seed is required (a non-negative int or a numpy.random.Generator): draws must be reproducible"


class _WaveformTable(Relation):
    """The cases fit in memory: the float64 cells of each case at the peak, up to the limit of ``check_table_size``."""

    names = ("n_samples", "noise_features")

    def check(self, values: Mapping[str, Any]) -> None:
        n_samples = values["n_samples"]
        check_table_size(
            f"{n_samples:,} waveform cases",
            8 * _cells(values.get("noise_features", False)) * n_samples,
            reduce="n_samples",
        )


def _cells(noise_features: bool) -> int:
    """float64 cells per case at the peak: the noise, two weighted bases, their sum (21 each), the class pairs
    and weights; with noise attributes their 19 and the stacked 40 columns too."""
    return 4 * 21 + 4 + (19 + 40 if noise_features else 0)


@exempt("takes no arguments")
def waveform_bases() -> np.ndarray:
    """The three base waveforms h1, h2, h3 of the CART book on the points i = 1, ..., 21, shape (3, 21).

    Returns
    -------
    numpy.ndarray of shape (3, 21)
        Row k is h_{k+1}: triangles of height 6 with peaks at points 11, 15 and 7.

    References
    ----------
    Breiman, Friedman, Olshen & Stone (1984), *Classification and Regression
    Trees*, §2.6.2; Parker (2011) §IV (Table I, "Waveform").

    Examples
    --------
    >>> from apples.studies.parker import waveform_bases
    >>> h = waveform_bases()
    >>> h.shape, (h.argmax(axis=1) + 1).tolist(), float(h.max())
    ((3, 21), [11, 15, 7], 6.0)
    """
    return _bases()


@declare(n_samples=Integer(1, None), noise_features=FLAG, seed=SEED, relations=[_WaveformTable()])
def make_waveform(
    n_samples: int, *, noise_features: bool = False, seed: int | np.random.Generator | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Draw Breiman's waveform data: 3 classes, 21 attributes (40 with the noise attributes).

    Each case draws its class uniformly from {0, 1, 2}, a mixing weight
    u ~ U(0, 1) and 21 N(0, 1) noise values, and is u·h_a + (1 − u)·h_b + ε
    for its class's pair (a, b) of base waveforms (see the module docstring
    and :func:`waveform_bases`). With ``noise_features`` 19 further N(0, 1)
    attributes are appended.

    Parameters
    ----------
    n_samples : int
        Number of cases, at least 1.
    noise_features : bool, default False
        Append the 19 pure-noise attributes (the UCI "waveform-5000 with
        noise" version used by Parker).
    seed : int or numpy.random.Generator
        Required. Draws come only from ``numpy.random.default_rng(seed)``; the
        default ``None`` (like any value that is not a seed) is refused with a
        TypeError, so that every data set can be drawn again.

    Returns
    -------
    X : numpy.ndarray of shape (n_samples, 21) or (n_samples, 40)
    y : numpy.ndarray of shape (n_samples,)
        Class labels 0, 1, 2 (the book's classes 1, 2, 3).

    References
    ----------
    Breiman et al. (1984) §2.6.2; UCI "Waveform Database Generator
    (Version 2)"; Parker (2011) §IV, Table I.

    Examples
    --------
    >>> from apples.studies.parker import make_waveform
    >>> X, y = make_waveform(6, noise_features=True, seed=0)
    >>> X.shape, sorted(set(y.tolist())) <= [0, 1, 2]
    ((6, 40), True)
    >>> try:
    ...     make_waveform(6)
    ... except TypeError as err:
    ...     print(err)
    seed is required (a non-negative int or a numpy.random.Generator): draws must be reproducible
    """
    if seed is None:
        raise ParameterTypeError(_SEED_REQUIRED, param="seed")
    return _make_waveform(n_samples, noise_features, np.random.default_rng(seed))


def _bases() -> np.ndarray:
    """h1, h2, h3 on the points 1, ..., 21 (:func:`waveform_bases`)."""
    i = np.arange(1, 22, dtype=float)
    h1 = np.maximum(6.0 - np.abs(i - 11.0), 0.0)
    h2 = np.maximum(6.0 - np.abs(i - 15.0), 0.0)  # h1(i - 4)
    h3 = np.maximum(6.0 - np.abs(i - 7.0), 0.0)  # h1(i + 4)
    return np.vstack([h1, h2, h3])


def _make_waveform(n_samples: int, noise_features: bool, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The draws of :func:`make_waveform` from ``rng`` (the experiment passes one seeded per data set)."""
    bases = _bases()
    y = rng.integers(0, 3, size=n_samples)
    u = rng.uniform(0.0, 1.0, size=n_samples)
    noise = rng.standard_normal((n_samples, bases.shape[1]))
    pairs = np.array(_CLASS_BASES)[y]  # (n, 2): the two base waveforms of each case's class
    X = u[:, None] * bases[pairs[:, 0]] + (1.0 - u)[:, None] * bases[pairs[:, 1]] + noise
    if noise_features:
        X = np.hstack([X, rng.standard_normal((n_samples, WAVEFORM_NOISE_FEATURES))])
    return X, y.astype(np.int64)
