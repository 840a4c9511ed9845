"""``tf.contrib.kernel_methods``: random Fourier features and the multi-class hinge loss.

``RandomFourierFeatureMapper(d, D, stddev)`` maps ``x`` to
``sqrt(2 / D) * cos(x W + b)`` with ``W ~ N(0, 1 / stddev^2)`` (``[d, D]``) and
``b ~ U[0, 2 pi)``, approximating the Gaussian kernel of width ``stddev``.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf

from compat.contrib import refusing_getattr

__all__ = ["RandomFourierFeatureMapper", "sparse_multiclass_hinge_loss"]

REFUSED: dict[str, str] = {
    "KernelLinearClassifier": "RandomFourierFeatureMapper with a tf.keras Dense layer "
                              "(tf.estimator was removed in TensorFlow 2.16)",
}

__getattr__ = refusing_getattr("kernel_methods", REFUSED)


class RandomFourierFeatureMapper:
    """Explicit random Fourier features of dimension ``output_dim`` for ``input_dim``-vectors."""

    def __init__(self, input_dim: int, output_dim: int, stddev: float = 1.0, seed: int = 1,
                 name: str | None = None) -> None:
        self._input_dim, self._output_dim, self._stddev = input_dim, output_dim, stddev
        self._name = name or "RandomFourierFeatureMapper"
        rng = np.random.RandomState(seed)
        self._omega = rng.normal(scale=1.0 / stddev, size=(input_dim, output_dim)).astype(np.float32)
        self._bias = rng.uniform(0.0, 2.0 * np.pi, size=output_dim).astype(np.float32)

    @property
    def name(self) -> str:
        """The mapper's name."""
        return self._name

    @property
    def input_dim(self) -> int:
        """``d``."""
        return self._input_dim

    @property
    def output_dim(self) -> int:
        """``D``."""
        return self._output_dim

    def map(self, input_tensor: Any) -> Any:
        """``[B, D]`` features of ``[B, d]`` float32 ``input_tensor``.

        Raises:
            ValueError: the last dimension of ``input_tensor`` is not ``input_dim``.
        """
        input_tensor = tf.convert_to_tensor(input_tensor, tf.float32)
        if input_tensor.shape[-1] is not None and input_tensor.shape[-1] != self._input_dim:
            raise ValueError(f"{self._name}: inputs must have {self._input_dim} columns; got shape "
                             f"{input_tensor.shape}")
        projected = tf.matmul(input_tensor, self._omega) + self._bias
        return np.sqrt(2.0 / self._output_dim) * tf.cos(projected)


def sparse_multiclass_hinge_loss(labels: Any, logits: Any, weights: Any = 1.0, scope: Any = None,
                                 loss_collection: Any = tf.compat.v1.GraphKeys.LOSSES,
                                 reduction: Any = tf.compat.v1.losses.Reduction.SUM_BY_NONZERO_WEIGHTS) -> Any:
    """``max(0, 1 + max_{j != y} logits_j - logits_y)`` per example, reduced as ``tf.compat.v1.losses``.

    ``labels`` ``[B]`` (or ``[B, 1]``) int class ids, ``logits`` ``[B, K]``.
    """
    with tf.compat.v1.name_scope(scope, "sparse_multiclass_hinge_loss", (logits, labels)):
        logits = tf.convert_to_tensor(logits)
        labels = tf.reshape(tf.cast(labels, tf.int32), [-1])
        one_hot = tf.one_hot(labels, tf.shape(logits)[1], dtype=logits.dtype)
        true_logit = tf.reduce_sum(one_hot * logits, axis=1)
        lowest = tf.fill(tf.shape(logits), logits.dtype.min)
        best_other = tf.reduce_max(tf.where(one_hot > 0, lowest, logits), axis=1)
        losses = tf.nn.relu(1.0 + best_other - true_logit)
        return tf.compat.v1.losses.compute_weighted_loss(losses, weights, loss_collection=loss_collection,
                                                         reduction=reduction)
