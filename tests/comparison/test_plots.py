"""Demšar's critical-difference diagram with hostile model names: drawn literally, saved as PNG; ``ax`` refused
unless a matplotlib Axes, naming it."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from apples.comparison import nemenyi, plot_critical_difference

plt = pytest.importorskip("matplotlib.pyplot")

HOSTILE = [
    "$\\input{x}$",  # mathtext: matplotlib's parser stops savefig with a ParseFatalException
    "a_b^c $x$ \\alpha",
    "ünïcødé ✓ — naïve",
    "very long model name " * 8,
    "$",
    "$$",
    "100% {braces} #hash & amp ~tilde",
]


def _scores(names, seed=0):
    rng = np.random.default_rng(seed)
    values = rng.random((len(names), 9)) + np.linspace(0.4, 0, len(names))[:, None]
    return pd.DataFrame(values, index=names, columns=[f"d{j}" for j in range(9)])


def test_hostile_model_names_are_drawn_as_written_and_the_figure_saves():
    table = _scores(HOSTILE)
    fig, ax = plt.subplots()
    assert plot_critical_difference(table, ax=ax) is ax
    fig.savefig(io.BytesIO(), format="png")  # raised ParseFatalException for "$\input{x}$" before
    ranks = nemenyi(table).average_ranks
    drawn = {}
    for t in ax.texts:
        text, math = t._preprocess_math(t.get_text())  # what matplotlib draws, and whether as mathtext
        assert math is False, t.get_text()
        drawn[text] = t
    for name in HOSTILE:  # each name exactly as given, with its average rank
        assert f"{name} ({ranks[name]:.2f})" in drawn, name
    plt.close(fig)


def test_duplicate_names_are_refused_naming_scores():
    with pytest.raises(ValueError, match="names a model twice") as info:
        plot_critical_difference(_scores(["$a$", "$a$", "b"]))
    assert info.value.param == "scores"


@pytest.mark.parametrize("bad", ["left", 0, [None], object()])
def test_ax_that_is_not_an_axes_is_refused_naming_ax(bad):
    before = plt.get_fignums()
    with pytest.raises(TypeError, match="ax must be a matplotlib Axes") as info:
        plot_critical_difference(_scores(["a", "b", "c"]), ax=bad)
    assert info.value.param == "ax"
    assert plt.get_fignums() == before  # refused before anything is drawn


def test_a_list_of_axes_is_not_one_axes():
    fig, axes = plt.subplots(1, 2)
    with pytest.raises(TypeError, match="ax must be a matplotlib Axes") as info:
        plot_critical_difference(_scores(["a", "b", "c"]), ax=list(axes))
    assert info.value.param == "ax"
    plt.close(fig)


def test_the_rank_axis_is_labelled_left_of_rank_one():
    """The axis of average ranks has a label (1 = best), drawn on the row of the tick numbers, left of the first."""
    fig, ax = plt.subplots()
    plot_critical_difference(_scores(["a", "b", "c"]), ax=ax)
    label = next(t for t in ax.texts if t.get_text() == "average rank (1 = best)")
    one = next(t for t in ax.texts if t.get_text() == "1")
    assert label.get_position()[1] == one.get_position()[1] and label.get_position()[0] < 1
    assert label.get_horizontalalignment() == "right"
    plt.close(fig)


def test_clique_bars_end_at_their_models_ranks_and_do_not_touch():
    """Demšar's Figure 1 joins models no Nemenyi test separates. Ranks 1, 2.25, 2.75 over 4 data sets (CD = 1.657 at
    α = 0.05, q = 2.343 from Demšar's Table 5a): two groups, {1st, 2nd} and {2nd, 3rd}, which share the 2nd model.
    Each bar must run exactly from its first to its last model's rank, and the two bars must sit on distinct rows
    far enough apart (more than twice their thickness) not to read as one bar from 1 to 2.75."""
    scores = pd.DataFrame(  # ranks per data set: a (1, 1, 1, 1), b (2, 3, 2, 2), c (3, 2, 3, 3)
        [[0.9, 0.9, 0.9, 0.9], [0.8, 0.6, 0.8, 0.8], [0.7, 0.7, 0.7, 0.7]], index=["a", "b", "c"]
    )
    fig, ax = plt.subplots()
    plot_critical_difference(scores, ax=ax)
    fig.canvas.draw()
    bars = [c for c in ax.collections if max(c.get_linewidths()) == 3]
    segments = sorted((tuple(s[0]), tuple(s[1])) for c in bars for s in c.get_segments())
    assert [(round(s[0][0], 12), round(s[1][0], 12)) for s in segments] == [(1.0, 2.25), (2.25, 2.75)]
    y = [s[0][1] for s in segments]
    pixels = abs(ax.transData.transform((0, y[0]))[1] - ax.transData.transform((0, y[1]))[1])
    thickness = 3 * fig.dpi / 72  # a 3-point line in pixels
    assert pixels > 2 * thickness
    assert all(c.get_capstyle() == "butt" for c in bars)  # no cap drawn past a model's rank
    plt.close(fig)


def test_each_label_starts_a_gap_beyond_its_connector():
    """Ranks 1, 2.25, 2.75 over 4 data sets: "c (2.75)" on the right and "a (1.00)" on the left must not run into
    the line that leads to them; each label's near edge lies at least 2 pixels past its connector's end."""
    scores = pd.DataFrame([[0.9, 0.9, 0.9, 0.9], [0.8, 0.6, 0.8, 0.8], [0.7, 0.7, 0.7, 0.7]], index=["a", "b", "c"])
    fig, ax = plt.subplots()
    plot_critical_difference(scores, ax=ax)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    connectors = [line.get_xydata() for line in ax.lines]
    for label in ("a (1.00)", "b (2.25)", "c (2.75)"):
        text = next(t for t in ax.texts if t.get_text() == label)
        box = text.get_window_extent(renderer)
        y = text.get_position()[1]
        end = next(xy[-1] for xy in connectors if xy[-1][1] == y)  # the connector ending at the label's height
        end_px = ax.transData.transform(end)[0]
        gap = box.x0 - end_px if text.get_ha() == "left" else end_px - box.x1
        assert gap >= 2, (label, gap)
    plt.close(fig)
