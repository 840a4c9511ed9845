"""``tf.contrib.batching``: the batching decorator, which moved to ``tf.compat.v1.nondifferentiable_batch_function``."""
from __future__ import annotations

from compat.contrib._forward import forwarding_getattr

#: TF 1.15 name -> where it lives today.
FORWARDS: dict[str, str] = {
    "batch_function": "tensorflow.compat.v1.nondifferentiable_batch_function",
    "batch_function_v1": "tensorflow.compat.v1.nondifferentiable_batch_function",
}

#: TF 1.15 names not provided, with what to use instead.
REFUSED: dict[str, str] = {

}

__getattr__ = forwarding_getattr("batching", FORWARDS, REFUSED)
