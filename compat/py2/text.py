"""Python 2 text where TensorFlow hands a translated Python 2 module its strings.

In Python 2, the ``bytes_list`` values of a ``tf.train.Example`` and the
results of ``sess.run`` on string tensors were ``str``, the same type as the
module's string literals, so ``article.split(' ')``, ``'<s>' in abstract`` and
``vocab[word]`` with ``str`` keys worked. Translated to Python 3, the literals
are ``str`` and TensorFlow gives ``bytes``: ``TypeError: argument should be
integer or bytes-like object, not 'str'``, often in a reader thread.

:class:`Py2Text` rewrites the places a translated module receives those values
(and only translated modules: Python 3 code keeps its bytes):

* ``<x>.bytes_list.value[i]`` -> ``__compat__.text(<x>.bytes_list.value[i])``
  (a slice too), and ``<x>.bytes_list.value`` read as a whole (``for w in ...``,
  ``list(...)``) -> ``__compat__.texts(...)``, a list; the field is left as it is
  where it is written (``.extend``, ``.append``, ``del``, item assignment);
* ``<s>.run(...)`` and ``<t>.eval(...)`` -> ``__compat__.run_result(...)``: bytes
  scalars and object arrays of bytes inside the fetched structure (lists,
  tuples, named tuples, dicts) become text;
* ``tf.py_func(f, ...)`` / ``tf.numpy_function(f, ...)`` -> ``f`` gets its string
  arguments as text (``__compat__.text_args(f)``);
* ``pickle.load(f)`` / ``loads`` / ``Unpickler`` (also as ``cPickle``) without an
  ``encoding`` -> ``__compat__.pickle2...`` (:mod:`compat.py2.pickle2`): the
  pickle's Python 2 ``str`` objects by the same rule.

A value becomes ``str`` only when it is valid UTF-8, and then it encodes back to
exactly its bytes (TensorFlow, ``BytesList`` through the Python 2 writers'
rewrite and ``np.fromstring`` all encode ``str`` as UTF-8), so nothing is lost.
Bytes that are not UTF-8 (JPEG, PNG, most packed arrays) stay bytes, as in the
module's text-mode file reads (:mod:`compat.py2.runtime`).
"""
from __future__ import annotations

import ast
import functools
import re
import sys
from collections.abc import Callable
from typing import Any

from compat.surfaces.source_pass import SourcePass, helper, import_aliases, import_statements, short

__all__ = ["Py2Text", "failure_hint", "run_result", "text", "text_args", "texts", "utf8_literal"]

FIELD_ACTION = ("Python 2 text: a tf.train.Example bytes value that is valid UTF-8 is read as str "
                "(Python 2's str, the type of the module's literals); other bytes stay bytes")
RUN_ACTION = ("Python 2 text: string results (bytes scalars, object arrays of bytes) that are valid "
              "UTF-8 are str, as Python 2's str; other results unchanged")
PY_FUNC_ACTION = "Python 2 text: the function gets its string arguments as str when they are valid UTF-8"
PICKLE_ACTION = ("Python 2 text: the pickle's Python 2 str objects are str where they are valid UTF-8, else "
                 "bytes (NumPy arrays keep their bytes); not Latin-1 text")

#: The pickle module's names for reading, and what reads Python 2 pickles in their place (compat.py2.pickle2).
_PICKLE_READERS = frozenset({"load", "loads", "Unpickler"})
_PICKLE_MODULES = frozenset({"pickle", "cPickle", "_pickle"})

#: Methods whose results are fetched tensor values: ``Session.run``, ``Tensor.eval``.
_FETCHING = frozenset({"run", "eval"})
#: ``tf.py_func``-like calls whose first argument is a Python function fed tensor values.
_PY_FUNCS = frozenset({"py_func", "numpy_function"})


# --------------------------------------------------------------------------
# Run time
# --------------------------------------------------------------------------

def text(value: Any) -> Any:
    """``value`` as Python 2 code saw it: bytes that are valid UTF-8 -> str; a list -> each element.

    Anything else is returned unchanged (also bytes that are not UTF-8).
    """
    if isinstance(value, bytes):
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            return value
    if isinstance(value, list):
        return [text(v) for v in value]
    return value


def texts(values: Any) -> list[Any]:
    """A repeated bytes field read as a whole: a list of :func:`text` of each element."""
    return [text(v) for v in values]


def _object_array(value: Any) -> Any:
    """An object array with its bytes elements as text (the same array if none changes)."""
    np = sys.modules["numpy"]
    flat = value.ravel()
    converted = [text(v) if isinstance(v, bytes) else v for v in flat]
    if all(a is b for a, b in zip(converted, flat, strict=True)):
        return value
    out = np.empty(len(converted), dtype=object)
    out[:] = converted
    return out.reshape(value.shape)


def run_result(value: Any) -> Any:
    """A fetched structure (``sess.run``'s result) with its string values as Python 2 text.

    Bytes scalars and object arrays of bytes are converted (:func:`text`), inside
    lists, tuples (named tuples keep their type) and dicts; every other value,
    and any structure in which nothing changes, is returned as it is.
    """
    if isinstance(value, bytes):
        return text(value)
    np = sys.modules.get("numpy")
    if np is not None and isinstance(value, np.ndarray):
        return _object_array(value) if value.dtype == object else value
    if type(value) in (list, tuple) or (isinstance(value, tuple) and hasattr(value, "_fields")):
        items = [run_result(v) for v in value]
        if all(a is b for a, b in zip(items, value, strict=True)):
            return value
        if type(value) is list:
            return items
        return type(value)(items) if type(value) is tuple else type(value)(*items)
    if type(value) is dict:
        converted = {k: run_result(v) for k, v in value.items()}
        return value if all(converted[k] is v for k, v in value.items()) else converted
    return value


def text_args(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func`` getting each argument through :func:`run_result` (``tf.py_func``'s function)."""
    if not callable(func):
        return func

    @functools.wraps(func)
    def wrapper(*args: Any) -> Any:
        return func(*[run_result(a) for a in args])

    return wrapper


#: Python 3.11's TypeErrors for bytes meeting str (``b'a b'.split(' ')``, ``'<s>' + b'x'``, ``' '.join([b'a'])``).
_BYTES_MEETS_STR = re.compile(r"bytes-like object is required, not 'str'|bytes-like object, not 'str'"
                              r"|can't concat str to bytes|can only concatenate str \(not \"bytes\"\)"
                              r"|expected str instance, bytes found|must be bytes or a tuple of bytes, not str")


def failure_hint(exc: BaseException) -> str | None:
    """The ``compat:`` advice for a ``TypeError`` of bytes meeting str in the script's code, or None."""
    if not isinstance(exc, TypeError) or not _BYTES_MEETS_STR.search(str(exc)):
        return None
    return ("bytes met a str: TensorFlow gives bytes (Example values, sess.run of strings, py_func arguments, "
            "GFile binary reads) where Python 2 gave str; a module written for Python 2 gets them as text "
            "when it is translated (python -m compat run --py2 translates every module); Python 3 code decodes "
            "them: value.decode('utf-8')")


# --------------------------------------------------------------------------
# Literals: str literals that spell UTF-8 bytes with escapes
# --------------------------------------------------------------------------

LITERAL_CONSTRUCT = "Python 2 str literal of UTF-8 bytes written as escapes ('\\xe2\\x80\\x99')"
LITERAL_ACTION = ("translated: the text its bytes spell in UTF-8 ('\u2019'), as TensorFlow's and the files' "
                  "Python 2 text is read; escapes that are not UTF-8 are kept")
_ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{2}|[0-7]{1,3})")


def _python2_bytes(token: str) -> bytes | None:
    """The bytes a Python 2 ``str`` literal token stands for (non-ASCII source characters as their
    UTF-8 bytes, as a UTF-8 source file holds them); None if it is not a plain one-line ``str`` literal."""
    if token[:1] not in ("'", '"') or "\n" in token:
        return None  # a prefix (u, b, r) or several lines
    escaped = "".join(c if ord(c) < 0x80 else "".join(f"\\x{b:02x}" for b in c.encode("utf-8")) for c in token)
    try:
        value = ast.literal_eval("b" + escaped)
    except (SyntaxError, ValueError):
        return None
    return value if isinstance(value, bytes) else None


def utf8_literal(token: str) -> str | None:
    """A Python 3 literal for the Python 2 ``str`` literal ``token`` whose escapes spell UTF-8 bytes
    (``'\\xe2\\x80\\x99'`` -> ``'\u2019'``, the same text Python 2 code compared with), or None
    when the literal has no such escape, is not valid UTF-8, or has a prefix (``u``, ``b``, ``r``)."""
    if "\\" not in token or not _ESCAPE.search(token):
        return None
    raw = _python2_bytes(token)
    if raw is None or raw.isascii():
        return None
    try:
        return repr(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return None


# --------------------------------------------------------------------------
# The source rewrite
# --------------------------------------------------------------------------

def _is_field(node: ast.AST) -> bool:
    """``<x>.bytes_list.value``."""
    return (isinstance(node, ast.Attribute) and node.attr == "value" and isinstance(node.value, ast.Attribute)
            and node.value.attr == "bytes_list")


def _is_app_or_helper(owner: ast.expr) -> bool:
    """``tf.app`` / ``app`` (``app.run(main)`` starts the program) or ``__compat__``."""
    name = owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else ""
    return name in ("app", "__compat__")


class Py2Text(SourcePass):
    """Rewrites a translated Python 2 module's reads of TensorFlow strings (module docstring)."""

    def __init__(self, tree: ast.Module) -> None:
        super().__init__()
        self._written: set[int] = set()  # ids of fields used as a receiver or assignment target
        imports = import_statements(tree)
        self._pickle = set(import_aliases(imports, _PICKLE_MODULES))
        self._pickle.update(alias.asname or alias.name for node in imports if isinstance(node, ast.ImportFrom)
                            and node.module == "six.moves" for alias in node.names if alias.name == "cPickle")

    def visit_Attribute(self, node: ast.Attribute) -> Any:
        if _is_field(node.value):
            self._written.add(id(node.value))  # .extend / .append / .add: the field itself
        self.generic_visit(node)
        if not _is_field(node) or not isinstance(node.ctx, ast.Load) or id(node) in self._written:
            return node
        self.record(node, short(node), FIELD_ACTION)
        return ast.copy_location(ast.Call(func=helper("texts"), args=[node], keywords=[]), node)

    def visit_Subscript(self, node: ast.Subscript) -> Any:
        field = _is_field(node.value)
        if field:
            self._written.add(id(node.value))
        self.generic_visit(node)
        if not field or not isinstance(node.ctx, ast.Load):
            return node
        self.record(node, short(node), FIELD_ACTION)
        return ast.copy_location(ast.Call(func=helper("text"), args=[node], keywords=[]), node)

    def visit_Call(self, node: ast.Call) -> Any:
        self.generic_visit(node)
        func = node.func
        if not isinstance(func, ast.Attribute):
            return node
        if func.attr in _PY_FUNCS and (node.args or any(k.arg == "func" for k in node.keywords)):
            self.record(node, short(node), PY_FUNC_ACTION)
            if node.args:
                node.args[0] = ast.copy_location(ast.Call(func=helper("text_args"), args=[node.args[0]],
                                                          keywords=[]), node.args[0])
            else:
                node.keywords = [ast.keyword(arg="func", value=ast.Call(func=helper("text_args"), args=[k.value],
                                                                        keywords=[]))
                                 if k.arg == "func" else k for k in node.keywords]
            return node
        if self._python2_pickle(node):
            self.record(node, short(node), PICKLE_ACTION)
            node.func = ast.copy_location(helper("pickle2", func.attr), func)
            return node
        if func.attr in _FETCHING and not _is_app_or_helper(func.value):
            self.record(node, short(node), RUN_ACTION)
            return ast.copy_location(ast.Call(func=helper("run_result"), args=[node], keywords=[]), node)
        return node

    def _python2_pickle(self, node: ast.Call) -> bool:
        """``pickle.load(f)`` & co. on a module alias, with no ``encoding=`` and no ``**kwargs``."""
        func = node.func
        return (isinstance(func, ast.Attribute) and func.attr in _PICKLE_READERS and isinstance(func.value, ast.Name)
                and func.value.id in self._pickle and all(k.arg not in (None, "encoding") for k in node.keywords))
