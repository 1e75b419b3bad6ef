"""The coverage table apples ships (apples.intervals.stored_report_coverage, notebook 11) is what the study computes,
and plot_report_coverage draws a coverage table.

The full grid takes about 25 minutes, so the test recomputes a part of it with the same seeds: setting i of
``report_coverage_study(report_coverage_settings(), n_studies=1000, seed=0)`` draws its study j from
``SeedSequence(0).spawn(72)[i]``'s j-th child, whatever else runs, and a study computes only the measures asked
for (the drawing of its cases does not depend on them). Two cheap binary settings (no training effect, so their
truths are closed forms), restricted to the count measures, all 1,000 studies: every stored row of theirs must
come out again.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from apples.intervals import (
    REPORT_COVERAGE_SETTINGS,
    plot_report_coverage,
    report_coverage_settings,
    stored_report_coverage,
)
from apples.intervals import report_coverage as rc
from apples.theory.cv_truths import truth_table

#: Settings of the default grid recomputed here (rows 0 and 1: π = 0.1, 200 cases, 5 folds, one repeat, τ = 0,
#: unweighted and class-weighted) and the measures recomputed for them.
SETTINGS = (0, 1)
QUANTITIES = ("precision", "accuracy", "mcc")


@pytest.fixture(scope="module")
def stored() -> pd.DataFrame:
    return stored_report_coverage()


def test_the_stored_table_covers_the_default_grid_with_1000_studies_at_95_percent(stored):
    grid = report_coverage_settings()
    settings = stored[list(REPORT_COVERAGE_SETTINGS)].drop_duplicates().reset_index(drop=True)
    assert len(settings) == len(grid) == 72
    for column in REPORT_COVERAGE_SETTINGS:
        assert settings[column].tolist() == grid[column].tolist(), column
    assert set(stored["n_studies"]) == {1000} and set(stored["confidence"]) == {0.95}
    # every value of the report, binary (27 rows per setting) and beyond
    assert stored.groupby("task").size().to_dict() == {"binary": 64 * 27, "multiclass": 4 * 34, "multilabel": 4 * 30}
    # a coverage is a count of studies over the studies with an interval
    with_interval = np.round((1 - stored["no_interval"]) * 1000)
    covered = stored["coverage"] * with_interval
    ok = stored["coverage"].notna()
    np.testing.assert_allclose(covered[ok], np.round(covered[ok]), atol=1e-9)
    # averaged H never has an interval, as the report says
    h = stored[(stored["quantity"] == "h_measure") & (stored["aggregation"] == "avg")]
    assert (h["no_interval"] == 1.0).all() and h["coverage"].isna().all()
    # and its reason's evidence: the folds' mean H is above its truth in every binary setting
    assert (h.loc[h["task"] == "binary", "bias"] > 0).all()


@pytest.mark.parametrize("index", SETTINGS)
def test_stored_rows_are_recomputed_with_the_same_seeds(stored, index):
    grid = report_coverage_settings()
    setting = rc._check_settings("settings", grid.iloc[[index]])[0]
    truths = truth_table(*rc._truth_key(setting))
    truths = truths[truths["quantity"].isin(QUANTITIES)].reset_index(drop=True)
    seed = np.random.SeedSequence(0).spawn(len(grid))[index]
    runs = rc._chunk(setting, truths, 0.95, seed, range(1000))
    mine = rc._summary(setting, truths, runs, 0.95)

    keys = [*REPORT_COVERAGE_SETTINGS, "quantity", "average", "aggregation"]
    at = stored.set_index(keys).index.get_indexer(mine.set_index(keys).index)
    assert (at >= 0).all()
    theirs = stored.iloc[at].reset_index(drop=True)
    assert theirs[keys].astype(str).equals(mine[keys].astype(str))
    for frame in (theirs, mine):  # shares of studies as counts of studies
        frame["with_interval"] = np.round((1 - frame["no_interval"]) * 1000)
        for column in ("coverage", "miss_low", "miss_high"):
            frame[f"n_{column}"] = np.round(frame[column].fillna(0) * frame["with_interval"])
    for column in ("with_interval", "n_coverage", "n_miss_low", "n_miss_high"):  # exactly the same
        np.testing.assert_array_equal(theirs[column], mine[column], err_msg=column)
    floats = [c for c in mine.columns if c not in keys and not c.startswith(("n_", "with_"))]
    pd.testing.assert_frame_equal(
        theirs[floats], mine[floats], check_dtype=False, check_exact=False, rtol=1e-12, atol=1e-15
    )


def test_plot_report_coverage_draws_each_setting_on_its_values_row():
    """A point per setting at its coverage on its value's row, one colour per τ; a value without any interval is
    labelled so and has no point; user text is not read as mathtext; bad tables and levels refused by name."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    table = pd.DataFrame(
        {
            "quantity": ["f_measure", "h_measure", "my $measure$", "f_measure", "h_measure", "my $measure$"],
            "average": ["", "", "", "", "", ""],
            "aggregation": ["tp_fp", "avg", "pooled", "tp_fp", "avg", "pooled"],
            "training_sd": [0.0, 0.0, 0.0, 0.5, 0.5, 0.5],
            "coverage": [0.97, np.nan, 0.9, 0.95, np.nan, 0.875],
        }
    )
    fig, ax = plt.subplots()
    assert plot_report_coverage(table, ax=ax) is ax
    points = {line.get_label(): line.get_xydata() for line in ax.lines if line.get_marker() == "o"}
    assert sorted(points) == ["τ = 0", "τ = 0.5"]
    assert points["τ = 0"][:, 0].tolist() == [0.97, 0.9] and points["τ = 0.5"][:, 0].tolist() == [0.95, 0.875]
    assert np.round(points["τ = 0"][:, 1]).tolist() == [0, 2] and np.round(points["τ = 0.5"][:, 1]).tolist() == [0, 2]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["f_measure tp_fp", "h_measure avg (no interval)", "my $measure$ pooled"]
    assert not any(t.get_parse_math() for t in ax.get_yticklabels())
    with pytest.raises(ValueError, match="table lacks the column"):
        plot_report_coverage(table.drop(columns="training_sd"), ax=ax)
    with pytest.raises(ValueError, match="nominal"):
        plot_report_coverage(table, ax=ax, nominal=1.5)
    plt.close(fig)
