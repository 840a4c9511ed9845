"""``tf.contrib.linalg`` (TF 1.1-1.12): the linear operators and matrix functions, now ``tf.linalg``.

Not among TF 1.15's contrib modules (it had become ``tf.linalg`` by then), but
2017-2018 code still imports it; every name ``tf.linalg`` has (``LinearOperatorDiag``,
``LinearOperatorFullMatrix``, ``LinearOperatorComposition``, ``logdet``, ...) is
forwarded.
"""
from __future__ import annotations

from typing import Any

from compat.contrib import refusing_getattr

REFUSED: dict[str, str] = {}

_refuse = refusing_getattr("linalg", REFUSED)


def __getattr__(name: str) -> Any:
    import tensorflow as tf

    if not name.startswith("__") and hasattr(tf.linalg, name):
        return getattr(tf.linalg, name)
    return _refuse(name)
