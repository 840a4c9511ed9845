"""Import-time source rewriting for a legacy script's own modules.

The compat runner compiles the script and every module of its own code (its
folder, ``PYTHONPATH`` and the folders it adds to ``sys.path``: :class:`LocalScope`)
through :func:`compile_legacy`, which parses the source with :mod:`ast`,
applies :class:`LegacyTransformer` and compiles the result. Nothing is written
to disk (no ``.pyc``), and line numbers are kept, so tracebacks point at the
user's own lines. The rewrites:

* ``import tensorflow as tf`` (or ``import tensorflow``, ``import
  tensorflow.x.y``) is followed by ``tf = __compat__.tf1(tf)``, which swaps the
  real ``tensorflow`` module for the TF1 namespace of :mod:`compat.tf1.namespace`;
  ``from tensorflow import X`` takes ``X`` from that namespace. The import
  itself runs unchanged, so ``tensorflow`` in ``sys.modules`` stays the real
  module for TensorFlow's internals and every other library.
* ``x.tostring(...)`` -> ``__compat__.tostring(x, ...)`` (NumPy arrays go to
  :func:`compat.numpy1.bytes_helpers.tostring`; other objects keep their own method),
  ``np.fromstring(...)`` -> :func:`compat.numpy1.bytes_helpers.fromstring`, and the
  NumPy aliases removed in NumPy 1.24/2.0 (``np.float``, ``np.NaN``, ...).
* Python 2 leftovers that are cheap to bridge: ``xrange`` and friends become
  module globals, ``d.iteritems()``/``d.has_key(k)``/``it.next()`` go through
  small dispatching helpers, ``sys.maxint`` -> ``sys.maxsize``, and renamed
  standard modules (``cPickle`` -> ``pickle``) are imported by their new name.

* Python's changes under unchanged names, in every module: generators end on
  ``StopIteration`` as before 3.7 (:mod:`compat.stdlib.generators`, PEP 479), and
  ``async``/``await`` used as names are renamed before parsing
  (:mod:`compat.stdlib.keywords`, :func:`repair_source`).

A Python 2 module (see :mod:`compat.py2.translate`) is first translated with fissix and
then rewritten to keep Python 2's ``/``, text-mode ``open`` and ``GFile``
(:class:`compat.py2.translate.Py2Semantics`, :mod:`compat.py2.runtime`) and to see
TensorFlow's strings as text (:mod:`compat.py2.text`); indentation mixing tabs and
spaces is read as Python 2 read it (:mod:`compat.py2.tabs`).

``__compat__`` is a :class:`LegacyHelpers` object that the loader puts in the
module's globals. Importing this module installs nothing; :mod:`compat.runner.run`
puts a :class:`LegacyFinder` on ``sys.meta_path``.
"""
from __future__ import annotations

import ast
import builtins
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import re
import sys
import types
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from compat.numpy1 import removed as numpy1_removed
from compat.numpy1 import rewrite as numpy1_rewrite
from compat.py2 import pickle2 as py2_pickle
from compat.py2 import runtime as py2_runtime
from compat.py2 import tabs as py2_tabs
from compat.py2 import text as py2_text
from compat.py2 import translate as py2
from compat.rules import DEEP_TF1_IMPORTS, DICT_METHODS, NUMPY_REMOVED, PY2_BUILTINS, PY2_MODULES
from compat.runner import local_imports
from compat.stdlib import generators as stdlib_generators
from compat.stdlib import keywords as stdlib_keywords
from compat.stdlib import random_legacy, regex_flags
from compat.stdlib import rewrite as stdlib_rewrite
from compat.surfaces import source_pass

__all__ = [
    "HELPERS_NAME",
    "Change",
    "LegacyFinder",
    "LegacyHelpers",
    "LegacyLoader",
    "LegacyTransformer",
    "LocalScope",
    "LocalSource",
    "TransformResult",
    "compile_legacy",
    "describe_syntax_error",
    "injected_globals",
    "module_bindings",
    "parse_legacy",
    "read_source",
    "repair_source",
    "script_scope",
    "transform",
    "translation_changes",
    "walk_local_modules",
]

#: The global name under which rewritten code finds its helpers.
HELPERS_NAME = "__compat__"

#: The value used for each name of :data:`compat.rules.NUMPY_REMOVED` (all NumPy 1 names live in
#: :mod:`compat.numpy1.removed`; this view is kept for the rules' consistency test).
_NUMPY_VALUES: dict[str, Callable[[], Any]] = {name: numpy1_removed.REMOVED[name].make for name in NUMPY_REMOVED}

#: The passes of the legacy surfaces served by source rewriting, run before :class:`LegacyTransformer`.
#: GeneratorStop comes first: it reads decorators as written (``@asyncio.coroutine``, which StdlibPass rewrites).
_SOURCE_PASSES: tuple[Callable[[ast.Module], source_pass.SourcePass], ...] = (
    stdlib_generators.GeneratorStop, numpy1_rewrite.Numpy1Pass, stdlib_rewrite.StdlibPass,
    stdlib_keywords.CallKeywords, regex_flags.RegexFlags)


# --------------------------------------------------------------------------
# The transformation
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class Change:
    """One rewrite made to a module, for the check report.

    Attributes:
        line, col: where the construct starts (1-based line, 0-based column).
        construct: the legacy source, shortened.
        status: ``"rewritten"`` (source changed) or ``"bridged"`` (a name provided).
        action: what the runner does about it.
    """

    line: int
    col: int
    construct: str
    status: str
    action: str


@dataclass
class TransformResult:
    """The rewritten tree and what was done to it."""

    tree: ast.Module
    changes: list[Change] = field(default_factory=list)
    py2_names: set[str] = field(default_factory=set)
    python2: bool = False


def _is_tensorflow(name: str) -> bool:
    return name == "tensorflow" or name.startswith("tensorflow.")


def _short(node: ast.AST, limit: int = 60) -> str:
    text = ast.unparse(node)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class _Bindings(ast.NodeVisitor):
    """Names a module binds: NumPy and sys aliases, ``fromstring`` imports, everything bound."""

    def __init__(self) -> None:
        self.numpy: set[str] = set()
        self.sys: set[str] = set()
        self.fromstring: set[str] = set()
        self.bound: set[str] = set()

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.bound.add(alias.asname or alias.name.split(".")[0])
            if alias.name == "numpy" or (alias.name.startswith("numpy.") and alias.asname is None):
                self.numpy.add(alias.asname or "numpy")
            if alias.name == "sys":
                self.sys.add(alias.asname or "sys")

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        for alias in node.names:
            self.bound.add(alias.asname or alias.name)
            if node.level == 0 and node.module == "numpy" and alias.name == "fromstring":
                self.fromstring.add(alias.asname or alias.name)

    def visit_Name(self, node: ast.Name) -> None:
        if not isinstance(node.ctx, ast.Load):
            self.bound.add(node.id)

    def _visit_def(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        self.bound.add(node.name)
        self.generic_visit(node)

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _visit_def

    def visit_arg(self, node: ast.arg) -> None:
        self.bound.add(node.arg)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.name:
            self.bound.add(node.name)
        self.generic_visit(node)


def _helper(attr: str) -> ast.Attribute:
    return ast.Attribute(value=ast.Name(id=HELPERS_NAME, ctx=ast.Load()), attr=attr, ctx=ast.Load())


class LegacyTransformer(ast.NodeTransformer):
    """Rewrites one module's AST; see the module docstring for the rewrites."""

    def __init__(self, bindings: _Bindings) -> None:
        self._b = bindings
        self.changes: list[Change] = []
        self.py2_names: set[str] = set()
        self._seen: set[tuple[int, str]] = set()

    def _record(self, node: ast.AST, construct: str, action: str, status: str = "rewritten") -> None:
        line, col = getattr(node, "lineno", 0), getattr(node, "col_offset", 0)
        if (line, construct) not in self._seen:
            self._seen.add((line, construct))
            self.changes.append(Change(line, col, construct, status, action))

    # -- imports -----------------------------------------------------------

    def visit_Import(self, node: ast.Import) -> Any:
        rebind: list[str] = []
        for index, alias in enumerate(node.names):
            if alias.name in PY2_MODULES:
                new = PY2_MODULES[alias.name]
                node.names[index] = ast.alias(name=new, asname=alias.asname or alias.name)
                self._record(node, f"import {alias.name}", f"imports {new} (its Python 3 name)")
            elif _is_tensorflow(alias.name) and (alias.asname is None or alias.name == "tensorflow"):
                bound = alias.asname or "tensorflow"
                rebind.append(bound)
                self._record(node, _short(node), f"{bound} is the TF1 namespace "
                             "(tf.compat.v1 plus tf.contrib.data and the renamed ops)")
        if not rebind:
            return node
        statements: list[ast.stmt] = [node]
        for name in dict.fromkeys(rebind):
            call = ast.Call(func=_helper("tf1"), args=[ast.Name(id=name, ctx=ast.Load())], keywords=[])
            statements.append(ast.copy_location(
                ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=call), node))
        return statements

    def visit_ImportFrom(self, node: ast.ImportFrom) -> Any:
        if node.level or node.module is None:
            return node
        if node.module in PY2_MODULES:
            new = PY2_MODULES[node.module]
            self._record(node, f"from {node.module} import ...", f"imports from {new} (its Python 3 name)")
            node.module = new
            return node
        if any((node.module, alias.name) in DEEP_TF1_IMPORTS for alias in node.names):
            return self._deep_tf1_import(node)
        if node.module != "tensorflow" or any(alias.name == "*" for alias in node.names):
            return node
        statements = []
        for alias in node.names:
            call = ast.Call(func=_helper("tf1_import"), args=[ast.Constant(alias.name)], keywords=[])
            target = ast.Name(id=alias.asname or alias.name, ctx=ast.Store())
            statements.append(ast.copy_location(ast.Assign(targets=[target], value=call), node))
            self._record(node, f"from tensorflow import {alias.name}",
                         f"{alias.name} is taken from the TF1 namespace")
        return statements

    def _deep_tf1_import(self, node: ast.ImportFrom) -> list[ast.stmt]:
        """``from tensorflow.python.data import Dataset``: the TF1 class it was (``DEEP_TF1_IMPORTS``)."""
        module = node.module or ""
        kept = [alias for alias in node.names if (module, alias.name) not in DEEP_TF1_IMPORTS]
        statements: list[ast.stmt] = []
        if kept:
            statements.append(ast.copy_location(ast.ImportFrom(module=module, names=kept, level=0), node))
        for alias in node.names:
            path = DEEP_TF1_IMPORTS.get((module, alias.name))
            if path is None:
                continue
            call = ast.Call(func=_helper("tf1_import"), args=[ast.Constant(path)], keywords=[])
            target = ast.Name(id=alias.asname or alias.name, ctx=ast.Store())
            statements.append(ast.copy_location(ast.Assign(targets=[target], value=call), node))
            self._record(node, f"from {module} import {alias.name}",
                         f"tf.{path} of the TF1 namespace, the class TF 1.x's module held "
                         "(today's module holds the TF2 class)")
        return statements

    # -- calls ---------------------------------------------------------------

    def _call_kind(self, node: ast.Call) -> str | None:
        func = node.func
        if isinstance(func, ast.Name):
            return "fromstring" if func.id in self._b.fromstring else None
        if not isinstance(func, ast.Attribute):
            return None
        if func.attr == "tostring":
            return "tostring"
        if func.attr == "fromstring" and isinstance(func.value, ast.Name) and func.value.id in self._b.numpy:
            return "fromstring"
        if func.attr in ("iteritems", "itervalues", "iterkeys") and not node.args and not node.keywords:
            return func.attr
        if func.attr == "has_key" and len(node.args) == 1 and not node.keywords:
            return "has_key"
        if func.attr == "next" and not node.args and not node.keywords:
            return "next"
        return None

    def visit_Call(self, node: ast.Call) -> Any:
        kind = self._call_kind(node)
        construct = _short(node) if kind else ""
        self.generic_visit(node)
        if kind is None:
            return node
        func = node.func
        if kind == "fromstring" or not isinstance(func, ast.Attribute):
            args = list(node.args)
            action = "compat.numpy1.bytes_helpers.fromstring(...) (binary mode as NumPy 1 had it)"
        else:
            args = [func.value, *node.args]
            action = {
                "tostring": "compat.numpy1.bytes_helpers.tostring(x) for NumPy arrays; other objects "
                            "keep their own tostring/tobytes",
                "next": "next(it), unless the object has its own next() method",
            }.get(kind, f"{DICT_METHODS.get(kind, kind)}, unless the object has its own {kind}()")
        self._record(node, construct, action)
        return ast.copy_location(ast.Call(func=_helper(kind), args=args, keywords=node.keywords), node)

    # -- attributes and names -------------------------------------------------

    def visit_Attribute(self, node: ast.Attribute) -> Any:
        self.generic_visit(node)
        if not isinstance(node.ctx, ast.Load) or not isinstance(node.value, ast.Name):
            return node
        owner = node.value.id
        if owner in self._b.sys and node.attr == "maxint":
            self._record(node, f"{owner}.maxint", "sys.maxsize")
            node.attr = "maxsize"
        return node

    def visit_Name(self, node: ast.Name) -> Any:
        if isinstance(node.ctx, ast.Load) and node.id in PY2_BUILTINS and node.id not in self._b.bound:
            self.py2_names.add(node.id)
            self._record(node, node.id, f"Python 2 builtin, provided as {PY2_BUILTINS[node.id]}",
                         status="bridged")
        return node


def module_bindings(tree: ast.Module) -> _Bindings:
    """The names ``tree`` binds (NumPy, sys and ``fromstring`` aliases, and every bound name)."""
    bindings = _Bindings()
    bindings.visit(tree)
    return bindings


def transform(tree: ast.Module, python2: bool = False, context: ast.Module | None = None) -> TransformResult:
    """Apply :class:`LegacyTransformer` to ``tree`` (in place) and report what changed.

    With ``python2`` (a translated Python 2 module), :class:`compat.py2.translate.Py2Semantics`
    runs first, keeping Python 2's division and text-mode file reads. ``context`` is
    earlier code run in the same namespace (a notebook's earlier cells): its imports
    and bindings count as the module's own (``import numpy as np`` in cell 1, ``np.float`` in cell 3).
    """
    bindings = module_bindings(tree)
    if context is not None:
        bindings.visit(context)
    kept = [Change(e.line, e.col, e.construct, e.status, e.action) for e in source_pass.source_edits(tree)]
    if python2:
        semantics = py2.Py2Semantics(_helper, bindings.bound, py2.has_true_division(tree))
        tree = semantics.visit(tree)
        kept += [Change(e.line, e.col, e.construct, "rewritten", e.action) for e in semantics.edits]
        text = py2_text.Py2Text(tree)
        tree = text.visit(tree)
        kept += [Change(e.line, e.col, e.construct, e.status, e.action) for e in text.edits]
    scanned = tree if context is None else ast.Module(body=[*context.body, *tree.body], type_ignores=[])
    # The NumPy 1 and standard-library passes run after the main one, so each reports the
    # construct as the user wrote it (``np.asarray(x).tostring()``, not the helper it became).
    passes = [make_pass(scanned) for make_pass in _SOURCE_PASSES]
    passes.append(random_legacy.RandomPass(scanned, python2))
    transformer = LegacyTransformer(bindings)
    new_tree = transformer.visit(tree)
    for surface in passes:
        new_tree = surface.visit(new_tree)
        kept += [Change(e.line, e.col, e.construct, e.status, e.action) for e in surface.edits]
    ast.fix_missing_locations(new_tree)
    changes = sorted(transformer.changes + kept, key=lambda c: (c.line, c.col))
    return TransformResult(tree=new_tree, changes=changes, py2_names=transformer.py2_names,
                           python2=python2)


def translation_changes(translation: py2.Translation | None) -> list[Change]:
    """What fissix changed in a Python 2 module, as report entries (none for Python 3)."""
    if translation is None:
        return []
    changes = []
    for fix in translation.fixes:
        construct, action = py2.describe_fix(fix.fixer)
        changes.append(Change(fix.line, fix.col, construct, "rewritten", action))
    return changes


def read_source(path: Path) -> str:
    """The text of a Python file, honouring a PEP 263 coding line as Python 2 files often have.

    Raises:
        OSError: the file cannot be read.
        SyntaxError: the bytes are not valid in the declared (or default UTF-8) encoding.
    """
    data = Path(path).read_bytes()
    try:
        return importlib.util.decode_source(data)
    except (UnicodeDecodeError, LookupError) as exc:
        raise SyntaxError(f"cannot decode the file: {exc}", (str(path), 1, 1, None)) from exc


def _translated_syntax_error(err: SyntaxError, translation: py2.Translation, source: str,
                             filename: str) -> SyntaxError:
    """A syntax error of the translated source, at the original file's line and text."""
    line = translation.original_line(err.lineno or 1)
    lines = source.splitlines()
    text = lines[line - 1] if 0 < line <= len(lines) else None
    return SyntaxError(err.msg, (filename, line, err.offset or 1, text))


def _untranslatable(err: SyntaxError, failure: SyntaxError, source: str, filename: str) -> SyntaxError:
    """The error to report for a module that is neither Python 3 nor Python 2.

    Python's own error names a Python 2 construct best, unless the module stops
    being Python 2 on another line: that line is the one to fix.
    """
    lines = source.splitlines()
    line = min(failure.lineno or 1, max(len(lines), 1))  # "EOF in ...": the last line
    if line == err.lineno:
        return err
    text = lines[line - 1] if 0 < line <= len(lines) else None
    return SyntaxError(failure.msg, (filename, line, failure.offset or 1, text))


def _parse_translation(source: str, filename: str, print_function: bool = False,
                       top_level: bool = False) -> tuple[ast.Module, py2.Translation]:
    """The tree of the Python 3 translation of ``source``, with the original line numbers
    (``print_function`` as for :func:`compat.py2.translate.translate`).

    Raises:
        compat.py2.translate.UntranslatableError: fissix cannot parse the source.
        SyntaxError: the translation is not valid Python 3 (at the original line).
    """
    translation = py2.translate(source, filename, print_function, top_level)
    try:
        translated = ast.parse(translation.source, filename=filename)
    except SyntaxError as err:
        raise _translated_syntax_error(err, translation, source, filename) from None
    py2.remap_lines(translated, translation)
    return translated, translation


def _parses(source: str) -> bool:
    try:
        ast.parse(source)
    except (SyntaxError, ValueError):
        return False
    return True


def repair_source(source: str, python2: bool | None = None) -> tuple[str, bool | None, list[source_pass.Edit]]:
    """Fix, before parsing, what old code wrote that today's Python refuses to tokenize or parse.

    * tabs and spaces mixed in indentation (:mod:`compat.py2.tabs`): expanded as
      Python 2 read them, and the module is Python 2 (``python2`` None becomes True);
    * ``async`` / ``await`` used as names (:mod:`compat.stdlib.keywords`), only in a
      module that does not parse as it is.

    Returns the source (line numbers unchanged), ``python2``, and the edits for the report.
    """
    edits: list[source_pass.Edit] = []
    if "\t" in source:
        mixed = py2_tabs.inconsistent_lines(source)
        if mixed:
            source = py2_tabs.expand_indentation(source)
            count = f" ({len(mixed)} lines)" if len(mixed) > 1 else ""
            edits.append(source_pass.Edit(mixed[0], 0, f"tabs and spaces mixed in indentation{count}",
                                          "rewritten", py2_tabs.TAB_ACTION))
            python2 = True if python2 is None else python2
    if ("async" in source or "await" in source) and not _parses(source):
        source, renames = stdlib_keywords.rename_keywords(source)
        seen: set[tuple[int, str]] = set()
        for rename in renames:
            construct = f"{rename.name} used as a {rename.role}"
            if (rename.line, construct) not in seen:
                seen.add((rename.line, construct))
                edits.append(source_pass.Edit(rename.line, rename.col, construct, "rewritten",
                                              stdlib_keywords.rename_action(rename.name)))
    return source, python2, edits


def parse_legacy(source: str, filename: str, python2: bool | None = None,
                 top_level: bool = False, py2_process: bool = False) -> tuple[ast.Module, py2.Translation | None]:
    """The module's tree, translated from Python 2 when it is Python 2; and the translation.

    ``python2``: None to recognise Python 2 (:mod:`compat.py2.translate`), True to treat the
    module as Python 2, False to never translate. Valid Python 3 that cannot be
    translated is used as it is. ``top_level``: the module has no parent
    package (its imports stay absolute, see :func:`compat.py2.translate.translate`).
    ``py2_process`` (with ``python2=None``): the script ran under Python 2 (its own
    code is Python 2), so a module without Python 2 markers ran with Python 2's
    ``/`` too (tflib's ``save_images.py``: ``nw = n_samples/rows`` used as a size);
    it is translated as a module that is Python 2 by its leftovers is.

    Raises:
        SyntaxError: the source is neither valid Python 3 nor translatable Python 2
            (the file's own line numbers are set).
    """
    source = stdlib_rewrite.fix_source(source)  # asyncio.async: a syntax error since Python 3.7
    source, python2, edits = repair_source(source, python2)
    tree, translation = _parse_repaired(source, filename, python2, top_level, py2_process)
    source_pass.note_source_edits(tree, edits)
    return tree, translation


def _parse_repaired(source: str, filename: str, python2: bool | None, top_level: bool,
                    py2_process: bool) -> tuple[ast.Module, py2.Translation | None]:
    """:func:`parse_legacy` after :func:`repair_source`."""
    try:
        tree = ast.parse(source, filename=filename)
    except ValueError as exc:  # e.g. null bytes in the source
        raise SyntaxError(str(exc), (filename, 1, 1, None)) from exc
    except SyntaxError as err:
        if python2 is False:
            raise
        try:
            return _parse_translation(source, filename, top_level=top_level)
        except py2.UntranslatableError as failure:
            raise _untranslatable(err, failure, source, filename) from None
    if python2 is False or (python2 is None and not py2_process
                            and not py2.python2_markers(tree, module_bindings(tree).bound)):
        return tree, None
    try:
        # Valid Python 3 that is Python 2 only by its leftovers (xrange, iteritems, ...):
        # its print(...) calls are read as the function, the Python 3 reading of valid
        # Python 3 syntax, unless the user says the module is Python 2 (--py2).
        return _parse_translation(source, filename, print_function=python2 is None, top_level=top_level)
    except SyntaxError:
        return tree, None


def compile_legacy(source: str | bytes, filename: str, python2: bool | None = None,
                   top_level: bool = False, py2_process: bool = False) -> tuple[types.CodeType, TransformResult]:
    """Parse (translating Python 2, see :func:`parse_legacy`), rewrite and compile a legacy module.

    ``top_level``: the module has no parent package (the script run as ``__main__``,
    or a module imported by a top-level name): its Python 2 imports stay absolute.
    ``py2_process``: as for :func:`parse_legacy`.

    Raises:
        SyntaxError: the source is neither valid Python 3 nor translatable Python 2
            (``filename`` and line are set).
    """
    if isinstance(source, bytes):
        source = importlib.util.decode_source(source)
    tree, translation = parse_legacy(source, filename, python2, top_level, py2_process)
    result = transform(tree, python2=translation is not None)
    result.changes = sorted(result.changes + translation_changes(translation),
                            key=lambda c: (c.line, c.col))
    code = compile(result.tree, filename, "exec", dont_inherit=True)
    return code, result


# --------------------------------------------------------------------------
# Syntax errors: name the Python 2 construct
# --------------------------------------------------------------------------

_SYNTAX_PATTERNS: tuple[tuple[str, str, str], ...] = (
    # (where to look: "msg" or "text", regular expression, construct)
    ("msg", r"Missing parentheses in call to 'print'", "Python 2 print statement"),
    ("msg", r"Missing parentheses in call to 'exec'", "Python 2 exec statement"),
    ("msg", r"leading zeros in decimal integer literals", "Python 2 octal literal (write 0o777)"),
    ("msg", r"inconsistent use of tabs and spaces", "mixed tabs and spaces (Python 2 allowed them)"),
    ("text", r"^\s*except\s+[^:]*,\s*\w+\s*:", "Python 2 except clause (except E, e:)"),
    ("text", r"^\s*raise\s+[\w.]+\s*,", "Python 2 raise statement (raise E, message)"),
    ("text", r"`", "Python 2 backquote repr (`x`)"),
    ("text", r"<>", "Python 2 <> operator"),
    ("text", r"\bur['\"]", "Python 2 ur'' string literal"),
    ("text", r"^\s*print\s+[^(=\s]", "Python 2 print statement"),
)


def describe_syntax_error(err: SyntaxError) -> str:
    """A one-line description of a syntax error, naming the Python 2 construct when it is one."""
    message = err.msg or "invalid syntax"
    if message.startswith(py2.UNTRANSLATABLE):
        return f"syntax error ({message})"
    text = err.text or ""
    for where, pattern, construct in _SYNTAX_PATTERNS:
        haystack = message if where == "msg" else text
        if re.search(pattern, haystack):
            return f"{construct} ({message})"
    return f"syntax error ({message})"


# --------------------------------------------------------------------------
# Runtime helpers bound to __compat__
# --------------------------------------------------------------------------

class LegacyHelpers:
    """What rewritten code calls through ``__compat__``.

    Args:
        tf1_namespace: returns the TF1 namespace module (called on first use).
        numpy_legacy: the module with ``tostring`` and ``fromstring``.
    """

    # Python 2 semantics of translated modules (compat.py2.runtime).
    div = staticmethod(py2_runtime.div)
    idiv = staticmethod(py2_runtime.idiv)
    idiv_attr = staticmethod(py2_runtime.idiv_attr)
    idiv_item = staticmethod(py2_runtime.idiv_item)
    open = staticmethod(py2_runtime.open_py2)
    gfile = staticmethod(py2_runtime.gfile)
    decode = staticmethod(py2_runtime.decode)
    print = staticmethod(py2_runtime.print_py2)
    round = staticmethod(py2_runtime.round_py2)
    encode = staticmethod(py2_runtime.encode)
    bytes_value = staticmethod(py2_runtime.bytes_value)
    bytes_values = staticmethod(py2_runtime.bytes_values)
    text = staticmethod(py2_text.text)
    texts = staticmethod(py2_text.texts)
    run_result = staticmethod(py2_text.run_result)
    text_args = staticmethod(py2_text.text_args)
    pickle2 = py2_pickle
    # The random module: Python 2.7's draws (translated modules), Python 3.10's removed arguments (others).
    random2 = random_legacy.PY2
    random310 = random_legacy.PY310

    def __init__(self, tf1_namespace: Callable[[], types.ModuleType],
                 numpy_legacy: types.ModuleType) -> None:
        self._tf1_namespace = tf1_namespace
        self._numpy_legacy = numpy_legacy
        from compat.numpy1.runtime import Numpy1Names  # imports NumPy: only when a script runs
        from compat.stdlib.runtime import StdlibNames
        self.numpy = Numpy1Names()
        self.stdlib = StdlibNames()

    def tf1(self, module: Any) -> Any:
        """The TF1 namespace if ``module`` is the real ``tensorflow``, else ``module``."""
        real = sys.modules.get("tensorflow")
        if real is not None and module is real:
            return self._tf1_namespace()
        return module

    def tf1_import(self, name: str) -> Any:
        """``from tensorflow import name``, resolved in the TF1 namespace (``name`` may be dotted: ``data.Dataset``)."""
        try:
            value = self._tf1_namespace()
            for part in name.split("."):
                value = getattr(value, part)
            return value
        except AttributeError as exc:
            raise ImportError(f"cannot import name {name!r} from 'tensorflow': {exc}") from None

    def tostring(self, obj: Any, *args: Any, **kwargs: Any) -> Any:
        """``obj.tostring(...)``: NumPy arrays through compat.numpy1.bytes_helpers, others unchanged."""
        np = importlib.import_module("numpy")
        if isinstance(obj, (np.ndarray, np.generic)):
            return self._numpy_legacy.tostring(obj, *args, **kwargs)
        for method_name in ("tostring", "tobytes"):
            method = getattr(obj, method_name, None)
            if method is not None:
                return method(*args, **kwargs)
        raise AttributeError(f"{type(obj).__name__!r} object has no attribute 'tostring'")

    def fromstring(self, *args: Any, **kwargs: Any) -> Any:
        """``np.fromstring(...)`` with the binary mode NumPy 2 removed."""
        return self._numpy_legacy.fromstring(*args, **kwargs)

    @staticmethod
    def _own(obj: Any, name: str) -> Callable[..., Any] | None:
        method = getattr(obj, name, None)
        return method if callable(method) else None

    def iteritems(self, obj: Any) -> Iterator[Any]:
        """``d.iteritems()``."""
        own = self._own(obj, "iteritems")
        return own() if own else iter(obj.items())

    def itervalues(self, obj: Any) -> Iterator[Any]:
        """``d.itervalues()``."""
        own = self._own(obj, "itervalues")
        return own() if own else iter(obj.values())

    def iterkeys(self, obj: Any) -> Iterator[Any]:
        """``d.iterkeys()``."""
        own = self._own(obj, "iterkeys")
        return own() if own else iter(obj.keys())

    def has_key(self, obj: Any, key: Any) -> bool:
        """``d.has_key(key)``."""
        own = self._own(obj, "has_key")
        return own(key) if own else key in obj

    def next(self, obj: Any) -> Any:
        """``it.next()``: the object's own ``next`` method, else the builtin ``next``."""
        own = self._own(obj, "next")
        return own() if own else builtins.next(obj)


def _py2_value(name: str) -> Any:
    target = PY2_BUILTINS[name]
    module_name, _, attr = target.rpartition(".")
    if not module_name:
        return getattr(builtins, attr)
    return getattr(importlib.import_module(module_name), attr)


def injected_globals(result: TransformResult, helpers: LegacyHelpers) -> dict[str, Any]:
    """The globals a rewritten module needs before it runs: ``__compat__`` and its Python 2 names."""
    names: dict[str, Any] = {HELPERS_NAME: helpers}
    for name in sorted(result.py2_names):
        names[name] = _py2_value(name)
    return names


# --------------------------------------------------------------------------
# Which files are the script's own, and the import hook
# --------------------------------------------------------------------------

def _project_package_dirs() -> list[Path]:
    """This project's own packages: never treated as legacy code, even below the script's folder."""
    dirs = [Path(__file__).resolve().parents[1]]
    spec = importlib.util.find_spec("tf1_pipelines")
    if spec is not None and spec.submodule_search_locations:
        dirs.extend(Path(p).resolve() for p in spec.submodule_search_locations)
    return dirs


class LocalScope:
    """The files that count as a script's own modules, and the folders its imports are searched in.

    The script's own code is every source file below its folder, below a
    ``PYTHONPATH`` folder (see :meth:`for_script`) or below a folder its code
    adds to ``sys.path`` (:func:`walk_local_modules` adds those), except
    installed packages (``site-packages``/``dist-packages``, or a package that an
    installer's ``*.dist-info`` record lists beside it, as ``pip install --target``
    leaves), Python's standard library and this project's own packages.

    Args:
        root: the script's folder.
        exclude: further folders to leave alone.
        folders: further folders of the script's code, searched after ``root`` (``PYTHONPATH``).
    """

    def __init__(self, root: Path, exclude: Iterable[Path] = (), folders: Iterable[Path] = ()) -> None:
        self.root = Path(root).resolve()
        self.exclude = ([Path(p).resolve() for p in exclude] + _project_package_dirs()
                        + local_imports.stdlib_folders())
        self.front: list[Path] = []
        self.back: list[Path] = []
        for folder in folders:
            self.add_folder(folder)

    @classmethod
    def for_script(cls, script: Path) -> LocalScope:
        """The scope of ``script``: its folder, then the ``PYTHONPATH`` folders."""
        return cls(Path(script).resolve().parent, folders=local_imports.pythonpath_folders())

    @property
    def folders(self) -> list[Path]:
        """The folders of the script's code in ``sys.path`` order: inserted ones, its own, the rest."""
        return [*self.front, self.root, *self.back]

    def add_folder(self, folder: str | Path, front: bool = False) -> bool:
        """Count ``folder`` as the script's code (at the front or back of the search); True if new."""
        resolved = Path(folder).resolve()
        if resolved in self.folders or not resolved.is_dir():
            return False
        if local_imports.INSTALLED_PARTS.intersection(resolved.parts) or self._excluded(resolved):
            return False
        if front:
            self.front.insert(0, resolved)  # sys.path.insert(0, ...): the last one inserted comes first
        else:
            self.back.append(resolved)
        return True

    def _excluded(self, resolved: Path) -> bool:
        return any(resolved.is_relative_to(folder) for folder in self.exclude)

    def contains(self, path: str | Path) -> bool:
        """True if ``path`` is one of the script's own source files (never a pseudo-file such as
        ``<frozen codecs>`` or ``<string>``, which would resolve inside the working folder)."""
        if str(path).startswith("<"):
            return False
        try:
            resolved = Path(path).resolve()
        except (OSError, RuntimeError):
            return False
        for folder in self.folders:
            if not resolved.is_relative_to(folder):
                continue
            parts = resolved.relative_to(folder).parts
            if local_imports.INSTALLED_PARTS.intersection(parts) or local_imports.is_installed_below(folder, parts):
                continue  # an installed package (pip install --target FOLDER), not the script's code
            return not self._excluded(resolved)
        return False

    def relative(self, path: str | Path) -> str:
        """``path`` relative to the script's folder when inside it, for messages."""
        resolved = Path(path).resolve()
        if resolved.is_relative_to(self.root):
            return str(resolved.relative_to(self.root))
        return str(path)


class LegacyLoader(importlib.machinery.SourceFileLoader):
    """Loads one of the script's own modules through :func:`compile_legacy`; no bytecode cache.

    ``python2``, ``py2_process``: as for :func:`parse_legacy` (True: ``compat run --py2``).
    """

    def __init__(self, fullname: str, path: str, helpers: LegacyHelpers,
                 python2: bool | None = None, py2_process: bool = False) -> None:
        super().__init__(fullname, path)
        self._helpers = helpers
        self._python2 = python2
        self._py2_process = py2_process

    def _compile(self) -> tuple[types.CodeType, TransformResult]:
        # A module imported by a top-level name (a sibling of the script) has no parent package.
        return compile_legacy(self.get_data(self.path), self.path, self._python2, top_level="." not in self.name,
                              py2_process=self._py2_process)

    def get_code(self, fullname: str) -> types.CodeType:
        """The rewritten code object (never read from or written to ``__pycache__``)."""
        return self._compile()[0]

    def exec_module(self, module: types.ModuleType) -> None:
        """Run the rewritten module with ``__compat__`` and its Python 2 names in its globals."""
        code, result = self._compile()
        module.__dict__.update(injected_globals(result, self._helpers))
        exec(code, module.__dict__)


class LegacyFinder(importlib.abc.MetaPathFinder):
    """Hands the script's own modules to :class:`LegacyLoader`; everything else is left alone.

    ``py2_process`` (set by the runner once it knows the script ran under Python 2):
    as for :func:`parse_legacy`.
    """

    def __init__(self, scope: LocalScope, helpers: LegacyHelpers, python2: bool | None = None) -> None:
        self.scope = scope
        self.helpers = helpers
        self.python2 = python2
        self.py2_process = False

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: types.ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        """A spec with a :class:`LegacyLoader` for a local source module, else None."""
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.origin is None:
            return None
        if not isinstance(spec.loader, importlib.machinery.SourceFileLoader):
            return None
        if not self.scope.contains(spec.origin):
            return None
        spec.loader = LegacyLoader(fullname, spec.origin, self.helpers, self.python2, self.py2_process)
        return spec


# --------------------------------------------------------------------------
# The script and its local imports, statically
# --------------------------------------------------------------------------

@dataclass
class LocalSource:
    """One of the script's own files: its parsed tree, or the syntax error that stopped it.

    ``translation`` is set for a Python 2 file (``tree`` is then the translation's).
    """

    path: Path
    tree: ast.Module | None = None
    error: SyntaxError | None = None
    translation: py2.Translation | None = None


def _parse_file(path: Path, python2: bool | None = None, top_level: bool = False) -> LocalSource:
    try:
        tree, translation = parse_legacy(read_source(path), str(path), python2, top_level)
        return LocalSource(path, tree=tree, translation=translation)
    except SyntaxError as err:
        return LocalSource(path, error=err)


def walk_local_modules(script: Path, scope: LocalScope,
                       python2: bool | None = None) -> Iterator[LocalSource]:
    """The script, then every local module reachable through its imports, each parsed once.

    Imports are resolved in ``scope.folders`` as Python's path finder would
    (namespace packages included, :mod:`compat.runner.local_imports`). Folders that a
    walked file adds to ``sys.path`` with literal forms are added to ``scope``,
    and the imports already seen are resolved again in the longer search path
    (``import _init_paths`` usually comes before the imports it makes work).
    Python 2 files are translated (``python2`` as for :func:`parse_legacy`).
    """
    start = Path(script).resolve()
    queue: deque[Path] = deque([start])
    seen: set[Path] = {start}
    parsed: list[tuple[Path, ast.Module]] = []
    bases = [scope.root, Path.cwd()]
    installed = local_imports.installed_folders()
    while queue:
        path = queue.popleft()
        source = _parse_file(path, python2, top_level=path == start)
        yield source
        if source.tree is None:
            continue
        parsed.append((source.path, source.tree))
        additions = local_imports.sys_path_additions(source.tree, source.path, bases)
        grew = [scope.add_folder(f, front=True) for f in additions.front]
        grew += [scope.add_folder(f) for f in additions.back]
        for path, tree in (parsed if any(grew) else parsed[-1:]):
            for found in local_imports.imported_files(tree, path, scope.folders, installed):
                resolved = found.resolve()
                if resolved not in seen and scope.contains(resolved):
                    seen.add(resolved)
                    queue.append(resolved)


def script_scope(script: Path) -> LocalScope:
    """The full scope of ``script``: :meth:`LocalScope.for_script` plus the ``sys.path`` folders its code adds."""
    scope = LocalScope.for_script(script)
    for _ in walk_local_modules(script, scope):
        pass
    return scope
