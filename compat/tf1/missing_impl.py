"""Implementations of the TensorFlow 1.15 names :mod:`compat.tf1.missing` serves.

Everything here is built on today's public API (or, for the member patches,
adds methods and properties TF 1.15's classes had to today's classes without
changing any that exist). TensorFlow and Keras are imported inside the
functions, so importing this module imports nothing heavy.
"""
from __future__ import annotations

import functools
import inspect
import types
from collections.abc import Callable, Iterable
from typing import Any

__all__ = [
    "MapVectorizationOptions",
    "StatsAggregator",
    "StatsOptions",
    "bytes_produced_stats",
    "compare_and_bitpack",
    "experimental_list_devices",
    "generator_enqueuer_class",
    "keras_mixed_precision",
    "latency_stats",
    "linear_cosine_decay_class",
    "loss_scale_optimizer_class",
    "noisy_linear_cosine_decay_class",
    "policy_class",
    "patch_data",
    "patch_distribute",
    "patch_keras",
    "patch_operation",
    "patch_train",
    "pywrap_tensorflow_module",
    "terminate_keras_multiprocessing_pools",
]


def _tf() -> Any:
    import tensorflow as tf
    return tf


# ------------------------------------------------------------ plain functions

def experimental_list_devices() -> list[str]:
    """``tf.config.experimental_list_devices()``: the names (str) of the logical devices of this process."""
    return [device.name for device in _tf().config.list_logical_devices()]


def _identity_transformation(tag: Any) -> Callable[[Any], Any]:
    del tag  # statistics are not recorded any more; the dataset is passed on unchanged

    def apply(dataset: Any) -> Any:
        return dataset
    return apply


def latency_stats(tag: Any) -> Callable[[Any], Any]:
    """``tf.data.experimental.latency_stats(tag)``: for ``dataset.apply``; passes the dataset on unchanged."""
    return _identity_transformation(tag)


def bytes_produced_stats(tag: Any) -> Callable[[Any], Any]:
    """``tf.data.experimental.bytes_produced_stats(tag)``: for ``dataset.apply``; passes the dataset on unchanged."""
    return _identity_transformation(tag)


def terminate_keras_multiprocessing_pools(grace_period: float = 0.1, use_sigkill: bool = False) -> None:
    """``tf.keras.experimental.terminate_keras_multiprocessing_pools``: nothing to do, Keras keeps no pools now."""
    del grace_period, use_sigkill


def compare_and_bitpack(input: Any, threshold: Any, name: str | None = None) -> Any:  # noqa: A002 - op's name
    """``tf.raw_ops.CompareAndBitpack``: ``input > threshold`` packed 8 to a byte (first element = high bit).

    ``input``: any shape ``[..., 8k]``; returns uint8 ``[..., k]``.
    """
    tf = _tf()
    with tf.name_scope(name or "CompareAndBitpack"):
        values = tf.convert_to_tensor(input)
        bits = tf.cast(tf.greater(values, tf.cast(threshold, values.dtype)), tf.int32)
        shape = tf.shape(bits)
        grouped = tf.reshape(bits, tf.concat([shape[:-1], [shape[-1] // 8, 8]], axis=0))
        weights = tf.constant([128, 64, 32, 16, 8, 4, 2, 1], tf.int32)
        return tf.cast(tf.reduce_sum(grouped * weights, axis=-1), tf.uint8)


def pywrap_tensorflow_module(error: type[Exception]) -> types.ModuleType:
    """``tf.pywrap_tensorflow`` as far as scripts used it: ``NewCheckpointReader``."""
    from compat.surfaces.modules import new_module
    module = new_module("tensorflow.pywrap_tensorflow", "tf.pywrap_tensorflow: NewCheckpointReader only.")
    module.__dict__["NewCheckpointReader"] = _tf().compat.v1.train.NewCheckpointReader

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise error(f"compat: tf.pywrap_tensorflow.{name} is not provided: the module held TensorFlow's C++ "
                    f"bindings; only NewCheckpointReader is (use tf.train.load_checkpoint)")
    module.__dict__["__getattr__"] = __getattr__
    return module


# ------------------------------------------------------------ option objects

class _IgnoredOptions:
    """Option objects whose settings TF 2 no longer has: every TF 1.15 attribute can be set and read back."""

    _FIELDS: tuple[str, ...] = ()

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in self._FIELDS:
            raise AttributeError(f"{type(self).__name__} has no option {name!r}; valid: {', '.join(self._FIELDS)}")
        object.__setattr__(self, name, value)


class MapVectorizationOptions(_IgnoredOptions):
    """``tf.data.experimental.MapVectorizationOptions``: accepted, no effect (the optimisation was removed)."""

    _FIELDS = ("enabled", "use_choose_fastest")
    enabled: bool | None = None
    use_choose_fastest: bool | None = None


class StatsOptions(_IgnoredOptions):
    """``tf.data.experimental.StatsOptions``: accepted, no effect (tf.data statistics were removed)."""

    _FIELDS = ("aggregator", "counter_prefix", "latency_all_edges", "prefix")
    aggregator: Any = None
    counter_prefix: str | None = None
    latency_all_edges: bool | None = None
    prefix: str | None = None


class StatsAggregator:
    """``tf.data.experimental.StatsAggregator``: records nothing; its summary is empty."""

    def get_summary(self) -> Any:
        """A scalar string tensor: a serialised ``Summary`` with no values."""
        return _tf().constant(b"")


def _stored_property(name: str, default: Any = None) -> property:
    """A property kept in the instance's ``__dict__``, for option fields TF 2 dropped (no effect)."""
    key = f"_compat_{name}"

    def get(self: Any) -> Any:
        return self.__dict__.get(key, default)

    def set_(self: Any, value: Any) -> None:
        self.__dict__[key] = value
    return property(get, set_, doc=f"TF 1.15's {name}: accepted and kept, without effect in TF 2")


def _add_members(cls: type, members: dict[str, Any]) -> None:
    """Add ``members`` to ``cls``, never replacing one it has."""
    for name, value in members.items():
        if name not in cls.__dict__ and not hasattr(cls, name):
            setattr(cls, name, value)


def patch_data() -> None:
    """TF 1.15's ``tf.data`` option fields and ``Optional`` members, on today's classes."""
    tf = _tf()
    data = tf.compat.v1.data
    dropped = ("autotune", "autotune_algorithm", "autotune_buffers", "autotune_cpu_budget",
               "filter_with_random_uniform_fusion", "hoist_random_uniform", "map_vectorization",
               "prefetch_to_device")
    _add_members(data.experimental.OptimizationOptions, {name: _stored_property(name) for name in dropped})
    _add_members(data.Options, {"experimental_stateful_whitelist": _stored_property("experimental_stateful_whitelist"),
                                "experimental_stats": _stored_property("experimental_stats")})

    def get_auto_shard(self: Any) -> bool:
        return self.auto_shard_policy != data.experimental.AutoShardPolicy.OFF

    def set_auto_shard(self: Any, value: bool) -> None:
        # TF 1.15's bool: True sharded automatically, False not at all.
        policy = data.experimental.AutoShardPolicy
        self.auto_shard_policy = policy.AUTO if value else policy.OFF
    _add_members(data.experimental.DistributeOptions, {"auto_shard": property(get_auto_shard, set_auto_shard)})
    optional = data.experimental.Optional
    _add_members(optional, {"none_from_structure": staticmethod(lambda value_structure: optional.empty(
        value_structure)), "value_structure": property(lambda self: self.element_spec)})


def patch_distribute() -> None:
    """``Strategy.experimental_run_v2`` (TF 2.2 renamed it ``run``) on today's strategies."""
    from tensorflow.python.distribute import distribute_lib

    def experimental_run_v2(self: Any, fn: Callable[..., Any], args: Iterable[Any] = (),
                            kwargs: dict[str, Any] | None = None) -> Any:
        return self.run(fn, args=args, kwargs=kwargs)
    _add_members(distribute_lib.StrategyBase, {"experimental_run_v2": experimental_run_v2})


def patch_train() -> None:
    """``LooperThread.isAlive`` (Python 3.9 removed ``Thread.isAlive``)."""
    looper = _tf().compat.v1.train.LooperThread
    _add_members(looper, {"isAlive": looper.is_alive})


class _RefusedProperty(property):
    """A property TF 1.15 had and the runner refuses; reading it raises the message."""

    _compat_refusal: str = ""


def _refused_property(message: str) -> property:
    def get(self: Any) -> Any:
        from compat.errors import LegacyAPIError
        raise LegacyAPIError(message)
    refused = _RefusedProperty(get, doc=message)
    refused._compat_refusal = message
    return refused


#: Members the walk counts as refused: (class path, member) -> message.
REFUSED_MEMBERS: dict[tuple[str, str], str] = {
    ("Operation", "traceback_with_start_lines"): (
        "compat: Operation.traceback_with_start_lines (TensorFlow 1.15) is not provided: TF 2 keeps no "
        "function start lines; use op.traceback"),
    ("keras.mixed_precision.experimental.Policy", "loss_scale"): (
        "compat: Policy.loss_scale (TensorFlow 1.15) is not provided: loss scaling moved to the optimizer; "
        "use tf.keras.mixed_precision.LossScaleOptimizer(optimizer).dynamic / .initial_scale"),
}


def patch_operation() -> None:
    """``Operation.traceback_with_start_lines``: refused with what to use."""
    from tensorflow.python.framework import ops
    message = REFUSED_MEMBERS[("Operation", "traceback_with_start_lines")]
    _add_members(ops.Operation, {"traceback_with_start_lines": _refused_property(message)})


# ------------------------------------------------------------ Keras

def _wrap_add_update(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def add_update(self: Any, updates: Any, inputs: Any = None) -> Any:
        # TF 1.15 deprecated `inputs` ("inferred automatically"); today's Keras infers it always.
        del inputs
        return original(self, updates)
    add_update.__signature__ = inspect.signature(lambda self, updates, inputs=None: None)  # type: ignore[attr-defined]
    return add_update


def _predict_classes(self: Any, x: Any, batch_size: int = 32, verbose: int = 0) -> Any:
    """TF 1.15's ``Sequential.predict_classes``: argmax of the outputs, or ``output > 0.5`` for one unit."""
    proba = self.predict(x, batch_size=batch_size, verbose=verbose)
    if proba.shape[-1] > 1:
        return proba.argmax(axis=-1)
    return (proba > 0.5).astype("int32")


def _predict_proba(self: Any, x: Any, batch_size: int = 32, verbose: int = 0) -> Any:
    """TF 1.15's ``Sequential.predict_proba``: the model's outputs (probabilities for a softmax/sigmoid head)."""
    return self.predict(x, batch_size=batch_size, verbose=verbose)


def _sample_weights(self: Any) -> list[Any]:
    return [getattr(endpoint, "sample_weight", None) for endpoint in getattr(self, "_training_endpoints", [])]


def _get_updates_for(self: Any, inputs: Any) -> list[Any]:
    """TF 1.15's ``Layer.get_updates_for``: the unconditional updates for None (TF 2 Keras has no other)."""
    return list(self.updates) if inputs is None else []


def _get_losses_for(self: Any, inputs: Any) -> list[Any]:
    """TF 1.15's ``Layer.get_losses_for``: the unconditional losses for None (TF 2 Keras has no other)."""
    return list(self.losses) if inputs is None else []


def _apply(self: Any, inputs: Any, *args: Any, **kwargs: Any) -> Any:
    """TF 1.15's ``Layer.apply``: the layer called on ``inputs``."""
    return self.__call__(inputs, *args, **kwargs)


@functools.cache
def patch_keras() -> None:
    """TF 1.15's Keras members on today's (Keras 2) classes: ``Layer.apply`` and friends."""
    _tf().compat.v1.keras  # noqa: B018 - loads the Keras the runner selected
    from tf_keras.src.engine import base_layer, base_layer_v1, sequential, training
    _add_members(base_layer.Layer, {"apply": _apply, "get_updates_for": _get_updates_for,
                                    "get_losses_for": _get_losses_for})
    for cls in (base_layer.Layer, base_layer_v1.Layer):
        if "inputs" not in inspect.signature(cls.add_update).parameters:
            cls.add_update = _wrap_add_update(cls.add_update)
    _add_members(training.Model, {"sample_weights": property(_sample_weights)})
    _add_members(sequential.Sequential, {"predict_classes": _predict_classes, "predict_proba": _predict_proba})


def keras_mixed_precision() -> Any:
    """Today's ``tf.keras.mixed_precision`` module of Keras 2 (the v1 API of Keras 2 lacks Policy)."""
    _tf().compat.v1.keras  # noqa: B018 - loads the Keras the runner selected
    import tf_keras
    return tf_keras.mixed_precision


@functools.cache
def policy_class() -> type:
    """TF 1.15's ``tf.keras.mixed_precision.experimental.Policy``: today's Policy with its old members."""
    base = keras_mixed_precision().Policy
    message = REFUSED_MEMBERS[("keras.mixed_precision.experimental.Policy", "loss_scale")]

    class Policy(base):  # type: ignore[misc, valid-type]
        __doc__ = base.__doc__
        loss_scale = _refused_property(message)

        @property
        def should_cast_variables(self) -> bool:
            """True when variables are kept in another dtype than the computation's (e.g. mixed_float16)."""
            return bool(self.variable_dtype != self.compute_dtype)
    return Policy


def loss_scale_optimizer_class() -> type:
    """TF 1.15's ``LossScaleOptimizer(opt, loss_scale)`` over today's Keras 2 optimizer wrapper."""
    keras_mixed_precision()
    from tf_keras.src.mixed_precision import loss_scale_optimizer

    class LossScaleOptimizer(loss_scale_optimizer.LossScaleOptimizer):
        """``tf.keras.mixed_precision.experimental.LossScaleOptimizer(opt, loss_scale="dynamic")``.

        ``opt``: a ``tf.keras.optimizers`` (Keras 2) optimizer; ``loss_scale``:
        ``"dynamic"`` or a number (a fixed scale).
        """

        def __init__(self, opt: Any, loss_scale: Any = "dynamic") -> None:
            if isinstance(loss_scale, str) and loss_scale == "dynamic":
                super().__init__(opt, dynamic=True)
            elif isinstance(loss_scale, int | float) and not isinstance(loss_scale, bool):
                super().__init__(opt, dynamic=False, initial_scale=float(loss_scale))
            else:
                raise ValueError(f"loss_scale must be 'dynamic' or a number, got {loss_scale!r}")
    return LossScaleOptimizer


def generator_enqueuer_class() -> type:
    """``tf.keras.utils.GeneratorEnqueuer`` also taking TF 1.15's ``sequence=`` (today ``generator``)."""
    base = _tf().compat.v1.keras.utils.GeneratorEnqueuer

    class GeneratorEnqueuer(base):  # type: ignore[misc, valid-type]
        __doc__ = base.__doc__

        def __init__(self, generator: Any = None, use_multiprocessing: bool = False, random_seed: Any = None,
                     sequence: Any = None) -> None:
            if (generator is None) == (sequence is None):
                raise TypeError("GeneratorEnqueuer needs one generator (generator= or TF 1.15's sequence=)")
            super().__init__(generator if generator is not None else sequence, use_multiprocessing, random_seed)
    return GeneratorEnqueuer


@functools.cache
def linear_cosine_decay_class() -> type:
    """``tf.keras.experimental.LinearCosineDecay`` as a Keras schedule over ``linear_cosine_decay``."""
    tf = _tf()
    schedule = tf.compat.v1.keras.optimizers.schedules.LearningRateSchedule

    class LinearCosineDecay(schedule):  # type: ignore[misc, valid-type]
        """Learning rate ``lr * ((alpha + (T - t)/T) * 0.5 * (1 + cos(2 pi periods t / T)) + beta)``, t <= T."""

        def __init__(self, initial_learning_rate: Any, decay_steps: Any, num_periods: float = 0.5,
                     alpha: float = 0.0, beta: float = 0.001, name: str | None = None) -> None:
            super().__init__()
            self.config = {"initial_learning_rate": initial_learning_rate, "decay_steps": decay_steps,
                           "num_periods": num_periods, "alpha": alpha, "beta": beta, "name": name}

        def __call__(self, step: Any) -> Any:
            c = self.config
            value = tf.compat.v1.train.linear_cosine_decay(
                c["initial_learning_rate"], step, c["decay_steps"], c["num_periods"], c["alpha"], c["beta"],
                c["name"])
            return value() if callable(value) else value

        def get_config(self) -> dict[str, Any]:
            return dict(self.config)
    return LinearCosineDecay


@functools.cache
def noisy_linear_cosine_decay_class() -> type:
    """``tf.keras.experimental.NoisyLinearCosineDecay`` over ``noisy_linear_cosine_decay``."""
    tf = _tf()
    schedule = tf.compat.v1.keras.optimizers.schedules.LearningRateSchedule

    class NoisyLinearCosineDecay(schedule):  # type: ignore[misc, valid-type]
        """LinearCosineDecay with Gaussian noise of variance ``initial_variance / (1 + t)**variance_decay``."""

        def __init__(self, initial_learning_rate: Any, decay_steps: Any, initial_variance: float = 1.0,
                     variance_decay: float = 0.55, num_periods: float = 0.5, alpha: float = 0.0,
                     beta: float = 0.001, name: str | None = None) -> None:
            super().__init__()
            self.config = {"initial_learning_rate": initial_learning_rate, "decay_steps": decay_steps,
                           "initial_variance": initial_variance, "variance_decay": variance_decay,
                           "num_periods": num_periods, "alpha": alpha, "beta": beta, "name": name}

        def __call__(self, step: Any) -> Any:
            c = self.config
            value = tf.compat.v1.train.noisy_linear_cosine_decay(
                c["initial_learning_rate"], step, c["decay_steps"], c["initial_variance"], c["variance_decay"],
                c["num_periods"], c["alpha"], c["beta"], c["name"])
            return value() if callable(value) else value

        def get_config(self) -> dict[str, Any]:
            return dict(self.config)
    return NoisyLinearCosineDecay
