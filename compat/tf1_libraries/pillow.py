"""The Pillow constants TF1-era libraries use as default arguments, put back while a script runs.

Pillow 9.1 deprecated and Pillow 10.0 removed ``Image.ANTIALIAS``, ``Image.LINEAR``
and ``Image.CUBIC`` (aliases of ``LANCZOS``, ``BILINEAR`` and ``BICUBIC``; the same
filters as ``Image.Resampling.*``). TFLearn 0.5.0's ``data_utils.py`` has
``resize_mode=Image.ANTIALIAS`` as a default argument, so ``import tflearn``
fails at import on Pillow 10. Imports the standard library only.
"""
from __future__ import annotations

from compat.surfaces.table_patches import Removed, TablePatches

__all__ = ["PILLOW_REMOVED", "PillowPatches"]


def _resampling(name: str) -> Removed:
    def make() -> object:
        from PIL import Image  # only when PIL.Image has loaded
        return getattr(Image, name)
    return Removed(f"PIL.Image.{name} (Image.Resampling.{name})", make)


#: owner -> removed name -> entry (Pillow 10.0's release notes, "Removed constants").
PILLOW_REMOVED: dict[str, dict[str, Removed]] = {
    "PIL.Image": {"ANTIALIAS": _resampling("LANCZOS"), "LINEAR": _resampling("BILINEAR"),
                  "CUBIC": _resampling("BICUBIC")},
}


class PillowPatches(TablePatches):
    """:class:`compat.surfaces.table_patches.TablePatches` for :data:`PILLOW_REMOVED`."""

    def __init__(self) -> None:
        super().__init__(PILLOW_REMOVED)
