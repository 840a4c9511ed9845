"""Puts the removed SciPy names of :mod:`compat.scipy_legacy.removed` on the real SciPy modules, and takes them away.

The compat runner calls :meth:`ScipyPatches.apply` on each SciPy module of
:attr:`ScipyPatches.modules` when it is loaded (and on those already loaded when
the script starts), and :meth:`ScipyPatches.undo` when the script ends. A name is
added only where the module lacks it and removed only if it is still the value
added, so nothing SciPy has is ever hidden. Creating a :class:`ScipyPatches`
changes nothing.
"""
from __future__ import annotations

import types
from collections.abc import Callable, Mapping
from typing import Any

from compat.scipy_legacy.removed import REMOVED, REPLACED, top_level_removed
from compat.surfaces.table_patches import Removed, TablePatches, const

__all__ = ["ScipyPatches"]


class ScipyPatches(TablePatches):
    """The additions to SciPy for one run of a script (``imread``: what ``scipy.ndimage`` gets)."""

    def __init__(self, imread: Callable[..., Any]) -> None:
        # "scipy" itself: the NumPy names its top level re-exported, computed from the loaded module.
        removed = {**REMOVED, "scipy": {}, "scipy.ndimage": {"imread": Removed("imageio.v2.imread", const(imread))}}
        super().__init__(removed, REPLACED)

    def removed_names(self, key: str, owner: Any) -> Mapping[str, Removed]:
        if key == "scipy" and isinstance(owner, types.ModuleType):
            return top_level_removed(owner)
        return super().removed_names(key, owner)
