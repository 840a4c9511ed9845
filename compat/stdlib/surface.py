"""The Python 3.6-3.9 standard library as a legacy surface (see :mod:`compat.surfaces`). The removed
names reach the script through the source rewrite (:mod:`compat.stdlib.rewrite`, reported by ``compat
check`` with the rewrite's changes); the surface declares the ``compat:`` line for an
``AttributeError`` on a removed name the rewrite could not see (reached through ``getattr``)."""
from __future__ import annotations

from compat.stdlib.runtime import failure_hint
from compat.surfaces import Surface

__all__ = ["SURFACE"]

SURFACE = Surface(
    name="stdlib",
    summary="the standard-library names Python 3.7-3.12 removed (collections.Iterable, imp, ...)",
    hint=failure_hint,
)
