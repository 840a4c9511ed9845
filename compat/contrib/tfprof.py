"""``tf.contrib.tfprof``: the profiler, now ``tf.compat.v1.profiler``."""
from __future__ import annotations

from compat.contrib._forward import forwarding_getattr

#: TF 1.15 name -> where it lives today.
FORWARDS: dict[str, str] = {
    "model_analyzer": "tensorflow.python.profiler.model_analyzer",
    "tfprof_logger": "tensorflow.python.profiler.tfprof_logger",
}

#: TF 1.15 names not provided, with what to use instead.
REFUSED: dict[str, str] = {
    "ProfileContext": "tf.compat.v1.profiler.profile with run_metadata from session.run, or tf.profiler.experimental",
}

__getattr__ = forwarding_getattr("tfprof", FORWARDS, REFUSED)
