"""How many bootstrap resamples a percentile interval needs: the floor below which it is refused, and the
number below which it is warned about.

A percentile interval at confidence c has the α/2 and 1 − α/2 quantiles of B resamples as its ends
(α = 1 − c; Efron & Tibshirani 1993, §13.3). With B·α < 1 not even one resample is expected outside
the interval: its ends are the extremes of the resamples, not percentiles (B = 1 gives a point). That
is refused. Above it, the ends are still order statistics of a few resamples in each tail, and move
with the seed: E&T §13.3 ask for B ≥ 1,000 for percentile intervals (against 25 to 200 for a
standard error, §6.4). Fewer than :data:`RECOMMENDED_RESAMPLES` are warned about.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

from apples._params import ParameterValueError, Relation

__all__: list[str] = []

#: Fewer resamples than this give a warning: percentile interval ends are too coarse (Efron & Tibshirani 1993 §13.3).
RECOMMENDED_RESAMPLES = 1_000


def fewest_resamples(confidence: float) -> int:
    """The fewest resamples a percentile interval at ``confidence`` takes: one expected outside it, B·α ≥ 1."""
    alpha = 1.0 - confidence
    b = int(1.0 / alpha)
    return b if b * alpha >= 1.0 - 1e-9 else b + 1


class EnoughResamples(Relation):
    """``n_resamples`` is at least :func:`fewest_resamples` of ``confidence`` (refused below), and a warning
    below :data:`RECOMMENDED_RESAMPLES`. With a ``method`` argument, only for ``method="bootstrap"``."""

    def __init__(self, *, method: bool = False) -> None:
        self.names = ("n_resamples", "confidence", "method") if method else ("n_resamples", "confidence")

    def check(self, values: Mapping[str, Any]) -> None:
        n, confidence = values.get("n_resamples"), values.get("confidence")
        if n is None or confidence is None or values.get("method", "bootstrap") != "bootstrap":
            return
        floor = fewest_resamples(confidence)
        if n < floor:
            raise ParameterValueError(
                f"n_resamples={n:,} is too few for a {confidence:.4g} percentile interval: its ends are the "
                f"{(1 - confidence) / 2:.4g} and {(1 + confidence) / 2:.4g} quantiles of the resamples, and fewer than "
                f"{floor:,} leave none outside it (the interval would be the resamples' range; 1 gives a point). "
                f"Give at least {floor:,}, and {RECOMMENDED_RESAMPLES:,} or more for ends that do not move with the "
                "seed (Efron & Tibshirani 1993, §13.3)",
                param="n_resamples",
            )
        if n < RECOMMENDED_RESAMPLES:
            warnings.warn(
                f"n_resamples={n:,}: the ends of a percentile bootstrap interval from fewer than "
                f"{RECOMMENDED_RESAMPLES:,} resamples are coarse and move with the seed (Efron & Tibshirani 1993, "
                f"§13.3); use {RECOMMENDED_RESAMPLES:,} or more",
                UserWarning,
                stacklevel=4,  # the caller of the public function (through Relation.__call__ and the declaration)
            )
