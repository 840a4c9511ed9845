"""``python -m compat check``: the static report of what a legacy script needs."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.scripts import write

from compat.checker import check

LEGACY = Path(__file__).resolve().parents[1] / "legacy"
TIMEOUT = 120


def by_construct(report: check.Report) -> dict[tuple[str, str], check.Finding]:
    return {(f.path, f.construct): f for f in report.findings}


def assert_found(report: check.Report, path: str, construct: str, status: str,
                 line: int | None = None) -> None:
    found = by_construct(report).get((path, construct))
    assert found is not None, f"{path}: {construct} not in\n{report.format()}"
    assert found.status == status, found
    if line is not None:
        assert found.line == line, found


# --------------------------------------------------------------------------
# The seeds' scripts: everything they use is handled
# --------------------------------------------------------------------------

def test_seed000_and_its_utils_module() -> None:
    report = check.check_script(LEGACY / "seed000" / "data_loader.py")
    assert report.files == ["data_loader.py", "utils.py"]
    assert report.ok, report.format()
    assert_found(report, "data_loader.py", "import tensorflow as tf", "rewritten", line=9)
    assert_found(report, "data_loader.py", "from scipy import misc", "bridged")
    assert_found(report, "data_loader.py", "misc.imresize", "bridged")
    assert_found(report, "data_loader.py", "gt.tostring()", "rewritten")
    assert_found(report, "data_loader.py", "tf.python_io.TFRecordWriter", "compat.v1")
    assert_found(report, "data_loader.py", "tf.py_func", "compat.v1")
    assert_found(report, "data_loader.py", ".make_one_shot_iterator", "compat.v1")
    assert_found(report, "utils.py", "np.float", "rewritten")
    assert ("data_loader.py", "tf.float32") not in by_construct(report)  # same in TF2: not legacy


def test_seed001_walks_packages_and_relative_layout() -> None:
    report = check.check_script(LEGACY / "seed001" / "project_images.py")
    assert report.ok, report.format()
    assert set(report.files) >= {
        "project_images.py", "dataset_tool.py", os.path.join("dnnlib", "__init__.py"),
        os.path.join("dnnlib", "util.py"), os.path.join("dnnlib", "tflib", "__init__.py"),
        os.path.join("dnnlib", "tflib", "tfutil.py"), os.path.join("training", "dataset.py")}
    dataset_py = os.path.join("training", "dataset.py")
    assert_found(report, dataset_py, "np.fromstring(data, np.uint8)", "rewritten")
    assert_found(report, dataset_py, "tf.data.Iterator.from_structure", "compat.v1")
    assert_found(report, "dataset_tool.py", "quant.tostring()", "rewritten")


@pytest.mark.parametrize("script, expected", [
    ("seed002/sample_patches.py", [("tf.contrib.data.unbatch", "bridged"), ("tf.read_file", "compat.v1"),
                                   ("tf.random_crop", "compat.v1")]),
    ("seed003/tfrecords_guide.py", [("cat_img.tostring()", "rewritten"), ("tf.pack", "bridged"),
                                    ("Python 2 xrange / range() used as a list", "rewritten"),
                                    ("tf.train.shuffle_batch", "compat.v1")]),
    ("seed004/train.py", [("tf.gfile.Glob", "compat.v1"), ("Python 2 xrange / range() used as a list", "rewritten"),
                          ("tf.python_io.TFRecordWriter", "compat.v1")]),
])
def test_other_seeds_are_fully_handled(script: str, expected: list[tuple[str, str]]) -> None:
    report = check.check_script(LEGACY / script)
    assert report.ok, report.format()
    name = Path(script).name
    for construct, status in expected:
        assert_found(report, name, construct, status)


def test_seed004_data_provider_is_reported_through_the_import() -> None:
    report = check.check_script(LEGACY / "seed004" / "train.py")
    assert "data_provider.py" in report.files
    assert_found(report, "data_provider.py", "tf.image.resize_images", "compat.v1")
    assert_found(report, "data_provider.py", "tf.RandomShuffleQueue", "compat.v1")


# --------------------------------------------------------------------------
# What the runner cannot handle
# --------------------------------------------------------------------------

def test_unsupported_constructs_are_reported_with_file_and_line(tmp_path: Path) -> None:
    write(tmp_path / "train.py", """
        import StringIO
        import tensorflow as tf
        import tensorflow.contrib.graph_editor as ge
        from tensorflow.contrib import ffmpeg
        from tensorflow.examples.tutorials.word2vec import word2vec_basic
        from scipy import misc
        from scipy.misc import lena
        import helpers

        net = tf.contrib.graph_editor.connect
        face = misc.face()
        order = sorted([3, 1], cmp=lambda a, b: a - b)
        execfile("config.py")
        x = tf.this_op_never_existed
        y = tf.contrib.data.no_such_transformation
    """)
    write(tmp_path / "helpers.py", """
        def show(x):
            print x
    """)
    report = check.check_script(tmp_path / "train.py")
    assert not report.ok
    unsupported = {(f.path, f.line, f.construct.split(" (")[0]) for f in report.unsupported}
    assert unsupported == {
        ("train.py", 3, "import tensorflow.contrib.graph_editor"),
        ("train.py", 4, "from tensorflow.contrib import ffmpeg"),
        ("train.py", 5, "from tensorflow.examples.tutorials.word2vec import ..."),
        ("train.py", 7, "scipy.misc.lena"),
        ("train.py", 10, "tf.contrib.graph_editor.connect"),
        ("train.py", 11, "misc.face"),
        ("train.py", 12, "sorted([3, 1], cmp=lambda a, b: a - b)"),
        ("train.py", 14, "tf.this_op_never_existed"),
        ("train.py", 15, "tf.contrib.data.no_such_transformation"),
    }
    # Python 2 modules are translated: StringIO, execfile and the print statement are handled.
    assert_found(report, "train.py", "renamed Python 2 standard module", "rewritten", line=1)
    assert_found(report, "train.py", "Python 2 execfile()", "rewritten", line=13)
    assert_found(report, "helpers.py", "Python 2 print statement", "rewritten", line=2)
    messages = {f.construct.split(" (")[0]: f.action for f in report.unsupported}
    assert "tf.recompute_grad" in messages["import tensorflow.contrib.graph_editor"]
    assert "tf.keras.datasets" in messages["from tensorflow.examples.tutorials.word2vec import ..."]
    assert "scipy.datasets.face()" in messages["misc.face"]
    assert "functools.cmp_to_key" in messages["sorted([3, 1], cmp=lambda a, b: a - b)"]
    text = report.format()
    assert "train.py:15:" in text and "Cannot be handled by the runner:" in text


def test_check_runs_nothing(tmp_path: Path) -> None:
    write(tmp_path / "script.py", """
        import side_effect
        open("script_ran", "w").close()
        raise SystemExit(7)
    """)
    write(tmp_path / "side_effect.py", 'open("module_ran", "w").close()\n')
    report = check.check_script(tmp_path / "script.py")
    assert report.ok and report.files == ["script.py", "side_effect.py"]
    assert "No legacy constructs found in 2 file(s)." in report.format()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["script.py", "side_effect.py"]


def test_relative_imports_inside_a_local_package(tmp_path: Path) -> None:
    write(tmp_path / "main.py", "from models import net\n")
    write(tmp_path / "models" / "__init__.py", "")
    write(tmp_path / "models" / "net.py", "from . import layers\nfrom .ops import conv\n")
    write(tmp_path / "models" / "layers.py", "import numpy as np\nX = np.NaN\n")
    write(tmp_path / "models" / "ops.py", "def conv(d):\n    return d.iteritems()\n")
    report = check.check_script(tmp_path / "main.py")
    assert set(report.files) == {"main.py", os.path.join("models", "__init__.py"),
                                 os.path.join("models", "net.py"), os.path.join("models", "layers.py"),
                                 os.path.join("models", "ops.py")}
    assert_found(report, os.path.join("models", "layers.py"), "np.NaN", "rewritten", line=2)
    assert_found(report, os.path.join("models", "ops.py"), "d.iteritems()", "rewritten", line=2)
    assert report.ok


def test_python2_syntax_in_the_script_itself_is_translated(tmp_path: Path) -> None:
    write(tmp_path / "old.py",
          "import os\n\nexcept_me = 1\ntry:\n    pass\nexcept ValueError, e:\n    pass\n")
    report = check.check_script(tmp_path / "old.py")
    assert [(f.line, f.status, f.construct) for f in report.findings] == [
        (6, "rewritten", "Python 2 except clause (except E, e:)")]
    assert report.ok


def test_syntax_error_that_is_not_python2_is_unsupported(tmp_path: Path) -> None:
    write(tmp_path / "broken.py", "import os\n\ndef f(:\n    pass\n")
    report = check.check_script(tmp_path / "broken.py")
    assert [(f.line, f.status) for f in report.findings] == [(3, "unsupported")]
    assert report.findings[0].construct.startswith("syntax error")


def test_missing_script_raises() -> None:
    with pytest.raises(FileNotFoundError):
        check.check_script(Path("no_such_script_anywhere.py"))


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------

def compat_check(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="-1")
    return subprocess.run([sys.executable, "-m", "compat", "check", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=TIMEOUT)


def test_cli_missing_script(tmp_path: Path) -> None:
    result = compat_check("nowhere.py", cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert "nowhere.py" in result.stderr


@pytest.mark.timeout(150)
def test_cli_report_and_exit_status(tmp_path: Path) -> None:
    write(tmp_path / "good.py", """
        import numpy as np
        import tensorflow as tf
        w = tf.python_io.TFRecordWriter("x.tfrecords")
        w.write(np.zeros(2).tostring())
    """)
    write(tmp_path / "bad.py", "import tensorflow as tf\nnet = tf.contrib.ffmpeg\n")
    good = compat_check("good.py", cwd=tmp_path)
    assert good.returncode == 0, good.stderr[-2000:]
    assert good.stdout.splitlines()[1:4] == [
        "good.py:2:0: rewritten: import tensorflow as tf -> tf is the TF1 namespace "
        "(tf.compat.v1 plus tf.contrib.data and the renamed ops)",
        "good.py:3:4: compat.v1: tf.python_io.TFRecordWriter -> "
        "works as tf.compat.v1.python_io.TFRecordWriter",
        "good.py:4:8: rewritten: np.zeros(2).tostring() -> compat.numpy1.bytes_helpers.tostring(x) for NumPy "
        "arrays; other objects keep their own tostring/tobytes",
    ]
    assert "0 cannot be handled" in good.stdout
    assert not (tmp_path / "x.tfrecords").exists()
    bad = compat_check("bad.py", cwd=tmp_path)
    assert bad.returncode == 1
    assert "bad.py:2:6: unsupported: tf.contrib.ffmpeg" in bad.stdout


def test_partly_served_contrib_package(tmp_path: Path) -> None:
    # tf.contrib.learn is served for its MNIST reader only: check says so name by name,
    # with the message the runner raises for the rest.
    write(tmp_path / "train.py", """
        import tensorflow.contrib.learn as learn
        from tensorflow.contrib.learn import datasets
        from tensorflow.contrib.learn import DNNEstimator
    """)
    report = check.check_script(tmp_path / "train.py")
    assert_found(report, "train.py", "import tensorflow.contrib.learn", "bridged", line=1)
    assert_found(report, "train.py", "from tensorflow.contrib.learn import datasets", "bridged", line=2)
    assert_found(report, "train.py", "from tensorflow.contrib.learn import DNNEstimator", "unsupported", line=3)
    estimator = by_construct(report)[("train.py", "from tensorflow.contrib.learn import DNNEstimator")]
    # the refusal of compat.contrib.learn, naming the tf.estimator successor
    assert "tf.contrib.learn.DNNEstimator" in estimator.action and "tf.estimator" in estimator.action
    assert [f.line for f in report.unsupported] == [3]
