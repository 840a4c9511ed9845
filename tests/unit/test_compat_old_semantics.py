"""TF <= 1.4 flags internals, TF 1.3's Dataset.map arguments and float dimensions, restored and undone."""
from __future__ import annotations

import sys

import numpy as np
import pytest
from absl import flags as absl_flags

from compat.tf1 import flags as tf1_flags
from compat.tf1 import old_semantics


def legacy_flags(argv: list[str]) -> tuple[tf1_flags.LegacyFlagValues, absl_flags.FlagValues]:
    real = absl_flags.FlagValues()
    absl_flags.DEFINE_integer("batch_size", 32, "Batch size.", flag_values=real)
    absl_flags.DEFINE_string("data_dir", "/data", "Data.", flag_values=real)
    absl_flags.DEFINE_boolean("train", False, "Train.", flag_values=real)
    return tf1_flags.LegacyFlagValues(real), real


def test_parse_flags_returns_what_no_flag_took_and_flags_maps_names_to_values(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", ["train.py", "--batch_size", "64", "extra", "--train"])
    legacy, real = legacy_flags(sys.argv)
    assert legacy._parse_flags() == ["extra"]
    values = getattr(legacy, "__flags")
    assert {k: values[k] for k in ("batch_size", "data_dir", "train")} == {
        "batch_size": 64, "data_dir": "/data", "train": True}
    assert legacy.__dict__["__flags"]["batch_size"] == 64 and legacy.__dict__["__parsed"] is True
    legacy.batch_size = 8  # writes go to the shared FlagValues
    assert real.batch_size == 8 and legacy.batch_size == 8


def test_flags_parses_sys_argv_on_first_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", ["train.py", "--data_dir=/x"])
    legacy, real = legacy_flags(sys.argv)
    assert not real.is_parsed()
    assert getattr(legacy, "__flags")["data_dir"] == "/x"
    assert "batch_size" in legacy and len(legacy) == len(real)


def test_tf13_map_arguments_give_the_same_elements_and_undo_restores() -> None:
    import tensorflow as tf
    from tensorflow.python.data.ops import dataset_ops
    before = dataset_ops.DatasetV2.__dict__["map"]
    undo = old_semantics.accept_tf13_dataset_api()
    try:
        dataset = tf.data.Dataset.range(7).map(lambda v: v * 3 + 1, num_threads=3, output_buffer_size=4)
        assert [int(v) for v in dataset] == [v * 3 + 1 for v in range(7)]
        with pytest.raises(ValueError, match="num_threads=2"):
            tf.data.Dataset.range(3).map(lambda v: v, num_threads=2, num_parallel_calls=2)
        sparse = next(iter(tf.data.Dataset.from_tensor_slices(np.ones((3, 2), np.int64)).dense_to_sparse_batch(2, [4])))
        assert list(sparse.dense_shape.numpy()) == [2, 4]
    finally:
        undo()
    assert dataset_ops.DatasetV2.__dict__["map"] is before
    assert "dense_to_sparse_batch" not in dataset_ops.DatasetV2.__dict__
    with pytest.raises(TypeError):
        tf.data.Dataset.range(3).map(lambda v: v, num_threads=2)


def test_whole_number_float_dimensions_are_accepted_and_others_refused() -> None:
    import tensorflow as tf
    undo = old_semantics.accept_float_dimensions()
    try:
        assert tf.TensorShape([None, 6 / 2, np.float32(4.0)]).as_list() == [None, 3, 4]
        with pytest.raises(ValueError, match="Ambiguous dimension: 3.5"):
            tf.TensorShape([3.5])
    finally:
        undo()
    with pytest.raises(TypeError):
        tf.TensorShape([3.0])
