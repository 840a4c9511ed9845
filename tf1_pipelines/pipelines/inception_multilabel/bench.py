"""Seed 004's benchmark cases: the seed's ``batch_inputs`` (4 readers, 16
preprocessing branches into ``batch_join``), the floor (read + parse + decode +
padded batch), the uniform face's queue and dataset backends.

Internals are imported inside each case, as the harness always did: discovery
stays cheap, and each case's first-batch latency still includes what it imports
in the process that measures it.
"""
from __future__ import annotations

from typing import Any

from tf1_pipelines.bench.cases import (
    FLOOR_PARALLEL_CALLS,
    SEED_CASE,
    Case,
    CaseFactory,
    PipelineBench,
    floor_case,
    megabytes,
    one_shot,
    pipeline_factory,
    queue_session_case,
    tensorflow,
)

INCEPTION_BATCH = 32
#: Seed 004's example queue scaled down (examples_per_shard x memory factor =
#: 256 instead of 16384, which a 27-image data set fills by cycling for seconds).
INCEPTION_QUEUE: dict[str, Any] = {"examples_per_shard": 64, "input_queue_memory_factor": 4}
INCEPTION_THREADS = 16   # the seed's num_preprocess_threads
# Declared memory on the embedded data (27 JPEGs of 10.5 KB, at most 240 x 160; an
# example is 299 x 299 x 3 float32, 1.07 MB; a batch 34 MB): the example queue of
# 256 + 3 x 32 records; per preprocessing thread the decoded image, the crop, the
# resized image and the colour ops' copies (about 6 MB); batch_join's capacity of
# 2 x 16 x 32 examples (the seed's); batches handed over and with the caller. The
# dataset backend holds the records once (in the graph and the session), shuffles
# 256 ids, and has a batch in the making besides those handed over.
_EXAMPLE = 299 * 299 * 3 * 4
_BATCH = INCEPTION_BATCH * _EXAMPLE
_RECORDS = 27 * 10_500
_THREADS_WORK = INCEPTION_THREADS * 6_000_000
_HANDED = 3
_QUEUE_MB = megabytes((256 + 3 * INCEPTION_BATCH) * 10_500, _THREADS_WORK,
                      2 * INCEPTION_THREADS * _BATCH, _HANDED * _BATCH)
_DATASET_MB = megabytes(2 * _RECORDS, 256 * 8, _THREADS_WORK, (2 + _HANDED) * _BATCH)
_FLOOR_MB = megabytes(FLOOR_PARALLEL_CALLS * 240 * 160 * 3,
                      (1 + 2 + _HANDED) * INCEPTION_BATCH * 240 * 160 * 3)


def _inception_dataset() -> Any:
    from .graph import Dataset
    from .sample import default_data_dir
    return Dataset("multilabel", "train", default_data_dir())


def _inception_seed(scale: int) -> Case:
    """The seed's ``batch_inputs(dataset, 32, train=True, levels, 16)``: 4 readers into
    a RandomShuffleQueue, 16 preprocessing branches into ``batch_join``."""
    from .legacy import batch_inputs
    from .sample import DEFAULT_SEMANTIC_LEVEL_SETTINGS
    dataset = _inception_dataset()

    def build() -> Any:
        return batch_inputs(dataset, INCEPTION_BATCH, True, DEFAULT_SEMANTIC_LEVEL_SETTINGS,
                            INCEPTION_THREADS, **INCEPTION_QUEUE)
    return queue_session_case(build, warmup=3, declared_mb=_QUEUE_MB)


def _inception_floor(scale: int) -> Case:
    """Read + parse (``parse_example_proto``, ``decode_jpeg``) + batch (padded to the
    largest image of the batch): no crop, resize, flip or colour distortion."""
    tf = tensorflow()
    from .graph import parse_example_proto
    from .sample import DEFAULT_SEMANTIC_LEVEL_SETTINGS
    files = _inception_dataset().data_files()

    def parse(serialized: Any) -> tuple[Any, Any, Any]:
        image_buffer, labels, filename = parse_example_proto(
            serialized, DEFAULT_SEMANTIC_LEVEL_SETTINGS)
        return tf.image.decode_jpeg(image_buffer, channels=3), tuple(labels), filename

    def build() -> Any:
        dataset = tf.compat.v1.data.TFRecordDataset(files).repeat() \
            .map(parse, FLOOR_PARALLEL_CALLS).padded_batch(INCEPTION_BATCH).prefetch(2)
        return one_shot(dataset)
    return floor_case(build, declared_mb=_FLOOR_MB)


def _inception_pipeline(backend: str) -> CaseFactory:
    declared = _QUEUE_MB if backend == "queue" else _DATASET_MB
    return pipeline_factory("inception_multilabel", declared_mb=declared, backend=backend,
                            batch_size=INCEPTION_BATCH, num_preprocess_threads=INCEPTION_THREADS,
                             **INCEPTION_QUEUE)


def _large_blocks(backend: str) -> CaseFactory:
    """A backend in a process whose ``malloc`` keeps the 34 MB batches in its heap
    (:func:`tf1_pipelines.runtime.large_blocks.keep_large_blocks`; each case runs in a
    process of its own, so no other case gets the setting)."""
    def make(scale: int) -> Case:
        from tf1_pipelines.runtime.large_blocks import keep_large_blocks
        keep_large_blocks()
        return _inception_pipeline(backend)(scale)
    return make


def _prepare_inception() -> None:
    _inception_dataset()


BENCH = PipelineBench(INCEPTION_BATCH, {
    SEED_CASE: _inception_seed,
    "floor (read+parse+decode+batch)": _inception_floor,
    "queue": _inception_pipeline("queue"),
    "dataset": _inception_pipeline("dataset"),
    "queue, large blocks kept": _large_blocks("queue"),
    "dataset, large blocks kept": _large_blocks("dataset"),
}, floor="floor (read+parse+decode+batch)", prepare=_prepare_inception)
