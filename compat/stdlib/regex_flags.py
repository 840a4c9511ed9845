"""Global inline flags in the middle of a regular expression, as Python up to 3.10 read them.

Until Python 3.10 a global inline flag group such as ``(?i)`` applied to the whole
pattern wherever it stood (deprecated since 3.6); since 3.11 it must stand at the
start, and ``re.compile(r'\\w+(?i)')`` raises ``re.error: global flags not at the
start of the expression``. In the script's own calls of the ``re`` module with a
literal pattern that Python refuses for that reason, :class:`RegexFlags` moves
the flag groups to the start, which is the meaning the pattern had.
"""
from __future__ import annotations

import ast
import re
from typing import Any

from compat.surfaces.source_pass import SourcePass, import_aliases, import_statements, short

__all__ = ["RegexFlags", "flags_first"]

#: The ``re`` functions whose first argument is a pattern.
_FUNCTIONS = frozenset({"compile", "search", "match", "fullmatch", "sub", "subn", "split", "findall", "finditer"})

ACTION = ("global inline flags moved to the start of the pattern: until Python 3.10 they applied to the whole "
          "pattern wherever they stood; 3.11 refuses them elsewhere")

#: A global flag group: ``(?`` + flag letters + ``)``, not escaped.
_GROUP = r"(?<!\\)\(\?([aiLmsux]+)\)"


def _refused(pattern: str | bytes) -> bool:
    try:
        re.compile(pattern)
    except re.error as exc:
        return "global flags not at the start" in str(exc)
    return False


def flags_first(pattern: str | bytes) -> str | bytes | None:
    """``pattern`` with its global flag groups moved to the start, or None if Python accepts it as it is
    (or the moved pattern does not compile either)."""
    if not _refused(pattern):
        return None
    if isinstance(pattern, bytes):
        moved_bytes = flags_first(pattern.decode("latin-1"))
        return None if moved_bytes is None else str(moved_bytes).encode("latin-1")
    letters = "".join(re.findall(_GROUP, pattern))
    moved = f"(?{''.join(dict.fromkeys(letters))})" + re.sub(_GROUP, "", pattern)
    try:
        re.compile(moved)
    except re.error:
        return None
    return moved


class RegexFlags(SourcePass):
    """Moves global inline flags to the start of literal patterns in the module's ``re`` calls."""

    def __init__(self, tree: ast.Module) -> None:
        super().__init__()
        self._modules = set(import_aliases(import_statements(tree), {"re"}))

    def visit_Call(self, node: ast.Call) -> Any:
        self.generic_visit(node)
        func = node.func
        if not (self._modules and isinstance(func, ast.Attribute) and func.attr in _FUNCTIONS
                and isinstance(func.value, ast.Name) and func.value.id in self._modules):
            return node
        argument = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "pattern"), None)
        if not isinstance(argument, ast.Constant) or not isinstance(argument.value, (str, bytes)):
            return node
        moved = flags_first(argument.value)
        if moved is not None:
            self.record(node, short(node), ACTION)
            argument.value = moved
        return node
