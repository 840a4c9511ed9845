"""``tf.contrib.image``: projective transforms (rotate, translate, transform), warps and YIQ colour changes.

A transform is 8 numbers ``[a0, a1, a2, b0, b1, b2, c0, c1]`` mapping an *output*
pixel ``(x, y)`` to the *input* point ``((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k)``,
``k = c0 x + c1 y + 1``; it runs on ``tf.raw_ops.ImageProjectiveTransformV3``
(zeros outside the image, as in TF 1.x). Images are ``[H, W, C]`` or ``[B, H, W, C]``.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf

from compat.contrib import refusing_getattr

__all__ = [
    "adjust_yiq_hsv", "angles_to_projective_transforms", "compose_transforms", "connected_components",
    "dense_image_warp",
    "flat_transforms_to_matrices", "matrices_to_flat_transforms", "random_yiq_hsv", "rotate", "transform",
    "translate", "translations_to_projective_transforms",
]

REFUSED: dict[str, str] = {
    "bipartite_match": "scipy.optimize.linear_sum_assignment on the distance matrix",
    "interpolate_spline": "tfa.image.interpolate_spline (tensorflow_addons)",
    "single_image_random_dot_stereograms": "nothing in TensorFlow 2 (the op was removed)",
    "sparse_image_warp": "tfa.image.sparse_image_warp (tensorflow_addons)",
}

__getattr__ = refusing_getattr("image", REFUSED)

_INTERPOLATIONS = ("NEAREST", "BILINEAR")


def angles_to_projective_transforms(angles: Any, image_height: Any, image_width: Any, name: Any = None) -> Any:
    """``[8]`` (scalar angle) or ``[B, 8]``: counter-clockwise rotations by ``angles`` radians about the centre."""
    with tf.name_scope(name or "angles_to_projective_transforms"):
        angles = tf.convert_to_tensor(angles, tf.float32)
        scalar = angles.shape.ndims == 0
        angles = tf.reshape(angles, [-1])
        height, width = tf.cast(image_height, tf.float32) - 1.0, tf.cast(image_width, tf.float32) - 1.0
        cos, sin = tf.cos(angles), tf.sin(angles)
        # The offsets keep the centre ((w-1)/2, (h-1)/2) fixed.
        x_offset = (width - (cos * width - sin * height)) / 2.0
        y_offset = (height - (sin * width + cos * height)) / 2.0
        zeros = tf.zeros_like(angles)
        flat = tf.stack([cos, -sin, x_offset, sin, cos, y_offset, zeros, zeros], axis=1)
        return flat[0] if scalar else flat


def translations_to_projective_transforms(translations: Any, name: Any = None) -> Any:
    """``[8]`` or ``[B, 8]`` transforms moving the image by ``(dx, dy)`` (``translations`` ``[2]`` or ``[B, 2]``)."""
    with tf.name_scope(name or "translations_to_projective_transforms"):
        translations = tf.convert_to_tensor(translations, tf.float32)
        single = translations.shape.ndims == 1
        translations = tf.reshape(translations, [-1, 2])
        ones, zeros = tf.ones_like(translations[:, 0]), tf.zeros_like(translations[:, 0])
        flat = tf.stack([ones, zeros, -translations[:, 0], zeros, ones, -translations[:, 1], zeros, zeros], axis=1)
        return flat[0] if single else flat


def flat_transforms_to_matrices(transforms: Any) -> Any:
    """``[B, 3, 3]`` matrices of ``[B, 8]`` (or ``[8]``) flat transforms."""
    transforms = tf.reshape(tf.convert_to_tensor(transforms, tf.float32), [-1, 8])
    ones = tf.ones_like(transforms[:, :1])
    return tf.reshape(tf.concat([transforms, ones], axis=1), [-1, 3, 3])


def matrices_to_flat_transforms(transform_matrices: Any) -> Any:
    """``[B, 8]`` flat transforms of ``[B, 3, 3]`` (or ``[3, 3]``) matrices, normalised so ``m[2, 2] = 1``."""
    matrices = tf.reshape(tf.convert_to_tensor(transform_matrices, tf.float32), [-1, 9])
    return matrices[:, :8] / matrices[:, 8:9]


def compose_transforms(*transforms: Any) -> Any:
    """``[B, 8]``: one transform equivalent to applying ``transforms`` to the image in order."""
    if not transforms:
        raise ValueError("compose_transforms: give at least one transform; got none")
    composed = flat_transforms_to_matrices(transforms[0])
    for flat in transforms[1:]:
        # Transforms map output to input points, so the first applied is the leftmost factor.
        composed = tf.matmul(composed, flat_transforms_to_matrices(flat))
    return matrices_to_flat_transforms(composed)


def transform(images: Any, transforms: Any, interpolation: str = "NEAREST", output_shape: Any = None,
              name: Any = None) -> Any:
    """``images`` resampled through ``transforms`` (``[8]`` for all, or ``[B, 8]``); zeros outside.

    Raises:
        ValueError: ``interpolation`` is not NEAREST or BILINEAR, or ``images`` is not rank 3 or 4.
    """
    if interpolation.upper() not in _INTERPOLATIONS:
        raise ValueError(f"transform: interpolation must be one of {_INTERPOLATIONS}; got {interpolation!r}")
    with tf.name_scope(name or "transform"):
        images = tf.convert_to_tensor(images)
        rank = images.shape.ndims
        if rank not in (3, 4):
            raise ValueError(f"transform: images must be [H, W, C] or [B, H, W, C]; got shape {images.shape}")
        batch = images if rank == 4 else images[None]
        if output_shape is None:
            output_shape = tf.shape(batch)[1:3]
        flat = tf.reshape(tf.cast(transforms, tf.float32), [-1, 8])
        out = tf.raw_ops.ImageProjectiveTransformV3(
            images=batch, transforms=flat, output_shape=tf.cast(output_shape, tf.int32),
            fill_value=tf.constant(0.0, tf.float32), interpolation=interpolation.upper(), fill_mode="CONSTANT")
        return out if rank == 4 else out[0]


def rotate(images: Any, angles: Any, interpolation: str = "NEAREST", name: Any = None) -> Any:
    """``images`` rotated counter-clockwise by ``angles`` radians (scalar or ``[B]``) about their centres."""
    with tf.name_scope(name or "rotate"):
        images = tf.convert_to_tensor(images)
        shape = tf.shape(images)
        height, width = (shape[0], shape[1]) if images.shape.ndims == 3 else (shape[1], shape[2])
        return transform(images, angles_to_projective_transforms(angles, height, width), interpolation)


def translate(images: Any, translations: Any, interpolation: str = "NEAREST", name: Any = None) -> Any:
    """``images`` moved by ``translations`` ``(dx, dy)`` pixels (``[2]`` or ``[B, 2]``)."""
    with tf.name_scope(name or "translate"):
        return transform(images, translations_to_projective_transforms(translations), interpolation)


def dense_image_warp(image: Any, flow: Any, name: str = "dense_image_warp") -> Any:
    """``out[b, y, x] = image[b, y - flow[b, y, x, 0], x - flow[b, y, x, 1]]``, bilinear, clamped at the edges.

    ``image`` ``[B, H, W, C]`` float, ``flow`` ``[B, H, W, 2]``; H and W at least 2.
    """
    with tf.name_scope(name):
        image = tf.convert_to_tensor(image)
        flow = tf.cast(flow, image.dtype)
        shape = tf.shape(image)
        batch, height, width = shape[0], shape[1], shape[2]
        grid_y, grid_x = tf.meshgrid(tf.range(height), tf.range(width), indexing="ij")
        query_y = tf.cast(grid_y, image.dtype)[None] - flow[..., 0]
        query_x = tf.cast(grid_x, image.dtype)[None] - flow[..., 1]

        def corner(query: Any, size: Any) -> tuple[Any, Any]:
            """The lower integer corner, in ``[0, size - 2]``, and the weight of the upper one, in ``[0, 1]``."""
            low = tf.clip_by_value(tf.floor(query), 0.0, tf.cast(size - 2, image.dtype))
            return tf.cast(low, tf.int32), tf.clip_by_value(query - low, 0.0, 1.0)[..., None]
        y0, alpha_y = corner(query_y, height)
        x0, alpha_x = corner(query_x, width)
        batch_index = tf.broadcast_to(tf.range(batch)[:, None, None], tf.shape(y0))

        def at(y: Any, x: Any) -> Any:
            return tf.gather_nd(image, tf.stack([batch_index, y, x], axis=-1))
        top = at(y0, x0) + alpha_x * (at(y0, x0 + 1) - at(y0, x0))
        bottom = at(y0 + 1, x0) + alpha_x * (at(y0 + 1, x0 + 1) - at(y0 + 1, x0))
        return top + alpha_y * (bottom - top)


_RGB_TO_YIQ = ((0.299, 0.587, 0.114), (0.596, -0.274, -0.322), (0.211, -0.523, 0.312))


def adjust_yiq_hsv(image: Any, delta_hue: Any = 0, scale_saturation: Any = 1, scale_value: Any = 1,
                   name: Any = None) -> Any:
    """RGB ``image`` (``[..., 3]`` float) with hue rotated by ``delta_hue`` radians in YIQ space,
    chroma scaled by ``scale_saturation`` and everything by ``scale_value``."""
    with tf.name_scope(name or "adjust_yiq_hsv"):
        image = tf.convert_to_tensor(image)
        dtype = image.dtype
        to_yiq = tf.constant(_RGB_TO_YIQ, dtype)
        hue = tf.cast(delta_hue, dtype)
        cos, sin = tf.cos(hue), tf.sin(hue)
        sat, val = tf.cast(scale_saturation, dtype), tf.cast(scale_value, dtype)
        zero = tf.zeros([], dtype)
        # In YIQ: Y scaled by value; (I, Q) rotated by the hue and scaled by saturation * value.
        yiq_change = tf.stack([tf.stack([val, zero, zero]),
                               tf.stack([zero, val * sat * cos, -val * sat * sin]),
                               tf.stack([zero, val * sat * sin, val * sat * cos])])
        matrix = tf.linalg.inv(to_yiq) @ yiq_change @ to_yiq
        return tf.tensordot(image, tf.transpose(matrix), axes=[[-1], [0]])


def random_yiq_hsv(image: Any, max_delta_hue: float = 0, lower_saturation: float = 1,
                   upper_saturation: float = 1, lower_value: float = 1, upper_value: float = 1,
                   seed: Any = None) -> Any:
    """:func:`adjust_yiq_hsv` with a uniform hue in ``[-max_delta_hue, max_delta_hue]`` and uniform scales."""
    if max_delta_hue < 0 or lower_saturation > upper_saturation or lower_value > upper_value:
        raise ValueError(f"random_yiq_hsv: need max_delta_hue >= 0 and lower <= upper bounds; got "
                         f"{max_delta_hue}, saturation [{lower_saturation}, {upper_saturation}], "
                         f"value [{lower_value}, {upper_value}]")
    uniform = tf.compat.v1.random_uniform
    hue = uniform([], -max_delta_hue, max_delta_hue, seed=seed)
    saturation = uniform([], lower_saturation, upper_saturation, seed=seed)
    value = uniform([], lower_value, upper_value, seed=seed)
    return adjust_yiq_hsv(image, hue, saturation, value)


def _label_components(images: np.ndarray) -> np.ndarray:
    """Ids 1.. of the 4-connected equal-valued non-zero components of ``[B, H, W]``, in order of first pixel."""
    from scipy import ndimage

    flat_size = images[0].size if images.shape[0] else 0
    found = []  # (first flat index over the batch, image, mask)
    for index, image in enumerate(images):
        for value in np.unique(image[image != 0]):
            labels, count = ndimage.label(image == value)
            for label in range(1, count + 1):
                mask = labels == label
                found.append((index * flat_size + int(np.flatnonzero(mask)[0]), index, mask))
    out = np.zeros(images.shape, np.int64)
    for component_id, (_, index, mask) in enumerate(sorted(found, key=lambda item: item[0]), start=1):
        out[index][mask] = component_id
    return out


def connected_components(images: Any) -> Any:
    """int64 ids of the connected components of ``images`` (``[H, W]`` or ``[B, H, W]``), 0 for background.

    A component is a 4-connected set of pixels of one image with the same
    non-zero value; ids run from 1 over the whole batch, in order of each
    component's first pixel (row-major). Computed with ``scipy.ndimage.label``.
    """
    images = tf.convert_to_tensor(images)
    batch = images if images.shape.ndims == 3 else images[None]
    labels = tf.numpy_function(_label_components, [batch], tf.int64)
    labels = tf.reshape(labels, tf.shape(batch))
    return labels if images.shape.ndims == 3 else labels[0]
