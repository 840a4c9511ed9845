"""The readers of ``tf.contrib.learn`` (TF 1.0-1.2's ``learn_io.graph_io``): files to batches through queues.

``read_keyed_batch_examples`` builds, in the default graph, what TF 1.x built:

* a filename queue (``string_input_producer`` over the matched files, sorted
  when ``randomize_input`` is False, shuffled when True; ``num_epochs`` makes
  it a local-variable counter, so the end of the data is an
  ``OutOfRangeError`` once the files were read that many times);
* one ``reader()`` per thread (``num_threads``), each reading one record at a
  time, or ``read_batch_size`` records with ``read_up_to``;
* a ``shuffle_batch_join`` (``randomize_input``: capacity ``queue_capacity``,
  ``min_after_dequeue = max(queue_capacity - 3 * batch_size, batch_size)``, or
  40 % of the capacity when ``batch_size`` is a tensor) or a ``batch_join``;
  a smaller final batch is allowed exactly when ``num_epochs`` is given.

The ``..._features`` forms parse the batch with ``parse_example`` and pass it
through one more FIFO queue of ``feature_queue_capacity`` parsed batches, filled
by ``num_enqueue_threads`` enqueue ops of one ``QueueRunner`` (sparse features
travel as their indices, values and dense shape). Every queue runner goes to the
graph's ``QUEUE_RUNNERS`` collection, so ``tf.train.start_queue_runners``, a
``Coordinator`` or a ``MonitoredSession`` drive them, and their ``request_stop``
+ ``join`` stop them; nothing here starts a thread.

TensorFlow is imported on the first call.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = [
    "KEY_FEATURE_NAME",
    "queue_parsed_features",
    "read_batch_examples",
    "read_batch_features",
    "read_batch_record_features",
    "read_keyed_batch_examples",
    "read_keyed_batch_examples_shared_queue",
    "read_keyed_batch_features",
    "read_keyed_batch_features_shared_queue",
]

#: The key under which the record keys travel in a dict of parsed examples (TF 1.x's name).
KEY_FEATURE_NAME = "__key__"


def _v1() -> Any:
    import tensorflow as tf
    return tf.compat.v1


def _is_tensor(value: Any) -> bool:
    import tensorflow as tf
    return isinstance(value, tf.Tensor)


def _file_names(file_pattern: str | Sequence[str], randomize_input: bool) -> list[str]:
    """The files to read: a list as given, or the matches of a pattern; sorted unless they will be shuffled.

    Raises:
        ValueError: an empty list, or a pattern that matches nothing.
    """
    if isinstance(file_pattern, (list, tuple)):
        names = [str(name) for name in file_pattern]
        if not names:
            raise ValueError("read_batch_examples: file_pattern is an empty list; give at least one file")
    else:
        import tensorflow as tf
        names = list(tf.io.gfile.glob(str(file_pattern)))
        if not names:
            raise ValueError(f"read_batch_examples: no files match {file_pattern!r}")
    return names if randomize_input else sorted(names)


def _check_options(batch_size: Any, queue_capacity: int, read_batch_size: Any, num_threads: int,
                   num_epochs: int | None) -> None:
    """TF 1.x's argument checks, with both values in each message.

    Raises:
        ValueError: a capacity, batch size, thread count or epoch count out of range.
    """
    if not queue_capacity or queue_capacity <= 0:
        raise ValueError(f"read_batch_examples: queue_capacity {queue_capacity} must be positive")
    if batch_size is None or (not _is_tensor(batch_size) and not 0 < batch_size <= queue_capacity):
        raise ValueError(f"read_batch_examples: batch_size {batch_size} must be in 1..queue_capacity "
                         f"({queue_capacity})")
    if read_batch_size is None or (not _is_tensor(read_batch_size) and read_batch_size <= 0):
        raise ValueError(f"read_batch_examples: read_batch_size {read_batch_size} must be positive")
    if not num_threads or num_threads <= 0:
        raise ValueError(f"read_batch_examples: num_threads {num_threads} must be positive")
    if num_epochs is not None and num_epochs <= 0:
        raise ValueError(f"read_batch_examples: num_epochs {num_epochs} must be positive or None (forever)")


def _shared_filename_queue(names: list[str], randomize_input: bool, num_epochs: int | None) -> Any:
    """A one-slot FIFO of file names filled by its own queue runner (the ``_shared_queue`` forms).

    TF 1.x filled it with a contrib op that walked the file list across
    workers; in one process the same names come from a ``string_input_producer``.
    """
    v1 = _v1()
    producer = v1.train.string_input_producer(v1.constant(names, name="input"), shuffle=randomize_input,
                                              num_epochs=num_epochs, name="producer")
    queue = v1.FIFOQueue(capacity=1, dtypes=[v1.string], shapes=[[]])
    v1.train.add_queue_runner(v1.train.QueueRunner(queue, [queue.enqueue(producer.dequeue())]))
    return queue


def _read_examples(filename_queue: Any, reader: Callable[[], Any], num_threads: int, read_batch_size: Any,
                   parse_fn: Callable[[Any], Any] | None) -> list[Any]:
    """One reader per thread: a list of ``(keys, records)`` or dicts with the keys under ``__key__``."""
    v1 = _v1()
    examples: list[Any] = []
    with v1.name_scope("read"):
        for _ in range(num_threads):
            if _is_tensor(read_batch_size) or read_batch_size > 1:
                keys, records = reader().read_up_to(filename_queue, read_batch_size)
            else:
                keys, records = reader().read(filename_queue)
            if parse_fn is None:
                examples.append((keys, records))
                continue
            parsed = parse_fn(records)
            if isinstance(parsed, dict):  # batch_join takes a dict or a tuple, not both: the keys join the dict
                examples.append({**parsed, KEY_FEATURE_NAME: keys})
            else:
                examples.append((keys, parsed))
    return examples


def _keyed_batch_examples(file_pattern: Any, batch_size: Any, reader: Callable[[], Any], randomize_input: bool,
                          num_epochs: int | None, queue_capacity: int, num_threads: int, read_batch_size: Any,
                          parse_fn: Callable[[Any], Any] | None, shared_queue: bool, name: str | None) -> Any:
    names = _file_names(file_pattern, randomize_input)
    _check_options(batch_size, queue_capacity, read_batch_size, num_threads, num_epochs)
    v1 = _v1()
    with v1.name_scope(name, "read_batch_examples") as scope:
        with v1.name_scope("file_name_queue") as queue_scope:
            if shared_queue:
                filename_queue = _shared_filename_queue(names, randomize_input, num_epochs)
            else:
                filename_queue = v1.train.string_input_producer(
                    v1.constant(names, name="input"), shuffle=randomize_input, num_epochs=num_epochs,
                    name=queue_scope)
        examples = _read_examples(filename_queue, reader, num_threads, read_batch_size, parse_fn)
        enqueue_many = _is_tensor(read_batch_size) or read_batch_size > 1
        smaller_final = num_epochs is not None  # TF 1.x: only a finite input may end with a short batch
        if randomize_input:
            if _is_tensor(batch_size):
                min_after_dequeue = int(queue_capacity * 0.4)
            else:
                min_after_dequeue = max(queue_capacity - 3 * batch_size, batch_size)
            batched = v1.train.shuffle_batch_join(
                examples, batch_size, capacity=queue_capacity, min_after_dequeue=min_after_dequeue,
                enqueue_many=enqueue_many, name=scope, allow_smaller_final_batch=smaller_final)
        else:
            batched = v1.train.batch_join(examples, batch_size, capacity=queue_capacity, enqueue_many=enqueue_many,
                                          name=scope, allow_smaller_final_batch=smaller_final)
    if isinstance(batched, dict):
        keys = batched.pop(KEY_FEATURE_NAME)
        return keys, batched
    return tuple(batched)


def read_keyed_batch_examples(file_pattern: Any, batch_size: Any, reader: Callable[[], Any],
                              randomize_input: bool = True, num_epochs: int | None = None,
                              queue_capacity: int = 10000, num_threads: int = 1, read_batch_size: Any = 1,
                              parse_fn: Callable[[Any], Any] | None = None, name: str | None = None) -> Any:
    """``(keys, examples)``: batches of string keys (``b"file:index"``) and records, or ``parse_fn``'s output.

    ``reader`` is a reader class such as ``tf.TFRecordReader`` or ``tf.TextLineReader``.

    Raises:
        ValueError: no files, or an option out of range (both values named).
    """
    return _keyed_batch_examples(file_pattern, batch_size, reader, randomize_input, num_epochs, queue_capacity,
                                 num_threads, read_batch_size, parse_fn, False, name)


def read_keyed_batch_examples_shared_queue(file_pattern: Any, batch_size: Any, reader: Callable[[], Any],
                                           randomize_input: bool = True, num_epochs: int | None = None,
                                           queue_capacity: int = 10000, num_threads: int = 1,
                                           read_batch_size: Any = 1, parse_fn: Callable[[Any], Any] | None = None,
                                           name: str | None = None) -> Any:
    """:func:`read_keyed_batch_examples` with the file names passed through a one-slot shared FIFO queue."""
    return _keyed_batch_examples(file_pattern, batch_size, reader, randomize_input, num_epochs, queue_capacity,
                                 num_threads, read_batch_size, parse_fn, True, name)


def read_batch_examples(file_pattern: Any, batch_size: Any, reader: Callable[[], Any], randomize_input: bool = True,
                        num_epochs: int | None = None, queue_capacity: int = 10000, num_threads: int = 1,
                        read_batch_size: Any = 1, parse_fn: Callable[[Any], Any] | None = None,
                        name: str | None = None) -> Any:
    """:func:`read_keyed_batch_examples` without the keys: a string tensor ``[batch_size]`` of records."""
    _, examples = read_keyed_batch_examples(file_pattern, batch_size, reader, randomize_input, num_epochs,
                                            queue_capacity, num_threads, read_batch_size, parse_fn, name)
    return examples


def queue_parsed_features(parsed_features: Mapping[str, Any], keys: Any = None, feature_queue_capacity: int = 100,
                          num_enqueue_threads: int = 2, name: str | None = None) -> tuple[Any, dict[str, Any]]:
    """``(keys or None, features)`` dequeued from a FIFO queue that parsed batches are pushed into.

    The features are enqueued in sorted key order; a ``SparseTensor`` travels as
    indices, values and dense shape and is rebuilt after the dequeue. The
    queue runner treats ``OutOfRangeError`` and ``CancelledError`` as the end of
    the input, so the last batch of a finite input is not lost.
    """
    import tensorflow as tf
    v1 = tf.compat.v1
    with v1.name_scope(name, "queue_parsed_features"):
        tensors: list[Any] = []
        layout: list[tuple[str, bool]] = []
        for key in sorted(parsed_features):
            value = parsed_features[key]
            sparse = isinstance(value, tf.SparseTensor)
            layout.append((key, sparse))
            tensors.extend([value.indices, value.values, value.dense_shape] if sparse else [value])
        if keys is not None:
            tensors.append(keys)
        queue = v1.FIFOQueue(feature_queue_capacity, [t.dtype for t in tensors])
        v1.summary.scalar(f"queue/parsed_features/{queue.name}/fraction_of_{feature_queue_capacity}_full",
                          tf.cast(queue.size(), tf.float32) * (1.0 / feature_queue_capacity))
        enqueues = [queue.enqueue(tensors) for _ in range(num_enqueue_threads)]
        v1.train.add_queue_runner(v1.train.QueueRunner(
            queue, enqueues, queue_closed_exception_types=(tf.errors.OutOfRangeError, tf.errors.CancelledError)))
        dequeued = queue.dequeue()
        dequeued = list(dequeued) if isinstance(dequeued, (list, tuple)) else [dequeued]
        for out, original in zip(dequeued, tensors):
            out.set_shape(original.shape)
        features: dict[str, Any] = {}
        index = 0
        for key, sparse in layout:
            if sparse:
                features[key] = tf.SparseTensor(dequeued[index], dequeued[index + 1], dequeued[index + 2])
                index += 3
            else:
                features[key] = dequeued[index]
                index += 1
        return (dequeued[-1] if keys is not None else None), features


def _keyed_batch_features(file_pattern: Any, batch_size: Any, features: Mapping[str, Any], reader: Any,
                          randomize_input: bool, num_epochs: int | None, queue_capacity: int, reader_num_threads: int,
                          feature_queue_capacity: int, num_enqueue_threads: int,
                          parse_fn: Callable[[Any], Any] | None, shared_queue: bool, name: str | None) -> Any:
    v1 = _v1()
    with v1.name_scope(name, "read_batch_features") as scope:
        keys, examples = _keyed_batch_examples(file_pattern, batch_size, reader, randomize_input, num_epochs,
                                               queue_capacity, reader_num_threads, batch_size, parse_fn,
                                               shared_queue, scope)
        parsed = v1.io.parse_example(examples, dict(features))
        return queue_parsed_features(parsed, keys=keys, feature_queue_capacity=feature_queue_capacity,
                                     num_enqueue_threads=num_enqueue_threads, name=scope)


def read_keyed_batch_features(file_pattern: Any, batch_size: Any, features: Mapping[str, Any], reader: Any,
                              randomize_input: bool = True, num_epochs: int | None = None,
                              queue_capacity: int = 10000, reader_num_threads: int = 1,
                              feature_queue_capacity: int = 100, num_enqueue_threads: int = 2,
                              parse_fn: Callable[[Any], Any] | None = None, name: str | None = None) -> Any:
    """``(keys, features)``: batches read ``batch_size`` records at a time, parsed with ``features``
    (a dict of ``FixedLenFeature`` / ``VarLenFeature``) and queued by :func:`queue_parsed_features`."""
    return _keyed_batch_features(file_pattern, batch_size, features, reader, randomize_input, num_epochs,
                                 queue_capacity, reader_num_threads, feature_queue_capacity, num_enqueue_threads,
                                 parse_fn, False, name)


def read_keyed_batch_features_shared_queue(file_pattern: Any, batch_size: Any, features: Mapping[str, Any],
                                           reader: Any, randomize_input: bool = True, num_epochs: int | None = None,
                                           queue_capacity: int = 10000, reader_num_threads: int = 1,
                                           feature_queue_capacity: int = 100, num_queue_runners: int = 2,
                                           parse_fn: Callable[[Any], Any] | None = None,
                                           name: str | None = None) -> Any:
    """:func:`read_keyed_batch_features` with the file names passed through a one-slot shared FIFO queue."""
    return _keyed_batch_features(file_pattern, batch_size, features, reader, randomize_input, num_epochs,
                                 queue_capacity, reader_num_threads, feature_queue_capacity, num_queue_runners,
                                 parse_fn, True, name)


def read_batch_features(file_pattern: Any, batch_size: Any, features: Mapping[str, Any], reader: Any,
                        randomize_input: bool = True, num_epochs: int | None = None, queue_capacity: int = 10000,
                        feature_queue_capacity: int = 100, reader_num_threads: int = 1,
                        parse_fn: Callable[[Any], Any] | None = None, name: str | None = None) -> dict[str, Any]:
    """:func:`read_keyed_batch_features` without the keys: the dict of batched features."""
    _, parsed = read_keyed_batch_features(file_pattern, batch_size, features, reader, randomize_input=randomize_input,
                                          num_epochs=num_epochs, queue_capacity=queue_capacity,
                                          reader_num_threads=reader_num_threads,
                                          feature_queue_capacity=feature_queue_capacity, parse_fn=parse_fn,
                                          name=name)
    return parsed


def read_batch_record_features(file_pattern: Any, batch_size: Any, features: Mapping[str, Any],
                               randomize_input: bool = True, num_epochs: int | None = None,
                               queue_capacity: int = 10000, reader_num_threads: int = 1,
                               name: str = "dequeue_record_examples") -> dict[str, Any]:
    """:func:`read_batch_features` of TFRecord files (``tf.TFRecordReader``)."""
    return read_batch_features(file_pattern, batch_size, features, _v1().TFRecordReader,
                               randomize_input=randomize_input, num_epochs=num_epochs,
                               queue_capacity=queue_capacity, reader_num_threads=reader_num_threads, name=name)
