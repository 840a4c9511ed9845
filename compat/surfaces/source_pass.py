"""The common shape of one source-rewriting pass over a module of the script's own code.

A legacy surface that is served by rewriting the script's source (NumPy 1 in
:mod:`compat.numpy1.rewrite`, the removed standard-library names in
:mod:`compat.stdlib.rewrite`) subclasses :class:`SourcePass`: it rewrites the
AST in place, points the rewritten code at ``__compat__.<surface>`` (built with
:func:`helper`) and records each change as an :class:`Edit`, which
:func:`compat.runner.rewrite.transform` turns into the report entries of
``compat check``. This module imports only :mod:`ast`, so the passes never
import the rewriter (no import cycle).
"""
from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["HELPERS_NAME", "Edit", "SourcePass", "helper", "import_aliases", "import_statements", "note_source_edits",
           "short", "source_edits"]

#: The global name under which rewritten code finds its helpers (the same as compat.runner.rewrite's).
HELPERS_NAME = "__compat__"


@dataclass(frozen=True)
class Edit:
    """One rewrite made by a pass: where (1-based line, 0-based column), what, and what the runner does."""

    line: int
    col: int
    construct: str
    status: str
    action: str


#: The attribute of a parsed module that holds the edits made to its text before parsing.
_SOURCE_EDITS = "compat_source_edits"


def note_source_edits(tree: ast.Module, edits: list[Edit]) -> None:
    """Keep ``edits`` made to a module's text before it was parsed (tabs, ``async`` names) with its tree.

    The parsed tree is what both the runner and ``compat check`` hand to the rewrite,
    so the report shows these edits with the others.
    """
    setattr(tree, _SOURCE_EDITS, list(edits))


def source_edits(tree: ast.Module) -> list[Edit]:
    """The edits :func:`note_source_edits` kept with ``tree`` (none for a tree parsed elsewhere)."""
    return list(getattr(tree, _SOURCE_EDITS, []))


def helper(*attrs: str) -> ast.expr:
    """The expression ``__compat__.a.b...`` (loaded)."""
    node: ast.expr = ast.Name(id=HELPERS_NAME, ctx=ast.Load())
    for attr in attrs:
        node = ast.Attribute(value=node, attr=attr, ctx=ast.Load())
    return node


def short(node: ast.AST, limit: int = 60) -> str:
    """The source of ``node``, shortened to ``limit`` characters for a report."""
    text = ast.unparse(node)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def names_bound_to(tree: ast.Module, is_library: Callable[[str], bool]) -> dict[str, str]:
    """Each name ``tree`` binds to a module or name of a library -> its full name: ``import
    matplotlib.pyplot as plt`` gives ``plt``; ``import matplotlib.pyplot`` binds ``matplotlib``;
    ``from pandas import DataFrame as DF`` gives ``DF`` -> ``pandas.DataFrame`` (``is_library``
    says which dotted module names belong to the library)."""
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if is_library(alias.name):
                    name = alias.asname or alias.name.split(".")[0]
                    bound[name] = alias.name if alias.asname else name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and is_library(node.module or ""):
            bound.update({alias.asname or alias.name: f"{node.module}.{alias.name}"
                          for alias in node.names if alias.name != "*"})
    return bound


def dotted_through(node: ast.expr, aliases: dict[str, str]) -> str | None:
    """The full dotted name of ``a.b.c`` when ``a`` is bound to a module (``aliases``: local name ->
    module, as :func:`import_aliases` gives), e.g. ``plt.cm.get_cmap`` -> ``matplotlib.pyplot.cm.get_cmap``;
    None otherwise."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.insert(0, node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id not in aliases:
        return None
    return ".".join([aliases[node.id], *parts])


def import_statements(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Every ``import`` statement of ``tree``, at any depth, found by walking statements only (fast)."""
    found: list[ast.Import | ast.ImportFrom] = []
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
            continue
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            children = getattr(node, name, None)
            if isinstance(children, list):
                stack.extend(child for child in children if isinstance(child, (ast.stmt, ast.excepthandler,
                                                                                 ast.match_case)))
    return found


def import_aliases(tree: ast.Module | list[ast.Import | ast.ImportFrom],
                   modules: set[str] | frozenset[str]) -> dict[str, str]:
    """Local name -> module, for every ``import M`` / ``import M as a`` of a module in ``modules``.

    ``tree`` may be the list of :func:`import_statements` already found. ``import a.b``
    without ``as`` binds ``a``, so it counts for ``a`` only.
    """
    statements = import_statements(tree) if isinstance(tree, ast.Module) else tree
    found: dict[str, str] = {}
    for node in statements:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and alias.name in modules:
                    found[alias.asname] = alias.name
                elif not alias.asname and alias.name.split(".")[0] in modules:
                    found[alias.name.split(".")[0]] = alias.name.split(".")[0]
    return found


class SourcePass(ast.NodeTransformer):
    """A rewriting pass that records what it changed in :attr:`edits` (once per line and construct)."""

    def __init__(self) -> None:
        self.edits: list[Edit] = []
        self._seen: set[tuple[int, str]] = set()

    def record(self, node: ast.AST, construct: str, action: str, status: str = "rewritten") -> None:
        """Note a rewrite of ``node`` for the report."""
        line, col = getattr(node, "lineno", 0), getattr(node, "col_offset", 0)
        if (line, construct) not in self._seen:
            self._seen.add((line, construct))
            self.edits.append(Edit(line, col, construct, status, action))
