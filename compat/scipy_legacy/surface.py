"""SciPy <= 1.2 as a legacy surface (see :mod:`compat.surfaces`): ``scipy.misc`` served
(:mod:`compat.scipy_legacy.misc_module`) and the names SciPy removed from its other modules put back
while a script runs (:mod:`compat.scipy_legacy.patches`). ``compat check`` classifies SciPy names in
:mod:`compat.checker.check` itself, through the same tables (:mod:`compat.scipy_legacy.removed`)."""
from __future__ import annotations

from compat.scipy_legacy.misc_module import ScipyMiscFinder
from compat.scipy_legacy.patches import ScipyPatches
from compat.surfaces import Surface, finders_of

__all__ = ["SURFACE"]


def _patches() -> ScipyPatches:
    from compat.scipy_legacy.ndimage import imread
    return ScipyPatches(imread)



SURFACE = Surface(
    name="scipy_legacy",
    summary="scipy.misc of SciPy 1.2 and the names SciPy removed since (simps, hann, pinv2, ...)",
    patches=_patches,
    finders=finders_of(ScipyMiscFinder),
    order=10,
)
