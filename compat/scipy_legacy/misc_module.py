"""``scipy.misc`` as of SciPy 1.2, served to the script while it runs.

SciPy removed the image helpers of ``scipy.misc`` in 1.2-1.3 and the module
itself later. :func:`make_scipy_misc_module` builds the module old scripts
import: the image helpers of :mod:`compat.scipy_legacy.misc`, the functions
that moved elsewhere in SciPy (``comb``, ``logsumexp``, ...), and a clear
refusal naming the replacement for anything else. :class:`ScipyMiscFinder`
serves it (also in place of an already imported ``scipy.misc``) and undoes that.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
from collections.abc import Sequence
from typing import Any

from compat.errors import LegacyAPIError, LegacyImportError
from compat.rules import SCIPY_MISC_MOVED, scipy_misc_message
from compat.surfaces.modules import ModuleObjectLoader

__all__ = ["ScipyMiscFinder", "make_scipy_misc_module"]


def make_scipy_misc_module(bridge: types.ModuleType) -> types.ModuleType:
    """A ``scipy.misc`` module: the image helpers from ``bridge``, moved functions, clear errors."""
    module = types.ModuleType("scipy.misc", "scipy.misc as of SciPy 1.2, as far as the compat "
                                            "runner provides it (see compat.scipy_legacy.misc).")
    provided = tuple(getattr(bridge, "__all__", ()))

    def __getattr__(name: str) -> Any:
        if name in provided:
            return getattr(bridge, name)
        if name in SCIPY_MISC_MOVED:
            module_name, _, attr = SCIPY_MISC_MOVED[name].rpartition(".")
            return getattr(importlib.import_module(module_name), attr)
        if name.startswith("__"):
            raise AttributeError(name)
        raise LegacyAPIError(scipy_misc_message(name))

    # Through __dict__: a module's __getattr__ and __dir__ are plain entries of it.
    module.__dict__.update(__getattr__=__getattr__, __dir__=lambda: sorted({*provided, *SCIPY_MISC_MOVED}),
                           __all__=list(provided))
    module.__path__ = []  # a package, so unknown names reach ScipyMiscFinder on `from` imports
    return module


class ScipyMiscFinder(importlib.abc.MetaPathFinder):
    """Serves ``scipy.misc`` (a package with an empty path, so that ``from scipy.misc import face``, a
    name it lacks, asks this finder for ``scipy.misc.face``, which raises the useful message instead of
    Python's generic "cannot import name"). An already imported ``scipy.misc`` is replaced at once."""

    def __init__(self) -> None:
        self.module = make_scipy_misc_module(importlib.import_module("compat.scipy_legacy.misc"))
        self._previous = sys.modules.get("scipy.misc")
        if self._previous is not None:
            self._set(self.module)

    @staticmethod
    def _set(module: types.ModuleType) -> None:
        sys.modules["scipy.misc"] = module
        scipy = sys.modules.get("scipy")
        if scipy is not None:
            setattr(scipy, "misc", module)  # noqa: B010 - SciPy's stubs have no misc since 1.10

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: types.ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        """The spec of our ``scipy.misc``; raises :class:`LegacyImportError` for a name below it."""
        if fullname == "scipy.misc":
            return importlib.util.spec_from_loader(fullname, ModuleObjectLoader(self.module), is_package=True)
        if fullname.startswith("scipy.misc."):
            # Reached by `from scipy.misc import name` when scipy.misc lacks `name`.
            raise LegacyImportError(scipy_misc_message(fullname[len("scipy.misc."):]))
        return None

    def undo(self) -> None:
        """Take our ``scipy.misc`` away; put back the one imported before, if any."""
        scipy = sys.modules.get("scipy")
        if sys.modules.get("scipy.misc") is self.module:
            del sys.modules["scipy.misc"]
        if scipy is not None and scipy.__dict__.get("misc") is self.module:
            delattr(scipy, "misc")
        if self._previous is not None:
            self._set(self._previous)
