"""codes_of: the sorted distinct values and codes of np.unique(return_inverse=True), for every integer dtype."""

from __future__ import annotations

import numpy as np
import pytest

from apples._kernels.counting import codes_of


@pytest.mark.parametrize(
    "values",
    [
        np.array([7, 3, 7, 5]),
        np.array([-100, 100, -100], dtype=np.int8),  # 200 apart: beyond int8 if subtracted in int8
        np.array([-128, 127, 0], dtype=np.int8),
        np.array([0, 255, 3], dtype=np.uint8),
        np.array([-32768, 32767], dtype=np.int16),
        np.array([2**64 - 1, 2**64 - 3, 2**64 - 1], dtype=np.uint64),  # beyond int64
        np.array([-(2**63), -(2**63) + 5], dtype=np.int64),
        np.array([0, 2**40, 5], dtype=np.int64),  # a wide range: np.unique's path
        np.array(["b", "a", "b"]),
    ],
)
def test_codes_of_equals_numpy_unique(values):
    uniq, codes = codes_of(values)
    expected, inverse = np.unique(values, return_inverse=True)
    assert uniq.tolist() == expected.tolist() and uniq.dtype == values.dtype
    assert codes.tolist() == inverse.reshape(-1).tolist()
