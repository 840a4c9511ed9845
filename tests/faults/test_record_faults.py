"""Fault suite: broken record files and odd images through every record-reading
pipeline and backend.

Each case copies a tiny good data set, breaks one thing (a truncation or a byte
flip at a random offset of a random file, a record with a feature dropped or of
the wrong kind or length, an image of an odd mode or size or cut short) and
reads the whole epoch. Every case must end in a DataError naming the file, or
EndOfData after delivering only good records (a cut at a record boundary is a
valid shorter file), within a bound, never in another exception.
"""
from __future__ import annotations

import functools
import io
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
import tensorflow as tf
from helpers.record_builders import (
    DIV2K_PATCH,
    INCEPTION_SMALL,
    div2k_records,
    inception_shards,
    read_all,
    stylegan_records,
    voc_records,
    write_records,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

import tf1_pipelines as tp
from tf1_pipelines.errors import DataError, EndOfData
from tf1_pipelines.records.features import bytes_feature, float_feature, int64_feature
from tf1_pipelines.records.verify import check_record_file

BATCH_LIMIT = 200  # far more batches than any tiny data set has: a bound, not a count


@dataclass(frozen=True)
class Subject:
    """One pipeline x backend over one tiny data set: how to build it (once) and
    how to load it from a copy (reading one epoch), and its feature keys."""

    name: str
    build: Callable[[str], list[str]]          # folder -> record files
    load: Callable[[str], tp.Pipeline]         # folder -> pipeline reading one epoch
    keys: tuple[str, ...]                      # the features a fault may drop or retype
    examples: Callable[[Any], int]             # number of examples in a Batch


def _batch0(batch: Any) -> int:
    return len(batch[0])


def _voc_epoch(folder: str, backend: str) -> tp.Pipeline:
    return tp.load_pipeline("voc_segmentation", tfrecords=folder, backend=backend, batch_size=1,
                            num_epochs=1, allow_smaller_final_batch=True, image_height=6,
                            image_width=5, capacity=4, min_after_dequeue=1, num_threads=1,
                            stall_timeout=20)


def _inception_epoch(folder: str, backend: str) -> tp.Pipeline:
    return tp.load_pipeline("inception_multilabel", data_dir=folder, backend=backend,
                            batch_size=1, num_epochs=1, train=False,
                            allow_smaller_final_batch=True, stall_timeout=20, **INCEPTION_SMALL)


SUBJECTS = [
    Subject("div2k_sr/tfrecords", div2k_records,
            lambda d: tp.load_pipeline("div2k_sr", tfrecord_dir=d, patch_size=DIV2K_PATCH,
                                       batch_size=2, num_epochs=1, shuffle_num=4,
                                       prefetch_num=2, stall_timeout=20),
            ("gt",), _batch0),
    *(Subject(f"voc_segmentation/{backend}", voc_records,
              functools.partial(_voc_epoch, backend=backend),
              ("height", "width", "image_raw", "mask_raw"), _batch0)
      for backend in ("queue", "dataset")),
    *(Subject(f"inception_multilabel/{backend}", inception_shards,
              functools.partial(_inception_epoch, backend=backend),
              ("image/encoded", "image/filename", "image/label/scene"), _batch0)
      for backend in ("queue", "dataset")),
    Subject("stylegan_lod/dataset", stylegan_records,
            lambda d: tp.load_pipeline("stylegan_lod", tfrecord_dir=d, batch_size=2, lod=0,
                                       repeat=False, shuffle_mb=0, prefetch_mb=0,
                                       stall_timeout=20),
            ("shape", "data"), _batch0),
]


@pytest.fixture(scope="module")
def originals(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, list[str]]]:
    """Each subject's good data set, built once: name -> (folder, record files)."""
    built = {}
    for subject in SUBJECTS:
        folder = str(tmp_path_factory.mktemp("good") / os.path.basename(subject.name))
        built[subject.name] = (folder, subject.build(folder))
    return built


def _copy(original: tuple[str, list[str]], tmp_root: str, case: int) -> tuple[str, list[str]]:
    """A fresh copy of a good data set (same base name: the LOD export keys on it)."""
    folder, files = original
    target = os.path.join(tmp_root, f"case{case}", os.path.basename(folder))
    shutil.copytree(folder, target)
    return target, [os.path.join(target, os.path.basename(f)) for f in files]


@dataclass
class Epoch:
    """How reading one epoch ended: ``outcome`` ('EndOfData', 'DataError', or
    'no end' if BATCH_LIMIT batches came), ``delivered`` examples, the ``error``."""

    outcome: str
    delivered: int
    error: DataError | None = None


def _read_epoch(pipe: tp.Pipeline, count: Callable[[Any], int]) -> Epoch:
    """Read batches until the epoch ends (bounded by BATCH_LIMIT)."""
    delivered = 0
    try:
        for _ in range(BATCH_LIMIT):
            delivered += count(pipe.get_batch())
        return Epoch("no end", delivered)
    except EndOfData:
        return Epoch("EndOfData", delivered)
    except DataError as exc:
        return Epoch("DataError", delivered, exc)


def _load_and_read(load: Callable[[], tp.Pipeline], count: Callable[[Any], int]) -> Epoch:
    """Load a pipeline and read one epoch; a DataError at load is an outcome too."""
    try:
        pipe = load()
    except DataError as exc:
        return Epoch("DataError", 0, exc)
    with pipe:
        return _read_epoch(pipe, count)


def _tally(fault_outcomes: Any, suite: str, epoch: Epoch) -> None:
    fault_outcomes.record(suite, "ok (EndOfData)" if epoch.outcome == "EndOfData"
                          else epoch.outcome)


# ------------------------------------------------------------------------ byte faults
def _truncate(path: str, fraction: float) -> None:
    data = open(path, "rb").read()
    with open(path, "wb") as out:
        out.write(data[:int(len(data) * fraction)])


def _flip(path: str, fraction: float, xor: int) -> None:
    data = bytearray(open(path, "rb").read())
    data[min(len(data) - 1, int(len(data) * fraction))] ^= xor
    with open(path, "wb") as out:
        out.write(bytes(data))


# ---------------------------------------------------------------------- feature faults
def _retype(feature: tf.train.Feature, how: str) -> tf.train.Feature:
    """Another feature in place of ``feature``: its values as another kind, too many
    values, or none."""
    kind = feature.WhichOneof("kind")
    if how == "empty":
        return tf.train.Feature()
    if how == "extra value":
        extended = tf.train.Feature()
        extended.CopyFrom(feature)
        values = getattr(extended, kind).value
        values.append(values[0] if len(values) else (b"" if kind == "bytes_list" else 0))
        return extended
    if kind == "bytes_list":
        return int64_feature([1, 2]) if how == "as int64" else float_feature([1.0])
    if how == "as bytes":
        return bytes_feature(b"\x01\x02")
    return float_feature([0.5]) if kind == "int64_list" else int64_feature([1])


def _rewrite_record(path: str, index: int, key: str, how: str) -> None:
    records = read_all(path)
    if not records:
        return
    index %= len(records)
    ex = tf.train.Example.FromString(records[index])
    if how == "drop":
        del ex.features.feature[key]
    else:
        ex.features.feature[key].CopyFrom(_retype(ex.features.feature[key], how))
    records[index] = ex.SerializeToString()
    write_records(path, records)


FEATURE_FAULTS = ["drop", "empty", "extra value", "as int64", "as float", "as bytes"]
_case_counter = iter(range(10 ** 9))


def _check_case(subject: Subject, folder: str, target: str, read: list[str],
                fault_outcomes: Any) -> None:
    """Load and read one epoch: a DataError must name the broken file; an epoch
    that ends must have delivered every record of the files ``read``, which must
    then be validly framed (a cut at a record boundary) and match the spec."""
    epoch = _load_and_read(lambda: subject.load(folder), subject.examples)
    _tally(fault_outcomes, "records", epoch)
    assert epoch.outcome in ("DataError", "EndOfData"), epoch
    if epoch.error is not None:
        assert epoch.error.path == target, epoch.error
    else:
        reports = [check_record_file(path, {}) for path in read]
        assert all(report.framing is None for report in reports), reports
        assert epoch.delivered == sum(report.records for report in reports), epoch


@pytest.mark.timeout(120)
@settings(max_examples=16)
@given(subject=st.sampled_from(SUBJECTS), file_index=st.integers(0, 1),
       fault=st.sampled_from(["truncate", "flip"]), fraction=st.floats(0.0, 1.0),
       xor=st.integers(1, 255))
def test_truncated_or_flipped_record_files(originals, tmp_path, fault_outcomes, subject,
                                           file_index, fault, fraction, xor):
    folder, files = _copy(originals[subject.name], str(tmp_path), next(_case_counter))
    # stylegan_lod at lod=0 reads only its first file.
    read = files[:1] if subject.name.startswith("stylegan") else files
    target = read[file_index % len(read)]
    if fault == "truncate":
        _truncate(target, fraction)
    else:
        _flip(target, fraction, xor)
    _check_case(subject, folder, target, read, fault_outcomes)


@pytest.mark.timeout(120)
@settings(max_examples=16)
@given(subject=st.sampled_from(SUBJECTS), file_index=st.integers(0, 1),
       record=st.integers(0, 5), key_index=st.integers(0, 3),
       how=st.sampled_from(FEATURE_FAULTS))
def test_missing_or_mistyped_features(originals, tmp_path, fault_outcomes, subject, file_index,
                                      record, key_index, how):
    folder, files = _copy(originals[subject.name], str(tmp_path), next(_case_counter))
    target = files[0] if subject.name.startswith("stylegan") else files[file_index % len(files)]
    key = subject.keys[key_index % len(subject.keys)]
    _rewrite_record(target, record, key, how)
    epoch = _load_and_read(lambda: subject.load(folder), subject.examples)
    _tally(fault_outcomes, "features", epoch)
    assert epoch.error is not None, epoch
    assert (epoch.error.path, epoch.error.record) == (target, record % len(read_all(target)))
    assert epoch.error.field == key or subject.name.startswith("voc"), epoch.error


# ------------------------------------------------------------------------ image faults
MODES = ["1", "L", "P", "LA", "RGB", "RGBA", "I;16", "I", "F", "CMYK"]


def _odd_image(mode: str, height: int, width: int, cut: bool, fmt: str) -> bytes:
    rng = np.random.RandomState(height * 31 + width)
    base = Image.fromarray(rng.randint(0, 256, (height, width, 3)).astype(np.uint8))
    image = base.convert(mode) if mode not in ("I;16",) else base.convert("L").convert("I;16")
    buffer = io.BytesIO()
    try:
        image.save(buffer, format=fmt)
    except OSError:  # a mode the format cannot hold: save it as TIFF under that name
        buffer = io.BytesIO()
        image.save(buffer, format="TIFF")
    data = buffer.getvalue()
    return data[:len(data) // 2] if cut else data


@pytest.mark.timeout(120)
@settings(max_examples=24)
@given(mode=st.sampled_from(MODES), height=st.integers(1, 24), width=st.integers(1, 24),
       cut=st.booleans(), lr_method=st.sampled_from(["native", "py_func"]))
def test_generator_odd_png_modes_and_sizes(tmp_path_factory, fault_outcomes, mode, height, width,
                                           cut, lr_method):
    folder = tmp_path_factory.mktemp("pngs")
    good = Image.fromarray(np.full((16, 16, 3), 90, np.uint8))
    good.save(folder / "0001.png")
    (folder / "0002.png").write_bytes(_odd_image(mode, height, width, cut, "PNG"))
    readable = mode in ("1", "L", "P", "LA", "RGB", "RGBA") and not cut \
        and min(height, width) >= DIV2K_PATCH
    epoch = _load_and_read(lambda: tp.load_pipeline(
        "div2k_sr", data_dir=str(folder), backend="generator", lr_method=lr_method,
        patch_size=DIV2K_PATCH, batch_size=2, num_epochs=1, one_img_patch_num=2,
        shuffle_num=2, prefetch_num=2, stall_timeout=20), _batch0)
    _tally(fault_outcomes, "images", epoch)
    if readable:
        assert (epoch.outcome, epoch.delivered) == ("EndOfData", 4), epoch
    else:
        assert epoch.error is not None and epoch.error.path == str(folder / "0002.png"), epoch


@pytest.mark.timeout(120)
@settings(max_examples=10)
@given(mode=st.sampled_from(MODES), height=st.integers(1, 24), width=st.integers(1, 24),
       cut=st.booleans(), fmt=st.sampled_from(["JPEG", "PNG"]),
       backend=st.sampled_from(["queue", "dataset"]))
def test_inception_odd_encoded_images(originals, tmp_path, fault_outcomes, mode, height, width,
                                      cut, fmt, backend):
    folder, files = _copy(originals["inception_multilabel/dataset"], str(tmp_path),
                          next(_case_counter))
    records = read_all(files[1])
    ex = tf.train.Example.FromString(records[1])
    ex.features.feature["image/encoded"].CopyFrom(
        bytes_feature(_odd_image(mode, height, width, cut, fmt)))
    records[1] = ex.SerializeToString()
    write_records(files[1], records)
    epoch = _load_and_read(lambda: tp.load_pipeline(
        "inception_multilabel", data_dir=folder, backend=backend, batch_size=1, num_epochs=1,
        train=False, allow_smaller_final_batch=True, stall_timeout=20, **INCEPTION_SMALL),
        _batch0)
    _tally(fault_outcomes, "images", epoch)
    assert epoch.outcome in ("DataError", "EndOfData"), epoch
    if epoch.error is not None:
        assert (epoch.error.path, epoch.error.record, epoch.error.field) == \
            (files[1], 1, "image/encoded"), epoch.error
    else:
        assert epoch.delivered == 6
