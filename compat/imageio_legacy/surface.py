"""The imageio surface: imageio 2's GIF frame times and ``imread(as_gray=)`` for the script's calls."""
from __future__ import annotations

from compat.imageio_legacy.uses import find_uses
from compat.library_legacy.callers import remember_scope
from compat.surfaces import Surface
from compat.surfaces.table_patches import TablePatches

__all__ = ["SURFACE", "make_patches"]


def make_patches() -> TablePatches:
    """The imageio table for one run (:mod:`compat.imageio_legacy.removed`)."""
    from compat.imageio_legacy import removed
    return TablePatches({}, removed.REPLACED)


SURFACE = Surface(
    name="imageio_legacy",
    summary="imageio <= 2.27: a GIF's duration= in seconds, fps=10 and loop=0 for the script's mimsave/"
            "mimwrite/get_writer; imread(as_gray=True)",
    patches=make_patches,
    before_tensorflow=remember_scope,
    uses=find_uses,
)
