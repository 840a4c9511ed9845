"""The source rewrite that gives the script's own modules the standard library of Python 3.5-3.7.

In a module of the script's own code (tables of :mod:`compat.stdlib.removed`):

* ``mod.NAME`` for a removed ``NAME`` of an imported standard module ``mod``
  (``collections.Iterable``, ``time.clock()``, ``os.errno``) ->
  ``__compat__.stdlib.attr(mod, "mod", "NAME")``, which returns the module's own
  attribute while Python still has it;
* ``from mod import NAME`` -> ``NAME = __compat__.stdlib.attr(None, "mod", "NAME")``;
* ``import xml.etree.cElementTree as ET`` (and its ``from`` forms) -> the module
  that replaced it; ``import imp`` -> the real module, or :mod:`compat.stdlib.imp`
  on a Python without it;
* ``x.isAlive()``, ``elem.getchildren()``, ``self.assertEquals(...)`` and the other
  removed methods -> ``__compat__.stdlib.method("isAlive", x)``: the object's own
  method if it has one, else the replacement;
* ``json.loads(s, encoding=...)``: the ignored ``encoding`` argument is dropped;
* ``asyncio.async(...)``, a syntax error since Python 3.7, is read as
  ``asyncio.ensure_future(...)`` (:func:`fix_source`, before parsing).
"""
from __future__ import annotations

import ast
import re
from typing import Any

from compat.rules import PY2_MODULES
from compat.stdlib.removed import ATTRIBUTES, DEFAULTED_KEYWORDS, DROPPED_KEYWORDS, FALLBACK_MODULES, METHODS, MODULES
from compat.surfaces.source_pass import SourcePass, helper, import_aliases, import_statements, short

__all__ = ["StdlibPass", "fix_source"]

_ASYNC_CALL = re.compile(r"\b(asyncio\s*\.\s*)async\b")


def fix_source(source: str) -> str:
    """``source`` with ``asyncio.async`` read as ``asyncio.ensure_future`` when only that keeps it from parsing.

    Line numbers are unchanged. Returns ``source`` itself when it parses or the
    replacement does not help.
    """
    if "async" not in source or not _ASYNC_CALL.search(source):
        return source
    try:
        ast.parse(source)
        return source
    except SyntaxError:
        pass
    fixed = _ASYNC_CALL.sub(r"\1ensure_future", source)
    try:
        ast.parse(fixed)
    except SyntaxError:
        return source
    return fixed


def _renamed_module(name: str) -> str | None:
    """The new dotted name of a removed module (or of a module below it), else None."""
    for old, new in MODULES.items():
        if name == old or name.startswith(old + "."):
            return new + name[len(old):]
    return None


#: Python 2 names of the modules of :data:`DEFAULTED_KEYWORDS` (``import cPickle as pickle``).
_PY2_NAMES = {old: new for old, new in PY2_MODULES.items() if new in DEFAULTED_KEYWORDS}


def _six_moves_aliases(imports: list[ast.Import | ast.ImportFrom]) -> dict[str, str]:
    """Local name -> module for ``from six.moves import cPickle [as name]``."""
    found: dict[str, str] = {}
    for node in imports:
        if isinstance(node, ast.ImportFrom) and node.module == "six.moves":
            for alias in node.names:
                if alias.name in _PY2_NAMES:
                    found[alias.asname or alias.name] = _PY2_NAMES[alias.name]
    return found


def _dotted(node: ast.expr) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return ".".join([node.id, *reversed(parts)])
    return None


def _dotted_expr(name: str) -> ast.expr:
    first, *rest = name.split(".")
    node: ast.expr = ast.Name(id=first, ctx=ast.Load())
    for part in rest:
        node = ast.Attribute(value=node, attr=part, ctx=ast.Load())
    return node


class StdlibPass(SourcePass):
    """Rewrites one module's uses of removed standard-library names (module docstring)."""

    def __init__(self, tree: ast.Module) -> None:
        super().__init__()
        imports = import_statements(tree)
        self._modules = import_aliases(imports, frozenset({*ATTRIBUTES, *DROPPED_KEYWORDS,
                                                           *DEFAULTED_KEYWORDS, *_PY2_NAMES}))
        self._modules = {name: _PY2_NAMES.get(module, module) for name, module in self._modules.items()}
        self._modules.update(_six_moves_aliases(imports))
        self._xml = "xml" in import_aliases(imports, {"xml"})
        # Names bound to any imported module: ``ET.fromstring(...)`` is a module function, not a removed method.
        self._imported = {alias.asname or alias.name.split(".")[0] for node in imports
                          if isinstance(node, ast.Import) for alias in node.names}

    # -- imports --------------------------------------------------------------

    def visit_Import(self, node: ast.Import) -> Any:
        statements: list[ast.stmt] = []
        kept: list[ast.alias] = []
        for alias in node.names:
            new = _renamed_module(alias.name)
            if new is not None:
                self.record(node, f"import {alias.name}", f"removed module; {new} is imported")
                kept.append(ast.alias(name=new, asname=alias.asname))
            elif alias.name in FALLBACK_MODULES:
                self.record(node, f"import {alias.name}", f"the real {alias.name} while Python has it, else "
                                                         f"{FALLBACK_MODULES[alias.name]}", status="bridged")
                value = ast.Call(func=helper("stdlib", "module"), args=[ast.Constant(alias.name)], keywords=[])
                target = ast.Name(id=alias.asname or alias.name, ctx=ast.Store())
                statements.append(ast.copy_location(ast.Assign(targets=[target], value=value), node))
            else:
                kept.append(alias)
        if len(kept) == len(node.names) and not statements:
            node.names = kept
            return node
        if kept:
            statements.insert(0, ast.copy_location(ast.Import(names=kept), node))
        return statements

    def visit_ImportFrom(self, node: ast.ImportFrom) -> Any:
        if node.level or node.module is None:
            return node
        module = node.module
        new = _renamed_module(module)
        if new is not None:
            self.record(node, f"from {module} import ...", f"removed module; imports from {new}")
            node.module = module = new
        if module == "xml.etree":
            for index, alias in enumerate(node.names):
                renamed = _renamed_module(f"xml.etree.{alias.name}")
                if renamed is not None:
                    self.record(node, f"from xml.etree import {alias.name}", f"removed module; {renamed} is used")
                    node.names[index] = ast.alias(name=renamed.rpartition(".")[2], asname=alias.asname or alias.name)
        if module in FALLBACK_MODULES:
            return self._from_fallback(node, module)
        table = ATTRIBUTES.get(module)
        if not table:
            return node
        served = [a for a in node.names if a.name in table]
        if not served:
            return node
        kept = [a for a in node.names if a.name not in table]
        statements: list[ast.stmt] = []
        if kept:
            statements.append(ast.copy_location(ast.ImportFrom(module=module, names=kept, level=0), node))
        for alias in served:
            value = ast.Call(func=helper("stdlib", "attr"), keywords=[],
                             args=[ast.Constant(None), ast.Constant(module), ast.Constant(alias.name)])
            target = ast.Name(id=alias.asname or alias.name, ctx=ast.Store())
            statements.append(ast.copy_location(ast.Assign(targets=[target], value=value), node))
            entry = table[alias.name]
            self.record(node, f"from {module} import {alias.name}",
                        f"removed in Python {entry.removed_in}; {entry.replacement} is used")
        return statements

    def _from_fallback(self, node: ast.ImportFrom, module: str) -> list[ast.stmt]:
        self.record(node, f"from {module} import ...", f"the real {module} while Python has it, else "
                                                      f"{FALLBACK_MODULES[module]}", status="bridged")
        statements: list[ast.stmt] = []
        for alias in node.names:
            served = ast.Call(func=helper("stdlib", "module"), args=[ast.Constant(module)], keywords=[])
            value = ast.Attribute(value=served, attr=alias.name, ctx=ast.Load())
            target = ast.Name(id=alias.asname or alias.name, ctx=ast.Store())
            statements.append(ast.copy_location(ast.Assign(targets=[target], value=value), node))
        return statements

    # -- attributes -------------------------------------------------------------

    def visit_Attribute(self, node: ast.Attribute) -> Any:
        if not isinstance(node.ctx, ast.Load):
            return self.generic_visit(node)
        dotted = _dotted(node) if self._xml else None  # only `import xml...` binds a removed module's root
        renamed = _renamed_module(dotted) if dotted else None
        if renamed is not None and dotted is not None:
            self.record(node, dotted, f"removed module; {renamed} is used")
            return ast.copy_location(_dotted_expr(renamed), node)
        value = node.value
        if isinstance(value, ast.Name) and value.id in self._modules:
            module = self._modules[value.id]
            entry = ATTRIBUTES.get(module, {}).get(node.attr)
            if entry is not None:
                self.record(node, short(node), f"removed in Python {entry.removed_in}; {entry.replacement} "
                                               "is used when the module lacks it")
                return ast.copy_location(ast.Call(
                    func=helper("stdlib", "attr"), keywords=[],
                    args=[value, ast.Constant(module), ast.Constant(node.attr)]), node)
        return self.generic_visit(node)

    # -- calls -------------------------------------------------------------------

    def visit_Call(self, node: ast.Call) -> Any:
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in self._modules:
            dropped = DROPPED_KEYWORDS.get(self._modules[func.value.id], {}).get(func.attr, frozenset())
            if any(k.arg in dropped for k in node.keywords):
                self.record(node, short(node), f"{', '.join(sorted(dropped))}= was removed (it had no effect); "
                                               "the argument is dropped")
                node.keywords = [k for k in node.keywords if k.arg not in dropped]
            self._default_keywords(node, self._modules[func.value.id], func.attr)
        if (isinstance(func, ast.Attribute) and func.attr in METHODS and not self._is_module(func.value)):
            entry = METHODS[func.attr]
            self.record(node, short(node), f"removed in Python {entry.removed_in}; the object's own "
                                           f"{func.attr} if it has one, else {entry.replacement}")
            self.generic_visit(node)
            args = [ast.Constant(func.attr), func.value, *node.args]
            return ast.copy_location(ast.Call(func=helper("stdlib", "method"), args=args,
                                              keywords=node.keywords), node)
        return self.generic_visit(node)

    def _default_keywords(self, node: ast.Call, module: str, function: str) -> None:
        """Give ``node`` the :data:`DEFAULTED_KEYWORDS` of ``module.function`` that it leaves out."""
        defaults = DEFAULTED_KEYWORDS.get(module, {}).get(function, {})
        given = {k.arg for k in node.keywords}
        if not defaults or None in given:  # ``**kwargs`` may hold them
            return
        for keyword, value in defaults.items():
            if keyword not in given:
                self.record(node, short(node), f"{keyword}={value!r} (reads what Python 2 wrote; "
                                               "the same result wherever the default succeeds)")
                node.keywords.append(ast.keyword(arg=keyword, value=ast.Constant(value)))

    def _is_module(self, node: ast.expr) -> bool:
        """True for a name bound to NumPy or to a standard module, and for ``__compat__`` (handled elsewhere)."""
        return isinstance(node, ast.Name) and (node.id in self._imported or node.id == "__compat__")
