"""``tf.Tensor`` of the TF1 namespace is the class of graph tensors, as every graph tensor's class was in TF 1.x."""
from __future__ import annotations

import tensorflow as tf

from compat.tf1 import namespace

V1 = tf.compat.v1


def test_graph_tensors_are_exactly_tf_tensor_again() -> None:
    # OpenAI baselines' tf_util.function admits an input only if `type(inpt) is tf.Tensor`.
    ns = namespace.tf1_namespace()
    with tf.Graph().as_default():
        placeholder = V1.placeholder(tf.float32, [None, 2])
        constant = tf.constant(1.0)
        total = placeholder + constant
        tensor_class = ns.Tensor
        assert type(placeholder) is tensor_class and type(constant) is tensor_class
        assert type(total) is tensor_class and isinstance(total, tensor_class)
        assert type(placeholder) is not V1.Tensor  # what today's tf.compat.v1 gives: a base class
        assert issubclass(tensor_class, V1.Tensor)
        variable = V1.get_variable("v", [1])
        assert not isinstance(variable, tensor_class)  # variables were not tensors in TF 1.x either


def test_under_eager_execution_tf_tensor_stays_the_base_class() -> None:
    eager = tf.constant([1.0, 2.0])
    assert tf.executing_eagerly()
    assert namespace.graph_tensor_class(V1) is V1.Tensor
    assert isinstance(eager, namespace.graph_tensor_class(V1))
