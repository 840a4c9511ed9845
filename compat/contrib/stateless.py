"""``tf.contrib.stateless``: seeded random ops, which moved to ``tf.random.stateless_*``."""
from __future__ import annotations

from compat.contrib._forward import forwarding_getattr

#: TF 1.15 name -> where it lives today.
FORWARDS: dict[str, str] = {
    "stateless_multinomial": "tensorflow.compat.v1.random.stateless_multinomial",
    "stateless_random_normal": "tensorflow.random.stateless_normal",
    "stateless_random_uniform": "tensorflow.random.stateless_uniform",
    "stateless_truncated_normal": "tensorflow.random.stateless_truncated_normal",
}

#: TF 1.15 names not provided, with what to use instead.
REFUSED: dict[str, str] = {

}

__getattr__ = forwarding_getattr("stateless", FORWARDS, REFUSED)
