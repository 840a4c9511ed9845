"""Where the time of seed 004's training preprocessing goes: the tf.data map cut
after each stage, on the embedded data (batch 32, 299 x 299, 16 parallel calls).

    python benchmarks/inception_stages.py [--seconds S] [--rounds R] [--stages a,b]

Every stage is a pipeline of its own (records repeated, unshuffled, mapped,
batched, prefetched); the stages run in alternating rounds in one process and
the best round counts. Prints examples/s per stage.
"""
from __future__ import annotations

import argparse
import functools
import os
import time
from collections.abc import Callable
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import tensorflow as tf  # noqa: E402

from tf1_pipelines.pipelines.inception_multilabel import graph as g  # noqa: E402
from tf1_pipelines.pipelines.inception_multilabel.sample import (  # noqa: E402
    DEFAULT_SEMANTIC_LEVEL_SETTINGS,
    default_data_dir,
)

tf1 = tf.compat.v1
BATCH, SIZE, THREADS = 32, 299, 16
BOX = dict(min_object_covered=0.1,
           aspect_ratio_range=[0.75, 1.33], area_range=[0.05, 1.0], max_attempts=100,
           use_image_if_no_bounding_boxes=True)


def _decoded(serialized: tf.Tensor) -> tf.Tensor:
    buffer, _, _ = g.parse_example_proto(serialized, DEFAULT_SEMANTIC_LEVEL_SETTINGS)
    return g.decode_jpeg(buffer)


def _cropped_resized(image: tf.Tensor, method: int | tf.Tensor) -> tf.Tensor:
    begin, size, _ = tf1.image.sample_distorted_bounding_box(
        tf.shape(image), bounding_boxes=tf.zeros([1, 0, 4]), **BOX)
    crop = tf.slice(image, begin, size)
    if isinstance(method, int):
        return tf1.image.resize_images(crop, [SIZE, SIZE], method=method)
    branches = [lambda k=k: tf1.image.resize_images(crop, [SIZE, SIZE], method=k)
                for k in range(4)]
    out = tf.switch_case(method, branches)
    out.set_shape([SIZE, SIZE, 3])
    return out


def _one_method(method: int, index: tf.Tensor, serialized: tf.Tensor) -> tf.Tensor:
    return _cropped_resized(_decoded(serialized), method)


def stage_fns() -> dict[str, Callable[[tf.Tensor, tf.Tensor], tf.Tensor]]:
    """Stage name -> map function (index, serialized) -> fixed-size image."""
    def thread(i: tf.Tensor) -> tf.Tensor:
        return tf.cast(i % THREADS, tf.int32) % 4

    def upto_resize(i: tf.Tensor, s: tf.Tensor) -> tf.Tensor:
        return _cropped_resized(_decoded(s), thread(i))

    def upto_flip(i: tf.Tensor, s: tf.Tensor) -> tf.Tensor:
        return tf1.image.random_flip_left_right(upto_resize(i, s))

    def full(i: tf.Tensor, s: tf.Tensor) -> tf.Tensor:
        image = _decoded(s)
        branches = [functools.partial(g.distort_image, image, SIZE, SIZE, k) for k in range(4)]
        out = tf.switch_case(thread(i), branches)
        out.set_shape([SIZE, SIZE, 3])
        return g.rescale(out)

    def decode_fixed(i: tf.Tensor, s: tf.Tensor) -> tf.Tensor:
        # decode, then a constant-size slice so that the batch is dense
        return tf.image.resize_with_crop_or_pad(_decoded(s), 160, 160)

    stages: dict[str, Callable[[tf.Tensor, tf.Tensor], tf.Tensor]] = {
        "decode (+160x160 crop)": decode_fixed,
        "decode+crop+resize (thread method)": upto_resize,
        "+flip": upto_flip,
        "full (current _preprocess, unseeded)": full,
    }
    for k, name in enumerate(g.RESIZE_METHODS):
        stages[f"decode+crop+resize {name} only"] = functools.partial(_one_method, k)
    return stages


def build(fn: Callable[[tf.Tensor, tf.Tensor], tf.Tensor]) -> tuple[Any, Any]:
    graph = tf.Graph()
    with graph.as_default():
        files = g.Dataset("multilabel", "train", default_data_dir()).data_files()
        data = tf1.data.TFRecordDataset(files).repeat().enumerate() \
            .map(fn, num_parallel_calls=THREADS).batch(BATCH).prefetch(2)
        batch = tf1.data.make_one_shot_iterator(data).get_next()
    return tf1.Session(graph=graph), batch


def rate(sess: Any, batch: Any, seconds: float) -> tuple[float, float]:
    """(examples/s, CPU milliseconds of this process per example)."""
    for _ in range(3):
        sess.run(batch)
    start, cpu, n = time.perf_counter(), time.process_time(), 0
    while time.perf_counter() - start < seconds:
        sess.run(batch)
        n += BATCH
    return n / (time.perf_counter() - start), (time.process_time() - cpu) * 1000 / n


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--stages", default="")
    args = parser.parse_args()
    stages = stage_fns()
    if args.stages:
        stages = {k: v for k, v in stages.items()
                  if any(part in k for part in args.stages.split(","))}
    best: dict[str, float] = {}
    cpu: dict[str, float] = {}
    for _ in range(args.rounds):
        for name, fn in stages.items():
            sess, batch = build(fn)
            speed, cost = rate(sess, batch, args.seconds)
            best[name] = max(best.get(name, 0.0), speed)
            cpu[name] = min(cpu.get(name, float("inf")), cost)
            sess.close()
    print("best ex/s  least CPU ms/example  stage")
    for name, value in best.items():
        print(f"{value:8.0f}  {cpu[name]:8.2f}  {name}")


if __name__ == "__main__":
    main()
