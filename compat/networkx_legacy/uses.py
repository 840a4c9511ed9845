"""The uses of removed networkx names in one module, for ``compat check``; networkx is not imported.

``G.node`` and ``G.edge`` are reported only in the subscript form 1.x code used (``G.node[n]``,
``G.edge[u][v]``): ``.node`` alone is too common an attribute name to flag.
"""
from __future__ import annotations

import ast

from compat.library_legacy.uses import Uses, finder
from compat.networkx_legacy import removed
from compat.surfaces.source_pass import names_bound_to, short

__all__ = ["USES", "find_uses"]

USES = Uses(
    library="networkx",
    roots=("networkx",),
    removed={"networkx": {name: entry.replacement for name, entry in removed.REMOVED["networkx"].items()}},
    methods=removed.METHODS,
)

_find = finder(USES)

_SUBSCRIPTED = {"node": "G.nodes", "edge": "G.adj"}


def find_uses(tree: ast.Module) -> list[tuple[ast.AST, str, str]]:
    """:data:`USES`'s finds, plus ``G.node[n]`` and ``G.edge[u][v]`` in a module that imports networkx."""
    if not names_bound_to(tree, lambda module: module.split(".")[0] == "networkx"):
        return []
    found = _find(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) \
                and node.value.attr in _SUBSCRIPTED:
            found.append((node.value, short(node.value), USES.action(_SUBSCRIPTED[node.value.attr])))
    return found
