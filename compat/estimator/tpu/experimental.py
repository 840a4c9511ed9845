"""``tf.estimator.tpu.experimental`` of TensorFlow 1.15, forwarded to ``tensorflow-estimator`` 2.15.0."""
from __future__ import annotations

from compat.estimator._forward import forwarding

__getattr__, __dir__ = forwarding("tf.estimator.tpu.experimental", "tpu.experimental")
