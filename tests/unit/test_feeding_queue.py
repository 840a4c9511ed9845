"""tf1_pipelines.inputs.feeding_queue: what a FeedingQueueRunner enqueues is exactly the
arrays its feed functions return; the end of the feed closes the queue; an error in a
feed function reaches the coordinator; every thread ends."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import tensorflow as tf

from tf1_pipelines.errors import ConfigError
from tf1_pipelines.inputs.feeding_queue import FeedingQueueRunner

tf1 = tf.compat.v1

pytestmark = pytest.mark.timeout(60)


def _chunks(placeholder: Any, array: np.ndarray, size: int) -> Callable[[], dict[Any, Any]]:
    """A feed function giving ``array`` in chunks of ``size`` rows, then OutOfRangeError
    (what numpy_input_fn's feed functions raised after their last epoch)."""
    state = {"start": 0}

    def feed() -> dict[Any, Any]:
        start = state["start"]
        if start >= len(array):
            raise tf.errors.OutOfRangeError(None, None, "Already emitted 1 epochs.")
        state["start"] = start + size
        return {placeholder: array[start:start + size]}
    return feed


def _drain(sess: Any, dequeue: Any) -> list[np.ndarray]:
    got = []
    try:
        while True:
            got.append(sess.run(dequeue))
    except tf.errors.OutOfRangeError:
        return got


def test_the_queue_holds_the_arrays_fed_then_ends() -> None:
    array = np.arange(42, dtype=np.float32).reshape(21, 2)
    with tf.Graph().as_default():
        queue = tf1.FIFOQueue(8, [tf.float32], shapes=[(2,)])
        rows = tf1.placeholder(tf.float32, [None, 2])
        runner = FeedingQueueRunner(queue, [queue.enqueue_many([rows])], feed_fns=[_chunks(rows, array, 4)])
        tf1.train.add_queue_runner(runner)
        batch = queue.dequeue_up_to(5)
        with tf1.Session() as sess:
            coord = tf1.train.Coordinator()
            threads = tf1.train.start_queue_runners(sess, coord)
            got = _drain(sess, batch)
            coord.request_stop()
            coord.join(threads, stop_grace_period_secs=10)
    np.testing.assert_array_equal(np.concatenate(got), array)  # one thread: FIFO order
    assert [len(b) for b in got] == [5, 5, 5, 5, 1]
    assert not any(t.is_alive() for t in threads)


def test_two_threads_feed_every_row_once() -> None:
    with tf.Graph().as_default():
        queue = tf1.FIFOQueue(4, [tf.int64], shapes=[()])
        a, b = tf1.placeholder(tf.int64, [None]), tf1.placeholder(tf.int64, [None])
        runner = FeedingQueueRunner(queue, [queue.enqueue_many([a]), queue.enqueue_many([b])],
                                    feed_fns=[_chunks(a, np.arange(0, 50), 3), _chunks(b, np.arange(50, 90), 7)])
        with tf1.Session() as sess:
            coord = tf1.train.Coordinator()
            threads = runner.create_threads(sess, coord=coord, start=True)
            assert len(threads) == 3  # two feeding threads and the one that cancels on stop
            got = np.concatenate(_drain(sess, queue.dequeue_up_to(8)))
            coord.request_stop()
            coord.join(threads, stop_grace_period_secs=10)
    assert sorted(got.tolist()) == list(range(90))


def test_an_error_in_a_feed_function_stops_the_coordinator() -> None:
    def broken() -> dict[Any, Any]:
        raise ValueError("row 3 of batch.csv: field 'x' is not a number")

    with tf.Graph().as_default():
        queue = tf1.FIFOQueue(4, [tf.int64], shapes=[()])
        x = tf1.placeholder(tf.int64, [None])
        runner = FeedingQueueRunner(queue, [queue.enqueue_many([x])], feed_fns=[broken])
        with tf1.Session() as sess:
            coord = tf1.train.Coordinator()
            threads = runner.create_threads(sess, coord=coord, start=True)
            with pytest.raises(ValueError, match="batch.csv"):
                coord.join(threads, stop_grace_period_secs=10)
    assert not any(t.is_alive() for t in threads)


def test_feed_functions_must_match_the_enqueue_ops_and_no_proto() -> None:
    with tf.Graph().as_default():
        queue = tf1.FIFOQueue(4, [tf.int64], shapes=[()])
        op = queue.enqueue([tf.constant(1, tf.int64)])
        with pytest.raises(ConfigError, match="feed_fns has 2 functions but enqueue_ops has 1 ops"):
            FeedingQueueRunner(queue, [op], feed_fns=[dict, dict])
        with pytest.raises(NotImplementedError, match="from_generator"):
            FeedingQueueRunner(queue, [op]).to_proto()
