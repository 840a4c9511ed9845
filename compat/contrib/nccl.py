"""``tf.contrib.nccl`` (TF 1.x multi-GPU code): all-reduce over a list of per-device tensors.

Not among TF 1.15's contrib modules (the ops had moved into TensorFlow), but
multi-GPU towers of 2017-2018 imported it. Written with plain ops: the
reduction of the list, placed back on each input's device, so the results equal
NCCL's on one device or many (without NCCL's speed).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import tensorflow as tf

from compat.contrib import refusing_getattr

__all__ = ["all_max", "all_min", "all_prod", "all_sum", "broadcast", "reduce_sum"]

REFUSED: dict[str, str] = {}

__getattr__ = refusing_getattr("nccl", REFUSED)


def _all_reduce(tensors: Sequence[Any], combine: Callable[[Any, Any], Any], name: str) -> list[Any]:
    """The reduction of ``tensors`` (same shape and dtype), one copy on each input's device.

    Raises:
        ValueError: ``tensors`` is empty.
    """
    if not tensors:
        raise ValueError(f"nccl.{name}: give at least one tensor; got none")
    tensors = [tf.convert_to_tensor(t) for t in tensors]
    total = tensors[0]
    for tensor in tensors[1:]:
        total = combine(total, tensor)
    copies = []
    for tensor in tensors:
        with tf.device(tensor.device):
            copies.append(tf.identity(total))
    return copies


def all_sum(tensors: Sequence[Any]) -> list[Any]:
    """The element-wise sum of ``tensors``, on each tensor's device."""
    return _all_reduce(tensors, tf.add, "all_sum")


def all_prod(tensors: Sequence[Any]) -> list[Any]:
    """The element-wise product of ``tensors``, on each tensor's device."""
    return _all_reduce(tensors, tf.multiply, "all_prod")


def all_min(tensors: Sequence[Any]) -> list[Any]:
    """The element-wise minimum of ``tensors``, on each tensor's device."""
    return _all_reduce(tensors, tf.minimum, "all_min")


def all_max(tensors: Sequence[Any]) -> list[Any]:
    """The element-wise maximum of ``tensors``, on each tensor's device."""
    return _all_reduce(tensors, tf.maximum, "all_max")


def reduce_sum(tensors: Sequence[Any]) -> Any:
    """The element-wise sum of ``tensors`` (one tensor)."""
    return _all_reduce(tensors, tf.add, "reduce_sum")[0]


def broadcast(tensor: Any) -> Any:
    """``tensor`` itself (the copies NCCL made are made by the ops that read it)."""
    return tf.identity(tensor)
