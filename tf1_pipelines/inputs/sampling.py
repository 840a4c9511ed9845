"""Sampling through TF1 queues: ``tf.contrib.training``'s ``rejection_sample``,
``stratified_sample``, ``resample_at_rate`` and ``weighted_resample`` (TF 1.15).

* :func:`rejection_sample` keeps each element with probability
  ``accept_prob_fn(element)`` (one uniform draw per element) and batches the kept
  ones with ``tf.train.maybe_batch``; with ``enqueue_many`` the input batches are
  first split into single elements by a ``tf.train.batch`` queue.
* :func:`stratified_sample` is rejection sampling with the per-class acceptance
  probability ``a_i = (t_i / p_i) / max_j (t_j / p_j)`` (0 where ``p_i`` is 0), for
  data class proportions ``p`` and target proportions ``t``: an accepted element is
  then of class ``i`` with probability ``p_i a_i / sum_j p_j a_j = t_i``. Without
  ``init_probs``, ``p`` is estimated online from the labels seen, each class count
  starting at 10.
* :func:`resample_at_rate` repeats row ``j`` of a batch ``Poisson(rates[j])`` times.
* :func:`weighted_resample` uses the rates ``weights * overall_rate / mean``, where
  ``mean`` is a zero-debiased moving average of the batches' mean weight (decay
  ``mean_decay``) kept in a local variable.

Graph mode only; the queues' ``QueueRunner``\\ s are in the ``QUEUE_RUNNERS`` collection.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import tensorflow as tf

from tf1_pipelines.errors import ConfigError
from tf1_pipelines.options import check_positive_int

tf1 = tf.compat.v1

__all__ = ["rejection_sample", "stratified_sample", "resample_at_rate", "weighted_resample",
           "acceptance_probabilities"]

#: TF 1.15's tolerance on "the probabilities sum to one".
PROB_SUM_TOLERANCE = 1e-6
#: The count each class starts from when the data distribution is estimated online (TF 1.15).
SMOOTHING_COUNT = 10


def acceptance_probabilities(init_probs: npt.ArrayLike, target_probs: npt.ArrayLike) -> np.ndarray:
    """The per-class acceptance probabilities of :func:`stratified_sample` (NumPy, float64).

    ``a_i = (t_i / p_i) / max_j (t_j / p_j)``, with ``t_i / p_i`` taken as 0 where it is
    not finite (``p_i == 0``); values in [0, 1].
    """
    p = np.asarray(init_probs, dtype=np.float64)
    t = np.asarray(target_probs, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = t / p
    ratio[~np.isfinite(ratio)] = 0.0
    return np.asarray(ratio / ratio.max())


def _acceptance_tensor(init_probs: tf.Tensor, target_probs: tf.Tensor) -> tf.Tensor:
    """:func:`acceptance_probabilities` as graph ops (float32 vector)."""
    ratio = target_probs / init_probs
    ratio = tf.where(tf.math.is_finite(ratio), ratio, tf.zeros_like(ratio))
    return ratio / tf.reduce_max(ratio)


# ------------------------------------------------------------------------- rejection sampling
def _single_elements(tensor_list: list[tf.Tensor], capacity: int, threads: int) -> list[tf.Tensor]:
    """Split batches into single elements through a ``tf.train.batch`` queue of batch size 1."""
    for i, tensor in enumerate(tensor_list):
        if tensor.shape.rank == 0:
            raise ValueError(f"enqueue_many=True but tensors[{i}] is a scalar; it needs a batch dimension")
        tensor.shape[:1].assert_is_compatible_with(tensor_list[0].shape[:1])
    batched = tf1.train.batch(tensor_list, batch_size=1, num_threads=threads, capacity=capacity,
                              enqueue_many=True)
    batched = batched if isinstance(batched, list) else [batched]
    return [tf.squeeze(t, [0]) for t in batched]


def rejection_sample(tensors: Sequence[Any], accept_prob_fn: Callable[[list[tf.Tensor]], Any], batch_size: int,
                     queue_threads: int = 1, enqueue_many: bool = False, prebatch_capacity: int = 16,
                     prebatch_threads: int = 1, runtime_checks: bool = False,
                     name: str | None = None) -> list[tf.Tensor]:
    """Batches of the elements kept with probability ``accept_prob_fn(element)``.

    Returns:
        a list (always, even for one tensor) of tensors of shape ``[batch_size, ...]``.
    """
    batch_size = check_positive_int("rejection_sample: batch_size", batch_size)
    with tf1.variable_scope(name, "rejection_sample", list(tensors)):
        tensor_list = [tf.convert_to_tensor(t) for t in tensors]
        if enqueue_many:
            tensor_list = _single_elements(tensor_list, prebatch_capacity, prebatch_threads)
        prob = tf.convert_to_tensor(accept_prob_fn(tensor_list))
        if runtime_checks:
            with tf.control_dependencies([tf1.assert_less_equal(0.0, prob), tf1.assert_less_equal(prob, 1.0)]):
                prob = tf.identity(prob, name="prob_with_checks")
        batch = tf1.train.maybe_batch(tensor_list, keep_input=tf1.random_uniform([]) < prob,
                                      batch_size=batch_size, num_threads=queue_threads)
        return list(batch) if isinstance(batch, (list, tuple)) else [batch]


# ------------------------------------------------------------------------- stratified sampling
def _estimated_distribution(labels: tf.Tensor, num_classes: int) -> tf.Tensor:
    """Class proportions of the labels seen so far, each count starting at :data:`SMOOTHING_COUNT`."""
    counts = tf1.Variable([SMOOTHING_COUNT] * num_classes, trainable=False, name="class_count", dtype=tf.int64)
    seen = counts.assign_add(tf.reduce_sum(tf.one_hot(labels, num_classes, dtype=tf.int64), 0))
    # A copy, so that another thread's update cannot change the counts mid-division.
    seen = tf.identity(seen + 0)
    return tf.cast(tf.truediv(seen, tf.reduce_sum(seen)), tf.float32)


def _checked_probs(probs: tf.Tensor, what: str) -> tf.Tensor:
    """``probs`` with run-time checks: non-negative, sum 1 within :data:`PROB_SUM_TOLERANCE`."""
    if not probs.shape.is_fully_defined() or probs.shape.rank != 1:
        raise ValueError(f"stratified_sample: {what} must be a vector of known length, got shape {probs.shape}")
    total = tf.reduce_sum(probs)
    checks = [tf1.assert_non_negative(probs, message=f"{what} must be non-negative"),
              tf1.assert_less(total, 1.0 + PROB_SUM_TOLERANCE, message=f"{what} must sum to 1"),
              tf1.assert_less(1.0 - PROB_SUM_TOLERANCE, total, message=f"{what} must sum to 1")]
    with tf.control_dependencies(checks):
        return tf.identity(probs)


def _checked_batch(tensor_list: list[tf.Tensor], labels: tf.Tensor,
                   num_classes: int) -> tuple[list[tf.Tensor], tf.Tensor]:
    """Batches with matching, positive first dimensions and integer labels in ``[0, num_classes)``."""
    labels.shape.assert_has_rank(1)
    for tensor in tensor_list:
        tensor.shape.with_rank_at_least(1)[:1].assert_is_compatible_with(labels.shape[:1])
    size = tf.shape(labels)[0]
    positive = tf1.assert_positive(size, message="stratified_sample: an empty batch of labels")
    checked = []
    for tensor in tensor_list:
        with tf.control_dependencies([positive, tf1.assert_equal(tf.shape(tensor)[0], size)]):
            checked.append(tf.identity(tensor))
    if not labels.dtype.is_integer:
        raise ValueError(f"stratified_sample: labels must be integers, got {labels.dtype.name}")
    with tf.control_dependencies([positive, tf1.assert_non_negative(labels),
                                  tf1.assert_less(labels, tf.cast(num_classes, labels.dtype))]):
        labels = tf.identity(labels)
    return checked, labels


def stratified_sample(tensors: Sequence[Any], labels: Any, target_probs: Any, batch_size: int,
                      init_probs: Any = None, enqueue_many: bool = False, queue_capacity: int = 16,
                      threads_per_queue: int = 1, name: str | None = None) -> tuple[list[tf.Tensor], tf.Tensor]:
    """Batches whose labels follow ``target_probs``, by rejection (see the module docstring).

    Returns:
        ``(data_batch, label_batch)``: a list like ``tensors`` with batch dimension
        ``batch_size``, and the int labels, shape ``[batch_size]``.
    """
    batch_size = check_positive_int("stratified_sample: batch_size", batch_size)
    tensors = list(tensors)
    with tf1.name_scope(name, "stratified_sample", tensors + [labels]):
        tensor_list = [tf.convert_to_tensor(t) for t in tensors]
        labels = tf.convert_to_tensor(labels)
        target = tf.convert_to_tensor(target_probs, dtype=tf.float32)
        if not enqueue_many:
            tensor_list = [tf.expand_dims(t, 0) for t in tensor_list]
            labels = tf.expand_dims(labels, 0)
        num_classes = target.shape.num_elements()
        if num_classes is None:
            raise ValueError(f"stratified_sample: target_probs must have a known length, got shape {target.shape}")
        init = (_estimated_distribution(labels, num_classes) if init_probs is None
                else tf.convert_to_tensor(init_probs, dtype=tf.float32))
        init, target = _checked_probs(init, "init_probs"), _checked_probs(target, "target_probs")
        if init.shape.num_elements() != num_classes:
            raise ConfigError(f"stratified_sample: init_probs has {init.shape.num_elements()} classes but "
                              f"target_probs has {num_classes}")
        tensor_list, labels = _checked_batch(tensor_list, labels, num_classes)
        zero_ok = tf1.Assert(tf.reduce_all(tf.logical_or(tf.not_equal(init, 0), tf.equal(target, 0))),
                             ["All classes with zero initial probability must also have zero target "
                              "probability: ", init, target])
        with tf.control_dependencies([zero_ok]):
            accept = _acceptance_tensor(tf.identity(init), target)
        singles = tf1.train.batch([*tensor_list, labels], batch_size=1, num_threads=threads_per_queue,
                                  capacity=queue_capacity, enqueue_many=True)
        values = [tf.squeeze(t, [0]) for t in singles[:-1]]
        label = tf.squeeze(singles[-1], [0])
        kept = tf1.train.maybe_batch([*values, label], keep_input=tf1.random_uniform([]) < tf.gather(accept, label),
                                     batch_size=batch_size, num_threads=threads_per_queue)
        return list(kept[:-1]), kept[-1]


# ------------------------------------------------------------------------- resampling a batch
def resample_at_rate(inputs: Sequence[Any], rates: Any, scope: str | None = None, seed: int | None = None,
                     back_prop: bool = False) -> list[tf.Tensor]:
    """Each row ``j`` of every input repeated ``Poisson(rates[j])`` times, rows in order.

    Args:
        inputs: tensors of shape ``[batch, ...]``.
        rates: float ``[batch]``, the expected number of copies of each row.

    Returns:
        the inputs gathered at the repeated row indices (first dimension unknown, maybe 0).
    """
    inputs = list(inputs)
    with tf1.name_scope(scope, "resample_at_rate", inputs + [rates]):
        rates = tf.convert_to_tensor(rates, name="rates")
        counts = tf.cast(tf1.random_poisson(rates, [], rates.dtype, seed=seed), tf.int32)
        indices = tf.repeat(tf.range(tf.shape(counts)[0]), counts)
        if not back_prop:
            indices = tf.stop_gradient(indices)
        return [tf.gather(x, indices) for x in inputs]


def _debiased_moving_mean(value: tf.Tensor, decay: float) -> tf.Tensor:
    """The zero-debiased exponential moving average of ``value`` (TF's ``assign_moving_average``
    with ``zero_debias``): ``biased_t / (1 - decay**t)``, in local variables."""
    dtype = value.dtype
    biased = tf1.get_local_variable("biased", initializer=tf.cast(0, dtype), dtype=dtype)
    steps = tf1.get_local_variable("local_step", initializer=tf.cast(0, dtype), dtype=dtype)
    mean = tf1.get_local_variable("estimated_mean", initializer=tf.cast(0, dtype), dtype=dtype)
    decay_t = tf.cast(decay, dtype)
    new_biased = biased.assign_sub((biased - value) * (1 - decay_t))
    new_steps = steps.assign_add(tf.cast(1, dtype))
    return mean.assign(new_biased / (1 - tf.pow(decay_t, new_steps)))


def weighted_resample(inputs: Sequence[Any], weights: Any, overall_rate: Any, scope: str | None = None,
                      mean_decay: float = 0.999, seed: int | None = None) -> tuple[list[tf.Tensor], tf.Tensor]:
    """Rows resampled at rates proportional to ``weights``, ``overall_rate`` on average.

    Returns:
        ``(resampled inputs, the rate used for each output row)``.
    """
    inputs = list(inputs)
    with tf1.name_scope(scope, "weighted_resample", inputs) as opscope:
        weights = tf.convert_to_tensor(weights)
        with tf1.variable_scope(scope, "estimate_mean", inputs):
            mean = _debiased_moving_mean(tf.reduce_mean(weights), mean_decay)
        rates = weights * overall_rate / mean
        results = resample_at_rate([rates, *inputs], rates, scope=opscope, seed=seed, back_prop=False)
        return results[1:], results[0]
