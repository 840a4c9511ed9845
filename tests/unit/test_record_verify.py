"""check_record_file: every record, every feature of a spec, counts and the first bad ones."""
from __future__ import annotations

import os

import pytest
import tensorflow as tf
from helpers.record_builders import jpeg_bytes, write_records

from tf1_pipelines.errors import DataError
from tf1_pipelines.records.features import bytes_feature, example, float_feature, int64_feature
from tf1_pipelines.records.verify import (
    FeatureSpec,
    check_record_file,
    first_record_error,
    require_records,
)

SPEC = {"data": FeatureSpec("bytes", 1, 4), "shape": FeatureSpec("int64", 2),
        "image": FeatureSpec("bytes", image=True)}


def good(index: int) -> bytes:
    return example({"data": bytes_feature(bytes([index] * 4)),
                    "shape": int64_feature([2, 2]),
                    "image": bytes_feature(jpeg_bytes(index, 8))}).SerializeToString()


def with_feature(key: str, feature: tf.train.Feature | None) -> bytes:
    """Record 0 with ``key`` replaced by ``feature`` (None: removed)."""
    ex = tf.train.Example.FromString(good(0))
    if feature is None:
        del ex.features.feature[key]
    else:
        ex.features.feature[key].CopyFrom(feature)
    return ex.SerializeToString()


def test_a_good_file_counts_every_record(tmp_path):
    path = write_records(str(tmp_path / "a.tfrecords"), [good(i) for i in range(5)])
    report = check_record_file(path, SPEC)
    assert (report.ok, report.records, report.bad_records, report.bad, report.framing) == \
        (True, 5, 0, [], None)
    assert report.error() is None


@pytest.mark.parametrize("key, feature, reason", [
    ("data", None, "missing feature"),
    ("data", int64_feature([1]), "holds int64 values, expected bytes"),
    ("data", bytes_feature(b"abc"), "holds 3 bytes, expected 4"),
    ("shape", float_feature([1.0, 2.0]), "holds float values, expected int64"),
    ("shape", int64_feature([2, 2, 3]), "holds 3 int64 values, expected 2"),
    ("shape", None, "missing feature"),
    ("image", bytes_feature(b"\xff\xd8 not an image"), "does not decode as an image"),
])
def test_each_bad_feature_is_named_with_its_record(tmp_path, key, feature, reason):
    records = [good(0), good(1), with_feature(key, feature), good(3), with_feature(key, feature)]
    path = write_records(str(tmp_path / "a.tfrecords"), records)
    report = check_record_file(path, SPEC, keep=5)
    assert (report.records, report.bad_records) == (5, 2)
    assert [(b.record, b.field) for b in report.bad] == [(2, key), (4, key)]
    assert reason in report.bad[0].reason
    error = report.error()
    assert isinstance(error, DataError)
    assert (error.path, error.record, error.field) == (path, 2, key)


def test_truncation_stops_the_walk_and_keeps_the_counts(tmp_path):
    path = write_records(str(tmp_path / "a.tfrecords"), [good(i) for i in range(4)])
    size = os.path.getsize(path)
    with open(path, "r+b") as f:
        f.truncate(size - 5)
    report = check_record_file(path, SPEC)
    assert (report.ok, report.records) == (False, 3)
    assert "truncated" in report.framing
    assert report.error().record == 3


def test_not_an_example_and_missing_file(tmp_path):
    path = write_records(str(tmp_path / "a.tfrecords"), [good(0), b"\x0a\xff\xff"])
    report = check_record_file(path, SPEC)
    assert [(b.record, b.field) for b in report.bad] == [(1, None)]
    assert "not a tf.train.Example" in report.bad[0].reason
    missing = check_record_file(str(tmp_path / "none.tfrecords"), SPEC)
    assert missing.framing == "TFRecord file does not exist" and missing.records == 0


def test_first_record_error_and_no_records(tmp_path):
    empty = str(tmp_path / "a.tfrecords")
    open(empty, "wb").close()
    bad = write_records(str(tmp_path / "b.tfrecords"), [with_feature("shape", None), good(1)])
    error = first_record_error([empty, bad], SPEC)
    assert (error.path, error.record, error.field) == (bad, 0, "shape")
    with pytest.raises(DataError, match="no records: all 1 TFRecord files are empty"):
        require_records([empty])
    require_records([empty, bad])  # one file with records is enough
