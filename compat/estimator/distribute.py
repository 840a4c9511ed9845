"""``RunConfig(train_distribute=..., eval_distribute=...)`` on one machine, as TF 1.x ran it.

``tensorflow-estimator`` hands a ``RunConfig`` that names a distribution strategy
to ``tensorflow.python.distribute.estimator_training.init_run_config``, a
module TensorFlow 2.21 no longer has (:mod:`compat.estimator._gaps` stands in
for it). :func:`init_run_config` is TF 1.15's local branch of that function,
written from its rules: take ``experimental_distribute``'s strategies, and
when there is no cluster (no ``TF_CONFIG`` cluster, or one with a ``master``
job) use no distribute coordinator, so that ``Estimator.train`` / ``evaluate``
run the package's own in-graph strategy path (``_actual_train_model_distributed``)
in this process. That path works on TensorFlow 2.21 in graph mode with
``OneDeviceStrategy`` and ``MirroredStrategy`` over the local devices: the same
steps, checkpoints, metrics and exports as without the strategy. A
multi-worker cluster or ``experimental_distribute.remote_cluster`` needs the
distribute coordinator, which is gone, and is refused with
:class:`compat.errors.LegacyAPIError`.
"""
from __future__ import annotations

from typing import Any

from compat.errors import LegacyAPIError

__all__ = ["MULTI_WORKER_REFUSAL", "init_run_config"]

MULTI_WORKER_REFUSAL = (
    "multi-worker Estimator training (a TF_CONFIG cluster without a master job, or "
    "experimental_distribute.remote_cluster) needs TensorFlow 1.x's distribute coordinator, which TensorFlow "
    "2.21 no longer has; the compat runner runs Estimator strategies on one machine only "
    "(OneDeviceStrategy, MirroredStrategy over local devices): train single-process, or move to "
    "tf.distribute.MultiWorkerMirroredStrategy with Keras")


def _take_experimental(config: Any, field: str) -> None:
    """``experimental_distribute.<field>`` becomes ``config._<field>`` (TF 1.15: not both)."""
    experimental = config._experimental_distribute
    chosen = getattr(experimental, field, None) if experimental is not None else None
    if chosen is None:
        return
    if getattr(config, f"_{field}") is not None:
        raise ValueError(f"RunConfig: give {field}= or experimental_distribute.{field}, not both")
    setattr(config, f"_{field}", chosen)


def _cluster_jobs(tf_config: dict[str, Any]) -> set[str]:
    cluster = tf_config.get("cluster") or {}
    return set(cluster) if isinstance(cluster, dict) else set()


def init_run_config(config: Any, tf_config: dict[str, Any]) -> None:
    """Set up ``config`` (a ``tf.estimator.RunConfig`` being built) for a strategy on this machine.

    Args:
        config: the RunConfig; its private fields are the package's own.
        tf_config: the parsed ``TF_CONFIG`` environment variable (``{}`` when unset).

    Raises:
        LegacyAPIError: a multi-worker setting (see :data:`MULTI_WORKER_REFUSAL`).
        ValueError: a strategy given both directly and through ``experimental_distribute``.
    """
    _take_experimental(config, "train_distribute")
    _take_experimental(config, "eval_distribute")
    experimental = config._experimental_distribute
    jobs = _cluster_jobs(tf_config)
    remote = experimental is not None and getattr(experimental, "remote_cluster", None)
    if (config._train_distribute is not None and remote) or (
            tf_config and jobs and "master" not in jobs and config._train_distribute is not None):
        raise LegacyAPIError(f"RunConfig(train_distribute=...): {MULTI_WORKER_REFUSAL}")
    config._init_distributed_setting_from_environment_var({})
    config._distribute_coordinator_mode = None  # no coordinator: the Estimator's in-process path
    config._init_distributed_setting_from_environment_var(tf_config)
    config._maybe_overwrite_session_config_for_distributed_training()
