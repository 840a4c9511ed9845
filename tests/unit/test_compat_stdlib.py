"""The Python 3 standard library of 2016-2019 for the script's own code: every name, module,
method and argument of ``compat.stdlib.removed``, compiled through the runner's rewrite
(``compile_legacy``) and run in process, with values checked independently."""
from __future__ import annotations

import ast
import asyncio
import base64
import collections
import collections.abc
import configparser
import errno
import html.parser
import io
import os
import platform
import string
import sys
import textwrap
import threading
import unittest
import urllib.parse
import xml.etree.ElementTree
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from compat.numpy1 import bytes_helpers
from compat.runner import rewrite
from compat.stdlib import imp as imp_fallback
from compat.stdlib import removed, runtime


def run_legacy(source: str, **globals_: Any) -> dict[str, Any]:
    """Compile ``source`` as the runner does for a script's own module and run it; its globals."""
    code, result = rewrite.compile_legacy(textwrap.dedent(source), "legacy_module.py", python2=False)
    helpers = rewrite.LegacyHelpers(lambda: None, bytes_helpers)  # type: ignore[arg-type,return-value]
    namespace: dict[str, Any] = {"__name__": "legacy_module", **globals_}
    namespace.update(rewrite.injected_globals(result, helpers))
    exec(code, namespace)
    return namespace


def reported(source: str) -> list[tuple[str, str]]:
    """(construct, status) of what ``compat check`` reports for ``source``."""
    return [(c.construct, c.status) for c in rewrite.transform(ast.parse(textwrap.dedent(source))).changes]


def removed_here(version: str) -> bool:
    """True if the running Python no longer has what was removed in ``version``."""
    major, minor = (int(part) for part in version.split("."))
    return sys.version_info[:2] >= (major, minor)


def euclid(a: int, b: int) -> int:
    """fractions.gcd as Python 3.8 documented it: Euclid's algorithm, the sign of ``b``."""
    while b:
        a, b = b, a % b
    return a


def os_release() -> dict[str, str]:
    """/etc/os-release read here, independently of platform.freedesktop_os_release."""
    fields: dict[str, str] = {}
    for path in ("/etc/os-release", "/usr/lib/os-release"):
        if os.path.exists(path):
            for line in Path(path).read_text().splitlines():
                key, sep, value = line.partition("=")
                if sep:
                    fields[key.strip()] = value.strip().strip("'\"")
            break
    return fields


def _getargspec_check(v: Any) -> None:
    def f(a: Any, b: Any = 2, *c: Any, **d: Any) -> None: ...
    f.__annotations__ = {}
    spec = v(f)
    assert tuple(spec) == (["a", "b"], "c", "d", (2,)) and spec.keywords == "d"
    with pytest.raises(ValueError, match="keyword-only"):
        exec("def g(*, k=1): pass\nv(g)", {"v": v})
    with pytest.raises(ValueError, match="annotations"):  # a user's annotated function: as Python 3.0-3.10
        exec("def h(x: int): pass\nv(h)", {"v": v})


def _coroutine_check(v: Any) -> None:
    def legacy() -> Any:
        yield from asyncio.sleep(0)  # type: ignore[misc]
        return 5
    plain = v(lambda: 7)
    loop = asyncio.new_event_loop()
    try:
        assert loop.run_until_complete(v(legacy)()) == 5
        assert loop.run_until_complete(plain()) == 7
    finally:
        loop.close()


def _plist_check(read: Any, tmp_path: Path) -> None:
    path = tmp_path / "info.plist"
    removed.write_plist({"name": "net", "layers": [1, 2]}, str(path))
    assert read(str(path)) == {"name": "net", "layers": [1, 2]}


def _linux_distribution_check(v: Any, key: str) -> None:
    fields = os_release()
    result = v()
    assert isinstance(result, tuple) and len(result) == 3
    if fields:
        assert result[0] == fields.get(key, "") and result[1] == fields.get("VERSION_ID", "")


def _check_interval_check(set_: Any, get: Any) -> None:
    set_(250)
    assert get() == 250
    set_(100)


#: (module, name) -> check of the value the script gets.
ATTRIBUTE_CHECKS: dict[tuple[str, str], Callable[..., None]] = {
    **{("collections", name): (lambda v, name=name: _is(v, getattr(collections.abc, name)))
       for name in removed.ATTRIBUTES["collections"]},
    ("time", "clock"): lambda v: _true(isinstance(v(), float) and v() <= v()),
    ("inspect", "getargspec"): _getargspec_check,
    ("inspect", "formatargspec"): lambda v: _true(v(["a", "b"], "c", "d", (2,)) == "(a, b=2, *c, **d)"
                                                  and v(["x"]) == "(x)"),
    ("inspect", "ArgSpec"): lambda v: _true(v._fields == ("args", "varargs", "keywords", "defaults")),
    ("fractions", "gcd"): lambda v: _true(all(v(a, b) == euclid(a, b) for a in range(-12, 13, 5)
                                              for b in range(-16, 17, 4))),
    ("base64", "encodestring"): lambda v: _true(v(b"ab") == b"YWI=\n"),
    ("base64", "decodestring"): lambda v: _true(v(b"YWI=\n") == b"ab"),
    ("cgi", "escape"): lambda v: _true(v('<a href="x">&</a>') == '&lt;a href="x"&gt;&amp;&lt;/a&gt;'
                                       and v('"', quote=True) == "&quot;"),
    ("cgi", "parse_qs"): lambda v: _true(v("a=1&a=2&b=3") == {"a": ["1", "2"], "b": ["3"]}),
    ("cgi", "parse_qsl"): lambda v: _true(v("a=1&b=3") == [("a", "1"), ("b", "3")]),
    ("platform", "linux_distribution"): lambda v: _linux_distribution_check(v, "NAME"),
    ("platform", "dist"): lambda v: _linux_distribution_check(v, "ID"),
    ("os", "errno"): lambda v: _is(v, errno),
    ("os", "getcwdu"): lambda v: _true(v() == os.getcwd()),
    ("asyncio", "async"): lambda v: _is(v, asyncio.ensure_future),
    ("asyncio", "coroutine"): _coroutine_check,
    ("sys", "setcheckinterval"): lambda v: _check_interval_check(v, removed.ATTRIBUTES["sys"]["getcheckinterval"]
                                                                 .make()),
    ("sys", "getcheckinterval"): lambda v: _check_interval_check(removed.ATTRIBUTES["sys"]["setcheckinterval"]
                                                                 .make(), v),
    ("plistlib", "readPlist"): _plist_check,
    ("plistlib", "writePlist"): lambda v, tmp_path: _plist_check(removed.read_plist, tmp_path),
    ("plistlib", "readPlistFromBytes"): lambda v: _true(v(b'<?xml version="1.0"?><plist version="1.0">'
                                                          b"<dict><key>a</key><integer>1</integer></dict></plist>")
                                                        == {"a": 1}),
    ("plistlib", "writePlistToBytes"): lambda v: _true(b"<key>a</key>" in v({"a": 1})),
    ("string", "maketrans"): lambda v: _true("abc".translate(v("ab", "xy")) == "xyc"),
    ("string", "letters"): lambda v: _true(v == string.ascii_letters),
    ("string", "lowercase"): lambda v: _true(v == string.ascii_lowercase),
    ("string", "uppercase"): lambda v: _true(v == string.ascii_uppercase),
    ("configparser", "SafeConfigParser"): lambda v: _true(issubclass(v, configparser.RawConfigParser)),
    ("locale", "format"): lambda v: _true(v("%d", 5) == "5"),
    ("logging", "warn"): lambda v: _true(callable(v)),
    ("unittest", "makeSuite"): lambda v: _true(v(_Case).countTestCases() == 1),
}


class _Case(unittest.TestCase):
    def test_one(self) -> None:
        pass


def _is(value: Any, expected: Any) -> None:
    assert value is expected, f"{value!r} is not {expected!r}"


def _true(condition: Any) -> None:
    assert condition


ATTRIBUTE_CASES = [(module, name) for module, names in removed.ATTRIBUTES.items() for name in names]


def test_every_attribute_has_a_check() -> None:
    assert set(ATTRIBUTE_CHECKS) == set(ATTRIBUTE_CASES)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize(("module", "name"), ATTRIBUTE_CASES)
def test_every_removed_attribute_works_in_the_scripts_code(module: str, name: str, tmp_path: Path) -> None:
    entry = removed.ATTRIBUTES[module][name]
    if removed_here(entry.removed_in):
        assert not hasattr(__import__(module), name)  # Python itself lacks it: the script failed before
    check = ATTRIBUTE_CHECKS[(module, name)]
    needs_tmp = "tmp_path" in check.__code__.co_varnames
    if name == "async":  # a keyword since 3.7: the attribute form is read by fix_source (test_asyncio_async)
        check(run_legacy(f"import {module}\nvalue = {module}.{name}\n")["value"])
        return
    for source in (f"from {module} import {name} as value\n", f"import {module}\nvalue = {module}.{name}\n"):
        value = run_legacy(source)["value"]
        check(value, tmp_path) if needs_tmp else check(value)
        assert any(status == "rewritten" and name in construct for construct, status in reported(source))


def test_the_real_modules_are_not_changed() -> None:
    run_legacy("import collections, time\nvalue = (collections.Iterable, time.clock)\n")
    assert not hasattr(collections, "Iterable") and not hasattr(__import__("time"), "clock")


def test_a_name_python_still_has_is_the_modules_own() -> None:
    own = object()
    fake = type(sys)("collections")
    fake.Iterable = own  # type: ignore[attr-defined]
    assert runtime.StdlibNames().attr(fake, "collections", "Iterable") is own


def test_removed_name_reached_by_getattr_gets_a_hint() -> None:
    with pytest.raises(AttributeError) as caught:
        run_legacy("import collections\nv = getattr(collections, 'Mapping')\n")
    hint = runtime.failure_hint(caught.value)
    assert hint is not None and "collections.abc.Mapping" in hint


# --------------------------------------------------------------------------
# asyncio.async: a syntax error since Python 3.7
# --------------------------------------------------------------------------

def test_asyncio_async() -> None:
    source = """
        import asyncio

        @asyncio.coroutine
        def answer():
            yield from asyncio.sleep(0)
            return 42

        loop = asyncio.new_event_loop()
        task = asyncio.async(answer(), loop=loop)
        value = loop.run_until_complete(task)
        loop.close()
    """
    with pytest.raises(SyntaxError):
        ast.parse(textwrap.dedent(source))
    assert run_legacy(source)["value"] == 42


# --------------------------------------------------------------------------
# Removed modules
# --------------------------------------------------------------------------

@pytest.mark.parametrize("source", [
    "import xml.etree.cElementTree as ET\n",
    "from xml.etree import cElementTree as ET\n",
    "from xml.etree import cElementTree\nET = cElementTree\n",
    "import xml.etree.cElementTree\nET = xml.etree.cElementTree\n",
])
def test_celementtree(source: str) -> None:
    # Deprecated since 3.3 and announced for removal; the script's code gets ElementTree itself.
    found = run_legacy(source + "root = ET.fromstring('<a><b/><b/></a>')\n")
    assert found["ET"] is xml.etree.ElementTree and len(found["root"]) == 2
    assert any("cElementTree" in construct for construct, _ in reported(source))


def test_from_celementtree_import_names() -> None:
    found = run_legacy("from xml.etree.cElementTree import fromstring, tostring\n"
                       "text = tostring(fromstring('<a><b/></a>'))\n")
    assert found["text"] == b"<a><b /></a>"


def test_imp_is_served_by_python_or_the_fallback(tmp_path: Path) -> None:
    module = run_legacy("import imp\n")["imp"]
    assert module.__name__ in ("imp", "compat.stdlib.imp") and callable(module.load_source)
    assert ("import imp", "bridged") in reported("import imp\n")


def test_imp_fallback(tmp_path: Path) -> None:
    (tmp_path / "config_py2.py").write_text("LEARNING_RATE = 0.01\nLAYERS = [64, 32]\n")
    loaded = imp_fallback.load_source("config_py2", str(tmp_path / "config_py2.py"))
    assert loaded.LEARNING_RATE == 0.01 and sys.modules["config_py2"] is loaded
    (tmp_path / "config_py2.py").write_text("LEARNING_RATE = 0.5\n")
    assert imp_fallback.reload(loaded).LEARNING_RATE == 0.5
    handle, path, description = imp_fallback.find_module("config_py2", [str(tmp_path)])
    assert path == str(tmp_path / "config_py2.py") and description[2] == imp_fallback.PY_SOURCE
    assert imp_fallback.load_module("config_py2", handle, path, description).LEARNING_RATE == 0.5
    with pytest.raises(ImportError):
        imp_fallback.find_module("no_such_module_here", [str(tmp_path)])
    assert imp_fallback.new_module("m").__name__ == "m"
    assert (".py", "r", imp_fallback.PY_SOURCE) in imp_fallback.get_suffixes()
    del sys.modules["config_py2"]


def test_module_fallback_when_python_lacks_the_module() -> None:
    names = runtime.StdlibNames()
    saved = dict(removed.FALLBACK_MODULES)
    removed.FALLBACK_MODULES["no_such_stdlib_module_x"] = "compat.stdlib.imp"
    try:
        assert names.module("no_such_stdlib_module_x") is imp_fallback
    finally:
        removed.FALLBACK_MODULES.clear()
        removed.FALLBACK_MODULES.update(saved)


# --------------------------------------------------------------------------
# Removed methods
# --------------------------------------------------------------------------

class _Recorder:
    """An object that has only the new spellings; records which was called."""

    def __getattr__(self, name: str) -> Any:
        if name in removed.METHODS or name.startswith("__"):
            raise AttributeError(name)
        return lambda *args, **kwargs: (name, args)


def test_thread_isalive() -> None:
    assert not hasattr(threading.Thread, "isAlive")
    found = run_legacy("""
        import threading
        gate = threading.Event()
        t = threading.Thread(target=gate.wait)
        t.start()
        alive = t.isAlive()
        gate.set()
        t.join()
        after = t.isAlive()
    """)
    assert found["alive"] is True and found["after"] is False


def test_element_getchildren_and_getiterator() -> None:
    assert not hasattr(xml.etree.ElementTree.Element, "getchildren")
    found = run_legacy("""
        import xml.etree.ElementTree as ET
        root = ET.fromstring('<ann><object><name>cat</name></object><object><name>dog</name></object></ann>')
        children = root.getchildren()
        names = [n.text for n in root.getiterator('name')]
        everything = len(list(root.getiterator()))
    """)
    assert [c.tag for c in found["children"]] == ["object", "object"]
    assert found["names"] == ["cat", "dog"] and found["everything"] == 5


def test_array_fromstring() -> None:
    import array
    assert not hasattr(array.array, "fromstring")
    found = run_legacy("import array\na = array.array('h')\na.fromstring(data)\n",
                       data=array.array("h", [1, -2, 300]).tobytes())
    assert found["a"].tolist() == [1, -2, 300]


def test_htmlparser_unescape() -> None:
    assert not hasattr(html.parser.HTMLParser, "unescape")
    found = run_legacy("from html.parser import HTMLParser\nvalue = HTMLParser().unescape('&lt;b&gt; &amp; &#39;')\n")
    assert found["value"] == "<b> & '"


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_configparser_readfp() -> None:
    source = "import configparser, io\np = configparser.ConfigParser()\np.readfp(io.StringIO('[net]\\ndepth = 3\\n'))\n"
    assert run_legacy(source)["p"].getint("net", "depth") == 3
    assert run_legacy("value = r.readfp(3)\n", r=_Recorder())["value"] == ("read_file", (3,))


UNITTEST_ALIASES = [name for name, method in removed.METHODS.items() if method.removed_in == "3.12"
                    and name != "readfp"]


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("name", UNITTEST_ALIASES)
def test_unittest_aliases(name: str) -> None:
    new = removed.METHODS[name].replacement.removeprefix("TestCase.")
    if name != "assertDictContainsSubset":
        # Without the method, the new spelling is called.
        assert run_legacy(f"value = case.{name}(1)\n", case=_Recorder())["value"] == (new, (1,))
    assert reported(f"case.{name}(1)\n")[0][1] == "rewritten"


def test_unittest_aliases_on_a_real_test_case() -> None:
    case = unittest.TestCase()
    run_legacy("case.assertEquals(2, 2)\ncase.assertItemsEqual = None\ncase.assertDictContainsSubset({'a': 1}, "
               "{'a': 1, 'b': 2})\n", case=case)
    with pytest.raises(AssertionError):
        run_legacy("case.assertEquals(2, 3)\n", case=case)


def test_dict_contains_subset_without_the_method() -> None:
    failures: list[str] = []
    case = type("Case", (), {"fail": lambda self, msg: failures.append(msg)})()
    removed.METHODS["assertDictContainsSubset"].call(case, {"a": 1}, {"a": 2, "b": 3})
    removed.METHODS["assertDictContainsSubset"].call(case, {"a": 1}, {"a": 1})
    assert len(failures) == 1 and "'a'" in failures[0]


def test_every_method_is_tested() -> None:
    tested = {"isAlive", "getchildren", "getiterator", "fromstring", "unescape", "readfp", *UNITTEST_ALIASES}
    assert tested == set(removed.METHODS)


def test_module_functions_are_not_taken_for_removed_methods() -> None:
    source = "import xml.etree.ElementTree as ET\nroot = ET.fromstring('<a/>')\n"
    assert reported(source) == []


# --------------------------------------------------------------------------
# Removed arguments
# --------------------------------------------------------------------------

def test_json_loads_encoding() -> None:
    import json
    with pytest.raises(TypeError):
        json.loads("[1]", encoding="utf-8")
    assert run_legacy("import json\nvalue = json.loads('[1, 2]', encoding='utf-8')\n")["value"] == [1, 2]
    assert reported("import json\nvalue = json.loads('[1]', encoding='utf-8')\n")[0][1] == "rewritten"


def python2_pickle(values: bytes, text: bytes) -> bytes:
    """What Python 2's cPickle (protocol 2) wrote for ``{'data': np.frombuffer(values, np.uint8), 'name': text}``:
    its ``str`` objects (keys, the array's raw bytes, ``text``) are SHORT_BINSTRINGs of bytes."""
    def string(raw: bytes) -> bytes:
        return b"U" + bytes([len(raw)]) + raw
    array = (b"cnumpy.core.multiarray\n_reconstruct\ncnumpy\nndarray\nK\x00\x85" + string(b"b") + b"\x87R"
             + b"(K\x01" + bytes([ord("K"), len(values)]) + b"\x85"
             + b"cnumpy\ndtype\n" + string(b"u1") + b"K\x00K\x01\x87R"
             + b"(K\x03" + string(b"|") + b"NNNJ\xff\xff\xff\xffJ\xff\xff\xff\xffK\x00tb"
             + b"\x89" + string(values) + b"tb")
    return b"\x80\x02}(" + string(b"data") + array + string(b"name") + string(text) + b"u."


def test_pickle_reads_python2_pickles_in_the_scripts_own_calls() -> None:
    import pickle
    blob = python2_pickle(bytes([0, 128, 255]), "café".encode("latin1"))
    with pytest.raises(UnicodeDecodeError):
        pickle.loads(blob)  # Python 3's 'ASCII' default
    source = """
        import io, pickle
        try:
            import cPickle as pkl
        except ImportError:
            import pickle as pkl
        from six.moves import cPickle
        first = pkl.loads(BLOB)
        second = cPickle.load(io.BytesIO(BLOB))
        third = pickle.Unpickler(io.BytesIO(BLOB)).load()
        raw = pickle.loads(BLOB, encoding='bytes')  # what Python 3 code asked for stays
        plain = pickle.loads(pickle.dumps({'k': 'ü'}))
    """
    found = run_legacy(source, BLOB=blob)
    for name in ("first", "second", "third"):
        assert found[name]["data"].dtype == np.uint8
        assert found[name]["data"].tolist() == [0, 128, 255]
        assert found[name]["name"] == "café"
    assert found["raw"][b"name"] == "café".encode("latin1")
    assert found["plain"] == {"k": "ü"}
    assert ("pkl.loads(BLOB)", "rewritten") in reported(source)


def test_cgi_still_importable_or_served() -> None:
    # cgi itself goes in 3.13; escape (3.8) is what old code used from it.
    source = "from cgi import escape\nvalue = escape('<&>')\n"
    if removed_here("3.13"):
        pytest.skip("cgi is gone: the import itself fails")
    assert run_legacy(source)["value"] == "&lt;&amp;&gt;"


def test_platform_and_urllib_references_are_independent() -> None:
    # The independent references used above are what this Python provides.
    assert urllib.parse.parse_qs("a=1") == {"a": ["1"]}
    assert base64.encodebytes(b"ab") == b"YWI=\n"
    assert isinstance(platform.system(), str)
    assert io.StringIO("x").read() == "x"


def test_getargspec_describes_tensorflows_annotated_ops_as_tf_1_did() -> None:
    # TF 2 annotates its generated ops (tf.nn.relu's ``features``); TF 1.x did not, and PrettyTensor 0.7.4
    # registers tf.nn.relu through inspect.getargspec at import.
    import inspect

    import tensorflow as tf
    assert inspect.getfullargspec(tf.nn.relu).annotations  # the reason for the rule
    spec = removed.getargspec(tf.nn.relu)
    assert tuple(spec) == (["features", "name"], None, None, (None,))
