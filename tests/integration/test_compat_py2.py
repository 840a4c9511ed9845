"""Python 2 code under the compat runner: translation, Python 2 semantics, threads, printing.

Subprocess tests run ``python -m compat run ...`` with a timeout; the others run
the translation and the runtime helpers in this process.
"""
from __future__ import annotations

import ast
import io
import os
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from helpers.scripts import write
from PIL import Image

from compat.checker import check
from compat.py2 import runtime as py2_runtime
from compat.py2 import translate as py2
from compat.runner import rewrite

TIMEOUT = 180


def compat_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="-1")
    return subprocess.run([sys.executable, "-m", "compat", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=TIMEOUT)


def tfrecords(path: Path) -> list[bytes]:
    """The records of a TFRecord file (length, CRC, data, CRC), read without TensorFlow."""
    data = path.read_bytes()
    records, offset = [], 0
    while offset < len(data):
        (length,) = struct.unpack_from("<Q", data, offset)
        records.append(data[offset + 12: offset + 12 + length])
        offset += 12 + length + 4
    return records


# --------------------------------------------------------------------------
# A Python 2 project: script, local modules, a converter with worker threads
# --------------------------------------------------------------------------

PY2_MAIN = '''
    import sys
    import numpy as np
    import tensorflow as tf
    import converter
    from true_div import ratio

    d = {"b": 2, "a": 1}
    for k, v in sorted(d.iteritems()):
        print k, v
    try:
        raise ValueError, "bad value"
    except ValueError, e:
        print "caught", e
    print unicode("abc") + u"def", 0755, 10L, `7`
    if 1 <> 2:
        print "ne"
    height, width, channels = 8, 6, 12
    channels /= 4
    print type(channels).__name__, channels, np.zeros((height, width, channels)).shape
    x = tf.placeholder(tf.float32, [None, height, width, channels])
    print x.get_shape().as_list(), x.get_shape()[1] / 2
    print 7 / 2, -7 / 2, 7.0 / 2, 7 / 2.0, np.int64(7) / 2, np.arange(5) / 2, np.arange(5) / 2.0
    with tf.Session() as sess:
        print sess.run(tf.constant([7, -7]) / tf.constant(2)), sess.run(tf.constant([7., -7.]) / 2)
    print ratio(7, 2), round(2.5), int(round(height * 0.3125))
    print ("tuple", 1)
    keys = d.keys()
    keys.sort()
    print keys, map(lambda v: v * 2, [1, 2]), zip([1], [2]), range(3)
    for line in open("table.csv", "r"):
        fields = line.strip().split(",")
        print fields
    print open("table.csv").read().decode("utf-8").split(",")[0], u"caf\xe9".encode("utf-8")
    converter.convert(sys.argv[1:], "images.tfrecords")
    print "Finished"
'''

# As Inception's build_image_data.py: JPEG bytes read in 'r' mode, in threads.
PY2_CONVERTER = '''
    import threading
    import tensorflow as tf


    def _bytes_feature(value):
        return tf.train.Feature(bytes_list=tf.train.BytesList(value=[value]))


    def _process_image_files(thread_index, filenames, results):
        for filename in filenames:
            with tf.gfile.FastGFile(filename, 'r') as f:
                image_data = f.read()
            results[filename] = image_data


    def convert(filenames, output_file):
        results = {}
        half = len(filenames) / 2
        threads = []
        for thread_index, chunk in enumerate([filenames[:half], filenames[half:]]):
            t = threading.Thread(target=_process_image_files, args=(thread_index, chunk, results))
            t.start()
            threads.append(t)
        for t in threads:
            t.join()
        writer = tf.python_io.TFRecordWriter(output_file)
        for filename in filenames:
            writer.write(results[filename])
        writer.close()
        print 'Wrote %d images to %s' % (len(results), output_file)
'''

PY2_TRUE_DIV = '''
    from __future__ import division


    def ratio(a, b):
        return a / b


    def debug(a):
        print "ratio", a
'''


def make_jpegs(folder: Path, count: int) -> list[str]:
    rng = np.random.default_rng(0)
    names = []
    for index in range(count):
        pixels = rng.integers(0, 256, size=(16, 16, 3), dtype=np.uint8)
        name = f"img{index}.jpg"
        Image.fromarray(pixels).save(folder / name, format="JPEG", quality=90)
        names.append(name)
    return names


@pytest.mark.timeout(240)
def test_python2_project_runs_unchanged(tmp_path: Path) -> None:
    write(tmp_path / "train.py", PY2_MAIN)
    write(tmp_path / "converter.py", PY2_CONVERTER)
    write(tmp_path / "true_div.py", PY2_TRUE_DIV)
    (tmp_path / "table.csv").write_text("a,1\nb,2\n")
    names = make_jpegs(tmp_path, 4)
    result = compat_cli("run", "train.py", *names, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    expected = [
        "a 1", "b 2",
        "caught bad value",
        f"abcdef {0o755} 10 7",
        "ne",
        f"int {12 // 4} (8, 6, 3)",
        f"[None, 8, 6, 3] {8 // 2}",
        f"{7 // 2} {-7 // 2} {7.0 / 2} {7 / 2.0} {7 // 2} {np.arange(5) // 2} {np.arange(5) / 2.0}",
        f"{np.array([7, -7]) // 2} {np.array([7.0, -7.0]) / 2}",
        f"{7 / 2} 3.0 3",
        "('tuple', 1)",
        "['a', 'b'] [2, 4] [(1, 2)] [0, 1, 2]",
        "['a', '1']", "['b', '2']",
        "a café",
        "Wrote 4 images to images.tfrecords",
        "Finished",
    ]
    assert result.stdout.splitlines() == expected, result.stderr[-3000:]
    # Each record holds exactly the bytes of its JPEG file (read in 'r' mode by Python 2 code).
    assert tfrecords(tmp_path / "images.tfrecords") == [(tmp_path / n).read_bytes() for n in names]


# --------------------------------------------------------------------------
# Threads
# --------------------------------------------------------------------------

@pytest.mark.timeout(240)
def test_exception_in_a_thread_fails_the_run_with_its_traceback(tmp_path: Path) -> None:
    write(tmp_path / "main.py", """
        import threading
        import worker

        t = threading.Thread(target=worker.work, args=([1, 2],))
        t.start()
        t.join()
        print "Finished"
    """)
    # fissix adds `from functools import reduce` at the top: the traceback keeps the file's lines.
    write(tmp_path / "worker.py", """
        def work(values):
            total = reduce(lambda a, b: a + b, values)
            print "total", total
            raise IOError, "disk full"
    """)
    result = compat_cli("run", "main.py", cwd=tmp_path)
    assert result.stdout.splitlines() == ["total 3", "Finished"]
    assert result.returncode == 1, result.stderr[-3000:]
    assert "Exception in thread" in result.stderr
    assert f'File "{tmp_path / "worker.py"}", line 4, in work' in result.stderr
    assert "OSError: disk full" in result.stderr
    assert "uncaught exception in thread" in result.stderr


@pytest.mark.timeout(240)
def test_exception_in_a_thread_that_outlives_the_main_thread_fails_the_run(tmp_path: Path) -> None:
    write(tmp_path / "main.py", """
        import threading
        import time
        from concurrent.futures import ThreadPoolExecutor

        def late():
            time.sleep(1.0)
            raise KeyError("late")

        pool = ThreadPoolExecutor(2)  # never shut down: Python's exit does it
        print(pool.submit(lambda: 7 * 6).result())
        threading.Thread(target=late).start()
        print("main done")
    """)
    result = compat_cli("run", "main.py", cwd=tmp_path)
    assert result.stdout.splitlines() == ["42", "main done"]
    assert result.returncode == 1, result.stderr[-3000:]
    assert f'File "{tmp_path / "main.py"}", line 7, in late' in result.stderr
    assert "KeyError: 'late'" in result.stderr
    assert "uncaught exception in thread" in result.stderr


@pytest.mark.timeout(300)
def test_a_cancelled_input_thread_after_the_session_closed_is_not_a_failure(tmp_path: Path) -> None:
    """A 2016 feeder thread cancelled by the session's close: TF 1.x exited 0; run twice (timing decides)."""
    write(tmp_path / "feed.py", """
        import threading
        import tensorflow as tf

        value = tf.placeholder(tf.int32, shape=[])
        queue = tf.FIFOQueue(capacity=4, dtypes=[tf.int32], shapes=[[]])
        enqueue = queue.enqueue([value * 3])
        batch = queue.dequeue_many(2)

        def feed(sess):
            i = 0
            while True:
                sess.run(enqueue, feed_dict={value: i})
                i += 1

        sess = tf.Session()
        feeder = threading.Thread(target=feed, args=(sess,))
        feeder.start()
        print(list(sess.run(batch)), list(sess.run(batch)))
        sess.close()
        feeder.join()
        print("closed")
    """)
    for _ in range(2):
        result = compat_cli("run", "feed.py", cwd=tmp_path)
        assert result.returncode == 0, result.stderr[-3000:]
        assert result.stdout.splitlines() == ["[0, 3] [6, 9]", "closed"]
        assert "normal end of a TF1 input thread" in result.stderr
        assert "uncaught exception in thread" not in result.stderr


@pytest.mark.timeout(300)
def test_the_same_error_before_any_close_still_fails_the_run(tmp_path: Path) -> None:
    write(tmp_path / "early.py", """
        import threading
        import tensorflow as tf

        def work():
            raise tf.errors.CancelledError(None, None, "cancelled by hand")

        t = threading.Thread(target=work)
        t.start()
        t.join()
        print("main done")
    """)
    result = compat_cli("run", "early.py", cwd=tmp_path)
    assert result.stdout.splitlines() == ["main done"]
    assert result.returncode == 1, result.stderr[-3000:]
    assert "uncaught exception in thread" in result.stderr


def test_a_python2_script_in_a_package_folder_keeps_its_sibling_imports_absolute(tmp_path: Path) -> None:
    """``compat run real_nvp/main.py`` where real_nvp/ has __init__.py: 2to3 would make the import relative."""
    folder = tmp_path / "real_nvp"
    write(folder / "__init__.py", "")
    write(folder / "nvp_utils.py", """
        from nvp_layers import factor
        def scale(x):
            return x * factor
    """)
    write(folder / "nvp_layers.py", "factor = 3\n")
    write(folder / "nvp_main.py", """
        from nvp_utils import scale
        print "scaled", scale(14)
    """)
    result = compat_cli("run", "real_nvp/nvp_main.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.splitlines() == ["scaled 42"]
    assert py2.translate("from nvp_utils import scale\n", str(folder / "x.py")).source.startswith("from .nvp_utils")
    assert py2.translate("from nvp_utils import scale\n", str(folder / "x.py"),
                         top_level=True).source.startswith("from nvp_utils")


# --------------------------------------------------------------------------
# Python 3 code is left alone; --py2 forces Python 2; NumPy 1 printing
# --------------------------------------------------------------------------

PY3_MAIN = '''
    import sys
    import numpy as np
    from halves import half

    print(7 / 2, half(5))
    with open("table.csv", "r") as f:
        print(type(f.read()).__name__)
    print([np.int64(0), np.float64(0.5), np.bool_(True)], (np.float32(1.5),))
    print("fissix" in sys.modules)
'''


@pytest.mark.timeout(300)
def test_python3_code_is_untouched_and_py2_flag_translates_it(tmp_path: Path) -> None:
    write(tmp_path / "main.py", PY3_MAIN)
    write(tmp_path / "halves.py", "def half(n):\n    return n / 2\n")
    (tmp_path / "table.csv").write_text("a,1\n")
    plain = compat_cli("run", "main.py", cwd=tmp_path)
    assert plain.returncode == 0, plain.stderr[-3000:]
    # True division stays true, fissix is not even imported; NumPy scalars print as NumPy 1 did.
    assert plain.stdout.splitlines() == [f"{7 / 2} {5 / 2}", "str", "[0, 0.5, True] (1.5,)", "False"]
    forced = compat_cli("run", "--py2", "main.py", cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr[-3000:]
    # As Python 2: `/` floors, and print(a, b) without print_function prints the tuple.
    assert forced.stdout.splitlines() == [f"({7 // 2}, {5 // 2})", "str", "([0, 0.5, True], (1.5,))",
                                          "True"]


# --------------------------------------------------------------------------
# The check report
# --------------------------------------------------------------------------

def test_check_lists_every_python2_construct_with_its_line(tmp_path: Path) -> None:
    write(tmp_path / "old.py", """
        import cPickle
        d = {}
        for k, v in d.iteritems():
            print k, v
        try:
            x = 0777 + 10L
        except ValueError, e:
            raise RuntimeError, "bad"
        y = `x` if 1 <> 2 else unicode(x)
        n = len(d) / 2
        exec "z = 1"
        m = map(str, d.keys())
        import helper
    """)
    write(tmp_path / "helper.py", "def order(x, f):\n    print x\n    return sorted(x, cmp=f)\n")
    report = check.check_script(tmp_path / "old.py")
    found = {(f.path, f.line, f.construct.split(" (")[0], f.status) for f in report.findings}
    expected = {
        ("old.py", 1, "renamed Python 2 standard module", "rewritten"),
        ("old.py", 3, "d.iteritems()", "rewritten"),
        ("old.py", 4, "Python 2 print statement", "rewritten"),
        ("old.py", 6, "Python 2 octal or long literal", "rewritten"),
        ("old.py", 7, "Python 2 except clause", "rewritten"),
        ("old.py", 8, "Python 2 raise statement", "rewritten"),
        ("old.py", 9, "Python 2 backquote repr", "rewritten"),
        ("old.py", 9, "Python 2 <> operator", "rewritten"),
        ("old.py", 9, "Python 2 unicode / unichr / u'' literal", "rewritten"),
        ("old.py", 10, "len(d) / 2", "rewritten"),
        ("old.py", 11, "Python 2 exec statement", "rewritten"),
        ("old.py", 12, "map() used as a list", "rewritten"),
        ("old.py", 12, "dict.keys()/items()/values() used as a list", "rewritten"),
        ("helper.py", 2, "Python 2 print statement", "rewritten"),
        ("helper.py", 3, "sorted(x, cmp=f)", "unsupported"),
    }
    assert found == expected, report.format()
    text = report.format()
    assert "old.py:4:4: rewritten: Python 2 print statement -> translated (fissix fix_print)" in text
    assert "old.py:10:4: rewritten: len(d) / 2 -> Python 2 division" in text
    assert [f.construct for f in report.unsupported] == ["sorted(x, cmp=f)"]


def test_check_with_py2_reports_division_in_valid_python3(tmp_path: Path) -> None:
    write(tmp_path / "halves.py", "def half(n):\n    return n / 2\n")
    assert check.check_script(tmp_path / "halves.py").findings == []
    forced = check.check_script(tmp_path / "halves.py", python2=True)
    assert [(f.line, f.construct, f.status) for f in forced.findings] == [(2, "n / 2", "rewritten")]


# --------------------------------------------------------------------------
# Recognition and translation, in process
# --------------------------------------------------------------------------

def markers(source: str) -> list[tuple[int, str]]:
    tree = ast.parse(textwrap.dedent(source))
    return py2.python2_markers(tree, rewrite.module_bindings(tree).bound)


def test_python2_markers_ignore_code_written_for_both() -> None:
    assert markers("for i in xrange(3):\n    pass\n") == [(1, "xrange")]
    assert markers("import cPickle\nx = d.iteritems()\ny = sys.maxint\n") == [
        (1, "import cPickle"), (2, ".iteritems()"), (3, "sys.maxint")]
    both = """
        import sys
        try:
            import cPickle as pickle
        except ImportError:
            import pickle
        if sys.version_info[0] < 3:
            text = unicode("x")
        def xrange(n):
            return range(n)
        for i in xrange(3):
            print(7 / 2)
    """
    assert markers(both) == []


def test_translation_keeps_the_original_line_numbers() -> None:
    source = 'import sys\n\ndef f(values):\n    print "x"\n    return reduce(max, values) / 0\n'
    code, result = rewrite.compile_legacy(source, "old.py")
    assert result.python2
    namespace = {**rewrite.injected_globals(result, helpers()), "__name__": "old"}
    exec(code, namespace)
    with pytest.raises(ZeroDivisionError) as info:
        namespace["f"]([1, 2])
    lines = [entry.lineno + 1 for entry in info.traceback if str(entry.path) == "old.py"]
    assert lines == [5]  # pytest's lineno is 0-based
    assert "fissix" in sys.modules


def helpers() -> rewrite.LegacyHelpers:
    from compat.numpy1 import bytes_helpers as numpy_legacy
    return rewrite.LegacyHelpers(lambda: None, numpy_legacy)  # type: ignore[arg-type,return-value]


def test_untranslatable_module_stays_a_syntax_error_at_its_line() -> None:
    with pytest.raises(SyntaxError) as info:
        rewrite.compile_legacy('print "a"\nx = (1 +\n', "old.py")
    assert info.value.lineno == 2 and info.value.filename == "old.py"
    assert "EOF in multi-line statement" in info.value.msg
    assert rewrite.describe_syntax_error(info.value).startswith("syntax error (invalid as Python 3 and")


def test_print_of_a_tuple_prints_the_tuple_unless_print_function_is_imported() -> None:
    assert "print ((1, 2))" in py2.translate('print (1, 2)\n', "a.py").source
    translated = py2.translate('from __future__ import print_function\nprint (1, 2)\n', "b.py")
    assert translated.source.endswith("print (1, 2)\n") and not translated.fixes


def test_valid_python3_with_python2_leftovers_keeps_print_a_function() -> None:
    # Python 2 by its xrange only: the print(...) call is the Python 3 function.
    leftovers = 'for i in xrange(1):\n    print("step", i)\n'
    tree, translation = rewrite.parse_legacy(leftovers, "c.py")
    assert translation is not None and "range(1)" in translation.source
    assert 'print("step", i)' in translation.source
    # The same file declared Python 2 (--py2): the statement printed the tuple.
    tree, forced = rewrite.parse_legacy(leftovers, "c.py", python2=True)
    assert forced is not None and 'print(("step", i))' in forced.source
    # A module that is not Python 3 (a print statement elsewhere) keeps the tuple.
    tree, statement = rewrite.parse_legacy('print "x"\n' + leftovers, "d.py")
    assert statement is not None and 'print(("step", i))' in statement.source


# --------------------------------------------------------------------------
# Runtime semantics, in process
# --------------------------------------------------------------------------

class Legacy:
    """A Python 2 class with classic division."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __div__(self, other: int) -> Legacy:
        return Legacy(self.value * 100 + other)


def test_division_as_python2() -> None:
    assert py2_runtime.div(7, 2) == 3 and type(py2_runtime.div(7, 2)) is int
    assert py2_runtime.div(-7, 2) == -4
    assert py2_runtime.div(7.0, 2) == 3.5 and py2_runtime.div(7, 2.0) == 3.5
    assert py2_runtime.div(True, 2) == 0
    value = py2_runtime.div(np.int64(7), 2)
    assert value == 3 and isinstance(value, np.integer)
    np.testing.assert_array_equal(py2_runtime.div(np.arange(-3, 4), 2), np.arange(-3, 4) // 2)
    np.testing.assert_array_equal(py2_runtime.div(np.arange(4), 2.0), np.arange(4) / 2.0)
    np.testing.assert_array_equal(py2_runtime.div(np.arange(4.0), 2), np.arange(4.0) / 2)
    assert py2_runtime.div(Legacy(1), 5).value == 105
    with pytest.raises(ZeroDivisionError):
        py2_runtime.div(1, 0)


def test_in_place_division_as_python2() -> None:
    ints = np.array([7, 9, -7])
    alias = ints
    assert py2_runtime.idiv(ints, 2) is alias
    np.testing.assert_array_equal(alias, [3, 4, -4])
    floats = np.array([1.0, 3.0])
    assert py2_runtime.idiv(floats, 2) is floats
    np.testing.assert_array_equal(floats, [0.5, 1.5])
    grid = np.arange(6).reshape(2, 3)
    py2_runtime.idiv_item(grid, (slice(None), 0), 2)
    np.testing.assert_array_equal(grid[:, 0], [0, 1])

    class Box:
        size = 9
    box = Box()
    py2_runtime.idiv_attr(box, "size", 2)
    assert box.size == 4


def test_text_mode_reads_give_text_or_bytes_losslessly(tmp_path: Path) -> None:
    text_file = tmp_path / "t.csv"
    text_file.write_bytes("a,é\r\nb,2\n".encode())
    jpeg = tmp_path / "x.jpg"
    Image.new("RGB", (4, 4), (250, 10, 10)).save(jpeg, format="JPEG")
    with py2_runtime.open_py2(str(text_file), "r") as f:
        lines = list(f)
    assert lines == ["a,é\r\n", "b,2\n"]  # Python 2 on Linux translated no newline
    assert "".join(lines).encode("utf-8") == text_file.read_bytes()
    with py2_runtime.open_py2(str(jpeg)) as f:
        assert f.read() == jpeg.read_bytes()
    with py2_runtime.open_py2(str(tmp_path / "copy.jpg"), "w") as out:
        out.write(jpeg.read_bytes())
        out.write("tail")
    assert (tmp_path / "copy.jpg").read_bytes() == jpeg.read_bytes() + b"tail"
    opened: list[str] = []

    def factory(name: str, mode: str) -> io.BytesIO | io.StringIO:
        opened.append(mode)
        data = Path(name).read_bytes()
        return io.BytesIO(data) if "b" in mode else io.StringIO(data.decode("utf-8"))
    assert py2_runtime.gfile(factory, str(jpeg), "r").read() == jpeg.read_bytes()
    assert py2_runtime.gfile(factory, str(text_file), "r").read() == "a,é\r\nb,2\n"
    assert py2_runtime.gfile(factory, str(jpeg), "rb").read() == jpeg.read_bytes()
    assert opened == ["rb", "rb", "rb", "r", "rb"]


def test_str_decode_and_bytes_encode_as_python2() -> None:
    assert py2_runtime.decode("café", "utf-8") == "café"
    assert py2_runtime.decode("café", "latin-1") == "cafÃ©"  # its UTF-8 bytes, as Python 2
    assert py2_runtime.decode(b"caf\xc3\xa9", "utf-8") == "café"
    assert py2_runtime.encode(b"abc", "utf-8") == b"abc"
    assert py2_runtime.encode("café", "utf-8") == "café".encode()

    class Tokenizer:
        def decode(self, ids: list[int]) -> str:
            return "-".join(map(str, ids))
    assert py2_runtime.decode(Tokenizer(), [1, 2]) == "1-2"


def test_round_as_python2() -> None:
    # Python 2.7: round(2.5) == 3.0, round(-0.5) == -1.0, round(2.675, 2) == 2.67 (binary value),
    # round(1234.5, -1) == 1230.0, round(25, -1) == 30.0; Python 3 gives 2, 0, 2.67, 1234.0, 20.
    cases = [((2.5,), 3.0), ((-0.5,), -1.0), ((0.5,), 1.0), ((2.675, 2), 2.67), ((1234.5, -1), 1230.0),
             ((25, -1), 30.0), ((np.float32(1.5),), 2.0), ((7,), 7.0), ((-2.5,), -3.0)]
    for args, expected in cases:
        value = py2_runtime.round_py2(*args)
        assert value == expected and type(value) is float, (args, value)


def test_print_writes_bytes_as_python2_did(capsys: pytest.CaptureFixture[str]) -> None:
    py2_runtime.print_py2(b"caf\xc3\xa9", 1, sep="|")
    assert capsys.readouterr().out == "café|1\n"
    binary = io.BytesIO()
    py2_runtime.print_py2("x", b"y", file=binary)
    assert binary.getvalue() == b"x y\n"


def test_str_in_protobuf_bytes_fields_is_stored_as_its_utf8_bytes() -> None:
    # pointer-generator's and im2txt's Python 2 converters: BytesList(value=[str]), .bytes_list.value.extend/append.
    from tensorflow.core.example import example_pb2
    source = textwrap.dedent("""\
        from tensorflow.core.example import example_pb2, feature_pb2
        def convert(article, words, label):
            ex = example_pb2.Example()
            ex.features.feature['article'].bytes_list.value.extend([article])
            ex.features.feature['label'].bytes_list.value.append(label)
            ex.features.feature['words'].CopyFrom(feature_pb2.Feature(
                bytes_list=feature_pb2.BytesList(value=[w for w in words])))
            ex.features.feature['chars'].bytes_list.value.extend('ab')
            ex.features.feature['n'].int64_list.value.extend([len(words)])
            print "converted", label
            return ex.SerializeToString()
        """)
    code, result = rewrite.compile_legacy(source, "convert.py")
    assert result.python2
    assert sum("protobuf bytes field" in c.action for c in result.changes) == 4
    namespace = {**rewrite.injected_globals(result, helpers()), "__name__": "convert"}
    exec(code, namespace)
    data = namespace["convert"]("la café", ["a", b"b", "é"], "1")
    feature = example_pb2.Example.FromString(data).features.feature
    assert list(feature["article"].bytes_list.value) == ["la café".encode()]
    assert list(feature["label"].bytes_list.value) == [b"1"]
    assert list(feature["words"].bytes_list.value) == [b"a", b"b", "é".encode()]
    assert list(feature["chars"].bytes_list.value) == [b"a", b"b"]  # Python 2: a str is a sequence of str
    assert list(feature["n"].int64_list.value) == [3]


def test_bytes_field_helpers_leave_other_values_to_protobuf() -> None:
    assert py2_runtime.bytes_value("é") == b"\xc3\xa9" and py2_runtime.bytes_value(b"x") == b"x"
    assert py2_runtime.bytes_value(3) == 3
    assert py2_runtime.bytes_values(b"ab") == b"ab" and py2_runtime.bytes_values(5) == 5
    assert py2_runtime.bytes_values("é") == [b"\xc3", b"\xa9"]
    assert py2_runtime.bytes_values(("a", np.str_("b"))) == [b"a", b"b"]
