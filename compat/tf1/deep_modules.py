"""Names TF1 scripts imported from TensorFlow's internal modules that today's modules lack.

2017-2018 code reached past the public API for a few helpers:
``from tensorflow.python import pywrap_tensorflow`` then
``pywrap_tensorflow.NewCheckpointReader(path)`` to list a checkpoint's
variables, and ``from tensorflow.python.ops.rnn_cell_impl import _linear`` in
attention and pointer-network code, ``control_flow_ops.while_loop`` / ``cond`` and
``functional_ops.map_fn`` in hand-written decoders (moved to modules of their own in
TF 2.13). Those modules still exist (TensorFlow's own
code uses them); only these names are gone. :func:`add_missing_names` adds
them to the loaded modules, in the runner's process only, and only where the
module lacks the name; it returns a function that removes them again.
Importing this module imports nothing heavy.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable

__all__ = ["DEEP_ADDITIONS", "add_missing_names"]

#: module -> {name: "provider.module:attribute"}: what the runner adds to each.
DEEP_ADDITIONS: dict[str, dict[str, str]] = {
    "tensorflow.python.pywrap_tensorflow": {
        "NewCheckpointReader": "tensorflow.python.training.py_checkpoint_reader:NewCheckpointReader",
    },
    "tensorflow.python.ops.rnn_cell_impl": {
        "_linear": "compat.contrib._rnn_cells:linear",
    },
    # TF 2.13 split these out of their TF 1.x modules (the objects are tf.compat.v1's own): hand-written
    # while loops (SeqGAN, pointer networks) and map_fn over a batch imported them from the old homes.
    "tensorflow.python.ops.control_flow_ops": {
        "while_loop": "tensorflow.python.ops.while_loop:while_loop",
        "cond": "tensorflow.python.ops.cond:cond",
        "case": "tensorflow.python.ops.control_flow_case:case",
        "Assert": "tensorflow.python.ops.control_flow_assert:Assert",
    },
    "tensorflow.python.ops.functional_ops": {
        "map_fn": "tensorflow.python.ops.map_fn:map_fn",
    },
    "tensorflow.python.ops.array_ops": {
        "stack": "tensorflow.python.ops.array_ops_stack:stack",
        "unstack": "tensorflow.python.ops.array_ops_stack:unstack",
    },
    "tensorflow.python.framework.ops": {
        "Tensor": "tensorflow.python.framework.tensor:Tensor",
    },
    # Installed TF1-era libraries (compat.tf1_libraries) import these from TF 1.x's internal modules.
    # TF 1.15's nest.is_nested just returned is_sequence(seq); the old name is gone by TF 2.14 (TFLearn's
    # pull request #1173), and TFLearn 0.5.0's layers/recurrent.py imports it at the top.
    "tensorflow.python.util.nest": {
        "is_sequence": "tensorflow.python.util.nest:is_nested",
    },
}


def _resolve(provider: str) -> object:
    module, _, attribute = provider.partition(":")
    return getattr(importlib.import_module(module), attribute)


def add_missing_names() -> Callable[[], None]:
    """Add each name of :data:`DEEP_ADDITIONS` its module lacks; returns a function that removes them."""
    added: list[tuple[object, str]] = []
    for module_name, names in DEEP_ADDITIONS.items():
        module = importlib.import_module(module_name)
        for name, provider in names.items():
            if not hasattr(module, name):
                setattr(module, name, _resolve(provider))
                added.append((module, name))

    def remove() -> None:
        for module, name in added:
            delattr(module, name)
    return remove
