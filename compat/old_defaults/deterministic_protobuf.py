"""Deterministic ``SerializeToString()`` for legacy scripts.

TensorFlow 1 era tools write ``example.SerializeToString()``. Today's protobuf
runtime (upb) writes the entries of a map field (the ``feature`` map of an
``Example``) in an order that changes from process to process, so such a tool
writes different bytes on every run for the same content. While installed,
``SerializeToString()`` of every message defaults to ``deterministic=True``
(map entries sorted by key); an explicit ``deterministic=False`` still gets the
runtime's own order. :func:`install` changes the message base class of this
process; :meth:`DeterministicSerialization.uninstall` restores it. Importing
this module changes nothing.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["DeterministicSerialization", "install"]


def _message_base() -> type | None:
    """The class that defines ``SerializeToString`` for every generated message (the
    upb or C++ base), or None for the pure-Python runtime, which defines it per class."""
    from google.protobuf import descriptor_pb2

    generated = descriptor_pb2.FileDescriptorProto
    for klass in generated.__mro__[1:]:
        if "SerializeToString" in vars(klass):
            return klass if klass.__module__.startswith("google._upb") \
                or klass.__module__.startswith("google.protobuf.pyext") else None
    return None


@dataclass
class DeterministicSerialization:
    """What :func:`install` replaced, so that :meth:`uninstall` can put it back."""

    base: type | None
    original: Callable[..., bytes] | None

    def uninstall(self) -> None:
        """Restore the runtime's own ``SerializeToString``. Idempotent."""
        if self.base is not None and self.original is not None:
            setattr(self.base, "SerializeToString", self.original)  # noqa: B010
        self.base = self.original = None


def install() -> DeterministicSerialization:
    """Make ``SerializeToString()`` default to ``deterministic=True`` in this process.

    Returns the handle that undoes it; a no-op handle when the runtime defines the
    method per message class (the pure-Python protobuf), where nothing is changed.
    """
    base = _message_base()
    if base is None:
        return DeterministicSerialization(None, None)
    original: Callable[..., bytes] = vars(base)["SerializeToString"]

    def SerializeToString(self: Any, **kwargs: Any) -> bytes:  # noqa: N802 - protobuf's name
        """The message's wire bytes; map entries sorted unless ``deterministic=False``."""
        kwargs.setdefault("deterministic", True)
        return original(self, **kwargs)

    setattr(base, "SerializeToString", SerializeToString)  # noqa: B010
    return DeterministicSerialization(base, original)
