"""The import finder that serves installed TF1-era packages as legacy code.

:class:`LegacyPackageFinder` goes first on ``sys.meta_path`` while a script runs.
For a module of a package :class:`compat.tf1_libraries.recognise.LegacyPackages`
recognises, it finds the module as Python's path finder would and gives it a
:class:`compat.runner.rewrite.LegacyLoader`: the source is rewritten and compiled
in memory, so the installed files are never modified and no ``.pyc`` is written
next to them (a plain ``python`` later still runs the package's own bytecode).
Compiled extension modules and bytecode-only files keep their own loaders.
"""
from __future__ import annotations

import importlib.abc
import importlib.machinery
import types
import warnings
from collections.abc import Sequence
from typing import Any

from compat.tf1_libraries.recognise import LegacyPackages

__all__ = ["LegacyPackageFinder"]


def _installed_loader(fullname: str, origin: str, helpers: Any) -> importlib.abc.Loader:
    """A :class:`compat.runner.rewrite.LegacyLoader` that compiles without ``SyntaxWarning``s.

    Python shows a module's ``SyntaxWarning``s (``x is not ""``) when it compiles the
    source, which for an installed package happened once, at install time; compiled
    in memory on every run, they would be repeated noise about code the user did not write.
    """
    from compat.runner.rewrite import LegacyLoader  # imports NumPy's rewrite tables: only when serving

    class InstalledLoader(LegacyLoader):
        def _compile(self) -> Any:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", SyntaxWarning)
                return super()._compile()
    return InstalledLoader(fullname, origin, helpers, python2=False)


class LegacyPackageFinder(importlib.abc.MetaPathFinder):
    """Hands the modules of recognised TF1-era packages to the rewriting loader.

    Args:
        packages: decides which top-level packages are legacy code.
        helpers: the ``__compat__`` helpers of the run (a :class:`compat.runner.rewrite.LegacyHelpers`).
    """

    def __init__(self, packages: LegacyPackages, helpers: Any) -> None:
        self.packages = packages
        self.helpers = helpers
        #: The modules served so far (for messages and tests).
        self.served: list[str] = []

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: types.ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        """A spec with a rewriting loader for a source module of a legacy package, else None."""
        if not self.packages.is_legacy(fullname):
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.origin is None or not isinstance(spec.loader, importlib.machinery.SourceFileLoader):
            return None
        # python2=False: these packages were released for Python 3 (six keeps their Python 2 branches).
        spec.loader = _installed_loader(fullname, spec.origin, self.helpers)
        self.served.append(fullname)
        return spec
