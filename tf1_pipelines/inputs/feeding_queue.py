"""``FeedingQueueRunner``: a TF1 ``QueueRunner`` whose enqueue ops are fed from Python.

What ``numpy_input_fn`` / ``pandas_input_fn`` ran on (TF 1.15 kept it in
``tensorflow/python/estimator/inputs/queues/feeding_queue_runner.py`` and exported it
as ``tf.contrib.training.FeedingQueueRunner``). Each enqueue op gets its own thread
and its own feed function: the thread calls the function (a dict from placeholders
to values) and runs the op with that feed, until

* the coordinator asks to stop,
* the op or the feed function raises ``OutOfRangeError`` / ``CancelledError`` (the
  input ran out, or the queue was closed): the last thread to end closes the queue,
  so that dequeues after the last element raise ``OutOfRangeError``;
* anything else is raised: reported to the coordinator (``request_stop(exc)``, so
  ``coord.join`` raises it), or, without one, recorded and re-raised.

As in TF 1.15 it cannot be built from or saved to a ``QueueRunnerDef`` proto.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

import tensorflow as tf

from tf1_pipelines.errors import ConfigError

tf1 = tf.compat.v1

__all__ = ["FeedingQueueRunner", "FeedFn"]

#: TensorFlow's QueueRunner class (typed Any: TensorFlow ships no type information).
_QueueRunner: Any = tf1.train.QueueRunner

#: A feed function: called before every enqueue, returns the feed_dict of that run.
FeedFn = Callable[[], dict[Any, Any]]


class FeedingQueueRunner(_QueueRunner):
    """A ``QueueRunner`` whose enqueue op ``i`` is run with ``feed_fns[i]()`` as its feed."""

    def __init__(self, queue: Any = None, enqueue_ops: Sequence[Any] | None = None, close_op: Any = None,
                 cancel_op: Any = None, feed_fns: Sequence[FeedFn | None] | None = None,
                 queue_closed_exception_types: tuple[type[BaseException], ...] | None = None) -> None:
        """Args as ``tf.train.QueueRunner``'s, plus ``feed_fns``: one per enqueue op (or None).

        Raises:
            ConfigError: ``feed_fns`` and ``enqueue_ops`` differ in length.
        """
        if queue_closed_exception_types is None:
            queue_closed_exception_types = (tf.errors.OutOfRangeError, tf.errors.CancelledError)
        super().__init__(queue, enqueue_ops, close_op, cancel_op,
                         queue_closed_exception_types=queue_closed_exception_types)
        ops = list(enqueue_ops or [])
        if feed_fns is None:
            self._feed_fns: list[FeedFn | None] = [None] * len(ops)
        elif len(feed_fns) != len(ops):
            raise ConfigError(f"FeedingQueueRunner: feed_fns has {len(feed_fns)} functions but enqueue_ops has "
                              f"{len(ops)} ops; give one feed function per enqueue op")
        else:
            self._feed_fns = list(feed_fns)

    @property
    def feed_fns(self) -> list[FeedFn | None]:
        """The feed functions, one per enqueue op."""
        return list(self._feed_fns)

    def _end_one_thread(self, sess: Any, close: bool) -> None:
        """Count a thread as ended; the last one closes the queue when ``close``."""
        with self._lock:
            self._runs_per_session[sess] -= 1
            last = self._runs_per_session[sess] == 0
        if close and last:
            try:
                sess.run(self._close_op)
            except Exception as exc:  # noqa: BLE001 - TF 1.x ignored a failing close, as we do
                tf1.logging.vlog(1, "Ignored exception: %s", str(exc))

    def _run_fed(self, sess: Any, enqueue_op: Any, feed_fn: FeedFn | None, coord: Any = None) -> None:
        """The loop of one thread (see the module docstring for how it ends)."""
        if coord is not None:
            coord.register_thread(threading.current_thread())
        closed = False
        try:
            while coord is None or not coord.should_stop():
                try:
                    sess.run(enqueue_op, feed_dict=None if feed_fn is None else feed_fn())
                except self._queue_closed_exception_types:
                    closed = True
                    return
        except Exception as exc:
            if coord is not None:
                coord.request_stop(exc)
            else:
                tf1.logging.error("Exception in FeedingQueueRunner: %s", str(exc))
                with self._lock:
                    self._exceptions_raised.append(exc)
                raise
        finally:
            self._end_one_thread(sess, close=closed)

    def create_threads(self, sess: Any, coord: Any = None, daemon: bool = False,
                       start: bool = False) -> list[threading.Thread]:
        """One thread per enqueue op (plus, with ``coord``, one that cancels the queue when
        the coordinator stops); none if this session's threads are still running."""
        with self._lock:
            if self._runs_per_session.get(sess, 0) > 0:
                return []
            self._runs_per_session[sess] = len(self._enqueue_ops)
            self._exceptions_raised: list[BaseException] = []
        threads = [threading.Thread(target=self._run_fed, args=(sess, op, fn, coord),
                                    name=f"FeedingQueueRunner-{op.name}")
                   for op, fn in zip(self._enqueue_ops, self._feed_fns)]
        if coord is not None:
            threads.append(threading.Thread(target=self._close_on_stop, args=(sess, self._cancel_op, coord)))
        for thread in threads:
            thread.daemon = daemon
            if start:
                thread.start()
        return threads

    def _init_from_proto(self, queue_runner_def: Any, import_scope: str | None = None) -> None:
        raise NotImplementedError("FeedingQueueRunner cannot be built from a QueueRunnerDef proto "
                                  "(its feed functions are Python); build it with its constructor")

    def to_proto(self, export_scope: str | None = None) -> Any:
        """Refused: the feed functions are Python code, which a proto cannot hold."""
        raise NotImplementedError("FeedingQueueRunner cannot be saved as a QueueRunnerDef proto "
                                  "(its feed functions are Python); tf.data.Dataset.from_generator can be")
