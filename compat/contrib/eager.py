"""``tf.contrib.eager``: the TF 1.x eager API, which became core TensorFlow 2 (the runner itself runs graphs)."""
from __future__ import annotations

from typing import Any

from compat.contrib._forward import forwarding_getattr

__all__ = ["get_optimizer_variables"]

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
    "ExecutionCallback": "tf.debugging.enable_check_numerics (execution callbacks were removed)",
    "add_execution_callback": "tf.debugging.enable_check_numerics",
    "clear_execution_callbacks": "tf.debugging.disable_check_numerics",
    "inf_callback": "tf.debugging.enable_check_numerics",
    "inf_nan_callback": "tf.debugging.enable_check_numerics",
    "nan_callback": "tf.debugging.enable_check_numerics",
    "errstate": "tf.debugging.enable_check_numerics",
    "seterr": "tf.debugging.enable_check_numerics",
    "restore_network_checkpoint": "tf.train.Checkpoint(model=...).restore",
    "save_network_checkpoint": "tf.train.Checkpoint(model=...).save",
    "restore_variables_on_create": "tf.train.Checkpoint.restore (restores on creation by itself)",
}

__getattr__ = forwarding_getattr("eager", FORWARDS, REFUSED)


def get_optimizer_variables(optimizer: Any) -> list[Any]:
    """The variables ``optimizer`` created (its slots and its own, e.g. Adam's beta powers)."""
    return list(optimizer.variables())
