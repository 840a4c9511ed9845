"""Bucketed batching through TF1 queues: ``tf.contrib.training.bucket`` and
``bucket_by_sequence_length`` as TensorFlow 1.15 documented them.

Graph built (per call, in the default graph, graph mode only):

* one bucket queue per bucket (a ``PaddingFIFOQueue`` with ``dynamic_pad``, else a
  ``FIFOQueue``), capacity ``bucket_capacities[i]`` (default ``capacity``);
* ``num_threads`` copies of one enqueue op that puts the element into the queue of
  its bucket (``which_bucket``), or nowhere when ``keep_input`` is False;
* a top ``PaddingFIFOQueue`` of capacity ``capacity`` holding whole batches with
  their bucket index; one enqueue op per bucket moves ``batch_size[i]`` elements
  of bucket ``i`` into it (``dequeue_up_to`` when ``allow_smaller_final_batch``,
  else ``dequeue_many``);
* two ``QueueRunner``\\ s in the graph's ``QUEUE_RUNNERS`` collection, so that
  ``tf.train.start_queue_runners`` / ``Coordinator`` / ``MonitoredSession`` drive
  them: the input runner (``num_threads`` threads; when its input ends it closes the
  bucket queues) and the bucket runner (one thread per bucket; the top queue is
  closed when all of them have ended);
* the summaries TF 1.15 recorded (``bucket/<queue>/size``,
  ``bucket/<top>/fraction_of_<capacity>_full``).

End of data: the input's ``OutOfRangeError`` closes the bucket queues; each bucket
then hands over what is left (a smaller batch with ``allow_smaller_final_batch``,
nothing otherwise) and the top queue closes, so the returned tensors raise
``OutOfRangeError`` after the last batch. TF 1.15 closed the top queue as soon as the
input ended, which lost the partial buckets even with ``allow_smaller_final_batch``
(tensorflow/tensorflow issue 8182); we do what its docstring promised
(docs/divergences.md).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import tensorflow as tf

from tf1_pipelines.errors import ConfigError, ConfigTypeError
from tf1_pipelines.options import check_positive_int

tf1 = tf.compat.v1

__all__ = ["bucket", "bucket_by_sequence_length", "which_bucket_for_length",
           "as_tensor_list", "as_original_type"]

#: What the queue runners treat as "the queue was closed" (TF 1.15's choice for bucket()).
QUEUE_CLOSED = (tf.errors.OutOfRangeError, tf.errors.CancelledError)


# ------------------------------------------------------------------------- list or dict in, same out
def as_tensor_list(tensors: Sequence[Any] | Mapping[Any, Any]) -> list[Any]:
    """The values of ``tensors`` as a list; a dict's values in the order of its keys
    sorted as strings (TF 1.x's ``tf.train.batch`` order)."""
    if isinstance(tensors, Mapping):
        return [tensors[key] for key in sorted(tensors, key=str)]
    return list(tensors)


def as_original_type(tensors: Sequence[Any] | Mapping[Any, Any], values: Sequence[Any]) -> Any:
    """``values`` in the form of ``tensors``: a dict with the same keys, or a list."""
    if isinstance(tensors, Mapping):
        return {key: values[i] for i, key in enumerate(sorted(tensors, key=str))}
    return list(values)


# ------------------------------------------------------------------------- checks
def _batch_sizes(batch_size: Any, num_buckets: int) -> tuple[list[Any], bool]:
    """(one batch size per bucket, whether they were given per bucket)."""
    if isinstance(batch_size, (list, tuple)):
        if len(batch_size) != num_buckets:
            raise ConfigError(f"bucket: batch_size has {len(batch_size)} entries {list(batch_size)} "
                              f"but there are num_buckets {num_buckets} buckets; give one per bucket")
        return list(batch_size), True
    return [batch_size] * num_buckets, False


def _capacities(capacity: int, bucket_capacities: Sequence[int] | None, num_buckets: int) -> list[int]:
    if bucket_capacities is None:
        return [capacity] * num_buckets
    if len(bucket_capacities) != num_buckets:
        raise ConfigError(f"bucket: bucket_capacities {list(bucket_capacities)} has "
                          f"{len(bucket_capacities)} entries but there are num_buckets {num_buckets} buckets")
    return [check_positive_int(f"bucket: bucket_capacities[{i}]", c) for i, c in enumerate(bucket_capacities)]


def _dense(tensor_list: list[Any]) -> list[tf.Tensor]:
    if not tensor_list:
        raise ConfigError("bucket: tensors is empty; give at least one tensor to batch")
    out = []
    for i, value in enumerate(tensor_list):
        if isinstance(value, tf.SparseTensor):
            raise ConfigTypeError(f"bucket: tensors[{i}] is a SparseTensor, which the compat bucketing does not "
                                  "batch; densify it first (tf.sparse.to_dense) or use "
                                  "tf.data.experimental.bucket_by_sequence_length")
        out.append(tf.convert_to_tensor(value))
    return out


def _queue_shapes(tensor_list: list[tf.Tensor], shapes: Sequence[Any] | None,
                  dynamic_pad: bool) -> list[tf.TensorShape]:
    """The element shapes of the bucket queues; ValueError when a FIFOQueue cannot hold them."""
    if shapes is None:
        found = [t.shape for t in tensor_list]
    else:
        if len(shapes) != len(tensor_list):
            raise ConfigError(f"bucket: shapes has {len(shapes)} entries but tensors has {len(tensor_list)}")
        found = [tf.TensorShape(s) for s in shapes]
    for i, shape in enumerate(found):
        if dynamic_pad and shape.rank is None:
            raise ValueError(f"bucket: tensors[{i}] has unknown rank; dynamic_pad needs the rank")
        if not dynamic_pad and not shape.is_fully_defined():
            raise ValueError(f"bucket: tensors[{i}] has shape {shape}, not fully defined; pass shapes= "
                             "or dynamic_pad=True")
    return found


def _static_batch_size(value: Any) -> Any:
    """A Python int when the batch size is known when the graph is built, else an int32 tensor."""
    tensor = tf.convert_to_tensor(value, dtype=tf.int32, name="batch_size")
    static = tf.get_static_value(tensor)
    return int(static) if static is not None else tensor


# ------------------------------------------------------------------------- the graph
def _enqueue_into_bucket(queues: list[Any], which: tf.Tensor, tensor_list: list[tf.Tensor],
                         keep_input: tf.Tensor) -> tf.Operation:
    """One op that puts the element into queue ``which`` (nothing when ``keep_input`` is False)."""
    def enqueue_which() -> tf.Operation:
        enqueues = [tf1.cond(tf.equal(which, i), lambda q=q: q.enqueue(tensor_list), tf.no_op)
                    for i, q in enumerate(queues)]
        return tf.group(*enqueues, name="group_enqueues")
    static_keep = tf.get_static_value(keep_input)
    if static_keep is not None:
        return enqueue_which() if bool(static_keep) else tf.no_op()
    return tf1.cond(keep_input, lambda: tf.group(enqueue_which()), tf.no_op)


def _add_runners(queues: list[Any], top: Any, into_buckets: tf.Operation, num_threads: int,
                 to_top: list[tf.Operation]) -> None:
    """The input runner closes every bucket queue when its input ends; the bucket runner
    (one thread per bucket) closes the top queue when every bucket is empty and closed."""
    close_buckets = tf.group(*[q.close() for q in queues], name="close_buckets")
    cancel_buckets = tf.group(*[q.close(cancel_pending_enqueues=True) for q in queues], name="cancel_buckets")
    tf1.train.add_queue_runner(tf1.train.QueueRunner(
        queues[0], [into_buckets] * num_threads, close_op=close_buckets, cancel_op=cancel_buckets,
        queue_closed_exception_types=QUEUE_CLOSED))
    tf1.train.add_queue_runner(tf1.train.QueueRunner(top, to_top, queue_closed_exception_types=QUEUE_CLOSED))


def _add_summaries(queues: list[Any], top: Any, capacity: int) -> None:
    # The names TF 1.15 gave them (each bucket's summary reported the top queue's size there too).
    top_size = tf.cast(top.size(), tf.float32)
    for q in queues:
        tf1.summary.scalar(f"bucket/{q.name}/size", top_size)
    tf1.summary.scalar(f"bucket/{top.name}/fraction_of_{capacity}_full", top_size * (1.0 / capacity))


def bucket(tensors: Sequence[Any] | Mapping[Any, Any], which_bucket: Any, batch_size: Any, num_buckets: int,
           num_threads: int = 1, capacity: int = 32, bucket_capacities: Sequence[int] | None = None,
           shapes: Sequence[Any] | None = None, dynamic_pad: bool = False,
           allow_smaller_final_batch: bool = False, keep_input: Any = True,
           shared_name: str | None = None, name: str | None = None) -> tuple[tf.Tensor, Any]:
    """Batches of elements from the same bucket (TF 1.15 ``tf.contrib.training.bucket``).

    Args:
        tensors: one element: a list or dict of tensors (dense).
        which_bucket: int32 scalar in ``[0, num_buckets)``, the element's bucket.
        batch_size: int, int32 scalar tensor, or one int per bucket.
        num_buckets, num_threads, capacity, bucket_capacities: as documented in the module.
        shapes: element shapes (default: the tensors' static shapes).
        dynamic_pad: pad each batch on the right to its longest element (0, or b"" for strings).
        allow_smaller_final_batch: at the end of data, hand over each bucket's remainder.
        keep_input: bool scalar; False drops the element.

    Returns:
        ``(bucket_index, batch)``: an int32 scalar and the batched tensors, each of shape
        ``[batch_size, ...]`` (first dimension None with ``allow_smaller_final_batch`` or
        per-bucket sizes), in the form of ``tensors``.
    """
    num_buckets = check_positive_int("bucket: num_buckets", num_buckets)
    num_threads = check_positive_int("bucket: num_threads", num_threads)
    capacity = check_positive_int("bucket: capacity", capacity)
    sizes, per_bucket = _batch_sizes(batch_size, num_buckets)
    capacities = _capacities(capacity, bucket_capacities, num_buckets)
    with tf1.name_scope(name, "bucket"):
        tensor_list = _dense(as_tensor_list(tensors))
        keep = tf.convert_to_tensor(keep_input, dtype=tf.bool, name="keep_input")
        sizes = [_static_batch_size(s) for s in sizes]
        dtypes = [t.dtype for t in tensor_list]
        element_shapes = _queue_shapes(tensor_list, shapes, dynamic_pad)
        which = tf.convert_to_tensor(which_bucket, dtype=tf.int32, name="which_bucket")
        make_queue = tf1.PaddingFIFOQueue if dynamic_pad else tf1.FIFOQueue
        queues = [make_queue(capacity=capacities[i], dtypes=dtypes, shapes=element_shapes,
                             shared_name=None if shared_name is None else f"{shared_name}_{i}",
                             name=f"bucket_queue_{i}") for i in range(num_buckets)]
        static = sizes[-1] if isinstance(sizes[-1], int) else None
        first = None if (allow_smaller_final_batch or per_bucket) else static
        # The top queue pads even when the buckets do not: its shapes start with None
        # when batches can be smaller, which a FIFOQueue cannot hold.
        top = tf1.PaddingFIFOQueue(
            capacity=capacity, dtypes=[tf.int32, *dtypes],
            shapes=[tf.TensorShape([]), *[tf.TensorShape([first]).concatenate(s) for s in element_shapes]],
            shared_name=shared_name, name="top_queue")
        into_buckets = _enqueue_into_bucket(queues, which, tensor_list, keep)
        take = "dequeue_up_to" if allow_smaller_final_batch else "dequeue_many"
        to_top = [top.enqueue([tf.constant(i), *_as_list(getattr(q, take)(bs, name=f"read_bucket_{i}"))],
                              name=f"enqueue_from_bucket_{i}")
                  for i, (q, bs) in enumerate(zip(queues, sizes))]
        _add_runners(queues, top, into_buckets, num_threads, to_top)
        _add_summaries(queues, top, capacity)
        dequeued = top.dequeue(name="dequeue_top")
        return dequeued[0], as_original_type(tensors, dequeued[1:])


def _as_list(value: Any) -> list[Any]:
    """A queue's dequeue gives a bare tensor for one component; always a list here."""
    return list(value) if isinstance(value, (list, tuple)) else [value]


# ------------------------------------------------------------------------- by length
def _check_boundaries(bucket_boundaries: Any) -> list[int]:
    if not isinstance(bucket_boundaries, (list, tuple)):
        raise ConfigTypeError(f"bucket_by_sequence_length: bucket_boundaries must be a list or tuple of ints, "
                              f"got {bucket_boundaries!r}")
    if not bucket_boundaries:
        raise ConfigError("bucket_by_sequence_length: bucket_boundaries must not be empty")
    for start, end in zip(bucket_boundaries[:-1], bucket_boundaries[1:]):
        if not isinstance(start, (int, np.integer)) or not isinstance(end, (int, np.integer)):
            raise ConfigTypeError(f"bucket_by_sequence_length: bucket boundaries must be integers, "
                                  f"got {start!r} and {end!r}")
        if start >= end:
            raise ConfigError(f"bucket_by_sequence_length: bucket boundaries must increase, got {start} "
                              f"before {end}")
    return [int(b) for b in bucket_boundaries]


def which_bucket_for_length(length: int, bucket_boundaries: Sequence[int]) -> int:
    """The bucket of a sequence of ``length`` (pure Python): bucket 0 holds lengths below
    ``bucket_boundaries[0]``, bucket i lengths in ``[b[i-1], b[i])``, the last one the rest."""
    return sum(1 for boundary in bucket_boundaries if length >= boundary)


def bucket_by_sequence_length(input_length: Any, tensors: Sequence[Any] | Mapping[Any, Any], batch_size: Any,
                              bucket_boundaries: Sequence[int], num_threads: int = 1, capacity: int = 32,
                              bucket_capacities: Sequence[int] | None = None, shapes: Sequence[Any] | None = None,
                              dynamic_pad: bool = False, allow_smaller_final_batch: bool = False,
                              keep_input: Any = True, shared_name: str | None = None,
                              name: str | None = None) -> tuple[tf.Tensor, Any]:
    """:func:`bucket` with ``len(bucket_boundaries) + 1`` buckets chosen by ``input_length``
    (TF 1.15 ``tf.contrib.training.bucket_by_sequence_length``).

    Returns:
        ``(lengths, batch)``: the int32 lengths of the batch's elements, shape
        ``[batch_size]``, and the batched ``tensors`` in their form.
    """
    boundaries = _check_boundaries(bucket_boundaries)
    tensor_list = as_tensor_list(tensors)
    with tf1.name_scope(name, "bucket_by_sequence_length"):
        length = tf.convert_to_tensor(input_length, dtype=tf.int32, name="input_length")
        # The bucket is the number of boundaries the length reaches (the conditions
        # b[i-1] <= length < b[i] of TF 1.15, with -inf and +inf at the ends).
        which = tf.reduce_sum(tf.cast(tf.greater_equal(length, tf.constant(boundaries, tf.int32)), tf.int32))
        all_shapes = None if shapes is None else [tf.TensorShape([]), *shapes]
        _, dequeued = bucket([length, *tensor_list], which, batch_size, len(boundaries) + 1,
                             num_threads=num_threads, capacity=capacity, bucket_capacities=bucket_capacities,
                             shapes=all_shapes, dynamic_pad=dynamic_pad,
                             allow_smaller_final_batch=allow_smaller_final_batch, keep_input=keep_input,
                             shared_name=shared_name)
        return dequeued[0], as_original_type(tensors, dequeued[1:])
