"""The source rewrite that gives the script's own modules NumPy 1 (see :mod:`compat.numpy1.runtime`).

In a module of the script's own code:

* ``np.NAME`` for a removed name (:data:`compat.numpy1.removed.REMOVED`) and
  ``from numpy import NAME`` -> ``__compat__.numpy.NAME``;
* ``np.lib.pad`` / ``from numpy.lib import pad`` -> ``numpy.pad``;
* ``np.array``, ``np.asarray``, ``np.load``, ``np.save``, ``np.savez`` and
  ``np.savez_compressed`` (and their ``from numpy import`` forms) -> the NumPy 1
  versions of :class:`compat.numpy1.runtime.Numpy1Names` (ragged input,
  ``copy=False``, the ``--allow-pickle`` default); only the
  ``np.load`` calls that read an object array (``.item()``, ``[()]``,
  ``encoding=``) are reported, the others are silent;
* ``x.ptp()``, ``x.itemset(...)``, ``x.newbyteorder()`` -> helpers that call the
  object's own method, or NumPy's replacement for an array;
* ``int(x)``, ``float(x)``, ``complex(x)`` in a module that imports NumPy ->
  helpers that also convert a size-1 array of any shape, as NumPy 1 did
  (``int(np.argmax(logits, axis=1))`` on a batch of one); not reported;
* an abstract scalar type given as a dtype (``np.empty(n, dtype=np.integer)``,
  ``x.astype(np.floating)``, ``np.zeros(n, np.integer)``, ``np.dtype(np.number)``)
  -> the concrete type NumPy 1 converted it to with a ``DeprecationWarning``
  (:data:`ABSTRACT_DTYPES`; NumPy 2 raises ``TypeError``). Only in dtype
  positions: ``np.issubdtype(t, np.integer)`` and ``isinstance(x, np.integer)``
  keep the abstract type.

``np`` is any name bound by ``import numpy [as np]``. Assignments to ``np.X``
are left alone (they reach the real module, as before).
"""
from __future__ import annotations

import ast
from typing import Any

from compat.numpy1.removed import REMOVED, RENAMED_KEYWORDS
from compat.surfaces.source_pass import SourcePass, helper, import_aliases, short

__all__ = ["SCALAR_CONVERSIONS", "SERVED_FUNCTIONS", "Numpy1Pass"]

#: NumPy functions the script's own code gets in their NumPy 1 behaviour.
SERVED_FUNCTIONS = frozenset({"array", "asarray", "load", "save", "savez", "savez_compressed"})
#: ``int(x)`` & co. in a module that uses NumPy: a size-1 array converts, as NumPy 1 let it
#: (NumPy 2 takes only 0-d arrays); the helper of :mod:`compat.numpy1.runtime` each becomes.
SCALAR_CONVERSIONS: dict[str, str] = {"int": "to_int", "float": "to_float", "complex": "to_complex"}
#: ndarray methods NumPy 2 removed, served through ``__compat__.numpy``.
REMOVED_METHODS: dict[str, str] = {
    "ptp": "numpy.ptp(a, ...)",
    "itemset": "a[index] = value",
    "newbyteorder": "a.view(a.dtype.newbyteorder(order))",
}
#: Abstract NumPy scalar types -> the concrete type NumPy 1 made of them as a dtype
#: (``PyArray_DescrFromTypeObject``: NPY_LONG, NPY_ULONG, NPY_DOUBLE, NPY_CDOUBLE).
ABSTRACT_DTYPES: dict[str, str] = {
    "integer": "int_", "signedinteger": "int_", "unsignedinteger": "uint",
    "floating": "float64", "inexact": "float64", "number": "float64", "complexfloating": "complex128",
}
#: NumPy functions whose positional argument at this index is the dtype.
DTYPE_POSITIONS: dict[str, int] = {
    "dtype": 0, "zeros": 1, "empty": 1, "ones": 1, "identity": 1, "array": 1, "asarray": 1, "asanyarray": 1,
    "ascontiguousarray": 1, "asfortranarray": 1, "fromiter": 1, "frombuffer": 1, "fromfile": 1,
    "fromstring": 1, "zeros_like": 1, "ones_like": 1, "empty_like": 1, "full": 2, "full_like": 2,
    "arange": 3, "eye": 3,
}
_PICKLE_ACTION = ("reads an object array: NumPy's safe default is kept, so run with "
                  "`compat run --allow-pickle` if you trust the file")


def _reads_object_array(call: ast.Call) -> bool:
    return any(k.arg == "encoding" for k in call.keywords)


class Numpy1Pass(SourcePass):
    """Rewrites one module's NumPy 1 constructs (module docstring)."""

    def __init__(self, tree: ast.Module) -> None:
        super().__init__()
        self._numpy = {name for name, module in import_aliases(tree, {"numpy"}).items() if module == "numpy"}
        self._bound = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)
                       and isinstance(node.ctx, ast.Store)} | {
            node.name for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.ClassDef))} | {
            node.arg for node in ast.walk(tree) if isinstance(node, ast.arg)}

    def _is_numpy(self, node: ast.expr) -> bool:
        return isinstance(node, ast.Name) and node.id in self._numpy

    # -- imports --------------------------------------------------------------

    def visit_ImportFrom(self, node: ast.ImportFrom) -> Any:
        if node.level or node.module not in ("numpy", "numpy.lib"):
            return node
        wanted = (lambda n: n == "pad") if node.module == "numpy.lib" else (
            lambda n: n in REMOVED or n in SERVED_FUNCTIONS)
        served = [a for a in node.names if wanted(a.name)]
        if not served:
            return node
        statements: list[ast.stmt] = []
        kept = [a for a in node.names if not wanted(a.name)]
        if kept:
            statements.append(ast.copy_location(ast.ImportFrom(module=node.module, names=kept, level=0), node))
        for alias in served:
            target = ast.Name(id=alias.asname or alias.name, ctx=ast.Store())
            statements.append(ast.copy_location(ast.Assign(targets=[target], value=helper("numpy", alias.name)),
                                                node))
            if alias.name in REMOVED or alias.name == "pad":
                replacement = "numpy.pad" if alias.name == "pad" else REMOVED[alias.name].replacement
                self.record(node, f"from {node.module} import {alias.name}",
                            f"removed from NumPy; {replacement} is used")
        return statements

    # -- attributes -----------------------------------------------------------

    def _note_object_load(self, call: ast.expr) -> None:
        """``np.load(...).item()`` / ``np.load(...)[()]``: an object array (a pickled dict) is read."""
        if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "load"
                and self._is_numpy(call.func.value) and not any(k.arg == "allow_pickle" for k in call.keywords)):
            self.record(call, short(call), _PICKLE_ACTION, status="bridged")

    def visit_Subscript(self, node: ast.Subscript) -> Any:
        if isinstance(node.slice, ast.Tuple) and not node.slice.elts:
            self._note_object_load(node.value)
        return self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> Any:
        if node.attr == "item":
            self._note_object_load(node.value)
        if not isinstance(node.ctx, ast.Load):
            return self.generic_visit(node)
        value = node.value
        if (node.attr == "pad" and isinstance(value, ast.Attribute) and value.attr == "lib"
                and self._is_numpy(value.value)):
            self.record(node, short(node), "removed from NumPy; numpy.pad is used")
            return ast.copy_location(helper("numpy", "pad"), node)
        if self._is_numpy(value):
            if node.attr in REMOVED:
                self.record(node, short(node), f"removed from NumPy; {REMOVED[node.attr].replacement} is used")
                return ast.copy_location(helper("numpy", node.attr), node)
            if node.attr in SERVED_FUNCTIONS:
                return ast.copy_location(helper("numpy", node.attr), node)
        return self.generic_visit(node)

    # -- calls ----------------------------------------------------------------

    def _removed_keywords(self, node: ast.Call, function: str) -> ast.expr | None:
        """``np.reshape(a, newshape=s)`` -> ``shape=s`` (:data:`RENAMED_KEYWORDS`), in place.

        ``np.histogram(..., normed=...)`` becomes a call of the helper that computes what
        NumPy 1 did, which is returned; otherwise None (the node, changed or not, is kept).
        """
        if function == "histogram" and any(k.arg == "normed" for k in node.keywords):
            self.record(node, short(node), "normed= was removed in NumPy 1.24; NumPy 1's normalisation "
                                           "(counts / sum(counts * widths)) is computed")
            self.generic_visit(node)
            return ast.copy_location(ast.Call(func=helper("numpy", "histogram_normed"), args=node.args,
                                              keywords=node.keywords), node)
        renamed = RENAMED_KEYWORDS.get(function, {})
        for keyword in node.keywords:
            if keyword.arg in renamed:
                new = renamed[keyword.arg]
                self.record(node, short(node), f"{keyword.arg}= was removed from numpy.{function}; "
                                               f"{new}= is passed (same meaning)")
                keyword.arg = new
        return None

    def _concrete_dtype(self, value: ast.expr) -> ast.expr:
        """``np.integer`` & co. -> ``np.int_`` & co. (:data:`ABSTRACT_DTYPES`); anything else unchanged."""
        if not (isinstance(value, ast.Attribute) and value.attr in ABSTRACT_DTYPES and self._is_numpy(value.value)):
            return value
        concrete = ABSTRACT_DTYPES[value.attr]
        self.record(value, short(value), f"an abstract type as a dtype (TypeError in NumPy 2); "
                                         f"numpy.{concrete}, what NumPy 1 converted it to, is used")
        return ast.copy_location(ast.Attribute(value=value.value, attr=concrete, ctx=ast.Load()), value)

    def _concrete_dtypes(self, node: ast.Call) -> None:
        """Replace, in place, an abstract type passed as the call's dtype (keyword or position)."""
        for keyword in node.keywords:
            if keyword.arg == "dtype":
                keyword.value = self._concrete_dtype(keyword.value)
        func = node.func
        position = None
        if isinstance(func, ast.Attribute):
            if self._is_numpy(func.value):
                position = DTYPE_POSITIONS.get(func.attr)
            elif func.attr == "astype":
                position = 0
        if position is not None and position < len(node.args):
            node.args[position] = self._concrete_dtype(node.args[position])

    def visit_Call(self, node: ast.Call) -> Any:
        func = node.func
        if self._numpy:
            self._concrete_dtypes(node)
        if (self._numpy and isinstance(func, ast.Name) and func.id in SCALAR_CONVERSIONS
                and func.id not in self._bound and len(node.args) == 1 and not node.keywords):
            # Silent: most calls get a Python number or a 0-d array and behave as before.
            self.generic_visit(node)
            return ast.copy_location(ast.Call(func=helper("numpy", SCALAR_CONVERSIONS[func.id]),
                                              args=node.args, keywords=[]), node)
        if _reads_object_array(node):
            self._note_object_load(node)
        if isinstance(func, ast.Attribute) and self._is_numpy(func.value):
            replaced = self._removed_keywords(node, func.attr)
            if replaced is not None:
                return replaced
        if (isinstance(func, ast.Attribute) and func.attr in REMOVED_METHODS
                and not self._is_numpy(func.value)):
            self.record(node, short(node), f"ndarray.{func.attr} was removed in NumPy 2.0; the object's own "
                                           f"method, else {REMOVED_METHODS[func.attr]}")
            self.generic_visit(node)
            args = [func.value, *node.args]
            return ast.copy_location(ast.Call(func=helper("numpy", func.attr), args=args,
                                              keywords=node.keywords), node)
        return self.generic_visit(node)
