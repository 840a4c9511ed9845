"""Python's behaviour changes under unchanged names, for the script's own code: PEP 479 generators,
``async``/``await`` as names, mixed tabs and spaces in Python 2 blocks, and Python 2 text where
TensorFlow hands over strings. Each is compiled through the runner's rewrite (``compile_legacy``)
and run in process; values are checked against what Python 2 / Python 3.6 gave (pure Python)."""
from __future__ import annotations

import ast
import collections
import random
import textwrap
from typing import Any

import numpy as np
import pytest
from tensorflow.core.example import example_pb2

from compat.numpy1 import bytes_helpers
from compat.py2 import tabs, text
from compat.runner import rewrite
from compat.stdlib import keywords

pytestmark = pytest.mark.timeout(60)


def run_legacy(source: str, python2: bool | None = False, **globals_: Any) -> dict[str, Any]:
    """Compile ``source`` as the runner does for one of the script's modules and run it; its globals."""
    code, result = rewrite.compile_legacy(textwrap.dedent(source).lstrip("\n"), "legacy_module.py",
                                          python2=python2)
    helpers = rewrite.LegacyHelpers(lambda: None, bytes_helpers)  # type: ignore[arg-type,return-value]
    namespace: dict[str, Any] = {"__name__": "legacy_module", **globals_}
    namespace.update(rewrite.injected_globals(result, helpers))
    exec(code, namespace)
    return namespace


def changes(source: str, python2: bool | None = None) -> list[tuple[int, str]]:
    """(line, construct) of what ``compat check`` reports for ``source`` as one of the script's modules."""
    tree, translation = rewrite.parse_legacy(textwrap.dedent(source).lstrip("\n"), "m.py", python2)
    result = rewrite.transform(tree, python2=translation is not None)
    return [(c.line, c.construct) for c in result.changes]


# --------------------------------------------------------------------------
# PEP 479: StopIteration inside a generator ends it, as before Python 3.7
# --------------------------------------------------------------------------

GENERATORS = '''
def raising(items):
    for item in items:
        if item is None:
            raise StopIteration
        yield item

def escaping(it):
    while True:
        yield next(it) * 10

def with_value():
    yield 1
    raise StopIteration("done")

def delegating():
    result = yield from with_value()
    yield result

def caught(it):
    while True:
        try:
            value = next(it)
        except StopIteration:
            yield "end"
            return
        yield value

def echo():
    received = []
    while True:
        value = yield len(received)
        if value is None:
            raise StopIteration
        received.append(value)
'''


def test_stopiteration_ends_the_generator_as_before_37() -> None:
    names = run_legacy(GENERATORS)
    assert list(names["raising"]([1, 2, None, 3])) == [1, 2]  # the elements before the StopIteration
    assert list(names["escaping"](iter([1, 2, 3]))) == [10, 20, 30]  # next() escaping ends it
    assert list(names["delegating"]()) == [1, "done"]  # StopIteration("done") was `return "done"`
    assert list(names["caught"](iter([5]))) == [5, "end"]  # a generator that catches it is unchanged
    echo = names["echo"]()
    assert [next(echo), echo.send("a"), echo.send("b")] == [0, 1, 2]  # send() passes through
    with pytest.raises(StopIteration):
        echo.send(None)
    with pytest.raises(ValueError, match="thrown"):  # throw() reaches the generator
        names["raising"]([1, 2]).throw(ValueError("thrown"))


def test_other_errors_and_opted_in_modules_keep_pep479() -> None:
    names = run_legacy('''
        def failing():
            yield 1
            raise RuntimeError("own error")
    ''')
    with pytest.raises(RuntimeError, match="own error"):
        list(names["failing"]())
    opted = run_legacy('''
        from __future__ import generator_stop
        def raising():
            yield 1
            raise StopIteration
    ''')
    with pytest.raises(RuntimeError, match="generator raised StopIteration"):
        list(opted["raising"]())


def test_contextmanager_generators_are_left_alone() -> None:
    names = run_legacy('''
        import contextlib
        @contextlib.contextmanager
        def managed(log):
            log.append("in")
            yield
            log.append("out")
    ''')
    log: list[str] = []
    with pytest.raises(StopIteration), names["managed"](log):  # not swallowed, as in Python 3.6
        raise StopIteration
    assert log == ["in"]


def test_check_reports_the_generators_that_rely_on_it() -> None:
    found = changes(GENERATORS)
    assert (4, "raise StopIteration in generator raising()") in found
    assert (9, "next(it) in generator escaping()") in found
    assert (13, "raise StopIteration('done') in generator with_value()") in found
    assert not [c for c in found if "caught()" in c[1] or "delegating()" in c[1]]
    # A Python 2 generator's it.next() (pointer-generator's batcher) is reported as written.
    assert (3, "it.next() in generator text_generator()") in changes('''
        def text_generator(it):
            while True:
                e = it.next()
                yield e
    ''', python2=True)


# --------------------------------------------------------------------------
# async / await as names (reserved in Python 3.7)
# --------------------------------------------------------------------------

def test_async_as_a_name_is_renamed_consistently() -> None:
    names = run_legacy('''
        class Loader(object):
            def __init__(self, async=False):
                self.async = async
            def load(self, path, async=None):
                return (path, self.async if async is None else async)

        def library_call(**kwargs):
            return sorted(kwargs.items())

        await = 3
        got = Loader(async=True).load("a"), Loader().load("b", async=True), Loader().load("c")
        passed = library_call(async=True, other=1)
        flag = lambda async=1: async + await
        total = flag()
        async def modern():
            return await helper()
        async def helper():
            return 7
    ''')
    assert names["got"] == (("a", True), ("b", True), ("c", False))
    assert names["passed"] == [("async", True), ("other", 1)]  # a library gets the name the old code passed
    assert names["total"] == 4
    coroutine = names["modern"]()
    with pytest.raises(StopIteration) as stop:
        coroutine.send(None)
    assert stop.value.value == 7  # the keywords of Python 3.5 code stay keywords


def test_async_keyword_reaches_a_signature_we_cannot_read() -> None:
    assert keywords.call_renamed(dict, **{keywords.KEYWORD_MARKERS["async"]: 1}) == {"async": 1}


def test_check_reports_async_names() -> None:
    found = changes('''
        def fetch(x, async=False):
            return x.cuda(async=async)
    ''')
    assert found == [(1, "async used as a name"), (2, "async used as a keyword argument"),
                     (2, "async used as a name")]
    assert changes("async def f():\n    await g()\n") == []  # valid Python 3: untouched


# --------------------------------------------------------------------------
# Mixed tabs and spaces in a Python 2 block
# --------------------------------------------------------------------------

MIXED = ("def f(a):\n"
         "    total = 0\n"
         "    if a:\n"
         "\ttotal += 1\n"          # a tab: column 8, as Python 2 read it
         "        total += 10\n"   # 8 spaces: the same block
         "    doc = '''x\n"
         "\tkept'''\n"              # inside a string: text, not indentation
         "    return total, doc\n")


def test_mixed_tabs_read_as_python2() -> None:
    with pytest.raises(TabError) as refused:
        compile(MIXED, "m.py", "exec")
    assert refused.value.lineno == 4
    assert tabs.inconsistent_lines(MIXED) == [4, 5]  # the tab line and the line after it
    assert tabs.inconsistent_lines("if x:\n\ty = 1\n\tz = 2\n") == []  # tabs only: Python 3 accepts it
    code, result = rewrite.compile_legacy(MIXED, "m.py")
    assert result.python2  # code Python 3 never accepted is Python 2 code
    names: dict[str, Any] = {}
    exec(code, names)
    assert names["f"](True) == (11, "x\n\tkept")
    assert names["f"](False) == (0, "x\n\tkept")
    assert (4, "tabs and spaces mixed in indentation (2 lines)") in changes(MIXED)


# --------------------------------------------------------------------------
# Python 2 text from tf.train.Example and sess.run
# --------------------------------------------------------------------------

EXAMPLE_READER = '''
def read(serialized, vocab):
    e = example_pb2.Example.FromString(serialized)
    article = e.features.feature['article'].bytes_list.value[0]
    words = article.split(' ')
    ids = [vocab.get(w, 0) for w in words]
    tags = [t for t in e.features.feature['tags'].bytes_list.value]
    image = e.features.feature['image'].bytes_list.value[0]
    return words, ids, '<s> ' + article, tags, image

def write(text):
    e = example_pb2.Example()
    e.features.feature['article'].bytes_list.value.append(text)
    e.features.feature['article'].bytes_list.value.extend([text])
    return e.features.feature['article'].bytes_list.value[:]
'''


def _serialized() -> bytes:
    example = example_pb2.Example()
    feature = example.features.feature
    feature["article"].bytes_list.value.append("the café is open".encode())
    feature["tags"].bytes_list.value.extend([b"a", b"b"])
    feature["image"].bytes_list.value.append(b"\xff\xd8\xff\xe0 jpeg")
    return example.SerializeToString()


def test_example_text_is_python2_str_in_python2_modules() -> None:
    names = run_legacy(EXAMPLE_READER, python2=True, example_pb2=example_pb2)
    words, ids, joined, tags, image = names["read"](_serialized(), {"the": 1, "café": 2, "open": 3})
    assert words == ["the", "café", "is", "open"]  # as Python 2's str.split gave (text, not bytes)
    assert ids == [1, 2, 0, 3]
    assert joined == "<s> the café is open"
    assert tags == ["a", "b"]
    assert image == b"\xff\xd8\xff\xe0 jpeg"  # not UTF-8: stays bytes, never mojibake
    assert names["write"]("héllo") == ["héllo", "héllo"]  # str written as UTF-8 and read back as text
    py3 = run_legacy(EXAMPLE_READER.replace("article.split(' ')", "article.split(b' ')")
                     .replace("'<s> '", "b'<s> '"), python2=False, example_pb2=example_pb2)
    assert py3["read"](_serialized(), {})[0][1] == "café".encode()  # Python 3 modules keep bytes


def test_python2_literals_of_utf8_escapes_are_the_same_text() -> None:
    names = run_legacy(r'''
        def clean(serialized):
            e = example_pb2.Example.FromString(serialized)
            return e.features.feature['article'].bytes_list.value[0].replace('\xc3\xa9', 'e')
        kept = '\xff\xd8', u'\xe9', b'\xc3\xa9'
    ''', python2=True, example_pb2=example_pb2)
    assert names["clean"](_serialized()) == "the cafe is open"  # '\xc3\xa9' was the bytes of 'é' in Python 2
    assert names["kept"] == ("\xff\xd8", "é", b"\xc3\xa9")  # not UTF-8, unicode and bytes literals: as written
    assert (3, "Python 2 str literal of UTF-8 bytes written as escapes") in [
        (c.line, c.construct) for c in rewrite.translation_changes(rewrite.parse_legacy(
            "def f(s):\n    print s\n    return s.replace('\\xc3\\xa9', 'e')\n", "m.py")[1])]


def test_run_results_become_text() -> None:
    pair = collections.namedtuple("pair", "name score")
    fetched = [b"word", np.array([b"a", "é".encode(), b"\xff"], dtype=object), np.float32(1.5),
               pair(b"n", 2), {"k": b"v", "n": np.arange(3)}, (b"x",)]
    result = text.run_result(fetched)
    assert result[0] == "word"
    assert result[1].dtype == object and list(result[1]) == ["a", "é", b"\xff"]
    assert result[2] == np.float32(1.5)
    assert result[3] == pair("n", 2) and type(result[3]) is pair
    assert result[4]["k"] == "v" and result[4]["n"] is fetched[4]["n"]  # type: ignore[index]
    assert result[5] == ("x",)
    numbers = [np.arange(4), 3.0]
    assert text.run_result(numbers) is numbers  # nothing to convert: the same object
    assert text.text_args(lambda a, b: (a, b))(b"name", np.array([b"q"], dtype=object))[0] == "name"


def test_check_reports_example_and_run_text() -> None:
    found = changes('''
        import tensorflow as tf
        def main(sess, ex, t):
            print sess.run(t)
            w = ex.features.feature['w'].bytes_list.value[0]
            tf.app.run()
    ''')
    assert (3, "sess.run(t)") in found
    assert (4, "ex.features.feature['w'].bytes_list.value[0]") in found
    assert not [c for c in found if "app.run" in c[1]]


def test_reports_do_not_change_python3_modules() -> None:
    found = changes("def f(sess, t, e):\n    return sess.run(t), e.features.feature['w'].bytes_list.value[0]\n")
    assert found == []
    tree = ast.parse("x = 1\n")
    assert rewrite.transform(tree).changes == []


# --------------------------------------------------------------------------
# random: Python 2.7's draws in Python 2 modules, Python 3.10's arguments in the others
# --------------------------------------------------------------------------

def test_python2_random_draws_as_python2() -> None:
    # Expected values: random2 1.0.2 (a port of Python 2.7's random module to Python 3) with seed 1234.
    names = run_legacy('''
        import random
        from random import choice as pick
        random.seed(1234)
        x = range(10)
        random.shuffle(x)
        random.seed(1234)
        ints = [random.randint(1, 100) for _ in range(5)]
        random.seed(1234)
        picks = [pick('abcdefgh') for _ in range(5)]
        rng = random.Random(1234)
        sampled = rng.sample(range(100), 5)
        ranges = rng.randrange(0, 50, 7)
    ''', python2=True)
    assert names["x"] == [8, 1, 7, 4, 2, 5, 6, 0, 3, 9]  # Python 3's own shuffle: [2, 8, 3, 5, 6, 4, 9, 0, 1, 7]
    assert names["ints"] == [97, 45, 1, 92, 94]
    assert names["picks"] == ["h", "d", "a", "h", "h"]
    assert names["sampled"] == [96, 44, 0, 91, 93]
    assert names["ranges"] == 28  # the draw after the sample: 7 * int(random() * 8)


def test_python3_random_arguments_removed_in_311() -> None:
    names = run_legacy('''
        import random
        x = list(range(5))
        random.shuffle(x, lambda: 0.5)
        random.seed(3)
        picked = random.sample({10, 20, 30, 40}, 2)
        y = [1, 2, 3]
        random.shuffle(y)
    ''')
    assert names["x"] == [0, 3, 1, 4, 2]  # j = int(0.5 * (i + 1)) for i = 4..1, as Python <= 3.10 shuffled
    assert names["picked"] == random.Random(3).sample(tuple({10, 20, 30, 40}), 2)
    assert sorted(names["y"]) == [1, 2, 3]


def test_check_reports_random_calls() -> None:
    assert changes("import random\nrandom.shuffle(x)\nrandom.sample(s, 2)\n") == [(3, "random.sample")]
    assert (2, "random.shuffle") in changes("import random\nrandom.shuffle(x, f)\n")
    py2 = changes("import random\nfrom random import choice\nrandom.shuffle(x)\nprint 'x'\n")
    assert (2, "from random import choice") in py2 and (3, "random.shuffle") in py2


# --------------------------------------------------------------------------
# Python 2 pickles read by Python 2 modules
# --------------------------------------------------------------------------

def _py2_string(raw: bytes) -> bytes:
    """A Python 2 ``str`` as cPickle protocol 2 wrote it: SHORT_BINSTRING, the bytes as they are."""
    return b"U" + bytes([len(raw)]) + raw


def python2_pickle(values: bytes, words: list[bytes]) -> bytes:
    """cPickle protocol 2 of ``{'data': np.frombuffer(values, np.uint8), 'words': words, 'when': date(1900, 5, 4)}``
    as Python 2.7 wrote it (every ``str`` a SHORT_BINSTRING; opcodes from ``pickletools``' descriptions)."""
    array = (b"cnumpy.core.multiarray\n_reconstruct\ncnumpy\nndarray\nK\x00\x85" + _py2_string(b"b") + b"\x87R"
             + b"(K\x01" + bytes([ord("K"), len(values)]) + b"\x85"
             + b"cnumpy\ndtype\n" + _py2_string(b"u1") + b"K\x00K\x01\x87R"
             + b"(K\x03" + _py2_string(b"|") + b"NNNJ\xff\xff\xff\xffJ\xff\xff\xff\xffK\x00tb"
             + b"\x89" + _py2_string(values) + b"tb")
    listed = b"](" + b"".join(_py2_string(w) for w in words) + b"e"
    date = b"cdatetime\ndate\n" + _py2_string(bytes([7, 108, 5, 4])) + b"\x85R"
    return (b"\x80\x02}(" + _py2_string(b"data") + array + _py2_string(b"words") + listed
            + _py2_string(b"when") + date + b"u.")


def test_python2_pickles_give_python2_text() -> None:
    import datetime
    # The array's bytes are valid UTF-8 ('Aé\x7f'): decoded, NumPy would read them as Latin-1 (3 bytes, not 4).
    blob = python2_pickle(bytes([0x41, 0xC3, 0xA9, 0x7F]), ["café".encode(), b"caf\xe9", b"plain"])
    names = run_legacy('''
        import io
        import cPickle
        loaded = cPickle.loads(BLOB)
        streamed = cPickle.Unpickler(io.BytesIO(BLOB)).load()
        asked = cPickle.loads(BLOB, encoding='latin1')
    ''', python2=True, BLOB=blob)
    for key in ("loaded", "streamed"):
        value = names[key]
        assert value["words"] == ["café", b"caf\xe9", "plain"]  # UTF-8 text as text; Latin-1 bytes stay bytes
        assert value["data"].tolist() == [0x41, 0xC3, 0xA9, 0x7F]  # the array's own bytes
        assert value["when"] == datetime.date(1900, 5, 4)
    assert names["asked"]["words"][0] == "cafÃ©"  # an explicit encoding is the script's own choice
    found = changes("import cPickle\nd = cPickle.load(open('v.pkl', 'rb'))\nprint d\n")
    assert (2, "pickle.load(open('v.pkl', 'rb'))") in found


# --------------------------------------------------------------------------
# compat: lines for what the rewrite could not see
# --------------------------------------------------------------------------

def test_hints_for_bytes_meeting_str_and_pep479() -> None:
    from compat.stdlib.runtime import failure_hint

    def unwrapped() -> Any:
        yield 1
        raise StopIteration  # the pre-3.7 idiom: not wrapped here (this is not the script's code)

    failures = []
    for attempt in (lambda: b"a b".split(" "), lambda: b"text".index("<s>"), lambda: "<s> " + b"x",  # type: ignore
                    lambda: " ".join([b"a"]), lambda: list(unwrapped())):  # type: ignore[list-item]
        with pytest.raises((TypeError, RuntimeError)) as caught:
            attempt()
        failures.append(failure_hint(caught.value) or "")
    assert all(h.startswith("bytes met a str") for h in failures[:4])
    assert "PEP 479" in failures[4] and "end the generator with return" in failures[4]
    assert failure_hint(TypeError("unsupported operand type(s) for +: 'int' and 'str'")) is None


# --------------------------------------------------------------------------
# re: global inline flags after the start (an error since Python 3.11)
# --------------------------------------------------------------------------

def test_global_regex_flags_apply_to_the_whole_pattern() -> None:
    import re
    with pytest.raises(re.error, match="global flags not at the start"):
        re.compile(r"\bword(?i)")
    names = run_legacy(r'''
        import re
        found = re.findall(r'\bword(?i)', 'A WORD, a Word, words')
        replaced = re.sub('x(?s).y', '-', 'ax\ny')
        fine = re.findall('(?i)a', 'Aa')
    ''')
    assert names["found"] == re.findall(r"(?i)\bword", "A WORD, a Word, words") == ["WORD", "Word", "word"]
    assert names["replaced"] == re.sub("(?s)x.y", "-", "ax\ny") == "a-"
    assert names["fine"] == ["A", "a"]
    assert changes("import re\nre.compile('a(?i)')\nre.compile('(?i)a')\n") == [(2, "re.compile('a(?i)')")]
