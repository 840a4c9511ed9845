"""``python -m tf1_pipelines bench``: every pipeline x backend on the embedded data, as ratios.

For each pipeline there are three kinds of case:

* the **seed formulation**: the seed's own code path through its legacy face
  (``DataLoader.read_tfrecords``, ``read_and_decode`` on a
  ``string_input_producer`` with Coordinator threads, ``batch_inputs``,
  ``TFRecordDataset.get_minibatch_np``, the answer's patch graph, a
  ``feed_dict`` loop over a ``DataProvider``, constants through
  ``slice_input_producer`` + ``tf.train.batch``), run by a plain ``sess.run``;
* the **floor**: read + parse only, batched the same way, no shuffling and no
  preprocessing - how fast the pipeline could be if its own work were free;
* one case per backend of the **uniform face** (``load_pipeline(name, backend=...)``
  read through ``get_batch()``), plus a few variants worth comparing.

Every case reports examples/s, MB/s (bytes of the numpy arrays delivered),
the first-batch latency (from building the graph to the first batch, queue
threads included) and the peak RSS, and each pipeline's cases are given as
ratios to its seed formulation (``x seed``) and to its floor (``x floor``),
since absolute rates vary from machine to machine.

How it is measured. A case builds its graph and session, takes its first batch
(that latency is reported on its own), runs a few warm-up batches (enough to
drain what its queues held when the timed window would start, within half the
measuring time) and then runs batches for ``seconds`` (at least
``MIN_TIMED_STEPS``). Queue threads are started before the first batch and
joined when the case ends. The cases alternate over ``rounds`` rounds
(pipeline by pipeline, case by case) and the best round of each case counts.

Isolation and peak RSS. Starting a Python process with TensorFlow takes 3-4 s,
which would eat the whole time budget, so on Linux the bench imports
TensorFlow once and forks a fresh child for every case (and for building the
data beforehand); the parent never creates a TensorFlow session, so each child
starts clean. A forked child's peak RSS starts from the RSS of the parent at
the fork (TensorFlow imported, about 230-260 MB) and grows with what the case
itself allocates, so ``peak RSS`` is per case: baseline + the case's own peak.
A child's stdout and stderr (TensorFlow's warnings, the notes of cancelled
enqueues when queue runners stop) go to a log that is shown only if the case
fails; a failed case is reported after the tables and left out of them.
Elsewhere each case runs in its own ``python -m tf1_pipelines.bench --worker``
subprocess, whose peak also holds TensorFlow's import-time peak.

Time budget. With the defaults (``DEFAULT_SECONDS`` s per case,
``DEFAULT_ROUNDS`` rounds, 28 cases) the whole run takes about two and a half
minutes on 2 cores (measured: 132 s with a load average of 2-3 from other work),
once the embedded data are built (the first run also builds them).
``scale=N`` multiplies the measuring time by N, adds N - 1 rounds, and repeats
the in-memory data sets (``feeding``, ``constant``) N times.
"""
from __future__ import annotations

import json
import math
import os
import resource
import select
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from tf1_pipelines.errors import ConfigError
from tf1_pipelines.records.writer import write_file_atomically

#: Batch size of the div2k_sr cases (the seed's).
BATCH = 64
VOC_BATCH = 2            # the seed's read_and_decode
INCEPTION_BATCH = 32
STYLEGAN_BATCH = 32
PATCHES_BATCH = 10       # the answer's
MEMORY_BATCH = 32        # feeding and constant
DEFAULT_SECONDS = 1.0
DEFAULT_ROUNDS = 2
MIN_TIMED_STEPS = 2
SEED_CASE = "seed formulation"
FLOOR_CASE = "floor (read+parse+batch)"
#: Seed 004's example queue scaled down (examples_per_shard x memory factor =
#: 256 instead of 16384, which a 27-image data set fills by cycling for seconds).
INCEPTION_QUEUE = {"examples_per_shard": 64, "input_queue_memory_factor": 4}
INCEPTION_THREADS = 16   # the seed's num_preprocess_threads
FLOOR_PARALLEL_CALLS = 4


@dataclass
class Result:
    """What one run of one case measured."""

    case: str
    examples_per_s: float
    mb_per_s: float
    first_batch_s: float
    peak_rss_mb: float
    steps: int = 0


def _nothing() -> None:
    """Nothing to release."""


@dataclass
class Case:
    """A case ready to run: ``step()`` returns one batch, ``close()`` releases
    threads and session. ``warmup``: batches run before the timed window (to
    drain what the queues held at the start). ``examples``: how many examples a
    step's value stands for (default: the length of its first array)."""

    step: Callable[[], Any]
    close: Callable[[], None] = _nothing
    warmup: int = 3
    examples: Callable[[Any], int] | None = None


CaseFactory = Callable[[int], Case]


@dataclass(frozen=True)
class PipelineBench:
    """The cases of one pipeline (name -> factory taking the data scale), which of
    them is the seed formulation and which the floor, and how to build the data."""

    batch: int
    cases: dict[str, CaseFactory]
    seed: str = SEED_CASE
    floor: str = FLOOR_CASE
    prepare: Callable[[], Any] = _nothing


# ----------------------------------------------------------------------- running graphs
def _tf() -> Any:
    import tensorflow as tf
    return tf


def _session_case(build: Callable[[], Any], warmup: int = 3,
                  examples: Callable[[Any], int] | None = None) -> Case:
    """Build tensors in a fresh graph; a case running them with ``sess.run``."""
    tf = _tf()
    graph = tf.Graph()
    with graph.as_default():
        fetches = build()
    sess = tf.compat.v1.Session(graph=graph)
    return Case(lambda: sess.run(fetches), sess.close, warmup, examples)


def _queue_session_case(build: Callable[[], Any], warmup: int) -> Case:
    """A TF1 queue graph run as the seeds ran it: initialise the variables, start
    the queue runners under a Coordinator, ``sess.run`` the batch; ``close``
    requests stop and joins the threads (the runners cancel pending enqueues)."""
    tf = _tf()
    tf1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default():
        fetches = build()
        init = tf.group(tf1.global_variables_initializer(), tf1.local_variables_initializer())
    sess = tf1.Session(graph=graph)
    sess.run(init)
    coord = tf1.train.Coordinator()
    with graph.as_default():
        threads = tf1.train.start_queue_runners(sess=sess, coord=coord)

    def close() -> None:
        coord.request_stop()
        try:
            coord.join(threads, stop_grace_period_secs=10)
        finally:
            sess.close()
    return Case(lambda: sess.run(fetches), close, warmup)


def _pipeline_case(name: str, warmup: int = 3, **options: Any) -> Case:
    """The uniform face: ``load_pipeline(name, **options)`` read by ``get_batch()``;
    its threads start on the first batch and stop on ``close()``."""
    import tf1_pipelines as tp
    pipeline = tp.load_pipeline(name, **options)
    return Case(pipeline.get_batch, pipeline.close, warmup)


def _pipeline_factory(name: str, warmup: int = 3, **options: Any) -> CaseFactory:
    return lambda scale: _pipeline_case(name, warmup, **options)


def _one_shot(dataset: Any) -> Any:
    from tf1_pipelines.inputs.dataset import one_shot
    return one_shot(dataset)


# --------------------------------------------------------------------- div2k_sr cases
def _div2k_records() -> str:
    """The embedded photographs' records, as ``load_pipeline("div2k_sr")`` uses them."""
    from tf1_pipelines.pipelines.div2k_sr import cached_records
    return cached_records()


def _div2k_seed(scale: int) -> Case:
    """The seed's read_tfrecords: per-example py_func PIL resize, per-example flips."""
    from tf1_pipelines.pipelines.div2k_sr import DataLoader
    record_dir = _div2k_records()
    return _session_case(lambda: DataLoader(batch_size=BATCH).read_tfrecords(record_dir))


def _div2k_per_example_native(scale: int) -> Case:
    """The seed's structure with the native resize in each map call."""
    from tf1_pipelines.pipelines.div2k_sr import DataLoader
    record_dir = _div2k_records()
    return _session_case(
        lambda: DataLoader(batch_size=BATCH, lr_method="native").read_tfrecords(record_dir))


def _div2k_floor(batched_parse: bool) -> CaseFactory:
    """Read + parse + batch only: no shuffle, no flips, no resize. The seed parses
    one record per map call; the batched floor parses a whole batch per call."""
    def make(scale: int) -> Case:
        tf = _tf()
        from tf1_pipelines.pipelines.div2k_sr import parse_patch, parse_patch_batch
        from tf1_pipelines.records.reader import list_record_files
        files = list_record_files(_div2k_records())

        def build() -> Any:
            dataset = tf.compat.v1.data.TFRecordDataset(files, buffer_size=1 << 20).repeat()
            if batched_parse:
                dataset = dataset.batch(BATCH).map(lambda x: parse_patch_batch(x, 96) / 255.0)
            else:
                dataset = dataset.map(lambda x: parse_patch(x, 96) / 255.0, 8).batch(BATCH)
            return _one_shot(dataset.prefetch(4))
        return _session_case(build)
    return make


def _div2k_pipeline(backend: str, lr_method: str) -> CaseFactory:
    def make(scale: int) -> Case:
        tfrecord_dir = _div2k_records() if backend == "tfrecords" else None
        return _pipeline_case("div2k_sr", backend=backend, lr_method=lr_method,
                              tfrecord_dir=tfrecord_dir, batch_size=BATCH)
    return make


# -------------------------------------------------------------- voc_segmentation cases
def _voc_files() -> list[str]:
    """The embedded VOC-like records (built on first use)."""
    from tf1_pipelines.pipelines.voc_segmentation import VocSegmentationPipeline
    return list(VocSegmentationPipeline().files)


def _voc_warmup() -> int:
    return 30 // VOC_BATCH + 2  # shuffle_batch capacity 30


def _voc_seed(scale: int) -> Case:
    """The seed: ``read_and_decode(string_input_producer(files))`` with its numbers
    (batch 2, capacity 30, 2 threads, min_after_dequeue 10), run with Coordinator
    threads. ``num_epochs=None`` instead of the seed's 10, so it never ends."""
    tf1 = _tf().compat.v1
    from tf1_pipelines.pipelines.voc_segmentation import read_and_decode
    files = _voc_files()

    def build() -> Any:
        filename_queue = tf1.train.string_input_producer(files, num_epochs=None)
        return read_and_decode(filename_queue)
    return _queue_session_case(build, _voc_warmup())


def _voc_floor(scale: int) -> Case:
    """Read + parse (``decode_raw`` of image and mask) + batch: the raw pixels of
    images of different sizes, padded to the largest of the batch; no crop-or-pad,
    no shuffle."""
    tf = _tf()
    tf1 = tf.compat.v1
    files = _voc_files()

    def parse(serialized: Any) -> tuple[Any, Any]:
        features = tf1.parse_single_example(serialized, {
            "image_raw": tf1.FixedLenFeature([], tf.string),
            "mask_raw": tf1.FixedLenFeature([], tf.string)})
        return (tf1.decode_raw(features["image_raw"], tf.uint8),
                tf1.decode_raw(features["mask_raw"], tf.uint8))

    def build() -> Any:
        dataset = tf1.data.TFRecordDataset(files).repeat() \
            .map(parse, FLOOR_PARALLEL_CALLS).padded_batch(VOC_BATCH).prefetch(1)
        return _one_shot(dataset)
    return _session_case(build)


# ---------------------------------------------------------- inception_multilabel cases
def _inception_dataset() -> Any:
    from tf1_pipelines.pipelines.inception_multilabel import Dataset, default_data_dir
    return Dataset("multilabel", "train", default_data_dir())


def _inception_seed(scale: int) -> Case:
    """The seed's ``batch_inputs(dataset, 32, train=True, levels, 16)``: 4 readers into
    a RandomShuffleQueue, 16 preprocessing branches into ``batch_join``."""
    from tf1_pipelines.pipelines.inception_multilabel import (DEFAULT_SEMANTIC_LEVEL_SETTINGS,
                                                              batch_inputs)
    dataset = _inception_dataset()

    def build() -> Any:
        return batch_inputs(dataset, INCEPTION_BATCH, True, DEFAULT_SEMANTIC_LEVEL_SETTINGS,
                            INCEPTION_THREADS, **INCEPTION_QUEUE)
    return _queue_session_case(build, warmup=3)


def _inception_floor(scale: int) -> Case:
    """Read + parse (``parse_example_proto``, ``decode_jpeg``) + batch (padded to the
    largest image of the batch): no crop, resize, flip or colour distortion."""
    tf = _tf()
    from tf1_pipelines.pipelines.inception_multilabel import (DEFAULT_SEMANTIC_LEVEL_SETTINGS,
                                                              parse_example_proto)
    files = _inception_dataset().data_files()

    def parse(serialized: Any) -> tuple[Any, Any, Any]:
        image_buffer, labels, filename = parse_example_proto(
            serialized, DEFAULT_SEMANTIC_LEVEL_SETTINGS)
        return tf.image.decode_jpeg(image_buffer, channels=3), tuple(labels), filename

    def build() -> Any:
        dataset = tf.compat.v1.data.TFRecordDataset(files).repeat() \
            .map(parse, FLOOR_PARALLEL_CALLS).padded_batch(INCEPTION_BATCH).prefetch(2)
        return _one_shot(dataset)
    return _session_case(build)


def _inception_pipeline(backend: str) -> CaseFactory:
    return _pipeline_factory("inception_multilabel", backend=backend,
                             batch_size=INCEPTION_BATCH, num_preprocess_threads=INCEPTION_THREADS,
                             **INCEPTION_QUEUE)


# ------------------------------------------------------------------ stylegan_lod cases
def _stylegan_dir() -> str:
    from tf1_pipelines.pipelines.stylegan_lod import sample_tfrecord_dir
    return sample_tfrecord_dir()


def _stylegan_seed(scale: int) -> Case:
    """The seed: ``TFRecordDataset(tfrecord_dir)`` with the original's defaults, read by
    ``get_minibatch_np(32, lod=0)`` in a default session (as after ``tflib.init_tf``)."""
    tf = _tf()
    from tf1_pipelines.pipelines.stylegan_lod import TFRecordDataset
    tfrecord_dir = _stylegan_dir()
    graph = tf.Graph()
    with graph.as_default():
        dataset = TFRecordDataset(tfrecord_dir)
    sess = tf.compat.v1.Session(graph=graph)
    default = sess.as_default()
    default.__enter__()

    def close() -> None:
        default.__exit__(None, None, None)
        sess.close()
    return Case(lambda: dataset.get_minibatch_np(STYLEGAN_BATCH, lod=0), close)


def _stylegan_floor(scale: int) -> Case:
    """Read + parse (``parse_tfrecord_tf``, 2 threads) + batch of the LOD-0 file."""
    tf1 = _tf().compat.v1
    from tf1_pipelines.pipelines.stylegan_lod import inspect_tfrecord_dir, parse_tfrecord_tf
    lod0_file = inspect_tfrecord_dir(_stylegan_dir()).file_for(0)

    def build() -> Any:
        dataset = tf1.data.TFRecordDataset(lod0_file).repeat() \
            .map(parse_tfrecord_tf, num_parallel_calls=2).batch(STYLEGAN_BATCH)
        return _one_shot(dataset)
    return _session_case(build)


# ---------------------------------------------------------------- random_patches cases
def _patch_files() -> list[str]:
    from tf1_pipelines.pipelines.random_patches import list_image_files, photographs_dir
    return list_image_files(photographs_dir())


def _patches_seed(scale: int) -> Case:
    """The answer's graph (``make_patch_batches``: 100 ``random_crop`` ops per image,
    unbatch, shuffle 5000, batch 10, prefetch 1, one-shot iterator), repeating
    instead of one pass so that it never ends."""
    from tf1_pipelines.pipelines.random_patches import patches_dataset
    files = _patch_files()
    return _session_case(lambda: _one_shot(patches_dataset(files, num_epochs=None)))


def _patches_floor(scale: int) -> Case:
    """Read + parse (``parse_fn``: read, decode, to float32) of one image per step,
    which stands for the 100 patches the pipeline cuts from it: the rate the
    pipeline would reach if cropping, shuffling and batching were free. Its MB/s
    counts the decoded images."""
    tf1 = _tf().compat.v1
    from tf1_pipelines.pipelines.random_patches import NUM_PATCHES, parse_fn
    files = _patch_files()

    def build() -> Any:
        dataset = tf1.data.Dataset.from_tensor_slices(files).repeat() \
            .map(parse_fn, num_parallel_calls=FLOOR_PARALLEL_CALLS).prefetch(1)
        return _one_shot(dataset)
    return _session_case(build, examples=lambda value: NUM_PATCHES)


# ------------------------------------------------------------- feeding / constant cases
def memory_arrays(scale: int = 1) -> dict[str, np.ndarray]:
    """The embedded in-memory sample (90 tiles of 32x32x3 and labels), repeated
    ``scale`` times."""
    from tf1_pipelines.pipelines.feeding import sample_arrays
    return {name: np.concatenate([array] * scale) for name, array in sample_arrays().items()}


class _SliceReader:
    """Consecutive batches of in-memory arrays, copied out in order (wrapping)."""

    def __init__(self, arrays: Sequence[np.ndarray], batch_size: int) -> None:
        self.arrays, self.batch_size = list(arrays), batch_size
        self.rows, self.position = len(self.arrays[0]), 0

    def __call__(self) -> tuple[np.ndarray, ...]:
        start = self.position if self.position + self.batch_size <= self.rows else 0
        self.position = start + self.batch_size
        return tuple(a[start:self.position].copy() for a in self.arrays)


def _feeding_seed(scale: int) -> Case:
    """Seed 004 section 1: a DataProvider shuffles the in-memory arrays each epoch and
    hands out a batch per step, which goes in through ``feed_dict``."""
    tf = _tf()
    from tf1_pipelines.inputs.feed import DataProvider, make_placeholders
    arrays = memory_arrays(scale)
    provider = DataProvider(arrays, MEMORY_BATCH, shuffle=True, num_epochs=None)
    graph = tf.Graph()
    with graph.as_default():
        placeholders = make_placeholders(arrays)
    sess = tf.compat.v1.Session(graph=graph)
    fetches = list(placeholders.arrays.values())
    return Case(lambda: sess.run(fetches, feed_dict=provider.feed_dict(placeholders)),
                sess.close)


def _feeding_floor(scale: int) -> Case:
    """Read only: in-order batches copied out of the arrays in numpy, no session."""
    return Case(_SliceReader(list(memory_arrays(scale).values()), MEMORY_BATCH))


def _constant_seed(scale: int) -> Case:
    """TF1's preloaded-data recipe: the arrays as ``tf.constant``, rows shuffled by
    ``slice_input_producer`` and batched by ``tf.train.batch``, with queue runners."""
    tf = _tf()
    tf1 = tf.compat.v1
    arrays = memory_arrays(scale)

    def build() -> Any:
        constants = [tf.constant(a) for a in arrays.values()]
        rows = tf1.train.slice_input_producer(constants, shuffle=True)
        return tf1.train.batch(rows, batch_size=MEMORY_BATCH)
    return _queue_session_case(build, warmup=3)


def _constant_floor(scale: int) -> Case:
    """Read only: the first batch of rows of the constants, fetched at every step."""
    tf = _tf()
    arrays = memory_arrays(scale)
    return _session_case(lambda: [tf.constant(a)[:MEMORY_BATCH] for a in arrays.values()])


def _memory_pipeline(name: str) -> CaseFactory:
    return lambda scale: _pipeline_case(name, arrays=memory_arrays(scale),
                                        batch_size=MEMORY_BATCH, num_epochs=None)


# ------------------------------------------------------------------------ the registry
def _prepare_voc() -> None:
    _voc_files()


def _prepare_inception() -> None:
    _inception_dataset()


BENCHES: dict[str, PipelineBench] = {
    "div2k_sr": PipelineBench(BATCH, {
        SEED_CASE: _div2k_seed,
        FLOOR_CASE: _div2k_floor(batched_parse=False),
        "floor, batched parse": _div2k_floor(batched_parse=True),
        "tfrecords native": _div2k_pipeline("tfrecords", "native"),
        "tfrecords py_func": _div2k_pipeline("tfrecords", "py_func"),
        "per-example native": _div2k_per_example_native,
        "generator native": _div2k_pipeline("generator", "native"),
        "generator py_func": _div2k_pipeline("generator", "py_func"),
    }, prepare=_div2k_records),
    "voc_segmentation": PipelineBench(VOC_BATCH, {
        SEED_CASE: _voc_seed,
        FLOOR_CASE: _voc_floor,
        "queue": _pipeline_factory("voc_segmentation", _voc_warmup(), backend="queue",
                                   batch_size=VOC_BATCH),
        "dataset": _pipeline_factory("voc_segmentation", backend="dataset",
                                     batch_size=VOC_BATCH),
    }, prepare=_prepare_voc),
    "inception_multilabel": PipelineBench(INCEPTION_BATCH, {
        SEED_CASE: _inception_seed,
        "floor (read+parse+decode+batch)": _inception_floor,
        "queue": _inception_pipeline("queue"),
        "dataset": _inception_pipeline("dataset"),
    }, floor="floor (read+parse+decode+batch)", prepare=_prepare_inception),
    "stylegan_lod": PipelineBench(STYLEGAN_BATCH, {
        SEED_CASE: _stylegan_seed,
        FLOOR_CASE: _stylegan_floor,
        "dataset (lod 0)": _pipeline_factory("stylegan_lod", batch_size=STYLEGAN_BATCH, lod=0),
    }, prepare=_stylegan_dir),
    "random_patches": PipelineBench(PATCHES_BATCH, {
        SEED_CASE: _patches_seed,
        "floor (read+decode, per image)": _patches_floor,
        "dataset one_shot": _pipeline_factory("random_patches", batch_size=PATCHES_BATCH,
                                              num_epochs=None),
        "dataset seeded (gather crops)": _pipeline_factory(
            "random_patches", batch_size=PATCHES_BATCH, num_epochs=None, seed=1),
    }, floor="floor (read+decode, per image)", prepare=_patch_files),
    "feeding": PipelineBench(MEMORY_BATCH, {
        SEED_CASE: _feeding_seed,
        "floor (numpy slices)": _feeding_floor,
        "feed": _memory_pipeline("feeding"),
    }, floor="floor (numpy slices)"),
    "constant": PipelineBench(MEMORY_BATCH, {
        SEED_CASE: _constant_seed,
        "floor (constant slice)": _constant_floor,
        "constant": _memory_pipeline("constant"),
    }, floor="floor (constant slice)"),
}

# -------------------------------------------------------------------------- measuring
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
    """This process's peak resident set size in MB."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2 ** 20 if sys.platform == "darwin" else peak / 1024.0


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
    first-batch latency), warm up, then time batches for ``seconds``; close it."""
    factory = _case_factory(pipeline, case)
    start = time.perf_counter()
    running = factory(scale)
    try:
        running.step()
        first = time.perf_counter() - start
        _warm_up(running, seconds / 2)
        examples, nbytes, steps, elapsed = _timed_window(running, seconds)
    finally:
        running.close()
    return Result(case, examples / elapsed, nbytes / elapsed / 1e6, first, peak_rss_mb(), steps)


def _case_factory(pipeline: str, case: str) -> CaseFactory:
    if pipeline not in BENCHES:
        raise ValueError(f"no benchmark for pipeline {pipeline!r}; have {sorted(BENCHES)}")
    cases = BENCHES[pipeline].cases
    if case not in cases:
        raise ValueError(f"pipeline {pipeline!r} has no case {case!r}; have {list(cases)}")
    return cases[case]


# -------------------------------------------------------------------------- isolation
def _can_fork() -> bool:
    return sys.platform.startswith("linux") and hasattr(os, "fork")


def _child_main(write_fd: int, log_fd: int, task: Callable[[], Any]) -> None:
    """In a forked child: send stdout and stderr (TensorFlow's warnings, the
    cancelled-enqueue notes of stopping queue runners) to the log file, run
    ``task``, send its JSON outcome, exit without cleanup."""
    code = 0
    os.dup2(log_fd, 1)
    os.dup2(log_fd, 2)
    try:
        outcome: dict[str, Any] = {"value": task()}
    except BaseException:  # noqa: BLE001 - everything goes back to the parent
        outcome, code = {"error": traceback.format_exc()}, 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        with os.fdopen(write_fd, "w") as pipe:
            json.dump(outcome, pipe)
    finally:
        os._exit(code)


def _read_child(read_fd: int, pid: int, timeout: float) -> str:
    """Everything the child writes, or RuntimeError (child killed) after ``timeout``."""
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    with os.fdopen(read_fd, "rb") as pipe:
        while True:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([pipe], [], [], max(0.0, left))
            if not ready:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                raise RuntimeError(f"no answer within {timeout:.0f} s; the case was killed")
            chunk = os.read(pipe.fileno(), 1 << 16)
            if not chunk:
                return b"".join(chunks).decode()
            chunks.append(chunk)


def run_forked(task: Callable[[], Any], timeout: float) -> Any:
    """``task()`` run in a forked child; its JSON-able return value, or RuntimeError
    carrying the child's traceback and the end of its output."""
    sys.stdout.flush()
    sys.stderr.flush()
    with tempfile.TemporaryFile() as log:
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_fd)
            _child_main(write_fd, log.fileno(), task)
        os.close(write_fd)
        try:
            text = _read_child(read_fd, pid, timeout)
            os.waitpid(pid, 0)
        except RuntimeError as exc:
            raise RuntimeError(f"{exc}\n{_tail(log)}") from None
        outcome = json.loads(text) if text else {"error": "the child died without an answer"}
        if "error" in outcome:
            raise RuntimeError(f"{outcome['error']}\noutput of the case:\n{_tail(log)}")
    return outcome["value"]


def _tail(log: Any, size: int = 2000) -> str:
    """The last ``size`` bytes of a child's log file."""
    log.seek(0, os.SEEK_END)
    log.seek(max(0, log.tell() - size))
    return log.read().decode("utf-8", "replace")


def _run_worker(pipeline: str, case: str, seconds: float, scale: int, timeout: float) -> Result:
    """One case in a fresh ``python -m tf1_pipelines.bench --worker`` process."""
    cmd = [sys.executable, "-m", "tf1_pipelines.bench", "--worker", pipeline, case,
           str(seconds), str(scale)]
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    return Result(**json.loads(done.stdout.strip().splitlines()[-1]))


def measure_isolated(pipeline: str, case: str, seconds: float, scale: int = 1) -> Result:
    """One case in a process of its own (forked on Linux, else a subprocess)."""
    timeout = 120.0 + 20.0 * seconds
    if _can_fork():
        return Result(**run_forked(lambda: asdict(measure_case(pipeline, case, seconds, scale)),
                                   timeout))
    return _run_worker(pipeline, case, seconds, scale, timeout)


def _prepare(name: str) -> None:
    """Build the pipeline's embedded data before anything is timed."""
    prepare = BENCHES[name].prepare
    if _can_fork():
        run_forked(lambda: _discard(prepare()), timeout=900.0)
    else:
        prepare()


def _discard(value: Any) -> None:
    """Nothing: what a preparation returns stays in its child."""


# ---------------------------------------------------------------------------- running
@dataclass
class _Failure:
    pipeline: str
    case: str
    message: str


@dataclass
class _Progress:
    best: dict[str, dict[str, Result]] = field(default_factory=dict)
    failures: list[_Failure] = field(default_factory=list)

    def record(self, pipeline: str, result: Result) -> None:
        old = self.best[pipeline].get(result.case)
        if old is None or result.examples_per_s > old.examples_per_s:
            self.best[pipeline][result.case] = result


def _check_names(pipelines: Sequence[str] | None) -> list[str]:
    names = list(pipelines) if pipelines else list(BENCHES)
    unknown = [n for n in names if n not in BENCHES]
    if unknown:
        raise ConfigError(f"no benchmark for {unknown}; have {sorted(BENCHES)}")
    return names


def _run_round(names: list[str], seconds: float, scale: int, progress: _Progress,
               label: str) -> None:
    for name in names:
        print(f"{label}: {name}", file=sys.stderr, flush=True)
        for case in BENCHES[name].cases:
            if any(f.pipeline == name and f.case == case for f in progress.failures):
                continue
            try:
                progress.record(name, measure_isolated(name, case, seconds, scale))
            except (RuntimeError, subprocess.TimeoutExpired) as exc:
                progress.failures.append(_Failure(name, case, str(exc)))


def _load_average() -> str:
    try:
        return "/".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def run_bench(pipelines: Sequence[str] | None = None, seconds: float | None = None,
              rounds: int | None = None, json_path: str | None = None,
              plot_path: str | None = None, scale: int = 1) -> dict[str, list[Result]]:
    """Measure every case of the chosen pipelines (default: all) in alternating
    rounds; print one table per pipeline with the ratios; optionally write JSON
    and a PNG plot. ``scale`` multiplies seconds and in-memory data, adds rounds.

    Returns pipeline -> best Result per case (cases that failed are left out and
    reported on stderr)."""
    names = _check_names(pipelines)
    if scale < 1:
        raise ConfigError(f"scale must be a whole number >= 1, got {scale}")
    seconds = (DEFAULT_SECONDS if seconds is None else seconds) * scale
    rounds = (DEFAULT_ROUNDS if rounds is None else rounds) + scale - 1
    if seconds <= 0 or rounds < 1:
        raise ConfigError(f"seconds must be > 0 and rounds >= 1, got {seconds} and {rounds}")
    started, load_before = time.perf_counter(), _load_average()
    for name in names:
        _prepare(name)
    progress = _Progress(best={n: {} for n in names})
    for index in range(rounds):
        _run_round(names, seconds, scale, progress, f"round {index + 1}/{rounds}")
    results = {n: [progress.best[n][c] for c in BENCHES[n].cases if c in progress.best[n]]
               for n in names}
    print(format_tables(results))
    print(f"\n{seconds:g} s per case, best of {rounds} rounds, scale {scale}; wall time "
          f"{time.perf_counter() - started:.0f} s; load average (1/5/15 min) before "
          f"{load_before}, after {_load_average()}; {os.cpu_count()} CPUs")
    _report_failures(progress.failures)
    if json_path:
        write_json(results, json_path)
    if plot_path:
        plot_results(results, plot_path)
    return results


def _report_failures(failures: list[_Failure]) -> None:
    for failure in failures:
        print(f"\nFAILED {failure.pipeline} / {failure.case}:\n{failure.message[-4000:]}",
              file=sys.stderr)


# ---------------------------------------------------------------------------- reports
def _seed_and_floor(pipeline: str, cases: Sequence[str]) -> tuple[str, str]:
    """Which cases are the seed formulation and the floor (by name when the
    pipeline is unknown: ``seed formulation`` and the first ``floor...``)."""
    if pipeline in BENCHES:
        return BENCHES[pipeline].seed, BENCHES[pipeline].floor
    floors = [c for c in cases if c.startswith("floor")] or [FLOOR_CASE]
    return SEED_CASE, floors[0]


def ratios(pipeline: str, results: Sequence[Result]) -> dict[str, tuple[float, float]]:
    """case -> (rate / seed formulation's rate, rate / floor's rate); NaN when
    the seed or floor case is missing."""
    by_case = {r.case: r for r in results}
    seed_name, floor_name = _seed_and_floor(pipeline, list(by_case))
    seed, floor = by_case.get(seed_name), by_case.get(floor_name)
    return {r.case: (r.examples_per_s / seed.examples_per_s if seed else math.nan,
                     r.examples_per_s / floor.examples_per_s if floor else math.nan)
            for r in results}


def format_tables(results: Mapping[str, Sequence[Result]]) -> str:
    """One text table per pipeline: rates, first-batch latency, peak RSS, ratios."""
    lines: list[str] = []
    for name, rows in results.items():
        batch = BENCHES[name].batch if name in BENCHES else "?"
        lines.append(f"\n{name} (batch {batch}; best of rounds)")
        lines.append(f"{'case':<34}{'examples/s':>11}{'MB/s':>9}{'first(s)':>9}"
                     f"{'RSS MB':>8}{'x seed':>8}{'x floor':>8}")
        for r in rows:
            vs_seed, vs_floor = ratios(name, rows)[r.case]
            lines.append(f"{r.case:<34}{r.examples_per_s:>11.0f}{r.mb_per_s:>9.1f}"
                         f"{r.first_batch_s:>9.2f}{r.peak_rss_mb:>8.0f}{vs_seed:>8.2f}"
                         f"{vs_floor:>8.3f}")
    return "\n".join(lines)


def write_json(results: Mapping[str, Sequence[Result]], path: str) -> None:
    """``{pipeline: [{case, examples_per_s, ..., x_seed, x_floor}, ...]}``."""
    out = {}
    for name, rows in results.items():
        table = ratios(name, rows)
        out[name] = [dict(asdict(r), x_seed=table[r.case][0], x_floor=table[r.case][1])
                     for r in rows]
    def write(partial: str) -> None:
        with open(partial, "w", encoding="utf-8") as handle:
            json.dump(out, handle, indent=2)
    write_file_atomically(path, write)


def plot_results(results: Mapping[str, Sequence[Result]], path: str) -> None:
    """A horizontal bar chart of examples/s (log scale), one bar per case, grouped
    and coloured by pipeline, each bar annotated with its x-seed and x-floor
    ratios; saved as PNG. Uses Matplotlib's Agg canvas, no global state."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    rows = [(name, r) for name, group in results.items() for r in group]
    figure = Figure(figsize=(11, 0.32 * len(rows) + 0.35 * len(results) + 1.5))
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    axes.set_xscale("log")
    _draw_bars(axes, results)
    axes.set_xlabel("examples/s (log scale; best of rounds)")
    axes.set_title("tf1_pipelines bench: every pipeline x backend on the embedded data")
    axes.invert_yaxis()
    figure.tight_layout()
    write_file_atomically(path, lambda partial: figure.savefig(partial, format="png", dpi=110))


def _draw_bars(axes: Any, results: Mapping[str, Sequence[Result]]) -> None:
    """Bars, labels and ratio annotations, pipeline groups separated by a gap."""
    colours = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown",
               "tab:pink", "tab:gray", "tab:olive", "tab:cyan"]
    positions, labels, top = [], [], 0.0
    rates = [r.examples_per_s for g in results.values() for r in g if r.examples_per_s > 0]
    base = min(rates, default=1.0) / 3.0  # bars start here: a log axis has no zero
    for index, (name, group) in enumerate(results.items()):
        seed_name, floor_name = _seed_and_floor(name, [r.case for r in group])
        table = ratios(name, group)
        for r in group:
            hatch = "//" if r.case == seed_name else (".." if r.case == floor_name else None)
            axes.barh(top, max(r.examples_per_s - base, 0.0), left=base,
                      color=colours[index % len(colours)], hatch=hatch, edgecolor="black",
                      linewidth=0.4)
            vs_seed, vs_floor = table[r.case]
            axes.text(r.examples_per_s * 1.08, top, f"{vs_seed:.2f}x seed, {vs_floor:.3f}x floor",
                      va="center", fontsize=7)
            positions.append(top)
            labels.append(f"{name}: {r.case}")
            top += 1.0
        top += 0.6
    axes.set_yticks(positions)
    axes.set_yticklabels(labels, fontsize=7)
    axes.set_xlim(base, max(rates, default=1.0) * 30)
    _hatch_legend(axes)


def _hatch_legend(axes: Any) -> None:
    """Which hatch marks the seed formulation and which the floor."""
    from matplotlib.patches import Patch
    axes.legend(handles=[Patch(facecolor="white", edgecolor="black", hatch="//",
                               label="seed formulation"),
                         Patch(facecolor="white", edgecolor="black", hatch="..",
                               label="floor (read + parse)")],
                loc="lower right", fontsize=8)


def _worker_main(argv: list[str]) -> int:
    """``--worker PIPELINE CASE SECONDS [SCALE]``: print one Result as JSON."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    scale = int(argv[3]) if len(argv) > 3 else 1
    print(json.dumps(asdict(measure_case(argv[0], argv[1], float(argv[2]), scale))))
    return 0


if __name__ == "__main__" and len(sys.argv) >= 5 and sys.argv[1] == "--worker":
    sys.exit(_worker_main(sys.argv[2:]))
