"""Reading seed 001's records: one record in numpy or in the graph, a batch of
records in the graph, and the search for a bad record."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import tensorflow as tf
from google.protobuf.message import DecodeError

from tf1_pipelines.errors import DataError
from tf1_pipelines.records.reader import iterate_records

tf1 = tf.compat.v1


def parse_tfrecord_np(record: bytes) -> np.ndarray:
    """One record -> uint8 array of its ``shape`` (CHW). DataError naming the field
    when the record is not such an Example."""
    ex = tf.train.Example()
    try:
        ex.ParseFromString(record)
    except DecodeError as exc:
        raise DataError(f"record is not a tf.train.Example ({exc})") from exc
    feature = ex.features.feature
    for key in ("shape", "data"):
        if key not in feature:
            raise DataError("missing feature", field=key)
    shape = list(feature["shape"].int64_list.value)
    values = feature["data"].bytes_list.value
    if len(shape) != 3:
        raise DataError(f"holds {len(shape)} int64 values, expected 3 (CHW)", field="shape")
    if len(values) != 1:
        raise DataError(f"holds {len(values)} bytes values, expected 1", field="data")
    data = np.frombuffer(values[0], np.uint8)
    if data.size != int(np.prod(shape)):
        raise DataError(f"holds {data.size} bytes, but shape {shape} needs {int(np.prod(shape))}",
                        field="data")
    return data.reshape(shape).copy()


def parse_tfrecord_tf(record: tf.Tensor) -> tf.Tensor:
    """One serialized record -> uint8 tensor of rank 3 (CHW), in the graph."""
    features = tf1.parse_single_example(record, features={
        "shape": tf1.FixedLenFeature([3], tf.int64),
        "data": tf1.FixedLenFeature([], tf.string)})
    data = tf1.decode_raw(features["data"], tf.uint8)
    return tf.reshape(data, features["shape"])


def parse_tfrecord_batch(records: tf.Tensor) -> tf.Tensor:
    """Serialized records [B] of one shape -> uint8 [B, C, H, W]: what
    ``parse_tfrecord_tf`` and ``batch`` give together, in four ops. Records whose
    data differ in length fail (InvalidArgumentError), as batching their images
    would; records of equal length are given the first record's shape."""
    features = tf1.parse_example(records, features={
        "shape": tf1.FixedLenFeature([3], tf.int64),
        "data": tf1.FixedLenFeature([], tf.string)})
    data = tf.io.decode_raw(features["data"], tf.uint8)
    return tf.reshape(data, tf.concat([[-1], features["shape"][0]], axis=0))


def _parse_at(record: bytes, path: str, index: int) -> np.ndarray:
    try:
        return parse_tfrecord_np(record)
    except DataError as exc:
        message, where = str(exc), f"field {exc.field!r}: "
        message = message[len(where):] if message.startswith(where) else message
        raise DataError(message, path=path, record=index, field=exc.field) from exc


def find_bad_record(path: str, expected_shape: Sequence[int] | None = None) -> DataError | None:
    """The DataError for the first unreadable or misshapen record of ``path``, or None."""
    try:
        for index, record in enumerate(iterate_records(path)):
            shape = _parse_at(record, path, index).shape
            if expected_shape is not None and list(shape) != list(expected_shape):
                return DataError(f"image has shape {list(shape)}, this file's LOD needs "
                                 f"{list(expected_shape)}", path=path, record=index, field="shape")
    except DataError as found:
        return found
    return None


def _first_shape(path: str) -> tuple[int, ...]:
    for record in iterate_records(path):
        return _parse_at(record, path, 0).shape
    raise DataError("holds no records (an empty export?)", path=path)
