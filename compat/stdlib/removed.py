"""Names removed from Python's standard library (3.7-3.13) that 2016-2019 code used, with their values.

The reference list is the "Removed" sections of Python's What's New (3.7 to
3.13), chosen by how much old machine-learning code used each name. Tables:

* :data:`ATTRIBUTES`: module -> removed name -> :class:`Removed` (``collections.Iterable``,
  ``time.clock``, ``inspect.getargspec``, ...). A name the running Python still
  has (``configparser.SafeConfigParser`` before 3.12) is taken from the module
  itself; the value here is used only when it is gone;
* :data:`MODULES`: removed modules -> the module that replaced them (``xml.etree.cElementTree``);
* :data:`FALLBACK_MODULES`: removed modules served by a module of this package
  when the running Python lacks them (``imp``);
* :data:`METHODS`: removed methods -> :class:`Method` (``Thread.isAlive``,
  ``Element.getchildren``, the ``unittest`` aliases, ...): the object's own
  method is used when it has one;
* :data:`DROPPED_KEYWORDS`: arguments that were removed and did nothing
  (``json.loads(encoding=)``);
* :data:`DEFAULTED_KEYWORDS`: arguments given a value when the call leaves
  them out (``pickle.load(f)`` reads Python 2 pickles).

:mod:`compat.stdlib.rewrite` rewrites the script's own code to reach these
through ``__compat__.stdlib`` (:mod:`compat.stdlib.runtime`); the real modules
are never modified, so TensorFlow and every other library see the real standard
library. Importing this module imports only small standard modules.
"""
from __future__ import annotations

import html
import importlib
import inspect
import math
import os
import sys
from collections import namedtuple
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["ATTRIBUTES", "DEFAULTED_KEYWORDS", "DROPPED_KEYWORDS", "FALLBACK_MODULES", "METHODS", "MODULES", "Method",
           "Removed"]


@dataclass(frozen=True)
class Removed:
    """A removed module attribute: what replaced it, and a factory for its old value (called once)."""

    replacement: str
    make: Callable[[], Any]
    removed_in: str


@dataclass(frozen=True)
class Method:
    """A removed method: what replaced it, and the call made when the object lacks the method."""

    replacement: str
    call: Callable[..., Any]
    removed_in: str


def _attr(dotted: str) -> Callable[[], Any]:
    module, _, name = dotted.rpartition(".")
    return lambda: getattr(importlib.import_module(module), name)


def _const(value: Any) -> Callable[[], Any]:
    return lambda: value


# --------------------------------------------------------------------------
# Functions that are gone, written again
# --------------------------------------------------------------------------

#: ``inspect.getargspec``'s result (removed in 3.11).
ArgSpec = namedtuple("ArgSpec", ["args", "varargs", "keywords", "defaults"])


def getargspec(func: Callable[..., Any]) -> ArgSpec:
    """``inspect.getargspec``: (args, varargs, keywords, defaults) of a function without keyword-only arguments.

    TensorFlow's own functions are described whatever their annotations: TF 2
    annotated its generated ops (``tf.nn.relu``'s ``features``), which TF 1.x
    never did, and TF1-era libraries (PrettyTensor registers ``tf.nn.relu``)
    called ``getargspec`` on them.

    Raises:
        ValueError: ``func`` has keyword-only arguments, or annotations and is not
            TensorFlow's, as the original did.
    """
    spec = inspect.getfullargspec(func)
    tensorflows = str(getattr(func, "__module__", "") or "").startswith("tensorflow.")
    if spec.kwonlyargs or (spec.annotations and not tensorflows):
        raise ValueError(f"getargspec cannot describe {func!r}: it has keyword-only arguments or annotations; "
                         "use inspect.signature")
    return ArgSpec(spec.args, spec.varargs, spec.varkw, spec.defaults)


def formatargspec(args: list[str], varargs: str | None = None, varkw: str | None = None,
                  defaults: tuple[Any, ...] | None = None, *_: Any, **__: Any) -> str:
    """``inspect.formatargspec``: ``(a, b=1, *args, **kw)`` from the parts of :func:`getargspec`."""
    parts = []
    first_default = len(args) - len(defaults or ())
    for index, name in enumerate(args):
        parts.append(f"{name}={defaults[index - first_default]!r}" if defaults and index >= first_default else name)
    if varargs:
        parts.append(f"*{varargs}")
    if varkw:
        parts.append(f"**{varkw}")
    return f"({', '.join(parts)})"


def fractions_gcd(a: Any, b: Any) -> Any:
    """``fractions.gcd`` (removed in 3.9): Euclid's algorithm; the result has the sign of ``b`` (unlike math.gcd)."""
    if type(a) is int is type(b):
        if (b or a) < 0:
            return -math.gcd(a, b)
        return math.gcd(a, b)
    while b:
        a, b = b, a % b
    return a


def cgi_escape(s: str, quote: bool = False) -> str:
    """``cgi.escape`` (removed in 3.8): ``&``, ``<``, ``>`` (and ``"`` with ``quote``) as HTML entities."""
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return s.replace('"', "&quot;") if quote else s


def linux_distribution(distname: str = "", version: str = "", id: str = "",  # noqa: A002 - the old name
                       *args: Any, **kwargs: Any) -> tuple[str, str, str]:
    """``platform.linux_distribution`` (removed in 3.8): (name, version, codename) from /etc/os-release."""
    import platform
    try:
        release = platform.freedesktop_os_release()
    except OSError:
        return distname, version, id
    return (release.get("NAME", distname), release.get("VERSION_ID", version),
            release.get("VERSION_CODENAME", id))


def platform_dist(distname: str = "", version: str = "", id: str = "",  # noqa: A002 - the old name
                  *args: Any, **kwargs: Any) -> tuple[str, str, str]:
    """``platform.dist`` (removed in 3.8): (distribution id, version, codename) from /etc/os-release."""
    import platform
    try:
        release = platform.freedesktop_os_release()
    except OSError:
        return distname, version, id
    return (release.get("ID", distname), release.get("VERSION_ID", version),
            release.get("VERSION_CODENAME", id))


def asyncio_coroutine(func: Callable[..., Any]) -> Callable[..., Any]:
    """``@asyncio.coroutine`` (removed in 3.11): a generator function becomes a generator-based coroutine."""
    import types
    if inspect.isgeneratorfunction(func):
        return types.coroutine(func)

    @types.coroutine
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        result = func(*args, **kwargs)
        if inspect.isawaitable(result):
            result = yield from result.__await__()
        return result
    wrapper.__name__ = getattr(func, "__name__", "coroutine")
    return wrapper


class _CheckInterval:
    """``sys.setcheckinterval``/``getcheckinterval`` (removed in 3.9): the value is kept, it has no effect."""

    value = 100

    @classmethod
    def set(cls, interval: int) -> None:
        cls.value = int(interval)

    @classmethod
    def get(cls) -> int:
        return cls.value


def read_plist(path_or_file: Any) -> Any:
    """``plistlib.readPlist`` (removed in 3.9): ``plistlib.load`` of a path or a binary file."""
    import plistlib
    if isinstance(path_or_file, (str, os.PathLike)):
        with open(path_or_file, "rb") as handle:
            return plistlib.load(handle)
    return plistlib.load(path_or_file)


def write_plist(value: Any, path_or_file: Any) -> None:
    """``plistlib.writePlist`` (removed in 3.9): ``plistlib.dump`` to a path or a binary file."""
    import plistlib
    if isinstance(path_or_file, (str, os.PathLike)):
        with open(path_or_file, "wb") as handle:
            plistlib.dump(value, handle)
        return
    plistlib.dump(value, path_or_file)


def make_suite(case: type, *args: Any, **kwargs: Any) -> Any:
    """``unittest.makeSuite`` (removed in 3.13): the suite of a ``TestCase`` class's tests."""
    return importlib.import_module("unittest").TestLoader().loadTestsFromTestCase(case)


# --------------------------------------------------------------------------
# The tables
# --------------------------------------------------------------------------

_ABC_NAMES = ("Awaitable", "Coroutine", "AsyncIterable", "AsyncIterator", "AsyncGenerator", "Hashable",
              "Iterable", "Iterator", "Generator", "Reversible", "Sized", "Container", "Callable", "Collection",
              "Set", "MutableSet", "Mapping", "MutableMapping", "MappingView", "KeysView", "ItemsView",
              "ValuesView", "Sequence", "MutableSequence", "ByteString")

#: module -> removed attribute -> what the script's own code gets.
ATTRIBUTES: dict[str, dict[str, Removed]] = {
    "collections": {name: Removed(f"collections.abc.{name}", _attr(f"collections.abc.{name}"), "3.10")
                    for name in _ABC_NAMES},
    "time": {"clock": Removed("time.perf_counter (or time.process_time)", _attr("time.perf_counter"), "3.8")},
    "inspect": {
        "getargspec": Removed("inspect.getfullargspec / inspect.signature", _const(getargspec), "3.11"),
        "formatargspec": Removed("str(inspect.signature(f))", _const(formatargspec), "3.11"),
        "ArgSpec": Removed("inspect.FullArgSpec", _const(ArgSpec), "3.11"),
    },
    "fractions": {"gcd": Removed("math.gcd", _const(fractions_gcd), "3.9")},
    "base64": {
        "encodestring": Removed("base64.encodebytes", _attr("base64.encodebytes"), "3.9"),
        "decodestring": Removed("base64.decodebytes", _attr("base64.decodebytes"), "3.9"),
    },
    "cgi": {
        "escape": Removed("html.escape(s, quote=False)", _const(cgi_escape), "3.8"),
        "parse_qs": Removed("urllib.parse.parse_qs", _attr("urllib.parse.parse_qs"), "3.8"),
        "parse_qsl": Removed("urllib.parse.parse_qsl", _attr("urllib.parse.parse_qsl"), "3.8"),
    },
    "platform": {
        "linux_distribution": Removed("platform.freedesktop_os_release()", _const(linux_distribution), "3.8"),
        "dist": Removed("platform.freedesktop_os_release()", _const(platform_dist), "3.8"),
    },
    "os": {
        "errno": Removed("import errno", _const(importlib.import_module("errno")), "3.7"),
        "getcwdu": Removed("os.getcwd", _attr("os.getcwd"), "3.0"),
    },
    "asyncio": {
        "async": Removed("asyncio.ensure_future", _attr("asyncio.ensure_future"), "3.7"),
        "coroutine": Removed("async def (or types.coroutine)", _const(asyncio_coroutine), "3.11"),
    },
    "sys": {
        "setcheckinterval": Removed("sys.setswitchinterval (in seconds)", _const(_CheckInterval.set), "3.9"),
        "getcheckinterval": Removed("sys.getswitchinterval (in seconds)", _const(_CheckInterval.get), "3.9"),
    },
    "plistlib": {
        "readPlist": Removed("plistlib.load", _const(read_plist), "3.9"),
        "writePlist": Removed("plistlib.dump", _const(write_plist), "3.9"),
        "readPlistFromBytes": Removed("plistlib.loads", _attr("plistlib.loads"), "3.9"),
        "writePlistToBytes": Removed("plistlib.dumps", _attr("plistlib.dumps"), "3.9"),
    },
    "string": {
        "maketrans": Removed("str.maketrans", _const(str.maketrans), "3.0"),
        "letters": Removed("string.ascii_letters", _attr("string.ascii_letters"), "3.0"),
        "lowercase": Removed("string.ascii_lowercase", _attr("string.ascii_lowercase"), "3.0"),
        "uppercase": Removed("string.ascii_uppercase", _attr("string.ascii_uppercase"), "3.0"),
    },
    "configparser": {"SafeConfigParser": Removed("configparser.ConfigParser",
                                                 _attr("configparser.ConfigParser"), "3.12")},
    "locale": {"format": Removed("locale.format_string", _attr("locale.format_string"), "3.12")},
    "logging": {"warn": Removed("logging.warning", _attr("logging.warning"), "3.13")},
    "unittest": {"makeSuite": Removed("unittest.TestLoader().loadTestsFromTestCase",
                                      _const(make_suite), "3.13")},
}

#: Removed modules imported under the name of the module that replaced them.
MODULES: dict[str, str] = {
    "xml.etree.cElementTree": "xml.etree.ElementTree",
}

#: Removed modules served by this package when the running Python lacks them.
FALLBACK_MODULES: dict[str, str] = {
    "imp": "compat.stdlib.imp",
}


def _renamed(new: str) -> Callable[..., Any]:
    """The call of a method removed in favour of ``new`` on the same object."""
    return lambda obj, *args, **kwargs: getattr(obj, new)(*args, **kwargs)


def _dict_contains_subset(case: Any, subset: Any, dictionary: Any, msg: Any = None) -> None:
    missing = [k for k in subset if k not in dictionary or dictionary[k] != subset[k]]
    if missing:
        case.fail(msg or f"dictionary lacks or differs at {missing!r}")


_UNITTEST_ALIASES = {
    "assertEquals": "assertEqual", "assertNotEquals": "assertNotEqual", "failUnlessEqual": "assertEqual",
    "failIfEqual": "assertNotEqual", "assertAlmostEquals": "assertAlmostEqual",
    "assertNotAlmostEquals": "assertNotAlmostEqual", "failUnlessAlmostEqual": "assertAlmostEqual",
    "failIfAlmostEqual": "assertNotAlmostEqual", "assert_": "assertTrue", "failUnless": "assertTrue",
    "failIf": "assertFalse", "failUnlessRaises": "assertRaises", "assertRegexpMatches": "assertRegex",
    "assertNotRegexpMatches": "assertNotRegex", "assertRaisesRegexp": "assertRaisesRegex",
}

#: Removed methods: the object's own method when it has one, else the call here.
METHODS: dict[str, Method] = {
    "isAlive": Method("Thread.is_alive()", _renamed("is_alive"), "3.9"),
    "getchildren": Method("list(element)", lambda obj: list(obj), "3.9"),
    "getiterator": Method("element.iter(tag)", _renamed("iter"), "3.9"),
    "fromstring": Method("array.frombytes / Image.frombytes", _renamed("frombytes"), "3.9"),
    "unescape": Method("html.unescape(s)", lambda obj, s: html.unescape(s), "3.9"),
    "readfp": Method("ConfigParser.read_file", _renamed("read_file"), "3.12"),
    "assertDictContainsSubset": Method("assertLessEqual(subset.items(), d.items())", _dict_contains_subset,
                                       "3.12"),
    **{old: Method(f"TestCase.{new}", _renamed(new), "3.12") for old, new in _UNITTEST_ALIASES.items()},
}

#: Keyword arguments that were removed after years of being ignored: module -> function -> keywords.
DROPPED_KEYWORDS: dict[str, dict[str, frozenset[str]]] = {
    "json": {"loads": frozenset({"encoding"})},
}

#: Keyword arguments the script's own calls get when they leave them out: module -> function -> keyword -> value.
#: ``pickle``'s ``encoding`` decodes the ``str`` objects of a Python 2 pickle. Python 3's
#: default, 'ASCII', fails on any other byte, so a Python 2 pickle of a NumPy array
#: (CIFAR-10's python batches) or of non-ASCII text cannot be read; 'latin1' gives the
#: same text wherever 'ASCII' succeeds and keeps every byte otherwise, which is what
#: NumPy documents for such pickles. A pickle written by Python 3 is read the same either way.
DEFAULTED_KEYWORDS: dict[str, dict[str, dict[str, str]]] = {
    "pickle": {name: {"encoding": "latin1"} for name in ("load", "loads", "Unpickler")},
}

#: The Python version this table was last checked against (for the docs).
CHECKED_ON = f"{sys.version_info.major}.{sys.version_info.minor}"
