"""``tf.contrib.compiler``: XLA scopes, which moved to ``tf.xla.experimental``
(``jit.experimental_jit_scope``, ``xla.compile``).
"""
from __future__ import annotations

from compat.contrib._forward import forwarding_getattr

#: TF 1.15 name -> where it lives today.
FORWARDS: dict[str, str] = {
    "jit": "tensorflow.python.compiler.xla.jit",
    "xla": "tensorflow.python.compiler.xla.xla",
}

#: TF 1.15 names not provided, with what to use instead.
REFUSED: dict[str, str] = {

}

__getattr__ = forwarding_getattr("compiler", FORWARDS, REFUSED)
