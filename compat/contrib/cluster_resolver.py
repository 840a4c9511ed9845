"""``tf.contrib.cluster_resolver``: cluster resolvers, which moved to ``tf.distribute.cluster_resolver``."""
from __future__ import annotations

from compat.contrib._forward import forwarding_getattr

#: TF 1.15 name -> where it lives today.
FORWARDS: dict[str, str] = {
    **{name: f"tensorflow.distribute.cluster_resolver.{name}" for name in (
        "ClusterResolver", "GCEClusterResolver", "KubernetesClusterResolver", "SimpleClusterResolver",
        "SlurmClusterResolver", "TFConfigClusterResolver", "TPUClusterResolver")},
    "UnionClusterResolver": "tensorflow.distribute.cluster_resolver.UnionResolver",
}

#: TF 1.15 names not provided, with what to use instead.
REFUSED: dict[str, str] = {

}

__getattr__ = forwarding_getattr("cluster_resolver", FORWARDS, REFUSED)
