"""The scikit-image surface: names and arguments 0.13–0.16 code used, put back while a script runs."""
from __future__ import annotations

from compat.library_legacy.callers import remember_scope
from compat.library_legacy.lazy import LazyTablePatches
from compat.skimage_legacy.uses import find_uses
from compat.surfaces import Surface

__all__ = ["SURFACE", "make_patches"]


def make_patches() -> LazyTablePatches:
    """The scikit-image table for one run (:mod:`compat.skimage_legacy.removed`; imports NumPy)."""
    from compat.skimage_legacy import removed
    return LazyTablePatches(removed.REMOVED, removed.REPLACED)


SURFACE = Surface(
    name="skimage_legacy",
    summary="scikit-image 0.13-0.16: measure.compare_psnr/ssim/mse/nrmse with their old data_range rule, "
            "rgb2grey, draw.circle, register_translation, multichannel=, as_grey=, ...",
    patches=make_patches,
    before_tensorflow=remember_scope,
    uses=find_uses,
)
