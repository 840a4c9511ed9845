"""Seed 001 (``stylegan_lod``): get_batch throughput against a bare read + parse, and
the time configure() takes to switch between levels of detail already seen.

It exports a 256x256 set (the embedded photographs, flipped and rolled to
``--images`` images) into a temporary folder, then in one process:

1. alternates rounds between (a) ``load_pipeline("stylegan_lod", lod=0)`` with the
   original's defaults (shuffle_mb=4096, prefetch_mb=2048, buffer_mb=256,
   num_threads=2) read through ``get_batch()`` and (b) the floor: a bare
   ``tf.data.TFRecordDataset`` of the same LOD-0 file -> the same parse (2 threads)
   -> batch -> repeat, run by ``sess.run``. Each round first drains what the
   pipeline buffered while the floor ran (one epoch), then times ``--batches``
   batches. Prints MB/s of each (median over rounds), their ratio, and the
   process CPU time per batch (a figure that other load on the machine moves less);
2. visits every LOD once, then times ``configure(lod=...)`` over ``--switches``
   switches between those LODs (one batch read after each, not timed). Prints the
   median and the maximum.

Run::

    TF_CPP_MIN_LOG_LEVEL=2 python benchmarks/bench_stylegan_lod.py
    TF_CPP_MIN_LOG_LEVEL=2 python benchmarks/bench_stylegan_lod.py --images 400 --rounds 5
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import tensorflow as tf

import tf1_pipelines as tp
from tf1_pipelines.pipelines import stylegan_lod as sl

tf1 = tf.compat.v1


def export_set(tfrecord_dir: str, count: int) -> None:
    """``count`` 256x256 RGB images from the embedded photographs (flips and rolls)."""
    base = [image for _, image in sl.sample_images(256)]
    with sl.TFRecordExporter(tfrecord_dir, count, print_progress=False) as tfr:
        for k in range(count):
            image = base[k % len(base)]
            variant = k // len(base)
            if variant % 2:
                image = image[:, ::-1]
            image = np.roll(image, 16 * (variant // 2), axis=1)
            tfr.add_image(image.transpose(2, 0, 1))


def floor_step(lod0_file: str, batch_size: int) -> tuple[Callable[[], Any], Any]:
    """A bare read + parse + batch of one file, and its session."""
    graph = tf.Graph()
    with graph.as_default():
        dataset = tf1.data.TFRecordDataset(lod0_file) \
            .map(sl.parse_tfrecord_tf, num_parallel_calls=2).batch(batch_size).repeat()
        images = tf1.data.make_one_shot_iterator(dataset).get_next()
    sess = tf1.Session(graph=graph)
    return (lambda: sess.run(images)), sess


def timed(step: Callable[[], Any], count: int) -> tuple[float, float]:
    """Wall-clock and process CPU seconds for ``count`` calls of ``step``."""
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(count):
        step()
    return time.perf_counter() - wall, time.process_time() - cpu


def throughput(tfrecord_dir: str, args: argparse.Namespace) -> None:
    batch_bytes = args.batch_size * 3 * 256 * 256
    pipeline = tp.load_pipeline("stylegan_lod", tfrecord_dir=tfrecord_dir,
                                batch_size=args.batch_size, lod=0)
    floor, floor_sess = floor_step(pipeline.layout.file_for(0), args.batch_size)
    drain = args.images // args.batch_size + 2
    rates: dict[str, list[float]] = {"get_batch": [], "floor": []}
    cpu: dict[str, list[float]] = {"get_batch": [], "floor": []}
    steps = {"get_batch": pipeline.get_batch, "floor": floor}
    with pipeline:
        pipeline.get_batch()
        floor()
        for _ in range(args.rounds):
            for name, step in steps.items():
                timed(step, drain if name == "get_batch" else 2)
                wall, used = timed(step, args.batches)
                rates[name].append(args.batches * batch_bytes / wall)
                cpu[name].append(used * 1000 / args.batches)
    floor_sess.close()
    med = {k: statistics.median(v) for k, v in rates.items()}
    print(f"LOD 0 (256x256x3 uint8), batch {args.batch_size}, {args.batches} batches x "
          f"{args.rounds} rounds:")
    for name, label in (("get_batch", "get_batch()"), ("floor", "bare read+parse+batch")):
        print(f"  {label:24s} {med[name] / 2**20:8.1f} MB/s  "
              f"(rounds: {', '.join(f'{r / 2**20:.0f}' for r in rates[name])}); "
              f"CPU {statistics.median(cpu[name]):.1f} ms per batch")
    print(f"  ratio get_batch / floor   {med['get_batch'] / med['floor']:.2f}  (target >= 0.7)")


def switching(tfrecord_dir: str, args: argparse.Namespace) -> None:
    with tp.load_pipeline("stylegan_lod", tfrecord_dir=tfrecord_dir, batch_size=args.batch_size,
                          lod=0) as pipeline:
        lods = pipeline.lods
        for lod in lods:  # see every LOD once
            pipeline.configure(lod=lod)
            pipeline.get_batch()
        rng = np.random.RandomState(0)
        times, current = [], pipeline.lod
        for _ in range(args.switches):
            lod = int(rng.choice([x for x in lods if x != current]))
            start = time.perf_counter()
            pipeline.configure(lod=lod)
            times.append(time.perf_counter() - start)
            pipeline.get_batch()
            current = lod
    ms = np.array(times) * 1000
    print(f"configure() between seen LODs {lods}, {args.switches} switches: median "
          f"{np.median(ms):.1f} ms, 90th percentile {np.percentile(ms, 90):.1f} ms, "
          f"max {ms.max():.1f} ms  (target < 50 ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--images", type=int, default=200, help="images in the set (default 200)")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--batches", type=int, default=120, help="timed batches per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--switches", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tfrecord_dir = os.path.join(tmp, "bench256")
        start = time.perf_counter()
        export_set(tfrecord_dir, args.images)
        print(f"exported {args.images} images at 256x256 (7 LODs) in "
              f"{time.perf_counter() - start:.1f} s")
        throughput(tfrecord_dir, args)
        switching(tfrecord_dir, args)


if __name__ == "__main__":
    main()
