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
* **The static shape of ``tf.nn.conv2d_transpose``** (``Conv2DBackpropInput``):
  TF 1.x's shape function took the output shape from the ``output_shape``
  argument alone, so ``conv2d_transpose(h, w, output_shape=[64, 8, 8, 256])``
  had shape ``(64, 8, 8, 256)`` even when ``h``'s batch was unknown (DCGAN's
  generator reshapes with ``-1``); today's takes the batch from ``h`` and gives
  ``(?, 8, 8, 256)``, which ``tf.reshape(y, y.get_shape())`` and
  ``linear(tf.reshape(y, [batch, -1]))`` then reject. What the
  ``output_shape`` tensor's constant part says is set on the result again
  (``conv1d_transpose`` and ``atrous_conv2d_transpose``, built on the same op,
  included).
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

__all__ = ["accept_float_dimensions", "accept_tf13_dataset_api", "install_all", "infer_conv_transpose_shapes"]

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


def _with_input_sizes_shape(original: Callable[..., Any]) -> Callable[..., Any]:
    """``gen_nn_ops.conv2d_backprop_input`` whose graph result carries the shape ``input_sizes`` gives."""
    from tensorflow.python.framework import tensor_util

    @functools.wraps(original)
    def conv2d_backprop_input(input_sizes: Any, *args: Any, **kwargs: Any) -> Any:
        result = original(input_sizes, *args, **kwargs)
        if getattr(result, "graph", None) is None or not hasattr(result, "op"):
            return result  # eager: the value has its full shape already
        sizes = tensor_util.constant_value_as_shape(result.op.inputs[0])  # input_sizes as the op took it
        if sizes.rank == 4:  # TF 2.x also takes the 2 spatial sizes alone; TF 1.x needed all 4
            # TF 1.x's shape function was MakeShapeFromShapeTensor(input_sizes), the same partial evaluation.
            result.set_shape(sizes)
        return result

    return conv2d_backprop_input


def infer_conv_transpose_shapes() -> Undo:
    """``Conv2DBackpropInput`` results get the static shape of their ``input_sizes`` again, as in TF 1.x."""
    from tensorflow.python.ops import gen_nn_ops

    original = gen_nn_ops.conv2d_backprop_input
    gen_nn_ops.conv2d_backprop_input = _with_input_sizes_shape(original)

    def undo() -> None:
        gen_nn_ops.conv2d_backprop_input = original

    return undo


def install_all() -> Undo:
    """Every restoration of this module; returns a function that undoes them all."""
    return _undo_all([accept_tf13_dataset_api(), accept_float_dimensions(), infer_conv_transpose_shapes()])
