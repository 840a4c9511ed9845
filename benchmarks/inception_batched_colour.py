"""Seed 004's colour distortion per example (TF's fused per-image kernels, as the
pipeline runs it) against formulations that run once per batch of 32 with
per-example parameters: an HSV round trip (``rgb_to_hsv`` / ``hsv_to_rgb``), the
same maths on RGB planes, and the RGB-plane version compiled by XLA.

    python benchmarks/inception_batched_colour.py [--rounds R] [--batches N]

Input: the embedded training images, resized to 299 x 299 (four TF1 methods),
fed from memory; every variant flips, shifts brightness, applies contrast before
or after saturation + hue by the example's parity, clips and rescales to
[-1, 1]. Prints the process CPU milliseconds per example (least over rounds)
and examples/s (best), the variants alternating in one process. ``base`` only
copies the images into batches, so ``variant - base`` is the distortion's cost.
"""
from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

from tf1_pipelines.pipelines.inception_multilabel.graph import Dataset  # noqa: E402
from tf1_pipelines.pipelines.inception_multilabel.sample import default_data_dir  # noqa: E402
from tf1_pipelines.records.reader import iterate_records  # noqa: E402

tf1 = tf.compat.v1
BATCH, SIZE = 32, 299
#: parameter vector per example: flip draw, brightness delta, saturation factor,
#: hue delta, contrast factor, parity (thread_id % 2)
LOW = np.array([0.0, -32 / 255, 0.5, -0.2, 0.5, 0.0], np.float32)
HIGH = np.array([1.0, 32 / 255, 1.5, 0.2, 1.5, 2.0], np.float32)


def resized_images() -> np.ndarray:
    """float32 [n, 299, 299, 3] in [0, 1]: every embedded training image, whole and
    a centre half, resized with method ``k % 4``."""
    out: list[np.ndarray] = []
    for path in Dataset("multilabel", "train", default_data_dir()).data_files():
        for record in iterate_records(path):
            feature = tf.train.Example.FromString(record).features.feature
            jpeg = feature["image/encoded"].bytes_list.value[0]
            image = tf.image.convert_image_dtype(tf.io.decode_jpeg(jpeg, channels=3), tf.float32)
            h, w = int(image.shape[0]), int(image.shape[1])
            for crop in (image, image[h // 4:h // 4 + h // 2, w // 4:w // 4 + w // 2]):
                out.append(tf1.image.resize_images(crop, [SIZE, SIZE],
                                                   method=len(out) % 4).numpy())
    return np.stack(out)


def per_example(image: tf.Tensor, p: tf.Tensor) -> tf.Tensor:
    """One image [299, 299, 3] with TF's per-image ops (the pipeline's formulation)."""
    image = tf.cond(p[0] < 0.5, lambda: tf.reverse(image, [1]), lambda: image)
    image = image + p[1]

    def sat_hue(x: tf.Tensor) -> tf.Tensor:
        return tf.image.adjust_hue(tf.image.adjust_saturation(x, p[2]), p[3])

    def contrast(x: tf.Tensor) -> tf.Tensor:
        return tf.image.adjust_contrast(x, p[4])
    image = tf.cond(p[5] >= 1.0, lambda: sat_hue(contrast(image)),
                    lambda: contrast(sat_hue(image)))
    return (tf.clip_by_value(image, 0.0, 1.0) - 0.5) * 2.0


def _col(v: tf.Tensor) -> tf.Tensor:
    return tf.reshape(v, [-1, 1, 1, 1])


def _contrast(x: tf.Tensor, factor: tf.Tensor) -> tf.Tensor:
    """x * f + mean * (1 - f): the identity, exactly, where f == 1."""
    mean = tf.reduce_mean(x, [1, 2], keepdims=True)
    return x * _col(factor) + mean * _col(1.0 - factor)


def sat_hue_hsv(x: tf.Tensor, sat: tf.Tensor, hue: tf.Tensor) -> tf.Tensor:
    """Saturation then hue in one HSV round trip."""
    h, s, v = tf.unstack(tf.image.rgb_to_hsv(x), axis=-1)
    s = tf.minimum(s * tf.reshape(sat, [-1, 1, 1]), 1.0)
    h = h + tf.reshape(hue, [-1, 1, 1])
    return tf.image.hsv_to_rgb(tf.stack([h - tf.floor(h), s, v], -1))


def sat_hue_planes(x: tf.Tensor, sat: tf.Tensor, hue: tf.Tensor) -> tf.Tensor:
    """Saturation then hue on RGB planes: hue in sextants, chroma scaled and capped
    at the value, each channel V - C' * clamp(2 - circular distance, 0, 1)."""
    r, g, b = tf.unstack(x, axis=-1)
    v = tf.maximum(tf.maximum(r, g), b)
    c = v - tf.minimum(tf.minimum(r, g), b)
    num = tf.where(tf.equal(r, v), g - b,
                   tf.where(tf.equal(g, v), b - r + 2.0 * c, r - g + 4.0 * c))
    h = tf.math.floormod(tf.math.divide_no_nan(num, c) + tf.reshape(hue * 6.0, [-1, 1, 1]), 6.0)
    chroma = tf.minimum(c * tf.reshape(sat, [-1, 1, 1]), v)
    channels = []
    for centre in (3.0, 5.0, 1.0):
        d = tf.abs(h - centre)
        d = tf.minimum(d, 6.0 - d)
        channels.append(v - chroma * tf.clip_by_value(2.0 - d, 0.0, 1.0))
    return tf.stack(channels, -1)


def batched(sat_hue: Callable[[tf.Tensor, tf.Tensor, tf.Tensor], tf.Tensor]
            ) -> Callable[[tf.Tensor, tf.Tensor], tf.Tensor]:
    """The whole distortion on a batch [B, 299, 299, 3] with parameters [B, 6]."""
    def run(x: tf.Tensor, p: tf.Tensor) -> tf.Tensor:
        x = tf1.where(p[:, 0] < 0.5, tf.reverse(x, [2]), x)
        x = x + _col(p[:, 1])
        odd = p[:, 5] >= 1.0
        x = _contrast(x, tf.where(odd, p[:, 4], 1.0))
        x = sat_hue(x, p[:, 2], p[:, 3])
        x = _contrast(x, tf.where(odd, 1.0, p[:, 4]))
        return (tf.clip_by_value(x, 0.0, 1.0) - 0.5) * 2.0
    return run


def build(variant: str, images: np.ndarray) -> tuple[Any, Any]:
    graph = tf.Graph()
    with graph.as_default():
        table = tf.constant(images)

        def source(i: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
            u = tf.random.stateless_uniform([6], tf.stack([i, i]))
            return tf.gather(table, i % len(images)), LOW + u * (HIGH - LOW)
        data = tf.data.Dataset.range(2 ** 62).map(source, num_parallel_calls=4)
        if variant == "per example":
            data = data.map(per_example, num_parallel_calls=4).batch(BATCH)
        else:
            data = data.batch(BATCH, drop_remainder=True)
            fn = {"batched HSV round trip": batched(sat_hue_hsv),
                  "batched RGB planes": batched(sat_hue_planes),
                  "batched RGB planes, XLA": tf.function(batched(sat_hue_planes),
                                                         jit_compile=True)}.get(variant)
            if fn is not None:
                data = data.map(fn, num_parallel_calls=2)
        batch = tf1.data.make_one_shot_iterator(data.prefetch(1)).get_next()
    return tf1.Session(graph=graph), tf.nest.flatten(batch)[0]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--batches", type=int, default=15)
    args = parser.parse_args()
    images = resized_images()
    variants = ["base", "per example", "batched HSV round trip", "batched RGB planes",
                "batched RGB planes, XLA"]
    cpu: dict[str, float] = {}
    speed: dict[str, float] = {}
    for _ in range(args.rounds):
        for variant in variants:
            sess, fetch = build(variant, images)
            for _ in range(3):
                sess.run(fetch)
            start, used = time.perf_counter(), time.process_time()
            for _ in range(args.batches):
                sess.run(fetch)
            n = args.batches * BATCH
            cpu[variant] = min(cpu.get(variant, float("inf")), (time.process_time() - used) * 1000 / n)
            speed[variant] = max(speed.get(variant, 0.0), n / (time.perf_counter() - start))
            sess.close()
    print("CPU ms/example  examples/s  variant")
    for variant in variants:
        print(f"{cpu[variant]:14.2f}  {speed[variant]:10.0f}  {variant}")


if __name__ == "__main__":
    main()
