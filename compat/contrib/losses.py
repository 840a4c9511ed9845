"""``tf.contrib.losses``: the TF 1.0 loss functions, predictions (or logits) first.

``tf.contrib.losses`` took ``(predictions, labels)`` where ``tf.compat.v1.losses``
takes ``(labels, predictions)``; each function here keeps the contrib argument
order and names and calls the ``tf.compat.v1.losses`` function, whose default
reduction (sum over the number of non-zero weights) is the one contrib used.
``hinge_loss`` returned the per-element losses, unreduced, and still does.
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from compat.contrib import refusing_getattr

__all__ = [
    "absolute_difference", "add_loss", "compute_weighted_loss", "cosine_distance", "get_losses",
    "get_regularization_losses", "get_total_loss", "hinge_loss", "log_loss", "mean_pairwise_squared_error",
    "mean_squared_error", "sigmoid_cross_entropy", "softmax_cross_entropy", "sparse_softmax_cross_entropy",
]

REFUSED: dict[str, str] = {}

_refuse = refusing_getattr("losses", REFUSED)


def __getattr__(name: str) -> Any:
    """``metric_learning`` (imported on use: ``tf_slim`` keeps TF 1.x's module); other names are refused."""
    if name == "metric_learning":
        from tf_slim.losses import metric_learning
        return metric_learning
    return _refuse(name)

_V1 = tf.compat.v1.losses
_LOSSES = tf.compat.v1.GraphKeys.LOSSES


def absolute_difference(predictions: Any, labels: Any = None, weights: Any = 1.0, scope: Any = None) -> Any:
    """Weighted mean of ``|predictions - labels|`` (scalar)."""
    return _V1.absolute_difference(labels, predictions, weights=weights, scope=scope)


def add_loss(loss: Any, loss_collection: Any = _LOSSES) -> None:
    """Adds ``loss`` to ``loss_collection``."""
    _V1.add_loss(loss, loss_collection=loss_collection)


def compute_weighted_loss(losses: Any, weights: Any = 1.0, scope: Any = None) -> Any:
    """Weighted sum of ``losses`` over the number of non-zero weights (scalar)."""
    return _V1.compute_weighted_loss(losses, weights=weights, scope=scope)


def cosine_distance(predictions: Any, labels: Any = None, axis: Any = None, weights: Any = 1.0,
                    scope: Any = None, dim: Any = None) -> Any:
    """Weighted mean of ``1 - sum(predictions * labels, axis)`` for unit-normalised inputs."""
    if axis is None:
        axis = dim
    if axis is None:
        raise ValueError("cosine_distance: give the axis (or dim) of the vectors; got neither")
    return _V1.cosine_distance(labels, predictions, axis=axis, weights=weights, scope=scope)


def get_losses(scope: Any = None, loss_collection: Any = _LOSSES) -> list[Any]:
    """The losses of ``loss_collection`` under ``scope``."""
    return _V1.get_losses(scope=scope, loss_collection=loss_collection)


def get_regularization_losses(scope: Any = None) -> list[Any]:
    """The regularization losses under ``scope``."""
    return _V1.get_regularization_losses(scope=scope)


def get_total_loss(add_regularization_losses: bool = True, name: str = "total_loss") -> Any:
    """The sum of the collected losses (and regularization losses)."""
    return _V1.get_total_loss(add_regularization_losses=add_regularization_losses, name=name)


def hinge_loss(logits: Any, labels: Any = None, scope: Any = None) -> Any:
    """Per-element ``max(0, 1 - (2 * labels - 1) * logits)``, same shape as ``logits`` (not reduced)."""
    with tf.name_scope(scope or "hinge_loss"):
        logits = tf.cast(logits, tf.float32)
        signs = 2.0 * tf.cast(labels, tf.float32) - 1.0
        return tf.nn.relu(1.0 - signs * logits)


def log_loss(predictions: Any, labels: Any = None, weights: Any = 1.0, epsilon: float = 1e-7,
             scope: Any = None) -> Any:
    """Weighted mean of ``-labels*log(p+eps) - (1-labels)*log(1-p+eps)``."""
    return _V1.log_loss(labels, predictions, weights=weights, epsilon=epsilon, scope=scope)


def mean_pairwise_squared_error(predictions: Any, labels: Any = None, weights: Any = 1.0,
                                scope: Any = None) -> Any:
    """The pairwise-differences squared error of ``tf.compat.v1.losses``."""
    return _V1.mean_pairwise_squared_error(labels, predictions, weights=weights, scope=scope)


def mean_squared_error(predictions: Any, labels: Any = None, weights: Any = 1.0, scope: Any = None) -> Any:
    """Weighted mean of ``(predictions - labels) ** 2``."""
    return _V1.mean_squared_error(labels, predictions, weights=weights, scope=scope)


def sigmoid_cross_entropy(logits: Any, multi_class_labels: Any, weights: Any = 1.0, label_smoothing: float = 0,
                          scope: Any = None) -> Any:
    """Weighted mean sigmoid cross-entropy."""
    return _V1.sigmoid_cross_entropy(multi_class_labels, logits, weights=weights,
                                     label_smoothing=label_smoothing, scope=scope)


def softmax_cross_entropy(logits: Any, onehot_labels: Any, weights: Any = 1.0, label_smoothing: float = 0,
                          scope: Any = None) -> Any:
    """Weighted mean softmax cross-entropy against one-hot labels."""
    return _V1.softmax_cross_entropy(onehot_labels, logits, weights=weights,
                                     label_smoothing=label_smoothing, scope=scope)


def sparse_softmax_cross_entropy(logits: Any, labels: Any, weights: Any = 1.0, scope: Any = None) -> Any:
    """Weighted mean softmax cross-entropy against integer labels."""
    return _V1.sparse_softmax_cross_entropy(labels, logits, weights=weights, scope=scope)
