"""Which constructs of a module run inside ``try:`` with a handler that catches their failure.

Old scripts guarded optional imports::

    try:
        from tensorflow.contrib import nccl
    except ImportError:
        nccl = None

When the runner refuses such an import, it raises an :class:`ImportError`
subclass (:class:`compat.errors.LegacyImportError` is a ``ModuleNotFoundError``),
so the script's fallback runs: ``compat check`` reports the construct as a
fallback, not as a failure. :class:`Guards` answers, for one AST node, which
``except`` clause of the enclosing ``try`` statements (innermost first) catches
a given built-in exception. A function body defined inside a ``try`` runs
later, outside it, so it is not guarded by it.

The same holds for the branch of an ``if`` on the Python version that this
interpreter does not take (``if sys.version_info[0] < 3: from StringIO import
StringIO`` / ``else: from io import StringIO``; also ``six.PY2`` and flags
assigned from such tests at module level).
"""
from __future__ import annotations

import ast
import builtins
import operator
import sys
from collections.abc import Callable
from typing import Any

__all__ = ["Guards", "raised_by"]

_TRY_NODES: tuple[type, ...] = (ast.Try,) + ((ast.TryStar,) if hasattr(ast, "TryStar") else ())
_DEFERRED: tuple[type, ...] = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def raised_by(node: ast.AST) -> str | None:
    """The built-in exception the runner raises where ``node``'s construct is not provided.

    Imports raise ``ModuleNotFoundError`` (the runner's ``LegacyImportError`` and
    Python's own for a missing module), except ``from tensorflow import X``, which
    raises a plain ``ImportError``; attributes raise ``AttributeError``, names
    ``NameError`` and calls with Python 2 arguments ``TypeError``.
    """
    if isinstance(node, ast.ImportFrom):
        return "ImportError" if node.level == 0 and node.module == "tensorflow" else "ModuleNotFoundError"
    if isinstance(node, ast.Import):
        return "ModuleNotFoundError"
    if isinstance(node, ast.Attribute):
        return "AttributeError"
    if isinstance(node, ast.Name):
        return "NameError"
    if isinstance(node, ast.Call):
        return "TypeError"
    return None


def _caught_names(handler: ast.ExceptHandler) -> set[str] | None:
    """The exception names an ``except`` clause lists; None for a bare ``except:``."""
    if handler.type is None:
        return None
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    names = set()
    for item in types:
        if isinstance(item, ast.Name):
            names.add(item.id)
        elif isinstance(item, ast.Attribute):  # builtins.ImportError
            names.add(item.attr)
    return names


def _catches(handler: ast.ExceptHandler, exception: str) -> bool:
    """True if ``handler`` catches the built-in ``exception`` (by name, through its bases)."""
    names = _caught_names(handler)
    if names is None:
        return True
    cls = getattr(builtins, exception, None)
    if not (isinstance(cls, type) and issubclass(cls, BaseException)):
        return False
    return any(base.__name__ in names for base in cls.__mro__)


def _describe(handler: ast.ExceptHandler) -> str:
    return "except" if handler.type is None else f"except {ast.unparse(handler.type)}"


# --------------------------------------------------------------------------
# Branches on the Python version
# --------------------------------------------------------------------------

_COMPARE: dict[type, Callable[[Any, Any], bool]] = {
    ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
    ast.Eq: operator.eq, ast.NotEq: operator.ne,
}

#: ``sys.version`` as it reads on this interpreter (only its leading digits matter to old scripts).
_VERSION = "{}.{}.{}".format(*sys.version_info[:3])


class VersionTests:
    """Evaluates tests on the Python version (``sys.version_info[0] < 3``, ``six.PY2``, ...) statically.

    Names are resolved through the module's imports (``import sys``, ``import
    six``, ``from six import PY2``) and through module-level flags assigned from
    such a test (``PY3 = sys.version_info[0] == 3``). Anything else is unknown.
    """

    def __init__(self, tree: ast.Module) -> None:
        self._aliases: dict[str, str] = {}
        self._flags: dict[str, Any] = {}
        for statement in tree.body:
            if isinstance(statement, ast.Import):
                for alias in statement.names:
                    self._aliases[alias.asname or alias.name.split(".")[0]] = (
                        alias.name if alias.asname else alias.name.split(".")[0])
            elif isinstance(statement, ast.ImportFrom) and statement.module and not statement.level:
                for alias in statement.names:
                    self._aliases[alias.asname or alias.name] = f"{statement.module}.{alias.name}"
            elif (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                  and isinstance(statement.targets[0], ast.Name)):
                value = self.value(statement.value)
                if value is not _UNKNOWN:
                    self._flags[statement.targets[0].id] = value

    def _qualname(self, node: ast.expr) -> str | None:
        if isinstance(node, ast.Name):
            return self._aliases.get(node.id)
        if isinstance(node, ast.Attribute):
            owner = self._qualname(node.value)
            return None if owner is None else f"{owner}.{node.attr}"
        return None

    def value(self, node: ast.expr) -> Any:
        """The value of ``node`` on this interpreter, or :data:`UNKNOWN` if it is not a version test."""
        if isinstance(node, ast.Name) and node.id in self._flags:
            return self._flags[node.id]
        name = self._qualname(node)
        known = {"sys.version_info": tuple(sys.version_info), "sys.version": _VERSION,
                 "six.PY2": sys.version_info[0] == 2, "six.PY3": sys.version_info[0] == 3,
                 "sys.version_info.major": sys.version_info[0], "sys.version_info.minor": sys.version_info[1]}
        if name in known:
            return known[name]
        if isinstance(node, ast.Subscript):
            return self._subscript(node)
        if isinstance(node, ast.Compare):
            return self._compare(node)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            operand = self.value(node.operand)
            return _UNKNOWN if operand is _UNKNOWN else not operand
        if isinstance(node, ast.BoolOp):
            values = [self.value(v) for v in node.values]
            if any(v is _UNKNOWN for v in values):
                return _UNKNOWN
            return all(values) if isinstance(node.op, ast.And) else any(values)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "startswith":
            owner, args = self.value(node.func.value), [_constant(a) for a in node.args]
            if isinstance(owner, str) and len(args) == 1 and isinstance(args[0], str):
                return owner.startswith(args[0])
        return _UNKNOWN

    def _subscript(self, node: ast.Subscript) -> Any:
        owner = self.value(node.value)
        if owner is _UNKNOWN or not isinstance(owner, (tuple, str)):
            return _UNKNOWN
        index = node.slice
        if isinstance(index, ast.Slice):
            bounds = [None if b is None else _constant(b) for b in (index.lower, index.upper)]
            if index.step is None and all(b is None or type(b) is int for b in bounds):
                return owner[bounds[0]:bounds[1]]
            return _UNKNOWN
        position = _constant(index)
        return owner[position] if type(position) is int and -len(owner) <= position < len(owner) else _UNKNOWN

    def _compare(self, node: ast.Compare) -> Any:
        left = self.value(node.left)
        if left is _UNKNOWN:
            return _UNKNOWN
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = _constant(right_node)
            if right is _UNKNOWN or type(op) not in _COMPARE:
                return _UNKNOWN
            try:
                if not _COMPARE[type(op)](left, right):
                    return False
            except TypeError:
                return _UNKNOWN
            left = right
        return True


class _Unknown:
    """Marks a value the static evaluation cannot know."""


_UNKNOWN: Any = _Unknown()
#: What :meth:`VersionTests.value` returns for a test it cannot evaluate.
UNKNOWN: Any = _UNKNOWN


def _constant(node: ast.expr) -> Any:
    """A literal int, str or tuple of them, else ``_UNKNOWN``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, str)):
        return node.value
    if isinstance(node, ast.Tuple):
        items = [_constant(e) for e in node.elts]
        return _UNKNOWN if any(i is _UNKNOWN for i in items) else tuple(items)
    return _UNKNOWN


# --------------------------------------------------------------------------
# Both, per node
# --------------------------------------------------------------------------

#: Names that hold a script's command-line options or configuration in TF1-era code.
OPTION_HOLDERS = frozenset({"FLAGS", "flags", "args", "opt", "opts", "options", "config", "cfg", "hparams",
                            "params", "hps", "conf"})


def option_in_test(test: ast.expr) -> str | None:
    """``FLAGS.num_gpus`` if ``test`` reads an option (an attribute of :data:`OPTION_HOLDERS`, also
    ``self.config.x``), else None."""
    for node in ast.walk(test):
        if not isinstance(node, ast.Attribute):
            continue
        holder = node.value
        if isinstance(holder, ast.Attribute) and isinstance(holder.value, ast.Name) and holder.value.id == "self":
            holder_name = holder.attr
        elif isinstance(holder, ast.Name):
            holder_name = holder.id
        else:
            continue
        if holder_name in OPTION_HOLDERS:
            return ast.unparse(node)
    return None


class Guards:
    """The script's own alternatives around each node: enclosing ``try`` statements, version branches.

    Args:
        tree: the module.
    """

    def __init__(self, tree: ast.Module) -> None:
        self._tries: dict[int, list[ast.AST]] = {}
        self._not_run: dict[int, str] = {}
        self._conditional: dict[int, str] = {}
        tests = VersionTests(tree)
        for node in ast.walk(tree):  # outer try statements come first in a breadth-first walk
            if isinstance(node, _TRY_NODES):
                for statement in node.body:  # type: ignore[attr-defined]
                    self._mark(statement, node)
            elif isinstance(node, ast.If):
                self._mark_version_branch(node, tests)
                self._mark_option_branch(node)

    def _mark_version_branch(self, node: ast.If, tests: VersionTests) -> None:
        """Mark the branch of ``if <version test>:`` that this Python does not take."""
        value = tests.value(node.test)
        if value is _UNKNOWN:
            return
        version = "{}.{}".format(*sys.version_info[:2])
        test = ast.unparse(node.test)
        if value:
            reason = f"in the else branch of `if {test}`, which Python {version} does not run"
            dead = node.orelse
        else:
            reason = f"under `if {test}`, which is false on Python {version}"
            dead = node.body
        for statement in dead:
            for inner in ast.walk(statement):
                self._not_run.setdefault(id(inner), reason)

    def _mark_option_branch(self, node: ast.If) -> None:
        """Mark both branches of ``if <a test on the script's options>:`` (``FLAGS.num_gpus > 1``).

        Which branch runs depends on how the script is started, so a construct
        there fails only in the runs that take that branch (a multi-GPU path,
        an optional export): the report says so instead of failing the check.
        """
        option = option_in_test(node.test)
        if option is None:
            return
        test = ast.unparse(node.test)
        for statements, reason in ((node.body, f"only when `{test}` holds"),
                                   (node.orelse, f"only when `{test}` does not hold")):
            for statement in statements:
                for inner in ast.walk(statement):
                    self._conditional.setdefault(id(inner), f"{reason} ({option} is an option of the script)")

    def condition_for(self, node: ast.AST) -> str | None:
        """The option test under which ``node`` runs, when it is inside such a branch; None otherwise."""
        return self._conditional.get(id(node))

    def _mark(self, node: ast.AST, try_node: ast.AST) -> None:
        self._tries.setdefault(id(node), []).insert(0, try_node)
        if isinstance(node, _DEFERRED):
            return
        for child in ast.iter_child_nodes(node):
            self._mark(child, try_node)

    def handler_for(self, node: ast.AST, exception: str) -> str | None:
        """The ``except ...`` clause that catches ``exception`` raised at ``node``, or None."""
        for try_node in self._tries.get(id(node), []):
            for handler in try_node.handlers:  # type: ignore[attr-defined]
                if _catches(handler, exception):
                    return _describe(handler)
        return None

    def fallback_for(self, node: ast.AST) -> str | None:
        """What runs instead of ``node``'s construct where the runner refuses it, or None.

        The text names the ``if`` test whose other branch runs on this Python, or
        the ``except`` clause that catches the runner's error.
        """
        if id(node) in self._not_run:
            return f"not provided, and not run: {self._not_run[id(node)]}"
        exception = raised_by(node)
        handler = None if exception is None else self.handler_for(node, exception)
        return None if handler is None else f"not provided; the script's {handler} fallback runs"
