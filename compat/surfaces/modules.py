"""Module objects the runner builds and serves: one way to make them, one loader.

``tensorflow.contrib`` and its served submodules, the tutorial packages, the
namespaces with old names added and the ``tf_slim`` facades are module objects
built in advance; :func:`new_module` makes them (with a spec, so
``importlib.util.find_spec`` works on them) and :class:`ModuleObjectLoader`
hands one to the import system. Importing this module changes nothing.
"""
from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
import types

__all__ = ["ModuleObjectLoader", "forget_module", "new_module"]


def new_module(name: str, doc: str, is_package: bool = False) -> types.ModuleType:
    """A fresh module object named ``name`` with a spec; a package has an empty
    ``__path__``, so imports of its submodules reach the runner's finders."""
    module = types.ModuleType(name, doc)
    module.__spec__ = importlib.machinery.ModuleSpec(name, None, is_package=is_package)
    module.__package__ = name if is_package else name.rpartition(".")[0]
    if is_package:
        module.__path__ = []
    return module


def forget_module(name: str, served: types.ModuleType) -> None:
    """Take ``served`` out of ``sys.modules[name]`` and off its parent module (where the import system
    put it), each only if it is still there: what a served module's undo needs."""
    if sys.modules.get(name) is served:
        del sys.modules[name]
    parent_name, _, attr = name.rpartition(".")
    parent = sys.modules.get(parent_name)
    if parent is not None and parent.__dict__.get(attr) is served:
        delattr(parent, attr)


class ModuleObjectLoader(importlib.abc.Loader):
    """Loads a module object that already exists (built in advance, or served under a second name)."""

    def __init__(self, module: types.ModuleType) -> None:
        self._module = module

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        """The existing module."""
        return self._module

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run: the module is complete."""
