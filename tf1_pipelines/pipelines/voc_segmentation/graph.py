"""The seed's reader graph: :func:`decode_example` (parse, ``decode_raw``, reshape,
crop-or-pad) and :func:`read_and_decode` (one ``TFRecordReader`` into
``shuffle_batch``)."""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from tf1_pipelines.inputs import queue as queue_inputs
from tf1_pipelines.options import check_positive_int
from tf1_pipelines.runtime.quiet_tf1 import quiet_tf1

tf1 = tf.compat.v1

IMAGE_HEIGHT = 384
IMAGE_WIDTH = 384


def decode_example(serialized_example: tf.Tensor, image_height: int = IMAGE_HEIGHT,
                   image_width: int = IMAGE_WIDTH) -> tuple[tf.Tensor, tf.Tensor]:
    """The seed's per-record graph: parse, ``decode_raw``, reshape, crop-or-pad.

    Returns ``(image uint8 [h, w, 3], annotation uint8 [h, w, 1])`` with
    ``h, w = image_height, image_width``.
    """
    features = tf1.parse_single_example(
        serialized_example,
        # Defaults are not specified since both keys are required.
        features={
            "height": tf1.FixedLenFeature([], tf.int64),
            "width": tf1.FixedLenFeature([], tf.int64),
            "image_raw": tf1.FixedLenFeature([], tf.string),
            "mask_raw": tf1.FixedLenFeature([], tf.string),
        })
    image = tf1.decode_raw(features["image_raw"], tf.uint8)
    annotation = tf1.decode_raw(features["mask_raw"], tf.uint8)
    height = tf.cast(features["height"], tf.int32)
    width = tf.cast(features["width"], tf.int32)
    image = tf.reshape(image, tf.stack([height, width, 3]))  # the seed's tf.pack
    annotation = tf.reshape(annotation, tf.stack([height, width, 1]))
    resized_image = tf1.image.resize_image_with_crop_or_pad(
        image=image, target_height=image_height, target_width=image_width)
    resized_annotation = tf1.image.resize_image_with_crop_or_pad(
        image=annotation, target_height=image_height, target_width=image_width)
    return resized_image, resized_annotation


def check_batch_fits(batch_size: Any, capacity: int, min_after_dequeue: int) -> int:
    """``batch_size`` if it is a whole number >= 1; ConfigError otherwise.

    Any batch size is served, whatever ``capacity`` and ``min_after_dequeue``: a
    dequeue of ``batch_size`` takes the examples one at a time, each as soon as
    the queue holds more than ``min_after_dequeue``, so the queue never has to
    hold ``min_after_dequeue + batch_size`` at once (checked against TF's
    RandomShuffleQueue in the tests). The two queue sizes are checked by
    :func:`~tf1_pipelines.inputs.queue.check_capacity`."""
    return check_positive_int("batch_size", batch_size)


@quiet_tf1
def read_and_decode(filename_queue: Any, batch_size: int | tf.Tensor = 2, capacity: int = 30,
                    num_threads: int = 2, min_after_dequeue: int = 10,
                    image_height: int = IMAGE_HEIGHT, image_width: int = IMAGE_WIDTH,
                    allow_smaller_final_batch: bool = False,
                    seed: int | None = None) -> tuple[tf.Tensor, tf.Tensor]:
    """The seed's reader: one ``TFRecordReader`` on ``filename_queue`` into
    ``tf.train.shuffle_batch``; returns ``(images, annotations)``, uint8
    [B, h, w, 3] and [B, h, w, 1].

    Called as the seed calls it, ``read_and_decode(filename_queue)``, it uses the
    seed's numbers (batch 2, capacity 30, 2 threads, min_after_dequeue 10, 384 x
    384). As in TF1, the last partial batch is dropped at the end of the data
    unless ``allow_smaller_final_batch``. Raises ConfigError if ``capacity <=
    min_after_dequeue`` (TF would wait forever).
    """
    capacity, min_after_dequeue = queue_inputs.check_capacity(capacity, min_after_dequeue,
                                                              "shuffle_batch")
    num_threads = check_positive_int("num_threads", num_threads)
    if not isinstance(batch_size, tf.Tensor):
        batch_size = check_batch_fits(batch_size, capacity, min_after_dequeue)
    reader = tf1.TFRecordReader()
    _, serialized_example = reader.read(filename_queue)
    resized_image, resized_annotation = decode_example(serialized_example, image_height,
                                                       image_width)
    images, annotations = tf1.train.shuffle_batch(
        [resized_image, resized_annotation], batch_size=batch_size, capacity=capacity,
        num_threads=num_threads, min_after_dequeue=min_after_dequeue, seed=seed,
        allow_smaller_final_batch=allow_smaller_final_batch)
    return images, annotations
