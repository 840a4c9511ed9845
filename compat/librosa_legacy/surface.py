"""The librosa surface: 0.6–0.9 names and positional calls, while a script runs."""
from __future__ import annotations

from compat.library_legacy.callers import remember_scope
from compat.library_legacy.lazy import LazyTablePatches
from compat.librosa_legacy.uses import find_uses
from compat.surfaces import Surface

__all__ = ["SURFACE", "make_patches"]


def make_patches() -> LazyTablePatches:
    """The librosa table for one run (:mod:`compat.librosa_legacy.removed`; imports NumPy)."""
    from compat.librosa_legacy import removed
    return LazyTablePatches(removed.REMOVED, removed.REPLACED, removed.SERVED_MODULES)


SURFACE = Surface(
    name="librosa_legacy",
    summary="librosa 0.6-0.9: feature.rmse, output.write_wav, util.roll_sparse, display.waveplot and positional "
            "arguments to functions made keyword-only in 0.10",
    patches=make_patches,
    before_tensorflow=remember_scope,
    uses=find_uses,
)
