"""``tf.contrib.proto``: protocol-buffer ops, which moved to ``tf.io``."""
from __future__ import annotations

from compat.contrib._forward import forwarding_getattr

#: TF 1.15 name -> where it lives today.
FORWARDS: dict[str, str] = {
    "decode_proto": "tensorflow.io.decode_proto",
    "encode_proto": "tensorflow.io.encode_proto",
}

#: TF 1.15 names not provided, with what to use instead.
REFUSED: dict[str, str] = {

}

__getattr__ = forwarding_getattr("proto", FORWARDS, REFUSED)
