"""The compat runner: command line, bad input, the source rewrite, the TF1 namespace, installation.

Subprocess tests run ``python -m compat ...`` with a timeout; the rest run in
this process and undo whatever they install.
"""
from __future__ import annotations

import array
import ast
import os
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import numpy as np
import pytest
from helpers.scripts import write

from compat.numpy1 import bytes_helpers as numpy_legacy
from compat.runner import rewrite, startup_log
from compat.runner import run as runner
from compat.scipy_legacy.misc_module import ScipyMiscFinder
from compat.tf1 import namespace as tf1

TIMEOUT = 120


CHECKOUT = Path(__file__).resolve().parents[2]


def checkout_env(extra_path: Path | None = None) -> dict[str, str]:
    """The test's environment with this checkout first on PYTHONPATH (then
    ``extra_path``, then what was there), so that subprocesses import the code
    under test and not an installed copy."""
    paths = [str(CHECKOUT)] + ([str(extra_path)] if extra_path else [])
    if os.environ.get("PYTHONPATH"):
        paths.append(os.environ["PYTHONPATH"])
    return dict(os.environ, PYTHONPATH=os.pathsep.join(paths), TF_CPP_MIN_LOG_LEVEL="2",
                CUDA_VISIBLE_DEVICES="-1")


def compat_cli(*args: str, cwd: Path, extra_path: Path | None = None) -> subprocess.CompletedProcess:
    env = checkout_env(extra_path)
    return subprocess.run([sys.executable, "-m", "compat", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=TIMEOUT)


# --------------------------------------------------------------------------
# No side effects on import
# --------------------------------------------------------------------------

def test_subprocesses_import_this_checkout(tmp_path: Path) -> None:
    code = "import compat, tf1_pipelines; print(compat.__file__); print(tf1_pipelines.__file__)"
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                            text=True, env=checkout_env(tmp_path / "site"), timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    for line in result.stdout.splitlines():
        assert Path(line).resolve().is_relative_to(CHECKOUT), line


def test_importing_compat_changes_nothing(tmp_path: Path) -> None:
    code = textwrap.dedent("""
        import builtins, sys
        before = list(sys.meta_path)
        import compat, compat.tf1.namespace, compat.runner.rewrite, compat.runner.run
        import compat.checker.check, compat.__main__
        assert sys.meta_path == before, sys.meta_path
        for name in ("tensorflow", "tensorflow.contrib", "scipy.misc"):
            assert name not in sys.modules, name
        assert not hasattr(builtins, "xrange")
        print("clean")
    """)
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                            timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "clean"


# --------------------------------------------------------------------------
# Command line and bad input (fast: they fail before TensorFlow is imported)
# --------------------------------------------------------------------------

def test_missing_script_is_named_and_exits_2(tmp_path: Path) -> None:
    result = compat_cli("run", "no_such_script.py", "--flag", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "no_such_script.py" in result.stderr and "no such file" in result.stderr


def test_directory_is_not_a_script(tmp_path: Path) -> None:
    result = compat_cli("run", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 2
    assert "it is a directory, not a script" in result.stderr


def test_check_of_a_directory_says_it_is_one(tmp_path: Path) -> None:
    result = compat_cli("check", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 2 and "no such file" not in result.stderr
    assert result.stderr.strip() == (f"compat: cannot check {tmp_path}: it is a directory, not a script "
                                     "(name the .py file in it)")


def test_random_bytes_as_a_script_name_the_file_and_line(tmp_path: Path) -> None:
    script = tmp_path / "noise.py"
    script.write_bytes(bytes(np.random.default_rng(3).integers(0, 256, 300, dtype=np.uint8)))
    result = compat_cli("run", str(script), cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert f"{script}:1: syntax error" in result.stderr and "<unknown>" not in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
    report = compat_cli("check", str(script), cwd=tmp_path)  # a report: the line cannot be handled
    assert report.returncode == 1 and "Traceback" not in report.stderr
    assert "noise.py:1:0: unsupported: syntax error" in report.stdout and "<unknown>" not in report.stdout


def test_syntax_error_in_script_names_file_and_line(tmp_path: Path) -> None:
    # Python 2 is translated (tests/integration/test_compat_py2.py); a line that is not
    # Python 2 either is named, not the print statement before it.
    write(tmp_path / "old.py", """
        import numpy as np

        print "loss", 0.5
        loss = (0.5 +
    """)
    result = compat_cli("run", "old.py", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "old.py:4" in result.stderr and "loss = (0.5 +" in result.stderr
    assert "invalid as Python 3 and as Python 2" in result.stderr


@pytest.mark.parametrize("argv, status, stream, text", [
    ((), 2, "stderr", "no command given"),
    (("frobnicate", "x.py"), 2, "stderr", "unknown command 'frobnicate'"),
    (("run",), 2, "stderr", "run: no script given"),
    (("check", "a.py", "b.py"), 2, "stderr", "exactly one script"),
    (("--help",), 0, "stdout", "python -m compat run [--py2] [--allow-pickle] [--legacy-package NAME ...] SCRIPT"),
    (("run", "--help"), 0, "stdout", "python -m compat check [--py2] SCRIPT"),
])
def test_usage(tmp_path: Path, argv: tuple[str, ...], status: int, stream: str, text: str) -> None:
    result = compat_cli(*argv, cwd=tmp_path)
    assert result.returncode == status
    assert text in getattr(result, stream)


# --------------------------------------------------------------------------
# A legacy script with a bit of everything (one TensorFlow subprocess)
# --------------------------------------------------------------------------

FEATURES_MAIN = '''
    # -*- coding: utf-8 -*-
    import sys
    import numpy as np
    import tensorflow as tf
    import tensorflow.contrib.data as contrib_data
    from tensorflow.contrib.data import unbatch
    from tensorflow import Session
    from scipy import misc
    import scipy.misc

    import compat
    import helpers
    from pkg import sub
    import thirdparty

    print("argv", sys.argv[1:], "name", __name__, "path0", sys.path[0] == helpers.HERE)
    print("own compat", compat.MINE)
    print("real tensorflow elsewhere", sys.modules["tensorflow"] is not tf, thirdparty.sees_tf2())
    a = np.arange(6, dtype=np.uint8).reshape(2, 3)
    print("roundtrip", helpers.decode(helpers.encode(a)).tolist(), sub.floats())
    print("py2", list(xrange(3)), sys.maxint == sys.maxsize, sorted({"k": 1}.iteritems()),
          {"k": 1}.has_key("k"), isinstance(u"x", basestring), np.NaN != np.NaN)
    print("renamed", tf.pack is tf.stack, tf.unpack is tf.unstack, tf.mul is tf.multiply,
          tf.select is tf.where, hasattr(tf.image, "resize_images"), hasattr(tf.python_io, "TFRecordWriter"),
          hasattr(tf.gfile, "Glob"), tf.contrib.data is contrib_data, unbatch is contrib_data.unbatch)

    def parse(x):
        # Traced as written (no AutoGraph), so the rewritten iteritems() works here too.
        features = {"a": x, "b": x * 2}
        return tf.pack([value for key, value in sorted(features.iteritems())])

    ds = tf.data.Dataset.range(8)
    pipelines = {
        "map_py2": tf.data.Dataset.range(3).map(parse),
        "unbatch": tf.data.Dataset.from_tensor_slices([[0, 1], [2, 3]]).apply(tf.contrib.data.unbatch()),
        "map_and_batch": ds.apply(tf.contrib.data.map_and_batch(lambda x: x * 10, 3)),
        "drop_remainder": ds.apply(tf.contrib.data.batch_and_drop_remainder(3)),
        "shuffle_and_repeat": ds.apply(tf.contrib.data.shuffle_and_repeat(8, count=2, seed=1)),
        "interleave": tf.data.Dataset.range(2).apply(tf.contrib.data.parallel_interleave(
            lambda x: tf.data.Dataset.from_tensors(x).repeat(3), cycle_length=2)),
    }
    with Session() as sess:
        for name, dataset in sorted(pipelines.items()):
            get_next = dataset.make_one_shot_iterator().get_next()
            values = []
            try:
                while True:
                    values.append(np.asarray(sess.run(get_next)).tolist())
            except tf.errors.OutOfRangeError:
                pass
            if name == "shuffle_and_repeat":
                values = [sorted(values[:8]), sorted(values[8:])]
            print(name, values)
        print("concat", sess.run(tf.concat(0, [[1], [2]])).tolist(),
              sess.run(tf.concat([[3], [4]], 0)).tolist())
    print("misc", misc.imresize(np.arange(16, dtype=np.uint8).reshape(4, 4), (2, 2)).shape,
          scipy.misc.bytescale is misc.bytescale)
    sys.exit(3)
'''


@pytest.mark.timeout(150)
def test_a_legacy_script_runs_unchanged(tmp_path: Path) -> None:
    project = tmp_path / "project"
    write(project / "main.py", FEATURES_MAIN)
    write(project / "helpers.py", """
        import os
        import numpy as np
        HERE = os.path.dirname(os.path.abspath(__file__))

        def encode(a):
            return a.tostring()

        def decode(s):
            return np.fromstring(s, dtype=np.uint8).reshape(2, 3)
    """)
    write(project / "pkg" / "__init__.py", "")
    write(project / "pkg" / "sub.py", """
        import numpy
        from . import helper_of_sub

        def floats():
            return [numpy.float(1), helper_of_sub.ONE]
    """)
    write(project / "pkg" / "helper_of_sub.py", "ONE = long(1)\n")
    write(project / "compat.py", "MINE = 'yes'\n")
    # An installed library (below site-packages) on PYTHONPATH: not the script's own code,
    # so it sees TensorFlow 2 (a plain PYTHONPATH folder would count as the user's code).
    site = tmp_path / "env" / "lib" / "site-packages"
    write(site / "thirdparty.py", """
        import tensorflow as tf

        def sees_tf2():
            return hasattr(tf, "function") and not hasattr(tf, "Session")
    """)
    result = compat_cli("run", str(project / "main.py"), "--epochs", "2", cwd=tmp_path,
                        extra_path=site)
    assert result.returncode == 3, result.stderr[-4000:]
    lines = result.stdout.splitlines()
    assert lines == [
        "argv ['--epochs', '2'] name __main__ path0 True",
        "own compat yes",
        "real tensorflow elsewhere True True",
        "roundtrip [[0, 1, 2], [3, 4, 5]] [1.0, 1]",
        "py2 [0, 1, 2] True [('k', 1)] True True True",
        "renamed True True True True True True True True True",
        "drop_remainder [[0, 1, 2], [3, 4, 5]]",
        "interleave [0, 1, 0, 1, 0, 1]",
        "map_and_batch [[0, 10, 20], [30, 40, 50], [60, 70]]",
        "map_py2 [[0, 0], [1, 2], [2, 4]]",
        "shuffle_and_repeat [[0, 1, 2, 3, 4, 5, 6, 7], [0, 1, 2, 3, 4, 5, 6, 7]]",
        "unbatch [0, 1, 2, 3]",
        "concat [1, 2] [3, 4]",
        "misc (2, 2) True",
    ]


@pytest.mark.timeout(150)
def test_failures_name_the_construct_file_and_line(tmp_path: Path) -> None:
    write(tmp_path / "main.py", """
        import tensorflow as tf
        try:
            from tensorflow.contrib import timeseries
        except ImportError as exc:
            print("import:", exc)
        try:
            import tensorflow.contrib.tensor_forest
        except ImportError as exc:
            print("import:", exc)
        try:
            from scipy.misc import face
        except ImportError as exc:
            print("scipy:", exc)
        import py2_module
    """)
    write(tmp_path / "py2_module.py", """
        def report(loss):
            print "loss", loss
            return loss +
    """)
    result = compat_cli("run", "main.py", cwd=tmp_path)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("import: tf.contrib.timeseries is not provided") and "statsmodels" in lines[0]
    assert any(line.startswith("import: tf.contrib.tensor_forest is not provided")
               and "tensorflow_decision_forests" in line for line in lines), lines
    assert lines[2].startswith("scipy:") and "scipy.datasets.face()" in lines[2]
    # Named before running, and again when the import fails: the line that is
    # not Python 2 either (the print statement alone would be translated).
    assert "warning: py2_module.py:3" in result.stderr
    assert "Traceback" in result.stderr
    assert "compat: py2_module.py:3:" in result.stderr
    assert "invalid as Python 3 and as Python 2" in result.stderr


@pytest.mark.timeout(150)
def test_uncaught_contrib_attribute_error_exits_1_with_traceback(tmp_path: Path) -> None:
    write(tmp_path / "train.py", """
        import tensorflow as tf

        def build():
            return tf.contrib.timeseries.ARModel

        build()
    """)
    result = compat_cli("run", "train.py", cwd=tmp_path)
    assert result.returncode == 1
    assert 'File "' in result.stderr and "train.py\", line 4, in build" in result.stderr
    frames = result.stderr.split("Traceback", 1)[1].split("LegacyAPIError")[0]
    assert "runner.py" not in frames
    assert "tf1.py" not in frames, "the refusing stub's own frame adds nothing to the message"
    file_lines = [line for line in frames.splitlines() if line.strip().startswith('File "')]
    assert file_lines[-1].endswith('train.py", line 4, in build'), file_lines
    assert "disable_resource_variables" not in result.stderr, "the runner's own call is not the script's"
    assert not any(startup_log.is_startup_line(line) for line in result.stderr.splitlines())
    assert "compat: train.py:4: tf.contrib.timeseries is not provided" in result.stderr
    assert "tf.keras sequence models or the statsmodels package" in result.stderr


@pytest.mark.timeout(150)
def test_refused_import_traceback_ends_at_the_scripts_line(tmp_path: Path) -> None:
    write(tmp_path / "old.py", """
        import numpy
        import tensorflow.contrib.timeseries as ts
    """)
    result = compat_cli("run", "old.py", cwd=tmp_path)
    assert result.returncode == 1
    frames = result.stderr.split("Traceback", 1)[1].split("LegacyImportError")[0]
    file_lines = [line for line in frames.splitlines() if line.strip().startswith('File "')]
    assert len(file_lines) == 1 and file_lines[0].endswith('old.py", line 2, in <module>'), frames
    assert "compat: old.py:2: tf.contrib.timeseries is not provided" in result.stderr


# --------------------------------------------------------------------------
# The rewrite, in process
# --------------------------------------------------------------------------

def rewritten(source: str) -> tuple[str, rewrite.TransformResult]:
    result = rewrite.transform(ast.parse(textwrap.dedent(source).lstrip("\n")))
    return ast.unparse(result.tree), result


def run_rewritten(source: str, helpers: rewrite.LegacyHelpers, **names: object) -> dict:
    code, result = rewrite.compile_legacy(textwrap.dedent(source).lstrip("\n"), "<legacy>")
    namespace: dict = {"__name__": "legacy", **names, **rewrite.injected_globals(result, helpers)}
    exec(code, namespace)
    return namespace


@pytest.fixture
def helpers() -> rewrite.LegacyHelpers:
    fake_tf1 = types.ModuleType("tensorflow")
    return rewrite.LegacyHelpers(lambda: fake_tf1, numpy_legacy)


def test_rewrite_keeps_lines_and_reports_changes() -> None:
    text, result = rewritten("""
        import numpy as np
        import tensorflow as tf
        x = np.zeros(3)
        s = x.tostring()
        y = np.fromstring(s, dtype=np.float64)
        for i in xrange(2):
            pass
    """)
    assert "tf = __compat__.tf1(tf)" in text
    assert "__compat__.tostring(x)" in text
    assert "__compat__.fromstring(s, dtype=np.float64)" in text
    assert [(c.line, c.status) for c in result.changes] == [
        (2, "rewritten"), (4, "rewritten"), (5, "rewritten"), (6, "bridged")]
    assert result.py2_names == {"xrange"}


def test_rewrite_leaves_modern_and_shadowed_code_alone() -> None:
    source = """
        import tensorflow.compat.v1 as tf
        import numpy as np
        xrange = range
        b = np.frombuffer(b"ab", dtype=np.uint8)
        print(np.float32, np.bool)
    """
    text, result = rewritten(source)
    assert result.changes == [] and result.py2_names == set()
    assert "__compat__" not in text


def test_fromstring_imported_by_name(helpers: rewrite.LegacyHelpers) -> None:
    namespace = run_rewritten("""
        from numpy import fromstring as fs
        out = fs(b"\\x01\\x02", dtype="uint8")
    """, helpers)
    assert namespace["out"].tolist() == [1, 2] and namespace["out"].flags.writeable


def test_tostring_dispatch(helpers: rewrite.LegacyHelpers) -> None:
    class OwnTostring:
        def tostring(self, suffix=""):
            return "own" + suffix

    namespace = run_rewritten("""
        a = arr.tostring()
        f = arr.tostring('F')
        o = own.tostring("!")
        b = buf.tostring()
    """, helpers, arr=np.arange(4, dtype=np.uint16).reshape(2, 2), own=OwnTostring(),
        buf=array.array("B", [1, 2]))
    assert namespace["a"] == np.arange(4, dtype=np.uint16).tobytes()
    assert namespace["f"] == np.arange(4, dtype=np.uint16).reshape(2, 2).tobytes(order="F")
    assert namespace["o"] == "own!"
    assert namespace["b"] == b"\x01\x02"


def test_python2_leftovers(helpers: rewrite.LegacyHelpers) -> None:
    class HasNext:
        def next(self):
            return "own next"

    namespace = run_rewritten("""
        import sys
        import cPickle as pickle
        from Queue import Queue
        import numpy as np
        d = {"a": 1}
        items = list(d.iteritems()), list(d.itervalues()), list(d.iterkeys()), d.has_key("a")
        nexts = iter([5]).next(), obj.next()
        values = list(xrange(2)), unicode("u"), long(2), reduce(lambda a, b: a + b, [1, 2]), sys.maxint
        numpy_names = np.float, np.int, np.NaN, np.Inf, np.product([2, 3]), np.asscalar(np.array([4]))
        q = Queue()
    """, helpers, obj=HasNext())
    assert namespace["items"] == ([("a", 1)], [1], ["a"], True)
    assert namespace["nexts"] == (5, "own next")
    assert namespace["values"] == ([0, 1], "u", 2, 3, sys.maxsize)
    numpy_names = namespace["numpy_names"]
    assert numpy_names[:2] == (float, int) and np.isnan(numpy_names[2]) and numpy_names[3] == np.inf
    assert numpy_names[4:] == (6, 4)
    assert namespace["pickle"].__name__ == "pickle"


def test_from_tensorflow_import_uses_the_tf1_namespace() -> None:
    namespace_module = types.ModuleType("tensorflow")
    namespace_module.Session = "v1 Session"
    helpers = rewrite.LegacyHelpers(lambda: namespace_module, numpy_legacy)
    namespace = run_rewritten("from tensorflow import Session as S\n", helpers)
    assert namespace["S"] == "v1 Session"
    with pytest.raises(ImportError, match="cannot import name 'nothing' from 'tensorflow'"):
        run_rewritten("from tensorflow import nothing\n", helpers)


@pytest.mark.parametrize("source, construct", [
    ('print "x"\n', "Python 2 print statement"),
    ("try:\n    pass\nexcept ValueError, e:\n    pass\n", "Python 2 except clause"),
    ("x = 0777\n", "Python 2 octal literal"),
    ("x = `1`\n", "Python 2 backquote"),
    ("if 1 <> 2:\n    pass\n", "Python 2 <> operator"),
    ("exec 'x = 1'\n", "Python 2 exec statement"),
    ("raise ValueError, 'bad'\n", "Python 2 raise statement"),
    ("def f(:\n", "syntax error"),
])
def test_syntax_errors_name_the_python2_construct(source: str, construct: str) -> None:
    # Without translation (python2=False); with it, these are translated (tests/integration/test_compat_py2.py).
    with pytest.raises(SyntaxError) as info:
        rewrite.compile_legacy(source, "old.py", python2=False)
    assert info.value.filename == "old.py"
    assert rewrite.describe_syntax_error(info.value).startswith(construct)


def test_local_scope(tmp_path: Path) -> None:
    scope = rewrite.LocalScope(tmp_path)
    assert scope.contains(tmp_path / "a.py")
    assert scope.contains(tmp_path / "pkg" / "b.py")
    assert not scope.contains(tmp_path / ".venv" / "lib" / "site-packages" / "numpy" / "core.py")
    assert not scope.contains(tmp_path.parent / "elsewhere.py")
    assert not scope.contains(Path(rewrite.__file__))
    assert scope.relative(tmp_path / "pkg" / "b.py") == os.path.join("pkg", "b.py")


# --------------------------------------------------------------------------
# The TF1 namespace and tf.contrib, in process
# --------------------------------------------------------------------------

def test_unknown_contrib_attributes_name_the_replacement() -> None:
    contrib = tf1.contrib_modules()["tensorflow.contrib"]
    with pytest.raises(AttributeError, match=r"tf\.contrib\.timeseries .*statsmodels"):
        contrib.timeseries  # noqa: B018
    with pytest.raises(tf1.LegacyAPIError, match=r"tf\.contrib\.nosuchthing .*no replacement is known"):
        contrib.nosuchthing  # noqa: B018
    assert not hasattr(contrib, "graph_editor")
    assert contrib.data.unbatch is tf1.unbatch
    assert tf1.removed_module_message("tensorflow.examples.tutorials.word2vec").endswith(
        "tf.keras.datasets (e.g. tf.keras.datasets.mnist.load_data())")
    assert tf1.removed_module_message("tensorflow.examples.tutorials.mnist.input_data") is None
    assert tf1.removed_module_message("tensorflow.python.ops") is None


def test_map_and_batch_rejects_both_parallelism_arguments() -> None:
    with pytest.raises(ValueError, match="not both"):
        tf1.map_and_batch(lambda x: x, 2, num_parallel_batches=1, num_parallel_calls=2)


def test_contrib_data_transformations_on_eager_datasets() -> None:
    import tensorflow as tf
    ds = tf.data.Dataset.range(7)
    assert [int(x) for x in ds.batch(2).apply(tf1.unbatch())] == list(range(7))
    assert [x.numpy().tolist() for x in ds.apply(tf1.batch_and_drop_remainder(3))] == [[0, 1, 2], [3, 4, 5]]
    assert [x.numpy().tolist() for x in ds.apply(tf1.map_and_batch(lambda x: x + 1, 4))] == [
        [1, 2, 3, 4], [5, 6, 7]]
    padded = tf.data.Dataset.from_tensor_slices([[1, 0], [2, 3]]).map(lambda x: x[: x[0]])
    assert [x.numpy().tolist() for x in padded.apply(tf1.padded_batch_and_drop_remainder(2, [3]))] == [
        [[1, 0, 0], [2, 3, 0]]]
    assert sorted(int(x) for x in ds.apply(tf1.shuffle_and_repeat(7, count=2))) == sorted(list(range(7)) * 2)


def test_tf1_namespace() -> None:
    ns = tf1.tf1_namespace()
    v1 = __import__("tensorflow").compat.v1
    assert ns.__name__ == "tensorflow"
    assert ns.Session is v1.Session and ns.python_io is v1.python_io and ns.gfile is v1.gfile
    assert ns.image.resize_bilinear is v1.image.resize_bilinear
    assert ns.pack is v1.stack and ns.sub is v1.subtract and ns.neg is v1.negative
    assert ns.train.SummaryWriter is v1.summary.FileWriter and ns.train.Saver is v1.train.Saver
    assert "contrib" in dir(ns) and "Session" in dir(ns)
    with pytest.raises(AttributeError, match="TF1 namespace"):
        ns.no_such_op  # noqa: B018
    assert tf1.tf1_namespace() is ns


def test_classify_tf_attribute() -> None:
    assert tf1.classify_tf_attribute(["float32"]) is None
    assert tf1.classify_tf_attribute(["train", "Example"]) is None
    assert tf1.classify_tf_attribute(["python_io", "TFRecordWriter"]).status == "compat.v1"
    assert tf1.classify_tf_attribute(["pack"]).status == "bridged"
    assert tf1.classify_tf_attribute(["contrib", "data", "map_and_batch"]).status == "bridged"
    assert tf1.classify_tf_attribute(["contrib", "data", "group_by_window"]).action.endswith(
        "tf.compat.v1.data.experimental.group_by_window")
    assert tf1.classify_tf_attribute(["contrib", "timeseries"]).status == "unsupported"
    assert tf1.classify_tf_attribute(["contrib", "rnn"]).status == "bridged"
    assert tf1.classify_tf_attribute(["no_such_thing"]).status == "unsupported"


# --------------------------------------------------------------------------
# Installation and exit codes, in process
# --------------------------------------------------------------------------

def test_install_and_uninstall(tmp_path: Path) -> None:
    write(tmp_path / "legacy_mod_for_install_test.py", """
        import numpy as np
        RAW = np.arange(3, dtype=np.uint8).tostring()
        LOOP = list(xrange(2))
    """)
    meta_path = list(sys.meta_path)
    had_contrib = "tensorflow.contrib" in sys.modules
    sys.path.insert(0, str(tmp_path))
    try:
        with runner.install(tmp_path) as installation:
            served_scipy_misc = next(f.module for f in installation.finders if isinstance(f, ScipyMiscFinder))
            import legacy_mod_for_install_test as mod
            assert mod.RAW == b"\x00\x01\x02" and mod.LOOP == [0, 1]
            assert isinstance(mod.__loader__, rewrite.LegacyLoader)
            assert sys.modules["tensorflow.contrib"] is tf1.contrib_modules()["tensorflow.contrib"]
            import scipy.misc
            assert scipy.misc is served_scipy_misc
            from compat.scipy_legacy import misc as served_misc
            assert scipy.misc.imresize is served_misc.imresize
            assert served_misc.imresize.__module__ == "tf1_pipelines.image.pilutil"
            with pytest.raises(AttributeError, match="matplotlib.pyplot.imshow"):
                scipy.misc.imshow  # noqa: B018
            assert not list(tmp_path.glob("__pycache__/*"))
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("legacy_mod_for_install_test", None)
    assert sys.meta_path == meta_path
    assert ("tensorflow.contrib" in sys.modules) == had_contrib
    assert sys.modules.get("scipy.misc") is not served_scipy_misc


@pytest.mark.parametrize("code, status", [(None, 0), (0, 0), (4, 4), ("fatal: bad", 1)])
def test_exit_codes_follow_python(code: object, status: int, capsys: pytest.CaptureFixture) -> None:
    assert runner._exit_code(SystemExit(code)) == status
    if isinstance(code, str):
        assert capsys.readouterr().err.strip() == code


def test_tf1_run_console_script_is_run(tmp_path: Path) -> None:
    executable = Path(sys.executable).parent / "tf1-run"
    if not executable.exists():
        pytest.skip("the tf1-run console script is not installed in this environment")
    result = subprocess.run([str(executable), "missing_script.py"], cwd=tmp_path, capture_output=True,
                            text=True, timeout=TIMEOUT)
    assert result.returncode == 2
    assert "cannot run missing_script.py: no such file" in result.stderr


def test_a_pseudo_file_is_never_the_scripts_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # "<frozen codecs>" would resolve to tmp_path/<frozen codecs>
    scope = rewrite.LocalScope(tmp_path)
    assert scope.contains(tmp_path / "module.py")
    assert not scope.contains("<frozen codecs>") and not scope.contains("<string>")
