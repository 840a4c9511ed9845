"""Open, take one batch, close, over and over: does the process keep memory or threads?
``python -m tf1_pipelines.bench.cycles [--cycles N] [--every K] [--warmup W] [NAME[:BACKEND] ...]``.

Each pipeline x backend (all of them by default, on the embedded data) runs in a
fresh process: ``N`` cycles of ``load_pipeline`` / ``get_batch`` / ``close``, with
the resident set size (RSS, from ``/proc/self/statm``) sampled after the first cycle
and every ``K`` cycles. Prints, per case, the RSS after the first cycle, the growth
from there to the last cycle, the growth over the second half, the settled growth
(the lowest RSS over the last quarter minus the RSS after the first cycle), the
growth after the warm-up (below), and the Python threads left over. Nothing is collected or
trimmed by hand: the figures are what a user's loop sees.

Growth after the warm-up: the first cycles raise the allocator's high-water mark
(one-time caches, arenas reaching the size of the largest pipeline's buffers), and
after them the RSS wanders by about +-10 MB from cycle to cycle as freed buffers
leave holes of varying size in glibc's heaps, memory that later cycles reuse. A
leak raises the floor under that wandering; so this column is the lowest RSS over
the last quarter of the cycles after the first ``W`` (default: a tenth of them)
minus the lowest over their first quarter.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
from typing import Any

#: (label, pipeline, options): every pipeline x backend, each on its embedded data.
CASES: list[tuple[str, str, dict[str, Any]]] = [
    ("div2k_sr:tfrecords", "div2k_sr", {"backend": "tfrecords"}),
    ("div2k_sr:generator", "div2k_sr", {"backend": "generator", "one_img_patch_num": 4,
                                        "shuffle_num": 8}),
    ("voc_segmentation:queue", "voc_segmentation", {"backend": "queue"}),
    ("voc_segmentation:dataset", "voc_segmentation", {"backend": "dataset"}),
    ("inception_multilabel:queue", "inception_multilabel",
     {"backend": "queue", "examples_per_shard": 16, "input_queue_memory_factor": 1,
      "num_preprocess_threads": 4, "height": 96, "width": 96}),
    ("inception_multilabel:dataset", "inception_multilabel",
     {"backend": "dataset", "examples_per_shard": 16, "input_queue_memory_factor": 1,
      "num_preprocess_threads": 4, "height": 96, "width": 96}),
    ("stylegan_lod", "stylegan_lod", {"lod": 0, "shuffle_mb": 1, "prefetch_mb": 1}),
    ("random_patches", "random_patches", {}),
    ("feeding", "feeding", {}),
    ("constant", "constant", {}),
]


def rss_mb() -> float:
    """This process's resident set size in MiB (Linux)."""
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def cycle(name: str, options: dict[str, Any]) -> None:
    """One open / get_batch / close."""
    import tf1_pipelines as tp
    with tp.load_pipeline(name, batch_size=4, **options) as pipe:
        pipe.get_batch()


def run_cycles(name: str, options: dict[str, Any], cycles: int, every: int) -> dict[str, Any]:
    """In this process: ``cycles`` cycles; RSS samples [(cycle, MiB)] and the names of
    Python threads alive at the end that were not before."""
    before = {t.ident for t in threading.enumerate()}
    samples: list[tuple[int, float]] = []
    for number in range(1, cycles + 1):
        cycle(name, options)
        if number == 1 or number % every == 0 or number == cycles:
            samples.append((number, round(rss_mb(), 1)))
    left = [t.name for t in threading.enumerate() if t.ident not in before and t.is_alive()]
    return {"samples": samples, "threads_left": left}


def measure(label: str, cycles: int, every: int, timeout: float = 3600.0,
            arenas: int | None = None) -> dict[str, Any]:
    """``run_cycles`` of the case ``label`` in a fresh process (with glibc's malloc
    limited to ``arenas`` arenas when given: see ``tf1_pipelines.runtime.malloc_arenas``)."""
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
    limit = [] if arenas is None else ["--arenas", str(arenas)]
    done = subprocess.run([sys.executable, "-m", "tf1_pipelines.bench.cycles", "--worker", label,
                           "--cycles", str(cycles), "--every", str(every), *limit],
                          capture_output=True, text=True, env=env, timeout=timeout, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"{label}: the worker failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def warmup_cycles(cycles: int) -> int:
    """The default warm-up: a tenth of the cycles (at least 1)."""
    return max(1, cycles // 10)


def floor_growth(samples: list[tuple[int, float]], warmup: int) -> float:
    """The lowest RSS over the last quarter of the cycles after ``warmup`` minus the
    lowest over their first quarter (MiB); 0.0 if fewer than two samples follow."""
    after = [(number, mib) for number, mib in samples if number > warmup]
    if len(after) < 2:
        return 0.0
    span = after[-1][0] - warmup
    window = max(span // 4, 1)
    early = [mib for number, mib in after if number <= warmup + window]
    late = [mib for number, mib in after if number > after[-1][0] - window]
    return min(late) - min(early or [after[0][1]])


def settled_growth(samples: list[tuple[int, float]]) -> float:
    """The lowest RSS over the last quarter of the cycles minus the RSS after the
    first cycle (MiB): the growth, warm-up included, without the transient peaks."""
    last = samples[-1][0]
    late = [mib for number, mib in samples if number > last - max(last // 4, 1)]
    return min(late) - samples[0][1]


def summary(label: str, result: dict[str, Any], warmup: int) -> str:
    """One table row: RSS after cycle 1, growth to the end, growth over the second
    half, growth after the warm-up (:func:`floor_growth`), threads left."""
    samples = result["samples"]
    first, last = samples[0][1], samples[-1][1]
    middle = min(samples, key=lambda s: abs(s[0] - samples[-1][0] / 2))[1]
    return (f"{label:30s} {samples[-1][0]:5d} {first:9.1f} {last - first:+9.1f} "
            f"{last - middle:+9.1f} {settled_growth(samples):+9.1f} "
            f"{floor_growth(samples, warmup):+9.1f} "
            f"{len(result['threads_left']):8d}")


def main(argv: list[str]) -> int:
    """Run the chosen cases; 1 if any settled growth was 20 MiB or more or a case left a
    thread."""
    parser = argparse.ArgumentParser(prog="python -m tf1_pipelines.bench.cycles",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("cases", nargs="*", help="NAME[:BACKEND] labels (default: all: "
                        + ", ".join(label for label, _, _ in CASES) + ")")
    parser.add_argument("--cycles", type=int, default=200, help="cycles per case (default 200)")
    parser.add_argument("--every", type=int, default=5, help="sample RSS every K cycles "
                        "(default 5)")
    parser.add_argument("--warmup", type=int, default=None,
                        help="cycles left out of the growth after warm-up (default: a "
                             "tenth of --cycles)")
    parser.add_argument("--json", default=None, help="also write every case's RSS samples "
                        "and threads left to this JSON file (default: none)")
    parser.add_argument("--arenas", type=int, default=None,
                        help="limit glibc's malloc to N arenas first, as "
                             "tf1_pipelines.runtime.malloc_arenas does (default: no limit)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    known = {label: (name, options) for label, name, options in CASES}
    if args.worker:
        if args.arenas is not None:
            from tf1_pipelines.runtime.malloc_arenas import limit_malloc_arenas
            limit_malloc_arenas(args.arenas)
        name, options = known[args.worker]
        print(json.dumps(run_cycles(name, options, args.cycles, args.every)))
        return 0
    labels = args.cases or list(known)
    unknown = [label for label in labels if label not in known]
    if unknown:
        parser.error(f"unknown case {unknown}; known: {', '.join(known)}")
    warmup = warmup_cycles(args.cycles) if args.warmup is None else args.warmup
    print(f"{'case':30s} {'cycles':>5s} {'RSS@1 MiB':>9s} {'growth':>9s} {'2nd half':>9s} "
          f"{'settled':>9s} {'after ' + str(warmup):>9s} {'threads':>8s}")
    failed = False
    results = {}
    for label in labels:
        result = measure(label, args.cycles, args.every, arenas=args.arenas)
        results[label] = result
        print(summary(label, result, warmup), flush=True)
        samples = result["samples"]
        failed |= settled_growth(samples) >= 20 or bool(result["threads_left"])
    if args.json:
        with open(args.json, "w") as handle:
            json.dump({"cycles": args.cycles, "every": args.every, "warmup": warmup,
                       "arenas": args.arenas, "cases": results}, handle, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
