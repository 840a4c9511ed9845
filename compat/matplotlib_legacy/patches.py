"""Puts the removed Matplotlib names of :mod:`compat.matplotlib_legacy.removed` on the real modules and
classes, and takes them away.

The compat runner calls :meth:`MatplotlibPatches.apply` on each Matplotlib
module of :attr:`MatplotlibPatches.modules` when it is loaded (and on those
already loaded when the script starts), and :meth:`MatplotlibPatches.undo` when
the script ends. A removed name is added only where its owner (the module, or a
class of it) lacks it; a name of :data:`~compat.matplotlib_legacy.removed.REPLACED`
is wrapped only when the installed value refuses the old call. Undo removes
what was added and puts Matplotlib's own values back, unless the script rebound
the name. Creating a :class:`MatplotlibPatches` changes nothing.
"""
from __future__ import annotations

from compat.matplotlib_legacy.removed import REMOVED, REPLACED
from compat.surfaces.table_patches import TablePatches

__all__ = ["MatplotlibPatches"]


class MatplotlibPatches(TablePatches):
    """The additions to Matplotlib for one run of a script."""

    def __init__(self) -> None:
        super().__init__(REMOVED, REPLACED)
