"""Reliability, round 3: one case per row of the hostile-use table, and the blind spots.

Rows: two writers of one folder at once; ``save_state`` over a folder the user
added to; a user's own ``*.partial`` where an export writes; a decompression bomb
(and truncated or mislabelled images) in a data folder; the memory of pipelines
built from arrays; a full disk under a writer or the cache. Blind spots: a
same-size edit of an exported file (files over 2 MiB included) must make it "not
ours"; ``cache clear`` must keep a ``.lock`` with content it did not write.
"""
from __future__ import annotations

import errno
import functools
import hashlib
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from tf1_pipelines.cli import cache
from tf1_pipelines.errors import DataError
from tf1_pipelines.pipelines.div2k_sr import write_patch_records
from tf1_pipelines.pipelines.div2k_sr.records import verify_patch_records
from tf1_pipelines.records import folder_lock, manifest
from tf1_pipelines.records.writer import AtomicRecordWriters

ROOT = Path(__file__).resolve().parents[2]


def snapshot(folder: Path) -> dict[str, str]:
    """Relative path -> SHA-256 of every file under ``folder``."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def env() -> dict[str, str]:
    return dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", CUDA_VISIBLE_DEVICES="-1",
                PYTHONPATH=str(ROOT))


def error_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("error:")]


@pytest.fixture(scope="module")
def pngs(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Two 32 x 32 RGB PNGs: 4 patches of 16 x 16 each on the seed's grid."""
    folder = tmp_path_factory.mktemp("pngs")
    rng = np.random.default_rng(3)
    paths = []
    for index in range(2):
        path = folder / f"{index}.png"
        Image.fromarray(rng.integers(0, 256, (32, 32, 3), dtype=np.uint8)).save(path)
        paths.append(str(path))
    return paths


# ---------------------------------------------- row: two converts into one folder
SLOW_CONVERT = """
    import os, sys, time
    from tf1_pipelines.pipelines.div2k_sr import records
    real = records.read_rgb
    go = sys.argv.pop(1)
    def slow(path, min_size=1):
        deadline = time.monotonic() + 120
        while not os.path.exists(go) and time.monotonic() < deadline:
            time.sleep(0.05)  # a big photograph: the second convert runs meanwhile
        return real(path, min_size)
    records.read_rgb = slow
    from tf1_pipelines.__main__ import main
    sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.timeout(240)
def test_a_second_convert_into_a_folder_being_written_is_refused_naming_the_writer(
        tmp_path: Path, pngs: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    from tf1_pipelines.__main__ import main

    out = tmp_path / "out"
    args = ["convert", os.path.dirname(pngs[0]), str(out), "--tfrecord-num", "3",
            "--patch-size", "16"]
    go = tmp_path / "go"
    first = subprocess.Popen([sys.executable, "-c", textwrap.dedent(SLOW_CONVERT), str(go), *args],
                             env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 180
        while not (out.is_dir() and [n for n in os.listdir(out) if n.endswith(".partial")]):
            assert first.poll() is None, first.communicate()
            assert time.monotonic() < deadline, "the first convert never started writing"
            time.sleep(0.05)
        second = main(args)  # in this process: the lock is the other process's
        go.write_text("")
        out_first, err_first = first.communicate(timeout=180)
    finally:
        if first.poll() is None:
            first.kill()
    err = capsys.readouterr().err
    assert second == 2 and "Traceback" not in err, err
    [line] = error_lines(err)
    assert f"being written by process {first.pid}" in line and str(out) in line
    assert first.returncode == 0, err_first
    assert "example number: 8" in out_first
    records = sorted(str(p) for p in out.glob("data*.tfrecords"))
    assert len(records) == 3 and verify_patch_records(records, 16) == 8  # none corrupt
    assert sorted(p.name for p in out.iterdir()) == [
        manifest.MANIFEST_NAME, "data0.tfrecords", "data1.tfrecords", "data2.tfrecords",
        "sample_num.txt"]  # no lock file, no temporary file left


@pytest.mark.timeout(60)
def test_a_writer_waits_with_a_bound_and_a_dead_holder_is_stale(tmp_path: Path) -> None:
    folder = tmp_path / "f"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom tf1_pipelines.records import folder_lock\n"
         "folder_lock.acquire(sys.argv[1], 0)\nprint('held', flush=True)\ntime.sleep(60)",
         str(folder)], env=env(), stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        start = time.monotonic()
        with pytest.raises(folder_lock.FolderLockTimeout, match=f"process {holder.pid} after"):
            AtomicRecordWriters([str(folder / "a.tfrecords")], lock_timeout=0.3)
        assert 0.3 <= time.monotonic() - start < 10
        assert folder_lock.stale_holder(folder) is None  # held: not stale
    finally:
        holder.kill()
        holder.wait(timeout=30)
    assert folder_lock.stale_holder(folder) == holder.pid  # killed while holding
    with AtomicRecordWriters([str(folder / "a.tfrecords")]) as writers:
        writers.write(0, b"x")
        assert folder_lock.holder_pid(folder_lock.lock_path(folder)) == os.getpid()
    assert os.listdir(folder) == ["a.tfrecords"]  # no lock file, no manifest of its own


@pytest.mark.timeout(60)
def test_the_folder_lock_is_reentrant_in_a_thread_and_excludes_other_threads(tmp_path: Path) -> None:
    import threading

    folder = tmp_path / "f"
    outcome: list[BaseException | str] = []

    def other_thread() -> None:
        try:
            with folder_lock.folder_lock(folder, timeout=0):
                outcome.append("took it")
        except folder_lock.FolderLockTimeout as exc:
            outcome.append(exc)

    with folder_lock.folder_lock(folder, timeout=0):
        with folder_lock.folder_lock(folder, timeout=0):  # the cache around its export
            assert folder_lock.holder_pid(folder_lock.lock_path(folder)) == os.getpid()
        thread = threading.Thread(target=other_thread)
        thread.start()
        thread.join(timeout=30)
        assert folder_lock.holder_pid(folder_lock.lock_path(folder)) == os.getpid()  # still held
    [refused] = outcome
    assert isinstance(refused, folder_lock.FolderLockTimeout)
    assert "another thread of this process" in str(refused) and str(folder) in str(refused)
    assert os.listdir(folder) == []  # released: nothing of the lock stays
    other_thread()
    assert outcome[-1] == "took it"


# --------------------------------------------- row: a user's own *.partial file
@pytest.mark.timeout(120)
@settings(max_examples=6)
@given(shards=st.integers(1, 3), content=st.binary(min_size=0, max_size=32))
def test_convert_never_touches_a_users_partial_file(tmp_path_factory, pngs, fault_outcomes,
                                                    shards, content) -> None:
    out = tmp_path_factory.mktemp("out")
    for index in range(shards):
        (out / f"data{index}.tfrecords.partial").write_bytes(content + bytes([index]))
    before = snapshot(out)
    assert write_patch_records(pngs, str(out), 16, shards) == 8
    fault_outcomes.record("round3 convert beside user .partial files", "ok")
    after = snapshot(out)
    assert {name: after[name] for name in before} == before  # every user file unchanged
    assert sorted(set(after) - set(before)) == sorted(
        [manifest.MANIFEST_NAME, "sample_num.txt"] + [f"data{i}.tfrecords" for i in range(shards)])


@pytest.mark.timeout(60)
def test_a_dead_writers_temporary_files_go_and_only_those(tmp_path: Path, pngs) -> None:
    out = tmp_path / "out"
    out.mkdir()
    left = ".data0.tfrecords.999999-0badc0de.partial"  # what a writer killed by SIGKILL left
    (out / left).write_bytes(b"half a record")
    (out / "data0.tfrecords.partial").write_bytes(b"the user's")
    manifest.add_partials(str(out), [left], 999999)
    write_patch_records(pngs, str(out), 16, 1)
    assert not (out / left).exists()
    assert (out / "data0.tfrecords.partial").read_bytes() == b"the user's"
    listed = json.loads((out / manifest.MANIFEST_NAME).read_text())
    assert "partial" not in listed and sorted(listed["files"]) == ["data0.tfrecords",
                                                                    "sample_num.txt"]


# ------------------------------------------- blind spot: a same-size edit is not ours
@pytest.mark.timeout(120)
@settings(max_examples=8)
@given(size=st.sampled_from([1, 100, (1 << 20) + 3, (2 << 20) + 1, 5 << 20]),
       where=st.floats(0, 1, exclude_max=True), seed=st.integers(0, 2**32 - 1))
def test_a_same_size_edit_anywhere_makes_a_file_not_ours(tmp_path_factory, size, where,
                                                         seed) -> None:
    folder = tmp_path_factory.mktemp("m")
    path = folder / "data0.tfrecords"
    data = bytearray(np.random.default_rng(seed).integers(0, 256, size, dtype=np.uint8).tobytes())
    path.write_bytes(bytes(data))
    manifest.record(str(folder), [str(path)])
    assert manifest.is_ours(str(folder), "data0.tfrecords")
    offset = int(where * size)
    data[offset] ^= 0xFF
    path.write_bytes(bytes(data))  # same size, one byte changed (the middle of 5 MiB too)
    assert not manifest.is_ours(str(folder), "data0.tfrecords")
    with pytest.raises(DataError, match="not written by this project"):
        manifest.check_ours(str(folder), ["data0.tfrecords"], "overwrite")


@pytest.mark.timeout(60)
def test_the_manifest_digest_is_the_sha256_of_the_whole_file(tmp_path: Path) -> None:
    data = np.random.default_rng(1).integers(0, 256, 3 << 20, dtype=np.uint8).tobytes()
    (tmp_path / "data0.tfrecords").write_bytes(data)
    manifest.record(str(tmp_path), [str(tmp_path / "data0.tfrecords")])
    assert manifest.load(str(tmp_path))["data0.tfrecords"] == {
        "size": 3 << 20, "sha256": hashlib.sha256(data).hexdigest()}  # what sha256sum prints


@pytest.mark.timeout(60)
def test_a_version_1_manifest_is_still_read_with_its_edge_digests(tmp_path: Path) -> None:
    path = tmp_path / "data0.tfrecords"
    path.write_bytes(b"r" * (3 << 20))
    old = manifest.edge_fingerprint(str(path))
    (tmp_path / manifest.MANIFEST_NAME).write_text(
        json.dumps({"version": 1, "files": {"data0.tfrecords": old}}))
    assert manifest.is_ours(str(tmp_path), "data0.tfrecords")
    path.write_bytes(b"r" * ((3 << 20) - 1) + b"x")  # the end changed: no longer ours
    assert not manifest.is_ours(str(tmp_path), "data0.tfrecords")


# ------------------------------- blind spot: cache clear and the .lock files it finds
@pytest.mark.timeout(60)
def test_cache_clear_keeps_a_lock_file_with_content_it_did_not_write(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TF1_PIPELINES_DATA", str(tmp_path / "home"))
    home = cache.data_home()
    entries = [os.path.join(home, "div2k_records", key) for key in ("a" * 16, "b" * 16, "c" * 16)]
    for entry in entries:
        os.makedirs(entry)
        Path(entry, "data0.tfrecords").write_bytes(b"records")
        manifest.record(entry, [os.path.join(entry, "data0.tfrecords")])
    Path(entries[0], ".lock").write_text("my notes\n")           # the user's
    Path(entries[1], ".lock").write_bytes(b"")                    # an earlier version's
    Path(entries[2], folder_lock.LOCK_NAME).write_text(           # a holder that died
        "tf1_pipelines folder lock, pid 999999\n")
    Path(entries[2], "keep.lock").write_text("mine")
    cache.clear(home)
    assert Path(entries[0], ".lock").read_text() == "my notes\n"
    assert cache.kept_files == [os.path.join(entries[0], ".lock"),
                                os.path.join(entries[2], "keep.lock")]
    assert not os.path.exists(entries[1])
    assert os.listdir(entries[2]) == ["keep.lock"]


@pytest.mark.timeout(60)
def test_cache_clear_removes_a_killed_builds_listed_temporary_file_unless_a_build_holds_the_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    monkeypatch.setenv("TF1_PIPELINES_DATA", str(tmp_path / "home"))
    home = cache.data_home()
    killed, running = (os.path.join(home, "div2k_records", key) for key in ("a" * 16, "b" * 16))
    for entry in (killed, running):
        os.makedirs(entry)
        Path(entry, "data0.tfrecords").write_bytes(b"records")
        manifest.record(entry, [os.path.join(entry, "data0.tfrecords")])
        Path(entry, ".data1.tfrecords.4242.partial").write_bytes(b"half")   # the build's, listed
        manifest.add_partials(entry, [".data1.tfrecords.4242.partial"], 4242)
        Path(entry, "data1.tfrecords.partial").write_bytes(b"the user's")   # not listed
    held, release = threading.Event(), threading.Event()

    def build() -> None:  # a build of the second entry still running (another thread holds its lock)
        with folder_lock.folder_lock(running, timeout=5):
            held.set()
            release.wait(30)

    builder = threading.Thread(target=build)
    builder.start()
    try:
        assert held.wait(10)
        cache.clear(home)
    finally:
        release.set()
        builder.join(10)
    assert sorted(os.listdir(killed)) == ["data1.tfrecords.partial"]  # the leftover went, the user's stays
    assert Path(killed, "data1.tfrecords.partial").read_bytes() == b"the user's"
    assert ".data1.tfrecords.4242.partial" in os.listdir(running)     # the running build's is not touched
    assert os.path.join(killed, "data1.tfrecords.partial") in cache.kept_files


# ------------------------------------------------------- row: a full disk
def _disk_full_writer(after: int):
    """A TFRecordWriter whose ``after``-th write fails as a full disk does."""
    import tensorflow as tf

    real = tf.io.TFRecordWriter

    class Full(real):  # type: ignore[misc, valid-type]
        writes = 0

        def write(self, record: bytes) -> None:
            Full.writes += 1
            if Full.writes > after:
                raise tf.errors.ResourceExhaustedError(None, None, "No space left on device")
            super().write(record)
    return Full


@pytest.mark.timeout(120)
@settings(max_examples=5)
@given(after=st.integers(0, 7))
def test_a_full_disk_is_one_line_naming_the_folder_and_leaves_nothing(
        tmp_path_factory, pngs, fault_outcomes, after) -> None:
    import tensorflow as tf

    out = tmp_path_factory.mktemp("out")
    (out / "notes.txt").write_text("the user's own")
    before = snapshot(out)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tf.io, "TFRecordWriter", _disk_full_writer(after))
        with pytest.raises(OSError) as caught:
            write_patch_records(pngs, str(out), 16, 2)
    fault_outcomes.record("round3 full disk", caught.value)
    assert caught.value.errno == errno.ENOSPC
    message = str(caught.value)
    assert "\n" not in message and repr(str(out)) in message
    assert "needed more than the" in message and "free now" in message
    assert snapshot(out) == before and sorted(os.listdir(out)) == ["notes.txt"]


@pytest.mark.timeout(180)
def test_a_cache_build_on_a_full_disk_leaves_no_listed_entry(
        tmp_path: Path, pngs, monkeypatch: pytest.MonkeyPatch) -> None:
    import tensorflow as tf

    from tf1_pipelines.cli.cli_errors import run_reporting_errors
    from tf1_pipelines.pipelines.div2k_sr.records import cached_records

    monkeypatch.setenv("TF1_PIPELINES_DATA", str(tmp_path / "home"))
    monkeypatch.setattr(tf.io, "TFRecordWriter", _disk_full_writer(3))
    home = cache.data_home()
    assert run_reporting_errors(lambda: cached_records(os.path.dirname(pngs[0]), 16, 2)) == 2
    assert cache.entries(home) == []  # not "1 files, 0 B"
    assert cache.clear(home) == []
    assert os.listdir(home) == [".tf1_pipelines-data-home"]  # the half-made folder went too


@pytest.mark.timeout(60)
def test_a_data_set_build_on_a_full_disk_names_the_folder(tmp_path: Path) -> None:
    from tf1_pipelines.data.sample_data import build_folder_atomically

    def fill(folder: str) -> None:
        Path(folder, "0001.png").write_bytes(b"x" * 5000)
        raise OSError(errno.ENOSPC, "No space left on device")

    dest = tmp_path / "home" / "div2k_like"
    with pytest.raises(OSError) as caught:
        build_folder_atomically(str(dest), fill)
    assert caught.value.errno == errno.ENOSPC
    assert repr(str(tmp_path / "home")) in str(caught.value) and "5.0 kB" in str(caught.value)
    assert os.listdir(tmp_path / "home") == []


# ------------------------------------- row: save_state again into a folder the user added to
def _x() -> np.ndarray:
    return np.arange(600, dtype=np.float32).reshape(200, 3)


@pytest.mark.timeout(180)
def test_save_state_again_keeps_the_users_files_and_the_folders_mode(tmp_path: Path) -> None:
    import tf1_pipelines as tp

    folder = tmp_path / "s"
    with tp.load_pipeline("constant", arrays={"x": _x()}, batch_size=2, seed=1) as p:
        p.get_batch()
        p.save_state(str(folder))
        assert folder.stat().st_mode & 0o777 == 0o777 & ~_umask()  # a new folder: as mkdir
        (folder / "notes.txt").write_text("the user's own")
        (folder / "plots").mkdir()
        (folder / "plots" / "loss.png").write_bytes(b"png")
        os.chmod(folder, 0o751)
        for _ in range(3):
            p.get_batch()
        p.save_state(str(folder))  # again: replaces its own files only
        expected = p.get_batch()
    assert folder.stat().st_mode & 0o777 == 0o751
    assert (folder / "notes.txt").read_text() == "the user's own"
    assert (folder / "plots" / "loss.png").read_bytes() == b"png"
    names = sorted(p.name for p in folder.iterdir())
    assert names == sorted(["notes.txt", "plots", "header.json", "iterator.index",
                            "iterator.data-00000-of-00001", manifest.MANIFEST_NAME])
    assert not [n for n in os.listdir(tmp_path) if n != "s"]  # no temporary folder left
    with tp.load_pipeline("constant", arrays={"x": _x()}, batch_size=2, seed=1) as p:
        p.restore_state(str(folder))
        assert np.array_equal(p.get_batch().x, expected.x)  # the later save was restored


def _umask() -> int:
    mask = os.umask(0o22)
    os.umask(mask)
    return mask


@pytest.mark.timeout(180)
@settings(max_examples=3)
@given(which=st.sampled_from(["header.json", "iterator.index", "iterator.data-00000-of-00001"]))
def test_save_state_refuses_to_replace_its_file_the_user_changed(tmp_path_factory, fault_outcomes,
                                                                  which) -> None:
    import tf1_pipelines as tp
    from tf1_pipelines.errors import ConfigError

    folder = tmp_path_factory.mktemp("state") / "s"
    with tp.load_pipeline("constant", arrays={"x": _x()}, batch_size=2, seed=1) as p:
        p.save_state(str(folder))
        data = bytearray((folder / which).read_bytes())
        data[len(data) // 2] ^= 1  # same size, one bit: the user's now
        (folder / which).write_bytes(bytes(data))
        before = snapshot(folder)
        with pytest.raises(ConfigError, match="was not written by save_state") as caught:
            p.save_state(str(folder))
    fault_outcomes.record("round3 save_state over a changed file", caught.value)
    assert str(folder / which) in str(caught.value)
    assert snapshot(folder) == before


@pytest.mark.timeout(180)
def test_a_state_saved_without_a_manifest_is_replaced_and_a_users_folder_refused(
        tmp_path: Path) -> None:
    import tf1_pipelines as tp
    from tf1_pipelines.errors import ConfigError

    folder = tmp_path / "s"
    with tp.load_pipeline("constant", arrays={"x": _x()}, batch_size=2, seed=1) as p:
        p.save_state(str(folder))
        os.remove(folder / manifest.MANIFEST_NAME)  # as an earlier version saved it
        (folder / "mine.txt").write_text("kept")
        p.get_batch()
        p.save_state(str(folder))
        assert (folder / "mine.txt").read_text() == "kept"
        assert manifest.is_ours(str(folder), "header.json")
        project = tmp_path / "project"
        project.mkdir()
        (project / "train.py").write_text("print('hi')")
        with pytest.raises(ConfigError, match="not a saved pipeline state"):
            p.save_state(str(project))
        assert os.listdir(project) == ["train.py"]


# ------------------------------------------- row: a decompression bomb among the images
def _png_chunk(kind: bytes, data: bytes) -> bytes:
    import struct
    import zlib
    return struct.pack(">I", len(data)) + kind + data + struct.pack(
        ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def bomb_png(side: int, rows_per_segment: int = 256) -> bytes:
    """A valid grayscale PNG of ``side`` x ``side`` zeros, built without compressing
    them all: one deflate segment of zero rows (ending in a full flush, so it
    decodes on its own) repeated, and the Adler-32 of n zero bytes, (n mod 65521)
    << 16 | 1. 40000 x 40000 (1.6e9 pixels) is 1.5 MB."""
    import struct
    import zlib
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    row = side + 1  # the filter byte, then the pixels
    segment = comp.compress(bytes(row * rows_per_segment)) + comp.flush(zlib.Z_FULL_FLUSH)
    full, rest = divmod(side, rows_per_segment)
    tail = comp.compress(bytes(row * rest)) + comp.flush()
    adler = ((row * side % 65521) << 16) | 1
    idat = b"\x78\xda" + segment * full + tail + struct.pack(">I", adler)
    header = struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header) + _png_chunk(b"IDAT", idat)
            + _png_chunk(b"IEND", b""))


def test_the_bomb_builder_makes_a_png_pil_decodes_to_zeros() -> None:
    import io
    import zlib
    data = bomb_png(300, rows_per_segment=64)
    idat = data[data.index(b"IDAT") + 4:data.index(b"IEND") - 8]
    assert zlib.decompress(idat) == bytes(301 * 300)  # the checksum is right
    with Image.open(io.BytesIO(data)) as im:
        assert im.size == (300, 300) and not np.asarray(im).any()


def _bad_image(kind: str, good: bytes) -> bytes:
    if kind == "bomb":
        return bomb_png(40000)
    if kind == "truncated":
        return good[:len(good) // 2]
    return b"<html><body>404 Not Found</body></html>\n"  # a web page saved as .png


def _readers() -> dict[str, object]:
    from tf1_pipelines.image import folders, patches, pilutil
    from tf1_pipelines.pipelines.inception_multilabel import records as inception
    from tf1_pipelines.pipelines.random_patches.records import check_image_files
    from tf1_pipelines.pipelines.stylegan_lod.legacy import read_image_array
    from tf1_pipelines.pipelines.voc_segmentation import records as voc
    return {
        "read_rgb": patches.read_rgb,
        "image_files": lambda path: folders.image_files(os.path.dirname(path)),
        "voc": voc._open_rgb,
        "voc_mask": lambda path: voc.read_pair(path, path),
        "stylegan": read_image_array,
        "inception": inception.image_to_jpeg,
        "random_patches": lambda path: check_image_files([path], 1, decode=True),
        "imread": pilutil.imread,
    }


@functools.lru_cache(maxsize=1)
def good_png() -> bytes:
    """A 64 x 64 RGB PNG of noise (a function, so hypothesis does not print it)."""
    import io
    buffer = io.BytesIO()
    Image.fromarray(np.random.default_rng(5).integers(0, 256, (64, 64, 3), dtype=np.uint8)
                    ).save(buffer, format="PNG")
    return buffer.getvalue()


@pytest.mark.timeout(120)
@settings(max_examples=30)
@given(kind=st.sampled_from(["bomb", "truncated", "not an image"]),
       reader=st.sampled_from(sorted(_readers())))
def test_every_image_reader_names_a_bad_image_in_a_data_error(tmp_path_factory, fault_outcomes,
                                                              kind, reader) -> None:
    folder = tmp_path_factory.mktemp("images")
    path = folder / "0001.png"
    path.write_bytes(_bad_image(kind, good_png()))
    read = _readers()[reader]
    assert callable(read)
    if kind == "truncated" and reader == "image_files":
        return  # reads headers only: the decoders report a truncated file
    expected = OSError if reader == "imread" else DataError  # scipy.misc.imread's own error kind
    with pytest.raises(expected) as caught:
        read(str(path))
    fault_outcomes.record(f"round3 bad image ({kind})", caught.value)
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)
    if kind == "bomb":
        assert "pixels" in str(caught.value) and "nothing was decoded" in str(caught.value)


BOMB_RUN = """
    import json, resource, sys
    import tf1_pipelines as tp
    import tf1_pipelines.cli.demo  # TensorFlow and the readers loaded: the baseline
    from tf1_pipelines.__main__ import main
    folder, out = sys.argv[1], sys.argv[2]
    peak = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    before = peak()
    result = {"convert": main(["convert", folder, out, "--patch-size", "16"])}
    for name, option in (("div2k_sr", "data_dir"), ("random_patches", "image_dir")):
        try:
            tp.load_pipeline(name, **{option: folder, "patch_size": 16}).close()
            result[name] = "loaded"
        except tp.DataError as exc:
            result[name] = str(exc)
    result["grew"] = peak() - before
    print(json.dumps(result))
"""


@pytest.mark.timeout(240)
def test_a_bomb_in_a_data_folder_is_an_error_line_and_costs_no_memory(tmp_path: Path) -> None:
    folder = tmp_path / "pngs"
    folder.mkdir()
    (folder / "0001.png").write_bytes(good_png())
    bomb = folder / "0002.png"
    bomb.write_bytes(bomb_png(40000))  # 1.5 MB on disk, 1.6e9 pixels: 1.6 GB decoded
    assert bomb.stat().st_size < 2_000_000
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(BOMB_RUN), str(folder),
                           str(tmp_path / "out")], env=dict(env(), TF1_PIPELINES_DATA=str(
                               tmp_path / "home")), capture_output=True, text=True, timeout=200)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["convert"] == 2 and "Traceback" not in done.stderr
    [line] = error_lines(done.stderr)
    assert str(bomb) in line and "pixels" in line
    for name in ("div2k_sr", "random_patches"):
        assert str(bomb) in result[name] and "pixels" in result[name], name
    assert result["grew"] < 200_000_000  # decoding it would take 1.6 GB
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").glob("*.tfrecords"))


# --------------------------------------- row: memory of pipelines built from arrays
MEMORY_RUN = """
    import ctypes, gc, json, sys
    import numpy as np
    import tf1_pipelines as tp
    libc = ctypes.CDLL("libc.so.6")

    def peak():  # the peak RSS since the last reset (VmHWM), in bytes
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmHWM"))

    def reset_peak():
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")

    def growth(name, x, train, seed):
        kwargs = dict(arrays={"x": x}, batch_size=4, train=train, seed=seed)
        with tp.load_pipeline(name, **dict(kwargs, arrays={"x": x[:16].copy()})) as p:
            p.get_batch()  # TensorFlow and the pipeline's code warmed up
        gc.collect()
        libc.malloc_trim(0)  # freed memory back to the system: each case's growth shows
        reset_peak()
        base = peak()
        with tp.load_pipeline(name, **kwargs) as p:
            for _ in range(3):
                first = p.get_batch().x
        return (peak() - base) / x.nbytes, first.shape[1:] == x.shape[1:]

    rng = np.random.default_rng(0)
    cases = {"scalars": rng.random(int(sys.argv[1]), dtype=np.float32),
             "rows": rng.random((int(sys.argv[2]), 256), dtype=np.float32)}
    result = {}
    for name, kind, train, seed in (("constant", "scalars", True, None),
                                    ("constant", "scalars", False, None),
                                    ("constant", "rows", True, None),
                                    ("constant", "rows", True, 7),
                                    ("feeding", "scalars", True, None),
                                    ("feeding", "rows", False, None)):
        x = cases[kind]
        result[f"{name} {kind} train={train} seed={seed}"] = growth(name, x, train, seed)
    print(json.dumps(result))
"""


@pytest.mark.timeout(300)
def test_pipelines_built_from_arrays_peak_at_a_small_multiple_of_the_datas_bytes() -> None:
    """Peak RSS growth over a same-process baseline (VmHWM, reset before each case),
    as a multiple of the array's bytes: 3 million float32 scalars (12 MB; a shuffle
    buffer of one tensor per row took 53 x) and 12000 rows of 256 floats (12 MB)."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(MEMORY_RUN), "3000000", "12000"],
                          env=env(), capture_output=True, text=True, timeout=280)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert len(result) == 6
    for case, (ratio, shape_ok) in result.items():
        assert shape_ok, case
        assert ratio < 6.0, f"{case}: peak RSS grew by {ratio:.1f} x the data"


@pytest.mark.timeout(60)
def test_a_small_file_written_on_a_full_disk_names_the_folder(tmp_path: Path) -> None:
    from tf1_pipelines.records.writer import write_file_atomically

    def write(tmp: str) -> None:
        Path(tmp).write_bytes(b"12")
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(OSError) as caught:
        write_file_atomically(str(tmp_path / "sample_num.txt"), write)
    assert caught.value.errno == errno.ENOSPC and repr(str(tmp_path)) in str(caught.value)
    assert "2 B" in str(caught.value) and os.listdir(tmp_path) == []


DYING_EXPORT = """
    import os, sys
    import numpy as np
    from tf1_pipelines.pipelines.stylegan_lod import TFRecordExporter
    exporter = TFRecordExporter(sys.argv[1], 2, print_progress=False)
    exporter.add_image(np.zeros((3, 8, 8), np.uint8))
    exporter.add_labels(np.zeros((1, 4), np.float32))
    os._exit(0)  # dies as SIGKILL would end it: no close, no abort, no finally
"""


@pytest.mark.timeout(180)
def test_the_lod_exporters_leftovers_of_a_killed_export_go_with_the_next_export(
        tmp_path: Path) -> None:
    from tf1_pipelines.pipelines.stylegan_lod import TFRecordExporter

    out = tmp_path / "faces"
    out.mkdir()
    (out / "faces-rxx.labels.partial").write_bytes(b"the user's")
    subprocess.run([sys.executable, "-c", textwrap.dedent(DYING_EXPORT), str(out)], env=env(),
                   check=True, capture_output=True, timeout=150)
    left = sorted(n for n in os.listdir(out) if n.startswith(".") and n.endswith(".partial"))
    assert len(left) == 3  # two LOD files and the labels, each listed in the manifest
    assert sorted(json.loads((out / manifest.MANIFEST_NAME).read_text())["partial"]) == left
    images = np.random.default_rng(2).integers(0, 256, (2, 3, 8, 8), dtype=np.uint8)
    with TFRecordExporter(str(out), 2, print_progress=False) as again:
        for image in images:
            again.add_image(image)
        again.add_labels(np.ones((2, 4), np.float32))
    assert not [n for n in os.listdir(out) if n.startswith(".") and n.endswith(".partial")]
    assert (out / "faces-rxx.labels.partial").read_bytes() == b"the user's"
    assert np.load(out / "faces-rxx.labels").tolist() == np.ones((2, 4)).tolist()
    assert "partial" not in json.loads((out / manifest.MANIFEST_NAME).read_text())


@pytest.mark.timeout(60)
def test_the_manifest_written_on_a_full_disk_is_one_line_and_the_earlier_one_stays(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "data0.tfrecords").write_bytes(b"records")
    manifest.record(str(folder), [str(folder / "data0.tfrecords")])
    before = (folder / manifest.MANIFEST_NAME).read_bytes()
    (folder / "data1.tfrecords").write_bytes(b"more")
    made: list[str] = []

    def full_disk_temp(prefix: str = "", suffix: str = "", dir: str | None = None) -> tuple[int, str]:
        path = os.path.join(str(dir), prefix + "full" + suffix)
        made.append(path)
        return os.open("/dev/full", os.O_WRONLY), path  # every write: ENOSPC, as on a full disk

    monkeypatch.setattr(manifest.tempfile, "mkstemp", full_disk_temp)
    with pytest.raises(OSError) as caught:
        manifest.record(str(folder), [str(folder / "data1.tfrecords")])
    assert caught.value.errno == errno.ENOSPC
    message = str(caught.value)
    assert "\n" not in message and repr(str(folder)) in message and "no space left" in message
    monkeypatch.undo()
    assert made and (folder / manifest.MANIFEST_NAME).read_bytes() == before  # the earlier manifest stays
    assert sorted(os.listdir(folder)) == sorted([manifest.MANIFEST_NAME, "data0.tfrecords", "data1.tfrecords"])
    assert manifest.is_ours(str(folder), "data0.tfrecords") and not manifest.is_ours(str(folder), "data1.tfrecords")
