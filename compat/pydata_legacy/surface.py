"""scikit-learn's and pandas' removed names and arguments as a legacy surface (see
:mod:`compat.surfaces`): put back while a script runs, removed modules served
(:mod:`compat.pydata_legacy.patches`), reported by ``compat check`` (:mod:`compat.pydata_legacy.uses`)."""
from __future__ import annotations

from compat.pydata_legacy.patches import PydataPatches
from compat.pydata_legacy.uses import bridged_uses
from compat.surfaces import Surface

__all__ = ["SURFACE"]

SURFACE = Surface(
    name="pydata_legacy",
    summary="the names scikit-learn and pandas removed since 2017 (cross_validation, as_matrix, .ix, ...)",
    patches=PydataPatches,
    uses=bridged_uses,
)
