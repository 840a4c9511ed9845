"""Generators that end with ``StopIteration``, as before Python 3.7 (PEP 479).

Before Python 3.7 a ``StopIteration`` raised inside a generator's body —
``raise StopIteration``, or escaping from ``next(it)`` when ``it`` ran out —
ended the generator quietly, as ``return`` does; code of that time relied on
it to end its data. Since 3.7 (PEP 479) the generator raises ``RuntimeError:
generator raised StopIteration`` instead, and the consumer waiting for the end
gets an error.

:class:`GeneratorStop` gives every generator function of the script's own code
(a ``def`` whose own body has ``yield``) the innermost decorator
``__compat__.stdlib.pre_pep479``. The wrapper is itself a generator that
delegates to the original with ``yield from`` (``send``, ``throw`` and
``close`` pass through unchanged) and ends, returning the ``StopIteration``'s
value, when the original raises the ``RuntimeError`` whose ``__cause__`` is a
``StopIteration`` — exactly PEP 479's conversion, wherever the
``StopIteration`` came from. Left alone: modules with ``from __future__ import
generator_stop`` (they asked for PEP 479), ``async def`` generators (always
under it), generators decorated with a ``contextmanager`` (the context
manager tells its own ``StopIteration`` apart by identity) and generator-based
coroutines (``@asyncio.coroutine``, ``@types.coroutine``: the flag they set must
be on the generator's own code).

The check report lists the generators that visibly rely on the old rule: a
``raise StopIteration`` in the body, or a ``next(...)`` / ``x.next()`` call not
inside a ``try`` that catches ``StopIteration``.
"""
from __future__ import annotations

import ast
import functools
from collections.abc import Callable, Generator
from typing import Any

from compat.surfaces.source_pass import SourcePass, helper

__all__ = ["GeneratorStop", "pre_pep479"]

ACTION = ("a StopIteration inside the generator ends it, as before Python 3.7 (PEP 479 made it "
          "RuntimeError: generator raised StopIteration)")


def pre_pep479(func: Callable[..., Any]) -> Callable[..., Generator[Any, Any, Any]]:
    """Wrap the generator function ``func`` so that a ``StopIteration`` inside it ends it (module docstring)."""

    @functools.wraps(func)
    def generator(*args: Any, **kwargs: Any) -> Generator[Any, Any, Any]:
        try:
            return (yield from func(*args, **kwargs))
        except RuntimeError as exc:
            cause = exc.__cause__
            if isinstance(cause, StopIteration) and exc.__context__ is cause:
                return cause.value  # what Python 3.6 gave: the generator ended with this value
            raise

    return generator


class _Own(ast.NodeVisitor):
    """What a function's own body holds (nested functions, lambdas and classes are theirs)."""

    def __init__(self) -> None:
        self.yields = False
        self.visible: ast.AST | None = None  # a raise StopIteration / uncaught next() call
        self._caught = 0  # depth of ``try`` bodies catching StopIteration

    def scan(self, node: ast.FunctionDef) -> None:
        for statement in node.body:
            self.visit(statement)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        for decorator in node.decorator_list:
            self.visit(decorator)

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_Lambda(self, node: ast.Lambda) -> None:
        return

    def _generator_expression(self, node: ast.AST) -> None:
        return  # its own scope; a StopIteration there ended the expression before 3.7 too

    visit_GeneratorExp = _generator_expression

    def visit_Yield(self, node: ast.Yield) -> None:
        self.yields = True
        self.generic_visit(node)

    def visit_YieldFrom(self, node: ast.YieldFrom) -> None:
        self.yields = True
        self.generic_visit(node)

    def visit_Try(self, node: ast.Try) -> None:
        catches = any(_catches_stop(h.type) for h in node.handlers)
        self._caught += catches
        for statement in node.body:
            self.visit(statement)
        self._caught -= catches
        for part in (*node.handlers, *node.orelse, *node.finalbody):
            self.visit(part)

    def visit_Raise(self, node: ast.Raise) -> None:
        exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        if isinstance(exc, ast.Name) and exc.id == "StopIteration" and not self._caught:
            self.visible = self.visible or node
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        bare_next = isinstance(func, ast.Name) and func.id == "next" and len(node.args) == 1
        method_next = (isinstance(func, ast.Attribute) and func.attr in ("next", "__next__") and not node.args
                       or _is_helper_next(func, node))
        if (bare_next or method_next) and not self._caught:
            self.visible = self.visible or node
        self.generic_visit(node)


def _is_helper_next(func: ast.expr, node: ast.Call) -> bool:
    """``__compat__.next(it)``: a Python 2 ``it.next()`` as the main rewrite left it."""
    return (isinstance(func, ast.Attribute) and func.attr == "next" and isinstance(func.value, ast.Name)
            and func.value.id == "__compat__" and len(node.args) == 1)


def _as_written(node: ast.AST) -> str:
    """The construct as the script wrote it (``it.next()``, not the helper call it became), shortened."""
    if isinstance(node, ast.Call) and _is_helper_next(node.func, node):
        text = f"{ast.unparse(node.args[0])}.next()"
    else:
        text = ast.unparse(node)
    return text if len(text) <= 50 else text[:47] + "..."


def _catches_stop(kind: ast.expr | None) -> bool:
    """True for a handler that catches StopIteration (bare, Exception, BaseException or by name)."""
    if kind is None:
        return True
    names = kind.elts if isinstance(kind, ast.Tuple) else [kind]
    for name in names:
        text = name.id if isinstance(name, ast.Name) else name.attr if isinstance(name, ast.Attribute) else ""
        if text in ("StopIteration", "Exception", "BaseException"):
            return True
    return False


def _is_special(decorator: ast.expr) -> bool:
    """A ``contextmanager`` or a generator-based ``coroutine`` (``asyncio.coroutine``, ``types.coroutine``,
    ``tornado.gen.coroutine``): they need the generator function itself."""
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    name = target.attr if isinstance(target, ast.Attribute) else target.id if isinstance(target, ast.Name) else ""
    return name.endswith(("contextmanager", "coroutine"))


def _generator_stop(tree: ast.Module) -> bool:
    return any(isinstance(s, ast.ImportFrom) and s.module == "__future__"
               and any(a.name == "generator_stop" for a in s.names) for s in tree.body)


class GeneratorStop(SourcePass):
    """Decorates the module's generator functions with ``__compat__.stdlib.pre_pep479`` (module docstring)."""

    def __init__(self, tree: ast.Module) -> None:
        super().__init__()
        self._off = _generator_stop(tree)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> Any:
        self.generic_visit(node)
        if self._off or any(_is_special(d) for d in node.decorator_list):
            return node
        own = _Own()
        own.scan(node)
        if not own.yields:
            return node
        node.decorator_list.append(ast.copy_location(helper("stdlib", "pre_pep479"), node))
        if own.visible is not None:
            self.record(own.visible, f"{_as_written(own.visible)} in generator {node.name}()", ACTION)
        return node
