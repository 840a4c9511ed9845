"""``tf.contrib.distribute``: distribution strategies, which moved to ``tf.distribute``.

``MirroredStrategy`` keeps TF 1.x contrib's constructor (``num_gpus=``,
``num_gpus_per_worker=``, ``cross_tower_ops=``), which today's refuses: it is a
subclass of ``tf.compat.v1.distribute.MirroredStrategy`` (:func:`contrib_mirrored_strategy`).
``AllReduceCrossDeviceOps`` keeps its ``all_reduce_alg`` argument
(:func:`all_reduce_cross_device_ops`), and TF 1.9-1.10's ``*CrossTowerOps`` spellings resolve;
``DistributeConfig`` is TF 1.x's tuple for ``RunConfig(experimental_distribute=...)``.
"""
from __future__ import annotations

import functools
import sys
from typing import Any, NamedTuple

from compat.contrib._forward import forwarding_getattr

#: TF 1.15 name -> where it lives today.
FORWARDS: dict[str, str] = {
    **{name: f"tensorflow.distribute.{name}" for name in (
        "CrossDeviceOps", "OneDeviceStrategy",
        "ReplicaContext", "TPUStrategy", "get_replica_context", "get_strategy", "has_strategy",
        "in_cross_replica_context")},
    "ReductionToOneDeviceCrossDeviceOps": "tensorflow.distribute.ReductionToOneDevice",
    # TF 1.9-1.10's spellings (tensorflow/models' official/ of 2018 passes them to MirroredStrategy).
    "ReductionToOneDeviceCrossTowerOps": "tensorflow.distribute.ReductionToOneDevice",
    "CrossTowerOps": "tensorflow.distribute.CrossDeviceOps",
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
    "Monitor": "a custom training loop with strategy.run (the Step/Monitor API was never stable)",
    "MultiWorkerAllReduce": "tf.distribute.NcclAllReduce or tf.distribute.HierarchicalCopyAllReduce",
    "StandardInputStep": "a custom training loop with strategy.run",
    "StandardSingleLossStep": "a custom training loop with strategy.run",
    "Step": "a custom training loop with strategy.run",
}

_forward = forwarding_getattr("distribute", FORWARDS, REFUSED)


class DistributeConfig(NamedTuple):
    """TF 1.10-1.15's ``RunConfig(experimental_distribute=...)``: strategies for training and evaluation.

    A ``remote_cluster`` (standalone-client training on a cluster) is refused by
    ``RunConfig`` (:mod:`compat.estimator.distribute`); the strategies run on this machine.
    """

    train_distribute: Any = None
    eval_distribute: Any = None
    remote_cluster: Any = None


def _devices_for(gpus: int) -> list[str]:
    """TF 1.x contrib's devices for ``num_gpus=gpus``: the CPU for 0, else GPUs 0..gpus-1.

    With fewer GPUs than asked for (none, on a CPU machine), the ones there are, or the
    CPU, with a ``compat:`` note on stderr: TF 1.x would have failed to place the replicas.
    """
    import tensorflow as tf
    if gpus == 0:
        return ["/device:CPU:0"]
    present = len(tf.config.list_physical_devices("GPU"))
    if gpus <= present:
        return [f"/device:GPU:{i}" for i in range(gpus)]
    chosen = [f"/device:GPU:{i}" for i in range(present)] or ["/device:CPU:0"]
    print(f"compat: MirroredStrategy(num_gpus={gpus}) on a machine with {present} GPU(s): one replica per "
          f"device of {chosen} instead", file=sys.stderr)
    return chosen


@functools.cache
def contrib_mirrored_strategy() -> type:
    """``tf.contrib.distribute.MirroredStrategy`` with TF 1.12-1.15 contrib's arguments (built on first use)."""
    import tensorflow as tf

    base = tf.compat.v1.distribute.MirroredStrategy

    class MirroredStrategy(base):  # type: ignore[misc, valid-type]
        """TF 1.x contrib's ``MirroredStrategy``: ``devices`` or ``num_gpus`` (per worker) replicas."""

        def __init__(self, devices: Any = None, num_gpus: int | None = None, num_gpus_per_worker: int | None = None,
                     cross_device_ops: Any = None, auto_shard_dataset: bool = False,
                     cross_tower_ops: Any = None) -> None:
            if num_gpus is not None and num_gpus_per_worker is not None:
                raise ValueError(f"MirroredStrategy: give num_gpus ({num_gpus}) or num_gpus_per_worker "
                                 f"({num_gpus_per_worker}), not both")
            if cross_device_ops is not None and cross_tower_ops is not None:
                raise ValueError("MirroredStrategy: give cross_device_ops or cross_tower_ops, not both")
            gpus = num_gpus if num_gpus is not None else num_gpus_per_worker
            if devices is None and gpus is not None:
                devices = _devices_for(gpus)
            # auto_shard_dataset sharded input across workers: one worker here, nothing to shard.
            super().__init__(devices=devices, cross_device_ops=cross_device_ops or cross_tower_ops)

    return MirroredStrategy


def all_reduce_cross_device_ops(all_reduce_alg: str = "nccl", num_packs: int = 1, agg_small_grads_max_bytes: int = 0,
                                agg_small_grads_max_group: int = 10) -> Any:
    """TF 1.9-1.15 contrib's ``AllReduceCrossDeviceOps`` (``AllReduceCrossTowerOps`` before 1.11).

    ``"nccl"`` is ``tf.distribute.NcclAllReduce``, ``"hierarchical_copy"`` is
    ``tf.distribute.HierarchicalCopyAllReduce``, each with ``num_packs``; the
    small-gradient aggregation settings only grouped tensors for transfer (the sums
    are the same) and have no successor, so they are accepted and not used.

    Raises:
        ValueError: another algorithm, naming the two TF 1.x accepted.
    """
    import tensorflow as tf
    choices = {"nccl": tf.distribute.NcclAllReduce, "hierarchical_copy": tf.distribute.HierarchicalCopyAllReduce}
    if all_reduce_alg not in choices:
        raise ValueError(f"AllReduceCrossDeviceOps: all_reduce_alg {all_reduce_alg!r} is not one of 'nccl', "
                         "'hierarchical_copy'")
    return choices[all_reduce_alg](num_packs=num_packs)


def __getattr__(name: str) -> Any:
    if name == "MirroredStrategy":
        return contrib_mirrored_strategy()
    if name in ("AllReduceCrossDeviceOps", "AllReduceCrossTowerOps"):
        return all_reduce_cross_device_ops
    return _forward(name)
