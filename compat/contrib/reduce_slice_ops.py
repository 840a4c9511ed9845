"""``tf.contrib.reduce_slice_ops``: reductions over slices ``data[start:end]`` along an axis.

``indices`` is ``[N, 2]`` (start, end) pairs, or ``[N + 1]`` boundaries whose
consecutive pairs are the slices; an empty slice gives the reduction's identity
(0 for sum, 1 for prod, the dtype's lowest / highest value for max / min).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import tensorflow as tf

from compat.contrib import refusing_getattr

__all__ = ["reduce_slice_max", "reduce_slice_min", "reduce_slice_prod", "reduce_slice_sum"]

REFUSED: dict[str, str] = {}

__getattr__ = refusing_getattr("reduce_slice_ops", REFUSED)


def _reduce_slices(reduce: Callable[..., Any], data: Any, indices: Any, axis: int, name: str) -> Any:
    with tf.name_scope(name):
        data = tf.convert_to_tensor(data)
        indices = tf.cast(indices, tf.int32)
        pairs = tf.stack([indices[:-1], indices[1:]], axis=1) if indices.shape.ndims == 1 else indices
        moved = tf.experimental.numpy.moveaxis(data, axis, 0)

        def one(pair: Any) -> Any:
            return reduce(moved[pair[0]:tf.maximum(pair[0], pair[1])], axis=0)
        out = tf.map_fn(one, pairs, fn_output_signature=data.dtype)
        return tf.experimental.numpy.moveaxis(out, 0, axis)


def reduce_slice_sum(data: Any, indices: Any, axis: int, name: str = "reduce_slice_sum") -> Any:
    """Sums of ``data`` over the slices of ``indices`` along ``axis``."""
    return _reduce_slices(tf.reduce_sum, data, indices, axis, name)


def reduce_slice_prod(data: Any, indices: Any, axis: int, name: str = "reduce_slice_prod") -> Any:
    """Products of ``data`` over the slices of ``indices`` along ``axis``."""
    return _reduce_slices(tf.reduce_prod, data, indices, axis, name)


def reduce_slice_max(data: Any, indices: Any, axis: int, name: str = "reduce_slice_max") -> Any:
    """Maxima of ``data`` over the slices of ``indices`` along ``axis``."""
    return _reduce_slices(tf.reduce_max, data, indices, axis, name)


def reduce_slice_min(data: Any, indices: Any, axis: int, name: str = "reduce_slice_min") -> Any:
    """Minima of ``data`` over the slices of ``indices`` along ``axis``."""
    return _reduce_slices(tf.reduce_min, data, indices, axis, name)
