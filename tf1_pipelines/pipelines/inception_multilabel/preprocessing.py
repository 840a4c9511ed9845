"""Image preprocessing of seed 004, after Inception's ``image_processing.py``:
``decode_jpeg``, ``distort_image``, ``distort_color``, ``eval_image``, ``rescale``."""
from __future__ import annotations

import tensorflow as tf

tf1 = tf.compat.v1

#: TF1 ``ResizeMethod`` numbers, in the order ``thread_id % 4`` picks them.
RESIZE_METHODS = ("bilinear", "nearest_neighbor", "bicubic", "area")
#: Colour distortion order for ``thread_id % 2``.
COLOR_ORDERINGS = (("brightness", "saturation", "hue", "contrast"),
                   ("brightness", "contrast", "saturation", "hue"))


def _op_seed(seed: int | None, thread_id: int, index: int) -> int | None:
    """A distinct op-level seed per preprocessing thread and random op."""
    return None if seed is None else seed * 1009 + thread_id * 31 + index


def decode_jpeg(image_buffer: tf.Tensor, scope: str | None = None) -> tf.Tensor:
    """JPEG bytes -> float32 [h, w, 3] RGB in [0, 1] (``convert_image_dtype``: x / 255)."""
    with tf1.name_scope(scope, "decode_jpeg", [image_buffer]):
        image = tf.image.decode_jpeg(image_buffer, channels=3)
        return tf.image.convert_image_dtype(image, dtype=tf.float32)


def resize_method_for_thread(thread_id: int) -> int:
    """The TF1 ``ResizeMethod`` number a preprocessing thread uses: ``thread_id % 4``
    (0 bilinear, 1 nearest neighbour, 2 bicubic, 3 area)."""
    return thread_id % 4


def color_ordering_for_thread(thread_id: int) -> tuple[str, ...]:
    """The order of the colour distortions of a preprocessing thread (``thread_id % 2``)."""
    return COLOR_ORDERINGS[thread_id % 2]


def distort_color(image: tf.Tensor, thread_id: int = 0, scope: str | None = None,
                  seed: int | None = None) -> tf.Tensor:
    """Random brightness, saturation, hue and contrast in the thread's order, then
    a clip to [0, 1]. ``image``: float32 [h, w, 3] in [0, 1]."""
    ops = {
        "brightness": lambda x, s: tf1.image.random_brightness(x, max_delta=32. / 255., seed=s),
        "saturation": lambda x, s: tf1.image.random_saturation(x, lower=0.5, upper=1.5, seed=s),
        "hue": lambda x, s: tf1.image.random_hue(x, max_delta=0.2, seed=s),
        "contrast": lambda x, s: tf1.image.random_contrast(x, lower=0.5, upper=1.5, seed=s),
    }
    with tf1.name_scope(scope, "distort_color", [image]):
        for index, name in enumerate(color_ordering_for_thread(thread_id)):
            image = ops[name](image, _op_seed(seed, thread_id, 10 + index))
        # The random_* ops do not necessarily clamp.
        return tf.clip_by_value(image, 0.0, 1.0)


def distort_image(image: tf.Tensor, height: int, width: int, thread_id: int = 0,
                  scope: str | None = None, bbox: tf.Tensor | None = None,
                  seed: int | None = None) -> tf.Tensor:
    """One training image: random crop, resize with method ``thread_id % 4``, random
    left-right flip, colour distortion in the order of ``thread_id % 2``.

    ``image``: float32 [h, w, 3] in [0, 1]; returns float32 [height, width, 3]
    in [0, 1]. The seed calls it ``distort_image(image, height, width,
    thread_id)``; ``bbox`` (float [1, boxes, 4], ymin xmin ymax xmax in 0..1)
    defaults to none, i.e. the whole image is the object, as in the original
    when a record has no boxes. ``seed`` makes every random op repeatable.
    """
    with tf1.name_scope(scope, "distort_image", [image, height, width]):
        if bbox is None:
            bbox = tf.zeros([1, 0, 4], dtype=tf.float32)
        bbox_begin, bbox_size, _ = tf1.image.sample_distorted_bounding_box(
            tf.shape(image), bounding_boxes=bbox, seed=_op_seed(seed, thread_id, 1),
            min_object_covered=0.1, aspect_ratio_range=[0.75, 1.33], area_range=[0.05, 1.0],
            max_attempts=100, use_image_if_no_bounding_boxes=True)
        distorted_image = tf.slice(image, bbox_begin, bbox_size)
        # Four TF1 resize methods, picked round robin by thread; the aspect ratio
        # is not kept.
        distorted_image = tf1.image.resize_images(distorted_image, [height, width],
                                                  method=resize_method_for_thread(thread_id))
        distorted_image.set_shape([height, width, 3])
        distorted_image = tf1.image.random_flip_left_right(distorted_image,
                                                           seed=_op_seed(seed, thread_id, 2))
        return distort_color(distorted_image, thread_id, seed=seed)


def eval_image(image: tf.Tensor, height: int, width: int, scope: str | None = None) -> tf.Tensor:
    """One evaluation image: the central 87.5% (``central_crop``), resized bilinearly
    to [height, width, 3] (TF1 ``resize_bilinear``, ``align_corners=False``)."""
    with tf1.name_scope(scope, "eval_image", [image, height, width]):
        image = tf.image.central_crop(image, central_fraction=0.875)
        image = tf.expand_dims(image, 0)
        image = tf1.image.resize_bilinear(image, [height, width], align_corners=False)
        return tf.squeeze(image, [0])


def rescale(image: tf.Tensor) -> tf.Tensor:
    """[0, 1] -> [-1, 1]: ``(image - 0.5) * 2``, as the seed's last step."""
    return tf.multiply(tf.subtract(image, 0.5), 2.0)
