"""How fast could seed 004's dataset backend be against its queue backend if the
four colour distortions cost nothing? An upper bound for any faster colour path.

    python benchmarks/inception_colour_bound.py [--seconds S] [--rounds R]

Three cases on the embedded data (batch 32, 299 x 299, 16 preprocessing threads),
each a uniform-face pipeline opened and read for ``S`` seconds after three warm-up
batches, in alternating rounds in one process:

* ``queue``: the seed's graph, colour distortions included;
* ``dataset``: the tf.data backend as it is;
* ``dataset, no colour``: the same with ``distort_color`` replaced, in this process
  only, by the clip it ends with (no brightness, saturation, hue or contrast).

Prints the median examples/s and CPU ms per example of each case, and the median
ratio of each dataset case to the queue case of its round.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any
from unittest import mock

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import tensorflow as tf  # noqa: E402

import tf1_pipelines as tp  # noqa: E402
from tf1_pipelines.pipelines.inception_multilabel import graph  # noqa: E402

CASES = ("queue", "dataset", "dataset, no colour")


def _clip_only(image: tf.Tensor, *args: Any, **kwargs: Any) -> tf.Tensor:
    return tf.clip_by_value(image, 0.0, 1.0)


def measure(case: str, seconds: float) -> tuple[float, float]:
    """``(examples/s, CPU ms per example)`` of one case read for ``seconds``."""
    backend = case.split(",")[0]
    patch = mock.patch.object(graph, "distort_color", _clip_only) if "no colour" in case \
        else mock.patch.object(graph, "distort_color", graph.distort_color)
    with patch, tp.load_pipeline("inception_multilabel", backend=backend) as pipe:
        for _ in range(3):  # the graph is built (patched) on the first batch
            pipe.get_batch()
        examples, start, cpu = 0, time.perf_counter(), time.process_time()
        while time.perf_counter() - start < seconds:
            examples += len(pipe.get_batch().images)
        elapsed = time.perf_counter() - start
        return examples / elapsed, (time.process_time() - cpu) / examples * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.5)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    results: dict[str, list[tuple[float, float]]] = {case: [] for case in CASES}
    for _ in range(args.rounds):
        for case in CASES:
            results[case].append(measure(case, args.seconds))
    for case, runs in results.items():
        print(f"{case:20s} {statistics.median(r[0] for r in runs):7.0f} examples/s "
              f"{statistics.median(r[1] for r in runs):6.2f} CPU ms/example")
    queue = [r[0] for r in results["queue"]]
    for case in CASES[1:]:
        ratios = [r[0] / q for r, q in zip(results[case], queue)]
        print(f"{case} / queue: median {statistics.median(ratios):.2f} "
              f"(rounds {min(ratios):.2f}-{max(ratios):.2f})")


if __name__ == "__main__":
    main()
