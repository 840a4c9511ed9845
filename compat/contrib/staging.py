"""``tf.contrib.staging``: ``StagingArea``, which TensorFlow still has in ``data_flow_ops``."""
from __future__ import annotations

from compat.contrib._forward import forwarding_getattr

#: TF 1.15 name -> where it lives today.
FORWARDS: dict[str, str] = {
    "StagingArea": "tensorflow.python.ops.data_flow_ops.StagingArea",
}

#: TF 1.15 names not provided, with what to use instead.
REFUSED: dict[str, str] = {

}

__getattr__ = forwarding_getattr("staging", FORWARDS, REFUSED)
