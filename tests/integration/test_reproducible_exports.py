"""Every writer is byte-reproducible: the same input gives the same file bytes in
any process (Examples serialized with map entries sorted by key), and so does an
old tool's ``example.SerializeToString()`` under ``python -m compat run``."""
from __future__ import annotations

import glob
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import tensorflow as tf
from export_inputs import WRITERS, non_canonical_records, tree_hashes

from compat.old_defaults import deterministic_protobuf

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def _env() -> dict[str, str]:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONPATH=os.pathsep.join([HERE, ROOT]))
    env.pop("PYTHONHASHSEED", None)  # each process its own hash seed, as for a user
    return env


def _run_in_fresh_processes(commands: list[list[str]], timeout: float = 240) -> None:
    """Start every command at once (fresh interpreters), wait for all, fail on any error."""
    procs = [subprocess.Popen(cmd, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for cmd in commands]
    for proc in procs:
        out, err = proc.communicate(timeout=timeout)
        assert proc.returncode == 0, f"{proc.args} failed:\n{out}\n{err[-3000:]}"


@pytest.mark.timeout(300)
def test_every_writer_gives_the_same_bytes_in_two_fresh_processes(tmp_path: Path) -> None:
    runs = [tmp_path / "run1", tmp_path / "run2"]
    script = os.path.join(HERE, "export_inputs.py")
    _run_in_fresh_processes([[sys.executable, script, str(run)] for run in runs])
    first, second = (tree_hashes(str(run / "exports")) for run in runs)
    assert first == second
    for writer in WRITERS:
        files = [name for name in first if name.startswith(writer + os.sep)]
        assert files, f"{writer} wrote nothing"
        records = [p for p in glob.glob(str(runs[0] / "exports" / writer / "*"))
                   if not p.endswith((".txt", ".labels", ".lock"))]
        assert records, writer
        # the bytes are the sorted-keys serialization, whatever this process's map order is
        assert {os.path.basename(p): non_canonical_records(p) for p in records} == \
            {os.path.basename(p): 0 for p in records}


OLD_TOOL = """
    import sys
    import tensorflow as tf

    def _int64_feature(value):
        return tf.train.Feature(int64_list=tf.train.Int64List(value=[value]))

    def _bytes_feature(value):
        return tf.train.Feature(bytes_list=tf.train.BytesList(value=[value]))

    writer = tf.python_io.TFRecordWriter(sys.argv[1])
    for index in xrange(3):
        example = tf.train.Example(features=tf.train.Features(feature={
            'height': _int64_feature(4), 'width': _int64_feature(2),
            'depth': _int64_feature(1), 'label': _int64_feature(index),
            'image_raw': _bytes_feature(b'raw' * (index + 1))}))
        writer.write(example.SerializeToString())
    writer.close()
    print('wrote', sys.argv[1])
"""


@pytest.mark.timeout(300)
def test_an_old_tool_under_compat_run_gives_the_same_bytes_in_two_processes(tmp_path: Path) -> None:
    script = tmp_path / "convert_to_records.py"
    script.write_text(textwrap.dedent(OLD_TOOL))
    outputs = [tmp_path / "a.tfrecords", tmp_path / "b.tfrecords"]
    _run_in_fresh_processes([[sys.executable, "-m", "compat", "run", str(script), str(out)]
                             for out in outputs])
    first, second = (out.read_bytes() for out in outputs)
    assert first == second
    assert non_canonical_records(str(outputs[0])) == 0


def _four_key_example() -> tf.train.Example:
    feature = {key: tf.train.Feature(int64_list=tf.train.Int64List(value=[n]))
               for n, key in enumerate(["width", "height", "depth", "label"])}
    return tf.train.Example(features=tf.train.Features(feature=feature))


def test_compat_serialization_is_installed_and_undone() -> None:
    message = _four_key_example()
    sorted_bytes = message.SerializeToString(deterministic=True)
    base = deterministic_protobuf._message_base()
    assert base is not None, "expected the upb (or C++) protobuf runtime"
    original = vars(base)["SerializeToString"]
    handle = deterministic_protobuf.install()
    try:
        assert message.SerializeToString() == sorted_bytes
        assert tf.train.Features(feature=message.features.feature).SerializeToString() == \
            tf.train.Features(feature=message.features.feature).SerializeToString(deterministic=True)
    finally:
        handle.uninstall()
    assert vars(base)["SerializeToString"] is original
    handle.uninstall()  # idempotent
    assert vars(base)["SerializeToString"] is original
