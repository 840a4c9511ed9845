"""Queue runners against tf.data on the same records and preprocessing.

For the seed 003 (``voc_segmentation``) and seed 004 (``inception_multilabel``)
pipelines this opens the ``queue`` and the ``dataset`` backend in one process,
on the embedded data, and then alternates measuring rounds between them, so
that both see the same machine load. Printed per pipeline:

* examples/s of each backend (median over rounds) and their ratio queue/dataset;
* the cost of ``get_batch()`` over a bare ``sess.run`` of the same tensors with
  the same feed (queue backend; the two calls alternate batch by batch in the
  order A B B A, so both wait for the same producer; ratio of total times).

Each round first consumes what the backend had buffered while the other one
ran (``--skip`` batches, default: enough to drain the biggest queue), then
times ``--examples`` examples: the figures are steady-state throughput.

Run::

    TF_CPP_MIN_LOG_LEVEL=2 python benchmarks/bench_queue_vs_dataset.py
    TF_CPP_MIN_LOG_LEVEL=2 python benchmarks/bench_queue_vs_dataset.py \
        --pipeline inception_multilabel --rounds 9
"""
from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import tf1_pipelines as tp

PIPELINES = ("voc_segmentation", "inception_multilabel")


def options_for(name: str, args: argparse.Namespace) -> dict[str, Any]:
    """load_pipeline options for one pipeline (backend added by the caller)."""
    if name == "voc_segmentation":
        return {"batch_size": args.voc_batch_size, "seed": 1}
    return {"batch_size": args.inception_batch_size, "height": args.size, "width": args.size,
            "num_preprocess_threads": args.threads, "examples_per_shard": 64,
            "input_queue_memory_factor": 4, "seed": 1}


def buffered_batches(name: str, args: argparse.Namespace) -> int:
    """How many batches a backend may hold ready when its round starts."""
    if name == "voc_segmentation":
        return 30 // args.voc_batch_size + 2      # shuffle_batch capacity 30
    return 2 * args.threads + 2                   # batch_join capacity 2 x threads x batch


def time_batches(step: Callable[[], Any], count: int) -> float:
    """Seconds for ``count`` calls of ``step``."""
    start = time.perf_counter()
    for _ in range(count):
        step()
    return time.perf_counter() - start


def bench(name: str, args: argparse.Namespace) -> dict[str, float]:
    """Alternating rounds of both backends, then of get_batch vs bare sess.run."""
    opts = options_for(name, args)
    batch = opts["batch_size"]
    skip = args.skip if args.skip is not None else buffered_batches(name, args)
    pipes = {backend: tp.load_pipeline(name, backend=backend, **opts)
             for backend in ("queue", "dataset")}
    try:
        for pipe in pipes.values():                 # start threads, fill buffers
            for _ in range(skip):
                pipe.get_batch()
        rates: dict[str, list[float]] = {"queue": [], "dataset": []}
        batches = max(1, args.examples // batch)
        for _ in range(args.rounds):
            for backend, pipe in pipes.items():
                time_batches(pipe.get_batch, skip)
                seconds = time_batches(pipe.get_batch, batches)
                rates[backend].append(batches * batch / seconds)

        queue = pipes["queue"]
        sess = queue.session
        tensors = queue.tensors
        feed = {queue.graph.get_tensor_by_name(f"{name}/batch_size:0"): batch}
        bare = lambda: sess.run(tensors, feed_dict=feed)  # noqa: E731
        # Fine-grained alternation (chunks of a few batches) so that load changes
        # on the machine hit both alike; the queue stays in steady state.
        # Order A B B A ..., so that whichever call comes second is not favoured.
        t_bare = t_get = 0.0
        for _ in range(args.rounds):
            for index in range(max(1, batches // args.chunk)):
                if index % 2:
                    t_get += time_batches(queue.get_batch, args.chunk)
                    t_bare += time_batches(bare, args.chunk)
                else:
                    t_bare += time_batches(bare, args.chunk)
                    t_get += time_batches(queue.get_batch, args.chunk)
    finally:
        for pipe in pipes.values():
            pipe.close()
    result = {backend: statistics.median(values) for backend, values in rates.items()}
    result["ratio"] = statistics.median(q / d for q, d in zip(rates["queue"], rates["dataset"]))
    result["get_batch_over_bare"] = t_get / t_bare
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pipeline", choices=PIPELINES + ("both",), default="both")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--examples", type=int, default=960, help="timed examples per round")
    parser.add_argument("--chunk", type=int, default=1,
                        help="batches per alternation in the get_batch overhead measurement")
    parser.add_argument("--skip", type=int, default=None,
                        help="batches drained before each timed round")
    parser.add_argument("--voc-batch-size", type=int, default=2)
    parser.add_argument("--inception-batch-size", type=int, default=32)
    parser.add_argument("--threads", type=int, default=16, help="num_preprocess_threads")
    parser.add_argument("--size", type=int, default=299, help="inception height = width")
    args = parser.parse_args(argv)
    names = PIPELINES if args.pipeline == "both" else (args.pipeline,)
    for name in names:
        result = bench(name, args)
        print(f"{name}: queue {result['queue']:.0f} examples/s, dataset "
              f"{result['dataset']:.0f} examples/s (medians), queue/dataset = "
              f"{result['ratio']:.2f} (median of {args.rounds} alternating rounds of "
              f"{args.examples} examples); get_batch / bare sess.run = "
              f"{result['get_batch_over_bare']:.3f} (total times, calls alternating "
              f"every {args.chunk} batch(es))")


if __name__ == "__main__":
    main()
