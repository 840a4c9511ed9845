"""Measuring one case in this process: first-batch latency, warm-up, a timed window
of batches; examples/s, MB/s and peak RSS."""
from __future__ import annotations

import resource
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from tf1_pipelines.bench.cases import Case, case_factory, one_shot, session_case, tensorflow

MIN_TIMED_STEPS = 2


@dataclass
class Result:
    """What one run of one case measured."""

    case: str
    examples_per_s: float
    mb_per_s: float
    first_batch_s: float
    peak_rss_mb: float
    steps: int = 0
    #: peak RSS minus the RSS before the case was built: what running it held
    held_mb: float = 0.0
    #: what the case's buffers and in-graph data declare (0: not declared)
    declared_mb: float = 0.0


def _nbytes(value: Any) -> int:
    if isinstance(value, np.ndarray):
        if value.dtype == object:
            return sum(len(v) for v in value.ravel() if isinstance(v, (bytes, str)))
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


def peak_rss_mb() -> float:
    """This process's peak resident set size in MB: Linux's ``VmHWM`` (which
    :func:`reset_peak_rss` can lower), else ``ru_maxrss``."""
    peak_mb = _status_mb("VmHWM")
    if peak_mb:
        return peak_mb
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2 ** 20 if sys.platform == "darwin" else peak / 1024.0


def reset_peak_rss() -> bool:
    """Lower this process's peak RSS to its current RSS (Linux: ``5`` written to
    ``/proc/self/clear_refs``), so that a forked child measures its own peak, not
    the parent's. False where that cannot be done."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as clear_refs:
            clear_refs.write("5")
    except OSError:
        return False
    return True


def _status_mb(field: str) -> float:
    """A ``kB`` field of Linux's ``/proc/self/status`` in MB; 0 where there is none."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024.0
    except (OSError, ValueError, IndexError):
        pass
    return 0.0


def current_rss_mb() -> float:
    """This process's resident set size now, in MB (Linux ``/proc``; 0 elsewhere)."""
    return _status_mb("VmRSS")


def file_rss_mb() -> float:
    """The part of the RSS that maps files (shared libraries first of all), in MB."""
    return _status_mb("RssFile")


def held_above(before_rss: float, before_file: float) -> float:
    """The peak RSS since :func:`reset_peak_rss` above ``before_rss``, less the file
    pages touched since (a forked child faults in the library code it runs: page
    cache shared with the parent, not memory the case holds)."""
    file_growth = max(0.0, file_rss_mb() - before_file)
    return max(0.0, peak_rss_mb() - before_rss - file_growth)


def _warm_up(case: Case, budget_s: float) -> None:
    """Up to ``case.warmup`` batches, stopping once ``budget_s`` seconds have passed."""
    start = time.perf_counter()
    for _ in range(case.warmup):
        if time.perf_counter() - start >= budget_s:
            return
        case.step()


def _timed_window(case: Case, seconds: float) -> tuple[int, int, int, float]:
    """``(examples, bytes, steps, elapsed seconds)`` of batches run for ``seconds``
    (and at least ``MIN_TIMED_STEPS`` batches)."""
    count = case.examples or _examples
    examples = nbytes = steps = 0
    start = time.perf_counter()
    while steps < MIN_TIMED_STEPS or time.perf_counter() - start < seconds:
        value = case.step()
        examples += count(value)
        nbytes += _nbytes(value)
        steps += 1
    return examples, nbytes, steps, time.perf_counter() - start


def measure_case(pipeline: str, case: str, seconds: float, scale: int = 1) -> Result:
    """Run one case in this process: build it and take the first batch (the
    first-batch latency), warm up, then time batches for ``seconds``; close it.
    ``held_mb``: the peak RSS while it ran above the RSS once it was built, less
    the file pages it touched (:func:`held_above`; 0 where the peak cannot be
    reset, e.g. outside Linux)."""
    factory = case_factory(pipeline, case)
    return _measure(case, lambda: factory(scale), seconds)


def _measure(name: str, build: Callable[[], Case], seconds: float) -> Result:
    """Build a case, take its first batch, warm up, time it, close it. What it
    holds is counted from the end of the build (which may make its data in numpy,
    e.g. tiles cut from photographs) to the end of the timed window."""
    start = time.perf_counter()
    running = build()
    before = current_rss_mb() if reset_peak_rss() else 0.0
    before_file = file_rss_mb()
    try:
        running.step()
        first = time.perf_counter() - start
        _warm_up(running, seconds / 2)
        examples, nbytes, steps, elapsed = _timed_window(running, seconds)
    finally:
        running.close()
    return Result(name, examples / elapsed, nbytes / elapsed / 1e6, first, peak_rss_mb(), steps,
                  held_mb=held_above(before, before_file) if before else 0.0,
                  declared_mb=running.declared_mb)


def runtime_held_mb(seconds: float = 1.0) -> float:
    """What the harness and TensorFlow's runtime hold by themselves (MB, as
    ``held_mb``): a case of tiny batches (32 int64) from a one-shot iterator,
    measured like every case; 0 where the peak cannot be reset."""
    def build() -> Case:
        tf = tensorflow()
        return session_case(
            lambda: one_shot(tf.compat.v1.data.Dataset.range(10 ** 9).batch(32).prefetch(2)))
    return _measure("runtime", build, seconds).held_mb
