"""``tf.contrib.testing``: summary-testing helpers."""
from __future__ import annotations

from compat.contrib._forward import forwarding_getattr

#: TF 1.15 name -> where it lives today.
FORWARDS: dict[str, str] = {
    "summary_pb2": "tensorflow.core.framework.summary_pb2",
}

#: TF 1.15 names not provided, with what to use instead.
REFUSED: dict[str, str] = {
    "FakeSummaryWriter": "tf.compat.v1.summary.FileWriter on a temporary directory, read back with "
                         "tf.compat.v1.train.summary_iterator",
}

__getattr__ = forwarding_getattr("testing", FORWARDS, REFUSED)
