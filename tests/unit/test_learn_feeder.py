"""contrib.learn's array inputs (compat.contrib._learn_estimators): TF 1.x's data_feeder batches, pandas helpers,
MetricSpec's call forms; checked against NumPy and pure Python, without TensorFlow."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from compat.contrib import _learn_estimators as est


def test_feeder_batches_follow_randomstate_42_permutations() -> None:
    x = np.arange(20).reshape(10, 2)
    y = np.arange(10) * 10
    batches = list(est.feeder_batches(x, y, 4, shuffle=True, epochs=2))
    rs = np.random.RandomState(42)
    expected = []
    for _ in range(2):  # each epoch a new permutation of the same generator; a short last batch
        order = rs.permutation(10)
        expected += [order[0:4], order[4:8], order[8:10]]
    assert len(batches) == len(expected) == 6
    for (xb, yb), rows in zip(batches, expected):
        np.testing.assert_array_equal(xb, x[rows])
        np.testing.assert_array_equal(yb, y[rows])
    ordered = list(est.feeder_batches({"a": x}, None, 3, shuffle=False, epochs=1))
    assert [b["a"][:, 0].tolist() for b in ordered] == [[0, 2, 4], [6, 8, 10], [12, 14, 16], [18]]


def test_arrays_as_the_feeder_saw_them() -> None:
    assert est._as_array(np.array([1.5, 2.5])).shape == (2, 1)  # 1-D x is a column
    assert est._as_array(np.zeros((3, 2))).dtype == np.float32  # float64 enters as float32
    assert est._as_array(np.zeros((3, 2), np.int64)).dtype == np.int64
    with pytest.raises(ValueError, match="StreamingDataFeeder"):
        est._as_array(iter([np.zeros(2)]))


def test_pandas_helpers() -> None:
    frame = pd.DataFrame({"a": [1, 2], "b": [0.5, 1.5]})
    np.testing.assert_array_equal(est.extract_pandas_data(frame), [[1, 0.5], [2, 1.5]])
    np.testing.assert_array_equal(est.extract_pandas_labels(pd.DataFrame({"y": [3, 4]})), [[3], [4]])
    np.testing.assert_array_equal(est.extract_pandas_labels(pd.Series([3, 4])), [3, 4])
    with pytest.raises(ValueError, match=r"only one column of labels.*\['y', 'z'\]"):
        est.extract_pandas_labels(pd.DataFrame({"y": [1], "z": [2]}))
    with pytest.raises(ValueError, match=r"these are not: s \("):
        est.extract_pandas_data(pd.DataFrame({"s": ["x", "y"]}))
    mixed = pd.DataFrame({"s": ["x"], "n": [1]})
    assert est.extract_pandas_matrix(mixed).tolist() == [["x", 1]]
    assert est.extract_pandas_data([1, 2]) == [1, 2]  # anything else unchanged


def test_metric_spec_call_forms() -> None:
    calls = []

    def streaming(predictions, labels, weights=None):  # tf.contrib.metrics' order, positional
        calls.append(("positional", predictions, labels, weights))
        return "op"

    def core(labels, predictions, weights=None):  # tf.metrics' keywords
        calls.append(("keywords", predictions, labels, weights))
        return "op"

    spec = est.MetricSpec(streaming, prediction_key="classes")
    assert spec.create_metric_ops({}, "L", {"classes": "C", "logits": "G"}) == "op"
    est.MetricSpec(core, weight_key="w").create_metric_ops({"w": "W"}, {"only": "L"}, "P")
    assert calls == [("positional", "C", "L", None), ("keywords", "P", "L", "W")]
    with pytest.raises(ValueError, match=r"prediction is a dict with keys \['a', 'b'\]; give prediction_key"):
        est.MetricSpec(core).create_metric_ops({}, "L", {"a": 1, "b": 2})
