"""Optional dependencies, imported only by the functions that need them.

The metric code needs numpy, scipy and pandas only (``pip install apples``).
Plotting helpers and :func:`apples.set_style` need matplotlib, the explorers
ipywidgets, and the few helpers that fit models or load bundled data
scikit-learn; all three come with the ``notebooks`` extra
(``pip install "apples[notebooks]"``). Such a function calls :func:`require`
when it is called, never at module level, so ``import apples`` works without
them (``tests/test_core_install.py`` checks both).
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = [
    "OPTIONAL_PACKAGES",
    "require",
]

#: Top-level import name of each optional package -> the name pip installs it under.
OPTIONAL_PACKAGES = {"matplotlib": "matplotlib", "ipywidgets": "ipywidgets", "sklearn": "scikit-learn"}


def require(module_name: str, extra: str = "notebooks") -> ModuleType:
    """Import ``module_name`` (e.g. ``"matplotlib.pyplot"``); if its package is missing, say how to install it.

    Parameters
    ----------
    module_name : str
        A module of an optional package, dotted as in an import statement.
    extra : str, default "notebooks"
        The extra of apples that installs the package.

    Returns
    -------
    module

    Raises
    ------
    ModuleNotFoundError
        When the package is not installed, naming it and the extra to install
        (``pip install "apples[notebooks]"``). An ImportError from inside an
        installed package (a broken install) is raised as it is.

    Examples
    --------
    >>> require("numpy.linalg").__name__
    'numpy.linalg'
    """
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        top = module_name.partition(".")[0]
        if err.name is None or err.name.partition(".")[0] != top:
            raise  # the package is there but something it imports is not
        package = OPTIONAL_PACKAGES.get(top, top)
        raise ModuleNotFoundError(
            f"this function of apples needs {package}, which is not installed (the core install has numpy, "
            f'scipy and pandas only); install the {extra} extra: pip install "apples[{extra}]" '
            f"(or pip install {package})",
            name=top,
        ) from err
