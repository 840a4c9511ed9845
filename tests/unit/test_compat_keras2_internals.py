"""Keras 2.2's internals that TF1-era Keras libraries read: a ``Node``'s lists, the backend's names.

keras-contrib 2.0.8's CRF reads ``crf._inbound_nodes[i].input_tensors[0]`` and
``.input_masks[0]`` and calls ``K.logsumexp``. The node view is checked on a real
tf_keras model with a masking ``Embedding`` (the mask compared with
``Embedding.compute_mask`` of the same input), the backend names against NumPy.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import tensorflow as tf

from compat.keras2 import keras2_module
from compat.keras2.node_view import NodeViewPatches
from compat.library_legacy.callers import remember_scope
from compat.surfaces import Context


@pytest.fixture()
def node_module() -> Iterator[Any]:
    from tf_keras.src.engine import node
    patches = NodeViewPatches()
    patches.apply(node)
    yield node
    patches.undo()


def _masked_model() -> tuple[Any, Any, Any]:
    import tf_keras
    tokens = tf_keras.Input(shape=(4,), dtype="int32")
    embedded = tf_keras.layers.Embedding(10, 3, mask_zero=True)(tokens)
    dense = tf_keras.layers.Dense(2)
    dense(embedded)  # the call makes the inbound node
    return tokens, embedded, dense


def test_node_tensors_are_lists_and_masks_are_given_to_the_scripts_code(node_module: Any) -> None:
    with tf.Graph().as_default():
        tokens, embedded, dense = _masked_model()
        node = dense._inbound_nodes[0]
        # The test's own file is the script's code (no run in progress: the file rule).
        assert isinstance(node.input_tensors, list) and node.input_tensors[0] is embedded
        assert isinstance(node.output_tensors, list) and len(node.output_tensors) == 1
        assert len(node.input_masks) == 1 and node.input_masks[0] is embedded._keras_mask
        assert embedded._keras_mask is not None
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            data = np.array([[3, 0, 5, 0], [0, 0, 1, 2]], np.int32)
            mask = sess.run(node.input_masks[0], {tokens: data})
        np.testing.assert_array_equal(mask, data != 0)  # Embedding(mask_zero=True)'s mask


def test_tf_keras_itself_keeps_the_structure(node_module: Any) -> None:
    with tf.Graph().as_default():
        _, embedded, dense = _masked_model()
        node = dense._inbound_nodes[0]
        context = Context(scope=None, helpers=None, owns_module=lambda module: False)
        undo = remember_scope(context)
        try:
            # A caller in an installed package (tf_keras's own code) gets tf.keras's single tensor.
            namespace: dict[str, Any] = {}
            exec(compile("def read(node):\n    return node.input_tensors\n",
                         "/opt/lib/python3.11/site-packages/tf_keras/src/models/cloning.py", "exec"), namespace)
            assert namespace["read"](node) is embedded
        finally:
            undo()


def test_shapes_layers_and_inbound_indices_are_keras_2_2s_lists(node_module: Any) -> None:
    import tf_keras
    with tf.Graph().as_default():
        a, b = tf_keras.Input((3,)), tf_keras.Input((3,))
        added = tf_keras.layers.Add()([a, b])
        dense = tf_keras.layers.Dense(2)
        out = dense(added)
        add_node, dense_node = added._keras_history[0]._inbound_nodes[0], dense._inbound_nodes[0]
        assert add_node.input_shapes == [(None, 3), (None, 3)] and add_node.output_shapes == [(None, 3)]
        assert dense_node.input_shapes == [(None, 3)] and dense_node.output_shapes == [(None, 2)]
        assert dense_node.inbound_layers == [added._keras_history[0]]
        assert add_node.inbound_layers == [a._keras_history[0], b._keras_history[0]]
        assert add_node.node_indices == [0, 0] and add_node.tensor_indices == [0, 0]
        assert dense_node.arguments == {}
        # tf_keras's own code keeps its structures, and its model machinery works beside the view.
        namespace: dict[str, Any] = {}
        exec(compile("def read(node):\n    return node.input_shapes, node.inbound_layers\n",
                     "/opt/lib/python3.11/site-packages/tf_keras/src/engine/functional.py", "exec"), namespace)
        context = Context(scope=None, helpers=None, owns_module=lambda module: False)
        undo = remember_scope(context)
        try:
            shapes, layers = namespace["read"](dense_node)
        finally:
            undo()
        assert shapes == (None, 3) and layers is added._keras_history[0]
        model = tf_keras.Model([a, b], out)
        clone = tf_keras.models.clone_model(model)
        assert [tuple(t.shape) for t in clone.outputs] == [(None, 2)] and len(clone.layers) == len(model.layers)


def test_the_node_view_is_taken_away_again() -> None:
    from tf_keras.src.engine import node
    before = node.Node.__dict__["input_tensors"]
    patches = NodeViewPatches()
    patches.apply(node)
    assert node.Node.__dict__["input_tensors"] is not before and hasattr(node.Node, "input_masks")
    patches.undo()
    assert node.Node.__dict__["input_tensors"] is before and not hasattr(node.Node, "input_masks")


def test_keras_backend_has_keras_2_2_4s_names() -> None:
    backend: Any = keras2_module("keras.backend")
    assert backend is not None and backend.tf is tf.compat.v1
    x = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 8.0]], np.float32)
    with tf.Graph().as_default(), tf.compat.v1.Session() as sess:
        t = tf.constant(x)
        values = sess.run([backend.logsumexp(t, axis=1), backend.logsumexp(t, axis=0, keepdims=True),
                           backend.slice(t, [0, 1], [2, 2]), backend.identity(t)])
        assert backend.is_tensor(t) and not backend.is_tensor(x)
        assert backend.get_variable_shape(tf.compat.v1.Variable(np.zeros((3, 5), np.float32))) == (3, 5)
    np.testing.assert_allclose(values[0], np.log(np.exp(x).sum(axis=1)), rtol=1e-6)
    np.testing.assert_allclose(values[1], np.log(np.exp(x).sum(axis=0, keepdims=True)), rtol=1e-6)
    np.testing.assert_array_equal(values[2], x[0:2, 1:3])
    np.testing.assert_array_equal(values[3], x)
    import tf_keras
    assert not hasattr(tf_keras.backend, "slice")  # tf_keras's own module is unchanged


def test_a_metric_returning_one_number_is_reported_as_keras_2_2_did_beside_a_mask() -> None:
    # Keras 2.2 multiplied a metric's result by the output's mask and averaged: a scalar metric
    # reported itself. keras-contrib's CRF masks its output per sequence (K.any(mask, axis=1), shape
    # (batch,)), and tf_keras's weighted mean refused a scalar beside it ("Can not squeeze dim[0]").
    models: Any = keras2_module("keras.models")
    layers: Any = keras2_module("keras.layers")
    backend: Any = keras2_module("keras.backend")

    class SequenceMask(layers.Layer):  # type: ignore[misc, name-defined]
        """Passes its input on; its mask says which sequences have any step (as CRF's does)."""

        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.supports_masking = True

        def call(self, inputs: Any, mask: Any = None) -> Any:
            return inputs

        def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
            return None if mask is None else backend.any(mask, axis=1)

    def mean_prediction(y_true: Any, y_pred: Any) -> Any:
        return backend.mean(y_pred)  # one number for the batch

    x = np.array([[3, 1, 0, 0], [2, 5, 7, 0], [1, 1, 1, 1]], np.int32)
    y = np.random.default_rng(0).random((3, 4, 2)).astype(np.float32)
    with tf.Graph().as_default():
        model = models.Sequential([layers.Embedding(10, 3, mask_zero=True),
                                   layers.LSTM(5, return_sequences=True), layers.Dense(2), SequenceMask()])
        model.compile("sgd", loss="mse", metrics=[mean_prediction])
        model.fit(x, y, epochs=1, batch_size=3, verbose=0)
        _, reported = model.evaluate(x, y, batch_size=3, verbose=0)
        predicted = model.predict(x, batch_size=3)
        assert model.metrics_names[-1] == "mean_prediction"
    assert reported == pytest.approx(float(predicted.mean()), rel=1e-5)
