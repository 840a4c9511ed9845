"""Open / get_batch / close in a loop keeps neither graphs nor sessions nor threads.

A closed pipeline's graph (a web of reference cycles) used to wait for Python's full
garbage collection, which runs rarely: the graphs of the last twenty or so cycles
stayed alive, and their memory came back too scattered to return to the system
(voc_segmentation queue: RSS +61 MB after 50 cycles). ``python -m
tf1_pipelines.bench.cycles`` measures the RSS over 200 cycles of every pipeline."""
from __future__ import annotations

import gc
import os
import threading
import weakref
from typing import Any

import numpy as np
import pytest
import tensorflow as tf

import tf1_pipelines as tp
from tf1_pipelines.records.features import bytes_feature, example, int64_feature
from tf1_pipelines.runtime import graph_reclaim

CYCLES = 6


def write_voc(root: str) -> None:
    with tf.io.TFRecordWriter(os.path.join(root, "part-0.tfrecords")) as writer:
        for record_id in range(12):
            img = np.full((8, 8, 3), record_id, np.uint8)
            writer.write(example({"height": int64_feature(8), "width": int64_feature(8),
                                  "image_raw": bytes_feature(img.tobytes()),
                                  "mask_raw": bytes_feature(img[:, :, 0].tobytes())}
                                 ).SerializeToString())


@pytest.mark.timeout(150)
def test_cycles_keep_no_graph_session_or_thread(tmp_path: Any) -> None:
    write_voc(str(tmp_path))
    baseline = threading.active_count()
    graphs: list[weakref.ref[Any]] = []
    sessions: list[weakref.ref[Any]] = []
    # Python's own full collections come at moments that depend on the whole process
    # (every few cycles at first, every 30 or more later): switched off here, so that
    # what is measured is what the pipelines free by themselves.
    gc.disable()
    try:
        most_alive = run_cycles(str(tmp_path), baseline, graphs, sessions)
    finally:
        gc.enable()
    # Before: every graph stayed alive until Python's next full collection (6 of 6 here).
    assert most_alive <= graph_reclaim.MAX_WAITING + 1


def run_cycles(root: str, baseline: int, graphs: list[weakref.ref[Any]],
               sessions: list[weakref.ref[Any]]) -> int:
    """CYCLES open / get_batch / close; the most graphs alive after any of them."""
    most_alive = 0
    for _ in range(CYCLES):
        with tp.load_pipeline("voc_segmentation", tfrecords=root, backend="queue",
                              batch_size=2, image_height=8, image_width=8) as pipe:
            assert pipe.get_batch().image.shape == (2, 8, 8, 3)
            graphs.append(weakref.ref(pipe.graph))
            sessions.append(weakref.ref(pipe.session))
        del pipe
        assert threading.active_count() == baseline
        # Sessions go with their last reference; graphs wait for a collection.
        assert [s for s in sessions if s() is not None] == []
        most_alive = max(most_alive, sum(g() is not None for g in graphs))
    return most_alive


#: Measurements of the same case a test may take; it passes on the best. A leak
#: grows the RSS in every run, so it still fails every attempt; the wandering of a
#: loaded machine (another process's burst in the window) rarely hits three in a row.
ATTEMPTS = 3


def best_of(attempts: int, run: Any, growth: Any, bound: float) -> tuple[float, list[Any]]:
    """Run ``run()`` until ``growth(result)`` is under ``bound`` or ``attempts`` runs
    are done; returns the smallest growth and every result (for the message)."""
    results = []
    for _ in range(attempts):
        results.append(run())
        if growth(results[-1]) < bound:
            break
    return min(growth(r) for r in results), results


@pytest.mark.timeout(700)
def test_with_two_malloc_arenas_cycles_stay_flat() -> None:
    # Measured without the limit: +83 MB over 60 cycles of this case, nothing leaked
    # (the memory is scattered over glibc's per-thread arenas); with it, under 10 MB.
    from tf1_pipelines.bench.cycles import measure

    def growth(result: dict[str, Any]) -> float:
        (_, first), (_, last) = result["samples"][0], result["samples"][-1]
        return float(last - first)

    best, results = best_of(
        ATTEMPTS, lambda: measure("div2k_sr:tfrecords", cycles=40, every=10, timeout=200,
                                  arenas=2), growth, 20)
    assert best < 20, [r["samples"] for r in results]
    assert all(r["threads_left"] == [] for r in results)


#: The worst cases of the 200-cycle table before their fixes (+85.7 MB and +21.8 MB
#: over 100 cycles with two arenas): random_patches kept a 14 MB graph per closed
#: pipeline (a loop of 1,500 crop ops) until the collector ran.
WORST_CASES = ["random_patches", "voc_segmentation:dataset"]
SHORT_CYCLES, SHORT_WARMUP = 40, 10
#: The bound on the growth after the warm-up in a 40-cycle run. Proportional to the
#: deliverable's (20 MB over 200 cycles) it would be 4 MB, but the floor under the
#: RSS's cycle-to-cycle wandering itself moves by up to ~6 MB between two windows
#: of a short run (measured: 5.7 MB once in a 50-cycle run of random_patches); 10 MB
#: still fails a leak of a quarter of a MB per cycle (the 14 MB graph kept per
#: closed random_patches pipeline before, or any leak of 50 MB per 200 cycles).
SHORT_BOUND_MB = 10.0


@pytest.mark.timeout(700)
@pytest.mark.parametrize("label", WORST_CASES)
def test_worst_cases_stay_flat_after_warm_up(label: str) -> None:
    # 40 cycles instead of the deliverable's 200 (test time). From the first cycle,
    # warm-up included, the floor of the last quarter must stay under the full 20 MB
    # (the floor, not the last sample: one sample can sit on a transient peak of the
    # wandering, measured up to +37 MB in a 200-cycle run of the voc dataset backend
    # whose floor grew by 1.4 MB).
    # On a loaded machine (two cores shared) one run in four of the voc dataset case
    # went over the bound with no leak: the best of ATTEMPTS runs counts.
    from tf1_pipelines.bench.cycles import floor_growth, measure, settled_growth

    def excess(result: dict[str, Any]) -> float:
        """How far past its bound the worse of the two growths is (< 0: within)."""
        samples = result["samples"]
        return max(settled_growth(samples) - 20, floor_growth(samples, SHORT_WARMUP)
                   - SHORT_BOUND_MB)

    best, results = best_of(
        ATTEMPTS, lambda: measure(label, cycles=SHORT_CYCLES, every=1, timeout=220, arenas=2),
        excess, 0.0)
    assert best < 0, [r["samples"] for r in results]
    assert all(r["threads_left"] == [] for r in results)


def test_floor_growth_sees_a_rising_floor_and_not_a_wandering_one() -> None:
    from tf1_pipelines.bench.cycles import floor_growth
    wandering = [(n, 700.0 + (n * 7919) % 23) for n in range(1, 201)]  # 700..722, no trend
    assert floor_growth(wandering, 20) < 1
    leaking = [(n, mib + 0.1 * n) for n, mib in wandering]  # +0.1 MB per cycle
    assert 10 < floor_growth(leaking, 20) < 20
    assert floor_growth([(1, 700.0)], 20) == 0.0
    # settled: the floor of the last quarter (cycles 151..200) against cycle 1
    from tf1_pipelines.bench.cycles import settled_growth
    peak_at_end = [(1, 690.0), *wandering[1:-1], (200, 760.0)]
    assert 9 < settled_growth(peak_at_end) < 11


def test_limit_malloc_arenas_checks_its_count() -> None:
    from tf1_pipelines.errors import ConfigError
    from tf1_pipelines.runtime.malloc_arenas import limit_malloc_arenas
    with pytest.raises(ConfigError, match="count must be a whole number >= 1, got 0"):
        limit_malloc_arenas(0)
