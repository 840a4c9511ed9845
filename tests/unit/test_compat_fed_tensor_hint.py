"""The runner's hint for a placeholder TensorFlow 2 needs although the script fed a tensor computed from it.

The construct (``x = tf.transpose(placeholder)``, then ``feed_dict={x: ...}``, with ``x`` transposed
again downstream as ``tf.nn.dynamic_rnn`` does) is run here on TensorFlow itself: it fails with the
optimizer on and gives the by-hand value with arithmetic optimization off, as the hint says.
"""
from __future__ import annotations

import numpy as np
import pytest

from compat.runner.hints import hint_for


def _run_double_transpose(optimize: bool) -> float:
    import tensorflow as tf
    from tensorflow.core.protobuf import rewriter_config_pb2
    with tf.Graph().as_default():
        placeholder = tf.compat.v1.placeholder(tf.float32, [None, None, 3])
        x = tf.transpose(placeholder, [1, 0, 2])
        total = tf.reduce_sum(tf.transpose(x, [1, 0, 2]) * 2.0)
        config = tf.compat.v1.ConfigProto()
        if not optimize:
            config.graph_options.rewrite_options.arithmetic_optimization = rewriter_config_pb2.RewriterConfig.OFF
        with tf.compat.v1.Session(config=config) as sess:
            return float(sess.run(total, {x: np.full((2, 4, 3), 0.5, np.float32)}))


def test_hint_names_the_fed_tensor_and_the_way_out() -> None:
    import tensorflow as tf
    with pytest.raises(tf.errors.InvalidArgumentError) as failure:
        _run_double_transpose(optimize=True)
    hint = hint_for(failure.value)
    assert hint is not None and "arithmetic_optimization = RewriterConfig.OFF" in hint
    assert _run_double_transpose(optimize=False) == pytest.approx(2 * 4 * 3 * 0.5 * 2.0)


def test_other_errors_get_no_such_hint() -> None:
    import tensorflow as tf
    assert hint_for(tf.errors.InvalidArgumentError(None, None, "Incompatible shapes: [2] vs. [3]")) is None
    assert hint_for(ValueError("You must feed a value for placeholder tensor 'x'")) is None
