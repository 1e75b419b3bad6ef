"""User text in plots: escape_mathtext makes matplotlib draw it literally (mathtext and usetex), and the kinds of
``ax`` (AXES, PANEL_AXES) refuse anything but Axes, naming the argument."""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from apples.plotting import escape_mathtext
from apples.plotting.style import AXES, PANEL_AXES

plt = pytest.importorskip("matplotlib.pyplot")
matplotlib = pytest.importorskip("matplotlib")


@given(st.text(alphabet=st.sampled_from("$\\^_{}ab %#&~\n é"), max_size=30))
def test_any_text_is_drawn_as_written(text):
    fig, ax = plt.subplots()
    t = ax.text(0, 0, escape_mathtext(text))
    assert t._preprocess_math(t.get_text()) == (text, False)  # matplotlib's own reading: plain text, as given
    plt.close(fig)


def test_hostile_text_saves_in_titles_labels_and_legends():
    hostile = "$\\input{x}$ x_1^2 \\frac{a}{b} $$ {"
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1], label=escape_mathtext(hostile))
    ax.set(title=escape_mathtext(hostile), xlabel=escape_mathtext(hostile))
    ax.legend()
    fig.savefig(io.BytesIO(), format="png")
    assert ax.get_legend().get_texts()[0]._preprocess_math(escape_mathtext(hostile)) == (hostile, False)
    plt.close(fig)
    with pytest.raises(ValueError):  # what the escaping prevents
        fig, ax = plt.subplots()
        ax.set_title("$\\input{x}$")
        fig.savefig(io.BytesIO(), format="png")
    plt.close("all")


def test_with_usetex_every_latex_special_character_is_escaped():
    with matplotlib.rc_context({"text.usetex": True}):
        got = escape_mathtext("a_b^c $5 & 100% #1 {x} ~ \\")
    assert got == ("a\\_b\\textasciicircum{}c \\$5 \\& 100\\% \\#1 \\{x\\} \\textasciitilde{} \\textbackslash{}")
    assert escape_mathtext(3.5) == "3.5"


def test_axes_kinds():
    fig, (a, b) = plt.subplots(1, 2)
    assert AXES("ax", a) is a
    assert PANEL_AXES("ax", a) is a
    assert PANEL_AXES("ax", (a, b)) == [a, b]
    assert PANEL_AXES("ax", np.array([[a, b]])) == [a, b]
    for kind, bad, message in (
        (AXES, "left", "ax must be a matplotlib Axes"),
        (AXES, [a], "ax must be a matplotlib Axes"),
        (PANEL_AXES, [a, "left"], r"ax\[1\] must be a matplotlib Axes, got str"),
        (PANEL_AXES, "left", "ax must be a matplotlib Axes, or a sequence"),
        (PANEL_AXES, fig, "ax must be a matplotlib Axes, or a sequence"),
    ):
        with pytest.raises(TypeError, match=message) as info:
            kind("ax", bad)
        assert info.value.param == "ax"
    with pytest.raises(ValueError, match="ax is empty") as info:
        PANEL_AXES("ax", [])
    assert info.value.param == "ax"
    plt.close(fig)
