"""``tf.contrib.input_pipeline``: ``obtain_next``, a round-robin over a list of strings."""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from compat.contrib import refusing_getattr

__all__ = ["obtain_next"]

REFUSED: dict[str, str] = {}

__getattr__ = refusing_getattr("input_pipeline", REFUSED)


def obtain_next(string_list_tensor: Any, counter: Any) -> Any:
    """The next string of the 1-D ``string_list_tensor``: ``counter`` (an int64 variable, start -1) moves on by one,
    wrapping around, and the element at its new value is returned."""
    items = tf.convert_to_tensor(string_list_tensor)
    size = tf.cast(tf.size(items), counter.dtype.base_dtype)
    position = tf.compat.v1.assign(counter, tf.math.floormod(counter + 1, size))
    return tf.gather(items, position)
