"""``tf.contrib.data.sliding_window_batch``, ``assert_element_shape``, ``sloppy_interleave`` and
``read_batch_features``, checked against windows cut by hand and the records written."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import tensorflow as tf

from compat.contrib import data as contrib_data


def windows_by_hand(values: list[int], size: int, shift: int, stride: int) -> list[list[int]]:
    """Every full window: ``size`` values ``stride`` apart, starting every ``shift`` values."""
    span = (size - 1) * stride + 1
    return [values[start:start + span:stride] for start in range(0, len(values) - span + 1, shift)]


@pytest.mark.parametrize(("size", "shift", "stride"), [(3, 2, 1), (2, 1, 2), (4, 3, 1), (1, 1, 1)])
def test_sliding_window_batch_matches_windows_cut_by_hand(size: int, shift: int, stride: int) -> None:
    import tensorflow as tf
    values = list(range(9))
    dataset = tf.data.Dataset.from_tensor_slices(values).apply(
        contrib_data.sliding_window_batch(size, window_shift=shift, window_stride=stride))
    assert [w.tolist() for w in dataset.as_numpy_iterator()] == windows_by_hand(values, size, shift, stride)


def test_sliding_window_batch_of_pairs_and_the_old_stride_name() -> None:
    import tensorflow as tf
    x = np.arange(10, dtype=np.float32).reshape(5, 2)
    y = np.arange(5)
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).apply(contrib_data.sliding_window_batch(2, stride=2))
    got = list(dataset.as_numpy_iterator())
    assert len(got) == 2
    np.testing.assert_array_equal(got[1][0], x[2:4])
    np.testing.assert_array_equal(got[1][1], y[2:4])
    with pytest.raises(ValueError, match="not both"):
        contrib_data.sliding_window_batch(2, stride=1, window_shift=1)


def test_assert_element_shape_refines_static_shapes_and_fails_on_a_mismatch() -> None:
    import tensorflow as tf
    dataset = tf.data.Dataset.from_generator(lambda: iter([np.zeros((2, 3), np.float32)]), tf.float32)
    checked = dataset.apply(contrib_data.assert_element_shape(tf.TensorShape([None, 3])))
    assert checked.element_spec.shape.as_list() == [None, 3]
    np.testing.assert_array_equal(next(iter(checked.as_numpy_iterator())), np.zeros((2, 3)))
    wrong = dataset.apply(contrib_data.assert_element_shape(tf.TensorShape([2, 4])))
    with pytest.raises(tf.errors.InvalidArgumentError):
        next(iter(wrong.as_numpy_iterator()))


def test_sloppy_interleave_gives_the_same_multiset_as_interleave() -> None:
    dataset = tf.data.Dataset.range(4).apply(
        contrib_data.sloppy_interleave(lambda v: tf.data.Dataset.from_tensors(v).repeat(v + 1), cycle_length=2))
    values = sorted(int(v) for v in dataset)
    assert values == sorted(v for v in range(4) for _ in range(v + 1))


def test_read_batch_features_parses_every_example_once_per_epoch(tmp_path: Any) -> None:
    path = str(tmp_path / "data.tfrecords")
    with tf.io.TFRecordWriter(path) as writer:
        for i in range(6):
            example = tf.train.Example(features=tf.train.Features(feature={
                "x": tf.train.Feature(int64_list=tf.train.Int64List(value=[i * i])),
                "y": tf.train.Feature(float_list=tf.train.FloatList(value=[i / 2]))}))
            writer.write(example.SerializeToString())
    graph = tf.Graph()
    with graph.as_default():
        features = {"x": tf.io.FixedLenFeature([], tf.int64), "y": tf.io.FixedLenFeature([], tf.float32)}
        batch = contrib_data.read_batch_features(path, 3, features, randomize_input=False, num_epochs=1)
        with tf.compat.v1.Session(graph=graph) as sess:
            first, second = sess.run(batch), sess.run(batch)
            with pytest.raises(tf.errors.OutOfRangeError):
                sess.run(batch)
    assert list(first["x"]) + list(second["x"]) == [i * i for i in range(6)]
    np.testing.assert_allclose(list(first["y"]) + list(second["y"]), [i / 2 for i in range(6)])
