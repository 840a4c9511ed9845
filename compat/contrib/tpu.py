"""``tf.contrib.tpu`` of TensorFlow 1.15, for scripts that run without a TPU (BERT-style ``use_tpu=False``).

``TPUEstimator``, ``TPUEstimatorSpec``, ``RunConfig``, ``TPUConfig`` and
``InputPipelineConfig`` are :mod:`compat.estimator.tpu`'s (``tensorflow-estimator``
2.15.0; ``TPUEstimator(use_tpu=True)`` runs on the CPU with a ``compat:`` note).
``CrossShardOptimizer`` is :class:`CrossShardOptimizer` below: on one CPU or
GPU replica the cross-shard mean of the gradients is the gradients themselves,
so it applies the wrapped optimizer's update unchanged (TensorFlow's own
builds a ``CrossReplicaSum`` op that has no CPU kernel). The graph-building
helpers of ``tf.compat.v1.tpu`` (``rewrite``, ``shard``, ``bfloat16_scope``, ...)
are TensorFlow's; they need a TPU to run. The rest is refused (:data:`REFUSED`).
"""
from __future__ import annotations

import importlib
from typing import Any

from compat.contrib import refusing_getattr

__all__ = ["REFUSED", "CrossShardOptimizer"]

#: TF 1.15 ``tf.contrib.tpu`` names served by :mod:`compat.estimator.tpu`.
_FROM_ESTIMATOR = ("TPUEstimator", "TPUEstimatorSpec", "RunConfig", "TPUConfig", "InputPipelineConfig")

#: TF 1.15 ``tf.contrib.tpu`` names that are TensorFlow 2.21's ``tf.compat.v1.tpu`` ones.
_FROM_V1_TPU = ("batch_parallel", "bfloat16_scope", "core", "cross_replica_sum", "initialize_system",
                "outside_compilation", "replicate", "rewrite", "shard", "shutdown_system")

REFUSED: dict[str, str] = {
    "AsyncCheckpointSaverHook": "tf.estimator.CheckpointSaverHook (asynchronous TPU checkpoints need a TPU)",
    "DeviceAssignment": "tf.tpu.experimental.DeviceAssignment (TPU only)",
    "InfeedQueue": "tf.data input pipelines (TPU infeed queues need a TPU)",
    "TPUDistributionStrategy": "tf.distribute.TPUStrategy (TPU only)",
    "TPUInMemoryEvalHook": "tf.estimator.experimental.InMemoryEvaluatorHook",
    "Topology": "tf.tpu.experimental.Topology (TPU only)",
    "device_assignment": "tf.tpu.experimental.DeviceAssignment.build (TPU only)",
    "export_estimator_savedmodel": "Estimator.export_saved_model",
    "infeed_dequeue": "tf.data (TPU infeed ops need a TPU)",
    "infeed_dequeue_tuple": "tf.data (TPU infeed ops need a TPU)",
    "infeed_enqueue": "tf.data (TPU infeed ops need a TPU)",
    "infeed_enqueue_tuple": "tf.data (TPU infeed ops need a TPU)",
    "keras_to_tpu_model": "tf.distribute.TPUStrategy with tf.keras",
    "outfeed_dequeue": "nothing (TPU outfeed ops need a TPU)",
    "outfeed_dequeue_tuple": "nothing (TPU outfeed ops need a TPU)",
    "outfeed_enqueue": "nothing (TPU outfeed ops need a TPU)",
    "outfeed_enqueue_tuple": "nothing (TPU outfeed ops need a TPU)",
    "profiler": "tf.profiler (the TPU profiler client is a separate tool)",
    "repeat": "tf.while_loop (TPU training loops need a TPU)",
    "while_loop": "tf.while_loop (TPU training loops need a TPU)",
}

_refuse = refusing_getattr("tpu", REFUSED)


def _optimizer_base() -> type:
    import tensorflow as tf
    return tf.compat.v1.train.Optimizer


class _LazyOptimizerMeta(type):
    """Builds :class:`CrossShardOptimizer` on TensorFlow's ``Optimizer`` the first time it is called."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        return _cross_shard_class()(*args, **kwargs)

    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, _cross_shard_class())


class CrossShardOptimizer(metaclass=_LazyOptimizerMeta):
    """``tf.contrib.tpu.CrossShardOptimizer(opt, reduction='mean', name='CrossShardOptimizer', group_assignment=None)``.

    A ``tf.compat.v1.train.Optimizer`` that delegates to ``opt``. With a single
    replica (CPU or GPU) the cross-shard ``mean`` of a gradient is that
    gradient and ``sum`` over one shard is the gradient too, so the update is
    exactly ``opt``'s. ``reduction`` must be ``'mean'`` or ``'sum'`` as in TF 1.15.
    """

    def __init__(self, opt: Any, reduction: str = "mean", name: str = "CrossShardOptimizer",
                 group_assignment: Any = None) -> None:  # pragma: no cover - replaced by the metaclass
        raise NotImplementedError


_CLASS: list[type] = []


def _cross_shard_class() -> type:
    if _CLASS:
        return _CLASS[0]
    base: Any = _optimizer_base()

    class CrossShardOptimizerOnOneReplica(base):
        __doc__ = CrossShardOptimizer.__doc__

        def __init__(self, opt: Any, reduction: str = "mean", name: str = "CrossShardOptimizer",
                     group_assignment: Any = None) -> None:
            if reduction not in ("mean", "sum"):
                raise ValueError(f"CrossShardOptimizer: reduction={reduction!r}; valid: 'mean' or 'sum'")
            super().__init__(use_locking=False, name=name)
            self._opt = opt
            self._reduction = reduction
            self._group_assignment = group_assignment

        def compute_gradients(self, loss: Any, var_list: Any = None, **kwargs: Any) -> Any:
            # One replica: the cross-replica reduction of each gradient is the gradient.
            return self._opt.compute_gradients(loss, var_list=var_list, **kwargs)

        def apply_gradients(self, grads_and_vars: Any, global_step: Any = None, name: str | None = None) -> Any:
            return self._opt.apply_gradients(grads_and_vars, global_step=global_step, name=name)

        def get_slot(self, *args: Any, **kwargs: Any) -> Any:
            return self._opt.get_slot(*args, **kwargs)

        def get_slot_names(self, *args: Any, **kwargs: Any) -> Any:
            return self._opt.get_slot_names(*args, **kwargs)

        def variables(self) -> Any:
            return self._opt.variables()

    CrossShardOptimizerOnOneReplica.__name__ = "CrossShardOptimizer"
    CrossShardOptimizerOnOneReplica.__qualname__ = "CrossShardOptimizer"
    _CLASS.append(CrossShardOptimizerOnOneReplica)
    return CrossShardOptimizerOnOneReplica


def __getattr__(name: str) -> Any:
    if name in _FROM_ESTIMATOR:
        return getattr(importlib.import_module("compat.estimator.tpu"), name)
    if name in _FROM_V1_TPU:
        import tensorflow as tf
        return getattr(tf.compat.v1.tpu, name)
    return _refuse(name)
