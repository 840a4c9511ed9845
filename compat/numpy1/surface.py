"""NumPy 1 as a legacy surface (see :mod:`compat.surfaces`). The removed names and old behaviours
reach the script through the source rewrite (:mod:`compat.numpy1.rewrite`, run for every module of the
script's own code, and reported by ``compat check`` with the rewrite's changes); what the surface
declares here is the ``compat:`` line for a NumPy failure it recognises (an object array that
``np.load`` refused, a removed name reached through ``getattr``)."""
from __future__ import annotations

from compat.surfaces import Surface

__all__ = ["SURFACE"]


def _hint(exc: BaseException) -> str | None:
    from compat.numpy1.runtime import failure_hint  # NumPy is imported only once a script has failed
    return failure_hint(exc)


SURFACE = Surface(
    name="numpy1",
    summary="NumPy 1's removed names and behaviours for the script's own code (source rewrite)",
    hint=_hint,
)
