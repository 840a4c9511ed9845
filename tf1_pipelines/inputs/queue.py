"""How batches enter a TF1 graph through queues: checks and helpers shared by the
queue-runner pipelines (seed 003 image/mask pairs, seed 004 Inception-style reader).

* option checks that fail before any graph is built, with both values in the
  message (``capacity 10 must be bigger than min_after_dequeue 20``);
* record-file lists that name the missing file;
* :func:`filename_queue`, a checked ``tf.train.string_input_producer``;
* queue fill levels: :func:`sample_fill` samples ``Pipeline.queue_fill()`` (the
  ``fraction_of_N_full`` figures the ``tf.train`` queues record for TensorBoard,
  plus size/capacity of hand-made queues that record none) over time for a
  notebook plot.

Nothing here starts a thread; the :class:`~tf1_pipelines.pipeline.Pipeline` does
that on the first ``get_batch``.
"""
from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import tensorflow as tf

from tf1_pipelines import options
from tf1_pipelines.errors import ConfigError, DataError
from tf1_pipelines.options import check_non_negative_int, check_positive_int, show
from tf1_pipelines.records.reader import find_corrupt_file
from tf1_pipelines.records.writer import PARTIAL_SUFFIX
from tf1_pipelines.runtime.quiet_tf1 import quiet_tf1

tf1 = tf.compat.v1

__all__ = ["check_capacity", "check_num_epochs", "check_choice",
           "existing_files", "record_files", "filename_queue", "reader_error", "explain_read_error", "tf_error_text",
           "sample_fill"]


# ------------------------------------------------------------------------- option checks
def check_capacity(capacity: Any, min_after_dequeue: Any, what: str = "queue") -> tuple[int, int]:
    """``(capacity, min_after_dequeue)`` as ints if ``capacity > min_after_dequeue >= 0``.

    A shuffling queue with ``capacity <= min_after_dequeue`` can never hand out an
    element (a dequeue waits until more than ``min_after_dequeue`` are held), so
    TF would block forever; this raises ConfigError naming both values instead.
    """
    capacity = check_non_negative_int(f"{what}: capacity", capacity)
    min_after_dequeue = check_non_negative_int(f"{what}: min_after_dequeue", min_after_dequeue)
    if capacity <= min_after_dequeue:
        raise ConfigError(f"{what}: capacity {capacity} must be bigger than "
                          f"min_after_dequeue {min_after_dequeue}")
    return int(capacity), int(min_after_dequeue)


def check_num_epochs(num_epochs: Any) -> int | None:
    """``None`` (repeat forever) or a whole number >= 1; ConfigError otherwise."""
    if num_epochs is None:
        return None
    try:
        return check_positive_int("num_epochs", num_epochs)
    except ConfigError as exc:  # the same type (ConfigTypeError stays one), a fuller text
        raise type(exc)(f"num_epochs must be None (repeat forever) or a whole number >= 1, "
                        f"got {show(num_epochs)}") from None


def check_choice(name: str, value: Any, choices: Sequence[Any]) -> Any:
    """``value`` if it is one of ``choices``; ConfigError listing them otherwise
    (:func:`tf1_pipelines.options.check_choice`)."""
    return options.check_choice(name, value, choices)


# ---------------------------------------------------------------------------- file lists
def existing_files(files: Sequence[str | os.PathLike[str]]) -> list[str]:
    """The paths as strings; DataError naming the first one that is not a file."""
    paths = [os.fspath(f) for f in files]
    if not paths:
        raise DataError("no record files given (an empty list)")
    for path in paths:
        if not os.path.isfile(path):
            raise DataError("record file does not exist", path=path)
    return paths


def record_files(files_or_dir: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
                 pattern: str = "*.tfrecords") -> list[str]:
    """A directory (its files matching ``pattern``, sorted), one file, or a list of files.

    Temporary ``*.partial`` files of an export in progress are never picked up.
    Raises DataError naming the directory or the missing file.
    """
    if isinstance(files_or_dir, (str, os.PathLike)):
        path = os.fspath(files_or_dir)
        if os.path.isdir(path):
            found = sorted(p for p in tf.io.gfile.glob(os.path.join(path, pattern))
                           if not p.endswith(PARTIAL_SUFFIX) and os.path.isfile(p))
            if not found:
                raise DataError(f"no record files matching {pattern!r} in this directory",
                                path=path)
            return found
        return existing_files([path])
    return existing_files(list(files_or_dir))


# ------------------------------------------------------------------------- graph pieces
@quiet_tf1
def filename_queue(files: Sequence[str], *, num_epochs: int | None = None, shuffle: bool = True,
                   capacity: int = 32, seed: int | None = None,
                   name: str | None = None) -> Any:
    """``tf.train.string_input_producer(files, num_epochs, shuffle, seed, capacity)``
    after checking the files exist and the options are sane.

    With ``num_epochs`` set, the producer counts epochs in a local variable (the
    Pipeline initialises it) and closes the queue after the last one.
    """
    files = existing_files(files)
    check_num_epochs(num_epochs)
    if isinstance(capacity, bool) or not isinstance(capacity, (int, np.integer)) or capacity < 1:
        raise ConfigError(f"filename queue capacity must be a whole number >= 1, got {capacity!r}")
    return tf1.train.string_input_producer(files, num_epochs=num_epochs, shuffle=shuffle,
                                           seed=seed, capacity=int(capacity), name=name)


# ------------------------------------------------------------------------ reader errors
def tf_error_text(error: Any) -> str:
    """The one line of a TF error message that says what went wrong (a session
    error wraps it in "Graph execution error: ... Node: '...'" lines)."""
    lines = [line.strip() for line in (getattr(error, "message", None) or str(error)).splitlines()
             if line.strip()]
    for index, line in enumerate(lines[:-1]):
        if line.startswith("Node: "):
            return lines[index + 1]
    lines = [line for line in lines if line != "Graph execution error:"] or [str(error)]
    # tf.data prefixes "Error in user-defined function ... with iterator: <chain>: "
    head, _, rest = lines[0].partition(" with iterator: ")
    return rest.split(": ", 1)[-1] if rest else head


def explain_read_error(error: Any, files: Sequence[str],
                       verify: Callable[[Sequence[str]], object]) -> DataError:
    """The DataError for a failed read of ``files``: scan them in numpy for the first
    bad one, first for framing and CRC (:func:`find_corrupt_file`), then with the
    pipeline's own ``verify`` (feature keys, sizes), which raises DataError naming
    file, record and field; see :func:`reader_error` for the message."""
    found = find_corrupt_file(files)
    if found is None:
        try:
            verify(files)
        except DataError as bad:
            found = bad
    return reader_error(found, error, files)


def reader_error(found: DataError | None, error: Any, files: Sequence[str]) -> DataError:
    """The DataError for a failed read: what a scan of the files ``found`` (file,
    record, field) plus the line of the original TF message that says what went
    wrong. When the scan found nothing: the file named in the TF message, else
    the list of files read."""
    original = tf_error_text(error)
    if found is not None:
        # str(found) is "<file, record, field>: <what>"; keep <what>, add the TF line.
        where = str(DataError("", path=found.path, record=found.record, field=found.field))
        return DataError(f"{str(found)[len(where):]} [reader error: {original}]",
                         path=found.path, record=found.record, field=found.field)
    named = [path for path in files if path in original]
    if named:
        return DataError(f"a reader thread failed: {original}", path=named[0])
    shown = ", ".join(os.path.basename(path) for path in files[:5])
    more = f" and {len(files) - 5} more" if len(files) > 5 else ""
    return DataError(f"a reader thread failed: {original} (while reading {shown}{more} in "
                     f"{os.path.dirname(files[0])!r})" if files else
                     f"a reader thread failed: {original}")


# ---------------------------------------------------------------------------- fill levels
def sample_fill(pipeline: Any, *, duration: float, interval: float = 0.1, sess: Any = None,
                step: Callable[[], Any] | None = None) -> list[tuple[float, dict[str, float]]]:
    """Sample ``pipeline.queue_fill()`` every ``interval`` seconds for ``duration`` seconds.

    Returns ``[(seconds since start, {queue: fraction}), ...]``. With ``step``
    (e.g. ``pipeline.get_batch``) the consumer runs between samples, so the plot
    shows the queues under load; without it they show the queues filling up.
    """
    if duration <= 0 or interval <= 0:
        raise ConfigError(f"duration and interval must be > 0 seconds, got {duration!r} "
                          f"and {interval!r}")
    samples: list[tuple[float, dict[str, float]]] = []
    start = time.monotonic()
    while True:
        now = time.monotonic() - start
        if now > duration:
            return samples
        samples.append((now, pipeline.queue_fill(sess)))
        if step is not None:
            step()
        else:
            time.sleep(interval)
