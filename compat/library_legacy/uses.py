"""The uses of a library's removed names and old calls in one module, found without running it.

Each surface of a library beside TensorFlow (``skimage_legacy``, ``h5py_legacy``,
...) describes what ``compat check`` looks for in a :class:`Uses` and gets its
``uses`` hook from :func:`finder`:

* a removed module-level name, imported (``from skimage.measure import compare_psnr``)
  or reached through a module (``skimage.measure.compare_psnr``, ``nx.connected_component_subgraphs``);
* a removed method or attribute whose name the library's objects had (``ds.value``,
  ``G.edges_iter()``), in a module that imports the library;
* an old keyword in a call (``multichannel=``, ``as_grey=``), in a module that imports the library;
* any further construct the surface recognises in a call (``call``): ``h5py.File(name)``
  without a mode, ``librosa.load(path, 22050)``, ...

Nothing is imported here but the standard library and :mod:`compat.surfaces.source_pass`.
"""
from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from compat.surfaces.source_pass import dotted_through, names_bound_to, short

__all__ = ["Uses", "finder"]

#: (node, construct, what the runner does)
Found = tuple[ast.AST, str, str]


@dataclass(frozen=True)
class Uses:
    """What ``compat check`` reports for one library.

    ``library``: its name in messages; ``roots``: its top-level modules; ``removed``: module ->
    removed name -> replacement; ``methods``: attribute -> replacement; ``keywords``: call name ->
    old keyword -> today's spelling (``"*"`` for any call into the library); ``call``: given a call
    and the full dotted name it resolves to (or None), the ``(construct, action)`` to report, or None.
    """

    library: str
    roots: tuple[str, ...]
    removed: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    methods: Mapping[str, str] = field(default_factory=dict)
    keywords: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    call: Callable[[ast.Call, str | None], tuple[str, str] | None] | None = None

    def action(self, replacement: str) -> str:
        """The report's text for a removed name."""
        return f"removed from {self.library}; the runner adds it back with its old behaviour (today: {replacement})"


def finder(uses: Uses) -> Callable[[ast.Module], list[Found]]:
    """The ``uses`` hook of a surface: every use in a module of what ``uses`` describes."""
    def find(tree: ast.Module) -> list[Found]:
        modules = names_bound_to(tree, lambda module: module.split(".")[0] in uses.roots)
        if not modules:
            return []
        visitor = _Finder(uses, modules)
        visitor.visit(tree)
        return visitor.found
    return find


class _Finder(ast.NodeVisitor):
    """Collects the uses of one module (see :func:`finder`)."""

    def __init__(self, uses: Uses, modules: dict[str, str]) -> None:
        self._uses = uses
        self._modules = modules
        self.found: list[Found] = []

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level or module.split(".")[0] not in self._uses.roots:
            return
        for alias in node.names:
            replacement = self._uses.removed.get(module, {}).get(alias.name)
            if replacement is not None:
                self.found.append((node, f"{module}.{alias.name}", self._uses.action(replacement)))

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.ctx, ast.Load):
            module, _, name = (dotted_through(node, self._modules) or "").rpartition(".")
            replacement = self._uses.removed.get(module, {}).get(name)
            if replacement is not None:
                self.found.append((node, short(node), self._uses.action(replacement)))
            elif not module and node.attr in self._uses.methods:
                self.found.append((node, short(node), self._uses.action(self._uses.methods[node.attr])))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        full = dotted_through(func, self._modules)
        any_call = self._uses.keywords.get("*", {}) if full else {}
        old: dict[str, Any] = {**any_call, **self._uses.keywords.get(name, {})}
        given = [k.arg for k in node.keywords if k.arg in old]
        if given:
            self.found.append((node, short(node), f"{given[0]}= was renamed or removed from {self._uses.library}; "
                                                  f"the runner accepts it (today: {old[given[0]]})"))
        elif self._uses.call is not None:
            reported = self._uses.call(node, full)
            if reported is not None:
                self.found.append((node, *reported))
        self.generic_visit(node)
