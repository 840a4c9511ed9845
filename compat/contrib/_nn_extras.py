"""``tf.contrib.nn`` ops of TF 1.15 that core TensorFlow lacks or spells differently, written on today's ops.

Served on ``tf.contrib.nn`` by the overlay of :mod:`compat.tf1.renames`.
TensorFlow is imported on the first call, not at import.
"""
from __future__ import annotations

from typing import Any

__all__ = ["alpha_dropout", "conv1d_transpose", "nth_element", "sampled_sparse_softmax_loss", "scaled_softplus"]

#: The value a dropped SELU unit takes: -lambda * alpha of the SELU (Klambauer et al., 2017).
_SELU_SATURATION = -1.7580993408473766


def _tf() -> Any:
    import tensorflow as tf
    return tf


def alpha_dropout(x: Any, keep_prob: Any, noise_shape: Any = None, seed: int | None = None,
                  name: str | None = None) -> Any:
    """Dropout for SELU networks: keeps the mean and variance of standardized inputs.

    Each unit of float ``x`` is kept with probability ``keep_prob``, else set to
    the SELU saturation value ``s``; the result is ``a * x' + b`` with
    ``a = (p + s^2 p (1 - p))^-1/2`` and ``b = -a s (1 - p)``. Same shape and dtype as ``x``.
    """
    tf = _tf()
    with tf.name_scope(name or "alpha_dropout"):
        x = tf.convert_to_tensor(x, name="x")
        if isinstance(keep_prob, (int, float)) and not 0.0 < keep_prob <= 1.0:
            raise ValueError(f"alpha_dropout: keep_prob must be in (0, 1], got {keep_prob}")
        if isinstance(keep_prob, (int, float)) and keep_prob == 1.0:
            return x
        keep = tf.cast(keep_prob, x.dtype)
        shape = tf.shape(x) if noise_shape is None else noise_shape
        kept = tf.cast(tf.random.uniform(shape, seed=seed, dtype=x.dtype) >= 1.0 - keep, x.dtype)
        a = (keep + _SELU_SATURATION ** 2 * keep * (1.0 - keep)) ** -0.5
        b = -a * _SELU_SATURATION * (1.0 - keep)
        return a * (x * kept + _SELU_SATURATION * (1.0 - kept)) + b


def conv1d_transpose(value: Any = None, filter: Any = None, output_shape: Any = None,
                     stride: Any = None, padding: str = "SAME", data_format: str = "NWC",
                     name: str | None = None) -> Any:
    """The transpose of ``conv1d``: ``value`` ``[batch, width, in]``, ``filter`` ``[width, out, in]``."""
    return _tf().nn.conv1d_transpose(value, filter, output_shape, strides=stride, padding=padding,
                                     data_format=data_format, name=name)


def nth_element(input: Any, n: Any, reverse: bool = False, name: str | None = None) -> Any:
    """The ``n``-th smallest value (largest when ``reverse``) along the last axis of ``input``."""
    from tensorflow.python.ops import nn_ops
    return nn_ops.nth_element(input, n, reverse=reverse, name=name)


def scaled_softplus(x: Any, alpha: Any, clip: Any = None, name: str | None = None) -> Any:
    """``alpha * log(1 + exp(x / alpha))``, and ``min(that, clip)`` when ``clip`` is given."""
    tf = _tf()
    with tf.name_scope(name or "scaled_softplus"):
        x = tf.convert_to_tensor(x, name="x")
        alpha = tf.cast(alpha, x.dtype)
        y = alpha * tf.nn.softplus(x / alpha)
        return y if clip is None else tf.minimum(y, tf.cast(clip, x.dtype))


def sampled_sparse_softmax_loss(weights: Any, biases: Any, labels: Any, inputs: Any, num_sampled: int,
                                num_classes: int, sampled_values: Any = None, remove_accidental_hits: bool = True,
                                partition_strategy: str = "mod",
                                name: str = "sampled_sparse_softmax_loss") -> Any:
    """Sampled softmax loss ``[batch]`` for one true class per row (``labels`` int ``[batch, 1]``).

    The same loss as ``tf.compat.v1.nn.sampled_softmax_loss`` with ``num_true=1``
    (TF 1.x computed it with a sparse cross entropy on the true class's column).
    """
    return _tf().compat.v1.nn.sampled_softmax_loss(
        weights, biases, labels, inputs, num_sampled, num_classes, num_true=1, sampled_values=sampled_values,
        remove_accidental_hits=remove_accidental_hits, partition_strategy=partition_strategy, name=name)
