"""read_in_parallel: two readers give the records of two files in turn (the order a
sequential interleave gives when ordered), every record once either way, and one
reader is a plain flat_map."""
from __future__ import annotations

import collections
from pathlib import Path

import pytest
import tensorflow as tf

from tf1_pipelines.errors import ConfigError
from tf1_pipelines.inputs.parallel_reads import read_in_parallel

tf1 = tf.compat.v1

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def files(tmp_path: Path) -> list[str]:
    """Three record files of different lengths; record j of file i is b"i:j"."""
    names = []
    for i, count in enumerate((3, 5, 2)):
        name = str(tmp_path / f"part-{i}.tfrecords")
        with tf.io.TFRecordWriter(name) as writer:
            for j in range(count):
                writer.write(f"{i}:{j}".encode())
        names.append(name)
    return names


def _records(make: object) -> list[bytes]:
    with tf.Graph().as_default():
        element = tf1.data.make_one_shot_iterator(make()).get_next()  # type: ignore[operator]
        got = []
        with tf1.Session() as sess:
            try:
                while True:
                    got.append(sess.run(element))
            except tf.errors.OutOfRangeError:
                return got


def test_ordered_readers_take_turns_record_by_record(files: list[str]) -> None:
    def names() -> tf.data.Dataset:
        return tf1.data.Dataset.from_tensor_slices(files).repeat(2)

    got = _records(lambda: read_in_parallel(names(), tf1.data.TFRecordDataset, readers=2,
                                            ordered=True))
    expected = _records(lambda: names().interleave(tf1.data.TFRecordDataset, cycle_length=2,
                                                   block_length=1))
    assert got == expected
    assert got[:4] == [b"0:0", b"1:0", b"0:1", b"1:1"]


def test_unordered_readers_give_every_record_once(files: list[str]) -> None:
    got = _records(lambda: read_in_parallel(
        tf1.data.Dataset.from_tensor_slices(files).repeat(3), tf1.data.TFRecordDataset,
        readers=3, ordered=False))
    expected = {f"{i}:{j}".encode(): 3 for i, count in enumerate((3, 5, 2))
                for j in range(count)}
    assert collections.Counter(got) == expected


def test_one_reader_reads_the_files_in_order(files: list[str]) -> None:
    got = _records(lambda: read_in_parallel(tf1.data.Dataset.from_tensor_slices(files),
                                            tf1.data.TFRecordDataset, readers=1,
                                            ordered=False))
    assert got == [b"0:0", b"0:1", b"0:2", b"1:0", b"1:1", b"1:2", b"1:3", b"1:4",
                   b"2:0", b"2:1"]


@pytest.mark.parametrize("readers", [0, -1, 1.5, None])
def test_a_reader_count_that_is_not_a_whole_number_is_refused(files: list[str],
                                                              readers: object) -> None:
    names = tf1.data.Dataset.from_tensor_slices(files)
    with pytest.raises(ConfigError, match="readers"):
        read_in_parallel(names, tf1.data.TFRecordDataset, readers=readers,  # type: ignore[arg-type]
                         ordered=True)
