"""``inspect``'s check of one file, in process: every record kind the package writes,
the field and record named for bad ones, and the exit codes of the command."""
from __future__ import annotations

import io

import numpy as np
import pytest
import tensorflow as tf
from PIL import Image

from tf1_pipelines.cli.inspect_records import FileReport, check_file, run_inspect
from tf1_pipelines.pipelines.inception_multilabel.records import convert_to_example
from tf1_pipelines.pipelines.stylegan_lod.records import serialize_image
from tf1_pipelines.pipelines.voc_segmentation.records import pair_to_example
from tf1_pipelines.records.features import bytes_feature, example, float_feature, int64_feature

pytestmark = pytest.mark.timeout(60)


def write_records(path: str, records: list[bytes]) -> str:
    with tf.io.TFRecordWriter(path) as writer:
        for record in records:
            writer.write(record)
    return path


def jpeg(colour: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (4, 4), (colour, 0, 0)).save(buffer, format="JPEG")
    return buffer.getvalue()


def labelled(encoded: bytes, labels: list[int] | list[float]) -> bytes:
    record = convert_to_example("a.jpg", encoded, [("colour", [int(v) for v in labels])], 4, 4)
    if any(isinstance(v, float) for v in labels):
        record.features.feature["image/label/colour"].CopyFrom(float_feature(labels))
    return record.SerializeToString()


def test_stylegan_records_good_and_misshapen(tmp_path) -> None:
    image = np.arange(48, dtype=np.uint8).reshape(3, 4, 4)
    good = write_records(str(tmp_path / "g.tfrecords"), [serialize_image(image)] * 3)
    assert check_file(good) == FileReport(good, 3, 0, "stylegan_lod images", None)
    short = example({"shape": int64_feature([3, 4, 4]), "data": bytes_feature(b"\0" * 47)})
    other = serialize_image(np.zeros((3, 8, 8), np.uint8))
    bad = write_records(str(tmp_path / "b.tfrecords"),
                        [serialize_image(image), short.SerializeToString(), other])
    report = check_file(bad)
    assert (report.records, report.bad_records, report.ok) == (3, 2, False)
    assert report.error == (f"file {bad!r}, record 1, field 'data': holds 47 bytes, but shape "
                            "[3, 4, 4] needs 48")


def test_voc_pairs_good_and_with_a_short_mask(tmp_path) -> None:
    img, mask = np.zeros((2, 3, 3), np.uint8), np.ones((2, 3), np.uint8)
    record = pair_to_example(img, mask)
    good = write_records(str(tmp_path / "g.tfrecords"), [record.SerializeToString()] * 2)
    assert (check_file(good).kind, check_file(good).records, check_file(good).ok) == (
        "voc_segmentation pairs", 2, True)
    record.features.feature["mask_raw"].CopyFrom(bytes_feature(b"\1" * 5))
    bad = write_records(str(tmp_path / "b.tfrecords"), [record.SerializeToString()])
    assert "record 0, field 'mask_raw': holds 5 bytes, but height 2 x width 3 needs 6" in \
        check_file(bad).error


def test_inception_float_label_in_record_0_and_undecodable_jpeg(tmp_path) -> None:
    good = write_records(str(tmp_path / "train-00000-of-00001"),
                         [labelled(jpeg(10), [0, 1]), labelled(jpeg(200), [1, 0])])
    report = check_file(good)
    assert (report.kind, report.records, report.ok) == ("inception_multilabel images", 2, True)
    floats = write_records(str(tmp_path / "f"), [labelled(jpeg(10), [0.0, 1.0]),
                                                 labelled(jpeg(10), [0, 1])])
    assert check_file(floats).error.endswith(
        "record 0, field 'image/label/colour': holds float values, expected int64")
    broken = write_records(str(tmp_path / "j"), [labelled(jpeg(10), [0, 1]),
                                                 labelled(b"not a jpeg", [0, 1])])
    assert "record 1, field 'image/encoded': does not decode as an image" in check_file(broken).error


def test_bad_record_past_the_first_chunk_is_named(tmp_path) -> None:
    records = [example({"gt": bytes_feature(b"\0" * 9)}).SerializeToString()] * 300
    records[270] = example({"gt": bytes_feature(b"\0" * 16)}).SerializeToString()
    report = check_file(write_records(str(tmp_path / "p.tfrecords"), records), patch_size=3)
    assert (report.records, report.bad_records) == (300, 1)
    assert "record 270, field 'gt': holds 16 bytes, patch_size 3 needs 9" in report.error
    # Without --patch-size the div2k_sr reader's default (96) is the rule: all 300 fail,
    # as the pipeline would reject them.
    assert check_file(str(tmp_path / "p.tfrecords")).bad_records == 300


def test_other_examples_and_non_examples(tmp_path) -> None:
    other = [example({"x": float_feature([1.0, 2.0])}).SerializeToString(),
             example({"x": float_feature([3.0])}).SerializeToString()]
    report = check_file(write_records(str(tmp_path / "o.tfrecords"), other))
    assert (report.kind, report.records, report.ok) == ("unknown Example", 2, True)
    report = check_file(write_records(str(tmp_path / "n.tfrecords"), [b"\xff\xfe\x00"]))
    assert not report.ok and "record 0: record is not a tf.train.Example" in report.error


def test_missing_paths_and_empty_folders_exit_2_after_checking_the_rest(tmp_path) -> None:
    good = write_records(str(tmp_path / "g.tfrecords"),
                         [example({"gt": bytes_feature(b"\0" * 4)}).SerializeToString()])
    (tmp_path / "empty").mkdir()
    lines: list[str] = []
    errors: list[str] = []
    code = run_inspect([str(tmp_path / "gone.tfrecords"), str(tmp_path / "empty"), good],
                       lambda path: check_file(path, patch_size=2), out=lines.append,
                       err=errors.append)
    assert code == 2
    assert "gone.tfrecords: FAILED: " in errors[0] and "does not exist" in errors[0]
    assert "folder holds no TFRecord files" in errors[1] and len(errors) == 2
    assert lines == [f"{good}: 1 records (div2k_sr patches), ok",
                     "summary: 1 files checked, 1 ok, 0 failed, 1 records, 0 bad; 2 paths not checked"]
    assert run_inspect([good], lambda path: check_file(path, patch_size=2), out=lines.append) == 0
