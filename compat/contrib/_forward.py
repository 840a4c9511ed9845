"""Helpers for ``tf.contrib`` bridges whose names moved elsewhere (core TensorFlow, ``tf_keras``, TFP).

A forwarding bridge lists each TF 1.15 name with the dotted path of what it
became; :func:`forwarding_getattr` resolves a path only when a script reaches
for the name, so importing a bridge imports no more than the bridge itself.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

from compat.contrib import refusing_getattr

__all__ = ["forwarding_getattr", "resolve"]


def resolve(path: str) -> Any:
    """The object at dotted ``path`` (``"tensorflow.compat.v1.lookup.StaticHashTable"``).

    Attributes are followed from the top package; a step that is not an
    attribute yet is imported as a submodule (``tf_keras.src...``).

    Raises:
        AttributeError: no object lives at ``path``.
    """
    parts = path.split(".")
    target: Any = importlib.import_module(parts[0])
    for index, part in enumerate(parts[1:], start=1):
        try:
            target = getattr(target, part)
        except AttributeError:
            try:
                target = importlib.import_module(".".join(parts[:index + 1]))
            except ImportError as error:
                raise AttributeError(f"{path}: {'.'.join(parts[:index])} has no {part!r}") from error
    return target


def forwarding_getattr(module_name: str, forwards: Mapping[str, str],
                       refused: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__``: names of ``forwards`` resolve to their paths, others are refused.

    Args:
        module_name: the name under ``tf.contrib`` (for messages).
        forwards: TF 1.15 name -> dotted path of the object that replaced it.
        refused: TF 1.15 name -> the replacement to name in the refusal.
    """
    refuse = refusing_getattr(module_name, refused)

    def __getattr__(name: str) -> Any:
        if name in forwards:
            return resolve(forwards[name])
        return refuse(name)
    return __getattr__
