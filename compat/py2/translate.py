"""Python 2 modules: recognise them, translate them with fissix, keep Python 2 semantics.

A module of the script is **Python 2** when

* it does not parse as Python 3 and fissix (the maintained lib2to3 fork) can
  parse it, or
* it parses as Python 3 but uses what only Python 2 has (:func:`python2_markers`:
  ``xrange``, ``unicode``, ``d.iteritems()``, ``import cPickle``, ``sys.maxint``,
  ...), outside a ``try`` block and outside an ``if`` on the Python version, or
* the runner was started with ``--py2`` (every local module is then Python 2:
  a Python 2 module can be valid Python 3 with only ``/`` to tell).

A Python 2 module is translated in memory by :func:`translate`: fissix's
fixers (:data:`FIXERS`) rewrite its syntax and its list-returning builtins,
and the result is parsed again with :mod:`ast`, whose line numbers are mapped
back to the original file (:func:`remap_lines`), so tracebacks point at the
user's lines. :class:`Py2Semantics` then keeps what the syntax hides:

* ``a / b`` and ``a /= b`` without ``from __future__ import division`` go to
  ``__compat__.div`` / ``idiv`` (:mod:`compat.py2.runtime`): integers floor,
  tensors use ``tf.compat.v1.div``, floats divide truly;
* ``open(name)`` / ``open(name, 'r')`` and ``tf.gfile.GFile`` / ``FastGFile``
  opened for reading text go through ``__compat__.open`` / ``gfile``, which
  give bytes for content that is not UTF-8 (see :mod:`compat.py2.runtime`);
* ``round(x)`` rounds halves away from zero and gives a float (``__compat__.round``);
* ``x.decode(...)`` on a ``str`` and ``x.encode(...)`` on ``bytes`` work as on
  Python 2's ``str``, which had both (``__compat__.decode`` / ``encode``);
* ``print("a", b)`` prints the tuple, as the Python 2 statement did, and
  ``print`` writes ``bytes`` as their text (``__compat__.print``), not as ``b'...'``;
* a class with a ``next`` method and no ``__next__`` gets one calling ``next``.

fissix is imported only when a module needs translating. Importing this module
imports nothing but the standard library and :mod:`compat.surfaces.fallbacks` (the version tests).
"""
from __future__ import annotations

import ast
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from compat.surfaces import fallbacks

__all__ = [
    "FIXERS",
    "FIXER_CONSTRUCTS",
    "Edit",
    "Fix",
    "Py2Semantics",
    "Translation",
    "UntranslatableError",
    "describe_fix",
    "has_true_division",
    "python2_markers",
    "remap_lines",
    "translate",
]

#: fissix fixers applied: 2to3's default set, except ``has_key`` and ``next``
#: (calls go through the runner's helpers, which still call an object's own
#: ``has_key``/``next`` method), ``future`` (``from __future__ import division``
#: stays visible; Python 3 accepts it) and the optional ones 2to3 does not run by
#: default (``buffer``, ``idioms``, ``set_literal``, ``ws_comma``).
FIXERS: tuple[str, ...] = (
    "apply", "asserts", "basestring", "dict", "except", "exec", "execfile", "exitfunc",
    "filter", "funcattrs", "getcwdu", "import", "imports", "imports2", "input", "intern",
    "isinstance", "itertools", "itertools_imports", "long", "map", "metaclass",
    "methodattrs", "ne", "nonzero", "numliterals", "operator", "paren", "print", "raise",
    "raw_input", "reduce", "reload", "renames", "repr", "standarderror", "sys_exc", "throw",
    "tuple_params", "types", "unicode", "urllib", "xrange", "xreadlines", "zip",
)

#: What each fixer translates, as the check report names it.
FIXER_CONSTRUCTS: dict[str, str] = {
    "apply": "Python 2 apply(f, args)",
    "asserts": "old unittest assert name",
    "basestring": "Python 2 basestring",
    "dict": "dict.keys()/items()/values() used as a list",
    "except": "Python 2 except clause (except E, e:)",
    "exec": "Python 2 exec statement",
    "execfile": "Python 2 execfile()",
    "exitfunc": "sys.exitfunc",
    "filter": "filter() used as a list",
    "funcattrs": "Python 2 function attribute (f.func_name, ...)",
    "getcwdu": "os.getcwdu()",
    "import": "implicit relative import",
    "imports": "renamed Python 2 standard module",
    "imports2": "renamed Python 2 standard module",
    "input": "Python 2 input() (evaluates what is typed)",
    "intern": "Python 2 intern()",
    "isinstance": "duplicate type in isinstance()",
    "itertools": "itertools.imap/izip/ifilter",
    "itertools_imports": "import of itertools.imap/izip/ifilter",
    "long": "Python 2 long",
    "map": "map() used as a list",
    "metaclass": "Python 2 __metaclass__",
    "methodattrs": "Python 2 method attribute (m.im_func, ...)",
    "ne": "Python 2 <> operator",
    "nonzero": "Python 2 __nonzero__",
    "numliterals": "Python 2 octal or long literal (0777, 10L)",
    "operator": "removed operator function (operator.isCallable, ...)",
    "paren": "unparenthesised tuple in a comprehension",
    "print": "Python 2 print statement",
    "print_tuple": "Python 2 print statement of a tuple",
    "utf8_literal": "Python 2 str literal of UTF-8 bytes written as escapes",
    "raise": "Python 2 raise statement (raise E, msg)",
    "raw_input": "Python 2 raw_input()",
    "reduce": "Python 2 builtin reduce()",
    "reload": "Python 2 builtin reload()",
    "renames": "renamed sys attribute (sys.maxint)",
    "repr": "Python 2 backquote repr (`x`)",
    "standarderror": "Python 2 StandardError",
    "sys_exc": "sys.exc_type/exc_value/exc_traceback",
    "throw": "Python 2 generator.throw(E, msg)",
    "tuple_params": "Python 2 tuple parameter (def f((a, b)):)",
    "types": "Python 2 types.*Type name",
    "unicode": "Python 2 unicode / unichr / u'' literal",
    "urllib": "Python 2 urllib / urllib2 name",
    "xrange": "Python 2 xrange / range() used as a list",
    "xreadlines": "file.xreadlines()",
    "zip": "zip() used as a list",
}


#: How a syntax error in a module that is neither Python 3 nor Python 2 begins.
UNTRANSLATABLE = "invalid as Python 3 and as Python 2"


class UntranslatableError(SyntaxError):
    """fissix cannot parse the module: it is not Python 2 either (line and column where it failed)."""


@dataclass(frozen=True)
class Fix:
    """One place fissix changed: original line (1-based), column (0-based), fixer, original text."""

    line: int
    col: int
    fixer: str
    text: str


@dataclass(frozen=True)
class Translation:
    """A Python 2 module translated to Python 3.

    Attributes:
        source: the Python 3 source.
        line_map: ``line_map[n]`` is the original line of line ``n`` of ``source``
            (index 0 unused).
        fixes: what fissix changed, in the original's line numbers.
    """

    source: str
    line_map: tuple[int, ...]
    fixes: tuple[Fix, ...]

    def original_line(self, line: int) -> int:
        """The original line of ``line`` of the translated source."""
        if 0 < line < len(self.line_map):
            return self.line_map[line]
        return self.line_map[-1] if len(self.line_map) > 1 else max(line, 1)


def describe_fix(fixer: str) -> tuple[str, str]:
    """(construct, action) of a fissix fix, for the check report."""
    construct = FIXER_CONSTRUCTS.get(fixer, f"Python 2 construct ({fixer})")
    if fixer == "print_tuple":
        return construct, "translated: prints the tuple, as Python 2 did (fissix fix_print)"
    if fixer == "utf8_literal":
        return construct, ("translated: the text its bytes spell in UTF-8, as the module's other Python 2 text "
                           "(files, tf.train.Example values) is read")
    return construct, f"translated (fissix fix_{fixer})"


# --------------------------------------------------------------------------
# Recognising Python 2 code that parses as Python 3
# --------------------------------------------------------------------------

#: Names that are builtins in Python 2 only.
PY2_ONLY_BUILTINS = frozenset({
    "xrange", "raw_input", "unicode", "basestring", "long", "unichr", "reduce", "reload",
    "intern", "execfile", "file", "cmp", "apply", "buffer", "coerce",
})

#: Standard modules of Python 2 that Python 3 renamed or removed (not `commands`: a common
#: name for a project's own package).
PY2_ONLY_MODULES = frozenset({
    "cPickle", "StringIO", "cStringIO", "urllib2", "urlparse", "Queue", "ConfigParser",
    "__builtin__", "httplib", "Tkinter", "HTMLParser", "cookielib",
    "SocketServer", "copy_reg", "htmlentitydefs", "xmlrpclib", "anydbm", "dummy_thread",
})

#: Methods only Python 2 objects have (called with these argument counts).
PY2_ONLY_METHODS: dict[str, int] = {"iteritems": 0, "itervalues": 0, "iterkeys": 0, "has_key": 1}

_VERSION_WORDS = ("version_info", "version", "hexversion", "PY2", "PY3", "PY34", "PY35")


def _is_version_test(test: ast.expr) -> bool:
    for node in ast.walk(test):
        name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
        if name in _VERSION_WORDS:
            return True
    return False


class _Markers(ast.NodeVisitor):
    """Python-2-only constructs outside ``try`` bodies and the Python 2 branch of version tests."""

    def __init__(self, bound: set[str], versions: fallbacks.VersionTests) -> None:
        self._bound = bound
        self._versions = versions
        self.found: list[tuple[int, str]] = []

    def visit_Try(self, node: ast.Try) -> None:
        # `try: import cPickle except ImportError: import pickle` is 2-and-3 code.
        for part in (*node.handlers, *node.orelse, *node.finalbody):
            self.visit(part)

    def visit_If(self, node: ast.If) -> None:
        # The branch Python 3 runs counts; the other one is the script's Python 2 alternative
        # (the same evaluation `compat check` uses for its fallbacks). A version test that
        # cannot be evaluated hides both branches.
        value = self._versions.value(node.test)
        if value is fallbacks.UNKNOWN:
            if not _is_version_test(node.test):
                self.generic_visit(node)
            return
        for statement in node.body if value else node.orelse:
            self.visit(statement)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name.split(".")[0] in PY2_ONLY_MODULES:
                self.found.append((node.lineno, f"import {alias.name}"))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level == 0 and node.module and node.module.split(".")[0] in PY2_ONLY_MODULES:
            self.found.append((node.lineno, f"from {node.module} import ..."))

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load) and node.id in PY2_ONLY_BUILTINS and node.id not in self._bound:
            self.found.append((node.lineno, node.id))

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.value, ast.Name) and node.value.id == "sys" and node.attr == "maxint":
            self.found.append((node.lineno, "sys.maxint"))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if (isinstance(func, ast.Attribute) and PY2_ONLY_METHODS.get(func.attr) == len(node.args)
                and not node.keywords):
            self.found.append((node.lineno, f".{func.attr}()"))
        self.generic_visit(node)

    def visit_Expr(self, node: ast.Expr) -> None:
        if isinstance(node.value, ast.Name) and node.value.id == "print":
            self.found.append((node.lineno, "print"))  # a bare `print` statement
        self.generic_visit(node)


def python2_markers(tree: ast.Module, bound: Iterable[str]) -> list[tuple[int, str]]:
    """(line, construct) of every Python-2-only construct of a module that parses as Python 3.

    ``bound`` is every name the module binds (a module that defines its own
    ``xrange`` is not Python 2 for using it). Code in ``try`` bodies and under
    ``if`` tests on the Python version is 2-and-3 code and is not counted.
    """
    markers = _Markers(set(bound), fallbacks.VersionTests(tree))
    markers.visit(tree)
    return markers.found


# --------------------------------------------------------------------------
# Translation with fissix
# --------------------------------------------------------------------------

_lock = threading.Lock()
_cache: dict[tuple[str, str, bool, bool], Translation] = {}
_tools: list[Any] = []
#: The fixes of the translation in progress (translations run one at a time, under _lock).
_active_log: list[list[Fix]] = []


def _make_tool(fixers: Sequence[str]) -> Any:
    """A fissix RefactoringTool with ``fixers`` (of :data:`FIXERS`), dict iter* methods left to the runner."""
    from fissix import refactor
    from fissix.fixes import fix_dict

    class _FixDictLists(fix_dict.FixDict):
        """``fix_dict`` without ``iteritems``/``iterkeys``/``itervalues``.

        Those go through the runner's helper, which still calls an object's own
        ``iteritems`` method (a Python 2 class of the script may define one).
        """

        def transform(self, node: Any, results: dict[str, Any]) -> Any:
            if results["method"][0].value.startswith("iter"):
                return None
            return super().transform(node, results)

    class _Tool(refactor.RefactoringTool):
        def get_fixers(self) -> tuple[list[Any], list[Any]]:
            pre, post = super().get_fixers()
            swap = [_FixDictLists(self.options, self.fixer_log) if isinstance(f, fix_dict.FixDict)
                    else f for f in post]
            return pre, swap

    return _Tool([f"fissix.fixes.fix_{name}" for name in fixers])


def _first_position(node: Any) -> tuple[int, int]:
    """(original line, column) of the first leaf of ``node`` that came from the file."""
    current = node
    while current is not None:
        for leaf in current.leaves():
            if leaf.lineno:
                return leaf.lineno, leaf.column
        current = current.parent
    return 0, 0


def _short_text(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


#: Fixers that change the tree elsewhere (an added import) and leave the matched node as it was.
_SIDE_EFFECT_FIXERS = frozenset({"reduce"})


def _fix_places(node: Any, fixer: str) -> list[tuple[int, int, str]]:
    """(line, column, text) of what ``fixer`` is about to change in ``node``.

    ``fix_except`` matches the whole ``try`` statement; its places are the
    ``except E, e:`` clauses.
    """
    if fixer == "except":
        clauses = [c for c in node.children if c.type == _symbol("except_clause")
                   and any(getattr(leaf, "value", None) == "," for leaf in c.children)]
        if clauses:
            return [(*_first_position(c), _short_text(str(c))) for c in clauses]
    return [(*_first_position(node), _short_text(str(node)))]


def _symbol(name: str) -> int:
    from fissix import pygram
    return int(getattr(pygram.python_symbols, name))


def _record_fixes(tool: Any) -> None:
    """Make every fixer of ``tool`` note a :class:`Fix` in the active log when it changes something."""
    for fixer in [*tool.pre_order, *tool.post_order]:
        if getattr(fixer, "_compat_recording", False):
            continue
        name = type(fixer).__module__.rsplit(".", 1)[-1].removeprefix("fix_")
        if name not in FIXERS:
            name = "dict"  # the subclass defined in _make_tool
        original = fixer.transform

        def transform(node: Any, results: Any, _original: Any = original, _name: str = name) -> Any:
            before = str(node)
            places = _fix_places(node, _name)
            new = _original(node, results)
            if new is not None or str(node) != before or _name in _SIDE_EFFECT_FIXERS:
                _active_log[-1].extend(Fix(line, col, _name, text) for line, col, text in places)
            return new

        fixer.transform = transform
        fixer._compat_recording = True


def _parse_py2(source: str, print_function: bool = False) -> Any:
    """The fissix tree of ``source``: Python 2 grammar, or print as a function when declared,
    asked for (``print_function``) or needed."""
    from fissix import pygram, pytree
    from fissix.pgen2 import driver
    from fissix.refactor import _detect_future_features

    features = _detect_future_features(source)
    grammars = [pygram.python_grammar, pygram.python_grammar_no_print_statement]
    if print_function or "print_function" in features:
        grammars.reverse()
    errors: list[Exception] = []
    for grammar in grammars:
        try:
            tree = driver.Driver(grammar, convert=pytree.convert).parse_string(source)
        except Exception as exc:  # ParseError, TokenError, IndentationError
            errors.append(exc)
            continue
        tree.future_features = features
        tree.compat_print_statement = grammar is pygram.python_grammar
        return tree
    first = errors[0]
    line, col = _error_position(first)
    reason = getattr(first, "msg", None) or (first.args[0] if first.args else type(first).__name__)
    raise UntranslatableError(f"{UNTRANSLATABLE} ({reason})", ("", line, col + 1, None))


def _error_position(error: Exception) -> tuple[int, int]:
    """(line, column) where fissix's parser or tokenizer stopped."""
    context = getattr(error, "context", None)  # ParseError: (prefix, (line, column))
    if context and len(context) == 2 and isinstance(context[1], tuple):
        return int(context[1][0]), int(context[1][1])
    if isinstance(error, SyntaxError):
        return error.lineno or 1, max((error.offset or 1) - 1, 0)
    args: tuple[Any, ...] = tuple(getattr(error, "args", ()))
    if len(args) == 2 and isinstance(args[1], tuple) and len(args[1]) == 2:  # TokenError
        return int(args[1][0]), int(args[1][1])
    return 1, 0


def _print_tuples(tree: Any, log: list[Fix]) -> None:
    """``print ("a", b)`` printed the tuple in Python 2: parenthesise it again so fix_print keeps it."""
    from fissix import pygram, pytree
    from fissix.pgen2 import token

    syms = pygram.python_symbols
    for node in tree.pre_order():
        if node.type != syms.print_stmt or len(node.children) != 2:
            continue
        atom = node.children[1]
        if (atom.type == syms.atom and len(atom.children) == 3 and atom.children[0].value == "("
                and atom.children[1].type == syms.testlist_gexp
                and any(getattr(c, "value", None) == "," for c in atom.children[1].children)):
            inner = atom.clone()
            inner.prefix = ""
            wrapped = pytree.Node(syms.atom, [pytree.Leaf(token.LPAR, "("), inner,
                                              pytree.Leaf(token.RPAR, ")")], prefix=atom.prefix)
            line, col = _first_position(node)
            text = _short_text(str(node))
            atom.replace(wrapped)
            log.append(Fix(line, col, "print_tuple", text))


def _utf8_literals(tree: Any, log: list[Fix]) -> None:
    """Python 2 ``str`` literals whose escapes spell UTF-8 text become that text (:func:`compat.py2.text.utf8_literal`).

    ``'\\xe2\\x80\\x99'`` was the bytes of '\u2019' in Python 2, equal to the same word read from a
    file or a ``tf.train.Example``, which the translated module reads as text. Not in modules with
    ``from __future__ import unicode_literals`` (their literals were text already).
    """
    from fissix.pgen2 import token

    from compat.py2.text import utf8_literal

    if "unicode_literals" in getattr(tree, "future_features", ()):
        return
    for leaf in tree.leaves():
        if leaf.type != token.STRING:
            continue
        literal = utf8_literal(leaf.value)
        if literal is not None:
            log.append(Fix(leaf.lineno, leaf.column, "utf8_literal", _short_text(leaf.value)))
            leaf.value = literal


def _line_map(tree: Any) -> tuple[int, ...]:
    """For each line of ``str(tree)``, the original line it comes from (index 0 unused)."""
    known: dict[int, int] = {}
    line = 1
    for leaf in tree.leaves():
        line += leaf.prefix.count("\n")
        if leaf.lineno:
            for offset in range(leaf.value.count("\n") + 1):
                known.setdefault(line + offset, leaf.lineno + offset)
        line += leaf.value.count("\n")
    mapping = [0]
    previous = 1
    for out in range(1, line + 1):
        previous = known.get(out, previous)
        mapping.append(previous)
    return tuple(mapping)


def translate(source: str, filename: str, print_function: bool = False,
              top_level: bool = False) -> Translation:
    """Translate the Python 2 module ``source`` (the file ``filename``) to Python 3, in memory.

    ``print_function``: read ``print(...)`` as the function, as under ``from
    __future__ import print_function`` (for a module that is valid Python 3 and
    Python 2 only by its leftovers: see :func:`compat.runner.rewrite.parse_legacy`).
    ``top_level``: the module has no parent package (the script run as ``__main__``,
    or a sibling imported by its top-level name), so its imports stay absolute
    (2to3's ``import`` fixer makes ``from sibling import x`` relative inside a
    package folder, which fails in a module with no parent package; Python 2 found
    the sibling through ``sys.path[0]``, as Python 3 still does).
    Cached per process by (filename, source, print_function, top_level).

    Raises:
        UntranslatableError: fissix cannot parse the source.
    """
    key = (filename, source, print_function, top_level)
    with _lock:
        cached = _cache.get(key)
        if cached is not None:
            return cached
        if not _tools:
            _tools.extend((_make_tool(FIXERS), _make_tool(tuple(f for f in FIXERS if f != "import"))))
        tool = _tools[1 if top_level else 0]
        _record_fixes(tool)
        text = source if source.endswith("\n") else source + "\n"
        tree = _parse_py2(text, print_function)
        log: list[Fix] = []
        if tree.compat_print_statement:
            _print_tuples(tree, log)
        _utf8_literals(tree, log)
        _active_log.append(log)
        try:
            tool.refactor_tree(tree, filename)
        finally:
            _active_log.pop()
        output = str(tree)
        if not source.endswith("\n"):
            output = output.removesuffix("\n")
        # Fixers run bottom-up, so the last fix noted at a place shows its original text.
        unique = {(f.line, f.col, f.fixer): f for f in log}
        fixes = tuple(sorted(unique.values(), key=lambda f: (f.line, f.col, f.fixer)))
        result = Translation(source=output, line_map=_line_map(tree), fixes=fixes)
        _cache[key] = result
        return result


def remap_lines(tree: ast.AST, translation: Translation) -> None:
    """Give every node of ``tree`` (parsed from ``translation.source``) its original line."""
    for node in ast.walk(tree):
        if hasattr(node, "lineno"):
            start = translation.original_line(node.lineno)
            end = translation.original_line(getattr(node, "end_lineno", None) or node.lineno)
            node.lineno = start
            setattr(node, "end_lineno", max(start, end))  # noqa: B010 - typed ast.AST, which declares none


# --------------------------------------------------------------------------
# Python 2 semantics the syntax hides
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class Edit:
    """One place :class:`Py2Semantics` changed: line, column, construct, what the runner does."""

    line: int
    col: int
    construct: str
    action: str


DIVISION_ACTION = ("Python 2 division: integers (Python and NumPy) floor, tensors use "
                   "tf.compat.v1.div, floats divide truly")
OPEN_ACTION = ("Python 2 text read: the content as str if it is UTF-8, else as bytes "
               "(Python 2 gave bytes)")
GFILE_NAMES = frozenset({"GFile", "FastGFile", "Open"})
ROUND_ACTION = "Python 2 round(): halves away from zero, a float (round(2.5) == 3.0)"
#: ``x.decode(...)`` / ``x.encode(...)``: Python 2's str had both.
CODEC_METHODS = frozenset({"decode", "encode"})
CODEC_ACTION = ("Python 2 str method: str.decode decodes its UTF-8 bytes, bytes.encode encodes "
                "its text; other objects keep their own method")


#: ``BytesList(value=...)`` and ``<x>.bytes_list.value.extend(...)`` / ``.append(...)``: the
#: ``tf.train.Example`` writers of Python 2 put ``str`` (bytes there) into bytes fields.
BYTES_FIELD_ACTION = ("Python 2 str in a protobuf bytes field: str values are stored as their UTF-8 "
                      "bytes, as Python 2's str was bytes")
BYTES_FIELD_METHODS = {"extend": "bytes_values", "append": "bytes_value"}


def _is_bytes_list_class(func: ast.expr) -> bool:
    """``BytesList`` / ``tf.train.BytesList`` / ``example_pb2.BytesList``."""
    return (isinstance(func, ast.Name) and func.id == "BytesList") or (
        isinstance(func, ast.Attribute) and func.attr == "BytesList")


def _bytes_field_method(func: ast.expr) -> str | None:
    """The helper for ``<x>.bytes_list.value.extend`` / ``.append``, else None."""
    if not isinstance(func, ast.Attribute) or func.attr not in BYTES_FIELD_METHODS:
        return None
    field = func.value
    if (isinstance(field, ast.Attribute) and field.attr == "value"
            and isinstance(field.value, ast.Attribute) and field.value.attr == "bytes_list"):
        return BYTES_FIELD_METHODS[func.attr]
    return None


def _is_float_literal(node: ast.expr) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant) and isinstance(node.value, (float, complex))


def _short(node: ast.AST, limit: int = 60) -> str:
    text = ast.unparse(node)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _index_expression(node: ast.expr) -> ast.expr:
    """A subscript's index as an ordinary expression (slices become ``slice(...)`` calls)."""
    if isinstance(node, ast.Slice):
        parts = [node.lower, node.upper, node.step]
        args = [p if p is not None else ast.Constant(None) for p in parts]
        return ast.Call(func=ast.Name(id="slice", ctx=ast.Load()), args=args, keywords=[])
    if isinstance(node, ast.Tuple):
        return ast.Tuple(elts=[_index_expression(e) for e in node.elts], ctx=ast.Load())
    return node


def _mode_argument(node: ast.Call, position: int) -> ast.expr | None:
    if len(node.args) > position:
        return node.args[position]
    return next((k.value for k in node.keywords if k.arg == "mode"), None)


def _reads_text(mode: ast.expr | None) -> bool | None:
    """True/False for a literal mode (absent is 'r'), None if it is computed at run time."""
    if mode is None:
        return True
    if isinstance(mode, ast.Constant) and isinstance(mode.value, str):
        return "b" not in mode.value
    return None


def _gfile_call(func: ast.expr) -> bool:
    """``tf.gfile.GFile``, ``gfile.FastGFile``, ``tf.io.gfile.GFile``, ``tf.gfile.Open``, ..."""
    if not isinstance(func, ast.Attribute) or func.attr not in GFILE_NAMES:
        return False
    owner = func.value
    return (isinstance(owner, ast.Attribute) and owner.attr == "gfile") or (
        isinstance(owner, ast.Name) and owner.id == "gfile")


class Py2Semantics(ast.NodeTransformer):
    """Rewrites a translated Python 2 module so that it keeps Python 2 semantics.

    Args:
        helper: makes the expression of a ``__compat__`` attribute.
        bound: every name the module binds (a module with its own ``open`` keeps it).
        true_division: the module has ``from __future__ import division``.
    """

    def __init__(self, helper: Callable[[str], ast.expr], bound: Iterable[str],
                 true_division: bool) -> None:
        self._helper = helper
        self._bound = set(bound)
        self._true_division = true_division
        self.edits: list[Edit] = []

    def _edit(self, node: ast.AST, construct: str, action: str) -> None:
        self.edits.append(Edit(getattr(node, "lineno", 0), getattr(node, "col_offset", 0),
                               construct, action))

    def _call(self, name: str, args: Sequence[ast.expr], like: ast.AST,
              keywords: Sequence[ast.keyword] = ()) -> ast.Call:
        return ast.copy_location(ast.Call(func=self._helper(name), args=list(args),
                                          keywords=list(keywords)), like)

    def visit_BinOp(self, node: ast.BinOp) -> Any:
        self.generic_visit(node)
        if (not isinstance(node.op, ast.Div) or self._true_division
                or _is_float_literal(node.left) or _is_float_literal(node.right)):
            return node
        self._edit(node, _short(node), DIVISION_ACTION)
        return self._call("div", [node.left, node.right], node)

    def visit_AugAssign(self, node: ast.AugAssign) -> Any:
        self.generic_visit(node)
        if not isinstance(node.op, ast.Div) or self._true_division or _is_float_literal(node.value):
            return node
        self._edit(node, _short(node), DIVISION_ACTION + " (in place for NumPy arrays)")
        target = node.target
        if isinstance(target, ast.Name):
            load = ast.Name(id=target.id, ctx=ast.Load())
            value = self._call("idiv", [load, node.value], node)
            return ast.copy_location(ast.Assign(targets=[ast.Name(id=target.id, ctx=ast.Store())],
                                                value=value), node)
        if isinstance(target, ast.Attribute):
            call = self._call("idiv_attr", [target.value, ast.Constant(target.attr), node.value], node)
        elif isinstance(target, ast.Subscript):
            call = self._call("idiv_item", [target.value, _index_expression(target.slice),
                                            node.value], node)
        else:
            return node
        return ast.copy_location(ast.Expr(value=call), node)

    def visit_Call(self, node: ast.Call) -> Any:
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Name) and func.id == "print" and "print" not in self._bound:
            # Not reported: fix_print already reports the statement.
            return ast.copy_location(ast.Call(func=self._helper("print"), args=node.args,
                                              keywords=node.keywords), node)
        if isinstance(func, ast.Name) and func.id == "round" and "round" not in self._bound:
            self._edit(node, _short(node), ROUND_ACTION)
            return self._call("round", node.args, node, node.keywords)
        if isinstance(func, ast.Name) and func.id == "open" and "open" not in self._bound:
            reads = _reads_text(_mode_argument(node, 1))
            if reads is False:
                return node
            self._edit(node, _short(node), OPEN_ACTION + "; a file written in text mode takes "
                                                         "bytes and str")
            return self._call("open", node.args, node, node.keywords)
        if _gfile_call(func):
            reads = _reads_text(_mode_argument(node, 1))
            if reads is False:
                return node
            self._edit(node, _short(node), OPEN_ACTION)
            return self._call("gfile", [func, *node.args], node, node.keywords)
        if _is_bytes_list_class(func) and any(k.arg == "value" for k in node.keywords):
            self._edit(node, _short(node), BYTES_FIELD_ACTION)
            node.keywords = [ast.keyword(arg="value", value=self._call("bytes_values", [k.value], k.value))
                             if k.arg == "value" else k for k in node.keywords]
            return node
        helper = _bytes_field_method(func)
        if helper is not None and len(node.args) == 1 and not node.keywords:
            self._edit(node, _short(node), BYTES_FIELD_ACTION)
            node.args = [self._call(helper, node.args, node.args[0])]
            return node
        if isinstance(func, ast.Attribute) and func.attr in CODEC_METHODS:
            self._edit(node, _short(node), CODEC_ACTION)
            return self._call(func.attr, [func.value, *node.args], node, node.keywords)
        return node

    def visit_ClassDef(self, node: ast.ClassDef) -> Any:
        self.generic_visit(node)
        methods = {s.name: s for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
        if "next" in methods and "__next__" not in methods:
            where = methods["next"]
            alias = ast.parse("def __next__(self):\n    return self.next()\n").body[0]
            for child in ast.walk(alias):
                if hasattr(child, "lineno"):
                    ast.copy_location(child, where)
                    setattr(child, "end_lineno", where.lineno)  # noqa: B010 - typed ast.AST, which declares none
            node.body.append(alias)
            self._edit(where, f"{node.name}.next()", "Python 2 iterator method; __next__ calls it")
        return node


def has_true_division(tree: ast.Module) -> bool:
    """True if the module has ``from __future__ import division``."""
    return any(isinstance(s, ast.ImportFrom) and s.module == "__future__"
               and any(a.name == "division" for a in s.names) for s in tree.body)
