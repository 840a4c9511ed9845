"""The TF1 era's process-wide defaults, as a legacy surface (see :mod:`compat.surfaces`)."""
from __future__ import annotations

from compat.old_defaults import deterministic_protobuf
from compat.surfaces import Context, Surface, Undo, chain

__all__ = ["SURFACE", "legacy_numpy_printing"]


def legacy_numpy_printing() -> Undo | None:
    """Print NumPy scalars as NumPy 1 did (``[0]``, not ``[np.int64(0)]``); returns the undo (None on NumPy 1)."""
    import numpy as np
    if int(np.__version__.split(".")[0]) < 2:
        return None
    previous = np.get_printoptions()
    np.set_printoptions(legacy="1.25")
    return lambda: np.set_printoptions(**previous)


def _install(context: Context) -> Undo:
    return chain(deterministic_protobuf.install().uninstall, legacy_numpy_printing())


SURFACE = Surface(
    name="old_defaults",
    summary="deterministic protobuf serialization and NumPy 1's printing of scalars",
    before_tensorflow=_install,
)
