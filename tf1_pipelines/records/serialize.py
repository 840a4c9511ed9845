"""One way to turn a protocol buffer message into record bytes: deterministically.

Today's protobuf runtime (upb) writes the entries of a map field - the
``feature`` map of an ``Example``'s ``Features`` - in an order that changes
from process to process, so the same Example can serialize to different bytes
in two runs. ``deterministic=True`` writes map entries sorted by key: the same
message gives the same bytes in every process, and export files can be
compared by their hashes. Every writer of the project serializes through
:func:`serialize`.
"""
from __future__ import annotations

from typing import Protocol


class _Serializable(Protocol):
    def SerializeToString(self, *, deterministic: bool = ...) -> bytes: ...  # noqa: N802


def serialize(message: _Serializable) -> bytes:
    """The wire-format bytes of ``message`` (an ``Example``, ``SequenceExample``, any
    protobuf message) with map entries sorted by key: identical in every process."""
    return message.SerializeToString(deterministic=True)
