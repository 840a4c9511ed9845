"""``tf.contrib.sparsemax``: sparsemax (Martins & Astudillo, 2016) and its loss.

``sparsemax(z)`` is the Euclidean projection of each row of logits onto the
probability simplex: ``p_i = max(z_i - tau, 0)`` with ``tau`` chosen so the row
sums to 1. ``sparsemax_loss(z, p, q) = -q.z + 1/2 sum_{i in S(z)} (z_i^2 - tau^2) + 1/2 |q|^2``.
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from compat.contrib import refusing_getattr

__all__ = ["sparsemax", "sparsemax_loss"]

REFUSED: dict[str, str] = {}

__getattr__ = refusing_getattr("sparsemax", REFUSED)


def _threshold(logits: Any) -> Any:
    """``[B, 1]`` the threshold ``tau`` of each row of ``[B, K]`` ``logits``."""
    num_classes = tf.shape(logits)[1]
    sorted_z = tf.sort(logits, axis=1, direction="DESCENDING")
    ks = tf.cast(tf.range(1, num_classes + 1), logits.dtype)[None]
    cumulative = tf.cumsum(sorted_z, axis=1)
    # The support is the k largest entries with 1 + k z_(k) > sum_{j<=k} z_(j).
    support = tf.cast(1.0 + ks * sorted_z > cumulative, tf.int32)
    k = tf.reduce_sum(support, axis=1)
    tau_sum = tf.gather(cumulative, k - 1, batch_dims=1)
    return ((tau_sum - 1.0) / tf.cast(k, logits.dtype))[:, None]


def sparsemax(logits: Any, name: Any = None) -> Any:
    """``[B, K]`` sparse probabilities of ``[B, K]`` float ``logits``."""
    with tf.name_scope(name or "sparsemax"):
        logits = tf.convert_to_tensor(logits)
        # Shifting by the row mean changes nothing and keeps the sums small.
        logits = logits - tf.reduce_mean(logits, axis=1, keepdims=True)
        return tf.maximum(logits - _threshold(logits), 0.0)


def sparsemax_loss(logits: Any, sparsemax: Any, labels: Any, name: Any = None) -> Any:
    """``[B]`` the sparsemax loss of ``logits`` given their ``sparsemax`` and target distributions ``labels``."""
    with tf.name_scope(name or "sparsemax_loss"):
        logits = tf.convert_to_tensor(logits)
        labels = tf.cast(labels, logits.dtype)
        logits = logits - tf.reduce_mean(logits, axis=1, keepdims=True)
        tau = _threshold(logits)
        in_support = tf.cast(tf.convert_to_tensor(sparsemax) > 0, logits.dtype)
        squares = in_support * (tf.square(logits) - tf.square(tau))
        return (-tf.reduce_sum(labels * logits, axis=1) + 0.5 * tf.reduce_sum(squares, axis=1)
                + 0.5 * tf.reduce_sum(tf.square(labels), axis=1))
