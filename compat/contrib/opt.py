"""``tf.contrib.opt``: the extra optimizers of TF 1.x, as ``tf.compat.v1.train.Optimizer`` subclasses.

Update rules, written from their documented equations (``t`` the step, ``g``
the gradient, ``lr_t = lr * sqrt(1 - beta2^t) / (1 - beta1^t)``):

* AdamW / MomentumW (decoupled weight decay): ``var -= weight_decay * var`` before the base update;
* LazyAdam: Adam on the rows a sparse gradient touches only;
* AdaMax: ``m = b1 m + (1-b1) g``, ``u = max(b2 u, |g|)``, ``var -= lr / (1 - b1^t) * m / (u + eps)``;
* Nadam: Adam with ``m_bar = b1 m + (1 - b1) g`` in place of ``m``;
* AddSign / PowerSign: ``var -= lr * (alpha + d * sign(g) sign(m)) * g`` / ``lr * base^(d sign(g) sign(m)) * g``;
* LARS: momentum on ``trust * lr * (g + wd var)``, ``trust = eeta |var| / (|g| + wd |var| + eps)``.
"""
from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import tensorflow as tf

from compat.contrib import refusing_getattr

__all__ = [
    "AdaMaxOptimizer", "AdamGSOptimizer", "AdamWOptimizer", "AddSignOptimizer", "DecoupledWeightDecayExtension",
    "ExternalOptimizerInterface", "LARSOptimizer", "LazyAdamGSOptimizer", "LazyAdamOptimizer", "MomentumWOptimizer",
    "MovingAverageOptimizer", "MultitaskOptimizerWrapper", "NadamOptimizer", "PowerSignOptimizer",
    "RegAdagradOptimizer",
    "ScipyOptimizerInterface", "VariableClippingOptimizer", "clip_gradients_by_global_norm",
    "extend_with_decoupled_weight_decay",
]

_RARE = "rarely used; tf.compat.v1.train.AdamOptimizer or a tf.keras optimizer"
REFUSED: dict[str, str] = {
    "AGNCustomGetter": "tf.distribute strategies (asynchronous grouped training was removed)",
    "AGNOptimizer": "tf.distribute strategies (asynchronous grouped training was removed)",
    "DelayCompensatedGradientDescentOptimizer": f"{_RARE} (parameter-server training)",
    "DropStaleGradientOptimizer": f"{_RARE} (parameter-server training)",
    "ElasticAverageCustomGetter": "tf.distribute strategies",
    "ElasticAverageOptimizer": "tf.distribute strategies",
    "ModelAverageCustomGetter": "tf.distribute strategies",
    "ModelAverageOptimizer": "tf.distribute strategies",
    "GGTOptimizer": _RARE,
    "ShampooOptimizer": _RARE,
}

__getattr__ = refusing_getattr("opt", REFUSED)

_Adam: Any = tf.compat.v1.train.AdamOptimizer


def _dense(grad: Any) -> Any:
    """A dense tensor for an ``IndexedSlices`` gradient (rules written for dense gradients)."""
    return tf.convert_to_tensor(grad)


class _DenseRule:
    """Routes the four ``_apply_*`` hooks of ``tf.compat.v1.train.Optimizer`` to one ``_update(grad, var)``."""

    def _update(self, grad: Any, var: Any) -> Any:
        raise NotImplementedError

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        return self._update(grad, var)

    def _resource_apply_dense(self, grad: Any, var: Any) -> Any:
        return self._update(grad, var)

    def _apply_sparse(self, grad: Any, var: Any) -> Any:
        return self._update(_dense(grad), var)

    def _resource_apply_sparse(self, grad: Any, var: Any, indices: Any) -> Any:
        return self._update(tf.math.unsorted_segment_sum(grad, indices, tf.shape(var)[0]), var)


class _AdamFamily(_DenseRule, _Adam):
    """Adam's slots ``m``, ``v`` and step powers, with another update rule."""

    def _powers(self) -> tuple[Any, Any]:
        """``(beta1^t, beta2^t)``: Adam's own accumulators."""
        return self._get_beta_accumulators()

    def _hyper(self, var: Any) -> tuple[Any, Any, Any, Any, Any, Any]:
        beta1_power, beta2_power = self._powers()
        dtype = var.dtype.base_dtype
        return (tf.cast(self._lr_t, dtype), tf.cast(self._beta1_t, dtype), tf.cast(self._beta2_t, dtype),
                tf.cast(self._epsilon_t, dtype), tf.cast(beta1_power, dtype), tf.cast(beta2_power, dtype))

    def _adam_moments(self, grad: Any, var: Any) -> tuple[Any, Any, Any, Any, Any]:
        """Adam's moment updates and bias-corrected rate: ``(lr_t, beta1, epsilon, m_t, v_t)`` with
        ``m_t = b1 m + (1 - b1) g``, ``v_t = b2 v + (1 - b2) g²``, ``lr_t = lr sqrt(1 - b2^t) / (1 - b1^t)``."""
        lr, b1, b2, eps, b1_power, b2_power = self._hyper(var)
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_t = tf.compat.v1.assign(m, b1 * m + (1.0 - b1) * grad)
        v_t = tf.compat.v1.assign(v, b2 * v + (1.0 - b2) * grad * grad)
        return lr * tf.sqrt(1.0 - b2_power) / (1.0 - b1_power), b1, eps, m_t, v_t


class AdaMaxOptimizer(_AdamFamily):
    """AdaMax (Adam with the infinity norm). Arguments as ``AdamOptimizer``; ``name="AdaMax"``."""

    def __init__(self, learning_rate: Any = 0.001, beta1: float = 0.9, beta2: float = 0.999,
                 epsilon: float = 1e-8, use_locking: bool = False, name: str = "AdaMax") -> None:
        super().__init__(learning_rate=learning_rate, beta1=beta1, beta2=beta2, epsilon=epsilon,
                         use_locking=use_locking, name=name)

    def _update(self, grad: Any, var: Any) -> Any:
        lr, b1, b2, eps, b1_power, _ = self._hyper(var)
        m, u = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_t = tf.compat.v1.assign(m, b1 * m + (1.0 - b1) * grad)
        u_t = tf.compat.v1.assign(u, tf.maximum(b2 * u, tf.abs(grad)))
        step = lr / (1.0 - b1_power) * m_t / (u_t + eps)
        return tf.group(tf.compat.v1.assign_sub(var, step), m_t, u_t)


class NadamOptimizer(_AdamFamily):
    """Adam with Nesterov momentum. Arguments as ``AdamOptimizer``; ``name="Adam"`` as in TF 1.x."""

    def _update(self, grad: Any, var: Any) -> Any:
        lr_t, b1, eps, m_t, v_t = self._adam_moments(grad, var)
        m_bar = b1 * m_t + (1.0 - b1) * grad
        return tf.group(tf.compat.v1.assign_sub(var, lr_t * m_bar / (tf.sqrt(v_t) + eps)), m_t, v_t)


class LazyAdamOptimizer(_Adam):
    """Adam whose sparse updates touch only the rows of the gradient's indices (embeddings)."""

    def _powers(self) -> tuple[Any, Any]:
        """``(beta1^t, beta2^t)``: Adam's own accumulators."""
        return self._get_beta_accumulators()

    def _sparse_rows(self, values: Any, var: Any, indices: Any) -> Any:
        beta1_power, beta2_power = self._powers()
        dtype = var.dtype.base_dtype
        lr, b1 = tf.cast(self._lr_t, dtype), tf.cast(self._beta1_t, dtype)
        b2, eps = tf.cast(self._beta2_t, dtype), tf.cast(self._epsilon_t, dtype)
        lr_t = lr * tf.sqrt(1.0 - tf.cast(beta2_power, dtype)) / (1.0 - tf.cast(beta1_power, dtype))
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_rows = b1 * tf.gather(m, indices) + (1.0 - b1) * values
        v_rows = b2 * tf.gather(v, indices) + (1.0 - b2) * values * values
        m_t = tf.compat.v1.scatter_update(m, indices, m_rows, use_locking=self._use_locking)
        v_t = tf.compat.v1.scatter_update(v, indices, v_rows, use_locking=self._use_locking)
        with tf.control_dependencies([m_t, v_t]):
            return tf.compat.v1.scatter_sub(var, indices, lr_t * m_rows / (tf.sqrt(v_rows) + eps),
                                            use_locking=self._use_locking)

    def _apply_sparse(self, grad: Any, var: Any) -> Any:
        return self._sparse_rows(grad.values, var, grad.indices)

    def _resource_apply_sparse(self, grad: Any, var: Any, indices: Any) -> Any:
        return self._sparse_rows(grad, var, indices)


class _GlobalStepPowers:
    """Adam's bias corrections with step ``t = global_step + 1`` (the ``*GS`` optimizers take ``global_step`` first)."""

    _beta1: Any
    _beta2: Any

    def __init__(self, global_step: Any = 0, learning_rate: Any = 0.001, beta1: float = 0.9, beta2: float = 0.999,
                 epsilon: float = 1e-8, use_locking: bool = False, name: str = "Adam") -> None:
        super().__init__(learning_rate=learning_rate, beta1=beta1, beta2=beta2,  # type: ignore[call-arg]
                         epsilon=epsilon, use_locking=use_locking, name=name)
        self._global_step = global_step

    def _powers(self) -> tuple[Any, Any]:
        """``(beta1^(global_step + 1), beta2^(global_step + 1))``."""
        step = tf.cast(self._global_step, tf.float32) + 1.0
        return tf.pow(tf.cast(self._beta1, tf.float32), step), tf.pow(tf.cast(self._beta2, tf.float32), step)


class AdamGSOptimizer(_GlobalStepPowers, _AdamFamily):
    """Adam whose step ``t`` is ``global_step + 1`` (the bias corrections follow the global step)."""

    def _update(self, grad: Any, var: Any) -> Any:
        lr_t, _, eps, m_t, v_t = self._adam_moments(grad, var)
        return tf.group(tf.compat.v1.assign_sub(var, lr_t * m_t / (tf.sqrt(v_t) + eps)), m_t, v_t)


class LazyAdamGSOptimizer(_GlobalStepPowers, LazyAdamOptimizer):
    """LazyAdam whose step ``t`` is ``global_step + 1``."""


class RegAdagradOptimizer(_DenseRule, tf.compat.v1.train.AdagradOptimizer):
    """Adagrad that can update the variables without growing the accumulators (for regularization updates).

    Inside ``with optimizer.avoid_updating_slots():`` an update is
    ``var -= lr * g / sqrt(accumulator)`` with the accumulator left as it is.
    """

    def __init__(self, learning_rate: Any, initial_accumulator_value: float = 0.1, use_locking: bool = False,
                 name: str = "RegAdagrad") -> None:
        super().__init__(learning_rate, initial_accumulator_value=initial_accumulator_value,
                         use_locking=use_locking, name=name)
        self._avoid_updating_slots = False

    @contextlib.contextmanager
    def avoid_updating_slots(self) -> Iterator[None]:
        """Updates built inside leave the accumulators unchanged."""
        previous, self._avoid_updating_slots = self._avoid_updating_slots, True
        try:
            yield
        finally:
            self._avoid_updating_slots = previous

    def _update(self, grad: Any, var: Any) -> Any:
        accumulator = self.get_slot(var, "accumulator")
        lr = tf.cast(self._learning_rate_tensor, var.dtype.base_dtype)
        if self._avoid_updating_slots:
            return tf.compat.v1.assign_sub(var, lr * grad / tf.sqrt(accumulator))
        acc_t = tf.compat.v1.assign_add(accumulator, grad * grad)
        return tf.group(tf.compat.v1.assign_sub(var, lr * grad / tf.sqrt(acc_t)), acc_t)


class _SignFamily(_DenseRule, tf.compat.v1.train.Optimizer):
    """Shared slot ``m`` (moving average of gradients) of AddSign and PowerSign."""

    def __init__(self, learning_rate: Any, beta: float, sign_decay_fn: Callable[[Any], Any] | None,
                 use_locking: bool, name: str) -> None:
        super().__init__(use_locking, name)
        self._lr, self._beta, self._sign_decay_fn = learning_rate, beta, sign_decay_fn

    def _create_slots(self, var_list: Sequence[Any]) -> None:
        for var in var_list:
            self._zeros_slot(var, "m", self._name)

    def _agreement(self, grad: Any, var: Any) -> tuple[Any, Any]:
        """``(sign_decay * sign(g) * sign(m_new), m_new op)``."""
        dtype = var.dtype.base_dtype
        beta = tf.cast(self._beta, dtype)
        m = self.get_slot(var, "m")
        m_t = tf.compat.v1.assign(m, beta * m + (1.0 - beta) * grad)
        decay = tf.constant(1.0, dtype)
        if self._sign_decay_fn is not None:
            decay = tf.cast(self._sign_decay_fn(tf.compat.v1.train.get_or_create_global_step()), dtype)
        return decay * tf.sign(grad) * tf.sign(m_t), m_t

    def _scale(self, agreement: Any, dtype: Any) -> Any:
        """The factor of ``lr * g`` in the step, from the agreement of the signs."""
        raise NotImplementedError

    def _update(self, grad: Any, var: Any) -> Any:
        agreement, m_t = self._agreement(grad, var)
        dtype = var.dtype.base_dtype
        step = tf.cast(self._lr, dtype) * self._scale(agreement, dtype) * grad
        return tf.group(tf.compat.v1.assign_sub(var, step), m_t)


class AddSignOptimizer(_SignFamily):
    """``var -= lr * (alpha + sign_decay * sign(g) * sign(m)) * g``."""

    def __init__(self, learning_rate: Any = 0.1, alpha: float = 1.0, beta: float = 0.9,
                 sign_decay_fn: Callable[[Any], Any] | None = None, use_locking: bool = False,
                 name: str = "AddSignOptimizer") -> None:
        super().__init__(learning_rate, beta, sign_decay_fn, use_locking, name)
        self._alpha = alpha

    def _scale(self, agreement: Any, dtype: Any) -> Any:
        return tf.cast(self._alpha, dtype) + agreement


class PowerSignOptimizer(_SignFamily):
    """``var -= lr * exp(log(base) * sign_decay * sign(g) * sign(m)) * g``."""

    def __init__(self, learning_rate: Any = 0.1, base: float = float(np.e), beta: float = 0.9,
                 sign_decay_fn: Callable[[Any], Any] | None = None, use_locking: bool = False,
                 name: str = "PowerSignOptimizer") -> None:
        super().__init__(learning_rate, beta, sign_decay_fn, use_locking, name)
        self._base = base

    def _scale(self, agreement: Any, dtype: Any) -> Any:
        return tf.exp(tf.cast(np.log(self._base), dtype) * agreement)


class LARSOptimizer(_DenseRule, tf.compat.v1.train.Optimizer):
    """Layer-wise adaptive rate scaling on momentum (slot ``momentum``)."""

    def __init__(self, learning_rate: Any, momentum: float = 0.9, weight_decay: float = 0.0001,
                 eeta: float = 0.001, epsilon: float = 0.0, name: str = "LARSOptimizer",
                 skip_list: Sequence[str] | None = None, use_nesterov: bool = False) -> None:
        super().__init__(False, name)
        self._lr, self._momentum, self._weight_decay = learning_rate, momentum, weight_decay
        self._eeta, self._epsilon, self._skip_list, self._use_nesterov = eeta, epsilon, skip_list, use_nesterov

    def _create_slots(self, var_list: Sequence[Any]) -> None:
        for var in var_list:
            self._zeros_slot(var, "momentum", self._name)

    def _update(self, grad: Any, var: Any) -> Any:
        dtype = var.dtype.base_dtype
        lr, momentum = tf.cast(self._lr, dtype), tf.cast(self._momentum, dtype)
        scaled_lr, grad = lr, grad
        if not self._skip_list or not any(name in var.name for name in self._skip_list):
            w_norm, g_norm = tf.norm(var), tf.norm(grad)
            # The trust ratio is 1 where either norm is 0 (fresh or frozen layers).
            ratio = self._eeta * w_norm / (g_norm + self._weight_decay * w_norm + self._epsilon)
            trust = tf.where(w_norm > 0, tf.where(g_norm > 0, ratio, tf.ones_like(ratio)), tf.ones_like(ratio))
            scaled_lr = lr * trust
            grad = grad + self._weight_decay * var
        accum = self.get_slot(var, "momentum")
        accum_t = tf.compat.v1.assign(accum, momentum * accum + scaled_lr * grad)
        step = momentum * accum_t + scaled_lr * grad if self._use_nesterov else accum_t
        return tf.group(tf.compat.v1.assign_sub(var, step), accum_t)


class DecoupledWeightDecayExtension:
    """Mixin: ``var -= weight_decay * var`` (for the variables of ``decay_var_list``) before each update.

    Put it first among the bases: ``class MyOpt(DecoupledWeightDecayExtension, SomeOptimizer)``.
    """

    def __init__(self, weight_decay: Any, **kwargs: Any) -> None:
        self._weight_decay = weight_decay
        self._decay_var_list: set[Any] | None = None
        super().__init__(**kwargs)

    def minimize(self, loss: Any, global_step: Any = None, var_list: Any = None, gate_gradients: int = 1,
                 aggregation_method: Any = None, colocate_gradients_with_ops: bool = False, name: Any = None,
                 grad_loss: Any = None, decay_var_list: Any = None) -> Any:
        """``Optimizer.minimize``; only the variables of ``decay_var_list`` decay when it is given."""
        self._decay_var_list = None if decay_var_list is None else {v.ref() for v in decay_var_list}
        return super().minimize(loss, global_step=global_step, var_list=var_list,  # type: ignore[misc]
                                gate_gradients=gate_gradients, aggregation_method=aggregation_method,
                                colocate_gradients_with_ops=colocate_gradients_with_ops, name=name,
                                grad_loss=grad_loss)

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None, name: Any = None,
                        decay_var_list: Any = None) -> Any:
        """``Optimizer.apply_gradients`` with the decay of ``decay_var_list`` (default: every variable)."""
        if decay_var_list is not None:
            self._decay_var_list = {v.ref() for v in decay_var_list}
        return super().apply_gradients(grads_and_vars, global_step=global_step, name=name)  # type: ignore[misc]

    def _decay(self, var: Any, grad: Any) -> Any:
        """``var -= weight_decay * var``, after ``grad`` (taken at the weights before the decay) is computed."""
        if self._decay_var_list is not None and var.ref() not in self._decay_var_list:
            return tf.no_op()
        computed = grad.values if isinstance(grad, tf.IndexedSlices) else grad
        with tf.control_dependencies([computed]):
            return tf.compat.v1.assign_sub(var, tf.cast(self._weight_decay, var.dtype.base_dtype) * var,
                                           use_locking=self._use_locking)  # type: ignore[attr-defined]

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        with tf.control_dependencies([self._decay(var, grad)]):
            return super()._apply_dense(grad, var)  # type: ignore[misc]

    def _resource_apply_dense(self, grad: Any, var: Any) -> Any:
        with tf.control_dependencies([self._decay(var, grad)]):
            return super()._resource_apply_dense(grad, var)  # type: ignore[misc]

    def _apply_sparse(self, grad: Any, var: Any) -> Any:
        with tf.control_dependencies([self._decay(var, grad)]):
            return super()._apply_sparse(grad, var)  # type: ignore[misc]

    def _resource_apply_sparse(self, grad: Any, var: Any, indices: Any) -> Any:
        with tf.control_dependencies([self._decay(var, grad)]):
            return super()._resource_apply_sparse(grad, var, indices)  # type: ignore[misc]


def extend_with_decoupled_weight_decay(base_optimizer: type) -> type:
    """A subclass of ``base_optimizer`` whose constructor takes ``weight_decay`` first."""
    class OptimizerWithDecoupledWeightDecay(DecoupledWeightDecayExtension, base_optimizer):
        """``base_optimizer`` with decoupled weight decay."""

        def __init__(self, weight_decay: Any, *args: Any, **kwargs: Any) -> None:
            self._weight_decay = weight_decay
            self._decay_var_list = None
            base_optimizer.__init__(self, *args, **kwargs)  # type: ignore[misc]
    return OptimizerWithDecoupledWeightDecay


class AdamWOptimizer(DecoupledWeightDecayExtension, _Adam):
    """Adam with decoupled weight decay (Loshchilov & Hutter)."""

    def __init__(self, weight_decay: Any, learning_rate: Any = 0.001, beta1: float = 0.9, beta2: float = 0.999,
                 epsilon: float = 1e-8, use_locking: bool = False, name: str = "AdamW") -> None:
        super().__init__(weight_decay, learning_rate=learning_rate, beta1=beta1, beta2=beta2, epsilon=epsilon,
                         use_locking=use_locking, name=name)


class MomentumWOptimizer(DecoupledWeightDecayExtension, tf.compat.v1.train.MomentumOptimizer):
    """Momentum with decoupled weight decay."""

    def __init__(self, weight_decay: Any, learning_rate: Any, momentum: Any, use_locking: bool = False,
                 name: str = "MomentumW", use_nesterov: bool = False) -> None:
        super().__init__(weight_decay, learning_rate=learning_rate, momentum=momentum, use_locking=use_locking,
                         name=name, use_nesterov=use_nesterov)


def clip_gradients_by_global_norm(gradients_variables: Sequence[tuple[Any, Any]],
                                  clip_norm: float = 20.0) -> list[tuple[Any, Any]]:
    """``(gradient, variable)`` pairs with the gradients scaled to a global norm of at most ``clip_norm``."""
    gradients, variables = zip(*gradients_variables, strict=True)
    clipped, _ = tf.clip_by_global_norm(list(gradients), clip_norm)
    return list(zip(clipped, variables, strict=True))


class _Wrapper:
    """Delegates the ``Optimizer`` API to a wrapped optimizer."""

    def __init__(self, opt: Any) -> None:
        self._opt = opt

    def compute_gradients(self, *args: Any, **kwargs: Any) -> Any:
        """The wrapped optimizer's ``compute_gradients``."""
        return self._opt.compute_gradients(*args, **kwargs)

    def get_slot(self, *args: Any, **kwargs: Any) -> Any:
        """The wrapped optimizer's ``get_slot``."""
        return self._opt.get_slot(*args, **kwargs)

    def get_slot_names(self) -> list[str]:
        """The wrapped optimizer's slot names."""
        return list(self._opt.get_slot_names())

    def variables(self) -> list[Any]:
        """The wrapped optimizer's variables."""
        return list(self._opt.variables())

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None, name: Any = None) -> Any:
        """The wrapped optimizer's ``apply_gradients``."""
        return self._opt.apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def minimize(self, loss: Any, global_step: Any = None, var_list: Any = None, name: Any = None,
                 **kwargs: Any) -> Any:
        """``compute_gradients`` then this wrapper's ``apply_gradients``."""
        grads_and_vars = self.compute_gradients(loss, var_list=var_list, **kwargs)
        grads_and_vars = [(g, v) for g, v in grads_and_vars if g is not None]
        return self.apply_gradients(grads_and_vars, global_step=global_step, name=name)


class MultitaskOptimizerWrapper(_Wrapper):
    """Skips the update of a variable whose gradient is all zeros (a task absent from the batch)."""

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None, name: Any = None) -> Any:
        """Each update runs only where ``any(gradient != 0)``."""
        pairs = list(grads_and_vars)
        inner = self._opt
        # The wrapped optimizer's own steps, with each variable's update made conditional:
        # slots and hyper-parameter tensors first, outside the conditionals.
        with tf.compat.v1.name_scope(name, inner.get_name()) as scope:
            inner._create_slots([v for _, v in pairs])  # noqa: SLF001 - the wrapped optimizer's hooks
            inner._prepare()  # noqa: SLF001
            ops = []
            for grad, var in pairs:
                nonzero = tf.reduce_any(tf.not_equal(tf.convert_to_tensor(grad), 0))
                ops.append(tf.cond(nonzero, lambda g=grad, v=var: self._apply_one(g, v), tf.no_op))
            update = inner._finish(ops, scope)  # noqa: SLF001
        if global_step is None:
            return update
        with tf.control_dependencies([update]):
            return tf.compat.v1.assign_add(global_step, 1).op

    def _apply_one(self, grad: Any, var: Any) -> Any:
        grad = tf.convert_to_tensor(grad)
        if hasattr(var, "handle"):
            update = self._opt._resource_apply_dense(grad, var)  # noqa: SLF001
        else:
            update = self._opt._apply_dense(grad, var)  # noqa: SLF001
        with tf.control_dependencies([update]):
            return tf.no_op()


class VariableClippingOptimizer(_Wrapper):
    """After each update, clips the norm of slices of the variables of ``vars_to_clip_dims`` to ``max_norm``.

    ``vars_to_clip_dims`` maps a variable to the dimensions the norm runs over.
    """

    def __init__(self, opt: Any, vars_to_clip_dims: Mapping[Any, Sequence[int]], max_norm: float,
                 use_locking: bool = False, colocate_clip_ops_with_vars: bool = False,
                 name: str = "VariableClipping") -> None:
        super().__init__(opt)
        self._clip = {var.ref(): list(dims) for var, dims in vars_to_clip_dims.items()}
        self._max_norm = max_norm

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None, name: Any = None) -> Any:
        """The wrapped update, then the clipping."""
        pairs = list(grads_and_vars)
        update = self._opt.apply_gradients(pairs, global_step=global_step, name=name)
        with tf.control_dependencies([update]):
            clips = [tf.compat.v1.assign(v, tf.clip_by_norm(v, self._max_norm, axes=self._clip[v.ref()]))
                     for _, v in pairs if v.ref() in self._clip]
        return tf.group(update, *clips)


class MovingAverageOptimizer(_Wrapper):
    """Keeps an exponential moving average of the trained variables; ``swapping_saver`` saves the averages."""

    def __init__(self, opt: Any, average_decay: float = 0.9999, num_updates: Any = None,
                 sequential_update: bool = True) -> None:
        super().__init__(opt)
        self._ema = tf.compat.v1.train.ExponentialMovingAverage(average_decay, num_updates=num_updates)
        self._sequential_update = sequential_update
        self._variables: list[Any] = []

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None, name: Any = None) -> Any:
        """The wrapped update, then the average update."""
        pairs = list(grads_and_vars)
        self._variables = [v for _, v in pairs]
        update = self._opt.apply_gradients(pairs, global_step=global_step, name=name)
        deps = [update] if self._sequential_update else []
        with tf.control_dependencies(deps):
            return tf.group(update, self._ema.apply(self._variables))

    def swapping_saver(self, var_list: Any = None, name: str = "swapping_saver", **kwargs: Any) -> Any:
        """A ``Saver`` that writes each average under its variable's name (and restores it there)."""
        variables = var_list if var_list is not None else tf.compat.v1.global_variables()
        averaged = {v.ref() for v in self._variables}
        names = {}
        for var in variables:
            names[var.op.name] = self._ema.average(var) if var.ref() in averaged else var
        for var in self._variables:
            # The averages themselves are saved under the variables' names only.
            names.pop(self._ema.average_name(var), None)
        return tf.compat.v1.train.Saver(names, name=name, **kwargs)


class ExternalOptimizerInterface:
    """Minimises ``loss`` over ``var_list`` with an optimizer outside TensorFlow, through a ``Session``.

    Subclasses implement :meth:`_minimize` over a flat NumPy vector.
    """

    def __init__(self, loss: Any, var_list: Sequence[Any] | None = None, equalities: Any = None,
                 inequalities: Any = None, var_to_bounds: Mapping[Any, Any] | None = None,
                 **optimizer_kwargs: Any) -> None:
        self._loss = loss
        self._vars = list(var_list) if var_list is not None else tf.compat.v1.trainable_variables()
        if not self._vars:
            raise ValueError("ExternalOptimizerInterface: no variables to optimize (var_list is empty and the "
                             "graph has no trainable variables)")
        self._equalities = list(equalities or [])
        self._inequalities = list(inequalities or [])
        self._bounds = dict(var_to_bounds or {})
        self.optimizer_kwargs = optimizer_kwargs
        self._shapes = [v.get_shape().as_list() for v in self._vars]
        self._sizes = [int(np.prod(s)) for s in self._shapes]
        self._grads = [tf.zeros_like(v) if g is None else g for g, v in
                       zip(tf.gradients(loss, self._vars), self._vars, strict=True)]
        self._placeholders = [tf.compat.v1.placeholder(v.dtype.base_dtype, s)
                              for v, s in zip(self._vars, self._shapes, strict=True)]
        self._assign = tf.group(*[tf.compat.v1.assign(v, p)
                                  for v, p in zip(self._vars, self._placeholders, strict=True)])

    def _unpack(self, flat: np.ndarray) -> list[np.ndarray]:
        pieces = np.split(flat, np.cumsum(self._sizes)[:-1])
        return [p.reshape(s) for p, s in zip(pieces, self._shapes, strict=True)]

    def minimize(self, session: Any = None, feed_dict: Any = None, fetches: Any = None,
                 step_callback: Callable[..., Any] | None = None, loss_callback: Callable[..., Any] | None = None,
                 **run_kwargs: Any) -> None:
        """Runs the external optimizer and writes the solution into the variables."""
        session = session or tf.compat.v1.get_default_session()
        feed_dict = dict(feed_dict or {})
        fetches = list(fetches or [])

        def evaluate(flat: np.ndarray, tensors: Sequence[Any]) -> list[Any]:
            session.run(self._assign, {**feed_dict, **dict(zip(self._placeholders, self._unpack(flat),
                                                               strict=True))})
            return list(session.run(list(tensors) + fetches, feed_dict, **run_kwargs))

        def loss_and_grad(flat: np.ndarray) -> tuple[float, np.ndarray]:
            values = evaluate(flat, [self._loss, *self._grads])
            if loss_callback is not None:
                loss_callback(*values[1 + len(self._grads):])
            grad = np.concatenate([np.reshape(g, -1) for g in values[1:1 + len(self._grads)]])
            return float(values[0]), grad.astype(np.float64)

        start = np.concatenate([np.reshape(v, -1) for v in session.run(self._vars)]).astype(np.float64)
        solution = self._minimize(start, loss_and_grad, evaluate, step_callback)
        session.run(self._assign, dict(zip(self._placeholders, self._unpack(solution), strict=True)))

    def _minimize(self, start: np.ndarray, loss_and_grad: Callable[[np.ndarray], tuple[float, np.ndarray]],
                  evaluate: Callable[..., list[Any]], step_callback: Callable[..., Any] | None) -> np.ndarray:
        raise NotImplementedError


class ScipyOptimizerInterface(ExternalOptimizerInterface):
    """``scipy.optimize.minimize`` (``method`` default ``"L-BFGS-B"``; ``"SLSQP"`` with constraints)."""

    def _minimize(self, start: np.ndarray, loss_and_grad: Callable[[np.ndarray], tuple[float, np.ndarray]],
                  evaluate: Callable[..., list[Any]], step_callback: Callable[..., Any] | None) -> np.ndarray:
        from scipy import optimize

        kwargs = dict(self.optimizer_kwargs)
        method = kwargs.pop("method", "SLSQP" if self._equalities or self._inequalities else "L-BFGS-B")
        constraints = [{"type": kind, "fun": lambda x, c=c: np.reshape(evaluate(x, [c])[0], -1)}
                       for kind, group in (("eq", self._equalities), ("ineq", self._inequalities)) for c in group]
        result = optimize.minimize(loss_and_grad, start, jac=True, method=method, bounds=self._flat_bounds(),
                                   constraints=constraints or (), callback=step_callback, **kwargs)
        return np.asarray(result.x)

    def _flat_bounds(self) -> list[tuple[Any, Any]] | None:
        if not self._bounds:
            return None
        bounds: list[tuple[Any, Any]] = []
        for var, size in zip(self._vars, self._sizes, strict=True):
            low, high = self._bounds.get(var, (None, None))
            lows = np.broadcast_to(-np.inf if low is None else low, var.get_shape().as_list()).reshape(-1)
            highs = np.broadcast_to(np.inf if high is None else high, var.get_shape().as_list()).reshape(-1)
            bounds.extend(zip(lows.tolist(), highs.tolist(), strict=True))
            del size
        return bounds
