"""Bad records and bad images end in a DataError naming file, record and field, on
every backend, wherever the bad file or record sits; empty data says "no records"."""
from __future__ import annotations

import io
import os

import numpy as np
import pytest
from helpers.record_builders import (
    DIV2K_PATCH,
    INCEPTION_SMALL,
    div2k_example,
    div2k_records,
    inception_example,
    inception_shards,
    write_records,
)
from PIL import Image

import tf1_pipelines as tp
from tf1_pipelines.errors import DataError
from tf1_pipelines.records.features import example, float_feature, int64_feature

DIV2K = {"patch_size": DIV2K_PATCH, "scale": 4, "shuffle_num": 4, "prefetch_num": 4,
         "one_img_patch_num": 2, "batch_size": 2, "stall_timeout": 20}


def drain(pipe: tp.Pipeline, limit: int = 50) -> int:
    """Batches read until EndOfData (at most ``limit``)."""
    count = 0
    for _ in pipe:
        count += 1
        if count >= limit:
            break
    return count


# ------------------------------------------------------------------------- div2k_sr
def int64_gt() -> bytes:
    """A record whose ``gt`` holds int64 values instead of the patch bytes."""
    return example({"gt": int64_feature([1, 2])}).SerializeToString()


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lr_method", ["native", "py_func"])
def test_div2k_gt_stored_as_int64_in_the_first_file(tmp_path, lr_method):
    first, _ = div2k_records(str(tmp_path))
    write_records(first, [int64_gt(), div2k_example(1).SerializeToString()])
    with pytest.raises(DataError) as err:
        tp.load_pipeline("div2k_sr", tfrecord_dir=str(tmp_path), lr_method=lr_method, **DIV2K)
    assert (err.value.path, err.value.record, err.value.field) == (first, 0, "gt")
    assert "holds int64 values, expected bytes" in str(err.value)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lr_method", ["native", "py_func"])
def test_div2k_gt_stored_as_int64_deep_in_a_later_file(tmp_path, lr_method):
    _, second = div2k_records(str(tmp_path))
    write_records(second, [div2k_example(1), div2k_example(2), int64_gt()])
    with tp.load_pipeline("div2k_sr", tfrecord_dir=str(tmp_path), lr_method=lr_method,
                          num_epochs=1, **DIV2K) as pipe:
        with pytest.raises(DataError) as err:
            drain(pipe)
    assert (err.value.path, err.value.record, err.value.field) == (second, 2, "gt")


@pytest.mark.timeout(60)
@pytest.mark.parametrize("num_epochs", [None, 1])
def test_div2k_only_empty_record_files_say_no_records(tmp_path, num_epochs):
    open(tmp_path / "data0.tfrecords", "wb").close()
    with pytest.raises(DataError, match="no records"):
        tp.load_pipeline("div2k_sr", tfrecord_dir=str(tmp_path), num_epochs=num_epochs, **DIV2K)


@pytest.mark.timeout(60)
def test_div2k_one_empty_file_among_good_ones_is_fine(tmp_path):
    div2k_records(str(tmp_path), per_file=(2, 0, 2))
    with tp.load_pipeline("div2k_sr", tfrecord_dir=str(tmp_path), num_epochs=1, **DIV2K) as pipe:
        assert drain(pipe) == 2


# --------------------------------------------------------------- div2k_sr generator
def png_folder(tmp_path, bad_name: str, bad: bytes | None = None, size: int = 16) -> str:
    """Two good 16 x 16 PNGs, then ``bad_name`` with ``bad`` bytes (or a small PNG)."""
    folder = tmp_path / "pngs"
    folder.mkdir()
    rng = np.random.RandomState(0)
    for name in ("0001.png", "0002.png"):
        Image.fromarray(rng.randint(0, 256, (16, 16, 3)).astype(np.uint8)).save(folder / name)
    if bad is None:
        Image.fromarray(np.zeros((size, size, 3), np.uint8)).save(folder / bad_name)
    else:
        (folder / bad_name).write_bytes(bad)
    return str(folder)


def cut_png(size: int = 16) -> bytes:
    """A PNG whose header reads but whose pixel data is cut short."""
    buffer = io.BytesIO()
    Image.fromarray(np.random.RandomState(1).randint(0, 256, (size, size, 3))
                    .astype(np.uint8)).save(buffer, format="PNG")
    data = buffer.getvalue()
    return data[:len(data) // 2]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lr_method", ["native", "py_func"])
@pytest.mark.parametrize("case", ["undecodable", "too small"])
def test_generator_bad_png_is_named_at_load(tmp_path, lr_method, case):
    bad = b"\x89PNG not really" if case == "undecodable" else None
    folder = png_folder(tmp_path, "0003.png", bad, size=4)
    with pytest.raises(DataError) as err:
        tp.load_pipeline("div2k_sr", data_dir=folder, backend="generator",
                         lr_method=lr_method, **DIV2K)
    assert err.value.path == os.path.join(folder, "0003.png")
    assert ("cannot decode image" if case == "undecodable" else "smaller than the patch size 8") \
        in str(err.value)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lr_method", ["native", "py_func"])
def test_generator_png_cut_short_is_a_data_error_naming_it(tmp_path, lr_method, caplog):
    folder = png_folder(tmp_path, "0003.png", cut_png())
    with tp.load_pipeline("div2k_sr", data_dir=folder, backend="generator", lr_method=lr_method,
                          num_epochs=1, **DIV2K) as pipe:
        with pytest.raises(DataError) as err:
            drain(pipe)
    assert err.value.path == os.path.join(folder, "0003.png")
    assert "Traceback" not in str(err.value)
    assert "cannot decode image" in str(err.value)


# ---------------------------------------------------------------- inception_multilabel
def float_label_example(index: int):
    bad = inception_example(index)
    bad.features.feature["image/label/scene"].CopyFrom(float_feature([0.0, 1.0, 0.0]))
    return bad


@pytest.mark.timeout(60)
@pytest.mark.parametrize("backend", ["queue", "dataset"])
@pytest.mark.parametrize("given", [True, False], ids=["levels given", "levels read"])
def test_inception_float_label_in_the_first_record(tmp_path, backend, given):
    first, _ = inception_shards(str(tmp_path))
    write_records(first, [float_label_example(0), inception_example(1)])
    options = dict(INCEPTION_SMALL)
    if not given:
        del options["semantic_level_settings"]
    with pytest.raises(DataError) as err:
        tp.load_pipeline("inception_multilabel", data_dir=str(tmp_path), backend=backend,
                         batch_size=1, num_epochs=1, train=False, **options)
    assert (err.value.path, err.value.record, err.value.field) == \
        (first, 0, "image/label/scene")
    assert "holds float values, expected int64" in str(err.value)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("backend", ["queue", "dataset"])
def test_inception_float_label_deep_in_a_later_shard(tmp_path, backend):
    _, second = inception_shards(str(tmp_path))
    write_records(second, [inception_example(1), float_label_example(2)])
    with tp.load_pipeline("inception_multilabel", data_dir=str(tmp_path), backend=backend,
                          batch_size=1, num_epochs=1, train=False, **INCEPTION_SMALL) as pipe:
        with pytest.raises(DataError) as err:
            drain(pipe)
    assert (err.value.path, err.value.record, err.value.field) == \
        (second, 1, "image/label/scene")


# ------------------------------------------------------------------------ empty data
@pytest.mark.timeout(60)
@pytest.mark.parametrize("backend", ["queue", "dataset"])
@pytest.mark.parametrize("pipeline", ["voc_segmentation", "inception_multilabel"])
def test_only_empty_record_files_say_no_records(tmp_path, pipeline, backend):
    if pipeline == "voc_segmentation":
        for name in ("part-0.tfrecords", "part-1.tfrecords"):
            open(tmp_path / name, "wb").close()
        options: dict = {"tfrecords": str(tmp_path)}
    else:
        open(tmp_path / "train-00000-of-00001", "wb").close()
        options = {"data_dir": str(tmp_path), **INCEPTION_SMALL}
    with pytest.raises(DataError, match="no records"):
        tp.load_pipeline(pipeline, backend=backend, batch_size=1, stall_timeout=5, **options)
