"""SciPy <= 1.2 as a legacy surface (see :mod:`compat.surfaces`): ``scipy.misc`` served
(:mod:`compat.scipy_legacy.misc_module`) and the names SciPy removed from its other modules put back
while a script runs (:mod:`compat.scipy_legacy.patches`). ``compat check`` classifies SciPy names in
:mod:`compat.checker.check` itself, through the same tables (:mod:`compat.scipy_legacy.removed`)."""
from __future__ import annotations

import importlib.abc
from collections.abc import Sequence

from compat.scipy_legacy.misc_module import ScipyMiscFinder
from compat.scipy_legacy.patches import ScipyPatches
from compat.surfaces import Context, Surface

__all__ = ["SURFACE"]


def _patches() -> ScipyPatches:
    from compat.scipy_legacy.ndimage import imread
    return ScipyPatches(imread)


def _finders(context: Context) -> Sequence[importlib.abc.MetaPathFinder]:
    return [ScipyMiscFinder()]


SURFACE = Surface(
    name="scipy_legacy",
    summary="scipy.misc of SciPy 1.2 and the names SciPy removed since (simps, hann, pinv2, ...)",
    patches=_patches,
    finders=_finders,
    order=10,
)
