"""``tf.contrib.linalg`` (TF 1.1-1.12): the linear operators and matrix functions, now ``tf.linalg``.

Not among TF 1.15's contrib modules (it had become ``tf.linalg`` by then), but
2017-2018 code still imports it; every name ``tf.linalg`` has (``LinearOperatorDiag``,
``LinearOperatorFullMatrix``, ``LinearOperatorComposition``, ``logdet``, ...) is
forwarded, and the operators' TF 1.1-1.4 names (``LinearOperatorTriL``, ``LinearOperatorMatrix``,
``LinearOperatorUDVHUpdate``) give their successors.
"""
from __future__ import annotations

from typing import Any

from compat.contrib import refusing_getattr

REFUSED: dict[str, str] = {}

#: The operators' names of TF 1.1-1.4, renamed before they reached ``tf.linalg``:
#: Kyubyong's transformer masked attention with ``LinearOperatorTriL(ones).to_dense()``.
RENAMED: dict[str, str] = {
    "LinearOperatorTriL": "LinearOperatorLowerTriangular",
    "LinearOperatorMatrix": "LinearOperatorFullMatrix",
}

_refuse = refusing_getattr("linalg", REFUSED)


def LinearOperatorUDVHUpdate(base_operator: Any, u: Any, diag: Any = None, v: Any = None,  # noqa: N802 - TF 1.x's name
                             is_diag_positive: bool | None = None, **kwargs: Any) -> Any:
    """TF 1.1-1.4's ``LinearOperatorUDVHUpdate`` (``base_operator + u @ diag(diag) @ v^H``).

    Now ``tf.linalg.LinearOperatorLowRankUpdate``.

    TF 1.1-1.2 named the perturbation ``diag`` / ``is_diag_positive``; TF 1.3-1.4 already
    ``diag_update`` / ``is_diag_update_positive``, which pass through in ``kwargs``.
    """
    import tensorflow as tf

    if diag is not None:
        kwargs["diag_update"] = diag
    if is_diag_positive is not None:
        kwargs["is_diag_update_positive"] = is_diag_positive
    kwargs.setdefault("name", "LinearOperatorUDVHUpdate")
    return tf.linalg.LinearOperatorLowRankUpdate(base_operator, u, v=v, **kwargs)


def __getattr__(name: str) -> Any:
    import tensorflow as tf

    name = RENAMED.get(name, name)
    if not name.startswith("__") and hasattr(tf.linalg, name):
        return getattr(tf.linalg, name)
    return _refuse(name)
