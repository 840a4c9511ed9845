"""Seed 003's benchmark cases: the seed's ``read_and_decode`` on a
``string_input_producer`` with Coordinator threads, the floor (read + parse +
padded batch), the uniform face's queue and dataset backends.

Internals are imported inside each case, as the harness always did: discovery
stays cheap, and each case's first-batch latency still includes what it imports
in the process that measures it.
"""
from __future__ import annotations

from typing import Any

from tf1_pipelines.bench.cases import (
    FLOOR_CASE,
    FLOOR_PARALLEL_CALLS,
    SEED_CASE,
    Case,
    PipelineBench,
    floor_case,
    megabytes,
    one_shot,
    pipeline_factory,
    queue_session_case,
    tensorflow,
)

VOC_BATCH = 2            # the seed's read_and_decode
# Declared memory on the embedded records (6 records of 1.0 MB on average, 1.5 MB at
# most; an example cropped or padded to 384 x 384 is 590 KB with its mask): per
# reading thread a record and its decoded pixels (3 MB at most); the shuffle queue
# or buffer of 30 examples (the seed's capacity); batches being built, handed
# over and with the caller. The floor pads raw images to the batch's largest.
_RAW = 3 * 1_500_000
_EXAMPLE = 384 * 384 * 4
_HANDED = 3
_QUEUE_MB = megabytes(2 * _RAW, 30 * _EXAMPLE, (1 + _HANDED) * VOC_BATCH * _EXAMPLE)
_FLOOR_MB = megabytes(4 * _RAW, (1 + 1 + _HANDED) * VOC_BATCH * 1_500_000)


def _voc_files() -> list[str]:
    """The embedded VOC-like records (built on first use)."""
    from .pipeline import VocSegmentationPipeline
    return list(VocSegmentationPipeline().files)


def _voc_warmup() -> int:
    return 30 // VOC_BATCH + 2  # shuffle_batch capacity 30


def _voc_seed(scale: int) -> Case:
    """The seed: ``read_and_decode(string_input_producer(files))`` with its numbers
    (batch 2, capacity 30, 2 threads, min_after_dequeue 10), run with Coordinator
    threads. ``num_epochs=None`` instead of the seed's 10, so it never ends."""
    tf1 = tensorflow().compat.v1
    from .legacy import read_and_decode
    files = _voc_files()

    def build() -> Any:
        filename_queue = tf1.train.string_input_producer(files, num_epochs=None)
        return read_and_decode(filename_queue)
    return queue_session_case(build, _voc_warmup(), declared_mb=_QUEUE_MB)


def _voc_floor(scale: int) -> Case:
    """Read + parse (``decode_raw`` of image and mask) + batch: the raw pixels of
    images of different sizes, padded to the largest of the batch; no crop-or-pad,
    no shuffle."""
    tf = tensorflow()
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
        return one_shot(dataset)
    return floor_case(build, declared_mb=_FLOOR_MB)


def _prepare_voc() -> None:
    _voc_files()


BENCH = PipelineBench(VOC_BATCH, {
    SEED_CASE: _voc_seed,
    FLOOR_CASE: _voc_floor,
    "queue": pipeline_factory("voc_segmentation", _voc_warmup(), _QUEUE_MB, backend="queue",
                              batch_size=VOC_BATCH),
    "dataset": pipeline_factory("voc_segmentation", declared_mb=_QUEUE_MB, backend="dataset",
                                batch_size=VOC_BATCH),
}, prepare=_prepare_voc)
