"""``compat.pydata_legacy``'s pandas part: ``as_matrix``, ``append``, ``iteritems``, ``.ix``, the moving-window
functions and the other names pandas removed, with their old semantics.

Each is checked against an independent computation (NumPy arrays, frames built
by hand, windows summed by hand) and the patches against the installed pandas:
added only where missing, undone to the very objects pandas had.
"""
from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd
import pytest

from compat.errors import LegacyAPIError
from compat.pydata_legacy import pandas_removed
from compat.pydata_legacy.patches import PydataPatches


@pytest.fixture
def patched() -> Iterator[PydataPatches]:
    patches = PydataPatches()
    patches.apply(pd)
    yield patches
    patches.undo()


def frame() -> pd.DataFrame:
    return pd.DataFrame({"a": [1, 2, 3], "b": [4.0, 5.0, 6.0]}, index=["x", "y", "z"])


def old(obj: Any, name: str) -> Any:
    """``obj.name`` looked up at run time (the names exist only while patched)."""
    return getattr(obj, name)


def test_as_matrix_is_the_numpy_array(patched: PydataPatches) -> None:
    data = frame()
    np.testing.assert_array_equal(old(data, "as_matrix")(), np.array([[1, 4.0], [2, 5.0], [3, 6.0]]))
    np.testing.assert_array_equal(old(data, "as_matrix")(columns=["b"]), np.array([[4.0], [5.0], [6.0]]))
    np.testing.assert_array_equal(old(data["a"], "as_matrix")(), np.array([1, 2, 3]))


def test_frame_append_of_a_frame_a_dict_and_a_named_series(patched: PydataPatches) -> None:
    data = frame()
    other = pd.DataFrame({"a": [7], "c": ["new"]}, index=["w"])
    expected = pd.DataFrame({"a": [1, 2, 3, 7], "b": [4.0, 5.0, 6.0, np.nan],
                             "c": [np.nan, np.nan, np.nan, "new"]}, index=["x", "y", "z", "w"])
    pd.testing.assert_frame_equal(old(data, "append")(other), expected)
    # A dict is one row (ignore_index=True required); its values share one Series, so "a" becomes float.
    row = old(data, "append")({"a": 9, "b": 1.5}, ignore_index=True)
    pd.testing.assert_frame_equal(row, pd.DataFrame({"a": [1.0, 2.0, 3.0, 9.0], "b": [4.0, 5.0, 6.0, 1.5]}))
    named = old(data, "append")(pd.Series({"a": 0.0, "b": 0.0}, name="v"))
    assert named.index.tolist() == ["x", "y", "z", "v"] and named.loc["v"].tolist() == [0.0, 0.0]
    with pytest.raises(TypeError, match="Can only append a dict if ignore_index=True"):
        old(data, "append")({"a": 1})
    with pytest.raises(TypeError, match="Series has a name"):
        old(data, "append")(pd.Series({"a": 1}))


def test_series_append_and_iteritems(patched: PydataPatches) -> None:
    joined = old(pd.Series([1, 2]), "append")([pd.Series([3]), pd.Series([4])], ignore_index=True)
    pd.testing.assert_series_equal(joined, pd.Series([1, 2, 3, 4]))
    assert old(pd.Series([1], index=["k"]), "append")(pd.Series([2], index=["k"])).index.tolist() == ["k", "k"]
    assert [(name, column.tolist()) for name, column in old(frame(), "iteritems")()] == [
        ("a", [1, 2, 3]), ("b", [4.0, 5.0, 6.0])]
    assert list(old(pd.Series([5], index=["q"]), "iteritems")()) == [("q", 5)]


def test_ix_labels_first_and_integers_positional_on_a_non_integer_index(patched: PydataPatches) -> None:
    data = frame()
    ix = old(data, "ix")
    assert ix["y", "b"] == 5.0
    assert ix[1, "b"] == 5.0  # integer row on a string index: a position
    assert ix[0].tolist() == [1.0, 4.0]
    assert ix["x":"y", "a"].tolist() == [1, 2]  # a label slice keeps its end point
    assert ix[0:1, "a"].tolist() == [1]  # an integer slice is positional, without its end point
    assert ix[:, 1].tolist() == [4.0, 5.0, 6.0]
    assert ix[[0, 2], ["a"]].values.tolist() == [[1], [3]]
    assert ix[data["a"] > 1, "a"].tolist() == [2, 3]
    ix[2, "a"] = 30
    assert data.loc["z", "a"] == 30
    with pytest.raises(KeyError, match=r"labels \['q'\] are not in the index"):
        _ = ix[["x", "q"]]


def test_ix_on_an_integer_index_is_label_based(patched: PydataPatches) -> None:
    series = pd.Series([10, 20, 30], index=[5, 3, 1])
    assert old(series, "ix")[3] == 20  # the label 3, not the position
    assert old(series, "ix")[5:3].tolist() == [10, 20]
    floats = pd.Series([1.0, 2.0], index=[0.5, 1.0])
    assert old(floats, "ix")[1] == 2.0
    assert old(pd.Series([7, 8], index=["a", "b"]), "ix")[1] == 8


def test_moving_window_functions_match_sums_by_hand(patched: PydataPatches) -> None:
    values = np.array([1.0, 2.0, 4.0, 8.0])
    mean = old(pd, "rolling_mean")(pd.Series(values), 2)
    np.testing.assert_allclose(mean.values, [np.nan, 1.5, 3.0, 6.0])
    array = old(pd, "rolling_sum")(values, 3, min_periods=1)
    assert isinstance(array, np.ndarray)
    np.testing.assert_allclose(array, [1.0, 3.0, 7.0, 14.0])
    np.testing.assert_allclose(old(pd, "rolling_std")(values, 2)[1:], [np.std([1, 2], ddof=1),
                                                                     np.std([2, 4], ddof=1), np.std([4, 8], ddof=1)])
    np.testing.assert_allclose(old(pd, "expanding_mean")(values), [1.0, 1.5, 7 / 3, 15 / 4])
    # ewma with com=1 (alpha 1/2), adjust=True: weighted by 1, 1/2, 1/4, ... from the newest value.
    weights = 0.5 ** np.arange(3)[::-1]
    assert old(pd, "ewma")(values[:3], com=1)[-1] == pytest.approx(weights @ values[:3] / weights.sum())
    with pytest.raises(LegacyAPIError, match="resample"):
        old(pd, "rolling_mean")(values, 2, freq="D")


def test_the_other_removed_names(patched: PydataPatches) -> None:
    data = frame()
    assert old(data, "get_value")("y", "b") == 5.0 and old(data, "get_value")(1, 1, takeable=True) == 5.0
    assert old(data, "set_value")("x", "a", 11) is data and data.loc["x", "a"] == 11
    assert old(data, "sort")(columns="b", ascending=False).index.tolist() == ["z", "y", "x"]
    assert old(data.iloc[::-1], "sort")().index.tolist() == ["x", "y", "z"]  # no columns: by the index
    series = pd.Series([3, 1, 2])
    assert old(series, "order")().tolist() == [1, 2, 3] and series.tolist() == [3, 1, 2]
    assert old(series, "sort")() is None and series.tolist() == [1, 2, 3]  # in place, as it was
    assert old(data, "applymap")(lambda value: value * 2).loc["y", "b"] == 10.0
    assert old(pd, "value_counts")([1, 1, 2]).to_dict() == {1: 2, 2: 1}
    assert old(pd, "scatter_matrix") is pd.plotting.scatter_matrix


def test_csv_readers_and_fillna_method(patched: PydataPatches) -> None:
    text = "when,value\n2017-01-02,1\n2017-01-03,2\n"
    loaded = old(pd.DataFrame, "from_csv")(io.StringIO(text))
    assert loaded.index.dtype.kind == "M" and loaded["value"].tolist() == [1, 2]
    series = old(pd.Series, "from_csv")(io.StringIO("a,1\nb,2\n"))
    assert series.to_dict() == {"a": 1, "b": 2} and series.name is None
    squeezed = pd.read_csv(io.StringIO("value\n1\n2\n"), squeeze=True)  # type: ignore[call-overload]
    assert isinstance(squeezed, pd.Series) and squeezed.tolist() == [1, 2]
    gaps = pd.DataFrame({"a": [1.0, np.nan, 3.0, np.nan]})
    assert gaps.fillna(method="ffill")["a"].tolist() == [1.0, 1.0, 3.0, 3.0]  # type: ignore[call-arg]
    assert gaps["a"].fillna(method="bfill").tolist()[:3] == [1.0, 3.0, 3.0]  # type: ignore[call-arg]
    assert gaps.fillna(0.0)["a"].tolist() == [1.0, 0.0, 3.0, 0.0]


def test_undo_restores_the_installed_objects() -> None:
    own = {"read_csv": pd.read_csv, "fillna": pd.DataFrame.fillna, "series_fillna": pd.Series.fillna}
    patches = PydataPatches()
    patches.apply(pd)
    patches.apply(pd)  # again: nothing added or wrapped twice
    assert pd.read_csv is not own["read_csv"] and pd.read_csv.__wrapped__ is own["read_csv"]  # type: ignore
    patches.undo()
    assert pd.read_csv is own["read_csv"] and pd.DataFrame.fillna is own["fillna"]
    assert pd.Series.fillna is own["series_fillna"]
    for owner, names in pandas_removed.REMOVED.items():
        target = pd if owner == "pandas" else getattr(pd, owner.partition(":")[2])
        assert not [name for name in names if hasattr(target, name)], owner  # every row is really gone today


def test_check_reports_pandas_methods_only_where_pandas_is_imported() -> None:
    import ast

    from compat.pydata_legacy import uses as pydata_uses
    with_pandas = "import pandas as pd\nvalues = df.as_matrix()\nrows = df.ix[0]\nitems = [1]\nitems.sort()\n"
    found = [construct for _, construct, _ in pydata_uses.bridged_uses(ast.parse(with_pandas))]
    assert found == ["df.as_matrix", "df.ix"]  # list.sort is not pandas' sort
    assert pydata_uses.bridged_uses(ast.parse("values = df.as_matrix()\n")) == []
