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
from typing import Any

__all__ = ["ModuleObjectLoader", "forget_module", "new_module", "source_path_module"]


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


def source_path_module(fullname: str, bridge: types.ModuleType) -> types.ModuleType:
    """A package for a TF 1.x source path below a bridged module (``tensorflow.contrib.crf.python.ops``).

    Its names are the bridge's; a lower-case name the bridge lacks is taken for
    the name of a TF 1.x source file (``from tensorflow.contrib.crf.python.ops
    import crf``) and is the bridge itself, which holds that file's public names.
    """
    module = types.ModuleType(fullname, f"TF 1.x's {fullname}: the names of {bridge.__name__}.")
    module.__path__ = []

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            return getattr(bridge, name)
        except AttributeError:
            if name.islower() and not name.startswith("_"):
                return bridge
            raise
    module.__dict__["__getattr__"] = __getattr__
    return module
