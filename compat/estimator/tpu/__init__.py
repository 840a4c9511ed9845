"""``tf.estimator.tpu`` of TensorFlow 1.15: ``TPUEstimator`` and its configs, run on the CPU (or a GPU).

``TPUConfig``, ``RunConfig``, ``InputPipelineConfig``, ``TPUEstimatorSpec`` and
``experimental`` are ``tensorflow-estimator`` 2.15.0's own. ``TPUEstimator`` is
that package's class with one change: there is no TPU on the machines the
runner targets, so ``use_tpu=True`` is turned into ``use_tpu=False`` with a
``compat:`` note on stderr. With ``use_tpu=False`` the package's
``TPUEstimator`` is a plain Estimator: ``params['batch_size']`` is the
``train_batch_size`` / ``eval_batch_size`` / ``predict_batch_size`` of the
current mode, and ``TPUEstimatorSpec`` (``scaffold_fn``, ``eval_metrics``,
``host_call``) is converted to an ``EstimatorSpec``.
"""
from __future__ import annotations

import functools
import sys
from typing import Any

from compat.estimator._forward import api_module, forwarding

__all__ = ["TPU_NOTE", "tpu_estimator_class"]

#: The note printed when a script asks for a TPU.
TPU_NOTE = ("compat: TPUEstimator(use_tpu=True) asked for a TPU; there is none here, so it runs as an "
            "Estimator on the CPU (or GPU) with use_tpu=False")


@functools.cache
def tpu_estimator_class() -> type:
    """``TPUEstimator``: ``tensorflow-estimator``'s, with ``use_tpu=True`` run on the CPU (built on first use)."""
    base: Any = api_module("tpu").TPUEstimator

    class TPUEstimator(base):
        __doc__ = base.__doc__

        def __init__(self, model_fn: Any = None, model_dir: str | None = None, config: Any = None,
                     params: dict[str, Any] | None = None, use_tpu: bool = True,
                     train_batch_size: int | None = None, eval_batch_size: int | None = None,
                     predict_batch_size: int | None = None, batch_axis: Any = None, eval_on_tpu: bool = True,
                     export_to_tpu: bool = True, export_to_cpu: bool = True, warm_start_from: Any = None,
                     embedding_config_spec: Any = None, export_saved_model_api_version: Any = None) -> None:
            if use_tpu:
                print(TPU_NOTE, file=sys.stderr)
            extra = ({} if export_saved_model_api_version is None
                     else {"export_saved_model_api_version": export_saved_model_api_version})
            # On the CPU the evaluation cannot be on a TPU either; the package warns otherwise.
            super().__init__(model_fn=model_fn, model_dir=model_dir, config=config, params=params, use_tpu=False,
                             train_batch_size=train_batch_size, eval_batch_size=eval_batch_size,
                             predict_batch_size=predict_batch_size, batch_axis=batch_axis, eval_on_tpu=False,
                             export_to_tpu=False, export_to_cpu=export_to_cpu, warm_start_from=warm_start_from,
                             embedding_config_spec=embedding_config_spec, **extra)

    TPUEstimator.__module__ = __name__
    TPUEstimator.__qualname__ = "TPUEstimator"
    return TPUEstimator


_forward_getattr, __dir__ = forwarding("tf.estimator.tpu", "tpu", own_submodules=("experimental",))


def __getattr__(name: str) -> Any:
    if name == "TPUEstimator":
        return tpu_estimator_class()
    return _forward_getattr(name)
