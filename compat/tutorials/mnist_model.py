"""The two-hidden-layer MNIST network of TensorFlow 1.x tutorials (``tensorflow.examples.tutorials.mnist.mnist``).

Old ``fully_connected_feed.py``-style scripts import it next to the reader
(``from tensorflow.examples.tutorials.mnist import input_data, mnist``). The
graph built is the original's: layers ``hidden1``, ``hidden2`` and
``softmax_linear`` (each with ``weights`` drawn from a truncated normal of
stddev ``1/sqrt(fan_in)`` and zero ``biases``), ReLU hidden units; the loss is
the mean sparse softmax cross entropy (``tf.losses``, so it is also in the
losses collection); training is plain gradient descent with a ``global_step``
variable and a ``loss`` scalar summary; evaluation counts ``in_top_k(..., 1)``
hits. It needs graph mode, as the runner sets up. Importing this module
imports nothing heavy.
"""
from __future__ import annotations

import math
from typing import Any

__all__ = ["IMAGE_PIXELS", "IMAGE_SIZE", "NUM_CLASSES", "evaluation", "inference", "loss", "training"]

#: The ten digits.
NUM_CLASSES = 10
#: MNIST images are 28x28 pixels.
IMAGE_SIZE = 28
IMAGE_PIXELS = IMAGE_SIZE * IMAGE_SIZE


def _v1() -> Any:
    import tensorflow as tf
    return tf.compat.v1


def _layer(v1: Any, scope: str, inputs: Any, fan_in: int, units: int) -> Any:
    """``inputs @ weights + biases`` in name scope ``scope``, initialised as the tutorial did."""
    with v1.name_scope(scope):
        weights = v1.Variable(v1.truncated_normal([fan_in, units], stddev=1.0 / math.sqrt(float(fan_in))),
                              name="weights")
        biases = v1.Variable(v1.zeros([units]), name="biases")
        return v1.matmul(inputs, weights) + biases


def inference(images: Any, hidden1_units: int, hidden2_units: int) -> Any:
    """The logits ``[batch, NUM_CLASSES]`` of the two-hidden-layer ReLU network on flat images."""
    v1 = _v1()
    hidden1 = v1.nn.relu(_layer(v1, "hidden1", images, IMAGE_PIXELS, hidden1_units))
    hidden2 = v1.nn.relu(_layer(v1, "hidden2", hidden1, hidden1_units, hidden2_units))
    return _layer(v1, "softmax_linear", hidden2, hidden2_units, NUM_CLASSES)


def loss(logits: Any, labels: Any) -> Any:
    """The mean sparse softmax cross entropy of ``logits`` against integer ``labels`` (a scalar tensor)."""
    v1 = _v1()
    return v1.losses.sparse_softmax_cross_entropy(labels=v1.cast(labels, v1.int64), logits=logits)


def training(loss: Any, learning_rate: float) -> Any:
    """The gradient-descent step on all trainable variables; also adds the ``loss`` summary and ``global_step``.

    Returns the training op.
    """
    v1 = _v1()
    v1.summary.scalar("loss", loss)
    optimizer = v1.train.GradientDescentOptimizer(learning_rate)
    global_step = v1.Variable(0, name="global_step", trainable=False)
    return optimizer.minimize(loss, global_step=global_step)


def evaluation(logits: Any, labels: Any) -> Any:
    """How many examples of the batch have their label as top prediction (an int32 scalar tensor)."""
    v1 = _v1()
    correct = v1.nn.in_top_k(logits, labels, 1)
    return v1.reduce_sum(v1.cast(correct, v1.int32))
