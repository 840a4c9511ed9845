"""``tf.contrib.quantization``: quantize / dequantize ops, which moved to ``tf.quantization``."""
from __future__ import annotations

from compat.contrib._forward import forwarding_getattr

#: TF 1.15 name -> where it lives today.
FORWARDS: dict[str, str] = {
    "dequantize": "tensorflow.quantization.dequantize",
    "quantize_v2": "tensorflow.compat.v1.quantize_v2",
    "quantized_concat": "tensorflow.quantization.quantized_concat",
    "gen_math_ops": "tensorflow.python.ops.gen_math_ops",
    "gen_nn_ops": "tensorflow.python.ops.gen_nn_ops",
    "quantized_array_ops": "tensorflow.python.ops.gen_array_ops",
    "quantized_gen_array_ops": "tensorflow.python.ops.gen_array_ops",
}

#: TF 1.15 names not provided, with what to use instead.
REFUSED: dict[str, str] = {}

__getattr__ = forwarding_getattr("quantization", FORWARDS, REFUSED)
