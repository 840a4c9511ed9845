"""tf1_pipelines.inputs.bucketing: bucket membership, padding, end of data and the
queue runners, checked against a pure-Python bucketing of the same sequences."""
from __future__ import annotations

import collections
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import tensorflow as tf

from tf1_pipelines.errors import ConfigError, ConfigTypeError
from tf1_pipelines.inputs import bucketing

tf1 = tf.compat.v1

pytestmark = pytest.mark.timeout(60)

BOUNDARIES = [3, 6, 9]
BATCH = 4


def _lengths(count: int = 40) -> list[int]:
    return [int(n) for n in np.random.RandomState(7).randint(1, 13, size=count)]


def _sequence(index: int, length: int) -> np.ndarray:
    """Sequence ``index``: ``length`` values, all ``100 * index + position + 1`` (never 0)."""
    return 100 * index + np.arange(1, length + 1, dtype=np.int64)


def _fed_input(lengths: list[int]) -> tuple[Any, Any, Any, Any]:
    """An input queue holding (index, length, sequence) for each length, closed after them."""
    queue = tf1.PaddingFIFOQueue(len(lengths) + 1, [tf.int32, tf.int32, tf.int64], [(), (), (None,)])
    enqueue = queue.enqueue_many([tf.constant(np.arange(len(lengths), dtype=np.int32)),
                                  tf.constant(np.array(lengths, dtype=np.int32)),
                                  tf.constant(_padded([_sequence(i, n) for i, n in enumerate(lengths)]))])
    index, length, values = queue.dequeue()
    with tf.control_dependencies([enqueue]):  # close after the enqueue, never before
        close = queue.close()
    # Dequeued padded to the longest: trim to the element's own length.
    return close, index, length, values[:length]


def _padded(rows: list[np.ndarray]) -> np.ndarray:
    width = max(len(r) for r in rows)
    return np.stack([np.pad(r, (0, width - len(r))) for r in rows])


def _batches(sess: Any, fetches: Any) -> Iterator[Any]:
    coord = tf1.train.Coordinator()
    threads = tf1.train.start_queue_runners(sess, coord)
    try:
        while True:
            try:
                yield sess.run(fetches)
            except tf.errors.OutOfRangeError:
                return
    finally:
        coord.request_stop()
        coord.join(threads, stop_grace_period_secs=10)
        assert not any(t.is_alive() for t in threads)


def _run_by_length(allow_smaller: bool) -> tuple[list[int], list[tuple[Any, ...]], Any]:
    lengths = _lengths()
    with tf.Graph().as_default():
        fill, index, length, values = _fed_input(lengths)
        out_length, (out_index, out_values) = bucketing.bucket_by_sequence_length(
            length, [index, values], BATCH, BOUNDARIES, num_threads=2, capacity=8, dynamic_pad=True,
            allow_smaller_final_batch=allow_smaller)
        shapes = (out_length.shape.as_list(), out_values.shape.as_list())
        with tf1.Session() as sess:
            sess.run(fill)
            got = list(_batches(sess, (out_length, out_index, out_values)))
    return lengths, got, shapes


def _check_batch(lengths: list[int], out_length: np.ndarray, out_index: np.ndarray, out_values: np.ndarray) -> None:
    """One bucket per batch; each row is its sequence, right-padded with 0 to the batch's longest."""
    buckets = {bucketing.which_bucket_for_length(int(n), BOUNDARIES) for n in out_length}
    assert len(buckets) == 1, out_length
    assert out_values.shape[1] == max(out_length)
    for n, i, row in zip(out_length, out_index, out_values):
        assert n == lengths[i]
        np.testing.assert_array_equal(row, np.pad(_sequence(int(i), int(n)), (0, out_values.shape[1] - n)))


def test_every_sequence_once_in_its_bucket_with_smaller_final_batches() -> None:
    lengths, got, shapes = _run_by_length(allow_smaller=True)
    assert shapes == ([None], [None, None])
    for out_length, out_index, out_values in got:
        assert 1 <= len(out_index) <= BATCH
        _check_batch(lengths, out_length, out_index, out_values)
    # Every element comes out exactly once: the partial buckets are handed over at the end.
    assert sorted(int(i) for _, index, _ in got for i in index) == list(range(len(lengths)))
    per_bucket = collections.Counter(bucketing.which_bucket_for_length(n, BOUNDARIES) for n in lengths)
    small = collections.Counter(bucketing.which_bucket_for_length(int(b[0][0]), BOUNDARIES)
                                for b in got if len(b[1]) < BATCH)
    assert small == {b: 1 for b, n in per_bucket.items() if n % BATCH}


def test_without_smaller_final_batch_the_remainders_are_dropped() -> None:
    lengths, got, shapes = _run_by_length(allow_smaller=False)
    assert shapes == ([BATCH], [BATCH, None])
    for out_length, out_index, out_values in got:
        assert len(out_index) == BATCH
        _check_batch(lengths, out_length, out_index, out_values)
    per_bucket = collections.Counter(bucketing.which_bucket_for_length(n, BOUNDARIES) for n in lengths)
    assert len(got) == sum(n // BATCH for n in per_bucket.values())


def test_bucket_with_per_bucket_sizes_and_keep_input_filter() -> None:
    # TF 1.15's bucket_ops_test: even/odd buckets, keep_input filtering the odd ones out.
    with tf.Graph().as_default():
        values = tf1.train.range_input_producer(40, num_epochs=1, shuffle=False).dequeue()
        which, (out,) = bucketing.bucket([values], values % 2, [5, 3], 2, keep_input=tf.equal(values % 2, 0),
                                         allow_smaller_final_batch=True)
        assert out.shape.as_list() == [None]
        with tf1.Session() as sess:
            sess.run(tf1.local_variables_initializer())
            got = list(_batches(sess, (which, out)))
    assert {int(w) for w, _ in got} == {0}
    assert [len(b) for _, b in got] == [5, 5, 5, 5]
    assert sorted(int(v) for _, b in got for v in b) == list(range(0, 40, 2))


def test_dict_in_dict_out_and_two_runners_registered() -> None:
    with tf.Graph().as_default():
        which, out = bucketing.bucket({"b": tf.constant([1.0, 2.0]), "a": tf.constant(3)}, 0, 2, 2)
        assert sorted(out) == ["a", "b"] and out["b"].shape.as_list() == [2, 2]
        runners = tf1.get_collection(tf1.GraphKeys.QUEUE_RUNNERS)
        assert len(runners) == 2
        names = [op.name for op in tf1.get_default_graph().get_operations()]
        assert any(n.endswith("bucket_queue_1") for n in names) and any(n.endswith("top_queue") for n in names)
        with tf1.Session() as sess:
            coord = tf1.train.Coordinator()
            threads = tf1.train.start_queue_runners(sess, coord)
            w, value = sess.run((which, out))
            coord.request_stop()
            coord.join(threads, stop_grace_period_secs=10)
    assert w == 0 and value["a"].tolist() == [3, 3] and value["b"].tolist() == [[1.0, 2.0]] * 2
    assert not [t for t in threading.enumerate() if t in threads and t.is_alive()]


@pytest.mark.parametrize(("boundaries", "error"), [([], ConfigError), ([3, 3], ConfigError),
                                                   ([1.5, 2], ConfigTypeError), (5, ConfigTypeError)])
def test_bad_boundaries_are_refused(boundaries: Any, error: type[Exception]) -> None:
    with tf.Graph().as_default(), pytest.raises(error, match="bucket"):
        bucketing.bucket_by_sequence_length(tf.constant(3), [tf.zeros([3])], 2, boundaries)


def test_unknown_shapes_need_dynamic_pad_and_sizes_must_match_buckets() -> None:
    with tf.Graph().as_default():
        ragged = tf1.placeholder(tf.int64, [None])
        with pytest.raises(ValueError, match=r"not fully defined.*dynamic_pad=True"):
            bucketing.bucket([ragged], 0, 2, 2)
        with pytest.raises(ConfigError, match=r"batch_size has 3 entries \[1, 2, 3\].*num_buckets 2"):
            bucketing.bucket([ragged], 0, [1, 2, 3], 2, dynamic_pad=True)


def test_which_bucket_for_length_matches_the_documented_edges() -> None:
    # Bucket 0: length < b[0]; bucket i: b[i-1] <= length < b[i]; last: length >= b[-1].
    assert [bucketing.which_bucket_for_length(n, BOUNDARIES) for n in (0, 2, 3, 5, 6, 8, 9, 100)] == \
        [0, 0, 1, 1, 2, 2, 3, 3]


def test_a_monitored_session_drives_the_runners_to_the_end() -> None:
    # MonitoredSession starts the QUEUE_RUNNERS itself and stops at the OutOfRangeError.
    lengths = _lengths(20)
    with tf.Graph().as_default():
        fill, index, length, _ = _fed_input(lengths)
        _, (out_index,) = bucketing.bucket_by_sequence_length(length, [index], BATCH, BOUNDARIES,
                                                              allow_smaller_final_batch=True)
        seen: list[int] = []
        scaffold = tf1.train.Scaffold(local_init_op=tf.group(tf1.local_variables_initializer(), fill))
        with tf1.train.MonitoredSession(session_creator=tf1.train.ChiefSessionCreator(scaffold=scaffold)) as sess:
            while not sess.should_stop():
                seen.extend(int(i) for i in sess.run(out_index))
    assert sorted(seen) == list(range(20))
