"""The h5py surface: h5py 2's ``Dataset.value``, ``str`` strings and default file mode while a script runs."""
from __future__ import annotations

from compat.h5py_legacy.uses import find_uses
from compat.library_legacy.callers import remember_scope
from compat.surfaces import Surface
from compat.surfaces.table_patches import TablePatches

__all__ = ["SURFACE", "make_patches"]


def make_patches() -> TablePatches:
    """The h5py table for one run (:mod:`compat.h5py_legacy.removed`)."""
    from compat.h5py_legacy import removed
    return TablePatches(removed.REMOVED, removed.REPLACED)


SURFACE = Surface(
    name="h5py_legacy",
    summary="h5py 2: Dataset.value, UTF-8 string datasets read as str and File(name) opened read/write "
            "for the script's own calls, new_vlen/get_vlen/new_enum/get_enum",
    patches=make_patches,
    before_tensorflow=remember_scope,
    uses=find_uses,
)
