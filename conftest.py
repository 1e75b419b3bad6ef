"""Root pytest configuration, shared by tests/, the doctests in apples/ and nbval.

Figures are drawn off-screen and closed after every test, so a plotting helper
called with ``ax=None`` (which draws on ``plt.gca()``) never lands on axes a
previous test left open.
"""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")
