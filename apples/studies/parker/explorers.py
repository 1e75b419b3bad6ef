"""Interactive explorer of the Parker (2011) study (notebook 08); needs a running kernel and ipywidgets."""

from __future__ import annotations

import warnings
from typing import Any, NamedTuple

from scipy import integrate

from apples._optional import require
from apples._params import FLAG, Real, declare
from apples.plotting import EXPLORER_NOTE, explorer_mimebundle
from apples.studies.parker.comparison import _N_GRID, _comparison
from apples.studies.parker.figures import _plot_comparison
from apples.theory.binormal import Binormal

__all__ = [
    "IncoherenceExplorer",
    "incoherence_explorer",
]


class IncoherenceExplorer(NamedTuple):
    """The explorer widget and its parts (so tests can set values and read results)."""

    widget: Any  #: the ipywidgets.VBox to display
    controls: dict[str, Any]  #: slider name -> ipywidgets slider
    table: Any  #: ipywidgets.HTML holding the measures table
    plot: Any  #: ipywidgets.Output holding the figure
    n_grid: int = 99  #: the cost grid the figure is drawn on

    def snapshot(self) -> Any:
        """The explorer's figure at the current slider values, as a matplotlib Figure."""
        v = {k: s.value for k, s in self.controls.items()}
        a = Binormal(mu_pos=v["mu_a"], sd_pos=v["sd_a"], pi_pos=v["pi_pos"])
        b = Binormal(mu_pos=v["mu_b"], sd_pos=v["sd_b"], pi_pos=v["pi_pos"])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", integrate.IntegrationWarning)  # explained in the live table
            r = _comparison(a, b, self.n_grid)
        return _plot_comparison(r, a, b, None)

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        return explorer_mimebundle(self.widget, self.snapshot)

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        # IPython pretty-prints a tuple (this NamedTuple) itself; without this its text/plain would be the
        # repr of every control and array instead of EXPLORER_NOTE.
        p.text(EXPLORER_NOTE)


#: The sliders' ranges: the positives' mean and spread of A and B, the shared class proportion.
_RANGES = {"mu_a": (0.0, 3.0), "sd_a": (0.8, 1.2), "mu_b": (0.0, 3.0), "sd_b": (0.8, 1.2), "pi_pos": (0.05, 0.95)}


@declare(
    mu_a=Real(*_RANGES["mu_a"]),
    sd_a=Real(*_RANGES["sd_a"]),
    mu_b=Real(*_RANGES["mu_b"]),
    sd_b=Real(*_RANGES["sd_b"]),
    pi_pos=Real(*_RANGES["pi_pos"]),
    n_grid=_N_GRID,
    continuous_update=FLAG,
)
def incoherence_explorer(
    *,
    mu_a: float = 1.0,
    sd_a: float = 1.0,
    mu_b: float = 1.6,
    sd_b: float = 0.8,
    pi_pos: float = 0.3,
    n_grid: int = 99,
    continuous_update: bool = False,
) -> IncoherenceExplorer:
    """Two binormal classifiers (negatives N(0, 1), positives N(mu, sd²)) on the same data.

    Sliders: the positives' mean and spread of A and B and the shared class
    proportion. Shows the measures table (:func:`incoherence_comparison`) in an
    HTML widget and :func:`plot_incoherence_comparison` in an Output widget. The spreads
    are kept in [0.8, 1.2] so that every implied weighting has finite mass
    (for sd_neg² > 2·sd_pos² the AUK's W_m is not integrable in the tail).
    A starting value outside its slider's range is refused (a slider would
    silently clamp it).
    """
    w = require("ipywidgets")
    plt = require("matplotlib.pyplot")

    def slider(value: float, lo: float, hi: float, step: float, desc: str) -> Any:
        return w.FloatSlider(
            value=value,
            min=lo,
            max=hi,
            step=step,
            description=desc,
            continuous_update=continuous_update,
            readout_format=".2f",
        )

    controls = {
        "mu_a": slider(mu_a, *_RANGES["mu_a"], 0.05, "A: mean"),
        "sd_a": slider(sd_a, *_RANGES["sd_a"], 0.05, "A: spread"),
        "mu_b": slider(mu_b, *_RANGES["mu_b"], 0.05, "B: mean"),
        "sd_b": slider(sd_b, *_RANGES["sd_b"], 0.05, "B: spread"),
        "pi_pos": slider(pi_pos, *_RANGES["pi_pos"], 0.05, "π₀ (pos.)"),
    }
    table = w.HTML()
    plot = w.Output()

    def models() -> tuple[Binormal, Binormal]:
        v = {k: s.value for k, s in controls.items()}
        return (
            Binormal(mu_pos=v["mu_a"], sd_pos=v["sd_a"], pi_pos=v["pi_pos"]),
            Binormal(mu_pos=v["mu_b"], sd_pos=v["sd_b"], pi_pos=v["pi_pos"]),
        )

    def update(_: object = None) -> None:
        a, b = models()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", integrate.IntegrationWarning)
            r = _comparison(a, b, n_grid)
        notes = []
        for name, m in (("A", a), ("B", b)):
            if m.mu_pos == m.mu_neg and m.sd_pos == m.sd_neg:
                notes.append(
                    f"{name} is a random classifier: every threshold implies the same cost "
                    f"c = π₁ = {m.pi_neg:.2f}, a point mass with no density to draw."
                )
        if any(issubclass(x.category, integrate.IntegrationWarning) for x in caught):
            notes.append(
                "scipy's quadrature could not reach its very tight tolerance (1e-14) here, "
                "usually while normalising an implied cost density; the result is typically "
                "still good to ~1e-9, far below what the plot can show."
            )
        table.value = r.table.to_html(float_format=lambda x: f"{x:.4f}") + "".join(f"<p><i>{n}</i></p>" for n in notes)
        plot.clear_output(wait=True)
        with plot:
            _fig, axes = plt.subplots(1, 2, figsize=(12, 4))
            _plot_comparison(r, a, b, axes)
            plt.show()

    for s in controls.values():
        s.observe(update, names="value")
    update()
    box = w.VBox(
        [
            w.HBox(
                [
                    w.VBox([controls["mu_a"], controls["sd_a"]]),
                    w.VBox([controls["mu_b"], controls["sd_b"]]),
                    controls["pi_pos"],
                ]
            ),
            table,
            plot,
        ]
    )
    return IncoherenceExplorer(box, controls, table, plot, n_grid)
