"""TF 1.0-1.7's ``variable_scope._VARSCOPE_KEY``: the current variable scope as a graph collection.

Up to TensorFlow 1.7 the current ``VariableScope`` was the single entry of the
graph collection ``("__varscope",)``, and code that had to enter a scope
without a ``with`` block (PrettyTensor 0.7.4's ``scopes.var_and_name_scope``,
reached by every PrettyTensor layer) did::

    vs_key = tf.get_collection_ref(variable_scope._VARSCOPE_KEY)
    vs_key[0] = tf.VariableScope(...)   # enter
    ...
    vs_key[0] = old_vs                  # leave

TF 1.8 moved the scope into a ``_VariableScopeStore`` (``.current_scope``) under
``_VARSCOPESTORE_KEY`` and removed the name, so PrettyTensor stopped there. While
a script runs, :func:`install` puts the name back as a key of its own, and
``Graph.get_collection_ref`` answers it with :class:`CurrentScopeSlot`, a
one-entry list whose entry *is* the store's current scope: reading ``[0]``
gives it, writing ``[0]`` sets it, as the 1.7 collection did. Every other key
reaches TensorFlow's method unchanged. Importing this module imports nothing heavy.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["VARSCOPE_KEY", "CurrentScopeSlot", "install"]

#: The key the old name stands for; distinct from TF 2's ``("__varscope",)`` store key, whose
#: collection holds the store (replacing that entry by a scope is what broke the naive fix).
VARSCOPE_KEY = ("__varscope", "current_scope")


class CurrentScopeSlot:
    """The TF 1.7 ``__varscope`` collection of ``graph``: one entry, the graph's current VariableScope."""

    def __init__(self, graph: Any) -> None:
        self._graph = graph

    def _store(self) -> Any:
        from tensorflow.python.ops import variable_scope
        with self._graph.as_default():  # the store is a collection of the graph that was asked
            return variable_scope.get_variable_scope_store()

    def __len__(self) -> int:
        return 1

    def __getitem__(self, index: int) -> Any:
        self._check(index)
        return self._store().current_scope

    def __setitem__(self, index: int, scope: Any) -> None:
        self._check(index)
        self._store().current_scope = scope

    def __iter__(self) -> Iterator[Any]:
        return iter([self[0]])

    @staticmethod
    def _check(index: int) -> None:
        if index not in (0, -1):
            raise IndexError(f"the variable-scope collection has one entry; index {index} is out of range")


def install() -> Callable[[], None]:
    """Add ``variable_scope._VARSCOPE_KEY`` and answer it in ``Graph.get_collection_ref``; returns the undo."""
    from tensorflow.python.framework import ops
    from tensorflow.python.ops import variable_scope
    if hasattr(variable_scope, "_VARSCOPE_KEY"):
        return lambda: None  # a TensorFlow that has it: nothing to add
    original = ops.Graph.__dict__["get_collection_ref"]

    def get_collection_ref(self: Any, name: Any) -> Any:
        if name == VARSCOPE_KEY:
            return CurrentScopeSlot(self)
        return original(self, name)

    get_collection_ref.__wrapped__ = original  # type: ignore[attr-defined]
    get_collection_ref.__doc__ = original.__doc__
    ops.Graph.get_collection_ref = get_collection_ref
    variable_scope._VARSCOPE_KEY = VARSCOPE_KEY

    def undo() -> None:
        ops.Graph.get_collection_ref = original
        del variable_scope._VARSCOPE_KEY
    return undo
