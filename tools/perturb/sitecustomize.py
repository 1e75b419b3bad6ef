"""Perturb what every scikit-learn estimator reads, to find printed values that hang on a CPU's last bits.

Python imports this module at start-up when its folder is on ``PYTHONPATH``, and so does every process
started from there (notebook kernels, joblib workers). With ``APPLES_PERTURB=<relative size>`` set,
``sklearn.utils.validation.validate_data``, the one function through which every estimator's ``fit``,
``predict``, ``predict_proba``, ``decision_function`` and ``transform`` take their ``X``, returns
``X·(1 + size·e)``, ``e`` standard normal from a generator seeded by the bytes of ``X`` (the same input is
perturbed the same way in every process and every order). It is wrapped as ``sklearn.utils.validation`` is
imported, before any estimator module binds the name.

A trained model's last bits depend on the CPU: the BLAS kernels OpenBLAS picks for it move the fitted
coefficients, numpy's SIMD ``exp`` and ``log`` move the probabilities and whether two of them tie. A
relative change of 1e-12 in the inputs moves them as much (on an AVX2 machine, it changes every checked
output that an AVX-512 machine printed differently before the rule of CONTRIBUTING.md, "Checked outputs").
A checked notebook output that changes under it would change on another CPU. Values computed without a
trained model (integer counts, closed forms, seeded simulations) never pass through ``validate_data``.
"""

from __future__ import annotations

import functools
import importlib.abc
import importlib.util
import os
import sys
import zlib

_SIZE = float(os.environ.get("APPLES_PERTURB", "0") or 0)
_TARGET = "sklearn.utils.validation"


def _perturb(x):
    import numpy as np

    if not isinstance(x, np.ndarray) or x.dtype.kind != "f" or x.size == 0:
        return x
    rng = np.random.default_rng(zlib.crc32(np.ascontiguousarray(x).tobytes()))
    return (x * (1.0 + _SIZE * rng.standard_normal(x.shape))).astype(x.dtype, copy=False)


def _patch(module) -> None:
    original = module.validate_data

    @functools.wraps(original)
    def validate_data(_estimator, /, X="no_validation", y="no_validation", **kwargs):
        out = original(_estimator, X, y, **kwargs)
        if isinstance(X, str):  # only y was validated
            return out
        return (_perturb(out[0]), *out[1:]) if isinstance(out, tuple) else _perturb(out)

    module.validate_data = validate_data


class _PatchOnImport(importlib.abc.MetaPathFinder):
    """Wraps ``validate_data`` as soon as its module has run, before any estimator imports it."""

    def find_spec(self, name, path, target=None):
        if name != _TARGET:
            return None
        sys.meta_path.remove(self)
        try:
            spec = importlib.util.find_spec(name)
        finally:
            sys.meta_path.insert(0, self)
        if spec is None or spec.loader is None:
            return spec
        exec_module = spec.loader.exec_module

        def exec_and_patch(module):
            exec_module(module)
            _patch(module)

        spec.loader.exec_module = exec_and_patch  # type: ignore[method-assign]
        return spec


if _SIZE:
    sys.meta_path.insert(0, _PatchOnImport())
