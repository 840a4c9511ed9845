"""Writers never delete what they did not write, clean up on every failure, and
build a record cache once when several threads or processes ask for it at once."""
from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import tensorflow as tf
from export_inputs import (
    SEMANTIC_LEVELS,
    tree_hashes,
    write_labelled_jpegs,
    write_pngs,
    write_voc_folders,
    write_voc_pairs,
)
from helpers.read_only import WRITE_ERRNOS, read_only

from tf1_pipelines.__main__ import main
from tf1_pipelines.errors import DataError
from tf1_pipelines.inputs.queue import record_files
from tf1_pipelines.pipelines import div2k_sr
from tf1_pipelines.pipelines import voc_segmentation as voc
from tf1_pipelines.pipelines.div2k_sr import records as div2k_records
from tf1_pipelines.pipelines.inception_multilabel import build_shards
from tf1_pipelines.pipelines.voc_segmentation import records as voc_records
from tf1_pipelines.records.folder_lock import FolderLockTimeout, folder_lock
from tf1_pipelines.records.manifest import MANIFEST_NAME
from tf1_pipelines.records.reader import iterate_records

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REAL_WRITER = tf.io.TFRecordWriter


def _error_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("error:")]


def _partials(folder: Path) -> list[str]:
    return sorted(name for name in os.listdir(folder) if name.endswith(".partial"))


@pytest.fixture
def pngs(tmp_path: Path) -> str:
    """Two 192x192 PNGs: 8 patches of 96x96."""
    write_pngs(str(tmp_path / "pngs"), 2)
    return str(tmp_path / "pngs")


@pytest.fixture
def earlier_export(tmp_path: Path, pngs: str) -> Path:
    """A folder with a finished 3-shard convert and a user's own notes file."""
    out = tmp_path / "out"
    assert main(["convert", pngs, str(out), "--tfrecord-num", "3"]) == 0
    (out / "notes.txt").write_text("mine")
    return out


# ---------------------------------------------------------------- never delete what is not ours
def test_convert_keeps_a_users_data_val_tfrecords(tmp_path: Path, pngs: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "data_val.tfrecords").write_bytes(b"the user's validation records")
    assert main(["convert", pngs, str(out), "--tfrecord-num", "2"]) == 2
    err = capsys.readouterr().err
    assert (out / "data_val.tfrecords").read_bytes() == b"the user's validation records"
    assert sorted(os.listdir(out)) == ["data_val.tfrecords"]  # nothing written either
    assert len(_error_lines(err)) == 1 and "data_val.tfrecords" in _error_lines(err)[0]
    assert "Traceback" not in err


def test_convert_removes_only_its_own_stale_shards(earlier_export: Path, pngs: str) -> None:
    assert main(["convert", pngs, str(earlier_export), "--tfrecord-num", "2"]) == 0
    assert sorted(os.listdir(earlier_export)) == [MANIFEST_NAME, "data0.tfrecords",
                                                  "data1.tfrecords", "notes.txt",
                                                  "sample_num.txt"]
    assert (earlier_export / "notes.txt").read_text() == "mine"


def test_build_shards_keeps_files_named_like_the_subset(tmp_path: Path) -> None:
    labels = write_labelled_jpegs(str(tmp_path / "jpegs"), 4)
    out = tmp_path / "out"
    out.mkdir()
    (out / "train-labels.csv").write_text("filename,scene\n")
    (out / "train-README.txt").write_text("how the shards were made")
    with pytest.raises(DataError, match="train-README.txt") as caught:
        build_shards(str(tmp_path / "jpegs"), str(out), SEMANTIC_LEVELS, "train", 2, labels=labels)
    assert "(and 1 more)" in str(caught.value)
    assert (out / "train-labels.csv").read_text() == "filename,scene\n"
    assert (out / "train-README.txt").read_text() == "how the shards were made"
    assert sorted(os.listdir(out)) == ["train-README.txt", "train-labels.csv"]
    # files the reader never takes stay too, and an export beside them works
    other = tmp_path / "other"
    other.mkdir()
    (other / "README.txt").write_text("keep")
    build_shards(str(tmp_path / "jpegs"), str(other), SEMANTIC_LEVELS, "train", 3, labels=labels)
    build_shards(str(tmp_path / "jpegs"), str(other), SEMANTIC_LEVELS, "train", 2, labels=labels)
    assert sorted(os.listdir(other)) == [MANIFEST_NAME, "README.txt", "train-00000-of-00002",
                                         "train-00001-of-00002"]


def test_voc_reshard_serves_every_example_once(tmp_path: Path) -> None:
    pairs = write_voc_pairs(str(tmp_path / "pairs"), 5)
    out = str(tmp_path / "out")
    voc.write_sharded_records(pairs, out, 1)
    voc.write_sharded_records(pairs, out, 2)
    files = record_files(out)
    assert [os.path.basename(f) for f in files] == [
        "pascal_voc_segmentation-00000-of-00002.tfrecords",
        "pascal_voc_segmentation-00001-of-00002.tfrecords"]
    assert sum(1 for path in files for _ in iterate_records(path)) == 5
    # a reader of the folder with num_epochs=1 sees each example once
    with voc.VocSegmentationPipeline(tfrecords=out, backend="dataset", num_epochs=1, batch_size=1,
                                     image_height=8, image_width=12) as pipe:
        served = 0
        for batch in pipe:
            served += len(batch.image)
    assert served == 5


# ---------------------------------------------------------------- clean up on every failure
def _failing_writer(after: int, error: Callable[[], BaseException], at: str = "write") -> type:
    """A TFRecordWriter whose ``at`` ('open', 'write', 'close') fails once ``after``
    records were written in all files, as a full disk or a refused folder does."""
    state = {"written": 0}

    class FailingWriter:
        def __init__(self, path: str, options: Any = None) -> None:
            if at == "open" and state["written"] >= after:
                raise error()
            self._real = REAL_WRITER(path, options)

        def write(self, record: bytes) -> None:
            if at == "write" and state["written"] >= after:
                raise error()
            self._real.write(record)
            state["written"] += 1

        def close(self) -> None:
            self._real.close()
            if at == "close":
                raise error()

    return FailingWriter


def _enospc() -> BaseException:
    return tf.errors.ResourceExhaustedError(None, None, "write failed: No space left on device")


def _eacces() -> BaseException:
    return tf.errors.PermissionDeniedError(None, None, "could not open: Permission denied")


@pytest.mark.parametrize("after, error, at, errno_name", [
    (5, _enospc, "write", "ENOSPC"), (0, _enospc, "close", "ENOSPC"),
    (0, _eacces, "open", "EACCES")], ids=["disk-full-mid-way", "disk-full-at-flush", "read-only"])
def test_convert_fails_cleanly_on_file_errors(earlier_export: Path, pngs: str,
                                              monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str], after: int,
                                              error: Callable[[], BaseException], at: str,
                                              errno_name: str) -> None:
    before = tree_hashes(str(earlier_export))
    monkeypatch.setattr(tf.io, "TFRecordWriter", _failing_writer(after, error, at))
    capsys.readouterr()
    assert main(["convert", pngs, str(earlier_export), "--tfrecord-num", "2"]) == 2
    err = capsys.readouterr().err
    assert tree_hashes(str(earlier_export)) == before  # no .partial, earlier export intact
    assert len(_error_lines(err)) == 1 and "Traceback" not in err
    assert f"[Errno {getattr(errno, errno_name)}]" in _error_lines(err)[0]


def test_ctrl_c_mid_convert_exits_130_and_keeps_the_earlier_export(
        earlier_export: Path, pngs: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    before = tree_hashes(str(earlier_export))
    monkeypatch.setattr(tf.io, "TFRecordWriter", _failing_writer(3, KeyboardInterrupt))
    capsys.readouterr()
    try:
        status = main(["convert", pngs, str(earlier_export)])
    except KeyboardInterrupt:  # would end the test run itself
        pytest.fail("KeyboardInterrupt escaped from main()")
    assert status == 130
    err = capsys.readouterr().err
    assert tree_hashes(str(earlier_export)) == before
    assert _error_lines(err) == ["error: interrupted (SIGINT)"] and "Traceback" not in err


@pytest.mark.timeout(180)
def test_convert_into_a_read_only_folder(earlier_export: Path, pngs: str) -> None:
    # Root writes through permission bits, so for root (as CI runs) the folder is
    # mounted read-only in the command's own mount namespace (helpers.read_only).
    before = tree_hashes(str(earlier_export))
    with read_only(earlier_export) as prefix:
        result = subprocess.run([*prefix, sys.executable, "-m", "tf1_pipelines", "convert", pngs,
                                 str(earlier_export)], capture_output=True, text=True, timeout=150,
                                env=_env())
    assert result.returncode == 2, result.stderr[-2000:]
    assert tree_hashes(str(earlier_export)) == before
    errors = _error_lines(result.stderr)
    assert len(errors) == 1 and "Traceback" not in result.stderr, result.stderr[-2000:]
    assert any(f"[Errno {code}]" in errors[0] for code in WRITE_ERRNOS), errors


def test_convert_to_a_path_that_is_a_file(tmp_path: Path, pngs: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "records"
    target.write_text("not a folder")
    assert main(["convert", pngs, str(target)]) == 2
    err = capsys.readouterr().err
    assert target.read_text() == "not a folder"
    assert len(_error_lines(err)) == 1 and "is a file" in err and "Traceback" not in err


def _env() -> dict[str, str]:
    return dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONPATH=ROOT)


SLOW_CONVERT = """
    import sys, time
    from tf1_pipelines.pipelines.div2k_sr import records
    real = records.read_rgb
    def slow(path, min_size=1):
        time.sleep(0.25)  # a big photograph: time for the signal to arrive mid-export
        return real(path, min_size)
    records.read_rgb = slow
    from tf1_pipelines.__main__ import main
    sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.timeout(300)
def test_sigterm_mid_convert_leaves_no_partial_files(tmp_path: Path,
                                                     earlier_export: Path) -> None:
    many = write_pngs(str(tmp_path / "many"), 12)
    before = tree_hashes(str(earlier_export))
    proc = subprocess.Popen([sys.executable, "-c", textwrap.dedent(SLOW_CONVERT), "convert",
                             os.path.dirname(many[0]), str(earlier_export)],
                            env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 240
        while not _partials(earlier_export):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the export never started"
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 143, err
    assert _error_lines(err) == ["error: terminated (SIGTERM)"] and "Traceback" not in err
    assert tree_hashes(str(earlier_export)) == before


FILE_SIZE_LIMIT = """
    import resource, signal, sys
    import tf1_pipelines.cli.demo  # TensorFlow loaded before the limit
    from tf1_pipelines.__main__ import main
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
    limit = int(sys.argv[1])
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.timeout(300)
def test_convert_past_a_file_size_limit_fails_cleanly(tmp_path: Path,
                                                      earlier_export: Path) -> None:
    """A real write error from the operating system (the file size limit stands in
    for a full disk without needing one)."""
    many = write_pngs(str(tmp_path / "many"), 6)  # 24 patches: ~110 KB in 2 shards
    before = tree_hashes(str(earlier_export))
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(FILE_SIZE_LIMIT), "40000",
                           "convert", os.path.dirname(many[0]), str(earlier_export),
                           "--tfrecord-num", "2"], env=_env(), capture_output=True, text=True,
                          timeout=240)
    assert proc.returncode == 2, proc.stderr
    assert len(_error_lines(proc.stderr)) == 1 and "Traceback" not in proc.stderr
    assert f"[Errno {errno.EFBIG}]" in _error_lines(proc.stderr)[0]
    assert tree_hashes(str(earlier_export)) == before


# ---------------------------------------------------------------- concurrent cache builds
def _slowed(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[int]:
    """Slow ``module.name`` down so concurrent builds overlap; count the calls."""
    real, calls = getattr(module, name), []

    def slow(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        time.sleep(0.05)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, slow)
    return calls


def _in_threads(target: Callable[[], str], count: int = 4) -> list[str | BaseException]:
    results: list[str | BaseException] = [RuntimeError("did not finish")] * count

    def run(index: int) -> None:
        try:
            results[index] = target()
        except BaseException as exc:  # noqa: B902 - reported by the test
            results[index] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results


@pytest.mark.timeout(120)
def test_threads_build_the_div2k_cache_once(tmp_path: Path, pngs: str,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TF1_PIPELINES_DATA", str(tmp_path / "home"))
    calls = _slowed(monkeypatch, div2k_records, "read_rgb")
    results = _in_threads(lambda: div2k_sr.cached_records(pngs, 96, 3))
    assert len(set(results)) == 1 and isinstance(results[0], str), results
    assert len(calls) == 2  # one build of two images
    assert div2k_sr.verify_patch_records(sorted(
        os.path.join(results[0], f"data{i}.tfrecords") for i in range(3)), 96) == 8


def _voc_cache(image_dir: str, mask_dir: str) -> str:
    """The record folder a VOC pipeline builds (on first use) for two folders."""
    pipe = voc.VocSegmentationPipeline(image_dir=image_dir, mask_dir=mask_dir, image_height=8,
                                       image_width=12, batch_size=1)
    return os.path.dirname(pipe.files[0])


@pytest.mark.timeout(120)
def test_threads_build_the_voc_cache_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TF1_PIPELINES_DATA", str(tmp_path / "home"))
    image_dir, mask_dir = write_voc_folders(str(tmp_path / "voc"), 3)
    calls = _slowed(monkeypatch, voc_records, "read_pair")
    results = _in_threads(lambda: _voc_cache(image_dir, mask_dir))
    assert len(set(results)) == 1 and isinstance(results[0], str), results
    assert len(calls) == 3


VOC_CACHE_PROCESS = """
    import os, sys, time
    from tf1_pipelines.pipelines.voc_segmentation import VocSegmentationPipeline, records
    real = records.read_pair
    def slow(*args):
        time.sleep(0.2)  # overlap the two builds
        return real(*args)
    records.read_pair = slow
    barrier = sys.argv[1]
    open(barrier + "." + str(os.getpid()), "w").close()
    while len([n for n in os.listdir(os.path.dirname(barrier))
               if n.startswith(os.path.basename(barrier))]) < 2:
        time.sleep(0.01)  # both processes start building together
    pipe = VocSegmentationPipeline(image_dir=sys.argv[2], mask_dir=sys.argv[3], image_height=8,
                                   image_width=12, batch_size=1)
    print(os.path.dirname(pipe.files[0]))
"""


@pytest.mark.timeout(300)
def test_two_processes_build_the_voc_cache_once(tmp_path: Path) -> None:
    image_dir, mask_dir = write_voc_folders(str(tmp_path / "voc"), 4)
    env = dict(_env(), TF1_PIPELINES_DATA=str(tmp_path / "home"))
    (tmp_path / "barrier").mkdir()
    procs = [subprocess.Popen([sys.executable, "-c", textwrap.dedent(VOC_CACHE_PROCESS),
                               str(tmp_path / "barrier" / "ready"), image_dir, mask_dir], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    outputs = [proc.communicate(timeout=240) for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0], [err[-2000:] for _, err in outputs]
    folders = {out.strip().splitlines()[-1] for out, _ in outputs}
    assert len(folders) == 1
    folder = folders.pop()
    assert not _partials(Path(folder))
    assert voc.verify_records(record_files(folder)) == 4


LOCK_HOLDER = """
    import sys, time
    from tf1_pipelines.records.folder_lock import folder_lock
    with folder_lock(sys.argv[1]):
        print("held", flush=True)
        time.sleep(float(sys.argv[2]))
"""


@pytest.mark.timeout(60)
def test_folder_lock_excludes_another_process_with_a_bounded_wait(tmp_path: Path) -> None:
    folder = str(tmp_path / "cache")
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(LOCK_HOLDER), folder, "1.5"],
                              env=_env(), stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(FolderLockTimeout, match="cache"):
            with folder_lock(folder, timeout=0.2):
                pass
        start = time.monotonic()
        with folder_lock(folder, timeout=30):
            waited = time.monotonic() - start
        assert 0.3 < waited < 30
    finally:
        holder.wait(timeout=30)
    assert os.listdir(folder) == []
