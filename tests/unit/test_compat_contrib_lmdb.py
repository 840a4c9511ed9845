"""tf.contrib.data.LMDBDataset (compat.contrib.data): (key, value) pairs of each database in key order, as TF 1.x."""
from __future__ import annotations

from pathlib import Path

import lmdb
import pytest
import tensorflow as tf

from compat.contrib.data import LMDBDataset

v1 = tf.compat.v1


def _write(path: Path, pairs: dict[bytes, bytes], subdir: bool) -> str:
    env = lmdb.open(str(path), subdir=subdir, map_size=1 << 20)
    with env.begin(write=True) as txn:
        for key, value in pairs.items():  # inserted out of order: LMDB keeps keys sorted
            txn.put(key, value)
    env.close()
    return str(path)


def _read_all(filenames: list[str]) -> list[tuple[bytes, bytes]]:
    with tf.Graph().as_default():
        dataset = LMDBDataset(filenames)
        assert dataset.element_spec == (tf.TensorSpec([], tf.string), tf.TensorSpec([], tf.string))
        key, value = v1.data.make_one_shot_iterator(dataset).get_next()
        out = []
        with v1.Session() as sess:
            with pytest.raises(tf.errors.OutOfRangeError):
                for _ in range(100):
                    out.append(tuple(sess.run([key, value])))
    return out


@pytest.mark.timeout(60)
def test_pairs_in_key_order_file_then_folder(tmp_path: Path) -> None:
    first = {b"k10": b"ten", b"k02": b"\x00\x01binary", b"k99": b"", b"a": b"first"}
    second = {b"z": b"zed", b"b": b"bee"}
    single_file = _write(tmp_path / "one.mdb", first, subdir=False)  # a regular file: no sub-directory
    folder = _write(tmp_path / "two", second, subdir=True)  # an environment folder (data.mdb inside)
    assert _read_all([single_file, folder]) == sorted(first.items()) + sorted(second.items())


@pytest.mark.timeout(60)
def test_not_a_database_names_the_file(tmp_path: Path) -> None:
    bogus = tmp_path / "missing.mdb"
    with tf.Graph().as_default():
        key, _ = v1.data.make_one_shot_iterator(LMDBDataset(str(bogus))).get_next()
        with v1.Session() as sess, pytest.raises(tf.errors.OpError, match="missing.mdb is not a readable LMDB"):
            sess.run(key)
    with tf.Graph().as_default(), pytest.raises(TypeError, match="Python strings"):
        LMDBDataset(tf.constant([str(bogus)]))
