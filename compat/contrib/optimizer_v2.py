"""``tf.contrib.optimizer_v2``: the graph-mode optimizers of TF 1.x, whose ``tf.compat.v1.train`` forms take
the same arguments.
"""
from __future__ import annotations

from compat.contrib._forward import forwarding_getattr

#: TF 1.15 name -> where it lives today.
FORWARDS: dict[str, str] = {
    **{name: f"tensorflow.compat.v1.train.{name}" for name in (
        "AdadeltaOptimizer", "AdagradOptimizer", "AdamOptimizer", "GradientDescentOptimizer",
        "MomentumOptimizer", "RMSPropOptimizer")},
    "OptimizerV2": "tensorflow.compat.v1.train.Optimizer",
}

#: TF 1.15 names not provided, with what to use instead.
REFUSED: dict[str, str] = {

}

__getattr__ = forwarding_getattr("optimizer_v2", FORWARDS, REFUSED)
