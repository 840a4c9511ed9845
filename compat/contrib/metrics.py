"""``tf.contrib.metrics``: the ``streaming_*`` metrics, predictions first, on ``tf.compat.v1.metrics``.

Each ``streaming_<m>(predictions, labels, ...)`` returns ``(value, update_op)``
with local variables, as in TF 1.x; it calls ``tf.compat.v1.metrics.<m>(labels,
predictions, ...)``, which kept the same accumulators. The rates (false
positive / negative) are written from their counts, ``streaming_recall_at_k``
from ``in_top_k``, and ``streaming_covariance`` / ``streaming_pearson_correlation``
from running co-moments.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import tensorflow as tf

from compat.contrib import refusing_getattr

__all__ = [
    "accuracy", "aggregate_metric_map", "aggregate_metrics", "cohen_kappa", "confusion_matrix", "count",
    "set_difference", "streaming_sparse_average_precision_at_top_k", "f1_score", "precision_at_recall",
    "recall_at_precision",
    "streaming_curve_points",
    "streaming_concat",
    "set_intersection", "set_size", "set_union", "sparse_recall_at_top_k", "streaming_accuracy", "streaming_auc",
    "streaming_covariance", "streaming_false_negative_rate", "streaming_false_negative_rate_at_thresholds",
    "streaming_false_negatives", "streaming_false_positive_rate_at_thresholds",
    "streaming_false_negatives_at_thresholds", "streaming_false_positive_rate", "streaming_false_positives",
    "streaming_false_positives_at_thresholds", "streaming_mean", "streaming_mean_absolute_error",
    "streaming_mean_cosine_distance", "streaming_mean_iou", "streaming_mean_relative_error",
    "streaming_mean_squared_error", "streaming_mean_tensor", "streaming_pearson_correlation",
    "streaming_percentage_less", "streaming_precision", "streaming_precision_at_thresholds",
    "streaming_recall", "streaming_recall_at_k", "streaming_recall_at_thresholds",
    "streaming_root_mean_squared_error", "streaming_sensitivity_at_specificity",
    "streaming_sparse_average_precision_at_k", "streaming_sparse_precision_at_k",
    "streaming_sparse_precision_at_top_k", "streaming_sparse_recall_at_k", "streaming_specificity_at_sensitivity",
    "streaming_true_negatives", "streaming_true_negatives_at_thresholds", "streaming_true_positives",
    "streaming_true_positives_at_thresholds",
]

REFUSED: dict[str, str] = {
    "auc_using_histogram": "tf.compat.v1.metrics.auc (or streaming_auc)",
    "auc_with_confidence_intervals": "tf.compat.v1.metrics.auc; confidence intervals by bootstrap in NumPy",
    "precision_recall_at_equal_thresholds": "tf.compat.v1.metrics.precision_at_thresholds and "
                                            "recall_at_thresholds",
    "streaming_dynamic_auc": "tf.compat.v1.metrics.auc, or sklearn.metrics.roc_auc_score on gathered values",
}

__getattr__ = refusing_getattr("metrics", REFUSED)

_M = tf.compat.v1.metrics
Pair = tuple[Any, Any]


def _common(weights: Any, metrics_collections: Any, updates_collections: Any, name: Any) -> dict[str, Any]:
    return {"weights": weights, "metrics_collections": metrics_collections,
            "updates_collections": updates_collections, "name": name}


def streaming_accuracy(predictions: Any, labels: Any, weights: Any = None, metrics_collections: Any = None,
                       updates_collections: Any = None, name: Any = None) -> Pair:
    """Running fraction of ``predictions == labels``."""
    return _M.accuracy(labels, predictions, **_common(weights, metrics_collections, updates_collections, name))


def streaming_mean(values: Any, weights: Any = None, metrics_collections: Any = None,
                   updates_collections: Any = None, name: Any = None) -> Pair:
    """Running (weighted) mean of ``values``."""
    return _M.mean(values, **_common(weights, metrics_collections, updates_collections, name))


def streaming_mean_tensor(values: Any, weights: Any = None, metrics_collections: Any = None,
                          updates_collections: Any = None, name: Any = None) -> Pair:
    """Running element-wise mean of ``values``."""
    return _M.mean_tensor(values, **_common(weights, metrics_collections, updates_collections, name))


def streaming_precision(predictions: Any, labels: Any, weights: Any = None, metrics_collections: Any = None,
                        updates_collections: Any = None, name: Any = None) -> Pair:
    """Running ``tp / (tp + fp)``."""
    return _M.precision(labels, predictions, **_common(weights, metrics_collections, updates_collections, name))


def streaming_recall(predictions: Any, labels: Any, weights: Any = None, metrics_collections: Any = None,
                     updates_collections: Any = None, name: Any = None) -> Pair:
    """Running ``tp / (tp + fn)``."""
    return _M.recall(labels, predictions, **_common(weights, metrics_collections, updates_collections, name))


def _count(metric: Any) -> Any:
    def streaming_count(predictions: Any, labels: Any, weights: Any = None, metrics_collections: Any = None,
                        updates_collections: Any = None, name: Any = None) -> Pair:
        return metric(labels, predictions, **_common(weights, metrics_collections, updates_collections, name))
    streaming_count.__doc__ = f"Running count, ``tf.compat.v1.metrics.{metric.__name__}`` (predictions first)."
    return streaming_count


streaming_true_positives = _count(_M.true_positives)
streaming_true_negatives = _count(_M.true_negatives)
streaming_false_positives = _count(_M.false_positives)
streaming_false_negatives = _count(_M.false_negatives)


def _count_at_thresholds(metric: Any) -> Any:
    def streaming_count_at_thresholds(predictions: Any, labels: Any, thresholds: Any, weights: Any = None,
                                      metrics_collections: Any = None, updates_collections: Any = None,
                                      name: Any = None) -> Pair:
        return metric(labels, predictions, thresholds, weights=weights, metrics_collections=metrics_collections,
                      updates_collections=updates_collections, name=name)
    streaming_count_at_thresholds.__doc__ = (f"Running counts per threshold, ``tf.compat.v1.metrics."
                                             f"{metric.__name__}`` (predictions first).")
    return streaming_count_at_thresholds


streaming_true_positives_at_thresholds = _count_at_thresholds(_M.true_positives_at_thresholds)
streaming_true_negatives_at_thresholds = _count_at_thresholds(_M.true_negatives_at_thresholds)
streaming_false_positives_at_thresholds = _count_at_thresholds(_M.false_positives_at_thresholds)
streaming_false_negatives_at_thresholds = _count_at_thresholds(_M.false_negatives_at_thresholds)
streaming_precision_at_thresholds = _count_at_thresholds(_M.precision_at_thresholds)
streaming_recall_at_thresholds = _count_at_thresholds(_M.recall_at_thresholds)


def _rate(numerator: Any, other: Any, default_name: str) -> Any:
    """``count / (count + other)`` from two running counts (0 when both are 0)."""
    def streaming_rate(predictions: Any, labels: Any, weights: Any = None, metrics_collections: Any = None,
                       updates_collections: Any = None, name: Any = None) -> Pair:
        with tf.compat.v1.variable_scope(name, default_name, (predictions, labels, weights)):
            num, num_update = numerator(labels, predictions, weights=weights)
            den, den_update = other(labels, predictions, weights=weights)
            value = tf.math.divide_no_nan(num, num + den)
            update = tf.math.divide_no_nan(num_update, num_update + den_update)
            if metrics_collections:
                tf.compat.v1.add_to_collections(metrics_collections, value)
            if updates_collections:
                tf.compat.v1.add_to_collections(updates_collections, update)
            return value, update
    streaming_rate.__doc__ = f"Running {default_name.replace('_', ' ')}."
    return streaming_rate


streaming_false_positive_rate = _rate(_M.false_positives, _M.true_negatives, "false_positive_rate")
streaming_false_negative_rate = _rate(_M.false_negatives, _M.true_positives, "false_negative_rate")


def _rate_at_thresholds(numerator: Any, other: Any, default_name: str) -> Any:
    """``count / (count + other)`` per threshold, from two running counts at thresholds."""
    def streaming_rate_at_thresholds(predictions: Any, labels: Any, thresholds: Any, weights: Any = None,
                                     metrics_collections: Any = None, updates_collections: Any = None,
                                     name: Any = None) -> Pair:
        with tf.compat.v1.variable_scope(name, default_name, (predictions, labels, weights)):
            num, num_update = numerator(labels, predictions, thresholds, weights=weights)
            den, den_update = other(labels, predictions, thresholds, weights=weights)
            value = tf.math.divide_no_nan(num, num + den)
            update = tf.math.divide_no_nan(num_update, num_update + den_update)
        for collection, tensor in ((metrics_collections, value), (updates_collections, update)):
            if collection:
                tf.compat.v1.add_to_collections(collection, tensor)
        return value, update
    streaming_rate_at_thresholds.__doc__ = f"Running {default_name.replace('_', ' ')} (one per threshold)."
    return streaming_rate_at_thresholds


streaming_false_positive_rate_at_thresholds = _rate_at_thresholds(
    _M.false_positives_at_thresholds, _M.true_negatives_at_thresholds, "false_positive_rate_at_thresholds")
streaming_false_negative_rate_at_thresholds = _rate_at_thresholds(
    _M.false_negatives_at_thresholds, _M.true_positives_at_thresholds, "false_negative_rate_at_thresholds")


def streaming_auc(predictions: Any, labels: Any, weights: Any = None, num_thresholds: int = 200,
                  metrics_collections: Any = None, updates_collections: Any = None, curve: str = "ROC",
                  name: Any = None, summation_method: str = "trapezoidal") -> Pair:
    """Running area under the ROC (or PR) curve over ``num_thresholds`` thresholds."""
    return _M.auc(labels, predictions, weights=weights, num_thresholds=num_thresholds,
                  metrics_collections=metrics_collections, updates_collections=updates_collections,
                  curve=curve, name=name, summation_method=summation_method)


def streaming_mean_absolute_error(predictions: Any, labels: Any, weights: Any = None,
                                  metrics_collections: Any = None, updates_collections: Any = None,
                                  name: Any = None) -> Pair:
    """Running mean of ``|predictions - labels|``."""
    return _M.mean_absolute_error(labels, predictions,
                                  **_common(weights, metrics_collections, updates_collections, name))


def streaming_mean_squared_error(predictions: Any, labels: Any, weights: Any = None,
                                 metrics_collections: Any = None, updates_collections: Any = None,
                                 name: Any = None) -> Pair:
    """Running mean of ``(predictions - labels) ** 2``."""
    return _M.mean_squared_error(labels, predictions,
                                 **_common(weights, metrics_collections, updates_collections, name))


def streaming_root_mean_squared_error(predictions: Any, labels: Any, weights: Any = None,
                                      metrics_collections: Any = None, updates_collections: Any = None,
                                      name: Any = None) -> Pair:
    """Square root of the running mean squared error."""
    return _M.root_mean_squared_error(labels, predictions,
                                      **_common(weights, metrics_collections, updates_collections, name))


def streaming_mean_relative_error(predictions: Any, labels: Any, normalizer: Any, weights: Any = None,
                                  metrics_collections: Any = None, updates_collections: Any = None,
                                  name: Any = None) -> Pair:
    """Running mean of ``|predictions - labels| / normalizer``."""
    return _M.mean_relative_error(labels, predictions, normalizer,
                                  **_common(weights, metrics_collections, updates_collections, name))


def streaming_mean_cosine_distance(predictions: Any, labels: Any, dim: int, weights: Any = None,
                                   metrics_collections: Any = None, updates_collections: Any = None,
                                   name: Any = None) -> Pair:
    """Running mean of ``1 - sum(predictions * labels, dim)`` (unit-normalised inputs)."""
    return _M.mean_cosine_distance(labels, predictions, dim,
                                   **_common(weights, metrics_collections, updates_collections, name))


def streaming_mean_iou(predictions: Any, labels: Any, num_classes: int, weights: Any = None,
                       metrics_collections: Any = None, updates_collections: Any = None, name: Any = None) -> Pair:
    """Running mean intersection-over-union over ``num_classes`` classes."""
    return _M.mean_iou(labels, predictions, num_classes,
                       **_common(weights, metrics_collections, updates_collections, name))


def streaming_percentage_less(values: Any, threshold: Any, weights: Any = None, metrics_collections: Any = None,
                              updates_collections: Any = None, name: Any = None) -> Pair:
    """Running fraction of ``values < threshold``."""
    return _M.percentage_below(values, threshold, **_common(weights, metrics_collections, updates_collections,
                                                            name))


def streaming_sensitivity_at_specificity(predictions: Any, labels: Any, specificity: float, weights: Any = None,
                                         num_thresholds: int = 200, metrics_collections: Any = None,
                                         updates_collections: Any = None, name: Any = None) -> Pair:
    """Running sensitivity at the threshold whose specificity is closest to ``specificity``."""
    return _M.sensitivity_at_specificity(labels, predictions, specificity, weights=weights,
                                         num_thresholds=num_thresholds, metrics_collections=metrics_collections,
                                         updates_collections=updates_collections, name=name)


def streaming_specificity_at_sensitivity(predictions: Any, labels: Any, sensitivity: float, weights: Any = None,
                                         num_thresholds: int = 200, metrics_collections: Any = None,
                                         updates_collections: Any = None, name: Any = None) -> Pair:
    """Running specificity at the threshold whose sensitivity is closest to ``sensitivity``."""
    return _M.specificity_at_sensitivity(labels, predictions, sensitivity, weights=weights,
                                         num_thresholds=num_thresholds, metrics_collections=metrics_collections,
                                         updates_collections=updates_collections, name=name)


def streaming_recall_at_k(predictions: Any, labels: Any, k: int, weights: Any = None,
                          metrics_collections: Any = None, updates_collections: Any = None,
                          name: Any = None) -> Pair:
    """Running fraction of rows whose label is among the ``k`` highest ``predictions`` (``[B, C]``, labels ``[B]``)."""
    in_top_k = tf.cast(tf.compat.v1.nn.in_top_k(predictions, labels, k), tf.float32)
    return _M.mean(in_top_k, **_common(weights, metrics_collections, updates_collections,
                                       name or "recall_at_k"))


def streaming_sparse_recall_at_k(predictions: Any, labels: Any, k: int, class_id: Any = None,
                                 weights: Any = None, metrics_collections: Any = None,
                                 updates_collections: Any = None, name: Any = None) -> Pair:
    """``tf.compat.v1.metrics.recall_at_k`` (predictions first)."""
    return _M.recall_at_k(labels, predictions, k, class_id=class_id,
                          **_common(weights, metrics_collections, updates_collections, name))


def streaming_sparse_precision_at_k(predictions: Any, labels: Any, k: int, class_id: Any = None,
                                    weights: Any = None, metrics_collections: Any = None,
                                    updates_collections: Any = None, name: Any = None) -> Pair:
    """``tf.compat.v1.metrics.precision_at_k`` (predictions first)."""
    return _M.precision_at_k(labels, predictions, k, class_id=class_id,
                             **_common(weights, metrics_collections, updates_collections, name))


def streaming_sparse_precision_at_top_k(top_k_predictions: Any, labels: Any, class_id: Any = None,
                                        weights: Any = None, metrics_collections: Any = None,
                                        updates_collections: Any = None, name: Any = None) -> Pair:
    """``tf.compat.v1.metrics.precision_at_top_k`` (predictions first)."""
    return _M.precision_at_top_k(labels, top_k_predictions, class_id=class_id,
                                 **_common(weights, metrics_collections, updates_collections, name))


def sparse_recall_at_top_k(labels: Any, top_k_predictions: Any, class_id: Any = None, weights: Any = None,
                           metrics_collections: Any = None, updates_collections: Any = None,
                           name: Any = None) -> Pair:
    """``tf.compat.v1.metrics.recall_at_top_k``."""
    return _M.recall_at_top_k(labels, top_k_predictions, class_id=class_id,
                              **_common(weights, metrics_collections, updates_collections, name))


def streaming_sparse_average_precision_at_k(predictions: Any, labels: Any, k: int, weights: Any = None,
                                            metrics_collections: Any = None, updates_collections: Any = None,
                                            name: Any = None) -> Pair:
    """``tf.compat.v1.metrics.average_precision_at_k`` (predictions first)."""
    return _M.average_precision_at_k(labels, predictions, k,
                                     **_common(weights, metrics_collections, updates_collections, name))


def streaming_sparse_average_precision_at_top_k(top_k_predictions: Any, labels: Any, weights: Any = None,
                                                metrics_collections: Any = None, updates_collections: Any = None,
                                                name: Any = None) -> Pair:
    """Running average precision of ranked class ids ``top_k_predictions`` ``[batch, k]`` (int) against ``labels``."""
    from tensorflow.python.ops import metrics_impl
    return metrics_impl._streaming_sparse_average_precision_at_top_k(
        labels, top_k_predictions, **_common(weights, metrics_collections, updates_collections, name))


def cohen_kappa(labels: Any, predictions_idx: Any, num_classes: int, weights: Any = None,
                metrics_collections: Any = None, updates_collections: Any = None, name: Any = None) -> Pair:
    """Running Cohen's kappa ``(p_o - p_e) / (1 - p_e)`` of integer class ids in ``[0, num_classes)``.

    ``p_o`` is the (weighted) fraction of agreements and ``p_e`` the agreement
    expected from the two marginal class frequencies, both from a running
    ``[num_classes, num_classes]`` confusion matrix (a local variable).
    """
    with tf.compat.v1.variable_scope(name, "cohen_kappa", (labels, predictions_idx, weights)):
        labels = tf.reshape(tf.cast(labels, tf.int64), [-1])
        predictions_idx = tf.reshape(tf.cast(predictions_idx, tf.int64), [-1])
        batch_weights = None if weights is None else tf.reshape(
            tf.broadcast_to(tf.cast(weights, tf.float32), tf.shape(labels)), [-1])
        matrix = _local("confusion", (num_classes, num_classes))
        update = tf.compat.v1.assign_add(matrix, tf.math.confusion_matrix(
            labels, predictions_idx, num_classes, weights=batch_weights, dtype=tf.float32))

        def kappa(counts: Any) -> Any:
            total = tf.reduce_sum(counts)
            observed = tf.math.divide_no_nan(tf.linalg.trace(counts), total)
            expected = tf.math.divide_no_nan(
                tf.reduce_sum(tf.reduce_sum(counts, 0) * tf.reduce_sum(counts, 1)), total * total)
            return tf.math.divide_no_nan(observed - expected, 1.0 - expected)

        value, update_op = kappa(matrix), kappa(update)
    for collection, tensor in ((metrics_collections, value), (updates_collections, update_op)):
        if collection:
            tf.compat.v1.add_to_collections(collection, tensor)
    return value, update_op


#: Added to denominators of the threshold metrics below, as TF 1.x did (a rate of 0/0 is 0).
_EPSILON = 1e-7


def _curve_thresholds(num_thresholds: int) -> list[float]:
    """``num_thresholds`` evenly spaced thresholds from just below 0 to just above 1 (as ``auc`` uses)."""
    if num_thresholds < 2:
        raise ValueError(f"num_thresholds must be at least 2, got {num_thresholds}")
    inner = [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    return [0.0 - _EPSILON, *inner, 1.0 + _EPSILON]


def _curve_metric(labels: Any, predictions: Any, weights: Any, num_thresholds: int, metrics_collections: Any,
                  updates_collections: Any, name: Any, default_name: str, compute: Any) -> Pair:
    """``compute(counts)`` over the running tp/fp/tn/fn counts at :func:`_curve_thresholds` (value, update)."""
    from tensorflow.python.ops import metrics_impl
    with tf.compat.v1.variable_scope(name, default_name, (labels, predictions, weights)):
        values, updates = metrics_impl._confusion_matrix_at_thresholds(
            labels, predictions, _curve_thresholds(num_thresholds), weights=weights)
        value, update = compute(values), compute(updates)
    for collection, tensor in ((metrics_collections, value), (updates_collections, update)):
        if collection:
            tf.compat.v1.add_to_collections(collection, tensor)
    return value, update


def f1_score(labels: Any, predictions: Any, weights: Any = None, num_thresholds: int = 200,
             metrics_collections: Any = None, updates_collections: Any = None, name: Any = None) -> Pair:
    """Running best F1 ``2PR / (P + R)`` over ``num_thresholds`` thresholds of ``predictions`` in [0, 1]."""
    def best_f1(counts: Mapping[str, Any]) -> Any:
        precision = counts["tp"] / (counts["tp"] + counts["fp"] + _EPSILON)
        recall = counts["tp"] / (counts["tp"] + counts["fn"] + _EPSILON)
        return tf.reduce_max(2.0 * precision * recall / (precision + recall + _EPSILON))
    return _curve_metric(labels, predictions, weights, num_thresholds, metrics_collections, updates_collections,
                         name, "f1", best_f1)


def precision_at_recall(labels: Any, predictions: Any, target_recall: float, weights: Any = None,
                        num_thresholds: int = 200, metrics_collections: Any = None, updates_collections: Any = None,
                        name: Any = None) -> Pair:
    """Running precision at the threshold whose recall is closest to ``target_recall`` (in [0, 1])."""
    if not 0.0 <= target_recall <= 1.0:
        raise ValueError(f"precision_at_recall: target_recall must be in [0, 1], got {target_recall}")

    def precision_there(counts: Mapping[str, Any]) -> Any:
        recall = counts["tp"] / (counts["tp"] + counts["fn"] + _EPSILON)
        index = tf.argmin(tf.abs(recall - target_recall), output_type=tf.int32)
        return counts["tp"][index] / (counts["tp"][index] + counts["fp"][index] + _EPSILON)
    return _curve_metric(labels, predictions, weights, num_thresholds, metrics_collections, updates_collections,
                         name, "precision_at_recall", precision_there)


def recall_at_precision(labels: Any, predictions: Any, precision: float, weights: Any = None,
                        num_thresholds: int = 200, metrics_collections: Any = None, updates_collections: Any = None,
                        name: Any = None, strict_mode: bool = False) -> Pair:
    """Running recall at the threshold whose precision is closest to ``precision`` (in [0, 1]).

    ``strict_mode=True`` (only thresholds at or above the target precision) is not provided.
    """
    if not 0.0 <= precision <= 1.0:
        raise ValueError(f"recall_at_precision: precision must be in [0, 1], got {precision}")
    if strict_mode:
        raise ValueError("recall_at_precision: strict_mode=True is not provided by the compat runner; use "
                         "strict_mode=False or streaming_precision_at_thresholds / streaming_recall_at_thresholds")

    def recall_there(counts: Mapping[str, Any]) -> Any:
        precisions = counts["tp"] / (counts["tp"] + counts["fp"] + _EPSILON)
        index = tf.argmin(tf.abs(precisions - precision), output_type=tf.int32)
        return counts["tp"][index] / (counts["tp"][index] + counts["fn"][index] + _EPSILON)
    return _curve_metric(labels, predictions, weights, num_thresholds, metrics_collections, updates_collections,
                         name, "recall_at_precision", recall_there)


def streaming_curve_points(labels: Any = None, predictions: Any = None, weights: Any = None,
                           num_thresholds: int = 200, metrics_collections: Any = None,
                           updates_collections: Any = None, curve: str = "ROC", name: Any = None) -> Pair:
    """Running curve points, float32 ``[num_thresholds, 2]``: (false positive rate, recall) per threshold for
    ``curve="ROC"``, (recall, precision) for ``curve="PR"``."""
    if curve not in ("ROC", "PR"):
        raise ValueError(f"streaming_curve_points: curve must be 'ROC' or 'PR', got {curve!r}")

    def points(counts: Mapping[str, Any]) -> Any:
        recall = counts["tp"] / (counts["tp"] + counts["fn"] + _EPSILON)
        if curve == "ROC":
            return tf.stack([counts["fp"] / (counts["fp"] + counts["tn"] + _EPSILON), recall], axis=1)
        return tf.stack([recall, counts["tp"] / (counts["tp"] + counts["fp"] + _EPSILON)], axis=1)
    return _curve_metric(labels, predictions, weights, num_thresholds, metrics_collections, updates_collections,
                         name, "curve_points", points)


def _local(name: str, shape: Sequence[int] = ()) -> Any:
    return tf.compat.v1.get_variable(name, shape, tf.float32, initializer=tf.compat.v1.zeros_initializer(),
                                     trainable=False, collections=[tf.compat.v1.GraphKeys.LOCAL_VARIABLES,
                                                                   tf.compat.v1.GraphKeys.METRIC_VARIABLES])


def _co_moments(predictions: Any, labels: Any, weights: Any) -> tuple[list[Any], Any]:
    """Running sums (w, w*x, w*y, w*x*y, w*x*x, w*y*y) and the op that adds a batch."""
    x = tf.reshape(tf.cast(predictions, tf.float32), [-1])
    y = tf.reshape(tf.cast(labels, tf.float32), [-1])
    w = tf.ones_like(x) if weights is None else tf.reshape(
        tf.broadcast_to(tf.cast(weights, tf.float32), tf.shape(predictions)), [-1])
    sums = [_local(name) for name in ("count", "sum_x", "sum_y", "sum_xy", "sum_xx", "sum_yy")]
    terms = [w, w * x, w * y, w * x * y, w * x * x, w * y * y]
    update = tf.group(*[tf.compat.v1.assign_add(s, tf.reduce_sum(t)) for s, t in zip(sums, terms, strict=True)])
    return sums, update


def _covariance(sums: Sequence[Any], cross: int) -> Any:
    """Unbiased co-moment ``(S_ab - S_a S_b / n) / (n - 1)`` of the pair at index ``cross`` (3: xy, 4: xx, 5: yy)."""
    n, sx, sy = sums[0], sums[1], sums[2]
    first, second = {3: (sx, sy), 4: (sx, sx), 5: (sy, sy)}[cross]
    return (sums[cross] - first * second / n) / (n - 1.0)


def streaming_covariance(predictions: Any, labels: Any, weights: Any = None, metrics_collections: Any = None,
                         updates_collections: Any = None, name: Any = None) -> Pair:
    """Running unbiased (weighted) covariance of ``predictions`` and ``labels``."""
    with tf.compat.v1.variable_scope(name, "covariance", (predictions, labels, weights)):
        sums, update = _co_moments(predictions, labels, weights)
        value = _covariance(sums, 3)
        with tf.control_dependencies([update]):
            update_value = tf.identity(_covariance([tf.identity(s) for s in sums], 3))
    for collection, tensor in ((metrics_collections, value), (updates_collections, update_value)):
        if collection:
            tf.compat.v1.add_to_collections(collection, tensor)
    return value, update_value


def streaming_pearson_correlation(predictions: Any, labels: Any, weights: Any = None,
                                  metrics_collections: Any = None, updates_collections: Any = None,
                                  name: Any = None) -> Pair:
    """Running Pearson correlation ``cov(x, y) / sqrt(var(x) var(y))``."""
    def correlation(sums: Sequence[Any]) -> Any:
        return _covariance(sums, 3) / tf.sqrt(_covariance(sums, 4) * _covariance(sums, 5))
    with tf.compat.v1.variable_scope(name, "pearson_r", (predictions, labels, weights)):
        sums, update = _co_moments(predictions, labels, weights)
        value = correlation(sums)
        with tf.control_dependencies([update]):
            update_value = tf.identity(correlation([tf.identity(s) for s in sums]))
    for collection, tensor in ((metrics_collections, value), (updates_collections, update_value)):
        if collection:
            tf.compat.v1.add_to_collections(collection, tensor)
    return value, update_value


def streaming_concat(values: Any, axis: int = 0, max_size: Any = None, metrics_collections: Any = None,
                     updates_collections: Any = None, name: Any = None) -> Pair:
    """Every ``values`` seen so far, concatenated along ``axis`` (the other dimensions must be known).

    ``max_size`` only sized TF 1.x's preallocated buffer and is accepted and ignored.

    Raises:
        ValueError: a dimension other than ``axis`` of ``values`` is unknown.
    """
    del max_size
    values = tf.convert_to_tensor(values)
    shape = values.shape.as_list()
    axis = axis % len(shape)
    if any(dim is None for i, dim in enumerate(shape) if i != axis):
        raise ValueError(f"streaming_concat: the dimensions of values other than axis {axis} must be known; "
                         f"got shape {values.shape}")
    empty = [0 if i == axis else dim for i, dim in enumerate(shape)]
    with tf.compat.v1.variable_scope(name, "streaming_concat", (values,)):
        gathered = tf.compat.v1.get_variable(
            "array", initializer=tf.zeros(empty, values.dtype), validate_shape=False, trainable=False,
            collections=[tf.compat.v1.GraphKeys.LOCAL_VARIABLES, tf.compat.v1.GraphKeys.METRIC_VARIABLES])
        current = tf.reshape(gathered, [-1 if i == axis else dim for i, dim in enumerate(shape)])
        update = tf.compat.v1.assign(gathered, tf.concat([current, values], axis), validate_shape=False)
        value = tf.identity(current)
    for collection, tensor in ((metrics_collections, value), (updates_collections, update)):
        if collection:
            tf.compat.v1.add_to_collections(collection, tensor)
    return value, update


def accuracy(predictions: Any, labels: Any, weights: Any = None, name: Any = None) -> Any:
    """The (weighted) fraction of ``predictions == labels`` in this batch (not streaming)."""
    with tf.name_scope(name or "accuracy"):
        correct = tf.cast(tf.equal(predictions, labels), tf.float32)
        if weights is None:
            return tf.reduce_mean(correct)
        weights = tf.broadcast_to(tf.cast(weights, tf.float32), tf.shape(correct))
        return tf.reduce_sum(correct * weights) / tf.reduce_sum(weights)


def count(values: Any, weights: Any = None, metrics_collections: Any = None, updates_collections: Any = None,
          name: Any = None) -> Pair:
    """Running (weighted) number of elements of ``values``."""
    with tf.compat.v1.variable_scope(name, "count", (values, weights)):
        total = _local("count")
        ones = tf.ones_like(tf.cast(values, tf.float32))
        if weights is not None:
            ones = ones * tf.cast(weights, tf.float32)
        update = tf.compat.v1.assign_add(total, tf.reduce_sum(ones))
        value = tf.identity(total)
    for collection, tensor in ((metrics_collections, value), (updates_collections, update)):
        if collection:
            tf.compat.v1.add_to_collections(collection, tensor)
    return value, update


def aggregate_metrics(*value_update_tuples: Pair) -> tuple[list[Any], list[Any]]:
    """``([values], [update_ops])`` from ``(value, update_op)`` pairs."""
    if not value_update_tuples:
        raise ValueError("aggregate_metrics: give at least one (value, update_op) pair; got none")
    values, updates = zip(*value_update_tuples, strict=True)
    return list(values), list(updates)


def aggregate_metric_map(names_to_tuples: Mapping[str, Pair]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``({name: value}, {name: update_op})`` from ``{name: (value, update_op)}``."""
    return ({name: pair[0] for name, pair in names_to_tuples.items()},
            {name: pair[1] for name, pair in names_to_tuples.items()})


def confusion_matrix(labels: Any, predictions: Any, num_classes: Any = None, dtype: Any = tf.int32,
                     name: Any = None, weights: Any = None) -> Any:
    """``tf.math.confusion_matrix`` (rows: labels, columns: predictions)."""
    return tf.math.confusion_matrix(labels, predictions, num_classes=num_classes, weights=weights, dtype=dtype,
                                    name=name)


def set_size(a: Any, validate_indices: bool = True) -> Any:
    """``tf.sets.size``."""
    return tf.sets.size(a, validate_indices=validate_indices)


def set_intersection(a: Any, b: Any, validate_indices: bool = True) -> Any:
    """``tf.sets.intersection``."""
    return tf.sets.intersection(a, b, validate_indices=validate_indices)


def set_union(a: Any, b: Any, validate_indices: bool = True) -> Any:
    """``tf.sets.union``."""
    return tf.sets.union(a, b, validate_indices=validate_indices)


def set_difference(a: Any, b: Any, aminusb: bool = True, validate_indices: bool = True) -> Any:
    """``tf.sets.difference``."""
    return tf.sets.difference(a, b, aminusb=aminusb, validate_indices=validate_indices)
