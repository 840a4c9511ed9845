"""Examples/s through the tf.data service against the same pipeline run locally.

For seed 000 (``div2k_sr``, records -> LR/HR patches) and seed 004
(``inception_multilabel``, JPEG decode + distortions, dataset backend) this
measures one consumer reading batches with 0 (local: the preprocessing runs in
this process), 1 and 2 loopback workers (``serve local --workers N`` in another
process), and prints examples/s and the ratio to local.

Seed 000's ``lr_method='py_func'`` formulation cannot be served (a py_func runs
only in the process that defined it); its local rate is printed next to the
``native`` formulation, which gives the same LR images within 1e-4 and is the one
that runs on the workers.

On one machine the workers share its cores with the consumer, so the ratios say
what the service costs (serialisation, gRPC, re-batching) more than what it
gains; on separate hosts each worker brings its own cores. docs/scale_out.md turns the
per-worker rate into the number of workers a GPU step rate needs.

Run::

    TF_CPP_MIN_LOG_LEVEL=2 python benchmarks/bench_service.py
    TF_CPP_MIN_LOG_LEVEL=2 python benchmarks/bench_service.py --seconds 20 --workers 0 2
"""
from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from typing import Any

import tf1_pipelines as tp
from tf1_pipelines.cli.service_cli import free_port

CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "div2k_sr native": ("div2k_sr", dict(batch_size=64, lr_method="native", seed=1)),
    "inception_multilabel": ("inception_multilabel", dict(
        backend="dataset", batch_size=32, examples_per_shard=16, input_queue_memory_factor=1,
        num_preprocess_threads=4, seed=1)),
}
LOCAL_ONLY = {"div2k_sr py_func": ("div2k_sr", dict(batch_size=64, lr_method="py_func", seed=1))}


def rate(name: str, options: dict[str, Any], seconds: float, warmup: int) -> float:
    """Examples per second of one consumer over ``seconds`` after ``warmup`` batches."""
    with tp.load_pipeline(name, **options) as pipe:
        for _ in range(warmup):
            pipe.get_batch()
        examples, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            examples += len(pipe.get_batch()[0])
        return examples / (time.perf_counter() - start)


def start_local_service(workers: int) -> tuple[subprocess.Popen[str], str]:
    """``serve local --workers N`` in a new process; (process, grpc address) once ready."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "tf1_pipelines", "serve", "local", "--workers", str(workers),
         "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2"))
    assert process.stdout is not None
    for line in process.stdout:  # bounded by the server printing "ready" or exiting
        if line.startswith("ready"):
            return process, f"grpc://localhost:{port}"
    raise RuntimeError(f"serve local exited with {process.wait()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="timing per case")
    parser.add_argument("--warmup", type=int, default=5, help="batches before timing")
    parser.add_argument("--workers", type=int, nargs="+", default=[0, 1, 2])
    args = parser.parse_args()
    results: dict[str, dict[int, float]] = {label: {} for label in CASES}
    for workers in args.workers:
        process, address = (None, None) if workers == 0 else start_local_service(workers)
        try:
            for label, (name, options) in CASES.items():
                served = options if address is None else dict(options, service=address)
                results[label][workers] = rate(name, served, args.seconds, args.warmup)
                print(f"{label:22s} {workers} workers: {results[label][workers]:8.1f} ex/s",
                      flush=True)
        finally:
            if process is not None:
                process.send_signal(signal.SIGTERM)
                process.wait(60)
    for label, (name, options) in LOCAL_ONLY.items():
        print(f"{label:22s} local only: {rate(name, options, args.seconds, args.warmup):8.1f} "
              "ex/s (cannot be served)", flush=True)
    print("\nratio to local (0 workers):")
    for label, by_workers in results.items():
        local = by_workers.get(0)
        cells = [f"{w} workers {r / local:5.2f}" for w, r in by_workers.items() if local]
        print(f"  {label:22s} " + "   ".join(cells))


if __name__ == "__main__":
    main()
