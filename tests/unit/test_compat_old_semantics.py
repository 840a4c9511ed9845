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


def test_non_string_flag_defaults_are_kept_as_tf14_argparse_kept_them() -> None:
    # DCGAN-tensorflow: flags.DEFINE_integer("train_size", np.inf, ...); absl rejects the float.
    real = absl_flags.FlagValues()
    define_integer = tf1_flags.lenient_define(absl_flags.DEFINE_integer, real)
    define_string = tf1_flags.lenient_define(absl_flags.DEFINE_string, real)
    define_integer("train_size", np.inf, "Train size.", flag_values=real)
    define_integer(name="epochs", default=np.int64(3), help="Epochs.", flag_values=real)
    define_string("gpu", 0, "GPU id.", flag_values=real)
    define_integer("batch_size", 64, "Batch size.", flag_values=real)
    real(["train.py"])
    assert real.train_size == float("inf") and real.epochs == 3 and type(real.epochs) is np.int64
    assert real.gpu == 0 and type(real.gpu) is int and real.batch_size == 64
    assert real["train_size"].default == float("inf")
    real.unparse_flags()
    real(["train.py", "--train_size", "100", "--gpu=1"])  # a command-line value is parsed by the flag's type
    assert real.train_size == 100 and real.gpu == "1"
    with pytest.raises(absl_flags.IllegalFlagValueError):  # an unparsable string default still fails
        define_integer("steps", "many", "Steps.", flag_values=real)
    assert "steps" not in real


def test_served_flags_module_defines_lenient_flags_on_the_shared_values() -> None:
    module = tf1_flags.flags_module(absl_flags)  # type: ignore[arg-type]
    real = absl_flags.FlagValues()
    module.DEFINE_float("lr", 1, "Rate.", flag_values=real)  # type: ignore[attr-defined]
    module.DEFINE_integer("size", 0.5, "Size.", flag_values=real)  # type: ignore[attr-defined]
    real(["train.py"])
    assert real.lr == 1.0 and real.size == 0.5


def _transpose_conv_1x1(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """conv2d_transpose of a 1x1 input, stride 2, SAME, to 2x2 with a 5x5 kernel, in NumPy.

    Output (i, j) takes kernel tap (i + 1, j + 1): the total padding is 5 - 2 = 3, 1 before.
    """
    out = np.zeros((x.shape[0], 2, 2, w.shape[2]), np.float32)
    for i in range(2):
        for j in range(2):
            out[:, i, j, :] = x[:, 0, 0, :] @ w[i + 1, j + 1].T
    return out


def test_conv2d_transpose_takes_its_static_shape_from_output_shape_as_in_tf1() -> None:
    import tensorflow as tf
    from tensorflow.python.ops import gen_nn_ops
    v1 = tf.compat.v1
    rng = np.random.RandomState(0)
    x_value = rng.randn(4, 1, 1, 8).astype(np.float32)
    w_value = rng.randn(5, 5, 16, 8).astype(np.float32)
    before = gen_nn_ops.conv2d_backprop_input
    undo = old_semantics.infer_conv_transpose_shapes()
    try:
        with tf.Graph().as_default():
            x = v1.placeholder(tf.float32, [None, 1, 1, 8])  # DCGAN: reshaped with -1
            y = v1.nn.conv2d_transpose(x, tf.constant(w_value), output_shape=[4, 2, 2, 16], strides=[1, 2, 2, 1])
            assert y.shape.as_list() == [4, 2, 2, 16]
            flat = tf.reshape(y, y.get_shape())  # DCGAN's deconv2d; fails with a partial shape
            batch = v1.placeholder(tf.int32, [])
            partial = v1.nn.conv2d_transpose(x, tf.constant(w_value), tf.stack([batch, 2, 2, 16]), [1, 2, 2, 1])
            assert partial.shape.as_list() == [None, 2, 2, 16]
            one_d = v1.nn.conv1d_transpose(v1.placeholder(tf.float32, [None, 1, 8]), tf.zeros([3, 16, 8]),
                                           [4, 2, 16], 2)
            assert one_d.shape.as_list() == [4, 2, 16]
            with v1.Session() as sess:
                got = sess.run(flat, {x: x_value})
        np.testing.assert_allclose(got, _transpose_conv_1x1(x_value, w_value), rtol=1e-5, atol=1e-5)
    finally:
        undo()
    assert gen_nn_ops.conv2d_backprop_input is before
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None, 1, 1, 8])
        assert v1.nn.conv2d_transpose(x, tf.zeros([5, 5, 16, 8]), [4, 2, 2, 16], [1, 2, 2, 1]).shape[0] is None
