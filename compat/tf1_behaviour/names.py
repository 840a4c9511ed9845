"""Graph names compared case-sensitively, as TF 1.x compared them (summary tags, op and variable names).

TF 1.x made a name unique within its graph by its exact spelling: after
``with tf.name_scope('Loss'):``, ``tf.summary.scalar('loss', cost)`` got the
scope ``loss/`` and wrote the tag ``loss`` (TF 1.15's ``summary_scope`` takes
the tag from the unique scope name, prefixed with ``family/`` when a family is
given; a second summary of the same name gets ``loss_1``). TensorFlow 2
compares names without case (``Graph.unique_name`` keys on ``name.lower()``),
so the same script writes ``loss_1`` and a TensorBoard dashboard or a tag
reader sees other names; ops and variables named ``W`` and ``w`` get
``W`` and ``w_1`` (checkpoint keys of TF 1.x models differ too).

:func:`install` gives ``tf.Graph`` TF 1.x's rule back: a name is taken when
that exact name was used, and ``name_N`` suffixes are counted per exact name.
Ops created from the C API (``import_graph_def``) mark their exact name, as in
TF 1.x. Importing this module changes nothing.
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

__all__ = ["install", "unique_name"]

Undo = Callable[[], None]


def unique_name(self: Any, name: str, mark_as_used: bool = True) -> str:
    """``Graph.unique_name`` with names compared by exact spelling (TF 1.x); returns the unique name.

    ``name`` is prefixed with the current name scope; when it is taken, the first
    free ``name_1``, ``name_2``, ... (counted from the times ``name`` was asked for)
    is returned, and marked as used too so that a later ``name_1`` is not given twice.
    """
    if self._name_stack:
        name = f"{self._name_stack}/{name}"
    used: dict[str, int] = self._names_in_use
    count = used.get(name, 0)
    if mark_as_used:
        used[name] = count + 1
    if count == 0:
        return name
    base = name
    while name in used:
        name = f"{base}_{count}"
        count += 1
    if mark_as_used:
        used[name] = 1
    return name


def _exact_c_op_names(original: Callable[..., Any]) -> Callable[..., Any]:
    """``Graph._create_op_from_tf_operation`` marking the op's exact name instead of its lower-case form."""

    @functools.wraps(original)
    def create(self: Any, c_op: Any, *args: Any, **kwargs: Any) -> Any:
        from tensorflow.python.client import pywrap_tf_session

        lowered = pywrap_tf_session.TF_OperationName(c_op).lower()
        marked = lowered in self._names_in_use
        op = original(self, c_op, *args, **kwargs)
        if lowered != op.name and not marked:
            self._names_in_use.pop(lowered, None)  # today's case-less mark: not TF 1.x's
        self._names_in_use.setdefault(op.name, 1)
        return op

    return create


def install() -> Undo:
    """Names unique by exact spelling in every graph of this process; returns the undo."""
    from tensorflow.python.framework import ops

    graph = ops.Graph
    originals = {key: graph.__dict__[key] for key in ("unique_name", "_create_op_from_tf_operation")}
    graph.unique_name = unique_name
    graph._create_op_from_tf_operation = _exact_c_op_names(originals["_create_op_from_tf_operation"])

    def undo() -> None:
        for key, value in originals.items():
            setattr(graph, key, value)
    return undo
