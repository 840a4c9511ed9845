"""What TensorFlow 1.0-1.14 accepted that today's ``tf.compat.v1`` rejects, restored in the runner's process.

Each function here changes one TensorFlow class so that an argument or value
TF 1.x accepted is accepted again, and returns a function that undoes it.
Nothing changes for calls that work today: only the old forms, which raise on
today's TensorFlow, are given their TF 1.x meaning. Only :mod:`compat.runner.run`
calls these (:func:`install_all`), in its own process; importing this module
changes nothing and imports nothing heavy.

* **TF 1.2-1.3's ``Dataset.map(map_func, num_threads=N, output_buffer_size=M)``**
  (``tf.contrib.data.Dataset``): TF 1.4 renamed ``num_threads`` to
  ``num_parallel_calls`` and moved the buffer to ``prefetch(M)``; the same
  elements come out in the same order. ``dense_to_sparse_batch``, a 1.3 method
  that became a transformation, is a method again (``group_by_window`` and
  ``ignore_errors`` are methods today).
* **Whole-number float dimensions** (``[None, channels / groups]`` with
  ``channels / groups == 3.0``): TF 1.x's ``Dimension`` took ``int(value)`` and
  refused only a value that changed (``Ambiguous dimension: 3.5``); today's
  refuses every float.
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

__all__ = ["accept_float_dimensions", "accept_tf13_dataset_api", "install_all"]

Undo = Callable[[], None]


def _replace(owner: type, name: str, value: Any) -> Undo:
    original = owner.__dict__[name]
    setattr(owner, name, value)
    return lambda: setattr(owner, name, original)


def _map_accepting_tf13_arguments(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def map(self: Any, map_func: Any, *args: Any, num_threads: Any = None,
            output_buffer_size: Any = None, **kwargs: Any) -> Any:
        if num_threads is not None:
            if args or kwargs.get("num_parallel_calls") is not None:
                raise ValueError("Dataset.map: give num_threads (TF 1.2-1.3) or num_parallel_calls (TF 1.4+), "
                                 f"not both (num_threads={num_threads!r})")
            kwargs["num_parallel_calls"] = num_threads
        mapped = original(self, map_func, *args, **kwargs)
        return mapped if output_buffer_size is None else mapped.prefetch(output_buffer_size)
    return map


def _dense_to_sparse_batch(self: Any, batch_size: Any, row_shape: Any) -> Any:
    """TF 1.3's ``Dataset.dense_to_sparse_batch``: now ``tf.data.experimental.dense_to_sparse_batch``."""
    import tensorflow as tf
    return self.apply(tf.data.experimental.dense_to_sparse_batch(batch_size, row_shape))


def _undo_all(undo: list[Undo]) -> Undo:
    def undo_all() -> None:
        for step in reversed(undo):
            step()
    return undo_all


def accept_tf13_dataset_api() -> Undo:
    """``Dataset.map(num_threads=, output_buffer_size=)`` and ``dense_to_sparse_batch``, on V1 and V2 datasets.

    ``group_by_window`` and ``ignore_errors`` are ``Dataset`` methods again today.
    """
    from tensorflow.python.data.ops import dataset_ops

    undo: list[Undo] = []
    for cls in (dataset_ops.DatasetV2, dataset_ops.DatasetV1):
        undo.append(_replace(cls, "map", _map_accepting_tf13_arguments(cls.__dict__["map"])))
    if "dense_to_sparse_batch" not in dataset_ops.DatasetV2.__dict__:
        dataset_ops.DatasetV2.dense_to_sparse_batch = _dense_to_sparse_batch
        undo.append(functools.partial(delattr, dataset_ops.DatasetV2, "dense_to_sparse_batch"))
    return _undo_all(undo)


def _is_numpy_float(value: Any) -> bool:
    import numpy as np
    return isinstance(value, np.floating)


def accept_float_dimensions() -> Undo:
    """``Dimension(3.0)`` is ``Dimension(3)`` again; ``Dimension(3.5)`` is TF 1.x's ValueError."""
    from tensorflow.python.framework import tensor_shape

    original = tensor_shape.Dimension.__init__

    @functools.wraps(original)
    def __init__(self: Any, value: Any) -> None:
        if isinstance(value, float) or _is_numpy_float(value):
            as_int = int(value)
            if as_int != value:
                raise ValueError(f"Ambiguous dimension: {value}")
            value = as_int
        original(self, value)

    return _replace(tensor_shape.Dimension, "__init__", __init__)


def install_all() -> Undo:
    """Every restoration of this module; returns a function that undoes them all."""
    return _undo_all([accept_tf13_dataset_api(), accept_float_dimensions()])
