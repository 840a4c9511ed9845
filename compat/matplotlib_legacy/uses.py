"""The uses of removed Matplotlib names and arguments in one module, found without running it.

Read by :mod:`compat.checker.check`, which reports each as ``bridged``: the
runner provides them (:mod:`compat.matplotlib_legacy`). Everything comes from
the tables of :mod:`compat.matplotlib_legacy.removed`:

* a removed module-level name, imported (``from matplotlib.mlab import normpdf``)
  or reached through a module (``plt.cm.get_cmap``, ``mlab.normpdf``, ``plt.hold``);
* a removed method (``ax.set_axis_bgcolor``, ``fig.canvas.tostring_rgb``),
  in a module that imports Matplotlib;
* an old keyword or value in a call (``ax.hist(x, normed=True)``,
  ``matplotlib.use('Agg', warn=False)``, ``fig.gca(projection='3d')``,
  ``plt.style.use('seaborn-whitegrid')``), in a module that imports Matplotlib.

Matplotlib is never imported here.
"""
from __future__ import annotations

import ast

from compat.matplotlib_legacy import removed
from compat.surfaces.source_pass import dotted_through, names_bound_to, short

__all__ = ["Use", "bridged_uses"]

#: (node, construct, what the runner does)
Use = tuple[ast.AST, str, str]


def bridged_uses(tree: ast.Module) -> list[Use]:
    """Each use in ``tree`` of a Matplotlib name or argument the runner bridges."""
    modules = names_bound_to(tree, _is_matplotlib)
    if not modules:
        return []  # methods and keywords count only where Matplotlib is imported
    finder = _Finder(modules)
    finder.visit(tree)
    return finder.uses


def _normalized(module: str) -> str:
    """``matplotlib.pyplot.cm`` -> ``matplotlib.cm``, ``pylab`` -> ``matplotlib.pylab`` (longest prefix first)."""
    for alias in sorted(removed.MODULE_ALIASES, key=len, reverse=True):
        if module == alias or module.startswith(alias + "."):
            return removed.MODULE_ALIASES[alias] + module[len(alias):]
    return module


def _is_matplotlib(module: str) -> bool:
    return module.split(".")[0] in ("matplotlib", "pylab")


def _method_table() -> dict[str, tuple[str | None, str]]:
    """Removed method name -> (the attribute it must be reached through or None, its replacement)."""
    return {attr: (entry.receiver, entry.replacement) for owner, names in removed.REMOVED.items()
            if ":" in owner for attr, entry in names.items()}


def _string_argument(node: ast.Call, index: int | None, keyword: str) -> str | None:
    """The string constant passed as argument ``index`` or as ``keyword``, else None."""
    value = next((k.value for k in node.keywords if k.arg == keyword), None)
    if value is None and index is not None and len(node.args) > index:
        value = node.args[index]
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return value.value
    return None



class _Finder(ast.NodeVisitor):
    """Collects the uses of one module (see :func:`bridged_uses`)."""

    def __init__(self, modules: dict[str, str]) -> None:
        self._modules = modules
        self._methods = _method_table()
        self.uses: list[Use] = []

    def _resolve(self, node: ast.expr) -> str | None:
        """The full Matplotlib path of ``plt.cm.get_cmap`` (``matplotlib.cm.get_cmap``), else None."""
        dotted = dotted_through(node, self._modules)
        return None if dotted is None else _normalized(dotted)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = _normalized(node.module or "") if node.level == 0 else ""
        for alias in node.names:
            entry = removed.REMOVED.get(module, {}).get(alias.name)
            if entry is not None:
                self.uses.append((node, f"{module}.{alias.name}", _action(entry.replacement)))

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.ctx, ast.Load):
            dotted = self._resolve(node)
            module, _, name = (dotted or "").rpartition(".")
            entry = removed.REMOVED.get(module, {}).get(name)
            if entry is not None:
                self.uses.append((node, short(node), _action(entry.replacement)))
                return
            method = self._methods.get(node.attr)
            receiver_ok = method is not None and (method[0] is None or (
                isinstance(node.value, ast.Attribute) and node.value.attr == method[0]))
            if method is not None and receiver_ok and dotted is None:
                self.uses.append((node, short(node), _action(method[1])))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        dotted = self._resolve(func)
        keys = [key for key in (dotted, f".{func.attr}" if isinstance(func, ast.Attribute) else None) if key]
        for key in keys:
            old = removed.OLD_KEYWORDS.get(key, {})
            given = [k.arg for k in node.keywords if k.arg is not None and (k.arg in old or "*" in old)]
            if given:
                self.uses.append((node, short(node), old.get(given[0], old.get("*", ""))))
                break
            if key in removed.OLD_VALUES:
                index, keyword, is_old, action = removed.OLD_VALUES[key]
                value = _string_argument(node, index, keyword)
                if value is not None and is_old(value):
                    self.uses.append((node, short(node), action))
                    break
        self.generic_visit(node)


def _action(replacement: str) -> str:
    return f"removed from Matplotlib; the runner adds it back with its old behaviour (today: {replacement})"
