"""tf.contrib.training's queue pipelines under ``python -m compat run``: a 2017-style
script (Coordinator, start_queue_runners, a loop until OutOfRangeError) using
bucket_by_sequence_length, batch_sequences_with_states with static_state_saving_rnn,
stratified_sample and FeedingQueueRunner, checked against NumPy; and ``compat
check`` agreeing with the runner on every TF 1.15 name of tf.contrib.training."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from helpers.scripts import compat_run, write

from compat.checker import check
from compat.contrib import slim as slim_bridge
from compat.errors import LegacyAPIError
from compat.tf1 import namespace as tf1

#: The names this round serves (the rest of tf.contrib.training is tf_slim's or refused).
QUEUE_NAMES = ("bucket", "bucket_by_sequence_length", "batch_sequences_with_states", "SequenceQueueingStateSaver",
               "NextQueuedSequenceBatch", "rejection_sample", "stratified_sample", "resample_at_rate",
               "weighted_resample", "FeedingQueueRunner")
REFUSED = ("FailureTolerator", "GreedyLoadBalancingStrategy", "RandomStrategy", "byte_size_load_fn")

SCRIPT = """
import json
import threading
import numpy as np
import tensorflow as tf
from tensorflow.contrib.training.python.training import bucket_ops
from tensorflow.contrib.training import FeedingQueueRunner

rng = np.random.RandomState(0)
lengths = rng.randint(1, 12, size=30).astype(np.int32)
padded = np.zeros((30, 11), np.float32)
for i, n in enumerate(lengths):
    padded[i, :n] = rng.randint(1, 9, size=n)
out = {}
before = set(threading.enumerate())  # the runner's own threads

# 1. Bucketing by length, every sentence once (allow_smaller_final_batch).
with tf.Graph().as_default():
    index, n = tf.train.slice_input_producer([tf.range(30), lengths], num_epochs=1, shuffle=False)
    seq = tf.gather(padded, index)[:n]
    out_len, (out_index, out_seq) = bucket_ops.bucket_by_sequence_length(
        n, [index, seq], batch_size=4, bucket_boundaries=[4, 8], num_threads=2, dynamic_pad=True,
        allow_smaller_final_batch=True)
    batches = []
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess=sess, coord=coord)
        try:
            while not coord.should_stop():
                l, i, s = sess.run([out_len, out_index, out_seq])
                batches.append({"len": l.tolist(), "index": i.tolist(), "seq": s.tolist()})
        except tf.errors.OutOfRangeError:
            print("Done bucketing -- epoch limit reached")
        finally:
            coord.request_stop()
        coord.join(threads)
    out["buckets"] = batches

# 2. Truncated BPTT: a sum RNN (h = x + h) over segments of 3, state saved between segments.
with tf.Graph().as_default():
    index, n = tf.train.slice_input_producer([tf.range(30), lengths], num_epochs=1, shuffle=False)
    seq = tf.gather(padded, index)[:n]
    batch = tf.contrib.training.batch_sequences_with_states(
        input_key=tf.as_string(index), input_sequences={"x": tf.expand_dims(seq, 1)},
        input_context={}, input_length=None, initial_states={"h": tf.zeros([1])},
        num_unroll=3, batch_size=5, num_threads=2, capacity=10)
    inputs = tf.split(batch.sequences["x"], 3, axis=1)
    with tf.variable_scope("rnn", initializer=tf.ones_initializer()):
        cell = tf.contrib.rnn.BasicRNNCell(1, activation=tf.identity)
        outputs, state = tf.contrib.rnn.static_state_saving_rnn(
            cell, [tf.squeeze(x, 1) for x in inputs], state_saver=batch, state_name="h")
    finals = {}
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess=sess, coord=coord)
        try:
            while True:
                keys, nexts, h = sess.run([batch.key, batch.next_key, state])
                for key, nxt, value in zip(keys, nexts, h):
                    if nxt.startswith(b"STOP:"):
                        finals[int(nxt[5:])] = float(value[0])
        except tf.errors.OutOfRangeError:
            pass
        finally:
            coord.request_stop()
        coord.join(threads)
    out["finals"] = finals

# 3. Class-balanced batches from a 90/10 stream.
with tf.Graph().as_default():
    tf.set_random_seed(42)
    label = tf.cast(tf.random_uniform([]) < 0.1, tf.int32)
    [value], labels = tf.contrib.training.stratified_sample(
        [tf.cast(label, tf.float32) * 10.0], label, [0.5, 0.5], 20, init_probs=[0.9, 0.1])
    with tf.Session() as sess:
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess=sess, coord=coord)
        drawn = [sess.run([value, labels]) for _ in range(30)]
        coord.request_stop()
        coord.join(threads)
    out["labels"] = np.concatenate([l for _, l in drawn]).tolist()
    out["values_match"] = all(np.array_equal(v, l * 10.0) for v, l in drawn)

# 4. FeedingQueueRunner: the arrays fed, in order, then the end.
with tf.Graph().as_default():
    data = np.arange(12, dtype=np.int64).reshape(6, 2)
    queue = tf.FIFOQueue(3, [tf.int64], shapes=[(2,)])
    rows = tf.placeholder(tf.int64, [None, 2])
    chunks = iter([data[:4], data[4:]])
    def feed():
        try:
            return {rows: next(chunks)}
        except StopIteration:
            raise tf.errors.OutOfRangeError(None, None, "done")
    tf.train.add_queue_runner(FeedingQueueRunner(queue, [queue.enqueue_many([rows])], feed_fns=[feed]))
    one = queue.dequeue()
    fed = []
    with tf.Session() as sess:
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess=sess, coord=coord)
        try:
            while True:
                fed.append(sess.run(one).tolist())
        except tf.errors.OutOfRangeError:
            pass
        coord.request_stop()
        coord.join(threads)
    out["fed"] = fed

out["threads_left"] = [t.name for t in threading.enumerate() if t not in before and t.is_alive()]
print("RESULT " + json.dumps(out))
"""


def _reference() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.RandomState(0)
    lengths = rng.randint(1, 12, size=30).astype(np.int32)
    padded = np.zeros((30, 11), np.float32)
    for i, n in enumerate(lengths):
        padded[i, :n] = rng.randint(1, 9, size=n)
    return lengths, padded


def _bucket(n: int) -> int:
    return (n >= 4) + (n >= 8)


@pytest.mark.timeout(240)
def test_a_tf1_script_runs_the_training_queue_pipelines(tmp_path: Path) -> None:
    result = compat_run(write(tmp_path / "train_queues.py", SCRIPT), timeout=200)
    lines = [line for line in result.stdout.splitlines() if line.startswith("RESULT ")]
    assert result.returncode == 0 and lines, result.stderr[-3000:]
    out = json.loads(lines[-1][len("RESULT "):])
    lengths, padded = _reference()
    # Bucketing: every sentence once, one bucket per batch, padded with 0 to the batch's longest.
    seen = [i for b in out["buckets"] for i in b["index"]]
    assert sorted(seen) == list(range(30))
    for b in out["buckets"]:
        assert len({_bucket(n) for n in b["len"]}) == 1 and len(b["index"]) <= 4
        width = max(b["len"])
        for i, n, row in zip(b["index"], b["len"], b["seq"]):
            assert n == lengths[i]
            np.testing.assert_array_equal(row, np.pad(padded[i, :n], (0, width - n)))
    # State saving: the sum RNN's last state of each sentence is the sum of its values.
    finals = {int(k): v for k, v in out["finals"].items()}
    assert sorted(finals) == list(range(30))
    for i, total in finals.items():
        assert total == pytest.approx(padded[i].sum())
    # Stratified: 600 labels drawn; the target share 0.5 within 4 standard deviations.
    labels = np.array(out["labels"])
    assert out["values_match"] and len(labels) == 600
    assert abs(labels.mean() - 0.5) < 4 * np.sqrt(0.25 / 600)
    assert out["fed"] == np.arange(12).reshape(6, 2).tolist()
    assert out["threads_left"] == []


def test_check_agrees_with_the_runner_on_every_training_name(tmp_path: Path) -> None:
    facade = slim_bridge.contrib_facade("training")
    for name in QUEUE_NAMES:
        value = getattr(facade, name)
        assert value.__module__.startswith("tf1_pipelines.inputs."), name
        verdict = tf1.classify_tf_attribute(["contrib", "training", name])
        assert verdict is not None and verdict.status == "bridged", name
    for name in REFUSED:
        with pytest.raises(LegacyAPIError, match="tf.contrib.training"):
            getattr(facade, name)
        verdict = tf1.classify_tf_attribute(["contrib", "training", name])
        assert verdict is not None and verdict.status == "unsupported", name
    write(tmp_path / "old.py", """
        import tensorflow as tf
        from tensorflow.contrib.training import bucket_by_sequence_length, FeedingQueueRunner
        from tensorflow.contrib.training.python.training.bucket_ops import bucket
        from tensorflow.contrib.training.python.training.sequence_queueing_state_saver import NextQueuedSequenceBatch
        from tensorflow.contrib.training.python.training.sampling_ops import stratified_sample
        from tensorflow.contrib.training.python.training.resample import weighted_resample
        batch = tf.contrib.training.batch_sequences_with_states
    """)
    report = check.check_script(tmp_path / "old.py")
    assert report.unsupported == []
    assert sum(f.status == "bridged" for f in report.findings) == 6
