"""Names TF1 scripts imported from TensorFlow's internal modules that today's modules lack.

2017-2018 code reached past the public API for a few helpers:
``from tensorflow.python import pywrap_tensorflow`` then
``pywrap_tensorflow.NewCheckpointReader(path)`` to list a checkpoint's
variables, and ``from tensorflow.python.ops.rnn_cell_impl import _linear`` in
attention and pointer-network code. Those modules still exist (TensorFlow's own
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
