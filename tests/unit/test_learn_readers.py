"""tf.contrib.learn's queue readers (tf1_pipelines.inputs.learn_readers): the batches are the records written.

TFRecord files of ``Example``s and CSV files are written here; every reader form
is driven by ``start_queue_runners`` and a ``Coordinator`` as TF 1.x code did,
and ``num_epochs`` ends the input with ``OutOfRangeError`` after each record was
read that many times.
"""
from __future__ import annotations

import collections
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import tensorflow as tf

from tf1_pipelines.inputs import learn_readers

v1 = tf.compat.v1


def _example(value: int) -> bytes:
    feature = {"v": tf.train.Feature(int64_list=tf.train.Int64List(value=[value])),
               "s": tf.train.Feature(float_list=tf.train.FloatList(value=[float(value)] * (value % 3)))}
    return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString(deterministic=True)


def _tfrecords(folder: Path, files: int = 2, per_file: int = 5) -> list[int]:
    values = []
    for f in range(files):
        with tf.io.TFRecordWriter(str(folder / f"part-{f}.tfrecord")) as writer:
            for i in range(per_file):
                writer.write(_example(10 * f + i))
                values.append(10 * f + i)
    return values


def _drain(fetches: Any) -> list[Any]:
    """Run ``fetches`` until OutOfRangeError, with queue runners under a Coordinator; joined after."""
    out = []
    with v1.Session() as sess:
        sess.run([v1.global_variables_initializer(), v1.local_variables_initializer()])
        coord = v1.train.Coordinator()
        threads = v1.train.start_queue_runners(sess, coord=coord)
        try:
            for _ in range(100):
                out.append(sess.run(fetches))
            raise AssertionError("the input did not end after num_epochs")
        except tf.errors.OutOfRangeError:
            pass
        finally:
            coord.request_stop()
            coord.join(threads, stop_grace_period_secs=10)
        assert not any(t.is_alive() for t in threads)
    return out


@pytest.mark.timeout(120)
def test_features_in_order_keys_and_end_after_num_epochs(tmp_path: Path) -> None:
    values = _tfrecords(tmp_path)
    with tf.Graph().as_default():
        keys, features = learn_readers.read_keyed_batch_features(
            str(tmp_path / "*.tfrecord"), 3, {"v": v1.FixedLenFeature([], tf.int64), "s": v1.VarLenFeature(tf.float32)},
            v1.TFRecordReader, randomize_input=False, num_epochs=2,
            # one enqueue thread: with TF 1.x's default two, whole batches may pass each other in the
            # parsed-features queue (as under TF 1.x), and this test checks the record order
            num_enqueue_threads=1)
        assert len(v1.get_collection(v1.GraphKeys.QUEUE_RUNNERS)) >= 3  # filenames, batch_join, parsed features
        batches = _drain([keys, features["v"], features["s"]])
    read = np.concatenate([b[1] for b in batches])
    np.testing.assert_array_equal(read, values + values)  # sorted files, record order, two epochs, short last batch
    assert [len(b[1]) for b in batches] == [3, 3, 3, 3, 3, 3, 2]
    first_keys = [k.decode() for k in batches[0][0]]
    assert first_keys[0].endswith("part-0.tfrecord:0") and ":" in first_keys[1]
    for _, v, s in batches:  # the sparse feature rebuilt after the queue: value repeated value % 3 times
        dense = tf.compat.v1.SparseTensorValue(s.indices, s.values, s.dense_shape)
        counts = collections.Counter(int(i) for i in dense.indices[:, 0])
        assert [counts.get(row, 0) for row in range(len(v))] == [int(x) % 3 for x in v]


@pytest.mark.timeout(120)
def test_shuffled_examples_and_csv_with_parse_fn(tmp_path: Path) -> None:
    values = _tfrecords(tmp_path, files=3, per_file=4)
    csv = tmp_path / "table.csv"
    rows = [(i, 0.5 * i) for i in range(7)]
    csv.write_text("".join(f"{a},{b}\n" for a, b in rows))
    with tf.Graph().as_default():
        examples = learn_readers.read_batch_examples(
            str(tmp_path / "*.tfrecord"), 4, v1.TFRecordReader, randomize_input=True, num_epochs=1,
            queue_capacity=20, num_threads=2)
        shuffled = _drain(examples)
    with tf.Graph().as_default():
        def parse(line: Any) -> Any:
            ints, floats = v1.decode_csv(line, [[0], [0.0]])
            return {"i": ints, "f": floats}
        keys, parsed = learn_readers.read_keyed_batch_examples_shared_queue(
            [str(csv)], 3, v1.TextLineReader, randomize_input=False, num_epochs=1, parse_fn=parse)
        table = _drain([keys, parsed["i"], parsed["f"]])
    parsed = [tf.train.Example.FromString(r).features.feature["v"].int64_list.value[0]
              for batch in shuffled for r in batch]
    assert sorted(parsed) == sorted(values)  # each record exactly once in one epoch
    np.testing.assert_array_equal(np.concatenate([t[1] for t in table]), [a for a, _ in rows])
    np.testing.assert_allclose(np.concatenate([t[2] for t in table]), [b for _, b in rows])
    assert table[0][0][0].decode().endswith("table.csv:1")  # TextLineReader keys are file:line


def test_bad_options_name_both_values(tmp_path: Path) -> None:
    _tfrecords(tmp_path, files=1, per_file=1)
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="batch_size 50 must be in 1..queue_capacity \\(10\\)"):
            learn_readers.read_batch_examples(str(tmp_path / "*"), 50, v1.TFRecordReader, queue_capacity=10)
        with pytest.raises(ValueError, match="no files match"):
            learn_readers.read_batch_examples(str(tmp_path / "none*"), 5, v1.TFRecordReader)
