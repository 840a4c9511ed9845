"""tf1_pipelines.inputs.sequence_state: segments, keys, lengths and the state carried
from one segment to the next, against a pure-Python split of the same sequences."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import tensorflow as tf

from tf1_pipelines.errors import ConfigError
from tf1_pipelines.inputs import sequence_state

tf1 = tf.compat.v1

pytestmark = pytest.mark.timeout(60)

UNROLL = 3
#: key -> sequence (lengths 5, 7, 3, 1, 6: padded to 6, 9, 3, 3, 6).
DATA = {f"k{i}": np.arange(1, n + 1, dtype=np.int64) * 10 ** i for i, n in enumerate((5, 7, 3, 1, 6))}


def _input() -> tuple[Any, Any, Any]:
    """(fill op, key, sequence) from a closed queue holding DATA."""
    width = max(len(v) for v in DATA.values())
    queue = tf1.FIFOQueue(len(DATA), [tf.string, tf.int64, tf.int32], [(), (width,), ()])
    fill = queue.enqueue_many([list(DATA), np.stack([np.pad(v, (0, width - len(v))) for v in DATA.values()]),
                               np.array([len(v) for v in DATA.values()], np.int32)])
    key, padded, length = queue.dequeue()
    with tf.control_dependencies([fill]):  # close after the enqueue, never before
        close = queue.close()
    return close, key, padded[:length]


def _run(batch_size: int, allow_small_batch: bool) -> list[dict[str, Any]]:
    """Every batch, with the state read and the state saved (state + sum of the segment)."""
    with tf.Graph().as_default():
        fill, key, values = _input()
        batch = sequence_state.batch_sequences_with_states(
            key, {"x": values}, {"first": values[0]}, None, {"total": tf.constant(0, tf.int64)}, UNROLL,
            batch_size, num_threads=2, capacity=4, allow_small_batch=allow_small_batch)
        assert batch.sequences["x"].shape.as_list()[1:] == [UNROLL]
        new_state = batch.state("total") + tf.reduce_sum(batch.sequences["x"], 1)
        save = batch.save_state("total", new_state)
        fetch = {"key": batch.key, "next_key": batch.next_key, "length": batch.length,
                 "total_length": batch.total_length, "x": batch.sequences["x"], "first": batch.context["first"],
                 "state": batch.state("total"), "saved": new_state, "sequence": batch.sequence,
                 "count": batch.sequence_count, "save": save}
        got = []
        with tf1.Session() as sess:
            sess.run(fill)
            coord = tf1.train.Coordinator()
            threads = tf1.train.start_queue_runners(sess, coord)
            try:
                while True:
                    got.append(sess.run(fetch))
            except tf.errors.OutOfRangeError:
                pass
            finally:
                coord.request_stop()
                coord.join(threads, stop_grace_period_secs=10)
    return got


def _segments(batches: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """original key -> its segments' rows in the order they came out."""
    rows: dict[str, list[dict[str, Any]]] = {}
    for b in batches:
        for j, full_key in enumerate(b["key"]):
            original = full_key.decode().split(":", 1)[1]
            rows.setdefault(original, []).append({name: value[j] for name, value in b.items() if name != "save"})
    return rows


def test_segments_carry_state_and_pad_like_a_python_split() -> None:
    batches = _run(batch_size=2, allow_small_batch=True)
    rows = _segments(batches)
    assert sorted(rows) == sorted(DATA)
    for key, seq in DATA.items():
        count = -(-len(seq) // UNROLL)
        padded = np.pad(seq, (0, count * UNROLL - len(seq)))
        assert len(rows[key]) == count
        carried = 0
        for k, row in enumerate(rows[key]):
            assert row["key"].decode() == sequence_state.segment_key(k, count, key)
            assert row["next_key"].decode() == (sequence_state.segment_key(k + 1, count, key)
                                                if k + 1 < count else f"STOP:{key}")
            assert (row["sequence"], row["count"], row["total_length"]) == (k, count, len(seq))
            assert row["length"] == min(UNROLL, max(0, len(seq) - UNROLL * k))
            np.testing.assert_array_equal(row["x"], padded[UNROLL * k:UNROLL * (k + 1)])
            assert row["first"] == seq[0]
            # The state seen is the one saved by the previous segment (0 for the first).
            assert row["state"] == carried
            carried = int(row["saved"])
        assert carried == seq.sum()
    # Segments of one example never share a batch, and batches never exceed batch_size.
    for b in batches:
        originals = [k.decode().split(":", 1)[1] for k in b["key"]]
        assert len(originals) == len(set(originals)) and 1 <= len(originals) <= 2


def test_without_small_batches_the_full_batches_still_carry_state() -> None:
    batches = _run(batch_size=2, allow_small_batch=False)
    assert batches and all(len(b["key"]) == 2 for b in batches)
    for key, segments in _segments(batches).items():
        assert [int(r["sequence"]) for r in segments] == list(range(len(segments)))
        carried = 0
        for row in segments:  # each segment starts from the previous one's saved state
            assert row["state"] == carried, key
            carried = int(row["saved"])


def test_the_last_small_batches_come_out_when_the_input_ends_mid_batch() -> None:
    # 30 examples from slice_input_producer, batches of 5: the input ends while a read waits
    # for 5 segments with fewer ready and the rest waiting for their state. Read from the
    # barrier in the consumer's step (as TF 1.15 did) this hung 14 times in 20 here.
    lengths = np.random.RandomState(0).randint(1, 12, size=30).astype(np.int32)
    with tf.Graph().as_default():
        index, n = tf1.train.slice_input_producer([tf.range(30), lengths], num_epochs=1, shuffle=False)
        values = tf.cast(tf.range(n) + 1, tf.float32)[:, None]
        batch = sequence_state.batch_sequences_with_states(tf.as_string(index), {"x": values}, {}, None,
                                                           {"h": tf.zeros([1])}, UNROLL, 5, num_threads=2, capacity=10)
        new = batch.state("h") + tf.reduce_sum(batch.sequences["x"], 1)
        with tf.control_dependencies([batch.save_state("h", new)]):
            new = tf.identity(new)
        finals = {}
        with tf1.Session() as sess:
            sess.run(tf1.local_variables_initializer())
            coord = tf1.train.Coordinator()
            threads = tf1.train.start_queue_runners(sess, coord)
            try:
                while True:
                    nexts, h = sess.run((batch.next_key, new))
                    finals.update({int(k[5:]): float(v[0]) for k, v in zip(nexts, h) if k.startswith(b"STOP:")})
            except tf.errors.OutOfRangeError:
                pass
            coord.request_stop()
            coord.join(threads, stop_grace_period_secs=10)
    assert finals == {i: n * (n + 1) / 2 for i, n in enumerate(lengths.tolist())}


def test_save_state_of_an_undeclared_state_and_bad_arguments() -> None:
    with tf.Graph().as_default():
        x = tf.zeros([6, 2])
        batch = sequence_state.batch_sequences_with_states(tf.constant("a"), {"x": x}, {}, None,
                                                           {"h": tf.zeros([4])}, UNROLL, 2)
        with pytest.raises(KeyError, match=r"state was not declared: c \(declared: \['h'\]\)"):
            batch.save_state("c", tf.zeros([2, 4]))
        with pytest.raises(ConfigError, match="initial_states must be a non-empty dict"):
            sequence_state.SequenceQueueingStateSaver(2, UNROLL, 6, "a", {"x": x}, {}, {})
        with pytest.raises(ConfigError, match="capacity 1 must be at least batch_size 2"):
            sequence_state.SequenceQueueingStateSaver(2, UNROLL, 6, "a", {"x": x}, {}, {"h": tf.zeros([4])},
                                                      capacity=1)
        with pytest.raises(ValueError, match="sequence 'y' must be fully defined"):
            sequence_state.SequenceQueueingStateSaver(2, UNROLL, 6, "a", {"y": tf1.placeholder(tf.float32, [6, None])},
                                                      {}, {"h": tf.zeros([4])})
