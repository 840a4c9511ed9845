"""TensorFlow 1.15 names today's ``tf.compat.v1`` lacks: each served, or refused with its replacement.

TensorFlow 1.15's API (its v1 API goldens) lists names that TF 2.21's
``tf.compat.v1`` no longer has. This module is the one place for them:

* :data:`PROVIDED`: ``tf.<path>`` -> a factory building what the runner serves
  (written here, on today's API);
* :data:`REFUSED`: ``tf.<path>`` -> why nothing can serve it and what to use;
* :data:`compat.tf1.signatures.KEYWORD_ADAPTERS`: functions whose TF 1.15
  keyword names changed, served wrapped;
* :data:`MEMBER_PATCHES`: methods and properties TF 1.15's classes had and
  today's lack (``Layer.apply``, ``Strategy.experimental_run_v2``, ...), added
  to today's classes, only by the runner and only when the script first
  touches the top-level name they live under (``tf.keras``, ``tf.data``, ...).

The TF1 namespace (:mod:`compat.tf1.namespace`) asks :func:`serves` /
:func:`serve` for top-level names and :func:`extend_overlay` for the overlay
modules it already builds; below the top level, :func:`overlay` modules look
names up here first and forward the rest to ``tf.compat.v1``. ``compat
check`` asks :func:`classify`. Nothing is built before a script touches it,
so the runner's start-up does not pay for any of it.

To add one TF 1.15 name: one row in :data:`PROVIDED` (with its implementation
in :mod:`compat.tf1.missing_impl`) or in :data:`REFUSED`.
"""
from __future__ import annotations

import functools
import types
from collections.abc import Callable, Sequence
from typing import Any

from compat.errors import LegacyAPIError
from compat.surfaces.modules import new_module
from compat.tf1 import missing_impl as impl
from compat.tf1 import signatures

__all__ = ["MEMBER_PATCHES", "PROVIDED", "REFUSED", "classify", "extend_overlay", "overlay", "serve", "serves"]

_TPU_EMBEDDING_DEBUG = [f"raw_ops.{kind}TPUEmbedding{opt}ParametersGradAccumDebug"
                        for kind in ("Load", "Retrieve")
                        for opt in ("ADAM", "Adadelta", "Adagrad", "FTRL", "Momentum", "ProximalAdagrad", "RMSProp")]

#: ``tf.<path>`` -> (factory of the served object, what it is).
PROVIDED: dict[str, tuple[Callable[[], Any], str]] = {
    "config.experimental_list_devices": (lambda: impl.experimental_list_devices,
                                         "the names of the logical devices (tf.config.list_logical_devices)"),
    "data.experimental.MapVectorizationOptions": (lambda: impl.MapVectorizationOptions,
                                                  "accepted; map vectorization was removed, results are the same"),
    "data.experimental.StatsOptions": (lambda: impl.StatsOptions,
                                       "accepted; tf.data statistics were removed in TF 2.9, nothing is recorded"),
    "data.experimental.StatsAggregator": (lambda: impl.StatsAggregator,
                                          "get_summary() gives an empty summary: statistics are not recorded"),
    "data.experimental.latency_stats": (lambda: impl.latency_stats, "an identity transformation"),
    "data.experimental.bytes_produced_stats": (lambda: impl.bytes_produced_stats, "an identity transformation"),
    "keras.experimental.LinearCosineDecay": (lambda: impl.linear_cosine_decay_class(),
                                             "a schedule computing tf.compat.v1.train.linear_cosine_decay"),
    "keras.experimental.NoisyLinearCosineDecay": (lambda: impl.noisy_linear_cosine_decay_class(),
                                                  "a schedule computing tf.compat.v1.train.noisy_linear_cosine_decay"),
    "keras.experimental.terminate_keras_multiprocessing_pools": (
        lambda: impl.terminate_keras_multiprocessing_pools, "does nothing: today's Keras keeps no worker pools"),
    "keras.mixed_precision.experimental.Policy": (lambda: impl.policy_class(),
                                                  "tf.keras.mixed_precision.Policy with TF 1.15's members"),
    "keras.mixed_precision.experimental.global_policy": (lambda: impl.keras_mixed_precision().global_policy,
                                                         "tf.keras.mixed_precision.global_policy"),
    "keras.mixed_precision.experimental.set_policy": (lambda: impl.keras_mixed_precision().set_global_policy,
                                                      "tf.keras.mixed_precision.set_global_policy"),
    "keras.mixed_precision.experimental.LossScaleOptimizer": (
        lambda: impl.loss_scale_optimizer_class(), "tf.keras.mixed_precision.LossScaleOptimizer with "
                                                   "TF 1.15's (opt, loss_scale) arguments"),
    "keras.utils.GeneratorEnqueuer": (lambda: impl.generator_enqueuer_class(),
                                      "tf.keras.utils.GeneratorEnqueuer also taking sequence="),
    "raw_ops.CompareAndBitpack": (lambda: impl.compare_and_bitpack,
                                  "written on today's ops: compare, then pack 8 booleans a byte"),
    "pywrap_tensorflow": (lambda: impl.pywrap_tensorflow_module(LegacyAPIError),
                          "NewCheckpointReader (tf.compat.v1.train.NewCheckpointReader)"),
}

#: ``tf.<path>`` -> the message: why it cannot be served, and what to use instead.
REFUSED: dict[str, str] = {
    "ctc_loss_v2": "the cuDNN-only CTCLossV2 op of TF 1.15 was removed; use tf.nn.ctc_loss(labels, logits, "
                   "label_length, logit_length, blank_index=0)",
    "data.experimental.CheckpointInputPipelineHook": (
        "an Estimator hook (TensorFlow 2.16 removed Estimator hooks); use "
        "tf.train.Checkpoint(iterator=iterator) to save the iterator"),
    "keras.experimental.PeepholeLSTMCell": "removed from Keras; use tf.compat.v1.nn.rnn_cell.LSTMCell(num_units, "
                                           "use_peepholes=True)",
    "keras.experimental.export_saved_model": "removed from Keras; use model.save(path, save_format='tf')",
    "keras.experimental.load_from_saved_model": "removed from Keras; use tf.keras.models.load_model(path)",
    "keras.utils.HDF5Matrix": "removed from Keras; use h5py to read the file and tf.data to feed it",
    "keras.utils.convert_all_kernels_in_model": "removed from Keras (it flipped Theano kernels); "
                                                "use the weights as they are (TensorFlow kernels need no flip)",
    "keras.utils.multi_gpu_model": "removed from Keras; use tf.distribute.MirroredStrategy() and "
                                   "build the model inside its scope()",
    "keras.wrappers": "removed from Keras; use the scikeras package (scikeras.wrappers.KerasClassifier)",
    "lite.experimental.get_potentially_supported_ops": "removed from TensorFlow Lite; use "
                                                       "tf.lite.TFLiteConverter and read its error report",
    "lite.experimental.nn": "removed from TensorFlow Lite; use tf.keras.layers.LSTM / SimpleRNN and "
                            "tf.lite.TFLiteConverter",
    "tpu.experimental.AdagradParameters": "use tf.tpu.experimental.embedding.Adagrad",
    "tpu.experimental.AdamParameters": "use tf.tpu.experimental.embedding.Adam",
    "tpu.experimental.StochasticGradientDescentParameters": "use tf.tpu.experimental.embedding.SGD",
    "train.experimental.auto_mixed_precision_scope": (
        "removed with the mixed-precision graph rewrite; use tf.keras.mixed_precision.set_global_policy"
        "('mixed_float16')"),
    **{name: ("a TPU-embedding debug op removed from TensorFlow; use "
                   "tf.tpu.experimental.embedding.TPUEmbedding (TPUs only)")
       for name in _TPU_EMBEDDING_DEBUG},
}

#: Top-level name -> the function adding TF 1.15's members to today's classes below it.
MEMBER_PATCHES: dict[str, Callable[[], None]] = {
    "keras": impl.patch_keras,
    "data": impl.patch_data,
    "distribute": impl.patch_distribute,
    "train": impl.patch_train,
    "Operation": impl.patch_operation,
}


def _all_paths() -> set[str]:
    return set(PROVIDED) | set(REFUSED) | set(signatures.KEYWORD_ADAPTERS)


@functools.cache
def _prefixes() -> frozenset[str]:
    """Every module path above a table entry (``"keras"``, ``"keras.experimental"``, ...)."""
    found: set[str] = set()
    for path in _all_paths():
        parts = path.split(".")
        found.update(".".join(parts[:n]) for n in range(1, len(parts)))
    return frozenset(found)


def refusal(path: str) -> str:
    """The ``compat:`` message for a refused ``tf.<path>``."""
    return f"compat: tf.{path} (TensorFlow 1.15) is not provided: {REFUSED[path]}"


@functools.cache
def _patch(top: str) -> None:
    MEMBER_PATCHES[top]()


def _resolve(path: str, fallback: Callable[[], Any]) -> Any:
    """What ``tf.<path>`` is under the runner; ``fallback()`` gives today's ``tf.compat.v1`` object."""
    top = path.split(".", 1)[0]
    if top in MEMBER_PATCHES:
        _patch(top)
    if path in REFUSED:
        raise LegacyAPIError(refusal(path))
    if path in PROVIDED:
        return PROVIDED[path][0]()
    if path in signatures.KEYWORD_ADAPTERS:
        return signatures.adapt(path, fallback())
    if path in _prefixes():
        return overlay(path, fallback)
    return fallback()


def serves(name: str) -> bool:
    """True if the top-level ``tf.<name>`` goes through this module."""
    return name in _prefixes() or name in MEMBER_PATCHES or name in _all_paths()


@functools.cache
def serve(v1: Any, name: str) -> Any:
    """The top-level ``tf.<name>`` for a name :func:`serves` says is ours (built once)."""
    return _resolve(name, lambda: getattr(v1, name))


#: Module dunders scripts read (``tf.keras.__version__``), taken from the module an overlay stands for.
_FORWARDED_DUNDERS = frozenset({"__version__", "__all__"})


def overlay(prefix: str, base: Callable[[], Any]) -> types.ModuleType:
    """A module ``tensorflow.<prefix>`` with this module's names under it, forwarding the rest to ``base()``.

    ``base`` is called on first use, so building the overlay imports nothing.
    """
    module = new_module(f"tensorflow.{prefix}", f"tf.compat.v1.{prefix} with the TensorFlow 1.15 names "
                                                f"of compat.tf1.missing added.", is_package=True)

    def __getattr__(attr: str) -> Any:
        if attr in _FORWARDED_DUNDERS:
            return getattr(base(), attr)
        if attr.startswith("__"):
            raise AttributeError(attr)
        value = _resolve(f"{prefix}.{attr}", lambda: getattr(base(), attr))
        module.__dict__[attr] = value  # looked up once
        return value

    def __dir__() -> list[str]:
        ours = {path[len(prefix) + 1:].split(".")[0] for path in _all_paths() if path.startswith(prefix + ".")}
        return sorted(set(dir(base())) | ours)

    module.__dict__.update(__getattr__=__getattr__, __dir__=__dir__)
    return module


def extend_overlay(module: types.ModuleType, prefix: str) -> None:
    """Let an overlay module built elsewhere (``tf.train`` of :mod:`compat.tf1.renames`) serve our names too."""
    previous = module.__dict__.get("__getattr__")
    if previous is None or not (prefix in _prefixes() or prefix in MEMBER_PATCHES):
        return

    def __getattr__(attr: str) -> Any:
        if attr.startswith("__"):
            return previous(attr)
        return _resolve(f"{prefix}.{attr}", lambda: previous(attr))

    module.__dict__["__getattr__"] = __getattr__


def classify(parts: Sequence[str]) -> tuple[str, str] | None:
    """(status, action) for ``compat check`` if ``tf.<parts...>`` is one of this module's names, else None."""
    for length in range(len(parts), 0, -1):
        path = ".".join(parts[:length])
        if path in REFUSED:
            return "unsupported", refusal(path)
        if path in PROVIDED:
            return "bridged", f"provided by the runner (compat.tf1.missing): {PROVIDED[path][1]}"
        if path in signatures.KEYWORD_ADAPTERS:
            renamed = ", ".join(f"{old}= -> {new or '(dropped)'}"
                                for old, new in signatures.KEYWORD_ADAPTERS[path].items())
            return "bridged", f"tf.compat.v1.{path} served with its TensorFlow 1.15 keywords ({renamed})"
    return None
