"""The shared checks in apples._params: what each accepts and what it names."""

import numpy as np
import pandas as pd
import pytest

from apples import Counts
from apples._params import check_labels_1d, check_pos_label, label_kind


def test_nan_among_string_labels_is_reported_as_missing_not_as_a_type_mix():
    # numpy would store ["a", nan] as the strings "a" and "nan"
    with pytest.raises(ValueError, match=r"y_true contains a missing value \(nan\) at position 1"):
        check_labels_1d("y_true", ["a", float("nan")])


def test_pd_na_in_a_nullable_column_is_a_missing_value():
    with pytest.raises(ValueError, match="y_pred contains a missing value"):
        check_labels_1d("y_pred", pd.Series([1, pd.NA, 0], dtype="Int64"))


def test_datetime_labels_accept_a_datetime_positive_label():
    days = np.array(["2020-01-01", "2020-01-02", "2020-01-01"], dtype="datetime64[D]")
    arr = check_labels_1d("y_true", days)
    assert label_kind(arr) == "datetime"
    check_pos_label(np.datetime64("2020-01-01", "D"), np.unique(arr))  # no error
    with pytest.raises(TypeError, match="pos_label=1 is a number"):
        check_pos_label(1, np.unique(arr))
    counts = Counts.from_labels(days, days[::-1], pos_label=np.datetime64("2020-01-01", "D"))
    assert counts == Counts(tp=2, fp=0, fn=0, tn=1)


def test_timedelta_labels_are_not_numbers():
    gaps = check_labels_1d("y_true", np.array([1, 2], dtype="timedelta64[s]"))
    assert label_kind(gaps) == "timedelta"


def test_a_huge_count_is_refused_without_printing_or_converting_it():
    # str() of an integer above 4300 digits itself raises in Python >= 3.11; the message must not need it
    for value in (10**400, 10**5000):
        with pytest.raises(ValueError, match=r"tp=<an integer of about \d+ digits> is larger than 2\*\*53"):
            Counts(value, 1, 0)
    with pytest.raises(ValueError, match=r"tp=9007199254740993 is larger than 2\*\*53"):
        Counts(2**53 + 1, 1, 0)


def test_no_private_name_is_imported_across_modules():
    """A helper another module of the library needs is a kernel (apples._kernels), a kind (apples._params) or a
    documented function; a private name never crosses a module boundary. A study package is one unit: its
    modules share the study's private helpers (its public names are those its ``__init__`` exports), but
    never import another package's private names."""
    import ast
    from pathlib import Path

    package = Path(__file__).resolve().parents[2] / "apples"
    found = []
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        study = ".".join(parts[:3]) if parts[:2] == ("apples", "studies") and len(parts) > 3 else None
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level == 0 and not (node.module or "").startswith("apples"):
                continue
            if study is not None and (node.level > 0 or (node.module or "").startswith(study + ".")):
                continue  # a sibling module of the same study
            found += [f"{path.name}:{node.lineno} {a.name}" for a in node.names if a.name.startswith("_")]
    assert not found, f"private names imported across modules: {found}"
