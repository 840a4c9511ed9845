"""Puts the removed scikit-learn and pandas names back on the real modules and classes, and takes them away.

The compat runner calls :meth:`PydataPatches.apply` on each module of
:attr:`PydataPatches.modules` when it is loaded (and on those already loaded
when the script starts), serves the modules of
:attr:`PydataPatches.served_modules` (``sklearn.cross_validation``, ...), and
calls :meth:`PydataPatches.undo` when the script ends. A removed name is added
only where its owner (the module, or a class of it) lacks it; a wrapped name
is wrapped only when the installed value refuses the old call. Undo removes
what was added and puts the libraries' own values back, unless the script
rebound the name. Creating a :class:`PydataPatches` changes nothing.
"""
from __future__ import annotations

from compat.pydata_legacy import pandas_removed, sklearn_removed
from compat.surfaces.table_patches import Removed, Replaced, TablePatches

__all__ = ["OLD_KEYWORDS", "REMOVED", "REPLACED", "PydataPatches"]

#: Both libraries' removed names: owner (``module`` or ``module:Class``) -> name -> entry.
REMOVED: dict[str, dict[str, Removed]] = {**sklearn_removed.REMOVED, **pandas_removed.REMOVED}
#: Both libraries' refused calls: owner -> name -> wrapper entry.
REPLACED: dict[str, dict[str, Replaced]] = {**sklearn_removed.REPLACED, **pandas_removed.REPLACED}

#: Both libraries' renamed keywords, for ``compat check``: call name -> old keyword -> today's spelling.
OLD_KEYWORDS: dict[str, dict[str, str]] = {**sklearn_removed.OLD_KEYWORDS, **pandas_removed.OLD_KEYWORDS}


class PydataPatches(TablePatches):
    """The additions to scikit-learn and pandas for one run of a script."""

    def __init__(self) -> None:
        super().__init__(REMOVED, REPLACED, sklearn_removed.SERVED_MODULES)
