"""``compat check`` and ``compat run`` on the layouts research repositories used.

Local modules reached through namespace-package folders, ``sys.path.insert``
calls and ``PYTHONPATH``; imports guarded by ``try: ... except ImportError:``;
and the traceback of a local module that fails while being imported.
"""
from __future__ import annotations

import ast
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from helpers.scripts import write

import compat
from compat.checker import check
from compat.runner import local_imports, rewrite
from compat.surfaces import fallbacks

TIMEOUT = 120
COMPAT_DIR = os.path.dirname(os.path.abspath(compat.__file__))


def found(report: check.Report, path: str, construct: str) -> check.Finding:
    by_key = {(f.path, f.construct): f for f in report.findings}
    assert (path, construct) in by_key, f"{path}: {construct} not in\n{report.format()}"
    return by_key[(path, construct)]


def subprocess_env(pythonpath: Sequence[Path] = ()) -> dict[str, str]:
    """The test environment, with ``pythonpath`` folders after the project's own entries."""
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="-1")
    entries = [e for e in env.get("PYTHONPATH", "").split(os.pathsep) if e]
    env["PYTHONPATH"] = os.pathsep.join([*entries, *map(str, pythonpath)])
    return env


def compat_cli(*args: str, cwd: Path, pythonpath: Sequence[Path] = ()) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "compat", *args], cwd=cwd, env=subprocess_env(pythonpath),
                          capture_output=True, text=True, timeout=TIMEOUT)


LEGACY_OPS = """
    import numpy as np
    import tensorflow as tf

    def packed(a, b):
        with tf.Session() as sess:
            return sess.run(tf.pack([a, b]))

    def raw(x):
        return np.asarray(x, dtype=np.int16).tostring()

    def unbatched(rows):
        dataset = tf.data.Dataset.from_tensor_slices(rows).apply(tf.contrib.data.unbatch())
        item = dataset.make_one_shot_iterator().get_next()
        values = []
        with tf.Session() as sess:
            try:
                while True:
                    values.append(int(sess.run(item)))
            except tf.errors.OutOfRangeError:
                return values
"""


# --------------------------------------------------------------------------
# check: which files are followed
# --------------------------------------------------------------------------

def test_check_follows_a_folder_without_init(tmp_path: Path) -> None:
    write(tmp_path / "train.py", "from models import net\nimport models.layers as layers\n")
    write(tmp_path / "models" / "net.py", "import numpy as np\nW = np.zeros(2).tostring()\n")
    write(tmp_path / "models" / "layers.py", "import tensorflow as tf\nH = tf.pack\n")
    report = check.check_script(tmp_path / "train.py")
    net, layers = os.path.join("models", "net.py"), os.path.join("models", "layers.py")
    assert report.files == ["train.py", net, layers]
    assert found(report, net, "np.zeros(2).tostring()").status == "rewritten"
    assert found(report, layers, "tf.pack").status == "bridged"


def test_check_follows_sys_path_insert_and_predicts_the_failure(tmp_path: Path) -> None:
    write(tmp_path / "train.py", """
        import sys
        sys.path.insert(0, 'src')
        import ops
        import layers
    """)
    write(tmp_path / "src" / "ops.py", LEGACY_OPS)
    write(tmp_path / "src" / "layers.py", "import tensorflow as tf\ncell = tf.contrib.timeseries.ARModel\n")
    report = check.check_script(tmp_path / "train.py")
    ops, layers = os.path.join("src", "ops.py"), os.path.join("src", "layers.py")
    assert report.files == ["train.py", ops, layers]
    assert found(report, ops, "tf.pack").status == "bridged"
    assert found(report, ops, "np.asarray(x, dtype=np.int16).tostring()").status == "rewritten"
    assert found(report, ops, "tf.contrib.data.unbatch").status == "bridged"
    # The module the run would fail in: reported, so the check no longer says "should work".
    assert [(f.path, f.line, f.construct) for f in report.unsupported] == [
        (layers, 2, "tf.contrib.timeseries.ARModel")]
    assert "should work" not in report.format()


@pytest.mark.parametrize("lines", [
    ["import os, sys", "sys.path.insert(0, os.path.join(os.path.dirname(__file__), 'lib'))"],
    ["import os, sys", "sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))"],
    ["import os.path as osp, sys", "ROOT = osp.dirname(osp.realpath(__file__))",
     "LIB = osp.join(ROOT, 'lib')", "if LIB not in sys.path:", "    sys.path.insert(0, LIB)"],
    ["from os.path import join, dirname", "import sys", "sys.path.insert(0, join(dirname(__file__), 'lib'))"],
    ["import sys", "from pathlib import Path", "sys.path.insert(0, str(Path(__file__).resolve().parent / 'lib'))"],
    ["import sys", "sys.path.extend(['lib'])"],
    ["import sys", "for folder in ['docs', 'lib']:", "    sys.path.insert(0, folder)"],
    ["import site", "site.addsitedir('lib')"],
    ["import os, sys", "def add_path(path):", "    if path not in sys.path:", "        sys.path.insert(0, path)",
     "add_path(os.path.join(os.path.dirname(__file__), 'lib'))"],
    ["import os, sys", "def main():", "    here = os.path.dirname(os.path.abspath(__file__))",
     "    sys.path.append(here + '/lib')", "    import net", "main()"],
])
def test_check_follows_the_literal_sys_path_forms(tmp_path: Path, lines: list[str]) -> None:
    write(tmp_path / "train.py", "\n".join([*lines, "import net", ""]))
    write(tmp_path / "lib" / "net.py", "import numpy as np\nX = np.NaN\n")
    report = check.check_script(tmp_path / "train.py")
    assert found(report, os.path.join("lib", "net.py"), "np.NaN").status == "rewritten"


def test_check_does_not_guess_computed_paths(tmp_path: Path) -> None:
    write(tmp_path / "train.py", "import sys\nsys.path.insert(0, sys.argv[1])\nimport net\n")
    write(tmp_path / "lib" / "net.py", "X = 1\n")
    assert check.check_script(tmp_path / "train.py").files == ["train.py"]


def test_check_follows_init_paths_outside_the_script_folder(tmp_path: Path) -> None:
    # py-faster-rcnn's layout: tools/_init_paths.py puts ../lib first on sys.path.
    write(tmp_path / "tools" / "train_net.py", "import _init_paths\nfrom fast_rcnn.config import cfg\n")
    write(tmp_path / "tools" / "_init_paths.py", """
        import os.path as osp
        import sys

        def add_path(path):
            if path not in sys.path:
                sys.path.insert(0, path)

        this_dir = osp.dirname(__file__)
        lib_path = osp.join(this_dir, '..', 'lib')
        add_path(lib_path)
    """)
    write(tmp_path / "lib" / "fast_rcnn" / "__init__.py", "")
    write(tmp_path / "lib" / "fast_rcnn" / "config.py", "import numpy as np\ncfg = {'eps': np.finfo(np.float).eps}\n")
    report = check.check_script(tmp_path / "tools" / "train_net.py")
    config = str((tmp_path / "lib" / "fast_rcnn" / "config.py").resolve())
    assert report.files[:2] == ["train_net.py", "_init_paths.py"]
    assert config in report.files
    assert found(report, config, "np.float").status == "rewritten"


def test_check_follows_pythonpath(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project, shared = tmp_path / "project", tmp_path / "shared"
    write(project / "train.py", "from object_detection import builder\n")
    write(shared / "object_detection" / "__init__.py", "")
    write(shared / "object_detection" / "builder.py", "import tensorflow.contrib.timeseries as rnn\n")
    monkeypatch.setenv("PYTHONPATH", str(shared))
    report = check.check_script(project / "train.py")
    builder = str((shared / "object_detection" / "builder.py").resolve())
    assert builder in report.files
    assert found(report, builder, "import tensorflow.contrib.timeseries").status == "unsupported"
    assert not report.ok


def test_scope_leaves_installed_and_standard_library_folders_alone(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    installed = tmp_path / "env" / "lib" / "site-packages"
    installed.mkdir(parents=True)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(installed), os.path.dirname(os.__file__),
                                                      str(tmp_path / "missing")]))
    (tmp_path / "project").mkdir()
    scope = rewrite.LocalScope.for_script(tmp_path / "project" / "train.py")
    assert scope.folders == [(tmp_path / "project").resolve()]
    assert not scope.contains(os.__file__)


def test_a_namespace_folder_loses_to_an_installed_package(tmp_path: Path) -> None:
    # Python picks a regular package anywhere on the path over a folder without __init__.py.
    write(tmp_path / "train.py", "import json.decoder\nimport helpers.io\n")
    write(tmp_path / "json" / "decoder.py", "import numpy as np\nX = np.NaN\n")
    write(tmp_path / "helpers" / "io.py", "import numpy as np\nX = np.NaN\n")
    report = check.check_script(tmp_path / "train.py")
    assert report.files == ["train.py", os.path.join("helpers", "io.py")]


def test_search_order_follows_python(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    write(first / "pkg" / "a.py", "")
    write(second / "pkg" / "__init__.py", "")
    write(second / "pkg" / "a.py", "")
    write(first / "mod.py", "")
    write(second / "mod" / "__init__.py", "")
    assert local_imports.module_files(["pkg", "a"], [first, second]) == [
        second / "pkg" / "__init__.py", second / "pkg" / "a.py"]
    assert local_imports.module_files(["mod"], [first, second]) == [first / "mod.py"]
    assert local_imports.module_files(["sys"], [tmp_path]) == []


# --------------------------------------------------------------------------
# check: imports guarded by try/except
# --------------------------------------------------------------------------

@pytest.mark.parametrize("handler", ["except ImportError:", "except ModuleNotFoundError:",
                                     "except (ValueError, ImportError) as exc:", "except Exception:",
                                     "except:"])
def test_guarded_imports_are_fallbacks(tmp_path: Path, handler: str) -> None:
    write(tmp_path / "train.py", f"""
        try:
            from tensorflow.contrib import rpc
        {handler}
            nccl = None
        try:
            from StringIO import StringIO
        {handler}
            from io import StringIO
    """)
    report = check.check_script(tmp_path / "train.py")
    for construct in ("from tensorflow.contrib import rpc", "from StringIO import ..."):
        finding = found(report, "train.py", construct)
        assert finding.status == "fallback" and finding.handled
        assert finding.action == f"not provided; the script's {handler.split(' as ')[0].rstrip(':')} fallback runs"
    assert report.ok
    assert "2 fallback (the script's own alternative runs); 0 cannot be handled." in report.format()


def test_what_a_handler_does_not_catch_is_still_unsupported(tmp_path: Path) -> None:
    write(tmp_path / "train.py", """
        try:
            from tensorflow.contrib import rpc
        except ValueError:
            nccl = None
        try:
            from tensorflow import no_such_op
        except ModuleNotFoundError:
            no_such_op = None
        try:
            def later():
                import tensorflow.contrib.timeseries as rnn
        except ImportError:
            pass
        try:
            import urllib2
        except ImportError:
            import tensorflow.contrib.timeseries as rnn
    """)
    report = check.check_script(tmp_path / "train.py")
    assert {(f.line, f.status) for f in report.findings if not f.status.startswith("rewritten")} == {
        (2, "unsupported"), (6, "unsupported"), (11, "unsupported"), (15, "fallback"), (17, "unsupported")}


def test_guarded_attribute_and_builtin(tmp_path: Path) -> None:
    write(tmp_path / "train.py", """
        import tensorflow as tf
        try:
            cells = tf.contrib.timeseries
        except AttributeError:
            cells = tf.nn.rnn_cell
        try:
            execfile('config.py')
        except NameError:
            pass
    """)
    report = check.check_script(tmp_path / "train.py")
    assert found(report, "train.py", "tf.contrib.timeseries").status == "fallback"
    assert found(report, "train.py", "execfile").status == "fallback"
    assert report.ok


@pytest.mark.parametrize("test, python2_branch", [
    ("sys.version_info[0] < 3", "body"), ("sys.version_info < (3, 0)", "body"),
    ("sys.version_info.major == 2", "body"), ("sys.version.startswith('2')", "body"),
    ("six.PY2", "body"), ("not six.PY3", "body"), ("PY2", "body"),
    ("sys.version_info >= (3,)", "else"), ("six.PY3", "else"), ("IS_PY3", "else"), ("six.PY3 and IS_PY3", "else"),
])
def test_python2_branches_are_not_run(tmp_path: Path, test: str, python2_branch: str) -> None:
    python2, python3 = "from StringIO import StringIO", "from io import StringIO"
    first, second = (python2, python3) if python2_branch == "body" else (python3, python2)
    write(tmp_path / "train.py", f"""
        import sys
        import six
        from six import PY2
        IS_PY3 = sys.version_info[0] == 3
        if {test}:
            {first}
        else:
            {second}
    """)
    report = check.check_script(tmp_path / "train.py")
    finding = found(report, "train.py", "from StringIO import ...")
    assert finding.status == "fallback", finding
    assert finding.action.startswith("not provided, and not run: ") and f"`if {test}`" in finding.action
    assert report.ok


def test_a_test_that_is_not_about_the_version_is_not_guessed(tmp_path: Path) -> None:
    write(tmp_path / "train.py", """
        import sys
        if len(sys.argv) > 2:
            from tensorflow.contrib import rpc
        if sys.version_info >= (3, 0) and sys.argv:
            pass
        else:
            import tensorflow.contrib.timeseries as rnn
    """)
    report = check.check_script(tmp_path / "train.py")
    assert [f.status for f in report.findings] == ["unsupported", "unsupported"]


def test_raised_by_matches_what_the_runner_raises() -> None:
    tree = ast.parse("from tensorflow import x\nfrom tensorflow.contrib import y\nimport StringIO\n")
    assert [fallbacks.raised_by(node) for node in tree.body] == [
        "ImportError", "ModuleNotFoundError", "ModuleNotFoundError"]


# --------------------------------------------------------------------------
# run and check on the same layouts (subprocesses)
# --------------------------------------------------------------------------

@pytest.mark.timeout(300)
def test_run_and_check_on_research_layouts(tmp_path: Path) -> None:
    project, shared, extra = tmp_path / "project", tmp_path / "shared", tmp_path / "extra"
    write(project / "train.py", """
        import os
        import sys
        sys.path.insert(0, 'src')
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'shared'))
        import ops
        from models import net
        import common
        import extra_module

        print("packed", ops.packed(3, 4).tolist())
        print("raw", ops.raw([1, -2]).hex())
        print("unbatched", ops.unbatched([[1, 2], [3, 4]]))
        print("net", net.KIND, net.SCALE)
        print("common", common.RAW.hex())
        print("extra", extra_module.EPS)
    """)
    write(project / "src" / "ops.py", LEGACY_OPS)
    write(project / "models" / "net.py", """
        import numpy as np
        KIND = np.float.__name__
        SCALE = np.asscalar(np.array([2.5]))
    """)
    write(shared / "common.py", "import numpy as np\nRAW = np.arange(3, dtype=np.uint8).tostring()\n")
    write(extra / "extra_module.py", "import numpy as np\nEPS = float(np.finfo(np.float_).eps)\n")

    result = compat_cli("run", "train.py", cwd=project, pythonpath=[extra])
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.splitlines() == [
        f"packed {np.stack([3, 4]).tolist()}",
        f"raw {np.asarray([1, -2], dtype=np.int16).tobytes().hex()}",
        "unbatched [1, 2, 3, 4]",
        "net float 2.5",
        f"common {np.arange(3, dtype=np.uint8).tobytes().hex()}",
        f"extra {np.finfo(np.float64).eps}",
    ]
    report = compat_cli("check", "train.py", cwd=project, pythonpath=[extra])
    assert report.returncode == 0, report.stdout + report.stderr[-2000:]
    for line in [
        f"{os.path.join('src', 'ops.py')}:6:", "rewritten: np.asarray(x, dtype=np.int16).tostring()",
        "bridged: tf.pack", "bridged: tf.contrib.data.unbatch",
        f"{os.path.join('models', 'net.py')}:2:7: rewritten: np.float",
        f"{shared / 'common.py'}:2:6: rewritten: np.arange(3, dtype=np.uint8).tostring()",
        f"{extra / 'extra_module.py'}:2:", "rewritten: np.float_",
    ]:
        assert line in report.stdout, report.stdout


@pytest.mark.timeout(300)
def test_run_takes_the_except_import_error_fallbacks(tmp_path: Path) -> None:
    write(tmp_path / "train.py", """
        try:
            from tensorflow.contrib import rpc
        except ImportError as exc:
            print("nccl fallback:", type(exc).__mro__[1].__name__)
            nccl = None
        try:
            from StringIO import StringIO
        except ImportError:
            from io import StringIO
        try:
            import tensorflow.contrib.timeseries as ds
        except ModuleNotFoundError:
            ds = None
        buffer = StringIO()
        buffer.write("io")
        print("nccl is", nccl, "| StringIO from", type(buffer).__module__, buffer.getvalue(),
              "| timeseries", ds)
    """)
    checked = compat_cli("check", "train.py", cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout
    assert checked.stdout.count(": fallback: ") == 3
    result = compat_cli("run", "train.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.splitlines() == ["nccl fallback: ModuleNotFoundError",
                                          "nccl is None | StringIO from _io io | timeseries None"]


BAD_CONFIG = """
    LIMIT = 3
    raise ValueError("bad config: LIMIT must be even")
"""


def traceback_text(stderr: str) -> str:
    return stderr[stderr.index("Traceback"):]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("script", [
    "import os\nfrom config import settings\n",
    "try:\n    import config.settings\nexcept ValueError as exc:\n    raise RuntimeError('no config') from exc\n",
])
def test_import_time_errors_read_like_plain_python(tmp_path: Path, script: str) -> None:
    write(tmp_path / "main.py", script)
    write(tmp_path / "config" / "settings.py", BAD_CONFIG)
    plain = subprocess.run([sys.executable, "main.py"], cwd=tmp_path, capture_output=True, text=True,
                           timeout=TIMEOUT, env=subprocess_env())
    result = compat_cli("run", "main.py", cwd=tmp_path)
    assert result.returncode == plain.returncode == 1
    text = traceback_text(result.stderr)
    assert text == traceback_text(plain.stderr)
    assert 'main.py", line 2, in <module>' in text
    assert 'settings.py", line 2, in <module>' in text
    assert COMPAT_DIR not in text and "importlib" not in text


@pytest.mark.timeout(300)
def test_refusal_in_a_local_module_ends_at_the_modules_line(tmp_path: Path) -> None:
    write(tmp_path / "main.py", "import os\nimport nets.resnet\n")
    write(tmp_path / "nets" / "resnet.py", "import numpy as np\nimport tensorflow.contrib.timeseries as rnn\n")
    result = compat_cli("run", "main.py", cwd=tmp_path)
    assert result.returncode == 1
    text = traceback_text(result.stderr)
    frames = [line.strip() for line in text.splitlines() if line.strip().startswith('File "')]
    assert frames == [f'File "{tmp_path / "main.py"}", line 2, in <module>',
                      f'File "{tmp_path / "nets" / "resnet.py"}", line 2, in <module>']
    assert COMPAT_DIR not in text and "importlib" not in text
    assert f"compat: {os.path.join('nets', 'resnet.py')}:2: tf.contrib.timeseries is not provided" in result.stderr
