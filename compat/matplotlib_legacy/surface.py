"""Matplotlib's removed names and arguments as a legacy surface (see :mod:`compat.surfaces`): put back
while a script runs (:mod:`compat.matplotlib_legacy.patches`), reported by ``compat check``
(:mod:`compat.matplotlib_legacy.uses`)."""
from __future__ import annotations

from compat.matplotlib_legacy.patches import MatplotlibPatches
from compat.matplotlib_legacy.uses import bridged_uses
from compat.surfaces import Surface

__all__ = ["SURFACE"]

SURFACE = Surface(
    name="matplotlib_legacy",
    summary="the names and arguments Matplotlib removed since 2017 (normed=, set_window_title, ...)",
    patches=MatplotlibPatches,
    uses=bridged_uses,
)
