"""The command lines as a user runs them: exit codes, per-file reports, options that work.

One subprocess per case, on data of a few kilobytes.
"""
from __future__ import annotations

import glob
import os
import subprocess
import sys

import numpy as np
import pytest
import tensorflow as tf
from PIL import Image

from tf1_pipelines.pipelines import stylegan_lod as sl
from tf1_pipelines.records.features import bytes_feature, example, int64_feature

pytestmark = pytest.mark.timeout(120)


def run_cli(*argv: str, cwd: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    return subprocess.run([sys.executable, "-m", *argv], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=100)


def write_records(path: str, records: list[bytes]) -> None:
    with tf.io.TFRecordWriter(path) as writer:
        for record in records:
            writer.write(record)


def patch_record(size: int = 4, fill: int = 7) -> bytes:
    return example({"gt": bytes_feature(bytes([fill]) * size * size)}).SerializeToString()


def export(folder: str, images: list[np.ndarray]) -> None:
    with sl.TFRecordExporter(folder, len(images), print_progress=False) as tfr:
        for img in images:
            tfr.add_image(img)


# ------------------------------------------------------------------------- compare
def test_compare_exits_1_when_the_datasets_differ(tmp_path) -> None:
    rng = np.random.RandomState(3)
    images = [rng.randint(0, 256, (1, 8, 8)).astype(np.uint8) for _ in range(3)]
    export(str(tmp_path / "a"), images)
    changed = [img.copy() for img in images]
    changed[1][0, 2, 5] ^= 1
    export(str(tmp_path / "b"), changed)
    done = run_cli("tf1_pipelines.pipelines.stylegan_lod", "compare", str(tmp_path / "a"),
                   str(tmp_path / "b"))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Image 1 is different" in done.stdout and "Identical images: 2 / 3" in done.stdout


def test_compare_exit_codes_same_fewer_images_and_bad_input(tmp_path, capsys) -> None:
    rng = np.random.RandomState(4)
    images = [rng.randint(0, 256, (1, 4, 4)).astype(np.uint8) for _ in range(3)]
    export(str(tmp_path / "a"), images)
    export(str(tmp_path / "same"), images)
    export(str(tmp_path / "fewer"), images[:2])
    a = str(tmp_path / "a")
    assert sl.main(["prog", "compare", a, str(tmp_path / "same")]) == 0
    # the two images compared are identical, but b has one image fewer
    assert sl.main(["prog", "compare", a, str(tmp_path / "fewer")]) == 1
    assert "Identical images: 2 / 2" in capsys.readouterr().out
    assert sl.main(["prog", "compare", a, str(tmp_path / "nothing")]) == 2
    out = capsys.readouterr().out
    assert out.count("\n") <= 3 and "Error: " in out and "nothing" in out


# ------------------------------------------------------------------------- inspect
def test_inspect_checks_files_and_folders_reports_each_and_sums_up(tmp_path) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    write_records(str(folder / "data0.tfrecords"), [patch_record()] * 3)
    write_records(str(folder / "data1.tfrecords"), [patch_record()] * 2)
    (folder / "sample_num.txt").write_text("5")  # not a record file: not checked
    # a file whose framing is sound but whose record 1 holds gt as int64
    mistyped = str(tmp_path / "mistyped.tfrecords")
    write_records(mistyped, [patch_record(), example({"gt": int64_feature([1, 2])})
                             .SerializeToString(), patch_record()])
    truncated = str(tmp_path / "truncated.tfrecords")
    write_records(truncated, [patch_record()] * 4)
    with open(truncated, "r+b") as handle:
        handle.truncate(os.path.getsize(truncated) - 5)
    good = str(tmp_path / "good.tfrecords")
    write_records(good, [patch_record(fill=1)] * 6)

    done = run_cli("tf1_pipelines", "inspect", "--patch-size", "4", truncated, mistyped,
                   str(folder), good)
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 6, done.stdout
    assert lines[0].startswith(f"{truncated}: 3 records (div2k_sr patches), 0 bad, FAILED: ")
    assert "record 3" in lines[0] and "truncated" in lines[0]
    assert lines[1].startswith(f"{mistyped}: 3 records (div2k_sr patches), 1 bad, FAILED: ")
    assert "record 1, field 'gt': holds int64 values, expected bytes" in lines[1]
    assert lines[2] == f"{folder / 'data0.tfrecords'}: 3 records (div2k_sr patches), ok"
    assert lines[3] == f"{folder / 'data1.tfrecords'}: 2 records (div2k_sr patches), ok"
    assert lines[4] == f"{good}: 6 records (div2k_sr patches), ok"
    assert lines[5] == "summary: 5 files checked, 3 ok, 2 failed, 17 records, 1 bad"
    assert done.stderr.strip() == ""


# ------------------------------------------------------------------------- convert
def test_convert_writes_patches_of_the_patch_size_given(tmp_path) -> None:
    pngs = tmp_path / "pngs"
    pngs.mkdir()
    rng = np.random.RandomState(5)
    for i in range(2):
        Image.fromarray(rng.randint(0, 256, (100, 100, 3)).astype(np.uint8)).save(pngs / f"{i}.png")
    out = tmp_path / "out"
    done = run_cli("tf1_pipelines", "convert", str(pngs), str(out), "--patch-size", "48",
                   "--tfrecord-num", "2")
    assert done.returncode == 0, done.stderr
    # 100 px with p = 48 and stride 32: offsets 0 and 32 per axis, 4 patches per image
    assert "example number: 8" in done.stdout
    sizes = [len(tf.train.Example.FromString(r).features.feature["gt"].bytes_list.value[0])
             for path in sorted(glob.glob(str(out / "data*.tfrecords")))
             for r in tf.compat.v1.io.tf_record_iterator(path)]
    assert sizes == [48 * 48] * 8
    assert (out / "sample_num.txt").read_text().strip() == "8"
