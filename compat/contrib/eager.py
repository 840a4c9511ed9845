"""``tf.contrib.eager``: the TF 1.x eager API, which became core TensorFlow 2 (the runner itself runs graphs).

Most names forward to core TensorFlow (:data:`FORWARDS`). The execution
callbacks of TF 1.5-1.15 (``add_execution_callback``, ``inf_nan_callback``,
``seterr``, ``errstate``, ...) are written here on today's op callbacks
(``tensorflow.python.framework.op_callbacks``): as in TF 1.15 they are called
after each op executed eagerly, never while a graph is built.
"""
from __future__ import annotations

import contextlib
import enum
import functools
import logging
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from compat.contrib._forward import forwarding_getattr

__all__ = [
    "ExecutionCallback", "InfOrNanError", "add_execution_callback", "clear_execution_callbacks", "errstate",
    "get_optimizer_variables", "inf_callback", "inf_nan_callback", "nan_callback", "restore_network_checkpoint",
    "restore_variables_on_create", "save_network_checkpoint", "seterr",
]

#: TF 1.15 name -> where it lives today.
FORWARDS: dict[str, str] = {
    "GradientTape": "tensorflow.GradientTape",
    "Variable": "tensorflow.Variable",
    "TensorSpec": "tensorflow.TensorSpec",
    "Checkpoint": "tensorflow.train.Checkpoint",
    "Checkpointable": "tensorflow.python.trackable.autotrackable.AutoTrackable",
    "custom_gradient": "tensorflow.custom_gradient",
    "defun": "tensorflow.function",
    "function": "tensorflow.function",
    "enable_eager_execution": "tensorflow.compat.v1.enable_eager_execution",
    "executing_eagerly": "tensorflow.executing_eagerly",
    "in_eager_mode": "tensorflow.executing_eagerly",
    "list_devices": "tensorflow.config.list_logical_devices",
    "num_gpus": "tensorflow.python.eager.context.num_gpus",
    "py_func": "tensorflow.py_function",
    "make_template": "tensorflow.compat.v1.make_template",
    "Iterator": "tensorflow.python.data.ops.iterator_ops.OwnedIterator",
    "EagerVariableStore": "tensorflow.python.ops.variable_scope.EagerVariableStore",
    "DEVICE_PLACEMENT_EXPLICIT": "tensorflow.python.eager.context.DEVICE_PLACEMENT_EXPLICIT",
    "DEVICE_PLACEMENT_SILENT": "tensorflow.python.eager.context.DEVICE_PLACEMENT_SILENT",
    "DEVICE_PLACEMENT_WARN": "tensorflow.python.eager.context.DEVICE_PLACEMENT_WARN",
    "SYNC": "tensorflow.python.eager.context.SYNC",
    "ASYNC": "tensorflow.python.eager.context.ASYNC",
    "async_wait": "tensorflow.python.eager.context.async_wait",
    "async_clear_error": "tensorflow.python.eager.context.async_clear_error",
    "execution_mode": "tensorflow.python.eager.context.execution_mode",
    "set_execution_mode": "tensorflow.python.eager.context.set_execution_mode",
    "set_server_def": "tensorflow.python.eager.context.set_server_def",
    "connect_to_remote_host": "tensorflow.config.experimental_connect_to_host",
    "enable_remote_eager_execution": "tensorflow.compat.v1.enable_eager_execution",
    "gradients_function": "tensorflow.python.eager.backprop.gradients_function",
    "value_and_gradients_function": "tensorflow.python.eager.backprop.val_and_grad_function",
    "implicit_gradients": "tensorflow.python.eager.backprop.implicit_grad",
    "implicit_value_and_gradients": "tensorflow.python.eager.backprop.implicit_val_and_grad",
    "run": "tensorflow.compat.v1.app.run",
    "run_test_in_graph_and_eager_modes": "tensorflow.python.framework.test_util.run_in_graph_and_eager_modes",
    "run_all_tests_in_graph_and_eager_modes": "tensorflow.python.framework.test_util.run_all_in_graph_and_eager_modes",
    "metrics": "tf_keras.metrics",
    "Sequential": "tf_keras.Sequential",
    "Network": "tf_keras.Model",
    "Saver": "tensorflow.compat.v1.train.Saver",
}

#: TF 1.15 names not provided, with what to use instead.
REFUSED: dict[str, str] = {
}

__getattr__ = forwarding_getattr("eager", FORWARDS, REFUSED)


def get_optimizer_variables(optimizer: Any) -> list[Any]:
    """The variables ``optimizer`` created (its slots and its own, e.g. Adam's beta powers)."""
    return list(optimizer.variables())


@contextlib.contextmanager
def restore_variables_on_create(save_path: str | None, map_func: Callable[[str], str] | None = None
                                ) -> Iterator[None]:
    """Variables created in the block take their value from the name-based checkpoint ``save_path``.

    As TF 1.15's (``contrib/eager/python/saver.py``): eager only; ``save_path``
    None or empty does nothing; each variable created is looked up under
    ``map_func(name)`` (its name without ``:0``; ``map_func`` None keeps it) and
    assigned that value, each checkpoint value once (a second variable mapped to
    the same name keeps its initial value). TF 1.15 patched
    ``ResourceVariable._init_from_args``; here a variable creator scope does it.

    Raises:
        ValueError: not executing eagerly, or ``map_func`` is not callable.
        tf.errors.NotFoundError: a variable created has no value in the checkpoint (named).
    """
    import tensorflow as tf
    if not tf.executing_eagerly():
        raise ValueError("Currently, restore_variables_on_create can only be used with eager execution enabled.")
    if not save_path:
        yield
        return
    if map_func is not None and not callable(map_func):
        raise ValueError(f"restore_variables_on_create: map_func must be callable, not {map_func!r}")
    mapping: Callable[[str], str] = map_func if map_func is not None else (lambda name: name)
    reader = tf.train.load_checkpoint(save_path)
    # A value is set to None once assigned, so it is assigned only to the first variable of its name.
    values: dict[str, Any] = {name: reader.get_tensor(name) for name, _ in tf.train.list_variables(save_path)}

    def _restore(next_creator: Callable[..., Any], **kwargs: Any) -> Any:
        variable = next_creator(**kwargs)
        name = mapping(variable.name.split(":")[0])
        if name not in values:
            raise tf.errors.NotFoundError(None, None, f"{name} not found in checkpoint {save_path}")
        if values[name] is not None:
            variable.assign(values[name])
            values[name] = None
        return variable

    with tf.variable_creator_scope(_restore):
        yield


def _network_prefix(network: Any, save_path: str) -> str:
    """``save_path``, or inside it a prefix named after ``network`` when it is a folder (as TF 1.15)."""
    import os
    return os.path.join(save_path, network.name.replace("/", "_")) if os.path.isdir(save_path) else save_path


def _network_variables(network: Any, map_func: Callable[[str], str] | None) -> dict[str, Any]:
    """``network``'s variables by checkpoint name: ``map_func(name)``, by default the name without
    the network's own prefix (``"my_net/dense/kernel"`` -> ``"dense/kernel"``), as TF 1.15.

    Raises:
        ValueError: two variables map to one name (both named).
    """
    prefix = network.name + "/"

    def _strip(name: str) -> str:
        return name[len(prefix):] if name.startswith(prefix) else name
    mapping = map_func if map_func is not None else _strip
    by_name: dict[str, Any] = {}
    for variable in network.variables:
        name = mapping(variable.name.split(":")[0])
        first = by_name.setdefault(name, variable)
        if first is not variable:
            raise ValueError(f"Network '{network.name}': variables '{first.name}' and '{variable.name}' both map to "
                             f"the checkpoint name '{name}'; pass a map_func keeping them apart")
    return by_name


def save_network_checkpoint(network: Any, save_path: str, global_step: Any = None,
                            map_func: Callable[[str], str] | None = None) -> str:
    """Save ``network``'s variables (a ``tfe.Network``, today a Keras model) in a name-based checkpoint.

    As TF 1.15: ``save_path`` a prefix, or a folder (the prefix then named after
    the network); names as :func:`_network_variables`; ``global_step`` None takes
    the default graph's global step if any. Returns the checkpoint prefix.

    Raises:
        ValueError: the network was not called yet (no variables), or two variables share a name.
    """
    import tensorflow as tf
    if not network.built:
        raise ValueError(f"save_network_checkpoint: the Network '{network.name}' was not called yet, so it has no "
                         "variables to save")
    if global_step is None:
        global_step = tf.compat.v1.train.get_global_step()
    session = None if tf.executing_eagerly() else tf.compat.v1.get_default_session()
    saver = tf.compat.v1.train.Saver(_network_variables(network, map_func))
    prefix: str = saver.save(session, _network_prefix(network, save_path), global_step=global_step,
                             write_meta_graph=False)
    return prefix


def restore_network_checkpoint(network: Any, save_path: str, map_func: Callable[[str], str] | None = None) -> None:
    """Assign ``network``'s variables their values in the checkpoint ``save_path`` (names as when saved).

    TF 1.15 also deferred the values of variables not created yet to their
    creation; here the network must have been called once (divergence 73).

    Raises:
        ValueError: the network has no variables yet (use ``tf.train.Checkpoint(model=...).restore``,
            which defers), or two variables share a name.
    """
    import tensorflow as tf
    if not network.built:
        raise ValueError(f"restore_network_checkpoint: the Network '{network.name}' was not called yet; call it once "
                         "first, or use tf.train.Checkpoint(model=...).restore, which restores on creation")
    session = None if tf.executing_eagerly() else tf.compat.v1.get_default_session()
    saver = tf.compat.v1.train.Saver(_network_variables(network, map_func))
    saver.restore(session, _network_prefix(network, save_path))


# --------------------------------------------------------------------------
# Execution callbacks (TF 1.5-1.15 tensorflow/python/eager/execution_callbacks.py)
# --------------------------------------------------------------------------

#: ``callback(op_type, inputs, attrs, outputs, op_name)``, TF 1.15's argument order; its return value is ignored.
ExecutionCallbackFn = Callable[..., Any]


class ExecutionCallback(enum.Enum):
    """What ``seterr``/``errstate`` and the inf/nan callbacks do when an op's output holds an inf or a nan.

    IGNORE: nothing; PRINT: print a warning on stdout; RAISE: raise :class:`InfOrNanError`;
    WARN: log a warning on the ``tensorflow`` logger.
    """

    IGNORE = "ignore"
    PRINT = "print"
    RAISE = "raise"
    WARN = "warn"


_DEFAULT_ACTION = ExecutionCallback.RAISE


class InfOrNanError(Exception):
    """An output of an eagerly executed op holds ``inf`` and/or ``nan`` values (TF 1.15's message)."""

    def __init__(self, op_type: str, op_name: str | None, output_index: int, num_outputs: int, value: Any) -> None:
        """``output_index`` counts from 0; ``value`` is the output as a NumPy array."""
        self.op_type = op_type
        self.op_name = op_name
        self.output_index = output_index
        self.num_outputs = num_outputs
        self.value = value
        super().__init__(self._message())

    def _message(self) -> str:
        values = np.asarray(self.value)
        infs, nans = int(np.count_nonzero(np.isinf(values))), int(np.count_nonzero(np.isnan(values)))
        found = " and ".join(part for part in (f"{infs} inf(s)" if infs else "", f"{nans} nan(s)" if nans else "")
                             if part)
        name = "None" if self.op_name is None else f"'{self.op_name}'"
        return (f"Output {self.output_index + 1} of {self.num_outputs} of TFE operation {self.op_type} "
                f"(name: {name}) contains {found or '0 nan(s)'} out of a total of {values.size} element(s). "
                f"Tensor value: {self.value}")


def _float_values(output: Any) -> np.ndarray | None:
    """``output`` (an eager tensor or an array) as a floating or complex NumPy array, or None.

    Integers, booleans and strings can hold no inf or nan; a graph tensor has no value yet.
    """
    dtype = getattr(output, "dtype", None)
    if hasattr(output, "numpy") and dtype is not None and hasattr(dtype, "is_floating"):
        if not (dtype.is_floating or dtype.is_complex):
            return None
        try:
            values = np.asarray(output.numpy())
        except (AttributeError, NotImplementedError, ValueError):  # a symbolic tensor
            return None
    else:
        values = np.asarray(output)
    return values if values.dtype.kind in "fc" else None


def inf_nan_callback(op_type: str, inputs: Sequence[Any], attrs: Any, outputs: Sequence[Any],
                     op_name: str | None, check_inf: bool = True, check_nan: bool = True,
                     action: ExecutionCallback | str = _DEFAULT_ACTION) -> None:
    """An execution callback checking each of ``outputs`` for ``inf`` (``check_inf``) and ``nan`` (``check_nan``).

    Per ``action`` it raises :class:`InfOrNanError` naming the op, its output
    index and the counts, prints ``Warning: <message>``, or logs it. As in TF 1.15,
    ``action=IGNORE`` with a bad value found is a ``ValueError`` (``seterr``
    never registers the callback with IGNORE).

    Raises:
        InfOrNanError: an output holds a checked bad value and ``action`` is RAISE.
        ValueError: ``action`` is not an :class:`ExecutionCallback` value (or IGNORE, when a bad value is found).
    """
    del inputs, attrs  # not used, as in TF 1.15
    action = ExecutionCallback(action)
    for index, output in enumerate(outputs):
        values = _float_values(output)
        if values is None:
            continue
        if not ((check_inf and np.isinf(values).any()) or (check_nan and np.isnan(values).any())):
            continue
        error = InfOrNanError(op_type, op_name, index, len(outputs), values)
        if action is ExecutionCallback.RAISE:
            raise error
        if action is ExecutionCallback.PRINT:
            print(f"Warning: {error}")
        elif action is ExecutionCallback.WARN:
            logging.getLogger("tensorflow").warning(str(error))
        else:
            raise ValueError(f"Invalid action for inf_nan_callback: {action}. "
                             "Valid actions are: {PRINT | WARN | RAISE}")


def inf_callback(op_type: str, inputs: Sequence[Any], attrs: Any, outputs: Sequence[Any], op_name: str | None,
                 action: ExecutionCallback | str = _DEFAULT_ACTION) -> None:
    """:func:`inf_nan_callback` checking for ``inf`` only."""
    inf_nan_callback(op_type, inputs, attrs, outputs, op_name, check_inf=True, check_nan=False, action=action)


def nan_callback(op_type: str, inputs: Sequence[Any], attrs: Any, outputs: Sequence[Any], op_name: str | None,
                 action: ExecutionCallback | str = _DEFAULT_ACTION) -> None:
    """:func:`inf_nan_callback` checking for ``nan`` only."""
    inf_nan_callback(op_type, inputs, attrs, outputs, op_name, check_inf=False, check_nan=True, action=action)


#: The callbacks added, in order, each with the op callback registered for it.
_REGISTERED: list[tuple[ExecutionCallbackFn, Callable[..., None]]] = []


def add_execution_callback(callback: ExecutionCallbackFn) -> None:
    """Call ``callback(op_type, inputs, attrs, outputs, op_name)`` after every op executed eagerly.

    Callbacks run in the order added. Built on today's op callbacks, which are
    also called while graphs (and ``tf.function`` bodies) are built: those calls
    are not passed on, since TF 1.15 called execution callbacks for eager ops only.
    """
    from tensorflow.python.framework import op_callbacks

    def _on_op(op_type: str, inputs: Any, attrs: Any, outputs: Any, op_name: str | None = None,
               graph: Any = None) -> None:
        if graph is None:  # executed eagerly; a graph means the op is being built
            callback(op_type, inputs, attrs, outputs, op_name)

    op_callbacks.add_op_callback(_on_op)
    _REGISTERED.append((callback, _on_op))


def clear_execution_callbacks() -> None:
    """Remove every callback :func:`add_execution_callback` added (other op callbacks stay)."""
    from tensorflow.python.framework import op_callbacks
    while _REGISTERED:
        _, on_op = _REGISTERED.pop()
        op_callbacks.remove_op_callback(on_op)


def _inf_nan_action(callback: ExecutionCallbackFn) -> ExecutionCallback | None:
    """The action of ``callback`` if it is :func:`inf_nan_callback` or a ``functools.partial`` of it, else None."""
    if callback is inf_nan_callback:
        return _DEFAULT_ACTION
    if isinstance(callback, functools.partial) and callback.func is inf_nan_callback:
        return ExecutionCallback(callback.keywords.get("action", _DEFAULT_ACTION))
    return None


def seterr(inf_or_nan: ExecutionCallback | str | None = None) -> dict[str, ExecutionCallback]:
    """Set what eagerly executed ops producing ``inf``/``nan`` do; return the previous setting.

    ``inf_or_nan`` None changes nothing; IGNORE removes the inf/nan callback;
    another action puts a ``functools.partial`` of :func:`inf_nan_callback` last,
    keeping the other callbacks. Returns ``{"inf_or_nan": <previous action>}``
    (IGNORE when no inf/nan callback was set), to pass back as ``seterr(**old)``.

    Raises:
        ValueError: ``inf_or_nan`` is not an :class:`ExecutionCallback` value.
    """
    new = None if inf_or_nan is None else ExecutionCallback(inf_or_nan)
    old = {"inf_or_nan": ExecutionCallback.IGNORE}
    kept = []
    for callback, _ in _REGISTERED:
        action = _inf_nan_action(callback)
        if action is not None:
            old["inf_or_nan"] = action
        else:
            kept.append(callback)
    if new is not None:
        clear_execution_callbacks()
        for callback in kept:
            add_execution_callback(callback)
        if new is not ExecutionCallback.IGNORE:
            add_execution_callback(functools.partial(inf_nan_callback, action=new))
    return old


@contextlib.contextmanager
def errstate(inf_or_nan: ExecutionCallback | str | None = None) -> Iterator[None]:
    """:func:`seterr` for the ``with`` block, the previous setting restored on leaving it.

    Outside eager execution it changes nothing, as in TF 1.15. The setting is
    restored also when the block raises (TF 1.15 left it set).
    """
    from tensorflow.python.eager import context
    if not context.executing_eagerly():
        yield
        return
    old = seterr(inf_or_nan=inf_or_nan)
    try:
        yield
    finally:
        seterr(**old)
