"""The uses of removed scikit-learn and pandas names and arguments in one module, found without running it.

Read by :mod:`compat.checker.check`, which reports each as ``bridged``: the
runner provides them (:mod:`compat.pydata_legacy`). Everything comes from the
tables of :mod:`compat.pydata_legacy`:

* a removed module the runner serves (``sklearn.cross_validation``,
  ``from sklearn.externals import joblib``), imported;
* a removed module-level name, imported (``from sklearn.preprocessing import Imputer``)
  or reached through a module (``pd.rolling_mean``);
* a removed method whose name no builtin type has (``df.as_matrix()``, ``df.ix[...]``),
  in a module that imports pandas;
* an old keyword in a call (``TSNE(n_iter=)``, ``pd.read_csv(squeeze=)``,
  ``df.fillna(method=)``), in a module that imports scikit-learn or pandas.

Neither library is imported here.
"""
from __future__ import annotations

import ast

from compat.pydata_legacy import pandas_removed, patches, sklearn_removed
from compat.surfaces.source_pass import dotted_through, names_bound_to, short

__all__ = ["Use", "bridged_uses"]

#: (node, construct, what the runner does)
Use = tuple[ast.AST, str, str]

_ROOTS = ("sklearn", "pandas")


def bridged_uses(tree: ast.Module) -> list[Use]:
    """Each use in ``tree`` of a scikit-learn or pandas name or argument the runner bridges."""
    modules = names_bound_to(tree, _is_pydata)
    finder = _Finder(modules)
    finder.visit(tree)
    return finder.uses


def _is_pydata(module: str) -> bool:
    return module.split(".")[0] in _ROOTS


def _served(module: str) -> str | None:
    """The served removed module ``module`` is or lies in, else None."""
    for name in sklearn_removed.SERVED_MODULES:
        if module == name or module.startswith(name + "."):
            return name
    return None


def _served_action(name: str) -> str:
    return (f"removed from scikit-learn; the runner serves {name} with its old names "
            f"(today: {sklearn_removed.SERVED_REPLACEMENTS[name]})")


def _action(replacement: str, owner: str = "pandas") -> str:
    library = "scikit-learn" if owner.split(".")[0] == "sklearn" else "pandas"
    return f"removed from {library}; the runner adds it back with its old behaviour (today: {replacement})"



class _Finder(ast.NodeVisitor):
    """Collects the uses of one module (see :func:`bridged_uses`)."""

    def __init__(self, modules: dict[str, str]) -> None:
        self._modules = modules
        self._uses_pandas = any(name.split(".")[0] == "pandas" for name in modules.values())
        self.uses: list[Use] = []

    def _resolve(self, node: ast.expr) -> str | None:
        """The full name of ``pd.rolling_mean`` (``pandas.rolling_mean``), else None."""
        return dotted_through(node, self._modules)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            served = _served(alias.name)
            if served is not None:
                self.uses.append((node, f"import {alias.name}", _served_action(served)))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level or not _is_pydata(module):
            return
        served = _served(module)
        if served is not None:
            self.uses.append((node, f"from {module} import ...", _served_action(served)))
            return
        for alias in node.names:
            full = f"{module}.{alias.name}"
            entry = patches.REMOVED.get(module, {}).get(alias.name)
            if _served(full) is not None:
                self.uses.append((node, full, _served_action(full)))
            elif entry is not None:
                self.uses.append((node, full, _action(entry.replacement, module)))

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.ctx, ast.Load):
            module, _, name = (self._resolve(node) or "").rpartition(".")
            entry = patches.REMOVED.get(module, {}).get(name)
            if entry is not None:
                self.uses.append((node, short(node), _action(entry.replacement, module)))
            elif self._uses_pandas and node.attr in pandas_removed.CHECKED_METHODS and not module:
                replacement = next(names[node.attr].replacement for owner, names in patches.REMOVED.items()
                                   if node.attr in names)
                self.uses.append((node, short(node), _action(replacement)))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
        old = patches.OLD_KEYWORDS.get(name or "", {}) if self._modules else {}
        given = [k.arg for k in node.keywords if k.arg in old]
        if given:
            self.uses.append((node, short(node), f"{given[0]}= was renamed or removed; the runner accepts it "
                                                  f"(today: {old[given[0]]})"))
        self.generic_visit(node)
