"""``tf.contrib.distribute``: distribution strategies, which moved to ``tf.distribute``."""
from __future__ import annotations

from compat.contrib._forward import forwarding_getattr

#: TF 1.15 name -> where it lives today.
FORWARDS: dict[str, str] = {
    **{name: f"tensorflow.distribute.{name}" for name in (
        "CrossDeviceOps", "MirroredStrategy", "OneDeviceStrategy",
        "ReplicaContext", "TPUStrategy", "get_replica_context", "get_strategy", "has_strategy",
        "in_cross_replica_context")},
    "ReductionToOneDeviceCrossDeviceOps": "tensorflow.distribute.ReductionToOneDevice",
    "AllReduceCrossDeviceOps": "tensorflow.distribute.HierarchicalCopyAllReduce",
    "CollectiveAllReduceStrategy": "tensorflow.distribute.MultiWorkerMirroredStrategy",
    "ParameterServerStrategy": "tensorflow.compat.v1.distribute.experimental.ParameterServerStrategy",
    "DistributionStrategy": "tensorflow.compat.v1.distribute.Strategy",
    "DistributionStrategyExtended": "tensorflow.compat.v1.distribute.StrategyExtended",
    "get_distribution_strategy": "tensorflow.distribute.get_strategy",
    "has_distribution_strategy": "tensorflow.distribute.has_strategy",
    "get_cross_replica_context": "tensorflow.python.distribute.distribute_lib.get_cross_replica_context",
    "get_loss_reduction": "tensorflow.compat.v1.distribute.get_loss_reduction",
    "require_replica_context": "tensorflow.python.distribute.distribute_lib.require_replica_context",
    "UpdateContext": "tensorflow.python.distribute.distribute_lib.UpdateContext",
    "initialize_tpu_system": "tensorflow.tpu.experimental.initialize_tpu_system",
    "run_standard_tensorflow_server":
        "tensorflow.python.distribute.distribute_coordinator.run_standard_tensorflow_server",
}

#: TF 1.15 names not provided, with what to use instead.
REFUSED: dict[str, str] = {
    "DistributeConfig": "tf.distribute strategies passed to tf.keras Model.fit or a custom loop "
                        "(tf.estimator was removed)",
    "Monitor": "a custom training loop with strategy.run (the Step/Monitor API was never stable)",
    "MultiWorkerAllReduce": "tf.distribute.NcclAllReduce or tf.distribute.HierarchicalCopyAllReduce",
    "StandardInputStep": "a custom training loop with strategy.run",
    "StandardSingleLossStep": "a custom training loop with strategy.run",
    "Step": "a custom training loop with strategy.run",
}

__getattr__ = forwarding_getattr("distribute", FORWARDS, REFUSED)
