"""``tf.gfile`` text-mode reads of files that are not UTF-8 return their bytes, as in TF <= 1.0.

Before TF 1.1, ``GFile.read()`` returned bytes in every mode on Python 3
(TensorFlow issue #4584, 2016-09: "gfile currently returns a byte stream"),
and Python 3 code of 2016 and early 2017 read JPEGs and frozen graphs with
``tf.gfile.FastGFile(path, 'r').read()``. From TF 1.1 a text-mode read
decodes as UTF-8, so that code raises ``UnicodeDecodeError`` (issue #11312).
Every later 1.x release returned text or raised, so only the failure is
changed: a read whose bytes are valid UTF-8 still returns ``str``; a read that
would raise returns the bytes instead. Importing this module changes nothing.
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

__all__ = ["install"]

Undo = Callable[[], None]


def _bytes_when_not_text(original: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """``FileIO._prepare_value`` returning the bytes read where decoding them as text fails."""

    @functools.wraps(original)
    def _prepare_value(self: Any, val: Any) -> Any:
        try:
            return original(self, val)
        except UnicodeDecodeError:
            if self._binary_mode:
                raise  # not a text read: not this module's business
            return bytes(val)  # TF <= 1.0: the file's bytes, as they are

    return _prepare_value


def install() -> Undo:
    """Text-mode reads of ``tf.gfile.GFile`` / ``FastGFile`` / ``tf.io.gfile.GFile`` return bytes where
    decoding fails (this process); returns the undo."""
    from tensorflow.python.lib.io import file_io

    original = file_io.FileIO.__dict__["_prepare_value"]
    file_io.FileIO._prepare_value = _bytes_when_not_text(original)

    def undo() -> None:
        file_io.FileIO._prepare_value = original
    return undo
