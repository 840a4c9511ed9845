"""``python -m tf1_pipelines bench``: throughput of pipelines in one run, as ratios.

Each case runs in its own subprocess (so that its peak RSS is its own), cases
alternate over ``rounds`` and the best round counts. Every pipeline reports
its rate against the seed's own formulation of the same pipeline and against
its floor (read + parse + batch only), since absolute rates vary by machine.
"""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

BATCH = 64


@dataclass
class Result:
    case: str
    examples_per_s: float
    mb_per_s: float
    first_batch_s: float
    peak_rss_mb: float


# ----------------------------------------------------------------------- div2k_sr cases
def _div2k_records() -> str:
    from tf1_pipelines import sample_data
    from tf1_pipelines.pipelines.div2k_sr import default_tfrecord_dir, write_patch_records
    from tf1_pipelines.image.patches import list_images
    data_dir = sample_data.div2k_like_dir()
    record_dir = default_tfrecord_dir(data_dir, 96, 10)
    if not os.path.isdir(record_dir) or not os.listdir(record_dir):
        write_patch_records(list_images(data_dir), record_dir, 96, 10)
    return record_dir


def _session_runner(build: Callable[[], Any]) -> Callable[[], Any]:
    """Build tensors in a fresh graph; return a function running one step."""
    import tensorflow as tf
    graph = tf.Graph()
    with graph.as_default():
        fetches = build()
    sess = tf.compat.v1.Session(graph=graph)
    return lambda: sess.run(fetches)


def _div2k_seed() -> Callable[[], Any]:
    """The seed's read_tfrecords: per-example py_func PIL resize, per-example flips."""
    from tf1_pipelines.pipelines.div2k_sr import DataLoader
    record_dir = _div2k_records()
    return _session_runner(lambda: DataLoader(batch_size=BATCH).read_tfrecords(record_dir))


def _div2k_per_example_native() -> Callable[[], Any]:
    """The seed's structure with the native resize in each map call."""
    from tf1_pipelines.pipelines.div2k_sr import DataLoader
    record_dir = _div2k_records()
    return _session_runner(
        lambda: DataLoader(batch_size=BATCH, lr_method="native").read_tfrecords(record_dir))


def _div2k_floor(batched_parse: bool) -> Callable[[], Callable[[], Any]]:
    """Read + parse + batch only: no shuffle, no flips, no resize. The seed parses
    one record per map call; the batched floor parses a whole batch per call."""
    def make() -> Callable[[], Any]:
        import tensorflow as tf
        from tf1_pipelines.pipelines.div2k_sr import parse_patch, parse_patch_batch
        from tf1_pipelines.records.reader import list_record_files
        files = list_record_files(_div2k_records())

        def build() -> Any:
            dataset = tf.compat.v1.data.TFRecordDataset(files, buffer_size=1 << 20).repeat()
            if batched_parse:
                dataset = dataset.batch(BATCH).map(lambda x: parse_patch_batch(x, 96) / 255.0)
            else:
                dataset = dataset.map(lambda x: parse_patch(x, 96) / 255.0, 8).batch(BATCH)
            return tf.compat.v1.data.make_one_shot_iterator(dataset.prefetch(4)).get_next()
        return _session_runner(build)
    return make


def _div2k_pipeline(backend: str, lr_method: str) -> Callable[[], Callable[[], Any]]:
    def make() -> Callable[[], Any]:
        import tf1_pipelines as tp
        tfrecord_dir = _div2k_records() if backend == "tfrecords" else None
        pipeline = tp.load_pipeline("div2k_sr", backend=backend, lr_method=lr_method,
                                    tfrecord_dir=tfrecord_dir, batch_size=BATCH)
        return pipeline.get_batch
    return make


CASES: dict[str, dict[str, Callable[[], Callable[[], Any]]]] = {
    "div2k_sr": {
        "seed formulation": _div2k_seed,
        "floor (read+parse+batch)": _div2k_floor(batched_parse=False),
        "floor, batched parse": _div2k_floor(batched_parse=True),
        "tfrecords native": _div2k_pipeline("tfrecords", "native"),
        "tfrecords py_func": _div2k_pipeline("tfrecords", "py_func"),
        "per-example native": _div2k_per_example_native,
        "generator native": _div2k_pipeline("generator", "native"),
        "generator py_func": _div2k_pipeline("generator", "py_func"),
    },
}
SEED_CASE = "seed formulation"
FLOOR_CASE = "floor (read+parse+batch)"


def _nbytes(value: Any) -> int:
    if isinstance(value, np.ndarray):
        return value.nbytes
    if isinstance(value, dict):
        return sum(_nbytes(v) for v in value.values())
    if isinstance(value, (tuple, list)):
        return sum(_nbytes(v) for v in value)
    return 0


def _examples(value: Any) -> int:
    first = value
    while isinstance(first, (tuple, list)):
        first = first[0]
    return len(first)


def measure_case(pipeline: str, case: str, seconds: float) -> Result:
    """Run one case in this process: first-batch latency, then a timed window."""
    start = time.perf_counter()
    step = CASES[pipeline][case]()
    value = step()
    first = time.perf_counter() - start
    for _ in range(3):  # warm-up: fill the shuffle buffers and prefetches
        step()
    examples = nbytes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        value = step()
        examples += _examples(value)
        nbytes += _nbytes(value)
    elapsed = time.perf_counter() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    return Result(case, examples / elapsed, nbytes / elapsed / 1e6, first, rss)


def _run_worker(pipeline: str, case: str, seconds: float) -> Result:
    cmd = [sys.executable, "-m", "tf1_pipelines.bench", "--worker", pipeline, case, str(seconds)]
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"bench case {pipeline}/{case} failed:\n{done.stderr[-2000:]}")
    return Result(**json.loads(done.stdout.strip().splitlines()[-1]))


def run_bench(pipelines: list[str] | None = None, seconds: float = 3.0, rounds: int = 2,
              json_path: str | None = None) -> dict[str, list[Result]]:
    """Measure every case of the chosen pipelines; print a table with ratios."""
    names = pipelines or list(CASES)
    unknown = [n for n in names if n not in CASES]
    if unknown:
        raise SystemExit(f"no benchmark for {unknown}; have {sorted(CASES)}")
    best: dict[str, dict[str, Result]] = {n: {} for n in names}
    for _ in range(rounds):
        for name in names:
            for case in CASES[name]:
                result = _run_worker(name, case, seconds)
                old = best[name].get(case)
                if old is None or result.examples_per_s > old.examples_per_s:
                    best[name][case] = result
    for name in names:
        _print_table(name, best[name])
    if json_path:
        with open(json_path, "w") as handle:
            json.dump({n: [asdict(r) for r in best[n].values()] for n in names}, handle, indent=2)
    return {n: list(best[n].values()) for n in names}


def _print_table(name: str, results: dict[str, Result]) -> None:
    seed = results.get(SEED_CASE)
    floor = results.get(FLOOR_CASE)
    print(f"\n{name} (batch {BATCH}; best of rounds)")
    print(f"{'case':<26}{'examples/s':>12}{'MB/s':>9}{'first(s)':>10}{'RSS MB':>9}"
          f"{'x seed':>8}{'x floor':>9}")
    for case, r in results.items():
        vs_seed = r.examples_per_s / seed.examples_per_s if seed else float("nan")
        vs_floor = r.examples_per_s / floor.examples_per_s if floor else float("nan")
        print(f"{case:<26}{r.examples_per_s:>12.0f}{r.mb_per_s:>9.1f}{r.first_batch_s:>10.2f}"
              f"{r.peak_rss_mb:>9.0f}{vs_seed:>8.2f}{vs_floor:>9.2f}")


if __name__ == "__main__" and len(sys.argv) == 5 and sys.argv[1] == "--worker":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    outcome = measure_case(sys.argv[2], sys.argv[3], float(sys.argv[4]))
    print(json.dumps(asdict(outcome)))
