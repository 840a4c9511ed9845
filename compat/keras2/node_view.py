"""Keras 2.2's view of a layer's ``Node`` for the code the runner serves: lists of tensors and masks.

Keras 2.0-2.2 (and TF 1.x's ``tf.keras``, which flattened them) kept a node's
``input_tensors`` / ``output_tensors``, ``input_shapes`` / ``output_shapes`` and
``inbound_layers`` as lists, and Keras 2.2 also kept ``input_masks`` /
``output_masks``, ``node_indices`` / ``tensor_indices`` (where each input came
from) and ``arguments`` (the call's keyword arguments). tf.keras (which ``tf_keras`` continues) keeps the
first call argument as it was given (a single tensor, not a list of one) and no
masks: each tensor carries its own ``_keras_mask``. Code of that time indexes the
lists: keras-contrib 2.0.8's CRF metrics and losses read
``crf._inbound_nodes[idx].input_tensors[0]`` and ``.input_masks[0]``, which on
tf.keras slice the batch instead.

:data:`NODE_REMOVED` gives ``tf_keras``'s ``Node`` the mask lists and :data:`NODE_REPLACED`
makes the tensor properties answer a list to the script's code and to served TF1-era libraries
(:func:`compat.library_legacy.callers.called_from_script`); tf_keras's own code
(cloning, functional models) keeps the structure it expects. Imports the
standard library only.
"""
from __future__ import annotations

from typing import Any

from compat.library_legacy.callers import called_from_script
from compat.surfaces.table_patches import WRAPPER_MARK, Removed, Replaced, TablePatches

__all__ = ["NODE_REMOVED", "NODE_REPLACED", "NodeViewPatches"]

_NODE = "tf_keras.src.engine.node:Node"


class _OldView(property):
    """A property of the old view (marked, so that it is never wrapped twice)."""


setattr(_OldView, WRAPPER_MARK, True)


def _flat(value: Any) -> list[Any]:
    import tensorflow as tf
    return list(tf.nest.flatten(value))


def _masks(tensors_of: str) -> Removed:
    def make() -> property:
        def masks(node: Any) -> list[Any]:
            return [getattr(t, "_keras_mask", None) for t in _flat(getattr(node, tensors_of))]
        masks.__doc__ = f"The Keras masks of ``{tensors_of}`` (None where a tensor has none), as Keras 2.2 kept them."
        return _OldView(masks)
    return Removed(f"each tensor's own mask (`[t._keras_mask for t in node.{tensors_of}]`)", make)


def _inbound(position: int, meaning: str) -> Removed:
    def make() -> property:
        def indices(node: Any) -> list[int]:
            return [int(inbound[position]) for inbound in node.iterate_inbound()]
        indices.__doc__ = f"For each input, {meaning}, as Keras 2.2 kept them."
        return _OldView(indices)
    return Removed(f"`[i[{position}] for i in node.iterate_inbound()]`", make)


def _arguments() -> property:
    def arguments(node: Any) -> dict[str, Any]:
        return dict(node.call_kwargs)
    arguments.__doc__ = "The call's keyword arguments besides the inputs, as Keras 2.2 kept them."
    return _OldView(arguments)


def _as_list(current: Any) -> Any:
    """``current`` (tf_keras's property) answering a flat list to the script's code and served libraries."""
    def listed(node: Any) -> Any:
        value = current.fget(node)
        return _flat(value) if called_from_script() else value
    listed.__doc__ = current.__doc__
    return _OldView(listed)


def _shapes_as_list(tensors_of: str) -> Any:
    """A ``*_shapes`` property answering the list of its tensors' shapes to the old code (a shape is a
    tuple itself, so the structure of shapes cannot simply be flattened)."""
    def make(current: Any) -> Any:
        def shapes(node: Any) -> Any:
            if not called_from_script():
                return current.fget(node)
            from tf_keras.src import backend
            return [backend.int_shape(tensor) for tensor in _flat(getattr(node, tensors_of))]
        shapes.__doc__ = current.__doc__
        return _OldView(shapes)
    return make


#: Names Keras 2.2's Node had and tf_keras's lacks.
NODE_REMOVED: dict[str, dict[str, Removed]] = {
    _NODE: {"input_masks": _masks("input_tensors"), "output_masks": _masks("output_tensors"),
            "node_indices": _inbound(1, "the index of its node in the inbound layer"),
            "tensor_indices": _inbound(2, "the index of its tensor among that node's outputs"),
            "arguments": Removed("`node.call_kwargs`", _arguments)},
}
#: Names tf_keras kept with another shape: a list for the old code only.
NODE_REPLACED: dict[str, dict[str, Replaced]] = {
    _NODE: {**{name: Replaced("the structure as given (a single tensor is not a list of one)",
                              needed=lambda current: isinstance(current, property), make=_as_list)
               for name in ("input_tensors", "output_tensors", "inbound_layers")},
            **{f"{side}_shapes": Replaced("the shapes in the structure of the tensors",
                                          needed=lambda current: isinstance(current, property),
                                          make=_shapes_as_list(f"{side}_tensors"))
               for side in ("input", "output")}},
}


class NodeViewPatches(TablePatches):
    """:class:`compat.surfaces.table_patches.TablePatches` of :data:`NODE_REMOVED` and :data:`NODE_REPLACED`."""

    def __init__(self) -> None:
        super().__init__(NODE_REMOVED, NODE_REPLACED)
