"""``tf.contrib.mixed_precision``: loss scaling for float16 training (TF 1.x NVIDIA-style code).

``LossScaleOptimizer(opt, manager)`` multiplies the loss by the manager's scale
before differentiating, divides the gradients by it, applies them only when all
are finite, and tells the manager whether they were. ``FixedLossScaleManager``
keeps one scale; ``ExponentialUpdateLossScaleManager`` multiplies it by
``incr_ratio`` after ``incr_every_n_steps`` finite steps in a row and by
``decr_ratio`` after ``decr_every_n_nan_or_inf`` non-finite ones (never below 1).
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from compat.contrib import refusing_getattr

__all__ = ["ExponentialUpdateLossScaleManager", "FixedLossScaleManager", "LossScaleManager", "LossScaleOptimizer"]

REFUSED: dict[str, str] = {}

__getattr__ = refusing_getattr("mixed_precision", REFUSED)


class LossScaleManager:
    """Base class: ``get_loss_scale()`` a float32 scalar, ``update_loss_scale(finite_grads)`` an op."""

    def get_loss_scale(self) -> Any:
        """The current loss scale."""
        raise NotImplementedError

    def update_loss_scale(self, finite_grads: Any) -> Any:
        """The op updating the scale after a step whose gradients were all finite (or not)."""
        raise NotImplementedError


class FixedLossScaleManager(LossScaleManager):
    """A constant loss scale.

    Raises:
        ValueError: ``loss_scale`` is below 1.
    """

    def __init__(self, loss_scale: float) -> None:
        if loss_scale < 1:
            raise ValueError(f"FixedLossScaleManager: loss_scale must be >= 1; got {loss_scale}")
        self._loss_scale = float(loss_scale)

    def get_loss_scale(self) -> Any:
        """The constant scale."""
        return tf.constant(self._loss_scale, tf.float32)

    def update_loss_scale(self, finite_grads: Any) -> Any:
        """Nothing to update."""
        del finite_grads
        return tf.no_op()


class ExponentialUpdateLossScaleManager(LossScaleManager):
    """A loss scale that grows after runs of finite steps and shrinks after non-finite ones."""

    def __init__(self, init_loss_scale: float, incr_every_n_steps: int, decr_every_n_nan_or_inf: int = 2,
                 incr_ratio: float = 2, decr_ratio: float = 0.8) -> None:
        def local(name: str, value: Any, dtype: Any) -> Any:
            return tf.compat.v1.get_variable(name, initializer=tf.constant(value, dtype), trainable=False)
        self._incr_every, self._decr_every = incr_every_n_steps, decr_every_n_nan_or_inf
        self._incr_ratio, self._decr_ratio = float(incr_ratio), float(decr_ratio)
        self._loss_scale = local("loss_scale", float(init_loss_scale), tf.float32)
        self._good = local("good_steps", 0, tf.int32)
        self._bad = local("bad_steps", 0, tf.int32)

    def get_loss_scale(self) -> Any:
        """The scale variable."""
        return self._loss_scale

    def update_loss_scale(self, finite_grads: Any) -> Any:
        """Counts the step and rescales when a run is long enough."""
        def on_finite() -> Any:
            good = self._good + 1
            grow = good >= self._incr_every
            new_scale = tf.where(grow, self._loss_scale * self._incr_ratio, self._loss_scale)
            return tf.group(tf.compat.v1.assign(self._loss_scale, new_scale),
                            tf.compat.v1.assign(self._good, tf.where(grow, 0, good)),
                            tf.compat.v1.assign(self._bad, 0))

        def on_nonfinite() -> Any:
            bad = self._bad + 1
            shrink = bad >= self._decr_every
            new_scale = tf.where(shrink, tf.maximum(1.0, self._loss_scale * self._decr_ratio), self._loss_scale)
            return tf.group(tf.compat.v1.assign(self._loss_scale, new_scale),
                            tf.compat.v1.assign(self._bad, tf.where(shrink, 0, bad)),
                            tf.compat.v1.assign(self._good, 0))
        return tf.cond(finite_grads, on_finite, on_nonfinite)


class LossScaleOptimizer:
    """Wraps a ``tf.compat.v1.train.Optimizer`` with loss scaling by ``loss_scale_manager``."""

    def __init__(self, opt: Any, loss_scale_manager: LossScaleManager) -> None:
        self._opt, self._manager = opt, loss_scale_manager

    def compute_gradients(self, loss: Any, var_list: Any = None, **kwargs: Any) -> list[tuple[Any, Any]]:
        """Gradients of ``loss * scale``, divided by ``scale``."""
        scale = self._manager.get_loss_scale()
        pairs = self._opt.compute_gradients(loss * tf.cast(scale, loss.dtype), var_list=var_list, **kwargs)
        return [(None if g is None else g / tf.cast(scale, g.dtype), v) for g, v in pairs]

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None, name: Any = None) -> Any:
        """Applies the gradients when all are finite; always updates the loss scale."""
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        finite = tf.reduce_all([tf.reduce_all(tf.math.is_finite(tf.convert_to_tensor(g))) for g, _ in pairs])
        # The wrapped optimizer's slots are made before, not inside, the conditional branch.
        with tf.compat.v1.name_scope(self._opt.get_name()):
            self._opt._create_slots([v for _, v in pairs])  # noqa: SLF001 - the wrapped optimizer's hook
        update = tf.cond(finite, lambda: tf.group(self._opt.apply_gradients(pairs, global_step=global_step,
                                                                            name=name)), tf.no_op)
        return tf.group(update, self._manager.update_loss_scale(finite))

    def minimize(self, loss: Any, global_step: Any = None, var_list: Any = None, name: Any = None,
                 **kwargs: Any) -> Any:
        """``compute_gradients`` then ``apply_gradients``."""
        return self.apply_gradients(self.compute_gradients(loss, var_list=var_list, **kwargs),
                                    global_step=global_step, name=name)
