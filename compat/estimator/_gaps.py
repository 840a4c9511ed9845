"""What ``tensorflow-estimator`` 2.15.0 imports from TensorFlow that TensorFlow 2.21 no longer has.

``tensorflow-estimator`` 2.15.0, the last release, was written against
TensorFlow 2.15. On TensorFlow 2.21 its import stops at five places
(:data:`ESTIMATOR_GAPS`), all of them outside the single-process CPU/GPU paths
an old script uses:

* ``tensorflow.python.util.tf_export.ESTIMATOR_API_NAME`` and its two attribute
  tables entries: the export decorator that tags every public Estimator symbol;
* ``tensorflow.python.distribute.estimator_training``: the distribute
  coordinator (multi-worker ``train_distribute`` / ``experimental_distribute``);
  its one-machine ``init_run_config`` is :mod:`compat.estimator.distribute`'s;
* ``tensorflow.python.tpu.session_support``, ``tpu_embedding`` and
  ``tpu_embedding_gradient``: TPU worker watchdogs and TPU embeddings.

:func:`supply` puts the export tag back and stands in a module for each of the
four others whose every name raises :class:`compat.errors.LegacyAPIError` when
it is *used* (the names must exist for ``from ... import`` to succeed).
:func:`restore` takes all of it out again. Nothing happens at import of this
module; :mod:`compat.estimator` calls :func:`supply` on first use.
"""
from __future__ import annotations

import importlib
import sys
import threading
import types
from typing import Any

from compat.errors import LegacyAPIError
from compat.surfaces.modules import forget_module

__all__ = ["ESTIMATOR_GAPS", "restore", "supplied", "supply"]

#: The modules ``tensorflow_estimator`` imports that TensorFlow 2.21 lacks -> what is not provided with them.
ESTIMATOR_GAPS: dict[str, str] = {
    "tensorflow.python.distribute.estimator_training":
        "multi-worker distribution strategies with Estimator (TF_CONFIG clusters, the distribute coordinator; "
        "strategies on one machine run); train single-process, or move to tf.distribute with Keras",
    "tensorflow.python.tpu.session_support": "TPU worker watchdogs and graceful TPU shutdown (no TPU here)",
    "tensorflow.python.tpu.tpu_embedding":
        "TPU embeddings (TPUEstimator(embedding_config_spec=...)); use tf.feature_column embeddings on CPU/GPU",
    "tensorflow.python.tpu.tpu_embedding_gradient": "TPU embeddings (TPUEstimator(embedding_config_spec=...))",
}

_TF_EXPORT = "tensorflow.python.util.tf_export"
_API_NAME = "estimator"

_lock = threading.Lock()
# What supply() changed: module name -> module it put in sys.modules; None when not supplied.
_state: dict[str, Any] | None = None


def _refusing_class(module: str, name: str) -> type:
    """A class standing for ``module.name`` whose construction raises the module's refusal."""
    message = f"{module}.{name} is not provided by the compat runner: {ESTIMATOR_GAPS[module]}"

    def __init__(self: object, *args: object, **kwargs: object) -> None:
        raise LegacyAPIError(message)

    def __call__(self: object, *args: object, **kwargs: object) -> None:  # pragma: no cover - never built
        raise LegacyAPIError(message)

    return type(name, (), {"__init__": __init__, "__call__": __call__, "__module__": module, "__doc__": message})


def _stand_in(module: str) -> types.ModuleType:
    """A module whose every public name is a class (or constant) that raises when used."""
    stand_in = types.ModuleType(module, f"compat runner stand-in: {ESTIMATOR_GAPS[module]}")
    made: dict[str, Any] = {}

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if name not in made:
            made[name] = _refusing_class(module, name)
        return made[name]

    stand_in.__dict__["__getattr__"] = __getattr__
    # tensorflow_estimator reads only these as plain functions: whether to use the coordinator, and
    # RunConfig's set-up for a strategy, whose one-machine branch compat.estimator.distribute provides.
    if module.endswith("estimator_training"):
        from compat.estimator.distribute import init_run_config
        stand_in.__dict__.update(should_run_distribute_coordinator=_never_distribute,
                                 init_run_config=init_run_config)
    return stand_in


def _never_distribute(config: object) -> bool:
    """The distribute coordinator is never used: only single-process training is provided."""
    return False


def supplied() -> bool:
    """True while :func:`supply` is in effect."""
    return _state is not None


def supply() -> None:
    """Give TensorFlow the names ``tensorflow_estimator`` imports (idempotent, thread-safe).

    Imports TensorFlow. Raises ``ImportError`` only if TensorFlow itself is missing.
    """
    global _state
    with _lock:
        if _state is not None:
            return
        tf_export = importlib.import_module(_TF_EXPORT)
        state: dict[str, Any] = {"modules": {}, "export": {}}
        if not hasattr(tf_export, "ESTIMATOR_API_NAME"):
            attributes = tf_export._Attributes  # the NamedTuple TensorFlow's own tags use
            tf_export.__dict__["ESTIMATOR_API_NAME"] = _API_NAME
            tf_export.API_ATTRS[_API_NAME] = attributes("_estimator_api_names", "_estimator_api_constants")
            tf_export.API_ATTRS_V1[_API_NAME] = attributes("_estimator_api_names_v1", "_estimator_api_constants_v1")
            state["export"] = {"added": True}
        for module in ESTIMATOR_GAPS:
            if module in sys.modules:
                continue
            try:
                importlib.import_module(module)
                continue  # a TensorFlow that still has it: use the real one
            except ImportError:
                pass
            stand_in = _stand_in(module)
            sys.modules[module] = stand_in
            parent, _, child = module.rpartition(".")
            setattr(sys.modules[parent], child, stand_in)
            state["modules"][module] = stand_in
        _state = state


def restore() -> None:
    """Undo :func:`supply`: remove the stand-in modules and the export tag (no-op if not supplied)."""
    global _state
    with _lock:
        if _state is None:
            return
        for module, stand_in in _state["modules"].items():
            forget_module(module, stand_in)
        if _state["export"]:
            tf_export = sys.modules[_TF_EXPORT]
            tf_export.__dict__.pop("ESTIMATOR_API_NAME", None)
            tf_export.API_ATTRS.pop(_API_NAME, None)
            tf_export.API_ATTRS_V1.pop(_API_NAME, None)
        _state = None
