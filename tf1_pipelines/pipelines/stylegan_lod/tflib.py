"""Stand-ins for the parts of StyleGAN2's ``dnnlib`` and ``dnnlib.tflib`` that its
``training/dataset.py`` uses: ``run``, ``create_var_with_large_initial_value``,
``get_obj_by_name``."""
from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import tensorflow as tf

tf1 = tf.compat.v1


def _default_session_for(graph: tf.Graph | None, what: str) -> Any:
    sess = tf1.get_default_session()
    if sess is None:
        raise RuntimeError(f"No default TensorFlow session found for {what}: run it inside "
                           "`with tf.compat.v1.Session().as_default():` (the original called "
                           "dnnlib.tflib.init_tf() first)")
    if graph is not None and sess.graph is not graph:
        raise RuntimeError(f"the default session runs another graph than the one {what} was "
                           "built in; make a session on that graph the default")
    return sess


def run(*args: Any, **kwargs: Any) -> Any:
    """``tflib.run``: run the given fetches in the default session."""
    return _default_session_for(None, "tflib.run").run(*args, **kwargs)


def create_var_with_large_initial_value(initial_value: np.ndarray, *args: Any,
                                        **kwargs: Any) -> tf.Variable:
    """A ``tf.Variable`` holding ``initial_value`` without a constant of that size in the
    graph: its initializer takes the value from Python (``tf.numpy_function``), so
    any initializer run (ours, the user's, ``global_variables_initializer``) loads
    it. As ``tflib`` did, the value is set at once when a default session on this
    graph exists."""
    return _large_value_variable(initial_value, True, *args, **kwargs)


def _large_value_variable(value: np.ndarray, load_now: bool, *args: Any,
                          **kwargs: Any) -> tf.Variable:
    if not isinstance(value, np.ndarray):
        raise TypeError(f"initial_value must be a numpy array, got {type(value).__name__}")
    loaded = tf.numpy_function(lambda: value, [], tf.as_dtype(value.dtype), name="initial_value")
    loaded.set_shape(value.shape)
    var = tf1.Variable(loaded, *args, **kwargs)
    sess = tf1.get_default_session()
    if load_now and sess is not None and sess.graph is var.graph:
        sess.run(var.initializer)
    return var


def get_obj_by_name(name: str) -> Any:
    """``dnnlib.util.get_obj_by_name``: the object at a dotted ``module.attr`` path,
    importing the longest module prefix that exists."""
    parts = name.split(".")
    for split in range(len(parts) - 1, 0, -1):
        module_name = ".".join(parts[:split])
        try:
            obj: Any = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and not module_name.startswith(exc.name):
                raise  # the module exists but one of its imports does not
            continue
        try:
            for attr in parts[split:]:
                obj = getattr(obj, attr)
        except AttributeError as exc:
            raise ImportError(f"{module_name!r} has no {'.'.join(parts[split:])!r}") from exc
        return obj
    raise ImportError(f"cannot find {name!r}: no importable module prefix")
