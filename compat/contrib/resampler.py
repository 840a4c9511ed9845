"""``tf.contrib.resampler``: bilinear sampling of images at arbitrary points (spatial transformer networks).

``resampler(data, warp)``: ``data`` ``[B, H, W, C]``, ``warp`` ``[B, ..., 2]`` holding
``(x, y)`` pixel coordinates; the output ``[B, ..., C]`` interpolates the four
neighbours of each point, a neighbour outside the image contributing zero.
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from compat.contrib import refusing_getattr

__all__ = ["resampler"]

REFUSED: dict[str, str] = {}

__getattr__ = refusing_getattr("resampler", REFUSED)


def resampler(data: Any, warp: Any, name: str = "resampler") -> Any:
    """``[B, ..., C]``: ``data`` sampled bilinearly at the ``(x, y)`` points of ``warp``."""
    with tf.name_scope(name):
        data = tf.convert_to_tensor(data)
        warp = tf.cast(warp, data.dtype)
        batch, height, width = tf.shape(data)[0], tf.shape(data)[1], tf.shape(data)[2]
        points_shape = tf.shape(warp)[:-1]
        flat = tf.reshape(warp, [batch, -1, 2])
        x, y = flat[..., 0], flat[..., 1]
        x0, y0 = tf.floor(x), tf.floor(y)
        batch_index = tf.broadcast_to(tf.range(batch)[:, None], tf.shape(x))

        def corner(cx: Any, cy: Any, weight: Any) -> Any:
            """The weighted value at integer corner ``(cx, cy)``, zero outside the image."""
            inside = (cx >= 0) & (cx <= tf.cast(width - 1, data.dtype)) & (cy >= 0) & (
                cy <= tf.cast(height - 1, data.dtype))
            ix = tf.clip_by_value(tf.cast(cx, tf.int32), 0, width - 1)
            iy = tf.clip_by_value(tf.cast(cy, tf.int32), 0, height - 1)
            values = tf.gather_nd(data, tf.stack([batch_index, iy, ix], axis=-1))
            return values * (weight * tf.cast(inside, data.dtype))[..., None]
        dx, dy = x - x0, y - y0
        out = (corner(x0, y0, (1 - dx) * (1 - dy)) + corner(x0 + 1, y0, dx * (1 - dy))
               + corner(x0, y0 + 1, (1 - dx) * dy) + corner(x0 + 1, y0 + 1, dx * dy))
        return tf.reshape(out, tf.concat([points_shape, tf.shape(data)[3:]], axis=0))
